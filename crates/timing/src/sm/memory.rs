//! Memory v0: fixed latencies per space. Shared: `sm.shared_latency` plus bank-conflict
//! serialization (extra cycles = the most distinct 4-byte words any one bank must serve − 1).
//! Global/local: a coalescer counts distinct `coalescer.segment_bytes` segments per warp
//! access (each occupies the LD/ST unit one cycle); latency is the flat miss latency
//! `l1d.latency + l2.latency + dram.latency` plus the segments' serialization.

use warpsim_core::config::GpuConfig;
use warpsim_core::exec::warp::WARP_SIZE;

/// Timing of one warp memory access.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Access {
    pub latency: u32,
    /// Cycles the LD/ST unit stays busy.
    pub occupancy: u32,
    /// A global/local access (long latency for two-level scheduling).
    pub long: bool,
}

/// Distinct 128-byte (configurable) segments touched by `lanes` of `addrs`.
pub fn segments(addrs: &[u64; WARP_SIZE], lanes: u32, segment_bytes: u32) -> u32 {
    let mut seen = [0u64; WARP_SIZE];
    let mut n = 0usize;
    let mut m = lanes;
    while m != 0 {
        let l = m.trailing_zeros() as usize;
        m &= m - 1;
        let seg = addrs[l] / segment_bytes.max(1) as u64;
        if !seen[..n].contains(&seg) {
            seen[n] = seg;
            n += 1;
        }
    }
    n as u32
}

/// The most distinct words mapped to one bank (1 when conflict-free, 0 with no lanes).
pub fn bank_degree(addrs: &[u64; WARP_SIZE], lanes: u32, banks: u32) -> u32 {
    let banks = banks.clamp(1, 32) as u64;
    let mut words = [0u64; WARP_SIZE];
    let mut n = 0usize;
    let mut m = lanes;
    while m != 0 {
        let l = m.trailing_zeros() as usize;
        m &= m - 1;
        let w = addrs[l] / 4;
        if !words[..n].contains(&w) {
            words[n] = w;
            n += 1;
        }
    }
    let mut per_bank = [0u32; 32];
    let mut worst = 0;
    for &w in &words[..n] {
        let b = (w % banks) as usize;
        per_bank[b] += 1;
        worst = worst.max(per_bank[b]);
    }
    worst
}

pub fn shared_access(cfg: &GpuConfig, addrs: &[u64; WARP_SIZE], lanes: u32) -> Access {
    let extra = bank_degree(addrs, lanes, cfg.sm.shared_banks).saturating_sub(1);
    Access {
        latency: cfg.sm.shared_latency + extra,
        occupancy: 1 + extra,
        long: false,
    }
}

pub fn global_access(cfg: &GpuConfig, addrs: &[u64; WARP_SIZE], lanes: u32) -> Access {
    let segs = segments(addrs, lanes, cfg.coalescer.segment_bytes).max(1);
    Access {
        latency: cfg.l1d.latency + cfg.l2.latency + cfg.dram.latency + segs - 1,
        occupancy: segs,
        long: true,
    }
}

pub fn const_access(cfg: &GpuConfig) -> Access {
    Access {
        latency: cfg.l1d.latency,
        occupancy: 1,
        long: false,
    }
}
