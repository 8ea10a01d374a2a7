--[[ examples/fig11_raked_product.lua -- paper Figure 11: the
raked_product of the row-major tile (3,4):(4,1) with the column-major
tiling (2,5):(1,2): the tile's elements are raked across the 6x20 grid
instead of kept in blocks.  Checks the paper's result and first row;
given a directory, draws fig11.svg with the copy of the tile at offsets
0..11 highlighted.

  build/vm/cutelua examples/fig11_raked_product.lua [DIR]
--]]
local cute = require "cute"
local picture = require "cute.picture"

local out = arg and arg[1]
local tile, grid = cute.layout "(3,4):(4,1)", cute.layout "(2,5):(1,2)"
local P = cute.raked_product(tile, grid)
assert(tostring(P) == "((2,3),(5,4)):((12,4),(24,1))", tostring(P))
cute.print_layout(P)

local row0 = { 0, 24, 48, 72, 96, 1, 25, 49, 73, 97, 2, 26, 50, 74, 98, 3,
               27, 51, 75, 99 }
for n, want in ipairs(row0) do assert(P(0, n - 1) == want) end

if out then
  picture.show(P, out .. "/fig11.svg", { highlight = function(_, _, o)
    return o < 12 end })
end
