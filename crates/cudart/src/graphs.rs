//! CUDA graphs: graphs built node by node (`cudaGraphAdd*Node`) or recorded by stream
//! capture (`capture.rs`), instantiated into an executable graph and launched.
//!
//! An instantiated graph is its nodes in one dependency (topological) order, fixed at
//! instantiation: among the nodes whose dependencies are done, the one added first runs next,
//! so every launch of a graph runs the same sequence. A launch runs that sequence to
//! completion inside `cudaGraphLaunch`, each node as the equivalent stream operation would
//! run: a kernel node is an ordinary launch (in timing mode cycle by cycle, with its own
//! statistics line and its cycles added to the clock events read), a memcpy or memset node an
//! ordinary copy, a host node a call of its function, an event-record node records the
//! event. Changes to a graph after instantiation do not reach the executable graph, and a
//! kernel node's arguments are copied when the node is added, as in CUDA.

// The handle types keep CUDA's C names (`cudaGraph_t`), so the code reads like the CUDA headers.
#![allow(non_camel_case_types)]

use crate::runtime::{api, diag, put, Runtime};
use crate::streams::{free_handle, new_handle};
use crate::types::*;
use std::collections::HashMap;
use std::ffi::{c_int, c_uint, c_void};

pub type cudaGraph_t = *mut c_void;
pub type cudaGraphExec_t = *mut c_void;
pub type cudaGraphNode_t = *mut c_void;
pub type HostFn = unsafe extern "C" fn(*mut c_void);

/// `cudaKernelNodeParams`.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct cudaKernelNodeParams {
    pub func: *const c_void,
    pub grid: dim3,
    pub block: dim3,
    pub shared: c_uint,
    pub args: *mut *mut c_void,
    pub extra: *mut *mut c_void,
}

/// `cudaPos`, `cudaPitchedPtr`, `cudaExtent` and `cudaMemcpy3DParms` (linear memory only).
#[repr(C)]
#[derive(Clone, Copy)]
pub struct cudaPos {
    pub x: usize,
    pub y: usize,
    pub z: usize,
}
#[repr(C)]
#[derive(Clone, Copy)]
pub struct cudaPitchedPtr {
    pub ptr: *mut c_void,
    pub pitch: usize,
    pub xsize: usize,
    pub ysize: usize,
}
#[repr(C)]
#[derive(Clone, Copy)]
pub struct cudaMemcpy3DParms {
    pub src_array: *mut c_void,
    pub src_pos: cudaPos,
    pub src_ptr: cudaPitchedPtr,
    pub dst_array: *mut c_void,
    pub dst_pos: cudaPos,
    pub dst_ptr: cudaPitchedPtr,
    pub extent: cudaPos,
    pub kind: c_int,
}

/// `cudaMemsetParams`.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct cudaMemsetParams {
    pub dst: *mut c_void,
    pub pitch: usize,
    pub value: c_uint,
    pub element_size: c_uint,
    pub width: usize,
    pub height: usize,
}

/// `cudaHostNodeParams`.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct cudaHostNodeParams {
    pub f: Option<HostFn>,
    pub data: *mut c_void,
}

/// A copy of `depth` slices of `height` rows of `width` bytes (a 1-D copy has one row).
#[derive(Clone, Copy, Debug)]
pub struct Copy3d {
    pub dst: usize,
    pub dpitch: usize,
    pub dslice: usize,
    pub src: usize,
    pub spitch: usize,
    pub sslice: usize,
    pub width: usize,
    pub height: usize,
    pub depth: usize,
    pub kind: c_int,
}

impl Copy3d {
    pub fn linear(dst: *mut c_void, src: *const c_void, count: usize, kind: c_int) -> Copy3d {
        Copy3d {
            dst: dst as usize,
            dpitch: count,
            dslice: count,
            src: src as usize,
            spitch: count,
            sslice: count,
            width: count,
            height: 1,
            depth: 1,
            kind,
        }
    }
}

