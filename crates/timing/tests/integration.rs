//! warpsim-timing's integration tests as one binary (`autotests = false` in Cargo.toml): a file
//! per subject, each a module here, so the workspace links one test executable per crate
//! rather than one per file. One file's tests:
//! `cargo test -p warpsim-timing --test integration -- FILE::`.

// Helpers the test modules share.

mod common;
mod crafted;

// One module per subject.

mod ampere;
mod analysis;
mod branch_redirect;
mod cp_async;
mod hooks;
mod hot_slice;
mod intensity;
mod interconnect;
mod kaws;
mod launches;
mod ldst_queue;
mod ldst_sectors;
mod mem_micro;
mod mem_requests;
mod memory;
mod micro;
mod motrr;
mod occupancy;
mod policies;
mod pro;
mod report;
mod statistics_doc;
mod tensor_refused;
mod tensor_timing;
mod texture;
mod timing;
mod tls;
mod tls_marks;
mod turing;
mod volta;
