/*
 * test_complement.c -- complement (paper 3.5): Table 7 exactly, the
 * cotarget form, errors, and the defining properties on random layouts.
 */
#include "testlib.h"

#include <stdlib.h>
#include <string.h>

static void row(const char *a, int64_t cotarget, const char *expected)
{
  cute_layout A = L(a), R;
  cute_error e;
  cute_status st = cute_complement(&R, &A, cotarget, &e);
  CHECK(st == CUTE_OK, "complement(%s, %lld): %s", a, (long long)cotarget,
        st ? e.msg : "");
  if (st == CUTE_OK)
    CHECK(strcmp(S(&R), expected) == 0, "complement(%s, %lld) = %s, "
          "expected %s", a, (long long)cotarget, S(&R), expected);
}

static void fails(const char *a, int64_t cotarget, cute_status code,
                  const char *needle)
{
  cute_layout A = L(a), R;
  cute_error e;
  cute_status st = cute_complement(&R, &A, cotarget, &e);
  CHECK(st == code, "complement(%s, %lld): status %s, expected %s", a,
        (long long)cotarget, cute_status_name(st), cute_status_name(code));
  if (st != CUTE_OK)
    CHECK(strstr(e.msg, needle) != NULL && strstr(e.msg, "complement(") ==
          e.msg, "complement(%s): message \"%s\" lacks \"%s\"", a, e.msg,
          needle);
}

static void table7(void)
{
  row("(4,8):(1,4)", 0, "1:32");
  row("(4,8):(8,1)", 0, "1:32");
  row("(4,(4,2)):(4,(1,16))", 0, "1:32");
  /* 5 is not a multiple of 4: the hole [4,5) cannot hold an ordered mode,
   * floor(5/4) = 1 step is no mode; the rest mode sits at 8*5 = 40. */
  row("(4,8):(1,5)", 0, "1:40");
  row("(4,8):(1,8)", 0, "(2,1):(4,64)");
  row("((2,2),(2,4)):((0,1),(0,2))", 0, "1:8");
  row("((2,2),(2,4)):((0,2),(0,4))", 0, "(2,1):(1,16)");
  /* Table 7 prints (1,1):(4e0,4e1); 4e1 is a misprint: 4@1 = (0,4) is
   * A(0,4), not disjoint.  Component 1 is 8:1@1, whose complement is
   * 1:8@1, as the next row's component 1 (4:1@1, 2:12@1) confirms. */
  row("(4,8):(1@0,1@1)", 0, "(1,1):(4@0,8@1)");
  row("(4,(4,2)):(1@1,(1@0,12@1))", 0, "(1,(3,1)):(4@0,(4@1,24@1))");
  /* nested paths: one component per leaf of the codomain's profile */
  row("(4,2):(1@0,2@1@1)", 0, "(1,(1,(2,1))):(4@0,(1@0@1,(1@1@1,4@1@1)))");
  /* A component with no modes still gets its (trivial) rest mode. */
  row("4:1@1", 0, "(1,1):(1@0,4@1)");
  row("(2,3):(0@0,1@1)", 0, "(1,1):(1@0,3@1)");
}

static void paper_text(void)
{
  row("(3,4):(4,1)", 0, "1:12");            /* 3.5.1 */
  row("(4,8):(20,2)", 0, "(2,1):(1,80)");   /* 3.5.1: 20/16 -> 1 step */
  /* 3.5.2 says 3:1; on its extended domain 3:1 hits A(1) = 3, so the
   * size-1 rest mode stays (the divide may drop it from its result). */
  row("8:3", 24, "(3,1):(1,24)");
  row("4:2", 24, "(2,3):(1,8)");            /* CuTe docs */
  row("4:1", 24, "6:4");
  row("(2,2):(1,6)", 24, "(3,2):(2,12)");
  row("4:1", 6, "2:4");                     /* ceil(6/4) */
  row("4:3", 6, "(3,1):(1,12)");            /* A reaches past 6 alone */
  row("24:1", 24, "1:24");                  /* the rest mode alone */
  row("1:0", 0, "1:1");
  row("():()", 0, "1:1");
  row("1:0", 5, "5:1");
  row("(2,3):(3,0)", 0, "(3,1):(1,6)");
  row("(4,8):(1,8)", 60, "(2,1):(4,64)");  /* = the minimal one */
  row("(4,8):(1,8)", 65, "(2,2):(4,64)");
}

