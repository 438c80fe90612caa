//! f16 and bf16: arithmetic and conversions in every rounding direction, checked against a
//! table-driven reference (all 2^16 encodings decoded independently and searched).

use proptest::prelude::*;
use std::cmp::Ordering;
use warpsim_core::alu::{compare, cvt, float_binary, float_fma, float_unary};
use warpsim_core::ir::{CmpOp, Mods, Op, Rounding, Ty};

#[derive(Clone, Copy, Debug, PartialEq)]
struct H {
    exp: u32,
    frac: u32,
    ty: Ty,
}
const F16: H = H {
    exp: 5,
    frac: 10,
    ty: Ty::F16,
};
const BF16: H = H {
    exp: 8,
    frac: 7,
    ty: Ty::BF16,
};

impl H {
    fn bias(self) -> i32 {
        (1 << (self.exp - 1)) - 1
    }
    fn inf(self) -> u16 {
        (((1u32 << self.exp) - 1) << self.frac) as u16
    }
    /// Independent decoding of an encoding into an f64 (exact).
    fn decode(self, x: u16) -> f64 {
        let e = ((x as u32) >> self.frac) & ((1 << self.exp) - 1);
        let f = (x as u32) & ((1 << self.frac) - 1);
        let mag = if e == (1 << self.exp) - 1 {
            if f == 0 {
                f64::INFINITY
            } else {
                f64::NAN
            }
        } else if e == 0 {
            f as f64 * 2f64.powi(1 - self.bias() - self.frac as i32)
        } else {
            (f + (1 << self.frac)) as f64 * 2f64.powi(e as i32 - self.bias() - self.frac as i32)
        };
        if x & 0x8000 != 0 {
            -mag
        } else {
            mag
        }
    }
    /// The positive value of encoding p, where the encoding of +∞ stands for 2^(emax+1) (the
    /// virtual next value used for round-to-nearest at the overflow threshold).
    fn value_or_virtual(self, p: u16) -> f64 {
        if p == self.inf() {
            2f64.powi(self.bias() + 1)
        } else {
            self.decode(p)
        }
    }
    /// Expected encoding of an exact value V known through `cmp(t)` = V.cmp(t) (for finite t)
    /// and its sign `neg`, V nonzero and finite, rounded in direction `dir` ('n','z','m','p').
    fn expect(self, neg: bool, cmp: &dyn Fn(f64) -> Ordering, dir: char) -> u16 {
        // |V| compared with t ≥ 0.
        let acmp = |t: f64| if neg { cmp(-t).reverse() } else { cmp(t) };
        // Largest positive encoding lo < inf with value ≤ |V| (binary search; values increase).
        let (mut lo, mut hi) = (0u16, self.inf()); // invariant: value(lo) ≤ |V|, hi > lo
        while hi - lo > 1 {
            let mid = lo + (hi - lo) / 2;
            if acmp(self.decode(mid)) != Ordering::Less {
                lo = mid;
            } else {
                hi = mid;
            }
        }
        let sign = if neg { 0x8000 } else { 0 };
        if acmp(self.decode(lo)) == Ordering::Equal {
            return sign | lo;
        }
        let away = lo + 1; // may be the encoding of ∞
        let mag = match dir {
            'z' => lo,
            'p' => {
                if neg {
                    lo
                } else {
                    away
                }
            }
            'm' => {
                if neg {
                    away
                } else {
                    lo
                }
            }
            _ => {
                let mid = (self.decode(lo) + self.value_or_virtual(away)) / 2.0;
                match acmp(mid) {
                    Ordering::Less => lo,
                    Ordering::Greater => away,
                    Ordering::Equal => {
                        if lo & 1 == 0 {
                            lo
                        } else {
                            away
                        }
                    }
                }
            }
        };
        sign | mag
    }
}

const DIRS: [(Rounding, char); 4] = [
    (Rounding::Rn, 'n'),
    (Rounding::Rz, 'z'),
    (Rounding::Rm, 'm'),
    (Rounding::Rp, 'p'),
];

