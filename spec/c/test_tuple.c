/*
 * test_tuple.c -- HTuples (paper 2.1-2.2): builder and limits, access,
 * congruence / weak congruence / compatibility (Definitions 2.3, 2.4, 2.7),
 * idx2crd / crd2idx (eq. 4, 5, Figure 2, extended domain).
 */
#include "testlib.h"

#include <stdio.h>
#include <string.h>

#define CHECK_TUPLE(t, expected) \
  CHECK(strcmp(ST(&(t)), (expected)) == 0, "got %s, expected %s", ST(&(t)), \
        (expected))

static void test_builder(void)
{
  cute_tuple t, a, b;
  const cute_tuple *xs[2];
  cute_error e;
  int i;

  cute_tuple_clear(&t);
  CHECK(cute_tuple_open(&t, &e) == CUTE_OK, "open");
  cute_tuple_open(&t, &e);
  cute_tuple_leaf(&t, 2, 0, &e);
  cute_tuple_leaf(&t, 2, 0, &e);
  cute_tuple_close(&t, &e);
  cute_tuple_open(&t, &e);
  cute_tuple_leaf(&t, 4, 0, &e);
  cute_tuple_leaf(&t, 2, CUTE_BASIS1(1), &e);
  cute_tuple_close(&t, &e);
  CHECK(cute_tuple_close(&t, &e) == CUTE_OK, "close");
  CHECK_TUPLE(t, "((2,2),(4,2@1))");
  CHECK(cute_tuple_check(&t, &e) == CUTE_OK, "built tuple is well formed");
  CHECK(memcmp(t.tok, "((xx)(xx))", 10) == 0 && t.ntok == 10, "tokens");
  CHECK(cute_tuple_rank(&t) == 2 && cute_tuple_depth(&t) == 2, "rank/depth");
  CHECK(!cute_tuple_is_int(&t), "not an integer");

  CHECK(cute_tuple_leaf(&t, 1, 0, &e) == CUTE_EINVAL,
        "no element after a complete tuple");
  CHECK(cute_tuple_close(&t, &e) == CUTE_EINVAL, "')' without '('");

  cute_tuple_int(&a, 8);
  CHECK_TUPLE(a, "8");
  CHECK(cute_tuple_is_int(&a) && cute_tuple_rank(&a) == 1 &&
        cute_tuple_depth(&a) == 0, "integer: rank 1, depth 0");

  b = T("(2,3)");
  xs[0] = &a;
  xs[1] = &b;
  CHECK(cute_tuple_make(&t, xs, 2, &e) == CUTE_OK, "make");
  CHECK_TUPLE(t, "(8,(2,3))");
  CHECK(cute_tuple_make(&t, xs, 0, &e) == CUTE_OK, "make ()");
  CHECK_TUPLE(t, "()");
  CHECK(cute_tuple_rank(&t) == 0 && cute_tuple_depth(&t) == 1, "() rank 0");

  /* Limits. */
  cute_tuple_clear(&t);
  cute_tuple_open(&t, &e);
  for (i = 0; i < CUTE_MAX_LEAVES; i++)
    CHECK(cute_tuple_leaf(&t, 1, 0, &e) == CUTE_OK, "leaf %d", i);
  CHECK(cute_tuple_leaf(&t, 1, 0, &e) == CUTE_ELIMIT, "leaf 33: ELIMIT");
  CHECK(strstr(e.msg, "leaves") != NULL, "message names the limit: %s",
        e.msg);
  cute_tuple_clear(&t);
  for (i = 0; i < CUTE_MAX_DEPTH; i++)
    CHECK(cute_tuple_open(&t, &e) == CUTE_OK, "open %d", i);
  CHECK(cute_tuple_open(&t, &e) == CUTE_ELIMIT, "depth 9: ELIMIT");
  cute_tuple_clear(&t);
  cute_tuple_open(&t, &e);
  for (i = 0; i < 40; i++) {
    cute_status st = cute_tuple_open(&t, &e);
    if (st == CUTE_OK) st = cute_tuple_leaf(&t, 1, 0, &e);
    if (st == CUTE_OK) st = cute_tuple_close(&t, &e);
    if (st != CUTE_OK) {
      CHECK(st == CUTE_ELIMIT && i == 31, "tokens: ELIMIT at group %d", i);
      break;
    }
  }
  CHECK(cute_tuple_close(&t, &e) == CUTE_OK && t.ntok <= CUTE_MAX_TOKENS,
        "a tuple at the token limit can still be closed");
  cute_tuple_clear(&t);
  CHECK(cute_tuple_leaf(&t, 1, 4u, &e) == CUTE_ELIMIT, "basis path of 4");
  CHECK(cute_tuple_leaf(&t, 1, 0x100u, &e) == CUTE_ELIMIT,
        "basis bytes past its length");
  CHECK(cute_tuple_leaf(&t, 1, 1u | (255u << 8), &e) == CUTE_ELIMIT,
        "basis index 255");

  /* Malformed token strings are rejected, not walked off. */
  t.ntok = 2;
  t.nleaf = 1;
  memcpy(t.tok, "x)", 2);
  CHECK(cute_tuple_check(&t, &e) == CUTE_EINVAL, "x) malformed");
  memcpy(t.tok, "xx", 2);
  t.nleaf = 2;
  CHECK(cute_tuple_check(&t, &e) == CUTE_EINVAL, "two roots");
  t.ntok = 200;
  CHECK(cute_tuple_check(&t, &e) == CUTE_ELIMIT, "ntok above the limit");
}

