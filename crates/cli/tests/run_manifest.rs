//! `warpsim run MANIFEST.toml`: the example manifest, checks that fail, dumps, several
//! launches, and kernels that fault, deadlock or never stop.

mod common;

use common::*;

fn saxpy(name: &str) -> std::path::PathBuf {
    scratch_copy(name, &repo().join("examples/manifests/saxpy"))
}

#[test]
fn saxpy_example_passes() {
    let dir = saxpy("saxpy_example");
    let r = warpsim(&["run", "saxpy.toml"], &dir);
    assert_code(&r, 0);
    assert_contains(
        &r,
        "launch 1/1: saxpy(int, float, float const*, float*) grid [40, 1, 1] block [256, 1, 1]",
    );
    assert_contains(&r, "40 CTAs,");
    assert_contains(&r, "warp instructions");
    assert_contains(&r, "check[0] \"y\": ok (10000 values)");
    assert_contains(&r, "check[1] \"noise\": ok (10000 values)");
    let dump = std::fs::read_to_string(dir.join("out/y.txt")).unwrap();
    let values: Vec<f64> = dump.lines().map(|l| l.parse().unwrap()).collect();
    assert_eq!(values.len(), 10000);
    assert!(values
        .iter()
        .enumerate()
        .all(|(i, &v)| v == 2.0 * i as f64 + 1.0));
}

#[test]
fn example_runs_from_another_directory() {
    let r = warpsim(
        &["run", "--json", "saxpy_elsewhere/saxpy.toml"],
        saxpy("saxpy_elsewhere").parent().unwrap(),
    );
    assert_code(&r, 0);
    let v: serde_json::Value = serde_json::from_str(&r.stdout).expect("JSON summary");
    assert_eq!(v["ok"], true);
    assert_eq!(
        v["launches"][0]["kernel"],
        "saxpy(int, float, float const*, float*)"
    );
    assert_eq!(v["launches"][0]["kernel_mangled"], "_Z5saxpyifPKfPf");
    assert_eq!(v["launches"][0]["ctas"], 40);
    assert!(v["warp_instructions"].as_u64().unwrap() > 40 * 8);
    assert_eq!(v["checks"][0]["mismatches"], 0);
}

#[test]
fn mismatch_exits_1_and_shows_first_values() {
    let dir = saxpy("saxpy_mismatch");
    let text = std::fs::read_to_string(dir.join("saxpy.toml")).unwrap();
    let text = text.replace(
        "expect = { kind = \"iota\", start = 1, step = 2 }",
        "expect = { kind = \"iota\", start = 1, step = 2.0001 }\ntolerance = { rel = 1e-6 }",
    );
    std::fs::write(dir.join("saxpy.toml"), text).unwrap();
    let r = warpsim(&["run", "saxpy.toml"], &dir);
    assert_code(&r, 1);
    assert_contains(&r, "check[0] \"y\": MISMATCH in");
    // Index 0 (1.0) and small indices are within the tolerance; far ones are not.
    assert_contains(&r, "of 10000 values (tolerance rel 0.000001 abs 0)");
    assert!(
        r.stdout.lines().any(|l| l.trim_start().starts_with("y[")
            && l.contains(": expected ")
            && l.contains(", got ")),
        "{}",
        r.stdout
    );
    assert_contains(&r, "check[1] \"noise\": ok");
}

#[test]
fn integer_mismatch_reports_index_expected_got() {
    let dir = scratch_copy("int_mismatch", &data());
    std::fs::write(
        dir.join("m.toml"),
        r#"ptx = "faults.ptx"
kernel = "_Z12half_barrierPi"
grid = 1
block = 64
[[buffer]]
name = "p"
type = "i32"
len = 64
[[arg]]
buffer = "p"
[[check]]
buffer = "p"
expect = { kind = "iota", start = 1, step = 0 }
[[check]]
buffer = "p"
expect = { kind = "zeros" }
"#,
    )
    .unwrap();
    let r = warpsim(&["run", "m.toml"], &dir);
    assert_code(&r, 1);
    assert_contains(&r, "check[0] \"p\": ok (64 values)");
    assert_contains(&r, "check[1] \"p\": MISMATCH in 64 of 64 values\n    p[0]: expected 0, got 1\n    p[1]: expected 0, got 1");
    assert_contains(&r, "… 54 more");
}

