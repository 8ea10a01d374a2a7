/*
 * test_tuple_arith.c -- CuTe's tuple arithmetic (tuple_arith.c) and the
 * compact layouts (compact.c) from C: worked examples, the error contract
 * (the operation and its operands named) and the limits on the result.
 * The properties are checked by brute force in spec/lua/tuple_arith_spec.lua.
 */
#include "testlib.h"

#include <string.h>

typedef cute_status (*tuple2_fn)(cute_tuple *, const cute_tuple *,
                                 const cute_tuple *, cute_error *);

static void ok2(tuple2_fn f, const char *a, const char *b, const char *want)
{
  cute_tuple x = T(a), y = T(b), r;
  cute_error e;
  cute_status st = f(&r, &x, &y, &e);
  CHECK(st == CUTE_OK && strcmp(ST(&r), want) == 0, "%s, %s: got %s, want %s",
        a, b, st ? e.msg : ST(&r), want);
}

static void fails2(tuple2_fn f, const char *a, const char *b, cute_status code,
                   const char *needle)
{
  cute_tuple x = T(a), y = T(b), r;
  cute_error e;
  cute_status st = f(&r, &x, &y, &e);
  CHECK(st == code && strstr(e.msg, needle) != NULL, "%s, %s: got %d '%s'",
        a, b, (int)st, st ? e.msg : ST(&r));
}

static void examples(void)
{
  ok2(cute_ceil_div, "(10,6)", "(3,4)", "(4,2)");
  ok2(cute_ceil_div, "(4,6)", "8", "(1,3)");
  ok2(cute_ceil_div, "-7", "2", "-3");
  ok2(cute_shape_div, "(4,5,6)", "40", "(1,1,3)");
  ok2(cute_tuple_add, "(1,(2,3))", "(1,(1,1))", "(2,(3,4))");
  ok2(cute_tuple_sub, "(1,2)", "(0,0,5)", "(1,2,-5)");
  ok2(cute_tuple_add, "(1,2@0)", "(1,2@1)", "(2,2@0+2@1)");
  ok2(cute_tuple_sub, "(1@0+1@1)", "(1@0)", "(1@1)");
  ok2(cute_increment_coord, "(2,0,0)", "(3,3,3)", "(0,1,0)");
  ok2(cute_dice, "(_,(1,_))", "(4,(5,6))", "(5)");
  ok2(cute_idx2crd_tuple, "(3,5)", "(4,(2,4))", "(3,(1,2))");
}

static void errors(void)
{
  fails2(cute_shape_div, "(3,4)", "2", CUTE_EDIVISIBILITY,
         "shape_div((3,4), 2): neither of 3 and 2 divides the other");
  fails2(cute_ceil_div, "(4,8)", "0", CUTE_EINVAL,
         "ceil_div((4,8), 0): divisor 0 is not positive");
  fails2(cute_tuple_add, "(1,2@0)", "(1,2)", CUTE_ECODOMAIN,
         "tuple_add((1,2@0), (1,2)): stride 2@0+2: an integer added to "
         "basis elements");
  fails2(cute_tuple_add, "9223372036854775807", "1", CUTE_EOVERFLOW,
         "tuple_add(");
  fails2(cute_increment_coord, "(1,2)", "(3,(3,3))", CUTE_ERANK,
         "increment_coord((1,2), (3,(3,3))): the coordinate is not congruent");
  fails2(cute_dice, "(1,_,0)", "(4,8)", CUTE_ERANK, "dice((1,_,0), (4,8))");
  fails2(cute_idx2crd_tuple, "(1,2)", "8", CUTE_ERANK, "idx2crd((1,2), 8)");
}

/* `_` is stored as INT64_MIN: arithmetic refuses it rather than read that
 * number (ceil_div(_, 4) was -2^61, elem_less(_, 4) true). */
static void underscore(void)
{
  static const tuple2_fn fns[] = {cute_ceil_div, cute_shape_div,
                                  cute_tuple_add, cute_tuple_sub};
  cute_tuple x = T("(2,_)"), y = T("4"), r;
  cute_error e;
  int i, less;
  for (i = 0; i < 4; i++) {
    fails2(fns[i], "_", "4", CUTE_EINVAL, "(_, 4): _ is not an integer");
    fails2(fns[i], "4", "_", CUTE_EINVAL, "(4, _): _ is not an integer");
    fails2(fns[i], "(2,_)", "(3,4)", CUTE_EINVAL,
           "((2,_), (3,4)): leaf 1 of (2,_) is _, not an integer");
  }
  CHECK(cute_elem_less(&less, &x, &y, &e) == CUTE_EINVAL &&
            strstr(e.msg, "elem_less((2,_), 4): leaf 1") != NULL,
        "elem_less: %s", e.msg);
  CHECK(cute_product_each(&r, &x, &e) == CUTE_EINVAL &&
            strstr(e.msg, "product_each((2,_)): leaf 1") != NULL,
        "product_each: %s", e.msg);
  ok2(cute_dice, "(_,1)", "(4,8)", "(8)"); /* where `_` marks a mode */
}

/* Results past CUTE_MAX_LEAVES are refused, never truncated. */
static void limits(void)
{
  cute_tuple t = T("(1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1)"), x = T("(2,2)"), r;
  cute_error e;
  CHECK(cute_tuple_extend(&r, &t, &x, 25, 0, &e) == CUTE_ELIMIT &&
            strstr(e.msg, "append(") != NULL, "append past the leaf limit: %s",
        e.msg);
  CHECK(cute_tuple_extend(&r, &t, &x, 2, 1, &e) == CUTE_ERANK &&
            strstr(e.msg, "prepend(") != NULL, "rank above the target: %s",
        e.msg);
}

static void compact(void)
{
  cute_tuple s = T("(2,2,2,2)"), o = T("(0,2,3,1)");
  cute_layout r, A = L("(2,3,4,5):(0,42,1,0)");
  cute_error e;
  CHECK(cute_layout_ordered(&r, &s, &o, &e) == CUTE_OK, "%s", e.msg);
  CHECK_LAYOUT(r, "(2,2,2,2):(1,4,8,2)");
  CHECK(cute_layout_like(&r, &A, &e) == CUTE_OK, "%s", e.msg);
  CHECK_LAYOUT(r, "(2,3,4,5):(0,4,1,0)");
  A = L("(2,4,6):(0,1,0)");
  CHECK(cute_nullspace(&r, &A, &e) == CUTE_OK, "%s", e.msg);
  CHECK_LAYOUT(r, "(2,6):(1,8)");
  A = L("(2,3):(1,1@0)");
  CHECK(cute_layout_like(&r, &A, &e) == CUTE_ECODOMAIN &&
            strstr(e.msg, "make_layout_like((2,3):(1,1@0))") != NULL,
        "mixed codomain: %s", e.msg);
  s = T("(4,8)");
  o = T("(0,1,2)");
  CHECK(cute_layout_ordered(&r, &s, &o, &e) == CUTE_ERANK &&
            strstr(e.msg, "make_ordered_layout((4,8), (0,1,2))") != NULL,
        "order not congruent: %s", e.msg);
}

int main(void)
{
  examples();
  errors();
  underscore();
  limits();
  compact();
  return test_finish();
}
