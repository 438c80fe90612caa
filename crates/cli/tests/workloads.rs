//! Built-in workloads: `list workloads|policies|configs`, `run --workload` with the model
//! options and `--stats`, `suite`, `bench`.

mod common;

use common::*;

#[test]
fn list_workloads_names_every_program() {
    let r = warpsim(&["list", "workloads"], &data());
    assert_code(&r, 0);
    for p in warpsim_suite::programs() {
        assert!(
            r.stdout
                .lines()
                .any(|l| l.starts_with(p.name) && l.ends_with(p.summary)),
            "{}: {}",
            p.name,
            r.stdout
        );
    }
}

#[test]
fn run_workload_verifies() {
    let r = warpsim(
        &["run", "--workload", "scalar_prod", "--size", "small"],
        &data(),
    );
    assert_code(&r, 0);
    assert_contains(
        &r,
        "workload scalar_prod (small, timing gtx480/gto): verified,",
    );
    assert_contains(&r, "warp instructions");
    assert_contains(&r, "\ncycles: ");
    assert_contains(&r, "issue slots: issued ");
    assert_contains(&r, "warp stall cycles: data ");
    assert_contains(&r, "memory: L1D miss rate ");
    // Thread IPC beside warp IPC, equal to thread instructions over cycles as printed.
    let number_after = |key: &str| -> f64 {
        let rest = &r.stdout[r
            .stdout
            .find(key)
            .unwrap_or_else(|| panic!("{key} in {}", r.stdout))
            + key.len()..];
        rest.split(|c: char| !(c.is_ascii_digit() || c == '.'))
            .next()
            .unwrap()
            .parse()
            .unwrap()
    };
    let (cycles, threads) = (
        number_after("\ncycles: "),
        number_after("warp instructions, "),
    );
    assert!(
        (number_after("thread IPC ") - threads / cycles).abs() < 0.01,
        "{}",
        r.stdout
    );
    assert_contains(&r, "simulation rate: ");
    assert_contains(&r, " cycles/s");
    let r = warpsim(
        &["run", "--workload", "scalar_prod", "--mode", "functional"],
        &data(),
    );
    assert_code(&r, 0);
    assert_contains(&r, "workload scalar_prod (small, functional): verified,");
    assert!(!r.stdout.contains("cycles"), "{}", r.stdout);
}

/// Regression: with rotating schedulers, rod_heartwall's warps once evicted each other's
/// I-cache lines between fill and fetch forever (a livelock until the cycle limit); lines are
/// now pinned until first fetched (`sm/icache.rs`). The presets rotate (GPGPU-Sim 4.2's
/// order); GPGPU-Sim 3.x's fixed order is an override and runs too.
#[test]
fn heartwall_finishes_with_either_scheduler_order() {
    let r = warpsim(
        &["run", "--workload", "rod_heartwall", "--policy", "gto"],
        &data(),
    );
    assert_code(&r, 0);
    assert_contains(
        &r,
        "workload rod_heartwall (small, timing gtx480/gto): verified,",
    );
    let r = warpsim(
        &[
            "run",
            "--workload",
            "rod_heartwall",
            "--policy",
            "gto",
            "-c",
            "sm.scheduler_order=fixed",
        ],
        &data(),
    );
    assert_code(&r, 0);
    // The override labels the configuration.
    assert_contains(
        &r,
        "workload rod_heartwall (small, timing gtx480 + sm.scheduler_order=fixed/gto): verified,",
    );
}

