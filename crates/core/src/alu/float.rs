//! Floating-point arithmetic: add sub mul fma div sqrt (IEEE, every rounding direction), min max
//! abs neg copysign, with `.ftz` and `.sat`, for f16, bf16, f32 and f64 (and f16x2/bf16x2 lane
//! by lane).
//!
//! Each operation has a software form (`*_soft`, exact via [`super::fcore`], any format and
//! direction) and, for f32/f64 with round-to-nearest, a fast form on the host's native IEEE
//! arithmetic, which gives the same bits (the tests check the two against each other).

use super::approx;
use super::fcore::{self, Num};
use super::round::{flush_in, flush_out, nan_from, saturate, unpack, Class, Fmt, RMode, Unpacked};
use crate::ir::{Mods, Op, Ty};

#[inline]
fn num(u: &Unpacked) -> Num {
    Num {
        neg: u.neg,
        sig: u.sig as u128,
        exp: u.exp,
    }
}

/// NaN result for two operands, at least one of which is NaN (the first NaN's payload for f64).
#[inline]
fn nan2(fmt: Fmt, a: u64, b: u64) -> u64 {
    if fmt.is_nan(a) {
        nan_from(fmt, a)
    } else {
        nan_from(fmt, b)
    }
}

/// Canonicalizes a NaN result of native arithmetic.
#[inline]
fn fix_nan(fmt: Fmt, r: u64) -> u64 {
    if fmt.is_nan(r) {
        fmt.default_nan()
    } else {
        r
    }
}

#[inline]
fn is_native(fmt: Fmt, mode: RMode) -> bool {
    mode == RMode::Rn && (fmt == Fmt::F32 || fmt == Fmt::F64)
}

// ---------------------------------------------------------------------------------------------
// f32 round-to-nearest without .ftz/.sat: one native operation per lane
//
// For these, a NaN operand gives a NaN result and every f32 NaN result is the canonical one, so
// "canonicalise a NaN result of the host's operation" is the whole rule. [`add`], [`mul`] and
// [`fma`] use these functions for that case, and the executor calls them straight from its lane
// loops ([`f32_fast`]), so the semantics stay defined once.

/// The f32 operations the executor may run as [`f32_add`] … [`f32_fma`] over whole warps.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum F32Fast {
    Add,
    Sub,
    Mul,
    Fma,
}

/// Whether `op` on `ty` with `mods` is one of the [`F32Fast`] operations.
#[inline]
pub fn f32_fast(op: Op, ty: Ty, mods: &Mods) -> Option<F32Fast> {
    if ty != Ty::F32 || mods.ftz || mods.sat || RMode::from_rounding(mods.rounding) != RMode::Rn {
        return None;
    }
    match op {
        Op::FAdd => Some(F32Fast::Add),
        Op::FSub => Some(F32Fast::Sub),
        Op::FMul => Some(F32Fast::Mul),
        Op::FFma => Some(F32Fast::Fma),
        _ => None,
    }
}

#[inline(always)]
fn f32_result(r: f32) -> u64 {
    if r.is_nan() {
        Fmt::F32.default_nan()
    } else {
        r.to_bits() as u64
    }
}

/// `add.rn.f32` (no `.ftz`, no `.sat`).
#[inline(always)]
pub fn f32_add(a: u64, b: u64) -> u64 {
    f32_result(f32::from_bits(a as u32) + f32::from_bits(b as u32))
}

/// `sub.rn.f32`.
#[inline(always)]
pub fn f32_sub(a: u64, b: u64) -> u64 {
    f32_result(f32::from_bits(a as u32) - f32::from_bits(b as u32))
}

/// `mul.rn.f32`.
#[inline(always)]
pub fn f32_mul(a: u64, b: u64) -> u64 {
    f32_result(f32::from_bits(a as u32) * f32::from_bits(b as u32))
}

/// `fma.rn.f32`: one rounding (the host's fused multiply-add).
#[inline(always)]
pub fn f32_fma(a: u64, b: u64, c: u64) -> u64 {
    f32_result(f32::from_bits(a as u32).mul_add(f32::from_bits(b as u32), f32::from_bits(c as u32)))
}

// ---------------------------------------------------------------------------------------------
// add / sub

