/*
 * recast.c -- a layout of old_bits-wide elements seen with new_bits-wide
 * ones (CuTe's upcast / downcast / recast_layout).
 *
 * Offsets are counted in elements, so a wider element divides them and a
 * narrower one multiplies them.  Leaf by leaf (the structure is kept):
 *   upcast by n:   stride 0 stays; |d| >= n: d/n; |d| < n: the mode is
 *                  contiguous at the finer grain, n/|d| of its elements
 *                  make one new element: shape s/(n/|d|), stride sign(d).
 *   downcast by n: stride +-1: shape s*n (each element splits in n
 *                  contiguous ones), stride kept; else stride d*n.
 *   upcast((8,64):(64,1), 8)   = (8,8):(8,1)
 *   downcast((8,8):(8,1), 8)   = (8,64):(64,1)
 * Every division must be exact (CUTE_EDIVISIBILITY names the leaf); CuTe
 * C++ rounds up instead, which would describe elements that straddle the
 * new ones.  Coordinate layouts have no element size: CUTE_ECODOMAIN.
 * Widths where neither divides the other go through their gcd (below).
 */
#include "cute_internal.h"

#include <stdio.h>

static cute_status check_factor(const char *op, const cute_layout *L,
                                int64_t n, cute_error *err)
{
  cute_status st;
  /* The leaf loops trust nleaf: a hand-made L must not overrun them. */
  if ((st = cute_tuple_check(&L->shape, err)) ||
      (st = cute_tuple_check(&L->stride, err)))
    return st;
  if (L->shape.nleaf != L->stride.nleaf)
    return cute_fail(err, CUTE_ERANK, "%s: shape and stride are not "
                     "congruent", op);
  if (n <= 0)
    return cute_fail_op(err, CUTE_EINVAL, op, L, NULL,
                        "factor %lld is not positive", (long long)n);
  if (cute_layout_has_basis(L))
    return cute_fail_op(err, CUTE_ECODOMAIN, op, L, NULL,
                        "a coordinate layout has no element size");
  return CUTE_OK;
}

/* One leaf s:d (leaf i of L) recast by the factor n, in place. */
typedef cute_status (*recast_fn)(int64_t *s, int64_t *d, int i, int64_t n,
                                 const cute_layout *L, cute_error *err);

static cute_status upcast_leaf(int64_t *s, int64_t *d, int i, int64_t n,
                               const cute_layout *L, cute_error *err)
{
  int64_t a;
  (void)i;
  if (*d == 0) return CUTE_OK;
  if (*d >= n || *d <= -n) {
    if (*d % n != 0)
      return cute_fail_op(err, CUTE_EDIVISIBILITY, "upcast", L, NULL,
                          "divisibility: stride %lld is not a multiple of "
                          "%lld", (long long)*d, (long long)n);
    *d /= n;
    return CUTE_OK;
  }
  a = *d < 0 ? -*d : *d; /* |d| < n: no overflow */
  if (n % a != 0)
    return cute_fail_op(err, CUTE_EDIVISIBILITY, "upcast", L, NULL,
                        "divisibility: stride %lld does not divide %lld",
                        (long long)*d, (long long)n);
  if (*s % (n / a) != 0)
    return cute_fail_op(err, CUTE_EDIVISIBILITY, "upcast", L, NULL,
                        "divisibility: shape %lld of mode %lld:%lld is not "
                        "a multiple of %lld", (long long)*s, (long long)*s,
                        (long long)*d, (long long)(n / a));
  *s /= n / a;
  *d = *d < 0 ? -1 : 1;
  return CUTE_OK;
}

static cute_status downcast_leaf(int64_t *s, int64_t *d, int i, int64_t n,
                                 const cute_layout *L, cute_error *err)
{
  int unit = *d == 1 || *d == -1;
  if (unit ? cute_mul(*s, n, s) : cute_mul(*d, n, d))
    return cute_fail_op(err, CUTE_EOVERFLOW, "downcast", L, NULL,
                        "leaf %d times %lld overflows 64 bits", i,
                        (long long)n);
  return CUTE_OK;
}

/* fn on every leaf of a copy of L; out is written only on success. */
static cute_status recast_leaves(cute_layout *out, const cute_layout *L,
                                 int64_t n, const char *op, recast_fn fn,
                                 cute_error *err)
{
  cute_layout r = *L;
  int i;
  cute_status st = check_factor(op, L, n, err);
  for (i = 0; !st && i < r.shape.nleaf; i++)
    st = fn(&r.shape.v[i], &r.stride.v[i], i, n, L, err);
  if (!st) *out = r;
  return st;
}

cute_status cute_upcast(cute_layout *out, const cute_layout *L, int64_t n,
                        cute_error *err)
{
  return recast_leaves(out, L, n, "upcast", upcast_leaf, err);
}

cute_status cute_downcast(cute_layout *out, const cute_layout *L, int64_t n,
                          cute_error *err)
{
  return recast_leaves(out, L, n, "downcast", downcast_leaf, err);
}

static int64_t gcd(int64_t a, int64_t b)
{
  while (b != 0) {
    int64_t t = a % b;
    a = b;
    b = t;
  }
  return a;
}

/* new/old reduced to num/den: each old element splits into den pieces
 * of g = gcd(old, new) bits (downcast), num of which make a new element
 * (upcast); one of the two steps is the identity when one width divides
 * the other.  recast((8,4):(1,8), 6, 4) = (12,4):(1,12). */
cute_status cute_recast(cute_layout *out, const cute_layout *L,
                        int64_t old_bits, int64_t new_bits, cute_error *err)
{
  int64_t g;
  cute_layout mid;
  cute_status st;
  if (old_bits <= 0 || new_bits <= 0)
    return cute_fail_op(err, CUTE_EINVAL, "recast", L, NULL,
                        "element widths %lld -> %lld bits must be positive",
                        (long long)old_bits, (long long)new_bits);
  g = gcd(old_bits, new_bits);
  st = cute_downcast(&mid, L, old_bits / g, err);
  if (!st) st = cute_upcast(out, &mid, new_bits / g, err);
  if (st && err) {
    /* the call the user made, then the step that failed */
    char text[CUTE_MAX_TEXT], o[24], n[24];
    cute_layout_print(L, text, sizeof text);
    snprintf(o, sizeof o, "%lld", (long long)old_bits);
    snprintf(n, sizeof n, "%lld", (long long)new_bits);
    cute_error_prefix(err, "recast", text, o, n, (char *)NULL);
  }
  return st;
}
