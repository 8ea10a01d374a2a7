/*
 * includes.c -- what a kernel's #include lines pull in, for the cache key.
 *
 * The key must change when a user header changes, yet computing it must not
 * run a preprocessor.  So the source is scanned for `#include "x"` and
 * `#include <x>` lines; each name is looked up where NVRTC would find it
 * (the including file's directory -- the current directory for the script's
 * own source -- then the -I / --include-path directories the caller gave),
 * and the contents of every file found are hashed, recursively, each file
 * once: a header seen again (an include cycle of `#pragma once` headers, a
 * header shared by many) is already in the key, and whatever it includes
 * with it.  Toolkit headers (<cuda_fp16.h>: not in the caller's
 * directories) are covered by the NVRTC version in the key.  A quoted
 * include found nowhere (or a computed `#include MACRO`) cannot be keyed:
 * the program is then cached in memory only (this process), never on disk,
 * where a later run with another header would get a stale kernel.  So is a
 * program that includes more than CUTE_CUDA_MAX_INCLUDES distinct headers,
 * or whose headers nest deeper than CUTE_CUDA_MAX_INCLUDE_DEPTH
 * (cute_cuda.h), which bounds the memory and stack the scan takes.
 */
#define _XOPEN_SOURCE 700 /* realpath */

#include "cute_cuda_internal.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define MAX_DIRS 32
/* Slots of the set of headers hashed: at most half full, so that probes
 * stay short and always end at an empty slot. */
#define SEEN_SLOTS (2 * CUTE_CUDA_MAX_INCLUDES)

typedef struct scan {
  cucu_sha256 *h;
  const char *dirs[MAX_DIRS];   /* the caller's include directories  */
  int ndirs;
  int nread;                    /* distinct headers hashed so far    */
  int keyable;                  /* every quoted include was found    */
  char *seen[SEEN_SLOTS];       /* their canonical names (open hash) */
} scan;

static void scan_text(scan *s, const char *text, const char *dir, int depth);

/* Is dir/name (name alone for a NULL dir) a file?  *path gets the name. */
static int found(const char *dir, const char *name, char path[PATH_MAX])
{
  struct stat st;
  int n = dir ? snprintf(path, PATH_MAX, "%s/%s", dir, name)
              : snprintf(path, PATH_MAX, "%s", name);
  return n >= 0 && n < PATH_MAX && stat(path, &st) == 0 &&
         S_ISREG(st.st_mode);
}

/* Finds `name` where NVRTC would (quoted: dir first), into path. */
static int locate(const scan *s, const char *name, int quoted,
                  const char *dir, char path[PATH_MAX])
{
  int i;
  if (name[0] == '/') return found(NULL, name, path);
  if (quoted && found(dir, name, path)) return 1;
  for (i = 0; i < s->ndirs; i++)
    if (found(s->dirs[i], name, path)) return 1;
  return 0;
}

/* The name the set knows a found path by, malloc'ed (NULL when out of
 * memory): its directory made canonical, so that "./a.h" and "sub/../a.h"
 * meet, with the file's own name kept, not a symbolic link's target, since
 * a header's quoted includes are looked up from the directory it was found
 * in. */
static char *canonical(char *path)
{
  char *slash = strrchr(path, '/'), *dir, *name = NULL;
  *slash = 0;
  dir = realpath(slash == path ? "/" : path, NULL);
  *slash = '/';
  if (dir && (name = malloc(strlen(dir) + strlen(slash) + 1)) != NULL)
    sprintf(name, "%s%s", dir, slash);
  free(dir);
  return name;
}

/* The slot of `name` in the set: where it is, else the empty one where it
 * goes (FNV-1a spreads the names). */
static char **seen_slot(scan *s, const char *name)
{
  size_t i = 2166136261u;
  const unsigned char *p = (const unsigned char *)name;
  while (*p) i = (i ^ *p++) * 16777619u;
  i %= SEEN_SLOTS;
  while (s->seen[i] && strcmp(s->seen[i], name) != 0)
    i = (i + 1) % SEEN_SLOTS;
  return &s->seen[i];
}

