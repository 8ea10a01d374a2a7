-- Input checks of the bindings (docs/architecture.md, "Errors": misuse
-- raises an error with a precise message, never a silently different
-- result).
local cute = require "cute"
local L = cute.layout

local err = require "helpers.err"

local MIN = "integer -9223372036854775808 is out of range"

describe("math.mininteger", function()
  -- INT64_MIN is the slice marker's representation in C: as a Lua integer
  -- it used to read as `_` and A(math.mininteger, 2) returned a slice.
  it("is refused in coordinates, not read as the slice marker", function()
    local A = L "(4,8):(1,4)"
    assert.matches(MIN, err(A, math.mininteger, 2), 1, true)
    assert.matches(MIN, err(A, 1, math.mininteger), 1, true)
    assert.matches(MIN, err(A, {math.mininteger, 2}), 1, true)
    assert.matches(MIN, err(A, math.mininteger), 1, true)
    assert.matches(MIN, err(A, -2.0 ^ 63), 1, true)
    local C = cute.composed(cute.swizzle(1, 0, 1), L "(4,8):(1,4)")
    assert.matches(MIN, err(C, math.mininteger, 2), 1, true)
    assert.matches(MIN, err(C, math.mininteger), 1, true)
  end)

  it("is refused in shapes, strides and tuples", function()
    assert.matches(MIN, err(L, {4, 8}, {1, math.mininteger}), 1, true)
    assert.matches(MIN, err(L, {4, math.mininteger}), 1, true)
    assert.matches(MIN, err(L, {4}, {math.mininteger * cute.E(0)}), 1, true)
    assert.matches(MIN, err(cute.crd2idx, {math.mininteger, 1}, {4, 8}), 1, true)
    assert.matches(MIN, err(cute.tuple_tostring, {1, {math.mininteger}}), 1, true)
    assert.matches(MIN, err(cute.coalesce, L "(4,8):(1,4)", {math.mininteger}), 1, true)
  end)

  it("leaves the other extreme integers and cute._ alone", function()
    local A = L "(4,8):(1,4)"
    assert.equal(math.mininteger + 1, cute.crd2idx({math.mininteger + 1}, {4}))
    local S = A(2, cute._)
    assert.equal("(8):(4)", tostring(S))   -- one `_`: rank 1, as in CuTe
    assert.equal("(_,2)", cute.tuple_tostring {cute._, 2})
  end)
end)

describe("complement's cotarget", function()
  -- 0 and negatives mean "no cotarget" to the C API; from Lua that is
  -- spelled by leaving the cotarget out.
  it("must be positive when given", function()
    local A = L "(4,8):(1,4)"
    local why = "is not a positive integer"
    assert.matches("cotarget 0 " .. why, err(cute.complement, A, 0), 1, true)
    assert.matches("cotarget -5 " .. why, err(cute.complement, A, -5), 1, true)
    assert.matches("cotarget 0 " .. why, err(cute.complement, A, {0, 4}), 1, true)
    assert.matches("bad argument #2", err(cute.complement, A, 0), 1, true)
    assert.equal("1:32", tostring(cute.complement(A)))
    assert.equal("1:32", tostring(cute.complement(A, nil)))
    assert.equal("2:32", tostring(cute.complement(A, 64)))
    assert.equal("2:32", tostring(cute.complement(A, 64.0)))
  end)
end)

describe("text", function()
  -- The parsers stop at a NUL byte: "(4,8):(1,4)\0junk" read as (4,8):(1,4).
  it("with a NUL byte is refused, not cut", function()
    local nul = "text contains a NUL byte at column 12"
    assert.matches(nul, err(L, "(4,8):(1,4)\0junk"), 1, true)
    assert.matches("column 6", err(cute.tuple, "(4,8)\0"), 1, true)
    assert.matches("column 10", err(cute.swizzle, "Sw<3,4,3>\0"), 1, true)
    assert.matches("column 28", err(cute.composed, "Sw<1,0,1> o 0 o (4,8):(1,4)\0x"), 1, true)
    assert.matches("column 28", err(L, "Sw<1,0,1> o 0 o (4,8):(1,4)\0x"), 1, true)
  end)
end)

