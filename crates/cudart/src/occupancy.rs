//! A small occupancy calculator with the configured GPU's limits (gtx480: 8 CTA slots, 48
//! warp slots, 32768 registers, 48 KB shared memory per SM): CTAs per SM is the minimum over
//! CTA slots, warp slots, registers (from the cubin's `REGCOUNT` when the fatbinary has one)
//! and shared memory (static + dynamic), with CUDA's allocation granularities.

use crate::props::Limits;
use crate::runtime::Runtime;
use crate::types::*;

/// Registers are allocated per warp in units of this many.
const REG_UNIT: u64 = 64;
/// Shared memory is allocated per CTA in units of this many bytes.
const SHARED_UNIT: u64 = 128;

/// CTAs of `threads` threads using `regs` registers per thread (0: unknown) and `shared`
/// bytes of shared memory that fit on one SM.
pub fn ctas_per_sm(l: &Limits, threads: u64, regs: u32, shared: u64) -> u32 {
    if threads == 0 {
        return 0;
    }
    let warp = l.warp_size.max(1) as u64;
    let warps = threads.div_ceil(warp);
    let mut n = (l.ctas_per_sm as u64).min(l.warps_per_sm as u64 / warps).min(l.threads_per_sm as u64 / (warps * warp));
    if regs > 0 {
        let per_warp = (regs as u64 * warp).div_ceil(REG_UNIT) * REG_UNIT;
        n = n.min(l.regs_per_sm as u64 / (per_warp * warps));
    }
    if shared > 0 {
        let s = shared.div_ceil(SHARED_UNIT) * SHARED_UNIT;
        n = n.min(l.shared_per_sm as u64 / s);
    }
    n as u32
}

/// Registers per thread of a kernel: `WARPSIM_REGISTERS`' count for it, else its cubin's
/// when the fatbinary had one.
pub fn regs_of(rt: &Runtime, stub: usize) -> Option<u32> {
    let f = rt.functions.get(&stub)?;
    if let Some(&(_, n)) = rt.config.registers.iter().find(|(k, _)| *k == f.name) {
        return Some(n);
    }
    rt.modules[f.module].images.regcounts.get(&f.name).copied()
}

/// `cudaOccupancyMaxActiveBlocksPerMultiprocessor` for a registered kernel.
pub fn blocks_per_sm(rt: &mut Runtime, stub: usize, threads: u64, dynamic_shared: usize) -> Result<u32, cudaError_t> {
    let k = crate::launch::kernel_of(rt, stub)?;
    let static_shared = rt.device.kernel_info(k).shared_bytes as u64;
    let regs = regs_of(rt, stub).unwrap_or(0);
    Ok(ctas_per_sm(&rt.limits_of_gpu(), threads, regs, static_shared + dynamic_shared as u64))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_limit_binds() {
        let l = Limits::of(&warpsim_core::config::GpuConfig::load("gtx480").unwrap());
        let ctas_per_sm = |t, r, s| ctas_per_sm(&l, t, r, s);
        // CTA slots: 64-thread CTAs, 2 warps each → 8 (not 24).
        assert_eq!(ctas_per_sm(64, 0, 0), 8);
        // Warp slots: 512 threads = 16 warps → 3.
        assert_eq!(ctas_per_sm(512, 0, 0), 3);
        // Registers: 256 threads × 32 regs = 8192 → 4.
        assert_eq!(ctas_per_sm(256, 32, 0), 4);
        // Registers with allocation granularity: 21 regs → 704 per warp → 8 warps → 5.
        assert_eq!(ctas_per_sm(256, 21, 0), 5);
        // Shared memory: 20 KB per CTA → 2.
        assert_eq!(ctas_per_sm(128, 0, 20 * 1024), 2);
        // Too much of anything → 0.
        assert_eq!(ctas_per_sm(1024, 64, 0), 0);
        assert_eq!(ctas_per_sm(32, 0, 64 * 1024), 0);
        assert_eq!(ctas_per_sm(0, 0, 0), 0);
    }
}
