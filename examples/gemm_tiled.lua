--- examples/gemm_tiled.lua -- a tiled tensor-core GEMM written with layouts.
--
--   C(m,n) = sum_k A(m,k) * B(n,k)      A (M,K), B (N,K) bf16 or f16, K-major;
--                                       C (M,N) f32, bf16 or f16; f32 sums
--
-- Every index of the kernel comes from the layout algebra, and the CUDA C
-- below only names the resulting functions:
--
--   * CTA tiles: zipped_divide(A, {BM, BK}) -> ((BM,BK), (M/BM, K/BK)); the
--     second mode is where the CTA's tile starts, the first is the tile.
--   * Shared memory: each stage holds Sw<B,3,S> o (BM,BK):(BK,1); the
--     swizzle is the first one (fewest XOR bits) under which neither the
--     cp.async writes nor the ldmatrix reads conflict on banks, found by
--     evaluating both access patterns through the layouts below.
--   * Global -> shared: cp.async of 16 bytes, threads laid out by
--     make_layout_tv(threads (rows, BK/8) row-major, values (1,8)), composed
--     with the tile (the paper's Table 4: partitioning by composition).
--   * The tiled MMA: the SM80 mma.sync m16n8k16 atom repeated over a grid of
--     warps (cute.make_tiled_mma); thrfrg_A/B/C split the shared tiles and
--     C into (thread, value) -> offset.
--   * ldmatrix.x4: lane 8q + r supplies row r of matrix q, and matrix q is
--     register q of every lane, so lane 8q + r points at the element that
--     lane 4r holds first in register q: (ThrV o 8:4, FrgV o 4:2) of the
--     MMA partition.  The ldmatrix contract (rows of 8 contiguous, aligned
--     elements) is checked on the layouts before any code is emitted.
--   * A multi-stage cp.async pipeline overlaps the loads of tile k+S-1 with
--     the MMAs of tile k; fragments are double-buffered in registers.
--
-- Change a knob in `defaults` (tile sizes, warps, stages, a swizzle) and
-- the kernel follows; configurations the hardware cannot run are refused
-- with the reason.  Run it as a script on a GPU:
--
--   cutelua examples/gemm_tiled.lua [M N K]
--
-- or load it (dofile) for build() / run(), as bench/gpu/gemm.lua and
-- spec/lua/gemm_tiled_spec.lua do.
local cute = require "cute"
local atom = require "cute.atom"
local tv = require "cute.tv"
local emit = require("cute.cuda.core").emit

local G = {}

G.defaults = {
  BM = 128, BN = 256, BK = 64,   -- CTA tile (the fastest measured on an H100,
  warps = { 2, 4 },              --   bench/gpu/gemm.lua); warps along M and N:
  stages = 3,                    --   each owns (BM/2) x (BN/4); tiles in flight
  group = 8,                     -- CTA rows per L2 raster group
  swizzle = nil,                 -- nil: chosen by the algebra, or cute.swizzle(B,3,S)
}

local mma_atom = { bf16 = "SM80_16x8x16_F32BF16BF16F32_TN",
  f16 = "SM80_16x8x16_F32F16F16F32_TN" }

local function fail(fmt, ...)
  error("gemm_tiled: " .. fmt:format(...), 0)
end

local function modes(L)
  local t = {}
  for i = 0, cute.rank(L) - 1 do t[i + 1] = L:mode(i) end
  return t
end

------------------------------------------------------------------- layouts --

local function leaves(t, out)
  out = out or {}
  if type(t) ~= "table" then out[#out + 1] = t return out end
  for _, x in ipairs(t) do leaves(x, out) end
  return out
end

-- Global -> shared copy of one operand tile (rows, BK): per-thread and per-
-- iteration offsets in the global tile layout `g` and the (unswizzled)
-- shared layout `s`.  Each thread moves vectors of 8 elements (16 bytes).
local function copy_partition(g, s, threads, BK)
  local per_row = BK // 8
  local tiler, thr_val = tv.make_layout_tv(cute.layout_right { threads // per_row, per_row },
    cute.layout { 1, 8 })
  local function split(L)
    local Z = cute.zipped_divide(L, tiler)
    local TV = cute.composition(Z:mode(0), thr_val)
    if cute.coalesce(TV:mode(1)) ~= cute.layout "8:1" then
      fail("the 8-element copy vector of %s is not contiguous (%s): A and B "
        .. "must be K-major", tostring(L), tostring(TV:mode(1)))
    end
    return TV:mode(0), Z:mode(1)
  end
  local gt, gr = split(g)
  local st, sr = split(s)
  return { g_thr = gt, g_rest = gr, s_thr = st, s_rest = sr, n = cute.size(gr) }
end

-- The MMA partition of a shared tile as ldmatrix.x4 addresses: lane layout
-- ((8 rows, 4 matrices), warp) and the (rest...) of the fragments.  For B
-- one x4 loads two n8 atoms: matrices (0,1) and (2,3) are atoms j and j+1.
local function ldmatrix_partition(T, pair)
  local thr, val = T:mode(0), T:mode(1)
  local lanes_r = cute.composition(thr:mode(0), cute.layout "8:4")
  local frg, rest = val:mode(0), val:mode(1)
  local q, rest_i
  if pair then
    local D = cute.logical_divide(rest:mode(0), 2)
    q = cute.make_layout(cute.composition(frg, cute.layout "2:2"), D:mode(0))
    rest_i = cute.make_layout(D:mode(1), rest:mode(1))
  else
    q = cute.composition(frg, cute.layout "4:2")
    rest_i = rest
  end
  return cute.make_layout(cute.make_layout(lanes_r, q), thr:mode(1):mode(0)),
    rest_i, thr, frg, rest
end

-- The ldmatrix contract, on the unswizzled offsets: lane T receives in
-- register q the elements row(4*(T/4), q) + 2*(T%4) + {0,1}; they must be
-- the two values the MMA wants there, and rows must be 8-aligned so the
-- swizzle (which permutes 8-element chunks) keeps them contiguous.
local function check_ldmatrix(name, thr, frg, rest, pair, lanes, rest_i)
  local function want(T, q, h)
    local v, j = 2 * q + h, 0
    if pair then v, j = 2 * (q % 2) + h, q // 2 end
    return thr:mode(0)(T) + frg(v) + (pair and rest:mode(0)(j) or 0)
  end
  for T = 0, 31 do
    for q = 0, 3 do
      local row = want(4 * (T // 4), q, 0)
      local got = row + 2 * (T % 4)
      if row % 8 ~= 0 or want(T, q, 0) ~= got or want(T, q, 1) ~= got + 1
          or lanes(8 * q + T // 4) ~= row then
        fail("ldmatrix cannot load operand %s: lane %d register %d (the "
          .. "shared tile must be K-major with rows of 8 aligned elements)",
          name, T, q)
      end
    end
  end
  for i = 0, cute.size(rest_i) - 1 do
    if rest_i(i) % 8 ~= 0 then fail("operand %s: fragment %d is not 8-aligned", name, i) end
  end
  for w = 0, cute.size(thr:mode(1)) - 1 do
    if thr:mode(1)(w) % 8 ~= 0 then fail("operand %s: warp %d is not 8-aligned", name, w) end
  end
end

-- Bank conflicts of 16-byte accesses: a warp's request is served in
-- phases of 8 lanes, conflict-free when their 16-byte chunks fall in 8
-- distinct chunk columns of the 128-byte bank row.  `addr(lane, it)` are
-- element offsets (2 bytes each); returns the number of extra wavefronts.
local function conflicts(addr, lanes_per_it, iters)
  local extra = 0
  for it = 0, iters - 1 do
    for p = 0, lanes_per_it - 1, 8 do
      local seen, worst = {}, 1
      for l = p, p + 7 do
        local col = (addr(l, it) // 8) % 8
        seen[col] = (seen[col] or 0) + 1
        worst = math.max(worst, seen[col])
      end
      extra = extra + worst - 1
    end
  end
  return extra
end

-- Swizzles Sw<B,3,S> by increasing B (then S), the first without bank
-- conflicts for both the copy writes and the ldmatrix reads.
local function choose_swizzle(name, cp, lanes, lrest, rows, BK, threads)
  local stage = rows * BK
  local tried = {}
  for b = 0, 3 do
    for s = math.max(b, 1), 7 do
      local sw = cute.swizzle(b, 3, s)
      if stage % (1 << (b + 3 + s)) == 0 or b == 0 then
        local wr = conflicts(function(l, r)
          return sw(cp.s_thr(l + (r % (threads // 32)) * 32) + cp.s_rest(r // (threads // 32)))
        end, 32, (threads // 32) * cp.n)
        local rd = conflicts(function(l, r) return sw(lanes(l, 0) + lrest(r)) end,
          32, cute.size(lrest))
        tried[#tried + 1] = ("%s: %d+%d"):format(tostring(sw), wr, rd)
        if wr == 0 and rd == 0 then return sw, tried end
      end
      if b == 0 then break end
    end
  end
  fail("no Sw<B,3,S> makes operand %s conflict-free (%s)", name, table.concat(tried, ", "))
end

-- A swizzle set by the script must keep each 16-byte chunk whole: cp.async
-- writes and ldmatrix reads 16 contiguous bytes, so Sw<B,M,S> may not touch
-- the low log2(16 / bytes) bits of an element offset (M >= that; B = 0
-- changes nothing).
local function check_swizzle(sw, bytes)
  local b, m = sw:params()
  local low = 0
  while (1 << low) * bytes < 16 do low = low + 1 end
  if b > 0 and m < low then
    fail("swizzle %s permutes elements inside the 16-byte chunks that "
      .. "cp.async and ldmatrix move whole: need M >= %d for %d-byte "
      .. "elements (e.g. Sw<%d,%d,%d>)", tostring(sw), low, bytes, b, low,
      math.max(b, low))
  end
end

-- Shared memory a block may use: the device's opt-in maximum when a device
-- answers, else sm_90's 227 KB; returns the bytes and where they come from.
local function smem_limit()
  local ok, core = pcall(require, "cute.cuda.core")
  local dev_ok, d = false, nil
  if ok then dev_ok, d = pcall(core.device) end
  if dev_ok and d.max_smem_optin > 0 then
    return d.max_smem_optin, ("the opt-in maximum of %s"):format(d.name)
  end
  return 227 * 1024, "227 KB, sm_90's opt-in maximum (no device to ask)"
end

local function check_smem(S, BM, BN, BK, bytes)
  local per_stage = (BM + BN) * BK * bytes
  local limit, source = smem_limit()
  if S * per_stage > limit then
    fail("%d stages x %d bytes of shared memory per stage = %d bytes exceed "
      .. "%d bytes, %s", S, per_stage, S * per_stage, limit, source)
  end
  return S * per_stage
end

-------------------------------------------------------------------- kernel --

-- PTX of the atoms used (the catalog's mma.sync, ldmatrix and cp.async).
local PTX = [[
#ifndef CUTE_HOST_EMULATION
#define CUTE_SMEM(name) extern __shared__ __align__(128) unsigned char name[]
CUTE_DI unsigned cute_smem_u32(const void *p) {
  unsigned a;
  asm("{ .reg .u64 t; cvta.to.shared.u64 t, %1; cvt.u32.u64 %0, t; }" : "=r"(a) : "l"(p));
  return a;
}
CUTE_DI void cute_cp_async16(unsigned s, const void *g) {
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16;" :: "r"(s), "l"(g));
}
CUTE_DI void cute_cp_async_commit() { asm volatile("cp.async.commit_group;"); }
template <int N> CUTE_DI void cute_cp_async_wait() {
  asm volatile("cp.async.wait_group %0;" :: "n"(N));
}
CUTE_DI void cute_ldsm_x4(unsigned (&r)[4], unsigned s) {
  asm volatile("ldmatrix.sync.aligned.x4.m8n8.shared.b16 {%0,%1,%2,%3}, [%4];"
               : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3]) : "r"(s));
}
CUTE_DI void cute_mma(float (&d)[4], const unsigned (&a)[4], const unsigned (&b)[2]) {
  asm volatile("MMA_PTX {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};"
               : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
               : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
}
#endif
]]

local KERNEL = [[
CUTE_DI TC cute_store(float x) { return STORE; }

extern "C" __global__ void __launch_bounds__(THREADS, 1)
cute_gemm_tiled(const unsigned short *__restrict__ A,
                const unsigned short *__restrict__ B, TC *__restrict__ C) {
  CUTE_SMEM(cute_smem);
  const unsigned t = threadIdx.x, lane = t % 32u, warp = t / 32u;
  const unsigned wm = warp % WARPS_M, wn = warp / WARPS_M;
  /* CTA tile (tm, tn): consecutive CTAs go down GROUP tile rows first, so
     the CTAs resident together share their A and B tiles in L2. */
  const unsigned bid = blockIdx.x, in_group = bid % (GROUP * TILES_N);
  const unsigned first = bid / (GROUP * TILES_N) * GROUP;
  const unsigned rows = TILES_M - first < GROUP ? TILES_M - first : GROUP;
  const unsigned tm = first + in_group % rows, tn = in_group / rows;
  const unsigned sA = cute_smem_u32(cute_smem), sB = sA + STAGES * A_STAGE_BYTES;
  const int cpa_g = cute_cpA_g(t), cpb_g = cute_cpB_g(t);
  const int cpa_s = cute_cpA_s(t), cpb_s = cute_cpB_s(t);
  const int lda = cute_ldA(lane, wm), ldb = cute_ldB(lane, wn);

  auto load_tile = [&](unsigned stage, unsigned kt) {
    const unsigned short *a = A + cute_tileA(tm, kt BATCH) + cpa_g;
    const unsigned short *b = B + cute_tileB(tn, kt BATCH) + cpb_g;
#pragma unroll
    for (unsigned r = 0; r < CPA_N; ++r)
      cute_cp_async16(sA + stage * A_STAGE_BYTES + 2u * (unsigned)cute_swA(cpa_s + cute_cpA_srest(r)),
                      a + cute_cpA_grest(r));
#pragma unroll
    for (unsigned r = 0; r < CPB_N; ++r)
      cute_cp_async16(sB + stage * B_STAGE_BYTES + 2u * (unsigned)cute_swB(cpb_s + cute_cpB_srest(r)),
                      b + cute_cpB_grest(r));
  };

  unsigned fa[2][MI][4], fb[2][NJ][2];
  auto load_frags = [&](unsigned buf, unsigned stage, unsigned kk) {
#pragma unroll
    for (unsigned i = 0; i < MI; ++i)
      cute_ldsm_x4(fa[buf][i], sA + stage * A_STAGE_BYTES + 2u * (unsigned)cute_swA(lda + cute_ldA_rest(i, kk)));
#pragma unroll
    for (unsigned j = 0; j < NJ / 2; ++j) {
      unsigned r[4];
      cute_ldsm_x4(r, sB + stage * B_STAGE_BYTES + 2u * (unsigned)cute_swB(ldb + cute_ldB_rest(j, kk)));
      fb[buf][2 * j][0] = r[0]; fb[buf][2 * j][1] = r[1];
      fb[buf][2 * j + 1][0] = r[2]; fb[buf][2 * j + 1][1] = r[3];
    }
  };

  float acc[MI][NJ][4];
#pragma unroll
  for (unsigned i = 0; i < MI; ++i)
#pragma unroll
    for (unsigned j = 0; j < NJ; ++j)
#pragma unroll
      for (unsigned v = 0; v < 4; ++v) acc[i][j][v] = 0.f;

  /* Prologue: STAGES-1 tiles in flight, the first one landed. */
#pragma unroll
  for (unsigned s = 0; s < STAGES - 1; ++s) {
    if (s < KTILES) load_tile(s, s);
    cute_cp_async_commit();
  }
  cute_cp_async_wait<STAGES - 2>();
  __syncthreads();
  unsigned rs = 0, ws = STAGES - 1;
  load_frags(0, 0, 0);

  for (unsigned kt = 0; kt < KTILES; ++kt) {
#pragma unroll
    for (unsigned kk = 0; kk < KSTEPS; ++kk) {
      if (kk == KSTEPS - 1) {
        /* Tile kt+1 landed; every warp is done reading the stage that the
           next load_tile overwrites (tile kt-1's). */
        cute_cp_async_wait<STAGES - 2>();
        __syncthreads();
        rs = rs + 1 == STAGES ? 0 : rs + 1;
      }
      load_frags((kk + 1) % 2, rs, (kk + 1) % KSTEPS);
      if (kk == 0) {
        if (kt + STAGES - 1 < KTILES) load_tile(ws, kt + STAGES - 1);
        cute_cp_async_commit();
        ws = ws + 1 == STAGES ? 0 : ws + 1;
      }
#pragma unroll
      for (unsigned i = 0; i < MI; ++i)
#pragma unroll
        for (unsigned j = 0; j < NJ; ++j)
          cute_mma(acc[i][j], fa[kk % 2][i], fb[kk % 2][j]);
    }
  }

  /* Epilogue: each accumulator to its place in C. */
  TC *c = C + cute_tileC(tm, tn BATCH) + cute_Cthr(lane, wm, wn);
#pragma unroll
  for (unsigned i = 0; i < MI; ++i)
#pragma unroll
    for (unsigned j = 0; j < NJ; ++j)
#pragma unroll
      for (unsigned v = 0; v < 4; ++v)
        c[cute_Cval(v, i, j)] = cute_store(acc[i][j][v]);
}
]]

local store = { f32 = "x", bf16 = "cute_f32_to_bf16(x)", f16 = "cute_f32_to_f16(x)" }
local ctype = { f32 = "float", bf16 = "unsigned short", f16 = "unsigned short" }

--- build(cfg, A, B, C, dtypes) -> {source, name, grid, block, smem, info}
-- for layouts A (M,K[,L]), B (N,K[,L]), C (M,N[,L]) and dtypes {ab =
-- "bf16"|"f16", c = "f32"|"bf16"|"f16"}; cfg fields default to G.defaults.
function G.build(cfg, LA, LB, LC, dtypes)
  local c = setmetatable(cfg or {}, { __index = G.defaults })
  dtypes = dtypes or {}
  local ab, tc = dtypes.ab or "bf16", dtypes.c or "f32"
  if not mma_atom[ab] then fail("A and B must be bf16 or f16, not %s", ab) end
  if not store[tc] then fail("C must be f32, bf16 or f16, not %s", tc) end
  local e = require("cute.gemm").extents(LA, LB, LC)
  local BM, BN, BK, S = c.BM, c.BN, c.BK, c.stages
  local WM, WN = c.warps[1], c.warps[2]
  local threads = 32 * WM * WN
  if e.M % BM ~= 0 or e.N % BN ~= 0 or e.K % BK ~= 0 then
    fail("M=%d N=%d K=%d must be multiples of the tile %dx%dx%d",
      e.M, e.N, e.K, BM, BN, BK)
  end
  if BK % 32 ~= 0 or BM % (16 * WM) ~= 0 or BN % (16 * WN) ~= 0 or S < 2 then
    fail("tile %dx%dx%d, warps %dx%d, %d stages: need BK %% 32 == 0, BM %% "
      .. "16*warps_m == 0, BN %% 16*warps_n == 0, stages >= 2", BM, BN, BK, WM, WN, S)
  end
  if (BM * BK // 8) % threads ~= 0 or (BN * BK // 8) % threads ~= 0 then
    fail("%d threads do not divide the %dx%d and %dx%d tiles in 16-byte vectors",
      threads, BM, BK, BN, BK)
  end
  if c.swizzle then check_swizzle(c.swizzle, 2) end
  local smem = check_smem(S, BM, BN, BK, 2)

  -- CTA tiles of A, B, C: (tile, tile coordinates)
  local GA = cute.zipped_divide(LA, { BM, BK })
  local GB = cute.zipped_divide(LB, { BN, BK })
  local GC = cute.zipped_divide(LC, { BM, BN })
  -- shared tiles before the swizzle: K-major rows of BK elements
  local sA, sB = cute.layout({ BM, BK }, { BK, 1 }), cute.layout({ BN, BK }, { BK, 1 })

  local mma = atom.make_tiled_mma(mma_atom[ab], cute.layout { WM, WN, 1 })
  local ldA, ldA_rest, tA, fA, rA = ldmatrix_partition(mma:thrfrg_A(sA), false)
  local ldB, ldB_rest, tB, fB, rB = ldmatrix_partition(mma:thrfrg_B(sB), true)
  check_ldmatrix("A", tA, fA, rA, false, ldA:mode(0), ldA_rest)
  check_ldmatrix("B", tB, fB, rB, true, ldB:mode(0), ldB_rest)
  local TC = mma:thrfrg_C(GC:mode(0))
  local Cthr = cute.make_layout(TC:mode(0):mode(0), TC:mode(0):mode(1):mode(0),
    TC:mode(0):mode(1):mode(1))
  local Cval = cute.make_layout(TC:mode(1):mode(0), TC:mode(1):mode(1):mode(0),
    TC:mode(1):mode(1):mode(1))

  local cpA = copy_partition(GA:mode(0), sA, threads, BK)
  local cpB = copy_partition(GB:mode(0), sB, threads, BK)
  local swA, triedA = c.swizzle, nil
  local swB, triedB = c.swizzle, nil
  if not swA then
    swA, triedA = choose_swizzle("A", cpA, ldA, ldA_rest, BM, BK, threads)
    swB, triedB = choose_swizzle("B", cpB, ldB, ldB_rest, BN, BK, threads)
  end
  for _, g in ipairs { GA:mode(0), GB:mode(0), GA:mode(1), GB:mode(1) } do
    for _, d in ipairs(leaves(g:stride())) do
      if d % 8 ~= 0 and d ~= 1 then
        fail("stride %d of %s breaks the 16-byte alignment of the copies", d, tostring(g))
      end
    end
  end

  local batch = cute.rank(LA) == 3 and ", blockIdx.y" or ""
  local subst = {
    THREADS = threads, WARPS_M = WM .. "u", GROUP = c.group .. "u",
    TILES_M = (e.M // BM) .. "u", TILES_N = (e.N // BN) .. "u",
    STAGES = S .. "u", A_STAGE_BYTES = (BM * BK * 2) .. "u",
    B_STAGE_BYTES = (BN * BK * 2) .. "u", KTILES = (e.K // BK) .. "u",
    KSTEPS = (BK // 16) .. "u", MI = (BM // (16 * WM)) .. "u",
    NJ = (BN // (8 * WN)) .. "u", CPA_N = cpA.n .. "u", CPB_N = cpB.n .. "u",
    TC = ctype[tc], STORE = store[tc], BATCH = batch,
  }
  local body = KERNEL:gsub("[%u_]+", function(w) return subst[w] end)
  local core = require "cute.cuda.core"
  local gemm = require "cute.gemm"
  local parts = { core.prelude, gemm.convert,
    (PTX:gsub("MMA_PTX", atom.mma_atom(mma_atom[ab]).ptx)),
    emit("cute_tileA", GA:mode(1)), emit("cute_tileB", GB:mode(1)),
    emit("cute_tileC", GC:mode(1)),
    emit("cute_cpA_g", cpA.g_thr), emit("cute_cpA_grest", cpA.g_rest),
    emit("cute_cpA_s", cpA.s_thr), emit("cute_cpA_srest", cpA.s_rest),
    emit("cute_cpB_g", cpB.g_thr), emit("cute_cpB_grest", cpB.g_rest),
    emit("cute_cpB_s", cpB.s_thr), emit("cute_cpB_srest", cpB.s_rest),
    emit("cute_swA", cute.composed(swA, 0, cute.layout(BM * BK))),
    emit("cute_swB", cute.composed(swB, 0, cute.layout(BN * BK))),
    emit("cute_ldA", ldA), emit("cute_ldA_rest", ldA_rest),
    emit("cute_ldB", ldB), emit("cute_ldB_rest", ldB_rest),
    emit("cute_Cthr", Cthr), emit("cute_Cval", Cval),
    body }
  return {
    source = table.concat(parts, "\n"), name = "cute_gemm_tiled",
    grid = { (e.M // BM) * (e.N // BN), e.L, 1 }, block = { threads, 1, 1 },
    smem = smem, extents = e,
    info = { swizzle_A = tostring(swA), swizzle_B = tostring(swB),
      tried_A = triedA, tried_B = triedB, mma = tostring(mma),
      config = ("%dx%dx%d warps %dx%d stages %d"):format(BM, BN, BK, WM, WN, S) },
  }
end

--------------------------------------------------------------------- run --

local built = {}   -- kernels by configuration, layouts and dtypes

local function config_key(cfg)
  local c = setmetatable(cfg or {}, { __index = G.defaults })
  return table.concat({ c.BM, c.BN, c.BK, c.warps[1], c.warps[2], c.stages,
    c.group, tostring(c.swizzle) }, ",")
end

--- prepare(cfg, A, B, C) -> launch handle (call it to run), plan, kernel
-- (cute.cuda.kernel) for cute.cuda tensors A, B (bf16 or f16) and C (f32,
-- bf16, f16).
function G.prepare(cfg, A, B, C)
  local cuda = require "cute.cuda"
  if A.dtype ~= B.dtype then fail("A is %s but B is %s", A.dtype, B.dtype) end
  local key = table.concat({ config_key(cfg), tostring(A.layout), tostring(B.layout),
    tostring(C.layout), A.dtype, C.dtype }, "|")
  local e = built[key]
  if not e then
    local p = G.build(cfg, A.layout, B.layout, C.layout, { ab = A.dtype, c = C.dtype })
    e = { plan = p, kernel = cuda.kernel { source = p.source, name = p.name } }
    built[key] = e
  end
  for name, T in pairs { A = A, B = B } do
    if T:ptr() % 16 ~= 0 then
      fail("%s starts at a device address that is not 16-byte aligned", name)
    end
  end
  local p = e.plan
  return e.kernel:prepare { grid = p.grid, block = p.block, smem = p.smem,
    args = { A, B, C } }, p, e.kernel
end

--- run(cfg, A, B, C): C = A B on the device (asynchronous); returns the plan.
function G.run(cfg, A, B, C)
  local h, p = G.prepare(cfg, A, B, C)
  h()
  return p
end

------------------------------------------------------------------ script --

-- cutelua examples/gemm_tiled.lua [M N K]: a bf16 GEMM, checked on a sample
-- of C against float64 dot products, then timed.
local function main(M, N, K)
  local cuda = require "cute.cuda"
  M, N, K = M or 4096, N or 4096, K or 4096
  local A = cuda.tensor(cuda.buffer("bf16", M * K):random(1, -1, 1), cute.layout({ M, K }, { K, 1 }))
  local B = cuda.tensor(cuda.buffer("bf16", N * K):random(2, -1, 1), cute.layout({ N, K }, { K, 1 }))
  local C = cuda.tensor(cuda.buffer("f32", M * N), cute.layout({ M, N }, { N, 1 }))
  local h, p = G.prepare(nil, A, B, C)
  print(("%s: %d x %d x %d, swizzles A %s B %s, %d bytes of shared memory")
    :format(p.info.config, M, N, K, p.info.swizzle_A, p.info.swizzle_B, p.smem))
  h()
  local worst, rows = 0, {}
  local c = C.buffer:download()
  for s = 0, 15 do
    local m, n = (s * 7919) % M, (s * 104729) % N
    rows[m] = rows[m] or A.buffer:download(m * K, K)
    local bn, sum = B.buffer:download(n * K, K), 0.0
    for k = 1, K do sum = sum + rows[m][k] * bn[k] end
    worst = math.max(worst, math.abs(c[m * N + n + 1] - sum) / math.max(1, math.abs(sum)))
  end
  local ms = cuda.time(h)
  print(("max relative error on 16 samples %.2e; %.3f ms, %.1f TFLOP/s")
    :format(worst, ms, 2 * M * N * K / ms / 1e9))
end

if arg and arg[0] and arg[0]:match("gemm_tiled%.lua$") then
  main(tonumber(arg[1]), tonumber(arg[2]), tonumber(arg[3]))
end

return G
