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
      assert.matches("render((100000,100000):(1,100000)): " .. limit,
                     msg(cute.render, big, f), 1, true)
    end
    local path = os.tmpname()
    os.remove(path)
    assert.matches(limit, msg(cute.show, big, path .. ".svg"), 1, true)
    assert.matches(limit, msg(cute.show, "(100000,100000):(1,100000)"), 1, true)
  end)

  it("refuses a TV picture over a huge tile", function()
    assert.matches("render((32,4):(1,32)): 1000000 cells exceed the limit",
                   msg(cute.render, cute.layout "(32,4):(1,32)", "svg",
                       { tile = { 1000, 1000 } }), 1, true)
  end)

  it("still draws a layout of exactly 65536 cells", function()
    assert.truthy(#cute.render(cute.layout "(256,256):(1,256)", "txt") > 0)
  end)

  -- Cell counts are products of sizes: in Lua integers 2^32 * 2^32 wraps
  -- to 0 and 3037000500^2 to a negative number, which passed the check and
  -- drew for ever.  limits.product counts in floating point.
  describe("counts sizes without wrapping", function()
    local shapes = {
      { "(4294967296,4294967296):(0,0)", "1.84e+19" },
      { "(3037000500,3037000500):(1,0)", "9.22e+18" },
      { "(2147483648,4294967296):(1,0)", "9.22e+18" },
      { "(4611686018427387904,2):(1,0)", "9.22e+18" },
      { "(3,6148914691236517205):(0,1)", "1.84e+19" },
    }
    local entries = {
      print_layout = function(L) return cute.print_layout(L) end,
      format_layout = function(L) return cute.format_layout(L) end,
      show = function(L) return cute.show(L) end,
      show_file = function(L) return cute.show(L, "never.svg") end,
      show_text = function(L) return cute.show(tostring(L)) end,
    }
    for _, f in ipairs { "svg", "html", "tex", "txt" } do
      entries["render_" .. f] = function(L) return cute.render(L, f) end
    end
    for _, case in ipairs(shapes) do
      for name, entry in pairs(entries) do
        it(name .. " refuses " .. case[1], function()
          local m = msg(entry, cute.layout(case[1]))
          assert.matches(case[2] .. " cells exceed the limit of 65536 cells",
                         m, 1, true)
        end)
      end
    end

    it("in a rank-3 layout's panels and an operation's three layouts",
       function()
      for _, text in ipairs { "(65536,65536,4294967296):(0,0,0)",
                              "(2,2,4611686018427387904):(0,0,0)" } do
        assert.matches("cells exceed the limit",
          msg(cute.render, cute.layout(text), "svg"), 1, true)
      end
      local big = cute.layout "4611686018427387904:0"
      local op = cute.operation("coalesce", big)  -- 2 x 2^62 cells: 2^63
      assert.matches("9.22e+18 cells exceed the limit",
        msg(cute.render, op, "svg"), 1, true)
    end)

    it("in a TV picture's tile, an MMA's and a copy's tiles", function()
      for _, tile in ipairs { { 4294967296, 4294967296 },
                              { 3037000500, 3037000500 },
                              { { 65536, 65536 }, { 65536, 65536 } } } do
        assert.matches("cells exceed the limit",
          msg(cute.render, cute.layout "(32,4):(1,32)", "svg", { tile = tile }),
          1, true)
      end
    end)

    it("near 2^63 from random size pairs, in every entry", function()
      local rng = require("helpers.random").new(15)
      for _ = 1, 200 do
        local a = rng:int(2, 1 << 40)
        local b = (math.maxinteger // a) + rng:int(1, 3)  -- a * b > 2^63 - 1
        local L = cute.layout({ a, b }, { 0, 0 })
        for _, entry in pairs(entries) do
          assert.matches("cells exceed the limit", msg(entry, L), 1, true)
        end
      end
    end)
  end)

  it("names the public call, not a step, in every message", function()
    local wide = cute.layout "(2,2):(4611686018427387904,4611686018427387904)"
    local m = msg(cute.print_layout, wide)
    assert.matches("^[^\n]-print_layout%(%(2,2%)", m)
    assert.matches("bad argument #1 to 'format_layout'",
                   msg(cute.format_layout, 5), 1, true)
    assert.matches("bad argument #3 to 'render' (options table expected, "
                   .. "got function)",
                   msg(cute.render, cute.layout "4:1", "svg", print), 1, true)
    -- format_layout takes no second argument: an extra one is ignored
    assert.equal(cute.format_layout(cute.layout "4:1"),
                 cute.format_layout(cute.layout "4:1", {}))
  end)
end)
