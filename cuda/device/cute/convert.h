/*
 * cute/convert.h -- f32 <-> bf16 and f16 bit patterns, rounded to nearest
 * even, NaN kept NaN.  The one definition of these conversions: kernels
 * (through cute/numeric.h), the host emulation, and the bridge's host C
 * (cuda/dtype.c includes this file), so a value rounds the same wherever
 * it is converted.  Valid C99 and C++; on the device the f32 -> 16-bit
 * direction is the cvt instruction, which rounds the same way.
 *
 *   cute_f32_to_bf16(1.00390625f) == 0x3f80   (tie: to even)
 *   cute_f32_to_f16(65520.f)      == 0x7c00   (rounds to infinity)
 *   cute_f16_to_f32(0x0001)       == 2^-24    (smallest subnormal)
 */
#ifndef CUTE_CONVERT_H
#define CUTE_CONVERT_H

#if defined(__CUDACC__) || defined(__CUDACC_RTC__)
#define CUTE_CVT static __host__ __device__ __forceinline__
#else
#define CUTE_CVT static inline
#endif

typedef union cute_fbits { unsigned u; float f; } cute_fbits;

CUTE_CVT float cute_bf16_to_f32(unsigned short h)
{
  cute_fbits v;
  v.u = (unsigned)h << 16;
  return v.f;
}

CUTE_CVT unsigned short cute_f32_to_bf16(float f)
{
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  unsigned short h;
  asm("cvt.rn.bf16.f32 %0, %1;" : "=h"(h) : "f"(f));
  return h;
#else
  cute_fbits v;
  v.f = f;
  if ((v.u & 0x7fffffffu) > 0x7f800000u)
    return (unsigned short)((v.u >> 16) | 0x40u);
  return (unsigned short)((v.u + 0x7fffu + ((v.u >> 16) & 1u)) >> 16);
#endif
}

CUTE_CVT float cute_f16_to_f32(unsigned short h)
{
  unsigned s = (unsigned)(h & 0x8000u) << 16, e = (h >> 10) & 0x1fu;
  unsigned m = h & 0x3ffu;
  cute_fbits v;
  if (e == 0x1fu) {
    v.u = s | 0x7f800000u | (m << 13);
  } else if (e != 0) {
    v.u = s | ((e + 112u) << 23) | (m << 13);
  } else {                      /* subnormal: m * 2^-24, exact in f32 */
    v.f = (float)m * 5.9604644775390625e-8f;
    v.u |= s;
  }
  return v.f;
}

/* Integer rounding of the significand: q = mant >> shift, to nearest, ties
 * to even. */
CUTE_CVT unsigned cute_round_shift(unsigned mant, unsigned shift)
{
  unsigned q = mant >> shift, rem = mant & ((1u << shift) - 1u);
  unsigned half = 1u << (shift - 1u);
  return q + (rem > half || (rem == half && (q & 1u)));
}

CUTE_CVT unsigned short cute_f32_to_f16(float f)
{
#if defined(__CUDA_ARCH__)
  unsigned short h;
  asm("cvt.rn.f16.f32 %0, %1;" : "=h"(h) : "f"(f));
  return h;
#else
  cute_fbits v;
  unsigned s, a, e;
  v.f = f;
  s = (v.u >> 16) & 0x8000u;
  a = v.u & 0x7fffffffu;
  e = a >> 23;
  if (a > 0x7f800000u) return (unsigned short)(s | 0x7e00u);     /* NaN */
  if (a >= 0x477ff000u) return (unsigned short)(s | 0x7c00u);    /* inf */
  if (e >= 113u)                                 /* normal half: 13 bits */
    return (unsigned short)(s | cute_round_shift(a - 0x38000000u, 13u));
  if (e < 102u) return (unsigned short)s;        /* below 2^-25: zero   */
  /* subnormal half: (1.m * 2^(e-127)) * 2^24 = mant >> (126 - e) */
  return (unsigned short)(s | cute_round_shift((a & 0x7fffffu) | 0x800000u,
                                               126u - e));
#endif
}

#endif /* CUTE_CONVERT_H */
