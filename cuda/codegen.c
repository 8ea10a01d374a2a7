/*
 * codegen.c -- layouts as straight-line CUDA C.
 *
 * A layout's function is idx2crd followed by an inner product (paper eq. 4,
 * 5).  With the shape known when the kernel is generated, idx2crd is a
 * chain of `% s` and `/ s` by literals, which NVCC turns into multiply-high
 * and shift sequences; strides become literal multipliers.  So
 *     (4,8):(1,4)  at i   ->   r += (int)(i % 4u); i /= 4u; r += (int)i * 4;
 * Size-1 leaves disappear and adjacent leaves of one mode that continue each
 * other (d1 == s0 * d0) merge, which is coalescing restricted to a mode so
 * that the coordinate overloads keep their meaning.  The functions are
 * defined on the layout's domain (indices in [0, size)).
 *
 * The text is valid C++ for the host too when CUTE_DI is defined as
 * `static inline` first, which is how the C tests check it against the
 * algebra's own evaluation.
 */
#include "cute_cuda_internal.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>

const char cute_cuda_prelude[] =
    "#ifndef CUTE_DI\n"
    "#define CUTE_DI __device__ __forceinline__\n"
    "#endif\n"
    "#ifndef CUTE_DM\n"
    "#if defined(__CUDACC_RTC__) || defined(__CUDACC__)\n"
    "#define CUTE_DM __device__ __forceinline__\n"
    "#else\n"
    "#define CUTE_DM inline\n"
    "#endif\n"
    "#endif\n";

/* A leaf: shape, stride and, in a coordinate layout, the component of the
 * codomain its stride is a multiple of (e_comp; -1 for an integer). */
typedef struct cg_term { int64_t shape, stride; int comp; } cg_term;

/* One top-level mode's terms, innermost first. */
typedef struct cg_mode { int n; cg_term t[CUTE_MAX_LEAVES]; } cg_mode;

typedef struct cg_layout {
  int rank;
  cg_mode mode[CUTE_MAX_LEAVES];
  int64_t size, lo, hi;   /* image is within [lo, hi] (every component) */
  int wide_index, wide_value;
  int ncomp;              /* codomain rank of a coordinate layout, else 0 */
} cg_layout;

static void add_term(cg_mode *m, int64_t s, int64_t d, int comp)
{
  cg_term *last = m->n ? &m->t[m->n - 1] : NULL;
  if (s == 1) return;
  if (last && last->comp == comp && d == last->shape * last->stride) {
    last->shape *= s;
    return;
  }
  m->t[m->n].shape = s;
  m->t[m->n].stride = d;
  m->t[m->n].comp = comp;
  m->n++;
}

/* The component of leaf k's stride: -1 for an integer, i for a@i; a
 * nested basis (a@i@j) or an integer stride among basis ones: -2. */
static int leaf_comp(const cute_layout *L, int k, int coordinate)
{
  cute_basis e = L->stride.e[k];
  if (L->stride.v[k] == 0) return coordinate ? 0 : -1;
  if (!coordinate) return -1;
  if (CUTE_BASIS_LEN(e) != 1) return -2;
  return CUTE_BASIS_AT(e, 0);
}

/* Adds the terms' reach to [lo, hi]: per component for a coordinate
 * layout, whose strides cute_layout_offset_range does not take.  1 on
 * 64-bit overflow. */
static int span_terms(cg_layout *g, const cg_mode *m)
{
  int k;
  for (k = 0; k < m->n; k++) {
    int64_t reach;
    if (__builtin_mul_overflow(m->t[k].shape - 1, m->t[k].stride, &reach) ||
        __builtin_add_overflow(reach > 0 ? g->hi : g->lo, reach,
                               reach > 0 ? &g->hi : &g->lo))
      return 1;
  }
  return 0;
}

/* Flattens L into per-mode terms and computes the index/value widths.
 * A coordinate layout (strides
 * a@i, CuTe's identity layouts and their partitions) gets one sum per
 * codomain component i. */
