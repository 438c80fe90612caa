//! Float special values, NaN rules, min/max, abs/neg/copysign, `.ftz`, `.sat`, testp.

use proptest::prelude::*;
use warpsim_core::alu::{float_binary, float_fma, float_op, float_unary, testp};
use warpsim_core::ir::{Mods, Op, Rounding, Ty};

const F32_NAN: u64 = 0x7FFF_FFFF;
const F64_NAN: u64 = 0xFFF8_0000_0000_0000;
const SUB32: u32 = 0x0000_0001; // smallest f32 subnormal
const BIG_SUB32: u32 = 0x0040_0000; // 2^-127

fn m() -> Mods {
    Mods::default()
}
fn ftz() -> Mods {
    Mods {
        ftz: true,
        ..Mods::default()
    }
}
fn sat() -> Mods {
    Mods {
        sat: true,
        ..Mods::default()
    }
}
fn b32(x: f32) -> u64 {
    x.to_bits() as u64
}
fn b64(x: f64) -> u64 {
    x.to_bits()
}
fn f32b(op: Op, md: &Mods, a: f32, b: f32) -> u64 {
    float_binary(op, Ty::F32, md, b32(a), b32(b))
}
fn f64b(op: Op, md: &Mods, a: f64, b: f64) -> u64 {
    float_binary(op, Ty::F64, md, b64(a), b64(b))
}

#[test]
fn f32_nan_results_are_canonical() {
    let qnan = 0x7FC0_1234u64;
    let snan = 0xFF80_0001u64;
    for op in [Op::FAdd, Op::FSub, Op::FMul, Op::FDiv] {
        for md in [
            m(),
            ftz(),
            Mods {
                rounding: Rounding::Rz,
                ..m()
            },
            Mods {
                rounding: Rounding::Rp,
                ..m()
            },
        ] {
            assert_eq!(
                float_binary(op, Ty::F32, &md, qnan, b32(1.0)),
                F32_NAN,
                "{op:?}"
            );
            assert_eq!(
                float_binary(op, Ty::F32, &md, b32(2.0), snan),
                F32_NAN,
                "{op:?}"
            );
        }
    }
    // Invalid operations.
    assert_eq!(
        f32b(Op::FAdd, &m(), f32::INFINITY, f32::NEG_INFINITY),
        F32_NAN
    );
    assert_eq!(f32b(Op::FSub, &m(), f32::INFINITY, f32::INFINITY), F32_NAN);
    assert_eq!(f32b(Op::FMul, &m(), 0.0, f32::INFINITY), F32_NAN);
    assert_eq!(f32b(Op::FDiv, &m(), 0.0, -0.0), F32_NAN);
    assert_eq!(
        f32b(Op::FDiv, &m(), f32::INFINITY, f32::NEG_INFINITY),
        F32_NAN
    );
    let sq = |md: &Mods, x: f32| float_unary(Op::FSqrt, Ty::F32, md, b32(x));
    assert_eq!(sq(&m(), -1.0), F32_NAN);
    assert_eq!(
        sq(
            &Mods {
                rounding: Rounding::Rm,
                ..m()
            },
            -1.0
        ),
        F32_NAN
    );
    assert_eq!(sq(&m(), -0.0), b32(-0.0));
    assert_eq!(sq(&m(), f32::INFINITY), b32(f32::INFINITY));
    assert_eq!(sq(&m(), f32::NEG_INFINITY), F32_NAN);
    let fma = |a: f32, b: f32, c: f32, r| {
        float_fma(
            Ty::F32,
            &Mods { rounding: r, ..m() },
            b32(a),
            b32(b),
            b32(c),
        )
    };
    for r in [Rounding::Rn, Rounding::Rz] {
        assert_eq!(fma(0.0, f32::INFINITY, 1.0, r), F32_NAN);
        assert_eq!(fma(f32::INFINITY, 1.0, f32::NEG_INFINITY, r), F32_NAN);
        assert_eq!(fma(f32::NAN, 0.0, 1.0, r), F32_NAN);
        assert_eq!(fma(1.0, 1.0, f32::from_bits(0xFFC0_0000), r), F32_NAN);
        assert_eq!(fma(f32::INFINITY, -1.0, 5.0, r), b32(f32::NEG_INFINITY));
        assert_eq!(fma(1.0, 2.0, f32::INFINITY, r), b32(f32::INFINITY));
    }
}

