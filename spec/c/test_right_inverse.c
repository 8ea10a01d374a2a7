/*
 * test_right_inverse.c -- right inverse (paper 3.4.1): Table 5, errors, and
 * L(R(k)) = k with R injective and maximal on random layouts.
 */
#include "testlib.h"

#include <stdlib.h>
#include <string.h>

/* Short names for this file's many rows. */
#define row(l, expected) \
  CHECK_UNARY(cute_right_inverse, "right_inverse", l, expected)
#define fails(l, code, needle) \
  CHECK_UNARY_FAILS(cute_right_inverse, "right_inverse", l, code, needle)

/* L(R(k)) == k for every k < size(R). */
static int is_right_inverse(const cute_layout *A, const cute_layout *R)
{
  int64_t k, n = size_of(R);
  for (k = 0; k < n; k++)
    if (eval_i(A, eval_i(R, k)) != k) return 0;
  return 1;
}

static void table5(void)
{
  row("(4,8):(1,4)", "32:1");
  row("(4,8):(8,1)", "(8,4):(4,1)");
  row("(3,7,5):(5,15,1)", "(5,21):(21,1)");
  row("(4,8):(1,5)", "4:1");
  row("(4,(4,2)):(4,(1,16))", "(4,4,2):(4,1,16)");
  row("((2,2),(4,2)):((1,8),(2,16))", "(2,4,2,2):(1,4,2,16)");
  /* Table 5 prints (2,2):(4,8), which is not a right inverse: L(4) = 0,
   * not 1.  Skipping the stride-0 modes, as its comment says, gives: */
  row("((2,2),(2,4)):((0,1),(0,2))", "(2,4):(2,8)");
  {
    cute_layout A = L("((2,2),(2,4)):((0,1),(0,2))");
    cute_layout P = L("(2,2):(4,8)"), R;
    CHECK(!is_right_inverse(&A, &P), "the printed row is an inverse?");
    CHECK(cute_right_inverse(&R, &A, NULL) == CUTE_OK &&
          is_right_inverse(&A, &R) && size_of(&R) == 8, "(2,4):(2,8)");
  }
  row("((2,2),(2,4)):((0,2),(0,4))", "1:0");
  row("(4,8):(1@0,1@1)", "(4,8):(1,4)");
  row("(4,(4,2)):(1@1,(1@0,6@1))", "(4,4):(4,1)");
  /* nested paths: ((0,j),k) -> j + 4k, one component per profile leaf */
  row("(4,8):(1@1@0,1@1)", "((1,4),8):((0,1),4)");
}

static void more(void)
{
  row("8:1", "8:1");
  row("1:0", "1:0");
  row("():()", "1:0");
  row("8:2", "1:0");
  row("(2,2):(1,1)", "2:1");             /* first stride-1 mode only */
  row("(4,2):(2,1)", "(2,4):(4,1)");
  row("((2,3),4):((12,1),3)", "(12,2):(2,1)"); /* chain 3:2,4:6,2:1 */
  row("(2,2,2):(1,4,2)", "(2,2,2):(1,4,2)");
  /* 2:2 continues 2:1 in offsets once the stride-0 mode between them is
   * skipped, but not in indices (r = 4, not 2): they must not merge. */
  row("((2,2),2):((1,0),2)", "(2,2):(1,4)");
  /* Per component, in component order; an empty chain is 1:0. */
  row("(4,8):(1@1,1@0)", "(8,4):(4,1)");
  row("(4,8):(2@0,1@1)", "(1,8):(0,4)");
  row("(4,8):(1@0,4@0)", "(32):(1)");
}

static void errors(void)
{
  fails("(4,8):(1,1@1)", CUTE_ECODOMAIN, "mix");
  fails("(4,8):(1@0,1@0@0)", CUTE_ECODOMAIN, "both as a coordinate");
  fails("(4,8):(1@0+1@1,1@1)", CUTE_ECODOMAIN, "sum stride");
}

/* Negative strides: refused, as left_inverse and complement refuse them.
 * This used to return the positive chain silently (4:-1 -> 1:0), which
 * need not be the largest right inverse, and CuTe's signed chain is no
 * inverse at all in general; both facts checked here by brute force. */
static void negative(void)
{
  cute_layout A = L("(4,8):(-1,4)"), B = L("(2,4):(-4,1)");
  cute_layout R2 = L("2:7"), Rs = L("(4,2):(2,-1)");
  fails("4:-1", CUTE_EINVAL, "negative stride -1");
  fails("(4,8):(-1,4)", CUTE_EINVAL, "negative stride -1");
  fails("(4,8):(1,-4)", CUTE_EINVAL, "negative stride -4");
  fails("(2,2,2):(1,-2,-8)", CUTE_EINVAL, "negative stride -2");
  fails("(4,8):(-1@0,1@1)", CUTE_EINVAL, "negative stride");
  /* Modes that contribute no offsets are skipped before the check. */
  row("(1,4):(-3,1)", "4:1");
  row("(4,2):(1,0)", "4:1");
  /* 1:0, the chain's answer for A, is not the largest: 2:7 is one too. */
  CHECK(is_right_inverse(&A, &R2), "2:7 is a right inverse of %s", S(&A));
  /* CuTe's signed chain for B, (4,2):(2,-1), leaves L's domain (R(4) =
   * -1) and even there L(R(4)) = L(-1) = -5, not 4. */
  CHECK(eval_i(&Rs, 4) == -1 && eval_i(&B, eval_i(&Rs, 4)) == -5,
        "signed chain of %s at 4", S(&B));
}

