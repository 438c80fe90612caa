//! The scheduler registry: one table of issue policies ([`ISSUE`]) and one of fetch policies
//! ([`FETCH`]). Everything that names a policy reads them: `--policy` / `--fetch`, `warpsim
//! list policies`, the CUDA shim's `WARPSIM_POLICY` / `WARPSIM_FETCH`, the statistics' labels,
//! and every test that runs "every policy". Adding an issue policy is its file plus one line in
//! [`ISSUE`].
//!
//! Warp sharing (KAWS) is not a policy of its own but a switch on any of them: the `+ws`
//! suffix (`gto+ws`, `mwf-gto+cff+ws`) turns it on for the issue policy named; the SM's
//! share stage then lets a scheduler that issued nothing issue another scheduler's ready warp
//! whose port was busy (`sm/share.rs`), the policy's [`IssuePolicy::pick_shared`] choosing
//! which. An entry can also be defined *with* sharing ([`run_sharing`]: `kaws-ws` is `gto`
//! with it, under the paper's name). It is a run-time flag of the one cycle loop compiled per
//! issue policy, so `+ws` costs no extra code per policy.
//!
//! Static dispatch: an issue entry holds its own monomorphised run function
//! ([`run_registered`]), so the cycle loop is compiled once per issue policy; the fetch policy
//! is an enum ([`AnyFetch`]) matched once per SM-cycle, so issue × fetch pairs are not compiled
//! separately.

use super::{
    Build, Gto, IssuePolicy, KernelAware, Lrr, Motrr, MotrrRecency, Mto, MwfGto, MwfLrr, Oldest,
    Pro, Saws, Tls,
};
use crate::fetch_policy::{fetch_registry, Cff, Fef, FetchKind, RoundRobin};
use crate::gpu::{run_loop, Launch, TimingOptions};
use crate::mem::MemSystem;
use crate::{TimingError, TimingStats};
use warpsim_core::config::{
    CffParams, GpuConfig, MotrrParams, MwfParams, PolicyParams, PolicyTable, ProParams, TlsParams,
};

/// Runs one launch under an issue policy (the entry's monomorphised cycle loop).
pub type RunFn =
    fn(&mut MemSystem, Launch, &GpuConfig, &TimingOptions) -> Result<TimingStats, TimingError>;

/// One issue policy of the registry.
pub struct IssueEntry {
    /// The name `--policy` takes.
    pub name: &'static str,
    /// One line for `warpsim list policies`.
    pub summary: &'static str,
    /// The `[policy.NAME]` tables it reads ([`PolicyParams::keys`] lists their keys).
    pub params: &'static [&'static str],
    pub run: RunFn,
}

/// One fetch policy of the registry (declared by `fetch_registry!`).
pub struct FetchEntry {
    pub name: &'static str,
    pub summary: &'static str,
    /// The `[policy.NAME]` tables it reads.
    pub params: &'static [&'static str],
    /// The policy, built from the configuration's `[policy]` tables.
    pub build: fn(&PolicyParams) -> AnyFetch,
}

