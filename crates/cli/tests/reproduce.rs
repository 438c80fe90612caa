//! `warpsim sweep` / `warpsim reproduce`: a small experiment end to end (two programs, two
//! schedulers), the result cache, shards assembled by `--collect` into the same tables as one
//! local run, failed and missing runs reported, bad sweep files refused with the key.

mod common;

use common::*;
use std::path::Path;

const SWEEP: &str = r#"
name = "mini"
title = "two programs, two schedulers"
programs = ["baws_sp", "baws_bt"]
schedulers = ["lrr", "gto"]
baseline = "lrr"
views = [{ kind = "speedup" }, { kind = "fractions" }, { kind = "stalls" }]
claims = [
  { label = "GTO over LRR", ours = { of = "geomean", series = "gto" }, paper = 1.084, neutral = 1.0 },
  { label = "mean barrier + exit under GTO", ours = { of = "mean", series = "gto", stat = "barrier+exit" }, paper = 0.37 },
]
"#;

fn read(dir: &Path, f: &str) -> String {
    std::fs::read_to_string(dir.join(f))
        .unwrap_or_else(|e| panic!("{}: {e}", dir.join(f).display()))
}

/// The files whose content must not depend on how the runs were made.
const TABLES: [&str; 5] = [
    "mini/speedup.csv",
    "mini/fractions.csv",
    "mini/stalls.csv",
    "mini/report.md",
    "mini/runs.csv",
];

#[test]
fn a_sweep_runs_caches_and_reports() {
    let dir = scratch("sweep-local");
    std::fs::write(dir.join("mini.toml"), SWEEP).unwrap();
    let r = warpsim(&["sweep", "mini.toml", "--out", "res", "--jobs", "2"], &dir);
    assert_code(&r, 0);
    assert_contains(&r, "4 runs: 4 simulated, 0 from the cache, 0 failed");
    assert_contains(&r, "mini: res/mini/report.md (2 claims: 1 agree, 0 agree in sign only, 0 flat, 0 disagree, 1 without a verdict)");

    let out = dir.join("res");
    let speedup = read(&out, "mini/speedup.csv");
    let lines: Vec<&str> = speedup.lines().collect();
    assert_eq!(lines[0], "program,gto");
    assert!(
        lines[1].starts_with("baws_sp,")
            && lines[2].starts_with("baws_bt,")
            && lines[3].starts_with("GM,"),
        "{speedup}"
    );
    // The GM row is the geometric mean of the two programs' speedups.
    let v = |l: &str| l.split(',').nth(1).unwrap().parse::<f64>().unwrap();
    assert!(
        (v(lines[3]) - (v(lines[1]) * v(lines[2])).sqrt()).abs() < 1e-9,
        "{speedup}"
    );
    // Each speedup is LRR's cycles over GTO's, as the tidy CSV's cycles say.
    let runs = read(&out, "mini/runs.csv");
    let cycles = |program: &str, series: &str| -> f64 {
        let row = runs
            .lines()
            .find(|l| l.starts_with(&format!("mini,{program},{series},")) && l.contains(",cycles,"))
            .unwrap();
        row.rsplit(',').next().unwrap().parse().unwrap()
    };
    assert!((v(lines[1]) - cycles("baws_sp", "lrr") / cycles("baws_sp", "gto")).abs() < 1e-12);
    let report = read(&out, "mini/report.md");
    for want in [
        "# two programs, two schedulers",
        "| GTO over LRR | 1.084 |",
        "| program | gto |",
        "| baws_bt |",
        "| mean |",
        "lrr barrier",
    ] {
        assert!(report.contains(want), "report lacks {want:?}:\n{report}");
    }

    // Again: everything comes from the cache, and the outputs are identical.
    let before: Vec<String> = TABLES.iter().map(|f| read(&out, f)).collect();
    let r = warpsim(&["sweep", "mini.toml", "--out", "res"], &dir);
    assert_code(&r, 0);
    assert_contains(&r, "4 runs: 0 simulated, 4 from the cache, 0 failed");
    assert_eq!(
        before,
        TABLES.iter().map(|f| read(&out, f)).collect::<Vec<_>>()
    );

    // Shards into another folder, then collect: the same tables as the local run.
    let r = warpsim(
        &["sweep", "mini.toml", "--out", "sharded", "--shard", "1/2"],
        &dir,
    );
    assert_code(&r, 0);
    assert_contains(&r, "2 runs (shard 1/2): 2 simulated");
    let r = warpsim(
        &["sweep", "mini.toml", "--out", "sharded", "--collect"],
        &dir,
    );
    assert_code(&r, 1);
    assert_contains(&r, "mini: 2 of 4 runs are missing");
    let r = warpsim(
        &["sweep", "mini.toml", "--out", "sharded", "--shard", "2/2"],
        &dir,
    );
    assert_code(&r, 0);
    let r = warpsim(
        &["sweep", "mini.toml", "--out", "sharded", "--collect"],
        &dir,
    );
    assert_code(&r, 0);
    let sharded = dir.join("sharded");
    assert_eq!(
        before,
        TABLES.iter().map(|f| read(&sharded, f)).collect::<Vec<_>>(),
        "sharded tables differ from the local run's"
    );
}

