/*
 * test_sum_stride.c -- sum strides a@i+b@j (algebra/stride.c): text,
 * normal form, arithmetic, evaluation and composition.
 *
 * Choices recorded here:
 *   - a sum prints as its terms joined by '+', a negative one by '-',
 *     sorted by mode (CuTe prints E<0>+E<1> as the ArithmeticTuple
 *     (1,1), which reads as a nested tuple inside a stride; the term form
 *     says the same and round-trips);
 *   - composition accepts a leaf of B whose walk never carries between
 *     A's modes even where the divisibility conditions fail, with the one
 *     stride A(d): (4,8):(1@0,1@1) o (2,2):(1,5) = (2,2):(1@0,1@0+1@1).
 * Brute force: 3000 seeded random compositions of identity layouts and of
 * layouts with sum strides, R(c) = A(B(c)) on every c.
 */
#include "testlib.h"

#include <string.h>

static void text(void)
{
  cute_layout A = L("(2,2):(1@0, 1@1 + 1@0)");
  cute_layout B;
  cute_error e;
  CHECK_LAYOUT(A, "(2,2):(1@0,1@0+1@1)");
  A = L("(2,3):(2@0+-1@1,1@0-3@2)");
  CHECK_LAYOUT(A, "(2,3):(2@0-1@1,1@0-3@2)");
  B = L(S(&A));
  CHECK(cute_layout_equal(&A, &B), "round trip of %s", S(&A));
  CHECK(cute_layout_parse(&B, "2:1@0+1@0@1", &e) == CUTE_ELIMIT &&
            strstr(e.msg, "a sum holds depth-1 bases a@i only"),
        "nested basis in a sum: %s", e.msg);
  CHECK(cute_layout_parse(&B, "2:1@0+1@1+1@2+1@3", &e) == CUTE_ELIMIT &&
            strstr(e.msg, "CUTE_MAX_SUM_TERMS"),
        "four terms: %s", e.msg);
  CHECK(cute_layout_parse(&B, "2:1@0+1048576@1", &e) == CUTE_ELIMIT &&
            strstr(e.msg, "CUTE_MAX_SUM_COEF"),
        "coefficient 2^20: %s", e.msg);
  CHECK(cute_layout_parse(&B, "2:-1048576@0+1048575@1", &e) == CUTE_OK,
        "extreme coefficients: %s", e.msg);
  CHECK(cute_layout_parse(&B, "2:3+1@0", &e) == CUTE_ECODOMAIN,
        "an integer term: %s", e.msg);
}

static void combine(void)
{
  int64_t v;
  cute_basis e;
  cute_tuple t;
  cute_error err;
  CHECK(cute_stride_combine(&v, &e, 1, 1, CUTE_BASIS1(1), 2, 1,
                            CUTE_BASIS1(0), &err) == CUTE_OK,
        "E<1> + 2 E<0>");
  cute_tuple_clear(&t);
  CHECK(cute_tuple_leaf(&t, v, e, &err) == CUTE_OK, "a valid leaf");
  CHECK(strcmp(ST(&t), "2@0+1@1") == 0, "got %s", ST(&t));
  CHECK(cute_stride_combine(&v, &e, 1, v, e, -2, 1, CUTE_BASIS1(0), &err) ==
            CUTE_OK && v == 1 && e == CUTE_BASIS1(1),
        "(2@0+1@1) - 2@0 = 1@1");
  CHECK(cute_stride_combine(&v, &e, 1, 1, CUTE_BASIS1(0), 1, 3, 0, &err) ==
            CUTE_ECODOMAIN,
        "1@0 + 3: %s", err.msg);
  /* a hand-made sum out of normal form is not a valid leaf */
  cute_tuple_clear(&t);
  CHECK(cute_tuple_leaf(&t, 1 | (1 << 21), CUTE_BASIS_SUM | 2 | (1 << 8),
                        &err) == CUTE_ELIMIT,
        "indices (1,0) are not increasing");
}

static void evaluation(void)
{
  cute_layout A = L("(2,3):(1@0+1@1,2@0-1@2)");
  cute_tuple c = T("(1,2)"), out;
  cute_error e;
  CHECK(cute_layout_eval(&A, &c, &out, &e) == CUTE_OK &&
            strcmp(ST(&out), "(5,1,-2)") == 0,
        "A(1,2) = %s", ST(&out));
}

/* Is element sp of t zero throughout (absent: sp == NULL)? */
static int zero_at(const cute_tuple *t, const cute_span *sp)
{
  int k;
  if (!sp) return 1;
  for (k = sp->leaf0; k < sp->leaf1; k++)
    if (t->v[k] != 0) return 0;
  return 1;
}

/* Equal as coordinates: a coordinate layout's value names only the modes
 * its strides reach, a mode it does not name is 0 (an integer 0 stands
 * for a zero group too). */
