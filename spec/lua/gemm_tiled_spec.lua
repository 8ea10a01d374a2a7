-- examples/gemm_tiled.lua: the tiled tensor-core GEMM.  Its layouts and
-- the swizzle the algebra picks; NVRTC compiles every configuration to PTX
-- without local memory; the kernel runs under the host emulation of
-- spec/lua/gemm_emu.hpp (cp.async, ldmatrix, mma.sync from the PTX ISA)
-- against a float64 reference; #gpu: on the device.
local cute = require "cute"

local here = debug.getinfo(1, "S").source:match("^@(.*)/[^/]*$") or "."
if here:sub(1, 1) ~= "/" then here = os.getenv("PWD") .. "/" .. here end
local root = here .. "/../.."
local G = dofile(root .. "/examples/gemm_tiled.lua")

-- Seeded multiples of 1/16 in [-2, 2]: exact in bf16/f16, exact sums in f32.
local function values(n, seed)
  local x, t = seed * 2654435761 + 77, {}
  for i = 1, n do
    x = x * 6364136223846793005 + 1442695040888963407
    t[i] = (((x >> 33) % 65) - 32) / 16
  end
  return t
end

local function extent(L)
  return cute.cosize(L)
end

-- C = A B over the layouts, float64, on all of C's buffer (rest zero).
local function reference(LA, LB, LC, a, b)
  local e = require("cute.gemm").extents(LA, LB, LC)
  local out = {}
  for i = 1, extent(LC) do out[i] = 0.0 end
  local batch = cute.rank(LA) == 3
  for l = 0, e.L - 1 do
    local function at(L, i, j) if batch then return L(i, j, l) end return L(i, j) end
    local arow = {}
    for m = 0, e.M - 1 do
      local r = {}
      for k = 0, e.K - 1 do r[k] = a[at(LA, m, k) + 1] end
      arow[m] = r
    end
    for n = 0, e.N - 1 do
      local bc = {}
      for k = 0, e.K - 1 do bc[k] = b[at(LB, n, k) + 1] end
      for m = 0, e.M - 1 do
        local r, s = arow[m], 0.0
        for k = 0, e.K - 1 do s = s + r[k] * bc[k] end
        out[at(LC, m, n) + 1] = s
      end
    end
  end
  return out
end

local tolerance = { f32 = 1e-6, bf16 = 2 ^ -8, f16 = 2 ^ -11 }

