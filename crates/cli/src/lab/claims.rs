//! The paper's claims beside our numbers: each claim's measure evaluated on the grid, and
//! whether our direction (above or below the claim's neutral value, e.g. 1.0 for a speedup)
//! agrees with the paper's.

use super::grid::{geomean, max, mean, Grid};
use super::spec::{Claim, Measure};
use super::table::mean_stat;

/// Closer than this to the neutral value counts as neither direction (±0.5% of a speedup).
pub const FLAT: f64 = 0.005;

#[derive(Clone, Debug, PartialEq)]
pub enum Direction {
    Agrees,
    Disagrees,
    /// Ours is within [`FLAT`] of neutral.
    Flat,
    /// The claim has no direction (no neutral value) or we have no number.
    NotApplicable,
}

impl Direction {
    pub fn word(&self) -> &'static str {
        match self {
            Direction::Agrees => "agrees",
            Direction::Disagrees => "**disagrees**",
            Direction::Flat => "flat (within ±0.5%)",
            Direction::NotApplicable => "–",
        }
    }
}

pub struct Verdict<'c> {
    pub claim: &'c Claim,
    pub ours: Option<f64>,
    pub direction: Direction,
}

/// Our value of a measure; `None` when a run it needs failed or is missing.
pub fn measure(g: &Grid, m: &Measure) -> Option<f64> {
    let programs = 0..g.programs.len();
    match m {
        Measure::Geomean { series } => {
            let s = g.series_index(series)?;
            geomean(&programs.map(|p| g.speedup(p, s)).collect::<Vec<_>>())
        }
        Measure::GeomeanRatio { a, b } => {
            let (a, b) = (g.series_index(a)?, g.series_index(b)?);
            geomean(&programs.map(|p| Some(g.stat(p, b, "cycles")? / g.stat(p, a, "cycles")?)).collect::<Vec<_>>())
        }
        Measure::Mean { series, stat } => {
            let s = g.series_index(series)?;
            mean(&programs.map(|p| mean_stat(g, p, s, stat)).collect::<Vec<_>>())
        }
        Measure::Max { series, stat } => {
            let s = g.series_index(series)?;
            max(&programs.map(|p| mean_stat(g, p, s, stat)).collect::<Vec<_>>())
        }
        Measure::MeanDifference { a, b, stat } => {
            let (a, b) = (g.series_index(a)?, g.series_index(b)?);
            let col = |s: usize| mean(&programs.clone().map(|p| mean_stat(g, p, s, stat)).collect::<Vec<_>>());
            Some(col(a)? - col(b)?)
        }
        Measure::Program { program, series } => g.speedup(g.program_index(program)?, g.series_index(series)?),
    }
}

pub fn judge<'c>(g: &Grid, c: &'c Claim) -> Verdict<'c> {
    let ours = measure(g, &c.ours);
    let direction = match (ours, c.neutral) {
        (Some(o), Some(n)) if (o - n).abs() < FLAT => Direction::Flat,
        (Some(o), Some(n)) if (o > n) == (c.paper > n) => Direction::Agrees,
        (Some(_), Some(_)) => Direction::Disagrees,
        _ => Direction::NotApplicable,
    };
    Verdict { claim: c, ours, direction }
}
