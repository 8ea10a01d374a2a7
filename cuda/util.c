/*
 * util.c -- errors, growable text and the clock of the CUDA bridge.
 */
#define _POSIX_C_SOURCE 200809L

#include "cute_cuda_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

void cute_cuda_error_clear(cute_cuda_error *err)
{
  if (err == NULL) return;
  free(err->msg);
  err->msg = NULL;
  err->code = CUTE_CUDA_OK;
}

char *cucu_strdup(const char *s)
{
  size_t n = strlen(s) + 1;
  char *d = malloc(n);
  if (d != NULL) memcpy(d, s, n);
  return d;
}

/* ------------------------------------------------------------------ text -- */
static int text_reserve(cute_cuda_text *t, size_t extra)
{
  size_t need = t->len + extra + 1, cap;
  char *s;
  if (t->oom) return 0;
  if (need <= t->cap) return 1;
  cap = t->cap ? t->cap : 256;
  while (cap < need) cap *= 2;
  s = realloc(t->s, cap);
  if (s == NULL) {
    t->oom = 1;
    return 0;
  }
  t->s = s;
  t->cap = cap;
  return 1;
}

void cute_cuda_text_free(cute_cuda_text *t)
{
  free(t->s);
  memset(t, 0, sizeof *t);
}

void cute_cuda_text_puts(cute_cuda_text *t, const char *s)
{
  size_t n = strlen(s);
  if (!text_reserve(t, n)) return;
  memcpy(t->s + t->len, s, n + 1);
  t->len += n;
}

void cute_cuda_text_vprintf(cute_cuda_text *t, const char *fmt, va_list ap)
{
  va_list aq;
  int n;
  va_copy(aq, ap);
  n = vsnprintf(NULL, 0, fmt, aq);
  va_end(aq);
  if (n < 0 || !text_reserve(t, (size_t)n)) return;
  vsnprintf(t->s + t->len, (size_t)n + 1, fmt, ap);
  t->len += (size_t)n;
}

void cute_cuda_text_printf(cute_cuda_text *t, const char *fmt, ...)
{
  va_list ap;
  va_start(ap, fmt);
  cute_cuda_text_vprintf(t, fmt, ap);
  va_end(ap);
}

/* The whole file, NUL-terminated (heap), or NULL. */
char *cucu_read_file(const char *path, size_t *size)
{
  FILE *f = fopen(path, "rb");
  char *buf = NULL;
  long n;
  if (f == NULL) return NULL;
  if (fseek(f, 0, SEEK_END) == 0 && (n = ftell(f)) >= 0 &&
      fseek(f, 0, SEEK_SET) == 0 && (buf = malloc((size_t)n + 1)) != NULL) {
    if (fread(buf, 1, (size_t)n, f) != (size_t)n) {
      free(buf);
      buf = NULL;
    } else {
      buf[n] = 0;
      *size = (size_t)n;
    }
  }
  fclose(f);
  return buf;
}

/* ---------------------------------------------------------------- errors -- */
cute_cuda_status cucu_fail(cute_cuda_error *err, cute_cuda_status code,
                           const char *fmt, ...)
{
  cute_cuda_text t = {0};
  va_list ap;
  if (err == NULL) return code;
  va_start(ap, fmt);
  cute_cuda_text_vprintf(&t, fmt, ap);
  va_end(ap);
  free(err->msg);
  err->code = code;
  /* Out of memory while reporting: a static-free fallback is not possible
   * with a heap message, so leave msg NULL and let the caller print the
   * code's name. */
  err->msg = t.oom ? (free(t.s), NULL) : t.s;
  return code;
}

cute_cuda_status cucu_drv_fail(cute_cuda_error *err, const char *what,
                               CUresult r)
{
  const char *name = NULL, *desc = NULL;
  if (cucu_cu.GetErrorName) cucu_cu.GetErrorName(r, &name);
  if (cucu_cu.GetErrorString) cucu_cu.GetErrorString(r, &desc);
  return cucu_fail(err, r == CUCU_ERROR_NO_DEVICE ? CUTE_CUDA_ENODEVICE
                                                  : CUTE_CUDA_EDRIVER,
                   "cute.cuda: %s: %s (%d): %s", what,
                   name ? name : "CUDA_ERROR", r,
                   desc ? desc : "unknown error");
}

double cute_cuda_now_ms(void)
{
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec * 1e-6;
}
