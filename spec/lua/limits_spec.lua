-- cute.limits: every limit on what one call may cost, each hit once, the
-- message naming the operation, its operands (CuTe text), the limit and its
-- value (stdlib/cute/limits.lua lists them and says what is not capped).
-- The C limits of cute.h are hit from Lua here and from C in
-- spec/c/test_limits.c; those of cute_cuda.h in spec/c/test_cuda_limits.c
-- and, on a GPU (#gpu), below.
local cute = require "cute"
local tv = require "cute.tv"
local msg = require "helpers.err"

local function has(text, s) assert.matches(s, text, 1, true) end

-- Runs f with cute.limits[name] = value, restoring it after.
local function with_limit(name, value, f)
  local old = cute.limits[name]
  cute.limits[name] = value
  local ok, err = pcall(f)
  cute.limits[name] = old
  if not ok then error(err, 0) end
end

describe("cute.limits", function()
  it("lists the stdlib's limits and the C ones", function()
    local l = cute.limits
    assert.equal(65536, l.cells)
    assert.equal(1 << 24, l.visit)
    assert.same({32, 96, 8, 3, 254, 32, 4096, 1 << 24},
      {l.leaves, l.tokens, l.depth, l.basis_depth, l.basis_index, l.tiler,
       l.text, l.walk})
    assert.same({6, 32, 15}, {l.linear_dims, l.linear_bits, l.linear_name})
    assert.matches("CUTE_LINEAR_MAX_BITS", select(2, pcall(function()
      l.linear_bits = 64 end)))
    assert.equal(l, require "cute.limits")
  end)

  it("refuses to change a C limit, or a stdlib one to a non-integer",
    function()
      has(msg(function() cute.limits.leaves = 64 end),
          "cute.limits.leaves is CUTE_MAX_LEAVES of the C library, for "
          .. "reading: it cannot change")
      assert.equal(32, cute.limits.leaves)
      has(msg(function() cute.limits.cells = -1 end),
          "cute.limits.cells: a positive integer expected, got -1")
      has(msg(function() cute.limits.cells = 1.5 end),
          "cute.limits.cells: a positive integer expected, got 1.5")
      has(msg(function() cute.limits.cell = 4 end),
          "cute.limits has no limit cell")
      assert.equal(65536, cute.limits.cells)
      local names = {}
      for name in pairs(cute.limits) do names[#names + 1] = name end
      table.sort(names)
      assert.same({"basis_depth", "basis_index", "cells", "check", "depth",
                   "leaves", "linear_bits", "linear_dims", "linear_name",
                   "product", "size", "text", "tiler", "tokens", "visit",
                   "walk"}, names)
    end)

  it("keeps cute.print.max_cells as the old name of cells", function()
    local p = require "cute.print"
    assert.equal(cute.limits.cells, p.max_cells)
    with_limit("cells", 65536, function()
      p.max_cells = 4
      assert.equal(4, cute.limits.cells)
      has(msg(cute.print_layout, cute.layout "(2,3)"),
          "print_layout((2,3):(1,2)): 6 cells exceed the limit of 4 cells "
          .. "(cute.limits.cells)")
    end)
    assert.equal(65536, p.max_cells)
  end)

  it("prints the operands only when the limit is hit", function()
    local printed = 0
    local operand = setmetatable({}, { __tostring = function()
      printed = printed + 1
      return "(2,3):(1,2)"
    end })
    local limits = require "cute.limits"
    limits.check("cells", "op", limits.cells, "cells", operand, operand)
    assert.equal(0, printed)
    has(msg(limits.check, "cells", "op", limits.cells + 1, "cells", operand,
            operand), "op((2,3):(1,2), (2,3):(1,2)): 65537 cells exceed the "
            .. "limit of 65536 cells (cute.limits.cells)")
    assert.equal(2, printed)
    -- a NaN count is no count within the limit; a bad name or count says so
    has(msg(limits.check, "cells", "op", 0 / 0, "cells"), "op(): ")
    has(msg(limits.check, "x", "op", 5), "limits.check: no limit named x")
    has(msg(limits.check, "cells", "op", "5"),
        "limits.check: the count must be a number, got string")
    -- found by spec/vm/test_api_monkey.c: a name that is no string showed
    -- its address; product multiplied a Layout (a composition) or failed
    -- in Lua's arithmetic
    has(msg(limits.check, print, "op", 5),
        "bad argument #1 to 'limits.check' (limit name (string) expected, got function)")
    has(msg(limits.product, 4, cute.swizzle(3, 4, 3)),
        "bad argument #2 to 'limits.product' (number expected, got cute.Swizzle)")
    has(msg(limits.product, {}), "bad argument #1 to 'limits.product' (number expected, got table)")
    assert.equal(8.0, limits.product(2, 4))
  end)
end)

describe("cute.limits.cells", function()
  local big = cute.layout "(1000,1000):(1,1000)"
  local why = "1000000 cells exceed the limit of 65536 cells "
              .. "(cute.limits.cells)"

  it("bounds print_layout and the pictures", function()
    has(msg(cute.print_layout, big), "print_layout((1000,1000):(1,1000)): "
        .. why)
    has(msg(cute.render, big, "txt"), "render((1000,1000):(1,1000)): " .. why)
    has(msg(cute.show, big), "show((1000,1000):(1,1000)): " .. why)
    has(msg(cute.render, cute.layout "(32,4):(1,32)", "txt",
            { tile = { 1000, 1000 } }), "render((32,4):(1,32)): " .. why)
  end)

  it("bounds an MMA picture by its three tiles, before drawing any",
     function()
    local mma = cute.make_tiled_mma("SM80_16x8x16_F32F16F16F32_TN",
                                    cute.layout "(64,128,1)")
    -- A 1024 x 16, B 1024 x 16, C (16*64) x (8*128) = 1024 x 1024
    local m = msg(cute.render, mma, "txt")
    has(m, "render(TiledMMA")
    has(m, "1081344 cells exceed the limit of 65536 cells "
        .. "(cute.limits.cells)")
  end)

  it("is a bound, not an off-by-one", function()
    with_limit("cells", 6, function()
      assert.truthy(#cute.format_layout(cute.layout "(2,3)") > 0)
      has(msg(cute.format_layout, cute.layout "(7)"),
          "format_layout((7):(1)): 7 cells exceed the limit of 6 cells")
    end)
  end)
end)

describe("cute.limits.visit", function()
  local huge = cute.layout "((65536,512),1):((1,0),0)"   -- 2^25 elements
  local why = "33554432 elements exceed the limit of 16777216 elements "
              .. "(cute.limits.visit)"

  it("bounds tv.owners and tv.bijection", function()
    has(msg(tv.owners, huge, { 4, 4 }),
        "owners(((65536,512),1):((1,0),0)): " .. why)
    has(msg(tv.bijection, cute.layout "(65536,512):(1,65536)", 1 << 25),
        "bijection((65536,512):(1,65536)): " .. why)
  end)

  it("bounds the accesses cute.bank_conflicts walks", function()
    has(msg(cute.bank_conflicts, cute.layout { 32, 32 },
            cute.layout "(65536,512):(0,0)"),
        "bank_conflicts((32,32):(1,32), (65536,512):(0,0)): 33554432 "
        .. "accesses exceed the limit of 16777216 accesses "
        .. "(cute.limits.visit)")
  end)

  it("is a bound, not an off-by-one", function()
    with_limit("visit", 64, function()
      assert.equal(64, #tv.owners(cute.layout "(8,8):(1,8)", { 8, 8 }))
      assert.is_true((tv.bijection(cute.layout "(8,8):(1,8)", 64)))
      has(msg(tv.owners, cute.layout "(5,13):(13,1)", { 5, 13 }),
          "owners((5,13):(13,1)): 65 elements exceed the limit of 64")
    end)
  end)
end)

describe("the C limits (cute.h) from Lua", function()
  local function list(x, n)
    local t = {}
    for i = 1, n do t[i] = x end
    return "(" .. table.concat(t, ",") .. ")"
  end

  it("CUTE_MAX_LEAVES: 32 leaves", function()
    has(msg(cute.layout, list(2, 33)), "more than 32 leaves (CUTE_MAX_LEAVES)")
    assert.equal(32, #cute.layout(list(2, 32)):shape())
    local half = cute.layout(list(2, 17) .. ":" .. list(0, 17))
    local m = msg(cute.make_layout, half, half)
    has(m, "concat(" .. tostring(half) .. ", " .. tostring(half) .. "): ")
    has(m, "32 leaves (CUTE_MAX_LEAVES)")
  end)

  it("CUTE_MAX_TOKENS: 96 tokens", function()
    has(msg(cute.tuple, list("()", 48)), "more than 96 tokens "
        .. "(CUTE_MAX_TOKENS)")
    assert.equal(47, #cute.tuple(list("()", 47)))
  end)

  it("CUTE_MAX_DEPTH: nesting 8 deep, in text and in tables", function()
    local deep = ("("):rep(9) .. "2" .. (")"):rep(9)
    has(msg(cute.tuple, deep), deep)
    has(msg(cute.tuple, deep), "depth above 8 (CUTE_MAX_DEPTH)")
    local t = 2
    for _ = 1, 9 do t = { t } end
    has(msg(cute.layout, t), "depth above 8 (CUTE_MAX_DEPTH)")
    local cyclic = {}
    cyclic[1] = cyclic
    has(msg(cute.layout, cyclic), "depth above 8 (CUTE_MAX_DEPTH)")
  end)

  it("CUTE_MAX_DEPTH: tilers nest 8 deep, and print short beyond", function()
    local A = cute.layout "(4,8):(1,4)"
    local function nest(n)
      local t = 2
      for _ = 1, n do t = { t } end
      return t
    end
    assert.equal("((((((((2)))))))):((((((((1))))))))",
                 tostring(cute.composition(A, nest(8))))
    local why = "tiler nesting exceeds the limit of 8 levels (a layout's "
                .. "depth, CUTE_MAX_DEPTH: cute.limits.depth)"
    has(msg(cute.composition, A, nest(9)), why)
    -- deep or cyclic tables: refused at once, printed as <...> past 9
    local deep, cyclic = nest(100000), {}
    cyclic[1] = cyclic
    local m = msg(cute.logical_divide, A, deep)
    has(m, "logical_divide(")
    has(m, ", <<<<<<<<<<...>>>>>>>>>>): ")
    has(m, why)
    has(msg(cute.zipped_product, A, cyclic), why)
    assert.equal("<<<<<<<<<<...>>>>>>>>>>", cute.tiler_tostring(deep))
  end)

  it("CUTE_MAX_BASIS_DEPTH and CUTE_MAX_BASIS_INDEX", function()
    has(msg(cute.layout, "(4,8):(1@0@0@0@0,1@1)"),
        "CUTE_MAX_BASIS_DEPTH (3)")
    has(msg(cute.layout, "(4,8):(1@255,1@1)"),
        "basis index 255 exceeds CUTE_MAX_BASIS_INDEX (254)")
    has(msg(cute.make_identity_layout, { { { { 2 } } } }),
        "make_identity_layout(")
    has(msg(cute.make_identity_layout, { { { { 2 } } } }),
        "deeper than 3 basis levels (CUTE_MAX_BASIS_DEPTH)")
  end)

  it("CUTE_MAX_TEXT: 4096 characters", function()
    has(msg(cute.layout, "8" .. (" "):rep(4096)),
        "text longer than CUTE_MAX_TEXT (4096) characters")
    assert.equal("8:1", tostring(cute.layout("8" .. (" "):rep(4095))))
  end)

  it("CUTE_MAX_WALK: a swizzled cosize is exact up to 2^24 elements, a "
     .. "bound beyond", function()
    assert.equal((1 << 24) + 1,
                 cute.cosize(cute.layout "Sw<3,4,3> o 1 o 16777216:1"))
    assert.equal((1 << 24) + 1024,
                 cute.cosize(cute.layout "Sw<3,4,3> o 1 o 16777217:1"))
  end)
end)

describe("the limits of cute.cuda (cute_cuda.h)", function()
  local ok, cuda = pcall(require, "cute.cuda")
  if not ok then
    pending("no cute.cuda: " .. tostring(cuda))
    return
  end

  it("are listed in cute.cuda.limits", function()
    assert.same({ check = 1 << 28, includes = 1024, include_depth = 16 },
                cuda.limits)
  end)

  describe("on a GPU #gpu", function()
    local have_gpu, why = cuda.available()
    if not have_gpu then
      pending("no GPU: " .. why)
      return
    end
    local one = cuda.buffer("f32", 1):iota()

    it("bounds check_copy (2^28 elements) and refuses unequal sizes",
       function()
      local src = cuda.tensor(one, "1073741824:0")
      local dst = cuda.tensor(cuda.buffer("f32", 1), "1073741824:0")
      has(msg(cuda.check_copy, src, dst), "cute.cuda: check_copy("
          .. "1073741824:0, 1073741824:0): 1073741824 elements exceed the "
          .. "limit of 268435456 elements a check compares "
          .. "(CUTE_CUDA_MAX_CHECK); check a sample")
      cuda.copy(src, dst)
      assert.is_nil(cuda.check_copy(src, dst, 1000, 1))
      local four = cuda.tensor(cuda.buffer("f32", 4), "4:1")
      has(msg(cuda.check_copy, cuda.tensor(one, "8:0"), four),
          "check_copy(8:0, 4:1): size(src) == size(dst) violated")
    end)

    it("bounds Tensor:to_table by cute.limits.visit", function()
      local T = cuda.tensor(one, "(65536,512):(0,0)")
      has(msg(T.to_table, T), "to_table(tensor<f32> {0} o (65536,512):(0,0)): "
          .. "33554432 elements exceed the limit of 16777216 elements "
          .. "(cute.limits.visit)")
      assert.same({ 0, 0, 0 }, cuda.tensor(one, "3:0"):to_table())
    end)
  end)
end)

-- What a script cannot change for the runs after it, and what C work a
-- host can meter (vm/cutelua.h: a budget bounds time).
describe("cute.core's classes", function()
  local core = require "cute.core"
  local A = cute.layout "(4,8):(1,4)"

  it("are read-only to scripts, by every road", function()
    local mt = getmetatable(A)
    assert.equal(core.metatables.Layout, mt)
    assert.equal("cute.Layout", mt.__name)
    has(msg(function() mt.__gc = print end),
        "cute.Layout's metatable is read-only")
    has(msg(function() mt.__index.shape = nil end),
        "cute.Layout's method table is read-only")
    has(msg(rawset, mt, "__index", {}), "table expected")
    has(msg(setmetatable, A, {}), "table expected")
    for _, x in ipairs { cute.swizzle(1, 2, 3), cute.E(0),
                         cute.layout "Sw<1,2,3> o 0 o 8:1" } do
      has(msg(function() getmetatable(x).__call = nil end), "read-only")
    end
    assert.equal(8, A:shape()[2])
    assert.equal(cute.composition(A, cute.layout "8:4"), A * cute.layout "8:4")
    assert.equal(cute.composition(A, { 2, 4 }), A * { 2, 4 })
  end)

  it("meter a swizzled cosize's walk through registry[cute.charge]",
     function()
    local reg = debug.getregistry()
    local seen = {}
    reg["cute.charge"] = function(n, what) seen[#seen + 1] = what .. " " .. n end
    local ok, err = pcall(function()
      cute.cosize(cute.layout "Sw<3,4,3> o 0 o 4096:1")
      cute.cosize(A)                                  -- no walk: no charge
      cute.cosize(cute.layout "Sw<3,4,3> o 0 o 16777217:1")  -- bound, no walk
    end)
    reg["cute.charge"] = nil
    assert(ok, err)
    assert.same({ "cosize 4096.0" }, seen)
  end)
end)

describe("messages name the call the user made", function()
  local A = cute.layout "(4,8):(1,4)"
  it("in a layout's, swizzle's and composed layout's call", function()
    has(msg(function() return A(1, "x") end),
        "layout((4,8):(1,4)): bad argument #2 (tuple: string is not")
    has(msg(function() return cute.swizzle(1, 2, 3)("x") end),
        "swizzle(Sw<1,2,3>): bad argument #1 (integer expected, got string)")
    has(msg(function() return cute.layout "Sw<1,2,3> o 0 o 8:1"("x") end),
        "layout(Sw<1,2,3> o 0 o 8:1): bad argument #1")
  end)

  it("in crd2idx, tv_partition and tiler_tostring", function()
    has(msg(cute.crd2idx, { 1, 1 }, { 4, 8 }, { 1, 2, 3 }),
        "crd2idx((1,1), (4,8), (1,2,3)): make_layout(")
    has(msg(cute.crd2idx, { 1, 1 }, { -4, 8 }),
        "crd2idx((1,1), (-4,8)): shape leaf -4 is not positive")
    has(msg(cute.idx2crd, 3, { -4, 8 }), "shape leaf -4 is not positive")
    has(msg(cute.tv_partition, cute.layout "(8,8):(8,1)",
            cute.layout "((4,8),2):((16,1),8)", { 1, "x" }),
        "tv_partition((8,8):(8,1), ((4,8),2):((16,1),8), ?): layout(")
    assert.equal("<1:1>", cute.tiler_tostring({ 1 }, "x"))
  end)

  it("where a swizzle meets offsets it cannot act on", function()
    local id = cute.make_identity_layout { 4, 8 }
    local why = "a swizzle needs an integral layout"
    has(msg(cute.composition, cute.swizzle(3, 4, 3), id), "composition(")
    has(msg(cute.composition, cute.swizzle(3, 4, 3), id), why)
    has(msg(cute.composed, cute.swizzle(3, 4, 3), 0, id), why)
    has(msg(cute.layout, "Sw<3,4,3> o 0 o (4,8):(1@0,1@1)"), why)
    assert.equal(-30, cute.cosize(cute.layout "(4,8):(-1,-4)"))  -- CuTe's
    has(msg(cute.cosize, cute.layout "Sw<1,0,1> o 0 o (4,8):(-1,-4)"),
        "the image reaches below 0")
    assert.equal(41, cute.cosize(cute.layout "Sw<1,0,1> o 40 o (4,8):(-1,-4)"))
  end)
end)
