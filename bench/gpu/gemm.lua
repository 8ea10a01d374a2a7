--- bench/gpu/gemm.lua -- bf16 GEMM on the GPU: the tiled tensor-core kernel
-- cute.cuda.gemm_sm80 (mma.sync m16n8k16, ldmatrix, cp.async, run-time
-- problem sizes, on the device library) in several tile configurations,
-- next to cuBLAS (torch.matmul, measured in the same run, before and
-- after), with its error, and its cold compile time.
--
--   cutelua-gpu bench/gpu/gemm.lua [size ...]       (default 4096 8192)
--
-- The problem is the TN GEMM torch.matmul(a, b.t()) computes: A (M,K) and
-- B (N,K) row-major bf16, C (M,N) row-major bf16, f32 accumulation.
-- Checks, on fresh seeded data per size: every C is poisoned first; the
-- whole C is compared with the paper's generic GEMM (cute.cuda.gemm, f32
-- sums, also rounded to bf16): `bad` counts elements off by more than
-- 1/64 relative + 0.5 absolute, `rel` is ||C - ref|| / ||ref||; and
-- `f64` is the same norm over 64 sampled elements recomputed in float64
-- on the host.  Timing: median of 20 event-timed runs after 3 warm-ups.
-- GEMM_CONFIGS="name,name" restricts the configurations.
local cute = require "cute"
local cuda = require "cute.cuda"
local G = require "cute.cuda.gemm_sm80"