#[test]
fn failed_runs_are_reported_and_never_averaged() {
    let dir = scratch("sweep-fail");
    std::fs::write(dir.join("mini.toml"), SWEEP).unwrap();
    // baws_bt's longest launch takes more than 20000 cycles under LRR (20648) and fewer under
    // GTO (19148); baws_sp's fewer under both (17945 / 15499): one run fails the runaway
    // guard, the baseline's, so no speedup over LRR can be given for baws_bt, nor a mean over
    // the programs.
    let r = warpsim(
        &[
            "sweep",
            "mini.toml",
            "--out",
            "res",
            "--max-cycles",
            "20000",
        ],
        &dir,
    );
    assert_code(&r, 1);
    assert_contains(&r, "4 runs: 4 simulated, 0 from the cache, 1 failed");
    assert_contains(&r, "failed: baws_bt under lrr (gtx480): kernel `btFindRangeK(int const*, int const*, int const*, int const*, int const*, int const*, int*, int*, int, int)` did not finish within 20000 simulated cycles");
    let report = read(&dir.join("res"), "mini/report.md");
    assert!(
        report.contains("## Failed runs (1)") && report.contains("- baws_bt under lrr: kernel"),
        "{report}"
    );
    assert!(
        report.contains("| GTO over LRR | 1.084 | – (a run failed or is missing) | – |"),
        "{report}"
    );
    let speedup = read(&dir.join("res"), "mini/speedup.csv");
    assert!(
        speedup.contains("\nbaws_bt,\n") && speedup.contains("\nGM,\n"),
        "failed cell and the GM over it are empty:\n{speedup}"
    );
}

#[test]
fn bad_sweeps_and_names_are_refused_with_the_reason() {
    let dir = scratch("sweep-bad");
    std::fs::write(dir.join("bad.toml"), SWEEP.replace("\"gto\"]", "\"gtx\"]")).unwrap();
    let r = warpsim(&["sweep", "bad.toml", "--out", "res"], &dir);
    assert_code(&r, 2);
    assert_contains(&r, "bad.toml: key `schedulers`");
    std::fs::write(dir.join("typo.toml"), SWEEP.replace("baseline", "basline")).unwrap();
    let r = warpsim(&["sweep", "typo.toml", "--out", "res"], &dir);
    assert_code(&r, 2);
    assert_contains(&r, "basline");
    let r = warpsim(&["reproduce", "baws-fig99"], &dir);
    assert_code(&r, 2);
    assert_contains(&r, "unknown experiment \"baws-fig99\"");
    std::fs::write(dir.join("mini.toml"), SWEEP).unwrap();
    let r = warpsim(&["sweep", "mini.toml", "--shard", "3/2"], &dir);
    assert_code(&r, 2);
    assert_contains(&r, "--shard \"3/2\": expected I/N");
    let r = warpsim(&["sweep", "missing.toml"], &dir);
    assert_code(&r, 2);
    assert!(!dir.join("res").exists(), "nothing ran");
}

#[test]
fn reproduce_lists_every_builtin_and_prints_a_slurm_script() {
    let dir = scratch("reproduce-list");
    let r = warpsim(&["reproduce", "--list"], &dir);
    assert_code(&r, 0);
    for name in [
        "baws-fig1 ",
        "baws-fig3-6 ",
        "baws-fig5 ",
        "baws-fig8 ",
        "baws-fig9 ",
        "baws-fig10 ",
        "baws-ibuffer ",
        "baws-fig11 ",
        "baws-fig12 ",
        "baws-fig14 ",
        "baws ",
        "baws-fig12-14 ",
        "kaws-fig5 ",
        "kaws-table2 ",
        "kaws-fig6 ",
        "kaws ",
    ] {
        assert_contains(&r, name);
    }
    let r = warpsim(
        &[
            "reproduce",
            "baws-fig8",
            "--sbatch",
            "--tasks",
            "3",
            "--jobs",
            "2",
            "--out",
            "/shared/res",
        ],
        &dir,
    );
    assert_code(&r, 0);
    assert!(r.stdout.starts_with("#!/bin/bash\n"), "{}", r.stdout);
    assert_contains(&r, "--array=0-2 --cpus-per-task=2");
    assert_contains(&r, "reproduce baws-fig8 --out /shared/res --jobs 2");
    assert_contains(&r, "reproduce baws-fig8 --out /shared/res --collect");
}

/// PRO's Table IV: the CTA order a policy publishes, sampled every 1000 cycles from the run's
/// event log (the run records it because the view asks for it).
#[test]
fn a_cta_order_view_prints_the_policys_order() {
    let dir = scratch("reproduce-cta-order");
    let r = warpsim(&["reproduce", "pro-table4", "--out", "res"], &dir);
    assert_code(&r, 0);
    let report = read(&dir.join("res"), "pro-table4/report.md");
    assert!(
        report.contains("| cycle | rank 0 | rank 1 | rank 2 | rank 3 | rank 4 | rank 5 |"),
        "{report}"
    );
    let rows: Vec<&str> = report
        .lines()
        .filter(|l| l.starts_with("| ") && l.chars().nth(2).is_some_and(|c| c.is_ascii_digit()))
        .collect();
    assert_eq!(rows.len(), 20, "{report}");
    assert!(rows[0].starts_with("| 1000 | "), "{report}");
    // Five CTAs fit on an SM: the sixth rank is empty, in the report and in the CSV.
    assert!(rows.iter().all(|r| r.ends_with("| – |")), "{report}");
    let csv = read(&dir.join("res"), "pro-table4/cta-order-ispass_aes-pro.csv");
    assert!(
        csv.lines().nth(1).unwrap().starts_with("1000,")
            && csv.lines().nth(1).unwrap().ends_with(','),
        "{csv}"
    );
}