/// a + b (or a − b when `negate_b`) in software: correctly rounded in `mode`.
pub fn add_soft(fmt: Fmt, a: u64, b: u64, negate_b: bool, mode: RMode, ftz: bool) -> u64 {
    let a = flush_in(fmt, a & fmt.mask(), ftz);
    let b = flush_in(fmt, b & fmt.mask(), ftz);
    if fmt.is_nan(a) || fmt.is_nan(b) {
        return nan2(fmt, a, b);
    }
    let b = if negate_b { b ^ fmt.sign_bit() } else { b };
    let (ua, ub) = (unpack(fmt, a), unpack(fmt, b));
    let r = match (ua.class, ub.class) {
        (Class::Inf, Class::Inf) => {
            if ua.neg == ub.neg {
                a
            } else {
                fmt.default_nan()
            }
        }
        (Class::Inf, _) => a,
        (_, Class::Inf) => b,
        (Class::Zero, Class::Zero) => {
            if ua.neg == ub.neg {
                a
            } else {
                fcore::cancel_zero(fmt, mode)
            }
        }
        (Class::Zero, _) => b,
        (_, Class::Zero) => a,
        _ => fcore::add(fmt, num(&ua), num(&ub), mode),
    };
    flush_out(fmt, r, ftz)
}

/// a + b (a − b when `negate_b`).
#[inline]
pub fn add(fmt: Fmt, a: u64, b: u64, negate_b: bool, mode: RMode, ftz: bool) -> u64 {
    if !is_native(fmt, mode) {
        return add_soft(fmt, a, b, negate_b, mode, ftz);
    }
    if fmt == Fmt::F32 && !ftz {
        return if negate_b {
            f32_sub(a, b)
        } else {
            f32_add(a, b)
        };
    }
    let a = flush_in(fmt, a & fmt.mask(), ftz);
    let b = flush_in(fmt, b & fmt.mask(), ftz);
    if fmt.is_nan(a) || fmt.is_nan(b) {
        return nan2(fmt, a, b);
    }
    let r = if fmt == Fmt::F32 {
        let (x, y) = (f32::from_bits(a as u32), f32::from_bits(b as u32));
        (if negate_b { x - y } else { x + y }).to_bits() as u64
    } else {
        let (x, y) = (f64::from_bits(a), f64::from_bits(b));
        (if negate_b { x - y } else { x + y }).to_bits()
    };
    flush_out(fmt, fix_nan(fmt, r), ftz)
}

// ---------------------------------------------------------------------------------------------
// mul

pub fn mul_soft(fmt: Fmt, a: u64, b: u64, mode: RMode, ftz: bool) -> u64 {
    let a = flush_in(fmt, a & fmt.mask(), ftz);
    let b = flush_in(fmt, b & fmt.mask(), ftz);
    if fmt.is_nan(a) || fmt.is_nan(b) {
        return nan2(fmt, a, b);
    }
    let (ua, ub) = (unpack(fmt, a), unpack(fmt, b));
    let sign = if ua.neg ^ ub.neg { fmt.sign_bit() } else { 0 };
    let r = match (ua.class, ub.class) {
        (Class::Inf, Class::Zero) | (Class::Zero, Class::Inf) => fmt.default_nan(),
        (Class::Inf, _) | (_, Class::Inf) => sign | fmt.inf(),
        (Class::Zero, _) | (_, Class::Zero) => sign,
        _ => fcore::mul(fmt, num(&ua), num(&ub), mode),
    };
    flush_out(fmt, r, ftz)
}

#[inline]
pub fn mul(fmt: Fmt, a: u64, b: u64, mode: RMode, ftz: bool) -> u64 {
    if !is_native(fmt, mode) {
        return mul_soft(fmt, a, b, mode, ftz);
    }
    if fmt == Fmt::F32 && !ftz {
        return f32_mul(a, b);
    }
    let a = flush_in(fmt, a & fmt.mask(), ftz);
    let b = flush_in(fmt, b & fmt.mask(), ftz);
    if fmt.is_nan(a) || fmt.is_nan(b) {
        return nan2(fmt, a, b);
    }
    let r = if fmt == Fmt::F32 {
        (f32::from_bits(a as u32) * f32::from_bits(b as u32)).to_bits() as u64
    } else {
        (f64::from_bits(a) * f64::from_bits(b)).to_bits()
    };
    flush_out(fmt, fix_nan(fmt, r), ftz)
}

// ---------------------------------------------------------------------------------------------
// fma

