//! Batched, attributed and peer copies on the one simulated device, the asynchronous array
//! copies, and the memsets not in `memory.rs` (`cudaMemset2DAsync`, `cudaMemset3D[Async]`,
//! which set `extent.width` bytes of `extent.height` rows in each of `extent.depth` slices of
//! `pitch × ysize` bytes; captured as one memset node per slice).
//!
//! `cudaMemcpyBatchAsync` and `cudaMemcpy3DBatchAsync` run their copies in list order (CUDA
//! promises no order within a batch, so any order is CUDA's), each as `cudaMemcpy` /
//! `cudaMemcpy3D` would with `cudaMemcpyDefault`; they check what CUDA documents: a valid
//! `srcAccessOrder` for every copy, `attrsIdxs` starting at 0 and increasing below `count`,
//! no zero extent in a 3-D batch, zero flags, and not the legacy default stream
//! (`cudaErrorInvalidValue`). Access-order hints, location hints and
//! `cudaMemcpyFlagPreferOverlapWithCompute` change nothing: every copy has finished when the
//! call returns. A 1-D batch on a capturing stream is captured as one copy node per copy;
//! 3-D batches may involve arrays, which graph nodes do not hold, and are refused there
//! (`cudaErrorStreamCaptureUnsupported`).
//!
//! Peer copies (`cudaMemcpyPeer`, `cudaMemcpy3DPeer` and their `Async` forms) work between
//! device 0 and itself, the only device; any other device is `cudaErrorInvalidDevice`.

use crate::arrays::memcpy_3d;
use crate::capture::{capturing, cudaErrorStreamCaptureUnsupported};
use crate::graphs::{Copy3d, NodeKind};
use crate::managed::cudaMemLocation;
use crate::runtime::{api, diag, Runtime};
use crate::tex_types::*;
use crate::types::*;
use std::ffi::{c_int, c_uint, c_void};

/// `cudaMemcpyAttributes`.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct cudaMemcpyAttributes {
    pub src_access_order: c_int,
    pub src_loc_hint: cudaMemLocation,
    pub dst_loc_hint: cudaMemLocation,
    pub flags: c_uint,
}

/// `cudaMemcpy3DOperand`: `kind` 1 is a pointer (`ptr`, `row_length`, `layer_height` in
/// elements), 2 an array (`ptr` is the `cudaArray_t`, then its offset `x`, `y`, `z`).
#[repr(C)]
#[derive(Clone, Copy)]
pub struct cudaMemcpy3DOperand {
    pub kind: c_int,
    pub ptr: *mut c_void,
    /// Row length (pointer) or offset x (array).
    pub a: usize,
    /// Layer height (pointer) or offset y (array).
    pub b: usize,
    /// The location hint (pointer) or offset z (array).
    pub c: usize,
}

/// `cudaMemcpy3DBatchOp`.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct cudaMemcpy3DBatchOp {
    pub src: cudaMemcpy3DOperand,
    pub dst: cudaMemcpy3DOperand,
    pub extent: cudaExtent,
    pub src_access_order: c_int,
    pub flags: c_uint,
}

/// `cudaMemcpy3DPeerParms`.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct cudaMemcpy3DPeerParms {
    pub src_array: cudaArray_t,
    pub src_pos: cudaPos,
    pub src_ptr: cudaPitchedPtr,
    pub src_device: c_int,
    pub dst_array: cudaArray_t,
    pub dst_pos: cudaPos,
    pub dst_ptr: cudaPitchedPtr,
    pub dst_device: c_int,
    pub extent: cudaExtent,
}

const OPERAND_POINTER: c_int = 1;
const OPERAND_ARRAY: c_int = 2;
/// `cudaMemcpySrcAccessOrderStream` ..= `cudaMemcpySrcAccessOrderAny`.
const ACCESS_ORDERS: std::ops::RangeInclusive<c_int> = 1..=3;

fn check_stream(rt: &Runtime, what: &str, stream: cudaStream_t) -> Result<(), cudaError_t> {
    if !rt.valid_stream(stream) {
        return Err(cudaErrorInvalidResourceHandle);
    }
    if matches!(stream as usize, 0 | STREAM_LEGACY) {
        diag(&format!(
            "{what}: not on the legacy default stream (CUDA's rule); use a stream of your own or cudaStreamPerThread"
        ));
        return Err(cudaErrorInvalidValue);
    }
    Ok(())
}

