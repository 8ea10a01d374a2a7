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
-- outer is a Layout (CuTe requires an affine outer function); offset an
-- integer, or a coordinate when outer's values are coordinates.  Slicing
-- folds the slice's offset into the composed offset (inner need not be
-- linear), so C(i, cute._) returns the composed sublayout and 0.
local core = require "cute.core"
local tiler = require "cute.tiler"
local E = require "cute.error"

local M = {}

local Composed = {__name = "cute.ComposedLayoutFn"}
M.Composed = Composed

local function add(a, b)
  if type(a) == "table" or type(b) == "table" then return core.tuple_add(a, b) end
  return a + b
end

local function offset_text(o)
  return type(o) == "table" and core.tuple_tostring(o) or tostring(o)
end

function M.make_composed_layout(inner, offset, outer)
  if getmetatable(inner) == core.metatables.Swizzle then
    return core.composed(inner, offset, outer)
  end
  E.argcheck(tiler.is_layout(inner) or getmetatable(inner) == Composed,
    "make_composed_layout", 1, "cute.Layout or cute.Swizzle", inner)
  E.argcheck(math.tointeger(offset) or type(offset) == "table",
    "make_composed_layout", 2, "integer or coordinate offset", offset)
  E.argcheck(tiler.is_layout(outer), "make_composed_layout", 3,
    "cute.Layout", outer)
  return setmetatable({inner = inner, offset = offset, outer = outer}, Composed)
end

function Composed.__tostring(C)
  return ("%s o %s o %s"):format(tostring(C.inner), offset_text(C.offset),
                                 tostring(C.outer))
end

function Composed.__call(C, ...)
  local r, off = C.outer(...)
  if off ~= nil then
    return M.make_composed_layout(C.inner, add(C.offset, off), r), 0
  end
  return C.inner(add(C.offset, r))
end

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
