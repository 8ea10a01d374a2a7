--- cute.tv -- thread-value (TV) layouts (paper 3.3.4, Figure 6, Table 4).
--
-- A TV layout maps (thread, value) to a coordinate of a tile, written as
-- the tile's colexicographic index.  The Ampere FP64 accumulator of the
-- paper's Figure 6 is
--
--   ThrValLayoutC = ((4,8),2):((16,1),8)     (T32,V2) -> 8x8 tile
--
-- Composing a data layout with it (Table 4) gives (thread, value) ->
-- offset, and slicing one thread gives that thread's values:
--
--   cute.composition(cute.layout "(8,8):(8,1)", C)  --> ((4,8),2):((2,8),1)
--   cute.tv_partition(cute.layout "(8,8):(8,1)", C, 5)  --> (2):(1)  10
--
-- make_layout_tv builds a TV layout from a thread layout and a value
-- layout, (m,n) -> index, as CuTe's make_layout_tv / make_tiled_copy do:
-- each thread's value block is raked over the thread grid.
--
--   local tiler, tv = cute.make_layout_tv(cute.layout_right {4, 8},
--                                         cute.layout {1, 4})
--   --> {4, 32}   ((8,4),4):((16,1),4)... (see tv_spec.lua)
--
-- The checks (`bijection`) and the ownership table (`owners`) used by the
-- pictures and the specs live here too.
local core = require "cute.core"
local E = require "cute.error"
local limits = require "cute.limits"
local product = require "cute.product"
local tiler = require "cute.tiler"

local M = {}

local function check_layout(op, x, what)
  if not tiler.is_layout(x) then
    E.raise(("%s: %s must be a cute.Layout, got %s")
      :format(op, what, E.typename(x)))
  end
end

--- (tiler, tv) for threads arranged by `thr` ((m,n) -> thread index) each
-- owning the block `val` ((m,n) -> value index) (CuTe's make_layout_tv):
--   mn    = raked_product(thr, val)            (m,n) -> (thr, val)
--   tv    = right_inverse(mn) o (|thr|,|val|)  (thr, val) -> (m,n) index
--   tiler = the size of each mode of mn
-- thr and val must be compact (bijections onto 0..size-1), so that mn is.
local function layout_tv(call, thr, val)
  local mn = product.raked_product(thr, val)
  local inv = core.right_inverse(mn)
  local nt, nv = core.size(thr), core.size(val)
  if core.size(inv) ~= nt * nv then
    E.raise(("%s: raked product %s is not a bijection onto 0..%d (are both "
      .. "layouts compact?)"):format(call(), tostring(mn), nt * nv - 1))
  end
  return core.product_each(mn:shape()), core.composition(inv, core.layout {nt, nv})
end

function M.make_layout_tv(thr, val)
  check_layout("make_layout_tv", thr, "the thread layout")
  check_layout("make_layout_tv", val, "the value layout")
  -- the steps (raked_product, right_inverse, size) name themselves: say
  -- which call they were part of
  local function call()
    return ("make_layout_tv(%s, %s)"):format(tostring(thr), tostring(val))
  end
  return E.within(call, layout_tv, call, thr, val)
end

--- A thread's place in a thread layout: the flat coordinate of index `idx`
-- in T (CuTe's get_flat_coord: cute.core.flat_coord, what local_partition
-- slices at), always a table, {c} for an integer-shaped T.
--   thr_coord((2,16,16):(1,2,32), 37) --> {1, 2, 1}
function M.thr_coord(T, idx)
  local c = core.flat_coord(T, idx)
  return type(c) == "table" and c or tiler.tuple { c }
end

--- The compose-and-slice partition of paper 3.3.4: data o tv sliced at
-- thread t.  Returns thread t's layout (value -> offset) and its offset.
function M.tv_partition(data, tv, t)
  local mt = getmetatable(data)
  if mt ~= core.metatables.Layout and mt ~= core.metatables.ComposedLayout then
    E.raise("tv_partition: the data layout must be a cute.Layout or "
      .. "cute.ComposedLayout, got " .. E.typename(data))
  end
  check_layout("tv_partition", tv, "the TV layout")
  if type(t) ~= "table" and not (type(t) == "number" and math.tointeger(t)) then
    E.raise("tv_partition: the thread index must be an integer or a "
      .. "coordinate, got " .. (type(t) == "number" and tostring(t) or type(t)))
  end
  -- the steps (composition, the slice) name themselves: say which call
  local okt, text = pcall(core.tuple_tostring, t)
  return E.within(("tv_partition(%s, %s, %s)"):format(tostring(data),
    tostring(tv), okt and text or "?"), function()
      return core.composition(data, tv)(t, core._)
    end)
end

--- The tile index a TV layout's value stands for: integers as they are;
-- coordinates (identity-composed TV layouts) through the tile shape.
local function tile_index(x, shape)
  if type(x) == "table" then return core.crd2idx(x, shape) end
  return x
end

--- Who owns each cell of the tile: owners[i + 1] = {t, v} for the first
-- (thread, value) -- in thread-major order, as CuTe's print_latex_tv
-- fills cells -- mapping to tile index i, with owners[i + 1].n the number
-- of (t, v) mapping there (> 1 for broadcasts).  Values outside the tile
-- raise an error naming the (t, v).
function M.owners(tv, shape)
  check_layout("owners", tv, "the TV layout")
  if core.rank(tv) ~= 2 then
    E.raise(("owners(%s): a TV layout has rank 2 (thread, value)")
      :format(tostring(tv)))
  end
  local n = core.size(shape)
  local nt, nv = core.size(tv:mode(0)), core.size(tv:mode(1))
  limits.check("visit", "owners", core.size(tv), "elements", tv)
  local owners = {}
  for t = 0, nt - 1 do
    for v = 0, nv - 1 do
      local i = tile_index(tv(t, v), shape)
      if i < 0 or i >= n then
        E.raise(("owners(%s): (T%d,V%d) -> %d lies outside the %s tile")
          :format(tostring(tv), t, v, i, core.tuple_tostring(shape)))
      end
      local o = owners[i + 1]
      if o then o.n = o.n + 1 else owners[i + 1] = { t = t, v = v, n = 1 } end
    end
  end
  return owners
end

--- true when tv is a bijection onto the tile of n elements once its
-- stride-0 (broadcast) modes are removed -- every cell owned by exactly
-- one (thread, value) of the filtered layout; else false and the reason.
-- ldmatrix's source ((8,4),128):((128,0),1) passes: threads 8..31 repeat
-- threads 0..7 (stride 0) and the rest is (8,128):(128,1) onto 1024 bits.
function M.bijection(tv, n)
  check_layout("bijection", tv, "the TV layout")
  local F = core.filter(tv)
  local size = core.size(F)
  if size ~= n then
    return false, ("%s without its broadcast modes is %s: %d elements for a "
      .. "tile of %d"):format(tostring(tv), tostring(F), size, n)
  end
  limits.check("visit", "bijection", size, "elements", tv)
  local seen = {}
  for i = 0, size - 1 do
    local x = F(i)
    if math.type(x) ~= "integer" or x < 0 or x >= n then
      return false, ("%s maps %d to %s, outside 0..%d")
        :format(tostring(F), i, tostring(x), n - 1)
    end
    if seen[x] then
      return false, ("%s maps both %d and %d to %d")
        :format(tostring(F), seen[x], i, x)
    end
    seen[x] = i
  end
  return true
end

return M
