--- bench/gpu/gemm_sm90.lua -- the Hopper GEMM (cute.gemm_sm90: TMA,
-- mbarrier ring, wgmma, warp-specialised, persistent) next to cuBLAS
-- (torch.matmul / torch.bmm on the same shapes and majors, same run).
--
--   cutelua bench/gpu/gemm_sm90.lua [case ...]
--
-- Cases: "TN:8192" (M=N=K), "NN:4096", "TN:8191x8193x4096" (ragged),
-- "TN:2048x2048x2048x16" (batched, L = 16).  Majors name A and B as BLAS
-- does for column-major data (C = op(A) op(B)): A "N" is M-major, "T"
-- K-major; B "N" is K-major, "T" N-major.  TN is torch.matmul(a, b.t())
-- on row-major a (M,K) and b (N,K).  C is (M,N) with unit stride along N.
-- Checks on fresh seeded data: C is poisoned first; every element is
-- compared with the paper's generic GEMM (cute.gemm, f32 sums rounded to
-- bf16): `bad` counts elements off by more than 1/64 relative + 0.5
-- absolute, `rel` is ||C - ref|| / ||ref||.  Timing: median of 20
-- event-timed runs after 3 warm-ups.  Cold ms: NVRTC to sm_90a with the
-- cache off, once per distinct kernel.  Targets (ratio to cuBLAS): TN
-- 4096^3 and 8192^3 >= 85%, other majors and batched >= 75%, sizes not
-- multiples of the tile >= 70%.  Exits non-zero on any bad element.
local cute = require "cute"
local cuda = require "cute.cuda"
local sm90 = require "cute.gemm_sm90"

