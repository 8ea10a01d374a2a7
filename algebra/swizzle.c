/*
 * swizzle.c -- CuTe's Swizzle<B,M,S> and the composed layout
 * Sw o offset o L (paper Table 4's "Swizzled" row, CuTe's ComposedLayout).
 *
 * Swizzle<B,M,S> xors a B-bit field of the offset into another B-bit
 * field |S| bits away; the low M bits (an element of 2^M units) are kept:
 *   S >= 0:  bits [M+S, M+S+B) into bits [M, M+B)
 *   S <  0:  bits [M, M+B)     into bits [M-S, M-S+B)
 * i.e. sw(x) = x ^ ((x & yyy) >> S) with yyy = (2^B - 1) << (M + max(0,S)),
 * the shift going left for S < 0 (cute/swizzle.hpp).  |S| >= B keeps the
 * fields apart, so the source field is never written and sw o sw = id.
 *   Sw<3,4,3>: bits 7..9 into bits 4..6;  sw(128) = 128 ^ 16 = 144.
 * Write-ups that xor the other way round describe another function.
 */
#include "cute_internal.h"

/* Highest bit position + 1 that a swizzle may touch: offsets are int64_t
 * and bit 62 stays clear so that no field reaches the sign bit. */
#define SWIZZLE_MAX_BITS 62

static int iabs(int v) { return v < 0 ? -v : v; }

/* Bits [0, span) contain both fields (valid parameters assumed). */
static int swizzle_span(cute_swizzle sw)
{
  return sw.m + iabs(sw.s) + sw.b;
}

/* Range checks come first so that iabs never sees INT_MIN. */
static int swizzle_valid(cute_swizzle sw)
{
  return sw.b >= 0 && sw.m >= 0 && sw.b <= SWIZZLE_MAX_BITS &&
         sw.m <= SWIZZLE_MAX_BITS && sw.s >= -SWIZZLE_MAX_BITS &&
         sw.s <= SWIZZLE_MAX_BITS && iabs(sw.s) >= sw.b &&
         swizzle_span(sw) <= SWIZZLE_MAX_BITS;
}

cute_status cute_swizzle_make(cute_swizzle *sw, int b, int m, int s,
                              cute_error *err)
{
  cute_swizzle t;
  t.b = b; t.m = m; t.s = s;
  if (b < 0 || m < 0)
    return cute_fail(err, CUTE_EINVAL, "swizzle(%d, %d, %d): B and M must "
                     "be >= 0", b, m, s);
  if (s >= -SWIZZLE_MAX_BITS && s <= SWIZZLE_MAX_BITS && iabs(s) < b)
    return cute_fail(err, CUTE_EINVAL, "swizzle(%d, %d, %d): |S| >= B "
                     "violated: the xor fields would overlap", b, m, s);
  if (!swizzle_valid(t))
    return cute_fail(err, CUTE_ELIMIT, "swizzle(%d, %d, %d): bits up to "
                     "M+|S|+B must stay below %d", b, m, s,
                     SWIZZLE_MAX_BITS);
  *sw = t;
  return CUTE_OK;
}

int64_t cute_swizzle_apply(cute_swizzle sw, int64_t offset)
{
  int64_t field;
  /* A hand-made invalid swizzle acts as the identity, not as UB: the
   * check comes before any shift by its fields. */
  if (!swizzle_valid(sw) || sw.b == 0) return offset;
  field = ((int64_t)1 << sw.b) - 1;
  if (sw.s >= 0)
    return offset ^ ((offset & (field << (sw.m + sw.s))) >> sw.s);
  return offset ^ ((offset & (field << sw.m)) << -sw.s);
}

/* ------------------------------------------------------------ composed -- */

static cute_status composed_fail(cute_error *err, cute_status code,
                                 const char *op, const cute_composed *C,
                                 const char *reason)
{
  char text[CUTE_ERRMSG_SIZE];
  cute_composed_print(C, text, sizeof text);
  return cute_fail(err, code, "%s(%s): %s", op, text, reason);
}

/* *out = sw(offset + v). */
static cute_status composed_finish(const cute_composed *C, const char *op,
                                   int64_t v, int64_t *out, cute_error *err)
{
  if (cute_add(C->offset, v, &v))
    return composed_fail(err, CUTE_EOVERFLOW, op, C,
                         "offset + layout value overflows 64 bits");
  *out = cute_swizzle_apply(C->sw, v);
  return CUTE_OK;
}

