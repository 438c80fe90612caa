//! Fetch policies: which warps the fetch stage fills this cycle. A fetch policy sees the same
//! [`PolicyView`] as issue policies and can read every scheduler's current issue order through
//! [`IssueOrders`] (what critical-fetch-first needs). The registered ones ([`FETCH`] in the
//! policy registry) are one enum, [`AnyFetch`], matched once per SM-cycle; a custom fetch
//! policy (tests) is a type the SM is generic over.
//!
//! [`FETCH`]: crate::policy::FETCH

mod cff;
mod fef;
mod rr;

pub use cff::Cff;
pub use fef::Fef;
pub use rr::RoundRobin;

use crate::policy::{IssueOrders, IssuePolicy, PolicyView, FETCH, MAX_WARP_SLOTS};
use warpsim_core::config::{FetchEligibility, PolicyParams};
use warpsim_core::exec::warp::WarpState;

/// The interface every fetch policy implements.
pub trait FetchPolicy {
    /// Appends up to `budget` distinct eligible warp slots (see [`eligible`]) to `out`, most
    /// urgent first.
    fn pick<P: IssuePolicy>(
        &mut self,
        v: &PolicyView,
        orders: &mut IssueOrders<'_, P>,
        budget: usize,
        out: &mut Vec<u16>,
    );
}

/// Whether slot `s` may be fetched for under `rule`: resident, not finished, no I-cache miss
/// pending, and an I-buffer that is empty (`Empty`: the BAWS paper's §2.2 rule and
/// GPGPU-Sim's, what `rr` and by default `cff` use), has room for a whole fetch block
/// (`Block`), or has a free entry (`Partial`, what `fef` needs).
#[inline]
pub fn eligible(v: &PolicyView, s: usize, rule: FetchEligibility) -> bool {
    let w = v.warps;
    let n = w.ib_n[s] as u16;
    w.occupied[s]
        && w.state[s] != WarpState::Done
        && w.fetch_wait[s] <= v.now
        && match rule {
            FetchEligibility::Empty => n == 0,
            FetchEligibility::Block => n + w.fetch_block_size as u16 <= w.ib_depth as u16,
            FetchEligibility::Partial => n < w.ib_depth as u16,
        }
}

/// The bit set of `WarpSlots` that holds `rule`'s I-buffer condition for every slot.
#[inline]
pub fn eligible_set(v: &PolicyView, rule: FetchEligibility) -> u64 {
    match rule {
        FetchEligibility::Empty => v.warps.fetch_empty,
        FetchEligibility::Block => v.warps.fetch_block,
        FetchEligibility::Partial => v.warps.fetch_room,
    }
}

/// [`eligible`] from `WarpSlots`' derived bit sets: one bit test and the I-cache wait (what
/// the per-cycle picks use; `eligible` stays the definition, checked against in debug builds).
#[inline]
pub fn eligible_now(v: &PolicyView, s: usize, rule: FetchEligibility) -> bool {
    let ok =
        s < MAX_WARP_SLOTS && eligible_set(v, rule) >> s & 1 != 0 && v.warps.fetch_wait[s] <= v.now;
    debug_assert_eq!(ok, eligible(v, s, rule), "fetch bit sets out of date");
    ok
}

/// The registered fetch policies, by name (see [`FETCH`] for the names and summaries).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum FetchKind {
    /// Round robin over warps with an empty I-buffer (GPGPU-Sim's fetch).
    #[default]
    Rr,
    /// Critical fetch first.
    Cff,
    /// Fewest entries first.
    Fef,
}

impl FetchKind {
    /// A name of [`FETCH`]; the error lists the valid ones.
    pub fn from_name(name: &str) -> Result<FetchKind, crate::TimingError> {
        FETCH
            .iter()
            .find(|e| e.name == name)
            .map(|e| e.kind)
            .ok_or_else(|| crate::TimingError::UnknownFetch {
                name: name.to_string(),
                valid: FETCH.iter().map(|e| e.name.to_string()).collect(),
            })
    }

    /// Its name in [`FETCH`].
    pub fn name(&self) -> &'static str {
        FETCH
            .iter()
            .find(|e| e.kind == *self)
            .map_or("?", |e| e.name)
    }
}

/// A registered fetch policy: matched once per SM-cycle.
pub enum AnyFetch {
    Rr(RoundRobin),
    Cff(Cff),
    Fef(Fef),
}

impl AnyFetch {
    pub fn new(kind: FetchKind, params: &PolicyParams) -> AnyFetch {
        match kind {
            FetchKind::Rr => AnyFetch::Rr(RoundRobin::default()),
            FetchKind::Cff => {
                AnyFetch::Cff(Cff::with_rule(params.cff.merge, params.cff.eligibility))
            }
            FetchKind::Fef => AnyFetch::Fef(Fef),
        }
    }
}

impl FetchPolicy for AnyFetch {
    #[inline]
    fn pick<P: IssuePolicy>(
        &mut self,
        v: &PolicyView,
        orders: &mut IssueOrders<'_, P>,
        budget: usize,
        out: &mut Vec<u16>,
    ) {
        match self {
            AnyFetch::Rr(f) => f.pick(v, orders, budget, out),
            AnyFetch::Cff(f) => f.pick(v, orders, budget, out),
            AnyFetch::Fef(f) => f.pick(v, orders, budget, out),
        }
    }
}
