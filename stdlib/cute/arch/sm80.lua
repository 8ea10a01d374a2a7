--- SM80 atoms: warp-level mma.sync (cutlass cute/atom/mma_traits_sm80.hpp)
-- and cp.async (copy_traits_sm80.hpp).
--
-- Fragment layouts are those of the PTX ISA, section 9.7.14.5 "Matrix
-- multiply-accumulate operation using mma instruction" (ISA 8.x numbering
-- of its subsections .1 to .8), with
-- groupID = lane / 4 and threadID_in_group = lane % 4; the specs check
-- every (thread, value) against the ISA's formulas (spec/lua/atom_spec.lua).
-- Thread mode (4,8) is (threadID_in_group, groupID).
local Row8x4 = "((4,8),1):((8,1),0)"           -- (T32,V1) -> (8,4)
local Row8x8 = "((4,8),2):((16,1),8)"          -- (T32,V2) -> (8,8), Figure 6
local Row16x8 = "((4,8),(2,2)):((32,1),(16,8))" -- (T32,V4) -> (16,8)

local ISA = "PTX ISA 9.7.14.5"
local entries = {}

local function mma(name, ptx, section, mnk, A, B, C)
  entries[#entries + 1] = { name = name, kind = "mma", ptx = ptx,
    isa = ISA .. section, shape_mnk = mnk, thr_id = "32:1",
    A = A, B = B, C = C }
end

local k16 = ".8 Matrix Fragments for mma.m16n8k16 with floating point type"
local A16x16 = "((4,8),(2,2,2)):((32,1),(16,8,128))"
local B8x16 = "((4,8),(2,2)):((16,1),(8,64))"
mma("SM80_16x8x16_F32F16F16F32_TN",
  "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32", k16, { 16, 8, 16 },
  A16x16, B8x16, Row16x8)
mma("SM80_16x8x16_F32BF16BF16F32_TN",
  "mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32", k16, { 16, 8, 16 },
  A16x16, B8x16, Row16x8)
mma("SM80_16x8x16_F16F16F16F16_TN",
  "mma.sync.aligned.m16n8k16.row.col.f16.f16.f16.f16", k16, { 16, 8, 16 },
  A16x16, B8x16, Row16x8)

local k8 = ".7 Matrix Fragments for mma.m16n8k8"
mma("SM80_16x8x8_F32TF32TF32F32_TN",
  "mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32", k8, { 16, 8, 8 },
  "((4,8),(2,2)):((16,1),(8,64))", "((4,8),2):((8,1),32)", Row16x8)
mma("SM80_16x8x8_F16F16F16F16_TN",
  "mma.sync.aligned.m16n8k8.row.col.f16.f16.f16.f16", k8, { 16, 8, 8 },
  Row16x8, Row8x8, Row16x8)

mma("SM80_8x8x4_F64F64F64F64_TN",
  "mma.sync.aligned.m8n8k4.row.col.f64.f64.f64.f64",
  ".2 Matrix Fragments for mma.m8n8k4 with .f64 floating point type",
  { 8, 8, 4 }, Row8x4, Row8x4, Row8x8)

-- cp.async: one thread, one 4/8/16-byte word; CACHEGLOBAL only at 16 bytes.
local function cp_async(policy, bits)
  local word = ("(1,%d):(0,1)"):format(bits)
  entries[#entries + 1] = {
    name = ("SM80_CP_ASYNC_%s<uint%d_t>"):format(policy, bits),
    kind = "copy",
    ptx = ("cp.async.%s.shared.global [dst], [src], %d")
      :format(policy == "CACHEALWAYS" and "ca" or "cg", bits // 8),
    isa = "PTX ISA 9.7.9: Data Movement and Conversion Instructions: "
      .. "cp.async",
    thr_id = "1:0", src = word, dst = word }
end
for _, bits in ipairs { 32, 64, 128 } do cp_async("CACHEALWAYS", bits) end
cp_async("CACHEGLOBAL", 128)

return entries
