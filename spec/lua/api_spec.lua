-- The public Lua API of docs/architecture.md: every name exists, with its kind.
local cute = require "cute"

describe("the cute module", function()
  it("has every name of the public Lua API", function()
    local functions = {
      "layout", "layout_right", "size", "cosize", "rank", "depth",
      "coalesce", "filter_zeros", "filter", "composition", "complement",
      "right_inverse", "left_inverse",
      "logical_divide", "zipped_divide", "tiled_divide", "flat_divide",
      "logical_product", "zipped_product", "tiled_product", "flat_product",
      "blocked_product", "raked_product",
      "max_common_vector", "max_common_layout", "crd2idx", "idx2crd",
      "tuple", "tuple_tostring", "make_identity_layout", "swizzle",
      "composed", "print_layout",
      -- beyond that page: CuTe names the stdlib is built from
      "E", "make_layout", "local_tile", "local_partition", "format_layout",
      "flatten", "group_modes", "take", "select", "append", "prepend",
      "replace", "upcast", "downcast", "recast", "congruent",
      "weakly_congruent", "compatible", "tiler_tostring"}
    for _, name in ipairs(functions) do
      assert.equal("function", type(cute[name]), name)
    end
    assert.is_not_nil(cute._)
  end)

  it("layouts have the documented methods and metatable names", function()
    local A = cute.layout "(4,8):(1,4)"
    for _, m in ipairs {"shape", "stride", "mode", "size", "cosize", "rank", "depth"} do
      assert.equal("function", type(A[m]), m)
    end
    assert.equal("cute.Layout", getmetatable(A).__name)
    assert.equal("cute.Swizzle", getmetatable(cute.swizzle(3, 4, 3)).__name)
    assert.equal("cute.ComposedLayout",
                 getmetatable(cute.composed(cute.swizzle(3, 4, 3), 0, A)).__name)
    assert.equal("cute.E", getmetatable(cute.E(0)).__name)
  end)

  it("layouts are values: equal text, equal layouts", function()
    local A, B = cute.layout "(4,8):(1,4)", cute.layout {4, 8}
    assert.is_false(rawequal(A, B))
    assert.is_true(A == B)
  end)
end)
