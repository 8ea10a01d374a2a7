--- warm.lua -- one cold process: from require to the first launch of a
-- copy kernel whose binary is already in the disk cache.  bench.lua runs
-- it as a child (the same cache directory) and reads the WARM line.
--
--   cutelua-gpu bench/gpu/warm.lua <elements>
local core = require "cute.cuda.core"   -- preloaded C: nothing runs yet
local t0 = core.now_ms()
local cute = require "cute"
local cuda = require "cute.cuda"
local t1 = core.now_ms()
local n = math.tointeger(tonumber(arg[1] or "1048576"))
local src = cuda.tensor(cuda.buffer("f32", n), cute.layout(n))
local dst = cuda.tensor(cuda.buffer("f32", n), cute.layout(n))
local t2 = core.now_ms()
local h = cuda.copy_prepare(src, dst)
h()
local t3 = core.now_ms()
cuda.synchronize()
local t4 = core.now_ms()
local s = cuda.stats()
print(string.format("WARM require_ms=%.3f alloc_ms=%.3f prepare_launch_ms=%.3f "
                    .. "sync_ms=%.3f driver_init_ms=%.3f nvrtc_calls=%d disk_hits=%d",
                    t1 - t0, t2 - t1, t3 - t2, t4 - t3,
                    cuda.timings().driver_init_ms, s.nvrtc_calls, s.disk_hits))
