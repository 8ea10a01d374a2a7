-- Operand handling of cute.core's C functions (bindings/): integer
-- operands of concat, composed-layout slice errors, text input forms.
local cute = require "cute"
local core = require "cute.core"
local L = cute.layout

describe("bindings operands", function()
  it("concat takes any number of integer operands (each n as n:1)", function()
    local r = core.concat(1, 2, 3, 4, 5, 6, 7, 8, 9, 10)
    assert.equal("(1,2,3,4,5,6,7,8,9,10):(1,1,1,1,1,1,1,1,1,1)", tostring(r))
    r = core.concat(L "(4,8):(1,4)", 9, 2)
    assert.equal("((4,8),9,2):((1,4),1,1)", tostring(r))
  end)

  it("names the operation and operands when a composed slice overflows", function()
    local C = cute.composed("Sw<1,0,1> o 4611686018427387904 o (2,2):(1,4611686018427387904)")
    local ok, err = pcall(function() return C(cute._, 1) end)
    assert.is_false(ok)
    assert.matches("slice(Sw<1,0,1> o 4611686018427387904 o "
      .. "(2,2):(1,4611686018427387904), (_,1)): offset "
      .. "4611686018427387904 plus the composed offset overflows 64 bits",
      err, 1, true)
  end)

  it("skips \\r like other white space before Sw<", function()
    local C = L "\r\n Sw<1,0,1> o 0 o (4,8):(1,4)"
    assert.equal("Sw<1,0,1> o 0 o (4,8):(1,4)", tostring(C))
  end)
end)
