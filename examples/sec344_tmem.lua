--[[ examples/sec344_tmem.lua -- paper section 3.4.4: admissibility of
Blackwell TMEM load/store instructions for a data layout, from left
inverses.

A TMEM address is col + 16384 lane.  Each tcgen05.ld/st shape touches a
fixed set of addresses (the paper's table): T(i) for its instruction
coordinates i.  For a data layout A (logical coordinate -> TMEM address)
the instruction is admissible when every T(i) is in A's image, checked
by A(A^+(T(i))) == T(i), with distinct coordinates A^+(T(i)) inside A's
domain; A^+ o T then says where in A (logical coordinates) the
instruction's elements are.

The data layouts: a 128x256 f32 accumulator with row m in lane m (all
three instructions admissible) and one holding only 64 lanes (the
instructions' lanes 64..127 are missing: not admissible).

  build/vm/cutelua examples/sec344_tmem.lua
--]]
local cute = require "cute"

local LANE = 16384
local instructions = {
  { "tcgen05.{ld,st}.32x32b.x1", cute.layout({ 1, 128 }, { 1, LANE }) },
  { "tcgen05.{ld,st}.32x32b.x2", cute.layout({ 2, 128 }, { 1, LANE }) },
  { "tcgen05.{ld,st}.16x256b.x1",
    cute.layout({ 8, { 16, 4 } }, { 1, { LANE, 32 * LANE } }) },
}

-- true, A^+ o T when every T(i) is in A's image at distinct coordinates;
-- false and the first missing offset otherwise.
local function admissible(A, T)
  local inv = cute.left_inverse(A)
  local seen = {}
  for i = 0, cute.size(T) - 1 do
    local o = T(i)
    local c = inv(o)
    if c >= cute.size(A) or A(c) ~= o or seen[c] then return false, o end
    seen[c] = true
  end
  return true, cute.composition(inv, T)
end

local data = {
  { "128 lanes x 256 cols", cute.layout({ 128, 256 }, { LANE, 1 }), true },
  { "64 lanes x 256 cols", cute.layout({ 64, 256 }, { LANE, 1 }), false },
}

for _, d in ipairs(data) do
  print(("data layout %s  (%s), left inverse %s"):format(tostring(d[2]), d[1],
    tostring(cute.left_inverse(d[2]))))
  for _, ins in ipairs(instructions) do
    local ok, r = admissible(d[2], ins[2])
    assert(ok == d[3], ins[1])
    if ok then
      print(("  %-28s %-30s admissible: A^+ o T = %s"):format(ins[1],
        tostring(ins[2]), tostring(r)))
    else
      print(("  %-28s %-30s not admissible: offset %d (lane %d) is not in A")
        :format(ins[1], tostring(ins[2]), r, r // LANE))
    end
  end
end
