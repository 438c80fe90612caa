//! `[policy.NAME]`: the parameters of the scheduling policies. Each table is one typed struct
//! declared here with its defaults (`Default`) and its ranges ([`PolicyTable::ranges`]) beside
//! it, and nowhere else: presets do not repeat them (a file may give any subset of a table's
//! keys), the policy registry names a policy's table by [`PolicyTable::TABLE`], and a resolved
//! configuration (`config.toml` beside every result) lists every key with its value.
//!
//! Adding a table: its struct and `impl PolicyTable` here, one field of [`PolicyParams`], and
//! one line in [`PolicyParams::integer_keys`] and [`PolicyParams::check`].

use serde::{Deserialize, Serialize};

use super::{ConfigError, GpuConfig};

/// One `[policy.NAME]` table.
pub trait PolicyTable: Default + Serialize {
    /// `NAME` in `[policy.NAME]`.
    const TABLE: &'static str;

    /// (key, value, min, max) of every integer key: checked with every other key's range (a
    /// value outside is an error naming the key, the value and the range; never clamped).
    fn ranges(&self) -> Vec<(&'static str, u64, u64, u64)> {
        Vec::new()
    }

    /// Relations to the rest of the configuration (after every range has passed).
    fn check(&self, _c: &GpuConfig) -> Result<(), ConfigError> {
        Ok(())
    }
}

/// `[policy]`: one table per policy that has parameters (`warpsim list policies` names which
/// policy reads which key).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PolicyParams {
    #[serde(default)]
    pub mwf: MwfParams,
    #[serde(default)]
    pub cff: CffParams,
    #[serde(default)]
    pub tls: TlsParams,
    #[serde(default)]
    pub pro: ProParams,
    #[serde(default)]
    pub motrr: MotrrParams,
}

impl PolicyParams {
    /// Every table's integer keys with their ranges.
    pub fn integer_keys(&self) -> Vec<(&'static str, u64, u64, u64)> {
        let mut k = self.mwf.ranges();
        k.extend(self.cff.ranges());
        k.extend(self.tls.ranges());
        k.extend(self.pro.ranges());
        k.extend(self.motrr.ranges());
        k
    }

    /// Every table's relations to the rest of the configuration.
    pub fn check(&self, c: &GpuConfig) -> Result<(), ConfigError> {
        self.mwf.check(c)?;
        self.cff.check(c)?;
        self.tls.check(c)?;
        self.pro.check(c)?;
        self.motrr.check(c)
    }

    /// The defaults as a TOML table (`{ mwf = {…}, cff = {…}, … }`): what the key checker
    /// accepts under `policy`, since presets do not list these keys.
    pub fn default_table() -> toml::Table {
        toml::Table::try_from(PolicyParams::default()).expect("policy defaults serialize")
    }

    /// The dotted keys of table `table` (`policy.tls.active`), in the order a resolved
    /// configuration writes them (the struct's); empty when there is no such table.
    pub fn keys(table: &str) -> Vec<String> {
        // Read from the serialized text: a `toml::Table` would sort the keys.
        let text = toml::to_string(&PolicyParams::default()).expect("policy defaults serialize");
        let mut inside = false;
        let mut keys = Vec::new();
        for line in text.lines().map(str::trim) {
            if let Some(name) = line.strip_prefix('[').and_then(|l| l.strip_suffix(']')) {
                inside = name == table;
            } else if let (true, Some((key, _))) = (inside, line.split_once('=')) {
                keys.push(format!("policy.{table}.{}", key.trim()));
            }
        }
        keys
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_come_in_the_structs_order() {
        assert_eq!(
            PolicyParams::keys("cff"),
            ["policy.cff.merge", "policy.cff.eligibility"]
        );
        assert_eq!(
            PolicyParams::keys("tls"),
            ["policy.tls.active", "policy.tls.long_marks"]
        );
        assert!(PolicyParams::keys("nope").is_empty());
        let every: usize = PolicyParams::default_table()
            .keys()
            .map(|t| PolicyParams::keys(t).len())
            .sum();
        assert_eq!(every, 7);
    }
}

/// `[policy.mwf]`: most-waiting-first (BAWS).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct MwfParams {
    /// A finished warp waiting for its CTA to exit counts as waiting at the CTA's implicit
    /// exit barrier (the BAWS paper treats the exit point as a barrier).
    pub count_exited_warps: bool,
}

impl Default for MwfParams {
    fn default() -> Self {
        MwfParams {
            count_exited_warps: true,
        }
    }
}

impl PolicyTable for MwfParams {
    const TABLE: &'static str = "mwf";
}

/// `[policy.cff]`: critical-fetch-first (BAWS).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct CffParams {
    /// How the schedulers' issue orders merge into one fetch order.
    pub merge: CffMerge,
    /// Which warps may be fetched for: CFF only chooses among them.
    pub eligibility: FetchEligibility,
}

