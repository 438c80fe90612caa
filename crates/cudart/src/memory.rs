//! Memory entry points: device and pinned-host allocation, copies of every kind, memset,
//! symbol copies, pitched 2D variants, pointer attributes.
//!
//! Device pointers are addresses inside `warpsim_core::ir::layout::GLOBAL_BASE..GLOBAL_LIMIT`;
//! managed and pinned host memory (`src/managed.rs`) is both, at host addresses the device
//! knows; anything else is a host pointer. That is how `cudaMemcpyDefault` picks the direction,
//! and how a copy whose kind contradicts its pointers is caught (`cudaErrorInvalidValue`).
//! Copies are synchronous; the `Async` forms only check their stream, unless it is capturing a
//! graph (`capture.rs`): then they are recorded as graph nodes.

use crate::capture::capturing;
use crate::graphs::{Copy3d, NodeKind};
use crate::runtime::{api, diag, put, query, ModuleState, Runtime, TOTAL_MEMORY};
use crate::types::*;
use std::ffi::{c_int, c_uint, c_void};
use warpsim_core::device::{DevPtr, DeviceError};
use warpsim_core::ir::layout::{GLOBAL_BASE, GLOBAL_LIMIT};

/// Pitch of `cudaMallocPitch` rows.
pub(crate) const PITCH_ALIGN: usize = 512;
/// `cudaHostAllocPortable | cudaHostAllocMapped | cudaHostAllocWriteCombined`.
const HOST_ALLOC_FLAGS: c_uint = 0x7;

pub fn is_device(p: *const c_void) -> bool {
    (GLOBAL_BASE..GLOBAL_LIMIT).contains(&(p as u64))
}

/// Who can use a pointer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Side {
    Device,
    Host,
    /// Managed or pinned (mapped) memory: a valid pointer on both sides.
    Both,
}

fn side(rt: &Runtime, p: *const c_void) -> Side {
    if is_device(p) {
        Side::Device
    } else if rt.device.is_host_visible(DevPtr(p as u64)) {
        Side::Both
    } else {
        Side::Host
    }
}

fn kind_name(kind: c_int) -> &'static str {
    match kind {
        cudaMemcpyHostToHost => "cudaMemcpyHostToHost",
        cudaMemcpyHostToDevice => "cudaMemcpyHostToDevice",
        cudaMemcpyDeviceToHost => "cudaMemcpyDeviceToHost",
        cudaMemcpyDeviceToDevice => "cudaMemcpyDeviceToDevice",
        _ => "cudaMemcpyDefault",
    }
}

fn bad_pointer(what: &str, e: DeviceError) -> cudaError_t {
    diag(&format!("{what}: {e}"));
    cudaErrorInvalidValue
}

/// A copy of `count` bytes in the direction `kind` implies, checked against the pointers.
pub unsafe fn copy(
    rt: &mut Runtime,
    what: &str,
    dst: *mut c_void,
    src: *const c_void,
    count: usize,
    kind: c_int,
) -> Result<(), cudaError_t> {
    if !(cudaMemcpyHostToHost..=cudaMemcpyDefault).contains(&kind) {
        diag(&format!("{what}: {kind} is not a cudaMemcpyKind"));
        return Err(cudaErrorInvalidMemcpyDirection);
    }
    if count == 0 {
        return Ok(());
    }
    if dst.is_null() || src.is_null() {
        diag(&format!(
            "{what}: null {} pointer",
            if dst.is_null() {
                "destination"
            } else {
                "source"
            }
        ));
        return Err(cudaErrorInvalidValue);
    }
    let (ds, ss) = (side(rt, dst), side(rt, src));
    let expected = match kind {
        cudaMemcpyHostToHost => Some((false, false)),
        cudaMemcpyHostToDevice => Some((true, false)),
        cudaMemcpyDeviceToHost => Some((false, true)),
        cudaMemcpyDeviceToDevice => Some((true, true)),
        _ => None,
    };
    if let Some((ed, es)) = expected {
        let side_name = |s: Side| {
            if s == Side::Device {
                "a device"
            } else {
                "a host"
            }
        };
        if ds != Side::Both && ed != (ds == Side::Device) {
            diag(&format!(
                "{what}: {} but the destination {dst:p} is {} pointer",
                kind_name(kind),
                side_name(ds)
            ));
            return Err(cudaErrorInvalidValue);
        }
        if ss != Side::Both && es != (ss == Side::Device) {
            diag(&format!(
                "{what}: {} but the source {src:p} is {} pointer",
                kind_name(kind),
                side_name(ss)
            ));
            return Err(cudaErrorInvalidValue);
        }
    }
    // Memory both sides can use goes through the device, which bounds-checks it.
    let (dd, sd) = (ds != Side::Host, ss != Side::Host);
    let dev = &mut rt.device;
    match (dd, sd) {
        (false, false) => std::ptr::copy(src as *const u8, dst as *mut u8, count),
        (true, false) => {
            let data = std::slice::from_raw_parts(src as *const u8, count);
            dev.write(DevPtr(dst as u64), data)
                .map_err(|e| bad_pointer(what, e))?
        }
        (false, true) => {
            let out = std::slice::from_raw_parts_mut(dst as *mut u8, count);
            dev.read(DevPtr(src as u64), out)
                .map_err(|e| bad_pointer(what, e))?
        }
        (true, true) => dev
            .copy(DevPtr(dst as u64), DevPtr(src as u64), count as u64)
            .map_err(|e| bad_pointer(what, e))?,
    }
    Ok(())
}

