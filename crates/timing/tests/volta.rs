//! The Volta mechanisms of the qv100 preset, end to end: the unified L1 / shared-memory
//! carve-out sizes the L1 a launch gets from its shared memory; tensor-core instructions are
//! timed on its tensor units (`tests/tensor_timing.rs` times them in detail).

use crate::common;
use common::*;
use warpsim_core::config::GpuConfig;

#[test]
fn a_launch_without_shared_memory_gets_the_whole_unified_array() {
    // qv100: 4 sets × 128 B. No shared memory: 256 ways (128 KB), the 512 lines (128 a set)
    // all stay, and the second pass hits every one: 512 hits. 96 KB of shared memory: the
    // 96 KB carve-out leaves 64 ways (32 KB); 128 lines a set in LRU order evict each other
    // before their reuse: no hit. (The output covers the 64 KB read: 16384 words.)
    let cfg = GpuConfig::load("qv100").unwrap();
    let hits = |decls: &str| two_passes_l1_hits(&cfg, decls);
    assert_eq!(hits(""), 512);
    assert_eq!(hits(".shared .align 4 .b8 pad[98304];"), 0);
    // Without the unified array (l1d.unified_size = 0) the L1 is l1d.size, 32 KB, whatever the
    // shared memory: no hit either.
    let fixed = cfg.with_overrides(&["l1d.unified_size=0".into()]).unwrap();
    assert_eq!(two_passes_l1_hits(&fixed, ""), 0);
}

/// qv100 has tensor units: a kernel with `ldmatrix` runs in timing mode and gives functional
/// mode's result (the refusal is for presets without them: `tests/tensor_refused.rs`).
#[test]
fn qv100_times_tensor_core_instructions() {
    assert_ldmatrix_timed_as_functional(&GpuConfig::load("qv100").unwrap());
}
