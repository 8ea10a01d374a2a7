/*
 * runtime.c -- device memory, modules, launches, events and streams over
 * the driver API of cute_cuda_internal.h.  Every entry point loads the
 * driver first, so the first call of a script pays cuInit and the context once.
 */
#include "cute_cuda_internal.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#define NEED_DRIVER(err)                                              \
  do {                                                                \
    cute_cuda_status s_ = cute_cuda_driver_load(err);                 \
    if (s_ != CUTE_CUDA_OK) return s_;                                \
  } while (0)

/* ---------------------------------------------------------------- memory -- */
cute_cuda_status cute_cuda_alloc(cute_cuda_ptr *p, size_t bytes,
                                 cute_cuda_error *err)
{
  NEED_DRIVER(err);
  CUCU_TRY(err, "cuMemAlloc", cucu_cu.MemAlloc(p, bytes ? bytes : 1));
  return CUTE_CUDA_OK;
}

void cute_cuda_free(cute_cuda_ptr p)
{
  if (p && cucu_cu.MemFree) cucu_cu.MemFree(p);
}

cute_cuda_status cute_cuda_upload(cute_cuda_ptr dst, const void *src,
                                  size_t bytes, cute_cuda_error *err)
{
  NEED_DRIVER(err);
  CUCU_TRY(err, "cuMemcpyHtoD", cucu_cu.MemcpyHtoD(dst, src, bytes));
  return CUTE_CUDA_OK;
}

cute_cuda_status cute_cuda_download(void *dst, cute_cuda_ptr src,
                                    size_t bytes, cute_cuda_error *err)
{
  NEED_DRIVER(err);
  CUCU_TRY(err, "cuMemcpyDtoH", cucu_cu.MemcpyDtoH(dst, src, bytes));
  return CUTE_CUDA_OK;
}

cute_cuda_status cute_cuda_memcpy(cute_cuda_ptr dst, cute_cuda_ptr src,
                                  size_t bytes, void *stream,
                                  cute_cuda_error *err)
{
  NEED_DRIVER(err);
  CUCU_TRY(err, "cuMemcpyDtoDAsync",
           cucu_cu.MemcpyDtoDAsync(dst, src, bytes, (CUstream)stream));
  return CUTE_CUDA_OK;
}

cute_cuda_status cute_cuda_synchronize(cute_cuda_error *err)
{
  NEED_DRIVER(err);
  CUCU_TRY(err, "cuCtxSynchronize", cucu_cu.CtxSynchronize());
  return CUTE_CUDA_OK;
}

/* --------------------------------------------------------------- modules -- */
/* Loaded modules by cache key: a binary is loaded once per process however
 * many kernel objects a script makes from the same source. */
typedef struct loaded {
  struct loaded *next;
  char key[65];
  CUmodule mod;
} loaded;

static loaded *modules;
static pthread_mutex_t modules_lock = PTHREAD_MUTEX_INITIALIZER;

/* The list dies with the library: lua_close unloads cute/cuda/core.so,
 * and nodes held only by its statics would then be leaked (LSan). */
__attribute__((destructor)) static void forget_modules(void)
{
  while (modules) {
    loaded *next = modules->next;
    free(modules);
    modules = next;
  }
}

/* Finds or loads the module of bin; loads run under the lock, so two
 * threads asking for one binary load it once. */
static cute_cuda_status module_of(CUmodule *m, const cute_cuda_binary *bin,
                                  cute_cuda_error *err)
{
  loaded *e;
  CUresult r = 0;
  pthread_mutex_lock(&modules_lock);
  for (e = modules; e && strcmp(e->key, bin->key) != 0; e = e->next) {}
  if (e) *m = e->mod;
  else if ((r = cucu_cu.ModuleLoadData(m, bin->image)) == 0 &&
           (e = malloc(sizeof *e)) != NULL) {
    memcpy(e->key, bin->key, sizeof e->key);
    e->mod = *m;
    e->next = modules;
    modules = e;
  }
  pthread_mutex_unlock(&modules_lock);
  return r ? cucu_drv_fail(err, "cuModuleLoadData", r) : CUTE_CUDA_OK;
}

cute_cuda_status cute_cuda_function(void **fn, const cute_cuda_binary *bin,
                                    int i, cute_cuda_error *err)
{
  CUmodule m;
  CUfunction f;
  cute_cuda_status s;
  NEED_DRIVER(err);
  if (i < 0 || i >= bin->nnames)
    return cucu_fail(err, CUTE_CUDA_EINVAL,
                     "cute.cuda: kernel #%d of %d", i, bin->nnames);
  if ((s = module_of(&m, bin, err)) != CUTE_CUDA_OK) return s;
  CUCU_TRY(err, "cuModuleGetFunction",
           cucu_cu.ModuleGetFunction(&f, m, bin->lowered[i]));
  *fn = f;
  return CUTE_CUDA_OK;
}

