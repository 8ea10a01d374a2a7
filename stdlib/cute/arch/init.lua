--- cute.arch -- the catalog of MMA and copy instructions, as data: what
-- CuTe keeps in cute/arch/ (mma_sm80.hpp, copy_sm75.hpp, ...), while
-- cute.atom builds atoms and tiles them, as cute/atom/ does.
--
-- Each entry is a plain table: name (CuTe's), kind ("mma", "copy", or
-- "tma": bulk tensor copies, whose layouts cute.make_tma_copy derives), the
-- PTX instruction, the PTX ISA section it was read from, and CuTe text for
-- its layouts:
--   mma   shape_mnk {M,N,K}, thr_id, A, B, C      TV layouts onto the
--         colexicographic (m,k) / (n,k) / (m,n) index of the atom's tiles
--   copy  thr_id, src, dst [, ref]               (thread, bit) -> bit
--                                                 (as CuTe's Copy_Traits)
-- cute.arch["SM80_16x8x16_F32F16F16F32_TN"] is the entry; cute.arch.names
-- lists them in catalog order.  cute.mma_atom / cute.copy_atom build atoms.
local M = { names = {} }

for _, part in ipairs { "universal", "sm70", "sm75", "sm80", "sm90", "sm90_copy",
                       "sm90_tma" } do
  for _, entry in ipairs(require("cute.arch." .. part)) do
    assert(M[entry.name] == nil, entry.name)
    M[entry.name] = entry
    M.names[#M.names + 1] = entry.name
  end
end

return M
