-- cute.composition(A, {T0, T1, ...}) with a flat tiler of layouts and
-- integers runs the algebra's one-pass by-mode composition in C
-- (core.composition_tiler); everything else (`_`, nested tilers, errors)
-- goes through the Lua tiler.  Both paths must agree on every result, and
-- the C path must step aside (nil) wherever the Lua path raises.
local cute = require "cute"
local core = require "cute.core"
local tiler = require "cute.tiler"
local R = require "helpers.random"

local function lua_path(A, T)
  return tiler.bymode(core.composition, "composition", A, T, false)
end

describe("flat tilers in C", function()
  it("agree with the Lua tiler on random layouts and tilers", function()
    local g, agreed, refused = R.new(2026), 0, 0
    for _ = 1, 3000 do
      local A = g:layout()
      local T = {}
      for i = 1, g:int(1, cute.rank(A)) do
        T[i] = g:int(0, 1) == 0 and g:int(1, 8)
               or cute.layout(g:int(1, 6), g:int(0, 4))
      end
      local ok, want = pcall(lua_path, A, T)
      local got = core.composition_tiler(A, T)
      if ok then
        assert.are.equal(tostring(want), tostring(got))
        agreed = agreed + 1
      else
        assert.is_nil(got)
        refused = refused + 1
      end
    end
    assert.is_true(agreed > 1000 and refused > 0)
  end)

  it("steps aside for `_`, nested tilers, holes and other keys", function()
    local A = cute.layout "(8,16):(20,1)"
    assert.is_nil(core.composition_tiler(A, {cute._, 4}))
    assert.is_nil(core.composition_tiler(A, {{2, 2}, 4}))
    assert.is_nil(core.composition_tiler(A, {[1] = 4, [3] = 8}))
    assert.is_nil(core.composition_tiler(A, {4, x = 8}))
    assert.are.equal("(4,8):(20,2)",
                     tostring(cute.composition(A, {4, cute.layout "8:2"})))
  end)
end)
