//! The Volta mechanisms of the qv100 preset, end to end: the unified L1 / shared-memory
//! carve-out sizes the L1 a launch gets from its shared memory; tensor-core instructions are
//! refused in timing mode (their timing is a later item of issue 38).

mod common;
use common::*;
use warpsim_core::config::GpuConfig;
use warpsim_timing::PolicyKind;

/// One warp reads 512 lines (64 KB: each load instruction touches 32 lines, 128 bytes apart,
/// and 16 of them), twice; each load's value is added before the next load issues, so the
/// second pass starts after every line of the first has been filled. `decls` may declare
/// shared memory (never touched: it only sizes the carve-out).
fn two_passes(decls: &str) -> String {
    kernel(
        decls,
        "mov.u32 %r10, 0;\n\
         mov.u32 %r11, 0;\n\
         PASS:\n\
         mov.u32 %r12, 0;\n\
         LOOP:\n\
         mad.lo.s32 %r13, %r12, 32, %r5;\n\
         mul.wide.u32 %rd2, %r13, 128;\n\
         add.s64 %rd3, %rd1, %rd2;\n\
         ld.global.u32 %r14, [%rd3];\n\
         add.s32 %r10, %r10, %r14;\n\
         add.s32 %r12, %r12, 1;\n\
         setp.lt.u32 %p1, %r12, 16;\n\
         @%p1 bra LOOP;\n\
         add.s32 %r11, %r11, 1;\n\
         setp.lt.u32 %p2, %r11, 2;\n\
         @%p2 bra PASS;\n\
         mul.wide.u32 %rd4, %r5, 4;\n\
         add.s64 %rd5, %rd1, %rd4;\n\
         st.global.u32 [%rd5], %r10;",
    )
}

#[test]
fn a_launch_without_shared_memory_gets_the_whole_unified_array() {
    // qv100: 4 sets × 128 B. No shared memory: 256 ways (128 KB), the 512 lines (128 a set)
    // all stay, and the second pass hits every one: 512 hits. 96 KB of shared memory: the
    // 96 KB carve-out leaves 64 ways (32 KB); 128 lines a set in LRU order evict each other
    // before their reuse: no hit. (The output covers the 64 KB read: 16384 words.)
    let cfg = GpuConfig::load("qv100").unwrap();
    let n = 16384;
    let hits = |decls: &str| {
        let src = two_passes(decls);
        let reference = run(&src, 1, 32, n, None).out;
        let o = run(&src, 1, 32, n, Some((&cfg, PolicyKind::GTO)));
        assert!(o.error.is_none(), "{:?}", o.error);
        assert_eq!(o.out, reference);
        o.stats.unwrap().memory.l1d_loads.hits
    };
    assert_eq!(hits(""), 512);
    assert_eq!(hits(".shared .align 4 .b8 pad[98304];"), 0);
    // Without the unified array (l1d.unified_size = 0) the L1 is l1d.size, 32 KB, whatever the
    // shared memory: no hit either.
    let fixed = cfg.with_overrides(&["l1d.unified_size=0".into()]).unwrap();
    let src = two_passes("");
    let o = run(&src, 1, 32, n, Some((&fixed, PolicyKind::GTO)));
    assert_eq!(o.stats.unwrap().memory.l1d_loads.hits, 0);
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
