-- api_monkey.lua -- random argument lists for every public function of
-- `cute`, run by spec/vm/test_api_monkey.c in a state with a memory limit
-- and an instruction budget (the host times each call and catches
-- signals).  Loaded with the seed in global MONKEY_SEED; it defines the
-- global `monkey`:
--   monkey.prepare(i)  -> the Lua text of call i (a reproducer: run it
--                         with `cute` and the helpers of `env` below)
--   monkey.fire()      -> nil when the call prepared returned, false when
--                         it failed as it should, else what is wrong
--   monkey.coverage()  -> the number of targets and those never called
-- Call i depends on the seed and i alone (math.randomseed(seed, i)), so
-- one call is replayed without the calls before it.
local cute = require "cute"
local L = cute.layout
print = function() end   -- print_layout, print_tensor: their text is no finding
local seed = assert(math.tointeger(MONKEY_SEED), "MONKEY_SEED")

------------------------------------------------------------ the values --
-- Every value is Lua text, built afresh for each call: a call cannot see
-- what an earlier one did to a table, and the text is the reproducer.
local MMA, COPY = '"SM80_16x8x16_F32F16F16F32_TN"', '"SM75_U32x4_LDSM_N"'
local tmma = "cute.make_tiled_mma(" .. MMA .. ', L"(2,2,1)")'
local tcopy = "cute.make_tiled_copy_A(cute.copy_atom(" .. COPY .. ', "f16"), '
  .. tmma .. ")"

