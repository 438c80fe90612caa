//! Node parameters: the getters and setters of kernel, memcpy, memset, host and event nodes,
//! in a graph (`cudaGraph*NodeGet/SetParams`) and in an executable graph
//! (`cudaGraphExec*NodeSetParams`, which change that executable graph only); event-wait
//! nodes; memcpy nodes to and from a `__device__` symbol.
//!
//! A setter checks the parameters as adding such a node does and fails with
//! `cudaErrorInvalidValue` on a node of another type; in an executable graph it also refuses
//! what `cudaGraphExecUpdate` would (`graph_exec::parameters_compatible`). Kernel arguments are
//! copied when set. `cudaGraphKernelNodeGetParams` returns pointers to the node's copies of
//! its arguments, valid until its parameters change; a memcpy node's parameters come back as
//! the pitched-pointer form of the copy (position 0, the pitches and the extent it runs with).

use crate::graph_exec::set_exec_params;
use crate::graphs::*;
use crate::runtime::{api, diag, put, Runtime};
use crate::types::*;
use std::ffi::{c_int, c_void};

/// `node`'s parameters, when it is of the type `type_code` (`cudaGraphNodeType`).
fn kind_of<'a>(
    rt: &'a mut Runtime,
    what: &str,
    node: cudaGraphNode_t,
    type_code: c_int,
) -> Result<&'a mut Node, cudaError_t> {
    let n = rt
        .graphs
        .nodes
        .get_mut(&(node as usize))
        .ok_or(cudaErrorInvalidValue)?;
    if n.kind.type_code() != type_code {
        diag(&format!("{what}: the node is of another type"));
        return Err(cudaErrorInvalidValue);
    }
    Ok(n)
}

fn set(
    rt: &mut Runtime,
    what: &str,
    node: cudaGraphNode_t,
    kind: NodeKind,
) -> Result<(), cudaError_t> {
    let n = kind_of(rt, what, node, kind.type_code())?;
    n.kind = kind;
    n.arg_ptrs.clear();
    Ok(())
}

const KERNEL: c_int = 0;
const MEMCPY: c_int = 1;
const MEMSET: c_int = 2;
const HOST: c_int = 3;
const WAIT_EVENT: c_int = 6;
const EVENT_RECORD: c_int = 7;

unsafe extern "C" fn cudaGraphKernelNodeGetParams(
    node: cudaGraphNode_t,
    out: *mut cudaKernelNodeParams,
) -> cudaError_t {
    const WHAT: &str = "cudaGraphKernelNodeGetParams";
    api(WHAT, |rt| {
        let n = kind_of(rt, WHAT, node, KERNEL)?;
        let NodeKind::Kernel {
            stub,
            grid,
            block,
            shared,
            args,
            ..
        } = &mut n.kind
        else {
            unreachable!("checked to be a kernel node")
        };
        n.arg_ptrs = args.iter_mut().map(|a| a.as_mut_ptr() as usize).collect();
        let p = cudaKernelNodeParams {
            func: *stub as *const c_void,
            grid: *grid,
            block: *block,
            shared: u32::try_from(*shared).unwrap_or(u32::MAX),
            args: n.arg_ptrs.as_mut_ptr() as *mut *mut c_void,
            extra: std::ptr::null_mut(),
        };
        put(out, p)
    })
}

unsafe extern "C" fn cudaGraphKernelNodeSetParams(
    node: cudaGraphNode_t,
    p: *const cudaKernelNodeParams,
) -> cudaError_t {
    const WHAT: &str = "cudaGraphKernelNodeSetParams";
    api(WHAT, |rt| {
        kind_of(rt, WHAT, node, KERNEL)?;
        let kind = kernel_kind(rt, WHAT, p)?;
        set(rt, WHAT, node, kind)
    })
}

unsafe extern "C" fn cudaGraphExecKernelNodeSetParams(
    exec: cudaGraphExec_t,
    node: cudaGraphNode_t,
    p: *const cudaKernelNodeParams,
) -> cudaError_t {
    const WHAT: &str = "cudaGraphExecKernelNodeSetParams";
    api(WHAT, |rt| {
        let kind = kernel_kind(rt, WHAT, p)?;
        set_exec_params(rt, WHAT, exec, node, kind)
    })
}

