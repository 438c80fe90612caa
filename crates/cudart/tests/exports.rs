//! The shim exports every public symbol of NVIDIA's `libcudart.so.13`, with the same symbol
//! version, so that no program built against the real runtime stops in the dynamic loader
//! (`symbol lookup error: … undefined symbol: cudaGraphClone`) before `main` runs.
//!
//! The real library is the one next to the nvcc the CUDA program tests use
//! (`scripts/test-cudart.sh`): nvcc on PATH, else `$WARPSIM_CUDA_DIR` (default
//! `.cache/cuda`) holding the pip-installed toolkit, whose `lib/libcudart.so.13` sits beside
//! `bin/nvcc`. Without a CUDA install this test prints why and passes; with one, any symbol
//! the real library exports and the shim does not fails it.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::Command;

/// The cdylib cargo built for this test run (as in `tests/programs.rs`).
fn shim() -> PathBuf {
    let exe = std::env::current_exe().expect("test executable path");
    let lib = exe
        .parent()
        .expect("target/<profile>/deps")
        .join("libwarpsim_cudart.so");
    assert!(lib.is_file(), "cargo did not build {}", lib.display());
    lib
}

/// NVIDIA's `libcudart.so.13`, found as `scripts/test-cudart.sh` finds nvcc.
fn real_runtime() -> Option<PathBuf> {
    let repo = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..");
    let mut bins: Vec<PathBuf> = std::env::var_os("PATH")
        .map(|p| std::env::split_paths(&p).collect())
        .unwrap_or_default();
    bins.retain(|d| d.join("nvcc").is_file());
    let dir = std::env::var_os("WARPSIM_CUDA_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| repo.join(".cache/cuda"));
    bins.push(dir.join("nvidia/cu13/bin"));
    bins.iter()
        .map(|b| b.join("../lib/libcudart.so.13"))
        .find(|l| l.is_file())
}

/// The defined dynamic symbols of a library as `name@@version`, less the version definition
/// itself (an absolute symbol named after the version node).
fn exports(lib: &Path) -> BTreeSet<String> {
    let out = Command::new("nm")
        .args(["-D", "--defined-only"])
        .arg(lib)
        .output()
        .expect("cannot run nm (binutils) to list a library's exports");
    assert!(
        out.status.success(),
        "nm -D {} failed: {}",
        lib.display(),
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout)
        .expect("nm prints UTF-8")
        .lines()
        .filter_map(|l| l.split_whitespace().nth(2))
        .filter(|s| !s.starts_with("libcudart.so"))
        .map(str::to_owned)
        .collect()
}

#[test]
fn every_public_symbol_of_the_real_runtime_is_exported() {
    let Some(real) = real_runtime() else {
        println!(
            "SKIPPED: no CUDA install (nvcc on PATH or in $WARPSIM_CUDA_DIR / .cache/cuda, \
             with lib/libcudart.so.13 beside bin/); scripts/install-cuda.sh installs one"
        );
        return;
    };
    let want = exports(&real);
    let have = exports(&shim());
    let missing: Vec<&String> = want.difference(&have).collect();
    println!(
        "{}: {} public symbols; the shim exports {} of them",
        real.display(),
        want.len(),
        want.len() - missing.len()
    );
    assert!(
        missing.is_empty(),
        "the shim lacks {} of the {} symbols {} exports:\n{}",
        missing.len(),
        want.len(),
        real.display(),
        missing
            .iter()
            .map(|s| s.as_str())
            .collect::<Vec<_>>()
            .join("\n")
    );
}
