//! Memory-allocation and memory-free graph nodes, and the graph memory attributes.
//!
//! CUDA gives an allocation node's memory a fixed address when the node is added, maps it when
//! the node runs and unmaps it at the free node (in the same graph, another graph, or a
//! `cudaFree`). Here the address is a device allocation reserved when the node is added and
//! kept while the graph or its executable graph exists (or while the allocation is live, i.e.
//! allocated by a launch and not yet freed); the nodes only track whether it is live. So
//! CUDA's rules are checked: a launch whose allocations from the previous launch are still
//! live fails with `cudaErrorInvalidValue` (unless instantiated with
//! `cudaGraphInstantiateFlagAutoFreeOnLaunch`), an allocation is freed once (by its graph, by
//! another graph, or by `cudaFree`), a free node needs an allocation node's address, and a graph
//! with memory nodes is not cloned, used as a child graph, instantiated twice at once, or has
//! nodes or edges removed (`cudaErrorNotSupported`, where CUDA's docs name no code). Unlike a
//! GPU, the memory checker does not catch an access to such an allocation while it is not live.

use crate::graphs::{add, cudaGraphNode_t, cudaGraph_t, NodeKind};
use crate::runtime::{api, diag, put, Runtime, TOTAL_MEMORY};
use crate::types::*;
use std::collections::{HashMap, HashSet};
use std::ffi::{c_int, c_void};
use warpsim_core::device::DevPtr;

/// `cudaMemPoolProps` (88 bytes): the fields the shim checks, the rest kept as given.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct cudaMemPoolProps {
    pub alloc_type: c_int,
    pub handle_types: c_int,
    pub location_type: c_int,
    pub location_id: c_int,
    pub rest: [u8; 72],
}

/// `cudaMemAllocNodeParams`.
#[repr(C)]
pub struct cudaMemAllocNodeParams {
    pub pool_props: cudaMemPoolProps,
    pub access_descs: *const c_void,
    pub access_desc_count: usize,
    pub bytesize: usize,
    pub dptr: *mut c_void,
}

/// `cudaMemAllocationTypePinned`, `cudaMemLocationTypeDevice`, `cudaMemHandleTypeNone`.
const PINNED: c_int = 1;
const LOCATION_DEVICE: c_int = 1;
const HANDLE_NONE: c_int = 0;
/// `cudaGraphInstantiateFlagAutoFreeOnLaunch`.
pub const AUTO_FREE_ON_LAUNCH: u64 = 1;

#[derive(Debug)]
struct Alloc {
    size: usize,
    /// The graph of the allocation node.
    owner: usize,
    /// Allocated by a launch and not freed since.
    live: bool,
    /// The graph holding a free node for it.
    freed_by: Option<usize>,
    /// Graphs and executable graphs that hold its node.
    holders: HashSet<usize>,
}

#[derive(Debug, Default)]
pub struct GraphMem {
    allocs: HashMap<usize, Alloc>,
    used_high: u64,
    reserved_high: u64,
    /// Allocations nobody holds any more, whose device memory [`free_released`] returns.
    released: Vec<usize>,
}

impl GraphMem {
    fn used(&self) -> u64 {
        self.allocs
            .values()
            .filter(|a| a.live)
            .map(|a| a.size as u64)
            .sum()
    }

    fn reserved(&self) -> u64 {
        self.allocs.values().map(|a| a.size as u64).sum()
    }

    fn note_highs(&mut self) {
        self.used_high = self.used_high.max(self.used());
        self.reserved_high = self.reserved_high.max(self.reserved());
    }

    /// Whether `graph` holds memory nodes (allocations it made or frees).
    pub fn has_nodes(&self, graph: usize) -> bool {
        self.allocs
            .values()
            .any(|a| a.owner == graph || a.freed_by == Some(graph))
    }

