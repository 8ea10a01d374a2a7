-- cute.cuda.gemm_sm80: the tiled tensor-core GEMM on the device library,
-- for run-time problem sizes.  Its layouts and the swizzle the algebra
-- picks; NVRTC compiles every configuration to PTX without local memory;
-- one compiled kernel runs problems of other sizes, residues included,
-- under the host emulation of spec/lua/gemm_emu.hpp (cp.async with
-- zero-fill, ldmatrix, mma.sync from the PTX ISA) against a float64
-- reference; #gpu: the same on the device.
local cute = require "cute"
local G = require "cute.cuda.gemm_sm80"

local here = debug.getinfo(1, "S").source:match("^@(.*)/[^/]*$") or "."
if here:sub(1, 1) ~= "/" then here = os.getenv("PWD") .. "/" .. here end
local devdir = here .. "/../../cuda/device"

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

-- The cases: configuration, layouts (M,K), (N,K), (M,N), dtypes.  Each
-- configuration is compiled once, for the first case that uses it; the
-- others run the same kernel on another problem (ragged ones included).
local small = { BM = 64, BN = 64, BK = 32, warps = { 2, 2 }, stages = 3 }
local cases = {
  { "default 128x256x64, 2x4 warps, 3 stages; row-major C",
    {}, "(128,256):(256,1)", "(256,256):(256,1)", "(128,256):(256,1)",
    { ab = "bf16", c = "f32" } },
  { "128x256x32, 2x4 warps, 4 stages; row-major C in bf16",
    { BK = 32, stages = 4 }, "(128,256):(256,1)", "(256,256):(256,1)",
    "(128,256):(256,1)", { ab = "bf16", c = "bf16" } },
  { "64x64x32, 2x2 warps, 3 stages; column-major C in bf16",
    small, "(128,160):(160,1)", "(128,160):(168,1)", "(128,128):(1,128)",
    { ab = "bf16", c = "bf16" } },
  { "the same kernel, M N K not tile multiples (ragged edges)",
    small, "(71,40):(40,1)", "(97,40):(48,1)", "(71,97):(97,1)",
    { ab = "bf16", c = "bf16" } },
  { "the same kernel, a problem smaller than one tile",
    small, "(5,8):(8,1)", "(3,8):(8,1)", "(5,3):(1,5)",
    { ab = "bf16", c = "bf16" } },
  { "64x128x64, 2x2 warps, 2 stages, f16; batched, ragged M",
    { BM = 64, BN = 128, BK = 64, warps = { 2, 2 }, stages = 2 },
    "(60,192,2):(192,1,11520)", "(128,192,2):(192,1,24576)",
    "(60,128,2):(128,1,7680)", { ab = "f16", c = "f16" } },
}

