--- examples/gemm_tiled.lua -- a tensor-core GEMM whose problem size is
-- read at run time: one kernel, compiled once, serves every M, N, K.
--
--   cutelua examples/gemm_tiled.lua [M N K]       (default 4096 4096 4096)
--
-- The kernel is cute.cuda.gemm_sm80 (stdlib/cute/cuda/gemm_sm80.lua): the
-- tile layouts, the swizzle, the ldmatrix and cp.async partitions come from
-- the layout algebra in the script, the device code from the device
-- library (#include <cute/device.h>).  Here it runs on the size asked for
-- and on a ragged one it was not compiled for (M, N, K not multiples of
-- the 128x256x64 tile), each checked on sampled elements against float64
-- dot products on the host, then timed.
local cute = require "cute"
local cuda = require "cute.cuda"
local sm80 = require "cute.cuda.gemm_sm80"

local function problem(M, N, K)
  local A = cuda.tensor(cuda.buffer("bf16", M * K):random(1, -1, 1), cute.layout({ M, K }, { K, 1 }))
  local B = cuda.tensor(cuda.buffer("bf16", N * K):random(2, -1, 1), cute.layout({ N, K }, { K, 1 }))
  local C = cuda.tensor(cuda.buffer("f32", M * N), cute.layout({ M, N }, { N, 1 }))
  return A, B, C
end

-- Largest relative error over samples, the last row and column included.
local function check(A, B, C, M, N, K)
  local worst, c = 0, C.buffer:download()
  for s = 0, 15 do
    local m, n = (s * 7919) % M, (s * 104729) % N
    if s == 15 then m, n = M - 1, N - 1 end
    local a, b, sum = A.buffer:download(m * K, K), B.buffer:download(n * K, K), 0.0
    for k = 1, K do sum = sum + a[k] * b[k] end
    worst = math.max(worst, math.abs(c[m * N + n + 1] - sum) / math.max(1, math.abs(sum)))
  end
  return worst
end

local M = tonumber(arg and arg[1]) or 4096
local N = tonumber(arg and arg[2]) or 4096
local K = tonumber(arg and arg[3]) or 4096
for _, size in ipairs { { M, N, K }, { M - 37, N + 11, K - 24 } } do
  local m, n, k = table.unpack(size)
  local A, B, C = problem(m, n, k)
  local calls = cuda.stats().nvrtc_calls
  local h, p = sm80.prepare(nil, A, B, C)
  h()
  local err = check(A, B, C, m, n, k)
  local ms = cuda.time(h)
  print(("%d x %d x %d: %s, swizzles A %s B %s; NVRTC calls %d; max rel. error %.1e; "
    .. "%.3f ms, %.1f TFLOP/s"):format(m, n, k, p.info.config, p.info.swizzle_A,
    p.info.swizzle_B, cuda.stats().nvrtc_calls - calls, err, ms, 2 * m * n * k / ms / 1e9))
  if err > 1e-2 then error("gemm_tiled: wrong result", 0) end
end
