-- Layout operations on composed layouts F o off o L, by CuTe's rule: the
-- operation applies to L (the domain, CuTe's layout_b) and F and off are
-- kept.  Checked on random swizzles and layouts: every result is
-- F o off o op(L) and evaluates as F(off + op(L)(c)) at every coordinate;
-- a divide is still C o (B, B*); local_tile and local_partition fold their
-- offset into the composed offset; the inverses invert C where they claim
-- to, and refuse exactly where the swizzle leaves the inverse's domain.
local cute = require "cute"
local R = require "helpers.random"
local L, _ = cute.layout, cute._

local function random_swizzle(g)
  local b = g:int(0, 3)
  local s = g:int(math.max(b, 1), 4) * g:pick {1, 1, -1}
  return cute.swizzle(b, g:int(0, 4), s)
end

-- op(C, ...) == F o off o op(L, ...), with equal values at every index;
-- an op(L, ...) that is inadmissible (random operands) is so on C too.
local function check_rule(C, name, ...)
  local what = ("%s(%s, ...)"):format(name, tostring(C))
  local ok, want = pcall(cute[name], C:layout(), ...)
  if not ok then
    R.ok(not pcall(cute[name], C, ...), "%s accepted, %s", what, want)
    return nil
  end
  local got = cute[name](C, ...)
  R.eq(tostring(got), tostring(cute.composed(C:swizzle(), C:offset(), want)),
       what)
  for i = 0, cute.size(want) - 1 do
    R.eq(got(i), C:swizzle()(C:offset() + want(i)), "%s at %d", what, i)
  end
  return got
end

describe("operations on a composed layout", function()
  local C = cute.composed(cute.swizzle(3, 4, 3), 0, L "(8,64):(64,1)")

  it("keep the swizzle and offset, as CuTe prints them", function()
    assert.equal("Sw<3,4,3> o 0 o ((2,4),(8,8)):((64,128),(1,8))",
                 tostring(cute.logical_divide(C, {2, 8})))
    assert.equal("Sw<3,4,3> o 0 o ((2,8),(4,8)):((64,1),(128,8))",
                 tostring(cute.zipped_divide(C, {2, 8})))
    assert.equal("Sw<3,4,3> o 0 o ((2,8),4,8):((64,1),128,8)",
                 tostring(cute.tiled_divide(C, {2, 8})))
    assert.equal("Sw<3,4,3> o 0 o (2,8,4,8):(64,1,128,8)",
                 tostring(cute.flat_divide(C, {2, 8})))
    assert.equal("Sw<3,4,3> o 0 o ((8,64),(2,2)):((64,1),(512,1024))",
                 tostring(cute.zipped_product(C, L "(2,2)")))
    assert.equal("Sw<3,4,3> o 0 o ((8,2),(64,2)):((64,512),(1,1024))",
                 tostring(cute.blocked_product(C, L "(2,2)")))
    assert.equal("Sw<3,4,3> o 0 o (4,8):(64,1)",
                 tostring(cute.composition(C, {4, 8})))
    local T, z = cute.local_tile(C, {4, 8}, {1, 1})
    assert.equal("Sw<3,4,3> o 264 o (4,8):(64,1)", tostring(T))
    assert.equal(0, z)
    local P, z2 = cute.local_partition(C, L "(2,4)", 3)
    assert.equal("Sw<3,4,3> o 65 o (4,16):(128,4)", tostring(P))
    assert.equal(0, z2)
    assert.equal("Sw<3,4,3> o 0 o (8,64):(64,1)", tostring(cute.coalesce(C)))
  end)

  it("is F o off o op(L) on random swizzles, layouts and tilers", function()
    local g = R.new(1313)
    for _i = 1, 400 do
      local A = g:layout()
      local C = cute.composed(random_swizzle(g), g:int(0, 9), A)
      local B = g:tiler_for(A)
      local D = check_rule(C, "logical_divide", B)
      -- the divide's definition, on the composed layout itself
      local P = cute.make_layout(B, cute.complement(B, cute.size(A)))
      for i = 0, D and cute.size(P) - 1 or -1 do
        R.eq(D(i), C(P(i)), "logical_divide(%s, %s) at %d", tostring(C),
             tostring(B), i)
      end
      for _, name in ipairs {"zipped_divide", "tiled_divide", "flat_divide",
                             "logical_product", "zipped_product",
                             "tiled_product", "flat_product", "blocked_product",
                             "raked_product", "composition"} do
        check_rule(C, name, B)
      end
      check_rule(C, "coalesce")
      check_rule(C, "flatten")
      check_rule(C, "filter")
    end
  end)

  it("folds local_tile's and local_partition's offset into the composed one", function()
    local g = R.new(2121)
    for _i = 1, 300 do
      local A = g:injective(2)
      local sw, off = random_swizzle(g), g:int(0, 9)
      local C = cute.composed(sw, off, A)
      local m0, m1 = cute.size(A:mode(0)), cute.size(A:mode(1))
      local t0 = g:pick {1, 2, 4}
      local t1 = g:pick {1, 2, 3}
      local ok, U, o = m0 % t0 == 0 and m1 % t1 == 0
      local crd = ok and {g:int(0, m0 // t0 - 1), g:int(0, m1 // t1 - 1)}
      if ok then ok, U, o = pcall(cute.local_tile, A, {t0, t1}, crd) end
      if ok then
        local T, z = cute.local_tile(C, {t0, t1}, crd)
        R.eq(z, 0, "local_tile(%s) offset", tostring(C))
        for i = 0, cute.size(U) - 1 do
          R.eq(T(i), sw(off + o + U(i)), "local_tile(%s) at %d", tostring(C), i)
        end
        local thr = cute.layout {t0, t1}
        local k = g:int(0, t0 * t1 - 1)
        local Q, z2 = cute.local_partition(C, thr, k)
        local V, o2 = cute.local_partition(A, thr, k)
        R.eq(z2, 0, "local_partition(%s) offset", tostring(C))
        for i = 0, cute.size(V) - 1 do
          R.eq(Q(i), sw(off + o2 + V(i)), "local_partition(%s) at %d",
               tostring(C), i)
        end
      end
    end
  end)

  it("tiles a swizzle atom or a layout-composed block with tile_to_shape", function()
    local g = R.new(77)
    for _i = 1, 100 do
      local b1, b2 = g:pick {1, 2, 4}, g:pick {2, 8}
      local sw = random_swizzle(g)
      local C = cute.composed(sw, 0, cute.layout_right {b1, b2})
      local n1, n2 = g:int(1, 3), g:int(1, 3)
      check_rule(C, "tile_to_shape", {b1 * n1, b2 * n2})
    end
    local F = cute.make_composed_layout(L "(4,8):(8,1)", 2, L "(2,2):(1,4)")
    local T = cute.tile_to_shape(F, {4, 4})
    assert.equal("(4,8):(8,1) o 2 o ((2,2),(2,2)):((1,2),(4,8))", tostring(T))
    for i = 0, 15 do
      R.eq(T(i), F.inner(2 + cute.tile_to_shape(F.outer, {4, 4})(i)), "%d", i)
    end
  end)

  it("applies to a composed layout whose inner function is a layout", function()
    local g = R.new(4242)
    for _i = 1, 300 do
      local inner, outer, off = g:layout(), g:layout(), g:int(0, 9)
      local F = cute.make_composed_layout(inner, off, outer)
      local B = g:tiler_for(outer)
      for _, name in ipairs {"logical_divide", "zipped_divide", "tiled_product",
                             "blocked_product", "composition"} do
        local ok, want = pcall(cute[name], outer, B)
        local got = ok and cute[name](F, B)
        for i = 0, ok and cute.size(want) - 1 or -1 do
          R.eq(got(i), inner(off + want(i)), "%s(%s, %s) at %d", name,
               tostring(F), tostring(B), i)
        end
      end
    end
  end)

  it("inverts F o 0 o L as inv(L) o 0 o F where the inverse holds", function()
    local R1 = cute.right_inverse(C)
    assert.equal("(64,8):(8,1) o 0 o Sw<3,4,3>", tostring(R1))
    local g = R.new(999)
    local refused = 0
    for _i = 1, 400 do
      local A = g:layout()
      local sw = random_swizzle(g)
      local D = cute.composed(sw, 0, A)
      local n = cute.size(cute.right_inverse(A))
      local ok, Ri = pcall(cute.right_inverse, D)
      if ok then
        for i = 0, n - 1 do
          R.eq(D(Ri(i)), i, "%s(right_inverse) at %d", tostring(D), i)
        end
      else
        refused = refused + 1
        R.ok(Ri:find("does not map [0, " .. n .. ")", 1, true), "%s", Ri)
        local _b, _m, s = sw:params()
        if s > 0 then            -- exact for s > 0: some i < n leaves [0, n)
          local out = false
          for i = 0, n - 1 do out = out or sw(i) >= n end
          R.ok(out, "right_inverse(%s) refused, yet %s keeps [0, %d)",
               tostring(D), tostring(sw), n)
        end
      end
      local I = g:injective(2)
      local E = cute.composed(sw, 0, I)
      local Li = cute.left_inverse(E)
      for i = 0, cute.size(I) - 1 do
        R.eq(Li(E(i)), i, "left_inverse(%s) at %d", tostring(E), i)
      end
    end
    assert.is_true(refused > 0)
  end)

  it("refuses what is not defined, naming the operation and why", function()
    assert.error_matches(function()
      cute.right_inverse(cute.composed(cute.swizzle(3, 4, 3), 2, L "(8,64):(64,1)"))
    end, "right_inverse(Sw<3,4,3> o 2 o (8,64):(64,1)): the offset 2 is not 0", 1, true)
    assert.error_matches(function()
      cute.right_inverse(cute.composed(cute.swizzle(1, 0, 1), 0, L "3:1"))
    end, "right_inverse(Sw<1,0,1> o 0 o 3:1): Sw<1,0,1>, the inverse of the "
      .. "inner function, does not map [0, 3) into the domain", 1, true)
    assert.error_matches(function()
      cute.logical_divide(cute.swizzle(3, 4, 3), {2})
    end, "cute.Layout expected, got cute.Swizzle", 1, true)
    -- an operation's error names the operand as given, swizzle included
    -- (it named the layout alone: found by spec/vm/test_api_monkey.c)
    local C = L "Sw<3,4,3> o 0 o (8,64):(64,1)"
    assert.error_matches(function() cute.take(C, 0, 5) end,
      "take(Sw<3,4,3> o 0 o (8,64):(64,1)): modes [0,5) outside [0,2]", 1, true)
    assert.error_matches(function() cute.logical_divide(C, {2, "x"}) end,
      "logical_divide(Sw<3,4,3> o 0 o (8,64):(64,1), <2:1,x>): tiler element x", 1, true)
    assert.error_matches(function() cute.upcast(C, 2) end,
      "got cute.ComposedLayout: the operation reads the layout's strides", 1, true)
  end)

  it("complements the layout of a composed layout, as CuTe", function()
    local g = R.new(31)
    for _i = 1, 200 do
      local A = g:injective(1)
      local D = cute.composed(random_swizzle(g), g:int(0, 9), A)
      R.eq(tostring(cute.complement(D)), tostring(cute.complement(A)), "%s", tostring(D))
      local m = cute.cosize(A) * g:int(1, 3)
      R.eq(tostring(cute.complement(D, m)), tostring(cute.complement(A, m)),
           "complement(%s, %d)", tostring(D), m)
    end
  end)
end)
