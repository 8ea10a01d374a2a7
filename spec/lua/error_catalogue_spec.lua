-- The error catalogue (docs/architecture.md, "Errors"): for each class of bad
-- input, the message raised names (a) the operation, (b) the operands --
-- as CuTe text, or the Lua type of a value of the wrong type -- and (c) the
-- reason, the violated condition.  docs/errors.md is the human page of the
-- same classes; error_catalogue_api_spec.lua holds the argument errors of
-- every function of cute and cute.cuda, the GPU and NVRTC errors;
-- spec/c/test_limits.c checks the limits from C.
--
-- Algebra errors carry the C message exactly, "op(A, B): reason", with no
-- position; argument errors are Lua's "bad argument #k to 'f' (X expected,
-- got T)" or the stdlib's "f(A, T): reason", at the caller's line.
local cute = require "cute"
local L = cute.layout
local err = require "helpers.err"
local contract = require "helpers.contract"
local says, clean = contract.says, contract.clean

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

  -- Triton's text of a linear layout reads as the CuTe texts do: the rule
  -- is linear_layout (it named itself "linear layout: column C", and no
  -- text), line breaks shown as \n so the message keeps to one line
  it("a linear layout's text names linear_layout, its text and the column", function()
    assert.equal('linear_layout("{lane = [[1]]"): parse error at column 14: '
      .. "expected '}'", err(cute.linear_layout, "{lane = [[1]]"))
    assert.equal('linear_layout(" - lane=1 -> (1)\\n   lane=4 -> (2)\\nwhere out '
      .. 'dims are: [x (size 4)]"): parse error at column 27: expected the next '
      .. "power of two of the dim",
      err(cute.linear_layout, " - lane=1 -> (1)\n   lane=4 -> (2)\nwhere out "
        .. "dims are: [x (size 4)]"))
    -- Its over-long text and a failed check after a good parse, as the
    -- CuTe parsers word them (one owner: text_parse.c's cute_text_length
    -- and cute_text_quote), not "linear layout:" after linear_layout(...)
    says({'linear_layout("xxx', 'xxx..."): text longer than CUTE_MAX_TEXT '
          .. "(4096) characters"}, cute.linear_layout, ("x"):rep(5000))
    assert.equal('linear_layout("{lane=[[1]], lane=[[2]]}"): input dim '
      .. "'lane' twice", err(cute.linear_layout, "{lane=[[1]], lane=[[2]]}"))
  end)

  it("refuses a NUL byte inside the text", function()
    says({"bad argument #1 to '", "layout'", "text contains a NUL byte at column 4"},
         cute.layout, "4:1\0x")
  end)
end)

-------------------------------------------------- inadmissible algebra --
-- Each condition of the algebra by name, with the exact message where it
-- reads "op(A, B): condition violated: why".
describe("inadmissible composition", function()
  local function comp(a, b, reason)
    local msg = says({("composition(%s, %s): "):format(a, b), reason},
                     cute.composition, L(a), L(b))
    assert.equal(1, msg:find("composition(", 1, true))
    return msg
  end

  it("stride divisibility (eq. 20; paper 3.3.3)", function()
    assert.equal("composition((4,6,8):(2,3,5), 6:3): stride divisibility "
      .. "condition violated: prefix product 4 of A's shape and stride 3 of B "
      .. "divide neither way", err(cute.composition, L "(4,6,8):(2,3,5)", L "6:3"))
  end)

  it("shape divisibility (eq. 21; paper 3.3.3)", function()
    assert.equal("composition((4,6,8):(2,3,5), 6:1): shape divisibility "
      .. "condition violated: ceil(4/1) = 4 and shape 6 of B divide neither way",
      err(cute.composition, L "(4,6,8):(2,3,5)", L "6:1"))
  end)

  it("the paper's two failing 'apparent violations' (3.3.3)", function()
    -- cannot be truncated enough / cannot be coalesced
    comp("(4,2,8):(3,12,97)", "4:3", "stride divisibility condition violated")
    comp("(4,2,8):(3,15,97)", "3:3", "stride divisibility condition violated")
    -- while the apparent one is admissible
    assert.equal("3:9", tostring(cute.composition(L "(4,2,8):(3,12,97)", L "3:3")))
  end)

  it("distributivity: the images of B's modes would carry into one another", function()
    comp("(4,2):(1,10)", "(2,2):(3,1)", "distributivity condition violated: "
      .. "the images of B's modes overlap within mode 0 (extent 4) of coalesced A")
  end)

  it("a negative stride of B that does not step over whole modes of A", function()
    comp("(4,2):(1,10)", "2:-1", "negative stride in right operand not supported (stride -1)")
  end)

  it("coordinate strides of B: mixed, or naming no mode of A", function()
    comp("(4,6):(2,9)", "(3,2):(1@0,1)", "strides of B mix integers and basis elements")
    comp("(4,6):(2,9)", "3:1@2", "stride 1@2 of B names no mode of A")
  end)

  it("tiler rank: a by-mode tiler longer than the layout", function()
    assert.equal("composition((4,8):(1,4), <2:1,2:1,2:1>): tiler has 3 modes "
      .. "but the layout has rank 2", err(cute.composition, L "(4,8):(1,4)", {2, 2, 2}))
    says({"logical_divide((4,8):(1,4), <2:1,2:1,2:1>): ", "tiler has 3 modes"},
         cute.logical_divide, L "(4,8)", {2, 2, 2})
  end)

  it("a tiler mode that fails names the mode's composition", function()
    says({"composition((4,(4,6,8)):(1,(4,2,3)), <2:1,6:3>): ",
          "composition((4,6,8):(4,2,3), 6:3): stride divisibility condition violated"},
         cute.composition, L "(4,(4,6,8)):(1,(4,2,3))", {2, L "6:3"})
  end)
end)