/// What a node does when the graph runs.
#[derive(Clone, Debug)]
pub enum NodeKind {
    Kernel {
        stub: usize,
        grid: dim3,
        block: dim3,
        shared: usize,
        args: Vec<Vec<u8>>,
        cooperative: bool,
    },
    Copy(Copy3d),
    Memset {
        dst: usize,
        pitch: usize,
        value: u32,
        element_size: u32,
        width: usize,
        height: usize,
    },
    Host {
        f: HostFn,
        data: usize,
    },
    EventRecord {
        event: usize,
    },
    /// Waits for an event: everything has finished by then, so it checks the event exists.
    EventWait {
        event: usize,
    },
    /// A child graph: the graph (owned by the node, a copy of the one given) runs in its place.
    Child {
        graph: usize,
    },
    /// A graph allocation (`graph_mem.rs`) at its fixed address, and its pool properties.
    MemAlloc {
        addr: usize,
        size: usize,
        props: crate::graph_mem::cudaMemPoolProps,
    },
    MemFree {
        addr: usize,
    },
    Empty,
}

impl NodeKind {
    /// `cudaGraphNodeType`.
    pub fn type_code(&self) -> c_int {
        match self {
            NodeKind::Kernel { .. } => 0,
            NodeKind::Copy(_) => 1,
            NodeKind::Memset { .. } => 2,
            NodeKind::Host { .. } => 3,
            NodeKind::Child { .. } => 4,
            NodeKind::Empty => 5,
            NodeKind::EventWait { .. } => 6,
            NodeKind::EventRecord { .. } => 7,
            NodeKind::MemAlloc { .. } => 10,
            NodeKind::MemFree { .. } => 11,
        }
    }
}

#[derive(Debug)]
pub struct Node {
    pub graph: usize,
    pub kind: NodeKind,
    /// Nodes of the same graph this one waits for.
    pub deps: Vec<usize>,
    /// Unique among the nodes of all graphs (`cudaGraphNodeGetLocalId`).
    pub id: u32,
    /// The node this one was cloned from (`cudaGraphNodeFindInClone`).
    pub origin: Option<usize>,
    /// Addresses of a kernel node's argument copies, handed out by
    /// `cudaGraphKernelNodeGetParams` as its `void **kernelParams` (valid until the node's
    /// parameters change).
    pub arg_ptrs: Vec<usize>,
}

/// Graphs, their nodes and executable graphs, by handle.
#[derive(Default)]
pub struct Graphs {
    /// Graph → its nodes in the order they were added.
    pub graphs: HashMap<usize, Vec<usize>>,
    /// Graph → its id (`cudaGraphGetId`).
    pub ids: HashMap<usize, u32>,
    pub nodes: HashMap<usize, Node>,
    pub execs: HashMap<usize, crate::graph_exec::Exec>,
    pub capture: crate::capture::Captures,
    pub user_objects: crate::user_objects::UserObjects,
    pub mem: crate::graph_mem::GraphMem,
    last_id: u32,
}

impl Graphs {
    pub fn new_graph(&mut self) -> usize {
        let g = new_handle();
        self.graphs.insert(g, Vec::new());
        let id = self.next_id();
        self.ids.insert(g, id);
        g
    }

    /// A fresh id for a graph, node or executable graph.
    pub fn next_id(&mut self) -> u32 {
        self.last_id += 1;
        self.last_id
    }

    /// Adds a node to a graph that exists, after dependencies that are its nodes.
    pub fn insert(&mut self, graph: usize, mut deps: Vec<usize>, kind: NodeKind) -> usize {
        deps.dedup();
        let n = new_handle();
        let id = self.next_id();
        self.nodes.insert(
            n,
            Node {
                graph,
                kind,
                deps,
                id,
                origin: None,
                arg_ptrs: Vec::new(),
            },
        );
        self.graphs.get_mut(&graph).expect("a live graph").push(n);
        n
    }

    /// Frees a node (which the caller has unlinked from its graph), with the child graph it
    /// owns.
    pub fn free_node(&mut self, n: usize) {
        if let Some(node) = self.nodes.remove(&n) {
            if let NodeKind::Child { graph } = node.kind {
                self.destroy_graph(graph);
            }
            unsafe { free_handle(n) };
        }
    }

    /// Frees a graph, its nodes and the child graphs they own.
    pub fn destroy_graph(&mut self, graph: usize) -> bool {
        let Some(nodes) = self.graphs.remove(&graph) else {
            return false;
        };
        for n in nodes {
            self.free_node(n);
        }
        self.ids.remove(&graph);
        self.user_objects.graph_destroyed(graph);
        self.mem.release(graph);
        unsafe { free_handle(graph) };
        true
    }

