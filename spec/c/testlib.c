/*
 * testlib.c -- the C test kit of testlib.h: checks, parse/print helpers and
 * a seeded generator of random layouts for property tests.
 *
 * Test-input mistakes (a literal that does not parse, a brute-force
 * evaluation that fails) stop the test program with exit(2): they are bugs
 * of the test, not results to count.
 */
#include "testlib.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

int test_passed, test_failed;

void test_check(int ok, const char *file, int line, const char *fmt, ...)
{
  va_list ap;
  if (ok) {
    test_passed++;
    return;
  }
  test_failed++;
  fprintf(stderr, "%s:%d: FAILED: ", file, line);
  va_start(ap, fmt);
  vfprintf(stderr, fmt, ap);
  va_end(ap);
  fputc('\n', stderr);
}

int test_finish(void)
{
  printf("%d passed, %d failed\n", test_passed, test_failed);
  return test_failed != 0;
}

static void die(const char *what, const char *text, const cute_error *e)
{
  fprintf(stderr, "test input error: %s(\"%s\"): %s\n", what, text,
          e ? e->msg : "");
  exit(2);
}

cute_layout L(const char *text)
{
  cute_layout l;
  cute_error e;
  if (cute_layout_parse(&l, text, &e) != CUTE_OK) die("L", text, &e);
  return l;
}

cute_tuple T(const char *text)
{
  cute_tuple t;
  cute_error e;
  if (cute_tuple_parse(&t, text, &e) != CUTE_OK) die("T", text, &e);
  return t;
}

/* Rotating buffers so that several S()/ST() fit in one printf. */
static char *next_buf(void)
{
  static char buf[8][CUTE_MAX_TEXT];
  static int i;
  i = (i + 1) % 8;
  return buf[i];
}

const char *S(const cute_layout *l)
{
  char *b = next_buf();
  cute_layout_print(l, b, CUTE_MAX_TEXT);
  return b;
}

const char *ST(const cute_tuple *t)
{
  char *b = next_buf();
  cute_tuple_print(t, b, CUTE_MAX_TEXT);
  return b;
}

/* ----------------------------------------------------- unary operations -- */

void test_unary(const char *file, int line, test_unary_fn op,
                const char *name, const char *in, const char *expected)
{
  cute_layout l = L(in), r;
  cute_error e;
  if (op(&r, &l, &e) != CUTE_OK) {
    test_check(0, file, line, "%s(%s): %s", name, in, e.msg);
    return;
  }
  test_check(strcmp(S(&r), expected) == 0, file, line,
             "%s(%s) = %s, expected %s", name, in, S(&r), expected);
}

void test_unary_fails(const char *file, int line, test_unary_fn op,
                      const char *name, const char *in, cute_status code,
                      const char *needle)
{
  cute_layout l = L(in), r;
  cute_error e;
  cute_status st = op(&r, &l, &e);
  size_t n = strlen(name);
  test_check(st == code, file, line, "%s(%s): status %s", name, in,
             cute_status_name(st));
  if (st != CUTE_OK)
    test_check(strstr(e.msg, needle) && strncmp(e.msg, name, n) == 0 &&
                   e.msg[n] == '(',
               file, line, "%s(%s): message \"%s\" lacks \"%s\"", name, in,
               e.msg, needle);
}

/* ------------------------------------------------------------------ rng -- */

void rng_seed(test_rng *r, uint64_t seed)
{
  /* xorshift needs a non-zero state; mix the seed so nearby seeds differ. */
  r->s = seed * 0x9E3779B97F4A7C15ull + 0x2545F4914F6CDD1Dull;
  if (r->s == 0) r->s = 1;
}

uint64_t rng_next(test_rng *r)
{
  uint64_t x = r->s;
  x ^= x >> 12;
  x ^= x << 25;
  x ^= x >> 27;
  r->s = x;
  return x * 0x2545F4914F6CDD1Dull;
}

int64_t rng_range(test_rng *r, int64_t lo, int64_t hi)
{
  uint64_t span = (uint64_t)(hi - lo) + 1;
  return lo + (int64_t)(span == 0 ? rng_next(r) : rng_next(r) % span);
}

/* Appends a random tree over k leaves to tok[*n...]: a group whose
 * children are leaves or (while depth allows) subgroups.  tok has room for
 * the worst case (every leaf under `depth` single-child groups). */
static void gen_group(test_rng *r, char *tok, int *nt, int k, int depth)
{
  tok[(*nt)++] = '(';
  while (k > 0) {
    int part = (int)rng_range(r, 1, k);
    if (depth > 1 && (part > 1 || rng_range(r, 0, 5) == 0)) {
      gen_group(r, tok, nt, part, depth - 1);
    } else {
      int i;
      for (i = 0; i < part; i++) tok[(*nt)++] = 'x';
    }
    k -= part;
  }
  tok[(*nt)++] = ')';
}

