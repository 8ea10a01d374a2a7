--- cute.tiler -- by-mode tilers (paper 3.3.5, Definition 3.1).
--
-- A tiler is a Layout, an integer n (the layout n:1), or a Lua table of
-- tilers <T0, T1, ...> applied mode by mode: element i acts on mode i of
-- the layout; an element that is itself a table is a sub-tiler acting on
-- the modes of that mode.
--
--   (8,16):(20,1) o <4:1, 8:2>  = (4,8):(20,2)
--   cute.composition(A, {4, cute.layout "8:2"})
--
-- The slice marker `_` as a tile leaves its mode untouched, as CuTe's
-- Underscore tiler does in composition, logical_divide and logical_product
-- (A o _ = A / _ = A x _ = A), and prints as `_`:
--   (4,8):(1,4) / <_,2:1>  = (4,(2,4)):(1,(4,8))
-- The zipped, tiled and flat arrangements then split the untouched mode
-- into (tile, rest) as its modes 0 and 1, as CuTe's zip2_by does (which
-- requires it to have rank 2): for (thr, val) modes already arranged.
--
-- Operations that take tilers (composition, the divides, the by-mode
-- products) call `bymode` with their own per-mode operation.
local core = require "cute.core"
local E = require "cute.error"

local M = {}

local Layout = core.metatables.Layout
local _ = core._

function M.is_layout(x)
  return getmetatable(x) == Layout
end

-- An integer tile: integers and floats with an exact integer value, as
-- everywhere the C module reads integers (nil otherwise).
local function integer(t)
  return type(t) == "number" and math.tointeger(t) or nil
end

-- No layout nests deeper than this, so no tiler that applies does either.
local max_depth = core.limits.depth

--- Text of a tiler: "<4:1,8:2>", nested sub-tilers as "<...>" too; those
-- past max_depth levels (a tiler too deep to apply, or a cyclic table) as
-- "<...>", so the text stays short (it was quadratic in the nesting).
function M.tostring(T, depth)
  if T == _ then return "_" end
  if type(T) ~= "table" then
    return integer(T) and (integer(T) .. ":1") or tostring(T)
  end
  depth = (depth or 0) + 1
  if depth > max_depth + 1 then return "<...>" end
  local parts = {}
  for i = 1, #T do parts[i] = M.tostring(T[i], depth) end
  return "<" .. table.concat(parts, ",") .. ">"
end

--- t marked as a tuple, so that print(t) gives its CuTe text "(16,8,16)"
-- in scripts as in the REPL (the metatable of the tuples cute.core
-- returns; a marked table is still read as a tuple).
function M.tuple(t)
  return core.mark_tuple(t)
end

--- T marked as a tiler: print(T) gives "<_,(8,2,2):(1,16,8),_>".
local Tiler = { __tostring = function(T) return M.tostring(T) end }
function M.mark(T)
  return setmetatable(T, Tiler)
end

-- Errors (cute.error): misuse is raised at the caller's line wherever it
-- is found; an operation made of steps prefixes a failing step's message
-- with the call the user made.

--- Raise an argument error naming the operation and its operands.
function M.fail(op, A, T, reason)
  E.raise(("%s(%s, %s): %s"):format(op, tostring(A), M.tostring(T), reason))
end

--- A public operation `name(A, T)` made of the function f: an error from
-- inside (the algebra's message names the step that failed) is raised
-- prefixed by the call the user made, e.g.
--   logical_divide((4,6,8):(2,3,5), 3:1): composition(...): ... condition
function M.checked(name, f)
  return function(A, T)
    E.argcheck(M.is_layout(A), name, 1, "cute.Layout", A)
    return E.within(("%s(%s, %s)"):format(name, tostring(A), M.tostring(T)),
      f, A, T)
  end
end

--- The layout a non-table tile stands for: Layouts as they are, n as n:1.
function M.tile(t, op, A, T)
  if M.is_layout(t) then return t end
  if integer(t) then return core.layout(integer(t), 1) end
  M.fail(op, A, T, ("%s %s (%s) is not a layout, integer or table")
    :format(t == T and "tiler" or "tiler element", M.tostring(t),
    t == _ and "the slice marker" or math.type(t) == "float"
    and "a non-integral number" or "a " .. E.typename(t)))
end

-- The first key of table T that is not part of the list 1..#T (a key
-- outside it, or a hole in it), as text; nil for a proper list.
local function bad_key(T)
  local n = #T
  for k in pairs(T) do
    if math.type(k) ~= "integer" or k < 1 or k > n then
      return type(k) == "string" and ("%q"):format(k) or tostring(k),
             "is outside the list 1.." .. n
    end
  end
  for i = 1, n do
    if T[i] == nil then
      return tostring(i), "is missing from the list 1.." .. n
    end
  end
end

