--- cute.help -- the API reference (docs/api/*.md) at the prompt.
--
--   help(cute.composition)   the entry of a function or method
--   help "composition"       by name: cute.composition, Layout:shape, ...
--   help(A)                  the entry of a value's type (Layout, TiledMMA)
--   help()                   the pages and how to look things up
--
-- The pages are compiled into the cutelua program (the generated module
-- cute.reference: { {path, text}, ... }); from a source tree they are read
-- from docs/api/ next to stdlib/.  An entry is a `### name` heading of a
-- page and everything up to the next heading; public() lists the names
-- that must have one (spec/lua/api_reference_spec.lua).
local M = {}

-- { {path, text}, ... }: the embedded pages, else the source tree's
-- (docs/api/README.md lists the pages).
local function load_pages()
  local ok, ref = pcall(require, "cute.reference")
  if ok then return ref end
  local src = debug.getinfo(1, "S").source
  local root = src:match("^@(.*)stdlib/cute/help%.lua$")
  local index = root and io and io.open(root .. "docs/api/README.md")
  if not index then return {} end
  local pages = {}
  for stem in index:read("a"):gmatch("%(([%w_]+)%.md%)") do
    local f = io.open(root .. "docs/api/" .. stem .. ".md")
    if f then
      pages[#pages + 1] = { "docs/api/" .. stem .. ".md", f:read("a") }
      f:close()
    end
  end
  index:close()
  return pages
end

local cache
--- entries() -> { [name] = {name, page, text} } and the names in page order.
function M.entries()
  if cache then return cache.by_name, cache.names end
  local by_name, names = {}, {}
  for _, page in ipairs(load_pages()) do
    local path, text = page[1], page[2]
    local cur, fence = nil, false
    for line in (text .. "\n"):gmatch("(.-)\n") do
      if line:match("^```") then fence = not fence end
      local heading = not fence and line:match("^(#+) ")
      if heading then
        cur = nil
        local name = #heading == 3 and line:match("^### `?([^`]-)`?%s*$")
        if name and not by_name[name] then
          cur = { name = name, page = path, lines = { line } }
          by_name[name] = cur
          names[#names + 1] = name
        end
      elseif cur then
        cur.lines[#cur.lines + 1] = line
      end
    end
  end
  for _, e in pairs(by_name) do
    e.text = table.concat(e.lines, "\n"):gsub("%s+$", "") .. "\n"
    e.lines = nil
  end
  cache = { by_name = by_name, names = names }
  return by_name, names
end

-- The type name of a value's metatable: cute.Layout -> Layout,
-- cute.cuda.Buffer -> cuda.Buffer.
local function type_name(mt)
  -- cute.core's classes answer getmetatable with a read-only view: a
  -- userdata that reads through, itself without a readable metatable
  local n = type(mt) == "table" and rawget(mt, "__name")
    or type(mt) == "userdata" and getmetatable(mt) == false and mt.__name
  return type(n) == "string" and n:gsub("^cute%.", "") or nil
end

-- The values whose types are public: the C types are found in the
-- registry; the stdlib's tables need one sample each.
local function samples(cute)
  local mma = cute.mma_atom("SM80_16x8x16_F32F16F16F32_TN")
  local tiled_mma = cute.make_tiled_mma(mma, { 2, 2, 1 })
  local copy = cute.copy_atom("SM75_U32x4_LDSM_N", "f16")
  local tiled_copy = cute.make_tiled_copy_A(copy, tiled_mma)
  return { mma, tiled_mma, tiled_mma:get_slice(0), copy, tiled_copy,
           tiled_copy:get_slice(0),
           cute.bank_conflicts(cute.layout_right { 32, 32 },
                               cute.layout "(32,32):(1,32)"),
           cute.operation("coalesce", cute.layout "4:1") }
end

-- Adds the type of `mt` and its methods to `out`: the functions of its
-- __index table, or of the metatable itself and its `methods` table where
-- __index is a function.
local function add_type(out, mt)
  local name = type_name(mt)
  if not name or out[name] then return end
  out[name] = mt
  local index = rawget(mt, "__index")
  for _, t in ipairs { type(index) == "table" and index or mt,
                       type(rawget(mt, "methods")) == "table" and rawget(mt, "methods") or {} } do
    for k, v in pairs(t) do
      if type(k) == "string" and type(v) == "function" and not k:match("^_") then
        out[name .. ":" .. k] = v
      end
    end
  end
end

--- public() -> { [name] = value }: every public function of cute, its
-- submodules (cute.limits, cute.arch, cute.cuda where it loads), every
-- type and method -- the names the reference must have an entry for.
function M.public()
  local cute = require "cute"
  local out = {}
  local function walk(t, prefix)
    for k, v in pairs(t) do
      if type(k) == "string" and not k:match("^_") then
        if type(v) == "function" then
          out[prefix .. k] = v
        elseif type(v) == "table" and k ~= "core" and #prefix < 12
               and not k:match("^%u") then
          out[prefix .. k] = v
          if k ~= "arch" then walk(v, prefix .. k .. ".") end
        end
      end
    end
  end
  local cuda_ok = pcall(function() return cute.cuda end)
  local _ = cute.arch
  walk(cute, "cute.")
  if not cuda_ok then out["cute.cuda"] = nil end
  for k, v in pairs(debug.getregistry()) do
    if type(k) == "string" and k:match("^cute%.") then add_type(out, v) end
  end
  local cuda = rawget(cute, "cuda")
  if cuda then
    for _, name in ipairs { "Tensor", "Kernel" } do
      add_type(out, cuda[name])
    end
  end
  for _, v in ipairs(samples(cute)) do add_type(out, getmetatable(v)) end
  return out
end

-- The public name of a value: a function's, a type's, or nil.
local function name_of(x)
  local mt = getmetatable(x)
  if type(x) ~= "function" and mt and type_name(mt) then
    return type_name(mt)
  end
  for name, v in pairs(M.public()) do
    if rawequal(v, x) then return name end
  end
  if type(x) == "table" and mt then
    for name, v in pairs(M.public()) do
      if rawequal(v, mt) then return name end
    end
  end
end

-- Entries whose name is `q`, cute.q, or ends in .q or :q.
local function find(q)
  local by_name, names = M.entries()
  if by_name[q] then return { by_name[q] } end
  if by_name["cute." .. q] then return { by_name["cute." .. q] } end
  local found = {}
  for _, n in ipairs(names) do
    local tail = n:match("[.:]([^.:]+)$")
    if tail == q then found[#found + 1] = by_name[n] end
  end
  return found
end

-- The entry as terminal text: fences dropped, code indented.
local function render(e)
  local out, code = {}, false
  for line in e.text:gmatch("(.-)\n") do
    if line:match("^```") then
      code = not code
      if line == "```text" then out[#out + 1] = "prints" end
    else
      out[#out + 1] = (code and "    " or "") .. line
    end
  end
  return table.concat(out, "\n"):gsub("^### ", "") .. "\n\n(" .. e.page .. ")"
end

local function overview()
  local by_name, names = M.entries()
  local pages, seen = {}, {}
  for _, n in ipairs(names) do
    local p = by_name[n].page
    if not seen[p] then seen[p] = true pages[#pages + 1] = p end
  end
  return ("help(f), help \"name\" or help(value) prints an entry of the API "
    .. "reference (%d entries: %s).\nExamples: help(cute.composition), "
    .. "help \"logical_divide\", help(cute.layout \"4:1\")"):format(
    #names, table.concat(pages, ", "))
end

--- text(x) -> the entry of x (function, value, or name) as text, or a
-- message saying what was not found.
function M.text(x)
  if x == nil then return overview() end
  local q = type(x) == "string" and x or name_of(x)
  if not q then
    return ("help: no entry for this %s (not a public function or a value "
      .. "of a public type)"):format(type(x))
  end
  local found = find(q)
  if #found == 1 then return render(found[1]) end
  if #found == 0 then
    return ("help: no entry named %q (help() lists the pages)"):format(q)
  end
  local list = {}
  for _, e in ipairs(found) do list[#list + 1] = e.name end
  return ("help: %q is ambiguous: %s"):format(q, table.concat(list, ", "))
end

return setmetatable(M, { __call = function(_, x) print(M.text(x)) end })
