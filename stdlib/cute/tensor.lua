--- cute.tensor -- host-side tensors as in CuTe: an iterator (where the
-- values come from) composed with a layout, T(c) = *(iter + L(c)):
--
--   make_tensor(array, layout)        over a Lua array (offset o is
--                                     array[o + 1]), readable and writable
--   make_tensor(counting_iterator(n), layout)   T(c) = n + L(c)
--   make_identity_tensor(shape)       T(c) = c, the coordinate itself
--                                     (an ArithTuple iterator over
--                                     make_identity_layout(shape))
--
--   local T = cute.make_tensor(cute.counting_iterator(0), cute.layout "(4,8):(1,4)")
--   T(1, 2)           --> 9        T(1, cute._)  --> counting_iter(1) o (8):(4)
--   T[5] = x          (arrays: by index or coordinate, 0-based as CuTe)
--   cute.local_tile(T, {2, 4}, {1, 0}), cute.local_partition(T, thr, 5)
--   cute.make_fragment_like(T), cute.print_tensor(T)
--
-- A slice, local_tile and local_partition give a tensor over the same
-- values: the sublayout, its offset added to the iterator (a coordinate
-- offset for identity tensors).  print_tensor writes CuTe's text: the
-- tensor, ":", then its values row by row (ranks 1 to 4).
local core = require "cute.core"
local tiler = require "cute.tiler"
local E = require "cute.error"
local partition = require "cute.partition"
local limits = require "cute.limits"

local M = {}

local Tensor = {__name = "cute.Tensor"}
local Iterator = {__name = "cute.Iterator"}
M.Tensor, M.Iterator = Tensor, Iterator

local function is_tensor(x) return getmetatable(x) == Tensor end
M.is_tensor = is_tensor

--------------------------------------------------------------- iterators --

