/*
 * test_coalesce.c -- coalesce and by-mode coalesce (paper 3.2).
 *
 * Properties over random layouts: depth <= 1, same size, same value at
 * every integral index (brute force), idempotent, and no two adjacent
 * result modes that could still merge.
 */
#include "testlib.h"

#include <string.h>

#define check_co(in, expected) \
  CHECK_UNARY(cute_coalesce, "coalesce", in, expected)

static void check_prof(const char *in, const char *profile,
                       const char *expected)
{
  cute_layout l = L(in), r;
  cute_tuple p = T(profile);
  cute_error e;
  if (cute_coalesce_profile(&r, &l, &p, &e) != CUTE_OK) {
    CHECK(0, "coalesce(%s, %s): %s", in, profile, e.msg);
    return;
  }
  CHECK(strcmp(S(&r), expected) == 0, "coalesce(%s, %s) = %s, expected %s",
        in, profile, S(&r), expected);
}

static void test_examples(void)
{
  /* Paper 3.2. */
  check_co("(2,(1,6)):(1,(6,2))", "12:1");
  check_prof("(2,(1,6)):(1,(6,2))", "(1,1)", "(2,6):(1,2)");
  check_co("((4,3),5):((15,1),3)", "(4,15):(15,1)");
  check_prof("((4,3),5):((15,1),3)", "(1,1)", "((4,3),5):((15,1),3)");
  check_co("(4,(3,5)):(15,(1,3))", "(4,15):(15,1)");
  check_prof("(4,(3,5)):(15,(1,3))", "(1,1)", "(4,15):(15,1)");

  check_co("(4,8):(1,4)", "32:1");
  check_co("(4,8):(8,1)", "(4,8):(8,1)");
  check_co("(1,1):(3,4)", "1:0");
  check_co("():()", "1:0");
  check_co("1:5", "1:0");
  check_co("(2,1,3):(1,7,2)", "6:1");
  check_co("(2,4):(0,0)", "8:0");
  check_co("(2,3,4):(0,0,5)", "(6,4):(0,5)");
  check_co("(4,2):(2,8)", "8:2");
  check_co("(4,2):(-1,-4)", "8:-1");
  check_co("((2,2),(2,2)):((1,4),(2,8))", "(2,2,2,2):(1,4,2,8)");
  /* Scaled bases merge within one basis only. */
  check_co("(2,4):(1@0,2@0)", "8:1@0");
  check_co("(4,8):(1@0,1@1)", "(4,8):(1@0,1@1)");
  check_co("(4,8):(1@0,4@1)", "(4,8):(1@0,4@1)");
  check_co("(2,4):(0,0@1)", "8:0");

  /* Profiles: a leaf coalesces that mode whole, a group recurses, extra
   * modes are kept; a leaf profile coalesces everything. */
  check_prof("(2,(1,6)):(1,(6,2))", "1", "12:1");
  check_prof("((2,3),(4,5),7):((1,2),(6,24),1000)", "(1)",
             "(6,(4,5),7):(1,(6,24),1000)");
  check_prof("((2,3),((4,5),2)):((1,2),((6,24),120))", "(1,(1,1))",
             "(6,(20,2)):(1,(6,120))");
  check_prof("((2,3),((4,5),2)):((1,2),((6,24),120))", "(1,1)",
             "(6,40):(1,6)");
  check_prof("(2,(1,1)):(1,(3,4))", "(1,1)", "(2,1):(1,0)");
  check_prof("8:2", "(1)", "(8):(2)");
  check_prof("(4,8):(1,4)", "((1),(1))", "((4),(8)):((1),(4))");
  check_prof("((),2):((),3)", "(1,1)", "(1,2):(0,3)");
  {
    cute_layout l = L("(4,8):(1,4)"), r;
    cute_tuple p = T("(1,1,1)");
    cute_error e;
    CHECK(cute_coalesce_profile(&r, &l, &p, &e) == CUTE_ERANK,
          "profile longer than the layout");
    CHECK(strstr(e.msg, "coalesce(") && strstr(e.msg, "(4,8):(1,4)"),
          "message: %s", e.msg);
    /* Each () mode coalesces to 1:0, a leaf more: 16 of them beside 32
     * copied leaves overflow. */
    {
      char sh[256] = "(", pr[128] = "(";
      int k;
      for (k = 0; k < 48; k++) strcat(sh, k < 16 ? "()," : "2,");
      for (k = 0; k < 16; k++) strcat(pr, k ? ",1" : "1");
      sh[strlen(sh) - 1] = ')';
      strcat(pr, ")");
      l = L(sh);
      p = T(pr);
    }
    CHECK(cute_coalesce_profile(&r, &l, &p, &e) == CUTE_ELIMIT,
          "48 leaves: ELIMIT");
    CHECK(strstr(e.msg, "coalesce(") == e.msg, "message: %s", e.msg);
    l = L("(4294967296,4294967296):(1,4294967296)");
    CHECK(cute_coalesce(&r, &l, &e) == CUTE_EOVERFLOW, "size overflow");
  }
}

