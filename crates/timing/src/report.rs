//! Statistics writers. Every scalar statistic is declared once in
//! [`crate::stat_table::STATS`] (names, unit, description, how it is computed); the text, CSV
//! and JSON writers show its per-launch ones ([`launch_stats`]), in its order. Totals over
//! several launches (run back to back) come from [`totals`].

use crate::stats::{LaunchIdentity, TimingStats};
use std::fmt::Write as _;
use std::time::Duration;

pub use crate::stat_table::{launch_stats, Kind, StatDef};

fn fmt_value(d: &StatDef, get: fn(&TimingStats) -> f64, s: &TimingStats) -> String {
    let v = get(s);
    match d.kind {
        Kind::Count => format!("{}", v as u64),
        Kind::Ratio => format!("{v:.6}"),
    }
}

/// Human-readable statistics of one launch: `name = value  # description` lines, then the
/// issued-by-active-lanes histogram (non-zero buckets).
pub fn text(s: &TimingStats) -> String {
    let mut out = format!(
        "kernel {} on {} ({} / fetch {})\n",
        warpsim_core::demangle(&s.identity.kernel),
        s.identity.config,
        s.identity.policy,
        s.identity.fetch_policy
    );
    for (d, get) in launch_stats() {
        let _ = writeln!(
            out,
            "{:<24} = {:>14}  # {}",
            d.name,
            fmt_value(d, get, s),
            d.description
        );
    }
    out.push_str("issued_by_active_lanes  =");
    for (i, n) in s.issued_lanes.iter().enumerate().filter(|(_, &n)| n > 0) {
        let _ = write!(out, " W{i}:{n}");
    }
    out.push('\n');
    out
}

/// CSV header: kernel, config, policy, then every [`launch_stats`] name, then `issued_w0 …
/// issued_w32`.
pub fn csv_header() -> Vec<String> {
    let names = ["kernel", "config", "policy", "fetch_policy"].map(String::from);
    names
        .into_iter()
        .chain(launch_stats().map(|(d, _)| d.name.to_string()))
        .chain((0..=32).map(|i| format!("issued_w{i}")))
        .collect()
}

/// One CSV row's fields for `s` (matching [`csv_header`]).
pub fn csv_row(s: &TimingStats) -> Vec<String> {
    let id = &s.identity;
    [
        warpsim_core::demangle(&id.kernel),
        id.config.clone(),
        id.policy.clone(),
        id.fetch_policy.clone(),
    ]
    .into_iter()
    .chain(launch_stats().map(|(d, get)| fmt_value(d, get, s)))
    .chain((0..=32).map(|i| s.issued_lanes.get(i).copied().unwrap_or(0).to_string()))
    .collect()
}

/// A CSV table: header, one row per launch, and a `total` row when there is more than one.
pub fn csv(stats: &[TimingStats]) -> String {
    let total = (stats.len() > 1).then(|| totals(stats));
    let rows = stats.iter().chain(&total).map(csv_row);
    csv_text(std::iter::once(csv_header()).chain(rows))
}

/// Records as CSV text through the `csv` crate: `\n` line ends, a field quoted only when it
/// holds a comma, a quote or a line break.
pub fn csv_text(records: impl IntoIterator<Item = Vec<String>>) -> String {
    let mut w = csv::WriterBuilder::new()
        .terminator(csv::Terminator::Any(b'\n'))
        .from_writer(Vec::new());
    for r in records {
        // Writing strings into memory cannot fail.
        w.write_record(&r).expect("CSV into memory");
    }
    let bytes = w.into_inner().expect("CSV into memory");
    String::from_utf8(bytes).expect("CSV of UTF-8 fields")
}

/// JSON of one launch: every field of [`TimingStats`] (serde) plus `descriptions`, the
/// name → description map of [`launch_stats`].
pub fn json(s: &TimingStats) -> serde_json::Value {
    let mut v = serde_json::to_value(s).unwrap_or(serde_json::Value::Null);
    if let serde_json::Value::Object(m) = &mut v {
        let d: serde_json::Map<String, serde_json::Value> = launch_stats()
            .map(|(d, _)| (d.name.to_string(), d.description.into()))
            .collect();
        m.insert("descriptions".into(), serde_json::Value::Object(d));
    }
    v
}

/// Sum of several launches run back to back: counts add, cycles add, IPC and the barrier
/// stall fraction are recomputed; per-CTA/per-warp records are concatenated (traces and
/// events are not); `kernel` is `total`. The sums are [`crate::analysis::Totals`]'s.
pub fn totals(stats: &[TimingStats]) -> TimingStats {
    totals_of(&stats.iter().collect::<Vec<_>>())
}

/// [`totals`] of launches held by reference (an experiment run's, whose event logs are not
/// copied for it).
pub fn totals_of(stats: &[&TimingStats]) -> TimingStats {
    let sum = crate::analysis::Totals::of(stats.iter().copied());
    let first =
        |f: fn(&TimingStats) -> &String| stats.first().map(|s| f(s).clone()).unwrap_or_default();
    let mut issued_lanes = sum.issued_lanes.clone();
    if issued_lanes.len() < 33 {
        issued_lanes.resize(33, 0);
    }
    TimingStats {
        identity: LaunchIdentity {
            kernel: "total".into(),
            config: first(|s| &s.identity.config),
            policy: first(|s| &s.identity.policy),
            fetch_policy: first(|s| &s.identity.fetch_policy),
        },
        cycles: sum.cycles,
        warp_instructions: sum.warp_instructions,
        thread_instructions: sum.thread_instructions,
        ipc: sum.ipc(),
        ctas_per_sm: sum.ctas_per_sm,
        issue: sum.issue,
        issue_per_scheduler: Vec::new(),
        issued_lanes,
        icache: sum.icache,
        shared_issues: sum.shared_issues,
        dual_issues: sum.dual_issues,
        bank_conflict_cycles: sum.bank_conflict_cycles,
        stalls: sum.stalls,
        memory: sum.memory,
        barrier_stall_fraction: sum.barrier_stall_fraction(),
        ctas: stats.iter().flat_map(|s| s.ctas.iter().cloned()).collect(),
        warps: stats.iter().flat_map(|s| s.warps.iter().cloned()).collect(),
        issue_trace: Vec::new(),
        events: Vec::new(),
    }
}

/// Σ over warps of their CTA's residency (end − start): the denominator of
/// `barrier_stall_fraction`.
pub fn resident_warp_cycles(s: &TimingStats) -> u64 {
    let mut warps = vec![
        0u64;
        s.ctas
            .iter()
            .map(|c| c.linear as usize + 1)
            .max()
            .unwrap_or(0)
    ];
    for w in &s.warps {
        if let Some(n) = warps.get_mut(w.cta as usize) {
            *n += 1;
        }
    }
    s.ctas
        .iter()
        .map(|c| (c.end - c.start) * warps[c.linear as usize])
        .sum()
}

/// GPGPU-Sim-style simulation rate lines for statistics `s` simulated in `wall` time.
pub fn simulation_rate(s: &TimingStats, wall: Duration) -> String {
    let secs = wall.as_secs_f64().max(1e-9);
    format!(
        "simulation time = {secs:.3} s\nsimulation rate = {:.0} warp-inst/s, {:.0} thread-inst/s, {:.0} cycles/s\n",
        s.warp_instructions as f64 / secs,
        s.thread_instructions as f64 / secs,
        s.cycles as f64 / secs
    )
}
