-- The error catalogue (issue 7, design.md "Errors"): for each class of bad
-- input, the message raised names (a) the operation, (b) the operands --
-- as CuTe text, or the Lua type of a value of the wrong type -- and (c) the
-- reason, the violated condition.  docs/errors.md is the human page of the
-- same classes; spec/c/test_limits.c checks the limits from C.
--
-- Algebra errors carry the C message exactly, "op(A, B): reason", with no
-- position; argument errors are Lua's "bad argument #k to 'f' (X expected,
-- got T)" or the stdlib's "f(A, T): reason", at the caller's line.
local cute = require "cute"
local core = require "cute.core"
local L = cute.layout
local err = require "helpers.err"

-- The message of f(...), which must raise; each `want` (plain text) must
-- appear in it.
local function says(wants, f, ...)
  local msg = err(f, ...)
  for _, w in ipairs(wants) do assert.matches(w, msg, 1, true) end
  return msg
end

-- Nothing of the implementation leaks: no raw Lua runtime error about the
-- stdlib's own locals, no position inside the stdlib.
local function clean(msg)
  assert.falsy(msg:find("attempt to ", 1, true), msg)
  assert.falsy(msg:find("local '", 1, true), msg)
  assert.falsy(msg:find("cute/[%w_/]*%.lua:%d+"), msg)
  assert.falsy(msg:find("for iterator", 1, true), msg)
  assert.falsy(msg:find("0x%x%x%x%x"), msg)   -- no table: 0x55... addresses
end

