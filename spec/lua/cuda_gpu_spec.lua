-- cute.cuda on a GPU (#gpu): buffers, tensors and slicing, every row of
-- the paper's Table 2 through cute.cuda.copy against a CPU reference, the
-- planner's tiled transposes, a script-written shared-memory transpose
-- whose swizzle the script chooses, launch handles and events.
-- Pending (with the reason) where there is no driver; CI excludes the tag.
local cute = require "cute"
local cuda = require "cute.cuda"
local transpose_kernel = require "helpers.transpose"
local _ = cute._

local have_gpu, why = cuda.available()

-- Bit-exact CPU reference of COPY over whole buffers (as downloaded).
local function reference(src, dst, before)
  local S, D = src.layout, dst.layout
  local s = src.buffer:download()
  local ref = {}
  for i = 1, #before do ref[i] = before[i] end
  for i = 0, cute.size(S) - 1 do
    ref[dst.offset + D(i) + 1] = s[src.offset + S(i) + 1]
  end
  return ref
end

-- Buffers for a tensor of layout L at offset off: room for its image.
local function span(L, off)
  local n = 0
  for i = 0, cute.size(L) - 1 do n = math.max(n, L(i)) end
  return off + n + 1
end

local function check_copy(src_text, dst_text, dtype, soff, dstoff, opts)
  soff, dstoff = soff or 0, dstoff or 0
  local Ls, Ld = cute.layout(src_text), cute.layout(dst_text)
  local sb = cuda.buffer(dtype, span(Ls, soff)):random(7)
  local db = cuda.buffer(dtype, span(Ld, dstoff)):random(8)
  local src, dst = cuda.tensor(sb, Ls, soff), cuda.tensor(db, Ld, dstoff)
  local before = db:download()
  local plan = cuda.copy(src, dst, opts)
  assert.same(reference(src, dst, before), db:download())
  return plan
end

describe("cute.cuda on the GPU #gpu", function()
  if not have_gpu then
    pending("no GPU: " .. why)
    return
  end
  local dir = os.tmpname()
  os.remove(dir)
  cuda.cache("disk", dir)
  teardown(function() os.execute("rm -rf '" .. dir .. "'") end)

  it("reports the device", function()
    local d = cuda.device()
    assert.truthy(#d.name > 0)
    assert.truthy(d.sm_count > 0)
    assert.equal("sm_" .. d.cc_major .. d.cc_minor, d.arch)
  end)

  it("moves typed values both ways", function()
    local cases = {
      f32 = {1.5, -2.25, 3 * 2 ^ 30}, f64 = {1 / 3, -1e300}, f16 = {1.5, -65504, 2 ^ -24},
      bf16 = {1.5, -3.0, 2 ^ 100}, i8 = {-128, 127, 5}, i16 = {-32768, 7},
      i32 = {-2147483648, 2147483647}, i64 = {math.mininteger, math.maxinteger},
      u8 = {0, 255}, u16 = {65535, 1}, u32 = {4294967295, 0}, u64 = {-1, 5},
    }
    for dtype, vals in pairs(cases) do
      local got = cuda.buffer(dtype, vals):download()
      assert.same(vals, got, dtype)
    end
    assert.same({0, 2, 4, 6}, cuda.buffer("i32", 4):iota(0, 2):download())
  end)

  it("fills random values reproducibly and compares with tolerances", function()
    local a = cuda.buffer("f32", 5000):random(42)
    local b = cuda.buffer("f32", 5000):random(42)
    local c = cuda.buffer("f32", 5000):random(43)
    assert.equal(0, cuda.compare(a, b).bad)
    local r = cuda.compare(a, c, 0, 1e-3)
    assert.truthy(r.bad > 4000 and r.first_bad >= 0 and r.rel_norm > 0.5)
    for _, v in ipairs(a:download(0, 100)) do assert.truthy(v >= -1 and v < 1) end
    local h = cuda.buffer("f16", 1000):random(1)
    local f = cuda.buffer("f16", h:download())
    assert.equal(0, cuda.compare(h, f).bad)
  end)

  it("slices tensors as in the paper's Figure 5", function()
    local A = cuda.tensor(cuda.buffer("i32", 142):iota(), "((3,2),((2,3),2)):((4,1),((2,15),100))")
    assert.equal(8, A(2, 0))
    local row = A(2, _)
    assert.equal(8, row.offset)
    -- one top-level mode per _ (CuTe's slice), so the row keeps its wrapper
    assert.equal("(((2,3),2)):(((2,15),100))", tostring(row.layout))
    assert.same({8, 10, 23, 25, 38, 40, 108, 110, 123, 125, 138, 140}, row:to_table())
    local sub = A({_, 0}, {{0, _}, 1})
    assert.equal(100, sub.offset)
    assert.same({100, 104, 108, 115, 119, 123, 130, 134, 138}, sub:to_table())
    assert.error_matches(function() cuda.tensor(cuda.buffer("f32", 10), "(4,4):(1,4)") end,
                         "outside the buffer")
  end)

  describe("COPY, the paper's Table 2", function()
    local rows = {
      {"1-D arrays", "8:1", "8:1"},
      {"N-D arrays", "(8,2,3):(1,16,32)", "(8,2,3):(1,16,32)"},
      {"gather", "(2,3,2):(42,1,128)", "12:1"},
      {"scatter", "12:1", "(2,3,2):(42,1,128)"},
      {"broadcast", "7:0", "7:1"},
      {"constant", "7:0", "7:0"},
      {"transpose", "(8,3):(1,8)", "(8,3):(3,1)"},
      {"tensor transpose", "(8,(3,5)):(1,(57,8))", "(8,15):(1,8)"},
    }
    for _, r in ipairs(rows) do
      for _, dtype in ipairs {"f32", "f16", "f64", "u8"} do
        it(r[1] .. " " .. dtype, function() check_copy(r[2], r[3], dtype) end)
      end
    end
  end)

  describe("COPY plans at scale", function()
    it("contiguous, vectorised 16 bytes", function()
      local p = check_copy("65536:1", "65536:1", "f32")
      assert.equal(4, p.vector)
      p = check_copy("(64,1024):(1,64)", "65536:1", "f16", 8, 16)
      assert.equal(8, p.vector)
    end)
    it("tiled transposes, ragged and batched", function()
      assert.equal("transpose", check_copy("(1000,700):(1,1000)", "(1000,700):(700,1)", "f32").kind)
      assert.equal("transpose", check_copy("(64,96,3):(1,64,6144)", "(64,96,3):(96,1,6144)", "f64").kind)
      assert.equal("transpose", check_copy("(512,256):(256,1)", "(512,256):(1,512)", "i16", 3, 5).kind)
    end)
    it("no common refinement, negative strides", function()
      assert.equal("generic", check_copy("(6,4):(1,6)", "(4,6):(1,4)", "f32").kind)
      check_copy("1000:-1", "1000:1", "i32", 999, 0)
    end)
    it("agrees with the sampled check of big copies", function()
      local src = cuda.tensor(cuda.buffer("f32", 1 << 20):random(3), "(1024,1024):(1,1024)")
      local dst = cuda.tensor(cuda.buffer("f32", 1 << 20), "(1024,1024):(1024,1)")
      cuda.copy(src, dst)
      assert.is_nil(cuda.check_copy(src, dst))
      assert.is_nil(cuda.check_copy(src, dst, 10000, 5))
      local wrong = cuda.tensor(dst.buffer, "(1024,1024):(1,1024)")
      assert.is_not_nil(cuda.check_copy(src, wrong, 1000, 5))
    end)
  end)

  describe("a shared-memory transpose written in the script", function()
    -- The script chooses the tile's layout; the kernel indexes it as sT(i, j).
    local M, N = 2048, 1024
    local function transpose(swizzle)
      local A = cuda.tensor(cuda.buffer("f32", M * N):random(11), cute.layout({M, N}, {1, M}))
      local B = cuda.tensor(cuda.buffer("f32", M * N), cute.layout({M, N}, {N, 1}))
      local k = cuda.kernel(transpose_kernel.kernel_spec(A, B, swizzle))
      local how = transpose_kernel.launch(M, N)
      how.args = {A, B}
      local h = k:launch(how)
      cuda.synchronize()
      assert.is_nil(cuda.check_copy(A, B))
      return h
    end
    it("with Sw<5,0,5> (conflict-free both ways)", function() transpose(cute.swizzle(5, 0, 5)) end)
    it("with no swizzle (same result, bank conflicts)", function() transpose(cute.swizzle(0, 0, 0)) end)
  end)

  it("launch handles relaunch, events time them", function()
    local x = cuda.buffer("f32", 256):iota()
    local k = cuda.kernel {name = "inc", source = [[
extern "C" __global__ void inc(float *x, float a) { x[threadIdx.x] += a; }]]}
    local h = k:prepare {grid = 1, block = 256, args = {x, 0.5}}
    local e0, e1 = cuda.event(), cuda.event()
    e0:record()
    for _ = 1, 10 do h() end
    e1:record()
    assert.truthy(e0:elapsed(e1) >= 0)
    assert.same({5, 6, 7}, x:download(0, 3))
    h:arg(2, "f32", 1.0)()
    assert.same({6}, x:download(0, 1))
    assert.error_matches(function() k:prepare {grid = 1, block = 1, args = {x}} end,
                         "takes 2 arguments, got 1")
  end)

  it("launch handles keep their buffers, tensors and binaries alive", function()
    local weak = setmetatable({}, {__mode = "v"})
    local h, hc, hg
    do
      local x = cuda.buffer("f32", 256):iota()
      local k = cuda.kernel {name = "inc", source = [[
extern "C" __global__ void inc(float *x, float a) { x[threadIdx.x] += a; }]]}
      h = k:prepare {grid = 1, block = 256, args = {x, 1.0}}
      weak.x, weak.k = x, k.binary
      local s = cuda.tensor(cuda.buffer("f32", 64):iota(), "(8,8):(1,8)")
      local d = cuda.tensor(cuda.buffer("f32", 64), "(8,8):(8,1)")
      hc = cuda.copy_prepare(s, d)
      weak.d = d
      local A = cuda.tensor(cuda.buffer("f32", 4):iota(1), "(2,2):(1,2)")
      local C = cuda.tensor(cuda.buffer("f32", 4):iota(0, 0), "(2,2):(1,2)")
      _, hg = cuda.gemm(A, A, C, {beta = 0})
      weak.C = C
    end
    collectgarbage(); collectgarbage()
    assert.truthy(weak.x and weak.k and weak.d and weak.C)
    h(); hc(); hg()
    assert.same({1, 2, 3}, weak.x:download(0, 3))
    assert.same({0, 8, 16}, weak.d.buffer:download(0, 3))
    assert.same({10, 14, 14, 20}, weak.C.buffer:download())
    h, hc, hg = nil, nil, nil
    collectgarbage(); collectgarbage()
    assert.falsy(weak.x or weak.d or weak.C)
  end)

  it("compiles each kernel once per process (warm: no NVRTC call)", function()
    local src = cuda.tensor(cuda.buffer("f32", 4096):random(1), "(64,64):(1,64)")
    local dst = cuda.tensor(cuda.buffer("f32", 4096), "(64,64):(64,1)")
    cuda.copy(src, dst)
    local calls = cuda.stats().nvrtc_calls
    cuda.forget_memory()
    cuda.core.compile(cuda.copy_plan(src, dst).source, {"cute_copy"})
    assert.equal(calls, cuda.stats().nvrtc_calls)
    assert.equal("cubin", cuda.core.compile(cuda.copy_plan(src, dst).source, {"cute_copy"}).kind)
  end)
end)

-- Kernels written on the device library (cute.cuda.kernels), against the
-- host: COPY over Table 2's rows (in dst order where dst is a bijection,
-- in index order otherwise), the transpose at sizes it was not compiled
-- for, the row softmax.
describe("device-library kernels on the GPU #gpu", function()
  if not have_gpu then
    pending("no GPU: " .. why)
    return
  end
  local K = require "cute.cuda.kernels"

  it("COPY: every pair, vectors of the common vector", function()
    for _, pair in ipairs {
      {"(8,16):(1,8)", "(8,16):(1,8)", 4}, {"(8,16):(1,8)", "(8,16):(16,1)", 1},
      {"(8,(4,4)):(4,(1,32))", "(8,16):(16,1)", 4}, {"(4,(2,8)):(2,(1,8))", "(4,16):(1,4)", 1},
      {"(64,32):(0,1)", "(64,32):(1,64)", 1},     -- broadcast source
      {"1000:1", "1000:1", 4},
    } do
      local S, D = cute.layout(pair[1]), cute.layout(pair[2])
      local src = cuda.tensor(cuda.buffer("f32", span(S, 0)):random(3), S)
      local db = cuda.buffer("f32", span(D, 0)):random(4)
      local dst = cuda.tensor(db, D)
      local before = db:download()
      local h, plan = K.copy(src, dst)
      h()
      assert.equal(pair[3], plan.vector, pair[1])
      assert.same(reference(src, dst, before), db:download(), pair[1])
    end
  end)

  it("transposes sizes the kernel was not compiled for", function()
    local calls
    for _, mn in ipairs { {64, 64}, {65, 31}, {1, 100}, {33, 97} } do
      local m, n = mn[1], mn[2]
      local A = cuda.tensor(cuda.buffer("f32", m * n):random(m), cute.layout({m, n}, {1, m}))
      local B = cuda.tensor(cuda.buffer("f32", m * n), cute.layout({m, n}, {n, 1}))
      local h = K.transpose(A, B)
      h()
      assert.is_nil(cuda.check_copy(A, B), ("%dx%d"):format(m, n))
      calls = calls or cuda.stats().nvrtc_calls
    end
    assert.equal(calls, cuda.stats().nvrtc_calls)
  end)

  it("softmax of bf16 rows", function()
    local R, cols = 5, 4096
    local L = cute.layout({R, cols}, {cols, 1})
    local X = cuda.tensor(cuda.buffer("bf16", R * cols):random(9, -8, 8), L)
    local Y = cuda.tensor(cuda.buffer("bf16", R * cols), L)
    K.softmax(X, Y)()
    local x, y = X.buffer:download(), Y.buffer:download()
    for r = 0, R - 1 do
      local m, s = -math.huge, 0
      for i = 1, cols do m = math.max(m, x[r * cols + i]) end
      for i = 1, cols do s = s + math.exp(x[r * cols + i] - m) end
      for i = 1, cols do
        local ref = math.exp(x[r * cols + i] - m) / s
        assert.truthy(math.abs(y[r * cols + i] - ref) <= 2 ^ -8 * ref, ("row %d col %d"):format(r, i))
      end
    end
  end)
end)
