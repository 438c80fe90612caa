//! `TimingStats::barrier_exit_fraction`: BAWS's barrier intensity of one launch, on
//! hand-built statistics (exact arithmetic) and on tiny launches (the stall accounting feeds it).
use crate::common;

use common::*;
use warpsim_timing::report;
use warpsim_timing::stats::{CtaRecord, StallCounts, WarpRecord};
use warpsim_timing::{PolicyKind, TimingStats};

fn cta(linear: u64, start: u64, end: u64) -> CtaRecord {
    CtaRecord {
        linear,
        id: [linear as u32, 0, 0],
        sm: 0,
        start,
        end,
    }
}

fn warp(cta: u64, warp: u32, stalls: StallCounts) -> WarpRecord {
    WarpRecord {
        cta,
        warp,
        sm: 0,
        slot: warp,
        age: warp as u64,
        instructions: 0,
        thread_instructions: 0,
        dual_issue_cycles: 0,
        start: 0,
        done: 0,
        issued_cycles: 0,
        stalls,
        barrier_fraction: 0.0,
    }
}

/// Statistics with nothing in them but the given records (`totals` of no launch is all zero).
fn with_records(ctas: Vec<CtaRecord>, warps: Vec<WarpRecord>) -> TimingStats {
    TimingStats {
        ctas,
        warps,
        ..report::totals(&[])
    }
}

#[test]
fn counts_barrier_and_exit_wait_over_resident_warp_cycles() {
    let s = with_records(
        // CTA 1 (2 warps) resident 100 cycles, CTA 0 (1 warp) 50: 250 warp cycles.
        vec![cta(1, 10, 110), cta(0, 0, 50)],
        vec![
            warp(
                1,
                0,
                StallCounts {
                    barrier: 20,
                    exit_wait: 5,
                    // Drain (the CTA waiting for its stores) is not a barrier or exit stall.
                    drain: 7,
                    data: 30,
                    ..Default::default()
                },
            ),
            warp(
                1,
                1,
                StallCounts {
                    barrier: 10,
                    fetch: 3,
                    ..Default::default()
                },
            ),
            warp(
                0,
                0,
                StallCounts {
                    exit_wait: 15,
                    not_selected: 9,
                    ..Default::default()
                },
            ),
        ],
    );
    assert_eq!(report::resident_warp_cycles(&s), 250);
    assert_eq!(s.barrier_exit_fraction(), 50.0 / 250.0);
}

#[test]
fn no_resident_cycles_is_zero_not_nan() {
    assert_eq!(
        with_records(Vec::new(), Vec::new()).barrier_exit_fraction(),
        0.0
    );
    // A CTA that ends the cycle it starts has no resident cycles either.
    let s = with_records(vec![cta(0, 5, 5)], vec![warp(0, 0, StallCounts::default())]);
    assert_eq!(s.barrier_exit_fraction(), 0.0);
}

/// One warp of each 128-thread CTA loops 2000 times; the other three exit at once and wait
/// for it: most of their resident cycles are exit wait, and there is no barrier.
fn one_long_warp() -> String {
    kernel(
        "",
        "setp.ge.u32 %p1, %r5, 32;\n@%p1 bra DONE;\nmov.u32 %r10, 0;\nLOOP:\nadd.s32 %r10, %r10, 1;\n\
         setp.lt.u32 %p2, %r10, 2000;\n@%p2 bra LOOP;\nmul.wide.u32 %rd2, %r2, 4;\nadd.s64 %rd3, %rd1, %rd2;\n\
         st.global.u32 [%rd3], %r10;\nDONE:",
    )
}

/// Every thread stores its id to shared memory, waits at a barrier, and writes back.
fn barrier_kernel() -> String {
    kernel(
        ".shared .align 4 .b8 sh[1024];",
        "shl.b32 %r6, %r5, 2;\nmov.u32 %r7, sh;\nadd.s32 %r8, %r7, %r6;\nst.shared.u32 [%r8], %r2;\nbar.sync 0;\n\
         ld.shared.u32 %r12, [%r8];\nmul.wide.u32 %rd2, %r2, 4;\nadd.s64 %rd3, %rd1, %rd2;\nst.global.u32 [%rd3], %r12;",
    )
}

fn stats(src: &str, grid: u32, block: u32, policy: PolicyKind) -> TimingStats {
    let cfg = gtx480();
    let o = run(
        src,
        grid,
        block,
        (grid * block) as usize,
        Some((&cfg, policy)),
    );
    assert_eq!(o.error, None);
    o.stats.unwrap()
}

#[test]
fn exit_wait_of_finished_warps_counts() {
    for policy in [PolicyKind::LRR, PolicyKind::GTO] {
        let s = stats(&one_long_warp(), 4, 128, policy);
        assert_eq!(s.stalls.barrier, 0, "{policy:?}");
        let f = s.barrier_exit_fraction();
        // Three of four warps idle at the exit for ~2000 loop iterations of the fourth.
        assert!(f > 0.6 && f < 0.75, "{policy:?}: {f}");
        assert_eq!(
            f,
            s.stalls.exit_wait as f64 / report::resident_warp_cycles(&s) as f64
        );
    }
}

#[test]
fn agrees_with_the_stall_totals_and_bounds_the_barrier_fraction() {
    for policy in policies() {
        let s = stats(&barrier_kernel(), 8, 256, policy);
        assert!(s.stalls.barrier > 0, "{policy:?}");
        let resident = report::resident_warp_cycles(&s) as f64;
        let f = s.barrier_exit_fraction();
        assert!(
            (f - (s.stalls.barrier + s.stalls.exit_wait) as f64 / resident).abs() < 1e-12,
            "{policy:?}"
        );
        // Same denominator as `barrier_stall_fraction`, one more term in the numerator.
        assert!(f >= s.barrier_stall_fraction && f <= 1.0, "{policy:?}: {f}");
        assert_eq!(f > s.barrier_stall_fraction, s.stalls.exit_wait > 0);
    }
}
