//! Computes the model fingerprint the experiment cache keys runs with
//! (`WARPSIM_MODEL_HASH`): a SHA-256 over every source file that can change a simulated
//! result — the PTX front end, the functional core, the timing model, the suite's programs
//! and kernels, and the CLI code that runs a program and turns its statistics into a run
//! record. A change to any of them invalidates cached runs; a change to a report, plot or
//! the docs does not.

use sha2::{Digest, Sha256};
use std::path::{Path, PathBuf};

/// Relative to this crate's folder.
const MODEL_SOURCES: &[&str] = &[
    "../ptx/src",
    "../core/src",
    "../timing/src",
    "../suite/src",
    "../suite/kernels",
    "src/workload.rs",
    "src/model.rs",
    "src/stats_out.rs",
    "src/lab/record.rs",
];

fn files(p: &Path, out: &mut Vec<PathBuf>) {
    if p.is_dir() {
        let mut entries: Vec<PathBuf> = std::fs::read_dir(p)
            .map(|d| d.filter_map(|e| e.ok().map(|e| e.path())).collect())
            .unwrap_or_default();
        entries.sort();
        for e in entries {
            files(&e, out);
        }
    } else if p.is_file() {
        out.push(p.to_path_buf());
    }
}

fn main() {
    let mut hasher = Sha256::new();
    for root in MODEL_SOURCES {
        println!("cargo:rerun-if-changed={root}");
        let mut all = Vec::new();
        files(Path::new(root), &mut all);
        for f in all {
            // The path relative to the crate, so the hash does not depend on the checkout's
            // location.
            hasher.update(f.to_string_lossy().as_bytes());
            hasher.update([0]);
            hasher.update(std::fs::read(&f).unwrap_or_default());
            hasher.update([0]);
        }
    }
    let digest = hasher.finalize();
    let hex: String = digest.iter().take(8).map(|b| format!("{b:02x}")).collect();
    println!("cargo:rustc-env=WARPSIM_MODEL_HASH={hex}");
}
