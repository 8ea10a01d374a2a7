-- Partitioning by compose-and-slice (paper 3.3.4, end of 3.5.2):
-- local_tile and local_partition with CuTe's semantics, on layouts.
local cute = require "cute"
local R = require "helpers.random"
local L = cute.layout
local _ = cute._

local function image(sub, off, into)
  for i = 0, cute.size(sub) - 1 do
    local v = off + sub(i)
    R.ok(not into[v], "offset %d taken twice", v)
    into[v] = true
  end
end

describe("compose-and-slice (3.3.4)", function()
  it("each thread of the TV layout gets its values", function()
    local data = L "(8,8):(8,1)"                        -- RowMajor, Table 4
    local tv = cute.composition(data, L "((4,8),2):((16,1),8)")
    assert.equal("((4,8),2):((2,8),1)", tostring(tv))
    local seen = {}
    for thr = 0, 31 do
      local vals, off = tv(thr, _)
      assert.equal(2, cute.size(vals))
      image(vals, off, seen)
    end
    for v = 0, 63 do assert.is_true(seen[v]) end
    local v, off = tv(5, _)
    assert.same({off + v(0), off + v(1)}, {tv(5, 0), tv(5, 1)})
  end)
end)

describe("local_tile", function()
  local A = L "(8,16):(16,1)"

  it("is zipped_divide sliced at ((_,_), coord)", function()
    local tile, off = cute.local_tile(A, {4, 8}, {1, 0})
    assert.equal("(4,8):(16,1)", tostring(tile))
    assert.equal(64, off)
    local Z = cute.zipped_divide(A, {4, 8})
    local t2, o2 = Z({_, _}, {1, 0})
    assert.equal(tile, t2)
    assert.equal(off, o2)
  end)

  it("takes a flat block index (tiled_data[None, blk_id])", function()
    local tile, off = cute.local_tile(A, {4, 8}, 1)
    assert.equal("(4,8):(16,1)", tostring(tile))
    assert.equal(64, off)
    tile, off = cute.local_tile(A, {4, 8}, 2)
    assert.equal(8, off)
  end)

  it("pads a short coordinate with _ over the rest", function()
    local B = L "(8,16,2):(16,1,128)"
    local tile, off = cute.local_tile(B, {4, 8}, {1, 1})
    assert.equal("(4,8,2):(16,1,128)", tostring(tile))
    assert.equal(72, off)
  end)

  it("the tiles of A cover its image exactly once", function()
    local seen = {}
    for bx = 0, 1 do
      for by = 0, 1 do
        local tile, off = cute.local_tile(A, {4, 8}, {bx, by})
        image(tile, off, seen)
      end
    end
    for v = 0, 127 do assert.is_true(seen[v]) end
  end)
end)

describe("local_partition", function()
  local A = L "(8,16):(16,1)"

  it("gives thread i its element of every tile", function()
    local thr = cute.layout {2, 4}                  -- 8 threads, column-major
    local part, off = cute.local_partition(A, thr, 5)
    assert.equal("(4,4):(32,4)", tostring(part))
    assert.equal(18, off)                           -- thread 5 sits at (1,2)
    assert.equal(A(1, 2), off)
  end)

  it("follows the thread layout's order (CuTe's get_flat_coord)", function()
    local rowmajor = cute.layout_right {2, 4}        -- thread 5 at (1,1)
    local _, off = cute.local_partition(A, rowmajor, 5)
    assert.equal(A(1, 1), off)
  end)

  it("threads partition A's image exactly", function()
    for _, thr in ipairs {cute.layout {2, 4}, cute.layout_right {4, 8},
                          L "((2,2),4):((1,8),2)"} do
      local seen = {}
      for t = 0, cute.size(thr) - 1 do
        local part, off = cute.local_partition(A, thr, t)
        image(part, off, seen)
      end
      for v = 0, 127 do R.ok(seen[v], "%s misses %d", thr, v) end
    end
  end)
end)

describe("flat_coord (CuTe's get_flat_coord, cute.core)", function()
  local core = require "cute.core"

  it("inverts an injective thread layout, mode by mode", function()
    -- T(i) = idx: flat_coord(T, idx) is i's coordinate in the modes' sizes
    for seed = 1, 2000 do
      local g = R.new(seed)
      local T = g:injective(seed % 3 == 0 and 2 or nil)
      local per_mode = core.product_each(T:shape())
      for i = 0, cute.size(T) - 1 do
        local got = core.flat_coord(T, T(i))
        local want = cute.idx2crd(i, per_mode)
        R.eq(cute.tuple_tostring(got), cute.tuple_tostring(want),
          "flat_coord(%s, %d)", T, T(i))
      end
    end
  end)

  it("gives stride-0 leaves coordinate 0, and is what local_partition slices", function()
    assert.equal("(1,2,1)", tostring(core.flat_coord(L "(2,16,16):(1,2,32)", 37)))
    assert.equal("(20,0)", tostring(core.flat_coord(L "((4,8),2):((16,1),8)", 5)))
    assert.equal("(0,3)", tostring(core.flat_coord(L "(4,8):(0,1)", 3)))
    assert.equal(5, core.flat_coord(L "32:1", 5))
    local A, thr = L "(8,16):(16,1)", cute.layout_right {2, 4}
    for t = 0, 7 do
      local _, off = cute.local_partition(A, thr, t)
      assert.equal(A(core.flat_coord(thr, t)), off)
    end
    assert.has_error(function() core.flat_coord(L "(2,2):(1@0,1@1)", 1) end)
  end)
end)

