--- cute.tiler -- by-mode tilers (paper 3.3.5, Definition 3.1), and the
-- error helpers the stdlib's public functions share.
--
-- A tiler is a Layout, an integer n (the layout n:1), the slice marker
-- `_` (the mode is left whole), or a Lua table of tilers <T0, T1, ...>
-- applied mode by mode, tables nesting.  The algebra (cute.core, in C:
-- algebra/tiler.c) reads and applies them: composition, the divides, the
-- products and partitioning all take one.
--
--   (8,16):(20,1) o <4:1, 8:2>  = (4,8):(20,2)
--   cute.composition(A, {4, cute.layout "8:2"})
--   (4,8):(1,4) / <_,2:1>       = (4,(2,4)):(1,(4,8))
local core = require "cute.core"

local M = {}

local Layout = core.metatables.Layout

function M.is_layout(x)
  return getmetatable(x) == Layout
end

--- Text of a tiler: "<4:1,8:2>", nested sub-tilers as "<...>" too (C).
M.tostring = core.tiler_tostring

--- t marked as a tuple, so that print(t) gives its CuTe text "(16,8,16)"
-- in scripts as in the REPL (the metatable of the tuples cute.core
-- returns; a marked table is still read as a tuple).
function M.tuple(t)
  return core.mark_tuple(t)
end

--- T marked as a tiler: print(T) gives "<_,(8,2,2):(1,16,8),_>".
local Tiler = { __tostring = function(T) return M.tostring(T) end }
function M.mark(T)
  return setmetatable(T, Tiler)
end

--- The modes of L as a list of Layouts (an integer-shaped L is its own
-- single mode).
function M.modes(L)
  local t = {}
  for i = 0, core.rank(L) - 1 do t[i + 1] = L:mode(i) end
  return t
end

--- composition(A, B): B a Layout, an integer n (= n:1), `_` or a tiler
-- table; A a Layout, Swizzle or ComposedLayout.  R(c) = A(B(c)).
M.composition = core.composition

return M