    /// `holder` (a graph being destroyed, an executable graph) lets go of its allocations;
    /// those that nobody holds and are not live are queued for [`free_released`].
    pub fn release(&mut self, holder: usize) {
        let mut gone = Vec::new();
        for (&addr, a) in self.allocs.iter_mut() {
            a.holders.remove(&holder);
            if a.freed_by == Some(holder) {
                a.freed_by = None;
            }
            if a.holders.is_empty() && !a.live {
                gone.push(addr);
            }
        }
        for addr in &gone {
            self.allocs.remove(addr);
        }
        self.released.extend(gone);
    }

    /// A new executable graph of `graph` holds its allocations; `false` when one already does.
    pub fn instantiated(&mut self, graph: usize, exec: usize) -> bool {
        let mine: Vec<&mut Alloc> = self
            .allocs
            .values_mut()
            .filter(|a| a.owner == graph)
            .collect();
        if mine.iter().any(|a| a.holders.len() > 1) {
            return false;
        }
        for a in mine {
            a.holders.insert(exec);
        }
        true
    }
}

/// Frees the device memory of allocations nobody holds any more.
pub fn free_released(rt: &mut Runtime) {
    for a in std::mem::take(&mut rt.graphs.mem.released) {
        let _ = rt.device.free(DevPtr(a as u64));
    }
}

/// Before a launch of `nodes`: CUDA refuses one whose allocations are still live from a previous
/// launch, unless the executable graph frees them on launch.
pub fn check_launch(rt: &mut Runtime, nodes: &[NodeKind], flags: u64) -> Result<(), cudaError_t> {
    for n in nodes {
        if let NodeKind::MemAlloc { addr, .. } = n {
            let a = rt
                .graphs
                .mem
                .allocs
                .get_mut(addr)
                .ok_or(cudaErrorInvalidValue)?;
            if a.live {
                if flags & AUTO_FREE_ON_LAUNCH == 0 {
                    diag(&format!("cudaGraphLaunch: the allocation {addr:#x} of the previous launch is still allocated (free it, or instantiate with cudaGraphInstantiateFlagAutoFreeOnLaunch)"));
                    return Err(cudaErrorInvalidValue);
                }
                a.live = false;
            }
        }
    }
    Ok(())
}

/// Runs an allocation or free node.
pub fn run(rt: &mut Runtime, node: &NodeKind) -> Result<(), cudaError_t> {
    let (addr, live) = match node {
        NodeKind::MemAlloc { addr, .. } => (addr, true),
        NodeKind::MemFree { addr } => (addr, false),
        _ => return Ok(()),
    };
    let mem = &mut rt.graphs.mem;
    let a = mem.allocs.get_mut(addr).ok_or(cudaErrorInvalidValue)?;
    if !live && !a.live {
        diag(&format!(
            "cudaGraphLaunch: the free node's allocation {addr:#x} is not allocated"
        ));
        return Err(cudaErrorInvalidValue);
    }
    a.live = live;
    mem.note_highs();
    Ok(())
}

/// `cudaFree` of a graph allocation: `None` when `ptr` is not one.
pub fn free(rt: &mut Runtime, ptr: usize) -> Option<Result<(), cudaError_t>> {
    let a = rt.graphs.mem.allocs.get_mut(&ptr)?;
    if a.freed_by.is_some() || !a.live {
        diag(&format!(
            "cudaFree: {ptr:#x} is a graph allocation that is {}",
            if a.freed_by.is_some() {
                "freed by a graph's free node"
            } else {
                "not allocated now"
            }
        ));
        return Some(Err(cudaErrorInvalidValue));
    }
    a.live = false;
    if a.holders.is_empty() {
        rt.graphs.mem.allocs.remove(&ptr);
        let _ = rt.device.free(DevPtr(ptr as u64));
    }
    Some(Ok(()))
}

