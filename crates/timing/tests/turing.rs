//! The rtx2060 preset (GPGPU-Sim's SM75_RTX2060) end to end: the L1 a launch gets from the
//! unified 96 KB array for each of the config's two carve-outs, and a read-and-write kernel
//! that verifies under both scheduler families with FP32 issuing every other cycle.

use crate::common;
use common::*;
use warpsim_core::config::GpuConfig;
use warpsim_timing::PolicyKind;

fn rtx2060() -> GpuConfig {
    GpuConfig::load("rtx2060").unwrap()
}

#[test]
fn the_l1_a_launch_gets_is_the_unified_array_less_the_32_or_64_kb_option() {
    // 512 lines (128 in each of the 4 sets) read twice by one warp of a one-warp CTA. The
    // shared memory that picks the option is a CTA's times the CTAs that fit an SM (16 by
    // -gpgpu_shader_cta, fewer when shared memory limits them). None, or 2 KB x 16 = 32 KB:
    // the 32 KB option, 128 ways, every line still there for its second read. 2 KB + 4 bytes
    // x 16, 16 KB x 4, 48 KB x 1: past 32 KB, the 64 KB option, 64 ways: LRU over 128 lines a
    // set evicts each before its reuse.
    let cfg = rtx2060();
    let hits = |decls: &str| two_passes_l1_hits(&cfg, decls);
    assert_eq!(hits(""), 512);
    assert_eq!(hits(".shared .align 4 .b8 pad[2048];"), 512);
    assert_eq!(hits(".shared .align 4 .b8 pad[2052];"), 0);
    assert_eq!(hits(".shared .align 4 .b8 pad[16384];"), 0);
    assert_eq!(hits(".shared .align 4 .b8 pad[49152];"), 0);
}

#[test]
fn a_strided_read_verifies_on_rtx2060_under_gto_and_lrr() {
    // 30 CTAs of 128 threads (one a SM) each read a word 1 KB from the next thread's, above
    // the words they write, add their index as a float (FP32 at an initiation interval of 2)
    // and write it back: the timing run must give the functional run's bytes.
    let src = kernel(
        "",
        "mul.wide.u32 %rd2, %r2, 1024;\n\
         add.s64 %rd3, %rd1, %rd2;\n\
         ld.global.u32 %r10, [%rd3+65536];\n\
         cvt.rn.f32.u32 %f1, %r2;\n\
         mov.b32 %f2, %r10;\n\
         add.f32 %f2, %f2, %f1;\n\
         mov.b32 %r10, %f2;\n\
         mul.wide.u32 %rd4, %r2, 4;\n\
         add.s64 %rd5, %rd1, %rd4;\n\
         st.global.u32 [%rd5], %r10;",
    );
    let threads = 30 * 128;
    let n = (65536 + threads * 1024) / 4;
    let reference = run(&src, 30, 128, n, None).out;
    let cfg = rtx2060();
    for policy in [PolicyKind::GTO, PolicyKind::LRR] {
        let o = run(&src, 30, 128, n, Some((&cfg, policy)));
        assert!(o.error.is_none(), "{policy:?}: {:?}", o.error);
        assert_eq!(o.out, reference, "{policy:?}");
        let l1 = o.stats.unwrap().memory.l1d_loads;
        assert_eq!((l1.hits, l1.misses), (0, threads as u64), "{policy:?}");
    }
}
