//! Integer arithmetic (add sub mul mad mul24 mad24 div rem abs neg min max sad) and the
//! integer dispatchers.
//!
//! Operands are the low `ty.bits()` of a `u64` (signed types are sign-extended here); results
//! are zero-extended to 64 bits, except `mul.wide`/`mad.wide`, whose results are twice as wide.

use super::bits;
use super::carry;
use crate::ir::{Mods, Op, Ty};

/// The low `ty.bits()` of `v`, sign-extended to 64 bits (widths ≥ 64 are `v` itself).
#[inline]
pub fn sext(v: u64, ty: Ty) -> i64 {
    sext_bits(v, ty.bits())
}

/// The low `bits` of `v`, sign-extended.
#[inline]
pub fn sext_bits(v: u64, bits: u32) -> i64 {
    if bits >= 64 || bits == 0 {
        v as i64
    } else {
        let s = 64 - bits;
        ((v << s) as i64) >> s
    }
}

/// The low `ty.bits()` of `v` (zero-extended).
#[inline]
pub fn zext(v: u64, ty: Ty) -> u64 {
    v & ty.mask()
}

/// Operation width in bits (`B128`, unsupported here, acts as 64).
#[inline]
pub(crate) fn width(ty: Ty) -> u32 {
    ty.bits().min(64)
}

/// Mask of the low `n` bits (n ≤ 64).
#[inline]
pub(crate) fn low_mask(n: u32) -> u64 {
    if n >= 64 {
        u64::MAX
    } else {
        (1u64 << n) - 1
    }
}

/// The value of operand `v` as an i128: sign-extended for signed types, else zero-extended.
#[inline]
fn val(v: u64, ty: Ty) -> i128 {
    if ty.is_signed() {
        sext(v, ty) as i128
    } else {
        (v & ty.mask()) as i128
    }
}

/// Signed saturation of `v` to `bits` bits, returned masked.
#[inline]
fn sat_signed(v: i128, bits: u32) -> u64 {
    let max = (1i128 << (bits - 1)) - 1;
    let min = -(1i128 << (bits - 1));
    (v.clamp(min, max) as u64) & low_mask(bits)
}

/// `add[.sat]`: wrapping; `.sat` (signed types) clamps to the type's range.
#[inline]
pub fn add(ty: Ty, sat: bool, a: u64, b: u64) -> u64 {
    if sat && ty.is_signed() {
        sat_signed(val(a, ty) + val(b, ty), width(ty))
    } else {
        a.wrapping_add(b) & ty.mask()
    }
}

/// `sub[.sat]`.
#[inline]
pub fn sub(ty: Ty, sat: bool, a: u64, b: u64) -> u64 {
    if sat && ty.is_signed() {
        sat_signed(val(a, ty) - val(b, ty), width(ty))
    } else {
        a.wrapping_sub(b) & ty.mask()
    }
}

/// `mul.lo`: the low half of the product (same bits for signed and unsigned).
#[inline]
pub fn mul_lo(ty: Ty, a: u64, b: u64) -> u64 {
    a.wrapping_mul(b) & ty.mask()
}

/// The full 2n-bit product as i128 (exact: |product| < 2^127).
#[inline]
fn full_product(ty: Ty, a: u64, b: u64) -> i128 {
    if ty.is_signed() {
        val(a, ty) * val(b, ty)
    } else {
        ((a & ty.mask()) as u128 * (b & ty.mask()) as u128) as i128
    }
}

/// `mul.hi`: the high half of the 2n-bit product, signed or unsigned by type.
#[inline]
pub fn mul_hi(ty: Ty, a: u64, b: u64) -> u64 {
    ((full_product(ty, a, b) >> width(ty)) as u64) & ty.mask()
}

/// `mul.wide` (n = 16 or 32): the 2n-bit product. For 64-bit operands (no such PTX form) the
/// low 64 bits.
#[inline]
pub fn mul_wide(ty: Ty, a: u64, b: u64) -> u64 {
    (full_product(ty, a, b) as u64) & low_mask(2 * width(ty))
}

/// `mad.lo`: low half of a·b + c.
#[inline]
pub fn mad_lo(ty: Ty, a: u64, b: u64, c: u64) -> u64 {
    a.wrapping_mul(b).wrapping_add(c) & ty.mask()
}

