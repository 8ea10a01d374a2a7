--- cute.picture.palette -- the colours of the pictures, the one place
-- that chooses them: SVG, HTML and TikZ all draw these.
--
-- Lanes get one colour each: 32 hues, lane t at 19t/32 of the circle, so
-- that threads 1, 2, 3, 4, 8 or 16 lanes apart -- the neighbours in MMA,
-- copy and TV pictures -- are at least 30 apart in CIE76 colour distance
-- (golden-angle hues put lanes 8 apart only 9 apart); warps are told apart
-- by lines.  CuTe's print_latex repeats 8 colours (TikzColor_TV), which
-- gives T0 and T8 one colour: these replace them in TikZ too.  Banks (32
-- of them) walk the hue circle once, so a swizzle's XOR shows as shuffled
-- bands.  Layout offsets use CuTe's print_latex greys (TikzColor_BWx8),
-- written in TikZ by CuTe's names.
local M = {}

local function hex(r, g, b)
  return ("#%02x%02x%02x"):format(math.floor(r * 255 + 0.5),
    math.floor(g * 255 + 0.5), math.floor(b * 255 + 0.5))
end

--- HSL (each in [0,1]) to "#rrggbb".
function M.hsl(h, s, l)
  local function f(n)
    local k = (n + h * 12) % 12
    local a = s * math.min(l, 1 - l)
    return l - a * math.max(-1, math.min(k - 3, 9 - k, 1))
  end
  return hex(f(0), f(8), f(4))
end

-- The hue step between consecutive lanes, in 32nds of the circle: odd,
-- so the 32 lanes take 32 distinct hues; 19 maximises the smallest colour
-- distance between lanes 1, 2, 3, 4, 8 and 16 apart (searched over all
-- odd steps).
local HUE_STEP = 19

--- Thread t's fill, by its lane (t mod 32): lane 0 is a light red, lane
-- 1 a light blue, ...; warps repeat the 32 colours (the pictures mark warp
-- and warp-group boundaries with lines instead).
function M.thread(t)
  return M.hsl((t % 32) * HUE_STEP % 32 / 32, 0.75, 0.72)
end

M.warp_line = "#202020"     -- boundary between two warps' cells
M.group_line = "#000000"    -- boundary between two warp groups' cells

--- 16-byte chunk c's fill (0..7): 8 hues 3/8 of the circle apart, so
-- that neighbouring chunks differ strongly.
function M.chunk(c)
  return M.hsl((c % 8) * 3 % 8 / 8, 0.75, 0.72)
end

--- Bank b's fill (0..31).
function M.bank(b)
  return M.hsl(b / 32, 0.45, 0.8)
end

-- CuTe's TikzColor_BWx8: the percentage of black of offset i mod 8.
local bw8_level = { 0, 40, 20, 60, 10, 50, 30, 70 }

--- Offset i's fill in a layout picture: CuTe's 8 greys, by i mod 8.
function M.offset(i)
  local g = 1 - bw8_level[i % 8 + 1] / 100
  return hex(g, g, g)
end

--- The same grey as TikZ writes it in CuTe's print_latex ("black!40").
function M.offset_tikz(i)
  return ("black!%02d"):format(bw8_level[i % 8 + 1])
end

--- A fill as a TikZ colour: "{rgb,255:red,R;green,G;blue,B}".
function M.tikz(fill)
  local r, g, b = fill:match "#(%x%x)(%x%x)(%x%x)"
  return ("{rgb,255:red,%d;green,%d;blue,%d}"):format(tonumber(r, 16),
    tonumber(g, 16), tonumber(b, 16))
end

--- Text colour readable on a fill: black, or white on dark fills.
function M.ink(fill)
  local r, g, b = fill:match "#(%x%x)(%x%x)(%x%x)"
  local y = 0.299 * tonumber(r, 16) + 0.587 * tonumber(g, 16)
    + 0.114 * tonumber(b, 16)
  return y < 110 and "#ffffff" or "#000000"
end

M.empty = "#eeeeee"     -- cells no thread touches
M.conflict = "#d00000"  -- the frame of a bank-conflicted cell
M.highlight = "#ffd400" -- HTML: the cells of the hovered thread

return M
