/*
 * compile.c -- CUDA C to PTX or cubin through NVRTC, behind the cache.
 *
 * A warm run must not even load NVRTC (dlopen of its 100 MB costs 8 ms warm
 * and far more cold), yet keys include NVRTC's version.  So the version is
 * taken from a memo in the cache directory, keyed by the identity of the
 * library file that would be loaded (real path, size, mtime); NVRTC itself
 * is loaded only on a miss, and then the memo is written.
 */
#define _POSIX_C_SOURCE 200809L
#define _XOPEN_SOURCE 700 /* realpath */

#include "cute_cuda_internal.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

void cute_cuda_binary_free(cute_cuda_binary *b)
{
  int i;
  if (b->lowered)
    for (i = 0; i < b->nnames; i++) free(b->lowered[i]);
  free(b->lowered);
  free(b->image);
  free(b->log);
  memset(b, 0, sizeof *b);
}

/* sm_XY of the device when there is one, else compute_90 (PTX only). */
static void resolve_arch(const char *want, char out[16])
{
  cute_cuda_device_info info;
  if (want && *want) {
    snprintf(out, 16, "%s", want);
    return;
  }
  if (cute_cuda_device(&info, NULL) == CUTE_CUDA_OK)
    snprintf(out, 16, "%s", info.arch);
  else
    snprintf(out, 16, "compute_90");
}

/* "realpath:size:mtime" of the NVRTC library that would be loaded. */
static int nvrtc_identity(char *out, size_t cap)
{
  const char *p = cucu_nvrtc_locate();
  char real[PATH_MAX];
  struct stat st;
  if (p == NULL || realpath(p, real) == NULL || stat(real, &st) != 0)
    return 0;
  snprintf(out, cap, "%s:%lld:%lld", real, (long long)st.st_size,
           (long long)st.st_mtime);
  return 1;
}

/* The NVRTC version (set once per process, never NULL on success). */
static cute_cuda_status version_for_key(const char **v, cute_cuda_error *err)
{
  char id[PATH_MAX + 64];
  int have_id;
  cute_cuda_status s;
  if ((*v = cute_cuda_nvrtc_version()) != NULL) return CUTE_CUDA_OK;
  have_id = nvrtc_identity(id, sizeof id);
  if (have_id) {
    char *memo = cucu_cache_memo_get(id);
    if (memo) {
      cucu_nvrtc_set_known_version(memo);
      free(memo);
      if ((*v = cute_cuda_nvrtc_version()) != NULL) return CUTE_CUDA_OK;
    }
  }
  if ((s = cute_cuda_nvrtc_load(err)) != CUTE_CUDA_OK) return s;
  if ((*v = cute_cuda_nvrtc_version()) == NULL)
    return cucu_fail(err, CUTE_CUDA_ENOLIB, "cute.cuda: NVRTC loaded but its "
                     "version is unknown");
  if (have_id) cucu_cache_memo_put(id, *v);
  return CUTE_CUDA_OK;
}

/* Every option NVRTC gets: the architecture, C++17, no search of the
 * current directory (headers come from the directories the key covers),
 * the toolkit's include directory when present (for scripts that #include
 * <cuda_fp16.h>), then the caller's. */
static int build_options(const cute_cuda_program *p, const char *arch,
                         char bufs[2][PATH_MAX + 32], const char **opts,
                         int cap)
{
  const char *home = getenv("CUDA_HOME");
  char inc[PATH_MAX];
  int n = 0, i;
  snprintf(bufs[0], sizeof bufs[0], "--gpu-architecture=%s", arch);
  opts[n++] = bufs[0];
  opts[n++] = "--std=c++17";
  opts[n++] = "--no-source-include";
  snprintf(inc, sizeof inc, "%s/include",
           home && *home ? home : "/usr/local/cuda");
  if (access(inc, R_OK) == 0) {
    snprintf(bufs[1], sizeof bufs[1], "--include-path=%s", inc);
    opts[n++] = bufs[1];
  }
  for (i = 0; i < p->noptions && n < cap; i++) opts[n++] = p->options[i];
  return n;
}

static void hash_str(cucu_sha256 *h, const char *tag, const char *s)
{
  cucu_sha256_update(h, tag, strlen(tag) + 1);
  cucu_sha256_update(h, s, strlen(s) + 1);
}

