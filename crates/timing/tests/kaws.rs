//! KAWS (paper 002): kernel-aware ordering (`kaws-ka`) on crafted SM states, exactly — oldest
//! first before the milestone, CTAs by progress (warp instructions, least first) from it on,
//! re-ranked as they issue and exit; on a real launch, the order switches in the very cycle
//! the last CTA is dispatched; and warp sharing (`kaws-ws`, `kaws`, `+ws`) on titanx-pascal's
//! per-scheduler collectors, counted by unit class. The Fig. 3 sharing decision is tested on
//! a crafted SM in `src/sm/share.rs`.
use crate::common;
use crate::crafted;

use common::*;
use crafted::Crafted;
use warpsim_core::config::{GpuConfig, PolicyParams};
use warpsim_timing::policy::KernelAware;
use warpsim_timing::PolicyKind;

/// Three CTAs of four warps, two schedulers (scheduler 0: even slots, 1: odd). Warp
/// instructions issued: CTA 0 = 30, CTA 1 = 10, CTA 2 = 20.
fn sm() -> Crafted<KernelAware> {
    let mut sm = Crafted::<KernelAware>::new(3, 4, 2, &PolicyParams::default());
    sm.issue_n(0, 30);
    sm.issue_n(5, 10);
    sm.issue_n(10, 20);
    sm
}

#[test]
fn before_the_milestone_warps_go_oldest_first_waiting_last() {
    let mut sm = sm();
    assert_eq!(sm.order(0), [0, 2, 4, 6, 8, 10]);
    assert_eq!(sm.order(1), [1, 3, 5, 7, 9, 11]);
    // Progress does not matter yet; a warp at a barrier goes last.
    sm.arrive(2);
    assert_eq!(sm.order(0), [0, 4, 6, 8, 10, 2]);
    assert!(!sm.shared.after_milestone());
    assert!(sm.shared.order().is_empty());
}

#[test]
fn from_the_milestone_ctas_go_by_progress_least_first_oldest_warp_inside() {
    let mut sm = sm();
    sm.last_dispatched();
    assert_eq!(sm.shared.order(), [1, 2, 0]);
    assert_eq!(sm.order(0), [4, 6, 8, 10, 0, 2]);
    assert_eq!(sm.order(1), [5, 7, 9, 11, 1, 3]);
    // CTA 1 issues 11 more (21 > CTA 2's 20): it moves behind CTA 2, not behind CTA 0.
    sm.issue_n(7, 11);
    assert_eq!(sm.shared.order(), [2, 1, 0]);
    assert_eq!(sm.order(1), [9, 11, 5, 7, 1, 3]);
    // Equal progress: the older CTA (lower linear index) first. CTA 2 reaches 30 = CTA 0.
    sm.issue_n(8, 10);
    assert_eq!(sm.shared.order(), [1, 0, 2]);
    // Waiting warps after every runnable one, CTAs in the same order.
    sm.arrive(4);
    sm.finish(1);
    assert_eq!(sm.order(0), [6, 0, 2, 8, 10, 4]);
    assert_eq!(sm.order(1), [5, 7, 3, 9, 11, 1]);
}

#[test]
fn an_exited_cta_leaves_the_ranking() {
    let mut sm = sm();
    sm.last_dispatched();
    sm.exit(2);
    assert_eq!(sm.shared.order(), [1, 0]);
    assert_eq!(sm.order(0), [4, 6, 0, 2]);
    sm.issue_n(4, 25);
    assert_eq!(sm.shared.order(), [0, 1]);
}

/// A loop of 16 independent adds (every warp ready most cycles): 8 iterations in CTA 0, 64 in
/// the others, so CTA 0 retires long before them and frees its slot mid-kernel.
fn uneven_kernel() -> String {
    let adds: String = (0..16)
        .map(|i| format!("add.s32 %r{}, %r2, {i};\n", 20 + i))
        .collect();
    kernel(
        "",
        &format!(
            "mov.u32 %r9, 0;\nsetp.eq.u32 %p2, %r3, 0;\nselp.u32 %r11, 8, 64, %p2;\nLOOP:\n{adds}\
             add.s32 %r9, %r9, 1;\nsetp.lt.u32 %p3, %r9, %r11;\n@%p3 bra LOOP;\n\
             add.s32 %r10, %r20, %r35;\nmul.wide.u32 %rd2, %r2, 4;\nadd.s64 %rd3, %rd1, %rd2;\nst.global.u32 [%rd3], %r10;"
        ),
    )
}

