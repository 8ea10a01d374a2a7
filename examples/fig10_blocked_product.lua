--[[ examples/fig10_blocked_product.lua -- paper Figure 10: the
blocked_product of the row-major tile (3,4):(4,1) with the column-major
tiling (2,5):(1,2): a 6x20 layout whose 3x4 blocks are shifted copies of
the tile.  Checks the paper's result and its first row; given a
directory, draws fig10.svg with the first block highlighted.

  build/vm/cutelua examples/fig10_blocked_product.lua [DIR]
--]]
local cute = require "cute"
local picture = require "cute.picture"

local out = arg and arg[1]
local tile, grid = cute.layout "(3,4):(4,1)", cute.layout "(2,5):(1,2)"
local P = cute.blocked_product(tile, grid)
assert(tostring(P) == "((3,2),(4,5)):((4,12),(1,24))", tostring(P))
cute.print_layout(P)

local row0 = { 0, 1, 2, 3, 24, 25, 26, 27, 48, 49, 50, 51, 72, 73, 74, 75,
               96, 97, 98, 99 }
for n, want in ipairs(row0) do assert(P(0, n - 1) == want) end

if out then
  picture.show(P, out .. "/fig10.svg", { highlight = function(m, n)
    return m < 3 and n < 4 end })
end
