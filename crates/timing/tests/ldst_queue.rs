//! The LD/ST queue (`sm.ldst_queue`) under sleeping schedulers: a scheduler that sleeps while
//! its memory instructions wait for the LD/ST unit must wake whenever one of them could issue,
//! so every statistic is the same as with schedulers that walk every cycle. The same holds
//! for two-level scheduling asleep while its sets rotate (its data pattern).

use crate::common;
use common::*;
use warpsim_core::config::GpuConfig;
use warpsim_core::exec::context::LaunchCtx;
use warpsim_timing::fetch_policy::RoundRobin;
use warpsim_timing::policy::{Build, Gto, IssuePolicy, Lrr, Tls};
use warpsim_timing::{run_timed_with, Launch, PolicyKind, TimingOptions, TimingStats};

/// Uncoalesced global loads (32 accesses per warp), shared-memory traffic between them and a
/// barrier: the LD/ST unit is busy, its queue fills, and shared accesses wait their turn.
fn kernel_src() -> String {
    kernel(
        ".shared .align 4 .b8 sh[1024];",
        "mul.wide.u32 %rd2, %r2, 128;\nrem.u64 %rd2, %rd2, 61440;\nadd.s64 %rd3, %rd1, %rd2;\n\
         ld.global.u32 %r7, [%rd3+4096];\nmov.u32 %r8, sh;\nshl.b32 %r9, %r5, 2;\nadd.s32 %r8, %r8, %r9;\n\
         st.shared.u32 [%r8], %r7;\nbar.sync 0;\nld.shared.u32 %r10, [%r8];\nld.global.u32 %r11, [%rd3+8192];\n\
         add.s32 %r10, %r10, %r11;\nld.shared.u32 %r12, [%r8];\nadd.s32 %r10, %r10, %r12;\n\
         mul.wide.u32 %rd4, %r2, 4;\nadd.s64 %rd5, %rd1, %rd4;\nst.global.u32 [%rd5], %r10;",
    )
}

/// Every thread loads eight words, 33 words apart, from a region nothing writes, each sum
/// waiting at a barrier; warps with odd index do extra dependent arithmetic after each load,
/// so while some warps of a CTA wait on their loads others wait at the barrier: two-level's
/// due warps disagree on `Block::Data`.
fn mixed_waits_src() -> String {
    kernel(
        "",
        "mov.u32 %r10, 0;\nmov.u32 %r11, 0;\nLOOP:\nmad.lo.u32 %r12, %r11, 1024, %r2;\n\
         mul.lo.u32 %r12, %r12, 33;\nrem.u32 %r12, %r12, 8192;\nadd.u32 %r12, %r12, 8192;\n\
         mul.wide.u32 %rd4, %r12, 4;\nadd.s64 %rd5, %rd1, %rd4;\nld.global.u32 %r13, [%rd5];\n\
         add.u32 %r10, %r10, %r13;\nand.b32 %r14, %r5, 32;\nsetp.ne.u32 %p1, %r14, 0;\n\
         @%p1 mad.lo.u32 %r10, %r10, 3, %r11;\n@%p1 mad.lo.u32 %r10, %r10, 5, %r11;\n\
         @%p1 mad.lo.u32 %r10, %r10, 7, %r11;\nbar.sync 0;\nadd.u32 %r11, %r11, 1;\n\
         setp.lt.u32 %p2, %r11, 8;\n@%p2 bra LOOP;\nmul.wide.u32 %rd6, %r2, 4;\n\
         add.s64 %rd7, %rd1, %rd6;\nst.global.u32 [%rd7], %r10;",
    )
}

/// `kernel_src()` on 8 CTAs of 256 threads under policy `P`, with sleeping schedulers or
/// without.
fn run_with<P: IssuePolicy + Build>(
    cfg: &GpuConfig,
    name: &str,
    sleep: bool,
) -> (TimingStats, Vec<u8>) {
    run_src::<P>(&kernel_src(), (8, 256), cfg, name, sleep)
}

