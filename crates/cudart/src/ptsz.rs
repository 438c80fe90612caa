//! The per-thread-default-stream spellings of the stream-ordered entry points. A program built
//! with `nvcc --default-stream per-thread` (or defining `CUDA_API_PER_THREAD_DEFAULT_STREAM`)
//! calls `cudaMemcpyAsync_ptsz` where its source says `cudaMemcpyAsync`, `cudaMemcpy_ptds`
//! for `cudaMemcpy`, and so on; in those calls stream 0 means the calling thread's default
//! stream, not the legacy one.
//!
//! Each variant here is the ordinary entry point with stream 0 replaced by
//! `cudaStreamPerThread` ([`STREAM_PER_THREAD`]). The simulator runs every operation to
//! completion inside its call, so the two default streams differ only where a stream's
//! identity matters: the per-thread stream can be captured into a graph (CUDA allows it; the
//! legacy stream cannot be), and work on it is captured when it is. Neither default stream
//! synchronises implicitly with other streams here, because nothing is ever left running.
//! The `_ptds` variants of synchronous calls take no stream and are the same calls.

use crate::arrays::*;
use crate::capture::{
    cudaStreamBeginCapture, cudaStreamBeginCaptureToGraph, cudaStreamEndCapture,
    cudaStreamGetCaptureInfo, cudaStreamIsCapturing, cudaStreamUpdateCaptureDependencies,
};
use crate::copies::*;
use crate::graph_exec::{
    cudaGraphInstantiateParams, cudaGraphInstantiateWithParams, cudaGraphLaunch, cudaGraphUpload,
};
use crate::graphs::{cudaGraphExec_t, cudaGraphNode_t, cudaGraph_t, HostFn};
use crate::launch::{
    __cudaLaunchKernel, cudaLaunchConfig_t, cudaLaunchCooperativeKernel, cudaLaunchKernel,
    cudaLaunchKernelExC,
};
use crate::managed::{cudaMemLocation, cudaMemPrefetchAsync, cudaStreamAttachMemAsync};
use crate::memory::*;
use crate::streams::*;
use crate::tex_types::{cudaArray_t, cudaExtent, cudaMemcpy3DParms, cudaPitchedPtr};
use crate::types::*;
use std::ffi::{c_int, c_uint, c_void};

/// The stream a `_ptsz` call means: 0 is the per-thread default stream.
pub fn per_thread(stream: cudaStream_t) -> cudaStream_t {
    if stream.is_null() {
        STREAM_PER_THREAD as cudaStream_t
    } else {
        stream
    }
}

/// `NAME => BASE(args before the stream, @stream, args after)`: `NAME` calls `BASE` with the
/// stream argument passed through [`per_thread`].
macro_rules! ptsz {
    ($($name:ident => $base:ident($($a:ident: $at:ty,)* @ $s:ident $(, $b:ident: $bt:ty)*);)*) => {
        $(
            // An entry point: the parameters are CUDA's C signature.
            #[allow(clippy::too_many_arguments)]
            unsafe extern "C" fn $name($($a: $at,)* $s: cudaStream_t $(, $b: $bt)*) -> cudaError_t {
                $base($($a,)* per_thread($s) $(, $b)*)
            }
        )*
        export!($($name),*);
    };
}

/// `NAME => BASE(args)`: a synchronous call on the per-thread default stream, the same call.
macro_rules! ptds {
    ($($name:ident => $base:ident($($a:ident: $at:ty),*);)*) => {
        $(
            // An entry point: the parameters are CUDA's C signature.
            #[allow(clippy::too_many_arguments)]
            unsafe extern "C" fn $name($($a: $at),*) -> cudaError_t {
                $base($($a),*)
            }
        )*
        export!($($name),*);
    };
}

/// `cudaLaunchKernelExC_ptsz`: the stream in the launch configuration, through [`per_thread`].
unsafe extern "C" fn cudaLaunchKernelExC_ptsz(
    config: *const cudaLaunchConfig_t,
    func: *const c_void,
    args: *mut *mut c_void,
) -> cudaError_t {
    let Some(c) = config.as_ref() else {
        return cudaErrorInvalidValue;
    };
    let c = cudaLaunchConfig_t {
        stream: per_thread(c.stream),
        ..*c
    };
    cudaLaunchKernelExC(&c, func, args)
}
export!(cudaLaunchKernelExC_ptsz);