pub fn fma_soft(fmt: Fmt, a: u64, b: u64, c: u64, mode: RMode, ftz: bool) -> u64 {
    let a = flush_in(fmt, a & fmt.mask(), ftz);
    let b = flush_in(fmt, b & fmt.mask(), ftz);
    let c = flush_in(fmt, c & fmt.mask(), ftz);
    if fmt.is_nan(a) || fmt.is_nan(b) {
        return nan2(fmt, a, b);
    }
    if fmt.is_nan(c) {
        return nan_from(fmt, c);
    }
    let (ua, ub, uc) = (unpack(fmt, a), unpack(fmt, b), unpack(fmt, c));
    let pneg = ua.neg ^ ub.neg;
    let psign = if pneg { fmt.sign_bit() } else { 0 };
    let r = match (ua.class, ub.class) {
        (Class::Inf, Class::Zero) | (Class::Zero, Class::Inf) => fmt.default_nan(),
        (Class::Inf, _) | (_, Class::Inf) => {
            if uc.class == Class::Inf && uc.neg != pneg {
                fmt.default_nan()
            } else {
                psign | fmt.inf()
            }
        }
        (Class::Zero, _) | (_, Class::Zero) => match uc.class {
            Class::Zero if uc.neg != pneg => fcore::cancel_zero(fmt, mode),
            _ => c,
        },
        _ => match uc.class {
            Class::Inf => c,
            Class::Zero => fcore::fma(fmt, num(&ua), num(&ub), None, mode),
            _ => fcore::fma(fmt, num(&ua), num(&ub), Some(num(&uc)), mode),
        },
    };
    flush_out(fmt, r, ftz)
}

/// a · b + c with one rounding (`fma`, and `mad.f32/.f64`).
#[inline]
pub fn fma(fmt: Fmt, a: u64, b: u64, c: u64, mode: RMode, ftz: bool) -> u64 {
    if !is_native(fmt, mode) {
        return fma_soft(fmt, a, b, c, mode, ftz);
    }
    if fmt == Fmt::F32 && !ftz {
        return f32_fma(a, b, c);
    }
    let a = flush_in(fmt, a & fmt.mask(), ftz);
    let b = flush_in(fmt, b & fmt.mask(), ftz);
    let c = flush_in(fmt, c & fmt.mask(), ftz);
    if fmt.is_nan(a) || fmt.is_nan(b) {
        return nan2(fmt, a, b);
    }
    if fmt.is_nan(c) {
        return nan_from(fmt, c);
    }
    let r = if fmt == Fmt::F32 {
        let (x, y, z) = (
            f32::from_bits(a as u32),
            f32::from_bits(b as u32),
            f32::from_bits(c as u32),
        );
        x.mul_add(y, z).to_bits() as u64
    } else {
        f64::from_bits(a)
            .mul_add(f64::from_bits(b), f64::from_bits(c))
            .to_bits()
    };
    flush_out(fmt, fix_nan(fmt, r), ftz)
}

// ---------------------------------------------------------------------------------------------
// div / rcp / sqrt

pub fn div_soft(fmt: Fmt, a: u64, b: u64, mode: RMode, ftz: bool) -> u64 {
    let a = flush_in(fmt, a & fmt.mask(), ftz);
    let b = flush_in(fmt, b & fmt.mask(), ftz);
    if fmt.is_nan(a) || fmt.is_nan(b) {
        return nan2(fmt, a, b);
    }
    let (ua, ub) = (unpack(fmt, a), unpack(fmt, b));
    let sign = if ua.neg ^ ub.neg { fmt.sign_bit() } else { 0 };
    let r = match (ua.class, ub.class) {
        (Class::Inf, Class::Inf) | (Class::Zero, Class::Zero) => fmt.default_nan(),
        (Class::Inf, _) | (_, Class::Zero) => sign | fmt.inf(),
        (_, Class::Inf) | (Class::Zero, _) => sign,
        _ => fcore::div(fmt, num(&ua), num(&ub), mode),
    };
    flush_out(fmt, r, ftz)
}

/// a / b, IEEE (`div.rn/.rz/.rm/.rp`).
#[inline]
pub fn div(fmt: Fmt, a: u64, b: u64, mode: RMode, ftz: bool) -> u64 {
    if !is_native(fmt, mode) {
        return div_soft(fmt, a, b, mode, ftz);
    }
    let a = flush_in(fmt, a & fmt.mask(), ftz);
    let b = flush_in(fmt, b & fmt.mask(), ftz);
    if fmt.is_nan(a) || fmt.is_nan(b) {
        return nan2(fmt, a, b);
    }
    let r = if fmt == Fmt::F32 {
        (f32::from_bits(a as u32) / f32::from_bits(b as u32)).to_bits() as u64
    } else {
        (f64::from_bits(a) / f64::from_bits(b)).to_bits()
    };
    flush_out(fmt, fix_nan(fmt, r), ftz)
}

