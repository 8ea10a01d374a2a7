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

/* A 16-bit float held as its bits (the memory format); Codec converts to
 * and from f32, rounding to nearest even (cute/convert.h). */
template <class Codec> struct float16_bits {
  unsigned short bits;
  float16_bits() = default;
  CUTE_HD explicit float16_bits(float f) : bits(Codec::encode(f)) {}
  CUTE_HD operator float() const { return Codec::decode(bits); }
  CUTE_HD static float16_bits from_bits(unsigned short b) {
    float16_bits x;
    x.bits = b;
    return x;
  }
};
struct bf16_codec {
  CUTE_HD static unsigned short encode(float f) { return cute_f32_to_bf16(f); }
  CUTE_HD static float decode(unsigned short b) { return cute_bf16_to_f32(b); }
};
struct f16_codec {
  CUTE_HD static unsigned short encode(float f) { return cute_f32_to_f16(f); }
  CUTE_HD static float decode(unsigned short b) { return cute_f16_to_f32(b); }
};
typedef float16_bits<bf16_codec> bf16_t;
typedef float16_bits<f16_codec> half_t;

/* to_float / from_float: one spelling for every element type. */
CUTE_HD float to_float(float x) { return x; }
template <class C> CUTE_HD float to_float(float16_bits<C> x) { return float(x); }
template <class T> CUTE_HD T from_float(float x) { return T(x); }

/* Two 16-bit values in one 32-bit register, the first in the low half (the
 * order of mma.sync fragments and of memory). */
template <class C> CUTE_HD unsigned pack_x2(float lo, float hi) {
  return (unsigned)C::encode(lo) | ((unsigned)C::encode(hi) << 16);
}
CUTE_HD unsigned pack_bf16x2(float lo, float hi) { return pack_x2<bf16_codec>(lo, hi); }
CUTE_HD unsigned pack_f16x2(float lo, float hi) { return pack_x2<f16_codec>(lo, hi); }

/* An aligned vector of N elements of T: what one memory instruction moves
 * (N * sizeof(T) is 1, 2, 4, 8 or 16 bytes). */
template <class T, int N> struct alignas(sizeof(T) * N) vec_t {
  T v[N];
  CUTE_HD T &operator[](int i) { return v[i]; }
  CUTE_HD const T &operator[](int i) const { return v[i]; }
};

}  // namespace cute

#endif  // CUTE_NUMERIC_H