static cute_cuda_status analyse(cg_layout *g, const cute_layout *L,
                                const char *name, cute_cuda_error *err)
{
  int m, k, coordinate = cute_layout_has_basis(L);
  memset(g, 0, sizeof *g);
  if (cute_layout_size(L, &g->size, NULL) != CUTE_OK)
    return cucu_fail(err, CUTE_CUDA_ELAYOUT,
                     "cute.cuda: codegen '%s': size overflows", name);
  g->rank = cute_tuple_rank(&L->shape);
  for (m = 0; m < g->rank; m++) {
    cute_span sp;
    if (cute_tuple_span(&L->shape, m, &sp) != 0) sp.leaf0 = sp.leaf1 = 0;
    for (k = sp.leaf0; k < sp.leaf1; k++) {
      int c = leaf_comp(L, k, coordinate);
      if (c < -1 || c >= 8)
        return cucu_fail(err, CUTE_CUDA_ELAYOUT,
                         "cute.cuda: codegen '%s': a coordinate layout's "
                         "strides must each be a@i with i < 8 (got a nested "
                         "basis or an integer among basis strides)", name);
      if (c + 1 > g->ncomp && coordinate) g->ncomp = c + 1;
      add_term(&g->mode[m], L->shape.v[k], L->stride.v[k], c);
    }
    if (coordinate && span_terms(g, &g->mode[m]))
      return cucu_fail(err, CUTE_CUDA_ELAYOUT,
                       "cute.cuda: codegen '%s': offsets overflow 64 bits",
                       name);
  }
  /* An integral layout's image is the algebra's fact, checked there. */
  if (!coordinate && cute_layout_offset_range(L, &g->lo, &g->hi, NULL))
    return cucu_fail(err, CUTE_CUDA_ELAYOUT,
                     "cute.cuda: codegen '%s': offsets overflow 64 bits", name);
  g->wide_index = g->size > (int64_t)UINT32_MAX;
  g->wide_value = g->hi > INT32_MAX || g->lo < INT32_MIN;
  return CUTE_CUDA_OK;
}

/* r += contributions of variable v over terms of m; v is consumed. */
static void emit_terms(cute_cuda_text *o, const cg_layout *g, const cg_mode *m,
                       const char *v)
{
  const char *vt = g->wide_value ? "long long" : "int";
  const char *us = g->wide_index ? "ull" : "u";
  const char *ds = g->wide_value ? "ll" : "";
  int k;
  for (k = 0; k < m->n; k++) {
    const cg_term *t = &m->t[k];
    int last = k == m->n - 1;
    if (t->stride != 0) {
      if (t->comp >= 0) cute_cuda_text_printf(o, "  r[%d] += (%s)", t->comp, vt);
      else cute_cuda_text_printf(o, "  r += (%s)", vt);
      if (last) cute_cuda_text_puts(o, v);
      else cute_cuda_text_printf(o, "(%s %% %lld%s)", v, (long long)t->shape,
                                 us);
      if (t->stride != 1)
        cute_cuda_text_printf(o, " * %lld%s", (long long)t->stride, ds);
      cute_cuda_text_puts(o, ";");
    }
    if (!last) cute_cuda_text_printf(o, " %s /= %lld%s;", v,
                                     (long long)t->shape, us);
    cute_cuda_text_puts(o, "\n");
  }
}

/* The return type and its zero: an offset, or a coordinate. */
static void value_type(const cg_layout *g, char *out, size_t cap)
{
  const char *vt = g->wide_value ? "long long" : "int";
  if (g->ncomp) snprintf(out, cap, "cute::coord<%d, %s>", g->ncomp, vt);
  else snprintf(out, cap, "%s", vt);
}

static void emit_functions(cute_cuda_text *o, const cg_layout *g,
                           const char *name)
{
  const char *it = g->wide_index ? "unsigned long long" : "unsigned";
  char vt[64];
  const char *zero = g->ncomp ? "{}" : "0";
  cg_mode all;
  int m, k;
  value_type(g, vt, sizeof vt);
  /* The 1-D form walks every mode's terms in order: idx2crd on the
   * flattened shape, since colexicographic order nests. */
  all.n = 0;
  for (m = 0; m < g->rank; m++)
    for (k = 0; k < g->mode[m].n; k++)
      add_term(&all, g->mode[m].t[k].shape, g->mode[m].t[k].stride,
               g->mode[m].t[k].comp);
  cute_cuda_text_printf(o, "CUTE_DI %s %s(%s i) {\n  %s r = %s;\n", vt, name,
                        it, vt, zero);
  emit_terms(o, g, &all, "i");
  cute_cuda_text_puts(o, "  return r;\n}\n");
  if (g->rank < 2) return;
  cute_cuda_text_printf(o, "CUTE_DI %s %s(", vt, name);
  for (m = 0; m < g->rank; m++)
    cute_cuda_text_printf(o, "%s%s c%d", m ? ", " : "", it, m);
  cute_cuda_text_printf(o, ") {\n  %s r = %s;\n", vt, zero);
  for (m = 0; m < g->rank; m++) {
    char v[16];
    sprintf(v, "c%d", m);
    emit_terms(o, g, &g->mode[m], v);
  }
  cute_cuda_text_puts(o, "  return r;\n}\n");
}

/* NAME_Layout: the functions as a type the device library's tensor and
 * fragment take (cute/tensor.h), with its size and cosize. */
