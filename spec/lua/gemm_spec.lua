-- cute.cuda.gemm, the paper's generic GEMM (2.6.2), on every row of its
-- Table 3, against a float64 CPU reference on seeded data.
--
-- Three ways of running each row:
--   * NVRTC compiles the generated kernel to PTX (no GPU needed: CI);
--   * the generated kernel runs on the host, compiled by the C++ compiler
--     with a few lines standing in for CUDA (no GPU needed: CI);
--   * #gpu: cute.cuda tensors on the device (pending without a driver).
--
-- Data are multiples of 1/16 in [-2, 2]: exact in bf16 and f16, and every
-- partial sum of these sizes is exact in f32, so the reference is exact
-- and the tolerance only covers the rounding of the stored C.
local cute = require "cute"
local core = require "cute.core"
local gemm = require "cute.gemm"

local here = debug.getinfo(1, "S").source:match("^@(.*)/[^/]*$") or "."
if here:sub(1, 1) ~= "/" then here = os.getenv("PWD") .. "/" .. here end
local devdir = here .. "/../../cuda/device"

local have_cuda, cuda = pcall(require, "cute.cuda")

-- The rows of Table 3 (sizes chosen small, odd, and not multiples of the
-- kernel's 32 x 8 thread block).  The second GETT row is printed with its
-- strides in (K, M) order, ((W,X),1) for shape (M,(K1,K2)), which is not
-- congruent; it is read here as the congruent (M,(K1,K2)):(1,(W,X)).
local rows = {
  { "NT GEMM", "(37,20):(1,40)", "(24,20):(1,29)", "(37,24):(1,41)" },
  { "TN GEMM", "(37,20):(23,1)", "(24,20):(21,1)", "(37,24):(1,37)" },
  { "NTT GEMM", "(24,20):(1,24)", "(37,20):(1,37)", "(24,37):(1,24)" },
  { "BLIS GEMM", "(37,20):(3,113)", "(24,20):(41,2)", "(37,24):(50,2)" },
  { "GETT ((M1,M2),K)", "((8,5),20):((1,160),8)", "(24,20):(20,1)",
    "((8,5),24):((1,192),8)" },
  { "GETT (M,(K1,K2))", "(37,(4,5)):(1,(37,148))", "(24,(4,5)):(1,(24,96))",
    "(37,24):(1,37)" },
  { "batched GEMM", "(37,20,3):(1,37,740)", "(24,20,3):(20,1,480)",
    "(37,24,3):(24,1,888)" },
  -- CONV through im2col (3-D, stride 1, no padding): filters W[k][c][t][r][s]
  -- (5,(3,2,2,2)), activations X[n][c][d][h][w] (2,3,3,4,4) read as the
  -- overlapping ((N,Z,P,Q),(C,T,R,S)) (offset of x at (z+t, p+r, q+s)),
  -- output O[n][k][z][p][q].
  { "CONV (im2col)", "(5,(3,2,2,2)):(24,(8,4,2,1))",
    "((2,2,3,3),(3,2,2,2)):((144,16,4,1),(48,16,4,1))",
    "(5,(2,2,3,3)):(18,(90,9,3,1))" },
}

-- Seeded values k/16, k in [-32, 32] (a 64-bit LCG, reproducible).
local function values(n, seed)
  local x, t = seed * 2654435761 + 12345, {}
  for i = 1, n do
    x = (x * 6364136223846793005 + 1442695040888963407)
    t[i] = (((x >> 33) % 65) - 32) / 16
  end
  return t
end

local function extent(L)
  local n = 0
  for i = 0, cute.size(L) - 1 do n = math.max(n, L(i)) end
  return n + 1
end

-- C' = alpha * A B + beta * C in float64 over whole buffers.
local function reference(LA, LB, LC, a, b, c, alpha, beta)
  local e = gemm.extents(LA, LB, LC)
  local batch = cute.rank(LA) == 3
  local out = {}
  for i = 1, #c do out[i] = c[i] end
  for l = 0, e.L - 1 do
    local function at(L, i, j) if batch then return L(i, j, l) end return L(i, j) end
    for n = 0, e.N - 1 do
      local bo = {}
      for k = 0, e.K - 1 do bo[k] = b[at(LB, n, k) + 1] end
      for m = 0, e.M - 1 do
        local s = 0.0
        for k = 0, e.K - 1 do s = s + a[at(LA, m, k) + 1] * bo[k] end
        local ci = at(LC, m, n) + 1
        out[ci] = alpha * s + beta * c[ci]
      end
    end
  end
  return out
end

local tolerance = { f64 = 1e-12, f32 = 1e-6, bf16 = 2 ^ -8, f16 = 2 ^ -11 }

local function assert_close(ref, got, dtype, what)
  local tol = tolerance[dtype]
  assert.equal(#ref, #got, what .. ": element count")
  for i = 1, #ref do
    if math.abs(got[i] - ref[i]) > tol * math.max(1, math.abs(ref[i])) then
      error(("%s: C[%d] = %.9g, reference %.9g"):format(what, i - 1, got[i],
        ref[i]), 2)
    end
  end
end

-- A problem: layouts, dtypes and seeded buffers for one row.
local function problem(row, dtypes, seed)
  local LA, LB, LC = cute.layout(row[2]), cute.layout(row[3]), cute.layout(row[4])
  return { LA = LA, LB = LB, LC = LC, dtypes = dtypes,
    a = values(extent(LA), seed), b = values(extent(LB), seed + 1),
    c = values(extent(LC), seed + 2) }
end

local variants = {
  { a = "f32", b = "f32", c = "f32" },
  { a = "bf16", b = "bf16", c = "f32" },
  { a = "f16", b = "f16", c = "f16" },
  { a = "f64", b = "f64", c = "f64" },
  { a = "bf16", b = "f16", c = "bf16" },
}

-- ------------------------------------------------------ host emulation --
local SHIM = [[
#define CUTE_DI static inline
#define __global__
#define __launch_bounds__(n)
struct cute_dim3 { unsigned x, y, z; };
static cute_dim3 threadIdx, blockIdx, gridDim;
]]

local ctype = { f16 = "unsigned short", bf16 = "unsigned short", f32 = "float",
  f64 = "double" }

local function host_io(t)
  if t == "bf16" or t == "f16" then
    return ("cute_f32_to_%s((float)v)"):format(t), ("cute_%s_to_f32(x)"):format(t)
  end
  return ("(%s)v"):format(ctype[t]), "x"
end

local MAIN = [[
#include <cstdio>
#include <vector>
template <class T, class F> static std::vector<T> get(F conv) {
  size_t n; if (scanf("%zu", &n) != 1) return {};
  std::vector<T> t(n);
  for (auto &x : t) { double v; if (scanf("%lf", &v) == 1) x = conv(v); }
  return t;
}
int main() {
  auto a = get<TA>([](double v) { return TO_A; });
  auto b = get<TB>([](double v) { return TO_B; });
  auto c = get<TC>([](double v) { return TO_C; });
  double alpha, beta;
  if (scanf("%lf %lf", &alpha, &beta) != 2) return 1;
  gridDim = {GX, GY, GZ};
  for (blockIdx.z = 0; blockIdx.z < GZ; blockIdx.z++)
  for (blockIdx.y = 0; blockIdx.y < GY; blockIdx.y++)
  for (blockIdx.x = 0; blockIdx.x < GX; blockIdx.x++)
  for (threadIdx.y = 0; threadIdx.y < 8; threadIdx.y++)
  for (threadIdx.x = 0; threadIdx.x < 32; threadIdx.x++)
    cute_gemm(a.data(), b.data(), c.data(), alpha, beta);
  for (auto x : c) printf("%.17g\n", (double)(FROM_C));
  return 0;
}
]]

local function sh(cmd) return os.execute(cmd) == true end

local dir = os.tmpname()
os.remove(dir)
local cxx = os.getenv("CXX") or "c++"
local have_cxx = sh(cxx .. " --version > /dev/null 2>&1")

local function host_run(p, alpha, beta)
  local plan = gemm.plan(p.LA, p.LB, p.LC, p.dtypes)
  local d = p.dtypes
  local to_a, _ = host_io(d.a)
  local to_b, _ = host_io(d.b)
  local to_c, from_c = host_io(d.c)
  local subst = { TA = ctype[d.a], TB = ctype[d.b], TC = ctype[d.c],
    TO_A = to_a, TO_B = to_b, TO_C = to_c, FROM_C = from_c,
    GX = plan.grid[1], GY = plan.grid[2], GZ = plan.grid[3] }
  local main = MAIN:gsub("[%u_]+", function(w) return subst[w] end)
  sh("mkdir -p '" .. dir .. "'")
  local src, exe, input = dir .. "/g.cpp", dir .. "/g", dir .. "/in.txt"
  local f = assert(io.open(src, "w"))
  f:write(SHIM, plan.source, main)
  f:close()
  f = assert(io.open(input, "w"))
  for _, t in ipairs { p.a, p.b, p.c } do
    f:write(#t, "\n", table.concat(t, " "), "\n")
  end
  f:write(alpha, " ", beta, "\n")
  f:close()
  assert(sh(("%s -std=c++17 -O1 -I'%s' -o '%s' '%s'"):format(cxx, devdir, exe, src)),
    "host compile of the generated kernel failed: " .. src)
  local out, got = io.popen(("'%s' < '%s'"):format(exe, input)), {}
  for line in out:lines() do got[#got + 1] = tonumber(line) end
  out:close()
  return got
end

-- ---------------------------------------------------------------- specs --
describe("cute.gemm planning", function()
  it("checks the paper's preconditions", function()
    local A, B = cute.layout "(8,4):(1,8)", cute.layout "(6,4):(1,6)"
    assert.has_error(function() gemm.plan(A, B, cute.layout "(7,6):(1,7)") end,
      "cute.gemm: A (8,4):(1,8), B (6,4):(1,6), C (7,6):(1,7): "
      .. "M: size<0>(A) == size<0>(C) violated")
    assert.has_error(function() gemm.plan(A, cute.layout "(6,5):(1,6)",
      cute.layout "(8,6):(1,8)") end,
      "cute.gemm: A (8,4):(1,8), B (6,5):(1,6), C (8,6):(1,8): "
      .. "K: size<1>(A) == size<1>(B) violated")
    local inj = "C is injective (no two coordinates share an offset): each C "
      .. "element has one writer violated"
    assert.has_error(function() gemm.plan(A, B, cute.layout "(8,6):(1,0)") end,
      "cute.gemm: A (8,4):(1,8), B (6,4):(1,6), C (8,6):(1,0): " .. inj)
    assert.has_error(function() gemm.plan(A, B, cute.layout "(8,6):(1,1)") end,
      "cute.gemm: A (8,4):(1,8), B (6,4):(1,6), C (8,6):(1,1): " .. inj)
    assert.has_error(function() gemm.plan(A, B, cute.layout "(8,6):(1,7)") end,
      "cute.gemm: A (8,4):(1,8), B (6,4):(1,6), C (8,6):(1,7): " .. inj)
    -- the C owner of injectivity (algebra/image.c): interleaved but
    -- injective, (8,6):(6,1) nests after sorting; (2,2):(2,3) does not nest
    -- but its offsets {0,2,3,5} are distinct
    assert.truthy(core.injective(cute.layout "(8,6):(6,1)"))
    assert.truthy(core.injective(cute.layout "(2,2):(2,3)"))
    assert.falsy(core.injective(cute.layout "(64,48):(1,1)"))
    assert.truthy(core.injective(cute.layout "(4,(2,3)):(-1,(4,-8))"))
    assert.has_error(function() gemm.plan(A, B, cute.layout "(8,6):(1,8)",
      { a = "i8" }) end, "cute.gemm: A has dtype i8; supported: f16 bf16 f32 f64")
    assert.has_error(function() gemm.plan(A, B, cute.layout "8:1") end)
  end)

  it("puts threadIdx.x along the unit-stride mode of C", function()
    local A, B = cute.layout "(8,4):(1,8)", cute.layout "(6,4):(1,6)"
    local col = gemm.plan(A, B, cute.layout "(8,6):(1,8)")
    local row = gemm.plan(A, B, cute.layout "(8,6):(6,1)")
    assert.truthy(col.source:find("const unsigned m = x, n = y;", 1, true))
    assert.truthy(row.source:find("const unsigned m = y, n = x;", 1, true))
    assert.same({ 1, 1, 1 }, col.grid)
    assert.same({ 1, 1, 1 }, row.grid)
  end)

  it("the im2col row is the direct 3-D convolution", function()
    local p = problem(rows[8], variants[1], 5)
    local ref = reference(p.LA, p.LB, p.LC, p.a, p.b, p.c, 1, 0)
    local w, x = p.a, p.b
    for n = 0, 1 do for k = 0, 4 do for z = 0, 1 do for y = 0, 2 do for q = 0, 2 do
      local s = 0.0
      for c = 0, 2 do for t = 0, 1 do for r = 0, 1 do for u = 0, 1 do
        s = s + w[k * 24 + c * 8 + t * 4 + r * 2 + u + 1]
          * x[n * 144 + c * 48 + (z + t) * 16 + (y + r) * 4 + (q + u) + 1]
      end end end end
      assert.equal(s, ref[n * 90 + k * 18 + z * 9 + y * 3 + q + 1])
    end end end end end
  end)

  it("turns every access into straight-line index code", function()
    local p = gemm.plan(cute.layout "((8,5),20):((1,160),8)",
      cute.layout "(24,20):(20,1)", cute.layout "((8,5),24):((1,192),8)")
    assert.truthy(p.source:find("/* ((8,5),20):((1,160),8) */", 1, true))
    assert.truthy(p.source:find("r += (int)(c0 % 8u);", 1, true))
    assert.same({ M = 40, N = 24, K = 20, L = 1 }, p.extents)
  end)
end)

describe("cute.cuda.gemm compiles every Table 3 row to PTX", function()
  local core_ok, core = pcall(require, "cute.cuda.core")
  local nvrtc_ok = core_ok and pcall(core.nvrtc_version)
  for _, row in ipairs(rows) do
    it(row[1], function()
      if not nvrtc_ok then pending("no NVRTC") return end
      for _, d in ipairs(variants) do
        local p = gemm.plan(cute.layout(row[2]), cute.layout(row[3]),
          cute.layout(row[4]), d)
        local bin = core.compile(p.source, { p.name }, "compute_90")
        assert.equal("ptx", bin.kind)
        assert.truthy(bin.image:find(".entry cute_gemm", 1, true))
      end
    end)
  end
end)

describe("cute.cuda.gemm on the host (the generated kernel, emulated)", function()
  teardown(function() os.execute("rm -rf '" .. dir .. "'") end)
  for r, row in ipairs(rows) do
    it(row[1], function()
      if not have_cxx then pending("no C++ compiler") return end
      for v, d in ipairs(variants) do
        local p = problem(row, d, 100 * r + v)
        local alpha, beta = v % 2 == 1 and 1 or 1.5, v % 2 == 1 and 1 or -0.5
        assert_close(reference(p.LA, p.LB, p.LC, p.a, p.b, p.c, alpha, beta),
          host_run(p, alpha, beta), d.c, row[1] .. " " .. d.a .. "/" .. d.c)
      end
    end)
  end
end)

describe("cute.cuda.gemm on the GPU #gpu", function()
  local ok, why = false, "cute.cuda not built"
  if have_cuda then ok, why = cuda.available() end
  if not ok then
    pending("no GPU: " .. tostring(why))
    return
  end

  local function on_device(p, alpha, beta)
    local function tensor(L, dtype, data)
      return cuda.tensor(cuda.buffer(dtype, data), L)
    end
    local A = tensor(p.LA, p.dtypes.a, p.a)
    local B = tensor(p.LB, p.dtypes.b, p.b)
    local C = tensor(p.LC, p.dtypes.c, p.c)
    cuda.gemm(A, B, C, { alpha = alpha, beta = beta, path = "generic" })
    return C.buffer:download()
  end

  for r, row in ipairs(rows) do
    it(row[1], function()
      for v, d in ipairs(variants) do
        local p = problem(row, d, 100 * r + v)
        local alpha, beta = v % 2 == 1 and 1 or 1.5, v % 2 == 1 and 1 or -0.5
        assert_close(reference(p.LA, p.LB, p.LC, p.a, p.b, p.c, alpha, beta),
          on_device(p, alpha, beta), d.c, row[1] .. " " .. d.a .. "/" .. d.c)
      end
    end)
  end

  it("runs a larger batched NT GEMM with the launch handle again", function()
    local d = { a = "bf16", b = "bf16", c = "f32" }
    local p = problem({ "", "(130,70,2):(1,130,9100)", "(90,70,2):(1,90,6300)",
      "(130,90,2):(1,130,11700)" }, d, 9)
    local A = cuda.tensor(cuda.buffer("bf16", p.a), p.LA)
    local B = cuda.tensor(cuda.buffer("bf16", p.b), p.LB)
    local C = cuda.tensor(cuda.buffer("f32", p.c), p.LC)
    local _, again = cuda.gemm(A, B, C, { beta = 0, path = "generic" })
    again()   -- beta = 0: the same result
    assert_close(reference(p.LA, p.LB, p.LC, p.a, p.b, p.c, 1, 0),
      C.buffer:download(), "f32", "batched 130x90x70x2")
  end)
end)