#[test]
fn f64_nan_propagation() {
    let qnan = 0x7FF8_0000_0000_1234u64;
    let snan = 0xFFF0_0000_0000_0042u64; // signalling: gets quieted
    assert_eq!(float_binary(Op::FAdd, Ty::F64, &m(), qnan, b64(1.0)), qnan);
    assert_eq!(
        float_binary(Op::FMul, Ty::F64, &m(), b64(1.0), snan),
        snan | (1 << 51)
    );
    // The first NaN operand wins.
    assert_eq!(
        float_binary(Op::FAdd, Ty::F64, &m(), snan, qnan),
        snan | (1 << 51)
    );
    assert_eq!(float_binary(Op::FSub, Ty::F64, &m(), qnan, snan), qnan);
    assert_eq!(float_fma(Ty::F64, &m(), b64(1.0), b64(2.0), qnan), qnan);
    // Invalid operations produce the default NaN.
    assert_eq!(f64b(Op::FSub, &m(), f64::INFINITY, f64::INFINITY), F64_NAN);
    assert_eq!(
        f64b(
            Op::FDiv,
            &Mods {
                rounding: Rounding::Rz,
                ..m()
            },
            0.0,
            0.0
        ),
        F64_NAN
    );
    assert_eq!(float_unary(Op::FSqrt, Ty::F64, &m(), b64(-2.0)), F64_NAN);
    assert_eq!(float_unary(Op::FSqrt, Ty::F64, &m(), qnan), qnan);
}

#[test]
fn infinities_zeros_and_signs() {
    let rm = Mods {
        rounding: Rounding::Rm,
        ..m()
    };
    assert_eq!(f32b(Op::FAdd, &m(), 1.0, -1.0), 0);
    assert_eq!(f32b(Op::FAdd, &rm, 1.0, -1.0), b32(-0.0));
    assert_eq!(f32b(Op::FAdd, &m(), -0.0, -0.0), b32(-0.0));
    assert_eq!(f32b(Op::FSub, &m(), -0.0, 0.0), b32(-0.0));
    assert_eq!(f32b(Op::FSub, &m(), 0.0, 0.0), 0);
    assert_eq!(f32b(Op::FSub, &rm, 0.0, 0.0), b32(-0.0));
    assert_eq!(f32b(Op::FMul, &m(), -0.0, 5.0), b32(-0.0));
    assert_eq!(
        f32b(Op::FMul, &m(), -2.0, f32::INFINITY),
        b32(f32::NEG_INFINITY)
    );
    assert_eq!(f32b(Op::FDiv, &m(), -1.0, 0.0), b32(f32::NEG_INFINITY));
    assert_eq!(f32b(Op::FDiv, &m(), 1.0, -0.0), b32(f32::NEG_INFINITY));
    assert_eq!(f32b(Op::FDiv, &m(), 1.0, f32::NEG_INFINITY), b32(-0.0));
    assert_eq!(f64b(Op::FDiv, &rm, -1.0, 0.0), b64(f64::NEG_INFINITY));
    assert_eq!(f64b(Op::FAdd, &rm, f64::INFINITY, 1.0), b64(f64::INFINITY));
    // rcp
    let rcp = |x: f32, md: &Mods| float_unary(Op::FRcp, Ty::F32, md, b32(x));
    assert_eq!(rcp(0.0, &m()), b32(f32::INFINITY));
    assert_eq!(rcp(-0.0, &m()), b32(f32::NEG_INFINITY));
    assert_eq!(rcp(f32::NEG_INFINITY, &m()), b32(-0.0));
    assert_eq!(rcp(4.0, &m()), b32(0.25));
    // fma zero sums: (+0·x) + (−0) = +0 (rn), −0 (rm); (−0) + (−0) = −0.
    let fma = |md: &Mods, a: f64, b: f64, c: f64| float_fma(Ty::F64, md, b64(a), b64(b), b64(c));
    assert_eq!(fma(&m(), 0.0, 3.0, -0.0), 0);
    assert_eq!(fma(&rm, 0.0, 3.0, -0.0), b64(-0.0));
    assert_eq!(fma(&m(), -0.0, 3.0, -0.0), b64(-0.0));
    assert_eq!(fma(&m(), 2.0, 3.0, -6.0), 0);
    assert_eq!(fma(&rm, 2.0, 3.0, -6.0), b64(-0.0));
    assert_eq!(fma(&m(), 0.0, 3.0, 7.5), b64(7.5));
    assert_eq!(
        fma(&m(), 1e300, 1e300, -f64::INFINITY),
        b64(f64::NEG_INFINITY)
    );
}

