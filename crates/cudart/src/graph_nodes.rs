//! The structure of a graph: its nodes' types and ids, edges (listed, removed), node removal,
//! cloning, child-graph nodes and `cudaGraphDebugDotPrint`.
//!
//! Edges carry no data here (`cudaGraphEdgeData` is written as all zeros, the default
//! full dependency, and ignored when given). A child-graph node owns a copy of the graph it
//! was given, made when the node is added (as CUDA does); `cudaGraphChildGraphNodeGetGraph`
//! returns that copy, which the program must not destroy. `cudaGraphClone` copies nodes,
//! edges, child graphs and the graph's user-object references; each copy remembers its
//! original for `cudaGraphNodeFindInClone`.

use crate::graphs::{add, cudaGraphNode_t, cudaGraph_t, dependencies, graph_of, Graphs, NodeKind};
use crate::runtime::{api, diag, put, Runtime};
use crate::types::*;
use std::collections::HashMap;
use std::ffi::{c_char, c_int, c_uint, CStr};

/// `cudaErrorOperatingSystem`.
const cudaErrorOperatingSystem: cudaError_t = 304;

/// `cudaGraphEdgeData`: 8 bytes, all zero for a default edge.
type EdgeData = [u8; 8];

pub fn node_of(rt: &Runtime, node: cudaGraphNode_t) -> Result<&crate::graphs::Node, cudaError_t> {
    rt.graphs
        .nodes
        .get(&(node as usize))
        .ok_or(cudaErrorInvalidValue)
}

/// A deep copy of `graph` (nodes, edges, child graphs, user-object references).
pub fn clone_graph(g: &mut Graphs, graph: usize) -> usize {
    let copy = g.new_graph();
    let nodes = g.graphs[&graph].clone();
    let mut map = HashMap::new();
    for &n in &nodes {
        let kind = match g.nodes[&n].kind.clone() {
            NodeKind::Child { graph } => NodeKind::Child {
                graph: clone_graph(g, graph),
            },
            k => k,
        };
        let c = g.insert(copy, Vec::new(), kind);
        g.nodes.get_mut(&c).expect("just added").origin = Some(n);
        map.insert(n, c);
    }
    // Edges second: a node may wait for one added after it (`cudaGraphAddDependencies`).
    for n in nodes {
        let deps = g.nodes[&n].deps.iter().map(|d| map[d]).collect();
        g.nodes.get_mut(&map[&n]).expect("just added").deps = deps;
    }
    g.user_objects.copy_refs(graph, copy);
    copy
}

unsafe extern "C" fn cudaGraphClone(out: *mut cudaGraph_t, graph: cudaGraph_t) -> cudaError_t {
    api("cudaGraphClone", |rt| {
        let g = graph_of(rt, graph)?;
        refuse_memory_nodes(rt, "cudaGraphClone", g)?;
        if out.is_null() {
            return Err(cudaErrorInvalidValue);
        }
        let copy = clone_graph(&mut rt.graphs, g);
        put(out, copy as cudaGraph_t)
    })
}

unsafe extern "C" fn cudaGraphNodeFindInClone(
    out: *mut cudaGraphNode_t,
    original: cudaGraphNode_t,
    clone: cudaGraph_t,
) -> cudaError_t {
    api("cudaGraphNodeFindInClone", |rt| {
        let g = graph_of(rt, clone)?;
        let found = rt.graphs.graphs[&g]
            .iter()
            .find(|n| rt.graphs.nodes[n].origin == Some(original as usize))
            .ok_or(cudaErrorInvalidValue)?;
        put(out, *found as cudaGraphNode_t)
    })
}

unsafe extern "C" fn cudaGraphNodeGetType(node: cudaGraphNode_t, out: *mut c_int) -> cudaError_t {
    api("cudaGraphNodeGetType", |rt| {
        let t = node_of(rt, node)?.kind.type_code();
        put(out, t)
    })
}

unsafe extern "C" fn cudaGraphNodeGetContainingGraph(
    node: cudaGraphNode_t,
    out: *mut cudaGraph_t,
) -> cudaError_t {
    api("cudaGraphNodeGetContainingGraph", |rt| {
        let g = node_of(rt, node)?.graph;
        put(out, g as cudaGraph_t)
    })
}

unsafe extern "C" fn cudaGraphNodeGetLocalId(
    node: cudaGraphNode_t,
    out: *mut c_uint,
) -> cudaError_t {
    api("cudaGraphNodeGetLocalId", |rt| {
        let id = node_of(rt, node)?.id;
        put(out, id)
    })
}