local sizes = {}
for _, a in ipairs(arg or {}) do sizes[#sizes + 1] = tonumber(a) end
if #sizes == 0 then sizes = { 4096, 8192 } end

local configs = {
  { "128x256x32 w2x4 s4", { BK = 32, stages = 4 } },
  { "128x256x32 w2x4 s5", { BK = 32, stages = 5 } },
  { "128x256x64 w2x4 s3", {} },   -- the default
  { "128x256x64 w2x4 s4", { stages = 4 } },
  { "128x256x64 w2x4 s3 g16", { group = 16 } },
  { "256x128x32 w4x2 s4", { BM = 256, BN = 128, BK = 32, warps = { 4, 2 }, stages = 4 } },
  { "256x128x64 w4x2 s3", { BM = 256, BN = 128, BK = 64, warps = { 4, 2 }, stages = 3 } },
  { "128x128x32 w2x2 s4", { BN = 128, BK = 32, warps = { 2, 2 }, stages = 4 } },
  { "128x128x64 w2x2 s3", { BN = 128, BK = 64, warps = { 2, 2 }, stages = 3 } },
  { "128x128x64 w2x2 s4", { BN = 128, BK = 64, warps = { 2, 2 }, stages = 4 } },
}
local only = os.getenv("GEMM_CONFIGS")
if only then
  local keep = {}
  for _, c in ipairs(configs) do
    if only:find(c[1], 1, true) then keep[#keep + 1] = c end
  end
  configs = keep
end

local util = require "bench_util"
local out_dir = os.getenv("OUT")
local say = util.logger("gemm.log")

-- cuBLAS through torch.matmul: milliseconds by size, or nil and why.
local TORCH = [[
import sys, torch
for n in map(int, sys.argv[1:]):
    a = torch.randn(n, n, device="cuda", dtype=torch.bfloat16)
    b = torch.randn(n, n, device="cuda", dtype=torch.bfloat16)
    for _ in range(3): torch.matmul(a, b.t())
    torch.cuda.synchronize()
    t = []
    for _ in range(20):
        s, e = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        s.record(); torch.matmul(a, b.t()); e.record(); e.synchronize()
        t.append(s.elapsed_time(e))
    t.sort()
    print("ms", n, t[len(t) // 2], torch.__version__, flush=True)
]]

local function cublas()
  local ms, text, version = {}, {}, "?"
  for _, line in ipairs(util.python(TORCH, sizes)) do
    local n, t, v = line:match("^ms (%d+) ([%d.e+-]+) (%S+)")
    if n then ms[tonumber(n)], version = tonumber(t), v else text[#text + 1] = line end
  end
  if next(ms) == nil then return nil, table.concat(text, " | "):sub(1, 300) end
  return ms, version
end

local function tflops(n, ms) return 2 * n ^ 3 / (ms * 1e9) end

-- float64 dot products at 64 seeded (m, n), relative norm of the error.
local function f64_check(A, B, C, n)
  local num, den = 0.0, 0.0
  local x = 12345
  for _ = 1, 64 do
    x = (x * 6364136223846793005 + 1442695040888963407)
    local m, j = (x >> 20) % n, (x >> 40) % n
    local a, b = A:download(m * n, n), B:download(j * n, n)
    local s = 0.0
    for k = 1, n do s = s + a[k] * b[k] end
    local got = C:download(m * n + j, 1)[1]
    num, den = num + (got - s) ^ 2, den + s * s
  end
  return math.sqrt(num / den)
end

local dev = cuda.device()
say("device: %s (%s, %d SMs), driver %d, NVRTC %s", dev.name, dev.arch, dev.sm_count,
  dev.driver_version, cuda.nvrtc_version())

-- Cold compile of the default kernel: the script's layout work, then
-- NVRTC with the disk and memory caches off (NVRTC already loaded).
cuda.core.compile('extern "C" __global__ void warm_nvrtc() {}', { "warm_nvrtc" })
local mode, cache_dir = cuda.cache()
cuda.cache("off")
local t0 = cuda.now_ms()
local cold_plan = G.build(nil, { ab = "bf16", c = "bf16" })
local t1 = cuda.now_ms()
local cold_bin = cuda.core.compile(cold_plan.source, { cold_plan.name })
cuda.cache(mode, cache_dir)
local cold = { build = t1 - t0, nvrtc = cold_bin.compile_ms }

local before, why = cublas()
if not before then say("cuBLAS (torch.matmul) unavailable: %s", why) end

local rows, best = {}, {}
for si, n in ipairs(sizes) do
  local lay = cute.layout({ n, n }, { n, 1 })
  local Ab = cuda.buffer("bf16", n * n):random(100 + si, -1, 1)
  local Bb = cuda.buffer("bf16", n * n):random(200 + si, -1, 1)
  local A, B = cuda.tensor(Ab, lay), cuda.tensor(Bb, lay)
  local ref = cuda.tensor(cuda.buffer("bf16", n * n), lay)
  local _, generic = cuda.gemm(A, B, ref, { beta = 0, path = "generic" })
  local gms = cuda.time(generic, { warmup = 0, reps = 1 })
  rows[#rows + 1] = { n, "generic (paper 2.6.2)", gms, "-", "-", "-" }
  local C = cuda.tensor(cuda.buffer("bf16", n * n), lay)
  for _, c in ipairs(configs) do
    C.buffer:random(7, 1000, 2000)   -- poison: far from any result
    local ok, h, plan, kernel = pcall(G.prepare, c[2], A, B, C)
    if not ok then
      rows[#rows + 1] = { n, c[1], 0, "refused: " .. tostring(h), "", "" }
    else
      h()
      local cmp = cuda.compare(C.buffer, ref.buffer, 1 / 64, 0.5)
      local f64 = f64_check(Ab, Bb, C.buffer, n)
      local ms = cuda.time(h)
      if out_dir and si == #sizes and kernel.binary.kind == "cubin" then
        local f = io.open(("%s/%s.cubin"):format(out_dir, c[1]:gsub("%W", "_")), "wb")
        if f then f:write(kernel.binary.image) f:close() end
      end
      rows[#rows + 1] = { n, c[1] .. " " .. plan.info.swizzle_A, ms, cmp.bad,
        ("%.1e"):format(cmp.rel_norm), ("%.1e"):format(f64) }
      if cmp.bad == 0 and f64 < 1e-2 and (not best[n] or ms < best[n].ms) then
        best[n] = { ms = ms, name = c[1] }
      end
    end
  end
end

local after = cublas()

say("")
say("bf16 GEMM TN (A, B, C row-major; f32 sums), C = A B^T        %s", os.date("!%Y-%m-%d"))
say("%-6s %-34s %9s %9s %7s %8s %8s", "size", "kernel (swizzle of A)", "ms", "TFLOP/s",
  "bad", "rel", "f64")
for _, r in ipairs(rows) do
  if type(r[4]) == "string" and r[4]:find("^refused") then
    say("%-6d %-34s %s", r[1], r[2], r[4])
  else
    say("%-6d %-34s %9.3f %9.1f %7s %8s %8s", r[1], r[2], r[3], tflops(r[1], r[3]),
      tostring(r[4]), r[5], r[6])
  end
end
for _, n in ipairs(sizes) do
  local cb = before and before[n]
  local ca = after and after[n]
  if cb then
    say("%-6d %-34s %9.3f %9.1f   (after: %.3f ms, %.1f)", n, "cuBLAS torch.matmul(a, b.t())",
      cb, tflops(n, cb), ca or 0, ca and tflops(n, ca) or 0)
  end
end
say("")
for _, n in ipairs(sizes) do
  local b = best[n]
  local cb = before and math.min(before[n] or math.huge, after and after[n] or math.huge)
  if b and cb and cb < math.huge then
    local ratio = cb / b.ms
    say("%d^3: best %s %.1f TFLOP/s = %.1f%% of cuBLAS (%.1f TFLOP/s, its faster run)%s",
      n, b.name, tflops(n, b.ms), 100 * ratio, tflops(n, cb),
      n == 8192 and (ratio >= 0.6 and "  target >= 60%: MET" or "  target >= 60%: NOT MET") or "")
  elseif b then
    say("%d^3: best %s %.1f TFLOP/s (no cuBLAS figure)", n, b.name, tflops(n, b.ms))
  else
    say("%d^3: no configuration passed its checks", n)
  end
end
say("cold compile of the default kernel: layouts %.1f ms + NVRTC %.0f ms (%s) = %.0f ms  "
  .. "target <= 1000 ms: %s", cold.build, cold.nvrtc, cold_bin.arch, cold.build + cold.nvrtc,
  cold.build + cold.nvrtc <= 1000 and "MET" or "NOT MET")
