--- cute.picture.text -- a picture model in the terminal.  A plain layout
-- prints exactly as CuTe's print_layout (cute.print); every other model
-- prints each panel as a framed table in the same style, one cell per
-- coordinate, e.g. the TV cells of the paper's Figure 6:
--
--   ((4,8),2):((16,1),8)
--            0       1       2    ...
--       +-------+-------+-------+
--    0  | T0 V0 | T0 V1 | T1 V0 |
--
-- Bank-conflicted cells end in "!".
local print_m = require "cute.print"

local M = {}

local function cell_string(cell)
  if not cell then return "" end
  local s = table.concat(cell.text, " ")
  return cell.mark and s .. "!" or s
end

local function panel(out, p)
  local texts, width = {}, 1
  for i = 1, p.rows * p.cols do
    texts[i] = cell_string(p.cells[i])
    width = math.max(width, #texts[i])
  end
  if p.name ~= "" then out[#out + 1] = p.name .. "\n" end
  out[#out + 1] = "    "
  for n = 0, p.cols - 1 do out[#out + 1] = ("  %" .. width .. "d "):format(n) end
  out[#out + 1] = "\n"
  local rule = "    " .. ("+" .. ("-"):rep(width + 2)):rep(p.cols) .. "+\n"
  local fmt = "| %" .. width .. "s "
  for m = 0, p.rows - 1 do
    out[#out + 1] = rule
    out[#out + 1] = ("%2d  "):format(m)
    for n = 0, p.cols - 1 do
      out[#out + 1] = fmt:format(texts[m * p.cols + n + 1])
    end
    out[#out + 1] = "|\n"
  end
  out[#out + 1] = rule
end

--- The text (ends with a newline).
function M.render(model)
  if model.kind == "layout" then return print_m.format_layout(model.source) end
  local out = {}
  for _, line in ipairs(model.title) do out[#out + 1] = line .. "\n" end
  for _, p in ipairs(model.panels) do panel(out, p) end
  return table.concat(out)
end

return M