--- counting_iterator(n): the values n, n+1, ... (CuTe's counting_iterator).
function M.counting_iterator(n)
  local v = math.tointeger(n)
  E.argcheck(v ~= nil, "counting_iterator", 1, "integer", n)
  return setmetatable({kind = "counting", start = v}, Iterator)
end

function Iterator.__tostring(it)
  if it.kind == "counting" then return ("counting_iter(%d)"):format(it.start) end
  if it.kind == "coord" then return "ArithTuple" .. core.tuple_tostring(it.start) end
  return ("array+%d"):format(it.start)
end

-- The iterator moved by `off` (an integer, or a coordinate for ArithTuple).
local function advance(it, off)
  local r = setmetatable({kind = it.kind, data = it.data}, Iterator)
  r.start = it.kind == "coord" and core.tuple_add(it.start, off) or it.start + off
  return r
end

----------------------------------------------------------------- tensors --

local function new(it, L)
  return setmetatable({_iter = it, _layout = L}, Tensor)
end

local function as_layout(op, x, stride)
  E.argcheck(stride == nil or not tiler.is_layout(x) and
    (type(stride) == "table" or math.tointeger(stride)), op, 3,
    "stride tuple after a shape (none after a cute.Layout)", stride)
  if tiler.is_layout(x) then return x end
  E.argcheck(type(x) == "table" or math.tointeger(x), op, 2,
    "cute.Layout or shape", x)
  return core.layout(x, stride)
end

--- make_tensor(iter, layout) or make_tensor(iter, shape [, stride]):
-- iter a Lua array, a counting_iterator or an iterator of another tensor
-- (T:data()).
function M.make_tensor(iter, layout, stride)
  local L = as_layout("make_tensor", layout, stride)
  if getmetatable(iter) == Iterator then return new(iter, L) end
  E.argcheck(type(iter) == "table" and getmetatable(iter) == nil,
    "make_tensor", 1, "Lua array or cute iterator", iter)
  return new(setmetatable({kind = "array", data = iter, start = 0}, Iterator), L)
end

--- make_identity_tensor(shape): T(c) = c (CuTe's make_identity_tensor).
function M.make_identity_tensor(shape)
  local L = core.make_identity_layout(shape)
  local zero = core.tuple_sub(L(0), L(0))
  return new(setmetatable({kind = "coord", start = zero}, Iterator), L)
end

function Tensor.__tostring(T)
  return tostring(T._iter) .. " o " .. tostring(T._layout)
end

-- Accessors, named as CuTe's tensor.layout(), shape(), stride(), data().
-- Called as T.size(x), one refuses an x that is no tensor by name.
local methods = {}
local function accessor(name, f)
  methods[name] = function(T)
    E.argcheck(is_tensor(T), name, 1, "cute.Tensor", T)
    return f(T)
  end
end
accessor("layout", function(T) return T._layout end)
accessor("shape", function(T) return T._layout:shape() end)
accessor("stride", function(T) return T._layout:stride() end)
accessor("size", function(T) return core.size(T._layout) end)
accessor("rank", function(T) return core.rank(T._layout) end)
accessor("data", function(T) return T._iter end)

-- The value at offset o of the iterator (an integer, or a coordinate).
local function deref(T, o)
  local it = T._iter
  if it.kind == "counting" then return it.start + o end
  if it.kind == "coord" then return core.tuple_add(it.start, o) end
  local k = it.start + o
  if k < 0 or k >= #it.data then
    E.raise(("tensor %s: offset %d is outside the array of %d elements")
      :format(tostring(T), k, #it.data))
  end
  return it.data[k + 1]
end

-- Element access runs within "tensor": the layout's argument errors
-- (a bad coordinate) are raised at the script's line, not here.

--- T(c...): the value at coordinate c; with `_` in c, the sub-tensor.
local function call(T, ...)
  local r, off = T._layout(...)
  if off ~= nil then return new(advance(T._iter, off), r) end
  return deref(T, r)
end
function Tensor.__call(T, ...) return E.within("tensor", call, T, ...) end

-- T[k]: k an index or a coordinate table (with `_`: the sub-tensor, as
-- T(k)); other keys are the methods.
function Tensor.__index(T, k)
  if type(k) == "string" then return methods[k] end
  return E.within("tensor", call, T, k)
end

local function store(T, k, v)
  local it = T._iter
  if it.kind ~= "array" then
    E.raise(("tensor %s: its values are computed, not stored"):format(tostring(T)))
  end
  local o = T._layout(k)
  if type(o) ~= "number" then E.raise(("tensor %s: %s is not an element")
    :format(tostring(T), tiler.tostring(k))) end
  local i = it.start + o
  if i < 0 or i >= #it.data then
    E.raise(("tensor %s: offset %d is outside the array of %d elements")
      :format(tostring(T), i, #it.data))
  end
  it.data[i + 1] = v
end
function Tensor.__newindex(T, k, v) E.within("tensor", store, T, k, v) end

------------------------------------------------------ tiles and fragments --

--- local_tile / local_partition of a tensor: the layout's, with the
-- iterator moved to the tile's offset.  cute.local_tile is cute.core's
-- (one C call for a layout), which hands a value whose metatable has
-- __tile to it: __tile(T, name, ...).  (The calls name their field, so
-- that the C functions' argument errors name local_tile / local_partition.)
local function tile_of(T, ...)
  local r, off = partition.local_tile(T._layout, ...)
  return new(advance(T._iter, off), r)
end
local function partition_of(T, ...)
  local r, off = partition.local_partition(T._layout, ...)
  return new(advance(T._iter, off), r)
end
function Tensor.__tile(T, name, ...)
  return E.within(name, name == "local_tile" and tile_of or partition_of, T, ...)
end
M.local_tile = partition.local_tile
M.local_partition = partition.local_partition

-- f over the leaves of a Lua tuple.
local function map_leaves(t, f)
  if type(t) ~= "table" then return f(t) end
  local r = {}
  for i, x in ipairs(t) do r[i] = map_leaves(x, f) end
  return r
end

-- CuTe's make_fragment_like(layout): mode 0 compact column-major with its
-- stride-0 leaves kept, the other modes packed after it in the order of
-- their strides (make_ordered_layout); rank 1: compact column-major.
local function fragment_layout(L)
  local r = core.rank(L)
  if r <= 1 then return core.layout(L:shape()) end
  local m0 = L:mode(0)
  -- every non-zero stride the same key: ties keep position (column-major)
  local A0 = core.make_layout_like(core.layout(m0:shape(), map_leaves(m0:stride(),
    function(d) return d == 0 and 0 or 1 end)))
  local rest = core.take(L, 1, r)
  local c = core.size(core.filter(A0))
  local R = core.make_ordered_layout(rest:shape(), rest:stride())
  local s, d = {A0:shape()}, {A0:stride()}
  local shapes, strides = R:shape(), map_leaves(R:stride(), function(x) return x * c end)
  for i = 1, #shapes do s[i + 1], d[i + 1] = shapes[i], strides[i] end
  return core.layout(s, d)
end

--- make_fragment_like(T or layout): a new tensor over a fresh array of
-- zeros, with CuTe's fragment layout of T's (or the layout's) layout.
function M.make_fragment_like(x)
  local L = is_tensor(x) and x._layout or x
  E.argcheck(tiler.is_layout(L), "make_fragment_like", 1,
    "cute.Tensor or cute.Layout", x)
  local F = fragment_layout(L)
  local n = core.cosize(F)
  limits.check("visit", "make_fragment_like", n, "elements", L)
  local data = {}
  for i = 1, n do data[i] = 0 end
  return M.make_tensor(data, F)
end

------------------------------------------------------------ print_tensor --

-- CuTe's pretty_print: integers %5d, floats %11.3e (doubles), booleans
-- %3d, anything else two spaces and its text.
local function cell(v)
  if math.type(v) == "integer" then return ("%5d"):format(v) end
  if math.type(v) == "float" then return ("%11.3e"):format(v) end
  if type(v) == "boolean" then return ("%3d"):format(v and 1 or 0) end
  if type(v) == "table" then return "  " .. core.tuple_tostring(v) end
  return "  " .. tostring(v)
end

local function body(T, out)
  local r, shape = core.rank(T._layout), T._layout:shape()
  local _ = core._
  if r == 1 then
    for m = 0, core.size(shape) - 1 do out[#out + 1] = cell(T(m)) .. "\n" end
  elseif r == 2 then
    for m = 0, core.size(shape[1]) - 1 do
      for n = 0, core.size(shape[2]) - 1 do out[#out + 1] = cell(T(m, n)) end
      out[#out + 1] = "\n"
    end
  else
    local last, sep = core.size(shape[r]), r == 3 and "-" or "="
    for k = 0, last - 1 do
      if k > 0 then out[#out + 1] = sep:rep(5 * core.size(shape[2])) .. "\n" end
      local c = {}
      for i = 1, r - 1 do c[i] = _ end
      c[r] = k
      body(T(table.unpack(c)), out)
    end
  end
end

--- The text of print_tensor (ends with a newline).
function M.format_tensor(T)
  E.argcheck(is_tensor(T), "format_tensor", 1, "cute.Tensor", T)
  local r = core.rank(T._layout)
  if r > 4 then
    E.raise(("format_tensor(%s): rank 1 to 4 expected, got rank %d")
      :format(tostring(T), r))
  end
  limits.check("cells", "print_tensor", core.size(T._layout), "cells", T)
  local out = {tostring(T), ":\n"}
  body(T, out)
  return table.concat(out)
end

function M.print_tensor(T)
  local s = M.format_tensor(T)
  if io and io.write then io.write(s) else print(s:sub(1, -2)) end
end

-- Errors name the call (cute.error.protect).
for _, name in ipairs {"counting_iterator", "make_tensor", "make_identity_tensor",
                       "make_fragment_like", "format_tensor", "print_tensor"} do
  M[name] = E.protect(name, M[name])
end

return M
