//! The L1's miss queue towards L2 (GPGPU-Sim's `m_miss_queue`, `l1d.miss_queue` entries): L1
//! misses, write-through stores, atomics, loads around L1 and dirty victims, sent into the
//! interconnect one a cycle, oldest first.
//!
//! On a sectored L1 GPGPU-Sim's coalescer (`-gpgpu_coalesce_arch` 60 and up) hands the L1 one
//! access per 32-byte sector, so a request of this model that asks for (or writes) `n`
//! sectors of a line through the L1 is `n` queue entries there, sent in `n` cycles. Such a
//! request is *paced* here: it takes `n` of the queue's entries and holds the queue's port
//! `n` cycles (it enters the interconnect in the first, whose per-sector packets model the
//! rest of the traffic).

use crate::mem::Req;
use std::collections::VecDeque;

pub(super) struct MissQueue {
    /// Requests with the entries each takes (its sectors when paced, else 1).
    reqs: VecDeque<(Req, u8)>,
    cap: usize,
    /// Entries in use.
    used: usize,
    /// The first cycle the port sends again (a paced request holds it a cycle per sector).
    free_at: u64,
}

impl MissQueue {
    pub fn new(cap: u32) -> MissQueue {
        MissQueue {
            reqs: VecDeque::with_capacity(cap as usize + 8),
            cap: cap as usize,
            used: 0,
            free_at: 0,
        }
    }

    /// Whether another request may queue (an entry is free; a paced request may then take a
    /// few more than are left, as GPGPU-Sim's sector accesses reach a queue one entry short
    /// in the same cycle).
    #[inline]
    pub fn room(&self) -> bool {
        self.used < self.cap
    }

    #[inline]
    pub fn is_empty(&self) -> bool {
        self.reqs.is_empty()
    }

    /// Queues `r`, one entry.
    #[inline]
    pub fn push(&mut self, r: Req) {
        self.push_taking(r, 1);
    }

    /// Queues `r`, an entry and a cycle of the port per sector (see the module's note).
    #[inline]
    pub fn push_paced(&mut self, r: Req) {
        self.push_taking(r, r.sectors.count_ones().clamp(1, 32) as u8);
    }

    #[inline]
    fn push_taking(&mut self, r: Req, entries: u8) {
        self.used += entries as usize;
        self.reqs.push_back((r, entries));
    }

    /// The request the port may send in cycle `now`, if any; after sending it, call
    /// [`MissQueue::sent`].
    #[inline]
    pub fn head(&self, now: u64) -> Option<Req> {
        if now < self.free_at {
            return None;
        }
        self.reqs.front().map(|&(r, _)| r)
    }

    /// The head left in cycle `now`.
    #[inline]
    pub fn sent(&mut self, now: u64) {
        if let Some((_, entries)) = self.reqs.pop_front() {
            self.used -= entries as usize;
            self.free_at = now + entries as u64;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mem::{Dest, Kind};

    fn read(sectors: u32) -> Req {
        Req {
            addr: 0,
            kind: Kind::Read,
            sm: 0,
            bytes: 32 * sectors.count_ones() as u16,
            dest: Dest::L1,
            sectors,
            whole: 0,
        }
    }

    /// A paced request of four sectors takes four entries and holds the port four cycles; an
    /// unpaced one takes one entry and one cycle.
    #[test]
    fn a_paced_request_takes_an_entry_and_a_cycle_per_sector() {
        let mut q = MissQueue::new(6);
        q.push_paced(read(0b1111));
        q.push(read(0b1111));
        assert!(q.room(), "five of six entries");
        q.push_paced(read(0b0011));
        assert!(!q.room(), "seven: over by one");
        let mut sent = Vec::new();
        for now in 10..20 {
            if q.head(now).is_some() {
                q.sent(now);
                sent.push(now);
            }
        }
        assert_eq!(sent, vec![10, 14, 15]);
        assert!(q.is_empty() && q.room());
    }
}
