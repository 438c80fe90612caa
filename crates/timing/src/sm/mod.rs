//! One streaming multiprocessor. Per-warp timing state is struct-of-arrays indexed by warp
//! slot; a CTA in CTA slot `c` owns warp slots `c*W .. c*W + W` (W = warps per CTA) and warp
//! slot `w` belongs to scheduler `w mod S`. Each cycle runs the stages in reverse pipeline
//! order (GPGPU-Sim's): writeback/retire ([`writeback`]), issue ([`issue`]), fetch+decode
//! ([`fetch`]).

pub mod fetch;
pub mod issue;
pub mod memory;
pub mod scoreboard;
pub mod units;
pub mod writeback;

use crate::classify::TimingTable;
use crate::policy::{Policy, PolicyKind};
use crate::stats::{CtaRecord, IssueEvent, IssueSlots, StallCounts, WarpRecord};
use scoreboard::Scoreboard;
use units::Units;
use warpsim_core::config::GpuConfig;
use warpsim_core::exec::context::LaunchCtx;
use warpsim_core::exec::cta::Cta;
use warpsim_core::exec::memory::GlobalMemory;
use warpsim_core::exec::warp::WarpState;

/// Everything outside the SMs a cycle touches.
pub struct Env<'k, 'a> {
    pub k: &'k LaunchCtx<'a>,
    pub gmem: &'k mut GlobalMemory,
    pub printf: &'k mut String,
    pub cfg: &'k GpuConfig,
    pub table: &'k TimingTable,
    pub warp_instructions: u64,
    pub thread_instructions: u64,
    pub ctas: Vec<CtaRecord>,
    pub warps: Vec<WarpRecord>,
    /// Issue events, when tracing.
    pub trace: Option<Vec<IssueEvent>>,
}

pub struct ResidentCta {
    pub cta: Cta,
    pub linear: u64,
    pub start: u64,
}

pub struct Sm {
    pub id: u32,
    pub(crate) ctas: Vec<Option<ResidentCta>>,
    /// Warps per CTA.
    pub(crate) wpc: usize,
    pub(crate) resident: usize,
    /// Some warp finished since the last retire check.
    pub(crate) pending_exit: bool,
    // ---- per warp slot (struct of arrays) ----
    pub(crate) occupied: Vec<bool>,
    pub(crate) age: Vec<u64>,
    /// Copies of the functional warp's state, current function and PC, refreshed whenever they
    /// can change (at issue, barrier release, exit), so the per-cycle stages need not chase the
    /// warp's heap data.
    pub(crate) state: Vec<WarpState>,
    pub(crate) cur_func: Vec<u32>,
    pub(crate) cur_pc: Vec<u32>,
    pub(crate) waiting: Vec<bool>,
    pub(crate) long_dep: Vec<bool>,
    /// I-buffer: `ib_n` valid decoded entries, the first at (`ib_func`, `ib_pc`), the rest sequential.
    pub(crate) ib_func: Vec<u32>,
    pub(crate) ib_pc: Vec<u32>,
    pub(crate) ib_n: Vec<u8>,
    /// The I-buffer was emptied by a control hazard and not refilled yet.
    pub(crate) flushed: Vec<bool>,
    pub(crate) sb: Vec<Scoreboard>,
    /// The warp's next instruction is blocked by the scoreboard until this cycle.
    pub(crate) data_until: Vec<u64>,
    /// Cycle the warp's last in-flight result completes.
    pub(crate) last_complete: Vec<u64>,
    pub(crate) start: Vec<u64>,
    pub(crate) done_at: Vec<u64>,
    pub(crate) stalls: Vec<StallCounts>,
    pub(crate) insts: Vec<u64>,
    /// Cycle stamp (+1) of the last issue-stage evaluation, to find warps the policy left out.
    pub(crate) walked: Vec<u64>,
    pub(crate) issued_at: Vec<u64>,
    // ---- per scheduler ----
    pub(crate) sched_slots: Vec<Vec<u16>>,
    pub(crate) policies: Vec<Policy>,
    pub(crate) order: Vec<u16>,
    pub issue: Vec<IssueSlots>,
    pub(crate) units: Units,
    pub(crate) fetch_rr: usize,
}

