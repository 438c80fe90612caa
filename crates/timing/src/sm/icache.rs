//! L1 instruction cache, as GPGPU-Sim's `read_only_cache` behind `shader_core_ctx::fetch`:
//! `[l1i]` sets × ways of `line`-byte lines, LRU replacement, and a miss status holding table
//! of `l1i.mshrs` lines with up to `l1i.mshr_merge` fetches each.
//!
//! A lookup ([`ICache::access`]) is one of:
//! - **hit**: the line is valid; decode takes the instructions next;
//! - **miss**: the line is not there (a way is reserved for it and a request queued, when an
//!   MSHR entry, a miss-queue slot and an unreserved way are free), or it is already on its way
//!   (merged into its MSHR entry while the entry has room). The fetch is remembered as a
//!   [`Waiter`]; when the line arrives the waiters are handed back one per fetch slot, oldest
//!   line first ([`ICache::next_ready`]), without a second lookup — GPGPU-Sim's
//!   `access_ready()` / `next_access()`. The MSHR entry stays taken until its last waiter is
//!   handed back;
//! - **reservation failure**: no MSHR entry (or merge room), no miss-queue slot, or every way
//!   of the set reserved for a line in flight. Nothing is allocated; the fetch slot is spent
//!   and the warp tries again on a later turn.
//!
//! The line arrives either after a fixed latency (`l1i.miss_path = "fixed"`: `l2.latency + 2 ×
//! icnt.latency`, no contention) or when the read request the miss queued (`requests`, sent
//! by the SM's memory stage after its data requests, at most `l1i.miss_queue` unsent) comes
//! back from L2 (`"memory"`, GPGPU-Sim's path: a cold line costs a DRAM access).

use crate::ids::WarpSlot;
use std::collections::VecDeque;
use warpsim_core::config::{GpuConfig, InstMissPath};

/// An MSHR entry's ready cycle while its reply from L2 is still to come.
pub const AWAITING_REPLY: u64 = u64::MAX;

/// A fetch that missed: handed back when its line arrives.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Waiter {
    /// The warp slot.
    pub slot: WarpSlot,
    /// The warp's dynamic id (a slot is reused by later CTAs).
    pub age: u64,
    /// Where the fetch started.
    pub func: u32,
    pub pc: u32,
}

/// [`ICache::access`]'s answer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Lookup {
    Hit,
    /// The fetch waits for its line (handed back by [`ICache::next_ready`]).
    Miss,
    /// Nothing allocated: no MSHR entry or merge room, no miss-queue slot, or no unreserved way.
    ReservationFail,
}

/// One line in flight and the fetches waiting for it.
struct Entry {
    tag: u64,
    /// Cycle from which its waiters can be handed back ([`AWAITING_REPLY`] until the reply).
    ready: u64,
    /// Order of arrival, for handing back oldest line first.
    arrived: u64,
    /// Its line has been made valid (at its first hand-back).
    landed: bool,
    waiters: VecDeque<Waiter>,
}

pub struct ICache {
    sets: u64,
    ways: usize,
    line: u64,
    /// `tags[set * ways + way]`: line address, `u64::MAX` when invalid.
    tags: Vec<u64>,
    /// Reserved for a line in flight (not replaceable, not a hit).
    reserved: Vec<bool>,
    /// Last use, for LRU.
    used: Vec<u64>,
    /// Lines in flight, or arrived with waiters not yet handed back (`l1i.mshrs` at most).
    entries: Vec<Entry>,
    /// Waiter queues of freed entries, reused by the next misses (no allocation per miss once
    /// every MSHR entry has been used).
    spare: Vec<VecDeque<Waiter>>,
    mshrs: usize,
    merge: usize,
    miss_latency: u64,
    /// Misses read their line from L2 (`l1i.miss_path = "memory"`).
    through_memory: bool,
    /// Line addresses of misses not yet sent to L2, oldest first (`l1i.miss_queue` at most).
    requests: VecDeque<u64>,
    miss_queue: usize,
    /// Counts arrivals, for [`Entry::arrived`].
    arrivals: u64,
    /// Cycles of the earlier launches this cache lived through: LRU stamps are
    /// `epoch + now`, so lines kept from a launch stay older than this launch's.
    epoch: u64,
    /// Every lookup hits (`l1i.perfect` or `TimingOptions::perfect_icache`).
    perfect: bool,
    pub hits: u64,
    pub misses: u64,
    pub reservation_fails: u64,
}

