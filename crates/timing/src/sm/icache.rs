//! L1 instruction cache: `[l1i]` sets × ways of `line`-byte lines, LRU replacement. A miss
//! allocates the line at once and the line arrives after a fixed miss latency (v0: an L2 hit
//! across the interconnect, `l2.latency + 2 × icnt.latency`, no contention); a lookup of a
//! line still in flight waits for the same arrival (merged, like an MSHR hit).

use warpsim_core::config::GpuConfig;

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
    miss_latency: u64,
    /// Every lookup hits (`TimingOptions::perfect_icache`).
    perfect: bool,
    pub hits: u64,
    pub misses: u64,
}

impl ICache {
    pub fn new(cfg: &GpuConfig, perfect: bool) -> ICache {
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
            miss_latency: cfg.l2.latency as u64 + 2 * cfg.icnt.latency as u64,
            perfect,
            hits: 0,
            misses: 0,
        }
    }

    /// Line size in bytes.
    pub fn line(&self) -> u64 {
        self.line
    }

    /// Looks up the line holding `addr` at cycle `now`: `Ok` when its data is there, else
    /// `Err(cycle)` when it will be (a miss allocates it now, evicting the LRU way).
    pub fn access(&mut self, addr: u64, now: u64) -> Result<(), u64> {
        if self.perfect {
            return Ok(());
        }
        let tag = addr / self.line;
        let set = (tag % self.sets) as usize * self.ways;
        let ways = set..set + self.ways;
        if let Some(i) = ways.clone().find(|&i| self.tags[i] == tag) {
            self.used[i] = now;
            if self.ready[i] <= now {
                self.hits += 1;
                return Ok(());
            }
            return Err(self.ready[i]);
        }
        self.misses += 1;
        let victim = ways
            .min_by_key(|&i| (self.tags[i] != u64::MAX, self.used[i]))
            .expect("ways > 0");
        self.tags[victim] = tag;
        self.used[victim] = now;
        self.ready[victim] = now + self.miss_latency;
        Err(self.ready[victim])
    }
}