/// Records a copy on a capturing stream (its kind is checked now, its pointers when it runs).
fn capture_copy(rt: &mut Runtime, stream: cudaStream_t, c: Copy3d) -> Result<(), cudaError_t> {
    if !(cudaMemcpyHostToHost..=cudaMemcpyDefault).contains(&c.kind) {
        return Err(cudaErrorInvalidMemcpyDirection);
    }
    crate::capture::capture(rt, stream, NodeKind::Copy(c))
}

fn check_stream(rt: &Runtime, s: cudaStream_t) -> Result<(), cudaError_t> {
    if rt.valid_stream(s) {
        Ok(())
    } else {
        Err(cudaErrorInvalidResourceHandle)
    }
}

/// Address and size of a registered `__device__`/`__constant__` variable.
pub fn symbol(
    rt: &Runtime,
    what: &str,
    sym: *const c_void,
) -> Result<(DevPtr, usize), cudaError_t> {
    let Some(v) = rt.vars.get(&(sym as usize)) else {
        diag(&format!(
            "{what}: {sym:p} is not a registered __device__ or __constant__ variable"
        ));
        return Err(cudaErrorInvalidSymbol);
    };
    let ModuleState::Loaded(m) = rt.modules[v.module].state else {
        diag(&format!("{what}: the module of `{}` is not loaded", v.name));
        return Err(cudaErrorInvalidSymbol);
    };
    match rt.device.symbol(m, &v.name) {
        Ok((p, size)) => Ok((p, size as usize)),
        Err(e) => {
            diag(&format!("{what}: {e}"));
            Err(cudaErrorInvalidSymbol)
        }
    }
}

pub fn symbol_range(
    rt: &Runtime,
    what: &str,
    sym: *const c_void,
    count: usize,
    offset: usize,
) -> Result<*mut c_void, cudaError_t> {
    let (p, size) = symbol(rt, what, sym)?;
    if !matches!(offset.checked_add(count), Some(end) if end <= size) {
        diag(&format!(
            "{what}: {count} bytes at offset {offset} overrun the {size}-byte variable"
        ));
        return Err(cudaErrorInvalidValue);
    }
    Ok(p.offset(offset as u64).0 as *mut c_void)
}

/// Which way a copy to or from a `__device__` variable goes.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum SymbolCopy {
    /// `cudaMemcpyToSymbol`: the variable is written.
    To,
    /// `cudaMemcpyFromSymbol`: the variable is read.
    From,
}

/// The device range of a copy of `count` bytes at `offset` to or from `__device__` variable
/// `sym`, once `kind` is a direction that can write (`To`) or read (`From`) device memory.
pub fn symbol_copy_range(
    rt: &Runtime,
    what: &str,
    sym: *const c_void,
    count: usize,
    offset: usize,
    kind: c_int,
    way: SymbolCopy,
) -> Result<*mut c_void, cudaError_t> {
    let host_side = match way {
        SymbolCopy::To => cudaMemcpyHostToDevice,
        SymbolCopy::From => cudaMemcpyDeviceToHost,
    };
    if kind != host_side && kind != cudaMemcpyDeviceToDevice && kind != cudaMemcpyDefault {
        return Err(cudaErrorInvalidMemcpyDirection);
    }
    symbol_range(rt, what, sym, count, offset)
}

