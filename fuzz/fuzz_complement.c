/*
 * fuzz_complement.c -- C = complement(A [, cotarget]) (paper 3.5, eqs.
 * 27-29; cute.h's @post).
 *
 * Input "A" or "A|cotarget".  Whenever the algebra succeeds, for an
 * integral A small enough to enumerate:
 *   - ordered image (29): C(j-1) < C(j) on C's extended domain, walked
 *     until it passes A's largest value (at least over C's domain);
 *   - disjoint images (28): C(j) for j >= 1 is never a value of A on A's
 *     domain, and C(0) = 0;
 *   - with cotarget > 0: size(A) * size(C) >= cotarget and the offsets
 *     A(i) + C(j) of (A, C) cover [0, cotarget);
 *   - a coordinate A with a cotarget > 0 is CUTE_ECODOMAIN;
 *   - without a cotarget, an integral A whose modes do not interleave
 *     (complementable) is refused only on overflow.
 * A coordinate complement is checked for disjointness over C's domain.
 */
#include "fuzz_common.h"

#include <stdlib.h>
#include <string.h>

/* Extended-domain indices of C walked for order and disjointness, and the
 * largest cotarget or pair count whose coverage is enumerated. */
enum { WALK_MAX = 1 << 16, COVER_MAX = 1 << 20 };

static int64_t a_vals[FZ_MAX_SIZE], a_sorted[FZ_MAX_SIZE];

static void check_walk(const cute_layout *A, const cute_layout *C, int64_t na)
{
  int64_t nc = fz_size(C), top = a_sorted[na - 1], j, prev = 0, x;
  fz_require(fz_eval(C, 0, &x) && x == 0, "complement(%s) = %s: C(0) != 0",
             fz_text(A), fz_text(C));
  for (j = 1; j < WALK_MAX && (j < nc || prev <= top); j++) {
    if (!fz_eval(C, j, &x))
      return;
    fz_require(x > prev, "complement(%s) = %s: C(%lld) = %lld <= C(%lld) = "
               "%lld (not ordered)", fz_text(A), fz_text(C), (long long)j,
               (long long)x, (long long)(j - 1), (long long)prev);
    fz_require(!fz_member(a_sorted, na, x), "complement(%s) = %s: C(%lld) = "
               "%lld is a value of A (not disjoint)", fz_text(A), fz_text(C),
               (long long)j, (long long)x);
    prev = x;
  }
}

static void check_cover(const cute_layout *A, const cute_layout *C,
                        int64_t na, int64_t cotarget)
{
  int64_t nc = fz_size(C), i, j, c, x;
  unsigned char *seen;
  fz_require(nc >= 0 && (fz_i128)na * nc >= cotarget,
             "complement(%s, %lld) = %s: size(A) * size(C) < cotarget",
             fz_text(A), (long long)cotarget, fz_text(C));
  if (cotarget > COVER_MAX || (fz_i128)na * nc > COVER_MAX)
    return;
  seen = calloc((size_t)cotarget, 1);
  fz_require(seen != NULL, "out of memory");
  for (j = 0; j < nc; j++) {
    if (!fz_eval(C, j, &c))
      break;
    for (i = 0; i < na; i++) {
      fz_i128 y = (fz_i128)a_vals[i] + c;
      if (y >= 0 && y < cotarget)
        seen[(size_t)y] = 1;
    }
  }
  if (j == nc)
    for (x = 0; x < cotarget; x++)
      fz_require(seen[x], "complement(%s, %lld) = %s: (A, C) misses %lld",
                 fz_text(A), (long long)cotarget, fz_text(C), (long long)x);
  free(seen);
}

/* Coordinate layouts: C(j) for 1 <= j < size(C) is no value of A.  The
 * pairs are compared as tuples: at most PAIRS_MAX of them, as 828:608@26
 * (its complement has 608 elements of 27 modes) took 6 s under ASan. */
enum { PAIRS_MAX = 1 << 16 };

