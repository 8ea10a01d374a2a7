--- SM90 copy atoms: stmatrix, the warp-level matrix store
-- (cutlass cute/atom/copy_traits_sm90.hpp).
--
-- PTX ISA 9.7.14.5.16 "Warp-level matrix store instruction: stmatrix"
-- (ISA 8.x numbering): the mirror of ldmatrix (arch/sm75.lua) -- each lane
-- holds in its registers what ldmatrix would have loaded into them, and the
-- lanes' addresses name the rows they store.  So an stmatrix atom's source
-- is the matching ldmatrix atom's destination, its destination that
-- atom's source, and its reference layout the source (CuTe's RefLayout);
-- the layouts are not written twice.
local ldsm = {}
for _, e in ipairs(require "cute.arch.sm75") do ldsm[e.name] = e end

local entries = {}
for _, x in ipairs { { "U32x1_STSM_N", "U32x1_LDSM_N", "x1" },
                     { "U32x2_STSM_N", "U32x2_LDSM_N", "x2" },
                     { "U32x4_STSM_N", "U32x4_LDSM_N", "x4" },
                     { "U16x2_STSM_T", "U16x2_LDSM_T", "x1.trans" },
                     { "U16x4_STSM_T", "U16x4_LDSM_T", "x2.trans" },
                     { "U16x8_STSM_T", "U16x8_LDSM_T", "x4.trans" } } do
  local ld = ldsm["SM75_" .. x[2]]
  entries[#entries + 1] = { name = "SM90_" .. x[1], kind = "copy",
    ptx = ("stmatrix.sync.aligned.%s.m8n8.shared.b16"):format(x[3]),
    isa = "PTX ISA 9.7.14.5.16 Warp-level matrix store instruction: stmatrix",
    thr_id = ld.thr_id, src = ld.dst, dst = ld.src, ref = ld.dst }
end

return entries
