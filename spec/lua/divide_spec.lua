-- Logical divide and its zipped / tiled / flat arrangements (paper 3.5.2,
-- docs/architecture.md, "Divides and products by mode").
local cute = require "cute"
local R = require "helpers.random"
local L = cute.layout
local _ = cute._

describe("logical_divide, paper 3.5.2", function()
  it("splits 24 elements by 8:3", function()
    -- A o B and A / B for the two 24-element layouts of the paper
    assert.equal("8:9", tostring(cute.composition(L "24:3", L "8:3")))
    assert.equal("(8,3):(9,3)", tostring(cute.logical_divide(L "24:3", L "8:3")))
    assert.equal("(2,2,2):(6,1,20)",
                 tostring(cute.composition(L "(6,2,2):(2,1,20)", L "8:3")))
    assert.equal("((2,2,2),3):((6,1,20),2)",
                 tostring(cute.logical_divide(L "(6,2,2):(2,1,20)", L "8:3")))
    assert.equal("(8,3):(3,1)", tostring(cute.logical_divide(L "24:1", L "8:3")))
  end)

  local A, T = L "(8,16):(20,1)", {4, L "8:2"}

  it("(8,16):(20,1) / <4:1,8:2>", function()
    assert.equal("((4,2),(8,2)):((20,80),(2,1))", tostring(cute.logical_divide(A, T)))
  end)

  it("zipped, tiled and flat arrangements", function()
    assert.equal("((4,8),(2,2)):((20,2),(80,1))", tostring(cute.zipped_divide(A, T)))
    assert.equal("((4,8),2,2):((20,2),80,1)", tostring(cute.tiled_divide(A, T)))
    assert.equal("(4,8,2,2):(20,2,80,1)", tostring(cute.flat_divide(A, T)))
  end)

  it("the tile mode of zipped_divide is A o T, sliced per block", function()
    local Z = cute.zipped_divide(A, T)
    assert.equal(tostring(cute.composition(A, T)), tostring(Z:mode(0)))
    local tile, off = Z({_, _}, {1, 1})   -- one `_` per tile mode
    assert.equal("(4,8):(20,2)", tostring(tile))
    assert.equal(81, off)
  end)

  it("keeps the modes past the tiler", function()
    local B = L "(8,16,3):(20,1,320)"
    assert.equal("((4,2),(8,2),3):((20,80),(2,1),320)",
                 tostring(cute.logical_divide(B, T)))
    assert.equal("((4,8),(2,2,3)):((20,2),(80,1,320))",
                 tostring(cute.zipped_divide(B, T)))
    assert.equal("((4,8),2,2,3):((20,2),80,1,320)", tostring(cute.tiled_divide(B, T)))
    assert.equal("(4,8,2,2,3):(20,2,80,1,320)", tostring(cute.flat_divide(B, T)))
  end)

  it("nested sub-tilers split the modes of a mode", function()
    local B, N = L "((4,6),8):((1,4),24)", {{2, 3}, 4}
    assert.equal("(((2,2),(3,2)),(4,2)):(((1,2),(4,12)),(24,96))",
                 tostring(cute.logical_divide(B, N)))
    local Z = cute.zipped_divide(B, N)
    assert.equal("(((2,3),4),((2,2),2)):(((1,4),24),((2,12),96))", tostring(Z))
    assert.equal(cute.composition(B, N), Z:mode(0))
    assert.equal("((2,3),4,(2,2),2):((1,4),24,(2,12),96)",
                 tostring(cute.flat_divide(B, N)))
  end)

  it("accepts shapes as tilers: (4,8) = <4:1,8:1>", function()
    assert.equal(cute.zipped_divide(A, {4, 8}), cute.zipped_divide(A, {L "4:1", L "8:1"}))
    assert.equal("((4,8),(2,2)):((20,1),(80,8))", tostring(cute.zipped_divide(A, {4, 8})))
  end)
end)

