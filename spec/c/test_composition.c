/*
 * test_composition.c -- R = A o B (paper 3.3) and by-mode tilers (3.3.5).
 *
 * Exact texts come from the paper (3.3.1-3.3.5, 3.5.2, Table 4); the
 * property tests check the defining equations on random pairs by brute
 * force: B <= R (16) and R(c) = A(B(c)) (17) with A on its extended domain.
 */
#include "testlib.h"

#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------- helpers -- */

static void comp(const char *a, const char *b, const char *want)
{
  cute_layout A = L(a), B = L(b), R;
  cute_error e;
  if (cute_composition(&R, &A, &B, &e) != CUTE_OK) {
    CHECK(0, "%s o %s: unexpected error: %s", a, b, e.msg);
    return;
  }
  CHECK(strcmp(S(&R), want) == 0, "%s o %s = %s, expected %s", a, b, S(&R),
        want);
}

/* A o B fails with `code`, the message names both operands and contains
 * `why`, and `out` is left as it was. */
static void fails(const char *a, const char *b, cute_status code,
                  const char *why)
{
  cute_layout A = L(a), B = L(b), R = L("7:7"), before = R;
  cute_error e;
  char prefix[256];
  cute_status st = cute_composition(&R, &A, &B, &e);
  snprintf(prefix, sizeof prefix, "composition(%s, %s): ", a, b);
  CHECK(st == code, "%s o %s: status %s, expected %s", a, b,
        cute_status_name(st), cute_status_name(code));
  if (st == CUTE_OK) return;
  CHECK(strncmp(e.msg, prefix, strlen(prefix)) == 0 && strstr(e.msg, why),
        "%s o %s: message \"%s\" lacks \"%s\"", a, b, e.msg, why);
  CHECK(cute_layout_equal(&R, &before), "%s o %s: out changed on error", a,
        b);
}

static cute_tiler tiler(const char *text)
{
  cute_tiler t;
  cute_error e;
  if (cute_tiler_parse(&t, text, &e) != CUTE_OK) {
    fprintf(stderr, "test input error: tiler(\"%s\"): %s\n", text, e.msg);
    exit(2);
  }
  return t;
}

static void comp_tiler(const char *a, const char *t, const char *want)
{
  cute_layout A = L(a), R;
  cute_tiler T = tiler(t);
  cute_error e;
  if (cute_composition_tiler(&R, &A, &T, &e) != CUTE_OK) {
    CHECK(0, "%s o %s: unexpected error: %s", a, t, e.msg);
    return;
  }
  CHECK(strcmp(S(&R), want) == 0, "%s o %s = %s, expected %s", a, t, S(&R),
        want);
}

/* R(c) == A(B(c)) for every integral c of B, A on its extended domain;
 * B <= R.  Returns 1 when all hold. */
static int holds(const cute_layout *A, const cute_layout *B,
                 const cute_layout *R)
{
  int64_t c, n = size_of(B), want;
  cute_error e;
  if (!cute_compatible(&B->shape, &R->shape) || size_of(R) != n) return 0;
  for (c = 0; c < n; c++) {
    if (cute_layout_eval_index(A, eval_i(B, c), &want, &e) != CUTE_OK)
      return 0;
    if (eval_i(R, c) != want) return 0;
  }
  return 1;
}

/* ------------------------------------------------------- paper examples -- */

static void test_base_case(void)
{
  /* 3.3.3: rank-1 A needs no divisibility, even outside A's domain. */
  comp("7:11", "3:4", "3:44");
  comp("7:11", "(3,5):(6,3)", "(3,5):(66,33)");
  /* Extended domain: the last mode keeps its stride
   * (docs/architecture.md, "Semantic choices"). */
  comp("1:1", "2:1", "2:1");
  comp("(4,1):(1,4)", "8:1", "8:1");
  /* "Divide out" 12, then "keep" 6. */
  comp("(4,6,8,10):(2,3,5,7)", "6:12", "(2,3):(9,5)");
  /* Apparent violation: coalesce to (8,8):(3,97), truncate to 8:3. */
  comp("(4,2,8):(3,12,97)", "3:3", "3:9");
  /* Stride 0 and size 1. */
  comp("(4,6):(2,9)", "5:0", "5:0");
  comp("(4,6):(2,9)", "(2,3):(0,4)", "(2,3):(0,9)");
  /* A size-1 result is coalesced to 1:0, as coalesce does. */
  comp("(4,6):(2,9)", "1:3", "1:0");
}

