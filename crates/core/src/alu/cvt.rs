//! `cvt`: conversions between u8..u64, s8..s64 (b types act as unsigned), f16, bf16, f32, f64.
//!
//! * int → int: the source is sign- or zero-extended by its type, then truncated to the
//!   destination (`.sat`: clamped to the destination's range instead).
//! * int → float: exact 64-bit value rounded in the given direction (`.rn` when none).
//! * float → int: rounded to an integer by `.rni/.rzi/.rmi/.rpi` (no modifier: `.rzi`; the
//!   float directions `.rn…` are accepted as synonyms), then **always** saturated to the
//!   destination's range (PTX float→int conversions saturate); NaN → 0.
//! * float → float: narrowing rounds in the given direction (`.rn` when none); widening is exact;
//!   with an integer rounding (`cvt.rni.f32.f32`, …) the value is first rounded to an integral
//!   value in the source format, then converted (rounding in the matching direction).
//!   NaN: an f64 result keeps the payload (quieted); f32/f16/bf16 results are canonical.
//! * `.ftz` flushes subnormal f32 sources and f32 results to zero of the same sign (the manual
//!   defines it for .f32 only). `.sat` with a float destination clamps to [0.0, 1.0], NaN → +0.
//! * Results are zero-extended to 64 bits, except s8/s16 destinations, which are returned
//!   sign-extended to 64 bits (PTX sign-extends a sub-word signed result to the destination
//!   register's width, e.g. `cvt.s16.s8` into a 32-bit register gives 0xFFFFFFC2 for 0xC2).

use super::int::{sext, width};
use super::round::{
    convert, flush_in, flush_out, round_pack, round_to_int_mag, saturate, to_f64, unpack, Class,
    Fmt, RMode,
};
use crate::ir::{Rounding, Ty};

#[inline]
fn is_int_rounding(r: Rounding) -> bool {
    matches!(
        r,
        Rounding::Rni | Rounding::Rzi | Rounding::Rmi | Rounding::Rpi
    )
}

/// Range [min, max] of an integer type as i128.
#[inline]
fn int_range(ty: Ty) -> (i128, i128) {
    let w = width(ty);
    if ty.is_signed() {
        (-(1i128 << (w - 1)), (1i128 << (w - 1)) - 1)
    } else {
        (0, (1i128 << w) - 1)
    }
}

/// Packs an in-range integer value for destination `dst` (s8/s16 sign-extended, see module doc).
#[inline]
fn pack_int(dst: Ty, v: i128) -> u64 {
    let r = (v as u64) & dst.mask();
    if matches!(dst, Ty::S8 | Ty::S16) {
        sext(r, dst) as u64
    } else {
        r
    }
}

/// Converts `a` from type `src` to type `dst` (see the module doc for the rules). Packed
/// (f16x2/bf16x2), `Pred` and `B128` types are not conversions PTX has in this form; they give 0.
pub fn cvt(dst: Ty, src: Ty, rounding: Rounding, ftz: bool, sat: bool, a: u64) -> u64 {
    if matches!(dst, Ty::F16x2 | Ty::BF16x2 | Ty::Pred | Ty::B128)
        || matches!(src, Ty::F16x2 | Ty::BF16x2 | Ty::Pred | Ty::B128)
    {
        return 0;
    }
    match (Fmt::of(src), Fmt::of(dst)) {
        (None, None) => int_to_int(dst, src, sat, a),
        (None, Some(df)) => {
            let r = int_to_float(df, src, RMode::from_rounding(rounding), a);
            if sat {
                saturate(df, r)
            } else {
                r
            }
        }
        (Some(sf), None) => {
            let x = flush_in(sf, a & sf.mask(), ftz && sf == Fmt::F32);
            let mode = if rounding == Rounding::None {
                RMode::Rz
            } else {
                RMode::from_rounding(rounding)
            };
            float_to_int(dst, sf, mode, x)
        }
        (Some(sf), Some(df)) => {
            let x = flush_in(sf, a & sf.mask(), ftz && sf == Fmt::F32);
            let mode = RMode::from_rounding(rounding);
            let x = if is_int_rounding(rounding) {
                round_integral(sf, x, mode)
            } else {
                x
            };
            let r = flush_out(df, convert(sf, df, x, mode), ftz && df == Fmt::F32);
            if sat {
                saturate(df, r)
            } else {
                r
            }
        }
    }
}