unsafe extern "C" fn cudaMalloc(ptr: *mut *mut c_void, size: usize) -> cudaError_t {
    api("cudaMalloc", |rt| {
        if ptr.is_null() {
            return Err(cudaErrorInvalidValue);
        }
        if size == 0 {
            return put(ptr, std::ptr::null_mut());
        }
        if rt.device.memory_in_use().saturating_add(size as u64) > TOTAL_MEMORY {
            return Err(cudaErrorMemoryAllocation);
        }
        let p = rt
            .device
            .malloc(size as u64)
            .map_err(|_| cudaErrorMemoryAllocation)?;
        put(ptr, p.0 as *mut c_void)
    })
}

unsafe extern "C" fn cudaFree(ptr: *mut c_void) -> cudaError_t {
    api("cudaFree", |rt| {
        if ptr.is_null() {
            return Ok(());
        }
        if rt.objects.arrays.contains_key(&(ptr as usize)) {
            diag(&format!(
                "cudaFree: {ptr:p} is a CUDA array (free it with cudaFreeArray)"
            ));
            return Err(cudaErrorInvalidValue);
        }
        if let Some(r) = crate::graph_mem::free(rt, ptr as usize) {
            return r;
        }
        let managed = rt.managed_allocs.remove(&(ptr as usize));
        if !is_device(ptr) && !managed {
            diag(&format!("cudaFree: {ptr:p} is not a device pointer"));
            return Err(cudaErrorInvalidValue);
        }
        rt.device.free(DevPtr(ptr as u64)).map_err(|_| {
            diag(&format!(
                "cudaFree: {ptr:p} is not the start of a live allocation"
            ));
            cudaErrorInvalidValue
        })
    })
}

/// Pinned host memory is device-accessible (mapped) whatever the flags, as every pinned
/// allocation is on a system with unified addressing; the device pointer is the host pointer.
unsafe fn host_alloc(
    rt: &mut Runtime,
    ptr: *mut *mut c_void,
    size: usize,
    flags: c_uint,
    call: &'static str,
) -> Result<(), cudaError_t> {
    if ptr.is_null() || flags & !HOST_ALLOC_FLAGS != 0 {
        return Err(cudaErrorInvalidValue);
    }
    let p = rt
        .device
        .malloc_host_visible_by(size as u64, call)
        .map_err(|_| cudaErrorMemoryAllocation)?;
    rt.host_allocs.insert(p.0 as usize, flags);
    put(ptr, p.0 as *mut c_void)
}

unsafe extern "C" fn cudaMallocHost(ptr: *mut *mut c_void, size: usize) -> cudaError_t {
    api("cudaMallocHost", |rt| {
        host_alloc(rt, ptr, size, 0, "cudaMallocHost")
    })
}

unsafe extern "C" fn cudaHostAlloc(
    ptr: *mut *mut c_void,
    size: usize,
    flags: c_uint,
) -> cudaError_t {
    api("cudaHostAlloc", |rt| {
        host_alloc(rt, ptr, size, flags, "cudaHostAlloc")
    })
}

unsafe extern "C" fn cudaFreeHost(ptr: *mut c_void) -> cudaError_t {
    api("cudaFreeHost", |rt| {
        if ptr.is_null() {
            return Ok(());
        }
        if rt.host_allocs.remove(&(ptr as usize)).is_none() {
            diag(&format!(
                "cudaFreeHost: {ptr:p} was not allocated by cudaMallocHost/cudaHostAlloc"
            ));
            return Err(cudaErrorInvalidValue);
        }
        rt.device
            .free_by(DevPtr(ptr as u64), "cudaFreeHost")
            .map_err(|_| cudaErrorInvalidValue)
    })
}

/// Page-locking is meaningless here: registration succeeds and changes nothing.
unsafe extern "C" fn cudaHostRegister(
    ptr: *mut c_void,
    size: usize,
    _flags: c_uint,
) -> cudaError_t {
    api("cudaHostRegister", |_| {
        if ptr.is_null() || size == 0 {
            Err(cudaErrorInvalidValue)
        } else {
            Ok(())
        }
    })
}

unsafe extern "C" fn cudaHostUnregister(ptr: *mut c_void) -> cudaError_t {
    api("cudaHostUnregister", |_| {
        if ptr.is_null() {
            Err(cudaErrorInvalidValue)
        } else {
            Ok(())
        }
    })
}

unsafe extern "C" fn cudaHostGetFlags(flags: *mut c_uint, host: *mut c_void) -> cudaError_t {
    api("cudaHostGetFlags", |rt| {
        let Some(&f) = rt.host_allocs.get(&(host as usize)) else {
            return Err(cudaErrorInvalidValue);
        };
        put(flags, f)
    })
}

