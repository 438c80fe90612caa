//! Policy interfaces on crafted tiny launches: the event hooks fire in pipeline order, a fetch
//! policy can read the issue policy's current order, and warp sharing issues another
//! scheduler's warp.
use crate::common;

use common::*;
use std::cell::RefCell;
use std::sync::{Arc, Mutex};
use warpsim_core::config::{FetchEligibility, GpuConfig};
use warpsim_core::exec::context::LaunchCtx;
use warpsim_core::exec::memory::GlobalMemory;
use warpsim_timing::fetch_policy::{eligible, FetchPolicy, RoundRobin};
use warpsim_timing::policy::{BuildCtx, Events, Gto, IssueOrders, IssuePolicy, Issued, PolicyView};
use warpsim_timing::{run_timed_with, Launch, PolicyKind, TimingOptions, TimingStats};

// Shared with the policies, which must be `Send` (an SM may step on another thread).
type Log = Arc<Mutex<Vec<(usize, u64, String)>>>;

/// GTO that records every hook it receives as (its scheduler, cycle, event).
struct Recorder {
    me: usize,
    inner: Gto,
    log: Log,
}

impl Recorder {
    fn note(&self, v: &PolicyView, what: String) {
        self.log.lock().unwrap().push((self.me, v.now, what));
    }
}

impl IssuePolicy for Recorder {
    type Shared = ();
    const WANTS_MEM_EVENTS: bool = true;
    fn current_order(&self, sh: &(), slots: &[u16], v: &PolicyView, out: &mut Vec<u16>) {
        self.inner.current_order(sh, slots, v, out);
    }
}

impl Events for Recorder {
    fn on_issue(&mut self, e: &Issued, v: &PolicyView) {
        self.inner.on_issue(e, v);
        self.note(v, format!("issue {} pc {}", e.slot, e.pc));
    }
    fn on_barrier_arrive(&mut self, slot: u16, pc: u32, v: &PolicyView) {
        let c = v.cta_of(slot);
        self.note(
            v,
            format!("arrive {slot} pc {pc} waiting {}", v.ctas.at_barrier[c]),
        );
    }
    fn on_barrier_release(&mut self, cta: u16, pc: u32, v: &PolicyView) {
        self.note(v, format!("release cta {cta} pc {pc}"));
    }
    fn on_warp_finished(&mut self, slot: u16, v: &PolicyView) {
        self.note(v, format!("finish {slot}"));
    }
    fn on_cta_launch(&mut self, cta: u16, v: &PolicyView) {
        self.note(v, format!("launch {cta}"));
    }
    fn on_cta_exit(&mut self, cta: u16, v: &PolicyView) {
        self.note(v, format!("exit {cta}"));
    }
    fn on_mem_complete(&mut self, slot: u16, v: &PolicyView) {
        self.note(v, format!("mem {slot}"));
    }
    fn on_last_cta_dispatched(&mut self, v: &PolicyView) {
        self.note(v, "last dispatched".into());
    }
}

fn one_sm(extra: &[&str]) -> GpuConfig {
    let mut o: Vec<String> = vec!["gpu.num_sms=1".into()];
    o.extend(extra.iter().map(|s| s.to_string()));
    GpuConfig::load_with("gtx480", &o).unwrap()
}

/// Runs `src` (kernel `k(out, n)`) with custom policies; returns the stats and the output.
fn run_custom<P: IssuePolicy, F: FetchPolicy>(
    src: &str,
    grid: u32,
    block: u32,
    cfg: &GpuConfig,
    issue: impl FnMut(&BuildCtx) -> P,
    fetch: impl FnMut() -> F,
) -> (TimingStats, Vec<u32>) {
    run_custom_as(PolicyKind::GTO, src, grid, block, cfg, issue, fetch)
}

