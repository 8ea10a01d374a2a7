--- cute.cuda.kernels -- memory-bound kernels written on the device library
-- (#include <cute/device.h>) from layouts the script computes: the
-- paper's COPY, the swizzled transpose and a row softmax.  Each builder
-- checks its operands, plans from their layouts, compiles once per plan
-- (cute.cuda.kernel: memory and disk cache) and returns a launch handle
-- and the plan; calling the handle runs the kernel again.
--
--   local K = require "cute.cuda.kernels"
--   local h, plan = K.copy(src, dst)          -- dst(i) = src(i)
--   K.plan.copy(src, dst).source              -- the CUDA C, without a GPU
--   local h = K.transpose(A, B)                -- B(m,n) = A(m,n), A column-
--                                              -- and B row-major, any M, N
--   local h = K.softmax(X, Y)                  -- Y(r,:) = softmax(X(r,:))
local cute = require "cute"
local E = require "cute.error"

local K = {}

-- bytes and device-library types by dtype: cuda/'s table (core.dtypes)
local esize, ctype = {}, {}
for name, d in pairs(require("cute.cuda.core").dtypes) do
  esize[name], ctype[name] = d.size, d.device
end

local function fail(op, fmt, ...)
  E.raise(("cute.cuda.kernels.%s: " .. fmt):format(op, ...))
end

local function is_tensor(T)
  return type(T) == "table" and T.layout and T.dtype and T.ptr
end

local compiled = {}   -- kernels by source

local function kernel(source, name, params)
  local k = compiled[source]
  if not k then
    k = require("cute.cuda").kernel { source = source, name = name, params = params }
    compiled[source] = k
  end
  return k
end

local function fill(text, subst)
  return (text:gsub("[%u_][%u%d_]+", function(w) return subst[w] end))
end

-- The largest power of two of elements that divides n, the alignment of
-- every address in bytes and 16 bytes.
local function vector(n, bytes, ...)
  local v = 1
  while n % (2 * v) == 0 and 2 * v * bytes <= 16 do v = 2 * v end
  for _, a in ipairs { ... } do
    while a % (v * bytes) ~= 0 do v = v // 2 end
  end
  return v
end

------------------------------------------------------------------ COPY --

local COPY = [[
#include <cute/device.h>
typedef cute::vec_t<ELEM, VEC> V;
extern "C" __global__ void __launch_bounds__(THREADS)
cute_copy_dl(const ELEM *__restrict__ src, ELEM *__restrict__ dst) {
  /* Thread t moves vectors t, t + THREADS, ... of its block's chunk: the
     index i of each vector's first element is a multiple of VEC, where
     both layouts are VEC contiguous, aligned elements (the script made D
     the identity when it could, so VEC is the max common vector). */
  const IT i0 = ((IT)blockIdx.x * (THREADS * PER) + threadIdx.x) * VEC;
  V v[PER];
#pragma unroll
  for (int u = 0; u < PER; ++u) {
    const IT i = i0 + (IT)u * (THREADS * VEC);
    if (i < S_size) v[u] = *reinterpret_cast<const V *>(&src[S(i)]);
  }
#pragma unroll
  for (int u = 0; u < PER; ++u) {
    const IT i = i0 + (IT)u * (THREADS * VEC);
    if (i < S_size) *reinterpret_cast<V *>(&dst[D(i)]) = v[u];
  }
}
]]

K.plan = {}

-- The vector of a copy in the order of S: the largest power of two of
-- elements that the leading unit-stride run of coalesce(S) holds, that
-- divides every other stride (so every vector starts aligned), at most 16
-- bytes, and that the tensors' addresses are aligned to.
local function copy_vector(S, bytes, ...)
  local C = cute.coalesce(S)   -- flat: each mode is one leaf
  local first = C:mode(0)
  local v = vector(first:stride() == 1 and first:shape() or 1, bytes, ...)
  for i = 1, cute.rank(C) - 1 do
    local d = C:mode(i):stride()
    while d % v ~= 0 do v = v // 2 end
  end
  return v
end

--- plan.copy(src, dst [, {threads = 256, per_thread = 4}]) -> plan: the
-- paper's COPY dst(i) = src(i) over two layouts of one size.  Where dst is
-- injective and compact, the copy runs in the order of dst's offsets k:
-- dst[k] = src[(S o right_inverse(D))(k)], so the vector is CuTe's
-- max_common_vector(S, D) (the contiguous prefix of that composition),
-- as far as the other strides, 16 bytes and both addresses allow; other
-- pairs run in index order.  Tensors need only layout, dtype and ptr(): a
-- plan is made (and its source compiled) without a GPU.
function K.plan.copy(src, dst, opts)
  if not is_tensor(src) or not is_tensor(dst) then
    fail("copy", "src and dst must be cute.cuda tensors")
  end
  if src.dtype ~= dst.dtype then fail("copy", "dtypes differ (%s, %s)", src.dtype, dst.dtype) end
  local n = cute.size(src.layout)
  if cute.size(dst.layout) ~= n then
    fail("copy", "sizes differ: %s and %s", tostring(src.layout), tostring(dst.layout))
  end
  opts = opts or {}
  local bytes = esize[src.dtype]
  local S, D = src.layout, dst.layout
  local RI = cute.right_inverse(D)
  if cute.size(RI) == n and cute.cosize(D) == n then   -- D is a bijection onto [0, n)
    S, D = cute.coalesce(cute.composition(S, RI)), cute.layout(n)
  end
  local common = cute.max_common_vector(src.layout, dst.layout)
  local v = math.min(copy_vector(S, bytes, src:ptr(), dst:ptr()),
    copy_vector(D, bytes, src:ptr(), dst:ptr()))
  local threads, per = opts.threads or 256, opts.per_thread or 4
  local emit = require("cute.cuda.core").codegen
  local source = table.concat({ require("cute.cuda.core").prelude,
    emit("S", S), emit("D", D),
    fill(COPY, { ELEM = ctype[src.dtype], VEC = v, THREADS = threads, PER = per,
      IT = n >= 2 ^ 31 and "unsigned long long" or "unsigned" }) }, "\n")
  local chunk = threads * per * v
  return { source = source, name = "cute_copy_dl", vector = v, common = common,
    grid = { (n + chunk - 1) // chunk, 1, 1 }, block = { threads, 1, 1 },
    args = { src, dst } }
end

------------------------------------------------------------- transpose --

local TRANSPOSE = [[
#include <cute/device.h>
extern "C" __global__ void __launch_bounds__(TILE * ROWS)
cute_transpose_dl(const ELEM *__restrict__ A, ELEM *__restrict__ B, int M, int N, IT lda, IT ldb) {
  /* A (M,N):(1,lda) and B (M,N):(ldb,1) at run time; TILE x TILE tiles
     through shared memory laid out by the script's sT (a swizzled
     layout), so both the column reads and the row writes are
     conflict-free; blocks of TILE x ROWS threads. */
  __shared__ ELEM tile[sT_cosize];
  const auto mA = cute::make_tensor(A, cute::dyn_layout<2, IT>{{M, N}, {1, lda}});
  const auto mB = cute::make_tensor(B, cute::dyn_layout<2, IT>{{M, N}, {ldb, 1}});
  const cute::coord<2, int> blk{{(int)blockIdx.x, (int)blockIdx.y}};
  const auto gA = cute::local_tile<TILE, TILE>(mA, blk);
  const auto gB = cute::local_tile<TILE, TILE>(mB, blk);
  const auto id = cute::local_tile<TILE, TILE>(cute::make_identity(mA), blk);
  const bool inside = ((int)blockIdx.x + 1) * TILE <= M && ((int)blockIdx.y + 1) * TILE <= N;
  const int x = threadIdx.x, y = threadIdx.y;
#pragma unroll
  for (int k = 0; k < TILE; k += ROWS)   /* along m: A is contiguous */
    if (inside || cute::elem_less(id(x, y + k), mA.layout.extents()))
      tile[sT(x, y + k)] = gA(x, y + k);
  __syncthreads();
#pragma unroll
  for (int k = 0; k < TILE; k += ROWS)   /* along n: B is contiguous */
    if (inside || cute::elem_less(id(y + k, x), mA.layout.extents()))
      gB(y + k, x) = tile[sT(y + k, x)];
}
]]

-- (extent, stride) of the two modes of a flat rank-2 layout.
local function modes2(op, what, L)
  if cute.rank(L) ~= 2 then fail(op, "%s %s must have rank 2", what, tostring(L)) end
  local out = {}
  for i = 0, 1 do
    local m = cute.coalesce(L:mode(i))
    if cute.rank(m) ~= 1 or type(m:shape()) == "table" then
      fail(op, "%s %s: mode %d must be flat", what, tostring(L), i)
    end
    out[i + 1] = { m:shape(), m:stride() }
  end
  return out
end

--- plan.transpose(A, B [, {tile = 64, rows = 16, swizzle}]) -> plan: B = A
-- for A column-major (M,N):(1,lda) and B row-major (M,N):(ldb,1), M and
-- N at run time (one kernel per dtype, tile and index width), through a
-- tile x tile shared tile laid out by Sw o (tile,tile):(tile,1).  The
-- default swizzle XORs the row's low 5 bits into the column's,
-- Sw<5,0,log2 tile>, which makes both phases conflict-free for 4-byte
-- elements.
function K.plan.transpose(A, B, opts)
  if not is_tensor(A) or not is_tensor(B) then
    fail("transpose", "A and B must be cute.cuda tensors")
  end
  local a, b = modes2("transpose", "A", A.layout), modes2("transpose", "B", B.layout)
  local M, N = a[1][1], a[2][1]
  if b[1][1] ~= M or b[2][1] ~= N or A.dtype ~= B.dtype then
    fail("transpose", "A %s and B %s: need one shape and one dtype", tostring(A.layout),
      tostring(B.layout))
  end
  if (M > 1 and a[1][2] ~= 1) or (N > 1 and b[2][2] ~= 1) then
    fail("transpose", "A must be column-major and B row-major (got %s, %s)",
      tostring(A.layout), tostring(B.layout))
  end
  opts = opts or {}
  local T, rows = opts.tile or 64, opts.rows or 16
  if (T ~= 32 and T ~= 64) or T % rows ~= 0 or T * rows > 1024 or T * rows < 32 then
    fail("transpose", "tile %d with %d rows of threads: need a tile of 32 or 64 that "
      .. "the rows divide, and 32 to 1024 threads", T, rows)
  end
  local sw = opts.swizzle or cute.swizzle(5, 0, T == 64 and 6 or 5)
  local wide = math.max(cute.cosize(A.layout), cute.cosize(B.layout)) >= 2 ^ 31
  local IT = wide and "long long" or "int"
  local emit = require("cute.cuda.core").codegen
  local source = table.concat({ require("cute.cuda.core").prelude,
    emit("sT", cute.composed(sw, 0, cute.layout({ T, T }, { T, 1 }))),
    fill(TRANSPOSE, { ELEM = ctype[A.dtype], IT = IT, TILE = T, ROWS = rows }) }, "\n")
  return { source = source, name = "cute_transpose_dl",
    params = { "ptr", "ptr", "i32", "i32", wide and "i64" or "i32", wide and "i64" or "i32" },
    grid = { (M + T - 1) // T, (N + T - 1) // T, 1 }, block = { T, rows, 1 },
    swizzle = tostring(sw), tile = T,
    args = { A, B, M, N, N > 1 and a[2][2] or M, M > 1 and b[1][2] or N } }
end

--------------------------------------------------------------- softmax --

local SOFTMAX = [[
#include <cute/device.h>
/* Row r of X (R,COLS):(ldx,1) -> Y, one block per row (R at run time).
   The row is read once into registers: thread t holds the vectors of
   Row(t, p), p < PER (the script's thread-value layout of a row), so the
   kernel moves the bytes it must and nothing more. */
extern "C" __global__ void __launch_bounds__(THREADS)
cute_softmax_dl(const TX *__restrict__ X, TY *__restrict__ Y, int R, IT ldx, IT ldy) {
  __shared__ float scratch[THREADS / 32];
  typedef cute::vec_t<TX, VEC> VX;
  typedef cute::vec_t<TY, VEC> VY;
  const IT r = blockIdx.x;
  const TX *x = X + r * ldx;
  TY *y = Y + r * ldy;
  VX v[PER];
#pragma unroll
  for (int p = 0; p < PER; ++p)
    v[p] = *reinterpret_cast<const VX *>(&x[Row(threadIdx.x, p)]);
  float m = -INFINITY;
#pragma unroll
  for (int p = 0; p < PER; ++p)
#pragma unroll
    for (int e = 0; e < VEC; ++e) m = fmaxf(m, cute::to_float(v[p][e]));
  m = cute::block_reduce<THREADS>(m, cute::max_op{}, scratch);
  float f[PER][VEC], s = 0.f;
#pragma unroll
  for (int p = 0; p < PER; ++p)
#pragma unroll
    for (int e = 0; e < VEC; ++e) {
      f[p][e] = __expf(cute::to_float(v[p][e]) - m);
      s += f[p][e];
    }
  s = cute::block_reduce<THREADS>(s, cute::sum_op{}, scratch);
  const float inv = 1.f / s;
#pragma unroll
  for (int p = 0; p < PER; ++p) {
    VY w;
#pragma unroll
    for (int e = 0; e < VEC; ++e) w[e] = cute::from_float<TY>(f[p][e] * inv);
    *reinterpret_cast<VY *>(&y[Row(threadIdx.x, p)]) = w;
  }
}
]]

--- plan.softmax(X, Y [, threads]) -> plan: Y(r,:) = softmax(X(r,:))
-- for X, Y (R,COLS) row-major (rows at any pitch), bf16/f16/f32, f32
-- arithmetic.  COLS is static (the row lives in registers: COLS / threads
-- values per thread, in vectors of 16 bytes); R and the pitches are
-- kernel arguments.
function K.plan.softmax(X, Y, threads)
  if not is_tensor(X) or not is_tensor(Y) then
    fail("softmax", "X and Y must be cute.cuda tensors")
  end
  local x, y = modes2("softmax", "X", X.layout), modes2("softmax", "Y", Y.layout)
  local R, COLS = x[1][1], x[2][1]
  if y[1][1] ~= R or y[2][1] ~= COLS then fail("softmax", "X and Y shapes differ") end
  if (COLS > 1 and (x[2][2] ~= 1 or y[2][2] ~= 1)) then
    fail("softmax", "rows must be contiguous (stride 1 along columns)")
  end
  local bx, by = esize[X.dtype], esize[Y.dtype]
  local ldx, ldy = R > 1 and x[1][2] or COLS, R > 1 and y[1][2] or COLS
  local vec = vector(COLS, math.max(bx, by), ldx * bx, ldy * by, X:ptr(), Y:ptr())
  threads = threads or math.max(32, math.min(1024, COLS // (vec * 4)))
  if COLS % (vec * threads) ~= 0 or threads % 32 ~= 0 then
    fail("softmax", "%d columns do not split into %d threads x vectors of %d",
      COLS, threads, vec)
  end
  local per = COLS // (vec * threads)
  if per > 16 then fail("softmax", "%d values per thread: use more threads", per * vec) end
  -- thread t, vector p -> the first column of the vector: (VEC,THREADS,PER)
  local Row = cute.layout({ threads, per }, { vec, vec * threads })
  local wide = math.max(cute.cosize(X.layout), cute.cosize(Y.layout)) >= 2 ^ 31
  local IT = wide and "long long" or "int"
  local emit = require("cute.cuda.core").codegen
  local source = table.concat({ require("cute.cuda.core").prelude, emit("Row", Row),
    fill(SOFTMAX, { TX = ctype[X.dtype], TY = ctype[Y.dtype], VEC = vec,
      THREADS = threads, PER = per, IT = IT }) }, "\n")
  return { source = source, name = "cute_softmax_dl",
    params = { "ptr", "ptr", "i32", wide and "i64" or "i32", wide and "i64" or "i32" },
    grid = { R, 1, 1 }, block = { threads, 1, 1 }, vector = vec, per = per,
    row = tostring(Row), args = { X, Y, R, ldx, ldy } }
end

-- The public forms: plan, compile once per source, prepare the launch.
for _, name in ipairs { "copy", "transpose", "softmax" } do
  K[name] = function(...)
    local plan = K.plan[name](...)
    local k = kernel(plan.source, plan.name, plan.params)
    return k:prepare { grid = plan.grid, block = plan.block, args = plan.args }, plan
  end
end

return K
