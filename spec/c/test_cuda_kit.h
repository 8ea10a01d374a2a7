/*
 * test_cuda_kit.h -- helpers shared by the CUDA bridge's C tests: files,
 * and compiling + running generated code with the host C++ compiler
 * (CUTE_TEST_CXX, set by cuda/CMakeLists.txt).  Header-only (static), so
 * spec/c's glob of test_*.c does not pick it up as a test.
 */
#ifndef TEST_CUDA_KIT_H
#define TEST_CUDA_KIT_H

#include "cute_cuda.h"

#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>

static char *kit_slurp(const char *path)
{
  FILE *f = fopen(path, "rb");
  cute_cuda_text t = {0};
  char buf[4096];
  size_t n;
  if (f == NULL) return NULL;
  while ((n = fread(buf, 1, sizeof buf - 1, f)) > 0) {
    buf[n] = 0;
    cute_cuda_text_puts(&t, buf);
  }
  fclose(f);
  return t.s ? t.s : calloc(1, 1);
}

/* Compiles `source` as C++17 (with -pthread) in CUTE_TEST_DIR/<stem>.cpp,
 * runs it and returns its standard output (heap), or NULL on failure.
 * *skipped is set when there is no host C++ compiler. */
static char *kit_host_run(const char *stem, const char *source, int *skipped)
{
  char cpp[700], exe[700], out[700], cmd[4096];
  FILE *f;
  *skipped = CUTE_TEST_CXX[0] == 0;
  if (*skipped) return NULL;
  mkdir(CUTE_TEST_DIR, 0755);
  snprintf(cpp, sizeof cpp, "%s/%s.cpp", CUTE_TEST_DIR, stem);
  snprintf(exe, sizeof exe, "%s/%s", CUTE_TEST_DIR, stem);
  snprintf(out, sizeof out, "%s/%s.out", CUTE_TEST_DIR, stem);
  if ((f = fopen(cpp, "w")) == NULL) return NULL;
  fputs(source, f);
  if (fclose(f) != 0) return NULL;
  snprintf(cmd, sizeof cmd,
           "'%s' -std=c++17 -O1 -w -pthread -o '%s' '%s' && '%s' > '%s'",
           CUTE_TEST_CXX, exe, cpp, exe, out);
  if (system(cmd) != 0) {
    fprintf(stderr, "host compile/run failed: %s\n", cmd);
    return NULL;
  }
  return kit_slurp(out);
}

#endif
