--- SM90 warpgroup MMA atoms, wgmma.mma_async m64nNk16 for 16-bit inputs
-- (cutlass cute/atom/mma_traits_sm90_gmma.hpp).
--
-- PTX ISA 9.7.15.5.1.1.1 "Matrix Fragments for wgmma.mma_async.m64nNk16"
-- (under 9.7.15.5.1 "Register Fragments and Shared Memory Matrix
-- Layouts", ISA 8.x numbering): 128 threads (4 warps); warp w owns rows
-- 16w..16w+15 of the 64-row accumulator D, laid out like mma.m16n8k16's C
-- repeated N/8 times along N:
--   row = 16w + groupID + 8 ((i % 4) / 2),  col = 8 (i / 4) + 2 tig + i % 2
-- A from registers (RS) has the same form over the 64x16 tile.  Operands
-- in shared memory (SS: A and B; RS: B) are read through a matrix
-- descriptor by the whole warpgroup: their TV layouts broadcast over the
-- threads (stride 0), (128,(M,K)):(0,(1,M)).  The majors (K- or MN-major
-- descriptors) do not change these layouts.
local entries = {}

local function clayout(n)
  return ("((4,8,4),(2,2,%d)):((128,1,16),(64,8,512))"):format(n // 8)
end

local function smem(mn)
  return ("(128,(%d,16)):(0,(1,%d))"):format(mn, mn)
end

local A_RS = "((4,8,4),(2,2,2)):((128,1,16),(64,8,512))"
local ISA = "PTX ISA 9.7.15.5.1.1.1 Matrix Fragments for "
  .. "wgmma.mma_async.m64nNk16"

local types = {
  { "F32F16F16", "f32.f16.f16" },
  { "F32BF16BF16", "f32.bf16.bf16" },
  { "F16F16F16", "f16.f16.f16" },
}

local Ns = { 8, 16, 32, 64, 96, 128, 192, 256 }
for _, n in ipairs(Ns) do
  for _, t in ipairs(types) do
    for _, src in ipairs { "SS", "RS" } do
      entries[#entries + 1] = {
        name = ("SM90_64x%dx16_%s_%s"):format(n, t[1], src),
        kind = "mma",
        ptx = ("wgmma.mma_async.sync.aligned.m64n%dk16.%s"):format(n, t[2]),
        isa = ISA, shape_mnk = { 64, n, 16 }, thr_id = "128:1",
        A = src == "SS" and smem(64) or A_RS, B = smem(n), C = clayout(n) }
    end
  end
end

-- 8-bit (fp8) inputs: wgmma.mma_async m64nNk32, PTX ISA 9.7.15.5.1.1.2
-- "Matrix Fragments for wgmma.mma_async.m64nNk32".  D as above; A from
-- registers holds 16 bytes per thread:
--   row = 16w + groupID + 8 ((i % 8) / 4),  col = 4 tig + i % 4 + 16 (i / 8)
-- CuTe names them with the majors, which the ISA fixes to TN (K-major)
-- for 8-bit inputs.
local A_RS8 = "((4,8,4),(4,2,2)):((256,1,16),(64,8,1024))"
local ISA32 = "PTX ISA 9.7.15.5.1.1.2 Matrix Fragments for "
  .. "wgmma.mma_async.m64nNk32"
local function smem32(mn)
  return ("(128,(%d,32)):(0,(1,%d))"):format(mn, mn)
end
for _, n in ipairs(Ns) do
  for _, d in ipairs { "F32", "F16" } do
    for _, a in ipairs { "E4M3", "E5M2" } do
      for _, b in ipairs { "E4M3", "E5M2" } do
        for _, src in ipairs { "SS", "RS" } do
          entries[#entries + 1] = {
            name = ("SM90_64x%dx32_%s%s%s_%s_TN"):format(n, d, a, b, src),
            kind = "mma",
            ptx = ("wgmma.mma_async.sync.aligned.m64n%dk32.%s.%s.%s")
              :format(n, d:lower(), a:lower(), b:lower()),
            isa = ISA32, shape_mnk = { 64, n, 32 }, thr_id = "128:1",
            A = src == "SS" and smem32(64) or A_RS8, B = smem32(n),
            C = clayout(n) }
        end
      end
    end
  end
end

return entries
