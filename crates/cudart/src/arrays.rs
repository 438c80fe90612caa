//! CUDA arrays (`cudaMallocArray`, `cudaMalloc3DArray`) and the copies into and out of them
//! (`cudaMemcpy2DToArray`/`FromArray`, `cudaMemcpyToArray`/`FromArray`, `cudaMemcpy3D`), plus
//! `cudaMalloc3D`.
//!
//! An array is one global allocation holding its elements row-major without padding (row
//! pitch = width × element size, slice pitch = row pitch × height); its `cudaArray_t` handle
//! is that allocation's device address, which is never reused. Layered and cubemap arrays
//! are not supported (`cudaErrorNotSupported`, naming the flag).

use crate::memory::{copy, PITCH_ALIGN};
use crate::runtime::{api, diag, put, Runtime, TOTAL_MEMORY};
use crate::tex_types::*;
use crate::types::*;
use std::collections::HashMap;
use std::ffi::{c_int, c_uint, c_void};
use warpsim_core::exec::texture::{ChannelKind, Format, Layout};

/// One live CUDA array.
#[derive(Clone, Copy, Debug)]
pub struct Array {
    pub desc: cudaChannelFormatDesc,
    pub format: Format,
    /// The extent as allocated (0 height / depth for 1-D / 2-D arrays).
    pub extent: cudaExtent,
    pub flags: u32,
    pub layout: Layout,
}

/// Arrays, texture and surface objects of the runtime (what the Device does not keep: the
/// descriptors as the program passed them, for the `cudaGet…` queries).
#[derive(Default)]
pub struct Objects {
    pub arrays: HashMap<usize, Array>,
    pub textures: HashMap<u64, (cudaResourceDesc, cudaTextureDesc)>,
    pub surfaces: HashMap<u64, cudaResourceDesc>,
}

/// The element format of a channel descriptor, or a message saying what is not supported.
pub fn format_of(d: &cudaChannelFormatDesc) -> Result<Format, String> {
    let kind = match d.f {
        cudaChannelFormatKindSigned => ChannelKind::Signed,
        cudaChannelFormatKindUnsigned => ChannelKind::Unsigned,
        cudaChannelFormatKindFloat => ChannelKind::Float,
        f => {
            return Err(format!(
                "channel format kind {f} is not supported (signed, unsigned and float are)"
            ))
        }
    };
    let mut bits = [0u8; 4];
    for (b, v) in bits.iter_mut().zip([d.x, d.y, d.z, d.w]) {
        *b = u8::try_from(v)
            .ok()
            .filter(|b| b % 8 == 0)
            .ok_or(format!("channel width {v} bits is not supported"))?;
    }
    let f = Format { kind, bits };
    f.validate()?;
    Ok(f)
}

/// The array behind a handle.
pub fn array(rt: &Runtime, what: &str, a: *const c_void) -> Result<Array, cudaError_t> {
    rt.objects
        .arrays
        .get(&(a as usize))
        .copied()
        .ok_or_else(|| {
            diag(&format!("{what}: {a:p} is not a live CUDA array"));
            cudaErrorInvalidResourceHandle
        })
}

