-- Linear layouts over F2 (Triton's LinearLayout) and CuTe layouts: the
-- conversions both ways and every operation checked against evaluation,
-- by brute force over seeded random power-of-two layouts, swizzles and TV
-- layouts, plus the SM80 mma.sync / SM90 wgmma atoms and a Sw<3,4,3> tile.
local cute = require "cute"
local R = require "helpers.random"
local catalog = require "cute.arch"

-- A packed input x (input dims colexicographic, dim 0 lowest) evaluated
-- through A's per-dim call, the outputs packed the same way.
local function apply(A, x)
  local args = {}
  for i, d in ipairs(A:in_dims()) do
    args[i] = x % d[2]
    x = x // d[2]
  end
  local out, packed, scale = { A(table.unpack(args)) }, 0, 1
  for i, d in ipairs(A:out_dims()) do
    packed = packed + out[i] * scale
    scale = scale * d[2]
  end
  return packed
end

local function in_size(A)
  local n = 1
  for _, d in ipairs(A:in_dims()) do n = n * d[2] end
  return n
end

-- A layout of power-of-two extents; `linear`: its bit-steps never share a
-- bit (runs of output bits with gaps, stride 0, the odd stride 3).
local function pow2_layout(g, linear)
  local n = g:int(1, 4)
  local ext, str, bits, cur = {}, {}, 0, 0
  for i = 1, n do
    local k = g:pick { 0, 1, 1, 2, 3 }
    if bits + k > 10 then k = 0 end
    bits = bits + k
    ext[i] = 1 << k
  end
  local order = {}
  for i = 1, n do order[i] = i end
  for i = n, 2, -1 do
    local j = g:int(1, i)
    order[i], order[j] = order[j], order[i]
  end
  for _, i in ipairs(order) do
    if linear then
      cur = cur + g:pick { 0, 0, 0, 1, 2 }
      local kind = g:int(1, 8)
      if kind == 1 then
        str[i] = 0
      elseif kind == 2 and ext[i] == 2 then
        str[i], cur = 3 << cur, cur + 2
      else
        local k = 0
        while (1 << k) < ext[i] do k = k + 1 end
        str[i], cur = 1 << cur, cur + k
      end
    else
      str[i] = g:pick { 0, 1, 2, 3, 4, 5, 6, 8, 12, 16 }
    end
  end
  local nest = g:nesting(n)
  return cute.layout(nest(ext), nest(str))
end

-- Is L's function on its domain XOR-linear in the bits of the index:
-- L(i) the XOR of L at i's single bits, for every i?
local function xor_linear(L)
  for i = 0, cute.size(L) - 1 do
    local x, bit = 0, 1
    while bit <= i do
      if i & bit ~= 0 then x = x ~ L(bit) end
      bit = bit << 1
    end
    if L(i) ~= x then return false end
  end
  return true
end

-- A random linear layout as Triton's text: ins/outs are {name, bits}.
local function linear_text(g, ins, outs, basis)
  local lines = {}
  for _, d in ipairs(ins) do
    if d[2] == 0 then
      lines[#lines + 1] = (" - %s is a size 1 dimension"):format(d[1])
    end
    for b = 0, d[2] - 1 do
      local v = {}
      for j, o in ipairs(outs) do
        v[j] = basis and basis(d, b, j, o) or g:int(0, (1 << o[2]) - 1)
      end
      lines[#lines + 1] = ("%s%s=%d -> (%s)"):format(b == 0 and " - " or "   ",
        d[1], 1 << b, table.concat(v, ", "))
    end
  end
  local o = {}
  for j, d in ipairs(outs) do o[j] = ("%s (size %d)"):format(d[1], 1 << d[2]) end
  lines[#lines + 1] = "where out dims are: [" .. table.concat(o, ", ") .. "]"
  return table.concat(lines, "\n")
end

local function dims(g, names, max)
  local t = {}
  for i, name in ipairs(names) do t[i] = { name, g:int(0, max) } end
  return t
end

describe("to_linear and from_linear", function()
  it("to_linear succeeds exactly on XOR-linear layouts and agrees with them",
     function()
    local g = R.new(1701)
    local took = 0
    for case = 1, 3000 do
      local L = pow2_layout(g, case % 2 == 0)
      local ok, A = pcall(cute.to_linear, L)
      local size = cute.size(L)
      R.eq(ok, xor_linear(L), "to_linear(%s) succeeds", tostring(L))
      if ok then
        took = took + 1
        for i = 0, size - 1 do R.eq(apply(A, i), L(i), "to_linear(%s) at %d", tostring(L), i) end
        local B = cute.from_linear(A)
        for i = 0, size - 1 do R.eq(B(i), L(i), "from_linear(to_linear(%s)) = %s at %d", tostring(L), tostring(B), i) end
      else
        assert.matches("^to_linear%(", A)
      end
    end
    assert.is_true(took > 1500)
  end)

  it("converts a swizzled layout Sw o L and back, like it everywhere", function()
    local g = R.new(99)
    for _ = 1, 1500 do
      local L = pow2_layout(g, true)
      local b = g:int(1, 3)
      local sw = cute.swizzle(b, g:int(0, 3), g:int(b, 4) * g:pick { 1, 1, -1 })
      local C = cute.composed(sw, 0, L)
      local A = cute.to_linear(C)
      local back = cute.from_linear(A)
      for i = 0, cute.size(L) - 1 do
        R.eq(apply(A, i), C(i), "to_linear(%s) at %d", tostring(C), i)
        R.eq(back(i), C(i), "from_linear(to_linear(%s)) = %s at %d", tostring(C), tostring(back), i)
      end
    end
  end)

  it("converts TV layouts into register/lane/warp over a tile and back", function()
    local g = R.new(4242)
    for _ = 1, 1000 do
      local t, v = g:int(0, 8), g:int(0, 3)
      local leaves, left = {}, t + v
      while left > 0 do
        local k = math.min(left, g:int(1, 3))
        leaves[#leaves + 1], left = k, left - k
      end
      local pos, order, cur = {}, {}, 0
      for i = 1, #leaves do order[i] = i end
      for i = #order, 2, -1 do
        local j = g:int(1, i)
        order[i], order[j] = order[j], order[i]
      end
      for _, i in ipairs(order) do pos[i], cur = cur, cur + leaves[i] end
      -- split the leaves: the first ones whose bits sum to t are threads
      local thr_s, thr_d, val_s, val_d, acc = {}, {}, {}, {}, 0
      for i, k in ipairs(leaves) do
        local s, d = 1 << k, 1 << pos[i]
        if acc < t then thr_s[#thr_s + 1], thr_d[#thr_d + 1] = s, d
        else val_s[#val_s + 1], val_d[#val_d + 1] = s, d end
        acc = acc + k
      end
      if #thr_s == 0 then thr_s, thr_d = { 1 }, { 0 } end
      if #val_s == 0 then val_s, val_d = { 1 }, { 0 } end
      local tv = cute.layout({ thr_s, val_s }, { thr_d, val_d })
      local total = cute.size(tv)
      local a = g:int(0, t + v)
      local M, N = 1 << a, total // (1 << a)
      local A = cute.to_linear(tv, { tv = true, tile = { M, N } })
      local nthr, nval = cute.size(cute.layout(thr_s, thr_d)), cute.size(cute.layout(val_s, val_d))
      local back = cute.from_linear(A)
      for th = 0, nthr - 1 do
        for va = 0, nval - 1 do
          local m, n = A { register = va, lane = th % 32, warp = th // 32 }
          local idx = tv(th, va)
          R.eq(m + M * n, idx, "to_linear(%s) at (%d,%d)", tostring(tv), th, va)
          R.eq(back(th, va), idx, "from_linear: %s at (%d,%d)", tostring(back), th, va)
        end
      end
    end
  end)

  it("from_linear is exact on random linear layouts, or names the basis", function()
    local g = R.new(7)
    local failed = 0
    for _ = 1, 2000 do
      local A = cute.linear_layout(linear_text(g, dims(g, { "register", "lane" }, 3),
                                               dims(g, { "dim0", "dim1" }, 3)))
      local ok, B = pcall(cute.from_linear, A)
      if ok then
        for x = 0, in_size(A) - 1 do
          R.eq(B(x), apply(A, x), "from_linear(%s) = %s at %d", A:compact(), tostring(B), x)
        end
      else
        failed = failed + 1
        assert.matches("^from_linear%(#ttg%.linear<{.*: basis %a+=%d+ %-> %(.*no swizzle", B)
      end
    end
    assert.is_true(failed > 0 and failed < 2000)
  end)

  it("refuses what has no linear form, naming the leaf", function()
    for _, case in ipairs {
      { "3:1", "leaf 0 of shape 3 is not a power of two" },
      { "4:3", "shares a bit" },
      { "(2,2):(1,1)", "shares a bit" },
      { "4:-1", "negative stride" },
    } do
      local ok, msg = pcall(cute.to_linear, cute.layout(case[1]))
      assert.is_false(ok)
      assert.matches(("to_linear(%s): "):format(case[1]), msg, 1, true)
      assert.matches(case[2], msg, 1, true)
    end
    local ok, msg = pcall(cute.to_linear, cute.composed(cute.swizzle(1, 0, 1), 2, cute.layout "4:1"))
    assert.is_false(ok)
    assert.matches("offset 2 is affine", msg, 1, true)
  end)
end)

describe("MMA atoms and a swizzled shared-memory tile", function()
  local function pow2(n) return n & (n - 1) == 0 end

  it("converts every SM80 mma.sync and SM90 wgmma TV layout and back", function()
    local n, seen = 0, {}
    for _, name in ipairs(catalog.names) do
      local e = catalog[name]
      if e.kind == "mma" and name:match "^SM[89]0_" then
        local m, nn, k = e.shape_mnk[1], e.shape_mnk[2], e.shape_mnk[3]
        for op, tile in pairs { A = { m, k }, B = { nn, k }, C = { m, nn } } do
          local tv, key = cute.layout(e[op]), e[op] .. table.concat(tile, "x")
          if seen[key] then -- the same layout of another element type
          elseif pow2(tile[1]) and pow2(tile[2]) then
            local A = cute.to_linear(tv, { tv = true, tile = tile })
            local back = cute.from_linear(A)
            local nthr, nval = cute.size(cute.take(tv, 0, 1)), cute.size(cute.take(tv, 1, 2))
            for th = 0, nthr - 1 do
              for va = 0, nval - 1 do
                local r, c = A { register = va, lane = th % 32, warp = th // 32 }
                R.eq(r + tile[1] * c, tv(th, va), "%s %s at (%d,%d)", name, op, th, va)
                R.eq(back(th, va), tv(th, va), "%s %s back at (%d,%d)", name, op, th, va)
              end
            end
            n = n + 1
            seen[key] = true
          else
            local ok, msg = pcall(cute.to_linear, tv, { tv = true, tile = tile })
            assert.is_false(ok)
            assert.matches("not a power of two", msg, 1, true)
          end
        end
      end
    end
    assert.is_true(n > 10)
  end)

  it("sees the SM90 shared-memory operands broadcast over all 128 threads", function()
    local e = catalog["SM90_64x64x16_F32F16F16_SS"]
    local A = cute.to_linear(cute.layout(e.A), { tv = true, tile = { 64, 16 } })
    assert.same({ register = 0, lane = 31, warp = 3 }, A:free_masks())
  end)

  it("converts Sw<3,4,3> o (8,64):(64,1) and back", function()
    local C = cute.composed(cute.swizzle(3, 4, 3), 0, cute.layout "(8,64):(64,1)")
    local A = cute.to_linear(C)
    local back = cute.from_linear(A)
    assert.equal("cute.ComposedLayout", getmetatable(back).__name)
    for i = 0, 511 do
      R.eq(apply(A, i), C(i), "at %d", i)
      R.eq(back(i), C(i), "back at %d", i)
    end
    -- the same tile over 16 rows needs all three bits of the swizzle
    local C16 = cute.composed(cute.swizzle(3, 4, 3), 0, cute.layout "(16,64):(64,1)")
    assert.equal("Sw<3,4,3> o 0 o (16,64):(64,1)", tostring(cute.from_linear(cute.to_linear(C16))))
  end)
end)

describe("linear layout operations agree with evaluation", function()
  it("compose: (outer o inner)(x) = outer(inner(x))", function()
    local g = R.new(31)
    for _ = 1, 1500 do
      local mid = dims(g, { "p", "q" }, 3)
      local inner = cute.linear_layout(linear_text(g, dims(g, { "a", "b" }, 3), mid))
      local outer = cute.linear_layout(linear_text(g, mid, dims(g, { "x", "y" }, 3)))
      local C = outer:compose(inner)
      for x = 0, in_size(inner) - 1 do
        R.eq(apply(C, x), apply(outer, apply(inner, x)), "compose at %d", x)
      end
    end
  end)

  it("rank is log2 of the image size; free masks are the bits that never matter",
     function()
    local g = R.new(32)
    for _ = 1, 600 do
      local A = cute.linear_layout(linear_text(g, dims(g, { "register", "lane", "warp" }, 2),
        dims(g, { "dim0", "dim1" }, 3), function(_, _, _, o)
          return g:int(1, 4) == 1 and 0 or g:int(0, (1 << o[2]) - 1)
        end))
      local seen, count, n = {}, 0, in_size(A)
      for x = 0, n - 1 do
        local y = apply(A, x)
        if not seen[y] then seen[y], count = true, count + 1 end
      end
      R.eq(count, 1 << A:rank(), "rank of %s", A:compact())
      local masks, shift = A:free_masks(), 0
      for _, d in ipairs(A:in_dims()) do
        local bits = 0
        while (1 << bits) < d[2] do bits = bits + 1 end
        for b = 0, bits - 1 do
          local flip, free = 1 << (shift + b), true
          for x = 0, n - 1 do
            if apply(A, x) ~= apply(A, x ~ flip) then free = false break end
          end
          R.eq(masks[d[1]] >> b & 1 == 1, free, "free bit %d of %s in %s", b, d[1], A:compact())
        end
        shift = shift + bits
      end
    end
  end)

  it("invert: A^-1(A(x)) = x for bijections, refused otherwise", function()
    local g = R.new(33)
    local inverted = 0
    for _ = 1, 1500 do
      local nb = g:int(0, 6)
      local a = g:int(0, nb)
      local A = cute.linear_layout(linear_text(g, { { "lane", a }, { "warp", nb - a } },
        { { "dim0", g:int(0, nb) } }))
      local out = A:out_dims()[1][2]
      if out == in_size(A) and 1 << A:rank() == out then
        local I = A:invert()
        inverted = inverted + 1
        for x = 0, out - 1 do
          R.eq(apply(I, apply(A, x)), x, "invert(%s) at %d", A:compact(), x)
        end
      else
        local ok, msg = pcall(A.invert, A)
        assert.is_false(ok)
        assert.matches("^invert%(.*not a bijection", msg)
      end
    end
    assert.is_true(inverted > 50)
  end)

  it("invert_and_compose(A, B): B(C(x)) = A(x), or names A's basis outside B",
     function()
    local g = R.new(34)
    local solved = 0
    for _ = 1, 1500 do
      local outs = dims(g, { "dim0", "dim1" }, 2)
      local A = cute.linear_layout(linear_text(g, dims(g, { "register", "lane" }, 3), outs))
      local B = cute.linear_layout(linear_text(g, dims(g, { "register", "lane", "warp" }, 3), outs))
      local image = {}
      for x = 0, in_size(B) - 1 do image[apply(B, x)] = true end
      local inside = true
      for x = 0, in_size(A) - 1 do inside = inside and image[apply(A, x)] == true end
      local ok, C = pcall(cute.invert_and_compose, A, B)
      R.eq(ok, inside, "invert_and_compose(%s, %s) succeeds", A:compact(), B:compact())
      if ok then
        solved = solved + 1
        for x = 0, in_size(A) - 1 do
          R.eq(apply(B, apply(C, x)), apply(A, x), "invert_and_compose at %d", x)
        end
      else
        assert.matches("basis %a+=%d+ %-> %(.-%) of the first layout is not in the image", C)
      end
    end
    assert.is_true(solved > 100)
  end)
end)

describe("conversion(src, dst): what moving a tensor between TV layouts takes",
         function()
  -- brute force: each dst location's element, held by src where?
  local function kind(src, dst)
    local lanes, where = src:in_dims()[2][2], {}
    for y = 0, in_size(src) - 1 do
      local e = apply(src, y)
      where[e] = where[e] or {}
      where[e][#where[e] + 1] = y
    end
    local R, Rd = src:in_dims()[1][2], dst:in_dims()[1][2]
    local local_all, warp_all = true, true
    for x = 0, in_size(dst) - 1 do
      local lw = x // Rd
      local here, inwarp = false, false
      for _, y in ipairs(where[apply(dst, x)]) do
        local ylw = y // R
        here = here or ylw == lw
        inwarp = inwarp or ylw // lanes == lw // lanes
      end
      local_all, warp_all = local_all and here, warp_all and inwarp
    end
    return local_all and "registers" or warp_all and "shuffle" or "shared"
  end

  it("agrees with where each element lives, on random TV layouts", function()
    local g = R.new(36)
    local seen, image = {}, 0
    for _ = 1, 800 do
      local outs = dims(g, { "dim0", "dim1" }, 2)
      local lane, warp = g:int(0, 2), g:int(0, 2)
      local src = cute.linear_layout(linear_text(g,
        { { "register", g:int(0, 2) }, { "lane", lane }, { "warp", warp } }, outs,
        function(_, _, _, o) return g:int(1, 3) == 1 and 0 or g:int(0, (1 << o[2]) - 1) end))
      -- dst holds only what src holds: its bases are images under src
      local n = in_size(src)
      local dst = cute.linear_layout(linear_text(g,
        { { "register", g:int(0, 2) }, { "lane", lane }, { "warp", warp } }, outs,
        function(_, _, j, o)  -- called per value, first out dim first
          if j == 1 then image = apply(src, g:int(0, n - 1)) end
          local shift = j == 1 and 0 or outs[1][2]
          return image >> shift & ((1 << o[2]) - 1)
        end))
      local k, map = cute.conversion(src, dst)
      R.eq(k, kind(src, dst), "conversion(%s, %s)", src:compact(), dst:compact())
      seen[k] = true
      for x = 0, in_size(dst) - 1 do
        R.eq(apply(src, apply(map, x)), apply(dst, x), "map at %d", x)
      end
    end
    assert.is_true(seen.registers and seen.shuffle and seen.shared)
  end)

  it("names the MMA cases", function()
    local t = { tv = true, tile = { 16, 8 } }
    local C = cute.to_linear(cute.layout "((4,8),(2,2)):((32,1),(16,8))", t)
    assert.equal("registers", (cute.conversion(C, cute.to_linear(
      cute.layout "((4,8),(2,2)):((32,1),(8,16))", t))))
    assert.equal("shuffle", (cute.conversion(C, cute.to_linear(
      cute.layout "((4,8),(2,2)):((2,16),(1,8))", t))))
    local ok, msg = pcall(cute.conversion, C, cute.to_linear(cute.layout "(4,8):(8,1)"))
    assert.is_false(ok)
    assert.matches("conversion(", msg, 1, true)
  end)
end)

describe("conversion_plan(src, dst): the shuffles or the shared-memory trip",
         function()
  -- Applies the plan to registers holding a random value per element and
  -- checks every dst register gets its element's value.
  local function check(src, dst, plan, seed)
    local g, val = R.new(seed), {}
    local R0, lanes = src:in_dims()[1][2], src:in_dims()[2][2]
    local Rd, T = dst:in_dims()[1][2], in_size(src) // R0
    local reg = {}
    for t = 0, T - 1 do
      reg[t] = {}
      for r = 0, R0 - 1 do
        local e = apply(src, r + R0 * t)
        val[e] = val[e] or g:int(0, 1 << 30)
        reg[t][r] = val[e]
      end
    end
    local out = {}
    for t = 0, T - 1 do out[t] = {} end
    if plan.kind == "shared" then
      local mem = {}
      for t = 0, T - 1 do
        for r = 0, R0 - 1 do mem[plan.smem(plan.store(t, r))] = reg[t][r] end
      end
      for t = 0, T - 1 do
        for r = 0, Rd - 1 do out[t][r] = mem[plan.smem(plan.load(t, r))] end
      end
    else
      for t = 0, T - 1 do
        for _, mv in ipairs(plan.moves[t]) do out[t][mv.dst] = reg[t][mv.src] end
      end
      for _, round in ipairs(plan.rounds) do
        for t, dr in pairs(round.dst) do
          local from = t // lanes * lanes + round.lane[t]
          R.ok(plan.kind == "shuffle", "a registers plan has no rounds")
          out[t][dr] = reg[from][round.send[from]]
        end
      end
    end
    for t = 0, T - 1 do
      for r = 0, Rd - 1 do
        R.eq(out[t][r], val[apply(dst, r + Rd * t)], "%s plan %s -> %s: thread %d "
             .. "register %d", plan.kind, src:compact(), dst:compact(), t, r)
      end
    end
  end

  it("reproduces dst on random power-of-two TV layouts", function()
    local g = R.new(77)
    local count, tight = { registers = 0, shuffle = 0, shared = 0 }, 0
    for i = 1, 1000 do
      local outs = dims(g, { "dim0", "dim1" }, 2)
      local lane, warp = g:int(0, 3), g:int(0, 2)
      local src = cute.linear_layout(linear_text(g,
        { { "register", g:int(0, 2) }, { "lane", lane }, { "warp", warp } }, outs))
      local n, image = in_size(src), 0
      local dst = cute.linear_layout(linear_text(g,
        { { "register", g:int(0, 2) }, { "lane", lane }, { "warp", warp } }, outs,
        function(_, _, j, o)  -- dst holds what src holds: images under src
          if j == 1 then image = apply(src, g:int(0, n - 1)) end
          local shift = j == 1 and 0 or outs[1][2]
          return image >> shift & ((1 << o[2]) - 1)
        end))
      local ok, plan = pcall(cute.conversion_plan, src, dst)
      if ok then
        check(src, dst, plan, i)
        count[plan.kind] = count[plan.kind] + 1
        if plan.kind ~= "shared" then
          R.ok(#plan.rounds >= plan.lower_bound, "rounds below the bound")
          if #plan.rounds == plan.lower_bound then tight = tight + 1 end
        end
      else
        error(plan)
      end
    end
    assert.is_true(count.registers > 20 and count.shuffle > 20 and count.shared > 20)
    -- the greedy schedule meets the lower bound on almost every shuffle
    assert.is_true(tight >= 0.9 * (count.registers + count.shuffle))
  end)

  it("plans the SM80 mma.sync and SM90 wgmma pairs without bank conflicts",
     function()
    local groups = {}
    for _, name in ipairs(catalog.names) do
      local e = catalog[name]
      if e.kind == "mma" and name:match "^SM[89]0_" then
        local m, n, k = e.shape_mnk[1], e.shape_mnk[2], e.shape_mnk[3]
        for op, tile in pairs { A = { m, k }, B = { n, k }, C = { m, n } } do
          local ok, A = pcall(cute.to_linear, cute.layout(e[op]),
                              { tv = true, tile = tile })
          if ok and tile[1] * tile[2] <= 64 * 16 then
            local key = table.concat(tile, "x") .. "/" .. A:in_dims()[3][2]
            local g = groups[key] or { n = 0 }
            groups[key] = g
            if not g[tostring(A)] and g.n < 2 then
              g[tostring(A)], g.n = A, g.n + 1
            end
          end
        end
      end
    end
    local planned = 0
    for _, g in pairs(groups) do
      g.n = nil
      for _, src in pairs(g) do
        for _, dst in pairs(g) do
          local ok, plan = pcall(cute.conversion_plan, src, dst)
          if ok then
            check(src, dst, plan, planned)
            planned = planned + 1
            if plan.kind == "shared" then
              assert.same({ 1, 1 }, { plan.store_conflicts, plan.load_conflicts })
            else
              assert.equal(plan.lower_bound, #plan.rounds)
            end
          end
        end
      end
    end
    assert.is_true(planned > 20, planned)
  end)
end)

describe("Triton's text", function()
  it("prints as LinearLayout::toString and parses back, both forms", function()
    local A = cute.to_linear(cute.layout "((4,8),(2,2)):((32,1),(16,8))",
                             { tv = true, tile = { 16, 8 } })
    assert.equal([==[
 - register=1 -> (0, 1)
   register=2 -> (8, 0)
 - lane=1 -> (0, 2)
   lane=2 -> (0, 4)
   lane=4 -> (1, 0)
   lane=8 -> (2, 0)
   lane=16 -> (4, 0)
 - warp is a size 1 dimension
where out dims are: [dim0 (size 16), dim1 (size 8)]]==], tostring(A))
    assert.equal(A, cute.linear_layout(tostring(A)))
    assert.equal("#ttg.linear<{register = [[0, 1], [8, 0]], lane = [[0, 2], [0, 4], "
      .. "[1, 0], [2, 0], [4, 0]], warp = []}>", A:compact())
    assert.equal(A, cute.linear_layout(A:compact()))
    local g = R.new(35)
    for _ = 1, 500 do
      local B = cute.linear_layout(linear_text(g, dims(g, { "register", "lane", "warp", "block" }, 3),
                                               dims(g, { "dim0", "dim1", "dim2" }, 3)))
      R.ok(B == cute.linear_layout(tostring(B)), "round trip of %s", tostring(B))
    end
  end)

  it("reports a syntax error with its column", function()
    for _, case in ipairs {
      { " - lane=1 -> (1)\n   lane=4 -> (2)\nwhere out dims are: [x (size 4)]", "next power of two" },
      { " - lane=1 -> (1, 2)\nwhere out dims are: [x (size 4)]", "one per output dim" },
      { " - lane=1 -> (9)\nwhere out dims are: [x (size 4)]", "inside x (size 4)" },
      { "{lane = [[1], [2, 3]]}", "as many values" },
      { " - lane=1 -> (1)\nwhere out dims are: [x (size 3)]", "power-of-two size" },
    } do
      local ok, msg = pcall(cute.linear_layout, case[1])
      assert.is_false(ok)
      assert.matches('^linear_layout%(".*"%): parse error at column %d+: expected', msg)
      assert.matches(case[2], msg, 1, true)
    end
  end)

  -- found by spec/vm/test_api_monkey.c: text given to another call named
  -- linear_layout alone
  it("names the call whose argument the text was", function()
    local A = cute.to_linear(cute.layout "(4,8):(1,4)")
    for _, c in ipairs { { "conversion", 2, cute.conversion, A, "x" },
                         { "compose", 1, function() return A:compose("x") end } } do
      local ok, msg = pcall(table.unpack(c, 3))
      assert.is_false(ok)
      assert.matches("bad argument #" .. c[2] .. " to '", msg, 1, true)
      assert.matches(c[1] .. "' (linear_layout(\"x\"): parse error at column 1: expected", msg,
                     1, true)
    end
  end)
end)

describe("pictures and bank conflicts of a linear layout", function()
  it("draws register/lane/warp -> (dim0, dim1) as its TV layout over that tile",
     function()
    local tv = cute.layout "((4,8),(2,2)):((32,1),(16,8))"
    local A = cute.to_linear(tv, { tv = true, tile = { 16, 8 } })
    assert.equal(cute.render(tv, "txt", { tile = { 16, 8 } }), cute.render(A, "txt"))
    local P = cute.to_linear(cute.layout "(4,8):(8,1)")
    assert.equal(cute.render(cute.layout "(4,8):(8,1)", "txt"), cute.render(P, "txt"))
  end)

  it("analyses Triton's offset -> (dim0, dim1) form as its inverse", function()
    local smem = cute.composed(cute.swizzle(3, 3, 3), 0, cute.layout_right { 8, 64 })
    local triton = cute.to_linear(smem):invert()
    local access = cute.layout "((8,4),8):((1,64),8)"
    local opts = { bytes = 2, vec = 8 }
    assert.equal(tostring(cute.bank_conflicts(smem, access, opts)),
                 tostring(cute.bank_conflicts(triton, access, opts)))
  end)
end)

describe("examples/linear_layouts.lua", function()
  it("runs, prints both notations, draws the import, finds the swizzle", function()
    local lines, real_write = {}, io.write
    local env = setmetatable({ arg = {} }, { __index = _G })  -- no output directory
    env.print = function(...)
      local t = {}
      for i = 1, select("#", ...) do t[i] = tostring((select(i, ...))) end
      lines[#lines + 1] = table.concat(t, "\t")
    end
    io.write = function(s) lines[#lines + 1] = s end  -- the pictures' text
    local ok, err = pcall(assert(loadfile("examples/linear_layouts.lua", "t", env)))
    io.write = real_write
    assert(ok, err)
    local text = table.concat(lines, "\n")
    for _, want in ipairs {
      "CuTe:   ((4,8),(2,2)):((32,1),(16,8))",
      "   lane=16 -> (4, 0)\n - warp is a size 1 dimension\nwhere out dims are: [dim0 (size 16), dim1 (size 8)]",
      "CuTe:   ((4,8,4),(2,2,2)):((128,1,16),(64,8,512))",
      " - warp=1 -> (16, 0)\n   warp=2 -> (32, 0)",
      "back to CuTe:  Sw<3,4,3> o 0 o (16,64):(64,1)",
      "as CuTe:  ((4,8),4):((32,1),8)",
      "| T31 V3 |",
      "free masks: register 0, lane 31, warp 3",
      "conversion(mma C, transposed): shuffle",
      "imported shared layout as CuTe: Sw<5,0,5> o 0 o (32,32):(32,1)",
      "column read, Triton's form: bank conflicts of Sw<5,0,5> o 0 o (32,32):(32,1)",
      "worst 1-way",
      "binary form of Sw<3,4,3> o 0 o (8,128):(128,1): (8,128):(F144,F1)",
      "paper Table 4: ((4,8),2):((F18,F1),F9)",
      "no swizzle, binary: (2,2,2):(F3,F5,F6)",
      "conversion_plan(mma C, transposed): shuffle in 4 rounds (fewest: 4)",
    } do
      assert(text:find(want, 1, true), "the example prints " .. want)
    end
  end)
end)