pub(crate) unsafe extern "C" fn cudaMemcpy(
    dst: *mut c_void,
    src: *const c_void,
    count: usize,
    kind: c_int,
) -> cudaError_t {
    api("cudaMemcpy", |rt| {
        copy(rt, "cudaMemcpy", dst, src, count, kind)
    })
}

pub(crate) unsafe extern "C" fn cudaMemcpyAsync(
    dst: *mut c_void,
    src: *const c_void,
    count: usize,
    kind: c_int,
    stream: cudaStream_t,
) -> cudaError_t {
    api("cudaMemcpyAsync", |rt| {
        check_stream(rt, stream)?;
        if capturing(rt, stream) {
            return capture_copy(rt, stream, Copy3d::linear(dst, src, count, kind));
        }
        copy(rt, "cudaMemcpyAsync", dst, src, count, kind)
    })
}

pub unsafe fn memset(
    rt: &mut Runtime,
    what: &str,
    ptr: *mut c_void,
    value: c_int,
    count: usize,
) -> Result<(), cudaError_t> {
    if count == 0 {
        return Ok(());
    }
    if side(rt, ptr) == Side::Host {
        diag(&format!("{what}: {ptr:p} is not a device pointer"));
        return Err(cudaErrorInvalidValue);
    }
    rt.device
        .memset(DevPtr(ptr as u64), value as u8, count as u64)
        .map_err(|e| bad_pointer(what, e))
}

pub(crate) unsafe extern "C" fn cudaMemset(
    ptr: *mut c_void,
    value: c_int,
    count: usize,
) -> cudaError_t {
    api("cudaMemset", |rt| {
        memset(rt, "cudaMemset", ptr, value, count)
    })
}

pub(crate) unsafe extern "C" fn cudaMemsetAsync(
    ptr: *mut c_void,
    value: c_int,
    count: usize,
    stream: cudaStream_t,
) -> cudaError_t {
    api("cudaMemsetAsync", |rt| {
        check_stream(rt, stream)?;
        if capturing(rt, stream) {
            let node = NodeKind::Memset {
                dst: ptr as usize,
                pitch: count,
                value: value as u8 as u32,
                element_size: 1,
                width: count,
                height: 1,
            };
            return crate::capture::capture(rt, stream, node);
        }
        memset(rt, "cudaMemsetAsync", ptr, value, count)
    })
}

unsafe fn to_symbol(
    rt: &mut Runtime,
    what: &str,
    sym: *const c_void,
    src: *const c_void,
    count: usize,
    offset: usize,
    kind: c_int,
) -> Result<(), cudaError_t> {
    let dst = symbol_copy_range(rt, what, sym, count, offset, kind, SymbolCopy::To)?;
    copy(rt, what, dst, src, count, kind)
}

unsafe fn from_symbol(
    rt: &mut Runtime,
    what: &str,
    dst: *mut c_void,
    sym: *const c_void,
    count: usize,
    offset: usize,
    kind: c_int,
) -> Result<(), cudaError_t> {
    let src = symbol_copy_range(rt, what, sym, count, offset, kind, SymbolCopy::From)?;
    copy(rt, what, dst, src, count, kind)
}

pub(crate) unsafe extern "C" fn cudaMemcpyToSymbol(
    sym: *const c_void,
    src: *const c_void,
    count: usize,
    offset: usize,
    kind: c_int,
) -> cudaError_t {
    api("cudaMemcpyToSymbol", |rt| {
        to_symbol(rt, "cudaMemcpyToSymbol", sym, src, count, offset, kind)
    })
}

pub(crate) unsafe extern "C" fn cudaMemcpyFromSymbol(
    dst: *mut c_void,
    sym: *const c_void,
    count: usize,
    offset: usize,
    kind: c_int,
) -> cudaError_t {
    api("cudaMemcpyFromSymbol", |rt| {
        from_symbol(rt, "cudaMemcpyFromSymbol", dst, sym, count, offset, kind)
    })
}

pub(crate) unsafe extern "C" fn cudaMemcpyToSymbolAsync(
    sym: *const c_void,
    src: *const c_void,
    count: usize,
    offset: usize,
    kind: c_int,
    stream: cudaStream_t,
) -> cudaError_t {
    api("cudaMemcpyToSymbolAsync", |rt| {
        check_stream(rt, stream)?;
        if capturing(rt, stream) {
            let dst = symbol_range(rt, "cudaMemcpyToSymbolAsync", sym, count, offset)?;
            return capture_copy(rt, stream, Copy3d::linear(dst, src, count, kind));
        }
        to_symbol(rt, "cudaMemcpyToSymbolAsync", sym, src, count, offset, kind)
    })
}