static void emit_type(cute_cuda_text *o, const char *name, int64_t size,
                      int64_t cosize)
{
  cute_cuda_text_printf(o,
                        "struct %s_Layout {\n"
                        "  static constexpr long long size = %lldll, "
                        "cosize = %lldll;\n"
                        "  template <class... C> CUTE_DM auto operator()"
                        "(C... c) const { return %s(c...); }\n};\n",
                        name, (long long)size, (long long)cosize, name);
}

static void emit_comment(cute_cuda_text *o, const char *what)
{
  cute_cuda_text_puts(o, "/* ");
  cute_cuda_text_puts(o, what);
  cute_cuda_text_puts(o, " */\n");
}

/* The words a generated function may not be named: C++'s keywords and
 * alternative tokens (CUDA C++ is C++17), and main. */
static const char *const cg_reserved[] = {
  "alignas", "alignof", "and", "and_eq", "asm", "auto", "bitand", "bitor",
  "bool", "break", "case", "catch", "char", "char16_t", "char32_t",
  "char8_t", "class", "compl", "concept", "const", "const_cast",
  "consteval", "constexpr", "constinit", "continue", "co_await",
  "co_return", "co_yield", "decltype", "default", "delete", "do", "double",
  "dynamic_cast", "else", "enum", "explicit", "export", "extern", "false",
  "float", "for", "friend", "goto", "if", "inline", "int", "long",
  "main", "mutable", "namespace", "new", "noexcept", "not", "not_eq",
  "nullptr", "operator", "or", "or_eq", "private", "protected", "public",
  "register", "reinterpret_cast", "requires", "return", "short", "signed",
  "sizeof", "static", "static_assert", "static_cast", "struct", "switch",
  "template", "this", "thread_local", "throw", "true", "try", "typedef",
  "typeid", "typename", "union", "unsigned", "using", "virtual", "void",
  "volatile", "wchar_t", "while", "xor", "xor_eq"};

