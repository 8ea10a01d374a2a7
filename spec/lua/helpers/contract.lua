--- helpers.contract -- the error contract's checks (docs/architecture.md,
-- "Errors"), shared by the error catalogue's specs.
--   says(wants, f, ...)   the message of the error f(...) raises, each
--                         `want` (plain text) appearing in it
--   clean(msg)            nothing of the implementation leaks into msg
--   api(t, module, rows, can_run)   the argument checks of every
--                         function of `module`, one row each (below); t
--                         holds the spec file's describe and it
local assert = require "luassert"
local err = require "helpers.err"

local M = {}

function M.says(wants, f, ...)
  local msg = err(f, ...)
  for _, w in ipairs(wants) do assert.matches(w, msg, 1, true) end
  return msg
end

-- No raw Lua runtime error about the stdlib's own locals, no position
-- inside the stdlib, no table address.
function M.clean(msg)
  assert.falsy(msg:find("attempt to ", 1, true), msg)
  assert.falsy(msg:find("local '", 1, true), msg)
  assert.falsy(msg:find("cute/[%w_/]*%.lua:%d+"), msg)
  assert.falsy(msg:find("for iterator", 1, true), msg)
  assert.falsy(msg:find("0x%x%x%x%x"), msg)
end

-- The message of module[name] called with the row's arguments, argument k
-- replaced by `value`.
local function call(module, name, row, k, value)
  local a = table.move(row[1], 1, #row[1], 1, {})
  a[k] = value
  return err(module[name], table.unpack(a, 1, math.max(#row[1], k)))
end

-- It names the function, argument k (row.marks[k], else "#k") and what
-- was received (one of `got`).
local function check(msg, name, row, k, got)
  assert.matches(name, msg, 1, true)
  assert.matches(row.marks and row.marks[k] or "#" .. k, msg, 1, true)
  local seen = false
  for _, g in ipairs(got) do seen = seen or msg:find(g, 1, true) ~= nil end
  assert.is_true(seen, msg)
  M.clean(msg)
end

--- rows: name = {valid args, n required, opt = {optional k...}, marks =
-- {k = the text naming argument k}, layouts = {k...} (Layout arguments:
-- a string is refused too), none = the reason when all are missing}.
-- The function is called with its row's arguments (when can_run), with
-- none, and with each required argument nil, each required or optional
-- one `true` (a type no argument takes) and each Layout one a string.
-- A function of `module` without a row fails: state its argument errors
-- when adding it.
function M.api(t, module, rows, can_run)
  local describe, it = t.describe, t.it
  local names = {}
  for name in pairs(rows) do names[#names + 1] = name end
  table.sort(names)
  for _, name in ipairs(names) do
    local row = rows[name]
    describe(name, function()
      if can_run then
        it("works with the row's arguments", function()
          local ok, why = pcall(module[name], table.unpack(row[1]))
          assert.is_true(ok, why)
        end)
      end
      if row[2] > 0 then
        it("without arguments", function()
          local msg = err(module[name])
          assert.matches(name, msg, 1, true)
          if row.none then assert.matches(row.none, msg, 1, true) end
          M.clean(msg)
        end)
      end
      for k = 1, row[2] do
        it("with nil as argument " .. k, function()
          check(call(module, name, row, k, nil), name, row, k, {"no value", "nil"})
        end)
      end
      local typed = table.move(row.opt or {}, 1, #(row.opt or {}), 1, {})
      for k = 1, row[2] do typed[#typed + 1] = k end
      for _, k in ipairs(typed) do
        it("with a boolean as argument " .. k, function()
          check(call(module, name, row, k, true), name, row, k, {"boolean"})
        end)
      end
      for _, k in ipairs(row.layouts or {}) do
        it("with a string as Layout argument " .. k, function()
          check(call(module, name, row, k, "(4,8):(1,4)"), name, row, k, {"string"})
        end)
      end
    end)
  end

  it("has a row for every function", function()
    local missing = {}
    for name, f in pairs(module) do
      if type(f) == "function" and not rows[name] then missing[#missing + 1] = name end
    end
    table.sort(missing)
    assert.same({}, missing)
  end)
end

return M
