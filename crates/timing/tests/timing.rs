mod common;

use common::*;
use warpsim_timing::policy::{Gto, IssuePolicy, Lrr, Oldest, PolicyView, Tls};
use warpsim_timing::PolicyKind;

/// Divergent loop: out[i] = sum_{j < i % 7} (j * 3 + i).
fn loop_kernel() -> String {
    kernel(
        "",
        "setp.ge.u32 %p1, %r2, %r1;\n@%p1 bra DONE;\nrem.u32 %r6, %r2, 7;\nmov.u32 %r7, 0;\nmov.u32 %r8, 0;\n\
         LOOP:\nsetp.ge.u32 %p2, %r8, %r6;\n@%p2 bra END;\nmad.lo.s32 %r9, %r8, 3, %r2;\nadd.s32 %r7, %r7, %r9;\nadd.s32 %r8, %r8, 1;\nbra LOOP;\n\
         END:\nmul.wide.u32 %rd2, %r2, 4;\nadd.s64 %rd3, %rd1, %rd2;\nst.global.u32 [%rd3], %r7;\nDONE:",
    )
}

/// Block-wide reversal through shared memory, twice, with barriers.
fn barrier_kernel() -> String {
    kernel(
        ".shared .align 4 .b8 sh[1024];",
        "shl.b32 %r6, %r5, 2;\nmov.u32 %r7, sh;\nadd.s32 %r8, %r7, %r6;\nst.shared.u32 [%r8], %r2;\nbar.sync 0;\n\
         sub.s32 %r9, %r4, %r5;\nsub.s32 %r9, %r9, 1;\nshl.b32 %r10, %r9, 2;\nadd.s32 %r11, %r7, %r10;\nld.shared.u32 %r12, [%r11];\nbar.sync 0;\n\
         add.s32 %r12, %r12, 1000;\nst.shared.u32 [%r8], %r12;\nbar.sync 0;\nld.shared.u32 %r13, [%r11];\n\
         mul.wide.u32 %rd2, %r2, 4;\nadd.s64 %rd3, %rd1, %rd2;\nst.global.u32 [%rd3], %r13;",
    )
}

fn chain_kernel(n: usize) -> String {
    let adds: String = (0..n).map(|_| "add.s32 %r6, %r6, 1;\n").collect();
    kernel("", &format!("mov.u32 %r6, %r2;\n{adds}mul.wide.u32 %rd2, %r2, 4;\nadd.s64 %rd3, %rd1, %rd2;\nst.global.u32 [%rd3], %r6;"))
}

#[test]
fn results_match_functional_under_every_policy() {
    let cfg = gtx480();
    for (src, grid, block, n) in [
        (loop_kernel(), 40, 96, 3800),
        (barrier_kernel(), 30, 256, 30 * 256),
    ] {
        let reference = run(&src, grid, block, n, None).out;
        assert!(reference.iter().any(|&v| v != 0));
        for p in POLICIES {
            let o = run(&src, grid, block, n, Some((&cfg, p)));
            assert_eq!(o.out, reference, "policy {p:?}");
            let s = o.stats.unwrap();
            assert_eq!(s.ctas.len() as u32, grid);
            assert!(s.cycles > 0 && s.warp_instructions > 0);
        }
    }
}

#[test]
fn dependent_chain_takes_n_times_add_latency() {
    let cfg = gtx480();
    let n = 200;
    let o = run(&chain_kernel(n), 1, 32, 32, Some((&cfg, PolicyKind::Gto)));
    assert_eq!(o.out[5], 5 + n as u32);
    let s = o.stats.unwrap();
    let lat = cfg.latency.int[0] as u64;
    assert!(s.cycles >= n as u64 * lat, "{} cycles", s.cycles);
    assert!(s.cycles <= n as u64 * lat + 600, "{} cycles", s.cycles);
    assert!(
        s.stalls.data >= (n as u64) * (lat - 1) - 10,
        "{:?}",
        s.stalls
    );
}

