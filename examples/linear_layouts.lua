--[[ examples/linear_layouts.lua -- CuTe layouts and Triton's linear
layouts as one algebra: the SM80 mma.sync and SM90 wgmma accumulator TV
layouts printed in both notations, a swizzled shared-memory tile as the
F2-linear map it is, a layout pasted from a Triton dump turned into a CuTe
layout and drawn, the register moves between two layouts of one tile
(invert_and_compose), the broadcast inputs of a wgmma operand, and the bank
conflicts of an imported shared-memory layout.

  build/vm/cutelua examples/linear_layouts.lua [DIR]
--]]
local cute = require "cute"
local picture = require "cute.picture"
local catalog = require "cute.arch"

local out = arg and arg[1]

-- 1. MMA TV layouts, (thread, value) -> index in the M x N tile, in CuTe's
-- notation and in Triton's (register / lane / warp -> (dim0, dim1)).
for _, c in ipairs {
  { "SM80_16x8x16_F32F16F16F32_TN", "C", { 16, 8 } },
  { "SM80_16x8x16_F32F16F16F32_TN", "A", { 16, 16 } },
  { "SM90_64x16x16_F32F16F16_SS", "C", { 64, 16 } },
} do
  local tv = cute.layout(catalog[c[1]][c[2]])
  local lin = cute.to_linear(tv, { tv = true, tile = c[3] })
  print(("%s %s, tile %dx%d"):format(c[1], c[2], c[3][1], c[3][2]))
  print("  CuTe:   " .. tostring(tv))
  print("  Triton:")
  print(lin)
  assert(cute.from_linear(lin) == tv, "the TV layout comes back")
  print()
end

-- 2. A swizzle is F2-linear: Sw<3,4,3> o (16,64):(64,1), (row, col) ->
-- offset, has a linear form, and its inverse is Triton's form of a shared
-- layout, offset -> (dim0, dim1).
local smem = cute.composed(cute.swizzle(3, 4, 3), 0, cute.layout "(16,64):(64,1)")
local lin = cute.to_linear(smem)
print("Sw<3,4,3> shared tile:  " .. tostring(smem))
print(lin)
print("as Triton's shared layout (offset -> (dim0, dim1)):")
print(lin:invert())
print("back to CuTe:  " .. tostring(cute.from_linear(lin)))
print()

-- 3. A layout pasted from a Triton dump (a blocked layout: 4 registers
-- along a row, 4 x 8 lanes over an 8x16 tile), imported as a CuTe TV
-- layout and drawn: each cell of the tile shows its thread and value.
local dump = [[
 - register=1 -> (0, 1)
   register=2 -> (0, 2)
 - lane=1 -> (0, 4)
   lane=2 -> (0, 8)
   lane=4 -> (1, 0)
   lane=8 -> (2, 0)
   lane=16 -> (4, 0)
 - warp is a size 1 dimension
where out dims are: [dim0 (size 8), dim1 (size 16)]
]]
local imported = cute.linear_layout(dump)
local L = cute.from_linear(imported)
print("imported: " .. imported:compact())
print("as CuTe:  " .. tostring(L) .. "   (thread, value) -> dim0 + 8 dim1")
-- (the pictures take the linear layout itself: its TV layout over the
-- tile of its two output dims)
picture.show(imported)
if out then picture.show(imported, out .. "/linear_imported.svg") end
print()

-- 4. What a conversion moves: the SM80 C layout against a transposed one
-- over the same 16x8 tile; C(x) is where register/lane x of the first
-- layout lives in the second.
local tile = { tv = true, tile = { 16, 8 } }
local C80 = cute.to_linear(cute.layout(catalog["SM80_16x8x16_F32F16F16F32_TN"].C), tile)
local T = cute.to_linear(cute.layout "((4,8),(2,2)):((2,16),(1,8))", tile)
print("invert_and_compose(mma C, transposed):")
print(cute.invert_and_compose(C80, T))
print("conversion(mma C, transposed): " .. cute.conversion(C80, T))
print()

-- 5. Broadcast: a wgmma operand in shared memory is read by the whole
-- warpgroup, every thread bit is free.
local ss = cute.to_linear(cute.layout(catalog["SM90_64x64x16_F32F16F16_SS"].A),
                          { tv = true, tile = { 64, 16 } })
local m = ss:free_masks()
print(("SM90 SS operand A free masks: register %d, lane %d, warp %d"):format(
  m.register, m.lane, m.warp))
print()

-- 6. Bank conflicts of an imported shared layout: Triton's offset ->
-- (dim0, dim1) form inverted is CuTe's (dim0, dim1) -> offset (which
-- bank_conflicts also takes directly); 32 threads reading one column of
-- a 32x32 f32 tile.
local shared = cute.linear_layout [[
 - offset=1 -> (0, 1)
   offset=2 -> (0, 2)
   offset=4 -> (0, 4)
   offset=8 -> (0, 8)
   offset=16 -> (0, 16)
   offset=32 -> (1, 1)
   offset=64 -> (2, 2)
   offset=128 -> (4, 4)
   offset=256 -> (8, 8)
   offset=512 -> (16, 16)
where out dims are: [dim0 (size 32), dim1 (size 32)]
]]
local S = cute.from_linear(shared:invert())
print("imported shared layout as CuTe: " .. tostring(S))
for _, s in ipairs { { "row-major", cute.layout_right { 32, 32 } },
                     { "imported", S }, { "Triton's form", shared } } do
  print(("column read, %s: %s"):format(s[1],
    tostring(picture.bank_conflicts(s[2], cute.layout "(32,32):(1,32)", {}))))
end

-- 7. Binary (F2) strides: the paper's binary layouts are CuTe layouts whose
-- strides XOR.  The swizzled tile of section 3 is one such layout, and
-- any linear layout has this form, even one no swizzle separates.
local sw = cute.layout "Sw<3,4,3> o 0 o (8,128):(128,1)"
print("binary form of " .. tostring(sw) .. ": "
      .. tostring(cute.from_linear(cute.to_linear(sw), { binary = true })))
print("paper Table 4: " .. tostring(cute.composition(cute.layout "(8,8):(F1,F9)",
                                                      cute.layout "((4,8),2):((16,1),8)")))
print("no swizzle, binary: "
      .. tostring(cute.from_linear("{a = [[3], [5], [6]]}", { binary = true })))

-- 8. The plan of a conversion: shfl rounds between lanes, or a shared-memory
-- trip through a tile swizzled so that neither side bank-conflicts.
local plan = cute.conversion_plan(C80, T)
print(("conversion_plan(mma C, transposed): %s in %d rounds (fewest: %d)")
      :format(plan.kind, #plan.rounds, plan.lower_bound))
