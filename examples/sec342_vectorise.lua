--[[ examples/sec342_vectorise.lua -- paper section 3.4.2 (Figure 8): how
many elements a copy between two layouts can move per instruction, from
right inverses.

For layouts A and B of equal size, the coordinates of the first K
offsets agree, A^+(k) = B^+(k) for k < K, exactly when A o B^+ is the
identity on 0..K-1: K is the size of the stride-1 front of A o B^+
(max_common_vector), and those coordinates are [B^+]_K
(max_common_layout).  The two cases of Figure 8 are rebuilt with
layouts that have the properties the text states: (a) offsets 0,1 at
coordinates 0,1 (K = 2); (b) offsets 0..3 at coordinates 0, 2, 8, 10
(K = 4).  Given a directory, draws fig8_<case>_{src,dst}.svg with the
common coordinates highlighted.

  build/vm/cutelua examples/sec342_vectorise.lua [DIR]
--]]
local cute = require "cute"
local picture = require "cute.picture"

local out = arg and arg[1]
local cases = {
  { "a", "(4,4):(1,4)", "((2,2),4):((1,8),2)", 2, { 0, 1 } },
  { "b", "((2,2),(2,2)):((4,1),(8,2))", "((2,2),(2,2)):((8,1),(4,2))", 4,
    { 0, 2, 8, 10 } },
}

for _, c in ipairs(cases) do
  local A, B = cute.layout(c[2]), cute.layout(c[3])
  local AB = cute.composition(A, cute.right_inverse(B))
  local K = cute.max_common_vector(A, B)
  local common = cute.max_common_layout(A, B)
  print(("Figure 8%s: src A = %s, dst B = %s"):format(c[1], c[2], c[3]))
  print(("  B^+ = %s,  A o B^+ = %s"):format(tostring(cute.right_inverse(B)),
    tostring(AB)))
  print(("  K = %d elements per copy, at coordinates %s = {%s}"):format(K,
    tostring(common), table.concat(c[5], ",")))
  assert(K == c[4])
  for k = 0, K - 1 do
    assert(AB(k) == k and common(k) == c[5][k + 1])
    assert(A(common(k)) == k and B(common(k)) == k)
  end
  if out then
    local hit = {}
    for k = 0, K - 1 do hit[common(k)] = true end
    local function mark(m, n) return hit[m + 4 * n] end
    picture.show(A, out .. "/fig8" .. c[1] .. "_src.svg", { highlight = mark })
    picture.show(B, out .. "/fig8" .. c[1] .. "_dst.svg", { highlight = mark })
  end
end
