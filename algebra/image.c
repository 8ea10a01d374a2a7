/*
 * image.c -- what a layout's offsets are, as a set: the range they span
 * and whether they are distinct (injectivity).  The one owner of these
 * facts: the CUDA layer sizes buffers from the range and refuses racing
 * writes through non-injective layouts with these functions.
 *
 * Only leaves of size > 1 reach anything; their strides' signs matter for
 * the range but not for injectivity (negating a stride mirrors one
 * coordinate, a bijection of the domain).
 */
#include "cute_internal.h"

#include <string.h>

/* The integral leaves of L, checked: CUTE_ECODOMAIN for a basis stride. */
static cute_status integral(const cute_layout *L, const char *op,
                            cute_error *err)
{
  cute_status st;
  if ((st = cute_tuple_check(&L->shape, err)) ||
      (st = cute_tuple_check(&L->stride, err)))
    return st;
  if (L->shape.nleaf != L->stride.nleaf)
    return cute_fail_op(err, CUTE_ERANK, op, L, NULL,
                        "shape and stride are not congruent");
  if (cute_layout_has_basis(L))
    return cute_fail_op(err, CUTE_ECODOMAIN, op, L, NULL,
                        "needs an integral codomain (strides are bases)");
  return CUTE_OK;
}

/* [*lo, *hi] for the operation op (named in errors). */
static cute_status range(const cute_layout *L, const char *op, int64_t *lo,
                         int64_t *hi, cute_error *err)
{
  int64_t a = 0, b = 0, r;
  cute_status st;
  int k;
  if ((st = integral(L, op, err))) return st;
  for (k = 0; k < L->shape.nleaf; k++) {
    if (L->shape.v[k] < 1)
      return cute_fail_op(err, CUTE_EINVAL, op, L, NULL,
                          "shape leaf %d is not positive", k);
    if (cute_mul(L->shape.v[k] - 1, L->stride.v[k], &r) ||
        cute_add(r > 0 ? b : a, r, r > 0 ? &b : &a))
      return cute_fail_op(err, CUTE_EOVERFLOW, op, L, NULL,
                          "64-bit overflow");
  }
  *lo = a;
  *hi = b;
  return CUTE_OK;
}

cute_status cute_layout_offset_range(const cute_layout *L, int64_t *lo,
                                     int64_t *hi, cute_error *err)
{
  return range(L, "offset_range", lo, hi, err);
}

typedef struct mode1 { int64_t s, d; } mode1;

/* Insertion sort by |stride| (at most CUTE_MAX_LEAVES leaves). */
static void sort_by_stride(mode1 *m, int n)
{
  int i, j;
  for (i = 1; i < n; i++) {
    mode1 x = m[i];
    for (j = i; j > 0 && m[j - 1].d > x.d; j--) m[j] = m[j - 1];
    m[j] = x;
  }
}

/* Marks every offset of the (s, d) modes, d >= 0, in the bitmap; 0 as
 * soon as one repeats.  Offsets lie in [0, span) by construction. */
static int walk_distinct(const mode1 *m, int n, unsigned char *seen)
{
  int64_t c[CUTE_MAX_LEAVES] = {0}, off = 0;
  int k;
  for (;;) {
    if (seen[off >> 3] & (1u << (off & 7))) return 0;
    seen[off >> 3] |= (unsigned char)(1u << (off & 7));
    for (k = 0; k < n; k++) {        /* colexicographic increment */
      if (++c[k] < m[k].s) { off += m[k].d; break; }
      off -= (m[k].s - 1) * m[k].d;
      c[k] = 0;
    }
    if (k == n) return 1;
  }
}

cute_status cute_layout_injective(const cute_layout *L, int *yes,
                                  cute_error *err)
{
  mode1 m[CUTE_MAX_LEAVES];
  unsigned char seen[CUTE_MAX_INJECTIVE_SPAN / 8];
  int64_t lo = 0, hi = 0, size = 1; /* set by range; gcc -O3 cannot see it */
  int k, n = 0, nests = 1;
  cute_status st;
  if ((st = range(L, "injective", &lo, &hi, err))) return st;
  for (k = 0; k < L->shape.nleaf; k++) {
    int64_t s = L->shape.v[k], d = L->stride.v[k];
    if (s == 1) continue;
    if (d == 0) { *yes = 0; return CUTE_OK; }   /* a repeat */
    m[n].s = s;
    m[n++].d = d < 0 ? -d : d;   /* |d| fits: the range did not overflow */
  }
  sort_by_stride(m, n);
  /* Nested strides, |d_i| >= s_{i-1} |d_{i-1}|: offsets are mixed-radix
   * numbers, all distinct.  hi - lo + 1 offsets cannot hold more
   * distinct values (pigeonhole). */
  for (k = 1; k < n; k++)
    nests = nests && m[k].d >= m[k - 1].s * m[k - 1].d;
  if (nests) { *yes = 1; return CUTE_OK; }
  /* More elements than offsets repeat one (an overflowing product is
   * more than any span). */
  for (k = 0; k < n && size <= hi - lo; k++)
    if (cute_mul(size, m[k].s, &size)) { *yes = 0; return CUTE_OK; }
  if (k < n || size > hi - lo + 1) { *yes = 0; return CUTE_OK; }
  if (hi - lo >= CUTE_MAX_INJECTIVE_SPAN)
    return cute_fail_op(err, CUTE_ELIMIT, "injective", L, NULL,
                        "strides that do not nest over %lld offsets, above "
                        "the %d of an exact check (CUTE_MAX_INJECTIVE_SPAN)",
                        (long long)(hi - lo + 1), CUTE_MAX_INJECTIVE_SPAN);
  memset(seen, 0, (size_t)((hi - lo) / 8 + 1));
  *yes = walk_distinct(m, n, seen);
  return CUTE_OK;
}
