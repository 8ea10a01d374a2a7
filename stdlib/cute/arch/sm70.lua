--- SM70 atoms: the Volta mma.sync.m8n8k4 (cutlass cute/atom/mma_traits_sm70.hpp),
-- the 8x8x4 examples of CuTe's MMA-atom tutorial.
--
-- PTX ISA 9.7.14.5.1 "Matrix Fragments for mma.m8n8k4 with .f16 floating
-- point type": a warp runs four 8x8x4 products at once, one per quad pair
-- (lanes 0-3 with 16-19, 4-7 with 20-23, ...).  An atom is one quad pair,
-- so ThrID maps its 8 threads onto lanes (4,2):(1,16), and thread t of the
-- atom is lane t % 4 + 16 (t / 4); below, r4 = 4 (t / 4).
--   A .row: (m, k) = (t % 4 + r4, i)      A .col: (i + r4, t % 4)
--   B .col: (n, k) = (t % 4 + r4, i)      B .row: (i + r4, t % 4)
--   C .f16: (m, n) = (t % 4 + r4, i)
--   C .f32: m = (t & 1) + (i & 2) + r4,  n = (i & 4) + (t & 2) + (i & 1)
-- CuTe's name says A's and B's majors: T is .row for A and .col for B (K
-- contiguous), N the other.
local entries = {}

local QuadPair = "(4,2):(1,16)"
local Row8x4 = "(8,4):(1,8)"               -- thread -> row, value -> k
local Col8x4 = "((4,2),4):((8,4),1)"       -- thread -> k, value -> row
local C16 = "(8,8):(1,8)"
local C32 = "((2,2,2),(2,2,2)):((1,16,4),(8,2,32))"

local ISA = "PTX ISA 9.7.14.5.1 Matrix Fragments for mma.m8n8k4 with .f16 "
  .. "floating point type"

for _, t in ipairs { { "F16F16F16F16", "f16.f16.f16.f16", C16 },
                     { "F32F16F16F32", "f32.f16.f16.f32", C32 } } do
  for _, major in ipairs { "TN", "NT", "NN", "TT" } do
    local a, b = major:sub(1, 1), major:sub(2, 2)
    entries[#entries + 1] = {
      name = ("SM70_8x8x4_%s_%s"):format(t[1], major), kind = "mma",
      ptx = ("mma.sync.aligned.m8n8k4.%s.%s.%s"):format(
        a == "T" and "row" or "col", b == "N" and "col" or "row", t[2]),
      isa = ISA, shape_mnk = { 8, 8, 4 }, thr_id = QuadPair,
      A = a == "T" and Row8x4 or Col8x4, B = b == "N" and Row8x4 or Col8x4,
      C = t[3] }
  end
end

return entries
