/*
 * test_layout.c -- layouts (paper 2.3-2.4): construction, compact and
 * identity layouts, evaluation on integral / hierarchical / out-of-bounds
 * coordinates, coordinate (scaled-basis) codomains, size, cosize, and the
 * mode manipulations (get, flatten, group, take, select, append, prepend,
 * replace, concatenation), and the error helpers of cute_internal.h.
 */
#include "testlib.h"
#include "cute_internal.h" /* cute_fail_op, cute_error_context */

#include <string.h>

static void test_make(void)
{
  cute_layout l;
  cute_tuple s = T("(4,(2,2))"), d = T("(1,(4,8))"), bad;
  cute_error e;
  CHECK(cute_layout_make(&l, &s, &d, &e) == CUTE_OK, "make");
  CHECK_LAYOUT(l, "(4,(2,2)):(1,(4,8))");
  d = T("(1,4,8)");
  CHECK(cute_layout_make(&l, &s, &d, &e) == CUTE_ERANK, "not congruent");
  CHECK(strstr(e.msg, "congruent") != NULL, "message: %s", e.msg);
  bad = T("(4,(0,2))");
  d = T("(1,(4,8))");
  CHECK(cute_layout_make(&l, &bad, &d, &e) == CUTE_EINVAL, "shape 0");
  CHECK(strstr(e.msg, "(4,(0,2))") && strstr(e.msg, "positive"),
        "message: %s", e.msg);
  bad = T("(4,(-2,2))");
  CHECK(cute_layout_make(&l, &bad, &d, &e) == CUTE_EINVAL, "negative shape");
  bad = T("(4,(1@0,2))");
  CHECK(cute_layout_make(&l, &bad, &d, &e) == CUTE_EINVAL, "basis shape");
  d = T("(-1,(0,1@1))");
  CHECK(cute_layout_make(&l, &s, &d, &e) == CUTE_OK,
        "negative, zero and basis strides are strides");

  s = T("(4,(2,2))");
  CHECK(cute_layout_left(&l, &s, &e) == CUTE_OK, "left");
  CHECK_LAYOUT(l, "(4,(2,2)):(1,(4,8))");
  CHECK(cute_layout_right(&l, &s, &e) == CUTE_OK, "right");
  CHECK_LAYOUT(l, "(4,(2,2)):(4,(2,1))");
  s = T("(2,(3,4))");
  cute_layout_right(&l, &s, &e);
  CHECK_LAYOUT(l, "(2,(3,4)):(12,(4,1))");
  s = T("8");
  cute_layout_left(&l, &s, &e);
  CHECK_LAYOUT(l, "8:1");
  s = T("()");
  cute_layout_left(&l, &s, &e);
  CHECK_LAYOUT(l, "():()");
  s = T("(0,3)");
  CHECK(cute_layout_left(&l, &s, &e) == CUTE_EINVAL, "left of shape 0");
  s = T("(4294967296,4294967296,2)");
  CHECK(cute_layout_left(&l, &s, &e) == CUTE_EOVERFLOW, "compact overflow");

  s = T("(4,8)");
  CHECK(cute_layout_identity(&l, &s, &e) == CUTE_OK, "identity");
  CHECK_LAYOUT(l, "(4,8):(1@0,1@1)");
  s = T("(4,(2,2))");
  cute_layout_identity(&l, &s, &e);
  CHECK_LAYOUT(l, "(4,(2,2)):(1@0,(1@0@1,1@1@1))");
  s = T("8");
  cute_layout_identity(&l, &s, &e);
  CHECK_LAYOUT(l, "8:1");  /* E<> = 1, as CuTe */
  s = T("((2,(3,2)),4)");
  cute_layout_identity(&l, &s, &e);
  CHECK_LAYOUT(l, "((2,(3,2)),4):((1@0@0,(1@0@1@0,1@1@1@0)),1@1)");
  s = T("((((2))))");
  CHECK(cute_layout_identity(&l, &s, &e) == CUTE_ELIMIT,
        "identity deeper than the basis paths");
}

