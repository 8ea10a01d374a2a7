/*
 * copy.c -- the paper's COPY (2.6.1), dst(i) = src(i) for i < size, as a
 * generated kernel planned from the two layouts.
 *
 * COPY may visit the indices in any order (3.4.2: permuting the iteration
 * is permuting both layouts alike), which is what the planner exploits:
 *
 *  1. Common refinement.  Both layouts are functions of one index i; their
 *     flattened shapes are split until they agree, so the copy becomes one
 *     loop nest of modes (n_k, a_k, b_k): extent, source stride,
 *     destination stride.   (8,(3,5)):(1,(57,8)) -> (8,15):(1,8) gives
 *     (8,1,1) (3,57,8) (5,8,24).  Shapes with no common refinement
 *     ((6,4) against (4,6)) take the generic kernel below.
 *  2. Order.  Modes are sorted by destination stride, so consecutive
 *     threads write consecutive addresses, then adjacent modes that continue
 *     each other in both tensors merge.
 *  3. Vectors.  A first mode contiguous in both (a = b = 1) is the common
 *     contiguous prefix; its size is the max common vector of the paper
 *     (right inverse, eq. 25), asked of the algebra.  The vector is the
 *     largest power of two of elements that divides it, fits 16 bytes and
 *     divides every other stride and both base offsets (alignment).
 *  4. Transpose.  If the destination-contiguous mode is strided in the
 *     source while another mode is source-contiguous, tiles go through
 *     shared memory: read along one, write along the other, the tile's
 *     layout Sw<t,0,t> o (T,T):(T,1) so neither access pattern conflicts on
 *     banks (the XOR spreads a column over all banks).
 *
 * The kernel is `extern "C" __global__ void cute_copy(const E *src, E *dst)`
 * with pointers already offset to the tensors' first elements; data are
 * copied as raw bits of the element's width.  src and dst must not overlap.
 */
#include "cute_cuda_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAXM CUTE_MAX_LEAVES

typedef struct cp_mode { int64_t n, a, b; } cp_mode;

typedef struct cp_nest {
  int n;
  cp_mode m[2 * MAXM];
} cp_nest;

typedef struct cp_ctx {
  const cute_cuda_copy_opts *o;
  int esize;                 /* bytes per element             */
  int64_t size;
  cute_cuda_copy_plan *plan;
} cp_ctx;

/* ------------------------------------------------------------ planning -- */
static int leaves(const cute_layout *L, int64_t *n, int64_t *d)
{
  int k, c = 0;
  for (k = 0; k < L->shape.nleaf; k++)
    if (L->shape.v[k] != 1) {
      n[c] = L->shape.v[k];
      d[c++] = L->stride.v[k];
    }
  return c;
}

/* Splits the two flat shapes until they agree; 0 if they cannot. */
static int refine(cp_nest *z, const cute_layout *S, const cute_layout *D)
{
  int64_t sn[MAXM], sd[MAXM], dn[MAXM], dd[MAXM];
  int ns = leaves(S, sn, sd), nd = leaves(D, dn, dd), i = 0, j = 0;
  z->n = 0;
  while (i < ns && j < nd) {
    int64_t e = sn[i] < dn[j] ? sn[i] : dn[j];
    if (sn[i] % e || dn[j] % e || z->n == 2 * MAXM) return 0;
    z->m[z->n++] = (cp_mode){e, sd[i], dd[j]};
    sn[i] /= e;
    sd[i] *= e;
    dn[j] /= e;
    dd[j] *= e;
    i += sn[i] == 1;
    j += dn[j] == 1;
  }
  return i == ns && j == nd;
}

static int64_t abs64(int64_t x) { return x < 0 ? -x : x; }

/* Destination stride order; stride-0 (broadcast) destinations go last. */
static int before(const cp_mode *x, const cp_mode *y)
{
  uint64_t kx = x->b ? (uint64_t)abs64(x->b) : UINT64_MAX;
  uint64_t ky = y->b ? (uint64_t)abs64(y->b) : UINT64_MAX;
  return kx < ky;
}

static void order_and_merge(cp_nest *z)
{
  int i, j, w = 0;
  for (i = 1; i < z->n; i++)   /* insertion sort: stable, n is small */
    for (j = i; j > 0 && before(&z->m[j], &z->m[j - 1]); j--) {
      cp_mode t = z->m[j];
      z->m[j] = z->m[j - 1];
      z->m[j - 1] = t;
    }
  for (i = 0; i < z->n; i++) {
    cp_mode *p = w ? &z->m[w - 1] : NULL;
    if (p && z->m[i].a == p->n * p->a && z->m[i].b == p->n * p->b)
      p->n *= z->m[i].n;
    else
      z->m[w++] = z->m[i];
  }
  z->n = w;
}

