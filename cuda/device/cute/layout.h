/*
 * cute/layout.h -- layouts inside a kernel.
 *
 * A static layout is code the script generated (cute.cuda.codegen): a
 * straight-line function of its coordinates whose shape and strides are
 * literals, wrapped as a type NAME_Layout with operator(), size and cosize.
 * This header adds what a kernel needs for the run-time part of a problem:
 *
 *   coord<R, I>          a coordinate (the value of an identity layout)
 *   dyn_layout<R, I>     a flat rank-R layout whose shape and strides are
 *                        kernel arguments (the global tensors of a GEMM
 *                        for any M, N, K); offsets in I (int when the host
 *                        proved that the tensor's offsets fit in 31 bits,
 *                        long long otherwise)
 *   identity<R>          the identity layout of a shape: c -> c
 *
 *   cute::dyn_layout<2> A{{M, K}, {K, 1}};   // (M,K):(K,1), M, K at run time
 *   A(m, k) == m * K + k
 */
#ifndef CUTE_LAYOUT_H
#define CUTE_LAYOUT_H

#include <cute/config.h>

namespace cute {

template <int R, class I = int> struct coord {
  I v[R];
  CUTE_HD I &operator[](int k) { return v[k]; }
  CUTE_HD const I &operator[](int k) const { return v[k]; }
};

/* Coordinates add like CuTe's arithmetic tuples: a shorter one is padded
 * with zeros (a partition of an identity layout that never moves along
 * mode 1 has a rank-1 codomain: (4,1):(32@0,0)). */
template <int R, int S, class I>
CUTE_HD coord<(R > S ? R : S), I> operator+(const coord<R, I> &a, const coord<S, I> &b) {
  coord<(R > S ? R : S), I> r;
#pragma unroll
  for (int k = 0; k < (R > S ? R : S); ++k)
    r[k] = (k < R ? a[k] : I(0)) + (k < S ? b[k] : I(0));
  return r;
}

/* Component K of c, 0 past its rank (the same padding as +). */
template <int K, int R, class I> CUTE_HD I get(const coord<R, I> &c) {
  if constexpr (K < R) return c[K];
  else return I(0);
}

/* Each component of c below the matching extent: the predicate of an
 * element of a partial tile (CuTe's elem_less). */
template <int R, class I, class J>
CUTE_HD bool elem_less(const coord<R, I> &c, const coord<R, J> &shape) {
  bool ok = true;
#pragma unroll
  for (int k = 0; k < R; ++k) ok = ok && (long long)c[k] < (long long)shape[k];
  return ok;
}

template <int R, class I = int> struct dyn_layout {
  int shape[R];
  I stride[R];

  CUTE_HD I operator()(const coord<R, int> &c) const {
    I r = 0;
#pragma unroll
    for (int k = 0; k < R; ++k) r += (I)c[k] * stride[k];
    return r;
  }
  template <class... C> CUTE_HD I operator()(C... c) const {
    static_assert(sizeof...(C) == R, "one coordinate per mode");
    coord<R, int> x{{(int)c...}};
    return (*this)(x);
  }
  CUTE_HD long long size() const {
    long long n = 1;
#pragma unroll
    for (int k = 0; k < R; ++k) n *= shape[k];
    return n;
  }
  CUTE_HD coord<R, int> extents() const {
    coord<R, int> c;
#pragma unroll
    for (int k = 0; k < R; ++k) c[k] = shape[k];
    return c;
  }
};

template <int R> struct identity {
  coord<R, int> shape;
  template <class... C> CUTE_HD coord<R, int> operator()(C... c) const {
    return coord<R, int>{{(int)c...}};
  }
};

}  // namespace cute

#endif  // CUTE_LAYOUT_H
