--[[ examples/fig5_slices.lua -- paper Figure 5: slicing the 6x12 tensor
A = {0} o ((3,2),((2,3),2)):((4,1),((2,15),100)) along its logical
sub-boundaries.  A slice returns the remaining layout and the offset it
starts at (paper eq. 10): {offset} o layout.  Every result is the
paper's function; given a directory, each slice is drawn as an SVG of A
with the sliced cells highlighted (fig5_<n>.svg).

The structure is CuTe's (docs/slicing.md): one top-level mode per `_`
leaf of the coordinate, so A(2,_) is the rank-1 (((2,3),2)) and
A((1,_),((_,0),_)) the flat (2,2,2).  Figure 5 typesets the same
functions without the outer tuple; both forms are printed, and each is
checked to be the same function as the paper's.

  build/vm/cutelua examples/fig5_slices.lua [DIR]
--]]
local cute = require "cute"
local picture = require "cute.picture"
local _ = cute._

local out = arg and arg[1]
local A = cute.layout "((3,2),((2,3),2)):((4,1),((2,15),100))"
cute.print_layout(A)

local slices = {   -- text, coordinate, cutelua's (= CuTe's) result, Figure 5's
  { "A(2, _)", { 2, _ }, "{8} o (((2,3),2)):(((2,15),100))",
    "{8} o ((2,3),2):((2,15),100)" },
  { "A(_, 5)", { _, 5 }, "{32} o ((3,2)):((4,1))", "{32} o (3,2):(4,1)" },
  { "A(2, ((0,_),_))", { 2, { { 0, _ }, _ } }, "{8} o (3,2):(15,100)",
    "{8} o (3,2):(15,100)" },
  { "A((_,1), ((_,_),0))", { { _, 1 }, { { _, _ }, 0 } },
    "{1} o (3,2,3):(4,2,15)", "{1} o (3,(2,3)):(4,(2,15))" },
  { "A((_,0), ((0,_),1))", { { _, 0 }, { { 0, _ }, 1 } },
    "{100} o (3,3):(4,15)", "{100} o (3,3):(4,15)" },
  { "A((1,_), ((_,0),_))", { { 1, _ }, { { _, 0 }, _ } },
    "{4} o (2,2,2):(1,2,100)", "{4} o (2,(2,2)):(1,(2,100))" },
}

for n, s in ipairs(slices) do
  local S, off = A(table.unpack(s[2]))
  local text = ("{%d} o %s"):format(off, tostring(S))
  assert(text == s[3], s[1] .. ": " .. text .. ", expected: " .. s[3])
  -- Figure 5's form is the same function: same size, same offsets
  local fig = cute.layout(s[4]:match("} o (.*)$"))
  assert(cute.size(fig) == cute.size(S), s[1])
  for i = 0, cute.size(S) - 1 do assert(fig(i) == S(i), s[1]) end
  print(("%-22s = %-34s Figure 5: %s"):format(s[1], text, s[4]))
  if out then
    local hit = {}   -- the offsets the slice reaches; A is injective
    for i = 0, cute.size(S) - 1 do hit[off + S(i)] = true end
    picture.show(A, out .. ("/fig5_%d.svg"):format(n), { title = s[1]
      .. " = " .. text, highlight = function(_, _, o) return hit[o] end })
  end
end
