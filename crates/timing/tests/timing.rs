use crate::common;

use common::*;
use warpsim_timing::classify::Unit;
use warpsim_timing::ids::WarpSlot;
use warpsim_timing::policy::{
    Block, CtaSlots, Events, Gto, IssuePolicy, Issued, Lrr, Oldest, PolicyView, WarpSlots,
};
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
        for p in policies() {
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
    // Core latencies only: every fetch hits.
    PERFECT_ICACHE.with(|t| t.set(true));
    let cfg = gtx480();
    let n = 200;
    let o = run(&chain_kernel(n), 1, 32, 32, Some((&cfg, PolicyKind::GTO)));
    assert_eq!(o.out[5], 5 + n as u32);
    let s = o.stats.unwrap();
    // The add's unit latency plus the pipeline stages around the unit.
    let lat = (cfg.latency.int[0] + cfg.pipeline.overhead()) as u64;
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
    // Core latencies only: every fetch hits.
    PERFECT_ICACHE.with(|t| t.set(true));
    let cfg = gtx480();
    let n = 400;
    // 1 CTA of 32 warps on one SM: dependent chains per warp, but 16 warps per scheduler hide
    // the latency (the add's plus the pipeline stages: 10 cycles on gtx480).
    let o = run(
        &chain_kernel(n),
        1,
        1024,
        1024,
        Some((&cfg, PolicyKind::LRR)),
    );
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
        Some((&cfg, PolicyKind::GTO)),
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
    let titan = warpsim_core::config::GpuConfig::load("titanx-pascal").unwrap();
    EVENTS.with(|e| e.set(true));
    for cfg in [gtx480(), titan] {
        for p in policies() {
            let a = run(&loop_kernel(), 40, 96, 3800, Some((&cfg, p)))
                .stats
                .unwrap();
            let b = run(&loop_kernel(), 40, 96, 3800, Some((&cfg, p)))
                .stats
                .unwrap();
            assert!(!a.events.is_empty());
            assert_eq!(a, b);
        }
    }
}

#[test]
fn unknown_policy_lists_valid_names() {
    use warpsim_timing::policy::{FETCH, ISSUE};
    let e = PolicyKind::from_name("nope").unwrap_err().to_string();
    // Issue and fetch names are listed separately, every one of each.
    let (issue, fetch) = e.split_once("fetch policies").expect("two lists");
    for i in ISSUE {
        assert!(issue.contains(i.name), "{e}");
    }
    for f in FETCH {
        assert!(fetch.contains(f.name), "{e}");
    }
    // The combined names and the `tls:N` shorthand (a config override).
    let p = PolicyKind::from_name("mwf-gto+cff").unwrap();
    assert_eq!(
        (p.issue_name(), p.fetch.name(), p.name().as_str()),
        ("mwf-gto", "cff", "mwf-gto+cff")
    );
    assert_eq!(
        p,
        PolicyKind::from_name("mwf-gto")
            .unwrap()
            .with_fetch("cff", false)
            .unwrap()
    );
    assert!(p.with_fetch("fef", true).is_err(), "contradicting --fetch");
    assert_eq!(p.with_fetch("cff", true).unwrap(), p);
    let (t, o) = PolicyKind::parse("tls:4+cff").unwrap();
    assert_eq!(
        (t.name().as_str(), o.as_deref()),
        ("tls+cff", Some("policy.tls.active=4"))
    );
    assert_eq!(PolicyKind::parse("gto").unwrap(), (PolicyKind::GTO, None));
    for bad in ["tls:0", "tls:x", "", "gto+", "+cff", "gto+cff+fef", "mwf"] {
        assert!(PolicyKind::parse(bad).is_err(), "{bad}");
    }
    let e = warpsim_timing::FetchKind::from_name("lrr")
        .unwrap_err()
        .to_string();
    for f in FETCH {
        assert!(e.contains(f.name), "{e}");
    }
}

/// A crafted SM view: `n` occupied warp slots, one scheduler, ages = slot index (also for
/// the two-level tests in `tls.rs`).
pub(crate) struct V {
    pub(crate) w: WarpSlots,
    c: CtaSlots,
    age_order: Vec<Vec<u16>>,
    slot_order: Vec<Vec<u16>>,
}

