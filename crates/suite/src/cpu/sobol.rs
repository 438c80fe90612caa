//! Sobol sequences (Bratley and Fox's construction): direction numbers from primitive
//! polynomials over GF(2), and points computed directly from the Gray code of their index.
//!
//! The polynomials are found here by search (degree by degree, in increasing numeric order),
//! and the free initial direction numbers m_1..m_d of each dimension are drawn from a seeded
//! generator (odd, m_k < 2^k): any such choice gives a valid Sobol sequence, whose first 2^m
//! points put exactly one point in each interval [j/2^m, (j+1)/2^m) of every dimension
//! (checked by [`stratified`]). Published tables (Joe and Kuo's) choose the m_k for better
//! two-dimensional projections, which changes the values, not the work.

use rand::Rng;
use rand_chacha::ChaCha8Rng;

/// Bits of a direction vector (and of a point before scaling by 2^-32).
pub(crate) const BITS: usize = 32;

/// Whether `poly` (bit i = coefficient of x^i, degree `d` ≥ 1) is primitive: x has
/// multiplicative order exactly 2^d − 1 modulo it (which also rules out reducible ones).
fn is_primitive(poly: u32, d: u32) -> bool {
    if poly & 1 == 0 {
        return false;
    }
    let period = (1u32 << d) - 1;
    let mut r = 1u32; // x^0
    for e in 1..=period {
        r <<= 1;
        if r >> d & 1 == 1 {
            r ^= poly;
        }
        if r == 1 {
            return e == period;
        }
    }
    false
}

/// The first `count` primitive polynomials over GF(2), by degree then numeric value, as
/// (degree, polynomial with bit i = coefficient of x^i).
pub(crate) fn primitive_polynomials(count: usize) -> Vec<(u32, u32)> {
    let mut out = Vec::with_capacity(count);
    let mut d = 1;
    while out.len() < count {
        assert!(
            d < BITS as u32,
            "more primitive polynomials than degree 31 gives"
        );
        for poly in (1u32 << d)..(1u32 << (d + 1)) {
            if out.len() < count && is_primitive(poly, d) {
                out.push((d, poly));
            }
        }
        d += 1;
    }
    out
}

/// Direction vectors of `dims` dimensions, `BITS` per dimension, dimension-major: dimension
/// 0 is van der Corput's (v_k = 2^(31−k)), dimension n ≥ 1 uses the n-th primitive polynomial.
pub(crate) fn direction_vectors(dims: usize, rng: &mut ChaCha8Rng) -> Vec<u32> {
    let mut out = Vec::with_capacity(dims * BITS);
    out.extend((0..BITS).map(|k| 1u32 << (BITS - 1 - k)));
    for (d, poly) in primitive_polynomials(dims.saturating_sub(1)) {
        let d = d as usize;
        // m[k - 1] = m_k, 1-indexed as in Bratley and Fox.
        let mut m = vec![0u64; BITS];
        for (k, mk) in m.iter_mut().enumerate().take(d) {
            *mk = 2 * rng.gen_range(0..1u64 << k) + 1; // odd, below 2^(k+1)
        }
        for k in d..BITS {
            // m_k = 2 a_1 m_{k-1} ^ 4 a_2 m_{k-2} ^ ... ^ 2^(d-1) a_{d-1} m_{k-d+1} ^ 2^d m_{k-d} ^ m_{k-d},
            // a_j the coefficient of x^(d-j).
            let mut mk = (m[k - d] << d) ^ m[k - d];
            for j in 1..d {
                if poly >> (d - j) & 1 == 1 {
                    mk ^= m[k - j] << j;
                }
            }
            m[k] = mk;
        }
        out.extend(
            m.iter()
                .enumerate()
                .map(|(k, &mk)| (mk << (BITS - 1 - k)) as u32),
        );
    }
    out
}

/// The 32-bit integer of point `i` of the dimension with direction vectors `v`: the XOR of
/// v[b] over the set bits b of the Gray code of `i`.
pub(crate) fn point(v: &[u32], i: u32) -> u32 {
    let gray = i ^ (i >> 1);
    (0..BITS)
        .filter(|&b| gray >> b & 1 == 1)
        .fold(0, |x, b| x ^ v[b])
}

/// Whether `points` (a dimension's first 2^m integers, in order) put exactly one point in
/// each of the 2^m intervals of width 2^(32−m): the defining property of a Sobol sequence.
pub(crate) fn stratified(points: &[u32]) -> bool {
    let n = points.len();
    if !n.is_power_of_two() {
        return false;
    }
    let m = n.trailing_zeros();
    let mut seen = vec![false; n];
    for &p in points {
        let cell = if m == 0 {
            0
        } else {
            (p >> (BITS as u32 - m)) as usize
        };
        if std::mem::replace(&mut seen[cell], true) {
            return false;
        }
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn primitive_polynomial_counts() {
        // φ(2^d − 1) / d primitive polynomials of degree d: 1, 1, 2, 2, 6, 6, 18, 16, 48.
        let polys = primitive_polynomials(100);
        let per_degree: Vec<usize> = (1..=9)
            .map(|d| polys.iter().filter(|p| p.0 == d).count())
            .collect();
        assert_eq!(per_degree, [1, 1, 2, 2, 6, 6, 18, 16, 48]);
        assert_eq!(
            &polys[..4],
            &[(1, 0b11), (2, 0b111), (3, 0b1011), (3, 0b1101)]
        );
        // x^4 + x^2 + 1 = (x^2 + x + 1)^2 and x^4 + x^3 + x^2 + x + 1 (order 5) are not.
        assert!(!is_primitive(0b10101, 4) && !is_primitive(0b11111, 4));
    }

    #[test]
    fn van_der_corput_and_known_points() {
        let v = direction_vectors(3, &mut crate::rng::rng("sobol-test", 0));
        // Dimension 0: 0, 1/2, 3/4, 1/4, 3/8, 7/8, ... (Gray-code order).
        let d0: Vec<u32> = (0..6).map(|i| point(&v[..BITS], i)).collect();
        assert_eq!(d0, [0, 1 << 31, 3 << 30, 1 << 30, 3 << 29, 7 << 29]);
        // Dimension 1 (x + 1): m_1 = 1 and m_k = 3 m_{k-1}, carry-less: 1, 3, 5, 15, ...
        assert_eq!(v[BITS..BITS + 4], [1 << 31, 3 << 30, 5 << 29, 15 << 28]);
    }

    #[test]
    fn every_dimension_is_stratified() {
        let dims = 40;
        let v = direction_vectors(dims, &mut crate::rng::rng("sobol-test", 1));
        for d in 0..dims {
            let vd = &v[d * BITS..(d + 1) * BITS];
            for m in [1u32, 5, 12] {
                let pts: Vec<u32> = (0..1u32 << m).map(|i| point(vd, i)).collect();
                assert!(stratified(&pts), "dimension {d}, 2^{m} points");
            }
        }
        // A broken vector (two equal entries) loses the property.
        let mut bad = v[BITS..2 * BITS].to_vec();
        bad[3] = bad[2];
        assert!(!stratified(
            &(0..16).map(|i| point(&bad, i)).collect::<Vec<_>>()
        ));
    }
}