#[test]
fn float_min_max() {
    let mn = |a: f32, b: f32| f32b(Op::FMin, &m(), a, b);
    let mx = |a: f32, b: f32| f32b(Op::FMax, &m(), a, b);
    assert_eq!(mn(1.0, 2.0), b32(1.0));
    assert_eq!(mx(1.0, 2.0), b32(2.0));
    assert_eq!(mn(-1.0, f32::NAN), b32(-1.0));
    assert_eq!(mn(f32::NAN, -1.0), b32(-1.0));
    assert_eq!(mx(f32::NAN, f32::NEG_INFINITY), b32(f32::NEG_INFINITY));
    assert_eq!(mx(f32::NAN, f32::from_bits(0xFFC0_0001)), F32_NAN);
    assert_eq!(mn(-0.0, 0.0), b32(-0.0));
    assert_eq!(mn(0.0, -0.0), b32(-0.0));
    assert_eq!(mx(-0.0, 0.0), b32(0.0));
    assert_eq!(mx(0.0, -0.0), b32(0.0));
    assert_eq!(mx(-0.0, -0.0), b32(-0.0));
    assert_eq!(mn(f32::NEG_INFINITY, f32::MIN), b32(f32::NEG_INFINITY));
    // ftz: subnormals compare as zeros and come out flushed.
    let sub = f32::from_bits(BIG_SUB32);
    assert_eq!(f32b(Op::FMax, &m(), sub, 0.0), BIG_SUB32 as u64);
    assert_eq!(f32b(Op::FMax, &ftz(), sub, 0.0), 0);
    assert_eq!(f32b(Op::FMin, &ftz(), -sub, 0.0), b32(-0.0));
    // f64
    assert_eq!(f64b(Op::FMin, &m(), f64::NAN, 3.0), b64(3.0));
    assert_eq!(f64b(Op::FMax, &m(), f64::NAN, f64::NAN), F64_NAN);
    assert_eq!(f64b(Op::FMax, &m(), -5.0, -7.0), b64(-5.0));
}

#[test]
fn abs_neg_copysign() {
    let u = |op, md: &Mods, x: u64| float_unary(op, Ty::F32, md, x);
    assert_eq!(u(Op::FAbs, &m(), b32(-3.0)), b32(3.0));
    assert_eq!(u(Op::FAbs, &m(), b32(-0.0)), 0);
    assert_eq!(u(Op::FNeg, &m(), 0), b32(-0.0));
    assert_eq!(
        u(Op::FNeg, &m(), b32(f32::INFINITY)),
        b32(f32::NEG_INFINITY)
    );
    // Sign-bit operations keep NaN payloads.
    assert_eq!(u(Op::FAbs, &m(), 0xFFC0_1234), 0x7FC0_1234);
    assert_eq!(u(Op::FNeg, &m(), 0x7FC0_1234), 0xFFC0_1234);
    assert_eq!(u(Op::FAbs, &m(), (1 << 31) | SUB32 as u64), SUB32 as u64);
    assert_eq!(u(Op::FAbs, &ftz(), (1 << 31) | SUB32 as u64), 0);
    assert_eq!(u(Op::FNeg, &ftz(), SUB32 as u64), b32(-0.0));
    assert_eq!(float_unary(Op::FNeg, Ty::F64, &m(), b64(2.5)), b64(-2.5));
    // copysign d, a, b: b with a's sign.
    assert_eq!(f32b(Op::Copysign, &m(), -1.0, 3.0), b32(-3.0));
    assert_eq!(f32b(Op::Copysign, &m(), 1.0, -3.0), b32(3.0));
    assert_eq!(
        float_binary(Op::Copysign, Ty::F32, &m(), 0x0BDA_2A2C, 0xE31A_8FD7),
        0x631A_8FD7
    );
    assert_eq!(
        f64b(Op::Copysign, &m(), -0.0, f64::INFINITY),
        b64(f64::NEG_INFINITY)
    );
}

