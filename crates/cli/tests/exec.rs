//! `warpsim exec`: the ELF check and its advice, finding the shim, the environment it hands
//! the program, exit codes, and a real CUDA program built with nvcc (found on PATH or in
//! `.cache/cuda`, else installed by scripts/install-cuda.sh; no nvcc fails the test).

mod common;

use std::path::{Path, PathBuf};
use std::process::Command;

use common::*;

/// The shim cargo built for this test run (a dev-dependency, so it is in `deps/`).
fn shim() -> PathBuf {
    let exe = std::env::current_exe().unwrap();
    let lib = exe.parent().unwrap().join("libwarpsim_cudart.so");
    assert!(lib.is_file(), "cargo did not build {}", lib.display());
    lib
}

fn exec(args: &[&str], cwd: &Path, shim: Option<&Path>) -> Run {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_warpsim"));
    cmd.arg("exec").args(args).current_dir(cwd);
    match shim {
        Some(s) => cmd.env("WARPSIM_CUDART", s),
        None => cmd.env_remove("WARPSIM_CUDART"),
    };
    let out = cmd.output().expect("run warpsim exec");
    Run {
        code: out.status.code().unwrap_or(-1),
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    }
}

#[test]
fn program_without_dynamic_cudart_is_explained() {
    let dir = scratch("exec-static");
    let r = exec(&["--", "/bin/true"], &dir, Some(&shim()));
    assert_code(&r, 2);
    assert_contains(&r, "does not load libcudart.so.13 dynamically");
    assert_contains(&r, "nvcc -cudart shared");
}

#[test]
fn bad_invocations_are_bad_input() {
    let dir = scratch("exec-bad");
    let r = exec(&["--", "./no-such-program"], &dir, Some(&shim()));
    assert_code(&r, 2);
    assert_contains(&r, "program ./no-such-program not found");
    std::fs::write(dir.join("data.bin"), b"\x00\x01 not an executable").unwrap();
    let r = exec(&["--", "./data.bin"], &dir, Some(&shim()));
    assert_code(&r, 2);
    assert_contains(&r, "is not an ELF executable");
    let r = exec(
        &["--policy", "fifo", "--", "/bin/true"],
        &dir,
        Some(&shim()),
    );
    assert_code(&r, 2);
    assert_contains(&r, "unknown issue policy `fifo`");
    assert_code(&exec(&[], &dir, None), 2);
}