/// The pitched-pointer form of a copy.
fn params_of_copy(c: &Copy3d) -> cudaMemcpy3DParms {
    let side = |ptr: usize, pitch: usize, slice: usize| cudaPitchedPtr {
        ptr: ptr as *mut c_void,
        pitch,
        xsize: c.width,
        ysize: slice.checked_div(pitch).unwrap_or(0),
    };
    let zero = cudaPos { x: 0, y: 0, z: 0 };
    cudaMemcpy3DParms {
        src_array: std::ptr::null_mut(),
        src_pos: zero,
        src_ptr: side(c.src, c.spitch, c.sslice),
        dst_array: std::ptr::null_mut(),
        dst_pos: zero,
        dst_ptr: side(c.dst, c.dpitch, c.dslice),
        extent: cudaPos {
            x: c.width,
            y: c.height,
            z: c.depth,
        },
        kind: c.kind,
    }
}

unsafe extern "C" fn cudaGraphMemcpyNodeGetParams(
    node: cudaGraphNode_t,
    out: *mut cudaMemcpy3DParms,
) -> cudaError_t {
    const WHAT: &str = "cudaGraphMemcpyNodeGetParams";
    api(WHAT, |rt| {
        let NodeKind::Copy(c) = kind_of(rt, WHAT, node, MEMCPY)?.kind else {
            unreachable!("checked to be a memcpy node")
        };
        put(out, params_of_copy(&c))
    })
}

fn copy_kind(what: &str, p: *const cudaMemcpy3DParms) -> Result<NodeKind, cudaError_t> {
    let p = unsafe { p.as_ref() }.ok_or(cudaErrorInvalidValue)?;
    Ok(NodeKind::Copy(copy_3d(what, p)?))
}

fn copy_1d_kind(
    dst: *mut c_void,
    src: *const c_void,
    count: usize,
    kind: c_int,
) -> Result<NodeKind, cudaError_t> {
    if !(cudaMemcpyHostToHost..=cudaMemcpyDefault).contains(&kind) {
        return Err(cudaErrorInvalidMemcpyDirection);
    }
    Ok(NodeKind::Copy(Copy3d::linear(dst, src, count, kind)))
}

/// A copy to `count` bytes at `offset` in a `__device__` variable.
fn to_symbol_kind(
    rt: &Runtime,
    what: &str,
    sym: *const c_void,
    src: *const c_void,
    count: usize,
    offset: usize,
    kind: c_int,
) -> Result<NodeKind, cudaError_t> {
    let dst = crate::memory::symbol_copy_range(
        rt,
        what,
        sym,
        count,
        offset,
        kind,
        crate::memory::SymbolCopy::To,
    )?;
    copy_1d_kind(dst, src, count, kind)
}

fn from_symbol_kind(
    rt: &Runtime,
    what: &str,
    dst: *mut c_void,
    sym: *const c_void,
    count: usize,
    offset: usize,
    kind: c_int,
) -> Result<NodeKind, cudaError_t> {
    let src = crate::memory::symbol_copy_range(
        rt,
        what,
        sym,
        count,
        offset,
        kind,
        crate::memory::SymbolCopy::From,
    )?;
    copy_1d_kind(dst, src, count, kind)
}

unsafe extern "C" fn cudaGraphMemcpyNodeSetParams(
    node: cudaGraphNode_t,
    p: *const cudaMemcpy3DParms,
) -> cudaError_t {
    const WHAT: &str = "cudaGraphMemcpyNodeSetParams";
    api(WHAT, |rt| set(rt, WHAT, node, copy_kind(WHAT, p)?))
}

unsafe extern "C" fn cudaGraphMemcpyNodeSetParams1D(
    node: cudaGraphNode_t,
    dst: *mut c_void,
    src: *const c_void,
    count: usize,
    kind: c_int,
) -> cudaError_t {
    const WHAT: &str = "cudaGraphMemcpyNodeSetParams1D";
    api(WHAT, |rt| {
        set(rt, WHAT, node, copy_1d_kind(dst, src, count, kind)?)
    })
}

unsafe extern "C" fn cudaGraphMemcpyNodeSetParamsToSymbol(
    node: cudaGraphNode_t,
    sym: *const c_void,
    src: *const c_void,
    count: usize,
    offset: usize,
    kind: c_int,
) -> cudaError_t {
    const WHAT: &str = "cudaGraphMemcpyNodeSetParamsToSymbol";
    api(WHAT, |rt| {
        let k = to_symbol_kind(rt, WHAT, sym, src, count, offset, kind)?;
        set(rt, WHAT, node, k)
    })
}