/// int → int: extend by the source's signedness, then truncate (or saturate with `.sat`).
#[inline]
pub fn int_to_int(dst: Ty, src: Ty, sat: bool, a: u64) -> u64 {
    let v: i128 = if src.is_signed() {
        sext(a, src) as i128
    } else {
        (a & src.mask()) as i128
    };
    let v = if sat {
        let (lo, hi) = int_range(dst);
        v.clamp(lo, hi)
    } else {
        v
    };
    pack_int(dst, v)
}

/// int → float, correctly rounded in `mode`.
#[inline]
pub fn int_to_float(df: Fmt, src: Ty, mode: RMode, a: u64) -> u64 {
    if mode == RMode::Rn && (df == Fmt::F32 || df == Fmt::F64) {
        // The host's int → float casts round to nearest even.
        return match (src.is_signed(), df == Fmt::F32) {
            (true, true) => (sext(a, src) as f32).to_bits() as u64,
            (true, false) => (sext(a, src) as f64).to_bits(),
            (false, true) => ((a & src.mask()) as f32).to_bits() as u64,
            (false, false) => ((a & src.mask()) as f64).to_bits(),
        };
    }
    let (neg, mag) = if src.is_signed() {
        let v = sext(a, src);
        (v < 0, v.unsigned_abs())
    } else {
        (false, a & src.mask())
    };
    if mag == 0 {
        return 0;
    }
    round_pack(df, neg, mag as u128, 0, false, mode)
}

/// float → int: round to an integer in `mode`, saturate to `dst`'s range; NaN → 0.
///
/// Every f16/bf16/f32 value is exact in f64, and the host's floor/ceil/trunc/round-ties-even are
/// exact, as are Rust's saturating float→int casts (NaN → 0), which are exactly PTX's rules.
pub fn float_to_int(dst: Ty, sf: Fmt, mode: RMode, x: u64) -> u64 {
    let v = to_f64(sf, x);
    let r = match mode {
        RMode::Rn => v.round_ties_even(),
        RMode::Rz => v.trunc(),
        RMode::Rm => v.floor(),
        RMode::Rp => v.ceil(),
    };
    let i: i128 = match dst {
        Ty::S8 => r as i8 as i128,
        Ty::S16 => r as i16 as i128,
        Ty::S32 => r as i32 as i128,
        Ty::S64 => r as i64 as i128,
        Ty::U8 | Ty::B8 => r as u8 as i128,
        Ty::U16 | Ty::B16 => r as u16 as i128,
        Ty::U32 | Ty::B32 => r as u32 as i128,
        _ => r as u64 as i128,
    };
    pack_int(dst, i)
}

/// Rounds `x` to an integral value in its own format (IEEE roundToIntegral in direction `mode`;
/// the sign of a zero result is the operand's). NaN → NaN (as [`convert`] treats it).
pub fn round_integral(fmt: Fmt, x: u64, mode: RMode) -> u64 {
    let u = unpack(fmt, x);
    if u.class != Class::Finite || u.exp >= 0 {
        return if u.class == Class::Nan {
            super::round::nan_from(fmt, x)
        } else {
            x
        };
    }
    let m = round_to_int_mag(u.neg, u.sig, u.exp, mode);
    if m == 0 {
        x & fmt.sign_bit()
    } else {
        round_pack(fmt, u.neg, m, 0, false, RMode::Rn)
    }
}
