--[[ examples/bank_conflicts.lua -- shared-memory bank conflicts, and the
swizzles that remove them (the paper's Figure 4c motivation).

1. A warp reading a column of a row-major 32x32 f32 tile: 32 threads, 32
   words, one bank -- a 32-way conflict; Sw<5,0,5> (XOR the column with
   the row) spreads the column over all banks.
2. 16-byte vector loads (8 halves) by 8 threads per phase from an 8x64
   f16 tile, each thread a row: the 8 rows are 128 bytes apart and land
   in the same 4 banks (8-way); Sw<3,3,3> removes it.
Given a directory, draws banks_<case>.svg (conflicted cells framed in
red) and .html (hover: thread, value, offset, bank).

  build/vm/cutelua examples/bank_conflicts.lua [DIR]
--]]
local cute = require "cute"
local picture = require "cute.picture"

local out = arg and arg[1]
local cases = {
  { "column", cute.layout_right { 32, 32 }, cute.layout "(32,32):(1,32)", {} },
  { "column_swizzled", cute.composed(cute.swizzle(5, 0, 5), 0,
    cute.layout_right { 32, 32 }), cute.layout "(32,32):(1,32)", {} },
  { "vector", cute.layout_right { 8, 64 }, cute.layout "((8,4),8):((1,64),8)",
    { bytes = 2, vec = 8 } },
  { "vector_swizzled", cute.composed(cute.swizzle(3, 3, 3), 0,
    cute.layout_right { 8, 64 }), cute.layout "((8,4),8):((1,64),8)",
    { bytes = 2, vec = 8 } },
}

for _, c in ipairs(cases) do
  local r = picture.bank_conflicts(c[2], c[3], c[4])
  print(c[1] .. ": " .. tostring(r))
  if out then
    picture.show(r, out .. "/banks_" .. c[1] .. ".svg")
    picture.show(r, out .. "/banks_" .. c[1] .. ".html")
  end
end
