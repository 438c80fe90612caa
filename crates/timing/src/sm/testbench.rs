//! A one-SM bench for the stages' unit tests: a kernel from PTX text, its CTAs made resident by
//! hand, and the stages run one at a time at chosen cycles, so a test can state what each
//! stage does in which cycle.

use super::{Env, Sm, SmOut};
use crate::classify::TimingTable;
use crate::fetch_policy::RoundRobin;
use crate::mem::{MemSystem, SmNet};
use crate::policy::Gto;
use warpsim_core::config::GpuConfig;
use warpsim_core::exec::context::LaunchCtx;
use warpsim_core::exec::grid::make_cta;
use warpsim_core::exec::memory::GlobalMemory;
use warpsim_core::ir::Module;

/// The SM the stage tests drive: GTO issue, round-robin fetch.
pub(crate) type TestSm = Sm<Gto, RoundRobin>;

pub(crate) struct Bench {
    pub cfg: GpuConfig,
    module: Module,
    /// Threads per CTA (one dimension).
    block: u32,
    gmem: GlobalMemory,
    printf: String,
    /// What the SM's cycles produced (its counters and records stay here).
    pub out: SmOut,
    pub mem: MemSystem,
    table: TimingTable,
}

impl Bench {
    /// Kernel `k` (no parameters) of `ptx`, `block` threads per CTA, on one SM of `preset` with
    /// `overrides` (`key=value`).
    pub fn new(ptx: &str, block: u32, preset: &str, overrides: &[&str]) -> Bench {
        let mut o = vec!["gpu.num_sms=1".to_string()];
        o.extend(overrides.iter().map(|s| s.to_string()));
        let cfg = GpuConfig::load_with(preset, &o).expect("bench config");
        let module = warpsim_core::load_ptx(ptx).expect("bench kernel loads");
        let table = TimingTable::new(&module, &cfg);
        Bench {
            mem: MemSystem::new(&cfg, 1),
            gmem: GlobalMemory::new(),
            printf: String::new(),
            out: SmOut::default(),
            module,
            block,
            table,
            cfg,
        }
    }

    /// An SM with `ctas` CTA slots for this kernel; `perfect_icache` as `TimingOptions` has it.
    pub fn sm(&self, ctas: usize, perfect_icache: bool) -> TestSm {
        let wpc = self.block.div_ceil(32) as usize;
        Sm::new(
            0,
            &self.cfg,
            ctas,
            wpc,
            &mut |b| Gto::new(b.scheduler),
            RoundRobin::default(),
            perfect_icache,
            false,
        )
    }

    /// Runs `f` with the cycle environment of a one-CTA-per-launch grid of `grid` CTAs (what
    /// it sends is queued, its stores written, as at a cycle's end; it may not defer atomics).
    pub fn with_env<R>(&mut self, grid: u32, f: impl FnOnce(&mut Env) -> R) -> R {
        self.with_env_at(grid, 0, |env| f(env))
    }

    /// [`Bench::with_env`] at cycle `now`, with the dispatcher's `all_dispatched`.
    fn with_env_at<R>(&mut self, grid: u32, now: u64, f: impl FnOnce(&mut Env) -> R) -> R {
        let kernel = self
            .module
            .functions
            .iter()
            .position(|f| f.name == "k")
            .expect("kernel k") as u32;
        let k = LaunchCtx::one_dim(&self.module, kernel, &[], grid, self.block, 1);
        let mut ports = self.mem.take_ports();
        let r = {
            let mut env = Env {
                k: &k,
                cfg: &self.cfg,
                table: &self.table,
                all_dispatched: false,
                log_cta_order: false,
                gmem: &self.gmem,
                mem: SmNet::new(&self.mem, &mut ports[0]),
                out: &mut self.out,
            };
            f(&mut env)
        };
        self.mem.commit_sends(ports, now);
        self.out
            .journal
            .commit(&mut self.gmem, |_, _| Err(()))
            .expect("bench kernels defer no atomics outside `run`");
        self.printf.push_str(&self.out.printf);
        self.out.printf.clear();
        r
    }

    /// Allocates `bytes` of zeroed global memory for the kernel to touch; the first
    /// allocation is at `warpsim_core::ir::layout::ALLOC_BASE`.
    pub fn alloc(&mut self, bytes: u64) -> u64 {
        self.gmem.alloc(bytes).expect("bench allocation")
    }

    /// Runs cycles `cycles` of `sm` as `gpu.rs`'s `run_loop` does (the memory system's cycle,
    /// then the SM's, then the commit), every CTA of the `grid`-CTA launch dispatched;
    /// `watch(sm, env, now)` looks at the state after each cycle's SM step.
    pub fn run(
        &mut self,
        sm: &mut TestSm,
        grid: u32,
        cycles: std::ops::Range<u64>,
        mut watch: impl FnMut(&TestSm, &Env, u64),
    ) {
        let kernel = self
            .module
            .functions
            .iter()
            .position(|f| f.name == "k")
            .expect("kernel k") as u32;
        let k = LaunchCtx::one_dim(&self.module, kernel, &[], grid, self.block, 1);
        for now in cycles {
            self.mem.cycle(now);
            let mut ports = self.mem.take_ports();
            {
                let mut env = Env {
                    k: &k,
                    cfg: &self.cfg,
                    table: &self.table,
                    all_dispatched: true,
                    log_cta_order: false,
                    gmem: &self.gmem,
                    mem: SmNet::new(&self.mem, &mut ports[0]),
                    out: &mut self.out,
                };
                sm.cycle(&mut env, now).expect("the bench kernel runs");
                watch(sm, &env, now);
            }
            self.mem.commit_sends(ports, now);
            self.out
                .journal
                .commit(&mut self.gmem, |g, d| sm.apply_deferred(&k, g, d, now))
                .expect("the bench kernel's deferred operations");
            self.printf.push_str(&self.out.printf);
            self.out.printf.clear();
        }
    }

    /// Makes CTA `linear` of a `grid`-CTA launch resident on `sm` at cycle `now`.
    pub fn launch(&mut self, sm: &mut TestSm, grid: u32, linear: u64, now: u64) {
        let wpc = self.block.div_ceil(32) as u64;
        self.with_env(grid, |env| {
            // The kernel's static shared memory (no dynamic part).
            let shared = env.k.module.functions[env.k.kernel as usize].shared_bytes;
            let cta = make_cta(env.k, linear, shared);
            sm.launch(env, cta, linear, now, linear * wpc);
        });
    }
}

/// A kernel `k()` of straight-line code: `body`, then `ret`. Registers `%r0`–`%r15`.
pub(crate) fn kernel(body: &str) -> String {
    format!(
        ".version 9.5\n.target sm_75\n.address_size 64\n.visible .entry k()\n{{\n\
         .reg .b32 %r<16>;\n{body}\nret;\n}}\n"
    )
}