--- (op(A0, T1), op(A1, T2), ...): `op(Ai, Ti)` on each mode named by the
-- tiler table T; a table element recurses into that mode.  The modes of A
-- past #T are kept when `keep_rest` (divides, products) and dropped
-- otherwise (composition, as CuTe C++ does).  A tiler nested deeper than
-- max_depth is refused before it recurses (a cyclic table would recurse
-- until the Lua stack overflows).
function M.bymode(op, name, A, T, keep_rest, depth)
  depth = (depth or 0) + 1
  if depth > max_depth then
    M.fail(name, A, T, ("tiler nesting exceeds the limit of %d levels (a "
      .. "layout's depth, CUTE_MAX_DEPTH: cute.limits.depth)")
      :format(max_depth))
  end
  if not M.is_layout(A) then
    E.raise(("%s: a by-mode tiler needs a cute.Layout on the left, got %s")
      :format(name, tostring(A)))
  end
  local key, where = bad_key(T)
  if key then
    M.fail(name, A, T, ("tiler key %s %s (a tiler table is a list 1..n "
      .. "without holes or other keys)"):format(key, where))
  end
  local r = core.rank(A)
  if #T > r then
    M.fail(name, A, T, ("tiler has %d modes but the layout has rank %d")
      :format(#T, r))
  end
  local modes = {}
  for i = 1, #T do
    local t = T[i]
    if t == _ then
      modes[i] = A:mode(i - 1)
    elseif type(t) == "table" then
      modes[i] = M.bymode(op, name, A:mode(i - 1), t, keep_rest, depth)
    else
      modes[i] = op(A:mode(i - 1), M.tile(t, name, A, T))
    end
  end
  if keep_rest then
    for i = #T, r - 1 do modes[#modes + 1] = A:mode(i) end
  end
  return core.concat(table.unpack(modes))
end

--- The whole operation of a divide or product, from op1(A, B) on a Layout
-- B: a tiler table applies op1 by mode and keeps the modes of A past it;
-- an integer n stands for n:1.
function M.by_tiler(op1, name)
  return function(A, T)
    if T == _ then return A end
    if type(T) == "table" then return M.bymode(op1, name, A, T, true) end
    return op1(A, M.tile(T, name, A, T))
  end
end

--- A variant of `logical` (zipped, tiled, flat: below) arranging its
-- result by the tiler.
function M.arranged(logical, arrange)
  return function(A, T) return arrange(logical(A, T), T) end
end

--- The modes of L as a list of Layouts (an integer-shaped L is its own
-- single mode).
function M.modes(L)
  local t = {}
  for i = 0, core.rank(L) - 1 do t[i + 1] = L:mode(i) end
  return t
end

--- Splits D, the result of a by-mode divide or product of some layout by
-- tiler T, into its "tile" and "rest" parts (CuTe's tile_unzip): for a
-- non-table T, D is already (tile, rest) -- for `_`, the untouched mode
-- must have rank 2 to be read so; a table splits each mode it names, and
-- modes past it belong to the rest.
function M.unzip(D, T)
  if T == _ and core.rank(D) ~= 2 then
    E.raise(("a mode kept whole by _ is split into (tile, rest) as its modes "
      .. "0 and 1, as in CuTe, so it needs rank 2; %s has rank %d")
      :format(tostring(D), core.rank(D)))
  end
  if type(T) ~= "table" then return D:mode(0), D:mode(1) end
  local tiles, rests = {}, {}
  for i = 1, #T do
    tiles[i], rests[i] = M.unzip(D:mode(i - 1), T[i])
  end
  for i = #T, core.rank(D) - 1 do rests[#rests + 1] = D:mode(i) end
  return core.concat(table.unpack(tiles)), core.concat(table.unpack(rests))
end

--- The three arrangements of the divides and products (docs/architecture.md,
-- "Divides and products by mode"), for D = op(A, T):
--   zipped ((T0,T1,..), (R0,R1,..))   tiled ((T0,T1,..), R0, R1, ..)
--   flat   (T0, T1, .., R0, R1, ..)
function M.zipped(D, T)
  return core.concat(M.unzip(D, T))
end

function M.tiled(D, T)
  local tile, rest = M.unzip(D, T)
  return core.concat(tile, table.unpack(M.modes(rest)))
end

function M.flat(D, T)
  local tile, rest = M.unzip(D, T)
  local modes, more = M.modes(tile), M.modes(rest)
  table.move(more, 1, #more, #modes + 1, modes)
  return core.concat(table.unpack(modes))
end

--- composition(A, B): B a Layout, an integer n (= n:1) or a tiler table;
-- A a Layout, Swizzle or ComposedLayout.  R(c) = A(B(c)).  An error on a
-- mode of a tiler is prefixed by the whole call, as the C fast path does.
local function by_tiler(A, B)
  if B == _ then return A end
  if type(B) == "table" then
    return M.bymode(core.composition, "composition", A, B, false)
  end
  return core.composition(A, B)
end
local function by_tiler_checked(A, B)
  return E.within(M.is_layout(A) and type(B) == "table"
    and ("composition(%s, %s)"):format(tostring(A), M.tostring(B))
    or "composition", by_tiler, A, B)
end
function M.composition(A, B)
  -- Two layouts (or a layout and n) go straight to C, whose errors need
  -- no prefix, without the pcall of E.within.
  if M.is_layout(A) then
    if M.is_layout(B) or math.type(B) == "integer" then
      return core.composition(A, B)
    end
    -- A flat tiler of layouts and integers: one pass in C (nil otherwise,
    -- and on failure, so that errors come from the path below).
    local R = type(B) == "table" and core.composition_tiler(A, B)
    if R then return R end
  end
  return by_tiler_checked(A, B)
end

return M
