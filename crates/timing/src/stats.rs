//! Statistics of a timed launch. Every counter is documented here; see `README.md` for the
//! stall classification.

use serde::Serialize;

/// Why a resident warp did not issue in a cycle (BAWS-style per-warp breakdown). Exactly one
/// reason is counted per resident warp per cycle it does not issue.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct StallCounts {
    /// Its next instruction waits on the scoreboard (RAW/WAW on an in-flight result).
    pub data: u64,
    /// Ready, but the functional unit it needs is busy (initiation interval / LD/ST segments).
    pub structural: u64,
    /// Waiting at a barrier.
    pub barrier: u64,
    /// Finished; waiting for the rest of its CTA to exit (the implicit exit barrier).
    pub exit_wait: u64,
    /// I-buffer empty after a taken branch / reconvergence flushed it.
    pub control: u64,
    /// I-buffer empty otherwise (waiting for the fetch stage).
    pub fetch: u64,
    /// Could issue, but the scheduler chose another warp (or, for `tls`, it is not in the active set).
    pub not_selected: u64,
}

impl StallCounts {
    pub fn add(&mut self, o: &StallCounts) {
        self.data += o.data;
        self.structural += o.structural;
        self.barrier += o.barrier;
        self.exit_wait += o.exit_wait;
        self.control += o.control;
        self.fetch += o.fetch;
        self.not_selected += o.not_selected;
    }

    pub fn total(&self) -> u64 {
        self.data
            + self.structural
            + self.barrier
            + self.exit_wait
            + self.control
            + self.fetch
            + self.not_selected
    }
}

/// One scheduler's issue slots, GPGPU-Sim style: every cycle its SM has resident CTAs counts
/// exactly one of these.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct IssueSlots {
    pub issued: u64,
    /// No considered warp had a valid instruction it could try (empty I-buffers, barriers, exit).
    pub idle: u64,
    /// Some warp had an instruction, all such were held by the scoreboard.
    pub scoreboard: u64,
    /// Some warp was ready but its functional unit was busy.
    pub pipeline: u64,
}

impl IssueSlots {
    pub fn add(&mut self, o: &IssueSlots) {
        self.issued += o.issued;
        self.idle += o.idle;
        self.scoreboard += o.scoreboard;
        self.pipeline += o.pipeline;
    }
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct CtaRecord {
    /// Linear CTA index in the grid.
    pub linear: u64,
    pub id: [u32; 3],
    pub sm: u32,
    /// Cycle the CTA was dispatched.
    pub start: u64,
    /// Cycle its slot freed (all warps done and their results written back).
    pub end: u64,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct WarpRecord {
    pub cta: u64,
    pub warp: u32,
    pub sm: u32,
    pub slot: u32,
    /// Dynamic id (age), in launch order.
    pub age: u64,
    pub instructions: u64,
    pub thread_instructions: u64,
    pub start: u64,
    /// Cycle its last instruction issued (its exit).
    pub done: u64,
    pub stalls: StallCounts,
    /// Barrier stall cycles / resident cycles (CTA start to CTA end).
    pub barrier_fraction: f64,
}

/// One issued warp instruction (recorded only with `TimingOptions::trace_issue`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct IssueEvent {
    pub cycle: u64,
    pub sm: u32,
    pub scheduler: u32,
    pub slot: u32,
    /// The warp's dynamic id.
    pub age: u64,
    pub pc: u32,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct TimingStats {
    pub kernel: String,
    pub config: String,
    pub policy: String,
    pub cycles: u64,
    pub warp_instructions: u64,
    pub thread_instructions: u64,
    /// Warp instructions per cycle over the whole GPU.
    pub ipc: f64,
    pub ctas_per_sm: u32,
    /// Sum over all schedulers of all SMs.
    pub issue: IssueSlots,
    /// `[sm][scheduler]`.
    pub issue_per_scheduler: Vec<Vec<IssueSlots>>,
    /// Sum over all warps.
    pub stalls: StallCounts,
    /// Sum of barrier stall cycles / sum of resident warp cycles.
    pub barrier_stall_fraction: f64,
    /// In CTA exit order.
    pub ctas: Vec<CtaRecord>,
    /// In warp exit order (CTA exit order, then warp index).
    pub warps: Vec<WarpRecord>,
    /// Every issue in order, when `TimingOptions::trace_issue` is set (else empty).
    pub issue_trace: Vec<IssueEvent>,
}
