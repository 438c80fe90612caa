//! Integer arithmetic: edge cases and proptests against Rust's native integer arithmetic.

use proptest::prelude::*;
use warpsim_core::alu::{int_binary, int_op, int_ternary, int_unary, sext, zext};
use warpsim_core::ir::{Mods, Op, Ty};

fn m() -> Mods {
    Mods::default()
}
fn sat() -> Mods {
    Mods {
        sat: true,
        ..Mods::default()
    }
}
fn hi() -> Mods {
    Mods {
        hi: true,
        ..Mods::default()
    }
}

const S32_MIN: u64 = 0x8000_0000;
const NEG1_32: u64 = 0xFFFF_FFFF;

#[test]
fn division_edge_cases() {
    // Unsigned x / 0 = all ones; x % 0 = x.
    assert_eq!(int_binary(Op::IDiv, Ty::U32, &m(), 7, 0), 0xFFFF_FFFF);
    assert_eq!(int_binary(Op::IRem, Ty::U32, &m(), 7, 0), 7);
    assert_eq!(int_binary(Op::IDiv, Ty::U64, &m(), 7, 0), u64::MAX);
    assert_eq!(int_binary(Op::IDiv, Ty::U16, &m(), 7, 0), 0xFFFF);
    // Signed x / 0 = −1; x % 0 = x.
    assert_eq!(int_binary(Op::IDiv, Ty::S32, &m(), 7, 0), NEG1_32);
    assert_eq!(
        int_binary(Op::IDiv, Ty::S32, &m(), (-7i32) as u32 as u64, 0),
        NEG1_32
    );
    assert_eq!(
        int_binary(Op::IRem, Ty::S32, &m(), (-7i32) as u32 as u64, 0),
        (-7i32) as u32 as u64
    );
    assert_eq!(int_binary(Op::IDiv, Ty::S64, &m(), 1, 0), u64::MAX);
    // MIN / −1 = MIN, MIN % −1 = 0.
    assert_eq!(
        int_binary(Op::IDiv, Ty::S32, &m(), S32_MIN, NEG1_32),
        S32_MIN
    );
    assert_eq!(int_binary(Op::IRem, Ty::S32, &m(), S32_MIN, NEG1_32), 0);
    assert_eq!(
        int_binary(Op::IDiv, Ty::S64, &m(), i64::MIN as u64, u64::MAX),
        i64::MIN as u64
    );
    assert_eq!(
        int_binary(Op::IRem, Ty::S64, &m(), i64::MIN as u64, u64::MAX),
        0
    );
    assert_eq!(int_binary(Op::IDiv, Ty::S16, &m(), 0x8000, 0xFFFF), 0x8000);
    // Truncating division; remainder has the dividend's sign.
    assert_eq!(
        int_binary(Op::IDiv, Ty::S32, &m(), (-7i32) as u32 as u64, 2),
        (-3i32) as u32 as u64
    );
    assert_eq!(
        int_binary(Op::IRem, Ty::S32, &m(), (-7i32) as u32 as u64, 2),
        NEG1_32
    );
    assert_eq!(int_binary(Op::IRem, Ty::S32, &m(), 21692, 13), 8);
    // Operands wider than the type are truncated first.
    assert_eq!(
        int_binary(Op::IDiv, Ty::U32, &m(), 0xABCD_0000_0010, 0x1_0000_0002),
        8
    );
}

