//! Carry chains (add.cc/addc/sub.cc/subc/mad.cc/madc): multi-precision arithmetic against u128.

use proptest::prelude::*;
use warpsim_core::alu::carry_op;
use warpsim_core::ir::{Mods, Op, Ty};

fn cc() -> Mods {
    Mods {
        cc: true,
        ..Mods::default()
    }
}
fn cc_hi() -> Mods {
    Mods {
        cc: true,
        hi: true,
        ..Mods::default()
    }
}
fn no_cc() -> Mods {
    Mods::default()
}

/// Multi-word a + b with add.cc / addc.cc / ... / addc: (words, final carry via addc 0, 0).
fn add_words(ty: Ty, a: &[u64], b: &[u64]) -> (Vec<u64>, u64) {
    let mut cf = false;
    let mut out = Vec::new();
    for i in 0..a.len() {
        let op = if i == 0 { Op::IAdd } else { Op::IAddC };
        let (r, c) = carry_op(op, ty, &cc(), a[i], b[i], 0, cf);
        out.push(r);
        cf = c;
    }
    let (carry, _) = carry_op(Op::IAddC, ty, &no_cc(), 0, 0, 0, cf);
    (out, carry)
}

/// Multi-word a − b with sub.cc / subc.cc / ... and the borrow as `subc 0, 0` (0 or all ones).
fn sub_words(ty: Ty, a: &[u64], b: &[u64]) -> (Vec<u64>, u64) {
    let mut cf = false;
    let mut out = Vec::new();
    for i in 0..a.len() {
        let op = if i == 0 { Op::ISub } else { Op::ISubC };
        let (r, c) = carry_op(op, ty, &cc(), a[i], b[i], 0, cf);
        out.push(r);
        cf = c;
    }
    let (borrow, _) = carry_op(Op::ISubC, ty, &no_cc(), 0, 0, 0, cf);
    (out, borrow)
}

fn split32(x: u128) -> Vec<u64> {
    (0..4)
        .map(|i| ((x >> (32 * i)) as u64) & 0xFFFF_FFFF)
        .collect()
}
fn join32(w: &[u64]) -> u128 {
    w.iter()
        .enumerate()
        .map(|(i, &x)| (x as u128) << (32 * i))
        .sum()
}
fn split64(x: u128) -> Vec<u64> {
    vec![x as u64, (x >> 64) as u64]
}
fn join64(w: &[u64]) -> u128 {
    w[0] as u128 | ((w[1] as u128) << 64)
}

/// Schoolbook product of n-word numbers with mad.lo.cc/madc.lo.cc and mad.hi.cc/madc.hi.cc,
/// the way PTX big-number code writes it. Returns 2n words.
fn mul_words(ty: Ty, a: &[u64], b: &[u64]) -> Vec<u64> {
    let n = a.len();
    let mut r = vec![0u64; 2 * n];
    for i in 0..n {
        // Low halves into r[i .. i+n], carry into r[i+n].
        let mut cf = false;
        for j in 0..n {
            let op = if j == 0 { Op::IMadLo } else { Op::IMadC };
            let (v, c) = carry_op(op, ty, &cc(), a[j], b[i], r[i + j], cf);
            r[i + j] = v;
            cf = c;
        }
        let (v, _) = carry_op(Op::IAddC, ty, &no_cc(), r[i + n], 0, 0, cf);
        r[i + n] = v;
        // High halves into r[i+1 .. i+n+1].
        let mut cf = false;
        for j in 0..n {
            let (op, md) = if j == 0 {
                (Op::IMadHi, cc())
            } else {
                (Op::IMadC, cc_hi())
            };
            let (v, c) = carry_op(op, ty, &md, a[j], b[i], r[i + 1 + j], cf);
            r[i + 1 + j] = v;
            cf = c;
        }
        if i + n + 1 < 2 * n {
            let (v, _) = carry_op(Op::IAddC, ty, &no_cc(), r[i + n + 1], 0, 0, cf);
            r[i + n + 1] = v;
        }
    }
    r
}

