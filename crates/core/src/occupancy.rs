//! How many CTAs of a kernel fit on one SM at once, and what limits it: the one occupancy rule
//! of the simulated GPU. The timing model's CTA dispatcher sizes its CTA slots with it, the
//! Device refuses launches whose CTA does not fit (in functional and timing mode alike) and
//! cooperative launches larger than the CTAs that can be co-resident, and the CUDA runtime
//! shim answers `cudaOccupancyMaxActiveBlocksPerMultiprocessor` and its relatives from it, so
//! a program sized by the occupancy API gets exactly the residency the model gives it.
//!
//! The rule is GPGPU-Sim's (`shader_core_config::max_cta`, the papers' simulator), which both
//! presets follow (they model GPGPU-Sim's tested configurations): a CTA occupies whole warps;
//! registers are allocated for the warp-padded CTA at the per-thread count rounded up to a
//! multiple of 4; shared memory per CTA is static plus dynamic, unrounded; and CTA slots, warp
//! slots and thread slots bound the count. CUDA's occupancy calculator allocates registers per
//! warp in larger units and shared memory in 128-byte units, and can differ by a CTA: 544
//! threads × 30 registers fit twice on a GTX480 by CUDA's rule (960 registers per warp × 17
//! warps), once by GPGPU-Sim's (32 × 544 = 17408 registers per CTA).

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

impl Limiter {
    /// The resource in words (`"registers"`), for messages.
    pub fn describe(self) -> &'static str {
        match self {
            Limiter::CtaSlots => "CTA slots",
            Limiter::Warps => "warp slots",
            Limiter::Threads => "thread slots",
            Limiter::Registers => "registers",
            Limiter::SharedMemory => "shared memory",
        }
    }
}

/// A kernel's per-CTA demands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CtaDemand {
    pub threads: u32,
    /// Registers per thread (from `ptxas -v` or the cubin's REGCOUNT; 0: unknown, registers
    /// then do not limit).
    pub registers: u32,
    /// Static + dynamic shared memory bytes.
    pub shared_bytes: u32,
}

/// The resources of one SM that CTAs compete for (the preset's `[sm]` limits), as a small
/// copyable value the Device keeps in its options.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SmResources {
    pub warp_size: u32,
    pub max_threads: u32,
    pub max_warps: u32,
    pub max_ctas: u32,
    pub registers: u32,
    pub shared_memory: u32,
}

impl SmResources {
    pub fn of(sm: &Sm) -> SmResources {
        SmResources {
            warp_size: sm.warp_size,
            max_threads: sm.max_threads,
            max_warps: sm.max_warps,
            max_ctas: sm.max_ctas,
            registers: sm.registers,
            shared_memory: sm.shared_memory,
        }
    }
}

/// One CTA's share of each resource under the rule (warps, padded threads, registers,
/// shared bytes), in `u64` so that no demand overflows.
fn needs(r: &SmResources, d: &CtaDemand) -> (u64, u64, u64, u64) {
    let warp = r.warp_size.max(1) as u64;
    let warps = (d.threads as u64).div_ceil(warp).max(1);
    let padded = warps * warp;
    let regs = padded.saturating_mul((d.registers as u64).div_ceil(4) * 4);
    (warps, padded, regs, d.shared_bytes as u64)
}

/// CTAs per SM (0 when one CTA does not fit at all) and the limiting resource.
pub fn ctas_per_sm(sm: &Sm, d: &CtaDemand) -> (u32, Limiter) {
    resident_ctas(&SmResources::of(sm), d)
}

/// [`ctas_per_sm`] over an SM's resources.
pub fn resident_ctas(r: &SmResources, d: &CtaDemand) -> (u32, Limiter) {
    let (warps, padded, regs, shared) = needs(r, d);
    let mut best = (r.max_ctas as u64, Limiter::CtaSlots);
    let mut bound = |n: u64, why: Limiter| {
        if n < best.0 {
            best = (n, why);
        }
    };
    bound(r.max_warps as u64 / warps, Limiter::Warps);
    bound(r.max_threads as u64 / padded, Limiter::Threads);
    // Registers and shared memory bound only when the CTA uses some.
    if let Some(n) = (r.registers as u64).checked_div(regs) {
        bound(n, Limiter::Registers);
    }
    if let Some(n) = (r.shared_memory as u64).checked_div(shared) {
        bound(n, Limiter::SharedMemory);
    }
    (best.0.min(u32::MAX as u64) as u32, best.1)
}

