-- Divides by coordinate tilers: a tiler B whose strides a@i name modes of
-- A (the paper's tilers as coordinate layouts, 3.3.5: L o T = L o I o T).
-- A / B = A o (B, B*), B* taken mode by mode of A: the complement of B's
-- component along each mode p against size(A_p), lifted to e_p; a mode
-- B never names stays whole.  Checked against the divide's definition:
-- the tile is A o B, and (B, B*) covers A's domain exactly once.
local cute = require "cute"
local R = require "helpers.random"
local L = cute.layout

describe("divide by a coordinate tiler", function()
  it("logical_divide((8,8):(9,1), 4:1@0) and its arrangements", function()
    local A, B = L "(8,8):(9,1)", L "4:1@0"
    assert.equal("(4,(2,8)):(9,(36,1))", tostring(cute.logical_divide(A, B)))
    assert.equal("(4,(2,8)):(9,(36,1))", tostring(cute.zipped_divide(A, B)))
    assert.equal("(4,2,8):(9,36,1)", tostring(cute.tiled_divide(A, B)))
    assert.equal("(4,2,8):(9,36,1)", tostring(cute.flat_divide(A, B)))
    -- a tile across both modes, in the other order
    assert.equal("((2,4),(2,4)):((1,18),(9,2))",
                 tostring(cute.logical_divide(A, L "(2,4):(1@1,2@0)")))
    -- a nested basis names a sub-mode
    assert.equal("((2,2),(4,(2,2))):((9,1),(18,(2,100)))",
                 tostring(cute.logical_divide(L "(8,(4,2)):(9,(1,100))",
                                              L "(2,2):(1@0,1@0@1)")))
  end)

  it("refuses sums, integers mixed in, modes A lacks", function()
    local A = L "(8,8):(9,1)"
    assert.has_error(function() cute.logical_divide(A, L "2:1@0+1@1") end,
      "logical_divide((8,8):(9,1), 2:1@0+1@1): stride leaf 0 of the tiler is "
      .. "a sum, which moves along several modes at once: the rest is taken "
      .. "mode by mode")
    assert.has_error(function() cute.logical_divide(A, L "2:1@2") end,
      "logical_divide((8,8):(9,1), 2:1@2): stride leaf 0 of the tiler names "
      .. "mode 2 of a rank-2 layout")
    assert.has_error(function() cute.logical_divide(A, L "(2,2):(1@0,4)") end,
      "logical_divide((8,8):(9,1), (2,2):(1@0,4)): strides of the tiler mix "
      .. "integers and basis elements")
  end)

  it("tile = A o B and (B, B*) covers A once (random)", function()
    local g = R.new(91)
    local done = 0
    for _ = 1, 1500 do
      local A = g:injective(2)
      -- B: a random injective tile of one or both modes, as coordinates
      local m0, m1 = A:mode(0), A:mode(1)
      local t0 = g:tiler_for(cute.layout(m0:shape()))
      local t1 = g:tiler_for(cute.layout(m1:shape()))
      local I = cute.make_identity_layout(A:shape())
      local which = g:int(0, 2)
      local T = which == 0 and { t0 } or which == 1 and { cute._, t1 } or { t0, t1 }
      local okB, B = pcall(cute.composition, I, T)
      local ok, D = false, nil
      if okB then ok, D = pcall(cute.logical_divide, A, B) end
      if ok then
        done = done + 1
        R.eq(cute.size(D), cute.size(A), "size of %s / %s", A, B)
        R.eq(tostring(cute.coalesce(D:mode(0))),
             tostring(cute.coalesce(cute.composition(A, B))), "tile of %s / %s", A, B)
        R.eq(table.concat(R.sorted(R.values(D)), ","),
             table.concat(R.sorted(R.values(A)), ","), "image of %s / %s", A, B)
      end
    end
    assert.is_true(done > 1000, "too few divides: " .. done)
  end)
end)
