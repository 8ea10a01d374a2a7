--- helpers.ptx -- the PTX ISA's fragment formulas, written out from the
-- ISA's own text (PTX ISA 8.x), independent of the catalog's layouts, so
-- that the specs can check every (thread, value) of every atom against
-- them.  Each formula maps (lane or thread t, value i) to the (row, col)
-- of the operand as the ISA draws it:
--   A  M x K: (m, k)     B  K x N: (k, n)     C/D  M x N: (m, n)
-- with groupID = lane >> 2 and threadID_in_group = lane % 4.
local P = {}

local function g(l) return (l % 32) // 4 end   -- groupID
local function q(l) return l % 4 end           -- threadID_in_group

-- 9.7.14.5.8 "Matrix Fragments for mma.m16n8k16 with floating point type"
--   A: row = groupID (+8 for a2,a3,a6,a7); col = 2 tig + (i & 1) (+8, i >= 4)
--   B: row = 2 tig + (i & 1) (+8 for i >= 2); col = groupID
--   C: row = groupID (+8 for i >= 2); col = 2 tig + (i & 1)
P.m16n8k16 = {
  A = function(l, i) return g(l) + 8 * ((i // 2) % 2), 2 * q(l) + i % 2 + 8 * (i // 4) end,
  B = function(l, i) return 2 * q(l) + i % 2 + 8 * (i // 2), g(l) end,
  C = function(l, i) return g(l) + 8 * (i // 2), 2 * q(l) + i % 2 end,
}

-- 9.7.14.5.7 "Matrix Fragments for mma.m16n8k8", .tf32 operands
--   A: row = groupID (+8 for a1,a3); col = tig (+4 for a2,a3)
--   B: row = tig (+4 for b1); col = groupID
P.m16n8k8_tf32 = {
  A = function(l, i) return g(l) + 8 * (i % 2), q(l) + 4 * (i // 2) end,
  B = function(l, i) return q(l) + 4 * i, g(l) end,
  C = P.m16n8k16.C,
}

-- 9.7.14.5.7, .f16 operands
--   A: row = groupID (+8 for a2,a3); col = 2 tig + (i & 1)
--   B: row = 2 tig + i; col = groupID
P.m16n8k8_f16 = {
  A = function(l, i) return g(l) + 8 * (i // 2), 2 * q(l) + i % 2 end,
  B = function(l, i) return 2 * q(l) + i, g(l) end,
  C = P.m16n8k16.C,
}

-- 9.7.14.5.2 "Matrix Fragments for mma.m8n8k4 with .f64 floating point type"
--   A: (groupID, tig)  B: (tig, groupID)  C: (groupID, 2 tig + i)
P.m8n8k4_f64 = {
  A = function(l) return g(l), q(l) end,
  B = function(l) return q(l), g(l) end,
  C = function(l, i) return g(l), 2 * q(l) + i end,
}

-- 9.7.14.5.1 "Matrix Fragments for mma.m8n8k4 with .f16 floating point
-- type", for the lanes of quad pair 0 (0-3 and 16-19); hi = 4 on lanes 16+.
--   A .row: (laneid % 4 + hi, i)          A .col: (i + hi, laneid % 4)
--   B .row: (laneid % 4, i + hi)          B .col: (i, laneid % 4 + hi)
--   C .f16: (laneid % 4 + hi, i)
--   C .f32: row = (tig & 1) + (i & 2) + hi;  col = (i & 4) + (tig & 2) + (i & 1)
local function hi(l) return l >= 16 and 4 or 0 end
P.m8n8k4_f16 = {
  A_row = function(l, i) return q(l) + hi(l), i end,
  A_col = function(l, i) return i + hi(l), q(l) end,
  B_row = function(l, i) return q(l), i + hi(l) end,
  B_col = function(l, i) return i, q(l) + hi(l) end,
  C_f16 = function(l, i) return q(l) + hi(l), i end,
  C_f32 = function(l, i)
    return q(l) % 2 + (i & 2) + hi(l), (i & 4) + (q(l) & 2) + (i & 1)
  end,
}

-- 9.7.15.5.1.1.1 "Matrix Fragments for wgmma.mma_async.m64nNk16": warp w = t / 32 of the
-- warpgroup owns rows 16w..16w+15.
--   D: row = 16w + groupID + 8 ((i % 4) / 2); col = 8 (i / 4) + 2 tig + i % 2
--   A (registers): row = 16w + groupID + 8 ((i % 4) / 2);
--                  col = 2 tig + i % 2 + 8 (i / 4)
-- Shared-memory operands are read by the whole warpgroup through a
-- descriptor: every thread sees value i at (i % rows, i / rows).
P.wgmma = {
  -- 9.7.15.5.1.1.2 (m64nNk32, 8-bit A in registers):
  --   row = 16w + groupID + 8 ((i % 8) / 4); col = 4 tig + i % 4 + 16 (i / 8)
  A_RS8 = function(t, i)
    return 16 * (t // 32) + g(t) + 8 * ((i % 8) // 4), 4 * q(t) + i % 4 + 16 * (i // 8)
  end,
  C = function(t, i)
    return 16 * (t // 32) + g(t) + 8 * ((i % 4) // 2), 8 * (i // 4) + 2 * q(t) + i % 2
  end,
  A_RS = function(t, i)
    return 16 * (t // 32) + g(t) + 8 * ((i % 4) // 2), 2 * q(t) + i % 2 + 8 * (i // 4)
  end,
}

-- 9.7.14.5.15 "Warp-level matrix load instruction: ldmatrix", .m8n8 .b16,
-- in 16-bit elements: matrix j (of .num = 1, 2, 4) is addressed by lanes 8j..8j+7,
-- one row each; lane l receives in register j the elements (l/4, 2(l%4)+i)
-- of matrix j, or (2(l%4)+i, l/4) with .trans.  Results are (matrix,
-- row, col).
P.ldmatrix = {
  src = function(l, num) local r = l % (8 * num); return r // 8, r % 8 end,
  dst = function(l, j, i) return j, g(l), 2 * q(l) + i end,
  dst_trans = function(l, j, i) return j, 2 * q(l) + i, g(l) end,
}

return P