describe("complement and inverses", function()
  it("complement of a non-injective layout", function()
    assert.equal("complement((2,2):(1,1)): non-injective (or interleaved) "
      .. "modes: stride 1 of mode 2:1 lies inside [0,2), the span of the "
      .. "modes of smaller stride", err(cute.complement, L "(2,2):(1,1)"))
  end)

  it("complement against a cotarget whose holes do not tile", function()
    assert.equal("complement((4,8):(1,5)): divisibility: stride 5 is not a "
      .. "multiple of 4, so the hole below it cannot be tiled to cover [0,80)",
      err(cute.complement, L "(4,8):(1,5)", 80))
  end)

  it("complement: negative strides, coordinate layouts, cotarget", function()
    assert.equal("complement((4,8):(1,-4)): negative stride -4",
                 err(cute.complement, L "(4,8):(1,-4)"))
    assert.equal("complement((4,8):(1@0,1@1)): an integer cotarget (32) needs "
      .. "an integral codomain", err(cute.complement, cute.make_identity_layout {4, 8}, 32))
    assert.equal("complement((4,8):(1,1@1)): strides mix integers and basis elements",
                 err(cute.complement, L "(4,8):(1,1@1)"))
    says({"bad argument #2 to '", "complement'", "cotarget 0 is not a positive "
          .. "integer (leave it out for the minimal complement)"},
         cute.complement, L "4:2", 0)
  end)

  it("right and left inverses refuse negative strides", function()
    assert.equal("right_inverse((4,8):(1,-4)): negative stride -4",
                 err(cute.right_inverse, L "(4,8):(1,-4)"))
    assert.equal("left_inverse((4,8):(1,-4)): negative stride -4",
                 err(cute.left_inverse, L "(4,8):(1,-4)"))
  end)

  it("left_inverse refuses overlapping modes (not injective)", function()
    assert.equal("left_inverse((2,2):(1,1)): non-injective (or interleaved) "
      .. "modes: mode 2:1 reaches past stride 1", err(cute.left_inverse, L "(2,2):(1,1)"))
  end)

  it("max common vector/layout need integral layouts", function()
    local I = cute.make_identity_layout {4, 8}
    assert.equal("max_common_vector((4,8):(1@0,1@1), 32:1): needs two integral "
      .. "layouts", err(cute.max_common_vector, I, L "32:1"))
    assert.equal("max_common_layout((4,8):(1,4), (4,8):(1@0,1@1)): needs two "
      .. "integral layouts", err(cute.max_common_layout, L "(4,8):(1,4)", I))
  end)

  it("recasts: divisibility and factors", function()
    assert.equal("upcast((4,8):(1,4)): divisibility: shape 4 of mode 4:1 is not "
      .. "a multiple of 3", err(cute.upcast, L "(4,8):(1,4)", 3))
    assert.equal("downcast((4,8):(1,4)): factor 0 is not positive",
                 err(cute.downcast, L "(4,8):(1,4)", 0))
    assert.equal("recast((3,8):(1,3), 16, 32): upcast((3,8):(1,3)): divisibility: "
      .. "shape 3 of mode 3:1 is not a multiple of 2", err(cute.recast, L "(3,8):(1,3)", 16, 32))
    assert.equal("recast((4,8):(1,4)): element widths 16 -> 0 bits must be positive",
                 err(cute.recast, L "(4,8):(1,4)", 16, 0))
    says({"upcast((4,8):(1@0,1@1)): ", "a coordinate layout has no element size"},
         cute.upcast, cute.make_identity_layout {4, 8}, 2)
  end)

  it("codomain: integer-only queries of coordinate layouts", function()
    assert.equal("cosize((4,8):(1@0,1@1)): needs an integral codomain (strides "
      .. "are bases)", err(cute.cosize, cute.make_identity_layout {4, 8}))
  end)

  it("constructors: positive shapes, congruent strides, swizzle parameters", function()
    -- a shape alone prints alone: its compact stride was never made
    assert.equal("make_layout((4,0)): shape leaf 1 is not a positive integer",
                 err(cute.layout, {4, 0}))
    assert.equal("make_layout_right((4,-8)): shape leaf 1 is not a positive "
      .. "integer", err(cute.layout_right, {4, -8}))
    assert.equal("make_identity_layout((-4,8)): shape leaf 0 is not a "
      .. "positive integer", err(cute.make_identity_layout, {-4, 8}))
    assert.equal("make_layout((4,8):(1)): shape and stride are not congruent",
                 err(cute.layout, {4, 8}, {1}))
    assert.equal("swizzle(3, 4, 2): |S| >= B violated: the xor fields would overlap",
                 err(cute.swizzle, 3, 4, 2))
    assert.equal("swizzle(-1, 4, 2): B and M must be >= 0", err(cute.swizzle, -1, 4, 2))
    -- an operand past the whole layout is refused, not dropped
    local C = L "Sw<1,1,1> o 0 o 4:1"
    says({"bad argument #2", "nothing expected after a layout or its text"},
         cute.layout, L "4:1", 5)
    says({"bad argument #2", "nothing expected after a layout or its text"},
         cute.layout, "4:1", 7)
    says({"bad argument #3", "nothing expected after the shape and stride"},
         cute.layout, {4, 8}, {1, 4}, {1, 2})
    says({"bad argument #1 to 'make_layout' (cute.Layout or positive integer "
          .. "expected, got cute.ComposedLayout)"}, cute.make_layout, C, L "8:2")
    says({"bad argument #2 to 'make_layout' (cute.Layout or positive integer "
          .. "expected, got cute.ComposedLayout)"}, cute.make_layout, L "8:2", C)
    says({"bad argument #2 to 'make_layout' (cute.Layout or positive integer "
          .. "expected, got number)"}, cute.make_layout, L "8:2", 0)
    says({"bad argument #3 to 'make_layout' (nothing after the shape and "
          .. "stride expected, got number)"}, cute.make_layout, 4, 8, 3)
  end)

  it("modes and coordinates out of range", function()
    local A = L "(4,8):(1,4)"
    assert.equal("mode((4,8):(1,4)): mode 5 outside [0,2)", err(A.mode, A, 5))
    assert.equal("group_modes((4,8):(1,4)): modes [1,5) outside [0,2]",
                 err(cute.group_modes, A, 1, 5))
    assert.equal("take((4,8):(1,4)): modes [2,1) outside [0,2]", err(cute.take, A, 2, 1))
    assert.equal("select((4,8):(1,4)): mode 3 outside [0,2)", err(cute.select, A, 3))
    assert.equal("replace((4,8):(1,4), 4:1): mode 3 outside [0,2)",
                 err(cute.replace, A, 3, 4))
    assert.equal("coalesce((4,8):(1,4)): profile longer than the layout",
                 err(cute.coalesce, A, {1, 1, 1}))
    assert.equal("layout((4,8):(1,4)): coordinate (1,2,3) is not weakly congruent "
      .. "to shape (4,8)", err(A, 1, 2, 3))
    assert.equal("crd2idx((1,2,3), (4,8)): coordinate (1,2,3) is not weakly "
      .. "congruent to shape (4,8)", err(cute.crd2idx, {1, 2, 3}, {4, 8}))
    assert.equal("idx2crd(5, (0,4)): shape leaf 0 is not positive",
                 err(cute.idx2crd, 5, {0, 4}))
  end)
end)

