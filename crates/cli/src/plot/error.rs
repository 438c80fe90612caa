//! The one error type of the plotting module: charts are drawn from data that came out of
//! simulations, so bad data is reported to the caller (who knows which run produced it)
//! instead of panicking halfway through a report.

use std::path::PathBuf;

#[derive(Debug, thiserror::Error)]
pub enum PlotError {
    /// Nothing to draw: no categories, no series, no lanes, no segments.
    #[error("nothing to plot: {0}")]
    Empty(&'static str),
    /// The nested data does not have the shape the labels promise.
    #[error("{what}: expected {expected} values, found {found}")]
    Shape {
        what: String,
        expected: usize,
        found: usize,
    },
    /// A value that has no meaning for this chart (a negative stack component, a fixed axis
    /// range with `lo >= hi`, a timeline segment that ends before it starts).
    #[error("invalid data: {0}")]
    Invalid(String),
    /// plotters failed to draw (does not happen with the in-memory SVG backend; kept so that
    /// its errors are not unwrapped).
    #[error("drawing failed: {0}")]
    Draw(String),
    #[error("writing {path}: {source}")]
    #[allow(dead_code)] // only `write_svg` makes it, and no report calls that yet
    Io {
        path: PathBuf,
        source: std::io::Error,
    },
}
