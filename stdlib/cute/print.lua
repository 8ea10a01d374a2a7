--- cute.print -- print_layout: CuTe's 2-D table of a rank-2 layout,
-- character for character as cute::print_layout writes it:
--
--   (2,3):(3,1)
--          0    1    2
--       +----+----+----+
--    0  |  0 |  1 |  2 |
--       +----+----+----+
--    1  |  3 |  4 |  5 |
--       +----+----+----+
--
-- Each cell is num_digits(cosize) wide.  Beyond CuTe: a rank-1 layout is
-- shown as one column, and a coordinate layout's cells hold tuple text
-- ("(1,2)") with the width of the longest.
--
-- Limit: at most cute.limits.cells (65536) cells, in print_layout and in
-- every picture (cute.show, cute.render, cutelua --show); a bigger layout
-- is refused with its size before any work, as drawing it would not end.
local core = require "cute.core"
local E = require "cute.error"
local limits = require "cute.limits"

local M = {}

-- cute.print.max_cells: the old name of cute.limits.cells (reads and
-- writes go there).
setmetatable(M, {
  __index = function(_, k) if k == "max_cells" then return limits.cells end end,
  __newindex = function(t, k, v)
    if k == "max_cells" then limits.cells = v else rawset(t, k, v) end
  end})

--- Raises "op(L): n cells exceed the limit of 65536 cells
-- (cute.limits.cells)" when n is too big.
function M.check_cells(op, L, n)
  limits.check("cells", op, n, "cells", L)
end

local Layout = core.metatables.Layout

-- CuTe's num_digits: decimal digits of a non-negative int.
local function num_digits(x)
  local n = 1
  while x >= 10 do x = x // 10; n = n + 1 end
  return n
end

local function cell_text(v)
  return type(v) == "table" and core.tuple_tostring(v) or v
end

--- The table as a string (ends with a newline); `op` (default
-- "format_layout") names the public call in errors.
function M.format_layout(L, op)
  op = op or "format_layout"
  local mt = getmetatable(L)
  if mt ~= Layout and mt ~= core.metatables.ComposedLayout then
    E.raise(op .. ": cute.Layout or cute.ComposedLayout expected, got "
      .. E.typename(L))
  end
  local r = core.rank(L)
  if r > 2 then
    E.raise(("%s(%s): rank-2 layout expected, got rank %d")
      :format(op, tostring(L), r))
  end
  local shape = L:shape()
  local rows = core.size(r == 2 and shape[1] or shape)
  local cols = r == 2 and core.size(shape[2]) or 1
  M.check_cells(op, L, rows * cols)
  local cells = {}
  for m = 0, rows - 1 do
    for n = 0, cols - 1 do
      cells[m * cols + n + 1] = cell_text(r == 2 and L(m, n) or L(m))
    end
  end
  local width
  if type(r == 2 and L(0, 0) or L(0)) == "table" then  -- coordinate layout
    width = 0
    for _, s in ipairs(cells) do width = math.max(width, #s) end
  else
    width = num_digits(core.cosize(L))
  end
  local out = { tostring(L), "\n", "    " }
  for n = 0, cols - 1 do out[#out + 1] = ("  %" .. width .. "d "):format(n) end
  out[#out + 1] = "\n"
  local rule = "    " .. ("+" .. ("-"):rep(width + 2)):rep(cols) .. "+\n"
  local fmt = "| %" .. width .. "s "
  for m = 0, rows - 1 do
    out[#out + 1] = rule
    out[#out + 1] = ("%2d  "):format(m)
    for n = 0, cols - 1 do
      out[#out + 1] = fmt:format(cells[m * cols + n + 1])
    end
    out[#out + 1] = "|\n"
  end
  out[#out + 1] = rule
  return table.concat(out)
end

--- Writes the table to standard output (io.write, or print where the host
-- left io closed).
function M.print_layout(L)
  local s = M.format_layout(L, "print_layout")
  if io and io.write then io.write(s) else print(s:sub(1, -2)) end
end

return M
