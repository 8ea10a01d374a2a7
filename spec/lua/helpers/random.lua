--- helpers.random -- seeded random layouts for the property specs.
--
-- A private xorshift generator, so runs are reproducible whatever busted
-- or Lua do with math.random.  Layouts are kept small (size <= 256) so
-- that checking a property element by element stays cheap.
--
--   local R = require "helpers.random"
--   local g = R.new(42)
--   g:layout()      any strides (zeros included)      "(3,(2,2)):(5,(0,2))"
--   g:injective()   distinct values: a compact layout with its modes
--                   permuted and gaps inserted; g:injective(2) of rank 2
--   g:tiler_for(A)  a layout B that tiles size(A) exactly: a prefix of the
--                   modes of a permuted compact layout of size(A)
local cute = require "cute"

local M = {}
M.__index = M

function M.new(seed)
  return setmetatable({ s = seed * 2654435761 % 4294967296 + 1 }, M)
end

-- 32-bit xorshift; returns an integer in [lo, hi].
function M:int(lo, hi)
  local x = self.s
  x = x ~ (x << 13) & 0xffffffff
  x = x ~ (x >> 17)
  x = x ~ (x << 5) & 0xffffffff
  self.s = x
  return lo + x % (hi - lo + 1)
end

function M:pick(list)
  return list[self:int(1, #list)]
end

local function shuffle(g, t)
  for i = #t, 2, -1 do
    local j = g:int(1, i)
    t[i], t[j] = t[j], t[i]
  end
  return t
end

-- A random factorisation of some size <= max into n leaf extents.
function M:extents(n, max)
  local t, size = {}, 1
  for i = 1, n do
    local e = self:pick { 1, 2, 2, 2, 3, 4, 4, 5, 8 }
    while size * e > max and e > 1 do e = e - 1 end
    t[i], size = e, size * e
  end
  return t
end

-- Nests a flat list of leaves as a random tuple of depth <= 2, the same
-- way for every list given (shapes and strides stay congruent); with
-- `rank` 2 (and n >= 2) the tuple has exactly two modes.
function M:nesting(n, rank)
  local groups = {}
  if rank == 2 and n >= 2 then
    local cut = self:int(1, n - 1)
    groups = { { 1, cut }, { cut + 1, n } }
  else
    local i = 1
    while i <= n do
      local len = math.min(n - i + 1, self:int(1, 2))
      groups[#groups + 1] = { i, i + len - 1 }
      i = i + len
    end
  end
  return function(leaves)
    if n == 1 then return leaves[1] end
    local t = {}
    for k, g in ipairs(groups) do
      if g[1] == g[2] then t[k] = leaves[g[1]]
      else t[k] = { table.unpack(leaves, g[1], g[2]) } end
    end
    return t
  end
end

function M:layout()
  local n = self:int(1, 4)
  local ext = self:extents(n, 256)
  local str = {}
  for i = 1, n do str[i] = self:pick { 0, 1, 2, 3, 4, 6, 8, 12, 16, 32 } end
  local nest = self:nesting(n)
  return cute.layout(nest(ext), nest(str))
end

-- Distinct values: leaves ordered at random, each stride the running
-- product of the extents before it (times an occasional gap).
function M:injective(rank)
  local n = self:int(rank == 2 and 2 or 1, 4)
  local ext = self:extents(n, 128)
  local order = {}
  for i = 1, n do order[i] = i end
  shuffle(self, order)
  local str, cur = {}, 1
  for _, i in ipairs(order) do
    cur = cur * self:pick { 1, 1, 1, 2, 3 }
    str[i] = cur
    cur = cur * ext[i]
  end
  local nest = self:nesting(n, rank)
  return cute.layout(nest(ext), nest(str))
end

-- A tile of A: its image is [0, size(A)) tiled exactly by (B, B*).
function M:tiler_for(A)
  local N = cute.size(A)
  local ext, rest = {}, N
  while rest > 1 do
    local d = 2
    while rest % d ~= 0 do d = d + 1 end
    local e = d
    while rest % (e * d) == 0 and self:int(0, 1) == 1 do e = e * d end
    ext[#ext + 1], rest = e, rest // e
  end
  if #ext == 0 then ext[1] = 1 end
  local order = {}
  for i = 1, #ext do order[i] = i end
  shuffle(self, order)
  local str, cur = {}, 1
  for _, i in ipairs(order) do str[i], cur = cur, cur * ext[i] end
  local k = self:int(1, #ext)
  if k == 1 then return cute.layout(ext[1], str[1]) end
  return cute.layout({ table.unpack(ext, 1, k) }, { table.unpack(str, 1, k) })
end

--- Fast checks for hot loops (luassert costs microseconds per call):
-- raise only on failure, with a message naming the case.
function M.eq(got, want, what, ...)
  if got ~= want then
    error(("%s: got %s, want %s"):format(what:format(...), tostring(got),
                                        tostring(want)), 2)
  end
end

function M.ok(cond, what, ...)
  if not cond then error(what:format(...), 2) end
end

--- Values of L over its domain [0, size(L)), as a list.
function M.values(L)
  local t = {}
  for i = 0, cute.size(L) - 1 do t[i + 1] = L(i) end
  return t
end

--- Sorted copy of a list of integers.
function M.sorted(t)
  local c = table.move(t, 1, #t, 1, {})
  table.sort(c)
  return c
end

return M
