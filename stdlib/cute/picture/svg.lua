--- cute.picture.svg -- a picture model (cute.picture.model) as SVG.
--
-- Cells are squares of `cell` pixels (chosen so the picture stays about
-- 1200 pixels wide unless opts.cell says otherwise); labels and cell text
-- appear only where they fit.  Each cell carries a <title> tooltip
-- ("T3 V1 (2,5) offset 21") while the picture has at most 4096 cells; with
-- opts.interactive every cell also carries data-* attributes (panel, m, n,
-- t, v, offset, bank, conflict) for the HTML page's script.
--
-- geometry(model, opts) tells where a cell lands, in pixels, for tests
-- and for anyone composing pictures.
local model_m = require "cute.picture.model"
local palette = require "cute.picture.palette"

local M = {}

local TITLE_LINE = 18

local function esc(s)
  return (tostring(s):gsub("[&<>\"]", { ["&"] = "&amp;", ["<"] = "&lt;",
    [">"] = "&gt;", ['"'] = "&quot;" }))
end
M.escape = esc

--- { cell = size, width = , height = , rect = function(panel, r, c) ->
-- x, y } for a model: rect gives the top-left pixel of cell (r, c) of a
-- panel.
function M.geometry(model, opts)
  opts = opts or {}
  local r0, c0, r1, c1 = model_m.bounds(model)
  local span = math.max(r1 - r0, c1 - c0)
  local s = opts.cell or math.max(4, math.min(48, 1200 // span))
  local pad = 8
  local top = pad + #model.title * TITLE_LINE + 4
  local g = { cell = s, pad = pad, top = top,
    width = 2 * pad + (c1 - c0) * s,
    height = top + pad + (r1 - r0) * s }
  for _, line in ipairs(model.title) do
    g.width = math.max(g.width, 2 * pad + math.ceil(#line * 7.3))
  end
  function g.at(r, c)
    return pad + (c - c0) * s, top + (r - r0) * s
  end
  function g.rect(p, r, c)
    return g.at(p.row0 + r, p.col0 + c)
  end
  return g
end

-- The <title> text of a cell.
local function describe(p, cell)
  local parts = {}
  if p.name ~= "" then parts[#parts + 1] = p.name end
  parts[#parts + 1] = ("(%d,%d)"):format(cell.m, cell.n)
  if cell.t then parts[#parts + 1] = ("T%d V%d"):format(cell.t, cell.v) end
  if cell.o then parts[#parts + 1] = "offset " .. cell.o end
  if cell.b then parts[#parts + 1] = "bank " .. cell.b end
  if cell.mark then parts[#parts + 1] = cell.mark .. " bank conflict" end
  return table.concat(parts, " ")
end
M.describe = describe

local function data_attrs(p, cell)
  local a = { (' data-p="%s" data-m="%d" data-n="%d"'):format(esc(p.name),
    cell.m, cell.n) }
  if cell.t then a[#a + 1] = (' data-t="%d" data-v="%d"'):format(cell.t, cell.v) end
  if cell.o then a[#a + 1] = (' data-o="%s"'):format(esc(cell.o)) end
  if cell.b then a[#a + 1] = (' data-b="%d"'):format(cell.b) end
  if cell.mark then a[#a + 1] = (' data-x="%s"'):format(esc(cell.mark)) end
  return table.concat(a)
end

-- Text of a cell, one or two lines, if it fits.
local function cell_text(out, x, y, s, cell)
  local lines = cell.text
  local longest = 0
  for _, l in ipairs(lines) do longest = math.max(longest, #l) end
  if longest == 0 then return end
  local size = math.min(s * (#lines == 1 and 0.42 or 0.3), 14,
    0.95 * s / (0.6 * longest))
  if size < 7 then return end
  local ink = palette.ink(cell.fill)
  for i, l in ipairs(lines) do
    local ty = y + s * (i - 0.5) / #lines + size * 0.35
    out[#out + 1] = ('<text x="%.1f" y="%.1f" font-size="%.1f" fill="%s">%s'
      .. '</text>\n'):format(x + s / 2, ty, size, ink, esc(l))
  end
end

local function labels(out, g, p)
  local s = g.cell
  if s < 10 then return end
  local size = math.min(s * 0.45, 13)
  local function label(r, c, text)
    local x, y = g.at(r, c)
    out[#out + 1] = ('<text x="%.1f" y="%.1f" font-size="%.1f" '
      .. 'fill="#555">%s</text>\n'):format(x + s / 2, y + s / 2 + size * 0.35,
      size, esc(text))
  end
  for r = 0, p.rows - 1 do label(p.row0 + r, p.col0 - 1, r) end
  for c = 0, p.cols - 1 do label(p.row0 - 1, p.col0 + c, c) end
  if p.name ~= "" then
    local x, y = g.at(p.row0 - 1, p.col0 - 1)
    out[#out + 1] = ('<text x="%.1f" y="%.1f" font-size="%.1f" '
      .. 'font-weight="bold" fill="#000">%s</text>\n'):format(x + s / 2,
      y + s / 2 + size * 0.35, size * 1.2, esc(p.name))
  end
end

local function panel(out, g, p, opts, titles)
  local s = g.cell
  local stroke = s >= 6 and ' stroke="#444" stroke-width="0.5"' or ""
  local mw = math.max(2, s // 8)
  for r = 0, p.rows - 1 do
    for c = 0, p.cols - 1 do
      local cell = p.cells[r * p.cols + c + 1]
      if cell then
        local x, y = g.rect(p, r, c)
        out[#out + 1] = ('<rect x="%d" y="%d" width="%d" height="%d" '
          .. 'fill="%s"%s%s>'):format(x, y, s, s, cell.fill, stroke,
          opts.interactive and data_attrs(p, cell) or "")
        out[#out + 1] = titles and ("<title>" .. esc(describe(p, cell))
          .. "</title></rect>\n") or "</rect>\n"
        if cell.mark then
          out[#out + 1] = ('<rect x="%.1f" y="%.1f" width="%d" height="%d" '
            .. 'fill="none" stroke="%s" stroke-width="%d" '
            .. 'pointer-events="none"/>\n'):format(x + mw / 2, y + mw / 2,
            s - mw, s - mw, palette.conflict, mw)
        end
        cell_text(out, x, y, s, cell)
      end
    end
  end
  labels(out, g, p)
end

--- The SVG document of a model (a string).
function M.render(model, opts)
  opts = opts or {}
  local g = M.geometry(model, opts)
  local n = 0
  for _, p in ipairs(model.panels) do n = n + p.rows * p.cols end
  local out = { ('<svg xmlns="http://www.w3.org/2000/svg" width="%d" '
    .. 'height="%d" viewBox="0 0 %d %d" font-family="DejaVu Sans Mono, '
    .. 'monospace" text-anchor="middle">\n'):format(g.width, g.height,
    g.width, g.height),
    ('<rect width="%d" height="%d" fill="#ffffff"/>\n'):format(g.width,
      g.height) }
  for i, line in ipairs(model.title) do
    out[#out + 1] = ('<text x="%d" y="%d" font-size="13" text-anchor="start" '
      .. 'fill="#000">%s</text>\n'):format(g.pad, g.pad + i * TITLE_LINE - 4,
      esc(line))
  end
  out[#out + 1] = '<g class="cells">\n'
  for _, p in ipairs(model.panels) do panel(out, g, p, opts, n <= 4096) end
  out[#out + 1] = "</g>\n</svg>\n"
  return table.concat(out)
end

return M