static void test_violations(void)
{
  fails("(4,6,8):(2,3,5)", "6:3", CUTE_EDIVISIBILITY,
        "stride divisibility condition violated");
  fails("(4,6,8):(2,3,5)", "6:1", CUTE_EDIVISIBILITY,
        "shape divisibility condition violated");
  /* Cannot be truncated enough / cannot be coalesced. */
  fails("(4,2,8):(3,12,97)", "4:3", CUTE_EDIVISIBILITY,
        "stride divisibility condition violated");
  fails("(4,2,8):(3,15,97)", "3:3", CUTE_EDIVISIBILITY,
        "stride divisibility condition violated");
  /* The message names the prefix product and the stride. */
  fails("(4,6,8):(2,3,5)", "6:3", CUTE_EDIVISIBILITY,
        "prefix product 4 of A's shape and stride 3 of B");
  fails("(4,6,8):(2,3,5)", "6:1", CUTE_EDIVISIBILITY,
        "ceil(4/1) = 4 and shape 6 of B");
}

/* Both leaves of B pass the base case, but their images carry into one
 * another in A's first mode: R(1,1) would be 3 + 1 = 4 while A(4) = 10.
 * CuTe returns (2,2):(3,1) here; we refuse. */
static void test_distributivity(void)
{
  fails("(4,2):(1,10)", "(2,2):(3,1)", CUTE_EDIVISIBILITY,
        "distributivity condition violated");
  fails("(4,3):(1,10)", "(3,2):(1,2)", CUTE_EDIVISIBILITY,
        "distributivity condition violated");
  /* No carry possible: accepted although the images are not segregated. */
  comp("(4,8):(1,5)", "(2,2):(1,1)", "(2,2):(1,1)");
  comp("(4,8):(1,5)", "(2,2):(2,1)", "(2,2):(2,1)");
  comp("(4,8):(1,5)", "(2,4):(1,2)", "(2,(2,2)):(1,(2,5))");
}

/* 3.3.1: composition is associative under eq. (18) only. */
static void test_associativity_example(void)
{
  comp("(5,3):(1,7)", "4:1", "4:1");
  comp("4:1", "2:5", "2:5");
  comp("(5,3):(1,7)", "2:5", "2:7");
}

/* 3.5.2: every third element of 24-element layouts, and the same tilers
 * completed by their complement 3:1 (the extracted text lost one row of
 * each layout; these are the layouts that match the surviving rows). */
static void test_logical_divide_examples(void)
{
  comp("24:1", "8:3", "8:3");
  comp("24:3", "8:3", "8:9");
  comp("(6,2,2):(2,1,20)", "8:3", "(2,2,2):(6,1,20)");
  comp("24:1", "(8,3):(3,1)", "(8,3):(3,1)");
  comp("24:3", "(8,3):(3,1)", "(8,3):(9,3)");
  comp("(6,2,2):(2,1,20)", "(8,3):(3,1)", "((2,2,2),3):((6,1,20),2)");
}

/* Table 4: 8x8 data layouts composed with ThrValLayoutC.  The Swizzled row
 * has XOR strides f_i, which this library models as swizzle functions
 * (cute_composed), not as layout strides: it is tested with swizzles. */
static void test_table4(void)
{
  const char *tv = "((4,8),2):((16,1),8)";
  comp("(8,8):(1,8)", tv, "((4,8),2):((16,1),8)");
  comp("(8,8):(8,1)", tv, "((4,8),2):((2,8),1)");
  comp("(8,8):(1,9)", tv, "((4,8),2):((18,1),9)");
  comp("((4,2),(2,4)):((2,16),(1,8))", tv,
       "((4,(4,2)),2):((8,(2,16)),1)");
  comp("(8,8):(1@0,1@1)", tv, "((4,8),2):((2@1,1@0),1@1)");
}

