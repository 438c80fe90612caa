//! The runtime's occupancy API answers from the modelled GPU's one occupancy rule,
//! `warpsim_core::occupancy` through [`Device::occupancy`](warpsim_core::device::Device::occupancy):
//! the CTAs per SM the timing model's dispatcher gives a launch of that shape, and the bound
//! the Device checks every launch (and every cooperative grid) against, in both modes. Both
//! presets follow GPGPU-Sim's rule (registers per thread rounded up to a multiple of 4 for the
//! warp-padded CTA, shared memory unrounded), not CUDA's calculator, so a program that sizes its
//! grid with `cudaOccupancyMaxActiveBlocksPerMultiprocessor` gets exactly what the model runs.

use crate::runtime::{diag, Runtime};
use crate::types::*;
use warpsim_core::occupancy;

/// Registers per thread of a kernel: `WARPSIM_REGISTERS`' count for it, else its cubin's
/// when the fatbinary had one.
pub fn regs_of(rt: &Runtime, stub: usize) -> Option<u32> {
    let f = rt.functions.get(&stub)?;
    if let Some(&(_, n)) = rt.config.registers.iter().find(|(k, _)| *k == f.name) {
        return Some(n);
    }
    rt.modules[f.module].images.regcounts.get(&f.name).copied()
}

/// `cudaOccupancyMaxActiveBlocksPerMultiprocessor` for a registered kernel: CTAs of
/// `threads` threads with `dynamic_shared` bytes of dynamic shared memory resident on one SM.
pub fn blocks_per_sm(
    rt: &mut Runtime,
    stub: usize,
    threads: u64,
    dynamic_shared: usize,
) -> Result<u32, cudaError_t> {
    // Resolving the kernel declares its registers to the Device (launch::kernel_of).
    let k = crate::launch::kernel_of(rt, stub)?;
    let threads = u32::try_from(threads).unwrap_or(u32::MAX);
    let dynamic_shared = u32::try_from(dynamic_shared).unwrap_or(u32::MAX);
    rt.device
        .occupancy(k, threads, dynamic_shared)
        .map(|(n, _)| n)
        .ok_or_else(no_gpu)
}

/// `cudaFuncAttributes::maxThreadsPerBlock`: the largest block of at most `limit` threads
/// (1024, or the kernel's `.maxntid`/`.reqntid`) one CTA of which fits on an SM with the
/// kernel's registers and static shared memory.
pub fn max_threads_per_block(
    rt: &mut Runtime,
    stub: usize,
    limit: u32,
) -> Result<u32, cudaError_t> {
    let k = crate::launch::kernel_of(rt, stub)?;
    let r = rt.device.options().sm.ok_or_else(no_gpu)?;
    let d = rt.device.demand(k, limit, 0);
    Ok(occupancy::max_threads_per_cta(
        &r,
        limit,
        d.registers,
        d.shared_bytes,
    ))
}

/// `cudaOccupancyAvailableDynamicSMemPerBlock`: the most dynamic shared memory a CTA of
/// `threads` threads may ask for so that `ctas` of them are still resident on one SM (and the
/// launch still valid: at most `max_dynamic` bytes, the per-block limit less the static
/// part, or the kernel's `cudaFuncAttributeMaxDynamicSharedMemorySize`).
/// `cudaErrorInvalidValue` when `ctas` do not fit even without dynamic shared memory, as
/// CUDA's calculator (`cudaOccAvailableDynamicSMemPerBlock`) refuses them.
pub fn available_dynamic_shared(
    rt: &mut Runtime,
    stub: usize,
    ctas: u32,
    threads: u32,
    max_dynamic: u32,
) -> Result<u32, cudaError_t> {
    let k = crate::launch::kernel_of(rt, stub)?;
    let fits = |rt: &Runtime, dynamic: u32| {
        rt.device
            .occupancy(k, threads, dynamic)
            .map(|(n, _)| n >= ctas)
            .ok_or_else(no_gpu)
    };
    if !fits(rt, 0)? {
        return Err(cudaErrorInvalidValue);
    }
    // The CTA count falls as the dynamic part grows: the largest that fits, by bisection.
    let (mut lo, mut hi) = (0u32, max_dynamic);
    while lo < hi {
        let mid = lo + (hi - lo).div_ceil(2);
        if fits(rt, mid)? {
            lo = mid;
        } else {
            hi = mid - 1;
        }
    }
    Ok(lo)
}

/// The runtime's device always models a GPU (`DeviceOptions::sm`); this is its absence.
fn no_gpu() -> cudaError_t {
    diag("the device models no GPU: occupancy is unknown");
    cudaErrorUnknown
}