unsafe fn malloc_array(
    rt: &mut Runtime,
    what: &str,
    out: *mut cudaArray_t,
    desc: *const cudaChannelFormatDesc,
    e: cudaExtent,
    flags: c_uint,
) -> Result<(), cudaError_t> {
    if out.is_null() || desc.is_null() {
        return Err(cudaErrorInvalidValue);
    }
    for (flag, name) in [
        (cudaArrayLayered, "cudaArrayLayered"),
        (cudaArrayCubemap, "cudaArrayCubemap"),
    ] {
        if flags & flag != 0 {
            diag(&format!("{what}: {name} arrays are not supported"));
            return Err(cudaErrorNotSupported);
        }
    }
    if flags & !(cudaArraySurfaceLoadStore | cudaArrayTextureGather) != 0 {
        diag(&format!("{what}: array flags 0x{flags:x} are not supported (cudaArraySurfaceLoadStore and cudaArrayTextureGather are)"));
        return Err(cudaErrorNotSupported);
    }
    let d = desc.read_unaligned();
    let format = format_of(&d).map_err(|m| {
        diag(&format!("{what}: {m}"));
        cudaErrorInvalidChannelDescriptor
    })?;
    if e.width == 0 || (e.height == 0 && e.depth != 0) {
        diag(&format!(
            "{what}: extent {}×{}×{} is not an array shape",
            e.width, e.height, e.depth
        ));
        return Err(cudaErrorInvalidValue);
    }
    let dims = if e.height == 0 {
        1
    } else if e.depth == 0 {
        2
    } else {
        3
    };
    let (h, dp) = (e.height.max(1) as u64, e.depth.max(1) as u64);
    let pitch = (e.width as u64)
        .checked_mul(format.bytes() as u64)
        .ok_or(cudaErrorMemoryAllocation)?;
    let bytes = pitch
        .checked_mul(h)
        .and_then(|s| s.checked_mul(dp))
        .ok_or(cudaErrorMemoryAllocation)?;
    if rt.device.memory_in_use().saturating_add(bytes) > TOTAL_MEMORY {
        return Err(cudaErrorMemoryAllocation);
    }
    let base = rt
        .device
        .malloc(bytes)
        .map_err(|_| cudaErrorMemoryAllocation)?
        .0;
    let layout = Layout {
        base,
        dims,
        width: e.width as u64,
        height: h,
        depth: dp,
        pitch,
        slice: pitch * h,
    };
    rt.objects.arrays.insert(
        base as usize,
        Array {
            desc: d,
            format,
            extent: e,
            flags,
            layout,
        },
    );
    put(out, base as cudaArray_t)
}

unsafe extern "C" fn cudaMallocArray(
    out: *mut cudaArray_t,
    desc: *const cudaChannelFormatDesc,
    width: usize,
    height: usize,
    flags: c_uint,
) -> cudaError_t {
    api("cudaMallocArray", |rt| {
        malloc_array(
            rt,
            "cudaMallocArray",
            out,
            desc,
            cudaExtent {
                width,
                height,
                depth: 0,
            },
            flags,
        )
    })
}

unsafe extern "C" fn cudaMalloc3DArray(
    out: *mut cudaArray_t,
    desc: *const cudaChannelFormatDesc,
    extent: cudaExtent,
    flags: c_uint,
) -> cudaError_t {
    api("cudaMalloc3DArray", |rt| {
        malloc_array(rt, "cudaMalloc3DArray", out, desc, extent, flags)
    })
}

unsafe extern "C" fn cudaFreeArray(a: cudaArray_t) -> cudaError_t {
    api("cudaFreeArray", |rt| {
        if a.is_null() {
            return Ok(());
        }
        let arr = array(rt, "cudaFreeArray", a)?;
        rt.objects.arrays.remove(&(a as usize));
        rt.device
            .free(warpsim_core::device::DevPtr(arr.layout.base))
            .map_err(|_| cudaErrorInvalidResourceHandle)
    })
}

unsafe extern "C" fn cudaArrayGetInfo(
    desc: *mut cudaChannelFormatDesc,
    extent: *mut cudaExtent,
    flags: *mut c_uint,
    a: cudaArray_t,
) -> cudaError_t {
    api("cudaArrayGetInfo", |rt| {
        let arr = array(rt, "cudaArrayGetInfo", a)?;
        if !desc.is_null() {
            put(desc, arr.desc)?;
        }
        if !extent.is_null() {
            put(extent, arr.extent)?;
        }
        if !flags.is_null() {
            put(flags, arr.flags)?;
        }
        Ok(())
    })
}

unsafe extern "C" fn cudaGetChannelDesc(
    desc: *mut cudaChannelFormatDesc,
    a: cudaArray_t,
) -> cudaError_t {
    api("cudaGetChannelDesc", |rt| {
        let arr = array(rt, "cudaGetChannelDesc", a)?;
        put(desc, arr.desc)
    })
}

