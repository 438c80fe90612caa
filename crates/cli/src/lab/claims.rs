//! The paper's claims beside our numbers: each claim's measure evaluated on the grid, and a
//! verdict that weighs size as well as direction (above or below the claim's neutral value,
//! e.g. 1.0 for a speedup):
//! - **agrees**: the same direction as the paper and at least a third of the paper's effect
//!   (distance from neutral); a claim whose paper value is itself flat agrees when ours is flat;
//! - **agrees in sign only**: the same direction, less than a third of the effect;
//! - **flat**: ours within ±[`FLAT`] of neutral;
//! - **disagrees**: the other direction.

use std::fmt;

use super::grid::{geomean, max, mean, Grid};
use super::spec::{Claim, Measure};
use super::table::{mean_stat, stat_cell};

/// Closer than this to the neutral value counts as neither direction (±0.5% of a speedup).
pub const FLAT: f64 = 0.005;

/// "Agrees" needs at least this share of the paper's effect.
pub const SIZE_SHARE: f64 = 1.0 / 3.0;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Direction {
    Agrees,
    /// Same direction, less than [`SIZE_SHARE`] of the paper's effect.
    SignOnly,
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
            Direction::SignOnly => "agrees in sign only",
            Direction::Disagrees => "**disagrees**",
            Direction::Flat => "flat (within ±0.5%)",
            Direction::NotApplicable => "–",
        }
    }

    /// The verdict on `ours` against the paper's `paper`, both measured from `neutral`.
    pub fn of(ours: f64, paper: f64, neutral: f64) -> Direction {
        let (o, p) = (ours - neutral, paper - neutral);
        if o.abs() < FLAT {
            if p.abs() < FLAT {
                Direction::Agrees
            } else {
                Direction::Flat
            }
        } else if (o > 0.0) != (p > 0.0) {
            Direction::Disagrees
        } else if o.abs() >= SIZE_SHARE * p.abs() {
            Direction::Agrees
        } else {
            Direction::SignOnly
        }
    }
}

/// How many claims got each verdict.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    pub agrees: usize,
    pub sign_only: usize,
    pub flat: usize,
    pub disagrees: usize,
    /// No direction or no number.
    pub other: usize,
}

impl Tally {
    pub fn add(&mut self, d: Direction) {
        match d {
            Direction::Agrees => self.agrees += 1,
            Direction::SignOnly => self.sign_only += 1,
            Direction::Flat => self.flat += 1,
            Direction::Disagrees => self.disagrees += 1,
            Direction::NotApplicable => self.other += 1,
        }
    }

    pub fn total(&self) -> usize {
        self.agrees + self.sign_only + self.flat + self.disagrees + self.other
    }

    /// The verdicts on an experiment's claims.
    pub fn of_claims(g: &Grid, claims: &[Claim]) -> Tally {
        let mut t = Tally::default();
        for c in claims {
            t.add(judge(g, c).direction);
        }
        t
    }
}

impl fmt::Display for Tally {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} claims: {} agree, {} agree in sign only, {} flat, {} disagree",
            self.total(),
            self.agrees,
            self.sign_only,
            self.flat,
            self.disagrees
        )?;
        if self.other > 0 {
            write!(f, ", {} without a verdict", self.other)?;
        }
        Ok(())
    }
}

pub struct Verdict {
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
            geomean(
                &programs
                    .map(|p| g.speedup_over(p, a, b))
                    .collect::<Vec<_>>(),
            )
        }
        Measure::Mean { series, stat } => {
            let s = g.series_index(series)?;
            mean(
                &programs
                    .map(|p| mean_stat(g, p, s, *stat))
                    .collect::<Vec<_>>(),
            )
        }
        Measure::Max { series, stat } => {
            let s = g.series_index(series)?;
            max(&programs
                .map(|p| mean_stat(g, p, s, *stat))
                .collect::<Vec<_>>())
        }
        Measure::MeanDifference { a, b, stat } => {
            let (a, b) = (g.series_index(a)?, g.series_index(b)?);
            let col = |s: usize| {
                mean(
                    &programs
                        .clone()
                        .map(|p| mean_stat(g, p, s, *stat))
                        .collect::<Vec<_>>(),
                )
            };
            Some(col(a)? - col(b)?)
        }
        Measure::Program { program, series } => {
            g.speedup(g.program_index(program)?, g.series_index(series)?)
        }
        Measure::StatRatio {
            a,
            b,
            stat,
            program,
        } => {
            let (a, b) = (g.series_index(a)?, g.series_index(b)?);
            match program {
                Some(p) => stat_cell(g, g.program_index(p)?, a, stat.0.stat, Some(b)),
                None => geomean(
                    &programs
                        .map(|p| stat_cell(g, p, a, stat.0.stat, Some(b)))
                        .collect::<Vec<_>>(),
                ),
            }
        }
    }
}

