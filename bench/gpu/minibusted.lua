--- minibusted -- runs busted spec files where busted is not installed (the
-- GPU machine), with the subset of busted the CUDA specs use: describe,
-- it, pending, setup/teardown, before_each/after_each, and luassert's
-- equal, same, truthy, falsy, is_nil, is_not_nil, is_true, is_false,
-- near, error_matches, has_error, matches (with are/is/are_not/is_not spellings).
--
--   cutelua-gpu bench/gpu/minibusted.lua [--tags=gpu] spec/lua/x_spec.lua ...
--
-- Prints one line per test ("PASS", "FAIL", "PEND") and busted's closing
-- line; exits non-zero (by error) when a test failed.
local tags, files = nil, {}
for _, a in ipairs(arg) do
  local t = a:match("^%-%-tags=(.+)$")
  if t then tags = t else files[#files + 1] = a end
end

local counts = {pass = 0, fail = 0, pending = 0}
local failures = {}

-- ------------------------------------------------------------- assertions --
local function deep_equal(a, b)
  if type(a) ~= "table" or type(b) ~= "table" then return a == b end
  for k, v in pairs(a) do if not deep_equal(v, b[k]) then return false end end
  for k in pairs(b) do if a[k] == nil then return false end end
  return true
end

local function show(v)
  if type(v) ~= "table" then return string.format("(%s) %s", type(v), tostring(v)) end
  local parts = {}
  for i, x in ipairs(v) do parts[i] = tostring(x) if i > 12 then parts[i] = "..." break end end
  return "{" .. table.concat(parts, ", ") .. "}"
end

local function fail(msg, extra) error((extra and extra .. ": " or "") .. msg, 3) end

local checks = {
  equal = function(e, a, m) if e ~= a then fail("expected " .. show(e) .. ", got " .. show(a), m) end end,
  same = function(e, a, m) if not deep_equal(e, a) then fail("expected same " .. show(e) .. ", got " .. show(a), m) end end,
  truthy = function(v, m) if not v then fail("expected truthy, got " .. show(v), m) end end,
  falsy = function(v, m) if v then fail("expected falsy, got " .. show(v), m) end end,
  is_nil = function(v, m) if v ~= nil then fail("expected nil, got " .. show(v), m) end end,
  is_not_nil = function(v, m) if v == nil then fail("expected a value, got nil", m) end end,
  is_true = function(v, m) if v ~= true then fail("expected true, got " .. show(v), m) end end,
  is_false = function(v, m) if v ~= false then fail("expected false, got " .. show(v), m) end end,
  near = function(e, a, tol, m)
    if math.abs(e - a) > tol then fail(string.format("expected %g +- %g, got %g", e, tol, a), m) end
  end,
  has_error = function(f, m) if pcall(f) then fail("expected an error", m) end end,
  matches = function(pat, s, init, plain, m)
    if type(s) ~= "string" or not s:find(pat, init, plain) then
      fail("expected " .. show(s) .. " to match " .. show(pat), m)
    end
  end,
  -- luassert's signature: (f, pattern, init, plain, message)
  error_matches = function(f, pat, init, plain, m)
    local ok, err = pcall(f)
    if ok then fail("expected an error matching " .. pat, m) end
    if not tostring(err):find(pat, init, plain) then
      fail("error '" .. tostring(err) .. "' does not match " .. pat, m)
    end
  end,
}
local negated = {
  equal = function(e, a, m) if e == a then fail("expected a value other than " .. show(e), m) end end,
  same = function(e, a, m) if deep_equal(e, a) then fail("expected different " .. show(e), m) end end,
}

local luassert = setmetatable({}, {
  __call = function(_, v, msg, ...) if not v then error(msg or "assertion failed!", 2) end return v, msg, ... end,
})
for k, f in pairs(checks) do luassert[k] = f end
luassert.are, luassert.is = luassert, luassert
luassert.are_not, luassert.is_not = negated, negated
for k, f in pairs(negated) do luassert["not_" .. k] = f end
package.preload.luassert = function() return luassert end  -- helpers.err

-- ------------------------------------------------------------------ blocks --
local scopes = {{name = nil, before = {}, after = {}, teardown = {}}}

local function full_name(name)
  local parts = {}
  for _, s in ipairs(scopes) do if s.name then parts[#parts + 1] = s.name end end
  parts[#parts + 1] = name
  return table.concat(parts, " ")
end

local function wanted(name)
  return not tags or name:find("#" .. tags, 1, true) ~= nil
end

local function run_hooks(which)
  for _, s in ipairs(scopes) do for _, f in ipairs(s[which]) do f() end end
end

local function describe(name, fn)
  scopes[#scopes + 1] = {name = name, before = {}, after = {}, teardown = {}}
  local ok, err = xpcall(fn, debug.traceback)
  local scope = table.remove(scopes)
  for _, f in ipairs(scope.teardown) do pcall(f) end
  if not ok then
    counts.fail = counts.fail + 1
    failures[#failures + 1] = full_name(name) .. "\n" .. tostring(err)
    print("FAIL " .. full_name(name) .. " (in describe)")
  end
end

local function it(name, fn)
  local full = full_name(name)
  if not wanted(full) then return end
  local t0 = os.clock()
  local ok, err = xpcall(function() run_hooks("before") fn() run_hooks("after") end,
                         debug.traceback)
  if ok then
    counts.pass = counts.pass + 1
    print(string.format("PASS %s (%.2f s)", full, os.clock() - t0))
  else
    counts.fail = counts.fail + 1
    failures[#failures + 1] = full .. "\n" .. tostring(err)
    print("FAIL " .. full)
  end
end

local function pending(name)
  counts.pending = counts.pending + 1
  print("PEND " .. full_name(name))
end

local env = setmetatable({
  describe = describe, context = describe, it = it, pending = pending,
  setup = function(f) f() end,
  teardown = function(f) table.insert(scopes[#scopes].teardown, f) end,
  before_each = function(f) table.insert(scopes[#scopes].before, f) end,
  after_each = function(f) table.insert(scopes[#scopes].after, f) end,
  assert = luassert,
}, {__index = _G})

for _, file in ipairs(files) do
  local chunk, err = loadfile(file, "t", env)
  if not chunk then error(err, 0) end
  describe(file, chunk)
end

-- Failures with the first lines of their tracebacks (the reply of a remote
-- run keeps only the end of the output).
for _, f in ipairs(failures) do
  local n, short = 0, {}
  for line in f:gmatch("[^\n]+") do
    n = n + 1
    if n <= 6 then short[#short + 1] = line end
  end
  print("\nFailure -> " .. table.concat(short, "\n"))
end
print(string.format("%d successes / %d failures / 0 errors / %d pending",
                    counts.pass, counts.fail, counts.pending))
if counts.fail > 0 then error("minibusted: " .. counts.fail .. " failures", 0) end