impl Sm {
    pub fn new(id: u32, cfg: &GpuConfig, ctas_per_sm: usize, wpc: usize, policy: PolicyKind) -> Sm {
        let n = ctas_per_sm * wpc;
        let s = cfg.sm.schedulers.max(1) as usize;
        let sched_slots: Vec<Vec<u16>> = (0..s)
            .map(|i| (0..n).filter(|w| w % s == i).map(|w| w as u16).collect())
            .collect();
        let policies = sched_slots.iter().map(|sl| policy.build(sl, n)).collect();
        Sm {
            id,
            ctas: (0..ctas_per_sm).map(|_| None).collect(),
            wpc,
            resident: 0,
            pending_exit: false,
            occupied: vec![false; n],
            age: vec![0; n],
            state: vec![WarpState::Done; n],
            cur_func: vec![0; n],
            cur_pc: vec![0; n],
            waiting: vec![false; n],
            long_dep: vec![false; n],
            ib_func: vec![0; n],
            ib_pc: vec![0; n],
            ib_n: vec![0; n],
            flushed: vec![false; n],
            sb: vec![Scoreboard::default(); n],
            data_until: vec![0; n],
            last_complete: vec![0; n],
            start: vec![0; n],
            done_at: vec![0; n],
            stalls: vec![StallCounts::default(); n],
            insts: vec![0; n],
            walked: vec![0; n],
            issued_at: vec![0; n],
            sched_slots,
            policies,
            order: Vec::with_capacity(n),
            issue: vec![IssueSlots::default(); s],
            units: Units::new(cfg),
            fetch_rr: 0,
        }
    }

    /// A CTA slot is free.
    pub fn has_room(&self) -> bool {
        self.resident < self.ctas.len()
    }

    pub fn is_idle(&self) -> bool {
        self.resident == 0
    }

    /// Makes `cta` resident in a free CTA slot; its warps get dynamic ids `age_base + index`.
    pub fn launch(&mut self, cta: Cta, linear: u64, now: u64, age_base: u64) {
        let c = self
            .ctas
            .iter()
            .position(|x| x.is_none())
            .expect("launch only with room");
        for (wi, w) in cta.warps.iter().enumerate() {
            let s = c * self.wpc + wi;
            self.occupied[s] = true;
            self.age[s] = age_base + wi as u64;
            self.waiting[s] = false;
            self.long_dep[s] = false;
            self.ib_n[s] = 0;
            self.flushed[s] = false;
            self.sb[s].clear();
            self.data_until[s] = 0;
            self.sb[s].fit(
                w.regs.len() / warpsim_core::exec::warp::WARP_SIZE,
                w.preds.len(),
            );
            self.last_complete[s] = now;
            self.start[s] = now;
            self.done_at[s] = now;
            self.stalls[s] = StallCounts::default();
            self.insts[s] = 0;
        }
        self.ctas[c] = Some(ResidentCta {
            cta,
            linear,
            start: now,
        });
        self.sync_cta(c);
        self.resident += 1;
        self.pending_exit = true; // a CTA of warps with no valid lanes finishes at once
    }

    /// Refreshes the cached state/function/PC of every warp of CTA slot `c`.
    pub(crate) fn sync_cta(&mut self, c: usize) {
        let Some(rc) = &self.ctas[c] else { return };
        for wi in 0..rc.cta.warps.len() {
            let Some(rc) = &self.ctas[c] else { return };
            let w = &rc.cta.warps[wi];
            let snap = (w.state, w.pc(), w.frames.last().map_or(0, |f| f.func));
            self.set_warp(c * self.wpc + wi, snap);
        }
    }

    #[inline]
    pub(crate) fn set_warp(&mut self, s: usize, (state, pc, func): (WarpState, Option<u32>, u32)) {
        self.state[s] = state;
        match pc {
            Some(pc) => {
                self.cur_pc[s] = pc;
                self.cur_func[s] = func;
            }
            None => self.state[s] = WarpState::Done,
        }
    }

    /// One cycle of this SM.
    pub fn cycle(&mut self, env: &mut Env, now: u64) -> Result<(), crate::TimingError> {
        self.retire(env, now);
        if self.resident == 0 {
            return Ok(());
        }
        for s in 0..self.sched_slots.len() {
            self.issue_stage(env, s, now)?;
        }
        self.fetch_stage(env, now);
        Ok(())
    }
}
