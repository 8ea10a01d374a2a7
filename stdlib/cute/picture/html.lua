--- cute.picture.html -- a picture model as one self-contained HTML page:
-- the SVG inline, a little CSS and a little script, nothing fetched from
-- the network.  Hovering a cell shows its panel, coordinate, thread,
-- value, offset (and bank) in a bar at the bottom of the window and
-- highlights every cell of the same thread, or, in a picture of an
-- operation, the operand cells a result cell comes from.  The page's address can select
-- a cell too: page.html#p=C&m=0&n=4 (p is empty for one-panel pictures).
local svg = require "cute.picture.svg"
local palette = require "cute.picture.palette"

local M = {}

local STYLE = [[
body { margin: 0; font: 14px "DejaVu Sans Mono", monospace; background: #fff; }
#tip { position: fixed; left: 0; right: 0; bottom: 0; padding: 6px 8px;
       background: #222222; color: #ffffff; }
#tip:empty { display: none; }
svg text { pointer-events: none; }
svg rect.hl { fill: HIGHLIGHT; }
]]

-- Selecting a cell: describe it in #tip and highlight its thread's cells
-- (or the cell alone when no thread owns it).
local SCRIPT = [[
(function () {
  var tip = document.getElementById("tip"), lit = [];
  function describe(d) {
    var s = (d.p ? d.p + " " : "") + "(" + d.m + "," + d.n + ")";
    if (d.t !== undefined) s += " T" + d.t + " V" + d.v;
    if (d.o !== undefined) s += " offset " + d.o;
    if (d.b !== undefined) s += " bank " + d.b;
    if (d.x !== undefined) s += " " + d.x + " bank conflict";
    if (d.l) s += " from " + d.l;
    return s;
  }
  function select(r) {
    lit.forEach(function (e) { e.classList.remove("hl"); });
    var d = r.dataset;
    lit = d.t === undefined ? [r] : Array.prototype.slice.call(
      document.querySelectorAll('rect[data-p="' + d.p + '"][data-t="' + d.t + '"]'));
    (d.l || "").split(" ").forEach(function (ref) {
      var k = ref.match(/^(\w+):(\d+),(\d+)$/), e = k && document.querySelector(
        'rect[data-p="' + k[1] + '"][data-m="' + k[2] + '"][data-n="' + k[3] + '"]');
      if (e) lit.push(e);
    });
    lit.forEach(function (e) { e.classList.add("hl"); });
    tip.textContent = describe(d);
  }
  document.querySelector("svg").addEventListener("mouseover", function (e) {
    if (e.target.dataset && e.target.dataset.m !== undefined) select(e.target);
  });
  var h = new URLSearchParams(location.hash.slice(1));
  if (h.has("m")) {
    var r = document.querySelector('rect[data-p="' + (h.get("p") || "") +
      '"][data-m="' + h.get("m") + '"][data-n="' + h.get("n") + '"]');
    if (r) select(r);
  }
})();
]]

--- The page (a string).
function M.render(model, opts)
  opts = opts or {}
  local o = {}
  for k, v in pairs(opts) do o[k] = v end
  o.interactive = true
  return table.concat {
    "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n",
    "<title>", svg.escape(model.title[1]), "</title>\n<style>\n",
    (STYLE:gsub("HIGHLIGHT", palette.highlight)), "</style>\n</head>\n<body>\n",
    "<div id=\"tip\"></div>\n", svg.render(model, o),
    "<script>\n", SCRIPT, "</script>\n</body>\n</html>\n" }
end

return M
