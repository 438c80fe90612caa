//! `cvt` between integer and float types, with every rounding, `.sat` and `.ftz`.

use crate::alu_oracle as oracle;

use oracle::F;
use proptest::prelude::*;
use warpsim_core::alu::cvt;
use warpsim_core::ir::{Rounding, Ty};

/// A host rounding-to-integral function.
type RoundFn = fn(f64) -> f64;

const INTS: [Ty; 11] = [
    Ty::U8,
    Ty::U16,
    Ty::U32,
    Ty::U64,
    Ty::S8,
    Ty::S16,
    Ty::S32,
    Ty::S64,
    Ty::B16,
    Ty::B32,
    Ty::B64,
];

fn bits(ty: Ty) -> u32 {
    ty.bits()
}
fn range(ty: Ty) -> (i128, i128) {
    let w = bits(ty);
    if ty.is_signed() {
        (-(1i128 << (w - 1)), (1i128 << (w - 1)) - 1)
    } else {
        (0, (1i128 << w) - 1)
    }
}
/// The value of an integer operand.
fn value(ty: Ty, a: u64) -> i128 {
    let w = bits(ty);
    let m = if w == 64 { u64::MAX } else { (1u64 << w) - 1 };
    let v = a & m;
    if ty.is_signed() && w < 64 && v >> (w - 1) == 1 {
        v as i128 - (1i128 << w)
    } else if ty.is_signed() && w == 64 {
        v as i64 as i128
    } else {
        v as i128
    }
}
/// Expected encoding of an in-range integer result (s8/s16 sign-extended to 64 bits).
fn enc(ty: Ty, v: i128) -> u64 {
    let w = bits(ty);
    let m = if w == 64 { u64::MAX } else { (1u64 << w) - 1 };
    let r = (v as u64) & m;
    if matches!(ty, Ty::S8 | Ty::S16) {
        v as i64 as u64
    } else {
        r
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(3000))]

    #[test]
    fn int_to_int(a in any::<u64>(), sat in any::<bool>()) {
        for src in INTS {
            for dst in INTS {
                let v = value(src, a);
                let want = if sat {
                    let (lo, hi) = range(dst);
                    enc(dst, v.clamp(lo, hi))
                } else {
                    enc(dst, value(dst, v as u64))
                };
                prop_assert_eq!(cvt(dst, src, Rounding::None, false, sat, a), want, "{:?} <- {:?}", dst, src);
            }
        }
    }

    #[test]
    fn int_to_float(a in prop_oneof![any::<u64>(), (any::<u64>(), 0u32..64).prop_map(|(x, s)| x >> s)]) {
        let dirs = [(Rounding::Rz, oracle::Dir::Z), (Rounding::Rm, oracle::Dir::M), (Rounding::Rp, oracle::Dir::P)];
        for src in INTS {
            let v = value(src, a);
            // f64 destination
            let rn = (v as f64).to_bits(); // `as` rounds to nearest even
            prop_assert_eq!(cvt(Ty::F64, src, Rounding::Rn, false, false, a), rn);
            prop_assert_eq!(cvt(Ty::F64, src, Rounding::None, false, false, a), rn);
            for (r, d) in dirs {
                let want = oracle::directed(F::D, d, rn, false, |t| (v - t as i128).signum() as i32);
                prop_assert_eq!(cvt(Ty::F64, src, r, false, false, a), want, "f64 <- {:?} {:?} {}", src, r, v);
            }
            // f32 destination
            let rn = (v as f32).to_bits() as u64;
            prop_assert_eq!(cvt(Ty::F32, src, Rounding::Rn, false, false, a), rn);
            for (r, d) in dirs {
                let want = oracle::directed(F::S, d, rn, false, |t| (v - t as i128).signum() as i32);
                prop_assert_eq!(cvt(Ty::F32, src, r, false, false, a), want, "f32 <- {:?} {:?} {}", src, r, v);
            }
        }
    }

    #[test]
    fn float_to_int(x in prop_oneof![
        any::<u64>().prop_map(f64::from_bits),
        (-1e20f64..1e20).prop_map(|v| v),
        (-70000.0f64..70000.0).prop_map(|v| (v * 4.0).round() / 4.0),
        (-300i32..300).prop_map(|v| v as f64 + 0.5),
    ]) {
        let rounds: [(Rounding, RoundFn); 4] = [
            (Rounding::Rni, f64::round_ties_even),
            (Rounding::Rzi, f64::trunc),
            (Rounding::Rmi, f64::floor),
            (Rounding::Rpi, f64::ceil),
        ];
        for dst in INTS {
            for (r, f) in rounds {
                let y = f(x);
                let (lo, hi) = range(dst);
                let v = if y.is_nan() { 0 } else if y <= lo as f64 { lo } else if y >= hi as f64 { hi } else { y as i128 };
                prop_assert_eq!(cvt(dst, Ty::F64, r, false, false, x.to_bits()), enc(dst, v), "{:?} {:?} {}", dst, r, x);
                // The same through f32 (when x is exactly an f32).
                let xs = x as f32;
                if xs as f64 == x {
                    prop_assert_eq!(cvt(dst, Ty::F32, r, false, false, xs.to_bits() as u64), enc(dst, v), "{:?} {:?} f32 {}", dst, r, x);
                }
            }
        }
    }

    #[test]
    fn f64_to_f32(x in any::<u64>().prop_map(f64::from_bits)) {
        let rn = x as f32;
        let want_rn = if rn.is_nan() { 0x7FFF_FFFF } else { rn.to_bits() as u64 };
        prop_assert_eq!(cvt(Ty::F32, Ty::F64, Rounding::Rn, false, false, x.to_bits()), want_rn);
        prop_assert_eq!(cvt(Ty::F32, Ty::F64, Rounding::None, false, false, x.to_bits()), want_rn);
        if x.is_finite() {
            for (r, d) in [(Rounding::Rz, oracle::Dir::Z), (Rounding::Rm, oracle::Dir::M), (Rounding::Rp, oracle::Dir::P)] {
                let want = oracle::directed(F::S, d, want_rn, false, |t| (x - t).partial_cmp(&0.0).map_or(0, |o| o as i32));
                prop_assert_eq!(cvt(Ty::F32, Ty::F64, r, false, false, x.to_bits()), want, "{:?} {:e}", r, x);
            }
        }
        // Round to integral value, f64 → f64 and f64 → f32.
        for (r, f) in [(Rounding::Rni, f64::round_ties_even as fn(f64) -> f64), (Rounding::Rzi, f64::trunc),
                       (Rounding::Rmi, f64::floor), (Rounding::Rpi, f64::ceil)] {
            let y = f(x);
            let got = cvt(Ty::F64, Ty::F64, r, false, false, x.to_bits());
            if x.is_nan() {
                prop_assert!(f64::from_bits(got).is_nan());
            } else {
                prop_assert_eq!(got, y.to_bits(), "{:?} {}", r, x);
            }
            let xs = x as f32;
            if xs as f64 == x && !x.is_nan() {
                prop_assert_eq!(cvt(Ty::F32, Ty::F32, r, false, false, xs.to_bits() as u64), (y as f32).to_bits() as u64);
            }
        }
    }

    #[test]
    fn f32_to_f64_exact(a in any::<u32>()) {
        let x = f32::from_bits(a);
        let got = cvt(Ty::F64, Ty::F32, Rounding::None, false, false, a as u64);
        if x.is_nan() {
            // Quieted, payload kept.
            let want = ((a as u64 & 0x8000_0000) << 32) | 0x7FF8_0000_0000_0000 | ((a as u64 & 0x7F_FFFF) << 29);
            prop_assert_eq!(got, want);
        } else {
            prop_assert_eq!(got, (x as f64).to_bits());
        }
    }
}

