/*
 * cute_cuda.h -- the CUDA bridge of cutelua: layouts become CUDA C, NVRTC
 * compiles it, a content-addressed cache keeps the binaries, the driver
 * runs them.
 *
 * Nothing here needs CUDA at build time: libcuda.so.1 and libnvrtc are opened
 * with dlopen on first use and only the handful of entry points declared in
 * cuda/cute_cuda_internal.h are looked up.  So the library builds and its
 * compile path (NVRTC -> PTX) runs on a machine with the toolkit but no GPU,
 * and everything fails with a clear message on a machine with neither:
 *     "cute.cuda: libcuda.so.1 not found (no NVIDIA driver): ..."
 *
 * State.  Unlike algebra/, this layer owns process-wide state: the loaded
 * libraries, the primary context of device 0, the cache settings and
 * counters, and the in-memory maps of compiled binaries and loaded modules.
 * Threads share it safely: each library is loaded once (pthread_once),
 * whichever thread comes first, the others wait for it; the maps, settings
 * and counters are guarded by locks; the primary context is made current
 * on every thread that calls into the driver.  So independent Lua states
 * may use cute.cuda from several threads at once.
 *
 * Errors.  Every fallible function returns a cute_cuda_status and, if `err`
 * is not NULL, stores a heap message in err->msg (free it with
 * cute_cuda_error_clear).  Compile errors carry NVRTC's log followed by the
 * numbered source.
 */
#ifndef CUTE_CUDA_H
#define CUTE_CUDA_H

#include <stddef.h>
#include <stdint.h>

#include "cute.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---------------------------------------------------------------- errors -- */
typedef enum cute_cuda_status {
  CUTE_CUDA_OK = 0,
  CUTE_CUDA_ENOLIB,    /* libcuda.so.1 or libnvrtc not found              */
  CUTE_CUDA_ENODEVICE, /* a driver, but no usable device                  */
  CUTE_CUDA_EDRIVER,   /* a driver call failed (name and code given)      */
  CUTE_CUDA_ECOMPILE,  /* NVRTC refused the source: log + numbered source */
  CUTE_CUDA_EINVAL,    /* bad argument                                    */
  CUTE_CUDA_ELAYOUT,   /* a layout the bridge cannot turn into code       */
  CUTE_CUDA_EIO,       /* cache directory or file trouble                 */
  CUTE_CUDA_ENOMEM
} cute_cuda_status;

typedef struct cute_cuda_error {
  cute_cuda_status code;
  char *msg;           /* heap; NULL when code == CUTE_CUDA_OK */
} cute_cuda_error;

void cute_cuda_error_clear(cute_cuda_error *err);

/* ---------------------------------------------------------------- limits -- */
/* Host-side work of the bridge that grows with its inputs rather than with
 * a layout's leaves is bounded here (cute.h bounds the algebra; the Lua
 * table cute.limits lists both):
 *   CUTE_CUDA_MAX_CHECK     elements cute_cuda_check_copy compares (the
 *       layouts' size, or the sample count asked for).  A stride-0 layout
 *       may have any size over a one-element buffer, so the size is no
 *       bound by itself.  2^28 is a full check of a 16384 x 16384 tensor
 *       (~30 s for a transpose: 8192 x 8192 takes 6.5 s on an H100 host);
 *       past it CUTE_CUDA_EINVAL asks for a sample.
 *   CUTE_CUDA_MAX_INCLUDES  files hashed to key one program for the disk
 *       cache (every file under its include directories),
 *       CUTE_CUDA_MAX_INCLUDE_DEPTH the directory nesting followed.  Past
 *       either the program cannot be keyed and stays in memory only
 *       (stats: memory_only): never an error, never a stale disk entry.
 * Not bounded by a constant, because they are linear in a device buffer
 * that exists (device memory bounds it, and a limit would refuse large
 * legitimate buffers): cute_cuda_fill_random / fill_iota / compare, which
 * stage through host memory in 4 MiB chunks, and the Lua Buffer methods
 * upload and download (their Lua tables count against a state's
 * memory_limit). */
