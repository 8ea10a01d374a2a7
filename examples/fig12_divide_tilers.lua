--[[ examples/fig12_divide_tilers.lua -- paper Figures 7 and 12 and
section 3.5.2: tilers applied to the 8x16 layout (8,16):(20,1), first by
composition (Figure 7: the 4x8 sublayout a tiler points to), then by
logical divide (Figure 12: the same tile and the 2x2 grid of its copies),
and zipped_divide's ((tile),(rest)) arrangement.  The paper's printed
results are checked; given a directory, draws fig12_<n>.svg with each
tiler's first tile highlighted.

The figures are images; the tilers are the ones the text names: the
shape (4,8) (= <4:1,8:1>), <4:1,8:2> ("4 consecutive elements down each
column and every other element across each row"), and an interleaved
<(2,2):(1,4),(2,4):(1,4)>.

  build/vm/cutelua examples/fig12_divide_tilers.lua [DIR]
--]]
local cute = require "cute"
local picture = require "cute.picture"

local out = arg and arg[1]
local L = cute.layout "(8,16):(20,1)"
local tilers = {
  { 4, 8 },
  { cute.layout "4:1", cute.layout "8:2" },
  { cute.layout "(2,2):(1,4)", cute.layout "(2,4):(1,4)" },
}

for n, T in ipairs(tilers) do
  local tile = cute.composition(L, T)
  local D = cute.logical_divide(L, T)
  print(("L o %s = %s"):format(cute.tiler_tostring(T), tostring(tile)))
  print(("L / %s = %s"):format(cute.tiler_tostring(T), tostring(D)))
  print(("zipped_divide  = %s\n"):format(tostring(cute.zipped_divide(L, T))))
  if out then
    local hit = {}
    for i = 0, cute.size(tile) - 1 do hit[tile(i)] = true end
    picture.show(L, out .. ("/fig12_%d.svg"):format(n), { title = "(8,16):(20,1) / "
      .. cute.tiler_tostring(T), highlight = function(_, _, o) return hit[o] end })
  end
end

-- section 3.5.2's worked example
local T = tilers[2]
assert(tostring(cute.logical_divide(L, T)) == "((4,2),(8,2)):((20,80),(2,1))")
assert(tostring(cute.zipped_divide(L, T)) == "((4,8),(2,2)):((20,2),(80,1))")
