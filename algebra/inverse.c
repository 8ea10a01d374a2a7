/*
 * inverse.c -- right and left inverses of a layout (paper 3.4) and their
 * application, the maximal common vector of two layouts (3.4.2).
 *
 * Both inverses read L as its flat modes s:d, each with its column-major
 * index stride r (leaves.h), skipping stride-0 and size-1 modes, which
 * contribute no offsets.  An inverse maps an offset back to an index, so
 * its modes take L's shapes at strides r.
 *
 * Right inverse: the longest chain of modes whose strides continue each
 * other from 1 (d = 1, then d = s*d of the previous, ...): their offsets
 * are exactly [0, size of the chain), so R(k) = sum of digit * r is an
 * index with L(R(k)) = k.  Adjacent modes that continue each other in both
 * offset and index merge first, so (4,8):(1,4) is one mode 32:1.
 *   right_inverse((3,7,5):(5,15,1))  = (5,21):(21,1)
 *   right_inverse((4,8):(1,5))       = 4:1      (5 != 4: the chain stops)
 * A negative stride is refused, as left_inverse and complement refuse it:
 * such a mode reaches offsets the positive chain does not see, so the
 * chain need not be the largest inverse ((4,8):(-1,4) has the right
 * inverse 2:7, since L(7) = -3 + 4 = 1, yet no chain starts there), and
 * CuTe's signed chain (stride sign(d)*r) maps into negative indices,
 * outside L's domain, where it is not even an inverse on the extended
 * domain: for (2,4):(-4,1) it gives (4,2):(2,-1), and L(R(4)) = L(-1) = -5.
 * The common vector below only needs *a* right inverse, so it uses the
 * chain of the positive strides alone (a lower bound then).
 *
 * Left inverse: all modes in stride order; offsets are read in the mixed
 * radix (d0, d1/d0, d2/d1, ..., s_last), the leading radix d0 at stride 0
 * (offsets below d0 are never hit) and each other digit at the index
 * stride r of its mode.  So Linv(L(k)) = k on L's image (after the skipped
 * modes: L(Linv(L(k))) = L(k)), and gaps between modes are absorbed by the
 * larger radices:
 *   left_inverse((4,8):(1,5))                  = (5,8):(1,4)
 *   left_inverse(((2,2),(2,4)):((0,2),(0,4)))  = (2,2,4):(0,2,8)
 * The radices must be integers ("divisibility") and the modes must not
 * overlap (a mode reaching past the next stride makes L non-injective, or
 * its modes interleave; no digit decomposition exists then).
 *
 * Coordinate layouts are inverted per basis component (leaves.h): the
 * result has one mode per component of the codomain.
 *
 * Tables 5 and 6 print ((2,2),(2,4)):((0,1),(0,2)) -> (2,2):(4,8); that is
 * not an inverse (L((2,2):(4,8)(1)) = L(4) = 0 != 1).  Skipping the stride-0
 * modes as the tables' comment says gives (2,4):(2,8), which is one.
 */
#include "leaves.h"

static cute_status right_fn(cute_leaves *res, cute_leaves *sel,
                            cute_basis e, const cute_layout *L, void *ctx,
                            cute_error *err)
{
  int64_t next = 1;
  int i;
  (void)e; (void)L; (void)ctx; (void)err;
  cute_leaves_merge(sel, 0);
  res->n = 0;
  for (;;) {
    for (i = 0; i < sel->n && sel->m[i].d != next; i++) {}
    if (i == sel->n) break;
    /* Result leaf: shape s at index stride r (r field unused: 0). */
    res->m[res->n++] = (cute_leaf){sel->m[i].s, sel->m[i].r, 0, 0};
    /* next grows strictly (s > 1), so each mode is taken at most once;
     * past 64 bits no stride can continue the chain. */
    if (cute_mul(sel->m[i].s, sel->m[i].d, &next)) break;
  }
  cute_leaves_merge(res, 0);
  return CUTE_OK;
}

/* The image-bearing leaves (s > 1, d != 0) of L with their index
 * strides r, merged as cute_leaves_merge(x, 0) merges them (a leaf joins
 * the mode kept before it, `last`, when they continue each other in
 * offset and in index), kept sorted by stride, ties in L's order (a merge
 * keeps its mode's stride): one pass.  0 where the general path must
 * decide (a basis or negative stride, an index stride or the size past
 * 64 bits). */
