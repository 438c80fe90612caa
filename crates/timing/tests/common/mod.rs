//! Helpers: build a launch of a hand-written kernel `k(.u64 out, .u32 n)` and run it in
//! functional and timing mode.
#![allow(dead_code)] // each test file uses what it needs

use warpsim_core::config::GpuConfig;
use warpsim_core::exec::context::LaunchCtx;
use warpsim_core::exec::grid::{run_grid, RunLimits};
use warpsim_core::exec::memory::GlobalMemory;
use warpsim_timing::policy::{Events, IssuePolicy, PolicyView};
use warpsim_timing::{run_timed, PolicyKind, TimingOptions, TimingStats};

/// A kernel `k(.u64 out, .u32 n)`: `%rd1` = out (global), `%r1` = n, `%r2` = global thread id,
/// `%r5` = tid.x.
pub fn kernel(decls: &str, body: &str) -> String {
    format!(
        ".version 9.5\n.target sm_75\n.address_size 64\n{decls}\n.visible .entry k(.param .u64 out, .param .u32 n)\n{{\n\
         .reg .pred %p<8>;\n.reg .b32 %r<80>;\n.reg .b64 %rd<20>;\n.reg .f32 %f<10>;\n\
         ld.param.u64 %rd0, [out];\ncvta.to.global.u64 %rd1, %rd0;\nld.param.u32 %r1, [n];\n\
         mov.u32 %r3, %ctaid.x;\nmov.u32 %r4, %ntid.x;\nmov.u32 %r5, %tid.x;\nmad.lo.s32 %r2, %r3, %r4, %r5;\n\
         {body}\nret;\n}}\n"
    )
}

