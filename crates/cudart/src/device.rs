//! Device entry points: one device (number 0), its properties and attributes,
//! synchronisation and reset, kernel attributes and occupancy, limits and flags, versions.

use crate::occupancy;
use crate::props;
use crate::runtime::{api, diag, guard, lock, put, query};
use crate::types::*;
use std::ffi::{c_int, c_uint, c_void};

/// The runtime and driver version reported (CUDA 13.5).
pub const VERSION: c_int = 13050;

fn check_device(d: c_int) -> Result<(), cudaError_t> {
    if d == 0 {
        Ok(())
    } else {
        Err(cudaErrorInvalidDevice)
    }
}

unsafe extern "C" fn cudaGetDeviceCount(count: *mut c_int) -> cudaError_t {
    query("cudaGetDeviceCount", |_| put(count, 1))
}

unsafe extern "C" fn cudaSetDevice(device: c_int) -> cudaError_t {
    query("cudaSetDevice", |_| check_device(device))
}

unsafe extern "C" fn cudaGetDevice(device: *mut c_int) -> cudaError_t {
    query("cudaGetDevice", |_| put(device, 0))
}

unsafe extern "C" fn cudaInitDevice(device: c_int, _flags: c_uint, _flags2: c_uint) -> cudaError_t {
    query("cudaInitDevice", |_| check_device(device))
}

unsafe extern "C" fn cudaGetDeviceProperties(
    prop: *mut props::cudaDeviceProp,
    device: c_int,
) -> cudaError_t {
    query("cudaGetDeviceProperties", |rt| {
        check_device(device)?;
        put(prop, props::properties(&rt.limits_of_gpu()))
    })
}

unsafe extern "C" fn cudaDeviceGetAttribute(
    value: *mut c_int,
    attr: c_int,
    device: c_int,
) -> cudaError_t {
    query("cudaDeviceGetAttribute", |rt| {
        check_device(device)?;
        put(
            value,
            props::attribute(&rt.limits_of_gpu(), attr).ok_or(cudaErrorInvalidValue)?,
        )
    })
}

/// Everything ran when it was called: only a sticky error is left to report.
unsafe extern "C" fn cudaDeviceSynchronize() -> cudaError_t {
    api("cudaDeviceSynchronize", |rt| {
        crate::capture::refuse_sync(rt, "cudaDeviceSynchronize", None)
    })
}

unsafe extern "C" fn cudaDeviceReset() -> cudaError_t {
    guard("cudaDeviceReset", cudaErrorUnknown, || {
        lock().reset();
        cudaSuccess
    })
}

unsafe extern "C" fn cudaFuncGetAttributes(
    attr: *mut cudaFuncAttributes,
    func: *const c_void,
) -> cudaError_t {
    query("cudaFuncGetAttributes", |rt| {
        if attr.is_null() {
            return Err(cudaErrorInvalidValue);
        }
        let k = crate::launch::kernel_of(rt, func as usize)?;
        let regs = occupancy::regs_of(rt, func as usize).unwrap_or(0);
        // Threads per block: 1024, the kernel's .maxntid/.reqntid, and what one SM holds of a
        // CTA with its registers and static shared memory (the occupancy rule launches are
        // checked with).
        let info = rt.device.kernel_info(k);
        let mut limit = props::MAX_THREADS_PER_BLOCK as u64;
        if let Some(m) = info.maxntid.or(info.reqntid) {
            limit = limit.min(m.iter().map(|&d| d as u64).product());
        }
        let max_threads = occupancy::max_threads_per_block(rt, func as usize, limit as u32)?;
        let f = &rt.functions[&(func as usize)];
        let images = &rt.modules[f.module].images;
        let ptx_sm = images.ptx.as_ref().map(|(sm, _)| *sm as i32).unwrap_or(0);
        let binary = images
            .elf_targets
            .iter()
            .copied()
            .max()
            .map(|s| s as i32)
            .unwrap_or(ptx_sm);
        let info = rt.device.kernel_info(k);
        let static_shared = info.shared_bytes as usize;
        let max_dyn = f.max_dynamic_shared.map(|v| v as usize).unwrap_or(
            rt.limits_of_gpu()
                .shared_per_block
                .saturating_sub(static_shared),
        );
        let a = cudaFuncAttributes {
            sharedSizeBytes: static_shared,
            constSizeBytes: 0,
            localSizeBytes: info.frame_bytes as usize,
            maxThreadsPerBlock: max_threads as i32,
            numRegs: regs as i32,
            ptxVersion: ptx_sm,
            binaryVersion: binary,
            cacheModeCA: 0,
            maxDynamicSharedSizeBytes: max_dyn as i32,
            preferredShmemCarveout: -1,
            clusterDimMustBeSet: 0,
            requiredClusterWidth: 0,
            requiredClusterHeight: 0,
            requiredClusterDepth: 0,
            clusterSchedulingPolicyPreference: 0,
            nonPortableClusterSizeAllowed: 0,
            deviceNodeUpdateStatus: 0,
            sharedMemoryMode: 0,
            reserved: [0; 14],
        };
        put(attr, a)
    })
}