----------------------------------------------------------------- overflow --
-- All arithmetic is checked 64-bit: an overflow is an error naming the
-- operation and its operands, never a wrapped value.
describe("64-bit overflow", function()
  local g = 1 << 40
  local wide = cute.layout({g, g}, {1, g})
  local wide_text = "(1099511627776,1099511627776):(1,1099511627776)"
  it("size and cosize", function()
    assert.equal("size((1099511627776,1099511627776)): 64-bit overflow",
                 err(cute.size, wide))
    assert.equal("size((1099511627776,1099511627776)): 64-bit overflow",
                 err(cute.size, {g, g}))
    says({"layout((1099511627776,4):(1099511627776,1)): 64-bit overflow"},
         cute.cosize, cute.layout({g, 4}, {g, 1}))
  end)

  it("evaluation at an index and at a coordinate", function()
    local A = cute.layout({4, 8}, {1, 1 << 62})
    local text = "layout((4,8):(1,4611686018427387904)): 64-bit overflow"
    assert.equal(text .. " at index 31", err(A, 31))
    says({text}, A, 3, 7)
    assert.equal("crd2idx((3,4611686018427387904), (4,4611686018427387904)): "
      .. "64-bit overflow", err(cute.crd2idx, {3, 1 << 62}, {4, 1 << 62}))
  end)

  it("composition", function()
    assert.equal("composition(4:4611686018427387904, 4:4): 64-bit overflow",
                 err(cute.composition, L "4:4611686018427387904", L "4:4"))
  end)

  it("complement, max common vector", function()
    says({"complement(" .. wide_text .. "): extent 1099511627776*1099511627776 "
          .. "overflows 64 bits"}, cute.complement, wide, 1 << 62)
    local P = cute.layout({1 << 62, 4}, {1, 1 << 62})
    says({"max_common_vector(", "the common vector size overflows 64 bits"},
         cute.max_common_vector, P, P)
  end)

  it("composed layouts", function()
    local C = cute.composed(cute.swizzle(1, 0, 1), 4611686018427387904,
                            cute.layout({2, 2}, {1, 4611686018427387904}))
    says({"slice(Sw<1,0,1> o 4611686018427387904 o (2,2):(1,4611686018427387904), "
          .. "(_,1)): offset 4611686018427387904 plus the composed offset "
          .. "overflows 64 bits"}, function() return C(cute._, 1) end)
  end)

  it("tuple arithmetic names its call, not the stride arithmetic inside", function()
    local big = math.maxinteger
    assert.equal("tuple_add((9223372036854775807,1), (1,1)): 64-bit overflow",
                 err(cute.tuple_add, {big, 1}, {1, 1}))
    assert.equal("tuple_sub((-9223372036854775807), (2)): 64-bit overflow",
                 err(cute.tuple_sub, {-big}, {2}))
    assert.equal("tuple_add(9223372036854775807@0, 1@0): 64-bit overflow",
                 err(cute.tuple_add, cute.E(0) * big, cute.E(0)))
    -- cute.E's operators name the expression (they said "stride: 64-bit
    -- overflow", naming no operation)
    local e = cute.E(0) * big
    assert.equal("9223372036854775807@0 + 1@0: 64-bit overflow",
                 err(function() return e + cute.E(0) end))
    assert.equal("9223372036854775807@0 - -1@0: 64-bit overflow",
                 err(function() return e - (-cute.E(0)) end))
    assert.equal("2 * 9223372036854775807@0: 64-bit overflow",
                 err(function() return 2 * e end))
    assert.equal("9223372036854775807@0 * 2: 64-bit overflow",
                 err(function() return e * 2 end))
    assert.equal("-" .. tostring(-e - cute.E(0)) .. ": 64-bit overflow",
                 err(function() return -(-e - cute.E(0)) end))
  end)

  it("text: numbers too big are parse errors (see above)", function()
    says({'layout("4:99999999999999999999"): parse error at column 3: '
          .. "integer does not fit in 64 bits"}, L, "4:99999999999999999999")
  end)
end)