thread_local! {
    /// Record the issue trace in this thread's next runs.
    pub static TRACE: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
    /// Give this thread's next runs a perfect I-cache (tests of core latencies).
    pub static PERFECT_ICACHE: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
    /// Fast-forward idle cycles in this thread's next runs (the default).
    pub static FAST_FORWARD: std::cell::Cell<bool> = const { std::cell::Cell::new(true) };
    /// Record the event log (with the policy's CTA orders) in this thread's next runs.
    pub static EVENTS: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
    /// `--synccheck` in this thread's next runs.
    pub static SYNCCHECK: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// Every registered scheduler: each issue policy of the registry with each fetch policy.
pub fn policies() -> Vec<PolicyKind> {
    let mut all = Vec::new();
    for i in warpsim_timing::policy::ISSUE {
        for f in warpsim_timing::policy::FETCH {
            all.push(PolicyKind::from_name(&format!("{}+{}", i.name, f.name)).unwrap());
        }
    }
    all
}

pub struct Outcome {
    pub out: Vec<u32>,
    pub stats: Option<TimingStats>,
    /// Wall time of the timed (or functional) run alone.
    pub seconds: f64,
    pub error: Option<String>,
}

/// A zeroed `n`-word output buffer in a fresh global memory and the parameters of kernel
/// `f(.u64 out, .u32 n)` that point at it: (memory, buffer address, parameter bytes).
pub fn zeroed_output(f: &warpsim_core::ir::Function, n: usize) -> (GlobalMemory, u64, Vec<u8>) {
    let mut gmem = GlobalMemory::new();
    let out = gmem.alloc(n as u64 * 4).unwrap();
    gmem.write(out, &vec![0u8; n * 4]).unwrap();
    let mut params = vec![0u8; f.param_bytes as usize];
    params[f.params[0].offset as usize..][..8].copy_from_slice(&out.to_le_bytes());
    params[f.params[1].offset as usize..][..4].copy_from_slice(&(n as u32).to_le_bytes());
    (gmem, out, params)
}

/// Runs `src` with an `n`-word output; `timed` = Some((config, policy)) for timing mode.
pub fn run(
    src: &str,
    grid: u32,
    block: u32,
    n: usize,
    timed: Option<(&GpuConfig, PolicyKind)>,
) -> Outcome {
    let module = warpsim_core::load_ptx(src).expect("kernel loads");
    let kernel = module.functions.iter().position(|f| f.name == "k").unwrap() as u32;
    let f = &module.functions[kernel as usize];
    let (mut gmem, out, params) = zeroed_output(f, n);
    let k = LaunchCtx {
        synccheck: SYNCCHECK.with(|t| t.get()),
        ..LaunchCtx::one_dim(&module, kernel, &params, grid, block, 15)
    };
    let mut printf = String::new();
    let t0 = std::time::Instant::now();
    let stats = match timed {
        None => {
            if let Err(e) = run_grid(
                &k,
                &mut gmem,
                &mut printf,
                f.shared_bytes,
                RunLimits {
                    max_warp_instructions: 100_000_000,
                    max_resident_ctas: 120,
                    slice: 512,
                },
            ) {
                return Outcome {
                    out: Vec::new(),
                    stats: None,
                    seconds: 0.0,
                    error: Some(e.to_string()),
                };
            }
            None
        }
        Some((cfg, policy)) => {
            match run_timed(
                &k,
                &mut gmem,
                &mut printf,
                f.shared_bytes,
                cfg,
                &TimingOptions {
                    max_cycles: 50_000_000,
                    trace_issue: TRACE.with(|t| t.get()),
                    event_log: EVENTS.with(|t| t.get()),
                    cta_order_log: EVENTS.with(|t| t.get()),
                    perfect_icache: PERFECT_ICACHE.with(|t| t.get()),
                    fast_forward: FAST_FORWARD.with(|t| t.get()),
                    ..TimingOptions::new(policy, 16)
                },
            ) {
                Ok(s) => Some(s),
                Err(e) => {
                    return Outcome {
                        out: Vec::new(),
                        stats: None,
                        seconds: 0.0,
                        error: Some(e.to_string()),
                    }
                }
            }
        }
    };
    let seconds = t0.elapsed().as_secs_f64();
    let mut bytes = vec![0u8; n * 4];
    gmem.read(out, &mut bytes).unwrap();
    Outcome {
        seconds,
        error: None,
        out: bytes
            .chunks(4)
            .map(|c| u32::from_le_bytes(c.try_into().unwrap()))
            .collect(),
        stats,
    }
}

pub fn gtx480() -> GpuConfig {
    GpuConfig::load("gtx480").unwrap()
}

/// A policy whose schedulers never sleep (`MAY_SLEEP = false` also turns fast forward off).
pub struct NoSleep<P>(pub P);

impl<P: IssuePolicy> IssuePolicy for NoSleep<P> {
    type Shared = P::Shared;
    const MAY_SLEEP: bool = false;
    const READS_LONG_DEP: bool = P::READS_LONG_DEP;
    fn current_order(&self, sh: &P::Shared, slots: &[u16], v: &PolicyView, out: &mut Vec<u16>) {
        self.0.current_order(sh, slots, v, out);
    }
    fn order(&mut self, sh: &P::Shared, slots: &[u16], v: &PolicyView, out: &mut Vec<u16>) {
        self.0.order(sh, slots, v, out);
    }
}

impl<P: IssuePolicy> Events for NoSleep<P> {
    fn on_issue(&mut self, e: &warpsim_timing::policy::Issued, v: &PolicyView) {
        self.0.on_issue(e, v);
    }
}

/// One warp reads 512 lines (64 KB: each load instruction touches 32 lines, 128 bytes apart,
/// and 16 of them), twice; each load's value is added before the next load issues, so the
/// second pass starts after every line of the first has been filled. `decls` may declare
/// shared memory (never touched: it only sizes the carve-out).
pub fn two_passes(decls: &str) -> String {
    kernel(
        decls,
        "mov.u32 %r10, 0;\n\
         mov.u32 %r11, 0;\n\
         PASS:\n\
         mov.u32 %r12, 0;\n\
         LOOP:\n\
         mad.lo.s32 %r13, %r12, 32, %r5;\n\
         mul.wide.u32 %rd2, %r13, 128;\n\
         add.s64 %rd3, %rd1, %rd2;\n\
         ld.global.u32 %r14, [%rd3];\n\
         add.s32 %r10, %r10, %r14;\n\
         add.s32 %r12, %r12, 1;\n\
         setp.lt.u32 %p1, %r12, 16;\n\
         @%p1 bra LOOP;\n\
         add.s32 %r11, %r11, 1;\n\
         setp.lt.u32 %p2, %r11, 2;\n\
         @%p2 bra PASS;\n\
         mul.wide.u32 %rd4, %r5, 4;\n\
         add.s64 %rd5, %rd1, %rd4;\n\
         st.global.u32 [%rd5], %r10;",
    )
}

/// [`two_passes`] with `decls` on `cfg` under GTO: its output checked against the functional
/// run, and the L1 load hits it scored.
#[allow(dead_code)]
pub fn two_passes_l1_hits(cfg: &GpuConfig, decls: &str) -> u64 {
    let n = 16384;
    let src = two_passes(decls);
    let reference = run(&src, 1, 32, n, None).out;
    let o = run(&src, 1, 32, n, Some((cfg, PolicyKind::GTO)));
    assert!(o.error.is_none(), "{:?}", o.error);
    assert_eq!(o.out, reference);
    o.stats.unwrap().memory.l1d_loads.hits
}

/// A kernel whose warp fills 256 bytes of shared memory, `ldmatrix`es them and stores each
/// lane's register.
pub fn ldmatrix_kernel() -> String {
    kernel(
        ".shared .align 16 .b8 buf[256];",
        "mov.u32 %r41, buf;\nshl.b32 %r42, %r5, 3;\nadd.u32 %r43, %r41, %r42;\n\
         mul.lo.u32 %r44, %r5, 0x00010003;\nst.shared.v2.u32 [%r43], {%r44, %r5};\nbar.sync 0;\n\
         shl.b32 %r45, %r5, 4;\nadd.u32 %r46, %r41, %r45;\n\
         ldmatrix.sync.aligned.m8n8.x1.shared.b16 {%r40}, [%r46];\n\
         mul.wide.u32 %rd2, %r5, 4;\nadd.s64 %rd3, %rd1, %rd2;\nst.global.u32 [%rd3], %r40;",
    )
}

/// [`ldmatrix_kernel`] runs in timing mode on `cfg` (a preset with tensor units) and gives
/// functional mode's result, which is not all zeros.
pub fn assert_ldmatrix_timed_as_functional(cfg: &GpuConfig) {
    let src = ldmatrix_kernel();
    let f = run(&src, 1, 32, 32, None);
    assert_eq!(f.error, None);
    assert!(f.out.iter().any(|&v| v != 0));
    let t = run(&src, 1, 32, 32, Some((cfg, PolicyKind::GTO)));
    assert_eq!(t.error, None, "{}", cfg.name);
    assert_eq!(t.out, f.out, "{}", cfg.name);
}