/// [`run_custom`] under the name `policy` (its `+ws` switches warp sharing on).
fn run_custom_as<P: IssuePolicy, F: FetchPolicy>(
    policy: PolicyKind,
    src: &str,
    grid: u32,
    block: u32,
    cfg: &GpuConfig,
    issue: impl FnMut(&BuildCtx) -> P,
    fetch: impl FnMut() -> F,
) -> (TimingStats, Vec<u32>) {
    let module = warpsim_core::load_ptx(src).expect("kernel loads");
    let kernel = module.functions.iter().position(|f| f.name == "k").unwrap() as u32;
    let f = &module.functions[kernel as usize];
    let n = (grid * block) as usize;
    let (mut gmem, out, params) = zeroed_output(f, n);
    let k = LaunchCtx::one_dim(&module, kernel, &params, grid, block, cfg.gpu.num_sms);
    let mut printf = String::new();
    let opts = TimingOptions {
        trace_issue: true,
        event_log: true,
        ..TimingOptions::new(policy, 16)
    };
    let s = run_timed_with(
        Launch {
            k: &k,
            gmem: &mut gmem,
            printf: &mut printf,
            shared_bytes: f.shared_bytes,
        },
        cfg,
        &opts,
        issue,
        fetch,
    )
    .unwrap();
    let mut bytes = vec![0u8; n * 4];
    gmem.read(out, &mut bytes).unwrap();
    (
        s,
        bytes
            .chunks(4)
            .map(|c| u32::from_le_bytes(c.try_into().unwrap()))
            .collect(),
    )
}

/// out[i] = i + 1 through a global load after a barrier.
fn barrier_load_kernel() -> String {
    kernel(
        "",
        "mul.wide.u32 %rd2, %r2, 4;\nadd.s64 %rd3, %rd1, %rd2;\nst.global.u32 [%rd3], %r2;\nbar.sync 0;\n\
         ld.global.u32 %r6, [%rd3];\nadd.s32 %r6, %r6, 1;\nst.global.u32 [%rd3], %r6;",
    )
}

#[test]
fn hooks_fire_in_pipeline_order_on_every_scheduler() {
    let cfg = one_sm(&[]);
    let log: Log = Arc::default();
    let l = log.clone();
    let (s, out) = run_custom(
        &barrier_load_kernel(),
        1,
        64,
        &cfg,
        move |b| Recorder {
            me: b.scheduler,
            inner: Gto::new(b.scheduler),
            log: l.clone(),
        },
        RoundRobin::default,
    );
    assert_eq!(out, (1..=64).collect::<Vec<u32>>());
    let log = log.lock().unwrap();
    // Every SM-wide event reaches both schedulers' instances in the same order.
    let of = |me: usize| -> Vec<(u64, String)> {
        log.iter()
            .filter(|e| e.0 == me)
            .map(|e| (e.1, e.2.clone()))
            .collect()
    };
    let (a, b) = (of(0), of(1));
    assert_eq!(a, b);
    let names: Vec<&str> = a.iter().map(|e| e.1.as_str()).collect();
    let pos = |p: &str| {
        names
            .iter()
            .position(|n| n.starts_with(p))
            .unwrap_or_else(|| panic!("{p}: {names:?}"))
    };
    let rpos = |p: &str| names.iter().rposition(|n| n.starts_with(p)).unwrap();
    assert_eq!(names[0], "launch 0");
    assert_eq!(names[1], "last dispatched");
    // Two warps arrive (the second completes the barrier: the release follows it at once).
    let arrivals: Vec<usize> = (0..names.len())
        .filter(|&i| names[i].starts_with("arrive"))
        .collect();
    assert_eq!(arrivals.len(), 2, "{names:?}");
    assert!(names[arrivals[0]].ends_with("waiting 1"), "{names:?}");
    assert!(names[arrivals[1]].ends_with("waiting 2"), "{names:?}");
    let release = pos("release cta 0");
    assert_eq!(release, arrivals[1] + 1);
    // The barrier instruction itself was issued just before each arrival.
    for &i in &arrivals {
        assert!(names[i - 1].starts_with("issue"), "{names:?}");
    }
    // Memory completions follow their issue by at least the load latency; the global
    // load after the barrier completes after the release.
    let mems: Vec<usize> = (0..names.len())
        .filter(|&i| names[i].starts_with("mem"))
        .collect();
    assert!(mems.len() >= 4, "{names:?}");
    assert!(mems.iter().any(|&i| i > release));
    // Both warps finish, then the CTA exits, last.
    assert!(pos("finish") > release);
    assert_eq!(names.iter().filter(|n| n.starts_with("finish")).count(), 2);
    assert_eq!(rpos("exit 0"), names.len() - 1);
    // Cycles never go backwards, and the event log agrees with the hooks.
    assert!(a.windows(2).all(|w| w[0].0 <= w[1].0));
    let exit_cycle = a.last().unwrap().0;
    assert_eq!(s.ctas[0].end, exit_cycle);
    let kinds: Vec<String> = s.events.iter().map(|e| format!("{:?}", e.kind)).collect();
    assert!(kinds[0].starts_with("CtaStart"), "{kinds:?}");
    assert!(kinds.last().unwrap().starts_with("CtaEnd"), "{kinds:?}");
    assert_eq!(
        kinds
            .iter()
            .filter(|k| k.starts_with("BarrierArrive"))
            .count(),
        2
    );
    assert_eq!(
        kinds
            .iter()
            .filter(|k| k.starts_with("BarrierRelease"))
            .count(),
        1
    );
    assert_eq!(
        kinds.iter().filter(|k| k.starts_with("WarpFinish")).count(),
        2
    );
}

