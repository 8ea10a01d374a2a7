--- cute.picture.tikz -- a picture model as a standalone LaTeX/TikZ file,
-- in the form of CuTe's print_latex (cute/util/print_latex.hpp): the same
-- preamble, x down and y across, one 1cm node per cell, CuTe's 8 greys
-- by offset for layouts and, for TV layouts, the lane colours of the SVG
-- and HTML pictures (cute.picture.palette: CuTe's 8 would give T0 and T8
-- one colour), the grid, \Large\texttt labels, and "% Layout..." comment lines.
-- Placement follows CuTe too: an MMA's C at (0,0), A at (0,-K-1), B at
-- (-K-1,0); a copy's D N+3 columns right of S.  Pictures CuTe has no
-- print_latex for (bank conflicts) use the same form with their own fills
-- and a red frame on conflicted cells.
local palette = require "cute.picture.palette"

local M = {}

local HEADER = "\\documentclass[convert]{standalone}\n\\usepackage{tikz}\n\n"
  .. "\\begin{document}\n\\begin{tikzpicture}[x={(0cm,-1cm)},y={(1cm,0cm)},"
  .. "every node/.style={minimum size=1cm, outer sep=0pt}]\n\n"
local FOOTER = "\\end{tikzpicture}\n\\end{document}\n"

-- The fill and text of a cell: CuTe's grey by offset in a layout, else
-- the picture's own fill; two-line cells ("T0", "V0") stacked as CuTe's.
local function node(kind, cell)
  local fill, text = palette.tikz(cell.fill), table.concat(cell.text, " ")
  local o = math.tointeger(tonumber(cell.o))
  if kind == "layout" and o then
    fill = palette.offset_tikz(o)
  elseif #cell.text == 2 then
    text = ("\\shortstack{%s \\\\ %s}"):format(cell.text[1], cell.text[2])
  end
  if cell.mark then fill = fill .. ",draw=red,very thick" end
  return fill, text
end

local function label(out, r, c, text)
  out[#out + 1] = ("\\node at (%d,%d) {\\Large{\\texttt{%d}}};\n")
    :format(r, c, text)
end

-- Nodes, grid and labels of one panel; p.tikz = {dr, dc, labels} places
-- it (labels "left" of and above the grid, "right" and above, or "none").
local function panel(out, kind, p)
  local t = p.tikz or {}
  local dr, dc = t.dr or 0, t.dc or 0
  local nodes = {}
  for r = 0, p.rows - 1 do
    for c = 0, p.cols - 1 do
      local cell = p.cells[r * p.cols + c + 1]
      if cell and (cell.t or cell.o or cell.b) then
        nodes[#nodes + 1] = { r = r, c = c, cell = cell, i = #nodes }
      end
    end
  end
  -- CuTe writes TV cells thread by thread, value by value
  table.sort(nodes, function(a, b)
    local x, y = a.cell, b.cell
    if x.t and y.t and (x.t ~= y.t or x.v ~= y.v) then
      return x.t < y.t or (x.t == y.t and x.v < y.v)
    end
    return a.i < b.i
  end)
  for _, nd in ipairs(nodes) do
    local fill, text = node(kind, nd.cell)
    out[#out + 1] = ("\\node[fill=%s] at (%d,%d) {%s};\n")
      :format(fill, nd.r + dr, nd.c + dc, text)
  end
  out[#out + 1] = ("\\draw[color=black,thick,shift={(-0.5,-0.5)}] (%d,%d) "
    .. "grid (%d,%d);\n\n"):format(dr, dc, dr + p.rows, dc + p.cols)
  local where = t.labels or "left"
  if where == "none" then return end
  local col = where == "right" and dc + p.cols or dc - 1
  for r = 0, p.rows - 1 do label(out, r + dr, col, r) end
  for c = 0, p.cols - 1 do label(out, dr - 1, c + dc, c) end
end

--- The .tex document (a string).
function M.render(model)
  local out = {}
  for _, line in ipairs(model.tikz_comments or model.title) do
    out[#out + 1] = "% " .. line .. "\n"
  end
  out[#out + 1] = HEADER
  local order = model.tikz_order or {}
  if #order == 0 then
    for i = 1, #model.panels do order[i] = i end
  end
  for _, i in ipairs(order) do panel(out, model.kind, model.panels[i]) end
  out[#out + 1] = FOOTER
  return table.concat(out)
end

return M