impl ICache {
    pub fn new(cfg: &GpuConfig, perfect: bool) -> ICache {
        let c = &cfg.l1i;
        let line = c.line.max(1) as u64;
        let ways = c.assoc.max(1) as usize;
        let sets = (c.size as u64 / (line * ways as u64)).max(1);
        let n = sets as usize * ways;
        let mshrs = c.mshrs.max(1) as usize;
        ICache {
            sets,
            ways,
            line,
            tags: vec![u64::MAX; n],
            reserved: vec![false; n],
            used: vec![0; n],
            entries: Vec::with_capacity(mshrs),
            spare: Vec::with_capacity(mshrs),
            mshrs,
            merge: c.mshr_merge.max(1) as usize,
            miss_latency: cfg.l2.latency as u64 + 2 * cfg.icnt.latency as u64,
            through_memory: c.miss_path == InstMissPath::Memory,
            requests: VecDeque::with_capacity(c.miss_queue.max(1) as usize),
            miss_queue: c.miss_queue.max(1) as usize,
            arrivals: 0,
            epoch: 0,
            perfect: perfect || c.perfect,
            hits: 0,
            misses: 0,
            reservation_fails: 0,
        }
    }

    /// Every lookup hits.
    pub fn is_perfect(&self) -> bool {
        self.perfect
    }

    /// Line size in bytes.
    pub fn line(&self) -> u64 {
        self.line
    }

    /// Fetch `w` looks up the line holding `addr` at cycle `now`.
    pub fn access(&mut self, addr: u64, now: u64, w: Waiter) -> Lookup {
        if self.perfect {
            return Lookup::Hit;
        }
        let tag = addr / self.line;
        let ways = self.ways_of(tag);
        if let Some(i) = ways.clone().find(|&i| self.tags[i] == tag) {
            if !self.reserved[i] {
                self.used[i] = self.epoch + now;
                self.hits += 1;
                return Lookup::Hit;
            }
            // In flight: merge into its entry while it has room. (An older entry of the same
            // line may still be handing back waiters after the line was replaced and missed
            // again; the one in flight is the one due last.)
            let e = self
                .entries
                .iter_mut()
                .filter(|e| e.tag == tag)
                .max_by_key(|e| e.ready)
                .expect("a reserved line has its MSHR entry");
            if e.waiters.len() >= self.merge {
                self.reservation_fails += 1;
                return Lookup::ReservationFail;
            }
            e.waiters.push_back(w);
            self.used[i] = self.epoch + now;
            self.misses += 1;
            return Lookup::Miss;
        }
        let victim = ways
            .filter(|&i| !self.reserved[i])
            .min_by_key(|&i| (self.tags[i] != u64::MAX, self.used[i]));
        let queue_full = self.through_memory && self.requests.len() >= self.miss_queue;
        let (Some(victim), false, false) = (victim, self.entries.len() >= self.mshrs, queue_full)
        else {
            self.reservation_fails += 1;
            return Lookup::ReservationFail;
        };
        self.misses += 1;
        self.tags[victim] = tag;
        self.used[victim] = self.epoch + now;
        self.reserved[victim] = true;
        let ready = if self.through_memory {
            self.requests.push_back(tag * self.line);
            AWAITING_REPLY
        } else {
            now + self.miss_latency
        };
        self.entries.push(Entry {
            tag,
            ready,
            arrived: 0,
            landed: false,
            waiters: {
                let mut q = self.spare.pop().unwrap_or_default();
                q.push_back(w);
                q
            },
        });
        Lookup::Miss
    }

    /// The earliest cycle a waiter can be handed back (`u64::MAX`: none due, or only replies
    /// still to come).
    pub fn next_ready_at(&self) -> u64 {
        self.entries
            .iter()
            .map(|e| e.ready)
            .min()
            .unwrap_or(u64::MAX)
    }

    /// Whether a fetch is waiting on a line (an MSHR entry is taken).
    pub fn busy(&self) -> bool {
        !self.entries.is_empty()
    }

    /// Hands back the next fetch whose line has arrived by `now`: of the line that arrived
    /// first (fixed-latency lines by their due cycle), its oldest waiter. A line becomes valid
    /// when its wait is over; its entry is freed with its last waiter.
    pub fn next_ready(&mut self, now: u64) -> Option<Waiter> {
        let i = (0..self.entries.len())
            .filter(|&i| self.entries[i].ready <= now)
            .min_by_key(|&i| (self.entries[i].ready, self.entries[i].arrived))?;
        let tag = self.entries[i].tag;
        if !self.entries[i].landed {
            // Only the entry's own line: a later miss of the same line (after this one was
            // valid and replaced) reserves a way of its own.
            self.entries[i].landed = true;
            if let Some(way) = self
                .ways_of(tag)
                .find(|&k| self.tags[k] == tag && self.reserved[k])
            {
                self.reserved[way] = false;
            }
        }
        let w = self.entries[i].waiters.pop_front();
        if self.entries[i].waiters.is_empty() {
            let e = self.entries.remove(i);
            self.spare.push(e.waiters);
        }
        w
    }