static int right_select(cute_flat *x, const cute_layout *L)
{
  int i, j, k = 0, last = 0, n = L->shape.nleaf;
  int64_t r = 1, t;
  if (n > CUTE_MAX_LEAVES) return 0;
  for (i = 0; i < n; i++) {
    int64_t s = L->shape.v[i], d = L->stride.v[i];
    if (d != 0 && L->stride.e[i] != 0) return 0;
    if (s > 1 && d != 0) {
      if (d < 0) return 0;
      if (k > 0 && !cute_mul(x->s[last], x->d[last], &t) && t == d &&
          !cute_mul(x->s[last], x->r[last], &t) && t == r &&
          !cute_mul(x->s[last], s, &t)) {
        x->s[last] = t;
      } else {
        for (j = k++; j > 0 && x->d[j - 1] > d; j--) {
          x->s[j] = x->s[j - 1];
          x->d[j] = x->d[j - 1];
          x->r[j] = x->r[j - 1];
        }
        x->s[last = j] = s;
        x->d[j] = d;
        x->r[j] = r;
      }
    }
    /* After the last leaf too, where r is not used: a size past 64 bits
     * is rare (the general path then decides), a test a leaf is not. */
    if (cute_mul(r, s, &r)) return 0;
  }
  x->n = k;
  return 1;
}

/* right_fn on an integral L in one pass (leaves.h).  Its chain's strides
 * grow strictly (s > 1), so it takes x's modes in their order, the first
 * of each stride in L's order as right_fn's search does: one walk.  The
 * modes go straight into out's leaves once L is read: each is taken at
 * most once, so they never fill them (no put fails, out half written). */
static int right_integral(cute_layout *out, const cute_layout *L)
{
  cute_flat x;
  int64_t next = 1;
  int i = 0, m = 0;
  if (!right_select(&x, L)) return 0;
  for (;; i++) {
    while (i < x.n && x.d[i] < next) i++;
    if (i == x.n || x.d[i] != next) break;
    (void)cute_flat_put(out->shape.v, out->stride.v, &m, x.s[i], x.r[i], 0);
    if (cute_mul(x.s[i], x.d[i], &next)) break;
  }
  cute_flat_end(out, m);
  return 1;
}

cute_status cute_right_inverse_general(cute_layout *out, const cute_layout *L,
                                       cute_error *err)
{
  if (cute_layout_is_f2(L))
    return cute_f2_inverse(out, L, "right_inverse", err);
  return cute_leaves_apply(out, L, "right_inverse", right_fn, NULL,
                           CUTE_LEAVES_POSITIVE, err);
}

cute_status cute_right_inverse(cute_layout *out, const cute_layout *L,
                               cute_error *err)
{
  if (right_integral(out, L)) return CUTE_OK;
  return cute_right_inverse_general(out, L, err);
}

static cute_status left_fn(cute_leaves *res, cute_leaves *sel,
                           cute_basis e, const cute_layout *L, void *ctx,
                           cute_error *err)
{
  int i;
  (void)e; (void)ctx;
  cute_leaves_sort(sel);
  res->n = 0;
  if (sel->n > 0 && sel->m[0].d > 1)
    res->m[res->n++] = (cute_leaf){sel->m[0].d, 0, 0, 0};
  for (i = 0; i < sel->n; i++) {
    const cute_leaf *m = &sel->m[i], *n = m + 1;
    int64_t end, radix = m->s;
    if (i + 1 < sel->n) {
      if (cute_mul(m->s, m->d, &end) || end > n->d)
        return cute_fail_op(err, CUTE_ENONINJECTIVE, "left_inverse", L, NULL,
                            "non-injective (or interleaved) modes: mode "
                            "%lld:%lld reaches past stride %lld",
                            (long long)m->s, (long long)m->d,
                            (long long)n->d);
      if (n->d % m->d != 0)
        return cute_fail_op(err, CUTE_EDIVISIBILITY, "left_inverse", L,
                            NULL, "divisibility: stride %lld is not a "
                            "multiple of stride %lld", (long long)n->d,
                            (long long)m->d);
      radix = n->d / m->d;
    }
    res->m[res->n++] = (cute_leaf){radix, m->r, 0, 0};
  }
  cute_leaves_merge(res, 0);
  return CUTE_OK;
}

/* left_fn on an integral L in one pass (leaves.h): the radices first,
 * into x.s (the checks that may fail), then the modes straight into
 * out's leaves (L is read, and at most x.n + 1 <= CUTE_MAX_LEAVES modes
 * come: the puts cannot fail with out half written). */
