//! `scripts/public-programs.sh`'s failure classes (the standing check of how much public CUDA
//! code runs under `warpsim exec`), through `scripts/test-public-programs.sh`: a stand-in
//! `warpsim` and small shell programs that print what warpsim and real programs print. Needs
//! bash and bc, not CUDA.

use std::path::Path;
use std::process::Command;

#[test]
fn public_programs_classes() {
    let repo = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let out = Command::new("bash")
        .arg(repo.join("scripts/test-public-programs.sh"))
        .output()
        .expect("cannot run bash scripts/test-public-programs.sh");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        out.status.success(),
        "scripts/test-public-programs.sh failed:\n{stderr}"
    );
    assert!(
        stderr.contains("classes as expected"),
        "unexpected output:\n{stderr}"
    );
}
