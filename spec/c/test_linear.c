/*
 * test_linear.c -- linear layouts over F2 (cute_linear.h):
 * to_linear on random layouts (succeeds exactly on XOR-linear ones, and
 * agrees), from_linear back, a swizzled tile, the operations against
 * evaluation, Triton's text both ways, and adversarial limits.
 */
#include "testlib.h"

#include <string.h>

static cute_linear LIN(const char *text)
{
  cute_linear A;
  cute_error e;
  if (cute_linear_parse(&A, text, &e)) {
    CHECK(0, "parse %s: %s", text, e.msg);
    memset(&A, 0, sizeof A);
  }
  return A;
}

/* L(i) the XOR of L at i's single bits, for every index i? */
static int xor_linear(const cute_layout *l)
{
  int64_t i, n = size_of(l);
  for (i = 0; i < n; i++) {
    int64_t x = 0, b;
    for (b = 1; b <= i; b <<= 1)
      if (i & b) x ^= eval_i(l, b);
    if (eval_i(l, i) != x) return 0;
  }
  return 1;
}

static void random_layouts(void)
{
  test_rng r;
  int k, linear = 0;
  rng_seed(&r, 17);
  for (k = 0; k < 4000; k++) {
    cute_layout l = rng_layout(&r, 2, 4, 8, 256), back;
    cute_composed C = {{0, 0, 0}, 0, l}, D;
    cute_linear A;
    cute_error e;
    int64_t i, n = size_of(&l);
    int sw, ok = 1, j;
    for (j = 0; j < l.shape.nleaf; j++)
      if (l.shape.v[j] & (l.shape.v[j] - 1) || l.stride.v[j] < 0) ok = 0;
    if (!ok) continue;  /* non-powers of two: refused, see errors() */
    ok = cute_linear_from_composed(&A, &C, NULL, 0, 0, &e) == CUTE_OK;
    CHECK(ok == xor_linear(&l), "to_linear(%s) %s", S(&l), ok ? "took" : e.msg);
    if (!ok) continue;
    linear++;
    CHECK(cute_linear_to_composed(&D, &sw, &A, &e) == CUTE_OK, "%s", e.msg);
    back = D.layout;
    for (i = 0; i < n; i++) {
      int64_t v;
      cute_composed_eval_index(&D, i, &v, &e);
      if ((int64_t)cute_linear_apply(&A, (uint64_t)i) != eval_i(&l, i) ||
          v != eval_i(&l, i)) {
        CHECK(0, "%s -> %s at %lld", S(&l), S(&back), (long long)i);
        break;
      }
    }
  }
  CHECK(linear > 500, "%d linear layouts", linear);
}

static void swizzled_tile(void)
{
  cute_composed C, D;
  cute_linear A;
  cute_error e;
  char text[CUTE_MAX_TEXT];
  int64_t i, v;
  int sw;
  cute_composed_parse(&C, "Sw<3,4,3> o 0 o (16,64):(64,1)", &e);
  CHECK(cute_linear_from_composed(&A, &C, NULL, 0, 0, &e) == CUTE_OK, "%s", e.msg);
  CHECK(cute_linear_to_composed(&D, &sw, &A, &e) == CUTE_OK && sw, "%s", e.msg);
  cute_composed_print(&D, text, sizeof text);
  CHECK(strcmp(text, "Sw<3,4,3> o 0 o (16,64):(64,1)") == 0, "got %s", text);
  for (i = 0; i < 1024; i++) {
    cute_composed_eval_index(&C, i, &v, &e);
    CHECK((int64_t)cute_linear_apply(&A, (uint64_t)i) == v, "at %lld", (long long)i);
  }
}

static void operations(void)
{
  /* mma.m16n8k16's C fragment over its 16x8 tile, and a transposed copy */
  cute_linear C = LIN(" - register=1 -> (0, 1)\n   register=2 -> (8, 0)\n"
                      " - lane=1 -> (0, 2)\n   lane=2 -> (0, 4)\n   lane=4 -> (1, 0)\n"
                      "   lane=8 -> (2, 0)\n   lane=16 -> (4, 0)\n"
                      "where out dims are: [dim0 (size 16), dim1 (size 8)]");
  cute_linear T = LIN("{register = [[1, 0], [2, 0]], lane = [[4, 0], [8, 0], [0, 1], [0, 2], [0, 4]]}");
  cute_linear I, X, Y;
  cute_error e;
  uint64_t x, free[CUTE_LINEAR_MAX_DIMS];
  CHECK(cute_linear_rank(&C) == 7, "rank");
  CHECK(cute_linear_invert(&I, &C, &e) == CUTE_OK, "%s", e.msg);
  for (x = 0; x < 128; x++)
    CHECK(cute_linear_apply(&I, cute_linear_apply(&C, x)) == x, "invert at %llu",
          (unsigned long long)x);
  CHECK(cute_linear_invert_and_compose(&X, &C, &T, &e) == CUTE_OK, "%s", e.msg);
  for (x = 0; x < 128; x++)
    CHECK(cute_linear_apply(&T, cute_linear_apply(&X, x)) == cute_linear_apply(&C, x),
          "invert_and_compose at %llu", (unsigned long long)x);
  CHECK(cute_linear_compose(&Y, &I, &C, &e) == CUTE_OK, "%s", e.msg);
  for (x = 0; x < 128; x++)
    CHECK(cute_linear_apply(&Y, x) == x, "inverse o C at %llu", (unsigned long long)x);
  cute_linear_free_masks(&C, free);
  CHECK(free[0] == 0 && free[1] == 0 && free[2] == 0, "no broadcast");
}