unsafe extern "C" fn cudaGraphMemcpyNodeSetParamsFromSymbol(
    node: cudaGraphNode_t,
    dst: *mut c_void,
    sym: *const c_void,
    count: usize,
    offset: usize,
    kind: c_int,
) -> cudaError_t {
    const WHAT: &str = "cudaGraphMemcpyNodeSetParamsFromSymbol";
    api(WHAT, |rt| {
        let k = from_symbol_kind(rt, WHAT, dst, sym, count, offset, kind)?;
        set(rt, WHAT, node, k)
    })
}

// Entry points: the parameters are CUDA's C signatures.
#[allow(clippy::too_many_arguments)]
unsafe extern "C" fn cudaGraphAddMemcpyNodeToSymbol(
    out: *mut cudaGraphNode_t,
    graph: cudaGraph_t,
    deps: *const cudaGraphNode_t,
    n: usize,
    sym: *const c_void,
    src: *const c_void,
    count: usize,
    offset: usize,
    kind: c_int,
) -> cudaError_t {
    const WHAT: &str = "cudaGraphAddMemcpyNodeToSymbol";
    api(WHAT, |rt| {
        let k = to_symbol_kind(rt, WHAT, sym, src, count, offset, kind)?;
        add(rt, WHAT, out, graph, deps, n, k)
    })
}

#[allow(clippy::too_many_arguments)]
unsafe extern "C" fn cudaGraphAddMemcpyNodeFromSymbol(
    out: *mut cudaGraphNode_t,
    graph: cudaGraph_t,
    deps: *const cudaGraphNode_t,
    n: usize,
    dst: *mut c_void,
    sym: *const c_void,
    count: usize,
    offset: usize,
    kind: c_int,
) -> cudaError_t {
    const WHAT: &str = "cudaGraphAddMemcpyNodeFromSymbol";
    api(WHAT, |rt| {
        let k = from_symbol_kind(rt, WHAT, dst, sym, count, offset, kind)?;
        add(rt, WHAT, out, graph, deps, n, k)
    })
}

unsafe extern "C" fn cudaGraphExecMemcpyNodeSetParams(
    exec: cudaGraphExec_t,
    node: cudaGraphNode_t,
    p: *const cudaMemcpy3DParms,
) -> cudaError_t {
    const WHAT: &str = "cudaGraphExecMemcpyNodeSetParams";
    api(WHAT, |rt| {
        set_exec_params(rt, WHAT, exec, node, copy_kind(WHAT, p)?)
    })
}

unsafe extern "C" fn cudaGraphExecMemcpyNodeSetParams1D(
    exec: cudaGraphExec_t,
    node: cudaGraphNode_t,
    dst: *mut c_void,
    src: *const c_void,
    count: usize,
    kind: c_int,
) -> cudaError_t {
    const WHAT: &str = "cudaGraphExecMemcpyNodeSetParams1D";
    api(WHAT, |rt| {
        set_exec_params(rt, WHAT, exec, node, copy_1d_kind(dst, src, count, kind)?)
    })
}

#[allow(clippy::too_many_arguments)]
unsafe extern "C" fn cudaGraphExecMemcpyNodeSetParamsToSymbol(
    exec: cudaGraphExec_t,
    node: cudaGraphNode_t,
    sym: *const c_void,
    src: *const c_void,
    count: usize,
    offset: usize,
    kind: c_int,
) -> cudaError_t {
    const WHAT: &str = "cudaGraphExecMemcpyNodeSetParamsToSymbol";
    api(WHAT, |rt| {
        let k = to_symbol_kind(rt, WHAT, sym, src, count, offset, kind)?;
        set_exec_params(rt, WHAT, exec, node, k)
    })
}

#[allow(clippy::too_many_arguments)]
unsafe extern "C" fn cudaGraphExecMemcpyNodeSetParamsFromSymbol(
    exec: cudaGraphExec_t,
    node: cudaGraphNode_t,
    dst: *mut c_void,
    sym: *const c_void,
    count: usize,
    offset: usize,
    kind: c_int,
) -> cudaError_t {
    const WHAT: &str = "cudaGraphExecMemcpyNodeSetParamsFromSymbol";
    api(WHAT, |rt| {
        let k = from_symbol_kind(rt, WHAT, dst, sym, count, offset, kind)?;
        set_exec_params(rt, WHAT, exec, node, k)
    })
}