static int64_t gcd64(int64_t x, int64_t y)
{
  x = abs64(x);
  y = abs64(y);
  while (y) {
    int64_t t = x % y;
    x = y;
    y = t;
  }
  return x;
}

/* Elements per vector access (1 when mode 0 is not contiguous in both). */
static int vector_width(const cp_nest *z, int64_t common, int64_t soff,
                        int64_t doff, const cp_ctx *c)
{
  int64_t g, w = 1;
  int k, maxb = c->o->max_vector_bytes ? c->o->max_vector_bytes : 16;
  if (z->n == 0 || z->m[0].a != 1 || z->m[0].b != 1) return 1;
  g = gcd64(gcd64(common, z->m[0].n), gcd64(soff, doff));
  for (k = 1; k < z->n; k++) g = gcd64(g, gcd64(z->m[k].a, z->m[k].b));
  if (g == 0) g = z->m[0].n;   /* every stride and offset is 0 */
  while (g % (2 * w) == 0 && 2 * w * c->esize <= maxb) w *= 2;
  return (int)w;
}

/* ----------------------------------------------------------- emitting -- */
/* The flat layout (n_0, n_1, ...):(x_0, x_1, ...) of a list of modes,
 * strides taken from a (which = 0) or b (which = 1) and divided by w. */
static cute_cuda_status modes_layout(cute_layout *out, const cp_mode *m,
                                     int n, int which, int64_t w,
                                     cute_cuda_error *err)
{
  cute_tuple sh, st;
  cute_error e;
  int k, bad = 0;
  cute_tuple_clear(&sh);
  cute_tuple_clear(&st);
  if (n == 0) {
    bad = cute_tuple_int(&sh, 1) || cute_tuple_int(&st, 0);
  } else if (n == 1) {
    bad = cute_tuple_int(&sh, m[0].n) ||
          cute_tuple_int(&st, (which ? m[0].b : m[0].a) / w);
  } else {
    bad = cute_tuple_open(&sh, &e) || cute_tuple_open(&st, &e);
    for (k = 0; k < n && !bad; k++)
      bad = cute_tuple_leaf(&sh, m[k].n, 0, &e) ||
            cute_tuple_leaf(&st, (which ? m[k].b : m[k].a) / w, 0, &e);
    bad = bad || cute_tuple_close(&sh, &e) || cute_tuple_close(&st, &e);
  }
  if (bad || cute_layout_make(out, &sh, &st, &e))
    return cucu_fail(err, CUTE_CUDA_ELAYOUT,
                     "cute.cuda: copy: %d modes exceed the layout limits", n);
  return CUTE_CUDA_OK;
}

static const char *bits_type(int bytes)
{
  switch (bytes) {
  case 16: return "uint4";
  case 8: return "unsigned long long";
  case 4: return "unsigned";
  case 2: return "unsigned short";
  default: return "unsigned char";
  }
}

static void emit_head(cute_cuda_text *o, const char *E, unsigned threads)
{
  cute_cuda_text_printf(o, "typedef %s E;\n"
                           "extern \"C\" __global__ void __launch_bounds__(%u)"
                           "\ncute_copy(const E *__restrict__ src, "
                           "E *__restrict__ dst) {\n", E, threads);
}

static cute_cuda_status set_grid(cp_ctx *c, int64_t blocks,
                                 cute_cuda_error *err)
{
  if (blocks > 2147483647)
    return cucu_fail(err, CUTE_CUDA_EINVAL,
                     "cute.cuda: copy of %lld elements needs %lld blocks "
                     "(more than 2^31-1)", (long long)c->size,
                     (long long)blocks);
  c->plan->grid[0] = (unsigned)(blocks ? blocks : 1);
  c->plan->grid[1] = c->plan->grid[2] = 1;
  return CUTE_CUDA_OK;
}

/* Each thread moves `vpt` items, item j of the nest at src[cute_src(j)],
 * dst[cute_dst(j)]; all loads are issued before the first store. */