static int64_t ev(const char *layout, const char *crd)
{
  cute_layout l = L(layout);
  cute_tuple c = T(crd), out;
  cute_error e;
  if (cute_layout_eval(&l, &c, &out, &e) != CUTE_OK ||
      !cute_tuple_is_int(&out)) {
    CHECK(0, "eval %s at %s: %s", layout, crd, e.msg);
    return -999;
  }
  return out.v[0];
}

static const char *evs(const char *layout, const char *crd)
{
  static char buf[4][128];
  static int k;
  cute_layout l = L(layout);
  cute_tuple c = T(crd), out;
  cute_error e;
  k = (k + 1) % 4;
  if (cute_layout_eval(&l, &c, &out, &e) != CUTE_OK)
    snprintf(buf[k], sizeof buf[k], "error %d", (int)e.code);
  else
    cute_tuple_print(&out, buf[k], sizeof buf[k]);
  return buf[k];
}

static void test_eval(void)
{
  const char *f3e = "((2,2),(4,2)):((1,8),(2,16))";
  cute_layout l = L(f3e);
  cute_error e;
  int64_t v;
  /* 2.4.1: L(22) = L(2,5) = L((0,1),(1,1)) = 26. */
  CHECK(cute_layout_eval_index(&l, 22, &v, &e) == CUTE_OK && v == 26,
        "L(22) = 26");
  CHECK(ev(f3e, "22") == 26 && ev(f3e, "(2,5)") == 26 &&
        ev(f3e, "((0,1),(1,1))") == 26 && ev(f3e, "((0,1),5)") == 26,
        "all coordinate forms give 26");
  CHECK(ev("(4,8):(1,4)", "(1,3)") == 13, "column-major");
  CHECK(ev("(4,8):(8,1)", "(1,3)") == 11, "row-major");
  CHECK(ev("(4,8):(1,5)", "(3,7)") == 38, "padded");
  /* Extended domain: out-of-bounds coordinates follow the inner product,
   * and an out-of-range index is absorbed by the last leaf. */
  CHECK(ev("(4,8):(1,4)", "(5,0)") == 5, "out-of-bounds coordinate");
  CHECK(ev("(4,8):(1,4)", "40") == 40, "index past the size");
  CHECK(ev("((2,2),(4,2)):((1,8),(2,16))", "(0,9)") == 2 + 16 * 2,
        "in-mode index 9 of (4,2): (1,2)");
  CHECK(ev("(4,8):(1,4)", "-1") == 3 - 4, "negative index: floor division");
  CHECK(ev("():()", "()") == 0, "empty layout at ()");
  CHECK(ev("():()", "0") == 0, "empty layout at 0");
  CHECK(ev("4:-1", "3") == -3, "negative stride");

  /* Coordinate layouts evaluate to tuples (Figure 4). */
  CHECK(strcmp(evs("(4,8):(1@0,1@1)", "13"), "(1,3)") == 0, "%s",
        evs("(4,8):(1@0,1@1)", "13"));
  CHECK(strcmp(evs("(4,8):(1@1,1@0)", "(1,3)"), "(3,1)") == 0, "swapped");
  CHECK(strcmp(evs("(4,8):(0,1@1)", "(1,3)"), "(0,3)") == 0,
        "stride 0 with bases; missing entries are 0");
  CHECK(strcmp(evs("(2,4):(1@0,2@0)", "7"), "(7)") == 0, "one basis");
  CHECK(strcmp(evs("4:1@1@0", "3"), "((0,3))") == 0, "nested basis path");
  CHECK(strcmp(evs("(4,(2,2)):(1@0,(1@0@1,1@1@1))", "(3,(1,1))"),
               "(3,(1,1))") == 0, "identity of (4,(2,2))");
  CHECK(strcmp(evs("(4,8):(1,1@1)", "1"), "error 8") == 0,
        "integer + basis: ECODOMAIN");
  CHECK(strcmp(evs("(4,8):(1@0,1@1@0)", "1"), "error 8") == 0,
        "a basis used as coordinate and as group: ECODOMAIN");
  l = L("(4,8):(1@0,1@1)");
  CHECK(cute_layout_eval_index(&l, 3, &v, &e) == CUTE_ECODOMAIN,
        "eval_index on a coordinate layout");
  CHECK(strstr(e.msg, "(4,8):(1@0,1@1)") != NULL, "message: %s", e.msg);
  CHECK(cute_layout_has_basis(&l), "has_basis");

  /* Bad coordinates. */
  CHECK(strcmp(evs("(4,8):(1,4)", "(1,2,3)"), "error 5") == 0, "ERANK");
  CHECK(strcmp(evs("(4,8):(1,4)", "((1,1),2)"), "error 5") == 0,
        "coordinate finer than shape: ERANK");
  CHECK(strcmp(evs("(4,8):(1,4)", "(_,1)"), "error 1") == 0,
        "_ is only for slicing");
  l = L("3:4611686018427387904");
  CHECK(cute_layout_eval_index(&l, 2, &v, &e) == CUTE_EOVERFLOW, "overflow");
}