static void test_access(void)
{
  cute_tuple t = T("(4,(2,2),8)"), m;
  cute_error e;
  int64_t n;

  CHECK(cute_tuple_mode(&m, &t, 1, &e) == CUTE_OK, "mode 1");
  CHECK_TUPLE(m, "(2,2)");
  cute_tuple_mode(&m, &t, 2, &e);
  CHECK_TUPLE(m, "8");
  CHECK(cute_tuple_mode(&m, &t, 3, &e) == CUTE_ERANK, "mode 3: ERANK");
  CHECK(strstr(e.msg, "(4,(2,2),8)") && strstr(e.msg, "mode"),
        "message names operation and operand: %s", e.msg);
  CHECK(cute_tuple_mode(&m, &t, -1, &e) == CUTE_ERANK, "mode -1: ERANK");
  m = T("7");
  CHECK(cute_tuple_mode(&m, &m, 0, &e) == CUTE_OK, "mode 0 of an integer");
  CHECK_TUPLE(m, "7");
  CHECK(cute_tuple_mode(&m, &m, 1, &e) == CUTE_ERANK, "mode 1 of integer");
  m = t;
  cute_tuple_mode(&m, &m, 1, &e);
  CHECK_TUPLE(m, "(2,2)");

  cute_tuple_flatten(&m, &t);
  CHECK_TUPLE(m, "(4,2,2,8)");
  t = T("((2,2),(4,2))");
  cute_tuple_flatten(&t, &t);
  CHECK_TUPLE(t, "(2,2,4,2)");
  t = T("8");
  cute_tuple_flatten(&m, &t);
  CHECK_TUPLE(m, "8");

  t = T("(4,(2,3))");
  CHECK(cute_tuple_size(&t, &n, &e) == CUTE_OK && n == 24, "size 24");
  CHECK(cute_tuple_sum(&t, &n, &e) == CUTE_OK && n == 9, "sum 9");
  t = T("()");
  CHECK(cute_tuple_size(&t, &n, &e) == CUTE_OK && n == 1, "size () = 1");
  t = T("(4294967296,4294967296)");
  CHECK(cute_tuple_size(&t, &n, &e) == CUTE_EOVERFLOW, "size overflow");
  t = T("(1@0,2)");
  CHECK(cute_tuple_size(&t, &n, &e) == CUTE_EINVAL, "size of a basis");

  t = T("(4,(2,2))");
  m = T("(4,(2,2))");
  CHECK(cute_tuple_equal(&t, &m), "equal");
  m = T("(4,(2,3))");
  CHECK(!cute_tuple_equal(&t, &m), "not equal (value)");
  m = T("(4,2,2)");
  CHECK(!cute_tuple_equal(&t, &m), "not equal (profile)");
}

