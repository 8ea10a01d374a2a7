/*
 * loader.c -- finds and opens libcuda.so.1 and libnvrtc at run time, looks
 * up the entry points of cute_cuda_internal.h, initialises the driver on
 * device 0.
 *
 * Why dlopen: the project must build and its compile path must run on
 * machines without a driver (CI has the toolkit, no GPU), and a binary
 * carried to a GPU machine must not depend on the toolkit version it was
 * built next to.
 */
#define _GNU_SOURCE /* dladdr, realpath */

#include "cute_cuda_internal.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

cucu_driver cucu_cu;
cucu_nvrtc cucu_rtc;

/* The outcome of each load, remembered: loading is attempted once per
 * process, by whichever thread comes first (pthread_once: the others wait
 * for it, then read what it wrote).  The message is kept in place, not on
 * the heap: a heap copy held by a static is lost when lua_close unloads
 * cute/cuda/core.so (LSan found it). */
typedef struct lib_state {
  pthread_once_t once;
  cute_cuda_status (*open_fn)(cute_cuda_error *);
  cute_cuda_status status;
  char msg[1024];
  double ms;
} lib_state;

static cute_cuda_status driver_open(cute_cuda_error *err);
static cute_cuda_status nvrtc_open(cute_cuda_error *err);
static lib_state drv = {PTHREAD_ONCE_INIT, driver_open, 0, "", 0};
static lib_state rtc = {PTHREAD_ONCE_INIT, nvrtc_open, 0, "", 0};
static cute_cuda_device_info dev_info;   /* written once, by driver_open */
static CUcontext primary;                /* likewise                     */
/* The context is current per thread: each thread that calls the driver
 * makes it current once. */
static __thread int context_current;

/* NVRTC's version, set once: from the cache's memo (no load) or by the
 * load, whichever comes first.  It and the load times (asked for while
 * another thread may be loading) are read and written under `lock`. */
static char rtc_version[32];
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

/* ------------------------------------------------------------ searching -- */
/* Directories tried before the loader path, in order. */
static int search_dirs(const char **dirs, char bufs[][512], int max)
{
  const char *home = getenv("CUDA_HOME");
  int n = 0;
  if (home && *home && n + 2 <= max) {
    snprintf(bufs[n], 512, "%s/lib64", home);
    dirs[n] = bufs[n];
    n++;
    snprintf(bufs[n], 512, "%s/lib", home);
    dirs[n] = bufs[n];
    n++;
  }
  dirs[n++] = "/usr/local/cuda/lib64";
  dirs[n++] = "/usr/local/cuda/targets/x86_64-linux/lib";
  return n;
}

/* First readable dir/name over the search directories, else NULL. */
static const char *find_in_dirs(const char *const *names, int nnames,
                                char *out, size_t cap)
{
  const char *dirs[8];
  char bufs[2][512];
  int nd = search_dirs(dirs, bufs, 2), i, j;
  for (j = 0; j < nnames; j++)
    for (i = 0; i < nd; i++) {
      snprintf(out, cap, "%s/%s", dirs[i], names[j]);
      if (access(out, R_OK) == 0) return out;
    }
  return NULL;
}

/* dlopen each candidate path then each soname (the loader path); the
 * dlerror of the last attempt goes to `why`. */
static void *open_lib(const char *const *names, int nnames, char *why,
                      size_t cap)
{
  char path[600];
  void *h = NULL;
  int j;
  if (find_in_dirs(names, nnames, path, sizeof path))
    h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
  for (j = 0; h == NULL && j < nnames; j++)
    h = dlopen(names[j], RTLD_NOW | RTLD_LOCAL);
  if (h == NULL) {
    const char *e = dlerror();
    snprintf(why, cap, "%s", e ? e : "not found");
  }
  return h;
}

typedef struct sym_entry { const char *name, *alt; size_t off; } sym_entry;

/* Fills a table of function pointers; POSIX guarantees that a data pointer
 * from dlsym converts to a function pointer, memcpy keeps -pedantic quiet. */