#[test]
fn cvt_crafted() {
    let f = |x: f32| x.to_bits() as u64;
    // ZLUDA data.
    assert_eq!(
        cvt(Ty::F32, Ty::F32, Rounding::Rni, false, false, f(9.5)),
        f(10.0)
    );
    assert_eq!(
        cvt(Ty::F32, Ty::F32, Rounding::Rni, false, false, f(10.5)),
        f(10.0)
    );
    assert_eq!(
        cvt(Ty::F32, Ty::F32, Rounding::Rzi, false, false, f(-13.8)),
        f(-13.0)
    );
    assert_eq!(
        cvt(Ty::F32, Ty::F32, Rounding::Rzi, false, false, f(12.9)),
        f(12.0)
    );
    assert_eq!(
        cvt(Ty::S32, Ty::F32, Rounding::Rni, false, false, f(-13.8)),
        (-14i32) as u32 as u64
    );
    assert_eq!(
        cvt(Ty::S32, Ty::F32, Rounding::Rni, false, false, f(12.9)),
        13
    );
    assert_eq!(
        cvt(Ty::U16, Ty::F32, Rounding::Rni, false, false, 0x477F_FF80),
        65535
    );
    assert_eq!(
        cvt(Ty::S16, Ty::S8, Rounding::None, false, false, 0x1392_31C2) & 0xFFFF_FFFF,
        0xFFFF_FFC2
    );
    assert_eq!(
        cvt(Ty::U32, Ty::S16, Rounding::None, false, false, 0xFFFF),
        0xFFFF_FFFF
    );
    assert_eq!(
        cvt(Ty::U32, Ty::S32, Rounding::None, false, true, 0xFFFF_FFFF),
        0
    );
    assert_eq!(
        cvt(Ty::S64, Ty::S32, Rounding::None, false, false, 0xFFFF_FFFF),
        u64::MAX
    );
    assert_eq!(
        cvt(Ty::F64, Ty::F32, Rounding::None, false, false, f(0.125)),
        0.125f64.to_bits()
    );
    assert_eq!(
        cvt(Ty::BF16, Ty::U32, Rounding::Rn, false, false, 1),
        0x3F80
    );
    // .sat on float destinations (ZLUDA cvt_clamp data): NaN → 0, clamp to [0, 1].
    for (x, want) in [
        (f32::NAN, 0.0f32),
        (f32::NEG_INFINITY, 0.0),
        (f32::INFINITY, 1.0),
        (1.00001, 1.0),
        (0.5, 0.5),
        (-0.0, 0.0),
    ] {
        assert_eq!(
            cvt(Ty::F32, Ty::F32, Rounding::None, false, true, f(x)),
            f(want),
            "{x}"
        );
    }
    assert_eq!(cvt(Ty::F32, Ty::S32, Rounding::Rn, false, true, 5), f(1.0));
    assert_eq!(
        cvt(Ty::F64, Ty::F32, Rounding::None, false, true, f(-3.0)),
        0
    );
    // NaN → 0 for float → int; ±∞ saturate.
    assert_eq!(
        cvt(Ty::S32, Ty::F32, Rounding::Rzi, false, false, f(f32::NAN)),
        0
    );
    assert_eq!(
        cvt(
            Ty::U64,
            Ty::F64,
            Rounding::Rzi,
            false,
            false,
            f64::NAN.to_bits()
        ),
        0
    );
    assert_eq!(
        cvt(
            Ty::S32,
            Ty::F32,
            Rounding::Rzi,
            false,
            false,
            f(f32::INFINITY)
        ),
        0x7FFF_FFFF
    );
    assert_eq!(
        cvt(
            Ty::S32,
            Ty::F32,
            Rounding::Rzi,
            false,
            false,
            f(f32::NEG_INFINITY)
        ),
        0x8000_0000
    );
    assert_eq!(
        cvt(Ty::U8, Ty::F32, Rounding::Rzi, false, false, f(-5.0)),
        0
    );
    assert_eq!(
        cvt(Ty::S8, Ty::F32, Rounding::Rzi, false, false, f(-500.0)),
        (-128i64) as u64
    );
    assert_eq!(
        cvt(Ty::U64, Ty::F32, Rounding::Rni, false, false, f(1.9e19)),
        u64::MAX
    );
    // No rounding modifier on float → int acts as .rzi.
    assert_eq!(
        cvt(Ty::S32, Ty::F32, Rounding::None, false, false, f(-2.7)),
        (-2i32) as u32 as u64
    );
    // .ftz: a subnormal f32 source is zero.
    let sub = 1u64;
    assert_eq!(cvt(Ty::S32, Ty::F32, Rounding::Rpi, false, false, sub), 1);
    assert_eq!(cvt(Ty::S32, Ty::F32, Rounding::Rpi, true, false, sub), 0);
    assert_eq!(
        cvt(Ty::F64, Ty::F32, Rounding::None, true, false, 0x8000_0001),
        (-0.0f64).to_bits()
    );
    assert_eq!(
        cvt(Ty::F32, Ty::F32, Rounding::None, true, false, 0x8000_0001),
        0x8000_0000
    );
    assert_eq!(
        cvt(
            Ty::F32,
            Ty::F64,
            Rounding::Rn,
            true,
            false,
            1e-40f64.to_bits()
        ),
        0
    );
    assert_eq!(
        cvt(
            Ty::F32,
            Ty::F64,
            Rounding::Rn,
            false,
            false,
            1e-40f64.to_bits()
        ),
        f(1e-40)
    );
    // Round to integral keeps the sign of zero.
    assert_eq!(
        cvt(Ty::F32, Ty::F32, Rounding::Rpi, false, false, f(-0.5)),
        f(-0.0)
    );
    assert_eq!(
        cvt(Ty::F32, Ty::F32, Rounding::Rmi, false, false, f(0.5)),
        f(0.0)
    );
    assert_eq!(
        cvt(Ty::F32, Ty::F32, Rounding::Rmi, false, false, f(-0.5)),
        f(-1.0)
    );
    // f64 → f32 round to integral then narrow: 2^60 + 1 → rmi keeps below the exact value.
    let big = (2f64.powi(60) + 2f64.powi(20)).to_bits();
    assert_eq!(
        cvt(Ty::F32, Ty::F64, Rounding::Rmi, false, false, big),
        f(2f32.powi(60))
    );
    assert_eq!(
        cvt(Ty::F32, Ty::F64, Rounding::Rpi, false, false, big),
        f(2f32.powi(60)) + 1
    );
    // NaN conversions: f32/f16 results canonical, f64 results keep the payload.
    assert_eq!(
        cvt(
            Ty::F32,
            Ty::F64,
            Rounding::Rn,
            false,
            false,
            0x7FF0_0000_0000_0001
        ),
        0x7FFF_FFFF
    );
    assert_eq!(
        cvt(Ty::F16, Ty::F32, Rounding::Rn, false, false, 0xFFC0_0000),
        0x7FFF
    );
    assert_eq!(
        cvt(
            Ty::F64,
            Ty::F64,
            Rounding::Rni,
            false,
            false,
            0x7FF0_0000_0000_0001
        ),
        0x7FF8_0000_0000_0001
    );
    // Unsupported packed forms return 0 rather than panic.
    assert_eq!(
        cvt(Ty::F16x2, Ty::F32, Rounding::Rn, false, false, f(1.0)),
        0
    );
}