static void test_size(void)
{
  cute_layout l = L("((2,2),(4,2)):((1,8),(2,16))");
  cute_error e;
  int64_t n;
  CHECK(cute_layout_size(&l, &n, &e) == CUTE_OK && n == 32, "size 32");
  CHECK(cute_layout_cosize(&l, &n, &e) == CUTE_OK && n == 32, "cosize 32");
  CHECK(cute_layout_rank(&l) == 2 && cute_layout_depth(&l) == 2, "rank");
  l = L("(4,8):(1,5)");
  CHECK(cute_layout_cosize(&l, &n, &e) == CUTE_OK && n == 39, "padded 39");
  l = L("(4,8):(0,1)");
  CHECK(cute_layout_cosize(&l, &n, &e) == CUTE_OK && n == 8, "broadcast");
  /* CuTe's formula L(size-1)+1 also for negative strides. */
  l = L("4:-1");
  CHECK(cute_layout_cosize(&l, &n, &e) == CUTE_OK && n == -2, "4:-1 -> -2");
  l = L("():()");
  CHECK(cute_layout_size(&l, &n, &e) == CUTE_OK && n == 1, "size () = 1");
  CHECK(cute_layout_cosize(&l, &n, &e) == CUTE_OK && n == 1, "cosize 1");
  CHECK(cute_layout_rank(&l) == 0, "rank () = 0");
  l = L("8:2");
  CHECK(cute_layout_rank(&l) == 1 && cute_layout_depth(&l) == 0, "8:2");
  l = L("(4,8):(1@0,1@1)");
  CHECK(cute_layout_cosize(&l, &n, &e) == CUTE_ECODOMAIN, "cosize basis");
  l = L("(4294967296,4294967296):(1,1)");
  CHECK(cute_layout_size(&l, &n, &e) == CUTE_EOVERFLOW, "size overflow");
  CHECK(cute_layout_cosize(&l, &n, &e) == CUTE_EOVERFLOW, "cosize overflow");
}

