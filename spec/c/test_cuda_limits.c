/*
 * test_cuda_limits.c -- the limits of cuda/cute_cuda.h, hit once each,
 * without a GPU: cute_cuda_check_copy refuses a check of more than
 * CUTE_CUDA_MAX_CHECK elements (and layouts of different sizes) before it
 * touches the device; the key's walk of the include directories stops
 * at CUTE_CUDA_MAX_INCLUDES files and CUTE_CUDA_MAX_INCLUDE_DEPTH levels,
 * leaving the program unkeyable (memory only), and hashes a header named
 * by an absolute path once however often it is named (cycles included).
 */
#define _POSIX_C_SOURCE 200809L

#include "cute_cuda.h"
#include "testlib.h"

#include <dirent.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

/* Reaches into the bridge for the include scan (not public API). */
#include "../../cuda/cute_cuda_internal.h"

#define HAS(msg, needle) \
  CHECK((msg) != NULL && strstr((msg), (needle)) != NULL, "[%s] lacks [%s]", \
        (msg) ? (msg) : "(null)", (needle))

/* check_copy(src, dst, samples) on null pointers: only the checks run. */
static cute_cuda_status check(const char *src, const char *dst,
                              int64_t samples, cute_cuda_error *err)
{
  cute_layout Ls = L(src), Ld = L(dst);
  int64_t bad;
  cute_cuda_error_clear(err);
  return cute_cuda_check_copy(0, &Ls, 0, &Ld, CUTE_F32, samples, 1,
                              &bad, err);
}

static void test_check_copy(void)
{
  cute_cuda_error err = {0};
  CHECK(check("1073741824:0", "1073741824:1", 0, &err) == CUTE_CUDA_EINVAL,
        "a full check of 2^30 elements");
  HAS(err.msg, "cute.cuda: check_copy(1073741824:0, 1073741824:1): "
               "1073741824 elements exceed the limit of 268435456 elements "
               "a check compares (CUTE_CUDA_MAX_CHECK); check a sample");
  CHECK(check("1073741824:0", "1073741824:1", CUTE_CUDA_MAX_CHECK + 1, &err)
            == CUTE_CUDA_EINVAL, "a sample past the limit");
  HAS(err.msg, "268435457 elements exceed the limit of 268435456");
  /* a sample within the limit passes the checks (and then reads one
   * element at address 0: a driver error, or no driver) */
  CHECK(check("1073741824:0", "1073741824:0", 1000, &err) != CUTE_CUDA_EINVAL,
        "a sample of 1000: %s", err.msg ? err.msg : "");
  CHECK(check("(4,8):(1,4)", "16:1", 0, &err) == CUTE_CUDA_EINVAL,
        "sizes differ");
  HAS(err.msg, "cute.cuda: check_copy((4,8):(1,4), 16:1): size(src) == "
               "size(dst) violated");
  CHECK(check("(4,8):(1@0,1@1)", "32:1", 0, &err) == CUTE_CUDA_ELAYOUT,
        "a coordinate layout");
  HAS(err.msg, "check_copy((4,8):(1@0,1@1), 32:1): tensors need integral");
  cute_cuda_error_clear(&err);
}

static void write_file(const char *path, const char *text)
{
  FILE *f = fopen(path, "w");
  CHECK(f != NULL, "cannot write %s", path);
  if (f == NULL) return;
  fputs(text, f);
  fclose(f);
}

/* Is the program `source` keyable with -I dir?  hex (if not NULL) gets
 * what its includes add to the key. */
static int keyable(const char *source, const char *dir, char hex[65])
{
  char opt[600], h65[65];
  const char *opts[1];
  cucu_sha256 h;
  int ok;
  snprintf(opt, sizeof opt, "-I%s", dir);
  opts[0] = opt;
  cucu_sha256_init(&h);
  ok = cucu_hash_includes(&h, source, opts, 1);
  cucu_sha256_hex(&h, hex ? hex : h65);
  return ok;
}