static void errors(void)
{
  fails("(2,2):(1,1)", 0, CUTE_ENONINJECTIVE, "non-injective");
  fails("(4,2):(1,2)", 0, CUTE_ENONINJECTIVE, "non-injective");
  /* Injective but interleaved: no ordered complement either. */
  fails("(3,2):(2,3)", 0, CUTE_ENONINJECTIVE, "interleaved");
  fails("(4,8):(1,5)", 80, CUTE_EDIVISIBILITY, "divisibility");
  fails("(2,2):(1,3)", 8, CUTE_EDIVISIBILITY, "stride 3 is not a multiple");
  fails("4:-1", 0, CUTE_EINVAL, "negative");
  fails("(2,2,2):(1,-2,-8)", 0, CUTE_EINVAL, "negative stride -2");
  row("(4,1):(1,-3)", 0, "1:4");
  fails("(4,8):(1@0,1@1)", 32, CUTE_ECODOMAIN, "cotarget");
  fails("(4,8):(1,1@1)", 0, CUTE_ECODOMAIN, "mix");
  fails("(4,8):(1@0@1,1@1)", 0, CUTE_ECODOMAIN, "both as a coordinate");
  fails("(4,8):(1@0+1@1,1@1)", 0, CUTE_ECODOMAIN, "sum stride");
  /* 2^62 + 2^62 once overflowed (UB) before the checked s*d caught it;
   * c.ubsan.test_complement aborts on such UB. */
  fails("(2,4611686018427387904):(4611686018427387904,1)", 0, CUTE_EOVERFLOW,
        "overflows 64 bits");
}

/* ------------------------------------------------------------ properties */

/* A random injective layout with non-negative strides: a permuted mixed
 * radix whose strides leave arbitrary gaps (any stride >= the extent so
 * far, so holes need not tile), plus stride-0 and size-1 modes. */
static cute_layout gapped(test_rng *r)
{
  cute_layout l = rng_injective_layout(r, 3, 6, 512);
  int perm[CUTE_MAX_LEAVES], k, n = l.shape.nleaf;
  int64_t p = 1;
  for (k = 0; k < n; k++) perm[k] = k;
  for (k = n - 1; k > 0; k--) {
    int j = (int)rng_range(r, 0, k), t = perm[k];
    perm[k] = perm[j];
    perm[j] = t;
  }
  for (k = 0; k < n; k++) {
    int64_t *d = &l.stride.v[perm[k]], s = l.shape.v[perm[k]];
    if (rng_range(r, 0, 7) == 0) { *d = 0; continue; }
    *d = p + (rng_range(r, 0, 2) == 0 ? rng_range(r, 1, p) : 0);
    p = s * *d;
  }
  return l;
}

/* Image of A as a bitmap over [0, cosize). */
static unsigned char *image(const cute_layout *A, int64_t *cosize)
{
  int64_t i, n = size_of(A), hi = 0;
  unsigned char *bits;
  for (i = 0; i < n; i++)
    if (eval_i(A, i) > hi) hi = eval_i(A, i);
  bits = calloc((size_t)hi + 1, 1);
  for (i = 0; i < n; i++) bits[eval_i(A, i)] = 1;
  *cosize = hi + 1;
  return bits;
}

/* Extent of A's image-bearing modes: the largest s*d (they do not
 * overlap); the complement's rest mode lives at this stride. */
