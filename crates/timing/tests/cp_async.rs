//! `cp.async` in the timing model (issue 19, item 8): the copy is a non-blocking global load
//! into shared memory, so work after it overlaps the copy, and `cp.async.wait_group` /
//! `wait_all` stall the warp (as data stalls) until the copy has landed.

use crate::common;
use common::*;
use warpsim_timing::PolicyKind;

/// One warp: out[tid] = 3·tid; cp.async it into buf[tid]; `before` runs between the copy and
/// the wait, `after` between the wait and the read; out[32 + tid] = buf[(tid + 1) % 32] + %r30.
fn kernel_with(wait: &str, before: &str, after: &str) -> String {
    let body = format!(
        "mul.wide.u32 %rd2, %r2, 4;\nadd.s64 %rd3, %rd1, %rd2;\nmul.lo.s32 %r9, %r2, 3;\n\
         st.global.u32 [%rd3], %r9;\nmembar.gl;\nmov.u32 %r6, buf;\nshl.b32 %r7, %r2, 2;\nadd.s32 %r8, %r6, %r7;\n\
         add.s32 %r10, %r2, 1;\nand.b32 %r10, %r10, 31;\nshl.b32 %r10, %r10, 2;\nadd.s32 %r11, %r6, %r10;\n\
         mov.u32 %r30, 0;\n\
         cp.async.ca.shared.global [%r8], [%rd3], 4;\ncp.async.commit_group;\n{before}\n{wait}\n{after}\n\
         bar.sync 0;\nld.shared.u32 %r12, [%r11];\nadd.s32 %r12, %r12, %r30;\nst.global.u32 [%rd3+128], %r12;"
    );
    kernel(".shared .align 4 .b8 buf[128];", &body)
}

/// 60 dependent integer adds into %r30 (their sum: 60·tid).
fn chain() -> String {
    (0..60).map(|_| "add.s32 %r30, %r30, %r2;\n").collect()
}

#[test]
fn work_after_the_copy_overlaps_it_and_the_wait_stalls_until_it_lands() {
    let cfg = gtx480();
    let policy = PolicyKind::GTO;
    let wait_first = kernel_with("cp.async.wait_group 0;", "", &chain());
    let wait_last = kernel_with("cp.async.wait_group 0;", &chain(), "");
    let wait_all = kernel_with("cp.async.wait_all;", &chain(), "");
    let no_copy_wait = kernel_with("", "", &chain());
    let mut cycles = Vec::new();
    for src in [&wait_first, &wait_last, &wait_all, &no_copy_wait] {
        let functional = run(src, 1, 32, 64, None);
        let timed = run(src, 1, 32, 64, Some((&cfg, policy)));
        assert_eq!(timed.error, None);
        assert_eq!(
            timed.out, functional.out,
            "timing and functional results agree"
        );
        for t in 0..32u32 {
            assert_eq!(
                timed.out[32 + t as usize],
                3 * ((t + 1) % 32) + 60 * t,
                "thread {t}"
            );
        }
        let s = timed.stats.unwrap();
        cycles.push((s.cycles, s.stalls.data));
    }
    let [(first, first_data), (last, last_data), (all, _), (none, _)] = cycles[..] else {
        unreachable!()
    };
    println!("cycles: wait first {first}, wait last {last}, wait_all last {all}, no wait {none}");
    // The copy reads a line the store just wrote through to L2: an L2 hit. Waiting before the
    // chain serialises copy and chain; waiting after overlaps them, so the difference is at
    // least the L2's own latency.
    assert!(
        first >= last + cfg.l2.latency as u64,
        "waiting first ({first}) should cost at least the L2 latency ({}) more than waiting last ({last})",
        cfg.l2.latency
    );
    assert_eq!(
        all, last,
        "wait_all after one committed group waits as wait_group 0"
    );
    // The wait is one more instruction: through a 2-entry I-buffer whose refills take a fetch
    // and a decode cycle, one instruction of a lone warp may cost up to 2 cycles.
    assert!(
        last <= none + 2,
        "a wait after the chain costs (almost) nothing: {last} vs {none}"
    );
    assert!(first_data > last_data, "the wait is charged as data stall");
}
