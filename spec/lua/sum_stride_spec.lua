-- Sum strides a@i+b@j (the paper's integer-semimodule strides, 2.3.1:
-- a*e_i + b*e_j; CuTe's E<i>*a + E<j>*b, an ArithmeticTuple): text,
-- evaluation, arithmetic, coalesce and composition, each checked against
-- its definition on seeded random inputs.
local cute = require "cute"
local R = require "helpers.random"
local L = cute.layout
local T = cute.tuple_tostring

-- A random stride: 1 to 3 terms {coef, mode} over modes [0, m).
local function rand_stride(g, m)
  local terms, used = {}, {}
  for _ = 1, g:int(1, 3) do
    local i = g:int(0, m - 1)
    if not used[i] then
      used[i] = true
      terms[#terms + 1] = { g:pick { -3, -1, 1, 1, 2, 3, 5 }, i }
    end
  end
  return terms
end

local function stride_text(terms)
  local t = {}
  for k, x in ipairs(terms) do
    t[k] = (k > 1 and x[1] >= 0 and "+" or "") .. x[1] .. "@" .. x[2]
  end
  return table.concat(t)
end

-- A random coordinate layout with sum strides: its text, its flat shape
-- and its strides as term lists.
local function rand_layout(g)
  local n, m = g:int(1, 4), g:int(1, 3)
  local ext = g:extents(n, 64)
  local strides, texts = {}, {}
  for k = 1, n do
    strides[k] = rand_stride(g, m)
    texts[k] = stride_text(strides[k])
  end
  local nest = g:nesting(n)
  local function tx(t)
    if type(t) ~= "table" then return tostring(t) end
    local p = {}
    for k, x in ipairs(t) do p[k] = tx(x) end
    return "(" .. table.concat(p, ",") .. ")"
  end
  return tx(nest(ext)) .. ":" .. tx(nest(texts)), ext, strides
end

-- The reference value at index i: sum_k c_k * stride_k, as a list of
-- coordinates (the layout pads the modes up to the largest one used).
local function reference(ext, strides, i)
  local v, width = {}, 0
  for k, s in ipairs(strides) do
    local c = k < #ext and i % ext[k] or i
    i = i // ext[k]
    for _, x in ipairs(s) do
      v[x[2] + 1] = (v[x[2] + 1] or 0) + c * x[1]
      width = math.max(width, x[2] + 1)
    end
  end
  for j = 1, width do v[j] = v[j] or 0 end
  return v
end

-- A value as a list, trailing zero coordinates dropped: a coordinate
-- layout pads its values up to the largest mode its strides name, and
-- coalesce may drop a size-1 mode that names one more.
local function flat(x)
  if type(x) ~= "table" then x = { x } end
  local t = table.move(x, 1, #x, 1, {})
  while #t > 1 and t[#t] == 0 do t[#t] = nil end
  return t
end

describe("sum strides", function()
  it("print as CuTe's terms joined by + and read back", function()
    assert.equal("(2,2):(1@0,1@0+1@1)", tostring(L "(2,2):(1@0, 1@1 + 1@0)"))
    assert.equal("(2,3):(2@0-1@1,3@2)", tostring(L "(2,3):(2@0+-1@1,3@2)"))
    assert.equal("4:2@0", tostring(L "4:1@0+1@0"))
    assert.equal("2:0@1", tostring(L "2:1@1-1@1"))
  end)

  it("round-trip and evaluate as sum_k c_k * stride_k (random)", function()
    local g = R.new(71)
    for _ = 1, 2000 do
      local text, ext, strides = rand_layout(g)
      local A = L(text)
      R.eq(L(tostring(A)), A, "round trip of %s", text)
      for i = 0, cute.size(A) - 1 do
        R.eq(T(flat(A(i))), T(flat(reference(ext, strides, i))), "%s at %d", text, i)
      end
    end
  end)

  it("refuse what a packed sum cannot hold, naming the stride", function()
    local function bad(text, msg)
      local ok, e = pcall(L, text)
      assert.is_false(ok)
      assert.matches(msg, e, 1, true)
    end
    bad("(2,2):(3+1@0,1)", "a sum of strides adds scaled basis elements")
    bad("(2,2):(1@1+1@0@1,1)", "stride 1@1+1@0@1: a sum holds depth-1 bases")
    bad("2:1@0+1@1+1@2+1@3", "more than 3 bases (CUTE_MAX_SUM_TERMS)")
    bad("2:1@0+1048576@1", "outside [-2^20, 2^20) (CUTE_MAX_SUM_COEF)")
    bad("2:1@0+_", "expected a scaled basis term")
  end)

  it("cute.E arithmetic makes them (E<0> + E<1>)", function()
    local e = cute.E(0) + cute.E(1)
    assert.equal("1@0+1@1", tostring(e))
    assert.equal("3@0+3@1", tostring(3 * e))
    assert.equal("-1@0-1@1", tostring(-e))
    assert.equal("1@1", tostring(e - cute.E(0)))
    assert.equal(e, cute.E(1) + cute.E(0))
    assert.equal("(4,8):(1@0+1@1,1@1)",
                 tostring(cute.layout({ 4, 8 }, { e, cute.E(1) })))
    assert.has_error(function() return e + 1 end,
                     "stride 1@0+1@1+1: an integer added to basis elements")
  end)

  it("coalesce merges a sum that continues the one before", function()
    assert.equal("4:1@0+1@1", tostring(cute.coalesce(L "(2,2):(1@0+1@1,2@0+2@1)")))
    assert.equal("(2,2):(1@0+1@1,2@0+3@1)",
                 tostring(cute.coalesce(L "(2,2):(1@0+1@1,2@0+3@1)")))
    local g = R.new(72)
    for _ = 1, 500 do
      local A = L((rand_layout(g)))
      local C = cute.coalesce(A)
      for i = 0, cute.size(A) - 1 do R.eq(T(flat(C(i))), T(flat(A(i))), "coalesce %s at %d", A, i) end
    end
  end)

  it("come out of compositions whose walk never carries", function()
    local I = cute.make_identity_layout { 4, 8 }
    local C = cute.composition(I, L "(2,2):(1,5)")
    assert.equal("(2,2):(1@0,1@0+1@1)", tostring(C))
    assert.same({ 2, 1 }, C(1, 1))
    -- integer strides the same way: (4,8):(1,10) o 2:5 = 2:A(5)
    assert.equal("2:11", tostring(cute.composition(L "(4,8):(1,10)", L "2:5")))
    -- a carry keeps the paper's condition
    assert.equal("3:1@0+1@1", tostring(cute.composition(I, L "3:5")))
    -- a carry keeps the paper's condition: 2*6 = 12 is (0,3), not (4,2)
    assert.has_error(function() cute.composition(I, L "3:6") end,
                     "composition((4,8):(1@0,1@1), 3:6): stride divisibility "
                     .. "condition violated: prefix product 4 of A's shape and "
                     .. "stride 6 of B divide neither way")
  end)

  it("compose on either side: R(i) = A(B(i)) (random)", function()
    local g = R.new(73)
    local done, sums = 0, 0
    for _ = 1, 3000 do
      local A, B, ref
      local kind = g:int(1, 3)
      if kind == 1 then       -- identity o integer B: sums appear
        local n = g:int(1, 3)
        A, B = cute.make_identity_layout(g:extents(n, 64)), g:layout()
      elseif kind == 2 then   -- sum strides in A
        A, B = L((rand_layout(g))), g:layout()
      else                    -- sum strides in B: A o (I_A o B')
        A = g:layout()
        local Bi = g:layout()
        local ok, IB = pcall(cute.composition, cute.make_identity_layout(A:shape()), Bi)
        if not ok then goto next end
        B, ref = IB, Bi
      end
      ref = ref or B
      do
        local ok, C = pcall(cute.composition, A, B)
        if ok then
          done = done + 1
          if tostring(C):find("+", 1, true) or tostring(C):find("@%d+%-") then sums = sums + 1 end
          assert.is_true(cute.compatible(B:shape(), C:shape()))
          for i = 0, cute.size(B) - 1 do
            R.eq(T(flat(C(i))), T(flat(A(ref(i)))), "%s o %s at %d", A, B, i)
          end
        else
          R.ok(C:find("condition violated", 1, true) or C:find("split its shape", 1, true)
               or C:find("CUTE_MAX_SUM", 1, true) or C:find("mix integers", 1, true)
               or C:find("not congruent", 1, true) or C:find("names no mode", 1, true),
               "unexpected error %s", C)
        end
      end
      ::next::
    end
    assert.is_true(done > 1500, "too few admissible compositions: " .. done)
    assert.is_true(sums > 100, "too few sum strides: " .. sums)
  end)

  it("A o (I_A o B) = A o B: the identity composes away (3.3.5)", function()
    local g = R.new(74)
    local done = 0
    for _ = 1, 2000 do
      local A, B = g:layout(), g:layout()
      local ok1, IB = pcall(cute.composition, cute.make_identity_layout(A:shape()), B)
      local ok2, AB = pcall(cute.composition, A, B)
      if ok1 and ok2 then
        local ok3, AIB = pcall(cute.composition, A, IB)
        if ok3 then
          done = done + 1
          for i = 0, cute.size(B) - 1 do R.eq(AIB(i), AB(i), "%s o (I o %s) at %d", A, B, i) end
        end
      end
    end
    assert.is_true(done > 1000, "too few cases: " .. done)
  end)

  it("tilers with sum strides compose mode by mode", function()
    local A = L "(8,8):(1@0,1@1)"
    local C = cute.composition(A, { L "2:3", L "2:1" })
    assert.equal("(2,2):(3@0,1@1)", tostring(C))
    local S = L "(4,4):(1@0+1@1,4@1)"
    assert.equal("(2,2):(2@0+2@1,4@1)", tostring(cute.composition(S, { L "2:2", L "2:1" })))
  end)

  it("refuse the operations defined per codomain component", function()
    local S = L "(2,3):(1@0+1@1,2@0-1@2)"
    for _, f in ipairs { "complement", "left_inverse", "right_inverse" } do
      assert.has_error(function() cute[f](S) end,
                       f .. "((2,3):(1@0+1@1,2@0-1@2)): a sum stride (a@i+b@j) "
                       .. "spans several codomain components; " .. f
                       .. " is taken per component, each stride along one basis")
    end
  end)
end)