unsafe extern "C" fn cudaGraphAddMemAllocNode(
    out: *mut cudaGraphNode_t,
    graph: cudaGraph_t,
    deps: *const cudaGraphNode_t,
    n: usize,
    p: *mut cudaMemAllocNodeParams,
) -> cudaError_t {
    const WHAT: &str = "cudaGraphAddMemAllocNode";
    api(WHAT, |rt| {
        let p = p.as_mut().ok_or(cudaErrorInvalidValue)?;
        let g = crate::graphs::graph_of(rt, graph)?;
        let pp = &p.pool_props;
        if p.bytesize == 0
            || pp.alloc_type != PINNED
            || pp.handle_types != HANDLE_NONE
            || pp.location_type != LOCATION_DEVICE
        {
            diag(&format!("{WHAT}: needs a size, cudaMemAllocationTypePinned, no handle types and a device location"));
            return Err(cudaErrorInvalidValue);
        }
        if pp.location_id != 0 {
            return Err(cudaErrorInvalidDevice);
        }
        crate::graphs::dependencies(rt, WHAT, g, deps, n)?;
        if rt.device.memory_in_use().saturating_add(p.bytesize as u64) > TOTAL_MEMORY {
            return Err(cudaErrorMemoryAllocation);
        }
        let addr = rt
            .device
            .malloc_by(p.bytesize as u64, "cudaGraphAddMemAllocNode")
            .map_err(|_| cudaErrorMemoryAllocation)?
            .0 as usize;
        let kind = NodeKind::MemAlloc {
            addr,
            size: p.bytesize,
            props: pp.to_owned(),
        };
        add(rt, WHAT, out, graph, deps, n, kind)?;
        let mem = &mut rt.graphs.mem;
        mem.allocs.insert(
            addr,
            Alloc {
                size: p.bytesize,
                owner: g,
                live: false,
                freed_by: None,
                holders: HashSet::from([g]),
            },
        );
        mem.note_highs();
        p.dptr = addr as *mut c_void;
        Ok(())
    })
}

unsafe extern "C" fn cudaGraphAddMemFreeNode(
    out: *mut cudaGraphNode_t,
    graph: cudaGraph_t,
    deps: *const cudaGraphNode_t,
    n: usize,
    dptr: *mut c_void,
) -> cudaError_t {
    const WHAT: &str = "cudaGraphAddMemFreeNode";
    api(WHAT, |rt| {
        let g = crate::graphs::graph_of(rt, graph)?;
        let addr = dptr as usize;
        let Some(a) = rt.graphs.mem.allocs.get(&addr) else {
            diag(&format!(
                "{WHAT}: {dptr:p} is not the address of a graph allocation node"
            ));
            return Err(cudaErrorInvalidValue);
        };
        if a.freed_by.is_some() {
            diag(&format!("{WHAT}: {dptr:p} is already freed by a graph"));
            return Err(cudaErrorInvalidValue);
        }
        add(rt, WHAT, out, graph, deps, n, NodeKind::MemFree { addr })?;
        rt.graphs.mem.allocs.get_mut(&addr).expect("above").freed_by = Some(g);
        Ok(())
    })
}

unsafe extern "C" fn cudaGraphMemAllocNodeGetParams(
    node: cudaGraphNode_t,
    out: *mut cudaMemAllocNodeParams,
) -> cudaError_t {
    api("cudaGraphMemAllocNodeGetParams", |rt| {
        let n = crate::graph_nodes::node_of(rt, node)?;
        let NodeKind::MemAlloc { addr, size, props } = n.kind else {
            return Err(cudaErrorInvalidValue);
        };
        put(
            out,
            cudaMemAllocNodeParams {
                pool_props: props,
                access_descs: std::ptr::null(),
                access_desc_count: 0,
                bytesize: size,
                dptr: addr as *mut c_void,
            },
        )
    })
}

