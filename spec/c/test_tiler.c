/*
 * test_tiler.c -- tilers in C (algebra/tiler.c, divide.c, product.c,
 * partition.c): the paper's and CuTe's worked examples, nested tilers and
 * `_`, error forms, and the defining formulas on seeded random inputs:
 *   logical_divide(A, B)(i) = A((B, B*)(i))       B* = complement(B, |A|)
 *   logical_product(A, B)(a + |A| b) = A(a) + A*(B(b))
 * (the Lua specs check the arrangements, blocked/raked and partitions by
 * brute force as well: spec/lua/{divide,product,partition}_spec.lua).
 */
#include "testlib.h"

#include <string.h>

typedef cute_status (*tiler_fn)(cute_layout *, const cute_layout *,
                                const cute_tiler *, cute_error *);

/* T from text: "<...>" parsed, a layout as a whole-layout tiler, "_". */
static cute_tiler tiler(const char *text)
{
  cute_tiler T;
  cute_error e;
  memset(&T, 0, sizeof T);
  if (text[0] == '<') {
    if (cute_tiler_parse(&T, text, &e)) CHECK(0, "tiler %s: %s", text, e.msg);
  } else if (strcmp(text, "_") == 0) {
    T.ntok = 1;
    T.tok[0] = '_';
  } else {
    T.n = 1;
    T.ntok = 1;
    T.tok[0] = 'L';
    T.mode[0] = L(text);
  }
  return T;
}

static void check(tiler_fn f, const char *a, cute_tiler T,
                  const char *expected)
{
  cute_layout A = L(a), R;
  cute_error e;
  if (f(&R, &A, &T, &e) != CUTE_OK) {
    CHECK(0, "%s by tiler: %s", a, e.msg);
    return;
  }
  CHECK(strcmp(S(&R), expected) == 0, "%s: got %s, expected %s", a, S(&R),
        expected);
}

static void test_examples(void)
{
  cute_tiler M = tiler("<4:1,8:2>"), N;
  check(cute_logical_divide, "(8,16):(20,1)", M, "((4,2),(8,2)):((20,80),(2,1))");
  check(cute_zipped_divide, "(8,16):(20,1)", M, "((4,8),(2,2)):((20,2),(80,1))");
  check(cute_tiled_divide, "(8,16):(20,1)", M, "((4,8),2,2):((20,2),80,1)");
  check(cute_flat_divide, "(8,16):(20,1)", M, "(4,8,2,2):(20,2,80,1)");
  check(cute_logical_product, "(3,4):(4,1)", tiler("(2,5):(1,2)"),
        "((3,4),(2,5)):((4,1),(12,24))");
  check(cute_logical_divide, "(4,2,3):(2,1,8)", tiler("4:2"),
        "((2,2),(2,3)):((4,1),(2,8))");
  check(cute_logical_divide, "(4,8):(1,4)", tiler("_"), "(4,8):(1,4)");
  /* nested and `_`: <2:1, <_, 2:1>> */
  N.n = 2;
  N.ntok = 7;
  memcpy(N.tok, "<L<_L>>", 7);
  N.mode[0] = L("2:1");
  N.mode[1] = L("2:1");
  check(cute_logical_divide, "(4,((2,3),4)):(1,((4,8),24))", N,
        "((2,2),((2,3),(2,2))):((1,2),((4,8),(24,48)))");
  check(cute_composition_tiler, "(4,((2,3),4)):(1,((4,8),24))", N,
        "(2,((2,3),2)):(1,((4,8),24))");
  {
    cute_layout A = L("4:2"), B = L("4:1"), R;
    cute_error e;
    CHECK(cute_blocked_product(&R, &A, &B, &e) == CUTE_OK &&
          strcmp(S(&R), "(4,(2,2)):(2,(1,8))") == 0, "blocked 4:2 x 4:1: %s",
          S(&R));
    A = L("(3,4):(4,1)");
    B = L("(2,5):(1,2)");
    CHECK(cute_blocked_product(&R, &A, &B, &e) == CUTE_OK &&
          strcmp(S(&R), "((3,2),(4,5)):((4,12),(1,24))") == 0, "Figure 10");
    CHECK(cute_raked_product(&R, &A, &B, &e) == CUTE_OK &&
          strcmp(S(&R), "((2,3),(5,4)):((12,4),(24,1))") == 0, "Figure 11");
  }
  {  /* the GEMM tutorial, with a Step<_1,X,_1> */
    cute_layout A = L("(512,64):(1,512)"), R, P, thr = L("(32,8):(1,32)");
    cute_tuple off, off2, coord = T("(1,0,_)"), proj = T("(1,_,1)");
    cute_tiler C = tiler("<128:1,128:1,8:1>");
    cute_error e;
    CHECK(cute_local_tile(&R, &off, &A, &C, &coord, &proj, &e) == CUTE_OK &&
          strcmp(S(&R), "(128,8,8):(1,512,4096)") == 0 &&
          strcmp(ST(&off), "128") == 0, "gA = %s at %s", S(&R), ST(&off));
    CHECK(cute_local_partition(&P, &off2, &R, &thr, 37, NULL, &e) ==
          CUTE_OK && strcmp(S(&P), "(4,1,8):(32,0,4096)") == 0 &&
          strcmp(ST(&off2), "517") == 0, "thread 37: %s at %s", S(&P),
          ST(&off2));
  }
}

