--- cute.gemm -- the paper's generic GEMM (2.6.2) as a generated kernel.
--
--   C(m,n) = alpha * sum_k A(m,k) * B(n,k) + beta * C(m,n)
--
-- for tensors compatible with A (M,K), B (N,K), C (M,N), or with a batch
-- mode, (M,K,L), (N,K,L), (M,N,L).  Nothing about the layouts is assumed:
-- every row of the paper's Table 3 (NT, TN, NTT, BLIS strides, both GETT
-- foldings with hierarchical modes, batched) is just another layout, and
-- the kernel is the paper's triple loop with each tensor access turned
-- into straight-line index code by the bridge (cute.cuda.core.codegen:
-- constant divisors, so idx2crd strength-reduces).  The defaults
-- alpha = 1, beta = 1 give the paper's C(m,n) += A(m,k) * B(n,k).
--
--   local gemm = require "cute.gemm"
--   local p = gemm.plan(cute.layout "(64,32):(1,64)",      -- A  NT
--                       cute.layout "(48,32):(1,48)",      -- B
--                       cute.layout "(64,48):(1,64)",      -- C
--                       { a = "f32", b = "f32", c = "f32" })
--   p.source  --> CUDA C: extern "C" __global__ void cute_gemm(A, B, C,
--                 alpha, beta);  p.grid, p.block: its launch shape
--
-- This module plans (no GPU, no driver: it does not load cute.cuda);
-- cute.cuda.gemm compiles a plan once per combination and launches it.
--
-- One thread computes one C element, threads of a warp along the C mode
-- with the unit stride (so C and, for column-major operands, A are read
-- and written coalesced).  This is the reference algorithm, not the fast
-- one: cute.cuda.gemm_sm80 is the tensor-core kernel (examples/
-- gemm_tiled.lua).
--
-- Element types are f16, bf16, f32, f64; f16/bf16 are their bit patterns
-- (as everywhere in the bridge) converted by cute/convert.h of the device
-- library, which is plain C/C++ so that the kernel also runs under a host
-- emulation (spec/lua/gemm_spec.lua, with -I cuda/device).  Accumulation
-- is in f64 if any operand is f64, else in f32.
local core = require "cute.core"
local E = require "cute.error"

local M = {}

local DTYPES = { f16 = true, bf16 = true, f32 = true, f64 = true }

-- The C type of dtype t's bits in the kernel: cuda/'s dtype table.
local function ctype(t) return require("cute.cuda.core").dtypes[t].ctype end

-- f16/bf16 bits <-> float, round to nearest even: the device library's
-- cute/convert.h, the one definition host and device share.
local CONVERT = "#include <cute/convert.h>"

-- C expressions converting an element of dtype t to the accumulator type
-- and back.
local function load_expr(t, acc, x)
  if t == "bf16" or t == "f16" then
    local f = ("cute_%s_to_f32(%s)"):format(t, x)
    return acc == "double" and "(double)" .. f or f
  end
  return ("(%s)%s"):format(acc, x)
end

local function store_expr(t, x)
  if t == "bf16" or t == "f16" then
    return ("cute_f32_to_%s((float)(%s))"):format(t, x)
  end
  return ("(%s)(%s)"):format(ctype(t), x)
end

-- Misuse, raised at the caller's line (of gemm.plan, or of cute.cuda.gemm,
-- which prefixes its own name).
local function fail(fmt, ...)
  E.raise("cute.gemm: " .. fmt:format(...))
end

local function check_dtype(what, t)
  if not DTYPES[t] then
    fail("%s has dtype %s; supported: f16 bf16 f32 f64", what, tostring(t))
  end
end

--- The extents {M, N, K [, L]} of a GEMM over layouts A, B, C, after
-- checking the paper's preconditions (raising an error that names them).
function M.extents(A, B, C)
  local r = core.rank(A)
  if r < 2 or r > 3 or core.rank(B) ~= r or core.rank(C) ~= r then
    fail("A %s, B %s, C %s: ranks %d, %d, %d; need (M,K), (N,K), (M,N) "
      .. "or (M,K,L), (N,K,L), (M,N,L)", tostring(A), tostring(B), tostring(C),
      r, core.rank(B), core.rank(C))
  end
  local function sz(L, i) return core.size(L:mode(i)) end
  local e = { M = sz(A, 0), N = sz(B, 0), K = sz(A, 1), L = r == 3 and sz(A, 2) or 1 }
  local function need(ok, what)
    if not ok then
      fail("A %s, B %s, C %s: %s violated", tostring(A), tostring(B),
        tostring(C), what)
    end
  end
  need(e.M == sz(C, 0), "M: size<0>(A) == size<0>(C)")
  need(e.N == sz(C, 1), "N: size<0>(B) == size<1>(C)")
  need(e.K == sz(B, 1), "K: size<1>(A) == size<1>(B)")
  if r == 3 then
    need(e.L == sz(B, 2) and e.L == sz(C, 2),
      "L: size<2>(A) == size<2>(B) == size<2>(C)")
  end
  need(core.injective(C),
    "C is injective (no two coordinates share an offset): each C element "
    .. "has one writer")
  return e
