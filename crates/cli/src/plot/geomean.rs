//! The geometric mean, the mean the architecture papers report for speedups (a 2× speedup
//! and a 2× slowdown average to 1×, which the arithmetic mean gets wrong).

/// Geometric mean of `values`; `None` when there are none or one is not finite or not
/// positive (a missing run must not silently drop out of the mean).
pub fn geometric_mean(values: &[f64]) -> Option<f64> {
    if values.is_empty() || values.iter().any(|v| !v.is_finite() || *v <= 0.0) {
        return None;
    }
    let mean_log = values.iter().map(|v| v.ln()).sum::<f64>() / values.len() as f64;
    Some(mean_log.exp())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64) -> bool {
        (a - b).abs() < 1e-12
    }

    #[test]
    fn known_means() {
        assert!(close(geometric_mean(&[1.0, 4.0]).unwrap(), 2.0));
        assert!(close(geometric_mean(&[2.0, 8.0, 4.0]).unwrap(), 4.0));
        assert!(close(geometric_mean(&[2.0, 0.5]).unwrap(), 1.0));
        assert!(close(geometric_mean(&[1.3]).unwrap(), 1.3));
    }

    #[test]
    fn undefined_means_are_none() {
        assert_eq!(geometric_mean(&[]), None);
        assert_eq!(geometric_mean(&[1.0, 0.0]), None);
        assert_eq!(geometric_mean(&[1.0, -2.0]), None);
        assert_eq!(geometric_mean(&[1.0, f64::NAN]), None);
        assert_eq!(geometric_mean(&[1.0, f64::INFINITY]), None);
    }
}
