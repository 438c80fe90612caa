//! L1 instruction cache: `[l1i]` sets × ways of `line`-byte lines, LRU replacement. A miss
//! allocates the line at once; the line arrives either after a fixed latency
//! (`l1i.miss_path = "fixed"`: an L2 hit across the interconnect, `l2.latency + 2 ×
//! icnt.latency`, no contention) or when the read request the miss queues (`requests`, sent
//! by the SM's memory stage ahead of its data misses) comes back from L2
//! (`"memory"`, GPGPU-Sim's path: a cold line costs a DRAM access). A lookup of a line still
//! in flight waits for the same arrival (merged, like an MSHR hit); a line on the memory path
//! is due at `u64::MAX` until its reply, which wakes the warps waiting for it.
//!
//! A line is *pinned* from its miss until its first hit: replacement never evicts a line in
//! flight or one that arrived but no warp has fetched from yet. Without that, warps whose
//! lines share a set could evict each other's lines between fill and fetch forever (a
//! livelock seen with 16 warps of `rod_heartwall` under GTO with rotating schedulers). When
//! every way of the set is pinned the miss allocates nothing and the warp retries when the
//! earliest of those still in flight arrives, or, when all have arrived and only wait for
//! their warps, after a miss latency (a priority fetch policy would otherwise pick the
//! retrying warp every cycle and never the warps that would unpin the set).
//!
//! A pin belongs to the warp whose miss allocated the line and lasts only while that warp
//! still wants it: when the warp next looks up a different line (a branch flushed its
//! I-buffer before it used the line it fetched ahead for, as a fetch policy that tops up
//! partly full I-buffers does) or finishes, the pin is released. Otherwise lines fetched
//! ahead and never used would stay pinned for good and, set by set, block every miss (seen
//! with critical-fetch-first on `rod_heartwall` and `rod_particlefilter`). Under the baseline
//! rule (fetch only into an empty I-buffer) a warp always fetches from the line it missed
//! on next, so this never triggers there.

use std::collections::VecDeque;
use warpsim_core::config::{GpuConfig, InstMissPath};

/// [`ICache::access`]'s answer for a line whose reply from L2 is still to come.
pub const AWAITING_REPLY: u64 = u64::MAX;

pub struct ICache {
    sets: u64,
    ways: usize,
    line: u64,
    /// `tags[set * ways + way]`: line address, `u64::MAX` when invalid.
    tags: Vec<u64>,
    /// Cycle the line's data arrives.
    ready: Vec<u64>,
    /// Last use, for LRU.
    used: Vec<u64>,
    /// Allocated by a miss and not hit since: not replaceable.
    pinned: Vec<bool>,
    /// The warp slot whose miss pinned the line.
    owner: Vec<u16>,
    /// Per warp slot: the way it pinned last (valid while that way is pinned by it).
    held: Vec<Option<u32>>,
    miss_latency: u64,
    /// Misses read their line from L2 (`l1i.miss_path = "memory"`).
    through_memory: bool,
    /// Line addresses of misses not yet sent to L2, oldest first.
    requests: VecDeque<u64>,
    /// Every lookup hits (`l1i.perfect` or `TimingOptions::perfect_icache`).
    perfect: bool,
    pub hits: u64,
    pub misses: u64,
}

impl ICache {
    /// An I-cache for an SM of `warps` warp slots.
    pub fn new(cfg: &GpuConfig, perfect: bool, warps: usize) -> ICache {
        let c = &cfg.l1i;
        let line = c.line.max(1) as u64;
        let ways = c.assoc.max(1) as usize;
        let sets = (c.size as u64 / (line * ways as u64)).max(1);
        let n = sets as usize * ways;
        ICache {
            sets,
            ways,
            line,
            tags: vec![u64::MAX; n],
            ready: vec![0; n],
            used: vec![0; n],
            pinned: vec![false; n],
            owner: vec![0; n],
            held: vec![None; warps],
            miss_latency: cfg.l2.latency as u64 + 2 * cfg.icnt.latency as u64,
            through_memory: c.miss_path == InstMissPath::Memory,
            requests: VecDeque::with_capacity(8),
            perfect: perfect || c.perfect,
            hits: 0,
            misses: 0,
        }
    }

    /// Line size in bytes.
    pub fn line(&self) -> u64 {
        self.line
    }

    /// Releases warp slot `warp`'s pin, if it still holds one.
    pub fn release(&mut self, warp: usize) {
        if let Some(w) = self.held[warp].take() {
            let w = w as usize;
            if self.pinned[w] && self.owner[w] as usize == warp {
                self.pinned[w] = false;
            }
        }
    }