/// Why one CTA of `d` does not fit on an SM (for a demand with [`resident_ctas`] 0): the
/// reason of the launch error both modes report.
pub fn does_not_fit(r: &SmResources, d: &CtaDemand) -> String {
    let (warps, padded, regs, shared) = needs(r, d);
    let (_, limiter) = resident_ctas(r, d);
    let need = match limiter {
        Limiter::CtaSlots => format!("the SM has {} CTA slots", r.max_ctas),
        Limiter::Warps => format!("it needs {warps} warp slots, an SM has {}", r.max_warps),
        Limiter::Threads => format!("it needs {padded} thread slots, an SM has {}", r.max_threads),
        Limiter::Registers => format!(
            "it needs {regs} registers ({padded} threads × {} registers/thread rounded up to a multiple of 4), an SM has {}",
            d.registers, r.registers
        ),
        Limiter::SharedMemory => format!("it needs {shared} B of shared memory, an SM has {}", r.shared_memory),
    };
    format!(
        "one CTA ({} threads, {} registers/thread, {} B shared) does not fit on an SM: {need}",
        d.threads, d.registers, d.shared_bytes
    )
}

/// The largest block (≤ `limit` threads) of which one CTA fits on an SM with `registers` per
/// thread and `shared_bytes` of shared memory: `limit` itself, or the largest multiple of the
/// warp size below it that fits (0 when none does). `cudaFuncAttributes::maxThreadsPerBlock`.
pub fn max_threads_per_cta(r: &SmResources, limit: u32, registers: u32, shared_bytes: u32) -> u32 {
    let warp = r.warp_size.max(1);
    let mut t = limit;
    while t > 0
        && resident_ctas(
            r,
            &CtaDemand {
                threads: t,
                registers,
                shared_bytes,
            },
        )
        .0 == 0
    {
        t = (t - 1) / warp * warp;
    }
    t
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::GpuConfig;

    #[test]
    fn gtx480_limits() {
        let c = GpuConfig::load("gtx480").unwrap();
        let occ = |threads, registers, shared_bytes| {
            ctas_per_sm(
                &c.sm,
                &CtaDemand {
                    threads,
                    registers,
                    shared_bytes,
                },
            )
        };
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
        // simpleAWBarrier's CTA (issue 41): 544 threads × 30 registers → 32 × 544 = 17408
        // registers per CTA → 1 (CUDA's per-warp rounding would say 2).
        assert_eq!(occ(544, 30, 0), (1, Limiter::Registers));
        // matrixMul's 1024 threads × 44 registers do not fit at all.
        assert_eq!(occ(1024, 44, 0), (0, Limiter::Registers));
        // Absurd demands saturate instead of overflowing.
        assert_eq!(occ(u32::MAX, u32::MAX, u32::MAX).0, 0);
    }

    #[test]
    fn misfits_are_explained() {
        let r = SmResources::of(&GpuConfig::load("gtx480").unwrap().sm);
        let why = does_not_fit(
            &r,
            &CtaDemand {
                threads: 1024,
                registers: 44,
                shared_bytes: 0,
            },
        );
        assert_eq!(
            why,
            "one CTA (1024 threads, 44 registers/thread, 0 B shared) does not fit on an SM: it needs 45056 registers \
             (1024 threads × 44 registers/thread rounded up to a multiple of 4), an SM has 32768"
        );
        let why = does_not_fit(
            &r,
            &CtaDemand {
                threads: 32,
                registers: 8,
                shared_bytes: 50_000,
            },
        );
        assert!(
            why.ends_with("it needs 50000 B of shared memory, an SM has 49152"),
            "{why}"
        );
    }

    #[test]
    fn largest_block_that_fits() {
        let r = SmResources::of(&GpuConfig::load("gtx480").unwrap().sm);
        // 44 registers: 32768 / 44 = 744 threads → 736 (23 warps).
        assert_eq!(max_threads_per_cta(&r, 1024, 44, 0), 736);
        assert_eq!(max_threads_per_cta(&r, 1024, 32, 0), 1024);
        // A .maxntid that is not a multiple of the warp size stays when it fits.
        assert_eq!(max_threads_per_cta(&r, 100, 32, 0), 100);
        // Nothing fits beside 60 KB of shared memory.
        assert_eq!(max_threads_per_cta(&r, 1024, 8, 60 * 1024), 0);
    }
}
