-- The error catalogue, part 2 (part 1: error_catalogue_spec.lua): the
-- argument errors of every function of `cute` and `cute.cuda` -- missing
-- arguments and wrong Lua types name the function, the argument and the
-- type received -- and the GPU's: no driver (CI has no GPU), NVRTC compile
-- errors with the log and the numbered source.  docs/errors.md is the
-- human page.
local cute = require "cute"
local L = cute.layout
local err = require "helpers.err"
local contract = require "helpers.contract"

------------------------------------------------- Lua types and arities --
-- Every function of the `cute` table, one row each: valid arguments, how
-- many are required, and how the message names each argument (Lua's "#k",
-- or the role the stdlib names).  The function is called with no
-- arguments; each required argument is then made nil and replaced by
-- `true` (a type no argument takes), each optional one by `true`, and
-- each Layout argument by a string: the message must name the function,
-- the argument and the type received ("nil"/"no value", "boolean",
-- "string"), with no position or local name from inside the stdlib.  A
-- function added to `cute` without a row here fails the last test: state
-- its argument errors when adding it.
describe("wrong Lua types and arities", function()
  local A, T2 = L "(4,8):(1,4)", L "(2,2):(1,2)"
  local sw = cute.swizzle(1, 0, 1)
  local MMA, COPY = "SM80_16x8x16_F32F16F16F32_TN", "SM75_U32x4_LDSM_N"
  local catom = cute.copy_atom("UniversalCopy<uint32_t>", "f16")
  local wide = cute.copy_atom("UniversalCopy<uint128_t>", "f16")
  local svg = os.tmpname() .. ".svg"
  teardown(function() os.remove(svg) end)
  local tmma = cute.make_tiled_mma(MMA)
  local tv = L "((2,2),2):((2,8),1)"
  -- name = {valid args, required = n, opt = {optional k...}, marks = {k =
  --         text naming argument k}, layouts = {k...} (Layout arguments: a
  --         string is refused too), none = the reason when all are missing}
  local api = {
    E = {{0}, 1, none = "takes 1 to 3 mode indices"},
    layout = {{{4, 8}, {1, 4}}, 1, opt = {2}},
    layout_right = {{{4, 8}}, 1},
    make_identity_layout = {{{4, 8}}, 1},
    swizzle = {{3, 4, 3}, 3},
    composed = {{sw, A}, 2, layouts = {2}},
    tuple = {{"(4,8)"}, 1},
    tuple_tostring = {{{4, 8}}, 1},
    size = {{A}, 1}, cosize = {{A}, 1, layouts = {1}},
    rank = {{A}, 1}, depth = {{A}, 1},
    crd2idx = {{{1, 2}, {4, 8}, {1, 4}}, 2, opt = {3}},
    idx2crd = {{5, {4, 8}}, 2},
    ceil_div = {{{4, 8}, {2, 2}}, 2},
    shape_div = {{{4, 8}, {2, 2}}, 2},
    product_each = {{{4, {2, 2}}}, 1},
    tuple_add = {{{1, 2}, {3, 4}}, 2},
    tuple_sub = {{{1, 2}, {3, 4}}, 2},
    elem_less = {{{1, 2}, {3, 4}}, 2},
    increment_coord = {{{0, 0}, {4, 8}}, 2},
    dice = {{{1, cute._}, {4, 8}}, 2},
    make_ordered_layout = {{{4, 8}, {1, 0}}, 2},
    make_layout_like = {{A}, 1, layouts = {1}},
    nullspace = {{A}, 1, layouts = {1}},
    make_tensor = {{{1, 2}, L "2:1"}, 2, opt = {3}},
    make_composed_layout = {{A, 0, A}, 3, layouts = {3}},
    tile_to_shape = {{A, {8, 16}}, 2, opt = {3}, layouts = {1}},
    make_smem_layout_atom = {{"K_SW128", 16}, 2, marks = {"kind", "value type"}},
    make_tma_copy = {{"SM90_TMA_LOAD", {layout = L "(64,8):(1,64)", dtype = "f16"},
                      L "(64,8):(1,64)"}, 3, opt = {4, 5}, layouts = {3}},
    make_identity_tensor = {{{4, 8}}, 1},
    counting_iterator = {{0}, 1},
    make_fragment_like = {{A}, 1, layouts = {1}},
    print_tensor = {{cute.make_tensor({1, 2}, L "2:1")}, 1},
    format_tensor = {{cute.make_tensor({1, 2}, L "2:1")}, 1},
    congruent = {{{4, 8}, {4, 8}}, 2},
    weakly_congruent = {{{4, 8}, {4, 8}}, 2},
    compatible = {{{4, 8}, {4, 8}}, 2},
    flatten = {{A}, 1, layouts = {1}},
    group_modes = {{A, 0, 1}, 3, layouts = {1}},
    take = {{A, 0, 1}, 3, layouts = {1}},
    select = {{A, 0}, 1, opt = {2}, layouts = {1}},
    append = {{A, A}, 2, layouts = {1}},
    prepend = {{A, A}, 2, layouts = {1}},
    replace = {{A, 0, A}, 3, layouts = {1}},
    coalesce = {{A, {1, 1}}, 1, opt = {2}, layouts = {1}},
    filter_zeros = {{A}, 1, layouts = {1}},
    filter = {{A}, 1, layouts = {1}},
    composition = {{A, 4}, 2, layouts = {1}},
    complement = {{A, 64}, 1, opt = {2}, layouts = {1}},
    right_inverse = {{A}, 1, layouts = {1}},
    left_inverse = {{A}, 1, layouts = {1}},
    max_common_vector = {{A, A}, 2, layouts = {1, 2}},
    max_common_layout = {{A, A}, 2, layouts = {1, 2}},
    upcast = {{A, 2}, 2, layouts = {1}},
    downcast = {{A, 2}, 2, layouts = {1}},
    recast = {{A, 16, 32}, 3, layouts = {1}},
    make_layout = {{A, A}, 0, opt = {1}},
    explain = {{"composition", A, 4}, 1},
    operation = {{"composition", A, 4}, 1},
    local_tile = {{A, {2, 2}, {0, 0}}, 3, marks = {"#1", "tiler", "tile coordinate"},
                  layouts = {1}},
    local_partition = {{A, T2, 0}, 3,
                       marks = {"#1", "thread layout", "thread index"}, layouts = {1, 2}},
    print_layout = {{A}, 1, layouts = {1}, marks = {"cute.Layout or cute.ComposedLayout expected"}},
    format_layout = {{A}, 1, layouts = {1},
                     marks = {"cute.Layout or cute.ComposedLayout expected"}},
    make_layout_tv = {{T2, L "2:1"}, 2, marks = {"thread layout", "value layout"},
                      layouts = {1, 2}},
    tv_partition = {{A, tv, 0}, 3, marks = {"data layout", "TV layout", "thread index"},
                    layouts = {1, 2}},
    mma_atom = {{MMA}, 1, marks = {"atom name (string) or spec table"}},
    copy_atom = {{COPY, "f16"}, 1, opt = {2},
                 marks = {"atom name (string) or spec table", "value type"}},
    make_tiled_mma = {{MMA, L "(2,2,1)"}, 1, opt = {2},
                      marks = {"MMA atom", "thread layout"}},
    make_tiled_copy = {{wide, cute.layout_right {32, 8}, L "(1,8)"}, 2, opt = {3},
                       marks = {"copy atom", "thread layout", "value layout"}},
    make_tiled_copy_A = {{catom, tmma}, 2, marks = {"copy atom", "tiled MMA"}},
    make_tiled_copy_B = {{catom, tmma}, 2, marks = {"copy atom", "tiled MMA"}},
    make_tiled_copy_C = {{catom, tmma}, 2, marks = {"copy atom", "tiled MMA"}},
    show = {{A, svg}, 1, opt = {2}, marks = {"cannot draw", "path"}},
    render = {{A, "txt"}, 2, marks = {"cannot draw", "picture format"}},
    bank_conflicts = {{L "(8,8):(8,1)", L "(32,2):(2,1)"}, 2,
                      marks = {"shared-memory layout", "access pattern"},
                      layouts = {1, 2}},
    to_linear = {{A, {tv = false}}, 1, opt = {2}, layouts = {1}},
    from_linear = {{cute.to_linear(A)}, 1},
    linear_layout = {{"{lane = [[1]]}"}, 1},
    invert_and_compose = {{cute.to_linear(A), cute.to_linear(A)}, 2},
    conversion = {{cute.to_linear(tv, {tv = true}), cute.to_linear(tv, {tv = true})}, 2},
    conversion_plan = {{cute.to_linear(tv, {tv = true}), cute.to_linear(tv, {tv = true})},
                       2, opt = {3}},
    -- tiler_tostring prints any value (as Lua's tostring does)
    tiler_tostring = {{{2, 2}}, 0},
  }
  for _, op in ipairs {"logical_divide", "zipped_divide", "tiled_divide",
                       "flat_divide", "logical_product", "zipped_product",
                       "tiled_product", "flat_product", "blocked_product",
                       "raked_product"} do
    api[op] = {{A, {2, 2}}, 2, marks = {"#1", "tiler"}, layouts = {1}}
  end
  for _, op in ipairs {"blocked_product", "raked_product"} do
    api[op] = {{A, T2}, 2, marks = {"#1", "tiler"}, layouts = {1}}
  end

  contract.api({describe = describe, it = it}, cute, api, true)
end)

-- Called through pcall, a C function has no name at its call site, and
-- Lua's search of package.loaded for one follows the state's hash seed:
-- the same script said 'cute.size' in one run and 'cute.core.size' in the
-- next.  The bindings name it by its key in `cute` (else in `cute.core`),
-- so every fresh state (a new process: a new seed) gives the same message.
describe("a function called through pcall", function()
  it("is named as the user spells it, in every state", function()
    local lua = io.popen("command -v lua5.4"):read("l")
    if not lua then
      pending("no lua5.4 on PATH to start fresh states")
      return
    end
    local script = [[
      local cute, core = require "cute", require "cute.core"
      for _, c in ipairs {{cute.size, "x"}, {cute.coalesce, "x"},
                          {cute.E, "x"}, {core.offset_range, 1}} do
        print(select(2, pcall(c[1], c[2])))
      end]]
    local want = table.concat({
      "bad argument #1 to 'cute.size' (tuple: string is not an integer, "
        .. "cute.E, cute._ or table)",
      "bad argument #1 to 'cute.coalesce' (cute.Layout expected, got string)",
      "bad argument #1 to 'cute.E' (integer expected, got string)",
      "bad argument #1 to 'cute.core.offset_range' (cute.Layout expected, "
        .. "got number)", ""}, "\n")
    for run = 1, 12 do
      local p = io.popen(("'%s' -e '%s' 2>&1"):format(lua, script))
      local got = p:read("a")
      p:close()
      assert.equal(want, got, "run " .. run)
    end
  end)
end)

---------------------------------------------------------------- cute.cuda --
-- The CUDA bridge: argument errors before any driver call, the driver's
-- absence (CI has no GPU) and NVRTC's compile errors, each naming the call.
describe("cute.cuda", function()
  local ok_cuda, cuda = pcall(require, "cute.cuda")
  if not ok_cuda then
    pending("no cute.cuda in this build: " .. tostring(cuda))
    return
  end
  local have_gpu, why_not = cuda.available()
  local have_nvrtc, nvrtc_why = pcall(cuda.nvrtc_version)
  local good = 'extern "C" __global__ void ok(float *p) {}\n'
  local cache_mode, cache_dir = cuda.cache()
  cuda.cache("off")   -- compile every time: no kernel is cached anywhere
  teardown(function() cuda.cache(cache_mode, cache_dir) end)

  describe("argument types", function()
    local b0 = cuda.buffer("f32", 0)   -- holds no device memory: no driver
    local T = setmetatable({layout = L "4:1", dtype = "f32", offset = 0,
                            buffer = b0, ptr = function() return 0 end},
                           cuda.Tensor)
    -- rows as in helpers.contract.api
    local api = {
      buffer = {{"f32", 16}, 2},
      compare = {{b0, b0}, 2},
      memcpy = {{b0, b0}, 2, marks = {"#1", "source"}},
      tensor = {{b0, "4:1"}, 2, marks = {"buffer", "layout"}},
      kernel = {{{source = good, name = "ok"}}, 1, marks = {"spec"}},
      codegen = {{"A", L "4:1"}, 2},
      copy_plan = {{T, T}, 2, marks = {"source", "destination"}},
      copy_prepare = {{T, T}, 2, marks = {"source", "destination"}},
      copy = {{T, T}, 2, marks = {"source", "destination"}},
      check_copy = {{T, T}, 2, marks = {"source", "destination"}},
      time = {{function() end}, 1, marks = {"timed code"}},
      gemm = {{T, T, T}, 3, marks = {"A", "B", "C"}},
      cache = {{"disk"}, 0, opt = {1, 2}},
      -- no arguments to get wrong
      available = {{}, 0}, device = {{}, 0}, nvrtc_version = {{}, 0},
      timings = {{}, 0}, stats = {{}, 0}, stats_reset = {{}, 0},
      forget_memory = {{}, 0}, now_ms = {{}, 0}, event = {{}, 0},
      stream = {{}, 0}, synchronize = {{}, 0},
    }
    -- no row can run without a driver (b0 holds no element)
    contract.api({describe = describe, it = it}, cuda, api, false)
  end)

  describe("without a driver", function()
    if have_gpu then
      pending("a driver is present: the no-driver messages are checked on "
              .. "machines without one")
      return
    end
    local why = "libcuda.so.1 not found (no NVIDIA driver)"
    it("available() says why", function()
      assert.matches(why, why_not, 1, true)
    end)
    for _, c in ipairs {{"buffer", "f32", 16}, {"device"}, {"event"},
                        {"stream"}, {"synchronize"}} do
      it("cute.cuda." .. c[1] .. " names itself and the missing library", function()
        local msg = err(cuda[c[1]], table.unpack(c, 2))
        assert.equal(1, msg:find("cute.cuda." .. c[1] .. ": " .. why, 1, true), msg)
      end)
    end
    it("a kernel's launch names the call that needed the driver", function()
      if not have_nvrtc then
        pending("NVRTC is not available either: " .. tostring(nvrtc_why))
        return
      end
      local k = cuda.kernel {name = "ok", arch = "compute_90", source = good}
      local msg = err(function() local h = k:prepare {args = {0}}; return h end)
      assert.matches("^[^\n]*cute%.cuda%.Binary:launcher: libcuda%.so%.1 not found", msg)
    end)
  end)

  describe("NVRTC compile errors", function()
    if not have_nvrtc then
      pending("NVRTC is not available: " .. tostring(nvrtc_why))
      return
    end
    local function compile_error(spec)
      spec.arch = "compute_90"
      local msg = err(cuda.kernel, spec)
      assert.equal(1, msg:find("cute.cuda.compile: NVRTC compile error (compute_90):\n",
                               1, true), msg)
      return msg
    end

    it("carry NVRTC's log and the numbered source", function()
      local msg = compile_error {name = "bad",
        source = 'extern "C" __global__ void bad(float *p) {\n  p[0] = nope;\n}\n'}
      -- the line NVRTC's log names is the line the numbered source shows
      -- (after the prelude cute.cuda.kernel puts first)
      assert.matches("\n--- source ---\n", msg, 1, true)
      local line = msg:match("\n +(%d+) |   p%[0%] = nope;\n")
      assert.truthy(line, msg)
      assert.matches('cutelua.cu(' .. line .. '): error: identifier "nope" is undefined',
                     msg, 1, true)
    end)

    it("name a bad option and a kernel missing from the source", function()
      assert.matches("unrecognized option --bogus",
                     compile_error {name = "ok", source = good, options = {"--bogus"}},
                     1, true)
      assert.matches('identifier "missing" is undefined',
                     compile_error {name = "missing", source = good}, 1, true)
    end)
  end)
end)
