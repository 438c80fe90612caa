//! Executable graphs: instantiation, launch, `cudaGraphExecUpdate` and the `cudaGraphExec*`
//! calls that change one node of an executable graph.
//!
//! Instantiation freezes the graph ([`Frozen`]): its nodes with their parameters and
//! dependencies, each child graph frozen inside its node, and the dependency order of every
//! level (`graphs::order_of`: among the ready nodes, the one added first). Later changes to
//! the graph do not reach the executable graph, as in CUDA. A launch runs the frozen nodes in
//! that order, a child graph's nodes in its place, skipping disabled nodes.
//!
//! `cudaGraphExecUpdate` pairs the nodes of the new graph with the frozen ones in the order they
//! were added (CUDA pairs them by edge order, which for graphs built the same way is the same
//! pairing) and refuses, with CUDA's documented results, a different node count or
//! dependencies (`cudaGraphExecUpdateErrorTopologyChanged`), a node of another type
//! (`…NodeTypeChanged`), a cooperative kernel node becoming ordinary or back
//! (`…UnsupportedFunctionChange`), and memset or memcpy changes CUDA does not allow
//! (`…ParametersChanged`: a 2-D memset's shape or element size, a memset changing between
//! 1-D and 2-D, a copy operand moving between host and device memory). Otherwise every node
//! takes the new parameters and keeps its enabled state.

use crate::graphs::{cudaGraphExec_t, cudaGraphNode_t, cudaGraph_t, order_of, run_node, NodeKind};
use crate::runtime::{api, diag, guard, put, Runtime};
use crate::streams::{free_handle, new_handle};
use crate::types::*;
use std::ffi::{c_int, c_uint, c_void};

pub const cudaErrorGraphExecUpdateFailure: cudaError_t = 910;

/// A graph as instantiated.
#[derive(Clone, Debug, Default)]
pub struct Frozen {
    pub nodes: Vec<FrozenNode>,
    /// Indices into `nodes` in launch order.
    pub order: Vec<usize>,
}

#[derive(Clone, Debug)]
pub struct FrozenNode {
    /// The node of the instantiated graph (the handle `cudaGraphExec*SetParams` take).
    pub node: usize,
    pub kind: NodeKind,
    /// Indices into the same level's nodes.
    pub deps: Vec<usize>,
    pub child: Option<Box<Frozen>>,
    pub enabled: bool,
}

pub struct Exec {
    pub frozen: Frozen,
    pub flags: u64,
    pub id: u32,
}

impl Frozen {
    /// The operations of one launch, in order.
    pub fn sequence(&self, out: &mut Vec<NodeKind>) {
        for &i in &self.order {
            let n = &self.nodes[i];
            match (&n.child, n.enabled) {
                (Some(child), _) => child.sequence(out),
                (None, true) => out.push(n.kind.clone()),
                // A disabled node runs as an empty node.
                (None, false) => {}
            }
        }
    }

    fn find_mut(&mut self, node: usize) -> Option<&mut FrozenNode> {
        self.nodes.iter_mut().find(|n| n.node == node)
    }
}

/// Freezes `graph` (which exists). `Err(node)` names a node on a dependency cycle's level
/// (the first node of that level), for the diagnostic.
pub fn freeze(rt: &Runtime, graph: usize) -> Result<Frozen, usize> {
    let g = &rt.graphs;
    let nodes = &g.graphs[&graph];
    let index = |d: &usize| {
        nodes
            .iter()
            .position(|n| n == d)
            .expect("a node of the graph")
    };
    let mut out = Vec::with_capacity(nodes.len());
    for &n in nodes {
        let node = &g.nodes[&n];
        let child = match node.kind {
            NodeKind::Child { graph } => Some(Box::new(freeze(rt, graph)?)),
            _ => None,
        };
        out.push(FrozenNode {
            node: n,
            kind: node.kind.clone(),
            deps: node.deps.iter().map(index).collect(),
            child,
            enabled: true,
        });
    }
    let deps: Vec<Vec<usize>> = out.iter().map(|n| n.deps.clone()).collect();
    let order = order_of(&deps).ok_or(nodes.first().copied().unwrap_or(graph))?;
    Ok(Frozen { nodes: out, order })
}

