//! How many CTAs of a kernel fit on one SM at once, and what limits it.
//!
//! The rule is GPGPU-Sim's (the papers' simulator): a CTA occupies whole warps; registers are
//! allocated for the warp-padded CTA at the per-thread count rounded up to a multiple of 4;
//! shared memory per CTA is static plus dynamic.

use crate::config::Sm;

/// What bounds the CTA count.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Limiter {
    CtaSlots,
    Warps,
    Threads,
    Registers,
    SharedMemory,
}

/// A kernel's per-CTA demands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CtaDemand {
    pub threads: u32,
    /// Registers per thread (from `ptxas -v` or the cubin's REGCOUNT).
    pub registers: u32,
    /// Static + dynamic shared memory bytes.
    pub shared_bytes: u32,
}

/// CTAs per SM (0 when one CTA does not fit at all) and the limiting resource.
pub fn ctas_per_sm(sm: &Sm, d: &CtaDemand) -> (u32, Limiter) {
    let warps = d.threads.div_ceil(sm.warp_size).max(1);
    let padded_threads = warps * sm.warp_size;
    let regs_per_cta = padded_threads * d.registers.div_ceil(4) * 4;
    let mut best = (sm.max_ctas, Limiter::CtaSlots);
    let mut bound = |n: u32, why: Limiter| {
        if n < best.0 {
            best = (n, why);
        }
    };
    bound(sm.max_warps / warps, Limiter::Warps);
    bound(sm.max_threads / padded_threads, Limiter::Threads);
    if regs_per_cta > 0 {
        bound(sm.registers / regs_per_cta, Limiter::Registers);
    }
    if d.shared_bytes > 0 {
        bound(sm.shared_memory / d.shared_bytes, Limiter::SharedMemory);
    }
    best
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::GpuConfig;

    #[test]
    fn gtx480_limits() {
        let c = GpuConfig::load("gtx480").unwrap();
        let occ = |threads, registers, shared_bytes| ctas_per_sm(&c.sm, &CtaDemand { threads, registers, shared_bytes });
        // 512 threads: 48 warps / 16 = 3 CTAs, also 1536 threads / 512.
        assert_eq!(occ(512, 16, 1024).0, 3);
        // 256 threads with 24 registers: 32768 / (256 × 24) = 5 CTAs.
        assert_eq!(occ(256, 24, 0), (5, Limiter::Registers));
        // 22 registers round up to 24.
        assert_eq!(occ(256, 22, 0), (5, Limiter::Registers));
        // 20 registers would allow 6, and so do the warp slots (48 / 8): the first limit wins.
        assert_eq!(occ(256, 20, 0), (6, Limiter::Warps));
        // Small CTAs hit the CTA slots.
        assert_eq!(occ(64, 8, 0), (8, Limiter::CtaSlots));
        // Shared memory: 20 KB per CTA → 2.
        assert_eq!(occ(128, 8, 20 * 1024), (2, Limiter::SharedMemory));
        // Does not fit at all.
        assert_eq!(occ(256, 200, 0).0, 0);
    }
}
