/*
 * test_max_common.c -- max_common_vector / max_common_layout (paper 3.4.2,
 * Figure 8) and their defining property on random pairs, against brute
 * force.
 */
#include "testlib.h"

#include <string.h>

static int64_t mcv(const char *a, const char *b)
{
  cute_layout A = L(a), B = L(b);
  cute_error e;
  int64_t K = -1;
  cute_status st = cute_max_common_vector(&A, &B, &K, &e);
  CHECK(st == CUTE_OK, "max_common_vector(%s, %s): %s", a, b,
        st ? e.msg : "");
  return K;
}

static void vec(const char *a, const char *b, int64_t expected)
{
  int64_t K = mcv(a, b);
  CHECK(K == expected, "max_common_vector(%s, %s) = %lld, expected %lld", a,
        b, (long long)K, (long long)expected);
}

static void lay(const char *a, const char *b, const char *expected)
{
  cute_layout A = L(a), B = L(b), R;
  cute_error e;
  cute_status st = cute_max_common_layout(&R, &A, &B, &e);
  CHECK(st == CUTE_OK, "max_common_layout(%s, %s): %s", a, b,
        st ? e.msg : "");
  if (st == CUTE_OK) CHECK_LAYOUT(R, expected);
}

static void figure8(void)
{
  /* 8a: source column-major 4x4, destination with rows split (2,2) and
   * the second row bit far away: offsets 0,1 agree, at coordinates 0,1. */
  vec("(4,4):(1,4)", "((2,2),4):((1,8),2)", 2);
  lay("(4,4):(1,4)", "((2,2),4):((1,8),2)", "2:1");
  /* 8b: both layouts put coordinates 0, 2, 8, 10 of a 4x4 block (rows 0,2
   * x columns 0,2) at offsets 0..3, in the same order; they disagree
   * beyond. */
  vec("((2,2),(2,2)):((4,1),(8,2))", "((2,2),(2,2)):((8,1),(4,2))", 4);
  lay("((2,2),(2,2)):((4,1),(8,2))", "((2,2),(2,2)):((8,1),(4,2))",
      "(2,2):(2,8)");
}

static void cute_examples(void)
{
  vec("(4,8):(1,4)", "(4,8):(1,4)", 32);
  lay("(4,8):(1,4)", "(4,8):(1,4)", "32:1");
  vec("(4,8):(1,4)", "(4,8):(8,1)", 1);
  lay("(4,8):(1,4)", "(4,8):(8,1)", "1:0");
  vec("(4,8):(8,1)", "(4,8):(8,1)", 32);
  lay("(4,8):(8,1)", "(4,8):(8,1)", "(8,4):(4,1)");
  vec("(4,8):(1,5)", "(4,8):(1,4)", 4);
  vec("(4,8):(1,4)", "(4,8):(1,5)", 4);
  vec("(4,(2,4)):(2,(1,8))", "(4,(2,4)):(2,(1,8))", 32);
  vec("(8,4):(1,8)", "(8,4):(1,16)", 8);
  vec("(8,4):(2,16)", "(8,4):(2,16)", 1); /* no stride-1 offsets at all */
  vec("1:0", "1:0", 1);
  /* (2,4):(4,1) o right_inverse((8):(1)) = (2,4):(4,1): stride 4 first. */
  vec("(2,4):(4,1)", "8:1", 1);
  /* A o right_inverse(B) is inadmissible here (A's extended domain goes on
   * at stride 1 past 95), yet the first 95 offsets are common. */
  vec("((95,1),(1,1)):((1,1),(1,1))", "244:1", 95);
  lay("((95,1),(1,1)):((1,1),(1,1))", "244:1", "95:1");
  vec("(3,5):(1,3)", "(3,7):(1,3)", 15);
  lay("(3,5):(1,4)", "(3,7):(1,3)", "3:1");
}

