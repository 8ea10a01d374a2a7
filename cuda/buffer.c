/*
 * buffer.c -- whole-buffer operations that run through host memory: seeded
 * fills, comparisons with tolerances, and the bit-exact check of a copy
 * against the layouts.  They exist for tests and benchmarks, where data
 * must be reproducible and results checked on every element (or on a
 * seeded sample when the tensors are gigabytes).
 */
#include "cute_cuda_internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define CHUNK ((size_t)1 << 22) /* host staging bytes per transfer */

typedef void (*fill_fn)(void *host, cute_cuda_dtype t, size_t n, size_t first,
                        const double *arg);

static void fill_random_chunk(void *h, cute_cuda_dtype t, size_t n,
                              size_t first, const double *a)
{
  cute_cuda_host_random(h, t, n, (uint64_t)a[2], first, a[0], a[1]);
}

static void fill_iota_chunk(void *h, cute_cuda_dtype t, size_t n,
                            size_t first, const double *a)
{
  size_t i;
  for (i = 0; i < n; i++)
    cute_cuda_host_set(h, t, i, a[0] + (double)(first + i) * a[1]);
}

static cute_cuda_status fill(cute_cuda_ptr p, cute_cuda_dtype t, size_t n,
                             fill_fn f, const double *arg,
                             cute_cuda_error *err)
{
  size_t es = (size_t)cute_cuda_dtype_size(t), per = CHUNK / es, i;
  char *h = malloc(CHUNK);
  cute_cuda_status s = CUTE_CUDA_OK;
  if (h == NULL) return cucu_fail(err, CUTE_CUDA_ENOMEM, "cute.cuda: fill: out of memory");
  for (i = 0; i < n && s == CUTE_CUDA_OK; i += per) {
    size_t k = n - i < per ? n - i : per;
    f(h, t, k, i, arg);
    s = cute_cuda_upload(p + i * es, h, k * es, err);
  }
  free(h);
  return s;
}

cute_cuda_status cute_cuda_fill_random(cute_cuda_ptr p, cute_cuda_dtype t,
                                       size_t n, uint64_t seed, double lo,
                                       double hi, cute_cuda_error *err)
{
  double a[3];
  a[0] = lo;
  a[1] = hi;
  a[2] = (double)(seed & ((1ull << 52) - 1)); /* exact in a double */
  return fill(p, t, n, fill_random_chunk, a, err);
}

cute_cuda_status cute_cuda_fill_iota(cute_cuda_ptr p, cute_cuda_dtype t,
                                     size_t n, double start, double step,
                                     cute_cuda_error *err)
{
  double a[2];
  a[0] = start;
  a[1] = step;
  return fill(p, t, n, fill_iota_chunk, a, err);
}

static void compare_chunk(const void *g, const void *r, cute_cuda_dtype t,
                          size_t n, size_t first, double rtol, double atol,
                          cute_cuda_compare_result *res, double norms[2])
{
  size_t i;
  for (i = 0; i < n; i++) {
    double x = cute_cuda_host_get(g, t, i), y = cute_cuda_host_get(r, t, i);
    double d = fabs(x - y);
    if (!(d <= atol + rtol * fabs(y)) && !(x == y)) { /* NaN fails, inf == inf */
      if (res->bad++ == 0) res->first_bad = (int64_t)(first + i);
    }
    if (d > res->max_abs || isnan(d)) res->max_abs = d;
    if (isfinite(d)) norms[0] += d * d;
    norms[1] += y * y;
  }
}

cute_cuda_status cute_cuda_compare(cute_cuda_ptr got, cute_cuda_ptr ref,
                                   cute_cuda_dtype t, size_t n, double rtol,
                                   double atol, cute_cuda_compare_result *r,
                                   cute_cuda_error *err)
{
  size_t es = (size_t)cute_cuda_dtype_size(t), per = CHUNK / es, i;
  char *g = malloc(CHUNK), *h = malloc(CHUNK);
  double norms[2] = {0, 0};
  cute_cuda_status s = CUTE_CUDA_OK;
  memset(r, 0, sizeof *r);
  r->first_bad = -1;
  if (g == NULL || h == NULL)
    s = cucu_fail(err, CUTE_CUDA_ENOMEM, "cute.cuda: compare: out of memory");
  for (i = 0; i < n && s == CUTE_CUDA_OK; i += per) {
    size_t k = n - i < per ? n - i : per;
    if ((s = cute_cuda_download(g, got + i * es, k * es, err)) ||
        (s = cute_cuda_download(h, ref + i * es, k * es, err)))
      break;
    compare_chunk(g, h, t, k, i, rtol, atol, r, norms);
  }
  r->rel_norm = norms[1] > 0 ? sqrt(norms[0] / norms[1]) : sqrt(norms[0]);
  free(g);
  free(h);
  return s;
}