    /// The graph's nodes in dependency order: among the nodes whose dependencies are done, the
    /// one added first. `None` when the dependencies form a cycle. (Instantiation orders its
    /// frozen copy, `graph_exec::freeze`.)
    #[cfg(test)]
    pub fn order(&self, graph: usize) -> Option<Vec<usize>> {
        let nodes = &self.graphs[&graph];
        let index: HashMap<usize, usize> = nodes.iter().enumerate().map(|(i, &n)| (n, i)).collect();
        let deps: Vec<Vec<usize>> = nodes
            .iter()
            .map(|n| self.nodes[n].deps.iter().map(|d| index[d]).collect())
            .collect();
        Some(order_of(&deps)?.into_iter().map(|i| nodes[i]).collect())
    }
}

/// Dependency order of nodes `0..deps.len()`, node `i` waiting for the nodes `deps[i]`: among
/// the nodes whose dependencies are done, the lowest index. `None` for a cycle.
pub fn order_of(deps: &[Vec<usize>]) -> Option<Vec<usize>> {
    let mut done = vec![false; deps.len()];
    let mut order = Vec::with_capacity(deps.len());
    while order.len() < deps.len() {
        let next = (0..deps.len()).find(|&i| !done[i] && deps[i].iter().all(|&d| done[d]))?;
        done[next] = true;
        order.push(next);
    }
    Some(order)
}

pub fn graph_of(rt: &Runtime, graph: cudaGraph_t) -> Result<usize, cudaError_t> {
    let g = graph as usize;
    if rt.graphs.graphs.contains_key(&g) {
        Ok(g)
    } else {
        Err(cudaErrorInvalidValue)
    }
}

/// The dependency list a program passed, checked to be nodes of `graph`.
pub unsafe fn dependencies(
    rt: &Runtime,
    what: &str,
    graph: usize,
    deps: *const cudaGraphNode_t,
    n: usize,
) -> Result<Vec<usize>, cudaError_t> {
    if n > 0 && deps.is_null() {
        diag(&format!(
            "{what}: {n} dependencies but a null dependency array"
        ));
        return Err(cudaErrorInvalidValue);
    }
    let mut out = Vec::with_capacity(n);
    for i in 0..n {
        let d = *deps.add(i) as usize;
        match rt.graphs.nodes.get(&d) {
            Some(node) if node.graph == graph => out.push(d),
            _ => {
                diag(&format!(
                    "{what}: dependency {i} ({d:#x}) is not a node of this graph"
                ));
                return Err(cudaErrorInvalidValue);
            }
        }
    }
    Ok(out)
}

/// The shared part of every `cudaGraphAdd*Node`.
pub unsafe fn add(
    rt: &mut Runtime,
    what: &str,
    out: *mut cudaGraphNode_t,
    graph: cudaGraph_t,
    deps: *const cudaGraphNode_t,
    n: usize,
    kind: NodeKind,
) -> Result<(), cudaError_t> {
    if out.is_null() {
        return Err(cudaErrorInvalidValue);
    }
    let g = graph_of(rt, graph)?;
    let deps = dependencies(rt, what, g, deps, n)?;
    let node = rt.graphs.insert(g, deps, kind);
    put(out, node as cudaGraphNode_t)
}