static void test_modes(void)
{
  cute_layout a = L("(4,(2,3),8):(1,(4,8),24)"), r, x = L("5:100");
  const cute_layout *ls[3];
  cute_error e;
  int sel[3] = {2, 0, 2};

  CHECK(cute_layout_mode(&r, &a, 1, &e) == CUTE_OK, "mode 1");
  CHECK_LAYOUT(r, "(2,3):(4,8)");
  cute_layout_mode(&r, &a, 0, &e);
  CHECK_LAYOUT(r, "4:1");
  CHECK(cute_layout_mode(&r, &a, 3, &e) == CUTE_ERANK, "mode 3");
  CHECK(strstr(e.msg, "mode(") && strstr(e.msg, "(4,(2,3),8)"),
        "message: %s", e.msg);
  r = L("8:2");
  CHECK(cute_layout_mode(&r, &r, 0, &e) == CUTE_OK, "mode 0 of integer");
  CHECK_LAYOUT(r, "8:2");
  CHECK(cute_layout_mode(&r, &r, 1, &e) == CUTE_ERANK, "mode 1 of integer");

  cute_layout_flatten(&r, &a, &e);
  CHECK_LAYOUT(r, "(4,2,3,8):(1,4,8,24)");

  CHECK(cute_layout_group(&r, &a, 1, 3, &e) == CUTE_OK, "group");
  CHECK_LAYOUT(r, "(4,((2,3),8)):(1,((4,8),24))");
  cute_layout_group(&r, &a, 0, 2, &e);
  CHECK_LAYOUT(r, "((4,(2,3)),8):((1,(4,8)),24)");
  cute_layout_group(&r, &a, 1, 1, &e);
  CHECK_LAYOUT(r, "(4,(),(2,3),8):(1,(),(4,8),24)");
  CHECK(cute_layout_group(&r, &a, 2, 4, &e) == CUTE_ERANK, "group range");

  cute_layout_take(&r, &a, 1, 3, &e);
  CHECK_LAYOUT(r, "((2,3),8):((4,8),24)");
  cute_layout_take(&r, &a, 0, 1, &e);
  CHECK_LAYOUT(r, "(4):(1)");
  CHECK(cute_layout_take(&r, &a, 2, 1, &e) == CUTE_ERANK, "take range");

  cute_layout_select(&r, &a, sel, 3, &e);
  CHECK_LAYOUT(r, "(8,4,8):(24,1,24)");
  sel[0] = 5;
  CHECK(cute_layout_select(&r, &a, sel, 3, &e) == CUTE_ERANK, "select 5");

  cute_layout_append(&r, &a, &x, &e);
  CHECK_LAYOUT(r, "(4,(2,3),8,5):(1,(4,8),24,100)");
  r = L("4:1");
  cute_layout_append(&r, &r, &x, &e);
  CHECK_LAYOUT(r, "(4,5):(1,100)");
  r = L("4:1");
  x = L("(2,2):(4,8)");
  cute_layout_append(&r, &r, &x, &e);
  CHECK_LAYOUT(r, "(4,(2,2)):(1,(4,8))");
  cute_layout_prepend(&r, &a, &x, &e);
  CHECK_LAYOUT(r, "((2,2),4,(2,3),8):((4,8),1,(4,8),24)");

  x = L("5:100");
  cute_layout_replace(&r, &a, 1, &x, &e);
  CHECK_LAYOUT(r, "(4,5,8):(1,100,24)");
  r = L("4:1");
  cute_layout_replace(&r, &r, 0, &x, &e);
  CHECK_LAYOUT(r, "5:100");
  CHECK(cute_layout_replace(&r, &a, 3, &x, &e) == CUTE_ERANK, "replace 3");

  r = L("4:1");
  ls[0] = &r;
  ls[1] = &x;
  ls[2] = &a;
  cute_layout_concat(&r, ls, 3, &e);
  CHECK_LAYOUT(r, "(4,5,(4,(2,3),8)):(1,100,(1,(4,8),24))");
  cute_layout_concat(&r, ls, 0, &e);
  CHECK_LAYOUT(r, "():()");

  /* Limits: appending past 32 leaves or depth 8. */
  r = L("(1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1)"
        ":(0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0)");
  CHECK(cute_layout_append(&r, &r, &x, &e) == CUTE_ELIMIT, "33 leaves");
  CHECK(strstr(e.msg, "append(") != NULL, "message: %s", e.msg);
  r = L("((((((((2))))))))");
  CHECK(cute_layout_append(&r, &r, &x, &e) == CUTE_OK &&
        cute_layout_depth(&r) == 8, "append to a rank-1 layout: depth 8");
  x = L("((((((((2))))))))");
  r = L("4:1");
  CHECK(cute_layout_append(&r, &r, &x, &e) == CUTE_ELIMIT, "depth 9");
}

