--- cute.picture.palette -- the colours of the pictures.
--
-- Lanes get one colour each: hues spaced by the golden angle, so that
-- neighbouring threads differ strongly; warps are told apart by lines.
-- Banks (32 of them) walk the hue circle once.  Layout offsets use CuTe's
-- print_latex greys (TikzColor_BWx8); TikZ output uses CuTe's own 8-colour
-- thread map (TikzColor_TV), so it matches CuTe's pictures.
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

local GOLDEN = 0.6180339887498949

--- Thread t's fill, by its lane (t mod 32): lane 0 is a light red, lane
-- 1 a light blue, ...; warps repeat the 32 colours (the pictures mark warp
-- and warp-group boundaries with lines instead).
function M.thread(t)
  return M.hsl(((t % 32) * GOLDEN) % 1, 0.65, 0.72)
end

M.warp_line = "#202020"     -- boundary between two warps' cells
M.group_line = "#000000"    -- boundary between two warp groups' cells

--- Bank b's fill (0..31).
function M.bank(b)
  return M.hsl(b / 32, 0.45, 0.8)
end

-- CuTe's TikzColor_BWx8, as TikZ names and as the grey they stand for.
M.bw8_tikz = { "black!00", "black!40", "black!20", "black!60",
               "black!10", "black!50", "black!30", "black!70" }
local bw8_level = { 0, 40, 20, 60, 10, 50, 30, 70 }

--- Offset i's fill in a layout picture: CuTe's 8 greys, by i mod 8.
function M.offset(i)
  local g = 1 - bw8_level[i % 8 + 1] / 100
  return hex(g, g, g)
end

--- Text colour readable on a fill: black, or white on dark fills.
function M.ink(fill)
  local r, g, b = fill:match "#(%x%x)(%x%x)(%x%x)"
  local y = 0.299 * tonumber(r, 16) + 0.587 * tonumber(g, 16)
    + 0.114 * tonumber(b, 16)
  return y < 110 and "#ffffff" or "#000000"
end

-- CuTe's TikzColor_TV: fill of thread t in TikZ pictures.
M.tv_tikz = { "{rgb,255:red,175;green,175;blue,255}",
  "{rgb,255:red,175;green,255;blue,175}", "{rgb,255:red,255;green,255;blue,175}",
  "{rgb,255:red,255;green,175;blue,175}", "{rgb,255:red,210;green,210;blue,255}",
  "{rgb,255:red,210;green,255;blue,210}", "{rgb,255:red,255;green,255;blue,210}",
  "{rgb,255:red,255;green,210;blue,210}" }

M.empty = "#eeeeee"     -- cells no thread touches
M.conflict = "#d00000"  -- the frame of a bank-conflicted cell
M.highlight = "#ffd400" -- HTML: the cells of the hovered thread

return M