/* Hashes the header `name` (quoted: look in dir first) and what it
 * includes, unless hashed already; a miss of a quoted name makes the
 * program unkeyable. */
static void include(scan *s, const char *name, int quoted, const char *dir,
                    int depth)
{
  char path[PATH_MAX], *text, *canon, **slot;
  size_t n = 0;
  if (!locate(s, name, quoted, dir, path)) {
    if (quoted) s->keyable = 0;
    return;
  }
  if ((canon = canonical(path)) == NULL) {
    s->keyable = 0;
    return;
  }
  if (*(slot = seen_slot(s, canon)) != NULL) {
    free(canon);   /* in the key already: a cycle ends here */
    return;
  }
  /* Past the limits (cute_cuda.h) the program stays off the disk, so that
   * no header left unread can give a stale kernel. */
  if (depth >= CUTE_CUDA_MAX_INCLUDE_DEPTH ||
      s->nread >= CUTE_CUDA_MAX_INCLUDES ||
      (text = cucu_read_file(path, &n)) == NULL) {
    free(canon);
    s->keyable = 0;
    return;
  }
  *slot = canon;
  s->nread++;
  cucu_sha256_update(s->h, "include", 8);
  cucu_sha256_update(s->h, name, strlen(name) + 1);
  cucu_sha256_update(s->h, text, strlen(text) + 1);
  *strrchr(path, '/') = 0;
  scan_text(s, text, path, depth + 1);
  free(text);
}

/* One line starting at p: if it is an #include, follow it. */
static void scan_line(scan *s, const char *p, const char *dir, int depth)
{
  char name[PATH_MAX];
  const char *q;
  size_t n;
  while (*p == ' ' || *p == '\t') p++;
  if (*p++ != '#') return;
  while (*p == ' ' || *p == '\t') p++;
  if (strncmp(p, "include", 7) != 0) return;
  p += 7;
  while (*p == ' ' || *p == '\t') p++;
  if (*p != '"' && *p != '<') {
    s->keyable = 0;   /* #include MACRO: cannot tell what it names */
    return;
  }
  q = strchr(p + 1, *p == '"' ? '"' : '>');
  if (q == NULL || memchr(p, '\n', (size_t)(q - p)) ||
      (n = (size_t)(q - p - 1)) >= sizeof name) {
    s->keyable = 0;
    return;
  }
  memcpy(name, p + 1, n);
  name[n] = 0;
  include(s, name, *p == '"', dir, depth);
}

static void scan_text(scan *s, const char *text, const char *dir, int depth)
{
  const char *p = text;
  while (p && *p) {
    scan_line(s, p, dir, depth);
    p = strchr(p, '\n');
    if (p) p++;
  }
}

/* The directories of -I<dir>, -I <dir>, --include-path=<dir>,
 * --include-path <dir>. */
static void collect_dirs(scan *s, const char *const *opts, int n)
{
  int i;
  for (i = 0; i < n && s->ndirs < MAX_DIRS; i++) {
    const char *o = opts[i], *d = NULL;
    if (strncmp(o, "-I", 2) == 0) d = o[2] ? o + 2 : (i + 1 < n ? opts[++i] : NULL);
    else if (strncmp(o, "--include-path=", 15) == 0) d = o + 15;
    else if (strcmp(o, "--include-path") == 0 && i + 1 < n) d = opts[++i];
    if (d && *d) s->dirs[s->ndirs++] = d;
  }
}

int cucu_hash_includes(cucu_sha256 *h, const char *source,
                       const char *const *options, int noptions)
{
  scan *s = calloc(1, sizeof *s);   /* 16 KiB of slots: off the stack */
  int i, keyable;
  if (s == NULL) return 0;
  s->h = h;
  s->keyable = 1;
  collect_dirs(s, options, noptions);
  scan_text(s, source, ".", 0);
  keyable = s->keyable;
  for (i = 0; i < SEEN_SLOTS; i++) free(s->seen[i]);
  free(s);
  return keyable;
}
