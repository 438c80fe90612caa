//! Binary floating-point formats and exact rounding.
//!
//! Every correctly rounded operation in the ALU ends in [`round_pack`]: the operation computes
//! its exact result as `sig · 2^exp` (a 128-bit integer significand, plus a `sticky` flag when
//! nonzero bits were dropped below bit 0), and `round_pack` rounds that value into a format in
//! one of the four IEEE 754 directions, handling subnormal results and overflow.

use crate::ir::{Rounding, Ty};

/// An IEEE 754 rounding direction.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum RMode {
    /// To nearest, ties to even.
    Rn,
    /// Toward zero.
    Rz,
    /// Toward −∞.
    Rm,
    /// Toward +∞.
    Rp,
}

impl RMode {
    /// The direction of a PTX rounding modifier: `.rn/.rni` (and no modifier) → `Rn`,
    /// `.rz/.rzi` → `Rz`, `.rm/.rmi` → `Rm`, `.rp/.rpi` → `Rp`.
    #[inline]
    pub fn from_rounding(r: Rounding) -> RMode {
        match r {
            Rounding::Rz | Rounding::Rzi => RMode::Rz,
            Rounding::Rm | Rounding::Rmi => RMode::Rm,
            Rounding::Rp | Rounding::Rpi => RMode::Rp,
            Rounding::None | Rounding::Rn | Rounding::Rni => RMode::Rn,
        }
    }
}

/// A binary interchange format: `frac` explicit fraction bits, `exp` exponent bits, one sign
/// bit. Values are raw bits in the low `bits()` of a `u64`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Fmt {
    pub frac: u32,
    pub exp: u32,
}

impl Fmt {
    pub const F16: Fmt = Fmt { frac: 10, exp: 5 };
    pub const BF16: Fmt = Fmt { frac: 7, exp: 8 };
    pub const F32: Fmt = Fmt { frac: 23, exp: 8 };
    pub const F64: Fmt = Fmt { frac: 52, exp: 11 };

    /// The scalar format of a float type (`F16x2`/`BF16x2` give their 16-bit lane format);
    /// `None` for non-float types.
    #[inline]
    pub fn of(ty: Ty) -> Option<Fmt> {
        match ty {
            Ty::F16 | Ty::F16x2 => Some(Fmt::F16),
            Ty::BF16 | Ty::BF16x2 => Some(Fmt::BF16),
            Ty::F32 => Some(Fmt::F32),
            Ty::F64 => Some(Fmt::F64),
            _ => None,
        }
    }
    #[inline]
    pub const fn bits(self) -> u32 {
        1 + self.exp + self.frac
    }
    /// Mask of the format's bits within a `u64`.
    #[inline]
    pub const fn mask(self) -> u64 {
        if self.bits() >= 64 {
            u64::MAX
        } else {
            (1u64 << self.bits()) - 1
        }
    }
    #[inline]
    pub const fn bias(self) -> i32 {
        (1 << (self.exp - 1)) - 1
    }
    /// Exponent of the smallest normal number.
    #[inline]
    pub const fn emin(self) -> i32 {
        1 - self.bias()
    }
    #[inline]
    pub const fn sign_bit(self) -> u64 {
        1u64 << (self.bits() - 1)
    }
    #[inline]
    pub const fn frac_mask(self) -> u64 {
        (1u64 << self.frac) - 1
    }
    #[inline]
    pub const fn exp_mask(self) -> u64 {
        ((1u64 << self.exp) - 1) << self.frac
    }
    /// +∞.
    #[inline]
    pub const fn inf(self) -> u64 {
        self.exp_mask()
    }
    /// The largest finite value.
    #[inline]
    pub const fn max_finite(self) -> u64 {
        self.exp_mask() - 1
    }
    /// +1.0.
    #[inline]
    pub const fn one(self) -> u64 {
        (self.bias() as u64) << self.frac
    }
    /// The quiet bit of a NaN's fraction.
    #[inline]
    pub const fn quiet_bit(self) -> u64 {
        1u64 << (self.frac - 1)
    }
    /// The NaN an operation produces when it creates one (invalid operation) or, for the 16-
    /// and 32-bit formats, whenever its result is NaN: `0x7FFF` (f16, bf16), `0x7FFF_FFFF`
    /// (f32), `0xFFF8_0000_0000_0000` (f64, CUDA's `CUDART_NAN`).
    #[inline]
    pub const fn default_nan(self) -> u64 {
        if self.bits() == 64 {
            0xFFF8_0000_0000_0000
        } else {
            self.mask() >> 1
        }
    }
    #[inline]
    pub const fn is_nan(self, x: u64) -> bool {
        (x & self.exp_mask()) == self.exp_mask() && (x & self.frac_mask()) != 0
    }
    #[inline]
    pub const fn is_inf(self, x: u64) -> bool {
        (x & (self.mask() >> 1)) == self.exp_mask()
    }
    #[inline]
    pub const fn is_zero(self, x: u64) -> bool {
        (x & (self.mask() >> 1)) == 0
    }
    #[inline]
    pub const fn is_subnormal(self, x: u64) -> bool {
        (x & self.exp_mask()) == 0 && (x & self.frac_mask()) != 0
    }
    #[inline]
    pub const fn is_neg(self, x: u64) -> bool {
        (x & self.sign_bit()) != 0
    }
    #[inline]
    pub const fn abs(self, x: u64) -> u64 {
        x & (self.mask() >> 1)
    }
}

