/*
 * tma.c -- the tensor maps of the bulk tensor copy engine (TMA, sm_90+):
 * a tiled view of a global tensor encoded by the driver into the opaque
 * 128-byte CUtensorMap that cp.async.bulk.tensor reads.
 *
 * The checks here are the driver's documented preconditions, made into
 * messages that name the operand: a script gets "rank 3: stride of dim 1
 * is 8190 bytes, not a multiple of 16" instead of CUDA_ERROR_INVALID_VALUE.
 */
#include "cute_cuda_internal.h"

#include <stdint.h>
#include <string.h>

/* CUtensorMapDataType of each dtype; i8/i16 copy as u8/u16 (bits). */
static int tma_dtype(cute_cuda_dtype t)
{
  static const int map[CUTE_CUDA_DTYPE_COUNT] = {
    6 /* f16 */, 9 /* bf16 */, 7 /* f32 */, 8 /* f64 */,
    0 /* i8 */, 1 /* i16 */, 3 /* i32 */, 5 /* i64 */,
    0 /* u8 */, 1 /* u16 */, 2 /* u32 */, 4 /* u64 */, 11 /* tf32 */};
  return map[t];
}

#define TMA_FAIL(...) cucu_fail(err, CUTE_CUDA_EINVAL, "cute.cuda: tensor_map: " __VA_ARGS__)

/* The driver's preconditions on a tiled view (cuTensorMapEncodeTiled). */
static cute_cuda_status check_map(const cute_cuda_tma *m, int esize,
                                  cute_cuda_error *err)
{
  unsigned long long inner = m->box[0] * (unsigned long long)esize;
  int i;
  if (m->rank < 1 || m->rank > CUTE_CUDA_TMA_MAX_RANK)
    return TMA_FAIL("rank %d outside 1..%d", m->rank, CUTE_CUDA_TMA_MAX_RANK);
  if (m->base % 16)
    return TMA_FAIL("base address 0x%llx is not 16-byte aligned", m->base);
  if (m->swizzle != 0 && m->swizzle != 32 && m->swizzle != 64 &&
      m->swizzle != 128)
    return TMA_FAIL("swizzle of %d bytes: not 0, 32, 64 or 128", m->swizzle);
  for (i = 0; i < m->rank; i++) {
    if (m->dims[i] < 1 || m->dims[i] > (1ull << 32))
      return TMA_FAIL("dim %d has extent %llu, outside 1..2^32", i,
                      m->dims[i]);
    if (m->box[i] < 1 || m->box[i] > 256)
      return TMA_FAIL("dim %d: box extent %llu outside 1..256", i,
                      m->box[i]);
    if (i > 0 && (m->strides[i] % 16 || m->strides[i] >= (1ull << 40)))
      return TMA_FAIL("the stride of dim %d is %llu bytes, not a multiple of "
                      "16 below 2^40", i, m->strides[i]);
  }
  if (inner % 16)
    return TMA_FAIL("the inner box is %llu bytes, not a multiple of 16",
                    inner);
  if (m->swizzle && inner > (unsigned long long)m->swizzle)
    return TMA_FAIL("the inner box is %llu bytes, wider than the %d-byte "
                    "swizzle", inner, m->swizzle);
  return CUTE_CUDA_OK;
}

cute_cuda_status cute_cuda_tensor_map(unsigned char out[128],
                                      const cute_cuda_tma *m,
                                      cute_cuda_error *err)
{
  unsigned long long strides[CUTE_CUDA_TMA_MAX_RANK];
  unsigned box[CUTE_CUDA_TMA_MAX_RANK], ones[CUTE_CUDA_TMA_MAX_RANK];
  unsigned char map[128] __attribute__((aligned(64)));
  int i, swz, esize;
  cute_cuda_status s;
  if ((unsigned)m->dtype >= CUTE_CUDA_DTYPE_COUNT)
    return TMA_FAIL("unknown dtype %d", (int)m->dtype);
  esize = cute_cuda_dtype_size(m->dtype);
  if ((s = check_map(m, esize, err)) != CUTE_CUDA_OK) return s;
  if ((s = cute_cuda_driver_load(err)) != CUTE_CUDA_OK) return s;
  for (i = 0; i < m->rank; i++) {
    strides[i] = m->strides[i];
    box[i] = (unsigned)m->box[i];
    ones[i] = 1;
  }
  swz = m->swizzle == 0 ? 0 : m->swizzle == 32 ? 1 : m->swizzle == 64 ? 2 : 3;
  /* interleave none, L2 promotion 256 B, out-of-bounds elements read 0 */
  CUCU_TRY(err, "cuTensorMapEncodeTiled",
           cucu_cu.TensorMapEncodeTiled(map, tma_dtype(m->dtype),
                                        (unsigned)m->rank,
                                        (void *)(uintptr_t)m->base, m->dims,
                                        strides + 1, box, ones, 0, swz, 3,
                                        0));
  memcpy(out, map, sizeof map);
  return CUTE_CUDA_OK;
}
