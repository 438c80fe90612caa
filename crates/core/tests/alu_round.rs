//! Directed rounding (`.rz .rm .rp`) of f32/f64 add, sub, mul, fma, div, rcp, sqrt checked
//! against exact big-integer arithmetic (alu_oracle.rs), plus the software paths in
//! round-to-nearest checked bit-for-bit against the host's IEEE arithmetic.

use crate::alu_oracle as oracle;

use oracle::{directed, sign_of_sum, Dir, F};
use proptest::prelude::*;
use warpsim_core::alu::float::{add_soft, div_soft, fma_soft, mul_soft, sqrt_soft};
use warpsim_core::alu::{float_binary, float_fma, float_unary, Fmt, RMode};
use warpsim_core::ir::{Mods, Op, Rounding, Ty};

const DIRS: [(Dir, Rounding); 3] = [
    (Dir::Z, Rounding::Rz),
    (Dir::M, Rounding::Rm),
    (Dir::P, Rounding::Rp),
];

fn mods(r: Rounding) -> Mods {
    Mods {
        rounding: r,
        ..Mods::default()
    }
}

fn ty_of(f: F) -> Ty {
    match f {
        F::S => Ty::F32,
        F::D => Ty::F64,
    }
}

/// Host round-to-nearest results.
fn rn_add(f: F, a: u64, b: u64) -> u64 {
    match f {
        F::S => (f32::from_bits(a as u32) + f32::from_bits(b as u32)).to_bits() as u64,
        F::D => (f64::from_bits(a) + f64::from_bits(b)).to_bits(),
    }
}
fn rn_mul(f: F, a: u64, b: u64) -> u64 {
    match f {
        F::S => (f32::from_bits(a as u32) * f32::from_bits(b as u32)).to_bits() as u64,
        F::D => (f64::from_bits(a) * f64::from_bits(b)).to_bits(),
    }
}
fn rn_div(f: F, a: u64, b: u64) -> u64 {
    match f {
        F::S => (f32::from_bits(a as u32) / f32::from_bits(b as u32)).to_bits() as u64,
        F::D => (f64::from_bits(a) / f64::from_bits(b)).to_bits(),
    }
}
fn rn_fma(f: F, a: u64, b: u64, c: u64) -> u64 {
    match f {
        F::S => f32::from_bits(a as u32)
            .mul_add(f32::from_bits(b as u32), f32::from_bits(c as u32))
            .to_bits() as u64,
        F::D => f64::from_bits(a)
            .mul_add(f64::from_bits(b), f64::from_bits(c))
            .to_bits(),
    }
}
fn rn_sqrt(f: F, a: u64) -> u64 {
    match f {
        F::S => f32::from_bits(a as u32).sqrt().to_bits() as u64,
        F::D => f64::from_bits(a).sqrt().to_bits(),
    }
}

fn neg_of(f: F, x: u64) -> bool {
    x & f.sign_bit() != 0
}

fn check_add(f: F, a: u64, b: u64) -> Result<(), TestCaseError> {
    let (x, y) = (f.to_f64(a), f.to_f64(b));
    let rn = rn_add(f, a, b);
    let cancel = neg_of(f, a) != neg_of(f, b);
    for (dir, r) in DIRS {
        let want = directed(f, dir, rn, cancel, |t| {
            sign_of_sum(&[(x, 1.0, false), (y, 1.0, false), (t, 1.0, true)])
        });
        let got = float_binary(Op::FAdd, ty_of(f), &mods(r), a, b);
        prop_assert_eq!(got, want, "add {:?} {:?} {:#x} {:#x}", f, dir, a, b);
        // sub a, -b must be the same operation.
        let got = float_binary(Op::FSub, ty_of(f), &mods(r), a, b ^ f.sign_bit());
        prop_assert_eq!(got, want, "sub {:?} {:?} {:#x} {:#x}", f, dir, a, b);
    }
    Ok(())
}

