//! Bit operations: not cnot shl shr popc clz brev bfind bfe bfi prmt shf.

use super::int::{low_mask, sext, width};
use crate::ir::Ty;

/// `not`: bitwise complement; for `Pred`, logical negation of a 0/1 value.
#[inline]
pub fn not(ty: Ty, a: u64) -> u64 {
    if ty == Ty::Pred {
        (a == 0) as u64
    } else {
        !a & ty.mask()
    }
}

/// `cnot`: 1 if a == 0, else 0.
#[inline]
pub fn cnot(ty: Ty, a: u64) -> u64 {
    (a & ty.mask() == 0) as u64
}

/// `shl`: amounts ≥ the width give 0.
#[inline]
pub fn shl(ty: Ty, a: u64, amt: u32) -> u64 {
    if amt >= width(ty) {
        0
    } else {
        (a << amt) & ty.mask()
    }
}

/// `shr`: arithmetic for signed types (amounts ≥ width give all sign bits), logical otherwise
/// (amounts ≥ width give 0).
#[inline]
pub fn shr(ty: Ty, a: u64, amt: u32) -> u64 {
    let w = width(ty);
    if ty.is_signed() {
        let s = amt.min(w - 1);
        ((sext(a, ty) >> s) as u64) & ty.mask()
    } else if amt >= w {
        0
    } else {
        (a & ty.mask()) >> amt
    }
}

/// `popc`: number of set bits (u32 result).
#[inline]
pub fn popc(ty: Ty, a: u64) -> u64 {
    (a & ty.mask()).count_ones() as u64
}

/// `clz`: leading zeros within the type's width (u32 result; clz(0) = width).
#[inline]
pub fn clz(ty: Ty, a: u64) -> u64 {
    ((a & ty.mask()).leading_zeros() - (64 - width(ty))) as u64
}

/// `brev`: bit reversal within the type's width.
#[inline]
pub fn brev(ty: Ty, a: u64) -> u64 {
    (a & ty.mask()).reverse_bits() >> (64 - width(ty))
}

/// `bfind[.shiftamt]`: position of the most significant non-sign bit (signed types: of the most
/// significant bit that differs from the sign bit; unsigned: of the most significant 1), or
/// 0xFFFFFFFF if there is none. `.shiftamt` returns `width − 1 − position` instead (the left
/// shift that normalizes the value); 0xFFFFFFFF still means none.
#[inline]
pub fn bfind(ty: Ty, shiftamt: bool, a: u64) -> u64 {
    let w = width(ty);
    let x = a & ty.mask();
    let v = if ty.is_signed() && (x >> (w - 1)) & 1 == 1 {
        !x & ty.mask()
    } else {
        x
    };
    if v == 0 {
        return 0xFFFF_FFFF;
    }
    let pos = 63 - v.leading_zeros();
    (if shiftamt { w - 1 - pos } else { pos }) as u64
}

/// `bfe d, a, pos, len` exactly as the manual's pseudocode: pos and len are taken `& 0xff`; the
/// extracted bits a[pos .. pos+len) (clipped at the msb) fill d from bit 0; the remaining bits
/// of d are the sign bit a[min(pos+len−1, msb)] for signed types (0 when len = 0), else 0.
#[inline]
pub fn bfe(ty: Ty, a: u64, pos: u64, len: u64) -> u64 {
    let w = width(ty);
    let msb = w - 1;
    let pos = (pos & 0xff) as u32;
    let len = (len & 0xff) as u32;
    let x = a & ty.mask();
    let sbit = if !ty.is_signed() || len == 0 {
        0
    } else {
        (x >> (pos + len - 1).min(msb)) & 1
    };
    let n = if pos > msb { 0 } else { len.min(w - pos) };
    let field = if n == 0 { 0 } else { (x >> pos) & low_mask(n) };
    let fill = if sbit == 1 {
        ty.mask() & !low_mask(n)
    } else {
        0
    };
    field | fill
}

/// `bfi f, a, b, pos, len`: b with bits [pos, pos+len) (clipped at the msb) replaced by the low
/// bits of a; pos and len taken `& 0xff`; len = 0 or pos > msb gives b.
#[inline]
pub fn bfi(ty: Ty, a: u64, b: u64, pos: u64, len: u64) -> u64 {
    let w = width(ty);
    let pos = (pos & 0xff) as u32;
    let len = (len & 0xff) as u32;
    let base = b & ty.mask();
    if pos >= w || len == 0 {
        return base;
    }
    let n = len.min(w - pos);
    let fm = low_mask(n) << pos;
    (base & !fm) | ((a << pos) & fm)
}

