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

  -- found by spec/vm/test_api_monkey.c: a table offset that is no
  -- coordinate was kept, and printing the value failed in the stdlib
  it("refuses a table offset that is no coordinate, saying why", function()
    local cycle = {2}
    cycle[2] = cycle
    for _, c in ipairs { { {thr_idx = 1}, 'key "thr_idx" is outside the list 1..0' },
                         { cycle, "depth above 8 (CUTE_MAX_DEPTH)" } } do
      local ok, msg = pcall(cute.make_composed_layout, L "3:0", c[1], L "1:1@0")
      assert.is_false(ok)
      assert.matches("bad argument #2 to 'make_composed_layout' (coordinate offset "
                     .. "expected, tuple: " .. c[2], msg, 1, true)
    end
  end)

  -- found by spec/vm/test_api_monkey.c: errors positioned inside
  -- stdlib/cute/composed_layout.lua
  it("raises a bad call's or operand's error at the script's line, named", function()
    local C = cute.make_composed_layout(L "(4,8):(8,1)", 2, L "(2,2):(1,4)")
    -- (no tail calls: the line is that of the function making the call)
    local ok, msg = pcall(function() local r = C("x") return r end)
    assert.is_false(ok)
    assert.matches("^[^\n]*composed_layout_spec%.lua:%d+: composed layout: layout%(%(2,2%):%(1,4%)%): "
                   .. "bad argument #1 %(tuple: string", msg)
    ok, msg = pcall(function() local r = cute.composition(C) return r end)
    assert.is_false(ok)
    -- (named as the user spells it; it named the stdlib's variable: "bad
    -- argument #2 to 'op'", found by test_api_monkey)
    assert.matches("^[^\n]*composed_layout_spec%.lua:%d+: bad argument #2 to "
                   .. "'cute%.composition' %(cute%.Layout or integer expected, got no "
                   .. "value%)$", msg)
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
