//! `wmma.mma` and `mma.sync`: D = A·B + C over the warp's fragments.
//!
//! The PTX ISA does not fix how the k products are summed (hardware adds them in an
//! unspecified order, with unspecified intermediate rounding). warpsim's order, which the
//! tests' CPU references follow bit for bit:
//! * floating point: each product of two f16, bf16 or tf32 multiplicands is formed in f32
//!   (exact: their significands have at most 11 bits, so the product fits f32's 24, unless
//!   a bf16 product leaves f32's exponent range, where it is rounded as an f32 multiply);
//!   then, for every (i, j), `acc = C[i][j]` (an f16 accumulator widened exactly) and
//!   `acc = acc + A[i][p]·B[p][j]` for p = 0, 1, … k−1, each add an f32 add rounded to
//!   nearest even, subnormals kept. An f16 D is `acc` rounded to nearest even once, at the
//!   end. A NaN result is the canonical NaN (f32 0x7FFFFFFF, f16 0x7FFF).
//! * tf32: the multiply uses the register's top 19 bits; the low 13 bits are ignored
//!   (truncated, not rounded).
//! * integer (s8/u8 → s32): the exact sum C + Σ A·B, wrapped to 32 bits, or with `.satfinite`
//!   clamped to the s32 range.
//!
//! A matrix element held by more than one (lane, element) — wmma's f16 multiplicand copies —
//! is taken from the last in lane order; the copies agree in any program that fills its
//! fragments through `wmma.load` or element-wise code.

use super::{dims, element, layout, set_reg};
use crate::alu;
use crate::exec::warp::{lanes, Frame, Warp, WARP_SIZE};
use crate::ir::{Elem, Matrix, RegId, Rounding, TensorInst, TensorKind, Ty};

/// Runs the multiply-accumulate `t` and writes D to the lanes of `exec`.
pub fn execute(w: &mut Warp, t: &TensorInst, exec: u32) {
    let f = w.frame();
    let (m, n, k) = (t.m as usize, t.n as usize, t.k as usize);
    let a = matrix(w, &f, t, Matrix::A, &t.a_regs, t.a);
    let b = matrix(w, &f, t, Matrix::B, &t.b_regs, t.b);
    let c = matrix(w, &f, t, Matrix::C, &t.c_regs, t.c);
    let mut d = vec![0u32; m * n];
    for i in 0..m {
        for j in 0..n {
            let row = &a[i * k..(i + 1) * k];
            let col = (0..k).map(|p| b[p * n + j]);
            d[i * n + j] = if t.c == Elem::S32 {
                int_dot(t, c[i * n + j], row, col)
            } else {
                float_dot(t, c[i * n + j], row, col)
            };
        }
    }
    let per = t.d.per_reg() as usize;
    for lane in lanes(exec) {
        let mut vals = vec![0u64; t.d_regs.len()];
        for e in 0..t.d_regs.len() * per {
            let (r, col) = coord(t, Matrix::C, lane, e);
            vals[e / per] |= u64::from(d[r * n + col]) << ((e % per) as u32 * t.d.bits());
        }
        for (&r, &v) in t.d_regs.iter().zip(&vals) {
            set_reg(w, &f, r, lane, v);
        }
    }
}

/// (row, column) of fragment element `e` of `lane` in `t`'s layout.
fn coord(t: &TensorInst, matrix: Matrix, lane: usize, e: usize) -> (usize, usize) {
    if t.kind == TensorKind::Mma {
        layout::mma(matrix, t.a, lane, e)
    } else {
        let (rows, cols) = dims(t, matrix);
        layout::wmma(matrix, rows, cols, lane, e)
    }
}

/// The whole `matrix` (row-major element bits) from every lane's fragment in `regs`.
fn matrix(
    w: &Warp,
    f: &Frame,
    t: &TensorInst,
    matrix: Matrix,
    regs: &[RegId],
    e_ty: Elem,
) -> Vec<u32> {
    let (rows, cols) = dims(t, matrix);
    let mut out = vec![0u32; rows * cols];
    for lane in 0..WARP_SIZE {
        for e in 0..regs.len() * e_ty.per_reg() as usize {
            let (r, c) = coord(t, matrix, lane, e);
            out[r * cols + c] = element(w, f, regs, e_ty, lane, e);
        }
    }
    out
}

/// An f16, bf16, tf32 or f32 element as an f32 (exact).
pub fn to_f32(e: Elem, bits: u32) -> f32 {
    match e {
        Elem::F16 => f32::from_bits(alu::cvt(
            Ty::F32,
            Ty::F16,
            Rounding::None,
            false,
            false,
            u64::from(bits),
        ) as u32),
        Elem::Bf16 => f32::from_bits(bits << 16),
        Elem::Tf32 => f32::from_bits(bits & 0xFFFF_E000),
        _ => f32::from_bits(bits),
    }
}

/// One floating-point D element (module doc): its bits in `t.d`'s format.
fn float_dot(t: &TensorInst, c: u32, row: &[u32], col: impl Iterator<Item = u32>) -> u32 {
    let mut acc = to_f32(t.c, c);
    for (&x, y) in row.iter().zip(col) {
        acc += to_f32(t.a, x) * to_f32(t.b, y);
    }
    if t.d == Elem::F16 {
        alu::cvt(
            Ty::F16,
            Ty::F32,
            Rounding::Rn,
            false,
            false,
            u64::from(acc.to_bits()),
        ) as u32
    } else if acc.is_nan() {
        0x7FFF_FFFF
    } else {
        acc.to_bits()
    }
}

/// One integer D element (module doc).
fn int_dot(t: &TensorInst, c: u32, row: &[u32], col: impl Iterator<Item = u32>) -> u32 {
    let value = |e: Elem, v: u32| -> i64 {
        if e == Elem::S8 {
            i64::from(v as u8 as i8)
        } else {
            i64::from(v as u8)
        }
    };
    let mut acc = i64::from(c as i32);
    for (&x, y) in row.iter().zip(col) {
        acc += value(t.a, x) * value(t.b, y);
    }
    if t.satfinite {
        acc.clamp(i64::from(i32::MIN), i64::from(i32::MAX)) as i32 as u32
    } else {
        acc as u32
    }
}
