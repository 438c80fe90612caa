//! ptx's integration tests as one binary (`autotests = false` in Cargo.toml): a file
//! per subject, each a module here, so the workspace links one test executable per crate
//! rather than one per file. One file's tests:
//! `cargo test -p ptx --test integration -- FILE::`.

// Helpers the test modules share.

// One module per subject.

mod corpus;
mod errors;
mod robustness;
mod snippets;
