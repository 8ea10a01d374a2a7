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

  it("is zipped_divide sliced at (_, coord)", function()
    local tile, off = cute.local_tile(A, {4, 8}, {1, 0})
    assert.equal("(4,8):(16,1)", tostring(tile))
    assert.equal(64, off)
    local Z = cute.zipped_divide(A, {4, 8})
    local t2, o2 = Z(_, {1, 0})
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
    assert.equal("((4,8),2):((16,1),128)", tostring(tile))
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