impl PolicyTable for CffParams {
    const TABLE: &'static str = "cff";
}

/// Which warps the fetch stage may fetch for (besides being resident, not finished and not
/// waiting on an I-cache miss). The BAWS paper (§2.2) states one rule, "if it does not have any
/// valid instructions within its I-Buffer slots", and GPGPU-Sim fetches only when
/// `ibuffer_empty()`: that is `empty`. The others are readings kept for sensitivity studies.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum FetchEligibility {
    /// The I-buffer is empty (§2.2, GPGPU-Sim).
    #[default]
    Empty,
    /// The I-buffer's free entries take a whole fetch block (`sm.fetch_bytes / 8`
    /// instructions): with a 2-entry buffer the same as `empty`; with 4 entries fetch may run
    /// one block ahead (our reading of the paper's §6.4 4-entry result).
    Block,
    /// Any free entry (a top-up fetch may bring one instruction). Not the paper's rule.
    Partial,
}

impl FetchEligibility {
    /// The name a config file uses.
    pub fn name(self) -> &'static str {
        match self {
            FetchEligibility::Empty => "empty",
            FetchEligibility::Block => "block",
            FetchEligibility::Partial => "partial",
        }
    }
}

/// How critical-fetch-first merges the issue orders of an SM's schedulers.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum CffMerge {
    /// Each fetch serves the schedulers in turn: the most urgent eligible warp of the next
    /// scheduler's order (the next one after that when it has none).
    #[default]
    RoundRobin,
    /// By rank: every scheduler's first warp, then every scheduler's second, … (scheduler 0
    /// first within a rank); the first eligible one is fetched.
    Rank,
}

/// `[policy.tls]`: two-level scheduling.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct TlsParams {
    /// Warps in each scheduler's active set (`--policy tls:N` sets it too).
    pub active: u32,
    /// Which warps count as waiting on a long-latency operation (demoted).
    pub long_marks: LongMarks,
}

impl Default for TlsParams {
    fn default() -> Self {
        TlsParams {
            active: 6,
            long_marks: LongMarks::default(),
        }
    }
}

/// When two-level scheduling demotes a warp for a long-latency dependence: its next
/// instruction reads, through an input operand, a register that a global, local, parameter or
/// texture load (or an atomic) wrote.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum LongMarks {
    /// GPGPU-Sim's rule (`Scoreboard::islongop`): a register stays marked after the load's
    /// data is back, until a later result that is not such a load is written to it, and for
    /// the next warps in the slot; a constant-cache hit clears the mark.
    #[default]
    Sticky,
    /// Only while the load is outstanding (what the two-level papers describe).
    Pending,
}

impl LongMarks {
    /// The name a config file uses.
    pub fn name(self) -> &'static str {
        match self {
            LongMarks::Sticky => "sticky",
            LongMarks::Pending => "pending",
        }
    }
}

impl PolicyTable for TlsParams {
    const TABLE: &'static str = "tls";

    fn ranges(&self) -> Vec<(&'static str, u64, u64, u64)> {
        vec![("policy.tls.active", self.active as u64, 1, 64)]
    }

    fn check(&self, c: &GpuConfig) -> Result<(), ConfigError> {
        if self.active > c.sm.max_warps {
            return Err(ConfigError::Invalid {
                key: "policy.tls.active".into(),
                why: format!(
                    "must be between 1 and sm.max_warps = {}, got {}",
                    c.sm.max_warps, self.active
                ),
            });
        }
        Ok(())
    }
}

/// `[policy.pro]`: progress-aware scheduling (PRO).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct ProParams {
    /// Cycles between re-sorts of the CTAs in `noWait` / `finishNoWait` by progress (the
    /// paper's THRESHOLD, 1000 in its experiments).
    pub threshold: u64,
}

impl Default for ProParams {
    fn default() -> Self {
        ProParams { threshold: 1000 }
    }
}

impl PolicyTable for ProParams {
    const TABLE: &'static str = "pro";

    fn ranges(&self) -> Vec<(&'static str, u64, u64, u64)> {
        // A re-sort period longer than any launch we run is almost certainly a typo.
        vec![("policy.pro.threshold", self.threshold, 1, 1_000_000_000)]
    }
}

/// `[policy.motrr]`: memory-first scheduling with recency (MOTRR, paper 004).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct MotrrParams {
    /// Width of each warp's recency counter (the paper's 6-bit counters): it saturates at
    /// 2^bits - 1, after which warps that completed no memory instruction for that long tie.
    pub recency_bits: u32,
}

impl Default for MotrrParams {
    fn default() -> Self {
        MotrrParams { recency_bits: 6 }
    }
}

impl PolicyTable for MotrrParams {
    const TABLE: &'static str = "motrr";

    fn ranges(&self) -> Vec<(&'static str, u64, u64, u64)> {
        vec![("policy.motrr.recency_bits", self.recency_bits as u64, 1, 16)]
    }
}