#[test]
fn files_buffers_dumps_and_launch_sequences() {
    let dir = saxpy("saxpy_sequence");
    // x from a binary file, y = 2x + y applied three times: 1 + 6i.
    let x: Vec<u8> = (0..1000).flat_map(|i| (i as f32).to_le_bytes()).collect();
    std::fs::write(dir.join("x.bin"), &x).unwrap();
    let expected: Vec<u8> = (0..1000)
        .flat_map(|i| (1.0 + 6.0 * i as f32).to_le_bytes())
        .collect();
    std::fs::write(dir.join("expected.bin"), &expected).unwrap();
    std::fs::write(
        dir.join("seq.toml"),
        r#"ptx = "saxpy.ptx"
[[buffer]]
name = "x"
type = "f32"
init = { kind = "file", path = "x.bin" }   # length from the file
[[buffer]]
name = "y"
type = "f32"
len = 1000
init = { kind = "value", value = 1 }
[[buffer]]
name = "y_ref"
type = "f32"
len = 1000
init = { kind = "file", path = "expected.bin" }

[[launch]]
grid = 4
block = 256
arg = [{ value = 1000, type = "i32" }, { value = 2, type = "f32" }, { buffer = "x" }, { buffer = "y" }]

[[launch]]
kernel = "_Z5saxpyifPKfPf"
grid = [8]
block = [128, 1, 1]
repeat = 2
[[launch.arg]]
value = "0x3e8"
type = "i32"
[[launch.arg]]
value = 2.0
type = "f32"
[[launch.arg]]
buffer = "x"
[[launch.arg]]
buffer = "y"

[[check]]
buffer = "y"
equals_file = "expected.bin"
[[check]]
buffer = "y"
equals_buffer = "y_ref"
[[dump]]
buffer = "y"
path = "dumps/y.bin"
"#,
    )
    .unwrap();
    let r = warpsim(&["run", "seq.toml"], &dir);
    assert_code(&r, 0);
    assert_contains(
        &r,
        "launch 1/3: saxpy(int, float, float const*, float*) grid [4, 1, 1] block [256, 1, 1]",
    );
    assert_contains(
        &r,
        "launch 3/3: saxpy(int, float, float const*, float*) grid [8, 1, 1] block [128, 1, 1]",
    );
    assert_contains(&r, "total: ");
    assert_contains(&r, "check[0] \"y\": ok (1000 values)");
    assert_contains(&r, "check[1] \"y\": ok (1000 values)");
    assert_eq!(std::fs::read(dir.join("dumps/y.bin")).unwrap(), expected);
}

#[test]
fn out_of_bounds_store_is_a_simulation_error() {
    let r = warpsim(&["run", "oob.toml"], &data());
    assert_code(&r, 3);
    assert_contains(&r, "out of bounds");
    assert_contains(&r, "kernel `oob_store(int*)`");
    // Thread 1 stores 4 KiB past the start of the buffer: the message names the address.
    assert!(r.stderr.contains(" at 0x"), "{}", r.stderr);
    assert_contains(&r, "thread (1,0,0)");
}

#[test]
fn barrier_deadlock_is_a_simulation_error() {
    let r = warpsim(&["run", "deadlock.toml"], &data());
    assert_code(&r, 3);
    assert_contains(&r, "deadlock");
    assert_contains(&r, "_Z13split_barrierPi");
    assert_contains(&r, "warp 0 waits at barrier 1");
}

#[test]
fn exited_warps_do_not_hold_a_barrier() {
    // `if (threadIdx.x < 32) __syncthreads();` in a 64-thread block completes: the second
    // warp exits, and exited threads are not expected at the barrier.
    let r = warpsim(&["run", "half_barrier.toml"], &data());
    assert_code(&r, 0);
    assert_contains(&r, "check[0] \"p\": ok (64 values)");
}

#[test]
fn synccheck_reports_the_barrier_exited_warps_skipped() {
    // The same launch under --synccheck: a simulation error in both modes, naming the CTA,
    // the barrier's PC and PTX line, and the exited warp.
    for mode in ["timing", "functional"] {
        let r = warpsim(
            &["run", "--synccheck", "--mode", mode, "half_barrier.toml"],
            &data(),
        );
        assert_code(&r, 3);
        assert_contains(&r, "synccheck: barrier 0 at pc ");
        assert_contains(&r, "of kernel `half_barrier(int*)`, CTA (0,0,0), completed although 32 threads that should reach it had exited: warp 1 lanes 0-31");
    }
}

/// The warp-instruction limit is functional mode's runaway guard; timing mode's is cycles.
#[test]
fn runaway_kernel_hits_the_instruction_limit() {
    let r = warpsim(&["run", "--mode", "functional", "spin.toml"], &data());
    assert_code(&r, 3);
    assert_contains(&r, "_Z4spinPVi");
    assert_contains(&r, "exceeded the limit of 10000 warp instructions");
    // The command line overrides the manifest.
    let r = warpsim(
        &[
            "run",
            "--mode",
            "functional",
            "--max-warp-instructions",
            "500",
            "spin.toml",
        ],
        &data(),
    );
    assert_code(&r, 3);
    assert_contains(&r, "limit of 500 warp instructions");
    let r = warpsim(&["run", "--max-cycles", "20000", "spin.toml"], &data());
    assert_code(&r, 3);
    assert_contains(
        &r,
        "kernel `spin(int volatile*)` did not finish within 20000 simulated cycles",
    );
}