fn exec_of(rt: &mut Runtime, exec: cudaGraphExec_t) -> Result<&mut Exec, cudaError_t> {
    rt.graphs
        .execs
        .get_mut(&(exec as usize))
        .ok_or(cudaErrorInvalidValue)
}

fn instantiate(
    rt: &mut Runtime,
    what: &str,
    out: *mut cudaGraphExec_t,
    graph: cudaGraph_t,
    flags: u64,
) -> Result<(), cudaError_t> {
    if out.is_null() {
        return Err(cudaErrorInvalidValue);
    }
    let g = crate::graphs::graph_of(rt, graph)?;
    let frozen = freeze(rt, g).map_err(|_| {
        diag(&format!("{what}: the graph's dependencies form a cycle"));
        cudaErrorInvalidValue
    })?;
    let exec = new_handle();
    if rt.graphs.mem.has_nodes(g) && !rt.graphs.mem.instantiated(g, exec) {
        unsafe { free_handle(exec) };
        diag(&format!("{what}: the graph has memory nodes and an executable graph already (CUDA allows one at a time)"));
        return Err(cudaErrorNotSupported);
    }
    let id = rt.graphs.next_id();
    // The executable graph holds the graph's user-object references too.
    rt.graphs.user_objects.copy_refs(g, exec);
    rt.graphs.execs.insert(exec, Exec { frozen, flags, id });
    unsafe { put(out, exec as cudaGraphExec_t) }
}

/// CUDA 13: `cudaGraphInstantiate(exec, graph, unsigned long long flags)`.
unsafe extern "C" fn cudaGraphInstantiate(
    out: *mut cudaGraphExec_t,
    graph: cudaGraph_t,
    flags: u64,
) -> cudaError_t {
    api("cudaGraphInstantiate", |rt| {
        instantiate(rt, "cudaGraphInstantiate", out, graph, flags)
    })
}

unsafe extern "C" fn cudaGraphInstantiateWithFlags(
    out: *mut cudaGraphExec_t,
    graph: cudaGraph_t,
    flags: u64,
) -> cudaError_t {
    api("cudaGraphInstantiateWithFlags", |rt| {
        instantiate(rt, "cudaGraphInstantiateWithFlags", out, graph, flags)
    })
}

/// `cudaGraphInstantiateParams`.
#[repr(C)]
pub struct cudaGraphInstantiateParams {
    pub flags: u64,
    pub upload_stream: cudaStream_t,
    pub err_node_out: cudaGraphNode_t,
    /// `cudaGraphInstantiateResult`: 0 success, 1 error, 2 invalid structure (a cycle).
    pub result_out: c_int,
}

pub(crate) unsafe extern "C" fn cudaGraphInstantiateWithParams(
    out: *mut cudaGraphExec_t,
    graph: cudaGraph_t,
    p: *mut cudaGraphInstantiateParams,
) -> cudaError_t {
    const WHAT: &str = "cudaGraphInstantiateWithParams";
    api(WHAT, |rt| {
        let p = p.as_mut().ok_or(cudaErrorInvalidValue)?;
        p.err_node_out = std::ptr::null_mut();
        p.result_out = 1;
        if !rt.valid_stream(p.upload_stream) {
            return Err(cudaErrorInvalidResourceHandle);
        }
        let g = crate::graphs::graph_of(rt, graph)?;
        if let Err(n) = freeze(rt, g) {
            p.err_node_out = n as cudaGraphNode_t;
            p.result_out = 2;
        }
        instantiate(rt, WHAT, out, graph, p.flags)?;
        p.result_out = 0;
        Ok(())
    })
}

unsafe extern "C" fn cudaGraphExecDestroy(exec: cudaGraphExec_t) -> cudaError_t {
    let e = api("cudaGraphExecDestroy", |rt| {
        rt.graphs
            .execs
            .remove(&(exec as usize))
            .ok_or(cudaErrorInvalidValue)?;
        rt.graphs.user_objects.owner_destroyed(exec as usize);
        rt.graphs.mem.release(exec as usize);
        crate::graph_mem::free_released(rt);
        free_handle(exec as usize);
        Ok(())
    });
    crate::user_objects::run_destructors();
    e
}

