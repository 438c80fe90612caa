//! Statistics of a timed launch. Every counter is documented here; see `README.md` for the
//! stall classification.

use serde::Serialize;

/// Why a resident warp did not issue in a cycle (BAWS-style per-warp breakdown). Exactly one
/// reason is counted per resident warp per cycle it does not issue.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct StallCounts {
    /// Its next instruction waits on the scoreboard (RAW/WAW on an in-flight result).
    pub data: u64,
    /// A candidate whose functional unit was busy (initiation interval / LD/ST segments) when
    /// its scheduler's walk reached it, before that scheduler issued.
    pub structural: u64,
    /// Waiting at a barrier.
    pub barrier: u64,
    /// Finished; waiting for the other warps of its CTA to finish (the implicit exit barrier).
    pub exit_wait: u64,
    /// Finished, as is its whole CTA; waiting for the CTA's outstanding memory instructions
    /// (stores until acknowledged) before the CTA retires.
    pub drain: u64,
    /// I-buffer empty after a taken branch / reconvergence flushed it.
    pub control: u64,
    /// I-buffer empty otherwise (waiting for the fetch stage).
    pub fetch: u64,
    /// Could issue, but its scheduler issued another warp first or did not consider it (`tls`
    /// active set): the resident cycles left after issues and every other reason.
    pub not_selected: u64,
}

impl StallCounts {
    pub fn add(&mut self, o: &StallCounts) {
        self.data += o.data;
        self.structural += o.structural;
        self.barrier += o.barrier;
        self.exit_wait += o.exit_wait;
        self.drain += o.drain;
        self.control += o.control;
        self.fetch += o.fetch;
        self.not_selected += o.not_selected;
    }

    pub fn total(&self) -> u64 {
        self.data
            + self.structural
            + self.barrier
            + self.exit_wait
            + self.drain
            + self.control
            + self.fetch
            + self.not_selected
    }
}

/// Warp-sharing issues (an instruction issued by a scheduler other than the warp's own) by
/// the unit class of the instruction.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct SharedIssues {
    pub sp: u64,
    pub sfu: u64,
    /// LD/ST unit (the paper's MEM).
    pub mem: u64,
}

impl SharedIssues {
    pub fn total(&self) -> u64 {
        self.sp + self.sfu + self.mem
    }

    /// One shared issue of a `unit`-class instruction.
    #[inline]
    pub fn count(&mut self, unit: crate::classify::Unit) {
        use crate::classify::Unit;
        match unit {
            // Tensor-core instructions count with the SP ones: the KAWS paper's three classes
            // (SP, SFU, MEM) predate tensor cores, and its programs have none.
            Unit::Sp | Unit::Tensor => self.sp += 1,
            Unit::Sfu => self.sfu += 1,
            Unit::Ldst => self.mem += 1,
        }
    }

    pub fn add(&mut self, o: &SharedIssues) {
        self.sp += o.sp;
        self.sfu += o.sfu;
        self.mem += o.mem;
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
    /// Cycles in which it issued two instructions (dual issue).
    pub dual_issue_cycles: u64,
    pub start: u64,
    /// Cycle its last instruction issued (its exit).
    pub done: u64,
    /// Cycles in which it had an issued instruction not yet completed (its result written
    /// back, its memory access done): the MOTRR paper's "in flight" ("이슈된 후 완료 전까지",
    /// from issue until completion).
    pub issued_cycles: u64,
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

/// What happened, in the event log.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "event", rename_all = "snake_case")]
pub enum LogKind {
    /// CTA `cta` (linear grid index) became resident.
    CtaStart { cta: u64 },
    /// CTA `cta` exited (its slot is free from this cycle).
    CtaEnd { cta: u64 },
    /// Warp `warp` of CTA `cta` executed the barrier at `pc` and waits.
    BarrierArrive { cta: u64, warp: u32, pc: u32 },
    /// The barrier at `pc` (the PC of the last waiting warp's barrier instruction) released
    /// CTA `cta`'s warps; they may issue from the next cycle.
    BarrierRelease { cta: u64, pc: u32 },
    /// Warp `warp` of CTA `cta` issued its last instruction.
    WarpFinish { cta: u64, warp: u32 },
    /// The policy's CTA order on this SM changed in this cycle (only with
    /// `TimingOptions::cta_order_log`): it now has `ctas` CTAs, listed by the `ctas`
    /// [`LogKind::CtaRank`] events that follow this one directly. One event per CTA keeps
    /// `LogEvent` `Copy` and small.
    CtaOrder { ctas: u32 },
    /// CTA `cta` (linear grid index) is at `rank` (0 = highest priority) of the order the
    /// preceding [`LogKind::CtaOrder`] announced.
    CtaRank { rank: u32, cta: u64 },
}

/// One event-log entry (recorded only with `TimingOptions::event_log`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct LogEvent {
    pub cycle: u64,
    pub sm: u32,
    #[serde(flatten)]
    pub kind: LogKind,
}

/// What a launch's statistics are of: the kernel and the configuration it ran under (names).
/// Serialised inline, as `TimingStats`'s first four fields.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct LaunchIdentity {
    /// The kernel's name as in the module (mangled for C++; the writers demangle it);
    /// `total` for [`crate::report::totals`].
    pub kernel: String,
    /// Preset (GPU configuration) name.
    pub config: String,
    /// Issue policy label (with its `+ws` warp-sharing suffix, if any).
    pub policy: String,
    /// Fetch policy name.
    pub fetch_policy: String,
}