/* Could adjacent modes (s0,d0),(s1,d1) of a coalesced layout still merge? */
static int mergeable(const cute_layout *r)
{
  int k;
  for (k = 0; k < r->shape.nleaf; k++) {
    if (r->shape.v[k] == 1 && r->shape.nleaf > 1) return 1;
    if (k > 0 && r->stride.e[k] == r->stride.e[k - 1] &&
        r->stride.v[k] == r->shape.v[k - 1] * r->stride.v[k - 1])
      return 1;
  }
  return 0;
}

static void test_random(void)
{
  test_rng rng;
  cute_error e;
  int it, bad_depth = 0, bad_size = 0, bad_value = 0, bad_idem = 0,
      bad_min = 0, bad_prof = 0;
  rng_seed(&rng, 2024);
  for (it = 0; it < 12000; it++) {
    cute_layout l = rng_layout(&rng, 3, 7, 9, 3000), r, r2, p;
    cute_tuple prof;
    int64_t n = size_of(&l), i;
    if (cute_coalesce(&r, &l, &e) != CUTE_OK) {
      CHECK(0, "coalesce(%s): %s", S(&l), e.msg);
      continue;
    }
    bad_depth += cute_layout_depth(&r) > 1;
    bad_size += size_of(&r) != n;
    for (i = 0; i < n; i++)
      if (eval_i(&r, i) != eval_i(&l, i)) {
        bad_value++;
        break;
      }
    cute_coalesce(&r2, &r, &e);
    bad_idem += !cute_layout_equal(&r, &r2);
    bad_min += mergeable(&r);
    /* By-mode with a leaf per top mode keeps the rank and the values. */
    cute_tuple_flatten(&prof, &l.shape);
    if (cute_tuple_is_int(&l.shape)) cute_tuple_int(&prof, 1);
    else {
      int k, rank = cute_layout_rank(&l);
      prof.ntok = (uint8_t)(rank + 2);
      prof.nleaf = (uint8_t)rank;
      memset(prof.tok + 1, 'x', rank);
      prof.tok[rank + 1] = ')';
      for (k = 0; k < rank; k++) prof.v[k] = 1, prof.e[k] = 0;
    }
    if (cute_coalesce_profile(&p, &l, &prof, &e) != CUTE_OK ||
        cute_layout_rank(&p) != cute_layout_rank(&l) || size_of(&p) != n)
      bad_prof++;
    else
      for (i = 0; i < n; i++)
        if (eval_i(&p, i) != eval_i(&l, i)) {
          bad_prof++;
          break;
        }
  }
  CHECK(bad_depth == 0, "%d results deeper than 1", bad_depth);
  CHECK(bad_size == 0, "%d size changes", bad_size);
  CHECK(bad_value == 0, "%d value changes", bad_value);
  CHECK(bad_idem == 0, "%d not idempotent", bad_idem);
  CHECK(bad_min == 0, "%d results with mergeable modes", bad_min);
  CHECK(bad_prof == 0, "%d by-mode failures", bad_prof);
}

int main(void)
{
  test_examples();
  test_random();
  return test_finish();
}
