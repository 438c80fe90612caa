//! Value axes: the range a chart shows and its tick marks. Speedups cluster around 1.0, so a
//! bar chart that always started at 0 would flatten a 3% difference into a pixel; [`YRange::Auto`]
//! starts the axis just below the data when the data sit in a narrow band far from 0.

use super::PlotError;

/// Which part of the value axis a bar chart shows.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub enum YRange {
    /// From 0, unless every value (and the reference line) is positive and the smallest is
    /// more than half the largest: then from a round number just below the smallest, so small
    /// differences stay visible. Bars then grow from the bottom of the axis, which the tick
    /// labels show.
    #[default]
    Auto,
    /// Always include 0 (bars grow from 0).
    FromZero,
    /// Exactly this range, widened to whole ticks; bars past `hi` are cut and labelled with
    /// their value.
    #[allow(dead_code)] // no report fixes its axis yet
    Fixed { lo: f64, hi: f64 },
}

/// A linear axis from `lo` to `hi` with ticks every `step`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Axis {
    pub lo: f64,
    pub hi: f64,
    pub step: f64,
}

/// A round step (1, 2, 2.5 or 5 times a power of ten) giving about `target` intervals.
pub(crate) fn nice_step(span: f64, target: f64) -> f64 {
    let raw = (span / target).max(f64::MIN_POSITIVE);
    let mag = 10f64.powf(raw.log10().floor());
    let m = raw / mag;
    let nice = if m <= 1.0 {
        1.0
    } else if m <= 2.0 {
        2.0
    } else if m <= 2.5 {
        2.5
    } else if m <= 5.0 {
        5.0
    } else {
        10.0
    };
    nice * mag
}

impl Axis {
    /// The smallest axis of whole ticks (about `target` of them) holding `lo..hi`.
    pub fn covering(lo: f64, hi: f64, target: f64) -> Axis {
        let (lo, hi) = if hi > lo { (lo, hi) } else { (lo, lo + 1.0) };
        let step = nice_step(hi - lo, target);
        // The small tolerance keeps 0.8 (= 8 × 0.1 with rounding error) on its own tick.
        let lo_t = ((lo / step) + 1e-9).floor() * step;
        let hi_t = ((hi / step) - 1e-9).ceil() * step;
        Axis {
            lo: lo_t,
            hi: hi_t.max(lo_t + step),
            step,
        }
    }

    /// Tick values from `lo` up to `hi` (`hi` itself when it falls on a tick).
    pub fn ticks(&self) -> Vec<f64> {
        let n = ((self.hi - self.lo) / self.step + 1e-9).floor() as i64;
        (0..=n).map(|i| self.lo + i as f64 * self.step).collect()
    }

    /// Position of `v` along the axis: 0 at `lo`, 1 at `hi`.
    pub fn frac(&self, v: f64) -> f64 {
        (v - self.lo) / (self.hi - self.lo)
    }

    /// Where bars grow from: 0 when the axis shows it, else the bottom of the axis.
    pub fn base(&self) -> f64 {
        if self.lo <= 0.0 && 0.0 <= self.hi {
            0.0
        } else {
            self.lo
        }
    }

    /// A tick label with as many decimals as the step needs.
    pub fn label(&self, v: f64) -> String {
        let mut decimals = 0usize;
        while decimals < 6
            && ((self.step * 10f64.powi(decimals as i32)).round()
                - self.step * 10f64.powi(decimals as i32))
            .abs()
                > 1e-6
        {
            decimals += 1;
        }
        let s = format!("{:.*}", decimals, v);
        // "-0.0" → "0.0"
        if s.starts_with('-') && s[1..].chars().all(|c| c == '0' || c == '.') {
            s[1..].to_string()
        } else {
            s
        }
    }
}

