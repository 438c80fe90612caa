use crate::common;

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

/// `sm.atomics_block_warp` (GPGPU-Sim's `m_n_atomic`): after an `atom` whose result nobody
/// reads, the warp issues nothing more until the atomic is back; without it, the independent
/// chain after the atomic overlaps the atomic's round trip to L2.
#[test]
fn a_warp_waits_for_its_atomics_when_the_preset_says_so() {
    let chain: String = (0..40).map(|_| "add.s32 %r6, %r6, 1;\n").collect();
    let src = kernel(
        "",
        &format!(
            "atom.global.add.u32 %r7, [%rd1], 1;\nmov.u32 %r6, %r2;\n{chain}\
             mul.wide.u32 %rd2, %r2, 4;\nadd.s64 %rd3, %rd1, %rd2;\nst.global.u32 [%rd3+4], %r6;"
        ),
    );
    let reference = run(&src, 1, 32, 33, None).out;
    for preset in ["gtx480", "titanx-pascal"] {
        let mut cfg = warpsim_core::config::GpuConfig::load(preset).unwrap();
        assert!(cfg.sm.atomics_block_warp, "{preset} follows GPGPU-Sim");
        let blocked = run(&src, 1, 32, 33, Some((&cfg, PolicyKind::GTO)));
        cfg.sm.atomics_block_warp = false;
        let free = run(&src, 1, 32, 33, Some((&cfg, PolicyKind::GTO)));
        assert_eq!(blocked.out, reference);
        assert_eq!(free.out, reference);
        let (b, f) = (blocked.stats.unwrap(), free.stats.unwrap());
        // The chain (40 dependent adds) and the atomic's trip through the interconnect and
        // L2 add up when the warp waits, and overlap when it does not.
        let trip = (cfg.l2.latency + 2 * cfg.icnt.latency) as u64;
        assert!(
            b.cycles >= f.cycles + trip,
            "{preset}: {} cycles waiting for the atomic, {} not waiting (trip ≥ {trip})",
            b.cycles,
            f.cycles
        );
        // The wait is an idle issue slot (no valid instruction), as in GPGPU-Sim.
        assert!(b.issue.idle > f.issue.idle + trip);
    }
}

/// `sm.ldst_queue` (GPGPU-Sim's ID_OC_MEM register and memory operand collectors): a global
/// load may issue while the LD/ST unit still sends an earlier warp's accesses and wait behind
/// it, so fewer issue slots are lost to a busy LD/ST unit; shared-memory accesses still need
/// a free unit; results are the same.
#[test]
fn memory_instructions_queue_behind_a_busy_ldst_unit() {
    // Every lane loads its own 128-byte line (32 accesses per warp) past the first 4 KiB,
    // which the threads then write: a shared store and load of its own word, an add, a store.
    let src = kernel(
        ".shared .align 4 .b8 sh[1024];",
        "mul.wide.u32 %rd2, %r2, 128;\nrem.u64 %rd2, %rd2, 61440;\nadd.s64 %rd3, %rd1, %rd2;\n\
         ld.global.u32 %r7, [%rd3+4096];\nmov.u32 %r8, sh;\nshl.b32 %r9, %r5, 2;\nadd.s32 %r8, %r8, %r9;\n\
         st.shared.u32 [%r8], %r7;\nld.shared.u32 %r10, [%r8];\nadd.s32 %r10, %r10, %r2;\n\
         mul.wide.u32 %rd4, %r2, 4;\nadd.s64 %rd5, %rd1, %rd4;\nst.global.u32 [%rd5], %r10;",
    );
    let n = 16 * 1024;
    let reference = run(&src, 4, 256, n, None).out;
    for preset in ["gtx480", "titanx-pascal"] {
        let mut cfg = warpsim_core::config::GpuConfig::load(preset).unwrap();
        assert!(cfg.sm.ldst_queue > 0, "{preset} queues as GPGPU-Sim does");
        let queued = run(&src, 4, 256, n, Some((&cfg, PolicyKind::GTO)));
        cfg.sm.ldst_queue = 0;
        let unqueued = run(&src, 4, 256, n, Some((&cfg, PolicyKind::GTO)));
        assert!(
            queued.out == reference && unqueued.out == reference,
            "{preset}: results differ"
        );
        let (q, u) = (queued.stats.unwrap(), unqueued.stats.unwrap());
        assert!(
            q.issue.pipeline < u.issue.pipeline,
            "{preset}: {} pipeline-stall slots queued, {} not",
            q.issue.pipeline,
            u.issue.pipeline
        );
    }
}
