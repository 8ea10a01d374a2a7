-- Every cute.cuda function called with the kinds of values GPU scripts
-- pass it (launch handles, tensors, buffers, streams, events, callable
-- tables), under the host-memory stand-in for libcuda (spec/c/
-- cuda_fake_driver.c; ctest lua.cuda_fake_driver sets CUDA_HOME to it).
-- Kernels do not run there: these tests check that the calls are
-- accepted, not what kernels compute (cuda_gpu_spec.lua does, #gpu).  An
-- argument check too strict for what a benchmark or example passes fails
-- here, in CI, instead of on the GPU machine.
--
-- Keep doing: a function added to cute.cuda (or a method to its tensors
-- and kernels) needs an entry in `calls` below; the last test says which
-- are missing.
local cute = require "cute"
local cuda = require "cute.cuda"

local on_fake = (function()
  local ok, d = pcall(cuda.device)
  return ok and d.name == "cutelua fake driver"
end)()
local have_nvrtc, nvrtc_why = pcall(cuda.nvrtc_version)

local dir = os.tmpname()
os.remove(dir)
if on_fake then cuda.cache("disk", dir) end

local SCALE = [[
extern "C" __global__ void scale(X_t x, Y_t y, float a, int n) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y(i) = a * x(i);
}]]

-- Values of every kind a GPU script makes; kernels need NVRTC.
local function values()
  local v = {}
  v.buf = cuda.buffer("f32", 64):iota()
  v.filled = cuda.buffer("f32", {1, 2, 3, 4})
  v.X = cuda.tensor(v.buf, "(8,8):(1,8)")
  v.Y = cuda.tensor(cuda.buffer("f32", 64), cute.layout("(8,8):(8,1)"))
  v.stream, v.event = cuda.stream(), cuda.event()
  v.callable = setmetatable({}, {__call = function() end})
  if have_nvrtc then
    v.kernel = cuda.kernel {name = "scale", source = SCALE,
                            tensors = {X = v.X, Y = v.Y}}
    v.launch = v.kernel:prepare {grid = 1, block = 64, stream = v.stream,
                                 args = {v.X, v.Y, 2.0, 64}}
    v.copy_launch = cuda.copy_prepare(v.X, v.Y)
  end
  return v
end

