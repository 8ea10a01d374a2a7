/*
 * test_swizzle.c -- Swizzle<B,M,S> (cute/swizzle.hpp) and the composed
 * layout Sw o offset o L: the definition bit by bit, involution and
 * bijectivity, the 128-byte swizzle tile, cosize, compose, errors.
 */
#include "testlib.h"

#include <stdlib.h>
#include <string.h>

static cute_swizzle make(int b, int m, int s)
{
  cute_swizzle sw;
  cute_error e;
  if (cute_swizzle_make(&sw, b, m, s, &e) != CUTE_OK) {
    CHECK(0, "swizzle(%d,%d,%d): %s", b, m, s, e.msg);
    sw.b = 0; sw.m = 0; sw.s = 0;
  }
  return sw;
}

/* The definition, one bit at a time: for S >= 0 bit M+S+i is xored into
 * bit M+i; for S < 0 bit M+i into bit M-S+i (i < B). */
static int64_t by_bits(int b, int m, int s, int64_t x)
{
  int64_t r = x;
  int i;
  for (i = 0; i < b; i++) {
    int src = s >= 0 ? m + s + i : m + i, dst = s >= 0 ? m + i : m - s + i;
    r ^= ((x >> src) & 1) << dst;
  }
  return r;
}

static void definition(void)
{
  static const int params[][3] = {{3, 4, 3}, {3, 3, 3}, {2, 4, 3},
                                  {1, 2, 1}, {2, 0, -2}, {3, 1, -4},
                                  {0, 5, 0}, {2, 2, 5}};
  int p;
  int64_t x;
  cute_swizzle sw = make(3, 4, 3);
  /* Sw<3,4,3>: bits 7..9 into bits 4..6 (docs/architecture.md, "Semantic
   * choices": the xor the other way round is another function). */
  CHECK(cute_swizzle_apply(sw, 128) == 144, "Sw<3,4,3>(128) = %lld",
        (long long)cute_swizzle_apply(sw, 128));
  CHECK(cute_swizzle_apply(sw, 16) == 16, "Sw<3,4,3>(16) moves");
  CHECK(cute_swizzle_apply(sw, 1023) == 1023 - 112, "Sw<3,4,3>(1023) = %lld",
        (long long)cute_swizzle_apply(sw, 1023));
  for (x = 0; x < 1024; x++)
    CHECK(cute_swizzle_apply(sw, x) == by_bits(3, 4, 3, x),
          "Sw<3,4,3>(%lld) = %lld", (long long)x,
          (long long)cute_swizzle_apply(sw, x));
  for (p = 0; p < (int)(sizeof params / sizeof params[0]); p++) {
    int b = params[p][0], m = params[p][1], s = params[p][2];
    int64_t n = (int64_t)1 << (m + abs(s) + b);
    unsigned char *hit = calloc((size_t)n, 1);
    int ok = 1;
    sw = make(b, m, s);
    for (x = 0; x < n && ok; x++) {
      int64_t y = cute_swizzle_apply(sw, x);
      ok = y == by_bits(b, m, s, x) && cute_swizzle_apply(sw, y) == x &&
           y >= 0 && y < n && !hit[y];
      if (ok) hit[y] = 1;
    }
    free(hit);
    CHECK(ok, "Sw<%d,%d,%d> at %lld: not the definition, not an "
          "involution or not a bijection on [0,%lld)", b, m, s,
          (long long)(x - 1), (long long)n);
  }
  /* Negative offsets keep their high bits; the xor is on the low field. */
  sw = make(3, 4, 3);
  CHECK(cute_swizzle_apply(sw, -1024 + 128) == -1024 + 144, "negative");
  /* A hand-made invalid swizzle is the identity, not undefined. */
  sw.b = 4; sw.m = 0; sw.s = 2;
  CHECK(cute_swizzle_apply(sw, 255) == 255, "invalid swizzle applied");
}

static void make_errors(void)
{
  cute_swizzle sw;
  cute_error e;
  CHECK(cute_swizzle_make(&sw, 3, 4, 2, &e) == CUTE_EINVAL &&
        strstr(e.msg, "|S| >= B"), "|S| < B: %s", e.msg);
  CHECK(cute_swizzle_make(&sw, 3, 4, -2, &e) == CUTE_EINVAL, "|-2| < 3");
  CHECK(cute_swizzle_make(&sw, -1, 4, 3, &e) == CUTE_EINVAL, "B < 0");
  CHECK(cute_swizzle_make(&sw, 1, -1, 3, &e) == CUTE_EINVAL, "M < 0");
  CHECK(cute_swizzle_make(&sw, 20, 20, 23, &e) == CUTE_ELIMIT &&
        strstr(e.msg, "62"), "62 bits: %s", e.msg);
  CHECK(cute_swizzle_make(&sw, 1, 0, -2147483647 - 1, &e) == CUTE_ELIMIT,
        "S = INT_MIN");
  CHECK(cute_swizzle_make(&sw, 20, 20, 20, &e) == CUTE_OK, "60 bits");
  CHECK(cute_swizzle_make(&sw, 0, 0, 0, &e) == CUTE_OK, "identity");
}