/// High 128 bits of a 128×128-bit product, from 64-bit partial products.
fn mulhi128(a: u128, b: u128) -> u128 {
    let (a0, a1) = (a as u64 as u128, a >> 64);
    let (b0, b1) = (b as u64 as u128, b >> 64);
    let p00 = a0 * b0;
    let p01 = a0 * b1;
    let p10 = a1 * b0;
    let p11 = a1 * b1;
    let mid = (p00 >> 64) + (p01 as u64 as u128) + (p10 as u64 as u128);
    p11 + (p01 >> 64) + (p10 >> 64) + (mid >> 64)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(3000))]

    #[test]
    fn multiword_add_u32(a in any::<u128>(), b in any::<u128>()) {
        let (w, carry) = add_words(Ty::U32, &split32(a), &split32(b));
        let (sum, ovf) = a.overflowing_add(b);
        prop_assert_eq!(join32(&w), sum);
        prop_assert_eq!(carry, ovf as u64);
        // Same with s32 (carries are unsigned whatever the type).
        let (w, carry) = add_words(Ty::S32, &split32(a), &split32(b));
        prop_assert_eq!(join32(&w), sum);
        prop_assert_eq!(carry, ovf as u64);
    }

    #[test]
    fn multiword_add_u64(a in any::<u128>(), b in any::<u128>()) {
        let (w, carry) = add_words(Ty::U64, &split64(a), &split64(b));
        let (sum, ovf) = a.overflowing_add(b);
        prop_assert_eq!(join64(&w), sum);
        prop_assert_eq!(carry, ovf as u64);
    }

    #[test]
    fn multiword_sub_u32(a in any::<u128>(), b in any::<u128>()) {
        let (w, borrow) = sub_words(Ty::U32, &split32(a), &split32(b));
        let (diff, ovf) = a.overflowing_sub(b);
        prop_assert_eq!(join32(&w), diff);
        prop_assert_eq!(borrow, if ovf { 0xFFFF_FFFF } else { 0 });
        let (w, _) = sub_words(Ty::S32, &split32(a), &split32(b));
        prop_assert_eq!(join32(&w), diff);
    }

    #[test]
    fn multiword_sub_u64(a in any::<u128>(), b in any::<u128>()) {
        let (w, borrow) = sub_words(Ty::U64, &split64(a), &split64(b));
        let (diff, ovf) = a.overflowing_sub(b);
        prop_assert_eq!(join64(&w), diff);
        prop_assert_eq!(borrow, if ovf { u64::MAX } else { 0 });
    }

    /// Sparse operands hit long carry/borrow ripples.
    #[test]
    fn ripple(k in 0u32..128, neg in any::<bool>()) {
        let a = if neg { u128::MAX << k } else { (1u128 << k).wrapping_sub(1) };
        let (w, carry) = add_words(Ty::U32, &split32(a), &split32(1));
        prop_assert_eq!(join32(&w), a.wrapping_add(1));
        prop_assert_eq!(carry, a.checked_add(1).is_none() as u64);
        let (w, _) = sub_words(Ty::U32, &split32(a), &split32(u128::MAX));
        prop_assert_eq!(join32(&w), a.wrapping_sub(u128::MAX));
    }

    #[test]
    fn multiword_mul_u32(a in any::<u64>(), b in any::<u64>()) {
        let aw = vec![a & 0xFFFF_FFFF, a >> 32];
        let bw = vec![b & 0xFFFF_FFFF, b >> 32];
        let r = mul_words(Ty::U32, &aw, &bw);
        prop_assert_eq!(join32(&r), a as u128 * b as u128);
    }

    #[test]
    fn multiword_mul_u32_4x4(a in any::<u128>(), b in any::<u128>()) {
        let r = mul_words(Ty::U32, &split32(a), &split32(b));
        prop_assert_eq!(join32(&r[..4]), a.wrapping_mul(b));
        prop_assert_eq!(join32(&r[4..]), mulhi128(a, b));
    }

    #[test]
    fn multiword_mul_u64(a in any::<u128>(), b in any::<u128>()) {
        let r = mul_words(Ty::U64, &split64(a), &split64(b));
        prop_assert_eq!(join64(&r[..2]), a.wrapping_mul(b));
        prop_assert_eq!(join64(&r[2..]), mulhi128(a, b));
    }

    /// Single-instruction semantics against u128 arithmetic.
    #[test]
    fn single_ops(a in any::<u64>(), b in any::<u64>(), c in any::<u64>(), cf in any::<bool>()) {
        let m32 = 0xFFFF_FFFFu64;
        let (a32, b32, c32) = (a & m32, b & m32, c & m32);
        let s = a32 + b32 + cf as u64;
        prop_assert_eq!(carry_op(Op::IAddC, Ty::U32, &cc(), a, b, 0, cf), (s & m32, s >> 32 != 0));
        // subc = a + ~b + CF; CF out = carry of that sum (1 ⇔ no borrow).
        let d = a32 + (!b32 & m32) + cf as u64;
        prop_assert_eq!(carry_op(Op::ISubC, Ty::U32, &cc(), a, b, 0, cf), (d & m32, d >> 32 != 0));
        prop_assert_eq!(carry_op(Op::ISub, Ty::U32, &cc(), a, b, 0, cf), (a32.wrapping_sub(b32) & m32, a32 >= b32));
        // madc.lo / madc.hi (u32 and s32).
        let p = a32 * b32;
        let lo = (p & m32) + c32 + cf as u64;
        prop_assert_eq!(carry_op(Op::IMadC, Ty::U32, &cc(), a, b, c, cf), (lo & m32, lo >> 32 != 0));
        let hi = (p >> 32) + c32 + cf as u64;
        prop_assert_eq!(carry_op(Op::IMadC, Ty::U32, &cc_hi(), a, b, c, cf), (hi & m32, hi >> 32 != 0));
        let ps = ((a32 as u32 as i32 as i64) * (b32 as u32 as i32 as i64)) as u64;
        let his = ((ps >> 32) & m32) + c32 + cf as u64;
        prop_assert_eq!(carry_op(Op::IMadC, Ty::S32, &cc_hi(), a, b, c, cf), (his & m32, his >> 32 != 0));
        // Without .cc the flag is left alone.
        prop_assert_eq!(carry_op(Op::IAddC, Ty::U64, &no_cc(), a, b, 0, cf).1, cf);
        prop_assert_eq!(carry_op(Op::IMadC, Ty::U64, &Mods::default(), a, b, c, cf).0,
            a.wrapping_mul(b).wrapping_add(c).wrapping_add(cf as u64));
        // 64-bit mad.hi.cc.
        let p64 = a as u128 * b as u128;
        let h = (p64 >> 64) + c as u128;
        prop_assert_eq!(carry_op(Op::IMadHi, Ty::U64, &cc(), a, b, c, cf), (h as u64, h >> 64 != 0));
    }
}