/// `mad.hi[.sat]`: high half of a·b, plus c; `.sat` (s32) saturates the sum.
#[inline]
pub fn mad_hi(ty: Ty, sat: bool, a: u64, b: u64, c: u64) -> u64 {
    let hi = mul_hi(ty, a, b);
    if sat && ty.is_signed() {
        sat_signed(val(hi, ty) + val(c, ty), width(ty))
    } else {
        hi.wrapping_add(c) & ty.mask()
    }
}

/// `mad.wide`: the 2n-bit product plus the 2n-bit c.
#[inline]
pub fn mad_wide(ty: Ty, a: u64, b: u64, c: u64) -> u64 {
    mul_wide(ty, a, b).wrapping_add(c) & low_mask(2 * width(ty))
}

/// The 48-bit product of the low 24 bits of a and b (sign-extended from bit 23 for signed).
#[inline]
fn product24(ty: Ty, a: u64, b: u64) -> i64 {
    if ty.is_signed() {
        sext_bits(a, 24) * sext_bits(b, 24)
    } else {
        ((a & 0xFF_FFFF) * (b & 0xFF_FFFF)) as i64
    }
}

/// `mul24.lo` (bits 31..0 of the 48-bit product) / `mul24.hi` (bits 47..16).
#[inline]
pub fn mul24(ty: Ty, hi: bool, a: u64, b: u64) -> u64 {
    let t = product24(ty, a, b);
    let r = if hi { t >> 16 } else { t };
    (r as u64) & 0xFFFF_FFFF
}

/// `mad24.lo/.hi[.sat]`: mul24 plus c (32-bit); `.sat` (s32, .hi) saturates the sum.
#[inline]
pub fn mad24(ty: Ty, hi: bool, sat: bool, a: u64, b: u64, c: u64) -> u64 {
    let m = mul24(ty, hi, a, b);
    if sat && ty.is_signed() {
        sat_signed(sext_bits(m, 32) as i128 + sext_bits(c, 32) as i128, 32)
    } else {
        m.wrapping_add(c) & 0xFFFF_FFFF
    }
}

/// `div`. Division by zero (unspecified in PTX) gives all ones, as the hardware sequence does
/// (unsigned: the maximum; signed: −1). Signed MIN / −1 = MIN.
#[inline]
pub fn div(ty: Ty, a: u64, b: u64) -> u64 {
    let m = ty.mask();
    if ty.is_signed() {
        let (x, y) = (sext(a, ty), sext(b, ty));
        if y == 0 {
            m
        } else {
            (x.wrapping_div(y) as u64) & m
        }
    } else {
        let (x, y) = (a & m, b & m);
        x.checked_div(y).unwrap_or(m)
    }
}

/// `rem`. x % 0 (unspecified in PTX) gives x; signed MIN % −1 = 0; the sign follows the
/// dividend (truncating division).
#[inline]
pub fn rem(ty: Ty, a: u64, b: u64) -> u64 {
    let m = ty.mask();
    if ty.is_signed() {
        let (x, y) = (sext(a, ty), sext(b, ty));
        if y == 0 {
            a & m
        } else {
            (x.wrapping_rem(y) as u64) & m
        }
    } else {
        let (x, y) = (a & m, b & m);
        x.checked_rem(y).unwrap_or(x)
    }
}

/// `abs` (operand taken as signed): |MIN| = MIN.
#[inline]
pub fn abs(ty: Ty, a: u64) -> u64 {
    (sext(a, ty).wrapping_abs() as u64) & ty.mask()
}

/// `neg`: two's complement negation (−MIN = MIN).
#[inline]
pub fn neg(ty: Ty, a: u64) -> u64 {
    a.wrapping_neg() & ty.mask()
}

/// `min`/`max`, signed or unsigned by type.
#[inline]
pub fn min_max(ty: Ty, is_max: bool, a: u64, b: u64) -> u64 {
    let (x, y) = (val(a, ty), val(b, ty));
    let r = if (x > y) == is_max { x } else { y };
    (r as u64) & ty.mask()
}

/// `sad`: |a − b| + c (the difference taken signed or unsigned by type), wrapping.
#[inline]
pub fn sad(ty: Ty, a: u64, b: u64, c: u64) -> u64 {
    let (x, y) = (val(a, ty), val(b, ty));
    let d = (x - y).unsigned_abs() as u64;
    d.wrapping_add(c) & ty.mask()
}

// ---------------------------------------------------------------------------------------------
// dispatch