#[test]
fn abs_neg_min_max_sat() {
    assert_eq!(int_unary(Op::IAbs, Ty::S32, &m(), S32_MIN), S32_MIN);
    assert_eq!(
        int_unary(Op::IAbs, Ty::S32, &m(), (-134i32) as u32 as u64),
        134
    );
    assert_eq!(int_unary(Op::IAbs, Ty::S16, &m(), 0xFF80), 0x80);
    assert_eq!(
        int_unary(Op::INeg, Ty::S32, &m(), 181),
        (-181i32) as u32 as u64
    );
    assert_eq!(int_unary(Op::INeg, Ty::S32, &m(), S32_MIN), S32_MIN);
    assert_eq!(int_unary(Op::INeg, Ty::S64, &m(), 1), u64::MAX);
    assert_eq!(int_binary(Op::IMin, Ty::S32, &m(), 555, 444), 444);
    assert_eq!(int_binary(Op::IMin, Ty::S32, &m(), NEG1_32, 1), NEG1_32);
    assert_eq!(int_binary(Op::IMin, Ty::U32, &m(), NEG1_32, 1), 1);
    assert_eq!(int_binary(Op::IMax, Ty::S16, &m(), 0x8000, 0x7FFF), 0x7FFF);
    assert_eq!(int_binary(Op::IMax, Ty::U16, &m(), 0x8000, 0x7FFF), 0x8000);
    // add.sat.s32 / sub.sat.s32
    assert_eq!(
        int_binary(Op::IAdd, Ty::S32, &sat(), 0x7FFF_FFFF, 1),
        0x7FFF_FFFF
    );
    assert_eq!(
        int_binary(Op::IAdd, Ty::S32, &sat(), S32_MIN, NEG1_32),
        S32_MIN
    );
    assert_eq!(int_binary(Op::ISub, Ty::S32, &sat(), S32_MIN, 1), S32_MIN);
    assert_eq!(
        int_binary(Op::ISub, Ty::S32, &sat(), NEG1_32, S32_MIN),
        0x7FFF_FFFF
    );
    assert_eq!(int_binary(Op::IAdd, Ty::S32, &m(), 0x7FFF_FFFF, 1), S32_MIN);
    // ZLUDA add_s32_sat data: (MIN + −1, −1 − MIN) saturating.
    assert_eq!(
        int_binary(Op::IAdd, Ty::S32, &sat(), S32_MIN, NEG1_32),
        S32_MIN
    );
    assert_eq!(
        int_binary(Op::ISub, Ty::S32, &sat(), NEG1_32, S32_MIN),
        0x7FFF_FFFF
    );
}

