--- cute -- CuTe layouts and their algebra, for Lua.
--
-- The specification is the CuTe paper (C. Cecka, "CuTe Layout
-- Representation and Algebra"); names and text forms are NVIDIA CuTe's.
-- Coordinates and mode numbers are 0-based; Lua tables are tuple literals
-- ({4,{2,2}}) and, where a tiler is expected, by-mode tilers.
--
--   local cute = require "cute"
--   local A = cute.layout "(4,8):(1,4)"
--   A(13), A(1, 3)                    --> 13 13
--   cute.logical_divide(A, {2, 4})    --> ((2,2),(4,2)):((1,2),(4,16))
--   cute.print_layout(A)
--
-- The algebra itself is C (cute.core), tilers, divides, products and
-- partitioning included; this module gathers it with the Lua parts (TV
-- layouts, atoms, tensors, text tables, pictures) and operator sugar:
--   A * B   composition       A .. B   concatenation (A, B)
--   A == B  structural equality
local core = require "cute.core"
local E = require "cute.error"
local tiler = require "cute.tiler"
local divide = require "cute.divide"
local product = require "cute.product"
local partition = require "cute.partition"
local text = require "cute.print"   -- CuTe's text tables; pictures: cute.picture
local limits = require "cute.limits"

local cute = {
  _VERSION = "cute 0.1",

  -- values
  _ = core._,                       -- the slice marker: A(2, cute._)
  X = core._,                       -- CuTe's X (= _): drops a mode in a Step
  E = core.E,                       -- basis element: 2 * cute.E(1) is 2@1
  layout = core.layout,
  layout_right = core.layout_right,
  make_identity_layout = core.make_identity_layout,
  make_ordered_layout = core.make_ordered_layout,
  make_layout_like = core.make_layout_like,
  swizzle = core.swizzle,
  composed = core.composed,
  tuple = core.tuple,
  tuple_tostring = core.tuple_tostring,
  tiler_tostring = function(T) return tiler.tostring(T) end,

  -- queries
  size = core.size,
  cosize = core.cosize,
  rank = core.rank,
  depth = core.depth,
  crd2idx = core.crd2idx,
  idx2crd = core.idx2crd,
  congruent = core.congruent,
  weakly_congruent = core.weakly_congruent,
  compatible = core.compatible,

  -- tuple arithmetic (CuTe's int_tuple)
  ceil_div = core.ceil_div,
  shape_div = core.shape_div,
  product_each = core.product_each,
  tuple_add = core.tuple_add,
  tuple_sub = core.tuple_sub,
  elem_less = core.elem_less,
  increment_coord = core.increment_coord,
  dice = core.dice,

  -- modes
  flatten = core.flatten,
  group_modes = core.group_modes,
  take = core.take,
  select = core.select,
  append = core.append,
  prepend = core.prepend,
  replace = core.replace,

  -- algebra (paper section 3)
  coalesce = core.coalesce,
  filter_zeros = core.filter_zeros,
  filter = core.filter,
  composition = tiler.composition,
  complement = core.complement,
  right_inverse = core.right_inverse,
  left_inverse = core.left_inverse,
  max_common_vector = core.max_common_vector,
  max_common_layout = core.max_common_layout,
  nullspace = core.nullspace,
  upcast = core.upcast,
  downcast = core.downcast,
  recast = core.recast,

  -- linear layouts over F2 (Triton's), to and from CuTe layouts
  linear_layout = core.linear_layout,
  to_linear = core.to_linear,
  from_linear = core.from_linear,
  invert_and_compose = core.invert_and_compose,
  conversion = core.conversion,

  logical_divide = divide.logical_divide,
  zipped_divide = divide.zipped_divide,
  tiled_divide = divide.tiled_divide,
  flat_divide = divide.flat_divide,

  logical_product = product.logical_product,
  zipped_product = product.zipped_product,
  tiled_product = product.tiled_product,
  flat_product = product.flat_product,
  blocked_product = product.blocked_product,
  raked_product = product.raked_product,

  -- of layouts, and of tensors (cute.tensor gives them its __tile)
  local_tile = partition.local_tile,
  local_partition = partition.local_partition,

  print_layout = text.print_layout,
  format_layout = text.format_layout,

  -- what one call may cost: cells of a picture, elements of a brute-force
  -- walk, and the C limits (stdlib/cute/limits.lua)
  limits = limits,
}

--- make_layout(L0, L1, ...) concatenates layouts, (L0, L1, ...); with
-- tuples it is cute.layout: make_layout({4, 8}, {1, 4}).  (CuTe's two
-- make_layout overloads.)
cute.make_layout = E.protect("make_layout", function(first, ...)
  if first == nil then return core.concat() end
  if type(first) == "userdata" then
    -- layouts to concatenate: each a Layout or an integer n (n:1)
    for k, x in ipairs {first, ...} do
      local n = type(x) == "number" and math.tointeger(x)
      E.argcheck(tiler.is_layout(x) or (n and n >= 1), "make_layout", k,
                 "cute.Layout or positive integer", x)
    end
    return core.concat(first, ...)
  end
  local _, extra = ...
  E.argcheck(extra == nil, "make_layout", 3, "nothing after the shape and "
             .. "stride", extra)
  return core.layout(first, ...)
end)

-- Heavier parts load on first use, so `require "cute"` stays cheap (REPL
-- start, warm GPU start).  Functions are forwarding stubs, so they are real
-- keys (the REPL completes them); the two submodules load on first access.
local function forward(module, name)
  local f
  return function(...)
    f = f or require(module)[name]   -- found once: require is a C call
    return f(...)
  end
end
for module, names in pairs {
  ["cute.tv"] = {"make_layout_tv", "tv_partition"},
  ["cute.tile_to_shape"] = {"tile_to_shape"},
  ["cute.composed_layout"] = {"make_composed_layout"},
  ["cute.tensor"] = {"make_tensor", "make_identity_tensor", "counting_iterator",
                    "make_fragment_like", "print_tensor", "format_tensor"},
  ["cute.atom"] = {"make_smem_layout_atom", "mma_atom", "copy_atom", "make_tiled_mma",
                   "make_tiled_copy", "make_tiled_copy_A",
                   "make_tiled_copy_B", "make_tiled_copy_C"},
  ["cute.picture"] = {"show", "render", "bank_conflicts", "operation"},
  ["cute.explain"] = {"explain"},
  ["cute.linear"] = {"conversion_plan"},
  ["cute.tma"] = {"make_tma_copy"},
} do
  for _, name in ipairs(names) do cute[name] = forward(module, name) end
end
local submodules = {cuda = "cute.cuda", arch = "cute.arch"}
setmetatable(cute, {__index = function(t, name)
  local module = submodules[name]
  if not module then return nil end
  local m = require(module)
  rawset(t, name, m)
  return m
end})


return cute
