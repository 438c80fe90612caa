//! Holds the timing model to the GPGPU-Sim comparison without GPGPU-Sim or nvcc: replays each
//! correlation program (`correlation/programs/NAME.toml`, its committed PTX) on every preset
//! and policy of the reference (`correlation/reference/gpgpusim.csv`, written by
//! `scripts/correlate.sh --update-reference`) and checks, per row:
//! - the measured launches execute exactly the reference's thread instructions (the replay
//!   still is the program warpsim ran when the reference was made);
//! - |our cycles / GPGPU-Sim's − 1| is within the row's recorded tolerance (today's gap plus
//!   a margin): a change that moves warpsim away from GPGPU-Sim fails here; one that closes a
//!   gap passes, and re-running the script records the smaller gap;
//! - the issue-slot split (issued / idle / scoreboard / pipeline, % of scheduler cycles) is
//!   within [`SPLIT_POINTS`] of GPGPU-Sim's in every part, or, on a row the reference already
//!   records farther off, no more than [`SPLIT_SLACK`] points farther than it records.

mod common;

use std::collections::BTreeMap;
use std::path::Path;

use common::*;

/// The issue-slot split target: every part within this many points of GPGPU-Sim's.
const SPLIT_POINTS: f64 = 5.0;
/// How much farther than the reference records a row already outside the target may drift.
const SPLIT_SLACK: f64 = 2.0;

struct RefRow {
    program: String,
    preset: String,
    policy: String,
    gpgpusim_cycles: u64,
    warpsim_insts: u64,
    tolerance: f64,
    /// GPGPU-Sim's issued / idle / scoreboard / pipeline %, and the largest part's gap the
    /// reference records for warpsim (`None`: a side without the split).
    split: Option<([f64; 4], f64)>,
}

/// A reference row's split, `issued_pct` and `idle/scoreboard/pipeline_pct` of one side.
fn split_of(issued: &str, rest: &str) -> Option<[f64; 4]> {
    let mut parts = rest.split('/').map(|x| x.parse::<f64>().ok());
    Some([
        issued.parse().ok()?,
        parts.next()??,
        parts.next()??,
        parts.next()??,
    ])
}

fn largest_gap(a: &[f64; 4], b: &[f64; 4]) -> f64 {
    a.iter()
        .zip(b)
        .map(|(x, y)| (x - y).abs())
        .fold(0.0, f64::max)
}

fn reference() -> Vec<RefRow> {
    let (head, rows) = read_csv("correlation/reference/gpgpusim.csv");
    csv_rows(&head, rows)
        // A row without both simulators' figures (a failed run) has no tolerance: nothing to hold.
        .filter(|r| {
            !r.get("tolerance").is_empty()
                && !r.get("gpgpusim_cycles").is_empty()
                && !r.get("warpsim_thread_insts").is_empty()
        })
        .map(|r| RefRow {
            program: r.get("program").to_string(),
            preset: r.get("preset").to_string(),
            policy: r.get("policy").to_string(),
            gpgpusim_cycles: r.get("gpgpusim_cycles").parse().unwrap(),
            warpsim_insts: r.get("warpsim_thread_insts").parse().unwrap(),
            tolerance: r.get("tolerance").parse().unwrap(),
            split: split_of(
                r.get("gpgpusim_issued_pct"),
                r.get("gpgpusim_idle/scoreboard/pipeline_pct"),
            )
            .zip(split_of(
                r.get("warpsim_issued_pct"),
                r.get("warpsim_idle/scoreboard/pipeline_pct"),
            ))
            .map(|(g, w)| (g, largest_gap(&g, &w))),
        })
        .collect()
}

/// What a replay measured over its measured launches (all but `setup_*`).
struct Replayed {
    cycles: u64,
    insts: u64,
    /// Issue slots: issued, idle, scoreboard, pipeline.
    slots: [u64; 4],
}

