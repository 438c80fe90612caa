//! Holds warpsim's policy effects to the committed side-by-side with GPGPU-Sim
//! (`correlation/reference/policies.csv`, written by `scripts/policies-correlate.sh`) without
//! GPGPU-Sim or nvcc: replays each program's launch manifest (`correlation/policies/NAME.toml`,
//! its committed PTX) under the row's policy and baseline and checks that warpsim's speedup
//! (baseline cycles / policy cycles over the measured launches, `setup_*` left out; the IPC
//! ratio where the row's `metric` is `ipc`) is still the committed `warpsim_speedup` within
//! [`TOLERANCE`]. A deliberate model change that moves a speedup re-runs
//! `scripts/policies-correlate.sh --sides warpsim` (which keeps GPGPU-Sim's column) and commits
//! the CSV.

mod common;

use std::collections::BTreeMap;
use std::path::Path;

use common::*;

/// How far a replayed speedup may move from the committed one.
const TOLERANCE: f64 = 0.005;

struct Row {
    program: String,
    preset: String,
    policy: String,
    baseline: String,
    metric: String,
    warpsim_speedup: f64,
}

/// A replay: (program, preset, policy).
type Run = (String, String, String);

fn reference() -> Vec<Row> {
    let (head, rows) = read_csv("correlation/reference/policies.csv");
    csv_rows(&head, rows)
        .filter(|r| !r.get("warpsim_speedup").is_empty())
        .map(|r| Row {
            program: r.get("program").to_string(),
            preset: r.get("preset").to_string(),
            policy: r.get("policy").to_string(),
            baseline: r.get("baseline").to_string(),
            metric: r.get("metric").to_string(),
            warpsim_speedup: r.get("warpsim_speedup").parse().unwrap(),
        })
        .collect()
}

/// Cycles and thread instructions of the measured launches (all but `setup_*`) of `program`
/// under `policy` (cff with the empty-I-buffer rule, as the reference ran it).
fn replay(program: &str, preset: &str, policy: &str, dir: &Path) -> Result<(u64, u64), String> {
    let stats = dir.join(format!(
        "{program}-{preset}-{}.json",
        policy.replace('+', "_")
    ));
    let manifest = format!("{program}.toml");
    let config = format!("../configs/{preset}.toml");
    let mut args = vec![
        "run",
        "--config",
        &config,
        "--policy",
        policy,
        "--stats",
        stats.to_str().unwrap(),
    ];
    args.push(&manifest);
    let run = warpsim(&args, &repo().join("correlation/policies"));
    if run.code != 0 {
        return Err(format!("exit {}: {}", run.code, run.all()));
    }
    let v: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&stats).map_err(|e| e.to_string())?)
            .map_err(|e| e.to_string())?;
    let (mut cycles, mut insts) = (0, 0);
    for k in v["kernels"].as_array().ok_or("no kernels")? {
        if !k["kernel"].as_str().unwrap_or("").starts_with("setup_") {
            cycles += k["timing"]["cycles"].as_u64().ok_or("no cycles")?;
            insts += k["thread_instructions"]
                .as_u64()
                .ok_or("no thread_instructions")?;
        }
    }
    Ok((cycles, insts))
}

#[test]
fn policy_speedups_stay_as_recorded_beside_gpgpusim() {
    let rows = reference();
    assert!(rows.len() >= 20, "the reference has {} rows", rows.len());
    // Every distinct run once, in parallel.
    let mut runs: Vec<(String, String, String)> = Vec::new();
    for r in &rows {
        for p in [&r.policy, &r.baseline] {
            let k = (r.program.clone(), r.preset.clone(), p.clone());
            if !runs.contains(&k) {
                runs.push(k);
            }
        }
    }
    let dir = scratch("policies");
    let threads = std::thread::available_parallelism()
        .map(|n| n.get())
        .unwrap_or(2);
    let next = std::sync::atomic::AtomicUsize::new(0);
    let results: BTreeMap<Run, Result<(u64, u64), String>> = std::thread::scope(|s| {
        let workers: Vec<_> = (0..threads)
            .map(|_| {
                s.spawn(|| {
                    let mut mine = Vec::new();
                    loop {
                        let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                        let Some(k) = runs.get(i) else { break };
                        mine.push((k.clone(), replay(&k.0, &k.1, &k.2, &dir)));
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
    for r in &rows {
        let what = format!("{} {} {} vs {}", r.program, r.preset, r.policy, r.baseline);
        let get = |p: &str| &results[&(r.program.clone(), r.preset.clone(), p.to_string())];
        match (get(&r.policy), get(&r.baseline)) {
            (Err(e), _) | (_, Err(e)) => failures.push(format!("{what}: {e}")),
            (Ok((pc, pi)), Ok((bc, bi))) => {
                let speedup = if r.metric == "ipc" {
                    (*pi as f64 / *pc as f64) / (*bi as f64 / *bc as f64)
                } else {
                    if pi != bi {
                        failures.push(format!("{what}: {pi} against {bi} thread instructions, the reference compared cycles"));
                    }
                    *bc as f64 / *pc as f64
                };
                if (speedup - r.warpsim_speedup).abs() > TOLERANCE {
                    failures.push(format!(
                        "{what}: speedup {speedup:.4}, the reference has {:.4}",
                        r.warpsim_speedup
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
