/*
 * cute/numeric.h -- element types of kernels: bf16_t and half_t as their
 * bit patterns (the layout of buffers of dtype "bf16" / "f16"), with float
 * conversions from cute/convert.h, and packed pairs for tensor-core
 * fragments.  No cuda_bf16.h / cuda_fp16.h needed (they are not in
 * NVRTC's default path and take longer to compile than a whole kernel).
 *
 *   cute::bf16_t x(1.5f);  float y = x;       // 1.5
 *   cute::pack_bf16x2(1.f, 2.f) == 0x40003f80 // low half first
 */
#ifndef CUTE_NUMERIC_H
#define CUTE_NUMERIC_H

#include <cute/config.h>
#include <cute/convert.h>

namespace cute {

struct bf16_t {
  unsigned short bits;
  bf16_t() = default;
  CUTE_HD explicit bf16_t(float f) : bits(cute_f32_to_bf16(f)) {}
  CUTE_HD operator float() const { return cute_bf16_to_f32(bits); }
  CUTE_HD static bf16_t from_bits(unsigned short b) { bf16_t x; x.bits = b; return x; }
};

struct half_t {
  unsigned short bits;
  half_t() = default;
  CUTE_HD explicit half_t(float f) : bits(cute_f32_to_f16(f)) {}
  CUTE_HD operator float() const { return cute_f16_to_f32(bits); }
  CUTE_HD static half_t from_bits(unsigned short b) { half_t x; x.bits = b; return x; }
};

/* to_float / from_float: one spelling for every element type. */
CUTE_HD float to_float(float x) { return x; }
CUTE_HD float to_float(bf16_t x) { return cute_bf16_to_f32(x.bits); }
CUTE_HD float to_float(half_t x) { return cute_f16_to_f32(x.bits); }
template <class T> CUTE_HD T from_float(float x) { return T(x); }

/* Two 16-bit values in one 32-bit register, the first in the low half (the
 * order of mma.sync fragments and of memory). */
CUTE_HD unsigned pack_bf16x2(float lo, float hi) {
  return (unsigned)cute_f32_to_bf16(lo) | ((unsigned)cute_f32_to_bf16(hi) << 16);
}
CUTE_HD unsigned pack_f16x2(float lo, float hi) {
  return (unsigned)cute_f32_to_f16(lo) | ((unsigned)cute_f32_to_f16(hi) << 16);
}

/* An aligned vector of N elements of T: what one memory instruction moves
 * (N * sizeof(T) is 1, 2, 4, 8 or 16 bytes). */
template <class T, int N> struct alignas(sizeof(T) * N) vec_t {
  T v[N];
  CUTE_HD T &operator[](int i) { return v[i]; }
  CUTE_HD const T &operator[](int i) const { return v[i]; }
};

}  // namespace cute

#endif  // CUTE_NUMERIC_H
