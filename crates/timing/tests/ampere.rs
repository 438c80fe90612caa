//! The rtx3070 preset (GPGPU-Sim's SM86_RTX3070) end to end: the L1 a launch gets from the
//! unified 128 KB array for each of the config's carve-outs, GDDR6 reads that verify under
//! every scheduler family, and tensor-core instructions timed on its tensor units.

use crate::common;
use common::*;
use warpsim_core::config::GpuConfig;
use warpsim_timing::PolicyKind;

fn rtx3070() -> GpuConfig {
    GpuConfig::load("rtx3070").unwrap()
}

#[test]
fn the_l1_a_launch_gets_follows_the_shmem_option_its_shared_memory_picks() {
    // 512 lines (128 in each of the 4 sets) read twice by one warp. As GPGPU-Sim's max_cta,
    // the shared memory that picks the carve-out is a CTA's times the CTAs that fit an SM
    // (not the CTAs this one-CTA launch has), and the carve-out sets the L1's ways. None: 256
    // ways, all 512 lines stay and the second pass hits each. 60 KB: one CTA fits, the 64 KB
    // option, 128 ways: exactly the 128 lines of a set, every one still a hit. 48 KB: two
    // CTAs fit (96 KB), the 100 KB option, 56 ways: LRU over 128 lines a set evicts each line
    // before its reuse, no hit; 64 KB + 4 bytes and 100 KB: one CTA, the 100 KB option again.
    let cfg = rtx3070();
    let hits = |decls: &str| two_passes_l1_hits(&cfg, decls);
    assert_eq!(hits(""), 512);
    assert_eq!(hits(".shared .align 4 .b8 pad[61440];"), 512);
    assert_eq!(hits(".shared .align 4 .b8 pad[49152];"), 0);
    assert_eq!(hits(".shared .align 4 .b8 pad[65540];"), 0);
    assert_eq!(hits(".shared .align 4 .b8 pad[102400];"), 0);
}

#[test]
fn a_strided_read_verifies_on_rtx3070_under_gto_and_lrr() {
    // 46 CTAs of 128 threads (one a SM) each read a word 1 KB from the next thread's, above
    // the words they write (every read its own line; the IPOLY hash spreads them over the 32
    // slices), and write it plus their index: the timing run must give the functional run's
    // bytes under both scheduler families.
    let src = kernel(
        "",
        "mul.wide.u32 %rd2, %r2, 1024;\n\
         add.s64 %rd3, %rd1, %rd2;\n\
         ld.global.u32 %r10, [%rd3+65536];\n\
         add.s32 %r10, %r10, %r2;\n\
         mul.wide.u32 %rd4, %r2, 4;\n\
         add.s64 %rd5, %rd1, %rd4;\n\
         st.global.u32 [%rd5], %r10;",
    );
    let threads = 46 * 128;
    let n = (65536 + threads * 1024) / 4;
    let reference = run(&src, 46, 128, n, None).out;
    let cfg = rtx3070();
    for policy in [PolicyKind::GTO, PolicyKind::LRR] {
        let o = run(&src, 46, 128, n, Some((&cfg, policy)));
        assert!(o.error.is_none(), "{policy:?}: {:?}", o.error);
        assert_eq!(o.out, reference, "{policy:?}");
        // Every load is its own L1 miss: no line is read twice.
        let l1 = o.stats.unwrap().memory.l1d_loads;
        assert_eq!((l1.hits, l1.misses), (0, threads as u64), "{policy:?}");
    }
}

/// rtx3070 has tensor units: a kernel with `ldmatrix` runs in timing mode and gives functional
/// mode's result (the refusal is for presets without them: `tests/tensor_refused.rs`).
#[test]
fn rtx3070_times_tensor_core_instructions() {
    assert_ldmatrix_timed_as_functional(&rtx3070());
}
