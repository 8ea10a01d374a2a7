--- examples/softmax.lua -- a row softmax over bf16 rows, written on the
-- device library (cute.cuda.kernels.softmax): each row is read once into
-- registers through the script's thread-value layout of a row, reduced
-- across the block (max, then sum of exponentials) and written once.
--
--   cutelua examples/softmax.lua [rows]        (default 8192)
--
-- For rows of 4096, 8192 and 16384 elements it checks sampled rows
-- against the host and compares the time with a device-to-device memcpy
-- of the same bytes (the kernel must read and write each element once).
local cute = require "cute"
local cuda = require "cute.cuda"
local K = require "cute.cuda.kernels"

local R = tonumber(arg and arg[1]) or 8192

local function host_softmax(x)
  local m, s, y = -math.huge, 0, {}
  for i = 1, #x do m = math.max(m, x[i]) end
  for i = 1, #x do y[i] = math.exp(x[i] - m) s = s + y[i] end
  for i = 1, #x do y[i] = y[i] / s end
  return y
end

for _, cols in ipairs { 4096, 8192, 16384 } do
  local L = cute.layout({ R, cols }, { cols, 1 })
  local X = cuda.tensor(cuda.buffer("bf16", R * cols):random(cols, -8, 8), L)
  local Y = cuda.tensor(cuda.buffer("bf16", R * cols), L)
  local h, plan = K.softmax(X, Y)
  h()
  local worst = 0
  for _, r in ipairs { 0, R // 3, R - 1 } do
    local x, y = X.buffer:download(r * cols, cols), Y.buffer:download(r * cols, cols)
    local ref = host_softmax(x)
    for i = 1, cols do
      worst = math.max(worst, math.abs(y[i] - ref[i]) / math.max(ref[i], 1e-30))
    end
  end
  if worst > 2 ^ -7 then error(("softmax: relative error %.2e"):format(worst), 0) end
  local ms = cuda.time(h)
  local mc = cuda.time(function() cuda.memcpy(Y, X) end)
  print(("softmax bf16 %d x %d (%d threads x %d vectors of %d): max rel. error %.1e, "
    .. "%.3f ms, %.0f GB/s = %.1f%% of memcpy"):format(R, cols, plan.block[1], plan.per,
    plan.vector, worst, ms, 4 * R * cols / ms / 1e6, 100 * mc / ms))
end
