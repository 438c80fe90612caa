//! Timing mode gives the same verified results as functional mode under every issue policy,
//! every fetch policy and both presets (the tensor-core programs on qv100 and rtx3070, the
//! presets with tensor units, instead), and repeated timed runs give bit-identical statistics.
//! The policies come from the timing model's registry (`warpsim_timing::policy::{ISSUE,
//! FETCH}`): a policy added there is in this matrix without touching it.
//!
//! Each built-in program's driver verifies every output against its CPU reference; here we
//! also require the launch count, printf text and warp/thread instruction counts to equal
//! functional mode's (instruction counts except for the [`INTERLEAVING_DEPENDENT`] programs).
//! Cost control (the whole matrix is every program × every issue × fetch pair × 2 presets):
//! the `basic` programs run every issue policy with fetch `rr` on both presets, plus one
//! issue policy with each other fetch policy (rotating); every other program runs two cells,
//! one per preset, whose issue and fetch policies rotate independently over the programs (so
//! every issue × fetch pair comes up, and every (preset, issue) and (preset, fetch) pair is
//! covered by several programs), plus the [`SMOKE`] cell (gtx480 / GTO) where the rotation
//! did not give it one: that is the CI smoke test of every set in timing mode.
//! `cargo test -p warpsim --test timing_matrix -- --ignored` runs all of it.
//! Cells run in parallel (rayon), each on its own device and one thread; then each smoke cell
//! runs again with its SMs stepped on 2 threads and must give the same statistics.
//!
//! Every cell's statistics must also equal the committed ones in [`GOLDEN`] bit for bit (a
//! SHA-256 digest of all launches' `TimingStats` as JSON, beside cycles and instructions for
//! people to read): a speed change must not move a single statistic. A deliberate model change
//! regenerates the file with `WARPSIM_BLESS=1 cargo test -p warpsim --test timing_matrix`
//! and says so in its commit.

use rayon::prelude::*;
use sha2::{Digest, Sha256};
use std::collections::BTreeMap;
use warpsim_core::config::GpuConfig;
use warpsim_core::device::{Device, DeviceOptions};
use warpsim_suite::{Outcome, Program, Size};
use warpsim_timing::engine::{device_options_for, TimingEngine};
use warpsim_timing::{PolicyKind, TimingStats};

use warpsim_timing::policy::{FETCH, ISSUE};

/// `ISSUE+FETCH` (or `ISSUE` for fetch `rr`).
fn scheduler(issue: usize, fetch: usize) -> String {
    match FETCH[fetch].name {
        "rr" => ISSUE[issue].name.to_string(),
        f => format!("{}+{f}", ISSUE[issue].name),
    }
}

/// Programs whose dynamic instruction count depends on the interleaving of threads (their
/// verified results do not): `bfs` (benign race: whether a thread still sees a neighbour
/// unvisited), `baws_pvc`/`baws_pvr` (atomicCAS linear probing retries), `baws_stn` (a
/// spinning grid barrier). Their warp/thread instruction counts may differ from functional
/// mode's; everything else about them must match.
const INTERLEAVING_DEPENDENT: [&str; 4] = ["bfs", "baws_pvc", "baws_pvr", "baws_stn"];

/// What must equal functional mode's outcome.
fn comparable(p: &Program, o: &Outcome) -> Outcome {
    if INTERLEAVING_DEPENDENT.contains(&p.name) {
        Outcome {
            warp_instructions: 0,
            thread_instructions: 0,
            ..o.clone()
        }
    } else {
        o.clone()
    }
}
const PRESETS: [&str; 2] = ["gtx480", "titanx-pascal"];
/// Where the tensor-core programs (`Program::tensor_cores`, set `tensor`) run instead: the
/// presets above have no tensor units and skip them.
const TENSOR_PRESETS: [&str; 2] = ["qv100", "rtx3070"];

/// The (preset, policy) every program of every set runs under: the BAWS paper's GPU and the
/// policy `warpsim intensity` and `suite` default to.
const SMOKE: (&str, &str) = ("gtx480", "gto");

/// Whether this is `p`'s smoke cell ([`SMOKE`]; a tensor-core program's is on the first preset
/// with tensor units). The matrix runs every cell on one thread, then each smoke cell again on
/// 2 threads, which must give the same statistics.
fn is_smoke(p: &Program, preset: &str, policy: &str) -> bool {
    let smoke_preset = if p.tensor_cores {
        TENSOR_PRESETS[0]
    } else {
        SMOKE.0
    };
    (preset, policy) == (smoke_preset, SMOKE.1)
}