/// The axis a bar chart draws for `values` (finite ones only) and an optional reference line.
pub(crate) fn value_axis(
    range: YRange,
    values: &[f64],
    reference: Option<f64>,
) -> Result<Axis, PlotError> {
    const TICKS: f64 = 6.0;
    if let YRange::Fixed { lo, hi } = range {
        if !(lo.is_finite() && hi.is_finite() && lo < hi) {
            return Err(PlotError::Invalid(format!(
                "fixed y range {lo}..{hi} is empty or not finite"
            )));
        }
        return Ok(Axis::covering(lo, hi, TICKS));
    }
    let all: Vec<f64> = values
        .iter()
        .copied()
        .chain(reference)
        .filter(|v| v.is_finite())
        .collect();
    if all.is_empty() {
        return Ok(Axis::covering(0.0, 1.0, TICKS));
    }
    let min = all.iter().copied().fold(f64::INFINITY, f64::min);
    let max = all.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    if min == 0.0 && max == 0.0 {
        return Ok(Axis::covering(0.0, 1.0, TICKS));
    }
    let narrow = range == YRange::Auto && min > 0.0 && min > 0.5 * max;
    if narrow {
        let pad = ((max - min) * 0.12).max(max * 0.02);
        return Ok(Axis::covering((min - pad).max(0.0), max + pad * 0.5, TICKS));
    }
    let lo = min.min(0.0);
    let hi = max.max(0.0);
    let pad = (hi - lo) * 0.06;
    Ok(Axis::covering(
        if lo < 0.0 { lo - pad } else { 0.0 },
        if hi > 0.0 { hi + pad } else { 0.0 },
        TICKS,
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nice_steps_are_round() {
        assert_eq!(nice_step(1.0, 5.0), 0.2);
        assert_eq!(nice_step(100.0, 4.0), 25.0);
        assert_eq!(nice_step(0.45, 6.0), 0.1);
        assert_eq!(nice_step(7.0, 6.0), 2.0);
    }

    #[test]
    fn speedups_near_one_do_not_start_at_zero() {
        let a = value_axis(YRange::Auto, &[0.85, 1.3, 1.02], Some(1.0)).unwrap();
        assert!(a.lo > 0.5 && a.lo <= 0.85, "{a:?}");
        assert!(a.hi >= 1.3 && a.hi < 1.6, "{a:?}");
        assert_eq!(a.base(), a.lo);
        let z = value_axis(YRange::FromZero, &[0.85, 1.3], Some(1.0)).unwrap();
        assert_eq!(z.lo, 0.0);
    }

    #[test]
    fn wide_or_negative_data_include_zero() {
        let a = value_axis(YRange::Auto, &[0.1, 0.6], None).unwrap();
        assert_eq!(a.lo, 0.0);
        let n = value_axis(YRange::Auto, &[-0.2, 0.6], None).unwrap();
        assert!(n.lo < -0.2 && n.hi > 0.6);
        assert_eq!(n.base(), 0.0);
    }

    #[test]
    fn degenerate_data_get_a_usable_axis() {
        for vals in [&[][..], &[0.0, 0.0][..], &[f64::NAN][..], &[5.0][..]] {
            let a = value_axis(YRange::Auto, vals, None).unwrap();
            assert!(a.lo < a.hi && a.step > 0.0, "{vals:?} {a:?}");
        }
        assert!(value_axis(YRange::Fixed { lo: 1.0, hi: 1.0 }, &[], None).is_err());
        assert!(value_axis(
            YRange::Fixed {
                lo: 0.0,
                hi: f64::NAN
            },
            &[],
            None
        )
        .is_err());
    }

    #[test]
    fn labels_have_the_step_decimals() {
        let a = Axis {
            lo: 0.8,
            hi: 1.4,
            step: 0.1,
        };
        assert_eq!(a.label(0.8), "0.8");
        assert_eq!(a.ticks().len(), 7);
        let b = Axis {
            lo: 0.0,
            hi: 1.0,
            step: 0.25,
        };
        assert_eq!(b.label(0.5), "0.50");
        let unaligned = Axis {
            lo: 0.0,
            hi: 9000.0,
            step: 2000.0,
        };
        assert_eq!(unaligned.ticks(), vec![0.0, 2000.0, 4000.0, 6000.0, 8000.0]);
        let c = Axis {
            lo: -10.0,
            hi: 10.0,
            step: 5.0,
        };
        assert_eq!(c.label(-0.0), "0");
    }
}