static void test_errors(void)
{
  cute_layout A = L("(4,8):(1,4)"), R;
  cute_tiler T = tiler("<2:1,2:1,2:1>");
  cute_error e;
  CHECK(cute_logical_divide(&R, &A, &T, &e) == CUTE_ERANK &&
        strcmp(e.msg, "logical_divide((4,8):(1,4), <2:1,2:1,2:1>): tiler "
               "has 3 modes but the layout has rank 2") == 0, "%s", e.msg);
  A = L("(4,6,8):(2,3,5)");
  T = tiler("6:3");
  CHECK(cute_zipped_divide(&R, &A, &T, &e) == CUTE_EDIVISIBILITY &&
        strstr(e.msg, "zipped_divide((4,6,8):(2,3,5), <") == NULL &&
        strstr(e.msg, "zipped_divide((4,6,8):(2,3,5), 6:3): composition(")
        == e.msg, "%s", e.msg);
  T.ntok = 3;
  memcpy(T.tok, "<L<", 3);
  CHECK(cute_logical_product(&R, &A, &T, &e) == CUTE_EINVAL,
        "a malformed tiler: %s", e.msg);
}

static void test_random(void)
{
  test_rng rng;
  cute_error e;
  int it, divides = 0, products = 0, bad = 0;
  rng_seed(&rng, 4242);
  for (it = 0; it < 4000; it++) {
    cute_layout A = rng_injective_layout(&rng, 2, 4, 256);
    cute_layout B = rng_injective_layout(&rng, 2, 3, 16), D, P, BB, star;
    cute_tiler T;
    const cute_layout *parts[2];
    int64_t n = size_of(&A), m = size_of(&B), i, j;
    T.n = 1;
    T.ntok = 1;
    T.tok[0] = 'L';
    T.mode[0] = B;
    if (cute_logical_divide(&D, &A, &T, &e) == CUTE_OK) {
      divides++;
      parts[0] = &B;
      parts[1] = &star;
      if (cute_complement(&star, &B, n, &e) || cute_coalesce(&star, &star, &e)
          || cute_layout_concat(&BB, parts, 2, &e) ||
          size_of(&D) != size_of(&BB) || size_of(&D) < n)
        bad++;
      else
        for (i = 0; i < size_of(&D); i++)
          if (eval_i(&D, i) != eval_i(&A, eval_i(&BB, i))) {
            if (bad++ < 3) CHECK(0, "%s / %s = %s at %lld", S(&A), S(&B),
                                 S(&D), (long long)i);
            break;
          }
    }
    if (cute_logical_product(&P, &A, &T, &e) == CUTE_OK &&
        cute_complement(&star, &A, 0, &e) == CUTE_OK && n * m <= 4096) {
      products++;
      if (size_of(&P) != n * m) bad++;
      else
        for (j = 0; j < m; j++)
          for (i = 0; i < n; i++)
            if (eval_i(&P, i + n * j) !=
                eval_i(&A, i) + eval_i(&star, eval_i(&B, j))) {
              if (bad++ < 3) CHECK(0, "%s x %s = %s at (%lld, %lld)", S(&A),
                                   S(&B), S(&P), (long long)i, (long long)j);
              i = n;
              j = m;
            }
    }
  }
  CHECK(bad == 0, "%d random divides/products disagree", bad);
  CHECK(divides > 500 && products > 1500, "%d divides, %d products", divides,
        products);
}