pub(crate) unsafe extern "C" fn cudaMemcpyFromSymbolAsync(
    dst: *mut c_void,
    sym: *const c_void,
    count: usize,
    offset: usize,
    kind: c_int,
    stream: cudaStream_t,
) -> cudaError_t {
    api("cudaMemcpyFromSymbolAsync", |rt| {
        check_stream(rt, stream)?;
        if capturing(rt, stream) {
            let src = symbol_range(rt, "cudaMemcpyFromSymbolAsync", sym, count, offset)?;
            return capture_copy(rt, stream, Copy3d::linear(dst, src, count, kind));
        }
        from_symbol(
            rt,
            "cudaMemcpyFromSymbolAsync",
            dst,
            sym,
            count,
            offset,
            kind,
        )
    })
}

unsafe extern "C" fn cudaGetSymbolAddress(
    dev_ptr: *mut *mut c_void,
    sym: *const c_void,
) -> cudaError_t {
    api("cudaGetSymbolAddress", |rt| {
        let (p, _) = symbol(rt, "cudaGetSymbolAddress", sym)?;
        put(dev_ptr, p.0 as *mut c_void)
    })
}

unsafe extern "C" fn cudaGetSymbolSize(size: *mut usize, sym: *const c_void) -> cudaError_t {
    api("cudaGetSymbolSize", |rt| {
        let (_, s) = symbol(rt, "cudaGetSymbolSize", sym)?;
        put(size, s)
    })
}

unsafe extern "C" fn cudaMemGetInfo(free: *mut usize, total: *mut usize) -> cudaError_t {
    api("cudaMemGetInfo", |rt| {
        let used = rt.device.memory_in_use().min(TOTAL_MEMORY);
        put(free, (TOTAL_MEMORY - used) as usize)?;
        put(total, TOTAL_MEMORY as usize)
    })
}

unsafe extern "C" fn cudaMallocPitch(
    ptr: *mut *mut c_void,
    pitch: *mut usize,
    width: usize,
    height: usize,
) -> cudaError_t {
    api("cudaMallocPitch", |rt| {
        if ptr.is_null() || pitch.is_null() {
            return Err(cudaErrorInvalidValue);
        }
        let p = width.max(1).div_ceil(PITCH_ALIGN) * PITCH_ALIGN;
        let bytes = p.checked_mul(height).ok_or(cudaErrorMemoryAllocation)?;
        if rt.device.memory_in_use().saturating_add(bytes as u64) > TOTAL_MEMORY {
            return Err(cudaErrorMemoryAllocation);
        }
        let d = if bytes == 0 {
            0
        } else {
            rt.device
                .malloc_by(bytes as u64, "cudaMallocPitch")
                .map_err(|_| cudaErrorMemoryAllocation)?
                .0
        };
        put(pitch, p)?;
        put(ptr, d as *mut c_void)
    })
}

/// A 2-D copy row by row. A width above either pitch is `cudaErrorInvalidValue`, not
/// `cudaErrorInvalidPitchValue` (measured on an H200, CUDA 13.0 driver, 2026-11-28:
/// `cudaMemcpy2D` of one 8-byte row with a 4-byte pitch); the other 2-D/3-D copies and
/// `cudaMemset2D` follow the same rule.
// The `cudaMemcpy2D` entry points' own arguments, passed through.
#[allow(clippy::too_many_arguments)]
pub unsafe fn copy_2d(
    rt: &mut Runtime,
    what: &str,
    dst: *mut c_void,
    dpitch: usize,
    src: *const c_void,
    spitch: usize,
    width: usize,
    height: usize,
    kind: c_int,
) -> Result<(), cudaError_t> {
    if width > dpitch || width > spitch {
        diag(&format!(
            "{what}: width {width} exceeds a pitch (dst {dpitch}, src {spitch})"
        ));
        return Err(cudaErrorInvalidValue);
    }
    for row in 0..height {
        let d = (dst as *mut u8).wrapping_add(row * dpitch) as *mut c_void;
        let s = (src as *const u8).wrapping_add(row * spitch) as *const c_void;
        copy(rt, what, d, s, width, kind)?;
    }
    Ok(())
}

