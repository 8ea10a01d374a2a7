/*
 * replay.c -- a plain main() that feeds files to LLVMFuzzerTestOneInput,
 * so every fuzz target's corpus and regression inputs run as an ordinary
 * ctest in any build (gcc included), without libFuzzer.
 *
 *   fuzz_replay_<target> DIR_OR_FILE...
 * Each directory's regular files (names starting with '.' skipped) are
 * fed in name order; a failed check aborts, which fails the test.  A
 * missing path is an error, so a renamed corpus cannot pass by testing
 * nothing.
 */
#define _POSIX_C_SOURCE 200809L

#include "fuzz_common.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static int run_file(const char *path)
{
  static uint8_t buf[1 << 20];
  size_t n;
  FILE *f = fopen(path, "rb");
  if (f == NULL) {
    perror(path);
    return 0;
  }
  n = fread(buf, 1, sizeof buf, f);
  fclose(f);
  fprintf(stderr, "replay %s\n", path);
  LLVMFuzzerTestOneInput(buf, n);
  return 1;
}

static int cmp_names(const void *a, const void *b)
{
  return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Runs every regular file of dir in name order; returns the count or -1. */
static int run_dir(const char *dir)
{
  DIR *d = opendir(dir);
  struct dirent *ent;
  char **names = NULL;
  size_t n = 0, cap = 0, k;
  int ran = 0;
  if (d == NULL) {
    perror(dir);
    return -1;
  }
  while ((ent = readdir(d)) != NULL) {
    if (ent->d_name[0] == '.')
      continue;
    if (n == cap) {
      cap = cap ? 2 * cap : 64;
      names = realloc(names, cap * sizeof *names);
      if (names == NULL) {
        fputs("replay: out of memory\n", stderr);
        exit(2);
      }
    }
    names[n] = malloc(strlen(dir) + strlen(ent->d_name) + 2);
    if (names[n] == NULL) {
      fputs("replay: out of memory\n", stderr);
      exit(2);
    }
    sprintf(names[n++], "%s/%s", dir, ent->d_name);
  }
  closedir(d);
  if (n > 1)
    qsort(names, n, sizeof *names, cmp_names);
  for (k = 0; k < n; k++) {
    struct stat st;
    if (stat(names[k], &st) == 0 && S_ISREG(st.st_mode))
      ran += run_file(names[k]);
    free(names[k]);
  }
  free(names);
  return ran;
}

int main(int argc, char **argv)
{
  int i, total = 0;
  for (i = 1; i < argc; i++) {
    struct stat st;
    int n;
    if (stat(argv[i], &st) != 0) {
      perror(argv[i]);
      return 1;
    }
    n = S_ISDIR(st.st_mode) ? run_dir(argv[i]) : run_file(argv[i]);
    if (n < 0)
      return 1;
    total += n;
  }
  printf("%d inputs replayed without a failed check\n", total);
  return 0;
}
