//! Issue policies: each writes one scheduler's priority order of warp slots into a
//! caller-provided buffer; the common issue loop (`sm/issue.rs`) walks it. Chosen once by name
//! ([`PolicyKind::from_name`]); the cycle loop is generic over the concrete policy type
//! (static dispatch, no `dyn`).
//!
//! Event hooks: every hook of [`IssuePolicy`] is delivered to the policy instance of *every*
//! scheduler of the SM where the event happens (so SM-wide tables such as BAWS's WPT can be
//! kept by each instance, or read from the [`PolicyView`]); all default to no-ops. Within one
//! cycle they fire in pipeline order: CTA launch (dispatch, before the SM's stages), memory
//! completions, CTA exit (writeback), then per scheduler in order each issue followed by the
//! barrier arrive / warp finished / barrier release it caused (a dual-issued second
//! instruction right after the first; warp-sharing issues after every scheduler's own walk);
//! last-CTA-dispatched fires once,
//! on every SM, in the cycle the dispatcher hands out the kernel's last CTA (after that
//! CTA's launch hook).

mod gto;
mod lrr;
mod oldest;
mod tls;
pub mod view;

pub use gto::Gto;
pub use lrr::Lrr;
pub use oldest::Oldest;
pub use tls::Tls;
pub use view::{Block, CtaSlots, PolicyView, WarpSlots};

use crate::classify::Unit;

/// One issued warp instruction, as hooks see it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Issued {
    pub slot: u16,
    /// The scheduler that issued it (differs from `slot mod S` for a shared issue).
    pub scheduler: u16,
    pub pc: u32,
    pub unit: Unit,
    /// Active lanes that executed it.
    pub lanes: u32,
    /// Issued by another scheduler (warp sharing).
    pub shared: bool,
}

/// The interface every issue policy implements. Only [`IssuePolicy::current_order`] is
/// required.
pub trait IssuePolicy {
    /// `order` has no side effects and the *set* of slots it returns depends only on which
    /// slots are occupied. The SM then skips a scheduler none of whose warps can issue until
    /// one of them changes state (its issue-slot statistics are still counted every cycle).
    const PURE_ORDER: bool = true;
    /// A scheduler that issued nothing may issue a ready warp of another scheduler of the SM
    /// whose own unit port was busy (warp sharing); see [`IssuePolicy::pick_shared`].
    const SHARES_WARPS: bool = false;
    /// Deliver [`IssuePolicy::on_mem_complete`] (costs a completion queue per SM).
    const WANTS_MEM_EVENTS: bool = false;

    /// The priority order this scheduler would use now, without changing any state. Fetch
    /// policies (CFF) read it through [`IssueOrders`].
    fn current_order(&self, slots: &[u16], v: &PolicyView, out: &mut Vec<u16>);

    /// The order the issue stage walks this cycle (`out` is cleared first). Policies whose
    /// ordering has per-cycle state updates (two-level) do them here.
    fn order(&mut self, slots: &[u16], v: &PolicyView, out: &mut Vec<u16>) {
        self.current_order(slots, v, out);
    }

    /// A warp instruction issued (any scheduler of the SM).
    fn on_issue(&mut self, _e: &Issued, _v: &PolicyView) {}
    /// Warp `slot` arrived at a barrier at `pc` and waits.
    fn on_barrier_arrive(&mut self, _slot: u16, _pc: u32, _v: &PolicyView) {}
    /// The barrier CTA slot `cta` waited on (at `pc`) released its warps.
    fn on_barrier_release(&mut self, _cta: u16, _pc: u32, _v: &PolicyView) {}
    /// Warp `slot` executed its last instruction (it now waits for its CTA to exit).
    fn on_warp_finished(&mut self, _slot: u16, _v: &PolicyView) {}
    /// A CTA became resident in CTA slot `cta`.
    fn on_cta_launch(&mut self, _cta: u16, _v: &PolicyView) {}
    /// The CTA in slot `cta` exited: its warp slots are already free; its CTA-slot fields in
    /// the view still describe it.
    fn on_cta_exit(&mut self, _cta: u16, _v: &PolicyView) {}
    /// A memory instruction of warp `slot` completed (only with `WANTS_MEM_EVENTS`).
    fn on_mem_complete(&mut self, _slot: u16, _v: &PolicyView) {}
    /// The dispatcher has dispatched the kernel's last CTA (PRO's slow phase, KAWS's milestone).
    fn on_last_cta_dispatched(&mut self, _v: &PolicyView) {}

    /// Warp sharing: of `candidates` (other schedulers' ready warps whose unit has a free
    /// instance for this scheduler), the one to issue. Default: the oldest.
    fn pick_shared(&mut self, candidates: &[u16], v: &PolicyView) -> Option<u16> {
        candidates.iter().copied().min_by_key(|&s| v.age(s))
    }
}

/// Read access to every scheduler's current issue order, for fetch policies.
pub struct IssueOrders<'a, P> {
    pub(crate) policies: &'a [P],
    pub(crate) slots: &'a [Vec<u16>],
}

impl<P: IssuePolicy> IssueOrders<'_, P> {
    /// Builds the accessor over per-scheduler policies and their slots.
    pub fn new<'a>(policies: &'a [P], slots: &'a [Vec<u16>]) -> IssueOrders<'a, P> {
        IssueOrders { policies, slots }
    }

    pub fn schedulers(&self) -> usize {
        self.policies.len()
    }

    /// Scheduler `sched`'s current order ([`IssuePolicy::current_order`]) into `out`.
    pub fn order(&self, sched: usize, v: &PolicyView, out: &mut Vec<u16>) {
        out.clear();
        self.policies[sched].current_order(&self.slots[sched], v, out);
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PolicyKind {
    Lrr,
    Gto,
    Oldest,
    /// Two-level with an active set of this many warps per scheduler.
    Tls(u32),
}

impl PolicyKind {
    pub const NAMES: &'static [&'static str] = &["lrr", "gto", "oldest", "tls"];

    /// `lrr`, `gto`, `oldest`, `tls` (active set 6) or `tls:N`.
    pub fn from_name(name: &str) -> Result<PolicyKind, crate::TimingError> {
        let bad = || crate::TimingError::UnknownPolicy {
            name: name.to_string(),
            valid: Self::NAMES.iter().map(|s| s.to_string()).collect(),
        };
        Ok(match name {
            "lrr" => PolicyKind::Lrr,
            "gto" => PolicyKind::Gto,
            "oldest" => PolicyKind::Oldest,
            "tls" => PolicyKind::Tls(6),
            _ => match name
                .strip_prefix("tls:")
                .and_then(|n| n.parse::<u32>().ok())
            {
                Some(n) if n > 0 => PolicyKind::Tls(n),
                _ => return Err(bad()),
            },
        })
    }

    pub fn name(&self) -> String {
        match self {
            PolicyKind::Lrr => "lrr".into(),
            PolicyKind::Gto => "gto".into(),
            PolicyKind::Oldest => "oldest".into(),
            PolicyKind::Tls(6) => "tls".into(),
            PolicyKind::Tls(n) => format!("tls:{n}"),
        }
    }
}

/// Appends the occupied slots of `slots` in round-robin order starting after `last` (or from
/// the first slot when `last` is not among them).
pub(crate) fn rotate_after(slots: &[u16], last: Option<u16>, v: &PolicyView, out: &mut Vec<u16>) {
    let start = last
        .and_then(|l| slots.iter().position(|&s| s == l))
        .map_or(0, |i| i + 1);
    let (a, b) = slots.split_at(start);
    out.extend(b.iter().chain(a).copied().filter(|&s| v.occupied(s)));
}
