/*
 * test_overflow.c -- values near the 64-bit limits through every operation
 * of the algebra: each call returns a status (an overflow is CUTE_EOVERFLOW
 * with a message, never a wrapped value), and the results that do come
 * back still satisfy their defining property where it is cheap to check.
 * Built a second time against a UBSan-instrumented algebra (c.ubsan.*,
 * spec/c/CMakeLists.txt), where an unchecked signed overflow aborts even
 * when the wrapped value would have led to the right status.
 */
#include "testlib.h"

#include <stdlib.h>
#include <string.h>

/* Shapes and strides that sit on the overflow boundaries: powers of two up
 * to 2^62, sqrt(2^63) and its neighbour, INT64_MAX and its fractions. */
static const int64_t edge[] = {
  (int64_t)1 << 31, (int64_t)1 << 32, 3037000499, 3037000500,
  (int64_t)1 << 61, (int64_t)1 << 62, ((int64_t)1 << 62) + 1,
  INT64_MAX / 3, INT64_MAX / 2, INT64_MAX - 1, INT64_MAX
};
#define NEDGE ((int)(sizeof edge / sizeof edge[0]))

static int64_t value(test_rng *r, int stride)
{
  int64_t v = rng_range(r, 0, 1) ? edge[rng_range(r, 0, NEDGE - 1)]
                                 : rng_range(r, 1, 12);
  if (stride && rng_range(r, 0, 7) == 0) return 0;
  return stride && rng_range(r, 0, 3) == 0 ? -v : v;
}

/* Appends '(' or ')' to both tuples. */
static void both(cute_tuple *s, cute_tuple *d, char c)
{
  cute_error e;
  if (c == '(') { cute_tuple_open(s, &e); cute_tuple_open(d, &e); }
  else { cute_tuple_close(s, &e); cute_tuple_close(d, &e); }
}

/* (s0,s1,...) or (s0,(s1,s2),...): 1 to 4 leaves. */
static cute_layout edge_layout(test_rng *r)
{
  cute_tuple s, d;
  cute_layout l;
  cute_error e;
  int k, n = (int)rng_range(r, 1, 4), nest = n >= 3 && rng_range(r, 0, 1);
  cute_tuple_clear(&s);
  cute_tuple_clear(&d);
  both(&s, &d, '(');
  for (k = 0; k < n; k++) {
    if (nest && k == 1) both(&s, &d, '(');
    cute_tuple_leaf(&s, value(r, 0), 0, &e);
    cute_tuple_leaf(&d, value(r, 1), 0, &e);
    if (nest && k == 2) both(&s, &d, ')');
  }
  both(&s, &d, ')');
  if (cute_layout_make(&l, &s, &d, &e) != CUTE_OK) {
    fprintf(stderr, "test input error: %s\n", e.msg);
    exit(2);
  }
  return l;
}

/* A refusal must be a real status with a message; CUTE_OK passes. */
static int refused(cute_status st, const cute_error *e, const char *op,
                   const cute_layout *A, const cute_layout *B)
{
  if (st == CUTE_OK) return 0;
  CHECK(st > CUTE_OK && st <= CUTE_ECODOMAIN && e->msg[0] != '\0',
        "%s(%s, %s): status %d, message \"%s\"", op, S(A), B ? S(B) : "",
        (int)st, e->msg);
  return 1;
}

/* f(i) == g(i) for the first few i where both evaluate. */
static void agree(const char *what, const cute_layout *A, const cute_layout *B,
                  const cute_layout *R, const cute_layout *inner)
{
  int64_t i, n, x, y;
  cute_error e;
  if (cute_layout_size(R, &n, &e) != CUTE_OK) return;
  for (i = 0; i < n && i < 8; i++) {
    if (cute_layout_eval_index(R, i, &x, &e) != CUTE_OK) continue;
    if (inner && cute_layout_eval_index(inner, i, &y, &e) != CUTE_OK)
      continue;
    if (cute_layout_eval_index(A, inner ? y : i, &y, &e) != CUTE_OK)
      continue;
    CHECK(x == y, "%s(%s, %s) = %s: differs at %lld (%lld vs %lld)", what,
          S(A), B ? S(B) : "", S(R), (long long)i, (long long)x,
          (long long)y);
  }
}

static void ops(const cute_layout *A, const cute_layout *B, test_rng *r)
{
  cute_layout R;
  cute_tuple crd, off;
  cute_error e;
  int64_t x, y = value(r, 1);
  int k;
  refused(cute_layout_cosize(A, &x, &e), &e, "cosize", A, NULL);
  refused(cute_layout_eval_index(A, y, &x, &e), &e, "layout", A, NULL);
  if (!refused(cute_idx2crd(&crd, y, &A->shape, &e), &e, "idx2crd", A, NULL))
    refused(cute_crd2idx(&x, &crd, &A->shape, &e), &e, "crd2idx", A, NULL);
  if (!refused(cute_coalesce(&R, A, &e), &e, "coalesce", A, NULL))
    agree("coalesce", A, NULL, &R, NULL);
  if (!refused(cute_composition(&R, A, B, &e), &e, "composition", A, B))
    agree("composition", A, B, &R, B);
  if (!refused(cute_complement(&R, A, rng_range(r, 0, 1) ? 0 : y > 0 ? y : 0,
                               &e), &e, "complement", A, NULL))
    refused(cute_layout_cosize(&R, &x, &e), &e, "cosize", &R, NULL);
  refused(cute_right_inverse(&R, A, &e), &e, "right_inverse", A, NULL);
  refused(cute_left_inverse(&R, A, &e), &e, "left_inverse", A, NULL);
  refused(cute_max_common_vector(A, B, &x, &e), &e, "max_common_vector", A,
          B);
  refused(cute_downcast(&R, A, value(r, 0), &e), &e, "downcast", A, NULL);
  refused(cute_upcast(&R, A, value(r, 0), &e), &e, "upcast", A, NULL);
  cute_idx2crd(&crd, rng_range(r, 0, 99), &A->shape, &e);
  for (k = 0; k < crd.nleaf; k++)
    if (rng_range(r, 0, 1)) crd.v[k] = CUTE_UNDERSCORE;
  refused(cute_layout_slice(&R, &off, A, &crd, &e), &e, "slice", A, NULL);
}

/* The audit's case: the minimal complement summed the extents of the
 * sorted modes, 2^62 + 2^62, before the checked product that would have
 * caught it. */
static void fixed(void)
{
  cute_layout A = L("(2,4611686018427387904):(4611686018427387904,1)"), R;
  cute_error e;
  cute_status st = cute_complement(&R, &A, 0, &e);
  CHECK(st == CUTE_EOVERFLOW && strstr(e.msg, "complement(") == e.msg,
        "complement(%s): %s", S(&A), st ? e.msg : S(&R));
}

int main(void)
{
  test_rng r;
  int t;
  fixed();
  rng_seed(&r, 2024);
  for (t = 0; t < 20000; t++) {
    cute_layout A = edge_layout(&r), B = edge_layout(&r);
    ops(&A, &B, &r);
    ops(&B, &A, &r);
  }
  return test_finish();
}