/// Held by each test that runs many timed simulations, so that they take turns: each uses
/// every core itself, and a test stepping one launch on several threads would crawl beside
/// another keeping the cores busy.
static HEAVY: std::sync::Mutex<()> = std::sync::Mutex::new(());

fn heavy() -> std::sync::MutexGuard<'static, ()> {
    HEAVY
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
}

fn declare_registers(dev: &mut Device, p: &Program) {
    for k in p.resources().unwrap_or_else(|e| panic!("{}: {e}", p.name)) {
        dev.set_kernel_registers(&k.name, k.registers);
    }
}

fn functional(p: &Program) -> Outcome {
    let mut dev = Device::with_options(DeviceOptions::default());
    (p.run)(&mut dev, Size::Small).unwrap_or_else(|e| panic!("{} functional: {e}", p.name))
}

/// Runs `p` in timing mode; returns the outcome and the per-launch statistics.
fn timed(p: &Program, preset: &str, policy: &str) -> Result<(Outcome, Vec<TimingStats>), String> {
    timed_on(p, preset, policy, 1)
}

/// [`timed`] with the SMs of each cycle stepped on `threads` threads.
fn timed_on(
    p: &Program,
    preset: &str,
    policy: &str,
    threads: usize,
) -> Result<(Outcome, Vec<TimingStats>), String> {
    let (policy, shorthand) = PolicyKind::parse(policy).map_err(|e| e.to_string())?;
    let cfg = GpuConfig::load_with(preset, &shorthand.into_iter().collect::<Vec<_>>())
        .map_err(|e| e.to_string())?;
    let mut dev = Device::with_options(device_options_for(&cfg, DeviceOptions::default()));
    let mut engine = TimingEngine::new(cfg, policy);
    engine.set_threads(threads);
    dev.set_engine(Box::new(engine));
    declare_registers(&mut dev, p);
    let outcome = (p.run)(&mut dev, Size::Small).map_err(|e| e.to_string())?;
    let records = dev.launch_records().to_vec();
    let stats = dev
        .engine_as_mut::<TimingEngine>()
        .expect("timing engine")
        .take_records();
    // The Device's records and the engine's agree launch by launch.
    assert_eq!(records.len(), stats.len());
    for (r, s) in records.iter().zip(&stats) {
        assert_eq!(
            (r.cycles, r.stats.warp_instructions, &r.kernel),
            (Some(s.cycles), s.warp_instructions, &s.identity.kernel)
        );
    }
    Ok((outcome, stats))
}

type Cell = (&'static Program, &'static str, String);

/// The committed statistics of the default matrix's cells (`program,preset,scheduler,
/// launches,cycles,warp_instructions,digest`).
const GOLDEN: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/timing_golden.csv");
const GOLDEN_HEADER: &str =
    "program,preset,scheduler,launches,cycles,warp_instructions,stats_sha256";

/// One cell's row of [`GOLDEN`]: the key and the rest of the line.
fn golden_row(p: &Program, preset: &str, policy: &str, stats: &[TimingStats]) -> (String, String) {
    let json = serde_json::to_vec(stats).expect("statistics serialise");
    let digest: String = Sha256::digest(&json)
        .iter()
        .take(12)
        .map(|b| format!("{b:02x}"))
        .collect();
    let cycles: u64 = stats.iter().map(|s| s.cycles).sum();
    let warp: u64 = stats.iter().map(|s| s.warp_instructions).sum();
    (
        format!("{},{preset},{policy}", p.name),
        format!("{},{cycles},{warp},{digest}", stats.len()),
    )
}

/// Compares the cells' rows with [`GOLDEN`] (or rewrites it under `WARPSIM_BLESS`); returns
/// one line per difference. With `subset`, cells the file does not list are not compared.
fn check_golden(rows: &BTreeMap<String, String>, subset: bool) -> Vec<String> {
    if std::env::var_os("WARPSIM_BLESS").is_some() && !subset {
        let mut text = format!("{GOLDEN_HEADER}\n");
        for (k, v) in rows {
            text.push_str(&format!("{k},{v}\n"));
        }
        std::fs::write(GOLDEN, text).expect("write the golden statistics");
        eprintln!("timing matrix: wrote {} rows to {GOLDEN}", rows.len());
        return Vec::new();
    }
    let text = std::fs::read_to_string(GOLDEN).unwrap_or_default();
    let mut want = BTreeMap::new();
    for line in text.lines().skip(1) {
        let parts: Vec<&str> = line.splitn(4, ',').collect();
        if let [p, preset, policy, rest] = parts[..] {
            want.insert(format!("{p},{preset},{policy}"), rest.to_string());
        }
    }
    let mut diffs = Vec::new();
    for (k, got) in rows {
        match want.get(k) {
            Some(w) if w == got => {}
            Some(w) => diffs.push(format!("{k}: statistics changed: committed launches,cycles,warp_instructions,digest {w}, now {got}")),
            None if subset => {}
            None => diffs.push(format!("{k}: not in {GOLDEN}")),
        }
    }
    if !subset {
        diffs.extend(
            want.keys()
                .filter(|k| !rows.contains_key(*k))
                .map(|k| format!("{k}: in {GOLDEN} but no longer a cell")),
        );
    }
    if !diffs.is_empty() {
        diffs.push("(a deliberate model change: WARPSIM_BLESS=1 cargo test -p warpsim --test timing_matrix)".into());
    }
    diffs
}

