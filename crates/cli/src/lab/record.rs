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

    pub fn stat(&self, name: &str) -> Option<f64> {
        self.stats.get(name).copied()
    }
}

/// The statistics of a run's launches, as stored (timing statistics only when it ran in
/// timing mode). Sums come from `analysis::Totals`, the timing crate's one implementation.
pub fn stats_of(run: &ProgramRun) -> BTreeMap<String, f64> {
    let timed: Vec<&TimingStats> = run.rows.iter().filter_map(|r| r.timing.as_ref()).collect();
    let t = analysis::Totals::of(timed.iter().copied());
    let mut m = BTreeMap::new();
    let mut put = |k: &str, v: f64| {
        m.insert(k.to_string(), v);
    };
    put("launches", run.rows.len() as f64);
    put(
        "warp_instructions",
        run.rows.iter().map(|r| r.warp_instructions).sum::<u64>() as f64,
    );
    put(
        "thread_instructions",
        run.rows.iter().map(|r| r.thread_instructions).sum::<u64>() as f64,
    );
    if let Ok(o) = &run.result {
        put("values_checked", o.values_checked as f64);
    }
    if t.cycles == 0 {
        return m;
    }
    put("cycles", t.cycles as f64);
    put("ipc", t.ipc());
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
    let b = analysis::baws_breakdown(s);
    for (name, v) in analysis::BawsBreakdown::NAMES.iter().zip(b.classes()) {
        put(&format!("baws.{name}"), v as f64);
    }
    put("baws.not_selected", b.not_selected as f64);
    let i = analysis::issue_ratios(&t.issue);
    for (k, slots, ratio) in [
        ("issued", t.issue.issued, i.issued),
        ("idle", t.issue.idle, i.idle),
        ("scoreboard", t.issue.scoreboard, i.scoreboard),
        ("pipeline", t.issue.pipeline, i.pipeline),
    ] {
        put(&format!("issue.{k}"), slots as f64);
        put(&format!("issue.{k}_ratio"), ratio);
    }
    let resident = t.resident_warp_cycles.max(1) as f64;
    put("fraction.barrier", s.barrier as f64 / resident);
    put("fraction.exit", s.exit_wait as f64 / resident);
    let l1d = analysis::l1d_load_miss_rate(&t.memory);
    put("l1d.load_hits", l1d.hits as f64);
    put("l1d.load_misses", (l1d.misses + l1d.merged) as f64);
    put("l1d.load_miss_rate", l1d.miss_rate);
    put(
        "l1d.reservation_fails",
        t.memory.l1d.reservation_fails as f64,
    );
    let mut in_flight = analysis::InFlightTotals::default();
    for s in &timed {
        in_flight.add(&analysis::InFlightTotals::of(s));
    }
    if let Some(w) = in_flight.issued_per_sm() {
        put("warps_in_flight", w);
    }
    if let Some(w) = in_flight.per_sm() {
        put("warps_resident", w);
    }
    if let Some(last) = longest_launch(&run.rows)
        .and_then(|r| r.timing.as_ref())
        .and_then(analysis::last_cta_time)
    {
        put("last_cta_cycles", last as f64);
    }
    if let Some(mean) = mean_last_cta_time(&timed) {
        put("last_cta_mean_cycles", mean);
    }
    let sh = &t.shared_issues;
    for (k, v) in [
        ("sp", sh.sp),
        ("sfu", sh.sfu),
        ("mem", sh.mem),
        ("total", sh.total()),
    ] {
        put(&format!("shared_issues.{k}"), v as f64);
    }
    m
}

/// The execution time of each launch's last-dispatched CTA, averaged over the launches (the
/// KAWS paper's Table 2 metric: per kernel, then the mean); `None` without a timed CTA.
pub fn mean_last_cta_time(launches: &[&TimingStats]) -> Option<f64> {
    let times: Vec<u64> = launches
        .iter()
        .filter_map(|s| analysis::last_cta_time(s))
        .collect();
    (!times.is_empty()).then(|| times.iter().sum::<u64>() as f64 / times.len() as f64)
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

#[cfg(test)]
mod tests {
    use super::*;
    use warpsim_timing::report;
    use warpsim_timing::stats::CtaRecord;

    /// A launch whose CTAs ran (dispatch, exit) as given, listed in exit order.
    fn launch(ctas: &[(u64, u64)]) -> TimingStats {
        let records = ctas
            .iter()
            .enumerate()
            .map(|(i, &(start, end))| CtaRecord {
                linear: i as u64,
                id: [i as u32, 0, 0],
                sm: 0,
                start,
                end,
            })
            .collect();
        TimingStats {
            cycles: ctas.iter().map(|c| c.1).max().unwrap_or(0),
            ctas: records,
            ..report::totals(&[])
        }
    }

    /// Per launch the last-dispatched CTA (not the last to exit), then the mean over launches.
    #[test]
    fn last_cta_time_is_averaged_over_launches() {
        let a = launch(&[(0, 50), (10, 30)]); // last dispatched: CTA 1, 20 cycles
        let b = launch(&[(0, 100), (5, 65)]); // CTA 1, 60 cycles
        assert_eq!(mean_last_cta_time(&[&a, &b]), Some(40.0));
        assert_eq!(mean_last_cta_time(&[&a]), Some(20.0));
        assert_eq!(mean_last_cta_time(&[&launch(&[])]), None);
        assert_eq!(mean_last_cta_time(&[]), None);
    }
}
