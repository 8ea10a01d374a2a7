/*
 * scratch.h -- assembling a layout from pieces of other layouts (mode
 * manipulation, slice, by-mode coalesce).  Private to algebra/; defined in
 * modes.c.
 *
 * A scratch layout is built in its shape tokens and in the leaves of both
 * shape and stride; cute_scratch_end gives the stride the shape's tokens and
 * copies the result out, so `out` may alias an operand.  cute_scratch_tok
 * and cute_scratch_span also write the stride's tokens as they go (see
 * cute_tiler_end_both, tiling.h).  Pieces are checked
 * against CUTE_MAX_TOKENS / CUTE_MAX_LEAVES as they are appended (the
 * message names no operation: callers add it with cute_error_context).
 */
#ifndef CUTE_SCRATCH_H
#define CUTE_SCRATCH_H

#include "cute_internal.h"

void cute_scratch_start(cute_layout *r);
cute_status cute_scratch_tok(cute_layout *r, char c, cute_error *err);
/* Appends the element `sp` of src (tokens and leaves). */
cute_status cute_scratch_span(cute_layout *r, const cute_layout *src,
                              const cute_span *sp, cute_error *err);
void cute_scratch_end(cute_layout *out, cute_layout *r);
/* The CUTE_ELIMIT error of a result that does not fit. */
cute_status cute_scratch_full(cute_error *err);

/* The whole of src appended to the scratch r as one element. */
cute_status cute_scratch_whole(cute_layout *r, const cute_layout *src,
                               cute_error *err);
/* Modes [b, e) of src appended to r, each as one element. */
cute_status cute_scratch_modes(cute_layout *r, const cute_layout *src, int b,
                               int e, cute_error *err);
/* Checks r's depth and copies it to out (out may alias an operand). */
cute_status cute_scratch_finish(cute_layout *out, cute_layout *r,
                                cute_error *err);

#endif
