-- Nested basis strides (a@i@j: a coordinate inside mode j's sub-mode i) in
-- the complement and the inverses.  The codomain of such a layout is the
-- coordinates of a hierarchical shape (paper 2.3.1, Z^S); each leaf of
-- that profile is one integer component, so the operations are taken per
-- component and the result is weakly congruent with the codomain (the
-- paper's "Result domain congruent with codomain" rows of Tables 5-7).
-- Checked on their definitions over seeded random coordinate layouts.
local cute = require "cute"
local R = require "helpers.random"
local L = cute.layout
local T = cute.tuple_tostring

-- Values compared as coordinates: a missing or zero mode is 0.
local function norm(x)
  if type(x) ~= "table" then return x == 0 and "0" or tostring(x) end
  local t = {}
  for i, v in ipairs(x) do t[i] = norm(v) end
  while #t > 0 and t[#t] == "0" do t[#t] = nil end
  return #t == 0 and "0" or "(" .. table.concat(t, ",") .. ")"
end

-- A random injective coordinate layout with nested bases and no sums: a
-- nested identity composed with an injective layout of its size.
local function rand_coordinate(g)
  for _ = 1, 50 do
    local ext = g:extents(g:int(2, 4), 48)
    local nest = g:nesting(#ext)
    local shape = nest(ext)
    if type(shape) == "table" then
      local I = cute.make_identity_layout(shape)
      local B = g:injective()
      if cute.size(B) <= cute.size(I) then
        local ok, C = pcall(cute.composition, I, B)
        if ok and not tostring(C):find("%d[+-]%d") and tostring(C):find("@%d+@") then
          return C
        end
      end
    end
  end
end

describe("nested basis strides", function()
  it("complement, right and left inverse per codomain component", function()
    local A = L "(4,2):(1@0,2@1@1)"
    assert.equal("(1,(1,(2,1))):(4@0,(1@0@1,(1@1@1,4@1@1)))", tostring(cute.complement(A)))
    assert.equal("(4,(1,(2,2))):(1,(0,(0,4)))", tostring(cute.left_inverse(A)))
    assert.equal("(4,(1,1)):(1,(0,0))", tostring(cute.right_inverse(A)))
    assert.equal("(1,1,(1,(7,1))):(2@0,1@1,(1@0@2,(1@1@2,28@1@2)))",
                 tostring(cute.complement(L "(4,2):(7@1@2,1@0)")))
  end)

  it("refuse a path used both as a coordinate and as a group", function()
    assert.has_error(function() cute.complement(L "(2,2):(1@0,1@0@0)") end,
      "complement((2,2):(1@0,1@0@0)): a basis path is used both as a "
      .. "coordinate and as a group of coordinates")
  end)

  it("left_inverse: L(Linv(L(k))) = L(k) (random)", function()
    local g = R.new(81)
    local done = 0
    for _ = 1, 600 do
      local A = rand_coordinate(g)
      if A then
        local ok, Li = pcall(cute.left_inverse, A)
        if ok then
          done = done + 1
          for k = 0, cute.size(A) - 1 do
            local v = A(k)
            R.eq(norm(A(Li(v))), norm(v), "%s: Linv = %s at %d", A, Li, k)
          end
        end
      end
    end
    assert.is_true(done > 300, "too few cases: " .. done)
  end)

  it("complement: disjoint from A's image (random)", function()
    local g = R.new(82)
    local done = 0
    for _ = 1, 600 do
      local A = rand_coordinate(g)
      if A then
        local C = cute.complement(A)
        done = done + 1
        local image = {}
        for k = 0, cute.size(A) - 1 do image[norm(A(k))] = true end
        for a = 1, math.min(cute.size(C), 64) - 1 do
          R.ok(not image[norm(C(a))], "%s: complement %s hits A at %d", A, C, a)
        end
      end
    end
    assert.is_true(done > 300, "too few cases: " .. done)
  end)
end)
