/*
 * cute_cuda_internal.h -- what the bridge's translation units share: the few
 * driver and NVRTC entry points it calls (declared here, so no cuda.h is
 * needed to build), error helpers and SHA-256.  Not installed.
 */
#ifndef CUTE_CUDA_INTERNAL_H
#define CUTE_CUDA_INTERNAL_H

#include "cute_cuda.h"

#include <stdarg.h>

/* ------------------------------------------------------ driver API types -- */
typedef int CUresult;                   /* CUDA_SUCCESS = 0 */
typedef int CUdevice;
typedef struct CUctx_st *CUcontext;
typedef struct CUmod_st *CUmodule;
typedef struct CUfunc_st *CUfunction;
typedef struct CUstream_st *CUstream;
typedef struct CUevent_st *CUevent;
typedef unsigned long long CUdeviceptr;

/* Values from cuda.h (stable ABI). */
enum {
  CUCU_ATTR_MAX_THREADS_PER_BLOCK = 1,
  CUCU_ATTR_SM_COUNT = 16,
  CUCU_ATTR_L2_CACHE_SIZE = 38,
  CUCU_ATTR_CC_MAJOR = 75,
  CUCU_ATTR_CC_MINOR = 76,
  CUCU_ATTR_SMEM_OPTIN = 97,
  CUCU_FUNC_ATTR_MAX_DYNAMIC_SMEM = 8,
  CUCU_STREAM_NON_BLOCKING = 1,
  CUCU_ERROR_NO_DEVICE = 100
};

/* The driver entry points, looked up by their exported (versioned) names. */
typedef struct cucu_driver {
  CUresult (*Init)(unsigned);
  CUresult (*DriverGetVersion)(int *);
  CUresult (*GetErrorName)(CUresult, const char **);
  CUresult (*GetErrorString)(CUresult, const char **);
  CUresult (*DeviceGetCount)(int *);
  CUresult (*DeviceGet)(CUdevice *, int);
  CUresult (*DeviceGetName)(char *, int, CUdevice);
  CUresult (*DeviceGetAttribute)(int *, int, CUdevice);
  CUresult (*DeviceTotalMem)(size_t *, CUdevice);
  CUresult (*DevicePrimaryCtxRetain)(CUcontext *, CUdevice);
  CUresult (*CtxSetCurrent)(CUcontext);
  CUresult (*CtxSynchronize)(void);
  CUresult (*MemAlloc)(CUdeviceptr *, size_t);
  CUresult (*MemFree)(CUdeviceptr);
  CUresult (*MemcpyHtoD)(CUdeviceptr, const void *, size_t);
  CUresult (*MemcpyDtoH)(void *, CUdeviceptr, size_t);
  CUresult (*MemcpyDtoDAsync)(CUdeviceptr, CUdeviceptr, size_t, CUstream);
  CUresult (*ModuleLoadData)(CUmodule *, const void *);
  CUresult (*ModuleGetFunction)(CUfunction *, CUmodule, const char *);
  CUresult (*FuncSetAttribute)(CUfunction, int, int);
  CUresult (*LaunchKernel)(CUfunction, unsigned, unsigned, unsigned,
                           unsigned, unsigned, unsigned, unsigned, CUstream,
                           void **, void **);
  CUresult (*EventCreate)(CUevent *, unsigned);
  CUresult (*EventDestroy)(CUevent);
  CUresult (*EventRecord)(CUevent, CUstream);
  CUresult (*EventSynchronize)(CUevent);
  CUresult (*EventElapsedTime)(float *, CUevent, CUevent);
  CUresult (*StreamCreate)(CUstream *, unsigned);
  CUresult (*StreamDestroy)(CUstream);
  CUresult (*StreamSynchronize)(CUstream);
  /* cuTensorMapEncodeTiled (CUDA 12+): the 128-byte TMA descriptor. */
  CUresult (*TensorMapEncodeTiled)(void *, int, unsigned, void *,
                                   const unsigned long long *,
                                   const unsigned long long *,
                                   const unsigned *, const unsigned *, int,
                                   int, int, int);
} cucu_driver;

/* NVRTC, likewise. */
typedef struct _nvrtcProgram *nvrtcProgram;
typedef struct cucu_nvrtc {
  int (*Version)(int *, int *);
  const char *(*GetErrorString)(int);
  int (*CreateProgram)(nvrtcProgram *, const char *, const char *, int,
                       const char *const *, const char *const *);
  int (*DestroyProgram)(nvrtcProgram *);
  int (*CompileProgram)(nvrtcProgram, int, const char *const *);
  int (*GetProgramLogSize)(nvrtcProgram, size_t *);
  int (*GetProgramLog)(nvrtcProgram, char *);
  int (*GetPTXSize)(nvrtcProgram, size_t *);
  int (*GetPTX)(nvrtcProgram, char *);
  int (*GetCUBINSize)(nvrtcProgram, size_t *);
  int (*GetCUBIN)(nvrtcProgram, char *);
  int (*AddNameExpression)(nvrtcProgram, const char *);
  int (*GetLoweredName)(nvrtcProgram, const char *, const char **);
} cucu_nvrtc;