fn check_order(what: &str, order: c_int, flags: c_uint) -> Result<(), cudaError_t> {
    if !ACCESS_ORDERS.contains(&order) {
        diag(&format!(
            "{what}: srcAccessOrder {order} is not a valid cudaMemcpySrcAccessOrder"
        ));
        return Err(cudaErrorInvalidValue);
    }
    if flags & !1 != 0 {
        diag(&format!("{what}: unknown cudaMemcpyFlags {flags:#x}"));
        return Err(cudaErrorInvalidValue);
    }
    Ok(())
}

/// Copies (or, on a capturing stream, captures) `count` bytes.
unsafe fn copy_1d(
    rt: &mut Runtime,
    what: &str,
    stream: cudaStream_t,
    dst: *mut c_void,
    src: *const c_void,
    count: usize,
) -> Result<(), cudaError_t> {
    if capturing(rt, stream) {
        let c = Copy3d::linear(dst, src, count, cudaMemcpyDefault);
        return crate::capture::capture(rt, stream, NodeKind::Copy(c));
    }
    crate::memory::copy(rt, what, dst, src, count, cudaMemcpyDefault)
}

// Entry points: the parameters are CUDA's C signatures.
#[allow(clippy::too_many_arguments)]
pub(crate) unsafe extern "C" fn cudaMemcpyBatchAsync(
    dsts: *const *mut c_void,
    srcs: *const *const c_void,
    sizes: *const usize,
    count: usize,
    attrs: *const cudaMemcpyAttributes,
    attrs_idxs: *const usize,
    num_attrs: usize,
    stream: cudaStream_t,
) -> cudaError_t {
    const WHAT: &str = "cudaMemcpyBatchAsync";
    api(WHAT, |rt| {
        check_stream(rt, WHAT, stream)?;
        if count == 0
            || dsts.is_null()
            || srcs.is_null()
            || sizes.is_null()
            || attrs.is_null()
            || attrs_idxs.is_null()
            || num_attrs == 0
            || num_attrs > count
        {
            diag(&format!("{WHAT}: needs {count} > 0 copies, the three arrays, and 1 to count attributes with their indices"));
            return Err(cudaErrorInvalidValue);
        }
        let idxs = std::slice::from_raw_parts(attrs_idxs, num_attrs);
        if idxs[0] != 0 || idxs.windows(2).any(|w| w[1] <= w[0]) || idxs[num_attrs - 1] >= count {
            diag(&format!(
                "{WHAT}: attrsIdxs must start at 0 and increase, below count"
            ));
            return Err(cudaErrorInvalidValue);
        }
        for i in 0..num_attrs {
            let a = *attrs.add(i);
            check_order(WHAT, a.src_access_order, a.flags)?;
        }
        for i in 0..count {
            copy_1d(rt, WHAT, stream, *dsts.add(i), *srcs.add(i), *sizes.add(i))?;
        }
        Ok(())
    })
}

pub(crate) unsafe extern "C" fn cudaMemcpyWithAttributesAsync(
    dst: *mut c_void,
    src: *const c_void,
    size: usize,
    attr: *const cudaMemcpyAttributes,
    stream: cudaStream_t,
) -> cudaError_t {
    const WHAT: &str = "cudaMemcpyWithAttributesAsync";
    api(WHAT, |rt| {
        check_stream(rt, WHAT, stream)?;
        let a = attr.as_ref().ok_or(cudaErrorInvalidValue)?;
        check_order(WHAT, a.src_access_order, a.flags)?;
        copy_1d(rt, WHAT, stream, dst, src, size)
    })
}

