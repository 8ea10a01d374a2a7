/*
 * test_cuda_cache.c -- what the kernel cache may serve, without a GPU.
 *
 *   * Keys change on every edit of a header NVRTC can read, however it is
 *     included: each spelling of `spellings` below (splices, comments,
 *     form feed, vertical tab, macros, -include / --pre-include options,
 *     NUL bytes, absolute paths, nested headers).  Add a spelling there
 *     when one is found.
 *   * A .bin that is not the request's entry is a miss: edited image,
 *     edited header, another key's file (NVRTC needed; skipped without).
 *   * Named headers handed to NVRTC are in the key (NVRTC needed).
 *   * A cache directory longer than CUTE_CUDA_CACHE_DIR_MAX is refused:
 *     given to configure, or as $CUTELUA_CACHE_DIR.
 */
#define _POSIX_C_SOURCE 200809L

#include "cute_cuda.h"
#include "testlib.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Reaches into the bridge for the include hash (not public API). */
#include "../../cuda/cute_cuda_internal.h"

static char dir[512], inc[600], out[600];

static void write_bytes(const char *path, const char *bytes, size_t n)
{
  FILE *f = fopen(path, "wb");
  CHECK(f != NULL, "cannot write %s", path);
  if (f == NULL) return;
  fwrite(bytes, 1, n, f);
  fclose(f);
}

static void write_file(const char *name, const char *text)
{
  char path[700];
  snprintf(path, sizeof path, "%s/%s", inc, name);
  write_bytes(path, text, strlen(text));
}

/* The include part of the key of `source` under options, in hex. */
static int key(const char *source, const char *const *opts, int n,
               char hex[65])
{
  cucu_sha256 h;
  int ok;
  cucu_sha256_init(&h);
  ok = cucu_hash_includes(&h, source, opts, n);
  cucu_sha256_hex(&h, hex);
  return ok;
}

typedef struct spelling {
  const char *what, *source;
  int pre;              /* 1: x.h comes by -include x.h, 2: --pre-include= */
} spelling;

/* Each names x.h (in the include directory) or includes y.h, which
 * includes x.h; the test edits x.h and wants another key. */
static const spelling spellings[] = {
  {"plain", "#include \"x.h\"\n", 0},
  {"angled", "#include <x.h>\n", 0},
  {"splice", "#\\\ninclude \"x.h\"\n", 0},
  {"comment before #", "/**/#include \"x.h\"\n", 0},
  {"form feed before #", "\f#include \"x.h\"\n", 0},
  {"vertical tab before #", "\v#include \"x.h\"\n", 0},
  {"macro", "#define H \"x.h\"\n#include H\n", 0},
  {"token paste", "#define S(a) #a\n#define C(a,b) S(a##b)\n#include C(x,.h)\n", 0},
  {"nested in y.h", "#include \"y.h\"\n", 0},
  {"-include option", "", 1},
  {"--pre-include option", "", 2},
  {"inside #if 0", "#if 0\n#include \"x.h\"\n#endif\n", 0},
};

static void test_spellings(void)
{
  char k1[65], k2[65], opt_i[700], opt_pre[700];
  size_t i;
  snprintf(opt_i, sizeof opt_i, "-I%s", inc);
  for (i = 0; i < sizeof spellings / sizeof spellings[0]; i++) {
    const spelling *s = &spellings[i];
    const char *opts[3];
    int n = 0;
    opts[n++] = opt_i;
    if (s->pre == 1) { opts[n++] = "-include"; opts[n++] = "x.h"; }
    if (s->pre == 2) {
      snprintf(opt_pre, sizeof opt_pre, "--pre-include=x.h");
      opts[n++] = opt_pre;
    }
    write_file("x.h", "#define V 1\n");
    write_file("y.h", "#pragma once\n/**/#\\\ninclude \"x.h\"\n");
    CHECK(key(s->source, opts, n, k1), "%s: keyable", s->what);
    write_file("x.h", "#define V 2\n");
    CHECK(key(s->source, opts, n, k2), "%s: keyable after", s->what);
    CHECK(strcmp(k1, k2) != 0, "%s: an edit of x.h changes the key", s->what);
  }
}

