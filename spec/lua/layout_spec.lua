-- Layouts: construction, evaluation on indices and (hierarchical)
-- coordinates, queries, modes (paper section 2).
local cute = require "cute"
local L = cute.layout

describe("layout construction", function()
  it("parses CuTe text", function()
    assert.equal("(4,8):(1,4)", tostring(L "(4,8):(1,4)"))
    assert.equal("8:1", tostring(L "8:1"))
    assert.equal("((2,2),(4,2)):((1,8),(2,16))",
                 tostring(L "((2,2),(4,2)):((1,8),(2,16))"))
  end)

  it("takes shape and stride tables", function()
    assert.equal(L "(4,8):(1,4)", cute.layout({4, 8}, {1, 4}))
    assert.equal(L "(4,(2,2)):(2,(1,8))", cute.layout({4, {2, 2}}, {2, {1, 8}}))
    assert.equal(L "8:2", cute.layout(8, 2))
  end)

  it("makes compact column-major and row-major layouts", function()
    assert.equal("(4,8):(1,4)", tostring(cute.layout {4, 8}))
    assert.equal("(4,8):(8,1)", tostring(cute.layout_right {4, 8}))
    assert.equal("(4,(2,2)):(1,(4,8))", tostring(cute.layout {4, {2, 2}}))
    assert.equal(L "(4,8)", cute.layout {4, 8})
  end)

  it("makes identity (coordinate) layouts", function()
    assert.equal("(4,8):(1@0,1@1)", tostring(cute.make_identity_layout {4, 8}))
  end)

  it("concatenates with .. and make_layout", function()
    local A, B = L "4:1", L "8:4"
    assert.equal("(4,8):(1,4)", tostring(A .. B))
    assert.equal("(4,8):(1,4)", tostring(cute.make_layout(A, B)))
    assert.equal("(4,8):(1,4)", tostring(cute.make_layout({4, 8}, {1, 4})))
    assert.equal("(4,(8,2)):(1,(4,32))", tostring(A .. (B .. L "2:32")))
  end)

  it("passes a layout through cute.layout unchanged", function()
    local A = L "(4,8):(1,4)"
    assert.equal(A, cute.layout(A))
  end)
end)

describe("layout evaluation", function()
  local A = L "((2,2),(4,2)):((1,8),(2,16))"   -- Figure 3e

  it("agrees on index, 2-D and natural coordinates (paper 2.4.1)", function()
    assert.equal(26, A(22))
    assert.equal(26, A(2, 5))
    assert.equal(26, A({2, 5}))
    assert.equal(26, A({{0, 1}, {1, 1}}))
    assert.equal(26, A({2, {1, 1}}))
  end)

  it("is the inner product of idx2crd with the stride", function()
    for i = 0, cute.size(A) - 1 do
      local c = cute.idx2crd(i, A:shape())
      assert.equal(A(i), A(c))
      assert.equal(A(i), cute.crd2idx(c, A:shape(), A:stride()))
    end
  end)

  it("evaluates the extended domain (paper 2.2.2)", function()
    local B = L "(4,8):(1,4)"
    assert.equal(32, B(32))
    assert.equal(36, B(0, 9))
    assert.equal(B(1, 8), B(33))
  end)

  it("returns coordinates for coordinate layouts", function()
    local I = cute.make_identity_layout {4, 8}
    assert.same({1, 3}, I(1, 3))
    assert.same({1, 3}, I(13))
    local T = cute.layout({4, {4, 2}}, {cute.E(1), {cute.E(0), 6 * cute.E(1)}})
    assert.equal("(4,(4,2)):(1@1,(1@0,6@1))", tostring(T))  -- Table 1
    assert.same({2, 1 + 6}, T(1, {2, 1}))
  end)

  it("uses plain Lua integers and tables for tuples", function()
    local A2 = L "(4,(2,2)):(2,(1,8))"
    assert.equal(4, A2:shape()[1])
    assert.same({4, {2, 2}}, A2:shape())
    assert.same({2, {1, 8}}, A2:stride())
    assert.equal(8, L "8:1":shape())
  end)
end)

