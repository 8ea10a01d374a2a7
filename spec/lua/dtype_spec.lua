-- Element types: one table (the algebra's, cute.core.dtypes) under every
-- spelling a script may write -- cuda's i32, CuTe's and PTX's s32, tf32,
-- the fp8 e4m3/e5m2, the bit types b8..b128 -- with one meaning wherever
-- a type is named: atoms, shared-memory synthesis, TMA copies, buffers.
local cute = require "cute"
local core = require "cute.core"
local atom = require "cute.atom"
local smem = require "cute.smem"
local ok_cuda, cuda = pcall(require, "cute.cuda.core")

local function spellings()
  local t = {}
  for s in core.dtype_names:gmatch("%S+") do t[#t + 1] = s end
  return t
end

describe("element types", function()
  it("are one table under every spelling, aliases sharing their type", function()
    local names = spellings()
    assert.equal(24, #names)
    for _, s in ipairs(names) do
      local d = assert(core.dtypes[s], s)
      assert.equal(d, core.dtypes[d.name])
      assert.is_true(d.bits >= 8 and d.bits % 8 == 0)
    end
    local n = 0
    for _ in pairs(core.dtypes) do n = n + 1 end
    assert.equal(#names, n)
    for _, a in ipairs { "8", "16", "32", "64" } do
      assert.equal(core.dtypes["i" .. a], core.dtypes["s" .. a])
      assert.equal(tonumber(a), core.dtypes["s" .. a].bits)
    end
    assert.same({ name = "tf32", bits = 32, float = true }, core.dtypes.tf32)
    assert.same({ name = "e4m3", bits = 8, float = true }, core.dtypes.e4m3)
    assert.same({ name = "e5m2", bits = 8, float = true }, core.dtypes.e5m2)
    assert.same({ name = "b128", bits = 128, float = false }, core.dtypes.b128)
  end)

  it("give atoms the table's widths", function()
    for _, s in ipairs(spellings()) do
      assert.equal(core.dtypes[s].bits, atom.type_bits(s))
    end
  end)

  it("mean the same in shared-memory synthesis and TMA copies", function()
    for _, s in ipairs(spellings()) do
      local d = core.dtypes[s]
      if d.bits <= 64 then
        local a = smem.synthesize { tile = { 128, 64 }, major = "K", dtype = s }
        local b = smem.synthesize { tile = { 128, 64 }, major = "K", dtype = d.name }
        assert.equal(tostring(b.layout), tostring(a.layout))
        assert.equal(d.bits // 8, a.element_bytes)
        local G = cute.layout({ 512, 256 }, { 256, 1 })
        local t = cute.make_tma_copy("SM90_TMA_LOAD", { layout = G, dtype = s },
          a.layout, { 128, 64 })
        assert.equal(d.bits // 8, t.strides[1])
      end
    end
  end)

  it("are the buffer types of cute.cuda.core, with their sizes", function()
    if not ok_cuda then pending("no cute.cuda.core") return end
    local n = 0
    for s, c in pairs(cuda.dtypes) do
      n = n + 1
      local d = assert(core.dtypes[s], s)
      assert.equal(d.bits, 8 * c.size)
      assert.equal(d.float, c.float)
      assert.equal(cuda.dtypes[d.name], c)
    end
    assert.equal(17, n)   -- f16 .. u64, tf32 and s8 .. s64
    assert.is_nil(cuda.dtypes.e4m3)
    local L = cute.layout({ 4, 8 }, { 8, 1 })
    assert.equal(cuda.codegen("T", L, "i32"), cuda.codegen("T", L, "s32"))
  end)

  it("name the accepted spellings when one is unknown", function()
    local list = core.dtype_names
    assert.has_error(function() atom.copy_atom("SM75_U32x4_LDSM_N", "f12") end,
      "copy_atom: unknown value type f12 (an integer number of bits or one of "
      .. list .. ")")
    assert.has_error(function() smem.synthesize { tile = { 64, 64 }, dtype = "f12" } end,
      "cute.smem.synthesize: unknown dtype f12 (one of " .. list .. ")")
    if not ok_cuda then return end
    local L = cute.layout(4, 1)
    local ok, err = pcall(cuda.codegen, "T", L, "f12")
    assert.is_false(ok)
    assert.truthy(tostring(err):find("unknown dtype 'f12' (buffers take f16 bf16 "
      .. "f32 f64 i8 i16 i32 i64 u8 u16 u32 u64 tf32 s8 s16 s32 s64)", 1, true), err)
    ok, err = pcall(cuda.codegen, "T", L, "e4m3")
    assert.truthy(tostring(err):find("dtype 'e4m3' has no device buffers", 1, true), err)
  end)
end)

describe("core.log2", function()
  it("is floor(log2 n) for every n in 1 .. 2^16 and at 2^62", function()
    for n = 1, 1 << 16 do
      local k = core.log2(n)
      assert(1 << k <= n and n < 1 << (k + 1), n)
    end
    assert.equal(62, core.log2(1 << 62))
    assert.equal(62, core.log2(math.maxinteger))
  end)

  it("rejects n < 1", function()
    for _, n in ipairs { 0, -1, math.mininteger } do
      assert.has_error(function() core.log2(n) end)
    end
  end)

  -- Integers only, as every integer argument of cute.core: a string is
  -- not converted (luaL_checkinteger would take "8").
  it("rejects a numeric string", function()
    local ok, msg = pcall(core.log2, "8")
    assert.is_false(ok)
    assert.matches("integer expected, got string", msg, 1, true)
  end)
end)
