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

use crate::stats_out::{KernelRow, Totals};
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
    /// Statistic name → value; see [`stat_names`] for the set.
    pub stats: BTreeMap<String, f64>,
    /// Warp phases of the first CTAs of SM 0 in the longest launch, when recorded.
    #[serde(default)]
    pub phases: Option<Vec<Lane>>,
    pub wall_seconds: f64,
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
    Run { phase: u32 },
    BarrierWait,
    ExitWait,
}

impl RunRecord {
    pub fn ok(&self) -> bool {
        self.error.is_none()
    }

    pub fn stat(&self, name: &str) -> Option<f64> {
        self.stats.get(name).copied()
    }
}

/// The statistics of a run's launches, as stored (timing statistics only when it ran in
/// timing mode).
pub fn stats_of(run: &ProgramRun) -> BTreeMap<String, f64> {
    let t = Totals::of(&run.rows);
    let mut m = BTreeMap::new();
    let mut put = |k: &str, v: f64| {
        m.insert(k.to_string(), v);
    };
    put("launches", t.launches as f64);
    put("warp_instructions", t.warp_instructions as f64);
    put("thread_instructions", t.thread_instructions as f64);
    if let Ok(o) = &run.result {
        put("values_checked", o.values_checked as f64);
    }
    if t.cycles == 0 {
        return m;
    }
    put("cycles", t.cycles as f64);
    put("ipc", t.ipc);
    put("resident_warp_cycles", t.resident_warp_cycles as f64);
    let s = &t.stalls;
    for (k, v) in [
        ("data", s.data),
        ("structural", s.structural),
        ("barrier", s.barrier),
        ("exit_wait", s.exit_wait),
        ("drain", s.drain),
        ("control", s.control),
        ("fetch", s.fetch),
        ("not_selected", s.not_selected),
    ] {
        put(&format!("stall.{k}"), v as f64);
    }
    let i = &t.issue;
    for (k, v) in [("issued", i.issued), ("idle", i.idle), ("scoreboard", i.scoreboard), ("pipeline", i.pipeline)] {
        put(&format!("issue.{k}"), v as f64);
    }
    let resident = t.resident_warp_cycles.max(1) as f64;
    put("fraction.barrier", s.barrier as f64 / resident);
    put("fraction.exit", s.exit_wait as f64 / resident);
    let mut l1d = warpsim_timing::mem::CacheCounts::default();
    for r in run.rows.iter().filter_map(|r| r.timing.as_ref()) {
        l1d.add(&r.memory.l1d);
    }
    put("l1d.hits", l1d.hits as f64);
    put("l1d.misses", l1d.misses as f64);
    m
}

/// The launch with the most cycles (the one timelines show).
pub fn longest_launch(rows: &[KernelRow]) -> Option<&KernelRow> {
    rows.iter().filter(|r| r.timing.is_some()).max_by_key(|r| (r.timing.as_ref().map_or(0, |t| t.cycles), std::cmp::Reverse(r.launch)))
}