describe("layout queries", function()
  it("size, cosize, rank, depth", function()
    local A = L "((2,2),(4,2)):((1,8),(2,16))"
    assert.equal(32, cute.size(A))
    assert.equal(32, cute.cosize(A))
    assert.equal(2, cute.rank(A))
    assert.equal(2, cute.depth(A))
    assert.equal(1, cute.rank(L "8:1"))
    assert.equal(0, cute.depth(L "8:1"))
    assert.equal(39, cute.cosize(L "(4,8):(1,5)"))
    assert.equal(32, A:size())
    assert.equal(2, A:rank())
  end)

  it("work on tuples too", function()
    assert.equal(24, cute.size {4, {2, 3}})
    assert.equal(2, cute.rank {4, {2, 3}})
    assert.equal(2, cute.depth {4, {2, 3}})
    assert.equal(7, cute.size(7))
  end)

  it("modes are 0-based", function()
    local A = L "((2,2),(4,2)):((1,8),(2,16))"
    assert.equal("(2,2):(1,8)", tostring(A:mode(0)))
    assert.equal("(4,2):(2,16)", tostring(A:mode(1)))
    assert.equal("8:1", tostring(L "8:1":mode(0)))
  end)

  it("mode manipulation", function()
    local A = L "(2,3,4):(1,2,6)"
    assert.equal("(2,(3,4)):(1,(2,6))", tostring(cute.group_modes(A, 1, 3)))
    assert.equal("(3,4):(2,6)", tostring(cute.take(A, 1, 3)))
    assert.equal("(4,2):(6,1)", tostring(cute.select(A, 2, 0)))
    assert.equal("(4,2):(6,1)", tostring(cute.select(A, {2, 0})))
    assert.equal("(2,3,4,5):(1,2,6,24)", tostring(cute.append(A, L "5:24")))
    assert.equal("(5,2,3,4):(24,1,2,6)", tostring(cute.prepend(A, L "5:24")))
    assert.equal("(2,5,4):(1,24,6)", tostring(cute.replace(A, 1, L "5:24")))
    assert.equal("(2,3,4):(1,2,6)", tostring(cute.flatten(L "(2,(3,4)):(1,(2,6))")))
  end)

  it("structural equality", function()
    assert.is_true(L "(4,8):(1,4)" == L "(4,8):(1,4)")
    assert.is_false(L "(4,8):(1,4)" == L "32:1")
    assert.is_false(L "(4,8):(1,4)" == L "((4),8):((1),4)")
  end)
end)

describe("tuples", function()
  it("convert between text and tables", function()
    assert.same({1, {2, 3}}, cute.tuple "(1,(2,3))")
    assert.equal("(1,(2,3))", cute.tuple_tostring {1, {2, 3}})
    assert.equal(5, cute.tuple "5")
    assert.equal("()", cute.tuple_tostring {})
  end)

  it("idx2crd and crd2idx are inverse bijections (Figure 2)", function()
    local S = {{2, 3}, 2}
    local expect = {
      {{0, 0}, 0}, {{1, 0}, 0}, {{0, 1}, 0}, {{1, 1}, 0}, {{0, 2}, 0},
      {{1, 2}, 0}, {{0, 0}, 1}, {{1, 0}, 1}, {{0, 1}, 1}, {{1, 1}, 1},
      {{0, 2}, 1}, {{1, 2}, 1}}
    for i = 0, 11 do
      assert.same(expect[i + 1], cute.idx2crd(i, S))
      assert.equal(i, cute.crd2idx(expect[i + 1], S))
    end
    assert.same({5, 1}, cute.idx2crd(11, {6, 2}))
    assert.same({1, 2}, cute.idx2crd(5, {2, 3}))
    assert.equal(3, cute.idx2crd(3, 4))
  end)

  it("carry scaled basis elements as cute.E", function()
    local e = 2 * cute.E(1)
    assert.equal("2@1", tostring(e))
    assert.equal("1@1@0", tostring(cute.E(0, 1)))
    assert.equal(e, cute.E(1) * 2)
    assert.equal("(1@0,8@1)", cute.tuple_tostring {cute.E(0), 8 * cute.E(1)})
    assert.equal(cute.tuple "(1@0,8@1)"[2], 8 * cute.E(1))
  end)

  it("give a basis element's scale and mode path as CuTe DSL's "
     .. "ScaledBasis (value, mode)", function()
    math.randomseed(14)
    for _ = 1, 2000 do
      local path = {}
      for k = 1, math.random(1, 3) do path[k] = math.random(0, 254) end
      local v = math.random(1, 1 << 40) * (math.random(2) == 1 and 1 or -1)
      local e = v * cute.E(table.unpack(path))
      assert.equal(v, e.value)
      assert.same(path, e.mode)
      assert.equal(e, e.value * cute.E(table.unpack(e.mode)))
      local rev = {}
      for k = #path, 1, -1 do rev[#rev + 1] = path[k] end
      assert.equal(v .. "@" .. table.concat(rev, "@"), tostring(e))
    end
    -- a sum and a binary stride are no single scaled basis element
    local sum = cute.E(0) + 2 * cute.E(1)
    assert.is_nil(sum.value)
    assert.is_nil(sum.mode)
    local f2 = cute.layout "(4,8):(F1,F4)":stride()[2]
    assert.equal("F4", tostring(f2))
    assert.is_nil(f2.value)
    assert.is_nil(f2.mode)
    assert.is_nil(cute.E(1).scale)
    assert.is_nil(cute.E(1)[1])
  end)

  it("relations of paper section 2", function()
    assert.is_true(cute.congruent({4, {2, 2}}, {1, {3, 5}}))
    assert.is_false(cute.congruent({4, {2, 2}}, {1, 3}))
    assert.is_true(cute.weakly_congruent({1, 3}, {4, {2, 2}}))
    assert.is_true(cute.compatible(32, {4, 8}))
    assert.is_true(cute.compatible({4, 8}, {4, {2, 4}}))
    assert.is_false(cute.compatible({4, 8}, {8, 4}))
  end)
end)