    /// The oldest miss's line address not yet sent to L2.
    pub fn next_request(&self) -> Option<u64> {
        self.requests.front().copied()
    }

    /// The oldest miss was sent.
    pub fn request_sent(&mut self) {
        self.requests.pop_front();
    }

    /// The line at `addr` came back from L2 in cycle `now`: its waiters are handed back from
    /// this cycle's fetch on (GPGPU-Sim fills the I-cache in the cycle's interconnect step,
    /// before the cores' fetch). A reply no entry awaits (an earlier launch's) is ignored.
    pub fn fill(&mut self, addr: u64, now: u64) {
        let tag = addr / self.line;
        if let Some(e) = self
            .entries
            .iter_mut()
            .find(|e| e.tag == tag && e.ready == AWAITING_REPLY)
        {
            e.ready = now;
            e.arrived = self.arrivals;
            self.arrivals += 1;
        }
    }

    /// The launch ended after `cycles` cycles: lines still in flight are dropped (their ways
    /// freed: the memory system drops the replies), valid lines stay for the next launch,
    /// and the counters start again.
    pub fn end_launch(&mut self, cycles: u64) {
        while let Some(e) = self.entries.pop() {
            if !e.landed {
                for k in self.ways_of(e.tag) {
                    if self.tags[k] == e.tag && self.reserved[k] {
                        self.reserved[k] = false;
                        self.tags[k] = u64::MAX;
                    }
                }
            }
            let mut q = e.waiters;
            q.clear();
            self.spare.push(q);
        }
        self.requests.clear();
        self.epoch += cycles + 1;
        self.hits = 0;
        self.misses = 0;
        self.reservation_fails = 0;
    }

