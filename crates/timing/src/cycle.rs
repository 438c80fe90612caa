//! The SMs' part of one cycle: every SM steps against state no other SM writes (global memory
//! as the cycle began, its own port to the memory system, its own output: `sm::Env`), then
//! the cycle is committed SM by SM in SM order: each SM's global-memory journal (stores,
//! atomics, device-heap calls), its sends to the interconnect, its records and `printf` text.
//! Because nothing an SM reads in a cycle depends on another SM's work in that cycle, the
//! results do not depend on the order the SMs step in, nor on how many threads step them.

use crate::classify::TimingTable;
use crate::fetch_policy::FetchPolicy;
use crate::mem::{MemSystem, SmNet, SmPort};
use crate::policy::IssuePolicy;
use crate::sm::{Env, Sm, SmOut};
use crate::team::Team;
use crate::TimingError;
use warpsim_core::config::GpuConfig;
use warpsim_core::exec::context::LaunchCtx;
use warpsim_core::exec::memory::GlobalMemory;

/// What every SM reads and none writes in a cycle.
pub(crate) struct Common<'k, 'a> {
    /// Each SM's launch context (its `smid`).
    pub ctxs: &'k [LaunchCtx<'a>],
    pub cfg: &'k GpuConfig,
    pub table: &'k TimingTable,
    pub log_cta_order: bool,
    pub fast_forward: bool,
}

/// What every SM reads in cycle `now` and none writes: the launch's [`Common`] part, whether
/// the dispatcher has dispatched every CTA, and global memory and the memory system as the
/// cycle began.
#[derive(Clone, Copy)]
pub(crate) struct Cycle<'v, 'k, 'a> {
    pub common: &'v Common<'k, 'a>,
    pub all_dispatched: bool,
    pub gmem: &'v GlobalMemory,
    pub mem: &'v MemSystem,
    pub now: u64,
}

impl<'v, 'k, 'a> Cycle<'v, 'k, 'a> {
    /// SM `si`'s environment for the cycle, with its own port and output.
    #[inline]
    pub fn env<'e>(&self, si: usize, port: &'e mut SmPort, out: &'e mut SmOut) -> Env<'e, 'a>
    where
        'v: 'e,
        'k: 'e,
    {
        let c = self.common;
        Env {
            k: &c.ctxs[si],
            cfg: c.cfg,
            table: c.table,
            all_dispatched: self.all_dispatched,
            log_cta_order: c.log_cta_order,
            gmem: self.gmem,
            mem: SmNet::new(self.mem, port),
            out,
        }
    }
}

/// Runs `f` on SM `si` with its environment, outside the SMs' stepping (the dispatcher's
/// launches), then moves what it recorded to `all` at once, so records keep the order they
/// were made in.
pub(crate) fn with_env<R, P: IssuePolicy, F: FetchPolicy>(
    common: &Common,
    all_dispatched: bool,
    si: usize,
    sm: &mut Sm<P, F>,
    parts: Parts,
    f: impl FnOnce(&mut Sm<P, F>, &mut Env) -> R,
) -> R {
    let Parts {
        gmem,
        mem,
        outs,
        all,
    } = parts;
    let mut ports = mem.take_ports();
    let r = {
        let cycle = Cycle {
            common,
            all_dispatched,
            gmem,
            mem,
            now: 0, // not read: `f` is given its own cycle
        };
        let mut env = cycle.env(si, &mut ports[si], &mut outs[si]);
        f(sm, &mut env)
    };
    mem.return_ports(ports);
    outs[si].move_records(all);
    r
}

/// The state outside the SMs that a cycle's steps and commit change.
pub(crate) struct Parts<'p> {
    pub gmem: &'p mut GlobalMemory,
    pub mem: &'p mut MemSystem,
    /// Each SM's output.
    pub outs: &'p mut [SmOut],
    /// The launch's records so far, in order.
    pub all: &'p mut SmOut,
}

/// Cycle `now` of every SM not quiet or asleep (on `team`'s threads, or this one), then the
/// commit; returns how many SMs have resident CTAs. `printf` receives the cycle's text.
// The SMs, the launch, the cycle's state and who steps them.
#[allow(clippy::too_many_arguments)]
pub(crate) fn step_and_commit<P: IssuePolicy, F: FetchPolicy>(
    sms: &mut [Sm<P, F>],
    common: &Common,
    all_dispatched: bool,
    team: Option<&Team<P, F>>,
    parts: Parts,
    printf: &mut String,
    now: u64,
) -> Result<usize, TimingError> {
    let Parts {
        gmem,
        mem,
        outs,
        all,
    } = parts;
    let mut ports = mem.take_ports();
    let cycle = Cycle {
        common,
        all_dispatched,
        gmem,
        mem,
        now,
    };
    let stepped = match team {
        Some(t) => t.step_all(sms, &cycle, &mut ports, outs),
        None => step_all(sms, &cycle, &mut ports, outs),
    };
    mem.commit_sends(ports, now);
    let resident = stepped?;
    for (si, (sm, out)) in sms.iter_mut().zip(outs.iter_mut()).enumerate() {
        if !out.has_output() {
            continue;
        }
        if !out.journal.is_empty() {
            let k = &common.ctxs[si];
            out.journal
                .commit(gmem, |g, d| sm.apply_deferred(k, g, d, now))?;
        }
        if !out.printf.is_empty() {
            printf.push_str(&out.printf);
            out.printf.clear();
        }
        out.move_records(all);
    }
    Ok(resident)
}

/// The SMs' steps of `cycle`, in SM order, on this thread.
fn step_all<P: IssuePolicy, F: FetchPolicy>(
    sms: &mut [Sm<P, F>],
    cycle: &Cycle,
    ports: &mut [SmPort],
    outs: &mut [SmOut],
) -> Result<usize, TimingError> {
    let mut resident = 0usize;
    for (si, ((sm, port), out)) in sms
        .iter_mut()
        .zip(ports.iter_mut())
        .zip(outs.iter_mut())
        .enumerate()
    {
        resident += step_one(sm, cycle, si, port, out)? as usize;
    }
    Ok(resident)
}

/// SM `si`'s step of `cycle`, with its own port and output (apart, so that SMs can step
/// apart); whether it has resident CTAs.
#[inline]
pub(crate) fn step_one<P: IssuePolicy, F: FetchPolicy>(
    sm: &mut Sm<P, F>,
    cycle: &Cycle,
    si: usize,
    port: &mut SmPort,
    out: &mut SmOut,
) -> Result<bool, TimingError> {
    let now = cycle.now;
    if sm.is_quiet() {
        return Ok(false);
    }
    if sm.sleeping() {
        if sm.asleep(now, port.next_reply()) {
            return Ok(true); // only an SM with resident CTAs sleeps
        }
        sm.wake(now);
    }
    let mut env = cycle.env(si, port, out);
    sm.cycle(&mut env, now)?;
    let resident = !sm.is_idle();
    if cycle.common.fast_forward {
        sm.doze(now);
    }
    Ok(resident)
}
