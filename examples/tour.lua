--[[ examples/tour.lua -- a guided tour of CuTe's layout algebra in Lua.

Every example comes from the CuTe paper (C. Cecka, "CuTe Layout
Representation and Algebra"); section numbers refer to it.  Run it with

  build/vm/cutelua examples/tour.lua
  LUA_PATH='stdlib/?.lua;stdlib/?/init.lua' LUA_CPATH='build/lua/?.so' \
    lua5.4 examples/tour.lua

Each line shows an expression and its value; where the paper prints the
value, the tour checks it.  The tour ends with an error
if any check fails, so it doubles as a smoke test.
--]]
local cute = require "cute"
local L, _ = cute.layout, cute._

local failures = 0

-- show("expr", value [, paper]) prints `expr = value`; a third argument is
-- the paper's value (compared as text).
local function show(expr, value, paper)
  local text = type(value) == "table" and cute.tuple_tostring(value)
               or tostring(value)
  local line = ("  %-44s = %s"):format(expr, text)
  if paper ~= nil and tostring(paper) ~= text then
    failures = failures + 1
    line = line .. "   <-- the paper says " .. tostring(paper)
  end
  print(line)
end

local function section(title, note)
  print()
  print(("== %s "):format(title) .. ("="):rep(70 - #title))
  if note then print(note) end
end

local function table2d(title, layout)
  print()
  print("  " .. title .. ":")
  cute.print_layout(layout)
end

------------------------------------------------------------------------------
section("1. Layouts (2.4)", [[
A layout is a shape and a congruent stride: S:D.  It maps coordinates to
offsets by idx2crd (colexicographic) followed by an inner product.]])

local A = L "((2,2),(4,2)):((1,8),(2,16))"
show('A = cute.layout "((2,2),(4,2)):((1,8),(2,16))"', A)
show("A(22)            -- integral coordinate", A(22), 26)
show("A(2, 5)          -- 2-D coordinate", A(2, 5), 26)
show("A({{0,1},{1,1}}) -- natural coordinate", A({{0, 1}, {1, 1}}), 26)
show("size, cosize, rank, depth",
     {cute.size(A), cute.cosize(A), cute.rank(A), cute.depth(A)}, "(32,32,2,2)")
show("A:shape(), A:stride() are Lua tables", A:shape())
show("cute.layout {4, 8}        -- column-major", cute.layout {4, 8}, "(4,8):(1,4)")
show("cute.layout_right {4, 8}  -- row-major", cute.layout_right {4, 8}, "(4,8):(8,1)")

print("\n  Figure 3: layouts compatible with shape (4,8), as 4x8 tables.")
table2d("column-major (4,8):(1,4)", L "(4,8):(1,4)")
table2d("padded (4,8):(1,5)", L "(4,8):(1,5)")
table2d("mixed ((2,2),(4,2)):((1,8),(2,16))", A)

------------------------------------------------------------------------------
section("2. Coordinates (2.2, Figure 2)", [[
Every integer names a coordinate of every compatible shape.]])
for i = 0, 11, 5 do
  show(("idx2crd(%d, {{2,3},2})"):format(i), cute.idx2crd(i, {{2, 3}, 2}))
end
show("crd2idx({{1,2},1}, {{2,3},2})", cute.crd2idx({{1, 2}, 1}, {{2, 3}, 2}), 11)

------------------------------------------------------------------------------
section("3. Coordinate layouts (2.3.1, Table 1)", [[
Strides may be scaled basis elements a@i (= a*e_i): such layouts produce
coordinates.  cute.E(i) is e_i; 6 * cute.E(1) is 6@1.]])
local I = cute.make_identity_layout {4, 8}
show("cute.make_identity_layout {4, 8}", I, "(4,8):(1@0,1@1)")
show("I(13)", I(13), "(1,3)")
local T1 = cute.layout({4, {4, 2}}, {cute.E(1), {cute.E(0), 6 * cute.E(1)}})
show("(4,(4,2)):(e1,(e0,6e1))", T1, "(4,(4,2)):(1@1,(1@0,6@1))")
show("its value at (1,(2,1))", T1(1, {2, 1}), "(2,7)")

------------------------------------------------------------------------------
section("4. Slicing (2.5.1, Figure 5)", [[
A call with cute._ keeps those modes: it returns the sublayout and the
offset where it starts, A(c' + c*) = {A(c')} o A(c*).  As in CuTe, the
sublayout has one top-level mode per `_` (docs/slicing.md); Figure 5
typesets the same functions without that outer tuple.]])
local F5 = L "((3,2),((2,3),2)):((4,1),((2,15),100))"
show("A", F5)
local sub, off = F5(2, _)
show("A(2,_)                         sublayout", sub, "(((2,3),2)):(((2,15),100))")
show("                               offset", off, 8)
sub, off = F5(_, 5)
show("A(_,5)", sub, "((3,2)):((4,1))")
show("                               offset", off, 32)
sub, off = F5({1, _}, {{_, 0}, _})
show("A((1,_),((_,0),_))", sub, "(2,2,2):(1,2,100)")
show("                               offset", off, 4)

------------------------------------------------------------------------------
section("5. Coalesce (3.2)", [[
The same function on integers with the fewest modes; a profile coalesces
mode by mode.]])
show("coalesce((2,(1,6)):(1,(6,2)))", cute.coalesce(L "(2,(1,6)):(1,(6,2))"), "12:1")
show("coalesce(same, {1,1})  -- by mode",
     cute.coalesce(L "(2,(1,6)):(1,(6,2))", {1, 1}), "(2,6):(1,2)")
show("coalesce(((4,3),5):((15,1),3))", cute.coalesce(L "((4,3),5):((15,1),3)"),
     "(4,15):(15,1)")
show("coalesce(((4,3),5):((15,1),3), {1,1})",
     cute.coalesce(L "((4,3),5):((15,1),3)", {1, 1}), "((4,3),5):((15,1),3)")

------------------------------------------------------------------------------
section("6. Composition (3.3)", [[
(A o B)(c) = A(B(c)): B chooses the domain, A the codomain.  A * B is
sugar for cute.composition(A, B).]])
local TV = L "((4,8),2):((16,1),8)"
print("  Table 4: 8x8 data layouts composed with the FP64 tensor core's")
print("  thread-value layout TV = " .. tostring(TV))
show("(8,8):(1,8) o TV   -- ColMajor", L "(8,8):(1,8)" * TV, "((4,8),2):((16,1),8)")
show("(8,8):(8,1) o TV   -- RowMajor", L "(8,8):(8,1)" * TV, "((4,8),2):((2,8),1)")
show("(8,8):(1,9) o TV   -- Padded", L "(8,8):(1,9)" * TV, "((4,8),2):((18,1),9)")
show("((4,2),(2,4)):((2,16),(1,8)) o TV",
     L "((4,2),(2,4)):((2,16),(1,8))" * TV, "((4,(4,2)),2):((8,(2,16)),1)")
show("(8,8):(e0,e1) o TV -- Coordinate", cute.make_identity_layout {8, 8} * TV,
     "((4,8),2):((2@1,1@0),1@1)")
show("(4,6,8,10):(2,3,5,7) o 6:12", L "(4,6,8,10):(2,3,5,7)" * L "6:12", "(2,3):(9,5)")
show("7:11 o (3,5):(6,3)", L "7:11" * L "(3,5):(6,3)", "(3,5):(66,33)")
show("(4,2,8):(3,12,97) o 3:3", L "(4,2,8):(3,12,97)" * L "3:3", "3:9")
local ok, msg = pcall(cute.composition, L "(4,6,8):(2,3,5)", L "6:3")
print("  (4,6,8):(2,3,5) o 6:3 has no layout; the error says why:")
print("    " .. (ok and "(no error!)" or msg))
if ok then failures = failures + 1 end

print("\n  Tilers (3.3.5): a Lua table composes mode by mode, <4:1, 8:2>.")
show("(8,16):(20,1) o {4, cute.layout '8:2'}",
     L "(8,16):(20,1)" * {4, L "8:2"}, "(4,8):(20,2)")

------------------------------------------------------------------------------
section("7. Complement (3.5, Table 7)", [[
complement(A) is disjoint from A with an increasing image; (A, A*) tiles
the codomain.]])
for _, row in ipairs {
  {"(4,8):(1,4)", "1:32"}, {"(4,8):(1,5)", "1:40"},
  {"(4,8):(1,8)", "(2,1):(4,64)"}, {"((2,2),(2,4)):((0,2),(0,4))", "(2,1):(1,16)"}} do
  show(("complement(%s)"):format(row[1]), cute.complement(L(row[1])), row[2])
end
show("complement(4:2, 24)  -- against a cotarget", cute.complement(L "4:2", 24),
     "(2,3):(1,8)")

------------------------------------------------------------------------------
section("8. Inverses (3.4, Tables 5 and 6)", [[
right_inverse R: A(R(k)) = k.  left_inverse: A+(A(k)) = k on the image.]])
for _, row in ipairs {
  {"(4,8):(8,1)", "(8,4):(4,1)", "(8,4):(4,1)"},
  {"(3,7,5):(5,15,1)", "(5,21):(21,1)", "(5,21):(21,1)"},
  {"(4,8):(1,5)", "4:1", "(5,8):(1,4)"}} do
  show(("right_inverse(%s)"):format(row[1]), cute.right_inverse(L(row[1])), row[2])
  show(("left_inverse(%s)"):format(row[1]), cute.left_inverse(L(row[1])), row[3])
end
show("max_common_vector((4,8):(1,4), (4,8):(1,5))",
     cute.max_common_vector(L "(4,8):(1,4)", L "(4,8):(1,5)"), 4)

------------------------------------------------------------------------------
section("9. Logical product (3.5.1, Figures 10 and 11)", [[
A x B = (A, A* o B): each element of B replaced by a shifted copy of A.]])
local tile, grid = L "(3,4):(4,1)", L "(2,5):(1,2)"
show("(3,4):(4,1) x (2,5):(1,2)", cute.logical_product(tile, grid),
     "((3,4),(2,5)):((4,1),(12,24))")
show("(4,8):(20,2) x (3,2):(2,1)", cute.logical_product(L "(4,8):(20,2)", L "(3,2):(2,1)"),
     "((4,8),(3,2)):((20,2),(80,1))")
show("blocked_product", cute.blocked_product(tile, grid), "((3,2),(4,5)):((4,12),(1,24))")
show("raked_product", cute.raked_product(tile, grid), "((2,3),(5,4)):((12,4),(24,1))")
table2d("Figure 10, blocked_product", cute.blocked_product(tile, grid))
table2d("Figure 11, raked_product", cute.raked_product(tile, grid))

------------------------------------------------------------------------------
section("10. Logical divide (3.5.2)", [[
A / B = A o (B, B*): the elements B points to (the tile) and the rest.]])
show("24:1 / 8:3", cute.logical_divide(L "24:1", L "8:3"), "(8,3):(3,1)")
local D = L "(8,16):(20,1)"
local T = {4, L "8:2"}
show("(8,16):(20,1) / <4:1,8:2>", cute.logical_divide(D, T), "((4,2),(8,2)):((20,80),(2,1))")
show("zipped_divide", cute.zipped_divide(D, T), "((4,8),(2,2)):((20,2),(80,1))")
show("tiled_divide", cute.tiled_divide(D, T), "((4,8),2,2):((20,2),80,1)")
show("flat_divide", cute.flat_divide(D, T), "(4,8,2,2):(20,2,80,1)")

print("\n  Partitioning is compose-and-slice (3.3.4, end of 3.5.2):")
local blk, boff = cute.zipped_divide(D, {4, 8})({_, _}, {1, 1})
show("zipped_divide(A, {4,8})((_,_), {1,1})", blk)
show("                               offset", boff)
local t, toff = cute.local_tile(D, {4, 8}, {1, 1})
show("local_tile(A, {4,8}, {1,1})", t)
show("                               offset", toff)
local thr_data, thr_off = cute.local_partition(L "(8,8):(8,1)", cute.layout {2, 4}, 5)
show("local_partition(8x8, cute.layout {2,4}, 5)", thr_data)
show("                               offset", thr_off)
local tv = L "(8,8):(8,1)" * TV
local vals, voff = tv(5, _)
show("(RowMajor o TV)(5, _)  -- thread 5's values", vals)
show("                               offset", voff)

------------------------------------------------------------------------------
section("11. Swizzles", [[
Sw<B,M,S> xors bits [M+S, M+S+B) into [M, M+B); composed with a layout it
spreads the rows of a shared-memory tile over different banks.]])
local sw = cute.swizzle(3, 0, 3)
show("cute.swizzle(3, 0, 3)", sw, "Sw<3,0,3>")
show("sw(0x2a)  -- 101010b: bits 3..5 xor 0..2", sw(0x2a))
local S = sw * L "(8,8):(8,1)"
show("sw * (8,8):(8,1)", S, "Sw<3,0,3> o 0 o (8,8):(8,1)")
table2d("in every column, the values mod 8 (the banks) all differ", S)

print()
if failures > 0 then
  error(("tour: %d value(s) differ from the paper"):format(failures), 0)
end
print("Every value above matches the paper.")
