//! One simulation's result as the experiment layer stores it: who ran (program, scheduler,
//! config, variant, size), whether its outputs verified, and its statistics as a flat,
//! sorted name → value map (the tidy CSV's rows), plus the warp phases of the first CTAs of
//! SM 0 when an RTRU or timeline view asked for them. Wall time is kept but never enters a
//! table: tables must be identical however and wherever the runs were made.
//!
//! This file is part of the cache's model fingerprint (`build.rs`): a change to what a record
//! holds invalidates cached runs.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use warpsim_timing::stat_table::{self as st, Launches, StatDef};
use warpsim_timing::{analysis, TimingStats};

use crate::stats_out::KernelRow;
use crate::workload::ProgramRun;

/// Bumped when the meaning of a stored statistic changes without a source change elsewhere.
pub const RECORD_FORMAT: u32 = 1;

/// One run's stored result.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct RunRecord {
    /// The cache key (see `key.rs`).
    pub key: String,
    pub program: String,
    /// The scheduler as the experiment names it.
    pub scheduler: String,
    pub config: String,
    /// Config variant label ("" for none) and its overrides.
    pub variant: String,
    pub overrides: Vec<String>,
    pub size: String,
    /// The simulator that made it: crate version + model fingerprint.
    pub simulator: String,
    /// `None` when the run verified; else why not (mismatch or simulation error).
    pub error: Option<String>,
    /// Statistic name → value (`stats_of`; `rtru` added by the runner with phases).
    pub stats: BTreeMap<String, f64>,
    /// Warp phases of the first CTAs of SM 0 in the longest launch, when recorded.
    #[serde(default)]
    pub phases: Option<Vec<Lane>>,
    /// The issue policy's CTA order on SM 0 of the longest launch every
    /// [`CTA_ORDER_PERIOD`] cycles, highest priority first (at most [`CTA_ORDER_RANKS`]),
    /// when phases are recorded; rows are empty for policies that keep no CTA order.
    #[serde(default)]
    pub cta_order: Option<Vec<OrderRow>>,
    /// The CTAs SM 0 ran in the longest launch, in dispatch order (at most
    /// [`CTA_SPANS_KEPT`]), for CTA-span figures (PRO Figure 2); recorded for every verified
    /// timed run (from the CTA records, no event log needed).
    #[serde(default)]
    pub cta_spans: Option<Vec<SpanRow>>,
    pub wall_seconds: f64,
}

/// The most SM-0 CTAs a record keeps spans of.
pub const CTA_SPANS_KEPT: usize = 64;

/// A CTA's residency on its SM: dispatched at `start`, slot freed at `end`.
#[derive(Clone, Copy, Debug, Serialize, Deserialize, PartialEq, Eq)]
pub struct SpanRow {
    pub cta: u64,
    pub start: u64,
    pub end: u64,
}

/// SM 0's CTA spans in the longest launch, dispatch order, the first [`CTA_SPANS_KEPT`].
pub fn sm0_cta_spans(rows: &[KernelRow]) -> Option<Vec<SpanRow>> {
    let s = longest_launch(rows)?.timing.as_ref()?;
    Some(
        analysis::cta_spans(s)
            .into_iter()
            .filter(|c| c.sm == 0)
            .take(CTA_SPANS_KEPT)
            .map(|c| SpanRow {
                cta: c.linear,
                start: c.start,
                end: c.end,
            })
            .collect(),
    )
}

/// PRO's Table IV samples its CTA order every 1000 cycles.
pub const CTA_ORDER_PERIOD: u64 = 1000;
/// The most ranks a record keeps per sample.
pub const CTA_ORDER_RANKS: usize = 16;

/// The CTA order (linear indices, highest priority first) in effect at `cycle`.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq, Eq)]
pub struct OrderRow {
    pub cycle: u64,
    pub order: Vec<u64>,
}

/// One warp's timeline: what it did from its CTA's start to its end.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq, Eq)]
pub struct Lane {
    pub cta: u64,
    pub warp: u32,
    pub segments: Vec<Segment>,
}

/// `[start, end)` in cycles of its launch.
#[derive(Clone, Copy, Debug, Serialize, Deserialize, PartialEq, Eq)]
pub struct Segment {
    pub start: u64,
    pub end: u64,
    pub kind: SegmentKind,
}

#[derive(Clone, Copy, Debug, Serialize, Deserialize, PartialEq, Eq)]
#[serde(tag = "kind", rename_all = "kebab-case")]
pub enum SegmentKind {
    /// Running phase `phase` (0 = from the CTA's start to its first barrier).
    Run {
        phase: u32,
    },
    BarrierWait,
    ExitWait,
}

impl RunRecord {
    pub fn ok(&self) -> bool {
        self.error.is_none()
    }

    /// Statistic `d`; `None` when the record lacks it (a failed or untimed run, or one that
    /// is undefined there) or records never hold it.
    pub fn stat(&self, d: &StatDef) -> Option<f64> {
        self.stats.get(d.record?).copied()
    }
}

/// The statistics of a run's launches, as stored: every statistic of
/// `warpsim_timing::stat_table` that records hold, by its record name (timing statistics only
/// when it ran in timing mode; the runner adds RTRU with phases).
pub fn stats_of(run: &ProgramRun) -> BTreeMap<String, f64> {
    let timed: Vec<&TimingStats> = run.rows.iter().filter_map(|r| r.timing.as_ref()).collect();
    let mut m = BTreeMap::new();
    let mut put = |d: &StatDef, v: f64| {
        if let Some(name) = d.record {
            m.insert(name.to_string(), v);
        }
    };
    put(&st::LAUNCHES, run.rows.len() as f64);
    if let Ok(o) = &run.result {
        put(&st::VALUES_CHECKED, o.values_checked as f64);
    }
    let launches = Launches::new(&timed);
    if launches.totals.cycles == 0 {
        // No timed launch: the instruction counts of the launch records (every mode).
        let sum = |f: fn(&KernelRow) -> u64| run.rows.iter().map(f).sum::<u64>() as f64;
        put(&st::WARP_INSTRUCTIONS, sum(|r| r.warp_instructions));
        put(&st::THREAD_INSTRUCTIONS, sum(|r| r.thread_instructions));
        return m;
    }
    for d in st::STATS {
        if let Some(v) = d.of_launches(&launches) {
            put(d, v);
        }
    }
    m
}

/// The launch with the most cycles (the one timelines and the last-CTA time describe).
pub fn longest_launch(rows: &[KernelRow]) -> Option<&KernelRow> {
    rows.iter().filter(|r| r.timing.is_some()).max_by_key(|r| {
        (
            r.timing.as_ref().map_or(0, |t| t.cycles),
            std::cmp::Reverse(r.launch),
        )
    })
}