pub(crate) unsafe extern "C" fn cudaGraphUpload(
    exec: cudaGraphExec_t,
    stream: cudaStream_t,
) -> cudaError_t {
    api("cudaGraphUpload", |rt| {
        if !rt.valid_stream(stream) {
            return Err(cudaErrorInvalidResourceHandle);
        }
        exec_of(rt, exec).map(|_| ())
    })
}

/// Runs the executable graph's nodes in order, to completion; the first failing node's error
/// is returned. On a capturing stream the nodes are captured in that order instead.
pub(crate) unsafe extern "C" fn cudaGraphLaunch(
    exec: cudaGraphExec_t,
    stream: cudaStream_t,
) -> cudaError_t {
    const WHAT: &str = "cudaGraphLaunch";
    let mut nodes = Vec::new();
    let e = api(WHAT, |rt| {
        if !rt.valid_stream(stream) {
            return Err(cudaErrorInvalidResourceHandle);
        }
        let x = exec_of(rt, exec)?;
        x.frozen.sequence(&mut nodes);
        let flags = x.flags;
        let mem = nodes
            .iter()
            .any(|n| matches!(n, NodeKind::MemAlloc { .. } | NodeKind::MemFree { .. }));
        if mem && crate::capture::capturing(rt, stream) {
            diag(&format!(
                "{WHAT}: capturing a graph with memory nodes is not supported by warpsim"
            ));
            return Err(cudaErrorNotSupported);
        }
        crate::graph_mem::check_launch(rt, &nodes, flags)?;
        if crate::capture::capturing(rt, stream) {
            for n in std::mem::take(&mut nodes) {
                crate::capture::capture(rt, stream, n)?;
            }
        }
        Ok(())
    });
    if e != cudaSuccess {
        return e;
    }
    for node in nodes {
        let e = match node {
            // Outside the runtime lock: the function may call the runtime.
            NodeKind::Host { f, data } => guard(WHAT, cudaErrorUnknown, || {
                f(data as *mut c_void);
                cudaSuccess
            }),
            node => api(WHAT, |rt| run_node(rt, &node)),
        };
        if e != cudaSuccess {
            return e;
        }
    }
    cudaSuccess
}

/// `cudaGraphExecUpdateResultInfo`.
#[repr(C)]
pub struct cudaGraphExecUpdateResultInfo {
    /// `cudaGraphExecUpdateResult`.
    pub result: c_int,
    pub error_node: cudaGraphNode_t,
    pub error_from_node: cudaGraphNode_t,
}

/// `cudaGraphExecUpdateResult` values.
pub const UPDATE_TOPOLOGY_CHANGED: c_int = 2;
pub const UPDATE_NODE_TYPE_CHANGED: c_int = 3;
pub const UPDATE_PARAMETERS_CHANGED: c_int = 5;
pub const UPDATE_NOT_SUPPORTED: c_int = 6;
pub const UPDATE_UNSUPPORTED_FUNCTION_CHANGE: c_int = 7;

/// Why an update is refused: the result and the nodes `resultInfo` names.
pub struct Refusal {
    pub result: c_int,
    pub node: usize,
    pub from: usize,
    pub why: String,
}

fn refuse(result: c_int, node: usize, from: usize, why: String) -> Refusal {
    Refusal {
        result,
        node,
        from,
        why,
    }
}

/// Whether a copy's operands are host or device memory, which an update may not change.
fn copy_sides(c: &crate::graphs::Copy3d) -> (bool, bool) {
    use crate::memory::is_device;
    (
        is_device(c.src as *const c_void),
        is_device(c.dst as *const c_void),
    )
}