/* blocked_product and raked_product against their definition made of
 * public calls (CuTe's: pad both to one rank with 1:0, then mode i is
 * (A_i, A* o B_i), or (A* o B_i, A_i) raked, A* = complement(A)): the same
 * status and layout on random operands of depth <= 3, rank 1 and size-1
 * modes included, and out aliasing either operand. */
static cute_status ref_zip(cute_layout *out, const cute_layout *A0,
                           const cute_layout *B0, int raked, cute_error *e)
{
  cute_layout A = *A0, B = *B0, star, unit = L("1:0"), a, b, g;
  cute_layout pairs[CUTE_MAX_LEAVES];
  const cute_layout *ps[CUTE_MAX_LEAVES], *two[2];
  cute_status st = CUTE_OK;
  int i, n = cute_layout_rank(&A);
  if (cute_layout_rank(&B) > n) n = cute_layout_rank(&B);
  while (!st && cute_layout_rank(&A) < n) st = cute_layout_append(&A, &A, &unit, e);
  while (!st && cute_layout_rank(&B) < n) st = cute_layout_append(&B, &B, &unit, e);
  if (st || (st = cute_complement(&star, &A, 0, e))) return st;
  for (i = 0; i < n; i++) {
    if ((st = cute_layout_mode(&a, &A, i, e)) ||
        (st = cute_layout_mode(&b, &B, i, e)) ||
        (st = cute_composition(&g, &star, &b, e)))
      return st;
    two[0] = raked ? &g : &a;
    two[1] = raked ? &a : &g;
    if ((st = cute_layout_concat(&pairs[i], two, 2, e))) return st;
    ps[i] = &pairs[i];
  }
  if (cute_tuple_is_int(&A.shape)) {
    *out = pairs[0];
    return CUTE_OK;
  }
  return cute_layout_concat(out, ps, n, e);
}

static void test_zip_products(void)
{
  test_rng rng;
  int it, k, bad = 0, ok = 0;
  rng_seed(&rng, 77);
  for (it = 0; it < 6000; it++) {
    cute_layout A = rng_layout(&rng, 3, 4, 6, 64), B = rng_layout(&rng, 3, 4, 6, 64);
    for (k = 0; k < 2; k++) {
      cute_layout R, W, X = A;
      cute_error e1, e2;
      cute_status s1 = k ? cute_raked_product(&R, &A, &B, &e1)
                         : cute_blocked_product(&R, &A, &B, &e1);
      cute_status s2 = ref_zip(&W, &A, &B, k, &e2);
      cute_status s3 = k ? cute_raked_product(&X, &X, &B, &e1)
                         : cute_blocked_product(&X, &X, &B, &e1);
      const char *op = k ? "raked_product(" : "blocked_product(";
      int same = s1 == s2 && s3 == s1 &&
                 (s1 != CUTE_OK ? strncmp(e1.msg, op, strlen(op)) == 0
                                : strcmp(S(&R), S(&W)) == 0 &&
                                  strcmp(S(&X), S(&R)) == 0);
      if (!same && bad++ < 3)
        CHECK(0, "%s%s, %s): %d %s, definition %d %s", op, S(&A), S(&B), s1,
              s1 ? e1.msg : S(&R), s2, s2 ? e2.msg : S(&W));
      ok += s1 == CUTE_OK;
    }
  }
  CHECK(bad == 0, "%d blocked/raked products differ from their definition", bad);
  CHECK(ok > 4000, "%d of 12000 products made a layout", ok);
}

int main(void)
{
  test_examples();
  test_errors();
  test_random();
  test_zip_products();
  return test_finish();
}
