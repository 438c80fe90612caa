//! Statistics writers. Every scalar statistic is declared once in [`STATS`] (name, description,
//! how to read it); the text, CSV and JSON writers all use that table, so a new statistic is
//! one line here. Totals over several launches (run back to back) come from [`totals`].

use crate::stats::TimingStats;
use std::fmt::Write as _;
use std::time::Duration;

/// How a statistic is printed and summed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// An event count: printed as an integer; totals add.
    Count,
    /// A ratio: totals are recomputed from counts (see [`totals`]).
    Ratio,
}

/// One scalar statistic.
pub struct StatDef {
    pub name: &'static str,
    pub description: &'static str,
    pub kind: Kind,
    pub get: fn(&TimingStats) -> f64,
}

macro_rules! count {
    ($name:literal, $desc:literal, |$s:ident| $e:expr) => {
        StatDef {
            name: $name,
            description: $desc,
            kind: Kind::Count,
            get: |$s| $e as f64,
        }
    };
}

/// Every scalar statistic, in output order.
pub const STATS: &[StatDef] = &[
    count!(
        "cycles",
        "GPU core cycles from launch to the last CTA's exit",
        |s| s.cycles
    ),
    count!("warp_instructions", "warp instructions issued", |s| s
        .warp_instructions),
    count!(
        "thread_instructions",
        "thread instructions (active lanes of issued warp instructions)",
        |s| s.thread_instructions
    ),
    StatDef {
        name: "ipc",
        description: "warp instructions per cycle, whole GPU",
        kind: Kind::Ratio,
        get: |s| s.ipc,
    },
    count!("ctas_per_sm", "CTA slots per SM (occupancy)", |s| s
        .ctas_per_sm),
    count!(
        "issue_issued",
        "scheduler-cycles that issued an instruction",
        |s| s.issue.issued
    ),
    count!(
        "issue_idle",
        "scheduler-cycles with no warp holding an instruction it could try",
        |s| s.issue.idle
    ),
    count!(
        "issue_scoreboard",
        "scheduler-cycles where every warp with an instruction waited on the scoreboard",
        |s| s.issue.scoreboard
    ),
    count!(
        "issue_pipeline",
        "scheduler-cycles where a ready warp found its functional unit busy",
        |s| s.issue.pipeline
    ),
    count!(
        "stall_data",
        "warp-cycles held by the scoreboard (RAW/WAW on an in-flight result)",
        |s| s.stalls.data
    ),
    count!(
        "stall_structural",
        "warp-cycles ready but the unit busy, before the scheduler issued",
        |s| s.stalls.structural
    ),
    count!("stall_barrier", "warp-cycles waiting at a barrier", |s| s
        .stalls
        .barrier),
    count!(
        "stall_exit_wait",
        "warp-cycles finished, waiting for the CTA's other warps to finish",
        |s| s.stalls.exit_wait
    ),
    count!(
        "stall_drain",
        "warp-cycles of a finished CTA waiting for its memory instructions (stores) to complete",
        |s| s.stalls.drain
    ),
    count!(
        "stall_control",
        "warp-cycles with an I-buffer emptied by a control hazard",
        |s| s.stalls.control
    ),
    count!(
        "stall_fetch",
        "warp-cycles with an empty I-buffer otherwise",
        |s| s.stalls.fetch
    ),
    count!(
        "stall_not_selected",
        "warp-cycles ready but another warp was chosen",
        |s| s.stalls.not_selected
    ),
    StatDef {
        name: "barrier_stall_fraction",
        description: "barrier stall cycles / resident warp cycles",
        kind: Kind::Ratio,
        get: |s| s.barrier_stall_fraction,
    },
    count!(
        "shared_issues",
        "instructions issued by another scheduler than the warp's own (warp sharing, `+ws`)",
        |s| s.shared_issues.total()
    ),
    count!(
        "shared_issues_sp",
        "warp-sharing issues to an SP unit",
        |s| s.shared_issues.sp
    ),
    count!("shared_issues_sfu", "warp-sharing issues to an SFU", |s| s
        .shared_issues
        .sfu),
    count!(
        "shared_issues_mem",
        "warp-sharing issues to an LD/ST (MEM) unit",
        |s| s.shared_issues.mem
    ),
    count!(
        "icache_hits",
        "L1 I-cache fetches that found their line",
        |s| s.icache_hits
    ),
    count!(
        "icache_misses",
        "L1 I-cache fetches that missed (a line allocated, or merged into one in flight)",
        |s| s.icache_misses
    ),
    count!(
        "icache_reservation_fails",
        "L1 I-cache fetches refused: no MSHR entry, merge room, miss-queue slot or free way",
        |s| s.icache_reservation_fails
    ),
    count!(
        "bank_conflict_cycles",
        "extra operand-read cycles from register-bank conflicts",
        |s| s.bank_conflict_cycles
    ),
    count!(
        "dual_issues",
        "second instructions a scheduler issued in the same cycle (dual issue)",
        |s| s.dual_issues
    ),
    count!("l1d_hits", "L1 D-cache line accesses that hit", |s| s
        .memory
        .l1d
        .hits),
    count!(
        "l1d_misses",
        "L1 D-cache line accesses that missed (bypassing loads included) and went to L2",
        |s| s.memory.l1d.misses
    ),
    count!(
        "l1d_merged",
        "L1 D-cache misses merged into a miss in flight (MSHR hits)",
        |s| s.memory.l1d.merged
    ),
    count!(
        "l1d_reservation_fails",
        "LD/ST cycles an access retried: no L1 MSHR or miss-queue room",
        |s| s.memory.l1d.reservation_fails
    ),
    count!("const_hits", "constant-cache line accesses that hit", |s| s
        .memory
        .const_cache
        .hits),
    count!(
        "const_misses",
        "constant-cache line accesses that missed",
        |s| s.memory.const_cache.misses
    ),
    count!("tex_hits", "texture-cache line accesses that hit", |s| s
        .memory
        .tex
        .hits),
    count!(
        "tex_misses",
        "texture-cache line accesses that missed and went to L2",
        |s| s.memory.tex.misses
    ),
    count!(
        "l2_requests",
        "requests the SMs sent to L2 (reads, writes, atomics, I-cache misses)",
        |s| s.memory.l2_requests
    ),
    count!("l2_hits", "L2 accesses that hit", |s| s.memory.l2.hits),
    count!(
        "l2_misses",
        "L2 accesses that missed (reads went to DRAM; writes allocated)",
        |s| s.memory.l2.misses
    ),
    count!(
        "l2_merged",
        "L2 accesses merged into a DRAM read in flight",
        |s| s.memory.l2.merged
    ),
    count!(
        "l2_reservation_fails",
        "slice-cycles the head request waited for an MSHR or DRAM queue room",
        |s| s.memory.l2.reservation_fails
    ),
    count!(
        "l2_writebacks",
        "dirty L2 lines written back to DRAM",
        |s| s.memory.l2.writebacks
    ),
    count!(
        "dram_reads",
        "DRAM read requests (a line, or the sectors a miss asked for)",
        |s| s.memory.dram.reads
    ),
    count!(
        "dram_writes",
        "DRAM write requests (an evicted line)",
        |s| s.memory.dram.writes
    ),
    count!(
        "dram_row_hits",
        "DRAM requests served without an activate of their own (reads + writes - activates)",
        |s| s.memory.dram.row_hits
    ),
    count!("dram_activates", "DRAM row activations", |s| s
        .memory
        .dram
        .activates),
    count!(
        "dram_busy_cycles",
        "DRAM cycles the data buses carried data (summed over channels)",
        |s| s.memory.dram.busy_cycles
    ),
    count!(
        "icnt_flits",
        "flits carried by the interconnect (both directions)",
        |s| s.memory.icnt_flits
    ),
];

