-- cute.core.offset_range and cute.core.injective: the C algebra's one
-- owner of a layout's image (algebra/image.c), checked by brute force.
local cute = require "cute"
local core = require "cute.core"
local R = require "helpers.random"
local L = cute.layout

describe("offset_range and injective", function()
  it("examples", function()
    assert.same({-28, 3}, {core.offset_range(L "(4,8):(1,-4)")})
    assert.same({0, 0}, {core.offset_range(L "1:0")})
    assert.is_true(core.injective(L "(2,2):(2,3)"))
    assert.is_false(core.injective(L "(4,2):(1,0)"))
    assert.has_error(function() core.offset_range(L "4294967297:4294967296") end,
      "offset_range(4294967297:4294967296): 64-bit overflow")
    assert.has_error(function() core.injective(L "(3,3,65536):(100000,3,7)") end)
  end)

  it("agree with a walk over random layouts", function()
    local g = R.new(808)
    for _ = 1, 1500 do
      local A = g:layout()
      local lo, hi = core.offset_range(A)
      local seen, distinct, mn, mx = {}, true, math.maxinteger, math.mininteger
      for i = 0, cute.size(A) - 1 do
        local v = A(i)
        if seen[v] then distinct = false end
        seen[v] = true
        mn, mx = math.min(mn, v), math.max(mx, v)
      end
      R.eq(lo, mn, "offset_range(%s) low end", A)
      R.eq(hi, mx, "offset_range(%s) high end", A)
      R.eq(core.injective(A), distinct, "injective(%s)", A)
    end
  end)
end)