/// The (program, preset, scheduler) cells of the matrix; all of them when `full`.
fn cells(full: bool) -> Vec<Cell> {
    let mut cells = Vec::new();
    let mut rotate = 0;
    let (ni, nf) = (ISSUE.len(), FETCH.len());
    for p in warpsim_suite::programs() {
        let presets = if p.tensor_cores {
            TENSOR_PRESETS
        } else {
            PRESETS
        };
        if full {
            for preset in presets {
                for i in 0..ni {
                    for f in 0..nf {
                        cells.push((p, preset, scheduler(i, f)));
                    }
                }
            }
        } else if p.sets.contains(&"basic") {
            for preset in PRESETS {
                for i in 0..ni {
                    cells.push((p, preset, scheduler(i, 0)));
                }
                for f in 1..nf {
                    cells.push((p, preset, scheduler((rotate + f) % ni, f)));
                }
            }
            rotate += 1;
        } else {
            // Issue and fetch rotate independently: over ni × nf programs every pair comes up.
            let pick = |r: usize| scheduler(r % ni, r % nf);
            cells.push((p, presets[0], pick(rotate)));
            cells.push((p, presets[1], pick(rotate + 1)));
            if p.tensor_cores {
                // Their smoke cell: the first tensor preset under GTO.
                if pick(rotate) != SMOKE.1 {
                    cells.push((p, presets[0], SMOKE.1.to_string()));
                }
            } else if (presets[0], pick(rotate).as_str()) != SMOKE {
                cells.push((p, SMOKE.0, SMOKE.1.to_string()));
            }
            rotate += 1;
        }
    }
    cells
}

#[test]
fn timing_mode_matches_functional_mode_under_every_policy_and_preset() {
    check_matrix(false);
}

#[test]
#[ignore = "the full matrix takes many minutes; the default test covers every pair"]
fn full_matrix() {
    check_matrix(true);
}

fn check_matrix(full: bool) {
    let _turn = heavy();
    let start = std::time::Instant::now();
    let programs = warpsim_suite::programs();
    let reference: Vec<Outcome> = programs.par_iter().map(functional).collect();
    let cells = cells(full);
    let results: Vec<Result<(String, String), String>> = cells
        .par_iter()
        .map(|(p, preset, policy)| {
            let (p, preset, policy) = (*p, *preset, policy.as_str());
            let i = programs.iter().position(|q| q.name == p.name).unwrap();
            let want = &reference[i];
            match timed(p, preset, policy) {
                Err(e) => Err(format!("{} {preset}/{policy}: {e}", p.name)),
                Ok((got, stats)) => {
                    if comparable(p, &got) != comparable(p, want) {
                        return Err(format!("{} {preset}/{policy}: outcome {got:?} differs from functional {want:?}", p.name));
                    }
                    if stats.iter().any(|s| s.cycles == 0 || s.identity.config != preset) {
                        return Err(format!("{} {preset}/{policy}: bad statistics", p.name));
                    }
                    Ok(golden_row(p, preset, policy, &stats))
                }
            }
        })
        .collect();
    let mut failures: Vec<String> = results
        .iter()
        .filter_map(|r| r.as_ref().err().cloned())
        .collect();
    let rows: BTreeMap<String, String> = results.into_iter().filter_map(Result::ok).collect();
    // Each smoke cell again on 2 threads, one cell at a time: a team of threads stepping one
    // launch waits for its slowest member every cycle, so it must not share the cores with
    // the pool's other cells.
    for (p, preset, policy) in cells.iter().filter(|(p, pr, po)| is_smoke(p, pr, po)) {
        let key = format!("{},{preset},{policy}", p.name);
        let Some(one) = rows.get(&key) else {
            continue;
        };
        match timed_on(p, preset, policy, 2) {
            Err(e) => failures.push(format!("{key} on 2 threads: {e}")),
            Ok((_, stats)) => {
                let (_, two) = golden_row(p, preset, policy, &stats);
                if &two != one {
                    failures.push(format!("{key}: on 2 threads {two}, on one {one}"));
                }
            }
        }
    }
    if failures.is_empty() {
        failures.extend(check_golden(&rows, full));
    }
    // Every (preset, issue policy) and (preset, fetch policy) pair is exercised by the big
    // programs too, not just `basic`.
    let big = |preset: &str, keep: &dyn Fn(PolicyKind) -> bool| {
        cells
            .iter()
            .filter(|(p, pr, po)| {
                !p.sets.contains(&"basic")
                    && *pr == preset
                    && keep(PolicyKind::parse(po).unwrap().0)
            })
            .count()
    };
    for preset in PRESETS {
        for i in ISSUE {
            let n = big(preset, &|k| k.issue_name() == i.name);
            assert!(
                full || n >= 2,
                "{preset}/{} covers only {n} non-basic programs",
                i.name
            );
        }
        for f in FETCH {
            let n = big(preset, &|k| k.fetch.name() == f.name);
            assert!(
                full || n >= 2,
                "{preset}/fetch {} covers only {n} non-basic programs",
                f.name
            );
        }
    }
    // The smoke test: every program of every set runs, and verifies, under gtx480 / GTO (a
    // tensor-core program on the first preset with tensor units).
    for set in warpsim_suite::SETS {
        for p in warpsim_suite::set(set.name).unwrap() {
            assert!(
                cells
                    .iter()
                    .any(|(q, pr, po)| q.name == p.name && is_smoke(q, pr, po)),
                "{} ({}) has no {SMOKE:?} cell",
                p.name,
                set.name
            );
        }
    }
    eprintln!(
        "timing matrix: {} cells in {:.1} s",
        cells.len(),
        start.elapsed().as_secs_f64()
    );
    assert!(
        failures.is_empty(),
        "{} of {} cells failed:\n{}",
        failures.len(),
        cells.len(),
        failures.join("\n")
    );
}

