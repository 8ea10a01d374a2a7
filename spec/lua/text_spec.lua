-- Text forms (docs/architecture.md, "Text forms"): the printer writes
-- CuTe's text, the parser reads back everything the printer writes,
-- whitespace anywhere, and basis descriptors (docs/grammar.md).
local cute = require "cute"
local R = require "helpers.random"

describe("layout text", function()
  it("prints like CuTe C++", function()
    for _, s in ipairs {
      "(4,8):(1,4)", "8:1", "((2,2),(4,2)):((1,8),(2,16))", "():()",
      "(8):(1)", "((4),8):((1),4)", "(4,8):(1@0,1@1)", "(2,3):(-1,4)",
      "(4,(4,2)):(1@1,(1@0,6@1))", "(2,2):(1@1@0,2@1)"} do
      assert.equal(s, tostring(cute.layout(s)))
    end
  end)

  it("reads a bare shape as a compact column-major layout", function()
    assert.equal("(4,8):(1,4)", tostring(cute.layout "(4,8)"))
    assert.equal("8:1", tostring(cute.layout "8"))
  end)

  it("ignores whitespace anywhere", function()
    assert.equal("(4,8):(1,4)", tostring(cute.layout " ( 4 , 8 ) : ( 1 , 4 ) "))
    assert.equal("(4,8):(1,4)", tostring(cute.layout "(4,\t8)\n:(1, 4)"))
  end)

  it("round-trips seeded random layouts", function()
    local g = R.new(2024)
    for _ = 1, 1000 do
      local A = g:layout()
      local B = cute.layout(tostring(A))
      assert.equal(A, B)
      assert.equal(tostring(A), tostring(B))
    end
  end)
end)

describe("tuple text", function()
  it("round-trips", function()
    for _, s in ipairs {"(1,(2,3))", "5", "()", "((1),2)", "(_,1)", "(1@0,8@1)"} do
      assert.equal(s, cute.tuple_tostring(cute.tuple(s)))
    end
  end)

  it("reads basis descriptors", function()
    assert.same({cute.E(0), 8 * cute.E(1)}, cute.tuple "(1@0, 8@1)")
    assert.same({{cute.E(0), 8 * cute.E(1)}, cute.E(2)},
                cute.tuple "((1@0, 8@1), 1@2)")
    -- "a@i@j" prints innermost first: 1@0@1 is E<1,0>
    assert.same({cute.E(1, 0)}, cute.tuple "(1@0@1)")
    assert.equal("(1@0@1)", cute.tuple_tostring {cute.E(1, 0)})
  end)

  it("normalises fractional counts or rejects them", function()
    assert.same({2 * cute.E(0), 4 * cute.E(1)}, cute.tuple "(4/2@0, 4@1)")
    local ok, msg = pcall(cute.tuple, "(1/2@0, 4@1)")
    assert.is_false(ok)
    assert.matches("not an integer", msg, 1, true)
  end)
end)

describe("swizzle and composed text", function()
  it("prints Sw<B,M,S> and Sw<..> o off o L", function()
    assert.equal("Sw<3,4,3>", tostring(cute.swizzle(3, 4, 3)))
    local C = cute.composed(cute.swizzle(3, 4, 3), 0, cute.layout "(8,64):(64,1)")
    assert.equal("Sw<3,4,3> o 0 o (8,64):(64,1)", tostring(C))
  end)

  it("parses them back", function()
    assert.equal(cute.swizzle(3, 4, 3), cute.swizzle "Sw<3,4,3>")
    local s = "Sw<3,4,3> o 0 o (8,64):(64,1)"
    assert.equal(s, tostring(cute.composed(s)))
    assert.equal(s, tostring(cute.layout(s)))
  end)
end)

describe("syntax errors", function()
  it("name the column and what was expected", function()
    local ok, msg = pcall(cute.layout, "(4,8):(1,4")
    assert.is_false(ok)
    assert.matches("column 11", msg, 1, true)
    assert.matches("expected", msg, 1, true)
    ok, msg = pcall(cute.layout, "(4,x)")
    assert.is_false(ok)
    assert.matches("column 4", msg, 1, true)
  end)

  it("reject incongruent and non-positive shapes", function()
    assert.has_error(function() cute.layout "(4,8):(1,4,5)" end)
    assert.has_error(function() cute.layout "0:1" end)
    assert.has_error(function() cute.layout "-3:2" end)
  end)
end)
