//! The Volta mechanisms of the qv100 preset, end to end: the unified L1 / shared-memory
//! carve-out sizes the L1 a launch gets from its shared memory; tensor-core instructions are
//! refused in timing mode (their timing is a later item of issue 38).

mod common;
use common::*;
use warpsim_core::config::GpuConfig;
use warpsim_timing::PolicyKind;

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

/// qv100's tensor units are not timed yet: the refusal is the older presets' (its words, "has
/// no tensor cores", predate a preset with tensor units; item 2 of issue 38 times them).
#[test]
fn qv100_refuses_tensor_core_instructions_in_timing_mode_by_name() {
    let src = kernel(
        ".shared .align 16 .b8 buf[256];",
        "mov.u32 %r41, buf;\nldmatrix.sync.aligned.m8n8.x1.shared.b16 {%r40}, [%r41];",
    );
    assert_eq!(run(&src, 1, 32, 32, None).error, None);
    let cfg = GpuConfig::load("qv100").unwrap();
    let err = run(&src, 1, 32, 32, Some((&cfg, PolicyKind::GTO)))
        .error
        .expect("refused");
    assert!(
        err.contains("ldmatrix.sync.aligned.m8n8.x1.shared.b16")
            && err.contains("`qv100`")
            && err.contains("no tensor cores"),
        "{err}"
    );
}
