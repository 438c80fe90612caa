//! Issue policies: each writes one scheduler's priority order of warp slots into a
//! caller-provided buffer every cycle. Chosen once by name ([`PolicyKind::from_name`]); the
//! cycle loop dispatches through the [`Policy`] enum (static dispatch, no `dyn`).

mod gto;
mod lrr;
mod oldest;
mod tls;

pub use gto::Gto;
pub use lrr::Lrr;
pub use oldest::Oldest;
pub use tls::Tls;

/// Read-only view of the SM's warp slots a policy may look at (indexed by SM warp slot).
pub struct PolicyView<'a> {
    /// The slot holds a warp of a resident CTA.
    pub occupied: &'a [bool],
    /// Dynamic id: smaller is older.
    pub age: &'a [u64],
    /// At a barrier or finished (waiting for its CTA to exit).
    pub waiting: &'a [bool],
    /// Its next instruction depends on an outstanding global/local load (filled only when
    /// [`Policy::needs_long_dep`]).
    pub long_dep: &'a [bool],
}

/// The interface every issue policy implements.
pub trait IssuePolicy {
    /// Writes the priority order of this scheduler's `slots` into `out` (cleared first).
    fn order(&mut self, slots: &[u16], v: &PolicyView, out: &mut Vec<u16>);
    /// `slot` issued an instruction this cycle.
    fn issued(&mut self, slot: u16);
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

    /// A fresh policy instance for one scheduler owning `slots` of an SM with `sm_slots` slots.
    pub fn build(&self, slots: &[u16], sm_slots: usize) -> Policy {
        match *self {
            PolicyKind::Lrr => Policy::Lrr(Lrr::default()),
            PolicyKind::Gto => Policy::Gto(Gto::default()),
            PolicyKind::Oldest => Policy::Oldest(Oldest),
            PolicyKind::Tls(n) => Policy::Tls(Tls::new(n as usize, slots.len(), sm_slots)),
        }
    }
}

/// A policy instance (enum dispatch).
pub enum Policy {
    Lrr(Lrr),
    Gto(Gto),
    Oldest(Oldest),
    Tls(Tls),
}

impl Policy {
    #[inline]
    pub fn needs_long_dep(&self) -> bool {
        matches!(self, Policy::Tls(_))
    }

    #[inline]
    pub fn order(&mut self, slots: &[u16], v: &PolicyView, out: &mut Vec<u16>) {
        match self {
            Policy::Lrr(p) => p.order(slots, v, out),
            Policy::Gto(p) => p.order(slots, v, out),
            Policy::Oldest(p) => p.order(slots, v, out),
            Policy::Tls(p) => p.order(slots, v, out),
        }
    }

    #[inline]
    pub fn issued(&mut self, slot: u16) {
        match self {
            Policy::Lrr(p) => p.issued(slot),
            Policy::Gto(p) => p.issued(slot),
            Policy::Oldest(p) => p.issued(slot),
            Policy::Tls(p) => p.issued(slot),
        }
    }
}

/// Appends the occupied slots of `slots` in round-robin order starting after `last` (or from
/// the first slot when `last` is not among them).
pub(crate) fn rotate_after(slots: &[u16], last: Option<u16>, v: &PolicyView, out: &mut Vec<u16>) {
    let start = last
        .and_then(|l| slots.iter().position(|&s| s == l))
        .map_or(0, |i| i + 1);
    for i in 0..slots.len() {
        let s = slots[(start + i) % slots.len()];
        if v.occupied[s as usize] {
            out.push(s);
        }
    }
}