/// Copies `height` rows of `width` bytes between an array region starting at byte `x` of row
/// `y` and linear memory `other` with row pitch `pitch`.
// The 2-D array copy entry points' own arguments, passed through.
#[allow(clippy::too_many_arguments)]
unsafe fn array_2d(
    rt: &mut Runtime,
    what: &str,
    a: *const c_void,
    (x, y): (usize, usize),
    other: *mut c_void,
    pitch: usize,
    (width, height): (usize, usize),
    kind: c_int,
    to_array: bool,
) -> Result<(), cudaError_t> {
    let arr = array(rt, what, a)?;
    let l = arr.layout;
    let rows = (l.height * l.depth) as usize;
    if past(x.checked_add(width), l.pitch as usize) || past(y.checked_add(height), rows) {
        diag(&format!("{what}: {width} bytes × {height} rows at byte {x} of row {y} overrun the {}-byte × {rows}-row array", l.pitch));
        return Err(cudaErrorInvalidValue);
    }
    if height > 1 && width > pitch {
        diag(&format!("{what}: width {width} exceeds the pitch {pitch}"));
        return Err(cudaErrorInvalidValue);
    }
    for r in 0..height {
        let dev = (l.base + ((y + r) as u64) * l.pitch + x as u64) as *mut c_void;
        let lin = (other as *mut u8).wrapping_add(r * pitch) as *mut c_void;
        if to_array {
            copy(rt, what, dev, lin, width, kind)?;
        } else {
            copy(rt, what, lin, dev, width, kind)?;
        }
    }
    Ok(())
}

/// Whether an end offset overflowed or lies past `limit`.
fn past(end: Option<usize>, limit: usize) -> bool {
    !matches!(end, Some(e) if e <= limit)
}

// An entry point: the parameters are CUDA's C signature.
#[allow(clippy::too_many_arguments)]
pub(crate) unsafe extern "C" fn cudaMemcpy2DToArray(
    dst: cudaArray_t,
    w_off: usize,
    h_off: usize,
    src: *const c_void,
    spitch: usize,
    width: usize,
    height: usize,
    kind: c_int,
) -> cudaError_t {
    api("cudaMemcpy2DToArray", |rt| {
        array_2d(
            rt,
            "cudaMemcpy2DToArray",
            dst,
            (w_off, h_off),
            src as *mut c_void,
            spitch,
            (width, height),
            kind,
            true,
        )
    })
}

// An entry point: the parameters are CUDA's C signature.
#[allow(clippy::too_many_arguments)]
pub(crate) unsafe extern "C" fn cudaMemcpy2DFromArray(
    dst: *mut c_void,
    dpitch: usize,
    src: cudaArray_t,
    w_off: usize,
    h_off: usize,
    width: usize,
    height: usize,
    kind: c_int,
) -> cudaError_t {
    api("cudaMemcpy2DFromArray", |rt| {
        array_2d(
            rt,
            "cudaMemcpy2DFromArray",
            src,
            (w_off, h_off),
            dst,
            dpitch,
            (width, height),
            kind,
            false,
        )
    })
}

// An entry point: the parameters are CUDA's C signature.
#[allow(clippy::too_many_arguments)]
pub(crate) unsafe extern "C" fn cudaMemcpy2DToArrayAsync(
    dst: cudaArray_t,
    w_off: usize,
    h_off: usize,
    src: *const c_void,
    spitch: usize,
    width: usize,
    height: usize,
    kind: c_int,
    stream: cudaStream_t,
) -> cudaError_t {
    api("cudaMemcpy2DToArrayAsync", |rt| {
        check_stream(rt, stream)?;
        array_2d(
            rt,
            "cudaMemcpy2DToArrayAsync",
            dst,
            (w_off, h_off),
            src as *mut c_void,
            spitch,
            (width, height),
            kind,
            true,
        )
    })
}

// An entry point: the parameters are CUDA's C signature.
#[allow(clippy::too_many_arguments)]
pub(crate) unsafe extern "C" fn cudaMemcpy2DFromArrayAsync(
    dst: *mut c_void,
    dpitch: usize,
    src: cudaArray_t,
    w_off: usize,
    h_off: usize,
    width: usize,
    height: usize,
    kind: c_int,
    stream: cudaStream_t,
) -> cudaError_t {
    api("cudaMemcpy2DFromArrayAsync", |rt| {
        check_stream(rt, stream)?;
        array_2d(
            rt,
            "cudaMemcpy2DFromArrayAsync",
            src,
            (w_off, h_off),
            dst,
            dpitch,
            (width, height),
            kind,
            false,
        )
    })
}

fn check_stream(rt: &Runtime, s: cudaStream_t) -> Result<(), cudaError_t> {
    if rt.valid_stream(s) {
        Ok(())
    } else {
        Err(cudaErrorInvalidResourceHandle)
    }
}

