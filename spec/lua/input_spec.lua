-- Input checks of the bindings (design.md "Errors": misuse raises an error
-- with a precise message, never a silently different result).
local cute = require "cute"
local L = cute.layout

local function err(f, ...)
  local ok, msg = pcall(f, ...)
  assert.is_false(ok, "expected an error")
  assert.equal("string", type(msg))
  return msg
end

local MIN = "integer -9223372036854775808 is out of range"

describe("math.mininteger", function()
  -- INT64_MIN is the slice marker's representation in C: as a Lua integer
  -- it used to read as `_` and A(math.mininteger, 2) returned a slice.
  it("is refused in coordinates, not read as the slice marker", function()
    local A = L "(4,8):(1,4)"
    assert.matches(MIN, err(A, math.mininteger, 2), 1, true)
    assert.matches(MIN, err(A, 1, math.mininteger), 1, true)
    assert.matches(MIN, err(A, {math.mininteger, 2}), 1, true)
    assert.matches(MIN, err(A, math.mininteger), 1, true)
    assert.matches(MIN, err(A, -2.0 ^ 63), 1, true)
    local C = cute.composed(cute.swizzle(1, 0, 1), L "(4,8):(1,4)")
    assert.matches(MIN, err(C, math.mininteger, 2), 1, true)
    assert.matches(MIN, err(C, math.mininteger), 1, true)
  end)

  it("is refused in shapes, strides and tuples", function()
    assert.matches(MIN, err(L, {4, 8}, {1, math.mininteger}), 1, true)
    assert.matches(MIN, err(L, {4, math.mininteger}), 1, true)
    assert.matches(MIN, err(L, {4}, {math.mininteger * cute.E(0)}), 1, true)
    assert.matches(MIN, err(cute.crd2idx, {math.mininteger, 1}, {4, 8}), 1, true)
    assert.matches(MIN, err(cute.tuple_tostring, {1, {math.mininteger}}), 1, true)
    assert.matches(MIN, err(cute.coalesce, L "(4,8):(1,4)", {math.mininteger}), 1, true)
  end)

  it("leaves the other extreme integers and cute._ alone", function()
    local A = L "(4,8):(1,4)"
    assert.equal(math.mininteger + 1, cute.crd2idx({math.mininteger + 1}, {4}))
    local S = A(2, cute._)
    assert.equal("8:4", tostring(S))
    assert.equal("(_,2)", cute.tuple_tostring {cute._, 2})
  end)
end)