#[test]
fn ftz_inputs_and_outputs() {
    // A subnormal times 0.5 (from the ZLUDA mul_ftz test data): flushed vs. kept.
    let x = 0x8040_0000u64; // −2^-127
    assert_eq!(
        float_binary(Op::FMul, Ty::F32, &ftz(), x, b32(0.5)),
        0x8000_0000
    );
    assert_eq!(
        float_binary(Op::FMul, Ty::F32, &m(), x, b32(0.5)),
        0x8020_0000
    );
    // Subnormal input flushed before the add.
    assert_eq!(
        float_binary(Op::FAdd, Ty::F32, &ftz(), SUB32 as u64, SUB32 as u64),
        0
    );
    assert_eq!(
        float_binary(Op::FAdd, Ty::F32, &m(), SUB32 as u64, SUB32 as u64),
        2
    );
    // Normal inputs, subnormal result: flushed (sign kept).
    let min_norm = f32::MIN_POSITIVE;
    assert_eq!(f32b(Op::FMul, &ftz(), -min_norm, 0.5), b32(-0.0));
    assert_eq!(f32b(Op::FMul, &m(), -min_norm, 0.5), 0x8040_0000);
    // A result that rounds up to the smallest normal is not flushed (tininess is judged after
    // rounding): (1 − 2^-24) · 2^-126 is a tie between 0x007FFFFF and 0x00800000 (even).
    let below_one = f32::from_bits(0x3F7F_FFFF);
    assert_eq!(f32b(Op::FMul, &ftz(), below_one, min_norm), 0x0080_0000);
    assert_eq!(
        f32b(
            Op::FMul,
            &Mods {
                rounding: Rounding::Rz,
                ftz: true,
                ..m()
            },
            below_one,
            min_norm
        ),
        0
    );
    // sqrt.rn.ftz of the smallest subnormal gives 0 (from the ZLUDA sqrt_rn_ftz data).
    let sq = Mods {
        rounding: Rounding::Rn,
        ftz: true,
        ..m()
    };
    assert_eq!(float_unary(Op::FSqrt, Ty::F32, &sq, 1), 0);
    // Directed-rounding path flushes too.
    let rz = Mods {
        rounding: Rounding::Rz,
        ftz: true,
        ..m()
    };
    assert_eq!(
        float_binary(Op::FAdd, Ty::F32, &rz, SUB32 as u64, b32(1.0)),
        b32(1.0)
    );
    assert_eq!(float_fma(Ty::F32, &rz, b32(min_norm), b32(0.25), 0), 0);
    // ftz is ignored for f64.
    assert_eq!(float_binary(Op::FMul, Ty::F64, &ftz(), 1, b64(1.0)), 1);
    // div.rn.ftz / noftz (ZLUDA div_ftz/div_noftz data).
    let d = |md: &Mods| float_binary(Op::FDiv, Ty::F32, md, 0x16A2_028D, 0x5E89_F6AE);
    assert_eq!(d(&ftz()), 0);
    assert_eq!(d(&m()), 0x26);
}

