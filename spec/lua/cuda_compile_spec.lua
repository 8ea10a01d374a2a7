-- cute.cuda without a GPU: codegen, the NVRTC path to PTX, the kernel
-- cache, COPY plans.  Runs in CI (the toolkit, no driver); the NVRTC part is
-- pending with a message where NVRTC is missing.  Launches are in
-- cuda_gpu_spec.lua (#gpu).
local cute = require "cute"
local cuda = require "cute.cuda"
local transpose_kernel = require "helpers.transpose"

local have_nvrtc, nvrtc_why = pcall(cuda.nvrtc_version)

-- Fresh cache directories (removed at the end), so runs share no entries
-- and nothing lands in the user's cache.
local made = {}
local function fresh_cache(mode)
  local dir = os.tmpname()
  os.remove(dir)
  made[#made + 1] = dir
  cuda.cache(mode or "disk", dir)
  cuda.forget_memory()
  return dir
end
fresh_cache()

local function exists(path)
  local f = io.open(path, "rb")
  if f then f:close() end
  return f ~= nil
end

describe("cute.cuda codegen", function()
  it("turns a layout into straight-line index math with literal divisors", function()
    local text = cuda.codegen("A", cute.layout "(4,8):(8,1)")
    assert.truthy(text:find("CUTE_DI int A(unsigned i)", 1, true))
    assert.truthy(text:find("r += (int)(i % 4u) * 8; i /= 4u;", 1, true))
    assert.truthy(text:find("CUTE_DI int A(unsigned c0, unsigned c1)", 1, true))
    assert.truthy(text:find("A_size = 32ll, A_cosize = 32ll", 1, true))
  end)

  it("merges contiguous modes and drops size-1 modes", function()
    local text = cuda.codegen("B", cute.layout "((2,1),(4,8)):((1,0),(2,8))")
    assert.truthy(text:find("r += (int)i;", 1, true))       -- one 64:1 term
    assert.falsy(text:find("%", 1, true))
  end)

  it("turns a swizzle into a mask, a shift and an XOR", function()
    local S = cute.composed(cute.swizzle(3, 4, 3), 0, cute.layout "(8,64):(64,1)")
    local text = cuda.codegen("S", S)
    assert.truthy(text:find("((x) ^ (((x) & 896) >> 3))", 1, true))
  end)

  it("makes tensor types whose call operator is the layout", function()
    local text = cuda.codegen("X", cute.layout "(16,8):(8,1)", "f16")
    assert.truthy(text:find("struct X_t {", 1, true))
    assert.truthy(text:find("unsigned short &operator()(unsigned c0, unsigned c1) const", 1, true))
    assert.truthy(text:find("typedef unsigned short X_elem; /* f16 */", 1, true))
  end)

  it("gives coordinates for coordinate layouts, refuses them as tensors, and bad names", function()
    local text = cuda.codegen("I", cute.make_identity_layout {4, 8})
    assert.truthy(text:find("CUTE_DI cute::coord<2, int> I(unsigned c0, unsigned c1)", 1, true))
    assert.error_matches(function() cuda.codegen("I", cute.make_identity_layout {4, 8}, "f32") end,
                         "a tensor's layout must give offsets, not coordinates")
    assert.error_matches(function() cuda.codegen("1x", cute.layout "4:1") end,
                         "not a C identifier")
    -- a name the generated C++ cannot use, or one cut at a NUL byte
    for _, name in ipairs {"int", "return", "main"} do
      assert.error_matches(function() cuda.codegen(name, cute.layout "4:1") end,
                           "'" .. name .. "' is reserved", 1, true)
    end
    assert.error_matches(function() cuda.codegen("a\0b", cute.layout "4:1") end,
                         "NUL byte", 1, true)
  end)
end)

describe("cute.cuda without a driver", function()
  local ok = cuda.available()
  if ok then
    pending("a driver is present: the no-driver message is checked on machines without one")
    return
  end
  it("raises a catchable error naming the missing library", function()
    local good, err = pcall(cuda.buffer, "f32", 16)
    assert.falsy(good)
    assert.truthy(err:find("cute.cuda.buffer: libcuda.so.1 not found (no NVIDIA driver)", 1, true))
    assert.falsy(pcall(cuda.device))
  end)
end)

describe("cute.cuda NVRTC to PTX", function()
  if not have_nvrtc then
    pending("NVRTC is not available: " .. tostring(nvrtc_why))
    return
  end
  local X = {dtype = "f32", layout = cute.layout "(32,32):(1,32)"}
  local Y = {dtype = "f32", layout = cute.layout "(32,32):(32,1)"}
  local spec = {
    name = "scale", arch = "compute_90",
    tensors = {X = X, Y = Y},
    layouts = {S = cute.composed(cute.swizzle(3, 4, 3), 0, cute.layout "(8,64):(64,1)")},
    source = [[
extern "C" __global__ void scale(X_t x, Y_t y, float a, const int n,
                                 unsigned long long z, double *__restrict__ w) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < X_size) y(i % 32u, i / 32u) = a * x(i) + (float)S(i % S_size);
}]]}

  it("compiles a script's kernel with named layouts and tensors", function()
    fresh_cache()
    local k = cuda.kernel(spec)
    assert.equal("ptx", k.binary.kind)
    assert.equal("compute_90", k.binary.arch)
    assert.truthy(k.binary.image:find(".entry scale(", 1, true))
    assert.same({"ptr", "ptr", "f32", "i32", "u64", "ptr"}, k.params[1])
  end)

  it("compiles in a state a host opened with io but without os", function()
    fresh_cache("off")
    local os_ = os
    _G.os = nil   -- as cutelua_options' open_os = 0 leaves it
    local ok, k = pcall(cuda.kernel, spec)
    _G.os = os_
    assert.truthy(ok, k)
    assert.equal("ptx", k.binary.kind)
  end)

  it("calls NVRTC zero times when warm (memory, then disk)", function()
    local dir = fresh_cache()
    cuda.stats_reset()
    local cold = cuda.kernel(spec)
    assert.equal("nvrtc", cold.binary.from_cache)
    local key = cold.binary.key
    for _, ext in ipairs {".bin", ".cu", ".log"} do
      assert.truthy(exists(dir .. "/kernels/" .. key:sub(1, 2) .. "/" .. key .. ext))
    end
    assert.equal("memory", cuda.kernel(spec).binary.from_cache)
    cuda.forget_memory()
    assert.equal("disk", cuda.kernel(spec).binary.from_cache)
    local s = cuda.stats()
    assert.equal(1, s.nvrtc_calls)
    assert.equal(1, s.memory_hits)
    assert.equal(1, s.disk_hits)
  end)

  it("keys entries by options and architecture", function()
    fresh_cache()
    local a = cuda.kernel(spec).binary.key
    local s2 = setmetatable({options = {"-DVARIANT=2"}}, {__index = spec})
    local s3 = setmetatable({arch = "compute_80"}, {__index = spec})
    assert.are_not.equal(a, cuda.kernel(s2).binary.key)
    assert.are_not.equal(a, cuda.kernel(s3).binary.key)
  end)

  it("keys entries by the user headers the source includes", function()
    local dir = fresh_cache()
    local inc = dir .. "-inc"
    made[#made + 1] = inc
    os.execute("mkdir -p '" .. inc .. "/sub'")
    local function header(path, text)
      local f = assert(io.open(inc .. "/" .. path, "w"))
      f:write(text)
      f:close()
    end
    header("sub/scale.h", "#define SCALE 5.0f\n")
    header("k.h", '#pragma once\n#include "sub/scale.h"\n')
    local hs = {name = "k", arch = "compute_90", options = {"-I" .. inc},
      source = '#include "k.h"\n#include <cuda_fp16.h>\n'
               .. 'extern "C" __global__ void k(float *p) { p[0] *= SCALE; }\n'}
    cuda.stats_reset()
    local a = cuda.kernel(hs).binary
    header("sub/scale.h", "#define SCALE 7.0f\n")   -- a nested header changes
    cuda.forget_memory()
    local b = cuda.kernel(hs).binary
    assert.are_not.equal(a.key, b.key)
    assert.equal("nvrtc", b.from_cache)
    assert.truthy(a.image:find("0f40A00000", 1, true))   -- 5.0f
    assert.truthy(b.image:find("0f40E00000", 1, true))   -- 7.0f
    cuda.forget_memory()
    assert.equal("disk", cuda.kernel(hs).binary.from_cache)
    assert.equal(0, cuda.stats().memory_only)
  end)

  it("keys a program by every file of its include directories, even one it does not name yet", function()
    local dir = fresh_cache()
    local inc = dir .. "-late"
    made[#made + 1] = inc
    os.execute("mkdir -p '" .. inc .. "'")
    local late = {name = "k", arch = "compute_90", options = {"-I" .. inc},
      source = '#if __has_include("late.h")\n#include "late.h"\n#endif\n'
               .. '#ifndef V\n#define V 1.5f\n#endif\n'
               .. 'extern "C" __global__ void k(float *p) { p[0] = V; }\n'}
    cuda.stats_reset()
    local a = cuda.kernel(late).binary
    local f = assert(io.open(inc .. "/late.h", "w"))
    f:write("#define V 2.5f\n")
    f:close()
    cuda.forget_memory()
    local b = cuda.kernel(late).binary
    assert.are_not.equal(a.key, b.key)
    assert.equal("nvrtc", b.from_cache)
    assert.truthy(b.image:find("1075838976", 1, true))   -- 2.5f
    cuda.forget_memory()
    assert.equal("disk", cuda.kernel(late).binary.from_cache)
    assert.equal(0, cuda.stats().memory_only)
  end)

  it("never searches the current directory for headers", function()
    fresh_cache()
    local name = "cutelua_cwd_probe_" .. os.time() .. ".h"
    local f = assert(io.open(name, "w"))
    f:write("#define V 1\n")
    f:close()
    local ok, err = pcall(cuda.kernel, {name = "k", arch = "compute_90",
      source = '#include "' .. name .. '"\nextern "C" __global__ void k(int *p) { p[0] = V; }\n'})
    os.remove(name)
    assert.is_false(ok)
    assert.truthy(tostring(err):find("cannot open source file", 1, true))
  end)

  it("refuses a cache directory longer than 1023 characters", function()
    local mode, dir = cuda.cache()
    assert.error_matches(function() cuda.cache("disk", "/" .. ("d"):rep(1023)) end,
      "cute.cuda.cache: the cache directory is 1024 characters long, more than the 1023 allowed")
    assert.same({mode, dir}, {cuda.cache()})
  end)

  it("gives a kernel's PTX, for its architecture or another, without a GPU", function()
    fresh_cache()
    local k = cuda.kernel {name = "twice", arch = "compute_90", source =
      [[extern "C" __global__ void twice(float *p) { p[threadIdx.x] *= 2; }]]}
    assert.equal(k.binary.image, k:ptx())
    assert.truthy(k:ptx():find(".target sm_90", 1, true))
    assert.truthy(k:ptx():find(".entry twice", 1, true))
    assert.truthy(k:ptx("sm_80"):find(".target sm_80", 1, true))
    local c = cuda.kernel {name = "twice", arch = "sm_90", source = k.source:sub(#cuda.core.prelude + 2)}
    assert.equal("cubin", c.binary.kind)
    assert.truthy(c:ptx():find(".target sm_90", 1, true))
    assert.error_matches(function() k:ptx("hopper") end,
      "cute.cuda.Kernel:ptx: architecture hopper is not sm_XY or compute_XY")
  end)

  it("gives a kernel's SASS where nvdisasm is found", function()
    local k = cuda.kernel {name = "twice", arch = "compute_90", source =
      [[extern "C" __global__ void twice(float *p) { p[threadIdx.x] *= 2; }]]}
    local ok, sass = pcall(k.sass, k)
    if not ok and tostring(sass):find("nvdisasm not found", 1, true) then
      pending("no nvdisasm: " .. sass)
      return
    end
    assert.truthy(ok, sass)
    assert.truthy(sass:find("twice", 1, true))
    assert.truthy(sass:find("FMUL", 1, true) or sass:find("FADD", 1, true))
  end)

  it("dumps every program's PTX where CUTELUA_DUMP names a directory", function()
    local out = os.tmpname()
    os.remove(out)
    made[#made + 1] = out
    os.execute("mkdir -p '" .. out .. "'")
    local script = [[local cuda = require "cute.cuda"; cuda.cache("memory"); ]]
      .. [[cuda.kernel {name = "dumped", arch = "compute_90", source = ]]
      .. [['extern "C" __global__ void dumped(int *p) { p[0] = 7; }'}]]
    local lua = io.popen("command -v lua5.4"):read("l")
    if not lua then
      pending("no lua5.4 on PATH to start a process with CUTELUA_DUMP")
      return
    end
    assert.truthy(os.execute(("CUTELUA_DUMP='%s' %s -e '%s'"):format(out, lua,
      script:gsub("'", "'\\''"))))
    local ls = io.popen("ls '" .. out .. "'"):read("a")
    local name = ls:match("(dumped%-%x+%.ptx)")
    assert.truthy(name, ls)
    local f = assert(io.open(out .. "/" .. name))
    assert.truthy(f:read("a"):find(".entry dumped", 1, true))
    f:close()
  end)

  it("can keep the cache in memory only, or switch it off", function()
    local dir = fresh_cache("memory")
    cuda.stats_reset()
    local k = cuda.kernel(spec)
    assert.falsy(exists(dir .. "/kernels/" .. k.binary.key:sub(1, 2) .. "/" .. k.binary.key .. ".bin"))
    cuda.cache("off", dir)
    cuda.kernel(spec)
    assert.equal(2, cuda.stats().nvrtc_calls)
  end)

  it("counts failed disk writes and warns once when the cache dir is a file", function()
    local file = os.tmpname()           -- a regular file, not a directory
    made[#made + 1] = file
    cuda.cache("disk", file)
    cuda.forget_memory()
    cuda.stats_reset()
    -- cute.cuda calls the global warn (the real _G, not the spec's env)
    local warned, real_warn = {}, _G.warn
    _G.warn = function(...) warned[#warned + 1] = table.concat({...}) end
    local ok, err = pcall(function()
      assert.equal("nvrtc", cuda.kernel(spec).binary.from_cache)
      cuda.kernel {name = "other", arch = "compute_90",
                   source = 'extern "C" __global__ void other() {}'}
    end)
    _G.warn = real_warn
    assert(ok, err)
    assert.equal("disk", (cuda.cache()))    -- the mode asked for...
    local s = cuda.stats()
    assert.equal(0, s.disk_writes)          -- ...but nothing reached it
    assert.equal(2, s.disk_errors)
    assert.equal("cannot write the kernel cache at " .. file .. "/kernels/"
      .. cuda.kernel(spec).binary.key:sub(1, 2) .. ": Not a directory",
      s.disk_error)
    assert.equal(1, #warned)
    assert.matches("cute.cuda: " .. s.disk_error .. " (kernels are cached in "
      .. "memory only", warned[1], 1, true)
    fresh_cache()
  end)

  it("reports the same for CUTELUA_CACHE_DIR set to a file (a new process)", function()
    local lua = io.popen("command -v lua5.4"):read("l")
    if not lua then
      pending("no lua5.4 on PATH to start a process with CUTELUA_CACHE_DIR")
      return
    end
    local file = os.tmpname()
    made[#made + 1] = file
    local script = [[local cuda = require "cute.cuda"
      cuda.kernel {name = "k", arch = "compute_90",
                   source = 'extern "C" __global__ void k() {}'}
      local s = cuda.stats()
      print(cuda.cache(), s.disk_writes, s.disk_errors)]]
    local p = io.popen(("CUTELUA_CACHE_DIR='%s' '%s' -W -e '%s' 2>&1")
      :format(file, lua, (script:gsub("'", "'\\''"))))
    local out = p:read("a")
    p:close()
    assert.matches("Lua warning: cute.cuda: cannot write the kernel cache at "
      .. file .. "/", out, 1, true)
    assert.matches("\ndisk\t0\t[1-9]%d*\n$", out)   -- mode, writes, errors
  end)

  it("compiles the script-written transpose with a swizzle the script chooses", function()
    for _, swz in ipairs {cute.swizzle(5, 0, 5), cute.swizzle(0, 0, 0)} do
      local k = cuda.kernel(transpose_kernel.kernel_spec(
        {dtype = "f32", layout = cute.layout({2048, 1024}, {1, 2048})},
        {dtype = "f32", layout = cute.layout({2048, 1024}, {1024, 1})},
        swz, "compute_90"))
      assert.truthy(k.binary.image:find(".shared", 1, true))
      assert.same({"ptr", "ptr"}, k.params[1])
    end
  end)

  it("raises compile errors with NVRTC's log and the numbered source", function()
    fresh_cache()
    local ok, err = pcall(cuda.kernel, {name = "bad", arch = "compute_90",
      source = 'extern "C" __global__ void bad(float *p) {\n  p[0] = nope;\n}\n'})
    assert.falsy(ok)
    assert.truthy(err:find("NVRTC compile error (compute_90)", 1, true))
    assert.truthy(err:find('identifier "nope" is undefined', 1, true))
    assert.truthy(err:find("|   p[0] = nope;", 1, true))
  end)

  it("asks for explicit params when it cannot read the signature", function()
    fresh_cache()
    assert.error_matches(function()
      cuda.kernel {name = "k", arch = "compute_90",
        source = 'struct P { int a; };\nextern "C" __global__ void k(P p) {}\n'}
    end, "cannot pass a parameter of type 'P'")
    local k = cuda.kernel {name = "k", arch = "compute_90", params = {"i32"},
      source = 'struct P { int a; };\nextern "C" __global__ void k(P p) {}\n'}
    assert.same({"i32"}, k.params[1])
  end)
end)

describe("cute.cuda COPY plans (paper Table 2)", function()
  local rows = {
    {"1-D arrays", "8:1", "8:1", "elementwise", 4},
    {"N-D arrays", "(8,2,3):(1,16,32)", "(8,2,3):(1,16,32)", "elementwise", 4},
    {"gather", "(2,3,2):(42,1,128)", "12:1", "elementwise", 1},
    {"scatter", "12:1", "(2,3,2):(42,1,128)", "elementwise", 1},
    {"broadcast", "7:0", "7:1", "elementwise", 1},
    {"constant", "7:0", "7:0", "elementwise", 1},
    {"transpose", "(8,3):(1,8)", "(8,3):(3,1)", "elementwise", 1},
    {"tensor transpose", "(8,(3,5)):(1,(57,8))", "(8,15):(1,8)", "elementwise", 1},
    {"tiled transpose", "(1024,512):(1,1024)", "(1024,512):(512,1)", "transpose", 1},
    {"contiguous 1 Mi", "1048576:1", "1048576:1", "elementwise", 4},
    {"no common refinement", "(6,4):(1,6)", "(4,6):(1,4)", "generic", 1},
  }
  for _, r in ipairs(rows) do
    it(r[1] .. ": " .. r[2] .. " -> " .. r[3], function()
      local p = cuda.core.copy_plan(cute.layout(r[2]), 0, cute.layout(r[3]), 0, "f32")
      assert.equal(r[4], p.kind)
      assert.equal(r[5], p.vector)
      if have_nvrtc then
        local b = cuda.core.compile(p.source, {"cute_copy"}, "compute_90")
        assert.truthy(b.image:find(".entry cute_copy(", 1, true))
        if p.vector == 4 then assert.truthy(b.image:find(".v4.u32", 1, true)) end
      end
    end)
  end

  it("takes the max common vector from the algebra (3.4.2)", function()
    local A, B = cute.layout "(4,8):(1,4)", cute.layout "(4,8):(1,8)"
    local p = cuda.core.copy_plan(A, 0, B, 0, "f32")
    assert.equal(4, cute.max_common_vector(A, B))
    assert.equal(4, p.common)
    assert.equal(4, p.vector)
    -- (4,8):(1,5): four common elements, but rows start at odd offsets, so
    -- 16-byte accesses would be misaligned.
    local C = cute.layout "(4,8):(1,5)"
    p = cuda.core.copy_plan(A, 0, C, 0, "f32")
    assert.equal(4, p.common)
    assert.equal(1, p.vector)
  end)

  it("narrows vectors to what the offsets' alignment allows", function()
    local L = cute.layout "1024:1"
    assert.equal(8, cuda.core.copy_plan(L, 8, L, 16, "f16").vector)
    assert.equal(2, cuda.core.copy_plan(L, 2, L, 16, "f16").vector)
    assert.equal(1, cuda.core.copy_plan(L, 3, L, 16, "f16").vector)
  end)

  it("refuses tensors of different sizes", function()
    assert.error_matches(function()
      cuda.core.copy_plan(cute.layout "8:1", 0, cute.layout "9:1", 0, "f32")
    end, "size%(src%) == size%(dst%) violated")
  end)
end)

describe("cute.cuda spec cleanup", function()
  it("removes its cache directories", function()
    fresh_cache("memory")
    for _, d in ipairs(made) do os.execute("rm -rf '" .. d .. "'") end
    assert.falsy(exists(made[1] .. "/kernels"))
  end)
end)

-- The bounds and overflow checks of cute.cuda.core come before any driver
-- call, and a 0-element buffer holds no device memory: both run here.
describe("cute.cuda.core argument checks (no driver needed)", function()
  local core = require "cute.cuda.core"
  local maxint = math.maxinteger
  local msg = require "helpers.err"

  it("refuses a buffer whose byte size overflows", function()
    assert.matches("9223372036854775807 f64 elements overflow the byte size",
                   msg(core.buffer, "f64", maxint), 1, true)
    assert.matches("1152921504606846976 f64 elements overflow",
                   msg(core.buffer, "f64", maxint // 8 + 1), 1, true)
    assert.matches("negative size", msg(core.buffer, "f32", -1), 1, true)
  end)

  it("makes 0-element buffers without device memory", function()
    local b = core.buffer("f32", 0)
    assert.equal(0, #b)
    assert.same({}, b:download())
    b:upload({})
    b:free()
    assert.matches("buffer was freed", msg(b.info, b), 1, true)
  end)

  it("checks element ranges without overflowing first + count", function()
    local b = core.buffer("f32", 0)
    assert.matches("elements [0, 0 + 1) outside the buffer of 0 elements",
                   msg(b.upload, b, {1}), 1, true)
    assert.matches("elements [" .. maxint .. ", " .. maxint .. " + 1) outside",
                   msg(b.upload, b, {1}, maxint), 1, true)
    assert.matches("elements [-1, -1 + 0) outside",
                   msg(b.download, b, -1), 1, true)
    assert.matches("elements [0, 0 + " .. maxint .. ") outside",
                   msg(b.download, b, 0, maxint), 1, true)
  end)

  it("checks memcpy byte ranges without signed overflow", function()
    local b = core.buffer("f32", 0)
    assert.matches("bad argument #4 to 'cute.cuda.core.memcpy' (bytes [" .. maxint .. ", "
                   .. maxint .. " + 1) outside the buffer of 0 bytes)",
                   msg(core.memcpy, b, b, 1, maxint), 1, true)
    assert.matches("bad argument #4 to 'cute.cuda.core.memcpy' (bytes [0, 0 + "
                   .. maxint .. ") outside", msg(core.memcpy, b, b, maxint), 1, true)
    assert.matches("bad argument #5 to 'cute.cuda.core.memcpy' (bytes [1, 1 + 0) "
                   .. "outside the buffer of 0 bytes)",
                   msg(core.memcpy, b, b, 0, 0, 1), 1, true)
    assert.matches("negative byte count", msg(core.memcpy, b, b, -1), 1, true)
    core.memcpy(b, b, 0)
  end)

  it("bounds check_copy's tensors by their buffers, in checked arithmetic", function()
    local b = core.buffer("f32", 0)
    local L = cute.layout "(2,4):(1,2)"
    assert.matches("bad argument #2 to 'cute.cuda.core.check_copy' (tensor (2,4):(1,2) at "
                   .. "offset 0 reaches [0, 7], outside the buffer of 0 elements)",
                   msg(core.check_copy, b, 0, L, b, 0, L), 1, true)
    assert.matches("tensor (2,4):(1,2) at offset " .. maxint
                   .. " reaches past 64-bit offsets",
                   msg(core.check_copy, b, maxint, L, b, 0, L), 1, true)
    assert.matches("(tensor (2,4):(-1,2) at offset 0 reaches [-1, 6], outside",
                   msg(core.check_copy, b, 0, cute.layout "(2,4):(-1,2)", b, 0,
                       L), 1, true)
    assert.matches("past 64-bit offsets", msg(core.check_copy, b, 0,
                   cute.layout("(3,2):(" .. (maxint // 2 + 1) .. ",1)"), b, 0, L),
                   1, true)
    assert.matches("dtypes differ",
                   msg(core.check_copy, b, 0, L, core.buffer("f64", 0), 0, L), 1, true)
  end)

  it("refuses a tensor offset that is not an integer", function()
    local b = core.buffer("f32", 0)
    for _, off in ipairs {1.5, "x", -0.5} do
      assert.matches("cute.cuda: tensor 1:0: offset must be an integer "
                     .. "(elements), got " .. tostring(off),
                     msg(cuda.tensor, b, cute.layout "1:0", off), 1, true)
    end
    -- 0.0 is the integer 0 (then the bounds check speaks)
    assert.matches("tensor 1:0 at offset 0 reaches [0, 0], outside",
                   msg(cuda.tensor, b, cute.layout "1:0", 0.0), 1, true)
  end)
end)
