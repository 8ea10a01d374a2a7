--- cute.error -- how the stdlib raises errors, in one place (docs/errors.md).
--
-- Misuse -- a wrong argument, an unknown name, a limit passed -- is
-- reported at the line of the script that called the public function,
-- however deep in the stdlib it is found:
--
--   cute.local_partition(A, 42, 0)   -- at script.lua:7
--   --> script.lua:7: local_partition: the thread layout must be a
--       cute.Layout, got number
--
-- raise() finds that line once, by walking the stack past the stdlib's
-- own frames (core.raise, in C), so no function counts error levels and
-- none wraps its body in a pcall to move positions afterwards.  Called
-- through pcall(cute.f, ...) the message has no position, as for the C
-- functions.  Inadmissible algebra is the C library's message, raised by
-- cute.core with no position.  A public function made of steps prefixes a
-- failing step's message with the call the user made (within).
local core = require "cute.core"

local M = {}

-- Inside within(), misuse is raised as {msg = ...} so that within can
-- prefix it before it is positioned; core.within counts the nested calls
-- (in C: a run stopped by the budget inside one must not leave it raised).
local depth = core.within_depth

--- Raise msg at the line that called into the stdlib.  core.raise must be
-- called from this file: it takes this file's directory as the stdlib's.
function M.raise(msg)
  if depth() > 0 then error({ msg = msg }, 0) end
  core.raise(msg)
end

--- The Lua type of x, or its class name (cute.Swizzle), for messages.
function M.typename(x)
  local mt = getmetatable(x)  -- cute's classes answer with a read-only view
  local readable = type(mt) == "table" or type(mt) == "userdata"
  return readable and type(mt.__name) == "string" and mt.__name or type(x)
end

--- Raises "bad argument #k to 'name' (what expected, got T)" unless ok.
function M.argcheck(ok, name, k, what, x)
  if not ok then
    M.raise(("bad argument #%d to '%s' (%s expected, got %s)")
      :format(k, name, what, M.typename(x)))
  end
end

-- An option's value as a message shows it: a number by its value, a
-- string quoted, anything else by its type (never a table's address).
local function shown(v)
  if type(v) == "number" then return tostring(v) end
  if type(v) == "string" then return ("%q"):format(v) end
  return M.typename(v)
end

--- A test for option specs: an integer in lo..hi.
function M.int_in(lo, hi)
  return function(v) return math.type(v) == "integer" and v >= lo and v <= hi end
end

--- The options of public call `op`, its argument #k (nil reads as {}),
-- checked against spec, a list of {key, test, "what it must be"} -- the
-- one option checker of the stdlib, so each module only declares its
-- keys:
--   bad argument #3 to 'render' (options table expected, got number)
--   render: opts.cell must be an integer in 1..1000 (pixels), got -5
-- With spec.closed, a key spec does not list is refused, before any
-- value, naming the keys:
--   render: unknown option colour (tile, data, ..., interactive)
-- The checks run in spec's order (the first unknown key by its text), so
-- with two bad options the message does not follow pairs' order.
function M.options(op, k, opts, spec)
  M.argcheck(opts == nil or type(opts) == "table", op, k, "options table",
    opts)
  opts = opts or {}
  if spec.closed then
    local known, names, bad = {}, {}, nil
    for i, o in ipairs(spec) do known[o[1]], names[i] = true, o[1] end
    for key in pairs(opts) do
      if not known[key] and (bad == nil or tostring(key) < bad) then
        bad = tostring(key)
      end
    end
    if bad then
      M.raise(("%s: unknown option %s (%s)"):format(op, bad,
        table.concat(names, ", ")))
    end
  end
  for _, o in ipairs(spec) do
    local v = opts[o[1]]
    if v ~= nil and not o[2](v) then
      M.raise(("%s: opts.%s must be %s, got %s"):format(op, o[1], o[3],
        shown(v)))
    end
  end
  return opts
end

-- The stdlib's folder as positions name it ("stdlib/cute/"): a C
-- function's argument error raised at a stdlib line starts with it.
local function here() error("") end
local folder = select(2, pcall(here)):match("^(.*[/\\])[^/\\]*:%d+: $")

-- Does msg name the call already: it begins with it, or quotes it (an
-- argument error, "bad argument #1 to 'local_tile'", or 'cute.local_tile'
-- as the bindings name their functions)?  Not a mere word of it:
-- "composition(...): operation ..." does not name operation.
local function names(msg, label)
  return msg:sub(1, #label) == label or msg:find("'" .. label .. "'", 1, true)
    or msg:find("'cute." .. label .. "'", 1, true)
end

-- The error e that ended f within(label, ...), raised as said there.
local function fail(label, e)
  local msg = type(e) == "table" and e.msg or e
  if type(msg) ~= "string" then error(e, 0) end
  local misuse = type(e) == "table"
  if folder and msg:sub(1, #folder) == folder then
    msg, misuse = msg:gsub("^[^\n]-:%d+: ", "", 1), true
  elseif msg:find("^bad argument #%d") then
    misuse = true   -- a C function f itself, called by within's pcall
  end
  if type(label) == "function" then label = label() end
  if not names(msg, label) then msg = label .. ": " .. msg end
  if misuse and depth() == 0 then M.raise(msg) end
  error(misuse and { msg = msg } or msg, 0)
end

-- core.within's results passed on (no table: the success path allocates
-- nothing).
local function finish(label, ok, ...)
  if ok then return ... end
  return fail(label, (...))
end

--- f(...) for a public function `label` ("op(A, T)", or a name, or a
-- function that makes it: called only on failure, so that a label made of
-- the operands' text costs nothing when the call succeeds) whose steps
-- call the C module with the user's values: an error is prefixed by the
-- label unless it names it already, so a failing step says which call it
-- was part of.  A C function's argument error, positioned at the
-- stdlib's line that called it (or at none, f being that C function:
-- operation's cute[name]), is misuse: raised at the caller's line.
-- The algebra's messages keep no position.  A pcall per call: for public
-- functions, not for per-launch paths.
function M.within(label, f, ...)
  return finish(label, core.within(f, ...))
end

--- The public function made of f: f(...) run by within(label, ...).
function M.protect(label, f)
  return function(...) return M.within(label, f, ...) end
end

return M