pub fn judge(g: &Grid, c: &Claim) -> Verdict {
    let ours = measure(g, &c.ours);
    let direction = match (ours, c.neutral) {
        (Some(o), Some(n)) => Direction::of(o, c.paper, n),
        _ => Direction::NotApplicable,
    };
    Verdict { ours, direction }
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeMap;

    use super::*;
    use crate::lab::grid::Grid;
    use crate::lab::record::RunRecord;
    use crate::lab::spec::{Experiment, MeanStat, ViewStat};
    use crate::lab::table::{table, Format};

    const SPEC: &str = r#"
name = "t"
programs = ["baws_sp", "baws_bt"]
schedulers = ["lrr", "gto", "saws"]
baseline = "lrr"
views = [{ kind = "speedup" }, { kind = "fractions" }]
"#;

    fn rec(cycles: Option<f64>, barrier: f64) -> Option<RunRecord> {
        let mut stats = BTreeMap::new();
        stats.insert("fraction.barrier".to_string(), barrier);
        stats.insert("fraction.exit".to_string(), 0.01);
        if let Some(c) = cycles {
            stats.insert("cycles".to_string(), c);
        }
        Some(RunRecord {
            key: String::new(),
            program: String::new(),
            scheduler: String::new(),
            config: "gtx480".into(),
            variant: String::new(),
            overrides: Vec::new(),
            size: "small".into(),
            simulator: String::new(),
            error: cycles.is_none().then(|| "mismatch".to_string()),
            stats,
            phases: None,
            cta_order: None,
            cta_spans: None,
            wall_seconds: 0.0,
        })
    }

    fn claim(ours: Measure, paper: f64, neutral: Option<f64>) -> Claim {
        Claim {
            label: String::new(),
            ours,
            paper,
            neutral,
        }
    }

    /// The verdicts' boundaries: flat within ±0.5%, agreement needs a third of the effect.
    #[test]
    fn verdicts_weigh_size_and_sign() {
        let of = |o, p| Direction::of(o, p, 1.0);
        assert_eq!(
            of(1.008, 1.199),
            Direction::SignOnly,
            "KAWS on RN: +0.8% against +19.9%"
        );
        assert_eq!(of(1.07, 1.199), Direction::Agrees);
        assert_eq!(of(1.067, 1.199), Direction::Agrees, "just over a third");
        assert_eq!(of(1.0664, 1.2), Direction::SignOnly);
        assert_eq!(of(0.996, 1.169), Direction::Flat);
        assert_eq!(of(1.004, 1.003), Direction::Agrees, "both flat");
        assert_eq!(of(0.91, 1.169), Direction::Disagrees);
        assert_eq!(
            of(0.9, 0.8),
            Direction::Agrees,
            "below neutral on both sides"
        );
        assert_eq!(
            Direction::of(0.30, 0.45, 0.0),
            Direction::Agrees,
            "a difference claim"
        );
        let mut t = Tally::default();
        for d in [
            Direction::Agrees,
            Direction::SignOnly,
            Direction::SignOnly,
            Direction::Flat,
            Direction::Disagrees,
            Direction::NotApplicable,
        ] {
            t.add(d);
        }
        assert_eq!(
            t.to_string(),
            "6 claims: 1 agree, 2 agree in sign only, 1 flat, 1 disagree, 1 without a verdict"
        );
    }

    /// sp: LRR 1000, GTO 800 (1.25×), SAWS 1000; bt: LRR 1000, GTO 1250 (0.8×), SAWS failed.
    fn crafted_grid(e: &Experiment) -> Grid<'_> {
        Grid::from_cells(
            e,
            vec![
                vec![
                    rec(Some(1000.0), 0.2),
                    rec(Some(800.0), 0.3),
                    rec(Some(1000.0), 0.1),
                ],
                vec![
                    rec(Some(1000.0), 0.1),
                    rec(Some(1250.0), 0.2),
                    rec(None, 0.0),
                ],
            ],
        )
    }

    #[test]
    fn measures_on_a_crafted_grid() {
        let e = Experiment::from_toml(SPEC, "t.toml").unwrap();
        let g = crafted_grid(&e);
        let gm = |s: &str| measure(&g, &Measure::Geomean { series: s.into() });
        assert!((gm("gto").unwrap() - 1.0).abs() < 1e-12, "1.25 × 0.8 = 1");
        assert_eq!(gm("saws"), None, "a failed run empties the mean");
        let sp_gto = measure(
            &g,
            &Measure::Program {
                program: "baws_sp".into(),
                series: "gto".into(),
            },
        )
        .unwrap();
        assert!((sp_gto - 1.25).abs() < 1e-12);
        let diff = measure(
            &g,
            &Measure::MeanDifference {
                a: "gto".into(),
                b: "lrr".into(),
                stat: MeanStat::BarrierExit,
            },
        )
        .unwrap();
        assert!((diff - 0.1).abs() < 1e-12, "(0.31+0.21)/2 − (0.21+0.11)/2");
        let max = measure(
            &g,
            &Measure::Max {
                series: "gto".into(),
                stat: MeanStat::Barrier,
            },
        )
        .unwrap();
        assert!((max - 0.3).abs() < 1e-12);
    }

    #[test]
    fn directions_on_a_crafted_grid() {
        let e = Experiment::from_toml(SPEC, "t.toml").unwrap();
        let g = crafted_grid(&e);
        let up = |v| {
            judge(
                &g,
                &claim(
                    Measure::Program {
                        program: "baws_sp".into(),
                        series: "gto".into(),
                    },
                    v,
                    Some(1.0),
                ),
            )
            .direction
        };
        assert_eq!(up(1.1), Direction::Agrees);
        assert_eq!(up(0.9), Direction::Disagrees);
        assert_eq!(
            up(2.0),
            Direction::SignOnly,
            "+25% against +100%: under a third"
        );
        assert_eq!(
            judge(
                &g,
                &claim(
                    Measure::Geomean {
                        series: "gto".into()
                    },
                    1.1,
                    Some(1.0)
                )
            )
            .direction,
            Direction::Flat
        );
        assert_eq!(
            judge(
                &g,
                &claim(
                    Measure::Geomean {
                        series: "saws".into()
                    },
                    1.1,
                    Some(1.0)
                )
            )
            .direction,
            Direction::NotApplicable
        );
        assert_eq!(
            judge(
                &g,
                &claim(
                    Measure::Max {
                        series: "gto".into(),
                        stat: MeanStat::Barrier
                    },
                    0.6,
                    None
                )
            )
            .direction,
            Direction::NotApplicable
        );
    }

    #[test]
    fn tables_of_a_crafted_grid() {
        let e = Experiment::from_toml(SPEC, "t.toml").unwrap();
        let g = crafted_grid(&e);
        // The speedup table: baseline left out, failed cell and its GM empty.
        let t = table(&g, &e.views[0]).unwrap();
        assert_eq!(t.columns, ["gto", "saws"]);
        assert_eq!(t.rows[1].1[1], None);
        assert_eq!(t.summary[0].1[1], None);
        assert_eq!(Format::Ratio.show(t.summary[0].1[0]), "1.000");
        let f = table(&g, &e.views[1]).unwrap();
        assert_eq!(
            f.columns[..2],
            ["lrr barrier".to_string(), "lrr exit".to_string()]
        );
        assert_eq!(Format::Percent.show(f.summary[0].1[0]), "15.0%");
    }

    /// `stat` views and `stat-ratio` claims: raw values with a mean row, ratios to a baseline
    /// series with a GM row; a zero baseline value gives no ratio.
    #[test]
    fn stat_views_and_stat_ratio_claims() {
        let spec = r#"
name = "t"
programs = ["baws_sp", "baws_bt"]
schedulers = ["lrr", "gto"]
views = [{ kind = "stat", stat = "l1d.reservation_fails" }, { kind = "stat", stat = "l1d.reservation_fails", baseline = "lrr", series = ["gto"] }]
"#;
        let e = Experiment::from_toml(spec, "t.toml").unwrap();
        let with = |fails: f64| {
            let mut r = rec(Some(1000.0), 0.1).unwrap();
            r.stats.insert("l1d.reservation_fails".into(), fails);
            Some(r)
        };
        let g = Grid::from_cells(
            &e,
            vec![vec![with(100.0), with(400.0)], vec![with(0.0), with(50.0)]],
        );
        let raw = table(&g, &e.views[0]).unwrap();
        assert_eq!(raw.format, Format::Count);
        assert_eq!(raw.summary[0].1, [Some(50.0), Some(225.0)]);
        let rel = table(&g, &e.views[1]).unwrap();
        assert_eq!(rel.columns, ["gto"]);
        assert_eq!(rel.rows[0].1, [Some(4.0)]);
        assert_eq!(rel.rows[1].1, [None], "LRR had none: no ratio");
        assert_eq!(e.views[1].file_stem(), "l1d-reservation_fails-over-lrr");
        let ratio = |program: Option<&str>| {
            measure(
                &g,
                &Measure::StatRatio {
                    a: "gto".into(),
                    b: "lrr".into(),
                    stat: ViewStat::try_from("l1d.reservation_fails".to_string()).unwrap(),
                    program: program.map(String::from),
                },
            )
        };
        assert_eq!(ratio(Some("baws_sp")), Some(4.0));
        assert_eq!(ratio(None), None, "a missing ratio empties the mean");

        let bad = spec.replace(
            r#"stat = "l1d.reservation_fails" }, {"#,
            r#"stat = "l1d.nope" }, {"#,
        );
        let err = Experiment::from_toml(&bad, "t.toml").unwrap_err();
        assert!(
            err.contains("key `views[0]`: `stat`: \"l1d.nope\" is not one of cycles, ipc, l1d.load_miss_rate"),
            "{err}"
        );
    }

    /// An `issue-slots` view with a baseline: each series' idle, scoreboard and pipeline
    /// slots over the baseline's three together (KAWS Fig. 6); without one, the recorded
    /// shares of all slots.
    #[test]
    fn issue_slots_normalised_to_a_baseline() {
        let spec = r#"
name = "t"
programs = ["baws_sp"]
schedulers = ["lrr", "kaws"]
views = [{ kind = "issue-slots", baseline = "lrr" }, { kind = "issue-slots" }]
"#;
        let e = Experiment::from_toml(spec, "t.toml").unwrap();
        let with = |idle: f64, scoreboard: f64, pipeline: f64| {
            let mut r = rec(Some(1000.0), 0.1).unwrap();
            for (k, v) in [
                ("idle", idle),
                ("scoreboard", scoreboard),
                ("pipeline", pipeline),
            ] {
                r.stats.insert(format!("issue.{k}"), v);
                r.stats.insert(format!("issue.{k}_ratio"), v / 1000.0);
            }
            Some(r)
        };
        let g = Grid::from_cells(
            &e,
            vec![vec![with(100.0, 200.0, 100.0), with(100.0, 250.0, 50.0)]],
        );
        let t = table(&g, &e.views[0]).unwrap();
        assert_eq!(t.format, Format::Ratio);
        assert_eq!(
            t.columns[3..],
            [
                "kaws idle".to_string(),
                "kaws scoreboard".to_string(),
                "kaws pipeline".to_string()
            ]
        );
        assert_eq!(
            t.rows[0].1,
            [
                Some(0.25),
                Some(0.5),
                Some(0.25),
                Some(0.25),
                Some(0.625),
                Some(0.125)
            ]
        );
        assert_eq!(e.views[0].file_stem(), "issue-slots-over-lrr");
        let shares = table(&g, &e.views[1]).unwrap();
        assert_eq!(shares.format, Format::Percent);
        assert_eq!(shares.rows[0].1[4], Some(0.25));
        let bad = spec.replace(r#"baseline = "lrr" }"#, r#"baseline = "nope" }"#);
        assert!(Experiment::from_toml(&bad, "t.toml")
            .unwrap_err()
            .contains("views.baseline"));
    }
}
