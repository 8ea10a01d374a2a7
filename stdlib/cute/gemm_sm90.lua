--- cute.gemm_sm90 -- the Hopper GEMM, derived from layouts: TMA loads into
-- a ring of shared-memory stages guarded by mbarriers, one producer warp,
-- two consumer warpgroups issuing wgmma from shared-memory descriptors,
-- a predicated epilogue, tiles scheduled persistently over the SMs.
--
--   C(m,n,l) = alpha * sum_k A(m,k,l) * B(n,k,l) + beta * C(m,n,l)
--
-- for A (M,K[,L]), B (N,K[,L]), C (M,N[,L]) with f16 or bf16 A and B, f32
-- accumulation, C in f16, bf16 or f32.  Each of A and B may be K-major or
-- M/N-major (Table 3's NN, NT, TN, TT): the script
--   * synthesises each operand's shared-memory layout (cute.smem: swizzle
--     atom + tiling, conflict-free for the TMA writes and the wgmma reads);
--   * takes the TMA boxes, their coordinates and the tensor map of the
--     global layout (dims, byte strides, swizzle; residues read as zeros)
--     from cute.make_tma_copy of the global and shared layouts;
--   * derives the wgmma descriptors (swizzle mode, leading and stride byte
--     offsets, the start offset of each warpgroup and k-step) by checking
--     the layout against the descriptor's canonical form at every element
--     an instruction reads;
--   * emits one kernel whose sizes and C strides are run-time arguments,
--     so one compiled kernel serves every M, N, K, L.
-- C whose unit stride is along M is computed as C^T = B A^T (operands
-- swapped), so the epilogue always writes along a unit-stride N.
--
--   local sm90 = require "cute.gemm_sm90"
--   local plan = sm90.plan(A, B, C)        -- cute.cuda tensors; or nil, why
--   sm90.gemm(A, B, C, {alpha = 1, beta = 0})
local core = require "cute.core"
local E = require "cute.error"
local smem = require "cute.smem"
local tma = require "cute.tma"

local M = {}

local C_DTYPES = { f16 = true, bf16 = true, f32 = true }

-- The bytes of an element of dtype t: cuda/'s dtype table.
local function ebytes(t) return require("cute.cuda.core").dtypes[t].size end
local mma_type = { f16 = "f16", bf16 = "bf16" }

M.config = { BM = 128, BN = 256, BK = 64, stages = 4, consumers = 2,
             group = 8 }

-- ----------------------------------------------------------- descriptors --
local log2 = core.log2

