//! Fetch policies: which warps the fetch stage fills this cycle. A fetch policy sees the same
//! [`PolicyView`] as issue policies and can read every scheduler's current issue order through
//! [`IssueOrders`] (what critical-fetch-first needs). Static dispatch: the SM is generic over
//! the fetch policy type.

use crate::policy::{IssueOrders, IssuePolicy, PolicyView};
use warpsim_core::exec::warp::WarpState;

/// The interface every fetch policy implements.
pub trait FetchPolicy {
    /// A warp is eligible when its I-buffer has a free entry (`true`), or only when it is empty
    /// (`false`, GPGPU-Sim's baseline rule).
    const PARTIAL: bool = false;

    /// Appends up to `budget` eligible warp slots (see [`eligible`]) to `out`, most urgent first.
    fn pick<P: IssuePolicy>(
        &mut self,
        v: &PolicyView,
        orders: &IssueOrders<'_, P>,
        budget: usize,
        out: &mut Vec<u16>,
    );
}

/// Whether slot `s` may be fetched for under the policy's eligibility rule: resident, not
/// finished, no I-cache miss pending, and an empty I-buffer (or, with `partial`, one with a
/// free entry).
#[inline]
pub fn eligible(v: &PolicyView, s: usize, partial: bool) -> bool {
    let w = v.warps;
    w.occupied[s]
        && w.state[s] != WarpState::Done
        && w.fetch_wait[s] <= v.now
        && (w.ib_n[s] == 0 || (partial && w.ib_n[s] < v.ib_depth))
}

/// Fetch policy names, for configuration and the CLI.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum FetchKind {
    /// Round robin over warps with an empty I-buffer.
    #[default]
    Rr,
}

impl FetchKind {
    pub const NAMES: &'static [&'static str] = &["rr"];

    pub fn from_name(name: &str) -> Result<FetchKind, crate::TimingError> {
        match name {
            "rr" => Ok(FetchKind::Rr),
            _ => Err(crate::TimingError::UnknownPolicy {
                name: name.to_string(),
                valid: Self::NAMES.iter().map(|s| s.to_string()).collect(),
            }),
        }
    }

    pub fn name(&self) -> &'static str {
        match self {
            FetchKind::Rr => "rr",
        }
    }
}

/// `rr`: round robin over the SM's warp slots whose I-buffer is empty, starting after the
/// last slot fetched (GPGPU-Sim's baseline).
#[derive(Clone, Debug, Default)]
pub struct RoundRobin {
    next: usize,
}

impl FetchPolicy for RoundRobin {
    fn pick<P: IssuePolicy>(
        &mut self,
        v: &PolicyView,
        _orders: &IssueOrders<'_, P>,
        budget: usize,
        out: &mut Vec<u16>,
    ) {
        let n = v.warps.len();
        let (start, mut left) = (self.next, budget);
        for i in 0..n {
            if left == 0 {
                break;
            }
            let s = (start + i) % n;
            if eligible(v, s, Self::PARTIAL) {
                out.push(s as u16);
                left -= 1;
                self.next = (s + 1) % n;
            }
        }
    }
}
