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

CUTE_DI void ldmatrix_x1(unsigned (&r)[1], unsigned s) {
  asm volatile("ldmatrix.sync.aligned.x1.m8n8.shared.b16 {%0}, [%1];"
               : "=r"(r[0]) : "r"(s));
}
CUTE_DI void ldmatrix_x2(unsigned (&r)[2], unsigned s) {
  asm volatile("ldmatrix.sync.aligned.x2.m8n8.shared.b16 {%0,%1}, [%2];"
               : "=r"(r[0]), "=r"(r[1]) : "r"(s));
}
CUTE_DI void ldmatrix_x4(unsigned (&r)[4], unsigned s) {
  asm volatile("ldmatrix.sync.aligned.x4.m8n8.shared.b16 {%0,%1,%2,%3}, [%4];"
               : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3]) : "r"(s));
}
CUTE_DI void ldmatrix_x1_trans(unsigned (&r)[1], unsigned s) {
  asm volatile("ldmatrix.sync.aligned.x1.trans.m8n8.shared.b16 {%0}, [%1];"
               : "=r"(r[0]) : "r"(s));
}
CUTE_DI void ldmatrix_x2_trans(unsigned (&r)[2], unsigned s) {
  asm volatile("ldmatrix.sync.aligned.x2.trans.m8n8.shared.b16 {%0,%1}, [%2];"
               : "=r"(r[0]), "=r"(r[1]) : "r"(s));
}
CUTE_DI void ldmatrix_x4_trans(unsigned (&r)[4], unsigned s) {
  asm volatile("ldmatrix.sync.aligned.x4.trans.m8n8.shared.b16 {%0,%1,%2,%3}, [%4];"
               : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3]) : "r"(s));
}

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