/// `cudaMemcpyToArray`/`FromArray` (deprecated, still exported): `count` bytes from byte
/// `x` of row `y`, running on across rows (the array has no padding).
// The CUDA entry points' own arguments, passed through.
#[allow(clippy::too_many_arguments)]
unsafe fn array_linear(
    rt: &mut Runtime,
    what: &str,
    a: *const c_void,
    x: usize,
    y: usize,
    other: *mut c_void,
    count: usize,
    kind: c_int,
    to_array: bool,
) -> Result<(), cudaError_t> {
    let arr = array(rt, what, a)?;
    let l = arr.layout;
    let total = l.slice * l.depth;
    let start = (y as u64)
        .checked_mul(l.pitch)
        .and_then(|s| s.checked_add(x as u64));
    if x as u64 >= l.pitch.max(1)
        || !matches!(start.and_then(|s| s.checked_add(count as u64)), Some(end) if end <= total)
    {
        diag(&format!(
            "{what}: {count} bytes at byte {x} of row {y} overrun the {total}-byte array"
        ));
        return Err(cudaErrorInvalidValue);
    }
    let dev = (l.base + start.unwrap_or(0)) as *mut c_void;
    if to_array {
        copy(rt, what, dev, other, count, kind)
    } else {
        copy(rt, what, other, dev, count, kind)
    }
}

pub(crate) unsafe extern "C" fn cudaMemcpyToArray(
    dst: cudaArray_t,
    w_off: usize,
    h_off: usize,
    src: *const c_void,
    count: usize,
    kind: c_int,
) -> cudaError_t {
    api("cudaMemcpyToArray", |rt| {
        array_linear(
            rt,
            "cudaMemcpyToArray",
            dst,
            w_off,
            h_off,
            src as *mut c_void,
            count,
            kind,
            true,
        )
    })
}

pub(crate) unsafe extern "C" fn cudaMemcpyFromArray(
    dst: *mut c_void,
    src: cudaArray_t,
    w_off: usize,
    h_off: usize,
    count: usize,
    kind: c_int,
) -> cudaError_t {
    api("cudaMemcpyFromArray", |rt| {
        array_linear(
            rt,
            "cudaMemcpyFromArray",
            src,
            w_off,
            h_off,
            dst,
            count,
            kind,
            false,
        )
    })
}

/// One side of a 3-D copy: where byte x of row y of slice z is.
struct Side3 {
    base: *mut c_void,
    pitch: usize,
    rows: usize,
    /// The element size when the side is an array (extent.width counts elements then).
    elem: Option<usize>,
    limit: Option<[usize; 3]>,
}

/// Bytes per element of a live array.
pub(crate) fn element_size(rt: &Runtime, what: &str, a: cudaArray_t) -> Result<usize, cudaError_t> {
    Ok(array(rt, what, a)?.format.bytes() as usize)
}

unsafe fn side3(
    rt: &Runtime,
    what: &str,
    a: cudaArray_t,
    p: cudaPitchedPtr,
) -> Result<Side3, cudaError_t> {
    if !a.is_null() {
        if !p.ptr.is_null() {
            diag(&format!(
                "{what}: both an array and a pointer given for one side"
            ));
            return Err(cudaErrorInvalidValue);
        }
        let arr = array(rt, what, a)?;
        let l = arr.layout;
        return Ok(Side3 {
            base: l.base as *mut c_void,
            pitch: l.pitch as usize,
            rows: l.height as usize,
            elem: Some(arr.format.bytes() as usize),
            limit: Some([l.width as usize, l.height as usize, l.depth as usize]),
        });
    }
    if p.ptr.is_null() {
        diag(&format!(
            "{what}: a side has neither an array nor a pointer"
        ));
        return Err(cudaErrorInvalidValue);
    }
    Ok(Side3 {
        base: p.ptr,
        pitch: p.pitch,
        rows: p.ysize.max(1),
        elem: None,
        limit: None,
    })
}

