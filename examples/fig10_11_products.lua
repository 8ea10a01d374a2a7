--[[ examples/fig10_11_products.lua -- paper Figures 10 and 11: the
blocked_product and the raked_product of the row-major tile (3,4):(4,1)
with the column-major tiling (2,5):(1,2), two 6x20 layouts.  Blocked, each
3x4 block is a shifted copy of the tile; raked, the tile's elements are
raked across the grid instead.  Checks the paper's results and their first
rows; given a directory, draws fig10.svg with the first block highlighted
and fig11.svg with the copy of the tile at offsets 0..11 highlighted.

  build/vm/cutelua examples/fig10_11_products.lua [DIR]
--]]
local cute = require "cute"
local picture = require "cute.picture"

local out = arg and arg[1]
local tile, grid = cute.layout "(3,4):(4,1)", cute.layout "(2,5):(1,2)"

local figures = {
  { file = "fig10.svg", product = cute.blocked_product,
    text = "((3,2),(4,5)):((4,12),(1,24))",
    row0 = { 0, 1, 2, 3, 24, 25, 26, 27, 48, 49, 50, 51, 72, 73, 74, 75,
             96, 97, 98, 99 },
    highlight = function(m, n) return m < 3 and n < 4 end },
  { file = "fig11.svg", product = cute.raked_product,
    text = "((2,3),(5,4)):((12,4),(24,1))",
    row0 = { 0, 24, 48, 72, 96, 1, 25, 49, 73, 97, 2, 26, 50, 74, 98, 3,
             27, 51, 75, 99 },
    highlight = function(_, _, o) return o < 12 end },
}

for _, fig in ipairs(figures) do
  local P = fig.product(tile, grid)
  assert(tostring(P) == fig.text, tostring(P))
  cute.print_layout(P)
  for n, want in ipairs(fig.row0) do assert(P(0, n - 1) == want) end
  if out then
    picture.show(P, out .. "/" .. fig.file, { highlight = fig.highlight })
  end
end