/// The issue policies. The first four are the papers' baselines.
pub const ISSUE: &[IssueEntry] = &[
    IssueEntry {
        name: "lrr",
        summary: "loose round robin: start after the warp that issued last",
        params: &[],
        run: run_registered::<Lrr>,
    },
    IssueEntry {
        name: "gto",
        summary: "greedy then oldest: keep issuing the last warp, else the oldest (default)",
        params: &[],
        run: run_registered::<Gto>,
    },
    IssueEntry {
        name: "oldest",
        summary: "strictly oldest first",
        params: &[],
        run: run_registered::<Oldest>,
    },
    IssueEntry {
        name: "tls",
        summary: "two-level: an LRR active set per scheduler, demoted on barriers and long-latency dependences (`tls:N` sets the size)",
        params: &[TlsParams::TABLE],
        run: run_registered::<Tls>,
    },
    IssueEntry {
        name: "mwf-lrr",
        summary: "BAWS most-waiting-first: CTAs with more warps at a barrier (or exited) first, then older; LRR inside a CTA",
        params: &[MwfParams::TABLE],
        run: run_registered::<MwfLrr>,
    },
    IssueEntry {
        name: "mwf-gto",
        summary: "BAWS most-waiting-first with greedy-then-oldest inside a CTA",
        params: &[MwfParams::TABLE],
        run: run_registered::<MwfGto>,
    },
    IssueEntry {
        name: "saws",
        summary: "SAWS: CTAs by the cycle their first warp reached the current barrier, then by age; GTO inside a CTA",
        params: &[],
        run: run_registered::<Saws>,
    },
    IssueEntry {
        name: "pro",
        summary: "PRO progress-aware: finishWait > barrierWait > noWait CTAs (slow phase: barrierWait1 > finishNoWait, less progress first), re-sorted every policy.pro.threshold cycles",
        params: &[ProParams::TABLE],
        run: run_registered::<Pro>,
    },
    IssueEntry {
        name: "mto",
        summary: "MOTRR paper's memory-then-oldest: warps whose next instruction is a load/store oldest first, then the rest oldest first",
        params: &[],
        run: run_registered::<Mto>,
    },
    IssueEntry {
        name: "motrr",
        summary: "MOTRR memory-oldest-then-round-robin: load/store warps oldest first, then the rest LRR",
        params: &[],
        run: run_registered::<Motrr>,
    },
    IssueEntry {
        name: "motrr-recency",
        summary: "MOTRR+Recency: as motrr, compute warps whose memory instructions completed recently (W_active/2 most recent, policy.motrr.recency_bits counters) first",
        params: &[MotrrParams::TABLE],
        run: run_registered::<MotrrRecency>,
    },
    IssueEntry {
        name: "kaws-ka",
        summary: "KAWS kernel-aware: oldest warp first until the kernel's last CTA is dispatched, then CTAs by warp instructions issued (least first), oldest warp inside",
        params: &[],
        run: run_registered::<KernelAware>,
    },
    IssueEntry {
        name: "kaws-ws",
        summary: "KAWS warp sharing alone: gto+ws (a scheduler that issued nothing issues another's ready warp whose port is busy, oldest first)",
        params: &[],
        run: run_sharing::<Gto>,
    },
    IssueEntry {
        name: "kaws",
        summary: "KAWS: kaws-ka with warp sharing (kaws-ka+ws)",
        params: &[],
        run: run_sharing::<KernelAware>,
    },
];

/// The suffix that turns warp sharing on for any issue policy (`gto+ws`).
pub const SHARE_SUFFIX: &str = "ws";

fetch_registry! {
    /// Round robin over warps with an empty I-buffer (GPGPU-Sim's fetch).
    Rr(RoundRobin) "rr", [],
        "round robin over warps with an empty I-buffer and no I-cache miss pending (GPGPU-Sim; default)";
    /// Critical fetch first (BAWS).
    Cff(Cff) "cff", [CffParams::TABLE],
        "BAWS critical-fetch-first: the first eligible warp (empty I-buffer, as rr) in the issue policy's order";
    /// Fewest entries first (BAWS §6.2's comparison).
    Fef(Fef) "fef", [],
        "fewest-entries-first: the warp with the fewest valid I-buffer entries (partial rule: any free entry), ties oldest";
}

/// The cycle loop of issue policy `P`, with the fetch policy the options name; warp sharing
/// when the name had `+ws`.
pub fn run_registered<P: IssuePolicy + Build>(
    mem: &mut MemSystem,
    launch: Launch,
    cfg: &GpuConfig,
    opts: &TimingOptions,
) -> Result<TimingStats, TimingError> {
    run_entry::<P>(mem, launch, cfg, opts, opts.policy.shares())
}

/// [`run_registered`] with warp sharing always on: an entry that is a policy plus sharing
/// (`kaws-ws` = `gto+ws`). The same cycle loop as `P`'s own entry (no second copy).
pub fn run_sharing<P: IssuePolicy + Build>(
    mem: &mut MemSystem,
    launch: Launch,
    cfg: &GpuConfig,
    opts: &TimingOptions,
) -> Result<TimingStats, TimingError> {
    run_entry::<P>(mem, launch, cfg, opts, true)
}

/// The one instantiation of the cycle loop per issue policy (its closures are defined here
/// only, so [`run_registered`] and [`run_sharing`] share it).
fn run_entry<P: IssuePolicy + Build>(
    mem: &mut MemSystem,
    launch: Launch,
    cfg: &GpuConfig,
    opts: &TimingOptions,
    share: bool,
) -> Result<TimingStats, TimingError> {
    let fetch = opts.policy.fetch;
    run_loop(
        mem,
        launch,
        cfg,
        opts,
        share,
        |b| P::build(b),
        || AnyFetch::new(fetch, &cfg.policy),
    )
}

/// A scheduler: an issue policy of [`ISSUE`] and a fetch policy of [`FETCH`]. Its parameters
/// live in the configuration's `[policy]` table.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct PolicyKind {
    issue: u8,
    pub fetch: FetchKind,
    /// `+ws`: warp sharing on top of the issue policy.
    share: bool,
}