/// Whether `new` may replace `old` in an executable graph; the reason when not.
pub fn parameters_compatible(old: &NodeKind, new: &NodeKind) -> Result<(), (c_int, String)> {
    match (old, new) {
        (NodeKind::Kernel { cooperative: a, .. }, NodeKind::Kernel { cooperative: b, .. })
            if a != b =>
        {
            Err((
                UPDATE_UNSUPPORTED_FUNCTION_CHANGE,
                "a cooperative kernel node cannot become an ordinary one, or back".into(),
            ))
        }
        (
            NodeKind::Memset {
                height: h0,
                width: w0,
                pitch: p0,
                element_size: e0,
                ..
            },
            NodeKind::Memset {
                height: h1,
                width: w1,
                pitch: p1,
                element_size: e1,
                ..
            },
        ) => {
            if (*h0 > 1) != (*h1 > 1) {
                Err((
                    UPDATE_PARAMETERS_CHANGED,
                    "a memset cannot change between 1-D and 2-D".into(),
                ))
            } else if *h0 > 1 && (h0, w0, p0, e0) != (h1, w1, p1, e1) {
                Err((
                    UPDATE_PARAMETERS_CHANGED,
                    "of a 2-D memset only the address and value may change".into(),
                ))
            } else {
                Ok(())
            }
        }
        (NodeKind::MemAlloc { addr: a, .. }, NodeKind::MemAlloc { addr: b, .. })
        | (NodeKind::MemFree { addr: a }, NodeKind::MemFree { addr: b })
            if a != b =>
        {
            Err((
                UPDATE_NOT_SUPPORTED,
                "a memory node cannot change its allocation".into(),
            ))
        }
        (NodeKind::Copy(a), NodeKind::Copy(b)) if copy_sides(a) != copy_sides(b) => Err((
            UPDATE_PARAMETERS_CHANGED,
            "a copy's source or destination cannot move between host and device memory".into(),
        )),
        _ => Ok(()),
    }
}

/// Pairs `graph`'s nodes with `old`'s in the order they were added and checks that the one
/// can take the other's parameters; the updated frozen graph when it can.
pub fn updated(rt: &Runtime, old: &Frozen, graph: usize) -> Result<Frozen, Refusal> {
    let g = &rt.graphs;
    let nodes = &g.graphs[&graph];
    if nodes.len() != old.nodes.len() {
        return Err(refuse(
            UPDATE_TOPOLOGY_CHANGED,
            0,
            0,
            format!(
                "the graph has {} nodes, the executable graph {}",
                nodes.len(),
                old.nodes.len()
            ),
        ));
    }
    let mut new = old.clone();
    for (i, &n) in nodes.iter().enumerate() {
        let node = &g.nodes[&n];
        let was = &old.nodes[i];
        if node.kind.type_code() != was.kind.type_code() {
            return Err(refuse(
                UPDATE_NODE_TYPE_CHANGED,
                n,
                0,
                format!("node {i} (in the order added) changed type"),
            ));
        }
        if node.deps.len() != was.deps.len() {
            return Err(refuse(
                UPDATE_TOPOLOGY_CHANGED,
                n,
                0,
                format!(
                    "node {i} has {} dependencies, {} before",
                    node.deps.len(),
                    was.deps.len()
                ),
            ));
        }
        for d in &node.deps {
            let j = nodes
                .iter()
                .position(|x| x == d)
                .expect("a node of the graph");
            if !was.deps.contains(&j) {
                return Err(refuse(
                    UPDATE_TOPOLOGY_CHANGED,
                    n,
                    *d,
                    format!("node {i} depends on node {j}, which it did not before"),
                ));
            }
        }
        parameters_compatible(&was.kind, &node.kind)
            .map_err(|(result, why)| refuse(result, n, 0, format!("node {i}: {why}")))?;
        let slot = &mut new.nodes[i];
        slot.kind = node.kind.clone();
        if let (NodeKind::Child { graph: child }, Some(frozen)) = (&node.kind, &was.child) {
            slot.child = Some(Box::new(updated(rt, frozen, *child)?));
        }
    }
    Ok(new)
}

