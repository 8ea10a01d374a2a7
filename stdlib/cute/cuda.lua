--- cute.cuda -- GPU kernels from layouts: device buffers, tensors, kernels
-- written in the script with named layouts turned into CUDA C, the
-- paper's COPY, events for timing.
--
--   local cute = require "cute"
local E = require "cute.error"
--   local cuda = require "cute.cuda"
--   local x = cuda.tensor(cuda.buffer("f32", 1024):random(1), "(32,32):(1,32)")
--   local y = cuda.tensor(cuda.buffer("f32", 1024), "(32,32):(32,1)")
--   cuda.copy(x, y)                          -- a transpose, planned from layouts
--   local k = cuda.kernel {
--     name = "scale",
--     tensors = {X = x, Y = y},              -- X_t, X_layout(...), X_size
--     source = [[
--       extern "C" __global__ void scale(X_t x, Y_t y, float a) {
--         unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
--         if (i < X_size) y(i) = a * x(i);
--       }]]}
--   k:launch {grid = 4, block = 256, args = {x, y, 2.0}}
--
-- NVRTC is loaded, and kernels compiled, only when a kernel is not in the
-- cache (cute.cuda.cache); the driver is loaded on first use.  Errors (no
-- driver, a compile error with NVRTC's log and the numbered source) are Lua
-- errors carrying the bridge's message.
local ok_core, core = pcall(require, "cute.cuda.core")
if not ok_core then
  error("cute.cuda: the C module cute.cuda.core is not available in this "
        .. "build (" .. tostring(core) .. ")", 0)
end
local cute = require "cute"
local algebra = require "cute.core"
local tiler = require "cute.tiler"

local cuda = {
  core = core,
  available = core.available,     -- ok, reason
  device = core.device,
  nvrtc_version = core.nvrtc_version,
  timings = core.timings,         -- {driver_init_ms, nvrtc_load_ms}
  stats = core.stats,             -- {nvrtc_calls, memory_hits, disk_hits, ...}
  stats_reset = core.stats_reset,
  cache = core.cache,             -- cache("disk"|"memory"|"off" [, dir])
  forget_memory = core.forget_memory,
  now_ms = core.now_ms,
  event = core.event,
  stream = core.stream,
  synchronize = core.synchronize,
  compare = core.compare,         -- compare(got, ref [, rtol, atol])
  limits = core.limits,           -- {check, includes, include_depth}
}

-- ------------------------------------------------------ compile-only use --
-- A program's PTX and SASS, without a GPU: PTX is NVRTC's for compute_XY,
-- SASS is nvdisasm's listing of NVRTC's cubin for sm_XY, XY the binary's
-- architecture unless `arch` names another; both go through the cache.
local function arch_number(arch, op)
  local xy = tostring(arch):match("^%a+_(%d+%a?)$")
  if not xy then
    E.raise(("cute.cuda.Kernel:%s: architecture %s is not sm_XY or "
           .. "compute_XY"):format(op, tostring(arch)))
  end
  return xy
end

local function program_ptx(prog, arch)
  local b = prog.binary
  if arch == nil and b.kind == "ptx" then return b.image end
  return core.compile(prog.source, prog.names, "compute_"
    .. arch_number(arch or b.arch, "ptx"), prog.options).image
end

local function readable(path)
  local f = path and io.open(path, "rb")
  if f then f:close() end
  return f ~= nil
end

-- nvdisasm of $CUDA_HOME, else /usr/local/cuda, else the PATH's.
local function nvdisasm()
  local home = os and os.getenv("CUDA_HOME")
  for _, p in ipairs {home and home .. "/bin/nvdisasm" or false,
                      "/usr/local/cuda/bin/nvdisasm"} do
    if p and readable(p) then return p end
  end
  local h = io.popen and io.popen("command -v nvdisasm 2>/dev/null")
  local p = h and h:read("l")
  if h then h:close() end
  return p ~= "" and p or nil
end

local function program_sass(prog, arch)
  local b = prog.binary
  local cubin = (arch == nil and b.kind == "cubin") and b.image
    or core.compile(prog.source, prog.names, "sm_"
         .. arch_number(arch or b.arch, "sass"), prog.options).image
  -- a host may open io without os (cutelua_options): no temporary file
  if not (os and io and io.popen) then
    E.raise("cute.cuda.Kernel:sass: needs the os library and io.popen "
          .. "(this state opened them without)")
  end
  local tool = nvdisasm()
  if not tool then
    E.raise("cute.cuda.Kernel:sass: nvdisasm not found (it ships with the "
          .. "CUDA toolkit: set CUDA_HOME or put it on PATH)")
  end
  local tmp = os.tmpname()
  local f = assert(io.open(tmp, "wb"))
  f:write(cubin)
  f:close()
  local h = io.popen(("'%s' -c '%s' 2>&1"):format(tool, tmp))
  local out = h:read("a")
  local ok = h:close()
  os.remove(tmp)
  if not ok then E.raise("cute.cuda.Kernel:sass: nvdisasm failed: " .. out) end
  return out
end

-- With CUTELUA_DUMP=dir, every program compiled leaves its PTX (and SASS
-- where nvdisasm is found) in dir as <first kernel name>-<key>.ptx/.sass.
-- A state without the os library (a host's choice) sees no environment.
local function dump(prog)
  local dir = os and os.getenv("CUTELUA_DUMP")
  if not dir or dir == "" then return end
  local base = ("%s/%s-%s"):format(dir, prog.names[1]:gsub("[^%w_]", "_"),
                                   prog.binary.key:sub(1, 16))
  local function put(ext, text)
    local f, why = io.open(base .. ext, "wb")
    if not f then error("cute.cuda: CUTELUA_DUMP: " .. why, 0) end
    f:write(text)
    f:close()
  end
  put(".ptx", program_ptx(prog))
  if nvdisasm() then put(".sass", program_sass(prog)) end
end

-- core.compile, warning once (Lua's warn) when the disk cache could not
-- be written: cache() still says "disk" but kernels stay in memory only;
-- stats().disk_errors counts such failures, disk_error gives the first.
-- Dumps the program where CUTELUA_DUMP asks.
local disk_warned = false
local function compile(source, names, arch, options)
  local bin = core.compile(source, names, arch, options)
  dump {source = source, names = names, options = options, binary = bin}
  if not disk_warned and bin.from_cache == "nvrtc" then
    local s = core.stats()
    if s.disk_errors > 0 then
      disk_warned = true
      warn("cute.cuda: ", s.disk_error, " (kernels are cached in memory "
        .. "only; set CUTELUA_CACHE_DIR to a writable directory)")
    end
  end
  return bin
end

local esize = {}   -- bytes by dtype, from cuda/'s table (core.dtypes)
for name, d in pairs(core.dtypes) do esize[name] = d.size end

--- buffer(dtype, n | {values}) -> device Buffer (a table fills it).
cuda.buffer = E.protect("cute.cuda.buffer", function(dtype, init)
  if type(init) == "table" then
    return core.buffer(dtype, #init):upload(init)
  end
  return core.buffer(dtype, init)
end)

--- memcpy(dst, src [, bytes]): device to device (Buffers or Tensors'
-- buffers from their first elements), asynchronous.
cuda.memcpy = E.protect("cute.cuda.memcpy", function(dst, src, bytes, stream)
  local db, doff = dst, 0
  local sb, soff = src, 0
  if getmetatable(dst) == cuda.Tensor then db, doff = dst.buffer, dst.offset * esize[dst.dtype] end
  if getmetatable(src) == cuda.Tensor then sb, soff = src.buffer, src.offset * esize[src.dtype] end
  if bytes == nil then
    if E.typename(sb) ~= "cute.cuda.Buffer" then
      E.raise("cute.cuda.memcpy: the source must be a cute.cuda.Buffer or "
        .. "tensor, got " .. E.typename(src))
    end
    local _, n, dt = sb:info()
    bytes = n * esize[dt] - soff
  end
  core.memcpy(db, sb, bytes, doff, soff, stream)
end)

-- ---------------------------------------------------------------- tensors --
local function as_layout(x)
  if type(x) == "string" then
    if x:find(" o ", 1, true) then E.raise("cute.cuda: a tensor needs a plain layout, got " .. x) end
    return cute.layout(x)
  end
  return x
end

local Tensor = { __name = "cute.cuda.Tensor" }
Tensor.__index = Tensor
cuda.Tensor = Tensor

-- Argument checks naming the call, the argument and the type received.
local function check(ok, op, what, x)
  if not ok then
    E.raise(("cute.cuda.%s: %s, got %s"):format(op, what, E.typename(x)))
  end
end
-- What a script may call: functions, and values whose metatable has a
-- __call (launch handles, callable tables); a check that asks for a
-- function would refuse the handles every benchmark times.  The raw
-- metatable where the debug library is loaded: a protected one
-- (__metatable) still has its __call.
local raw_metatable = debug and debug.getmetatable or getmetatable
local function callable(x)
  if type(x) == "function" then return true end
  local mt = raw_metatable(x)
  if type(mt) == "userdata" then return mt.__call ~= nil end  -- a view
  return type(mt) == "table" and rawget(mt, "__call") ~= nil
end
local function check_tensors(op, src, dst)
  check(getmetatable(src) == Tensor, op, "the source must be a cute.cuda "
    .. "tensor", src)
  check(getmetatable(dst) == Tensor, op, "the destination must be a "
    .. "cute.cuda tensor", dst)
end

--- tensor(buffer, layout [, offset]): the paper's T = {p + offset} o L.
-- The image of the layout must lie inside the buffer.
function cuda.tensor(buf, layout, offset)
  check(E.typename(buf) == "cute.cuda.Buffer", "tensor", "the buffer "
    .. "must be a cute.cuda.Buffer", buf)
  local L = as_layout(layout)
  check(tiler.is_layout(L), "tensor", "the layout must be a cute.Layout or "
    .. "CuTe text", layout)
  local _, n, dtype = buf:info()
  local given = offset or 0
  offset = math.tointeger(given)   -- 2.0 is 2; 1.5 is refused
  if offset == nil then
    E.raise(("cute.cuda: tensor %s: offset must be an integer (elements), got "
           .. "%s"):format(tostring(L), tostring(given)))
  end
  -- [lo, hi] bounds the offsets L reaches (checked in C); lo <= 0 <= hi,
  -- so offset + lo < 0 needs offset >= 0 first, and then nothing wraps
  local lo, hi = algebra.offset_range(L)
  if offset < 0 or offset + lo < 0 or hi >= n - offset then
    E.raise(string.format("cute.cuda: tensor %s at offset %d reaches [%d, %d], "
                        .. "outside the buffer of %d elements", tostring(L),
                        offset, offset + lo, offset + hi, n))
  end
  return setmetatable({buffer = buf, layout = L, offset = offset,
                       dtype = dtype}, Tensor)
end

--- T(c): with the slice marker, the sub-tensor (paper eq. 10); with a full
-- coordinate, the element's value (read back from the device).
function Tensor.__call(T, ...)
  local r, off = T.layout(...)
  if off ~= nil then return cuda.tensor(T.buffer, r, T.offset + off) end
  return T.buffer:download(T.offset + r, 1)[1]
end

function Tensor.__tostring(T)
  return string.format("tensor<%s> {%d} o %s", T.dtype, T.offset, tostring(T.layout))
end

function Tensor:size() return cute.size(self.layout) end

--- Device address of the tensor's element 0.
function Tensor:ptr()
  return (self.buffer:info()) + self.offset * esize[self.dtype]
end

--- Values in logical (colexicographic) order, read back from the device;
-- at most cute.limits.visit of them (a stride-0 layout has any size).
function Tensor:to_table()
  require("cute.limits").check("visit", "to_table", cute.size(self.layout),
                               "elements", self)
  local lo, hi = algebra.offset_range(self.layout)
  local data = self.buffer:download(self.offset + lo, hi - lo + 1)
  local out, L = {}, self.layout
  for i = 0, cute.size(L) - 1 do out[i + 1] = data[L(i) - lo + 1] end
  return out
end

-- ---------------------------------------------------------------- kernels --
local scalar = {
  float = "f32", double = "f64", int = "i32", signed = "i32",
  ["signed int"] = "i32", int32_t = "i32", unsigned = "u32",
  ["unsigned int"] = "u32", uint32_t = "u32", ["long long"] = "i64",
  ["long long int"] = "i64", long = "i64", int64_t = "i64",
  ptrdiff_t = "i64", ["unsigned long long"] = "u64", ["unsigned long"] = "u64",
  uint64_t = "u64", size_t = "u64",
}

-- The argument kinds of kernel `name`, read from its __global__ signature:
-- pointers and tensor types (NAME_t) are "ptr", C scalars map to their
-- kinds.  Anything else needs an explicit `params` list.
local function params_of(source, name, tensors)
  local list = source:match("__global__[^;{]-[%s%*&]" .. name .. "%s*(%b())")
  if not list then return nil end
  local kinds = {}
  for p in list:sub(2, -2):gmatch("[^,]+") do
    local ty = p:gsub("=.*$", ""):gsub("__restrict__", ""):gsub("const", "")
               :gsub("volatile", ""):gsub("^%s+", ""):gsub("%s+$", "")
    local base = ty:gsub("%s*[%w_]+$", "")   -- drop the parameter's name
    if base == "" then base = ty end
    base = base:gsub("%s+", " "):gsub("^%s+", ""):gsub("%s+$", "")
    local kind
    if base:find("[%*&]") then kind = "ptr"
    elseif base:match("^([%w_]+)_t$") and tensors[base:match("^([%w_]+)_t$")] then kind = "ptr"
    else kind = scalar[base] end
    if not kind then
      E.raise("cute.cuda: kernel " .. name .. ": cannot pass a parameter of "
            .. "type '" .. base .. "' (give params = {...})")
    end
    kinds[#kinds + 1] = kind
  end
  return kinds
end

local Kernel = { __name = "cute.cuda.Kernel" }
Kernel.__index = Kernel
cuda.Kernel = Kernel

local function sorted_keys(t)
  local ks = {}
  for k in pairs(t or {}) do ks[#ks + 1] = k end
  table.sort(ks)
  return ks
end

--- kernel{source, name | names, layouts = {name = Layout|ComposedLayout},
-- tensors = {name = Tensor | {dtype =, layout =}}, arch, options, params}
-- Every named layout becomes `name(i)`, `name(c0, c1, ...)`, `name_size`,
-- `name_cosize`; every tensor the type `name_t` (a pointer with the layout
-- as its call operator), `name_layout(...)`, `name_size`, `name_elem`.
function cuda.kernel(spec)
  check(type(spec) == "table", "kernel", "the spec must be a table {source "
    .. "=, name =, ...}", spec)
  check(type(spec.source) == "string", "kernel", "spec.source must be a "
    .. "string", spec.source)
  local parts = {core.prelude}
  for _, n in ipairs(sorted_keys(spec.layouts)) do
    parts[#parts + 1] = core.codegen(n, as_layout(spec.layouts[n]))
  end
  for _, n in ipairs(sorted_keys(spec.tensors)) do
    local t = spec.tensors[n]
    parts[#parts + 1] = core.codegen(n, as_layout(t.layout), t.dtype)
  end
  parts[#parts + 1] = spec.source
  local source = table.concat(parts, "\n")
  local names = spec.names or {spec.name}
  local bin = compile(source, names, spec.arch, spec.options)
  -- params: kinds by kernel name, or one list when there is one kernel.
  local given, params = spec.params or {}, {}
  for i, n in ipairs(names) do
    params[i] = given[n] or (#names == 1 and given[1] and given)
                or params_of(source, n, spec.tensors or {})
  end
  return setmetatable({binary = bin, source = source, names = names,
                       options = spec.options, params = params}, Kernel)
end

--- k:ptx([arch]) -> the PTX of the kernel's program (for compute_XY of
-- its architecture, or of arch); no GPU needed.
function Kernel:ptx(arch) return program_ptx(self, arch) end

--- k:sass([arch]) -> nvdisasm's SASS listing of the program's cubin (for
-- sm_XY of its architecture, or of arch); no GPU needed, nvdisasm is.
function Kernel:sass(arch) return program_sass(self, arch) end

local function dim3(v)
  if type(v) == "table" then return v[1] or 1, v[2] or 1, v[3] or 1 end
  return v or 1, 1, 1
end

local function pointer(v)
  if type(v) == "number" then return v end
  if getmetatable(v) == Tensor then return v:ptr() end
  return (v:info())
end

--- prepare{grid, block, smem, stream, args, kernel}: a launch handle;
-- calling it (h() or h:run()) launches again with no marshalling.  The
-- handle keeps its binary, stream and pointer arguments (Buffers, Tensors)
-- reachable, so dropping them after prepare does not free their memory.
function Kernel:prepare(cfg)
  local idx = cfg.kernel or 1
  if type(idx) == "string" then
    for i, n in ipairs(self.names) do if n == idx then idx = i end end
  end
  local kinds = self.params[idx]
  local args = cfg.args or {}
  if not kinds then
    E.raise("cute.cuda: kernel " .. tostring(self.names[idx]) .. ": parameter "
          .. "kinds unknown (give params = {...})")
  end
  if #args ~= #kinds then
    E.raise(string.format("cute.cuda: kernel %s takes %d arguments, got %d",
                        self.names[idx], #kinds, #args))
  end
  local h = self.binary:launcher(idx)
  h:grid(dim3(cfg.grid)):block(dim3(cfg.block)):smem(cfg.smem or 0):stream(cfg.stream)
  for i, kind in ipairs(kinds) do
    -- a pointer argument's owner stays reachable from the handle
    if kind == "ptr" then h:arg(i, kind, pointer(args[i]), args[i])
    else h:arg(i, kind, args[i]) end
  end
  return h
end

function Kernel:launch(cfg)
  local h = self:prepare(cfg)
  h()
  return h
end

--- codegen(name, layout [, dtype]) -> the CUDA C a kernel would get.
cuda.codegen = E.protect("codegen", function(name, layout, dtype)
  return core.codegen(name, as_layout(layout), dtype)
end)

-- ------------------------------------------------------------------- copy --
local copies = {}   -- planned and compiled copies, by what determines them

local function copy_entry(src, dst, opts)
  if src.dtype ~= dst.dtype then
    E.raise("cute.cuda: copy: dtypes differ (" .. src.dtype .. " to "
          .. dst.dtype .. "); conversion is not supported")
  end
  -- The plan depends on the offsets only through their alignment.
  local key = not opts and table.concat({tostring(src.layout), src.offset % 16,
    tostring(dst.layout), dst.offset % 16, src.dtype}, "|")
  local e = key and copies[key]
  if not e then
    local plan = core.copy_plan(src.layout, src.offset, dst.layout, dst.offset,
                                src.dtype, opts)
    e = {plan = plan, binary = compile(plan.source, {"cute_copy"})}
    if key then copies[key] = e end
  end
  return e
end

--- copy_plan(src, dst [, opts]) -> {kind, vector, common, summary, source,
-- grid, block}: what copy() would run, without running it.
function cuda.copy_plan(src, dst, opts)
  check_tensors("copy_plan", src, dst)
  return core.copy_plan(src.layout, src.offset, dst.layout, dst.offset,
                        src.dtype, opts)
end

--- copy_prepare(src, dst [, opts]) -> launch handle, plan.
function cuda.copy_prepare(src, dst, opts)
  check_tensors("copy_prepare", src, dst)
  local e = copy_entry(src, dst, opts)
  local h = e.binary:launcher(1)
  h:grid(table.unpack(e.plan.grid)):block(table.unpack(e.plan.block))
  h:arg(1, "ptr", src:ptr(), src):arg(2, "ptr", dst:ptr(), dst)
  return h, e.plan
end

--- copy(src, dst [, opts]): the paper's COPY, dst(i) = src(i) for every i
-- (asynchronous on the default stream).  Returns the plan.  A destination
-- whose layout is not injective (a stride-0 mode, as in Table 2's
-- "constant" row) is written by several threads: defined only when they
-- write the same value (src constant along those coordinates), as in CuTe.
function cuda.copy(src, dst, opts)
  check_tensors("copy", src, dst)
  local h, plan = cuda.copy_prepare(src, dst, opts)
  h()
  return plan
end

--- check_copy(src, dst [, samples, seed]) -> nil, or the first index i
-- with dst(i) ~= src(i) (bitwise; a seeded sample of indices if given).
function cuda.check_copy(src, dst, samples, seed)
  check_tensors("check_copy", src, dst)
  return core.check_copy(src.buffer, src.offset, src.layout,
                         dst.buffer, dst.offset, dst.layout, samples, seed)
end

-- ----------------------------------------------------------------- timing --
--- time(fn [, {warmup = 3, reps = 20, stream}]) -> median milliseconds of
-- one fn() on the device, each repetition timed between two events.
local time_options = {
  { "warmup", E.int_in(0, math.maxinteger), "an integer >= 0" },
  { "reps", E.int_in(1, math.maxinteger), "an integer >= 1" },
}
function cuda.time(fn, opts)
  -- a layout has a __call too, and is no code (cuda.time(L) ran L()); a
  -- launch handle is a userdata as well, and is timed
  local mt, classes = getmetatable(fn), algebra.metatables
  check(callable(fn) and mt ~= classes.Layout and mt ~= classes.Swizzle
        and mt ~= classes.ComposedLayout, "time", "the timed code must be "
        .. "callable (a function or a launch handle)", fn)
  opts = E.options("cute.cuda.time", 2, opts, time_options)
  for _ = 1, opts.warmup or 3 do fn() end
  local a, b, t = core.event(), core.event(), {}
  for i = 1, opts.reps or 20 do
    a:record(opts.stream)
    fn()
    b:record(opts.stream)
    t[i] = a:elapsed(b)
  end
  table.sort(t)
  return t[(#t + 1) // 2], t
end

-- The paper's generic GEMM (cute.gemm plans it): checked on every call,
-- so not through a pcall; planned and compiled once per combination of
-- layouts, dtypes and options.
local generic = {}   -- {plan, kernel} by layouts, dtypes and options

local function gemm_operand(what, T)
  if type(T) ~= "table" or not T.layout or not T.dtype or not T.ptr then
    E.raise(("cute.cuda.gemm: %s must be a cute.cuda tensor, got %s")
      :format(what, E.typename(T)))
  end
end

local function generic_build(A, B, C, opts)
  local p = require("cute.gemm").plan(A.layout, B.layout, C.layout,
    { a = A.dtype, b = B.dtype, c = C.dtype }, opts)
  return { plan = p, kernel = cuda.kernel { source = p.source, name = p.name } }
end

local function generic_gemm(A, B, C, opts)
  gemm_operand("A", A); gemm_operand("B", B); gemm_operand("C", C)
  local key = table.concat({ tostring(A.layout), tostring(B.layout),
    tostring(C.layout), A.dtype, B.dtype, C.dtype,
    tostring(opts.max_grid_yz) }, "|")
  local e = generic[key]
  if not e then
    e = E.within("cute.cuda.gemm", generic_build, A, B, C, opts)
    generic[key] = e
  end
  local h = e.kernel:prepare { grid = e.plan.grid, block = e.plan.block,
    stream = opts.stream,
    args = { A, B, C, opts.alpha or 1, opts.beta or 1 } }
  h()
  return e.plan, h
end

--- GEMM on tensors compatible with (M,K), (N,K), (M,N) [and a batch mode
-- L]: C = alpha A B + beta C (defaults 1, 1).  On a Hopper GPU with f16 or
-- bf16 A and B whose layouts a TMA map describes, the warp-specialised
-- wgmma kernel of cute.gemm_sm90; otherwise, or with opts.path =
-- "generic", the paper's generic GEMM (2.6.2, cute.gemm).  opts.path =
-- "sm90" insists on the Hopper kernel (an error says why it cannot run);
-- without it, a Hopper GPU falling back says why through warn().
-- Returns the plan and the launch handle (calling it runs the same GEMM
-- again).
local fallback_said = {}
function cuda.gemm(A, B, C, opts)
  opts = E.options("cute.cuda.gemm", 4, opts, {})
  local path = opts.path
  if path ~= "generic" and type(A) == "table" and (A.dtype == "bf16" or A.dtype == "f16") then
    local dev = core.available() and core.device()
    if path == "sm90" or (dev and dev.arch == "sm_90") then
      local sm90 = require "cute.gemm_sm90"
      local ok, p, why = pcall(sm90.plan, A, B, C, opts)
      if ok and p then
        local h = sm90.prepare(p, C, { alpha = opts.alpha or 1,
          beta = opts.beta or 1, stream = opts.stream })
        h()
        return p, h
      end
      why = ok and why or tostring(p)
      if path == "sm90" then E.raise("cute.cuda.gemm: " .. why) end
      if not fallback_said[why] then
        fallback_said[why] = true
        warn("cute.cuda.gemm: generic kernel, not the Hopper one: ", why)
      end
    end
  end
  return generic_gemm(A, B, C, opts)
end

return cuda
