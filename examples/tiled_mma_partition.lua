--[[ examples/tiled_mma_partition.lua -- the 256-thread walkthrough: a tiled
MMA of scalar FMAs over 16 x 16 threads, each of M and N permuted by
(16,4):(4,1), partitioning a row-major 128x128 C tile.

The permutation gives each thread 4 consecutive rows (and columns); the
permutation covers 64 of 128, so every thread also gets the group 64
further on: thread 0 owns rows {0-3, 64-67} x cols {0-3, 64-67}, and its
partition, in CuTe's (V,M,N) order, is
  (1,(4,2),(4,2)):(0,(128,8192),(1,64))
V is the atom's single value (stride 0); M and N are 4 consecutive rows
(stride 128) twice, 64 rows apart (8192), and the same for columns.
Thread t = 16 tm + tn (tm = t / 16, tn = t % 16) starts at row 4 tm,
column 4 tn.  Given a directory, draws the ownership of the
whole tile, one colour per thread (tiled_mma_partition.svg, .html: hover a
cell for its thread, value and offset).

  build/vm/cutelua examples/tiled_mma_partition.lua [DIR]
--]]
local cute = require "cute"
local atom = require "cute.atom"
local picture = require "cute.picture"

local out = arg and arg[1]
local perm = cute.layout "(16,4):(4,1)"
local mma = atom.make_tiled_mma("UniversalFMA", cute.layout_right { 16, 16, 1 },
  { perm, perm })
local gC = cute.layout_right { 128, 128 }
print(mma)
print()

-- the logical_divide by the permutation, mode by mode (seed's step 1)
print("logical_divide(gC, <perm,perm>) = "
  .. tostring(cute.logical_divide(gC, { perm, perm })))

for _, t in ipairs { 0, 1, 16, 255 } do
  local P, off = mma:get_slice(t):partition_C(gC)
  print(("thread %3d: partition_C = %s at offset %d (row %d, col %d)")
    :format(t, tostring(P), off, off // 128, off % 128))
  assert(tostring(P) == "(1,(4,2),(4,2)):(0,(128,8192),(1,64))")
  assert(off == 512 * (t // 16) + 4 * (t % 16))
end

-- thread 0's 64 elements, as the CUDA code's my_rows x my_cols
local P = mma:get_slice(0):partition_C(gC)
local rows, cols = {}, {}
for i = 0, 7 do
  rows[#rows + 1] = P(0, i, 0) // 128
  cols[#cols + 1] = P(0, 0, i) % 128
end
print("thread 0 rows: " .. table.concat(rows, " "))
print("thread 0 cols: " .. table.concat(cols, " "))
assert(table.concat(rows, " ") == "0 1 2 3 64 65 66 67")
assert(table.concat(cols, " ") == "0 1 2 3 64 65 66 67")

if out then
  local X = mma:get_layoutC_TV { 128, 128 }
  local base = out .. "/tiled_mma_partition"
  picture.show(X, base .. ".svg", { tile = { 128, 128 }, data = gC })
  picture.show(X, base .. ".html", { tile = { 128, 128 }, data = gC })
end
