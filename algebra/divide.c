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

#include <string.h>

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

/* ---------------------------------------------------------- one pass -- */

/* dst = (x, y), the concatenation written directly: the group of B and
 * its rest is made once per divided mode.  0 when it would pass a limit. */
static int pair(cute_layout *dst, const cute_layout *x, const cute_layout *y)
{
  int nx = x->shape.ntok, ny = y->shape.ntok, lx = x->shape.nleaf;
  int ly = y->shape.nleaf;
  if (nx + ny + 2 > CUTE_MAX_TOKENS || lx + ly > CUTE_MAX_LEAVES ||
      cute_tuple_depth(&x->shape) + 1 > CUTE_MAX_DEPTH ||
      cute_tuple_depth(&y->shape) + 1 > CUTE_MAX_DEPTH)
    return 0;
  dst->shape.tok[0] = '(';
  memcpy(dst->shape.tok + 1, x->shape.tok, nx);
  memcpy(dst->shape.tok + 1 + nx, y->shape.tok, ny);
  dst->shape.tok[nx + ny + 1] = ')';
  memcpy(dst->shape.v, x->shape.v, lx * sizeof x->shape.v[0]);
  memcpy(dst->shape.v + lx, y->shape.v, ly * sizeof y->shape.v[0]);
  memset(dst->shape.e, 0, (lx + ly) * sizeof dst->shape.e[0]);
  memcpy(dst->stride.v, x->stride.v, lx * sizeof x->stride.v[0]);
  memcpy(dst->stride.v + lx, y->stride.v, ly * sizeof y->stride.v[0]);
  memcpy(dst->stride.e, x->stride.e, lx * sizeof x->stride.e[0]);
  memcpy(dst->stride.e + lx, y->stride.e, ly * sizeof y->stride.e[0]);
  dst->shape.ntok = dst->stride.ntok = (uint8_t)(nx + ny + 2);
  dst->shape.nleaf = dst->stride.nleaf = (uint8_t)(lx + ly);
  memcpy(dst->stride.tok, dst->shape.tok, nx + ny + 2);
  return 1;
}

/* (B, B*) for the element a of A, as divide1 makes it, for the one-pass
 * divide below; any failure is for the general path to report. */
static int with_rest(cute_layout *both, const cute_layout *A,
                     const cute_span *a, const cute_layout *B)
{
  cute_layout rest;
  int64_t n = 1;
  int k;
  for (k = a->leaf0; k < a->leaf1; k++)
    if (cute_mul(n, A->shape.v[k], &n)) return 0;
  /* A coordinate tiler's rest is divide1's coordinate_rest. */
  return !cute_layout_has_basis(B) && !cute_tuple_check(&B->shape, NULL) &&
         !cute_tuple_check(&B->stride, NULL) &&
         !cute_complement(&rest, B, n, NULL) &&
         !cute_coalesce(&rest, &rest, NULL) && pair(both, B, &rest);
}

/* The logical divide by a layout or a flat list of layouts in one pass:
 * each divided mode is composed where it lies in A and emitted straight
 * into the result, the rest of A copied after it; no mode of A is copied
 * out and no intermediate result copied back.  0 when T is another tiler
 * or a step fails: the general path (tiler_apply over divide1, the same
 * steps) then decides and reports. */
static int divide_flat(cute_layout *out, const cute_layout *A,
                       const cute_tiler *T)
{
  cute_layout tmp, *r, both;
  cute_span a;
  char why[96];
  int i, rank = cute_layout_rank(A);
  /* Sum strides compose through stride.c, not composition.c's pass. */
  if (cute_tuple_has_sum(&A->stride)) return 0;
  if (cute_tiler_tok(T, 0) == 'L') {
    a.tok0 = a.leaf0 = 0;
    a.tok1 = A->shape.ntok;
    a.leaf1 = A->shape.nleaf;
    return with_rest(&both, A, &a, &T->mode[0]) &&
           !cute_composition(out, A, &both, NULL);
  }
  if (!cute_tiler_is_flat(T) || T->n > rank) return 0;
  r = cute_tiler_target(out, &tmp, A, T);
  r->shape.tok[r->shape.ntok++] = '(';
  for (i = 0; i < T->n; i++) {
    cute_tuple_span(&A->shape, i, &a); /* i < rank: it exists */
    if (!with_rest(&both, A, &a, &T->mode[i]) ||
        cute_composition_append(r, A, &a, &both, why, sizeof why))
      return 0;
  }
  if (cute_scratch_modes(r, A, T->n, rank, NULL) ||
      cute_scratch_tok(r, ')', NULL) || cute_tuple_check(&r->shape, NULL))
    return 0;
  cute_tiler_done(out, r);
  return 1;
}

cute_status cute_logical_divide(cute_layout *out, const cute_layout *A,
                                const cute_tiler *T, cute_error *err)
{
  return cute_tiler_run(out, A, T, -1, "logical_divide",
                        divide_flat, divide1, err);
}

cute_status cute_logical_divide_general(cute_layout *out, const cute_layout *A,
                                  const cute_tiler *T, cute_error *err)
{
  return cute_tiler_run(out, A, T, -1, "logical_divide",
                        NULL, divide1, err);
}

cute_status cute_zipped_divide(cute_layout *out, const cute_layout *A,
                               const cute_tiler *T, cute_error *err)
{
  return cute_tiler_run(out, A, T, CUTE_ZIPPED, "zipped_divide",
                        divide_flat, divide1, err);
}

cute_status cute_tiled_divide(cute_layout *out, const cute_layout *A,
                              const cute_tiler *T, cute_error *err)
{
  return cute_tiler_run(out, A, T, CUTE_TILED, "tiled_divide",
                        divide_flat, divide1, err);
}

cute_status cute_flat_divide(cute_layout *out, const cute_layout *A,
                             const cute_tiler *T, cute_error *err)
{
  return cute_tiler_run(out, A, T, CUTE_FLAT, "flat_divide",
                        divide_flat, divide1, err);
}
