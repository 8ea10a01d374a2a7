--- examples/copy_transpose.lua -- the paper's COPY and a swizzled
-- transpose, written on the device library (cute.cuda.kernels), checked
-- against the host and timed next to a device-to-device memcpy.
--
--   cutelua examples/copy_transpose.lua [M N]       (default 8192 8192)
--
-- COPY moves vectors of the max common vector of the two layouts; the
-- transpose reads M and N at run time, so one compiled kernel also does
-- the ragged size below (not a multiple of its 32x32 tile), predicated by
-- the identity tensor of each tile.
local cute = require "cute"
local cuda = require "cute.cuda"
local K = require "cute.cuda.kernels"

local M = tonumber(arg and arg[1]) or 8192
local N = tonumber(arg and arg[2]) or 8192

-- dst(i) == src(i) for every i of a small case, read back in full.
local function same(src, dst)
  local s, d = src.buffer:download(), dst.buffer:download()
  for i = 0, cute.size(src.layout) - 1 do
    if s[src.layout(i) + 1] ~= d[dst.layout(i) + 1] then return false, i end
  end
  return true
end

-- Table 2 of the paper, small: every row is one COPY.
for _, pair in ipairs {
  { "(8,16):(1,8)", "(8,16):(1,8)" }, { "(8,16):(1,8)", "(8,16):(16,1)" },
  { "(8,(4,4)):(4,(1,32))", "(8,16):(16,1)" }, { "(4,(2,8)):(2,(1,8))", "(4,16):(1,4)" },
} do
  local S, D = cute.layout(pair[1]), cute.layout(pair[2])
  local src = cuda.tensor(cuda.buffer("f32", cute.cosize(S)):random(1), S)
  local dst = cuda.tensor(cuda.buffer("f32", cute.cosize(D)), D)
  local h, plan = K.copy(src, dst)
  h()
  local ok, bad = same(src, dst)
  print(("COPY %-22s -> %-16s vector %d: %s"):format(pair[1], pair[2], plan.vector,
    ok and "ok" or ("WRONG at " .. bad)))
  if not ok then error("copy_transpose: COPY is wrong", 0) end
end

-- Transposes: the size asked for, then a ragged one with the same kernel.
for _, mn in ipairs { { M, N }, { M - 5, N + 3 } } do
  local m, n = mn[1], mn[2]
  local A = cuda.tensor(cuda.buffer("f32", m * n):random(2), cute.layout({ m, n }, { 1, m }))
  local B = cuda.tensor(cuda.buffer("f32", m * n), cute.layout({ m, n }, { n, 1 }))
  local calls = cuda.stats().nvrtc_calls
  local h, plan = K.transpose(A, B)
  h()
  local bad = cuda.check_copy(A, B, 100000, 5)
  if bad then error("copy_transpose: transpose wrong at " .. bad, 0) end
  local ms = cuda.time(h)
  local mc = cuda.time(function() cuda.memcpy(B, A) end)
  print(("transpose f32 %d x %d (tile %s): NVRTC calls %d, %.3f ms, %.0f GB/s = %.1f%% of "
    .. "memcpy"):format(m, n, plan.swizzle, cuda.stats().nvrtc_calls - calls, ms,
    8 * m * n / ms / 1e6, 100 * mc / ms))
end
