//! The L1 D-cache miss rate of loads (MOTRR Fig 5), from `MemStats::l1d_loads`: line accesses
//! of loads that looked the L1 tags up. `MemStats::l1d` is not used because it also counts
//! stores (write-through updates, which never allocate) and loads that bypass L1 (counted
//! there as misses), which would make a bypassing or store-heavy kernel look like it thrashes.
//!
//! `miss_rate = (misses + merged) / (hits + misses + merged)`: a merged access found its line
//! absent too (it joined a miss in flight; GPGPU-Sim calls it `HIT_RESERVED` and prints it
//! apart); reservation failures are retries of the same access and count in neither.

use crate::mem::MemStats;

#[derive(Clone, Copy, Debug, Default, PartialEq, serde::Serialize)]
pub struct L1dLoads {
    pub hits: u64,
    pub misses: u64,
    pub merged: u64,
    /// 0 when no load looked the L1 up.
    pub miss_rate: f64,
}

pub fn l1d_load_miss_rate(m: &MemStats) -> L1dLoads {
    let l = &m.l1d_loads;
    L1dLoads {
        hits: l.hits,
        misses: l.misses,
        merged: l.merged,
        miss_rate: super::ratio(l.misses + l.merged, l.hits + l.misses + l.merged),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mem::CacheCounts;

    #[test]
    fn loads_only() {
        // 60 hits, 30 misses, 10 merged → 40 / 100; the store-polluted `l1d` is ignored.
        let m = MemStats {
            l1d: CacheCounts {
                hits: 1000,
                misses: 5000,
                ..Default::default()
            },
            l1d_loads: CacheCounts {
                hits: 60,
                misses: 30,
                merged: 10,
                reservation_fails: 7,
                writebacks: 0,
            },
            ..Default::default()
        };
        let r = l1d_load_miss_rate(&m);
        assert_eq!((r.hits, r.misses, r.merged, r.miss_rate), (60, 30, 10, 0.4));
        assert_eq!(l1d_load_miss_rate(&MemStats::default()).miss_rate, 0.0);
    }
}