#[test]
fn independent_warps_approach_issue_width() {
    let cfg = gtx480();
    let n = 400;
    // 1 CTA of 16 warps on one SM: dependent chains per warp, but 8 warps per scheduler hide the latency.
    let o = run(&chain_kernel(n), 1, 512, 512, Some((&cfg, PolicyKind::Lrr)));
    let s = o.stats.unwrap();
    let width = cfg.sm.schedulers as f64;
    assert!(s.ipc > 0.8 * width, "ipc {} (width {width})", s.ipc);
    assert!(s.ipc <= width + 1e-9);
}

#[test]
fn barrier_kernel_reports_barrier_stalls() {
    let cfg = gtx480();
    let s = run(
        &barrier_kernel(),
        30,
        256,
        30 * 256,
        Some((&cfg, PolicyKind::Gto)),
    )
    .stats
    .unwrap();
    assert!(s.stalls.barrier > 0);
    assert!(s.barrier_stall_fraction > 0.0 && s.barrier_stall_fraction < 1.0);
    for c in &s.ctas {
        assert!(c.end > c.start);
    }
    let json = serde_json::to_string(&s).unwrap();
    assert!(json.contains("barrier_stall_fraction"));
}

#[test]
fn repeated_runs_are_identical() {
    let cfg = gtx480();
    for p in POLICIES {
        let a = run(&loop_kernel(), 40, 96, 3800, Some((&cfg, p)))
            .stats
            .unwrap();
        let b = run(&loop_kernel(), 40, 96, 3800, Some((&cfg, p)))
            .stats
            .unwrap();
        assert_eq!(a, b);
    }
}

#[test]
fn unknown_policy_lists_valid_names() {
    let e = PolicyKind::from_name("nope").unwrap_err().to_string();
    for n in ["lrr", "gto", "oldest", "tls"] {
        assert!(e.contains(n), "{e}");
    }
    assert_eq!(PolicyKind::from_name("tls:4").unwrap(), PolicyKind::Tls(4));
}

struct V {
    occupied: Vec<bool>,
    age: Vec<u64>,
    waiting: Vec<bool>,
    long_dep: Vec<bool>,
}

impl V {
    fn new(n: usize) -> V {
        V {
            occupied: vec![true; n],
            age: (0..n as u64).collect(),
            waiting: vec![false; n],
            long_dep: vec![false; n],
        }
    }
    fn view(&self) -> PolicyView<'_> {
        PolicyView {
            occupied: &self.occupied,
            age: &self.age,
            waiting: &self.waiting,
            long_dep: &self.long_dep,
        }
    }
}

#[test]
fn lrr_rotates_after_the_last_issuer() {
    let slots = [0u16, 2, 4, 6];
    let v = V::new(8);
    let mut p = Lrr::default();
    let mut out = Vec::new();
    p.order(&slots, &v.view(), &mut out);
    assert_eq!(out, [0, 2, 4, 6]);
    p.issued(2);
    p.order(&slots, &v.view(), &mut out);
    assert_eq!(out, [4, 6, 0, 2]);
    p.issued(6);
    p.order(&slots, &v.view(), &mut out);
    assert_eq!(out, [0, 2, 4, 6]);
}

#[test]
fn gto_keeps_the_greedy_warp_until_it_waits() {
    let slots = [0u16, 1, 2, 3];
    let mut v = V::new(4);
    v.age = vec![3, 1, 0, 2];
    let mut p = Gto::default();
    let mut out = Vec::new();
    p.order(&slots, &v.view(), &mut out);
    assert_eq!(out, [2, 1, 3, 0]);
    p.issued(3);
    p.order(&slots, &v.view(), &mut out);
    assert_eq!(out, [3, 2, 1, 0]);
    v.waiting[3] = true;
    v.waiting[2] = true;
    p.order(&slots, &v.view(), &mut out);
    assert_eq!(out, [1, 0, 2, 3]);
}

#[test]
fn oldest_orders_by_dynamic_id() {
    let slots = [0u16, 1, 2, 3];
    let mut v = V::new(4);
    v.age = vec![9, 4, 7, 1];
    v.occupied[2] = false;
    let mut out = Vec::new();
    Oldest.order(&slots, &v.view(), &mut out);
    assert_eq!(out, [3, 1, 0]);
}

