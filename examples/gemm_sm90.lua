--- examples/gemm_sm90.lua -- the Hopper GEMM as a script sees it: the
-- shared-memory layouts synthesised from the copy and the MMA, the wgmma
-- descriptors and TMA boxes read off those layouts, then (on a Hopper GPU)
-- the GEMM itself, checked against the paper's generic GEMM.
--
--   cutelua examples/gemm_sm90.lua [M N K]        (default 4096 4096 4096)
--
-- A (M,K) and B (N,K) bf16 K-major, C (M,N) bf16 N-major: torch.matmul(a,
-- b.t()).  Nothing about the kernel is written by hand in this script:
-- cute.gemm_sm90.plan derives it from the three layouts.
local cute = require "cute"
local smem = require "cute.smem"
local sm90 = require "cute.gemm_sm90"

local M, N, K = tonumber(arg and arg[1]) or 4096, tonumber(arg and arg[2]) or 4096,
  tonumber(arg and arg[3]) or 4096
local LA, LB = cute.layout({ M, K }, { K, 1 }), cute.layout({ N, K }, { K, 1 })
local LC = cute.layout({ M, N }, { N, 1 })

-- The plan from layouts alone (addresses come with the tensors).
local p = assert(sm90.plan({ layout = LA, dtype = "bf16" }, { layout = LB, dtype = "bf16" },
  { layout = LC, dtype = "bf16" }))
print(smem.report(p.smem_A))
print(smem.report(p.smem_B))
for _, x in ipairs { { "A", p.desc_A, p.map_A }, { "B", p.desc_B, p.map_B } } do
  local d, m = x[2], x[3]
  print(("%s: wgmma descriptor swizzle mode %d, LBO %d B, SBO %d B, k-steps at +%s B; "
    .. "TMA map dims %s, box %s"):format(x[1], d.mode, d.lbo, d.sbo,
    table.concat(d.ksteps, "/"), table.concat(m.dims, "x"), table.concat(m.box, "x")))
end
print(("CTA tile %dx%dx%d, %d stages, %d tiles, %d bytes of shared memory"):format(
  p.config.BM, p.config.BN, p.config.BK, p.config.stages, p.tiles, p.smem))

local ok, cuda = pcall(require, "cute.cuda")
local dev = ok and cuda.available() and cuda.device()
if not dev or dev.arch ~= "sm_90" then
  print("no Hopper GPU: the kernel is not run")
  return
end
local A = cuda.tensor(cuda.buffer("bf16", M * K):random(1, -1, 1), LA)
local B = cuda.tensor(cuda.buffer("bf16", N * K):random(2, -1, 1), LB)
local C = cuda.tensor(cuda.buffer("bf16", M * N):random(3, 1000, 2000), LC)
local R = cuda.tensor(cuda.buffer("bf16", M * N), LC)
local _, h = cuda.gemm(A, B, C, { beta = 0, path = "sm90" })
cuda.gemm(A, B, R, { beta = 0, path = "generic" })
local cmp = cuda.compare(C.buffer, R.buffer, 1 / 64, 0.5)
local ms = cuda.time(function() h() end)
print(("%dx%dx%d: %.3f ms, %.1f TFLOP/s; %d bad elements, rel %.1e"):format(M, N, K, ms,
  2 * M * N * K / (ms * 1e9), cmp.bad, cmp.rel_norm))
assert(cmp.bad == 0, "the Hopper GEMM differs from the generic one")
