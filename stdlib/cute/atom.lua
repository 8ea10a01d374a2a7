--- cute.atom -- MMA and copy atoms, tiled over threads, and per-thread
-- partitioning, after CuTe's MMA_Atom / TiledMMA / ThrMMA and Copy_Atom /
-- TiledCopy / ThrCopy (cute/atom/mma_atom.hpp, copy_atom.hpp).
--
-- An MMA atom is data: the M x N x K shape of one instruction, ThrID
-- (atom thread -> thread index) and the TV layouts of A (thread, value) ->
-- (m,k), B -> (n,k) and C -> (m,n), each coordinate written as the
-- colexicographic index of its tile.  The catalog (cute.arch) holds the
-- instructions; mma_atom "name" looks one up.
--
-- A tiled MMA repeats the atom over a thread layout (M,N,K) and permutes
-- each of M, N, K first; a thread's slice partitions tensors in CuTe's
-- mode order: A -> (V,M,K), B -> (V,N,K), C -> (V,M,N).  The 256-thread
-- example (examples/tiled_mma_partition.lua):
--
--   local mma = cute.make_tiled_mma(cute.mma_atom "UniversalFMA",
--                 cute.layout_right {16, 16, 1},
--                 {cute.layout "(16,4):(4,1)", cute.layout "(16,4):(4,1)"})
--   mma:get_slice(0):partition_C(cute.layout_right {128, 128})
--   --> (1,(4,2),(4,2)):(0,(128,8192),(1,64))   0
--
-- Partitions are layouts: each returns the thread's layout and the offset
-- it starts at, like slicing (paper eq. 10).
local core = require "cute.core"
local E = require "cute.error"
local divide = require "cute.divide"
local product = require "cute.product"
local tiler = require "cute.tiler"
local tv = require "cute.tv"

local M = {}

local _ = core._
local concat = core.concat

local modes = tiler.modes

-- CuTe text or a shape table ({2,2,1}: compact column-major) as a Layout.
local function as_layout(x)
  if type(x) == "string" then return core.layout(x) end
  local mt = getmetatable(x)
  if type(x) == "table" and (mt == nil or mt == core.metatables.Tuple) then
    return core.layout(x)
  end
  return x
end


-- (L0 o B, L1, L2, ...): CuTe's layout.compose(B, _), composing mode 0 only.
local function compose0(L, B)
  local m = modes(L)
  m[1] = core.composition(m[1], B)
  return concat(table.unpack(m))
end