fn mods(r: Rounding) -> Mods {
    Mods {
        rounding: r,
        ..Mods::default()
    }
}

fn two_sum_exact(a: f64, b: f64) -> Option<f64> {
    let s = a + b;
    let bb = s - a;
    let err = (a - (s - bb)) + (b - bb);
    if err == 0.0 && s.is_finite() {
        Some(s)
    } else {
        None
    }
}

/// Checks a result for an exact value `v` (f64) that may be zero, infinite or NaN.
fn check_exact(h: H, v: f64, got: u64, dir: char, what: &str) -> Result<(), TestCaseError> {
    if v.is_nan() {
        prop_assert_eq!(got, 0x7FFF, "{} NaN", what);
    } else if v.is_infinite() {
        prop_assert_eq!(
            got,
            (h.inf() | if v < 0.0 { 0x8000 } else { 0 }) as u64,
            "{}",
            what
        );
    } else if v == 0.0 {
        prop_assert_eq!(got & 0x7FFF, 0, "{} zero", what);
    } else {
        let want = h.expect(v < 0.0, &|t| v.partial_cmp(&t).unwrap(), dir);
        prop_assert_eq!(got, want as u64, "{} v={:e} dir={}", what, v, dir);
    }
    Ok(())
}

fn arith(h: H, a: u16, b: u16, c: u16) -> Result<(), TestCaseError> {
    let (x, y, z) = (h.decode(a), h.decode(b), h.decode(c));
    for (r, d) in DIRS {
        let md = mods(r);
        let (ea, eb, ec) = (a as u64, b as u64, c as u64);
        if let Some(v) = two_sum_exact(x, y).or(if x.is_finite() && y.is_finite() {
            None
        } else {
            Some(x + y)
        }) {
            check_exact(h, v, float_binary(Op::FAdd, h.ty, &md, ea, eb), d, "add")?;
        }
        let p = x * y; // exact: ≤ 22-bit significands
        check_exact(h, p, float_binary(Op::FMul, h.ty, &md, ea, eb), d, "mul")?;
        if p.is_finite() && z.is_finite() {
            if let Some(v) = two_sum_exact(p, z) {
                check_exact(h, v, float_fma(h.ty, &md, ea, eb, ec), d, "fma")?;
            }
        }
        // Division: V = x/y compared with t via x vs t·y (t·y is exact).
        if x.is_finite() && y.is_finite() && x != 0.0 && y != 0.0 {
            let neg = (x < 0.0) != (y < 0.0);
            let cmp = |t: f64| {
                let o = x.partial_cmp(&(t * y)).unwrap();
                if y < 0.0 {
                    o.reverse()
                } else {
                    o
                }
            };
            let want = h.expect(neg, &cmp, d);
            prop_assert_eq!(
                float_binary(Op::FDiv, h.ty, &md, ea, eb),
                want as u64,
                "div {} / {} {}",
                x,
                y,
                d
            );
        }
        // sqrt: V = √|x| compared with t ≥ 0 via |x| vs t².
        let ax = x.abs();
        if ax.is_finite() && ax != 0.0 {
            let cmp = |t: f64| {
                if t < 0.0 {
                    Ordering::Greater
                } else {
                    ax.partial_cmp(&(t * t)).unwrap()
                }
            };
            let want = h.expect(false, &cmp, d);
            prop_assert_eq!(
                float_unary(Op::FSqrt, h.ty, &md, a as u64 & 0x7FFF),
                want as u64,
                "sqrt {} {}",
                ax,
                d
            );
        }
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(3000))]

    #[test]
    fn f16_arith(a in any::<u16>(), b in any::<u16>(), c in any::<u16>()) { arith(F16, a, b, c)?; }
    #[test]
    fn bf16_arith(a in any::<u16>(), b in any::<u16>(), c in any::<u16>()) { arith(BF16, a, b, c)?; }

    /// Close exponents (ties and cancellation are frequent).
    #[test]
    fn f16_arith_close(a in any::<u16>(), d in -40i32..40, c in any::<u16>()) {
        let b = (a as i32 + d * 61).clamp(0, 0xFFFF) as u16 ^ 0x8000;
        arith(F16, a, b, c)?;
    }

    #[test]
    fn to_16_from_f32_f64(x in prop_oneof![
        any::<u64>().prop_map(f64::from_bits),
        any::<u32>().prop_map(|b| f32::from_bits(b) as f64),
        (-70000.0f64..70000.0),
        (any::<u32>(), -30i32..10).prop_map(|(m, e)| m as f64 * 2f64.powi(e - 20)),
        // Exact ties for f16 (11-bit significand + a half) and bf16 (8-bit + a half).
        (1024u32..2048, -40i32..6, any::<bool>()).prop_map(|(m, e, s)| (2 * m + 1) as f64 * 2f64.powi(e) * if s { -1.0 } else { 1.0 }),
        (128u32..256, -140i32..120, any::<bool>()).prop_map(|(m, e, s)| (2 * m + 1) as f64 * 2f64.powi(e) * if s { -1.0 } else { 1.0 }),
    ]) {
        for h in [F16, BF16] {
            for (r, d) in DIRS {
                check_exact(h, x, cvt(h.ty, Ty::F64, r, false, false, x.to_bits()), d, "cvt f64")?;
                let xs = x as f32;
                if xs as f64 == x || x.is_nan() {
                    check_exact(h, x, cvt(h.ty, Ty::F32, r, false, false, xs.to_bits() as u64), d, "cvt f32")?;
                }
            }
        }
    }

    #[test]
    fn int_to_16(v in -(1i64 << 40)..(1i64 << 40)) {
        for h in [F16, BF16] {
            for (r, d) in DIRS {
                check_exact(h, v as f64, cvt(h.ty, Ty::S64, r, false, false, v as u64), d, "cvt s64")?;
            }
        }
    }

    #[test]
    fn from_16_to_int(a in any::<u16>()) {
        for h in [F16, BF16] {
            let x = h.decode(a);
            for (r, f) in [(Rounding::Rni, f64::round_ties_even as fn(f64) -> f64), (Rounding::Rzi, f64::trunc),
                           (Rounding::Rmi, f64::floor), (Rounding::Rpi, f64::ceil)] {
                let want = f(x) as i32; // saturating, NaN → 0
                prop_assert_eq!(cvt(Ty::S32, h.ty, r, false, false, a as u64), want as u32 as u64);
                let want = f(x) as u16;
                prop_assert_eq!(cvt(Ty::U16, h.ty, r, false, false, a as u64), want as u64);
            }
        }
    }

    #[test]
    fn compare_16(a in any::<u16>(), b in any::<u16>()) {
        for h in [F16, BF16] {
            let (x, y) = (h.decode(a), h.decode(b));
            prop_assert_eq!(compare(CmpOp::Lt, h.ty, a as u64, b as u64), x < y);
            prop_assert_eq!(compare(CmpOp::Equ, h.ty, a as u64, b as u64), x == y || x.is_nan() || y.is_nan());
            let mn = float_binary(Op::FMin, h.ty, &Mods::default(), a as u64, b as u64);
            if !x.is_nan() && !y.is_nan() && x != y {
                prop_assert_eq!(h.decode(mn as u16), x.min(y));
            }
        }
    }
}

