//! Exact-arithmetic oracle for the ALU float tests (also compiled standalone, with self-tests).
//!
//! `sign_of_sum` evaluates the sign of Σ ±x·y for finite f64s exactly, in big integers scaled by
//! 2^2148 (the weight of the smallest f64 product). From it, `directed` derives the correctly
//! rounded result in any direction of an operation whose exact value V is known only through
//! `sign(V − t)` for floats t, starting from the host's round-to-nearest result. It shares no
//! code with the ALU's rounding.

const LIMBS: usize = 72; // 4608 bits

#[derive(Clone)]
struct Big([u64; LIMBS]);

impl Big {
    fn zero() -> Big {
        Big([0; LIMBS])
    }
    /// self += v << shift
    fn add_shifted(&mut self, v: u128, shift: usize) {
        let limb = shift / 64;
        let bit = shift % 64;
        // v << bit spans up to three limbs: bits 0..63, 64..127, 128..191.
        let lo = (v << bit) as u64;
        let mid = ((v << bit) >> 64) as u64;
        let hi = if bit == 0 {
            0
        } else {
            (v >> (128 - bit)) as u64
        };
        let parts = [lo, mid, hi];
        let mut carry = 0u128;
        let mut i = limb;
        let mut k = 0;
        while i < LIMBS && (k < 3 || carry != 0) {
            let add = if k < 3 { parts[k] as u128 } else { 0 };
            let s = self.0[i] as u128 + add + carry;
            self.0[i] = s as u64;
            carry = s >> 64;
            i += 1;
            k += 1;
        }
    }
    fn cmp(&self, o: &Big) -> std::cmp::Ordering {
        for i in (0..LIMBS).rev() {
            match self.0[i].cmp(&o.0[i]) {
                std::cmp::Ordering::Equal => continue,
                x => return x,
            }
        }
        std::cmp::Ordering::Equal
    }
}

/// (sign, integer significand, exponent) with x = ±m · 2^e; e ≥ −1074.
fn decompose(x: f64) -> (bool, u64, i32) {
    let b = x.to_bits();
    let neg = b >> 63 == 1;
    let e = ((b >> 52) & 0x7FF) as i32;
    let f = b & ((1u64 << 52) - 1);
    if e == 0 {
        (neg, f, -1074)
    } else {
        (neg, f | (1u64 << 52), e - 1075)
    }
}

/// Exact sign (−1, 0, 1) of Σ (x_i · y_i, negated when the flag is set). All finite.
pub fn sign_of_sum(terms: &[(f64, f64, bool)]) -> i32 {
    let mut pos = Big::zero();
    let mut neg = Big::zero();
    for &(x, y, negate) in terms {
        assert!(x.is_finite() && y.is_finite());
        let (nx, mx, ex) = decompose(x);
        let (ny, my, ey) = decompose(y);
        let m = mx as u128 * my as u128;
        if m == 0 {
            continue;
        }
        let shift = (ex + ey + 2148) as usize;
        if nx ^ ny ^ negate {
            neg.add_shifted(m, shift);
        } else {
            pos.add_shifted(m, shift);
        }
    }
    match pos.cmp(&neg) {
        std::cmp::Ordering::Greater => 1,
        std::cmp::Ordering::Less => -1,
        std::cmp::Ordering::Equal => 0,
    }
}

/// A binary float format of the host: f32 or f64, handled through f64 values.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum F {
    S,
    D,
}

impl F {
    pub fn to_f64(self, bits: u64) -> f64 {
        match self {
            F::S => f32::from_bits(bits as u32) as f64,
            F::D => f64::from_bits(bits),
        }
    }
    pub fn sign_bit(self) -> u64 {
        match self {
            F::S => 1 << 31,
            F::D => 1 << 63,
        }
    }
    pub fn inf(self) -> u64 {
        match self {
            F::S => 0x7F80_0000,
            F::D => 0x7FF0_0000_0000_0000,
        }
    }
    /// The next representable value above `bits` (toward +∞).
    pub fn next_up(self, bits: u64) -> u64 {
        let s = self.sign_bit();
        if bits == s {
            1 // −0 → smallest positive subnormal
        } else if bits & s == 0 {
            if bits == self.inf() {
                bits
            } else {
                bits + 1
            }
        } else {
            bits - 1
        }
    }
    /// The next representable value below `bits` (toward −∞).
    pub fn next_down(self, bits: u64) -> u64 {
        let s = self.sign_bit();
        if bits == 0 {
            s | 1
        } else if bits & s != 0 {
            if bits == (s | self.inf()) {
                bits
            } else {
                bits + 1
            }
        } else {
            bits - 1
        }
    }
}