#[test]
fn model_options_select_preset_policy_and_overrides() {
    let r = warpsim(
        &[
            "run",
            "--workload",
            "matmul",
            "--config",
            "titanx-pascal",
            "--policy",
            "tls",
            "-c",
            "sm.schedulers=2",
            "--json",
        ],
        &data(),
    );
    assert_code(&r, 0);
    let v: serde_json::Value = serde_json::from_str(&r.stdout).unwrap();
    assert_eq!(
        (
            v["mode"].as_str(),
            v["config"].as_str(),
            v["policy"].as_str()
        ),
        (
            Some("timing"),
            Some("titanx-pascal + sm.schedulers=2"),
            Some("tls")
        )
    );
    assert!(v["cycles"].as_u64().unwrap() > 0);
    // The label reaches the statistics files too (JSON, CSV, the resolved config).
    let dir = scratch("labelled-stats");
    let r = warpsim(
        &[
            "run",
            "--workload",
            "matmul",
            "-c",
            "sm.schedulers=4",
            "--stats",
            dir.join("s").to_str().unwrap(),
        ],
        &data(),
    );
    assert_code(&r, 0);
    let json = std::fs::read_to_string(dir.join("s/stats.json")).unwrap();
    assert!(
        json.contains("\"config\": \"gtx480 + sm.schedulers=4\""),
        "{json}"
    );
    let csv = std::fs::read_to_string(dir.join("s/stats.csv")).unwrap();
    assert!(
        csv.lines()
            .nth(1)
            .unwrap()
            .contains(",gtx480 + sm.schedulers=4,gto,"),
        "{csv}"
    );
    let toml = std::fs::read_to_string(dir.join("s/config.toml")).unwrap();
    assert!(
        toml.starts_with("name = \"gtx480 + sm.schedulers=4\""),
        "{toml}"
    );
    let r = warpsim(
        &["run", "--workload", "matmul", "--policy", "fifo"],
        &data(),
    );
    assert_code(&r, 2);
    let names: Vec<&str> = warpsim_timing::policy::ISSUE
        .iter()
        .map(|e| e.name)
        .collect();
    assert_contains(
        &r,
        &format!(
            "unknown issue policy `fifo` (issue policies: {}; fetch policies",
            names.join(", ")
        ),
    );
    // `+ws` (warp sharing) goes with any issue policy and with --fetch; timed runs print the
    // shared issues by unit class.
    let r = warpsim(
        &[
            "run",
            "--workload",
            "matmul",
            "--policy",
            "gto+ws",
            "--fetch",
            "cff",
            "--json",
        ],
        &data(),
    );
    assert_code(&r, 0);
    let v: serde_json::Value = serde_json::from_str(&r.stdout).unwrap();
    assert_eq!(v["policy"].as_str(), Some("gto+cff+ws"));
    let r = warpsim(
        &[
            "run",
            "--workload",
            "baws_bt",
            "--config",
            "titanx-pascal",
            "--policy",
            "kaws",
        ],
        &data(),
    );
    assert_code(&r, 0);
    assert_contains(&r, "shared issues (warp sharing): ");
    let r = warpsim(
        &["run", "--workload", "matmul", "--policy", "gto+ws+ws"],
        &data(),
    );
    assert_code(&r, 2);
    assert_contains(&r, "given twice");
    // Combined names, --fetch, and a contradiction between them.
    let r = warpsim(
        &[
            "run",
            "--workload",
            "matmul",
            "--policy",
            "mwf-gto",
            "--fetch",
            "cff",
            "--json",
        ],
        &data(),
    );
    assert_code(&r, 0);
    let v: serde_json::Value = serde_json::from_str(&r.stdout).unwrap();
    assert_eq!(v["policy"].as_str(), Some("mwf-gto+cff"));
    let r = warpsim(
        &[
            "run",
            "--workload",
            "matmul",
            "--policy",
            "mwf-gto+cff",
            "--fetch",
            "fef",
        ],
        &data(),
    );
    assert_code(&r, 2);
    assert_contains(&r, "contradicts");
    let r = warpsim(&["run", "--workload", "matmul", "--fetch", "lrr"], &data());
    assert_code(&r, 2);
    assert_contains(
        &r,
        "unknown fetch policy `lrr` (fetch policies: rr, cff, fef)",
    );
    // `tls:N` is a config key; giving it twice is refused, out-of-range values name the bounds.
    let r = warpsim(
        &[
            "run",
            "--workload",
            "matmul",
            "--policy",
            "tls:4",
            "-c",
            "policy.tls.active=5",
        ],
        &data(),
    );
    assert_code(&r, 2);
    assert_contains(&r, "give it once");
    let r = warpsim(
        &["run", "--workload", "matmul", "--policy", "tls:60"],
        &data(),
    );
    assert_code(&r, 2);
    assert_contains(
        &r,
        "`policy.tls.active`: must be between 1 and sm.max_warps = 48, got 60",
    );
    let r = warpsim(
        &["run", "--workload", "matmul", "--policy", "tls:99"],
        &data(),
    );
    assert_code(&r, 2);
    assert_contains(&r, "`policy.tls.active`: 99 is out of range 1..=64");
    let r = warpsim(
        &["run", "--workload", "matmul", "--config", "gtx999"],
        &data(),
    );
    assert_code(&r, 2);
    assert_contains(&r, "unknown preset `gtx999`");
    let r = warpsim(
        &["run", "--workload", "matmul", "-c", "sm.nonsense=1"],
        &data(),
    );
    assert_code(&r, 2);
    assert_contains(&r, "unknown key");
}

