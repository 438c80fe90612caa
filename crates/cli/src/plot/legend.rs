//! Legends, set in rows above the plot area so they never cover a bar, centred, wrapping
//! when the entries do not fit in one row.

use plotters::style::RGBColor;

use super::canvas::{Anchor, Canvas, Font};
use super::palette;
use super::text;
use super::PlotError;

/// What an entry's key looks like.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Swatch {
    /// A filled square (bars, stack components, run phases).
    Fill(RGBColor),
    /// A band of this fraction of the square's height (the timeline's wait kinds).
    Band(RGBColor, f64),
}

#[derive(Debug, Clone)]
pub(crate) struct Entry {
    pub label: String,
    pub swatch: Swatch,
}

const PX: f64 = 12.0;
const KEY: f64 = 12.0;
const ROW: f64 = 20.0;
const GAP: f64 = 18.0;

fn entry_width(e: &Entry) -> f64 {
    KEY + 5.0 + text::width(&e.label, PX)
}

/// Entries per row for a legend at most `max_w` pixels wide.
fn rows(entries: &[Entry], max_w: f64) -> Vec<Vec<&Entry>> {
    let mut rows: Vec<Vec<&Entry>> = Vec::new();
    let mut w = 0.0;
    for e in entries {
        let ew = entry_width(e);
        match rows.last_mut() {
            Some(row) if w + GAP + ew <= max_w => {
                row.push(e);
                w += GAP + ew;
            }
            _ => {
                rows.push(vec![e]);
                w = ew;
            }
        }
    }
    rows
}

/// Height the legend takes when at most `max_w` wide (0 for no entries).
pub(crate) fn height(entries: &[Entry], max_w: f64) -> f64 {
    rows(entries, max_w).len() as f64 * ROW
}

/// Draws the legend with its rows centred on `cx`, the first row's top at `top`.
pub(crate) fn draw(
    c: &Canvas,
    entries: &[Entry],
    cx: f64,
    top: f64,
    max_w: f64,
) -> Result<(), PlotError> {
    for (r, row) in rows(entries, max_w).iter().enumerate() {
        let row_w: f64 =
            row.iter().map(|e| entry_width(e)).sum::<f64>() + GAP * (row.len() as f64 - 1.0);
        let mut x = cx - row_w / 2.0;
        let mid = top + r as f64 * ROW + ROW / 2.0;
        for e in row {
            let (y0, y1) = (mid - KEY / 2.0, mid + KEY / 2.0);
            match e.swatch {
                Swatch::Fill(color) => {
                    c.fill(x, y0, x + KEY, y1, color)?;
                    c.outline(x, y0, x + KEY, y1, palette::AXIS, 0.35)?;
                }
                Swatch::Band(color, frac) => {
                    let h = (KEY * frac).max(2.0);
                    c.fill(x, mid - h / 2.0, x + KEY, mid + h / 2.0, color)?;
                }
            }
            c.text(
                &e.label,
                x + KEY + 5.0,
                mid,
                Anchor::Start,
                Font::new(PX, palette::TEXT),
            )?;
            x += entry_width(e) + GAP;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entries(n: usize) -> Vec<Entry> {
        (0..n)
            .map(|i| Entry {
                label: format!("series {i}"),
                swatch: Swatch::Fill(palette::series(i)),
            })
            .collect()
    }

    #[test]
    fn wraps_only_when_needed() {
        assert_eq!(height(&entries(0), 500.0), 0.0);
        assert_eq!(height(&entries(3), 2000.0), ROW);
        let narrow = height(&entries(8), 300.0);
        assert!(narrow >= 3.0 * ROW, "{narrow}");
        // Every entry is placed exactly once.
        let placed: usize = rows(&entries(8), 300.0).iter().map(|r| r.len()).sum();
        assert_eq!(placed, 8);
    }
}
