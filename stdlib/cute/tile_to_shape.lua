--- cute.tile_to_shape -- CuTe's tile_to_shape(block, shape [, order]):
-- copies of the layout `block` (a Layout, or a composed layout: its inner
-- function and offset are kept outside) arranged to cover `shape`, the copies in the
-- order `order` (column-major by default, as CuTe's LayoutLeft):
--
--   block padded with 1:0 modes to rank(shape), then
--   blocked_product(block, make_ordered_layout(shape / block, order))
--
--   tile_to_shape(Sw<3,3,3> o 0 o (8,64):(64,1), {128, 64})
--     --> Sw<3,3,3> o 0 o ((8,16),(64,1)):((64,512),(1,0))
-- Each mode of the block must divide the shape's (CuTe asserts it too).
local core = require "cute.core"
local tiler = require "cute.tiler"
local E = require "cute.error"
local product = require "cute.product"
local composed = require "cute.composed_layout"

local function tile_to_shape(block, shape, order)
  if composed.is_composed(block) then
    return composed.on_layout_b(block, tile_to_shape, "tile_to_shape", shape, order)
  end
  E.argcheck(tiler.is_layout(block), "tile_to_shape", 1,
    "cute.Layout or cute.ComposedLayout", block)
  E.argcheck(type(shape) == "table" or math.tointeger(shape), "tile_to_shape",
    2, "shape", shape)
  E.argcheck(order == nil or type(order) == "table" or math.tointeger(order),
    "tile_to_shape", 3, "order", order)
  local r = core.rank(shape)
  if core.rank(block) > r then
    E.raise(("tile_to_shape(%s, %s): the block has rank %d, above the "
      .. "shape's %d"):format(tostring(block), core.tuple_tostring(shape),
      core.rank(block), r))
  end
  local padded = core.append(block, core.layout(1, 0), r)
  local bs = core.product_each(padded:shape())
  local ts = core.product_each(type(shape) == "table" and shape or {shape})
  for i = 1, r do
    if ts[i] % bs[i] ~= 0 then
      E.raise(("tile_to_shape(%s, %s): block mode %d (size %d) does not divide "
        .. "the shape's (%d)"):format(tostring(block),
        core.tuple_tostring(shape), i - 1, bs[i], ts[i]))
    end
  end
  local grid = core.ceil_div(ts, bs)
  if order == nil then
    order = {}
    for i = 1, r do order[i] = i - 1 end
  end
  return product.blocked_product(padded, core.make_ordered_layout(grid, order))
end

return { tile_to_shape = E.protect("tile_to_shape", tile_to_shape) }