#[test]
fn timed_runs_are_deterministic() {
    let _turn = heavy();
    for name in ["matmul", "histogram", "bfs"] {
        let p = warpsim_suite::program(name).unwrap();
        for policy in ["gto", "tls", "mwf-gto+cff", "saws+fef"] {
            let a = timed(p, "gtx480", policy).unwrap();
            let b = timed(p, "gtx480", policy).unwrap();
            assert_eq!(a.0, b.0, "{name}/{policy}: outcomes differ");
            assert_eq!(
                a.1, b.1,
                "{name}/{policy}: statistics differ between two runs"
            );
        }
    }
}

/// Statistics do not depend on how many threads step the SMs (`TimingOptions::threads`). The
/// matrix checks every program's smoke cell on 2 threads against its one-thread row
/// ([`is_smoke`]); here a sample with atomics, flag polling and many launches also runs on 3
/// and 8 threads (more threads than SMs with work, and than this machine's cores) under a
/// policy and fetch rule other than the smoke cell's.
#[test]
fn statistics_do_not_depend_on_the_thread_count() {
    let _turn = heavy();
    for name in ["bfs", "histogram", "matmul"] {
        let p = warpsim_suite::program(name).unwrap();
        let one = timed_on(p, "gtx480", "mwf-gto+cff", 1).unwrap();
        for threads in [3, 8] {
            let many = timed_on(p, "gtx480", "mwf-gto+cff", threads).unwrap();
            assert_eq!(one.0, many.0, "{name}: outcome on {threads} threads");
            assert_eq!(one.1, many.1, "{name}: statistics on {threads} threads");
        }
    }
}

#[test]
fn registers_limit_occupancy() {
    // matmul's ptxas report drives CTAs per SM; without it, registers do not limit.
    let p = warpsim_suite::program("matmul").unwrap();
    let cfg = GpuConfig::load("gtx480").unwrap();
    let run = |declare: Option<u32>| {
        let mut dev = Device::new();
        dev.set_engine(Box::new(TimingEngine::new(cfg.clone(), PolicyKind::GTO)));
        if let Some(r) = declare {
            for k in p.resources().unwrap() {
                dev.set_kernel_registers(&k.name, r);
            }
        }
        (p.run)(&mut dev, Size::Small).unwrap();
        let regs = dev.launch_records()[0].registers_per_thread;
        (
            regs,
            dev.engine_as::<TimingEngine>().unwrap().records()[0].ctas_per_sm,
        )
    };
    // 256-thread CTAs on gtx480: 6 by warps/threads; 63 registers → 32768 / (256 × 64) = 2.
    assert_eq!(run(None), (None, 6));
    assert_eq!(run(Some(63)), (Some(63), 2));
}
