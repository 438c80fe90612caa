//! The MOTRR family (paper 004) on crafted SM states, exactly: memory-class warps first,
//! oldest first; compute-class warps oldest first (`mto`), round robin (`motrr`), or round
//! robin with the recent group first (`motrr-recency`); the recency counters (reset on the
//! warp's own completion, incremented on every other's, saturating at `recency_bits`), the
//! W_active / 2 window and who leaves it; and on a real launch: results verify and fast
//! forward changes nothing.
use crate::common;
use crate::crafted;

use common::*;
use crafted::Crafted;
use warpsim_core::config::{GpuConfig, PolicyParams};
use warpsim_timing::ids::WarpSlot;
use warpsim_timing::policy::{Motrr, MotrrRecency, Mto};
use warpsim_timing::PolicyKind;

fn params(bits: u32) -> PolicyParams {
    let mut p = PolicyParams::default();
    p.motrr.recency_bits = bits;
    p
}

/// One CTA of eight warps on one scheduler. Ages (smaller = older) differ from slot order so
/// "oldest" and "round robin" can be told apart: slot 5 is the oldest, then 2, 7, 0, …
const AGES: [u64; 8] = [3, 6, 1, 7, 4, 0, 5, 2];

fn sm<P: warpsim_timing::policy::IssuePolicy + warpsim_timing::policy::Build>(
    bits: u32,
) -> Crafted<P> {
    let mut sm = Crafted::<P>::new(1, 8, 1, &params(bits));
    sm.set_ages(&AGES);
    sm
}

#[test]
fn mto_issues_memory_warps_oldest_first_then_compute_warps_oldest_first() {
    let mut sm = sm::<Mto>(6);
    // Compute-only: plain oldest first.
    assert_eq!(sm.order(0), [5, 2, 7, 0, 4, 6, 1, 3]);
    sm.next_is_memory(&[0, 3, 6]);
    // Memory warps by age (0: 3, 6: 5, 3: 7), then compute warps by age.
    assert_eq!(sm.order(0), [0, 6, 3, 5, 2, 7, 4, 1]);
    // Issuing does not rotate anything.
    sm.issue(7);
    assert_eq!(sm.order(0), [0, 6, 3, 5, 2, 7, 4, 1]);
}

#[test]
fn motrr_issues_memory_warps_oldest_first_then_compute_warps_round_robin() {
    let mut sm = sm::<Motrr>(6);
    sm.next_is_memory(&[0, 3, 6]);
    // Nothing issued yet: compute warps from slot 0 on.
    assert_eq!(sm.order(0), [0, 6, 3, 1, 2, 4, 5, 7]);
    // The round robin starts after the warp this scheduler issued last (a compute warp) …
    sm.issue(4);
    assert_eq!(sm.order(0), [0, 6, 3, 5, 7, 1, 2, 4]);
    // … or a memory warp: the pointer is the last issued warp of either class.
    sm.issue(6);
    assert_eq!(sm.order(0), [0, 6, 3, 7, 1, 2, 4, 5]);
    // A memory warp whose I-buffer is empty, or that waits at a barrier, is not memory class:
    // it takes its round-robin place among the rest (where the issue walk skips it).
    sm.w.set_ib_n(WarpSlot(0), 0);
    sm.arrive(3);
    assert_eq!(sm.order(0), [6, 7, 0, 1, 2, 3, 4, 5]);
}

#[test]
fn two_schedulers_order_only_their_own_warps() {
    let mut sm = Crafted::<Motrr>::new(1, 8, 2, &params(6));
    sm.set_ages(&AGES);
    sm.next_is_memory(&[3, 6]);
    // Scheduler 0 owns the even slots, scheduler 1 the odd ones.
    assert_eq!(sm.order(0), [6, 0, 2, 4]);
    assert_eq!(sm.order(1), [3, 1, 5, 7]);
    sm.issue(5);
    assert_eq!(sm.order(1), [3, 7, 1, 5]);
    assert_eq!(sm.order(0), [6, 0, 2, 4]);
}