static const char *bind(void *lib, void *table, const sym_entry *s, int n)
{
  int i;
  for (i = 0; i < n; i++) {
    void *p = dlsym(lib, s[i].name);
    if (p == NULL && s[i].alt) p = dlsym(lib, s[i].alt);
    if (p == NULL) return s[i].name;
    memcpy((char *)table + s[i].off, &p, sizeof p);
  }
  return NULL;
}

/* Runs st's open function, timed, keeping its status and message. */
static void load(lib_state *st)
{
  cute_cuda_error e = {0};
  double t0 = cute_cuda_now_ms(), ms;
  st->status = st->open_fn(&e);
  ms = cute_cuda_now_ms() - t0;
  pthread_mutex_lock(&lock);
  st->ms = ms;
  pthread_mutex_unlock(&lock);
  if (st->status != CUTE_CUDA_OK)
    snprintf(st->msg, sizeof st->msg, "%s", e.msg ? e.msg : "cute.cuda: "
             "initialisation failed");
  cute_cuda_error_clear(&e);
}

static double load_ms(lib_state *st)
{
  double ms;
  pthread_mutex_lock(&lock);
  ms = st->ms;
  pthread_mutex_unlock(&lock);
  return ms;
}

static void load_driver(void) { load(&drv); }
static void load_nvrtc(void) { load(&rtc); }

/* The outcome of the one load, as this caller's status and message. */
static cute_cuda_status outcome(const lib_state *st, cute_cuda_error *err)
{
  if (st->status == CUTE_CUDA_OK) return CUTE_CUDA_OK;
  return cucu_fail(err, st->status, "%s", st->msg);
}

/* A library opened at run time: its names, the entry points bound into
 * `table`, and the words of its errors ("<label> not found (<absent>)",
 * "<label> lacks <symbol> (<old>)"). */
typedef struct lib_def {
  const char *const *names;
  int nnames;
  const sym_entry *syms;
  int nsyms;
  void *table;
  const char *label, *absent, *old;
} lib_def;

static cute_cuda_status open_bind(const lib_def *l, cute_cuda_error *err)
{
  char why[512];
  const char *missing;
  void *lib = open_lib(l->names, l->nnames, why, sizeof why);
  if (lib == NULL)
    return cucu_fail(err, CUTE_CUDA_ENOLIB, "cute.cuda: %s not found (%s): %s",
                     l->label, l->absent, why);
  if ((missing = bind(lib, l->table, l->syms, l->nsyms)))
    return cucu_fail(err, CUTE_CUDA_ENOLIB, "cute.cuda: %s lacks %s (%s)",
                     l->label, missing, l->old);
  return CUTE_CUDA_OK;
}

/* --------------------------------------------------------------- driver -- */
#define D(f, name) {name, NULL, offsetof(cucu_driver, f)}
static const sym_entry drv_syms[] = {
  D(Init, "cuInit"), D(DriverGetVersion, "cuDriverGetVersion"),
  D(GetErrorName, "cuGetErrorName"), D(GetErrorString, "cuGetErrorString"),
  D(DeviceGetCount, "cuDeviceGetCount"), D(DeviceGet, "cuDeviceGet"),
  D(DeviceGetName, "cuDeviceGetName"),
  D(DeviceGetAttribute, "cuDeviceGetAttribute"),
  D(DeviceTotalMem, "cuDeviceTotalMem_v2"),
  D(DevicePrimaryCtxRetain, "cuDevicePrimaryCtxRetain"),
  D(CtxSetCurrent, "cuCtxSetCurrent"), D(CtxSynchronize, "cuCtxSynchronize"),
  D(MemAlloc, "cuMemAlloc_v2"), D(MemFree, "cuMemFree_v2"),
  D(MemcpyHtoD, "cuMemcpyHtoD_v2"), D(MemcpyDtoH, "cuMemcpyDtoH_v2"),
  D(MemcpyDtoDAsync, "cuMemcpyDtoDAsync_v2"),
  D(ModuleLoadData, "cuModuleLoadData"),
  D(ModuleGetFunction, "cuModuleGetFunction"),
  D(FuncSetAttribute, "cuFuncSetAttribute"),
  D(LaunchKernel, "cuLaunchKernel"), D(EventCreate, "cuEventCreate"),
  D(EventDestroy, "cuEventDestroy_v2"), D(EventRecord, "cuEventRecord"),
  D(EventSynchronize, "cuEventSynchronize"),
  {"cuEventElapsedTime_v2", "cuEventElapsedTime",
   offsetof(cucu_driver, EventElapsedTime)},
  D(StreamCreate, "cuStreamCreate"), D(StreamDestroy, "cuStreamDestroy_v2"),
  D(StreamSynchronize, "cuStreamSynchronize"),
  D(TensorMapEncodeTiled, "cuTensorMapEncodeTiled"),
};
#undef D