/// `cudaFuncAttributeMaxDynamicSharedMemorySize` (8) is checked against the 48 KB a CTA may
/// use and applied; the carveout (9) is a hint and accepted; the rest are not supported.
pub(crate) unsafe extern "C" fn cudaFuncSetAttribute(
    func: *const c_void,
    attr: c_int,
    value: c_int,
) -> cudaError_t {
    query("cudaFuncSetAttribute", |rt| {
        let k = crate::launch::kernel_of(rt, func as usize)?;
        let static_shared = rt.device.kernel_info(k).shared_bytes as i64;
        match attr {
            8 => {
                if value < 0
                    || value as i64 + static_shared > rt.limits_of_gpu().shared_per_block as i64
                {
                    return Err(cudaErrorInvalidValue);
                }
                rt.functions
                    .get_mut(&(func as usize))
                    .expect("resolved above")
                    .max_dynamic_shared = Some(value as u32);
                Ok(())
            }
            9 => {
                if (-1..=100).contains(&value) {
                    Ok(())
                } else {
                    Err(cudaErrorInvalidValue)
                }
            }
            _ => Err(cudaErrorInvalidValue),
        }
    })
}

/// Cache configuration is a hint with no functional effect.
unsafe extern "C" fn cudaFuncSetCacheConfig(func: *const c_void, _config: c_int) -> cudaError_t {
    query("cudaFuncSetCacheConfig", |rt| {
        crate::launch::kernel_of(rt, func as usize).map(|_| ())
    })
}

/// There is one device, whatever the wish list.
unsafe extern "C" fn cudaChooseDevice(
    device: *mut c_int,
    _prop: *const props::cudaDeviceProp,
) -> cudaError_t {
    query("cudaChooseDevice", |_| put(device, 0))
}

/// Shared-memory bank configuration is a hint with no functional effect.
unsafe extern "C" fn cudaDeviceSetSharedMemConfig(_config: c_int) -> cudaError_t {
    query("cudaDeviceSetSharedMemConfig", |_| Ok(()))
}

unsafe extern "C" fn cudaDeviceGetSharedMemConfig(config: *mut c_int) -> cudaError_t {
    query("cudaDeviceGetSharedMemConfig", |_| put(config, 1)) // cudaSharedMemBankSizeFourByte
}

unsafe extern "C" fn cudaFuncSetSharedMemConfig(
    func: *const c_void,
    _config: c_int,
) -> cudaError_t {
    query("cudaFuncSetSharedMemConfig", |rt| {
        crate::launch::kernel_of(rt, func as usize).map(|_| ())
    })
}

/// The (mangled) device name of a kernel, as registered.
unsafe extern "C" fn cudaFuncGetName(
    name: *mut *const std::ffi::c_char,
    func: *const c_void,
) -> cudaError_t {
    query("cudaFuncGetName", |rt| {
        let f = rt
            .functions
            .get(&(func as usize))
            .ok_or(cudaErrorInvalidDeviceFunction)?;
        put(name, f.c_name.as_ptr())
    })
}

unsafe extern "C" fn cudaDeviceSetCacheConfig(_config: c_int) -> cudaError_t {
    query("cudaDeviceSetCacheConfig", |_| Ok(()))
}

unsafe extern "C" fn cudaDeviceGetCacheConfig(config: *mut c_int) -> cudaError_t {
    query("cudaDeviceGetCacheConfig", |_| put(config, 0))
}

unsafe extern "C" fn cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(
    blocks: *mut c_int,
    func: *const c_void,
    block_size: c_int,
    dynamic_shared: usize,
    _flags: c_uint,
) -> cudaError_t {
    query("cudaOccupancyMaxActiveBlocksPerMultiprocessor", |rt| {
        if blocks.is_null() || block_size <= 0 {
            return Err(cudaErrorInvalidValue);
        }
        let n = occupancy::blocks_per_sm(rt, func as usize, block_size as u64, dynamic_shared)?;
        put(blocks, n as c_int)
    })
}

unsafe extern "C" fn cudaOccupancyMaxActiveBlocksPerMultiprocessor(
    blocks: *mut c_int,
    func: *const c_void,
    block_size: c_int,
    dynamic_shared: usize,
) -> cudaError_t {
    cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(
        blocks,
        func,
        block_size,
        dynamic_shared,
        0,
    )
}

unsafe extern "C" fn cudaOccupancyAvailableDynamicSMemPerBlock(
    size: *mut usize,
    func: *const c_void,
    num_blocks: c_int,
    block_size: c_int,
) -> cudaError_t {
    query("cudaOccupancyAvailableDynamicSMemPerBlock", |rt| {
        if num_blocks <= 0 || block_size <= 0 {
            return Err(cudaErrorInvalidValue);
        }
        let k = crate::launch::kernel_of(rt, func as usize)?;
        let static_shared = rt.device.kernel_info(k).shared_bytes;
        let max_dynamic = match rt.functions[&(func as usize)].max_dynamic_shared {
            Some(v) => v,
            None => (rt.limits_of_gpu().shared_per_block as u32).saturating_sub(static_shared),
        };
        let n = occupancy::available_dynamic_shared(
            rt,
            func as usize,
            num_blocks as u32,
            block_size as u32,
            max_dynamic,
        )?;
        put(size, n as usize)
    })
}