describe("tuple tables", function()
  local why = "(a tuple table is a list 1..n without holes or other keys)"
  it("with holes or other keys are refused, naming the key", function()
    assert.matches("tuple: key 3 is outside the list 1..1 " .. why,
                   err(L, {[1] = 4, [3] = 8}), 1, true)
    assert.matches('tuple: key "x" is outside the list 1..1',
                   err(L, {4, x = 8}), 1, true)
    assert.matches("tuple: key 2 is missing from the list 1..3",
                   err(L, {4, nil, 8}), 1, true)
    assert.matches("key 1.5", err(L, {4, [1.5] = 8}), 1, true)
    assert.matches('key "n"', err(L, {4, {2, n = 2}}), 1, true)
    assert.matches('key "x"', err(L "(4,8):(1,4)", {1, x = 1}), 1, true)
    assert.matches('key "x"', err(cute.crd2idx, {1, 2}, {4, 8, x = 1}), 1, true)
    -- a string key that converts to an integer is still no list index
    assert.matches('tuple: key "1" is outside the list 1..0',
                   err(L "(4,8):(1,4)", {["1"] = 2}), 1, true)
    assert.matches('key "1"', err(cute.local_tile, L "(4,8):(1,4)", {2, 4}, {["1"] = 0}), 1, true)
    assert.matches('key 0', err(L, {[0] = 2, 4, 8}), 1, true)
    assert.matches('key "x"', err(L, {x = 1}), 1, true)
  end)

  it("that are proper lists still work, empty included", function()
    assert.equal("(4,(2,2)):(1,(4,8))", tostring(L {4, {2, 2}}))
    assert.equal("():()", tostring(L({}, {})))
  end)

  -- The bindings write a flat list of integers and `_` directly (its
  -- fast path); it must read as its text does, which takes the general
  -- parser, and as the same list nested one level down (the builder),
  -- and refuse what the builder refuses with the builder's message.
  it("that are flat read as their text and as the builder reads them", function()
    local R = require "helpers.random"
    local g, _ = R.new(7), cute._
    for _case = 1, 2000 do
      local n, t, txt = g:int(1, 34), {}, {}
      for i = 1, n do
        local k = g:int(0, 9)
        t[i] = k == 0 and _ or k == 1 and -g:int(0, 99) or k == 2
               and g:int(1, 9) + 0.0 or g:int(0, 1 << 40)
        txt[i] = t[i] == _ and "_" or ("%d"):format(t[i])
      end
      local text = "(" .. table.concat(txt, ",") .. ")"
      local ok, got = pcall(cute.tuple_tostring, t)
      local nok, nested = pcall(cute.tuple_tostring, {t})
      if n > 32 then
        assert.is_false(ok)
        assert.matches("tuple: more than 32 leaves", got, 1, true)
        assert.is_false(nok)
      else
        assert.is_true(ok, got)
        assert.equal(text, got)
        assert.equal(cute.tuple_tostring(cute.tuple(text)), got)
        assert.equal("(" .. got .. ")", nested)
      end
    end
    -- a coordinate given as arguments is the same tuple
    local A = L "(4,8):(1,4)"
    assert.equal(A({1, 2}), A(1, 2))
    local s1, o1 = A(1, _)
    local s2, o2 = A({1, _})
    assert.equal(s1, s2); assert.equal(o1, o2)
  end)
end)

describe("floats", function()
  it("with an exact integer value are integers everywhere", function()
    local A = L "(4,8):(1,4)"
    assert.equal("(4,8):(1,4)", tostring(L({4.0, 8}, {1.0, 4})))
    assert.equal(11, A(3.0, 2.0))
    assert.equal(A(13), A(13.0))
    assert.equal("4:1", tostring(cute.composition(A, 4.0)))
    assert.equal("(4,4):(1,4)", tostring(cute.composition(A, L "(4,4):(1,4)")))
    assert.equal("(4,8):(1,1)", tostring(cute.make_layout(L "4:1", 8.0)))
    assert.equal("8:4", tostring(A:mode(1.0)))
    assert.equal("(8,4):(4,1)", tostring(cute.select(A, {1.0, 0})))
    assert.equal("(8,4):(4,1)", tostring(cute.select(A, 1.0, 0)))
    assert.same({1, 1}, cute.idx2crd(5.0, {4, 8}))
    assert.equal(tostring(cute.upcast(A, 4)), tostring(cute.upcast(A, 4.0)))
    assert.equal(2, cute.swizzle(1, 0, 1)(3.0))
    assert.equal("Sw<1,0,1>", tostring(cute.swizzle(1.0, 0.0, 1.0)))
    assert.equal("3@0", tostring(3.0 * cute.E(0.0)))
  end)

  it("without one are refused with their value", function()
    local A = L "(4,8):(1,4)"
    assert.matches("tuple: 2.5 is not an integer", err(A, 2.5, 1), 1, true)
    assert.matches("tuple: 2.5 is not an integer", err(A, 2.5), 1, true)
    assert.matches("2.5 is not an integer", err(cute.idx2crd, 2.5, {4, 8}), 1, true)
    assert.matches("2.5 is not an integer", err(A.mode, A, 2.5), 1, true)
    assert.matches("2.5 is not an integer", err(cute.upcast, A, 2.5), 1, true)
    assert.matches("2.5 is not an integer", err(cute.swizzle, 1, 0, 2.5), 1, true)
    assert.matches("mode indices must be integers", err(cute.select, A, {0.5}), 1, true)
    assert.matches("cute.Layout or integer expected, got number",
                   err(cute.composition, A, 2.5), 1, true)
    assert.matches("string is not an integer", err(cute.idx2crd, "5", {4, 8}), 1, true)
  end)
end)