#[test]
fn stats_files_per_kernel_and_total() {
    let dir = scratch("stats-dir");
    let r = warpsim(
        &[
            "run",
            "--workload",
            "stencil2d",
            "--stats",
            dir.join("s").to_str().unwrap(),
        ],
        &data(),
    );
    assert_code(&r, 0);
    let json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("s/stats.json")).unwrap()).unwrap();
    let kernels = json["kernels"].as_array().unwrap();
    assert!(kernels.len() > 1);
    let cycles: u64 = kernels
        .iter()
        .map(|k| k["timing"]["cycles"].as_u64().unwrap())
        .sum();
    assert_eq!(json["total"]["cycles"].as_u64(), Some(cycles));
    assert_eq!(json["config"], "gtx480");
    let csv = std::fs::read_to_string(dir.join("s/stats.csv")).unwrap();
    let lines: Vec<&str> = csv.lines().collect();
    assert!(lines[0].starts_with("program,launch,grid,block,registers,ctas,kernel,config,policy,fetch_policy,cycles,warp_instructions,"), "{}", lines[0]);
    assert_eq!(lines.len(), 1 + kernels.len() + 1, "{csv}");
    assert!(lines.last().unwrap().starts_with("stencil2d,total,"));
    // Fields, with a quoted field's commas (demangled kernel names) kept inside it.
    let fields = |l: &str| {
        let mut quoted = false;
        let mut out = vec![String::new()];
        for c in l.chars() {
            match c {
                '"' => quoted = !quoted,
                ',' if !quoted => out.push(String::new()),
                c => out.last_mut().unwrap().push(c),
            }
        }
        out
    };
    assert!(
        lines
            .iter()
            .all(|l| fields(l).len() == fields(lines[0]).len()),
        "{csv}"
    );
    let toml = std::fs::read_to_string(dir.join("s/config.toml")).unwrap();
    let resolved = warpsim_core::config::GpuConfig::from_toml("stats", &toml, &[]).unwrap();
    assert_eq!(
        resolved,
        warpsim_core::config::GpuConfig::load("gtx480").unwrap()
    );

    let total = fields(lines.last().unwrap());
    assert_eq!(total[10].parse::<u64>().unwrap(), cycles, "{csv}");
    assert!(json["descriptions"]["cycles"]
        .as_str()
        .unwrap()
        .contains("cycles"));
    // Every CSV column after the identifying ones has a description, the histogram included.
    let header = fields(lines[0]);
    let first_stat = header.iter().position(|h| h == "cycles").unwrap();
    for h in &header[first_stat..] {
        assert!(
            json["descriptions"][h.as_str()]
                .as_str()
                .is_some_and(|d| !d.is_empty()),
            "{h} has no description"
        );
    }
    assert!(
        json["total"]["memory"]["l1d"]["misses"].is_u64(),
        "{}",
        json["total"]
    );

    // The event log, on request.
    let r = warpsim(
        &[
            "run",
            "--workload",
            "matmul",
            "--event-log",
            "--stats",
            dir.join("ev").to_str().unwrap(),
        ],
        &data(),
    );
    assert_code(&r, 0);
    let ev: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("ev/stats.json")).unwrap()).unwrap();
    assert!(!ev["kernels"][0]["timing"]["events"]
        .as_array()
        .unwrap()
        .is_empty());
    assert!(json["kernels"][0]["timing"]["events"]
        .as_array()
        .unwrap()
        .is_empty());

    // FILE.json form.
    let r = warpsim(
        &[
            "run",
            "--workload",
            "scalar_prod",
            "--mode",
            "functional",
            "--stats",
            dir.join("f.json").to_str().unwrap(),
        ],
        &data(),
    );
    assert_code(&r, 0);
    for f in ["f.json", "f.csv", "f.config.toml"] {
        assert!(dir.join(f).is_file(), "{f}");
    }
}

