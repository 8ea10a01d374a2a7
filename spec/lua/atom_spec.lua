-- MMA and copy atoms: the catalog against the PTX ISA's fragment formulas
-- (helpers/ptx.lua, every thread and value), bijections onto the tiles,
-- CuTe's printed blocks, tiled MMAs and copies, and the 256-thread
-- partition of examples/tiled_mma_partition.lua.
local cute = require "cute"
local atom = require "cute.atom"
local tv = require "cute.tv"
local catalog = require "cute.arch"
local ptx = require "helpers.ptx"

local L = cute.layout

-- Every (t, i) of the TV layout X against f(t, i) = (row, col) of a tile
-- with `rows` rows, colexicographic: X(t, i) == row + rows * col.
local function check_fragment(X, rows, f)
  for t = 0, cute.size(X:mode(0)) - 1 do
    for i = 0, cute.size(X:mode(1)) - 1 do
      local r, c = f(t, i)
      local want = r + rows * c
      if X(t, i) ~= want then
        error(("%s: (T%d,V%d) -> %d, the ISA says (%d,%d) = %d")
          :format(tostring(X), t, i, X(t, i), r, c, want), 2)
      end
    end
  end
end

-- B as the ISA draws it is K x N; the atom's B is (n,k).
local function nk(f)
  return function(t, i) local k, n = f(t, i); return n, k end
end

local function broadcast(rows)
  return function(_, i) return i % rows, i // rows end
end

-- The ISA formulas for each MMA atom of the catalog, by name.
local function formulas(a)
  local M, N = a.shape_mnk[1], a.shape_mnk[2]
  local name = a.name
  if name == "UniversalFMA" then
    local z = function() return 0, 0 end
    return { A = z, B = z, C = z }
  elseif name:match "^SM80_16x8x16_" then
    local f = ptx.m16n8k16
    return { A = f.A, B = nk(f.B), C = f.C }
  elseif name:match "^SM80_16x8x8_F32TF32" then
    local f = ptx.m16n8k8_tf32
    return { A = f.A, B = nk(f.B), C = f.C }
  elseif name:match "^SM80_16x8x8_F16" then
    local f = ptx.m16n8k8_f16
    return { A = f.A, B = nk(f.B), C = f.C }
  elseif name:match "^SM70_8x8x4_" then
    -- atom thread t is lane ThrID(t) of quad pair 0
    local f, thr = ptx.m8n8k4_f16, a.thr_id
    local function lane(h) return function(t, i) return h(thr(t), i) end end
    local am, bm = name:match "_(%u)(%u)$"
    return { A = lane(am == "T" and f.A_row or f.A_col),
             B = lane(nk(bm == "N" and f.B_col or f.B_row)),
             C = lane(name:match "F32F16" and f.C_f32 or f.C_f16) }
  elseif name:match "^SM80_8x8x4_F64" then
    local f = ptx.m8n8k4_f64
    return { A = f.A, B = nk(f.B), C = f.C }
  elseif name:match "^SM90_64x%d+x32_.*_SS_TN$" then
    return { A = broadcast(M), B = broadcast(N), C = ptx.wgmma.C }
  elseif name:match "^SM90_64x%d+x32_.*_RS_TN$" then
    return { A = ptx.wgmma.A_RS8, B = broadcast(N), C = ptx.wgmma.C }
  elseif name:match "^SM90_64x%d+x16_.*_SS$" then
    return { A = broadcast(M), B = broadcast(N), C = ptx.wgmma.C }
  elseif name:match "^SM90_64x%d+x16_.*_RS$" then
    return { A = ptx.wgmma.A_RS, B = broadcast(N), C = ptx.wgmma.C }
  end
end

