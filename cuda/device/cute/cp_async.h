/*
 * cute/cp_async.h -- the SM80 asynchronous copy atoms of the catalog
 * (SM80_CP_ASYNC_CACHEALWAYS<uint32/64/128_t>, SM80_CP_ASYNC_CACHEGLOBAL
 * <uint128_t>): global -> shared without registers, completed by groups.
 *
 *   cute::cp_async<16>(s, g);          // cp.async.cg, 16 bytes
 *   cute::cp_async_zfill<16>(s, g, ok) // 16 bytes, or zeros when !ok (the
 *                                      // predicated copy of a partial tile:
 *                                      // g is not read then)
 *   cute::cp_async_commit();           // close the group of copies issued
 *   cute::cp_async_wait<N>();          // all but the N newest groups landed
 *
 * Bytes 4 and 8 use .ca (L1-allocating; .cg takes only 16).  Under the host
 * emulation the harness defines these with the same names.
 */
#ifndef CUTE_CP_ASYNC_H
#define CUTE_CP_ASYNC_H

#include <cute/config.h>

#ifndef CUTE_HOST_EMULATION
namespace cute {

template <int B> CUTE_DI void cp_async(unsigned s, const void *g) {
  static_assert(B == 4 || B == 8 || B == 16, "cp.async moves 4, 8 or 16 bytes");
  if constexpr (B == 16)
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16;" :: "r"(s), "l"(g));
  else
    asm volatile("cp.async.ca.shared.global [%0], [%1], %2;" :: "r"(s), "l"(g), "n"(B));
}

template <int B> CUTE_DI void cp_async_zfill(unsigned s, const void *g, bool ok) {
  static_assert(B == 4 || B == 8 || B == 16, "cp.async moves 4, 8 or 16 bytes");
  if constexpr (B == 16)
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;"
                 :: "r"(s), "l"(g), "r"(ok ? 16 : 0));
  else
    asm volatile("cp.async.ca.shared.global [%0], [%1], %2, %3;"
                 :: "r"(s), "l"(g), "n"(B), "r"(ok ? B : 0));
}

CUTE_DI void cp_async_commit() { asm volatile("cp.async.commit_group;"); }

template <int N> CUTE_DI void cp_async_wait() {
  if constexpr (N == 0) asm volatile("cp.async.wait_all;" ::: "memory");
  else asm volatile("cp.async.wait_group %0;" :: "n"(N) : "memory");
}

}  // namespace cute
#endif

#endif  // CUTE_CP_ASYNC_H
