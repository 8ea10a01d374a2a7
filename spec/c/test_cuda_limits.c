/*
 * test_cuda_limits.c -- the limits of cuda/cute_cuda.h, hit once each,
 * without a GPU: cute_cuda_check_copy refuses a check of more than
 * CUTE_CUDA_MAX_CHECK elements (and layouts of different sizes) before it
 * touches the device; the include scan that keys the disk cache reads
 * each header once (a self-including header, an include cycle, a header
 * shared by many), and stops at CUTE_CUDA_MAX_INCLUDES distinct headers
 * and CUTE_CUDA_MAX_INCLUDE_DEPTH levels, leaving the program unkeyable
 * (memory only).
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

/* Each header is hashed once: a self-including header, a cycle (also
 * through "../") and a shared header end there, and its content is still
 * in the key. */
static void test_include_once(const char *dir)
{
  char path[600], k1[65], k2[65];
  static char many[2 * CUTE_CUDA_MAX_INCLUDES * 24];
  size_t k = 0;
  clock_t t0 = clock();
  double secs;
  int i;
  /* self.h includes itself 4 times: 4^16 reads unless read once */
  snprintf(path, sizeof path, "%s/self.h", dir);
  write_file(path, "#include \"self.h\"\n#include \"self.h\"\n"
                   "#include \"self.h\"\n#include \"self.h\"\n");
  CHECK(keyable("#include \"self.h\"\n", dir, NULL), "self.h is keyable");
  secs = (double)(clock() - t0) / CLOCKS_PER_SEC;
  CHECK(secs < 2, "the scan of self.h took %.2f s", secs);
  /* a.h <-> b.h, both #pragma once: legitimate, keyable, and b.h's
   * content is in the key */
  snprintf(path, sizeof path, "%s/a.h", dir);
  write_file(path, "#pragma once\n#include \"b.h\"\n");
  snprintf(path, sizeof path, "%s/b.h", dir);
  write_file(path, "#pragma once\n#include \"a.h\"\n");
  CHECK(keyable("#include \"a.h\"\n", dir, k1), "a.h <-> b.h is keyable");
  write_file(path, "#pragma once\n#include \"a.h\"\n// changed\n");
  CHECK(keyable("#include \"a.h\"\n", dir, k2), "a.h <-> b.h changed");
  CHECK(strcmp(k1, k2) != 0, "a change of b.h changes the key");
  /* sub/c.h -> "../d.h" -> "sub/c.h": the same files by other names */
  snprintf(path, sizeof path, "%s/sub", dir);
  mkdir(path, 0755);
  snprintf(path, sizeof path, "%s/sub/c.h", dir);
  write_file(path, "#include \"../d.h\"\n");
  snprintf(path, sizeof path, "%s/d.h", dir);
  write_file(path, "#include \"sub/c.h\"\n");
  CHECK(keyable("#include <sub/c.h>\n", dir, NULL), "c.h <-> ../d.h");
  /* a header included 2 * CUTE_CUDA_MAX_INCLUDES times is read once: the
   * key is that of one include */
  snprintf(path, sizeof path, "%s/common.h", dir);
  write_file(path, "// common\n");
  for (i = 0; i < 2 * CUTE_CUDA_MAX_INCLUDES; i++)
    k += (size_t)snprintf(many + k, sizeof many - k, "#include <common.h>\n");
  CHECK(keyable(many, dir, k1), "common.h %d times",
        2 * CUTE_CUDA_MAX_INCLUDES);
  CHECK(keyable("#include <common.h>\n", dir, k2), "common.h once");
  CHECK(strcmp(k1, k2) == 0, "common.h is hashed once");
}

/* The limits count distinct headers and nesting levels. */
static void test_include_limits(const char *dir)
{
  char path[600], text[64], k1[65], k2[65];
  static char many[(CUTE_CUDA_MAX_INCLUDES + 1) * 24];
  size_t k = 0;
  int i;
  /* a chain h0.h -> h1.h -> ...: CUTE_CUDA_MAX_INCLUDE_DEPTH levels are
   * followed, one more is not */
  for (i = 0; i <= CUTE_CUDA_MAX_INCLUDE_DEPTH; i++) {
    snprintf(path, sizeof path, "%s/h%d.h", dir, i);
    snprintf(text, sizeof text, i < CUTE_CUDA_MAX_INCLUDE_DEPTH
                                    ? "#include \"h%d.h\"\n" : "// end %d\n",
             i + 1);
    write_file(path, text);
  }
  snprintf(text, sizeof text, "#include \"h%d.h\"\n", 1);
  CHECK(keyable(text, dir, NULL), "h1.h: %d levels",
        CUTE_CUDA_MAX_INCLUDE_DEPTH);
  CHECK(!keyable("#include \"h0.h\"\n", dir, NULL), "h0.h: %d levels",
        CUTE_CUDA_MAX_INCLUDE_DEPTH + 1);
  /* n0.h ... each include shared.h: CUTE_CUDA_MAX_INCLUDES distinct
   * headers (shared.h among them) are read, one more is not */
  snprintf(path, sizeof path, "%s/shared.h", dir);
  write_file(path, "// shared\n");
  for (i = 0; i < CUTE_CUDA_MAX_INCLUDES; i++) {
    snprintf(path, sizeof path, "%s/n%d.h", dir, i);
    write_file(path, "#include \"shared.h\"\n");
    if (i < CUTE_CUDA_MAX_INCLUDES - 1)
      k += (size_t)snprintf(many + k, sizeof many - k,
                            "#include <n%d.h>\n", i);
  }
  CHECK(keyable(many, dir, k1), "%d headers", CUTE_CUDA_MAX_INCLUDES);
  snprintf(path, sizeof path, "%s/shared.h", dir);
  write_file(path, "// shared, changed\n");
  CHECK(keyable(many, dir, k2), "%d headers", CUTE_CUDA_MAX_INCLUDES);
  CHECK(strcmp(k1, k2) != 0, "a change of shared.h changes the key");
  snprintf(many + k, sizeof many - k, "#include <n%d.h>\n", i - 1);
  CHECK(!keyable(many, dir, NULL), "%d headers", CUTE_CUDA_MAX_INCLUDES + 1);
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
