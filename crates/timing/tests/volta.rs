//! The Volta mechanisms of the qv100 preset, end to end: the unified L1 / shared-memory
//! carve-out sizes the L1 a launch gets from its shared memory; tensor-core instructions are
//! timed on its tensor units (`tests/tensor_timing.rs` times them in detail).

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

/// qv100 has tensor units: a kernel with `ldmatrix` runs in timing mode and gives functional
/// mode's result (the refusal is for presets without them: `tests/tensor_refused.rs`).
#[test]
fn qv100_times_tensor_core_instructions() {
    let src = ldmatrix_kernel();
    let f = run(&src, 1, 32, 32, None);
    assert_eq!(f.error, None);
    assert!(f.out.iter().any(|&v| v != 0));
    let t = run(
        &src,
        1,
        32,
        32,
        Some((&GpuConfig::load("qv100").unwrap(), PolicyKind::GTO)),
    );
    assert_eq!(t.error, None);
    assert_eq!(t.out, f.out);
}

/// A kernel whose warp fills 256 bytes of shared memory, `ldmatrix`es them and stores each
/// lane's register.
fn ldmatrix_kernel() -> String {
    kernel(
        ".shared .align 16 .b8 buf[256];",
        "mov.u32 %r41, buf;\nshl.b32 %r42, %r5, 3;\nadd.u32 %r43, %r41, %r42;\n\
         mul.lo.u32 %r44, %r5, 0x00010003;\nst.shared.v2.u32 [%r43], {%r44, %r5};\nbar.sync 0;\n\
         shl.b32 %r45, %r5, 4;\nadd.u32 %r46, %r41, %r45;\n\
         ldmatrix.sync.aligned.m8n8.x1.shared.b16 {%r40}, [%r46];\n\
         mul.wide.u32 %rd2, %r5, 4;\nadd.s64 %rd3, %rd1, %rd2;\nst.global.u32 [%rd3], %r40;",
    )
}