/* Random layouts: the general evaluation at idx2crd(i) and at i agree with
 * the flat index evaluation, and with a hand inner product. */
static void test_random(void)
{
  test_rng r;
  cute_error e;
  int it, bad = 0;
  rng_seed(&r, 7);
  for (it = 0; it < 10000; it++) {
    cute_layout l = rng_layout(&r, 3, 6, 7, 5000);
    int64_t size = size_of(&l), i = rng_range(&r, -size, 2 * size), v, w = 0;
    cute_tuple c, out, ci;
    int k;
    cute_idx2crd(&c, i, &l.shape, &e);
    for (k = 0; k < l.shape.nleaf; k++) w += c.v[k] * l.stride.v[k];
    cute_tuple_int(&ci, i);
    if (cute_layout_eval_index(&l, i, &v, &e) || v != w ||
        cute_layout_eval(&l, &c, &out, &e) || out.v[0] != w ||
        cute_layout_eval(&l, &ci, &out, &e) || out.v[0] != w)
      bad++;
  }
  CHECK(bad == 0, "%d evaluation mismatches over 10000 random layouts", bad);
}

/* A(c0, ..., cm-1) of a flat layout (eval's closed form for m <= 4): the
 * inner product of any integers, out-of-bounds and negative ones too, or
 * CUTE_EOVERFLOW naming the layout; `_`, a basis or a rank that differs
 * from L's is the general path's, which it must still reach. */
static void test_eval_flat(void)
{
  test_rng r;
  cute_error e;
  int it, k, bad = 0;
  rng_seed(&r, 11);
  for (it = 0; it < 20000; it++) {
    int m = (int)rng_range(&r, 1, 5);
    cute_layout l;
    cute_tuple c, out;
    int64_t w = 0, x;
    int over = 0;
    cute_status st;
    cute_tuple_clear(&l.shape);
    cute_tuple_clear(&l.stride);
    cute_tuple_clear(&c);
    if (m > 1) {
      cute_tuple_open(&l.shape, &e);
      cute_tuple_open(&l.stride, &e);
      cute_tuple_open(&c, &e);
    }
    for (k = 0; k < m; k++) {
      int big = rng_range(&r, 0, 9) == 0;
      int64_t d = big ? INT64_MAX / rng_range(&r, 1, 4) : rng_range(&r, -9, 99);
      int64_t v = rng_range(&r, -50, 50);
      cute_tuple_leaf(&l.shape, rng_range(&r, 1, 8), 0, &e);
      cute_tuple_leaf(&l.stride, d, 0, &e);
      cute_tuple_leaf(&c, v, 0, &e);
      over |= __builtin_mul_overflow(v, d, &x) || __builtin_add_overflow(w, x, &w);
    }
    if (m > 1) {
      cute_tuple_close(&l.shape, &e);
      cute_tuple_close(&l.stride, &e);
      cute_tuple_close(&c, &e);
    }
    st = cute_layout_eval(&l, &c, &out, &e);
    if (over ? st != CUTE_EOVERFLOW || strstr(e.msg, "layout(") != e.msg
             : st != CUTE_OK || out.ntok != 1 || out.v[0] != w)
      bad++;
    c.v[rng_range(&r, 0, m - 1)] = CUTE_UNDERSCORE; /* the general path's */
    bad += cute_layout_eval(&l, &c, &out, &e) != CUTE_EINVAL;
  }
  CHECK(bad == 0, "%d flat evaluations differ from the inner product", bad);
}