#[test]
fn tls_issues_only_from_its_active_set_and_demotes_long_latency_waiters() {
    let slots: Vec<u16> = (0..10).collect();
    let mut v = V::new(10);
    let mut p = Tls::new(3, 10, 10);
    let mut out = Vec::new();
    p.order(&slots, &v.view(), &mut out);
    assert_eq!(out, [0, 1, 2]);
    p.issued(0);
    p.order(&slots, &v.view(), &mut out);
    assert_eq!(out, [1, 2, 0]);
    v.long_dep[1] = true;
    p.order(&slots, &v.view(), &mut out);
    assert_eq!(p.active(), [0, 2, 3]);
    assert_eq!(out, [2, 3, 0]);
    v.long_dep[1] = false;
    v.waiting[0] = true;
    p.order(&slots, &v.view(), &mut out);
    assert_eq!(p.active(), [2, 3, 4]);
}

#[test]
fn every_policy_completes_on_titanx() {
    let cfg = warpsim_core::config::GpuConfig::load("titanx-pascal").unwrap();
    let reference = run(&barrier_kernel(), 30, 256, 30 * 256, None).out;
    for p in POLICIES {
        assert_eq!(
            run(&barrier_kernel(), 30, 256, 30 * 256, Some((&cfg, p))).out,
            reference
        );
    }
}

#[test]
fn faults_and_deadlocks_report_like_functional_mode() {
    let cfg = gtx480();
    // Thread 37 stores through a null pointer.
    let fault = kernel("", "setp.eq.u32 %p1, %r2, 37;\n@!%p1 bra SKIP;\nmov.u64 %rd5, 8;\nst.global.u32 [%rd5], %r2;\nSKIP:");
    // Warp 1 skips the barrier and exits; warp 0 waits for 64 threads forever.
    let deadlock = kernel(
        "",
        "setp.ge.u32 %p1, %r5, 32;\n@%p1 bra SKIP;\nbar.sync 0, 64;\nSKIP:\nbar.sync 1, 64;",
    );
    for (src, what) in [(fault, "out of bounds"), (deadlock, "deadlock")] {
        let f = run(&src, 2, 64, 128, None)
            .error
            .expect("functional mode fails");
        assert!(f.contains(what), "{f}");
        for p in POLICIES {
            let t = run(&src, 2, 64, 128, Some((&cfg, p)))
                .error
                .expect("timing mode fails");
            assert_eq!(t, f);
        }
    }
}

/// One scheduler, `warps` warps of one CTA, each running `n` independent adds (no scoreboard
/// stalls) with a deep I-buffer; returns the issuing warps' ages in issue order.
fn issue_sequence(policy: PolicyKind, warps: u32, n: usize) -> Vec<u64> {
    let cfg = warpsim_core::config::GpuConfig::load_with(
        "gtx480",
        &[
            "sm.schedulers=1".into(),
            "sm.ibuffer_entries=8".into(),
            "sm.fetch_bytes=64".into(),
            "gpu.num_sms=1".into(),
        ],
    )
    .unwrap();
    let body: String = (0..n)
        .map(|i| format!("add.s32 %r{}, %r2, {i};\n", 10 + i % 60))
        .collect();
    let src = kernel("", &body);
    TRACE.with(|t| t.set(true));
    let s = run(
        &src,
        1,
        32 * warps,
        32 * warps as usize,
        Some((&cfg, policy)),
    )
    .stats
    .unwrap();
    TRACE.with(|t| t.set(false));
    let seq: Vec<u64> = s.issue_trace.iter().map(|e| e.age).collect();
    assert_eq!(seq.len() as u64, s.warp_instructions);
    seq
}

#[test]
fn lrr_rotates_in_the_model() {
    let seq = issue_sequence(PolicyKind::Lrr, 4, 40);
    // Once every warp has instructions, consecutive issues come from different warps, in rotation.
    let mid = &seq[20..60];
    for w in mid.windows(2) {
        assert_eq!(w[1], (w[0] + 1) % 4, "{mid:?}");
    }
}

