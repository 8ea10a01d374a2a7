-- cute.smem (shared-memory layout synthesis) and cute.gemm_sm90 (the
-- Hopper GEMM): host-side checks of the synthesis, the wgmma descriptors,
-- the TMA boxes and maps; PTX for sm_90a of every kernel the GPU bench
-- runs (pending without NVRTC); #gpu: results against the generic GEMM.
local cute = require "cute"
local smem = require "cute.smem"
local sm90 = require "cute.gemm_sm90"

local function desc(shape, stride, dtype, address)
  return { layout = cute.layout(shape, stride), dtype = dtype or "bf16",
           address = address or 0 }
end

-- The four majors of Table 3's GEMMs as A (M,K), B (N,K) layouts.
local function operands(m, n, k, majors)
  local A = majors:sub(1, 1) == "T" and desc({ m, k }, { k, 1 }) or desc({ m, k }, { 1, m })
  local B = majors:sub(2, 2) == "N" and desc({ n, k }, { k, 1 }) or desc({ n, k }, { 1, n })
  return A, B, desc({ m, n }, { n, 1 })
end

describe("cute.smem.synthesize", function()
  for _, major in ipairs { "K", "MN" } do
    for _, mn in ipairs { 64, 128, 256 } do
      for _, dtype in ipairs { "bf16", "f16" } do
        it(("%s-major %dx64 %s: 128-byte swizzle, conflict-free, 16-byte vectors, a bijection")
            :format(major, mn, dtype), function()
          local s = smem.synthesize { tile = { mn, 64 }, major = major, dtype = dtype }
          assert.equal(128, s.swizzle_bytes)
          assert.same({ write = 1, read = 1 }, s.conflicts)
          assert.equal(16, s.vector_bytes)
          local seen, n = {}, mn * 64
          for i = 0, n - 1 do
            local o = s.layout(i % mn, i // mn)
            assert.truthy(o >= 0 and o < n and not seen[o])
            seen[o] = true
          end
          -- the narrower swizzles conflict on the writes: evidence, not guesses
          local ways = {}
          for _, r in ipairs(s.evidence) do ways[r.swizzle_bytes] = r.write end
          assert.same({ [128] = 1, [64] = 2, [32] = 4, [16] = 8 }, ways)
        end)
      end
    end
  end

  it("matches the byte-level swizzle of the copy engine", function()
    -- Sw<3,4,3> on byte offsets == Sw<3,3,3> on 2-byte element offsets
    local s = smem.synthesize { tile = { 128, 64 }, major = "K", dtype = "bf16" }
    local bytes = cute.swizzle(3, 4, 3)
    for i = 0, 128 * 64 - 1 do
      local m, k = i % 128, i // 128
      assert.equal(bytes(2 * s.plain(m, k)), 2 * s.layout(m, k))
    end
  end)

  it("refuses what it cannot tile, naming the call", function()
    -- found by spec/vm/test_api_monkey.c: tiles smaller than a warp's
    -- accesses failed in bank_conflicts, which named itself
    local function says(want, spec)
      assert.error_matches(function() smem.synthesize(spec) end, want, 1, true)
    end
    says("cute.smem.synthesize: tile {64, 8} (K-major) is smaller than a warp's reads "
         .. "((16,2),8):((1,512),64), which reach element 975 of a 512-element tile",
         { tile = { 64, 8 }, major = "K", dtype = "f16" })
    says("cute.smem.synthesize: tile {16, 8} (MN-major) is smaller than a warp's writes "
         .. "((2,16),8):((8,16),1), which reach element 255 of a 128-element tile",
         { tile = { 16, 8 }, major = "MN", dtype = "f16" })
    assert.error_matches(function() smem.synthesize { tile = { 1 << 40, 64 }, dtype = "f32" } end,
      "cute.smem.synthesize: bank_conflicts(", 1, true)
    assert.has_error(function() smem.synthesize { tile = { 128, 12 }, major = "K" } end)
    assert.error_matches(function() smem.synthesize { tile = { 128, 64 }, major = "X" } end,
      "cute.smem.synthesize: major")
    assert.error_matches(function() smem.synthesize { tile = { 130, 64 } } end,
      "not a multiple of 8")
    assert.truthy(smem.report(smem.synthesize { tile = { 64, 64 } }):find("<- chosen", 1, true))
  end)
end)

describe("cute.gemm_sm90 descriptors and TMA boxes", function()
  it("K-major 128x64 bf16: 128-byte swizzle, SBO 1024, k-steps of 32 bytes", function()
    local s = smem.synthesize { tile = { 128, 64 }, major = "K" }
    local d = sm90.descriptor(s, 64)
    assert.equal(1, d.mode)
    assert.equal(1024, d.sbo)
    assert.same({ 0, 8192 }, d.blocks)
    assert.same({ 0, 32, 64, 96 }, d.ksteps)
    assert.equal((1 << 62) | (64 << 32) | (1 << 16), d.hi)
    local t = cute.make_tma_copy("SM90_TMA_LOAD",
      desc({ 1000, 264 }, { 264, 1 }), s.layout, s.tile)
    assert.same({ 64, 128 }, t.box)
    assert.equal(1, #t:copies())
  end)

  it("N-major 256x64 bf16: LBO between 64-wide atoms, SBO between 8-deep k groups", function()
    local s = smem.synthesize { tile = { 256, 64 }, major = "MN" }
    local d = sm90.descriptor(s, 256)
    assert.equal(1, d.mode)
    assert.equal(8192, d.lbo)
    assert.equal(1024, d.sbo)
    assert.same({ 0, 2048, 4096, 6144 }, d.ksteps)
    local t = cute.make_tma_copy("SM90_TMA_LOAD",
      desc({ 520, 264 }, { 1, 520 }), s.layout, s.tile)
    assert.same({ 64, 64 }, t.box)
    local offs = {}
    for _, c in ipairs(t:copies()) do offs[#offs + 1] = c.smem * 2 end
    assert.same({ 0, 8192, 16384, 24576 }, offs)
  end)

  it("refuses a layout that is not a wgmma canonical layout", function()
    local s = smem.synthesize { tile = { 128, 64 }, major = "K" }
    s.plain = cute.layout({ 128, 64 }, { 64, 1 })   -- rows of 128 B, no atoms
    s.swizzle_bytes = 16
    assert.error_matches(function() sm90.descriptor(s, 64) end, "not a wgmma canonical layout")
  end)
end)

describe("cute.gemm_sm90.plan", function()
  for _, majors in ipairs { "TN", "NN", "NT", "TT" } do
    it(majors .. ": tensor maps from the global layouts, transpose bits", function()
      local A, B, C = operands(1000, 520, 264, majors)
      local p = assert(sm90.plan(A, B, C))
      local ka, kb = majors:sub(1, 1) == "T", majors:sub(2, 2) == "N"
      assert.equal((ka and "K" or "MN") .. (kb and "K" or "MN"), p.majors)
      assert.same(ka and { 264, 1000 } or { 1000, 264 }, p.map_A.dims)
      assert.same(ka and { 2, 528 } or { 2, 2000 }, p.map_A.strides)
      assert.same(kb and { 264, 520 } or { 520, 264 }, p.map_B.dims)
      assert.equal(8 * 3, p.tiles)   -- ceil(1000/128) x ceil(520/256)
      assert.truthy(p.source:find(("m64n256k16.f32.bf16.bf16 .-, p, 1, 1, %d, %d;")
        :format(ka and 0 or 1, kb and 0 or 1)))
    end)
  end

  it("computes C^T = B A^T when C is M-major", function()
    local A, B = operands(256, 512, 128, "TN")
    local p = assert(sm90.plan(A, B, desc({ 256, 512 }, { 1, 256 })))
    assert.is_true(p.swap)
    assert.equal(512, p.M)
    assert.equal(256, p.csm)
  end)

  it("batched: rank-3 maps with the batch stride", function()
    local p = assert(sm90.plan(desc({ 128, 64, 3 }, { 64, 1, 8192 }),
      desc({ 256, 64, 3 }, { 64, 1, 16384 }), desc({ 128, 256, 3 }, { 256, 1, 32768 })))
    assert.same({ 64, 128, 3 }, p.map_A.dims)
    assert.same({ 2, 128, 16384 }, p.map_A.strides)
    assert.truthy(p.source:find("tma_load_3d(sa", 1, true))
  end)

  it("says why a GEMM cannot take the Hopper path", function()
    local A, B, C = operands(64, 64, 20, "TN")   -- rows of 40 bytes
    local p, why = sm90.plan(A, B, C)
    assert.is_nil(p)
    assert.matches("row pitch 40 bytes is not a multiple of 16", why)
    p, why = sm90.plan(desc({ 64, 64 }, { 64, 1 }, "f32"), B, C)
    assert.matches("f16 or bf16", why)
    p, why = sm90.plan(desc({ { 8, 8 }, 64 }, { { 64, 1024 }, 1 }), desc({ 64, 64 }, { 64, 1 }),
      desc({ { 8, 8 }, 64 }, { { 64, 8192 }, 1 }))
    assert.matches("hierarchical", why)
    p, why = sm90.plan(A, B, C, nil)
    assert.is_nil(p)
    -- found by spec/vm/test_api_monkey.c: raw Lua errors for operands that
    -- are no tensors, a missing dtype, options that are no table
    for k, args in ipairs { { nil, B, C }, { A, { layout = A.layout }, C }, { A, B, "C" } } do
      assert.error_matches(function() sm90.plan(table.unpack(args, 1, 3)) end,
        "bad argument #" .. k .. " to 'gemm_sm90.plan' (cute.cuda tensor or {layout = "
        .. "cute.Layout, dtype = name} expected, got", 1, true)
    end
    assert.error_matches(function() sm90.plan(A, B, C, 4) end,
      "bad argument #4 to 'gemm_sm90.plan' (options table expected, got number)", 1, true)
    local A2 = desc({ 64, 64 }, { 64, 1 }, "bf16", 8)
    p, why = sm90.plan(A2, desc({ 64, 64 }, { 64, 1 }), desc({ 64, 64 }, { 64, 1 }))
    assert.matches("16%-byte aligned", why)
  end)
end)

describe("cute.gemm_sm90 compiles every bench kernel for sm_90a", function()
  local core_ok, core = pcall(require, "cute.cuda.core")
  local nvrtc_ok = core_ok and pcall(core.nvrtc_version)
  local configs = {
    { "TN", { operands(4096, 4096, 4096, "TN") } },
    { "NN", { operands(4096, 4096, 4096, "NN") } },
    { "NT", { operands(4096, 4096, 4096, "NT") } },
    { "TT", { operands(4096, 4096, 4096, "TT") } },
    { "TN batched", { desc({ 2048, 2048, 16 }, { 2048, 1, 2048 * 2048 }),
      desc({ 2048, 2048, 16 }, { 2048, 1, 2048 * 2048 }),
      desc({ 2048, 2048, 16 }, { 2048, 1, 2048 * 2048 }) } },
  }
  for _, c in ipairs(configs) do
    it(c[1], function()
      if not nvrtc_ok then pending("no NVRTC") return end
      local p = assert(sm90.plan(table.unpack(c[2])))
      local bin = core.compile(p.source, { p.name }, "compute_90a")
      assert.equal("ptx", bin.kind)
      local ptx = bin.image
      assert.truthy(ptx:find("wgmma.mma_async.sync.aligned.m64n256k16.f32.bf16.bf16", 1, true))
      assert.truthy(ptx:find("cp.async.bulk.tensor", 1, true))
      assert.truthy(ptx:find("mbarrier.try_wait.parity", 1, true))
      assert.truthy(ptx:find("setmaxnreg.inc.sync.aligned.u32 232", 1, true))
      assert.equal("", (bin.log or ""):gsub("%s", ""))   -- no warnings
    end)
  end
end)

describe("cute.gemm_sm90 on the GPU #gpu", function()
  local have, cuda = pcall(require, "cute.cuda")
  local ok, why = false, "cute.cuda not built"
  if have then ok, why = cuda.available() end
  if ok and cuda.device().arch ~= "sm_90" then ok, why = false, "not a Hopper GPU" end
  if not ok then
    pending("no Hopper GPU: " .. tostring(why))
    return
  end

  local function tensor(dtype, L, seed)
    local n = cute.cosize(L)
    local b = cuda.buffer(dtype, n)
    if seed then b:random(seed, -1, 1) else b:random(9, 1000, 2000) end
    return cuda.tensor(b, L)
  end

  -- every C element against the generic GEMM on the same data
  local function check(LA, LB, LC, tc, alpha, beta, seed)
    local A, B = tensor("bf16", LA, seed), tensor("bf16", LB, seed + 1)
    local C = tensor(tc, LC, seed + 2)
    local R = cuda.tensor(cuda.buffer(tc, cute.cosize(LC)), LC)
    cuda.memcpy(R, C)
    local p = cuda.gemm(A, B, C, { alpha = alpha, beta = beta, path = "sm90" })
    cuda.gemm(A, B, R, { alpha = alpha, beta = beta, path = "generic" })
    local cmp = cuda.compare(C.buffer, R.buffer, 1 / 64, 0.5)
    assert.equal(0, cmp.bad)
    assert.truthy(cmp.rel_norm < 1e-2)
    return p
  end

  for _, majors in ipairs { "TN", "NN", "NT", "TT" } do
    it(majors .. " ragged 1000x520x264, beta 0", function()
      local A, B, C = operands(1000, 520, 264, majors)
      check(A.layout, B.layout, C.layout, "bf16", 1, 0, 11)
    end)
  end

  it("M-major C (swapped operands), alpha and beta, f32 and f16 C", function()
    local p = check(cute.layout({ 200, 264 }, { 264, 1 }), cute.layout({ 136, 264 }, { 264, 1 }),
      cute.layout({ 200, 136 }, { 1, 200 }), "f32", 1.5, -0.5, 21)
    assert.is_true(p.swap)
    check(cute.layout({ 200, 264 }, { 264, 1 }), cute.layout({ 136, 264 }, { 1, 136 }),
      cute.layout({ 200, 136 }, { 136, 1 }), "f16", 0.5, 2, 31)
  end)

  it("batched (L = 3)", function()
    check(cute.layout({ 130, 72, 3 }, { 72, 1, 130 * 72 }), cute.layout({ 264, 72, 3 }, { 72, 1, 264 * 72 }),
      cute.layout({ 130, 264, 3 }, { 264, 1, 130 * 264 }), "bf16", 1, 0, 41)
  end)

  it("f16 A and B", function()
    local A, B, C = operands(304, 264, 136, "NT")   -- M-major A: rows of 608 bytes
    local X = cuda.tensor(cuda.buffer("f16", 304 * 136):random(61, -1, 1), A.layout)
    local Y = cuda.tensor(cuda.buffer("f16", 264 * 136):random(62, -1, 1), B.layout)
    local Z = cuda.tensor(cuda.buffer("f32", 304 * 264), C.layout)
    local R = cuda.tensor(cuda.buffer("f32", 304 * 264), C.layout)
    local p = cuda.gemm(X, Y, Z, { beta = 0, path = "sm90" })
    assert.truthy(p.source:find("f32.f16.f16", 1, true))
    cuda.gemm(X, Y, R, { beta = 0, path = "generic" })
    assert.equal(0, cuda.compare(Z.buffer, R.buffer, 1e-3, 1e-3).bad)
  end)

  it("a launch handle keeps A and B alive (the tensor maps point into them)", function()
    local weak = setmetatable({}, { __mode = "v" })
    local h, C
    do
      local A = tensor("bf16", cute.layout({ 128, 64 }, { 64, 1 }), 71)
      local B = tensor("bf16", cute.layout({ 256, 64 }, { 64, 1 }), 72)
      C = tensor("bf16", cute.layout({ 128, 256 }, { 256, 1 }))
      local plan
      plan, h = cuda.gemm(A, B, C, { beta = 0, path = "sm90" })
      assert.truthy(plan.map_A)
      weak.A, weak.B = A, B
    end
    collectgarbage(); collectgarbage()
    assert.truthy(weak.A and weak.B)
    h()
    cuda.synchronize()
    h = nil
    collectgarbage(); collectgarbage()
    assert.falsy(weak.A or weak.B)
  end)

  it("odd C pitch: scalar stores at the edges", function()
    check(cute.layout({ 129, 64 }, { 64, 1 }), cute.layout({ 257, 64 }, { 64, 1 }),
      cute.layout({ 129, 257 }, { 257, 1 }), "bf16", 1, 1, 51)
  end)
end)