#[test]
fn mixed_add_and_sub_carries() {
    // Data of ZLUDA's carry_set_all test (hardware results): after each flag-setting op,
    // `addc x, 0, 0` and `subc y, 0, 0` read the flag.
    let read = |cf: bool| {
        let (x, _) = carry_op(Op::IAddC, Ty::U32, &no_cc(), 0, 0, 0, cf);
        let (y, _) = carry_op(Op::ISubC, Ty::U32, &no_cc(), 0, 0, 0, cf);
        (x, y)
    };
    type Case = (Op, u64, u64, u64, (u64, u64));
    let cases: [Case; 6] = [
        (Op::ISub, 0, 0, 0, (1, 0)),
        (Op::ISub, 0, 1, 0, (0, 0xFFFF_FFFF)),
        (Op::IAdd, 0, 0, 0, (0, 0xFFFF_FFFF)),
        (Op::IAdd, 0xFFFF_FFFF, 0xFFFF_FFFF, 0, (1, 0)),
        (Op::IMadLo, 0, 0, 0, (0, 0xFFFF_FFFF)),
        (Op::IMadLo, 1, 0xFFFF_FFFF, 0xFFFF_FFFF, (1, 0)),
    ];
    for (op, a, b, c, want) in cases {
        let (_, cf) = carry_op(op, Ty::U32, &cc(), a, b, c, false);
        assert_eq!(read(cf), want, "{op:?} {a:#x} {b:#x} {c:#x}");
        let (_, cf) = carry_op(op, Ty::U32, &cc(), a, b, c, true);
        assert_eq!(read(cf), want, "{op:?} (flag set before)");
    }
    // subc.cc after add.cc: 0 − 0 − (1 − CF) with CF = 0 borrows (CF becomes 0) …
    let (_, cf) = carry_op(Op::IAdd, Ty::U32, &cc(), 0, 0, 0, true);
    let (r, cf) = carry_op(Op::ISubC, Ty::U32, &cc(), 0, 0, 0, cf);
    assert_eq!((r, cf), (0xFFFF_FFFF, false));
    // ZLUDA carry_mixed: sub.cc 0 − 1 (borrow) then subc 2, 0 → 1; then addc 1, 0 → 1.
    let (_, cf) = carry_op(Op::ISub, Ty::S32, &cc(), 0, 1, 0, false);
    assert_eq!(carry_op(Op::ISubC, Ty::S32, &no_cc(), 2, 0, 0, cf).0, 1);
    assert_eq!(carry_op(Op::IAddC, Ty::S32, &no_cc(), 1, 0, 0, cf).0, 1);
    // ZLUDA addc_cc / subc_cc chains.
    let (d1, cf) = carry_op(
        Op::IAdd,
        Ty::S32,
        &cc(),
        2_147_483_650,
        2_147_483_649,
        0,
        false,
    );
    let (d2, cf) = carry_op(Op::IAddC, Ty::S32, &cc(), d1, 4_294_967_294, 0, cf);
    let (d3, _) = carry_op(Op::IAddC, Ty::S32, &no_cc(), d2, 4_294_967_294, 0, cf);
    assert_eq!((d1, d2, d3), (3, 2, 1));
    let (d1, cf) = carry_op(
        Op::ISub,
        Ty::S32,
        &cc(),
        2_147_483_649,
        2_147_483_650,
        0,
        false,
    );
    let (d2, cf) = carry_op(Op::ISubC, Ty::S32, &cc(), d1, 4_294_967_294, 0, cf);
    let (d3, _) = carry_op(Op::ISubC, Ty::S32, &no_cc(), d2, 4_294_967_294, 0, cf);
    assert_eq!((d1, d2, d3), (4_294_967_295, 0, 2));
}

#[test]
fn non_carry_ops_pass_through() {
    let sat = Mods {
        sat: true,
        ..Mods::default()
    };
    assert_eq!(
        carry_op(Op::IAdd, Ty::S32, &sat, 0x7FFF_FFFF, 1, 0, true),
        (0x7FFF_FFFF, true)
    );
    assert_eq!(carry_op(Op::Xor, Ty::B32, &cc(), 6, 3, 0, true), (5, true));
}