#[test]
fn multiplies() {
    assert_eq!(int_binary(Op::IMulHi, Ty::U64, &m(), u64::MAX, 2), 1);
    assert_eq!(int_binary(Op::IMulHi, Ty::S64, &m(), u64::MAX, 2), u64::MAX); // −1·2 = −2: hi = −1
    assert_eq!(
        int_binary(Op::IMulHi, Ty::S32, &m(), S32_MIN, S32_MIN),
        0x4000_0000
    );
    assert_eq!(
        int_binary(Op::IMulWide, Ty::S32, &m(), NEG1_32, 3),
        (-3i64) as u64
    );
    assert_eq!(
        int_binary(Op::IMulWide, Ty::U32, &m(), NEG1_32, NEG1_32),
        0xFFFF_FFFE_0000_0001
    );
    assert_eq!(
        int_binary(Op::IMulWide, Ty::S16, &m(), 0xFFFF, 0x7FFF),
        0xFFFF_8001
    );
    assert_eq!(
        int_binary(Op::IMulWide, Ty::S32, &m(), 0x0100_0000, 0x0100_0000),
        0x1_0000_0000_0000
    );
    // mad.wide.s32 (ZLUDA data): −1·3 + 0x5_0000_0004 = 0x5_0000_0001.
    assert_eq!(
        int_ternary(Op::IMadWide, Ty::S32, &m(), NEG1_32, 3, 0x5_0000_0004),
        21474836481
    );
    assert_eq!(int_ternary(Op::IMadLo, Ty::S32, &m(), 2, 3, 4), 10);
    // mad.hi.sat.s32: high half + c saturates.
    assert_eq!(
        int_ternary(Op::IMadHi, Ty::S32, &sat(), 0x4000_0000, 4, 0x7FFF_FFFF),
        0x7FFF_FFFF
    );
    assert_eq!(
        int_ternary(Op::IMadHi, Ty::S32, &m(), 0x4000_0000, 4, 0x7FFF_FFFF),
        S32_MIN
    );
    // mul24 (ZLUDA data, with a = 0x755555 and the second operand a or −a).
    let a = 0b01110101_01010101_01010101u64;
    let na = (-(a as i64)) as u64 & 0xFFFF_FFFF;
    assert_eq!(
        int_binary(Op::IMul24, Ty::U32, &m(), a, a),
        0b00011100_00100011_10001110_00111001
    );
    assert_eq!(
        int_binary(Op::IMul24, Ty::U32, &hi(), a, a),
        0b00110101_11000111_00011100_00100011
    );
    assert_eq!(
        int_binary(Op::IMul24, Ty::S32, &m(), a, na),
        (-0b0011100_00100011_10001110_00111001i32) as u32 as u64
    );
    assert_eq!(
        int_binary(Op::IMul24, Ty::S32, &hi(), a, na),
        (-0b0110101_11000111_00011100_00100100i32) as u32 as u64
    );
    // mul24 ignores bits above 23; signed operands are sign-extended from bit 23.
    assert_eq!(int_binary(Op::IMul24, Ty::U32, &m(), 0xFF00_0002, 3), 6);
    assert_eq!(
        int_binary(Op::IMul24, Ty::S32, &m(), 0x00FF_FFFF, 3),
        (-3i32) as u32 as u64
    );
    assert_eq!(int_ternary(Op::IMad24, Ty::S32, &m(), 0x00FF_FFFF, 3, 5), 2);
    let hs = Mods {
        hi: true,
        sat: true,
        ..m()
    };
    assert_eq!(
        int_ternary(Op::IMad24, Ty::S32, &hs, 0x7F_FFFF, 0x7F_FFFF, 0x7FFF_FFFF),
        0x7FFF_FFFF
    );
    // sad (ZLUDA sad_s64 data) and unsigned sad.
    assert_eq!(
        int_ternary(Op::Sad, Ty::S64, &m(), 12, (-38i64) as u64, 915),
        965
    );
    assert_eq!(
        int_ternary(Op::Sad, Ty::S64, &m(), (-38i64) as u64, 12, 915),
        965
    );
    assert_eq!(
        int_ternary(Op::Sad, Ty::U32, &m(), 1, NEG1_32, 0),
        0xFFFF_FFFE
    );
    assert_eq!(int_ternary(Op::Sad, Ty::S32, &m(), 1, NEG1_32, 0), 2);
}

#[test]
fn helpers() {
    assert_eq!(sext(0x80, Ty::S8), -128);
    assert_eq!(sext(0xFFFF_FFFF, Ty::S32), -1);
    assert_eq!(sext(0x1_7FFF_FFFF, Ty::S32), 0x7FFF_FFFF);
    assert_eq!(sext(u64::MAX, Ty::S64), -1);
    assert_eq!(zext(u64::MAX, Ty::U16), 0xFFFF);
    assert_eq!(int_op(Op::IAdd, Ty::U32, &m(), [1, 2, 0, 0]), 3);
    assert_eq!(int_op(Op::Bfi, Ty::B32, &m(), [0b10, 0b101, 0, 2]), 0b110);
    assert_eq!(int_op(Op::Nop, Ty::U32, &m(), [1, 2, 3, 4]), 0);
}