/// `--trace`: valid trace-event JSON whose slices nest on every (SM, warp slot) track, with
/// matmul's barrier phases in it; refused in functional mode.
#[test]
fn trace_is_nested_trace_event_json() {
    let dir = scratch("trace");
    let file = dir.join("sub/t.json");
    let r = warpsim(
        &[
            "run",
            "--workload",
            "matmul",
            "--trace",
            file.to_str().unwrap(),
        ],
        &data(),
    );
    assert_code(&r, 0);
    assert_contains(&r, "trace: ");
    let v: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&file).unwrap()).unwrap();
    assert!(v["otherData"]["time_unit"]
        .as_str()
        .unwrap()
        .starts_with("cycles"));
    let events = v["traceEvents"].as_array().unwrap();
    let mut tracks: std::collections::BTreeMap<(u64, u64), Vec<(u64, u64)>> = Default::default();
    let mut names = std::collections::BTreeSet::new();
    for e in events {
        match e["ph"].as_str().unwrap() {
            "X" => {
                let (ts, dur) = (e["ts"].as_u64().unwrap(), e["dur"].as_u64().unwrap());
                tracks
                    .entry((e["pid"].as_u64().unwrap(), e["tid"].as_u64().unwrap()))
                    .or_default()
                    .push((ts, ts + dur));
                names.insert(
                    e["name"]
                        .as_str()
                        .unwrap()
                        .split(' ')
                        .next()
                        .unwrap()
                        .to_string(),
                );
            }
            "M" | "C" => assert!(e["name"].is_string() && e["pid"].is_u64(), "{e}"),
            other => panic!("unexpected ph {other}"),
        }
    }
    assert_eq!(
        names.into_iter().collect::<Vec<_>>(),
        ["CTA", "barrier", "exit", "phase"]
    );
    for (track, mut slices) in tracks {
        slices.sort_by_key(|&(from, to)| (from, std::cmp::Reverse(to)));
        let mut open: Vec<(u64, u64)> = Vec::new();
        for s in slices {
            while open.last().is_some_and(|o| o.1 <= s.0) {
                open.pop();
            }
            if let Some(o) = open.last() {
                assert!(s.1 <= o.1, "track {track:?}: {s:?} overlaps {o:?}");
            }
            open.push(s);
        }
    }
    let r = warpsim(
        &[
            "run",
            "--workload",
            "matmul",
            "--mode",
            "functional",
            "--trace",
            file.to_str().unwrap(),
        ],
        &data(),
    );
    assert_code(&r, 2);
    assert_contains(&r, "--trace");
}

/// `--issue-trace`: one CSV row per issued warp instruction (as many as the summary's issued
/// slots), each naming its launch, kernel, cycle, SM, scheduler, slot, warp and PC, cycles in
/// order per SM; refused in functional mode.
#[test]
fn issue_trace_has_a_row_per_issued_instruction() {
    let dir = scratch("issue-trace");
    let file = dir.join("sub/issues.csv");
    let args = ["run", "--workload", "matmul", "--json", "--issue-trace"];
    let r = warpsim(&[&args[..], &[file.to_str().unwrap()]].concat(), &data());
    assert_code(&r, 0);
    let v: serde_json::Value = serde_json::from_str(&r.stdout).unwrap();
    let text = std::fs::read_to_string(&file).unwrap();
    let mut lines = text.lines();
    assert_eq!(
        lines.next(),
        Some("launch,kernel,cycle,sm,scheduler,slot,warp,pc")
    );
    let mut last: std::collections::BTreeMap<u64, u64> = Default::default();
    let mut rows = 0u64;
    for row in csv::Reader::from_reader(text.as_bytes()).records() {
        let row = row.unwrap();
        assert_eq!(&row[0], "0");
        assert!(row[1].starts_with("matmulTiled("), "{row:?}");
        let (cycle, sm): (u64, u64) = (row[2].parse().unwrap(), row[3].parse().unwrap());
        assert!(last.insert(sm, cycle).unwrap_or(0) <= cycle, "{row:?}");
        rows += 1;
    }
    assert_eq!(rows, v["issue"]["issued"].as_u64().unwrap());
    let r = warpsim(
        &[&args[..], &[file.to_str().unwrap(), "--mode", "functional"]].concat(),
        &data(),
    );
    assert_code(&r, 2);
    assert_contains(&r, "--issue-trace");
}