static cute_cuda_status emit_items(cp_ctx *c, const cute_layout *S,
                                   const cute_layout *D, int64_t items,
                                   const char *E, cute_cuda_error *err)
{
  cute_cuda_text *o = &c->plan->source;
  int vpt = c->o->vectors_per_thread ? c->o->vectors_per_thread : 4;
  unsigned bs = (unsigned)(c->o->block ? c->o->block : 256);
  int64_t per = (int64_t)bs * vpt;
  const char *it = items > (int64_t)UINT32_MAX - per ? "unsigned long long"
                                                     : "unsigned";
  char guard[64] = "";
  cute_cuda_status s;
  if ((s = cute_cuda_emit_layout(o, "cute_src", S, err)) ||
      (s = cute_cuda_emit_layout(o, "cute_dst", D, err)))
    return s;
  if (items % per != 0)   /* the last block runs past the end */
    snprintf(guard, sizeof guard, "if (j < %lldull) ", (long long)items);
  emit_head(o, E, bs);
  cute_cuda_text_printf(o, "  %s j0 = (%s)blockIdx.x * %lldu + threadIdx.x;\n"
                           "  E v[%d];\n", it, it, (long long)per, vpt);
  cute_cuda_text_printf(o, "#pragma unroll\n  for (int u = 0; u < %d; u++) {\n"
                           "    %s j = j0 + u * %uu;\n"
                           "    %sv[u] = src[cute_src(j)];\n  }\n",
                        vpt, it, bs, guard);
  cute_cuda_text_printf(o, "#pragma unroll\n  for (int u = 0; u < %d; u++) {\n"
                           "    %s j = j0 + u * %uu;\n"
                           "    %sdst[cute_dst(j)] = v[u];\n  }\n}\n",
                        vpt, it, bs, guard);
  c->plan->block[0] = bs;
  c->plan->block[1] = c->plan->block[2] = 1;
  return set_grid(c, (items + per - 1) / per, err);
}

static cute_cuda_status plan_elementwise(cp_ctx *c, cp_nest *z, int w,
                                         cute_cuda_error *err)
{
  cute_layout S, D;
  int64_t items = c->size / w;
  cute_cuda_status s;
  if (w > 1) z->m[0].n /= w, z->m[0].a = z->m[0].b = w;
  if ((s = modes_layout(&S, z->m, z->n, 0, w, err)) ||
      (s = modes_layout(&D, z->m, z->n, 1, w, err)))
    return s;
  c->plan->kind = CUTE_COPY_ELEMENTWISE;
  c->plan->vector = w;
  return emit_items(c, &S, &D, items, bits_type(w * c->esize), err);
}

static cute_cuda_status plan_generic(cp_ctx *c, const cute_layout *Ls,
                                     const cute_layout *Ld,
                                     cute_cuda_error *err)
{
  c->plan->kind = CUTE_COPY_GENERIC;
  c->plan->vector = 1;
  return emit_items(c, Ls, Ld, c->size, bits_type(c->esize), err);
}

/* ---------------------------------------------------------- transpose -- */
typedef struct cp_tr {
  int p, q;           /* destination- and source-contiguous modes */
  int64_t tile, rows;
} cp_tr;

/* Is the nest a transpose worth tiling?  Fills t when it is. */
static int find_transpose(const cp_nest *z, const cp_ctx *c, cp_tr *t)
{
  int64_t lim = c->o->min_tile_extent ? c->o->min_tile_extent : 16;
  int k;
  if (c->o->no_transpose || z->n < 2 || z->m[0].b != 1 || z->m[0].a == 1)
    return 0;
  t->p = 0;
  t->q = -1;
  for (k = 1; k < z->n; k++)
    if (z->m[k].a == 1) t->q = k;
  t->tile = c->o->tile ? c->o->tile : 32;
  t->rows = c->o->tile_rows ? c->o->tile_rows : 8;
  return t->q > 0 && z->m[t->p].n >= lim && z->m[t->q].n >= lim;
}

static int64_t reach(const cp_nest *z)
{
  int64_t r = 0;
  int k;
  for (k = 0; k < z->n; k++)
    r += (z->m[k].n - 1) * (abs64(z->m[k].a) > abs64(z->m[k].b)
                                ? abs64(z->m[k].a) : abs64(z->m[k].b));
  return r;
}

/* The head of one of the transpose's two passes over a tile: rows y + k
 * of tile `r` (of a mode of extent nr) by column x of tile `c` (extent
 * nc), guarded when the tiles overhang the modes. */
static void emit_tile_pass(cute_cuda_text *o, const cp_tr *t, int guard,
                           const char *r, int64_t nr, const char *c,
                           int64_t nc)
{
  cute_cuda_text_printf(o, "#pragma unroll\n  for (unsigned k = 0; k < %lldu; k "
                           "+= %lldu) {\n", (long long)t->tile, (long long)t->rows);
  if (guard)
    cute_cuda_text_printf(o, "    if (%s * %lldu + y + k < %lldu && %s * %lldu + "
                             "x < %lldu)\n", r, (long long)t->tile, (long long)nr,
                          c, (long long)t->tile, (long long)nc);
}

