//! Issue policies: each writes one scheduler's priority order of warp slots into a
//! caller-provided buffer; the common issue loop (`sm/issue.rs`) walks it. Chosen once by name
//! from the registry ([`registry`], [`PolicyKind::from_name`]); the cycle loop is generic over
//! the concrete policy type (static dispatch, no `dyn`).
//!
//! Two kinds of state:
//! - **per scheduler**, the [`IssuePolicy`] itself (one instance per scheduler of every SM:
//!   the last warp it issued, a two-level active set);
//! - **per SM**, its [`IssuePolicy::Shared`] ([`SmState`]): tables the papers keep once per SM
//!   (BAWS's warp priority table as a ranked CTA list, SAWS's first-arrival list), updated once
//!   per event and read by every scheduler's policy when it orders its warps.
//!
//! Event hooks ([`Events`]): every event on an SM goes first to its shared state, then to the
//! policy instance of *every* scheduler of the SM; all default to no-ops. Within one cycle
//! they fire in pipeline order: the shared state's timer (when due), CTA launch (dispatch,
//! before the SM's stages), memory completions, CTA exit (writeback), then per scheduler in
//! order each issue followed by the barrier arrive / warp finished / barrier release it caused
//! (a dual-issued second instruction right after the first; warp-sharing issues after every
//! scheduler's own walk); last-CTA-dispatched fires once, on every SM, in the cycle the
//! dispatcher hands out the kernel's last CTA (after that CTA's launch hook).
//!
//! Adding a policy: one file here implementing [`IssuePolicy`] and [`Build`], and one line in
//! [`registry::ISSUE`]; every test that runs "every policy" reads that table.

mod cta_rank;
mod gto;
mod kaws;
mod lrr;
mod motrr;
mod mwf;
mod oldest;
mod order_cache;
mod pro;
pub mod registry;
mod saws;
mod settled;
mod tls;
pub mod view;

pub use cta_rank::{CtaKey, CtaRank, InCta};
pub use gto::Gto;
pub use kaws::{KernelAware, ProgressRank};
pub use lrr::Lrr;
pub use motrr::{Motrr, MotrrRecency, Mto, Recency};
pub use mwf::{MwfGto, MwfLrr, WaitingFirst};
pub use oldest::Oldest;
pub use pro::{Pro, ProCta, ProState};
pub use registry::{AnyFetch, FetchEntry, IssueEntry, PolicyKind, FETCH, ISSUE};
pub use saws::{FirstArrival, Saws};
pub use settled::{DataPattern, Settled};
pub use tls::Tls;
pub use view::{Block, CtaSlots, PolicyView, WarpSlots};

use crate::classify::Unit;
use warpsim_core::config::PolicyParams;

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

/// The events of an SM that policies (and their SM-wide state) may react to. The view shows
/// the state *after* the event (counters already updated).
pub trait Events {
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
    /// A memory instruction of warp `slot` completed (only when the policy's
    /// `WANTS_MEM_EVENTS`).
    fn on_mem_complete(&mut self, _slot: u16, _v: &PolicyView) {}
    /// The dispatcher has dispatched the kernel's last CTA (PRO's slow phase, KAWS's milestone).
    fn on_last_cta_dispatched(&mut self, _v: &PolicyView) {}
}

/// What a policy (or its SM-wide state) is built from.
#[derive(Clone, Copy, Debug)]
pub struct BuildCtx<'a> {
    /// The scheduler this instance serves (0 for SM-wide state).
    pub scheduler: usize,
    /// Its warp slots (slot `w` belongs to scheduler `w mod schedulers`); empty for SM-wide state.
    pub slots: &'a [u16],
    pub schedulers: usize,
    /// Warp slots of the SM.
    pub warp_slots: usize,
    /// CTA slots of the SM.
    pub cta_slots: usize,
    /// Warp slots per CTA slot.
    pub warps_per_cta: usize,
    /// The `[policy]` table of the configuration.
    pub params: &'a PolicyParams,
}

/// Construction from the configuration, for policies the registry can name.
pub trait Build {
    fn build(b: &BuildCtx) -> Self;
}

