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

-- Argument errors of the stdlib's public functions carry the position of
-- the line that made the call (cute.tiler.public moves a stdlib position
-- there), not a position inside the stdlib nor none.
describe("stdlib argument errors", function()
  local atom = require "cute.atom"
  local tv = require "cute.tv"
  local gemm = require "cute.gemm"
  local here = "^[^\n:]*errors_spec%.lua:%d+: "
  local function at_caller(pattern, f)
    local msg = err(f)
    assert.matches(here .. pattern, msg)
    assert.falsy(msg:find("cute/[%w_/]*%.lua:%d+"))
  end
  -- each call sits in a non-tail position, so its line is on the stack
  it("point at the caller's line", function()
    at_caller("print_layout%(%(2,2,2%)", function()
      local r = cute.print_layout(L "(2,2,2)"); return r end)
    at_caller("print_layout: cute.Layout", function()
      local r = cute.format_layout(3); return r end)
    at_caller("mma_atom: no atom named \"nope\"", function()
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
    at_caller("bank_conflicts: the access pattern 3", function()
      local r = cute.bank_conflicts(L "4:1", 3); return r end)
    at_caller("cute.cuda.gemm: A 4:1, B 4:1, C 4:1: ranks 1, 1, 1", function()
      local r = gemm.plan(L "4:1", L "4:1", L "4:1"); return r end)
  end)

  it("of cute.cuda.gemm point at the caller, per call and when planning", function()
    at_caller("cute.cuda.gemm: A must be a cute.cuda tensor, got 1", function()
      local r = gemm.gemm(1, 2, 3); return r end)
    local function tensor(layout, dtype)
      return { layout = L(layout), dtype = dtype, ptr = function() return 0 end }
    end
    at_caller("cute.cuda.gemm: A has dtype i8", function()
      local r = gemm.gemm(tensor("(4,4)", "i8"), tensor("(4,4)", "f32"),
                          tensor("(4,4)", "f32"))
      return r
    end)
  end)

  it("stay position-free for inadmissible algebra", function()
    local msg = err(cute.composition, L "(4,6,8):(2,3,5)", L "6:3")
    assert.equal("composition((4,6,8):(2,3,5), 6:3): ", msg:sub(1, 35))
  end)
end)