/// A `cudaMemcpy3DParms` on linear memory as a copy.
pub fn copy_3d(what: &str, p: &cudaMemcpy3DParms) -> Result<Copy3d, cudaError_t> {
    if !p.src_array.is_null() || !p.dst_array.is_null() {
        diag(&format!(
            "{what}: copies to or from a cudaArray are not supported in graphs"
        ));
        return Err(cudaErrorNotSupported);
    }
    let (w, h, d) = (p.extent.x, p.extent.y.max(1), p.extent.z.max(1));
    let pitch = |pp: &cudaPitchedPtr| if pp.pitch == 0 { w } else { pp.pitch };
    let (dp, sp) = (pitch(&p.dst_ptr), pitch(&p.src_ptr));
    if w > dp || w > sp {
        diag(&format!(
            "{what}: width {w} exceeds a pitch (dst {dp}, src {sp})"
        ));
        return Err(cudaErrorInvalidValue);
    }
    let slice =
        |pp: &cudaPitchedPtr, pitch: usize| pitch * if pp.ysize == 0 { h } else { pp.ysize };
    let (ds, ss) = (slice(&p.dst_ptr, dp), slice(&p.src_ptr, sp));
    let at = |pp: &cudaPitchedPtr, pos: &cudaPos, pitch: usize, sl: usize| {
        pp.ptr as usize + pos.z * sl + pos.y * pitch + pos.x
    };
    Ok(Copy3d {
        dst: at(&p.dst_ptr, &p.dst_pos, dp, ds),
        dpitch: dp,
        dslice: ds,
        src: at(&p.src_ptr, &p.src_pos, sp, ss),
        spitch: sp,
        sslice: ss,
        width: w,
        height: h,
        depth: d,
        kind: p.kind,
    })
}

/// Runs one node (not a host node: those run outside the runtime lock).
pub fn run_node(rt: &mut Runtime, node: &NodeKind) -> Result<(), cudaError_t> {
    const WHAT: &str = "cudaGraphLaunch";
    match node {
        NodeKind::Kernel {
            stub,
            grid,
            block,
            shared,
            args,
            cooperative,
        } => crate::launch::launch_bytes(
            rt,
            *stub,
            *grid,
            *block,
            args.clone(),
            *shared,
            *cooperative,
        ),
        NodeKind::Copy(c) => {
            for z in 0..c.depth {
                for y in 0..c.height {
                    let d = (c.dst + z * c.dslice + y * c.dpitch) as *mut c_void;
                    let s = (c.src + z * c.sslice + y * c.spitch) as *const c_void;
                    unsafe { crate::memory::copy(rt, WHAT, d, s, c.width, c.kind)? };
                }
            }
            Ok(())
        }
        NodeKind::Memset {
            dst,
            pitch,
            value,
            element_size,
            width,
            height,
        } => {
            let row: Vec<u8> = (0..*width)
                .flat_map(|_| value.to_le_bytes().into_iter().take(*element_size as usize))
                .collect();
            for y in 0..*height {
                let d = (dst + y * pitch) as *mut c_void;
                unsafe {
                    crate::memory::copy(
                        rt,
                        WHAT,
                        d,
                        row.as_ptr() as *const c_void,
                        row.len(),
                        cudaMemcpyDefault,
                    )?
                };
            }
            Ok(())
        }
        NodeKind::EventRecord { event } => {
            let clock = rt.clock;
            let e = rt
                .events
                .get_mut(event)
                .ok_or(cudaErrorInvalidResourceHandle)?;
            e.recorded = Some(clock);
            Ok(())
        }
        NodeKind::EventWait { event } => rt
            .events
            .contains_key(event)
            .then_some(())
            .ok_or(cudaErrorInvalidResourceHandle),
        NodeKind::MemAlloc { .. } | NodeKind::MemFree { .. } => crate::graph_mem::run(rt, node),
        // Child graphs are expanded at instantiation; host nodes run outside the lock.
        NodeKind::Host { .. } | NodeKind::Child { .. } | NodeKind::Empty => Ok(()),
    }
}

unsafe extern "C" fn cudaGraphCreate(graph: *mut cudaGraph_t, flags: c_uint) -> cudaError_t {
    api("cudaGraphCreate", |rt| {
        if graph.is_null() || flags != 0 {
            return Err(cudaErrorInvalidValue);
        }
        let g = rt.graphs.new_graph();
        put(graph, g as cudaGraph_t)
    })
}

/// Also drops the graph's references to user objects, whose destructors may then run.
unsafe extern "C" fn cudaGraphDestroy(graph: cudaGraph_t) -> cudaError_t {
    let e = api("cudaGraphDestroy", |rt| {
        if crate::graph_nodes::owned_by_a_node(&rt.graphs, graph as usize) {
            diag("cudaGraphDestroy: the graph belongs to a child-graph node; destroy the node or its graph");
            return Err(cudaErrorInvalidValue);
        }
        if rt.graphs.destroy_graph(graph as usize) {
            crate::graph_mem::free_released(rt);
            Ok(())
        } else {
            Err(cudaErrorInvalidValue)
        }
    });
    crate::user_objects::run_destructors();
    e
}