local cases = {}
for _, a in ipairs(arg or {}) do cases[#cases + 1] = a end
if #cases == 0 then
  cases = { "TN:4096", "NN:4096", "NT:4096", "TT:4096", "TN:8192", "NN:8192",
            "NT:8192", "TT:8192", "TN:2048x2048x2048x16", "TN:8191x8193x4096",
            "TN:1000x1000x1001" }
end
local ref_max = tonumber(os.getenv("GEMM_REF_MAX") or "") or 1e30
-- SM90_CONFIG="BN=128,stages=6" overrides cute.gemm_sm90.config
local config = {}
for k, v in (os.getenv("SM90_CONFIG") or ""):gmatch("(%w+)=(%d+)") do config[k] = tonumber(v) end

local util = require "bench_util"
local out_dir = os.getenv("OUT")
local say = util.logger("gemm_sm90.log")

local function parse(c)
  local majors, dims = c:match("^(%u%u):([%dx]+)$")
  local d = {}
  for x in dims:gmatch("%d+") do d[#d + 1] = tonumber(x) end
  if #d == 1 then d = { d[1], d[1], d[1] } end
  return { name = c, ta = majors:sub(1, 1), tb = majors:sub(2, 2),
           M = d[1], N = d[2], K = d[3], L = d[4] or 1 }
end

-- cuBLAS: the same shapes and majors through torch, milliseconds by case.
local TORCH = [[
import sys, torch
for c in sys.argv[1:]:
    majors, dims = c.split(":")
    d = [int(x) for x in dims.split("x")]
    if len(d) == 1: d = d * 3
    M, N, K = d[:3]; L = d[3] if len(d) > 3 else 1
    def op(rows, cols, kmajor):
        if kmajor: return torch.randn(L, rows, cols, device="cuda", dtype=torch.bfloat16)
        return torch.randn(L, cols, rows, device="cuda", dtype=torch.bfloat16).transpose(1, 2)
    a = op(M, K, majors[0] == "T"); b = op(N, K, majors[1] == "N")
    if L == 1: a, b = a[0], b[0]
    f = (lambda: torch.matmul(a, b.transpose(-1, -2)))
    for _ in range(3): f()
    torch.cuda.synchronize()
    t = []
    for _ in range(20):
        s, e = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        s.record(); f(); e.record(); e.synchronize()
        t.append(s.elapsed_time(e))
    t.sort()
    print("ms", c, t[len(t) // 2], flush=True)
]]

local function cublas()
  local ms, text = {}, {}
  for _, line in ipairs(util.python(TORCH, cases)) do
    local c, t = line:match("^ms (%S+) ([%d.e+-]+)")
    if c then ms[c] = tonumber(t) else text[#text + 1] = line end
  end
  if next(ms) == nil then return nil, table.concat(text, " | "):sub(1, 300) end
  return ms
end

-- The layout of an operand (rows, K[, L]): K-major or rows-major.
local function operand_layout(rows, K, L, kmajor)
  if kmajor then
    return L > 1 and cute.layout({ rows, K, L }, { K, 1, rows * K })
      or cute.layout({ rows, K }, { K, 1 })
  end
  return L > 1 and cute.layout({ rows, K, L }, { 1, rows, rows * K })
    or cute.layout({ rows, K }, { 1, rows })
end

local dev = cuda.device()
say("device: %s (%s, %d SMs), driver %d, NVRTC %s", dev.name, dev.arch,
  dev.sm_count, dev.driver_version, cuda.nvrtc_version())
local base_ms, why = cublas()
if not base_ms then say("cuBLAS (torch) unavailable: %s", why) end

-- Cold compile: NVRTC to sm_90a with the cache off, once per kernel.
local cold = {}
local function cold_compile(p)
  if cold[p.source] then return nil end
  local mode, dir = cuda.cache()
  cuda.cache("off")
  local t0 = cuda.now_ms()
  cuda.core.compile(p.source, { p.name }, "sm_90a")
  cold[p.source] = cuda.now_ms() - t0
  cuda.cache(mode, dir)
  return cold[p.source]
end

local rows = {}
for i, name in ipairs(cases) do
  local c = parse(name)
  local A = cuda.tensor(cuda.buffer("bf16", c.M * c.K * c.L):random(100 + i, -1, 1),
    operand_layout(c.M, c.K, c.L, c.ta == "T"))
  local B = cuda.tensor(cuda.buffer("bf16", c.N * c.K * c.L):random(200 + i, -1, 1),
    operand_layout(c.N, c.K, c.L, c.tb == "N"))
  local Cl = c.L > 1 and cute.layout({ c.M, c.N, c.L }, { c.N, 1, c.M * c.N })
    or cute.layout({ c.M, c.N }, { c.N, 1 })
  local C = cuda.tensor(cuda.buffer("bf16", c.M * c.N * c.L), Cl)
  C.buffer:random(7, 1000, 2000)   -- poison: far from any result
  local p, why = sm90.plan(A, B, C, config)
  local r = { c = c }
  if not p then
    r.err = why
  else
    r.compile = cold_compile(p)
    local _, h, k = sm90.gemm(A, B, C, config)
    cuda.synchronize()
    if c.M * c.N * c.K * c.L <= ref_max then
      local ref = cuda.tensor(cuda.buffer("bf16", c.M * c.N * c.L), Cl)
      cuda.gemm(A, B, ref, { beta = 0, path = "generic" })
      local cmp = cuda.compare(C.buffer, ref.buffer, 1 / 64, 0.5)
      r.bad, r.rel = cmp.bad, cmp.rel_norm
    end
    r.ms = cuda.time(function() h() end)
    if out_dir and i == 1 and k.binary.kind == "cubin" then
      local f = io.open(out_dir .. "/gemm_sm90.cubin", "wb")
      if f then f:write(k.binary.image) f:close() end
    end
  end
  rows[#rows + 1] = r
end

-- Targets: ratio to cuBLAS in this run.
local function target(c)
  if c.M % 128 ~= 0 or c.N % 256 ~= 0 then return 0.70 end
  if c.ta == "T" and c.tb == "N" and c.L == 1 and (c.M == 4096 or c.M == 8192) then
    return 0.85
  end
  return 0.75
end

say("")
say("bf16 GEMM on Hopper (TMA + wgmma, f32 sums, C bf16 N-major)   %s", os.date("!%Y-%m-%d"))
say("%-24s %9s %8s %9s %8s %7s %8s %8s  %s", "case", "ms", "TFLOP/s", "cuBLAS", "ratio",
  "bad", "rel", "cold ms", "target")
local bad_total, missed = 0, 0
for _, r in ipairs(rows) do
  local c = r.c
  if r.err then
    say("%-24s refused: %s (cute.cuda.gemm runs the generic kernel)", c.name, r.err)
  else
    local fl = 2 * c.M * c.N * c.K * c.L
    local tf = fl / (r.ms * 1e9)
    local cb = base_ms and base_ms[c.name]
    local verdict = "-"
    if cb then
      local t = target(c)
      verdict = (">= %d%%: %s"):format(math.floor(100 * t + 0.5),
        cb / r.ms >= t and "MET" or "NOT MET")
      if cb / r.ms < t then missed = missed + 1 end
    end
    bad_total = bad_total + (r.bad or 0)
    say("%-24s %9.3f %8.1f %9s %8s %7s %8s %8s  %s", c.name, r.ms, tf,
      cb and ("%.1f"):format(fl / (cb * 1e9)) or "-",
      cb and ("%.1f%%"):format(100 * cb / r.ms) or "-",
      r.bad and tostring(r.bad) or "-", r.rel and ("%.1e"):format(r.rel) or "-",
      r.compile and ("%.0f"):format(r.compile) or "-", verdict)
  end
end
say("bad elements: %d; targets missed: %d", bad_total, missed)
if bad_total > 0 then error("gemm_sm90: " .. bad_total .. " bad elements", 0) end
