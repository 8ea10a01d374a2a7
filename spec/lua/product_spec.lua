-- Logical product and the products built on it (paper 3.5.1, Figures 10
-- and 11; docs/architecture.md, "Divides and products by mode").
local cute = require "cute"
local R = require "helpers.random"
local L = cute.layout

-- Figure 10: blocked_product of (3,4):(4,1) by (2,5):(1,2), 6 x 20.
local FIG10 = {
  {0, 1, 2, 3, 24, 25, 26, 27, 48, 49, 50, 51, 72, 73, 74, 75, 96, 97, 98, 99},
  {4, 5, 6, 7, 28, 29, 30, 31, 52, 53, 54, 55, 76, 77, 78, 79, 100, 101, 102, 103},
  {8, 9, 10, 11, 32, 33, 34, 35, 56, 57, 58, 59, 80, 81, 82, 83, 104, 105, 106, 107},
  {12, 13, 14, 15, 36, 37, 38, 39, 60, 61, 62, 63, 84, 85, 86, 87, 108, 109, 110, 111},
  {16, 17, 18, 19, 40, 41, 42, 43, 64, 65, 66, 67, 88, 89, 90, 91, 112, 113, 114, 115},
  {20, 21, 22, 23, 44, 45, 46, 47, 68, 69, 70, 71, 92, 93, 94, 95, 116, 117, 118, 119}}

-- Figure 11: raked_product of the same layouts.
local FIG11 = {
  {0, 24, 48, 72, 96, 1, 25, 49, 73, 97, 2, 26, 50, 74, 98, 3, 27, 51, 75, 99},
  {12, 36, 60, 84, 108, 13, 37, 61, 85, 109, 14, 38, 62, 86, 110, 15, 39, 63, 87, 111},
  {4, 28, 52, 76, 100, 5, 29, 53, 77, 101, 6, 30, 54, 78, 102, 7, 31, 55, 79, 103},
  {16, 40, 64, 88, 112, 17, 41, 65, 89, 113, 18, 42, 66, 90, 114, 19, 43, 67, 91, 115},
  {8, 32, 56, 80, 104, 9, 33, 57, 81, 105, 10, 34, 58, 82, 106, 11, 35, 59, 83, 107},
  {20, 44, 68, 92, 116, 21, 45, 69, 93, 117, 22, 46, 70, 94, 118, 23, 47, 71, 95, 119}}

local function same_table(fig, P)
  for m = 0, 5 do
    for n = 0, 19 do
      R.eq(P(m, n), fig[m + 1][n + 1], "%s at (%d,%d)", P, m, n)
    end
  end
end