fn check_mul(f: F, a: u64, b: u64) -> Result<(), TestCaseError> {
    let (x, y) = (f.to_f64(a), f.to_f64(b));
    let rn = rn_mul(f, a, b);
    for (dir, r) in DIRS {
        let want = directed(f, dir, rn, false, |t| {
            sign_of_sum(&[(x, y, false), (t, 1.0, true)])
        });
        let got = float_binary(Op::FMul, ty_of(f), &mods(r), a, b);
        prop_assert_eq!(got, want, "mul {:?} {:?} {:#x} {:#x}", f, dir, a, b);
    }
    Ok(())
}

fn check_fma(f: F, a: u64, b: u64, c: u64) -> Result<(), TestCaseError> {
    let (x, y, z) = (f.to_f64(a), f.to_f64(b), f.to_f64(c));
    let rn = rn_fma(f, a, b, c);
    let cancel = (neg_of(f, a) ^ neg_of(f, b)) != neg_of(f, c);
    for (dir, r) in DIRS {
        let want = directed(f, dir, rn, cancel, |t| {
            sign_of_sum(&[(x, y, false), (z, 1.0, false), (t, 1.0, true)])
        });
        let got = float_fma(ty_of(f), &mods(r), a, b, c);
        prop_assert_eq!(
            got,
            want,
            "fma {:?} {:?} {:#x} {:#x} {:#x}",
            f,
            dir,
            a,
            b,
            c
        );
    }
    Ok(())
}

fn check_div(f: F, a: u64, b: u64) -> Result<(), TestCaseError> {
    let (x, y) = (f.to_f64(a), f.to_f64(b));
    if y == 0.0 {
        return Ok(());
    }
    let rn = rn_div(f, a, b);
    let sb = if y > 0.0 { 1 } else { -1 };
    for (dir, r) in DIRS {
        // sign(x/y − t) = sign(x − t·y) · sign(y)
        let want = directed(f, dir, rn, false, |t| {
            sb * sign_of_sum(&[(x, 1.0, false), (t, y, true)])
        });
        let got = float_binary(Op::FDiv, ty_of(f), &mods(r), a, b);
        prop_assert_eq!(got, want, "div {:?} {:?} {:#x} {:#x}", f, dir, a, b);
        if x == 1.0 {
            let got = float_unary(Op::FRcp, ty_of(f), &mods(r), b);
            prop_assert_eq!(got, want, "rcp {:?} {:?} {:#x}", f, dir, b);
        }
    }
    Ok(())
}

fn check_sqrt(f: F, a: u64) -> Result<(), TestCaseError> {
    let a = a & !f.sign_bit();
    let x = f.to_f64(a);
    let rn = rn_sqrt(f, a);
    for (dir, r) in DIRS {
        // For t ≥ 0: sign(√x − t) = sign(x − t²); t < 0 never occurs (results are ≥ 0).
        let want = directed(f, dir, rn, false, |t| {
            sign_of_sum(&[(x, 1.0, false), (t, t, true)])
        });
        let got = float_unary(Op::FSqrt, ty_of(f), &mods(r), a);
        prop_assert_eq!(got, want, "sqrt {:?} {:?} {:#x}", f, dir, a);
    }
    Ok(())
}

// ---- value strategies ----

/// Finite f64 bit patterns: uniform bits, moderate exponents with sparse significands (exact
/// ties and near-ties), subnormals, and values near the overflow threshold.
fn f64_bits() -> impl Strategy<Value = u64> {
    prop_oneof![
        any::<u64>(),
        (any::<bool>(), any::<u64>(), 0u32..64, -70i32..70).prop_map(|(s, m, drop, e)| {
            let v = ((m >> drop) | 1) as f64 * 2f64.powi(e);
            (if s { -v } else { v }).to_bits()
        }),
        (any::<bool>(), 0u64..(1 << 53)).prop_map(|(s, m)| m | ((s as u64) << 63)),
        (
            any::<bool>(),
            0x7FD0_0000_0000_0000u64..0x7FF0_0000_0000_0000
        )
            .prop_map(|(s, m)| m | ((s as u64) << 63)),
        (any::<bool>(), 1u64..1 << 20, -1100i32..-1000).prop_map(|(s, m, e)| {
            let v = m as f64 * 2f64.powi(e + 60) * 2f64.powi(-60);
            (if s { -v } else { v }).to_bits()
        }),
    ]
    .prop_filter("finite", |b| f64::from_bits(*b).is_finite())
}

