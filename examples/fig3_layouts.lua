--[[ examples/fig3_layouts.lua -- paper Figure 3: layouts compatible with
the shape (4,8), printed as CuTe's print_layout tables and, given a
directory, drawn as SVG (fig3_<name>.svg).

  build/vm/cutelua examples/fig3_layouts.lua [DIR]

The figure itself is an image; the layouts are those its text and Tables
5/6 name: column-major, row-major, padded, column-interleaved, the mixed
((2,2),(4,2)):((1,8),(2,16)) of Figure 3e, and a broadcast (stride-0)
layout.  Section 2.4.1's worked example L(22) = L(2,5) = L((0,1),(1,1)) =
26 is checked on Figure 3e.
--]]
local cute = require "cute"
local picture = require "cute.picture"

local out = arg and arg[1]
local layouts = {
  { "colmajor", "(4,8):(1,4)" },
  { "rowmajor", "(4,8):(8,1)" },
  { "padded", "(4,8):(1,5)" },
  { "interleaved", "(4,(4,2)):(4,(1,16))" },
  { "mixed", "((2,2),(4,2)):((1,8),(2,16))" },
  { "broadcast", "((2,2),(2,4)):((0,1),(0,2))" },
}

for _, x in ipairs(layouts) do
  local L = cute.layout(x[2])
  print(x[1])
  cute.print_layout(L)
  print()
  if out then picture.show(L, out .. "/fig3_" .. x[1] .. ".svg") end
end

-- Section 2.4.1: evaluation at an index, a 2-D and a natural coordinate
local E = cute.layout "((2,2),(4,2)):((1,8),(2,16))"
assert(E(22) == 26 and E(2, 5) == 26 and E({ { 0, 1 }, { 1, 1 } }) == 26)
print("Figure 3e: L(22) = L(2,5) = L((0,1),(1,1)) = " .. E(22))
