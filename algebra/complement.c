/*
 * complement.c -- the complement of a layout (paper section 3.5).
 *
 * A* must be disjoint from A (A's finite domain against A*'s extended
 * one), have a strictly increasing image, and be weakly congruent to the
 * codomain.  Sorting A's image-bearing modes by stride, every stride d
 * leaves a hole below it that the modes of smaller stride, ending at
 * cur = s*d of the previous mode, do not reach: A* fills it with the mode
 * (d/cur):cur, and ends with a "rest" mode at stride cur (past A's image).
 *
 *   complement((4,8):(1,8))    = (2,1):(4,64)   hole [4,8) filled by 2:4
 *   complement(4:2, 24)        = (2,3):(1,8)    rest mode ceil(24/8) = 3
 *
 * Minimal complement (cotarget <= 0), the paper's Table 7.  The rest mode
 * has size ceil(cosize(A)/cur) (1 for an injective A) and is kept even at
 * size 1: its stride marks where A's codomain ends, so that A* on its
 * extended domain (composed with a larger layout: the logical product's
 * A* o B) steps past A instead of into it.  A hole whose size d is not a
 * multiple of cur cannot be tiled by an ordered mode; the minimal
 * complement takes floor(d/cur) steps of cur, which stay below d and so
 * still miss A:
 *   complement((4,8):(1,5))    = 1:40   (5/4 -> 1 step: no mode)
 *   complement((4,8):(20,2))   = (2,1):(1,80)   (paper 3.5.1)
 *
 * With a cotarget M > 0 the postcondition is coverage: (A, A*) hits every
 * offset of [0, M).  Holes must then tile exactly (else "divisibility")
 * and the rest mode is ceil(M/cur), again kept at size 1: disjointness
 * holds on A*'s extended domain only with it.  So the complement of 8:3
 * under 24 is (3,1):(1,24); the paper's 3.5.2 calls it 3:1, which is the
 * same on [0,3) but hits A(1) = 3 at index 3.
 *
 * Coordinate layouts (strides a@i) are complemented per basis component;
 * component i of the result is the minimal complement of A's e_i-modes:
 *   complement((4,(4,2)):(1@1,(1@0,12@1))) = (1,(3,1)):(4@0,(4@1,24@1))
 *
 * Modes that overlap in stride order -- a non-injective A, or an injective
 * one whose modes interleave, like (3,2):(2,3) -- have no complement.
 */
#include "leaves.h"

#include <string.h>

#define OP "complement"

/* ceil(a/b) for a >= 0, b > 0: unsigned, as a + b - 1 stays below 2^64;
 * a shift where b is a power of two (a division costs tens of cycles). */
static inline int64_t ceil_div(int64_t a, int64_t b)
{
  uint64_t n = (uint64_t)a + (uint64_t)b - 1;
  if ((b & (b - 1)) == 0) return (int64_t)(n >> __builtin_ctzll((uint64_t)b));
  return (int64_t)(n / (uint64_t)b);
}

typedef struct complement_ctx {
  int64_t cotarget;
} complement_ctx;