static int cg(const char *a, const char *b)
{
  cute_tuple x = T(a), y = T(b);
  return cute_congruent(&x, &y);
}

static int wk(const char *a, const char *b)
{
  cute_tuple x = T(a), y = T(b);
  return cute_weakly_congruent(&x, &y);
}

static int cp(const char *a, const char *b)
{
  cute_tuple x = T(a), y = T(b);
  return cute_compatible(&x, &y);
}

static void test_relations(void)
{
  /* Definition 2.3 examples. */
  CHECK(cg("(4,8)", "(5,7)"), "(4,8) ~ (5,7)");
  CHECK(cg("(4,(2,4))", "(7,(3,2))"), "(4,(2,4)) ~ (7,(3,2))");
  CHECK(cg("(1,((2,3)))", "(0,((0,0)))"), "(v,((p,3))) ~ (0,((0,0)))");
  CHECK(!cg("(4,8)", "(4,(2,4))"), "(4,8) !~ (4,(2,4))");
  CHECK(!cg("(4,(2,4))", "(0,((0,0)))"), "(4,(2,4)) !~ (0,((0,0)))");
  CHECK(cg("3", "5"), "integers are congruent");

  /* Definition 2.4 examples: 30 <~ (a,b) <~ (v,(0,alpha)). */
  CHECK(wk("30", "(1,2)"), "30 <~ (a,b)");
  CHECK(wk("(1,2)", "(1,(0,3))"), "(a,b) <~ (v,(0,alpha))");
  CHECK(wk("30", "(1,(0,3))"), "transitive");
  CHECK(wk("30", "(1,2,3)") && wk("(1,2,3)", "((0,0),0,0)"),
        "30 <~ (a,b,c) <~ ((0,0),0,0)");
  CHECK(!wk("(1,2)", "(1,2,3)") && !wk("(1,2,3)", "(1,2)"),
        "(a,b), (a,b,c) not weakly congruent");
  CHECK(!wk("(1,(0,3))", "((0,0),0)") && !wk("((0,0),0)", "(1,(0,3))"),
        "(v,(0,alpha)), ((0,0),0) not weakly congruent");
  CHECK(!wk("(1,2)", "30"), "a tuple does not coarsen an integer");

  /* Definition 2.7 examples. */
  CHECK(cp("30", "(2,15)") && cp("(2,15)", "(2,(3,5))") &&
        cp("30", "(2,(3,5))"), "30 <= (2,15) <= (2,(3,5))");
  CHECK(cp("30", "(6,5)") && cp("(6,5)", "((3,2),5)"),
        "30 <= (6,5) <= ((3,2),5)");
  CHECK(!cp("(2,(3,5))", "((3,2),5)") && !cp("((3,2),5)", "(2,(3,5))"),
        "(2,(3,5)), ((3,2),5) not compatible");
  CHECK(!cp("31", "(2,15)"), "sizes differ");
  CHECK(!cp("(2,15)", "30"), "a tuple does not coarsen an integer");
}

/* Figure 2: integral -> (6,2) and ((2,3),2) coordinates of shape
 * ((2,3),2), and the (2,3) table. */
