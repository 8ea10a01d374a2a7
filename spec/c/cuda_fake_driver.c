/*
 * cuda_fake_driver.c -- libcuda.so.1 for machines without a GPU: the
 * driver entry points cuda/loader.c binds, over host memory.  The build
 * puts it at <build>/spec/fakecuda/lib64/libcuda.so.1; a process started
 * with CUDA_HOME=<build>/spec/fakecuda loads it in place of the driver.
 *
 * Why: the Lua layer's argument checks see real Buffers, Tensors, Launch
 * handles, Streams and Events only once a driver has made them, and CI
 * has none.  Under this library every cute.cuda call runs to the driver,
 * so a check that refuses what a GPU script passes fails in CI, not on
 * the GPU machine.  Kernels do not run (cuLaunchKernel counts launches,
 * nothing more): results are not checked against it.
 *
 *   device 0: "cutelua fake driver", compute capability 9.0
 */
#define _POSIX_C_SOURCE 200809L /* clock_gettime */

#include <stdlib.h>
#include <string.h>
#include <time.h>

typedef int CUresult;
typedef unsigned long long CUdeviceptr;

enum { OK = 0, ERR_INVALID_VALUE = 1, ERR_OUT_OF_MEMORY = 2 };

#define EXPORT __attribute__((visibility("default")))

/* A handle: a distinct heap object (events keep their record time). */
typedef struct fake_handle { double t_ms; } fake_handle;

static void *handle(void) { return calloc(1, sizeof(fake_handle)); }