/* A random shape: structure of depth <= max_depth over n leaves, extents
 * in [1, max_extent] with product <= max_size. */
static cute_tuple gen_shape(test_rng *r, int max_depth, int max_leaves,
                            int64_t max_extent, int64_t max_size)
{
  cute_tuple t;
  int64_t size = 1;
  int k, n;
  /* Defined bytes past the used tokens and leaves: tests that corrupt a
   * layout's counts (test_malformed) then read the same bytes every run,
   * and valgrind sees no uninitialised reads. */
  memset(&t, 0, sizeof t);
  if (max_leaves > CUTE_MAX_LEAVES) max_leaves = CUTE_MAX_LEAVES;
  if (max_depth > 3) max_depth = 3;
  n = (int)rng_range(r, 1, max_leaves);
  if (max_depth < 1) n = 1;
  if (n == 1 && (max_depth < 1 || rng_range(r, 0, 2) == 0)) {
    t.tok[0] = 'x';
    t.ntok = 1;
  } else {
    char tok[8 * CUTE_MAX_LEAVES + 2];
    int nt = 0;
    gen_group(r, tok, &nt, n, max_depth);
    if (nt > CUTE_MAX_TOKENS) { /* too nested for the limits: go flat */
      memset(tok + 1, 'x', n);
      tok[n + 1] = ')';
      nt = n + 2;
    }
    memcpy(t.tok, tok, nt);
    t.ntok = (uint8_t)nt;
  }
  t.nleaf = (uint8_t)n;
  for (k = 0; k < n; k++) {
    int64_t hi = max_size / size < max_extent ? max_size / size : max_extent;
    t.v[k] = rng_range(r, 1, hi < 1 ? 1 : hi);
    t.e[k] = 0;
    size *= t.v[k];
  }
  return t;
}

cute_layout rng_layout(test_rng *r, int max_depth, int max_leaves,
                       int64_t max_extent, int64_t max_size)
{
  cute_layout l;
  int64_t p = 1;
  int k;
  l.shape = gen_shape(r, max_depth, max_leaves, max_extent, max_size);
  l.stride = l.shape;
  for (k = 0; k < l.shape.nleaf; k++) {
    int64_t d, pick = rng_range(r, 0, 19);
    if (pick < 7) d = p;                              /* compact */
    else if (pick < 9) d = 0;                         /* broadcast */
    else if (pick < 12) d = p * rng_range(r, 2, 3);   /* scaled */
    else if (pick < 15) d = rng_range(r, 1, 2 * p + 3); /* gap / any */
    else d = 2 * rng_range(r, 0, 4) + 1;              /* small odd */
    l.stride.v[k] = d;
    p *= l.shape.v[k];
  }
  return l;
}

cute_layout rng_injective_layout(test_rng *r, int max_depth, int max_leaves,
                                 int64_t max_size)
{
  cute_layout l;
  int perm[CUTE_MAX_LEAVES];
  int64_t p = 1;
  int k, n;
  l.shape = gen_shape(r, max_depth, max_leaves, max_size, max_size);
  l.stride = l.shape;
  n = l.shape.nleaf;
  for (k = 0; k < n; k++) perm[k] = k;
  for (k = n - 1; k > 0; k--) {
    int j = (int)rng_range(r, 0, k), x = perm[k];
    perm[k] = perm[j];
    perm[j] = x;
  }
  /* Mixed radix in a random leaf order, sometimes leaving gaps. */
  for (k = 0; k < n; k++) {
    l.stride.v[perm[k]] = p;
    p *= l.shape.v[perm[k]] * (rng_range(r, 0, 4) == 0 ? rng_range(r, 2, 3)
                                                       : 1);
  }
  return l;
}

/* ---------------------------------------------------------- brute force -- */

int64_t eval_i(const cute_layout *l, int64_t i)
{
  int64_t v;
  cute_error e;
  if (cute_layout_eval_index(l, i, &v, &e) != CUTE_OK) {
    fprintf(stderr, "test error: %s at %lld: %s\n", S(l), (long long)i,
            e.msg);
    exit(2);
  }
  return v;
}

int64_t size_of(const cute_layout *l)
{
  int64_t v;
  cute_error e;
  if (cute_layout_size(l, &v, &e) != CUTE_OK) {
    fprintf(stderr, "test error: size(%s): %s\n", S(l), e.msg);
    exit(2);
  }
  return v;
}
