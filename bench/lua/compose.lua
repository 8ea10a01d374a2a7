--- bench/lua/compose.lua -- the speed of the Lua API:
-- composition of two existing layouts and parsing a layout from text,
-- each <= 1 us per call.  Prints ns/op; not a test.
--
--   LUA_PATH='stdlib/?.lua;stdlib/?/init.lua' LUA_CPATH='build/lua/?.so' \
--     lua5.4 bench/lua/compose.lua [seconds-per-case]
--   build/vm/cutelua bench/lua/compose.lua
local cute = require "cute"

local budget = tonumber(arg and arg[1]) or 0.5

-- Runs f in batches until `budget` CPU seconds pass; returns ns per call.
local function measure(f)
  local n, t0 = 0, os.clock()
  local batch = 1000
  repeat
    for _ = 1, batch do f() end
    n = n + batch
  until os.clock() - t0 >= budget
  return (os.clock() - t0) * 1e9 / n
end

local A = cute.layout "((2,2),(4,2)):((1,8),(2,16))"
local B = cute.layout "(4,8):(8,1)"
local Big = cute.layout "((4,8),(2,(2,4))):((2,64),(1,(8,16)))"
local TV = cute.layout "((4,8),2):((16,1),8)"
local D88 = cute.layout "(8,8):(8,1)"
local core = require "cute.core"
local C42 = cute.layout "4:2"
local M128 = cute.layout "(128,128):(1,128)"
local P34, P25 = cute.layout "(3,4):(4,1)", cute.layout "(2,5):(1,2)"
local MA = cute.layout "(512,64):(1,512)"

local cases = {
  {"cute.composition(A, B)         ", function() return cute.composition(A, B) end},
  {"A * B                          ", function() return A * B end},
  {"core.composition(A, B)         ", function() return core.composition(A, B) end},
  {"composition, Table 4 TV        ", function() return cute.composition(D88, TV) end},
  {"composition, depth-3 A         ", function() return cute.composition(Big, B) end},
  {"cute.layout '(4,8):(1,4)'      ", function() return cute.layout "(4,8):(1,4)" end},
  {"cute.layout '((2,2),(4,2)):..' ", function()
     return cute.layout "((2,2),(4,2)):((1,8),(2,16))" end},
  {"A(22)                          ", function() return A(22) end},
  {"A(2, 5)                        ", function() return A(2, 5) end},
  {"tostring(A)                    ", function() return tostring(A) end},
  {"cute.logical_divide(8x16, <4,8>)", function()
     return cute.logical_divide(D88, {4, 2}) end},
  -- the cases CuTe C++ was timed on (bench/RESULTS.md)
  {"complement(4:2, 24)            ", function()
     return cute.complement(C42, 24) end},
  {"right_inverse(((2,2),(4,2))..)  ", function()
     return cute.right_inverse(A) end},
  {"logical_divide((128,128), <16,4>)", function()
     return cute.logical_divide(M128, {16, 4}) end},
  {"logical_product((3,4):(4,1), ..)", function()
     return cute.logical_product(P34, P25) end},
  {"blocked_product((3,4):(4,1), ..)", function()
     return cute.blocked_product(P34, P25) end},
  {"local_tile((512,64), <128,8>, (1,_))", function()
     return cute.local_tile(MA, {128, 8}, {1, cute._}) end},
}

print(("%-34s %10s"):format("operation (" .. _VERSION .. ")", "ns/op"))
for _, c in ipairs(cases) do
  print(("%-34s %10.0f"):format(c[1], measure(c[2])))
end
