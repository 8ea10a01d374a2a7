-- The cell limit of print_layout and the pictures (cute.print.max_cells):
-- a huge layout is refused at once, with its size, instead of never ending.
local cute = require "cute"
local msg = require "helpers.err"

describe("picture and print_layout cell limit", function()
  local big = cute.layout "(100000,100000):(1,100000)"
  local limit = "10000000000 cells exceed the limit of 65536 cells"

  it("is 65536 cells", function()
    assert.equal(65536, require("cute.print").max_cells)
  end)

  it("refuses a huge layout in print_layout and every picture format", function()
    assert.matches("print_layout((100000,100000):(1,100000)): " .. limit,
                   msg(cute.print_layout, big), 1, true)
    for _, f in ipairs { "svg", "html", "tex", "txt" } do
      assert.matches("show((100000,100000):(1,100000)): " .. limit,
                     msg(cute.render, big, f), 1, true)
    end
    local path = os.tmpname()
    os.remove(path)
    assert.matches(limit, msg(cute.show, big, path .. ".svg"), 1, true)
    assert.matches(limit, msg(cute.show, "(100000,100000):(1,100000)"), 1, true)
  end)

  it("refuses a TV picture over a huge tile", function()
    assert.matches("show((32,4):(1,32)): 1000000 cells exceed the limit",
                   msg(cute.render, cute.layout "(32,4):(1,32)", "svg",
                       { tile = { 1000, 1000 } }), 1, true)
  end)

  it("still draws a layout of exactly 65536 cells", function()
    assert.truthy(#cute.render(cute.layout "(256,256):(1,256)", "txt") > 0)
  end)
end)