/* 3.3.1 identities and 3.3.5's equivalent tilers. */
static void test_identities(void)
{
  const char *b = "(3,4):(4,1)";
  comp("24:1", b, b);
  comp("(4,6):(1,4)", b, b);
  comp("(3,(4,2)):(1,(3,12))", b, b);
  comp("(4,6):(1@0,1@1)", "(2,3):(1@0,2@1)", "(2,3):(1@0,2@1)");
  comp("(4,(3,2)):(1@0,(1@1,3@1))", "(4,6):(1@0,1@1)", "(4,6):(1@0,1@1)");
  comp("(4,6):(2,9)", "(4,6):(1@0,1@1)", "(4,6):(2,9)");
  comp("(4,6):(2,9)", "(4,(3,2)):(1@0,(1@1,3@1))", "(4,(3,2)):(2,(9,27))");
  comp("(8,16):(16,1)", "(4,8):(1@0,1@1)", "(4,8):(16,1)");
  /* (4,8) == <4,8> == <4:1,8:1> == (4,8):(e0,e1) as tilers. */
  comp("(8,16):(20,1)", "(4,8):(1@0,1@1)", "(4,8):(20,1)");
  comp_tiler("(8,16):(20,1)", "<4,8>", "(4,8):(20,1)");
  comp_tiler("(8,16):(20,1)", "<4:1,8:1>", "(4,8):(20,1)");
  comp_tiler("(8,16):(20,1)", "<4:1,8:2>", "(4,8):(20,2)");
  comp("(8,16):(20,1)", "(4,8):(1@0,2@1)", "(4,8):(20,2)");
  /* A basis path into a nested mode: 1@0@1 is sub-mode 0 of mode 1. */
  comp("(4,(3,5)):(1,(4,12))", "5:1@1@1", "5:12");
  comp("(4,(3,5)):(1,(4,12))", "3:1@0@1", "3:4");
  /* An integer's mode 0 is itself, at any level of the path (this read
   * an uninitialised leaf count before the tiler's one-pass rewrite). */
  comp("7:3", "4:1@0", "4:3");
  comp("(4,5):(1,4)", "(2,5):(2@0,1@0@1)", "(2,5):(2,4)");
  fails("7:3", "2:1@1@0", CUTE_ERANK,
        "stride 1@1@0 of B names no mode of A");
  fails("(4,6):(2,9)", "3:1@2", CUTE_ERANK,
        "stride 1@2 of B names no mode of A");
  fails("(4,6):(2,9)", "(3,2):(1@0,1)", CUTE_ECODOMAIN, "mix");
}

static void test_tilers(void)
{
  cute_layout A = L("(4,5):(1,4)"), R;
  cute_tiler T = tiler("<2,2,2>");
  cute_error e;
  /* 3.5.2: by-mode logical divide of (8,16):(20,1). */
  comp_tiler("(8,16):(20,1)", "<(4,2):(1,4),(8,2):(2,1)>",
             "((4,2),(8,2)):((20,80),(2,1))");
  /* Modes past the tiler are dropped, as CuTe C++ does: a rank-1 tuple. */
  comp_tiler("(4,5):(1,4)", "<2:2>", "(2):(2)");
  CHECK(cute_composition_tiler(&R, &A, &T, &e) == CUTE_ERANK &&
            strstr(e.msg, "composition((4,5):(1,4), <2:1,2:1,2:1>)"),
        "tiler longer than A: %s", e.msg);
  A = L("(4,(4,6,8)):(1,(4,2,3))");
  T = tiler("<2:1,6:3>");
  CHECK(cute_composition_tiler(&R, &A, &T, &e) == CUTE_EDIVISIBILITY &&
            strstr(e.msg, "mode 1: composition((4,6,8):(4,2,3), 6:3)"),
        "tiler mode error: %s", e.msg);
  /* Long operands (both elided) and a long mode message keep the reason. */
  A = L("((3,3,3,3,3,3,3,3,3,3,3,3,3,3),(4,6,8,3,3,3,3,3,3,3,3,3,3,3,3,3,3)):"
        "((1000000001,1000000002,1000000003,1000000004,1000000005,1000000006,"
        "1000000007,1000000008,1000000009,1000000010,1000000011,1000000012,"
        "1000000013,1000000014),(4,2,3,1000000015,1000000016,1000000017,"
        "1000000018,1000000019,1000000020,1000000021,1000000022,1000000023,"
        "1000000024,1000000025,1000000026,1000000027,1000000028))");
  T = tiler("<2:1,6:3>");
  CHECK(cute_composition_tiler(&R, &A, &T, &e) == CUTE_EDIVISIBILITY &&
            strncmp(e.msg, "composition(((3,3,3,", 20) == 0 &&
            strstr(e.msg, "...") && strstr(e.msg, "mode 1: composition(") &&
            strstr(e.msg, "divide neither way") && strlen(e.msg) < CUTE_ERRMSG_SIZE,
        "long tiler mode error: %s", e.msg);
}

static void test_negative_strides(void)
{
  comp("7:11", "3:-4", "3:-44");
  comp("(4,2):(1,10)", "2:-4", "2:-10");
  comp("(4,2):(1,10)", "(4,2):(1,-4)", "(4,2):(1,-10)");
  fails("(4,2):(1,10)", "2:-1", CUTE_EINVAL,
        "negative stride in right operand not supported");
}

