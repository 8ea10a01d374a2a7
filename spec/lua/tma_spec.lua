-- cute.make_tma_copy and the SM90 TMA atoms, checked against what a TMA
-- copy is: copy k of CTA c writes the box element at box coordinate b
-- (colexicographic over the box) to shared offset copy.smem + idx(b), in
-- the map's byte swizzle, from the global element at TMA coordinate
-- copy.coord + b, which the map reads at byte offset sum u_i strides_i.
-- On random global layouts, element types and GMMA smem tiles (both
-- majors, every swizzle) every shared element must then hold its own
-- global element: the coordinate tensor at its global coordinate x is
-- the TMA coordinate that copies it, the map's byte offset of that
-- coordinate is G(x) * bytes, the map's swizzle is the smem layout's.
local cute = require "cute"
local R = require "helpers.random"
local catalog = require "cute.arch"
local L = cute.layout

-- The TMA coordinate of shared offset o, from the copies (nil if none).
local function copied_from(t, o)
  local per = t.bytes // t.element_bytes
  for c = 0, t.multicast - 1 do
    for _, k in ipairs(t:copies(c)) do
      if o >= k.smem and o < k.smem + per then
        local u, q = {}, o - k.smem
        for i, e in ipairs(t.box) do
          u[i] = k.coord[i] + q % e
          q = q // e
        end
        return u
      end
    end
  end
end

-- A random (MN, K[, L]) global layout of the given major, rows padded.
local function gmem(g, tile, major, eb)
  local mn, k = tile[1] * g:int(1, 3), tile[2] * g:int(1, 3)
  local pad = 16 // eb * g:int(0, 2)
  local shape, stride
  if major == "K" then shape, stride = { mn, k }, { k + pad, 1 }
  else shape, stride = { mn, k }, { 1, mn + pad } end
  if g:int(0, 1) == 1 then
    shape[3], stride[3] = g:int(2, 3), (mn + pad) * (k + pad)
  end
  return L(shape, stride)
end

describe("SM90 TMA atoms", function()
  it("are in the catalog as CuTe names them, built by make_tma_copy", function()
    for _, name in ipairs { "SM90_TMA_LOAD", "SM90_TMA_LOAD_MULTICAST", "SM90_TMA_STORE" } do
      assert.equal("tma", catalog[name].kind)
      assert.matches("cp.async.bulk.tensor", catalog[name].ptx, 1, true)
    end
    assert.error_matches(function() cute.copy_atom("SM90_TMA_LOAD", "f16") end,
      "SM90_TMA_LOAD is a tma atom", 1, true)
    -- and a copy atom names its value type, as Copy_Atom<Op, T> does
    assert.error_matches(function() cute.copy_atom "SM75_U32x4_LDSM_N" end,
      "copy_atom: the value type is missing", 1, true)
  end)
end)