fn f32_bits() -> impl Strategy<Value = u64> {
    prop_oneof![
        any::<u32>(),
        (any::<bool>(), any::<u32>(), 0u32..32, -40i32..40).prop_map(|(s, m, drop, e)| {
            let v = ((m >> drop) | 1) as f32 * 2f32.powi(e);
            (if s { -v } else { v }).to_bits()
        }),
        (any::<bool>(), 0u32..(1 << 24)).prop_map(|(s, m)| m | ((s as u32) << 31)),
        (any::<bool>(), 0x7E80_0000u32..0x7F80_0000).prop_map(|(s, m)| m | ((s as u32) << 31)),
    ]
    .prop_filter("finite", |b| f32::from_bits(*b).is_finite())
    .prop_map(|b| b as u64)
}

/// A pair whose exponents are close (cancellation, carries, ties in add).
fn close_pair_f64() -> impl Strategy<Value = (u64, u64)> {
    (f64_bits(), any::<u64>(), -3i32..60, any::<bool>()).prop_map(|(a, m, sh, s)| {
        let x = f64::from_bits(a);
        let y = x * (1.0 + (m >> 12) as f64 * 2f64.powi(-52)) * 2f64.powi(-sh);
        let y = if s { -y } else { y };
        (a, if y.is_finite() { y.to_bits() } else { a })
    })
}

