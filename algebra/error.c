/*
 * error.c -- status names and the error-message helpers of internal.h.
 *
 * Messages read "op(A, B): reason" with the operands printed as CuTe text,
 * so that a Lua user sees exactly what went wrong and with which layouts.
 * Everything is bounded by CUTE_ERRMSG_SIZE; long operands are truncated by
 * the snprintf-like printers, never overflowed.
 */
#include "internal.h"

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

/* Writes "op(A, B): " into buf (cap > 0); returns the length written,
 * clamped to cap - 1 so callers can append after it. */
static size_t op_prefix(char *buf, size_t cap, const char *op,
                        const cute_layout *a, const cute_layout *b)
{
  size_t n = (size_t)snprintf(buf, cap, "%s(", op);
  if (n >= cap) return cap - 1;
  if (a) {
    n += cute_layout_print(a, buf + n, cap - n);
    if (n >= cap) return cap - 1;
  }
  if (b) {
    n += (size_t)snprintf(buf + n, cap - n, ", ");
    if (n >= cap) return cap - 1;
    n += cute_layout_print(b, buf + n, cap - n);
    if (n >= cap) return cap - 1;
  }
  n += (size_t)snprintf(buf + n, cap - n, "): ");
  return n >= cap ? cap - 1 : n;
}

cute_status cute_fail_op(cute_error *err, cute_status code, const char *op,
                         const cute_layout *a, const cute_layout *b,
                         const char *fmt, ...)
{
  if (err) {
    va_list ap;
    size_t n = op_prefix(err->msg, sizeof err->msg, op, a, b);
    err->code = code;
    err->column = 0;
    va_start(ap, fmt);
    vsnprintf(err->msg + n, sizeof err->msg - n, fmt, ap);
    va_end(ap);
  }
  return code;
}

void cute_error_context(cute_error *err, const char *op, const cute_layout *a,
                        const cute_layout *b)
{
  char inner[CUTE_ERRMSG_SIZE];
  size_t n;
  if (!err) return;
  memcpy(inner, err->msg, sizeof inner);
  inner[sizeof inner - 1] = '\0';
  n = op_prefix(err->msg, sizeof err->msg, op, a, b);
  snprintf(err->msg + n, sizeof err->msg - n, "%s", inner);
}