/* The key; returns 0 when the program must not go to disk (an include
 * that cannot be found, so the key does not pin its contents). */
static int make_key(const cute_cuda_program *p, const char *version,
                    const char *arch, const char **opts, int nopts,
                    char key[65])
{
  cucu_sha256 h;
  int i, keyable;
  cucu_sha256_init(&h);
  hash_str(&h, "cutelua-cache", "2");
  hash_str(&h, "nvrtc", version);
  hash_str(&h, "arch", arch);
  for (i = 0; i < nopts; i++) hash_str(&h, "option", opts[i]);
  for (i = 0; i < p->nnames; i++) hash_str(&h, "name", p->names[i]);
  for (i = 0; i < p->nheaders; i++) {
    hash_str(&h, "header", p->include_names[i]);
    hash_str(&h, "text", p->headers[i]);
  }
  hash_str(&h, "source", p->source);
  cucu_device_hash(&h);
  keyable = cucu_hash_includes(&h, p->source, p->options, p->noptions);
  cucu_sha256_hex(&h, key);
  return keyable;
}

/* NVRTC's log, then the source with line numbers: the message a script
 * author needs to find the line the log names. */
static cute_cuda_status compile_error(cute_cuda_error *err, const char *arch,
                                      const char *log, const char *source)
{
  cute_cuda_text t = {0};
  const char *p = source;
  int line = 1;
  cute_cuda_status s;
  cute_cuda_text_printf(&t, "cute.cuda: NVRTC compile error (%s):\n%s\n"
                            "--- source ---\n", arch, log);
  while (*p) {
    const char *nl = strchr(p, '\n');
    int len = nl ? (int)(nl - p) : (int)strlen(p);
    cute_cuda_text_printf(&t, "%4d | %.*s\n", line++, len, p);
    p += len + (nl != NULL);
  }
  s = cucu_fail(err, CUTE_CUDA_ECOMPILE, "%s", t.s ? t.s : "");
  cute_cuda_text_free(&t);
  return s;
}

static cute_cuda_status rtc_fail(cute_cuda_error *err, const char *what,
                                 int r)
{
  return cucu_fail(err, CUTE_CUDA_ECOMPILE, "cute.cuda: %s: %s", what,
                   cucu_rtc.GetErrorString(r));
}

/* Copies results out of a compiled program into b. */
static cute_cuda_status harvest(nvrtcProgram prog,
                                const cute_cuda_program *p,
                                cute_cuda_binary *b, cute_cuda_error *err)
{
  int i, r;
  b->is_cubin = strncmp(b->arch, "sm_", 3) == 0;
  r = b->is_cubin ? cucu_rtc.GetCUBINSize(prog, &b->size)
                  : cucu_rtc.GetPTXSize(prog, &b->size);
  if (r) return rtc_fail(err, "nvrtcGet{CUBIN,PTX}Size", r);
  if ((b->image = malloc(b->size + 1)) == NULL ||
      (b->lowered = calloc((size_t)p->nnames + 1, sizeof(char *))) == NULL)
    return cucu_fail(err, CUTE_CUDA_ENOMEM, "cute.cuda: out of memory");
  r = b->is_cubin ? cucu_rtc.GetCUBIN(prog, b->image)
                  : cucu_rtc.GetPTX(prog, b->image);
  if (r) return rtc_fail(err, "nvrtcGet{CUBIN,PTX}", r);
  b->image[b->size] = 0;
  for (i = 0; i < p->nnames; i++) {
    const char *low = NULL;
    if (cucu_rtc.GetLoweredName(prog, p->names[i], &low) || low == NULL)
      return cucu_fail(err, CUTE_CUDA_ECOMPILE,
                       "cute.cuda: kernel '%s' not found in the source",
                       p->names[i]);
    if ((b->lowered[i] = cucu_strdup(low)) == NULL)
      return cucu_fail(err, CUTE_CUDA_ENOMEM, "cute.cuda: out of memory");
    b->nnames = i + 1;
  }
  return CUTE_CUDA_OK;
}

