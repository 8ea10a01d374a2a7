/*
 * cute/config.h -- what every header of the device library assumes.
 *
 * The library is compiled by NVRTC from the headers embedded in cutelua
 * (no include path, nothing from the CUDA toolkit), and by a host C++
 * compiler under the host emulation (CUTE_HOST_EMULATION defined by the
 * harness, which also defines CUTE_DI and the CUDA built-ins it needs).
 *
 *   CUTE_DI     a device function, always inlined
 *   CUTE_HD     callable from host and device
 *   INFINITY, NAN   as in <math.h>, which NVRTC does not provide
 */
#ifndef CUTE_CONFIG_H
#define CUTE_CONFIG_H

#ifndef CUTE_DI
#define CUTE_DI __device__ __forceinline__
#endif
#ifndef CUTE_HD
#if defined(__CUDACC__) || defined(__CUDACC_RTC__)
#define CUTE_HD __host__ __device__ __forceinline__
#else
#define CUTE_HD inline
#endif
#endif

#if defined(__CUDACC_RTC__) || defined(__CUDA_ARCH__)
#ifndef INFINITY
#define INFINITY __int_as_float(0x7f800000)
#endif
#ifndef NAN
#define NAN __int_as_float(0x7fffffff)
#endif
#else
#include <math.h>
#endif

namespace cute {
typedef long long i64;
typedef unsigned long long u64;
typedef unsigned u32;
}  // namespace cute

#endif  // CUTE_CONFIG_H