fn fmt_value(d: &StatDef, v: f64) -> String {
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
        warpsim_core::demangle(&s.kernel),
        s.config,
        s.policy,
        s.fetch_policy
    );
    for d in STATS {
        let _ = writeln!(
            out,
            "{:<24} = {:>14}  # {}",
            d.name,
            fmt_value(d, (d.get)(s)),
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

/// CSV header: kernel, config, policy, then every [`STATS`] name, then `issued_w0 …
/// issued_w32`.
pub fn csv_header() -> String {
    let mut h = String::from("kernel,config,policy,fetch_policy");
    for d in STATS {
        h.push(',');
        h.push_str(d.name);
    }
    for i in 0..=32 {
        let _ = write!(h, ",issued_w{i}");
    }
    h
}

fn csv_field(s: &str) -> String {
    if s.contains([',', '"', '\n']) {
        format!("\"{}\"", s.replace('"', "\"\""))
    } else {
        s.to_string()
    }
}

/// One CSV row for `s` (matching [`csv_header`]).
pub fn csv_row(s: &TimingStats) -> String {
    let kernel = warpsim_core::demangle(&s.kernel);
    let mut r = [&kernel, &s.config, &s.policy, &s.fetch_policy]
        .map(|x| csv_field(x))
        .join(",");
    for d in STATS {
        r.push(',');
        r.push_str(&fmt_value(d, (d.get)(s)));
    }
    for i in 0..=32 {
        let _ = write!(r, ",{}", s.issued_lanes.get(i).copied().unwrap_or(0));
    }
    r
}

/// A CSV table: header, one row per launch, and a `total` row when there is more than one.
pub fn csv(stats: &[TimingStats]) -> String {
    let mut out = csv_header();
    out.push('\n');
    for s in stats {
        out.push_str(&csv_row(s));
        out.push('\n');
    }
    if stats.len() > 1 {
        out.push_str(&csv_row(&totals(stats)));
        out.push('\n');
    }
    out
}

/// JSON of one launch: every field of [`TimingStats`] (serde) plus `descriptions`, the
/// name → description map of [`STATS`].
pub fn json(s: &TimingStats) -> serde_json::Value {
    let mut v = serde_json::to_value(s).unwrap_or(serde_json::Value::Null);
    if let serde_json::Value::Object(m) = &mut v {
        let d: serde_json::Map<String, serde_json::Value> = STATS
            .iter()
            .map(|d| (d.name.to_string(), d.description.into()))
            .collect();
        m.insert("descriptions".into(), serde_json::Value::Object(d));
    }
    v
}

/// Sum of several launches run back to back: counts add, cycles add, IPC and the barrier
/// stall fraction are recomputed; per-CTA/per-warp records are concatenated (traces and
/// events are not); `kernel` is `total`. The sums are [`crate::analysis::Totals`]'s.
pub fn totals(stats: &[TimingStats]) -> TimingStats {
    let sum = crate::analysis::Totals::of(stats);
    let first =
        |f: fn(&TimingStats) -> &String| stats.first().map(|s| f(s).clone()).unwrap_or_default();
    let mut issued_lanes = sum.issued_lanes.clone();
    if issued_lanes.len() < 33 {
        issued_lanes.resize(33, 0);
    }
    TimingStats {
        kernel: "total".into(),
        config: first(|s| &s.config),
        policy: first(|s| &s.policy),
        fetch_policy: first(|s| &s.fetch_policy),
        cycles: sum.cycles,
        warp_instructions: sum.warp_instructions,
        thread_instructions: sum.thread_instructions,
        ipc: sum.ipc(),
        ctas_per_sm: sum.ctas_per_sm,
        issue: sum.issue,
        issue_per_scheduler: Vec::new(),
        issued_lanes,
        icache_hits: sum.icache_hits,
        icache_misses: sum.icache_misses,
        icache_reservation_fails: sum.icache_reservation_fails,
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
