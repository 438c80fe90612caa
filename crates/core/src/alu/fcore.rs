//! Exact cores of the correctly rounded float operations (all formats, all directions).
//!
//! Each core takes finite nonzero operands as `Num`s (value = (−1)^neg · sig · 2^exp), forms
//! the exact result — or the exact result truncated, with a sticky flag for the nonzero bits
//! dropped — in 128-bit integer arithmetic, and hands it to [`round_pack`]:
//!
//! * add: both significands are normalized to bit 125 of a `u128`; the operand with the smaller
//!   exponent is shifted right, its lost bits "jammed" into bit 0. Since the larger operand's
//!   low bits are zero, the jammed bit only marks inexactness; bits are lost only when the
//!   exponents differ by > 60, and then cancellation removes at most one leading bit, so the
//!   jammed bit stays far below the rounding position.
//! * fma: the product of the significands (≤ 106 bits) is exact in a `u128`; then as add.
//! * div: (a·2^64) / b in `u128` division (a quotient of ≥ 64 bits); remainder ≠ 0 → sticky.
//! * sqrt: integer square root of a 126/127-bit radicand (a 63-bit root); remainder → sticky.

use super::round::{round_pack, Fmt, RMode};

/// A finite nonzero value (−1)^neg · sig · 2^exp.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Num {
    pub neg: bool,
    pub sig: u128,
    pub exp: i32,
}

/// Normalizes `sig` (nonzero, < 2^126) so that its top bit is bit 125.
#[inline]
fn norm125(sig: u128, exp: i32) -> (u128, i32) {
    let sh = sig.leading_zeros() as i32 - 2;
    (sig << sh, exp - sh)
}

/// Shift right by `d`, OR-ing the shifted-out bits into bit 0.
#[inline]
fn shr_jam(x: u128, d: i64) -> u128 {
    if d <= 0 {
        x
    } else if d >= 128 {
        (x != 0) as u128
    } else {
        (x >> d) | ((x << (128 - d)) != 0) as u128
    }
}

/// The zero an exact cancellation x + (−x) produces: −0 when rounding toward −∞, else +0.
#[inline]
pub fn cancel_zero(fmt: Fmt, mode: RMode) -> u64 {
    if mode == RMode::Rm {
        fmt.sign_bit()
    } else {
        0
    }
}

/// x + y, correctly rounded. Significands must be < 2^126.
pub fn add(fmt: Fmt, x: Num, y: Num, mode: RMode) -> u64 {
    let (xs, xe) = norm125(x.sig, x.exp);
    let (ys, ye) = norm125(y.sig, y.exp);
    let (l, ln, le, s, sn, se) = if xe >= ye {
        (xs, x.neg, xe, ys, y.neg, ye)
    } else {
        (ys, y.neg, ye, xs, x.neg, xe)
    };
    let s = shr_jam(s, le as i64 - se as i64);
    if ln == sn {
        round_pack(fmt, ln, l + s, le, false, mode)
    } else if l > s {
        round_pack(fmt, ln, l - s, le, false, mode)
    } else if s > l {
        round_pack(fmt, sn, s - l, le, false, mode)
    } else {
        cancel_zero(fmt, mode)
    }
}

/// x · y, correctly rounded. Significands must be < 2^64.
#[inline]
pub fn mul(fmt: Fmt, x: Num, y: Num, mode: RMode) -> u64 {
    round_pack(
        fmt,
        x.neg ^ y.neg,
        x.sig * y.sig,
        x.exp + y.exp,
        false,
        mode,
    )
}

/// x · y + z with a single rounding; `z` is `None` for a zero addend. Significands < 2^63.
#[inline]
pub fn fma(fmt: Fmt, x: Num, y: Num, z: Option<Num>, mode: RMode) -> u64 {
    let p = Num {
        neg: x.neg ^ y.neg,
        sig: x.sig * y.sig,
        exp: x.exp + y.exp,
    };
    match z {
        None => round_pack(fmt, p.neg, p.sig, p.exp, false, mode),
        Some(z) => add(fmt, p, z, mode),
    }
}

/// Normalizes a nonzero significand < 2^64 to bit 63.
#[inline]
fn norm63(sig: u128, exp: i32) -> (u128, i32) {
    let sh = sig.leading_zeros() as i32 - 64;
    (sig << sh, exp - sh)
}

/// x / y, correctly rounded. Significands must be < 2^64.
pub fn div(fmt: Fmt, x: Num, y: Num, mode: RMode) -> u64 {
    let (a, ae) = norm63(x.sig, x.exp);
    let (b, be) = norm63(y.sig, y.exp);
    let num = a << 64;
    let q = num / b;
    let r = num % b;
    round_pack(fmt, x.neg ^ y.neg, q, ae - be - 64, r != 0, mode)
}

/// Integer square root: (⌊√n⌋, whether it is exact). A float estimate refined by one Newton
/// step (error < 1), then corrected to the exact floor.
#[inline]
pub fn isqrt(n: u128) -> (u128, bool) {
    if n < 2 {
        return (n, true);
    }
    let mut s = ((n as f64).sqrt() as u128).max(1);
    s = (s + n / s) / 2;
    while !matches!(s.checked_mul(s), Some(sq) if sq <= n) {
        s -= 1;
    }
    while (s + 1).checked_mul(s + 1).is_some_and(|sq| sq <= n) {
        s += 1;
    }
    (s, s * s == n)
}

/// √x for positive x, correctly rounded. The significand must be < 2^64.
pub fn sqrt(fmt: Fmt, x: Num, mode: RMode) -> u64 {
    let mut sh = x.sig.leading_zeros() as i32 - 2;
    if (x.exp - sh).rem_euclid(2) != 0 {
        sh += 1;
    }
    let m = x.sig << sh;
    let e = x.exp - sh;
    let (s, exact) = isqrt(m);
    round_pack(fmt, false, s, e / 2, !exact, mode)
}