/* Hand-made malformed layouts give errors, never crashes. */
static void test_malformed(void)
{
  test_rng r;
  cute_error e;
  int it, bad = 0;
  rng_seed(&r, 99);
  for (it = 0; it < 20000; it++) {
    cute_layout l = rng_layout(&r, 3, 6, 7, 500), o;
    cute_tuple c = T("(1,_)"), one = T("1"), out;
    int64_t v;
    int k;
    for (k = 0; k < 3; k++) {
      int at = (int)rng_range(&r, 0, l.shape.ntok);
      l.shape.tok[at % CUTE_MAX_TOKENS] = "()x"[rng_range(&r, 0, 2)];
    }
    if (rng_range(&r, 0, 3) == 0) l.shape.ntok = (uint8_t)rng_range(&r, 0, 255);
    if (rng_range(&r, 0, 3) == 0) l.stride.nleaf = (uint8_t)rng_range(&r, 0, 255);
    if (rng_range(&r, 0, 3) == 0) /* the stride's own tokens, apart */
      l.stride.tok[rng_range(&r, 0, CUTE_MAX_TOKENS - 1)] = "()x"[rng_range(&r, 0, 2)];
    /* a malformed shape or stride is refused, never evaluated */
    bad += (cute_tuple_check(&l.shape, NULL) || cute_tuple_check(&l.stride, NULL) ||
            l.shape.nleaf != l.stride.nleaf) &&
           cute_layout_eval(&l, &one, &out, &e) == CUTE_OK;
    cute_layout_slice(&o, &out, &l, &c, &e);
    cute_layout_flatten(&o, &l, &e);
    cute_upcast(&o, &l, 2, &e);
    cute_downcast(&o, &l, 2, &e);
    cute_tuple_check(&l.shape, &e);
    cute_layout_rank(&l);
    cute_layout_depth(&l);
    if (l.shape.nleaf <= CUTE_MAX_LEAVES && l.shape.nleaf == l.stride.nleaf)
      cute_layout_eval_index(&l, 5, &v, &e);
  }
  CHECK(bad == 0, "%d malformed layouts evaluated", bad);
  { /* a stride with its shape's tokens but another leaf count is malformed
     * as a tuple, as before the shortcut for equal tokens */
    cute_layout l = L("((2,2),(4,2)):((1,8),(2,16))");
    cute_tuple c = T("(2,5)"), out;
    l.stride.nleaf = 3;
    CHECK(cute_layout_eval(&l, &c, &out, &e) == CUTE_EINVAL &&
          strstr(e.msg, "malformed token string") != NULL, "got %s", e.msg);
  }
}

/* A hand-made leaf count past CUTE_MAX_LEAVES: the flattening copies and
 * the recast loops once trusted it and ran off the arrays. */
static void test_too_many_leaves(void)
{
  cute_layout l = L("(4,8):(1,4)"), o;
  cute_tuple t = T("(4,8)"), m;
  cute_error e;
  l.shape.nleaf = l.stride.nleaf = 40;
  CHECK(cute_layout_flatten(&o, &l, &e) == CUTE_ELIMIT &&
        strstr(e.msg, "tuple:"), "flatten, 40 leaves: %s", e.msg);
  CHECK(cute_upcast(&o, &l, 2, &e) == CUTE_ELIMIT, "upcast, 40 leaves");
  CHECK(cute_downcast(&o, &l, 2, &e) == CUTE_ELIMIT, "downcast, 40 leaves");
  CHECK(cute_recast(&o, &l, 8, 16, &e) == CUTE_ELIMIT, "recast, 40 leaves");
  t.nleaf = 40;
  CHECK(cute_tuple_flatten(&m, &t) == CUTE_ELIMIT, "tuple_flatten, 40");
  l = L("(4,8):(1,4)");
  l.stride.nleaf = 1;
  CHECK(cute_upcast(&o, &l, 2, &e) != CUTE_OK, "upcast, 2 shape leaves, "
        "1 stride leaf");
}

