-- Coalesce (paper 3.2), filter_zeros and filter.
local cute = require "cute"
local R = require "helpers.random"
local L = cute.layout

describe("coalesce", function()
  it("paper 3.2 examples", function()
    assert.equal("12:1", tostring(cute.coalesce(L "(2,(1,6)):(1,(6,2))")))
    assert.equal("(4,15):(15,1)", tostring(cute.coalesce(L "((4,3),5):((15,1),3)")))
    assert.equal("(4,15):(15,1)", tostring(cute.coalesce(L "(4,(3,5)):(15,(1,3))")))
  end)

  it("by mode with a profile (paper eq. 12)", function()
    assert.equal("(2,6):(1,2)",
                 tostring(cute.coalesce(L "(2,(1,6)):(1,(6,2))", {1, 1})))
    assert.equal("((4,3),5):((15,1),3)",
                 tostring(cute.coalesce(L "((4,3),5):((15,1),3)", {1, 1})))
    assert.equal("(4,15):(15,1)",
                 tostring(cute.coalesce(L "(4,(3,5)):(15,(1,3))", {1, 1})))
  end)

  it("all size-1 becomes 1:0; a single mode is an integer leaf", function()
    assert.equal("1:0", tostring(cute.coalesce(L "(1,1):(4,8)")))
    assert.equal("32:1", tostring(cute.coalesce(L "(4,8):(1,4)")))
  end)

  it("keeps size and values, depth <= 1, on random layouts", function()
    local g = R.new(7)
    for _ = 1, 1500 do
      local A = g:layout()
      local C = cute.coalesce(A)
      assert.equal(cute.size(A), cute.size(C))
      assert.is_true(cute.depth(C) <= 1)
      for i = 0, cute.size(A) - 1 do R.eq(C(i), A(i), "%s(%d)", C, i) end
    end
  end)
end)

describe("filter", function()
  it("filter_zeros replaces the shape of stride-0 modes by 1", function()
    assert.equal("(4,1):(1,0)", tostring(cute.filter_zeros(L "(4,8):(1,0)")))
  end)

  it("filter drops stride-0 and size-1 modes", function()
    assert.equal("(4,8):(1,16)", tostring(cute.filter(L "(4,3,1,8):(1,0,7,16)")))
    assert.equal("1:0", tostring(cute.filter(L "(4,8):(0,0)")))
  end)

  it("filter keeps the image on random layouts", function()
    local g = R.new(8)
    for _ = 1, 500 do
      local A = g:layout()
      local F = cute.filter(A)
      local a, f = {}, {}
      for _, v in ipairs(R.values(A)) do a[v] = true end
      for _, v in ipairs(R.values(F)) do f[v] = true end
      assert.same(a, f)
    end
  end)
end)
