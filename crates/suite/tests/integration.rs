//! warpsim-suite's integration tests as one binary (`autotests = false` in Cargo.toml): a file
//! per subject, each a module here, so the workspace links one test executable per crate
//! rather than one per file. One file's tests:
//! `cargo test -p warpsim-suite --test integration -- FILE::`.

// Helpers the test modules share.

mod common;

// One module per subject.

mod baws;
mod kaws;
mod motrr;
mod nonbarrier;
mod pro;
mod programs;
