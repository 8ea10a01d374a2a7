--- bench_util -- what the GPU benches share (bench/gpu/gemm.lua,
-- gemm_sm90.lua): their log and their cuBLAS reference through python.
--
--   local util = require "bench_util"      -- LUA_PATH has bench/gpu/?.lua
--   local say = util.logger("gemm.log")    -- prints, and logs to $OUT/gemm.log
--   say("%d x %d", m, n)
--   local lines = util.python(SCRIPT, {"4096", "8192"})
local M = {}

--- say(fmt, ...): prints the line, and appends it to $OUT/name when OUT is
-- set (bench/gpu/run.sh collects the logs there).
function M.logger(name)
  local dir = os.getenv("OUT")
  local log = dir and io.open(dir .. "/" .. name, "w")
  return function(fmt, ...)
    local line = fmt:format(...)
    print(line)
    if log then log:write(line, "\n") log:flush() end
  end
end

--- The output lines (stderr too) of python3 running `script` with `args`;
-- a machine without python or torch answers with its error text.
function M.python(script, args)
  local path = os.tmpname()
  local f = assert(io.open(path, "w"))
  f:write(script)
  f:close()
  local p = io.popen("python3 " .. path .. " " .. table.concat(args, " ") .. " 2>&1")
  local lines = {}
  for line in p:lines() do lines[#lines + 1] = line end
  p:close()
  os.remove(path)
  return lines
end

return M
