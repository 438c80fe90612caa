//! Comparing a buffer read back from the device with its expected contents.

use crate::manifest::Tolerance;
use crate::scalar::{Elem, ScalarType};

pub struct Mismatch {
    pub index: usize,
    pub expected: Elem,
    pub got: Elem,
}

#[derive(Default)]
pub struct Comparison {
    /// Values compared.
    pub checked: usize,
    /// Values that differ.
    pub differing: usize,
    /// The first few of them.
    pub first: Vec<Mismatch>,
}

/// Compares two buffers of `ty` element by element, keeping the first `keep` mismatches.
pub fn compare(
    ty: ScalarType,
    got: &[u8],
    expected: &[u8],
    tol: Tolerance,
    keep: usize,
) -> Comparison {
    assert_eq!(got.len(), expected.len(), "compare: lengths differ");
    let n = got.len() / ty.size();
    let mut c = Comparison {
        checked: n,
        ..Default::default()
    };
    if got == expected {
        return c;
    }
    for i in 0..n {
        let (g, e) = (ty.read(got, i), ty.read(expected, i));
        if !matches(g, e, tol) {
            c.differing += 1;
            if c.first.len() < keep {
                c.first.push(Mismatch {
                    index: i,
                    expected: e,
                    got: g,
                });
            }
        }
    }
    c
}

/// Integers: equal. Floats: both NaN, or `|g - e| <= abs + rel * |e|` (so `0.0 == -0.0`).
pub fn matches(got: Elem, expected: Elem, tol: Tolerance) -> bool {
    match (got, expected) {
        (Elem::Int(g), Elem::Int(e)) => g == e,
        (Elem::Float(g), Elem::Float(e)) => {
            if g.is_nan() || e.is_nan() {
                return g.is_nan() && e.is_nan();
            }
            if g == e {
                return true;
            }
            if g.is_infinite() || e.is_infinite() {
                return false;
            }
            (g - e).abs() <= tol.abs + tol.rel * e.abs()
        }
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn float_tolerance() {
        let t = Tolerance {
            rel: 1e-3,
            abs: 0.0,
        };
        assert!(matches(Elem::Float(1.0005), Elem::Float(1.0), t));
        assert!(!matches(Elem::Float(1.01), Elem::Float(1.0), t));
        assert!(matches(
            Elem::Float(f64::NAN),
            Elem::Float(f64::NAN),
            Tolerance::default()
        ));
        assert!(!matches(Elem::Float(f64::NAN), Elem::Float(1.0), t));
        assert!(matches(
            Elem::Float(-0.0),
            Elem::Float(0.0),
            Tolerance::default()
        ));
        assert!(!matches(
            Elem::Float(f64::INFINITY),
            Elem::Float(1e308),
            Tolerance { rel: 1.0, abs: 1.0 }
        ));
    }

    #[test]
    fn reports_first_mismatches() {
        let exp: Vec<u8> = (0u32..10).flat_map(|v| v.to_le_bytes()).collect();
        let mut got = exp.clone();
        got[4 * 3] = 99;
        got[4 * 7] = 98;
        let c = compare(ScalarType::U32, &got, &exp, Tolerance::default(), 1);
        assert_eq!((c.checked, c.differing, c.first.len()), (10, 2, 1));
        assert_eq!(c.first[0].index, 3);
        assert_eq!(c.first[0].got, Elem::Int(99));
    }
}