/// SM-wide policy state: kept once per SM, told about every event once (before the
/// schedulers' policies), read by every scheduler's policy.
pub trait SmState: Events {
    /// The cycle at which this state changes by itself (a timer, e.g. PRO's periodic re-sort);
    /// `u64::MAX` when it has none. The SM calls [`SmState::on_timer`] in the first cycle it
    /// simulates at or after it, wakes every sleeping scheduler then, and fast-forward never
    /// skips past it.
    fn wake_at(&self) -> u64 {
        u64::MAX
    }
    /// The timer of [`SmState::wake_at`] is due (first thing in the SM's cycle).
    fn on_timer(&mut self, _v: &PolicyView) {}
    /// Introspection: the SM's CTA order now (CTA slots, highest priority first) for a policy
    /// that keeps one (`pro`, and the ranked list of `mwf-*` / `saws`), `None` otherwise. With `TimingOptions::cta_order_log` the SM logs it
    /// (`LogKind::CtaOrder`) at the end of every cycle in which it changed; never read
    /// otherwise.
    fn cta_order(&self) -> Option<&[u16]> {
        None
    }
}

/// No SM-wide state.
impl Events for () {}
impl SmState for () {}
impl Build for () {
    fn build(_: &BuildCtx) {}
}

/// The interface every issue policy implements. Only [`IssuePolicy::current_order`] is
/// required.
/// `Send`: an SM, its policies with it, may step on another thread (`team.rs`).
pub trait IssuePolicy: Events + Send {
    /// The policy's SM-wide state (`()` for none).
    type Shared: SmState + Build + Send;
    /// The scheduler may sleep: after a walk in which no warp of the order could issue (and
    /// the policy is [`IssuePolicy::settled`]), the SM skips it (and may fast-forward) until it
    /// wakes it — on any change of one of its warps' blocking state (`Sm::block`: issue,
    /// fetch, barrier release, memory results), a CTA launch or exit, or the SM-wide state's
    /// timer — charging the same issue-slot outcome every cycle. Required: until such a
    /// wake-up, the orders `order` would have returned hold no warp that can issue, and not
    /// calling it leaves the policy as calling it would have. True when `order` has no side
    /// effects and the *set* of slots it returns depends only on which slots are occupied
    /// (most policies).
    const MAY_SLEEP: bool = true;
    /// Deliver [`Events::on_mem_complete`] (costs a completion queue per SM).
    const WANTS_MEM_EVENTS: bool = false;
    /// [`IssuePolicy::fetch_first`] finds its warp without building the whole fetch order:
    /// a fetch policy asks it for each pick rather than keeping the order.
    const FETCH_FIRST: bool = false;
    /// The policy reads `PolicyView::long_dep` (two-level scheduling): the SM then keeps
    /// `WarpSlots::long_until` as `policy.tls.long_marks` says.
    const READS_LONG_DEP: bool = false;

    /// The priority order this scheduler would use now, without changing any state.
    fn current_order(&self, sh: &Self::Shared, slots: &[u16], v: &PolicyView, out: &mut Vec<u16>);

    /// The order the issue stage walks this cycle (`out` is cleared first). Policies whose
    /// ordering has per-cycle state updates (two-level) do them here.
    fn order(&mut self, sh: &Self::Shared, slots: &[u16], v: &PolicyView, out: &mut Vec<u16>) {
        self.current_order(sh, slots, v, out);
    }

    /// After `order` and a walk that issued nothing: whether the scheduler may sleep until one
    /// of the wake-ups of [`IssuePolicy::MAY_SLEEP`] — every `order` call it skips would have
    /// returned no warp that can issue, and the policy's next `order` or `fetch_order` call
    /// brings its state to where the skipped calls would have left it — and what the skipped
    /// walks' issue-slot outcomes are ([`Settled`]). Default: always, with this walk's outcome
    /// (`order` without side effects). Two-level, whose sets rotate every cycle while an
    /// active warp is due for demotion, is settled when it can replay those rotations, and
    /// says in which of the skipped cycles a warp blocked on data is active (see `tls.rs`).
    fn settled(&mut self, _v: &PolicyView) -> Settled {
        Settled::Same
    }

    /// The order a fetch policy (critical-fetch-first) reads: [`IssuePolicy::current_order`]
    /// extended by every occupied warp the issue stage may not pick now (two-level's pending
    /// warps), most urgent first. May bring the policy's caches up to date (it runs every
    /// fetch cycle), but must not change anything the policy decides later.
    fn fetch_order(
        &mut self,
        sh: &Self::Shared,
        slots: &[u16],
        v: &PolicyView,
        out: &mut Vec<u16>,
    ) {
        self.current_order(sh, slots, v, out);
    }

