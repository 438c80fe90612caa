//! Issue 40, item 3: what CCCL and cooperative groups compile to for sm_80+ — `redux.sync` with
//! a membermask per lane (`cg::reduce` on 16-thread tiles) and mbarrier objects
//! (`cuda::barrier`, `cuda::pipeline`).

use crate::exec_util;
use exec_util::*;

#[test]
fn redux_reduces_over_each_lanes_own_membermask() {
    // Lanes 0–15 name mask 0x0000ffff, lanes 16–31 0xffff0000: two sums in one instruction.
    let body = "mov.u32 %r6, %laneid;\nand.b32 %r7, %r6, 16;\nmov.u32 %r8, 65535;\n\
                shl.b32 %r9, %r8, %r7;\nredux.sync.add.s32 %r10, %r2, %r9;\n\
                mul.wide.u32 %rd2, %r2, 4;\nadd.s64 %rd3, %rd1, %rd2;\nst.global.u32 [%rd3], %r10;";
    let out = run(&kernel("", body), 1, 32, 32).unwrap();
    let want: Vec<u32> = (0..32).map(|t| if t < 16 { 120 } else { 376 }).collect();
    assert_eq!(out, want);
}

#[test]
fn mbarrier_phases_complete_when_every_thread_has_arrived() {
    // 64 threads: thread 0 initialises the barrier for 64 arrivals; each thread arrives, then
    // spins on test_wait with its token; then each checks the parity form agrees (phase 0 has
    // completed) and that a second phase is pending until everyone arrives again.
    let body = ".shared .align 8 .b64 bar;\nmov.u32 %r20, bar;\nsetp.ne.u32 %p1, %r2, 0;\n\
                @%p1 bra $L_init;\nmbarrier.init.shared.b64 [%r20], 64;\n$L_init:\nbar.sync 0;\n\
                mbarrier.arrive.shared.b64 %rd6, [%r20];\n\
                $L_wait:\nmbarrier.test_wait.shared.b64 %p2, [%r20], %rd6;\n@!%p2 bra $L_wait;\n\
                mbarrier.test_wait.parity.shared.b64 %p3, [%r20], 0;\nselp.u32 %r10, 1, 0, %p3;\n\
                bar.sync 0;\nmbarrier.arrive.shared.b64 %rd7, [%r20], 1;\n\
                $L_wait2:\nmbarrier.try_wait.parity.shared.b64 %p4, [%r20], 1;\n@!%p4 bra $L_wait2;\n\
                add.s32 %r10, %r10, 10;\n\
                mul.wide.u32 %rd2, %r2, 4;\nadd.s64 %rd3, %rd1, %rd2;\nst.global.u32 [%rd3], %r10;";
    let out = run(&kernel("", body), 1, 64, 64).unwrap();
    assert_eq!(out, vec![11; 64]);
}
