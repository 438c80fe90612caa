//! `.approx` functions: special values and error bounds (the manual's maxima).

use proptest::prelude::*;
use warpsim_core::alu::float_unary;
use warpsim_core::ir::{Mods, Op, Ty};

const NAN32: u64 = 0x7FFF_FFFF;

fn ap() -> Mods {
    Mods {
        approx: true,
        ..Mods::default()
    }
}
fn ap_ftz() -> Mods {
    Mods {
        approx: true,
        ftz: true,
        ..Mods::default()
    }
}
fn u(op: Op, x: f32) -> f32 {
    f32::from_bits(float_unary(op, Ty::F32, &ap(), x.to_bits() as u64) as u32)
}
fn ub(op: Op, x: f32) -> u64 {
    float_unary(op, Ty::F32, &ap(), x.to_bits() as u64)
}

#[test]
fn special_values() {
    let inf = f32::INFINITY;
    // ex2
    assert_eq!(ub(Op::FEx2, -inf), 0);
    assert_eq!(u(Op::FEx2, inf), inf);
    assert_eq!(u(Op::FEx2, 0.0), 1.0);
    assert_eq!(u(Op::FEx2, -0.0), 1.0);
    assert_eq!(u(Op::FEx2, 10.0), 1024.0);
    assert_eq!(u(Op::FEx2, -149.0).to_bits(), 1);
    assert_eq!(
        float_unary(Op::FEx2, Ty::F32, &ap_ftz(), (-149.0f32).to_bits() as u64),
        0
    );
    assert_eq!(u(Op::FEx2, 128.0), inf);
    assert_eq!(ub(Op::FEx2, f32::NAN), NAN32);
    // lg2
    assert_eq!(u(Op::FLg2, 0.0), -inf);
    assert_eq!(u(Op::FLg2, -0.0), -inf);
    assert_eq!(ub(Op::FLg2, -1.0), NAN32);
    assert_eq!(ub(Op::FLg2, -inf), NAN32);
    assert_eq!(u(Op::FLg2, inf), inf);
    assert_eq!(u(Op::FLg2, 512.0), 9.0);
    assert_eq!(u(Op::FLg2, 1.0), 0.0);
    assert_eq!(u(Op::FLg2, f32::from_bits(1)), -149.0);
    assert_eq!(
        float_unary(Op::FLg2, Ty::F32, &ap_ftz(), 1),
        (-inf).to_bits() as u64
    );
    // sin / cos
    assert_eq!(ub(Op::FSin, inf), NAN32);
    assert_eq!(ub(Op::FCos, -inf), NAN32);
    assert_eq!(ub(Op::FSin, -0.0), (-0.0f32).to_bits() as u64);
    assert_eq!(u(Op::FCos, 0.0), 1.0);
    assert_eq!(u(Op::FSin, std::f32::consts::FRAC_PI_2), 1.0);
    assert_eq!(u(Op::FCos, std::f32::consts::PI), -1.0);
    // tanh
    assert_eq!(u(Op::FTanh, inf), 1.0);
    assert_eq!(u(Op::FTanh, -inf), -1.0);
    assert_eq!(ub(Op::FTanh, -0.0), (-0.0f32).to_bits() as u64);
    assert_eq!(ub(Op::FTanh, f32::NAN), NAN32);
    // rcp / sqrt / rsqrt
    assert_eq!(u(Op::FRcp, 0.0), inf);
    assert_eq!(u(Op::FRcp, -0.0), -inf);
    assert_eq!(ub(Op::FRcp, -inf), (-0.0f32).to_bits() as u64);
    assert_eq!(u(Op::FRcp, 2.0), 0.5);
    assert_eq!(u(Op::FSqrt, 0.25), 0.5);
    assert_eq!(ub(Op::FSqrt, -0.0), (-0.0f32).to_bits() as u64);
    assert_eq!(ub(Op::FSqrt, -4.0), NAN32);
    assert_eq!(u(Op::FRsqrt, 0.0), inf);
    assert_eq!(u(Op::FRsqrt, -0.0), -inf);
    assert_eq!(ub(Op::FRsqrt, -4.0), NAN32);
    assert_eq!(ub(Op::FRsqrt, inf), 0);
    assert_eq!(u(Op::FRsqrt, 0.25), 2.0);
    // rcp.approx.f32 of a subnormal: finite without ftz, ∞ with it.
    assert!(u(Op::FRcp, f32::from_bits(0x0040_0000)).is_finite());
    assert_eq!(
        float_unary(Op::FRcp, Ty::F32, &ap_ftz(), 0x0040_0000),
        inf.to_bits() as u64
    );
    // rsqrt.approx.f64 (ZLUDA data).
    assert_eq!(
        float_unary(Op::FRsqrt, Ty::F64, &ap(), 0.25f64.to_bits()),
        2.0f64.to_bits()
    );
}