/// A batch operand as one side of a `cudaMemcpy3DParms`. The extent, a pointer's row length
/// and layer height count elements of `elem` bytes: the array's element size when the other
/// side is an array, else bytes (CUDA's rule).
fn side(
    what: &str,
    o: &cudaMemcpy3DOperand,
    e: &cudaExtent,
    elem: usize,
) -> Result<(cudaArray_t, cudaPos, cudaPitchedPtr), cudaError_t> {
    let null = cudaPitchedPtr {
        ptr: std::ptr::null_mut(),
        pitch: 0,
        xsize: 0,
        ysize: 0,
    };
    match o.kind {
        OPERAND_POINTER => {
            if (o.a != 0 && o.a < e.width) || (o.b != 0 && o.b < e.height) {
                diag(&format!(
                    "{what}: a row length or layer height below the copy's width or height"
                ));
                return Err(cudaErrorInvalidValue);
            }
            let pitch = if o.a == 0 { e.width } else { o.a };
            let rows = if o.b == 0 { e.height } else { o.b };
            let ptr = cudaPitchedPtr {
                ptr: o.ptr,
                pitch: pitch.checked_mul(elem).ok_or(cudaErrorInvalidValue)?,
                xsize: e.width.checked_mul(elem).ok_or(cudaErrorInvalidValue)?,
                ysize: rows,
            };
            Ok((std::ptr::null_mut(), cudaPos::default(), ptr))
        }
        OPERAND_ARRAY => Ok((
            o.ptr,
            cudaPos {
                x: o.a,
                y: o.b,
                z: o.c,
            },
            null,
        )),
        k => {
            diag(&format!(
                "{what}: operand type {k} is neither a pointer (1) nor an array (2)"
            ));
            Err(cudaErrorInvalidValue)
        }
    }
}

unsafe fn batch_op(
    rt: &mut Runtime,
    what: &str,
    op: &cudaMemcpy3DBatchOp,
) -> Result<(), cudaError_t> {
    check_order(what, op.src_access_order, op.flags)?;
    let e = op.extent;
    if e.width == 0 || e.height == 0 || e.depth == 0 {
        diag(&format!("{what}: an extent of zero"));
        return Err(cudaErrorInvalidValue);
    }
    let elem = match (op.src.kind, op.dst.kind) {
        (OPERAND_ARRAY, _) => crate::arrays::element_size(rt, what, op.src.ptr)?,
        (_, OPERAND_ARRAY) => crate::arrays::element_size(rt, what, op.dst.ptr)?,
        _ => 1,
    };
    let (src_array, src_pos, src_ptr) = side(what, &op.src, &e, elem)?;
    let (dst_array, dst_pos, dst_ptr) = side(what, &op.dst, &e, elem)?;
    let p = cudaMemcpy3DParms {
        srcArray: src_array,
        srcPos: src_pos,
        srcPtr: src_ptr,
        dstArray: dst_array,
        dstPos: dst_pos,
        dstPtr: dst_ptr,
        extent: e,
        kind: cudaMemcpyDefault,
    };
    memcpy_3d(rt, what, &p)
}

fn refuse_capture(rt: &Runtime, what: &str, stream: cudaStream_t) -> Result<(), cudaError_t> {
    if capturing(rt, stream) {
        diag(&format!(
            "{what} on a capturing stream is not supported by warpsim"
        ));
        return Err(cudaErrorStreamCaptureUnsupported);
    }
    Ok(())
}

pub(crate) unsafe extern "C" fn cudaMemcpy3DBatchAsync(
    n: usize,
    ops: *const cudaMemcpy3DBatchOp,
    flags: u64,
    stream: cudaStream_t,
) -> cudaError_t {
    const WHAT: &str = "cudaMemcpy3DBatchAsync";
    api(WHAT, |rt| {
        check_stream(rt, WHAT, stream)?;
        if n == 0 || ops.is_null() || flags != 0 {
            return Err(cudaErrorInvalidValue);
        }
        refuse_capture(rt, WHAT, stream)?;
        for i in 0..n {
            batch_op(rt, WHAT, &*ops.add(i))?;
        }
        Ok(())
    })
}

pub(crate) unsafe extern "C" fn cudaMemcpy3DWithAttributesAsync(
    op: *const cudaMemcpy3DBatchOp,
    flags: u64,
    stream: cudaStream_t,
) -> cudaError_t {
    const WHAT: &str = "cudaMemcpy3DWithAttributesAsync";
    api(WHAT, |rt| {
        check_stream(rt, WHAT, stream)?;
        let op = op.as_ref().ok_or(cudaErrorInvalidValue)?;
        if flags != 0 {
            return Err(cudaErrorInvalidValue);
        }
        refuse_capture(rt, WHAT, stream)?;
        batch_op(rt, WHAT, op)
    })
}

fn one_device(what: &str, devices: &[c_int]) -> Result<(), cudaError_t> {
    if let Some(d) = devices.iter().find(|&&d| d != 0) {
        diag(&format!(
            "{what}: device {d} does not exist (the simulator has device 0 only)"
        ));
        return Err(cudaErrorInvalidDevice);
    }
    Ok(())
}

