//! Comparison helpers. Each returns the number of values compared, or
//! [`SuiteError::Mismatch`] for the first value out of tolerance (never panics).
//!
//! Float references are `f64` (computed in double precision from the same `f32` inputs), so a
//! tolerance only has to cover the device's own rounding, which the drivers derive from the
//! operation count and order; see each driver's comments.

use std::fmt::Debug;

use crate::program::SuiteError;

/// `f32` or `f64`, as the helpers need them.
pub trait Float: Copy + Debug + PartialEq + std::fmt::LowerExp {
    fn to_f64(self) -> f64;
    fn is_nan(self) -> bool;
    /// Position on a line on which adjacent floats (of this type) are adjacent integers, with
    /// +0 and -0 both at 0.
    fn ordinal(self) -> i64;
}

impl Float for f32 {
    fn to_f64(self) -> f64 {
        self as f64
    }
    fn is_nan(self) -> bool {
        f32::is_nan(self)
    }
    fn ordinal(self) -> i64 {
        let b = self.to_bits() as i32;
        if b < 0 {
            -((b & 0x7fff_ffff) as i64)
        } else {
            b as i64
        }
    }
}

impl Float for f64 {
    fn to_f64(self) -> f64 {
        self
    }
    fn is_nan(self) -> bool {
        f64::is_nan(self)
    }
    fn ordinal(self) -> i64 {
        let b = self.to_bits() as i64;
        if b < 0 {
            -(b & 0x7fff_ffff_ffff_ffff)
        } else {
            b
        }
    }
}

/// Distance in units in the last place of `T` between two values (`u64::MAX` when exactly one
/// is NaN, 0 when both are).
pub fn ulp_distance<T: Float>(a: T, b: T) -> u64 {
    match (a.is_nan(), b.is_nan()) {
        (true, true) => 0,
        (false, false) => (a.ordinal() as i128 - b.ordinal() as i128)
            .unsigned_abs()
            .min(u64::MAX as u128) as u64,
        _ => u64::MAX,
    }
}

fn check_len(
    program: &'static str,
    what: &str,
    got: usize,
    expected: usize,
) -> Result<(), SuiteError> {
    if got != expected {
        return Err(SuiteError::Length {
            program,
            what: what.to_string(),
            expected,
            got,
        });
    }
    Ok(())
}

fn mismatch(
    program: &'static str,
    what: &str,
    index: usize,
    expected: String,
    got: String,
) -> SuiteError {
    SuiteError::Mismatch {
        program,
        what: what.to_string(),
        index,
        expected,
        got,
    }
}

/// Exact equality, element by element.
pub fn assert_exact<T: PartialEq + Debug>(
    program: &'static str,
    what: &str,
    got: &[T],
    expected: &[T],
) -> Result<u64, SuiteError> {
    check_len(program, what, got.len(), expected.len())?;
    for (i, (g, e)) in got.iter().zip(expected).enumerate() {
        if g != e {
            return Err(mismatch(
                program,
                what,
                i,
                format!("{e:?}"),
                format!("{g:?}"),
            ));
        }
    }
    Ok(got.len() as u64)
}

/// `|got - expected| <= max(abs_tol, rel_tol * |expected|)` for every element. NaN matches
/// only NaN; infinities must be equal.
pub fn assert_close<T: Float>(
    program: &'static str,
    what: &str,
    got: &[T],
    expected: &[f64],
    rel_tol: f64,
    abs_tol: f64,
) -> Result<u64, SuiteError> {
    check_len(program, what, got.len(), expected.len())?;
    for (i, (&g, &e)) in got.iter().zip(expected).enumerate() {
        let tol = abs_tol.max(rel_tol * e.abs());
        if !within(g.to_f64(), e, tol) {
            return Err(mismatch(
                program,
                what,
                i,
                format!("{e:e} (±{tol:.3e})"),
                format!("{:e} (off by {:.3e})", g.to_f64(), (g.to_f64() - e).abs()),
            ));
        }
    }
    Ok(got.len() as u64)
}

/// `|got[i] - expected[i]| <= bound[i]` for every element: for error bounds that depend on
/// the element's own terms (a sum's `Σ|term|`).
pub fn assert_bounded<T: Float>(
    program: &'static str,
    what: &str,
    got: &[T],
    expected: &[f64],
    bound: &[f64],
) -> Result<u64, SuiteError> {
    check_len(program, what, got.len(), expected.len())?;
    check_len(
        program,
        &format!("{what} (error bounds)"),
        bound.len(),
        expected.len(),
    )?;
    for (i, ((&g, &e), &b)) in got.iter().zip(expected).zip(bound).enumerate() {
        if !within(g.to_f64(), e, b) {
            return Err(mismatch(
                program,
                what,
                i,
                format!("{e:e} (±{b:.3e})"),
                format!("{:e} (off by {:.3e})", g.to_f64(), (g.to_f64() - e).abs()),
            ));
        }
    }
    Ok(got.len() as u64)
}