describe("the MMA atom catalog", function()
  local names = {}
  for _, name in ipairs(catalog.names) do
    if catalog[name].kind == "mma" then names[#names + 1] = name end
  end
  -- Atoms that differ only in their value types share their layouts (the
  -- 16-bit and fp8 wgmma families, f16/bf16 mma.sync): the element-wise
  -- checks below run once per distinct (ThrID, A, B, C, formula family),
  -- the family being the name without its type field.
  local distinct, seen = {}, {}
  for _, name in ipairs(names) do
    local e = catalog[name]
    local key = table.concat({ e.thr_id, e.A, e.B, e.C,
      (name:gsub("_[FSUBET][%dFBMTE]+_", "_T_")) }, "|")
    if not seen[key] then seen[key] = true; distinct[#distinct + 1] = name end
  end

  it("holds the SM80 and SM90 atoms kernels need", function()
    for _, name in ipairs { "SM80_16x8x16_F32F16F16F32_TN",
        "SM80_16x8x16_F32BF16BF16F32_TN", "SM80_16x8x8_F32TF32TF32F32_TN",
        "SM80_8x8x4_F64F64F64F64_TN", "SM90_64x8x16_F32F16F16_SS",
        "SM90_64x64x16_F32F16F16_RS", "SM90_64x256x16_F32BF16BF16_SS" } do
      assert.is_table(catalog[name], name)
    end
    assert.is_true(#names >= 50)
  end)

  it("matches the PTX ISA fragment formulas at every thread and value",
    function()
      for _, name in ipairs(distinct) do
        local a = atom.mma_atom(name)
        local f = assert(formulas(a), "no ISA formula for " .. name)
        local M, N = a.shape_mnk[1], a.shape_mnk[2]
        check_fragment(a.A, M, f.A)
        check_fragment(a.B, N, f.B)
        check_fragment(a.C, M, f.C)
      end
    end)

  it("has TV layouts that are bijections onto their tiles (SS operands "
    .. "broadcast over the warpgroup)", function()
    for _, name in ipairs(distinct) do
      local a = atom.mma_atom(name)
      local M, N, K = table.unpack(a.shape_mnk)
      for _, x in ipairs { { a.A, M * K }, { a.B, N * K }, { a.C, M * N } } do
        local ok, why = tv.bijection(x[1], x[2])
        assert(ok, name .. ": " .. tostring(why))
        assert.equal(cute.size(a.thr_id), cute.size(x[1]:mode(0)))
      end
    end
  end)

  it("keeps the paper's Figure 6 as the FP64 accumulator", function()
    local a = atom.mma_atom "SM80_8x8x4_F64F64F64F64_TN"
    assert.equal(L "((4,8),2):((16,1),8)", a.C)
    local own = tv.owners(a.C, { 8, 8 })
    for m = 0, 7 do
      for n = 0, 7 do   -- Figure 6: cell (m,n) holds T(4m + n/2) V(n%2)
        local o = own[m + 8 * n + 1]
        assert.same({ 4 * m + n // 2, n % 2, 1 }, { o.t, o.v, o.n })
      end
    end
  end)

  it("prints like CuTe's MMA_Atom block", function()
    assert.equal([[
MMA_Atom
  ThrID:      32:1
  Shape_MNK:  (8,8,4)
  LayoutA_TV: ((4,8),1):((8,1),0)
  LayoutB_TV: ((4,8),1):((8,1),0)
  LayoutC_TV: ((4,8),2):((16,1),8)]],
      tostring(atom.mma_atom "SM80_8x8x4_F64F64F64F64_TN"))
  end)

  it("rejects unknown names and kinds", function()
    assert.has_error(function() atom.mma_atom "SM80_nope" end,
      'mma_atom: no atom named "SM80_nope" in the catalog (cute.arch)')
    assert.has_error(function() atom.mma_atom "SM75_U32x4_LDSM_N" end,
      "mma_atom: SM75_U32x4_LDSM_N is a copy atom")
  end)
end)

describe("the copy atom catalog", function()
  local nums = { SM75_U32x1_LDSM_N = 1, SM75_U32x2_LDSM_N = 2,
    SM75_U32x4_LDSM_N = 4, SM75_U16x2_LDSM_T = 1, SM75_U16x4_LDSM_T = 2,
    SM75_U16x8_LDSM_T = 4 }

  it("matches ldmatrix's fragments (x1/x2/x4, .trans) at every lane",
    function()
      for name, num in pairs(nums) do
        local a = atom.copy_atom(name, "f16")
        -- source: lane l addresses row r of matrix j, 8 halves of it
        check_fragment(a.src, 1, function(l, e)
          local j, r = ptx.ldmatrix.src(l, num)
          return 64 * j + 8 * r + e, 0
        end)
        local dst = name:match "_T$" and ptx.ldmatrix.dst_trans
          or ptx.ldmatrix.dst
        check_fragment(a.dst, 1, function(l, v)
          local j, r, c = dst(l, v // 2, v % 2)
          return 64 * j + 8 * r + c, 0
        end)
        for _, x in ipairs { a.src_bits, a.dst_bits } do
          local ok, why = tv.bijection(x, 1024 * num)
          assert(ok, name .. ": " .. tostring(why))
        end
      end
    end)

  it("has one-thread vectorised copies and cp.async of whole words", function()
    for _, name in ipairs { "UniversalCopy<uint128_t>",
        "SM80_CP_ASYNC_CACHEALWAYS<uint128_t>",
        "SM80_CP_ASYNC_CACHEGLOBAL<uint128_t>" } do
      local a = atom.copy_atom(name, "f16")
      assert.equal(L "(1,8):(0,1)", a.src)
      assert.equal(L "(1,8):(0,1)", a.dst)
      assert.is_true((tv.bijection(a.src_bits, 128)))
    end
    assert.equal(L "(1,2):(0,1)",
      atom.copy_atom("SM80_CP_ASYNC_CACHEALWAYS<uint64_t>", 32).src)
  end)

  it("prints like CuTe's Copy_Atom block", function()
    assert.equal([[
Copy_Atom
  ThrID:        32:1
  ValLayoutSrc: (32,8):(8,1)
  ValLayoutDst: (32,(2,4)):(2,(1,64))
  ValLayoutRef: (32,(2,4)):(2,(1,64))
  ValueType:    16b]], tostring(atom.copy_atom("SM75_U32x4_LDSM_N", "f16")))
  end)

  it("rejects unknown value types", function()
    assert.has_error(function()
      atom.copy_atom("SM75_U32x4_LDSM_N", "f12")
    end, "copy_atom: unknown value type f12 (an integer number of bits or "
      .. "one of " .. require("cute.core").dtype_names .. ")")
  end)
end)

-- The set of offsets a partition (layout, offset) covers.
local function offsets(P, off)
  local s = {}
  for i = 0, cute.size(P) - 1 do s[#s + 1] = off + P(i) end
  table.sort(s)
  return s
end

describe("a tiled MMA", function()
  local perm = L "(16,4):(4,1)"
  local fma = atom.make_tiled_mma("UniversalFMA", cute.layout_right { 16, 16, 1 },
    { perm, perm })
  local gC = cute.layout_right { 128, 128 }

  it("partitions the 256-thread example's C tile for thread 0", function()
    local P, off = fma:get_slice(0):partition_C(gC)
    assert.equal("(1,(4,2),(4,2)):(0,(128,8192),(1,64))", tostring(P))
    assert.equal(0, off)
    local want = {}
    for _, r in ipairs { 0, 1, 2, 3, 64, 65, 66, 67 } do
      for _, c in ipairs { 0, 1, 2, 3, 64, 65, 66, 67 } do
        want[#want + 1] = 128 * r + c
      end
    end
    table.sort(want)
    assert.same(want, offsets(P, off))
  end)

  it("gives the example's 256 threads disjoint 64-element shares of the tile",
    function()
      local seen, n = {}, 0
      for t = 0, 255 do
        local P, off = fma:get_slice(t):partition_C(gC)
        assert.equal("(1,(4,2),(4,2)):(0,(128,8192),(1,64))", tostring(P))
        -- thread t = 16 tm + tn owns rows 4 tm.., cols 4 tn.. (seed's CUDA)
        assert.equal(512 * (t // 16) + 4 * (t % 16), off)
        for _, o in ipairs(offsets(P, off)) do
          assert.is_nil(seen[o]); seen[o] = true; n = n + 1
        end
      end
      assert.equal(128 * 128, n)
    end)

  it("draws the example's ownership over the whole 128x128 tile", function()
    local X = fma:get_layoutC_TV { 128, 128 }
    assert.equal("((16,16),(1,((4,2),(4,2)))):((512,4),(0,((1,64),(128,8192))))",
      tostring(X))
    assert.is_true((tv.bijection(X, 128 * 128)))
    local own = tv.owners(X, { 128, 128 })
    for _, m in ipairs { 0, 3, 64, 67 } do
      for _, n in ipairs { 0, 3, 64, 67 } do
        assert.equal(0, own[m + 128 * n + 1].t)
      end
    end
    assert.equal(1, own[0 + 128 * 4 + 1].t)     -- (0,4): thread 1
    assert.equal(16, own[4 + 128 * 0 + 1].t)    -- (4,0): thread 16
    -- the tiled MMA's own tile is the permutation's 64 x 64
    assert.same({ 64, 64, 1 }, fma:tile_shape())
  end)

  it("prints like CuTe's TiledMMA and ThrMMA", function()
    local s = tostring(fma:get_slice(17))
    assert.equal([[
ThrMMA
  Thr VMNK: (0,1,1,0)
TiledMMA
  ThrLayoutVMNK:  (1,16,16,1):(0,16,1,0)
  PermutationMNK: <(16,4):(4,1),(16,4):(4,1),_>
MMA_Atom
  ThrID:      1:0
  Shape_MNK:  (1,1,1)
  LayoutA_TV: (1,1):(0,0)
  LayoutB_TV: (1,1):(0,0)
  LayoutC_TV: (1,1):(0,0)]], s)
  end)

  local mma = atom.make_tiled_mma("SM80_16x8x16_F32F16F16F32_TN", L "(2,2,1)")

  it("tiles an SM80 atom over 2x2 warps: sizes and (V,M,N) order", function()
    assert.equal(L "(32,2,2,1):(1,32,64,0)", mma.thr_layout_vmnk)
    assert.same({ 32, 16, 16 }, mma:tile_shape())
    assert.equal(128, mma:size())
    local s = mma:get_slice(0)
    assert.equal("((2,2),4,8):((128,8),32,2048)",
      tostring((s:partition_C(L "(128,128)"))))
    assert.equal("((2,2,2),4,2):((128,8,1024),32,2048)",
      tostring((s:partition_A(L "(128,32)"))))
    assert.equal("((2,2),8,2):((128,1024),16,2048)",
      tostring((s:partition_B(L "(128,32)"))))
  end)

  it("agrees with its own TV layouts: each thread's A, B, C partitions of "
    .. "one tile are the images of get_layoutA/B/C_TV", function()
    local M, N, K = table.unpack(mma:tile_shape())
    local cases = {
      { "partition_C", mma:get_layoutC_TV(), { M, N } },
      { "partition_A", mma:get_layoutA_TV(), { M, K } },
      { "partition_B", mma:get_layoutB_TV(), { N, K } },
    }
    for _, c in ipairs(cases) do
      local X, shape = c[2], c[3]
      assert.is_true((tv.bijection(X, shape[1] * shape[2])))
      for t = 0, mma:size() - 1 do
        local s = mma:get_slice(t)
        local P, off = s[c[1]](s, L(shape))
        local want = {}
        for v = 0, cute.size(X:mode(1)) - 1 do want[#want + 1] = X(t, v) end
        table.sort(want)
        assert.same(want, offsets(P, off))
      end
    end
  end)

  it("rejects what is not an MMA atom", function()
    assert.has_error(function() atom.make_tiled_mma(42) end,
      "make_tiled_mma: an MMA atom (cute.mma_atom) expected, got number")
    -- and a permutation that is no tile (0 had made tile_size 0)
    local a = atom.mma_atom "SM80_16x8x16_F32F16F16F32_TN"
    assert.has_error(function() atom.make_tiled_mma(a, { 1, 1, 1 }, { 0, 8, 16 }) end,
      "make_tiled_mma: permutation M of M, N, K must be a cute.Layout, a "
      .. "positive integer or cute._, got 0")
    assert.has_error(function() atom.make_tiled_mma(a, { 1, 1, 1 }, { 16, 2.5 }) end,
      "make_tiled_mma: permutation N of M, N, K must be a cute.Layout, a "
      .. "positive integer or cute._, got 2.5")
  end)
end)

describe("a tiled copy", function()
  it("deals 16-byte vectors to 256 threads (CuTe's make_tiled_copy)",
    function()
      local tc = atom.make_tiled_copy(
        atom.copy_atom("UniversalCopy<uint128_t>", "f16"),
        cute.layout_right { 32, 8 }, L "(1,8)")
      assert.same({ 32, 64 }, tc.tiler_mn)
      assert.equal(L "((8,32),8):((256,1),32)", tc.layout_tv)
      local P, off = tc:get_slice(9):partition_S(cute.layout_right { 128, 64 })
      assert.equal("((8,1),4,1):((1,0),2048,0)", tostring(P))
      assert.equal(64 + 8, off)          -- row 1, columns 8..15
      assert.equal([[
TiledCopy
  Tiler_MN:       (32,64)
  TiledLayout_TV: ((8,32),8):((256,1),32)
Copy_Atom
  ThrID:        1:0
  ValLayoutSrc: (1,8):(0,1)
  ValLayoutDst: (1,8):(0,1)
  ValLayoutRef: (1,8):(0,1)
  ValueType:    16b]], tostring(tc))
    end)

  it("feeds an SM80 MMA's A from ldmatrix.x4 (make_tiled_copy_A)", function()
    local mma = atom.make_tiled_mma("SM80_16x8x16_F32F16F16F32_TN", L "(2,2,1)")
    local tc = atom.make_tiled_copy_A(
      atom.copy_atom("SM75_U32x4_LDSM_N", "f16"), mma)
    local S, D = tc:get_layoutS_TV(), tc:get_layoutD_TV()
    assert.equal(L "((16,2,2,2),(8,1)):((1,256,16,0),(32,0))", S)
    -- the destination side is the MMA's own A partitioning
    for t = 0, 127 do
      for v = 0, 7 do assert.equal(mma:get_layoutA_TV()(t, v), D(t, v)) end
    end
    -- lane 1 loads row 1, k 0..7 of the row-major 32x16 tile of A
    local P, off = tc:get_slice(1):partition_S(cute.layout_right { 32, 16 })
    assert.equal("((8,1),1,1):((1,0),0,0)", tostring(P))
    assert.equal(16, off)
  end)

  -- CuTe's make_tiled_copy_B: the TV layout is the MMA's get_layoutB_TV and
  -- the tiler (tile_size N, tile_size K); the destination side of each
  -- thread is then the MMA's own B fragment of that thread.
  it("feeds an SM80 MMA's B from ldmatrix.x2 (make_tiled_copy_B)", function()
    local mma = atom.make_tiled_mma("SM80_16x8x16_F32F16F16F32_TN", L "(2,2,1)")
    local tc = atom.make_tiled_copy_B(
      atom.copy_atom("SM75_U32x2_LDSM_N", "f16"), mma)
    assert.same({ mma:tile_size(1), mma:tile_size(2) }, tc.tiler_mn)
    assert.same({ 16, 16 }, tc.tiler_mn)
    assert.equal(mma:get_layoutB_TV(), tc.layout_tv)
    local BTV, D = mma:get_layoutB_TV(), tc:get_layoutD_TV()
    for t = 0, 127 do
      for v = 0, cute.size(BTV:mode(1)) - 1 do
        assert.equal(BTV(t, v), D(t, v))
      end
    end
    -- partition_D of an (N,K) tile: thread t's offsets are where its B
    -- fragment values lie
    local gB = cute.layout_right { 16, 16 }
    for _, t in ipairs { 0, 1, 31, 32, 77, 127 } do
      local P, off = tc:get_slice(t):partition_D(gB)
      local want = {}
      for v = 0, cute.size(BTV:mode(1)) - 1 do want[#want + 1] = gB(BTV(t, v)) end
      table.sort(want)
      assert.same(want, offsets(P, off))
    end
  end)

  -- CuTe's make_tiled_copy_C: the MMA's get_layoutC_TV over (tile_size M,
  -- tile_size N); with a one-element atom, each thread's partition of C
  -- (source and destination alike) is the MMA's partition_C of that thread.
  it("writes an SM80 MMA's C back element by element (make_tiled_copy_C)",
    function()
      local mma = atom.make_tiled_mma("SM80_16x8x16_F32F16F16F32_TN",
        L "(2,2,1)")
      local tc = atom.make_tiled_copy_C(
        atom.copy_atom("UniversalCopy<uint32_t>", "f32"), mma)
      assert.same({ 32, 16 }, tc.tiler_mn)
      assert.equal(mma:get_layoutC_TV(), tc.layout_tv)
      local gC = cute.layout_right { 64, 32 }     -- 2 x 2 tiles of 32 x 16
      local seen, n = {}, 0
      for t = 0, tc:size() - 1 do
        local P, off = tc:get_slice(t):partition_D(gC)
        local S, soff = tc:get_slice(t):partition_S(gC)
        local mine = offsets(P, off)
        assert.same(mine, offsets(S, soff))
        assert.same(offsets(mma:get_slice(t):partition_C(gC)), mine)
        for _, o in ipairs(mine) do
          assert.is_nil(seen[o]); seen[o] = true; n = n + 1
        end
      end
      assert.equal(64 * 32, n)
    end)

  it("tells tiled MMAs and tiled copies from other values", function()
    local mma = atom.make_tiled_mma("SM80_16x8x16_F32F16F16F32_TN", L "(2,2,1)")
    local tc = atom.make_tiled_copy_C(
      atom.copy_atom("UniversalCopy<uint32_t>", "f32"), mma)
    assert.is_true(atom.is_tiled_mma(mma))
    assert.is_true(atom.is_tiled_copy(tc))
    for _, x in ipairs { tc, mma.atom, mma:get_slice(0), L "4:1", {}, 1 } do
      assert.is_false(atom.is_tiled_mma(x))
    end
    for _, x in ipairs { mma, tc.atom, tc:get_slice(0), L "4:1" } do
      assert.is_false(atom.is_tiled_copy(x))
    end
  end)
end)

describe("a thread slice", function()
  -- The error of f() raised at the spec's own line `line` (f must not
  -- end in a tail call, which would drop the frame holding that line).
  local function err_at(f, line)
    local ok, msg = pcall(f)
    assert.is_false(ok)
    assert.matches("atom_spec%.lua:" .. line .. ": ", msg)
    return msg
  end

  it("takes integer thread indices 0 <= t < size (2.0 is 2)", function()
    local mma = atom.make_tiled_mma("SM80_16x8x16_F32F16F16F32_TN", L "(2,2,1)")
    local tc = atom.make_tiled_copy(
      atom.copy_atom("UniversalCopy<uint128_t>", "f16"),
      cute.layout_right { 32, 8 }, L "(1,8)")
    assert.equal(128, mma:size())
    assert.equal(256, tc:size())
    assert.equal(127, mma:get_slice(127).thr_idx)
    assert.equal(2, mma:get_thread_slice(2.0).thr_idx)
    assert.equal(math.type(2), math.type(tc:get_slice(2.0).thr_idx))
    assert.equal(255, tc:get_slice(255).thr_idx)
  end)

  it("refuses other indices at the caller's line", function()
    local mma = atom.make_tiled_mma("SM80_16x8x16_F32F16F16F32_TN", L "(2,2,1)")
    local tc = atom.make_tiled_copy(
      atom.copy_atom("UniversalCopy<uint128_t>", "f16"),
      cute.layout_right { 32, 8 }, L "(1,8)")
    local line = debug.getinfo(1, "l").currentline
    local m = err_at(function() local _ = mma:get_slice(1000) end, line + 1)
    assert.matches("TiledMMA:get_slice(1000): thread index out of range, "
      .. "need 0 <= t < 128", m, nil, true)
    line = debug.getinfo(1, "l").currentline
    m = err_at(function() local _ = mma:get_slice(128) end, line + 1)
    assert.matches("0 <= t < 128", m, nil, true)
    line = debug.getinfo(1, "l").currentline
    m = err_at(function() local _ = tc:get_slice(-1) end, line + 1)
    assert.matches("TiledCopy:get_slice(-1): thread index out of range, "
      .. "need 0 <= t < 256", m, nil, true)
    line = debug.getinfo(1, "l").currentline
    m = err_at(function() local _ = tc:get_thread_slice(1.5) end, line + 1)
    assert.matches("TiledCopy:get_thread_slice(1.5): thread index must be an "
      .. "integer, got 1.5", m, nil, true)
    -- a value by its type, never its address (found by test_api_monkey)
    line = debug.getinfo(1, "l").currentline
    m = err_at(function() local _ = tc:get_slice(print) end, line + 1)
    assert.matches("TiledCopy:get_slice(function): thread index must be an "
      .. "integer, got function", m, nil, true)
    line = debug.getinfo(1, "l").currentline
    m = err_at(function() local _ = mma:get_slice("x") end, line + 1)
    assert.matches("thread index must be an integer, got string", m, nil,
      true)
    line = debug.getinfo(1, "l").currentline
    m = err_at(function() local _ = mma:get_slice() end, line + 1)
    assert.matches("got nil", m, nil, true)
  end)
end)

-- Found by test_api_monkey: a method called with '.' or on another value,
-- or given a bad argument, failed inside atom.lua (index a number value,
-- arithmetic on a string, zipped_divide got nil, tv.lua's flat_coord got
-- nil).  Each method checks its self and arguments in one place and names
-- itself, at the caller's line.
describe("the methods of tiled MMAs and copies", function()
  local MMA = "SM80_16x8x16_F32F16F16F32_TN"
  local mma = atom.make_tiled_mma(MMA, L "(2,2,1)")
  local tc = atom.make_tiled_copy_A(atom.copy_atom("SM75_U32x4_LDSM_N", "f16"), mma)
  local function err(f, ...)
    local ok, msg = pcall(f, ...)
    assert.is_false(ok)
    return msg
  end

  it("refuse a self of another class by the method's name", function()
    assert.equal("bad argument #1 to 'TiledMMA:size' (cute.TiledMMA expected, "
      .. "got number)", err(mma.size, 1))
    assert.equal("bad argument #1 to 'TiledMMA:get_slice' (cute.TiledMMA "
      .. "expected, got cute.Layout)",
      err(atom.make_tiled_mma(MMA).get_slice, L "(2,3):(1@0,1@1)", 1))
    assert.equal("bad argument #1 to 'TiledCopy:tidfrg_S' (cute.TiledCopy "
      .. "expected, got cute.TiledMMA)", err(tc.tidfrg_S, mma, L "8:1"))
    assert.equal("bad argument #1 to 'ThrMMA:partition_A' (cute.ThrMMA "
      .. "expected, got cute.TiledMMA)",
      err(mma:get_slice(0).partition_A, mma, L "(32,16)"))
    assert.equal("bad argument #1 to 'ThrCopy:partition_S' (cute.ThrCopy "
      .. "expected, got nil)", err(tc:get_slice(0).partition_S))
    -- a slice has its tiled object's methods
    assert.equal(16, mma:get_slice(3):tile_size(1))
    assert.equal(5, mma:get_slice(3):get_slice(5).thr_idx)
    assert.equal(tostring(tc:tidfrg_S(L "(32,16)")),
                 tostring(tc:get_slice(1):tidfrg_S(L "(32,16)")))
  end)

  it("refuse bad arguments by the method's name, at the caller's line",
    function()
      local here = "^[^\n:]*atom_spec%.lua:%d+: "
      local function at_caller(want, f)
        local msg = err(f)
        assert.matches(here, msg)
        assert.equal(want, (msg:gsub(here, "")))
      end
      at_caller("TiledMMA:tile_size(string): mode must be an integer, got "
        .. "string", function() local r = mma:tile_size("8:1"); return r end)
      at_caller("TiledMMA:permutation_mnk(3): mode out of range, need 0 <= i "
        .. "< 3 (0 M, 1 N, 2 K)", function()
          local r = mma:permutation_mnk(3); return r end)
      at_caller("bad argument #2 to 'TiledCopy:tidfrg_S' (cute.Layout expected, "
        .. "got nil)", function() local r = tc:tidfrg_S(); return r end)
      at_caller("bad argument #2 to 'TiledMMA:thrfrg_C' (cute.Layout expected, "
        .. "got string)", function()
          local r = mma:thrfrg_C("(32,16)"); return r end)
      at_caller("bad argument #2 to 'ThrMMA:partition_A' (cute.Layout expected, "
        .. "got cute.ComposedLayout)", function()
          local r = mma:get_slice(0):partition_A(L "Sw<3,4,3> o 0 o (32,64):(64,1)")
          return r end)
      at_caller("bad argument #2 to 'TiledMMA:get_layoutC_TV' (shape table "
        .. "{M, N} expected, got number)", function()
          local r = mma:get_layoutC_TV(64); return r end)
      at_caller("TiledCopy:tile2thrfrg: T 16:1 has rank 1, not ((TileM,TileN,"
        .. "...),(Rest...)) of rank 2", function()
          local r = tc:tile2thrfrg(L "16:1", L "(1,1)"); return r end)
      at_caller("bad argument #3 to 'TiledCopy:tile2thrfrg' (cute.Layout "
        .. "expected, got nil)", function()
          local r = tc:tile2thrfrg(L "(16,2)"); return r end)
      at_caller("TiledMMA:get_thread_slice(nil): thread index must be an "
        .. "integer, got nil", function()
          local r = mma:get_thread_slice(); return r end)
    end)
end)
