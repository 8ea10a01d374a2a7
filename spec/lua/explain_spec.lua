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

  -- The numbers of a failing composition's counterexample, re-evaluated:
  -- every A(x) = v it states holds, and the steps (or the sum) it says
  -- differ do differ.
  local function check_counterexample(A, text)
    local b0, b1, d, v0, v1 = {}, {}, {}, {}, {}
    for x0, x1, step, y0, y1 in text:gmatch("from B%b() = (%-?%d+) to B%b() "
        .. "= (%-?%d+) it steps by (%-?%d+) %(A%b() = (%-?%d+), A%b() = "
        .. "(%-?%d+)%)") do
      b0[#b0 + 1], b1[#b1 + 1], d[#d + 1] = tonumber(x0), tonumber(x1),
        tonumber(step)
      v0[#v0 + 1], v1[#v1 + 1] = tonumber(y0), tonumber(y1)
    end
    if #d == 2 then
      for k = 1, 2 do
        assert.equal(A(b0[k]), v0[k], text)
        assert.equal(A(b1[k]), v1[k], text)
        assert.equal(v1[k] - v0[k], d[k], text)
      end
      assert.are_not.equal(d[1], d[2], text)
      return "uneven"
    end
    local x, v, rest = text:match("counterexample: R%b() = A%(B%b()%) = "
      .. "A%((%-?%d+)%) = (%-?%d+), but ([^\n]*)")
    if x then
      assert.equal(A(tonumber(x)), tonumber(v), text)
      local terms, sum = rest:match "= ([^=]*) = [^=]* = (%-?%d+)$"
      local total = 0
      for k in terms:gmatch "A%((%-?%d+)%)" do total = total + A(tonumber(k)) end
      assert.equal(total, tonumber(sum), text)
      assert.are_not.equal(tonumber(v), total, text)
      return "carry"
    end
  end

  it("gives a failing composition's condition, the violating mode and a "
    .. "counterexample", function()
    local found = {}
    for _ = 1, 3000 do
      local A, B = random_layout(), random_layout()
      local ok, err = pcall(cute.composition, A, B)
      if not ok and tostring(err):find("condition violated") then
        local text = cute.explain("composition", A, B)
        assert.truthy(text:find("the condition (paper 3.3", 1, true), text)
        local kind = check_counterexample(A, text)
        if kind == "uneven" then
          assert.truthy(text:find("leaf %d+ of B, %d+:%-?%d+, violates it"),
            text)
        elseif not kind then
          -- refused though a layout takes the values along the leaf
          local vals = text:match "no counterexample along it: R takes ([^;]*) there"
          assert.truthy(vals, text)
          local v = {}
          for x in vals:gmatch "%-?%d+" do v[#v + 1] = tonumber(x) end
          for k = 3, #v do assert.equal(v[2] - v[1], v[k] - v[k - 1], text) end
        end
        found[kind or "none"] = (found[kind or "none"] or 0) + 1
      end
    end
    assert.is_true((found.uneven or 0) > 20 and (found.carry or 0) > 1,
      ("uneven %s, carry %s, none %s"):format(found.uneven, found.carry,
        found.none))
  end)

  it("explains the paper's failing examples", function()
    local L = cute.layout
    local text = cute.explain("composition", L "(4,8):(1,5)", L "4:3")
    assert.truthy(text:find("stride divisibility", 1, true))
    assert.truthy(text:find("takes 0, 3, 7, 11: from B(0) = 0 to B(1) = 3 "
      .. "it steps by 3 (A(0,0) = 0, A(3,0) = 3), but from B(1) = 3 to "
      .. "B(2) = 6 it steps by 4 (A(3,0) = 3, A(2,1) = 7)", 1, true), text)
    assert.truthy(text:find("no layout of size 4", 1, true), text)
    text = cute.explain("composition", L "(4,2):(1,10)", L "(2,2):(3,1)")
    assert.truthy(text:find("counterexample: R(1,1) = A(B(1,1)) = A(4) = 10, "
      .. "but R(1,0) + R(0,1) = A(3) + A(1) = 3 + 1 = 4", 1, true), text)
    text = cute.explain("logical_divide", L "(4,8):(1,5)", L "4:3")
    assert.truthy(text:find("(B, B*) = (4,(3,3)):(3,(1,12))", 1, true), text)
    assert.equal("uneven", check_counterexample(L "(4,8):(1,5)", text))
  end)

  it("shows which offsets of A each leaf of B picks", function()
    local text = cute.explain("composition", cute.layout "(6,2):(8,2)",
      cute.layout "(4,3):(3,1)")
    assert.truthy(text:find("A o 4:3: A at 0, 3, 6, 9: offsets 0, 24, 2, 26 "
      .. "= (2,2):(24,2)", 1, true), text)
    assert.truthy(text:find("A o 3:1: A at 0, 1, 2: offsets 0, 8, 16 = 3:8",
      1, true), text)
  end)

  it("refuses what is not a function of cute", function()
    assert.has_error(function() cute.explain("nope") end,
      "explain: nope is not a function of cute (composition, "
      .. "logical_divide, blocked_product, ...)")
  end)

  -- it called print_layout, which printed, then explained "= nil"
  it("refuses a function that writes, before it writes anything", function()
    local written, write, print0 = {}, io.write, print
    io.write = function(...) written[#written + 1] = table.concat {...} end
    print = function(...) written[#written + 1] = table.concat {...} end
    local ok, msg = pcall(cute.explain, "print_layout", cute.layout "(4,8):(1,4)")
    io.write, print = write, print0
    assert.is_false(ok)
    assert.equal("explain: print_layout writes its output and returns no "
      .. "result (format_layout returns it)", msg)
    assert.same({}, written)
  end)
end)