/// The NaN result of an operation that has NaN input `x`: f64 propagates the input's payload
/// (quieted); the narrower formats return their canonical NaN (NVIDIA GPUs keep no payload
/// for f32/f16 results).
#[inline]
pub fn nan_from(fmt: Fmt, x: u64) -> u64 {
    if fmt == Fmt::F64 {
        x | fmt.quiet_bit()
    } else {
        fmt.default_nan()
    }
}

/// `.ftz` on an input: a subnormal becomes the zero of its sign.
#[inline]
pub fn flush_in(fmt: Fmt, x: u64, ftz: bool) -> u64 {
    if ftz && fmt.is_subnormal(x) {
        x & fmt.sign_bit()
    } else {
        x
    }
}

/// `.ftz` on a result: a subnormal result (after rounding) becomes the zero of its sign.
#[inline]
pub fn flush_out(fmt: Fmt, x: u64, ftz: bool) -> u64 {
    flush_in(fmt, x, ftz)
}

/// `.sat` on a float result: clamp to [+0.0, 1.0]; NaN and every negative value (−0.0
/// included) give +0.0.
#[inline]
pub fn saturate(fmt: Fmt, x: u64) -> u64 {
    if fmt.is_nan(x) || fmt.is_neg(x) {
        0
    } else if x > fmt.one() {
        fmt.one()
    } else {
        x
    }
}

/// The class of an unpacked value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Class {
    Zero,
    Finite,
    Inf,
    Nan,
}

/// An unpacked value: for `Finite`, value = (−1)^neg · sig · 2^exp with `sig` < 2^(frac+1)
/// (subnormals keep their exponent at `emin − frac`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Unpacked {
    pub class: Class,
    pub neg: bool,
    pub sig: u64,
    pub exp: i32,
}

#[inline]
pub fn unpack(fmt: Fmt, x: u64) -> Unpacked {
    let neg = fmt.is_neg(x);
    let e = ((x & fmt.exp_mask()) >> fmt.frac) as i32;
    let f = x & fmt.frac_mask();
    let all_ones = (1i32 << fmt.exp) - 1;
    let (class, sig, exp) = if e == all_ones {
        (if f == 0 { Class::Inf } else { Class::Nan }, 0, 0)
    } else if e == 0 {
        if f == 0 {
            (Class::Zero, 0, 0)
        } else {
            (Class::Finite, f, fmt.emin() - fmt.frac as i32)
        }
    } else {
        (
            Class::Finite,
            f | (1u64 << fmt.frac),
            e - fmt.bias() - fmt.frac as i32,
        )
    };
    Unpacked {
        class,
        neg,
        sig,
        exp,
    }
}

/// The result of an overflowing rounding in direction `mode`.
#[inline]
pub fn overflow(fmt: Fmt, neg: bool, mode: RMode) -> u64 {
    let to_inf = match mode {
        RMode::Rn => true,
        RMode::Rz => false,
        RMode::Rp => !neg,
        RMode::Rm => neg,
    };
    let mag = if to_inf { fmt.inf() } else { fmt.max_finite() };
    if neg {
        mag | fmt.sign_bit()
    } else {
        mag
    }
}

