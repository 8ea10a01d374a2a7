/*
 * test_filter.c -- filter_zeros and filter (= coalesce(filter_zeros)).
 *
 * Choice recorded here: filter_zeros keeps the structure and only sets the
 * shape of stride-0 modes to 1, as CuTe C++ does:
 * filter_zeros((4,3):(1,0)) = (4,1):(1,0).  4:1 would be filter, not
 * filter_zeros (docs/architecture.md, "Semantic choices").
 */
#include "testlib.h"

#include <stdlib.h>
#include <string.h>

#define zeros(in, expected) \
  CHECK_UNARY(cute_filter_zeros, "filter_zeros", in, expected)
#define filter(in, expected) CHECK_UNARY(cute_filter, "filter", in, expected)

static void test_examples(void)
{
  zeros("(4,3):(1,0)", "(4,1):(1,0)");
  filter("(4,3):(1,0)", "4:1");
  zeros("((2,2),(4,2)):((0,1),(0,2))", "((1,2),(1,2)):((0,1),(0,2))");
  filter("((2,2),(4,2)):((0,1),(0,2))", "4:1");
  filter("((2,2),(4,2)):((0,1),(0,4))", "(2,2):(1,4)");
  filter("(4,8):(0,0)", "1:0");
  filter("(4,8):(1,4)", "32:1");
  filter("(3,1,5):(2,0,6)", "15:2");
  zeros("(4,8):(0@0,1@1)", "(1,8):(0@0,1@1)");
  filter("(4,8):(0@0,1@1)", "8:1@1");
  filter("():()", "1:0");
}

static int cmp64(const void *a, const void *b)
{
  int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
  return (x > y) - (x < y);
}

/* The image of L as a sorted set; returns its size. */
static int image(const cute_layout *l, int64_t *out)
{
  int64_t n = size_of(l), i;
  int k, m = 0;
  for (i = 0; i < n; i++) out[i] = eval_i(l, i);
  qsort(out, (size_t)n, sizeof out[0], cmp64);
  for (k = 0; k < n; k++)
    if (k == 0 || out[k] != out[m - 1]) out[m++] = out[k];
  return m;
}

static void test_random(void)
{
  static int64_t a[4096], b[4096];
  test_rng rng;
  cute_error e;
  int it, bad_image = 0, bad_zero = 0, bad_struct = 0;
  rng_seed(&rng, 77);
  for (it = 0; it < 10000; it++) {
    cute_layout l = rng_layout(&rng, 3, 7, 7, 4096), z, f;
    int k, na, nb;
    cute_filter_zeros(&z, &l, &e);
    if (!cute_congruent(&z.shape, &l.shape) ||
        !cute_tuple_equal(&z.stride, &l.stride))
      bad_struct++;
    if (cute_filter(&f, &l, &e) != CUTE_OK) {
      CHECK(0, "filter(%s): %s", S(&l), e.msg);
      continue;
    }
    /* Same image as a set; no stride-0 mode except the empty 1:0. */
    na = image(&l, a);
    nb = image(&f, b);
    if (na != nb || memcmp(a, b, na * sizeof a[0]) != 0) bad_image++;
    for (k = 0; k < f.stride.nleaf; k++)
      if (f.stride.v[k] == 0 && !(f.shape.nleaf == 1 && f.shape.v[0] == 1))
        bad_zero++;
  }
  CHECK(bad_struct == 0, "%d filter_zeros changed the structure", bad_struct);
  CHECK(bad_image == 0, "%d filter changed the image", bad_image);
  CHECK(bad_zero == 0, "%d filter kept a stride-0 mode", bad_zero);
}

int main(void)
{
  test_examples();
  test_random();
  return test_finish();
}
