-- Swizzles Sw<B,M,S> and composed layouts Sw o offset o L
-- (docs/architecture.md; CuTe's Swizzle: bits [M+S, M+S+B) xored into
-- [M, M+B)).
local cute = require "cute"
local R = require "helpers.random"
local L = cute.layout

-- CuTe's definition, written independently of the C code.
local function reference(b, m, s, x)
  local field = (1 << b) - 1
  if s >= 0 then return x ~ ((x & (field << (m + s))) >> s) end
  return x ~ ((x & (field << m)) << -s)
end

describe("swizzle", function()
  it("matches CuTe's bit formula", function()
    for _, p in ipairs {{3, 4, 3}, {3, 3, 3}, {2, 0, 4}, {1, 2, 1}, {2, 4, -3}, {0, 3, 3}} do
      local sw = cute.swizzle(p[1], p[2], p[3])
      for x = 0, 4095 do
        R.eq(sw(x), reference(p[1], p[2], p[3], x), "Sw<%d,%d,%d>(%d)", p[1], p[2], p[3], x)
        R.eq(sw(sw(x)), x, "Sw<%d,%d,%d> is an involution at %d", p[1], p[2], p[3], x)
      end
    end
  end)

  it("exposes its parameters", function()
    assert.same({3, 4, 3}, {cute.swizzle(3, 4, 3):params()})
  end)

  it("requires |S| >= B", function()
    local ok, msg = pcall(cute.swizzle, 3, 4, 2)
    assert.is_false(ok)
    assert.matches("|S| >= B", msg, 1, true)
  end)
end)

describe("composed layouts", function()
  local sw = cute.swizzle(3, 3, 3)
  local base = L "(8,64):(64,1)"
  local C = cute.composed(sw, 0, base)

  it("evaluate as sw(offset + L(c))", function()
    local C5 = cute.composed(sw, 5, base)
    for i = 0, cute.size(base) - 1 do
      R.eq(C(i), sw(base(i)), "%s(%d)", C, i)
      R.eq(C5(i), sw(5 + base(i)), "%s(%d)", C5, i)
    end
    assert.equal(sw(base(3, 17)), C(3, 17))
    assert.equal(cute.size(base), cute.size(C))
  end)

  it("spread each column of 8-element vectors over 8 banks", function()
    for col = 0, 63, 8 do
      local chunks = {}
      for r = 0, 7 do chunks[C(r, col) // 8 % 8] = true end
      local n = 0
      for _ in pairs(chunks) do n = n + 1 end
      assert.equal(8, n)
    end
  end)

  it("slice with the offset folded into the composed layout", function()
    local row, off = C(3, cute._)
    assert.equal(0, off)
    assert.equal("Sw<3,3,3> o 192 o (64):(1)", tostring(row))
    for j = 0, 63 do R.eq(row(j), C(3, j), "row 3 at %d", j) end
  end)

  it("compose on the right: (Sw o off o L) o B = Sw o off o (L o B)", function()
    local B = L "(4,8):(8,1)"
    local CB = cute.composition(C, B)
    assert.equal("cute.ComposedLayout", getmetatable(CB).__name)
    local LB = cute.composition(base, B)
    for i = 0, cute.size(B) - 1 do R.eq(CB(i), sw(LB(i)), "%s(%d)", CB, i) end
    assert.equal(CB, C * B)
  end)

  it("sw * L and composition(sw, L) make Sw o 0 o L", function()
    assert.equal(C, sw * base)
    assert.equal(C, cute.composition(sw, base))
  end)

  it("parts", function()
    assert.equal(sw, C:swizzle())
    assert.equal(0, C:offset())
    assert.equal(base, C:layout())
    assert.same({8, 64}, C:shape())
    assert.equal(512, cute.cosize(C))
    assert.equal(2, cute.rank(C))
  end)
end)