/// Unique across graphs: the graph's id in the high half, the node's in the low half.
unsafe extern "C" fn cudaGraphNodeGetToolsId(node: cudaGraphNode_t, out: *mut u64) -> cudaError_t {
    api("cudaGraphNodeGetToolsId", |rt| {
        let n = node_of(rt, node)?;
        let graph = rt.graphs.ids[&n.graph];
        put(out, (u64::from(graph) << 32) | u64::from(n.id))
    })
}

unsafe extern "C" fn cudaGraphGetId(graph: cudaGraph_t, out: *mut c_uint) -> cudaError_t {
    api("cudaGraphGetId", |rt| {
        let g = graph_of(rt, graph)?;
        put(out, rt.graphs.ids[&g])
    })
}

/// Writes `items` to an array a program passed with its capacity in `*count`: with a null
/// array only the count; else at most `*count` items, the rest of the array nulled, and
/// `*count` set to the number written (CUDA's convention for these queries).
unsafe fn list_out(
    items: &[(usize, usize)],
    first: *mut cudaGraphNode_t,
    second: *mut cudaGraphNode_t,
    edges: *mut EdgeData,
    count: *mut usize,
) -> Result<(), cudaError_t> {
    let count = count.as_mut().ok_or(cudaErrorInvalidValue)?;
    if first.is_null() && second.is_null() {
        if !edges.is_null() {
            return Err(cudaErrorInvalidValue);
        }
        *count = items.len();
        return Ok(());
    }
    for i in 0..*count {
        let (a, b) = items.get(i).copied().unwrap_or((0, 0));
        if !first.is_null() {
            *first.add(i) = a as cudaGraphNode_t;
        }
        if !second.is_null() {
            *second.add(i) = b as cudaGraphNode_t;
        }
        if !edges.is_null() {
            *edges.add(i) = [0; 8];
        }
    }
    *count = (*count).min(items.len());
    Ok(())
}

unsafe extern "C" fn cudaGraphGetRootNodes(
    graph: cudaGraph_t,
    nodes: *mut cudaGraphNode_t,
    count: *mut usize,
) -> cudaError_t {
    api("cudaGraphGetRootNodes", |rt| {
        let g = graph_of(rt, graph)?;
        let roots: Vec<(usize, usize)> = rt.graphs.graphs[&g]
            .iter()
            .filter(|n| rt.graphs.nodes[n].deps.is_empty())
            .map(|&n| (n, 0))
            .collect();
        list_out(
            &roots,
            nodes,
            std::ptr::null_mut(),
            std::ptr::null_mut(),
            count,
        )
    })
}

/// Every edge of a graph, `(from, to)`: each node's dependencies in the order they were
/// added, the nodes in the order they were added.
fn edges_of(g: &Graphs, graph: usize) -> Vec<(usize, usize)> {
    g.graphs[&graph]
        .iter()
        .flat_map(|&to| g.nodes[&to].deps.iter().map(move |&from| (from, to)))
        .collect()
}

unsafe extern "C" fn cudaGraphGetEdges(
    graph: cudaGraph_t,
    from: *mut cudaGraphNode_t,
    to: *mut cudaGraphNode_t,
    edges: *mut EdgeData,
    count: *mut usize,
) -> cudaError_t {
    api("cudaGraphGetEdges", |rt| {
        let g = graph_of(rt, graph)?;
        if from.is_null() != to.is_null() {
            return Err(cudaErrorInvalidValue);
        }
        list_out(&edges_of(&rt.graphs, g), from, to, edges, count)
    })
}

unsafe extern "C" fn cudaGraphNodeGetDependencies(
    node: cudaGraphNode_t,
    deps: *mut cudaGraphNode_t,
    edges: *mut EdgeData,
    count: *mut usize,
) -> cudaError_t {
    api("cudaGraphNodeGetDependencies", |rt| {
        let list: Vec<(usize, usize)> = node_of(rt, node)?.deps.iter().map(|&d| (d, 0)).collect();
        list_out(&list, deps, std::ptr::null_mut(), edges, count)
    })
}

unsafe extern "C" fn cudaGraphNodeGetDependentNodes(
    node: cudaGraphNode_t,
    out: *mut cudaGraphNode_t,
    edges: *mut EdgeData,
    count: *mut usize,
) -> cudaError_t {
    api("cudaGraphNodeGetDependentNodes", |rt| {
        let graph = node_of(rt, node)?.graph;
        let list: Vec<(usize, usize)> = rt.graphs.graphs[&graph]
            .iter()
            .filter(|n| rt.graphs.nodes[n].deps.contains(&(node as usize)))
            .map(|&n| (n, 0))
            .collect();
        list_out(&list, out, std::ptr::null_mut(), edges, count)
    })
}

