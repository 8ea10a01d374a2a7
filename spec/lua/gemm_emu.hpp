/*
 * gemm_emu.hpp -- just enough CUDA, on host threads, to run the generated
 * tiled GEMM kernel (cute.cuda.gemm_sm80, on the device library
 * cuda/device/) without a GPU, so that CI checks its indexing, its
 * predication and its pipeline, not only that it compiles.
 *
 * Each CUDA thread is a std::thread; a block's threads share its shared
 * memory (poisoned with 0xFF, a NaN in bf16/f16/f32, so reading a byte no
 * copy wrote shows up in the result).  The collective instructions are
 * emulated from the PTX ISA's definitions, independently of the layouts
 * that the kernel derives from the atom catalog:
 *   cp.async 16B     queued with its source bytes (zeros when the
 *                    zero-fill predicate is off: the source is then not
 *                    read, and may lie outside every buffer), written to
 *                    shared memory only when cp.async.wait_group retires
 *                    its group (the latest the hardware may complete it),
 *                    so a missing wait reads poison
 *   ldmatrix .x4     lane 8q+r supplies row r of matrix q; lane l receives
 *                    elements (l/4, 2(l%4)+{0,1}) of matrix q in register q
 *   mma m16n8k16     A row-major 16x16, B col 16x8, C/D 16x8, fragments as
 *                    in ISA 9.7.14.5.8 (groupID = l/4, tid_in_group = l%4)
 * Address alignment, shared-memory bounds and global-memory bounds (the
 * ranges registered by the harness) are checked; a violation is recorded
 * and reported by cute_emu_report().
 *
 * These are the device library's atoms (cute::cp_async_zfill, ldmatrix_x4,
 * mma_16x8x16_*), which cute/*.h leave out under CUTE_HOST_EMULATION.
 * Use: #include this, then the generated source (compiled with
 * -I cuda/device), then a main() that sets cute_emu_decode, registers the
 * buffers and calls cute_emu_launch().
 */
#ifndef CUTE_GEMM_EMU_HPP
#define CUTE_GEMM_EMU_HPP

#define CUTE_HOST_EMULATION 1
#define CUTE_DI static inline
#define __global__
#define __launch_bounds__(...)

#include <condition_variable>
#include <cstdio>
#include <cstring>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

struct cute_dim3 { unsigned x, y, z; };
static thread_local cute_dim3 threadIdx, blockIdx;
static cute_dim3 gridDim, blockDim;

struct cute_emu_barrier {
  std::mutex m;
  std::condition_variable cv;
  unsigned n = 0, count = 0;
  unsigned long gen = 0;
  void wait() {
    std::unique_lock<std::mutex> lock(m);
    unsigned long g = gen;
    if (++count == n) {
      count = 0;
      gen++;
      cv.notify_all();
    } else {
      cv.wait(lock, [&] { return gen != g; });
    }
  }
};

struct cute_emu_block {
  std::vector<unsigned char> smem;
  cute_emu_barrier block;
  cute_emu_barrier warp[32];
  unsigned addr[32][32];                 /* [warp][lane] exchange */
  unsigned a[32][32][4], b[32][32][2];
};

static thread_local cute_emu_block *cute_emu_blk;
static std::mutex cute_emu_err_lock;
static std::string cute_emu_errors;
static float (*cute_emu_decode)(unsigned short);
static std::vector<std::pair<const unsigned char *, size_t>> cute_emu_ranges;

static void cute_emu_fail(const char *what, unsigned long long v) {
  std::lock_guard<std::mutex> g(cute_emu_err_lock);
  if (cute_emu_errors.size() < 2000) {
    char line[200];
    snprintf(line, sizeof line, "block (%u,%u) thread %u: %s (%llu)\n",
             blockIdx.x, blockIdx.y, threadIdx.x, what, v);
    cute_emu_errors += line;
  }
}

static int cute_emu_report() {
  if (cute_emu_errors.empty()) return 0;
  fputs(cute_emu_errors.c_str(), stderr);
  return 1;
}

#define CUTE_SMEM(name) unsigned char *name = cute_emu_blk->smem.data()

static inline void __syncthreads() { cute_emu_blk->block.wait(); }

namespace cute {
static inline unsigned smem_u32(const void *p) {
  return (unsigned)((const unsigned char *)p - cute_emu_blk->smem.data());
}
}

static inline bool cute_emu_smem_ok(unsigned s, unsigned bytes) {
  if (s % bytes != 0) cute_emu_fail("misaligned shared address", s);
  else if (s + bytes > cute_emu_blk->smem.size()) cute_emu_fail("shared address out of bounds", s);
  else return true;
  return false;
}

/* ---------------------------------------------------------- cp.async -- */
struct cute_emu_copy { unsigned dst; unsigned char data[16]; };
static thread_local std::vector<std::vector<cute_emu_copy>> cute_emu_groups;
static thread_local std::vector<cute_emu_copy> cute_emu_open;

