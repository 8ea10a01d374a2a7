-- The bindings read a tiler or tuple table in one pass when lua_next gives
-- its keys in order 1..n (a table constructor's array part), and check it
-- key by key otherwise (bindings/lua_tiler.c fast_list, lua_tuple.c
-- flat_table).  The same table built by assignment in any order (its keys
-- in the hash part) must give the same result, and the same message.
local cute = require "cute"
local L = cute.layout

-- A copy of list t (recursively) whose keys are given in `order` (an
-- array of 1..#t) by a constructor with explicit keys, {[3] = .., [1] =
-- ..}, which puts them in the hash part: lua_next gives them in the
-- order of their hash nodes, not 1..n.  Other keys of t are kept.
local function rebuilt(t, order)
  if type(t) ~= "table" or getmetatable(t) then return t end
  local parts = {}
  for _, k in ipairs(order(#t)) do
    parts[#parts + 1] = ("[%d] = v[%d]"):format(k, k)
  end
  local r = load("local v = ... return {" .. table.concat(parts, ", ") .. "}")(
    setmetatable({}, {__index = function(_, k) return rebuilt(t[k], order) end}))
  for k, v in pairs(t) do
    if math.type(k) ~= "integer" or k < 1 or k > #t then r[k] = v end
  end
  return r
end

local function reverse(n)
  local o = {}
  for i = n, 1, -1 do o[#o + 1] = i end
  return o
end

local function shuffled(n)
  local o = {}
  for i = 1, n do o[i] = i end
  for i = n, 2, -1 do
    local j = math.random(i)
    o[i], o[j] = o[j], o[i]
  end
  return o
end

-- Both results of pcall(f, ...), as text.
local function outcome(f, ...)
  local r = table.pack(pcall(f, ...))
  for i = 1, r.n do r[i] = tostring(r[i]) end
  return table.concat(r, " ", 1, r.n)
end

local A = L "(8,16):(16,1)"
local ops = {cute.logical_divide, cute.zipped_divide, cute.logical_product,
             cute.composition}

describe("tiler and tuple tables read in one pass", function()
  it("give what the same table built in any order gives", function()
    math.randomseed(20261128)
    local leaves = {1, 2, 4, 8, cute._, L "2:2", L "(2,2):(1,4)", 0, -1, 2.0,
                    2.5, "x"}
    local function tiler(depth)
      local t = {}
      for i = 1, math.random(0, 3) do
        t[i] = (depth < 3 and math.random(4) == 1) and tiler(depth + 1)
               or leaves[math.random(#leaves)]
      end
      return t
    end
    for _ = 1, 400 do
      local T = tiler(0)
      local op = ops[math.random(#ops)]
      local want = outcome(op, A, T)
      assert.equal(want, outcome(op, A, rebuilt(T, reverse)))
      assert.equal(want, outcome(op, A, rebuilt(T, shuffled)))
    end
  end)

  it("report a key outside the list before a bad element", function()
    local ok, err = pcall(cute.logical_divide, A, {"bad", x = 1})
    assert.is_false(ok)
    assert.matches("tiler key \"x\" is outside the list 1..1", err, 1, true)
    ok, err = pcall(cute.logical_divide, A, {4, {2, "bad", [7] = 1}})
    assert.is_false(ok)
    assert.matches("tiler key 7 is outside the list 1..2", err, 1, true)
    ok, err = pcall(cute.logical_divide, A, {4, nil, 2})
    assert.is_false(ok)
    assert.matches("tiler key %d is [a-z ]+ the list 1%.%.%d", err)
  end)

  it("read coordinates built in any order as constructors", function()
    local MA = L "(512,64):(1,512)"
    local want = outcome(cute.local_tile, MA, {128, 8}, {1, cute._})
    assert.equal("true (128,8,8):(1,512,4096) 128", want)
    for _, c in ipairs({rebuilt({1, cute._}, reverse),
                        rebuilt({1, cute._}, shuffled)}) do
      assert.equal(want, outcome(cute.local_tile, MA,
                                 rebuilt({128, 8}, reverse), c))
    end
    local B = L "((2,2),(4,2)):((1,8),(2,16))"
    for _, c in ipairs({{1, 5}, {1, 2, 3}, {1, "x"}, {1, 2.5}, {1, {2, 3}},
                        {1, 5, x = 1}, {}, {[2] = 1}}) do
      assert.equal(outcome(B, c), outcome(B, rebuilt(c, reverse)))
      assert.equal(outcome(cute.tuple, c), outcome(cute.tuple, rebuilt(c, shuffled)))
    end
  end)
end)

describe("a Layout whose metatable the debug library removed", function()
  -- The class test reads a tag inside the userdata before the metatable's
  -- mark, so such a value still passes as a Layout; its results must get
  -- the class's metatable (they once took the missing one: a crash).
  it("still gives Layout results, never a crash", function()
    local A = cute.layout "(4,8):(1,4)"
    debug.setmetatable(A, nil)
    for _, r in ipairs {cute.complement(A), cute.coalesce(A),
                        cute.composition(A, cute.layout "8:2"),
                        cute.logical_divide(A, {2, 4}), cute.right_inverse(A)} do
      assert.truthy(tostring(r):match "^[(%d].*:") -- the class's __tostring
    end
  end)
end)
