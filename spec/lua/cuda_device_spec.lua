-- The device library (cuda/device/cute/*.h): embedded in the build and
-- handed to NVRTC by name, so kernels #include <cute/device.h> with no
-- include path; the same headers compile for the host, where the one
-- f32 <-> bf16/f16 rounding is checked on every 16-bit pattern.
local here = debug.getinfo(1, "S").source:match("^@(.*)/[^/]*$") or "."
if here:sub(1, 1) ~= "/" then here = os.getenv("PWD") .. "/" .. here end
local devdir = here .. "/../../cuda/device"

local ok_core, core = pcall(require, "cute.cuda.core")
local nvrtc = ok_core and pcall(core.nvrtc_version)

-- Every header, and a kernel touching each concept.
local KERNEL = [[
#include <cute/device.h>
extern "C" __global__ void __launch_bounds__(128)
probe(const cute::bf16_t *x, cute::half_t *h, float *y, int M, int K) {
  CUTE_SMEM(smem);
  cute::dyn_layout<2> L{{M, K}, {K, 1}};
  auto t = cute::make_tensor(x, L);
  auto g = cute::local_tile<64, 32>(t, {(int)blockIdx.x, 0});
  auto c = cute::local_tile<64, 32>(cute::make_identity(t), {(int)blockIdx.x, 0});
  auto p = cute::local_partition<16, 4>(g, {(int)threadIdx.x / 4, (int)threadIdx.x % 4});
  auto q = cute::local_partition<16, 4>(c, {(int)threadIdx.x / 4, (int)threadIdx.x % 4});
  float s = -INFINITY;
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 8; ++j)
      if (cute::elem_less(q(i, j), L.extents())) s = fmaxf(s, (float)p(i, j));
  s = cute::block_reduce<128>(s, cute::max_op{}, (float *)smem);
  unsigned a[4] = {0, 0, 0, 0}, b[2] = {0, 0}, r[4];
  float d[4] = {s, 0.f, 0.f, 0.f};
  const unsigned sa = cute::smem_u32(smem) + 512;
  cute::cp_async_zfill<16>(sa + 16 * threadIdx.x, x + 8 * threadIdx.x, threadIdx.x < 64);
  cute::cp_async_commit();
  cute::cp_async_wait<0>();
  __syncthreads();
  cute::ldmatrix_x4(r, sa);
  cute::mma_16x8x16_f32bf16(d, r, b);
  cute::mma_16x8x16_f32f16(d, a, b);
  cute::mma_16x8x8_f32tf32(d, a, b);
  double e[2] = {0, 0}, f[1] = {1}, k[1] = {2};
  cute::mma_8x8x4_f64(e, f, k);
  y[threadIdx.x] = d[0] + d[3] + (float)e[1] + (float)cute::bf16_t(1.5f);
  h[threadIdx.x] = cute::half_t(d[1]);
}
]]

describe("device library", function()
  it("compiles with every header, without warnings, from the embedded copy", function()
    if not nvrtc then pending("no NVRTC") return end
    local bin = core.compile(KERNEL, { "probe" }, "compute_90")
    assert.truthy(bin.image:find("mma.sync.aligned.m16n8k16.row.col.f32.bf16", 1, true))
    assert.truthy(bin.image:find("mma.sync.aligned.m8n8k4.row.col.f64", 1, true))
    assert.truthy(bin.image:find("ldmatrix.sync.aligned.x4.m8n8", 1, true))
    assert.truthy(bin.image:find("cp.async.cg.shared.global", 1, true))
    assert.equal("", (bin.log:gsub("%s", "")))
  end)

  it("lists its headers", function()
    if not ok_core then pending("cute.cuda.core not built") return end
    local names = core.device_headers()
    assert.truthy(names["cute/device.h"])
    assert.truthy(names["cute/convert.h"]:find("cute_f32_to_bf16", 1, true))
    for name, text in pairs(names) do
      local f = assert(io.open(devdir .. "/" .. name))
      assert.equal(f:read("a"), text, name)
      f:close()
    end
  end)

  -- Host C++: the rounding against the exact value (doubles), for every
  -- 16-bit pattern (round trip) and for the float midpoints between
  -- neighbours (ties to even).
  local CHECK = [[
#include <cute/device.h>
#include <cstdio>
#include <cmath>
static double exact16(unsigned short h, bool bf) { return bf ? cute_bf16_to_f32(h) : cute_f16_to_f32(h); }
static unsigned short round16(float f, bool bf) { return bf ? cute_f32_to_bf16(f) : cute_f32_to_f16(f); }
int main() {
  int bad = 0;
  for (int bf = 0; bf < 2; ++bf)
    for (unsigned h = 0; h < 65536; ++h) {
      double v = exact16((unsigned short)h, bf);
      if (std::isnan(v)) { bad += !std::isnan(exact16(round16((float)v, bf), bf)); continue; }
      bad += round16((float)v, bf) != h;
      unsigned short n = (unsigned short)(h + 1);
      double w = exact16(n, bf);
      if ((h & 0x7fffu) >= (bf ? 0x7f7fu : 0x7bffu) || std::isnan(w)) continue;
      float mid = (float)((v + w) / 2);      // exact in f32
      unsigned short even = (h & 1u) ? n : (unsigned short)h;
      if ((double)mid == (v + w) / 2) bad += round16(mid, bf) != even;
      float above = std::nextafter(mid, (float)w), below = std::nextafter(mid, (float)v);
      bad += round16(above, bf) != n || round16(below, bf) != h;
    }
  cute::bf16_t b(3.0f); cute::half_t x(0.5f);
  bad += (float)b != 3.0f || (float)x != 0.5f || cute::pack_bf16x2(1.f, 2.f) != 0x40003f80u;
  std::printf("%d\n", bad);
  return bad != 0;
}
]]
  it("has a device type of each dtype's size (cuda/'s one dtype table)", function()
    local cxx = os.getenv("CXX") or "c++"
    if not ok_core or os.execute(cxx .. " --version > /dev/null 2>&1") ~= true then
      pending("no C++ compiler or cute.cuda.core") return
    end
    local src = { "#define CUTE_HOST_EMULATION 1", "#define CUTE_DI static inline",
      "#include <cute/device.h>" }
    local n = 0
    for name, d in pairs(core.dtypes) do
      n = n + 1
      src[#src + 1] = ("static_assert(sizeof(%s) == %d && sizeof(%s) == %d, \"%s\");")
        :format(d.device, d.size, d.ctype, d.size, name)
    end
    assert.equal(17, n)   -- 13 buffer types (f16 .. u64, tf32) and s8 .. s64
    local base = os.tmpname()
    os.remove(base)
    local path = base .. ".cpp"
    local f = assert(io.open(path, "w"))
    f:write(table.concat(src, "\n"), "\n")
    f:close()
    local ok = os.execute(("%s -std=c++17 -fsyntax-only -I'%s' '%s'"):format(cxx, devdir, path))
    os.remove(path)
    assert.is_true(ok == true)
  end)

  it("rounds f32 to bf16 and f16 to nearest even on the host", function()
    local cxx = os.getenv("CXX") or "c++"
    if os.execute(cxx .. " --version > /dev/null 2>&1") ~= true then
      pending("no C++ compiler") return
    end
    local dir = os.tmpname()
    os.remove(dir)
    os.execute("mkdir -p '" .. dir .. "'")
    local f = assert(io.open(dir .. "/t.cpp", "w"))
    f:write("#define CUTE_HOST_EMULATION 1\n#define CUTE_DI static inline\n", CHECK)
    f:close()
    local built = os.execute(("%s -std=c++17 -O1 -I'%s' -o '%s/t' '%s/t.cpp'")
      :format(cxx, devdir, dir, dir))
    assert.is_true(built == true, "host compile of the device library failed")
    local p = io.popen("'" .. dir .. "/t'")
    local out = p:read("a")
    p:close()
    os.execute("rm -rf '" .. dir .. "'")
    assert.equal("0\n", out)
  end)
end)

-- The kernels of cute.cuda.kernels (examples/copy_transpose.lua,
-- examples/softmax.lua) compile to PTX without a GPU, with no warnings and
-- no local memory, for the configurations the bench runs; M, N and the
-- row count are arguments, so the ragged transpose is the same source.
describe("cute.cuda.kernels", function()
  local cute = require "cute"
  local ok_k, K = pcall(require, "cute.cuda.kernels")
  local function T(dtype, L, ptr)
    return { dtype = dtype, layout = cute.layout(L), ptr = function() return ptr or 0 end }
  end
  local plans = ok_k and {
    copy = K.plan.copy(T("f32", "268435456:1"), T("f32", "268435456:1")),
    copy_table2 = K.plan.copy(T("f32", "(8,(4,4)):(4,(1,32))"), T("f32", "(8,16):(16,1)")),
    transpose = K.plan.transpose(T("f32", "(16384,16384):(1,16384)"),
      T("f32", "(16384,16384):(16384,1)")),
    transpose_ragged = K.plan.transpose(T("f32", "(16377,8197):(1,16377)"),
      T("f32", "(16377,8197):(8197,1)")),
    softmax4096 = K.plan.softmax(T("bf16", "(32768,4096):(4096,1)"), T("bf16", "(32768,4096):(4096,1)")),
    softmax16384 = K.plan.softmax(T("bf16", "(8192,16384):(16384,1)"),
      T("bf16", "(8192,16384):(16384,1)")),
  } or {}

  it("plans from layouts", function()
    if not ok_k then pending("cute.cuda not built") return end
    assert.equal(4, plans.copy.vector)             -- 16 bytes of f32
    assert.equal(4, plans.copy_table2.vector)      -- in the order of dst: 4 in common
    assert.equal("Sw<5,0,6>", plans.transpose.swizzle)
    assert.equal(plans.transpose.source, plans.transpose_ragged.source)
    assert.same({ 256, 129, 1 }, plans.transpose_ragged.grid)
    assert.same({ 64, 16, 1 }, plans.transpose_ragged.block)
    local t32 = K.plan.transpose(T("f32", "(64,64):(1,64)"), T("f32", "(64,64):(64,1)"),
      { tile = 32, rows = 8 })
    assert.equal("Sw<5,0,5>", t32.swizzle)
    assert.truthy(t32.source:find("/* Sw<5,0,5> o 0 o (32,32):(32,1) */", 1, true))
    assert.equal(8, plans.softmax4096.vector)
    assert.same({ 128, 1, 1 }, plans.softmax4096.block)
    assert.equal("(128,4):(8,1024)", plans.softmax4096.row)
    assert.has_error(function()
      K.plan.transpose(T("f32", "(64,64):(64,1)"), T("f32", "(64,64):(64,1)"))
    end, "cute.cuda.kernels.transpose: A must be column-major and B row-major (got "
      .. "(64,64):(64,1), (64,64):(64,1))")
  end)

  for _, name in ipairs { "copy", "copy_table2", "transpose", "softmax4096", "softmax16384" } do
    it("compiles " .. name .. " to PTX", function()
      if not nvrtc or not ok_k then pending("no NVRTC") return end
      local p = plans[name]
      local bin = core.compile(p.source, { p.name }, "compute_90")
      assert.truthy(bin.image:find(".entry " .. p.name, 1, true))
      assert.falsy(bin.image:find("ld.local", 1, true))
      assert.equal("", (bin.log:gsub("%s", "")))
    end)
  end
