//! `coalescer.bypass_per_sector`: an access that goes around the L1 D-cache holds the LD/ST
//! unit one cycle per sector it touches (GPGPU-Sim's coalescer cuts such accesses into
//! 32-byte pieces and its LD/ST unit sends one a cycle), while an access through L1 takes one
//! cycle per line. Observed on one warp's back-to-back loads with no LD/ST queue, so each load
//! issues when the unit lets go of the one before it.

use crate::common;
use common::*;
use warpsim_core::config::GpuConfig;
use warpsim_timing::PolicyKind;

/// Four independent loads of `op` (each warp-wide: 4 sectors of one line), then a use.
fn loads(op: &str) -> String {
    kernel(
        "",
        &format!(
            "mul.wide.u32 %rd2, %r2, 4;\nadd.s64 %rd3, %rd1, %rd2;\n\
             {op} %r10, [%rd3];\n{op} %r11, [%rd3+4096];\n{op} %r12, [%rd3+8192];\n{op} %r13, [%rd3+12288];\n\
             add.s32 %r10, %r10, %r11;\nadd.s32 %r12, %r12, %r13;\nadd.s32 %r10, %r10, %r12;\n\
             st.global.u32 [%rd3], %r10;"
        ),
    )
}

/// Cycles between the issues of consecutive loads (the warp's 10th to 13th instructions).
fn load_gaps(preset: &str, op: &str, per_sector: bool) -> Vec<u64> {
    let cfg = GpuConfig::load_with(
        preset,
        &[
            "sm.ldst_queue=0".into(),
            format!("coalescer.bypass_per_sector={per_sector}"),
        ],
    )
    .unwrap();
    TRACE.with(|t| t.set(true));
    PERFECT_ICACHE.with(|t| t.set(true));
    let o = run(&loads(op), 1, 32, 4 * 1024, Some((&cfg, PolicyKind::GTO)));
    TRACE.with(|t| t.set(false));
    PERFECT_ICACHE.with(|t| t.set(false));
    let s = o.stats.expect("runs");
    let issues: Vec<u64> = s.issue_trace.iter().map(|e| e.cycle).collect();
    assert!(issues.len() >= 17, "{preset} {op}: {} issues", issues.len());
    issues[9..13].windows(2).map(|w| w[1] - w[0]).collect()
}

#[test]
fn an_access_around_l1_holds_the_ldst_unit_a_cycle_per_sector() {
    // titanx-pascal's global loads go around L1 (GPGPU-Sim's -gpgpu_gmem_skip_L1D);
    // gtx480's `.cg` loads do.
    for (preset, op) in [
        ("titanx-pascal", "ld.global.u32"),
        ("gtx480", "ld.global.cg.u32"),
    ] {
        let line = load_gaps(preset, op, false);
        let sector = load_gaps(preset, op, true);
        println!("{preset} {op}: per line {line:?}, per sector {sector:?}");
        // Four sectors: the next load waits four cycles for the unit. One line: the unit is
        // free sooner, and the front end sets the pace (gtx480 refills a 2-entry I-buffer).
        assert_eq!(
            sector,
            vec![4, 4, 4],
            "{preset}: one LD/ST cycle per sector"
        );
        assert!(
            line.iter().all(|&g| g < 4),
            "{preset}: one LD/ST cycle per line: {line:?}"
        );
    }
}

#[test]
fn an_access_through_l1_takes_one_cycle_per_line() {
    // gtx480 caches global loads in L1: the key does not apply to them.
    let line = load_gaps("gtx480", "ld.global.u32", false);
    let sector = load_gaps("gtx480", "ld.global.u32", true);
    assert_eq!(line, sector);
}
