-- Right and left inverses (paper 3.4, Tables 5 and 6) and the maximal
-- common vector (3.4.2).
local cute = require "cute"
local R = require "helpers.random"
local L = cute.layout

local function check_right(A, Ri)
  for k = 0, cute.size(Ri) - 1 do R.eq(A(Ri(k)), k, "%s(%s(%d))", A, Ri, k) end
end

local function check_left(A, Li)
  for k = 0, cute.size(A) - 1 do R.eq(A(Li(A(k))), A(k), "%s(%s(%s(%d)))", A, Li, A, k) end
end

describe("right_inverse", function()
  it("Table 5", function()
    local rows = {
      {"(4,8):(1,4)", "32:1"},
      {"(4,8):(8,1)", "(8,4):(4,1)"},
      {"(3,7,5):(5,15,1)", "(5,21):(21,1)"},
      {"(4,8):(1,5)", "4:1"},
      {"(4,(4,2)):(4,(1,16))", "(4,4,2):(4,1,16)"},
      {"((2,2),(4,2)):((1,8),(2,16))", "(2,4,2,2):(1,4,2,16)"},
      {"((2,2),(2,4)):((0,2),(0,4))", "1:0"},
      {"(4,8):(1@0,1@1)", "(4,8):(1,4)"},
      {"(4,(4,2)):(1@1,(1@0,6@1))", "(4,4):(4,1)"},
    }
    for _, r in ipairs(rows) do
      assert.equal(r[2], tostring(cute.right_inverse(L(r[1]))), r[1])
    end
  end)

  it("Table 5's stride-0 row: the defining property, not the printed text", function()
    -- Printed (2,2):(4,8) is not a right inverse; docs/architecture.md
    -- settles on the largest one that skips stride-0 modes.
    local A = L "((2,2),(2,4)):((0,1),(0,2))"
    local Ri = cute.right_inverse(A)
    assert.equal("(2,4):(2,8)", tostring(Ri))
    check_right(A, Ri)
  end)

  it("A(R(k)) = k on random layouts", function()
    local g = R.new(23)
    for _ = 1, 1500 do
      local A = g:layout()
      check_right(A, cute.right_inverse(A))
    end
  end)
end)

describe("left_inverse", function()
  it("Table 6", function()
    local rows = {
      {"(4,8):(1,4)", "32:1"},
      {"(4,8):(8,1)", "(8,4):(4,1)"},
      {"(3,7,5):(5,15,1)", "(5,21):(21,1)"},
      {"(4,8):(1,5)", "(5,8):(1,4)"},
      {"(4,(4,2)):(4,(1,16))", "(4,4,2):(4,1,16)"},
      {"((2,2),(4,2)):((1,8),(2,16))", "(2,4,2,2):(1,4,2,16)"},
      {"((2,2),(2,4)):((0,2),(0,4))", "(2,2,4):(0,2,8)"},
      {"(4,8):(1@0,1@1)", "(4,8):(1,4)"},
    }
    for _, r in ipairs(rows) do
      assert.equal(r[2], tostring(cute.left_inverse(L(r[1]))), r[1])
    end
  end)

  it("Table 6's ((2,2),(2,4)):((0,1),(0,2)) row: the defining property", function()
    local A = L "((2,2),(2,4)):((0,1),(0,2))"
    check_left(A, cute.left_inverse(A))
  end)

  it("L(L+(L(k))) = L(k), and L+(L(k)) = k when injective, on random layouts", function()
    local g = R.new(29)
    local done = 0
    for _ = 1, 1000 do
      local A = g:injective()
      local ok, Li = pcall(cute.left_inverse, A)
      if ok then
        done = done + 1
        for k = 0, cute.size(A) - 1 do R.eq(Li(A(k)), k, "%s(%s(%d))", Li, A, k) end
      else
        assert.matches("divisibility", Li, 1, true)
      end
      local B = g:layout()
      ok, Li = pcall(cute.left_inverse, B)
      if ok then check_left(B, Li) end
    end
    assert.is_true(done > 500, "too few left inverses: " .. done)
  end)
end)

describe("max_common_vector / max_common_layout (3.4.2)", function()
  it("contiguous agreement", function()
    assert.equal(32, cute.max_common_vector(L "(4,8):(1,4)", L "32:1"))
    assert.equal(1, cute.max_common_vector(L "(4,8):(1,4)", L "(4,8):(8,1)"))
    assert.equal(4, cute.max_common_vector(L "(4,8):(1,4)", L "(4,8):(1,5)"))
    assert.equal("4:1", tostring(cute.max_common_layout(L "(4,8):(1,4)",
                                                        L "(4,8):(1,5)")))
  end)

  it("A and B agree on the common layout's coordinates", function()
    local g = R.new(31)
    for _ = 1, 500 do
      local A = g:injective()
      local B = cute.layout(A:shape())
      local n = cute.max_common_vector(A, B)
      local C = cute.max_common_layout(A, B)
      assert.equal(n, cute.size(C))
      for k = 0, n - 1 do assert.equal(A(C(k)), B(C(k))) end
    end
  end)
end)