static int64_t extent(const cute_layout *A)
{
  int64_t cur = 1;
  int k;
  for (k = 0; k < A->shape.nleaf; k++)
    if (A->shape.v[k] > 1 && A->stride.v[k] != 0 &&
        A->shape.v[k] * A->stride.v[k] > cur)
      cur = A->shape.v[k] * A->stride.v[k];
  return cur;
}

/* Disjoint (A's finite domain against R's extended one) and ordered. */
static int disjoint_ordered(const cute_layout *A, const cute_layout *R)
{
  int64_t cos, a, nr = size_of(R);
  unsigned char *img = image(A, &cos);
  int ok = 1;
  for (a = 1; a < 2 * nr + 2 && ok; a++) {
    int64_t v = eval_i(R, a);
    ok = v > eval_i(R, a - 1) && (v >= cos || !img[v]);
  }
  free(img);
  CHECK(ok, "complement(%s) = %s: not disjoint and ordered at %lld",
        S(A), S(R), (long long)(a - 1));
  return ok;
}

/* (A, R) is a bijection onto [0, size(A)*size(R)) and that range is the
 * smallest multiple of the extent covering [0, M). */
static void covers(const cute_layout *A, const cute_layout *R, int64_t M)
{
  int64_t na = size_of(A), nr = size_of(R), i, j, cur = extent(A);
  int64_t n = na * nr;
  unsigned char *hit = calloc((size_t)n, 1);
  int ok = n == cur * ((M + cur - 1) / cur);
  for (j = 0; j < nr && ok; j++)
    for (i = 0; i < na && ok; i++) {
      int64_t v = eval_i(A, i) + eval_i(R, j);
      ok = v >= 0 && v < n && !hit[v];
      if (ok) hit[v] = 1;
    }
  free(hit);
  CHECK(ok, "complement(%s, %lld) = %s: (A, A*) is not a bijection onto "
        "[0, %lld)", S(A), (long long)M, S(R), (long long)n);
}

static void properties(void)
{
  test_rng r;
  int t, ok = 0, failed = 0;
  rng_seed(&r, 7);
  for (t = 0; t < 10000; t++) {
    cute_layout A = gapped(&r), R;
    cute_error e;
    int64_t cos, cur = extent(&A);
    free(image(&A, &cos));
    if (cute_complement(&R, &A, 0, &e) != CUTE_OK) {
      CHECK(0, "complement(%s): %s", S(&A), e.msg);
      continue;
    }
    ok += disjoint_ordered(&A, &R);
    /* Minimal: R's first value past its domain is where A ends. */
    CHECK(eval_i(&R, size_of(&R)) == cur, "complement(%s) = %s: rest "
          "stride is not %lld", S(&A), S(&R), (long long)cur);
  }
  CHECK(ok == 10000, "minimal complements: %d of 10000 ok", ok);

  /* Cotarget: exact holes (rng_injective_layout gaps are multiples). */
  for (t = 0; t < 10000; t++) {
    cute_layout A = rng_injective_layout(&r, 3, 6, 256), R;
    cute_error e;
    int64_t M = rng_range(&r, 1, 3 * size_of(&A) + 5);
    if (cute_complement(&R, &A, M, &e) != CUTE_OK) {
      CHECK(0, "complement(%s, %lld): %s", S(&A), (long long)M, e.msg);
      failed++;
      continue;
    }
    if (disjoint_ordered(&A, &R)) covers(&A, &R, M);
  }
  CHECK(failed == 0, "%d cotarget complements failed", failed);

  /* Arbitrary layouts: either a valid complement or a named refusal. */
  for (t = 0; t < 10000; t++) {
    cute_layout A = rng_layout(&r, 3, 5, 6, 256), R;
    cute_error e;
    cute_status st = cute_complement(&R, &A, 0, &e);
    if (st == CUTE_OK) disjoint_ordered(&A, &R);
    else CHECK(st == CUTE_ENONINJECTIVE && strstr(e.msg, "non-injective"),
               "complement(%s): %s", S(&A), e.msg);
  }
}

int main(void)
{
  table7();
  paper_text();
  errors();
  properties();
  return test_finish();
}