unsafe fn peer_3d(
    rt: &mut Runtime,
    what: &str,
    p: *const cudaMemcpy3DPeerParms,
) -> Result<(), cudaError_t> {
    let p = p.as_ref().ok_or(cudaErrorInvalidValue)?;
    one_device(what, &[p.src_device, p.dst_device])?;
    let q = cudaMemcpy3DParms {
        srcArray: p.src_array,
        srcPos: p.src_pos,
        srcPtr: p.src_ptr,
        dstArray: p.dst_array,
        dstPos: p.dst_pos,
        dstPtr: p.dst_ptr,
        extent: p.extent,
        kind: cudaMemcpyDefault,
    };
    memcpy_3d(rt, what, &q)
}

pub(crate) unsafe extern "C" fn cudaMemcpy3DPeer(p: *const cudaMemcpy3DPeerParms) -> cudaError_t {
    api("cudaMemcpy3DPeer", |rt| peer_3d(rt, "cudaMemcpy3DPeer", p))
}

pub(crate) unsafe extern "C" fn cudaMemcpy3DPeerAsync(
    p: *const cudaMemcpy3DPeerParms,
    stream: cudaStream_t,
) -> cudaError_t {
    const WHAT: &str = "cudaMemcpy3DPeerAsync";
    api(WHAT, |rt| {
        if !rt.valid_stream(stream) {
            return Err(cudaErrorInvalidResourceHandle);
        }
        refuse_capture(rt, WHAT, stream)?;
        peer_3d(rt, WHAT, p)
    })
}

unsafe extern "C" fn cudaMemcpyPeer(
    dst: *mut c_void,
    dst_device: c_int,
    src: *const c_void,
    src_device: c_int,
    count: usize,
) -> cudaError_t {
    const WHAT: &str = "cudaMemcpyPeer";
    api(WHAT, |rt| {
        one_device(WHAT, &[src_device, dst_device])?;
        crate::memory::copy(rt, WHAT, dst, src, count, cudaMemcpyDeviceToDevice)
    })
}

pub(crate) unsafe extern "C" fn cudaMemcpyPeerAsync(
    dst: *mut c_void,
    dst_device: c_int,
    src: *const c_void,
    src_device: c_int,
    count: usize,
    stream: cudaStream_t,
) -> cudaError_t {
    const WHAT: &str = "cudaMemcpyPeerAsync";
    api(WHAT, |rt| {
        if !rt.valid_stream(stream) {
            return Err(cudaErrorInvalidResourceHandle);
        }
        one_device(WHAT, &[src_device, dst_device])?;
        if capturing(rt, stream) {
            let c = Copy3d::linear(dst, src, count, cudaMemcpyDeviceToDevice);
            return crate::capture::capture(rt, stream, NodeKind::Copy(c));
        }
        crate::memory::copy(rt, WHAT, dst, src, count, cudaMemcpyDeviceToDevice)
    })
}

/// `cudaMemset2D` for `depth` slices of `ysize` rows (a `cudaMemset3D`), or one slice.
unsafe fn memset_slices(
    rt: &mut Runtime,
    what: &str,
    stream: Option<cudaStream_t>,
    p: cudaPitchedPtr,
    value: c_int,
    e: cudaExtent,
) -> Result<(), cudaError_t> {
    if e.width > p.pitch {
        diag(&format!(
            "{what}: width {} exceeds the pitch {}",
            e.width, p.pitch
        ));
        return Err(cudaErrorInvalidValue);
    }
    let slice = p.pitch * p.ysize.max(e.height);
    for z in 0..e.depth {
        let base = (p.ptr as *mut u8).wrapping_add(z * slice);
        match stream {
            Some(s) if capturing(rt, s) => {
                let node = NodeKind::Memset {
                    dst: base as usize,
                    pitch: p.pitch,
                    value: value as u8 as u32,
                    element_size: 1,
                    width: e.width,
                    height: e.height.max(1),
                };
                crate::capture::capture(rt, s, node)?;
            }
            _ => {
                for y in 0..e.height {
                    let row = base.wrapping_add(y * p.pitch) as *mut c_void;
                    crate::memory::memset(rt, what, row, value, e.width)?;
                }
            }
        }
    }
    Ok(())
}

