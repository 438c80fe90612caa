//! What one SM's cycles produce besides its own state: counters, CTA and warp records, trace
//! and log events, `printf` text and the journal of its global-memory effects. Each SM has its
//! own, so the SMs of a cycle can step on separate threads; the engine (`gpu.rs`) commits the
//! journals and moves the records out SM by SM in SM order at the end of every cycle, so they
//! come out in the order one thread stepping the SMs in that order would give, and the
//! counters are summed at the end of the launch.

use crate::gpu::TimingOptions;
use crate::stats::{CtaRecord, IssueEvent, LogEvent, SharedIssues, WarpRecord};
use warpsim_core::config::GpuConfig;
use warpsim_core::exec::global::Journal;

#[derive(Default)]
pub struct SmOut {
    /// Global-memory effects of the current cycle, committed at its end.
    pub journal: Journal,
    /// `printf` output of the current cycle.
    pub printf: String,
    pub warp_instructions: u64,
    pub thread_instructions: u64,
    /// Issued instructions by active-lane count.
    pub lanes: Vec<u64>,
    pub shared_issues: SharedIssues,
    /// Cycles in which a scheduler issued a second instruction (dual issue).
    pub dual_issues: u64,
    /// Extra operand-read cycles from register-bank conflicts.
    pub bank_conflict_cycles: u64,
    /// CTAs and warps that finished this cycle (the engine keeps the launch's).
    pub ctas: Vec<CtaRecord>,
    pub warps: Vec<WarpRecord>,
    /// Issue events, when tracing.
    pub trace: Option<Vec<IssueEvent>>,
    /// The event log, when enabled.
    pub log: Option<Vec<LogEvent>>,
}

impl SmOut {
    /// Empty, recording what `opts` asks for.
    pub fn new(cfg: &GpuConfig, opts: &TimingOptions) -> SmOut {
        SmOut {
            lanes: vec![0; cfg.sm.warp_size.max(32) as usize + 1],
            trace: opts.trace_issue.then(Vec::new),
            log: opts.event_log.then(Vec::new),
            ..SmOut::default()
        }
    }

    /// This cycle produced something to commit or move (most SMs, most cycles: nothing).
    #[inline]
    pub fn has_output(&self) -> bool {
        !self.journal.is_empty()
            || !self.printf.is_empty()
            || !self.ctas.is_empty()
            || !self.warps.is_empty()
            || self.trace.as_ref().is_some_and(|t| !t.is_empty())
            || self.log.as_ref().is_some_and(|l| !l.is_empty())
    }

    /// Moves this cycle's records and text to the end of `all`'s.
    pub fn move_records(&mut self, all: &mut SmOut) {
        if !self.printf.is_empty() {
            all.printf.push_str(&self.printf);
            self.printf.clear();
        }
        all.ctas.append(&mut self.ctas);
        all.warps.append(&mut self.warps);
        if let (Some(from), Some(to)) = (self.trace.as_mut(), all.trace.as_mut()) {
            to.append(from);
        }
        if let (Some(from), Some(to)) = (self.log.as_mut(), all.log.as_mut()) {
            to.append(from);
        }
    }

    /// Adds this SM's counters to `all`'s.
    pub fn add_counters(&self, all: &mut SmOut) {
        all.warp_instructions += self.warp_instructions;
        all.thread_instructions += self.thread_instructions;
        for (a, b) in all.lanes.iter_mut().zip(&self.lanes) {
            *a += b;
        }
        all.shared_issues.add(&self.shared_issues);
        all.dual_issues += self.dual_issues;
        all.bank_conflict_cycles += self.bank_conflict_cycles;
    }
}
