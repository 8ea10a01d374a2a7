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

return M
