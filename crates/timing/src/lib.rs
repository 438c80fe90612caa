//! warpsim-timing: the cycle-level timing model (issue 4), v0. A CTA dispatcher feeds SMs whose
//! pipeline (fetch/decode → I-buffer → issue with scoreboard and functional units → writeback)
//! drives the functional executor (`warpsim_core::exec::step`) at issue, so architectural
//! results equal functional mode's. See `README.md` for the model and its v0 simplifications.

pub mod classify;
pub mod error;
pub mod gpu;
pub mod policy;
pub mod sm;
pub mod stats;

pub use error::TimingError;
pub use gpu::{run_timed, TimingOptions};
pub use policy::PolicyKind;
pub use stats::TimingStats;
