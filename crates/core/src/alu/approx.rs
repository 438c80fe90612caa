//! The `.approx` instructions: rcp, sqrt, rsqrt, ex2, lg2, sin, cos, tanh, and div.approx.
//!
//! Hardware evaluates these with table-driven approximations whose results are only specified
//! to within an error bound (e.g. ex2.approx.f32: 2^-22.5 relative; sin/cos.approx.f32:
//! 2^-20.9 absolute in [−π, π]; lg2.approx.f32: 2^-22 relative; tanh.approx.f32: 2^-11
//! relative; rcp/sqrt/rsqrt.approx.f32: about 1 ulp). warpsim evaluates each function in f64
//! (the operand converts exactly) and rounds the result to nearest in the operand's format,
//! which is well inside every bound and deterministic. Special values follow the PTX manual:
//! ex2(−∞) = +0, ex2(+∞) = +∞, lg2(±0) = −∞, lg2(x < 0) = NaN, lg2(+∞) = +∞, sin/cos(±∞) = NaN,
//! sin(±0) = ±0, tanh(±∞) = ±1, rcp(±0) = ±∞, rcp(±∞) = ±0, rsqrt(±0) = ±∞, rsqrt(x < 0) = NaN,
//! rsqrt(+∞) = +0, sqrt(−0) = −0, sqrt(x < 0) = NaN. `.ftz` flushes subnormal operands and
//! results to zero of the same sign. NaN results are the format's default NaN.

use super::round::{flush_in, flush_out, from_f64, to_f64, Fmt};

/// f(x) evaluated in f64 and rounded to nearest into `fmt`.
#[inline]
fn via_f64(fmt: Fmt, a: u64, ftz: bool, f: impl Fn(f64) -> f64) -> u64 {
    let a = flush_in(fmt, a & fmt.mask(), ftz);
    if fmt.is_nan(a) {
        return fmt.default_nan();
    }
    let y = f(to_f64(fmt, a));
    flush_out(fmt, from_f64(fmt, y), ftz)
}

/// `rcp.approx[.ftz].f32` (1/x rounded to nearest) and `rcp.approx.ftz.f64`.
///
/// `rcp.approx.ftz.f64` follows the manual's description of the hardware: only the upper 32
/// bits of the operand (sign, exponent, 20 fraction bits) are used, the reciprocal is placed in
/// the upper 32 bits of the result and the lower 32 bits are zero; subnormal operands and
/// results are flushed (the instruction always flushes). Relative error < 2^-19.
pub fn rcp_approx(fmt: Fmt, a: u64, ftz: bool) -> u64 {
    if fmt != Fmt::F64 {
        return via_f64(fmt, a, ftz, |x| 1.0 / x);
    }
    let a = flush_in(fmt, a, true);
    if fmt.is_nan(a) {
        return fmt.default_nan();
    }
    let hi = a & 0xFFFF_FFFF_0000_0000;
    let r = (1.0 / f64::from_bits(hi)).to_bits();
    if fmt.is_inf(r) || fmt.is_zero(r) {
        return r;
    }
    flush_out(fmt, r & 0xFFFF_FFFF_0000_0000, true)
}

/// `sqrt.approx[.ftz].f32`: √x rounded to nearest.
pub fn sqrt_approx(fmt: Fmt, a: u64, ftz: bool) -> u64 {
    via_f64(fmt, a, ftz, f64::sqrt)
}

/// `rsqrt.approx[.ftz].f32/.f64`: 1/√x.
pub fn rsqrt_approx(fmt: Fmt, a: u64, ftz: bool) -> u64 {
    if fmt == Fmt::F64 {
        // Computed in f64 directly (two roundings: < 1.5 ulp).
        let a = flush_in(fmt, a, ftz);
        if fmt.is_nan(a) {
            return fmt.default_nan();
        }
        let x = f64::from_bits(a);
        let r = if x == 0.0 { 1.0 / x } else { 1.0 / x.sqrt() };
        return flush_out(fmt, from_f64(fmt, r), ftz);
    }
    via_f64(
        fmt,
        a,
        ftz,
        |x| if x == 0.0 { 1.0 / x } else { 1.0 / x.sqrt() },
    )
}

/// `ex2.approx[.ftz].f32` (and f16/bf16): 2^x.
pub fn ex2_approx(fmt: Fmt, a: u64, ftz: bool) -> u64 {
    via_f64(fmt, a, ftz, f64::exp2)
}

/// `lg2.approx[.ftz].f32`: log2 x.
pub fn lg2_approx(fmt: Fmt, a: u64, ftz: bool) -> u64 {
    via_f64(fmt, a, ftz, |x| {
        if x == 0.0 {
            f64::NEG_INFINITY
        } else {
            x.log2()
        }
    })
}

/// `sin.approx[.ftz].f32`.
pub fn sin_approx(fmt: Fmt, a: u64, ftz: bool) -> u64 {
    via_f64(fmt, a, ftz, f64::sin)
}

/// `cos.approx[.ftz].f32`.
pub fn cos_approx(fmt: Fmt, a: u64, ftz: bool) -> u64 {
    via_f64(fmt, a, ftz, f64::cos)
}

/// `tanh.approx.f32` (and f16/bf16).
pub fn tanh_approx(fmt: Fmt, a: u64, ftz: bool) -> u64 {
    via_f64(fmt, a, ftz, f64::tanh)
}

/// `div.approx[.ftz].f32` (and `div.full`, which `Mods` does not tell apart): computed as
/// a · (1/b) in f32, both steps rounded to nearest (≤ 2 ulp for |b| in [2^-126, 2^126]). As the
/// manual specifies, for 2^126 < |b| < 2^128 the result is 0 (signed) — or NaN when a is ∞.
/// For f64 (no such PTX instruction) it is the IEEE quotient.
pub fn div_approx(fmt: Fmt, a: u64, b: u64, ftz: bool) -> u64 {
    if fmt != Fmt::F32 {
        return super::float::div(fmt, a, b, super::round::RMode::Rn, ftz);
    }
    let a = flush_in(fmt, a & fmt.mask(), ftz);
    let b = flush_in(fmt, b & fmt.mask(), ftz);
    if fmt.is_nan(a) || fmt.is_nan(b) {
        return fmt.default_nan();
    }
    let (x, y) = (f32::from_bits(a as u32), f32::from_bits(b as u32));
    let big = y.abs() > f32::from_bits(0x7E80_0000) && y.is_finite(); // 2^126 < |b| < 2^128
    if big {
        return if x.is_infinite() {
            fmt.default_nan()
        } else {
            (a ^ b) & fmt.sign_bit()
        };
    }
    let r = flush_out(fmt, (1.0f32 / y).to_bits() as u64, ftz);
    let q = x * f32::from_bits(r as u32);
    if q.is_nan() {
        return fmt.default_nan();
    }
    flush_out(fmt, q.to_bits() as u64, ftz)
}

/// `div.full[.ftz].f32`: full-range approximate division. warpsim returns the correctly
/// rounded quotient (error 0 ≤ the manual's 2 ulp). Not reachable through [`super::float_binary`]
/// until `Mods` distinguishes `.full` from `.approx`.
pub fn div_full(fmt: Fmt, a: u64, b: u64, ftz: bool) -> u64 {
    super::float::div(fmt, a, b, super::round::RMode::Rn, ftz)
}