static cute_cuda_status query_device(CUdevice d, cute_cuda_error *err)
{
  static const struct { int attr; size_t off; } attrs[] = {
    {CUCU_ATTR_CC_MAJOR, offsetof(cute_cuda_device_info, cc_major)},
    {CUCU_ATTR_CC_MINOR, offsetof(cute_cuda_device_info, cc_minor)},
    {CUCU_ATTR_SM_COUNT, offsetof(cute_cuda_device_info, sm_count)},
    {CUCU_ATTR_MAX_THREADS_PER_BLOCK,
     offsetof(cute_cuda_device_info, max_threads_per_block)},
    {CUCU_ATTR_SMEM_OPTIN, offsetof(cute_cuda_device_info, max_smem_optin)},
    {CUCU_ATTR_L2_CACHE_SIZE, offsetof(cute_cuda_device_info, l2_bytes)},
  };
  size_t i;
  CUCU_TRY(err, "cuDeviceGetName",
           cucu_cu.DeviceGetName(dev_info.name, sizeof dev_info.name, d));
  for (i = 0; i < sizeof attrs / sizeof attrs[0]; i++)
    CUCU_TRY(err, "cuDeviceGetAttribute",
             cucu_cu.DeviceGetAttribute(
                 (int *)((char *)&dev_info + attrs[i].off), attrs[i].attr, d));
  CUCU_TRY(err, "cuDeviceTotalMem",
           cucu_cu.DeviceTotalMem(&dev_info.total_mem, d));
  CUCU_TRY(err, "cuDriverGetVersion",
           cucu_cu.DriverGetVersion(&dev_info.driver_version));
  snprintf(dev_info.arch, sizeof dev_info.arch, "sm_%d%d", dev_info.cc_major,
           dev_info.cc_minor);
  return CUTE_CUDA_OK;
}

static cute_cuda_status driver_open(cute_cuda_error *err)
{
  static const char *const names[] = {"libcuda.so.1"};
  static const lib_def def = {
    names, 1, drv_syms, (int)(sizeof drv_syms / sizeof drv_syms[0]),
    &cucu_cu, "libcuda.so.1", "no NVIDIA driver", "driver too old"};
  cute_cuda_status s = open_bind(&def, err);
  CUdevice d;
  CUcontext ctx;
  int count = 0;
  if (s != CUTE_CUDA_OK) return s;
  CUCU_TRY(err, "cuInit", cucu_cu.Init(0));
  CUCU_TRY(err, "cuDeviceGetCount", cucu_cu.DeviceGetCount(&count));
  if (count < 1)
    return cucu_fail(err, CUTE_CUDA_ENODEVICE,
                     "cute.cuda: the NVIDIA driver sees no device");
  CUCU_TRY(err, "cuDeviceGet", cucu_cu.DeviceGet(&d, 0));
  CUCU_TRY(err, "cuDevicePrimaryCtxRetain",
           cucu_cu.DevicePrimaryCtxRetain(&ctx, d));
  primary = ctx;
  return query_device(d, err);
}

