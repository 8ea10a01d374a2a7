-- The pictures' explaining features, from their definitions: TV pictures
-- mark every change of warp (and warp group) between neighbouring cells
-- and carry the lane legend; layouts coloured by bank or 16-byte chunk;
-- layouts of any rank; pictures of operations whose result cells name
-- the operand cells they come from.
local cute = require "cute"
local err = require "helpers.err"
local picture = require "cute.picture"
local svg = require "cute.picture.svg"
local palette = require "cute.picture.palette"

local function count(s, pat)
  return select(2, s:gsub(pat, ""))
end

describe("TV pictures", function()
  local mma = cute.make_tiled_mma(cute.mma_atom "SM80_16x8x16_F32F16F16F32_TN",
                                  { 4, 2, 1 })

  it("draw a line exactly where neighbouring cells change warp", function()
    local m = picture.model(mma, {})
    local want = { warp = 0, group = 0 }
    for _, p in ipairs(m.panels) do
      for r = 0, p.rows - 1 do
        for c = 0, p.cols - 1 do
          local a = p.cells[r * p.cols + c + 1]
          for _, nb in ipairs { c + 1 < p.cols and p.cells[r * p.cols + c + 2],
                                r + 1 < p.rows and p.cells[(r + 1) * p.cols + c + 1] } do
            if nb and a.w and nb.w and a.w ~= nb.w then
              local k = a.t // 128 ~= nb.t // 128 and "group" or "warp"
              want[k] = want[k] + 1
            end
            if nb and a.w then assert.equal(a.t // 32, a.w) end
          end
        end
      end
    end
    assert.is_true(want.warp > 0 and want.group > 0)
    local s = svg.render(m)
    assert.equal(want.warp, count(s, 'class="warp"'))
    assert.equal(want.group, count(s, 'class="group"'))
  end)

  it("colour threads by lane, name their axes and show the lane legend",
     function()
    local m = picture.model(mma, {})
    for _, p in ipairs(m.panels) do
      for _, cell in pairs(p.cells) do
        if cell.t then assert.equal(palette.thread(cell.t % 32), cell.fill) end
      end
    end
    assert.same({ "M", "K" }, m.panels[1].axes)
    assert.same({ "K", "N" }, m.panels[2].axes)
    assert.same({ "M", "N" }, m.panels[3].axes)
    assert.equal(32, #m.legend)
    local s = svg.render(m)
    assert.equal(32, count(s, 'class="legend"'))
    assert.equal(6, count(s, 'class="axis"'))
  end)

  -- CIE76 distance of two "#rrggbb" fills (sRGB, D65).
  local function lab(fill)
    local c = {}
    for h in fill:gmatch "%x%x" do
      local u = tonumber(h, 16) / 255
      c[#c + 1] = u <= 0.04045 and u / 12.92 or ((u + 0.055) / 1.055) ^ 2.4
    end
    local x = (0.4124 * c[1] + 0.3576 * c[2] + 0.1805 * c[3]) / 0.95047
    local y = 0.2126 * c[1] + 0.7152 * c[2] + 0.0722 * c[3]
    local z = (0.0193 * c[1] + 0.1192 * c[2] + 0.9505 * c[3]) / 1.08883
    local function f(t) return t > 0.008856 and t ^ (1 / 3) or 7.787 * t + 16 / 116 end
    return 116 * f(y) - 16, 500 * (f(x) - f(y)), 200 * (f(y) - f(z))
  end
  local function distance(a, b)
    local l1, a1, b1 = lab(a)
    local l2, a2, b2 = lab(b)
    return math.sqrt((l1 - l2) ^ 2 + (a1 - a2) ^ 2 + (b1 - b2) ^ 2)
  end

  it("give neighbouring lanes clearly distinct colours, text readable",
     function()
    -- lanes 1, 2, 3, 4, 8 and 16 apart (mod 32) are the neighbours of MMA,
    -- copy and TV pictures: at least 30 apart (CIE76); all 32 distinct
    for t = 0, 31 do
      for _, d in ipairs { 1, 2, 3, 4, 8, 16 } do
        local a, b = palette.thread(t), palette.thread((t + d) % 32)
        assert.is_true(distance(a, b) >= 30, ("lanes %d and %d: %s %s %.1f")
          :format(t, (t + d) % 32, a, b, distance(a, b)))
      end
      for u = t + 1, 31 do
        assert.are_not.equal(palette.thread(t), palette.thread(u))
      end
      assert.equal(palette.thread(t), palette.thread(t + 32))
      assert.equal("#000000", palette.ink(palette.thread(t)))
    end
    -- the 8 chunks of 16 bytes: neighbours as far apart, all distinct
    for c = 0, 7 do
      local a, b = palette.chunk(c), palette.chunk((c + 1) % 8)
      assert.is_true(distance(a, b) >= 30, ("chunks %d, %d"):format(c, c + 1))
      for u = c + 1, 7 do
        assert.are_not.equal(palette.chunk(c), palette.chunk(u))
      end
    end
  end)

  it("is the one palette of SVG, HTML and TikZ", function()
    local function lit(x) return (x:gsub("%p", "%%%0")) end
    local atom = cute.mma_atom "SM80_16x8x16_F32F16F16F32_TN"
    local m = picture.model(atom, {})
    local tex = picture.render(atom, "tex")
    local html = picture.render(atom, "html")
    for _, p in ipairs(m.panels) do
      for _, cell in pairs(p.cells) do
        if cell.t then
          assert.truthy(tex:find(lit("\\node[fill="
            .. palette.tikz(palette.thread(cell.t)) .. "] at (")
            .. "%-?%d+,%-?%d+" .. lit((") {\\shortstack{T%d \\\\ V%d}}")
            :format(cell.t, cell.v))), "TikZ T" .. cell.t)
          assert.truthy(html:find(lit(('fill="%s" stroke="#444" stroke-width='
            .. '"0.5" data-p="%s" data-m="%d" data-n="%d" data-t="%d"')
            :format(palette.thread(cell.t), p.name, cell.m, cell.n, cell.t))),
            "HTML T" .. cell.t)
        end
      end
    end
  end)

  it("choose cells large enough for their labels on 64xN atoms", function()
    local m = picture.model(cute.mma_atom "SM90_64x16x16_F16F16F16_SS", {})
    local g = svg.geometry(m)
    assert.is_true(g.cell >= 24, "cell " .. g.cell)
    assert.truthy(svg.render(m):find(">T127</text>", 1, true))
  end)
end)

describe("layouts coloured by bank or chunk", function()
  local S = cute.layout "Sw<3,4,3> o 0 o (8,64):(64,1)"
  it("fill each cell with its offset's bank (or 16-byte chunk)", function()
    for _, bytes in ipairs { 2, 4 } do
      local mb = picture.model(S, { color = "bank", bytes = bytes })
      local mc = picture.model(S, { color = "chunk", bytes = bytes })
      for r = 0, 7 do
        for c = 0, 63 do
          local o = S(r, c)
          local cell = mb.panels[1].cells[r * 64 + c + 1]
          assert.equal((o * bytes // 4) % 32, cell.b)
          assert.equal(palette.bank((o * bytes // 4) % 32), cell.fill)
          assert.equal(palette.chunk((o * bytes // 16) % 8),
                       mc.panels[1].cells[r * 64 + c + 1].fill)
        end
      end
      assert.equal(32, #mb.legend)
      assert.equal(8, #mc.legend)
    end
  end)
end)

describe("layouts of any rank", function()
  it("draw one (mode 0, mode 1) panel per coordinate of the other modes",
     function()
    for _, text in ipairs { "(2,3,2):(1,2,6)", "(2,2,(2,3)):(1,2,(4,8))",
                            "(3,1,2,2):(1,0,3,6)" } do
      local L = cute.layout(text)
      local s = L:shape()
      local rest = { table.unpack(s, 3) }
      local m = picture.model(L, {})
      assert.equal(cute.size(rest), #m.panels)
      for k, p in ipairs(m.panels) do
        local crd = cute.idx2crd(k - 1, rest)
        for r = 0, p.rows - 1 do
          for c = 0, p.cols - 1 do
            assert.equal(tostring(L(r, c, table.unpack(crd))),
                         p.cells[r * p.cols + c + 1].o)
          end
        end
      end
      assert.truthy(picture.render(L, "txt"):find("(_,_,", 1, true))
    end
  end)
end)

describe("pictures of operations", function()
  it("link each result cell of a composition to B(i) and A(B(i))", function()
    local rng = 7
    local function rand(n) rng = (rng * 1103515245 + 12345) % 2147483648 return rng % n end
    local tried = 0
    while tried < 200 do
      local A = cute.layout({ rand(4) + 1, rand(4) + 1 }, { rand(5), rand(9) })
      local B = cute.layout({ rand(3) + 1, rand(3) + 1 }, { rand(3), rand(4) })
      local ok, op = pcall(cute.operation, "composition", A, B)
      if ok and cute.cosize(B) <= cute.size(A) then
        tried = tried + 1
        local m = picture.model(op, {})
        local pA, pB, pR = m.panels[1], m.panels[2], m.panels[3]
        for _, cell in pairs(pR.cells) do
          local i, b = cell.i, B(cell.i)
          local want = ("B:%d,%d A:%d,%d"):format(i % pB.rows, i // pB.rows,
            b % pA.rows, b // pA.rows)
          assert.equal(want, cell.link)
          assert.equal(tostring(A(b)), cell.o)
        end
      end
    end
  end)

  it("link the cells of a divide or product by offset", function()
    local A = cute.layout "(4,8):(1,4)"
    for _, name in ipairs { "logical_divide", "zipped_divide",
                            "blocked_product", "raked_product" } do
      local op = cute.operation(name, A, cute.layout "(2,2):(1,2)")
      local m = picture.model(op, {})
      local pA, pR = m.panels[1], m.panels[#m.panels]
      for _, cell in pairs(pR.cells) do
        for ref in cell.link:gmatch("%S+") do
          local r, c = ref:match("^A:(%d+),(%d+)$")
          assert.equal(cell.o, pA.cells[tonumber(r) * pA.cols + tonumber(c) + 1].o)
        end
      end
    end
    assert.equal("logical_divide((4,8):(1,4), 2) = (2,16):(1,2)",
                 tostring(cute.operation("logical_divide", A, 2)))
  end)

  it("refuse what is not an operation of cute", function()
    assert.has_error(function() cute.operation("nope", 1) end,
      "operation: nope is not a function of cute (composition, "
      .. "logical_divide, blocked_product, ...)")
    assert.has_error(function() cute.operation("size", cute.layout "4:1") end,
      "operation: size returns a number, not a layout to draw")
  end)

  -- it called print_layout, which printed, and then refused its nil
  it("refuse a function that writes, before it writes anything", function()
    local written, write, print0 = {}, io.write, print
    io.write = function(...) written[#written + 1] = table.concat {...} end
    print = function(...) written[#written + 1] = table.concat {...} end
    local ok, msg = pcall(cute.operation, "print_layout", cute.layout "(4,8):(1,4)")
    local ok2, msg2 = pcall(cute.operation, "show", cute.layout "4:1")
    io.write, print = write, print0
    assert.is_false(ok)
    assert.equal("operation: print_layout writes its output and returns no "
      .. "result (format_layout returns it)", msg)
    assert.is_false(ok2)
    assert.equal("operation: show writes its output and returns no result "
      .. "(render returns it)", msg2)
    assert.same({}, written)
  end)

  -- a C function's argument error named operation.lua's local `f`, at
  -- that file's line
  it("name the call an argument error comes from", function()
    local msg = err(cute.operation, "composition", cute.layout "4:1", "x")
    assert.equal("operation: bad argument #2 to 'cute.composition' (cute.Layout "
      .. "or integer expected, got string)", msg)
  end)
end)

describe("bank_conflicts", function()
  local mma = cute.make_tiled_mma(cute.mma_atom "SM80_16x8x16_F32F16F16F32_TN",
                                  { 1, 1, 1 })
  local copy = cute.make_tiled_copy_A(cute.copy_atom("SM75_U32x4_LDSM_N", "f16"),
                                      mma)
  local smem = cute.layout_right { 16, 16 }

  it("takes a tiled copy: its source TV layout, 16-byte ldmatrix rows",
     function()
    local direct = cute.bank_conflicts(smem, copy:get_layoutS_TV(),
                                       { vec = 8, bytes = 2 })
    local r = cute.bank_conflicts(smem, copy)
    assert.equal(direct.worst, r.worst)
    assert.equal(direct.wavefronts, r.wavefronts)
    -- 8 rows of 32 bytes per phase: rows r and r + 4 share banks
    assert.equal(2, r.worst)
    local sw = cute.composed(cute.swizzle(1, 3, 3), 0, smem)
    assert.equal(1, cute.bank_conflicts(sw, copy).worst)
  end)

  it("refuses accesses outside the tile and rank-3 partitions", function()
    assert.has_error(function()
      cute.bank_conflicts(cute.layout_right { 4, 4 }, cute.layout "(32,1):(1,1)")
    end, "bank_conflicts: the access pattern (32,1):(1,1) sends thread 16 "
      .. "value 0 to tile index 16, outside the 4x4 tile of (4,4):(4,1)")
    assert.has_error(function()
      cute.bank_conflicts(cute.layout_right { 32, 32 },
                          cute.layout "(32,2,2):(1,32,64)")
    end, "bank_conflicts: the access pattern (32,2,2):(1,32,64) has rank 3, "
      .. "not a (thread, value) layout: group the value modes first, "
      .. "cute.group_modes(access, 1, 3)")
    local grouped = cute.group_modes(cute.layout "(32,2,2):(1,32,64)", 1, 3)
    assert.equal(32, cute.bank_conflicts(cute.layout_right { 32, 32 },
                                         grouped).worst)
  end)

  it("refuses a rank-3 shared-memory layout, naming the fix", function()
    assert.has_error(function()
      cute.bank_conflicts(cute.layout "(4,4,2):(8,1,4)", cute.layout "(32,1):(1,0)")
    end, "bank_conflicts: the shared-memory layout (4,4,2):(8,1,4) has rank "
      .. "3, not a (row, col) tile: group its column modes first, "
      .. "cute.group_modes(smem, 1, 3)")
  end)

  it("counts ldmatrix and stmatrix in phases of one 8x8 matrix each, on "
    .. "the shared-memory side", function()
    for _, x in ipairs { { "1", 1 }, { "2", 2 }, { "4", 4 } } do
      for _, op in ipairs { "SM75_U32x%s_LDSM_N", "SM90_U32x%s_STSM_N" } do
        local name = op:format(x[1])
        local c = cute.make_tiled_copy_A(cute.copy_atom(name, "f16"), mma)
        local r = cute.bank_conflicts(smem, c)
        -- stmatrix writes smem: its destination side; ldmatrix its source
        local tv = name:match "STSM" and c:get_layoutD_TV() or c:get_layoutS_TV()
        assert.equal(tostring(tv), tostring(r.access), name)
        assert.equal(8, r.vec)
        assert.equal(2, r.bytes)
        for _, ins in ipairs(r.instructions) do
          assert.equal(x[2], #ins.degrees, name)
        end
        assert.equal(2, r.worst, name)
        local sw = cute.composed(cute.swizzle(1, 3, 3), 0, smem)
        assert.equal(1, cute.bank_conflicts(sw, c).worst, name)
      end
    end
    -- the side can be chosen; an unknown one is refused
    local st = cute.make_tiled_copy_A(cute.copy_atom("SM90_U32x4_STSM_N",
      "f16"), mma)
    assert.equal(tostring(st:get_layoutS_TV()),
      tostring(cute.bank_conflicts(smem, st, { side = "S" }).access))
    assert.has_error(function() cute.bank_conflicts(smem, st, { side = "X" }) end,
      'bank_conflicts: opts.side must be "S" or "D", got "X"')
  end)

  -- seeded random swizzled tiles and access patterns
  local seed = 7
  local function rand(n)   -- the high bits: an LCG's low bits cycle
    seed = (seed * 1103515245 + 12345) % 2147483648
    return seed // 65536 % n
  end

  it("records the worst phase: its words by bank, from the definition",
     function()
    local checked, worst = 0, {}
    for _ = 1, 60 do
      local B, S = rand(4), rand(3)
      local tile = cute.layout_right { 32, 32 }
      local sm = B > 0 and cute.composed(cute.swizzle(B, S, 5 - S > B and 5 - S
        or B), 0, tile) or tile
      local access = cute.layout({ 32, 32 }, { rand(2) == 0 and 1 or 32,
                                               rand(2) == 0 and 32 or 1 })
      local ok, r = pcall(cute.bank_conflicts, sm, access)
      if ok then
        checked = checked + 1
        local ph = r.worst_phase
        local words = {}
        for _, a in ipairs(ph.accesses) do
          assert.equal(sm(a.idx % 32, a.idx // 32), a.off)
          assert.equal(a.off, a.word)           -- 4-byte elements
          assert.equal(a.word % 32, a.bank)
          words[a.bank] = words[a.bank] or {}
          words[a.bank][a.word] = true
        end
        local most = 0
        for bank, ws in pairs(words) do
          local n = 0
          for _ in pairs(ws) do n = n + 1 end
          most = math.max(most, n)
          for _, a in ipairs(ph.accesses) do
            if a.bank == bank then assert.equal(n, a.degree) end
          end
        end
        assert.equal(r.worst, most)
        -- the picture: one column per bank, a row per distinct word, each
        -- cell a thread reading that word, linked to its tile cell
        local m = picture.model(r)
        local p = m.panels[2]
        assert.equal("phase", p.name)
        assert.same({ r.worst > 2 and "word" or false, "bank" }, p.axes)
        assert.equal(math.max(1, r.worst), p.rows)
        assert.equal(32, p.cols)
        local shown = 0
        for _, cell in pairs(p.cells) do
          if cell.t then
            shown = shown + 1
            assert.equal(cell.n, cell.b)
            assert.equal(palette.thread(cell.t), cell.fill)
            assert.truthy(words[cell.b][tonumber(cell.o)])
            local mm, nn = cell.link:match "^smem:(%d+),(%d+)$"
            assert.equal(tonumber(cell.o), sm(tonumber(mm), tonumber(nn)))
          end
        end
        local distinct = 0
        for _, ws in pairs(words) do for _ in pairs(ws) do distinct = distinct + 1 end end
        assert.equal(distinct, shown)
        assert.equal(ph.threads[2] - ph.threads[1] + 1, #m.legend)
        worst[r.worst] = true
      end
    end
    local seen = {}
    for w in pairs(worst) do seen[#seen + 1] = w end
    table.sort(seen)
    assert.is_true(checked >= 30 and worst[1] and worst[32], "checked "
      .. checked .. ", worst " .. table.concat(seen, " "))
  end)
end)
