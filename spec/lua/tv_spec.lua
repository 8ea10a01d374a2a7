-- Thread-value layouts: make_layout_tv, composition with data layouts
-- (paper 3.3.4, Table 4), compose-and-slice partitions, ownership tables
-- and the bijection check.
local cute = require "cute"
local tv = require "cute.tv"

local L = cute.layout
local C = L "((4,8),2):((16,1),8)"   -- ThrValLayoutC, paper Figure 6

describe("make_layout_tv", function()
  it("rakes each thread's value block over the thread grid", function()
    local tiler, X = tv.make_layout_tv(cute.layout_right { 4, 8 }, L "(1,4)")
    assert.same({ 4, 32 }, tiler)
    assert.equal(L "((8,4),4):((16,1),4)", X)
    -- thread t sits at (t/8, t%8) and owns 4 consecutive columns of its row
    for t = 0, 31 do
      for v = 0, 3 do
        local m, n = t // 8, 4 * (t % 8) + v
        assert.equal(m + 4 * n, X(t, v))
      end
    end
    assert.is_true((tv.bijection(X, 4 * 32)))
  end)

  it("gives column vectors to column-major threads", function()
    local tiler, X = tv.make_layout_tv(L "(32,8)", L "(4,1)")
    assert.same({ 128, 8 }, tiler)
    assert.equal(L "(256,4):(4,1)", X)
  end)

  it("rejects layouts that are not compact", function()
    assert.has_error(function() tv.make_layout_tv(L "(4,8):(1,5)", L "2") end,
      "make_layout_tv((4,8):(1,5), 2:1): raked product ((2,4),(1,8)):((40,1),"
      .. "(0,5)) is not a bijection onto 0..63 (are both layouts compact?)")
    assert.has_error(function() tv.make_layout_tv({ 4, 8 }, L "2") end,
      "make_layout_tv: the thread layout must be a cute.Layout, got table")
  end)
end)

describe("composition with a TV layout (paper Table 4)", function()
  local rows = {
    { "ColMajor", "(8,8):(1,8)", "((4,8),2):((16,1),8)" },
    { "RowMajor", "(8,8):(8,1)", "((4,8),2):((2,8),1)" },
    { "Padded", "(8,8):(1,9)", "((4,8),2):((18,1),9)" },
    { "ColInterleaved", "((4,2),(2,4)):((2,16),(1,8))",
      "((4,(4,2)),2):((8,(2,16)),1)" },
    { "Coordinate", "(8,8):(1@0,1@1)", "((4,8),2):((2@1,1@0),1@1)" },
  }
  for _, r in ipairs(rows) do
    it(r[1], function()
      assert.equal(r[3], tostring(cute.composition(L(r[2]), C)))
    end)
  end

  it("Swizzled: the swizzle stays outside, the strides compose as Padded",
    function()
      -- Table 4 writes (8,8):(f1,f9) o C = ((4,8),2):((f18,f1),f9); here
      -- the XOR is a Swizzle composed on the left of the padded layout.
      local S = cute.composed(cute.swizzle(3, 0, 3), 0, L "(8,8):(1,9)")
      local R = cute.composition(S, C)
      assert.equal("Sw<3,0,3> o 0 o ((4,8),2):((18,1),9)", tostring(R))
      for t = 0, 31 do
        for v = 0, 1 do assert.equal(S(C(t, v)), R(t, v)) end
      end
    end)

  it("partitions by composing then slicing a thread (tv_partition)",
    function()
      -- thread 5 holds (m,n) = (1,2), (1,3): offsets 10, 11 row-major
      local P, off = tv.tv_partition(L "(8,8):(8,1)", C, 5)
      assert.equal(L "(2):(1)", P)   -- one `_`: rank 1, as in CuTe
      assert.equal(10, off)
      P, off = tv.tv_partition(L "(8,8):(1,8)", C, 5)
      assert.equal(L "(2):(8)", P)
      assert.equal(17, off)
    end)
end)

describe("TV ownership and bijections", function()
  it("tabulates the first owner of every cell and counts broadcasts",
    function()
      local own = tv.owners(C, { 8, 8 })
      assert.same({ t = 5, v = 0, n = 1 }, own[1 + 1 + 8 * 2])
      local ss = tv.owners(L "(4,(2,2)):(0,(1,2))", { 2, 2 })
      assert.same({ t = 0, v = 3, n = 4 }, ss[4])
    end)

  it("rejects values outside the tile", function()
    assert.has_error(function() tv.owners(C, { 8, 4 }) end,
      "owners(((4,8),2):((16,1),8)): (T2,V0) -> 32 lies outside the (8,4) "
      .. "tile")
  end)

  it("accepts bijections and broadcasts, names what fails", function()
    assert.is_true((tv.bijection(C, 64)))
    assert.is_true((tv.bijection(L "((8,4),128):((128,0),1)", 1024)))
    local ok, why = tv.bijection(C, 32)
    assert.is_false(ok)
    assert.equal("((4,8),2):((16,1),8) without its broadcast modes is "
      .. "(4,16):(16,1): 64 elements for a tile of 32", why)
    ok, why = tv.bijection(L "(4,2):(1,2)", 8)
    assert.is_false(ok)
    assert.equal("(4,2):(1,2) maps both 2 and 4 to 2", why)
    ok, why = tv.bijection(L "(4,2):(1,8)", 8)
    assert.equal("(4,2):(1,8) maps 4 to 8, outside 0..7", why)
  end)

  it("finds a thread's coordinate in a thread layout (get_flat_coord)",
    function()
      assert.same({ 1, 2, 1 }, tv.thr_coord(L "(2,16,16):(1,2,32)", 37))
      assert.same({ 0, 2, 5, 0 }, tv.thr_coord(L "(1,16,16,1):(0,16,1,0)", 37))
      assert.same({ 5 }, tv.thr_coord(L "32:1", 5))
    end)
end)