/// Rounding direction of the oracle.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Dir {
    N,
    Z,
    M,
    P,
}

/// The correctly rounded result in direction `dir` of an operation with exact value V, given
/// `rn` (the correctly rounded to-nearest result, from the host) and `sign_minus(t)` =
/// sign(V − t) for finite t. `cancel` says whether an exact zero V came from cancellation of a
/// sum (then −0 in direction M, +0 otherwise); exact-zero results are otherwise `rn`.
pub fn directed(f: F, dir: Dir, rn: u64, cancel: bool, sign_minus: impl Fn(f64) -> i32) -> u64 {
    if dir == Dir::N {
        return rn;
    }
    let s = f.sign_bit();
    let r = f.to_f64(rn);
    if r.is_infinite() {
        // Overflow (inputs are finite): V lies beyond the largest finite value.
        let neg = rn & s != 0;
        let to_inf = match dir {
            Dir::Z => false,
            Dir::P => !neg,
            Dir::M => neg,
            Dir::N => true,
        };
        return if to_inf {
            rn
        } else {
            f.next_down(rn & !s) | (rn & s)
        };
    }
    let sv = sign_minus(0.0);
    if sv == 0 {
        return if cancel && dir == Dir::M {
            s
        } else if cancel {
            0
        } else {
            rn
        };
    }
    let d = sign_minus(r);
    if d == 0 {
        return rn;
    }
    let down = || f.next_down(rn);
    let up = || f.next_up(rn);
    match dir {
        Dir::M => {
            if d < 0 {
                down()
            } else {
                rn
            }
        }
        Dir::P => {
            if d > 0 {
                up()
            } else {
                rn
            }
        }
        Dir::Z => {
            if sv > 0 && d < 0 {
                down()
            } else if sv < 0 && d > 0 {
                up()
            } else {
                rn
            }
        }
        Dir::N => rn,
    }
}

#[test]
fn oracle_sign_of_sum_basics() {
    assert_eq!(sign_of_sum(&[(1.0, 1.0, false), (1.0, 1.0, true)]), 0);
    assert_eq!(
        sign_of_sum(&[(1.0, 1.0, false), (f64::from_bits(1), 1.0, true)]),
        1
    );
    assert_eq!(
        sign_of_sum(&[(f64::from_bits(1), f64::from_bits(1), false)]),
        1
    );
    assert_eq!(
        sign_of_sum(&[(f64::MAX, f64::MAX, false), (f64::MAX, f64::MAX, true)]),
        0
    );
    // (1 + 2^-52)^2 = 1 + 2^-51 + 2^-104
    let a = 1.0 + f64::EPSILON;
    let t = 1.0 + 2.0 * f64::EPSILON;
    assert_eq!(sign_of_sum(&[(a, a, false), (t, 1.0, true)]), 1);
    assert_eq!(
        sign_of_sum(&[
            (a, a, false),
            (t, 1.0, true),
            (f64::EPSILON, f64::EPSILON, true)
        ]),
        0
    );
    // Terms at extreme scales.
    assert_eq!(
        sign_of_sum(&[
            (f64::MAX, 2.0, false),
            (f64::from_bits(1), f64::from_bits(1), false),
            (f64::MAX, 2.0, true)
        ]),
        1
    );
}

#[test]
fn oracle_next_up_down() {
    let f = F::D;
    assert_eq!(f.next_up(0), 1);
    assert_eq!(f.next_up(1u64 << 63), 1);
    assert_eq!(f.next_down(0), (1u64 << 63) | 1);
    assert_eq!(
        f64::from_bits(f.next_up(1.0f64.to_bits())),
        1.0 + f64::EPSILON
    );
    assert_eq!(
        f64::from_bits(f.next_down((-1.0f64).to_bits())),
        -1.0 - f64::EPSILON
    );
    assert_eq!(f.next_up(f64::MAX.to_bits()), f64::INFINITY.to_bits());
    let g = F::S;
    assert_eq!(
        f32::from_bits(g.next_down(1.0f32.to_bits() as u64) as u32),
        1.0 - f32::EPSILON / 2.0
    );
}
