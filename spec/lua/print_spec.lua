-- print_layout: CuTe's 2-D table (cute/util/print_latex... print_layout in
-- layout.hpp), character for character.  Cells are num_digits(cosize)
-- wide; "+" rules of width + 2 dashes; row labels "%2d  ".
local cute = require "cute"
local L = cute.layout

describe("print_layout", function()
  it("prints a small row-major layout exactly like CuTe", function()
    local expect = table.concat({
      "(2,3):(3,1)",
      "      0   1   2 ",
      "    +---+---+---+",
      " 0  | 0 | 1 | 2 |",
      "    +---+---+---+",
      " 1  | 3 | 4 | 5 |",
      "    +---+---+---+",
      ""}, "\n")
    assert.equal(expect, cute.format_layout(L "(2,3):(3,1)"))
  end)

  it("widens cells to the digits of the cosize", function()
    local s = cute.format_layout(L "(4,8):(1,4)")
    local lines = {}
    for line in s:gmatch("([^\n]*)\n") do lines[#lines + 1] = line end
    assert.equal(1 + 1 + 2 * 4 + 1, #lines)
    assert.equal("(4,8):(1,4)", lines[1])
    assert.equal("       0    1    2    3    4    5    6    7 ", lines[2])
    assert.equal("    " .. ("+----"):rep(8) .. "+", lines[3])
    assert.equal(" 0  |  0 |  4 |  8 | 12 | 16 | 20 | 24 | 28 |", lines[4])
    assert.equal(" 3  |  3 |  7 | 11 | 15 | 19 | 23 | 27 | 31 |", lines[10])
    assert.equal(lines[3], lines[11])
  end)

  it("uses cosize, not the largest value, for the width (as CuTe)", function()
    -- cosize((2,2):(1,50)) = 52: two digits, though 51 is the largest value
    local s = cute.format_layout(L "(2,2):(1,50)")
    assert.matches(" 1  |  1 | 51 |\n", s, 1, true)
    -- a 100-wide layout: three digits
    s = cute.format_layout(L "(1,2):(1,100)")
    assert.matches(" 0  |   0 | 100 |\n", s, 1, true)
  end)

  it("prints hierarchical layouts by their rank-2 coordinates", function()
    local s = cute.format_layout(L "((2,2),(2,2)):((1,4),(2,8))")
    assert.matches("^%(%(2,2%),%(2,2%)%):%(%(1,4%),%(2,8%)%)\n", s)
    assert.matches(" 2  |  4 |  6 | 12 | 14 |\n", s, 1, true)
  end)

  it("prints swizzled (composed) layouts", function()
    local C = cute.composed(cute.swizzle(1, 0, 1), 0, L "(2,2):(2,1)")
    local expect = table.concat({
      "Sw<1,0,1> o 0 o (2,2):(2,1)",
      "      0   1 ",
      "    +---+---+",
      " 0  | 0 | 1 |",
      "    +---+---+",
      " 1  | 3 | 2 |",
      "    +---+---+",
      ""}, "\n")
    assert.equal(expect, cute.format_layout(C))
  end)

  it("shows a rank-1 layout as one column, coordinates as tuples", function()
    assert.matches(" 2  | 4 |\n", cute.format_layout(L "3:2"), 1, true)
    local s = cute.format_layout(cute.make_identity_layout {2, 2})
    assert.matches(" 1  | (1,0) | (1,1) |\n", s, 1, true)
  end)

  it("writes to io.write", function()
    local out = {}
    local write = io.write
    io.write = function(...) for _, v in ipairs {...} do out[#out + 1] = v end end
    local ok, err = pcall(cute.print_layout, L "(2,3):(3,1)")
    io.write = write
    assert.is_true(ok, err)
    assert.equal(cute.format_layout(L "(2,3):(3,1)"), table.concat(out))
  end)

  it("refuses rank > 2 and non-layouts", function()
    assert.has_error(function() cute.format_layout(L "(2,2,2)") end)
    assert.has_error(function() cute.format_layout {2, 2} end)
  end)
end)
