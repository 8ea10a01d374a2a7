-- examples/tour.lua runs to the end and every paper value it prints
-- matches (the tour raises an error otherwise).
local here = debug.getinfo(1, "S").source:match("^@(.*)spec/lua/[^/]*$") or "./"

describe("examples/tour.lua", function()
  it("runs and agrees with the paper", function()
    local chunk = assert(loadfile(here .. "examples/tour.lua"))
    local out = {}
    local print_, write_ = _G.print, io.write
    _G.print = function(...)
      local t = table.pack(...)
      for i = 1, t.n do t[i] = tostring(t[i]) end
      out[#out + 1] = table.concat(t, "\t") .. "\n"
    end
    io.write = function(...) for _, s in ipairs {...} do out[#out + 1] = s end end
    local ok, err = pcall(chunk)
    _G.print, io.write = print_, write_
    assert.is_true(ok, err)
    local text = table.concat(out)
    assert.matches("Every value above matches the paper.", text, 1, true)
    assert.matches("((3,2),(4,5)):((4,12),(1,24))\n", text, 1, true)
  end)
end)