/// Limits: the stack size sets the per-thread local-memory limit of launches, the malloc heap
/// size the device heap (refused with `cudaErrorInvalidValue` once a kernel that uses device
/// `malloc`/`free` has been launched, as CUDA documents and an H200 does); the printf
/// FIFO size is recorded (warpsim's printf buffer is unbounded).
unsafe extern "C" fn cudaDeviceSetLimit(limit: c_int, value: usize) -> cudaError_t {
    api("cudaDeviceSetLimit", |rt| match limit {
        0 => {
            // warpsim's limit covers all per-thread local memory (frames and local arrays), so
            // a request only ever raises it.
            let v = u32::try_from(value).map_err(|_| cudaErrorInvalidValue)?;
            let o = rt.device.options_mut();
            o.local_limit = o.local_limit.max(v);
            rt.limits.insert(limit, value);
            Ok(())
        }
        2 => rt.device.set_heap_size(value as u64).map_err(|e| {
            diag(&format!("cudaDeviceSetLimit(cudaLimitMallocHeapSize): {e}"));
            cudaErrorInvalidValue
        }),
        1 | 3 | 4 | 0x0A => {
            rt.limits.insert(limit, value);
            Ok(())
        }
        _ => Err(cudaErrorUnsupportedLimit),
    })
}

unsafe extern "C" fn cudaDeviceGetLimit(value: *mut usize, limit: c_int) -> cudaError_t {
    query("cudaDeviceGetLimit", |rt| {
        let v = match limit {
            0 => rt.device.options().local_limit as usize,
            1 => rt.limits.get(&1).copied().unwrap_or(1 << 20),
            2 => rt.device.heap_size() as usize,
            3 => rt.limits.get(&3).copied().unwrap_or(2),
            4 => rt.limits.get(&4).copied().unwrap_or(2048),
            0x0A => rt
                .limits
                .get(&0x0A)
                .copied()
                .unwrap_or(rt.limits_of_gpu().shared_per_block),
            _ => return Err(cudaErrorUnsupportedLimit),
        };
        put(value, v)
    })
}

unsafe extern "C" fn cudaSetDeviceFlags(flags: c_uint) -> cudaError_t {
    query("cudaSetDeviceFlags", |rt| {
        rt.device_flags = flags;
        Ok(())
    })
}

unsafe extern "C" fn cudaGetDeviceFlags(flags: *mut c_uint) -> cudaError_t {
    query("cudaGetDeviceFlags", |rt| put(flags, rt.device_flags))
}

unsafe extern "C" fn cudaRuntimeGetVersion(version: *mut c_int) -> cudaError_t {
    query("cudaRuntimeGetVersion", |_| put(version, VERSION))
}

unsafe extern "C" fn cudaDriverGetVersion(version: *mut c_int) -> cudaError_t {
    query("cudaDriverGetVersion", |_| put(version, VERSION))
}

unsafe extern "C" fn cudaDeviceGetStreamPriorityRange(
    least: *mut c_int,
    greatest: *mut c_int,
) -> cudaError_t {
    query("cudaDeviceGetStreamPriorityRange", |_| {
        if !least.is_null() {
            *least = 0;
        }
        if !greatest.is_null() {
            *greatest = 0;
        }
        Ok(())
    })
}

unsafe extern "C" fn cudaDeviceCanAccessPeer(
    can: *mut c_int,
    _device: c_int,
    _peer: c_int,
) -> cudaError_t {
    query("cudaDeviceCanAccessPeer", |_| put(can, 0))
}

unsafe extern "C" fn cudaProfilerStart() -> cudaError_t {
    cudaSuccess
}

unsafe extern "C" fn cudaProfilerStop() -> cudaError_t {
    cudaSuccess
}

export!(
    cudaGetDeviceCount,
    cudaSetDevice,
    cudaGetDevice,
    cudaInitDevice,
    cudaGetDeviceProperties,
    cudaDeviceGetAttribute,
    cudaDeviceSynchronize,
    cudaChooseDevice,
    cudaDeviceSetSharedMemConfig,
    cudaDeviceGetSharedMemConfig,
    cudaFuncSetSharedMemConfig,
    cudaFuncGetName,
    cudaDeviceReset,
    cudaFuncGetAttributes,
    cudaFuncSetAttribute,
    cudaFuncSetCacheConfig,
    cudaDeviceSetCacheConfig,
    cudaDeviceGetCacheConfig,
    cudaOccupancyMaxActiveBlocksPerMultiprocessor,
    cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags,
    cudaOccupancyAvailableDynamicSMemPerBlock,
    cudaDeviceSetLimit,
    cudaDeviceGetLimit,
    cudaSetDeviceFlags,
    cudaGetDeviceFlags,
    cudaRuntimeGetVersion,
    cudaDriverGetVersion,
    cudaDeviceGetStreamPriorityRange,
    cudaDeviceCanAccessPeer,
    cudaProfilerStart,
    cudaProfilerStop,
);