static void test_errors(void)
{
  cute_layout a = L("(4,8):(1,4)"), b = L("8:2");
  cute_error e;
  CHECK(strcmp(cute_status_name(CUTE_OK), "CUTE_OK") == 0 &&
        strcmp(cute_status_name(CUTE_ECODOMAIN), "CUTE_ECODOMAIN") == 0 &&
        strcmp(cute_status_name((cute_status)99), "CUTE_E?") == 0,
        "status names");
  e.column = 7;
  CHECK(cute_fail_op(&e, CUTE_EDIVISIBILITY, "composition", &a, &b,
                     "stride %d does not divide", 3) == CUTE_EDIVISIBILITY,
        "cute_fail_op returns its code");
  CHECK(e.code == CUTE_EDIVISIBILITY && e.column == 0 &&
        strcmp(e.msg, "composition((4,8):(1,4), 8:2): stride 3 does not "
               "divide") == 0, "message: %s", e.msg);
  cute_error_context(&e, "logical_divide", &b, NULL);
  CHECK(strcmp(e.msg, "logical_divide(8:2): composition((4,8):(1,4), 8:2): "
               "stride 3 does not divide") == 0, "context: %s", e.msg);
  CHECK(cute_fail_op(NULL, CUTE_EINVAL, "x", &a, NULL, "y") == CUTE_EINVAL,
        "a NULL err is allowed");
  a = L("(1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1)"
        ":(1000000000000000,1000000000000000,1000000000000000,"
        "1000000000000000,1000000000000000,1000000000000000,"
        "1000000000000000,1000000000000000,1000000000000000,"
        "1000000000000000,1000000000000000,1000000000000000,"
        "1000000000000000,1000000000000000,1000000000000000,"
        "1000000000000000,1000000000000000,1000000000000000,"
        "1000000000000000,1000000000000000,1000000000000000,"
        "1000000000000000,1000000000000000,1000000000000000,"
        "1000000000000000,1000000000000000,1000000000000000,"
        "1000000000000000,1000000000000000,1000000000000000,"
        "1000000000000000,1000000000000000)");
  cute_fail_op(&e, CUTE_EINVAL, "composition", &a, &a, "long operands");
  /* Long operands are elided in their middle; the reason stays. */
  CHECK(strlen(e.msg) < CUTE_ERRMSG_SIZE, "terminated");
  CHECK(strncmp(e.msg, "composition((1,1,1,", 19) == 0, "%s", e.msg);
  CHECK(strstr(e.msg, "...") != NULL, "%s", e.msg);
  CHECK(strstr(e.msg, "): long operands") != NULL, "%s", e.msg);
  cute_error_context(&e, "logical_divide", &a, &a);
  CHECK(strlen(e.msg) < CUTE_ERRMSG_SIZE, "context terminated");
  CHECK(strncmp(e.msg, "logical_divide((1,1,1,", 22) == 0, "%s", e.msg);
  CHECK(strstr(e.msg, "): long operands") != NULL, "context keeps the reason");
  {
    /* A context around a message that already fills the buffer loses the
     * middle, not the reason at the end. */
    memset(e.msg, 'x', sizeof e.msg - 1);
    memcpy(e.msg + sizeof e.msg - 8, "reason", 7);
    cute_error_context(&e, "logical_divide", &a, &a);
    CHECK(strlen(e.msg) == CUTE_ERRMSG_SIZE - 1, "full context fills the buffer");
    CHECK(strcmp(e.msg + strlen(e.msg) - 6, "reason") == 0, "%s", e.msg);
  }
}

int main(void)
{
  test_errors();
  test_make();
  test_eval();
  test_size();
  test_modes();
  test_random();
  test_malformed();
  test_eval_flat();
  test_too_many_leaves();
  return test_finish();
}
