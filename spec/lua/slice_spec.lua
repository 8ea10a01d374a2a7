-- Slicing (paper 2.5.1, Figure 5): A(c' + c*) = {A(c')} o A(c*).  A call
-- with the marker cute._ returns the sublayout and the offset.
local cute = require "cute"
local _ = cute._

describe("slicing, Figure 5", function()
  local A = cute.layout "((3,2),((2,3),2)):((4,1),((2,15),100))"

  it("the 6x12 tensor of Figure 5, cell by cell", function()
    local fig5 = {
      {0, 2, 15, 17, 30, 32, 100, 102, 115, 117, 130, 132},
      {4, 6, 19, 21, 34, 36, 104, 106, 119, 121, 134, 136},
      {8, 10, 23, 25, 38, 40, 108, 110, 123, 125, 138, 140},
      {1, 3, 16, 18, 31, 33, 101, 103, 116, 118, 131, 133},
      {5, 7, 20, 22, 35, 37, 105, 107, 120, 122, 135, 137},
      {9, 11, 24, 26, 39, 41, 109, 111, 124, 126, 139, 141}}
    for m = 0, 5 do
      for n = 0, 11 do assert.equal(fig5[m + 1][n + 1], A(m, n)) end
    end
  end)

  -- One top-level mode per `_` leaf of the coordinate, each that leaf's
  -- whole sub-tree (CuTe's slice, and the paper's reference): a single `_`
  -- keeps the wrapping tuple, `_` leaves at two levels come out flat.
  -- Figure 5 typesets the same functions without the outer tuple.
  local cases = {
    {"A(2,_)", {2, _}, 8, "(((2,3),2)):(((2,15),100))"},
    {"A(_,5)", {_, 5}, 32, "((3,2)):((4,1))"},
    {"A(2,((0,_),_))", {2, {{0, _}, _}}, 8, "(3,2):(15,100)"},
    {"A((_,1),(_,0))", {{_, 1}, {_, 0}}, 1, "(3,(2,3)):(4,(2,15))"},
    {"A((_,0),((0,_),1))", {{_, 0}, {{0, _}, 1}}, 100, "(3,3):(4,15)"},
    {"A((1,_),((_,0),_))", {{1, _}, {{_, 0}, _}}, 4, "(2,2,2):(1,2,100)"},
  }
  for _, c in ipairs(cases) do
    it(c[1] .. " = {" .. c[3] .. "} o " .. c[4], function()
      local sub, off = A(table.unpack(c[2]))
      assert.equal(c[4], tostring(sub))
      assert.equal(c[3], off)
    end)
  end

  it("a slice evaluates like the full coordinate", function()
    local sub, off = A(2, _)
    for n = 0, 11 do assert.equal(A(2, n), off + sub(n)) end
    sub, off = A(_, 5)
    for m = 0, 5 do assert.equal(A(m, 5), off + sub(m)) end
  end)

  it("slicing a coordinate layout gives a coordinate offset", function()
    local I = cute.make_identity_layout {4, 8}
    local sub, off = I(2, _)
    assert.equal("(8):(1@1)", tostring(sub))
    assert.same({2, 0}, off)
  end)

  it("cute._ alone keeps everything", function()
    local B = cute.layout "(4,8):(1,4)"
    local sub, off = B(_)
    assert.equal(B, sub)
    assert.equal(0, off)
  end)
end)

describe("L:mode(i, j, ...) takes nested modes (CuTe's layout<I,J>)", function()
  local B = cute.layout "(8,((4,3),2)):(16,((1,4),128))"
  it("each index goes one level down", function()
    assert.equal("((4,3),2):((1,4),128)", tostring(B:mode(1)))
    assert.equal("(4,3):(1,4)", tostring(B:mode(1, 0)))
    assert.equal("3:4", tostring(B:mode(1, 0, 1)))
    assert.equal("8:16", tostring(B:mode(0, 0)))   -- an integer's mode 0
  end)
  it("refuses an index past a level's rank", function()
    assert.has_error(function() B:mode(1, 2) end)
    assert.has_error(function() B:mode(0, 1) end)
    assert.has_error(function() B:mode(1, -1) end)
  end)
end)

describe("the marker _", function()
  -- cute/cuda/core.so carries its own copy of the bindings; a module
  -- loaded from another file is another copy.  Each copy must read the
  -- others' marker as `_` (it lives in the registry, not at an address).
  it("is the same value in every copy of cute.core", function()
    local path = package.searchpath("cute.core", package.cpath)
    if not path then
      pending("cute.core is built in, not loaded from a file")
      return
    end
    local copy_path = os.tmpname()
    local src = assert(io.open(path, "rb"))
    local dst = assert(io.open(copy_path, "wb"))
    dst:write(src:read("a"))
    src:close()
    dst:close()
    local open = assert(package.loadlib(copy_path, "luaopen_cute_core"))
    os.remove(copy_path)
    local copy = open()
    assert.equal(_, copy._)
    local A = cute.layout "(3,4):(1,3)"
    local S, off = A(1, copy._)
    assert.equal("(4):(3)", tostring(S))
    assert.equal(1, off)
    S, off = copy.layout "(3,4):(1,3)"(_, 2)
    assert.equal("(3):(1)", tostring(S))
    assert.equal(6, off)
    -- each copy's Layouts are the other's (each tags its own, and reads
    -- the other's by the metatable's mark)
    local B = copy.layout "(3,2):(2,6)"
    assert.equal("(3,2):(2,6)", tostring(cute.composition(A, B)))
    assert.equal("(3,2):(2,6)", tostring(copy.composition(A, B)))
    assert.equal("(3,4):(2,6)", tostring(copy.composition(B, A)))
    assert.equal("12:1", tostring(copy.coalesce(A)))
    assert.equal("6:2", tostring(cute.coalesce(B)))
  end)
end)
