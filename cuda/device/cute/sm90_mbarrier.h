/*
 * cute/sm90_mbarrier.h -- shared-memory transaction barriers (sm_90): the
 * full/empty pairs of a multi-stage pipeline.  A barrier completes a phase
 * when its expected arrivals have arrived and, for a TMA stage, when the
 * bytes announced by expect_tx have landed; waiters name the phase parity.
 *
 *   cute::mbar_init(bar, arrivals);        // one thread, before a CTA barrier
 *   cute::mbar_fence_init();               // makes the inits visible
 *   cute::mbar_expect_tx(bar, bytes);      // arrive + announce TMA bytes
 *   cute::mbar_arrive(bar);                // arrive
 *   cute::mbar_wait(bar, parity);          // spin until the phase completes
 *
 * `bar` is a 32-bit shared-window address (cute::smem_u32) of 8 bytes.
 * A fresh barrier is in phase 0: waiting for parity 1 returns at once,
 * which is how a producer finds every stage of a new ring empty.
 */
#ifndef CUTE_SM90_MBARRIER_H
#define CUTE_SM90_MBARRIER_H

#include <cute/config.h>

namespace cute {

CUTE_DI void mbar_init(u32 bar, u32 arrivals) {
  asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" :: "r"(bar), "r"(arrivals));
}

CUTE_DI void mbar_fence_init() {
  asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
}

CUTE_DI void mbar_expect_tx(u32 bar, u32 bytes) {
  asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;"
               :: "r"(bar), "r"(bytes) : "memory");
}

CUTE_DI void mbar_arrive(u32 bar) {
  asm volatile("mbarrier.arrive.shared::cta.b64 _, [%0];" :: "r"(bar) : "memory");
}

CUTE_DI bool mbar_try_wait(u32 bar, u32 parity) {
  u32 ok;
  asm volatile("{ .reg .pred p; mbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2; "
               "selp.u32 %0, 1, 0, p; }"
               : "=r"(ok) : "r"(bar), "r"(parity) : "memory");
  return ok != 0;
}

CUTE_DI void mbar_wait(u32 bar, u32 parity) {
  while (!mbar_try_wait(bar, parity)) {
  }
}

}  // namespace cute

#endif  // CUTE_SM90_MBARRIER_H