#[test]
fn list_policies_and_configs() {
    let r = warpsim(&["list", "policies"], &data());
    assert_code(&r, 0);
    for p in warpsim_timing::policy::ISSUE
        .iter()
        .map(|e| e.name)
        .chain(warpsim_timing::policy::FETCH.iter().map(|e| e.name))
    {
        assert!(
            r.stdout
                .lines()
                .any(|l| l.trim_start().starts_with(&format!("{p} "))),
            "{p}: {}",
            r.stdout
        );
    }
    assert_contains(&r, "-c policy.mwf.count_exited_warps=true");
    let r = warpsim(&["list", "configs"], &data());
    assert_code(&r, 0);
    assert_contains(&r, "gtx480          15 SMs at 700 MHz");
    assert!(
        !r.stdout.lines().next().unwrap_or("").contains("tensor"),
        "{}",
        r.stdout
    );
    assert_contains(&r, "titanx-pascal   28 SMs at 1417 MHz");
    assert_contains(&r, "qv100           80 SMs at 1447 MHz");
    assert_contains(&r, "L1D 32-128 KB (unified 128 KB with shared memory)");
    assert_contains(
        &r,
        "rtx2060         30 SMs at 1365 MHz core clock, 4 schedulers/SM, 32 warps/SM, 64 KB shared/SM, L1D 32-64 KB (unified 96 KB with shared memory), L2 3072 KB, 4 tensor units/SM",
    );
    assert_contains(
        &r,
        "rtx3070         46 SMs at 1132 MHz core clock, 4 schedulers/SM, 48 warps/SM, 100 KB shared/SM, L1D 28-128 KB (unified 128 KB with shared memory), L2 4096 KB, 4 tensor units/SM",
    );
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
    let r = warpsim(
        &[
            "run",
            "--workload",
            "matmul",
            "--mode",
            "functional",
            "--max-warp-instructions",
            "100",
        ],
        &data(),
    );
    assert_code(&r, 3);
    assert_contains(&r, "exceeded the limit of 100 warp instructions");
    let r = warpsim(
        &["run", "--workload", "matmul", "--max-cycles", "100"],
        &data(),
    );
    assert_code(&r, 3);
    assert_contains(&r, "did not finish within 100 simulated cycles");
}

#[test]
fn unknown_workload_is_bad_input() {
    let r = warpsim(&["run", "--workload", "matmull"], &data());
    assert_code(&r, 2);
    assert_contains(
        &r,
        "unknown workload \"matmull\"; available: scalar_prod, matmul,",
    );
    let r = warpsim(&["bench", "--repeat", "1", "--workload", "nope"], &data());
    assert_code(&r, 2);
}

#[test]
fn bad_command_lines_exit_2() {
    assert_code(&warpsim(&["run"], &data()), 2);
    assert_code(
        &warpsim(&["run", "x.toml", "--workload", "matmul"], &data()),
        2,
    );
    assert_code(
        &warpsim(&["run", "--workload", "matmul", "--size", "huge"], &data()),
        2,
    );
    assert_code(&warpsim(&["bench", "--repeat", "0"], &data()), 2);
    assert_code(&warpsim(&["frobnicate"], &data()), 2);
}

/// Every program, functionally (tests/timing_matrix.rs covers timing mode).
#[test]
fn suite_runs_every_program() {
    let r = warpsim(
        &["suite", "--size", "small", "--mode", "functional"],
        &data(),
    );
    assert_code(&r, 0);
    let n = warpsim_suite::programs().len();
    assert_contains(
        &r,
        &format!("{n} of {n} programs verified (small, functional"),
    );
    for p in warpsim_suite::programs() {
        assert!(
            r.stdout
                .lines()
                .any(|l| l.starts_with(p.name) && l.contains(" yes (")),
            "{}: {}",
            p.name,
            r.stdout
        );
    }
}

/// The basic set in timing mode on rtx2060 and rtx3070 (GPGPU-Sim's SM75_RTX2060 and
/// SM86_RTX3070), under GTO and under LRR, the scheduler those configs select: every program
/// verifies.
#[test]
fn suite_basic_verifies_on_rtx2060_and_rtx3070_under_gto_and_lrr() {
    let n = warpsim_suite::set("basic").unwrap().len();
    for preset in ["rtx2060", "rtx3070"] {
        for policy in ["gto", "lrr"] {
            let r = warpsim(
                &[
                    "suite", "--set", "basic", "--config", preset, "--policy", policy,
                ],
                &data(),
            );
            assert_code(&r, 0);
            assert_contains(
                &r,
                &format!("{n} of {n} programs verified (small, timing {preset}/{policy},"),
            );
        }
    }
}

