//! What a scheduler whose walk issued nothing may do until one of its warps changes state
//! ([`super::IssuePolicy::settled`]): walk again next cycle, or sleep and charge the skipped
//! walks' issue-slot outcomes without walking.

/// The answer of [`super::IssuePolicy::settled`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Settled {
    /// Walk again next cycle.
    No,
    /// Sleep: every skipped walk has this walk's outcome.
    Same,
    /// Sleep: every skipped walk has this walk's outcome but for whether it meets a warp
    /// blocked on data (`Block::Data`, the scoreboard outcome against idle), which follows
    /// the pattern. Two-level's rotation puts other warps in the active set each cycle.
    DataWhen(DataPattern),
}

/// A repeating sequence of cycles in which a scheduler's walk meets a warp blocked on data:
/// cycle `c >= first` does when bit `(c - first) % period` of `bits` is set.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DataPattern {
    pub first: u64,
    pub bits: u64,
    /// 1 to 64.
    pub period: u32,
}

/// The low `n` bits (`n` up to 64).
#[inline]
pub(super) fn low_bits(n: u32) -> u64 {
    if n >= 64 {
        u64::MAX
    } else {
        (1 << n) - 1
    }
}

impl DataPattern {
    /// Whether the walk of cycle `c` (at least `first`) meets a warp blocked on data.
    pub fn at(&self, c: u64) -> bool {
        debug_assert!(c >= self.first);
        self.bits >> ((c - self.first) % self.period as u64) & 1 != 0
    }

    /// How many of the cycles `from .. to` (all at least `first`) meet a warp blocked on data.
    pub fn count(&self, from: u64, to: u64) -> u64 {
        debug_assert!(from >= self.first && (1..=64).contains(&self.period));
        let period = self.period as u64;
        let bits = self.bits & low_bits(self.period);
        let n = to.saturating_sub(from);
        let (whole, rest) = (n / period, (n % period) as u32);
        let phase = ((from - self.first) % period) as u32;
        // The `rest` cycles after the whole periods start at `phase` and may wrap around.
        let head = rest.min(self.period - phase);
        let tail = rest - head;
        let partial =
            (bits >> phase & low_bits(head)).count_ones() + (bits & low_bits(tail)).count_ones();
        whole * bits.count_ones() as u64 + partial as u64
    }
}
