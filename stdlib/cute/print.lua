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

--- (rows, cols) of a rank <= 2 layout's picture, after checking its
-- cells against cute.limits.cells (op names the public call): a rank-2
-- layout is drawn as a table, rank 1 as one column, higher ranks refused.
-- The count is limits.product's, which cannot wrap.
function M.extent(L, op)
  local r = core.rank(L)
  if r > 2 then
    E.raise(("%s(%s): rank-2 layout expected, got rank %d")
      :format(op, tostring(L), r))
  end
  local shape = L:shape()
  local rows = limits.size(r == 2 and shape[1] or shape)
  local cols = r == 2 and limits.size(shape[2]) or 1
  limits.check("cells", op, limits.product(rows, cols), "cells", L)
  return math.tointeger(rows), math.tointeger(cols)
end

local Layout = core.metatables.Layout

-- CuTe's num_digits: decimal digits of a non-negative int.
local function num_digits(x)
  local n = 1
  while x >= 10 do x = x // 10; n = n + 1 end
  return n
end

--- The text of a layout's value in a cell: an offset ("13") or, for a
-- coordinate layout, a tuple ("(1,2)").
function M.cell_text(v)
  return type(v) == "table" and core.tuple_tostring(v) or tostring(v)
end
local cell_text = M.cell_text

-- Cell width: CuTe's num_digits(cosize(L)); a cosize past 2^63 - 1 (its
-- largest offset is the largest integer) has 19 digits.
local function offset_width(L)
  local ok, c = pcall(core.cosize, L)
  return num_digits(ok and c or math.maxinteger)
end

-- The table as a string; `op` names the public call in errors.
local function format(L, op)
  local mt = getmetatable(L)
  if mt ~= Layout and mt ~= core.metatables.ComposedLayout then
    E.raise(("bad argument #1 to '%s' (cute.Layout or cute.ComposedLayout "
      .. "expected, got %s)"):format(op, E.typename(L)))
  end
  local rows, cols = M.extent(L, op)
  local r = core.rank(L)
  local ok, cells = pcall(function()
    local t = {}
    for m = 0, rows - 1 do
      for n = 0, cols - 1 do
        t[m * cols + n + 1] = cell_text(r == 2 and L(m, n) or L(m))
      end
    end
    return t
  end)
  if not ok then  -- an offset past 64 bits: say which call met it
    error(("%s(%s): %s"):format(op, tostring(L), tostring(cells)), 0)
  end
  local width
  if type(r == 2 and L(0, 0) or L(0)) == "table" then  -- coordinate layout
    width = 0
    for _, s in ipairs(cells) do width = math.max(width, #s) end
  else
    width = offset_width(L)
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

--- The table as a string (ends with a newline).
function M.format_layout(L)
  return format(L, "format_layout")
end

--- Writes the table to standard output (io.write, or print where the host
-- left io closed).
function M.print_layout(L)
  local s = format(L, "print_layout")
  if io and io.write then io.write(s) else print(s:sub(1, -2)) end
end

return M