/// Critical-fetch-first in miniature: fetch the first eligible warp of scheduler 0's current
/// issue order; records what it read.
struct FirstInOrder {
    buf: Vec<u16>,
    seen: Seen,
}

/// (cycle, order read, slot picked) per fetch.
type Seen = Arc<Mutex<Vec<(u64, Vec<u16>, u16)>>>;

impl FetchPolicy for FirstInOrder {
    fn pick<P: IssuePolicy>(
        &mut self,
        v: &PolicyView,
        orders: &mut IssueOrders<'_, P>,
        budget: usize,
        out: &mut Vec<u16>,
    ) {
        for k in 0..orders.schedulers() {
            orders.order(k, v, &mut self.buf);
            if let Some(&s) = self
                .buf
                .iter()
                .find(|&&s| eligible(v, s as usize, FetchEligibility::Empty))
            {
                self.seen.lock().unwrap().push((v.now, self.buf.clone(), s));
                out.push(s);
                if out.len() == budget {
                    return;
                }
            }
        }
    }
}

#[test]
fn fetch_policy_reads_the_issue_order() {
    // One scheduler, GTO: the fetch goes to the warp the issue stage prefers.
    let cfg = one_sm(&["sm.schedulers=1"]);
    let seen = Arc::new(Mutex::new(Vec::new()));
    let sn = seen.clone();
    let src = loop_free_kernel(30);
    let (s, out) = run_custom(
        &src,
        1,
        128,
        &cfg,
        |b| Gto::new(b.scheduler),
        move || FirstInOrder {
            buf: Vec::new(),
            seen: sn.clone(),
        },
    );
    let reference = run(&src, 1, 128, 128, None).out;
    assert_eq!(out, reference);
    let seen = seen.lock().unwrap();
    assert!(!seen.is_empty());
    for (_, order, pick) in seen.iter() {
        // The pick is the first warp of the order with an empty I-buffer.
        assert!(order.contains(pick));
    }
    // At the first fetch all four warps are eligible and GTO's order is oldest first.
    assert_eq!(seen[0].1, [0, 1, 2, 3]);
    assert_eq!(seen[0].2, 0);
    // Later fetches see GTO's live state: the order starts with the warp that issued last
    // (the greedy warp) while it has not finished.
    let mut checked = 0;
    for (t, order, _) in seen.iter().skip(1) {
        let Some(last) = s.issue_trace.iter().rev().find(|e| e.cycle <= *t) else {
            continue;
        };
        let done = s.warps.iter().find(|w| w.slot == last.slot).unwrap().done;
        if done > *t {
            assert_eq!(order[0] as u32, last.slot, "cycle {t}: {order:?}");
            checked += 1;
        }
    }
    assert!(checked > 10, "{checked}");
}

