--- cute.composed_layout -- CuTe's make_composed_layout(inner, offset,
-- outer): the function c -> inner(offset + outer(c)), for any inner
-- function CuTe allows, not only a swizzle:
--
--   inner a Swizzle  -> cute.composed(inner, offset, outer), the C type
--   inner a Layout   -> a composed layout of two layouts (this module):
--     local C = cute.make_composed_layout(cute.layout "(4,8):(8,1)", 2,
--                                         cute.layout "(2,2):(1,4)")
--     tostring(C)  --> "(4,8):(8,1) o 2 o (2,2):(1,4)"
--     C(1, 1)      --> (4,8):(8,1)(2 + 5) = 25
--
-- outer is a Layout (CuTe requires an affine outer function) -- or, in
-- the inverse of a swizzled layout, the swizzle; offset an integer, or a
-- coordinate when outer's values are coordinates.  Slicing folds the
-- slice's offset into the composed offset (inner need not be linear), so
-- C(i, cute._) returns the composed sublayout and 0.
--
-- Layout operations follow CuTe's rule for any composed layout: the
-- operation applies to the layout that is the domain (outer; CuTe's
-- layout_b) and the inner function and offset are kept:
--   logical_divide(Sw o off o L, T) = Sw o off o logical_divide(L, T)
-- (the divides, products, local_tile, local_partition, tile_to_shape,
-- composition by a tiler, coalesce, filter, flatten, take, group_modes).
-- The inverses invert each part, in reverse order:
--   right_inverse(F o 0 o L) = right_inverse(L) o 0 o F^-1
local core = require "cute.core"
local tiler = require "cute.tiler"
local E = require "cute.error"

local M = {}

local Composed = {__name = "cute.ComposedLayoutFn"}
M.Composed = Composed
local Swizzle, ComposedLayout = core.metatables.Swizzle,
                                core.metatables.ComposedLayout

local function add(a, b)
  if type(a) == "table" or type(b) == "table" then return core.tuple_add(a, b) end
  return a + b
end

local function offset_text(o)
  return type(o) == "table" and core.tuple_tostring(o) or tostring(o)
end

-- A table offset must be a coordinate now, not when the value is printed
-- or called: the tuple's reason is given as the argument's.
local function check_coordinate(offset)
  if type(offset) ~= "table" then return end
  local ok, why = pcall(core.tuple_tostring, offset)
  if not ok then
    E.raise(("bad argument #2 to 'make_composed_layout' (coordinate offset expected, %s)")
      :format(tostring(why):match("%((tuple: .*)%)$") or tostring(why)))
  end
end

function M.make_composed_layout(inner, offset, outer)
  if getmetatable(inner) == Swizzle then
    return core.composed(inner, offset, outer)
  end
  E.argcheck(tiler.is_layout(inner) or getmetatable(inner) == Composed,
    "make_composed_layout", 1, "cute.Layout or cute.Swizzle", inner)
  E.argcheck(math.tointeger(offset) or type(offset) == "table",
    "make_composed_layout", 2, "integer or coordinate offset", offset)
  check_coordinate(offset)
  E.argcheck(tiler.is_layout(outer) or getmetatable(outer) == Swizzle,
    "make_composed_layout", 3, "cute.Layout or cute.Swizzle", outer)
  return setmetatable({inner = inner, offset = offset, outer = outer}, Composed)
end

function Composed.__tostring(C)
  return ("%s o %s o %s"):format(tostring(C.inner), offset_text(C.offset),
                                 tostring(C.outer))
end

-- A call and an operation run within a label: the argument errors of the
-- outer layout's call or of op (a bad coordinate, a missing operand) are
-- the script's, raised at its line.
local function call(C, ...)
  local r, off = C.outer(...)
  if off ~= nil then
    return M.make_composed_layout(C.inner, add(C.offset, off), r), 0
  end
  return C.inner(add(C.offset, r))
end
function Composed.__call(C, ...) return E.within("composed layout", call, C, ...) end

-- (op is called by within, from C, so that its argument errors name it
-- as the user does, cute.composition, where Lua would name this file's
-- variable: "bad argument #2 to 'op'")
local function layout_b(C, op, name, ...)
  local r, off = E.within(name, op, C.outer, ...)
  if off == nil then return M.make_composed_layout(C.inner, C.offset, r) end
  return M.make_composed_layout(C.inner, add(C.offset, off), r), 0
end