impl V {
    pub(crate) fn new(n: usize) -> V {
        let mut w = WarpSlots::new(n, 2, 2);
        for s in 0..n {
            w.set_occupied(WarpSlot::new(s), true);
        }
        w.age = (0..n as u64).collect();
        w.wake = vec![0; n];
        w.block = vec![Block::Ready; n];
        let mut v = V {
            w,
            c: CtaSlots::new(1),
            age_order: Vec::new(),
            slot_order: Vec::new(),
        };
        v.sort(&(0..n as u16).collect::<Vec<_>>());
        v
    }
    /// Recomputes the age order of `slots` (what the SM does on CTA launch/exit).
    pub(crate) fn sort(&mut self, slots: &[u16]) {
        let mut o: Vec<u16> = slots
            .iter()
            .copied()
            .filter(|&s| self.w.occupied()[s as usize])
            .collect();
        self.w.touch();
        self.slot_order = vec![o.clone()];
        o.sort_by_key(|&s| self.w.age[s as usize]);
        self.age_order = vec![o];
    }
    pub(crate) fn view(&self) -> PolicyView<'_> {
        self.view_at(10)
    }
    pub(crate) fn view_at(&self, now: u64) -> PolicyView<'_> {
        PolicyView {
            now,
            warps: &self.w,
            ctas: &self.c,
            warps_per_cta: self.w.len(),
            ib_depth: 2,
            all_dispatched: false,
            age_order: &self.age_order,
            slot_order: &self.slot_order,
        }
    }
    /// Marks slot `s` blocked on an outstanding global load (or clears it).
    pub(crate) fn long_dep(&mut self, s: usize, on: bool) {
        self.w.block[s] = if on { Block::Data } else { Block::Ready };
        self.w.wake[s] = if on { 100 } else { 0 };
        self.w.long_until[s] = self.w.wake[s];
    }
}

pub(crate) fn issued(p: &mut impl IssuePolicy, v: &V, slot: u16) {
    let e = Issued {
        slot,
        scheduler: 0,
        pc: 0,
        unit: Unit::Sp,
        lanes: 32,
        shared: false,
    };
    p.on_issue(&e, &v.view());
}

#[test]
fn lrr_rotates_after_the_last_issuer() {
    let slots = [0u16, 2, 4, 6];
    let mut v = V::new(8);
    v.sort(&slots);
    let mut p = Lrr::new(0);
    let mut out = Vec::new();
    p.order(&(), &slots, &v.view(), &mut out);
    assert_eq!(out, [0, 2, 4, 6]);
    issued(&mut p, &v, 2);
    p.order(&(), &slots, &v.view(), &mut out);
    assert_eq!(out, [4, 6, 0, 2]);
    issued(&mut p, &v, 6);
    p.order(&(), &slots, &v.view(), &mut out);
    assert_eq!(out, [0, 2, 4, 6]);
    // Another scheduler's issue (warp sharing) does not move this scheduler's pointer.
    let e = Issued {
        slot: 4,
        scheduler: 1,
        pc: 0,
        unit: Unit::Sp,
        lanes: 32,
        shared: true,
    };
    p.on_issue(&e, &v.view());
    p.order(&(), &slots, &v.view(), &mut out);
    assert_eq!(out, [0, 2, 4, 6]);
}

#[test]
fn gto_keeps_the_greedy_warp_until_it_waits() {
    let slots = [0u16, 1, 2, 3];
    let mut v = V::new(4);
    v.w.age = vec![3, 1, 0, 2];
    v.sort(&slots);
    let mut p = Gto::new(0);
    let mut out = Vec::new();
    p.order(&(), &slots, &v.view(), &mut out);
    assert_eq!(out, [2, 1, 3, 0]);
    issued(&mut p, &v, 3);
    p.order(&(), &slots, &v.view(), &mut out);
    assert_eq!(out, [3, 2, 1, 0]);
    v.w.set_waiting(WarpSlot(3), true);
    v.w.set_waiting(WarpSlot(2), true);
    p.order(&(), &slots, &v.view(), &mut out);
    assert_eq!(out, [1, 0, 2, 3]);
}

#[test]
fn oldest_orders_by_dynamic_id() {
    let slots = [0u16, 1, 2, 3];
    let mut v = V::new(4);
    v.w.age = vec![9, 4, 7, 1];
    v.w.set_occupied(WarpSlot(2), false);
    v.sort(&slots);
    let mut out = Vec::new();
    Oldest::new(0).order(&(), &slots, &v.view(), &mut out);
    assert_eq!(out, [3, 1, 0]);
}

