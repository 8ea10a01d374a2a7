-- cute.explain: on seeded random layouts, every derivation it prints for
-- a call that succeeds ends in the call's own result and its brute-force
-- check passes; every failure about colliding coordinates names two
-- coordinates that really collide.
local cute = require "cute"

local seed = 20261124
local function rand(n)
  seed = (seed * 1103515245 + 12345) % 2147483648
  return seed % n
end
local function random_layout()
  local r = rand(3) + 1
  local s, d = {}, {}
  for i = 1, r do s[i], d[i] = rand(4) + 1, rand(9) end
  return cute.layout(s, d)
end

describe("cute.explain", function()
  it("derives successful calls step by step and checks them", function()
    local seen = {}
    for _ = 1, 400 do
      local A, B = random_layout(), random_layout()
      for _, name in ipairs { "composition", "logical_divide", "zipped_divide",
                              "logical_product", "blocked_product",
                              "raked_product", "complement", "left_inverse",
                              "right_inverse" } do
        local args = { A, B }
        if name == "complement" or name:match("inverse") then args = { A } end
        local ok, R = pcall(cute[name], table.unpack(args))
        local text = cute.explain(name, table.unpack(args))
        if ok then
          seen[name] = true
          assert.truthy(text:find("\n  = " .. tostring(R), 1, true), text)
          assert.falsy(text:find("CHECK FAILED", 1, true), text)
        else
          assert.truthy(text:find("fails: ", 1, true), text)
        end
      end
    end
    assert.truthy(seen.composition and seen.logical_divide and seen.complement)
  end)

  it("names two colliding coordinates when a layout is not injective",
     function()
    local n = 0
    for _ = 1, 300 do
      local A = random_layout()
      local ok = pcall(cute.left_inverse, A)
      if not ok then
        local text = cute.explain("left_inverse", A)
        local i, j = text:match("%(indices (%d+) and (%d+)%)")
        if i then
          n = n + 1
          assert.are_not.equal(i, j)
          assert.equal(A(tonumber(i)), A(tonumber(j)))
        end
      end
    end
    assert.is_true(n > 10, "counterexamples found: " .. n)
  end)

  it("refuses what is not a function of cute", function()
    assert.has_error(function() cute.explain("nope") end,
      "explain: nope is not a function of cute")
  end)
end)
