/*
 * fuzz_inverse.c -- right and left inverses (paper 3.4.1, 3.4.3).
 *
 * Input "A".  Whenever the algebra succeeds on an integral A:
 *   - right inverse R: R(k) is an index of A (0 <= R(k) < size(A)) and
 *     A(R(k)) = k for every k < size(R) (the first FZ_MAX_SIZE of them);
 *     and it is the largest: when A's non-zero, non-trivial modes (the
 *     reference filter F) are a bijection onto [0, size(F)), size(R) =
 *     size(F); it fails only on a coordinate A, a negative stride or an
 *     overflow (of A's index strides: its size may not fit);
 *   - left inverse L: A(L(A(i))) = A(i) for every index i of A, and
 *     L(A(i)) = i when A is injective.
 * Coordinate layouts only go through the error contract.
 */
#include "fuzz_common.h"

static int64_t vals[FZ_MAX_SIZE], sorted[FZ_MAX_SIZE];

static void check_right(const cute_layout *A, const cute_layout *R)
{
  int64_t na = fz_size(A), nr = fz_size(R), k, r, x;
  cute_layout F;
  for (k = 0; k < nr && k < FZ_MAX_SIZE; k++) {
    if (!fz_eval(R, k, &r))
      return;
    fz_require(r >= 0 && (na < 0 || r < na), "right_inverse(%s) = %s: "
               "R(%lld) = %lld is not an index of A", fz_text(A), fz_text(R),
               (long long)k, (long long)r);
    if (fz_eval(A, r, &x))
      fz_require(x == k, "right_inverse(%s) = %s: A(R(%lld)) = A(%lld) = "
                 "%lld", fz_text(A), fz_text(R), (long long)k, (long long)r,
                 (long long)x);
  }
  /* Largest: a bijective filter is inverted whole. */
  fz_filter_ref(&F, A);
  if (!fz_small(&F) || !fz_eval_all(&F, fz_size(&F), vals))
    return;
  nr = fz_size(&F);
  if (fz_sorted(vals, nr, sorted) && sorted[0] == 0 &&
      sorted[nr - 1] == nr - 1)
    fz_require(fz_size(R) == nr, "right_inverse(%s) = %s, yet %s is a "
               "bijection onto [0, %lld)", fz_text(A), fz_text(R),
               fz_text(&F), (long long)nr);
}

static void check_left(const cute_layout *A, const cute_layout *L)
{
  int64_t na = fz_size(A), i, l, x;
  int injective;
  if (!fz_small(A) || !fz_eval_all(A, na, vals))
    return;
  injective = fz_sorted(vals, na, sorted);
  for (i = 0; i < na; i++) {
    if (!fz_eval(L, vals[i], &l) || !fz_eval(A, l, &x))
      continue;
    fz_require(x == vals[i], "left_inverse(%s) = %s: A(L(A(%lld))) = A(%lld)"
               " = %lld != %lld", fz_text(A), fz_text(L), (long long)i,
               (long long)l, (long long)x, (long long)vals[i]);
    fz_require(!injective || l == i, "left_inverse(%s) = %s: L(A(%lld)) = "
               "%lld for an injective A", fz_text(A), fz_text(L),
               (long long)i, (long long)l);
  }
}

/* A negative stride on a mode that counts (size > 1): cute.h's reason
 * for an integral right inverse to fail, with overflow. */
static int negative(const cute_layout *A)
{
  int k;
  for (k = 0; k < A->stride.nleaf; k++)
    if (A->stride.v[k] < 0 && A->shape.v[k] > 1)
      return 1;
  return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
  static fz_input in;
  cute_layout A, R, L;
  cute_error e;
  cute_status st;
  int right, left;
  if (!fz_split(&in, data, size) || !fz_layout(&A, in.f[0]))
    return 0;
  st = cute_right_inverse(&R, &A, &e);
  right = fz_ok(st, &e, "right_inverse");
  fz_require(right || st == CUTE_EOVERFLOW || cute_layout_has_basis(&A) ||
                 negative(&A),
             "right_inverse(%s) fails: %s", fz_text(&A), e.msg);
  left = fz_ok(cute_left_inverse(&L, &A, &e), &e, "left_inverse");
  if (cute_layout_has_basis(&A))
    return 0;
  if (right)
    check_right(&A, &R);
  if (left)
    check_left(&A, &L);
  return 0;
}
