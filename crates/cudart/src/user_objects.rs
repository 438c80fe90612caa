//! User objects (`cudaUserObjectCreate`): a program's resource with a destructor, kept alive
//! by reference counts that the program and graphs hold. A graph's references are copied to
//! every executable graph instantiated from it and to its clones, and dropped when the graph
//! (or executable graph) is destroyed; the destructor runs when the last reference goes.
//!
//! Destructors run outside the runtime lock, after the call that dropped the last reference
//! (CUDA runs them asynchronously and forbids them to call CUDA; running them on the calling
//! thread at the end of that call is one of the orders CUDA allows, since nothing is pending).

use crate::graphs::{cudaGraph_t, HostFn};
use crate::runtime::{api, diag, guard, lock, put};
use crate::streams::{free_handle, new_handle};
use crate::types::*;
use std::collections::HashMap;
use std::ffi::{c_uint, c_void};

// CUDA's C name.
#[allow(non_camel_case_types)]
pub type cudaUserObject_t = *mut c_void;

/// `cudaUserObjectNoDestructorSync`, the one flag `cudaUserObjectCreate` accepts (required).
const NO_DESTRUCTOR_SYNC: c_uint = 1;
/// `cudaGraphUserObjectMove`: the graph takes over the caller's references.
const GRAPH_USER_OBJECT_MOVE: c_uint = 1;

struct Object {
    ptr: usize,
    destroy: HostFn,
    /// References held by the program (not by graphs).
    refs: u64,
}

#[derive(Default)]
pub struct UserObjects {
    objects: HashMap<usize, Object>,
    /// Graph or executable graph → object → references it holds.
    owners: HashMap<usize, HashMap<usize, u64>>,
    /// Destructors whose object lost its last reference, to run outside the lock.
    pending: Vec<(HostFn, usize)>,
}

impl UserObjects {
    fn total(&self, obj: usize) -> u64 {
        self.objects.get(&obj).map_or(0, |o| o.refs)
            + self
                .owners
                .values()
                .filter_map(|m| m.get(&obj))
                .sum::<u64>()
    }

    /// Queues the destructor of `obj` if no reference is left.
    fn collect(&mut self, obj: usize) {
        if self.total(obj) == 0 {
            if let Some(o) = self.objects.remove(&obj) {
                self.pending.push((o.destroy, o.ptr));
                unsafe { free_handle(obj) };
            }
        }
    }

    /// `to` (a new executable graph or clone) holds the same references as `from`.
    pub fn copy_refs(&mut self, from: usize, to: usize) {
        if let Some(m) = self.owners.get(&from).cloned() {
            self.owners.insert(to, m);
        }
    }

    /// A graph or executable graph is gone: its references with it.
    pub fn owner_destroyed(&mut self, owner: usize) {
        if let Some(m) = self.owners.remove(&owner) {
            for obj in m.into_keys() {
                self.collect(obj);
            }
        }
    }

    pub fn graph_destroyed(&mut self, graph: usize) {
        self.owner_destroyed(graph);
    }
}

/// Runs the destructors queued by the call that just returned, outside the runtime lock.
pub fn run_destructors() {
    let pending = std::mem::take(&mut lock().graphs.user_objects.pending);
    for (f, ptr) in pending {
        guard("a user object's destructor", (), || unsafe {
            f(ptr as *mut c_void)
        });
    }
}

unsafe extern "C" fn cudaUserObjectCreate(
    out: *mut cudaUserObject_t,
    ptr: *mut c_void,
    destroy: Option<HostFn>,
    initial: c_uint,
    flags: c_uint,
) -> cudaError_t {
    const WHAT: &str = "cudaUserObjectCreate";
    api(WHAT, |rt| {
        let destroy = destroy.ok_or(cudaErrorInvalidValue)?;
        if out.is_null() || initial == 0 || flags != NO_DESTRUCTOR_SYNC {
            diag(&format!("{WHAT}: needs an out-pointer, a reference count of at least 1 and the flag cudaUserObjectNoDestructorSync"));
            return Err(cudaErrorInvalidValue);
        }
        let h = new_handle();
        rt.graphs.user_objects.objects.insert(
            h,
            Object {
                ptr: ptr as usize,
                destroy,
                refs: initial.into(),
            },
        );
        put(out, h as cudaUserObject_t)
    })
}

