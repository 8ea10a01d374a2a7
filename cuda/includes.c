/*
 * includes.c -- what a kernel's #include lines pull in, for the cache key.
 *
 * The key must change when a user header changes, yet computing it must not
 * run a preprocessor.  So the source is scanned for `#include "x"` and
 * `#include <x>` lines; each name is looked up where NVRTC would find it
 * (the including file's directory -- the current directory for the script's
 * own source -- then the -I / --include-path directories the caller gave),
 * and the contents of every file found are hashed, recursively.  Toolkit
 * headers (<cuda_fp16.h>: not in the caller's directories) are covered by
 * the NVRTC version in the key.  A quoted include found nowhere (or a
 * computed `#include MACRO`) cannot be keyed: the program is then cached in
 * memory only (this process), never on disk, where a later run with another
 * header would get a stale kernel.  So is a program whose headers number
 * more than CUTE_CUDA_MAX_INCLUDES or nest deeper than
 * CUTE_CUDA_MAX_INCLUDE_DEPTH (cute_cuda.h): a header including itself
 * twice without guards would otherwise be read 2^depth times.
 */
#define _POSIX_C_SOURCE 200809L

#include "internal.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_DIRS 32

typedef struct scan {
  cucu_sha256 *h;
  const char *dirs[MAX_DIRS];   /* the caller's include directories */
  int ndirs;
  int nread;                    /* headers read so far              */
  int keyable;                  /* every quoted include was found   */
} scan;

static void scan_text(scan *s, const char *text, const char *dir, int depth);

/* dir/name read whole, or NULL; *path gets the name it was read under. */
static char *try_read(const char *dir, const char *name, char path[PATH_MAX])
{
  size_t n = 0;
  if (snprintf(path, PATH_MAX, "%s/%s", dir, name) >= PATH_MAX) return NULL;
  return cucu_read_file(path, &n);
}

/* Hashes the header `name` (quoted: look in dir first) and what it
 * includes; a miss of a quoted name makes the program unkeyable. */
static void include(scan *s, const char *name, int quoted, const char *dir,
                    int depth)
{
  char path[PATH_MAX], *text = NULL, *slash;
  int i;
  /* Past the limits (cute_cuda.h) a cycle or an include fan-out would read
   * headers without end; the program then stays off the disk, so that no
   * header left unread can give a stale kernel. */
  if (depth >= CUTE_CUDA_MAX_INCLUDE_DEPTH ||
      s->nread >= CUTE_CUDA_MAX_INCLUDES) {
    s->keyable = 0;
    return;
  }
  s->nread++;
  if (name[0] == '/') {
    size_t n = 0;
    snprintf(path, sizeof path, "%s", name);
    text = cucu_read_file(path, &n);
  }
  if (!text && quoted && name[0] != '/') text = try_read(dir, name, path);
  for (i = 0; !text && i < s->ndirs && name[0] != '/'; i++)
    text = try_read(s->dirs[i], name, path);
  if (!text) {
    if (quoted) s->keyable = 0;
    return;
  }
  cucu_sha256_update(s->h, "include", 8);
  cucu_sha256_update(s->h, name, strlen(name) + 1);
  cucu_sha256_update(s->h, text, strlen(text) + 1);
  if ((slash = strrchr(path, '/')) != NULL) *slash = 0;
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
  scan s;
  memset(&s, 0, sizeof s);
  s.h = h;
  s.keyable = 1;
  collect_dirs(&s, options, noptions);
  scan_text(&s, source, ".", 0);
  return s.keyable;
}