namespace cute {
template <int B> static inline void cp_async_zfill(unsigned s, const void *g, bool ok) {
  static_assert(B == 16, "the emulation moves 16-byte vectors");
  const unsigned char *p = (const unsigned char *)g;
  cute_emu_copy c;
  if (!cute_emu_smem_ok(s, 16)) return;
  c.dst = s;
  memset(c.data, 0, 16);
  if (ok) {
    bool inside = false;
    for (auto &r : cute_emu_ranges)
      inside = inside || (p >= r.first && p + 16 <= r.first + r.second);
    if ((unsigned long long)p % 16 != 0) cute_emu_fail("misaligned global address", (unsigned long long)p);
    if (!inside) { cute_emu_fail("global read out of bounds", (unsigned long long)p); return; }
    memcpy(c.data, p, 16);
  }
  cute_emu_open.push_back(c);
}

template <int B> static inline void cp_async(unsigned s, const void *g) {
  cp_async_zfill<B>(s, g, true);
}

static inline void cp_async_commit() {
  cute_emu_groups.push_back(cute_emu_open);
  cute_emu_open.clear();
}

template <int N> static inline void cp_async_wait() {
  while (cute_emu_groups.size() > (size_t)N) {
    for (auto &c : cute_emu_groups.front())
      memcpy(cute_emu_blk->smem.data() + c.dst, c.data, 16);
    cute_emu_groups.erase(cute_emu_groups.begin());
  }
}
}  // namespace cute

/* ---------------------------------------------------------- ldmatrix -- */
namespace cute {
static inline void ldmatrix_x4(unsigned (&r)[4], unsigned s) {
  cute_emu_block *B = cute_emu_blk;
  unsigned w = threadIdx.x / 32, l = threadIdx.x % 32;
  B->addr[w][l] = s;
  B->warp[w].wait();
  for (unsigned q = 0; q < 4; q++) {
    unsigned row = B->addr[w][8 * q + l / 4];
    r[q] = 0xffffffffu;
    if (cute_emu_smem_ok(row, 16)) memcpy(&r[q], B->smem.data() + row + 4 * (l % 4), 4);
  }
  B->warp[w].wait();
}
}  // namespace cute

/* --------------------------------------------------------------- mma -- */
static inline float cute_emu_half(unsigned reg, unsigned k) {
  return cute_emu_decode((unsigned short)(k % 2 ? reg >> 16 : reg & 0xffffu));
}

/* The operand type is the harness's cute_emu_decode: one body for both. */
static inline void cute_emu_mma(float (&d)[4], const unsigned (&a)[4], const unsigned (&b)[2]) {
  cute_emu_block *B = cute_emu_blk;
  unsigned w = threadIdx.x / 32, l = threadIdx.x % 32, g = l / 4, t = l % 4;
  memcpy(B->a[w][l], a, sizeof a);
  memcpy(B->b[w][l], b, sizeof b);
  B->warp[w].wait();
  for (unsigned v = 0; v < 4; v++) {
    unsigned row = g + 8 * (v / 2), col = 2 * t + v % 2;
    float s = 0;
    for (unsigned k = 0; k < 16; k++) {
      float x = cute_emu_half(B->a[w][(row % 8) * 4 + (k % 8) / 2][row / 8 + 2 * (k / 8)], k);
      float y = cute_emu_half(B->b[w][col * 4 + (k % 8) / 2][k / 8], k);
      s += x * y;
    }
    d[v] += s;
  }
  B->warp[w].wait();
}

namespace cute {
static inline void mma_16x8x16_f32bf16(float (&d)[4], const unsigned (&a)[4],
                                       const unsigned (&b)[2]) { cute_emu_mma(d, a, b); }
static inline void mma_16x8x16_f32f16(float (&d)[4], const unsigned (&a)[4],
                                      const unsigned (&b)[2]) { cute_emu_mma(d, a, b); }
}

/* ------------------------------------------------------------ launch -- */
template <class F>
static void cute_emu_launch(cute_dim3 grid, unsigned threads, size_t smem, F kernel) {
  gridDim = grid;
  blockDim = {threads, 1, 1};
  for (unsigned z = 0; z < grid.z; z++)
    for (unsigned y = 0; y < grid.y; y++)
      for (unsigned x = 0; x < grid.x; x++) {
        cute_emu_block *blk = new cute_emu_block;
        blk->smem.assign(smem, 0xff);
        blk->block.n = threads;
        for (auto &w : blk->warp) w.n = 32;
        std::vector<std::thread> pool;
        for (unsigned t = 0; t < threads; t++)
          pool.emplace_back([=] {
            threadIdx = {t, 0, 0};
            blockIdx = {x, y, z};
            cute_emu_blk = blk;
            cute_emu_groups.clear();
            cute_emu_open.clear();
            kernel();
          });
        for (auto &th : pool) th.join();
        delete blk;
      }
}

#endif