/* Removes dir and what it holds. */
static void remove_tree(const char *dir)
{
  char path[700];
  struct dirent *e;
  DIR *d = opendir(dir);
  while (d != NULL && (e = readdir(d)) != NULL) {
    if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
      continue;
    snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
    if (remove(path) != 0) remove_tree(path);   /* a directory */
  }
  if (d != NULL) closedir(d);
  CHECK(rmdir(dir) == 0, "cannot remove %s", dir);
}

/* A file named by its absolute path, from itself and through "../", is
 * hashed once, and quickly: the set of files named outside the include
 * directories ends every cycle. */
static void test_include_once(const char *dir)
{
  char path[600], text[1400], inc[600], k1[65], k2[65];
  clock_t t0 = clock();
  double secs;
  snprintf(inc, sizeof inc, "%s/inc", dir);
  mkdir(inc, 0755);
  snprintf(path, sizeof path, "%s/self.h", dir);
  snprintf(text, sizeof text, "#include \"%s\"\n#include \"%s\"\n"
           "#include \"../self.h\"\n#include \"../self.h\"\n", path, path);
  write_file(path, text);
  snprintf(text, sizeof text, "#include \"%s\"\n", path);
  CHECK(keyable(text, inc, k1), "self.h is keyable");
  secs = (double)(clock() - t0) / CLOCKS_PER_SEC;
  CHECK(secs < 2, "the scan of self.h took %.2f s", secs);
  snprintf(text, sizeof text, "#include \"%s\"\n#include \"%s\"\n", path,
           path);
  CHECK(keyable(text, inc, k2), "self.h twice");
  CHECK(strcmp(k1, k2) == 0, "self.h is hashed once");
}

/* The limits count the files under the include directories and the
 * depth of their directories. */
static void test_include_limits(const char *dir)
{
  char path[900], sub[800];
  int i;
  /* deep/1/2/.../17/x.h: CUTE_CUDA_MAX_INCLUDE_DEPTH levels below an
   * include directory are followed, one more is not */
  snprintf(sub, sizeof sub, "%s/deep", dir);
  mkdir(sub, 0755);
  for (i = 1; i <= CUTE_CUDA_MAX_INCLUDE_DEPTH + 1; i++) {
    size_t n = strlen(sub);
    snprintf(sub + n, sizeof sub - n, "/%d", i);
    mkdir(sub, 0755);
  }
  snprintf(path, sizeof path, "%s/x.h", sub);
  write_file(path, "// deep\n");
  snprintf(path, sizeof path, "%s/deep/1", dir);
  CHECK(keyable("", path, NULL), "%d levels", CUTE_CUDA_MAX_INCLUDE_DEPTH);
  snprintf(path, sizeof path, "%s/deep", dir);
  CHECK(!keyable("", path, NULL), "%d levels",
        CUTE_CUDA_MAX_INCLUDE_DEPTH + 1);
  /* CUTE_CUDA_MAX_INCLUDES files are hashed, one more is not */
  snprintf(sub, sizeof sub, "%s/many", dir);
  mkdir(sub, 0755);
  for (i = 0; i < CUTE_CUDA_MAX_INCLUDES; i++) {
    snprintf(path, sizeof path, "%s/n%d.h", sub, i);
    write_file(path, "// n\n");
  }
  CHECK(keyable("", sub, NULL), "%d files", CUTE_CUDA_MAX_INCLUDES);
  snprintf(path, sizeof path, "%s/one-more.h", sub);
  write_file(path, "// n\n");
  CHECK(!keyable("", sub, NULL), "%d files", CUTE_CUDA_MAX_INCLUDES + 1);
}

static void test_includes(void)
{
  char dir[512];
  mkdir(CUTE_TEST_DIR, 0755);
  snprintf(dir, sizeof dir, "%s/limits-%ld", CUTE_TEST_DIR, (long)getpid());
  mkdir(dir, 0755);
  test_include_once(dir);
  test_include_limits(dir);
  remove_tree(dir);
}

int main(void)
{
  test_check_copy();
  test_includes();
  return test_finish();
}
