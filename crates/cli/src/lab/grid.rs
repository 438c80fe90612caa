//! An experiment's results laid out as programs × series, each cell the run's record (or
//! nothing when a run is missing from the cache: `--collect` before every shard finished).

use super::record::RunRecord;
use super::runner::{runs_of, RunOptions};
use super::spec::{Experiment, Series};
use warpsim_timing::stat_table::{self as st, StatDef};

pub struct Grid<'a> {
    pub experiment: &'a Experiment,
    pub programs: Vec<&'static str>,
    pub series: Vec<Series>,
    /// `[program][series]`.
    cells: Vec<Vec<Option<RunRecord>>>,
    /// Planned runs with no record, as "program under series".
    pub missing: Vec<String>,
}

impl<'a> Grid<'a> {
    /// Looks every run of `e` up with `load` (by cache key).
    pub fn load(
        e: &'a Experiment,
        o: &RunOptions,
        load: impl Fn(&str) -> Option<RunRecord>,
    ) -> Result<Grid<'a>, String> {
        let programs = e.program_names()?;
        let series = e.series();
        let mut cells = vec![vec![None; series.len()]; programs.len()];
        let mut missing = Vec::new();
        for (i, r) in runs_of(e, o)?.into_iter().enumerate() {
            let (p, s) = (i / series.len(), i % series.len());
            match load(&r.key).filter(|rec| !r.phases || rec.phases.is_some() || !rec.ok()) {
                Some(rec) => cells[p][s] = Some(rec),
                None => missing.push(format!("{} under {}", programs[p], series[s].label)),
            }
        }
        Ok(Grid {
            experiment: e,
            programs,
            series,
            cells,
            missing,
        })
    }

    /// Builds a grid from records directly (tests).
    #[cfg(test)]
    pub fn from_cells(e: &'a Experiment, cells: Vec<Vec<Option<RunRecord>>>) -> Grid<'a> {
        Grid {
            experiment: e,
            programs: e.program_names().unwrap(),
            series: e.series(),
            cells,
            missing: Vec::new(),
        }
    }

    pub fn series_index(&self, label: &str) -> Option<usize> {
        self.series.iter().position(|s| s.label == label)
    }

    pub fn program_index(&self, name: &str) -> Option<usize> {
        self.programs.iter().position(|p| *p == name)
    }

    pub fn record(&self, p: usize, s: usize) -> Option<&RunRecord> {
        self.cells[p][s].as_ref()
    }

    /// A verified run's statistic; `None` when the run is missing, failed or lacks it.
    pub fn stat(&self, p: usize, s: usize, d: &StatDef) -> Option<f64> {
        self.record(p, s).filter(|r| r.ok()).and_then(|r| r.stat(d))
    }

    /// Every record, programs outer, series inner.
    pub fn records(&self) -> impl Iterator<Item = (&'static str, &Series, &RunRecord)> {
        self.cells.iter().enumerate().flat_map(move |(p, row)| {
            row.iter().enumerate().filter_map(move |(s, r)| {
                r.as_ref().map(|r| (self.programs[p], &self.series[s], r))
            })
        })
    }

    /// The series a view shows: those named, else all (but `skip`, a view's baseline).
    pub fn shown(&self, named: &[String], skip: Option<usize>) -> Vec<usize> {
        if named.is_empty() {
            (0..self.series.len())
                .filter(|&s| Some(s) != skip)
                .collect()
        } else {
            named.iter().filter_map(|n| self.series_index(n)).collect()
        }
    }

    pub fn baseline(&self) -> Option<usize> {
        self.experiment
            .baseline
            .as_deref()
            .and_then(|b| self.series_index(b))
    }

    /// Series `s`'s speedup over the baseline for program `p` (see [`Grid::speedup_over`]).
    pub fn speedup(&self, p: usize, s: usize) -> Option<f64> {
        self.speedup_over(p, s, self.baseline()?)
    }

    /// Series `s`'s speedup over series `b` for program `p`: `b`'s cycles / `s`'s when both ran
    /// the same thread instructions, else `s`'s IPC / `b`'s (a policy that changes how often a
    /// spin loop or an atomic retry runs changes the work, and cycles alone would count the
    /// extra instructions as slowness; [`Grid::ipc_programs`] names such programs).
    pub fn speedup_over(&self, p: usize, s: usize, b: usize) -> Option<f64> {
        let (cb, cs) = (self.stat(p, b, &st::CYCLES)?, self.stat(p, s, &st::CYCLES)?);
        match (
            self.stat(p, b, &st::THREAD_INSTRUCTIONS),
            self.stat(p, s, &st::THREAD_INSTRUCTIONS),
        ) {
            (Some(ib), Some(is)) if ib != is => Some((is / cs) / (ib / cb)),
            _ => Some(cb / cs),
        }
    }

    /// The programs whose thread instruction count differs between series (their speedups
    /// are by IPC).
    pub fn ipc_programs(&self) -> Vec<&'static str> {
        (0..self.programs.len())
            .filter(|&p| {
                let counts: Vec<f64> = (0..self.series.len())
                    .filter_map(|s| self.stat(p, s, &st::THREAD_INSTRUCTIONS))
                    .collect();
                counts.windows(2).any(|w| w[0] != w[1])
            })
            .map(|p| self.programs[p])
            .collect()
    }

    /// The baseline of a speedup view: its own, else the experiment's.
    pub fn view_baseline(&self, own: &Option<String>) -> Option<usize> {
        match own {
            Some(b) => self.series_index(b),
            None => self.baseline(),
        }
    }

    /// The failed runs, as "program under series: error".
    pub fn failures(&self) -> Vec<String> {
        self.records()
            .filter_map(|(p, s, r)| {
                r.error
                    .as_ref()
                    .map(|e| format!("{p} under {}: {e}", s.label))
            })
            .collect()
    }
}

/// Geometric mean; `None` when empty or any value is missing or not positive (a failed run
/// is never silently left out of a mean). The charts' own mean, so tables and figures agree.
pub fn geomean(values: &[Option<f64>]) -> Option<f64> {
    let v: Option<Vec<f64>> = values.iter().copied().collect();
    crate::plot::geometric_mean(&v?)
}

/// Arithmetic mean with the same rule.
pub fn mean(values: &[Option<f64>]) -> Option<f64> {
    if values.is_empty() {
        return None;
    }
    let mut sum = 0.0;
    for v in values {
        sum += (*v)?;
    }
    Some(sum / values.len() as f64)
}

/// The largest value, with the same rule.
pub fn max(values: &[Option<f64>]) -> Option<f64> {
    let mut m: Option<f64> = None;
    for v in values {
        let v = (*v)?;
        m = Some(m.map_or(v, |x: f64| x.max(v)));
    }
    m
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn means_refuse_missing_values() {
        assert!((geomean(&[Some(2.0), Some(8.0)]).unwrap() - 4.0).abs() < 1e-12);
        assert_eq!(geomean(&[Some(2.0), None]), None);
        assert_eq!(geomean(&[Some(2.0), Some(0.0)]), None);
        assert_eq!(geomean(&[]), None);
        assert_eq!(mean(&[Some(1.0), Some(2.0)]), Some(1.5));
        assert_eq!(mean(&[Some(1.0), None]), None);
        assert_eq!(max(&[Some(1.0), Some(3.0), Some(2.0)]), Some(3.0));
        assert_eq!(max(&[Some(1.0), None]), None);
    }
}