fn close_pair_f32() -> impl Strategy<Value = (u64, u64)> {
    (f32_bits(), any::<u32>(), -3i32..30, any::<bool>()).prop_map(|(a, m, sh, s)| {
        let x = f32::from_bits(a as u32);
        let y = x * (1.0 + (m >> 9) as f32 * 2f32.powi(-23)) * 2f32.powi(-sh);
        let y = if s { -y } else { y };
        (a, if y.is_finite() { y.to_bits() as u64 } else { a })
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(3000))]

    #[test]
    fn directed_add_f64(a in f64_bits(), b in f64_bits()) { check_add(F::D, a, b)?; }
    #[test]
    fn directed_add_close_f64((a, b) in close_pair_f64()) { check_add(F::D, a, b)?; }
    #[test]
    fn directed_add_f32(a in f32_bits(), b in f32_bits()) { check_add(F::S, a, b)?; }
    #[test]
    fn directed_add_close_f32((a, b) in close_pair_f32()) { check_add(F::S, a, b)?; }

    #[test]
    fn directed_mul_f64(a in f64_bits(), b in f64_bits()) { check_mul(F::D, a, b)?; }
    #[test]
    fn directed_mul_f32(a in f32_bits(), b in f32_bits()) { check_mul(F::S, a, b)?; }

    #[test]
    fn directed_fma_f64(a in f64_bits(), b in f64_bits(), c in f64_bits()) { check_fma(F::D, a, b, c)?; }
    #[test]
    fn directed_fma_f32(a in f32_bits(), b in f32_bits(), c in f32_bits()) { check_fma(F::S, a, b, c)?; }
    /// c close to −a·b: massive cancellation.
    #[test]
    fn directed_fma_cancel_f64(a in f64_bits(), b in f64_bits(), d in -4i64..4) {
        let p = f64::from_bits(a) * f64::from_bits(b);
        let c = ((-p).to_bits() as i64).wrapping_add(d) as u64;
        if p.is_finite() && f64::from_bits(c).is_finite() {
            check_fma(F::D, a, b, c)?;
        }
    }
    #[test]
    fn directed_fma_cancel_f32(a in f32_bits(), b in f32_bits(), d in -4i64..4) {
        let p = f32::from_bits(a as u32) * f32::from_bits(b as u32);
        let c = ((-p).to_bits() as i64).wrapping_add(d) as u64 & 0xFFFF_FFFF;
        if p.is_finite() && f32::from_bits(c as u32).is_finite() {
            check_fma(F::S, a, b, c)?;
        }
    }

    #[test]
    fn directed_div_f64(a in f64_bits(), b in f64_bits()) { check_div(F::D, a, b)?; }
    #[test]
    fn directed_div_f32(a in f32_bits(), b in f32_bits()) { check_div(F::S, a, b)?; }
    #[test]
    fn directed_rcp_f64(b in f64_bits()) { check_div(F::D, 1.0f64.to_bits(), b)?; }
    #[test]
    fn directed_rcp_f32(b in f32_bits()) { check_div(F::S, 1.0f32.to_bits() as u64, b)?; }

    #[test]
    fn directed_sqrt_f64(a in f64_bits()) { check_sqrt(F::D, a)?; }
    #[test]
    fn directed_sqrt_f32(a in f32_bits()) { check_sqrt(F::S, a)?; }
    /// Squares and near-squares: exact roots and roots just off a representable value.
    #[test]
    fn directed_sqrt_near_square_f64(m in 1u64..(1 << 53), d in -2i64..3) {
        let r = m as f64 * 2f64.powi(-26);
        let sq = (r * r).to_bits() as i64 + d;
        check_sqrt(F::D, sq as u64)?;
    }

    // ---- the software paths in round-to-nearest equal the host's IEEE arithmetic ----

    #[test]
    fn soft_rn_matches_native_f64(a in prop_oneof![f64_bits(), any::<u64>()], b in prop_oneof![f64_bits(), any::<u64>()], c in f64_bits(), ftz in any::<bool>()) {
        let fmt = Fmt::F64;
        let m = Mods { ftz, ..Mods::default() };
        prop_assert_eq!(add_soft(fmt, a, b, false, RMode::Rn, false), float_binary(Op::FAdd, Ty::F64, &m, a, b));
        prop_assert_eq!(add_soft(fmt, a, b, true, RMode::Rn, false), float_binary(Op::FSub, Ty::F64, &m, a, b));
        prop_assert_eq!(mul_soft(fmt, a, b, RMode::Rn, false), float_binary(Op::FMul, Ty::F64, &m, a, b));
        prop_assert_eq!(div_soft(fmt, a, b, RMode::Rn, false), float_binary(Op::FDiv, Ty::F64, &m, a, b));
        prop_assert_eq!(fma_soft(fmt, a, b, c, RMode::Rn, false), float_fma(Ty::F64, &m, a, b, c));
        prop_assert_eq!(sqrt_soft(fmt, a, RMode::Rn, false), float_unary(Op::FSqrt, Ty::F64, &m, a));
        // Non-NaN results are exactly the host's.
        let host = f64::from_bits(a) * f64::from_bits(b);
        if !host.is_nan() {
            prop_assert_eq!(float_binary(Op::FMul, Ty::F64, &m, a, b), host.to_bits());
        }
    }

    #[test]
    fn soft_rn_matches_native_f32(a in prop_oneof![f32_bits(), any::<u32>().prop_map(|x| x as u64)], b in prop_oneof![f32_bits(), any::<u32>().prop_map(|x| x as u64)], c in f32_bits(), ftz in any::<bool>()) {
        let fmt = Fmt::F32;
        let m = Mods { ftz, ..Mods::default() };
        prop_assert_eq!(add_soft(fmt, a, b, false, RMode::Rn, ftz), float_binary(Op::FAdd, Ty::F32, &m, a, b));
        prop_assert_eq!(add_soft(fmt, a, b, true, RMode::Rn, ftz), float_binary(Op::FSub, Ty::F32, &m, a, b));
        prop_assert_eq!(mul_soft(fmt, a, b, RMode::Rn, ftz), float_binary(Op::FMul, Ty::F32, &m, a, b));
        prop_assert_eq!(div_soft(fmt, a, b, RMode::Rn, ftz), float_binary(Op::FDiv, Ty::F32, &m, a, b));
        prop_assert_eq!(fma_soft(fmt, a, b, c, RMode::Rn, ftz), float_fma(Ty::F32, &m, a, b, c));
        prop_assert_eq!(sqrt_soft(fmt, a, RMode::Rn, ftz), float_unary(Op::FSqrt, Ty::F32, &m, a));
        let host = f32::from_bits(a as u32) + f32::from_bits(b as u32);
        if !host.is_nan() && !ftz {
            prop_assert_eq!(float_binary(Op::FAdd, Ty::F32, &m, a, b), host.to_bits() as u64);
        }
    }
}