#[test]
fn exhaustive_16_to_32_and_back() {
    for h in [F16, BF16] {
        for a in 0..=u16::MAX {
            let x = h.decode(a);
            let f = cvt(Ty::F32, h.ty, Rounding::None, false, false, a as u64);
            let d = cvt(Ty::F64, h.ty, Rounding::None, false, false, a as u64);
            if x.is_nan() {
                assert_eq!(f, 0x7FFF_FFFF, "{:?} {a:#x}", h.ty);
                assert!(f64::from_bits(d).is_nan());
                assert_eq!(
                    cvt(h.ty, h.ty, Rounding::Rni, false, false, a as u64),
                    0x7FFF
                );
                continue;
            }
            assert_eq!(f32::from_bits(f as u32) as f64, x, "{:?} {a:#x}", h.ty);
            assert_eq!(f64::from_bits(d), x);
            assert_eq!(f >> 31, (a >> 15) as u64, "sign of zero");
            // Back to 16 bits is exact in every direction.
            for r in [Rounding::Rn, Rounding::Rz, Rounding::Rm, Rounding::Rp] {
                assert_eq!(
                    cvt(h.ty, Ty::F32, r, false, false, f),
                    a as u64,
                    "{:?} {a:#x} {r:?}",
                    h.ty
                );
            }
            // Round to integral in the 16-bit format.
            let ri = h.decode(cvt(h.ty, h.ty, Rounding::Rmi, false, false, a as u64) as u16);
            assert_eq!(ri, x.floor(), "{:?} {a:#x}", h.ty);
        }
    }
}

