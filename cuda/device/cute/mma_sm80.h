/*
 * cute/mma_sm80.h -- the SM80 mma.sync atoms of the catalog (D = A B + C,
 * one warp, fragments as in PTX ISA 9.7.14.5; A row-major, B column-major):
 *
 *   mma_16x8x16_f32bf16 / _f32f16   d[4] += a[4] (8 bf16/f16) * b[2]
 *   mma_16x8x16_f16f16              d[2] (f16x2) += a[4] * b[2]
 *   mma_16x8x8_f32tf32              d[4] += a[4] (tf32 in f32 regs) * b[2]
 *   mma_16x8x8_f16f16               d[2] += a[2] * b[1]
 *   mma_8x8x4_f64                   d[2] += a[1] * b[1]  (doubles)
 *
 * Which thread holds which element is the atom's TV layout in the catalog
 * (cute.atom): the script partitions with it, the device only issues.
 */
#ifndef CUTE_MMA_SM80_H
#define CUTE_MMA_SM80_H

#include <cute/config.h>

#ifndef CUTE_HOST_EMULATION
namespace cute {

#define CUTE_MMA_F32_16x8(name, ty, k)                                        \
  CUTE_DI void name(float (&d)[4], const unsigned (&a)[4], const unsigned (&b)[2]) { \
    asm volatile("mma.sync.aligned.m16n8k" #k ".row.col.f32." ty "." ty ".f32 " \
                 "{%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};"      \
                 : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])             \
                 : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1])); \
  }
CUTE_MMA_F32_16x8(mma_16x8x16_f32bf16, "bf16", 16)
CUTE_MMA_F32_16x8(mma_16x8x16_f32f16, "f16", 16)
CUTE_MMA_F32_16x8(mma_16x8x8_f32tf32, "tf32", 8)
#undef CUTE_MMA_F32_16x8

CUTE_DI void mma_16x8x16_f16f16(unsigned (&d)[2], const unsigned (&a)[4],
                                const unsigned (&b)[2]) {
  asm volatile("mma.sync.aligned.m16n8k16.row.col.f16.f16.f16.f16 "
               "{%0,%1}, {%2,%3,%4,%5}, {%6,%7}, {%0,%1};"
               : "+r"(d[0]), "+r"(d[1])
               : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
}

CUTE_DI void mma_16x8x8_f16f16(unsigned (&d)[2], const unsigned (&a)[2],
                               const unsigned (&b)[1]) {
  asm volatile("mma.sync.aligned.m16n8k8.row.col.f16.f16.f16.f16 "
               "{%0,%1}, {%2,%3}, {%4}, {%0,%1};"
               : "+r"(d[0]), "+r"(d[1]) : "r"(a[0]), "r"(a[1]), "r"(b[0]));
}

CUTE_DI void mma_8x8x4_f64(double (&d)[2], const double (&a)[1],
                           const double (&b)[1]) {
  asm volatile("mma.sync.aligned.m8n8k4.row.col.f64.f64.f64.f64 "
               "{%0,%1}, {%2}, {%3}, {%0,%1};"
               : "+d"(d[0]), "+d"(d[1]) : "d"(a[0]), "d"(b[0]));
}

/* f32 -> tf32 (round to nearest, ties away), the operand form of tf32 MMAs. */
CUTE_DI unsigned to_tf32(float x) {
  unsigned r;
  asm("cvt.rna.tf32.f32 %0, %1;" : "=r"(r) : "f"(x));
  return r;
}

}  // namespace cute
#endif

#endif  // CUTE_MMA_SM80_H