end)

-- Coordinate layouts (strides a@i) compile to functions returning
-- cute::coord, equal to the algebra's value at every index.
describe("codegen of coordinate layouts", function()
  it("agrees with the algebra", function()
    local cxx = os.getenv("CXX") or "c++"
    if not ok_core or os.execute(cxx .. " --version > /dev/null 2>&1") ~= true then
      pending("no C++ compiler or cute.cuda.core") return
    end
    local cute = require "cute"
    local tv = require "cute.tv"
    local tiler, thr_val = tv.make_layout_tv(cute.layout_right { 32, 8 }, cute.layout { 1, 8 })
    local Z = cute.zipped_divide(cute.make_identity_layout { 128, 64 }, tiler)
    local cases = { cute.make_identity_layout { 4, 8 }, cute.make_identity_layout { 3, 5, 2 },
      cute.composition(Z:mode(0), thr_val), Z:mode(1), cute.layout "((2,3),4):((1@1,2@0),3@1)" }
    local src, want = { "#include <cstdio>\n#define CUTE_DI static inline\n", core.prelude }, {}
    local body = {}
    for i, L in ipairs(cases) do
      src[#src + 1] = core.codegen("L" .. i, L)
      body[#body + 1] = ("for (unsigned i = 0; i < %d; ++i) { auto c = L%d(i); "
        .. "for (int k = 0; k < (int)(sizeof c.v / sizeof c.v[0]); ++k) printf(\"%%d \", c[k]); "
        .. "printf(\"\\n\"); }"):format(cute.size(L), i)
      for j = 0, cute.size(L) - 1 do
        local c = L(j)
        want[#want + 1] = table.concat(c, " ") .. " "
      end
    end
    src[#src + 1] = "int main() {\n" .. table.concat(body, "\n") .. "\nreturn 0; }\n"
    local dir = os.tmpname()
    os.remove(dir)
    os.execute("mkdir -p '" .. dir .. "'")
    local f = assert(io.open(dir .. "/c.cpp", "w"))
    f:write(table.concat(src, "\n"))
    f:close()
    assert.is_true(os.execute(("%s -std=c++17 -I'%s' -o '%s/c' '%s/c.cpp'")
      :format(cxx, devdir, dir, dir)) == true)
    local p = io.popen("'" .. dir .. "/c'")
    local got = {}
    for line in p:lines() do got[#got + 1] = line end
    p:close()
    os.execute("rm -rf '" .. dir .. "'")
    assert.same(want, got)
  end)
end)