#[test]
fn rcp_approx_ftz_f64() {
    let r = |x: f64| f64::from_bits(float_unary(Op::FRcp, Ty::F64, &ap_ftz(), x.to_bits()));
    assert_eq!(r(2.0), 0.5);
    assert_eq!(r(-4.0), -0.25);
    assert_eq!(r(0.0), f64::INFINITY);
    assert_eq!(r(-0.0), f64::NEG_INFINITY);
    assert_eq!(r(f64::INFINITY), 0.0);
    assert_eq!(r(f64::from_bits(1)), f64::INFINITY); // subnormal input flushed
    assert_eq!(r(f64::MAX), 0.0); // subnormal result flushed
    assert!(r(f64::NAN).is_nan());
    // Low 32 bits of the result are zero; relative error < 2^-19.
    let x = 3.0f64;
    let y = r(x);
    assert_eq!(y.to_bits() & 0xFFFF_FFFF, 0);
    assert!((y * x - 1.0).abs() < 2f64.powi(-19));
}

fn rel_err(got: f32, exact: f64) -> f64 {
    ((got as f64 - exact) / exact).abs()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(4000))]

    #[test]
    fn ex2_error(x in -126.0f32..127.0) {
        prop_assert!(rel_err(u(Op::FEx2, x), (x as f64).exp2()) <= 2f64.powi(-22));
    }

    #[test]
    fn lg2_error(bits in 0x0080_0000u32..0x7F80_0000) {
        let x = f32::from_bits(bits);
        let exact = (x as f64).log2();
        let got = u(Op::FLg2, x) as f64;
        // 2^-22 relative, or 2^-22.6 absolute near 1.
        prop_assert!((got - exact).abs() <= (2f64.powi(-22) * exact.abs()).max(2f64.powi(-22)));
    }

    #[test]
    fn sin_cos_error(x in -100.0f32 * std::f32::consts::PI..100.0 * std::f32::consts::PI) {
        let xd = x as f64;
        prop_assert!((u(Op::FSin, x) as f64 - xd.sin()).abs() <= 2f64.powi(-20));
        prop_assert!((u(Op::FCos, x) as f64 - xd.cos()).abs() <= 2f64.powi(-20));
    }

    #[test]
    fn tanh_rcp_sqrt_rsqrt_error(bits in 0x0080_0000u32..0x7F00_0000) {
        let x = f32::from_bits(bits);
        let xd = x as f64;
        prop_assert!(rel_err(u(Op::FTanh, x), xd.tanh()) <= 2f64.powi(-11));
        prop_assert!(rel_err(u(Op::FRcp, x), 1.0 / xd) <= 2f64.powi(-23));
        prop_assert!(rel_err(u(Op::FSqrt, x), xd.sqrt()) <= 2f64.powi(-23));
        prop_assert!(rel_err(u(Op::FRsqrt, x), 1.0 / xd.sqrt()) <= 2f64.powi(-22));
        // Negated operands for the odd functions.
        prop_assert_eq!(u(Op::FTanh, -x), -u(Op::FTanh, x));
        prop_assert_eq!(u(Op::FRcp, -x), -u(Op::FRcp, x));
    }
}