unsafe extern "C" fn cudaGraphAddKernelNode(
    out: *mut cudaGraphNode_t,
    graph: cudaGraph_t,
    deps: *const cudaGraphNode_t,
    n: usize,
    p: *const cudaKernelNodeParams,
) -> cudaError_t {
    const WHAT: &str = "cudaGraphAddKernelNode";
    api(WHAT, |rt| {
        let kind = kernel_kind(rt, WHAT, p)?;
        add(rt, WHAT, out, graph, deps, n, kind)
    })
}

/// A kernel node's parameters as given; the arguments are copied now.
pub unsafe fn kernel_kind(
    rt: &mut Runtime,
    what: &str,
    p: *const cudaKernelNodeParams,
) -> Result<NodeKind, cudaError_t> {
    let p = p.as_ref().ok_or(cudaErrorInvalidValue)?;
    if p.args.is_null() && !p.extra.is_null() {
        diag(&format!(
            "{what}: kernel arguments in the `extra` format are not supported; pass kernelParams"
        ));
        return Err(cudaErrorNotSupported);
    }
    let stub = p.func as usize;
    let args = crate::launch::argument_bytes(rt, stub, p.args)?;
    Ok(NodeKind::Kernel {
        stub,
        grid: p.grid,
        block: p.block,
        shared: p.shared as usize,
        args,
        cooperative: false,
    })
}

unsafe extern "C" fn cudaGraphAddMemcpyNode(
    out: *mut cudaGraphNode_t,
    graph: cudaGraph_t,
    deps: *const cudaGraphNode_t,
    n: usize,
    p: *const cudaMemcpy3DParms,
) -> cudaError_t {
    const WHAT: &str = "cudaGraphAddMemcpyNode";
    api(WHAT, |rt| {
        let c = copy_3d(WHAT, p.as_ref().ok_or(cudaErrorInvalidValue)?)?;
        add(rt, WHAT, out, graph, deps, n, NodeKind::Copy(c))
    })
}

// An entry point: the parameters are CUDA's C signature.
#[allow(clippy::too_many_arguments)]
unsafe extern "C" fn cudaGraphAddMemcpyNode1D(
    out: *mut cudaGraphNode_t,
    graph: cudaGraph_t,
    deps: *const cudaGraphNode_t,
    n: usize,
    dst: *mut c_void,
    src: *const c_void,
    count: usize,
    kind: c_int,
) -> cudaError_t {
    const WHAT: &str = "cudaGraphAddMemcpyNode1D";
    api(WHAT, |rt| {
        if !(cudaMemcpyHostToHost..=cudaMemcpyDefault).contains(&kind) {
            return Err(cudaErrorInvalidMemcpyDirection);
        }
        add(
            rt,
            WHAT,
            out,
            graph,
            deps,
            n,
            NodeKind::Copy(Copy3d::linear(dst, src, count, kind)),
        )
    })
}

unsafe extern "C" fn cudaGraphAddMemsetNode(
    out: *mut cudaGraphNode_t,
    graph: cudaGraph_t,
    deps: *const cudaGraphNode_t,
    n: usize,
    p: *const cudaMemsetParams,
) -> cudaError_t {
    const WHAT: &str = "cudaGraphAddMemsetNode";
    api(WHAT, |rt| {
        let kind = memset_kind(WHAT, p)?;
        add(rt, WHAT, out, graph, deps, n, kind)
    })
}

/// A memset node's parameters, checked.
pub unsafe fn memset_kind(what: &str, p: *const cudaMemsetParams) -> Result<NodeKind, cudaError_t> {
    let p = p.as_ref().ok_or(cudaErrorInvalidValue)?;
    if !matches!(p.element_size, 1 | 2 | 4) {
        diag(&format!(
            "{what}: elementSize {} (must be 1, 2 or 4)",
            p.element_size
        ));
        return Err(cudaErrorInvalidValue);
    }
    let row = p.width * p.element_size as usize;
    if p.height > 1 && p.pitch < row {
        diag(&format!(
            "{what}: pitch {} is less than a row of {row} bytes",
            p.pitch
        ));
        return Err(cudaErrorInvalidValue);
    }
    Ok(NodeKind::Memset {
        dst: p.dst as usize,
        pitch: p.pitch,
        value: p.value,
        element_size: p.element_size,
        width: p.width,
        height: p.height.max(1),
    })
}