    /// The ways of the set line `tag` maps to.
    fn ways_of(&self, tag: u64) -> std::ops::Range<usize> {
        let set = (tag % self.sets) as usize * self.ways;
        set..set + self.ways
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn one_set(ways: u32, mshrs: u32, merge: u32) -> ICache {
        let mut cfg = GpuConfig::load_with("gtx480", &[]).unwrap();
        cfg.l1i.size = 128 * ways;
        cfg.l1i.assoc = ways;
        cfg.l1i.line = 128;
        cfg.l1i.mshrs = mshrs;
        cfg.l1i.mshr_merge = merge;
        cfg.l1i.miss_path = InstMissPath::Fixed;
        ICache::new(&cfg, false)
    }

    fn warp(slot: u16) -> Waiter {
        Waiter {
            slot: WarpSlot::from_raw(slot),
            age: slot as u64,
            func: 0,
            pc: 0,
        }
    }

    #[test]
    fn misses_through_memory_wait_for_their_reply() {
        let mut c = one_set(2, 2, 8);
        c.through_memory = true;
        assert_eq!(c.access(0, 10, warp(0)), Lookup::Miss);
        assert_eq!(
            c.access(0, 11, warp(1)),
            Lookup::Miss,
            "merged: no second request"
        );
        assert_eq!((c.misses, c.next_request()), (2, Some(0)));
        c.request_sent();
        assert_eq!(c.next_request(), None);
        assert_eq!(c.next_ready_at(), AWAITING_REPLY);
        c.fill(256, 300); // not awaited (an earlier launch's): ignored
        assert_eq!(c.next_ready(300), None);
        c.fill(0, 300);
        assert_eq!(c.next_ready_at(), 300);
        // Handed back one per call, in miss order; the line is valid from its arrival.
        assert_eq!(c.next_ready(300), Some(warp(0)));
        assert_eq!(c.access(0, 300, warp(2)), Lookup::Hit);
        assert_eq!(c.next_ready(300), Some(warp(1)));
        assert_eq!((c.next_ready(300), c.busy()), (None, false));
        // A second miss queues behind any unsent one, oldest first.
        assert_eq!(c.access(128, 302, warp(1)), Lookup::Miss);
        assert_eq!(c.access(512, 302, warp(2)), Lookup::Miss);
        assert_eq!(c.next_request(), Some(128));
        c.request_sent();
        assert_eq!(c.next_request(), Some(512));
    }

    #[test]
    fn mshrs_merges_and_reserved_ways_bound_the_misses() {
        let lat = one_set(2, 1, 2).miss_latency;
        // One MSHR entry: a second line cannot miss until the first line's waiters are back.
        let mut c = one_set(4, 1, 2);
        assert_eq!(c.access(0, 0, warp(0)), Lookup::Miss);
        assert_eq!(c.access(128, 0, warp(1)), Lookup::ReservationFail);
        // Merges up to `mshr_merge` waiters.
        assert_eq!(c.access(0, 1, warp(2)), Lookup::Miss);
        assert_eq!(c.access(0, 1, warp(3)), Lookup::ReservationFail);
        assert_eq!(c.reservation_fails, 2);
        assert_eq!(c.next_ready(lat - 1), None);
        assert_eq!(c.next_ready(lat), Some(warp(0)));
        assert_eq!(
            c.access(128, lat, warp(1)),
            Lookup::ReservationFail,
            "the entry holds until its last waiter"
        );
        assert_eq!(c.next_ready(lat), Some(warp(2)));
        assert_eq!(c.access(128, lat, warp(1)), Lookup::Miss);
        // Every way of the set reserved: no line can be allocated.
        let mut c = one_set(2, 4, 4);
        assert_eq!(c.access(0, 0, warp(0)), Lookup::Miss);
        assert_eq!(c.access(128, 0, warp(1)), Lookup::Miss);
        assert_eq!(c.access(256, 0, warp(2)), Lookup::ReservationFail);
        assert_eq!(c.next_ready(lat), Some(warp(0)));
        assert_eq!(
            c.access(256, lat, warp(2)),
            Lookup::Miss,
            "line 0 is valid again, so replaceable"
        );
        assert_eq!(
            c.access(0, lat, warp(0)),
            Lookup::ReservationFail,
            "line 0 was replaced; both ways are reserved again"
        );
    }

    #[test]
    fn a_line_missed_again_waits_for_its_own_arrival() {
        // Line 0 arrives and hands back w0, is replaced while w1 still waits to be handed back,
        // and misses again: later fetches of it merge into the new miss, and handing w1 back
        // does not make the new, still missing line valid.
        let mut c = one_set(2, 4, 4);
        let lat = c.miss_latency;
        assert_eq!(c.access(128, 0, warp(9)), Lookup::Miss);
        assert_eq!(c.access(0, 1, warp(0)), Lookup::Miss);
        assert_eq!(c.access(0, 1, warp(1)), Lookup::Miss);
        assert_eq!(c.next_ready(lat), Some(warp(9)));
        assert_eq!(c.next_ready(lat + 1), Some(warp(0)));
        let t = lat + 1;
        assert_eq!(
            c.access(128, t, warp(9)),
            Lookup::Hit,
            "line 0 is now the least recently used"
        );
        assert_eq!(c.access(256, t, warp(2)), Lookup::Miss, "replaces line 0");
        assert_eq!(
            c.access(0, t, warp(3)),
            Lookup::Miss,
            "line 0 again, replacing 128"
        );
        assert_eq!(
            c.access(0, t, warp(4)),
            Lookup::Miss,
            "merged into the new miss"
        );
        assert_eq!(
            c.next_ready(t),
            Some(warp(1)),
            "the first miss's last waiter"
        );
        assert_eq!(c.access(0, t, warp(5)), Lookup::Miss, "still in flight");
        assert_eq!(c.next_ready(t), None);
        let t2 = t + lat;
        let back: Vec<_> = std::iter::from_fn(|| c.next_ready(t2)).collect();
        assert_eq!(back, [warp(2), warp(3), warp(4), warp(5)]);
        assert!(!c.busy());
    }

    #[test]
    fn lines_outlive_the_launch_and_misses_in_flight_do_not() {
        let mut c = one_set(2, 2, 4);
        c.through_memory = true;
        assert_eq!(c.access(0, 10, warp(0)), Lookup::Miss);
        c.request_sent();
        c.fill(0, 40);
        assert_eq!(c.next_ready(40), Some(warp(0)));
        assert_eq!(
            c.access(128, 41, warp(1)),
            Lookup::Miss,
            "still in flight at the end"
        );
        c.end_launch(60);
        assert_eq!(
            (c.hits, c.misses, c.busy(), c.next_request()),
            (0, 0, false, None)
        );
        // The next launch counts from 0 again: line 0 hits, line 128 misses anew, and line
        // 0, used in this launch, is newer than anything the last launch stamped.
        assert_eq!(c.access(0, 0, warp(0)), Lookup::Hit);
        assert_eq!(c.access(128, 1, warp(1)), Lookup::Miss);
        assert_eq!(c.next_request(), Some(128));
    }

    #[test]
    fn lines_are_handed_back_in_arrival_order() {
        let mut c = one_set(4, 4, 4);
        c.through_memory = true;
        assert_eq!(c.access(0, 0, warp(0)), Lookup::Miss);
        assert_eq!(c.access(128, 0, warp(1)), Lookup::Miss);
        c.fill(128, 50);
        c.fill(0, 50);
        assert_eq!(c.next_ready(50), Some(warp(1)));
        assert_eq!(c.next_ready(50), Some(warp(0)));
    }
}