static double now_ms(void)
{
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

EXPORT CUresult cuInit(unsigned flags) { (void)flags; return OK; }

EXPORT CUresult cuDriverGetVersion(int *v)
{
  *v = 12080;
  return OK;
}

EXPORT CUresult cuGetErrorName(CUresult r, const char **s)
{
  *s = r == ERR_OUT_OF_MEMORY ? "CUDA_ERROR_OUT_OF_MEMORY"
                              : "CUDA_ERROR_INVALID_VALUE";
  return OK;
}

EXPORT CUresult cuGetErrorString(CUresult r, const char **s)
{
  *s = r == ERR_OUT_OF_MEMORY ? "out of memory (fake driver)"
                              : "invalid argument (fake driver)";
  return OK;
}

EXPORT CUresult cuDeviceGetCount(int *n)
{
  *n = 1;
  return OK;
}

EXPORT CUresult cuDeviceGet(int *d, int i)
{
  *d = i;
  return i == 0 ? OK : ERR_INVALID_VALUE;
}

EXPORT CUresult cuDeviceGetName(char *name, int len, int d)
{
  (void)d;
  if (len < 1) return ERR_INVALID_VALUE;
  strncpy(name, "cutelua fake driver", (size_t)len - 1);
  name[len - 1] = 0;
  return OK;
}

/* The attribute numbers of cuda/cute_cuda_internal.h. */
EXPORT CUresult cuDeviceGetAttribute(int *v, int attr, int d)
{
  (void)d;
  switch (attr) {
  case 1: *v = 1024; break;              /* max threads per block */
  case 16: *v = 132; break;              /* SMs */
  case 38: *v = 50 << 20; break;         /* L2 bytes */
  case 75: *v = 9; break;                /* cc major */
  case 76: *v = 0; break;                /* cc minor */
  case 97: *v = 227 << 10; break;        /* opt-in shared memory */
  default: *v = 0;
  }
  return OK;
}

EXPORT CUresult cuDeviceTotalMem_v2(size_t *bytes, int d)
{
  (void)d;
  *bytes = (size_t)1 << 30;
  return OK;
}

EXPORT CUresult cuDevicePrimaryCtxRetain(void **ctx, int d)
{
  static fake_handle the_context;
  (void)d;
  *ctx = &the_context;
  return OK;
}

EXPORT CUresult cuCtxSetCurrent(void *ctx) { (void)ctx; return OK; }
EXPORT CUresult cuCtxSynchronize(void) { return OK; }

/* Device memory is host memory: uploads and downloads are memcpy. */
EXPORT CUresult cuMemAlloc_v2(CUdeviceptr *p, size_t bytes)
{
  void *m = calloc(1, bytes);
  if (m == NULL) return ERR_OUT_OF_MEMORY;
  *p = (CUdeviceptr)(size_t)m;
  return OK;
}

EXPORT CUresult cuMemFree_v2(CUdeviceptr p)
{
  free((void *)(size_t)p);
  return OK;
}

EXPORT CUresult cuMemcpyHtoD_v2(CUdeviceptr d, const void *s, size_t n)
{
  memcpy((void *)(size_t)d, s, n);
  return OK;
}

EXPORT CUresult cuMemcpyDtoH_v2(void *d, CUdeviceptr s, size_t n)
{
  memcpy(d, (const void *)(size_t)s, n);
  return OK;
}

EXPORT CUresult cuMemcpyDtoDAsync_v2(CUdeviceptr d, CUdeviceptr s, size_t n,
                                     void *stream)
{
  (void)stream;
  memmove((void *)(size_t)d, (const void *)(size_t)s, n);
  return OK;
}

/* Modules and functions are never freed by the bridge (loaded once per
 * process), so one static object stands for all of them. */
static fake_handle the_module, the_function;

EXPORT CUresult cuModuleLoadData(void **m, const void *image)
{
  if (image == NULL) return ERR_INVALID_VALUE;
  *m = &the_module;
  return OK;
}

EXPORT CUresult cuModuleGetFunction(void **f, void *m, const char *name)
{
  if (m != &the_module || name == NULL || *name == 0) return ERR_INVALID_VALUE;
  *f = &the_function;
  return OK;
}

EXPORT CUresult cuFuncSetAttribute(void *f, int attr, int v)
{
  (void)attr;
  return f == &the_function && v >= 0 ? OK : ERR_INVALID_VALUE;
}

EXPORT CUresult cuLaunchKernel(void *f, unsigned gx, unsigned gy, unsigned gz,
                               unsigned bx, unsigned by, unsigned bz,
                               unsigned smem, void *stream, void **params,
                               void **extra)
{
  (void)smem; (void)stream; (void)extra;
  if (f != &the_function || !gx || !gy || !gz || !bx || !by || !bz ||
      (unsigned long long)bx * by * bz > 1024 || params == NULL)
    return ERR_INVALID_VALUE;
  return OK;
}

EXPORT CUresult cuEventCreate(void **e, unsigned flags)
{
  (void)flags;
  return (*e = handle()) ? OK : ERR_OUT_OF_MEMORY;
}

EXPORT CUresult cuEventDestroy_v2(void *e)
{
  free(e);
  return OK;
}

EXPORT CUresult cuEventRecord(void *e, void *stream)
{
  (void)stream;
  ((fake_handle *)e)->t_ms = now_ms();
  return OK;
}

EXPORT CUresult cuEventSynchronize(void *e) { (void)e; return OK; }

EXPORT CUresult cuEventElapsedTime(float *ms, void *a, void *b)
{
  *ms = (float)(((fake_handle *)b)->t_ms - ((fake_handle *)a)->t_ms);
  return OK;
}

EXPORT CUresult cuStreamCreate(void **s, unsigned flags)
{
  (void)flags;
  return (*s = handle()) ? OK : ERR_OUT_OF_MEMORY;
}

EXPORT CUresult cuStreamDestroy_v2(void *s)
{
  free(s);
  return OK;
}

EXPORT CUresult cuStreamSynchronize(void *s) { (void)s; return OK; }

/* A tensor map no kernel reads here: zeros but the global address, after
 * the checks the real driver makes on the rank and the box. */
EXPORT CUresult cuTensorMapEncodeTiled(void *map, int dtype, unsigned rank,
                                       void *addr,
                                       const unsigned long long *dims,
                                       const unsigned long long *strides,
                                       const unsigned *box,
                                       const unsigned *estrides, int il,
                                       int swz, int l2, int oob)
{
  unsigned i;
  (void)dtype; (void)dims; (void)strides; (void)estrides; (void)il;
  (void)swz; (void)l2; (void)oob;
  if (rank < 1 || rank > 5) return ERR_INVALID_VALUE;
  for (i = 0; i < rank; i++)
    if (box[i] < 1 || box[i] > 256) return ERR_INVALID_VALUE;
  memset(map, 0, 128);
  memcpy(map, &addr, sizeof addr);
  return OK;
}