unsafe extern "C" fn cudaGraphAddHostNode(
    out: *mut cudaGraphNode_t,
    graph: cudaGraph_t,
    deps: *const cudaGraphNode_t,
    n: usize,
    p: *const cudaHostNodeParams,
) -> cudaError_t {
    const WHAT: &str = "cudaGraphAddHostNode";
    api(WHAT, |rt| {
        let kind = host_kind(p)?;
        add(rt, WHAT, out, graph, deps, n, kind)
    })
}

/// A host node's parameters: the function must not be null.
pub unsafe fn host_kind(p: *const cudaHostNodeParams) -> Result<NodeKind, cudaError_t> {
    let p = p.as_ref().ok_or(cudaErrorInvalidValue)?;
    let f = p.f.ok_or(cudaErrorInvalidValue)?;
    Ok(NodeKind::Host {
        f,
        data: p.data as usize,
    })
}

unsafe extern "C" fn cudaGraphAddEmptyNode(
    out: *mut cudaGraphNode_t,
    graph: cudaGraph_t,
    deps: *const cudaGraphNode_t,
    n: usize,
) -> cudaError_t {
    api("cudaGraphAddEmptyNode", |rt| {
        add(
            rt,
            "cudaGraphAddEmptyNode",
            out,
            graph,
            deps,
            n,
            NodeKind::Empty,
        )
    })
}

unsafe extern "C" fn cudaGraphAddEventRecordNode(
    out: *mut cudaGraphNode_t,
    graph: cudaGraph_t,
    deps: *const cudaGraphNode_t,
    n: usize,
    event: cudaEvent_t,
) -> cudaError_t {
    const WHAT: &str = "cudaGraphAddEventRecordNode";
    api(WHAT, |rt| {
        if !rt.events.contains_key(&(event as usize)) {
            return Err(cudaErrorInvalidResourceHandle);
        }
        add(
            rt,
            WHAT,
            out,
            graph,
            deps,
            n,
            NodeKind::EventRecord {
                event: event as usize,
            },
        )
    })
}

/// `cudaGraphAddDependencies(graph, from, to, edgeData, n)` (CUDA 13): `to[i]` waits for `from[i]`.
unsafe extern "C" fn cudaGraphAddDependencies(
    graph: cudaGraph_t,
    from: *const cudaGraphNode_t,
    to: *const cudaGraphNode_t,
    _edges: *const c_void,
    n: usize,
) -> cudaError_t {
    const WHAT: &str = "cudaGraphAddDependencies";
    api(WHAT, |rt| {
        let g = graph_of(rt, graph)?;
        let from = dependencies(rt, WHAT, g, from, n)?;
        let to = dependencies(rt, WHAT, g, to, n)?;
        for (f, t) in from.into_iter().zip(to) {
            let deps = &mut rt.graphs.nodes.get_mut(&t).expect("checked above").deps;
            if !deps.contains(&f) {
                deps.push(f);
            }
        }
        Ok(())
    })
}

unsafe extern "C" fn cudaGraphGetNodes(
    graph: cudaGraph_t,
    nodes: *mut cudaGraphNode_t,
    count: *mut usize,
) -> cudaError_t {
    api("cudaGraphGetNodes", |rt| {
        let g = graph_of(rt, graph)?;
        let all = &rt.graphs.graphs[&g];
        if count.is_null() {
            return Err(cudaErrorInvalidValue);
        }
        if !nodes.is_null() {
            for (i, n) in all.iter().take(*count).enumerate() {
                *nodes.add(i) = *n as cudaGraphNode_t;
            }
        }
        put(
            count,
            if nodes.is_null() {
                all.len()
            } else {
                all.len().min(*count)
            },
        )
    })
}

export!(
    cudaGraphCreate,
    cudaGraphDestroy,
    cudaGraphAddKernelNode,
    cudaGraphAddMemcpyNode,
    cudaGraphAddMemcpyNode1D,
    cudaGraphAddMemsetNode,
    cudaGraphAddHostNode,
    cudaGraphAddEmptyNode,
    cudaGraphAddEventRecordNode,
    cudaGraphAddDependencies,
    cudaGraphGetNodes,
);