/// Source-byte indices `[d.b0, d.b1, d.b2, d.b3]` of the `prmt` modes 1..=6 (f4e, b4e, rc8,
/// ecl, ecr, rc16) for selector c[1:0] = 0..3, from the manual's table.
const PRMT_MODES: [[[u8; 4]; 4]; 6] = [
    // f4e: forward 4 extract
    [[0, 1, 2, 3], [1, 2, 3, 4], [2, 3, 4, 5], [3, 4, 5, 6]],
    // b4e: backward 4 extract
    [[0, 7, 6, 5], [1, 0, 7, 6], [2, 1, 0, 7], [3, 2, 1, 0]],
    // rc8: replicate 8
    [[0, 0, 0, 0], [1, 1, 1, 1], [2, 2, 2, 2], [3, 3, 3, 3]],
    // ecl: edge clamp left
    [[0, 1, 2, 3], [1, 1, 2, 3], [2, 2, 2, 3], [3, 3, 3, 3]],
    // ecr: edge clamp right
    [[0, 0, 0, 0], [0, 1, 1, 1], [0, 1, 2, 2], [0, 1, 2, 3]],
    // rc16: replicate 16
    [[0, 1, 0, 1], [2, 3, 2, 3], [0, 1, 0, 1], [2, 3, 2, 3]],
];

/// `prmt.b32[.mode] d, a, b, c` (mode as in `Mods::prmt_mode`: 0 generic, 1 f4e, 2 b4e, 3 rc8,
/// 4 ecl, 5 ecr, 6 rc16). Source bytes are {b, a} = b7..b4 (b), b3..b0 (a). Generic mode: each
/// nibble c[4k+3 : 4k] picks source byte c[4k+2 : 4k] for d.byte k, and if c[4k+3] is set
/// replicates that byte's sign bit instead. Other modes use c bits 1..0 and the table above. An
/// unknown mode acts as generic.
#[inline]
pub fn prmt(mode: u8, a: u64, b: u64, c: u64) -> u64 {
    let tmp = ((b & 0xFFFF_FFFF) << 32) | (a & 0xFFFF_FFFF);
    let byte = |i: u64| (tmp >> (8 * (i & 7))) & 0xFF;
    let mut d = 0u64;
    if mode == 0 || mode > 6 {
        for k in 0..4 {
            let sel = (c >> (4 * k)) & 0xF;
            let v = byte(sel);
            let v = if sel & 8 != 0 {
                if v & 0x80 != 0 {
                    0xFF
                } else {
                    0
                }
            } else {
                v
            };
            d |= v << (8 * k);
        }
    } else {
        let idx = PRMT_MODES[(mode - 1) as usize][(c & 3) as usize];
        for (k, &i) in idx.iter().enumerate() {
            d |= byte(i as u64) << (8 * k);
        }
    }
    d
}

/// `bmsk.{clamp,wrap}.b32 d, a, b`: a mask of `b` one bits starting at bit `a`, exactly the
/// PTX ISA's pseudo-code. Both modes use the low 5 bits of each operand; `.wrap` gives the
/// bits from `a` up when `a + b` passes bit 31, `.clamp` gives 0 for `a ≥ 32` and the bits from
/// `a` up for `b ≥ 32`; a width of 0 gives 0.
#[inline]
pub fn bmsk(clamp: bool, a: u32, b: u32) -> u32 {
    let (a1, b1) = (a & 0x1f, b & 0x1f);
    let mut mask0 = u32::MAX << a1;
    let sum = a1 + b1;
    let mut overflow = sum >= 32;
    if clamp {
        if a >= 32 {
            overflow = true;
            mask0 = 0;
        }
        if b >= 32 {
            overflow = true;
        }
    }
    let mask1 = if overflow {
        0
    } else if b1 == 0 {
        u32::MAX
    } else {
        u32::MAX << sum
    };
    mask0 & !mask1
}

/// `shf.l/.r[.wrap/.clamp]` (`right` = `.r`): funnel shift of the 2n-bit value {b, a} (b high).
/// The amount is c & (n − 1) for `.wrap`, min(c, n) for `.clamp`; `.l` returns the high n bits
/// of {b, a} << amount, `.r` the low n bits of {b, a} >> amount.
#[inline]
pub fn shf(ty: Ty, right: bool, clamp: bool, a: u64, b: u64, c: u64) -> u64 {
    let w = width(ty);
    let m = ty.mask();
    let c = c & 0xFFFF_FFFF;
    let n = if clamp {
        c.min(w as u64) as u32
    } else {
        (c as u32) & (w - 1)
    };
    let v = (((b & m) as u128) << w) | (a & m) as u128;
    if right {
        ((v >> n) as u64) & m
    } else {
        (((v << n) >> w) as u64) & m
    }
}