pub fn sqrt_soft(fmt: Fmt, a: u64, mode: RMode, ftz: bool) -> u64 {
    let a = flush_in(fmt, a & fmt.mask(), ftz);
    let ua = unpack(fmt, a);
    let r = match ua.class {
        Class::Nan => nan_from(fmt, a),
        Class::Zero => a,
        _ if ua.neg => fmt.default_nan(),
        Class::Inf => a,
        Class::Finite => fcore::sqrt(fmt, num(&ua), mode),
    };
    flush_out(fmt, r, ftz)
}

/// √a, IEEE (`sqrt.rn/.rz/.rm/.rp`). √−0 = −0, √(negative) = NaN.
#[inline]
pub fn sqrt(fmt: Fmt, a: u64, mode: RMode, ftz: bool) -> u64 {
    if !is_native(fmt, mode) {
        return sqrt_soft(fmt, a, mode, ftz);
    }
    let a = flush_in(fmt, a & fmt.mask(), ftz);
    if fmt.is_nan(a) {
        return nan_from(fmt, a);
    }
    let r = if fmt == Fmt::F32 {
        f32::from_bits(a as u32).sqrt().to_bits() as u64
    } else {
        f64::from_bits(a).sqrt().to_bits()
    };
    flush_out(fmt, fix_nan(fmt, r), ftz)
}

// ---------------------------------------------------------------------------------------------
// min / max / abs / neg / copysign

/// A key whose integer order is the numeric order of non-NaN values, with −0 == +0.
#[inline]
fn key(fmt: Fmt, x: u64) -> i64 {
    let m = fmt.abs(x) as i64;
    if fmt.is_neg(x) {
        -m
    } else {
        m
    }
}

/// `min`/`max`: a NaN operand is ignored (both NaN → the default NaN); −0 < +0.
pub fn min_max(fmt: Fmt, a: u64, b: u64, is_max: bool, ftz: bool) -> u64 {
    let a = flush_in(fmt, a & fmt.mask(), ftz);
    let b = flush_in(fmt, b & fmt.mask(), ftz);
    match (fmt.is_nan(a), fmt.is_nan(b)) {
        (true, true) => return fmt.default_nan(),
        (true, false) => return b,
        (false, true) => return a,
        _ => {}
    }
    let (ka, kb) = (key(fmt, a), key(fmt, b));
    if ka == kb {
        // Equal values; they differ at most in the sign of a zero.
        let neg = if is_max {
            fmt.is_neg(a) && fmt.is_neg(b)
        } else {
            fmt.is_neg(a) || fmt.is_neg(b)
        };
        return if neg {
            a | fmt.sign_bit()
        } else {
            a & !fmt.sign_bit()
        };
    }
    if (ka > kb) == is_max {
        a
    } else {
        b
    }
}

/// `abs`: clears the sign bit (a NaN keeps its payload). `.ftz` flushes a subnormal to +0.
#[inline]
pub fn abs(fmt: Fmt, a: u64, ftz: bool) -> u64 {
    fmt.abs(flush_in(fmt, a & fmt.mask(), ftz))
}

/// `neg`: flips the sign bit (a NaN keeps its payload). `.ftz` flushes a subnormal first.
#[inline]
pub fn neg(fmt: Fmt, a: u64, ftz: bool) -> u64 {
    flush_in(fmt, a & fmt.mask(), ftz) ^ fmt.sign_bit()
}

/// `copysign d, a, b`: b with the sign of a (bitwise; NaNs pass through).
#[inline]
pub fn copysign(fmt: Fmt, a: u64, b: u64) -> u64 {
    ((b & fmt.mask()) & !fmt.sign_bit()) | (a & fmt.sign_bit())
}

// ---------------------------------------------------------------------------------------------
// dispatch

/// Applies `f` to each 16-bit lane of a packed f16x2/bf16x2 value pair.
#[inline]
fn lanes2(a: u64, b: u64, c: u64, f: impl Fn(u64, u64, u64) -> u64) -> u64 {
    let lo = f(a & 0xFFFF, b & 0xFFFF, c & 0xFFFF) & 0xFFFF;
    let hi = f((a >> 16) & 0xFFFF, (b >> 16) & 0xFFFF, (c >> 16) & 0xFFFF) & 0xFFFF;
    lo | (hi << 16)
}

#[inline]
fn is_packed(ty: Ty) -> bool {
    matches!(ty, Ty::F16x2 | Ty::BF16x2)
}

#[inline]
fn ftz_of(fmt: Fmt, mods: &Mods) -> bool {
    mods.ftz && fmt != Fmt::F64
}

