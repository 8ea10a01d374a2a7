-- make_composed_layout(inner, offset, outer) with a layout (not only a
-- swizzle) as the inner function: C(c) = inner(offset + outer(c)) at every
-- coordinate of random layouts, slices folding their offset in.
local cute = require "cute"
local R = require "helpers.random"
local L, _ = cute.layout, cute._

describe("make_composed_layout", function()
  it("prints and evaluates as CuTe's ComposedLayout", function()
    local C = cute.make_composed_layout(L "(4,8):(8,1)", 2, L "(2,2):(1,4)")
    assert.equal("(4,8):(8,1) o 2 o (2,2):(1,4)", tostring(C))
    assert.equal(25, C(1, 1))
    assert.equal("(4,8):(8,1) o 3 o (2):(4)", tostring((C(1, _))))
    assert.equal("Sw<3,4,3> o 0 o (8,64):(64,1)",
      tostring(cute.make_composed_layout(cute.swizzle(3, 4, 3), 0, L "(8,64):(64,1)")))
    local I = cute.make_composed_layout(L "(4,8):(1,4)", {1, 2}, cute.make_identity_layout {2, 2})
    assert.equal(14, I(1, 1))
    assert.error_matches(function() cute.make_composed_layout(L "4:1", 0, 5) end,
      "bad argument #3 to 'make_composed_layout' (cute.Layout or cute.Swizzle expected, got number)", 1, true)
  end)

  it("is inner(offset + outer(c)) everywhere, sliced or composed further", function()
    local g = R.new(5150)
    for _i = 1, 500 do
      local inner, outer = g:layout(), g:layout()
      local off = g:int(0, 9)
      local C = cute.make_composed_layout(inner, off, outer)
      for i = 0, cute.size(outer) - 1 do
        R.eq(C(i), inner(off + outer(i)), "%s at %d", tostring(C), i)
      end
      local B = g:tiler_for(outer)
      local ok, CB = pcall(C.compose, C, B)     -- outer o B may be inadmissible
      for i = 0, ok and cute.size(B) - 1 or -1 do
        R.eq(CB(i), C(B(i)), "(%s):compose(%s) at %d", tostring(C), tostring(B), i)
      end
      if cute.rank(outer) == 2 then
        local S = C(0, _)
        local crd = {0}
        for i = 0, C:size() // cute.size(outer:mode(0)) - 1 do
          crd[2] = i
          R.eq(S(i), C(table.unpack(crd)), "slice of %s at %d", tostring(C), i)
        end
      end
    end
  end)
end)