#[test]
fn every_policy_completes_on_titanx() {
    let cfg = warpsim_core::config::GpuConfig::load("titanx-pascal").unwrap();
    let reference = run(&barrier_kernel(), 30, 256, 30 * 256, None).out;
    for p in policies() {
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
        for p in policies() {
            let t = run(&src, 2, 64, 128, Some((&cfg, p)))
                .error
                .expect("timing mode fails");
            assert_eq!(t, f);
        }
    }
}

#[test]
fn synccheck_reports_like_functional_mode() {
    let cfg = gtx480();
    // Threads 48.. of each CTA return before the barrier: a synccheck error in both modes,
    // the same words; without the check the barrier completes in both.
    let src = kernel(
        "",
        "setp.ge.u32 %p1, %r5, 48;\n@%p1 bra DONE;\nbar.sync 0;\nst.global.u32 [%rd1], %r5;\nDONE:",
    );
    assert!(run(&src, 4, 64, 1, Some((&cfg, PolicyKind::GTO)))
        .error
        .is_none());
    SYNCCHECK.with(|t| t.set(true));
    let f = run(&src, 4, 64, 1, None)
        .error
        .expect("functional mode fails");
    assert!(f.starts_with("synccheck: barrier 0"), "{f}");
    for p in policies() {
        let t = run(&src, 4, 64, 1, Some((&cfg, p)))
            .error
            .expect("timing mode fails");
        assert_eq!(t, f, "{}", p.name());
    }
    SYNCCHECK.with(|t| t.set(false));
}

/// One scheduler, `warps` warps of one CTA, each running `n` independent adds (no scoreboard
/// stalls) with a deep I-buffer; returns the issuing warps' ages in issue order.
pub(crate) fn issue_sequence(policy: &str, warps: u32, n: usize) -> Vec<u64> {
    issue_sequence_with(policy, warps, n, &[])
}

/// [`issue_sequence`] with config overrides `extra`.
pub(crate) fn issue_sequence_with(policy: &str, warps: u32, n: usize, extra: &[&str]) -> Vec<u64> {
    let (policy, tls) = PolicyKind::parse(policy).unwrap();
    let mut o: Vec<String> = vec![
        "sm.schedulers=1".into(),
        "sm.ibuffer_entries=8".into(),
        "sm.fetch_bytes=64".into(),
        "gpu.num_sms=1".into(),
    ];
    o.extend(tls);
    o.extend(extra.iter().map(|x| x.to_string()));
    let cfg = warpsim_core::config::GpuConfig::load_with("gtx480", &o).unwrap();
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
    let seq = issue_sequence("lrr", 4, 40);
    // Once every warp has instructions (and its kernel parameters, which arrive through the
    // constant cache), consecutive issues come from different warps, in rotation.
    let mid = &seq[70..150];
    for w in mid.windows(2) {
        assert_eq!(w[1], (w[0] + 1) % 4, "{mid:?}");
    }
}

#[test]
fn gto_stays_on_the_greedy_warp_in_the_model() {
    let seq = issue_sequence("gto", 4, 40);
    let switches = seq.windows(2).filter(|w| w[0] != w[1]).count();
    let lrr = issue_sequence("lrr", 4, 40);
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
    let seq = issue_sequence("oldest", 4, 40);
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
    for p in policies() {
        let o = run(src, 4, 128, 512, Some((&cfg, p)));
        assert_eq!(o.out, reference.out, "{p:?}");
    }
}

