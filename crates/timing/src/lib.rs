//! warpsim-timing: the cycle-level timing model (issue 4). A CTA dispatcher feeds SMs whose
//! pipeline (fetch/decode with an L1 I-cache → I-buffer → issue with scoreboard, functional
//! units, dual issue and warp sharing → writeback)
//! drives the functional executor (`warpsim_core::exec::step`) at issue, so architectural
//! results equal functional mode's. See `README.md` for the model and its simplifications.

pub mod analysis;
pub mod classify;
mod cycle;
pub mod engine;
pub mod error;
pub mod fetch_policy;
pub mod gpu;
pub mod ids;
pub mod mem;
pub mod policy;
pub mod reg_use;
pub mod report;
pub mod sm;
pub mod stat_table;
pub mod stats;
mod team;
#[cfg(test)]
mod test_rng;
pub mod trace;
pub mod watch;

pub use engine::TimingEngine;
pub use error::TimingError;
pub use fetch_policy::FetchKind;
pub use gpu::{run_timed, run_timed_on, run_timed_with, run_timed_with_on, Launch, TimingOptions};
pub use mem::MemSystem;
pub use policy::PolicyKind;
pub use stats::TimingStats;