#[cfg(test)]
mod tests {
    use super::*;
    use std::mem::{offset_of, size_of};

    /// Sizes and offsets of the CUDA 13 `driver_types.h` structs.
    #[test]
    fn layouts_match_the_cuda_13_headers() {
        assert_eq!(size_of::<cudaKernelNodeParams>(), 56);
        assert_eq!(offset_of!(cudaKernelNodeParams, shared), 32);
        assert_eq!(offset_of!(cudaKernelNodeParams, args), 40);
        assert_eq!(size_of::<cudaMemcpy3DParms>(), 160);
        assert_eq!(offset_of!(cudaMemcpy3DParms, dst_ptr), 96);
        assert_eq!(offset_of!(cudaMemcpy3DParms, kind), 152);
        assert_eq!(size_of::<cudaMemsetParams>(), 40);
        assert_eq!(offset_of!(cudaMemsetParams, width), 24);
    }

    fn graph_with(deps: &[&[usize]]) -> (Graphs, usize, Vec<usize>) {
        let mut g = Graphs::default();
        let graph = g.new_graph();
        let mut nodes: Vec<usize> = Vec::new();
        for d in deps {
            let n = g.insert(
                graph,
                d.iter().map(|&i| nodes[i]).collect(),
                NodeKind::Empty,
            );
            nodes.push(n);
        }
        (g, graph, nodes)
    }

    #[test]
    fn order_is_topological_and_prefers_the_node_added_first() {
        // 0 ← 2, 1 ← 2 ← 3, and 4 independent: 0 1 2 3 4 (each ready node in insertion order).
        let (mut g, graph, n) = graph_with(&[&[], &[], &[0, 1], &[2], &[]]);
        assert_eq!(g.order(graph).unwrap(), vec![n[0], n[1], n[2], n[3], n[4]]);
        // Node 0 now also waits for node 3, which waits (through 2) for node 0: a cycle.
        g.nodes.get_mut(&n[0]).unwrap().deps.push(n[3]);
        assert_eq!(g.order(graph), None);
        assert!(g.destroy_graph(graph));
        assert!(g.nodes.is_empty());
    }

    #[test]
    fn a_later_node_can_run_first_when_an_earlier_one_waits() {
        // Node 0 waits for node 2 (an edge added afterwards, as cudaGraphAddDependencies does).
        let (mut g, graph, n) = graph_with(&[&[], &[], &[]]);
        g.nodes.get_mut(&n[0]).unwrap().deps.push(n[2]);
        assert_eq!(g.order(graph).unwrap(), vec![n[1], n[2], n[0]]);
    }

    #[test]
    fn copy_3d_offsets() {
        let null = std::ptr::null_mut();
        let p = cudaMemcpy3DParms {
            src_array: null,
            src_pos: cudaPos { x: 4, y: 1, z: 0 },
            src_ptr: cudaPitchedPtr {
                ptr: 0x1000 as *mut c_void,
                pitch: 64,
                xsize: 16,
                ysize: 8,
            },
            dst_array: null,
            dst_pos: cudaPos { x: 0, y: 0, z: 1 },
            dst_ptr: cudaPitchedPtr {
                ptr: 0x8000 as *mut c_void,
                pitch: 32,
                xsize: 8,
                ysize: 4,
            },
            extent: cudaPos { x: 16, y: 2, z: 1 },
            kind: cudaMemcpyDeviceToDevice,
        };
        let c = copy_3d("t", &p).unwrap();
        assert_eq!((c.src, c.spitch, c.sslice), (0x1000 + 64 + 4, 64, 512));
        assert_eq!((c.dst, c.dpitch, c.dslice), (0x8000 + 128, 32, 128));
        assert_eq!((c.width, c.height, c.depth), (16, 2, 1));
        let wide = cudaMemcpy3DParms {
            extent: cudaPos { x: 40, y: 1, z: 1 },
            ..p
        };
        assert_eq!(copy_3d("t", &wide).err(), Some(cudaErrorInvalidValue));
    }
}