unsafe extern "C" fn cudaGraphExecUpdate(
    exec: cudaGraphExec_t,
    graph: cudaGraph_t,
    info: *mut cudaGraphExecUpdateResultInfo,
) -> cudaError_t {
    const WHAT: &str = "cudaGraphExecUpdate";
    api(WHAT, |rt| {
        let info = info.as_mut().ok_or(cudaErrorInvalidValue)?;
        *info = cudaGraphExecUpdateResultInfo {
            result: 1,
            error_node: std::ptr::null_mut(),
            error_from_node: std::ptr::null_mut(),
        };
        let g = crate::graphs::graph_of(rt, graph)?;
        let old = exec_of(rt, exec)?.frozen.clone();
        match updated(rt, &old, g) {
            Ok(new) => {
                exec_of(rt, exec)?.frozen = new;
                info.result = 0;
                Ok(())
            }
            Err(r) => {
                diag(&format!("{WHAT}: not updated: {}", r.why));
                info.result = r.result;
                info.error_node = r.node as cudaGraphNode_t;
                info.error_from_node = r.from as cudaGraphNode_t;
                Err(cudaErrorGraphExecUpdateFailure)
            }
        }
    })
}

/// The node of an executable graph that `node` (of the graph it was instantiated from) became.
pub fn exec_node<'a>(
    rt: &'a mut Runtime,
    what: &str,
    exec: cudaGraphExec_t,
    node: cudaGraphNode_t,
) -> Result<&'a mut FrozenNode, cudaError_t> {
    exec_of(rt, exec)?
        .frozen
        .find_mut(node as usize)
        .ok_or_else(|| {
            diag(&format!(
                "{what}: the node is not one of the graph the executable graph was instantiated from"
            ));
            cudaErrorInvalidValue
        })
}

/// `cudaGraphExec*NodeSetParams`: gives the executable graph's copy of `node` the parameters
/// `kind`, which must be of the node's type and a change an update allows.
pub fn set_exec_params(
    rt: &mut Runtime,
    what: &str,
    exec: cudaGraphExec_t,
    node: cudaGraphNode_t,
    kind: NodeKind,
) -> Result<(), cudaError_t> {
    let n = exec_node(rt, what, exec, node)?;
    if n.kind.type_code() != kind.type_code() {
        diag(&format!("{what}: the node is of another type"));
        return Err(cudaErrorInvalidValue);
    }
    if let Err((_, why)) = parameters_compatible(&n.kind, &kind) {
        diag(&format!("{what}: {why}"));
        return Err(cudaErrorInvalidValue);
    }
    n.kind = kind;
    Ok(())
}

unsafe extern "C" fn cudaGraphExecChildGraphNodeSetParams(
    exec: cudaGraphExec_t,
    node: cudaGraphNode_t,
    child: cudaGraph_t,
) -> cudaError_t {
    const WHAT: &str = "cudaGraphExecChildGraphNodeSetParams";
    api(WHAT, |rt| {
        let g = crate::graphs::graph_of(rt, child)?;
        let n = exec_node(rt, WHAT, exec, node)?;
        let Some(old) = n.child.clone() else {
            diag(&format!("{WHAT}: the node is not a child-graph node"));
            return Err(cudaErrorInvalidValue);
        };
        let new = updated(rt, &old, g).map_err(|r| {
            diag(&format!("{WHAT}: {}", r.why));
            cudaErrorInvalidValue
        })?;
        exec_node(rt, WHAT, exec, node)?.child = Some(Box::new(new));
        Ok(())
    })
}

/// Kernel, memcpy and memset nodes can be disabled (CUDA's list); a disabled node runs as an
/// empty node.
fn can_disable(k: &NodeKind) -> bool {
    matches!(
        k,
        NodeKind::Kernel { .. } | NodeKind::Copy(_) | NodeKind::Memset { .. }
    )
}

unsafe extern "C" fn cudaGraphNodeSetEnabled(
    exec: cudaGraphExec_t,
    node: cudaGraphNode_t,
    enabled: c_uint,
) -> cudaError_t {
    const WHAT: &str = "cudaGraphNodeSetEnabled";
    api(WHAT, |rt| {
        let n = exec_node(rt, WHAT, exec, node)?;
        if !can_disable(&n.kind) {
            diag(&format!(
                "{WHAT}: only kernel, memcpy and memset nodes can be disabled"
            ));
            return Err(cudaErrorInvalidValue);
        }
        n.enabled = enabled != 0;
        Ok(())
    })
}