    /// The first warp of [`IssuePolicy::fetch_order`] in the bit set `among` (a subset of the
    /// occupied warps), with the same effect on the policy as that call. `scratch` is a
    /// buffer the default fills with the whole order; a policy that can find the warp
    /// without building the order (two-level: its active set, then its FIFO) overrides it.
    fn fetch_first(
        &mut self,
        sh: &Self::Shared,
        slots: &[u16],
        v: &PolicyView,
        among: u64,
        scratch: &mut Vec<u16>,
    ) -> Option<u16> {
        scratch.clear();
        self.fetch_order(sh, slots, v, scratch);
        scratch
            .iter()
            .copied()
            .find(|&s| among >> (s & 63) & 1 != 0)
    }

    /// Warp sharing (on with `+ws`, see [`registry`]): of `candidates` (other schedulers'
    /// ready warps whose port was busy, for which this scheduler has a free collector and unit
    /// of their class), the one this scheduler issues. Default: the oldest (KAWS).
    fn pick_shared(&mut self, candidates: &[u16], v: &PolicyView) -> Option<u16> {
        candidates.iter().copied().min_by_key(|&s| v.age(s))
    }
}

/// Read access to every scheduler's current issue order, for fetch policies.
pub struct IssueOrders<'a, P: IssuePolicy> {
    pub(crate) policies: &'a mut [P],
    pub(crate) shared: &'a P::Shared,
    pub(crate) slots: &'a [Vec<u16>],
}

impl<P: IssuePolicy> IssueOrders<'_, P> {
    /// Builds the accessor over per-scheduler policies, their SM-wide state and their slots.
    pub fn new<'a>(
        policies: &'a mut [P],
        shared: &'a P::Shared,
        slots: &'a [Vec<u16>],
    ) -> IssueOrders<'a, P> {
        IssueOrders {
            policies,
            shared,
            slots,
        }
    }

    pub fn schedulers(&self) -> usize {
        self.policies.len()
    }

    /// Scheduler `sched`'s warp slots.
    pub fn slots(&self, sched: usize) -> &[u16] {
        &self.slots[sched]
    }

    /// Scheduler `sched`'s current order for fetch ([`IssuePolicy::fetch_order`]) into `out`.
    pub fn order(&mut self, sched: usize, v: &PolicyView, out: &mut Vec<u16>) {
        out.clear();
        self.policies[sched].fetch_order(self.shared, &self.slots[sched], v, out);
    }

    /// The first warp of scheduler `sched`'s fetch order in `among`
    /// ([`IssuePolicy::fetch_first`]; `scratch` may be overwritten).
    pub fn first(
        &mut self,
        sched: usize,
        v: &PolicyView,
        among: u64,
        scratch: &mut Vec<u16>,
    ) -> Option<u16> {
        self.policies[sched].fetch_first(self.shared, &self.slots[sched], v, among, scratch)
    }
}

/// The most warp slots an SM has (`sm.max_warps` is bounded by 64): a bit set over warp slots
/// (`WarpSlots`' derived sets, the policies' own) is one `u64`.
pub const MAX_WARP_SLOTS: usize = 64;

/// `slots` as a bit set (slots past 64, only in hand-built views, are left out).
#[inline]
pub fn slot_bits(slots: &[u16]) -> u64 {
    slots
        .iter()
        .filter(|&&s| (s as usize) < MAX_WARP_SLOTS)
        .fold(0, |m, &s| m | 1 << s)
}

/// Appends the slots of bit set `set`, lowest first (orders built from `WarpSlots`' bit sets:
/// slot order is bit order).
#[inline]
pub(crate) fn push_bits(mut set: u64, out: &mut Vec<u16>) {
    while set != 0 {
        out.push(set.trailing_zeros() as u16);
        set &= set - 1;
    }
}

/// Slots `first` and above as a bit set (none when `first` is past the last bit).
#[inline]
pub(crate) fn bits_from(first: usize) -> u64 {
    1u64.checked_shl(first as u32)
        .map_or(0, |b| b.wrapping_neg())
}

/// The slots above `last` as a bit set (all of them when there is none): where a round robin
/// after `last` starts.
#[inline]
pub(crate) fn bits_after(last: Option<u16>) -> u64 {
    last.map_or(!0, |l| bits_from(l as usize + 1))
}
