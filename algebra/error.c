/*
 * error.c -- status names and the error-message helpers of cute_internal.h.
 *
 * Messages read "op(A, B): reason" with the operands printed as CuTe text,
 * so that a Lua user sees exactly what went wrong and with which layouts.
 * Everything is bounded by CUTE_ERRMSG_SIZE: long operands are elided in
 * their middle, never overflowed, and the reason at the end always stays.
 */
#include "cute_internal.h"

#include <stdio.h>
#include <string.h>

/* The enumerator's own name, so diagnostics can be grepped for it. */
const char *cute_status_name(cute_status s)
{
  static const char *const names[] = {
    "CUTE_OK", "CUTE_EINVAL", "CUTE_ESYNTAX", "CUTE_EOVERFLOW", "CUTE_ELIMIT",
    "CUTE_ERANK", "CUTE_EDIVISIBILITY", "CUTE_ENONINJECTIVE",
    "CUTE_ECODOMAIN"};
  if ((unsigned)s < sizeof names / sizeof names[0]) return names[s];
  return "CUTE_E?";
}

cute_status cute_fail(cute_error *err, cute_status code, const char *fmt, ...)
{
  if (err) {
    va_list ap;
    err->code = code;
    err->column = 0;
    va_start(ap, fmt);
    vsnprintf(err->msg, sizeof err->msg, fmt, ap);
    va_end(ap);
  }
  return code;
}

/* A message must keep its reason, which comes last: an operand is shown
 * whole up to OPERAND_SHOWN characters, longer ones by their head and tail
 * around "...", and a message that still does not fit (a context around
 * a long inner message) loses its middle, not its end.  Worked example,
 * concat of two 32-leaf layouts:
 *   concat((2,2,2,2,2,2,...,8388608,16777216)), ...): more than 32 leaves
 *   (CUTE_MAX_LEAVES) */
enum { OPERAND_SHOWN = 160, OPERAND_HEAD = 110, OPERAND_TAIL = 40 };
#define ELLIPSIS "..."

/* Appends s[0, len) to buf at *n, as far as cap allows (cap > 0). */
static void append(char *buf, size_t cap, size_t *n, const char *s, size_t len)
{
  if (*n + len >= cap) len = cap - 1 - *n;
  memcpy(buf + *n, s, len);
  *n += len;
  buf[*n] = '\0';
}

/* Appends an operand's text, whole or by its head and tail. */
static void append_operand(char *buf, size_t cap, size_t *n,
                           const char *text, size_t len)
{
  if (len <= OPERAND_SHOWN) {
    append(buf, cap, n, text, len);
    return;
  }
  append(buf, cap, n, text, OPERAND_HEAD);
  append(buf, cap, n, ELLIPSIS, sizeof ELLIPSIS - 1);
  append(buf, cap, n, text + len - OPERAND_TAIL, OPERAND_TAIL);
}

static void append_layout(char *buf, size_t cap, size_t *n,
                          const cute_layout *L)
{
  char text[CUTE_MAX_TEXT];
  size_t len = cute_layout_print(L, text, sizeof text);
  if (len >= sizeof text) len = sizeof text - 1;
  append_operand(buf, cap, n, text, len);
}

/* Writes "op(A, B): " into buf (cap > 0); returns its length.  Two
 * elided operands and an operation name fit in CUTE_ERRMSG_SIZE with
 * room to spare for the reason. */
static size_t op_prefix(char *buf, size_t cap, const char *op,
                        const cute_layout *a, const cute_layout *b)
{
  size_t n = 0;
  buf[0] = '\0';
  append(buf, cap, &n, op, strlen(op));
  append(buf, cap, &n, "(", 1);
  if (a) append_layout(buf, cap, &n, a);
  if (b) {
    append(buf, cap, &n, ", ", 2);
    append_layout(buf, cap, &n, b);
  }
  append(buf, cap, &n, "): ", 3);
  return n;
}

/* Copies text into msg (CUTE_ERRMSG_SIZE), dropping its middle if need
 * be so that the end -- the reason -- survives. */
static void keep_end(char *msg, const char *text)
{
  size_t len = strlen(text), tail;
  if (len < CUTE_ERRMSG_SIZE) {
    memcpy(msg, text, len + 1);
    return;
  }
  tail = CUTE_ERRMSG_SIZE / 2;
  len = CUTE_ERRMSG_SIZE - 1 - tail - (sizeof ELLIPSIS - 1);
  memcpy(msg, text, len);
  memcpy(msg + len, ELLIPSIS, sizeof ELLIPSIS - 1);
  memcpy(msg + len + sizeof ELLIPSIS - 1, text + strlen(text) - tail, tail + 1);
}

cute_status cute_fail_op(cute_error *err, cute_status code, const char *op,
                         const cute_layout *a, const cute_layout *b,
                         const char *fmt, ...)
{
  if (err) {
    char text[2 * CUTE_ERRMSG_SIZE];
    va_list ap;
    size_t n = op_prefix(text, sizeof text, op, a, b);
    err->code = code;
    err->column = 0;
    va_start(ap, fmt);
    vsnprintf(text + n, sizeof text - n, fmt, ap);
    va_end(ap);
    keep_end(err->msg, text);
  }
  return code;
}

/* Puts text[0, n) (capacity 2 * CUTE_ERRMSG_SIZE) before err's message. */
static void prepend(cute_error *err, char *text, size_t n)
{
  err->msg[sizeof err->msg - 1] = '\0';
  append(text, 2 * CUTE_ERRMSG_SIZE, &n, err->msg, strlen(err->msg));
  keep_end(err->msg, text);
}

void cute_error_context(cute_error *err, const char *op, const cute_layout *a,
                        const cute_layout *b)
{
  char text[2 * CUTE_ERRMSG_SIZE];
  if (err) prepend(err, text, op_prefix(text, sizeof text, op, a, b));
}

/* Worked example, recast(L, 8, 32) of a 32-leaf L whose upcast fails (the
 * layout elided in both, the widths and the reason kept):
 *   recast((3,3,3,...,1000000000093), 8, 32): upcast((3,3,3,...,
 *   1000000000093)): divisibility: stride 1000000000003 is not a multiple
 *   of 4 */
void cute_error_prefix(cute_error *err, const char *op, ...)
{
  char text[2 * CUTE_ERRMSG_SIZE];
  const char *operand, *sep = "";
  size_t n = 0;
  va_list ap;
  if (!err) return;
  text[0] = '\0';
  append(text, sizeof text, &n, op, strlen(op));
  append(text, sizeof text, &n, "(", 1);
  va_start(ap, op);
  while ((operand = va_arg(ap, const char *)) != NULL) {
    append(text, sizeof text, &n, sep, strlen(sep));
    append_operand(text, sizeof text, &n, operand, strlen(operand));
    sep = ", ";
  }
  va_end(ap);
  append(text, sizeof text, &n, "): ", 3);
  prepend(err, text, n);
}

/* A note put verbatim before the message, "mode 1: " say; the message
 * keeps its end. */
void cute_error_note(cute_error *err, const char *note)
{
  char text[2 * CUTE_ERRMSG_SIZE];
  size_t n = 0;
  if (!err) return;
  text[0] = '\0';
  append(text, sizeof text, &n, note, strlen(note));
  prepend(err, text, n);
}
