/*
 * dtype.c -- element types of device buffers and their host-side values:
 * names, sizes, CUDA C spellings, f16/bf16 values (rounded by the device
 * library's cute/convert.h), seeded random values.
 */
#include "cute_cuda_internal.h"

#include <math.h>
#include <string.h>

/* The CUDA spellings of the element types a buffer stores; names, widths
 * and aliases are the algebra's table (algebra/dtype.c).  C type of the
 * bits (generated tensor types), the device library's type (cute/numeric.h). */
static const struct {
  const char *ctype, *device;
} dtypes[CUTE_CUDA_DTYPE_COUNT] = {
  {"unsigned short", "cute::half_t"},
  {"unsigned short", "cute::bf16_t"},
  {"float", "float"},
  {"double", "double"},
  {"signed char", "signed char"},
  {"short", "short"},
  {"int", "int"},
  {"long long", "long long"},
  {"unsigned char", "unsigned char"},
  {"unsigned short", "unsigned short"},
  {"unsigned", "unsigned"},
  {"unsigned long long", "unsigned long long"},
  {"float", "float"}, /* tf32: an f32 whose low mantissa bits MMAs ignore */
};

int cute_cuda_dtype_size(cute_cuda_dtype t) { return cute_dtype_bits(t) / 8; }
const char *cute_cuda_dtype_name(cute_cuda_dtype t)
{
  return cute_dtype_name(t);
}
const char *cute_cuda_dtype_ctype(cute_cuda_dtype t) { return dtypes[t].ctype; }
const char *cute_cuda_dtype_device_type(cute_cuda_dtype t)
{
  return dtypes[t].device;
}
int cute_cuda_dtype_is_float(cute_cuda_dtype t)
{
  return cute_dtype_is_float(t);
}

int cute_cuda_dtype_parse(const char *name, cute_cuda_dtype *out)
{
  cute_dtype t;
  if (cute_dtype_parse(name, &t) != 0) return -1;
  if ((int)t >= CUTE_CUDA_DTYPE_COUNT) return -2;
  *out = t;
  return 0;
}

/* ------------------------------------------------------------- f16, bf16 -- */
/* The rounding kernels use too: one definition for host and device. */
#include "device/cute/convert.h"

/* ------------------------------------------------------------ get / set -- */
#define AT(type) (((const type *)base)[i])
double cute_cuda_host_get(const void *base, cute_cuda_dtype t, size_t i)
{
  switch (t) {
  case CUTE_F16: return cute_f16_to_f32(AT(uint16_t));
  case CUTE_BF16: return cute_bf16_to_f32(AT(uint16_t));
  case CUTE_F32:
  case CUTE_TF32: return AT(float);
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
  case CUTE_F16: PUT(uint16_t, cute_f32_to_f16((float)v)); break;
  case CUTE_BF16: PUT(uint16_t, cute_f32_to_bf16((float)v)); break;
  case CUTE_F32:
  case CUTE_TF32: PUT(float, v); break;
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
