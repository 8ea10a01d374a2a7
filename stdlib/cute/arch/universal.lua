--- Architecture-independent atoms (cutlass cute/atom/mma_traits.hpp,
-- copy_traits.hpp): one thread, one scalar fused multiply-add; one thread
-- copying one 32-, 64- or 128-bit word (the 16-byte vectorised copy).
local entries = {
  { name = "UniversalFMA", kind = "mma", ptx = "fma (scalar, any type)",
    isa = "none: a single thread computes d = a * b + c",
    shape_mnk = { 1, 1, 1 }, thr_id = "1:0",
    A = "(1,1):(0,0)", B = "(1,1):(0,0)", C = "(1,1):(0,0)" },
}

for _, bits in ipairs { 32, 64, 128 } do
  local word = ("(1,%d):(0,1)"):format(bits)
  entries[#entries + 1] = { name = ("UniversalCopy<uint%d_t>"):format(bits),
    kind = "copy", ptx = ("ld/st .b%d (vectorised when 64/128 bits)")
      :format(bits),
    isa = "PTX ISA: Data Movement and Conversion Instructions: ld, st",
    thr_id = "1:0", src = word, dst = word }
end

return entries
