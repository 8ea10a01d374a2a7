--- cute.picture.model -- what a picture shows, independent of how it is
-- drawn: a list of panels, each a grid of cells placed on one common grid
-- of cell units (so an MMA's A, B and C sit around each other as in
-- CuTe's print_latex).  The renderers (text, svg, html, tikz) only draw
-- models.
--
--   model = { kind = "layout" | "tv" | "mma" | "copy" | "banks",
--             title = { line, ... }, panels = { panel, ... } }
--   panel = { name = "C", rows = 16, cols = 8, row0 = 0, col0 = 0,
--             axes = { "M", "N" } (names of the row and column axes),
--             cells = { [r * cols + c + 1] = cell } }
--   model.legend = { { fill = , text = }, ... } (swatches drawn below)
--   cell  = { text = { "T0", "V0" } | { "13" }, fill = "#rrggbb",
--             m = , n =  (the cell's coordinate in its tile), t = , v = ,
--             o = (offset), b = (bank), mark = "2-way" (conflict),
--             w = (warp: t // 32), link = "A:3 B:1" (cells it comes from) }
-- Every panel leaves one cell unit on its top and left for its labels, two
-- where it names its axes.
-- TikZ output also reads model.tikz_comments, model.tikz_order and each
-- panel's tikz = {dr, dc, labels} placement (see cute.picture.tikz).
local core = require "cute.core"
local tv = require "cute.tv"
local palette = require "cute.picture.palette"
local E = require "cute.error"
local limits = require "cute.limits"
local print_m = require "cute.print"

local M = {}

--- A kind of object the pictures draw besides layouts and atoms (a
-- bank-conflict analysis, an operation): its metatable, named `name` in
-- errors and printed by `tostring`, and the test for it.
function M.class(name, tostring)
  local C = { __name = name, __tostring = tostring }
  C.__index = C
  return C, function(x) return getmetatable(x) == C end
end

function M.panel(name, rows, cols, row0, col0, axes)
  return { name = name, rows = rows, cols = cols, row0 = row0 or 0,
           col0 = col0 or 0, axes = axes, cells = {} }
end

-- The legend of a TV picture: the 32 lane colours.
local function lane_legend()
  local items = {}
  for t = 0, 31 do items[#items + 1] = { fill = palette.thread(t), text = t } end
  items.title = "lane (thread mod 32); thin lines: warps, thick: warp groups"
  return items
end
M.lane_legend = lane_legend

function M.put(p, r, c, cell)
  cell.m, cell.n = cell.m or r, cell.n or c
  p.cells[r * p.cols + c + 1] = cell
end

local cell_text = print_m.cell_text

-- (rows, cols) of a rank <= 2 layout's domain, its cells checked against
-- cute.limits.cells (counted without wrapping); an error beyond rank 2.
M.extent = print_m.extent

-- The fill of offset o: CuTe's greys, or by shared-memory bank (4-byte
-- words of 32 banks) or by 16-byte chunk (8 per 128 bytes) when
-- opts.color says so, elements being opts.bytes wide (default 2).
local function offset_fill(o, opts)
  if math.type(o) ~= "integer" then return "#ffffff" end
  local bytes = opts.bytes or 2
  if opts.color == "bank" then
    local b = (o * bytes // 4) % 32
    return palette.bank(b), b
  elseif opts.color == "chunk" then
    return palette.chunk(o * bytes // 16 % 8)
  end
  return palette.offset(o)
end

local function color_legend(opts)
  if opts.color == "bank" then
    local items = { title = ("bank ((offset * %d bytes / 4) mod 32)")
      :format(opts.bytes or 2) }
    for b = 0, 31 do items[b + 1] = { fill = palette.bank(b), text = b } end
    return items
  elseif opts.color == "chunk" then
    local items = { title = ("16-byte chunk ((offset * %d bytes / 16) mod 8)")
      :format(opts.bytes or 2) }
    for c = 0, 7 do items[c + 1] = { fill = palette.chunk(c), text = c } end
    return items
  end
end

-- One panel of offsets: cell (m, n) holds at(m, n).
local function offsets_panel(name, rows, cols, row0, col0, at, opts)
  local p = M.panel(name, rows, cols, row0, col0)
  for m = 0, rows - 1 do
    for n = 0, cols - 1 do
      local o = at(m, n)
      local fill, bank = offset_fill(o, opts)
      if opts.highlight and opts.highlight(m, n, o) then
        fill = palette.thread(0)
      end
      M.put(p, m, n, { text = { cell_text(o) }, o = cell_text(o), fill = fill,
        b = bank })
    end
  end
  return p
end

-- A layout of rank 3 or more: one (mode 0, mode 1) panel per coordinate
-- of the remaining modes, left to right, wrapping into rows of panels.
local function layout_slices(L, opts, op)
  local shape = L:shape()
  local rest = {}
  for i = 3, #shape do rest[#rest + 1] = shape[i] end
  limits.check("cells", op, limits.product(limits.size(shape[1]),
    limits.size(shape[2]), limits.size(rest)), "cells", L)
  local rows, cols = core.size(shape[1]), core.size(shape[2])
  local nrest = core.size(rest)
  local per_row = math.max(1, math.min(nrest, 64 // (cols + 2)))
  local panels = {}
  for k = 0, nrest - 1 do
    local crd = core.idx2crd(k, rest)
    local row0 = (k // per_row) * (rows + 2)
    local col0 = (k % per_row) * (cols + 2)
    local name = core.tuple_tostring(crd):gsub("^%((.*)%)$", "%1")
    panels[#panels + 1] = offsets_panel("(_,_," .. name .. ")", rows, cols,
      row0, col0, function(m, n)
        return L(m, n, table.unpack(crd))
      end, opts)
  end
  return { kind = "layouts", source = L,
           title = { opts.title or tostring(L),
                     "one panel per coordinate of modes 2.." },
           legend = color_legend(opts), panels = panels }
end

--- A data layout (or a swizzled ComposedLayout): one cell per coordinate,
-- holding the offset, filled with CuTe's print_latex greys (opts.color
-- "bank" or "chunk": by shared-memory bank or 16-byte chunk) -- or, where
-- opts.highlight(m, n, offset) is true, in thread 0's colour (to show a
-- slice or a tile of the layout).  Layouts of rank 3 and more draw one
-- panel per coordinate of their modes 2, 3, ...
function M.layout(L, opts, op)
  if core.rank(L) > 2 then return layout_slices(L, opts, op) end
  local rows, cols = M.extent(L, op)
  local p = offsets_panel("", rows, cols, 0, 0, function(m, n)
    if cols > 1 then return L(m, n) end
    return L(m)
  end, opts)
  -- CuTe's print_latex shows a rank-1 layout as (L, 1:0)
  local shown = core.rank(L) == 1 and getmetatable(L) == core.metatables.Layout
    and core.concat(L, core.layout(1, 0)) or L
  return { kind = opts.color and "layouts" or "layout", source = L,
           title = { opts.title or tostring(L) }, legend = color_legend(opts),
           tikz_comments = { "Layout: " .. tostring(shown) }, panels = { p } }
end

--- A panel of TV layout X over a tile of `shape` {I, J}: each cell holds
-- its first owner "T# V#" in that thread's colour.  `flip` draws the tile
-- transposed (an MMA's B, stored (n,k) but drawn k down, n across);
-- `data` (a layout of the tile) gives the offsets shown on hover.
function M.tv_panel(name, X, shape, row0, col0, data, flip, axes, op)
  local I, J = shape[1], shape[2]
  limits.check("cells", op, limits.product(limits.size(I), limits.size(J)),
    "cells", X)
  local owners = tv.owners(X, shape)
  local p = flip and M.panel(name, J, I, row0, col0, axes)
    or M.panel(name, I, J, row0, col0, axes)
  p.warps = true
  for j = 0, J - 1 do
    for i = 0, I - 1 do
      local own = owners[i + I * j + 1]
      local cell
      if own then
        cell = { text = { "T" .. own.t, "V" .. own.v }, t = own.t, v = own.v,
          w = own.t // 32, fill = palette.thread(own.t), m = i, n = j,
          o = data and cell_text(data(i, j)) or nil }
      else
        cell = { text = { "" }, fill = palette.empty, m = i, n = j }
      end
      if flip then M.put(p, j, i, cell) else M.put(p, i, j, cell) end
    end
  end
  return p
end

--- A TV layout over the tile `shape` (a table {M, N}), optionally of the
-- data layout `opts.data`.
function M.tv(X, shape, opts, op)
  if type(shape) ~= "table" or #shape ~= 2 then
    E.raise(("%s(%s): a TV layout needs its tile shape {M, N} (opts.tile)")
      :format(op, tostring(X)))
  end
  limits.check("cells", op, limits.size(X), "cells", X)
  local title = { opts.title or ("TV layout " .. tostring(X) .. " over "
    .. core.tuple_tostring(shape)) }
  if opts.data then title[2] = "data layout " .. tostring(opts.data) end
  return { kind = "tv", title = title, legend = lane_legend(),
           tikz_comments = { "Layout TV: " .. tostring(X) },
           panels = { M.tv_panel("", X, shape, 0, 0, opts.data, false,
                                 { "M", "N" }, op) } }
end

--- An MMA atom or tiled MMA: B (K x N) above C (M x N), A (M x K) to the
-- left of C, as CuTe's print_latex(TiledMMA) lays them out.
function M.mma(x, opts, op)
  local atom = require "cute.atom"
  local A, B, C, Mt, Nt, Kt, head
  if atom.is_mma_atom(x) then
    A, B, C = x.A, x.B, x.C
    Mt, Nt, Kt = table.unpack(x.shape_mnk)
    head = x.name or "MMA_Atom"
  else
    A, B, C = x:get_layoutA_TV(), x:get_layoutB_TV(), x:get_layoutC_TV()
    Mt, Nt, Kt = table.unpack(x:tile_shape())
    head = ("TiledMMA of %s, ThrLayoutVMNK %s"):format(x.atom.name or
      "MMA_Atom", tostring(x.thr_layout_vmnk))
  end
  -- all three tiles before any panel is drawn
  local m, n, k = limits.size(Mt), limits.size(Nt), limits.size(Kt)
  limits.check("cells", op, limits.product(k, m + n) + limits.product(m, n),
    "cells", x)
  local gap = Kt + 3
  local pA = M.tv_panel("A", A, { Mt, Kt }, gap, 1, nil, false, { "M", "K" },
                        op)
  local pB = M.tv_panel("B", B, { Nt, Kt }, 1, gap, nil, true, { "K", "N" },
                        op)
  local pC = M.tv_panel("C", C, { Mt, Nt }, gap, gap, nil, false,
                        { "M", "N" }, op)
  pA.tikz = { dr = 0, dc = -Kt - 1 }
  pB.tikz = { dr = -Kt - 1, dc = 0 }
  pC.tikz = { labels = "none" }
  return { kind = "mma",
    title = { opts.title or head, "A " .. tostring(A), "B " .. tostring(B),
              "C " .. tostring(C) },
    tikz_comments = { "LayoutC: " .. tostring(C), "LayoutA: " .. tostring(A),
                      "LayoutB: " .. tostring(B) },
    tikz_order = { 3, 1, 2 }, legend = lane_legend(), panels = { pA, pB, pC } }
end

--- A tiled copy: its source (S) and destination (D) partitionings of one
-- tile, side by side.
function M.copy(x, opts, op)
  local shape = x.tiler_mn
  limits.check("cells", op, limits.product(2, limits.size(shape[1]),
    limits.size(shape[2])), "cells", x)
  local S, D = x:get_layoutS_TV(), x:get_layoutD_TV()
  local pD = M.tv_panel("D", D, shape, 0, shape[2] + 3, nil, false,
                        { "M", "N" }, op)
  pD.tikz = { dc = shape[2] + 3, labels = "right" }
  return { kind = "copy",
    title = { opts.title or ("TiledCopy of %s, TiledLayout_TV %s")
      :format(x.atom.name or "Copy_Atom", tostring(x.layout_tv)),
      "S " .. tostring(S), "D " .. tostring(D) },
    tikz_comments = { "Layout S TV: " .. tostring(S),
                      "Layout D TV: " .. tostring(D) },
    legend = lane_legend(),
    panels = { M.tv_panel("S", S, shape, 0, 0, nil, false, { "M", "N" }, op),
               pD } }
end

--- The extent of a model in cell units, labels included:
-- row_min, col_min, row_max, col_max (max exclusive).
function M.bounds(model)
  local r0, c0, r1, c1 = math.huge, math.huge, -math.huge, -math.huge
  for _, p in ipairs(model.panels) do
    local margin = p.axes and 2 or 1
    r0, c0 = math.min(r0, p.row0 - margin), math.min(c0, p.col0 - margin)
    r1, c1 = math.max(r1, p.row0 + p.rows), math.max(c1, p.col0 + p.cols)
  end
  return r0, c0, r1, c1
end

return M
