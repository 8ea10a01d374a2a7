/*
 * test_dtype.c -- the table of element types: every spelling parses to a
 * type whose name parses back to it, aliases name the same type, widths
 * and float flags of each row, and unknown names fail.
 */
#include "testlib.h"

#include <string.h>

static void round_trips(void)
{
  cute_dtype t, u;
  const char *s;
  int i, n = 0;
  for (i = 0; (s = cute_dtype_spelling(i, &t)) != NULL; i++, n++) {
    CHECK(cute_dtype_parse(s, &u) == 0 && u == t, "parse(%s)", s);
    CHECK(cute_dtype_parse(cute_dtype_name(t), &u) == 0 && u == t,
          "parse(name(%s))", s);
    CHECK(cute_dtype_bits(t) >= 8 && cute_dtype_bits(t) % 8 == 0,
          "bits(%s) = %d", s, cute_dtype_bits(t));
    CHECK(i < CUTE_DTYPE_COUNT || strcmp(s, cute_dtype_name(t)) != 0,
          "alias %s is a name", s);
  }
  CHECK(n == CUTE_DTYPE_COUNT + CUTE_DTYPE_ALIASES, "%d spellings", n);
  CHECK(cute_dtype_spelling(-1, &t) == NULL, "spelling(-1)");
}

static void rows(void)
{
  static const struct { const char *s, *name; int bits, fl; } r[] = {
    {"f16", "f16", 16, 1}, {"bf16", "bf16", 16, 1}, {"tf32", "tf32", 32, 1},
    {"f64", "f64", 64, 1}, {"s8", "i8", 8, 0}, {"s32", "i32", 32, 0},
    {"s64", "i64", 64, 0}, {"u16", "u16", 16, 0}, {"e4m3", "e4m3", 8, 1},
    {"e5m2", "e5m2", 8, 1}, {"b16", "b16", 16, 0}, {"b128", "b128", 128, 0}};
  size_t i;
  for (i = 0; i < sizeof r / sizeof r[0]; i++) {
    cute_dtype t;
    CHECK(cute_dtype_parse(r[i].s, &t) == 0, "parse(%s)", r[i].s);
    CHECK(strcmp(cute_dtype_name(t), r[i].name) == 0, "name(%s)", r[i].s);
    CHECK(cute_dtype_bits(t) == r[i].bits, "bits(%s)", r[i].s);
    CHECK(cute_dtype_is_float(t) == r[i].fl, "is_float(%s)", r[i].s);
  }
}

static void unknown(void)
{
  static const char *bad[] = {"", "f12", "F16", "i", "s", "int", "f16 ",
                              "b256", "e4m3fn"};
  size_t i;
  for (i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    cute_dtype t = CUTE_F32;
    CHECK(cute_dtype_parse(bad[i], &t) == -1 && t == CUTE_F32, "parse(\"%s\")",
          bad[i]);
  }
}

int main(void)
{
  round_trips();
  rows();
  unknown();
  return test_finish();
}