/* A NUL byte in a header: what follows it is still in the key. */
static void test_nul_byte(void)
{
  char k1[65], k2[65], opt[700], path[700];
  const char *opts[1];
  snprintf(opt, sizeof opt, "-I%s", inc);
  opts[0] = opt;
  snprintf(path, sizeof path, "%s/x.h", inc);
  write_bytes(path, "// a\0\n#define V 1\n", 18);
  CHECK(key("#include \"x.h\"\n", opts, 1, k1), "NUL: keyable");
  write_bytes(path, "// a\0\n#define V 2\n", 18);
  CHECK(key("#include \"x.h\"\n", opts, 1, k2), "NUL: keyable after");
  CHECK(strcmp(k1, k2) != 0, "an edit past a NUL byte changes the key");
}

/* A header named by an absolute path outside the include directories, and
 * an -include of one. */
static void test_outside(void)
{
  char k1[65], k2[65], path[700], src[800], opt[800];
  const char *opts[1];
  snprintf(path, sizeof path, "%s/outside.h", out);
  snprintf(src, sizeof src, "#include \"%s\"\n", path);
  write_bytes(path, "#define V 1\n", 12);
  CHECK(key(src, NULL, 0, k1), "absolute: keyable");
  write_bytes(path, "#define V 2\n", 12);
  CHECK(key(src, NULL, 0, k2), "absolute: keyable after");
  CHECK(strcmp(k1, k2) != 0, "an edit of an absolute include changes the key");
  snprintf(opt, sizeof opt, "--pre-include=%s", path);
  opts[0] = opt;
  CHECK(key("", opts, 1, k1), "absolute -include: keyable");
  write_bytes(path, "#define V 3\n", 12);
  CHECK(key("", opts, 1, k2), "absolute -include: keyable after");
  CHECK(strcmp(k1, k2) != 0, "an edit of a pre-included file changes the key");
}

/* ------------------------------------------------------ with NVRTC only -- */
static const char *kernel_src =
    "extern \"C\" __global__ void k(float *p) { p[0] = 1; }\n";

static int compile(cute_cuda_program *p, cute_cuda_binary *b)
{
  cute_cuda_error err = {0};
  cute_cuda_status s = cute_cuda_compile(p, b, &err);
  CHECK(s == CUTE_CUDA_OK, "compile: %s", err.msg ? err.msg : "");
  cute_cuda_error_clear(&err);
  return s == CUTE_CUDA_OK;
}

static void bin_path(char *path, size_t cap, const char *cache,
                     const char *k)
{
  snprintf(path, cap, "%s/kernels/%.2s/%s.bin", cache, k, k);
}

/* Recompiles p after forgetting memory; returns from_cache. */
static int again(cute_cuda_program *p)
{
  cute_cuda_binary b;
  int from;
  cute_cuda_cache_forget_memory();
  if (!compile(p, &b)) return -1;
  from = b.from_cache;
  cute_cuda_binary_free(&b);
  return from;
}

/* Flips one byte: `at` bytes before the end, or -at bytes from the start
 * when at < 0. */
static void flip(const char *path, long at)
{
  FILE *f = fopen(path, "r+b");
  int c;
  CHECK(f != NULL, "open %s", path);
  if (f == NULL) return;
  fseek(f, at >= 0 ? -at - 1 : -at, at >= 0 ? SEEK_END : SEEK_SET);
  c = fgetc(f);
  fseek(f, -1, SEEK_CUR);
  fputc(c ^ 1, f);
  fclose(f);
}

static void copy_file(const char *from, const char *to)
{
  size_t n = 0;
  char *data = cucu_read_file(from, &n);
  CHECK(data != NULL, "read %s", from);
  if (data) write_bytes(to, data, n);
  free(data);
}

static void test_entries(const char *cache)
{
  const char *names[] = {"k"};
  cute_cuda_program p = {0}, q = {0};
  cute_cuda_binary a, b;
  char pa[1400], pb[1400];
  p.source = kernel_src;
  p.names = names;
  p.nnames = 1;
  p.arch = "compute_90";
  q = p;
  q.arch = "compute_80";
  cute_cuda_cache_configure(CUTE_CUDA_CACHE_DISK, cache, NULL);
  if (!compile(&p, &a) || !compile(&q, &b)) return;
  bin_path(pa, sizeof pa, cache, a.key);
  bin_path(pb, sizeof pb, cache, b.key);
  CHECK(again(&p) == 2, "an intact entry is a disk hit");
  flip(pa, 3);                        /* an edited image */
  CHECK(again(&p) == 0, "an edited image is a miss");
  CHECK(again(&p) == 2, "... and rewritten");
  flip(pa, -20);                      /* an edited header (the key line) */
  CHECK(again(&p) == 0, "an edited header is a miss");
  copy_file(pb, pa);                  /* another request's entry */
  CHECK(again(&p) == 0, "a foreign entry (compute_80's) is a miss");
  CHECK(again(&p) == 2, "... and rewritten");
  cute_cuda_binary_free(&a);
  cute_cuda_binary_free(&b);
}

