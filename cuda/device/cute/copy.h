/*
 * cute/copy.h -- moving elements between tensors in vectors.
 *
 * The vector width is the host's decision: V elements per access, where V
 * divides the max common vector of the two layouts (cute.max_common_vector)
 * and the alignment the host checked.  The device only trusts it:
 *
 *   cute::copy<V>(src, dst)       for i < size step V: dst[i..i+V) = src[i..i+V)
 *   cute::copy_if<V>(p, src, dst) the same where p(i) (one predicate per
 *                                 vector: the identity tensor of the tile
 *                                 tested against the extents)
 *   cute::copy_vec<T, V>(s, d)    one access of V elements of T (V*sizeof(T)
 *                                 in 1..16 bytes)
 *
 * src and dst are tensors whose layouts map an index i to an offset, and
 * whose V consecutive indices from a multiple of V are V contiguous
 * elements in both: what max_common_vector >= V guarantees.
 */
#ifndef CUTE_COPY_H
#define CUTE_COPY_H

#include <cute/config.h>
#include <cute/numeric.h>
#include <cute/tensor.h>

namespace cute {

template <class T, int V> CUTE_HD void copy_vec(const T *s, T *d) {
  typedef vec_t<T, V> W;
  *reinterpret_cast<W *>(d) = *reinterpret_cast<const W *>(s);
}

template <class T> struct unconst { typedef T type; };
template <class T> struct unconst<const T> { typedef T type; };

/* Size of a tensor over a static layout (L::size) or a dyn_layout. */
template <class L> CUTE_HD long long layout_size(const L &l) { return l.size(); }

template <int V, class T, class LS, class U, class LD>
CUTE_HD void copy(const tensor<T, LS> &src, const tensor<U, LD> &dst) {
  const long long n = layout_size(src.layout);
#pragma unroll
  for (long long i = 0; i < n; i += V)
    copy_vec<typename unconst<T>::type, V>(&src.ptr[src.layout(i)], &dst.ptr[dst.layout(i)]);
}

template <int V, class P, class T, class LS, class U, class LD>
CUTE_HD void copy_if(const P &pred, const tensor<T, LS> &src, const tensor<U, LD> &dst) {
  const long long n = layout_size(src.layout);
#pragma unroll
  for (long long i = 0; i < n; i += V)
    if (pred(i))
      copy_vec<typename unconst<T>::type, V>(&src.ptr[src.layout(i)], &dst.ptr[dst.layout(i)]);
}

}  // namespace cute

#endif  // CUTE_COPY_H
