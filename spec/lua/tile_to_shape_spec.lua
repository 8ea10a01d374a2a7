-- tile_to_shape(block, shape [, order]): CuTe's documented smem case, and
-- its definition checked on random compact blocks: the result covers the
-- shape, block copies are placed in the grid order, and every copy is the
-- block shifted by its grid offset.
local cute = require "cute"
local R = require "helpers.random"
local L = cute.layout

describe("tile_to_shape", function()
  it("tiles the GEMM tutorial's swizzled smem atom to (128,64,3)", function()
    local A = cute.make_smem_layout_atom("K_SW128", 16)
    assert.equal("Sw<3,3,3> o 0 o ((8,16),(64,1),(1,3)):((64,512),(1,0),(0,8192))",
                 tostring(cute.tile_to_shape(A, {128, 64, 3})))
    assert.equal("((8,16),(64,2)):((64,1024),(1,512))",
                 tostring(cute.tile_to_shape(L "(8,64):(64,1)", {128, 128}, {1, 0})))
    assert.error_matches(function() cute.tile_to_shape(L "(8,64):(64,1)", {12, 64}) end,
      "block mode 0 (size 8) does not divide the shape's (12)", 1, true)
  end)

  it("places the block at every grid position, in the grid's order", function()
    local g = R.new(99)
    for _i = 1, 300 do
      local b1, b2 = g:pick {1, 2, 4}, g:pick {1, 2, 3}
      local block = g:int(0, 1) == 0 and L(("(%d,%d):(1,%d)"):format(b1, b2, b1))
                    or cute.layout_right {b1, b2}
      local n1, n2 = g:int(1, 4), g:int(1, 4)
      local order = g:int(0, 1) == 0 and {0, 1} or {1, 0}
      local T = cute.tile_to_shape(block, {b1 * n1, b2 * n2}, order)
      local grid = cute.make_ordered_layout({n1, n2}, order)
      for i = 0, b1 - 1 do
        for j = 0, b2 - 1 do
          for p = 0, n1 - 1 do
            for q = 0, n2 - 1 do
              R.eq(T({{i, p}, {j, q}}), block(i, j) + b1 * b2 * grid(p, q),
                   "tile_to_shape(%s, (%d,%d))", tostring(block), b1 * n1, b2 * n2)
            end
          end
        end
      end
    end
  end)
end)
