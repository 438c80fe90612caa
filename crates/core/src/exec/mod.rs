//! The functional SIMT executor: one warp instruction at a time over struct-of-arrays warp
//! state, with a SIMT reconvergence stack, call frames in per-thread local memory, and the
//! memory spaces of a CTA.
//!
//! Architecture invariant: `step` is the only place instruction semantics live; functional mode
//! (`grid`) and the timing model both drive it, so their architectural results agree.

pub mod arith;
pub mod context;
pub mod control;
pub mod cp_async;
pub mod cta;
pub mod decoded;
pub mod fault;
pub mod global;
pub mod grid;
pub mod heap;
pub mod lane_loops;
pub mod lane_runs;
pub mod mbarrier;
pub mod mem_ops;
pub mod memory;
pub mod operands;
pub mod prefetch;
pub mod printf;
pub mod scalar_access;
pub mod step;
pub mod tensor;
pub mod texture;
pub mod vector_access;
pub mod warp;
pub mod warp_ops;