fn recent(sm: &Crafted<MotrrRecency>) -> Vec<u16> {
    (0..sm.w.len() as u16)
        .filter(|&s| sm.shared.recent(s))
        .collect()
}

fn counters(sm: &Crafted<MotrrRecency>) -> Vec<u16> {
    (0..sm.w.len() as u16)
        .map(|s| sm.shared.counter(s))
        .collect()
}

#[test]
fn recency_counters_reset_on_the_own_completion_and_count_the_others() {
    // Two CTAs of four warps: W_active = 8, a window of 4. Two-bit counters saturate at 3.
    let mut sm = Crafted::<MotrrRecency>::new(2, 4, 1, &params(2));
    // New warps start saturated and outside the group.
    assert_eq!(counters(&sm), [3; 8]);
    assert!(recent(&sm).is_empty());
    sm.mem_complete(1);
    assert_eq!(counters(&sm), [3, 0, 3, 3, 3, 3, 3, 3]);
    for s in [4, 6, 0] {
        sm.mem_complete(s);
    }
    assert_eq!(counters(&sm), [0, 3, 3, 3, 2, 3, 1, 3]);
    assert_eq!(recent(&sm), [0, 1, 4, 6]);
    assert_eq!(sm.shared.members(), 4);
    // A fifth member overflows the window: the largest counter leaves. Warps 1 and 4 tie at
    // the saturated 3; the higher slot leaves, so warp 1 stays though it completed earlier.
    sm.mem_complete(2);
    assert_eq!(counters(&sm), [1, 3, 0, 3, 3, 3, 2, 3]);
    assert_eq!(recent(&sm), [0, 1, 2, 6]);
    // A second completion of a member keeps the group's size.
    sm.mem_complete(6);
    assert_eq!(recent(&sm), [0, 1, 2, 6]);
    assert_eq!(counters(&sm), [2, 3, 1, 3, 3, 3, 0, 3]);
}

#[test]
fn wider_counters_keep_the_most_recent_completions() {
    // The same sequence with six-bit counters: no saturation, so warp 1 (the earliest
    // completion) is the one that leaves.
    let mut sm = Crafted::<MotrrRecency>::new(2, 4, 1, &params(6));
    for s in [1, 4, 6, 0, 2] {
        sm.mem_complete(s);
    }
    assert_eq!(counters(&sm), [1, 4, 0, 63, 3, 63, 2, 63]);
    assert_eq!(recent(&sm), [0, 2, 4, 6]);
}

#[test]
fn the_window_follows_the_live_warps() {
    let mut sm = Crafted::<MotrrRecency>::new(2, 4, 1, &params(6));
    for s in [1, 4, 6, 0] {
        sm.mem_complete(s);
    }
    assert_eq!(recent(&sm), [0, 1, 4, 6]);
    // A member finishes: it leaves; W_active = 7, window 3.
    sm.finish(6);
    assert_eq!(recent(&sm), [0, 1, 4]);
    // A non-member finishes: W_active = 6, window still 3.
    sm.finish(5);
    assert_eq!(recent(&sm), [0, 1, 4]);
    // W_active = 5, window 2: the largest counter (warp 1: 3) leaves.
    sm.finish(7);
    assert_eq!(counters(&sm)[..5], [0, 3, 63, 63, 2]);
    assert_eq!(recent(&sm), [0, 4]);
    // A finished warp's store draining still counts for the others' counters and resets its
    // own, but it takes no place in the group.
    sm.mem_complete(7);
    assert_eq!(counters(&sm)[7], 0);
    assert_eq!(counters(&sm)[0], 1);
    assert_eq!(recent(&sm), [0, 4]);
    // CTA 1 exits (its last warp finishes first); a new CTA takes the slot: its warps start
    // saturated and outside the group.
    sm.finish(4);
    assert_eq!(recent(&sm), [0]);
    sm.exit(1);
    sm.launch_cta(1, 2);
    assert_eq!(counters(&sm)[4..], [63; 4]);
    assert_eq!(recent(&sm), [0]);
    sm.mem_complete(5);
    assert_eq!(recent(&sm), [0, 5]);
}