static cute_cuda_status check_name(const char *name, cute_cuda_error *err)
{
  const char *p = name;
  size_t i;
  int ok = (*p == '_' || (*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z'));
  for (; ok && *p; p++)
    ok = *p == '_' || (*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
         (*p >= '0' && *p <= '9');
  if (!ok || strlen(name) > 200)
    return cucu_fail(err, CUTE_CUDA_EINVAL,
                     "cute.cuda: codegen: '%s' is not a C identifier", name);
  for (i = 0; i < sizeof cg_reserved / sizeof cg_reserved[0]; i++)
    if (strcmp(name, cg_reserved[i]) == 0)
      return cucu_fail(err, CUTE_CUDA_EINVAL, "cute.cuda: codegen: '%s' is "
                       "reserved (a C++ keyword, or main)", name);
  return CUTE_CUDA_OK;
}

cute_cuda_status cute_cuda_emit_layout(cute_cuda_text *out, const char *name,
                                       const cute_layout *L,
                                       cute_cuda_error *err)
{
  char text[CUTE_MAX_TEXT];
  cg_layout g;
  cute_cuda_status s;
  if ((s = check_name(name, err)) || (s = analyse(&g, L, name, err))) return s;
  cute_layout_print(L, text, sizeof text);
  emit_comment(out, text);
  if (g.ncomp) cute_cuda_text_puts(out, "#include <cute/layout.h>\n");
  emit_functions(out, &g, name);
  cute_cuda_text_printf(out,
                        "inline constexpr long long %s_size = %lldll, %s_cosize = "
                        "%lldll;\n",
                        name, (long long)g.size, name, (long long)g.hi + 1);
  emit_type(out, name, g.size, g.hi + 1);
  return CUTE_CUDA_OK;
}

void cute_cuda_emit_swizzle_expr(cute_cuda_text *o, cute_swizzle sw,
                                 const char *x)
{
  long long field = (1ll << sw.b) - 1;
  if (sw.b == 0) {
    cute_cuda_text_printf(o, "(%s)", x);
  } else if (sw.s >= 0) {
    cute_cuda_text_printf(o, "((%s) ^ (((%s) & %lld) >> %d))", x, x,
                          field << (sw.m + sw.s), sw.s);
  } else {
    cute_cuda_text_printf(o, "((%s) ^ (((%s) & %lld) << %d))", x, x,
                          field << sw.m, -sw.s);
  }
}

static int64_t abs64(int64_t x) { return x < 0 ? -x : x; }

/* name(args) = sw(offset + name_layout(args)) for each overload. */
static void emit_swizzled(cute_cuda_text *o, const cg_layout *g,
                          const cute_composed *C, const char *name)
{
  const char *it = g->wide_index ? "unsigned long long" : "unsigned";
  /* 32-bit when offset + image and the XOR (which moves bits by |S|)
   * stay below 2^31, as for shared-memory tiles. */
  int bits = 0, m, forms = g->rank >= 2 ? 2 : 1, f;
  const char *vt;
  while (bits < 62 && ((int64_t)1 << bits) <= g->hi + abs64(C->offset)) bits++;
  vt = g->lo < 0 || g->wide_value || bits + (C->sw.s < 0 ? -C->sw.s : 0) > 30
           ? "long long" : "int";
  for (f = 0; f < forms; f++) {
    cute_cuda_text_printf(o, "CUTE_DI %s %s(", vt, name);
    if (f == 0) cute_cuda_text_printf(o, "%s i", it);
    for (m = 0; f == 1 && m < g->rank; m++)
      cute_cuda_text_printf(o, "%s%s c%d", m ? ", " : "", it, m);
    cute_cuda_text_printf(o, ") {\n  %s x = %lld + %s_layout(", vt,
                          (long long)C->offset, name);
    if (f == 0) cute_cuda_text_puts(o, "i");
    for (m = 0; f == 1 && m < g->rank; m++)
      cute_cuda_text_printf(o, "%sc%d", m ? ", " : "", m);
    cute_cuda_text_puts(o, ");\n  return ");
    cute_cuda_emit_swizzle_expr(o, C->sw, "x");
    cute_cuda_text_puts(o, ";\n}\n");
  }
}

cute_cuda_status cute_cuda_emit_composed(cute_cuda_text *out,
                                         const char *name,
                                         const cute_composed *C,
                                         cute_cuda_error *err)
{
  char text[CUTE_MAX_TEXT], inner[256];
  cg_layout g;
  int64_t cosize = 0;
  cute_cuda_status s;
  if ((s = check_name(name, err))) return s;
  snprintf(inner, sizeof inner, "%s_layout", name);
  if ((s = analyse(&g, &C->layout, name, err))) return s;
  if (g.ncomp)
    return cucu_fail(err, CUTE_CUDA_ELAYOUT, "cute.cuda: codegen '%s': a "
                     "swizzle applies to offsets, not to a coordinate "
                     "layout", name);
  cute_composed_print(C, text, sizeof text);
  emit_comment(out, text);
  emit_functions(out, &g, inner);
  emit_swizzled(out, &g, C, name);
  if (cute_composed_cosize(C, &cosize, NULL) != CUTE_OK) cosize = g.hi + 1;
  cute_cuda_text_printf(out,
                        "inline constexpr long long %s_size = %lldll, %s_cosize = "
                        "%lldll;\n",
                        name, (long long)g.size, name, (long long)cosize);
  emit_type(out, name, g.size, cosize);
  return CUTE_CUDA_OK;
}

cute_cuda_status cute_cuda_emit_tensor(cute_cuda_text *out, const char *name,
                                       cute_cuda_dtype dtype,
                                       const cute_layout *L,
                                       cute_cuda_error *err)
{
  char inner[256];
  const char *T = cute_cuda_dtype_ctype(dtype);
  cg_layout g;
  cute_cuda_status s;
  int m, f, forms;
  const char *it;
  if ((s = check_name(name, err)) || (s = analyse(&g, L, name, err))) return s;
  if (g.ncomp)
    return cucu_fail(err, CUTE_CUDA_ELAYOUT, "cute.cuda: codegen '%s': a "
                     "tensor's layout must give offsets, not coordinates",
                     name);
  snprintf(inner, sizeof inner, "%s_layout", name);
  if ((s = cute_cuda_emit_layout(out, inner, L, err))) return s;
  it = g.wide_index ? "unsigned long long" : "unsigned";
  forms = g.rank >= 2 ? 2 : 1;
  cute_cuda_text_printf(out, "typedef %s %s_elem; /* %s */\n", T, name,
                        cute_cuda_dtype_name(dtype));
  cute_cuda_text_printf(out, "inline constexpr long long %s_size = %lldll;\n", name,
                        (long long)g.size);
  cute_cuda_text_printf(out, "struct %s_t {\n  %s *ptr;\n", name, T);
  for (f = 0; f < forms; f++) {
    cute_cuda_text_printf(out, "  CUTE_DI %s &operator()(", T);
    if (f == 0) cute_cuda_text_printf(out, "%s i", it);
    for (m = 0; f == 1 && m < g.rank; m++)
      cute_cuda_text_printf(out, "%s%s c%d", m ? ", " : "", it, m);
    cute_cuda_text_printf(out, ") const { return ptr[%s(", inner);
    if (f == 0) cute_cuda_text_puts(out, "i");
    for (m = 0; f == 1 && m < g.rank; m++)
      cute_cuda_text_printf(out, "%sc%d", m ? ", " : "", m);
    cute_cuda_text_puts(out, ")]; }\n");
  }
  cute_cuda_text_puts(out, "};\n");
  return CUTE_CUDA_OK;
}
