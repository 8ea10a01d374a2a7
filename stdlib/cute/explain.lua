--- cute.explain -- how an operation of the algebra derives its result, in
-- the paper's terms, or why it fails: the condition, and a concrete
-- counterexample where the condition is about colliding coordinates (two
-- of them at one offset) or about composition (the leaf of B that breaks
-- a divisibility condition and two uneven steps along it; or, for
-- distributivity, a coordinate where R is not the sum of its modes).
--
--   print(cute.explain("logical_divide", cute.layout "(4,8):(1,4)", 4))
--   logical_divide((4,8):(1,4), 4)
--     A / B = A o (B, B*)  (paper 3.5.2), B = 4:1
--     B* = complement(B, size(A) = 32) = 8:4
--     (B, B*) = (4,8):(1,4)
--     A o (B, B*) = (4,8):(1,4)
--     = (4,8):(1,4)
--     checked: R(i) = A((B, B*)(i)) for all 32 indices
--
-- Every step is a public function of cute, so the derivation is the
-- computation itself, not a second implementation of it.
local core = require "cute.core"
local E = require "cute.error"
local tiler = require "cute.tiler"
local limits = require "cute.limits"

local M = {}

local function text(x)
  if type(x) == "table" and not tiler.is_layout(x) then
    return tiler.tostring(x)
  end
  return tostring(x)
end

-- "(i, j)": index i of L as L's coordinate, in parentheses; the index
-- itself past L's domain.
local function crd(L, i)
  local ok, c = pcall(core.idx2crd, i, L:shape())
  if not ok or i >= core.size(L) then return ("(%d)"):format(i) end
  c = core.tuple_tostring(c)
  return c:match "^%(" and c or "(" .. c .. ")"
end

-- Two indices of L with the same value (the first such pair), or nil.
local function collision(L)
  local n = core.size(L)
  limits.check("visit", "explain", n, "elements", L)
  local seen = {}
  for i = 0, n - 1 do
    local v = L(i)
    if seen[v] then return seen[v], i, v end
    seen[v] = i
  end
end

-- Checks holds(i) for every index i of L (up to cute.limits.visit).
local function check_all(L, holds, what)
  local n = core.size(L)
  if n > limits.visit then
    return "not checked: more than cute.limits.visit indices"
  end
  for i = 0, n - 1 do
    if not holds(i) then
      return ("CHECK FAILED at index %d: %s"):format(i, what)
    end
  end
  return ("checked: %s for all %d indices"):format(what, n)
end

-- The derivation of each operation: a list of lines, the last the result.
local derive = {}

