//! Chrome / Perfetto trace of timed launches (`warpsim run --trace FILE.json`): the JSON
//! trace-event format (`{"traceEvents": [...]}`), opened with ui.perfetto.dev or
//! chrome://tracing.
//!
//! - **Time**: `ts` and `dur` are GPU core cycles (viewers label them µs; `otherData.time_unit`
//!   says so). Launches follow one another: launch n starts at the sum of the earlier
//!   launches' cycles, as the totals count them.
//! - **Tracks**: one process per SM (`pid` = SM + 1, named "SM n"), one thread per warp slot
//!   (`tid` = slot + 1, named "slot n"; ids start at 1 because some viewers treat 0 as
//!   special), and per SM a counter track "resident CTAs" (a counter, because the CTAs of one
//!   SM overlap in time and overlapping slices cannot share a track).
//! - **Slices** ("X" events) on a warp slot's track: "CTA `<linear>`" over the CTA's residency,
//!   and inside it, one after another, "phase k" (the warp's phase, from
//!   [`analysis::warp_phases`](crate::analysis::warp_phases)), "barrier @pc" (its wait at the
//!   barrier at that PC) and, last, "exit wait" (finished, until the CTA ends). Empty waits
//!   are left out. Slices on one track nest and never partially overlap: phases and waits tile
//!   the CTA's residency, and a slot holds one CTA at a time.
//!
//! Built from the event log: launches run without `TimingOptions::event_log` give only the
//! counter tracks. Warps with no record of their slot are left out.

use crate::analysis::{warp_phases, PhaseEnd, WarpTimeline};
use crate::stats::TimingStats;
use serde_json::{json, Value};
use std::collections::{BTreeMap, BTreeSet};

/// The trace of `launches`, run back to back.
pub fn chrome_trace(launches: &[TimingStats]) -> Value {
    let mut events: Vec<Value> = Vec::new();
    let mut sms: BTreeSet<u32> = BTreeSet::new();
    let mut slots: BTreeSet<(u32, u32)> = BTreeSet::new();
    let mut offset = 0u64;
    for (launch, s) in launches.iter().enumerate() {
        sms.extend(s.ctas.iter().map(|c| c.sm));
        residency_counters(s, offset, &mut events);
        let ends: BTreeMap<u64, u64> = s.ctas.iter().map(|c| (c.linear, c.end)).collect();
        for t in warp_phases(s) {
            let Some(slot) = t.slot else { continue };
            sms.insert(t.sm);
            slots.insert((t.sm, slot));
            warp_slices(
                &t,
                slot,
                ends.get(&t.cta).copied(),
                offset,
                launch,
                &warpsim_core::demangle(&s.identity.kernel),
                &mut events,
            );
        }
        offset += s.cycles;
    }
    let mut meta: Vec<Value> = Vec::new();
    for &sm in &sms {
        meta.push(json!({"ph": "M", "name": "process_name", "pid": sm + 1, "args": {"name": format!("SM {sm}")}}));
        meta.push(json!({"ph": "M", "name": "process_sort_index", "pid": sm + 1, "args": {"sort_index": sm}}));
    }
    for &(sm, slot) in &slots {
        meta.push(json!({"ph": "M", "name": "thread_name", "pid": sm + 1, "tid": slot + 1, "args": {"name": format!("slot {slot}")}}));
        meta.push(json!({"ph": "M", "name": "thread_sort_index", "pid": sm + 1, "tid": slot + 1, "args": {"sort_index": slot}}));
    }
    meta.extend(events);
    let first = launches.first();
    json!({
        "traceEvents": meta,
        "displayTimeUnit": "ns",
        "otherData": {
            "time_unit": "cycles (ts and dur are GPU core cycles, shown by viewers as microseconds)",
            "config": first.map(|s| s.identity.config.as_str()),
            "policy": first.map(|s| s.identity.policy.as_str()),
            "fetch_policy": first.map(|s| s.identity.fetch_policy.as_str()),
            "kernels": launches.iter().map(|s| warpsim_core::demangle(&s.identity.kernel)).collect::<Vec<_>>(),
        },
    })
}

/// One "C" event per SM and cycle the number of resident CTAs changes.
fn residency_counters(s: &TimingStats, offset: u64, out: &mut Vec<Value>) {
    let mut delta: BTreeMap<(u32, u64), i64> = BTreeMap::new();
    for c in &s.ctas {
        *delta.entry((c.sm, c.start)).or_default() += 1;
        *delta.entry((c.sm, c.end)).or_default() -= 1;
    }
    let mut resident: BTreeMap<u32, i64> = BTreeMap::new();
    for ((sm, cycle), d) in delta {
        let n = resident.entry(sm).or_default();
        *n += d;
        out.push(json!({"ph": "C", "name": "resident CTAs", "pid": sm + 1, "ts": cycle + offset, "args": {"ctas": *n}}));
    }
}

