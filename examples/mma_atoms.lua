--[[ examples/mma_atoms.lua -- the atom catalog: each MMA atom printed as
CuTe prints an MMA_Atom, the paper's Figure 6 atom (FP64 m8n8k4) as its
A/B/C tables, a 2x2-warp tiled MMA with its partitions, and an ldmatrix
copy feeding its A.  Given a directory, draws mma_<name>.svg /.html /.tex
for a few atoms, the tiled MMA and the tiled copy.

  build/vm/cutelua examples/mma_atoms.lua [DIR]
--]]
local cute = require "cute"
local atom = require "cute.atom"
local catalog = require "cute.arch"
local picture = require "cute.picture"

local out = arg and arg[1]

for _, name in ipairs(catalog.names) do
  local e = catalog[name]
  if e.kind == "mma" and not name:match "^SM90_64x%d+x16_F16" then
    print(name .. "  (" .. e.ptx .. ")")
    print(atom.mma_atom(name))
  end
end

picture.show("SM80_8x8x4_F64F64F64F64_TN")

local mma = atom.make_tiled_mma("SM80_16x8x16_F32F16F16F32_TN",
  cute.layout { 2, 2, 1 })
print(mma)
local thr = mma:get_slice(37)
print(thr)
print("partition_A of a 128x64 A:", thr:partition_A(cute.layout { 128, 64 }))
print("partition_B of a 128x64 B:", thr:partition_B(cute.layout { 128, 64 }))
print("partition_C of a 128x128 C:", thr:partition_C(cute.layout { 128, 128 }))

local ldsm = atom.make_tiled_copy_A(atom.copy_atom("SM75_U32x4_LDSM_N", "f16"),
  mma)
print(ldsm)

if out then
  for _, name in ipairs { "SM80_8x8x4_F64F64F64F64_TN",
      "SM80_16x8x16_F32F16F16F32_TN", "SM80_16x8x8_F32TF32TF32F32_TN",
      "SM90_64x16x16_F32F16F16_RS" } do
    for _, ext in ipairs { "svg", "html", "tex" } do
      picture.show(name, ("%s/mma_%s.%s"):format(out, name, ext))
    end
  end
  picture.show(mma, out .. "/tiled_mma_2x2.svg")
  picture.show(ldsm, out .. "/ldmatrix_A.svg")
end
