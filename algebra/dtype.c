/*
 * dtype.c -- the one table of element types: every spelling a script may
 * write (cuda's i32, CuTe's and PTX's s32), its width in bits and whether
 * it is a floating-point type.  The CUDA bridge adds the C spellings of
 * the types it stores (cuda/dtype.c); atoms and shared-memory layouts
 * read the widths.  Lowest layer so that a state without CUDA (a sandbox)
 * reads the same table.
 */
#include "cute.h"

#include <string.h>

static const struct {
  const char *name;
  int bits, is_float;
} types[CUTE_DTYPE_COUNT] = {
  {"f16", 16, 1}, {"bf16", 16, 1}, {"f32", 32, 1}, {"f64", 64, 1},
  {"i8", 8, 0}, {"i16", 16, 0}, {"i32", 32, 0}, {"i64", 64, 0},
  {"u8", 8, 0}, {"u16", 16, 0}, {"u32", 32, 0}, {"u64", 64, 0},
  {"tf32", 32, 1}, {"e4m3", 8, 1}, {"e5m2", 8, 1},
  {"b8", 8, 0}, {"b16", 16, 0}, {"b32", 32, 0}, {"b64", 64, 0},
  {"b128", 128, 0},
};

/* CuTe's and PTX's signed integers: the same types under a second name. */
static const struct {
  const char *name;
  cute_dtype type;
} aliases[CUTE_DTYPE_ALIASES] = {
  {"s8", CUTE_I8}, {"s16", CUTE_I16}, {"s32", CUTE_I32}, {"s64", CUTE_I64},
};

int cute_dtype_bits(cute_dtype t) { return types[t].bits; }
const char *cute_dtype_name(cute_dtype t) { return types[t].name; }
int cute_dtype_is_float(cute_dtype t) { return types[t].is_float; }

const char *cute_dtype_spelling(int i, cute_dtype *t)
{
  if (i < 0 || i >= CUTE_DTYPE_COUNT + CUTE_DTYPE_ALIASES) return NULL;
  if (i < CUTE_DTYPE_COUNT) {
    *t = (cute_dtype)i;
    return types[i].name;
  }
  *t = aliases[i - CUTE_DTYPE_COUNT].type;
  return aliases[i - CUTE_DTYPE_COUNT].name;
}

int cute_dtype_parse(const char *name, cute_dtype *out)
{
  cute_dtype t;
  const char *s;
  int i;
  for (i = 0; (s = cute_dtype_spelling(i, &t)) != NULL; i++)
    if (strcmp(name, s) == 0) {
      *out = t;
      return 0;
    }
  return -1;
}
