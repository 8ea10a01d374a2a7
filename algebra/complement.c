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

#define OP "complement"

typedef struct complement_ctx {
  int64_t cotarget;
} complement_ctx;

static int64_t ceil_div(int64_t a, int64_t b)
{
  return a / b + (a % b != 0);
}

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

int cute_complement_integral(cute_layout *out, const cute_layout *A,
                             const cute_span *a, int64_t cotarget)
{
  cute_flat x, res;
  int64_t cur = 1, cosize = 1, ext;
  int i;
  if (!cute_flat_select(&x, A, a->leaf0, a->leaf1)) return 0;
  cute_flat_sort(&x);
  res.n = 0;
  for (i = 0; i < x.n; i++)
    if (x.d[i] < cur || (cotarget > 0 && x.d[i] % cur != 0) ||
        !cute_flat_put(&res, x.d[i] / cur, cur, 0) ||
        cute_mul(x.s[i] - 1, x.d[i], &ext) ||
        cute_add(cosize, ext, &cosize) || cute_mul(x.s[i], x.d[i], &cur))
      return 0;
  if (!cute_flat_put(&res, ceil_div(cotarget > 0 ? cotarget : cosize, cur),
                     cur, 1))
    return 0;
  cute_flat_layout(out, &res);
  return 1;
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
  cute_span a;
  a.tok0 = a.leaf0 = 0;
  a.tok1 = A->shape.ntok;
  a.leaf1 = A->shape.nleaf;
  if (cute_complement_integral(out, A, &a, cotarget)) return CUTE_OK;
  return cute_complement_general(out, A, cotarget, err);
}
