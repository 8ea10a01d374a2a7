/*
 * devlib.c -- the device library (cuda/device/) as NVRTC sees it.
 *
 * Its headers are compiled into the binary (cuda/embed_device.cmake) and
 * handed to every NVRTC program as named headers, so a kernel writes
 * #include <cute/device.h> with no include path, no file on disk and
 * nothing from the CUDA toolkit's headers.  Their text is part of every
 * cache key (cucu_device_hash): a kernel compiled against one version of
 * the library is never loaded from the disk cache by a build with another.
 */
#include "cute_cuda_internal.h"

#include <pthread.h>
#include <string.h>

const char *cute_cuda_device_header(int i, const char **text, size_t *size)
{
  if (i < 0 || i >= cucu_device_header_count) return NULL;
  if (text) *text = cucu_device_headers[i].text;
  if (size) *size = cucu_device_headers[i].size;
  return cucu_device_headers[i].name;
}

/* The digest, computed once per process by whichever thread asks first
 * (pthread_once: threads compile at once, see cute_cuda.h). */
static char digest[65];
static pthread_once_t digest_once = PTHREAD_ONCE_INIT;

static void digest_library(void)
{
  cucu_sha256 d;
  int i;
  cucu_sha256_init(&d);
  for (i = 0; i < cucu_device_header_count; i++) {
    const cucu_header *x = &cucu_device_headers[i];
    cucu_sha256_update(&d, x->name, strlen(x->name) + 1);
    cucu_sha256_update(&d, x->text, x->size + 1);
  }
  cucu_sha256_hex(&d, digest);
}

void cucu_device_hash(cucu_sha256 *h)
{
  pthread_once(&digest_once, digest_library);
  cucu_sha256_update(h, "device-library", 15);
  cucu_sha256_update(h, digest, 65);
}
