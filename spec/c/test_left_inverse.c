/*
 * test_left_inverse.c -- left inverse (paper 3.4.3): Table 6, errors, and
 * L(Linv(L(k))) = L(k) on random layouts.
 */
#include "testlib.h"


/* Short names for this file's many rows. */
#define row(l, expected) \
  CHECK_UNARY(cute_left_inverse, "left_inverse", l, expected)
#define fails(l, code, needle) \
  CHECK_UNARY_FAILS(cute_left_inverse, "left_inverse", l, code, needle)

/* L(Linv(L(k))) == L(k) for all k, with Linv(L(k)) inside L's domain. */
static int is_left_inverse(const cute_layout *A, const cute_layout *R)
{
  int64_t k, n = size_of(A);
  for (k = 0; k < n; k++) {
    int64_t i = eval_i(R, eval_i(A, k));
    if (i < 0 || i >= n || eval_i(A, i) != eval_i(A, k)) return 0;
  }
  return 1;
}

static void table6(void)
{
  row("(4,8):(1,4)", "32:1");
  row("(4,8):(8,1)", "(8,4):(4,1)");
  row("(3,7,5):(5,15,1)", "(5,21):(21,1)");
  row("(4,8):(1,5)", "(5,8):(1,4)");
  row("(4,(4,2)):(4,(1,16))", "(4,4,2):(4,1,16)");
  row("((2,2),(4,2)):((1,8),(2,16))", "(2,4,2,2):(1,4,2,16)");
  row("((2,2),(2,4)):((0,2),(0,4))", "(2,2,4):(0,2,8)");
  /* Table 6 prints (2,2):(4,8): not a left inverse (L(1) = 1 but
   * (2,2):(4,8) sends 1 to 4 and L(4) = 0).  Skipping stride 0 gives: */
  row("((2,2),(2,4)):((0,1),(0,2))", "(2,4):(2,8)");
  {
    cute_layout A = L("((2,2),(2,4)):((0,1),(0,2))");
    cute_layout P = L("(2,2):(4,8)"), R;
    CHECK(!is_left_inverse(&A, &P), "the printed row is an inverse?");
    CHECK(cute_left_inverse(&R, &A, NULL) == CUTE_OK &&
          is_left_inverse(&A, &R), "(2,4):(2,8) is a left inverse");
  }
  row("(4,8):(1@0,1@1)", "(4,8):(1,4)");
  row("(4,(4,2)):(1@1,(1@0,6@1))", "(4,(6,2)):(4,(1,16))");
}

static void more(void)
{
  row("8:1", "8:1");
  row("1:0", "1:0");
  row("():()", "1:0");
  row("8:2", "(2,8):(0,1)");            /* offsets 2k -> k, odd ones: gap */
  row("(4,8):(8,1)", "(8,4):(4,1)");
  row("(2,3):(3,1)", "(3,2):(2,1)");    /* bijective: the inverse */
  row("(4,2):(1,8)", "(8,2):(1,4)");    /* hole [4,8) read as 4..7 */
  row("(4,8):(2@0,1@1)", "((2,4),8):((0,1),4)");
}

static void errors(void)
{
  fails("(2,2):(1,1)", CUTE_ENONINJECTIVE, "non-injective");
  fails("(4,2):(1,2)", CUTE_ENONINJECTIVE, "reaches past stride 2");
  fails("(3,2):(2,3)", CUTE_ENONINJECTIVE, "interleaved");
  fails("(2,2):(2,5)", CUTE_EDIVISIBILITY, "divisibility");
  fails("(2,2):(1,-2)", CUTE_EINVAL, "negative");
  /* One refusal (leaves.c) for the inverses and the complement: the same
   * message, the first negative stride in L's order, and only on modes of
   * size > 1 (a size-1 mode reaches no offset). */
  fails("(2,2,2):(1,-2,-8)", CUTE_EINVAL, "negative stride -2");
  row("(4,1):(1,-3)", "4:1");
  fails("(4,8):(1,1@1)", CUTE_ECODOMAIN, "mix");
}

static void properties(void)
{
  test_rng r;
  int t, done = 0, refused = 0;
  rng_seed(&r, 13);
  for (t = 0; t < 10000; t++) {
    cute_layout A = t % 2 ? rng_layout(&r, 3, 6, 6, 512)
                          : rng_injective_layout(&r, 3, 6, 512);
    cute_layout R;
    cute_error e;
    cute_status st = cute_left_inverse(&R, &A, &e);
    if (st != CUTE_OK) {
      /* Injective layouts from rng_injective_layout never overlap and
       * their gaps are whole multiples: they always have one. */
      CHECK(t % 2 && (st == CUTE_ENONINJECTIVE || st == CUTE_EDIVISIBILITY),
            "left_inverse(%s): %s", S(&A), e.msg);
      refused++;
      continue;
    }
    CHECK(is_left_inverse(&A, &R), "left_inverse(%s) = %s: "
          "L(Linv(L(k))) != L(k)", S(&A), S(&R));
    done++;
  }
  CHECK(done > 6000, "coverage: %d inverted, %d refused", done, refused);
}

int main(void)
{
  table6();
  more();
  errors();
  properties();
  return test_finish();
}