#[test]
fn motrr_recency_puts_the_recent_compute_warps_first_each_group_round_robin() {
    let mut sm = sm::<MotrrRecency>(6);
    // Window 4 of 8: warps 6 and 2 completed memory instructions.
    sm.mem_complete(6);
    sm.mem_complete(2);
    assert_eq!(recent(&sm), [2, 6]);
    sm.issue(3);
    // Memory-class first (1 only); then the recent compute warps from after warp 3 (6, 2);
    // then the others from after warp 3.
    sm.next_is_memory(&[1]);
    assert_eq!(sm.order(0), [1, 6, 2, 4, 5, 7, 0, 3]);
    // A recent warp whose next instruction is a load is memory class, not recent-compute.
    sm.next_is_memory(&[6]);
    assert_eq!(sm.order(0), [6, 1, 2, 4, 5, 7, 0, 3]);
    sm.issue(2);
    assert_eq!(sm.order(0), [6, 1, 2, 3, 4, 5, 7, 0]);
}

/// Warps load, add and store in a loop whose trip count depends on the warp, so memory and
/// compute instructions interleave unevenly across warps.
fn mixed_kernel() -> String {
    kernel(
        "",
        "shr.u32 %r6, %r5, 5;\nadd.s32 %r6, %r6, 2;\nmov.u32 %r7, 0;\nmov.u32 %r8, 0;\n\
         mul.wide.u32 %rd2, %r2, 4;\nadd.s64 %rd3, %rd1, %rd2;\n\
         LOOP:\nld.global.u32 %r9, [%rd3];\nadd.s32 %r7, %r7, %r9;\nmad.lo.s32 %r7, %r7, 3, %r8;\n\
         mad.lo.s32 %r7, %r7, 5, %r8;\nst.global.u32 [%rd3], %r7;\nadd.s32 %r8, %r8, 1;\n\
         setp.lt.u32 %p1, %r8, %r6;\n@%p1 bra LOOP;",
    )
}

#[test]
fn every_motrr_policy_verifies_and_fast_forward_changes_nothing() {
    let src = mixed_kernel();
    let cfg = GpuConfig::load_with(
        "gtx480",
        &["gpu.num_sms=2".into(), "policy.motrr.recency_bits=3".into()],
    )
    .unwrap();
    let (grid, block) = (24, 256);
    let n = (grid * block) as usize;
    let reference = run(&src, grid, block, n, None).out;
    let mut cycles = Vec::new();
    for name in ["mto", "motrr", "motrr-recency"] {
        let p = PolicyKind::from_name(name).unwrap();
        let fast = run(&src, grid, block, n, Some((&cfg, p)));
        FAST_FORWARD.with(|f| f.set(false));
        let slow = run(&src, grid, block, n, Some((&cfg, p)));
        FAST_FORWARD.with(|f| f.set(true));
        assert_eq!(fast.out, reference, "{name}");
        assert_eq!(slow.out, reference, "{name}");
        let (fast, slow) = (fast.stats.unwrap(), slow.stats.unwrap());
        assert_eq!(fast, slow, "{name}");
        cycles.push(fast.cycles);
    }
    println!("mto, motrr, motrr-recency cycles: {cycles:?}");
}

#[test]
fn the_family_is_registered_with_its_parameter() {
    for (name, params) in [
        ("mto", &[][..]),
        ("motrr", &[][..]),
        ("motrr-recency", &["motrr"][..]),
    ] {
        let p = PolicyKind::from_name(name).unwrap();
        assert_eq!(p.issue().params, params);
        assert!(common::policies().iter().any(|q| q.issue_name() == name));
    }
    for bad in [0, 17] {
        let e = GpuConfig::load_with("gtx480", &[format!("policy.motrr.recency_bits={bad}")])
            .unwrap_err();
        assert!(e.to_string().contains("policy.motrr.recency_bits"), "{e}");
    }
}