/// One-operand integer/bit ops: `IAbs INeg Not Cnot Popc Clz Brev Bfind`.
#[inline]
pub fn int_unary(op: Op, ty: Ty, mods: &Mods, a: u64) -> u64 {
    match op {
        Op::IAbs => abs(ty, a),
        Op::INeg => neg(ty, a),
        Op::Not => bits::not(ty, a),
        Op::Cnot => bits::cnot(ty, a),
        Op::Popc => bits::popc(ty, a),
        Op::Clz => bits::clz(ty, a),
        Op::Brev => bits::brev(ty, a),
        Op::Bfind => bits::bfind(ty, mods.shiftamt, a),
        _ => 0,
    }
}

/// Two-operand integer/bit ops: `IAdd ISub IMulLo IMulHi IMulWide IMul24 IDiv IRem IMin IMax
/// And Or Xor Shl Shr` (`IAddC`/`ISubC` go through [`carry::carry_op`]; called here they
/// assume CF = 0 for addc and CF = 1 — no borrow — for subc).
#[inline]
pub fn int_binary(op: Op, ty: Ty, mods: &Mods, a: u64, b: u64) -> u64 {
    match op {
        Op::IAdd => add(ty, mods.sat, a, b),
        Op::ISub => sub(ty, mods.sat, a, b),
        Op::IMulLo => mul_lo(ty, a, b),
        Op::IMulHi => mul_hi(ty, a, b),
        Op::IMulWide => mul_wide(ty, a, b),
        Op::IMul24 => mul24(ty, mods.hi, a, b),
        Op::IDiv => div(ty, a, b),
        Op::IRem => rem(ty, a, b),
        Op::IMin => min_max(ty, false, a, b),
        Op::IMax => min_max(ty, true, a, b),
        Op::And => (a & b) & ty.mask(),
        Op::Or => (a | b) & ty.mask(),
        Op::Xor => (a ^ b) & ty.mask(),
        Op::Shl => bits::shl(ty, a, b as u32),
        Op::Shr => bits::shr(ty, a, b as u32),
        Op::Bmsk => bits::bmsk(mods.clamp, a as u32, b as u32) as u64,
        Op::IAddC => carry::carry_op(op, ty, mods, a, b, 0, false).0,
        Op::ISubC => carry::carry_op(op, ty, mods, a, b, 0, true).0,
        _ => 0,
    }
}

/// Three-operand integer/bit ops: `IMadLo IMadHi IMadWide IMad24 Sad Bfe Prmt Shf`
/// (`IMadC` goes through [`carry::carry_op`]).
#[inline]
pub fn int_ternary(op: Op, ty: Ty, mods: &Mods, a: u64, b: u64, c: u64) -> u64 {
    match op {
        Op::IMadLo => mad_lo(ty, a, b, c),
        Op::IMadHi => mad_hi(ty, mods.sat, a, b, c),
        Op::IMadWide => mad_wide(ty, a, b, c),
        Op::IMad24 => mad24(ty, mods.hi, mods.sat, a, b, c),
        Op::Sad => sad(ty, a, b, c),
        Op::Bfe => bits::bfe(ty, a, b, c),
        Op::Prmt => bits::prmt(mods.prmt_mode, a, b, c),
        Op::Shf => bits::shf(ty, mods.hi, mods.clamp, a, b, c),
        Op::IMadC => carry::carry_op(op, ty, mods, a, b, c, false).0,
        _ => 0,
    }
}

/// Any integer/bit op by its sources in PTX order (`Bfi` uses all four). Carry ops (`mods.cc`,
/// `IAddC ISubC IMadC`) must use [`carry::carry_op`] to see and update the carry flag.
#[inline]
pub fn int_op(op: Op, ty: Ty, mods: &Mods, src: [u64; 4]) -> u64 {
    match op {
        Op::IAbs | Op::INeg | Op::Not | Op::Cnot | Op::Popc | Op::Clz | Op::Brev | Op::Bfind => {
            int_unary(op, ty, mods, src[0])
        }
        Op::Bfi => bits::bfi(ty, src[0], src[1], src[2], src[3]),
        Op::IMadLo
        | Op::IMadHi
        | Op::IMadWide
        | Op::IMad24
        | Op::Sad
        | Op::Bfe
        | Op::Prmt
        | Op::Shf
        | Op::IMadC => int_ternary(op, ty, mods, src[0], src[1], src[2]),
        _ => int_binary(op, ty, mods, src[0], src[1]),
    }
}