------------------------------------------------------------ the parser --
-- One row per grammar position of algebra/text_parse.c: the rule named in
-- the message (tuple, layout, swizzle, composed), the text, the 1-based
-- column of the offending token and the reason (what was expected, or
-- which limit or condition).  Each message reads
--   rule("text"): parse error at column C: reason
describe("malformed text", function()
  local parse = {
    layout = cute.layout, tuple = cute.tuple, swizzle = cute.swizzle,
    composed = cute.composed,
  }
  local big = "99999999999999999999"
  local rows = {
    -- empty input, white space only
    {"layout", "", 1, "expected an integer, '_' or '(' but found end of text"},
    {"layout", "  \t", 4, "expected an integer, '_' or '(' but found end of text"},
    {"tuple", "", 1, "expected an integer, '_' or '(' but found end of text"},
    -- a shape leaf, a shape element, after an element
    {"layout", "x", 1, "expected an integer, '_' or '(' but found 'x'"},
    {"layout", "(4,x)", 4, "expected an integer, '_' or '(' but found 'x'"},
    {"layout", "(4 8)", 4, "expected ',' or ')' but found '8'"},
    {"layout", "(4,,8)", 4, "expected an integer, '_' or '(' but found ','"},
    {"layout", "(,4)", 2, "expected an integer, '_' or '(' but found ','"},
    {"layout", "4:-", 3, "expected an integer, '_' or '(' but found '-'"},
    -- nested tuples and unbalanced parentheses
    {"layout", "(4,(2,)", 7, "expected an integer, '_' or '(' but found ')'"},
    {"layout", "(4,8", 5, "expected ',' or ')' but found end of text"},
    {"layout", "((4,8)", 7, "expected ',' or ')' but found end of text"},
    {"layout", "(4,8))", 6, "unexpected trailing text ')'"},
    {"layout", ")", 1, "expected an integer, '_' or '(' but found ')'"},
    {"tuple", "(4,(2,3)", 9, "expected ',' or ')' but found end of text"},
    -- the ':' separator and the stride
    {"layout", "(4,8):", 7, "expected an integer, '_' or '(' but found end of text"},
    {"layout", "(4,8)::(1,4)", 7, "expected an integer, '_' or '(' but found ':'"},
    {"layout", "(4,8);(1,4)", 6, "unexpected trailing text ';'"},
    {"layout", "(4,8):(1,x)", 10, "expected an integer, '_' or '(' but found 'x'"},
    {"layout", "(4,8):(1,4", 11, "expected ',' or ')' but found end of text"},
    {"layout", "(4,8):(1)", 7, "stride (1) is not congruent with shape (4,8)"},
    {"layout", "(4,8):((1,4))", 7, "stride ((1,4)) is not congruent with shape (4,8)"},
    -- shape leaves the layout refuses
    {"layout", "0:1", 1, "shape leaf 0 is not a positive integer"},
    {"layout", "(4,-2):(1,4)", 1, "shape leaf 1 is not a positive integer"},
    {"layout", "4@0:1", 1, "shape leaf 0 is not a positive integer"},
    {"layout", "_:1", 1, "the slice marker '_' is only allowed in coordinates"},
    {"layout", "(4,_):(1,4)", 4, "the slice marker '_' is only allowed in coordinates"},
    -- numbers too big
    {"layout", big, 1, "integer does not fit in 64 bits"},
    {"layout", "4:" .. big, 3, "integer does not fit in 64 bits"},
    {"layout", "-9223372036854775808", 1, "integer does not fit in 64 bits"},
    {"tuple", "(1," .. big .. ")", 4, "integer does not fit in 64 bits"},
    -- basis strides 1@0 and the N@dim grammar, fractions
    {"layout", "4:1@", 5, "expected an integer but found end of text"},
    {"layout", "4:1@x", 5, "expected an integer but found 'x'"},
    {"layout", "4:1@-1", 5, "expected an integer but found '-'"},
    {"layout", "4:1@0@", 7, "expected an integer but found end of text"},
    {"layout", "4:1@0@1@2@3", 11, "basis path longer than CUTE_MAX_BASIS_DEPTH (3)"},
    {"layout", "4:1@255", 5, "basis index 255 exceeds CUTE_MAX_BASIS_INDEX (254)"},
    {"layout", "4:1@" .. big, 5, "integer does not fit in 64 bits"},
    {"layout", "4:1/", 5, "expected an integer but found end of text"},
    {"layout", "4:1/0", 3, "fraction 1/0 has a zero denominator"},
    {"layout", "4:3/2", 3, "fractional count 3/2 is not an integer"},
    {"layout", "(2,2):(1/2@0,1@1)", 8, "fractional basis count 1/2 is not an integer"},
    {"tuple", "(1/2@0)", 2, "fractional basis count 1/2 is not an integer"},
    -- trailing junk, control bytes
    {"layout", "4:1 x", 5, "unexpected trailing text 'x'"},
    {"layout", "4:1:2", 4, "unexpected trailing text ':'"},
    {"layout", "4:1\1", 4, "unexpected trailing text byte 0x01"},
    {"tuple", "(4,8) 9", 7, "unexpected trailing text '9'"},
    -- swizzles Sw<B,M,S>
    {"swizzle", "Sx<3,4,3>", 1, "expected 'Sw<' but found 'S'"},
    {"swizzle", "Sw", 3, "expected '<' but found end of text"},
    {"swizzle", "Sw<", 4, "expected an integer but found end of text"},
    {"swizzle", "Sw<3", 5, "expected ',' but found end of text"},
    {"swizzle", "Sw<3,4", 7, "expected ',' but found end of text"},
    {"swizzle", "Sw<3,4,", 8, "expected an integer but found end of text"},
    {"swizzle", "Sw<3,4,3", 9, "expected '>' but found end of text"},
    {"swizzle", "Sw<a,4,3>", 4, "expected an integer but found 'a'"},
    {"swizzle", "Sw<3,4,3>x", 10, "unexpected trailing text 'x'"},
    {"swizzle", "Sw<3,4,99999999999>", 8, "integer does not fit in int"},
    {"swizzle", "Sw<3,4,2>", 1, "swizzle(3, 4, 2): |S| >= B violated"},
    {"swizzle", "Sw<-1,4,3>", 1, "swizzle(-1, 4, 3): B and M must be >= 0"},
    {"swizzle", "Sw<30,30,30>", 1, "bits up to M+|S|+B must stay below 62"},
    -- composed layouts Sw<..> o off o L
    {"composed", "Sw<3,4,3>", 10, "expected 'o' but found end of text"},
    {"composed", "Sw<3,4,3> x 0 o 8:1", 11, "expected 'o' but found 'x'"},
    {"composed", "Sw<3,4,3> o", 12, "expected an integer but found end of text"},
    {"composed", "Sw<3,4,3> o x", 13, "expected an integer but found 'x'"},
    {"composed", "Sw<3,4,3> o " .. big, 13, "integer does not fit in 64 bits"},
    {"composed", "Sw<3,4,3> o 0", 14, "expected 'o' but found end of text"},
    {"composed", "Sw<3,4,3> o 0 o", 16, "expected an integer, '_' or '(' but found end of text"},
    {"composed", "Sw<3,4,3> o 0 o (8,8", 21, "expected ',' or ')' but found end of text"},
    {"composed", "Sw<3,4,3> o 0 o 8:1 o", 21, "unexpected trailing text 'o'"},
    {"composed", "Sw<3,4,2> o 0 o 8:1", 1, "|S| >= B violated"},
  }
  for _, r in ipairs(rows) do
    local rule, text, column, reason = r[1], r[2], r[3], r[4]
    it(("%s %q: column %d"):format(rule, text, column), function()
      local msg = says({reason}, parse[rule], text)
      local head = ('%s("%s"): parse error at column %d: '):format(rule,
        text, column)
      assert.equal(head, msg:sub(1, #head))
    end)
  end

  it("cute.layout reads Sw<...> text as a composed layout, leading space counted", function()
    assert.equal('composed("  Sw<3,4,3> o"): parse error at column 14: '
      .. "expected an integer but found end of text",
      err(cute.layout, "  Sw<3,4,3> o"))
    assert.equal('layout("  (4,8x"): parse error at column 7: '
      .. "expected ',' or ')' but found 'x'", err(cute.layout, "  (4,8x"))
  end)

  it("quotes a long text through a window around the column", function()
    local text = "(1," .. (" "):rep(200) .. "x," .. (" "):rep(200) .. "2)"
    local msg = says({"parse error at column 204: expected an integer, '_' "
      .. "or '(' but found 'x'"}, cute.tuple, text)
    assert.matches('^tuple%("%.%.%. +x, +%.%.%."%)', msg)
  end)

  it("refuses a NUL byte inside the text", function()
    says({"bad argument #1 to '", "layout'", "text contains a NUL byte at column 4"},
         cute.layout, "4:1\0x")
  end)
end)