    /// Warp slot `warp` looks up the line holding `addr` at cycle `now`: `Ok` when its data is
    /// there, else `Err(cycle)` when to look again: when the line arrives (a miss allocates it
    /// now, evicting the LRU unpinned way), or, with every way pinned, when the first pinned
    /// line is due (at least the next cycle).
    pub fn access(&mut self, addr: u64, now: u64, warp: usize) -> Result<(), u64> {
        if self.perfect {
            return Ok(());
        }
        let tag = addr / self.line;
        if let Some(w) = self.held[warp] {
            if self.tags[w as usize] != tag {
                self.release(warp);
            }
        }
        let ways = self.ways_of(tag);
        if let Some(i) = ways.clone().find(|&i| self.tags[i] == tag) {
            self.used[i] = now;
            if self.ready[i] <= now {
                self.hits += 1;
                self.pinned[i] = false;
                return Ok(());
            }
            return Err(self.ready[i]);
        }
        let Some(victim) = ways
            .clone()
            .filter(|&i| !self.pinned[i])
            .min_by_key(|&i| (self.tags[i] != u64::MAX, self.used[i]))
        else {
            // Retry when the first pinned line arrives; when every one has arrived and waits
            // for its warp, that warp must get a fetch turn first: back off a miss latency, so
            // a fetch policy that always prefers this warp (CFF, FEF) lets the others through.
            let in_flight = ways.map(|i| self.ready[i]).filter(|&t| t > now).min();
            return Err(in_flight.unwrap_or(now + self.miss_latency));
        };
        self.misses += 1;
        self.tags[victim] = tag;
        self.used[victim] = now;
        self.pinned[victim] = true;
        self.owner[victim] = warp as u16;
        self.held[warp] = Some(victim as u32);
        self.ready[victim] = if self.through_memory {
            self.requests.push_back(tag * self.line);
            AWAITING_REPLY
        } else {
            now + self.miss_latency
        };
        Err(self.ready[victim])
    }

    /// The oldest miss's line address not yet sent to L2.
    pub fn next_request(&self) -> Option<u64> {
        self.requests.front().copied()
    }

    /// The oldest miss was sent.
    pub fn request_sent(&mut self) {
        self.requests.pop_front();
    }

    /// The line at `addr` came back from L2 in cycle `now`; it can be fetched from `now + 1`.
    /// A reply for a line no longer awaited (sent by an earlier launch) is ignored.
    pub fn fill(&mut self, addr: u64, now: u64) {
        let tag = addr / self.line;
        if let Some(i) = self
            .ways_of(tag)
            .find(|&i| self.tags[i] == tag && self.ready[i] == AWAITING_REPLY)
        {
            self.ready[i] = now + 1;
        }
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

    fn one_set(ways: u32) -> ICache {
        let mut cfg = GpuConfig::load_with("gtx480", &[]).unwrap();
        cfg.l1i.size = 128 * ways;
        cfg.l1i.assoc = ways;
        cfg.l1i.line = 128;
        cfg.l1i.miss_path = InstMissPath::Fixed;
        ICache::new(&cfg, false, 4)
    }

    #[test]
    fn misses_through_memory_wait_for_their_reply() {
        let mut c = one_set(2);
        c.through_memory = true;
        assert_eq!(c.access(0, 10, 0), Err(AWAITING_REPLY));
        assert_eq!(c.access(0, 11, 1), Err(AWAITING_REPLY), "merged: no second request");
        assert_eq!((c.misses, c.next_request()), (1, Some(0)));
        c.request_sent();
        assert_eq!(c.next_request(), None);
        c.fill(256, 300); // not awaited (an earlier launch's): ignored
        assert_eq!(c.access(0, 300, 0), Err(AWAITING_REPLY));
        c.fill(0, 300);
        assert_eq!(c.access(0, 300, 0), Err(301), "usable from the next cycle");
        assert_eq!(c.access(0, 301, 0), Ok(()));
        // A second miss queues behind any unsent one, oldest first.
        assert_eq!(c.access(128, 302, 1), Err(AWAITING_REPLY));
        assert_eq!(c.access(512, 302, 2), Err(AWAITING_REPLY));
        assert_eq!(c.next_request(), Some(128));
        c.request_sent();
        assert_eq!(c.next_request(), Some(512));
    }

    #[test]
    fn lines_stay_until_first_fetched() {
        let mut c = one_set(2);
        let lat = c.miss_latency;
        // Two misses fill both ways; a third finds them pinned (in flight) and allocates nothing.
        assert_eq!(c.access(0, 0, 0), Err(lat));
        assert_eq!(c.access(128, 1, 1), Err(1 + lat));
        assert_eq!(c.access(256, 2, 2), Err(lat));
        assert_eq!(c.misses, 2);
        // Arrived but not yet fetched from: still pinned; with none in flight the warp backs off.
        assert_eq!(c.access(256, lat + 5, 2), Err(2 * lat + 5));
        // The first fetch of line 0 unpins it; the waiting miss may now replace it.
        assert_eq!(c.access(0, lat + 6, 0), Ok(()));
        assert_eq!(c.access(256, lat + 7, 2), Err(2 * lat + 7));
        // Line 1 (pinned) survived, and hits.
        assert_eq!(c.access(128, lat + 8, 1), Ok(()));
    }

    #[test]
    fn a_warp_that_changes_course_releases_its_pin() {
        let mut c = one_set(2);
        let lat = c.miss_latency;
        // Warps 0 and 1 pin both ways (fetching ahead); warp 2 finds no way to allocate.
        assert_eq!(c.access(0, 0, 0), Err(lat));
        assert_eq!(c.access(128, 0, 1), Err(lat));
        assert_eq!(c.access(256, 1, 2), Err(lat));
        // Warp 0 asks for line 2 instead: its own pin on line 0 goes, so line 2 allocates.
        assert_eq!(c.access(256, lat + 1, 0), Err(2 * lat + 1));
        // Warp 1's pin is untouched by that; a finished warp releases its pin.
        assert_eq!(c.access(384, lat + 2, 3), Err(2 * lat + 1));
        c.release(1);
        assert_eq!(c.access(384, lat + 3, 3), Err(2 * lat + 3));
    }
}