/* Downloads the span of a tensor; *base points at its element 0. */
static cute_cuda_status fetch(char **mem, char **base, cute_cuda_ptr p,
                              const cute_layout *L, size_t es,
                              cute_cuda_error *err)
{
  int64_t lo, hi;
  cute_cuda_status s;
  if (cute_layout_offset_range(L, &lo, &hi, NULL) != CUTE_OK)
    return cucu_fail(err, CUTE_CUDA_ELAYOUT, "cute.cuda: check_copy: "
                     "offsets overflow 64 bits");
  *mem = malloc((size_t)(hi - lo + 1) * es);
  if (*mem == NULL)
    return cucu_fail(err, CUTE_CUDA_ENOMEM, "cute.cuda: check_copy: out of memory");
  s = cute_cuda_download(*mem, p + (cute_cuda_ptr)((long long)lo * (long long)es),
                         (size_t)(hi - lo + 1) * es, err);
  *base = *mem - lo * (int64_t)es;
  return s;
}

/* The seeded sample: splitmix of the draw number, first and last included. */
static int64_t sample(int64_t j, int64_t n, int64_t count, uint64_t seed)
{
  uint64_t z;
  if (count >= n) return j;
  if (j == 0) return 0;
  if (j == 1) return n - 1;
  z = (seed + (uint64_t)j) * 0x9e3779b97f4a7c15ull;
  z = (z ^ (z >> 31)) * 0xbf58476d1ce4e5b9ull;
  return (int64_t)((z ^ (z >> 29)) % (uint64_t)n);
}

/* Integral layouts of one size n (a Ld shorter than Ls would be read past
 * its span, on the extended domain), of which at most CUTE_CUDA_MAX_CHECK
 * elements are compared: a stride-0 layout has any size. */
static cute_cuda_status check_operands(const cute_layout *Ls,
                                       const cute_layout *Ld, int64_t samples,
                                       int64_t *n, int64_t *count,
                                       cute_cuda_error *err)
{
  char ts[CUTE_MAX_TEXT], td[CUTE_MAX_TEXT];
  cute_cuda_status s = cucu_copy_operands("check_copy", Ls, Ld, n, ts, td,
                                          err);
  if (s != CUTE_CUDA_OK) return s;
  *count = samples <= 0 || samples > *n ? *n : samples;
  if (*count > CUTE_CUDA_MAX_CHECK)
    return cucu_fail(err, CUTE_CUDA_EINVAL, "cute.cuda: check_copy(%s, %s): "
                     "%lld elements exceed the limit of %lld elements a check "
                     "compares (CUTE_CUDA_MAX_CHECK); check a sample", ts, td,
                     (long long)*count, (long long)CUTE_CUDA_MAX_CHECK);
  return CUTE_CUDA_OK;
}

cute_cuda_status cute_cuda_check_copy(cute_cuda_ptr src, const cute_layout *Ls,
                                      cute_cuda_ptr dst, const cute_layout *Ld,
                                      cute_cuda_dtype t, int64_t samples,
                                      uint64_t seed, int64_t *bad,
                                      cute_cuda_error *err)
{
  size_t es = (size_t)cute_cuda_dtype_size(t);
  char *sm = NULL, *dm = NULL, *sb = NULL, *db = NULL;
  int64_t n, count, j;
  cute_cuda_status s;
  *bad = -1;
  if ((s = check_operands(Ls, Ld, samples, &n, &count, err)) != CUTE_CUDA_OK)
    return s;
  if ((s = fetch(&sm, &sb, src, Ls, es, err)) == CUTE_CUDA_OK &&
      (s = fetch(&dm, &db, dst, Ld, es, err)) == CUTE_CUDA_OK) {
    for (j = 0; j < count && *bad < 0; j++) {
      int64_t i = sample(j, n, count, seed), a, b;
      cute_layout_eval_index(Ls, i, &a, NULL);
      cute_layout_eval_index(Ld, i, &b, NULL);
      if (memcmp(sb + a * (int64_t)es, db + b * (int64_t)es, es) != 0) *bad = i;
    }
  }
  free(sm);
  free(dm);
  return s;
}