describe("logical_product, paper 3.5.1", function()
  local A, B = L "(3,4):(4,1)", L "(2,5):(1,2)"

  it("(3,4):(4,1) x (2,5):(1,2)", function()
    assert.equal("1:12", tostring(cute.complement(A)))
    assert.equal("((3,4),(2,5)):((4,1),(12,24))", tostring(cute.logical_product(A, B)))
  end)

  it("(4,8):(20,2) x (3,2):(2,1) interleaves the tiles", function()
    assert.equal("(2,1):(1,80)", tostring(cute.complement(L "(4,8):(20,2)")))
    assert.equal("((4,8),(3,2)):((20,2),(80,1))",
                 tostring(cute.logical_product(L "(4,8):(20,2)", L "(3,2):(2,1)")))
  end)

  it("blocked_product: Figure 10, cell by cell", function()
    local P = cute.blocked_product(A, B)
    assert.equal("((3,2),(4,5)):((4,12),(1,24))", tostring(P))
    same_table(FIG10, P)
  end)

  it("raked_product: Figure 11, cell by cell", function()
    local P = cute.raked_product(A, B)
    assert.equal("((2,3),(5,4)):((12,4),(24,1))", tostring(P))
    same_table(FIG11, P)
  end)

  it("zipped, tiled and flat arrangements of a layout product", function()
    assert.equal("((3,4),(2,5)):((4,1),(12,24))", tostring(cute.zipped_product(A, B)))
    assert.equal("((3,4),2,5):((4,1),12,24)", tostring(cute.tiled_product(A, B)))
    assert.equal("(3,4,2,5):(4,1,12,24)", tostring(cute.flat_product(A, B)))
  end)

  it("by-mode with a tiler table (T_M, T_N for each mode)", function()
    -- each mode is multiplied on its own: T_M = 2:1* o 2:1 = 2:2 and
    -- T_N = 3:2* o 4:1 = (2,1):(1,6) o 4:1 = (2,2):(1,6)
    local A2 = L "(2,3):(1,2)"
    local P = cute.logical_product(A2, {L "2:1", L "4:1"})
    assert.equal("((2,2),(3,(2,2))):((1,2),(2,(1,6)))", tostring(P))
    assert.equal("((2,3),(2,(2,2))):((1,2),(2,(1,6)))",
                 tostring(cute.zipped_product(A2, {2, 4})))
    assert.equal("((2,3),2,(2,2)):((1,2),2,(1,6))",
                 tostring(cute.tiled_product(A2, {2, 4})))
    assert.equal("(2,3,2,(2,2)):(1,2,2,(1,6))",
                 tostring(cute.flat_product(A2, {2, 4})))
  end)

  it("blocked/raked pad the lower rank with 1:0 modes (CuTe append<R>)", function()
    assert.equal("((4,2),(1,3)):((1,4),(0,8))",
                 tostring(cute.blocked_product(L "4:1", L "(2,3):(1,2)")))
    assert.equal("((2,4),(3,1)):((4,1),(8,0))",
                 tostring(cute.raked_product(L "4:1", L "(2,3):(1,2)")))
  end)
end)

describe("product properties on seeded random layouts", function()
  it("mode 0 reproduces A; injective when A and B are", function()
    local g = R.new(303)
    local done = 0
    for _ = 1, 2000 do
      local A, B = g:injective(), g:injective()
      local ok, P = pcall(cute.logical_product, A, B)
      if ok then
        done = done + 1
        assert.equal(A, P:mode(0))
        R.eq(cute.size(P), cute.size(A) * cute.size(B), "size of %s x %s", A, B)
        R.ok(cute.compatible(B:shape(), P:mode(1):shape()), "%s x %s: grid", A, B)
        local seen = {}
        for i = 0, cute.size(P) - 1 do
          local v = P(i)
          R.ok(not seen[v], "%s x %s = %s repeats %d", A, B, P, v)
          seen[v] = true
        end
        local Z, Tl, F = cute.zipped_product(A, B), cute.tiled_product(A, B),
                         cute.flat_product(A, B)
        for i = 0, cute.size(P) - 1 do
          R.eq(Z(i), P(i), "zipped_product(%s, %s) at %d", A, B, i)
          R.eq(Tl(i), P(i), "tiled_product(%s, %s) at %d", A, B, i)
          R.eq(F(i), P(i), "flat_product(%s, %s) at %d", A, B, i)
        end
      else
        R.ok(P:find("condition violated", 1, true), "unexpected error: %s", P)
      end
    end
    assert.is_true(done > 1000, "too few admissible products: " .. done)
  end)

  it("blocked and raked products rearrange the logical product", function()
    local g = R.new(404)
    local done = 0
    for _ = 1, 600 do
      local A, B = g:injective(2), g:injective(2)
      local ok, P = pcall(cute.logical_product, A, B)
      if ok and cute.size(P) <= 4096 then
        done = done + 1
        local Bp, Rp = cute.blocked_product(A, B), cute.raked_product(A, B)
        R.eq(cute.rank(Bp), 2, "rank of blocked_product(%s, %s)", A, B)
        R.eq(cute.rank(Rp), 2, "rank of raked_product(%s, %s)", A, B)
        local a0, a1 = cute.size(A:mode(0)), cute.size(A:mode(1))
        local b0, b1 = cute.size(B:mode(0)), cute.size(B:mode(1))
        for i0 = 0, a0 - 1 do
          for i1 = 0, a1 - 1 do
            for j0 = 0, b0 - 1 do
              for j1 = 0, b1 - 1 do
                local v = P({i0, i1}, {j0, j1})
                R.eq(Bp({i0, j0}, {i1, j1}), v, "blocked(%s, %s)", A, B)
                R.eq(Rp({j0, i0}, {j1, i1}), v, "raked(%s, %s)", A, B)
              end
            end
          end
        end
      end
    end
    assert.is_true(done > 200, "too few admissible products: " .. done)
  end)
end)