macro_rules! int_props {
    ($modname:ident, $t:ty, $wide:ty, $ty:expr) => {
        mod $modname {
            use super::*;
            const W: u32 = <$t>::BITS;
            fn enc(x: $t, junk: u64) -> u64 {
                let v = (x as i128 as u64) & low(W);
                if W >= 64 { v } else { v | (junk << W) }
            }
            fn dec(x: $t) -> u64 {
                (x as i128 as u64) & low(W)
            }
            fn low(n: u32) -> u64 {
                if n >= 64 { u64::MAX } else { (1u64 << n) - 1 }
            }
            proptest! {
                #![proptest_config(ProptestConfig::with_cases(2000))]
                #[test]
                fn arith(a in any::<$t>(), b in any::<$t>(), c in any::<$t>(), junk in any::<u64>()) {
                    let ty = $ty;
                    let (ea, eb, ec) = (enc(a, junk), enc(b, junk.rotate_left(7)), enc(c, junk.rotate_left(13)));
                    let md = Mods::default();
                    prop_assert_eq!(int_binary(Op::IAdd, ty, &md, ea, eb), dec(a.wrapping_add(b)));
                    prop_assert_eq!(int_binary(Op::ISub, ty, &md, ea, eb), dec(a.wrapping_sub(b)));
                    prop_assert_eq!(int_binary(Op::IMulLo, ty, &md, ea, eb), dec(a.wrapping_mul(b)));
                    let p = (a as $wide) * (b as $wide);
                    prop_assert_eq!(int_binary(Op::IMulHi, ty, &md, ea, eb), dec((p >> W) as $t));
                    if W < 64 {
                        prop_assert_eq!(int_binary(Op::IMulWide, ty, &md, ea, eb), (p as i128 as u64) & low(2 * W));
                        let cw = (c as $wide) << (W / 2);
                        let ecw = (cw as i128 as u64) & low(2 * W);
                        prop_assert_eq!(int_ternary(Op::IMadWide, ty, &md, ea, eb, ecw),
                            (p.wrapping_add(cw) as i128 as u64) & low(2 * W));
                    }
                    let q = if b == 0 { dec(!(0 as $t)) } else { dec(a.wrapping_div(b)) };
                    prop_assert_eq!(int_binary(Op::IDiv, ty, &md, ea, eb), q);
                    let r = if b == 0 { dec(a) } else { dec(a.wrapping_rem(b)) };
                    prop_assert_eq!(int_binary(Op::IRem, ty, &md, ea, eb), r);
                    prop_assert_eq!(int_binary(Op::IMin, ty, &md, ea, eb), dec(a.min(b)));
                    prop_assert_eq!(int_binary(Op::IMax, ty, &md, ea, eb), dec(a.max(b)));
                    prop_assert_eq!(int_unary(Op::INeg, ty, &md, ea), dec((0 as $t).wrapping_sub(a)));
                    prop_assert_eq!(int_ternary(Op::IMadLo, ty, &md, ea, eb, ec), dec(a.wrapping_mul(b).wrapping_add(c)));
                    prop_assert_eq!(int_ternary(Op::IMadHi, ty, &md, ea, eb, ec), dec(((p >> W) as $t).wrapping_add(c)));
                    prop_assert_eq!(int_ternary(Op::Sad, ty, &md, ea, eb, ec), dec((a.abs_diff(b) as $t).wrapping_add(c)));
                    prop_assert_eq!(int_binary(Op::And, ty, &md, ea, eb), dec(a & b));
                    prop_assert_eq!(int_binary(Op::Or, ty, &md, ea, eb), dec(a | b));
                    prop_assert_eq!(int_binary(Op::Xor, ty, &md, ea, eb), dec(a ^ b));
                    prop_assert_eq!(int_unary(Op::Not, ty, &md, ea), dec(!a));
                    prop_assert_eq!(int_unary(Op::Cnot, ty, &md, ea), (a == 0) as u64);
                    if (0 as $t).checked_sub(1).is_none() {
                        // unsigned
                    } else {
                        let s = Mods { sat: true, ..Mods::default() };
                        prop_assert_eq!(int_binary(Op::IAdd, ty, &s, ea, eb), dec(a.saturating_add(b)));
                        prop_assert_eq!(int_binary(Op::ISub, ty, &s, ea, eb), dec(a.saturating_sub(b)));
                        prop_assert_eq!(int_unary(Op::IAbs, ty, &md, ea), dec(a.wrapping_abs_compat()));
                    }
                }
            }
        }
    };
}

