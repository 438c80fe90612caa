//! Built-in workloads: `list workloads`, `run --workload`, `suite`, `bench`.

mod common;

use common::*;

#[test]
fn list_workloads_names_every_program() {
    let r = warpsim(&["list", "workloads"], &data());
    assert_code(&r, 0);
    for p in warpsim_suite::programs() {
        assert!(r.stdout.lines().any(|l| l.starts_with(p.name) && l.ends_with(p.summary)), "{}: {}", p.name, r.stdout);
    }
}

#[test]
fn run_workload_verifies() {
    let r = warpsim(&["run", "--workload", "scalar_prod", "--size", "small"], &data());
    assert_code(&r, 0);
    assert_contains(&r, "workload scalar_prod (small): verified,");
    assert_contains(&r, "warp instructions");
}

#[test]
fn run_workload_json() {
    let r = warpsim(&["run", "--workload", "dyn_shared", "--json"], &data());
    assert_code(&r, 0);
    let v: serde_json::Value = serde_json::from_str(&r.stdout).unwrap();
    assert_eq!(v["workload"], "dyn_shared");
    assert_eq!(v["ok"], true);
    assert!(v["launches"].as_u64().unwrap() >= 1);
    assert!(v["warp_instructions"].as_u64().unwrap() > 0);
}

#[test]
fn workload_instruction_limit_is_a_simulation_error() {
    let r = warpsim(&["run", "--workload", "matmul", "--max-warp-instructions", "100"], &data());
    assert_code(&r, 3);
    assert_contains(&r, "exceeded the limit of 100 warp instructions");
}

#[test]
fn unknown_workload_is_bad_input() {
    let r = warpsim(&["run", "--workload", "matmull"], &data());
    assert_code(&r, 2);
    assert_contains(&r, "unknown workload \"matmull\"; available: scalar_prod, matmul,");
    let r = warpsim(&["bench", "--repeat", "1", "--workload", "nope"], &data());
    assert_code(&r, 2);
}

#[test]
fn bad_command_lines_exit_2() {
    assert_code(&warpsim(&["run"], &data()), 2);
    assert_code(&warpsim(&["run", "x.toml", "--workload", "matmul"], &data()), 2);
    assert_code(&warpsim(&["run", "--workload", "matmul", "--size", "huge"], &data()), 2);
    assert_code(&warpsim(&["bench", "--repeat", "0"], &data()), 2);
    assert_code(&warpsim(&["frobnicate"], &data()), 2);
}

#[test]
fn suite_runs_every_program() {
    let r = warpsim(&["suite", "--size", "small"], &data());
    assert_code(&r, 0);
    let n = warpsim_suite::programs().len();
    assert_contains(&r, &format!("{n} of {n} workloads verified (small)"));
    for p in warpsim_suite::programs() {
        assert!(r.stdout.lines().any(|l| l.starts_with(p.name) && l.contains(" ok ")), "{}: {}", p.name, r.stdout);
    }
}

#[test]
fn bench_reports_rates() {
    let r = warpsim(&["bench", "--repeat", "3", "--size", "small", "--workload", "scalar_prod", "histogram"], &data());
    assert_code(&r, 0);
    assert_contains(&r, "median of 3 runs");
    assert_contains(&r, "M warp/s");
    assert!(r.stdout.lines().any(|l| l.starts_with("scalar_prod")), "{}", r.stdout);
    assert!(r.stdout.lines().any(|l| l.starts_with("histogram")), "{}", r.stdout);
    assert_contains(&r, "overall: ");

    let r = warpsim(&["bench", "--repeat", "1", "--size", "small", "--json"], &data());
    assert_code(&r, 0);
    let v: serde_json::Value = serde_json::from_str(&r.stdout).unwrap();
    let names: Vec<&str> = v["workloads"].as_array().unwrap().iter().map(|w| w["workload"].as_str().unwrap()).collect();
    assert_eq!(names, ["matmul", "scalar_prod"]);
    assert!(v["workloads"][0]["warp_instructions_per_second"].as_f64().unwrap() > 0.0);
}