describe("make_tma_copy", function()
  it("gives the GEMM's K-major map and CuTe's coordinate tensor", function()
    local sA = cute.tile_to_shape(cute.make_smem_layout_atom("K_SW128", 16), { 128, 64 })
    local G = L({ 1000, 264 }, { 264, 1 })
    local t = cute.make_tma_copy("SM90_TMA_LOAD", { layout = G, dtype = "bf16" }, sA, { 128, 64 })
    assert.equal("TMA SM90_TMA_LOAD bf16: globalDim (264,1000) globalStrides (2,528) "
      .. "boxDim (64,128) swizzle 128B, 1 copy of 16384 bytes", tostring(t))
    assert.same({ 1, 0 }, t.modes)
    local T = t:get_tma_tensor(G:shape())
    assert.equal("ArithTuple(0,0) o (1000,264):(1@1,1@0)", tostring(T))
    assert.equal("(7,3)", cute.tuple_tostring(T(3, 7)))
    local tB = cute.make_tma_copy("SM90_TMA_LOAD_MULTICAST",
      { layout = L({ 256, 64 }, { 1, 256 }), dtype = "f16" },
      cute.tile_to_shape(cute.make_smem_layout_atom("MN_SW128", 16), { 256, 64 }, { 1, 0 }),
      nil, 2)
    assert.equal("TMA SM90_TMA_LOAD_MULTICAST f16: globalDim (256,64) globalStrides "
      .. "(2,512) boxDim (64,32) swizzle 128B, 4 copies of 4096 bytes per CTA of 2",
      tostring(tB))
  end)

  it("copies every smem element from its own gmem element, on random layouts", function()
    local g = R.new(9090)
    for _i = 1, 60 do
      -- cute.cuda's element types (i8, i32, u16) and the atoms' (tf32, s8)
      local dtype = g:pick { "f16", "bf16", "f32", "u8", "i8", "i32", "u16",
                             "tf32", "s8" }
      local eb = ({ f16 = 2, bf16 = 2, f32 = 4, u8 = 1, i8 = 1, i32 = 4,
                    u16 = 2, tf32 = 4, s8 = 1 })[dtype]
      local major = g:pick { "K", "MN" }
      local kind = major .. "_" .. g:pick { "INTER", "SW32", "SW64", "SW128" }
      local atom = cute.make_smem_layout_atom(kind, eb * 8)
      local as = cute.product_each(atom:shape())
      local tile = { as[1] * g:pick { 1, 2, 4 }, as[2] * g:pick { 1, 2 } }
      local order = g:int(0, 1) == 0 and { 0, 1 } or { 1, 0 }
      local S = cute.tile_to_shape(atom, tile, order)
      local G = gmem(g, tile, major, eb)
      local op = g:pick { "SM90_TMA_LOAD", "SM90_TMA_STORE", "SM90_TMA_LOAD_MULTICAST" }
      local n = op == "SM90_TMA_LOAD_MULTICAST" and g:pick { 1, 2, 4 } or 1
      local ok, t = pcall(cute.make_tma_copy, op, { layout = G, dtype = dtype }, S, tile, n)
      local what = ("make_tma_copy(%s, %s %s, %s, n=%d)"):format(op, dtype,
        tostring(G), tostring(S), n)
      if not ok then
        -- only the box's own limits may refuse these: 256 per extent
        R.ok(t:find("exceeds 256", 1, true) or t:find("does not split", 1, true),
          "%s: %s", what, t)
      else
        local T = t:get_tma_tensor(G:shape())
        local sw = S.swizzle and S:swizzle()         -- a ComposedLayout's
        local P = sw and S:layout() or S
        local b = ({ [0] = 0, [32] = 1, [64] = 2, [128] = 3 })[t.swizzle_bytes]
        local tsw = cute.swizzle(b, 4, 3)           -- the map's, on bytes
        R.eq(t.count * t.bytes * t.multicast, cute.size(S) * eb, "%s: bytes", what)
        for i = 0, cute.size(S) - 1 do
          local x = cute.idx2crd(i, tile)
          if cute.rank(G) == 3 then x[3] = 0 end
          local o = P(i)
          local u = copied_from(t, o)
          R.ok(u, "%s: smem offset %d is in no copy", what, o)
          local want = T(table.unpack(x))
          want = type(want) == "table" and want or { want }
          for d = 1, t.rank do
            R.eq(u[d], want[d] or 0, "%s: element %d, TMA dim %d", what, i, d - 1)
          end
          local byte = 0
          for d = 1, t.rank do byte = byte + u[d] * t.strides[d] end
          R.eq(byte, G(table.unpack(x)) * eb, "%s: element %d, map offset", what, i)
          if sw then
            R.eq(sw(o) * eb, tsw(o * eb), "%s: swizzle at %d", what, o)
          end
        end
      end
    end
  end)

  -- found by spec/vm/test_api_monkey.c: raw Lua errors from inside
  -- stdlib/cute/tma.lua
  it("names the method misused, at the script's line", function()
    local t = cute.make_tma_copy("SM90_TMA_LOAD", { layout = L "(64,8):(1,64)", dtype = "f16" },
                                 L "(64,8):(1,64)")
    local function msg(f, ...)
      local ok, m = pcall(f, ...)
      assert.is_false(ok)
      return m
    end
    assert.equal("bad argument #1 to 'copies' (cute.TmaCopy expected, got nil)",
                 msg(t.copies))
    assert.equal("bad argument #2 to 'copies' (CTA index (integer) expected, got string)",
                 msg(t.copies, t, "x"))
    assert.equal("bad argument #1 to 'get_tma_tensor' (cute.TmaCopy expected, got number)",
                 msg(t.get_tma_tensor, 4, { 64, 8 }))
    assert.equal("get_tma_tensor: make_layout((-1,8):(1@0,1@1)): shape leaf 0 is not a "
                 .. "positive integer", msg(function() return t:get_tma_tensor { -1, 8 } end))
  end)

  it("refuses what a tensor map cannot do, naming why", function()
    local S = cute.tile_to_shape(cute.make_smem_layout_atom("K_SW128", 16), { 128, 64 })
    local function try(op, G, s, tile, n)
      return function() cute.make_tma_copy(op, { layout = G, dtype = "bf16" }, s, tile, n) end
    end
    assert.error_matches(try("SM90_TMA_LOAD", L({ 1000, 264 }, { 1, 1000 }), S, { 128, 64 }),
      "no common contiguous mode", 1, true)
    assert.error_matches(try("SM80_CP_ASYNC", L({ 1000, 264 }, { 264, 1 }), S),
      "SM80_CP_ASYNC is not a TMA atom", 1, true)
    assert.error_matches(try("SM90_TMA_LOAD", L({ 1000, 264 }, { 264, 1 }), S, { 64, 64 }),
      "the CTA tile (64,64) and the smem layout", 1, true)
    assert.error_matches(try("SM90_TMA_LOAD", L({ 1000, 264 }, { 264, 1 }), S, nil, 2),
      "above 1 only for SM90_TMA_LOAD_MULTICAST", 1, true)
    local odd = cute.composed(cute.swizzle(3, 4, 3), 0, S:layout())
    assert.error_matches(try("SM90_TMA_LOAD", L({ 1000, 264 }, { 264, 1 }), odd),
      "is Sw<3,5,3> on bytes", 1, true)
  end)
end)
