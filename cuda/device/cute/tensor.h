/*
 * cute/tensor.h -- tensors inside a kernel: a pointer (or registers) and a
 * layout, the paper's T = p o L.
 *
 *   tensor<T, L>          pointer + layout: a generated static layout
 *                         (NAME_Layout from cute.cuda.codegen) or a
 *                         dyn_layout whose extents are kernel arguments
 *   fragment<T, L>        registers shaped by a static layout: L::cosize
 *                         values, indexed through L (constant indices once
 *                         unrolled, so they stay in registers)
 *   coord_tensor<R>       an identity tensor: the coordinate of each
 *                         element, for predicating partial tiles
 *
 * Tiling and partitioning by run-time coordinates (block and thread
 * indices) of a tensor with run-time strides; the tile shape is static:
 *
 *   auto gA = cute::local_tile<128, 64>(mA, {blockIdx.x, k});   // ((128,64)
 *                                        // tile of (M,K) at tile (bx, k)
 *   auto tA = cute::local_partition<16, 8>(gA, {t / 8, t % 8});  // thread's
 *                                        // (128/16, 64/8) elements
 *   auto cA = cute::local_tile<128, 64>(cute::make_identity(mA), {...});
 *   if (cute::elem_less(cA(i, j), mA.layout.extents())) ...    // in bounds
 *
 * Tiles of a (M,K) tensor are zipped_divide(T, (128,64)) sliced at the
 * rest coordinate; local_partition is the outer partition of the tile by
 * the thread shape (CuTe's local_partition with a row-major thread layout
 * given as the thread's coordinate).  Tiles past the residue keep the
 * full static shape: predication decides which elements exist.
 */
#ifndef CUTE_TENSOR_H
#define CUTE_TENSOR_H

#include <cute/config.h>
#include <cute/layout.h>

namespace cute {

template <class T, class L> struct tensor {
  T *ptr;
  L layout;
  template <class... C> CUTE_HD T &operator()(C... c) const {
    return ptr[layout(c...)];
  }
};

template <class T, class L> CUTE_HD tensor<T, L> make_tensor(T *p, L l) {
  return tensor<T, L>{p, l};
}

template <class T, class L> struct fragment {
  T v[L::cosize];
  template <class... C> CUTE_HD T &operator()(C... c) { return v[L{}(c...)]; }
  template <class... C> CUTE_HD const T &operator()(C... c) const {
    return v[L{}(c...)];
  }
  CUTE_HD void fill(T x) {
#pragma unroll
    for (int i = 0; i < (int)L::cosize; ++i) v[i] = x;
  }
};

template <int R> struct coord_tensor {
  coord<R, int> origin;
  coord<R, int> step;    // 1 per mode, or the thread count of a partition
  template <class... C> CUTE_HD coord<R, int> operator()(C... c) const {
    coord<R, int> x{{(int)c...}}, r;
#pragma unroll
    for (int k = 0; k < R; ++k) r[k] = origin[k] + x[k] * step[k];
    return r;
  }
};

template <class T, int R, class I>
CUTE_HD coord_tensor<R> make_identity(const tensor<T, dyn_layout<R, I>> &) {
  coord_tensor<R> c;
#pragma unroll
  for (int k = 0; k < R; ++k) { c.origin[k] = 0; c.step[k] = 1; }
  return c;
}

template <int... B, class T, int R, class I>
CUTE_HD tensor<T, dyn_layout<R, I>> local_tile(const tensor<T, dyn_layout<R, I>> &t,
                                               const coord<R, int> &blk) {
  static_assert(sizeof...(B) == R, "one tile extent per mode");
  const int b[R] = {B...};
  tensor<T, dyn_layout<R, I>> r = t;
#pragma unroll
  for (int k = 0; k < R; ++k) {
    r.ptr += (I)blk[k] * (I)b[k] * t.layout.stride[k];
    r.layout.shape[k] = b[k];
  }
  return r;
}

template <int... B, int R>
CUTE_HD coord_tensor<R> local_tile(const coord_tensor<R> &t, const coord<R, int> &blk) {
  const int b[R] = {B...};
  coord_tensor<R> r = t;
#pragma unroll
  for (int k = 0; k < R; ++k) r.origin[k] += blk[k] * b[k] * t.step[k];
  return r;
}

template <int... P, class T, int R, class I>
CUTE_HD tensor<T, dyn_layout<R, I>> local_partition(const tensor<T, dyn_layout<R, I>> &t,
                                                    const coord<R, int> &thr) {
  static_assert(sizeof...(P) == R, "one thread extent per mode");
  const int p[R] = {P...};
  tensor<T, dyn_layout<R, I>> r = t;
#pragma unroll
  for (int k = 0; k < R; ++k) {
    r.ptr += (I)thr[k] * t.layout.stride[k];
    r.layout.shape[k] = t.layout.shape[k] / p[k];
    r.layout.stride[k] = t.layout.stride[k] * p[k];
  }
  return r;
}

template <int... P, int R>
CUTE_HD coord_tensor<R> local_partition(const coord_tensor<R> &t, const coord<R, int> &thr) {
  const int p[R] = {P...};
  coord_tensor<R> r = t;
#pragma unroll
  for (int k = 0; k < R; ++k) {
    r.origin[k] += thr[k] * t.step[k];
    r.step[k] = t.step[k] * p[k];
  }
  return r;
}

}  // namespace cute

#endif  // CUTE_TENSOR_H