/* Random layouts with some strides negated: right_inverse refuses exactly
 * those with a negative stride on a mode of size > 1; the common vector
 * still works (from the positive chain) and is valid by brute force. */
static void negative_random(void)
{
  test_rng r;
  int t, k, refused = 0;
  rng_seed(&r, 13);
  for (t = 0; t < 10000; t++) {
    cute_layout A = rng_layout(&r, 3, 6, 6, 512), R, C;
    cute_error e;
    int64_t K, i;
    int neg = 0;
    cute_status st;
    for (k = 0; k < A.stride.nleaf; k++) {
      if (rng_range(&r, 0, 2) == 0) A.stride.v[k] = -A.stride.v[k];
      neg |= A.shape.v[k] > 1 && A.stride.v[k] < 0;
    }
    st = cute_right_inverse(&R, &A, &e);
    CHECK(neg ? st == CUTE_EINVAL && strstr(e.msg, "negative stride")
              : st == CUTE_OK && is_right_inverse(&A, &R),
          "right_inverse(%s): %s", S(&A), st ? e.msg : S(&R));
    refused += st != CUTE_OK;
    if (cute_max_common_vector(&A, &A, &K, &e) != CUTE_OK ||
        cute_max_common_layout(&C, &A, &A, &e) != CUTE_OK) {
      CHECK(0, "max_common(%s): %s", S(&A), e.msg);
      continue;
    }
    for (i = 0; i < K && eval_i(&A, eval_i(&C, i)) == i; i++) {}
    CHECK(i == K && size_of(&C) == K, "max_common(%s) = %lld, %s: A(C(%lld))"
          " != %lld", S(&A), (long long)K, S(&C), (long long)i,
          (long long)i);
  }
  CHECK(refused > 3000 && refused < 9000, "coverage: %d refused", refused);
}

/* R injective: distinct indices for distinct k. */
static int injective(const cute_layout *R)
{
  int64_t k, n = size_of(R), hi = 0;
  unsigned char *seen;
  int ok = 1;
  for (k = 0; k < n; k++)
    if (eval_i(R, k) > hi) hi = eval_i(R, k);
  seen = calloc((size_t)hi + 1, 1);
  for (k = 0; k < n && ok; k++) {
    int64_t v = eval_i(R, k);
    ok = v >= 0 && !seen[v];
    if (ok) seen[v] = 1;
  }
  free(seen);
  return ok;
}

/* The largest K with [0, K) in L's image, found by brute force. */
static int64_t contiguous_prefix(const cute_layout *A)
{
  int64_t i, n = size_of(A), K = 0;
  unsigned char *hit = calloc((size_t)n + 1, 1);
  for (i = 0; i < n; i++) {
    int64_t v = eval_i(A, i);
    if (v >= 0 && v <= n) hit[v] = 1;
  }
  while (K <= n && hit[K]) K++;
  free(hit);
  return K;
}

static void properties(void)
{
  test_rng r;
  int t, maximal = 0, compact = 0;
  rng_seed(&r, 11);
  for (t = 0; t < 10000; t++) {
    cute_layout A = t % 2 ? rng_layout(&r, 3, 6, 6, 512)
                          : rng_injective_layout(&r, 3, 6, 512);
    cute_layout R;
    cute_error e;
    int64_t K;
    if (cute_right_inverse(&R, &A, &e) != CUTE_OK) {
      CHECK(0, "right_inverse(%s): %s", S(&A), e.msg);
      continue;
    }
    CHECK(is_right_inverse(&A, &R), "right_inverse(%s) = %s: L(R(k)) != k",
          S(&A), S(&R));
    CHECK(injective(&R), "right_inverse(%s) = %s not injective", S(&A),
          S(&R));
    /* Maximal for layouts whose image is a product of their modes
     * (injective ones): every k of the contiguous prefix is reached. */
    K = contiguous_prefix(&A);
    if (t % 2 == 0) {
      CHECK(size_of(&R) == (K > 0 ? K : 1), "right_inverse(%s) = %s: size "
            "%lld, the image holds [0,%lld)", S(&A), S(&R),
            (long long)size_of(&R), (long long)K);
      maximal++;
    }
    if (K == size_of(&A)) { /* bijective: a two-sided inverse */
      int64_t k, ok = 1;
      for (k = 0; k < K && ok; k++) ok = eval_i(&R, eval_i(&A, k)) == k;
      CHECK(ok, "right_inverse(%s) = %s: not two-sided", S(&A),
            S(&R));
      compact++;
    }
  }
  CHECK(maximal > 4000 && compact > 100, "coverage: %d maximal, %d compact",
        maximal, compact);
}

int main(void)
{
  table5();
  more();
  errors();
  negative();
  negative_random();
  properties();
  return test_finish();
}
