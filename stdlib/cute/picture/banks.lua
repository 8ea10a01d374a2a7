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
-- size (default 4).  Threads 0..31 form warp 0, and so on.  A tiled copy
-- stands for its shared-memory side: the source of ldmatrix and of plain
-- loads, the destination of stmatrix and cp.async.  ldmatrix and stmatrix
-- take one phase per 8x8 matrix: 8 lanes give the 8 row addresses (16
-- bytes each), and lanes whose addresses the .x1 / .x2 forms ignore
-- (their layouts repeat the rows) add no phase.
--
-- The picture shows the tile, each accessed cell in its bank's colour and
-- framed in red when its access conflicts, and below it the worst phase:
-- one column per bank, one row per distinct word (wavefront), each cell
-- the thread that reads that word, in its lane's colour.
local core = require "cute.core"
local E = require "cute.error"
local limits = require "cute.limits"
local linear = require "cute.linear"
local tiler = require "cute.tiler"
local model_m = require "cute.picture.model"
local palette = require "cute.picture.palette"

local M = {}

local Result
Result, M.is_result = model_m.class("cute.BankConflicts", function(self)
  return ("bank conflicts of %s under %s: %d instructions, worst %d-way, "
    .. "%d wavefronts (%d without conflicts)"):format(tostring(self.smem),
    tostring(self.access), #self.instructions, self.worst, self.wavefronts,
    self.ideal)
end)

local function tile_index(x, shape)
  if type(x) == "table" then return core.crd2idx(x, shape) end
  return x
end

-- One phase: the accesses {t, v, idx, off} of a few threads; records the
-- conflict degree of each in `cells` (and in the access: a.bank, a.word,
-- a.degree) and returns the phase's wavefronts.
local function phase(self, accesses)
  local words = {}             -- bank -> { word = true }, distinct words
  local count = {}             -- bank -> number of distinct words
  for _, a in ipairs(accesses) do
    a.word = a.off * self.bytes // 4
    a.bank = a.word % 32
    local w = words[a.bank] or {}
    words[a.bank] = w
    if not w[a.word] then
      w[a.word] = true
      count[a.bank] = (count[a.bank] or 0) + 1
    end
  end
  local worst = 1
  for _, a in ipairs(accesses) do
    a.degree = count[a.bank]
    worst = math.max(worst, a.degree)
    local c = self.cells[a.idx + 1]
    if not c or a.degree > c.degree then
      self.cells[a.idx + 1] = { t = a.t, v = a.v, bank = a.bank,
                                degree = a.degree, offset = a.off }
    end
  end
  return worst
end

-- The offsets of a phase, as a key: ldmatrix / stmatrix lanes that repeat
-- the rows of earlier lanes (.x1, .x2) issue no phase of their own.
local function phase_key(accesses)
  local offs = {}
  for i, a in ipairs(accesses) do offs[i] = a.off end
  return table.concat(offs, ",")
end

-- bank_conflicts' options (cute.error.options): sizes of 1..128 bytes, at
-- most a bank row; bytes is the pictures' element width too.
local options = {
  { "bytes", E.int_in(1, 128), "an integer in 1..128" },
  { "vec", E.int_in(1, 128), "an integer in 1..128" },
  { "side", function(v) return v == "S" or v == "D" end, "\"S\" or \"D\"" },
}
M.bytes_option = options[1]

-- A tiled copy's shared-memory side: its TV layout and options.
local function copy_side(copy, opts)
  local ptx = copy.atom.ptx or ""
  local side = opts.side   -- checked with the other options
    or ((ptx:match "^stmatrix" or ptx:match "^cp%.async") and "D" or "S")
  local vals = side == "D" and copy.atom.dst or copy.atom.src
  return side == "D" and copy:get_layoutD_TV() or copy:get_layoutS_TV(),
    { bytes = opts.bytes or copy.atom.bits // 8,
      vec = opts.vec or core.size(vals:mode(1)),
      matrix = ptx:match "^ldmatrix" or ptx:match "^stmatrix", side = side }
end