/// A shell script stands in for a program (scripts skip the ELF check): it reports what
/// `exec` put in its environment and exits with a code of its own.
#[test]
fn environment_and_exit_code() {
    let dir = scratch("exec-env");
    let lib = dir.join("lib");
    std::fs::create_dir_all(&lib).unwrap();
    std::fs::write(lib.join("libcudart.so.13"), b"").unwrap();
    let script = dir.join("show-env.sh");
    std::fs::write(
        &script,
        "#!/bin/sh\necho \"$WARPSIM_MODE|$WARPSIM_CONFIG|$WARPSIM_POLICY|$WARPSIM_MAX_CYCLES|$WARPSIM_STATS|${LD_LIBRARY_PATH%%:*}|$*\"\nexit 7\n",
    )
    .unwrap();
    std::fs::set_permissions(&script, std::os::unix::fs::PermissionsExt::from_mode(0o755)).unwrap();

    let r = exec(
        // --quiet: no summary, so no statistics file of exec's own.
        &[
            "--quiet",
            "--mode",
            "functional",
            "--config",
            "titanx-pascal",
            "--policy",
            "tls:3",
            "--max-cycles",
            "99",
            "--",
            "./show-env.sh",
            "a",
            "-b",
        ],
        &dir,
        Some(&lib),
    );
    assert_code(&r, 7);
    let libdir = lib.canonicalize().unwrap();
    assert_eq!(
        r.stdout.trim(),
        format!(
            "functional|titanx-pascal|tls:3|99||{}|a -b",
            libdir.display()
        )
    );

    // Overrides reach the shim as a resolved config file; --stats as WARPSIM_STATS.
    let r = exec(
        &[
            "-c",
            "sm.schedulers=4",
            "--stats",
            "out",
            "--",
            "./show-env.sh",
        ],
        &dir,
        Some(&lib),
    );
    assert_code(&r, 7);
    let fields: Vec<&str> = r.stdout.trim().split('|').collect();
    assert_eq!((fields[0], fields[2]), ("timing", "gto"));
    assert!(fields[1].ends_with("config.toml"), "{}", r.stdout);
    assert_eq!(fields[4], "out/stats.jsonl");
    let toml = std::fs::read_to_string(dir.join("out/stats.config.toml")).unwrap();
    assert!(toml.contains("schedulers = 4"), "{toml}");

    // --trace reaches the shim as WARPSIM_TRACE (its folder created), timing mode only.
    let trace = dir.join("show-trace.sh");
    std::fs::write(&trace, "#!/bin/sh\necho \"$WARPSIM_TRACE\"\n").unwrap();
    std::fs::set_permissions(&trace, std::os::unix::fs::PermissionsExt::from_mode(0o755)).unwrap();
    let r = exec(
        &["--trace", "tr/t.json", "--", "./show-trace.sh"],
        &dir,
        Some(&lib),
    );
    assert_code(&r, 0);
    assert_eq!(r.stdout.trim(), "tr/t.json");
    assert!(dir.join("tr").is_dir());

    // --synccheck reaches the shim as WARPSIM_SYNCCHECK=1, in either mode.
    let check = dir.join("show-synccheck.sh");
    std::fs::write(&check, "#!/bin/sh\necho \"[$WARPSIM_SYNCCHECK]\"\n").unwrap();
    std::fs::set_permissions(&check, std::os::unix::fs::PermissionsExt::from_mode(0o755)).unwrap();
    let r = exec(
        &[
            "--quiet",
            "--mode",
            "functional",
            "--synccheck",
            "--",
            "./show-synccheck.sh",
        ],
        &dir,
        Some(&lib),
    );
    assert_code(&r, 0);
    assert_eq!(r.stdout.trim(), "[1]");
    let r = exec(&["--quiet", "--", "./show-synccheck.sh"], &dir, Some(&lib));
    assert_eq!(r.stdout.trim(), "[]");
    let r = exec(
        &[
            "--mode",
            "functional",
            "--trace",
            "t.json",
            "--",
            "./show-trace.sh",
        ],
        &dir,
        Some(&lib),
    );
    assert_code(&r, 2);
    assert_contains(&r, "--trace t.json: needs timing mode");

    // --registers reaches the shim as WARPSIM_REGISTERS; a malformed one is bad input.
    let regs = dir.join("show-registers.sh");
    std::fs::write(&regs, "#!/bin/sh\necho \"[$WARPSIM_REGISTERS]\"\n").unwrap();
    std::fs::set_permissions(&regs, std::os::unix::fs::PermissionsExt::from_mode(0o755)).unwrap();
    let r = exec(
        &[
            "--quiet",
            "--registers",
            "sgemm=23",
            "--registers",
            "_Z1kv=8",
            "--",
            "./show-registers.sh",
        ],
        &dir,
        Some(&lib),
    );
    assert_code(&r, 0);
    assert_eq!(r.stdout.trim(), "[sgemm=23,_Z1kv=8]");
    let r = exec(&["--quiet", "--", "./show-registers.sh"], &dir, Some(&lib));
    assert_eq!(r.stdout.trim(), "[]");
    let r = exec(
        &[
            "--quiet",
            "--registers",
            "sgemm=0",
            "--",
            "./show-registers.sh",
        ],
        &dir,
        Some(&lib),
    );
    assert_code(&r, 2);
    assert_contains(&r, "--registers `sgemm=0`");

    // An explicit shim that does not exist is an error, not a silent fallback.
    let r = exec(&["--", "./show-env.sh"], &dir, Some(&dir.join("nowhere")));
    assert_code(&r, 2);
    assert_contains(&r, "WARPSIM_CUDART=");
}

