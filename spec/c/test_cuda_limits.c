/*
 * test_cuda_limits.c -- the limits of cuda/cute_cuda.h, hit once each,
 * without a GPU: cute_cuda_check_copy refuses a check of more than
 * CUTE_CUDA_MAX_CHECK elements (and layouts of different sizes) before it
 * touches the device; the include scan that keys the disk cache stops at
 * CUTE_CUDA_MAX_INCLUDES headers and CUTE_CUDA_MAX_INCLUDE_DEPTH levels,
 * leaving the program unkeyable (memory only) instead of reading a
 * self-including header 4^16 times.
 */
#define _POSIX_C_SOURCE 200809L

#include "cute_cuda.h"
#include "testlib.h"

#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

/* Reaches into the bridge for the include scan (not public API). */
#include "../../cuda/internal.h"

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

/* Is the program `source` keyable with -I dir? */
static int keyable(const char *source, const char *dir)
{
  char opt[600];
  const char *opts[1];
  cucu_sha256 h;
  snprintf(opt, sizeof opt, "-I%s", dir);
  opts[0] = opt;
  cucu_sha256_init(&h);
  return cucu_hash_includes(&h, source, opts, 1);
}

static void test_includes(void)
{
  char dir[512], path[600], text[64];
  clock_t t0;
  double secs;
  int i;
  mkdir(CUTE_TEST_DIR, 0755);
  snprintf(dir, sizeof dir, "%s/limits-%ld", CUTE_TEST_DIR, (long)getpid());
  mkdir(dir, 0755);
  /* self.h includes itself 4 times: 4^16 reads without the limits */
  snprintf(path, sizeof path, "%s/self.h", dir);
  write_file(path, "#include \"self.h\"\n#include \"self.h\"\n"
                   "#include \"self.h\"\n#include \"self.h\"\n");
  t0 = clock();
  CHECK(!keyable("#include \"self.h\"\n", dir), "self.h: memory only");
  secs = (double)(clock() - t0) / CLOCKS_PER_SEC;
  CHECK(secs < 2, "the scan of self.h took %.2f s", secs);
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
  CHECK(keyable(text, dir), "h1.h: %d levels", CUTE_CUDA_MAX_INCLUDE_DEPTH);
  CHECK(!keyable("#include \"h0.h\"\n", dir), "h0.h: %d levels",
        CUTE_CUDA_MAX_INCLUDE_DEPTH + 1);
  /* CUTE_CUDA_MAX_INCLUDES headers are read, one more is not */
  snprintf(path, sizeof path, "%s/leaf.h", dir);
  write_file(path, "// leaf\n");
  {
    static char many[(CUTE_CUDA_MAX_INCLUDES + 1) * 20];
    size_t k = 0;
    for (i = 0; i < CUTE_CUDA_MAX_INCLUDES; i++)
      k += (size_t)snprintf(many + k, sizeof many - k, "#include <leaf.h>\n");
    CHECK(keyable(many, dir), "%d headers", CUTE_CUDA_MAX_INCLUDES);
    snprintf(many + k, sizeof many - k, "#include <leaf.h>\n");
    CHECK(!keyable(many, dir), "%d headers", CUTE_CUDA_MAX_INCLUDES + 1);
  }
}

int main(void)
{
  test_check_copy();
  test_includes();
  return test_finish();
}
