-- cute.tensor: host tensors over a Lua array, a counting iterator or the
-- identity (coordinates); slicing, local_tile / local_partition of tensors,
-- make_fragment_like and print_tensor in CuTe's text.  Each checked
-- against its definition, T(c) = *(iter + L(c)), on random layouts.
local cute = require "cute"
local R = require "helpers.random"
local err = require "helpers.err"
local L, _ = cute.layout, cute._

describe("tensors: CuTe's documented cases", function()
  it("prints as CuTe's print and print_tensor", function()
    local T = cute.make_tensor(cute.counting_iterator(0), L "(2,3):(3,1)")
    assert.equal("counting_iter(0) o (2,3):(3,1)", tostring(T))
    assert.equal("counting_iter(0) o (2,3):(3,1):\n"
      .. "    0    1    2\n"
      .. "    3    4    5\n", cute.format_tensor(T))
    local I = cute.make_identity_tensor {2, 3}
    assert.equal("ArithTuple(0,0) o (2,3):(1@0,1@1):\n"
      .. "  (0,0)  (0,1)  (0,2)\n"
      .. "  (1,0)  (1,1)  (1,2)\n", cute.format_tensor(I))
    local C = cute.make_tensor(cute.counting_iterator(0), L "(2,2,2):(1,2,4)")
    assert.equal("counting_iter(0) o (2,2,2):(1,2,4):\n"
      .. "    0    2\n    1    3\n----------\n    4    6\n    5    7\n",
      cute.format_tensor(C))
    local F = cute.make_tensor({1.5, 2.5}, L "2:1")
    assert.equal("array+0 o 2:1:\n  1.500e+00\n  2.500e+00\n", cute.format_tensor(F))
  end)

  it("follows the GEMM tutorial's tiling and partitioning", function()
    -- gA = local_tile(mA, (128,8), (1,_)); tA = local_partition(gA, (32,8), 37)
    local mA = cute.make_tensor(cute.counting_iterator(0), L "(512,64):(1,512)")
    local gA = cute.local_tile(mA, {128, 8}, {1, _})
    assert.equal("counting_iter(128) o (128,8,8):(1,512,4096)", tostring(gA))
    local tA = cute.local_partition(gA, L "(32,8):(1,32)", 37)
    assert.equal("counting_iter(645) o (4,1,8):(32,0,4096)", tostring(tA))
    assert.equal(645 + 32, tA(1, 0, 0))
  end)

  it("make_fragment_like: mode 0 compact, the rest in stride order", function()
    local F = cute.make_fragment_like(L "((2,2),4,3):((1,0),64,8)")
    assert.equal("array+0 o ((2,2),4,3):((1,0),6,2)", tostring(F))
    assert.equal("array+0 o (4,8):(1,4)",
                 tostring(cute.make_fragment_like(cute.make_tensor({}, L "(4,8):(8,1)"))))
    assert.equal("array+0 o 8:1", tostring(cute.make_fragment_like(L "8:4")))
  end)

  it("refuses what it cannot do, naming the tensor", function()
    local T = cute.make_tensor({1, 2, 3}, L "4:1")
    local ok, msg = pcall(T, 3)
    assert.is_false(ok)
    assert.matches("tensor array+0 o 4:1: offset 3 is outside the array of 3 elements",
                   msg, 1, true)
    local C = cute.make_tensor(cute.counting_iterator(0), L "4:1")
    assert.error_matches(function() C[1] = 5 end, "its values are computed", 1, true)
    assert.error_matches(function() cute.make_tensor(true, L "4:1") end,
      "bad argument #1 to 'make_tensor' (Lua array or cute iterator expected, got boolean)",
      1, true)
  end)

  -- found by spec/vm/test_api_monkey.c: raw Lua errors from inside
  -- stdlib/cute/tensor.lua
  it("names the call and the script's line when misused", function()
    local T = cute.make_tensor({1, 2}, L "2:1")
    local msg = err(T.size, 7)
    assert.equal("bad argument #1 to 'size' (cute.Tensor expected, got number)", msg)
    msg = err(function() local v = T("x") return v end)
    assert.matches("^[^\n]*tensor_spec%.lua:%d+: tensor: layout%(2:1%): bad argument #1", msg)
    msg = err(function() local v = T[{0, 0}] return v end)
    -- (the algebra's own message: no position, as for every C call)
    assert.equal("tensor: layout(2:1): coordinate (0,0) is not weakly congruent to shape 2", msg)
    msg = err(function() T[1.5] = 1 end)
    assert.matches("^[^\n]*tensor_spec%.lua:%d+: tensor: ", msg)
    -- T[c] with `_` is the sub-tensor, as T(c) (it was arithmetic on a Layout)
    local M = cute.make_tensor(cute.counting_iterator(0), L "(4,8):(1,4)")
    assert.equal(tostring(M(1, cute._)), tostring(M[{1, cute._}]))
  end)
end)

describe("tensors: T(c) = *(iter + L(c)) by brute force", function()
  local g = R.new(4242)

  it("over arrays, counting iterators and identities, sliced or not", function()
    for _i = 1, 300 do
      local A = g:layout()
      local n = cute.cosize(A)
      local data = {}
      for i = 1, n do data[i] = i * 10 end
      local T = cute.make_tensor(data, A)
      local C = cute.make_tensor(cute.counting_iterator(7), A)
      for i = 0, cute.size(A) - 1 do
        R.eq(T(i), data[A(i) + 1], "array tensor over %s at %d", tostring(A), i)
        R.eq(C[i], 7 + A(i), "counting tensor over %s at %d", tostring(A), i)
      end
      -- a slice keeps the values: T(c0, _) (c) = T(c0, c)
      if cute.rank(A) >= 2 then
        local c0 = g:int(0, cute.size(A:mode(0)) - 1)
        local args = {c0}
        for k = 2, cute.rank(A) do args[k] = _ end
        local S = C(table.unpack(args))
        local full = {}
        for i = 0, cute.size(S:layout()) - 1 do
          local rest = cute.idx2crd(i, cute.product_each(S:shape()))
          rest = type(rest) == "table" and rest or {rest}
          full[1] = c0
          for k = 1, #rest do full[k + 1] = rest[k] end
          R.eq(S(i), C(table.unpack(full)), "slice of %s at %d", tostring(A), i)
        end
      end
    end
  end)

  it("identity tensors give back the coordinate", function()
    for _i = 1, 200 do
      local n = g:int(1, 3)
      local shape = g:nesting(n)(g:extents(n, 64))
      local I = cute.make_identity_tensor(shape)
      for i = 0, cute.size(I:layout()) - 1 do
        R.eq(cute.tuple_tostring(I(i)), cute.tuple_tostring(cute.idx2crd(i, shape)),
             "identity tensor of %s at %d", cute.tuple_tostring(shape), i)
      end
    end
  end)

  it("local_tile and local_partition of a tensor read the tile's values", function()
    for _i = 1, 200 do
      local M, N = g:pick {4, 8, 16}, g:pick {4, 8, 16}
      local A = g:int(0, 1) == 0 and L(("(%d,%d):(1,%d)"):format(M, N, M))
                or cute.layout_right {M, N}
      local T = cute.make_tensor(cute.counting_iterator(0), A)
      local tm, tn = g:pick {1, 2, 4}, g:pick {1, 2, 4}
      local bm, bn = g:int(0, M // tm - 1), g:int(0, N // tn - 1)
      local t = cute.local_tile(T, {tm, tn}, {bm, bn})
      for i = 0, tm - 1 do
        for j = 0, tn - 1 do
          R.eq(t(i, j), A(bm * tm + i, bn * tn + j), "tile of %s", tostring(A))
        end
      end
      local thr = L "(2,2):(1,2)"
      local p = g:int(0, 3)
      local P = cute.local_partition(T, thr, p)
      local pm, pn = p % 2, p // 2
      for i = 0, M // 2 - 1 do
        for j = 0, N // 2 - 1 do
          R.eq(P(i, j), A(i * 2 + pm, j * 2 + pn), "partition %d of %s", p, tostring(A))
        end
      end
    end
  end)

  it("make_fragment_like is compact, keeps mode 0's zeros and the shape", function()
    for _i = 1, 500 do
      local A = g:layout()
      local F = cute.make_fragment_like(A):layout()
      R.eq(cute.tuple_tostring(F:shape()), cute.tuple_tostring(A:shape()),
           "shape of make_fragment_like(%s)", tostring(A))
      local seen, distinct = {}, 0
      for i = 0, cute.size(F) - 1 do
        local v = F(i)
        if not seen[v] then seen[v], distinct = true, distinct + 1 end
        R.ok(v >= 0 and v < cute.cosize(F), "image of %s", tostring(F))
      end
      R.eq(distinct, cute.cosize(F), "make_fragment_like(%s) = %s is compact",
           tostring(A), tostring(F))
    end
  end)
end)