#[test]
fn saturation() {
    assert_eq!(f32b(Op::FAdd, &sat(), 0.75, 0.75), b32(1.0));
    assert_eq!(f32b(Op::FAdd, &sat(), -0.75, 0.25), 0);
    assert_eq!(f32b(Op::FMul, &sat(), -0.0, 1.0), 0); // −0 → +0
    assert_eq!(f32b(Op::FAdd, &sat(), f32::INFINITY, f32::NEG_INFINITY), 0); // NaN → +0
    assert_eq!(f32b(Op::FMul, &sat(), 0.25, 2.0), b32(0.5));
    assert_eq!(f32b(Op::FSub, &sat(), f32::INFINITY, 1.0), b32(1.0));
    assert_eq!(f64b(Op::FDiv, &sat(), 1.0, 3.0), b64(1.0 / 3.0));
    assert_eq!(f64b(Op::FDiv, &sat(), 7.0, 3.0), b64(1.0));
    assert_eq!(
        float_fma(Ty::F32, &sat(), b32(2.0), b32(2.0), b32(-3.0)),
        b32(1.0)
    );
    assert_eq!(
        float_fma(Ty::F32, &sat(), b32(2.0), b32(0.25), b32(-0.25)),
        b32(0.25)
    );
}

#[test]
fn div_approx_f32() {
    let ap = Mods {
        approx: true,
        ..m()
    };
    let d = |a: f32, b: f32| f32::from_bits(f32b(Op::FDiv, &ap, a, b) as u32);
    assert_eq!(d(1.0, 2.0), 0.5);
    assert_eq!(d(3.0, 3.0), 1.0);
    // 2^126 < |b| < 2^128: 0, or NaN for an infinite dividend.
    assert_eq!(d(1.0, 2f32.powi(127)).to_bits(), 0);
    assert_eq!(d(-1.0, 2f32.powi(127)).to_bits(), 0x8000_0000);
    assert_eq!(f32b(Op::FDiv, &ap, f32::INFINITY, 2f32.powi(127)), F32_NAN);
    assert_eq!(d(2f32.powi(100), 2f32.powi(126)), 2f32.powi(-26));
    assert!(d(1.0, 0.0).is_infinite());
    assert_eq!(f32b(Op::FDiv, &ap, 0.0, 0.0), F32_NAN);
    assert_eq!(f32b(Op::FDiv, &ap, f32::INFINITY, f32::INFINITY), F32_NAN);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(4000))]

    /// div.approx.f32 is within 2 ulp of the exact quotient for |b| in [2^-126, 2^126].
    #[test]
    fn div_approx_within_2ulp(a in any::<u32>(), b in any::<u32>()) {
        let (x, y) = (f32::from_bits(a), f32::from_bits(b));
        if !(x.is_finite() && y.is_finite() && y.abs() >= f32::MIN_POSITIVE && y.abs() <= 2f32.powi(126)) {
            return Ok(());
        }
        let exact = x as f64 / y as f64;
        if !(exact.abs() >= f32::MIN_POSITIVE as f64 && exact.abs() < f32::MAX as f64 / 2.0) {
            return Ok(());
        }
        let ap = Mods { approx: true, ..Mods::default() };
        let got = f32::from_bits(float_binary(Op::FDiv, Ty::F32, &ap, a as u64, b as u64) as u32) as f64;
        let ulp = 2f64.powi(exact.abs().log2().floor() as i32 - 23);
        prop_assert!((got - exact).abs() <= 2.0 * ulp, "{x} / {y}: {got} vs {exact}");
    }

    /// min/max agree with a reference built on Rust's total_cmp ordering of non-NaN values.
    #[test]
    fn min_max_reference(a in any::<u32>(), b in any::<u32>()) {
        let (x, y) = (f32::from_bits(a), f32::from_bits(b));
        let want_min = match (x.is_nan(), y.is_nan()) {
            (true, true) => F32_NAN,
            (true, false) => b as u64,
            (false, true) => a as u64,
            _ => if x.total_cmp(&y).is_le() { a as u64 } else { b as u64 },
        };
        prop_assert_eq!(float_binary(Op::FMin, Ty::F32, &Mods::default(), a as u64, b as u64), want_min);
        let want_max = match (x.is_nan(), y.is_nan()) {
            (true, true) => F32_NAN,
            (true, false) => b as u64,
            (false, true) => a as u64,
            _ => if x.total_cmp(&y).is_ge() { a as u64 } else { b as u64 },
        };
        prop_assert_eq!(float_binary(Op::FMax, Ty::F32, &Mods::default(), a as u64, b as u64), want_max);
    }

    /// No input panics, for any op, type and modifier combination.
    #[test]
    fn never_panics(a in any::<u64>(), b in any::<u64>(), c in any::<u64>(), r in 0u8..9, flags in any::<u8>()) {
        let rounding = [Rounding::None, Rounding::Rn, Rounding::Rz, Rounding::Rm, Rounding::Rp,
            Rounding::Rni, Rounding::Rzi, Rounding::Rmi, Rounding::Rpi][r as usize];
        let md = Mods { rounding, ftz: flags & 1 != 0, sat: flags & 2 != 0, approx: flags & 4 != 0, ..Mods::default() };
        for ty in [Ty::F16, Ty::BF16, Ty::F32, Ty::F64, Ty::F16x2, Ty::BF16x2, Ty::U32] {
            for op in [Op::FAdd, Op::FSub, Op::FMul, Op::FFma, Op::FDiv, Op::FAbs, Op::FNeg, Op::FMin,
                Op::FMax, Op::FRcp, Op::FSqrt, Op::FRsqrt, Op::FEx2, Op::FLg2, Op::FSin, Op::FCos,
                Op::FTanh, Op::Copysign, Op::Nop] {
                let _ = float_op(op, ty, &md, [a, b, c]);
            }
            for k in 0..7 { let _ = testp(k, ty, a); }
        }
    }
}