unsafe extern "C" fn cudaGraphMemsetNodeGetParams(
    node: cudaGraphNode_t,
    out: *mut cudaMemsetParams,
) -> cudaError_t {
    const WHAT: &str = "cudaGraphMemsetNodeGetParams";
    api(WHAT, |rt| {
        let NodeKind::Memset {
            dst,
            pitch,
            value,
            element_size,
            width,
            height,
        } = kind_of(rt, WHAT, node, MEMSET)?.kind
        else {
            unreachable!("checked to be a memset node")
        };
        put(
            out,
            cudaMemsetParams {
                dst: dst as *mut c_void,
                pitch,
                value,
                element_size,
                width,
                height,
            },
        )
    })
}

unsafe extern "C" fn cudaGraphMemsetNodeSetParams(
    node: cudaGraphNode_t,
    p: *const cudaMemsetParams,
) -> cudaError_t {
    const WHAT: &str = "cudaGraphMemsetNodeSetParams";
    api(WHAT, |rt| set(rt, WHAT, node, memset_kind(WHAT, p)?))
}

unsafe extern "C" fn cudaGraphExecMemsetNodeSetParams(
    exec: cudaGraphExec_t,
    node: cudaGraphNode_t,
    p: *const cudaMemsetParams,
) -> cudaError_t {
    const WHAT: &str = "cudaGraphExecMemsetNodeSetParams";
    api(WHAT, |rt| {
        set_exec_params(rt, WHAT, exec, node, memset_kind(WHAT, p)?)
    })
}

unsafe extern "C" fn cudaGraphHostNodeGetParams(
    node: cudaGraphNode_t,
    out: *mut cudaHostNodeParams,
) -> cudaError_t {
    const WHAT: &str = "cudaGraphHostNodeGetParams";
    api(WHAT, |rt| {
        let NodeKind::Host { f, data } = kind_of(rt, WHAT, node, HOST)?.kind else {
            unreachable!("checked to be a host node")
        };
        put(
            out,
            cudaHostNodeParams {
                f: Some(f),
                data: data as *mut c_void,
            },
        )
    })
}

unsafe extern "C" fn cudaGraphHostNodeSetParams(
    node: cudaGraphNode_t,
    p: *const cudaHostNodeParams,
) -> cudaError_t {
    const WHAT: &str = "cudaGraphHostNodeSetParams";
    api(WHAT, |rt| set(rt, WHAT, node, host_kind(p)?))
}

unsafe extern "C" fn cudaGraphExecHostNodeSetParams(
    exec: cudaGraphExec_t,
    node: cudaGraphNode_t,
    p: *const cudaHostNodeParams,
) -> cudaError_t {
    const WHAT: &str = "cudaGraphExecHostNodeSetParams";
    api(WHAT, |rt| {
        set_exec_params(rt, WHAT, exec, node, host_kind(p)?)
    })
}

/// An event-record (`wait == false`) or event-wait node on a live event.
fn event_kind(rt: &Runtime, event: cudaEvent_t, wait: bool) -> Result<NodeKind, cudaError_t> {
    let event = event as usize;
    if !rt.events.contains_key(&event) {
        return Err(cudaErrorInvalidResourceHandle);
    }
    Ok(if wait {
        NodeKind::EventWait { event }
    } else {
        NodeKind::EventRecord { event }
    })
}

unsafe extern "C" fn cudaGraphAddEventWaitNode(
    out: *mut cudaGraphNode_t,
    graph: cudaGraph_t,
    deps: *const cudaGraphNode_t,
    n: usize,
    event: cudaEvent_t,
) -> cudaError_t {
    const WHAT: &str = "cudaGraphAddEventWaitNode";
    api(WHAT, |rt| {
        let k = event_kind(rt, event, true)?;
        add(rt, WHAT, out, graph, deps, n, k)
    })
}

fn get_event(
    rt: &mut Runtime,
    what: &str,
    node: cudaGraphNode_t,
    out: *mut cudaEvent_t,
    type_code: c_int,
) -> Result<(), cudaError_t> {
    match kind_of(rt, what, node, type_code)?.kind {
        NodeKind::EventRecord { event } | NodeKind::EventWait { event } => unsafe {
            put(out, event as cudaEvent_t)
        },
        _ => unreachable!("checked to be an event node"),
    }
}

unsafe extern "C" fn cudaGraphEventRecordNodeGetEvent(
    node: cudaGraphNode_t,
    out: *mut cudaEvent_t,
) -> cudaError_t {
    const WHAT: &str = "cudaGraphEventRecordNodeGetEvent";
    api(WHAT, |rt| get_event(rt, WHAT, node, out, EVENT_RECORD))
}

