/*
 * test_limits.c -- every limit of algebra/cute.h, hit once: the status is
 * CUTE_ELIMIT and the message names the operation, the operand (as CuTe
 * text, or its start when it is too long to quote), the limit's constant
 * and its value.  CUTE_MAX_WALK is no error: past it cute_composed_cosize
 * answers an upper bound instead of walking the domain.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "testlib.h"

/* The message of a failed call holds every needle (NULL ends the list). */
#define HAS_ALL(err, ...) has_all(__FILE__, __LINE__, (err), __VA_ARGS__, NULL)

static void has_all(const char *file, int line, const cute_error *err, ...)
{
  va_list ap;
  const char *needle;
  va_start(ap, err);
  while ((needle = va_arg(ap, const char *)) != NULL)
    test_check(strstr(err->msg, needle) != NULL, file, line,
               "[%s] lacks [%s]", err->msg, needle);
  va_end(ap);
}

/* "(x,x,...,x)" with n copies of the element x. */
static const char *repeat(char *buf, size_t cap, const char *x, int n)
{
  size_t k = 0;
  int i;
  buf[k++] = '(';
  for (i = 0; i < n && k + strlen(x) + 3 < cap; i++)
    k += (size_t)snprintf(buf + k, cap - k, "%s%s", i ? "," : "", x);
  snprintf(buf + k, cap - k, ")");
  return buf;
}

static void test_leaves(void)
{
  char text[256];
  cute_layout l, r;
  cute_error e;
  const cute_layout *ls[2];
  repeat(text, sizeof text, "2", CUTE_MAX_LEAVES + 1);
  CHECK(cute_layout_parse(&l, text, &e) == CUTE_ELIMIT, "33 leaves parse");
  HAS_ALL(&e, "2,2,2)", "more than 32 leaves", "CUTE_MAX_LEAVES");
  repeat(text, sizeof text, "2", CUTE_MAX_LEAVES);
  CHECK(cute_layout_parse(&l, text, &e) == CUTE_OK, "32 leaves parse");
  /* an operation whose result outgrows the limit names itself (strides
   * 0 keep the operands' text short enough to leave room for the reason) */
  repeat(text, sizeof text, "2", 17);
  strcat(text, ":");
  repeat(text + strlen(text), sizeof text - strlen(text), "0", 17);
  CHECK(cute_layout_parse(&l, text, &e) == CUTE_OK, "%s", e.msg);
  ls[0] = &l;
  ls[1] = &l;
  CHECK(cute_layout_concat(&r, ls, 2, &e) == CUTE_ELIMIT, "34 leaves concat");
  HAS_ALL(&e, "concat((2,2,2", "32 leaves", "CUTE_MAX_LEAVES");
}

static void test_tokens(void)
{
  char text[256];
  cute_tuple t;
  cute_error e;
  /* 48 empty groups and the outer pair: 98 tokens */
  repeat(text, sizeof text, "()", 48);
  CHECK(cute_tuple_parse(&t, text, &e) == CUTE_ELIMIT, "98 tokens");
  HAS_ALL(&e, "(),())", "more than 96 tokens", "CUTE_MAX_TOKENS");
  repeat(text, sizeof text, "()", 47);
  CHECK(cute_tuple_parse(&t, text, &e) == CUTE_OK, "96 tokens: %s", e.msg);
}

static void test_depth(void)
{
  cute_tuple t;
  cute_layout l;
  cute_error e;
  CHECK(cute_tuple_parse(&t, "(((((((((2)))))))))", &e) == CUTE_ELIMIT,
        "depth 9");
  HAS_ALL(&e, "(((((((((2)))))))))", "depth above 8", "CUTE_MAX_DEPTH");
  CHECK(cute_tuple_parse(&t, "((((((((2))))))))", &e) == CUTE_OK, "depth 8");
  /* the identity of a depth-4 shape would need basis paths of length 4 */
  CHECK(cute_layout_parse(&l, "((((2))))", &e) == CUTE_OK, "depth 4");
  CHECK(cute_layout_identity(&l, &l.shape, &e) == CUTE_ELIMIT,
        "identity of depth 4");
  HAS_ALL(&e, "make_identity_layout(", "deeper than 3 basis levels",
          "CUTE_MAX_BASIS_DEPTH");
}

