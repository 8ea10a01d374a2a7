-- CuTe's tuple arithmetic (ceil_div, shape_div, product_each, tuple_add,
-- tuple_sub, elem_less, increment_coord, dice, idx2crd of a coordinate,
-- append / prepend to a rank) and the compact layouts (make_ordered_layout,
-- make_layout_like, nullspace): CuTe's documented cases, then each
-- definition checked by brute force on seeded random operands.
local cute = require "cute"
local R = require "helpers.random"
local L, T, _ = cute.layout, cute.tuple_tostring, cute._

local function leaves(t, out)
  out = out or {}
  if type(t) ~= "table" then out[#out + 1] = t; return out end
  for _, x in ipairs(t) do leaves(x, out) end
  return out
end

local function product(t)
  local p = 1
  for _, v in ipairs(leaves(t)) do p = p * v end
  return p
end

describe("tuple arithmetic: CuTe's documented cases", function()
  it("ceil_div and shape_div", function()
    assert.equal("(4,2)", T(cute.ceil_div({10, 6}, {3, 4})))      -- DSL doc
    assert.equal("(1,3)", T(cute.ceil_div({4, 6}, 8)))
    assert.equal("3", T(cute.ceil_div(10, {2, 2})))
    assert.equal("(4,6,7)", T(cute.ceil_div({10, 6, 7}, {3})))    -- b padded with 1
    assert.equal("(1,1,3)", T(cute.shape_div({4, 5, 6}, 40)))     -- int_tuple.hpp
    assert.equal("(2,(1,8))", T(cute.shape_div({8, {2, 8}}, {4, 2})))
    assert.error_matches(function() cute.shape_div({3, 4}, 2) end,
      "shape_div((3,4), 2): neither of 3 and 2 divides the other", 1, true)
    assert.error_matches(function() cute.ceil_div({1, 2}, {1, 2, 3}) end,
      "ceil_div((1,2), (1,2,3)): rank 2 against rank 3", 1, true)
  end)

  -- CuTe's size(IntTuple) is product(a) (int_tuple.hpp), with no condition
  -- on the leaves: a tuple's size is the product of its leaves whatever
  -- their sign, as product_each's is.  Only a layout's shape needs leaves
  -- >= 1, and make_layout refuses others; cosize takes a layout only, as
  -- CuTe's does.  So size of (2,-3) is -6 by decision, not by accident.
  it("size of a tuple is the product of its leaves, of any sign (CuTe's size)", function()
    assert.equal(-6, cute.size {2, -3})
    assert.equal(6, cute.size {-2, {-3}})
    assert.equal(0, cute.size {2, 0})
    assert.equal(-3, cute.size(-3))
    assert.equal("(2,-3)", T(cute.product_each {2, {3, -1}}))
    assert.error_matches(function() cute.layout {2, -3} end,
      "make_layout((2,-3)): shape leaf 1 is not a positive integer", 1, true)
    assert.error_matches(function() cute.cosize {2, -3} end,
      "bad argument #1 to 'cosize' (cute.Layout or cute.ComposedLayout "
      .. "expected, got table)", 1, true)
  end)

  it("product_each, tuple_add, tuple_sub, elem_less", function()
    assert.equal("(6,4)", T(cute.product_each {{2, 3}, 4}))
    assert.equal(8, cute.product_each(8))
    assert.equal("(4,6)", T(cute.tuple_add({1, 2}, {3, 4})))
    assert.equal("(4,2)", T(cute.tuple_add({1, 2}, {3})))         -- padded with 0
    assert.equal("(0,(1,2))", T(cute.tuple_sub({1, {2, 3}}, {1, {1, 1}})))
    assert.equal("(3@0,5)", T(cute.tuple_add({cute.E(0), 2}, {2 * cute.E(0), 3})))
    assert.is_true(cute.elem_less({1, 2}, {2, 3}))
    assert.is_false(cute.elem_less({1, 3}, {2, 3}))
    assert.is_true(cute.elem_less({1}, {2, 3}))
    assert.is_false(cute.elem_less({1, 2, 3}, {2, 3}))
    -- `_` is no number: refused, where INT64_MIN (how it is stored) was read
    for _, f in ipairs {"ceil_div", "shape_div", "tuple_add", "tuple_sub",
                        "elem_less"} do
      local ok, msg = pcall(cute[f], {2, cute._}, {3, 4})
      assert.is_false(ok)
      assert.truthy(msg:find(f .. "((2,_), (3,4)): leaf 1 of (2,_) is _, not "
                             .. "an integer", 1, true), msg)
    end
    assert.has_error(function() cute.product_each(cute._) end,
                     "product_each(_): _ is not an integer")
  end)

  it("increment_coord, dice, idx2crd of a coordinate, append, prepend", function()
    assert.equal("(0,1,0)", T(cute.increment_coord({2, 0, 0}, {3, 3, 3})))  -- DSL doc
    assert.equal("(0,0,3)", T(cute.increment_coord({2, 2, 2}, {3, 3, 3})))
    assert.equal("(4)", T(cute.dice({1, _}, {4, 8})))
    assert.equal("(5)", T(cute.dice({_, {1, _}}, {4, {5, 6}})))
    assert.equal("(4,8)", T(cute.dice(1, {4, 8})))
    assert.equal("()", T(cute.dice(_, {4, 8})))
    assert.equal("(4):(1)", tostring(cute.dice({1, _}, L "(4,8):(1,4)")))
    assert.equal("(1,2)", T(cute.idx2crd(11, {5, 4})))               -- DSL doc
    assert.equal("(3,(1,2))", T(cute.idx2crd({3, 5}, {4, {2, 4}})))
    assert.equal("(1,2,0,0)", T(cute.append({1, 2}, 0, 4)))
    assert.equal("(0,0,1,2)", T(cute.prepend({1, 2}, 0, 4)))
    assert.equal("(8,9)", T(cute.append(8, 9)))
    assert.equal("(4,5):(1,100)", tostring(cute.append(L "4:1", L "5:100")))
    assert.equal("(4,2,1,1):(1,4,0,0)",
                 tostring(cute.append(L "(4,2):(1,4)", L "1:0", 4)))
  end)
end)

describe("tuple arithmetic: definitions by brute force", function()
  local g = R.new(1301)
  local function shape()
    local n = g:int(1, 4)
    return g:nesting(n)(g:extents(n, 512))
  end

  it("ceil_div and shape_div of integers", function()
    for a = -20, 40 do
      for b = 1, 12 do
        local q = cute.ceil_div(a, b)
        R.ok(q * b >= a and (q - 1) * b < a, "ceil_div(%d, %d) = %d", a, b, q)
        if a > 0 and (a % b == 0 or b % a == 0) then
          R.eq(cute.shape_div(a, b), q, "shape_div(%d, %d)", a, b)
        end
      end
    end
  end)

  it("tuple by integer: the divisor folds through the modes", function()
    for _i = 1, 2000 do
      local s, b = shape(), g:pick {1, 2, 3, 4, 8, 16, 64}
      local q, rest = cute.ceil_div(s, b), b
      local sm, qm = type(s) == "table" and s or {s}, q
      if type(s) ~= "table" then qm = {q} end
      for i, si in ipairs(sm) do
        R.eq(T(qm[i]), T(cute.ceil_div(si, rest)), "ceil_div(%s, %d) mode %d",
             T(s), b, i - 1)
        rest = cute.ceil_div(rest, product(si))
      end
      -- shape_div: whenever it succeeds, product(s) = product(q) * b when
      -- b divides product(s)
      local ok, sq = pcall(cute.shape_div, s, b)
      if ok and product(s) % b == 0 then
        R.eq(product(sq) * b, product(s), "shape_div(%s, %d)", T(s), b)
      end
    end
  end)

  it("product_each, tuple_add / tuple_sub, elem_less", function()
    for _i = 1, 2000 do
      local s, t = shape(), nil
      local pe = cute.product_each(s)
      if type(s) == "table" then
        for i, m in ipairs(s) do R.eq(pe[i], product(m), "product_each(%s)", T(s)) end
      else
        R.eq(pe, s, "product_each(%s)", T(s))
      end
      -- a tuple congruent to s with other values
      local ls = leaves(s)
      local n, k = #ls, 0
      local function like(x)
        if type(x) ~= "table" then k = k + 1; return g:int(-9, 9) end
        local r = {}
        for i, y in ipairs(x) do r[i] = like(y) end
        return r
      end
      t = like(s)
      local sum, back = cute.tuple_add(s, t), nil
      back = cute.tuple_sub(sum, t)
      R.eq(T(back), T(s), "tuple_sub(tuple_add(%s, %s))", T(s), T(t))
      local lsum, lt = leaves(sum), leaves(t)
      local all = true
      for i = 1, n do
        R.eq(lsum[i], ls[i] + lt[i], "tuple_add leaf %d", i)
        all = all and lt[i] < ls[i]
      end
      R.eq(cute.elem_less(t, s), all, "elem_less(%s, %s)", T(t), T(s))
      R.eq(k, n, "leaf count")
    end
  end)

  it("increment_coord walks the domain as idx2crd does", function()
    for _i = 1, 200 do
      local s = shape()
      local c = cute.idx2crd(0, s)
      local size = product(s)
      for i = 1, math.min(size, 300) - 1 do
        c = cute.increment_coord(c, s)
        R.eq(T(c), T(cute.idx2crd(i, s)), "increment_coord in %s at %d", T(s), i)
      end
    end
  end)

  it("idx2crd of a coordinate is idx2crd mode by mode, inverted by crd2idx", function()
    for _i = 1, 1000 do
      local s = shape()
      if type(s) == "table" then
        local idx = {}
        for i, m in ipairs(s) do idx[i] = g:int(0, product(m) - 1) end
        local c = cute.idx2crd(idx, s)
        for i, m in ipairs(s) do
          R.eq(T(c[i]), T(cute.idx2crd(idx[i], m)), "idx2crd(%s, %s)", T(idx), T(s))
          R.eq(cute.crd2idx(c[i], m), idx[i], "crd2idx round trip")
        end
      end
    end
  end)

  it("dice keeps what slicing drops", function()
    for _i = 1, 1000 do
      local A = g:layout()
      local shp = cute.tuple(tostring(A):match("^(.-):"))
      -- a random coordinate: each leaf an index or `_`
      local cuts = 0
      local function crd(x)
        if type(x) ~= "table" then
          if g:int(0, 1) == 1 then return _ end
          cuts = cuts + 1
          return g:int(0, x - 1)
        end
        local r = {}
        for i, y in ipairs(x) do r[i] = crd(y) end
        return r
      end
      local c = crd(shp)
      local D = cute.dice(c, A)
      local kept = #leaves(cute.tuple(tostring(D):match("^(.-):")))
      if type(c) == "table" then
        R.eq(kept, cuts, "dice(%s, %s) keeps the cut leaves", T(c), tostring(A))
      end
    end
  end)
end)

describe("compact layouts", function()
  it("CuTe's and the reference's documented cases", function()
    local M = cute.make_ordered_layout
    assert.equal("(2,2,2,2):(1,4,8,2)", tostring(M({2, 2, 2, 2}, {0, 2, 3, 1})))
    assert.equal("(4,4):(4,1)", tostring(M({4, 4}, {1, 0})))       -- DSL doc
    assert.equal("(32,16,8):(128,1,16)", tostring(M({32, 16, 8}, {2, 0, 1})))
    assert.equal("(2,3,4,5):(1,40,2,8)", tostring(M({2, 3, 4, 5}, {2, 67, 42, 50})))
    assert.equal("(8,4):(1,8)", tostring(M({8, 4}, {5, 5})))       -- ties by position
    assert.equal("(2,(3,4)):(12,(4,1))", tostring(M({2, {3, 4}}, {2, {1, 0}})))
    assert.equal("(4,(2,2)):(4,(1,2))", tostring(M({4, {2, 2}}, {1, 0})))
    assert.equal("8:1", tostring(M(8, 0)))
    local like = cute.make_layout_like
    assert.equal("(2,2,2,2):(0,2,4,1)", tostring(like(L "(2,2,2,2):(0,2,4,1)")))
    assert.equal("(2,3,4,5):(0,4,1,0)", tostring(like(L "(2,3,4,5):(0,42,1,0)")))
    assert.equal("(4,1,8):(1,32,4)", tostring(like(L "(4,1,8):(1,5,4)")))
    assert.equal("(2,(3,4)):(12,(1,3))", tostring(like(L "(2,(3,4)):(50,(1,8))")))
    assert.equal("(2,3,4):(12,4,1)", tostring(like(L "(2,3,4):(1@2,1@1,1@0)")))
    assert.equal("(4,3):(3,1)", tostring(like(L "(4,3):(3@0,1@0)")))
    assert.equal("4:1", tostring(like(L "4:1@1")))
    local N = cute.nullspace
    assert.equal("(2,6):(1,8)", tostring(N(L "(2,4,6):(0,1,0)")))
    assert.equal("1:0", tostring(N(L "(8,4):(1,8)")))
    assert.equal("4:1", tostring(N(L "4:0")))
    assert.equal("8:1", tostring(cute.make_identity_layout(8)))    -- E<> = 1
    assert.equal(3, cute.make_identity_layout(8)(3))
    assert.equal("(8):(1@0)", tostring(cute.make_identity_layout {8}))
  end)

  local g = R.new(77)
  it("make_ordered_layout: compact, packed in the order's rank", function()
    for _i = 1, 2000 do
      local n = g:int(1, 5)
      local ext = g:extents(n, 256)
      local ord = {}
      for i = 1, n do ord[i] = g:int(0, 4) end
      local nest = g:nesting(n)
      local A = cute.make_ordered_layout(nest(ext), nest(ord))
      local seen = {}
      for i = 0, cute.size(A) - 1 do
        local v = A(i)
        R.ok(v >= 0 and v < cute.size(A) and not seen[v], "%s not compact", tostring(A))
        seen[v] = true
      end
      local idx = {}
      for i = 1, n do idx[i] = i end
      table.sort(idx, function(a, b) return ord[a] < ord[b] or ord[a] == ord[b] and a < b end)
      local st, cur = leaves(cute.tuple(tostring(A):match(":(.*)$"))), 1
      for _, i in ipairs(idx) do
        R.eq(st[i], cur, "make_ordered_layout stride %d of %s", i, tostring(A))
        cur = cur * ext[i]
      end
    end
  end)

  it("make_layout_like: zeros kept, the rest compact in stride order (size 1 last), idempotent", function()
    for _i = 1, 2000 do
      local A = g:layout()
      local B = cute.make_layout_like(A)
      R.eq(tostring(cute.make_layout_like(B)), tostring(B), "idempotent on %s", tostring(A))
      local sa = leaves(cute.tuple(tostring(A):match(":(.*)$")))
      local sb = leaves(cute.tuple(tostring(B):match(":(.*)$")))
      local ext = leaves(cute.tuple(tostring(A):match("^(.-):")))
      local idx = {}
      for i = 1, #sa do
        R.ok((sa[i] == 0) == (sb[i] == 0), "zeros of %s -> %s", tostring(A), tostring(B))
        if sa[i] ~= 0 then idx[#idx + 1] = i end
      end
      -- size-1 leaves rank last (idempotence), then by stride, then position
      local function key(i) return {ext[i] == 1 and 1 or 0, sa[i], i} end
      table.sort(idx, function(a, b)
        local x, y = key(a), key(b)
        for k = 1, 3 do if x[k] ~= y[k] then return x[k] < y[k] end end
        return false
      end)
      local cur = 1
      for _, i in ipairs(idx) do
        R.eq(sb[i], cur, "make_layout_like(%s) = %s", tostring(A), tostring(B))
        cur = cur * ext[i]
      end
    end
  end)

  it("nullspace: every element maps to 0, size(N) * size(filter(A)) = size(A)", function()
    for _i = 1, 3000 do
      local A = g:layout()
      local N = cute.nullspace(A)
      for i = 0, cute.size(N) - 1 do
        R.eq(A(N(i)), 0, "%s(nullspace(%s)(%d))", tostring(A), tostring(A), i)
      end
      R.eq(cute.size(N) * cute.size(cute.filter(A)), cute.size(A), "size of nullspace(%s)",
           tostring(A))
    end
  end)
end)