-- Values of D at every index, checked against A o B, and as a multiset
-- against A: no element of A is dropped or repeated.
local function check_divide(A, B, D)
  R.eq(cute.size(D), cute.size(A), "size of %s / %s", A, B)
  local tile = D:mode(0)
  local AB = cute.composition(A, B)
  for i = 0, cute.size(B) - 1 do
    R.eq(tile(i), A(B(i)), "mode 0 of %s / %s at %d", A, B, i)
    R.eq(tile(i), AB(i), "mode 0 of %s / %s vs A o B at %d", A, B, i)
  end
  local got, want = R.sorted(R.values(D)), R.sorted(R.values(A))
  for i = 1, #want do R.eq(got[i], want[i], "values of %s / %s", A, B) end
end

describe("logical_divide properties on seeded random layouts", function()
  it("mode 0 is A o B, sizes and values preserved (layout tilers)", function()
    local g = R.new(101)
    local done = 0
    for _ = 1, 2000 do
      local A = g:layout()
      local B = g:tiler_for(A)
      local ok, D = pcall(cute.logical_divide, A, B)
      if ok then
        done = done + 1
        check_divide(A, B, D)
        -- a layout tiler: zipped is the logical divide itself; tiled and
        -- flat only unnest it, so they agree index by index
        assert.equal(D, cute.zipped_divide(A, B))
        local Tl, F = cute.tiled_divide(A, B), cute.flat_divide(A, B)
        for i = 0, cute.size(D) - 1 do
          R.eq(Tl(i), D(i), "tiled_divide(%s, %s) at %d", A, B, i)
          R.eq(F(i), D(i), "flat_divide(%s, %s) at %d", A, B, i)
        end
      else
        R.ok(D:find("condition violated", 1, true) or D:find("divisibility", 1, true),
             "unexpected error: %s", D)
      end
    end
    assert.is_true(done > 1000, "too few admissible divides: " .. done)
  end)

  it("by-mode tilers: per-mode divides, variants hold the same values", function()
    local g = R.new(202)
    local done = 0
    for _ = 1, 1000 do
      local A = g:layout() .. g:layout()
      local T = {g:tiler_for(A:mode(0)), g:tiler_for(A:mode(1))}
      local ok, D = pcall(cute.logical_divide, A, T)
      if ok then
        done = done + 1
        for m = 0, 1 do check_divide(A:mode(m), T[m + 1], D:mode(m)) end
        local Z = cute.zipped_divide(A, T)
        local Tl, F = cute.tiled_divide(A, T), cute.flat_divide(A, T)
        local AT = cute.composition(A, T)
        for i = 0, cute.size(Z) - 1 do
          R.eq(Tl(i), Z(i), "tiled vs zipped of %s at %d", A, i)
          R.eq(F(i), Z(i), "flat vs zipped of %s at %d", A, i)
        end
        for i = 0, cute.size(AT) - 1 do
          R.eq(Z:mode(0)(i), AT(i), "tile mode of %s vs A o T at %d", A, i)
        end
        -- ((t0,r0),(t1,r1)) of the logical divide is ((t0,t1),(r0,r1)) zipped
        local s0, s1 = D:mode(0):shape(), D:mode(1):shape()
        local t0n, r0n = cute.size(s0[1]), cute.size(s0[2])
        local t1n, r1n = cute.size(s1[1]), cute.size(s1[2])
        for t0 = 0, t0n - 1, math.max(1, t0n // 3) do
          for r0 = 0, r0n - 1, math.max(1, r0n // 3) do
            for t1 = 0, t1n - 1, math.max(1, t1n // 3) do
              for r1 = 0, r1n - 1, math.max(1, r1n // 3) do
                R.eq(Z({t0, t1}, {r0, r1}), D({t0, r0}, {t1, r1}),
                     "zipped vs logical of %s at ((%d,%d),(%d,%d))", A, t0, r0, t1, r1)
              end
            end
          end
        end
      end
    end
    assert.is_true(done > 300, "too few admissible by-mode divides: " .. done)
  end)
end)