pub(crate) unsafe extern "C" fn cudaMemset2DAsync(
    ptr: *mut c_void,
    pitch: usize,
    value: c_int,
    width: usize,
    height: usize,
    stream: cudaStream_t,
) -> cudaError_t {
    const WHAT: &str = "cudaMemset2DAsync";
    api(WHAT, |rt| {
        if !rt.valid_stream(stream) {
            return Err(cudaErrorInvalidResourceHandle);
        }
        let p = cudaPitchedPtr {
            ptr,
            pitch,
            xsize: width,
            ysize: height,
        };
        let e = cudaExtent {
            width,
            height,
            depth: 1,
        };
        memset_slices(rt, WHAT, Some(stream), p, value, e)
    })
}

pub(crate) unsafe extern "C" fn cudaMemset3D(
    p: cudaPitchedPtr,
    value: c_int,
    e: cudaExtent,
) -> cudaError_t {
    api("cudaMemset3D", |rt| {
        memset_slices(rt, "cudaMemset3D", None, p, value, e)
    })
}

pub(crate) unsafe extern "C" fn cudaMemset3DAsync(
    p: cudaPitchedPtr,
    value: c_int,
    e: cudaExtent,
    stream: cudaStream_t,
) -> cudaError_t {
    const WHAT: &str = "cudaMemset3DAsync";
    api(WHAT, |rt| {
        if !rt.valid_stream(stream) {
            return Err(cudaErrorInvalidResourceHandle);
        }
        memset_slices(rt, WHAT, Some(stream), p, value, e)
    })
}

/// The deprecated asynchronous array copies: the synchronous ones after the stream is checked
/// (arrays cannot be graph nodes, so a capturing stream refuses them).
pub(crate) unsafe extern "C" fn cudaMemcpyToArrayAsync(
    dst: cudaArray_t,
    w: usize,
    h: usize,
    src: *const c_void,
    count: usize,
    kind: c_int,
    stream: cudaStream_t,
) -> cudaError_t {
    const WHAT: &str = "cudaMemcpyToArrayAsync";
    let e = api(WHAT, |rt| {
        if !rt.valid_stream(stream) {
            return Err(cudaErrorInvalidResourceHandle);
        }
        refuse_capture(rt, WHAT, stream)
    });
    if e != cudaSuccess {
        return e;
    }
    crate::arrays::cudaMemcpyToArray(dst, w, h, src, count, kind)
}

pub(crate) unsafe extern "C" fn cudaMemcpyFromArrayAsync(
    dst: *mut c_void,
    src: cudaArray_t,
    w: usize,
    h: usize,
    count: usize,
    kind: c_int,
    stream: cudaStream_t,
) -> cudaError_t {
    const WHAT: &str = "cudaMemcpyFromArrayAsync";
    let e = api(WHAT, |rt| {
        if !rt.valid_stream(stream) {
            return Err(cudaErrorInvalidResourceHandle);
        }
        refuse_capture(rt, WHAT, stream)
    });
    if e != cudaSuccess {
        return e;
    }
    crate::arrays::cudaMemcpyFromArray(dst, src, w, h, count, kind)
}

export!(
    cudaMemset2DAsync,
    cudaMemset3D,
    cudaMemset3DAsync,
    cudaMemcpyToArrayAsync,
    cudaMemcpyFromArrayAsync,
    cudaMemcpyBatchAsync,
    cudaMemcpyWithAttributesAsync,
    cudaMemcpy3DBatchAsync,
    cudaMemcpy3DWithAttributesAsync,
    cudaMemcpy3DPeer,
    cudaMemcpy3DPeerAsync,
    cudaMemcpyPeer,
    cudaMemcpyPeerAsync,
);

#[cfg(test)]
mod tests {
    use super::*;
    use std::mem::{offset_of, size_of};

    /// Sizes and offsets of CUDA 13.5's `driver_types.h` structs.
    #[test]
    fn layouts_match_the_cuda_13_headers() {
        assert_eq!(size_of::<cudaMemcpyAttributes>(), 24);
        assert_eq!(offset_of!(cudaMemcpyAttributes, flags), 20);
        assert_eq!(size_of::<cudaMemcpy3DOperand>(), 40);
        assert_eq!(size_of::<cudaMemcpy3DBatchOp>(), 112);
        assert_eq!(offset_of!(cudaMemcpy3DBatchOp, extent), 80);
        assert_eq!(offset_of!(cudaMemcpy3DBatchOp, src_access_order), 104);
        assert_eq!(size_of::<cudaMemcpy3DPeerParms>(), 168);
        assert_eq!(offset_of!(cudaMemcpy3DPeerParms, dst_device), 136);
        assert_eq!(offset_of!(cudaMemcpy3DPeerParms, extent), 144);
    }
}