local function assert_close(ref, got, dtype, what)
  assert.equal(#ref, #got, what .. ": element count")
  for i = 1, #ref do
    if not (math.abs(got[i] - ref[i]) <= tolerance[dtype] * math.max(1, math.abs(ref[i]))) then
      error(("%s: C[%d] = %.9g, reference %.9g"):format(what, i - 1, got[i], ref[i]), 2)
    end
  end
end

-- The cases: configuration, layouts (M,K), (N,K), (M,N), dtypes.
local cases = {
  { "default 128x256x64, 2x4 warps, 3 stages; row-major C",
    {}, "(128,256):(256,1)", "(256,256):(256,1)", "(128,256):(256,1)",
    { ab = "bf16", c = "f32" } },
  { "128x256x32, 2x4 warps, 4 stages; row-major C in bf16",
    { BK = 32, stages = 4 }, "(128,256):(256,1)", "(256,256):(256,1)",
    "(128,256):(256,1)", { ab = "bf16", c = "bf16" } },
  { "64x64x32, 2x2 warps, 3 stages; column-major C in bf16",
    { BM = 64, BN = 64, BK = 32, warps = { 2, 2 }, stages = 3 },
    "(128,160):(160,1)", "(128,160):(168,1)", "(128,128):(1,128)",
    { ab = "bf16", c = "bf16" } },
  { "64x128x64, 2x2 warps, 2 stages, f16; batched",
    { BM = 64, BN = 128, BK = 64, warps = { 2, 2 }, stages = 2 },
    "(64,192,2):(192,1,12288)", "(128,192,2):(192,1,24576)",
    "(64,128,2):(128,1,8192)", { ab = "f16", c = "f16" } },
  { "128x64x32, 4x1 warps, 5 stages; hierarchical M (GETT)",
    { BM = 128, BN = 64, BK = 32, warps = { 4, 1 }, stages = 5 },
    "((64,4),224):((224,14336),1)", "(64,224):(224,1)",
    "((64,4),64):((64,4096),1)", { ab = "bf16", c = "f32" } },
}

describe("gemm_tiled layouts", function()
  it("lets the algebra choose the swizzle", function()
    local p32 = G.build({ BK = 32, stages = 4 }, cute.layout "(128,64):(64,1)", cute.layout "(256,64):(64,1)",
      cute.layout "(128,256):(256,1)")
    assert.equal("Sw<2,3,3>", p32.info.swizzle_A)
    assert.equal("Sw<2,3,3>", p32.info.swizzle_B)
    assert.equal("Sw<0,3,1>: 0+96", p32.info.tried_A[1])   -- no swizzle conflicts
    local p64 = G.build({}, cute.layout "(128,64):(64,1)",
      cute.layout "(256,64):(64,1)", cute.layout "(128,256):(256,1)")
    assert.equal("Sw<3,3,3>", p64.info.swizzle_A)
    assert.equal(3 * (128 + 256) * 64 * 2, p64.smem)
  end)

  it("follows a swizzle the script sets, and the tile sizes", function()
    local p = G.build({ swizzle = cute.swizzle(3, 3, 3), BK = 64, BM = 64, warps = { 1, 4 } },
      cute.layout "(64,64):(64,1)", cute.layout "(256,64):(64,1)", cute.layout "(64,256):(256,1)")
    assert.equal("Sw<3,3,3>", p.info.swizzle_A)
    assert.truthy(p.source:find("/* Sw<3,3,3> o 0 o 4096:1 */", 1, true))
    assert.same({ 1, 1, 1 }, p.grid)
    assert.same({ 128, 1, 1 }, p.block)
  end)

  it("refuses what the kernel cannot run, saying why", function()
    local B, C = cute.layout "(256,64):(64,1)", cute.layout "(128,256):(256,1)"
    assert.has_error(function() G.build({}, cute.layout "(128,64):(1,128)", B, C) end,
      "gemm_tiled: the 8-element copy vector of (128,64):(1,128) is not contiguous "
      .. "(8:128): A and B must be K-major")
    assert.has_error(function() G.build({}, cute.layout "(100,64):(64,1)", B,
      cute.layout "(100,256):(256,1)") end,
      "gemm_tiled: M=100 N=256 K=64 must be multiples of the tile 128x256x64")
    assert.has_error(function() G.build({ BK = 16 }, cute.layout "(128,64):(64,1)", B, C) end)
    assert.has_error(function() G.build({}, cute.layout "(128,64):(68,1)", B, C) end,
      "gemm_tiled: stride 68 of (128,64):(68,1) breaks the 16-byte alignment of the copies")
  end)

  it("refuses a set swizzle that splits the 16-byte chunks", function()
    local A, B, C = cute.layout "(128,64):(64,1)", cute.layout "(256,64):(64,1)",
      cute.layout "(128,256):(256,1)"
    for _, bad in ipairs { { 3, 0, 3 }, { 3, 2, 3 }, { 2, 1, 4 } } do
      local sw = cute.swizzle(table.unpack(bad))
      assert.has_error(function() G.build({ swizzle = sw }, A, B, C) end,
        ("gemm_tiled: swizzle %s permutes elements inside the 16-byte chunks "
        .. "that cp.async and ldmatrix move whole: need M >= 3 for 2-byte "
        .. "elements (e.g. Sw<%d,3,%d>)"):format(tostring(sw), bad[1],
        math.max(bad[1], 3)))
    end
    for _, good in ipairs { { 3, 3, 3 }, { 2, 3, 3 }, { 0, 0, 3 }, { 2, 4, 2 } } do
      local p = G.build({ swizzle = cute.swizzle(table.unpack(good)) }, A, B, C)
      assert.equal(tostring(cute.swizzle(table.unpack(good))), p.info.swizzle_A)
    end
  end)

  it("refuses more shared memory than a block may have, saying whose limit",
    function()
      local A, B, C = cute.layout "(128,64):(64,1)", cute.layout "(256,64):(64,1)",
        cute.layout "(128,256):(256,1)"
      -- 4 stages of (128 + 256) x 64 bf16 = 196608 bytes fit under 227 KB
      assert.equal(196608, G.build({ stages = 4 }, A, B, C).smem)
      local ok, msg = pcall(G.build, { stages = 5 }, A, B, C)
      assert.is_false(ok)
      assert.matches("gemm_tiled: 5 stages x 49152 bytes of shared memory per "
        .. "stage = 245760 bytes exceed ", msg, nil, true)
      local cok, core = pcall(require, "cute.cuda.core")
      if not (cok and pcall(core.device)) then
        assert.matches("exceed 232448 bytes, 227 KB, sm_90's opt-in maximum "
          .. "(no device to ask)", msg, nil, true)
      else
        assert.matches("the opt-in maximum of ", msg, nil, true)
      end
    end)
end)

describe("gemm_tiled compiles to PTX without local memory", function()
  local ok, core = pcall(require, "cute.cuda.core")
  local nvrtc = ok and pcall(core.nvrtc_version)
  for _, c in ipairs(cases) do
    it(c[1], function()
      if not nvrtc then pending("no NVRTC") return end
      local p = G.build(c[2], cute.layout(c[3]), cute.layout(c[4]), cute.layout(c[5]), c[6])
      local bin = core.compile(p.source, { p.name }, "compute_90")
      assert.truthy(bin.image:find(".entry cute_gemm_tiled", 1, true))
      assert.falsy(bin.image:find("ld.local", 1, true))
      assert.falsy(bin.image:find("st.local", 1, true))
      assert.truthy(bin.image:find("mma.sync.aligned.m16n8k16", 1, true))
    end)
  end
end)

-- ------------------------------------------------------ host emulation --
local MAIN = [[
#include <cstdlib>
template <class T, class F> static std::vector<T> get(F conv) {
  size_t n; if (scanf("%zu", &n) != 1) exit(2);
  std::vector<T> t(n);
  for (auto &x : t) { double v; if (scanf("%lf", &v) == 1) x = conv(v); }
  return t;
}
int main() {
  auto a = get<unsigned short>([](double v) { return ENC((float)v); });
  auto b = get<unsigned short>([](double v) { return ENC((float)v); });
  size_t nc; if (scanf("%zu", &nc) != 1) return 2;
  std::vector<TC> c(nc);
  cute_emu_decode = DEC;
  cute_emu_ranges = {{(const unsigned char *)a.data(), a.size() * 2},
                     {(const unsigned char *)b.data(), b.size() * 2}};
  cute_emu_launch({GX, GY, 1}, THREADS, SMEM,
                  [&] { cute_gemm_tiled(a.data(), b.data(), c.data()); });
  if (cute_emu_report()) return 1;
  for (auto x : c) printf("%.17g\n", (double)(FROM));
  return 0;
}
]]

local function sh(cmd) return os.execute(cmd) == true end
local cxx = os.getenv("CXX") or "c++"
local have_cxx = sh(cxx .. " --version > /dev/null 2>&1")
local dir = os.tmpname()
os.remove(dir)

local function emulate(p, dtypes, a, b, nc)
  local tc = dtypes.c
  local subst = { ENC = "cute_f32_to_" .. dtypes.ab, DEC = "cute_" .. dtypes.ab .. "_to_f32",
    TC = tc == "f32" and "float" or "unsigned short",
    FROM = tc == "f32" and "x" or ("cute_%s_to_f32(x)"):format(tc),
    GX = p.grid[1], GY = p.grid[2], THREADS = p.block[1], SMEM = p.smem }
  local main = MAIN:gsub("[%u_]+", function(w) return subst[w] end)
  sh("mkdir -p '" .. dir .. "'")
  local src, exe, input = dir .. "/t.cpp", dir .. "/t", dir .. "/in.txt"
  local f = assert(io.open(src, "w"))
  f:write('#include "', here, '/gemm_emu.hpp"\n', p.source, main)
  f:close()
  f = assert(io.open(input, "w"))
  f:write(#a, "\n", table.concat(a, " "), "\n", #b, "\n", table.concat(b, " "), "\n", nc, "\n")
  f:close()
  assert(sh(("%s -std=c++17 -O1 -pthread -o '%s' '%s'"):format(cxx, exe, src)),
    "host compile failed: " .. src)
  local out, got = io.popen(("'%s' < '%s' 2> '%s/err.txt'"):format(exe, input, dir)), {}
  for line in out:lines() do got[#got + 1] = tonumber(line) end
  local ok = out:close()
  if not ok then
    local e = io.open(dir .. "/err.txt"):read("a")
    error("emulated kernel failed:\n" .. e, 2)
  end
  return got
end

describe("gemm_tiled under the host emulation", function()
  teardown(function() os.execute("rm -rf '" .. dir .. "'") end)
  for i, c in ipairs(cases) do
    it(c[1], function()
      if not have_cxx then pending("no C++ compiler") return end
      local LA, LB, LC = cute.layout(c[3]), cute.layout(c[4]), cute.layout(c[5])
      local p = G.build(c[2], LA, LB, LC, c[6])
      local a, b = values(extent(LA), 10 * i), values(extent(LB), 10 * i + 1)
      assert_close(reference(LA, LB, LC, a, b), emulate(p, c[6], a, b, extent(LC)),
        c[6].c, c[1])
    end)
  end
end)

describe("gemm_tiled on the GPU #gpu", function()
  local ok, cuda = pcall(require, "cute.cuda")
  local have, why = false, "cute.cuda not built"
  if ok then have, why = cuda.available() end
  if not have then
    pending("no GPU: " .. tostring(why))
    return
  end
  for i, c in ipairs(cases) do
    it(c[1], function()
      local LA, LB, LC = cute.layout(c[3]), cute.layout(c[4]), cute.layout(c[5])
      local a, b = values(extent(LA), 10 * i), values(extent(LB), 10 * i + 1)
      local A = cuda.tensor(cuda.buffer(c[6].ab, a), LA)
      local B = cuda.tensor(cuda.buffer(c[6].ab, b), LB)
      local C = cuda.tensor(cuda.buffer(c[6].c, extent(LC)), LC)
      G.run(c[2], A, B, C)
      assert_close(reference(LA, LB, LC, a, b), C.buffer:download(), c[6].c, c[1])
    end)
  end
end)
