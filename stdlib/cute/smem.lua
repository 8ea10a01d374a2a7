--- cute.smem -- shared-memory layouts synthesised from the copy that
-- writes a tile and the MMA that reads it.
--
--   local smem = require "cute.smem"
--   local s = smem.synthesize { tile = {128, 64}, major = "K",
--                               dtype = "bf16", copy = "tma", mma = "wgmma" }
--   s.layout         --> Sw<3,3,3> o 0 o ((8,16),(64,1)):((64,512),(1,0))
--   s.swizzle_bytes  --> 128      s.vector_bytes --> 16
--   s.evidence       --> one row per candidate swizzle: conflict ways of
--                        the writes and the reads, vector width
--
-- A tile is (MN, K) in elements; `major` says which mode is contiguous in
-- global memory ("K": rows of K elements, "MN": columns of MN elements),
-- and so which mode the copy writes 16 bytes at a time.  Candidates are the
-- swizzle atoms of the tensor cores and of the bulk tensor copy engine:
-- 8 rows of W bytes, W = 128, 64, 32 or 16 (no swizzle), W/16 chunks of
-- 16 bytes permuted by the row index (Swizzle<log2(W/16), 4, 3> on byte
-- offsets; on element offsets its M is 4 - log2(element bytes)).  Each atom
-- is tiled over the tile by blocked_product (MN first for K-major, so a
-- column of atoms is one contiguous TMA box; K first for MN-major), and
-- both access patterns are measured with cute.bank_conflicts:
--   write: a warp stores 32 consecutive 16-byte chunks of global rows
--          (cp.async, or the TMA engine's 16-byte writes);
--   read:  8 threads read the 8 rows of a core matrix, 16 bytes each (the
--          ldmatrix / wgmma core-matrix pattern), 4 matrices per warp.
-- The result is the widest swizzle whose writes and reads are both
-- conflict-free (1-way), with the evidence of every candidate.
local core = require "cute.core"
local E = require "cute.error"

local M = {}

local log2 = core.log2

local function fail(fmt, ...)
  E.raise("cute.smem.synthesize: " .. fmt:format(...))
end

--- The swizzle atom of `bytes` (128, 64, 32; 16 = none) for elements of eb
-- bytes, as (plain atom layout, Swizzle): K-major (8, W):(W, 1), MN-major
-- (W, 8):(1, W), W = bytes / eb elements.
function M.atom(bytes, eb, major)
  local W = bytes // eb
  local plain = major == "K" and core.layout({ 8, W }, { W, 1 })
    or core.layout({ W, 8 }, { 1, W })
  return plain, core.swizzle(log2(bytes // 16), 4 - log2(eb), 3)
end

--- The tile (MN, K) made of atoms: blocked_product of the atom with a
-- grid of atoms ordered MN first (K-major) or K first (MN-major).
function M.tile_atom(plain, tile, major)
  local as = plain:shape()
  local gm, gk = tile[1] // as[1], tile[2] // as[2]
  local grid = major == "K" and core.layout({ gm, gk }, { 1, gm })
    or core.layout({ gm, gk }, { gk, 1 })
  return require("cute.product").blocked_product(plain, grid)
end

-- (thread, value) -> colexicographic index in the (MN, K) tile, V values
-- of 16 bytes per thread.
local function write_pattern(tile, major, V)
  local MN, K = tile[1], tile[2]
  if major == "K" then
    local per_row = math.min(K // V, 32)   -- threads along a row
    return core.layout({ { per_row, 32 // per_row }, V }, { { MN * V, 1 }, MN })
  end
  local per_col = math.min(MN // V, 32)
  return core.layout({ { per_col, 32 // per_col }, V }, { { V, MN }, 1 })
end

local function read_pattern(tile, major, V)
  local MN = tile[1]
  if major == "K" then    -- rows of a core matrix along MN, 16 B along K
    return core.layout({ { 16, 2 }, V }, { { 1, MN * V }, MN })
  end
  return core.layout({ { 16, 2 }, V }, { { MN, V }, 1 })
end

-- A tile smaller than a warp's accesses (8x8: 32 threads of 16 bytes
-- reach past it) is refused here, before bank_conflicts finds an access
-- outside it and names itself rather than synthesize.
local function fits(tile, major, what, pattern)
  local n = tile[1] * tile[2]
  if core.cosize(pattern) > n then
    fail("tile {%d, %d} (%s-major) is smaller than a warp's %ss %s, which reach "
      .. "element %d of a %d-element tile", tile[1], tile[2], major, what,
      tostring(pattern), core.cosize(pattern) - 1, n)
  end
end

-- The widest run (elements, a power of two up to 16 bytes) that stays
-- contiguous in the swizzled layout along the tile's contiguous mode.
local function vector_elems(layout, tile, major, eb)
  local v = 16 // eb
  local MN, K = tile[1], tile[2]
  while v > 1 do
    local ok = true
    for a = 0, (major == "K" and MN or K) - 1 do
      for b = 0, (major == "K" and K or MN) - 1, v do
        local base = major == "K" and layout(a, b) or layout(b, a)
        for j = 1, v - 1 do
          local o = major == "K" and layout(a, b + j) or layout(b + j, a)
          if o ~= base + j then ok = false break end
        end
        if not ok then break end
      end
      if not ok then break end
    end
    if ok then return v end
    v = v // 2
  end
  return 1
end

--- synthesize{tile = {MN, K}, major = "K"|"MN", dtype, copy, mma} -> the
-- layout and its evidence (see the header).  copy "tma" limits the swizzle
-- to what a tensor map can write (the box's inner extent is the swizzle
-- width); mma "wgmma" requires one of its canonical layouts (all four
-- atoms are); both take the same candidates otherwise.
function M.synthesize(spec)
  if type(spec) ~= "table" then fail("the spec must be a table, got %s", E.typename(spec)) end
  local tile, major, dtype = spec.tile, spec.major or "K", spec.dtype or "bf16"
  local d = core.dtypes[dtype]
  if not d then fail("unknown dtype %s (one of %s)", tostring(dtype), core.dtype_names) end
  local eb = d.bits // 8
  if type(tile) ~= "table" or math.type(tile[1]) ~= "integer"
      or math.type(tile[2]) ~= "integer" or tile[1] < 8 or tile[2] < 8 then
    fail("tile must be {MN, K} with integer extents >= 8")
  end
  if major ~= "K" and major ~= "MN" then fail("major must be \"K\" or \"MN\", got %s", tostring(major)) end
  local V = 16 // eb
  local contiguous = major == "K" and tile[2] or tile[1]
  local other = major == "K" and tile[1] or tile[2]
  if other % 8 ~= 0 then fail("the non-contiguous extent %d is not a multiple of 8", other) end
  local write, read = write_pattern(tile, major, V), read_pattern(tile, major, V)
  fits(tile, major, "write", write)
  fits(tile, major, "read", read)
  local evidence, best = {}, nil
  for _, bytes in ipairs { 128, 64, 32, 16 } do
    local W = bytes // eb
    local row = { swizzle_bytes = bytes }
    if contiguous % W ~= 0 then
      row.refused = ("the contiguous extent %d is not a multiple of %d"):format(contiguous, W)
    else
      local plain, sw = M.atom(bytes, eb, major)
      local tiled = M.tile_atom(plain, tile, major)
      local L = core.composition(sw, tiled)
      local banks = require "cute.picture.banks"
      row.layout, row.plain, row.swizzle = L, tiled, sw
      row.write = banks.bank_conflicts(L, write, { vec = V, bytes = eb }).worst
      row.read = banks.bank_conflicts(L, read, { vec = V, bytes = eb }).worst
      row.vector_bytes = vector_elems(L, tile, major, eb) * eb
      if not best and row.write == 1 and row.read == 1 then best = row end
    end
    evidence[#evidence + 1] = row
  end
  if not best then fail("no candidate is conflict-free for tile {%d, %d}", tile[1], tile[2]) end
  return { layout = best.layout, plain = best.plain, swizzle = best.swizzle,
    swizzle_bytes = best.swizzle_bytes, vector_bytes = best.vector_bytes,
    conflicts = { write = best.write, read = best.read }, major = major,
    tile = { tile[1], tile[2] }, dtype = dtype, element_bytes = eb,
    evidence = evidence }
end

-- (a limit met on the way, by bank_conflicts, names synthesize too)
M.synthesize = E.protect("cute.smem.synthesize", M.synthesize)

--- A text table of the evidence: one line per candidate.
function M.report(s)
  local out = { ("smem layout for a %dx%d %s tile, %s-major: %s"):format(
    s.tile[1], s.tile[2], s.dtype, s.major, tostring(s.layout)) }
  for _, r in ipairs(s.evidence) do
    if r.refused then
      out[#out + 1] = ("  %3d B swizzle: refused (%s)"):format(r.swizzle_bytes, r.refused)
    else
      out[#out + 1] = ("  %3d B swizzle: writes %d-way, reads %d-way, %d-byte vectors%s")
        :format(r.swizzle_bytes, r.write, r.read, r.vector_bytes,
          r.swizzle_bytes == s.swizzle_bytes and "  <- chosen" or "")
    end
  end
  return table.concat(out, "\n")
end

return M
