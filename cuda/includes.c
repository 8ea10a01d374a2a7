/*
 * includes.c -- the files a kernel may read, for the cache key.
 *
 * The key must change whenever a header NVRTC could read changes.  NVRTC
 * cannot report what it read, and a scan that parses #include lines always
 * misses a spelling the preprocessor accepts (`#\` + newline + `include`,
 * a comment or a form feed before `#`, an -include option, a computed
 * `#include MACRO`, a NUL byte inside a header).  So the key does not
 * parse the preprocessor: it covers every file NVRTC can reach.
 *
 *   * compile.c passes --no-source-include: NVRTC never searches the
 *     current directory (which may be any tree, and which a script's
 *     kernel must not depend on);
 *   * every regular file under each -I / --include-path directory of the
 *     options is hashed, whole (its bytes, NUL bytes included), with its
 *     path below the directory, in a fixed (sorted) order;
 *   * a header named by an absolute path, or by a path that climbs out
 *     with "..", is found by a lenient scan of every hashed text for
 *     quoted or angled names (no directive parsing: any "/x.h" or
 *     <../x.h> that names a file counts), and hashed the same way; so is
 *     an -include / --pre-include file given by an absolute path;
 *   * toolkit headers (<cuda_fp16.h>) are covered by the NVRTC version and
 *     the toolkit's include directory, which are in the key; named headers
 *     handed to NVRTC in memory are hashed by compile.c.
 *
 * Past CUTE_CUDA_MAX_INCLUDES files or CUTE_CUDA_MAX_INCLUDE_DEPTH nested
 * directories (cute_cuda.h), or when a file cannot be read, the program
 * cannot be keyed and stays in memory only (stats: memory_only): never a
 * stale disk entry.  The residue no key can see without NVRTC's help: a
 * computed include that expands to an absolute path; keep headers under
 * the -I directories.
 */
#define _XOPEN_SOURCE 700 /* realpath */

#include "cute_cuda_internal.h"

#include <dirent.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define MAX_DIRS 32
/* Slots of the set of files named outside the include directories: at
 * most half full, so that probes stay short and end at an empty slot. */
#define SEEN_SLOTS (2 * CUTE_CUDA_MAX_INCLUDES)

typedef struct keyscan {
  cucu_sha256 *h;
  const char *dirs[MAX_DIRS];   /* the caller's include directories  */
  int ndirs;
  int nfiles;                   /* files hashed so far               */
  int keyable;
  char *seen[SEEN_SLOTS];       /* canonical names of outside files  */
} keyscan;

static void scan_names(keyscan *s, const char *text, size_t n,
                       const char *dir, int depth);

/* Hashes one file: its label (path below its root), size and bytes; then
 * scans it for names outside the include directories. */
static void hash_file(keyscan *s, const char *path, const char *label,
                      int depth)
{
  size_t n = 0;
  char *text, dir[PATH_MAX], *slash;
  uint64_t n64;
  if (!s->keyable) return;
  if (++s->nfiles > CUTE_CUDA_MAX_INCLUDES ||
      (text = cucu_read_file(path, &n)) == NULL) {
    s->keyable = 0;
    return;
  }
  n64 = n;
  cucu_sha256_update(s->h, "file", 5);
  cucu_sha256_update(s->h, label, strlen(label) + 1);
  cucu_sha256_update(s->h, &n64, sizeof n64);
  cucu_sha256_update(s->h, text, n);
  snprintf(dir, sizeof dir, "%s", path);
  slash = strrchr(dir, '/');
  if (slash) *slash = 0;
  scan_names(s, text, n, slash ? dir : ".", depth);
  free(text);
}

static int by_name(const void *a, const void *b)
{
  return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The entries of dir (not . and ..), sorted, malloc'ed; NULL on failure. */
static char **list_dir(const char *dir, int *n)
{
  DIR *d = opendir(dir);
  struct dirent *e;
  char **v = NULL, **w;
  int cap = 0, ok = d != NULL;
  *n = 0;
  while (ok && (e = readdir(d)) != NULL) {
    if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0) continue;
    if (*n == cap) {
      cap = cap ? 2 * cap : 16;
      if ((w = realloc(v, (size_t)cap * sizeof *v)) == NULL) ok = 0;
      else v = w;
    }
    if (ok && (v[*n] = cucu_strdup(e->d_name)) == NULL) ok = 0;
    if (ok) (*n)++;
  }
  if (d) closedir(d);
  if (!ok) {
    while (*n > 0) free(v[--*n]);
    free(v);
    return NULL;
  }
  if (*n > 1) qsort(v, (size_t)*n, sizeof *v, by_name);
  return v ? v : calloc(1, sizeof *v);
}

/* Every regular file below root/rel, recursively, in name order. */
static void walk(keyscan *s, const char *root, const char *rel, int depth)
{
  char dir[PATH_MAX], path[PATH_MAX], label[PATH_MAX];
  char **names;
  int n, i;
  struct stat st;
  if (depth > CUTE_CUDA_MAX_INCLUDE_DEPTH) {
    s->keyable = 0;
    return;
  }
  snprintf(dir, sizeof dir, "%s%s%s", root, *rel ? "/" : "", rel);
  if ((names = list_dir(dir, &n)) == NULL) {
    s->keyable = 0;
    return;
  }
  for (i = 0; i < n && s->keyable; i++) {
    int a = snprintf(path, sizeof path, "%s/%s", dir, names[i]);
    int b = snprintf(label, sizeof label, "%s%s%s", rel, *rel ? "/" : "",
                     names[i]);
    if (a < 0 || a >= PATH_MAX || b < 0 || b >= PATH_MAX ||
        stat(path, &st) != 0)
      s->keyable = 0;   /* NVRTC might reach it; the key could not */
    else if (S_ISDIR(st.st_mode)) walk(s, root, label, depth + 1);
    else if (S_ISREG(st.st_mode)) hash_file(s, path, label, depth);
  }
  for (i = 0; i < n; i++) free(names[i]);
  free(names);
}