/// At most `max_ulps(i)` units in the last place between `got[i]` and `expected[i]` (same
/// float type: the reference is rounded to it first).
pub fn assert_ulps<T: Float>(
    program: &'static str,
    what: &str,
    got: &[T],
    expected: &[T],
    max_ulps: impl Fn(usize) -> u64,
) -> Result<u64, SuiteError> {
    check_len(program, what, got.len(), expected.len())?;
    for (i, (&g, &e)) in got.iter().zip(expected).enumerate() {
        let max = max_ulps(i);
        let d = ulp_distance(g, e);
        if d > max {
            let dist = if d == u64::MAX {
                "NaN vs number".to_string()
            } else {
                format!("{d} ulps")
            };
            return Err(mismatch(
                program,
                what,
                i,
                format!("{e:e} (±{max} ulps)"),
                format!("{g:e} ({dist} off)"),
            ));
        }
    }
    Ok(got.len() as u64)
}

fn within(g: f64, e: f64, tol: f64) -> bool {
    if g.is_nan() || e.is_nan() {
        return g.is_nan() && e.is_nan();
    }
    if g.is_infinite() || e.is_infinite() {
        return g == e;
    }
    (g - e).abs() <= tol
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn exact_reports_first_mismatch() {
        assert_eq!(assert_exact("p", "v", &[1, 2, 3], &[1, 2, 3]).unwrap(), 3);
        match assert_exact("p", "v", &[1, 5, 7], &[1, 2, 3]) {
            Err(SuiteError::Mismatch {
                index,
                expected,
                got,
                ..
            }) => {
                assert_eq!((index, expected.as_str(), got.as_str()), (1, "2", "5"))
            }
            other => panic!("{other:?}"),
        }
        assert!(matches!(
            assert_exact("p", "v", &[1], &[1, 2]),
            Err(SuiteError::Length { .. })
        ));
    }

    #[test]
    fn close_uses_larger_of_rel_and_abs() {
        assert!(assert_close("p", "v", &[1.0f32 + 1e-6], &[1.0], 2e-6, 0.0).is_ok());
        assert!(assert_close("p", "v", &[1.0f32 + 1e-5], &[1.0], 2e-6, 0.0).is_err());
        assert!(assert_close("p", "v", &[1e-7f32], &[0.0], 0.0, 1e-6).is_ok());
        assert!(assert_close("p", "v", &[f32::NAN], &[f64::NAN], 0.0, 0.0).is_ok());
        assert!(assert_close("p", "v", &[f32::NAN], &[1.0], 1.0, 1.0).is_err());
        assert!(assert_close("p", "v", &[f32::INFINITY], &[f64::INFINITY], 0.0, 0.0).is_ok());
        assert!(assert_close("p", "v", &[f32::INFINITY], &[1e300], 1.0, 0.0).is_err());
        match assert_close("p", "v", &[1.0f32, 2.0, 3.5], &[1.0, 2.0, 3.0], 1e-3, 0.0) {
            Err(SuiteError::Mismatch { index: 2, .. }) => {}
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn bounded_is_per_element() {
        assert!(assert_bounded("p", "v", &[1.5f64, 2.0], &[1.0, 2.0], &[0.5, 0.0]).is_ok());
        assert!(assert_bounded("p", "v", &[1.0f64, 2.5], &[1.0, 2.0], &[0.5, 0.25]).is_err());
    }

    #[test]
    fn ulps() {
        let one = 1.0f32;
        let next = f32::from_bits(one.to_bits() + 3);
        assert_eq!(ulp_distance(one, next), 3);
        assert_eq!(ulp_distance(0.0f64, -0.0f64), 0);
        assert_eq!(ulp_distance(f64::from_bits(1), -f64::from_bits(1)), 2);
        assert_eq!(ulp_distance(f32::NAN, 1.0), u64::MAX);
        assert!(assert_ulps("p", "v", &[next], &[one], |_| 3).is_ok());
        assert!(assert_ulps("p", "v", &[next], &[one], |_| 2).is_err());
    }
}
