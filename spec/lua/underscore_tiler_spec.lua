-- The slice marker `_` inside a tiler (CuTe's Underscore tiler): the mode
-- it stands for is left untouched by composition, logical_divide and
-- logical_product; the zipped/tiled/flat arrangements read that mode as an
-- existing (tile, rest) pair, as CuTe's zip2_by does; and any tiler
-- holding it prints `_` in messages.
local cute = require "cute"
local L, _ = cute.layout, cute._

local err = require "helpers.err"

local A = L "(4,8):(1,4)"

describe("_ in a tiler", function()
  it("prints as _", function()
    assert.equal("<_,2:1>", cute.tiler_tostring {_, 2})
    assert.equal("<_,2:1,<_,4:2>>", cute.tiler_tostring {_, 2, {_, L "4:2"}})
    local msg = err(cute.logical_divide, A, {_, "x"})
    assert.matches("logical_divide((4,8):(1,4), <_,x>): tiler element x", msg, 1, true)
    assert.not_matches("userdata", msg)
    msg = err(cute.blocked_product, A, _)
    assert.matches("blocked_product((4,8):(1,4), _): tiler _ (the slice marker) is not", msg, 1, true)
  end)

  it("leaves its mode untouched in composition", function()
    assert.equal("(4,2):(1,4)", tostring(cute.composition(A, {_, 2})))
    assert.equal("(2,8):(1,4)", tostring(cute.composition(A, {2, _})))
    assert.equal(A, cute.composition(A, _))
    assert.equal(A, cute.composition(A, {_, _}))
    -- modes past the tiler are dropped, as for any tiler
    assert.equal("(4):(1)", tostring(cute.composition(A, {_})))
  end)

  it("leaves its mode untouched in logical_divide and logical_product", function()
    assert.equal("(4,(2,4)):(1,(4,8))", tostring(cute.logical_divide(A, {_, 2})))
    assert.equal(A, cute.logical_divide(A, _))
    assert.equal(A, cute.logical_product(A, _))
    local B = L "((2,3),(4,2),6):((1,2),(6,24),48)"
    for _k, T in ipairs {{_, 2, 3}, {2, _, _}, {{2, _}, _, 3}, {_, {2, _}},
                         {{_, 2}, {2, _}}} do
      for _j, op in ipairs {cute.logical_divide, cute.logical_product} do
        local R = op(B, T)
        assert.equal(cute.rank(B), cute.rank(R))
        for i = 1, cute.rank(B) do
          local t, Bi = T[i], B:mode(i - 1)
          local want = t == nil and Bi or t == _ and Bi or op(Bi, t)
          assert.equal(want, R:mode(i - 1), cute.tiler_tostring(T))
        end
      end
    end
  end)

  it("nests", function()
    assert.equal("((2,2),(2,(4,2))):((1,2),(4,(8,32)))",
                 tostring(cute.logical_divide(L "(4,(2,8)):(1,(4,8))", {2, {_, 4}})))
  end)

  it("splits a rank-2 mode into (tile, rest) in the arrangements, as CuTe", function()
    local B = L "((2,3),8):((1,2),6)"
    assert.equal("((2,2),(3,4)):((1,6),(2,12))", tostring(cute.zipped_divide(B, {_, 2})))
    assert.equal("((2,2),3,4):((1,6),2,12)", tostring(cute.tiled_divide(B, {_, 2})))
    assert.equal("(2,2,3,4):(1,6,2,12)", tostring(cute.flat_divide(B, {_, 2})))
    assert.equal(B, cute.zipped_divide(B, _))
    assert.equal("((2,8),(3,2)):((1,6),(2,1))", tostring(cute.zipped_product(B, {_, 2})))
  end)

  it("reads an integer mode kept whole by _ as all rest (tile 1:0)", function()
    -- the paper's reference: the tile part has size 1, the mode is whole
    -- in the rest (CuTe's zip2_by would need rank 2)
    assert.equal("((1,2),(4,4)):((0,4),(1,8))", tostring(cute.zipped_divide(A, {_, 2})))
    assert.equal("((1,2),4,4):((0,4),1,8)", tostring(cute.tiled_divide(A, {_, 2})))
    assert.equal("((1,8),(4,2)):((0,4),(1,1))",
                 tostring(cute.zipped_product(A, {_, 2})))
  end)

  it("refuses to split a mode of rank 3", function()
    local msg = err(cute.zipped_divide, L "((2,2,2),4):((1,2,4),8)", {_, 2})
    assert.matches("^zipped_divide%(%(%(2,2,2%),4%):%(%(1,2,4%),8%), <_,2:1>%): a mode kept whole by _", msg)
    assert.matches("(2,2,2):(1,2,4) has rank 3", msg, 1, true)
  end)
end)

-- The marker is a light userdata; Lua printed it as "userdata: 0x...".
-- CuTe prints its Underscore as _, and so do cute's tuples and tilers.
describe("_ itself", function()
  it("prints as _, as CuTe prints it", function()
    assert.equal("_", tostring(_))
    assert.equal("(_,_)", ("(%s,%s)"):format(_, _))
    assert.equal(cute.tuple_tostring {1, _}, ("(1,%s)"):format(_))
  end)
  it("has a metatable scripts can read but not change, as the classes", function()
    local view = getmetatable(_)
    assert.equal("userdata", type(view))
    assert.is_false(getmetatable(view))
    assert.has_error(function() view.__tostring = print end)
    assert.equal("_", tostring(_))
  end)
end)