-- The checked operands: smem (a Layout or ComposedLayout of rank <= 2),
-- access (a rank-2 TV layout), opts.
local function operands(smem, access, opts)
  if linear.is_linear(smem) then smem = linear.as_cute(smem) end
  local mt = getmetatable(smem)
  if mt ~= core.metatables.Layout and mt ~= core.metatables.ComposedLayout then
    E.raise("bank_conflicts: the shared-memory layout must be a cute.Layout or "
      .. "cute.ComposedLayout, got " .. E.typename(smem))
  end
  if core.rank(smem) > 2 then
    E.raise(("bank_conflicts: the shared-memory layout %s has rank %d, not "
      .. "a (row, col) tile: group its column modes first, "
      .. "cute.group_modes(smem, 1, %d)"):format(tostring(smem),
      core.rank(smem), core.rank(smem)))
  end
  opts = E.options("bank_conflicts", 3, opts, options)
  -- the lowest offset (a composed layout's before its swizzle); a layout
  -- with basis strides (an identity layout) has no offsets to bank
  local inner = mt == core.metatables.Layout and smem or smem:layout()
  local ok, lo = pcall(core.offset_range, inner)
  if not ok then
    E.raise(("bank_conflicts: the shared-memory layout %s maps to no "
      .. "offsets: %s"):format(tostring(smem), lo))
  end
  if mt ~= core.metatables.Layout then lo = lo + smem:offset() end
  if lo < 0 then
    E.raise(("bank_conflicts: the shared-memory layout %s reaches offset %d: "
      .. "shared memory has none below 0"):format(tostring(smem), lo))
  end
  if require("cute.atom").is_tiled_copy(access) then
    access, opts = copy_side(access, opts)
  end
  if not tiler.is_layout(access) then
    E.raise("bank_conflicts: the access pattern must be a (thread, value) "
      .. "cute.Layout, got " .. E.typename(access) .. " (or pass a tiled copy)")
  end
  if core.rank(access) < 2 then
    E.raise(("bank_conflicts: the access pattern %s is not a (thread, value) "
      .. "layout"):format(tostring(access)))
  elseif core.rank(access) > 2 then
    E.raise(("bank_conflicts: the access pattern %s has rank %d, not a "
      .. "(thread, value) layout: group the value modes first, "
      .. "cute.group_modes(access, 1, %d)"):format(tostring(access),
      core.rank(access), core.rank(access)))
  end
  return smem, access, opts
end

-- The accesses of threads [t0, t1) for values [v0, v1] of an instruction.
local function accesses_of(self, t0, t1, v0, v1)
  local rows, cols, access, smem = self.rows, self.cols, self.access, self.smem
  local list = {}
  for t = t0, t1 - 1 do
    for v = v0, v1 do
      local idx = tile_index(access(t, v), { rows, cols })
      if idx < 0 or idx >= rows * cols then
        E.raise(("bank_conflicts: the access pattern %s sends thread "
          .. "%d value %d to tile index %d, outside the %dx%d tile of "
          .. "%s"):format(tostring(access), t, v, idx, rows, cols,
          tostring(smem)))
      end
      local m, n = idx % rows, idx // rows
      list[#list + 1] = { t = t, v = v, idx = idx,
        off = cols > 1 and smem(m, n) or smem(m) }
    end
  end
  return list
end

--- The analysis: fields smem, access, rows, cols, bytes, vec,
-- instructions = { {warp, values = {first, last}, degrees = {per phase}} },
-- cells[idx + 1] = {t, v, bank, degree, offset} (the worst access of the
-- cell), worst (the largest degree), wavefronts and ideal (their total
-- with and without conflicts), worst_phase = {instruction = k, threads =
-- {first, last}, accesses = { {t, v, idx, off, word, bank, degree} }}
-- (the first phase of the largest degree).
function M.bank_conflicts(smem, access, opts)
  smem, access, opts = operands(smem, access, opts)
  local rows, cols = model_m.extent(smem, "bank_conflicts")
  local self = setmetatable({ smem = smem, access = access, rows = rows,
    cols = cols, bytes = opts.bytes or 4, vec = opts.vec or 1,
    instructions = {}, cells = {}, worst = 1, wavefronts = 0, ideal = 0 },
    Result)
  local nt, nv = core.size(access:mode(0)), core.size(access:mode(1))
  limits.check("visit", "bank_conflicts", core.size(access), "accesses",
    smem, access)
  local width = self.vec * self.bytes
  local per_phase = width <= 4 and 32 or math.max(1, 128 // width)
  for w = 0, (nt - 1) // 32 do
    for v0 = 0, nv - 1, self.vec do
      local ins = { warp = w, values = { v0, math.min(v0 + self.vec, nv) - 1 },
                    degrees = {} }
      self.instructions[#self.instructions + 1] = ins
      local issued = {}
      for p0 = 32 * w, math.min(32 * w + 31, nt - 1), per_phase do
        local p1 = math.min(p0 + per_phase, 32 * w + 32, nt)
        local list = accesses_of(self, p0, p1, v0, ins.values[2])
        local key = opts.matrix and phase_key(list)
        if not (key and issued[key]) then
          if key then issued[key] = true end
          local d = phase(self, list)
          ins.degrees[#ins.degrees + 1] = d
          if d > self.worst or not self.worst_phase then
            self.worst_phase = { instruction = #self.instructions,
                                 threads = { p0, p1 - 1 }, accesses = list }
          end
          self.worst = math.max(self.worst, d)
          self.wavefronts = self.wavefronts + d
          self.ideal = self.ideal + 1
        end
      end
    end
  end
  return self
end

-- The tile: each accessed cell in its bank's colour with the bank number,
-- cells of a conflicted access framed in red.
local function tile_panel(r)
  local p = model_m.panel("smem", r.rows, r.cols, 0, 0, { "row", "col" })
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
  return p
end

-- The worst phase below the tile: column b is bank b, row k its k-th
-- distinct word (the k-th wavefront; the row axis is named where there
-- is room for "word"); each cell names the thread (and
-- value) reading that word, in its lane's colour, and links to its tile
-- cell.  Threads reading one word (a broadcast) share a cell.
local function phase_panel(r, row0)
  local ph = r.worst_phase
  local p = model_m.panel("phase", math.max(1, r.worst), 32, row0, 0,
    { r.worst > 2 and "word" or false, "bank" })
  local rows_used, cell_of = {}, {}
  for _, a in ipairs(ph.accesses) do
    local c = cell_of[a.word]
    if c then
      c.readers = c.readers + 1
      c.text[2] = ("+%d"):format(c.readers - 1)
    else
      local k = rows_used[a.bank] or 0
      rows_used[a.bank] = k + 1
      c = { text = { "T" .. a.t, "V" .. a.v }, fill = palette.thread(a.t),
            t = a.t, v = a.v, b = a.bank, o = tostring(a.off), readers = 1,
            mark = a.degree > 1 and (a.degree .. "-way") or nil,
            link = ("smem:%d,%d"):format(a.idx % r.rows, a.idx // r.rows) }
      cell_of[a.word] = c
      model_m.put(p, k, a.bank, c)
    end
  end
  for b = 0, 31 do
    if not rows_used[b] then
      model_m.put(p, 0, b, { text = { "" }, fill = palette.empty })
    end
  end
  return p
end

--- The picture: the tile, then the worst phase with the legend of its
-- threads' lanes.
function M.model(r, opts)
  local ph = r.worst_phase
  local legend = { title = ("worst phase: instruction %d, threads %d..%d; "
    .. "column = bank, row k = its k-th word (wavefront); red frame: a "
    .. "conflict")
    :format(ph.instruction, ph.threads[1], ph.threads[2]) }
  for t = ph.threads[1], ph.threads[2] do
    legend[#legend + 1] = { fill = palette.thread(t), text = t }
  end
  return { kind = "banks", legend = legend,
    panels = { tile_panel(r), phase_panel(r, r.rows + 4) }, title = {
    opts.title or ("shared memory %s, %d-byte elements")
      :format(tostring(r.smem), r.bytes),
    ("access %s, %d value(s) per thread per instruction")
      :format(tostring(r.access), r.vec),
    ("%d instructions: worst %d-way conflict, %d wavefronts (ideal %d)")
      :format(#r.instructions, r.worst, r.wavefronts, r.ideal) } }
end

return M
