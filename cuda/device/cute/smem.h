/*
 * cute/smem.h -- shared memory as the SM80 copy atoms address it: 32-bit
 * shared-window addresses.
 *
 *   CUTE_SMEM(buf);                         // extern dynamic shared memory
 *   unsigned s = cute::smem_u32(buf) + 2 * offset;
 */
#ifndef CUTE_SMEM_H
#define CUTE_SMEM_H

#include <cute/config.h>

#ifndef CUTE_HOST_EMULATION
#define CUTE_SMEM(name) extern __shared__ __align__(128) unsigned char name[]

namespace cute {
CUTE_DI unsigned smem_u32(const void *p) {
  return (unsigned)__cvta_generic_to_shared(p);
}
}  // namespace cute
#endif

#endif  // CUTE_SMEM_H