unsafe extern "C" fn cudaGraphNodeGetEnabled(
    exec: cudaGraphExec_t,
    node: cudaGraphNode_t,
    enabled: *mut c_uint,
) -> cudaError_t {
    const WHAT: &str = "cudaGraphNodeGetEnabled";
    api(WHAT, |rt| {
        let n = exec_node(rt, WHAT, exec, node)?;
        if !can_disable(&n.kind) {
            return Err(cudaErrorInvalidValue);
        }
        let v = c_uint::from(n.enabled);
        put(enabled, v)
    })
}

unsafe extern "C" fn cudaGraphExecGetFlags(exec: cudaGraphExec_t, flags: *mut u64) -> cudaError_t {
    api("cudaGraphExecGetFlags", |rt| {
        let f = exec_of(rt, exec)?.flags;
        put(flags, f)
    })
}

unsafe extern "C" fn cudaGraphExecGetId(exec: cudaGraphExec_t, id: *mut c_uint) -> cudaError_t {
    api("cudaGraphExecGetId", |rt| {
        let i = exec_of(rt, exec)?.id;
        put(id, i)
    })
}

export!(
    cudaGraphInstantiate,
    cudaGraphInstantiateWithFlags,
    cudaGraphInstantiateWithParams,
    cudaGraphExecDestroy,
    cudaGraphUpload,
    cudaGraphLaunch,
    cudaGraphExecUpdate,
    cudaGraphExecChildGraphNodeSetParams,
    cudaGraphNodeSetEnabled,
    cudaGraphNodeGetEnabled,
    cudaGraphExecGetFlags,
    cudaGraphExecGetId,
);

#[cfg(test)]
mod tests {
    use super::*;
    use std::mem::{offset_of, size_of};

    #[test]
    fn layouts_match_the_cuda_13_headers() {
        assert_eq!(size_of::<cudaGraphInstantiateParams>(), 32);
        assert_eq!(offset_of!(cudaGraphInstantiateParams, result_out), 24);
        assert_eq!(size_of::<cudaGraphExecUpdateResultInfo>(), 24);
    }

    fn memset(width: usize, height: usize, element_size: u32) -> NodeKind {
        NodeKind::Memset {
            dst: 0,
            pitch: 4096,
            value: 0,
            element_size,
            width,
            height,
        }
    }

    #[test]
    fn memset_updates_follow_cuda_s_rules() {
        // 1-D: the size may change; 2-D: only address and value.
        assert!(parameters_compatible(&memset(10, 1, 4), &memset(20, 1, 4)).is_ok());
        let e = parameters_compatible(&memset(10, 2, 4), &memset(20, 2, 4));
        assert_eq!(e.unwrap_err().0, UPDATE_PARAMETERS_CHANGED);
        let e = parameters_compatible(&memset(10, 1, 4), &memset(10, 2, 4));
        assert_eq!(e.unwrap_err().0, UPDATE_PARAMETERS_CHANGED);
        assert!(parameters_compatible(&NodeKind::Empty, &NodeKind::Empty).is_ok());
    }

    #[test]
    fn disabled_nodes_and_child_graphs_in_the_sequence() {
        let node = |kind, child: Option<Frozen>, enabled| FrozenNode {
            node: 0,
            kind,
            deps: vec![],
            child: child.map(Box::new),
            enabled,
        };
        let child = Frozen {
            nodes: vec![node(memset(1, 1, 1), None, true)],
            order: vec![0],
        };
        let f = Frozen {
            nodes: vec![
                node(NodeKind::Empty, None, true),
                node(NodeKind::Child { graph: 9 }, Some(child), true),
                node(memset(2, 1, 1), None, false),
            ],
            order: vec![2, 1, 0],
        };
        let mut seq = Vec::new();
        f.sequence(&mut seq);
        assert_eq!(seq.len(), 2);
        assert!(matches!(seq[0], NodeKind::Memset { width: 1, .. }));
        assert!(matches!(seq[1], NodeKind::Empty));
    }
}
