-- spec/browser/pictures.lua OUT -- writes the pictures the browser test
-- renders (layouts, TV layouts with warp lines and a legend, bank
-- conflicts with their worst phase, swizzles by bank and by 16-byte chunk,
-- MMA atoms, an operation, a 3-D layout),
-- a list of screenshots to take (OUT/shots.txt: page, png,
-- width, height, address suffix) and the pixels to check in them
-- (OUT/probes.json, read by check_png.py).  Where a cell lands comes from
-- the SVG renderer's own geometry; what colour it must have comes from
-- the model (a thread's colour, a bank's colour, the conflict frame, the
-- HTML highlight), so the test checks that the browser draws what the
-- picture says, and that the page's script runs.
local cute = require "cute"
local atom = require "cute.atom"
local picture = require "cute.picture"
local svg = require "cute.picture.svg"
local palette = require "cute.picture.palette"

local out = assert(arg[1], "usage: pictures.lua OUT")
local shots, probes = {}, {}

local function write(name, text)
  local f = assert(io.open(out .. "/" .. name, "w"))
  f:write(text)
  f:close()
end

-- One picture: written as `name`, shot as png (through `suffix`, an
-- address fragment); checks(g, model) returns the pixels to check.
local function shot(name, png, obj, opts, suffix, checks)
  local m = picture.model(obj, opts)
  local g = svg.geometry(m, opts)
  write(name, picture.render(obj, name:match "%.(%w+)$", opts))
  local w, h = math.max(400, g.width + 16), math.max(300, g.height + 16)
  shots[#shots + 1] = ("%s %s %d %d %s"):format(name, png, w, h, suffix or "")
  probes[#probes + 1] = { png = png, checks = checks(g, m, h) }
end

-- A pixel `inset` pixels into cell (r, c) of panel p (inside its fill,
-- clear of the grid line and of the centred text).
local function at(g, p, r, c, inset)
  local x, y = g.rect(p, r, c)
  return x + (inset or 3), y + (inset or 3)
end

local function is(x, y, colour, what)
  return { x = x, y = y, rgb = colour, what = what }
end

local function isnt(x, y, colour, what)
  return { x = x, y = y, ["not"] = colour, what = what }
end

-- 1. The paper's Figure 6 as an SVG: one colour per thread.
shot("fig6.svg", "fig6.png", cute.layout "((4,8),2):((16,1),8)",
  { tile = { 8, 8 }, cell = 40 }, nil, function(g, m)
    local p = m.panels[1]
    local c = {}
    for _, x in ipairs { { 0, 0, 0 }, { 0, 1, 0 }, { 0, 2, 1 }, { 1, 2, 5 },
                         { 7, 7, 31 } } do
      local px, py = at(g, p, x[1], x[2])
      c[#c + 1] = is(px, py, palette.thread(x[3]),
        ("cell (%d,%d) is thread %d's"):format(x[1], x[2], x[3]))
    end
    return c
  end)

-- 2. The 256 threads of examples/tiled_mma_partition.lua over the
-- 128 x 128 C tile: thread 0's four blocks share its colour; its
-- neighbours differ.
local perm = cute.layout "(16,4):(4,1)"
local fma = atom.make_tiled_mma("UniversalFMA", cute.layout_right { 16, 16, 1 },
  { perm, perm })
shot("tiled_mma_partition.svg", "tiled_mma_partition.png",
  fma:get_layoutC_TV { 128, 128 },
  { tile = { 128, 128 }, data = cute.layout_right { 128, 128 }, cell = 6 }, nil,
  function(g, m)
    local p, c = m.panels[1], {}
    for _, rc in ipairs { { 0, 0 }, { 3, 3 }, { 64, 0 }, { 3, 64 }, { 67, 67 } } do
      local x, y = at(g, p, rc[1], rc[2])
      c[#c + 1] = is(x, y, palette.thread(0),
        ("(%d,%d) belongs to thread 0"):format(rc[1], rc[2]))
    end
    local x, y = at(g, p, 0, 4)
    c[#c + 1] = is(x, y, palette.thread(1), "(0,4) belongs to thread 1")
    c[#c + 1] = isnt(x, y, palette.thread(0), "(0,4) is not thread 0's")
    x, y = at(g, p, 4, 0)
    c[#c + 1] = is(x, y, palette.thread(16), "(4,0) belongs to thread 16")
    return c
  end)

-- 3. Bank conflicts: a column read of a row-major f32 tile conflicts
-- 32 ways (red frames); the Sw<5,0,5> swizzle removes them.
local smem = cute.layout_right { 32, 32 }
local rows = cute.layout "(32,32):(1,32)"
local function banks(name, layout, conflicted)
  local r = picture.bank_conflicts(layout, rows)
  assert(#r.worst_phase.accesses == 32, "a phase of 32 threads")
  shot(name .. ".svg", name .. ".png", r, { cell = 24 }, nil, function(g, m)
    local p, c = m.panels[1], {}
    for _, rc in ipairs { { 0, 0 }, { 5, 7 }, { 31, 31 } } do
      local cell = r.cells[rc[1] + 32 * rc[2] + 1]
      local x, y = at(g, p, rc[1], rc[2], 2)
      local what = ("(%d,%d) bank %d"):format(rc[1], rc[2], cell.bank)
      if conflicted then
        c[#c + 1] = is(x, y, palette.conflict, what .. ": framed in red")
      else
        c[#c + 1] = is(x, y, palette.bank(cell.bank), what .. ": no frame")
      end
      x, y = at(g, p, rc[1], rc[2], 6)
      c[#c + 1] = is(x, y, palette.bank(cell.bank), what .. ": bank colour")
    end
    -- the worst phase below: column = bank, row = wavefront, each word's
    -- thread in its lane colour (framed when the bank conflicts)
    local ph = m.panels[2]
    for _, a in ipairs { r.worst_phase.accesses[1], r.worst_phase.accesses[6],
                         r.worst_phase.accesses[32] } do
      local k
      for key, cell in pairs(ph.cells) do
        if cell.t == a.t and cell.v == a.v then k = key end
      end
      local row, col = (k - 1) // ph.cols, (k - 1) % ph.cols
      assert(col == a.bank, "phase cell in its bank's column")
      local x, y = at(g, ph, row, col, 2)
      local what = ("worst phase: T%d at wavefront %d of bank %d"):format(a.t,
        row, col)
      c[#c + 1] = is(x, y, conflicted and palette.conflict or palette.thread(a.t),
        what .. (conflicted and ": framed in red" or ": no frame"))
      -- past the frame (3 px), left of the two-line label
      x, y = at(g, ph, row, col, 4)
      c[#c + 1] = is(x, y, palette.thread(a.t), what .. ": lane colour")
    end
    for i, lane in ipairs { 0, 5, 31 } do
      local sx = g.pad + (lane % g.per_row) * (g.swatch + 4) + 3
      local sy = g.legend_top + 18 + (lane // g.per_row) * (g.swatch + 4) + 3
      c[#c + 1] = is(sx, sy, palette.thread(lane), "legend: lane " .. lane
        .. " of the worst phase (" .. i .. ")")
    end
    return c
  end)
  return r
end
local conflicted = banks("banks", smem, true)
banks("banks_swizzled", cute.composed(cute.swizzle(5, 0, 5), 0, smem), false)

-- 3b. The bank-conflict page, selecting the worst phase's word of T5
-- (wavefront 5 of bank 0) from the address: it and its tile cell (5,0)
-- light up.
shot("banks.html", "banks_selected.png", conflicted, { cell = 24 },
  "#p=phase&m=5&n=0", function(g, m, h)
    local tile, ph, c = m.panels[1], m.panels[2], {}
    local x, y = at(g, ph, 5, 0, 4)
    c[#c + 1] = is(x, y, palette.highlight, "phase (5,0) selected")
    x, y = at(g, tile, 5, 0, 6)
    c[#c + 1] = is(x, y, palette.highlight, "its tile cell (5,0) lit")
    x, y = at(g, tile, 6, 0, 6)
    c[#c + 1] = is(x, y, palette.bank(0), "tile cell (6,0) not lit")
    c[#c + 1] = is(4, h - 4, "#222222", "the hover bar shows")
    return c
  end)

-- 4. An MMA atom as an HTML page, selecting C(0,0) from the address: the
-- script highlights thread 0's cells of C and shows the bar.
local sm80 = atom.mma_atom "SM80_16x8x16_F32F16F16F32_TN"
local function page(png, suffix, selected)
  shot("mma.html", png, sm80, { cell = 32 }, suffix, function(g, m, h)
    local C, A = m.panels[3], m.panels[1]
    local c = {}
    local x, y = at(g, C, 0, 1)
    c[#c + 1] = is(x, y, selected and palette.highlight or palette.thread(0),
      "C(0,1) is T0 V1" .. (selected and ", highlighted" or ""))
    x, y = at(g, C, 0, 2)
    c[#c + 1] = is(x, y, palette.thread(1), "C(0,2) is T1, not highlighted")
    x, y = at(g, A, 0, 0)
    c[#c + 1] = is(x, y, palette.thread(0), "A(0,0) T0 V0: another panel")
    c[#c + 1] = (selected and is or isnt)(4, h - 4, "#222222",
      "the hover bar " .. (selected and "shows" or "is hidden"))
    return c
  end)
end
page("mma.png", nil, false)
page("mma_selected.png", "#p=C&m=0&n=0", true)

-- 5. A TV picture of 256 threads (a tiled MMA of 8 warps, two warp
-- groups): lanes coloured, lines where the warp changes (thin) and where
-- the warp group changes (thick), the lane legend below.
local big = cute.make_tiled_mma(sm80, { 4, 2, 1 })
shot("warps.svg", "warps.png", big, {}, nil, function(g, m)
  local C, c = m.panels[3], {}
  assert(g.cell >= 24, "TV cells large enough for their labels, got "
    .. g.cell)
  -- a vertical edge between horizontally adjacent cells of C whose warps
  -- differ; its warp group decides the line
  local function edge_probe(group)
    for r = 0, C.rows - 1 do
      for col = 0, C.cols - 2 do
        local a, b = C.cells[r * C.cols + col + 1], C.cells[r * C.cols + col + 2]
        if a.w ~= b.w and ((a.t // 128 ~= b.t // 128) == group) then
          local x, y = g.rect(C, r, col)
          return x + g.cell, y + g.cell // 2 - 5, a, b
        end
      end
    end
  end
  for _, group in ipairs { false, true } do
    local x, y, a, b = edge_probe(group)
    if x then
      c[#c + 1] = is(x, y, group and palette.group_line or palette.warp_line,
        ("the line between T%d and T%d (%s)"):format(a.t, b.t,
          group and "warp groups" or "warps"))
    end
  end
  local x, y = at(g, C, 0, 0)
  c[#c + 1] = is(x, y, palette.thread(0), "C(0,0) in lane 0's colour")
  for _, lane in ipairs { 0, 1, 31 } do
    local sx = g.pad + (lane % g.per_row) * (g.swatch + 4) + 3
    local sy = g.legend_top + 18 + (lane // g.per_row) * (g.swatch + 4) + 3
    c[#c + 1] = is(sx, sy, palette.thread(lane), "legend swatch of lane " .. lane)
  end
  return c
end)

-- 6. A swizzled shared-memory tile, Sw<3,4,3> over 8 rows of 64 f16,
-- coloured by bank (4 bytes) and by 16-byte chunk (8 halves): each cell
-- in the colour of its offset's bank or chunk; the XOR moves whole
-- chunks, row 2 starting with chunk 2.
local sw_smem = cute.layout "Sw<3,4,3> o 0 o (8,64):(64,1)"
assert(sw_smem(2, 0) * 2 // 16 % 8 == 2, "the XOR of row 2")
for _, by in ipairs { { "bank", 4, 32, palette.bank },
                      { "chunk", 16, 8, palette.chunk } } do
  local what, bytes, count, fill = table.unpack(by)
  shot("swizzle_" .. what .. "s.svg", "swizzle_" .. what .. "s.png", sw_smem,
    { color = what, bytes = 2, cell = 16 }, nil, function(g, m)
      local p, c = m.panels[1], {}
      for _, rc in ipairs { { 0, 0 }, { 1, 0 }, { 1, 8 }, { 2, 0 }, { 2, 16 },
                            { 7, 63 } } do
        local o = sw_smem(rc[1], rc[2])
        local k = (o * 2 // bytes) % count
        local x, y = at(g, p, rc[1], rc[2], 2)
        c[#c + 1] = is(x, y, fill(k), ("(%d,%d) offset %d is in %s %d")
          :format(rc[1], rc[2], o, what, k))
      end
      return c
    end)
end

-- 7. A picture of an operation (HTML): composition (6,2):(8,2) o
-- (4,3):(3,1), selecting R(1,0) from the address lights it, B's cell of
-- the same index and A's cell B(index).
local op = cute.operation("composition", cute.layout "(6,2):(8,2)",
  cute.layout "(4,3):(3,1)")
shot("operation.html", "operation.png", op, { cell = 32 }, "#p=R&m=1&n=0",
  function(g, m)
    local A, B, R = m.panels[1], m.panels[2], m.panels[3]
    local c = {}
    local i = 1                        -- R(1,0) is index 1
    local b = op.args[2](i)            -- B(1) = 3
    local x, y = at(g, R, 1, 0)
    c[#c + 1] = is(x, y, palette.highlight, "R(1,0) selected")
    x, y = at(g, B, i % B.rows, i // B.rows)
    c[#c + 1] = is(x, y, palette.highlight, "B's cell 1 lit")
    x, y = at(g, A, b % A.rows, b // A.rows)
    c[#c + 1] = is(x, y, palette.highlight, ("A's cell %d = B(1) lit"):format(b))
    x, y = at(g, R, 0, 1)
    c[#c + 1] = is(x, y, R.cells[0 * R.cols + 1 + 1].fill,
      "R(0,1) keeps its colour")
    x, y = at(g, A, 0, 0)
    c[#c + 1] = isnt(x, y, palette.highlight, "A(0,0) not lit")
    return c
  end)

-- 8. A 3-D layout: one panel per coordinate of mode 2.
local L3 = cute.layout "(2,3,2):(1,2,6)"
shot("rank3.svg", "rank3.png", L3, { cell = 32 }, nil, function(g, m)
  local c = {}
  assert(#m.panels == 2, "two panels")
  for k = 0, 1 do
    local x, y = at(g, m.panels[k + 1], 1, 2)
    c[#c + 1] = is(x, y, palette.offset(L3(1, 2, k)),
      ("panel %d cell (1,2) shows offset %d"):format(k, L3(1, 2, k)))
  end
  return c
end)

write("shots.txt", table.concat(shots, "\n") .. "\n")

-- probes.json by hand: numbers and plain strings only.
local function json(v)
  if type(v) == "table" then
    if #v > 0 or next(v) == nil then
      local t = {}
      for i, x in ipairs(v) do t[i] = json(x) end
      return "[" .. table.concat(t, ",") .. "]"
    end
    local t = {}
    for k, x in pairs(v) do t[#t + 1] = json(k) .. ":" .. json(x) end
    table.sort(t)
    return "{" .. table.concat(t, ",") .. "}"
  end
  if type(v) == "string" then return '"' .. v:gsub('[\\"]', "\\%0") .. '"' end
  return tostring(v)
end
write("probes.json", json(probes) .. "\n")