static int same_at(const cute_tuple *a, const cute_span *sa,
                   const cute_tuple *b, const cute_span *sb)
{
  int i;
  cute_span ca, cb;
  if (zero_at(a, sa) && zero_at(b, sb)) return 1;
  if (!sa || !sb) return 0;
  if (a->tok[sa->tok0] == 'x' && b->tok[sb->tok0] == 'x')
    return a->v[sa->leaf0] == b->v[sb->leaf0];
  if (a->tok[sa->tok0] == 'x' || b->tok[sb->tok0] == 'x') return 0;
  for (i = 0; i < CUTE_MAX_LEAVES; i++) {
    int ha = cute_tuple_child(a, sa, i, &ca) == 0;
    int hb = cute_tuple_child(b, sb, i, &cb) == 0;
    if (!ha && !hb) return 1;
    if (!same_at(a, ha ? &ca : NULL, b, hb ? &cb : NULL)) return 0;
  }
  return 1;
}

static int same_value(const cute_tuple *a, const cute_tuple *b)
{
  cute_span sa = {0, 0, 0, 0}, sb = {0, 0, 0, 0};
  sa.tok1 = a->ntok;
  sa.leaf1 = a->nleaf;
  sb.tok1 = b->ntok;
  sb.leaf1 = b->nleaf;
  return same_at(a, &sa, b, &sb);
}

/* A composition brute-forced against evaluation: R(c) = A(B(c)) for c in
 * B's domain, B integral; returns whether it composed. */
static int composes(const cute_layout *A, const cute_layout *B)
{
  cute_layout R;
  cute_error e;
  int64_t i, n = size_of(B);
  if (cute_composition(&R, A, B, &e) != CUTE_OK) return 0;
  for (i = 0; i < n; i++) {
    cute_tuple ci, bi, r, a;
    cute_tuple_int(&ci, i);
    cute_tuple_int(&bi, eval_i(B, i));
    if (cute_layout_eval(&R, &ci, &r, &e) != CUTE_OK ||
        cute_layout_eval(A, &bi, &a, &e) != CUTE_OK) {
      CHECK(0, "%s o %s = %s: evaluation fails at %lld: %s", S(A), S(B),
            S(&R), (long long)i, e.msg);
      return 1;
    }
    if (!same_value(&r, &a)) {
      CHECK(0, "%s o %s = %s: R(%lld) = %s, A(B(%lld)) = %s", S(A), S(B),
            S(&R), (long long)i, ST(&r), (long long)i, ST(&a));
      return 1;
    }
  }
  CHECK(1, "");
  return 1;
}

static void composition(void)
{
  cute_layout I = L("(4,8):(1@0,1@1)"), R, B = L("(2,2):(1,5)");
  cute_error e;
  CHECK(cute_composition(&R, &I, &B, &e) == CUTE_OK, "%s", e.msg);
  CHECK_LAYOUT(R, "(2,2):(1@0,1@0+1@1)");
  I = L("(2,2):(1@0+1@1,2@0+2@1)");
  B = L("3:1");
  CHECK(cute_composition(&R, &I, &B, &e) == CUTE_OK, "%s", e.msg);
  CHECK_LAYOUT(R, "3:1@0+1@1");
  I = L("(4,8):(1,4)");
  B = L("(2,2):(1@0+1@1,2@1)");
  CHECK(cute_composition(&R, &I, &B, &e) == CUTE_OK, "%s", e.msg);
  CHECK_LAYOUT(R, "(2,2):(5,8)");
}

static void random_compositions(void)
{
  test_rng r;
  int k, sums = 0, done = 0;
  rng_seed(&r, 0x5511u);
  for (k = 0; k < 3000; k++) {
    cute_layout A = rng_layout(&r, 2, 3, 8, 64), B, I, C;
    cute_tuple flat;
    cute_error e;
    B = rng_layout(&r, 2, 3, 8, 64);
    /* mostly flat: a flat A reaches more modes per stride */
    if (k % 4 != 0 && cute_tuple_flatten(&flat, &A.shape) == CUTE_OK)
      A.shape = flat;
    if (cute_layout_identity(&I, &A.shape, &e) != CUTE_OK) continue;
    /* identity o B: sums appear where B's strides straddle A's modes */
    if (composes(&I, &B)) done++;
    /* (I o B) as the left operand: a layout with sum strides */
    if (cute_composition(&C, &I, &B, &e) == CUTE_OK) {
      cute_layout B2 = rng_layout(&r, 2, 3, 8, 64);
      sums += strchr(S(&C), '+') != NULL;
      composes(&C, &B2);
    }
  }
  CHECK(done > 1500, "too few admissible compositions: %d", done);
  CHECK(sums > 40, "too few sum strides: %d", sums);
}

int main(void)
{
  text();
  combine();
  evaluation();
  composition();
  random_compositions();
  return test_finish();
}