unsafe extern "C" fn cudaGraphMemFreeNodeGetParams(
    node: cudaGraphNode_t,
    out: *mut *mut c_void,
) -> cudaError_t {
    api(
        "cudaGraphMemFreeNodeGetParams",
        |rt| match crate::graph_nodes::node_of(rt, node)?.kind {
            NodeKind::MemFree { addr } => put(out, addr as *mut c_void),
            _ => Err(cudaErrorInvalidValue),
        },
    )
}

/// Nothing is cached beyond what graphs hold: memory is returned as soon as nobody holds it.
unsafe extern "C" fn cudaDeviceGraphMemTrim(device: c_int) -> cudaError_t {
    api("cudaDeviceGraphMemTrim", |_| {
        if device != 0 {
            return Err(cudaErrorInvalidDevice);
        }
        Ok(())
    })
}

/// `cudaGraphMemAttributeType`: used (live) and reserved bytes, now and their high marks.
unsafe extern "C" fn cudaDeviceGetGraphMemAttribute(
    device: c_int,
    attr: c_int,
    value: *mut c_void,
) -> cudaError_t {
    api("cudaDeviceGetGraphMemAttribute", |rt| {
        if device != 0 {
            return Err(cudaErrorInvalidDevice);
        }
        let m = &rt.graphs.mem;
        let v = match attr {
            0 => m.used(),
            1 => m.used_high,
            2 => m.reserved(),
            3 => m.reserved_high,
            _ => return Err(cudaErrorInvalidValue),
        };
        put(value as *mut u64, v)
    })
}

/// Only the high marks can be set, and only to 0 (a reset to the current value).
unsafe extern "C" fn cudaDeviceSetGraphMemAttribute(
    device: c_int,
    attr: c_int,
    value: *mut c_void,
) -> cudaError_t {
    api("cudaDeviceSetGraphMemAttribute", |rt| {
        if device != 0 {
            return Err(cudaErrorInvalidDevice);
        }
        let v = (value as *const u64)
            .as_ref()
            .ok_or(cudaErrorInvalidValue)?;
        let m = &mut rt.graphs.mem;
        match (attr, *v) {
            (1, 0) => m.used_high = m.used(),
            (3, 0) => m.reserved_high = m.reserved(),
            _ => return Err(cudaErrorInvalidValue),
        }
        Ok(())
    })
}

export!(
    cudaGraphAddMemAllocNode,
    cudaGraphAddMemFreeNode,
    cudaGraphMemAllocNodeGetParams,
    cudaGraphMemFreeNodeGetParams,
    cudaDeviceGraphMemTrim,
    cudaDeviceGetGraphMemAttribute,
    cudaDeviceSetGraphMemAttribute,
);

#[cfg(test)]
mod tests {
    use super::*;
    use std::mem::{offset_of, size_of};

    #[test]
    fn layouts_match_the_cuda_13_headers() {
        assert_eq!(size_of::<cudaMemPoolProps>(), 88);
        assert_eq!(size_of::<cudaMemAllocNodeParams>(), 120);
        assert_eq!(offset_of!(cudaMemAllocNodeParams, bytesize), 104);
        assert_eq!(offset_of!(cudaMemAllocNodeParams, dptr), 112);
    }

    #[test]
    fn an_allocation_is_freed_when_nobody_holds_it() {
        let mut m = GraphMem::default();
        let (graph, exec) = (1, 2);
        m.allocs.insert(
            0x100,
            Alloc {
                size: 64,
                owner: graph,
                live: false,
                freed_by: None,
                holders: HashSet::from([graph]),
            },
        );
        assert!(m.instantiated(graph, exec));
        assert!(!m.instantiated(graph, 3), "one executable graph at a time");
        m.release(graph);
        assert!(m.released.is_empty());
        m.allocs.get_mut(&0x100).unwrap().live = true;
        m.release(exec);
        assert!(m.released.is_empty(), "live: kept for cudaFree");
        m.allocs.get_mut(&0x100).unwrap().live = false;
        m.release(exec);
        assert_eq!(m.released, vec![0x100]);
    }
}
