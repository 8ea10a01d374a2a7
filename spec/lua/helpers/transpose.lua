--- helpers.transpose -- the shared-memory transpose written in the script,
-- one kernel for cuda_gpu_spec (runs it), cuda_compile_spec (compiles it
-- to PTX) and bench/gpu/bench.lua (times it).  The script chooses the
-- tile's layout sT, a swizzle over (32,32):(32,1); the kernel indexes it
-- as sT(i, j).  Tiles of 32x32 elements, blocks of 32x8 threads.
local cute = require "cute"

local M = {}

M.source = [[
extern "C" __global__ void __launch_bounds__(256) transpose(A_t a, B_t b) {
  __shared__ A_elem tile[sT_cosize];
  const unsigned m0 = blockIdx.x * 32, n0 = blockIdx.y * 32;
  const unsigned x = threadIdx.x, y = threadIdx.y;
  for (unsigned k = 0; k < 32; k += 8)      /* along m: A is contiguous */
    tile[sT(x, y + k)] = a(m0 + x, n0 + y + k);
  __syncthreads();
  for (unsigned k = 0; k < 32; k += 8)      /* along n: B is contiguous */
    b(m0 + y + k, n0 + x) = tile[sT(y + k, x)];
}]]

--- The cuda.kernel description of B = A^T through a tile swizzled by swz;
-- A and B are tensors or {dtype, layout} tables; `arch` is optional.
function M.kernel_spec(A, B, swz, arch)
  return {
    name = "transpose", arch = arch,
    tensors = {A = A, B = B},
    layouts = {sT = cute.composed(swz, 0, cute.layout "(32,32):(32,1)")},
    source = M.source,
  }
end

--- Grid and block of an M x N transpose (M and N multiples of 32).
function M.launch(m, n)
  return {grid = {m // 32, n // 32}, block = {32, 8}}
end

return M