/// Rounds (−1)^neg · (sig + ε) · 2^exp into `fmt` in direction `mode`, where ε ∈ (0, 1) when
/// `sticky` is set and 0 otherwise. Handles gradual underflow (subnormal results) and
/// overflow (∞ or the largest finite value, by direction). `sig` must be nonzero unless
/// `sticky` is clear (then the result is the zero of the given sign).
pub fn round_pack(fmt: Fmt, neg: bool, sig: u128, exp: i32, sticky: bool, mode: RMode) -> u64 {
    let sign = if neg { fmt.sign_bit() } else { 0 };
    if sig == 0 {
        // Only a (never used) `sticky`-only value reaches here with sticky set; treat it as
        // a positive value far below the smallest subnormal.
        let up = sticky && matches!((mode, neg), (RMode::Rp, false) | (RMode::Rm, true));
        return sign | up as u64;
    }
    let lz = sig.leading_zeros();
    let sig = sig << lz;
    // Weight exponent of bit 127 of the normalized significand.
    let e_top = exp as i64 + 127 - lz as i64;
    let frac = fmt.frac as i64;
    let emin = fmt.emin() as i64;
    if e_top > fmt.bias() as i64 {
        return overflow(fmt, neg, mode);
    }
    // Index of the bit that becomes the result's last place.
    let idx = 127 - frac + (emin - e_top).max(0);
    let (kept, round, rest) = if idx >= 129 {
        (0u128, false, true)
    } else if idx == 128 {
        (0u128, true, (sig << 1) != 0 || sticky)
    } else {
        let half = 1u128 << (idx - 1);
        (
            sig >> idx,
            sig & half != 0,
            (sig & (half - 1)) != 0 || sticky,
        )
    };
    let inexact = round || rest;
    let inc = match mode {
        RMode::Rn => round && (rest || kept & 1 == 1),
        RMode::Rz => false,
        RMode::Rp => !neg && inexact,
        RMode::Rm => neg && inexact,
    };
    let kept = (kept + inc as u128) as u64;
    let mag = if e_top >= emin {
        // `kept` carries the hidden bit, which adds one to the exponent field; a carry out of
        // the significand moves on into the exponent the same way.
        (((e_top + fmt.bias() as i64 - 1) as u64) << fmt.frac) + kept
    } else {
        // Subnormal: a carry into bit `frac` produces the smallest normal.
        kept
    };
    if mag >= fmt.inf() {
        return overflow(fmt, neg, mode);
    }
    sign | mag
}

/// Rounds the magnitude sig · 2^exp (sig < 2^64) to an integer in direction `mode` (for a value
/// of sign `neg`). Saturates at `u128::MAX` for huge values.
#[inline]
pub fn round_to_int_mag(neg: bool, sig: u64, exp: i32, mode: RMode) -> u128 {
    if sig == 0 {
        return 0;
    }
    if exp >= 0 {
        return if exp >= 64 {
            u128::MAX
        } else {
            (sig as u128) << exp
        };
    }
    let s = exp.unsigned_abs();
    let (m, round, rest) = if s > 64 {
        (0u64, false, true)
    } else if s == 64 {
        (0u64, sig >> 63 == 1, sig << 1 != 0)
    } else {
        let half = 1u64 << (s - 1);
        (sig >> s, sig & half != 0, sig & (half - 1) != 0)
    };
    let inexact = round || rest;
    let inc = match mode {
        RMode::Rn => round && (rest || m & 1 == 1),
        RMode::Rz => false,
        RMode::Rp => !neg && inexact,
        RMode::Rm => neg && inexact,
    };
    m as u128 + inc as u128
}

/// Converts `x` of format `from` to format `to`, rounding in direction `mode` (exact when
/// `to` is wider). NaN: an f64 result keeps the payload, narrower results are canonical.
pub fn convert(from: Fmt, to: Fmt, x: u64, mode: RMode) -> u64 {
    let u = unpack(from, x);
    let sign = if u.neg { to.sign_bit() } else { 0 };
    match u.class {
        Class::Zero => sign,
        Class::Inf => sign | to.inf(),
        Class::Nan => {
            if to == Fmt::F64 {
                let payload = (x & from.frac_mask()) << (to.frac - from.frac);
                sign | to.exp_mask() | to.quiet_bit() | payload
            } else {
                to.default_nan()
            }
        }
        Class::Finite => round_pack(to, u.neg, u.sig as u128, u.exp, false, mode),
    }
}

/// The exact value of `x` (of format `fmt`) as an `f64`.
#[inline]
pub fn to_f64(fmt: Fmt, x: u64) -> f64 {
    if fmt == Fmt::F64 {
        f64::from_bits(x)
    } else if fmt == Fmt::F32 {
        f32::from_bits(x as u32) as f64
    } else {
        f64::from_bits(convert(fmt, Fmt::F64, x & fmt.mask(), RMode::Rn))
    }
}

/// `y` rounded to nearest into `fmt`; NaN gives `fmt`'s default NaN.
#[inline]
pub fn from_f64(fmt: Fmt, y: f64) -> u64 {
    if y.is_nan() {
        fmt.default_nan()
    } else if fmt == Fmt::F64 {
        y.to_bits()
    } else if fmt == Fmt::F32 {
        (y as f32).to_bits() as u64
    } else {
        convert(Fmt::F64, fmt, y.to_bits(), RMode::Rn)
    }
}
