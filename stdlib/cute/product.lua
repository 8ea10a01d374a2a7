--- cute.product -- logical product and the products built on it (paper
-- 3.5.1, Figures 10 and 11; CuTe's logical_product family), computed by
-- the algebra (algebra/product.c: the definitions and worked examples).
--
--   A x B = (A, A* o B)   with A* the (minimal) complement of A
--
-- Mode 0 is the tile A itself, mode 1 its grid: "each element of B
-- replaced by a uniquely shifted A".  A tiler table applies the product by
-- mode (modes past it kept); a Layout B multiplies the whole of A:
--
--   (3,4):(4,1) x (2,5):(1,2)  = ((3,4),(2,5)):((4,1),(12,24))
--   blocked_product            = ((3,2),(4,5)):((4,12),(1,24))   Figure 10
--   raked_product              = ((2,3),(5,4)):((12,4),(24,1))   Figure 11
local core = require "cute.core"

local M = {

  logical_product = core.logical_product,
  --- ((M, N, ...), (T_M, T_N, ...))
  zipped_product = core.zipped_product,
  --- ((M, N, ...), T_M, T_N, ...)
  tiled_product = core.tiled_product,
  --- (M, N, ..., T_M, T_N, ...)
  flat_product = core.flat_product,
  --- ((M, T_M), (N, T_N), ...): each tile of A stays a contiguous block.
  blocked_product = core.blocked_product,
  --- ((T_M, M), (T_N, N), ...): A's elements raked across the grid.
  raked_product = core.raked_product,
}

--- pad(L, r): L with 1:0 modes appended up to rank r (CuTe's append<R>).
function M.pad(L, r)
  local unit = core.layout(1, 0)
  while core.rank(L) < r do L = core.append(L, unit) end
  return L
end

return M
