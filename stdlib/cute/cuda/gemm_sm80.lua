--- cute.cuda.gemm_sm80 -- a tiled tensor-core GEMM written with layouts,
-- on the device library (cute/device.h), for run-time problem sizes.
--
--   C(m,n,l) = sum_k A(m,k,l) * B(n,k,l)    A, B bf16 or f16, K-major;
--                                           C f32, bf16 or f16, any strides;
--                                           f32 sums
--
-- The tile machinery is static and derived by the algebra in this script;
-- the problem is not: M, N, K, the batch count and every global stride are
-- kernel arguments, so one compiled kernel serves every size, residues
-- included (predicated through identity tensors).
--
--   * CTA tiles: local_tile of the (M,K) tensor by (BM,BK) at the block's
--     tile coordinate; tiles are rastered in groups of `group` tile rows so
--     the CTAs resident together share A and B in L2.
--   * Shared memory: each stage holds Sw<B,3,S> o (BM,BK):(BK,1); the
--     swizzle is the first (fewest XOR bits) under which neither the
--     cp.async writes nor the ldmatrix reads conflict on banks, found by
--     evaluating both access patterns through the layouts below.
--   * Global -> shared: cp.async of 16 bytes (zero-filled outside the
--     problem), threads laid out by make_layout_tv(threads (rows, BK/8)
--     row-major, values (1,8)) composed with the identity layout of the
--     tile (the paper's Table 4 partitioning by composition), which gives
--     each thread the coordinates it copies: the predicate is the
--     coordinate against (M,K).
--   * The tiled MMA: the SM80 mma.sync m16n8k16 atom over a grid of warps
--     (cute.atom.make_tiled_mma); thrfrg_A/B/C split the shared tiles and
--     the identity of the C tile into (thread, value).
--   * ldmatrix.x4: lane 8q + r supplies row r of matrix q, and matrix q is
--     register q of every lane, so lane 8q + r points at the element that
--     lane 4r holds first in register q: (ThrV o 8:4, FrgV o 4:2) of the
--     MMA partition, checked against the ldmatrix contract before any code
--     is emitted.
--   * A multi-stage cp.async pipeline overlaps the loads of tile k+S-1 with
--     the MMAs of tile k; fragments are double-buffered in registers.
--   * Index arithmetic is 32-bit for a tensor whose offsets the algebra
--     proves below 2^31 (its cosize), 64-bit otherwise: decided per tensor
--     at launch, a second kernel only when a tensor needs it.
--
--   local sm80 = require "cute.cuda.gemm_sm80"
--   local h = sm80.prepare(nil, A, B, C)   -- cute.cuda tensors
--   h()                                    -- C = A B^T, asynchronous
local cute = require "cute"
local atom = require "cute.atom"
local tv = require "cute.tv"

local G = {}

G.defaults = {
  BM = 128, BN = 256, BK = 64,   -- CTA tile (the fastest measured on an H100,
  warps = { 2, 4 },              --   bench/gpu/gemm.lua); warps along M and N:
  stages = 3,                    --   each owns (BM/2) x (BN/4); tiles in flight
  group = 8,                     -- CTA rows per L2 raster group
  swizzle = nil,                 -- nil: chosen by the algebra, or cute.swizzle(B,3,S)
}

local mma_fn = { bf16 = "mma_16x8x16_f32bf16", f16 = "mma_16x8x16_f32f16" }
local mma_atom = { bf16 = "SM80_16x8x16_F32BF16BF16F32_TN",
  f16 = "SM80_16x8x16_F32F16F16F32_TN" }
local ctype = {}   -- the C types this kernel takes, from cuda/'s dtype table
for _, t in ipairs { "f32", "bf16", "f16" } do
  ctype[t] = require("cute.cuda.core").dtypes[t].device
end

local function fail(fmt, ...)
  error("cute.cuda.gemm_sm80: " .. fmt:format(...), 0)
end

------------------------------------------------------------------- layouts --

-- Global -> shared copy of one operand tile (rows, BK): per-thread and
-- per-iteration coordinates (from the identity layout of the tile) and
-- offsets in the (unswizzled) shared layout `s`.  Vectors of 8 elements.
local function copy_partition(rows, BK, threads)
  local per_row = BK // 8
  local tiler, thr_val = tv.make_layout_tv(cute.layout_right { threads // per_row, per_row },
    cute.layout { 1, 8 })
  local function split(L)
    local Z = cute.zipped_divide(L, tiler)
    local TV = cute.composition(Z:mode(0), thr_val)
    return TV, Z:mode(1)
  end
  local ct, cr = split(cute.make_identity_layout { rows, BK })
  if tostring(cute.coalesce(ct:mode(1))) ~= "8:1@1" then
    fail("the 8-element copy vector runs along %s, not along K", tostring(ct:mode(1)))
  end
  local st, sr = split(cute.layout({ rows, BK }, { BK, 1 }))
  return { c_thr = ct:mode(0), c_rest = cr, s_thr = st:mode(0), s_rest = sr,
    n = cute.size(cr) }
end

-- The row step of copy r: the rest of the copy partition must move along
-- rows only, r -> (r * step, 0), so the kernel advances one pointer by
-- multiples of the run-time row pitch.
local function copy_row_step(name, cp)
  local function crd(r)
    local c = cp.c_rest(r)
    if type(c) ~= "table" then return c, 0 end
    return c[1] or 0, c[2] or 0
  end
  local step = cp.n > 1 and crd(1) or 0
  for r = 0, cp.n - 1 do
    local m, k = crd(r)
    if m ~= r * step or k ~= 0 then
      fail("operand %s: copy %d starts at (%d,%d), not (%d,0): the copies must "
        .. "step along rows", name, r, m, k, r * step)
    end
  end
  return step
end

-- Whether swizzle `sw` commutes with every step in `ds` from every offset
-- in `xs`: sw(x + d) == sw(x) + d.  Then the kernel swizzles a thread's
-- base offset once and adds the steps as constants (true when d only
-- touches bits above the swizzle's, checked here by brute force since a
-- script may set any swizzle).
local function commutes(sw, xs, ds)
  for _, x in ipairs(xs) do
    local base = sw(x)
    for _, d in ipairs(ds) do
      if sw(x + d) ~= base + d then return false end
    end
  end
  return true
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
  local warps = threads // 32
  for b = 0, 3 do
    for s = math.max(b, 1), 7 do
      local sw = cute.swizzle(b, 3, s)
      if stage % (1 << (b + 3 + s)) == 0 or b == 0 then
        local wr = conflicts(function(l, r)
          return sw(cp.s_thr(l + (r % warps) * 32) + cp.s_rest(r // warps))
        end, 32, warps * cp.n)
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

-- The pipeline's stages, or the C tile of the edge epilogue if larger.
local function check_smem(S, BM, BN, BK, bytes, cbytes)
  local per_stage = (BM + BN) * BK * bytes
  local limit, source = smem_limit()
  if S * per_stage > limit then
    fail("%d stages x %d bytes of shared memory per stage = %d bytes exceed "
      .. "%d bytes, %s", S, per_stage, S * per_stage, limit, source)
  end
  if BM * BN * cbytes > limit then
    fail("the %dx%d C tile (%d bytes) exceeds %d bytes of shared memory, %s",
      BM, BN, BM * BN * cbytes, limit, source)
  end
  return math.max(S * per_stage, BM * BN * cbytes)
end

-------------------------------------------------------------------- kernel --

local KERNEL = [[
extern "C" __global__ void __launch_bounds__(THREADS, 1)
cute_gemm_sm80(const TAB *__restrict__ A, const TAB *__restrict__ B, TC *__restrict__ C,
               int M, int N, int K, IA lda, IB ldb, IC ldcm, IC ldcn,
               IA batch_a, IB batch_b, IC batch_c, int cvec) {
  CUTE_SMEM(smem);
  const unsigned t = threadIdx.x, lane = t % 32u, warp = t / 32u;
  const unsigned wm = warp % WARPS_M, wn = warp / WARPS_M;
  /* The problem: run-time extents and strides, one batch per blockIdx.y. */
  const auto mA = cute::make_tensor(A + (IA)blockIdx.y * batch_a, cute::dyn_layout<2, IA>{{M, K}, {lda, 1}});
  const auto mB = cute::make_tensor(B + (IB)blockIdx.y * batch_b, cute::dyn_layout<2, IB>{{N, K}, {ldb, 1}});
  const auto mC = cute::make_tensor(C + (IC)blockIdx.y * batch_c, cute::dyn_layout<2, IC>{{M, N}, {ldcm, ldcn}});
  const int tiles_m = (M + BM - 1) / BM, tiles_n = (N + BN - 1) / BN, ktiles = (K + BK - 1) / BK;
  /* CTA tile (tm, tn): consecutive CTAs go down GROUP tile rows first. */
  const int bid = blockIdx.x, in_group = bid % (GROUP * tiles_n);
  const int first = bid / (GROUP * tiles_n) * GROUP;
  const int rows = tiles_m - first < GROUP ? tiles_m - first : GROUP;
  const int tm = first + in_group % rows, tn = in_group / rows;
  const auto gA = cute::local_tile<BM, BK>(mA, {tm, 0}), gB = cute::local_tile<BN, BK>(mB, {tn, 0});
  const auto iA = cute::local_tile<BM, BK>(cute::make_identity(mA), {tm, 0});
  const auto iB = cute::local_tile<BN, BK>(cute::make_identity(mB), {tn, 0});
  const unsigned sA = cute::smem_u32(smem), sB = sA + STAGES * A_STAGE_BYTES;
  const int cpa_s = cpA_s(t), cpb_s = cpB_s(t);
  const int lda_s = ldA(lane, wm), ldb_s = ldB(lane, wn);
  /* Each thread's copies: coordinates from the identity layout of the
     tile, tested against the extents.  The copies of a thread step along
     rows only, so which rows exist is one bit mask per operand, computed
     once; a k-tile then exists or not for all of them (K % 8 == 0).  Every
     copy is the zero-filling cp.async, without a branch: the main loop
     stays straight-line, and the inner tiles pay a select per copy. */
  const auto cpa = cpA_crd(t), cpb = cpB_crd(t);
  const TAB *a0 = &gA(cpa[0], cpa[1]), *b0 = &gB(cpb[0], cpb[1]);
  const bool a_inside = (tm + 1) * BM <= M, b_inside = (tn + 1) * BN <= N;
  unsigned rowsA = 0u, rowsB = 0u;
#pragma unroll 1
  for (unsigned r = 0; r < CPA_N; ++r)
    rowsA |= (unsigned)(iA(cpa[0] + (int)r * CPA_ROWS, 0)[0] < M) << r;
#pragma unroll 1
  for (unsigned r = 0; r < CPB_N; ++r)
    rowsB |= (unsigned)(iB(cpb[0] + (int)r * CPB_ROWS, 0)[0] < N) << r;
  /* Shared byte offsets of the copies: where the script proved that the
     swizzle commutes with the per-copy step (sw(x + d) == sw(x) + d), the
     swizzle runs once per thread and each copy adds a constant. */
  const unsigned wa = 2u * (unsigned)swA(cpa_s), wb = 2u * (unsigned)swB(cpb_s);
  auto cpA_off = [&](unsigned r) -> unsigned {
    if constexpr (CPA_SPLIT) return wa + 2u * (unsigned)cpA_srest(r);
    else return 2u * (unsigned)swA(cpa_s + cpA_srest(r));
  };
  auto cpB_off = [&](unsigned r) -> unsigned {
    if constexpr (CPB_SPLIT) return wb + 2u * (unsigned)cpB_srest(r);
    else return 2u * (unsigned)swB(cpb_s + cpB_srest(r));
  };
  /* Row steps of the copies (the copy rest moves along rows only: checked
     by the script), so a k-tile's copies are one pointer plus multiples. */
  const IA stepA = (IA)CPA_ROWS * lda;
  const IB stepB = (IB)CPB_ROWS * ldb;

  /* Tile kt into a stage; past the last k-tile it zero-fills and reads
     nothing (the pipeline's tail), so no branch guards it. */
  auto load_tile = [&](unsigned stage, int kt) {
    const TAB *a = a0 + kt * BK, *b = b0 + kt * BK;
    const unsigned sa = sA + stage * A_STAGE_BYTES, sb = sB + stage * B_STAGE_BYTES;
    const unsigned ma = iA(0, cpa[1] + kt * BK)[1] < K ? rowsA : 0u;
    const unsigned mb = iB(0, cpb[1] + kt * BK)[1] < K ? rowsB : 0u;
#pragma unroll
    for (unsigned r = 0; r < CPA_N; ++r)
      cute::cp_async_zfill<16>(sa + cpA_off(r), a + (IA)r * stepA, (ma >> r) & 1u);
#pragma unroll
    for (unsigned r = 0; r < CPB_N; ++r)
      cute::cp_async_zfill<16>(sb + cpB_off(r), b + (IB)r * stepB, (mb >> r) & 1u);
  };

  unsigned fa[2][MI][4], fb[2][NJ][2];
  /* ldmatrix byte offsets: as for the copies, where the swizzle commutes
     with the fragment step it runs once per k-step, not per fragment. */
  auto load_frags = [&](unsigned buf, unsigned stage, unsigned kk) {
    const unsigned ka = 2u * (unsigned)swA(lda_s + ldA_rest(0u, kk));
    const unsigned kb = 2u * (unsigned)swB(ldb_s + ldB_rest(0u, kk));
#pragma unroll
    for (unsigned i = 0; i < MI; ++i) {
      unsigned o;
      if constexpr (LDA_SPLIT) o = ka + 2u * (unsigned)ldA_rest(i, 0u);
      else o = 2u * (unsigned)swA(lda_s + ldA_rest(i, kk));
      cute::ldmatrix_x4(fa[buf][i], sA + stage * A_STAGE_BYTES + o);
    }
#pragma unroll
    for (unsigned j = 0; j < NJ / 2; ++j) {
      unsigned r[4], o;
      if constexpr (LDB_SPLIT) o = kb + 2u * (unsigned)ldB_rest(j, 0u);
      else o = 2u * (unsigned)swB(ldb_s + ldB_rest(j, kk));
      cute::ldmatrix_x4(r, sB + stage * B_STAGE_BYTES + o);
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

  /* Prologue: STAGES-1 tiles in flight, the first one landed (a loop:
     one copy of load_tile's code less to compile). */
#pragma unroll 1
  for (int s = 0; s < STAGES - 1; ++s) {
    load_tile(s, s);
    cute::cp_async_commit();
  }
  cute::cp_async_wait<STAGES - 2>();
  __syncthreads();
  unsigned rs = 0, ws = STAGES - 1;
  load_frags(0, 0, 0);

  for (int kt = 0; kt < ktiles; ++kt) {
#pragma unroll
    for (unsigned kk = 0; kk < KSTEPS; ++kk) {
      if (kk == KSTEPS - 1) {
        /* Tile kt+1 landed; every warp is done reading the stage that the
           next load_tile overwrites (tile kt-1's). */
        cute::cp_async_wait<STAGES - 2>();
        __syncthreads();
        rs = rs + 1 == STAGES ? 0 : rs + 1;
      }
      load_frags((kk + 1) % 2, rs, (kk + 1) % KSTEPS);
      if (kk == 0) {
        load_tile(ws, kt + STAGES - 1);
        cute::cp_async_commit();
        ws = ws + 1 == STAGES ? 0 : ws + 1;
      }
#pragma unroll
      for (unsigned i = 0; i < MI; ++i)
#pragma unroll
        for (unsigned j = 0; j < NJ; ++j)
          cute::MMA(acc[i][j], fa[kk % 2][i], fb[kk % 2][j]);
    }
  }

  /* Epilogue: each accumulator to its coordinate in C, where it exists.
     Values 2v and 2v+1 of an atom are neighbours along N (checked by the
     script), stored as one vector.  When the host found C contiguous and
     aligned along N (cvec == 2), an inner tile stores them straight from
     registers; edge tiles (and C without pair vectors) store them to
     shared memory, free after the main loop, as the tile (BM,BN):(BN,1),
     then a loop (not unrolled: little code) writes the elements that
     exist.  One unrolled store loop serves both (less code to compile). */
  const auto gC = cute::local_tile<BM, BN>(mC, {tm, tn});
  const auto iC = cute::local_tile<BM, BN>(cute::make_identity(mC), {tm, tn});
  const auto ct = Cthr(lane, wm, wn);
  const bool direct = a_inside && b_inside && cvec == 2;
  TC *sC = reinterpret_cast<TC *>(smem);
  if (!direct) {
    cute::cp_async_wait<0>();
    __syncthreads();
  }
  TC *dst = direct ? gC.ptr : sC;
  const IC ld = direct ? ldcm : (IC)BN;
#pragma unroll
  for (unsigned i = 0; i < MI; ++i)
#pragma unroll
    for (unsigned j = 0; j < NJ; ++j)
#pragma unroll
      for (unsigned v = 0; v < 4; v += 2) {
        const auto c = ct + Cval(v, i, j);
        cute::vec_t<TC, 2> w;
        w[0] = TC(acc[i][j][v]);
        w[1] = TC(acc[i][j][v + 1]);
        *reinterpret_cast<cute::vec_t<TC, 2> *>(&dst[(IC)cute::get<0>(c) * ld + cute::get<1>(c)]) = w;
      }
  if (!direct) {
    __syncthreads();
#pragma unroll 1
    for (int e = t; e < BM * BN; e += THREADS) {
      const int m = e / BN, n = e % BN;
      if (cute::elem_less(iC(m, n), mC.layout.extents())) gC(m, n) = sC[e];
    }
  }
}
]]

local function configure(cfg, dtypes)
  local c = setmetatable(cfg or {}, { __index = G.defaults })
  dtypes = dtypes or {}
  local ab, tc = dtypes.ab or "bf16", dtypes.c or "f32"
  if not mma_atom[ab] then fail("A and B must be bf16 or f16, not %s", ab) end
  if not ctype[tc] then fail("C must be f32, bf16 or f16, not %s", tc) end
  local BM, BN, BK, S = c.BM, c.BN, c.BK, c.stages
  local WM, WN = c.warps[1], c.warps[2]
  local threads = 32 * WM * WN
  if BK % 32 ~= 0 or BM % (16 * WM) ~= 0 or BN % (16 * WN) ~= 0 or S < 2 then
    fail("tile %dx%dx%d, warps %dx%d, %d stages: need BK %% 32 == 0, BM %% "
      .. "16*warps_m == 0, BN %% 16*warps_n == 0, stages >= 2", BM, BN, BK, WM, WN, S)
  end
  if (BM * BK // 8) % threads ~= 0 or (BN * BK // 8) % threads ~= 0 then
    fail("%d threads do not divide the %dx%d and %dx%d tiles in 16-byte vectors",
      threads, BM, BK, BN, BK)
  end
  if c.swizzle then check_swizzle(c.swizzle, 2) end
  return c, ab, tc, threads
end

--- build(cfg, dtypes [, widths]) -> {source, name, block, smem, info} for
-- dtypes {ab = "bf16"|"f16", c = "f32"|"bf16"|"f16"} and index widths
-- {a, b, c} (32 or 64 bits, default 32); cfg fields default to G.defaults.
-- The kernel's arguments: A, B, C, M, N, K, lda, ldb, ldc_m, ldc_n, the
-- batch strides and C's store vector (G.arguments makes them).
function G.build(cfg, dtypes, widths)
  local c, ab, tc, threads = configure(cfg, dtypes)
  widths = widths or {}
  local BM, BN, BK, S = c.BM, c.BN, c.BK, c.stages
  local WM, WN = c.warps[1], c.warps[2]
  local smem = check_smem(S, BM, BN, BK, 2, require("cute.cuda.core").dtypes[tc].size)

  -- shared tiles before the swizzle: K-major rows of BK elements
  local sA, sB = cute.layout({ BM, BK }, { BK, 1 }), cute.layout({ BN, BK }, { BK, 1 })
  local mma = atom.make_tiled_mma(mma_atom[ab], cute.layout { WM, WN, 1 })
  local ldA, ldA_rest, tA, fA, rA = ldmatrix_partition(mma:thrfrg_A(sA), false)
  local ldB, ldB_rest, tB, fB, rB = ldmatrix_partition(mma:thrfrg_B(sB), true)
  check_ldmatrix("A", tA, fA, rA, false, ldA:mode(0), ldA_rest)
  check_ldmatrix("B", tB, fB, rB, true, ldB:mode(0), ldB_rest)
  -- the C tile's coordinates by (thread, value)
  local TC = mma:thrfrg_C(cute.make_identity_layout { BM, BN })
  local Cthr = cute.make_layout(TC:mode(0):mode(0), TC:mode(0):mode(1):mode(0),
    TC:mode(0):mode(1):mode(1))
  local Cval = cute.make_layout(TC:mode(1):mode(0), TC:mode(1):mode(1):mode(0),
    TC:mode(1):mode(1):mode(1))

  for v = 0, 2, 2 do   -- the epilogue's pairs: value v+1 is one step along N
    for r = 0, cute.size(Cval) // 4 - 1 do
      local x, y = Cval(v + 4 * r), Cval(v + 1 + 4 * r)
      if y[1] ~= x[1] or y[2] ~= x[2] + 1 then
        fail("the MMA's C values %d and %d are not neighbours along N", v, v + 1)
      end
    end
  end

  local cpA = copy_partition(BM, BK, threads)
  local cpB = copy_partition(BN, BK, threads)
  local swA, triedA = c.swizzle, nil
  local swB, triedB = c.swizzle, nil
  if not swA then
    swA, triedA = choose_swizzle("A", cpA, ldA, ldA_rest, BM, BK, threads)
    swB, triedB = choose_swizzle("B", cpB, ldB, ldB_rest, BN, BK, threads)
  end

  local rowsA, rowsB = copy_row_step("A", cpA), copy_row_step("B", cpB)
  if cpA.n > 32 or cpB.n > 32 then   -- the kernel's row masks are 32 bits
    fail("%d and %d copies per thread for A and B: at most 32 (more threads "
      .. "or a smaller tile)", cpA.n, cpB.n)
  end
  local function range(n, f)
    local t = {}
    for i = 0, n - 1 do t[#t + 1] = f(i) end
    return t
  end
  local cp_split = function(sw, cp)
    return commutes(sw, range(threads, cp.s_thr), range(cp.n, cp.s_rest))
  end
  -- ldmatrix: the thread's offset plus the k-step, then the fragment step
  local ld_split = function(sw, ld, rest)
    local lanes, warps = cute.size(ld:mode(0)), cute.size(ld:mode(1))
    local ks, fr = cute.size(rest:mode(1)), cute.size(rest:mode(0))
    local xs = {}
    for l = 0, lanes - 1 do
      for w = 0, warps - 1 do
        for k = 0, ks - 1 do xs[#xs + 1] = ld(l, w) + rest(0, k) end
      end
    end
    return commutes(sw, xs, range(fr, function(i) return rest(i, 0) end))
  end
  local idx = function(w) return w == 64 and "long long" or "int" end
  local subst = {
    THREADS = threads, WARPS_M = WM .. "u", GROUP = c.group,
    BM = BM, BN = BN, BK = BK,
    STAGES = S, A_STAGE_BYTES = (BM * BK * 2) .. "u",
    B_STAGE_BYTES = (BN * BK * 2) .. "u",
    KSTEPS = (BK // 16) .. "u", MI = (BM // (16 * WM)) .. "u",
    NJ = (BN // (8 * WN)) .. "u", CPA_N = cpA.n .. "u", CPB_N = cpB.n .. "u",
    TAB = ctype[ab], TC = ctype[tc], MMA = mma_fn[ab],
    IA = idx(widths.a), IB = idx(widths.b), IC = idx(widths.c),
    CPA_ROWS = rowsA, CPB_ROWS = rowsB,
    CPA_SPLIT = tostring(cp_split(swA, cpA)), CPB_SPLIT = tostring(cp_split(swB, cpB)),
    LDA_SPLIT = tostring(ld_split(swA, ldA, ldA_rest)),
    LDB_SPLIT = tostring(ld_split(swB, ldB, ldB_rest)),
  }
  local body = KERNEL:gsub("[%u_]+", function(w) return subst[w] end)
  local emit = require("cute.cuda.core").codegen
  local parts = { require("cute.cuda.core").prelude, "#include <cute/device.h>",
    emit("cpA_crd", cpA.c_thr), emit("cpA_crest", cpA.c_rest),
    emit("cpA_s", cpA.s_thr), emit("cpA_srest", cpA.s_rest),
    emit("cpB_crd", cpB.c_thr), emit("cpB_crest", cpB.c_rest),
    emit("cpB_s", cpB.s_thr), emit("cpB_srest", cpB.s_rest),
    emit("swA", cute.composed(swA, 0, cute.layout(BM * BK))),
    emit("swB", cute.composed(swB, 0, cute.layout(BN * BK))),
    emit("ldA", ldA), emit("ldA_rest", ldA_rest),
    emit("ldB", ldB), emit("ldB_rest", ldB_rest),
    emit("Cthr", Cthr), emit("Cval", Cval),
    body }
  return {
    source = table.concat(parts, "\n"), name = "cute_gemm_sm80",
    block = { threads, 1, 1 }, smem = smem, tile = { BM, BN, BK }, group = c.group,
    info = { swizzle_A = tostring(swA), swizzle_B = tostring(swB),
      tried_A = triedA, tried_B = triedB, mma = tostring(mma),
      config = ("%dx%dx%d warps %dx%d stages %d"):format(BM, BN, BK, WM, WN, S) },
  }
end

--------------------------------------------------------------------- run --

-- (extent, stride) of each mode of a flat layout of rank 2 or 3.
local function flat_modes(what, L)
  local r = cute.rank(L)
  if r < 2 or r > 3 then
    fail("%s %s: need rank 2 (rows, K) or 3 (rows, K, batch)", what, tostring(L))
  end
  local out = {}
  for i = 0, r - 1 do
    local m = cute.coalesce(L:mode(i))   -- one leaf, unless hierarchical
    if cute.rank(m) ~= 1 then
      fail("%s %s: mode %d is hierarchical (%s); this kernel takes flat "
        .. "modes (cute.cuda.gemm takes any layout)", what, tostring(L), i, tostring(m))
    end
    local s = m:shape()
    out[i + 1] = { s, s == 1 and 0 or m:stride() }
  end
  if r == 2 then out[3] = { 1, 0 } end
  return out
end

-- 32 when every offset of the tensor (its whole batch) fits in 31 bits.
local function width(L)
  return cute.cosize(L) < 2 ^ 31 and 32 or 64
end

--- arguments(A, B, C) -> the kernel's argument list after the pointers,
-- the extents {M, N, K, L} and the index widths {a, b, c}, checking what
-- the kernel assumes (K-major A and B, 16-byte aligned rows).
function G.arguments(LA, LB, LC)
  local a, b, c = flat_modes("A", LA), flat_modes("B", LB), flat_modes("C", LC)
  local M, K, N, L = a[1][1], a[2][1], b[1][1], a[3][1]
  if b[2][1] ~= K or c[1][1] ~= M or c[2][1] ~= N or b[3][1] ~= L or c[3][1] ~= L then
    fail("A %s, B %s, C %s: need (M,K), (N,K), (M,N) [,L]", tostring(LA),
      tostring(LB), tostring(LC))
  end
  for _, op in ipairs { { "A", a }, { "B", b } } do
    local name, m = op[1], op[2]
    if K > 1 and m[2][2] ~= 1 then
      fail("%s must be K-major (stride 1 along K), got stride %d", name, m[2][2])
    end
    if K % 8 ~= 0 or m[1][2] % 8 ~= 0 or m[3][2] % 8 ~= 0 then
      fail("%s: K = %d and the row and batch strides (%d, %d) must be "
        .. "multiples of 8 (16-byte cp.async vectors)", name, K, m[1][2], m[3][2])
    end
  end
  -- pairs of C values along N are one vector where N has stride 1 and
  -- every row (and batch) starts at an even element
  local cvec = (N == 1 or c[2][2] == 1) and c[1][2] % 2 == 0 and c[3][2] % 2 == 0
    and 2 or 1
  return { M, N, K, a[1][2], b[1][2], c[1][2], c[2][2], a[3][2], b[3][2], c[3][2], cvec },
    { M = M, N = N, K = K, L = L },
    { a = width(LA), b = width(LB), c = width(LC) }
end

local built = {}   -- kernels by configuration, dtypes and index widths

local function config_key(cfg)
  local c = setmetatable(cfg or {}, { __index = G.defaults })
  return table.concat({ c.BM, c.BN, c.BK, c.warps[1], c.warps[2], c.stages,
    c.group, tostring(c.swizzle) }, ",")
end

--- prepare(cfg, A, B, C) -> launch handle (call it to run), plan, kernel
-- for cute.cuda tensors A (M,K[,L]), B (N,K[,L]) bf16 or f16 and C (M,N[,L])
-- f32, bf16 or f16.  The kernel is compiled once per configuration, dtypes
-- and index widths, whatever the sizes.
function G.prepare(cfg, A, B, C)
  local cuda = require "cute.cuda"
  if A.dtype ~= B.dtype then fail("A is %s but B is %s", A.dtype, B.dtype) end
  local args, e, w = G.arguments(A.layout, B.layout, C.layout)
  local key = table.concat({ config_key(cfg), A.dtype, C.dtype, w.a, w.b, w.c }, "|")
  local entry = built[key]
  if not entry then
    local p = G.build(cfg, { ab = A.dtype, c = C.dtype }, w)
    local params = { "ptr", "ptr", "ptr", "i32", "i32", "i32" }
    for i, x in ipairs { w.a, w.b, w.c, w.c, w.a, w.b, w.c } do
      params[6 + i] = x == 64 and "i64" or "i32"
    end
    params[14] = "i32"
    entry = { plan = p, kernel = cuda.kernel { source = p.source, name = p.name,
      params = params } }
    built[key] = entry
  end
  for _, name in ipairs { "A", "B" } do
    local T = name == "A" and A or B
    if T:ptr() % 16 ~= 0 then
      fail("%s starts at a device address that is not 16-byte aligned", name)
    end
  end
  local p = entry.plan
  local tiles = ((e.M + p.tile[1] - 1) // p.tile[1]) * ((e.N + p.tile[2] - 1) // p.tile[2])
  local plan = setmetatable({ grid = { tiles, e.L, 1 }, extents = e, widths = w },
    { __index = p })
  if C:ptr() % (2 * require("cute.cuda.core").dtypes[C.dtype].size) ~= 0 then
    args[#args] = 1    -- C's first pair is not vector-aligned
  end
  local all = { A, B, C }
  for i = 1, #args do all[3 + i] = args[i] end
  return entry.kernel:prepare { grid = plan.grid, block = p.block, smem = p.smem,
    args = all }, plan, entry.kernel
end

--- run(cfg, A, B, C): C = A B^T on the device (asynchronous); the plan.
function G.run(cfg, A, B, C)
  local h, p = G.prepare(cfg, A, B, C)
  h()
  return p
end

return G
