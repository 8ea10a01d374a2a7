--- cute.divide -- logical divide and its zipped / tiled / flat arrangements
-- (paper 3.5.2; docs/architecture.md, "Divides and products by mode").
--
--   A / B = A o (B, B*)   with B* = complement(B, size(A))
--
-- The complement is taken against size(A), so (B, B*) covers all of A and
-- no element of A is dropped.  Mode 0 of the result, A o B, is the "tile";
-- mode 1, A o B*, the "rest" that iterates over tiles.  With a tiler table
-- the divide is applied by mode and modes past the tiler are kept:
--
--   (8,16):(20,1) / <4:1, 8:2>  = ((4,2),(8,2)):((20,80),(2,1))
--   zipped_divide               = ((4,8),(2,2)):((20,2),(80,1))
--   tiled_divide                = ((4,8),2,2):((20,2),80,1)
--   flat_divide                 = (4,8,2,2):(20,2,80,1)
local core = require "cute.core"
local tiler = require "cute.tiler"

local M = {}

-- B* is coalesced, as CuTe's complement is: the algebra keeps a trailing
-- size-1 mode whose stride marks the end of the codomain (complement(8:2,
-- 16) = (2,1):(1,16)), needed on the extended domain but always at
-- coordinate 0 inside (B, B*), which covers A.  Without it the rest mode
-- reads as the paper prints it: (8,16):(20,1) / <4:1,8:2> has rest (2,2).
local function divide1(A, B)
  local rest = core.coalesce(core.complement(B, core.size(A)))
  return core.composition(A, core.concat(B, rest))
end

-- T a Layout, an integer n (= n:1) or a tiler table.
local logical_divide = tiler.by_tiler(divide1, "logical_divide")

local function arranged(arrange)
  return tiler.arranged(logical_divide, arrange)
end

M.logical_divide = tiler.checked("logical_divide", logical_divide)
--- ((T0, T1, ...), (R0, R1, ..., rest of A)): rank 2 always.
M.zipped_divide = tiler.checked("zipped_divide", arranged(tiler.zipped))
--- ((T0, T1, ...), R0, R1, ..., rest of A)
M.tiled_divide = tiler.checked("tiled_divide", arranged(tiler.tiled))
--- (T0, T1, ..., R0, R1, ..., rest of A)
M.flat_divide = tiler.checked("flat_divide", arranged(tiler.flat))

return M
