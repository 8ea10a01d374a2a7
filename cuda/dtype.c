/*
 * dtype.c -- element types of device buffers and their host-side values:
 * names, sizes, CUDA C spellings, f16/bf16 rounding, seeded random values.
 */
#include "internal.h"

#include <math.h>
#include <string.h>

static const struct {
  const char *name, *ctype;
  int size, is_float;
} dtypes[CUTE_DTYPE_COUNT] = {
  {"f16", "unsigned short", 2, 1}, {"bf16", "unsigned short", 2, 1},
  {"f32", "float", 4, 1},          {"f64", "double", 8, 1},
  {"i8", "signed char", 1, 0},     {"i16", "short", 2, 0},
  {"i32", "int", 4, 0},            {"i64", "long long", 8, 0},
  {"u8", "unsigned char", 1, 0},   {"u16", "unsigned short", 2, 0},
  {"u32", "unsigned", 4, 0},       {"u64", "unsigned long long", 8, 0},
};

int cute_cuda_dtype_size(cute_cuda_dtype t) { return dtypes[t].size; }
const char *cute_cuda_dtype_name(cute_cuda_dtype t) { return dtypes[t].name; }
const char *cute_cuda_dtype_ctype(cute_cuda_dtype t) { return dtypes[t].ctype; }
int cute_cuda_dtype_is_float(cute_cuda_dtype t) { return dtypes[t].is_float; }

int cute_cuda_dtype_parse(const char *name, cute_cuda_dtype *out)
{
  int i;
  for (i = 0; i < CUTE_DTYPE_COUNT; i++)
    if (strcmp(name, dtypes[i].name) == 0) {
      *out = (cute_cuda_dtype)i;
      return 0;
    }
  return -1;
}

/* ------------------------------------------------------------- f16, bf16 -- */
static uint32_t f32_bits(float f)
{
  uint32_t x;
  memcpy(&x, &f, 4);
  return x;
}

/* IEEE binary16, round to nearest even; the carry of a rounding may bump
 * the exponent, up to infinity, which is what rounding should do. */
static uint16_t f32_to_f16(float f)
{
  uint32_t x = f32_bits(f), sign = (x >> 16) & 0x8000u, a = x & 0x7fffffffu;
  uint32_t h, rem;
  if (a > 0x7f800000u) return (uint16_t)(sign | 0x7e00u);      /* NaN */
  if (a >= 0x47800000u) return (uint16_t)(sign | 0x7c00u);     /* inf */
  if (a < 0x38800000u) {                  /* below 2^-14: subnormal half */
    float v;
    memcpy(&v, &a, 4);
    return (uint16_t)(sign | (uint32_t)lrintf(v * 16777216.0f)); /* 2^24 */
  }
  h = ((a >> 23) - 112u) << 10 | (a & 0x7fffffu) >> 13;
  rem = a & 0x1fffu;
  if (rem > 0x1000u || (rem == 0x1000u && (h & 1u))) h++;
  return (uint16_t)(sign | h);
}

static double f16_to_double(uint16_t h)
{
  int e = (h >> 10) & 0x1f;
  double m = h & 0x3ff, v;
  if (e == 0) v = ldexp(m, -24);
  else if (e == 31) v = m != 0 ? NAN : INFINITY;
  else v = ldexp(1024.0 + m, e - 25);
  return (h & 0x8000) ? -v : v;
}

static uint16_t f32_to_bf16(float f)
{
  uint32_t x = f32_bits(f);
  if ((x & 0x7fffffffu) > 0x7f800000u) return (uint16_t)((x >> 16) | 0x40u);
  return (uint16_t)((x + 0x7fffu + ((x >> 16) & 1u)) >> 16);
}

static double bf16_to_double(uint16_t b)
{
  uint32_t x = (uint32_t)b << 16;
  float f;
  memcpy(&f, &x, 4);
  return f;
}

/* ------------------------------------------------------------ get / set -- */
#define AT(type) (((const type *)base)[i])
double cute_cuda_host_get(const void *base, cute_cuda_dtype t, size_t i)
{
  switch (t) {
  case CUTE_F16: return f16_to_double(AT(uint16_t));
  case CUTE_BF16: return bf16_to_double(AT(uint16_t));
  case CUTE_F32: return AT(float);
  case CUTE_F64: return AT(double);
  case CUTE_I8: return AT(int8_t);
  case CUTE_I16: return AT(int16_t);
  case CUTE_I32: return AT(int32_t);
  case CUTE_I64: return (double)AT(int64_t);
  case CUTE_U8: return AT(uint8_t);
  case CUTE_U16: return AT(uint16_t);
  case CUTE_U32: return AT(uint32_t);
  default: return (double)AT(uint64_t);
  }
}
#undef AT

/* Integers wrap modulo 2^bits like the C casts of the element type; going
 * through int64_t first keeps negative values defined for unsigned types. */
#define PUT(type, v) (((type *)base)[i] = (type)(v))
void cute_cuda_host_set(void *base, cute_cuda_dtype t, size_t i, double v)
{
  int64_t k = (isfinite(v) && fabs(v) < 9.2e18) ? (int64_t)v : 0;
  switch (t) {
  case CUTE_F16: PUT(uint16_t, f32_to_f16((float)v)); break;
  case CUTE_BF16: PUT(uint16_t, f32_to_bf16((float)v)); break;
  case CUTE_F32: PUT(float, v); break;
  case CUTE_F64: PUT(double, v); break;
  case CUTE_I8: PUT(int8_t, (uint8_t)k); break;
  case CUTE_I16: PUT(int16_t, (uint16_t)k); break;
  case CUTE_I32: PUT(int32_t, (uint32_t)k); break;
  case CUTE_I64: PUT(int64_t, k); break;
  case CUTE_U8: PUT(uint8_t, k); break;
  case CUTE_U16: PUT(uint16_t, k); break;
  case CUTE_U32: PUT(uint32_t, k); break;
  default: PUT(uint64_t, k); break;
  }
}
#undef PUT

int64_t cute_cuda_host_get_int(const void *base, cute_cuda_dtype t, size_t i)
{
  if (t == CUTE_I64) return ((const int64_t *)base)[i];
  if (t == CUTE_U64) return (int64_t)((const uint64_t *)base)[i];
  return (int64_t)cute_cuda_host_get(base, t, i);
}

void cute_cuda_host_set_int(void *base, cute_cuda_dtype t, size_t i,
                            int64_t v)
{
  if (t == CUTE_I64) ((int64_t *)base)[i] = v;
  else if (t == CUTE_U64) ((uint64_t *)base)[i] = (uint64_t)v;
  else cute_cuda_host_set(base, t, i, (double)v); /* exact below 2^53 */
}

/* --------------------------------------------------------------- random -- */
/* splitmix64 of (seed, index): every element is independent of the chunk
 * it was generated in, so uploads in pieces give the same data. */
static uint64_t mix(uint64_t seed, uint64_t i)
{
  uint64_t z = seed * 0xbf58476d1ce4e5b9ull + i * 0x9e3779b97f4a7c15ull;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

void cute_cuda_host_random(void *base, cute_cuda_dtype t, size_t n,
                           uint64_t seed, uint64_t first, double lo,
                           double hi)
{
  int fl = cute_cuda_dtype_is_float(t);
  size_t i;
  for (i = 0; i < n; i++) {
    double u = (double)(mix(seed, first + i) >> 11) * (1.0 / 9007199254740992.0);
    double v = fl ? lo + u * (hi - lo) : floor(lo + u * (hi - lo + 1.0));
    cute_cuda_host_set(base, t, i, v);
  }
}