/* Named headers are in the key, and NVRTC reads them. */
static void test_named_headers(void)
{
  const char *names[] = {"k"}, *hn[] = {"lib/v.h"};
  const char *h1[] = {"#define V 1.5f\n"}, *h2[] = {"#define V 2.5f\n"};
  cute_cuda_program p = {0};
  cute_cuda_binary a, b;
  p.source = "#include <lib/v.h>\n"
             "extern \"C\" __global__ void k(float *p) { p[0] = V; }\n";
  p.names = names;
  p.nnames = 1;
  p.arch = "compute_90";
  p.headers = h1;
  p.include_names = hn;
  p.nheaders = 1;
  if (!compile(&p, &a)) return;
  p.headers = h2;
  if (!compile(&p, &b)) return;
  CHECK(strcmp(a.key, b.key) != 0, "an edit of a named header changes the key");
  CHECK(strstr(a.image, "1069547520") && strstr(b.image, "1075838976"),
        "NVRTC read the named headers");
  cute_cuda_binary_free(&a);
  cute_cuda_binary_free(&b);
}

/* --------------------------------------------------------- directories -- */
static void test_long_dir(void)
{
  char long_dir[CUTE_CUDA_CACHE_DIR_MAX + 2], got[CUTE_CUDA_CACHE_DIR_MAX + 1];
  const char *names[] = {"k"};
  cute_cuda_program p = {0};
  cute_cuda_binary b;
  cute_cuda_error err = {0};
  memset(long_dir, 'd', sizeof long_dir - 1);
  long_dir[0] = '/';
  long_dir[sizeof long_dir - 1] = 0;              /* 1024 characters */
  /* $CUTELUA_CACHE_DIR, read on first use: every compile says why */
  setenv("CUTELUA_CACHE_DIR", long_dir, 1);
  p.source = kernel_src;
  p.names = names;
  p.nnames = 1;
  p.arch = "compute_90";
  CHECK(cute_cuda_compile(&p, &b, &err) == CUTE_CUDA_EINVAL,
        "a 1024-character CUTELUA_CACHE_DIR is refused");
  CHECK(err.msg && strstr(err.msg, "$CUTELUA_CACHE_DIR is 1024 characters "
                                   "long, more than the 1023 allowed"),
        "message: %s", err.msg ? err.msg : "(none)");
  cute_cuda_error_clear(&err);
  unsetenv("CUTELUA_CACHE_DIR");
  /* configure: refused, settings unchanged; 1023 characters are fine */
  CHECK(cute_cuda_cache_configure(CUTE_CUDA_CACHE_DISK, long_dir, &err) ==
            CUTE_CUDA_EINVAL, "configure refuses 1024 characters");
  CHECK(err.msg && strstr(err.msg, "more than the 1023 allowed"), "message: %s",
        err.msg ? err.msg : "(none)");
  cute_cuda_error_clear(&err);
  long_dir[CUTE_CUDA_CACHE_DIR_MAX] = 0;
  CHECK(cute_cuda_cache_configure(CUTE_CUDA_CACHE_MEMORY, long_dir, &err) ==
            CUTE_CUDA_OK, "configure takes 1023 characters");
  CHECK(strcmp(cute_cuda_cache_dir(got), long_dir) == 0, "the whole of it");
}

int main(void)
{
  cute_cuda_error err = {0};
  char cache[700];
  mkdir(CUTE_TEST_DIR, 0755);
  snprintf(dir, sizeof dir, "%s/cache-%ld", CUTE_TEST_DIR, (long)getpid());
  snprintf(inc, sizeof inc, "%s/inc", dir);
  snprintf(out, sizeof out, "%s/out", dir);
  snprintf(cache, sizeof cache, "%s/cache", dir);
  mkdir(dir, 0755);
  mkdir(inc, 0755);
  mkdir(out, 0755);
  test_long_dir();   /* first: $CUTELUA_CACHE_DIR is read on first use */
  test_spellings();
  test_nul_byte();
  test_outside();
  if (cute_cuda_nvrtc_load(&err) == CUTE_CUDA_OK) {
    test_entries(cache);
    test_named_headers();
  } else {
    printf("skip: no NVRTC (%s)\n", err.msg);
    cute_cuda_error_clear(&err);
  }
  {
    char cmd[700];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    CHECK(system(cmd) == 0, "rm %s", dir);
  }
  return test_finish();
}