static cute_cuda_status run_nvrtc(const cute_cuda_program *p,
                                  const char **opts, int nopts,
                                  cute_cuda_binary *b, cute_cuda_error *err)
{
  nvrtcProgram prog = NULL;
  size_t loglen = 0;
  double t0 = cute_cuda_now_ms();
  cute_cuda_status s = CUTE_CUDA_OK;
  size_t all = (size_t)(p->nheaders + cucu_device_header_count + 1);
  const char **texts = malloc(all * sizeof *texts);
  const char **names = malloc(all * sizeof *names);
  int n = 0, i, r;
  /* The program's named headers, then the device library's: NVRTC parses
   * only those the source includes. */
  if (texts == NULL || names == NULL) {
    free(texts);
    free(names);
    return cucu_fail(err, CUTE_CUDA_ENOMEM, "cute.cuda: out of memory");
  }
  for (i = 0; i < p->nheaders; i++, n++) {
    texts[n] = p->headers[i];
    names[n] = p->include_names[i];
  }
  for (i = 0; i < cucu_device_header_count; i++, n++) {
    texts[n] = cucu_device_headers[i].text;
    names[n] = cucu_device_headers[i].name;
  }
  r = cucu_rtc.CreateProgram(&prog, p->source, "cutelua.cu", n, texts, names);
  free(texts);
  free(names);
  if (r) return rtc_fail(err, "nvrtcCreateProgram", r);
  for (i = 0; i < p->nnames && !r; i++)
    r = cucu_rtc.AddNameExpression(prog, p->names[i]);
  if (r) s = rtc_fail(err, "nvrtcAddNameExpression", r);
  if (!s) {
    int cr = cucu_rtc.CompileProgram(prog, nopts, opts);
    cucu_stats_add(&cucu_stats.nvrtc_calls, 1, 0);
    cucu_rtc.GetProgramLogSize(prog, &loglen);
    if ((b->log = calloc(loglen + 1, 1)) != NULL && loglen > 0)
      cucu_rtc.GetProgramLog(prog, b->log);
    if (b->log == NULL)
      s = cucu_fail(err, CUTE_CUDA_ENOMEM, "cute.cuda: out of memory");
    else if (cr)
      s = compile_error(err, b->arch, b->log, p->source);
    else
      s = harvest(prog, p, b, err);
  }
  cucu_rtc.DestroyProgram(&prog);
  b->compile_ms = cute_cuda_now_ms() - t0;
  cucu_stats_add(NULL, 0, b->compile_ms);
  return s;
}

cute_cuda_status cute_cuda_compile(const cute_cuda_program *p,
                                   cute_cuda_binary *out,
                                   cute_cuda_error *err)
{
  char bufs[2][PATH_MAX + 32];
  const char *opts[64], *version;
  cute_cuda_binary want;
  int nopts, disk;
  cute_cuda_status s;
  memset(out, 0, sizeof *out);
  memset(&want, 0, sizeof want);
  if (p->source == NULL || p->nnames < 0 || p->noptions < 0 ||
      p->noptions > 60 || p->nheaders < 0 ||
      (p->nheaders > 0 && (!p->headers || !p->include_names)))
    return cucu_fail(err, CUTE_CUDA_EINVAL,
                     "cute.cuda: compile: bad program description");
  if ((s = cucu_cache_ready(err)) != CUTE_CUDA_OK) return s;
  resolve_arch(p->arch, want.arch);
  want.is_cubin = strncmp(want.arch, "sm_", 3) == 0;
  want.nnames = p->nnames;
  if ((s = version_for_key(&version, err)) != CUTE_CUDA_OK) return s;
  nopts = build_options(p, want.arch, bufs, opts, 64);
  disk = make_key(p, version, want.arch, opts, nopts, want.key);
  if (!disk) cucu_stats_add(&cucu_stats.memory_only, 1, 0);
  if (cucu_cache_get(&want, disk, out)) return CUTE_CUDA_OK;
  if ((s = cute_cuda_nvrtc_load(err)) != CUTE_CUDA_OK) return s;
  memcpy(out->key, want.key, sizeof want.key);
  memcpy(out->arch, want.arch, sizeof want.arch);
  s = run_nvrtc(p, opts, nopts, out, err);
  if (s == CUTE_CUDA_OK) cucu_cache_put(out, disk, p->source);
  else cute_cuda_binary_free(out);
  return s;
}