#[test]
fn every_resident_warp_cycle_is_an_issue_or_one_stall_reason() {
    let titan = warpsim_core::config::GpuConfig::load("titanx-pascal").unwrap();
    for (cfg, p) in policies()
        .into_iter()
        .map(|p| (gtx480(), p))
        .chain([(titan, PolicyKind::GTO)])
    {
        for (src, grid, block, n) in [
            (loop_kernel(), 40, 96, 3800),
            (barrier_kernel(), 30, 256, 30 * 256),
        ] {
            let s = run(&src, grid, block, n, Some((&cfg, p))).stats.unwrap();
            for w in &s.warps {
                let c = s.ctas.iter().find(|c| c.linear == w.cta).unwrap();
                let issue_cycles = w.instructions - w.dual_issue_cycles;
                assert_eq!(
                    issue_cycles + w.stalls.total(),
                    c.end - c.start,
                    "{p:?} {w:?}"
                );
            }
            assert_eq!(s.issue.issued + s.dual_issues, s.warp_instructions);
            assert_eq!(s.issued_lanes.iter().sum::<u64>(), s.warp_instructions);
            let lanes: u64 = s
                .issued_lanes
                .iter()
                .enumerate()
                .map(|(i, n)| i as u64 * n)
                .sum();
            assert_eq!(lanes, s.thread_instructions);
        }
    }
}

#[test]
fn clock64_reads_the_sm_cycle() {
    // Core latencies only: every fetch hits.
    PERFECT_ICACHE.with(|t| t.set(true));
    // out[i] = clock64 after a 100-add dependent chain − clock64 before it (thread 0 of each
    // warp writes). The chain takes 100 × the add latency; the clock reads themselves add a
    // few cycles.
    let cfg = gtx480();
    let adds: String = (0..100).map(|_| "add.s32 %r6, %r6, 1;\n").collect();
    let src = kernel(
        "",
        &format!(
            ".reg .b64 %c<4>;\nmov.u32 %r6, %r2;\nmov.u64 %c1, %clock64;\n{adds}add.s32 %r7, %r6, 0;\nmov.u64 %c2, %clock64;\n\
             sub.s64 %c3, %c2, %c1;\ncvt.u32.u64 %r8, %c3;\nmul.wide.u32 %rd2, %r2, 4;\nadd.s64 %rd3, %rd1, %rd2;\nst.global.u32 [%rd3], %r8;"
        ),
    );
    let o = run(&src, 1, 32, 32, Some((&cfg, PolicyKind::GTO)));
    let lat = cfg.latency.int[0] + cfg.pipeline.overhead();
    let d = o.out[0];
    assert!(
        d >= 100 * lat && d <= 100 * lat + 2 * lat + 4,
        "{d} cycles for 100 adds of latency {lat}"
    );
}

#[test]
fn dual_issue_pairs_independent_instructions_of_different_units() {
    // Alternating independent SP adds and LD/ST parameter loads: with dual issue a scheduler
    // issues an add and a load of the same warp in one cycle.
    let body: String = (0..40)
        .map(|i| {
            format!(
                "add.s32 %r{}, %r2, {i};\nld.param.u32 %r{}, [n];\n",
                10 + i % 30,
                40 + i % 30
            )
        })
        .collect();
    let src = kernel("", &body);
    let reference = run(&src, 1, 32, 32, None).out;
    let on = warpsim_core::config::GpuConfig::load_with("titanx-pascal", &["gpu.num_sms=1".into()])
        .unwrap();
    let off = warpsim_core::config::GpuConfig::load_with(
        "titanx-pascal",
        &["gpu.num_sms=1".into(), "sm.dual_issue=false".into()],
    )
    .unwrap();
    let a = run(&src, 1, 32, 32, Some((&on, PolicyKind::GTO)));
    let b = run(&src, 1, 32, 32, Some((&off, PolicyKind::GTO)));
    assert_eq!(a.out, reference);
    assert_eq!(b.out, reference);
    let (a, b) = (a.stats.unwrap(), b.stats.unwrap());
    assert_eq!(b.dual_issues, 0);
    assert!(a.dual_issues >= 20, "{}", a.dual_issues);
    assert!(a.cycles < b.cycles, "{} vs {}", a.cycles, b.cycles);
    // Same-class pairs never dual issue: an add stream pairs nothing beyond its prologue's
    // parameter loads (LD/ST) with the integer ops next to them.
    let adds = chain_kernel(50);
    let c = run(&adds, 1, 32, 32, Some((&on, PolicyKind::GTO)))
        .stats
        .unwrap();
    assert!(c.dual_issues <= 2, "{}", c.dual_issues);
}