/* Limits and overflow are errors, never wrong layouts. */
static void test_limits(void)
{
  fails("(2,2,2):(1,5,25)", "((((((((8)))))))):((((((((1))))))))",
        CUTE_ELIMIT, "depth 8");
  fails("7:4611686018427387904", "3:4", CUTE_EOVERFLOW, "overflow");
  fails("(4,6):(2,9)", "2:-9223372036854775807", CUTE_EINVAL, "negative");
}

/* out may be either operand. */
static void test_aliasing(void)
{
  cute_layout A = L("(8,8):(8,1)"), B = L("((4,8),2):((16,1),8)");
  cute_error e;
  cute_layout A2 = A, B2 = B;
  CHECK(cute_composition(&A2, &A2, &B, &e) == CUTE_OK &&
            strcmp(S(&A2), "((4,8),2):((2,8),1)") == 0, "out == A: %s",
        S(&A2));
  CHECK(cute_composition(&B2, &A, &B2, &e) == CUTE_OK &&
            strcmp(S(&B2), "((4,8),2):((2,8),1)") == 0, "out == B: %s",
        S(&B2));
  /* A leaf of B that becomes a group writes ahead of B's tokens. */
  A2 = L("(2,2):(1,4)");
  B2 = L("(4,2):(1,4)");
  CHECK(cute_composition(&B2, &A2, &B2, &e) == CUTE_OK &&
            strcmp(S(&B2), "((2,2),2):((1,4),8)") == 0,
        "out == B, leaf to group: %s", S(&B2));
}

/* ----------------------------------------------------------- properties -- */

/* A B leaf that walks A's own modes (stride a prefix product times a
 * divisor of that mode), the admissible case the algebra is built for. */
static cute_layout fitting_b(test_rng *r, const cute_layout *A)
{
  cute_layout B = rng_layout(r, 2, 3, 6, 64);
  int k;
  for (k = 0; k < B.stride.nleaf; k++) {
    int j = (int)rng_range(r, 0, A->shape.nleaf - 1), i;
    int64_t pre = 1, s;
    for (i = 0; i < j; i++) pre *= A->shape.v[i];
    s = A->shape.v[j];
    B.stride.v[k] = pre * (s % 2 == 0 && rng_range(r, 0, 1) ? 2 : 1);
  }
  return B;
}

static void test_random_pairs(void)
{
  test_rng r;
  int i, ok = 0, div = 0, neg = 0, bad = 0;
  rng_seed(&r, 0xC0305E);
  for (i = 0; i < 12000; i++) {
    cute_layout A = rng_layout(&r, 3, 5, 8, 512), B, R;
    cute_error e;
    cute_status st;
    int kind = (int)rng_range(&r, 0, 9);
    B = kind < 5 ? fitting_b(&r, &A) : rng_layout(&r, 2, 4, 8, 64);
    if (kind == 9) { /* one negative stride */
      int k = (int)rng_range(&r, 0, B.stride.nleaf - 1);
      B.stride.v[k] = -B.stride.v[k];
    }
    st = cute_composition(&R, &A, &B, &e);
    if (st == CUTE_OK) {
      ok++;
      if (!holds(&A, &B, &R) && bad++ < 10)
        CHECK(0, "%s o %s = %s is wrong", S(&A), S(&B), S(&R));
    } else if (st == CUTE_EDIVISIBILITY) {
      div++;
    } else if (st == CUTE_EINVAL && kind == 9) {
      neg++;
    } else {
      CHECK(0, "%s o %s: unexpected %s: %s", S(&A), S(&B),
            cute_status_name(st), e.msg);
    }
  }
  printf("random pairs: %d composed, %d divisibility errors, %d negative "
         "strides refused\n", ok, div, neg);
  CHECK(bad == 0, "%d wrong compositions", bad);
  CHECK(ok > 6000, "only %d of 12000 compositions succeeded", ok);
}

/* image(C) in Z(B) and image(B) in Z(A) (eq. 18): then (A o B) o C and
 * A o (B o C) agree wherever both exist. */
static int image_within(const cute_layout *X, const cute_layout *Y)
{
  int64_t c, n = size_of(X), m = size_of(Y);
  for (c = 0; c < n; c++) {
    int64_t v = eval_i(X, c);
    if (v < 0 || v >= m) return 0;
  }
  return 1;
}