#[inline]
fn binary_scalar(op: Op, fmt: Fmt, mods: &Mods, a: u64, b: u64) -> u64 {
    let mode = RMode::from_rounding(mods.rounding);
    let ftz = ftz_of(fmt, mods);
    let r = match op {
        Op::FAdd => add(fmt, a, b, false, mode, ftz),
        Op::FSub => add(fmt, a, b, true, mode, ftz),
        Op::FMul => mul(fmt, a, b, mode, ftz),
        Op::FDiv if mods.approx => approx::div_approx(fmt, a, b, ftz),
        Op::FDiv => div(fmt, a, b, mode, ftz),
        Op::FMin => return min_max(fmt, a, b, false, ftz),
        Op::FMax => return min_max(fmt, a, b, true, ftz),
        Op::Copysign => return copysign(fmt, a, b),
        _ => return 0,
    };
    if mods.sat {
        saturate(fmt, r)
    } else {
        r
    }
}

/// Two-operand float ops: `FAdd FSub FMul FDiv FMin FMax Copysign` (see the module table).
#[inline]
pub fn float_binary(op: Op, ty: Ty, mods: &Mods, a: u64, b: u64) -> u64 {
    let Some(fmt) = Fmt::of(ty) else { return 0 };
    if is_packed(ty) {
        lanes2(a, b, 0, |x, y, _| binary_scalar(op, fmt, mods, x, y))
    } else {
        binary_scalar(op, fmt, mods, a, b)
    }
}

#[inline]
fn fma_scalar(fmt: Fmt, mods: &Mods, a: u64, b: u64, c: u64) -> u64 {
    let r = fma(
        fmt,
        a,
        b,
        c,
        RMode::from_rounding(mods.rounding),
        ftz_of(fmt, mods),
    );
    if mods.sat {
        saturate(fmt, r)
    } else {
        r
    }
}

/// `FFma`: `fma.rnd` and `mad.rnd` (= fma) — a · b + c rounded once.
#[inline]
pub fn float_fma(ty: Ty, mods: &Mods, a: u64, b: u64, c: u64) -> u64 {
    let Some(fmt) = Fmt::of(ty) else { return 0 };
    if is_packed(ty) {
        lanes2(a, b, c, |x, y, z| fma_scalar(fmt, mods, x, y, z))
    } else {
        fma_scalar(fmt, mods, a, b, c)
    }
}

#[inline]
fn unary_scalar(op: Op, fmt: Fmt, mods: &Mods, a: u64) -> u64 {
    let mode = RMode::from_rounding(mods.rounding);
    let ftz = ftz_of(fmt, mods);
    let r = match op {
        Op::FAbs => abs(fmt, a, ftz),
        Op::FNeg => neg(fmt, a, ftz),
        Op::FRcp if mods.approx => approx::rcp_approx(fmt, a, mods.ftz),
        Op::FRcp => div(fmt, fmt.one(), a, mode, ftz),
        Op::FSqrt if mods.approx => approx::sqrt_approx(fmt, a, ftz),
        Op::FSqrt => sqrt(fmt, a, mode, ftz),
        Op::FRsqrt => approx::rsqrt_approx(fmt, a, ftz),
        Op::FEx2 => approx::ex2_approx(fmt, a, ftz),
        Op::FLg2 => approx::lg2_approx(fmt, a, ftz),
        Op::FSin => approx::sin_approx(fmt, a, ftz),
        Op::FCos => approx::cos_approx(fmt, a, ftz),
        Op::FTanh => approx::tanh_approx(fmt, a, ftz),
        _ => return 0,
    };
    if mods.sat {
        saturate(fmt, r)
    } else {
        r
    }
}

/// One-operand float ops: `FAbs FNeg FRcp FSqrt FRsqrt FEx2 FLg2 FSin FCos FTanh`.
#[inline]
pub fn float_unary(op: Op, ty: Ty, mods: &Mods, a: u64) -> u64 {
    let Some(fmt) = Fmt::of(ty) else { return 0 };
    if is_packed(ty) {
        lanes2(a, 0, 0, |x, _, _| unary_scalar(op, fmt, mods, x))
    } else {
        unary_scalar(op, fmt, mods, a)
    }
}

/// Any float op by its sources in PTX order (`src[0..3]`); see the module table.
#[inline]
pub fn float_op(op: Op, ty: Ty, mods: &Mods, src: [u64; 3]) -> u64 {
    match op {
        Op::FFma => float_fma(ty, mods, src[0], src[1], src[2]),
        Op::FAdd | Op::FSub | Op::FMul | Op::FDiv | Op::FMin | Op::FMax | Op::Copysign => {
            float_binary(op, ty, mods, src[0], src[1])
        }
        _ => float_unary(op, ty, mods, src[0]),
    }
}