static int left_integral(cute_layout *out, const cute_layout *L)
{
  cute_flat x;
  int64_t end, rem;
  int i, m = 0;
  if (!cute_flat_select_sorted(&x, L, 0, L->shape.nleaf) ||
      x.n == CUTE_MAX_LEAVES)
    return 0;
  for (i = 0; i + 1 < x.n; i++) {
    if (cute_mul(x.s[i], x.d[i], &end) || end > x.d[i + 1]) return 0;
    x.s[i] = cute_divmod(x.d[i + 1], x.d[i], &rem); /* no division for 2^k */
    if (rem != 0) return 0;
  }
  if (x.n > 0 && x.d[0] > 1)
    (void)cute_flat_put(out->shape.v, out->stride.v, &m, x.d[0], 0, 0);
  for (i = 0; i < x.n; i++)
    (void)cute_flat_put(out->shape.v, out->stride.v, &m, x.s[i], x.r[i], 0);
  cute_flat_end(out, m);
  return 1;
}

cute_status cute_left_inverse_general(cute_layout *out, const cute_layout *L,
                                      cute_error *err)
{
  if (cute_layout_is_f2(L))
    return cute_f2_inverse(out, L, "left_inverse", err);
  return cute_leaves_apply(out, L, "left_inverse", left_fn, NULL,
                           CUTE_LEAVES_POSITIVE, err);
}

cute_status cute_left_inverse(cute_layout *out, const cute_layout *L,
                              cute_error *err)
{
  if (left_integral(out, L)) return CUTE_OK;
  return cute_left_inverse_general(out, L, err);
}

/* ------------------------------------------------------ common vector -- */

/* The paper defines K by A^-1(k) = B^-1(k) for k < K (right inverses) and
 * computes it as the stride-1 mode of coalesce(A o B^-1).  Both right
 * inverses are coalesced flat layouts, so their common prefix can be read
 * off directly, mode by mode: equal modes are common whole; at the first
 * difference, equal strides share min(shape) elements, and then the next
 * element differs (coalesced: the longer mode continues at stride s*d,
 * where the shorter one's successor cannot).  This gives the same K as the
 * composition wherever that is admissible, without its divisibility
 * conditions: A o B^-1 fails for ((95,1),(1,1)):((1,1),(1,1)) against
 * 244:1 (A's extended domain continues at stride 1), yet K = 95.
 * `pre` receives B^-1 restricted to [0, K), eq. (25); K is the product
 * of its shapes. */
static cute_status common_prefix(cute_leaves *pre,
                                 const cute_layout *A, const cute_layout *B,
                                 const char *op, cute_error *err)
{
  cute_layout RA, RB;
  cute_status st;
  int j;
  if (cute_layout_has_basis(A) || cute_layout_has_basis(B))
    return cute_fail_op(err, CUTE_ECODOMAIN, op, A, B,
                        "needs two integral layouts");
  /* Flags 0: negative-stride modes are ignored, not refused. */
  if ((st = cute_leaves_apply(&RA, A, op, right_fn, NULL, 0, err)) ||
      (st = cute_leaves_apply(&RB, B, op, right_fn, NULL, 0, err)))
    return st;
  pre->n = 0;
  for (j = 0; j < RA.shape.nleaf && j < RB.shape.nleaf; j++) {
    int64_t sa = RA.shape.v[j], sb = RB.shape.v[j], d = RB.stride.v[j];
    if (RA.stride.v[j] != d || d == 0) break;
    pre->m[pre->n++] = (cute_leaf){sa < sb ? sa : sb, d, 0, 0};
    if (sa != sb) break;
  }
  return CUTE_OK;
}

cute_status cute_max_common_vector(const cute_layout *A, const cute_layout *B,
                                   int64_t *out, cute_error *err)
{
  cute_leaves pre;
  int64_t K = 1;
  int j;
  cute_status st = common_prefix(&pre, A, B, "max_common_vector", err);
  if (st) return st;
  /* K <= size(B), but no size was ever multiplied out: a layout like
   * (2^62,4):(1,2^62) is valid, and its size is not representable. */
  for (j = 0; j < pre.n; j++)
    if (cute_mul(K, pre.m[j].s, &K))
      return cute_fail_op(err, CUTE_EOVERFLOW, "max_common_vector", A, B,
                          "the common vector size overflows 64 bits");
  *out = K;
  return CUTE_OK;
}

/* [B^-1]_K, the indices of B (and of A) of the K common offsets (paper eq.
 * 25); 1:0 when they share only offset 0. */
cute_status cute_max_common_layout(cute_layout *out, const cute_layout *A,
                                   const cute_layout *B, cute_error *err)
{
  cute_leaves pre;
  cute_status st = common_prefix(&pre, A, B, "max_common_layout", err);
  if (st) return st;
  return cute_leaves_layout(out, &pre, err);
}