/// Independent adds (no data stalls) then a store.
fn loop_free_kernel(n: usize) -> String {
    let body: String = (0..n)
        .map(|i| format!("add.s32 %r{}, %r2, {i};\n", 10 + i % 60))
        .collect();
    kernel("", &format!("{body}mul.wide.u32 %rd2, %r2, 4;\nadd.s64 %rd3, %rd1, %rd2;\nst.global.u32 [%rd3], %r10;"))
}

#[test]
fn warp_sharing_issues_another_schedulers_warp_to_a_free_port() {
    // Sub-core Pascal-like SM with 2 schedulers, each owning one SFU port (one ID/OC and one
    // OC/EX register and one SFU, as each of titanx-pascal's four has): scheduler 0's warps
    // run SFU-heavy code (busy port), scheduler 1's warps exit at once, so its port is free.
    // The SFU work depends on a kernel parameter so it is not hidden behind that load. Under
    // both collector models (per scheduler: titanx-pascal's; SM6_TITANX's pool of generic
    // ones, two per scheduler).
    for (collectors, generic) in [("1", "8"), ("0", "4")] {
        warp_sharing_on(
            &GpuConfig::load_with(
                "titanx-pascal",
                &[
                    "gpu.num_sms=1".into(),
                    "sm.schedulers=2".into(),
                    "units.sfu=2".into(),
                    "pipeline.id_oc=[2, 2]".into(),
                    "pipeline.oc_ex=[2, 2]".into(),
                    "sm.sub_core=true".into(),
                    format!("operand_collectors.per_scheduler={collectors}"),
                    format!("operand_collectors.generic={generic}"),
                ],
            )
            .unwrap(),
        );
    }
}

fn warp_sharing_on(cfg: &GpuConfig) {
    let cfg = cfg.clone();
    let body = "and.b32 %r6, %r5, 32;\nsetp.ne.u32 %p1, %r6, 0;\n@%p1 bra END;\nadd.s32 %r8, %r2, %r1;\ncvt.rn.f32.u32 %f1, %r8;\n\
                sqrt.approx.f32 %f2, %f1;\nsqrt.approx.f32 %f3, %f1;\nsqrt.approx.f32 %f4, %f1;\nsqrt.approx.f32 %f5, %f1;\n\
                sqrt.approx.f32 %f6, %f1;\nsqrt.approx.f32 %f7, %f1;\nadd.f32 %f8, %f2, %f7;\ncvt.rzi.u32.f32 %r7, %f8;\n\
                mul.wide.u32 %rd2, %r2, 4;\nadd.s64 %rd3, %rd1, %rd2;\nst.global.u32 [%rd3], %r7;\nEND:";
    let src = kernel("", body);
    let reference = run(&src, 1, 256, 256, None).out;
    let (plain, out0) = run_custom(
        &src,
        1,
        256,
        &cfg,
        |b| Gto::new(b.scheduler),
        RoundRobin::default,
    );
    let (shared, out1) = run_custom_as(
        PolicyKind::from_name("gto+ws").unwrap(),
        &src,
        1,
        256,
        &cfg,
        |b| Gto::new(b.scheduler),
        RoundRobin::default,
    );
    assert_eq!(out0, reference);
    assert_eq!(out1, reference);
    assert_eq!(plain.shared_issues.total(), 0);
    assert_eq!(shared.identity.policy, "gto+ws");
    // The shared work is the SFU chain.
    let sh = shared.shared_issues;
    assert!(sh.sfu > 0 && sh.sfu >= sh.sp + sh.mem, "{sh:?}");
    // Shared issues show in the trace as scheduler 1 issuing an even (scheduler 0) slot.
    let cross = shared
        .issue_trace
        .iter()
        .filter(|e| e.slot % 2 != e.scheduler)
        .count() as u64;
    assert_eq!(cross, shared.shared_issues.total());
    assert!(
        shared.cycles < plain.cycles,
        "{} vs {}",
        shared.cycles,
        plain.cycles
    );
}