cute_cuda_status cute_cuda_function_smem(void *fn, int bytes,
                                         cute_cuda_error *err)
{
  NEED_DRIVER(err);
  CUCU_TRY(err, "cuFuncSetAttribute(MAX_DYNAMIC_SHARED_SIZE_BYTES)",
           cucu_cu.FuncSetAttribute((CUfunction)fn,
                                    CUCU_FUNC_ATTR_MAX_DYNAMIC_SMEM, bytes));
  return CUTE_CUDA_OK;
}

/* -------------------------------------------------------------- launches -- */
void cute_cuda_launch_init(cute_cuda_launch *l, void *fn)
{
  int i;
  memset(l, 0, sizeof *l);
  l->fn = fn;
  l->grid[0] = l->grid[1] = l->grid[2] = 1;
  l->block[0] = l->block[1] = l->block[2] = 1;
  for (i = 0; i < CUTE_CUDA_MAX_ARGS; i++) l->argv[i] = &l->slot[i];
}

cute_cuda_status cute_cuda_launch_arg(cute_cuda_launch *l, int i,
                                      const void *value, int bytes,
                                      cute_cuda_error *err)
{
  if (i < 0 || i >= CUTE_CUDA_MAX_ARGS || bytes < 1 || bytes > 8)
    return cucu_fail(err, CUTE_CUDA_EINVAL,
                     "cute.cuda: launch argument #%d (%d bytes): at most %d "
                     "arguments of at most 8 bytes", i + 1, bytes,
                     CUTE_CUDA_MAX_ARGS);
  l->slot[i] = 0;
  memcpy(&l->slot[i], value, (size_t)bytes);
  if (i >= l->nargs) l->nargs = i + 1;
  return CUTE_CUDA_OK;
}

cute_cuda_status cute_cuda_launch_run(cute_cuda_launch *l,
                                      cute_cuda_error *err)
{
  CUresult r;
  NEED_DRIVER(err);
  /* argv points into this very struct: refresh in case it was copied. */
  if (l->argv[0] != &l->slot[0]) {
    int i;
    for (i = 0; i < CUTE_CUDA_MAX_ARGS; i++) l->argv[i] = &l->slot[i];
  }
  r = cucu_cu.LaunchKernel((CUfunction)l->fn, l->grid[0], l->grid[1],
                           l->grid[2], l->block[0], l->block[1], l->block[2],
                           l->smem, (CUstream)l->stream, l->argv, NULL);
  if (r != 0) return cucu_drv_fail(err, "cuLaunchKernel", r);
  cucu_stats_add(&cucu_stats.launches, 1, 0);
  return CUTE_CUDA_OK;
}

/* ------------------------------------------------------ events, streams -- */
cute_cuda_status cute_cuda_event_create(void **ev, cute_cuda_error *err)
{
  CUevent e;
  NEED_DRIVER(err);
  CUCU_TRY(err, "cuEventCreate", cucu_cu.EventCreate(&e, 0));
  *ev = e;
  return CUTE_CUDA_OK;
}

void cute_cuda_event_destroy(void *ev)
{
  if (ev && cucu_cu.EventDestroy) cucu_cu.EventDestroy((CUevent)ev);
}

cute_cuda_status cute_cuda_event_record(void *ev, void *stream,
                                        cute_cuda_error *err)
{
  NEED_DRIVER(err);
  CUCU_TRY(err, "cuEventRecord",
           cucu_cu.EventRecord((CUevent)ev, (CUstream)stream));
  return CUTE_CUDA_OK;
}

cute_cuda_status cute_cuda_event_elapsed(float *ms, void *start, void *stop,
                                         cute_cuda_error *err)
{
  NEED_DRIVER(err);
  CUCU_TRY(err, "cuEventSynchronize", cucu_cu.EventSynchronize((CUevent)stop));
  CUCU_TRY(err, "cuEventElapsedTime",
           cucu_cu.EventElapsedTime(ms, (CUevent)start, (CUevent)stop));
  return CUTE_CUDA_OK;
}

cute_cuda_status cute_cuda_stream_create(void **stream, cute_cuda_error *err)
{
  CUstream s;
  NEED_DRIVER(err);
  CUCU_TRY(err, "cuStreamCreate",
           cucu_cu.StreamCreate(&s, CUCU_STREAM_NON_BLOCKING));
  *stream = s;
  return CUTE_CUDA_OK;
}

void cute_cuda_stream_destroy(void *stream)
{
  if (stream && cucu_cu.StreamDestroy) cucu_cu.StreamDestroy((CUstream)stream);
}

cute_cuda_status cute_cuda_stream_sync(void *stream, cute_cuda_error *err)
{
  NEED_DRIVER(err);
  CUCU_TRY(err, "cuStreamSynchronize",
           cucu_cu.StreamSynchronize((CUstream)stream));
  return CUTE_CUDA_OK;
}
