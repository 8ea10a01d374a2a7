/*
 * cute/sm90_tma.h -- the bulk tensor copy engine (TMA, sm_90): a box of a
 * global tensor, described by a tensor map (CUtensorMap, 128 bytes, built
 * on the host by cute.cuda.core.tensor_map from a layout), copied into
 * shared memory and counted on an mbarrier's transaction bytes.
 *
 *   cute::tma_prefetch(map);                        // warm the map's cache
 *   cute::tma_load_2d(dst, map, bar, c0, c1);       // box at (c0, c1)
 *   cute::tma_load_3d(dst, map, bar, c0, c1, c2);
 *
 * `map` is a generic address of the map (global memory or a __grid_constant__
 * parameter); `dst` and `bar` are shared-window addresses; coordinates are
 * elements, c0 along the map's contiguous dimension.  Elements outside the
 * tensor arrive as zeros, so residue tiles need no predicate on the load.
 * The box lands swizzled as the map says (128-byte swizzle: 16-byte chunks
 * XOR row mod 8), so `dst` must be aligned to the swizzle's 8 rows.
 */
#ifndef CUTE_SM90_TMA_H
#define CUTE_SM90_TMA_H

#include <cute/config.h>

namespace cute {

CUTE_DI void tma_prefetch(const void *map) {
  asm volatile("prefetch.tensormap [%0];" :: "l"(map) : "memory");
}

CUTE_DI void tma_load_2d(u32 dst, const void *map, u32 bar, int c0, int c1) {
  asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes"
               " [%0], [%1, {%3, %4}], [%2];"
               :: "r"(dst), "l"(map), "r"(bar), "r"(c0), "r"(c1) : "memory");
}

CUTE_DI void tma_load_3d(u32 dst, const void *map, u32 bar, int c0, int c1, int c2) {
  asm volatile("cp.async.bulk.tensor.3d.shared::cluster.global.mbarrier::complete_tx::bytes"
               " [%0], [%1, {%3, %4, %5}], [%2];"
               :: "r"(dst), "l"(map), "r"(bar), "r"(c0), "r"(c1), "r"(c2) : "memory");
}

}  // namespace cute

#endif  // CUTE_SM90_TMA_H