/// L1 I-cache fetch counters, summed over all SMs. Serialised inline under their
/// `icache_`-prefixed names.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct ICacheStats {
    /// Fetches that found their line.
    #[serde(rename = "icache_hits")]
    pub hits: u64,
    /// Fetches that missed: allocated a line, or merged into a line in flight.
    #[serde(rename = "icache_misses")]
    pub misses: u64,
    /// Fetches refused for want of an MSHR entry, merge room, a miss-queue slot or an
    /// unreserved way (the fetch slot is spent).
    #[serde(rename = "icache_reservation_fails")]
    pub reservation_fails: u64,
}

impl ICacheStats {
    pub fn add(&mut self, o: &ICacheStats) {
        self.hits += o.hits;
        self.misses += o.misses;
        self.reservation_fails += o.reservation_fails;
    }
}

/// The statistics of one launch. Serialised (JSON) as one flat object: the sub-structs
/// [`LaunchIdentity`] and [`ICacheStats`] are flattened in place, so the field order and names
/// are those of the statistics' JSON (`timing_golden.csv` digests it).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct TimingStats {
    /// Kernel, preset and policy names (`kernel`, `config`, `policy`, `fetch_policy`).
    #[serde(flatten)]
    pub identity: LaunchIdentity,
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
    /// Issued warp instructions by active-lane count (index 0 ..= warp size; GPGPU-Sim's
    /// `W1 … W32` issue-slot breakdown).
    pub issued_lanes: Vec<u64>,
    /// L1 I-cache fetches (all SMs): `icache_hits`, `icache_misses`,
    /// `icache_reservation_fails`.
    #[serde(flatten)]
    pub icache: ICacheStats,
    /// Instructions issued by a scheduler other than the warp's own (warp sharing), by unit
    /// class.
    pub shared_issues: SharedIssues,
    /// Second instructions issued in the same cycle by the same scheduler (`sm.dual_issue`):
    /// `issue.issued + dual_issues == warp_instructions`.
    pub dual_issues: u64,
    /// Extra operand-read cycles caused by register-bank conflicts: sources sharing a bank, or
    /// reads queued behind earlier instructions' in it (summed over instructions).
    pub bank_conflict_cycles: u64,
    /// Sum over all warps.
    pub stalls: StallCounts,
    /// Caches, interconnect and DRAM.
    pub memory: crate::mem::MemStats,
    /// Sum of barrier stall cycles / sum of resident warp cycles.
    pub barrier_stall_fraction: f64,
    /// In CTA exit order.
    pub ctas: Vec<CtaRecord>,
    /// In warp exit order (CTA exit order, then warp index).
    pub warps: Vec<WarpRecord>,
    /// Every issue in order, when `TimingOptions::trace_issue` is set (else empty).
    pub issue_trace: Vec<IssueEvent>,
    /// CTA start/end, barrier arrive/release and warp finish events in simulation order, when
    /// `TimingOptions::event_log` is set (else empty); with `TimingOptions::cta_order_log`
    /// also the policy's CTA order whenever it changes (`analysis::cta_order_table`).
    pub events: Vec<LogEvent>,
}

impl TimingStats {
    /// BAWS's barrier intensity of this launch: warp-cycles stalled at barriers or at the exit
    /// (finished, waiting for the CTA's other warps) over resident warp cycles, both summed
    /// over the per-warp records. The denominator is `barrier_stall_fraction`'s
    /// ([`crate::report::resident_warp_cycles`]: each warp counts its CTA's residency), so the
    /// two fractions compare directly. A program's intensity over several launches is the
    /// ratio of the summed numerators and denominators, not a mean of these fractions. 0 for
    /// a launch with no resident warp cycles.
    pub fn barrier_exit_fraction(&self) -> f64 {
        let mut stalls = StallCounts::default();
        for w in &self.warps {
            stalls.add(&w.stalls);
        }
        let resident = crate::report::resident_warp_cycles(self);
        crate::analysis::barrier_exit_fraction(&stalls, resident).unwrap_or(0.0)
    }
}
