/*
 * test_image.c -- a layout's offsets as a set: cute_layout_offset_range
 * (both ends reached, every offset inside) and cute_layout_injective
 * (exactly the brute-force answer), on examples and on seeded random
 * layouts with zero, negative and non-nesting strides.
 */
#include "testlib.h"

#include <stdlib.h>
#include <string.h>

static void check_range(const char *in, int64_t lo, int64_t hi)
{
  cute_layout l = L(in);
  cute_error e;
  int64_t a = 1, b = -1;
  CHECK(cute_layout_offset_range(&l, &a, &b, &e) == CUTE_OK && a == lo &&
        b == hi, "offset_range(%s) = [%lld, %lld], expected [%lld, %lld]",
        in, (long long)a, (long long)b, (long long)lo, (long long)hi);
}

static void check_injective(const char *in, int expected)
{
  cute_layout l = L(in);
  cute_error e;
  int yes = -1;
  CHECK(cute_layout_injective(&l, &yes, &e) == CUTE_OK && yes == expected,
        "injective(%s) = %d, expected %d", in, yes, expected);
}

static void test_examples(void)
{
  cute_layout l;
  cute_error e;
  int64_t lo, hi;
  int yes;
  check_range("(4,8):(1,4)", 0, 31);
  check_range("(4,8):(-1,-4)", -31, 0);
  check_range("(4,8):(1,-4)", -28, 3);
  check_range("1:0", 0, 0);
  check_range("():()", 0, 0);
  check_range("((2,2),(4,2)):((1,8),(2,16))", 0, 31);
  check_injective("(2,2):(2,3)", 1);
  check_injective("(3,2):(2,3)", 1);
  check_injective("(2,2):(1,1)", 0);
  check_injective("(4,2):(1,0)", 0);
  check_injective("(4,1):(1,0)", 1);
  check_injective("(4,8):(-1,4)", 1);
  check_injective("(4,8):(1,2)", 0);
  check_injective("1:0", 1);
  l = L("4294967297:4294967296");   /* (s-1)d is 2^64: overflows */
  CHECK(cute_layout_offset_range(&l, &lo, &hi, &e) == CUTE_EOVERFLOW,
        "offset_range of a huge layout: %s", e.msg);
  check_range("2147483648:4294967296", 0, 2147483647LL * 4294967296LL);
  l = L("(4,8):(1@0,1@1)");
  CHECK(cute_layout_offset_range(&l, &lo, &hi, &e) == CUTE_ECODOMAIN &&
        strstr(e.msg, "offset_range((4,8):(1@0,1@1))") == e.msg,
        "a coordinate layout: %s", e.msg);
  CHECK(cute_layout_injective(&l, &yes, &e) == CUTE_ECODOMAIN,
        "injective of a coordinate layout: %s", e.msg);
  l = L("(3,65536):(65536,1)");      /* nests: decided without a walk */
  CHECK(cute_layout_injective(&l, &yes, &e) == CUTE_OK && yes == 1,
        "nested strides over a big span");
  l = L("(65536,3):(1,1)");          /* more elements than offsets */
  CHECK(cute_layout_injective(&l, &yes, &e) == CUTE_OK && yes == 0,
        "pigeonhole over a big span");
  l = L("(3,3,65536):(100000,3,7)");
  CHECK(cute_layout_injective(&l, &yes, &e) == CUTE_ELIMIT &&
        strstr(e.msg, "CUTE_MAX_INJECTIVE_SPAN") != NULL,
        "undecided above the span limit: %s", e.msg);
}

static void test_random(void)
{
  static unsigned char seen[1 << 20];
  test_rng rng;
  cute_error e;
  int it, bad = 0, ones = 0, zeros = 0;
  rng_seed(&rng, 2026);
  for (it = 0; it < 20000; it++) {
    cute_layout l = rng_layout(&rng, 3, 6, 7, 4096);
    int64_t n = size_of(&l), i, lo, hi, v, mn = INT64_MAX, mx = INT64_MIN;
    int k, yes, brute = 1;
    /* random signs, so negative strides are covered too */
    for (k = 0; k < l.stride.nleaf; k++)
      if (rng_range(&rng, 0, 3) == 0) l.stride.v[k] = -l.stride.v[k];
    if (cute_layout_offset_range(&l, &lo, &hi, &e) != CUTE_OK ||
        hi - lo >= (int64_t)sizeof seen) {
      bad++;
      continue;
    }
    memset(seen, 0, (size_t)(hi - lo + 1));
    for (i = 0; i < n; i++) {
      v = eval_i(&l, i);
      if (v < mn) mn = v;
      if (v > mx) mx = v;
      if (v < lo || v > hi) break;
      if (seen[v - lo]) brute = 0;
      seen[v - lo] = 1;
    }
    if (i < n || mn != lo || mx != hi) {
      if (bad++ < 5) CHECK(0, "offset_range(%s) = [%lld, %lld]", S(&l),
                           (long long)lo, (long long)hi);
      continue;
    }
    if (cute_layout_injective(&l, &yes, &e) != CUTE_OK || yes != brute) {
      if (bad++ < 5) CHECK(0, "injective(%s) = %d, brute force %d", S(&l),
                           yes, brute);
      continue;
    }
    if (brute) ones++;
    else zeros++;
  }
  CHECK(bad == 0, "%d random layouts disagree with brute force", bad);
  CHECK(ones > 2000 && zeros > 2000, "both answers drawn: %d injective, "
        "%d not", ones, zeros);
}

int main(void)
{
  test_examples();
  test_random();
  return test_finish();
}
