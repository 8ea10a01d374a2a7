--- cute.limits -- every limit on what one call may cost, in one place
-- (cute.limits).  A call past a limit raises an error before any work,
-- naming the operation, its operands, the limit and its value:
--
--   show((100000,100000):(1,100000)): 10000000000 cells exceed the limit
--   of 65536 cells (cute.limits.cells)
--
-- The stdlib's own limits, on Lua work that grows with a layout's size
-- rather than its leaf count (a script may raise them, at its own cost):
--   cells  65536  cells print_layout and every picture draw, all its
--                 panels together (cute.show, cute.render, cutelua --show;
--                 require("cute.print").max_cells is its old name)
--   visit  2^24   elements a brute-force walk in Lua visits, and the
--                 entries of the table it fills: tv.owners, tv.bijection,
--                 the accesses of cute.bank_conflicts, Tensor:to_table
-- The C limits, read-only (the C code keeps its own constants; assigning
-- one is an error, as is a stdlib limit that is not a positive integer):
--   leaves 32, tokens 96, depth 8, basis_depth 3, basis_index 254,
--   tiler 32, text 4096 (algebra/cute.h: CUTE_MAX_*, CUTE_ELIMIT errors);
--   walk 2^24 (CUTE_MAX_WALK: the cosize of a swizzled layout is exact up
--   to it, an upper bound beyond); a linear layout's linear_dims 6 input
--   and output dims each, linear_bits 32 input and output bits each,
--   linear_name 15 characters a dim's name (CUTE_LINEAR_MAX_DIMS,
--   CUTE_LINEAR_MAX_BITS, CUTE_LINEAR_NAME less its NUL); cute.cuda.limits
--   has the bridge's (cuda/cute_cuda.h: check 2^28 elements of cuda.check_copy, includes
--   1024 and include_depth 16 headers keyed for the disk cache).
--
-- What is not capped, and why.  Everything else in the stdlib loops over
-- modes, leaves or tiler entries (a tiler nests at most `depth` levels:
-- cute.tiler refuses deeper ones, cyclic tables included), or calls
-- cute.core once per mode (injectivity is the C library's: a walk over
-- at most CUTE_MAX_INJECTIVE_SPAN offsets, else an error, never a guess).
-- cute.core reads a Lua table given as a
-- tuple once (work linear in the table, which memory bounds) and refuses
-- it past the leaf, token and depth limits.  cute.cuda's fills, compares
-- and downloads are linear in a device buffer that exists, not capped
-- (cuda/cute_cuda.h says why); a kernel's own run time on the device is
-- not bounded by anything here.  In a state with an instruction budget
-- (vm/cutelua.h) every Lua loop is also interrupted by the budget; a limit
-- here bounds the one call where no budget is set, and gives the reason
-- instead of a spent budget.
local core = require "cute.core"
local E = require "cute.error"

local values = { cells = 65536, visit = 1 << 24 }
local writable = { cells = true, visit = true }
for name, value in pairs(core.limits) do values[name] = value end

local M = {}

-- n as text: an integer as it is, a count past 2^53 (a float) in three
-- digits ("1.84e+19").
local function count_text(n)
  return math.tointeger(n) and n < 2^53 and ("%d"):format(n)
    or ("%.3g"):format(n)
end

--- Raises "op(A, B, ...): n what exceed the limit of m what
-- (cute.limits.name)" when n > M[name]; the operands A, B, ... (layouts,
-- tensors) follow `what` and are printed only then, since the calls that
-- pass stay on hot paths (every show, every owners).  n may be a float:
-- a count made by M.product or M.size.
function M.check(name, op, n, what, ...)
  E.argcheck(type(name) == "string", "limits.check", 1, "limit name (string)", name)
  local m = values[name]
  if not m then
    E.raise(("limits.check: no limit named %s in cute.limits"):format(name))
  elseif type(n) ~= "number" then
    E.raise("limits.check: the count must be a number, got " .. E.typename(n))
  end
  if not (n <= m) then   -- NaN too: it is no count within the limit
    local operands = table.pack(...)
    for i = 1, operands.n do operands[i] = tostring(operands[i]) end
    E.raise(("%s(%s): %s %s exceed the limit of %d %s (cute.limits.%s)")
      :format(op, table.concat(operands, ", "), count_text(n), what, m, what,
              name))
  end
end

--- The product of counts (sizes, cell counts) as a float: Lua's integers
-- wrap, and a wrapped product (2^32 * 2^32 = 0) would pass every check.
-- Every count compared with a limit here is made by this function or by
-- M.size; exact below 2^53, far beyond any limit.
function M.product(...)
  local p = 1.0
  for i = 1, select("#", ...) do
    local x = select(i, ...)
    -- (a Layout or a Swizzle would multiply: a composition, no count)
    if type(x) ~= "number" then E.argcheck(false, "limits.product", i, "number", x) end
    p = p * x
  end
  return p
end

--- core.size(x) as a float, math.huge where it passes 2^63 - 1 (where
-- core.size refuses with an overflow): a count for M.check.
function M.size(x)
  local ok, n = pcall(core.size, x)
  if ok then return n + 0.0 end
  if type(n) == "string" and n:find("overflow", 1, true) then
    return math.huge
  end
  error(n, 0)
end

setmetatable(M, {
  __index = values,
  __pairs = function(t)   -- the limits and check, as a plain table's
    local all = {}
    for k, v in next, t do all[k] = v end
    for k, v in next, values do all[k] = v end
    return next, all, nil
  end,
  __newindex = function(_, k, v)
    if writable[k] then
      if math.type(v) ~= "integer" or v < 1 then
        E.raise(("cute.limits.%s: a positive integer expected, got %s")
          :format(k, tostring(v)))
      end
      values[k] = v
    elseif values[k] then
      local lin = k:match("^linear_(.*)")
      local cname = lin == "name" and "CUTE_LINEAR_NAME"
        or lin and "CUTE_LINEAR_MAX_" .. lin:upper() or "CUTE_MAX_" .. k:upper()
      E.raise(("cute.limits.%s is %s of the C library, for "
        .. "reading: it cannot change"):format(k, cname))
    else
      E.raise(("cute.limits has no limit %s"):format(tostring(k)))
    end
  end,
})

return M
