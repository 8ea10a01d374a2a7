--- cute.picture.banks -- shared-memory bank conflicts of an access
-- pattern on a (swizzled) shared-memory tile, and their picture.
--
-- Shared memory has 32 banks of 4-byte words: byte address a is in bank
-- (a / 4) mod 32.  A warp's access is served in phases -- all 32 threads
-- for accesses of up to 4 bytes per thread, 128 / w threads at a time for
-- w = 8 or 16 bytes -- and a phase whose threads touch k distinct words
-- of one bank takes k wavefronts: a k-way conflict.  (Threads reading the
-- same word are served together, a broadcast.)
--
--   local smem = cute.layout_right {32, 32}    -- (row, col) -> f32 offset
--   local rows = cute.layout "(32,32):(1,32)"  -- (t, v) -> (row t, col v)
--   cute.bank_conflicts(smem, rows).worst      --> 32
--   -- instruction v reads column v: 32 rows, 32 words, all in bank v
--
-- The access pattern is a TV layout (thread, value) -> tile index
-- (colexicographic in the smem layout's (rows, cols)); opts.vec values of
-- a thread go in one instruction (default 1), opts.bytes is the element
-- size (default 4).  Threads 0..31 form warp 0, and so on.
local core = require "cute.core"
local E = require "cute.error"
local limits = require "cute.limits"
local linear = require "cute.linear"
local tiler = require "cute.tiler"
local model_m = require "cute.picture.model"
local palette = require "cute.picture.palette"

local M = {}

local Result = { __name = "cute.BankConflicts" }
Result.__index = Result

function Result:__tostring()
  return ("bank conflicts of %s under %s: %d instructions, worst %d-way, "
    .. "%d wavefronts (%d without conflicts)"):format(tostring(self.smem),
    tostring(self.access), #self.instructions, self.worst, self.wavefronts,
    self.ideal)
end

local function tile_index(x, shape)
  if type(x) == "table" then return core.crd2idx(x, shape) end
  return x
end

-- One phase: the accesses {t, v, idx, off} of a few threads; records the
-- conflict degree of each in `cells` and returns the phase's wavefronts.
local function phase(self, accesses)
  local words = {}             -- bank -> { word = true }, distinct words
  local count = {}             -- bank -> number of distinct words
  for _, a in ipairs(accesses) do
    local word = a.off * self.bytes // 4
    a.bank = word % 32
    local w = words[a.bank] or {}
    words[a.bank] = w
    if not w[word] then
      w[word] = true
      count[a.bank] = (count[a.bank] or 0) + 1
    end
  end
  local worst = 1
  for _, a in ipairs(accesses) do
    local d = count[a.bank]
    worst = math.max(worst, d)
    local c = self.cells[a.idx + 1]
    if not c or d > c.degree then
      self.cells[a.idx + 1] = { t = a.t, v = a.v, bank = a.bank, degree = d,
                                offset = a.off }
    end
  end
  return worst
end

--- The analysis: fields smem, access, rows, cols, bytes, vec,
-- instructions = { {warp, values = {first, last}, degrees = {per phase}} },
-- cells[idx + 1] = {t, v, bank, degree, offset} (the worst access of the
-- cell), worst (the largest degree), wavefronts and ideal (their total
-- with and without conflicts).
function M.bank_conflicts(smem, access, opts)
  if linear.is_linear(smem) then smem = linear.as_cute(smem) end
  local mt = getmetatable(smem)
  if mt ~= core.metatables.Layout and mt ~= core.metatables.ComposedLayout then
    E.raise("bank_conflicts: the shared-memory layout must be a cute.Layout or "
      .. "cute.ComposedLayout, got " .. E.typename(smem))
  end
  opts = opts or {}
  if require("cute.atom").is_tiled_copy(access) then
    -- a tiled copy reads smem on its source side: each thread moves the
    -- atom's values per thread in one instruction (ldmatrix: 16 bytes, so
    -- phases of 8 threads), of the atom's value type
    local copy = access
    local o = { bytes = opts.bytes or copy.atom.bits // 8,
                vec = opts.vec or core.size(copy.atom.src:mode(1)) }
    access = opts.side == "D" and copy:get_layoutD_TV() or copy:get_layoutS_TV()
    opts = o
  end
  if not tiler.is_layout(access) then
    E.raise("bank_conflicts: the access pattern must be a (thread, value) "
      .. "cute.Layout, got " .. E.typename(access) .. " (or pass a tiled copy)")
  end
  local rows, cols = model_m.extent(smem, "bank_conflicts")
  if core.rank(access) < 2 then
    E.raise(("bank_conflicts: the access pattern %s is not a (thread, value) "
      .. "layout"):format(tostring(access)))
  elseif core.rank(access) > 2 then
    E.raise(("bank_conflicts: the access pattern %s has rank %d, not a "
      .. "(thread, value) layout: group the value modes first, "
      .. "cute.group_modes(access, 1, %d)"):format(tostring(access),
      core.rank(access), core.rank(access)))
  end
  local self = setmetatable({ smem = smem, access = access, rows = rows,
    cols = cols, bytes = opts.bytes or 4, vec = opts.vec or 1,
    instructions = {}, cells = {}, worst = 1, wavefronts = 0, ideal = 0 },
    Result)
  local nt, nv = core.size(access:mode(0)), core.size(access:mode(1))
  limits.check("visit", "bank_conflicts", core.size(access), "accesses",
    smem, access)
  local width = self.vec * self.bytes
  local per_phase = width <= 4 and 32 or math.max(1, 128 // width)
  local shape = { rows, cols }
  for w = 0, (nt - 1) // 32 do
    for v0 = 0, nv - 1, self.vec do
      local ins = { warp = w, values = { v0, math.min(v0 + self.vec, nv) - 1 },
                    degrees = {} }
      for p0 = 32 * w, math.min(32 * w + 31, nt - 1), per_phase do
        local accesses = {}
        for t = p0, math.min(p0 + per_phase, 32 * w + 32, nt) - 1 do
          for v = v0, ins.values[2] do
            local idx = tile_index(access(t, v), shape)
            if idx < 0 or idx >= rows * cols then
              E.raise(("bank_conflicts: the access pattern %s sends thread "
                .. "%d value %d to tile index %d, outside the %dx%d tile of "
                .. "%s"):format(tostring(access), t, v, idx, rows, cols,
                tostring(smem)))
            end
            local m, n = idx % rows, idx // rows
            accesses[#accesses + 1] = { t = t, v = v, idx = idx,
              off = cols > 1 and smem(m, n) or smem(m) }
          end
        end
        local d = phase(self, accesses)
        ins.degrees[#ins.degrees + 1] = d
        self.worst = math.max(self.worst, d)
        self.wavefronts = self.wavefronts + d
        self.ideal = self.ideal + 1
      end
      self.instructions[#self.instructions + 1] = ins
    end
  end
  return self
end

function M.is_result(x) return getmetatable(x) == Result end

--- The picture: the tile in its logical (row, col) arrangement, each
-- accessed cell in its bank's colour with the bank number, cells of a
-- conflicted access framed in red.
function M.model(r, opts)
  local p = model_m.panel("", r.rows, r.cols)
  for m = 0, r.rows - 1 do
    for n = 0, r.cols - 1 do
      local c = r.cells[m + r.rows * n + 1]
      if c then
        model_m.put(p, m, n, { text = { tostring(c.bank) },
          fill = palette.bank(c.bank), t = c.t, v = c.v, b = c.bank,
          o = tostring(c.offset),
          mark = c.degree > 1 and (c.degree .. "-way") or nil })
      else
        model_m.put(p, m, n, { text = { "" }, fill = palette.empty })
      end
    end
  end
  return { kind = "banks", panels = { p }, title = {
    opts.title or ("shared memory %s, %d-byte elements")
      :format(tostring(r.smem), r.bytes),
    ("access %s, %d value(s) per thread per instruction")
      :format(tostring(r.access), r.vec),
    ("%d instructions: worst %d-way conflict, %d wavefronts (ideal %d)")
      :format(#r.instructions, r.worst, r.wavefronts, r.ideal) } }
end

return M
