--- SM75 ldmatrix atoms (cutlass cute/atom/copy_traits_sm75.hpp).
--
-- PTX ISA 9.7.14.5.15 "Warp-level matrix load instruction: ldmatrix"
-- (ISA 8.x numbering).  Each 8x8 matrix of 16-bit elements has its 8 rows addressed
-- by 8 consecutive lanes (matrix j by lanes 8j..8j+7); lane l receives, in
-- register j, elements (l/4, 2(l%4) + i) of matrix j, i = 0, 1 -- or, with
-- .trans, elements (2(l%4) + i, l/4).  Layouts are in bits: the source
-- maps (lane, bit) to bit 1024j + 128r + b of matrix j row r; lanes whose
-- address is unused for .x1/.x2 repeat (stride 0).
local entries = {}

local function ldsm(name, ptx, src, dst)
  entries[#entries + 1] = { name = name, kind = "copy", ptx = ptx,
    isa = "PTX ISA 9.7.14.5.15 Warp-level matrix load instruction: ldmatrix",
    thr_id = "32:1", src = src, dst = dst }
end

ldsm("SM75_U32x1_LDSM_N", "ldmatrix.sync.aligned.x1.m8n8.shared.b16",
  "((8,4),128):((128,0),1)", "(32,32):(32,1)")
ldsm("SM75_U32x2_LDSM_N", "ldmatrix.sync.aligned.x2.m8n8.shared.b16",
  "((16,2),128):((128,0),1)", "(32,(32,2)):(32,(1,1024))")
ldsm("SM75_U32x4_LDSM_N", "ldmatrix.sync.aligned.x4.m8n8.shared.b16",
  "(32,128):(128,1)", "(32,(32,4)):(32,(1,1024))")
ldsm("SM75_U16x2_LDSM_T", "ldmatrix.sync.aligned.x1.trans.m8n8.shared.b16",
  "((8,4),128):((128,0),1)", "((4,8),(16,2)):((256,16),(1,128))")
ldsm("SM75_U16x4_LDSM_T", "ldmatrix.sync.aligned.x2.trans.m8n8.shared.b16",
  "((16,2),128):((128,0),1)", "((4,8),(16,2,2)):((256,16),(1,128,1024))")
ldsm("SM75_U16x8_LDSM_T", "ldmatrix.sync.aligned.x4.trans.m8n8.shared.b16",
  "(32,128):(128,1)", "((4,8),(16,2,4)):((256,16),(1,128,1024))")

return entries