#[test]
fn gto_stays_on_the_greedy_warp_in_the_model() {
    let seq = issue_sequence(PolicyKind::Gto, 4, 40);
    let switches = seq.windows(2).filter(|w| w[0] != w[1]).count();
    let lrr = issue_sequence(PolicyKind::Lrr, 4, 40);
    let lrr_switches = lrr.windows(2).filter(|w| w[0] != w[1]).count();
    // GTO switches only when the greedy warp's I-buffer runs dry (every 8 instructions).
    assert!(
        switches * 4 < lrr_switches,
        "gto {switches} vs lrr {lrr_switches}: {seq:?}"
    );
    // And it starts with the oldest warp.
    assert_eq!(seq[0], 0);
}

#[test]
fn oldest_prefers_the_lowest_dynamic_id_in_the_model() {
    let seq = issue_sequence(PolicyKind::Oldest, 4, 40);
    // Warp 0 finishes its whole stream before warp 3 issues its last instruction...
    let last0 = seq.iter().rposition(|&a| a == 0).unwrap();
    let last3 = seq.iter().rposition(|&a| a == 3).unwrap();
    assert!(last0 < last3);
    // ...and every instruction of warp 3 issues while no older warp had one buffered, so the
    // order of last issues is by age.
    let lasts: Vec<usize> = (0..4)
        .map(|w| seq.iter().rposition(|&a| a == w).unwrap())
        .collect();
    assert!(lasts.windows(2).all(|w| w[0] < w[1]), "{lasts:?}");
}

#[test]
fn tls_issues_only_from_its_active_set_in_the_model() {
    let seq = issue_sequence(PolicyKind::Tls(2), 6, 30);
    // With nothing to demote, the first two warps form the active set until they finish.
    let first_other = seq.iter().position(|&a| a >= 2).unwrap();
    let last01 = seq.iter().rposition(|&a| a < 2).unwrap();
    assert!(last01 < first_other, "{seq:?}");
}

#[test]
fn calls_local_memory_and_generic_shared_match_functional() {
    let cfg = gtx480();
    let src = ".version 9.5\n.target sm_75\n.address_size 64\n\
        .func (.param .b32 r) twice(.param .b32 x)\n{\n.reg .b32 %a<4>;\nld.param.b32 %a1, [x];\nadd.s32 %a2, %a1, %a1;\nst.param.b32 [r], %a2;\nret;\n}\n\
        .visible .entry k(.param .u64 out, .param .u32 n)\n{\n\
        .local .align 4 .b8 buf[64];\n.shared .align 4 .b8 sh[1024];\n\
        .reg .pred %p<4>;\n.reg .b32 %r<20>;\n.reg .b64 %rd<20>;\n\
        ld.param.u64 %rd0, [out];\ncvta.to.global.u64 %rd1, %rd0;\n\
        mov.u32 %r3, %ctaid.x;\nmov.u32 %r4, %ntid.x;\nmov.u32 %r5, %tid.x;\nmad.lo.s32 %r2, %r3, %r4, %r5;\n\
        mov.u64 %rd2, buf;\nand.b32 %r6, %r5, 15;\nmul.wide.u32 %rd3, %r6, 4;\nadd.s64 %rd4, %rd2, %rd3;\nst.local.u32 [%rd4], %r2;\nld.local.u32 %r7, [%rd4];\n\
        { .param .b32 a;\n.param .b32 b;\nst.param.b32 [a], %r7;\ncall.uni (b), twice, (a);\nld.param.b32 %r8, [b];\n}\n\
        mov.u64 %rd5, sh;\ncvta.shared.u64 %rd6, %rd5;\nmul.wide.u32 %rd7, %r5, 4;\nadd.s64 %rd8, %rd6, %rd7;\nst.u32 [%rd8], %r8;\nbar.sync 0;\nld.u32 %r9, [%rd8];\n\
        mul.wide.u32 %rd9, %r2, 4;\nadd.s64 %rd10, %rd1, %rd9;\nst.global.u32 [%rd10], %r9;\nret;\n}\n";
    let reference = run(src, 4, 128, 512, None);
    assert!(reference.error.is_none(), "{:?}", reference.error);
    assert_eq!(reference.out[100], 200);
    for p in POLICIES {
        let o = run(src, 4, 128, 512, Some((&cfg, p)));
        assert_eq!(o.out, reference.out, "{p:?}");
    }
}
