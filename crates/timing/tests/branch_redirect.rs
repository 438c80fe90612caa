//! `sm.branch_redirect`: when fetch leaves a taken branch's path. With `issue` the branch's
//! issue redirects fetch to its target at once; with `scheduler` (the presets'), as GPGPU-Sim, the
//! issue leaves the fall-through in the I-buffer (or fetches it next), and the scheduler's next
//! look at the warp finds the head is not where the warp continues and flushes it, so the
//! target issues at least a cycle later.

use crate::common;
use common::*;
use warpsim_core::config::GpuConfig;
use warpsim_timing::PolicyKind;

/// One warp sums 0..19 in a loop of four instructions and stores the sum (190).
fn loop_src() -> String {
    kernel(
        "",
        "mov.u32 %r10, 0;\nmov.u32 %r11, 0;\nLOOP:\nadd.u32 %r10, %r10, %r11;\n\
         add.u32 %r11, %r11, 1;\nsetp.lt.u32 %p1, %r11, 20;\n@%p1 bra LOOP;\n\
         mul.wide.u32 %rd2, %r2, 4;\nadd.s64 %rd3, %rd1, %rd2;\nst.global.u32 [%rd3], %r10;",
    )
}

/// The loop's first instruction and its branch: after the kernel's 7-instruction prologue
/// (`common::kernel`) and the two moves.
const TARGET: u32 = 9;
const BRANCH: u32 = 12;

/// Cycles from each issue of the branch to the next issue of the loop's first instruction,
/// under `policy` with `sm.branch_redirect = redirect` (one gtx480 SM, one warp, a perfect
/// I-cache); the output checked.
fn back_edge_gaps(redirect: &str, policy: &str) -> Vec<u64> {
    let cfg = GpuConfig::load_with(
        "gtx480",
        &[
            "gpu.num_sms=1".into(),
            format!("sm.branch_redirect={redirect}"),
        ],
    )
    .unwrap();
    TRACE.with(|t| t.set(true));
    PERFECT_ICACHE.with(|t| t.set(true));
    let o = run(
        &loop_src(),
        1,
        32,
        32,
        Some((&cfg, PolicyKind::from_name(policy).unwrap())),
    );
    TRACE.with(|t| t.set(false));
    PERFECT_ICACHE.with(|t| t.set(false));
    assert!(o.error.is_none(), "{:?}", o.error);
    assert!(o.out.iter().all(|&w| w == 190), "{:?}", o.out);
    let trace = o.stats.unwrap().issue_trace;
    let mut gaps = Vec::new();
    let mut branch_at = None;
    for e in &trace {
        match e.pc {
            BRANCH => branch_at = Some(e.cycle),
            TARGET => {
                if let Some(b) = branch_at.take() {
                    gaps.push(e.cycle - b);
                }
            }
            _ => {}
        }
    }
    assert_eq!(gaps.len(), 19, "every taken back edge: {trace:?}");
    gaps
}

/// At its issue the branch redirects fetch: fetched in that cycle's (only) fetch slot, the
/// target is decoded in the next and issues two cycles after the branch. GPGPU-Sim's way
/// costs at least one cycle more on every back edge (the scheduler finds the stale head a
/// cycle after the branch at the earliest), and two when the branch was the I-buffer's last
/// entry (fetch takes the fall-through first).
#[test]
fn the_scheduler_finds_a_taken_branch_a_cycle_or_more_later() {
    for policy in ["gto", "lrr", "tls"] {
        let at_issue = back_edge_gaps("issue", policy);
        let gpgpusim = back_edge_gaps("scheduler", policy);
        assert!(at_issue.iter().all(|&g| g == 2), "{policy}: {at_issue:?}");
        assert!(gpgpusim.iter().all(|&g| g >= 3), "{policy}: {gpgpusim:?}");
        assert!(gpgpusim.contains(&3), "{policy}: {gpgpusim:?}");
        assert!(gpgpusim.contains(&4), "{policy}: {gpgpusim:?}");
    }
}
