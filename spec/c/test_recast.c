/*
 * test_recast.c -- upcast / downcast / recast (CuTe's element-size
 * changes): exact rows, round trips, errors.
 */
#include "testlib.h"

#include <stdio.h>
#include <string.h>

typedef cute_status (*cast_fn)(cute_layout *, const cute_layout *, int64_t,
                               cute_error *);

static void row(cast_fn f, const char *name, const char *l, int64_t n,
                const char *expected)
{
  cute_layout A = L(l), R;
  cute_error e;
  cute_status st = f(&R, &A, n, &e);
  CHECK(st == CUTE_OK, "%s(%s, %lld): %s", name, l, (long long)n,
        st ? e.msg : "");
  if (st == CUTE_OK) CHECK_LAYOUT(R, expected);
}

static void fails(cast_fn f, const char *name, const char *l, int64_t n,
                  cute_status code, const char *needle)
{
  cute_layout A = L(l), R;
  cute_error e;
  cute_status st = f(&R, &A, n, &e);
  CHECK(st == code, "%s(%s, %lld): status %s", name, l, (long long)n,
        cute_status_name(st));
  if (st != CUTE_OK)
    CHECK(strstr(e.msg, needle) && strstr(e.msg, name) == e.msg,
          "%s(%s): message \"%s\" lacks \"%s\"", name, l, e.msg, needle);
}

static void recast_row(const char *l, int64_t from, int64_t to,
                       const char *expected)
{
  cute_layout A = L(l), R;
  cute_error e;
  cute_status st = cute_recast(&R, &A, from, to, &e);
  CHECK(st == CUTE_OK, "recast(%s, %lld, %lld): %s", l, (long long)from,
        (long long)to, st ? e.msg : "");
  if (st == CUTE_OK) CHECK_LAYOUT(R, expected);
}

static void upcasts(void)
{
  /* 8x64 half-precision tile read as 128-bit vectors (8 halves each). */
  row(cute_upcast, "upcast", "(8,64):(64,1)", 8, "(8,8):(8,1)");
  row(cute_upcast, "upcast", "(64,8):(1,64)", 8, "(8,8):(1,8)");
  row(cute_upcast, "upcast", "(4,(2,8)):(2,(1,8))", 2, "(4,(1,8)):(1,(1,4))");
  row(cute_upcast, "upcast", "(8,4):(0,16)", 4, "(8,4):(0,4)");
  row(cute_upcast, "upcast", "(8,4):(-1,16)", 4, "(2,4):(-1,4)");
  row(cute_upcast, "upcast", "(8,4):(-8,16)", 4, "(8,4):(-2,4)");
  row(cute_upcast, "upcast", "(1024,8):(1,1024)", 16, "(64,8):(1,64)");
  row(cute_upcast, "upcast", "8:1", 1, "8:1");
  row(cute_upcast, "upcast", "():()", 4, "():()");
}

static void downcasts(void)
{
  row(cute_downcast, "downcast", "(8,8):(8,1)", 8, "(8,64):(64,1)");
  row(cute_downcast, "downcast", "(8,8):(1,8)", 8, "(64,8):(1,64)");
  row(cute_downcast, "downcast", "(4,8):(0,-1)", 2, "(4,16):(0,-1)");
  row(cute_downcast, "downcast", "(4,(2,8)):(3,(1,8))", 2,
      "(4,(4,8)):(6,(1,16))");
}

static void recasts(void)
{
  recast_row("(8,64):(64,1)", 16, 128, "(8,8):(8,1)");
  recast_row("(8,8):(8,1)", 128, 16, "(8,64):(64,1)");
  recast_row("(8,8):(8,1)", 32, 32, "(8,8):(8,1)");
  recast_row("(4,32):(32,1)", 8, 32, "(4,8):(8,1)");
  /* neither width divides the other: through their gcd (CuTe's
   * recast_layout<4,6> in the DSL's order: new 4 bits, old 6) */
  recast_row("(8,4):(1,8)", 6, 4, "(12,4):(1,12)");
  recast_row("(8,8):(8,1)", 24, 16, "(8,12):(12,1)");
  recast_row("(4,6):(6,1)", 4, 6, "(4,4):(4,1)");
}