-- One entry per function of cute.cuda: the calls GPU scripts make.
-- nvrtc = true: the entry compiles a kernel (pending without NVRTC).
local calls = {
  available = {function() assert.is_true((cuda.available())) end},
  device = {function() assert.equal("sm_90", cuda.device().arch) end},
  nvrtc_version = {function() assert.truthy(cuda.nvrtc_version()) end, nvrtc = true},
  timings = {function() assert.truthy(cuda.timings().driver_init_ms >= 0) end},
  stats = {function() assert.truthy(cuda.stats().launches >= 0) end},
  stats_reset = {function() cuda.stats_reset() end},
  cache = {function() assert.equal("disk", (cuda.cache())) end},
  forget_memory = {function() cuda.forget_memory() end},
  now_ms = {function() assert.truthy(cuda.now_ms() >= 0) end},
  event = {function(v)
    local e = cuda.event()
    v.event:record(); e:record(v.stream)
    assert.truthy(v.event:elapsed(e) >= 0)
  end},
  stream = {function(v) cuda.stream():synchronize(); v.stream:synchronize() end},
  synchronize = {function() cuda.synchronize() end},
  compare = {function(v)
    assert.equal(0, cuda.compare(v.buf, v.buf).bad)
    assert.equal(0, cuda.compare(v.filled, v.filled, 1e-3, 1e-6).bad)
  end},
  buffer = {function(v)
    for _, dt in ipairs {"f16", "bf16", "f32", "f64", "i8", "i32", "u64"} do
      local b = cuda.buffer(dt, 16):random(1):iota(0, 1)
      assert.equal(16, #b)
      assert.equal(16, #b:download())
      b:upload({1, 2}, 3)
      b:free()
    end
    assert.same({1, 2, 3, 4}, v.filled:download())
    assert.equal(3, select(2, cuda.buffer("i32", 3):info()))
  end},
  memcpy = {function(v)
    cuda.memcpy(v.Y, v.X)                       -- tensors
    cuda.memcpy(v.Y.buffer, v.buf)              -- buffers
    cuda.memcpy(v.Y.buffer, v.buf, 16, v.stream)  -- bytes, a stream
    cuda.core.memcpy(v.Y.buffer, v.buf, 16)     -- the benchmarks' form
  end},
  tensor = {function(v)
    local T = cuda.tensor(v.buf, cute.layout "(4,4):(4,1)", 2.0)
    assert.equal(16, T:size())
    assert.equal(select(1, v.buf:info()) + 8, T:ptr())
    assert.equal(16, #T:to_table())
    assert.equal(v.buf:download(2 + 4, 1)[1], T(1, 0))
    assert.equal(cute.size(T(cute._, 1).layout), 4)
    assert.truthy(tostring(T):find("tensor<f32>", 1, true))
  end},
  codegen = {function() assert.truthy(cuda.codegen("A", "(4,8):(8,1)")) end},
  kernel = {function(v)
    -- pointers as buffers, tensors and raw addresses; scalars by kind
    v.kernel:launch {grid = {1, 1, 1}, block = {64}, args = {v.buf, v.Y, 1, 64}}
    v.kernel:launch {grid = 1, block = 64, smem = 64 * 1024,
                     args = {v.X:ptr(), v.Y:ptr(), 0.5, 64.0}}
    local h = v.kernel:prepare {kernel = "scale", args = {v.X, v.Y, 1, 1}}
    h(); h:run(); h:arg(3, "f32", 3)()
    assert.error_matches(function() v.kernel:prepare {args = {v.X}} end,
                         "takes 4 arguments, got 1")
  end, nvrtc = true},
  copy_plan = {function(v) assert.truthy(cuda.copy_plan(v.X, v.Y).kind) end},
  copy_prepare = {function(v)
    local h, plan = cuda.copy_prepare(v.X, v.Y, {max_vector_bytes = 4})
    h()
    assert.truthy(plan.summary)
  end, nvrtc = true},
  copy = {function(v) assert.truthy(cuda.copy(v.X, v.Y).kind) end, nvrtc = true},
  check_copy = {function(v)
    local r = cuda.check_copy(v.X, v.X)
    assert.is_nil(r)
    cuda.check_copy(v.X, v.Y, 8, 1)
  end},
  time = {function(v)
    -- everything a script times: functions, launch handles (kernels,
    -- copies), callable tables; on the default stream or a stream
    assert.truthy(cuda.time(function() end) >= 0)
    assert.truthy(cuda.time(v.callable, {warmup = 0, reps = 2}) >= 0)
    assert.truthy(cuda.time(v.launch) >= 0)
    assert.truthy(cuda.time(v.copy_launch, {stream = v.stream}) >= 0)
    assert.error_matches(function() cuda.time(42) end,
      "cute.cuda.time: the timed code must be callable .*, got number")
    assert.error_matches(function() cuda.time({}) end, "got table")
  end, nvrtc = true},
  gemm = {function(v)
    local A = cuda.tensor(cuda.buffer("f32", 4):iota(1), "(2,2):(1,2)")
    local C = cuda.tensor(cuda.buffer("f32", 4), "(2,2):(1,2)")
    local _, h = cuda.gemm(A, A, C, {beta = 0})
    assert.truthy(cuda.time(h, {warmup = 1, reps = 1}) >= 0)
    -- bf16 on the fake sm_90 device: the Hopper kernel, its tensor maps
    local X = cuda.tensor(cuda.buffer("bf16", 64 * 64), "(64,64):(64,1)")
    local Y = cuda.tensor(cuda.buffer("bf16", 64 * 64), "(64,64):(64,1)")
    local p, h2 = cuda.gemm(X, X, Y, {beta = 0})
    assert.truthy(p.desc_A and p.map_A)
    assert.truthy(cuda.time(h2, {warmup = 1, reps = 1}) >= 0)
  end, nvrtc = true},
}
-- Tables of cute.cuda that are not functions to call.
local not_calls = {core = true, limits = true, Tensor = true, Kernel = true}

describe("cute.cuda accepts what GPU scripts pass it (fake driver)", function()
  if not on_fake then
    pending("not under the fake driver (ctest lua.cuda_fake_driver sets "
            .. "CUDA_HOME to it)")
    return
  end
  local v
  setup(function() v = values() end)
  teardown(function() v = nil; collectgarbage(); os.execute("rm -rf '" .. dir .. "'") end)

  local names = {}
  for name in pairs(calls) do names[#names + 1] = name end
  table.sort(names)
  for _, name in ipairs(names) do
    local entry = calls[name]
    if entry.nvrtc and not have_nvrtc then
      pending(name .. ": no NVRTC (" .. tostring(nvrtc_why) .. ")")
    else
      it("cute.cuda." .. name, function() entry[1](v) end)
    end
  end

  it("has a call for every function of cute.cuda", function()
    local missing = {}
    for name, f in pairs(cuda) do
      if not not_calls[name] and not calls[name] then
        missing[#missing + 1] = name .. " (" .. type(f) .. ")"
      end
    end
    table.sort(missing)
    assert.same({}, missing, "add them to `calls` in this spec")
  end)
end)
