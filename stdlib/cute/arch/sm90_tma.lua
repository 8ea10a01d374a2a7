--- SM90 bulk tensor copies (TMA): CuTe's SM90_TMA_LOAD,
-- SM90_TMA_LOAD_MULTICAST and SM90_TMA_STORE (cutlass
-- cute/arch/copy_sm90_tma.hpp, cute/atom/copy_traits_sm90_tma.hpp).
--
-- PTX ISA "Data Movement and Conversion Instructions: cp.async.bulk.tensor":
-- one thread issues the copy of a whole box between global memory, named
-- by a tensor map (the descriptor) and a coordinate in it, and shared
-- memory, which the engine writes in the map's swizzle.  A load completes
-- on an mbarrier (complete_tx counts its bytes); the multicast load
-- writes the same box into the shared memory of every CTA in a mask of
-- the cluster; a store is committed to a bulk async-group.
--
-- Unlike the other copy atoms, a TMA atom's bit layouts depend on the box
-- (CuTe's Copy_Traits<Op, NumBitsPerTMA>: one thread, (1, bits)): they
-- are made by cute.make_tma_copy, which derives the box and the map from
-- the global and shared layouts.  So the entries are of kind "tma".
local ISA = "PTX ISA: Data Movement and Conversion Instructions: "
  .. "cp.async.bulk.tensor"

return {
  { name = "SM90_TMA_LOAD", kind = "tma", direction = "load",
    ptx = "cp.async.bulk.tensor.{1-5}d.shared::cluster.global.mbarrier"
      .. "::complete_tx::bytes",
    isa = ISA, thr_id = "1:0", multicast = false },
  { name = "SM90_TMA_LOAD_MULTICAST", kind = "tma", direction = "load",
    ptx = "cp.async.bulk.tensor.{1-5}d.shared::cluster.global.mbarrier"
      .. "::complete_tx::bytes.multicast::cluster",
    isa = ISA, thr_id = "1:0", multicast = true },
  { name = "SM90_TMA_STORE", kind = "tma", direction = "store",
    ptx = "cp.async.bulk.tensor.{1-5}d.global.shared::cta.bulk_group",
    isa = ISA, thr_id = "1:0", multicast = false },
}