#[test]
fn register_bank_conflicts_delay_the_result() {
    // 100 dependent adds reading two registers: 16 apart (the same bank of 16) or 17 apart
    // (different banks). A conflict costs one extra read cycle per instruction.
    PERFECT_ICACHE.with(|t| t.set(true));
    let cfg = gtx480();
    assert_eq!(cfg.operand_collectors.register_banks, 16);
    let timed = |other: u32| {
        let adds: String = (0..100)
            .map(|_| format!("add.s32 %r10, %r10, %r{other};\n"))
            .collect();
        let src = kernel(
            "",
            &format!(
                ".reg .b64 %c<4>;\nmov.u32 %r10, %r2;\nmov.u32 %r{other}, 1;\nmov.u64 %c1, %clock64;\n{adds}mov.u64 %c2, %clock64;\n\
                 sub.s64 %c3, %c2, %c1;\ncvt.u32.u64 %r8, %c3;\nmul.wide.u32 %rd2, %r2, 4;\nadd.s64 %rd3, %rd1, %rd2;\nst.global.u32 [%rd3], %r8;"
            ),
        );
        let o = run(&src, 1, 32, 32, Some((&cfg, PolicyKind::GTO)));
        (o.out[0], o.stats.unwrap().bank_conflict_cycles)
    };
    let (apart, c0) = timed(27);
    let (same, c1) = timed(26);
    let lat = cfg.latency.int[0] + cfg.pipeline.overhead();
    // (The clock read after the chain issues one cycle before the last add's result; the
    // first add waits for the one-cycle `mov`s before the first clock read, not a whole add.)
    assert!(apart + 4 >= 100 * lat && apart <= 100 * lat + 8, "{apart}");
    assert!(
        same + 4 >= 100 * (lat + 1) && same <= 100 * (lat + 1) + 8,
        "{same}"
    );
    assert_eq!(c0, 0);
    assert_eq!(c1, 100);
}

#[test]
fn fast_forward_changes_nothing_but_speed() {
    // Memory-latency-bound: every thread loads, waits ~600 cycles, stores.
    let loads = kernel(
        "",
        "mul.wide.u32 %rd2, %r2, 4;\nadd.s64 %rd3, %rd1, %rd2;\nld.global.u32 %r6, [%rd3];\nadd.s32 %r6, %r6, %r2;\n\
         ld.global.u32 %r7, [%rd3];\nadd.s32 %r6, %r6, %r7;\nst.global.u32 [%rd3], %r6;",
    );
    let titan = warpsim_core::config::GpuConfig::load("titanx-pascal").unwrap();
    EVENTS.with(|e| e.set(true));
    for cfg in [gtx480(), titan] {
        for p in policies() {
            for (src, grid, block, n) in [
                (loads.clone(), 20, 64, 20 * 64),
                (barrier_kernel(), 30, 256, 30 * 256),
                (loop_kernel(), 40, 96, 3800),
            ] {
                let a = run(&src, grid, block, n, Some((&cfg, p)));
                FAST_FORWARD.with(|f| f.set(false));
                let b = run(&src, grid, block, n, Some((&cfg, p)));
                FAST_FORWARD.with(|f| f.set(true));
                assert_eq!(a.out, b.out);
                assert_eq!(a.stats.unwrap(), b.stats.unwrap(), "{} {p:?}", cfg.name);
            }
        }
    }
}

/// Two warps, one per scheduler of a gtx480 SM, each issuing a run of independent shared
/// loads into the SM's single LD/ST unit: the cycle each warp finishes, under `order`.
fn contested_ldst_finish(order: &str) -> (u64, u64) {
    let cfg = warpsim_core::config::GpuConfig::load_with(
        "gtx480",
        &[
            "gpu.num_sms=1".into(),
            format!("sm.scheduler_order={order}"),
        ],
    )
    .unwrap();
    let loads: String = (0..48)
        .map(|i| format!("ld.shared.u32 %r{}, [%r7+{}];\n", 10 + i, 4 * (i % 8)))
        .collect();
    let src = kernel(
        ".shared .align 4 .b8 sh[128];",
        &format!("mov.u32 %r7, sh;\n{loads}st.global.u32 [%rd1], %r10;"),
    );
    PERFECT_ICACHE.with(|p| p.set(true));
    let s = run(&src, 1, 64, 1, Some((&cfg, PolicyKind::GTO)))
        .stats
        .unwrap();
    PERFECT_ICACHE.with(|p| p.set(false));
    let done = |slot: u32| s.warps.iter().find(|w| w.slot == slot).unwrap().done;
    (done(0), done(1))
}