static void errors(void)
{
  cute_layout A = L("(8,8):(8,1)"), R;
  cute_error e;
  fails(cute_upcast, "upcast", "(4,3):(1,4)", 8, CUTE_EDIVISIBILITY,
        "divisibility");
  fails(cute_upcast, "upcast", "(6,4):(1,6)", 4, CUTE_EDIVISIBILITY,
        "shape 6");
  fails(cute_upcast, "upcast", "(8,4):(3,24)", 4, CUTE_EDIVISIBILITY,
        "stride 3 does not divide 4");
  fails(cute_upcast, "upcast", "(8,4):(1,10)", 4, CUTE_EDIVISIBILITY,
        "stride 10 is not a multiple of 4");
  fails(cute_upcast, "upcast", "8:1", 0, CUTE_EINVAL, "positive");
  fails(cute_downcast, "downcast", "8:1", -2, CUTE_EINVAL, "positive");
  fails(cute_upcast, "upcast", "(4,8):(1@0,1@1)", 2, CUTE_ECODOMAIN,
        "coordinate");
  fails(cute_downcast, "downcast", "(2,2):(1,4611686018427387904)", 2,
        CUTE_EOVERFLOW, "overflow");
  /* 16 -> 24 bits: 8-bit pieces, 3 per new element; the stride 16 of
   * the pieces is not a multiple of 3 */
  CHECK(cute_recast(&R, &A, 16, 24, &e) == CUTE_EDIVISIBILITY &&
        strstr(e.msg, "recast((8,8):(8,1), 16, 24): ") == e.msg &&
        strstr(e.msg, "stride 16 is not a multiple of 3"),
        "recast 16 -> 24: %s", e.msg);
  CHECK(cute_recast(&R, &A, 0, 16, &e) == CUTE_EINVAL, "recast 0 bits");
}

/* recast's context around a failed step elides a long layout in its middle
 * and keeps the widths and the step's reason. */
static void long_operand(void)
{
  char text[1024], *end, *dots;
  size_t k = (size_t)snprintf(text, sizeof text, "(");
  cute_layout A, R;
  cute_error e;
  int i;
  for (i = 0; i < CUTE_MAX_LEAVES; i++)
    k += (size_t)snprintf(text + k, sizeof text - k, "%s3", i ? "," : "");
  for (i = 0; i < CUTE_MAX_LEAVES; i++)
    k += (size_t)snprintf(text + k, sizeof text - k, "%s%lld",
                          i ? "," : "):(", 1000000000000LL + 3 * i);
  snprintf(text + k, sizeof text - k, ")");
  A = L(text);
  CHECK(cute_recast(&R, &A, 8, 32, &e) == CUTE_EDIVISIBILITY,
        "recast 8 -> 32 of a long layout");
  end = strstr(e.msg, "1000000000093), 8, 32): upcast((3,3,");
  dots = strstr(e.msg, "...");
  CHECK(strstr(e.msg, "recast((3,3,") == e.msg && end != NULL &&
        dots != NULL && dots < end &&
        strstr(e.msg, "): divisibility: stride 1000000000003 is not a "
                      "multiple of 4") != NULL, "recast: %s", e.msg);
}

/* upcast(downcast(L, n), n) == L: the round trip is exact. */
static void round_trips(void)
{
  test_rng r;
  int t, ok = 0;
  rng_seed(&r, 19);
  for (t = 0; t < 10000; t++) {
    cute_layout A = rng_layout(&r, 3, 6, 8, 4096), D, U;
    int64_t n = rng_range(&r, 1, 8);
    cute_error e;
    if (cute_downcast(&D, &A, n, &e) != CUTE_OK ||
        cute_upcast(&U, &D, n, &e) != CUTE_OK) {
      CHECK(0, "round trip %s by %lld: %s", S(&A), (long long)n, e.msg);
      continue;
    }
    ok += cute_layout_equal(&U, &A);
    CHECK(cute_layout_equal(&U, &A), "upcast(downcast(%s, %lld)) = %s",
          S(&A), (long long)n, S(&U));
  }
  CHECK(ok == 10000, "%d round trips", ok);
}

int main(void)
{
  upcasts();
  downcasts();
  recasts();
  errors();
  long_operand();
  round_trips();
  return test_finish();
}