/// `cudaGraphRemoveDependencies(graph, from, to, edgeData, n)`: every edge must exist.
unsafe extern "C" fn cudaGraphRemoveDependencies(
    graph: cudaGraph_t,
    from: *const cudaGraphNode_t,
    to: *const cudaGraphNode_t,
    _edges: *const EdgeData,
    n: usize,
) -> cudaError_t {
    const WHAT: &str = "cudaGraphRemoveDependencies";
    api(WHAT, |rt| {
        let g = graph_of(rt, graph)?;
        refuse_memory_nodes(rt, WHAT, g)?;
        let from = dependencies(rt, WHAT, g, from, n)?;
        let to = dependencies(rt, WHAT, g, to, n)?;
        for (i, (f, t)) in from.iter().zip(&to).enumerate() {
            if !rt.graphs.nodes[t].deps.contains(f) {
                diag(&format!("{WHAT}: edge {i} does not exist"));
                return Err(cudaErrorInvalidValue);
            }
        }
        for (f, t) in from.into_iter().zip(to) {
            rt.graphs
                .nodes
                .get_mut(&t)
                .expect("checked")
                .deps
                .retain(|d| *d != f);
        }
        Ok(())
    })
}

/// Removes a node and its edges; a child-graph node's graph goes with it.
unsafe extern "C" fn cudaGraphDestroyNode(node: cudaGraphNode_t) -> cudaError_t {
    api("cudaGraphDestroyNode", |rt| {
        let n = node as usize;
        let graph = node_of(rt, node)?.graph;
        refuse_memory_nodes(rt, "cudaGraphDestroyNode", graph)?;
        let g = &mut rt.graphs;
        g.graphs
            .get_mut(&graph)
            .expect("a live graph")
            .retain(|x| *x != n);
        for other in g.graphs[&graph].clone() {
            g.nodes
                .get_mut(&other)
                .expect("a node of the graph")
                .deps
                .retain(|d| *d != n);
        }
        g.free_node(n);
        Ok(())
    })
}

/// CUDA's restrictions on a graph with memory-allocation or -free nodes: it is not cloned, used
/// as a child graph, or has nodes or edges removed.
fn refuse_memory_nodes(rt: &Runtime, what: &str, graph: usize) -> Result<(), cudaError_t> {
    if rt.graphs.mem.has_nodes(graph) {
        diag(&format!(
            "{what}: not for a graph with memory-allocation or -free nodes (CUDA's rule)"
        ));
        return Err(cudaErrorNotSupported);
    }
    Ok(())
}

/// Whether `graph` is the child graph of some node (then only the node may free it).
pub fn owned_by_a_node(g: &Graphs, graph: usize) -> bool {
    g.nodes
        .values()
        .any(|n| matches!(n.kind, NodeKind::Child { graph: c } if c == graph))
}

unsafe extern "C" fn cudaGraphAddChildGraphNode(
    out: *mut cudaGraphNode_t,
    graph: cudaGraph_t,
    deps: *const cudaGraphNode_t,
    n: usize,
    child: cudaGraph_t,
) -> cudaError_t {
    const WHAT: &str = "cudaGraphAddChildGraphNode";
    api(WHAT, |rt| {
        let c = graph_of(rt, child)?;
        refuse_memory_nodes(rt, WHAT, c)?;
        if c == graph as usize {
            diag(&format!("{WHAT}: a graph cannot be its own child"));
            return Err(cudaErrorInvalidValue);
        }
        graph_of(rt, graph)?;
        if out.is_null() {
            return Err(cudaErrorInvalidValue);
        }
        // The dependencies are checked before the copy is made, so a failure leaves nothing.
        dependencies(rt, WHAT, graph as usize, deps, n)?;
        let copy = clone_graph(&mut rt.graphs, c);
        add(
            rt,
            WHAT,
            out,
            graph,
            deps,
            n,
            NodeKind::Child { graph: copy },
        )
    })
}

unsafe extern "C" fn cudaGraphChildGraphNodeGetGraph(
    node: cudaGraphNode_t,
    out: *mut cudaGraph_t,
) -> cudaError_t {
    api("cudaGraphChildGraphNodeGetGraph", |rt| {
        match node_of(rt, node)?.kind {
            NodeKind::Child { graph } => put(out, graph as cudaGraph_t),
            _ => Err(cudaErrorInvalidValue),
        }
    })
}