#[test]
fn half_crafted() {
    // f32 → f16 ties: 1 + 2^-11 is halfway between 1 and 1 + 2^-10.
    let t = (1.0f32 + 2f32.powi(-11)).to_bits() as u64;
    assert_eq!(cvt(Ty::F16, Ty::F32, Rounding::Rn, false, false, t), 0x3C00);
    assert_eq!(cvt(Ty::F16, Ty::F32, Rounding::Rp, false, false, t), 0x3C01);
    // Overflow: 65520 rounds to ∞ (rn), 65504 = max (rz).
    let big = 65520.0f32.to_bits() as u64;
    assert_eq!(
        cvt(Ty::F16, Ty::F32, Rounding::Rn, false, false, big),
        0x7C00
    );
    assert_eq!(
        cvt(Ty::F16, Ty::F32, Rounding::Rz, false, false, big),
        0x7BFF
    );
    assert_eq!(
        cvt(
            Ty::F16,
            Ty::F32,
            Rounding::Rn,
            false,
            false,
            65519.0f32.to_bits() as u64
        ),
        0x7BFF
    );
    // Subnormal f16 results.
    assert_eq!(
        cvt(
            Ty::F16,
            Ty::F32,
            Rounding::Rn,
            false,
            false,
            2f32.powi(-24).to_bits() as u64
        ),
        0x0001
    );
    assert_eq!(
        cvt(
            Ty::F16,
            Ty::F32,
            Rounding::Rn,
            false,
            false,
            2f32.powi(-25).to_bits() as u64
        ),
        0x0000
    );
    assert_eq!(
        cvt(
            Ty::F16,
            Ty::F32,
            Rounding::Rp,
            false,
            false,
            2f32.powi(-40).to_bits() as u64
        ),
        0x0001
    );
    // bf16 from f32: round to nearest even on the dropped 16 bits.
    assert_eq!(
        cvt(Ty::BF16, Ty::F32, Rounding::Rn, false, false, 0x3F80_8000),
        0x3F80
    );
    assert_eq!(
        cvt(Ty::BF16, Ty::F32, Rounding::Rn, false, false, 0x3F81_8000),
        0x3F82
    );
    assert_eq!(
        cvt(Ty::BF16, Ty::F32, Rounding::Rz, false, false, 0x3F81_FFFF),
        0x3F81
    );
    // f16 arithmetic: 1 + 2^-11 (tie) → 1; ftz on f16 subnormals.
    let m = Mods::default();
    assert_eq!(float_binary(Op::FAdd, Ty::F16, &m, 0x3C00, 0x1000), 0x3C00);
    let ftz = Mods {
        ftz: true,
        ..Mods::default()
    };
    assert_eq!(float_binary(Op::FAdd, Ty::F16, &ftz, 0x0001, 0x0001), 0);
    assert_eq!(float_binary(Op::FAdd, Ty::F16, &m, 0x0001, 0x0001), 2);
    assert_eq!(float_binary(Op::FMax, Ty::F16, &m, 0, 0x7E00), 0); // NaN ignored
    assert_eq!(float_binary(Op::FMin, Ty::F16, &m, 0x7E00, 0x57B0), 0x57B0);
}