static cute_status complement_fn(cute_leaves *res, cute_leaves *sel,
                                 cute_basis e, const cute_layout *A,
                                 void *vctx, cute_error *err)
{
  const complement_ctx *ctx = (const complement_ctx *)vctx;
  int strict = ctx->cotarget > 0;
  int64_t cur = 1, cosize = 1, ext, target;
  int i;
  if (strict && e != 0)
    return cute_fail_op(err, CUTE_ECODOMAIN, OP, A, NULL,
                        "an integer cotarget (%lld) needs an integral "
                        "codomain", (long long)ctx->cotarget);
  cute_leaves_sort(sel);
  res->n = 0;
  for (i = 0; i < sel->n; i++) {
    const cute_leaf *m = &sel->m[i];
    if (m->d < cur)
      return cute_fail_op(err, CUTE_ENONINJECTIVE, OP, A, NULL,
                          "non-injective (or interleaved) modes: stride %lld "
                          "of mode %lld:%lld lies inside [0,%lld), the span "
                          "of the modes of smaller stride",
                          (long long)m->d, (long long)m->s, (long long)m->d,
                          (long long)cur);
    if (strict && m->d % cur != 0)
      return cute_fail_op(err, CUTE_EDIVISIBILITY, OP, A, NULL,
                          "divisibility: stride %lld is not a multiple of "
                          "%lld, so the hole below it cannot be tiled to "
                          "cover [0,%lld)", (long long)m->d, (long long)cur,
                          (long long)ctx->cotarget);
    res->m[res->n++] = (cute_leaf){m->d / cur, cur, 0, e};
    /* cosize + (s-1)*d <= s*d here, yet both are checked: a bound that
     * holds only after the products are formed cannot guard them. */
    if (cute_mul(m->s - 1, m->d, &ext) || cute_add(cosize, ext, &cosize) ||
        cute_mul(m->s, m->d, &cur))
      return cute_fail_op(err, CUTE_EOVERFLOW, OP, A, NULL,
                          "extent %lld*%lld overflows 64 bits",
                          (long long)m->s, (long long)m->d);
  }
  target = strict ? ctx->cotarget : cosize;
  res->m[res->n++] = (cute_leaf){ceil_div(target, cur), cur, 0, e};
  cute_leaves_merge(res, 1);
  return CUTE_OK;
}

/* complement_fn on an integral part of A in one pass.  Its merge has
 * nothing to join: a hole ends at its mode's stride d, the next one
 * starts past the mode, at s*d; so only holes of size 1 drop.  Where
 * the selected modes do not nest no mode can overflow: cosize <= cur. */
int cute_complement_modes(int64_t *hs, int64_t *hd, const cute_layout *A,
                          int l0, int l1, int64_t cotarget)
{
  cute_flat x;
  const int64_t *s = x.s, *d = x.d;
  int64_t cur = 1, cosize = 1, q;
  int i, m = 0;
  if (!cute_flat_select_sorted(&x, A, l0, l1)) return 0;
  for (i = 0; i < x.n; i++) {
    int64_t rem;
    if (d[i] < cur) return 0;
    q = cute_divmod(d[i], cur, &rem);
    if ((cotarget > 0 && rem != 0) || m == CUTE_MAX_LEAVES) return 0;
    if (q != 1) {
      hs[m] = q;
      hd[m++] = cur;
    }
    if (cute_mul(s[i], d[i], &cur)) return 0;
    cosize += cur - d[i];
  }
  if (m == CUTE_MAX_LEAVES) return 0;
  hs[m] = ceil_div(cotarget > 0 ? cotarget : cosize, cur);
  hd[m++] = cur;
  return m;
}

int cute_complement_integral(cute_layout *out, const cute_layout *A,
                             const cute_span *a, int64_t cotarget)
{
  cute_flat res;
  res.n = cute_complement_modes(res.s, res.d, A, a->leaf0, a->leaf1,
                                cotarget);
  if (res.n == 0) return 0;
  cute_flat_layout(out, &res);
  return 1;
}

/* out's mode i = s:d, integral: its leaves only (cute_flat_small writes
 * the rest). */
static inline void complement_mode(cute_layout *out, int i, int64_t s,
                                   int64_t d)
{
  out->shape.v[i] = s;
  out->stride.v[i] = d;
}

/* complement_fn of one image-bearing integral leaf s:d (s > 1, d > 0) in
 * closed form (most calls): the hole below d is d:1 (none when d is 1),
 * then the rest mode ceil(T/cur):cur, cur = s*d and T the cotarget or the
 * cosize 1 + (s-1)d.  0 where it does not apply (a leaf without image, a
 * basis, d < 0, an overflow): the slower paths decide and report.  A's
 * leaf is read before out is written (out may alias A). */
static inline int complement_leaf(cute_layout *out, const cute_layout *A,
                                  int64_t cotarget)
{
  int64_t s = A->shape.v[0], d = A->stride.v[0], cur, rest;
  if (s < 2 || d <= 0 || A->stride.e[0] != 0 || cute_mul(s, d, &cur))
    return 0;
  rest = ceil_div(cotarget > 0 ? cotarget : cur - d + 1, cur);
  if (d == 1) { /* no hole: constant counts and tokens, no table */
    complement_mode(out, 0, rest, cur);
    cute_flat_small(out, 1);
    return 1;
  }
  complement_mode(out, 0, d, 1);
  complement_mode(out, 1, rest, cur);
  cute_flat_small(out, 2);
  return 1;
}

