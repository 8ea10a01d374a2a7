--- cute.tiler -- by-mode tilers (paper 3.3.5, Definition 3.1), and the
-- error helpers the stdlib's public functions share.
--
-- A tiler is a Layout, an integer n (the layout n:1), the slice marker
-- `_` (the mode is left whole), or a Lua table of tilers <T0, T1, ...>
-- applied mode by mode, tables nesting.  The algebra (cute.core, in C:
-- algebra/tiler.c) reads and applies them: composition, the divides, the
-- products and partitioning all take one.
--
--   (8,16):(20,1) o <4:1, 8:2>  = (4,8):(20,2)
--   cute.composition(A, {4, cute.layout "8:2"})
--   (4,8):(1,4) / <_,2:1>       = (4,(2,4)):(1,(4,8))
local core = require "cute.core"

local M = {}

local Layout = core.metatables.Layout

function M.is_layout(x)
  return getmetatable(x) == Layout
end

--- Text of a tiler: "<4:1,8:2>", nested sub-tilers as "<...>" too (C).
M.tostring = core.tiler_tostring

-- Errors.  Misuse found inside the stdlib is raised with error(msg) (level
-- 1: a position in the stdlib); so is an argument error that a C function
-- raises at the stdlib's call.  The public functions (M.public) move such
-- a position to their caller's line.  Inadmissible algebra, like the C
-- module's messages, carries no position (level 0).
local stdlib_position = "^[^\n:]*cute/[%w_/]*%.lua:%d+: "

--- Raise an argument error naming the operation and its operands.
function M.fail(op, A, T, reason)
  error(("%s(%s, %s): %s"):format(op, tostring(A), M.tostring(T), reason))
end

--- Re-raise r, an error caught by a public function: at `level` (as
-- error() counts it from the function calling reraise; public functions
-- pass 2, their caller) when it points into the stdlib, as it is otherwise.
-- A message that does not start with `call` ("name(A, T)") is prefixed by
-- it (so a step on a mode or a sub-tiler says which call it was part of);
-- without a call, one that is not about `name` is prefixed by the name; a
-- nil name adds no prefix.
function M.reraise(r, name, call, level)
  if type(r) ~= "string" then error(r, 0) end
  local msg, moved = r:gsub(stdlib_position, "", 1)
  if call and msg:sub(1, #call) ~= call then
    msg = call .. ": " .. msg
  elseif name and not call and not msg:find(name, 1, true) then
    msg = name .. ": " .. msg
  end
  error(msg, moved > 0 and level + 1 or 0)
end

--- The public function `name` made of f (any arguments and results): an
-- error raised with a position in the stdlib is moved to the caller's
-- line.  A pcall per call: not for per-launch paths.
function M.public(name, f)
  return function(...)
    local r = table.pack(pcall(f, ...))
    if r[1] then return table.unpack(r, 2, r.n) end
    M.reraise(r[2], name, nil, 2)
  end
end

--- A public operation `name(A, T)` made of the function f: an error from
-- inside (the algebra's message names the step that failed) is raised
-- prefixed by the call the user made, e.g.
--   logical_divide((4,6,8):(2,3,5), 3:1): composition(...): ... condition
function M.checked(name, f)
  return function(A, T)
    M.argcheck(M.is_layout(A), name, 1, "cute.Layout", A)
    local ok, r = pcall(f, A, T)
    if ok then return r end
    M.reraise(r, name, ("%s(%s, %s)"):format(name, tostring(A),
      M.tostring(T)), 2)
  end
end

--- The Lua type of x, or its class name (cute.Swizzle), for messages.
function M.typename(x)
  local mt = getmetatable(x)
  return type(mt) == "table" and type(mt.__name) == "string" and mt.__name
    or type(x)
end

--- Raises "bad argument #k to 'name' (what expected, got T)" unless ok,
-- at the caller of the function that checks (level 3).
function M.argcheck(ok, name, k, what, x)
  if not ok then
    error(("bad argument #%d to '%s' (%s expected, got %s)")
      :format(k, name, what, M.typename(x)), 3)
  end
end

--- The modes of L as a list of Layouts (an integer-shaped L is its own
-- single mode).
function M.modes(L)
  local t = {}
  for i = 0, core.rank(L) - 1 do t[i + 1] = L:mode(i) end
  return t
end

--- composition(A, B): B a Layout, an integer n (= n:1), `_` or a tiler
-- table; A a Layout, Swizzle or ComposedLayout.  R(c) = A(B(c)).
M.composition = core.composition

return M
