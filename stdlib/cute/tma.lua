--- cute.tma -- CuTe's make_tma_copy on the host: the tensor map (TMA
-- descriptor) fields, the copies that fill one CTA tile of shared memory,
-- and the TMA coordinate tensor, all derived from three layouts.
--
--   local t = cute.make_tma_copy("SM90_TMA_LOAD", {layout = G, dtype = "bf16"},
--                                smem_layout, {128, 64})
--
-- G is the global tensor's layout (element strides; a cute.cuda tensor
-- will do), smem_layout the CTA's shared-memory tile (a Layout, or a
-- swizzled Sw o 0 o L), the tiler the CTA tile over G's modes (by default
-- the product of each mode of the smem layout).  As CuTe does:
--
--   s2g = coalesce(identity(G) o tiler o right_inverse(L))
--
-- maps each shared-memory offset to the global coordinate it holds (basis
-- strides v@j).  Its leading modes of unit basis stride 1@j are the box,
-- one TMA dimension each (gmem mode j, its extent and byte stride), the
-- gmem modes it leaves out appended with box extent 1; the remaining modes
-- enumerate the copies, each at shared offset i * size(box).  The swizzle
-- is the smem layout's on byte offsets: Sw<B,4,3> is the map's
-- 16 << B-byte swizzle (B = 0: none).  A multicast load over n CTAs splits
-- the box into n parts, CTA c loading part c for all of them.
--
--   t.dims, t.strides, t.box, t.swizzle_bytes   the map (strides in bytes,
--                                               the first the element's)
--   t.modes     the gmem mode of each TMA dimension (0-based)
--   t:copies(c) {smem = element offset, coord = TMA coordinate} per copy of
--               CTA c (0 by default)
--   t:get_tma_tensor(shape)  the coordinate tensor: G's coordinates to TMA
--               coordinates, ArithTuple(0,...) o shape:(1@i, ...)
local core = require "cute.core"
local E = require "cute.error"
local atom = require "cute.atom"

local M = {}

local Tma = {__name = "cute.TmaCopy"}
local methods = {}
Tma.__index = methods
M.TmaCopy = Tma

local MAX_RANK, MAX_BOX = 5, 256   -- a tensor map's dimensions; a box's extent

local function fail(fmt, ...)
  E.raise("make_tma_copy: " .. fmt:format(...))
end

local log2 = core.log2

-- v, j of a basis stride v@j; nil for an integer, a nested basis or a sum.
local function basis(d)
  if getmetatable(d) ~= core.metatables.E then return nil end
  local mode = d.mode
  if mode and #mode == 1 then return d.value, mode[1] end
end

-- The list of modes of a flat layout, each {extent, stride}.
local function modes(L)
  local s, d = L:shape(), L:stride()
  if type(s) ~= "table" then return { { s, d } } end
  local t = {}
  for i = 1, #s do t[i] = { s[i], d[i] } end
  return t
end

-- The 16 << B-byte swizzle of the map for smem swizzle sw on elements of
-- eb bytes: on byte offsets it must be Sw<B,4,3> (CuTe's
-- get_tma_swizzle_bits).
local function swizzle_bytes(sw, eb)
  if not sw then return 0 end
  local b, m, s = sw:params()
  if b == 0 then return 0 end
  if m + log2(eb) ~= 4 or s ~= 3 or b > 3 or (1 << log2(eb)) ~= eb then
    fail("the smem swizzle %s on %d-byte elements is Sw<%d,%d,%d> on bytes; "
      .. "a tensor map swizzles as Sw<B,4,3>, B = 1, 2, 3 (32, 64, 128 bytes)",
      tostring(sw), eb, b, m + log2(eb), s)
  end
  return 16 << b
end

-- Bytes of an element of the global tensor: an element type of any
-- spelling (i32, s32, tf32, ...) or a number of bits, as atoms take them.
local function element_bytes(dtype)
  return atom.type_bits(dtype) // 8
end

local function check_op(op)
  E.argcheck(type(op) == "string", "make_tma_copy", 1,
    "TMA atom name (SM90_TMA_LOAD, ...)", op)
  local entry = require("cute.arch")[op]
  if not entry or entry.kind ~= "tma" then
    fail("%s is not a TMA atom (SM90_TMA_LOAD, SM90_TMA_LOAD_MULTICAST, "
      .. "SM90_TMA_STORE)", tostring(op))
  end
  return entry
end

--- make_tma_copy(op, gtensor, slayout [, cta_tiler [, cluster_size]])
function M.make_tma_copy(op, gtensor, slayout, cta_tiler, cluster_size)
  local entry = check_op(op)
  E.argcheck(type(gtensor) == "table" and
    getmetatable(gtensor.layout) == core.metatables.Layout, "make_tma_copy", 2,
    "global tensor (a cute.cuda tensor or {layout = L, dtype = t})", gtensor)
  local composed = getmetatable(slayout) == core.metatables.ComposedLayout
  E.argcheck(composed or getmetatable(slayout) == core.metatables.Layout,
    "make_tma_copy", 3, "smem cute.Layout or swizzled cute.ComposedLayout",
    slayout)
  E.argcheck(cta_tiler == nil or type(cta_tiler) == "table" or
    math.tointeger(cta_tiler), "make_tma_copy", 4, "CTA tile shape", cta_tiler)
  E.argcheck(cluster_size == nil or math.type(cluster_size) == "integer",
    "make_tma_copy", 5, "integer cluster size", cluster_size)
  local eb = element_bytes(gtensor.dtype)
  local G = gtensor.layout
  local sw, S = nil, slayout
  if composed then
    if slayout:offset() ~= 0 then
      fail("the smem layout %s has an offset (a TMA box starts at its origin)",
        tostring(slayout))
    end
    sw, S = slayout:swizzle(), slayout:layout()
  end
  local n = cluster_size or 1
  if n < 1 or (n > 1 and not entry.multicast) then
    fail("cluster size %s: a positive integer, above 1 only for "
      .. "SM90_TMA_LOAD_MULTICAST", tostring(cluster_size))
  end
  local r = core.rank(G)
  for j = 0, r - 1 do
    if type(core.coalesce(G:mode(j)):stride()) == "table" then
      fail("gmem mode %d of %s is hierarchical (one TMA dimension per mode "
        .. "here)", j, tostring(G))
    end
  end
  if r > MAX_RANK then fail("%s has %d modes; a tensor map has at most %d",
    tostring(G), r, MAX_RANK) end
  local tile = cta_tiler or core.product_each(S:shape())
  local ts = core.product_each(type(tile) == "table" and tile or { tile })
  local ss = core.product_each(S:shape())
  ss = type(ss) == "table" and ss or { ss }
  for i = 1, math.max(#ts, #ss) do
    if ts[i] ~= ss[i] then
      fail("the CTA tile %s and the smem layout %s differ in mode %d",
        core.tuple_tostring(ts), tostring(S), i - 1)
    end
  end
  local inv = core.right_inverse(S)
  if core.size(inv) ~= core.size(S) then
    fail("the smem layout %s is not a bijection onto [0, %d)", tostring(S),
      core.size(S))
  end
  local s2g = core.coalesce(core.composition(
    core.composition(core.make_identity_layout(G:shape()), tile), inv))
  -- the box: leading modes of unit stride 1@j
  local ms, box_modes, rest, seen = modes(s2g), {}, {}, {}
  for _, m in ipairs(ms) do
    local v, j = basis(m[2])
    if #rest == 0 and m[1] > 1 and v == 1 and not seen[j] and #box_modes < MAX_RANK then
      box_modes[#box_modes + 1] = { m[1], j }
      seen[j] = true
    elseif m[1] > 1 then
      rest[#rest + 1] = m
    end
  end
  if #box_modes == 0 or core.coalesce(G:mode(box_modes[1][2])):stride() ~= 1 then
    fail("the smem layout %s and the global layout %s have no common "
      .. "contiguous mode (CuTe: no common smem-gmem vectorization)",
      tostring(S), tostring(G))
  end
  -- multicast: CTA c loads part c of the box (its outer modes split)
  local split = 1
  for _, m in ipairs(box_modes) do split = split * m[1] end
  local per = split // n
  local t = setmetatable({ op = entry.name, atom = entry, dtype = gtensor.dtype,
    element_bytes = eb, swizzle_bytes = swizzle_bytes(sw, eb), multicast = n,
    dims = {}, strides = {}, box = {}, modes = {}, tile = ts,
    smem_layout = slayout, gmem_layout = G }, Tma)
  local left = per
  for _, m in ipairs(box_modes) do
    local e = math.min(m[1], left)
    if left % e ~= 0 or m[1] % e ~= 0 then
      fail("the box of %d elements does not split into %d CTAs along its "
        .. "modes", split, n)
    end
    left = left // e
    t.box[#t.box + 1], t.modes[#t.modes + 1] = e, m[2]
  end
  for j = 0, r - 1 do
    if not seen[j] then t.box[#t.box + 1], t.modes[#t.modes + 1] = 1, j end
  end
  for i, j in ipairs(t.modes) do
    local g = core.coalesce(G:mode(j))
    t.dims[i], t.strides[i] = core.size(g), g:stride() * eb
    if t.box[i] > MAX_BOX then
      fail("box extent %d along gmem mode %d exceeds %d", t.box[i], j, MAX_BOX)
    end
  end
  if (t.box[1] * eb) % 16 ~= 0 then
    fail("the box's inner extent, %d bytes, is not a multiple of 16", t.box[1] * eb)
  end
  if t.swizzle_bytes > 0 and t.box[1] * eb > t.swizzle_bytes then
    fail("the box's inner extent, %d bytes, exceeds the %d-byte swizzle",
      t.box[1] * eb, t.swizzle_bytes)
  end
  t.rank = #t.modes
  t.bytes = per * eb
  t.s2g = s2g
  t.count = core.size(s2g) // split
  return t
end

-- The TMA coordinate (in TMA dimension order) of global coordinate x.
local function tma_coord(t, x)
  x = type(x) == "table" and x or { x }
  local c = {}
  for i, j in ipairs(t.modes) do c[i] = x[j + 1] or 0 end
  return c
end

--- t:copies([c]) -> the copies CTA c issues, each {smem = element offset
-- of its box in the tile, coord = its TMA coordinate within the tile}.
function methods.copies(t, c)
  E.argcheck(getmetatable(t) == Tma, "copies", 1, "cute.TmaCopy", t)
  E.argcheck(c == nil or math.type(c) == "integer", "copies", 2, "CTA index (integer)", c)
  c = c or 0
  local per = t.bytes // t.element_bytes
  local split = per * t.multicast
  local list = {}
  for k = 0, t.count - 1 do
    local o = k * split + c * per
    list[#list + 1] = { smem = o, coord = tma_coord(t, t.s2g(o)) }
  end
  return list
end

--- t:get_tma_tensor(shape): CuTe's coordinate tensor of the global tensor:
-- at a global coordinate, the TMA coordinate a copy names it by.
function methods.get_tma_tensor(t, shape)
  E.argcheck(getmetatable(t) == Tma, "get_tma_tensor", 1, "cute.TmaCopy", t)
  local d = {}
  local where = {}
  for i, j in ipairs(t.modes) do where[j] = i - 1 end
  for j = 0, core.rank(t.gmem_layout) - 1 do d[j + 1] = core.E(where[j]) end
  local L = core.layout(shape, #d == 1 and d[1] or d)
  local zero = require("cute.tensor").make_identity_tensor(shape)
  return require("cute.tensor").make_tensor(zero:data(), L)
end

local function list(t) return "(" .. table.concat(t, ",") .. ")" end

function Tma.__tostring(t)
  return ("TMA %s %s: globalDim %s globalStrides %s boxDim %s swizzle %s, "
    .. "%d cop%s of %d bytes%s"):format(t.op, tostring(t.dtype), list(t.dims),
    list(t.strides), list(t.box), t.swizzle_bytes == 0 and "none"
    or t.swizzle_bytes .. "B", t.count, t.count == 1 and "y" or "ies", t.bytes,
    t.multicast > 1 and (" per CTA of %d"):format(t.multicast) or "")
end

M.make_tma_copy = E.protect("make_tma_copy", M.make_tma_copy)
-- (the layouts they build from the arguments name the method that failed)
methods.copies = E.protect("copies", methods.copies)
methods.get_tma_tensor = E.protect("get_tma_tensor", methods.get_tma_tensor)

return M
