--- cute.product -- logical product and the products built on it
-- (paper 3.5.1, Figures 10 and 11; docs/architecture.md, "Semantic choices").
--
--   A x B = (A, A* o B)   with A* the (minimal) complement of A
--
-- The paper's own examples use the minimal complement, evaluated on its
-- extended domain: its last mode's stride marks the end of A's codomain,
-- so A* o B keeps stepping past A for as long as B needs.  This is the
-- same function as complement(A, size(A) * cosize(B)) wherever
-- that exists, and it also exists where the cotarget's holes do not tile
-- exactly, as in (4,8):(20,2) x (3,2):(2,1) (paper 3.5.1).
--
-- Mode 0 is the tile A itself, mode 1 its grid: "each element of B
-- replaced by a uniquely shifted A".  A tiler table applies the product
-- by mode (modes past it kept); a Layout B multiplies the whole of A, as
-- CuTe C++ does and as the paper's examples are computed:
--
--   (3,4):(4,1) x (2,5):(1,2)  = ((3,4),(2,5)):((4,1),(12,24))
--   blocked_product            = ((3,2),(4,5)):((4,12),(1,24))   Figure 10
--   raked_product              = ((2,3),(5,4)):((12,4),(24,1))   Figure 11
local core = require "cute.core"
local tiler = require "cute.tiler"

local M = {}

local function product1(A, B)
  return core.concat(A, core.composition(core.complement(A), B))
end

local logical_product = tiler.by_tiler(product1, "logical_product")

local function arranged(arrange)
  return tiler.arranged(logical_product, arrange)
end

--- pad(L, r): L with 1:0 modes appended up to rank r (CuTe's append<R>).
function M.pad(L, r)
  local unit = core.layout(1, 0)
  while core.rank(L) < r do L = core.append(L, unit) end
  return L
end

-- blocked (tile modes first) or raked (grid modes first): both need
-- rank(A) == rank(B), reached by padding the lower rank with 1:0 modes;
-- mode i of the result pairs mode i of A with mode i of its grid.
local function zipped_modes(grid_first)
  local name = grid_first and "raked_product" or "blocked_product"
  return function(A, B)
    if type(B) == "table" and not tiler.is_layout(B) then
      tiler.fail(name, A, B, "B is a tiler table; blocked and raked "
        .. "products take a layout or an integer")
    end
    B = tiler.tile(B, name, A, B)
    local r = math.max(core.rank(A), core.rank(B))
    A, B = M.pad(A, r), M.pad(B, r)
    -- The grid of mode i is A* o B_i: (A* o B):mode(i) would split an
    -- integer-shaped B (rank 1) whose image A* o B is a tuple.
    local Astar = core.complement(A)
    local modes = {}
    for i = 0, r - 1 do
      local a, g = A:mode(i), core.composition(Astar, B:mode(i))
      modes[i + 1] = grid_first and core.concat(g, a) or core.concat(a, g)
    end
    -- An integer-shaped A is its own single mode: CuTe's zip then leaves
    -- the pair (A, grid) as it is, rank 2.
    if type(A:shape()) ~= "table" then return modes[1] end
    return core.concat(table.unpack(modes))
  end
end

M.logical_product = tiler.checked("logical_product", logical_product)
--- ((M, N, ...), (T_M, T_N, ...))
M.zipped_product = tiler.checked("zipped_product", arranged(tiler.zipped))
--- ((M, N, ...), T_M, T_N, ...)
M.tiled_product = tiler.checked("tiled_product", arranged(tiler.tiled))
--- (M, N, ..., T_M, T_N, ...)
M.flat_product = tiler.checked("flat_product", arranged(tiler.flat))
--- ((M, T_M), (N, T_N), ...): each tile of A stays a contiguous block.
M.blocked_product = tiler.checked("blocked_product", zipped_modes(false))
--- ((T_M, M), (T_N, N), ...): A's elements raked across the grid.
M.raked_product = tiler.checked("raked_product", zipped_modes(true))

return M
