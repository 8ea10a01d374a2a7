-- Composition (paper 3.3): R(c) = A(B(c)) for every coordinate c of B.
local cute = require "cute"
local R = require "helpers.random"
local L = cute.layout

local function compose(a, b) return tostring(cute.composition(L(a), L(b))) end

describe("composition", function()
  it("Table 4: data layouts composed with the TV layout", function()
    local tv = "((4,8),2):((16,1),8)"
    assert.equal("((4,8),2):((16,1),8)", compose("(8,8):(1,8)", tv))
    assert.equal("((4,8),2):((2,8),1)", compose("(8,8):(8,1)", tv))
    assert.equal("((4,8),2):((18,1),9)", compose("(8,8):(1,9)", tv))
    assert.equal("((4,(4,2)),2):((8,(2,16)),1)",
                 compose("((4,2),(2,4)):((2,16),(1,8))", tv))
    assert.equal("((4,8),2):((2@1,1@0),1@1)", compose("(8,8):(1@0,1@1)", tv))
  end)

  it("identity layouts (3.3.1)", function()
    for _, s in ipairs {"24:1", "(4,6):(1,4)", "(3,(4,2)):(1,(3,12))"} do
      local I = L(s)
      for i = 0, 23 do assert.equal(i, I(i)) end
    end
    for _, s in ipairs {"(4,6):(1@0,1@1)", "(4,(3,2)):(1@0,(1@1,3@1))"} do
      local I = L(s)
      for i = 0, 3 do
        for j = 0, 5 do assert.same({i, j}, I(i, j)) end
      end
    end
    local B = L "(4,(3,2)):(3,(1,12))"
    assert.equal(B, cute.composition(L "24:1", B))          -- left identity
    local A = L "(4,6):(6,1)"
    local AI = cute.composition(A, L "(4,6):(1,4)")         -- right identity
    for i = 0, 23 do assert.equal(A(i), AI(i)) end
  end)

  it("associativity needs image(C) in Z(B) (3.3.1)", function()
    assert.equal("2:7", tostring(cute.composition(L "(5,3):(1,7)",
                                                  cute.composition(L "4:1", L "2:5"))))
    assert.equal("2:5", tostring(cute.composition(cute.composition(L "(5,3):(1,7)", L "4:1"),
                                                  L "2:5")))
  end)

  it("rank-1 left-hand layouts (3.3.3)", function()
    assert.equal("3:44", compose("7:11", "3:4"))
    assert.equal("(3,5):(66,33)", compose("7:11", "(3,5):(6,3)"))
  end)

  it("divide out, then keep (3.3.3)", function()
    assert.equal("(2,3):(9,5)", compose("(4,6,8,10):(2,3,5,7)", "6:12"))
  end)

  it("apparent violations resolved by coalescing and truncation", function()
    assert.equal("3:9", compose("(4,2,8):(3,12,97)", "3:3"))
  end)

  it("takes A on its extended domain", function()
    assert.equal("2:1", compose("1:1", "2:1"))
    assert.equal("8:3", compose("24:1", "8:3"))
  end)

  it("accepts an integer n for n:1", function()
    assert.equal("4:2", tostring(cute.composition(L "(8,2):(2,16)", 4)))
  end)

  it("A * B is composition", function()
    local A, B = L "(4,6,8,10):(2,3,5,7)", L "6:12"
    assert.equal(cute.composition(A, B), A * B)
  end)

  it("holds R(i) = A(B(i)) on random layouts", function()
    local g = R.new(11)
    local done = 0
    for _ = 1, 3000 do
      local A, B = g:layout(), g:layout()
      local ok, C = pcall(cute.composition, A, B)
      if ok then
        done = done + 1
        assert.is_true(cute.compatible(B:shape(), C:shape()))
        for i = 0, cute.size(B) - 1 do R.eq(C(i), A(B(i)), "%s o %s at %d", A, B, i) end
      else
        assert.matches("condition violated", C, 1, true)
      end
    end
    assert.is_true(done > 1000, "too few admissible compositions: " .. done)
  end)
end)

describe("by-mode composition with tilers (3.3.5)", function()
  local A = L "(8,16):(20,1)"

  it("a table of layouts and integers is a tiler", function()
    assert.equal("(4,8):(20,2)", tostring(cute.composition(A, {4, L "8:2"})))
    assert.equal("(4,8):(20,1)", tostring(cute.composition(A, {4, 8})))
    assert.equal(cute.composition(A, {L "4:1", L "8:1"}), cute.composition(A, {4, 8}))
  end)

  it("(4,8) = <4,8> = <4:1,8:1> = (4,8):(e0,e1) in composition", function()
    local viaI = cute.composition(A, cute.make_identity_layout {4, 8})
    local viaT = cute.composition(A, {4, 8})
    for i = 0, 31 do assert.equal(viaT(i), viaI(i)) end
  end)

  it("drops the modes a shorter tiler does not name (as CuTe C++)", function()
    assert.equal("(2):(2)", tostring(cute.composition(L "(4,5):(1,4)", {L "2:2"})))
  end)

  it("nested tables are sub-tilers of a mode", function()
    local B = L "((4,2),16):((1,4),8)"
    local R2 = cute.composition(B, {{2, 2}, 4})
    assert.equal("((2,2),4):((1,4),8)", tostring(R2))
  end)

  it("A * {tiler} is by-mode composition", function()
    assert.equal(cute.composition(A, {4, L "8:2"}), A * {4, L "8:2"})
  end)
end)