#[test]
fn the_order_switches_in_the_cycle_the_last_cta_is_dispatched() {
    // One SM with room for 4 CTAs of 4 warps (one warp per scheduler each) and 5 CTAs: the
    // last is dispatched when the short CTA 0 retires, while CTAs 1-3 are still working, CTA
    // 1 furthest (oldest first favours it). Before that cycle kaws-ka issues exactly as
    // `oldest`; in it, the schedulers turn to the least advanced CTA, which `oldest` does not.
    let cfg = GpuConfig::load_with(
        "titanx-pascal",
        &["gpu.num_sms=1".into(), "sm.max_ctas=4".into()],
    )
    .unwrap();
    let (grid, block) = (5, 128);
    let n = (grid * block) as usize;
    let src = uneven_kernel();
    let reference = run(&src, grid, block, n, None).out;
    TRACE.with(|t| t.set(true));
    let runs: Vec<_> = ["oldest", "kaws-ka"]
        .iter()
        .map(|p| {
            let o = run(
                &src,
                grid,
                block,
                n,
                Some((&cfg, PolicyKind::from_name(p).unwrap())),
            );
            assert_eq!(o.out, reference, "{p}");
            o.stats.unwrap()
        })
        .collect();
    TRACE.with(|t| t.set(false));
    let milestone = runs[1].ctas.iter().map(|c| c.start).max().unwrap();
    let first = runs[1].ctas.iter().map(|c| c.start).min().unwrap();
    assert!(milestone > first, "the last CTA must wait for a slot");
    assert_eq!(
        runs[0].ctas.iter().map(|c| c.start).max().unwrap(),
        milestone,
        "both policies dispatch the last CTA in the same cycle"
    );
    let (a, b) = (&runs[0].issue_trace, &runs[1].issue_trace);
    let split = a
        .iter()
        .zip(b)
        .position(|(x, y)| x != y)
        .expect("the orders differ after the milestone");
    assert_eq!(
        b[split].cycle, milestone,
        "first difference: {:?} vs {:?}",
        a[split], b[split]
    );
    assert!(a[..split].iter().all(|e| e.cycle <= milestone));
}

#[test]
fn warp_sharing_counts_its_issues_by_unit_class_on_per_scheduler_collectors() {
    // SFU-heavy warps on half of titanx-pascal's schedulers (warp slot w belongs to scheduler
    // w mod 4; the odd warps of a CTA exit at once), so schedulers 1 and 3 have free SFU
    // ports while 0 and 2 queue on theirs. Without sharing no issue is shared; with it
    // (`kaws-ws`, `kaws`, `gto+ws`) the SFU work is, and results are unchanged.
    let cfg = GpuConfig::load_with("titanx-pascal", &["gpu.num_sms=1".into()]).unwrap();
    let body = "and.b32 %r6, %r5, 32;\nsetp.ne.u32 %p1, %r6, 0;\n@%p1 bra END;\nadd.s32 %r8, %r2, %r1;\ncvt.rn.f32.u32 %f1, %r8;\n\
                sqrt.approx.f32 %f2, %f1;\nsqrt.approx.f32 %f3, %f1;\nsqrt.approx.f32 %f4, %f1;\nsqrt.approx.f32 %f5, %f1;\n\
                sqrt.approx.f32 %f6, %f1;\nsqrt.approx.f32 %f7, %f1;\nadd.f32 %f8, %f2, %f7;\ncvt.rzi.u32.f32 %r7, %f8;\n\
                mul.wide.u32 %rd2, %r2, 4;\nadd.s64 %rd3, %rd1, %rd2;\nst.global.u32 [%rd3], %r7;\nEND:";
    let src = kernel("", body);
    let (grid, block) = (2, 512);
    let n = (grid * block) as usize;
    let reference = run(&src, grid, block, n, None).out;
    let stats = |p: &str| {
        let o = run(
            &src,
            grid,
            block,
            n,
            Some((&cfg, PolicyKind::from_name(p).unwrap())),
        );
        assert_eq!(o.out, reference, "{p}");
        o.stats.unwrap()
    };
    for p in ["gto", "kaws-ka"] {
        assert_eq!(stats(p).shared_issues.total(), 0, "{p}");
    }
    for p in ["kaws-ws", "kaws", "gto+ws"] {
        let s = stats(p);
        let sh = s.shared_issues;
        assert!(sh.sfu > 0, "{p}: {sh:?}");
        assert_eq!(s.identity.policy, p);
    }
    // `kaws-ws` is `gto+ws` under the paper's name: the same run.
    let (a, b) = (stats("kaws-ws"), stats("gto+ws"));
    assert_eq!((a.cycles, a.shared_issues), (b.cycles, b.shared_issues));
}