static void test_figure2(void)
{
  static const char *z62[12] = {
    "(0,0)", "(1,0)", "(2,0)", "(3,0)", "(4,0)", "(5,0)",
    "(0,1)", "(1,1)", "(2,1)", "(3,1)", "(4,1)", "(5,1)"};
  static const char *z232[12] = {
    "((0,0),0)", "((1,0),0)", "((0,1),0)", "((1,1),0)", "((0,2),0)",
    "((1,2),0)", "((0,0),1)", "((1,0),1)", "((0,1),1)", "((1,1),1)",
    "((0,2),1)", "((1,2),1)"};
  static const char *z23[6] = {"(0,0)", "(1,0)", "(0,1)",
                               "(1,1)", "(0,2)", "(1,2)"};
  cute_tuple s62 = T("(6,2)"), s232 = T("((2,3),2)"), s23 = T("(2,3)"),
             s4 = T("4"), c;
  cute_error e;
  int64_t i, j;
  for (i = 0; i < 12; i++) {
    cute_idx2crd(&c, i, &s62, &e);
    CHECK(strcmp(ST(&c), z62[i]) == 0, "idx2crd(%d,(6,2)) = %s", (int)i,
          ST(&c));
    CHECK(cute_crd2idx(&j, &c, &s232, &e) == CUTE_OK && j == i,
          "(6,2) coordinate %s into ((2,3),2) -> %d", ST(&c), (int)i);
    cute_idx2crd(&c, i, &s232, &e);
    CHECK(strcmp(ST(&c), z232[i]) == 0, "idx2crd(%d,((2,3),2)) = %s",
          (int)i, ST(&c));
    CHECK(cute_crd2idx(&j, &c, &s232, &e) == CUTE_OK && j == i,
          "crd2idx(%s) = %d", ST(&c), (int)i);
  }
  for (i = 0; i < 6; i++) {
    cute_idx2crd(&c, i, &s23, &e);
    CHECK(strcmp(ST(&c), z23[i]) == 0, "idx2crd(%d,(2,3)) = %s", (int)i,
          ST(&c));
  }
  for (i = 0; i < 4; i++) {
    cute_idx2crd(&c, i, &s4, &e);
    CHECK(cute_tuple_is_int(&c) && c.v[0] == i, "idx2crd(%d,4)", (int)i);
  }
}

static void test_extended(void)
{
  cute_tuple s = T("(2,3)"), s2 = T("((2,3),2)"), s3 = T("((2,2),(4,2))"), c;
  cute_error e;
  int64_t i, n[4];
  /* The last mode absorbs (recursively: the last leaf of the last mode). */
  cute_idx2crd(&c, 13, &s, &e);
  CHECK(strcmp(ST(&c), "(1,6)") == 0, "idx2crd(13,(2,3)) = %s", ST(&c));
  cute_idx2crd(&c, 25, &s2, &e);
  CHECK(strcmp(ST(&c), "((1,0),4)") == 0, "idx2crd(25,((2,3),2)) = %s",
        ST(&c));
  cute_idx2crd(&c, -1, &s, &e);
  CHECK(strcmp(ST(&c), "(1,-1)") == 0, "idx2crd(-1,(2,3)) = %s (floor)",
        ST(&c));
  c = T("(1,6)");
  CHECK(cute_crd2idx(&i, &c, &s, &e) == CUTE_OK && i == 13, "back to 13");
  c = T("(5,0)");
  CHECK(cute_crd2idx(&i, &c, &s, &e) == CUTE_OK && i == 5,
        "out-of-bounds (5,0) -> 5");

  /* 2.4.1: 22 = (2,5) = ((0,1),(1,1)) in ((2,2),(4,2)). */
  c = T("(2,5)");
  CHECK(cute_crd2idx(&i, &c, &s3, &e) == CUTE_OK && i == 22, "(2,5) -> 22");
  CHECK(cute_tuple_natural(n, &c, &s3, 0, &e) == CUTE_OK && n[0] == 0 &&
        n[1] == 1 && n[2] == 1 && n[3] == 1, "natural (2,5) = ((0,1),(1,1))");
  c = T("((0,1),(1,1))");
  CHECK(cute_crd2idx(&i, &c, &s3, &e) == CUTE_OK && i == 22, "natural -> 22");
  c = T("22");
  CHECK(cute_crd2idx(&i, &c, &s3, &e) == CUTE_OK && i == 22, "22 -> 22");
  c = T("((0,1),5)");
  CHECK(cute_crd2idx(&i, &c, &s3, &e) == CUTE_OK && i == 22, "mixed -> 22");

  c = T("(1,2,3)");
  CHECK(cute_crd2idx(&i, &c, &s3, &e) == CUTE_ERANK, "rank mismatch");
  CHECK(strstr(e.msg, "(1,2,3)") && strstr(e.msg, "((2,2),(4,2))"),
        "message names both: %s", e.msg);
  c = T("((1,1),2)");
  CHECK(cute_crd2idx(&i, &c, &s, &e) == CUTE_ERANK, "finer than the shape");
  c = T("(_,1)");
  CHECK(cute_crd2idx(&i, &c, &s, &e) == CUTE_EINVAL, "_ in crd2idx");
  CHECK(cute_tuple_natural(n, &c, &s, 1, &e) == CUTE_OK && n[0] == 0 &&
        n[1] == 1, "_ counts as 0 when allowed");
  c = T("(4611686018427387904,4611686018427387904)");
  CHECK(cute_crd2idx(&i, &c, &s, &e) == CUTE_EOVERFLOW, "crd2idx overflow");
  c = T("(1@0,1)");
  CHECK(cute_crd2idx(&i, &c, &s, &e) == CUTE_EINVAL, "basis in coordinate");
}

