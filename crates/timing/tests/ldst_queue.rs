//! The LD/ST queue (`sm.ldst_queue`) under sleeping schedulers: a scheduler that sleeps while
//! its memory instructions wait for the LD/ST unit must wake whenever one of them could issue,
//! so every statistic is the same as with schedulers that walk every cycle.

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

fn run_with<P: IssuePolicy + Build>(
    cfg: &GpuConfig,
    name: &str,
    sleep: bool,
) -> (TimingStats, Vec<u8>) {
    let src = kernel_src();
    let module = warpsim_core::load_ptx(&src).unwrap();
    let kernel = module.functions.iter().position(|f| f.name == "k").unwrap() as u32;
    let f = &module.functions[kernel as usize];
    let n = 24 * 1024usize;
    let (mut gmem, out, params) = zeroed_output(f, n);
    let k = LaunchCtx::one_dim(&module, kernel, &params, 8, 256, cfg.gpu.num_sms);
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
