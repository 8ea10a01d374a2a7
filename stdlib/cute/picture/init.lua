--- cute.picture -- pictures of layouts, TV layouts, MMA and copy atoms and
-- shared-memory bank conflicts: in the terminal, as SVG, as a
-- self-contained HTML page (hover for thread / value / offset), or as
-- TikZ in the form of CuTe's print_latex.
--
--   cute.show(L)                          -- terminal (print_layout for L)
--   cute.show(L, "layout.svg")            -- format from the extension:
--                                         -- .svg .html .tex .txt
--   cute.show(C, "c.html", {tile = {8, 8}, data = L})   -- a TV layout
--   cute.show(cute.mma_atom "SM80_16x8x16_F32F16F16F32_TN", "mma.svg")
--   cute.show(cute.bank_conflicts(smem, access), "banks.svg")
--   cute.show("(4,8):(1,4)", "out.svg")   -- text: a layout or an atom name
--   cute.render(L, "svg")                 -- the document as a string
--   cute.show(cute.operation("composition", A, B), "op.html")  -- operands
--                                         -- and result, linked on hover
--   cute.show(S, "smem.svg", {color = "bank", bytes = 2})   -- by bank
--
-- Options: tile {M,N} (draw a rank-2 layout as a TV layout over that
-- tile), data (the data layout whose offsets a TV picture shows), title,
-- cell (SVG cell size in pixels), format (overrides the extension), color
-- ("bank" or "chunk": a layout's offsets by shared-memory bank or 16-byte
-- chunk, elements `bytes` wide, default 2).  Layouts of any rank draw.
local core = require "cute.core"
local E = require "cute.error"
local atom = require "cute.atom"
local model = require "cute.picture.model"
local banks = require "cute.picture.banks"
local operation = require "cute.picture.operation"
local linear = require "cute.linear"

local M = {}

M.bank_conflicts = banks.bank_conflicts
M.operation = operation.operation

local renderers = {
  svg = function(m, o) return require("cute.picture.svg").render(m, o) end,
  html = function(m, o) return require("cute.picture.html").render(m, o) end,
  tex = function(m) return require("cute.picture.tikz").render(m) end,
  txt = function(m) return require("cute.picture.text").render(m) end,
}
renderers.htm = renderers.html

local mts = core.metatables

-- A string names a catalog MMA atom or is CuTe layout text.
local function parse(s)
  local catalog = require "cute.arch"
  local e = catalog[s]
  if e and e.kind == "mma" then return atom.mma_atom(s) end
  if e then
    E.raise(("show: %s is a copy atom: draw a tiled copy of it "
      .. "(cute.make_tiled_copy)"):format(s))
  end
  local ok, L = pcall(core.layout, s)
  if not ok then
    E.raise(("show: %q is neither a layout nor an MMA atom of the catalog: %s")
      :format(s, L))
  end
  return L
end

-- The options a picture takes, each with its test and what it must be
-- (a misspelt key or a bad value was silently ignored); bytes is the
-- element width bank_conflicts reads.
local function any() return true end
local function is(t) return function(v) return type(v) == t end end
local options = {
  closed = true,
  { "tile", any },   -- the model checks these two,
  { "data", any },   -- naming the layout drawn
  { "title", is "string", "a string" },
  { "format", is "string", "a string" },
  { "cell", E.int_in(1, 1000), "an integer in 1..1000 (pixels)" },
  { "color", function(v) return v == "bank" or v == "chunk" end,
    "\"bank\" or \"chunk\"" },
  banks.bytes_option,
  { "highlight", is "function", "a function" },
  { "interactive", is "boolean", "a boolean" },
}

-- opts as given to a public call: a table or nil, of known options whose
-- values fit.
local function check_opts(opts, op)
  return E.options(op, 3, opts, options)
end

-- The picture model of an object; `op` names the public call in errors.
local function build(x, opts, op)
  opts = check_opts(opts, op)
  if type(x) == "string" then x = parse(x) end
  if banks.is_result(x) then return banks.model(x, opts) end
  if operation.is_operation(x) then return operation.model(x, opts, op) end
  if atom.is_mma_atom(x) or atom.is_tiled_mma(x) then
    return model.mma(x, opts, op)
  end
  if atom.is_tiled_copy(x) then return model.copy(x, opts, op) end
  if linear.is_linear(x) then
    local tile
    x, tile = linear.as_cute(x)
    if tile and not opts.tile then
      opts = setmetatable({ tile = tile }, { __index = opts })
    end
  end
  local mt = getmetatable(x)
  if mt == mts.Layout and opts.tile then
    return model.tv(x, opts.tile, opts, op)
  end
  if mt == mts.Layout or mt == mts.ComposedLayout then
    return model.layout(x, opts, op)
  end
  E.raise(("%s: cannot draw %s (a layout, TV layout with opts.tile, MMA "
    .. "atom, tiled MMA, tiled copy, cute.operation or bank_conflicts result)")
    :format(op, E.typename(x)))
end

-- render(x, format, opts) with the name of the public call.
local function render(x, format, opts, op)
  local r = renderers[format]
  if type(format) ~= "string" then
    E.raise(("%s: the picture format must be a string (svg, html, tex or "
      .. "txt), got %s"):format(op, type(format)))
  elseif not r then
    E.raise(("%s: unknown picture format %q (svg, html, tex or txt)")
      :format(op, format))
  end
  opts = check_opts(opts, op)
  return r(build(x, opts, op), opts)
end

--- The picture model of an object (see cute.picture.model).
function M.model(x, opts)
  return build(x, opts, "model")
end

--- The picture as a string in `format` ("svg", "html", "tex", "txt").
function M.render(x, format, opts)
  return render(x, format, opts, "render")
end

--- Writes the picture of x to `path` (format from opts.format or the
-- extension) and returns path; without a path, prints it in the terminal.
function M.show(x, path, opts)
  if type(path) == "table" then path, opts = nil, path end
  opts = check_opts(opts, "show")
  if path ~= nil and type(path) ~= "string" then
    E.raise("show: the path must be a string, got " .. type(path))
  end
  if path == nil then
    local s = render(x, "txt", opts, "show")
    if io and io.write then io.write(s) else print(s:sub(1, -2)) end
    return
  end
  local format = opts.format or tostring(path):match "%.(%w+)$"
  if not renderers[format and format:lower()] then
    E.raise(("show: cannot tell the picture format of %q (use .svg, .html, "
      .. ".tex or .txt, or opts.format)"):format(tostring(path)))
  end
  local s = render(x, format:lower(), opts, "show")
  if not (io and io.open) then
    E.raise("show: this host has no io library to write " .. path)
  end
  local f, err = io.open(path, "w")
  if not f then E.raise("show: " .. err) end
  f:write(s)
  f:close()
  return path
end

-- A step's failure names the call the user made: drawing evaluates the
-- layout, and a layout that mixes integer and basis strides fails there
-- ("show: layout(...): integer stride 4 mixed with basis strides").
for _, name in ipairs { "show", "render", "bank_conflicts" } do
  M[name] = E.protect(name, M[name])
end

return M
