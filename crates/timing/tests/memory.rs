mod common;

use common::*;
use warpsim_timing::PolicyKind;

/// Each thread loads `in[tid * stride]` (from its own output buffer) and stores it back.
fn strided_kernel(stride: u32) -> String {
    kernel(
        "",
        &format!(
            "mul.lo.s32 %r6, %r2, {stride};\nrem.u32 %r6, %r6, %r1;\nmul.wide.u32 %rd2, %r6, 4;\nadd.s64 %rd3, %rd1, %rd2;\n\
             ld.global.u32 %r7, [%rd3];\nadd.s32 %r7, %r7, %r2;\nmul.wide.u32 %rd4, %r2, 4;\nadd.s64 %rd5, %rd1, %rd4;\nst.global.u32 [%rd5], %r7;"
        ),
    )
}

#[test]
fn uncoalesced_loads_take_longer() {
    let cfg = gtx480();
    let n = 64 * 1024;
    let fast = run(&strided_kernel(1), 8, 256, n, Some((&cfg, PolicyKind::GTO)))
        .stats
        .unwrap();
    let slow = run(
        &strided_kernel(32),
        8,
        256,
        n,
        Some((&cfg, PolicyKind::GTO)),
    )
    .stats
    .unwrap();
    assert!(
        slow.cycles > fast.cycles + 100,
        "coalesced {} vs strided {}",
        fast.cycles,
        slow.cycles
    );
    assert!(slow.stalls.structural > fast.stalls.structural);
}

#[test]
fn ctas_beyond_occupancy_wait_for_free_slots() {
    let cfg = gtx480();
    // 512 threads → 3 CTAs per SM; 60 CTAs on 15 SMs → 45 in the first wave.
    let chain: String = (0..50).map(|_| "add.s32 %r6, %r6, 1;\n").collect();
    let src = kernel("", &format!("mov.u32 %r6, %r2;\n{chain}mul.wide.u32 %rd2, %r2, 4;\nadd.s64 %rd3, %rd1, %rd2;\nst.global.u32 [%rd3], %r6;"));
    let reference = run(&src, 60, 512, 60 * 512, None).out;
    let o = run(&src, 60, 512, 60 * 512, Some((&cfg, PolicyKind::LRR)));
    assert_eq!(o.out, reference);
    let s = o.stats.unwrap();
    assert_eq!(s.ctas_per_sm, 3);
    let mut starts: Vec<u64> = s.ctas.iter().map(|c| c.start).collect();
    starts.sort();
    // One CTA per SM per cycle: the first wave of 3 per SM takes 3 cycles.
    assert_eq!(starts[44], 2, "the first wave dispatches at once");
    assert!(starts[45] > starts[0]);
    let first_end = s.ctas.iter().map(|c| c.end).min().unwrap();
    assert!(starts[45] >= first_end);
    // Round robin: CTA i of the first wave goes to SM i mod 15.
    for c in s.ctas.iter().filter(|c| c.linear < 15) {
        assert_eq!(c.sm as u64, c.linear);
    }
}