#define CUTE_CUDA_MAX_CHECK ((int64_t)1 << 28)
#define CUTE_CUDA_MAX_INCLUDES 1024
#define CUTE_CUDA_MAX_INCLUDE_DEPTH 16

/* A growable string: every append keeps it NUL-terminated; after a failed
 * allocation `oom` is set and further appends are ignored. */
typedef struct cute_cuda_text {
  char *s;
  size_t len, cap;
  int oom;
} cute_cuda_text;

void cute_cuda_text_free(cute_cuda_text *t);
void cute_cuda_text_puts(cute_cuda_text *t, const char *s);
void cute_cuda_text_printf(cute_cuda_text *t, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

/* Milliseconds on a monotonic clock (for the timings the bridge reports). */
double cute_cuda_now_ms(void);

/* ---------------------------------------------------------------- dtypes -- */
/* The element types a buffer stores: the algebra's table (cute.h, element
 * types) up to tf32, which is kept in an f32.  fp8 and the bit types have
 * no host arithmetic here. */
typedef cute_dtype cute_cuda_dtype;
#define CUTE_CUDA_DTYPE_COUNT (CUTE_TF32 + 1)

int cute_cuda_dtype_size(cute_cuda_dtype t);            /* bytes          */
const char *cute_cuda_dtype_name(cute_cuda_dtype t);    /* "f32"          */
/* The CUDA C type of an element.  f16 and bf16 are stored as their bit
 * patterns (unsigned short), so generated code needs no cuda_fp16.h. */
const char *cute_cuda_dtype_ctype(cute_cuda_dtype t);
/* The element's type in kernels on the device library (cute/device.h):
 * cute::half_t, cute::bf16_t, float, ... (same size and bits). */
const char *cute_cuda_dtype_device_type(cute_cuda_dtype t);
/* 0 ok; -1 no spelling of an element type; -2 a type buffers do not store
 * (e4m3, b16, ...).  Every spelling of cute_dtype_parse is accepted. */
int cute_cuda_dtype_parse(const char *name, cute_cuda_dtype *out);
int cute_cuda_dtype_is_float(cute_cuda_dtype t);

/* -------------------------------------------------------------- libraries -- */
/* Opens libcuda.so.1, runs cuInit, takes the primary context of device 0
 * and makes it current.  Idempotent; a failure is remembered and repeated. */
cute_cuda_status cute_cuda_driver_load(cute_cuda_error *err);
/* Opens libnvrtc (CUDA_HOME, /usr/local/cuda, then the loader path; sonames
 * libnvrtc.so.13, .12, libnvrtc.so).  Idempotent. */
cute_cuda_status cute_cuda_nvrtc_load(cute_cuda_error *err);
/* "13.0" once NVRTC is loaded (or known from the cache's memo), else NULL. */
const char *cute_cuda_nvrtc_version(void);
/* Milliseconds spent in dlopen + cuInit + context, and in dlopen of NVRTC. */
double cute_cuda_driver_init_ms(void);
double cute_cuda_nvrtc_load_ms(void);

typedef struct cute_cuda_device_info {
  char name[256];
  int cc_major, cc_minor;     /* compute capability                    */
  int sm_count;
  int max_threads_per_block;
  int max_smem_optin;         /* bytes of shared memory a block may opt into */
  int l2_bytes;
  int driver_version;         /* 13000 for CUDA 13.0                   */
  size_t total_mem;
  char arch[16];              /* "sm_90"                               */
} cute_cuda_device_info;

/* Device 0 (loads the driver if needed). */
cute_cuda_status cute_cuda_device(cute_cuda_device_info *info,
                                  cute_cuda_error *err);

/* ---------------------------------------------------------------- codegen -- */
/* Prelude that every generated source starts with (the CUTE_DI macro). */
extern const char cute_cuda_prelude[];

/* Appends straight-line CUDA C for layout L under `name`:
 *     __device__ int name(unsigned i);          the layout at index i
 *     __device__ int name(unsigned c0, ...);    at a coordinate of its
 *                                               top-level modes (rank >= 2)
 *     constexpr long long name_size, name_cosize;
 * idx2crd becomes % and / by literal shapes (the compiler turns them into
 * multiply-shifts), size-1 modes vanish, contiguous modes merge.  The index
 * and result types are 32-bit where the layout's size and image fit, else
 * 64-bit.  Integral codomains only (no basis strides).
 *   (4,8):(1,4)  ->  r += (int)(i % 4u) * 1; i /= 4u; r += (int)i * 4;   */
cute_cuda_status cute_cuda_emit_layout(cute_cuda_text *out, const char *name,
                                       const cute_layout *L,
                                       cute_cuda_error *err);
/* Same for Sw<B,M,S> o offset o L: the swizzle is one AND, shift and XOR. */
cute_cuda_status cute_cuda_emit_composed(cute_cuda_text *out,
                                         const char *name,
                                         const cute_composed *C,
                                         cute_cuda_error *err);
/* A tensor type for kernel parameters: the layout as name_layout(...), and
 *     struct name_t { T *ptr; T &operator()(i) const; T &operator()(c0,...) };
 *     typedef T name_elem; constexpr long long name_size;
 * Its value is just the pointer (offset already added by the launcher). */
cute_cuda_status cute_cuda_emit_tensor(cute_cuda_text *out, const char *name,
                                       cute_cuda_dtype dtype,
                                       const cute_layout *L,
                                       cute_cuda_error *err);
/* Emits the C expression of Sw<B,M,S> applied to the expression `x`. */
void cute_cuda_emit_swizzle_expr(cute_cuda_text *out, cute_swizzle sw,
                                 const char *x);

/* --------------------------------------------------------- device library -- */
/* The headers of cuda/device/ embedded in the library: header i's name
 * ("cute/device.h", its path under cuda/device/), its text and size; NULL
 * past the last.  Every NVRTC program gets them all as named headers. */
const char *cute_cuda_device_header(int i, const char **text, size_t *size);

/* ------------------------------------------------------ compile and cache -- */
typedef struct cute_cuda_program {
  const char *source;
  const char *const *names;    /* kernels to find (C++ names are lowered) */
  int nnames;
  const char *const *options;  /* extra NVRTC options                     */
  int noptions;
  /* "sm_90" (a cubin), "compute_90" (PTX), or NULL: the device's sm_XY
   * when a driver and GPU are present, else compute_90. */
  const char *arch;
  /* Headers handed to NVRTC in memory: #include "include_names[i]" reads
   * headers[i] (NVRTC's named headers). */
  const char *const *headers;
  const char *const *include_names;
  int nheaders;
} cute_cuda_program;

typedef struct cute_cuda_binary {
  char key[65];          /* SHA-256 of (source, options, NVRTC, arch), hex */
  int is_cubin;          /* else PTX text                                  */
  char *image;           /* heap, `size` bytes (+ a NUL)                   */
  size_t size;
  int nnames;
  char **lowered;        /* lowered (mangled) name of names[i]             */
  char *log;             /* NVRTC log (may be empty)                       */
  char arch[16];
  int from_cache;        /* 0 compiled now, 1 memory, 2 disk               */
  double compile_ms;     /* NVRTC time when compiled now                   */
} cute_cuda_binary;

/* Compiles prog, or takes it from the cache.  Its key is the SHA-256 of
 * everything that determines the binary: the source, the named headers,
 * the options (NVRTC gets --no-source-include, so the current directory
 * is never searched), the kernel names, the NVRTC version, the
 * architecture, and the bytes of every file under the -I /
 * --include-path directories of the options (and of headers named by
 * absolute paths), however an #include is spelt; includes.c says how.
 * Include directories past the limits (CUTE_CUDA_MAX_INCLUDES files,
 * CUTE_CUDA_MAX_INCLUDE_DEPTH levels) keep the program in memory only
 * (stats: memory_only), never on disk. */
cute_cuda_status cute_cuda_compile(const cute_cuda_program *prog,
                                   cute_cuda_binary *out,
                                   cute_cuda_error *err);
void cute_cuda_binary_free(cute_cuda_binary *b);

typedef enum cute_cuda_cache_mode {
  CUTE_CUDA_CACHE_DISK,    /* memory + disk (default)            */
  CUTE_CUDA_CACHE_MEMORY,  /* this process only                  */
  CUTE_CUDA_CACHE_OFF      /* every compile calls NVRTC          */
} cute_cuda_cache_mode;

/* The longest cache directory: a longer one is refused, never cut. */
#define CUTE_CUDA_CACHE_DIR_MAX 1023

/* dir NULL: $CUTELUA_CACHE_DIR, else $XDG_CACHE_HOME/cutelua, else
 * ~/.cache/cutelua.  The environment variable CUTELUA_CACHE=off|memory|disk
 * sets the initial mode.  A dir longer than CUTE_CUDA_CACHE_DIR_MAX is an
 * error (CUTE_CUDA_EINVAL, settings unchanged); so is such a
 * $CUTELUA_CACHE_DIR, reported by every compile until the cache is
 * configured with another directory.  What keys cover: cute_cuda_compile. */
cute_cuda_status cute_cuda_cache_configure(cute_cuda_cache_mode mode,
                                           const char *dir,
                                           cute_cuda_error *err);
cute_cuda_cache_mode cute_cuda_cache_mode_get(void);
/* The directory, copied into out (which it returns). */
const char *cute_cuda_cache_dir(char out[CUTE_CUDA_CACHE_DIR_MAX + 1]);
void cute_cuda_cache_forget_memory(void);   /* drop the in-memory entries */

typedef struct cute_cuda_stats {
  long nvrtc_calls;      /* programs NVRTC compiled            */
  long memory_hits, disk_hits, disk_writes;
  long memory_only;      /* compiles kept off the disk (an #include
                            not found, see cute_cuda_cache_configure) */
  double nvrtc_ms;       /* total time inside NVRTC            */
  long launches;
  long disk_errors;      /* disk-cache writes that failed (the entry
                            stays in memory only)              */
  char disk_error[256];  /* the first such failure: path, reason */
} cute_cuda_stats;

void cute_cuda_stats_get(cute_cuda_stats *s);
void cute_cuda_stats_reset(void);

/* ---------------------------------------------------------------- runtime -- */
typedef unsigned long long cute_cuda_ptr;     /* CUdeviceptr */

cute_cuda_status cute_cuda_alloc(cute_cuda_ptr *p, size_t bytes,
                                 cute_cuda_error *err);
void cute_cuda_free(cute_cuda_ptr p);
cute_cuda_status cute_cuda_upload(cute_cuda_ptr dst, const void *src,
                                  size_t bytes, cute_cuda_error *err);
cute_cuda_status cute_cuda_download(void *dst, cute_cuda_ptr src,
                                    size_t bytes, cute_cuda_error *err);
/* Device-to-device cuMemcpy, asynchronous on `stream` (NULL: default). */
cute_cuda_status cute_cuda_memcpy(cute_cuda_ptr dst, cute_cuda_ptr src,
                                  size_t bytes, void *stream,
                                  cute_cuda_error *err);
cute_cuda_status cute_cuda_synchronize(cute_cuda_error *err);

/* Loads a binary (modules are kept per key, so loading twice is free) and
 * finds kernel names[i] of the program that made it. */
cute_cuda_status cute_cuda_function(void **fn, const cute_cuda_binary *bin,
                                    int i, cute_cuda_error *err);
/* Allows up to `bytes` of dynamic shared memory (beyond 48 KiB). */
cute_cuda_status cute_cuda_function_smem(void *fn, int bytes,
                                         cute_cuda_error *err);

#define CUTE_CUDA_MAX_ARGS 32

/* A prepared launch: every argument lives in an 8-byte slot, so launching
 * again is one cuLaunchKernel with nothing to marshal. */
typedef struct cute_cuda_launch {
  void *fn;
  unsigned grid[3], block[3];
  unsigned smem;
  void *stream;
  int nargs;
  uint64_t slot[CUTE_CUDA_MAX_ARGS];
  void *argv[CUTE_CUDA_MAX_ARGS];
} cute_cuda_launch;

void cute_cuda_launch_init(cute_cuda_launch *l, void *fn);
/* Sets argument i (its slot takes `bytes` <= 8 bytes of *value). */
cute_cuda_status cute_cuda_launch_arg(cute_cuda_launch *l, int i,
                                      const void *value, int bytes,
                                      cute_cuda_error *err);
cute_cuda_status cute_cuda_launch_run(cute_cuda_launch *l,
                                      cute_cuda_error *err);

cute_cuda_status cute_cuda_event_create(void **ev, cute_cuda_error *err);
void cute_cuda_event_destroy(void *ev);
cute_cuda_status cute_cuda_event_record(void *ev, void *stream,
                                        cute_cuda_error *err);
cute_cuda_status cute_cuda_event_elapsed(float *ms, void *start, void *stop,
                                         cute_cuda_error *err);
cute_cuda_status cute_cuda_stream_create(void **stream, cute_cuda_error *err);
void cute_cuda_stream_destroy(void *stream);
cute_cuda_status cute_cuda_stream_sync(void *stream, cute_cuda_error *err);

/* ------------------------------------------------------------ tensor maps -- */
#define CUTE_CUDA_TMA_MAX_RANK 5
/* A tiled view of global memory for the bulk tensor copy engine (sm_90):
 * dims[0] is the contiguous one; strides[i] (bytes, i >= 1; strides[0] is
 * ignored) multiples of 16; box[i] elements per copy, box[0] * element
 * size a multiple of 16 and at most `swizzle` bytes when swizzled (0, 32,
 * 64, 128).  Elements outside dims read as zero and are not written. */
typedef struct cute_cuda_tma {
  cute_cuda_dtype dtype;
  int rank, swizzle;
  cute_cuda_ptr base;
  unsigned long long dims[CUTE_CUDA_TMA_MAX_RANK];
  unsigned long long strides[CUTE_CUDA_TMA_MAX_RANK];
  unsigned long long box[CUTE_CUDA_TMA_MAX_RANK];
} cute_cuda_tma;

/* The driver's encoding (cuTensorMapEncodeTiled) of m into out, the
 * CUtensorMap a kernel takes by value or reads from global memory. */
cute_cuda_status cute_cuda_tensor_map(unsigned char out[128],
                                      const cute_cuda_tma *m,
                                      cute_cuda_error *err);

/* ------------------------------------------------------ host-side values -- */
/* Element i of a host array of dtype t, as a double (f16/bf16 decoded), and
 * the converse (rounded to nearest even; integers wrap like C casts). */
double cute_cuda_host_get(const void *base, cute_cuda_dtype t, size_t i);
void cute_cuda_host_set(void *base, cute_cuda_dtype t, size_t i, double v);
/* Integer forms, exact for 64-bit types (floats convert). */
int64_t cute_cuda_host_get_int(const void *base, cute_cuda_dtype t, size_t i);
void cute_cuda_host_set_int(void *base, cute_cuda_dtype t, size_t i,
                            int64_t v);
/* Deterministic values: element i gets a value that depends only on
 * (seed, first + i), uniform in [lo, hi) (integers: [lo, hi] rounded). */
void cute_cuda_host_random(void *base, cute_cuda_dtype t, size_t n,
                           uint64_t seed, uint64_t first, double lo,
                           double hi);

/* ----------------------------------------------------- device buffers -- */
/* Fill n elements at p with cute_cuda_host_random values (element i gets
 * the value of index i, so any slice of a buffer is reproducible) or with
 * start + i * step; staged through host memory in chunks. */
cute_cuda_status cute_cuda_fill_random(cute_cuda_ptr p, cute_cuda_dtype t,
                                       size_t n, uint64_t seed, double lo,
                                       double hi, cute_cuda_error *err);
cute_cuda_status cute_cuda_fill_iota(cute_cuda_ptr p, cute_cuda_dtype t,
                                     size_t n, double start, double step,
                                     cute_cuda_error *err);

typedef struct cute_cuda_compare_result {
  int64_t bad;          /* elements with |got-ref| > atol + rtol*|ref| or NaN */
  int64_t first_bad;    /* index of the first, -1 if none                  */
  double max_abs;       /* largest |got - ref|                             */
  double rel_norm;      /* ||got - ref||_2 / ||ref||_2 (0 when ref is 0)   */
} cute_cuda_compare_result;

/* Compares n elements of got against ref (both on the device). */
cute_cuda_status cute_cuda_compare(cute_cuda_ptr got, cute_cuda_ptr ref,
                                   cute_cuda_dtype t, size_t n, double rtol,
                                   double atol, cute_cuda_compare_result *r,
                                   cute_cuda_error *err);

/* Checks that dst(i) == src(i) bit for bit for `samples` seeded indices
 * (all when samples <= 0 or >= size), reading both tensors' spans back
 * (pointers at their first elements, offsets in elements relative to
 * them).  *bad receives the first failing index or -1.  The layouts must
 * have one size (CUTE_CUDA_EINVAL), and at most CUTE_CUDA_MAX_CHECK
 * indices are compared (CUTE_CUDA_EINVAL past it, before any transfer):
 *   all of 1073741824:0 against 1073741824:1: "cute.cuda: check_copy(
 *   1073741824:0, 1073741824:1): 1073741824 elements exceed the limit of
 *   268435456 elements a check compares (CUTE_CUDA_MAX_CHECK); check a
 *   sample" */
cute_cuda_status cute_cuda_check_copy(cute_cuda_ptr src, const cute_layout *Ls,
                                      cute_cuda_ptr dst, const cute_layout *Ld,
                                      cute_cuda_dtype t, int64_t samples,
                                      uint64_t seed, int64_t *bad,
                                      cute_cuda_error *err);

/* ------------------------------------------------------------------- copy -- */
/* The paper's COPY (2.6.1) dst(i) = src(i), i < size, planned from the two
 * layouts (see copy.c): the common refinement of both shapes gives one loop
 * nest; its modes are reordered by destination stride (the permutation of
 * 3.4.2) and merged; the mode contiguous in both gives the vector width
 * (16 bytes at most, alignment of every other stride and of both offsets
 * permitting); a destination-contiguous mode that is strided in the source
 * while another mode is source-contiguous gives a tiled shared-memory
 * transpose with a swizzled tile. */
typedef enum cute_cuda_copy_kind {
  CUTE_COPY_ELEMENTWISE,  /* one or more vectors per thread, refined modes */
  CUTE_COPY_TRANSPOSE,    /* 2-D tiles through swizzled shared memory      */
  CUTE_COPY_GENERIC       /* shapes without a common refinement: idx2crd   */
} cute_cuda_copy_kind;

typedef struct cute_cuda_copy_opts {
  int max_vector_bytes;   /* 16 by default (0)                        */
  int vectors_per_thread; /* 4 by default (0)                         */
  int block;              /* threads per block, 256 by default (0)    */
  int tile;               /* transpose tile edge, 32 by default (0)   */
  int tile_rows;          /* rows of threads in a tile, 8 (0)         */
  int no_transpose;       /* force the elementwise form               */
  int min_tile_extent;    /* modes shorter than this are not tiled (16) */
} cute_cuda_copy_opts;

typedef struct cute_cuda_copy_plan {
  cute_cuda_copy_kind kind;
  int64_t size;           /* elements copied                          */
  int64_t common;         /* max common vector of the two layouts     */
  int vector;             /* elements per access                      */
  unsigned grid[3], block[3];
  cute_cuda_text source;  /* extern "C" __global__ void cute_copy(src, dst) */
  char summary[256];      /* "elementwise v4 modes (1048576):(4)->(4)"  */
} cute_cuda_copy_plan;

cute_cuda_status cute_cuda_copy_plan_make(cute_cuda_copy_plan *plan,
                                          const cute_layout *src,
                                          int64_t src_offset,
                                          const cute_layout *dst,
                                          int64_t dst_offset,
                                          cute_cuda_dtype dtype,
                                          const cute_cuda_copy_opts *opts,
                                          cute_cuda_error *err);
void cute_cuda_copy_plan_free(cute_cuda_copy_plan *plan);

#ifdef __cplusplus
}
#endif
#endif /* CUTE_CUDA_H */
