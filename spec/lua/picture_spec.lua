-- Pictures: terminal tables, SVG, HTML, TikZ (CuTe's print_latex form),
-- bank-conflict analysis, and cute.show's dispatch.  The browser test
-- (spec/browser) renders the SVG and HTML in Chromium and checks pixels.
local cute = require "cute"
local atom = require "cute.atom"
local picture = require "cute.picture"
local svg = require "cute.picture.svg"

local L = cute.layout
local C = L "((4,8),2):((16,1),8)"   -- paper Figure 6

local function count(s, pat)
  local n = 0
  for _ in s:gmatch(pat) do n = n + 1 end
  return n
end

describe("terminal pictures", function()
  it("print a layout exactly as print_layout", function()
    assert.equal(cute.format_layout(L "(4,8):(1,4)"),
      picture.render(L "(4,8):(1,4)", "txt"))
  end)

  it("print a TV layout as a table of T# V# cells (Figure 6)", function()
    local s = picture.render(C, "txt", { tile = { 8, 8 } })
    local head = [[
TV layout ((4,8),2):((16,1),8) over (8,8)
           0        1        2        3        4        5        6        7 
    +--------+--------+--------+--------+--------+--------+--------+--------+
 0  |  T0 V0 |  T0 V1 |  T1 V0 |  T1 V1 |  T2 V0 |  T2 V1 |  T3 V0 |  T3 V1 |
    +--------+--------+--------+--------+--------+--------+--------+--------+
 1  |  T4 V0 |  T4 V1 |  T5 V0 |  T5 V1 |  T6 V0 |  T6 V1 |  T7 V0 |  T7 V1 |
]]
    assert.equal(head, s:sub(1, #head))
    assert.equal(8 + 9 + 2, count(s, "\n"))
  end)

  it("print an MMA atom as its A, B and C tables", function()
    local s = picture.render("SM80_8x8x4_F64F64F64F64_TN", "txt")
    assert.truthy(s:find("C ((4,8),2):((16,1),8)\n", 1, true))
    assert.truthy(s:find("\nB\n", 1, true))
    assert.truthy(s:find(" 7  | T28 V0 | T28 V1 | T29 V0 |", 1, true))
  end)
end)

describe("TikZ pictures", function()
  it("write a layout as CuTe's print_latex does", function()
    assert.equal([[
% Layout: (2,3):(3,1)
\documentclass[convert]{standalone}
\usepackage{tikz}

\begin{document}
\begin{tikzpicture}[x={(0cm,-1cm)},y={(1cm,0cm)},every node/.style={minimum size=1cm, outer sep=0pt}]

\node[fill=black!00] at (0,0) {0};
\node[fill=black!40] at (0,1) {1};
\node[fill=black!20] at (0,2) {2};
\node[fill=black!60] at (1,0) {3};
\node[fill=black!10] at (1,1) {4};
\node[fill=black!50] at (1,2) {5};
\draw[color=black,thick,shift={(-0.5,-0.5)}] (0,0) grid (2,3);

\node at (0,-1) {\Large{\texttt{0}}};
\node at (1,-1) {\Large{\texttt{1}}};
\node at (-1,0) {\Large{\texttt{0}}};
\node at (-1,1) {\Large{\texttt{1}}};
\node at (-1,2) {\Large{\texttt{2}}};
\end{tikzpicture}
\end{document}
]], picture.render(L "(2,3):(3,1)", "tex"))
    assert.truthy(picture.render(L "4:1", "tex"):find("% Layout: (4,1):(1,0)",
      1, true))
  end)

  it("write TV cells thread by thread in the lane colours of the SVG",
     function()
    local palette = require "cute.picture.palette"
    local s = picture.render(C, "tex", { tile = { 8, 8 } })
    assert.truthy(s:find("^%% Layout TV: %(%(4,8%),2%):%(%(16,1%),8%)\n"))
    local first, second = s:match "(\\node%[[^\n]*)\n(\\node%[[^\n]*)"
    local t0 = palette.tikz(palette.thread(0))
    assert.equal("\\node[fill=" .. t0 .. "] at (0,0) "
      .. "{\\shortstack{T0 \\\\ V0}};", first)
    assert.equal("\\node[fill=" .. t0 .. "] at (0,1) "
      .. "{\\shortstack{T0 \\\\ V1}};", second)
    -- thread 8 no longer shares thread 0's colour (CuTe's 8 colours did)
    local t8 = s:match "\\node%[fill=([^%]]*)%] at %(%d+,%d+%) {\\shortstack{T8 "
    assert.equal(palette.tikz(palette.thread(8)), t8)
    assert.are_not.equal(t0, t8)
    assert.equal(64, count(s, "shortstack"))
  end)

  it("place an MMA's A at (0,-K-1) and B at (-K-1,0) as CuTe does", function()
    local palette = require "cute.picture.palette"
    local s = picture.render("SM80_8x8x4_F64F64F64F64_TN", "tex")
    assert.truthy(s:find("% LayoutC: ((4,8),2):((16,1),8)\n% LayoutA: ", 1, true))
    assert.truthy(s:find("\\node[fill=" .. palette.tikz(palette.thread(0))
      .. "] at (0,-5) {\\shortstack{T0 \\\\ V0}};", 1, true))        -- A(0,0)
    assert.truthy(s:find("] at (-5,0) {\\shortstack{T0 \\\\ V0}};", 1, true))
    assert.truthy(s:find("(0,-5) grid (8,-1);", 1, true))
    assert.truthy(s:find("(-5,0) grid (-1,8);", 1, true))
    assert.equal(64 + 32 + 32, count(s, "shortstack"))
  end)
end)

describe("SVG and HTML pictures", function()
  it("draw one rect per cell, with tooltips and labels", function()
    local s = picture.render(C, "svg", { tile = { 8, 8 } })
    assert.truthy(s:find('^<svg xmlns="http://www.w3.org/2000/svg"'))
    assert.equal(1 + 64 + 32, count(s, "<rect "))  -- page, cells, legend
    assert.truthy(s:find("<title>(1,2) T5 V0</title>", 1, true))
    assert.truthy(s:find(">T31</text>", 1, true))
  end)

  it("know where each cell lands (geometry)", function()
    local m = picture.model(C, { tile = { 8, 8 } })
    local g = svg.geometry(m, { cell = 20 })
    assert.equal(20, g.cell)
    local x0, y0 = g.rect(m.panels[1], 0, 0)
    local x1, y1 = g.rect(m.panels[1], 2, 3)
    assert.same({ x0 + 60, y0 + 40 }, { x1, y1 })
    local s = svg.render(m, { cell = 20 })
    assert.truthy(s:find(('<rect x="%d" y="%d" width="20" height="20"')
      :format(x1, y1), 1, true))
  end)

  it("make one self-contained HTML page (no network)", function()
    local s = picture.render("SM80_16x8x16_F32F16F16F32_TN", "html")
    assert.truthy(s:find("^<!DOCTYPE html>"))
    assert.truthy(s:find('data-p="C" data-m="0" data-n="0" data-t="0" '
      .. 'data-v="0"', 1, true))
    assert.is_nil(s:find("src=", 1, true))
    assert.is_nil(s:find("href=", 1, true))
    assert.is_nil(s:find("https:", 1, true))
    assert.equal(1, count(s, "http:"))  -- the SVG namespace only
  end)

  it("escape text", function()
    assert.equal("a&lt;b&amp;&quot;", svg.escape 'a<b&"')
  end)
end)

describe("bank conflicts", function()
  local rows = L "(32,32):(1,32)"     -- (t, v) -> (row t, column v)

  it("find the 32-way conflict of a column read of a row-major f32 tile",
    function()
      local r = picture.bank_conflicts(cute.layout_right { 32, 32 }, rows)
      assert.equal(32, r.worst)
      assert.equal(32 * 32, r.wavefronts)
      assert.equal(32, r.ideal)
      assert.same({ t = 5, v = 7, bank = 7, degree = 32, offset = 167 },
        r.cells[5 + 32 * 7 + 1])
      assert.equal("bank conflicts of (32,32):(32,1) under (32,32):(1,32): "
        .. "32 instructions, worst 32-way, 1024 wavefronts (32 without "
        .. "conflicts)", tostring(r))
    end)

  it("find none once the tile is swizzled (Sw<5,0,5>) or read by rows",
    function()
      local sw = cute.composed(cute.swizzle(5, 0, 5), 0,
        cute.layout_right { 32, 32 })
      assert.equal(1, picture.bank_conflicts(sw, rows).worst)
      assert.equal(1, picture.bank_conflicts(cute.layout_right { 32, 32 },
        L "(32,32):(32,1)").worst)
    end)

  it("count 16-byte accesses in phases of 8 threads", function()
    -- f16 (8,64) row-major, thread t reads 8 halves of row t % 8 at column
    -- block t / 8: without swizzle 8 rows of 128 bytes alias the banks.
    local access = L "((8,8),8):((1,64),8)"
    local plain = picture.bank_conflicts(cute.layout_right { 8, 64 }, access,
      { bytes = 2, vec = 8 })
    assert.equal(8, plain.worst)
    local sw = cute.composed(cute.swizzle(3, 3, 3), 0, cute.layout_right { 8, 64 })
    local good = picture.bank_conflicts(sw, access, { bytes = 2, vec = 8 })
    assert.equal(1, good.worst)
    assert.equal(8, good.wavefronts)   -- 2 warps x 4 phases of 8 threads
  end)

  it("mark conflicted cells in pictures", function()
    local r = picture.bank_conflicts(cute.layout_right { 32, 32 }, rows)
    local s = picture.render(r, "svg")
    -- the tile's 1024 cells and the worst phase's 32 words of bank 0
    assert.equal(32 * 32 + 32, count(s, 'stroke="#d00000"'))
    assert.truthy(picture.render(r, "txt"):find("|  7! |", 1, true))
  end)
end)

describe("cute.show", function()
  local dir = os.tmpname()
  os.remove(dir)

  it("writes the format its path names and returns the path", function()
    for _, ext in ipairs { "svg", "html", "tex", "txt" } do
      local path = dir .. "." .. ext
      assert.equal(path, picture.show("(4,8):(1,4)", path))
      local f = assert(io.open(path))
      local s = f:read "a"
      f:close()
      os.remove(path)
      assert.equal(picture.render(L "(4,8):(1,4)", ext), s)
    end
  end)

  it("draws tiled MMAs and tiled copies", function()
    local mma = atom.make_tiled_mma("SM80_16x8x16_F32F16F16F32_TN", L "(2,1,1)")
    local m = picture.model(mma)
    assert.same({ "A", "B", "C" }, { m.panels[1].name, m.panels[2].name,
      m.panels[3].name })
    assert.same({ 32, 8 }, { m.panels[3].rows, m.panels[3].cols })
    local tc = atom.make_tiled_copy(atom.copy_atom("UniversalCopy<uint128_t>",
      "f16"), cute.layout_right { 4, 8 }, L "(1,8)")
    m = picture.model(tc)
    assert.same({ "S", "D" }, { m.panels[1].name, m.panels[2].name })
    assert.same({ "T1", "V0" }, m.panels[1].cells[9].text)
  end)

  it("names what it cannot draw or write", function()
    assert.has_error(function() picture.show(42, "x.svg") end,
      "show: cannot draw number (a layout, TV layout with opts.tile, MMA "
      .. "atom, tiled MMA, tiled copy, cute.operation or bank_conflicts "
      .. "result)")
    assert.has_error(function() picture.show(C, "x.png") end,
      'show: cannot tell the picture format of "x.png" (use .svg, .html, '
      .. '.tex or .txt, or opts.format)')
    assert.has_error(function() picture.show("SM75_U32x4_LDSM_N", "x.svg") end,
      "show: SM75_U32x4_LDSM_N is a copy atom: draw a tiled copy of it "
      .. "(cute.make_tiled_copy)")
    -- a rank-3 layout draws (one panel per coordinate of mode 2)
    assert.truthy(picture.render(L "(2,2,2)", "svg"):find("(_,_,1)", 1, true))
    assert.has_error(function() picture.render(C, "svg", { tile = 8 }) end,
      "render(((4,8),2):((16,1),8)): a TV layout needs its tile shape {M, N} "
      .. "(opts.tile)")
    -- options: known keys, values that fit (each was ignored or ended in a
    -- Lua error inside the stdlib)
    local A = L "(4,8):(1,4)"
    for _, case in ipairs {
      { { cell = -5 }, "render: opts.cell must be an integer in 1..1000 (pixels), got -5" },
      { { cell = 1e300 }, "render: opts.cell must be an integer in 1..1000 (pixels), got 1e+300" },
      { { color = "rainbow" }, 'render: opts.color must be "bank" or "chunk", got "rainbow"' },
      { { bytes = 0, color = "bank" }, "render: opts.bytes must be an integer in 1..128, got 0" },
      { { colour = "bank" }, "render: unknown option colour (tile, data, title, "
        .. "format, cell, color, bytes, highlight, interactive)" } } do
      assert.has_error(function() picture.render(A, "svg", case[1]) end, case[2])
    end
  end)
end)