unsafe extern "C" fn cudaUserObjectRetain(obj: cudaUserObject_t, count: c_uint) -> cudaError_t {
    api("cudaUserObjectRetain", |rt| {
        let o = rt
            .graphs
            .user_objects
            .objects
            .get_mut(&(obj as usize))
            .ok_or(cudaErrorInvalidValue)?;
        if count == 0 {
            return Err(cudaErrorInvalidValue);
        }
        o.refs += u64::from(count);
        Ok(())
    })
}

/// Drops `count` of the program's references (more than it holds is `cudaErrorInvalidValue`,
/// where CUDA's behaviour is undefined).
unsafe extern "C" fn cudaUserObjectRelease(obj: cudaUserObject_t, count: c_uint) -> cudaError_t {
    const WHAT: &str = "cudaUserObjectRelease";
    let e = api(WHAT, |rt| {
        let u = &mut rt.graphs.user_objects;
        let o = u
            .objects
            .get_mut(&(obj as usize))
            .ok_or(cudaErrorInvalidValue)?;
        if count == 0 || u64::from(count) > o.refs {
            diag(&format!(
                "{WHAT}: releasing {count} references of the {} the program holds",
                o.refs
            ));
            return Err(cudaErrorInvalidValue);
        }
        o.refs -= u64::from(count);
        u.collect(obj as usize);
        Ok(())
    });
    run_destructors();
    e
}

unsafe extern "C" fn cudaGraphRetainUserObject(
    graph: cudaGraph_t,
    obj: cudaUserObject_t,
    count: c_uint,
    flags: c_uint,
) -> cudaError_t {
    const WHAT: &str = "cudaGraphRetainUserObject";
    api(WHAT, |rt| {
        let g = crate::graphs::graph_of(rt, graph)?;
        let u = &mut rt.graphs.user_objects;
        let o = u
            .objects
            .get_mut(&(obj as usize))
            .ok_or(cudaErrorInvalidValue)?;
        if count == 0 || flags & !GRAPH_USER_OBJECT_MOVE != 0 {
            return Err(cudaErrorInvalidValue);
        }
        if flags & GRAPH_USER_OBJECT_MOVE != 0 {
            if u64::from(count) > o.refs {
                diag(&format!(
                    "{WHAT}: moving {count} references of the {} the program holds",
                    o.refs
                ));
                return Err(cudaErrorInvalidValue);
            }
            o.refs -= u64::from(count);
        }
        *u.owners
            .entry(g)
            .or_default()
            .entry(obj as usize)
            .or_default() += u64::from(count);
        Ok(())
    })
}

unsafe extern "C" fn cudaGraphReleaseUserObject(
    graph: cudaGraph_t,
    obj: cudaUserObject_t,
    count: c_uint,
) -> cudaError_t {
    const WHAT: &str = "cudaGraphReleaseUserObject";
    let e = api(WHAT, |rt| {
        let g = crate::graphs::graph_of(rt, graph)?;
        let u = &mut rt.graphs.user_objects;
        let held = u
            .owners
            .get_mut(&g)
            .and_then(|m| m.get_mut(&(obj as usize)))
            .ok_or(cudaErrorInvalidValue)?;
        if count == 0 || u64::from(count) > *held {
            diag(&format!(
                "{WHAT}: releasing {count} references of the {held} the graph holds"
            ));
            return Err(cudaErrorInvalidValue);
        }
        *held -= u64::from(count);
        if *held == 0 {
            u.owners.get_mut(&g).expect("above").remove(&(obj as usize));
        }
        u.collect(obj as usize);
        Ok(())
    });
    run_destructors();
    e
}

export!(
    cudaUserObjectCreate,
    cudaUserObjectRetain,
    cudaUserObjectRelease,
    cudaGraphRetainUserObject,
    cudaGraphReleaseUserObject,
);