trait WrappingAbsCompat {
    fn wrapping_abs_compat(self) -> Self;
}
macro_rules! wabs {
    ($($t:ty),*) => {$(
        impl WrappingAbsCompat for $t {
            fn wrapping_abs_compat(self) -> Self {
                if self < (0 as $t) { (0 as $t).wrapping_sub(self) } else { self }
            }
        }
    )*};
}
wabs!(u16, u32, u64, i16, i32, i64);

int_props!(props_u16, u16, u32, Ty::U16);
int_props!(props_s16, i16, i32, Ty::S16);
int_props!(props_u32, u32, u64, Ty::U32);
int_props!(props_s32, i32, i64, Ty::S32);
int_props!(props_u64, u64, u128, Ty::U64);
int_props!(props_s64, i64, i128, Ty::S64);
int_props!(props_b32, u32, u64, Ty::B32);

const ALL_TYPES: [Ty; 20] = [
    Ty::B8,
    Ty::B16,
    Ty::B32,
    Ty::B64,
    Ty::B128,
    Ty::U8,
    Ty::U16,
    Ty::U32,
    Ty::U64,
    Ty::S8,
    Ty::S16,
    Ty::S32,
    Ty::S64,
    Ty::F16,
    Ty::F16x2,
    Ty::BF16,
    Ty::BF16x2,
    Ty::F32,
    Ty::F64,
    Ty::Pred,
];

proptest! {
    #![proptest_config(ProptestConfig::with_cases(500))]

    /// No integer, carry, compare or cvt call panics, for any op, type, modifiers and operands.
    #[test]
    fn never_panics(src in any::<[u64; 4]>(), flags in any::<u16>(), cf in any::<bool>(), r in 0u8..9) {
        use warpsim_core::alu::{carry_op, compare_ftz, cvt};
        use warpsim_core::ir::{CmpOp, Rounding};
        let md = Mods {
            sat: flags & 1 != 0,
            cc: flags & 2 != 0,
            hi: flags & 4 != 0,
            shiftamt: flags & 8 != 0,
            clamp: flags & 16 != 0,
            ftz: flags & 32 != 0,
            prmt_mode: ((flags >> 6) & 7) as u8,
            ..Mods::default()
        };
        let ops = [Op::IAdd, Op::IAddC, Op::ISub, Op::ISubC, Op::IMulLo, Op::IMulHi, Op::IMulWide,
            Op::IMadLo, Op::IMadHi, Op::IMadWide, Op::IMadC, Op::IMul24, Op::IMad24, Op::IDiv, Op::IRem,
            Op::IAbs, Op::INeg, Op::IMin, Op::IMax, Op::Popc, Op::Clz, Op::Brev, Op::Bfind, Op::Bfe,
            Op::Bfi, Op::Prmt, Op::Sad, Op::And, Op::Or, Op::Xor, Op::Not, Op::Cnot, Op::Shl, Op::Shr,
            Op::Shf, Op::FAdd, Op::Nop];
        let rounding = [Rounding::None, Rounding::Rn, Rounding::Rz, Rounding::Rm, Rounding::Rp,
            Rounding::Rni, Rounding::Rzi, Rounding::Rmi, Rounding::Rpi][r as usize];
        for ty in ALL_TYPES {
            for op in ops {
                let _ = int_op(op, ty, &md, src);
                let _ = carry_op(op, ty, &md, src[0], src[1], src[2], cf);
            }
            for cmp in [CmpOp::Lt, CmpOp::Hs, CmpOp::Equ, CmpOp::Nan] {
                let _ = compare_ftz(cmp, ty, md.ftz, src[0], src[1]);
            }
            for ty2 in ALL_TYPES {
                let _ = cvt(ty, ty2, rounding, md.ftz, md.sat, src[0]);
            }
        }
    }
}