/* cute_complement_modes of a flat layout of two image-bearing integral
 * leaves (the common 2-D tile) in straight-line code: its sort is one
 * swap, its loop two steps.  The holes d0:1 and (d1/c0):c0, c = s*d,
 * drop at size 1; then the rest mode ceil(T/c1):c1, T the cotarget or
 * the cosize (c0-d0+1) + (c1-d1) <= c1 (d1 >= c0).  Equal strides fail
 * (d1 < c0), as in the general order.  0 where it does not apply or
 * fails (a leaf of size 1 or a stride 0 included): the slower paths
 * decide.  Its branches are few and all predictable, so it runs in half
 * the loop's time; A is read whole before hs and hd are written (they
 * may be out's leaves, and out A). */
static inline int complement_pair(int64_t *hs, int64_t *hd,
                                  const cute_layout *A, int64_t cotarget)
{
  int64_t s0 = A->shape.v[0], d0 = A->stride.v[0], c0, rem, t, q;
  int64_t s1 = A->shape.v[1], d1 = A->stride.v[1], c1;
  int m = 0;
  if (s0 < 2 || s1 < 2 || d0 <= 0 || d1 <= 0 ||
      (A->stride.e[0] | A->stride.e[1]) != 0)
    return 0;
  if (d1 < d0) {
    t = d0, d0 = d1, d1 = t;
    t = s0, s0 = s1, s1 = t;
  }
  if (cute_mul(s0, d0, &c0) || cute_mul(s1, d1, &c1) || d1 < c0) return 0;
  q = cute_divmod(d1, c0, &rem);
  if (cotarget > 0 && rem != 0) return 0;
  t = ceil_div(cotarget > 0 ? cotarget : (c0 - d0 + 1) + (c1 - d1), c1);
  hs[0] = d0;
  hd[0] = 1;
  m += d0 != 1;
  hs[m] = q;
  hd[m] = c0;
  m += q != 1;
  hs[m] = t;
  hd[m] = c1;
  return m + 1;
}

int cute_complement_flat(int64_t *s, int64_t *d, const cute_layout *A,
                         int64_t cotarget)
{
  int m = A->shape.nleaf == 2 ? complement_pair(s, d, A, cotarget) : 0;
  return m ? m : cute_complement_modes(s, d, A, 0, A->shape.nleaf, cotarget);
}

/* cute_complement past its closed forms: apart, so that the closed forms'
 * calls save no registers for the loops below (a tail call). */
static cute_status __attribute__((noinline))
complement_loop(cute_layout *out, const cute_layout *A, int64_t cotarget,
                cute_error *err)
{
  cute_span a;
  a.tok0 = a.leaf0 = 0;
  a.tok1 = A->shape.ntok;
  a.leaf1 = A->shape.nleaf;
  if (cute_complement_integral(out, A, &a, cotarget)) return CUTE_OK;
  return cute_complement_general(out, A, cotarget, err);
}

cute_status cute_complement_general(cute_layout *out, const cute_layout *A,
                                    int64_t cotarget, cute_error *err)
{
  complement_ctx ctx;
  ctx.cotarget = cotarget;
  return cute_leaves_apply(out, A, OP, complement_fn, &ctx,
                           CUTE_LEAVES_POSITIVE, err);
}

cute_status cute_complement(cute_layout *out, const cute_layout *A,
                            int64_t cotarget, cute_error *err)
{
  int m;
  if (A->shape.nleaf == 1 && complement_leaf(out, A, cotarget))
    return CUTE_OK;
  if (A->shape.nleaf == 2 && A->shape.ntok == 4 &&
      (m = complement_pair(out->shape.v, out->stride.v, A, cotarget))) {
    cute_flat_small(out, m);
    return CUTE_OK;
  }
  return complement_loop(out, A, cotarget, err);
}