/* The slot of `name` in the set: where it is, else the empty one where it
 * goes (FNV-1a spreads the names). */
static char **seen_slot(keyscan *s, const char *name)
{
  size_t i = 2166136261u;
  const unsigned char *p = (const unsigned char *)name;
  while (*p) i = (i ^ *p++) * 16777619u;
  i %= SEEN_SLOTS;
  while (s->seen[i] && strcmp(s->seen[i], name) != 0)
    i = (i + 1) % SEEN_SLOTS;
  return &s->seen[i];
}

/* Hashes the file at path (named outside the include directories), once. */
static void hash_outside(keyscan *s, const char *path, int depth)
{
  char **slot, *canon;
  struct stat st;
  if (stat(path, &st) != 0 || !S_ISREG(st.st_mode)) return;
  if (depth > CUTE_CUDA_MAX_INCLUDE_DEPTH ||
      (canon = realpath(path, NULL)) == NULL) {
    s->keyable = 0;
    return;
  }
  if (*(slot = seen_slot(s, canon)) != NULL) {
    free(canon);
    return;
  }
  *slot = canon;
  hash_file(s, canon, canon, depth + 1);
}

/* Quoted or angled names in text that are absolute or climb with "..":
 * each, where it names a file (absolute; else from the text's directory
 * or an include directory), is hashed. */
static void scan_names(keyscan *s, const char *text, size_t n,
                       const char *dir, int depth)
{
  size_t i, j;
  char name[PATH_MAX], path[2 * PATH_MAX + 2];
  for (i = 0; i + 1 < n && s->keyable; i++) {
    char close = text[i] == '"' ? '"' : text[i] == '<' ? '>' : 0;
    int k;
    if (!close) continue;
    for (j = i + 1; j < n && j - i < PATH_MAX && text[j] != close &&
                    text[j] != '\n' && text[j] != 0; j++) {}
    if (j >= n || text[j] != close || j == i + 1) continue;
    memcpy(name, text + i + 1, j - i - 1);
    name[j - i - 1] = 0;
    if (name[0] == '/') hash_outside(s, name, depth);
    else if (strstr(name, "..")) {
      snprintf(path, sizeof path, "%s/%s", dir, name);
      hash_outside(s, path, depth);
      for (k = 0; k < s->ndirs; k++) {
        snprintf(path, sizeof path, "%s/%s", s->dirs[k], name);
        hash_outside(s, path, depth);
      }
    }
  }
}

/* The option's value when o is one of the forms of `flag` ("-I" takes
 * "-Ix", "-I x"; "--include-path" takes "--include-path=x" and
 * "--include-path x"), advancing *i past a separate value; else NULL. */
static const char *value_of(const char *const *opts, int n, int *i,
                            const char *flag, int joined)
{
  const char *o = opts[*i];
  size_t k = strlen(flag);
  if (strncmp(o, flag, k) != 0) return NULL;
  if (o[k] == '=') return o + k + 1;
  if (o[k] && joined) return o + k;
  if (o[k]) return NULL;
  return *i + 1 < n ? opts[++*i] : NULL;
}

static void collect(keyscan *s, const char *const *opts, int n,
                    const char **pre, int *npre)
{
  int i;
  for (i = 0; i < n; i++) {
    const char *d = value_of(opts, n, &i, "-I", 1), *f = NULL;
    if (!d) d = value_of(opts, n, &i, "--include-path", 0);
    if (!d && !(f = value_of(opts, n, &i, "--pre-include", 0)))
      f = value_of(opts, n, &i, "-include", 0);
    if (d && *d && s->ndirs < MAX_DIRS) s->dirs[s->ndirs++] = d;
    else if (d && *d) s->keyable = 0;
    if (f && *f && *npre < MAX_DIRS) pre[(*npre)++] = f;
    else if (f && *f) s->keyable = 0;
  }
}

int cucu_hash_includes(cucu_sha256 *h, const char *source,
                       const char *const *options, int noptions)
{
  keyscan *s = calloc(1, sizeof *s);   /* 16 KiB of slots: off the stack */
  const char *pre[MAX_DIRS];
  int i, npre = 0, keyable;
  if (s == NULL) return 0;
  s->h = h;
  s->keyable = 1;
  collect(s, options, noptions, pre, &npre);
  for (i = 0; i < s->ndirs && s->keyable; i++) {
    cucu_sha256_update(h, "include-dir", 12);
    cucu_sha256_update(h, s->dirs[i], strlen(s->dirs[i]) + 1);
    walk(s, s->dirs[i], "", 0);
  }
  for (i = 0; i < npre && s->keyable; i++) hash_outside(s, pre[i], 0);
  if (s->keyable) scan_names(s, source, strlen(source), ".", 0);
  keyable = s->keyable;
  for (i = 0; i < SEEN_SLOTS; i++) free(s->seen[i]);
  free(s);
  return keyable;
}