unsafe extern "C" fn cudaGraphEventWaitNodeGetEvent(
    node: cudaGraphNode_t,
    out: *mut cudaEvent_t,
) -> cudaError_t {
    const WHAT: &str = "cudaGraphEventWaitNodeGetEvent";
    api(WHAT, |rt| get_event(rt, WHAT, node, out, WAIT_EVENT))
}

unsafe extern "C" fn cudaGraphEventRecordNodeSetEvent(
    node: cudaGraphNode_t,
    event: cudaEvent_t,
) -> cudaError_t {
    const WHAT: &str = "cudaGraphEventRecordNodeSetEvent";
    api(WHAT, |rt| {
        let k = event_kind(rt, event, false)?;
        set(rt, WHAT, node, k)
    })
}

unsafe extern "C" fn cudaGraphEventWaitNodeSetEvent(
    node: cudaGraphNode_t,
    event: cudaEvent_t,
) -> cudaError_t {
    const WHAT: &str = "cudaGraphEventWaitNodeSetEvent";
    api(WHAT, |rt| {
        let k = event_kind(rt, event, true)?;
        set(rt, WHAT, node, k)
    })
}

unsafe extern "C" fn cudaGraphExecEventRecordNodeSetEvent(
    exec: cudaGraphExec_t,
    node: cudaGraphNode_t,
    event: cudaEvent_t,
) -> cudaError_t {
    const WHAT: &str = "cudaGraphExecEventRecordNodeSetEvent";
    api(WHAT, |rt| {
        let k = event_kind(rt, event, false)?;
        set_exec_params(rt, WHAT, exec, node, k)
    })
}

unsafe extern "C" fn cudaGraphExecEventWaitNodeSetEvent(
    exec: cudaGraphExec_t,
    node: cudaGraphNode_t,
    event: cudaEvent_t,
) -> cudaError_t {
    const WHAT: &str = "cudaGraphExecEventWaitNodeSetEvent";
    api(WHAT, |rt| {
        let k = event_kind(rt, event, true)?;
        set_exec_params(rt, WHAT, exec, node, k)
    })
}

export!(
    cudaGraphKernelNodeGetParams,
    cudaGraphKernelNodeSetParams,
    cudaGraphExecKernelNodeSetParams,
    cudaGraphMemcpyNodeGetParams,
    cudaGraphMemcpyNodeSetParams,
    cudaGraphMemcpyNodeSetParams1D,
    cudaGraphMemcpyNodeSetParamsToSymbol,
    cudaGraphMemcpyNodeSetParamsFromSymbol,
    cudaGraphAddMemcpyNodeToSymbol,
    cudaGraphAddMemcpyNodeFromSymbol,
    cudaGraphExecMemcpyNodeSetParams,
    cudaGraphExecMemcpyNodeSetParams1D,
    cudaGraphExecMemcpyNodeSetParamsToSymbol,
    cudaGraphExecMemcpyNodeSetParamsFromSymbol,
    cudaGraphMemsetNodeGetParams,
    cudaGraphMemsetNodeSetParams,
    cudaGraphExecMemsetNodeSetParams,
    cudaGraphHostNodeGetParams,
    cudaGraphHostNodeSetParams,
    cudaGraphExecHostNodeSetParams,
    cudaGraphAddEventWaitNode,
    cudaGraphEventRecordNodeGetEvent,
    cudaGraphEventWaitNodeGetEvent,
    cudaGraphEventRecordNodeSetEvent,
    cudaGraphEventWaitNodeSetEvent,
    cudaGraphExecEventRecordNodeSetEvent,
    cudaGraphExecEventWaitNodeSetEvent,
);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn copy_parameters_round_trip() {
        let c = Copy3d {
            dst: 0x8000,
            dpitch: 64,
            dslice: 64 * 4,
            src: 0x1000,
            spitch: 32,
            sslice: 32 * 2,
            width: 16,
            height: 2,
            depth: 3,
            kind: cudaMemcpyDeviceToDevice,
        };
        let back = copy_3d("t", &params_of_copy(&c)).unwrap();
        assert_eq!(
            (
                back.dst,
                back.dpitch,
                back.dslice,
                back.src,
                back.spitch,
                back.sslice
            ),
            (c.dst, c.dpitch, c.dslice, c.src, c.spitch, c.sslice)
        );
        assert_eq!((back.width, back.height, back.depth), (16, 2, 3));
    }
}
