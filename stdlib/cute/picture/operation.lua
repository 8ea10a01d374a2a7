--- cute.picture.operation -- pictures of operations, not only of layouts:
-- cute.operation(name, A, B) is the call and its result; cute.show draws
-- the operands and the result side by side, and every result cell names
-- the operand cells it comes from (hover it in the HTML page: they light
-- up).
--
--   local op = cute.operation("composition", cute.layout "(6,2):(8,2)",
--                                            cute.layout "(4,3):(3,1)")
--   print(op)     --> composition((6,2):(8,2), (4,3):(3,1)) = ((2,2),3):((24,2),8)
--   cute.show(op, "composition.html")
--
-- Which cells correspond: R = composition(A, B) evaluates R(i) = A(B(i)),
-- so result cell i comes from B's cell i and from A's cell B(i).  Every
-- other operation (divides, products, coalesce, ...) rearranges the
-- offsets of A: result cell i comes from the cells of A holding the same
-- offset R(i).  Each layout is drawn as a (mode 0, the other modes) grid,
-- so layouts of any rank fit.
local core = require "cute.core"
local E = require "cute.error"
local tiler = require "cute.tiler"
local model_m = require "cute.picture.model"
local palette = require "cute.picture.palette"
local print_m = require "cute.print"

local M = {}

local Operation
Operation, M.is_operation = model_m.class("cute.Operation", function(self)
  return require("cute.explain").call_text(self.name, self.args) .. " = "
    .. tostring(self.result)
end)

--- operation(name, A [, B, ...]) -> Operation: cute[name](A, B, ...) and
-- its operands, for cute.show / cute.render.
function M.operation(name, ...)
  local f = require("cute.explain").cute_function("operation", name)
  local args = table.pack(...)
  -- an error of the call is the operation's (a C function's argument
  -- error named the local `f`, at this file's line)
  local result = E.within("operation", f, ...)
  if not (tiler.is_layout(result)
          or getmetatable(result) == core.metatables.ComposedLayout) then
    E.raise(("operation: %s returns a %s, not a layout to draw")
      :format(name, E.typename(result)))
  end
  return setmetatable({ name = name, args = { table.unpack(args, 1, args.n) },
                        result = result }, Operation)
end

-- (rows, cols) of L drawn as (mode 0, the other modes).
local function grid(L)
  local n = core.size(L)
  local rows = core.rank(L) == 1 and n or core.size(L:mode(0))
  return rows, n // rows
end

-- A panel of L's offsets at (row0, col0); cell index i = m + rows * n.
local function panel(name, L, row0, col0)
  local rows, cols = grid(L)
  local p = model_m.panel(name, rows, cols, row0, col0)
  for i = 0, rows * cols - 1 do
    local o = L(i)
    local text = print_m.cell_text(o)
    model_m.put(p, i % rows, i // rows, { text = { text }, o = text, i = i,
      fill = math.type(o) == "integer" and palette.offset(o) or "#ffffff" })
  end
  return p
end

local function where(p, i)
  return ("%s:%d,%d"):format(p.name, i % p.rows, i // p.rows)
end

--- The picture model of an Operation.
function M.model(op, opts, call)
  local A, B, R = op.args[1], op.args[2], op.result
  local layouts = { A }
  if tiler.is_layout(B) then layouts[2] = B end
  layouts[#layouts + 1] = R
  local limits = require "cute.limits"
  local cells = 0  -- a float: a sum of sizes near 2^63 must not wrap
  for _, L in ipairs(layouts) do cells = cells + limits.size(L) end
  limits.check("cells", call or "show", cells, "cells", op)
  local panels, col0 = {}, 1
  for k, L in ipairs(layouts) do
    local name = k == #layouts and "R" or (k == 1 and "A" or "B")
    local p = panel(name, L, 1, col0)
    panels[k] = p
    col0 = col0 + p.cols + 2
  end
  local pA, pR = panels[1], panels[#panels]
  local by_offset = {}
  for _, c in pairs(pA.cells) do
    by_offset[c.o] = by_offset[c.o] or {}
    table.insert(by_offset[c.o], where(pA, c.i))
  end
  for _, c in pairs(pR.cells) do
    local from = {}
    if op.name == "composition" and #panels == 3 then
      local b = B(c.i)
      from[1] = where(panels[2], c.i)
      if math.type(b) == "integer" and b >= 0 and b < core.size(A) then
        from[2] = where(pA, b)
      end
    else
      from = by_offset[c.o] or {}
    end
    c.link = table.concat(from, " ")
    c.fill = #from > 0 and palette.thread(c.i) or c.fill
  end
  -- the operand cells a result cell names share its colour
  for _, c in pairs(pR.cells) do
    for ref in c.link:gmatch("%S+") do
      local pname, m, n = ref:match("^(%a+):(%d+),(%d+)$")
      for _, p in ipairs(panels) do
        if p.name == pname then
          local src = p.cells[tonumber(m) * p.cols + tonumber(n) + 1]
          if src and src.fill:match("^#") and not src.linked then
            src.fill, src.linked = c.fill, true
          end
        end
      end
    end
  end
  return { kind = "operation", source = op,
           title = { opts.title or tostring(op),
                     "A, B: the operands; R: the result; a result cell and "
                       .. "the operand cells it comes from share a colour" },
           panels = panels }
end

return M
