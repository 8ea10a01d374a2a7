-- Binary (F2) strides, the paper's binary layouts: F<d> is f_d, leaves
-- combine by XOR and a coordinate c contributes the carry-less product
-- c*d.  Every operation defined for them is checked against that
-- evaluation, computed here independently, on thousands of seeded random
-- layouts; the paper's examples (Tables 1, 4, 5, 6) are checked as printed.
local cute = require "cute"
local R = require "helpers.random"

local function clmul(c, d)
  local r, j = 0, 0
  while c >> j ~= 0 do
    if (c >> j) & 1 == 1 then r = r ~ (d << j) end
    j = j + 1
  end
  return r
end

-- The flat leaves {s, d} of a binary layout, read from its text.
local function leaves(L)
  local shape, stride = tostring(L):match("^(.*):(.*)$")
  local s, d = {}, {}
  for v in shape:gmatch("%d+") do s[#s + 1] = tonumber(v) end
  for v in stride:gmatch("F?%d+") do d[#d + 1] = tonumber(v:match("%d+")) end
  return s, d
end

-- L(i), computed from its leaves: the last leaf takes the rest of i.
local function eval(s, d, i)
  local r = 0
  for k = 1, #s do
    local c = i
    if k < #s then c, i = i % s[k], i // s[k] end
    r = r ~ clmul(c, d[k])
  end
  return r
end

local function text(t)
  if type(t) ~= "table" then return tostring(t) end
  local p = {}
  for i, x in ipairs(t) do p[i] = text(x) end
  return "(" .. table.concat(p, ",") .. ")"
end

-- A binary layout: 1-4 leaves, extents powers of two but, when `any`,
-- the last; strides F<d> (d < 64) and the odd integer 0.
local function binary(g, any)
  local n = g:int(1, 4)
  local s, d = {}, {}
  for k = 1, n do
    s[k] = g:pick { 1, 2, 2, 4, 4, 8 }
    d[k] = g:int(1, 8) == 1 and "0" or "F" .. g:int(0, 63)
  end
  if any then s[n] = g:pick { 3, 5, 6, 7, 2 } end
  local nest = g:nesting(n)
  return cute.layout(text(nest(s)) .. ":" .. text(nest(d)))
end

describe("binary (F2) strides: text and evaluation", function()
  it("prints and parses the paper's binary layouts", function()
    local A = cute.layout "(4,4):(F1,F5)"
    assert.equal("(4,4):(F1,F5)", tostring(A))
    assert.equal("((2,2),(2,2)):((F1,F2),(F5,F10))",
                 tostring(cute.layout " ( (2, 2),(2,2) ) : ((F1, F2), (F5,F10))"))
    -- Table 1: the two are one function, c0*f1 ^ c1*f5
    local B = cute.layout "((2,2),(2,2)):((F1,F2),(F5,F10))"
    for i = 0, 15 do assert.equal(B(i), A(i)) end
    assert.equal(3 ~ 15, A(15))
    assert.equal("(F1,F5)", tostring(A:stride()))
  end)

  it("refuses malformed binary strides with the column", function()
    for _, bad in ipairs { "4:F", "4:F-1", "4:F 1", "4:F1@0", "4:Fx" } do
      local ok, msg = pcall(cute.layout, bad)
      assert.is_false(ok, bad)
      assert.matches("column", msg)
    end
    assert.has_error(function() cute.layout "F4:1" end)
    assert.matches("mixes with binary", select(2, pcall(function()
      return cute.layout "(4,4):(F1,4)"(5)
    end)))
  end)

  it("round-trips and evaluates as the XOR of carry-less products", function()
    for seed = 1, 2000 do
      local g = R.new(seed)
      local L = binary(g, seed % 3 == 0)
      local again = cute.layout(tostring(L))
      R.eq(tostring(again), tostring(L), "seed %d: round trip", seed)
      local s, d = leaves(L)
      for i = 0, cute.size(L) - 1 do
        R.eq(L(i), eval(s, d, i), "seed %d: %s(%d)", seed, tostring(L), i)
      end
    end
  end)
end)

describe("binary (F2) strides: coalesce, composition, inverses", function()
  it("coalesce keeps the function, merging only after a power of two", function()
    assert.equal("4:F1", tostring(cute.coalesce(cute.layout "(2,2):(F1,F2)")))
    assert.equal("(4,4):(F1,F5)",
                 tostring(cute.coalesce(cute.layout "((2,2),(2,2)):((F1,F2),(F5,F10))")))
    -- 3 is no power of two: c*1 for c = c0 + 3 c1 carries, c0 ^ c1*3 not
    assert.equal("(3,2):(F1,F3)", tostring(cute.coalesce(cute.layout "(3,2):(F1,F3)")))
    for seed = 1, 2000 do
      local g = R.new(seed)
      local L = binary(g, seed % 2 == 0)
      local C = cute.coalesce(L)
      R.ok(cute.depth(C) <= 1, "seed %d: depth", seed)
      for i = 0, cute.size(L) - 1 do
        R.eq(C(i), L(i), "seed %d: coalesce(%s)(%d)", seed, tostring(L), i)
      end
    end
  end)

  it("composes as the paper's Table 4 (a TV layout over a swizzled tile)", function()
    assert.equal("((4,8),2):((F18,F1),F9)",
                 tostring(cute.composition(cute.layout "(8,8):(F1,F9)",
                                           cute.layout "((4,8),2):((16,1),8)")))
  end)

  it("composes A o B (binary A, B integer and carry-free or binary)", function()
    local done = 0
    for seed = 1, 2000 do
      local g = R.new(seed)
      local A = binary(g, seed % 2 == 0)
      local B = seed % 3 == 0 and binary(g, false) or R.new(seed + 7):layout()
      local ok, Rl = pcall(cute.composition, A, B)
      if ok then
        done = done + 1
        R.eq(cute.size(Rl), cute.size(B), "seed %d: size", seed)
        for i = 0, cute.size(B) - 1 do
          R.eq(Rl(i), A(B(i)), "seed %d: (%s o %s)(%d)", seed, tostring(A),
               tostring(B), i)
        end
      else
        R.ok(Rl:match("composition") and (Rl:match("binary") or
             Rl:match("carr") or Rl:match("power of two") or
             Rl:match("A%(")), "seed %d: %s", seed, Rl)
      end
    end
    assert.is_true(done > 500, done)
  end)

  it("inverts a bijection onto [0, N) as the paper's Tables 5 and 6", function()
    local L = cute.layout "(4,(4,3)):(F1,(F5,F16))"
    assert.equal("(4,4,3):(F1,F5,F16)", tostring(cute.right_inverse(L)))
    assert.equal("(4,4,3):(F1,F5,F16)", tostring(cute.left_inverse(L)))
    for seed = 1, 1000 do
      -- a random invertible F2 map: a random product of row operations
      local g = R.new(seed)
      local n = g:int(1, 8)
      local col = {}
      for j = 1, n do col[j] = 1 << (j - 1) end
      for _ = 1, 3 * n do
        local a, b = g:int(1, n), g:int(1, n)
        if a ~= b then col[a] = col[a] ~ col[b] end
      end
      local parts = {}
      for j = 1, n do parts[j] = ("[%d]"):format(col[j]) end
      local lin = cute.linear_layout("{a = [" .. table.concat(parts, ", ") .. "]}")
      local B = cute.from_linear(lin, { binary = true })
      local Ri, Li = cute.right_inverse(B), cute.left_inverse(B)
      for k = 0, (1 << n) - 1 do
        R.eq(B(Ri(k)), k, "seed %d: %s o right_inverse", seed, tostring(B))
        R.eq(Li(B(k)), k, "seed %d: left_inverse o %s", seed, tostring(B))
      end
    end
  end)

  it("refuses what it does not define, naming the condition", function()
    local A = cute.layout "(4,4):(F1,F5)"
    local function fails(pat, f, ...)
      local ok, msg = pcall(f, ...)
      assert.is_false(ok)
      assert.matches(pat, msg)
    end
    fails("complement.*binary %(F2%)", cute.complement, A)
    fails("cosize.*binary %(F2%)", cute.cosize, A)
    fails("right_inverse.*not injective", cute.right_inverse, cute.layout "(4,2):(F1,0)")
    fails("rank below", cute.right_inverse, cute.layout "(2,2):(F3,F3)")
    fails("reaches past", cute.right_inverse, cute.layout "(2,2):(F1,F4)")
    fails("A adds offsets where B XORs", cute.composition, cute.layout "(8,8):(1,8)",
          cute.layout "4:F3")
    fails("carries", cute.composition, A, cute.layout "4:3")
    fails("not a power of two", cute.composition, cute.layout "(3,4):(F1,F4)",
          cute.layout "4:4")
    fails("tiler", cute.composition, A, { 2, 2 })
  end)
end)

describe("a swizzle is the binary layout it equals", function()
  it("Sw<3,4,3> o (8,128):(128,1) is (8,128):(F144,F1)", function()
    local S = cute.layout "Sw<3,4,3> o 0 o (8,128):(128,1)"
    local B = cute.from_linear(cute.to_linear(S), { binary = true })
    assert.equal("(8,128):(F144,F1)", tostring(B))
    for i = 0, 1023 do assert.equal(S(i), B(i)) end
  end)

  it("to_linear agrees, and composing either with B gives one function", function()
    for seed = 1, 1000 do
      local g = R.new(seed)
      local b = g:int(1, 3)
      local m = g:int(0, 3)
      local sh = g:int(b, 4)
      local tot = b + m + sh + g:int(0, 2)
      local eb = g:int(1, tot - 1)
      local src = ("Sw<%d,%d,%d> o 0 o (%d,%d):(1,%d)"):format(b, m, sh,
        1 << eb, 1 << (tot - eb), 1 << eb)
      local S = cute.layout(src)
      local A = cute.to_linear(S)
      local Bn = cute.from_linear(A, { binary = true })
      R.ok(cute.to_linear(Bn) == A, "seed %d: to_linear(%s)", seed, tostring(Bn))
      for i = 0, cute.size(Bn) - 1 do
        R.eq(Bn(i), S(i), "seed %d: %s(%d) vs %s", seed, tostring(Bn), i, src)
      end
      local T = R.new(seed):tiler_for(Bn)
      local ok, C = pcall(cute.composition, Bn, T)
      if ok then
        for i = 0, cute.size(T) - 1 do
          R.eq(C(i), S(T(i)), "seed %d: (%s o %s)(%d)", seed, tostring(Bn),
               tostring(T), i)
        end
      end
    end
  end)
end)