static void check_coordinate(const cute_layout *A, const cute_layout *C)
{
  int64_t na = fz_size(A), nc = fz_size(C), i, j;
  static cute_tuple av[FZ_MAX_SIZE];
  cute_tuple c;
  if (na < 0 || nc < 0 || na > FZ_MAX_SIZE || nc > FZ_MAX_SIZE ||
      na * nc > PAIRS_MAX)
    return;
  for (i = 0; i < na; i++)
    if (!fz_eval_at(A, i, &av[i]))
      return;
  for (j = 1; j < nc; j++) {
    if (!fz_eval_at(C, j, &c))
      return;
    for (i = 0; i < na; i++)
      fz_require(!cute_tuple_equal(&c, &av[i]), "complement(%s) = %s: C(%lld)"
                 " = A(%lld) = %s", fz_text(A), fz_text(C), (long long)j,
                 (long long)i, fz_ttext(&c));
  }
}

/* The minimal complement's condition: A's modes of size > 1 and non-zero
 * stride, in stride order, each start at or past the extent of those
 * before it (no negative stride).  Then complement(A) must succeed
 * unless 64-bit arithmetic overflows; (3,2):(2,3) interleaves. */
static int complementable(const cute_layout *A)
{
  int64_t s[CUTE_MAX_LEAVES], d[CUTE_MAX_LEAVES], t;
  fz_i128 cur = 1;
  int n = 0, k, j;
  for (k = 0; k < A->shape.nleaf; k++) {
    if (A->stride.v[k] < 0)
      return 0;
    if (A->shape.v[k] > 1 && A->stride.v[k] != 0) {
      s[n] = A->shape.v[k];
      d[n++] = A->stride.v[k];
    }
  }
  for (k = 1; k < n; k++)
    for (j = k; j > 0 && (d[j] < d[j - 1] ||
                          (d[j] == d[j - 1] && s[j] < s[j - 1])); j--) {
      t = d[j]; d[j] = d[j - 1]; d[j - 1] = t;
      t = s[j]; s[j] = s[j - 1]; s[j - 1] = t;
    }
  for (k = 0; k < n; k++) {
    if (d[k] < cur)
      return 0;
    cur = (fz_i128)s[k] * d[k];
  }
  return 1;
}

/* A basis stride of non-zero value: A's codomain is not the integers. */
static int live_basis(const cute_layout *A)
{
  int k;
  for (k = 0; k < A->stride.nleaf; k++)
    if (A->stride.e[k] != 0 && A->stride.v[k] != 0)
      return 1;
  return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
  static fz_input in;
  cute_layout A, C;
  cute_error e;
  int64_t cotarget = 0, na;
  cute_status st;
  if (!fz_split(&in, data, size) || !fz_layout(&A, in.f[0]))
    return 0;
  if (in.n > 1 && !fz_int(&cotarget, in.f[1]))
    return 0;
  st = cute_complement(&C, &A, cotarget, &e);
  fz_require(st == CUTE_OK || st == CUTE_EOVERFLOW || cotarget > 0 ||
                 live_basis(&A) || !complementable(&A),
             "complement(%s) fails: %s", fz_text(&A), e.msg);
  if (!fz_ok(st, &e, "complement"))
    return 0;
  if (cute_layout_has_basis(&A)) {
    /* A basis stride of value 0 (6:0@2) adds nothing to the image: the
     * complement skips stride-0 modes, so A is integral for the cotarget. */
    fz_require(cotarget <= 0 || !live_basis(&A), "complement(%s, %lld) of a "
               "coordinate layout succeeds", fz_text(&A), (long long)cotarget);
    check_coordinate(&A, &C);
    return 0;
  }
  if (!fz_small(&A))
    return 0;
  na = fz_size(&A);
  if (!fz_eval_all(&A, na, a_vals))
    return 0;
  fz_sorted(a_vals, na, a_sorted);
  check_walk(&A, &C, na);
  if (cotarget > 0)
    check_cover(&A, &C, na, cotarget);
  return 0;
}
