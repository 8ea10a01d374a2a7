/*
 * fuzz_coalesce.c -- coalesce (paper 3.2), coalesce by profile,
 * filter_zeros and filter.
 *
 * Input "A" or "A|profile".  Whenever the algebra succeeds:
 *   - coalesce C: depth <= 1, a single mode as an integer leaf, size(C) =
 *     size(A), C(i) = A(i) on [0, size(A)), and minimal: no size-1 mode
 *     (except the 1:0 of an all-size-1 A) and no two adjacent modes that
 *     merge (d1 = s0*d0 in the same basis);
 *   - coalesce(A, P): size and values kept, and by mode: where P has a
 *     leaf, that mode is coalesce(A's mode); where P has a group, the same
 *     rules one level down; A's modes past rank(P) are unchanged;
 *   - filter_zeros Z: the tuples of A, each stride-0 leaf's shape set to
 *     1 and every other leaf unchanged;
 *   - filter: coalesce(filter_zeros(A)) as stated, and the same function
 *     as the reference filter (A's non-zero, non-trivial leaves);
 *   - coalesce and filter fail only on overflow, filter_zeros never.
 * Values of coordinate layouts are compared as points (fz_same_value):
 * coalesce((2,4):(0,0@1)) = 8:0 has the value 0 where A has (0,0).
 */
#include "fuzz_common.h"

#include <string.h>

/* X(i) = Y(i) for i < n (n <= FZ_MAX_SIZE), any codomain. */
static void same_function(const char *op, const cute_layout *X,
                          const cute_layout *Y, int64_t n)
{
  cute_tuple x, y;
  int64_t i;
  for (i = 0; i < n && i < FZ_MAX_SIZE; i++)
    if (fz_eval_at(X, i, &x) && fz_eval_at(Y, i, &y))
      fz_require(fz_same_value(&x, &y), "%s(%s) = %s differs at %lld: "
                 "%s vs %s", op, fz_text(Y), fz_text(X), (long long)i,
                 fz_ttext(&x), fz_ttext(&y));
}

static int mergeable(const cute_layout *C, int k)
{
  fz_i128 next = (fz_i128)C->shape.v[k] * C->stride.v[k];
  cute_basis e0 = C->stride.v[k] ? C->stride.e[k] : 0;
  cute_basis e1 = C->stride.v[k + 1] ? C->stride.e[k + 1] : 0;
  return e0 == e1 && next == C->stride.v[k + 1];
}

static void check_coalesce(const cute_layout *A, const cute_layout *C)
{
  int64_t n = fz_size(A);
  int k, m = C->shape.nleaf;
  fz_require(cute_layout_depth(C) <= 1 && (m > 1 || cute_layout_depth(C) == 0)
                 && fz_size(C) == n,
             "coalesce(%s) = %s: depth or size", fz_text(A), fz_text(C));
  for (k = 0; k < m; k++)
    fz_require(C->shape.v[k] > 1 || (m == 1 && C->stride.v[0] == 0),
               "coalesce(%s) = %s: size-1 mode left", fz_text(A),
               fz_text(C));
  for (k = 0; k + 1 < m; k++)
    fz_require(!mergeable(C, k), "coalesce(%s) = %s: modes %d and %d merge",
               fz_text(A), fz_text(C), k, k + 1);
  same_function("coalesce", C, A, n);
}

/* O = coalesce(A, P), checked structurally mode by mode. */
static void check_profile(const cute_layout *O, const cute_layout *A,
                          const cute_tuple *P)
{
  cute_layout Ok, Ak, C;
  cute_tuple Pk;
  cute_error e;
  int k, r = cute_tuple_rank(P);
  if (cute_tuple_is_int(P)) {
    fz_require(cute_coalesce(&C, A, &e) == CUTE_OK && cute_layout_equal(O, &C),
               "coalesce(%s, leaf) = %s, not coalesce(A)", fz_text(A),
               fz_text(O));
    return;
  }
  fz_require(r <= cute_layout_rank(A) && !cute_tuple_is_int(&O->shape) &&
                 cute_layout_rank(O) == cute_layout_rank(A),
             "coalesce(%s, %s) = %s: rank", fz_text(A), fz_ttext(P),
             fz_text(O));
  for (k = 0; k < cute_layout_rank(A); k++) {
    fz_require(fz_mode(&Ok, O, k) && fz_mode(&Ak, A, k), "modes of %s, %s",
               fz_text(O), fz_text(A));
    if (k >= r) {
      fz_require(cute_layout_equal(&Ok, &Ak), "coalesce(%s, %s) = %s: mode "
                 "%d past the profile changed", fz_text(A), fz_ttext(P),
                 fz_text(O), k);
      continue;
    }
    fz_require(cute_tuple_mode(&Pk, P, k, &e) == CUTE_OK, "profile mode");
    check_profile(&Ok, &Ak, &Pk);
  }
}

static void check_filter_zeros(const cute_layout *A, const cute_layout *Z)
{
  int k;
  fz_require(cute_tuple_equal(&Z->stride, &A->stride) &&
                 Z->shape.ntok == A->shape.ntok &&
                 Z->shape.nleaf == A->shape.nleaf &&
                 memcmp(Z->shape.tok, A->shape.tok, A->shape.ntok) == 0,
             "filter_zeros(%s) = %s: structure", fz_text(A), fz_text(Z));
  for (k = 0; k < A->shape.nleaf; k++)
    fz_require(Z->shape.v[k] == (A->stride.v[k] == 0 ? 1 : A->shape.v[k]),
               "filter_zeros(%s) = %s: leaf %d", fz_text(A), fz_text(Z), k);
}

static void check_filter(const cute_layout *A, const cute_layout *F)
{
  cute_layout Z, C, R;
  cute_error e;
  fz_require(cute_filter_zeros(&Z, A, &e) == CUTE_OK &&
                 cute_coalesce(&C, &Z, &e) == CUTE_OK &&
                 cute_layout_equal(&C, F),
             "filter(%s) = %s, not coalesce(filter_zeros(A))", fz_text(A),
             fz_text(F));
  fz_filter_ref(&R, A);
  fz_require(fz_size(F) == fz_size(&R), "filter(%s) = %s: size", fz_text(A),
             fz_text(F));
  same_function("filter", F, &R, fz_size(F));
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
  static fz_input in;
  cute_layout A, C, O, Z, F;
  cute_tuple P;
  cute_error e;
  cute_status st;
  if (!fz_split(&in, data, size) || !fz_layout(&A, in.f[0]))
    return 0;
  st = cute_coalesce(&C, &A, &e);
  if (fz_ok(st, &e, "coalesce"))
    check_coalesce(&A, &C);
  else
    fz_require(st == CUTE_EOVERFLOW, "coalesce(%s): %s", fz_text(&A), e.msg);
  if (fz_tuple(&P, in.f[1]) &&
      fz_ok(cute_coalesce_profile(&O, &A, &P, &e), &e, "coalesce")) {
    check_profile(&O, &A, &P);
    same_function("coalesce", &O, &A, fz_size(&A));
  }
  st = cute_filter_zeros(&Z, &A, &e);
  fz_require(fz_ok(st, &e, "filter_zeros"), "filter_zeros(%s): %s",
             fz_text(&A), e.msg);
  check_filter_zeros(&A, &Z);
  st = cute_filter(&F, &A, &e);
  if (fz_ok(st, &e, "filter"))
    check_filter(&A, &F);
  else
    fz_require(st == CUTE_EOVERFLOW, "filter(%s): %s", fz_text(&A), e.msg);
  return 0;
}