static void test_associativity(void)
{
  test_rng r;
  int i, both = 0;
  rng_seed(&r, 0xA550C);
  for (i = 0; i < 4000; i++) {
    cute_layout A = rng_layout(&r, 2, 4, 6, 256);
    cute_layout B = rng_injective_layout(&r, 2, 3, size_of(&A));
    cute_layout C = rng_injective_layout(&r, 2, 3, size_of(&B));
    cute_layout AB, BC, l, rr;
    int64_t c, n;
    if (!image_within(&C, &B) || !image_within(&B, &A)) continue;
    if (cute_composition(&AB, &A, &B, NULL) ||
        cute_composition(&l, &AB, &C, NULL) ||
        cute_composition(&BC, &B, &C, NULL) ||
        cute_composition(&rr, &A, &BC, NULL))
      continue;
    both++;
    n = size_of(&C);
    for (c = 0; c < n; c++)
      if (eval_i(&l, c) != eval_i(&rr, c)) break;
    CHECK(c == n, "(%s o %s) o %s = %s but %s o (%s o %s) = %s", S(&A),
          S(&B), S(&C), S(&l), S(&A), S(&B), S(&C), S(&rr));
  }
  printf("associativity: %d triples\n", both);
  CHECK(both > 200, "only %d associativity triples", both);
}

/* The identity of A's shape that addresses A by mode, as in 3.3.1's
 * (4,(3,2)):(e0,(e1,3e1)): leaf strides are prefix products within mode i,
 * scaled by e_i. */
static cute_layout mode_identity(const cute_layout *A)
{
  cute_layout I = *A;
  cute_span sp;
  int i, k;
  for (i = 0; cute_tuple_span(&A->shape, i, &sp) == 0; i++) {
    int64_t pre = 1;
    for (k = sp.leaf0; k < sp.leaf1; k++) {
      I.stride.v[k] = pre;
      I.stride.e[k] = CUTE_BASIS1(i);
      pre *= A->shape.v[k];
    }
  }
  return I;
}

/* A o I = A for A's by-mode identity I, and a tiler acts like its
 * coordinate layout: A o <T0,T1> == A o (I o <T0,T1>). */
static void test_coordinate_properties(void)
{
  test_rng r;
  int i, same = 0;
  rng_seed(&r, 0x1DE);
  for (i = 0; i < 2000; i++) {
    cute_layout A0 = rng_layout(&r, 2, 3, 6, 64);
    cute_layout A1 = rng_layout(&r, 2, 3, 6, 64);
    const cute_layout *parts[2];
    cute_layout A, I, R, IT, R2;
    cute_tiler T;
    cute_status s1, s2;
    int64_t c, n;
    parts[0] = &A0;
    parts[1] = &A1;
    if (cute_layout_concat(&A, parts, 2, NULL)) continue;
    I = mode_identity(&A);
    CHECK(cute_composition(&R, &A, &I, NULL) == CUTE_OK &&
              cute_compatible(&A.shape, &R.shape), "%s o %s", S(&A), S(&I));
    n = size_of(&A);
    for (c = 0; c < n; c++)
      if (eval_i(&R, c) != eval_i(&A, c)) break;
    CHECK(c == n, "%s o identity = %s", S(&A), S(&R));
    T.n = 2;
    T.ntok = 0;
    T.mode[0] = rng_layout(&r, 1, 2, 4, 16);
    T.mode[1] = rng_layout(&r, 1, 2, 4, 16);
    s1 = cute_composition_tiler(&R, &A, &T, NULL);
    s2 = cute_composition_tiler(&IT, &I, &T, NULL);
    if (s2 == CUTE_OK) s2 = cute_composition(&R2, &A, &IT, NULL);
    CHECK(s1 == s2, "%s o tiler: %s vs via identity %s", S(&A),
          cute_status_name(s1), cute_status_name(s2));
    if (s1 == CUTE_OK && s2 == CUTE_OK) {
      same++;
      CHECK(cute_layout_equal(&R, &R2), "%s o tiler = %s, via identity %s",
            S(&A), S(&R), S(&R2));
    }
  }
  CHECK(same > 500, "only %d tiler cases composed", same);
}

int main(void)
{
  test_base_case();
  test_violations();
  test_distributivity();
  test_associativity_example();
  test_logical_divide_examples();
  test_table4();
  test_identities();
  test_tilers();
  test_negative_strides();
  test_limits();
  test_aliasing();
  test_random_pairs();
  test_associativity();
  test_coordinate_properties();
  return test_finish();
}