#[test]
fn fixed_scheduler_order_lets_scheduler_0_win_shared_units_and_rotate_shares_them() {
    // Fixed (GPGPU-Sim 3.x): scheduler 0 takes the LD/ST unit, or the place in its queue that
    // frees, whenever its warp is ready, so warp 0 streams its loads first and warp 1 finishes
    // behind (warp 1 gets a place only in the cycles warp 0's I-buffer refills: fetch, then
    // decode, every two loads). The queue (`sm.ldst_queue`) lets warp 1's loads wait in line,
    // so the gap (28 cycles) is smaller than when shared loads needed a free unit.
    let (w0, w1) = contested_ldst_finish("fixed");
    println!("fixed: {w0} / {w1}");
    // Rotate: the schedulers take turns at the unit, so both warps finish together.
    let (r0, r1) = contested_ldst_finish("rotate");
    println!("rotate: {r0} / {r1}");
    assert!(w1 > w0 + 20, "fixed: warp 0 done at {w0}, warp 1 at {w1}");
    assert!(
        r0.abs_diff(r1) <= 4,
        "rotate: warp 0 done at {r0}, warp 1 at {r1}"
    );
}

#[test]
fn ldst_unit_accepts_one_line_accesses_back_to_back() {
    // One warp, 24 independent global loads of one line each (every lane reads the same word;
    // a different line each, so no MSHR merge limit binds). The LD/ST unit is pipelined: it
    // takes the next instruction in the cycle it serves the previous one's last line, so the
    // loads issue on consecutive cycles (they took two cycles each before 2026-11-24).
    let cfg = warpsim_core::config::GpuConfig::load_with(
        "gtx480",
        &[
            "gpu.num_sms=1".into(),
            "sm.ibuffer_entries=8".into(),
            "sm.fetch_bytes=64".into(),
        ],
    )
    .unwrap();
    let loads: String = (0..24)
        .map(|i| format!("ld.global.u32 %r{}, [%rd1+{}];\n", 10 + i, 128 * i))
        .collect();
    let src = kernel("", &format!("{loads}st.global.u32 [%rd1], %r10;"));
    TRACE.with(|t| t.set(true));
    PERFECT_ICACHE.with(|p| p.set(true));
    let s = run(&src, 1, 32, 1024, Some((&cfg, PolicyKind::GTO)))
        .stats
        .unwrap();
    TRACE.with(|t| t.set(false));
    PERFECT_ICACHE.with(|p| p.set(false));
    // The loads are the instructions after the 7-instruction prologue. Between I-buffer
    // refills (8 instructions each, fetched when the buffer is empty, decoded a cycle later)
    // they issue on consecutive cycles; each refill costs one bubble.
    let cycles: Vec<u64> = s.issue_trace.iter().map(|e| e.cycle).collect();
    let loads = &cycles[7..7 + 24];
    let gaps: Vec<u64> = loads.windows(2).map(|w| w[1] - w[0]).collect();
    assert!(
        gaps.iter().all(|&g| g == 1 || g == 2),
        "load issue cycles {loads:?}"
    );
    assert!(
        gaps.iter().filter(|&&g| g == 2).count() <= 24 / 8,
        "one bubble per refill at most: {loads:?}"
    );
}

/// `WarpRecord::issued_cycles` (MOTRR's "in flight": from an instruction's issue to its
/// completion): at least one cycle per issue cycle, at most the launch, and a warp waiting at
/// a barrier with nothing in flight does not count, so the barrier kernel's warps are in flight
/// for fewer cycles than they are resident.
#[test]
fn warps_are_in_flight_from_issue_to_completion() {
    let s = run(
        &barrier_kernel(),
        30,
        256,
        30 * 256,
        Some((&gtx480(), PolicyKind::GTO)),
    )
    .stats
    .unwrap();
    let (mut issued, mut resident) = (0, 0);
    for w in &s.warps {
        assert!(
            w.issued_cycles >= w.instructions - w.dual_issue_cycles,
            "{w:?}"
        );
        assert!(w.issued_cycles <= s.cycles, "{w:?}");
        issued += w.issued_cycles;
        resident += w.done + 1 - w.start;
    }
    assert!(
        issued < resident,
        "in flight {issued} against resident {resident} warp-cycles"
    );
}
