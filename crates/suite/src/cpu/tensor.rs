//! The tensor-core programs' CPU side: f16 inputs and the dot product in the order warpsim's
//! `mma` adds (`docs/tensor-cores.md`, "Arithmetic"): the accumulator starts at C, then each
//! product of two f16 values, exact in f32, is added in k order with one f32 rounding per
//! add. A chain of `mma`s over k slices is that same sequential sum over all of k, so the
//! references compare bit for bit. (A GPU adds in an order of its own; on one the programs
//! would compare to a tolerance.)

use rand::Rng;
use rand_chacha::ChaCha8Rng;

/// `n` random f16 values (bit patterns) with exponents from 2⁻³ to 2² and random signs and
/// fractions: every one normal, every product exact in f32.
pub(crate) fn f16s(rng: &mut ChaCha8Rng, n: usize) -> Vec<u16> {
    (0..n)
        .map(|_| {
            let sign: u16 = rng.gen_range(0..2);
            let exp: u16 = rng.gen_range(12..=17);
            let frac: u16 = rng.gen_range(0..1024);
            sign << 15 | exp << 10 | frac
        })
        .collect()
}

/// The value of f16 `bits` (normal numbers and zeros; [`f16s`] makes nothing else).
pub(crate) fn f16_value(bits: u16) -> f32 {
    let sign = if bits >> 15 == 1 { -1.0f32 } else { 1.0 };
    let exp = ((bits >> 10) & 0x1F) as i32;
    let frac = (bits & 0x3FF) as f32;
    if exp == 0 {
        return sign * frac * 2f32.powi(-24);
    }
    sign * (1.0 + frac / 1024.0) * 2f32.powi(exp - 15)
}

/// `acc` plus the products `a[i]·b[i]` in order, each product exact in f32 and each add one
/// f32 rounding (`mma`'s order).
pub(crate) fn dot(acc: f32, terms: impl Iterator<Item = (u16, u16)>) -> f32 {
    terms.fold(acc, |acc, (a, b)| acc + f16_value(a) * f16_value(b))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn f16_values_decode_as_ieee_half_precision() {
        assert_eq!(f16_value(0x3C00), 1.0);
        assert_eq!(f16_value(0xC000), -2.0);
        assert_eq!(f16_value(0x3555), 0.333_251_95);
        assert_eq!(f16_value(0x0001), 2f32.powi(-24));
        assert_eq!(f16_value(0), 0.0);
    }

    #[test]
    fn the_dot_product_rounds_after_every_add() {
        // 1 + 2⁻²⁴ rounds to 1 in f32, so adding it twice in turn leaves 1; the exact sum
        // would round to 1 + 2⁻²³.
        let tiny = 0x0001; // 2⁻²⁴
        let one = 0x3C00;
        assert_eq!(dot(1.0, [(tiny, one), (tiny, one)].into_iter()), 1.0);
    }
}
