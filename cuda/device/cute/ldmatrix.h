/*
 * cute/ldmatrix.h -- the warp-wide 8x8 b16 matrix copies of the catalog:
 * ldmatrix (SM75_U32x{1,2,4}_LDSM_N, SM75_U16x{2,4,8}_LDSM_T) and stmatrix
 * (SM90, the same fragments the other way).
 *
 * ldmatrix .xN: lane 8q + r gives the shared address of row r of matrix q
 * (q < N); lane l receives in register q the elements (l/4, 2(l%4)+{0,1})
 * of matrix q (with .trans: of its transpose).  Rows are 16 contiguous,
 * 16-byte aligned bytes.
 *
 *   unsigned r[4];
 *   cute::ldmatrix_x4(r, smem_u32(tile) + 2 * row_offset);
 */
#ifndef CUTE_LDMATRIX_H
#define CUTE_LDMATRIX_H

#include <cute/config.h>

#ifndef CUTE_HOST_EMULATION
namespace cute {

/* ldmatrix_xN and ldmatrix_xN_trans load N 8x8 b16 matrices into r; the
 * two differ only in the .trans qualifier, so one macro writes both. */
#define CUTE_LDSM(name, qual, n, regs, ...)                                   \
  CUTE_DI void name(unsigned (&r)[n], unsigned s) {                           \
    asm volatile("ldmatrix.sync.aligned." qual ".m8n8.shared.b16 " regs ";"  \
                 : __VA_ARGS__ : "r"(s));                                     \
  }
#define CUTE_LDSM_BOTH(x, n, regs, ...)                                       \
  CUTE_LDSM(ldmatrix_##x, #x, n, regs, __VA_ARGS__)                           \
  CUTE_LDSM(ldmatrix_##x##_trans, #x ".trans", n, regs, __VA_ARGS__)
CUTE_LDSM_BOTH(x1, 1, "{%0}, [%1]", "=r"(r[0]))
CUTE_LDSM_BOTH(x2, 2, "{%0,%1}, [%2]", "=r"(r[0]), "=r"(r[1]))
CUTE_LDSM_BOTH(x4, 4, "{%0,%1,%2,%3}, [%4]",
               "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3]))
#undef CUTE_LDSM_BOTH
#undef CUTE_LDSM

#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
/* stmatrix .x4 (sm_90): lane 8q + r gives the address of row r of matrix
 * q; lane l's register q holds elements (l/4, 2(l%4)+{0,1}) of matrix q. */
CUTE_DI void stmatrix_x4(unsigned s, const unsigned (&r)[4]) {
  asm volatile("stmatrix.sync.aligned.x4.m8n8.shared.b16 [%0], {%1,%2,%3,%4};"
               :: "r"(s), "r"(r[0]), "r"(r[1]), "r"(r[2]), "r"(r[3]));
}
CUTE_DI void stmatrix_x4_trans(unsigned s, const unsigned (&r)[4]) {
  asm volatile("stmatrix.sync.aligned.x4.trans.m8n8.shared.b16 [%0], {%1,%2,%3,%4};"
               :: "r"(s), "r"(r[0]), "r"(r[1]), "r"(r[2]), "r"(r[3]));
}
#endif

}  // namespace cute
#endif

#endif  // CUTE_LDMATRIX_H