cute_status cute_composed_eval(const cute_composed *C, const cute_tuple *crd,
                               int64_t *out, cute_error *err)
{
  cute_tuple v;
  cute_status st = cute_layout_eval(&C->layout, crd, &v, err);
  if (st) return st;
  if (!cute_tuple_is_int(&v) || v.e[0] != 0)
    return composed_fail(err, CUTE_ECODOMAIN, "composed_eval", C,
                         "a swizzle needs an integral layout");
  return composed_finish(C, "composed_eval", v.v[0], out, err);
}

cute_status cute_composed_eval_index(const cute_composed *C, int64_t index,
                                     int64_t *out, cute_error *err)
{
  int64_t v;
  cute_status st = cute_layout_eval_index(&C->layout, index, &v, err);
  if (st) return st;
  return composed_finish(C, "composed_eval_index", v, out, err);
}

cute_status cute_composed_size(const cute_composed *C, int64_t *out,
                               cute_error *err)
{
  return cute_layout_size(&C->layout, out, err);
}

/* Largest swizzled value over the domain, walking it as an odometer over
 * the flat leaves (colexicographic: leaf 0 fastest).  Partial sums stay
 * within [lo, hi] of the image, checked by the caller. */
static int64_t cosize_brute(const cute_composed *C, int64_t size)
{
  const cute_tuple *s = &C->layout.shape, *d = &C->layout.stride;
  int64_t c[CUTE_MAX_LEAVES] = {0}, v = C->offset, best, i;
  int k;
  best = cute_swizzle_apply(C->sw, v);
  for (i = 1; i < size; i++) {
    for (k = 0; ++c[k] == s->v[k]; k++) { /* carry */
      v -= (s->v[k] - 1) * d->v[k];
      c[k] = 0;
    }
    v += d->v[k];
    if (cute_swizzle_apply(C->sw, v) > best)
      best = cute_swizzle_apply(C->sw, v);
  }
  return best;
}

/* Exact up to CUTE_MAX_WALK elements (cute.h).  Beyond, an upper bound: the
 * swizzle maps every aligned block of 2^(M+|S|+B) offsets onto itself, so
 * no swizzled value leaves the block of the largest unswizzled one, hi:
 * cosize <= (hi | (block - 1)) + 1, exact when that block is full. */
cute_status cute_composed_cosize(const cute_composed *C, int64_t *out,
                                 cute_error *err)
{
  const cute_tuple *s = &C->layout.shape, *d = &C->layout.stride;
  int64_t size, hi = C->offset, lo = C->offset, ext, best;
  int k;
  cute_status st = cute_layout_size(&C->layout, &size, err);
  if (st) return st;
  if (cute_layout_has_basis(&C->layout))
    return composed_fail(err, CUTE_ECODOMAIN, "composed_cosize", C,
                         "a swizzle needs an integral layout");
  for (k = 0; k < s->nleaf; k++) {
    if (cute_mul(s->v[k] - 1, d->v[k], &ext) ||
        cute_add(ext > 0 ? hi : lo, ext, ext > 0 ? &hi : &lo))
      return composed_fail(err, CUTE_EOVERFLOW, "composed_cosize", C,
                           "the image overflows 64 bits");
  }
  if (lo < 0)  /* a swizzle permutes bits of offsets >= 0 */
    return composed_fail(err, CUTE_ECODOMAIN, "composed_cosize", C,
                         "the image reaches below 0, where a swizzle has "
                         "no meaning");
  if (size <= CUTE_MAX_WALK) {
    best = cosize_brute(C, size);
  } else {
    int span = swizzle_valid(C->sw) ? swizzle_span(C->sw) : 0;
    best = hi | (((int64_t)1 << span) - 1);
  }
  if (best == INT64_MAX)
    return composed_fail(err, CUTE_EOVERFLOW, "composed_cosize", C,
                         "cosize overflows 64 bits");
  *out = best + 1;
  return CUTE_OK;
}

cute_status cute_composed_compose(cute_composed *out, const cute_composed *C,
                                  const cute_layout *B, cute_error *err)
{
  cute_layout R;
  cute_status st = cute_composition(&R, &C->layout, B, err);
  if (st) return st;
  out->sw = C->sw;
  out->offset = C->offset;
  out->layout = R;
  return CUTE_OK;
}
