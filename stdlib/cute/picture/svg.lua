--- cute.picture.svg -- a picture model (cute.picture.model) as SVG.
--
-- Cells are squares of `cell` pixels: unless opts.cell says otherwise,
-- large enough for two-line "T127 / V63" labels (24 px) while the picture
-- stays under about 3000 pixels, else what keeps it about 1200 wide;
-- labels and cell text appear only where they fit.  TV panels draw lines
-- where the owning warp changes (thick ones where the warp group of 128
-- threads does); panels with axes name them (M, N, K); a legend of
-- swatches (lanes, banks) goes below.  Each cell carries a <title> tooltip
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
local LEGEND = 22      -- legend swatch size in pixels

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
  local s = opts.cell or math.max(4, math.min(48,
    math.max(1200 // span, math.min(24, 3000 // span))))
  local pad = 8
  local top = pad + #model.title * TITLE_LINE + 4
  local g = { cell = s, pad = pad, top = top,
    width = 2 * pad + (c1 - c0) * s,
    height = top + pad + (r1 - r0) * s }
  if model.legend then
    g.legend_top = g.height
    g.swatch = LEGEND
    g.per_row = math.max(8, (g.width - 2 * pad) // (LEGEND + 4))
    g.height = g.height + TITLE_LINE
      + math.ceil(#model.legend / g.per_row) * (LEGEND + 4) + pad
  end
  -- 13 px DejaVu Sans Mono: 7.83 px a character
  for _, line in ipairs(model.title) do
    g.width = math.max(g.width, 2 * pad + math.ceil(#line * 7.9))
  end
  if model.legend then
    g.width = math.max(g.width, 2 * pad
      + math.ceil(#(model.legend.title or "legend") * 7.9))
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
  if cell.link then parts[#parts + 1] = "from " .. cell.link end
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
  if cell.link then a[#a + 1] = (' data-l="%s"'):format(esc(cell.link)) end
  if cell.i then a[#a + 1] = (' data-i="%d"'):format(cell.i) end
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

-- The names of the panel's axes: rows on the left, columns on top.
local function axes(out, g, p)
  if not p.axes or g.cell < 8 then return end
  local s = g.cell
  local size = math.min(s * 0.6, 16)
  -- the row axis reads downwards, so that a name longer than a letter
  -- fits in the margin's width of one cell; a panel may name its columns
  -- only (axes[1] false)
  local x, y = g.at(p.row0 + p.rows / 2, p.col0 - 2)
  x = x + s / 2
  if p.axes[1] then
    out[#out + 1] = ('<text x="%.1f" y="%.1f" font-size="%.1f" font-weight='
      .. '"bold" fill="#000" class="axis" transform="rotate(90 %.1f %.1f)">'
      .. '%s &#8594;</text>\n'):format(x, y, size, x, y, esc(p.axes[1]))
  end
  x, y = g.at(p.row0 - 2, p.col0 + p.cols / 2)
  out[#out + 1] = ('<text x="%.1f" y="%.1f" font-size="%.1f" font-weight='
    .. '"bold" fill="#000" class="axis">%s &#8594;</text>\n'):format(x,
    y + s / 2 + size * 0.35, size, esc(p.axes[2]))
end

-- Lines between neighbouring cells of different warps (thin) or warp
-- groups (thick), over the cells.
local function warp_lines(out, g, p)
  if not p.warps then return end
  local s = g.cell
  local thin, thick = math.max(1.5, s / 10), math.max(3, s / 5)
  local function edge(a, b, x1, y1, x2, y2)
    if not (a and b and a.w and b.w) or a.w == b.w then return end
    local group = a.t // 128 ~= b.t // 128
    out[#out + 1] = ('<line x1="%d" y1="%d" x2="%d" y2="%d" stroke="%s" '
      .. 'stroke-width="%.1f" class="%s"/>\n'):format(x1, y1, x2, y2,
      group and palette.group_line or palette.warp_line,
      group and thick or thin, group and "group" or "warp")
  end
  for r = 0, p.rows - 1 do
    for c = 0, p.cols - 1 do
      local cell = p.cells[r * p.cols + c + 1]
      local x, y = g.rect(p, r, c)
      if c + 1 < p.cols then
        edge(cell, p.cells[r * p.cols + c + 2], x + s, y, x + s, y + s)
      end
      if r + 1 < p.rows then
        edge(cell, p.cells[(r + 1) * p.cols + c + 1], x, y + s, x + s, y + s)
      end
    end
  end
end

-- The legend: a caption and numbered swatches.
local function legend(out, g, items)
  if not items then return end
  out[#out + 1] = ('<text x="%d" y="%d" font-size="13" text-anchor="start" '
    .. 'fill="#000">%s</text>\n'):format(g.pad, g.legend_top + TITLE_LINE - 4,
    esc(items.title or "legend"))
  for i, it in ipairs(items) do
    local k = i - 1
    local x = g.pad + (k % g.per_row) * (g.swatch + 4)
    local y = g.legend_top + TITLE_LINE + (k // g.per_row) * (g.swatch + 4)
    out[#out + 1] = ('<rect x="%d" y="%d" width="%d" height="%d" fill="%s" '
      .. 'stroke="#444" stroke-width="0.5" class="legend"/>\n'):format(x, y,
      g.swatch, g.swatch, it.fill)
    out[#out + 1] = ('<text x="%.1f" y="%.1f" font-size="10" fill="%s">%s'
      .. '</text>\n'):format(x + g.swatch / 2, y + g.swatch / 2 + 3.5,
      palette.ink(it.fill), esc(it.text))
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
  warp_lines(out, g, p)
  labels(out, g, p)
  axes(out, g, p)
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
  out[#out + 1] = "</g>\n"
  legend(out, g, model.legend)
  out[#out + 1] = "</svg>\n"
  return table.concat(out)
end

return M