ptsz! {
    __cudaLaunchKernel_ptsz => __cudaLaunchKernel(k: cudaKernel_t, g: dim3, b: dim3, args: *mut *mut c_void, shared: usize, @s);
    cudaLaunchKernel_ptsz => cudaLaunchKernel(f: *const c_void, g: dim3, b: dim3, args: *mut *mut c_void, shared: usize, @s);
    cudaLaunchCooperativeKernel_ptsz => cudaLaunchCooperativeKernel(f: *const c_void, g: dim3, b: dim3, args: *mut *mut c_void, shared: usize, @s);
    cudaMemcpyAsync_ptsz => cudaMemcpyAsync(dst: *mut c_void, src: *const c_void, n: usize, kind: c_int, @s);
    cudaMemsetAsync_ptsz => cudaMemsetAsync(p: *mut c_void, v: c_int, n: usize, @s);
    cudaMemcpyToSymbolAsync_ptsz => cudaMemcpyToSymbolAsync(sym: *const c_void, src: *const c_void, n: usize, off: usize, kind: c_int, @s);
    cudaMemcpyFromSymbolAsync_ptsz => cudaMemcpyFromSymbolAsync(dst: *mut c_void, sym: *const c_void, n: usize, off: usize, kind: c_int, @s);
    cudaMemcpy2DAsync_ptsz => cudaMemcpy2DAsync(dst: *mut c_void, dp: usize, src: *const c_void, sp: usize, w: usize, h: usize, kind: c_int, @s);
    cudaMemcpy2DToArrayAsync_ptsz => cudaMemcpy2DToArrayAsync(dst: cudaArray_t, wo: usize, ho: usize, src: *const c_void, sp: usize, w: usize, h: usize, kind: c_int, @s);
    cudaMemcpy2DFromArrayAsync_ptsz => cudaMemcpy2DFromArrayAsync(dst: *mut c_void, dp: usize, src: cudaArray_t, wo: usize, ho: usize, w: usize, h: usize, kind: c_int, @s);
    cudaMemcpy3DAsync_ptsz => cudaMemcpy3DAsync(p: *const cudaMemcpy3DParms, @s);
    cudaMemPrefetchAsync_ptsz => cudaMemPrefetchAsync(p: *const c_void, n: usize, to: cudaMemLocation, flags: c_uint, @s);
    cudaStreamAttachMemAsync_ptsz => cudaStreamAttachMemAsync(@s, p: *mut c_void, n: usize, flags: c_uint);
    cudaStreamSynchronize_ptsz => cudaStreamSynchronize(@s);
    cudaStreamQuery_ptsz => cudaStreamQuery(@s);
    cudaStreamWaitEvent_ptsz => cudaStreamWaitEvent(@s, e: cudaEvent_t, flags: c_uint);
    cudaStreamGetFlags_ptsz => cudaStreamGetFlags(@s, flags: *mut c_uint);
    cudaStreamGetPriority_ptsz => cudaStreamGetPriority(@s, p: *mut c_int);
    cudaStreamAddCallback_ptsz => cudaStreamAddCallback(@s, cb: Option<StreamCallback>, data: *mut c_void, flags: c_uint);
    cudaLaunchHostFunc_ptsz => cudaLaunchHostFunc(@s, f: Option<HostFn>, data: *mut c_void);
    cudaLaunchHostFunc_v2_ptsz => cudaLaunchHostFunc_v2(@s, f: Option<HostFn>, data: *mut c_void, mode: c_uint);
    cudaStreamGetId_ptsz => cudaStreamGetId(@s, id: *mut u64);
    cudaStreamGetDevice_ptsz => cudaStreamGetDevice(@s, d: *mut c_int);
    cudaEventRecord_ptsz => cudaEventRecord(e: cudaEvent_t, @s);
    cudaEventRecordWithFlags_ptsz => cudaEventRecordWithFlags(e: cudaEvent_t, @s, flags: c_uint);
    cudaStreamBeginCapture_ptsz => cudaStreamBeginCapture(@s, mode: c_int);
    cudaStreamBeginCaptureToGraph_ptsz => cudaStreamBeginCaptureToGraph(@s, g: cudaGraph_t, deps: *const cudaGraphNode_t, edges: *const [u8; 8], n: usize, mode: c_int);
    cudaStreamUpdateCaptureDependencies_ptsz => cudaStreamUpdateCaptureDependencies(@s, deps: *const cudaGraphNode_t, edges: *const [u8; 8], n: usize, flags: c_uint);
    cudaStreamEndCapture_ptsz => cudaStreamEndCapture(@s, g: *mut cudaGraph_t);
    cudaStreamIsCapturing_ptsz => cudaStreamIsCapturing(@s, st: *mut c_int);
    cudaStreamGetCaptureInfo_ptsz => cudaStreamGetCaptureInfo(@s, st: *mut c_int, id: *mut u64, g: *mut cudaGraph_t, deps: *mut *const cudaGraphNode_t, edges: *mut *const [u8; 8], n: *mut usize);
    cudaGraphLaunch_ptsz => cudaGraphLaunch(x: cudaGraphExec_t, @s);
    cudaGraphUpload_ptsz => cudaGraphUpload(x: cudaGraphExec_t, @s);
    cudaMemset2DAsync_ptsz => cudaMemset2DAsync(p: *mut c_void, pitch: usize, v: c_int, w: usize, h: usize, @s);
    cudaMemset3DAsync_ptsz => cudaMemset3DAsync(p: cudaPitchedPtr, v: c_int, e: cudaExtent, @s);
    cudaMemcpyToArrayAsync_ptsz => cudaMemcpyToArrayAsync(dst: cudaArray_t, wo: usize, ho: usize, src: *const c_void, n: usize, kind: c_int, @s);
    cudaMemcpyFromArrayAsync_ptsz => cudaMemcpyFromArrayAsync(dst: *mut c_void, src: cudaArray_t, wo: usize, ho: usize, n: usize, kind: c_int, @s);
    cudaMemcpyBatchAsync_ptsz => cudaMemcpyBatchAsync(d: *const *mut c_void, s: *const *const c_void, n: *const usize, count: usize, a: *const cudaMemcpyAttributes, ai: *const usize, na: usize, @stream);
    cudaMemcpyWithAttributesAsync_ptsz => cudaMemcpyWithAttributesAsync(d: *mut c_void, s: *const c_void, n: usize, a: *const cudaMemcpyAttributes, @stream);
    cudaMemcpy3DBatchAsync_ptsz => cudaMemcpy3DBatchAsync(n: usize, ops: *const cudaMemcpy3DBatchOp, flags: u64, @s);
    cudaMemcpy3DWithAttributesAsync_ptsz => cudaMemcpy3DWithAttributesAsync(op: *const cudaMemcpy3DBatchOp, flags: u64, @s);
    cudaMemcpy3DPeerAsync_ptsz => cudaMemcpy3DPeerAsync(p: *const cudaMemcpy3DPeerParms, @s);
}

