--- cute.picture.model -- what a picture shows, independent of how it is
-- drawn: a list of panels, each a grid of cells placed on one common grid
-- of cell units (so an MMA's A, B and C sit around each other as in
-- CuTe's print_latex).  The renderers (text, svg, html, tikz) only draw
-- models.
--
--   model = { kind = "layout" | "tv" | "mma" | "copy" | "banks",
--             title = { line, ... }, panels = { panel, ... } }
--   panel = { name = "C", rows = 16, cols = 8, row0 = 0, col0 = 0,
--             cells = { [r * cols + c + 1] = cell } }
--   cell  = { text = { "T0", "V0" } | { "13" }, fill = "#rrggbb",
--             m = , n =  (the cell's coordinate in its tile), t = , v = ,
--             o = (offset), b = (bank), mark = "2-way" (conflict) }
-- Every panel leaves one cell unit on its top and left for its labels.
-- TikZ output also reads model.tikz_comments, model.tikz_order and each
-- panel's tikz = {dr, dc, labels} placement (see cute.picture.tikz).
local core = require "cute.core"
local tv = require "cute.tv"
local palette = require "cute.picture.palette"
local limits = require "cute.limits"
local print_m = require "cute.print"

local M = {}

function M.panel(name, rows, cols, row0, col0)
  return { name = name, rows = rows, cols = cols, row0 = row0 or 0,
           col0 = col0 or 0, cells = {} }
end

function M.put(p, r, c, cell)
  cell.m, cell.n = cell.m or r, cell.n or c
  p.cells[r * p.cols + c + 1] = cell
end

local function cell_text(x)
  return type(x) == "table" and core.tuple_tostring(x) or tostring(x)
end

-- (rows, cols) of a rank <= 2 layout's domain, its cells checked against
-- cute.limits.cells; an error beyond rank 2.
M.extent = print_m.extent

--- A data layout (or a swizzled ComposedLayout): one cell per coordinate,
-- holding the offset, filled with CuTe's print_latex greys -- or, where
-- opts.highlight(m, n, offset) is true, in thread 0's colour (to show a
-- slice or a tile of the layout).
function M.layout(L, opts, op)
  local rows, cols = M.extent(L, op)
  local p = M.panel("", rows, cols)
  for m = 0, rows - 1 do
    for n = 0, cols - 1 do
      local o = cols > 1 and L(m, n) or L(m)
      local fill = math.type(o) == "integer" and palette.offset(o) or "#ffffff"
      if opts.highlight and opts.highlight(m, n, o) then
        fill = palette.thread(0)
      end
      M.put(p, m, n, { text = { cell_text(o) }, o = cell_text(o), fill = fill })
    end
  end
  -- CuTe's print_latex shows a rank-1 layout as (L, 1:0)
  local shown = core.rank(L) == 1 and getmetatable(L) == core.metatables.Layout
    and core.concat(L, core.layout(1, 0)) or L
  return { kind = "layout", source = L, title = { opts.title or tostring(L) },
           tikz_comments = { "Layout: " .. tostring(shown) }, panels = { p } }
end

--- A panel of TV layout X over a tile of `shape` {I, J}: each cell holds
-- its first owner "T# V#" in that thread's colour.  `flip` draws the tile
-- transposed (an MMA's B, stored (n,k) but drawn k down, n across);
-- `data` (a layout of the tile) gives the offsets shown on hover.
function M.tv_panel(name, X, shape, row0, col0, data, flip, op)
  local I, J = shape[1], shape[2]
  limits.check("cells", op, limits.product(limits.size(I), limits.size(J)),
    "cells", X)
  local owners = tv.owners(X, shape)
  local p = flip and M.panel(name, J, I, row0, col0)
    or M.panel(name, I, J, row0, col0)
  for j = 0, J - 1 do
    for i = 0, I - 1 do
      local own = owners[i + I * j + 1]
      local cell
      if own then
        cell = { text = { "T" .. own.t, "V" .. own.v }, t = own.t, v = own.v,
          fill = palette.thread(own.t), m = i, n = j,
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
    error(("%s(%s): a TV layout needs its tile shape {M, N} (opts.tile)")
      :format(op, tostring(X)))
  end
  limits.check("cells", op, limits.size(X), "cells", X)
  local title = { opts.title or ("TV layout " .. tostring(X) .. " over "
    .. core.tuple_tostring(shape)) }
  if opts.data then title[2] = "data layout " .. tostring(opts.data) end
  return { kind = "tv", title = title,
           tikz_comments = { "Layout TV: " .. tostring(X) },
           panels = { M.tv_panel("", X, shape, 0, 0, opts.data, false, op) } }
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
  local gap = Kt + 2
  local pA = M.tv_panel("A", A, { Mt, Kt }, gap, 0, nil, false, op)
  local pB = M.tv_panel("B", B, { Nt, Kt }, 0, gap, nil, true, op)
  local pC = M.tv_panel("C", C, { Mt, Nt }, gap, gap, nil, false, op)
  pA.tikz = { dr = 0, dc = -Kt - 1 }
  pB.tikz = { dr = -Kt - 1, dc = 0 }
  pC.tikz = { labels = "none" }
  return { kind = "mma",
    title = { opts.title or head, "A " .. tostring(A), "B " .. tostring(B),
              "C " .. tostring(C) },
    tikz_comments = { "LayoutC: " .. tostring(C), "LayoutA: " .. tostring(A),
                      "LayoutB: " .. tostring(B) },
    tikz_order = { 3, 1, 2 }, panels = { pA, pB, pC } }
end

--- A tiled copy: its source (S) and destination (D) partitionings of one
-- tile, side by side.
function M.copy(x, opts, op)
  local shape = x.tiler_mn
  limits.check("cells", op,
    limits.product(2, limits.size(shape[1]), limits.size(shape[2])), "cells", x)
  local S, D = x:get_layoutS_TV(), x:get_layoutD_TV()
  local pD = M.tv_panel("D", D, shape, 0, shape[2] + 3, nil, false, op)
  pD.tikz = { dc = shape[2] + 3, labels = "right" }
  return { kind = "copy",
    title = { opts.title or ("TiledCopy of %s, TiledLayout_TV %s")
      :format(x.atom.name or "Copy_Atom", tostring(x.layout_tv)),
      "S " .. tostring(S), "D " .. tostring(D) },
    tikz_comments = { "Layout S TV: " .. tostring(S),
                      "Layout D TV: " .. tostring(D) },
    panels = { M.tv_panel("S", S, shape, 0, 0, nil, false, op), pD } }
end

--- The extent of a model in cell units, labels included:
-- row_min, col_min, row_max, col_max (max exclusive).
function M.bounds(model)
  local r0, c0, r1, c1 = math.huge, math.huge, -math.huge, -math.huge
  for _, p in ipairs(model.panels) do
    r0, c0 = math.min(r0, p.row0 - 1), math.min(c0, p.col0 - 1)
    r1, c1 = math.max(r1, p.row0 + p.rows), math.max(c1, p.col0 + p.cols)
  end
  return r0, c0, r1, c1
end

return M