thread_local! {
    /// The cycles at which [`Ticker`]'s timer fired in this thread.
    static TICKS: RefCell<Vec<u64>> = const { RefCell::new(Vec::new()) };
}

/// SM-wide state with a timer every 100 cycles (what PRO's periodic re-sort needs).
struct Ticker {
    next: u64,
}

impl warpsim_timing::policy::Build for Ticker {
    fn build(_: &BuildCtx) -> Ticker {
        Ticker { next: 100 }
    }
}

impl Events for Ticker {}

impl warpsim_timing::policy::SmState for Ticker {
    fn wake_at(&self) -> u64 {
        self.next
    }
    fn on_timer(&mut self, v: &PolicyView) {
        TICKS.with(|t| t.borrow_mut().push(v.now));
        self.next = v.now + 100;
    }
}

/// GTO whose SM keeps a [`Ticker`].
struct TickingGto(Gto);

impl IssuePolicy for TickingGto {
    type Shared = Ticker;
    fn current_order(&self, _: &Ticker, slots: &[u16], v: &PolicyView, out: &mut Vec<u16>) {
        self.0.current_order(&(), slots, v, out);
    }
}

impl Events for TickingGto {
    fn on_issue(&mut self, e: &Issued, v: &PolicyView) {
        self.0.on_issue(e, v);
    }
}

#[test]
fn sm_state_timers_fire_on_time_even_across_fast_forward() {
    // Memory-latency bound (long idle stretches that fast-forward jumps over).
    let src = kernel(
        "",
        "mul.wide.u32 %rd2, %r2, 4;\nadd.s64 %rd3, %rd1, %rd2;\nld.global.u32 %r6, [%rd3];\nadd.s32 %r6, %r6, %r2;\n\
         ld.global.u32 %r7, [%rd3];\nadd.s32 %r6, %r6, %r7;\nst.global.u32 [%rd3], %r6;",
    );
    let cfg = one_sm(&[]);
    let run_with = |ff: bool| {
        TICKS.with(|t| t.borrow_mut().clear());
        FAST_FORWARD.with(|f| f.set(ff));
        let module = warpsim_core::load_ptx(&src).unwrap();
        let kernel = module.functions.iter().position(|f| f.name == "k").unwrap() as u32;
        let f = &module.functions[kernel as usize];
        let mut gmem = GlobalMemory::new();
        let out = gmem.alloc(64 * 4).unwrap();
        gmem.write(out, &[0u8; 256]).unwrap();
        let mut params = vec![0u8; f.param_bytes as usize];
        params[f.params[0].offset as usize..][..8].copy_from_slice(&out.to_le_bytes());
        params[f.params[1].offset as usize..][..4].copy_from_slice(&64u32.to_le_bytes());
        let k = LaunchCtx::one_dim(&module, kernel, &params, 1, 64, 1);
        let opts = TimingOptions {
            fast_forward: ff,
            ..TimingOptions::new(PolicyKind::GTO, 16)
        };
        let s = run_timed_with(
            Launch {
                k: &k,
                gmem: &mut gmem,
                printf: &mut String::new(),
                shared_bytes: 0,
            },
            &cfg,
            &opts,
            |b| TickingGto(Gto::new(b.scheduler)),
            RoundRobin::default,
        )
        .unwrap();
        FAST_FORWARD.with(|f| f.set(true));
        (s, TICKS.with(|t| t.borrow().clone()))
    };
    let (fast, ticks) = run_with(true);
    let (slow, ticks_slow) = run_with(false);
    assert_eq!(fast, slow);
    assert_eq!(ticks, ticks_slow);
    // Every 100 cycles while a CTA is resident, exactly on time.
    assert!(fast.cycles > 500, "{}", fast.cycles);
    let want: Vec<u64> = (1..)
        .map(|i| i * 100)
        .take_while(|&t| t < fast.ctas[0].end)
        .collect();
    assert_eq!(ticks, want);
}