/// `src` on `ctas` CTAs of `threads` threads under policy `P`, with sleeping schedulers or
/// without.
fn run_src<P: IssuePolicy + Build>(
    src: &str,
    (ctas, threads): (u32, u32),
    cfg: &GpuConfig,
    name: &str,
    sleep: bool,
) -> (TimingStats, Vec<u8>) {
    let module = warpsim_core::load_ptx(src).unwrap();
    let kernel = module.functions.iter().position(|f| f.name == "k").unwrap() as u32;
    let f = &module.functions[kernel as usize];
    let n = 24 * 1024usize;
    let (mut gmem, out, params) = zeroed_output(f, n);
    let k = LaunchCtx::one_dim(&module, kernel, &params, ctas, threads, cfg.gpu.num_sms);
    let opts = TimingOptions {
        max_cycles: 50_000_000,
        trace_issue: true,
        ..TimingOptions::new(PolicyKind::from_name(name).unwrap(), 16)
    };
    let s = if sleep {
        run_timed_with(
            Launch {
                k: &k,
                gmem: &mut gmem,
                printf: &mut String::new(),
                shared_bytes: f.shared_bytes,
            },
            cfg,
            &opts,
            P::build,
            RoundRobin::default,
        )
    } else {
        run_timed_with(
            Launch {
                k: &k,
                gmem: &mut gmem,
                printf: &mut String::new(),
                shared_bytes: f.shared_bytes,
            },
            cfg,
            &opts,
            |b| NoSleep(P::build(b)),
            RoundRobin::default,
        )
    }
    .unwrap();
    let mut bytes = vec![0u8; n * 4];
    gmem.read(out, &mut bytes).unwrap();
    (s, bytes)
}

#[test]
fn sleeping_schedulers_change_nothing_with_the_ldst_queue() {
    for preset in ["gtx480", "titanx-pascal"] {
        let cfg = GpuConfig::load_with(preset, &["gpu.num_sms=2".into()]).unwrap();
        assert!(cfg.sm.ldst_queue > 0);
        for (name, pair) in [
            (
                "gto",
                (
                    run_with::<Gto>(&cfg, "gto", true),
                    run_with::<Gto>(&cfg, "gto", false),
                ),
            ),
            (
                "lrr",
                (
                    run_with::<Lrr>(&cfg, "lrr", true),
                    run_with::<Lrr>(&cfg, "lrr", false),
                ),
            ),
            // Two-level sleeps while its sets rotate, charging the rotation's data pattern.
            (
                "tls",
                (
                    run_with::<Tls>(&cfg, "tls", true),
                    run_with::<Tls>(&cfg, "tls", false),
                ),
            ),
        ] {
            let ((a, out_a), (b, out_b)) = pair;
            assert!(out_a == out_b, "{preset} {name}: results differ");
            assert_eq!(a.cycles, b.cycles, "{preset} {name}: cycles");
            assert_eq!(a.issue_trace, b.issue_trace, "{preset} {name}: issue order");
            assert_eq!(a.issue, b.issue, "{preset} {name}: issue slots");
        }
    }
}

/// Two-level scheduling asleep while its sets rotate charges, cycle by cycle, the issue-slot
/// outcome a walk would have had: where due warps at a barrier and due warps waiting on loads
/// take turns in the active set, and where few resident warps leave empty slots rotating
/// with them, every statistic equals that of schedulers that never sleep.
#[test]
fn two_level_asleep_charges_what_a_walk_every_cycle_would() {
    let src = mixed_waits_src();
    // With GPGPU-Sim's sticky long-operation marks (the default) a due warp may be a
    // candidate too (`policy.tls.long_marks`).
    for (preset, marks) in [
        ("gtx480", "sticky"),
        ("gtx480", "pending"),
        ("titanx-pascal", "sticky"),
        ("titanx-pascal", "pending"),
    ] {
        let marks = format!("policy.tls.long_marks={marks}");
        let cfg = GpuConfig::load_with(preset, &["gpu.num_sms=2".into(), marks]).unwrap();
        // Full SMs, then one CTA of three warps per SM (most slots empty).
        for shape in [(12, 256), (2, 96)] {
            let (a, out_a) = run_src::<Tls>(&src, shape, &cfg, "tls", true);
            let (b, out_b) = run_src::<Tls>(&src, shape, &cfg, "tls", false);
            assert!(out_a == out_b, "{preset} {shape:?}: results differ");
            assert_eq!(a.cycles, b.cycles, "{preset} {shape:?}: cycles");
            assert_eq!(
                a.issue_trace, b.issue_trace,
                "{preset} {shape:?}: issue order"
            );
            assert_eq!(a.issue, b.issue, "{preset} {shape:?}: issue slots");
            // Not vacuous: both outcomes a pattern chooses between occur.
            let slots = a.issue_per_scheduler.iter().flatten();
            let (idle, scoreboard) = slots.fold((0, 0), |(i, s), c| (i + c.idle, s + c.scoreboard));
            assert!(
                idle > 0 && scoreboard > 0,
                "{preset} {shape:?}: {:?}",
                a.issue
            );
        }
    }
}