-- "v0, v1, ..., v7, ..." for a list of numbers.
local function list(vals, n)
  local shown = {}
  for i = 1, math.min(#vals, n or 8) do shown[i] = tostring(vals[i]) end
  return table.concat(shown, ", ") .. (#vals > #shown and ", ..." or "")
end

-- The leaves of B (flattened): {mode = s:d, s, step}, step being the
-- leaf's stride in B's own index (so B(j * step) is j along the leaf).
local function leaves(B)
  local F, out, step = core.flatten(B), {}, 1
  for k = 0, core.rank(F) - 1 do
    local m = F:mode(k)
    out[#out + 1] = { mode = m, s = core.size(m), step = step }
    step = step * core.size(m)
  end
  return out
end

-- A(B(j * step)) for j = 0 .. s-1 along one leaf (at most `n` of them).
local function along(A, B, leaf, n)
  local vals = {}
  for j = 0, math.min(leaf.s, n) - 1 do vals[j + 1] = A(B(j * leaf.step)) end
  return vals
end

function derive.composition(A, B, R)
  local lines = { "R = A o B, R(c) = A(B(c)) with B's shape (paper 3.3)",
                  "coalesce(A) = " .. tostring(core.coalesce(A)) }
  if tiler.is_layout(B) then
    local ls = leaves(B)
    if #ls > 1 then
      lines[#lines + 1] = "left distributivity (eq. 22): A o (B0, B1, ...) "
        .. "= (A o B0, A o B1, ...), B's leaves landing in separate digits "
        .. "of A"
    end
    -- each leaf s:d takes every d-th offset of A, s of them (eqs. 19-21)
    for _, leaf in ipairs(ls) do
      local at = {}
      for j = 0, math.min(leaf.s, 9) - 1 do at[j + 1] = leaf.mode(j) end
      lines[#lines + 1] = ("  A o %s: A at %s: offsets %s = %s")
        :format(tostring(leaf.mode), list(at), list(along(A, leaf.mode,
          { s = leaf.s, step = 1 }, 9)),
          tostring(core.composition(A, leaf.mode)))
    end
    lines[#lines + 1] = "= " .. tostring(R)
    lines[#lines + 1] = check_all(R, function(i) return R(i) == A(B(i)) end,
      "R(i) = A(B(i))")
  else
    lines[#lines + 1] = "by mode (a tiler): R_i = A_i o T_i, modes past "
      .. "the tiler dropped"
    lines[#lines + 1] = "= " .. tostring(R)
  end
  return lines
end

local function divide_lines(A, B, lines)
  local S = core.size(A)
  local B1 = tiler.is_layout(B) and B or (math.type(B) == "integer"
    and core.layout(B) or nil)
  if not B1 then
    lines[#lines + 1] = "by mode (a tiler): each mode of A divided by its tile"
    return
  end
  local star = core.coalesce(core.complement(B1, S))
  local T = core.concat(B1, star)
  lines[#lines + 1] = "A / B = A o (B, B*)  (paper 3.5.2), B = " .. tostring(B1)
  lines[#lines + 1] = ("B* = complement(B, size(A) = %d) = %s"):format(S,
    tostring(star))
  lines[#lines + 1] = "(B, B*) = " .. tostring(T)
  lines[#lines + 1] = "A o (B, B*) = " .. tostring(core.composition(A, T))
  return T
end

function derive.logical_divide(A, B, R)
  local lines = {}
  local T = divide_lines(A, B, lines)
  lines[#lines + 1] = "= " .. tostring(R)
  if T then
    lines[#lines + 1] = check_all(R, function(i) return R(i) == A(T(i)) end,
      "R(i) = A((B, B*)(i))")
  end
  return lines
end

function derive.logical_product(A, B, R)
  local lines = { "A x B = (A, A* o B)  (paper 3.5.1)" }
  if tiler.is_layout(B) then
    local star = core.complement(A)
    lines[#lines + 1] = "A* = complement(A) = " .. tostring(star)
    lines[#lines + 1] = "A* o B = " .. tostring(core.composition(star, B))
  else
    lines[#lines + 1] = "by mode (a tiler): each mode of A times its tile"
  end
  lines[#lines + 1] = "= " .. tostring(R)
  return lines
end

-- A rearranged divide or product: the logical one's derivation (it ends
-- in the logical result), then how its modes are regrouped.
local function rearranged(logical, how)
  return function(A, B, R)
    local lines = derive[logical](A, B, require("cute")[logical](A, B))
    lines[#lines + 1] = how
    lines[#lines + 1] = "= " .. tostring(R)
    return lines
  end
end
for name, how in pairs {
  zipped_divide = "rearranged ((tiles), (rests)) (zipped)",
  tiled_divide = "rearranged ((tiles), rest0, rest1, ...) (tiled)",
  flat_divide = "rearranged (tile0, ..., rest0, ...) (flat)",
  zipped_product = "rearranged ((A's modes), (B's modes))",
  tiled_product = "rearranged ((A's modes), B0, B1, ...)",
  flat_product = "rearranged (A0, A1, ..., B0, B1, ...)",
  blocked_product = "mode i = (A_i, (A* o B)_i): whole blocks of A over B's "
    .. "grid",
  raked_product = "mode i = ((A* o B)_i, A_i): A's elements raked across "
    .. "B's grid" } do
  derive[name] = rearranged(name:match "divide" and "logical_divide"
    or "logical_product", how)
end

function derive.complement(A, M, R)
  local lines = { "complement(A, M): the layout of the offsets A misses, "
    .. "ordered by stride, so that (A, A*) is injective and covers [0, M) "
    .. "(paper 3.4)", "= " .. tostring(R) }
  -- stride-0 modes repeat offsets by design: they are left out (filter)
  local both = core.concat(core.filter(A), R)
  local i, j = collision(both)
  lines[#lines + 1] = i and ("CHECK FAILED: (filter(A), A*) repeats an "
    .. "offset at %d and %d"):format(i, j)
    or ("checked: (filter(A), A*) = %s is injective"):format(tostring(both))
  return lines
end

function derive.right_inverse(A, _, R)
  return { "right_inverse(A): R with A(R(i)) = i on the largest contiguous "
    .. "prefix of A's image (paper 3.4)", "= " .. tostring(R),
    check_all(R, function(i) return A(R(i)) == i end, "A(R(i)) = i") }
end

function derive.left_inverse(A, _, R)
  local lines = { "left_inverse(A): R with R(A(i)) = i for every index of "
    .. "the injective A (paper 3.4)", "= " .. tostring(R) }
  local i, j = collision(A)
  lines[#lines + 1] = i and ("not checked: A is not injective (A%s = A%s), "
    .. "so R(A(i)) = i cannot hold everywhere"):format(crd(A, i), crd(A, j))
    or check_all(A, function(k) return R(A(k)) == k end, "R(A(i)) = i")
  return lines
end

-- Whether vals[1..n] (n values, vals[1] the value at 0) are the values of
-- some layout of size n: its first mode s1:d1 fixes f(i) = (i mod s1) d1
-- + f(s1 (i div s1)), and the rest is a layout of size n / s1.
local function is_layout_of(vals, n)
  if n == 1 then return vals[1] == 0 end
  for s1 = 2, n do
    if n % s1 == 0 then
      local d1, ok, rest = vals[2] - vals[1], true, {}
      for i = 0, n - 1 do
        if vals[i + 1] ~= i % s1 * d1 + vals[i - i % s1 + 1] then
          ok = false
          break
        end
      end
      if ok then
        for q = 0, n // s1 - 1 do rest[q + 1] = vals[q * s1 + 1] end
        if is_layout_of(rest, n // s1) then return true end
      end
    end
  end
  return false
end

local CONDITION = {
  stride = "the condition (paper 3.3.2, eq. 20): a stride d of B and the "
    .. "prefix products of A's shape it crosses divide one another, so "
    .. "that B's steps cross A's modes evenly",
  shape = "the condition (paper 3.3.2, eq. 21): a shape s of B and the "
    .. "modes of A left after dividing out its stride divide one another, "
    .. "so that B keeps whole modes of A or a part of one",
  distributivity = "the condition (paper 3.3.3, eq. 22): B's modes land "
    .. "in separate digits of A's shape, so that R adds its modes as a "
    .. "layout does: R(c0, c1) = R(c0, 0) + R(0, c1)",
}

-- A failing leaf s:d of B: the values R would take along it, where they
-- step unevenly, and whether any layout of that size takes them at all.
local function leaf_counterexample(A, B, k, leaf, lines)
  lines[#lines + 1] = ("leaf %d of B, %s, violates it")
    :format(k - 1, tostring(leaf.mode))
  local n = math.min(leaf.s, limits.visit // 4, 4096)
  local vals = along(A, B, leaf, n)
  local bad
  for j = 2, n - 1 do
    if vals[j + 1] - vals[j] ~= vals[2] - vals[1] then bad = j break end
  end
  if not bad then
    -- the condition is sufficient, not necessary: it can refuse a leaf
    -- whose values a layout does take
    lines[#lines + 1] = ("no counterexample along it: R takes %s there, "
      .. "evenly spaced; the condition is sufficient, not necessary, and "
      .. "composition (as CuTe's) requires it all the same"):format(list(vals))
    return
  end
  -- step j-1 -> j: where B sends both ends, and A's offsets there
  local function step(j)
    local b0, b1 = B((j - 1) * leaf.step), B(j * leaf.step)
    return ("from B%s = %d to B%s = %d it steps by %d (A%s = %d, A%s = %d)")
      :format(crd(B, (j - 1) * leaf.step), b0, crd(B, j * leaf.step), b1,
        vals[j + 1] - vals[j], crd(A, b0), vals[j], crd(A, b1), vals[j + 1])
  end
  lines[#lines + 1] = ("counterexample: along it R(i) = A(B(i)) takes %s: "
    .. "%s, but %s; one mode of a layout steps evenly"):format(
    list(vals, math.max(4, bad + 1)), step(1), step(bad))
  if n == leaf.s and not is_layout_of(vals, n) then
    lines[#lines + 1] = ("no layout of size %d (one mode or several) takes "
      .. "these values"):format(n)
  elseif n == leaf.s then
    lines[#lines + 1] = "a layout of several modes takes these values, but "
      .. "the condition, like CuTe's, is what composition requires"
  end
end

-- Two leaves of B whose images carry into one another: an index of B at
-- which R would not add up from its modes.
local function carry_counterexample(A, B, lines)
  local ls = leaves(B)
  local n = math.min(core.size(B), limits.visit // 4)
  for i = 1, n - 1 do
    local parts, sum, terms = 0, 0, {}
    for _, leaf in ipairs(ls) do
      local c = i // leaf.step % leaf.s
      if c > 0 then
        local v = A(B(c * leaf.step))
        parts, sum = parts + 1, sum + v
        terms[#terms + 1] = { crd(B, c * leaf.step), B(c * leaf.step), v }
      end
    end
    local v = A(B(i))
    if parts > 1 and v ~= sum then
      local rs, as, vs = {}, {}, {}
      for t, x in ipairs(terms) do
        rs[t], as[t], vs[t] = "R" .. x[1], ("A(%d)"):format(x[2]), x[3]
      end
      lines[#lines + 1] = ("counterexample: R%s = A(B%s) = A(%d) = %d, but "
        .. "%s = %s = %s = %d"):format(crd(B, i), crd(B, i), B(i), v,
        table.concat(rs, " + "), table.concat(as, " + "),
        table.concat(vs, " + "), sum)
      return
    end
  end
  lines[#lines + 1] = ("no index of B below %d breaks the sum: the condition "
    .. "refuses the modes' overlap in A's digits all the same"):format(n)
end

-- The counterexample of a failing composition A o B (layouts).
local function composition_counterexample(A, B, msg, lines)
  local kind = msg:match "(%a+) divisibility condition violated"
    or (msg:find "distributivity condition violated" and "distributivity")
  if not (kind and CONDITION[kind]) then return end
  lines[#lines + 1] = CONDITION[kind]
  if kind == "distributivity" then
    return carry_counterexample(A, B, lines)
  end
  for k, leaf in ipairs(leaves(B)) do
    if not pcall(core.composition, A, leaf.mode) then
      return leaf_counterexample(A, B, k, leaf, lines)
    end
  end
end

-- The operands of the composition a call performs: (A, B) for
-- composition, (A, (B, B*)) for the divides; nil when not layouts.
local function composed_operands(name, A, B)
  if not tiler.is_layout(A) then return end
  if name == "composition" then
    return tiler.is_layout(B) and A, B
  end
  if not name:match "_divide$" then return end
  local B1 = tiler.is_layout(B) and B
    or (math.type(B) == "integer" and core.layout(B))
  local ok, star = pcall(core.complement, B1 or nil, core.size(A))
  if B1 and ok then return A, core.concat(B1, star) end
end

-- A failing call: its message, the violated condition and, for a
-- condition about colliding coordinates or about composition, a concrete
-- counterexample.
local function failure(name, args, msg)
  msg = tostring(msg):gsub("^[^:]*:%d+: ", "")
  local lines = { "fails: " .. msg }
  local A = args[1]
  local CA, CB = composed_operands(name, A, args[2])
  if msg:find("non%-injective") and tiler.is_layout(A) then
    local i, j, v = collision(A)
    if i then
      lines[#lines + 1] = ("counterexample: A%s = A%s = %s -- two coordinates "
        .. "(indices %d and %d) at one offset: A is not injective")
        :format(crd(A, i), crd(A, j), tostring(v), i, j)
    else
      lines[#lines + 1] = "A is injective, but its modes interleave: a mode "
        .. "of larger stride lies inside the span of a smaller one"
    end
  elseif CA and msg:find("condition violated") then
    if CB ~= args[2] then
      lines[#lines + 1] = "A / B = A o (B, B*)  (paper 3.5.2), (B, B*) = "
        .. tostring(CB)
    end
    composition_counterexample(CA, CB, msg, lines)
  elseif msg:find("divisibility") then
    lines[#lines + 1] = "the condition: each stride and shape must "
      .. "divide (or be divided by) the prefix products of the shape it "
      .. "reaches; the message names the pair that does not"
  end
  return lines
end

-- The functions of cute that write their output (the terminal, a file)
-- and return nothing, and the one that returns it.  explain and operation
-- refuse them before the call: called, they printed, then failed or
-- explained nil.
local writers = { print_layout = "format_layout",
                  print_tensor = "format_tensor", show = "render" }

--- cute[name], the function a call of `op` (explain, operation) names.
function M.cute_function(op, name)
  E.argcheck(type(name) == "string", op, 1, "function name", name)
  local f = rawget(require "cute", name)
  if type(f) ~= "function" then
    E.raise(("%s: %s is not a function of cute (composition, "
      .. "logical_divide, blocked_product, ...)"):format(op, tostring(name)))
  elseif writers[name] then
    E.raise(("%s: %s writes its output and returns no result (%s returns "
      .. "it)"):format(op, name, writers[name]))
  end
  return f
end

--- "name(A, B)": the call of cute[name] on args[1..n] as text (tilers in
-- CuTe's form).
function M.call_text(name, args, n)
  local shown = {}
  for i = 1, n or #args do shown[i] = text(args[i]) end
  return ("%s(%s)"):format(name, table.concat(shown, ", "))
end

--- explain(name, A [, B]) -> text: how cute[name](A, B) derives its result
-- step by step, or why it fails.
function M.explain(name, ...)
  local f = M.cute_function("explain", name)
  local args = table.pack(...)
  local head = M.call_text(name, args, args.n)
  local ok, R = pcall(f, ...)
  local lines
  if not ok then
    lines = failure(name, args, R)
  elseif derive[name] then
    local derived, steps = pcall(derive[name], args[1], args[2], R)
    -- a product padded or applied by mode has no whole-layout steps
    lines = derived and steps or { "computed mode by mode", "= " .. text(R) }
  else
    lines = { "= " .. text(R) }
  end
  return head .. "\n  " .. table.concat(lines, "\n  ")
end

return M