static void test_basis(void)
{
  cute_layout l;
  cute_error e;
  CHECK(cute_layout_parse(&l, "(4,8):(1@0@0@0@0,1@1)", &e) == CUTE_ELIMIT,
        "basis path of 4");
  HAS_ALL(&e, "(4,8):(1@0@0@0@0,1@1)", "CUTE_MAX_BASIS_DEPTH (3)");
  CHECK(cute_layout_parse(&l, "(4,8):(1@0@0@0,1@1)", &e) == CUTE_OK,
        "basis path of 3");
  CHECK(cute_layout_parse(&l, "(4,8):(1@255,1@1)", &e) == CUTE_ELIMIT,
        "basis index 255");
  HAS_ALL(&e, "(4,8):(1@255,1@1)", "255", "CUTE_MAX_BASIS_INDEX (254)");
  CHECK(cute_layout_parse(&l, "(4,8):(1@254,1@1)", &e) == CUTE_OK,
        "basis index 254");
}

static void test_tiler(void)
{
  cute_tiler T;
  cute_error e;
  const char *many = "<1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,29,30,31,32,33>";
  CHECK(cute_tiler_parse(&T, many, &e) == CUTE_ELIMIT, "33 modes");
  HAS_ALL(&e, "tiler(", "CUTE_MAX_TILER (32)");
  CHECK(cute_tiler_parse(&T, "<1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,29,30,31,32>", &e) == CUTE_OK, "32 modes");
}

static void test_text(void)
{
  static char text[CUTE_MAX_TEXT + 2];
  cute_layout l;
  cute_error e;
  memset(text, ' ', CUTE_MAX_TEXT + 1);
  text[0] = '8';
  text[CUTE_MAX_TEXT + 1] = 0;
  CHECK(cute_layout_parse(&l, text, &e) == CUTE_ELIMIT, "4097 characters");
  HAS_ALL(&e, "text longer than CUTE_MAX_TEXT (4096)");
  text[CUTE_MAX_TEXT] = 0;
  CHECK(cute_layout_parse(&l, text, &e) == CUTE_OK, "4096 characters");
}

/* The swizzle's span of Sw<3,4,3> is 10 bits: an upper bound rounds the
 * largest offset up to its block of 1024.  At offset 1 the last offset is
 * alone in its block, so exact and bound differ there. */
static void test_walk(void)
{
  cute_composed C;
  cute_error e;
  int64_t cosize;
  clock_t t0 = clock();
  double secs;
  char text[64];
  snprintf(text, sizeof text, "Sw<3,4,3> o 1 o %d:1", CUTE_MAX_WALK);
  CHECK(cute_composed_parse(&C, text, &e) == CUTE_OK, "%s", e.msg);
  CHECK(cute_composed_cosize(&C, &cosize, &e) == CUTE_OK &&
            cosize == (int64_t)CUTE_MAX_WALK + 1,
        "walked: cosize %lld", (long long)cosize);
  secs = (double)(clock() - t0) / CLOCKS_PER_SEC;
  CHECK(secs < 2, "a walk of CUTE_MAX_WALK elements took %.2f s", secs);
  snprintf(text, sizeof text, "Sw<3,4,3> o 1 o %d:1", CUTE_MAX_WALK + 1);
  CHECK(cute_composed_parse(&C, text, &e) == CUTE_OK, "%s", e.msg);
  CHECK(cute_composed_cosize(&C, &cosize, &e) == CUTE_OK &&
            cosize == (int64_t)CUTE_MAX_WALK + 1024,
        "bound past the walk: cosize %lld", (long long)cosize);
  /* a size past 64 bits is no walk either */
  CHECK(cute_composed_parse(&C, "Sw<3,4,3> o 0 o (1073741824,1073741824):"
                                "(1,1073741824)", &e) == CUTE_OK, "%s", e.msg);
  CHECK(cute_composed_cosize(&C, &cosize, &e) == CUTE_OK &&
            cosize == (int64_t)1 << 60, "2^60 elements: %lld",
        (long long)cosize);
}

int main(void)
{
  test_leaves();
  test_tokens();
  test_depth();
  test_basis();
  test_tiler();
  test_text();
  test_walk();
  return test_finish();
}
