//! Unified and mapped memory: `cudaMallocManaged`, `__managed__` variables, mapped pinned
//! memory (`cudaHostGetDevicePointer`) and the managed-memory hints.
//!
//! The simulator runs inside the program's process, so memory host and device share is
//! simply host memory that kernels address directly: `Device::malloc_host_visible` hands out
//! allocations whose device address is the host address of their bytes (unified virtual
//! addressing, as on a 64-bit CUDA system). Launches run to completion inside the launch call,
//! so the program sees every kernel write once the launch returns, and certainly at
//! `cudaDeviceSynchronize`, CUDA's coherence point. The memory checker still bounds-checks
//! every kernel access against the allocation; the timing model times these accesses as
//! global memory (no PCIe or page-migration cost is modelled).
//!
//! Prefetching, advice and stream attachment change where pages live on a real GPU, never what
//! the program computes; with one copy of the bytes there is nothing to move, so they check
//! their arguments and do nothing.

use crate::runtime::{api, diag, put, ModuleState, Runtime};
use crate::types::*;
use std::ffi::{c_int, c_uint, c_void};
use warpsim_core::device::DevPtr;

const cudaMemAttachGlobal: c_uint = 1;
const cudaMemAttachHost: c_uint = 2;
const cudaMemAttachSingle: c_uint = 4;
/// `cudaMemAdviseSetReadMostly` (1) … `cudaMemAdviseUnsetAccessedBy` (6).
const ADVICE: std::ops::RangeInclusive<c_int> = 1..=6;

/// `struct cudaMemLocation` (CUDA 13 passes it by value).
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct cudaMemLocation {
    pub type_: c_int,
    pub id: c_int,
}

/// A `__managed__` variable: the program's shadow pointer (`*host_ptr` is where host code
/// reads the variable) and the variable it must point at.
#[derive(Debug)]
pub struct ManagedVar {
    pub module: usize,
    pub name: String,
    pub host_ptr: usize,
}

/// Points `v`'s shadow pointer at the variable's bytes, moving its module's variables into
/// host-visible memory first. Called at registration and again after `cudaDeviceReset`.
pub fn bind(rt: &mut Runtime, v: &ManagedVar) -> Result<(), String> {
    let ModuleState::Loaded(m) = rt.modules[v.module].state else {
        return Err(format!(
            "the module of __managed__ variable `{}` is not loaded",
            v.name
        ));
    };
    rt.device
        .make_globals_host_visible(m)
        .map_err(|e| e.to_string())?;
    let (p, _) = rt.device.symbol(m, &v.name).map_err(|e| e.to_string())?;
    // SAFETY: `host_ptr` is the address of the program's `void *` shadow of the variable,
    // handed to `__cudaRegisterManagedVar` for exactly this store.
    unsafe { (v.host_ptr as *mut *mut c_void).write_unaligned(p.0 as *mut c_void) };
    Ok(())
}

/// Whether `[p, p + count)` lies inside one managed or mapped allocation.
fn managed_range(rt: &Runtime, p: *const c_void, count: usize) -> bool {
    match rt.device.allocation_of(DevPtr(p as u64)) {
        Some((base, size)) => {
            rt.device.is_host_visible(base)
                && (p as u64 - base.0)
                    .checked_add(count as u64)
                    .is_some_and(|e| e <= size)
        }
        None => false,
    }
}

unsafe extern "C" fn cudaMallocManaged(
    ptr: *mut *mut c_void,
    size: usize,
    flags: c_uint,
) -> cudaError_t {
    api("cudaMallocManaged", |rt| {
        if ptr.is_null() || size == 0 || !matches!(flags, cudaMemAttachGlobal | cudaMemAttachHost) {
            return Err(cudaErrorInvalidValue);
        }
        let p = rt
            .device
            .malloc_host_visible(size as u64)
            .map_err(|_| cudaErrorMemoryAllocation)?;
        rt.managed_allocs.insert(p.0 as usize);
        put(ptr, p.0 as *mut c_void)
    })
}

/// The device address of mapped pinned memory: the host address itself (unified addressing).
unsafe extern "C" fn cudaHostGetDevicePointer(
    dev: *mut *mut c_void,
    host: *mut c_void,
    flags: c_uint,
) -> cudaError_t {
    api("cudaHostGetDevicePointer", |rt| {
        if flags != 0 || host.is_null() {
            return Err(cudaErrorInvalidValue);
        }
        let pinned = rt
            .device
            .allocation_of(DevPtr(host as u64))
            .is_some_and(|(b, _)| rt.host_allocs.contains_key(&(b.0 as usize)));
        if !pinned {
            diag(&format!(
                "cudaHostGetDevicePointer: {host:p} is not memory from cudaHostAlloc/cudaMallocHost (memory registered with cudaHostRegister is not device-accessible in warpsim)"
            ));
            return Err(cudaErrorInvalidValue);
        }
        put(dev, host)
    })
}

fn hint(
    rt: &mut Runtime,
    what: &str,
    p: *const c_void,
    count: usize,
    stream: Option<cudaStream_t>,
) -> Result<(), cudaError_t> {
    if let Some(s) = stream {
        if !rt.valid_stream(s) {
            return Err(cudaErrorInvalidResourceHandle);
        }
    }
    if count == 0 || !managed_range(rt, p, count) {
        diag(&format!(
            "{what}: [{p:p}, +{count}) is not inside one managed allocation"
        ));
        return Err(cudaErrorInvalidValue);
    }
    Ok(())
}

pub(crate) unsafe extern "C" fn cudaMemPrefetchAsync(
    p: *const c_void,
    count: usize,
    _to: cudaMemLocation,
    flags: c_uint,
    stream: cudaStream_t,
) -> cudaError_t {
    api("cudaMemPrefetchAsync", |rt| {
        if flags != 0 {
            return Err(cudaErrorInvalidValue);
        }
        hint(rt, "cudaMemPrefetchAsync", p, count, Some(stream))
    })
}

unsafe extern "C" fn cudaMemAdvise(
    p: *const c_void,
    count: usize,
    advice: c_int,
    _location: cudaMemLocation,
) -> cudaError_t {
    api("cudaMemAdvise", |rt| {
        if !ADVICE.contains(&advice) {
            return Err(cudaErrorInvalidValue);
        }
        hint(rt, "cudaMemAdvise", p, count, None)
    })
}

pub(crate) unsafe extern "C" fn cudaStreamAttachMemAsync(
    stream: cudaStream_t,
    p: *mut c_void,
    length: usize,
    flags: c_uint,
) -> cudaError_t {
    api("cudaStreamAttachMemAsync", |rt| {
        if !matches!(
            flags,
            cudaMemAttachGlobal | cudaMemAttachHost | cudaMemAttachSingle
        ) {
            return Err(cudaErrorInvalidValue);
        }
        // Length 0 means the whole allocation, which must start at `p`.
        let count = if length == 0 {
            match rt.device.allocation_of(DevPtr(p as u64)) {
                Some((b, size)) if b.0 == p as u64 => size as usize,
                _ => return Err(cudaErrorInvalidValue),
            }
        } else {
            length
        };
        hint(rt, "cudaStreamAttachMemAsync", p, count, Some(stream))
    })
}

export!(
    cudaMallocManaged,
    cudaHostGetDevicePointer,
    cudaMemPrefetchAsync,
    cudaMemAdvise,
    cudaStreamAttachMemAsync,
);