cute_cuda_status cute_cuda_driver_load(cute_cuda_error *err)
{
  pthread_once(&drv.once, load_driver);
  if (drv.status != CUTE_CUDA_OK) return outcome(&drv, err);
  if (!context_current) {
    CUCU_TRY(err, "cuCtxSetCurrent", cucu_cu.CtxSetCurrent(primary));
    context_current = 1;
  }
  return CUTE_CUDA_OK;
}

double cute_cuda_driver_init_ms(void) { return load_ms(&drv); }

cute_cuda_status cute_cuda_device(cute_cuda_device_info *info,
                                  cute_cuda_error *err)
{
  cute_cuda_status s = cute_cuda_driver_load(err);
  if (s == CUTE_CUDA_OK) *info = dev_info;
  return s;
}

/* ---------------------------------------------------------------- NVRTC -- */
static const char *const rtc_names[] = {"libnvrtc.so.13", "libnvrtc.so.12",
                                        "libnvrtc.so"};
#define NRTC ((int)(sizeof rtc_names / sizeof rtc_names[0]))

#define R(f, name) {name, NULL, offsetof(cucu_nvrtc, f)}
static const sym_entry rtc_syms[] = {
  R(Version, "nvrtcVersion"), R(GetErrorString, "nvrtcGetErrorString"),
  R(CreateProgram, "nvrtcCreateProgram"),
  R(DestroyProgram, "nvrtcDestroyProgram"),
  R(CompileProgram, "nvrtcCompileProgram"),
  R(GetProgramLogSize, "nvrtcGetProgramLogSize"),
  R(GetProgramLog, "nvrtcGetProgramLog"), R(GetPTXSize, "nvrtcGetPTXSize"),
  R(GetPTX, "nvrtcGetPTX"), R(GetCUBINSize, "nvrtcGetCUBINSize"),
  R(GetCUBIN, "nvrtcGetCUBIN"), R(AddNameExpression, "nvrtcAddNameExpression"),
  R(GetLoweredName, "nvrtcGetLoweredName"),
};
#undef R

static char rtc_path[600];
static pthread_once_t rtc_path_once = PTHREAD_ONCE_INIT;

static void locate_nvrtc(void)
{
  if (find_in_dirs(rtc_names, NRTC, rtc_path, sizeof rtc_path) == NULL)
    rtc_path[0] = 0;
}

const char *cucu_nvrtc_locate(void)
{
  pthread_once(&rtc_path_once, locate_nvrtc);
  return rtc_path[0] ? rtc_path : NULL;
}

/* Sets the version unless it is set; returns it (NULL: unknown). */
static const char *version(const char *v)
{
  const char *r;
  pthread_mutex_lock(&lock);
  if (v && !rtc_version[0]) snprintf(rtc_version, sizeof rtc_version, "%s", v);
  r = rtc_version[0] ? rtc_version : NULL;
  pthread_mutex_unlock(&lock);
  return r;
}

static cute_cuda_status nvrtc_open(cute_cuda_error *err)
{
  static const lib_def def = {
    rtc_names, NRTC, rtc_syms, (int)(sizeof rtc_syms / sizeof rtc_syms[0]),
    &cucu_rtc, "libnvrtc", "no CUDA toolkit; set CUDA_HOME", "NVRTC too old"};
  cute_cuda_status s = open_bind(&def, err);
  int major = 0, minor = 0;
  char v[32];
  if (s != CUTE_CUDA_OK) return s;
  cucu_rtc.Version(&major, &minor);
  snprintf(v, sizeof v, "%d.%d", major, minor);
  version(v);
  return CUTE_CUDA_OK;
}

cute_cuda_status cute_cuda_nvrtc_load(cute_cuda_error *err)
{
  pthread_once(&rtc.once, load_nvrtc);
  return outcome(&rtc, err);
}

double cute_cuda_nvrtc_load_ms(void) { return load_ms(&rtc); }

const char *cute_cuda_nvrtc_version(void) { return version(NULL); }

void cucu_nvrtc_set_known_version(const char *v) { version(v); }