// ---- crafted ties and near-ties ----

fn add64(r: Rounding, a: f64, b: f64) -> f64 {
    f64::from_bits(float_binary(
        Op::FAdd,
        Ty::F64,
        &mods(r),
        a.to_bits(),
        b.to_bits(),
    ))
}
fn add32(r: Rounding, a: f32, b: f32) -> f32 {
    f32::from_bits(float_binary(
        Op::FAdd,
        Ty::F32,
        &mods(r),
        a.to_bits() as u64,
        b.to_bits() as u64,
    ) as u32)
}
fn mul32(r: Rounding, a: f32, b: f32) -> f32 {
    f32::from_bits(float_binary(
        Op::FMul,
        Ty::F32,
        &mods(r),
        a.to_bits() as u64,
        b.to_bits() as u64,
    ) as u32)
}

#[test]
fn ties_f64_add() {
    let e = f64::EPSILON; // 2^-52
    let h = e / 2.0; // half an ulp of 1.0
                     // 1 + 2^-53 is exactly halfway between 1 and 1 + 2^-52: ties-to-even gives 1.
    assert_eq!(add64(Rounding::Rn, 1.0, h), 1.0);
    assert_eq!(add64(Rounding::Rz, 1.0, h), 1.0);
    assert_eq!(add64(Rounding::Rm, 1.0, h), 1.0);
    assert_eq!(add64(Rounding::Rp, 1.0, h), 1.0 + e);
    // (1 + 2^-52) + 2^-53: halfway, the even neighbour is above.
    assert_eq!(add64(Rounding::Rn, 1.0 + e, h), 1.0 + 2.0 * e);
    assert_eq!(add64(Rounding::Rz, 1.0 + e, h), 1.0 + e);
    // Negative ties mirror.
    assert_eq!(add64(Rounding::Rn, -1.0, -h), -1.0);
    assert_eq!(add64(Rounding::Rm, -1.0, -h), -1.0 - e);
    assert_eq!(add64(Rounding::Rp, -1.0, -h), -1.0);
    assert_eq!(add64(Rounding::Rz, -1.0, -h), -1.0);
    // Just above and below the tie (a far-away sticky bit decides).
    let tiny = 2f64.powi(-200);
    let above = h * (1.0 + e); // 2^-53 + 2^-105
    let below = h * (1.0 - e / 2.0); // 2^-53 − 2^-106
    assert_eq!(add64(Rounding::Rn, 1.0, above), 1.0 + e);
    assert_eq!(add64(Rounding::Rn, 1.0, below), 1.0);
    assert_eq!(add64(Rounding::Rn, -1.0, -above), -1.0 - e);
    assert_eq!(add64(Rounding::Rp, 1.0, tiny), 1.0 + e);
    assert_eq!(add64(Rounding::Rm, 1.0, -tiny), 1.0 - e / 2.0);
    assert_eq!(add64(Rounding::Rz, 1.0, -tiny), 1.0 - e / 2.0);
    assert_eq!(add64(Rounding::Rn, 1.0, -tiny), 1.0);
    // Exact cancellation: +0, or −0 rounding toward −∞.
    assert_eq!(add64(Rounding::Rn, 1.5, -1.5).to_bits(), 0);
    assert_eq!(
        add64(Rounding::Rm, 1.5, -1.5).to_bits(),
        (-0.0f64).to_bits()
    );
    assert_eq!(
        add64(Rounding::Rm, 0.0, -0.0).to_bits(),
        (-0.0f64).to_bits()
    );
    assert_eq!(
        add64(Rounding::Rp, -0.0, -0.0).to_bits(),
        (-0.0f64).to_bits()
    );
    assert_eq!(add64(Rounding::Rm, 0.0, 0.0).to_bits(), 0);
    // Overflow by direction.
    assert_eq!(add64(Rounding::Rn, f64::MAX, f64::MAX), f64::INFINITY);
    assert_eq!(add64(Rounding::Rz, f64::MAX, f64::MAX), f64::MAX);
    assert_eq!(add64(Rounding::Rm, f64::MAX, f64::MAX), f64::MAX);
    assert_eq!(add64(Rounding::Rp, f64::MAX, 1.0), f64::INFINITY);
    assert_eq!(add64(Rounding::Rm, -f64::MAX, -1.0), f64::NEG_INFINITY);
    assert_eq!(add64(Rounding::Rz, -f64::MAX, -f64::MAX), -f64::MAX);
}

