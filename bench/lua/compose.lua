--- bench/lua/compose.lua -- the speed of the Lua API, and its overhead over
-- the C algebra: each call is timed through Lua and, where it has one, its
-- C call alone (bench/lua/ctime.c, built as build/bench/lua-ctime, on the
-- same operands), so the table shows what Lua adds.  A call whose
-- arguments are table literals ({16, 4}) also pays for building and
-- collecting them, which Lua charges to the call site: the calls with
-- tables built once and the literal alone show that part apart.  Prints
-- ns/op; not a test.
--
--   build/vm/cutelua bench/lua/compose.lua [seconds-per-case [lua-ctime]]
--   LUA_PATH='stdlib/?.lua;stdlib/?/init.lua' LUA_CPATH='build/lua/?.so' \
--     lua5.4 bench/lua/compose.lua [seconds-per-case [lua-ctime]]
local cute = require "cute"
local core = require "cute.core"

local budget = tonumber(arg and arg[1]) or 1
local ctime = arg and arg[2] or "build/bench/lua-ctime"

-- Each case is timed in ROUNDS rounds of budget / ROUNDS seconds, the C
-- calls of a round just before its Lua calls, and the median of each is
-- printed: a machine whose speed drifts moves both sides alike.
local ROUNDS = 5
local slice = budget / ROUNDS

-- Runs f in batches until `slice` CPU seconds pass; returns ns per call.
local function measure(f)
  local n, t0 = 0, os.clock()
  local batch = 1000
  repeat
    for _ = 1, batch do f() end
    n = n + batch
  until os.clock() - t0 >= slice
  return (os.clock() - t0) * 1e9 / n
end

local function median(xs)
  table.sort(xs)
  return xs[(#xs + 1) // 2]
end

-- The operands, as text: each is made a Layout for Lua and passed as text
-- to the C side.
local t = {
  A = "((2,2),(4,2)):((1,8),(2,16))", B = "(4,8):(8,1)",
  Big = "((4,8),(2,(2,4))):((2,64),(1,(8,16)))", TV = "((4,8),2):((16,1),8)",
  D88 = "(8,8):(8,1)", C42 = "4:2", M128 = "(128,128):(1,128)",
  P34 = "(3,4):(4,1)", P25 = "(2,5):(1,2)", MA = "(512,64):(1,512)",
}
local L = {}
for k, s in pairs(t) do L[k] = cute.layout(s) end
local A, B = L.A, L.B
-- Tables built once, to time what the call adds apart from the table
-- literal a call site builds (and collects) on every call.
local T164, T1288, C1_ = {16, 4}, {128, 8}, {1, cute._}

-- {name, Lua call, C call (ctime.c's "op|operand|..."), or none}
local cases = {
  {"cute.composition(A, B)", function() return cute.composition(A, B) end,
   "composition|" .. t.A .. "|" .. t.B},
  {"A * B", function() return A * B end, "composition|" .. t.A .. "|" .. t.B},
  {"core.composition(A, B)", function() return core.composition(A, B) end,
   "composition|" .. t.A .. "|" .. t.B},
  {"composition, Table 4 TV", function()
     return cute.composition(L.D88, L.TV) end,
   "composition|" .. t.D88 .. "|" .. t.TV},
  {"composition, depth-3 A", function() return cute.composition(L.Big, B) end,
   "composition|" .. t.Big .. "|" .. t.B},
  {"cute.layout '(4,8):(1,4)'", function() return cute.layout "(4,8):(1,4)" end,
   "layout|(4,8):(1,4)"},
  {"cute.layout '((2,2),(4,2)):..'", function()
     return cute.layout "((2,2),(4,2)):((1,8),(2,16))" end, "layout|" .. t.A},
  {"A(22)", function() return A(22) end, "call|" .. t.A .. "|22"},
  {"A(2, 5)", function() return A(2, 5) end, "eval|" .. t.A .. "|(2,5)"},
  {"tostring(A)", function() return tostring(A) end, "print|" .. t.A},
  {"logical_divide(8x8, <4,2>)", function()
     return cute.logical_divide(L.D88, {4, 2}) end,
   "logical_divide|" .. t.D88 .. "|<4:1,2:1>"},
  -- the cases CuTe C++ was timed on (bench/RESULTS.md)
  {"complement(4:2, 24)", function() return cute.complement(L.C42, 24) end,
   "complement|" .. t.C42 .. "|24"},
  {"right_inverse(((2,2),(4,2))..)", function() return cute.right_inverse(A) end,
   "right_inverse|" .. t.A},
  {"logical_divide((128,128), <16,4>)", function()
     return cute.logical_divide(L.M128, {16, 4}) end,
   "logical_divide|" .. t.M128 .. "|<16:1,4:1>"},
  {"logical_product((3,4):(4,1), ..)", function()
     return cute.logical_product(L.P34, L.P25) end,
   "logical_product|" .. t.P34 .. "|" .. t.P25},
  {"blocked_product((3,4):(4,1), ..)", function()
     return cute.blocked_product(L.P34, L.P25) end,
   "blocked_product|" .. t.P34 .. "|" .. t.P25},
  {"local_tile((512,64), <128,8>, (1,_))", function()
     return cute.local_tile(L.MA, {128, 8}, {1, cute._}) end,
   "local_tile|" .. t.MA .. "|<128:1,8:1>|(1,_)"},
  -- the same two calls with their tables built once, and a literal alone
  {"logical_divide((128,128), T)", function()
     return cute.logical_divide(L.M128, T164) end,
   "logical_divide|" .. t.M128 .. "|<16:1,4:1>"},
  {"local_tile((512,64), T, C)", function()
     return cute.local_tile(L.MA, T1288, C1_) end,
   "local_tile|" .. t.MA .. "|<128:1,8:1>|(1,_)"},
  {"{16, 4} alone (a literal, no call)", function() return {16, 4} end},
}

-- The C times, one popen of lua-ctime for all cases; "-" where there is
-- no binary (or no io.popen, as in a sandbox).
local function c_times()
  local args, out = {}, {}
  for i, c in ipairs(cases) do args[i] = ("%q"):format(c[3] or "none") end
  local ok, p = pcall(io.popen, ("%q %s %s 2>/dev/null")
    :format(ctime, slice, table.concat(args, " ")))
  if ok and p then
    for line in p:lines() do out[#out + 1] = tonumber(line) end
    p:close()
  end
  return out
end

local lua_runs, c_runs = {}, {}
for i = 1, #cases do lua_runs[i], c_runs[i] = {}, {} end
for _ = 1, ROUNDS do
  local c = c_times()
  for i, case in ipairs(cases) do
    lua_runs[i][#lua_runs[i] + 1] = measure(case[2])
    c_runs[i][#c_runs[i] + 1] = c[i]
  end
end
print(("%-38s %9s %9s %9s"):format("operation (" .. _VERSION .. ")",
  "Lua ns", "C ns", "Lua - C"))
for i, case in ipairs(cases) do
  local lua_ns = median(lua_runs[i])
  local c_ns = #c_runs[i] == ROUNDS and median(c_runs[i]) or nil
  print(("%-38s %9.0f %9s %9s"):format(case[1], lua_ns,
    c_ns and ("%.0f"):format(c_ns) or "-",
    c_ns and ("%.0f"):format(lua_ns - c_ns) or "-"))
end