impl PolicyKind {
    /// `lrr` with `rr` fetch.
    pub const LRR: PolicyKind = PolicyKind {
        issue: 0,
        fetch: FetchKind::RR,
        share: false,
    };
    /// `gto` with `rr` fetch (the default).
    pub const GTO: PolicyKind = PolicyKind {
        issue: 1,
        fetch: FetchKind::RR,
        share: false,
    };

    /// Every issue policy with fetch `rr`, in registry order.
    pub fn all_issue() -> impl Iterator<Item = PolicyKind> {
        (0..ISSUE.len()).map(|i| PolicyKind {
            issue: i as u8,
            fetch: FetchKind::RR,
            share: false,
        })
    }

    /// `ISSUE[+FETCH][+ws]`: a registered issue policy, optionally with a fetch policy after
    /// `+` (`mwf-gto+cff`; `rr` when none is given) and warp sharing (`+ws`, in either place
    /// after the issue name). The error lists the valid names.
    pub fn from_name(name: &str) -> Result<PolicyKind, TimingError> {
        let mut parts = name.split('+');
        let issue = parts.next().unwrap_or_default();
        let i = ISSUE
            .iter()
            .position(|e| e.name == issue)
            .ok_or_else(|| unknown(issue, name))?;
        let (mut fetch, mut share) = (None, false);
        for p in parts {
            let twice = |what: &str| TimingError::BadPolicyParameter {
                name: name.to_string(),
                why: format!("{what} is given twice"),
            };
            if p == SHARE_SUFFIX {
                if share {
                    return Err(twice("`+ws` (warp sharing)"));
                }
                share = true;
            } else if fetch.replace(FetchKind::from_name(p)?).is_some() {
                return Err(twice("a fetch policy"));
            }
        }
        Ok(PolicyKind {
            issue: i as u8,
            fetch: fetch.unwrap_or(FetchKind::RR),
            share,
        })
    }

    /// `name` (as [`PolicyKind::from_name`] takes it) names a fetch policy (`mwf-gto+cff`,
    /// `gto+cff+ws`; not `gto+ws`).
    pub fn names_fetch(name: &str) -> bool {
        name.split('+').skip(1).any(|p| p != SHARE_SUFFIX)
    }

    /// Warp sharing was asked for with `+ws` (entries defined with sharing, `kaws-ws` and
    /// `kaws`, share without it).
    pub fn shares(&self) -> bool {
        self.share
    }

    /// This policy with warp sharing on or off.
    pub fn with_sharing(self, share: bool) -> PolicyKind {
        PolicyKind { share, ..self }
    }

    /// What a user typed: [`PolicyKind::from_name`], plus the `tls:N` shorthand (also
    /// `tls:N+FETCH`), which returns the config override it stands for
    /// (`policy.tls.active=N`) beside the policy.
    pub fn parse(name: &str) -> Result<(PolicyKind, Option<String>), TimingError> {
        let (issue, rest) = match name.split_once('+') {
            Some((i, f)) => (i, format!("+{f}")),
            None => (name, String::new()),
        };
        if let Some(n) = issue.strip_prefix("tls:") {
            return match n.parse::<u32>() {
                Ok(n) if n > 0 => Ok((
                    PolicyKind::from_name(&format!("tls{rest}"))?,
                    Some(format!("policy.tls.active={n}")),
                )),
                _ => Err(TimingError::BadPolicyParameter {
                    name: name.to_string(),
                    why: format!("`tls:N` needs a positive active-set size N, got `{n}`"),
                }),
            };
        }
        Ok((PolicyKind::from_name(name)?, None))
    }

    /// This policy with fetch policy `fetch` (`--fetch`): an error when the name already
    /// carried a different one (`--policy mwf-gto+cff --fetch fef`).
    pub fn with_fetch(
        self,
        fetch: &str,
        named_with_fetch: bool,
    ) -> Result<PolicyKind, TimingError> {
        let f = FetchKind::from_name(fetch)?;
        if named_with_fetch && f != self.fetch {
            return Err(TimingError::BadPolicyParameter {
                name: self.name(),
                why: format!(
                    "the policy name already selects fetch `{}`; `--fetch {fetch}` contradicts it",
                    self.fetch.name()
                ),
            });
        }
        Ok(PolicyKind { fetch: f, ..self })
    }