/* Each thread holding all of a 4-vector (lane bit broadcast) against two
 * lanes holding two elements each. */
static void conversions(void)
{
  cute_linear B = LIN("{register = [[1], [2]], lane = [[0]], warp = []}");
  cute_linear D = LIN("{register = [[1]], lane = [[2]], warp = []}");
  cute_linear none;
  cute_linear_move k;
  cute_error e;
  memset(&none, 0, sizeof none);  /* no input dims: not a TV layout */
  CHECK(cute_linear_conversion(&k, NULL, &B, &D, &e) == CUTE_OK &&
        k == CUTE_MOVE_REGISTERS, "B -> D is local");
  CHECK(cute_linear_conversion(&k, NULL, &D, &B, &e) == CUTE_OK &&
        k == CUTE_MOVE_SHUFFLE, "D -> B shuffles");
  CHECK(cute_linear_conversion(&k, NULL, &B, &B, &e) == CUTE_OK &&
        k == CUTE_MOVE_REGISTERS, "B -> B");
  CHECK(cute_linear_conversion(&k, NULL, &B, &none, &e) == CUTE_EINVAL &&
        strstr(e.msg, "conversion("), "%s", e.msg);
}

static void text(void)
{
  const char *t = " - register=1 -> (0, 1)\n - lane=1 -> (1, 0)\n"
                  " - warp is a size 1 dimension\n"
                  "where out dims are: [dim0 (size 2), dim1 (size 2)]";
  cute_linear A = LIN(t);
  char buf[512];
  cute_linear_print(&A, buf, sizeof buf);
  CHECK(strcmp(buf, t) == 0, "got\n%s", buf);
  cute_linear_print_compact(&A, buf, sizeof buf);
  CHECK(strcmp(buf, "#ttg.linear<{register = [[0, 1]], lane = [[1, 0]], warp = []}>") == 0,
        "got %s", buf);
  A = LIN("(empty layout)");
  CHECK(A.nin == 0 && A.nout == 0, "empty");
}

static void errors(void)
{
  cute_linear A;
  cute_composed C, D;
  cute_error e;
  int sw;
  char big[CUTE_MAX_TEXT];
  size_t n = 0;
  int k;
  cute_composed_parse(&C, "Sw<0,0,0> o 0 o (3,2):(1,3)", &e);
  CHECK(cute_linear_from_composed(&A, &C, NULL, 0, 0, &e) == CUTE_EINVAL &&
        strstr(e.msg, "to_linear((3,2):(1,3)): mode 0: leaf 0 of shape 3"), "%s", e.msg);
  A = LIN("{a = [[3], [5], [6]]}");  /* 6 = 3 ^ 5: no sum of steps */
  CHECK(cute_linear_to_composed(&D, &sw, &A, &e) == CUTE_EINVAL &&
        strstr(e.msg, "basis a=2 -> (5) shares output bits with a=1 -> (3)"), "%s", e.msg);
  /* adversarial: 33 input bits, 7 dims, a long name, a huge size */
  n += (size_t)snprintf(big + n, sizeof big - n, "{a = [");
  for (k = 0; k < 33; k++) n += (size_t)snprintf(big + n, sizeof big - n, "%s[1]", k ? ", " : "");
  snprintf(big + n, sizeof big - n, "]}");
  CHECK(cute_linear_parse(&A, big, &e) == CUTE_ESYNTAX && strstr(e.msg, "at most 32"), "%s", e.msg);
  CHECK(cute_linear_parse(&A, "{a=[], b=[], c=[], d=[], e=[], f=[], g=[]}", &e) == CUTE_ESYNTAX &&
        strstr(e.msg, "at most 6 input dims"), "%s", e.msg);
  CHECK(cute_linear_parse(&A, "{abcdefghijklmnopqrstuvwxyz = []}", &e) == CUTE_ESYNTAX, "%s", e.msg);
  CHECK(cute_linear_parse(&A, " - a=1 -> (1)\nwhere out dims are: [x (size 99999999999999999999)]", &e) ==
        CUTE_ESYNTAX, "%s", e.msg);
  CHECK(cute_linear_parse(&A, " - a=1 -> (1)\nwhere out dims are: [x (size 4611686018427387904)]", &e) ==
        CUTE_ESYNTAX && strstr(e.msg, "2^32"), "%s", e.msg);
}

int main(void)
{
  random_layouts();
  swizzled_tile();
  operations();
  conversions();
  text();
  errors();
  return test_finish();
}
