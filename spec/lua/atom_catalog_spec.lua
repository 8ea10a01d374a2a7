-- The atoms CuTe's tutorials use beyond SM80: the SM70 8x8x4 quad-pair
-- MMAs, the fp8 wgmma (m64nNk32), stmatrix, and the GMMA shared-memory
-- swizzle atoms.  The fragment formulas of the MMAs are checked at every
-- thread and value in atom_spec.lua; here what each adds besides.
local cute = require "cute"
local catalog = require "cute.arch"
local L = cute.layout

describe("SM70 quad-pair MMA atoms", function()
  it("prints the tutorial's SM70_8x8x4_F32F16F16F32_NT as CuTe does", function()
    assert.equal("MMA_Atom\n"
      .. "  ThrID:      (4,2):(1,16)\n"
      .. "  Shape_MNK:  (8,8,4)\n"
      .. "  LayoutA_TV: ((4,2),4):((8,4),1)\n"
      .. "  LayoutB_TV: ((4,2),4):((8,4),1)\n"
      .. "  LayoutC_TV: ((2,2,2),(2,2,2)):((1,16,4),(8,2,32))",
      tostring(cute.mma_atom "SM70_8x8x4_F32F16F16F32_NT"))
    local m = cute.make_tiled_mma("SM70_8x8x4_F32F16F16F32_NT", L "(2,2,1):(1,2,0)")
    assert.matches("ThrLayoutVMNK:  ((4,2),2,2,1):((1,16),4,8,0)", tostring(m), 1, true)
  end)

  it("labels threads by lane through ThrID, as CuTe's print_latex", function()
    -- the quad pair is lanes 0-3 and 16-19: lane 16 holds row 4 of A
    local m = cute.make_tiled_mma("SM70_8x8x4_F32F16F16F32_NT")
    local A = m:get_layoutA_TV()
    assert.equal(4, A(16, 0))
    assert.equal(A(0, 0), A(4, 0))     -- lanes outside the pair fold back
    local text = cute.render(m, "txt")
    assert.matches("| T16 V0 |", text, 1, true)
    assert.falsy(text:find("T4 V0", 1, true))
  end)

  it("has all four majors of both accumulator types", function()
    for _, t in ipairs { "F16F16F16F16", "F32F16F16F32" } do
      for _, mj in ipairs { "TN", "NT", "NN", "TT" } do
        assert.is_table(catalog["SM70_8x8x4_" .. t .. "_" .. mj])
      end
    end
  end)
end)

describe("fp8 wgmma atoms", function()
  it("covers e4m3/e5m2 inputs, f32/f16 accumulators, SS and RS, N = 8..256", function()
    local n = 0
    for _, name in ipairs(catalog.names) do
      if name:match "^SM90_64x%d+x32_F%d+E%dM%dE%dM%d_%u%u_TN$" then n = n + 1 end
    end
    assert.equal(8 * 2 * 4 * 2, n)
    local a = cute.mma_atom "SM90_64x256x32_F32E4M3E5M2_RS_TN"
    assert.equal("(64,256,32)", cute.tuple_tostring(a.shape_mnk))
    assert.equal("wgmma.mma_async.sync.aligned.m64n256k32.f32.e4m3.e5m2",
                 catalog["SM90_64x256x32_F32E4M3E5M2_RS_TN"].ptx)
  end)
end)

describe("stmatrix atoms", function()
  it("mirror ldmatrix: source and destination swapped, the source as reference", function()
    for _, p in ipairs { { "SM90_U32x1_STSM_N", "SM75_U32x1_LDSM_N", "x1" },
                         { "SM90_U32x4_STSM_N", "SM75_U32x4_LDSM_N", "x4" },
                         { "SM90_U16x8_STSM_T", "SM75_U16x8_LDSM_T", "x4.trans" } } do
      local st, ld = catalog[p[1]], catalog[p[2]]
      assert.equal(ld.dst, st.src)
      assert.equal(ld.src, st.dst)
      assert.equal(st.src, st.ref)
      assert.equal(("stmatrix.sync.aligned.%s.m8n8.shared.b16"):format(p[3]), st.ptx)
    end
    local a = cute.copy_atom("SM90_U32x4_STSM_N", "f16")
    assert.equal("(32,8):(8,1)", tostring(a.dst))
  end)
end)

describe("GMMA shared-memory layout atoms", function()
  it("print as CuTe's, in element offsets", function()
    assert.equal("Sw<3,3,3> o 0 o (8,64):(64,1)",
                 tostring(cute.make_smem_layout_atom("K_SW128", "f16")))
    assert.equal("Sw<2,4,3> o 0 o (64,8):(1,64)",
                 tostring(cute.make_smem_layout_atom("MN_SW64", 8)))
    assert.equal("Sw<0,2,3> o 0 o (8,4):(4,1)",
                 tostring(cute.make_smem_layout_atom("K_INTER", "f32")))
    assert.error_matches(function() cute.make_smem_layout_atom("K_SW16", 16) end,
      "unknown kind K_SW16", 1, true)
  end)

  -- The definition (the hardware's 32/64/128-byte swizzle modes): the
  -- byte address a of element (r, k) in rows of 16 << B bytes has its
  -- 16-byte chunk bits [4, 4+B) XORed with bits [7, 7+B), the index of
  -- its 128-byte line.
  it("XOR each 16-byte chunk with its 128-byte line, for every kind and width", function()
    for _, major in ipairs { "K", "MN" } do
      for b, sw in ipairs { "INTER", "SW32", "SW64", "SW128" } do
        for _, bits in ipairs { 8, 16, 32, 64 } do
          local A = cute.make_smem_layout_atom(major .. "_" .. sw, bits)
          local B = b - 1
          local w = (128 << B) // bits           -- elements per row
          local seen = {}
          for r = 0, 7 do
            for k = 0, w - 1 do
              local a = (r * w + k) * bits // 8
              local want = (a ~ (((a >> 7) % (1 << B)) << 4)) * 8 // bits
              local got = major == "K" and A(r, k) or A(k, r)
              assert(got == want, ("%s_%s %db (%d,%d): %d, want %d")
                :format(major, sw, bits, r, k, got, want))
              assert(not seen[got])
              seen[got] = true
            end
          end
        end
      end
    end
  end)
end)