---------------------------------------------- stdlib operations (Lua) --
-- Divides, products, partitions: an error from a step inside is prefixed
-- by the call the user made, "op(A, T): step(...): reason".
describe("stdlib operations with bad operands", function()
  local A = L "(4,8):(1,4)"

  it("divides prefix the call to the composition that failed", function()
    says({"logical_divide((4,6,8):(2,3,5), 6:3): composition((4,6,8):(2,3,5), "
          .. "(6,(3,11)):(3,(1,18))): stride divisibility condition violated: "
          .. "prefix product 4 of A's shape and stride 3 of B divide neither way"},
         cute.logical_divide, L "(4,6,8):(2,3,5)", L "6:3")
    for _, op in ipairs {"zipped_divide", "tiled_divide", "flat_divide"} do
      says({op .. "(((4,6),8):((2,3),5), <6:3>): ", "condition violated"},
           cute[op], L "((4,6),8):((2,3),5)", {L "6:3"})
    end
  end)

  it("products prefix the call to the complement that failed", function()
    for _, op in ipairs {"logical_product", "zipped_product", "tiled_product",
                         "flat_product", "blocked_product", "raked_product"} do
      says({op .. "((2,2):(1,1), 2:1): complement((2,2):(1,1)): non-injective"},
           cute[op], L "(2,2):(1,1)", L "2:1")
    end
  end)

  it("composition with a tiler names the whole call and the failing mode", function()
    assert.equal("composition((4,(4,6,8)):(1,(4,2,3)), <2:1,6:3>): mode 1: "
      .. "composition((4,6,8):(4,2,3), 6:3): stride divisibility condition "
      .. "violated: prefix product 4 of A's shape and stride 3 of B divide "
      .. "neither way", err(cute.composition, L "(4,(4,6,8)):(1,(4,2,3))", {2, L "6:3"}))
    assert.equal("logical_divide((4,(4,6,8)):(1,(4,2,3)), <2:1,<(2,2):(1,3)>>): "
      .. "complement((2,2):(1,3)): divisibility: stride 3 is not a multiple of "
      .. "2, so the hole below it cannot be tiled to cover [0,4)",
      err(cute.logical_divide, L "(4,(4,6,8)):(1,(4,2,3))", {2, {L "(2,2):(1,3)"}}))
  end)

  it("tiler elements and tilers of the wrong type name their type", function()
    assert.equal("logical_divide((4,8):(1,4), <2:1,x>): tiler element x (a "
      .. "string) is not a layout, integer or table",
      err(cute.logical_divide, A, {2, "x"}))
    assert.equal("composition((4,8):(1,4), <2:1,true>): tiler element true (a "
      .. "boolean) is not a layout, integer or table",
      err(cute.composition, A, {2, true}))
    says({"zipped_product((4,8):(1,4), 2.5): tiler 2.5 (a non-integral "
          .. "number) is not a layout, integer or table"},
         cute.zipped_product, A, 2.5)
    says({"logical_divide((4,8):(1,4), <Sw<1,0,1>>): tiler element Sw<1,0,1> "
          .. "(a cute.Swizzle) is not a layout"},
         cute.logical_divide, A, {cute.swizzle(1, 0, 1)})
    says({"tiler key \"x\" is outside the list 1..1"}, cute.flat_divide, A, {2, x = 1})
    says({"blocked_product((4,8):(1,4), <2:1>): B is a tiler table; blocked "
          .. "and raked products take a layout or an integer"},
         cute.blocked_product, A, {2})
    says({"raked_product((4,8):(1,4), <2:1>): B is a tiler table"},
         cute.raked_product, A, {2})
  end)

  it("zipped arrangements of a mode kept whole by _ need rank 2", function()
    says({"zipped_divide((2,2,2):(1,2,4), _): ", "needs rank 2"},
         cute.zipped_divide, L "(2,2,2)", cute._)
  end)

  -- found by test_api_monkey: a table's text was its address
  it("atoms show a value that is no name by its type", function()
    says({"bad argument #1 to 'make_smem_layout_atom' (kind (string) expected, "
          .. "got table)"}, cute.make_smem_layout_atom, {})
    says({"make_smem_layout_atom: unknown kind K_SW16 (K_ or MN_ followed by "
          .. "INTER, SW32, SW64 or SW128)"}, cute.make_smem_layout_atom, "K_SW16")
    says({"copy_atom: unknown value type table (a table) (an integer number"},
         cute.copy_atom, "SM75_U32x4_LDSM_N", {})
    says({"make_tiled_mma: mma_atom: no atom named \"f16\" in the catalog"},
         cute.make_tiled_mma, "f16")
  end)

  it("partitions name their call", function()
    says({"local_partition: the thread layout must be a cute.Layout, got number"},
         cute.local_partition, A, 4, 0)
    says({"local_partition: thread index x (a string) is not an integer"},
         cute.local_partition, A, L "(2,2)", "x")
    -- (a function's text would be its address: found by test_api_monkey)
    says({"local_partition: thread index (a function) is not an integer"},
         cute.local_partition, A, L "(2,2)", print)
    says({"local_partition: thread index 2:1 (a userdata) is not an integer"},
         cute.local_partition, A, L "(2,2)", L "2:1")
    says({"local_tile((4,8):(1,4), <2:1,2:1>): the tile coordinate is not a "
          .. "tuple (tuple: string is not an integer, cute.E, cute._ or table)"},
         cute.local_tile, A, {2, 2}, {0, "x"})
  end)

  -- a step's failure is the user's call's: copy_atom's upcast of the
  -- atom's bits, make_layout_tv's size and products
  it("atoms and TV layouts name the call, not the step", function()
    says({"copy_atom: value type f64 (64 bits) does not divide the destination "
          .. "layout of SM75_U32x4_LDSM_N (in bits): upcast((32,(32,4)):"
          .. "(32,(1,1024))): divisibility: shape 32 of mode 32:1 is not a "
          .. "multiple of 64"}, cute.copy_atom, "SM75_U32x4_LDSM_N", "f64")
    says({"copy_atom: value type 24 (24 bits) does not divide the source "
          .. "layout of SM75_U32x4_LDSM_N"}, cute.copy_atom, "SM75_U32x4_LDSM_N", 24)
    assert.equal("make_layout_tv(4294967296:1, 4294967296:1): size((4294967296,"
      .. "4294967296)): 64-bit overflow",
      err(cute.make_layout_tv, L "4294967296:1", L "4294967296:1"))
    assert.equal("make_layout_tv((4,8):(1,-4), 2:1): raked_product((4,8):(1,-4), "
      .. "2:1): complement((4,8):(1,-4)): negative stride -4",
      err(cute.make_layout_tv, L "(4,8):(1,-4)", L "2:1"))
  end)

  -- CuTe's make_tiled_mma states no rule on a permutation's size (its
  -- tile_size_mnk is size(permutation)), and a permutation that is no
  -- multiple of the atom's tile can work: {7, 8, 16} partitions a
  -- (32,16):(1,32) tensor, whose M coalesces, in CuTe's algebra and here.
  -- So it is not refused; where it fails -- get_layoutA_TV's 7 x 16
  -- reference tile -- the message names the call the user made.
  it("a tiled MMA's methods name themselves before a step's failure", function()
    local mma = cute.make_tiled_mma("SM80_16x8x16_F32F16F16F32_TN", nil, {7, 8, 16})
    local step = "zipped_divide(((7,1),(16,1)):((1,0),(7,0)), <16:1,16:1>): "
      .. "composition((7,1):(1,0), (16,1):(1,0)): shape divisibility condition "
      .. "violated: ceil(7/1) = 7 and shape 16 of B divide neither way"
    assert.equal("TiledMMA:get_layoutA_TV: " .. step,
                 err(function() return mma:get_layoutA_TV() end))
    assert.equal("TiledMMA:thrfrg_A: " .. step,
                 err(function() return mma:thrfrg_A(L "(7,16):(1,7)") end))
    local thr = mma:get_slice(0)
    assert.equal("ThrMMA:partition_A: " .. step,
                 err(function() return thr:partition_A(L "(7,16):(1,7)") end))
    assert.equal("make_tiled_copy_A: TiledMMA:get_layoutA_TV: " .. step,
                 err(cute.make_tiled_copy_A, cute.copy_atom("SM75_U32x4_LDSM_N",
                                                            "f16"), mma))
    assert.equal("((2,2,2),3,1):((32,8,256),16,0)",
                 tostring((thr:partition_A(L "(32,16):(1,32)"))))
  end)

  it("pictures and prints name their call and operand", function()
    says({"format_layout((2,2,2):(1,2,4)): rank-2 layout expected, got rank 3"},
         cute.format_layout, L "(2,2,2)")
    says({"print_layout((2,2,2):(1,2,4)): rank-2 layout expected, got rank 3"},
         cute.print_layout, L "(2,2,2)")
    says({"show: cannot tell the picture format of \"x.foo\""}, cute.show, A, "x.foo")
    says({"render: unknown picture format \"foo\""}, cute.render, A, "foo")
    -- found by test_api_monkey: drawing evaluates the layout, whose failure
    -- named no call; a layout of basis strides failed in banks.lua's
    -- arithmetic
    local mixed = L "((1,4),(1),2):((1@0,4),(2),1)"
    says({"show: layout(((1,4),(1),2):((1@0,4),(2),1)): integer stride 4 mixed "
          .. "with basis strides"}, cute.show, mixed)
    says({"render: layout(((1,4),(1),2):((1@0,4),(2),1)): integer stride 4"},
         cute.render, mixed, "txt")
    local id = L "(8,8):(1@1,1@0)"
    says({"bank_conflicts: the shared-memory layout (8,8):(1@1,1@0) maps to no "
          .. "offsets: offset_range((8,8):(1@1,1@0)): needs an integral codomain "
          .. "(strides are bases)"}, cute.bank_conflicts, id, id)
    -- (an access pattern may give coordinates: it names tile cells)
    assert.equal(1, cute.bank_conflicts(L "(8,8):(8,1)", id).worst)
  end)
end)

------------------------------------------------------------------ limits --
-- One row per limit of algebra/cute.h, each hit from Lua through text, a
-- table or an operation; the message names the operation, its operand and
-- the limit by its constant.  spec/lua/limits_spec.lua checks every limit
-- (cute.limits, the stdlib's cells and visit, cute_cuda.h's) for being a
-- bound and not an off-by-one; spec/c/test_limits.c checks them from C.
describe("limits", function()
  local lim = cute.limits
  local function list(x, n)
    return "(" .. (x .. ","):rep(n - 1) .. x .. ")"
  end
  local function nest(n)
    local t = 2
    for _ = 1, n do t = {t} end
    return t
  end
  local function flat(n)
    local t = {}
    for i = 1, n do t[i] = 2 end
    return t
  end
  local half = L(list(2, 17) .. ":" .. list(0, 17))

  it("are the documented constants", function()
    assert.same({32, 96, 8, 3, 254, 32, 4096},
      {lim.leaves, lim.tokens, lim.depth, lim.basis_depth, lim.basis_index,
       lim.tiler, lim.text})
  end)

  local rows = {
    {"leaves, text", {'layout("...2,2,2,', "parse error at column 66: tuple: "
      .. "more than 32 leaves (CUTE_MAX_LEAVES)"}, L, list(2, 33)},
    {"leaves, table", {"bad argument #1 to '", "layout' (tuple: more than 32 "
      .. "leaves (CUTE_MAX_LEAVES))"}, L, flat(33)},
    {"leaves, a result", {"concat(" .. tostring(half) .. ", " .. tostring(half)
      .. "): result above 96 tokens (CUTE_MAX_TOKENS) or 32 leaves "
      .. "(CUTE_MAX_LEAVES)"}, cute.make_layout, half, half},
    {"tokens", {'tuple("...(),(),', "tuple: more than 96 tokens (CUTE_MAX_TOKENS)"},
      cute.tuple, list("()", 48)},
    {"depth, text", {'tuple("(((((((((2)))))))))"): parse error at column 9: '
      .. "tuple: depth above 8 (CUTE_MAX_DEPTH)"}, cute.tuple,
      ("("):rep(9) .. "2" .. (")"):rep(9)},
    {"depth, table", {"bad argument #1 to '", "layout' (tuple: depth above 8 "
      .. "(CUTE_MAX_DEPTH))"}, L, nest(9)},
    {"depth, a result", {"composition((2,2,2):(1,5,25), ((((((((8)))))))):"
      .. "((((((((1))))))))): result above 96 tokens (CUTE_MAX_TOKENS) or depth "
      .. "8 (CUTE_MAX_DEPTH)"}, cute.composition, L "(2,2,2):(1,5,25)",
      L "((((((((8)))))))):((((((((1))))))))"},
    {"basis depth, text", {'layout("4:1@0@1@2@3"): parse error at column 11: '
      .. "basis path longer than CUTE_MAX_BASIS_DEPTH (3)"}, L, "4:1@0@1@2@3"},
    {"basis depth, cute.E", {"bad argument #4 to '", "E' (cute.E takes 1 to 3 "
      .. "mode indices)"}, cute.E, 0, 1, 2, 3},
    {"basis depth, identity layout", {"make_identity_layout(", "deeper than 3 "
      .. "basis levels (CUTE_MAX_BASIS_DEPTH)"}, cute.make_identity_layout,
      {{{{2}}}}},
    {"basis index, text", {'layout("4:1@255"): parse error at column 5: basis '
      .. "index 255 exceeds CUTE_MAX_BASIS_INDEX (254)"}, L, "4:1@255"},
    {"basis index, cute.E", {"bad argument #1 to '", "E' (basis index out of "
      .. "range [0, 254])"}, cute.E, 255},
    {"text", {'layout("8     ', '..."): text longer than CUTE_MAX_TEXT (4096) '
      .. "characters"}, L, "8" .. (" "):rep(4096)},
    {"modes of select", {"bad argument #2 to '", "select' (too many modes)"},
      cute.select, L "4:1", table.unpack(flat(33))},
    {"swizzle bits", {"swizzle(20, 20, 30): bits up to M+|S|+B must stay "
      .. "below 62"}, cute.swizzle, 20, 20, 30},
    {"cells of a picture (cute.limits.cells)", {"print_layout((1000,1000):"
      .. "(1,1000)): 1000000 cells exceed the limit of 65536 cells "
      .. "(cute.limits.cells)"}, cute.print_layout, L "(1000,1000):(1,1000)"},
  }
  for _, r in ipairs(rows) do
    it(r[1], function() clean(says(r[2], table.unpack(r, 3))) end)
  end

  it("tilers: CUTE_MAX_TILER bounds every tiler, <...> text and Lua "
     .. "tables alike (one cute_tiler)", function()
    local nine = {1, 1, 1, 1, 1, 1, 1, 1, 1}
    assert.equal(9, cute.rank(cute.composition(L(list(2, 10)), nine)))
    local many = {}
    for i = 1, 33 do many[i] = 1 end
    says({"tiler has more than 32 layouts (CUTE_MAX_TILER)"},
         cute.composition, L(list(2, 32)), many)
    -- an integer below 1 is no tile: said so, not "a non-integral number"
    says({"logical_divide(8:1, 0:1): tiler 0 is not a positive integer (an "
          .. "integer n is the tile n:1)"}, cute.logical_divide, L "8:1", 0)
    says({"composition((4,8):(1,4), <2:1,-3:1>): tiler element -3 is not a "
          .. "positive integer"}, cute.composition, L "(4,8):(1,4)", {2, -3})
    -- a long list's text stops after CUTE_MAX_TILER_TOKENS elements (its
    -- message had grown past the buffer's first block and crashed)
    for _, n in ipairs {400, 100000} do
      local long = {}
      for i = 1, n do long[i] = 2 end
      local msg = says({"composition((4,8):(1,4), <2:1,2:1,",
                        ",2:1,...>): tiler has more than 32 layouts"},
                       cute.composition, L "(4,8):(1,4)", long)
      assert.equal(96, select(2, msg:gsub("2:1", "")))
    end
    -- `_` takes a token and no layout: the token limit is met first
    local blanks = {}
    for i = 1, 100 do blanks[i] = cute._ end
    says({"logical_divide((4,8):(1,4), <_,_,",
          "): tiler longer than 96 tokens (CUTE_MAX_TILER_TOKENS)"},
         cute.logical_divide, L "(4,8):(1,4)", blanks)
  end)
end)

describe("malformed tuples and coordinates", function()
  local A = L "(4,8):(1,4)"
  it("say which element is wrong and what it is", function()
    says({"bad argument #1 to '", "layout' (tuple: string is not an integer, "
          .. "cute.E, cute._ or table)"}, L, {4, "a"})
    says({"tuple: 2.5 is not an integer"}, L, {4, 2.5})
    says({"bad argument #2 to '", "layout' (tuple: boolean is not an integer"},
         L, {4, 8}, {1, true})
    says({"bad argument #1 to '", "right_inverse' (cute.Layout expected, got table)"},
         cute.right_inverse, {4, 8})
  end)

  it("evaluation needs a coordinate that fits the shape", function()
    says({"coordinate expected"}, A)
    says({"bad argument #1 to 'mode' (mode index must be >= 0)"},
         function() local r = A:mode(-1); return r end)
    says({"layout((4,8):(1,4)): bad argument #1 (tuple: 1.5 is not an "
          .. "integer"}, function() local r = A(1.5); return r end)
    says({"layout((4,8):(1,4)): bad argument #2 (tuple: string is not an "
          .. "integer"}, function() local r = A(1, "x"); return r end)
    says({"swizzle(Sw<1,2,3>): bad argument #1 (integer expected, got "
          .. "table)"}, function() local r = cute.swizzle(1, 2, 3)({}); return r end)
  end)
end)

-- Argument errors of the stdlib's public functions carry the position of
-- the line that made the call (cute.error finds it on the stack), not a
-- position inside the stdlib nor none; inadmissible algebra carries none,
-- like the C module's messages.
describe("stdlib argument errors", function()
  local atom = require "cute.atom"
  local tv = require "cute.tv"
  local gemm = require "cute.gemm"
  local here = "^[^\n:]*error_catalogue_spec%.lua:%d+: "
  local function at_caller(pattern, f)
    local msg = err(f)
    assert.matches(here .. pattern, msg)
    clean(msg)
  end
  -- within's prefix: a call is named when the message begins with it or
  -- quotes it, not when a word of it is the label ("the operation reads"
  -- does not name operation); a label made by a function is made only
  -- when the call fails
  it("are prefixed by the call they were part of", function()
    local E = require "cute.error"
    local function algebra(msg) return function() error(msg, 0) end end
    assert.equal("operation: x: the operation reads the strides",
      err(E.within, "operation", algebra("x: the operation reads the strides")))
    assert.equal("local_tile: no",
      err(E.within, "local_tile", algebra("local_tile: no")))
    assert.equal("bad argument #1 to 'local_tile' (x)",
      err(E.within, "local_tile", algebra("bad argument #1 to 'local_tile' (x)")))
    assert.equal("bad argument #2 to 'cute.composition' (x)", err(E.within,
      "composition", algebra("bad argument #2 to 'cute.composition' (x)")))
    local made = 0
    local function label() made = made + 1; return "f(A)" end
    assert.equal(5, E.within(label, function(x) return x end, 5))
    assert.equal(0, made)
    assert.equal("f(A): no", err(E.within, label, algebra("no")))
    assert.equal(1, made)
  end)

  -- each call sits in a non-tail position, so its line is on the stack
  it("point at the caller's line", function()
    at_caller("print_layout%(%(2,2,2%)", function()
      local r = cute.print_layout(L "(2,2,2)"); return r end)
    -- (make_tiled_mma named first: the user called it, found by
    -- test_api_monkey)
    at_caller("make_tiled_mma: mma_atom: no atom named \"nope\"", function()
      local r = cute.make_tiled_mma("nope"); return r end)
    at_caller("copy_atom: unknown value type f12", function()
      local r = atom.copy_atom("SM75_U32x4_LDSM_N", "f12"); return r end)
    at_caller("make_tiled_copy: pass cute.copy_atom", function()
      local r = cute.make_tiled_copy("x", L "4:1"); return r end)
    at_caller("make_layout_tv: the thread layout", function()
      local r = cute.make_layout_tv(1, 2); return r end)
    at_caller("owners%(%(2,2,2%):%(1,2,4%)%): a TV layout has rank 2", function()
      local r = tv.owners(L "(2,2,2)", { 8 }); return r end)
    at_caller("show: cannot tell the picture format", function()
      local r = cute.show(L "4:1", "x.foo"); return r end)
    at_caller("render: unknown picture format", function()
      local r = cute.render(L "4:1", "foo"); return r end)
    at_caller("bank_conflicts: the access pattern must be a %(thread, value%) "
      .. "cute.Layout, got number", function()
      local r = cute.bank_conflicts(L "4:1", 3); return r end)
    at_caller("bank_conflicts: the access pattern 4:1 is not a %(thread, value%) "
      .. "layout", function()
      local r = cute.bank_conflicts(L "4:1", L "4:1"); return r end)
    -- options are checked, not read as they come (bytes = 0 was 1-way), by
    -- the pictures' checker (cute.error.options): a string value quoted
    -- (side was "got Q"), a table of options in Lua's form (it was "opts
    -- must be a table"), as the pictures' messages read
    local S, A = cute.layout_right { 32, 32 }, L "(32,32):(1,32)"
    for _, case in ipairs {
      { { bytes = 0 }, "bank_conflicts: opts%.bytes must be an integer in 1%.%.128, got 0" },
      { { vec = 2.5 }, "bank_conflicts: opts%.vec must be an integer in 1%.%.128, got 2%.5" },
      { { side = "Q" }, "bank_conflicts: opts%.side must be \"S\" or \"D\", got \"Q\"" },
      { { side = {} }, "bank_conflicts: opts%.side must be \"S\" or \"D\", got table" },
      { 5, "bad argument #3 to 'bank_conflicts' %(options table expected, got number%)" } } do
      at_caller(case[2], function()
        local r = cute.bank_conflicts(S, A, case[1]); return r end)
    end
    -- the pictures' options, through the same checker, at the caller's line
    at_caller("render: opts%.bytes must be an integer in 1%.%.128, got \"2\"", function()
      local r = cute.render(S, "txt", { bytes = "2" }); return r end)
    at_caller("render: unknown option a %(tile, data, title, format, cell, color, "
      .. "bytes, highlight, interactive%)", function()
      local r = cute.render(S, "txt", { b = 1, a = 1, cell = 0 }); return r end)
    at_caller("bank_conflicts: the shared%-memory layout %(32,32%):%(%-1,32%) "
      .. "reaches offset %-31", function()
      local r = cute.bank_conflicts(L "(32,32):(-1,32)", A); return r end)
    -- operation calls cute[name] itself: a C function's argument error has
    -- no position of its own (it had operation.lua's, naming its local f)
    at_caller("operation: bad argument #2 to 'cute.composition' %(cute.Layout or "
      .. "integer expected, got string%)", function()
      local r = cute.operation("composition", L "4:1", "x"); return r end)
    at_caller("make_layout: bad argument #1 to 'layout'", function()
      local r = cute.make_layout(true); return r end)
    at_caller("cute.gemm: A 4:1, B 4:1, C 4:1: ranks 1, 1, 1", function()
      local r = gemm.plan(L "4:1", L "4:1", L "4:1"); return r end)
  end)

  it("of cute.cuda.gemm point at the caller, per call and when planning", function()
    local cuda = require "cute.cuda"
    at_caller("cute.cuda.gemm: A must be a cute.cuda tensor, got number", function()
      local r = cuda.gemm(1, 2, 3); return r end)
    local function tensor(layout, dtype)
      return { layout = L(layout), dtype = dtype, ptr = function() return 0 end }
    end
    at_caller("cute.cuda.gemm: cute.gemm: A has dtype i8", function()
      local r = cuda.gemm(tensor("(4,4)", "i8"), tensor("(4,4)", "f32"),
                          tensor("(4,4)", "f32"))
      return r
    end)
    at_caller("bad argument #4 to 'cute.cuda.gemm' %(options table expected, "
      .. "got number%)", function() local r = cuda.gemm(1, 2, 3, 5); return r end)
    -- cute.cuda.time: a layout is callable and no code; options checked
    at_caller("cute.cuda.time: the timed code must be callable %(a function "
      .. "or a launch handle%), got cute.Layout", function()
      local r = cuda.time(L "4:1"); return r end)
    at_caller("bad argument #2 to 'cute.cuda.time' %(options table expected, "
      .. "got number%)", function()
      local r = cuda.time(function() end, 5); return r end)
    at_caller("cute.cuda.time: opts.reps must be an integer >= 1, got 0",
      function() local r = cuda.time(function() end, { reps = 0 }); return r end)
    at_caller("cute.cuda.time: opts.warmup must be an integer >= 0, got 1.5",
      function() local r = cuda.time(function() end, { warmup = 1.5, reps = 0 })
        return r end)
  end)

  it("of local_tile and local_partition point at the caller", function()
    at_caller("bad argument #1 to 'local_tile' %(cute.Layout expected, got "
      .. "number%)", function()
      local r = cute.local_tile(42, { 2 }, 0); return r end)
    at_caller("local_partition: the thread layout must be a cute.Layout, got "
      .. "number", function()
      local r = cute.local_partition(L "8:1", 42, 0); return r end)
  end)

  it("of local_tile and local_partition on a tensor point at the caller", function()
    local T = cute.make_tensor(cute.counting_iterator(0), L "(8,16):(16,1)")
    at_caller("bad argument #3 to 'local_tile' %(tile coordinate expected", function()
      local r = cute.local_tile(T, { 4, 8 }, "x"); return r end)
    at_caller("local_tile%(%(8,16%):%(16,1%), x%): tiler x %(a string%)", function()
      local r = cute.local_tile(T, "x", { 1, 0 }); return r end)
    at_caller("local_partition: the thread layout must be a cute.Layout, got "
      .. "number", function()
      local r = cute.local_partition(T, 42, 0); return r end)
  end)

  -- A * B is composition: its argument errors name it (not the metamethod
  -- nor a module path) and point at the expression's line.
  it("of A * B name composition and point at the caller", function()
    local A = L "(4,8):(1,4)"
    at_caller("bad argument #2 to 'composition' %(cute.Layout or integer "
      .. "expected, got string%)$", function() local r = A * "x"; return r end)
    at_caller("bad argument #2 to 'composition' %(cute.Layout or integer "
      .. "expected, got boolean%)$", function()
      local r = cute.swizzle(1, 0, 1) * true; return r end)
    at_caller("bad argument #2 to 'composition' %(cute.Layout or integer "
      .. "expected, got number%)$", function() local r = A * 2.5; return r end)
    at_caller("bad argument #2 to 'composition' %(integer 0 is not a positive "
      .. "size %(an integer n stands for the layout n:1%)%)$", function()
      local r = A * 0; return r end)
    -- math.mininteger is a number here, not the `_` it is stored as
    at_caller("bad argument #2 to 'composition' %(integer "
      .. "%-9223372036854775808 is not a positive size", function()
      local r = A * math.mininteger; return r end)
    at_caller("bad argument #1 to 'composition' %(cute.Layout, cute.Swizzle "
      .. "or cute.ComposedLayout expected, got boolean%)$", function()
      local r = true * A; return r end)
    at_caller("composition%(%(4,8%):%(1,4%), <2:1,x>%): tiler element x",
      function() local r = A * { 2, "x" }; return r end)
    -- algebra errors keep no position, as for cute.composition
    assert.equal("composition((4,6,8):(2,3,5), 6:3): stride divisibility",
      err(function() local r = L "(4,6,8):(2,3,5)" * L "6:3"; return r end)
        :sub(1, 54))
  end)

  -- Found by test_api_monkey: Lua names a metamethod by its event ("bad
  -- argument #2 to 'sub'", 'concat', 'mul', 'add') or not at all ('?':
  -- a call A(...), the string library's arithmetic).  The bindings name
  -- the operation the operator stands for -- the CuTe operation (A .. B is
  -- make_layout, A * B composition) or, for cute.E's stride arithmetic,
  -- CuTe's operator -- at the expression's line; == raises nothing.
  it("of the other operators name the operation, not the metamethod",
    function()
      local A, e = L "1:1", cute.E(0)
      at_caller("bad argument #2 to 'make_layout' %(cute.Layout expected, got "
        .. "nil%)$", function() local r = A .. nil; return r end)
      at_caller("bad argument #1 to 'make_layout' %(cute.Layout expected, got "
        .. "number%)$", function() local r = 5 .. A; return r end)
      at_caller("bad argument #2 to 'operator%-' %(integer expected, got nil%)$",
        function() local r = e - nil; return r end)
      at_caller("bad argument #1 to 'operator%-' %(integer expected, got table%)$",
        function() local r = {} - e; return r end)
      at_caller("bad argument #2 to 'operator%+' %(integer expected, got "
        .. "boolean%)$", function() local r = e + true; return r end)
      at_caller("bad argument #2 to 'operator%*' %(integer expected, got "
        .. "cute.Layout%)$", function() local r = e * A; return r end)
      -- called by the string library's __mul: no line of the script
      assert.equal("bad argument #1 to 'operator*' (integer expected, got "
        .. "string)", err(function() local r = "x" * e; return r end))
      assert.is_false(e == A)
      assert.is_false(A == e)
      -- a linear layout's call names it by its input dims
      local lin = cute.to_linear(L "(4,8):(1,4)")
      at_caller("linear layout%(dim0, dim1%): bad argument #1 %(integer "
        .. "expected, got boolean%)$", function() local r = lin(true); return r end)
      at_caller("linear layout%(dim0, dim1%): bad argument #2 %(2.5 is not an "
        .. "integer%)$", function() local r = lin(1, 2.5); return r end)
      at_caller("linear layout%(dim0, dim1%): bad argument #3 %(more values "
        .. "than input dims%)$", function() local r = lin(1, 2, 3); return r end)
      at_caller("linear layout%(dim0, dim1%): bad argument #1 %(input dim dim1: "
        .. "integer expected, got string%)$", function()
        local r = lin { dim1 = "x" }; return r end)
      -- a key that names no input dim was read as nothing (A{lane = 1} gave 0)
      at_caller("linear layout%(dim0, dim1%): bad argument #1 %(lane is no input "
        .. "dim%)$", function() local r = lin { lane = 1 }; return r end)
      assert.equal(4, lin { dim1 = 1 })
    end)

  -- found by test_api_monkey: a function's text was its address
  it("show a tiler element that has no text by its type", function()
    at_caller("logical_divide%(8:1, function%): tiler %(a function%) is not a "
      .. "layout, integer or table$", function()
      local r = cute.logical_divide(L "8:1", print); return r end)
    at_caller("logical_divide%(8:1, <2:1,thread>%): tiler element %(a thread%) "
      .. "is not a layout", function()
      local r = cute.logical_divide(L "8:1", { 2, coroutine.create(print) })
      return r end)
    assert.equal("<2:1,function>", cute.tiler_tostring { 2, print })
  end)

  -- found by test_api_monkey: the argument error of an operation on a
  -- composed layout of layouts named the stdlib's variable ('op')
  it("of an operation on a composed layout name the operation", function()
    local C = cute.make_composed_layout(L "(4,8):(8,1)", 2, L "(2,2):(1,4)")
    at_caller("bad argument #2 to 'cute.composition' %(cute.Layout or integer "
      .. "expected, got no value%)$", function()
      local r = cute.composition(C); return r end)
  end)

  it("point at the user's line however deep in the stdlib they are found",
    function()
      -- make_tiled_mma looks its atom up through mma_atom
      at_caller("make_tiled_mma: mma_atom: no atom named \"nope\"", function()
        local r = require("cute.atom").make_tiled_mma("nope"); return r end)
      -- a user function called by the stdlib is the user's line too
      local f = function() local r = cute.show(L "4:1", "x.foo"); return r end
      at_caller("show: cannot tell the picture format", function()
        local ok, e = pcall(f)
        assert.is_false(ok)
        error(e, 0)
      end)
    end)

  it("have no position when the caller is a C function, as Lua's own",
    function()
      assert.matches("^bad argument #1 to '[%w.]*local_partition' "
        .. "%(cute.Layout expected, got number%)$",
        err(cute.local_partition, 42, L "4:1", 0))
      assert.equal("show: cannot tell the picture format of \"x.foo\" (use "
        .. ".svg, .html, .tex or .txt, or opts.format)",
        err(cute.show, L "4:1", "x.foo"))
    end)

  it("stay position-free for inadmissible algebra", function()
    local msg = err(function()
      local r = cute.logical_divide(L "(4,6,8):(2,3,5)", L "6:3"); return r end)
    assert.equal("logical_divide((4,6,8):(2,3,5), 6:3): ", msg:sub(1, 38))
  end)
end)