/* The loaded tables (loader.c); valid after the matching *_load succeeded. */
extern cucu_driver cucu_cu;
extern cucu_nvrtc cucu_rtc;

/* The path NVRTC would be loaded from, found without loading it (NULL if
 * not found in the known directories); used to key the cache cheaply. */
const char *cucu_nvrtc_locate(void);
/* Records a version learnt from the cache's memo, before NVRTC is loaded. */
void cucu_nvrtc_set_known_version(const char *v);

/* The operands of a copy or its check (copy.c): integral layouts of one
 * size *n, printed into ts and td for messages naming "op(ts, td)". */
cute_cuda_status cucu_copy_operands(const char *op, const cute_layout *Ls,
                                    const cute_layout *Ld, int64_t *n,
                                    char ts[CUTE_MAX_TEXT],
                                    char td[CUTE_MAX_TEXT],
                                    cute_cuda_error *err);

/* ---------------------------------------------------------------- errors -- */
cute_cuda_status cucu_fail(cute_cuda_error *err, cute_cuda_status code,
                           const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;
/* "cute.cuda: <what>: CUDA_ERROR_X (code): description" */
cute_cuda_status cucu_drv_fail(cute_cuda_error *err, const char *what,
                               CUresult r);
/* Checks a driver call; returns its status. */
#define CUCU_TRY(err, what, call)                                   \
  do {                                                              \
    CUresult r_ = (call);                                           \
    if (r_ != 0) return cucu_drv_fail((err), (what), r_);           \
  } while (0)

char *cucu_strdup(const char *s);
/* The whole file at path, NUL-terminated (heap; *size bytes), or NULL. */
char *cucu_read_file(const char *path, size_t *size);
void cute_cuda_text_vprintf(cute_cuda_text *t, const char *fmt, va_list ap);

/* ---------------------------------------------------------------- SHA-256 -- */
typedef struct cucu_sha256 {
  uint32_t h[8];
  uint64_t bytes;
  unsigned char buf[64];
  size_t fill;
} cucu_sha256;

void cucu_sha256_init(cucu_sha256 *c);
void cucu_sha256_update(cucu_sha256 *c, const void *data, size_t n);
/* 64 hex digits + NUL. */
void cucu_sha256_hex(cucu_sha256 *c, char out[65]);

/* ----------------------------------------------------------------- cache -- */
/* Looks up the entry of want->key (memory, then disk if `disk`); on a hit
 * fills *out (deep copy).  An entry is a hit only if it is what `want`
 * describes: key, arch, is_cubin, nnames. */
int cucu_cache_get(const cute_cuda_binary *want, int disk,
                   cute_cuda_binary *out);
/* CUTE_CUDA_OK, or the error of a refused $CUTELUA_CACHE_DIR. */
cute_cuda_status cucu_cache_ready(cute_cuda_error *err);
/* Adds n to a counter of cucu_stats (NULL: none) and ms to nvrtc_ms, under
 * the cache's lock. */
void cucu_stats_add(long *counter, long n, double ms);
/* Stores a freshly compiled binary (on disk if `disk`, with its source and
 * log beside it). */
void cucu_cache_put(const cute_cuda_binary *b, int disk, const char *source);
/* Hashes into h every header the source #includes that is found in the
 * current directory, the including file's or the -I / --include-path
 * directories of options (recursively).  Returns 0 when a quoted include
 * (or an #include MACRO) could not be resolved: the key then does not pin
 * the program, which must not be cached on disk. */
int cucu_hash_includes(cucu_sha256 *h, const char *source,
                       const char *const *options, int noptions);
/* The memo of NVRTC versions by library identity, so that a warm run does
 * not have to load NVRTC to compute keys: NULL when unknown. */
char *cucu_cache_memo_get(const char *identity);
void cucu_cache_memo_put(const char *identity, const char *version);

extern cute_cuda_stats cucu_stats;

/* -------------------------------------------------------- device library -- */
/* The headers of cuda/device/, embedded by cuda/embed_device.cmake: name
 * (their path under cuda/device/, "cute/device.h"), NUL-terminated text. */
typedef struct cucu_header {
  const char *name;
  const char *text;
  size_t size;
} cucu_header;
extern const cucu_header cucu_device_headers[];
extern const int cucu_device_header_count;
/* Adds the digest of every embedded header to h (computed once): a key
 * covers the device library whether or not the source includes it. */
void cucu_device_hash(cucu_sha256 *h);

#endif /* CUTE_CUDA_INTERNAL_H */
