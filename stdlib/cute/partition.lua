--- cute.partition -- the compose-and-slice partitioning of paper 3.3.4 and
-- the end of 3.5.2, with CuTe's names and semantics, on layouts: a slice
-- returns the sublayout and the offset it starts at (paper eq. 10).
--
--   local_tile(A, tiler, coord)      one tile: zipped_divide(A, tiler)
--                                    sliced at (_, coord) -- the block view
--   local_partition(A, thr, index)   one thread's share: zipped_divide by
--                                    the shape of the thread layout, sliced
--                                    at (thr's coordinate of index, _)
--
--   local_tile((8,16):(16,1), {4, 8}, {1, 0})      --> (4,8):(16,1)  64
--   local_partition((8,16):(16,1), cute.layout {2, 4}, 5)
--                                                  --> (4,4):(32,4)  18
local core = require "cute.core"
local E = require "cute.error"
local tiler = require "cute.tiler"

local M = {}

--- The sublayout of tile `coord` (and its offset) when A is cut into
-- tiles by the tiler T (CuTe's inner_partition): the tile's modes, then
-- the rest modes that coord leaves open.  coord indexes the rest mode: an
-- integer (flat tile index) or a tuple, padded with `_`.  With a
-- projection proj (CuTe's Step<_1,X,_1> is {1, cute.X, 1}), the tiler and
-- coord are diced by it first (algebra/partition.c).
--   local_tile((512,64):(1,512), {128,8}, {1,_})  --> (128,8,8):(1,512,4096) 128
M.local_tile = core.local_tile

--- The coordinate of `index` in thread layout T, one integer per mode of
-- T (an integer for an integer-shaped T) -- CuTe's get_flat_coord: each
-- leaf's coordinate is (index / stride) mod shape (stride-0 leaves get 0),
-- then each mode's coordinate is flattened colexicographically.  `op`
-- names the caller in the error raised for a non-integral stride.
--   flat_coord((2,16,16):(1,2,32), 37)  --> {1, 2, 1}
function M.flat_coord(T, index, op)
  local function leaf_coords(s, d)
    if type(s) == "table" then
      local c = {}
      for i = 1, #s do c[i] = leaf_coords(s[i], d[i]) end
      return c
    end
    if math.type(d) ~= "integer" then
      E.raise(("%s: thread layout strides must be integers, got %s")
        :format(op, tostring(T)))
    end
    return d == 0 and 0 or (index // d) % s
  end
  local shape, stride = T:shape(), T:stride()
  if type(shape) ~= "table" then return leaf_coords(shape, stride) end
  local c = {}
  for i = 1, #shape do
    c[i] = core.crd2idx(leaf_coords(shape[i], stride[i]), shape[i])
  end
  return tiler.tuple(c)
end

--- The size of each top-level mode of a shape (CuTe's product_each): a
-- table for a tuple shape, an integer for an integer shape.  Of a thread
-- layout's shape, it is the tiler that local_partition divides by.
function M.product_each(shape)
  if type(shape) ~= "table" then return shape end
  local t = {}
  for i = 1, #shape do t[i] = core.size(shape[i]) end
  return tiler.tuple(t)
end

--- The part of A owned by thread `index` of thread layout thr (a Layout
-- from thread coordinates to thread indices): A is cut into tiles of
-- thr's shape and the thread keeps its element of every tile (CuTe's
-- outer_partition): the rest modes, in order.  Returns the sublayout and
-- its offset.  With a projection proj (CuTe's Step), thr is diced by it
-- first.
M.local_partition = core.local_partition

return M
