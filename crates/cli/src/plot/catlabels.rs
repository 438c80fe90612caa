//! Category labels under a row of bar groups. Short names sit level under their group; names
//! too wide for their slot alternate between two rows (each then has two slots); longer ones
//! are turned to read bottom to top. Names past [`MAX_CHARS`] are cut with an ellipsis.

use super::canvas::{Anchor, Canvas, Font};
use super::palette;
use super::text;
use super::PlotError;

pub(crate) const MAX_CHARS: usize = 28;
const PX: f64 = 12.0;
const ROW: f64 = 16.0;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Mode {
    Level,
    Staggered,
    Vertical,
}

#[derive(Debug, Clone)]
pub(crate) struct CategoryLabels {
    pub labels: Vec<String>,
    pub mode: Mode,
}

impl CategoryLabels {
    /// Chooses how to set `labels` when each has `slot` pixels of width.
    pub fn plan(labels: &[String], slot: f64) -> CategoryLabels {
        let labels: Vec<String> = labels
            .iter()
            .map(|l| text::truncate(l, MAX_CHARS))
            .collect();
        let widest = labels
            .iter()
            .map(|l| text::width(l, PX))
            .fold(0.0, f64::max);
        let mode = if widest <= slot - 4.0 {
            Mode::Level
        } else if widest <= 2.0 * slot - 8.0 {
            Mode::Staggered
        } else {
            Mode::Vertical
        };
        CategoryLabels { labels, mode }
    }

    /// Height of the band the labels take.
    pub fn height(&self) -> f64 {
        match self.mode {
            Mode::Level => ROW + 6.0,
            Mode::Staggered => 2.0 * ROW + 6.0,
            Mode::Vertical => {
                self.labels
                    .iter()
                    .map(|l| text::width(l, PX))
                    .fold(0.0, f64::max)
                    + 10.0
            }
        }
    }

    /// Draws label `i` centred on `centers[i]`, the band's top at `top`.
    pub fn draw(&self, c: &Canvas, centers: &[f64], top: f64) -> Result<(), PlotError> {
        let font = Font::new(PX, palette::TEXT);
        for (i, (label, &x)) in self.labels.iter().zip(centers).enumerate() {
            match self.mode {
                Mode::Level => c.text(label, x, top + 4.0 + ROW / 2.0, Anchor::Middle, font)?,
                Mode::Staggered => {
                    let row = (i % 2) as f64;
                    if row > 0.0 {
                        c.line(
                            (x, top + 2.0),
                            (x, top + ROW + 1.0),
                            palette::BARRIER_WAIT,
                            1,
                        )?;
                    }
                    c.text(
                        label,
                        x,
                        top + 4.0 + ROW / 2.0 + row * ROW,
                        Anchor::Middle,
                        font,
                    )?
                }
                Mode::Vertical => c.text(label, x, top + 5.0, Anchor::End, font.vertical())?,
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(v: &[&str]) -> Vec<String> {
        v.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn mode_follows_label_width() {
        assert_eq!(
            CategoryLabels::plan(&names(&["BT", "MM"]), 90.0).mode,
            Mode::Level
        );
        assert_eq!(
            CategoryLabels::plan(&names(&["srad_v2_kernel", "MM"]), 70.0).mode,
            Mode::Staggered
        );
        let v = CategoryLabels::plan(
            &names(&["a_really_long_program_name_that_goes_on_and_on"]),
            40.0,
        );
        assert_eq!(v.mode, Mode::Vertical);
        assert_eq!(v.labels[0].chars().count(), MAX_CHARS);
        assert!(v.height() > CategoryLabels::plan(&names(&["BT"]), 90.0).height());
    }
}