/// Replays row `r`'s program on its preset and policy.
fn replay(r: &RefRow, dir: &Path) -> Result<Replayed, String> {
    let stats = dir.join(format!("{}-{}-{}.json", r.program, r.preset, r.policy));
    let manifest = format!("{}.toml", r.program);
    // The preset as GPGPU-Sim's tested config has it (correlation/configs).
    let config = format!("../configs/{}.toml", r.preset);
    let args = [
        "run",
        "--config",
        &config,
        "--policy",
        &r.policy,
        "--stats",
        stats.to_str().unwrap(),
        &manifest,
    ];
    let run = warpsim(&args, &repo().join("correlation/programs"));
    if run.code != 0 {
        return Err(format!("exit {}: {}", run.code, run.all()));
    }
    let v: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&stats).map_err(|e| e.to_string())?)
            .map_err(|e| e.to_string())?;
    let mut got = Replayed {
        cycles: 0,
        insts: 0,
        slots: [0; 4],
    };
    for k in v["kernels"].as_array().ok_or("no kernels")? {
        if !k["kernel"].as_str().unwrap_or("").starts_with("setup_") {
            got.cycles += k["timing"]["cycles"].as_u64().ok_or("no cycles")?;
            got.insts += k["thread_instructions"]
                .as_u64()
                .ok_or("no thread_instructions")?;
            for (n, part) in got
                .slots
                .iter_mut()
                .zip(["issued", "idle", "scoreboard", "pipeline"])
            {
                *n += k["timing"]["issue"][part]
                    .as_u64()
                    .ok_or("no issue slots")?;
            }
        }
    }
    Ok(got)
}

#[test]
fn cycles_and_issue_slots_stay_within_the_recorded_gaps_to_gpgpusim() {
    let rows = reference();
    let mut programs: Vec<&str> = rows.iter().map(|r| r.program.as_str()).collect();
    programs.sort();
    programs.dedup();
    assert!(
        programs.len() >= 12,
        "the reference covers {} programs: {programs:?}",
        programs.len()
    );
    let dir = scratch("correlation");
    let threads = std::thread::available_parallelism()
        .map(|n| n.get())
        .unwrap_or(2);
    let next = std::sync::atomic::AtomicUsize::new(0);
    let results: BTreeMap<usize, Result<Replayed, String>> = std::thread::scope(|s| {
        let workers: Vec<_> = (0..threads)
            .map(|_| {
                s.spawn(|| {
                    let mut mine = Vec::new();
                    loop {
                        let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                        let Some(r) = rows.get(i) else { break };
                        mine.push((i, replay(r, &dir)));
                    }
                    mine
                })
            })
            .collect();
        workers
            .into_iter()
            .flat_map(|w| w.join().unwrap())
            .collect()
    });
    let mut failures = Vec::new();
    for (i, r) in rows.iter().enumerate() {
        let what = format!("{} {} {}", r.program, r.preset, r.policy);
        match &results[&i] {
            Err(e) => failures.push(format!("{what}: {e}")),
            Ok(Replayed {
                cycles,
                insts,
                slots,
            }) => {
                if let Some((gpgpusim, recorded)) = r.split {
                    let total = slots.iter().sum::<u64>().max(1) as f64;
                    let ours = slots.map(|n| 100.0 * n as f64 / total);
                    let gap = largest_gap(&gpgpusim, &ours);
                    let limit = SPLIT_POINTS.max(recorded + SPLIT_SLACK);
                    // (The reference rounds each part to 0.1 points.)
                    if gap > limit + 0.05 {
                        failures.push(format!(
                            "{what}: issue slots issued/idle/scoreboard/pipeline {ours:.1?} %, \
                             {gap:.1} points from GPGPU-Sim's {gpgpusim:?} (limit {limit:.1})"
                        ));
                    }
                }
                if *insts != r.warpsim_insts {
                    failures.push(format!(
                        "{what}: {insts} thread instructions, the reference ran {}",
                        r.warpsim_insts
                    ));
                }
                let ratio = *cycles as f64 / r.gpgpusim_cycles as f64;
                if (ratio - 1.0).abs() > r.tolerance {
                    failures.push(format!(
                        "{what}: {cycles} cycles = {ratio:.3} x GPGPU-Sim's {}, outside the recorded 1 ± {:.2}",
                        r.gpgpusim_cycles, r.tolerance
                    ));
                }
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} rows:\n{}",
        failures.len(),
        rows.len(),
        failures.join("\n")
    );
}