-- Values of each class that has methods or metamethods, by class name as
-- the reference names it (docs/api: "### Layout:shape").
local classes = {
  Layout = {'L"(4,8):(1,4)"', 'L"8:1"', 'L"1:0"', 'L"((2,2),(2,4)):((1,8),(2,16))"',
            'L"(4,8):(0,-1)"', 'L"(2,3):(1@0,1@1)"', 'cute.make_identity_layout {4, 8}',
            'L"(1073741824,1073741824):(1,1073741824)"', 'cute.layout_right {32, 8}',
            'L"1:1"', 'L"(2,(2,2)):(0,(1,-2))"', 'L"((4,2),(2,(2,2))):((1,16),(4,(8,32)))"',
            'L"(3,5,7):(35,7,1)"', 'L"(8,8):(1@1,1@0)"'},
  Swizzle = {"cute.swizzle(3, 4, 3)", "cute.swizzle(0, 0, 0)", "cute.swizzle(1, 0, 1)"},
  ComposedLayout = {'L"Sw<3,4,3> o 0 o (8,64):(64,1)"',
                    'cute.composed(cute.swizzle(1, 0, 1), L"(4,8):(1,4)")',
                    'cute.composition(cute.swizzle(2, 0, 2), L"(4,4):(4,1)")'},
  -- make_composed_layout with a layout inside (cute.composed_layout)
  ComposedLayoutFn = {'cute.make_composed_layout(L"(4,8):(8,1)", 2, L"(2,2):(1,4)")',
                      'cute.make_composed_layout(L"(4,8):(1,4)", {1, 2}, '
                      .. 'cute.make_identity_layout {2, 2})'},
  E = {"cute.E(0)", "cute.E(1, 0)", "3 * cute.E(2)"},
  LinearLayout = {'cute.to_linear(L"(4,8):(1,4)")',
                  'cute.to_linear(L"((2,2),2):((2,8),1)", {tv = true})'},
  Tensor = {'cute.make_tensor({1, 2}, L"2:1")', "cute.make_identity_tensor {4, 8}",
            'cute.make_tensor(cute.counting_iterator(3), L"(4,8):(1,4)")'},
  TiledMMA = {tmma, "cute.make_tiled_mma(" .. MMA .. ")"},
  ThrMMA = {tmma .. ":get_slice(0)"},
  TiledCopy = {tcopy},
  ThrCopy = {tcopy .. ":get_slice(0)"},
  TmaCopy = {'cute.make_tma_copy("SM90_TMA_LOAD", {layout = L"(64,8):(1,64)", '
             .. 'dtype = "f16"}, L"(64,8):(1,64)")'},
}
-- Methods the reference does not list (cute.tensor's own).
local extra_methods = {Tensor = {"layout", "shape", "stride", "size", "rank", "data"}}

local texts = {'"(4,8):(1,4)"', '"8:1"', '"(4,8)"', '"((2,2),4):((1,4),2)"', '"_"',
               '"Sw<3,4,3> o 0 o (8,64):(64,1)"', '""', '"garbage("', '"(((((("',
               '("(1,"):rep(300)', '("x"):rep(100000)', '"\\0"', '"1@0"',
               MMA, COPY, '"f16"', '"f32"', '"txt"', '"svg"', '"composition"',
               '"K_SW128"', '"{lane = [[1]]}"', '"SM90_TMA_LOAD"', '"%s%d"',
               '("(4,8)"):rep(1 << 20)'}
local numbers = {"0", "1", "-1", "2", "3", "4", "7", "8", "16", "32", "64", "1024",
                 "1 << 31", "1 << 32", "1 << 62", "-(1 << 31)", "math.maxinteger",
                 "math.mininteger", "math.maxinteger - 1", "0.5", "-0.0", "2.0",
                 "1e300", "-1e300", "0/0", "1/0", "-1/0", "2^53", "2^63"}
local tables = {"{}", "{4, 8}", "{1, 4}", "{2, 2}", "{4, {2, 2}}", "{0}", "{-1, 2}",
                "{math.maxinteger, 2}", "{{{{}}}}", "deep(300)", "wide(2000)",
                "{1, nil, 3}", "{n = 3}", "{4, 8, x = 1}", "{[0] = 1}", "{1.5}",
                '{"a"}', "{cute._, 2}", "{true}", '{L"2:1", 2}', "cycle()",
                "{tv = true}", "{0, 0}", "{1, 0}", "{{2, 2}, {2, 4}}",
                "setmetatable({}, {__index = boom})", "setmetatable({4}, {__len = huge})",
                '{layout = L"(64,8):(1,64)", dtype = "f16"}', "{1, 1, 1, 1, 1, 1, 1, 1, 1}",
                '{tile = {64, 8}, major = "MN", dtype = "f16"}', '{tile = {128, 64}}',
                '{tile = {1 << 40, 64}, dtype = "f32"}', '{L"2:1", L"4:2"}', "{2, cute._}",
                "{{2, 2}, 4}"}
local others = {"nil", "true", "false", "cute._", "function() end", "boom",
                "function() return 1 end", "function() while true do end end",
                "coroutine.create(function() end)", "dead()"}

-- Helpers the value texts use, in the environment of every call.
local env = setmetatable({cute = cute, L = L}, {__index = _ENV})
function env.boom() error("monkey-boom", 0) end
function env.huge() return math.maxinteger end
function env.deep(n)
  local t = {}
  for _ = 1, n do t = {t} end
  return t
end
function env.wide(n)
  local t = {}
  for k = 1, n do t[k] = 1 end
  return t
end
function env.cycle()
  local t = {2}
  t[2] = t
  return t
end
function env.dead()
  local co = coroutine.create(function() end)
  coroutine.resume(co)
  return co
end

local function pick(list) return list[math.random(#list)] end

local pools = {texts, numbers, tables, others}
local class_list = {}
for name, values in pairs(classes) do class_list[#class_list + 1] = name end
table.sort(class_list)

-- A random profile (nested up to 2 deep) filled with leaves from leaf().
local function nest(leaf, depth)
  if depth > 2 or math.random(3) > 1 then return leaf() end
  local t = {}
  for k = 1, math.random(1, 3) do t[k] = nest(leaf, depth + 1) end
  return "(" .. table.concat(t, ",") .. ")"
end

local edges = {0, 1, 2, 3, 4, 8, 16, -1, -2, 1 << 31}
local function edge() return tostring(pick(edges)) end

-- A random layout: shape and stride of one profile, strides that may be
-- 0, negative or bases; a random tuple as a Lua table.
local function random_layout()
  local shape = nest(function() return tostring(pick {1, 2, 3, 4, 8}) end, 0)
  local stride = shape:gsub("%d+", function()
    return math.random(4) == 1 and math.random(0, 1) .. "@" .. math.random(0, 1) or edge()
  end)
  return 'cute.layout "' .. shape .. ":" .. stride .. '"'
end

local function random_tuple()
  return (nest(edge, 0):gsub("%(", "{"):gsub("%)", "}"))
end

local function value()
  local r = math.random(6)
  if r <= 2 then return pick(classes[pick(class_list)]) end
  if r == 3 then return math.random(2) == 1 and random_layout() or random_tuple() end
  return pick(pools[math.random(#pools)])
end

----------------------------------------------------------- the targets --
-- A target: `name` (the function, as messages must name it) and `call`,
-- the text of a call on the arguments a1, a2, ... (n of them).
local targets = {}

local function add(name, call)
  targets[#targets + 1] = {name = name, call = call}
end

local function args(n)
  local a = {}
  for k = 1, n do a[k] = "a" .. k end
  return table.concat(a, ", ")
end

-- cute.f, cute.limits.f, and the functions of other modules that the
-- reference names; cute.cuda only for codegen, which needs no GPU.
local function add_functions(t, prefix)
  local names = {}
  for k, v in pairs(t) do
    if type(v) == "function" then names[#names + 1] = k end
  end
  table.sort(names)
  for _, k in ipairs(names) do
    local base = prefix .. k
    add(k, function(n) return base .. "(" .. args(n) .. ")" end)
  end
end
add_functions(cute, "cute.")
add_functions(cute.limits, "cute.limits.")
for _, f in ipairs {"smem.synthesize", "gemm_sm90.plan"} do
  local module, name = f:match("(.*)%.(.*)")
  local base = 'require("cute.' .. module .. '").' .. name
  add(name, function(n) return base .. "(" .. args(n) .. ")" end)
end
if pcall(function() return cute.cuda end) then
  add("codegen", function(n) return "cute.cuda.codegen(" .. args(n) .. ")" end)
end

-- The methods of each class: the reference's "### Class:method", called
-- on a value of the class and, as a plain function, on a random self.
local function reference_methods()
  local by_class = {}
  for _, page in ipairs(require "cute.reference") do
    -- headings found by plain search: a gmatch over a whole page is more
    -- than the budget's pattern guard allows
    local at = page[2]:find("\n### ", 1, true)
    while at do
      local class, m = page[2]:match("^`?([%w_]+):([%w_]+)", at + 5)
      if class then
        by_class[class] = by_class[class] or {}
        table.insert(by_class[class], m)
      end
      at = page[2]:find("\n### ", at + 1, true)
    end
  end
  for class, list in pairs(extra_methods) do by_class[class] = list end
  return by_class
end

local function add_methods()
  local by_class = reference_methods()
  for _, class in ipairs(class_list) do
    for _, m in ipairs(by_class[class] or {}) do
      add(m, function(n)
        return "(" .. pick(classes[class]) .. "):" .. m .. "(" .. args(n) .. ")"
      end)
      add(m, function(n)
        return "(" .. pick(classes[class]) .. ")." .. m .. "(" .. args(n) .. ")"
      end)
    end
  end
end
add_methods()

-- The metamethods each class has, as operators on a random operand; the
-- name is the operation the operator stands for (bindings: cutelua_badarg
-- names a metamethod's argument errors so: "bad argument #2 to
-- 'make_layout'" for A .. nil, 'operator-' for cute.E(0) - nil).
local operators = {
  __call = {{"layout(", "slice(", "swizzle(", "tensor", "linear layout", "composed layout"},
            function(x, n) return "(" .. x .. ")(" .. args(n) .. ")" end},
  __mul = {{"composition", "operator*", "stride", "@"},
           function(x) return "(" .. x .. ") * a1" end},
  __concat = {"make_layout", function(x) return "(" .. x .. ") .. a1" end},
  -- (basis arithmetic names its expression: "stride 3@2+1: an integer
  -- added to basis elements", "1@0 - -9223372036854775808: 64-bit overflow")
  __add = {{"operator+", "stride", "@"}, function(x) return "a1 + (" .. x .. ")" end},
  __sub = {{"operator-", "stride", "@"}, function(x) return "(" .. x .. ") - a1" end},
  __unm = {{"operator-", "stride", "@"}, function(x) return "-(" .. x .. ")" end},
  __index = {"tensor", function(x) return "(" .. x .. ")[a1]" end},
  __newindex = {"tensor", function(x) return ";(" .. x .. ")[a1] = a2" end},
  __tostring = {"tostring", function(x) return "tostring(" .. x .. ")" end},
  __eq = {"==", function(x) return "(" .. x .. ") == a1" end},
}

local function add_operators()
  local names = {}
  for op in pairs(operators) do names[#names + 1] = op end
  table.sort(names)
  for _, class in ipairs(class_list) do
    local mt = getmetatable(load("return " .. classes[class][1], "=v", "t", env)())
    for _, op in ipairs(names) do
      if mt[op] ~= nil then
        local name, text = operators[op][1], operators[op][2]
        add(name, function(n) return text(pick(classes[class]), n) end)
      end
    end
  end
end
add_operators()

------------------------------------------------------------- checking --
-- What a message must not hold: Lua's own runtime errors about the
-- stdlib's locals, positions inside the stdlib, argument errors Lua
-- could not name, table addresses.
local raw = {"attempt to ", "local '", "upvalue '", "field '", "method '",
             "for iterator", "to '?'", "to 'format'", "stack overflow", "C stack"}
local raw_patterns = {"cute/[%w_/]*%.lua:%d+", "0x%x%x%x%x%x"}

local function judge(msg, name)
  if type(msg) ~= "string" then return "the error is a " .. type(msg) end
  if msg:find("monkey-boom", 1, true) or msg:find("not enough memory", 1, true) then
    return nil   -- the script's own error, or the memory limit
  end
  for _, p in ipairs(raw) do
    if msg:find(p, 1, true) then return "raw error (" .. p .. "): " .. msg end
  end
  for _, p in ipairs(raw_patterns) do
    if msg:find(p) then return "raw error (" .. p .. "): " .. msg end
  end
  for _, n in ipairs(type(name) == "table" and name or {name}) do
    if msg:find(n, 1, true) then return nil end
  end
  return "the error does not name " .. table.concat(type(name) == "table" and name
    or {name}, " or ") .. ": " .. msg
end

local pending, called = nil, {}

local function prepare(i)
  math.randomseed(seed, i)
  local t = math.random(#targets)
  local n = math.random(0, 4)
  local lines = {}
  for k = 1, n do lines[k] = "local a" .. k .. " = " .. value() end
  local call = targets[t].call(n)
  -- (a call in parentheses: no tail call, so no stdlib frame is left out)
  lines[#lines + 1] = call:find("] = ", 1, true) and call or "return (" .. call .. ")"
  pending = {t = t, text = table.concat(lines, "\n")}
  return pending.text
end

-- The call, and tostring of what it returns (each result's __tostring).
local function run(f)
  local r = table.pack(f())
  for k = 1, r.n do tostring(r[k]) end
end

local function fire()
  local p = pending
  local f = assert(load(p.text, "=monkey", "t", env))
  called[p.t] = true
  local ok, msg = pcall(run, f)
  if ok then return nil end
  return judge(msg, targets[p.t].name) or false
end

local function coverage()
  local missing = {}
  for t, target in ipairs(targets) do
    if not called[t] then missing[#missing + 1] = target.call(0) end
  end
  return #targets, table.concat(missing, "\n")
end

monkey = {prepare = prepare, fire = fire, coverage = coverage}