/* "(1000000000000,1000000000003,...)": 32 leaves, 446 characters. */
static void long_text(char *buf, size_t cap, int64_t first)
{
  size_t k = 0;
  int i;
  for (i = 0; i < CUTE_MAX_LEAVES; i++)
    k += (size_t)snprintf(buf + k, cap - k, "%s%lld", i ? "," : "(",
                          (long long)(first + 3 * i));
  snprintf(buf + k, cap - k, ")");
}

static int ends_with(const char *s, const char *end)
{
  size_t n = strlen(s), m = strlen(end);
  return n >= m && strcmp(s + n - m, end) == 0;
}

/* Long operands are elided in their middle, each keeping its head and tail,
 * and the reason stays whole. */
static void test_long_operands(void)
{
  char text[1024];
  cute_tuple c, s;
  cute_error e;
  int64_t i;
  long_text(text, sizeof text, 1000000000000);
  c = s = T(text);
  CHECK(cute_crd2idx(&i, &c, &s, &e) == CUTE_EOVERFLOW, "crd2idx overflow");
  CHECK(strstr(e.msg, "crd2idx((1000000000000,1000000000003,") == e.msg &&
        strstr(e.msg, "...") &&
        strstr(e.msg, "1000000000093), (1000000000000,1000000000003,") &&
        ends_with(e.msg, "1000000000093)): 64-bit overflow"),
        "crd2idx: %s", e.msg);
  long_text(text, sizeof text, 0);
  s = T(text);
  CHECK(cute_idx2crd(&c, 5, &s, &e) == CUTE_EINVAL, "idx2crd leaf 0");
  CHECK(strstr(e.msg, "idx2crd(5, (0,3,6,") == e.msg &&
        ends_with(e.msg, ",90,93)): shape leaf 0 is not positive"),
        "idx2crd: %s", e.msg);
}

/* Round trips over random shapes: crd2idx(idx2crd(i)) = i on the extended
 * domain, idx2crd(crd2idx(c)) = c for in-bounds natural coordinates. */