-- Index argument x of method op: an integer (2.0 is 2) with 0 <= x < n,
-- else an error naming op and x -- a number by its value, any other value
-- by its type (never a table's address).
local function index_arg(op, what, x, n, range)
  local i = type(x) == "number" and math.tointeger(x) or nil
  local shown = type(x) == "number" and tostring(x) or E.typename(x)
  if i == nil then
    E.raise(("%s(%s): %s must be an integer, got %s"):format(op, shown, what,
      shown))
  end
  if i < 0 or i >= n then
    E.raise(("%s(%s): %s out of range, need %s"):format(op, shown, what, range))
  end
  return i
end

------------------------------------------------------------------- atoms --

local MMA_Atom = { __name = "cute.MMA_Atom" }
MMA_Atom.__index = MMA_Atom

--- The atom block, line for line as CuTe's print(MMA_Atom) (no "_").
function MMA_Atom:__tostring()
  return ("MMA_Atom\n  ThrID:      %s\n  Shape_MNK:  %s\n  LayoutA_TV: %s\n"
    .. "  LayoutB_TV: %s\n  LayoutC_TV: %s"):format(tostring(self.thr_id),
    core.tuple_tostring(self.shape_mnk), tostring(self.A), tostring(self.B),
    tostring(self.C))
end

local Copy_Atom = { __name = "cute.Copy_Atom" }
Copy_Atom.__index = Copy_Atom

function Copy_Atom:__tostring()
  return ("Copy_Atom\n  ThrID:        %s\n  ValLayoutSrc: %s\n  ValLayoutDst: "
    .. "%s\n  ValLayoutRef: %s\n  ValueType:    %db"):format(
    tostring(self.thr_id), tostring(self.src), tostring(self.dst),
    tostring(self.ref), self.bits)
end

--- Bits of a value type: an integer, or a name ("f16", "tf32", "s32",
-- ...: the algebra's element types, core.dtypes).
function M.type_bits(t)
  if math.type(t) == "integer" and t > 0 then return t end
  local d = core.dtypes[t]
  if not d then
    -- (a table by its type: its text would be an address)
    local shown = (type(t) == "string" or type(t) == "number") and tostring(t)
      or E.typename(t)
    E.raise(("copy_atom: unknown value type %s%s (an integer number of bits or "
      .. "one of %s)"):format(shown,
      type(t) == "string" and "" or " (a " .. type(t) .. ")", core.dtype_names))
  end
  return d.bits
end

-- An atom's spec: a catalog name or a table with the fields `needs`.
local function catalog_entry(name, kind, needs)
  if type(name) == "table" and getmetatable(name) == nil then
    for _, k in ipairs(needs) do
      if name[k] == nil then
        E.raise(("%s_atom: the spec table has no field %s (needs %s)")
          :format(kind, k, table.concat(needs, ", ")))
      end
    end
    return name
  end
  if type(name) ~= "string" then
    E.raise(("%s_atom: an atom name (string) or spec table expected, got %s")
      :format(kind, E.typename(name)))
  end
  local catalog = require "cute.arch"
  local spec = catalog[name]
  if not spec then
    E.raise(("%s_atom: no atom named %q in the catalog (cute.arch)")
      :format(kind, tostring(name)))
  end
  if spec.kind ~= kind then
    E.raise(("%s_atom: %s is a %s atom"):format(kind, name, spec.kind))
  end
  return spec
end

--- An MMA atom from the catalog ("SM80_16x8x16_F32F16F16F32_TN") or from
-- a spec table {name=, shape_mnk={M,N,K}, thr_id=, A=, B=, C=, ...} whose
-- layouts are cute.Layouts or CuTe text.
function M.mma_atom(spec)
  spec = catalog_entry(spec, "mma", { "thr_id", "shape_mnk", "A", "B", "C" })
  local a = setmetatable({}, MMA_Atom)
  for k, v in pairs(spec) do a[k] = v end
  a.thr_id, a.A, a.B, a.C = as_layout(spec.thr_id), as_layout(spec.A),
    as_layout(spec.B), as_layout(spec.C)
  a.shape_mnk = tiler.tuple({ table.unpack(spec.shape_mnk) })
  return a
end

-- The atom's bit layout L (its `side` layout) read as values of `bits`
-- bits; a width that does not divide it is the value type's fault, named
-- so: the upcast is a step of copy_atom.
local function as_values(name, value_type, bits, side, L)
  local ok, V = pcall(core.upcast, L, bits)
  if not ok then
    E.raise(("copy_atom: value type %s (%d bits) does not divide the %s "
      .. "layout of %s (in bits): %s"):format(tostring(value_type), bits, side,
      name, V))
  end
  return V
end

--- A copy atom from the catalog or a spec, its bit layouts read as values
-- of `value_type` bits (CuTe's Copy_Atom<Op, T>: recast from bits); with
-- no value type the layouts stay in bits.
function M.copy_atom(spec, value_type)
  local name = type(spec) == "string" and spec or "the spec"
  spec = catalog_entry(spec, "copy", { "thr_id", "src", "dst" })
  if value_type == nil then   -- CuTe's Copy_Atom<Op, T> names T too
    E.raise("copy_atom: the value type is missing (cute.copy_atom(name, "
      .. "\"f16\"), or a bit count)")
  end
  local bits = M.type_bits(value_type)
  local a = setmetatable({}, Copy_Atom)
  for k, v in pairs(spec) do a[k] = v end
  a.bits = bits
  a.thr_id = as_layout(spec.thr_id)
  a.src_bits, a.dst_bits = as_layout(spec.src), as_layout(spec.dst)
  a.ref_bits = as_layout(spec.ref or spec.dst)
  a.src = as_values(name, value_type, bits, "source", a.src_bits)
  a.dst = as_values(name, value_type, bits, "destination", a.dst_bits)
  a.ref = as_values(name, value_type, bits, "reference", a.ref_bits)
  return a
end

function M.is_mma_atom(x) return getmetatable(x) == MMA_Atom end
function M.is_copy_atom(x) return getmetatable(x) == Copy_Atom end

--------------------------------------------------------------- tiled MMA --

-- A tiled class (cute.TiledX) and its one-thread slice (cute.ThrX), whose
-- objects read through to their `tiled` (CuTe's ThrMMA derives TiledMMA).
local function tiled_classes(x)
  local tiled = { __name = "cute.Tiled" .. x }
  tiled.__index = tiled
  local thr = { __name = "cute.Thr" .. x }
  thr.__index = function(t, k) return thr[k] or t.tiled[k] end
  return tiled, thr
end

local TiledMMA, ThrMMA = tiled_classes("MMA")

function TiledMMA:__tostring()
  return ("TiledMMA\n  ThrLayoutVMNK:  %s\n  PermutationMNK: %s\n%s")
    :format(tostring(self.thr_layout_vmnk), tiler.tostring(self.permutation),
      tostring(self.atom))
end

function ThrMMA:__tostring()
  return ("ThrMMA\n  Thr VMNK: %s\n%s"):format(
    core.tuple_tostring(self.thr_vmnk), tostring(self.tiled))
end

--- tiled:permutation_mnk(i): the tiler permuting mode i (0 M, 1 N, 2 K);
-- `_` stands for atom size x thread count along i, an identity.
function TiledMMA:permutation_mnk(i)
  local p = self.permutation[i + 1]
  if p == _ then
    return self.atom.shape_mnk[i + 1] * core.size(self.thr_layout_vmnk:mode(i + 1))
  end
  return p
end

--- The extent of the tiled MMA along mode i (0 M, 1 N, 2 K).
function TiledMMA:tile_size(i)
  return core.size(self:permutation_mnk(i))
end

function TiledMMA:tile_shape()
  return tiler.tuple { self:tile_size(0), self:tile_size(1), self:tile_size(2) }
end

--- CuTe's thrfrg_*: tensor L (I,J,...) -> ((ThrV,(ThrI,ThrJ)),(FrgV,(RestI,
-- RestJ,...))) for the modes i, j of MNK, the atom TV layout atv and the
-- thread modes ti, tj of ThrLayoutVMNK.
local function thrfrg(self, L, i, j, atv)
  -- permute each mode, then cut into atom tiles: ((AtomI,AtomJ),(RestI,RestJ))
  local P = divide.logical_divide(L, { self:permutation_mnk(i),
                                       self:permutation_mnk(j) })
  local Z = divide.zipped_divide(P, { self.atom.shape_mnk[i + 1],
                                      self.atom.shape_mnk[j + 1] })
  -- atom coordinates -> (thread, value): ((ThrV,FrgV),(RestI,RestJ,...))
  local V = core.composition(Z:mode(0), atv)
  local rest = modes(Z:mode(1))
  -- deal the atom tiles to the threads along I and J
  local thr = self.thr_layout_vmnk
  local DI = divide.logical_divide(rest[1], core.size(thr:mode(i + 1)))
  local DJ = divide.logical_divide(rest[2], core.size(thr:mode(j + 1)))
  local frg = { DI:mode(1), DJ:mode(1), table.unpack(rest, 3) }
  return concat(concat(V:mode(0), concat(DI:mode(0), DJ:mode(0))),
                concat(V:mode(1), concat(table.unpack(frg))))
end

-- thrfrg_X(self, L) of operand X: modes M,N of C, M,K of A, N,K of B
local thrfrg_of = {
  C = function(self, L) return thrfrg(self, L, 0, 1, self.atom.C) end,
  A = function(self, L) return thrfrg(self, L, 0, 2, self.atom.A) end,
  B = function(self, L) return thrfrg(self, L, 1, 2, self.atom.B) end,
}
TiledMMA.thrfrg_C, TiledMMA.thrfrg_A, TiledMMA.thrfrg_B =
  thrfrg_of.C, thrfrg_of.A, thrfrg_of.B

--- Thread `t`'s slice; its partition_A/B/C(L) give (V,M,K) / (V,N,K) /
-- (V,M,N) layouts and their offsets.
-- (t checked by the method table below; a slice's slice is its tiled
-- MMA's, as CuTe's ThrMMA derives TiledMMA)
function TiledMMA:get_slice(t)
  local tiled = rawget(self, "tiled") or self
  return setmetatable({ tiled = tiled, thr_idx = t,
    thr_vmnk = tv.thr_coord(tiled.thr_layout_vmnk, t) }, ThrMMA)
end
TiledMMA.get_thread_slice = TiledMMA.get_slice

-- T = ((ThrV,(ThrI,ThrJ)),(FrgV,(Rest...))) sliced at thread (v,(i,j)):
-- (FrgV, Rest...) and the offset of the thread's first element.
local function slice_thread(T, v, i, j)
  local frg = T:mode(1)
  return concat(frg:mode(0), table.unpack(modes(frg:mode(1)))),
         T:mode(0)({ v, { i, j } })
end

function ThrMMA:partition_C(L)
  local c = self.thr_vmnk
  return slice_thread(thrfrg_of.C(self.tiled, L), c[1], c[2], c[3])
end

function ThrMMA:partition_A(L)
  local c = self.thr_vmnk
  return slice_thread(thrfrg_of.A(self.tiled, L), c[1], c[2], c[4])
end

function ThrMMA:partition_B(L)
  local c = self.thr_vmnk
  return slice_thread(thrfrg_of.B(self.tiled, L), c[1], c[3], c[4])
end

-- Thread index -> thread coordinate (V,M,N,K) (CuTe's thridx_2_thrid):
-- the right inverse of the thread layout.  A ThrID that skips lanes (the
-- SM70 quad pair (4,2):(1,16): lanes 0-3 and 16-19) has no right inverse
-- past lane 3; as CuTe, it is completed by its complement first, and the
-- lanes outside it fold back onto the atom's threads, so the pictures and
-- partitions label the threads by their lanes.
local function thridx_to_thrid(v)
  local inv = core.right_inverse(v)
  if core.size(inv) >= core.size(v) then return inv end
  local full = core.right_inverse(concat(v, core.complement(v)))
  return core.composition(core.layout({core.size(v), 1}, {1, 0}), full)
end

-- (thr_idx, val) -> tile index for operand X of modes i, j over a tile of
-- `shape` (default: the tiled MMA's own I x J tile); `spread` maps the
-- (ThrI,ThrJ) thread coordinates onto (ThrM,ThrN,ThrK) (CuTe's atile /
-- btile: the thread mode that X does not use is broadcast, stride 0).
local function layout_tv(self, X, i, j, shape, spread)
  local ref = core.layout(shape or { self:tile_size(i), self:tile_size(j) })
  local T = thrfrg_of[X](self, ref)
  local thr = T:mode(0)
  if spread then
    thr = concat(thr:mode(0), concat(core.composition(thr:mode(1):mode(0),
      spread), thr:mode(1):mode(1)))
  end
  return concat(core.composition(thr, thridx_to_thrid(self.thr_layout_vmnk)),
                T:mode(1))
end

--- (thread index, value) -> (m,n) index of the tiled MMA's C tile, and
-- likewise for A (m,k) and B (n,k) (CuTe's get_layoutC_TV and friends).
-- The value mode is (FrgV,(RestI,RestJ)).  With `shape` ({M, N}, a
-- multiple of the tile) the TV layout covers that larger tile, each
-- thread's values including its repeats: that example's 256 threads over
-- 128 x 128 have 64 values each.
function TiledMMA:get_layoutC_TV(shape)
  return layout_tv(self, "C", 0, 1, shape)
end

function TiledMMA:get_layoutA_TV(shape)
  local t = self.thr_layout_vmnk
  return layout_tv(self, "A", 0, 2, shape, core.layout(
    { core.size(t:mode(1)), core.size(t:mode(2)) }, { 1, 0 }))
end

function TiledMMA:get_layoutB_TV(shape)
  local t = self.thr_layout_vmnk
  return layout_tv(self, "B", 1, 2, shape, core.layout(
    { core.size(t:mode(1)), core.size(t:mode(2)) }, { 0, 1 }))
end

function TiledMMA:size()
  return core.size(self.thr_layout_vmnk)
end

-- thr padded to rank 3 with 1:0 modes, perm with `_` (CuTe's append<3>).
local function pad3(thr, perm)
  thr = product.pad(thr, 3)
  local p = {}
  for i = 1, 3 do
    local x = perm and perm[i]
    if x == nil then x = _ end
    p[i] = as_layout(x)
    -- a tile of n elements is n >= 1 (0 gave tile_size 0, and partition_A
    -- then failed in a divide)
    if not (p[i] == _ or tiler.is_layout(p[i])
            or (math.type(p[i]) == "integer" and p[i] >= 1)) then
      E.raise(("make_tiled_mma: permutation %s of M, N, K must be a "
        .. "cute.Layout, a positive integer or cute._, got %s")
        :format(("MNK"):sub(i, i), math.type(p[i]) and tostring(p[i])
                                     or E.typename(p[i])))
    end
  end
  return thr, tiler.mark(p)
end

--- make_tiled_mma(atom, thr_layout [, permutations]): the atom repeated
-- over thr_layout ((M,N,K) -> thread group, padded to rank 3 with 1:0),
-- each of M, N, K first permuted by the tilers in `permutations` (a table
-- of up to 3 Layouts, integers or cute._; missing ones are `_`).
-- ThrLayoutVMNK = tiled_product(ThrID, thr_layout).
function M.make_tiled_mma(atom, thr_layout, permutations)
  if type(atom) == "string" then atom = M.mma_atom(atom) end
  if not M.is_mma_atom(atom) then
    E.raise("make_tiled_mma: an MMA atom (cute.mma_atom) expected, got "
      .. E.typename(atom))
  end
  local thr = as_layout(thr_layout or core.layout({ 1, 1, 1 }, { 0, 0, 0 }))
  if not tiler.is_layout(thr) then
    E.raise("make_tiled_mma: the thread layout must be a cute.Layout, CuTe "
      .. "text or a shape table, got " .. E.typename(thr))
  end
  local perm
  thr, perm = pad3(thr, permutations)
  if core.rank(thr) ~= 3 then
    E.raise(("make_tiled_mma: the thread layout %s has rank %d, not <= 3")
      :format(tostring(thr), core.rank(thr)))
  end
  return setmetatable({ atom = atom, thr_layout_mnk = thr, permutation = perm,
    thr_layout_vmnk = product.tiled_product(atom.thr_id, thr) }, TiledMMA)
end

function M.is_tiled_mma(x) return getmetatable(x) == TiledMMA end

-------------------------------------------------------------- tiled copy --

local TiledCopy, ThrCopy = tiled_classes("Copy")

function TiledCopy:__tostring()
  return ("TiledCopy\n  Tiler_MN:       %s\n  TiledLayout_TV: %s\n%s")
    :format(core.tuple_tostring(self.tiler_mn), tostring(self.layout_tv),
      tostring(self.atom))
end

function ThrCopy:__tostring()
  return ("ThrCopy\n  ThrIdx: %d\n%s"):format(self.thr_idx,
    tostring(self.tiled))
end

-- ((a,b),(c,d)) -> ((a,c),(b,d)) (CuTe's zip of a rank-2 of rank-2s).
local function zip2(L)
  local x, y = L:mode(0), L:mode(1)
  return concat(concat(x:mode(0), y:mode(0)), concat(x:mode(1), y:mode(1)))
end

-- CuTe's tile2thrfrg: T = ((TileM,TileN,..),(Rest..)) -> (thr, val, Rest)
-- where ref2trg maps the atom's (ref thread, ref value) to the target's.
function TiledCopy:tile2thrfrg(T, ref2trg)
  local a = self.atom
  local atom_tv = divide.zipped_divide(self.layout_tv,
    { core.size(a.ref:mode(0)), core.size(a.ref:mode(1)) })
  local trg = compose0(atom_tv, ref2trg)
  local thrval2mn = core.coalesce(zip2(trg), { 1, { 1, 1 } })
  local R = compose0(T, thrval2mn)
  return concat(R:mode(0):mode(0), R:mode(0):mode(1), R:mode(1))
end

local function ref2(atom, target)
  return core.composition(core.right_inverse(atom.ref), target)
end

--- Tensor L (M,N,...) -> (thread, value, (RestM,RestN,...)) for the
-- source (tidfrg_S) or destination (tidfrg_D) side.
local function tidfrg(self, L, target)
  return TiledCopy.tile2thrfrg(self, divide.zipped_divide(L, self.tiler_mn),
    ref2(self.atom, target))
end

function TiledCopy:tidfrg_S(L) return tidfrg(self, L, self.atom.src) end
function TiledCopy:tidfrg_D(L) return tidfrg(self, L, self.atom.dst) end

-- (thread, value) -> (m,n) index of the tile for one side.
local function copy_layout_tv(self, target)
  local ref = concat(core.layout(self.tiler_mn), core.layout(1, 0))
  local T = TiledCopy.tile2thrfrg(self, ref, ref2(self.atom, target))
  return concat(T:mode(0), T:mode(1))
end

function TiledCopy:get_layoutS_TV() return copy_layout_tv(self, self.atom.src) end
function TiledCopy:get_layoutD_TV() return copy_layout_tv(self, self.atom.dst) end

function TiledCopy:get_slice(t)
  return setmetatable({ tiled = rawget(self, "tiled") or self, thr_idx = t },
    ThrCopy)
end
TiledCopy.get_thread_slice = TiledCopy.get_slice

function TiledCopy:size()
  return core.size(self.layout_tv:mode(0))
end

-- (thread, value, (RestM,...)) at thread t: (value, RestM, ...), offset.
local function slice_copy(T, t)
  return concat(T:mode(1), table.unpack(modes(T:mode(2)))), T:mode(0)(t)
end

function ThrCopy:partition_S(L)
  return slice_copy(tidfrg(self, L, self.atom.src), self.thr_idx)
end

function ThrCopy:partition_D(L)
  return slice_copy(tidfrg(self, L, self.atom.dst), self.thr_idx)
end

-- The checks of make_tiled_copy* (op) on its copy atom.
local function check_copy_atom(op, atom)
  if type(atom) == "string" then
    E.raise(op .. ": pass cute.copy_atom(name, value_type), which fixes the "
      .. "value type")
  end
  if not M.is_copy_atom(atom) then
    E.raise(op .. ": a copy atom (cute.copy_atom) expected, got "
      .. E.typename(atom))
  end
end

local function tiled_copy(op, atom, layout_tv, tiler)
  local nt, nv = core.size(layout_tv:mode(0)), core.size(layout_tv:mode(1))
  local at, av = core.size(atom.ref:mode(0)), core.size(atom.ref:mode(1))
  if nt % at ~= 0 or nv % av ~= 0 then
    E.raise(("%s: TV layout %s has %d threads x %d values, not a multiple of "
      .. "the atom's %d x %d"):format(op, tostring(layout_tv), nt, nv, at, av))
  end
  return setmetatable({ atom = atom, layout_tv = layout_tv, tiler_mn = tiler },
    TiledCopy)
end

--- make_tiled_copy(atom, thr_layout, val_layout): threads arranged by
-- thr_layout ((m,n) -> thread) each copying the block val_layout ((m,n)
-- -> value), CuTe's construction (see cute.make_layout_tv).
function M.make_tiled_copy(atom, thr_layout, val_layout)
  check_copy_atom("make_tiled_copy", atom)
  local tiler, layout = tv.make_layout_tv(as_layout(thr_layout),
    as_layout(val_layout or core.layout(1)))
  return tiled_copy("make_tiled_copy", atom, layout, tiler)
end

--- Tiled copies whose threads and values follow a tiled MMA's A, B or C
-- partitioning (CuTe's make_tiled_copy_A/B/C), e.g. ldmatrix feeding mma.
local function copy_of_mma(op, get_tv, m, n)
  return function(atom, mma)
    check_copy_atom(op, atom)
    if not M.is_tiled_mma(mma) then
      E.raise(op .. ": a tiled MMA (cute.make_tiled_mma) expected, got "
        .. E.typename(mma))
    end
    return tiled_copy(op, atom, mma[get_tv](mma),
      tiler.tuple { mma:tile_size(m), mma:tile_size(n) })
  end
end
for _, x in ipairs { { "A", 0, 2 }, { "B", 1, 2 }, { "C", 0, 1 } } do
  local op = "make_tiled_copy_" .. x[1]
  M[op] = E.protect(op, copy_of_mma(op, "get_layout" .. x[1] .. "_TV", x[2], x[3]))
end

function M.is_tiled_copy(x) return getmetatable(x) == TiledCopy end

-------------------------------------------------- GMMA shared-memory atoms --

-- The swizzle atoms of wgmma's shared-memory operands (cutlass
-- cute/atom/mma_traits_sm90_gmma.hpp, GMMA::Layout_{K,MN}_{INTER,SW32,
-- SW64,SW128}_Atom<T>): 8 rows of 16 .. 128 bytes (K-major: rows along
-- MN, bytes along K; MN-major the transpose), the 16-byte chunks of each
-- row XORed with the row index (B = 0..3 bits of it for INTER .. SW128).
-- CuTe writes them in bits with a byte-addressed swizzle, Sw<B,4,3> o
-- smem_ptr o (8,W):(W,1), and upcasts to the element width; here offsets
-- are elements, so the same function is Sw<B, 4 - log2(bytes), 3>:
--   make_smem_layout_atom("K_SW128", 16) --> Sw<3,3,3> o 0 o (8,64):(64,1)
local gmma_swizzle = { INTER = 0, SW32 = 1, SW64 = 2, SW128 = 3 }

function M.make_smem_layout_atom(kind, value_type)
  E.argcheck(type(kind) == "string", "make_smem_layout_atom", 1,
    "kind (string)", kind)
  local major, sw = kind:match "^(%u+)_(%w+)$"
  local b = gmma_swizzle[sw]
  if not b or (major ~= "K" and major ~= "MN") then
    E.raise(("make_smem_layout_atom: unknown kind %s (K_ or MN_ followed by "
      .. "INTER, SW32, SW64 or SW128)"):format(kind))
  end
  local ok, bits = pcall(M.type_bits, value_type)
  if not ok then
    local why = type(bits) == "table" and bits.msg or tostring(bits)
    E.raise("make_smem_layout_atom: " .. why:gsub("^.-copy_atom: ", ""))
  end
  if bits % 8 ~= 0 or bits > 128 or 128 % bits ~= 0 then
    E.raise(("make_smem_layout_atom: %d-bit elements do not tile 16-byte "
      .. "chunks"):format(bits))
  end
  local w = (128 << b) // bits                          -- elements in a row
  local m = 4 - core.log2(bits // 8)
  local L = major == "K" and core.layout({8, w}, {w, 1})
                          or core.layout({w, 8}, {1, w})
  return core.composition(core.swizzle(b, m, 3), L)
end

-- make_tiled_copy names itself before make_layout_tv's own errors, and
-- make_tiled_mma before mma_atom's, which looks its atom up.
M.make_tiled_copy = E.protect("make_tiled_copy", M.make_tiled_copy)
M.make_tiled_mma = E.protect("make_tiled_mma", M.make_tiled_mma)

----------------------------------------------------------------- methods --
-- The methods of the four classes check their self and arguments here, in
-- one place, and run within their name: a method called with '.' or on
-- another value (tm.size(1)), or given a bad argument, is refused by name
-- at the caller's line -- not by a Lua error inside it nor by a step's
-- message about a value the user never passed -- and a step's failure
-- names the method.  A permutation that is no multiple of the atom's tile
-- -- {7, 8, 16} for a 16x8x16 atom -- fails in such a step, in
-- get_layoutA_TV (its reference tile is 7 x 16) and in the partitions of
-- some tensors; it is not refused by make_tiled_mma, as CuTe does not:
-- partition_A of a (32,16):(1,32) tensor works with it, in CuTe's algebra
-- and here.  A slice reads through to its tiled object, so the tiled
-- class's methods take a slice too.  Each check returns the value the
-- method uses (a thread index 2.0 is 2).

local function layout_arg(op, k, x)
  E.argcheck(tiler.is_layout(x), op, k, "cute.Layout", x)
  return x
end

-- tile2thrfrg's T: ((TileM,TileN,...),(Rest...)), its modes 0 and 1 read
local function tiled_arg(op, k, x)
  layout_arg(op, k, x)
  if core.rank(x) < 2 then
    E.raise(("%s: T %s has rank %d, not ((TileM,TileN,...),(Rest...)) of "
      .. "rank 2"):format(op, tostring(x), core.rank(x)))
  end
  return x
end

-- get_layoutX_TV's optional tile shape {M, N}
local function shape_arg(op, k, x)
  E.argcheck(x == nil or type(x) == "table" and not tiler.is_layout(x), op, k,
    "shape table {M, N}", x)
  return x
end

local function mode_arg(op, _, i)
  return index_arg(op, "mode", i, 3, "0 <= i < 3 (0 M, 1 N, 2 K)")
end

local function thread_arg(op, _, t, self)
  local n = self:size()
  return index_arg(op, "thread index", t, n,
    ("0 <= t < %d (the number of threads)"):format(n))
end

-- class name -> {selves = metatables taken as self, checks by method}
local function install(class, name, selves, checks)
  for m, check in pairs(checks) do
    local f, op = class[m], name .. ":" .. m
    class[m] = function(self, a, b)
      E.argcheck(selves[getmetatable(self) or false], op, 1, "cute." .. name,
        self)
      if check[1] then a = check[1](op, 2, a, self) end
      if check[2] then b = check[2](op, 3, b, self) end
      return E.within(op, f, self, a, b)
    end
  end
end

local mma_selves = { [TiledMMA] = true, [ThrMMA] = true }
install(TiledMMA, "TiledMMA", mma_selves, {
  size = {}, tile_shape = {}, tile_size = { mode_arg },
  permutation_mnk = { mode_arg }, thrfrg_A = { layout_arg },
  thrfrg_B = { layout_arg }, thrfrg_C = { layout_arg },
  get_layoutA_TV = { shape_arg }, get_layoutB_TV = { shape_arg },
  get_layoutC_TV = { shape_arg }, get_slice = { thread_arg },
  get_thread_slice = { thread_arg } })
install(ThrMMA, "ThrMMA", { [ThrMMA] = true }, { partition_A = { layout_arg },
  partition_B = { layout_arg }, partition_C = { layout_arg } })
local copy_selves = { [TiledCopy] = true, [ThrCopy] = true }
install(TiledCopy, "TiledCopy", copy_selves, {
  size = {}, get_layoutS_TV = {}, get_layoutD_TV = {},
  tidfrg_S = { layout_arg }, tidfrg_D = { layout_arg },
  tile2thrfrg = { tiled_arg, layout_arg }, get_slice = { thread_arg },
  get_thread_slice = { thread_arg } })
install(ThrCopy, "ThrCopy", { [ThrCopy] = true }, { partition_S = { layout_arg },
  partition_D = { layout_arg } })

return M
