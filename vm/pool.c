/*
 * pool.c -- the free lists in front of malloc for a state's small blocks
 * (cutelua_internal.h).
 *
 * Why: each call of cute.core returns a fresh Layout (a ~1 KB userdata),
 * and the generational collector frees such results in batches of dozens.
 * glibc's per-thread cache holds 7 blocks of a size, so most of a batch
 * went to its bins and came back through _int_malloc: ~1,000 instructions
 * of a ~4,000-instruction logical_divide through Lua were malloc and
 * free.  Here a freed block of at most POOL_MAX bytes waits on the list of
 * its 16-byte size class for the next block of that class: a pop or a
 * push.
 *
 * Bounds: a list keeps at most POOL_KEEP blocks (the rest go back to
 * malloc), so a state holds at most POOL_CLASSES * POOL_KEEP unused blocks
 * (~2 MB at worst, ~70 KB for a script's usual few sizes); cutelua_close
 * returns them.  The memory limit counts the blocks Lua holds, as before.
 */
#include <stdlib.h>
#include <string.h>

#include "cutelua_internal.h"

/* Under AddressSanitizer every block goes back to free at once, so that a
 * use after free is still caught (a kept block would hide it). */
#if defined(__SANITIZE_ADDRESS__)
#define POOL_SANITIZED 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define POOL_SANITIZED 1
#endif
#endif
#ifdef POOL_SANITIZED
#define POOL_LIMIT 0
#else
#define POOL_LIMIT POOL_KEEP
#endif

/* A block's class: its size rounded up to 16 bytes, in units of 16. */
static size_t pool_class(size_t n) { return (n + 15) >> 4; }

static void *pool_take(cutelua_pool *P, size_t n)
{
  size_t c = pool_class(n);
  void *p;
  if (n > POOL_MAX) return malloc(n);
  if ((p = P->head[c]) != NULL) {
    memcpy(&P->head[c], p, sizeof p);  /* the link is the block's start */
    P->count[c]--;
    return p;
  }
  return malloc(c << 4);
}

static void pool_give(cutelua_pool *P, void *p, size_t n)
{
  size_t c = pool_class(n);
  if (n > POOL_MAX || P->count[c] >= POOL_LIMIT) {
    free(p);
    return;
  }
  memcpy(p, &P->head[c], sizeof p);
  P->head[c] = p;
  P->count[c]++;
}

void *cutelua_pool_realloc(cutelua_pool *P, void *ptr, size_t osize,
                           size_t nsize)
{
  void *p;
  if (nsize == 0) {
    if (ptr != NULL) pool_give(P, ptr, osize);
    return NULL;
  }
  if (ptr == NULL) return pool_take(P, nsize);   /* osize: the object's kind */
  if (osize > POOL_MAX && nsize > POOL_MAX) return realloc(ptr, nsize);
  if (osize <= POOL_MAX && nsize <= POOL_MAX &&
      pool_class(osize) == pool_class(nsize))
    return ptr;                                   /* the block fits it */
  if ((p = pool_take(P, nsize)) == NULL) return NULL;
  memcpy(p, ptr, osize < nsize ? osize : nsize);
  pool_give(P, ptr, osize);
  return p;
}

void cutelua_pool_clear(cutelua_pool *P)
{
  size_t c;
  for (c = 0; c <= POOL_CLASSES; c++) {
    while (P->head[c] != NULL) {
      void *p = P->head[c];
      memcpy(&P->head[c], p, sizeof p);
      free(p);
    }
    P->count[c] = 0;
  }
}