static void test_roundtrip(void)
{
  test_rng r;
  cute_error e;
  int it, bad = 0;
  rng_seed(&r, 42);
  for (it = 0; it < 10000; it++) {
    cute_layout l = rng_layout(&r, 3, 6, 7, 2000);
    cute_tuple c, c2;
    int64_t size = size_of(&l), i = rng_range(&r, -3 * size, 3 * size), j;
    int k;
    if (cute_idx2crd(&c, i, &l.shape, &e) || !cute_congruent(&c, &l.shape) ||
        cute_crd2idx(&j, &c, &l.shape, &e) || j != i)
      bad++;
    /* floor division: every leaf but the last in [0, s), any sign of i */
    for (k = 0; k + 1 < c.nleaf; k++)
      bad += c.v[k] < 0 || c.v[k] >= l.shape.v[k];
    /* A random in-bounds natural coordinate. */
    c = l.shape;
    for (k = 0; k < c.nleaf; k++) c.v[k] = rng_range(&r, 0, l.shape.v[k] - 1);
    if (cute_crd2idx(&j, &c, &l.shape, &e) || j < 0 || j >= size ||
        cute_idx2crd(&c2, j, &l.shape, &e) || !cute_tuple_equal(&c, &c2))
      bad++;
    if (!cute_weakly_congruent(&c, &l.shape) ||
        !cute_compatible(&l.shape, &l.shape))
      bad++;
  }
  CHECK(bad == 0, "%d round-trip failures over 10000 random shapes", bad);
}

/* The reference grammar of a token string: elem = 'x' | '(' elem* ')',
 * one elem in all; returns the position after elem p, -1 if none. */
static int ref_elem(const char *t, int n, int p, int depth, int *maxd)
{
  if (p >= n) return -1;
  if (t[p] == 'x') return p + 1;
  if (t[p] != '(') return -1;
  if (depth + 1 > *maxd) *maxd = depth + 1;
  for (p++; p < n && t[p] != ')';)
    if ((p = ref_elem(t, n, p, depth + 1, maxd)) < 0) return -1;
  return p < n ? p + 1 : -1;
}

/* cute_tuple_check against the grammar above on every token string of up
 * to 9 tokens over "()x" and on random ones with other bytes and depths
 * past the limit: the status, and a leaf count that differs is refused. */
static void test_check_brute(void)
{
  static const char alpha[] = "()x";
  test_rng r;
  int len, bad = 0, total = 0;
  rng_seed(&r, 7);
  for (len = 1; len <= 9 + 40; len++) {
    long code, ncodes = 1;
    int i;
    for (i = 0; i < len && len <= 9; i++) ncodes *= 3;
    if (len > 9) ncodes = 2000;
    for (code = 0; code < ncodes; code++) {
      cute_tuple t;
      long c = code;
      int x = 0, maxd = 0, end, want;
      cute_tuple_clear(&t);
      for (i = 0; i < len; i++, c /= 3) {
        t.tok[i] = len <= 9 ? alpha[c % 3] : alpha[rng_range(&r, 0, 2)];
        if (len > 9 && rng_range(&r, 0, 200) == 0) t.tok[i] = 'y';
        x += t.tok[i] == 'x';
      }
      t.ntok = (uint8_t)len;
      t.nleaf = (uint8_t)(x <= CUTE_MAX_LEAVES ? x : CUTE_MAX_LEAVES);
      for (i = 0; i < t.nleaf; i++) t.v[i] = 1, t.e[i] = 0;
      end = ref_elem(t.tok, len, 0, 0, &maxd);
      want = x > CUTE_MAX_LEAVES ? CUTE_EINVAL /* counts disagree */
             : end != len ? CUTE_EINVAL
             : maxd > CUTE_MAX_DEPTH ? CUTE_ELIMIT : CUTE_OK;
      bad += cute_tuple_check(&t, NULL) != (cute_status)want;
      if (want == CUTE_OK && t.nleaf > 0) {
        t.nleaf--; /* one leaf fewer than its tokens say */
        bad += cute_tuple_check(&t, NULL) != CUTE_EINVAL;
      }
      total++;
    }
  }
  CHECK(bad == 0, "cute_tuple_check disagrees with the grammar on %d of "
        "%d token strings", bad, total);
}

int main(void)
{
  test_builder();
  test_access();
  test_relations();
  test_figure2();
  test_extended();
  test_long_operands();
  test_roundtrip();
  test_check_brute();
  return test_finish();
}
