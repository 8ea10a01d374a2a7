-- The API reference (docs/api/*.md) has an entry for every public name:
-- each function of cute and its submodules, each type and method
-- (cute.help.public() says which), and every page is listed in the index
-- docs/api/README.md.  The examples of the entries run as the ctests
-- docs.api_*.
local help = require "cute.help"

describe("the API reference docs/api", function()
  it("lists every page in docs/api/README.md", function()
    local index = assert(io.open("docs/api/README.md")):read("a")
    local missing = {}
    for page in assert(io.popen("ls docs/api")):lines() do
      if page ~= "README.md" and not index:find("(" .. page .. ")", 1, true) then
        missing[#missing + 1] = page
      end
    end
    assert(#missing == 0, "docs/api/README.md does not link the page(s) "
      .. table.concat(missing, ", ") .. ": add a line `- [title](page.md)`")
  end)

  it("has an entry for every public function, type and method", function()
    local entries = help.entries()
    local missing = {}
    for name in pairs(help.public()) do
      if not entries[name] then missing[#missing + 1] = name end
    end
    table.sort(missing)
    assert(#missing == 0, #missing .. " public name(s) without an entry in "
      .. "docs/api/*.md: " .. table.concat(missing, ", ")
      .. ".  Add for each a section `### <name>` (the format is in "
      .. "docs/api/README.md) to the page of its module.")
  end)

  it("gives every entry of a function or method a signature and an example",
     function()
    local entries = help.entries()
    local bad = {}
    for name, v in pairs(help.public()) do
      local e = entries[name]
      if e and type(v) == "function" then
        if not e.text:find("\n```lua", 1, true) then
          bad[#bad + 1] = name .. " (no ```lua example)"
        end
        -- the first line after the heading: `f(args) -> result` ...
        if not e.text:match("^[^\n]*\n+`[^`\n]*[%({]") then
          bad[#bad + 1] = name .. " (no `signature(...)` line under the heading)"
        end
      end
    end
    table.sort(bad)
    assert(#bad == 0, "entries of docs/api/*.md lacking parts: "
      .. table.concat(bad, ", "))
  end)

  it("help finds an entry by value, by name and by a value's type", function()
    local cute = require "cute"
    assert.matches("^cute%.composition", help.text(cute.composition))
    assert.matches("^cute%.composition", help.text "composition")
    assert.matches("^Layout\n", help.text(cute.layout "4:1"))
    assert.matches("no entry named", help.text "no_such_function")
  end)
end)