/// A node's label in the DOT output.
fn label(rt: &Runtime, kind: &NodeKind) -> String {
    match kind {
        NodeKind::Kernel {
            stub, grid, block, ..
        } => {
            let name = rt
                .functions
                .get(stub)
                .map(|f| warpsim_core::demangle(&f.name))
                .unwrap_or_else(|| format!("{stub:#x}"));
            format!(
                "kernel {name} <<<({},{},{}), ({},{},{})>>>",
                grid.x, grid.y, grid.z, block.x, block.y, block.z
            )
        }
        NodeKind::Copy(c) => format!("memcpy {} x {} x {} bytes", c.width, c.height, c.depth),
        NodeKind::Memset { width, height, .. } => format!("memset {width} x {height}"),
        NodeKind::Host { .. } => "host".into(),
        NodeKind::EventRecord { .. } => "event record".into(),
        NodeKind::EventWait { .. } => "event wait".into(),
        NodeKind::Child { .. } => "child graph".into(),
        NodeKind::MemAlloc { addr, size, .. } => format!("alloc {size} bytes at {addr:#x}"),
        NodeKind::MemFree { addr } => format!("free {addr:#x}"),
        NodeKind::Empty => "empty".into(),
    }
}

fn dot(rt: &Runtime, graph: usize, name: &str, out: &mut String) {
    use std::fmt::Write;
    let _ = writeln!(out, "subgraph cluster_{name} {{\nlabel=\"graph {name}\";");
    for &n in &rt.graphs.graphs[&graph] {
        let node = &rt.graphs.nodes[&n];
        let id = node.id;
        let text = label(rt, &node.kind).replace('"', "'");
        let _ = writeln!(out, "n{id} [label=\"{id}: {text}\"];");
        if let NodeKind::Child { graph: c } = node.kind {
            dot(rt, c, &format!("{name}_{id}"), out);
            if let Some(first) = rt.graphs.graphs[&c].first() {
                let _ = writeln!(
                    out,
                    "n{id} -> n{} [style=dashed];",
                    rt.graphs.nodes[first].id
                );
            }
        }
        for d in &node.deps {
            let _ = writeln!(out, "n{} -> n{id};", rt.graphs.nodes[d].id);
        }
    }
    out.push_str("}\n");
}

/// Writes the graph as Graphviz DOT: one box per node (type, kernel name and shape, copy
/// size), its dependencies as edges, child graphs as nested clusters. Flags are ignored.
unsafe extern "C" fn cudaGraphDebugDotPrint(
    graph: cudaGraph_t,
    path: *const c_char,
    _flags: c_uint,
) -> cudaError_t {
    const WHAT: &str = "cudaGraphDebugDotPrint";
    api(WHAT, |rt| {
        let g = graph_of(rt, graph)?;
        if path.is_null() {
            return Err(cudaErrorInvalidValue);
        }
        let path = CStr::from_ptr(path).to_string_lossy().into_owned();
        let mut text = String::from("digraph cuda_graph {\n");
        dot(rt, g, &rt.graphs.ids[&g].to_string(), &mut text);
        text.push_str("}\n");
        std::fs::write(&path, text).map_err(|e| {
            diag(&format!("{WHAT}: cannot write {path}: {e}"));
            cudaErrorOperatingSystem
        })
    })
}

export!(
    cudaGraphClone,
    cudaGraphNodeFindInClone,
    cudaGraphNodeGetType,
    cudaGraphNodeGetContainingGraph,
    cudaGraphNodeGetLocalId,
    cudaGraphNodeGetToolsId,
    cudaGraphGetId,
    cudaGraphGetRootNodes,
    cudaGraphGetEdges,
    cudaGraphNodeGetDependencies,
    cudaGraphNodeGetDependentNodes,
    cudaGraphRemoveDependencies,
    cudaGraphDestroyNode,
    cudaGraphAddChildGraphNode,
    cudaGraphChildGraphNodeGetGraph,
    cudaGraphDebugDotPrint,
);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_clone_copies_edges_to_later_nodes_and_child_graphs() {
        let mut g = Graphs::default();
        let child = g.new_graph();
        g.insert(child, vec![], NodeKind::Empty);
        let graph = g.new_graph();
        let a = g.insert(graph, vec![], NodeKind::Empty);
        let b = g.insert(graph, vec![], NodeKind::Child { graph: child });
        g.nodes.get_mut(&a).unwrap().deps.push(b);
        let copy = clone_graph(&mut g, graph);
        let nodes = g.graphs[&copy].clone();
        assert_eq!(nodes.len(), 2);
        assert_eq!(g.nodes[&nodes[0]].origin, Some(a));
        assert_eq!(g.nodes[&nodes[0]].deps, vec![nodes[1]]);
        let NodeKind::Child { graph: c } = g.nodes[&nodes[1]].kind else {
            panic!("not a child node")
        };
        assert_ne!(c, child);
        assert_eq!(g.graphs[&c].len(), 1);
        assert_eq!(edges_of(&g, copy), vec![(nodes[1], nodes[0])]);
        // Destroying the clone frees its child graph, not the original's.
        assert!(g.destroy_graph(copy));
        assert!(!g.graphs.contains_key(&c));
        assert!(g.graphs.contains_key(&child));
    }
}