/* One block per tile: read rows of the tile along q (contiguous in src),
 * write its columns along p (contiguous in dst), through the swizzled
 * tile.  Modes other than p and q index the tile's batch. */
static void emit_transpose_body(cute_cuda_text *o, const cp_nest *z,
                                const cp_tr *t, const char *OT)
{
  const cp_mode *P = &z->m[t->p], *Q = &z->m[t->q];
  int64_t np = (P->n + t->tile - 1) / t->tile, nq = (Q->n + t->tile - 1) / t->tile;
  int guard = P->n % t->tile || Q->n % t->tile;
  cute_cuda_text_printf(o, "  __shared__ E tile[%lld];\n"
                           "  unsigned b = blockIdx.x;\n"
                           "  unsigned tq = b %% %lldu; b /= %lldu;\n"
                           "  unsigned tp = b %% %lldu; b /= %lldu;\n",
                        (long long)(t->tile * t->tile), (long long)nq,
                        (long long)nq, (long long)np, (long long)np);
  cute_cuda_text_printf(o, "  const %s so = (%s)cute_bsrc(b) + (%s)tp * %lld + "
                           "(%s)tq * %lld;\n", OT, OT, OT,
                        (long long)(t->tile * P->a), OT, (long long)t->tile);
  cute_cuda_text_printf(o, "  const %s d0 = (%s)cute_bdst(b) + (%s)tq * %lld + "
                           "(%s)tp * %lld;\n", OT, OT, OT,
                        (long long)(t->tile * Q->b), OT, (long long)t->tile);
  cute_cuda_text_puts(o, "  const unsigned x = threadIdx.x, y = threadIdx.y;\n");
  emit_tile_pass(o, t, guard, "tp", P->n, "tq", Q->n);
  cute_cuda_text_printf(o, "    tile[cute_tile(y + k, x)] = src[so + (%s)(y + k) "
                           "* %lld + x];\n  }\n  __syncthreads();\n", OT,
                        (long long)P->a);
  emit_tile_pass(o, t, guard, "tq", Q->n, "tp", P->n);
  cute_cuda_text_printf(o, "    dst[d0 + (%s)(y + k) * %lld + x] = "
                           "tile[cute_tile(x, y + k)];\n  }\n}\n", OT,
                        (long long)Q->b);
}

static cute_cuda_status plan_transpose(cp_ctx *c, const cp_nest *z,
                                       const cp_tr *t, cute_cuda_error *err)
{
  cute_cuda_text *o = &c->plan->source;
  cp_mode batch[2 * MAXM];
  cute_layout BS, BD;
  cute_composed tile;
  int64_t nb = 1, tiles;
  int k, n = 0, lg = 0;
  cute_cuda_status s;
  if ((t->tile & (t->tile - 1)) || t->tile < 8 || t->tile % t->rows ||
      t->tile * t->rows > 1024)
    return cucu_fail(err, CUTE_CUDA_EINVAL,
                     "cute.cuda: copy: tile %lld x rows %lld: the tile must be "
                     "a power of two >= 8, divisible by rows, tile*rows <= 1024",
                     (long long)t->tile, (long long)t->rows);
  for (k = 0; k < z->n; k++)
    if (k != t->p && k != t->q) {
      batch[n++] = z->m[k];
      nb *= z->m[k].n;
    }
  while ((1 << lg) < t->tile) lg++;
  memset(&tile, 0, sizeof tile);   /* Sw<lg,0,lg> o 0 o (T,T):(T,1) */
  tile.sw.b = tile.sw.s = lg;
  if ((s = modes_layout(&BS, batch, n, 0, 1, err)) ||
      (s = modes_layout(&BD, batch, n, 1, 1, err)))
    return s;
  {
    cp_mode sq[2];               /* (p, q) -> p * T + q */
    sq[0] = (cp_mode){t->tile, t->tile, 0};
    sq[1] = (cp_mode){t->tile, 1, 0};
    if ((s = modes_layout(&tile.layout, sq, 2, 0, 1, err))) return s;
  }
  if ((s = cute_cuda_emit_layout(o, "cute_bsrc", &BS, err)) ||
      (s = cute_cuda_emit_layout(o, "cute_bdst", &BD, err)) ||
      (s = cute_cuda_emit_composed(o, "cute_tile", &tile, err)))
    return s;
  emit_head(o, bits_type(c->esize), (unsigned)(t->tile * t->rows));
  emit_transpose_body(o, z, t, reach(z) > INT32_MAX ? "long long" : "int");
  c->plan->kind = CUTE_COPY_TRANSPOSE;
  c->plan->vector = 1;
  c->plan->block[0] = (unsigned)t->tile;
  c->plan->block[1] = (unsigned)t->rows;
  c->plan->block[2] = 1;
  tiles = ((z->m[t->p].n + t->tile - 1) / t->tile) *
          ((z->m[t->q].n + t->tile - 1) / t->tile);
  return set_grid(c, tiles * nb, err);
}