end

-- Does mode i of L start with a unit-stride leaf (ignoring size-1 leaves)?
local function unit_first(L, i)
  local f = core.filter(L:mode(i))
  local d = f:stride()
  while type(d) == "table" do d = d[1] end
  return d == 1 or d == -1
end

local KERNEL = [[
extern "C" __global__ void __launch_bounds__(256)
cute_gemm(const TA *__restrict__ A, const TB *__restrict__ B, TC *C,
          ACC alpha, ACC beta) {
  const IT x = (IT)blockIdx.x * 32u + threadIdx.x;
  if (x >= XSIZE) return;
  for (IT l = blockIdx.z; l < LSIZE; l += gridDim.z)
    for (IT y = (IT)blockIdx.y * 8u + threadIdx.y; y < YSIZE;
         y += (IT)gridDim.y * 8u) {
      const IT m = MVAR, n = NVAR;
      ACC acc = 0;
      for (IT k = 0; k < KSIZE; ++k)
        acc += LOAD_A * LOAD_B;
      TC *c = &C[cute_C(m, nBATCH)];
      ACC r = alpha * acc;
      if (beta != (ACC)0) r += beta * LOAD_C;
      *c = STORE_C;
    }
}
]]

--- plan(A, B, C, dtypes [, opts]) -> { source, name, grid, block, acc,
-- extents } for layouts A (M,K[,L]), B (N,K[,L]), C (M,N[,L]) and dtypes
-- { a =, b =, c = } (default "f32").  The kernel's arguments are the three
-- pointers (at each tensor's element 0) and alpha, beta of type acc.
-- opts.max_grid_yz (65535) caps grid.y and grid.z; the kernel strides.
function M.plan(A, B, C, dtypes, opts)
  local emit = require("cute.cuda.core").codegen
  dtypes, opts = dtypes or {}, opts or {}
  local ta, tb, tc = dtypes.a or "f32", dtypes.b or "f32", dtypes.c or "f32"
  check_dtype("A", ta); check_dtype("B", tb); check_dtype("C", tc)
  local e = M.extents(A, B, C)
  local acc = (ta == "f64" or tb == "f64" or tc == "f64") and "double" or "float"
  local big = math.max(e.M, e.N, e.K, e.L) >= 2 ^ 31
  -- threadIdx.x runs along n only when C's n mode is the unit-stride one
  local xn = not unit_first(C, 0) and unit_first(C, 1)
  local X, Y = xn and e.N or e.M, xn and e.M or e.N
  local batch = core.rank(A) == 3 and ", l" or ""
  local subst = {
    TA = ctype(ta), TB = ctype(tb), TC = ctype(tc), ACC = acc,
    IT = big and "unsigned long long" or "unsigned",
    XSIZE = X .. "ull", YSIZE = Y .. "ull", KSIZE = e.K .. "ull",
    LSIZE = e.L .. "ull", MVAR = xn and "y" or "x", NVAR = xn and "x" or "y",
    BATCH = batch,
    LOAD_A = load_expr(ta, acc, ("A[cute_A(m, k%s)]"):format(batch)),
    LOAD_B = load_expr(tb, acc, ("B[cute_B(n, k%s)]"):format(batch)),
    LOAD_C = load_expr(tc, acc, "*c"),
    STORE_C = store_expr(tc, "r"),
  }
  local body = KERNEL:gsub("[%u_]+", function(w) return subst[w] end)
  local cap = opts.max_grid_yz or 65535
  local source = table.concat({
    require("cute.cuda.core").prelude, CONVERT,
    emit("cute_A", A), emit("cute_B", B), emit("cute_C", C), body }, "\n")
  return {
    source = source, name = "cute_gemm", acc = acc == "double" and "f64" or "f32",
    extents = e, dtypes = { a = ta, b = tb, c = tc },
    grid = { math.max(1, (X + 31) // 32), math.max(1, math.min((Y + 7) // 8, cap)),
             math.max(1, math.min(e.L, cap)) },
    block = { 32, 8, 1 },
  }
end

return M