static cute_composed composed(cute_swizzle sw, int64_t off, const char *l)
{
  cute_composed C;
  C.sw = sw;
  C.offset = off;
  C.layout = L(l);
  return C;
}

static int64_t ceval(const cute_composed *C, int64_t i)
{
  int64_t v = -1;
  cute_error e;
  CHECK(cute_composed_eval_index(C, i, &v, &e) == CUTE_OK, "eval: %s", e.msg);
  return v;
}

static void tile128(void)
{
  /* The 128-byte swizzle on byte offsets, CuTe's Sw<3,4,3> o 0 o
   * (8,64):(64,1): row r, byte c at sw(64r + c); the 16-byte chunk of row
   * r is xored with r/2 (bits 7..9), so row 0 is untouched. */
  static const int64_t col0[8] = {0, 64, 144, 208, 288, 352, 432, 496};
  cute_composed C = composed(make(3, 4, 3), 0, "(8,64):(64,1)");
  cute_tuple crd = T("(3,5)");
  cute_error e;
  int64_t v, r, c, n;
  for (c = 0; c < 64; c++)
    CHECK(ceval(&C, 8 * c) == c, "row 0, column %lld", (long long)c);
  for (r = 0; r < 8; r++)
    CHECK(ceval(&C, r) == col0[r], "row %lld starts at %lld", (long long)r,
          (long long)ceval(&C, r));
  /* Row 2: 16-byte chunks 0 and 1 swap places. */
  CHECK(ceval(&C, 2 + 8 * 16) == 128 && ceval(&C, 2 + 8 * 15) == 159,
        "row 2 chunk swap");
  /* A coordinate (r, c) = (3, 5). */
  CHECK(cute_composed_eval(&C, &crd, &v, &e) == CUTE_OK &&
        v == by_bits(3, 4, 3, 3 * 64 + 5), "C(3,5) = %lld", (long long)v);
  CHECK(cute_composed_size(&C, &n, &e) == CUTE_OK && n == 512, "size");
  CHECK(cute_composed_cosize(&C, &n, &e) == CUTE_OK && n == 512, "cosize %lld",
        (long long)n);
  {
    char buf[64];
    cute_composed_print(&C, buf, sizeof buf);
    CHECK(strcmp(buf, "Sw<3,4,3> o 0 o (8,64):(64,1)") == 0, "text %s", buf);
  }
}

static void cosize(void)
{
  cute_error e;
  int64_t n;
  /* 4:1 with Sw<1,0,2>: offsets 0..3 -> 0,1,2,3 xor (bit 2 -> bit 0): id. */
  cute_composed C = composed(make(1, 0, 2), 0, "4:1");
  CHECK(cute_composed_cosize(&C, &n, &e) == CUTE_OK && n == 4, "%lld",
        (long long)n);
  /* 5:1: offset 4 -> 5: cosize 6. */
  C = composed(make(1, 0, 2), 0, "5:1");
  CHECK(cute_composed_cosize(&C, &n, &e) == CUTE_OK && n == 6, "%lld",
        (long long)n);
  /* Negative S moves low bits up: Sw<1,0,-2> on 2:1: 1 -> 5. */
  C = composed(make(1, 0, -2), 0, "2:1");
  CHECK(cute_composed_cosize(&C, &n, &e) == CUTE_OK && n == 6, "%lld",
        (long long)n);
  /* An offset shifts before swizzling: 4 + (0..3) -> 5,4,7,6. */
  C = composed(make(1, 0, 2), 4, "4:1");
  CHECK(cute_composed_cosize(&C, &n, &e) == CUTE_OK && n == 8, "%lld",
        (long long)n);
  CHECK(ceval(&C, 0) == 5 && ceval(&C, 3) == 6, "offset then swizzle");
  /* Too large to enumerate: the block bound, exact for a full block. */
  C = composed(make(3, 4, 3), 0, "(8,4194304):(4194304,1)");
  CHECK(cute_composed_cosize(&C, &n, &e) == CUTE_OK && n == 33554432, "%lld",
        (long long)n);
  C = composed(make(3, 4, 3), 0, "(4,8):(1@0,1@1)");
  CHECK(cute_composed_cosize(&C, &n, &e) == CUTE_ECODOMAIN &&
        strstr(e.msg, "Sw<3,4,3>"), "coordinate: %s", e.msg);
}

static void compose(void)
{
  cute_composed C = composed(make(3, 3, 3), 8, "(8,64):(64,1)"), R;
  cute_layout B = L("(4,8):(1,8)");
  cute_error e;
  int64_t i;
  int ok = 1;
  if (cute_composed_compose(&R, &C, &B, &e) != CUTE_OK) {
    CHECK(0, "compose: %s", e.msg);
    return;
  }
  for (i = 0; i < 32 && ok; i++)
    ok = ceval(&R, i) == ceval(&C, eval_i(&B, i));
  CHECK(ok && R.offset == 8 && R.sw.b == 3, "(Sw o 8 o L) o B");
  CHECK(cute_composed_compose(&C, &C, &B, &e) == CUTE_OK &&
        cute_layout_equal(&C.layout, &R.layout), "in place");
}

int main(void)
{
  definition();
  make_errors();
  tile128();
  cosize();
  compose();
  return test_finish();
}
