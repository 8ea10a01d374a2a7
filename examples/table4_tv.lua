--[[ examples/table4_tv.lua -- paper section 3.3.4: the thread-value
partitioning of Figure 6 and Table 4.

The Ampere FP64 tensor core's accumulator ThrValLayoutC = ((4,8),2):
((16,1),8) maps (thread, value) to an index of the 8x8 C tile; Figure 6
plots its inverse (the T# V# table printed first).  Composing any 8x8 data
layout with it gives (thread, value) -> offset (Table 4); slicing a thread then gives that thread's values (the
compose-and-slice pattern).  Given a directory, draws fig6.svg,
fig6.html (hover for thread / value / offset) and fig6.tex.

  build/vm/cutelua examples/table4_tv.lua [DIR]
--]]
local cute = require "cute"
local tv = require "cute.tv"
local picture = require "cute.picture"

local out = arg and arg[1]
local C = cute.layout "((4,8),2):((16,1),8)"

picture.show(C, { tile = { 8, 8 } })
print()

-- Table 4's rows (spec/lua/tv_spec.lua checks each against the paper).
local rows = {
  { "ColMajor", "(8,8):(1,8)" }, { "RowMajor", "(8,8):(8,1)" },
  { "Padded", "(8,8):(1,9)" },
  { "ColInterleaved", "((4,2),(2,4)):((2,16),(1,8))" },
  { "Coordinate", "(8,8):(1@0,1@1)" },
}
print(("%-15s %-30s %s"):format("Data", "Data layout 8x8 (A)", "A o C (32x2)"))
for _, r in ipairs(rows) do
  local R = cute.composition(cute.layout(r[2]), C)
  print(("%-15s %-30s %s"):format(r[1], r[2], tostring(R)))
end
-- Swizzled: Table 4's (8,8):(f1,f9) is an XOR-strided layout; here the XOR
-- is a swizzle composed onto the padded layout, and stays outside.
local S = cute.composed(cute.swizzle(3, 0, 3), 0, cute.layout "(8,8):(1,9)")
print(("%-15s %-30s %s"):format("Swizzled", tostring(S),
  tostring(cute.composition(S, C))))

-- compose and slice: thread 5's values in a row-major 8x8 tile
local data = cute.layout "(8,8):(8,1)"
local V, off = tv.tv_partition(data, C, 5)
print(("\nthread 5 of the row-major tile: {%d} o %s"):format(off, tostring(V)))
assert(off == 10 and tostring(V) == "(2):(1)")   -- rank 1, as in CuTe

if out then
  picture.show(C, out .. "/fig6.svg", { tile = { 8, 8 }, data = data })
  picture.show(C, out .. "/fig6.html", { tile = { 8, 8 }, data = data })
  picture.show(C, out .. "/fig6.tex", { tile = { 8, 8 } })
end
