/*
 * divide.c -- logical divide and its zipped, tiled and flat arrangements
 * (paper 3.5.2; CuTe's logical_divide family).
 *
 *   A / B = A o (B, B*),   B* = coalesce(complement(B, size(A)))
 *
 * The complement is taken against size(A), so (B, B*) covers all of A.
 * B* is coalesced, as CuTe's complement is: the algebra keeps a trailing
 * size-1 mode whose stride marks the end of the codomain (complement(8:2,
 * 16) = (2,1):(1,16)), needed on the extended domain but always at
 * coordinate 0 inside (B, B*), which covers A; without it the rest mode
 * reads as the paper prints it ((8,16):(20,1) / <4:1,8:2> has rest (2,2)).
 */
#include "tiling.h"

static cute_status divide1(cute_layout *out, const cute_layout *A,
                           const cute_layout *B, cute_error *err)
{
  cute_layout rest, both;
  const cute_layout *parts[2];
  int64_t n;
  cute_status st;
  parts[0] = B;
  parts[1] = &rest;
  if ((st = cute_layout_size(A, &n, err)) ||
      (st = cute_complement(&rest, B, n, err)) ||
      (st = cute_coalesce(&rest, &rest, err)) ||
      (st = cute_layout_concat(&both, parts, 2, err)))
    return st;
  return cute_composition(out, A, &both, err);
}

/* The logical divide, then its arrangement `how` (-1: none). */
static cute_status divide(cute_layout *out, const cute_layout *A,
                          const cute_tiler *T, int how, const char *op,
                          cute_error *err)
{
  cute_layout D;
  cute_status st = cute_tiler_check(T, err);
  if (st == CUTE_OK) st = cute_tiler_apply(&D, A, T, 1, divide1, err);
  if (st == CUTE_OK)
    st = how < 0 ? (cute_scratch_end(out, &D), CUTE_OK)
                 : cute_tiler_arrange(out, &D, T, how, err);
  return cute_tiler_context(err, st, op, A, T);
}

cute_status cute_logical_divide(cute_layout *out, const cute_layout *A,
                                const cute_tiler *T, cute_error *err)
{
  return divide(out, A, T, -1, "logical_divide", err);
}

cute_status cute_zipped_divide(cute_layout *out, const cute_layout *A,
                               const cute_tiler *T, cute_error *err)
{
  return divide(out, A, T, CUTE_ZIPPED, "zipped_divide", err);
}

cute_status cute_tiled_divide(cute_layout *out, const cute_layout *A,
                              const cute_tiler *T, cute_error *err)
{
  return divide(out, A, T, CUTE_TILED, "tiled_divide", err);
}

cute_status cute_flat_divide(cute_layout *out, const cute_layout *A,
                             const cute_tiler *T, cute_error *err)
{
  return divide(out, A, T, CUTE_FLAT, "flat_divide", err);
}
