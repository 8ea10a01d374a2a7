-- Errors (design.md "Errors"): misuse and inadmissible algebra raise Lua
-- errors, catchable with pcall, carrying the C message (operation,
-- operands as CuTe text, violated condition) without decoration.
local cute = require "cute"
local L = cute.layout

local err = require "helpers.err"

describe("algebra errors", function()
  it("carry the C message exactly", function()
    local msg = err(cute.composition, L "(4,6,8):(2,3,5)", L "6:3")
    assert.equal("composition((4,6,8):(2,3,5), 6:3): ", msg:sub(1, 35))
    assert.matches("stride divisibility condition violated", msg, 1, true)
    msg = err(cute.composition, L "(4,6,8):(2,3,5)", L "6:1")
    assert.matches("^composition%(%(4,6,8%):%(2,3,5%), 6:1%): shape divisibility", msg)
  end)

  it("name the paper's failing compositions (3.3.3)", function()
    assert.matches("divisibility", err(cute.composition, L "(4,2,8):(3,12,97)", L "4:3"))
    assert.matches("condition", err(cute.composition, L "(4,2,8):(3,15,97)", L "3:3"))
  end)

  it("non-injective complements", function()
    assert.matches("^complement%(%(2,2%):%(1,1%)%): non%-injective",
                   err(cute.complement, L "(2,2):(1,1)"))
  end)

  it("stdlib operations prefix the call the user made", function()
    local msg = err(cute.logical_divide, L "(4,6,8):(2,3,5)", L "6:3")
    assert.matches("^logical_divide%(%(4,6,8%):%(2,3,5%), 6:3%): composition%(", msg)
    assert.matches("condition violated", msg, 1, true)
    msg = err(cute.zipped_divide, L "((4,6),8):((2,3),5)", {L "6:3"})
    assert.matches("^zipped_divide%(%(%(4,6%),8%):%(%(2,3%),5%), <6:3>%): ", msg)
  end)

  it("tilers longer than the layout's rank", function()
    assert.matches("tiler has 3 modes but the layout has rank 2",
                   err(cute.composition, L "(4,8):(1,4)", {2, 2, 2}), 1, true)
    assert.matches("tiler element", err(cute.logical_divide, L "(4,8)", {2, "x"}))
  end)

  it("coordinates that do not fit the shape", function()
    local A = L "(4,8):(1,4)"
    assert.matches("not weakly congruent", err(A, 1, 2, 3))
    assert.matches("mode 5", err(A.mode, A, 5))
  end)

  it("limits are errors, not undefined behaviour", function()
    local deep = 2
    for _ = 1, 10 do deep = {deep} end
    assert.matches("depth", err(cute.layout, deep))
    local wide = {}
    for i = 1, 40 do wide[i] = 2 end
    assert.matches("leaves", err(cute.layout, wide))
    local big = L "(4,8):(1,4)"
    local huge = cute.layout({1 << 40, 1 << 40}, {1, 1 << 40})
    assert.matches("overflow", err(cute.size, huge))
    assert.equal(32, cute.size(big))
  end)

  it("swizzle parameters", function()
    assert.matches("|S| >= B", err(cute.swizzle, 3, 4, 2), 1, true)
  end)
end)

describe("misuse", function()
  it("wrong argument types name the argument and the expected type", function()
    local msg = err(cute.coalesce, 5)
    assert.matches("bad argument #1 to '", msg, 1, true)
    assert.matches("(cute.Layout expected, got number)", msg, 1, true)
    msg = err(cute.composition, "x", L "4:1")
    assert.matches("bad argument #1", msg, 1, true)
    msg = err(cute.right_inverse, {4, 8})
    assert.matches("cute.Layout expected, got table", msg, 1, true)
  end)

  it("malformed tuples say which element is wrong", function()
    assert.matches("tuple: string is not an integer, cute.E, cute._ or table",
                   err(cute.layout, {4, "a"}), 1, true)
    assert.matches("tuple: 2.5 is not an integer", err(cute.layout, {4, 2.5}), 1, true)
    assert.matches("bad argument #2", err(cute.layout, {4, 8}, {1, true}), 1, true)
  end)

  it("shape and stride must be congruent", function()
    assert.matches("not congruent", err(cute.layout, {4, 8}, {1}))
  end)

  it("basis elements", function()
    assert.matches("basis index", err(cute.E, 300))
    assert.matches("1 to 3 mode indices", err(cute.E))
  end)

  it("a coordinate is required", function()
    assert.matches("coordinate expected", err(L "(4,8):(1,4)"))
  end)
end)