describe("gemm_sm80 layouts", function()
  it("lets the algebra choose the swizzle", function()
    local p32 = G.build({ BK = 32, stages = 4 })
    assert.equal("Sw<2,3,3>", p32.info.swizzle_A)
    assert.equal("Sw<2,3,3>", p32.info.swizzle_B)
    assert.equal("Sw<0,3,1>: 0+96", p32.info.tried_A[1])   -- no swizzle conflicts
    local p64 = G.build({})
    assert.equal("Sw<3,3,3>", p64.info.swizzle_A)
    assert.equal(3 * (128 + 256) * 64 * 2, p64.smem)
  end)

  it("follows a swizzle the script sets, and the tile sizes", function()
    local p = G.build({ swizzle = cute.swizzle(3, 3, 3), BK = 64, BM = 64, warps = { 1, 4 } })
    assert.equal("Sw<3,3,3>", p.info.swizzle_A)
    assert.truthy(p.source:find("/* Sw<3,3,3> o 0 o 4096:1 */", 1, true))
    assert.same({ 128, 1, 1 }, p.block)
  end)

  it("takes the problem at run time: extents, strides, widths", function()
    local args, e, w = G.arguments(cute.layout "(71,40):(40,1)", cute.layout "(97,40):(48,1)",
      cute.layout "(71,97):(1,71)")
    assert.same({ 71, 97, 40, 40, 48, 1, 71, 0, 0, 0, 1 }, args)
    assert.same({ M = 71, N = 97, K = 40, L = 1 }, e)
    assert.same({ a = 32, b = 32, c = 32 }, w)
    -- 2^31 offsets or more in one tensor: that tensor indexes in 64 bits
    local _, _, w64 = G.arguments(cute.layout "(65536,32768):(32768,1)",
      cute.layout "(64,32768):(32768,1)", cute.layout "(65536,64):(64,1)")
    assert.same({ a = 64, b = 32, c = 32 }, w64)
    local p = G.build({}, nil, w64)
    assert.truthy(p.source:find("long long lda, int ldb, int ldcm", 1, true))
  end)

  it("refuses what the kernel cannot run, saying why", function()
    local B, C = cute.layout "(256,64):(64,1)", cute.layout "(128,256):(256,1)"
    assert.has_error(function() G.arguments(cute.layout "(128,64):(1,128)", B, C) end,
      "cute.cuda.gemm_sm80: A must be K-major (stride 1 along K), got stride 128")
    assert.has_error(function() G.arguments(cute.layout "(128,60):(60,1)",
      cute.layout "(256,60):(60,1)", C) end,
      "cute.cuda.gemm_sm80: A: K = 60 and the row and batch strides (60, 0) must "
      .. "be multiples of 8 (16-byte cp.async vectors)")
    assert.has_error(function() G.arguments(cute.layout "((64,2),64):((64,8192),1)", B, C) end,
      "cute.cuda.gemm_sm80: A ((64,2),64):((64,8192),1): mode 0 is hierarchical "
      .. "((64,2):(64,8192)); this kernel takes flat modes (cute.cuda.gemm takes any layout)")
    assert.has_error(function() G.build({ BK = 16 }) end)
  end)

  it("refuses a set swizzle that splits the 16-byte chunks", function()
    for _, bad in ipairs { { 3, 0, 3 }, { 3, 2, 3 }, { 2, 1, 4 } } do
      local sw = cute.swizzle(table.unpack(bad))
      assert.has_error(function() G.build({ swizzle = sw }) end,
        ("cute.cuda.gemm_sm80: swizzle %s permutes elements inside the 16-byte chunks "
        .. "that cp.async and ldmatrix move whole: need M >= 3 for 2-byte "
        .. "elements (e.g. Sw<%d,3,%d>)"):format(tostring(sw), bad[1],
        math.max(bad[1], 3)))
    end
    for _, good in ipairs { { 3, 3, 3 }, { 2, 3, 3 }, { 0, 0, 3 }, { 2, 4, 2 } } do
      local p = G.build({ swizzle = cute.swizzle(table.unpack(good)) })
      assert.equal(tostring(cute.swizzle(table.unpack(good))), p.info.swizzle_A)
    end
  end)

  it("refuses more shared memory than a block may have, saying whose limit",
    function()
      -- 4 stages of (128 + 256) x 64 bf16 = 196608 bytes fit under 227 KB
      assert.equal(196608, G.build({ stages = 4 }).smem)
      local ok, msg = pcall(G.build, { stages = 5 })
      assert.is_false(ok)
      assert.matches("cute.cuda.gemm_sm80: 5 stages x 49152 bytes of shared memory per "
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

describe("gemm_sm80 compiles to PTX without local memory or warnings", function()
  local ok, core = pcall(require, "cute.cuda.core")
  local nvrtc = ok and pcall(core.nvrtc_version)
  local seen = {}
  for _, c in ipairs(cases) do
    local key = tostring(c[2]) .. c[6].ab .. c[6].c
    if not seen[key] then
      seen[key] = true
      it(c[1], function()
        if not nvrtc then pending("no NVRTC") return end
        local p = G.build(c[2], c[6])
        local bin = core.compile(p.source, { p.name }, "compute_90")
        assert.truthy(bin.image:find(".entry cute_gemm_sm80", 1, true))
        assert.falsy(bin.image:find("ld.local", 1, true))
        assert.falsy(bin.image:find("st.local", 1, true))
        assert.truthy(bin.image:find("mma.sync.aligned.m16n8k16", 1, true))
        assert.truthy(bin.image:find("cp.async.cg.shared.global", 1, true))
        assert.equal("", (bin.log:gsub("%s", "")))
      end)
    end
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
  auto a = get<TAB>([](double v) { return TAB((float)v); });
  auto b = get<TAB>([](double v) { return TAB((float)v); });
  size_t nc; if (scanf("%zu", &nc) != 1) return 2;
  std::vector<TC> c(nc);
  cute_emu_decode = DEC;
  cute_emu_ranges = {{(const unsigned char *)a.data(), a.size() * 2},
                     {(const unsigned char *)b.data(), b.size() * 2}};
  cute_emu_launch({GX, GY, 1}, THREADS, SMEM,
                  [&] { cute_gemm_sm80(a.data(), b.data(), c.data(), ARGS); });
  if (cute_emu_report()) return 1;
  for (auto x : c) printf("%.17g\n", (double)(float)x);
  return 0;
}
]]

local function sh(cmd) return os.execute(cmd) == true end
local cxx = os.getenv("CXX") or "c++"
local have_cxx = sh(cxx .. " --version > /dev/null 2>&1")
local dir = os.tmpname()
os.remove(dir)

local cpp = { f32 = "float", bf16 = "cute::bf16_t", f16 = "cute::half_t" }

-- Compiles the kernel of (cfg, dtypes) once, with a main that reads the
-- problem (args) at run time: returns run(grid, args, a, b, nc).
local exes = {}
local function emulator(cfg, dtypes)
  local key = tostring(cfg) .. dtypes.ab .. dtypes.c
  if exes[key] then return exes[key] end
  local p = G.build(cfg, dtypes)
  local subst = { TAB = cpp[dtypes.ab], TC = cpp[dtypes.c],
    DEC = "cute_" .. dtypes.ab .. "_to_f32", THREADS = p.block[1], SMEM = p.smem,
    GX = "(unsigned)atoi(getenv(\"GX\"))", GY = "(unsigned)atoi(getenv(\"GY\"))",
    ARGS = "ARG(0), ARG(1), ARG(2), ARG(3), ARG(4), ARG(5), ARG(6), ARG(7), ARG(8), ARG(9), ARG(10)" }
  local main = MAIN:gsub("[%u_]+", function(w) return subst[w] end)
  sh("mkdir -p '" .. dir .. "'")
  local n = 0
  for _ in pairs(exes) do n = n + 1 end
  local src, exe = ("%s/t%d.cpp"):format(dir, n), ("%s/t%d"):format(dir, n)
  local f = assert(io.open(src, "w"))
  f:write('#include "', here, '/gemm_emu.hpp"\n',
    '#define ARG(i) atoi(getenv("ARG" #i))\n', p.source, main)
  f:close()
  assert(sh(("%s -std=c++17 -O1 -pthread -I'%s' -o '%s' '%s'"):format(cxx, devdir, exe, src)),
    "host compile failed: " .. src)
  exes[key] = function(grid, args, a, b, nc)
    local input = dir .. "/in.txt"
    local g = assert(io.open(input, "w"))
    g:write(#a, "\n", table.concat(a, " "), "\n", #b, "\n", table.concat(b, " "), "\n", nc, "\n")
    g:close()
    local env = ("GX=%d GY=%d"):format(grid[1], grid[2])
    for i, v in ipairs(args) do env = env .. (" ARG%d=%d"):format(i - 1, v) end
    local out, got = io.popen(("%s '%s' < '%s' 2> '%s/err.txt'"):format(env, exe, input, dir)), {}
    for line in out:lines() do got[#got + 1] = tonumber(line) end
    if not out:close() then
      error("emulated kernel failed:\n" .. io.open(dir .. "/err.txt"):read("a"), 2)
    end
    return got
  end
  return exes[key]
end

describe("gemm_sm80 under the host emulation", function()
  teardown(function() os.execute("rm -rf '" .. dir .. "'") end)
  for i, c in ipairs(cases) do
    it(c[1], function()
      if not have_cxx then pending("no C++ compiler") return end
      local LA, LB, LC = cute.layout(c[3]), cute.layout(c[4]), cute.layout(c[5])
      local run = emulator(c[2], c[6])
      local args, e = G.arguments(LA, LB, LC)
      local p = G.build(c[2], c[6])
      local grid = { ((e.M + p.tile[1] - 1) // p.tile[1]) * ((e.N + p.tile[2] - 1) // p.tile[2]), e.L }
      local a, b = values(extent(LA), 10 * i), values(extent(LB), 10 * i + 1)
      assert_close(reference(LA, LB, LC, a, b), run(grid, args, a, b, extent(LC)),
        c[6].c, c[1])
    end)
  end
end)

describe("gemm_sm80 on the GPU #gpu", function()
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

  it("runs problem sizes it was not compiled for without compiling again", function()
    local cfg = small
    local function problem(M, N, K, seed)
      local LA = cute.layout({ M, K }, { K, 1 })
      local LB = cute.layout({ N, K }, { K, 1 })
      local LC = cute.layout({ M, N }, { N, 1 })
      local a, b = values(M * K, seed), values(N * K, seed + 1)
      local A = cuda.tensor(cuda.buffer("bf16", a), LA)
      local B = cuda.tensor(cuda.buffer("bf16", b), LB)
      local C = cuda.tensor(cuda.buffer("f32", M * N):random(3, 1000, 2000), LC)
      return A, B, C, reference(LA, LB, LC, a, b)
    end
    local A, B, C, ref = problem(64, 64, 32, 1)
    G.run(cfg, A, B, C)
    assert_close(ref, C.buffer:download(), "f32", "64x64x32")
    local before = cuda.stats().nvrtc_calls
    for _, mnk in ipairs { { 65, 63, 40 }, { 1, 1, 8 }, { 127, 129, 96 }, { 64, 200, 56 } } do
      A, B, C, ref = problem(mnk[1], mnk[2], mnk[3], mnk[1])
      G.run(cfg, A, B, C)
      assert_close(ref, C.buffer:download(), "f32", table.concat(mnk, "x"))
    end
    assert.equal(before, cuda.stats().nvrtc_calls)
  end)
end)
