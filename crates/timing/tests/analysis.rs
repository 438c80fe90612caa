//! The analysis functions and the Chrome trace on real launches: a kernel with two barriers
//! whose warps loop different numbers of times before each (warp w: 4 + 8w iterations before
//! the first, 4 + 8(7 − w) before the second), run with the event log under GTO and LRR.
//! The crafted-input tests with exact values live beside each function
//! (`src/analysis/*.rs`); these check invariants that tie the analysis to the simulator's own
//! counters.
use crate::common;

use common::*;
use std::collections::BTreeMap;
use warpsim_timing::analysis::{self, PhaseEnd};
use warpsim_timing::stats::StallCounts;
use warpsim_timing::{trace, PolicyKind, TimingStats};

fn imbalanced_barriers() -> String {
    kernel(
        "",
        "shr.u32 %r10, %r5, 5;\nmul.lo.u32 %r11, %r10, 8;\nadd.u32 %r11, %r11, 4;\nmov.u32 %r12, 0;\n\
         LA:\nadd.u32 %r12, %r12, 1;\nsetp.lt.u32 %p1, %r12, %r11;\n@%p1 bra LA;\nbar.sync 0;\n\
         mov.u32 %r13, 7;\nsub.u32 %r13, %r13, %r10;\nmul.lo.u32 %r13, %r13, 8;\nadd.u32 %r13, %r13, 4;\nmov.u32 %r14, 0;\n\
         LB:\nadd.u32 %r14, %r14, 1;\nsetp.lt.u32 %p2, %r14, %r13;\n@%p2 bra LB;\nbar.sync 0;\n\
         add.u32 %r15, %r12, %r14;\nmul.wide.u32 %rd2, %r2, 4;\nadd.s64 %rd3, %rd1, %rd2;\nst.global.u32 [%rd3], %r15;",
    )
}

/// 40 CTAs of 8 warps (several CTAs per SM, and more CTAs than fit at once).
fn launch(policy: PolicyKind) -> TimingStats {
    EVENTS.with(|e| e.set(true));
    let o = run(
        &imbalanced_barriers(),
        40,
        256,
        40 * 256,
        Some((&gtx480(), policy)),
    );
    EVENTS.with(|e| e.set(false));
    assert_eq!(o.error, None);
    // Each thread looped (4 + 8w) + (4 + 8(7 − w)) = 64 times.
    assert!(o.out.iter().all(|&v| v == 64));
    o.stats.unwrap()
}

#[test]
fn phases_agree_with_the_stall_counters() {
    for policy in [PolicyKind::GTO, PolicyKind::LRR] {
        let s = launch(policy);
        let t = analysis::warp_phases(&s);
        assert_eq!(t.len(), s.warps.len(), "{policy:?}: one timeline per warp");
        let ctas: BTreeMap<u64, (u64, u64, u32)> = s
            .ctas
            .iter()
            .map(|c| (c.linear, (c.start, c.end, c.sm)))
            .collect();
        let records: BTreeMap<(u64, u32), (&StallCounts, u32, u32)> = s
            .warps
            .iter()
            .map(|w| ((w.cta, w.warp), (&w.stalls, w.slot, w.sm)))
            .collect();
        for w in &t {
            let (start, end, sm) = ctas[&w.cta];
            let (stalls, slot, rsm) = records[&(w.cta, w.warp)];
            assert_eq!(
                (w.cta_start, w.cta_end, w.sm, w.slot),
                (start, Some(end), sm, Some(slot))
            );
            assert_eq!(rsm, sm);
            // Two barriers and the exit.
            assert_eq!(w.phases.len(), 3);
            assert!(matches!(w.phases[0].ends_at, PhaseEnd::Barrier { .. }));
            assert_eq!(w.phases[2].ends_at, PhaseEnd::Exit);
            // Phases and waits tile the residency, in order, each phase at least a cycle.
            let mut at = start;
            for p in &w.phases {
                assert_eq!(p.start, at);
                assert!(p.end > p.start && p.wait_end >= p.end);
                at = p.wait_end;
            }
            assert_eq!(at, end);
            // The waits are exactly what the stall accounting charged.
            let barrier: u64 = w.phases[..2].iter().map(|p| p.wait()).sum();
            assert_eq!(
                barrier, stalls.barrier,
                "{policy:?} CTA {} warp {}",
                w.cta, w.warp
            );
            assert_eq!(w.phases[2].wait(), stalls.exit_wait + stalls.drain);
        }
    }
}

