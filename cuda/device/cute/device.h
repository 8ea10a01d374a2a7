/*
 * cute/device.h -- the device library of cutelua, all of it: include this
 * in a kernel given to cute.cuda.kernel (the headers are built into
 * cutelua and handed to NVRTC by name; nothing from CUTLASS or the CUDA
 * toolkit's headers is needed).
 *
 *   cute/config.h     CUTE_DI, INFINITY, NAN
 *   cute/convert.h    f32 <-> bf16 / f16 rounding (shared with the host)
 *   cute/numeric.h    bf16_t, half_t, packed pairs, vec_t
 *   cute/layout.h     coord, dyn_layout (run-time extents), identity
 *   cute/tensor.h     tensor, fragment, coord_tensor, local_tile,
 *                     local_partition
 *   cute/copy.h       copy<V>, copy_if<V> (vector width chosen by the host)
 *   cute/smem.h       CUTE_SMEM, smem_u32
 *   cute/cp_async.h   cp.async (+ zero-fill), commit, wait
 *   cute/ldmatrix.h   ldmatrix, stmatrix
 *   cute/mma_sm80.h   mma.sync f16 / bf16 / tf32 / f64
 *   cute/reduce.h     warp and block reductions
 *
 * The layouts themselves come from the script: cute.cuda.codegen turns
 * each into straight-line code (shape and strides as literals), so the
 * algebra runs on the host and NVRTC sees no templates of it.
 */
#ifndef CUTE_DEVICE_H
#define CUTE_DEVICE_H

#include <cute/config.h>
#include <cute/convert.h>
#include <cute/numeric.h>
#include <cute/layout.h>
#include <cute/tensor.h>
#include <cute/copy.h>
#include <cute/smem.h>
#include <cute/cp_async.h>
#include <cute/ldmatrix.h>
#include <cute/mma_sm80.h>
#include <cute/reduce.h>

#endif  // CUTE_DEVICE_H
