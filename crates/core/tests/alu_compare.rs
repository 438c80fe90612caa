//! setp/set comparisons and the combining operators.

use proptest::prelude::*;
use warpsim_core::alu::{bool_combine, compare, compare_ftz};
use warpsim_core::ir::{BoolOp, CmpOp, Ty};

const ALL: [CmpOp; 18] = [
    CmpOp::Eq,
    CmpOp::Ne,
    CmpOp::Lt,
    CmpOp::Le,
    CmpOp::Gt,
    CmpOp::Ge,
    CmpOp::Lo,
    CmpOp::Ls,
    CmpOp::Hi,
    CmpOp::Hs,
    CmpOp::Equ,
    CmpOp::Neu,
    CmpOp::Ltu,
    CmpOp::Leu,
    CmpOp::Gtu,
    CmpOp::Geu,
    CmpOp::Num,
    CmpOp::Nan,
];

fn float_ref(cmp: CmpOp, x: f64, y: f64) -> bool {
    let un = x.is_nan() || y.is_nan();
    match cmp {
        CmpOp::Eq => x == y,
        CmpOp::Ne => !un && x != y,
        CmpOp::Lt | CmpOp::Lo => x < y,
        CmpOp::Le | CmpOp::Ls => x <= y,
        CmpOp::Gt | CmpOp::Hi => x > y,
        CmpOp::Ge | CmpOp::Hs => x >= y,
        CmpOp::Equ => un || x == y,
        CmpOp::Neu => un || x != y,
        CmpOp::Ltu => un || x < y,
        CmpOp::Leu => un || x <= y,
        CmpOp::Gtu => un || x > y,
        CmpOp::Geu => un || x >= y,
        CmpOp::Num => !un,
        CmpOp::Nan => un,
    }
}

fn int_ref<T: Ord>(cmp: CmpOp, x: T, y: T, ux: u64, uy: u64) -> bool {
    match cmp {
        CmpOp::Eq | CmpOp::Equ => x == y,
        CmpOp::Ne | CmpOp::Neu => x != y,
        CmpOp::Lt | CmpOp::Ltu => x < y,
        CmpOp::Le | CmpOp::Leu => x <= y,
        CmpOp::Gt | CmpOp::Gtu => x > y,
        CmpOp::Ge | CmpOp::Geu => x >= y,
        CmpOp::Lo => ux < uy,
        CmpOp::Ls => ux <= uy,
        CmpOp::Hi => ux > uy,
        CmpOp::Hs => ux >= uy,
        CmpOp::Num => true,
        CmpOp::Nan => false,
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(3000))]

    #[test]
    fn floats(a in any::<u64>(), b in any::<u64>(), pick in 0u8..4) {
        // Mix in equal and NaN operands.
        let b = match pick { 0 => a, 1 => 0x7FF8_0000_0000_0000, _ => b };
        for cmp in ALL {
            prop_assert_eq!(compare(cmp, Ty::F64, a, b), float_ref(cmp, f64::from_bits(a), f64::from_bits(b)), "{:?}", cmp);
            let (x, y) = (f32::from_bits(a as u32), f32::from_bits(b as u32));
            prop_assert_eq!(compare(cmp, Ty::F32, a, b), float_ref(cmp, x as f64, y as f64), "{:?}", cmp);
        }
    }

    #[test]
    fn ints(a in any::<u64>(), b in any::<u64>(), same in any::<bool>()) {
        let b = if same { a } else { b };
        for cmp in ALL {
            prop_assert_eq!(compare(cmp, Ty::S32, a, b), int_ref(cmp, a as i32, b as i32, a & 0xFFFF_FFFF, b & 0xFFFF_FFFF));
            prop_assert_eq!(compare(cmp, Ty::U32, a, b), int_ref(cmp, a as u32, b as u32, a & 0xFFFF_FFFF, b & 0xFFFF_FFFF));
            prop_assert_eq!(compare(cmp, Ty::B32, a, b), int_ref(cmp, a as u32, b as u32, a & 0xFFFF_FFFF, b & 0xFFFF_FFFF));
            prop_assert_eq!(compare(cmp, Ty::S64, a, b), int_ref(cmp, a as i64, b as i64, a, b));
            prop_assert_eq!(compare(cmp, Ty::U64, a, b), int_ref(cmp, a, b, a, b));
            prop_assert_eq!(compare(cmp, Ty::S16, a, b), int_ref(cmp, a as i16, b as i16, a & 0xFFFF, b & 0xFFFF));
            prop_assert_eq!(compare(cmp, Ty::U8, a, b), int_ref(cmp, a as u8, b as u8, a & 0xFF, b & 0xFF));
        }
    }
}

