--- cute.explain -- how an operation of the algebra derives its result, in
-- the paper's terms, or why it fails, with a concrete counterexample where
-- the condition is about colliding coordinates.
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

local function crd(L, i)
  return core.tuple_tostring(core.idx2crd(i, L:shape()))
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

function derive.composition(A, B, R)
  local lines = { "R = A o B, R(c) = A(B(c)) with B's shape (paper 3.3)",
                  "coalesce(A) = " .. tostring(core.coalesce(A)) }
  if tiler.is_layout(B) then
    if core.rank(B) > 1 then
      lines[#lines + 1] = "left distributivity: A o (B0, B1, ...) = "
        .. "(A o B0, A o B1, ...)"
      for k = 0, core.rank(B) - 1 do
        lines[#lines + 1] = ("  A o %s = %s"):format(tostring(B:mode(k)),
          tostring(core.composition(A, B:mode(k))))
      end
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

local function arranged(how)
  return function(A, B, R)
    local cute = require "cute"
    local lines = {}
    divide_lines(A, B, lines)
    lines[#lines + 1] = "logical_divide = "
      .. tostring(cute.logical_divide(A, B))
    lines[#lines + 1] = how
    lines[#lines + 1] = "= " .. tostring(R)
    return lines
  end
end
derive.zipped_divide = arranged("rearranged ((tiles), (rests)) (zipped)")
derive.tiled_divide = arranged("rearranged ((tiles), rest0, rest1, ...) (tiled)")
derive.flat_divide = arranged("rearranged (tile0, ..., rest0, ...) (flat)")

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

local function product_arranged(how)
  return function(A, B, R)
    local cute = require "cute"
    local lines = derive.logical_product(A, B, cute.logical_product(A, B))
    lines[#lines + 1] = how
    lines[#lines + 1] = "= " .. tostring(R)
    return lines
  end
end
derive.zipped_product = product_arranged("rearranged ((A's modes), (B's modes))")
derive.tiled_product = product_arranged("rearranged ((A's modes), B0, B1, ...)")
derive.flat_product = product_arranged("rearranged (A0, A1, ..., B0, B1, ...)")
derive.blocked_product = product_arranged("mode i = (A_i, (A* o B)_i): "
  .. "whole blocks of A over B's grid")
derive.raked_product = product_arranged("mode i = ((A* o B)_i, A_i): A's "
  .. "elements raked across B's grid")

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

-- A failing call: its message, and for a condition about colliding
-- coordinates, two that collide.
local function failure(name, args, msg)
  local lines = { "fails: " .. tostring(msg):gsub("^[^:]*:%d+: ", "") }
  local A = args[1]
  if tostring(msg):find("non%-injective") and tiler.is_layout(A) then
    local i, j, v = collision(A)
    if i then
      lines[#lines + 1] = ("counterexample: A%s = A%s = %s -- two coordinates "
        .. "(indices %d and %d) at one offset: A is not injective")
        :format(crd(A, i), crd(A, j), tostring(v), i, j)
    else
      lines[#lines + 1] = "A is injective, but its modes interleave: a mode "
        .. "of larger stride lies inside the span of a smaller one"
    end
  elseif tostring(msg):find("divisibility") then
    lines[#lines + 1] = "the condition: each stride and shape of B must "
      .. "divide (or be divided by) the prefix products of A's shape that it "
      .. "reaches (paper eqs. 20, 21); the message names the pair that does not"
  end
  return lines
end

--- explain(name, A [, B]) -> text: how cute[name](A, B) derives its result
-- step by step, or why it fails.
function M.explain(name, ...)
  local cute = require "cute"
  E.argcheck(type(name) == "string", "explain", 1, "function name", name)
  local f = rawget(cute, name)
  if type(f) ~= "function" then
    E.raise(("explain: %s is not a function of cute"):format(tostring(name)))
  end
  local args = table.pack(...)
  local shown = {}
  for i = 1, args.n do shown[i] = text(args[i]) end
  local head = ("%s(%s)"):format(name, table.concat(shown, ", "))
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