static void errors(void)
{
  cute_layout A = L("(4,8):(1@0,1@1)"), B = L("(4,8):(1,4)");
  cute_error e;
  int64_t K;
  cute_status st = cute_max_common_vector(&A, &B, &K, &e);
  CHECK(st == CUTE_ECODOMAIN && strstr(e.msg, "max_common_vector(") ==
        e.msg, "coordinate layout: %s", e.msg);
  /* A common vector of 2^64 elements: the layout is valid, its size is
   * not representable (this multiplied unchecked once). */
  A = L("(4611686018427387904,4):(1,4611686018427387904)");
  st = cute_max_common_vector(&A, &A, &K, &e);
  CHECK(st == CUTE_EOVERFLOW && strstr(e.msg, "max_common_vector(") ==
        e.msg && strstr(e.msg, "overflows"), "size 2^64: %d %s", (int)st,
        e.msg);
  /* The common layout itself is representable. */
  lay("(4611686018427387904,4):(1,4611686018427387904)",
      "(4611686018427387904,4):(1,4611686018427387904)",
      "(4611686018427387904,4):(1,4611686018427387904)");
}

/* A(R(k)) == k for k < K, where R = right_inverse(B), and then B(R(k)) ==
 * k too: the first K offsets sit at the same coordinates in A and B. */
static void properties(void)
{
  test_rng r;
  int t, longer = 0;
  rng_seed(&r, 17);
  for (t = 0; t < 10000; t++) {
    cute_layout A = rng_injective_layout(&r, 3, 5, 256), B, R, M;
    cute_error e;
    int64_t K, k;
    int ok = 1;
    /* B: A's modes with some strides swapped, so that prefixes agree. */
    B = A;
    if (B.shape.nleaf > 1 && rng_range(&r, 0, 1)) {
      int i = (int)rng_range(&r, 0, B.shape.nleaf - 1);
      int j = (int)rng_range(&r, 0, B.shape.nleaf - 1);
      if (B.shape.v[i] == B.shape.v[j]) {
        int64_t d = B.stride.v[i];
        B.stride.v[i] = B.stride.v[j];
        B.stride.v[j] = d;
      }
    }
    if (rng_range(&r, 0, 3) == 0) B = rng_injective_layout(&r, 3, 5, 256);
    if (cute_max_common_vector(&A, &B, &K, &e) != CUTE_OK ||
        cute_max_common_layout(&M, &A, &B, &e) != CUTE_OK ||
        cute_right_inverse(&R, &B, &e) != CUTE_OK) {
      CHECK(0, "max_common(%s, %s): %s", S(&A), S(&B), e.msg);
      continue;
    }
    CHECK(K <= size_of(&R), "K = %lld beyond right_inverse(%s)", (long long)K,
          S(&B));
    for (k = 0; k < K && ok; k++)
      ok = eval_i(&A, eval_i(&R, k)) == k && eval_i(&B, eval_i(&R, k)) == k;
    CHECK(ok, "max_common_vector(%s, %s) = %lld: A(R(%lld)) != %lld", S(&A),
          S(&B), (long long)K, (long long)(k - 1), (long long)(k - 1));
    /* The common layout is R on [0, K) (1:0 when K is 1). */
    ok = size_of(&M) == K;
    for (k = 0; k < K && ok && K > 1; k++)
      ok = eval_i(&M, k) == eval_i(&R, k);
    CHECK(ok, "max_common_layout(%s, %s) = %s, K = %lld", S(&A), S(&B),
          S(&M), (long long)K);
    /* Maximal: K is the longest prefix with A(R(k)) = k inside A's domain
     * (A is injective, so that is also where A's inverse agrees). */
    for (k = 0; k < size_of(&R); k++) {
      int64_t i = eval_i(&R, k);
      if (i >= size_of(&A) || eval_i(&A, i) != k) break;
    }
    CHECK(K == k, "max_common_vector(%s, %s) = %lld, brute force %lld",
          S(&A), S(&B), (long long)K, (long long)k);
    longer += K > 1;
  }
  CHECK(longer > 3000, "coverage: %d pairs with K > 1", longer);
}

int main(void)
{
  figure8();
  cute_examples();
  errors();
  properties();
  return test_finish();
}