#[test]
fn testp_kinds() {
    let t = |k: u8, x: f32| testp(k, Ty::F32, b32(x));
    let sub = f32::from_bits(5);
    // finite
    assert!(t(0, 1.0) && t(0, 0.0) && t(0, sub) && !t(0, f32::INFINITY) && !t(0, f32::NAN));
    // infinite
    assert!(t(1, f32::INFINITY) && t(1, f32::NEG_INFINITY) && !t(1, 1.0) && !t(1, f32::NAN));
    // number
    assert!(t(2, 1.0) && t(2, f32::INFINITY) && !t(2, f32::NAN));
    // notanumber
    assert!(t(3, f32::NAN) && !t(3, f32::INFINITY));
    // normal
    assert!(
        t(4, 1.0)
            && t(4, -f32::MAX)
            && !t(4, 0.0)
            && !t(4, sub)
            && !t(4, f32::INFINITY)
            && !t(4, f32::NAN)
    );
    // subnormal
    assert!(t(5, sub) && t(5, -sub) && !t(5, 0.0) && !t(5, 1.0));
    assert!(testp(5, Ty::F64, 1) && testp(4, Ty::F64, b64(1.0)) && testp(3, Ty::F64, F64_NAN));
    assert!(!testp(9, Ty::F32, 0));
    assert!(!testp(0, Ty::U32, 0));
}

#[test]
fn packed_f16x2_lanes() {
    // 1.0 + 2.0 in the low lane, 3.0 + 0.5 in the high lane.
    let a = 0x4200_3C00u64; // {3.0, 1.0}
    let b = 0x3800_4000u64; // {0.5, 2.0}
    assert_eq!(float_binary(Op::FAdd, Ty::F16x2, &m(), a, b), 0x4300_4200); // {3.5, 3.0}
                                                                            // fma.rn.f16x2 / bf16x2 data from ZLUDA's tests.
    assert_eq!(
        float_fma(Ty::F16x2, &m(), 0x4000_4040, 0x4040_4080, 0x40A0_4040),
        1183860456
    );
    assert_eq!(
        float_fma(Ty::BF16x2, &m(), 0x4000_4040, 0x4040_4080, 0x40A0_4040),
        0x4130_4170
    );
    assert_eq!(
        float_unary(Op::FNeg, Ty::F16x2, &m(), 0x3C00_BC00),
        0xBC00_3C00
    );
}