    /// The issue policy's registry entry.
    pub fn issue(&self) -> &'static IssueEntry {
        &ISSUE[self.issue as usize]
    }

    /// The issue policy's name.
    pub fn issue_name(&self) -> &'static str {
        self.issue().name
    }

    /// The issue policy's name, with `+ws` when sharing was asked for: what the statistics'
    /// `policy` field holds.
    pub fn issue_label(&self) -> String {
        match self.share {
            false => self.issue_name().to_string(),
            true => format!("{}+{SHARE_SUFFIX}", self.issue_name()),
        }
    }

    /// The combined name: `gto`, `mwf-gto+cff` when the fetch policy is not `rr`, then `+ws`
    /// with warp sharing (`gto+cff+ws`).
    pub fn name(&self) -> String {
        let mut n = self.issue_name().to_string();
        if self.fetch != FetchKind::RR {
            n = format!("{n}+{}", self.fetch.name());
        }
        if self.share {
            n = format!("{n}+{SHARE_SUFFIX}");
        }
        n
    }
}

impl Default for PolicyKind {
    fn default() -> Self {
        PolicyKind::GTO
    }
}

fn unknown(issue: &str, name: &str) -> TimingError {
    TimingError::UnknownPolicy {
        name: if issue.is_empty() {
            name.to_string()
        } else {
            issue.to_string()
        },
        issue: ISSUE.iter().map(|e| e.name.to_string()).collect(),
        fetch: FETCH.iter().map(|e| e.name.to_string()).collect(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_named_constants_point_at_their_entries() {
        assert_eq!(PolicyKind::LRR.name(), "lrr");
        assert_eq!(PolicyKind::GTO.name(), "gto");
    }

    /// Every `[policy.NAME]` table an entry names exists and has keys (so `warpsim list
    /// policies` shows them), and every table is read by some entry.
    #[test]
    fn every_parameter_table_named_exists_and_is_read() {
        let named: Vec<&str> = ISSUE
            .iter()
            .flat_map(|e| e.params)
            .chain(FETCH.iter().flat_map(|e| e.params))
            .copied()
            .collect();
        for t in &named {
            assert!(!PolicyParams::keys(t).is_empty(), "`{t}` has no keys");
        }
        for t in PolicyParams::default_table().keys() {
            assert!(named.contains(&t.as_str()), "no policy reads [policy.{t}]");
        }
    }

    #[test]
    fn names_are_unique_and_round_trip() {
        for (i, e) in ISSUE.iter().enumerate() {
            assert!(ISSUE[..i].iter().all(|o| o.name != e.name), "{}", e.name);
            assert!(!e.name.contains(['+', ':']), "{}", e.name);
            for f in FETCH {
                let p = PolicyKind::from_name(&format!("{}+{}", e.name, f.name)).unwrap();
                assert_eq!(PolicyKind::from_name(&p.name()).unwrap(), p);
                assert_eq!((p.issue_name(), p.fetch.name()), (e.name, f.name));
                assert!(!p.shares());
                let ws = PolicyKind::from_name(&format!("{}+{}+ws", e.name, f.name)).unwrap();
                assert_eq!(ws, p.with_sharing(true));
                assert_eq!(PolicyKind::from_name(&ws.name()).unwrap(), ws);
                let ws_first = format!("{}+ws+{}", e.name, f.name);
                assert_eq!(PolicyKind::from_name(&ws_first).unwrap(), ws);
            }
        }
        for (i, f) in FETCH.iter().enumerate() {
            assert!(FETCH[..i].iter().all(|o| o.name != f.name), "{}", f.name);
            assert_ne!(f.name, SHARE_SUFFIX);
            let kind = FetchKind::from_name(f.name).unwrap();
            assert_eq!((kind.name(), kind.entry().params), (f.name, f.params));
        }
    }

    #[test]
    fn the_ws_suffix_switches_sharing_on_and_is_checked() {
        let p = PolicyKind::from_name("gto+ws").unwrap();
        assert!(p.shares());
        assert_eq!(
            (p.name(), p.issue_label()),
            ("gto+ws".into(), "gto+ws".into())
        );
        assert!(!PolicyKind::names_fetch("gto+ws"));
        assert!(PolicyKind::names_fetch("gto+cff+ws"));
        assert!(!PolicyKind::from_name("kaws").unwrap().shares());
        for bad in ["gto+ws+ws", "gto+cff+fef", "gto+cff+ws+rr"] {
            assert!(PolicyKind::from_name(bad).is_err(), "{bad}");
        }
        assert!(PolicyKind::from_name("ws").is_err());
    }
}