/* -------------------------------------------------------------- entry -- */
static void summarize(cute_cuda_copy_plan *plan, const cp_nest *z, int ok)
{
  static const char *kinds[] = {"elementwise", "transpose", "generic"};
  char *p = plan->summary, *end = plan->summary + sizeof plan->summary;
  int k;
  p += snprintf(p, (size_t)(end - p), "%s v%d common %lld", kinds[plan->kind],
                plan->vector, (long long)plan->common);
  for (k = 0; ok && k < z->n && end - p > 40; k++)
    p += snprintf(p, (size_t)(end - p), " %lld:%lld>%lld", (long long)z->m[k].n,
                  (long long)z->m[k].a, (long long)z->m[k].b);
}

cute_cuda_status cucu_copy_operands(const char *op, const cute_layout *Ls,
                                    const cute_layout *Ld, int64_t *n,
                                    char ts[CUTE_MAX_TEXT],
                                    char td[CUTE_MAX_TEXT],
                                    cute_cuda_error *err)
{
  int64_t nd;
  cute_layout_print(Ls, ts, CUTE_MAX_TEXT);
  cute_layout_print(Ld, td, CUTE_MAX_TEXT);
  if (cute_layout_has_basis(Ls) || cute_layout_has_basis(Ld))
    return cucu_fail(err, CUTE_CUDA_ELAYOUT, "cute.cuda: %s(%s, %s): "
                     "tensors need integral layouts", op, ts, td);
  if (cute_layout_size(Ls, n, NULL) || cute_layout_size(Ld, &nd, NULL) ||
      *n != nd)
    return cucu_fail(err, CUTE_CUDA_EINVAL, "cute.cuda: %s(%s, %s): "
                     "size(src) == size(dst) violated", op, ts, td);
  return CUTE_CUDA_OK;
}

static cute_cuda_status check_operands(cp_ctx *c, const cute_layout *Ls,
                                       const cute_layout *Ld,
                                       cute_cuda_error *err)
{
  char ts[CUTE_MAX_TEXT], td[CUTE_MAX_TEXT];
  return cucu_copy_operands("copy", Ls, Ld, &c->size, ts, td, err);
}

cute_cuda_status cute_cuda_copy_plan_make(cute_cuda_copy_plan *plan,
                                          const cute_layout *Ls,
                                          int64_t soff,
                                          const cute_layout *Ld,
                                          int64_t doff,
                                          cute_cuda_dtype dtype,
                                          const cute_cuda_copy_opts *opts,
                                          cute_cuda_error *err)
{
  static const cute_cuda_copy_opts defaults;
  cp_ctx c;
  cp_nest z;
  cp_tr t;
  int refined;
  cute_cuda_status s;
  memset(plan, 0, sizeof *plan);
  c.o = opts ? opts : &defaults;
  c.esize = cute_cuda_dtype_size(dtype);
  c.plan = plan;
  if ((s = check_operands(&c, Ls, Ld, err))) return s;
  plan->size = c.size;
  if (cute_max_common_vector(Ls, Ld, &plan->common, NULL)) plan->common = 1;
  cute_cuda_text_puts(&plan->source, cute_cuda_prelude);
  refined = refine(&z, Ls, Ld);
  if (!refined) {
    s = plan_generic(&c, Ls, Ld, err);
  } else {
    order_and_merge(&z);
    if (find_transpose(&z, &c, &t))
      s = plan_transpose(&c, &z, &t, err);
    else
      s = plan_elementwise(&c, &z,
                           vector_width(&z, plan->common, soff, doff, &c), err);
  }
  if (s == CUTE_CUDA_OK && plan->source.oom)
    s = cucu_fail(err, CUTE_CUDA_ENOMEM, "cute.cuda: copy: out of memory");
  if (s != CUTE_CUDA_OK) cute_cuda_copy_plan_free(plan);
  else summarize(plan, &z, refined);
  return s;
}

void cute_cuda_copy_plan_free(cute_cuda_copy_plan *plan)
{
  cute_cuda_text_free(&plan->source);
}