describe("every product on random operands, rank-1 and size-1 included", function()
  -- colex index of per-mode indices i[k] in modes of sizes n[k]
  local function colex(i, n)
    local x, m = 0, 1
    for k = 1, #i do x, m = x + i[k] * m, m * n[k] end
    return x
  end
  local function sizes(L, r)
    local t = {}
    for k = 0, r - 1 do
      t[k + 1] = k < cute.rank(L) and cute.size(L:mode(k)) or 1
    end
    return t
  end

  it("size(A x B) = size(A) size(B); Figures 10/11 by formula", function()
    local g = R.new(505)
    local done, ranks = 0, {}
    for _ = 1, 1500 do
      local A, B = g:injective(), g:injective()
      local ok, P = pcall(cute.logical_product, A, B)
      if ok and cute.size(P) <= 4096 then
        done = done + 1
        ranks[cute.rank(A) .. "," .. cute.rank(B)] = true
        local sA, sB = cute.size(A), cute.size(B)
        local Astar = cute.complement(A)
        -- (A, A* o B) at (ia, jb), A* on its extended domain (paper 3.5.1)
        for jb = 0, sB - 1 do
          for ia = 0, sA - 1 do
            R.eq(P(ia + sA * jb), A(ia) + Astar(B(jb)), "%s x %s", A, B)
          end
        end
        for _, name in ipairs {"zipped_product", "tiled_product",
                               "flat_product", "blocked_product",
                               "raked_product"} do
          R.eq(cute.size(cute[name](A, B)), sA * sB, "size of %s(%s, %s)",
               name, A, B)
        end
        -- mode k of blocked is (A_k, B_k), of raked (B_k, A_k): the pair
        -- (i_k, j_k) is P's (colex(i), colex(j)) (Figures 10 and 11).
        local r = math.max(cute.rank(A), cute.rank(B))
        local nA, nB = sizes(A, r), sizes(B, r)
        local Bp, Rp = cute.blocked_product(A, B), cute.raked_product(A, B)
        local i, j = {}, {}
        for ia = 0, sA - 1 do
          local x = ia
          for k = 1, r do i[k], x = x % nA[k], x // nA[k] end
          for jb = 0, sB - 1 do
            local y = jb
            for k = 1, r do j[k], y = y % nB[k], y // nB[k] end
            local bi, ri, n2 = {}, {}, {}
            for k = 1, r do
              bi[k], ri[k] = i[k] + nA[k] * j[k], j[k] + nB[k] * i[k]
              n2[k] = nA[k] * nB[k]
            end
            local v = P(ia + sA * jb)
            R.eq(Bp(colex(bi, n2)), v, "blocked_product(%s, %s)", A, B)
            R.eq(Rp(colex(ri, n2)), v, "raked_product(%s, %s)", A, B)
          end
        end
      end
    end
    assert.is_true(done > 800, "too few admissible products: " .. done)
    assert.is_true(ranks["1,1"] and ranks["1,2"] and ranks["2,1"],
                   "rank-1 operands were drawn")
  end)

  it("a rank-1 grid keeps all of its sub-modes (4:2 by 4:1)", function()
    local A, B = L "4:2", L "4:1"
    assert.equal(16, cute.size(cute.logical_product(A, B)))
    assert.equal("(4,(2,2)):(2,(1,8))", tostring(cute.blocked_product(A, B)))
    assert.equal("((2,2),4):((1,8),2)", tostring(cute.raked_product(A, B)))
    -- a rank-1 tuple keeps its wrapping: mode 0 is (A_0, grid_0), whole
    assert.equal("((4,(2,2))):((2,(1,8)))",
                 tostring(cute.blocked_product(L "(4):(2)", B)))
  end)
end)