#[test]
fn ties_f32() {
    let e = f32::EPSILON;
    let h = e / 2.0;
    assert_eq!(add32(Rounding::Rn, 1.0, h), 1.0);
    assert_eq!(add32(Rounding::Rp, 1.0, h), 1.0 + e);
    assert_eq!(add32(Rounding::Rn, 1.0 + e, h), 1.0 + 2.0 * e);
    assert_eq!(add32(Rounding::Rm, -1.0, -h), -1.0 - e);
    // (1 + 2^-12)^2 = 1 + 2^-11 + 2^-24: exactly halfway; the even neighbour is 1 + 2^-11.
    let a = 1.0 + 2f32.powi(-12);
    let lo = 1.0 + 2f32.powi(-11);
    assert_eq!(mul32(Rounding::Rn, a, a), lo);
    assert_eq!(mul32(Rounding::Rz, a, a), lo);
    assert_eq!(mul32(Rounding::Rm, a, a), lo);
    assert_eq!(mul32(Rounding::Rp, a, a), lo + e);
    assert_eq!(mul32(Rounding::Rm, -a, a), -(lo + e));
    assert_eq!(mul32(Rounding::Rp, -a, a), -lo);
    // Subnormal results: 2^-149 · 0.5 is a tie between 0 and 2^-149 (even: 0).
    let min = f32::from_bits(1);
    assert_eq!(mul32(Rounding::Rn, min, 0.5).to_bits(), 0);
    assert_eq!(mul32(Rounding::Rp, min, 0.5).to_bits(), 1);
    assert_eq!(mul32(Rounding::Rm, -min, 0.5).to_bits(), 0x8000_0001);
    assert_eq!(mul32(Rounding::Rz, -min, 0.5).to_bits(), 0x8000_0000);
    assert_eq!(mul32(Rounding::Rn, min, 0.75).to_bits(), 1);
    // 3·2^-149 · 0.5 = 1.5·2^-149: tie, the even neighbour is 2·2^-149.
    assert_eq!(mul32(Rounding::Rn, f32::from_bits(3), 0.5).to_bits(), 2);
}

#[test]
fn fma_directed_crafted() {
    let m = |r| mods(r);
    // fma(1+2^-52, 1−2^-52, −1) = −2^-104 exactly (the product rounds to 1 in a plain mul).
    let a = 1.0 + f64::EPSILON;
    let b = 1.0 - f64::EPSILON;
    for r in [Rounding::Rn, Rounding::Rz, Rounding::Rm, Rounding::Rp] {
        let got = f64::from_bits(float_fma(
            Ty::F64,
            &m(r),
            a.to_bits(),
            b.to_bits(),
            (-1.0f64).to_bits(),
        ));
        assert_eq!(got, -(2f64.powi(-104)), "{r:?}");
    }
    // fma(1+2^-52, 1+2^-52, 0) = 1 + 2^-51 + 2^-104: above the representable 1 + 2^-51.
    let x = a.to_bits();
    assert_eq!(
        f64::from_bits(float_fma(Ty::F64, &m(Rounding::Rp), x, x, 0)),
        1.0 + 3.0 * f64::EPSILON
    );
    assert_eq!(
        f64::from_bits(float_fma(Ty::F64, &m(Rounding::Rz), x, x, 0)),
        1.0 + 2.0 * f64::EPSILON
    );
    // The same product plus −(1 + 2^-51): exactly 2^-104, in every direction.
    let c = (-(1.0 + 2.0 * f64::EPSILON)).to_bits();
    assert_eq!(
        f64::from_bits(float_fma(Ty::F64, &m(Rounding::Rm), x, x, c)),
        2f64.powi(-104)
    );
    // f32: fma(a, a, −lo) where a·a is the tie above: exactly 2^-24.
    let a32 = (1.0 + 2f32.powi(-12)).to_bits() as u64;
    let lo = (-(1.0 + 2f32.powi(-11))).to_bits() as u64;
    assert_eq!(
        f32::from_bits(float_fma(Ty::F32, &m(Rounding::Rz), a32, a32, lo) as u32),
        2f32.powi(-24)
    );
}