/// A stand-in program (a script) that writes the shim's statistics lines: `exec` closes with
/// the per-kernel summary read from them, demangled; `--quiet` silences it. The options
/// `run` has reach the shim; unknown options are not taken for the program.
#[test]
fn summary_options_and_unknown_options() {
    let dir = scratch("exec-summary");
    let lib = dir.join("lib");
    std::fs::create_dir_all(&lib).unwrap();
    std::fs::write(lib.join("libcudart.so.13"), b"").unwrap();
    let script = dir.join("fake-launches.sh");
    std::fs::write(
        &script,
        concat!(
            "#!/bin/sh\n",
            "echo \"max=$WARPSIM_MAX_INSTRUCTIONS events=$WARPSIM_EVENT_LOG stats=${WARPSIM_STATS:+set}$WARPSIM_PROGRESS\"\n",
            "[ -n \"$WARPSIM_STATS\" ] || exit 0\n",
            "echo '{\"kernel\":\"_Z5scalePfif\",\"warp_instructions\":100,\"thread_instructions\":3200,\"mode\":\"timing\",\"cycles\":50}' >> \"$WARPSIM_STATS\"\n",
            "echo '{\"kernel\":\"_Z5scalePfif\",\"warp_instructions\":100,\"thread_instructions\":3200,\"mode\":\"timing\",\"cycles\":150}' >> \"$WARPSIM_STATS\"\n",
        ),
    )
    .unwrap();
    std::fs::set_permissions(&script, std::os::unix::fs::PermissionsExt::from_mode(0o755)).unwrap();

    let r = exec(&["--", "./fake-launches.sh"], &dir, Some(&lib));
    assert_code(&r, 0);
    assert_eq!(
        r.stdout.trim(),
        "max= events= stats=set",
        "a summary needs the statistics"
    );
    let lines: Vec<&str> = r.stderr.lines().collect();
    assert!(
        lines[0].starts_with("warpsim exec: 2 launches of 1 kernel (timing gtx480/gto) in "),
        "{}",
        r.stderr
    );
    let scale: Vec<&str> = lines[2].split_whitespace().collect();
    assert_eq!(
        scale,
        [
            "scale(float*,",
            "int,",
            "float)",
            "2",
            "200",
            "200",
            "6400",
            "1.00",
            "32.00"
        ],
        "{}",
        r.stderr
    );
    assert!(lines[4].starts_with("  simulation rate: "), "{}", r.stderr);

    let r = exec(
        &[
            "--quiet",
            "--max-warp-instructions",
            "5000",
            "--",
            "./fake-launches.sh",
        ],
        &dir,
        Some(&lib),
    );
    assert_code(&r, 0);
    assert_eq!(r.stdout.trim(), "max=5000 events= stats=");
    assert_eq!(r.stderr, "", "--quiet: no summary");

    let r = exec(
        &[
            "-q",
            "--event-log",
            "--stats",
            "s.jsonl",
            "--progress",
            "--",
            "./fake-launches.sh",
        ],
        &dir,
        Some(&lib),
    );
    assert_code(&r, 0);
    assert_eq!(
        r.stdout.trim(),
        "max= events=1 stats=set1",
        "--progress: WARPSIM_PROGRESS=1"
    );
    assert_eq!(
        std::fs::read_to_string(dir.join("s.jsonl"))
            .unwrap()
            .lines()
            .count(),
        2
    );
    let r = exec(
        &["--event-log", "--", "./fake-launches.sh"],
        &dir,
        Some(&lib),
    );
    assert_code(&r, 2);
    assert_contains(&r, "--event-log writes the events into the --stats file");
    let r = exec(
        &[
            "--mode",
            "functional",
            "--event-log",
            "--stats",
            "s.jsonl",
            "--",
            "./fake-launches.sh",
        ],
        &dir,
        Some(&lib),
    );
    assert_code(&r, 2);
    assert_contains(&r, "--event-log needs timing mode");

    // An option exec does not know is not the program's name.
    let r = exec(&["--bogus", "./fake-launches.sh"], &dir, Some(&lib));
    assert_code(&r, 2);
    assert!(
        !r.all().contains("program --bogus not found"),
        "{}",
        r.all()
    );
    assert_contains(&r, "--bogus");
    let r = exec(&["--", "--bogus"], &dir, Some(&lib));
    assert_code(&r, 2);
    assert_contains(&r, "unknown option `--bogus` for exec");
}

