//! mbarrier objects (sm_80+: `cuda::barrier`, `cuda::pipeline`, cooperative groups'
//! `memcpy_async`): the 64-bit word in shared memory that `mbarrier.*` instructions update,
//! each as one read-modify-write on the atomics' path (`mem_ops::atom`, lanes in order).
//!
//! PTX leaves the object's layout opaque; warpsim's is bits 0–20 the pending arrivals of the
//! current phase, bits 21–41 the expected arrivals per phase, bits 42–63 the phase number. An
//! arrival that brings the pending count to zero completes the phase: the phase number grows
//! by one and the pending count is reset to the expected count. `arrive` returns the word as
//! it was (the *state* token); a phase has completed for a token when the phase number differs.
//! `try_wait` never suspends the thread: it returns at once, as after a time limit of zero,
//! which the PTX ISA allows (the compiled code loops until it returns true).

const COUNT_BITS: u32 = 21;
const COUNT_MASK: u64 = (1 << COUNT_BITS) - 1;
const PHASE_SHIFT: u32 = 2 * COUNT_BITS;

fn pending(s: u64) -> u64 {
    s & COUNT_MASK
}

fn expected(s: u64) -> u64 {
    (s >> COUNT_BITS) & COUNT_MASK
}

fn phase(s: u64) -> u64 {
    s >> PHASE_SHIFT
}

fn pack(pending: u64, expected: u64, phase: u64) -> u64 {
    (phase << PHASE_SHIFT) | (expected << COUNT_BITS) | pending
}

/// `mbarrier.init [a], count`: phase 0, `count` arrivals expected and pending.
pub fn init(count: u64) -> u64 {
    let c = count & COUNT_MASK;
    pack(c, c, 0)
}

/// `mbarrier.arrive [a]{, count}`: the word after `count` arrivals (0 = an absent count = 1).
pub fn arrive(s: u64, count: u64) -> u64 {
    let n = count.clamp(1, COUNT_MASK);
    let left = pending(s).saturating_sub(n);
    if left == 0 {
        let next = (phase(s) + 1) & (u64::MAX >> PHASE_SHIFT);
        pack(expected(s), expected(s), next)
    } else {
        pack(left, expected(s), phase(s))
    }
}

/// `mbarrier.{test,try}_wait [a], state`: whether the phase `state` was taken in has completed.
pub fn completed(s: u64, state: u64) -> bool {
    phase(s) != phase(state)
}

/// `mbarrier.{test,try}_wait.parity [a], parity`: whether the phase of parity `parity` (the
/// current one or the one before) has completed, i.e. the current phase has the other parity.
pub fn parity_completed(s: u64, parity: u64) -> bool {
    phase(s) & 1 != parity & 1
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn phases_complete_when_every_expected_arrival_is_in() {
        let s0 = init(3);
        let s1 = arrive(s0, 0);
        assert!(!completed(s1, s0) && !parity_completed(s1, 0));
        let s2 = arrive(s1, 2);
        assert!(completed(s2, s0) && completed(s2, s1) && parity_completed(s2, 0));
        assert!(!parity_completed(s2, 1));
        // The next phase expects three again.
        assert_eq!(pending(s2), 3);
        let s3 = arrive(arrive(arrive(s2, 1), 1), 1);
        assert!(completed(s3, s2) && parity_completed(s3, 1) && !parity_completed(s3, 0));
    }
}