#[test]
fn div_sqrt_directed_crafted() {
    let m = |r| mods(r);
    let q = |r, a: f64, b: f64| {
        f64::from_bits(float_binary(
            Op::FDiv,
            Ty::F64,
            &m(r),
            a.to_bits(),
            b.to_bits(),
        ))
    };
    // 1/3 = 0x3FD5555555555555 (rn, below), so rp is one ulp up.
    assert_eq!(q(Rounding::Rn, 1.0, 3.0).to_bits(), 0x3FD5_5555_5555_5555);
    assert_eq!(q(Rounding::Rz, 1.0, 3.0).to_bits(), 0x3FD5_5555_5555_5555);
    assert_eq!(q(Rounding::Rp, 1.0, 3.0).to_bits(), 0x3FD5_5555_5555_5556);
    assert_eq!(q(Rounding::Rm, -1.0, 3.0).to_bits(), 0xBFD5_5555_5555_5556);
    // 2/3 = 0x3FE5555555555555 + 1/3 ulp.
    assert_eq!(q(Rounding::Rn, 2.0, 3.0).to_bits(), 0x3FE5_5555_5555_5555);
    assert_eq!(q(Rounding::Rp, 2.0, 3.0).to_bits(), 0x3FE5_5555_5555_5556);
    // 5/3 = 0x3FFAAAAAAAAAAAAA + 2/3 ulp: rn rounds up.
    assert_eq!(q(Rounding::Rn, 5.0, 3.0).to_bits(), 0x3FFA_AAAA_AAAA_AAAB);
    assert_eq!(q(Rounding::Rz, 5.0, 3.0).to_bits(), 0x3FFA_AAAA_AAAA_AAAA);
    // Exact quotients are exact in every direction.
    for r in [Rounding::Rz, Rounding::Rm, Rounding::Rp] {
        assert_eq!(q(r, 1.0, 4.0), 0.25);
        assert_eq!(q(r, -9.0, 3.0), -3.0);
    }
    let s = |r, a: f64| f64::from_bits(float_unary(Op::FSqrt, Ty::F64, &m(r), a.to_bits()));
    // √2 rounds to nearest as 0x3FF6A09E667F3BCD, which is above the exact value.
    assert_eq!(s(Rounding::Rn, 2.0).to_bits(), 0x3FF6_A09E_667F_3BCD);
    assert_eq!(s(Rounding::Rm, 2.0).to_bits(), 0x3FF6_A09E_667F_3BCC);
    assert_eq!(s(Rounding::Rz, 2.0).to_bits(), 0x3FF6_A09E_667F_3BCC);
    assert_eq!(s(Rounding::Rp, 2.0).to_bits(), 0x3FF6_A09E_667F_3BCD);
    assert_eq!(s(Rounding::Rp, 4.0), 2.0);
    assert_eq!(s(Rounding::Rz, f64::from_bits(1)), 2f64.powi(-537));
}

proptest! {
    #[test]
    fn isqrt_is_floor_sqrt(n in prop_oneof![any::<u128>(), any::<u64>().prop_map(|x| x as u128), (any::<u64>(), -2i64..3).prop_map(|(x, d)| ((x as u128) * (x as u128)).wrapping_add(d as u128))]) {
        let (s, exact) = warpsim_core::alu::fcore::isqrt(n);
        prop_assert!(s.checked_mul(s).is_some_and(|sq| sq <= n));
        prop_assert!(!matches!((s + 1).checked_mul(s + 1), Some(sq) if sq <= n));
        prop_assert_eq!(exact, s * s == n);
    }
}
