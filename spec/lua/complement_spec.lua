-- Complement (paper 3.5, Table 7): disjoint from A, strictly increasing.
local cute = require "cute"
local R = require "helpers.random"
local L = cute.layout

describe("complement", function()
  it("Table 7", function()
    local rows = {
      {"(4,8):(1,4)", "1:32"},
      {"(4,8):(8,1)", "1:32"},
      {"(4,(4,2)):(4,(1,16))", "1:32"},
      {"(4,8):(1,5)", "1:40"},
      {"(4,8):(1,8)", "(2,1):(4,64)"},
      {"((2,2),(2,4)):((0,1),(0,2))", "1:8"},
      {"((2,2),(2,4)):((0,2),(0,4))", "(2,1):(1,16)"},
      {"(4,(4,2)):(1@1,(1@0,12@1))", "(1,(3,1)):(4@0,(4@1,24@1))"},
    }
    for _, r in ipairs(rows) do
      assert.equal(r[2], tostring(cute.complement(L(r[1]))), r[1])
    end
  end)

  it("Table 7's (4,8):(e0,e1) row: per-basis end of the codomain", function()
    -- The paper prints (1,1):(4e0,4e1); the e1 extent of A is 8, so the
    -- mode that marks the end of A's codomain along e1 steps by 8e1.
    assert.equal("(1,1):(4@0,8@1)",
                 tostring(cute.complement(L "(4,8):(1@0,1@1)")))
  end)

  it("with a cotarget covers [0, M)", function()
    assert.equal("(2,3):(1,8)", tostring(cute.complement(L "4:2", 24)))
    assert.equal(tostring(cute.complement(L "4:2", 24)),
                 tostring(cute.complement(L "4:2", {4, 6})))
  end)

  it("meets A only at 0 and is ordered on random injective layouts", function()
    local g = R.new(17)
    for _ = 1, 1500 do
      local A = g:injective()
      local C = cute.complement(A)
      local image = {}
      for _, v in ipairs(R.values(A)) do image[v] = true end
      -- only 0 is shared; disjoint on C's extended domain too (one period)
      for i = 1, 2 * cute.size(C) - 1 do
        R.ok(not image[C(i)], "%s hits %s at C(%d)", C, A, i)
        R.ok(C(i) > C(i - 1), "%s not increasing at %d", C, i)
      end
    end
  end)

  it("(A, A*) covers [0, M) exactly once when the cotarget tiles", function()
    local g = R.new(18)
    local done = 0
    for _ = 1, 1500 do
      local A = g:injective()
      local M = cute.cosize(A) * g:int(1, 3)
      local ok, C = pcall(cute.complement, A, M)
      if ok then
        done = done + 1
        local AC = A .. C
        local hit = {}
        for i = 0, cute.size(AC) - 1 do
          local v = AC(i)
          if v < M then
            R.ok(not hit[v], "(%s, %s) hits %d twice", A, C, v)
            hit[v] = true
          end
        end
        for v = 0, M - 1 do R.ok(hit[v], "(%s, %s) misses %d", A, C, v) end
      else
        assert.matches("complement", C, 1, true)
      end
    end
    assert.is_true(done > 500, "too few complements: " .. done)
  end)

  it("refuses non-injective layouts", function()
    local ok, msg = pcall(cute.complement, L "(2,2):(1,1)")
    assert.is_false(ok)
    assert.matches("non%-injective", msg)
  end)
end)