describe("local_tile / local_partition against CuTe's definitions", function()
  local mA = L "(512,64):(1,512)"                    -- the GEMM tutorial's A

  it("the GEMM tutorial: gA is (BLK_M,BLK_K,k), thread 37's share", function()
    local gA, o = cute.local_tile(mA, {128, 128, 8}, {1, 0, _},
                                  {1, cute.X, 1})    -- Step<_1,X,_1>
    assert.equal("(128,8,8):(1,512,4096)", tostring(gA))
    assert.equal(128, o)
    local tA = L "(32,8):(1,32)"
    local p, o2 = cute.local_partition(gA, tA, 37)
    assert.equal("(4,1,8):(32,0,4096)", tostring(p))
    assert.equal(645, o + o2)
    -- a projection on the thread layout: only its mode 0 partitions
    local q, o3 = cute.local_partition(mA, tA, 37, {1, cute.X})
    assert.equal("(16,64):(32,512)", tostring(q))
    assert.equal(5, o3)
  end)

  -- tile k of the tile modes, rest coordinate c: Z(k, c), Z the zipped
  -- divide; local_tile(A, T, coord) keeps the tile modes then the rest
  -- modes coord leaves open (`_`), in order.
  it("local_tile(A, T, coord) = zipped_divide(A, T)(tile modes, coord)", function()
    local g = R.new(606)
    local done = 0
    for case = 1, 400 do
      local A = g:injective(g:int(0, 1) == 1 and 2 or nil)
      local r = cute.rank(A)
      local T = {}
      for k = 0, r - 1 do          -- a divisor of each mode's size
        local n = cute.size(A:mode(k))
        local d = {}
        for x = 1, n do if n % x == 0 then d[#d + 1] = x end end
        T[k + 1] = g:pick(d)
      end
      local ok, Z = pcall(cute.zipped_divide, A, T)
      if not ok then goto next end   -- inadmissible (divisibility)
      local rest = Z:mode(1)
      local nr = cute.rank(rest)
      local coord = {}
      for k = 0, nr - 1 do
        coord[k + 1] = g:int(0, 2) == 0 and _ or
                       g:int(0, cute.size(rest:mode(k)) - 1)
      end
      local sub, off = cute.local_tile(A, T, coord)
      local S0 = cute.size(Z:mode(0))
      local open = {}
      for k = 1, nr do if coord[k] == _ then open[#open + 1] = k end end
      R.eq(cute.rank(sub), cute.rank(Z:mode(0)) + #open,
           "rank of local_tile(%s, %s)", A, cute.tiler_tostring(T))
      -- every full rest coordinate agreeing with coord
      local J = 1
      for _, k in ipairs(open) do J = J * cute.size(rest:mode(k - 1)) end
      for jx = 0, J - 1 do
        local c, y = {}, jx
        for k = 1, nr do c[k] = coord[k] end
        for _, k in ipairs(open) do
          local n = cute.size(rest:mode(k - 1))
          c[k], y = y % n, y // n
        end
        for t = 0, S0 - 1 do
          R.eq(off + sub(t + S0 * jx), Z(t, c), "local_tile(%s, %s)", A,
               cute.tiler_tostring(T))
        end
      end
      -- Step<...,X,...>: an extra tiler mode at `at`, dropped by X; the
      -- rest as above (CuTe: local_tile(A, dice(proj, T), dice(proj, c)))
      local at = g:int(1, r + 1)
      local T3, c3, proj, c0 = {}, {}, {}, {}
      for k = 1, r do c0[k] = 0 end
      for k = 1, r + 1 do
        local src = k < at and k or k - 1
        if k == at then T3[k], c3[k], proj[k] = 4, 3, _
        else T3[k], c3[k], proj[k] = T[src], 0, 1 end
      end
      local s1, o1 = cute.local_tile(A, T3, c3, proj)
      local s2, o2 = cute.local_tile(A, T, c0)
      assert.equal(s2, s1)
      assert.equal(o2, o1)
      done = done + 1
      ::next::
    end
    assert.is_true(done > 300, "too few admissible tiles: " .. done)
  end)

  -- a compact thread layout thr (a bijection onto [0, size)): thread
  -- thr(k) owns element k of every tile, Z(k, j).
  it("local_partition(A, thr, t) = Z(k, _) where thr(k) = t", function()
    local g = R.new(707)
    for case = 1, 300 do
      local A = g:injective(g:int(0, 1) == 1 and 2 or nil)
      local r = cute.rank(A)
      local ext, str, n = {}, {}, 1
      for k = 0, r - 1 do
        local m = cute.size(A:mode(k))
        local d = {}
        for x = 1, m do if m % x == 0 then d[#d + 1] = x end end
        ext[k + 1] = g:pick(d)
      end
      local thr = g:int(0, 1) == 0 and cute.layout(ext) or cute.layout_right(ext)
      if r == 1 then thr = cute.layout(ext[1]) end
      local ok, Z = pcall(cute.zipped_divide, A, ext)
      if not ok then goto next end   -- inadmissible (divisibility)
      local S0, S1 = cute.size(Z:mode(0)), cute.size(Z:mode(1))
      for k = 0, cute.size(thr) - 1 do
        local part, off = cute.local_partition(A, thr, thr(k))
        R.eq(cute.size(part), S1, "size of local_partition(%s, %s)", A, thr)
        for j = 0, S1 - 1 do
          R.eq(off + part(j), Z(k + S0 * j), "local_partition(%s, %s, %d)",
               A, thr, thr(k))
        end
      end
      ::next::
    end
  end)
end)