describe("tilers", function()
  local A = L "(4,8):(1,4)"
  it("take floats with an exact integer value as integers", function()
    assert.equal(tostring(cute.logical_divide(A, {2, 4})),
                 tostring(cute.logical_divide(A, {2.0, 4.0})))
    assert.equal(tostring(cute.zipped_divide(A, 2)), tostring(cute.zipped_divide(A, 2.0)))
    assert.equal("(2,4):(1,4)", tostring(cute.composition(A, {2.0, 4})))
    assert.equal("<2:1,4:1>", cute.tiler_tostring {2.0, 4})
    assert.matches("tiler element 2.5 (a non-integral number) is not a layout, integer or table",
                   err(cute.logical_divide, A, {2.5, 2}), 1, true)
  end)

  it("with holes or other keys are refused, naming the key", function()
    assert.matches("tiler key 3 is outside the list 1..1",
                   err(cute.logical_divide, A, {[1] = 2, [3] = 2}), 1, true)
    assert.matches('tiler key "x" is outside the list 1..1',
                   err(cute.composition, A, {2, x = 2}), 1, true)
    assert.matches("tiler key 2 is missing from the list 1..3",
                   err(cute.logical_product, L "(2,2,2)", {2, nil, 2}), 1, true)
    assert.matches('tiler key "n"',
                   err(cute.zipped_divide, L "((4,2),8)", {{2, n = 1}}), 1, true)
    assert.matches('tiler key "1" is outside the list 1..0',
                   err(cute.logical_divide, A, {["1"] = 2}), 1, true)
    assert.matches('tiler key "2" is outside the list 1..1',
                   err(cute.composition, A, {2, ["2"] = 4}), 1, true)
  end)
end)

describe("argument errors raised inside the stdlib", function()
  -- They point at the caller's line, not at stdlib/cute/*.lua (where the
  -- stdlib's own checks and the C functions it calls raised them).
  local A = L "(4,8):(1,4)"
  local here = "^[^:]*input_spec%.lua:%d+: "
  local function at_caller(f)
    local ok, msg = pcall(f)
    assert.is_false(ok)
    assert.matches(here, msg)
    assert.not_matches("cute/[%w_]+%.lua", msg)
    return msg
  end

  it("point at the caller's line", function()
    local m
    m = at_caller(function() local r = cute.composition(A, "x"); return r end)
    assert.matches("bad argument #2 to 'composition'", m, 1, true)
    m = at_caller(function() local r = cute.composition(A, {2, "x"}); return r end)
    assert.matches("tiler element x (a string) is not a layout", m, 1, true)
    m = at_caller(function() local r = cute.composition(5, {2}); return r end)
    assert.matches("bad argument #1 to '", m, 1, true)
    assert.matches("composition' (cute.Layout, cute.Swizzle or cute.ComposedLayout "
                   .. "expected, got number)", m, 1, true)
    m = at_caller(function() local r = cute.logical_divide(A, {2, "x"}); return r end)
    assert.matches("logical_divide((4,8):(1,4), <2:1,x>): tiler element x", m, 1, true)
    m = at_caller(function() local r = cute.blocked_product(A, "x"); return r end)
    assert.matches("blocked_product((4,8):(1,4), x)", m, 1, true)
    m = at_caller(function() local r = cute.local_tile(A, {2, 2}, {0, "x"}); return r end)
    assert.matches("local_tile((4,8):(1,4), <2:1,2:1>): ", m, 1, true)
    m = at_caller(function() local r = cute.local_partition(A, L "2:1", "x"); return r end)
    assert.matches("local_partition: thread index x (a string) is not an integer", m, 1, true)
    m = at_caller(function() local r = cute.local_partition(A, 5, 0); return r end)
    assert.matches("local_partition: the thread layout must be a cute.Layout", m, 1, true)
  end)

  it("leave inadmissible algebra without a position, as the C module does", function()
    local ok, msg = pcall(function() local r = cute.logical_divide(L "(4,6,8):(2,3,5)", L "6:3"); return r end)
    assert.is_false(ok)
    assert.matches("^logical_divide%(", msg)
    ok, msg = pcall(function() local r = cute.composition(L "(4,6,8):(2,3,5)", L "6:3"); return r end)
    assert.matches("^composition%(", msg)
    -- a tiler longer than the layout's rank is the algebra's refusal too
    ok, msg = pcall(function() local r = cute.zipped_product(A, {2, 2, 2}); return r end)
    assert.matches("^zipped_product%(%(4,8%):%(1,4%), <2:1,2:1,2:1>%): tiler has 3 "
                   .. "modes but the layout has rank 2", msg)
  end)

  it("still work when called directly by pcall", function()
    assert.matches("^composition%(%(4,8%):%(1,4%), <2:1,x>%)", err(cute.composition, A, {2, "x"}))
    assert.equal("(2,2):(1,4)", tostring((cute.local_tile(A, {2, 2}, {0, 0}))))
    local P, off = cute.local_partition(L "(8,16):(16,1)", cute.layout {2, 4}, 5.0)
    assert.equal("(4,4):(32,4)", tostring(P))
    assert.equal(18, off)
  end)
end)
