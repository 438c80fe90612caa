//! Charts for experiment reports, written as SVG: grouped bars (speedup per program and
//! scheduler, with a geometric-mean group), stacked bars (stall breakdowns per program and
//! scheduler) and warp-phase timelines — the figure kinds of the BAWS paper — and a log-log
//! scatter plot with the y = x line (`warpsim correlate`: our cycles against GPGPU-Sim's).
//!
//! The charts take plain data (names and numbers, no simulator types), so a report builds
//! them from whatever it measured and the module stays testable on its own. Each returns
//! the SVG document as a `String` ([`write_svg`] saves it); bad data give a [`PlotError`],
//! a missing value (NaN, infinite) is left out and the chart says so in a note under it.
//! Output is deterministic: the same data give byte-identical SVG.
//!
//! plotters' SVG backend draws; the charts lay themselves out in pixels (`canvas.rs`), as
//! categories, stacks and lanes are not plotters' coordinate systems. Text is `<text>`, set
//! in the viewer's sans-serif font, so no font library is linked; widths are estimated
//! (`text.rs`).

mod canvas;
mod catlabels;
mod error;
mod frame;
mod geomean;
mod grouped;
mod legend;
mod palette;
mod scale;
mod scatter;
mod stacked;
mod text;
mod timeline;

#[cfg(test)]
mod review;
#[cfg(test)]
mod svg_check;

use std::path::Path;

pub use error::PlotError;
pub use geomean::geometric_mean;
#[allow(unused_imports)] // `bars` is not drawn by any report yet
pub use grouped::{bars, grouped_bars, Bars, GroupedBars, Series};
pub use scale::YRange;
pub use scatter::{scatter, Points, Scatter};
pub use stacked::{stacked_bars, StackedBars};
pub use timeline::{timeline, Lane, Segment, SegmentKind, Timeline};

/// Writes an SVG document made by one of the charts to `path`.
#[allow(dead_code)] // reports write their files themselves; the review renderer uses it
pub fn write_svg(path: &Path, svg: &str) -> Result<(), PlotError> {
    std::fs::write(path, svg).map_err(|source| PlotError::Io {
        path: path.to_path_buf(),
        source,
    })
}