pub(crate) unsafe extern "C" fn cudaMemcpy2D(
    dst: *mut c_void,
    dpitch: usize,
    src: *const c_void,
    spitch: usize,
    width: usize,
    height: usize,
    kind: c_int,
) -> cudaError_t {
    api("cudaMemcpy2D", |rt| {
        copy_2d(
            rt,
            "cudaMemcpy2D",
            dst,
            dpitch,
            src,
            spitch,
            width,
            height,
            kind,
        )
    })
}

// An entry point: the parameters are CUDA's C signature.
#[allow(clippy::too_many_arguments)]
pub(crate) unsafe extern "C" fn cudaMemcpy2DAsync(
    dst: *mut c_void,
    dpitch: usize,
    src: *const c_void,
    spitch: usize,
    width: usize,
    height: usize,
    kind: c_int,
    stream: cudaStream_t,
) -> cudaError_t {
    api("cudaMemcpy2DAsync", |rt| {
        check_stream(rt, stream)?;
        if capturing(rt, stream) {
            if width > dpitch || width > spitch {
                return Err(cudaErrorInvalidValue);
            }
            let (dst, src) = (dst as usize, src as usize);
            let c = Copy3d {
                dst,
                dpitch,
                dslice: dpitch * height,
                src,
                spitch,
                sslice: spitch * height,
                width,
                height,
                depth: 1,
                kind,
            };
            return capture_copy(rt, stream, c);
        }
        copy_2d(
            rt,
            "cudaMemcpy2DAsync",
            dst,
            dpitch,
            src,
            spitch,
            width,
            height,
            kind,
        )
    })
}

pub(crate) unsafe extern "C" fn cudaMemset2D(
    ptr: *mut c_void,
    pitch: usize,
    value: c_int,
    width: usize,
    height: usize,
) -> cudaError_t {
    api("cudaMemset2D", |rt| {
        if width > pitch {
            return Err(cudaErrorInvalidValue);
        }
        for row in 0..height {
            memset(
                rt,
                "cudaMemset2D",
                (ptr as *mut u8).wrapping_add(row * pitch) as *mut c_void,
                value,
                width,
            )?;
        }
        Ok(())
    })
}

unsafe extern "C" fn cudaPointerGetAttributes(
    attrs: *mut cudaPointerAttributes,
    ptr: *const c_void,
) -> cudaError_t {
    query("cudaPointerGetAttributes", |rt| {
        let mut a = cudaPointerAttributes {
            type_: cudaMemoryTypeUnregistered,
            device: 0,
            devicePointer: std::ptr::null_mut(),
            hostPointer: std::ptr::null_mut(),
            localityDomainOrdinal: 0,
            reserved: [0; 7],
        };
        if is_device(ptr) {
            if rt.device.allocation_of(DevPtr(ptr as u64)).is_none() {
                return Err(cudaErrorInvalidValue);
            }
            a.type_ = cudaMemoryTypeDevice;
            a.devicePointer = ptr as *mut c_void;
        } else if let Some((base, _)) = rt
            .device
            .allocation_of(DevPtr(ptr as u64))
            .filter(|(b, _)| rt.device.is_host_visible(*b))
        {
            let managed = rt.managed_allocs.contains(&(base.0 as usize));
            a.type_ = if managed {
                cudaMemoryTypeManaged
            } else {
                cudaMemoryTypeHost
            };
            a.hostPointer = ptr as *mut c_void;
            a.devicePointer = ptr as *mut c_void;
        }
        put(attrs, a)
    })
}

export!(
    cudaMalloc,
    cudaFree,
    cudaMallocHost,
    cudaHostAlloc,
    cudaFreeHost,
    cudaHostRegister,
    cudaHostUnregister,
    cudaHostGetFlags,
    cudaMemcpy,
    cudaMemcpyAsync,
    cudaMemset,
    cudaMemsetAsync,
    cudaMemcpyToSymbol,
    cudaMemcpyFromSymbol,
    cudaMemcpyToSymbolAsync,
    cudaMemcpyFromSymbolAsync,
    cudaGetSymbolAddress,
    cudaGetSymbolSize,
    cudaMemGetInfo,
    cudaMallocPitch,
    cudaMemcpy2D,
    cudaMemcpy2DAsync,
    cudaMemset2D,
    cudaPointerGetAttributes,
);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn device_window_classifies_pointers() {
        assert!(is_device(GLOBAL_BASE as *const c_void));
        assert!(!is_device(std::ptr::null()));
        let x = 5u32;
        assert!(!is_device(&x as *const u32 as *const c_void));
    }
}
