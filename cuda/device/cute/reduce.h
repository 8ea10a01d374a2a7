/*
 * cute/reduce.h -- reductions across the threads of a warp and of a block
 * (butterfly shuffles; the block form through a small shared array), the
 * collective step of row-wise kernels (softmax, norms).
 *
 *   float m = cute::warp_reduce(x, cute::max_op{});      // every lane gets it
 *   float s = cute::block_reduce<256>(x, cute::sum_op{}, scratch);
 */
#ifndef CUTE_REDUCE_H
#define CUTE_REDUCE_H

#include <cute/config.h>

#ifndef CUTE_HOST_EMULATION
namespace cute {

struct sum_op { CUTE_DI float operator()(float a, float b) const { return a + b; } };
struct max_op { CUTE_DI float operator()(float a, float b) const { return fmaxf(a, b); } };

template <class Op> CUTE_DI float warp_reduce(float x, Op op) {
#pragma unroll
  for (int o = 16; o > 0; o >>= 1) x = op(x, __shfl_xor_sync(0xffffffffu, x, o));
  return x;
}

/* All THREADS threads (whole warps, a power-of-two count of them) call
 * it; scratch holds THREADS/32 floats of shared memory; every thread gets
 * the result: lane l of every warp combines the warps' partials l % W, so
 * each aligned group of W lanes holds all of them. */
template <int THREADS, class Op>
CUTE_DI float block_reduce(float x, Op op, float *scratch) {
  constexpr int W = THREADS / 32;
  static_assert(THREADS % 32 == 0 && THREADS <= 1024 && (W & (W - 1)) == 0,
                "a power-of-two count of whole warps");
  x = warp_reduce(x, op);
  if (W == 1) return x;
  const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  __syncthreads();                       // scratch may hold the last result
  if (lane == 0) scratch[warp] = x;
  __syncthreads();
  x = scratch[lane % W];
#pragma unroll
  for (int o = W / 2; o > 0; o >>= 1) x = op(x, __shfl_xor_sync(0xffffffffu, x, o));
  return x;
}

}  // namespace cute
#endif

#endif  // CUTE_REDUCE_H
