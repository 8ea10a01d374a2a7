/*
 * cute/sm90_wgmma.h -- what surrounds the warpgroup MMA (wgmma, sm_90a):
 * shared-memory matrix descriptors, the fence before a wgmma that reads
 * registers written otherwise, commit and wait of wgmma groups, and the
 * register reallocation of warp-specialised kernels.
 *
 *   u64 d = cute::wgmma_desc(hi, smem_u32(tile) + offset);
 *   cute::wgmma_fence();  ...wgmma...;  cute::wgmma_commit();
 *   cute::wgmma_wait<1>();                 // all but the newest group done
 *   cute::setmaxnreg_dec<40>(); cute::setmaxnreg_inc<232>();
 *
 * `hi` is a descriptor without its start address -- swizzle mode (bits
 * 62-63), stride and leading byte offsets (>> 4, bits 32-45 and 16-29) --
 * which the script derives from the swizzled shared-memory layout
 * (cute.gemm_sm90.descriptor); the start address (>> 4, bits 0-13) is
 * added here.  The wgmma instruction itself, with its N/2 accumulator
 * registers, is generated per shape by the script.
 */
#ifndef CUTE_SM90_WGMMA_H
#define CUTE_SM90_WGMMA_H

#include <cute/config.h>

namespace cute {

CUTE_DI u64 wgmma_desc(u64 hi, u32 addr) { return hi | (u64)((addr & 0x3FFFFu) >> 4); }

CUTE_DI void wgmma_fence() { asm volatile("wgmma.fence.sync.aligned;" ::: "memory"); }

CUTE_DI void wgmma_commit() { asm volatile("wgmma.commit_group.sync.aligned;" ::: "memory"); }

template <int N> CUTE_DI void wgmma_wait() {
  asm volatile("wgmma.wait_group.sync.aligned %0;" :: "n"(N) : "memory");
}

template <int R> CUTE_DI void setmaxnreg_dec() {
  asm volatile("setmaxnreg.dec.sync.aligned.u32 %0;" :: "n"(R));
}

template <int R> CUTE_DI void setmaxnreg_inc() {
  asm volatile("setmaxnreg.inc.sync.aligned.u32 %0;" :: "n"(R));
}

}  // namespace cute

#endif  // CUTE_SM90_WGMMA_H