#[test]
fn crafted() {
    let f = |x: f32| x.to_bits() as u64;
    // ZLUDA setp data.
    assert!(compare(CmpOp::Lt, Ty::U64, 10, 11));
    assert!(!compare(CmpOp::Lt, Ty::U64, 11, 10));
    assert!(!compare(CmpOp::Gt, Ty::F32, f(f32::NAN), f(1.0)));
    assert!(compare(CmpOp::Gtu, Ty::F32, f(f32::NAN), f(1.0)));
    assert!(compare(CmpOp::Leu, Ty::F32, f(1.0), f(f32::NAN)));
    assert!(compare(CmpOp::Nan, Ty::F32, f(0.5), f(f32::NAN)));
    assert!(!compare(CmpOp::Num, Ty::F32, f(f32::NAN), f(0.5)));
    assert!(compare(CmpOp::Num, Ty::F32, f(0.5), f(0.5)));
    // −0 == +0; ordered ne is false on NaN.
    assert!(compare(CmpOp::Eq, Ty::F32, f(-0.0), f(0.0)));
    assert!(!compare(CmpOp::Ne, Ty::F32, f(f32::NAN), f(0.0)));
    assert!(compare(CmpOp::Neu, Ty::F32, f(f32::NAN), f(f32::NAN)));
    // ftz: a subnormal equals zero.
    assert!(!compare(CmpOp::Eq, Ty::F32, 1, 0));
    assert!(compare_ftz(CmpOp::Eq, Ty::F32, true, 1, 0x8000_0000));
    assert!(!compare_ftz(CmpOp::Lt, Ty::F32, true, 0x8000_0001, 1));
    assert!(!compare_ftz(CmpOp::Eq, Ty::F64, true, 1, 0)); // ignored for f64
                                                           // Signed vs unsigned.
    assert!(compare(CmpOp::Lt, Ty::S32, 0xFFFF_FFFF, 0));
    assert!(!compare(CmpOp::Lt, Ty::U32, 0xFFFF_FFFF, 0));
    assert!(compare(CmpOp::Hi, Ty::U32, 0xFFFF_FFFF, 0));
    // Packed f16x2 compares its low lane; f16 values.
    assert!(compare(CmpOp::Lt, Ty::F16, 0x3C00, 0x4000));
    assert!(compare(CmpOp::Ge, Ty::BF16, 0x4000, 0x3F80));
}

#[test]
fn combine() {
    for a in [false, true] {
        for b in [false, true] {
            assert_eq!(bool_combine(BoolOp::And, a, b), a && b);
            assert_eq!(bool_combine(BoolOp::Or, a, b), a || b);
            assert_eq!(bool_combine(BoolOp::Xor, a, b), a != b);
        }
    }
}

#[test]
fn set_values() {
    use warpsim_core::alu::set_value;
    assert_eq!(set_value(Ty::U32, true), 0xFFFF_FFFF);
    assert_eq!(set_value(Ty::S32, true), 0xFFFF_FFFF);
    assert_eq!(set_value(Ty::B64, true), u64::MAX);
    assert_eq!(set_value(Ty::U32, false), 0);
    assert_eq!(set_value(Ty::F32, true), 0x3F80_0000);
    assert_eq!(set_value(Ty::F32, false), 0);
    assert_eq!(set_value(Ty::F16, true), 0x3C00);
    assert_eq!(set_value(Ty::F16x2, true), 0x3C00_3C00);
    assert_eq!(set_value(Ty::Pred, true), 1);
    // slct: c ≥ 0 picks a; −0 counts as ≥ 0, NaN does not.
    assert!(compare(CmpOp::Ge, Ty::F32, (-0.0f32).to_bits() as u64, 0));
    assert!(!compare(CmpOp::Ge, Ty::F32, f32::NAN.to_bits() as u64, 0));
    assert!(compare(CmpOp::Ge, Ty::S32, 0, 0));
    assert!(!compare(CmpOp::Ge, Ty::S32, 0xFFFF_FFFF, 0));
}
