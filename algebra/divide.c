/*
 * divide.c -- logical divide and its zipped, tiled and flat arrangements
 * (paper 3.5.2; CuTe's logical_divide family).
 *
 *   A / B = A o (B, B*),   B* = coalesce(complement(B, size(A)))
 *
 * The complement is taken against size(A), so (B, B*) covers all of A;
 * a coordinate tiler B (strides a@i naming A's modes) gets its rest mode
 * by mode (coordinate_rest below).
 * B* is coalesced, as CuTe's complement is: the algebra keeps a trailing
 * size-1 mode whose stride marks the end of the codomain (complement(8:2,
 * 16) = (2,1):(1,16)), needed on the extended domain but always at
 * coordinate 0 inside (B, B*), which covers A; without it the rest mode
 * reads as the paper prints it ((8,16):(20,1) / <4:1,8:2> has rest (2,2)).
 */
#include "tiling.h"

/* B_p's strides as integer indices of A_p: a nested a@q@... names the
 * sub-mode at path (q, ...) of A_p, whose coordinate i is the index
 * i * (the compact stride of its first leaf), colexicographic as every
 * integer coordinate: (3,4) at 2@1 -> 6. */
static cute_status to_index(cute_layout *Bp, const cute_layout *Ap,
                            cute_error *err)
{
  cute_layout C;
  int k, j;
  cute_status st = cute_layout_left(&C, &Ap->shape, err);
  if (st) return st;
  for (k = 0; k < Bp->stride.nleaf; k++) {
    cute_basis e = Bp->stride.e[k];
    cute_span sp, sub;
    if (e == 0) continue;
    sp.tok0 = sp.leaf0 = 0;
    sp.tok1 = C.shape.ntok;
    sp.leaf1 = C.shape.nleaf;
    for (j = 0; j < CUTE_BASIS_LEN(e); j++, sp = sub)
      if (cute_tuple_child(&C.shape, &sp, CUTE_BASIS_AT(e, j), &sub))
        return cute_fail(err, CUTE_ERANK, "stride leaf %d of the tiler "
                         "names no sub-mode of the layout", k);
    if (cute_mul(Bp->stride.v[k], C.stride.v[sp.leaf0], &Bp->stride.v[k]))
      return CUTE_OVERFLOW(err, "divide");
    Bp->stride.e[k] = 0;
  }
  return CUTE_OK;
}

/* The rest B* of a coordinate tiler B, whose strides name modes of A (the
 * paper's tilers as coordinate layouts, 3.3.5): per mode p of A, the
 * complement of B's component along p (in A_p's integer indices) against
 * size(A_p), its strides a taken as a@p; a mode B never names is whole,
 * size(A_p):1@p.  So (B, B*) covers A's coordinates, as the by-mode tiler
 * of the same components does:
 *   (8,8):(9,1) / 4:1@0 = A o (4:1@0, (2,8):(4@0,1@1))
 *                       = (4,(2,8)):(9,(36,1))
 * A sum stride moves along several modes at once, so per-mode rests
 * would not be disjoint from B: refused. */
static cute_status coordinate_rest(cute_layout *rest, const cute_layout *A,
                                   const cute_layout *B, cute_error *err)
{
  cute_layout acc, Ap, Bp, Rp;
  int64_t n;
  int k, p, any, r = cute_layout_rank(A);
  cute_status st;
  for (k = 0; k < B->stride.nleaf; k++) {
    cute_basis e = B->stride.e[k];
    if (CUTE_BASIS_IS_SUM(e))
      return cute_fail(err, CUTE_ECODOMAIN, "stride leaf %d of the tiler is "
                       "a sum, which moves along several modes at once: "
                       "the rest is taken mode by mode", k);
    if (e == 0 && B->stride.v[k] != 0)
      return cute_fail(err, CUTE_ECODOMAIN, "strides of the tiler mix "
                       "integers and basis elements");
    if (e != 0 && CUTE_BASIS_AT(e, 0) >= r)
      return cute_fail(err, CUTE_ERANK, "stride leaf %d of the tiler names "
                       "mode %d of a rank-%d layout", k, CUTE_BASIS_AT(e, 0),
                       r);
  }
  cute_scratch_start(&acc);
  if ((st = cute_scratch_tok(&acc, '(', err))) return st;
  for (p = 0; p < r; p++) {
    cute_stride_component(&Bp, B, p, &any);
    if ((st = cute_layout_mode(&Ap, A, p, err)) ||
        (st = cute_layout_size(&Ap, &n, err)))
      return st;
    if (!any) {
      cute_tuple s, d;
      cute_tuple_int(&s, n);
      cute_tuple_int(&d, 1);
      st = cute_layout_make(&Rp, &s, &d, err);
    } else if ((st = to_index(&Bp, &Ap, err)) == CUTE_OK) {
      st = cute_complement(&Rp, &Bp, n, err);
    }
    if (st || (st = cute_coalesce(&Rp, &Rp, err))) return st;
    for (k = 0; k < Rp.stride.nleaf; k++)
      Rp.stride.e[k] = Rp.stride.v[k] ? CUTE_BASIS1(p) : 0;
    if ((st = cute_scratch_whole(&acc, &Rp, err))) return st;
  }
  if ((st = cute_scratch_tok(&acc, ')', err)) ||
      (st = cute_scratch_finish(rest, &acc, err)))
    return st;
  return CUTE_OK;
}

static cute_status divide1(cute_layout *out, const cute_layout *A,
                           const cute_layout *B, cute_error *err)
{
  cute_layout rest, both;
  const cute_layout *parts[2];
  int64_t n;
  cute_status st;
  parts[0] = B;
  parts[1] = &rest;
  if (cute_layout_has_basis(B))
    st = coordinate_rest(&rest, A, B, err);
  else if ((st = cute_layout_size(A, &n, err)) == CUTE_OK)
    st = cute_complement(&rest, B, n, err);
  if (st || (st = cute_coalesce(&rest, &rest, err)) ||
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