pub(crate) unsafe fn memcpy_3d(
    rt: &mut Runtime,
    what: &str,
    p: *const cudaMemcpy3DParms,
) -> Result<(), cudaError_t> {
    if p.is_null() {
        return Err(cudaErrorInvalidValue);
    }
    let p = p.read_unaligned();
    let s = side3(rt, what, p.srcArray, p.srcPtr)?;
    let d = side3(rt, what, p.dstArray, p.dstPtr)?;
    let e = p.extent;
    if e.width == 0 || e.height == 0 || e.depth == 0 {
        return Ok(());
    }
    let elem = match (s.elem, d.elem) {
        (Some(a), Some(b)) if a != b => {
            diag(&format!(
                "{what}: the arrays' element sizes differ ({a} and {b} bytes)"
            ));
            return Err(cudaErrorInvalidValue);
        }
        (Some(a), _) | (_, Some(a)) => a,
        (None, None) => 1,
    };
    let width = e.width.checked_mul(elem).ok_or(cudaErrorInvalidValue)?;
    for (side, pos) in [(&s, p.srcPos), (&d, p.dstPos)] {
        if let Some(lim) = side.limit {
            let fits = |o: usize, n: usize, l: usize| o.checked_add(n).is_some_and(|end| end <= l);
            if !(fits(pos.x, e.width, lim[0])
                && fits(pos.y, e.height, lim[1])
                && fits(pos.z, e.depth, lim[2]))
            {
                diag(&format!(
                    "{what}: {}×{}×{} elements at ({}, {}, {}) overrun the {}×{}×{} array",
                    e.width, e.height, e.depth, pos.x, pos.y, pos.z, lim[0], lim[1], lim[2]
                ));
                return Err(cudaErrorInvalidValue);
            }
        } else if width > side.pitch {
            diag(&format!(
                "{what}: width {width} bytes exceeds the pitch {}",
                side.pitch
            ));
            return Err(cudaErrorInvalidValue);
        }
    }
    let at = |side: &Side3, pos: cudaPos, y: usize, z: usize| {
        let x = pos.x * side.elem.unwrap_or(1);
        let off = ((pos.z + z) * side.rows + pos.y + y) * side.pitch + x;
        (side.base as *mut u8).wrapping_add(off) as *mut c_void
    };
    for z in 0..e.depth {
        for y in 0..e.height {
            copy(
                rt,
                what,
                at(&d, p.dstPos, y, z),
                at(&s, p.srcPos, y, z),
                width,
                p.kind,
            )?;
        }
    }
    Ok(())
}

pub(crate) unsafe extern "C" fn cudaMemcpy3D(p: *const cudaMemcpy3DParms) -> cudaError_t {
    api("cudaMemcpy3D", |rt| memcpy_3d(rt, "cudaMemcpy3D", p))
}

pub(crate) unsafe extern "C" fn cudaMemcpy3DAsync(
    p: *const cudaMemcpy3DParms,
    stream: cudaStream_t,
) -> cudaError_t {
    api("cudaMemcpy3DAsync", |rt| {
        check_stream(rt, stream)?;
        memcpy_3d(rt, "cudaMemcpy3DAsync", p)
    })
}

/// `cudaMalloc3D`: pitched linear memory for `extent` (width in bytes).
unsafe extern "C" fn cudaMalloc3D(out: *mut cudaPitchedPtr, e: cudaExtent) -> cudaError_t {
    api("cudaMalloc3D", |rt| {
        if out.is_null() {
            return Err(cudaErrorInvalidValue);
        }
        let pitch = e.width.max(1).div_ceil(PITCH_ALIGN) * PITCH_ALIGN;
        let bytes = pitch
            .checked_mul(e.height)
            .and_then(|b| b.checked_mul(e.depth))
            .ok_or(cudaErrorMemoryAllocation)?;
        if rt.device.memory_in_use().saturating_add(bytes as u64) > TOTAL_MEMORY {
            return Err(cudaErrorMemoryAllocation);
        }
        let d = if bytes == 0 {
            0
        } else {
            rt.device
                .malloc(bytes as u64)
                .map_err(|_| cudaErrorMemoryAllocation)?
                .0
        };
        put(
            out,
            cudaPitchedPtr {
                ptr: d as *mut c_void,
                pitch,
                xsize: e.width,
                ysize: e.height,
            },
        )
    })
}

export!(
    cudaMallocArray,
    cudaMalloc3DArray,
    cudaFreeArray,
    cudaArrayGetInfo,
    cudaGetChannelDesc,
    cudaMemcpy2DToArray,
    cudaMemcpy2DFromArray,
    cudaMemcpy2DToArrayAsync,
    cudaMemcpy2DFromArrayAsync,
    cudaMemcpyToArray,
    cudaMemcpyFromArray,
    cudaMemcpy3D,
    cudaMemcpy3DAsync,
    cudaMalloc3D,
);