/// The CTA slice and, nested in it, the warp's phases and waits.
fn warp_slices(
    t: &WarpTimeline,
    slot: u32,
    record_end: Option<u64>,
    offset: u64,
    launch: usize,
    kernel: &str,
    out: &mut Vec<Value>,
) {
    let (pid, tid) = (t.sm + 1, slot + 1);
    let last = t.phases.last().map_or(t.cta_start, |p| p.wait_end);
    let cta_end = t.cta_end.or(record_end).unwrap_or(last).max(last);
    let mut slice = |name: String, from: u64, to: u64, args: Value| {
        if to > from {
            out.push(json!({"ph": "X", "name": name, "pid": pid, "tid": tid, "ts": from + offset, "dur": to - from, "args": args}));
        }
    };
    slice(
        format!("CTA {}", t.cta),
        t.cta_start,
        cta_end,
        json!({"launch": launch, "kernel": kernel, "cta": t.cta, "warp": t.warp}),
    );
    for p in &t.phases {
        let (ends, wait) = match p.ends_at {
            PhaseEnd::Barrier { pc } => (format!("barrier @{pc}"), format!("barrier @{pc}")),
            PhaseEnd::Exit => ("exit".to_string(), "exit wait".to_string()),
        };
        slice(
            format!("phase {}", p.index),
            p.start,
            p.end,
            json!({"cta": t.cta, "warp": t.warp, "cycles": p.duration(), "ends_at": ends}),
        );
        slice(
            wait,
            p.end,
            p.wait_end,
            json!({"cta": t.cta, "warp": t.warp, "cycles": p.wait()}),
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::test_util::*;
    use crate::stats::{LogKind::*, StallCounts};

    #[test]
    fn slices_and_tracks_of_a_crafted_launch() {
        // CTA 0 on SM 1 over [10, 60); warp 0 (slot 4): phase 0 [10, 20), barrier wait
        // [20, 30), phase 1 [30, 50), exit wait [50, 60). Launched second, after a 100-cycle
        // launch with no events: everything shifts by 100.
        let mut s = empty();
        s.cycles = 60;
        s.ctas = vec![cta(0, 1, 10, 60)];
        s.warps = vec![warp(0, 0, 1, 4, StallCounts::default())];
        s.events = vec![
            ev(10, 1, CtaStart { cta: 0 }),
            ev(
                19,
                1,
                BarrierArrive {
                    cta: 0,
                    warp: 0,
                    pc: 7,
                },
            ),
            ev(29, 1, BarrierRelease { cta: 0, pc: 7 }),
            ev(49, 1, WarpFinish { cta: 0, warp: 0 }),
            ev(60, 1, CtaEnd { cta: 0 }),
        ];
        let mut before = empty();
        before.cycles = 100;
        let v = chrome_trace(&[before, s]);
        let evs = v["traceEvents"].as_array().unwrap();
        let x: Vec<(String, u64, u64)> = evs
            .iter()
            .filter(|e| e["ph"] == "X")
            .map(|e| {
                (
                    e["name"].as_str().unwrap().to_string(),
                    e["ts"].as_u64().unwrap(),
                    e["dur"].as_u64().unwrap(),
                )
            })
            .collect();
        let want = [
            ("CTA 0", 110, 50),
            ("phase 0", 110, 10),
            ("barrier @7", 120, 10),
            ("phase 1", 130, 20),
            ("exit wait", 150, 10),
        ];
        assert_eq!(x, want.map(|(n, t, d)| (n.to_string(), t, d)));
        assert!(evs
            .iter()
            .filter(|e| e["ph"] == "X")
            .all(|e| e["pid"] == 2 && e["tid"] == 5));
        let names: Vec<&str> = evs
            .iter()
            .filter(|e| e["ph"] == "M")
            .map(|e| e["args"]["name"].as_str().unwrap_or(""))
            .collect();
        assert!(
            names.contains(&"SM 1") && names.contains(&"slot 4"),
            "{names:?}"
        );
        let counters: Vec<(u64, i64)> = evs
            .iter()
            .filter(|e| e["ph"] == "C")
            .map(|e| {
                (
                    e["ts"].as_u64().unwrap(),
                    e["args"]["ctas"].as_i64().unwrap(),
                )
            })
            .collect();
        assert_eq!(counters, [(110, 1), (160, 0)]);
    }

    #[test]
    fn no_launches_is_an_empty_trace() {
        let v = chrome_trace(&[]);
        assert_eq!(v["traceEvents"], json!([]));
    }
}
