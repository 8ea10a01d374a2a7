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

local M = {}

--- The sublayout of tile `coord` (and its offset) when A is cut into
-- tiles by the tiler T (CuTe's inner_partition): the tile's modes, then
-- the rest modes that coord leaves open.  coord indexes the rest mode: an
-- integer (flat tile index) or a tuple, padded with `_`.  With a
-- projection proj (CuTe's Step<_1,X,_1> is {1, cute.X, 1}), the tiler and
-- coord are diced by it first (algebra/partition.c).
--   local_tile((512,64):(1,512), {128,8}, {1,_})  --> (128,8,8):(1,512,4096) 128
M.local_tile = core.local_tile

--- The part of A owned by thread `index` of thread layout thr (a Layout
-- from thread coordinates to thread indices): A is cut into tiles of
-- thr's shape and the thread keeps its element of every tile (CuTe's
-- outer_partition): the rest modes, in order.  Returns the sublayout and
-- its offset.  With a projection proj (CuTe's Step), thr is diced by it
-- first.
M.local_partition = core.local_partition

return M
