--- cute.linear -- a linear layout (Triton's LinearLayout) where the
-- pictures and the bank-conflict analysis expect a CuTe layout.
--
-- The conversion itself is C (cute.from_linear); this module only decides
-- which CuTe layout a picture of a linear layout shows:
--   - register/lane/warp -> (dim0, dim1): the TV layout from_linear gives,
--     drawn over the tile of the two output dims;
--   - offset -> (dim0, dim1), Triton's form of a shared-memory layout: its
--     inverse, CuTe's (dim0, dim1) -> offset (a bijection is required);
--   - anything else: from_linear's layout as it is.
local core = require "cute.core"
local E = require "cute.error"

local M = {}

function M.is_linear(x)
  return getmetatable(x) == core.metatables.LinearLayout
end

local function names(dims)
  local t = {}
  for i, d in ipairs(dims) do t[i] = d[1] end
  return table.concat(t, ",")
end

--- The CuTe layout standing for the linear layout A, and the tile {M, N}
-- of its TV picture (nil when it is not a TV layout over two dims).
function M.as_cute(A)
  local ins, outs = A:in_dims(), A:out_dims()
  if names(ins) == "offset" and #outs >= 1 then
    return core.from_linear(A:invert())
  end
  local L = core.from_linear(A)
  if names(ins) == "register,lane,warp" and #outs == 2 then
    return L, { outs[1][2], outs[2][2] }
  end
  return L
end

-- ------------------------------------------------------------ plans --

-- The tile element (packed output) of every (thread, register) of the TV
-- layout A: el[t][r], t = lane + lanes * warp, 0-based inside.
local function elements(A)
  local ins, outs = A:in_dims(), A:out_dims()
  local R, lanes, warps = ins[1][2], ins[2][2], ins[3][2]
  local el = {}
  for t = 0, lanes * warps - 1 do
    local row = {}
    for r = 0, R - 1 do
      local o, packed, scale = { A(r, t % lanes, t // lanes) }, 0, 1
      for j, d in ipairs(outs) do
        packed, scale = packed + o[j] * scale, scale * d[2]
      end
      row[r] = packed
    end
    el[t] = row
  end
  return el, R, lanes, lanes * warps
end

-- Shuffle rounds: each round every thread receives at most one value over
-- shfl.sync from a lane of its warp, and every sending lane offers one
-- register to all its readers.  Greedy, dst registers in order: a round
-- serves each thread's first pending value whose holder is free or
-- already offers that register.  The lower bound is the most values one
-- thread must receive; `rounds` meets it unless senders collide.
local function shuffle_plan(src, dst, lanes_only)
  local sel, R, lanes, T = elements(src)
  local del, Rd = elements(dst)
  local holders = {}
  for t = 0, T - 1 do
    for r = 0, R - 1 do
      local h = holders[sel[t][r]] or {}
      holders[sel[t][r]] = h
      h[#h + 1] = { t, r }
    end
  end
  local plan = { moves = {}, rounds = {}, lower_bound = 0 }
  local pending = {}
  for t = 0, T - 1 do
    local mv, need = {}, {}
    for dr = 0, Rd - 1 do
      local hs, mine = holders[del[t][dr]], nil
      for _, h in ipairs(hs) do
        if h[1] == t then mine = h[2]; break end
      end
      if mine then
        mv[#mv + 1] = { dst = dr, src = mine }
      else
        local c = {}
        for _, h in ipairs(hs) do
          if not lanes_only or h[1] // lanes == t // lanes then c[#c + 1] = h end
        end
        need[#need + 1] = { dst = dr, from = c }
      end
    end
    plan.moves[t] = mv
    pending[t] = need
    if #need > plan.lower_bound then plan.lower_bound = #need end
  end
  local left = true
  while left do
    left = false
    local round = { lane = {}, send = {}, dst = {} }
    for t = 0, T - 1 do
      for i, need in ipairs(pending[t]) do
        local pick
        for _, h in ipairs(need.from) do
          local s = round.send[h[1]]
          if s == nil or s == h[2] then pick = h; break end
        end
        if pick then
          round.send[pick[1]] = pick[2]
          round.lane[t] = pick[1] % lanes
          round.dst[t] = need.dst
          table.remove(pending[t], i)
          break
        end
      end
      left = left or #pending[t] > 0
    end
    if not next(round.dst) then
      if left then error("conversion_plan: a value no lane of the warp holds") end
      break
    end
    plan.rounds[#plan.rounds + 1] = round
  end
  return plan
end

-- A tile layout colexicographic over the out dims, swizzled by sw.
local function tile_layout(A, sw)
  local ext = {}
  for i, d in ipairs(A:out_dims()) do ext[i] = d[2] end
  local L = core.layout(#ext == 1 and ext[1] or ext)
  if sw[1] == 0 then return L end
  return core.composed(core.swizzle(sw[1], sw[2], sw[3]), 0, L)
end

-- The worst bank conflict of the accesses el (per thread, per register:
-- tile index) through Sw<b,m,s> over a compact tile, for 4-byte words:
-- per warp and register, the most distinct words on one of 32 banks.
local function worst(el, R, lanes, T, b, m, s)
  local mask, w = ((1 << b) - 1) << (m + s), 1
  for t0 = 0, T - 1, lanes do
    for r = 0, R - 1 do
      local words = {}
      for t = t0, t0 + lanes - 1 do
        local x = el[t][r]
        x = x ~ ((x & mask) >> s)
        local bank = x % 32
        local set = words[bank] or {}
        words[bank] = set
        if not set[x] then
          set[x] = true
          set.n = (set.n or 0) + 1
          if set.n > w then w = set.n end
        end
      end
    end
  end
  return w
end

-- The shared-memory round trip: src stores, dst loads, through a tile
-- swizzled by the first Sw<B,M,S> (B ascending, then M, then S) that
-- leaves neither side with a 4-byte bank conflict, else the one whose
-- worse side conflicts least; the chosen tile is then measured by
-- cute.bank_conflicts (with opts.bytes) for both sides.
local function shared_plan(src, dst, opts)
  local banks = require "cute.picture.banks"
  local sel, R, lanes, T = elements(src)
  local del, Rd = elements(dst)
  local bits = 0
  for _, d in ipairs(src:out_dims()) do
    local n = 0
    while (1 << n) < d[2] do n = n + 1 end
    bits = bits + n
  end
  local best, bkey = { 0, 0, 0 }, math.huge
  local function try(b, m, s)
    local st = worst(sel, R, lanes, T, b, m, s)
    local ld = worst(del, Rd, lanes, T, b, m, s)
    local key = math.max(st, ld) * 1000 + st + ld
    if key < bkey then best, bkey = { b, m, s }, key end
    return st == 1 and ld == 1
  end
  if not try(0, 0, 0) then
    local done = false
    for b = 1, 5 do
      for m = 0, bits - 2 * b do
        for s = b, bits - m - b do
          if try(b, m, s) then done = true; break end
        end
        if done then break end
      end
      if done then break end
    end
  end
  local smem = tile_layout(src, best)
  local S = core.from_linear(src, { binary = true })
  local D = core.from_linear(dst, { binary = true })
  local o = { bytes = opts and opts.bytes or 4 }
  return { smem = smem, store = S, load = D,
           store_conflicts = banks.bank_conflicts(smem, S, o).worst,
           load_conflicts = banks.bank_conflicts(smem, D, o).worst }
end

--- cute.conversion_plan(src, dst [, {bytes = 4}]): how to move a tensor
-- from the TV layout src to dst (cute.conversion's kind, with the work).
M.conversion_plan = E.protect("conversion_plan", function(src, dst, opts)
  opts = E.options("conversion_plan", 3, opts, {})
  local kind, map = core.conversion(src, dst)
  local plan
  if kind == "shared" then
    plan = shared_plan(src, dst, opts)
  else
    plan = shuffle_plan(src, dst, true)
  end
  plan.kind, plan.map = kind, map
  return plan
end)

return M
