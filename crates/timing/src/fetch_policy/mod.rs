//! Fetch policies: which warps the fetch stage fills this cycle. A fetch policy sees the same
//! [`PolicyView`] as issue policies and can read every scheduler's current issue order through
//! [`IssueOrders`] (what critical-fetch-first needs). The registered ones ([`FETCH`] in the
//! policy registry, declared with `fetch_registry!`) are one enum, [`AnyFetch`], matched once
//! per SM-cycle; a custom fetch policy (tests) is a type the SM is generic over.
//!
//! [`FETCH`]: crate::policy::FETCH

mod cff;
mod fef;
mod rr;

pub use cff::Cff;
pub use fef::Fef;
pub use rr::RoundRobin;

pub use crate::policy::AnyFetch;
use crate::policy::{IssueOrders, IssuePolicy, PolicyView, FETCH, MAX_WARP_SLOTS};
use warpsim_core::config::{FetchEligibility, PolicyParams};
use warpsim_core::exec::warp::WarpState;

/// The interface every fetch policy implements.
/// `Send`: an SM, its fetch policy with it, may step on another thread (`team.rs`).
pub trait FetchPolicy: Send {
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
    let n = w.ib_n()[s] as u16;
    w.occupied()[s]
        && w.state()[s] != WarpState::Done
        && w.fetch_wait[s] <= v.now
        && match rule {
            FetchEligibility::Empty => n == 0,
            FetchEligibility::Block => n + w.fetch_block_size() as u16 <= w.ib_depth() as u16,
            FetchEligibility::Partial => n < w.ib_depth() as u16,
        }
}

/// The bit set of `WarpSlots` that holds `rule`'s I-buffer condition for every slot.
#[inline]
pub fn eligible_set(v: &PolicyView, rule: FetchEligibility) -> u64 {
    match rule {
        FetchEligibility::Empty => v.warps.fetch_empty(),
        FetchEligibility::Block => v.warps.fetch_block(),
        FetchEligibility::Partial => v.warps.fetch_room(),
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

/// Construction from the configuration's `[policy]` tables, for fetch policies the registry
/// can name (each reads only its own table).
pub trait BuildFetch: FetchPolicy {
    fn build(params: &PolicyParams) -> Self;
}

/// Declares the registered fetch policies in one list: each line is
/// `Variant(Type) "name", [TABLES], "summary";`. It defines the [`FETCH`] table (what
/// `--fetch`, `warpsim list policies` and every "all policies" test read), [`AnyFetch`] (one
/// enum matched once per SM-cycle: static dispatch without compiling issue × fetch pairs) and
/// [`FetchKind`]'s constants. Adding a fetch policy is its file (the type, its
/// [`FetchPolicy`] and [`BuildFetch`]) plus one line in the list in `policy/registry.rs`.
macro_rules! fetch_registry {
    ($( $(#[$doc:meta])* $variant:ident($ty:ty) $name:literal, [$($table:expr),*], $summary:literal; )+) => {
        /// A registered fetch policy: matched once per SM-cycle.
        // One per SM, built once and never moved per cycle; CFF's fixed per-scheduler arrays
        // make it the large variant, and boxing them would add a pointer chase per fetch.
        #[allow(clippy::large_enum_variant)]
        pub enum AnyFetch {
            $( $(#[$doc])* $variant($ty), )+
        }

        impl $crate::fetch_policy::FetchPolicy for AnyFetch {
            #[inline]
            fn pick<P: $crate::policy::IssuePolicy>(
                &mut self,
                v: &$crate::policy::PolicyView,
                orders: &mut $crate::policy::IssueOrders<'_, P>,
                budget: usize,
                out: &mut Vec<u16>,
            ) {
                match self {
                    $( AnyFetch::$variant(f) => f.pick(v, orders, budget, out), )+
                }
            }
        }

        /// The fetch policies, in the order `warpsim list policies` shows them; the first is
        /// the default.
        pub const FETCH: &[$crate::policy::FetchEntry] = &[
            $( $crate::policy::FetchEntry {
                name: $name,
                summary: $summary,
                params: &[$($table),*],
                build: |params| AnyFetch::$variant(
                    <$ty as $crate::fetch_policy::BuildFetch>::build(params),
                ),
            }, )+
        ];
    };
}
pub(crate) use fetch_registry;

/// A registered fetch policy: its index in [`FETCH`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct FetchKind(u8);

impl FetchKind {
    /// `rr`, the first entry of [`FETCH`] and the default.
    pub const RR: FetchKind = FetchKind(0);

    /// A name of [`FETCH`]; the error lists the valid ones.
    pub fn from_name(name: &str) -> Result<FetchKind, crate::TimingError> {
        FETCH
            .iter()
            .position(|e| e.name == name)
            .map(|i| FetchKind(i as u8))
            .ok_or_else(|| crate::TimingError::UnknownFetch {
                name: name.to_string(),
                valid: FETCH.iter().map(|e| e.name.to_string()).collect(),
            })
    }

    /// Its entry in [`FETCH`].
    pub fn entry(&self) -> &'static crate::policy::FetchEntry {
        &FETCH[self.0 as usize]
    }

    /// Its name in [`FETCH`].
    pub fn name(&self) -> &'static str {
        self.entry().name
    }
}

impl AnyFetch {
    /// The policy `kind` names, built from the configuration's `[policy]` tables.
    pub fn new(kind: FetchKind, params: &PolicyParams) -> AnyFetch {
        (kind.entry().build)(params)
    }
}