--- Composed.__layout_b(C, op, name, ...): op(outer, ...) composed with C's
-- inner function and offset (an offset op returns is folded in, as a
-- slice's); name is op's, for errors.  The hook by which cute.core's
-- layout operations take this type (bindings: cutelua_composed_op).
function Composed.__layout_b(C, op, name, ...)
  return E.within(name, layout_b, C, op, name, ...)
end

--- is_composed(x): a composed layout of either kind (C's Sw o off o L,
-- or this module's).
function M.is_composed(x)
  local mt = getmetatable(x)
  return mt == Composed or mt == ComposedLayout
end

--- on_layout_b(C, op, name, ...): a stdlib operation op (named name)
-- applied to a composed layout by CuTe's rule (op of the domain layout,
-- the rest kept).
function M.on_layout_b(C, op, name, ...)
  if getmetatable(C) == Composed then return Composed.__layout_b(C, op, name, ...) end
  return core.composed(C:swizzle(), C:offset(), op(C:layout(), ...))
end

-- The parts of a composed layout: inner function, offset, domain layout.
local function parts(C)
  if getmetatable(C) == Composed then return C.inner, C.offset, C.outer end
  return C:swizzle(), C:offset(), C:layout()
end

-- Does Sw<b,m,s> map [0, n) onto itself (it is an involution, so into
-- is onto)?  For s > 0 it changes only the target bits [m, m+b), from
-- source bits above them: an i < n that differs from n at or above bit
-- m+b keeps that difference; the others, n's top part plus y in [0, r)
-- with r = n mod 2^(m+b), all get y xor x, x = n's source bits moved onto
-- the targets, and y xor x < r for all y < r exactly when x = 0 or r is a
-- multiple of 2^(top bit of x + 1).  For s < 0 (targets above sources):
-- n a whole number of periods 2^(b+m+|s|), or n <= 2^m (identity there);
-- other n are refused unchecked.
local function swizzle_keeps(sw, n)
  local b, m, s = sw:params()
  if b == 0 or n % (1 << (b + m + math.abs(s))) == 0 then return true end
  if s < 0 then return n <= 1 << m end
  local r = n % (1 << (m + b))
  local x = (n >> s) & (((1 << b) - 1) << m)
  local top = 1
  while top <= x do top = top << 1 end
  return x == 0 or r % top == 0
end

-- right_inverse / left_inverse of F o 0 o L: inv(L) o 0 o inv(F), a
-- swizzle being its own inverse (an involution).  A right inverse R of
-- the composition is one where F's inverse maps R's domain [0, n) into
-- inv(L)'s, n = size(inv(L)): checked, and refused naming why.
local function inverse(name, C)
  local F, off, B = parts(C)
  if off ~= 0 then
    E.raise(("%s(%s): the offset %s is not 0 (a composed layout F o off o L "
      .. "is inverted as inv(L) o 0 o inv(F), which needs off = 0)")
      :format(name, tostring(C), offset_text(off)))
  end
  if getmetatable(F) == Composed then
    E.raise(("%s(%s): the inner function is itself composed (only a "
      .. "Layout or a Swizzle inner function is inverted)")
      :format(name, tostring(C)))
  end
  local inv_b = core[name](B)
  local inv_f = getmetatable(F) == Swizzle and F or core[name](F)
  if name == "right_inverse" then
    local n = core.size(inv_b)
    local ok
    if getmetatable(F) == Swizzle then ok = swizzle_keeps(F, n)
    else ok = core.cosize(inv_f) <= n end
    if not ok then
      E.raise(("right_inverse(%s): %s, the inverse of the inner function, "
        .. "does not map [0, %d) into the domain of right_inverse(%s) = %s")
        :format(tostring(C), tostring(inv_f), n, tostring(B), tostring(inv_b)))
    end
  end
  return M.make_composed_layout(inv_b, 0, inv_f)
end

M.right_inverse = E.protect("right_inverse", function(C)
  return inverse("right_inverse", C)
end)
M.left_inverse = E.protect("left_inverse", function(C)
  return inverse("left_inverse", C)
end)

-- CuTe's accessors (layout_a, offset, layout_b) and the DSL's (inner,
-- outer); the domain is outer's.
local methods = {}
function methods.layout_a(C) return C.inner end
function methods.layout_b(C) return C.outer end
function methods.get_offset(C) return C.offset end
function methods.shape(C) return C.outer:shape() end
function methods.size(C) return core.size(C.outer) end
function methods.rank(C) return core.rank(C.outer) end
--- C:compose(B): inner o offset o (outer o B), CuTe's composition(C, B).
function methods.compose(C, B)
  return M.make_composed_layout(C.inner, C.offset, core.composition(C.outer, B))
end
Composed.__index = methods

M.make_composed_layout = E.protect("make_composed_layout", M.make_composed_layout)

return M
