//! Runs `scripts/test-cudart.sh`: our own CUDA programs (tests/cuda), compiled with
//! `nvcc -cudart shared`, against the shim cargo just built for this test. nvcc is found on
//! PATH or in `.cache/cuda`, else installed there (scripts/install-cuda.sh): a machine where
//! that fails fails this test; it is never skipped.

use std::path::PathBuf;
use std::process::Command;

/// The cdylib cargo built for this test run. Cargo builds the library (cdylib + rlib) as a
/// dependency of this test into the `deps` folder holding the test executable; the copy
/// uplifted to `target/<profile>/` is only refreshed by `cargo build`.
fn shim() -> PathBuf {
    let exe = std::env::current_exe().expect("test executable path");
    let lib = exe
        .parent()
        .expect("target/<profile>/deps")
        .join("libwarpsim_cudart.so");
    assert!(lib.is_file(), "cargo did not build {}", lib.display());
    lib
}

/// Runs the script with `WARPSIM_MODE=mode` as the default for every program (a program's own
/// `// ENV:` directives still override it).
fn run_script(mode: &str) {
    let repo = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..");
    let status = Command::new("bash")
        .arg(repo.join("scripts/test-cudart.sh"))
        .current_dir(&repo)
        .env("WARPSIM_CUDART_LIB", shim())
        .env("WARPSIM_MODE", mode)
        .status()
        .expect("cannot run scripts/test-cudart.sh");
    assert!(
        status.success(),
        "scripts/test-cudart.sh ({mode} mode) failed (its output above names the programs)"
    );
}

/// Both modes in one test: the script's builds are shared and its output folder is not
/// safe for two concurrent runs.
#[test]
fn cuda_programs_run_on_the_shim() {
    run_script("timing");
    run_script("functional");
}
