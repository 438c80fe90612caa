//! warpsim-core's integration tests as one binary (`autotests = false` in Cargo.toml): a file
//! per subject, each a module here, so the workspace links one test executable per crate
//! rather than one per file. One file's tests:
//! `cargo test -p warpsim-core --test integration -- FILE::`.

// Helpers the test modules share.

mod alu_oracle;
mod exec_util;
mod lower_util;
mod tensor_util;

// One module per subject.

mod alu_approx;
mod alu_bits;
mod alu_carry;
mod alu_compare;
mod alu_cvt;
mod alu_float;
mod alu_half;
mod alu_int;
mod alu_round;
mod config;
mod config_ampere;
mod config_tensor;
mod config_volta;
mod exec_address_size;
mod exec_cp_async;
mod exec_errors;
mod exec_heap;
mod exec_mma;
mod exec_semantics;
mod exec_sync_objects;
mod exec_texture;
mod exec_wmma;
mod link;
mod lower_calls;
mod lower_corpus;
mod lower_errors;
mod lower_layout;
mod lower_ops;
mod lower_reconv;
mod lower_source;

/// The crates whose tests are one binary (`autotests = false`) declare every file in their
/// `tests/` folder here: cargo no longer finds test files by itself, so a file left out would
/// never be compiled or run, and nothing else would say so.
#[test]
fn every_test_file_is_a_module_of_its_crates_test_binary() {
    use std::path::Path;
    let crates = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let mut checked = 0;
    for krate in std::fs::read_dir(&crates).unwrap() {
        let dir = krate.unwrap().path();
        let manifest = std::fs::read_to_string(dir.join("Cargo.toml")).unwrap_or_default();
        if !manifest.contains("autotests = false") {
            continue;
        }
        let root = std::fs::read_to_string(dir.join("tests/integration.rs"))
            .unwrap_or_else(|e| panic!("{}: no tests/integration.rs: {e}", dir.display()));
        for file in std::fs::read_dir(dir.join("tests")).unwrap() {
            let path = file.unwrap().path();
            let module = match path.extension() {
                Some(ext) if ext == "rs" => path.file_stem().unwrap().to_string_lossy().to_string(),
                _ if path.join("mod.rs").is_file() => {
                    path.file_name().unwrap().to_string_lossy().to_string()
                }
                _ => continue,
            };
            if module != "integration" {
                assert!(
                    root.lines().any(|l| l == format!("mod {module};")),
                    "{} is not declared in {}/tests/integration.rs (`mod {module};`)",
                    path.display(),
                    dir.display()
                );
                checked += 1;
            }
        }
    }
    assert!(checked > 60, "only {checked} test files found");
}