/// nvcc's bin folder: PATH, `.cache/cuda`, else installed there.
fn nvcc() -> PathBuf {
    if let Ok(out) = Command::new("sh").args(["-c", "command -v nvcc"]).output() {
        let p = String::from_utf8_lossy(&out.stdout).trim().to_string();
        if !p.is_empty() {
            return PathBuf::from(p);
        }
    }
    let cached = repo().join(".cache/cuda/nvidia/cu13/bin/nvcc");
    if cached.is_file() {
        return cached;
    }
    let out = Command::new("bash")
        .arg(repo().join("scripts/install-cuda.sh"))
        .output()
        .expect("run install-cuda.sh");
    assert!(
        out.status.success(),
        "cannot install nvcc: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    PathBuf::from(String::from_utf8_lossy(&out.stdout).trim()).join("nvcc")
}

fn compile(nvcc: &Path, src: &Path, out: &Path, shared: bool, link: &Path) {
    let mut cmd = Command::new(nvcc);
    if shared {
        cmd.args(["-cudart", "shared"]);
    }
    cmd.arg("-arch=sm_75")
        .arg("-o")
        .arg(out)
        .arg(src)
        .arg(format!("-L{}", link.display()));
    cmd.env(
        "PATH",
        format!(
            "{}:{}",
            nvcc.parent().unwrap().display(),
            std::env::var("PATH").unwrap_or_default()
        ),
    );
    let o = cmd.output().expect("run nvcc");
    assert!(
        o.status.success(),
        "nvcc failed:\n{}{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    );
}

#[test]
fn runs_a_cuda_program_in_timing_mode() {
    let dir = scratch("exec-cuda");
    let nvcc = nvcc();
    // Link like a user: against the toolkit's libcudart.so.13 (or the shim when it has none).
    let link = dir.join("link");
    std::fs::create_dir_all(&link).unwrap();
    let real = nvcc.parent().unwrap().join("../lib/libcudart.so.13");
    let target = if real.is_file() { real } else { shim() };
    std::os::unix::fs::symlink(target.canonicalize().unwrap(), link.join("libcudart.so")).unwrap();
    let src = repo().join("tests/cuda/vector_add.cu");
    compile(&nvcc, &src, &dir.join("vadd"), true, &link);

    let r = exec(
        &[
            "--config",
            "titanx-pascal",
            "--policy",
            "lrr",
            "--stats",
            "stats.jsonl",
            "--trace",
            "trace.json",
            "--event-log",
            "--dump-ptx",
            "ptx/out",
            "--",
            "./vadd",
        ],
        &dir,
        Some(&shim()),
    );
    assert_code(&r, 0);
    assert!(
        r.stdout.trim_end().ends_with("PASS vector_add"),
        "{}",
        r.all()
    );
    // The closing summary: both kernels, demangled, with cycles and IPC; the total adds up.
    assert_contains(&r, "(timing titanx-pascal/lrr)");
    let row = |name: &str| -> Vec<String> {
        let line = r
            .stderr
            .lines()
            .find(|l| l.trim_start().starts_with(name))
            .unwrap_or_else(|| panic!("no {name} row:\n{}", r.stderr));
        line[line.find(')').map_or(0, |i| i + 1)..]
            .split_whitespace()
            .map(str::to_string)
            .collect()
    };
    let (add, scale, total) = (
        row("vecAdd(float const*"),
        row("scale(float*, float, int)"),
        row("total"),
    );
    let num = |v: &Vec<String>, i: usize| v[i].parse::<u64>().unwrap();
    let total = total[1..].to_vec();
    for i in 0..4 {
        assert_eq!(
            num(&add, i) + num(&scale, i),
            num(&total, i),
            "column {i}: {add:?} + {scale:?} = {total:?}"
        );
    }
    assert!(
        num(&total, 1) > 0 && num(&total, 3) >= 32 * num(&total, 2) / 32,
        "{total:?}"
    );
    assert_contains(&r, "simulation rate: ");
    let stats = std::fs::read_to_string(dir.join("stats.jsonl")).unwrap();
    let first: serde_json::Value = serde_json::from_str(stats.lines().next().unwrap()).unwrap();
    // --event-log: the launch's events in its line.
    let events = first["events"].as_array().expect("events with --event-log");
    assert!(!events.is_empty(), "{first}");
    assert_eq!(
        (
            first["mode"].as_str(),
            first["config"].as_str(),
            first["policy"].as_str()
        ),
        (Some("timing"), Some("titanx-pascal"), Some("lrr"))
    );
    assert!(first["cycles"].as_u64().unwrap() > 0);
    assert!(dir.join("stats.config.toml").is_file());
    // Kernel names: as written in C++, the mangled symbol beside.
    assert_eq!(
        first["kernel"],
        "vecAdd(float const*, float const*, float*, int)"
    );
    assert_eq!(first["kernel_mangled"], "_Z6vecAddPKfS0_Pfi");
    // --dump-ptx: the program's one module with code, as the PTX nvcc embedded (compute_75).
    let dumped: Vec<PathBuf> = std::fs::read_dir(dir.join("ptx/out"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    assert_eq!(dumped.len(), 1, "{dumped:?}");
    let name = dumped[0]
        .file_name()
        .unwrap()
        .to_string_lossy()
        .into_owned();
    assert!(
        name.starts_with("module") && name.ends_with(".compute_75.ptx"),
        "{name}"
    );
    let ptx = std::fs::read_to_string(&dumped[0]).unwrap();
    assert!(
        ptx.contains(".entry _Z6vecAddPKfS0_Pfi(") && ptx.contains(".entry _Z5scalePffi("),
        "{ptx}"
    );
    warpsim_core::load_ptx(&ptx).expect("the dumped PTX is the module warpsim loaded");
    // The shim's trace: every warp's one phase (no barrier) inside its CTA.
    let trace: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("trace.json")).unwrap()).unwrap();
    let names: Vec<&str> = trace["traceEvents"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|e| e["ph"] == "X")
        .filter_map(|e| e["name"].as_str())
        .collect();
    assert!(
        names.contains(&"phase 0") && names.iter().any(|n| n.starts_with("CTA ")),
        "{names:?}"
    );

    // The same program linked statically (nvcc's default) cannot run, and exec says why.
    compile(&nvcc, &src, &dir.join("vadd-static"), false, &link);
    let r = exec(&["--", "./vadd-static"], &dir, Some(&shim()));
    assert_code(&r, 2);
    assert_contains(&r, "-cudart shared");
}
