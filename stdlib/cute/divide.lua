--- cute.divide -- logical divide and its zipped / tiled / flat arrangements
-- (paper 3.5.2; CuTe's logical_divide family), computed by the algebra
-- (algebra/divide.c: the definitions, worked examples and error forms).
--
--   A / B = A o (B, B*)   with B* = complement(B, size(A))
--
-- Mode 0 of the result, A o B, is the "tile"; mode 1, A o B*, the "rest".
-- With a tiler table the divide is applied by mode and modes past the
-- tiler are kept:
--
--   (8,16):(20,1) / <4:1, 8:2>  = ((4,2),(8,2)):((20,80),(2,1))
--   zipped_divide               = ((4,8),(2,2)):((20,2),(80,1))
--   tiled_divide                = ((4,8),2,2):((20,2),80,1)
--   flat_divide                 = (4,8,2,2):(20,2,80,1)
local core = require "cute.core"

return {
  logical_divide = core.logical_divide,
  --- ((T0, T1, ...), (R0, R1, ..., rest of A)): rank 2 always.
  zipped_divide = core.zipped_divide,
  --- ((T0, T1, ...), R0, R1, ..., rest of A)
  tiled_divide = core.tiled_divide,
  --- (T0, T1, ..., R0, R1, ..., rest of A)
  flat_divide = core.flat_divide,
}
