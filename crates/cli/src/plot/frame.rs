//! The frame every bar chart shares: title, legend above the plot area, value axis with grid
//! and tick labels on the left, a band under the plot for category labels (the chart draws
//! them), and notes at the bottom (what was left out and why).

use super::canvas::{Anchor, Canvas, Font};
use super::legend::{self, Entry};
use super::palette;
use super::scale::Axis;
use super::text;
use super::PlotError;

const PLOT_H: f64 = 300.0;
const MARGIN: f64 = 12.0;
const TITLE_PX: f64 = 15.0;
const TICK_PX: f64 = 11.0;
const AXIS_PX: f64 = 12.0;
const NOTE_PX: f64 = 11.0;
const NOTE_ROW: f64 = 15.0;

/// What a bar chart's frame shows.
pub(crate) struct Frame<'a> {
    pub title: &'a str,
    pub y_label: &'a str,
    pub legend: Vec<Entry>,
    pub axis: Axis,
    /// Width of the plot area (the bars need it).
    pub plot_w: f64,
    /// Height of the band under the plot area for category (and series) labels.
    pub band_h: f64,
    pub notes: Vec<String>,
}

/// Pixel positions computed from a [`Frame`].
#[derive(Debug, Clone)]
pub(crate) struct Layout {
    pub width: f64,
    pub height: f64,
    pub left: f64,
    pub top: f64,
    pub right: f64,
    pub bottom: f64,
    legend_top: f64,
    /// The notes broken into lines that fit the width.
    note_lines: Vec<String>,
}

impl Layout {
    pub fn size(&self) -> (u32, u32) {
        (self.width.ceil() as u32, self.height.ceil() as u32)
    }
}

impl Frame<'_> {
    pub fn layout(&self) -> Layout {
        let tick_w = self
            .axis
            .ticks()
            .iter()
            .map(|&v| text::width(&self.axis.label(v), TICK_PX))
            .fold(0.0, f64::max);
        let left = MARGIN
            + if self.y_label.is_empty() {
                0.0
            } else {
                AXIS_PX + 10.0
            }
            + tick_w
            + 8.0;
        let width = (left + self.plot_w + MARGIN + 8.0).max(320.0);
        let title_h = if self.title.is_empty() {
            0.0
        } else {
            TITLE_PX + 12.0
        };
        let legend_top = MARGIN + title_h;
        let legend_h = legend::height(&self.legend, width - 2.0 * MARGIN);
        let top = legend_top + legend_h + if legend_h > 0.0 { 10.0 } else { 6.0 };
        let bottom = top + PLOT_H;
        let note_lines: Vec<String> = self
            .notes
            .iter()
            .flat_map(|n| text::wrap(n, width - 2.0 * MARGIN, NOTE_PX))
            .collect();
        let height = bottom + self.band_h + note_lines.len() as f64 * NOTE_ROW + MARGIN;
        Layout {
            width,
            height,
            left,
            top,
            right: left + self.plot_w,
            bottom,
            legend_top,
            note_lines,
        }
    }

    /// Pixel row of value `v` (not clamped).
    pub fn y(&self, l: &Layout, v: f64) -> f64 {
        l.bottom - self.axis.frac(v) * (l.bottom - l.top)
    }

    /// Everything under the bars: title, legend, grid, tick labels, axis label, notes.
    pub fn draw_under(&self, c: &Canvas, l: &Layout) -> Result<(), PlotError> {
        if !self.title.is_empty() {
            let max_chars = ((l.width - 2.0 * MARGIN) / (TITLE_PX * 0.62)) as usize;
            let title = text::truncate(self.title, max_chars.max(8));
            c.text(
                &title,
                l.width / 2.0,
                MARGIN + TITLE_PX / 2.0 + 2.0,
                Anchor::Middle,
                Font::new(TITLE_PX, palette::TEXT).bold(),
            )?;
        }
        legend::draw(
            c,
            &self.legend,
            l.width / 2.0,
            l.legend_top,
            l.width - 2.0 * MARGIN,
        )?;
        let tick_font = Font::new(TICK_PX, palette::TEXT);
        for v in self.axis.ticks() {
            let y = self.y(l, v);
            c.line((l.left, y), (l.right, y), palette::GRID, 1)?;
            c.line((l.left - 4.0, y), (l.left, y), palette::AXIS, 1)?;
            c.text(&self.axis.label(v), l.left - 7.0, y, Anchor::End, tick_font)?;
        }
        if !self.y_label.is_empty() {
            let label = text::truncate(
                self.y_label,
                ((l.bottom - l.top) / (AXIS_PX * 0.6)) as usize,
            );
            c.text(
                &label,
                MARGIN + AXIS_PX / 2.0,
                (l.top + l.bottom) / 2.0,
                Anchor::Middle,
                Font::new(AXIS_PX, palette::TEXT).vertical(),
            )?;
        }
        let note_font = Font::new(NOTE_PX, palette::NOTE).italic();
        for (i, line) in l.note_lines.iter().enumerate() {
            let y = l.bottom + self.band_h + NOTE_ROW * (i as f64 + 0.5);
            c.text(line, MARGIN, y, Anchor::Start, note_font)?;
        }
        Ok(())
    }

    /// Everything over the bars: the axes and the reference line.
    pub fn draw_over(
        &self,
        c: &Canvas,
        l: &Layout,
        reference: Option<f64>,
    ) -> Result<(), PlotError> {
        c.line((l.left, l.top), (l.left, l.bottom), palette::AXIS, 1)?;
        c.line((l.left, l.bottom), (l.right, l.bottom), palette::AXIS, 1)?;
        let base = self.axis.base();
        if base != self.axis.lo {
            let y = self.y(l, base);
            c.line((l.left, y), (l.right, y), palette::AXIS, 1)?;
        }
        if let Some(r) =
            reference.filter(|r| r.is_finite() && *r >= self.axis.lo && *r <= self.axis.hi)
        {
            let y = self.y(l, r);
            c.dashed((l.left, y), (l.right, y), palette::REFERENCE, 1)?;
        }
        Ok(())
    }
}