#[test]
fn too_much_shared_memory_is_bad_input() {
    let dir = saxpy("saxpy_shared");
    let text = std::fs::read_to_string(dir.join("saxpy.toml"))
        .unwrap()
        .replace("block = [256]", "block = [256]\ndynamic_shared = 1_000_000");
    std::fs::write(dir.join("saxpy.toml"), text).unwrap();
    let r = warpsim(&["run", "saxpy.toml"], &dir);
    assert_code(&r, 2);
    assert_contains(
        &r,
        "invalid launch of `saxpy(int, float, float const*, float*)`",
    );
    assert_contains(&r, "shared memory");
}

#[test]
fn printf_output_is_shown_and_checked() {
    let r = warpsim(&["run", "hello.toml"], &data());
    assert_code(&r, 0);
    assert_contains(
        &r,
        "printf output:\ntag 7: block 0 thread 0\ntag 7: block 0 thread 1\n",
    );
    assert_contains(&r, "expect_printf: ok");

    let dir = scratch_copy("printf_mismatch", &data());
    let text = std::fs::read_to_string(dir.join("hello.toml"))
        .unwrap()
        .replace("value = 7", "value = 8");
    std::fs::write(dir.join("hello.toml"), text).unwrap();
    let r = warpsim(&["run", "hello.toml"], &dir);
    assert_code(&r, 1);
    assert_contains(&r, "expect_printf: MISMATCH");
    assert_contains(&r, "got      \"tag 8: block 0 thread 0\\n");
}

/// `registers = { kernel = N }` feeds timing mode's occupancy; the summary shows cycles.
#[test]
fn manifest_registers_limit_occupancy_in_timing_mode() {
    let dir = saxpy("saxpy_registers");
    let text = std::fs::read_to_string(dir.join("saxpy.toml")).unwrap();
    let run = |extra: &str, name: &str| {
        std::fs::write(dir.join(name), format!("{extra}\n{text}")).unwrap();
        let stats = dir.join(format!("{name}.json"));
        let r = warpsim(&["run", name, "--stats", stats.to_str().unwrap()], &dir);
        (r, stats)
    };
    let (r, stats) = run("registers = { _Z5saxpyifPKfPf = 64 }", "regs.toml");
    assert_code(&r, 0);
    assert_contains(&r, " cycles, IPC ");
    let v: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(stats).unwrap()).unwrap();
    assert_eq!(v["kernels"][0]["registers_per_thread"], 64);
    assert_eq!(v["kernels"][0]["timing"]["ctas_per_sm"], 2);
    // 256 threads × 200 registers = 51200 > gtx480's 32768: one CTA does not fit.
    let (r, _) = run("registers = { _Z5saxpyifPKfPf = 200 }", "regs200.toml");
    assert_code(&r, 2);
    assert_contains(&r, "does not fit on an SM");
    let (r, _) = run("registers = { _Z5saxpyifPKfPf = 0 }", "regs0.toml");
    assert_code(&r, 2);
    assert_contains(&r, "registers per thread must be 1 to 255, got 0");
    let (r, _) = run("registers = { nokernel = 16 }", "regsname.toml");
    assert_code(&r, 2);
    assert_contains(&r, "registers.nokernel: no kernel `nokernel` in the PTX");
}

/// A 2³¹−1-CTA grid is valid: the launch starts without reserving anything per CTA, and the
/// runaway guard stops it (it used to abort allocating per-CTA records up front).
#[test]
fn a_huge_grid_runs_until_a_limit_stops_it() {
    let r = warpsim(
        &[
            "run",
            "--max-cycles",
            "5000",
            "--max-warp-instructions",
            "100000000",
            "spin_huge.toml",
        ],
        &data(),
    );
    assert_code(&r, 3);
    assert_contains(
        &r,
        "kernel `spin(int volatile*)` did not finish within 5000 simulated cycles",
    );
    let r = warpsim(&["run", "--mode", "functional", "spin_huge.toml"], &data());
    assert_code(&r, 3);
    assert_contains(&r, "exceeded the limit of 10000 warp instructions");
}

/// Functional mode says which timing-only options it ignores instead of ignoring them silently.
#[test]
fn functional_mode_warns_about_timing_only_options() {
    let r = warpsim(
        &[
            "run",
            "--mode",
            "functional",
            "--policy",
            "lrr",
            "-c",
            "sm.schedulers=4",
            "--max-cycles",
            "5",
            "hello.toml",
        ],
        &data(),
    );
    assert_code(&r, 0);
    assert_contains(&r, "warpsim: warning: functional mode ignores the timing-only options: --policy, -c, --max-cycles");
    let r = warpsim(
        &["run", "--mode", "functional", "--event-log", "hello.toml"],
        &data(),
    );
    assert_contains(&r, "ignores the timing-only option: --event-log");
    for args in [
        &["run", "--mode", "functional", "hello.toml"][..],
        &["run", "--policy", "lrr", "hello.toml"],
    ] {
        let r = warpsim(args, &data());
        assert_code(&r, 0);
        assert!(!r.stderr.contains("warning"), "{args:?}: {}", r.stderr);
    }
}