/// A set in timing mode: table columns, and identical results on 1 and 2 threads.
#[test]
fn suite_set_is_deterministic_across_thread_counts() {
    let run = |jobs: &str| {
        let r = warpsim(
            &["suite", "--set", "basic", "--json", "--jobs", jobs],
            &data(),
        );
        assert_code(&r, 0);
        let mut v: serde_json::Value = serde_json::from_str(&r.stdout).unwrap();
        for row in v.as_array_mut().unwrap() {
            row.as_object_mut().unwrap().remove("wall_seconds");
        }
        v
    };
    let one = run("1");
    assert_eq!(one, run("2"));
    let rows = one.as_array().unwrap();
    assert_eq!(rows.len(), warpsim_suite::set("basic").unwrap().len());
    assert!(rows
        .iter()
        .all(|r| r["ok"] == true && r["cycles"].as_u64().unwrap() > 0 && r["mode"] == "timing"));
    // The barrier intensity column: barrier + exit-wait warp cycles over resident warp cycles.
    for r in rows {
        let f = r["barrier_exit_fraction"].as_f64().unwrap();
        let stalled =
            r["stalls"]["barrier"].as_u64().unwrap() + r["stalls"]["exit_wait"].as_u64().unwrap();
        assert!(f > 0.0 && f < 1.0 && stalled > 0, "{r}");
    }

    let r = warpsim(
        &[
            "suite",
            "--set",
            "basic",
            "--policy",
            "lrr",
            "--config",
            "titanx-pascal",
        ],
        &data(),
    );
    assert_code(&r, 0);
    assert!(r.stdout.starts_with("program "), "{}", r.stdout);
    for col in [
        "set",
        "cycles",
        "IPC",
        "bar+exit %",
        "warp insts",
        "verified",
    ] {
        assert!(
            r.stdout.lines().next().unwrap().contains(col),
            "{col}: {}",
            r.stdout
        );
    }
    assert_contains(&r, "programs verified (small, timing titanx-pascal/lrr,");
    assert_contains(&r, "simulation rate: ");

    let r = warpsim(&["suite", "--set", "nope"], &data());
    assert_code(&r, 2);
    assert_contains(&r, "unknown program set \"nope\"; sets: basic,");
}