--- The wgmma descriptor of operand tile `s` (a cute.smem synthesis) for
-- an instruction reading `rows` MN elements by 16 K elements: swizzle mode
-- (1: 128 B, 2: 64 B, 3: 32 B, 0: none), LBO and SBO in bytes, and the
-- byte offsets of each block of `rows` MN and each 16-wide k-step, every
-- element an instruction reads checked against the canonical form.
function M.descriptor(s, rows)
  local P, eb = s.plain, s.element_bytes
  local W = s.swizzle_bytes // eb         -- atom width in elements
  local mode = ({ [128] = 1, [64] = 2, [32] = 3, [16] = 0 })[s.swizzle_bytes]
  local T = 16 // eb                      -- elements per 16 bytes
  local lbo, sbo, canon
  if s.major == "K" then
    sbo = P(8, 0)
    if mode == 0 then   -- ((8,m),(T,2)):((T,SBO),(1,LBO))
      lbo = P(0, T)
      canon = function(x, y) return (x % 8) * T + (x // 8) * sbo + y % T + (y // T) * lbo end
    else                -- ((8,m),(T,2)):((W,SBO),(1,T)) within the atom
      lbo = T             -- unused: 16 bytes, as the hardware ignores it
      canon = function(x, y) return (x % 8) * W + (x // 8) * sbo + y end
    end
  else
    sbo = P(0, 8)
    if mode == 0 then   -- ((T,1,m),(8,k)):((1,T,SBO),(T,LBO))
      lbo = P(0, 8)
      sbo = P(T, 0)
      canon = function(x, y) return x % T + (x // T) * sbo + (y % 8) * T + (y // 8) * lbo end
    else                -- ((T,W/T,m),(8,k)):((1,T,LBO),(W,SBO))
      lbo = rows > W and P(W, 0) or T
      canon = function(x, y) return x % W + (x // W) * lbo + (y % 8) * W + (y // 8) * sbo end
    end
  end
  local mn, k = s.tile[1], s.tile[2]
  local blocks, ksteps = {}, {}
  for b = 0, mn // rows - 1 do blocks[#blocks + 1] = P(b * rows, 0) * eb end
  for j = 0, k // 16 - 1 do ksteps[#ksteps + 1] = P(0, 16 * j) * eb end
  for b = 0, mn // rows - 1 do
    for j = 0, k // 16 - 1 do
      local o = P(b * rows, 16 * j)
      for x = 0, rows - 1 do
        for y = 0, 15 do
          if P(b * rows + x, 16 * j + y) ~= o + canon(x, y) then
            E.raise(("cute.gemm_sm90: layout %s is not a wgmma canonical "
              .. "layout at (%d, %d)"):format(tostring(s.layout), b * rows + x,
              16 * j + y))
          end
        end
      end
    end
  end
  local need = s.swizzle_bytes * 8     -- the swizzle repeats every 8 rows
  return { mode = mode, lbo = lbo * eb, sbo = sbo * eb, blocks = blocks,
           ksteps = ksteps, align = math.max(need, 128),
           swizzle = core.swizzle(log2(s.swizzle_bytes // 16), 4, 3),
           -- the 64-bit word without its start address
           hi = (mode << 62) | (((sbo * eb) >> 4) << 32) | (((lbo * eb) >> 4) << 16) }
end

-- --------------------------------------------------------- global layouts --
-- The single (stride) of mode i of L after coalescing, or nil when the mode
-- is hierarchical with no single stride (a GETT fold TMA would need more
-- dimensions for).
local function mode_stride(L, i)
  local m = core.coalesce(L:mode(i))
  local d = m:stride()
  if type(d) == "table" then
    if core.size(m) == 1 then return 0 end
    return nil
  end
  return d
end

-- {major, strides = {mn, k, l}} of an operand (M,K[,L]) or nil, why.
local function operand_view(what, L)
  local smn, sk = mode_stride(L, 0), mode_stride(L, 1)
  local sl = core.rank(L) == 3 and mode_stride(L, 2) or 0
  if not smn or not sk or not sl then
    return nil, ("%s %s has a hierarchical mode with no single stride (a TMA "
      .. "map of this GEMM describes one stride per mode)"):format(what, tostring(L))
  end
  local major = (sk == 1 or core.size(L:mode(1)) == 1) and "K"
    or (smn == 1 or core.size(L:mode(0)) == 1) and "MN" or nil
  if not major then
    return nil, ("%s %s has no unit stride along M/N or K"):format(what, tostring(L))
  end
  return { major = major, smn = smn, sk = sk, sl = sl }
end

-- ------------------------------------------------------------------ kernel --
-- Staged C rows are 32 floats padded to 40: the float2 writes of a
-- quarter warp (4 rows x 4 pairs) then fall in 16 distinct banks pairs.
local EPI_LD = 40

local PRELUDE = [[
#include <cute/smem.h>
#include <cute/sm90_mbarrier.h>
#include <cute/sm90_tma.h>
#include <cute/sm90_wgmma.h>
using namespace cute;
#define DI CUTE_DI
]]

local HALF = [[
typedef unsigned short TC;
DI u32 pack2(float lo, float hi) { u32 r; asm("cvt.rn.TY2.f32 %0, %1, %2;" : "=r"(r) : "f"(hi), "f"(lo)); return r; }
DI float load1(const TC *p) { return unpack(*p); }
DI void store1(TC *p, float x) { *p = (TC)pack2(x, 0.f); }
DI void load4(const TC *p, float &a, float &b, float &c, float &d) {
  const uint2 u = *(const uint2 *)p;
  a = unpack(u.x & 0xffffu); b = unpack(u.x >> 16); c = unpack(u.y & 0xffffu); d = unpack(u.y >> 16);
}
DI void store4(TC *p, float a, float b, float c, float d) { *(uint2 *)p = make_uint2(pack2(a, b), pack2(c, d)); }
]]

local PACK = {
  bf16 = [[DI float unpack(u32 h) { float f; asm("mov.b32 %0, %1;" : "=f"(f) : "r"(h << 16)); return f; }
]] .. HALF:gsub("TY2", "bf16x2"),
  f16 = [[DI float unpack(u32 h) { float f; asm("{ .reg .f16 x; mov.b16 x, %1; cvt.f32.f16 %0, x; }" : "=f"(f) : "h"((unsigned short)h)); return f; }
]] .. HALF:gsub("TY2", "f16x2"),
  f32 = [[typedef float TC;
DI float load1(const TC *p) { return *p; }
DI void store1(TC *p, float x) { *p = x; }
DI void load4(const TC *p, float &a, float &b, float &c, float &d) {
  const float4 u = *(const float4 *)p; a = u.x; b = u.y; c = u.z; d = u.w;
}
DI void store4(TC *p, float a, float b, float c, float d) { *(float4 *)p = make_float4(a, b, c, d); }
]],
}

-- wgmma m64nNk16 with the accumulator array `acc` (N/2 floats).
local function wgmma_fn(n, ta, tb, transA, transB)
  local nacc = n // 2
  local regs, ins = {}, {}
  for i = 0, nacc - 1 do
    regs[#regs + 1] = "%" .. i
    ins[#ins + 1] = ('"+f"(d[%d])'):format(i)
  end
  return ([[
DI void wgmma(float *d, u64 da, u64 db, int scale_d) {
  asm volatile("{ .reg .pred p; setp.ne.b32 p, %%%d, 0;\n"
    "wgmma.mma_async.sync.aligned.m64n%dk16.f32.%s.%s {%s}, %%%d, %%%d, p, 1, 1, %d, %d; }"
    : %s
    : "l"(da), "l"(db), "r"(scale_d));
}
]]):format(nacc + 2, n, ta, tb, table.concat(regs, ", "), nacc, nacc + 1,
    transA, transB, table.concat(ins, ", "))
end

local KERNEL = [[
extern "C" __global__ void __launch_bounds__(THREADS, 1)
cute_gemm_sm90(const void *__restrict__ mapA, const void *__restrict__ mapB,
               TC *C, int M, int N, int K, int L, long long csm,
               long long csl, float alpha, float beta, int vec) {
  extern __shared__ unsigned char smem_raw[];
  const u32 base = (smem_u32(smem_raw) + 1023u) & ~1023u;
  const u32 full = base + BAR_OFF, empty = full + 8 * STAGES;
  const int wg = threadIdx.x / 128;
  if (threadIdx.x == 0) {
    for (int s = 0; s < STAGES; ++s) {
      mbar_init(full + 8 * s, 1);
      mbar_init(empty + 8 * s, CONSUMER_WARPS);
    }
    mbar_fence_init();
  }
  __syncthreads();
  const int tm = (M + BM - 1) / BM, tn = (N + BN - 1) / BN;
  const int tiles = tm * tn * L, kblocks = (K + BK - 1) / BK;
  if (wg == 0) {
    setmaxnreg_dec<40>();
    if (threadIdx.x == 0) {
      tma_prefetch(mapA);
      tma_prefetch(mapB);
      int stage = 0; u32 phase = 0;
      for (int tile = blockIdx.x; tile < tiles; tile += gridDim.x) {
TILE_COORDS
        for (int kb = 0; kb < kblocks; ++kb) {
          mbar_wait(empty + 8 * stage, phase ^ 1);
          const u32 bar = full + 8 * stage;
          mbar_expect_tx(bar, STAGE_TX);
          const u32 sa = base + stage * A_STAGE, sb = base + B_OFF + stage * B_STAGE;
          const int k0 = kb * BK;
LOADS
          if (++stage == STAGES) { stage = 0; phase ^= 1; }
        }
      }
    }
  } else {
    setmaxnreg_inc<REGS>();
    const int c = wg - 1, t = threadIdx.x % 128, lane = t % 32;
    float acc[NACC];
    float *sc = (float *)(smem_raw + (base - smem_u32(smem_raw)) + EPI_OFF + c * EPI_BYTES);
    const int wr = (t / 32) * 16 + lane / 4, wc = (lane % 4) * 2;
    int stage = 0; u32 phase = 0;
    for (int tile = blockIdx.x; tile < tiles; tile += gridDim.x) {
TILE_COORDS
      int prev = -1;
      for (int kb = 0; kb < kblocks; ++kb) {
        mbar_wait(full + 8 * stage, phase);
        const u32 sa = base + stage * A_STAGE, sb = base + B_OFF + stage * B_STAGE;
        wgmma_fence();
MMAS
        wgmma_commit();
        wgmma_wait<1>();
        __syncwarp();
        if (prev >= 0 && lane == 0) mbar_arrive(empty + 8 * prev);
        prev = stage;
        if (++stage == STAGES) { stage = 0; phase ^= 1; }
      }
      wgmma_wait<0>();
      TC *Cl = C + (long long)l * csl;
      if (kblocks == 0)
#pragma unroll
        for (int i = 0; i < NACC; ++i) acc[i] = 0.f;
      __syncwarp();
      if (prev >= 0 && lane == 0) mbar_arrive(empty + 8 * prev);
      // the epilogue, 32 columns at a time through this warpgroup's
      // staging rows (EPI_LD floats: conflict-free float2 writes)
#pragma unroll
      for (int ch = 0; ch < BN / 32; ++ch) {
        asm volatile("bar.sync %0, 128;" :: "r"(c + 1) : "memory");
#pragma unroll
        for (int j = 0; j < 4; ++j)
#pragma unroll
          for (int i = 0; i < 2; ++i)
            *(float2 *)&sc[(wr + 8 * i) * EPI_LD + 8 * j + wc] =
              make_float2(acc[16 * ch + 4 * j + 2 * i], acc[16 * ch + 4 * j + 2 * i + 1]);
        asm volatile("bar.sync %0, 128;" :: "r"(c + 1) : "memory");
        store_chunk(sc, Cl, m0 + c * 64, n0 + ch * 32, M, N, csm, alpha, beta, vec, t);
      }
    }
  }
}
]]

-- Rows of 32 staged floats -> C: 4 columns per thread (a vector store
-- when the row pitch and address allow), predicated on M and N.
local STORE_CHUNK = [[
DI void store_chunk(const float *sc, TC *C, int r0, int c0, int M, int N,
                    long long csm, float alpha, float beta, int vec, int t) {
  for (int idx = t; idx < 64 * 8; idx += 128) {
    const int r = r0 + idx / 8, cc = c0 + (idx % 8) * 4;
    if (r >= M || cc >= N) continue;
    const float4 v = *(const float4 *)&sc[(idx / 8) * EPI_LD + (idx % 8) * 4];
    float x0 = alpha * v.x, x1 = alpha * v.y, x2 = alpha * v.z, x3 = alpha * v.w;
    TC *p = C + (long long)r * csm + cc;
    if (vec && cc + 3 < N) {
      if (beta != 0.f) {
        float o0, o1, o2, o3;
        load4(p, o0, o1, o2, o3);
        x0 += beta * o0; x1 += beta * o1; x2 += beta * o2; x3 += beta * o3;
      }
      store4(p, x0, x1, x2, x3);
    } else {
      if (beta != 0.f) {
        x0 += beta * load1(p);
        if (cc + 1 < N) x1 += beta * load1(p + 1);
        if (cc + 2 < N) x2 += beta * load1(p + 2);
        if (cc + 3 < N) x3 += beta * load1(p + 3);
      }
      store1(p, x0);
      if (cc + 1 < N) store1(p + 1, x1);
      if (cc + 2 < N) store1(p + 2, x2);
      if (cc + 3 < N) store1(p + 3, x3);
    }
  }
}
]]

-- Tile index -> (m0, n0, l): groups of `group` tile rows, walked column by
-- column inside a group, so concurrent CTAs share A and B panels in L2.
local function tile_coords(cfg)
  return ([[
      const int l = tile / (tm * tn), tt = tile %% (tm * tn);
      const int gfirst = (tt / (%d * tn)) * %d;
      const int gsize = min(tm - gfirst, %d), gi = tt %% (%d * tn);
      const int m0 = (gfirst + gi %% gsize) * BM, n0 = (gi / gsize) * BN;
      (void)l;]])
    :format(cfg.group, cfg.group, cfg.group, cfg.group)
end

-- The producer's copies of one operand (t: its cute.make_tma_copy), one
-- TMA per box: the coordinate of TMA dimension i is the tile origin of
-- its gmem mode (mn0, k0 or the batch l) plus the box's offset in the tile.
local function loads(name, t, dst, mn0)
  local out = {}
  local origin = { [0] = mn0, "k0", "l" }
  for _, c in ipairs(t:copies()) do
    local x = {}
    for i, j in ipairs(t.modes) do
      x[i] = j == 2 and "l" or ("%s + %d"):format(origin[j], c.coord[i])
    end
    out[#out + 1] = ("          tma_load_%dd(%s + %d, map%s, bar, %s);")
      :format(t.rank, dst, c.smem * t.element_bytes, name, table.concat(x, ", "))
  end
  return table.concat(out, "\n")
end

-- ------------------------------------------------------------------- plan --
-- A cute.cuda tensor's device address, or a description's `address` (0).
local function address(T)
  if T.ptr then return T:ptr() end
  return T.address or 0
end

local function fail_view(...) return nil, table.concat({ ... }) end

--- plan(A, B, C [, opts]) on cute.cuda tensors -> the plan (source,
-- launch shape, tensor-map descriptions, descriptors, layouts), or nil and
-- the reason this GEMM cannot run on the Hopper path.
function M.plan(A, B, C, opts)
  local operands = { A, B, C }
  for k = 1, 3 do
    local T = operands[k]
    E.argcheck(type(T) == "table" and getmetatable(T.layout) == core.metatables.Layout
      and type(T.dtype) == "string", "gemm_sm90.plan", k,
      "cute.cuda tensor or {layout = cute.Layout, dtype = name}", T)
  end
  E.argcheck(opts == nil or type(opts) == "table", "gemm_sm90.plan", 4, "options table", opts)
  opts = opts or {}
  local cfg = {}
  for k, v in pairs(M.config) do cfg[k] = opts[k] or v end
  local ta, tb, tc = A.dtype, B.dtype, C.dtype
  if not mma_type[ta] or tb ~= ta then
    return fail_view("A and B must both be f16 or bf16 (got ", ta, ", ", tb, ")")
  end
  if not C_DTYPES[tc] then return fail_view("C must be f16, bf16 or f32 (got ", tc, ")") end
  local e = require("cute.gemm").extents(A.layout, B.layout, C.layout)
  local batched = core.rank(A.layout) == 3 and e.L > 1
  local csm, csn = mode_stride(C.layout, 0), mode_stride(C.layout, 1)
  local csl = core.rank(C.layout) == 3 and mode_stride(C.layout, 2) or 0
  if not csm or not csn or not csl then
    return fail_view("C ", tostring(C.layout), " has a hierarchical mode")
  end
  -- C^T = B A^T when C's unit stride is along M
  local swap = csn ~= 1 and (csm == 1 or e.N == 1)
  if csn ~= 1 and not swap then
    return fail_view("C ", tostring(C.layout), " has no unit stride along M or N")
  end
  local X, Y = A, B
  if swap then X, Y, csm = B, A, csn end
  local vx, why = operand_view("A", X.layout)
  if not vx then return nil, why end
  local vy, why2 = operand_view("B", Y.layout)
  if not vy then return nil, why2 end
  local eb = ebytes(ta)
  for _, v in ipairs { { "A", vx, X }, { "B", vy, Y } } do
    local strides = { v[2].major == "K" and v[2].smn or v[2].sk, v[2].sl }
    for i = 1, batched and 2 or 1 do
      if (strides[i] * eb) % 16 ~= 0 then
        return fail_view(v[1], " ", tostring(v[3].layout), ": row pitch ",
          strides[i] * eb, " bytes is not a multiple of 16, which a TMA map needs")
      end
    end
    if (address(v[3]) % 16) ~= 0 then
      return fail_view(v[1], ": address not 16-byte aligned, which a TMA map needs")
    end
  end
  local BM, BN, BK = cfg.BM, cfg.BN, cfg.BK
  local sA = smem.synthesize { tile = { BM, BK }, major = vx.major, dtype = ta,
                               copy = "tma", mma = "wgmma" }
  local sB = smem.synthesize { tile = { BN, BK }, major = vy.major, dtype = ta,
                               copy = "tma", mma = "wgmma" }
  local dA, dB = M.descriptor(sA, 64), M.descriptor(sB, BN)
  local Mx, Nx = e.M, e.N
  if swap then Mx, Nx = e.N, e.M end
  -- each operand's (MN, K[, L]) and its CTA tile: the TMA copy
  local function copy_of(v, T, s, mn_extent)
    local shape, stride = { mn_extent, e.K }, { v.smn, v.sk }
    if batched then shape[3], stride[3] = e.L, v.sl end
    return pcall(tma.make_tma_copy, "SM90_TMA_LOAD",
      { layout = core.layout(shape, stride), dtype = T.dtype }, s.layout, s.tile)
  end
  local okA, tA = copy_of(vx, X, sA, Mx)
  if not okA then return nil, "A: " .. tostring(tA) end
  local okB, tB = copy_of(vy, Y, sB, Nx)
  if not okB then return nil, "B: " .. tostring(tB) end
  local a_stage, b_stage = BM * BK * eb, BN * BK * eb
  local bar_off = cfg.stages * (a_stage + b_stage)
  local smem_bytes = bar_off + 16 * cfg.stages + cfg.consumers * 64 * EPI_LD * 4 + 1024
  -- the MMAs of one stage: consumer c reads A rows 64c.., all of B
  local mmas = {}
  for j = 1, BK // 16 do
    mmas[#mmas + 1] = ("        wgmma(acc, wgmma_desc(0x%xull, sa + (c ? %d : %d)), wgmma_desc(0x%xull, sb + %d), kb > 0 || %d);")
      :format(dA.hi, dA.blocks[2] + dA.ksteps[j], dA.blocks[1] + dA.ksteps[j],
        dB.hi, dB.blocks[1] + dB.ksteps[j], j - 1)
  end
  local subst = {
    THREADS = 128 * (cfg.consumers + 1), BM = BM, BN = BN, BK = BK,
    STAGES = cfg.stages, CONSUMER_WARPS = 4 * cfg.consumers,
    BAR_OFF = bar_off, A_STAGE = a_stage, B_STAGE = b_stage,
    B_OFF = cfg.stages * a_stage, STAGE_TX = a_stage + b_stage,
    REGS = cfg.consumers == 2 and 232 or 240, NACC = BN // 2,
    TILE_COORDS = tile_coords(cfg),
    LOADS = loads("A", tA, "sa", "m0") .. "\n" .. loads("B", tB, "sb", "n0"),
    MMAS = table.concat(mmas, "\n"),
    EPI_OFF = bar_off + 16 * cfg.stages, EPI_BYTES = 64 * EPI_LD * 4, EPI_LD = EPI_LD,
  }
  local function fill(w) return subst[w] end
  local body = KERNEL:gsub("[%u][%u_]+", fill):gsub("[%u][%u_]+", fill)
  local source = table.concat({ PRELUDE, PACK[tc], (STORE_CHUNK:gsub("EPI_LD", EPI_LD)),
    wgmma_fn(BN, mma_type[ta], mma_type[ta], vx.major == "K" and 0 or 1,
             vy.major == "K" and 0 or 1), body }, "\n")
  local function map(t)
    return { dtype = t.dtype, dims = t.dims, strides = t.strides, box = t.box,
             swizzle = t.swizzle_bytes }
  end
  return {
    source = source, name = "cute_gemm_sm90", extents = e, swap = swap,
    M = Mx, N = Nx, K = e.K, L = e.L, csm = csm, csl = csl,
    tiles = ((Mx + BM - 1) // BM) * ((Nx + BN - 1) // BN) * e.L,
    block = 128 * (cfg.consumers + 1), smem = smem_bytes, config = cfg,
    smem_A = sA, smem_B = sB, desc_A = dA, desc_B = dB,
    map_A = map(tA), map_B = map(tB), tma_A = tA, tma_B = tB,
    operands = { X, Y }, majors = vx.major .. vy.major,
  }
end

-- ------------------------------------------------------------------ run --
local kernels = {}   -- compiled kernels by source

local function device_map(cuda, m, T)
  local bytes = cuda.core.tensor_map(m.dtype, T:ptr(), m.dims, m.strides,
                                     m.box, m.swizzle)
  local t = { bytes:byte(1, -1) }
  return cuda.buffer("u8", t)
end

--- The launch handle of plan p (compiling its kernel once per source);
-- the tensor maps live in device memory the handle keeps alive.
function M.prepare(p, C, opts)
  opts = opts or {}
  local cuda = require "cute.cuda"
  local k = kernels[p.source]
  if not k then
    local dev = cuda.device()
    k = cuda.kernel { source = p.source, name = p.name,
      arch = dev.arch == "sm_90" and "sm_90a" or "compute_90a",
      params = { "ptr", "ptr", "ptr", "i32", "i32", "i32", "i32", "i64",
                 "i64", "f32", "f32", "i32" } }
    kernels[p.source] = k
  end
  local X, Y = p.operands[1], p.operands[2]
  local mA, mB = device_map(cuda, p.map_A, X), device_map(cuda, p.map_B, Y)
  local sms = cuda.device().sm_count
  local vec = (p.csm % 4 == 0 and p.csl % 4 == 0
    and C:ptr() % (4 * ebytes(C.dtype)) == 0) and 1 or 0
  local h = k:prepare { grid = math.max(1, math.min(p.tiles, sms)),
    block = p.block, smem = p.smem, stream = opts.stream,
    args = { mA, mB, C, p.M, p.N, p.K, p.L, p.csm, p.csl,
             opts.alpha or 1, opts.beta or 0, vec } }
  -- the maps point into A and B: the handle keeps them alive with the maps
  h:arg(1, "ptr", mA, { mA, X, Y }):arg(2, "ptr", mB, { mB, X, Y })
  return h, k
end

--- gemm(A, B, C [, opts]): C = alpha A B + beta C on the Hopper path
-- (opts.alpha 1, opts.beta 0 by default); returns the plan, the launch
-- handle and the kernel, or raises the reason the path does not apply.
function M.gemm(A, B, C, opts)
  local p, why = M.plan(A, B, C, opts)
  if not p then E.raise("cute.gemm_sm90: " .. why) end
  local h, k = M.prepare(p, C, opts)
  h()
  return p, h, k
end

return M