#[test]
fn rtru_fractions_and_spans_on_a_real_launch() {
    for policy in [PolicyKind::GTO, PolicyKind::LRR] {
        let s = launch(policy);
        let t = analysis::warp_phases(&s);
        let r = analysis::rtru(&t);
        assert_eq!(r.len(), 3 * s.ctas.len());
        for p in &r {
            assert!((0.0..=1.0).contains(&p.rtru), "{p:?}");
            assert_eq!(p.warps, 8);
            assert_eq!(p.exit, p.phase == 2);
        }
        // The loops make the first two phases imbalanced by design.
        let bars = analysis::rtru_summary(&r, false);
        assert_eq!(bars.phases, 2 * s.ctas.len() as u64);
        assert!(bars.mean > 0.1 && bars.pooled > 0.1, "{policy:?} {bars:?}");
        // Σ idle over the barrier phases = the barrier stall cycles (the slowest warp releases).
        let idle: u64 = r.iter().filter(|p| !p.exit).map(|p| p.idle).sum();
        assert_eq!(idle, s.stalls.barrier);

        let f = analysis::wait_fractions(&s);
        assert!((f.barrier + f.exit - s.barrier_exit_fraction()).abs() < 1e-12);
        assert!((f.barrier - s.barrier_stall_fraction).abs() < 1e-12);

        let spans = analysis::cta_spans(&s);
        assert_eq!(spans.len(), 40);
        assert!(spans
            .windows(2)
            .all(|w| (w[0].start, w[0].linear) < (w[1].start, w[1].linear)));
        let last = spans.last().unwrap();
        assert_eq!(analysis::last_cta_time(&s), Some(last.end - last.start));
        assert!(spans.iter().all(|c| c.start <= last.start));

        // Warps in flight integrate to Σ over warps of (finish + 1 − CTA start).
        let w = analysis::warps_in_flight(&t, s.cycles, 100);
        let integral: f64 = w
            .gpu
            .iter()
            .enumerate()
            .map(|(k, m)| m * (s.cycles.min((k as u64 + 1) * 100) - k as u64 * 100) as f64)
            .sum();
        let ctas: BTreeMap<u64, u64> = s.ctas.iter().map(|c| (c.linear, c.start)).collect();
        let expected: u64 = s.warps.iter().map(|r| r.done + 1 - ctas[&r.cta]).sum();
        assert!(
            (integral - expected as f64).abs() < 1e-6 * expected as f64,
            "{integral} vs {expected}"
        );
        // The same integral from the warp records alone (a warp starts with its CTA).
        let totals = analysis::InFlightTotals::of(&s);
        assert_eq!(totals.warp_cycles, expected);
        let sms = w
            .per_sm
            .iter()
            .filter(|v| v.iter().any(|&m| m > 0.0))
            .count() as u64;
        assert_eq!(totals.sm_cycles, s.cycles * sms);
        // Never more than the SM's warp slots (gtx480: 48) per SM.
        assert!(w.per_sm.iter().flatten().all(|&m| m <= 48.0 + 1e-9));

        let b = analysis::baws_breakdown(&s.stalls);
        assert_eq!(b.total() + b.not_selected, s.stalls.total());
        let i = analysis::issue_ratios(&s.issue);
        assert!((i.issued + i.idle + i.scoreboard + i.pipeline - 1.0).abs() < 1e-12);
        let l = &s.memory.l1d_loads;
        assert!(
            l.hits + l.misses + l.merged
                <= s.memory.l1d.hits + s.memory.l1d.misses + s.memory.l1d.merged
        );
    }
}

/// Checks that `v` is trace-event JSON whose "X" slices nest on every (pid, tid) track;
/// returns the number of slices.
pub fn check_trace(v: &serde_json::Value) -> usize {
    let text = serde_json::to_string(v).unwrap();
    let v: serde_json::Value = serde_json::from_str(&text).unwrap();
    let events = v["traceEvents"]
        .as_array()
        .expect("traceEvents is an array");
    // (pid, tid) -> slices (from, to, name)
    type Slices = Vec<(u64, u64, String)>;
    let mut tracks: BTreeMap<(u64, u64), Slices> = BTreeMap::new();
    for e in events {
        let ph = e["ph"].as_str().expect("every event has ph");
        assert!(e["name"].is_string() && e["pid"].is_u64(), "{e}");
        match ph {
            "X" => {
                let (ts, dur) = (
                    e["ts"].as_u64().expect("ts"),
                    e["dur"].as_u64().expect("dur"),
                );
                assert!(dur > 0, "{e}");
                tracks
                    .entry((e["pid"].as_u64().unwrap(), e["tid"].as_u64().expect("tid")))
                    .or_default()
                    .push((ts, ts + dur, e["name"].to_string()));
            }
            "M" | "C" => {}
            other => panic!("unexpected phase {other}"),
        }
    }
    let mut n = 0;
    for (track, mut slices) in tracks {
        slices.sort_by_key(|&(from, to, _)| (from, std::cmp::Reverse(to)));
        let mut open: Vec<(u64, u64, String)> = Vec::new();
        for s in slices {
            while open.last().is_some_and(|o| o.1 <= s.0) {
                open.pop();
            }
            if let Some(o) = open.last() {
                assert!(
                    s.1 <= o.1,
                    "track {track:?}: {s:?} overlaps {o:?} without nesting"
                );
            }
            open.push(s);
            n += 1;
        }
    }
    n
}

#[test]
fn trace_slices_nest_on_every_track() {
    let a = launch(PolicyKind::GTO);
    let b = launch(PolicyKind::LRR);
    let v = trace::chrome_trace(&[a.clone(), b.clone()]);
    // Per warp: its CTA, 3 phases, and the non-empty waits.
    let waits = |s: &TimingStats| {
        analysis::warp_phases(s)
            .iter()
            .flat_map(|t| t.phases.clone())
            .filter(|p| p.wait() > 0)
            .count()
    };
    assert_eq!(
        check_trace(&v),
        4 * (a.warps.len() + b.warps.len()) + waits(&a) + waits(&b)
    );
    assert_eq!(v["otherData"]["kernels"], serde_json::json!(["k", "k"]));
}