#[test]
fn bench_reports_rates() {
    let r = warpsim(
        &[
            "bench",
            "--repeat",
            "3",
            "--size",
            "small",
            "--mode",
            "functional",
            "--workload",
            "scalar_prod",
            "histogram",
        ],
        &data(),
    );
    assert_code(&r, 0);
    assert_contains(&r, "median of 3 runs");
    assert_contains(&r, "M warp/s");
    assert!(
        r.stdout.lines().any(|l| l.starts_with("scalar_prod")),
        "{}",
        r.stdout
    );
    assert!(
        r.stdout.lines().any(|l| l.starts_with("histogram")),
        "{}",
        r.stdout
    );
    assert_contains(&r, "overall: ");

    let r = bench_small(&["--json"]);
    assert_code(&r, 0);
    let v: serde_json::Value = serde_json::from_str(&r.stdout).unwrap();
    assert!(
        v["workloads"][0]["cycles_per_second"].as_f64().unwrap() > 0.0,
        "timing mode by default: {v}"
    );
    let r = bench_small(&["--mode", "functional", "--json"]);
    assert_code(&r, 0);
    let v: serde_json::Value = serde_json::from_str(&r.stdout).unwrap();
    let names: Vec<&str> = v["workloads"]
        .as_array()
        .unwrap()
        .iter()
        .map(|w| w["workload"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["matmul", "scalar_prod"]);
    assert!(
        v["workloads"][0]["warp_instructions_per_second"]
            .as_f64()
            .unwrap()
            > 0.0
    );
}

/// `warpsim bench --repeat 1 --size small` with `extra`.
fn bench_small(extra: &[&str]) -> Run {
    let mut args = vec!["bench", "--repeat", "1", "--size", "small"];
    args.extend_from_slice(extra);
    warpsim(&args, &data())
}

/// `--presets` × `--thread-counts`: a row per preset, thread count and workload, the same
/// simulation (cycles, instructions) on every thread count, SM-cycles per second by the
/// preset's SM count; a tensor program is skipped where there are no tensor units; the grid
/// is refused in functional mode.
#[test]
fn bench_measures_a_grid_of_presets_and_thread_counts() {
    let r = bench_small(&[
        "--workload",
        "scalar_prod",
        "tc_gemm",
        "--presets",
        "gtx480,qv100",
        "--thread-counts",
        "1,2",
        "--json",
    ]);
    assert_code(&r, 0);
    assert_contains(
        &r,
        "skipped tc_gemm: needs tensor cores, which `gtx480` does not have",
    );
    assert_eq!(
        r.stderr.matches("skipped tc_gemm").count(),
        1,
        "{}",
        r.stderr
    );
    let v: serde_json::Value = serde_json::from_str(&r.stdout).unwrap();
    let rows = v["rows"].as_array().unwrap();
    let cell = |r: &serde_json::Value| {
        (
            r["preset"].as_str().unwrap().to_string(),
            r["threads"].as_u64().unwrap(),
            r["workload"].as_str().unwrap().to_string(),
        )
    };
    let cells: Vec<_> = rows.iter().map(cell).collect();
    let want: Vec<(String, u64, String)> = [
        ("gtx480", 1, "scalar_prod"),
        ("gtx480", 2, "scalar_prod"),
        ("qv100", 1, "scalar_prod"),
        ("qv100", 1, "tc_gemm"),
        ("qv100", 2, "scalar_prod"),
        ("qv100", 2, "tc_gemm"),
    ]
    .map(|(p, n, w)| (p.to_string(), n, w.to_string()))
    .to_vec();
    assert_eq!(cells, want);
    for r in rows {
        let twin = rows
            .iter()
            .find(|o| o["preset"] == r["preset"] && o["workload"] == r["workload"])
            .unwrap();
        assert_eq!(r["cycles"], twin["cycles"], "{r}");
        assert_eq!(r["thread_instructions"], twin["thread_instructions"], "{r}");
        let sms = r["sms"].as_f64().unwrap();
        let ratio =
            r["sm_cycles_per_second"].as_f64().unwrap() / r["cycles_per_second"].as_f64().unwrap();
        assert!((ratio - sms).abs() < 1e-6 * sms, "{r}");
    }
    assert_eq!(rows[0]["sms"], 15);
    assert_eq!(rows[2]["sms"], 80);
    assert_eq!(rows[0]["speedup"], 1.0);

    let r = warpsim(
        &["bench", "--mode", "functional", "--presets", "gtx480"],
        &data(),
    );
    assert_code(&r, 2);
    assert_contains(&r, "--presets and --thread-counts measure the timing model");
}

/// The tensor-core programs verify in timing mode on a preset with tensor units; on one
/// without, `suite` leaves them out of its table and names them with the reason (exit 0: a
/// skip is no failure), and `run --workload` refuses with the same reason.
#[test]
fn tensor_core_programs_run_where_there_are_tensor_units_and_are_skipped_elsewhere() {
    let r = warpsim(&["suite", "--set", "tensor", "--config", "qv100"], &data());
    assert_code(&r, 0);
    assert_contains(&r, "2 of 2 programs verified (small, timing qv100/gto");
    let r = warpsim(&["suite", "--set", "tensor"], &data());
    assert_code(&r, 0);
    assert_contains(&r, "0 of 0 programs verified (small, timing gtx480/gto");
    for p in ["tc_gemm", "tc_conv"] {
        assert!(!r.stdout.contains(p), "{}", r.stdout);
        assert!(
            r.stderr.contains(&format!(
                "warpsim: skipped {p}: needs tensor cores, which `gtx480` does not have"
            )),
            "{}",
            r.stderr
        );
    }
    let r = warpsim(&["run", "--workload", "tc_conv"], &data());
    assert_code(&r, 2);
    assert_contains(
        &r,
        "workload tc_conv needs tensor cores, which `gtx480` does not have",
    );
    // Functional mode runs them anywhere.
    let r = warpsim(
        &["run", "--workload", "tc_conv", "--mode", "functional"],
        &data(),
    );
    assert_code(&r, 0);
}