ptds! {
    cudaMemcpy_ptds => cudaMemcpy(dst: *mut c_void, src: *const c_void, n: usize, kind: c_int);
    cudaMemset_ptds => cudaMemset(p: *mut c_void, v: c_int, n: usize);
    cudaMemcpyToSymbol_ptds => cudaMemcpyToSymbol(sym: *const c_void, src: *const c_void, n: usize, off: usize, kind: c_int);
    cudaMemcpyFromSymbol_ptds => cudaMemcpyFromSymbol(dst: *mut c_void, sym: *const c_void, n: usize, off: usize, kind: c_int);
    cudaMemcpy2D_ptds => cudaMemcpy2D(dst: *mut c_void, dp: usize, src: *const c_void, sp: usize, w: usize, h: usize, kind: c_int);
    cudaMemset2D_ptds => cudaMemset2D(p: *mut c_void, pitch: usize, v: c_int, w: usize, h: usize);
    cudaMemcpy2DToArray_ptds => cudaMemcpy2DToArray(dst: cudaArray_t, wo: usize, ho: usize, src: *const c_void, sp: usize, w: usize, h: usize, kind: c_int);
    cudaMemcpy2DFromArray_ptds => cudaMemcpy2DFromArray(dst: *mut c_void, dp: usize, src: cudaArray_t, wo: usize, ho: usize, w: usize, h: usize, kind: c_int);
    cudaMemcpyToArray_ptds => cudaMemcpyToArray(dst: cudaArray_t, wo: usize, ho: usize, src: *const c_void, n: usize, kind: c_int);
    cudaMemcpyFromArray_ptds => cudaMemcpyFromArray(dst: *mut c_void, src: cudaArray_t, wo: usize, ho: usize, n: usize, kind: c_int);
    cudaMemcpy3D_ptds => cudaMemcpy3D(p: *const cudaMemcpy3DParms);
    cudaMemset3D_ptds => cudaMemset3D(p: cudaPitchedPtr, v: c_int, e: cudaExtent);
    cudaMemcpy3DPeer_ptds => cudaMemcpy3DPeer(p: *const cudaMemcpy3DPeerParms);
}

/// The upload stream is inside the parameters; 0 there is the per-thread stream.
unsafe extern "C" fn cudaGraphInstantiateWithParams_ptsz(
    out: *mut cudaGraphExec_t,
    graph: cudaGraph_t,
    p: *mut cudaGraphInstantiateParams,
) -> cudaError_t {
    if let Some(p) = p.as_mut() {
        p.upload_stream = per_thread(p.upload_stream);
    }
    cudaGraphInstantiateWithParams(out, graph, p)
}

export!(cudaGraphInstantiateWithParams_ptsz);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn zero_is_the_per_thread_stream() {
        assert_eq!(per_thread(std::ptr::null_mut()) as usize, STREAM_PER_THREAD);
        assert_eq!(
            per_thread(STREAM_LEGACY as cudaStream_t) as usize,
            STREAM_LEGACY
        );
        assert_eq!(per_thread(0x1234 as cudaStream_t) as usize, 0x1234);
    }
}
