//! Stream capture: between `cudaStreamBeginCapture` and `cudaStreamEndCapture`, work enqueued
//! on the stream (kernel launches, async copies and memsets, host functions, graph launches)
//! is recorded as graph nodes instead of run.
//!
//! Each capturing stream keeps its *tail*: the nodes the next captured operation depends on.
//! `cudaEventRecord` on a capturing stream remembers the tail in the event (with
//! `cudaEventRecordExternal` it also becomes an event-record node), and `cudaStreamWaitEvent`
//! of another stream on such an event forks that stream into the same capture, starting from
//! the event's nodes; the origin stream must join every forked stream back the same way
//! before `cudaStreamEndCapture` (else `cudaErrorStreamCaptureUnjoined`).
//!
//! Operations that would wait for captured work that has not run fail with CUDA's errors:
//! synchronizing or querying a capturing stream, or (unless the capture is relaxed) the
//! device, is `cudaErrorStreamCaptureUnsupported` and invalidates the capture; querying,
//! waiting for or timing an event recorded in a capture is `cudaErrorCapturedEvent` and
//! invalidates it too (CUDA's programming guide: an invalid operation during capture
//! invalidates the capture graph, and further use of the capturing streams or of the captured
//! events associated with it returns an error). Such an event of an invalidated capture is
//! then `cudaErrorInvalidValue` to query, synchronize, time or wait for, also after
//! `cudaStreamEndCapture`, until it is recorded again (measured on an H200, CUDA 13.0 driver,
//! 2026-11-28: `cudaEventQuery` gave cudaErrorCapturedEvent, then `cudaEventSynchronize`,
//! `cudaStreamWaitEvent` and, after the capture ended with
//! cudaErrorStreamCaptureInvalidated, `cudaEventQuery` gave cudaErrorInvalidValue).

use crate::graphs::{cudaGraphNode_t, cudaGraph_t, NodeKind};
use crate::runtime::{api, diag, put, Runtime};
use crate::types::*;
use std::collections::{BTreeMap, HashMap, HashSet};
use std::ffi::{c_int, c_uint};

pub const cudaErrorStreamCaptureUnsupported: cudaError_t = 900;
pub const cudaErrorStreamCaptureInvalidated: cudaError_t = 901;
pub const cudaErrorStreamCaptureMerge: cudaError_t = 902;
pub const cudaErrorStreamCaptureUnmatched: cudaError_t = 903;
pub const cudaErrorStreamCaptureUnjoined: cudaError_t = 904;
pub const cudaErrorStreamCaptureIsolation: cudaError_t = 905;
pub const cudaErrorCapturedEvent: cudaError_t = 907;
pub const cudaErrorIllegalState: cudaError_t = 401;

/// `cudaStreamCaptureMode`.
const MODE_RELAXED: c_int = 2;
/// `cudaEventRecordExternal`.
const EVENT_RECORD_EXTERNAL: c_uint = 1;

/// One capture sequence, begun on `origin`.
#[derive(Debug)]
struct Sequence {
    graph: usize,
    mode: c_int,
    origin: usize,
    invalidated: bool,
    /// Whether the capture made the graph (`cudaStreamBeginCapture`) rather than adding to
    /// the program's (`cudaStreamBeginCaptureToGraph`); a failed capture destroys only its own.
    own_graph: bool,
}

/// A stream taking part in a capture sequence.
#[derive(Debug)]
struct Member {
    seq: u64,
    tail: Vec<usize>,
    /// `cudaGraphEdgeData` for the tail (all default: 8 zero bytes each), for
    /// `cudaStreamGetCaptureInfo`'s out-pointer.
    edges: Vec<[u8; 8]>,
}

#[derive(Debug, Default)]
pub struct Captures {
    /// By id; ids start at 1 and are never reused.
    seqs: BTreeMap<u64, Sequence>,
    streams: HashMap<usize, Member>,
    /// Event → the capture it was last recorded in and the nodes recorded before it.
    events: HashMap<usize, (u64, Vec<usize>)>,
    /// Events last recorded in a capture that was invalidated and has ended: unusable
    /// (`cudaErrorInvalidValue`) until recorded again.
    stale_events: HashSet<usize>,
    last_id: u64,
}

pub fn capturing(rt: &Runtime, stream: cudaStream_t) -> bool {
    rt.graphs.capture.streams.contains_key(&(stream as usize))
}

/// Records `node` on a capturing stream, after the stream's tail.
pub fn capture(rt: &mut Runtime, stream: cudaStream_t, node: NodeKind) -> Result<(), cudaError_t> {
    let c = &mut rt.graphs.capture;
    let m = c
        .streams
        .get_mut(&(stream as usize))
        .expect("a capturing stream");
    let seq = &c.seqs[&m.seq];
    if seq.invalidated {
        return Err(cudaErrorStreamCaptureInvalidated);
    }
    let graph = seq.graph;
    let tail = std::mem::take(&mut m.tail);
    let n = rt.graphs.insert(graph, tail, node);
    let m = rt
        .graphs
        .capture
        .streams
        .get_mut(&(stream as usize))
        .expect("a capturing stream");
    m.tail = vec![n];
    m.edges = vec![[0; 8]];
    Ok(())
}

/// `what` would wait for `stream` (or, with `None`, the whole device): refused while that
/// stream captures (or, for the device, while a capture that is not relaxed is under way),
/// and the capture is invalidated.
pub fn refuse_sync(
    rt: &mut Runtime,
    what: &str,
    stream: Option<cudaStream_t>,
) -> Result<(), cudaError_t> {
    let c = &mut rt.graphs.capture;
    let hit: Vec<u64> = match stream {
        Some(s) => c
            .streams
            .get(&(s as usize))
            .map(|m| m.seq)
            .into_iter()
            .collect(),
        None => c
            .seqs
            .iter()
            .filter(|(_, s)| s.mode != MODE_RELAXED)
            .map(|(&id, _)| id)
            .collect(),
    };
    if hit.is_empty() {
        return Ok(());
    }
    for id in &hit {
        c.seqs.get_mut(id).expect("a live sequence").invalidated = true;
    }
    diag(&format!(
        "{what} while a stream is capturing a graph: not permitted (the capture is invalidated)"
    ));
    Err(cudaErrorStreamCaptureUnsupported)
}

/// Whether `event` was last recorded in a capture still under way.
pub fn event_captured(rt: &Runtime, event: cudaEvent_t) -> bool {
    let c = &rt.graphs.capture;
    c.events
        .get(&(event as usize))
        .is_some_and(|(id, _)| c.seqs.contains_key(id))
}

/// Whether `event` was last recorded in a capture that has been invalidated (under way or
/// ended since).
fn event_invalidated(c: &Captures, event: cudaEvent_t) -> bool {
    let e = event as usize;
    c.stale_events.contains(&e)
        || c.events
            .get(&e)
            .is_some_and(|(id, _)| c.seqs.get(id).is_some_and(|s| s.invalidated))
}

/// `what` (`cudaEventQuery`, `cudaEventSynchronize`, `cudaEventElapsedTime`) waits for or
/// inspects `event`: refused with `cudaErrorCapturedEvent` when the event was last recorded
/// in a capture under way, which that invalidates; `cudaErrorInvalidValue` when that capture
/// was already invalidated.
pub fn use_event(rt: &mut Runtime, what: &str, event: cudaEvent_t) -> Result<(), cudaError_t> {
    let c = &mut rt.graphs.capture;
    if event_invalidated(c, event) {
        diag(&format!(
            "{what}: the event was last recorded in a stream capture that was invalidated"
        ));
        return Err(cudaErrorInvalidValue);
    }
    let Some(id) = c
        .events
        .get(&(event as usize))
        .map(|(id, _)| *id)
        .filter(|id| c.seqs.contains_key(id))
    else {
        return Ok(());
    };
    c.seqs.get_mut(&id).expect("a live sequence").invalidated = true;
    diag(&format!("{what} on an event recorded in a capturing stream: not permitted (the capture is invalidated)"));
    Err(cudaErrorCapturedEvent)
}

/// `cudaEventDestroy`: the event's capture state goes with it (its handle may be reused).
pub fn forget_event(rt: &mut Runtime, event: cudaEvent_t) {
    let c = &mut rt.graphs.capture;
    c.events.remove(&(event as usize));
    c.stale_events.remove(&(event as usize));
}

/// `cudaEventRecord` on `stream`: `Ok(true)` when the stream captures and the record was
/// captured (the event remembers the stream's tail), `Ok(false)` to record it as usual.
pub fn record_event(
    rt: &mut Runtime,
    event: cudaEvent_t,
    stream: cudaStream_t,
    flags: c_uint,
) -> Result<bool, cudaError_t> {
    if !capturing(rt, stream) {
        rt.graphs.capture.events.remove(&(event as usize));
        rt.graphs.capture.stale_events.remove(&(event as usize));
        return Ok(false);
    }
    let c = &rt.graphs.capture;
    if c.seqs[&c.streams[&(stream as usize)].seq].invalidated {
        return Err(cudaErrorStreamCaptureInvalidated);
    }
    rt.graphs.capture.stale_events.remove(&(event as usize));
    if flags & EVENT_RECORD_EXTERNAL != 0 {
        capture(
            rt,
            stream,
            NodeKind::EventRecord {
                event: event as usize,
            },
        )?;
    }
    let c = &mut rt.graphs.capture;
    let m = &c.streams[&(stream as usize)];
    c.events.insert(event as usize, (m.seq, m.tail.clone()));
    Ok(true)
}

/// `cudaStreamWaitEvent(stream, event)`: an event recorded in a capture brings `stream` into
/// that capture (or adds the event's nodes to its tail). `Ok(false)` when capture is not
/// involved.
pub fn wait_event(
    rt: &mut Runtime,
    stream: cudaStream_t,
    event: cudaEvent_t,
) -> Result<bool, cudaError_t> {
    if event_invalidated(&rt.graphs.capture, event) {
        diag("cudaStreamWaitEvent: the event was last recorded in a stream capture that was invalidated");
        return Err(cudaErrorInvalidValue);
    }
    let captured = event_captured(rt, event);
    let c = &mut rt.graphs.capture;
    let s = stream as usize;
    if !captured {
        if c.streams.contains_key(&s) {
            diag("cudaStreamWaitEvent: a capturing stream waits for an event recorded outside the capture");
            return Err(cudaErrorStreamCaptureIsolation);
        }
        return Ok(false);
    }
    let (id, nodes) = c.events[&(event as usize)].clone();
    if matches!(s, 0 | STREAM_LEGACY) {
        diag("cudaStreamWaitEvent: the legacy default stream cannot join a capture");
        return Err(cudaErrorStreamCaptureUnsupported);
    }
    match c.streams.get_mut(&s) {
        Some(m) if m.seq != id => return Err(cudaErrorStreamCaptureMerge),
        Some(m) => {
            for n in nodes {
                if !m.tail.contains(&n) {
                    m.tail.push(n);
                }
            }
            m.edges = vec![[0; 8]; m.tail.len()];
        }
        None => {
            let edges = vec![[0; 8]; nodes.len()];
            c.streams.insert(
                s,
                Member {
                    seq: id,
                    tail: nodes,
                    edges,
                },
            );
        }
    }
    Ok(true)
}

/// Starts a capture on `stream` into `graph` (a new one when `None`), its first operations
/// depending on `deps`.
fn begin_capture(
    rt: &mut Runtime,
    what: &str,
    stream: cudaStream_t,
    mode: c_int,
    graph: Option<usize>,
    deps: Vec<usize>,
) -> Result<(), cudaError_t> {
    let s = stream as usize;
    if !rt.valid_stream(stream) {
        return Err(cudaErrorInvalidResourceHandle);
    }
    if !(0..=MODE_RELAXED).contains(&mode) {
        return Err(cudaErrorInvalidValue);
    }
    if matches!(s, 0 | STREAM_LEGACY) {
        diag(&format!(
            "{what}: the legacy default stream cannot be captured; capture a stream of your own"
        ));
        return Err(cudaErrorStreamCaptureUnsupported);
    }
    if capturing(rt, stream) {
        return Err(cudaErrorIllegalState);
    }
    let own_graph = graph.is_none();
    let graph = graph.unwrap_or_else(|| rt.graphs.new_graph());
    let c = &mut rt.graphs.capture;
    c.last_id += 1;
    c.seqs.insert(
        c.last_id,
        Sequence {
            graph,
            mode,
            origin: s,
            invalidated: false,
            own_graph,
        },
    );
    let edges = vec![[0; 8]; deps.len()];
    c.streams.insert(
        s,
        Member {
            seq: c.last_id,
            tail: deps,
            edges,
        },
    );
    Ok(())
}

pub(crate) unsafe extern "C" fn cudaStreamBeginCapture(
    stream: cudaStream_t,
    mode: c_int,
) -> cudaError_t {
    const WHAT: &str = "cudaStreamBeginCapture";
    api(WHAT, |rt| {
        begin_capture(rt, WHAT, stream, mode, None, Vec::new())
    })
}

/// Captures into the program's graph, after its nodes `deps` (edge data ignored);
/// `cudaStreamEndCapture` returns that graph.
pub(crate) unsafe extern "C" fn cudaStreamBeginCaptureToGraph(
    stream: cudaStream_t,
    graph: cudaGraph_t,
    deps: *const cudaGraphNode_t,
    _edges: *const [u8; 8],
    n: usize,
    mode: c_int,
) -> cudaError_t {
    const WHAT: &str = "cudaStreamBeginCaptureToGraph";
    api(WHAT, |rt| {
        let g = crate::graphs::graph_of(rt, graph)?;
        let deps = crate::graphs::dependencies(rt, WHAT, g, deps, n)?;
        begin_capture(rt, WHAT, stream, mode, Some(g), deps)
    })
}

/// `flags`: `cudaStreamAddCaptureDependencies` (0) adds `deps` to the nodes the stream's next
/// captured operation waits for, `cudaStreamSetCaptureDependencies` (1) replaces them.
pub(crate) unsafe extern "C" fn cudaStreamUpdateCaptureDependencies(
    stream: cudaStream_t,
    deps: *const cudaGraphNode_t,
    _edges: *const [u8; 8],
    n: usize,
    flags: c_uint,
) -> cudaError_t {
    const WHAT: &str = "cudaStreamUpdateCaptureDependencies";
    api(WHAT, |rt| {
        if !rt.valid_stream(stream) {
            return Err(cudaErrorInvalidResourceHandle);
        }
        if flags > 1 {
            return Err(cudaErrorInvalidValue);
        }
        let c = &rt.graphs.capture;
        let Some(m) = c.streams.get(&(stream as usize)) else {
            diag(&format!("{WHAT}: the stream is not capturing"));
            return Err(cudaErrorIllegalState);
        };
        let seq = &c.seqs[&m.seq];
        if seq.invalidated {
            return Err(cudaErrorStreamCaptureInvalidated);
        }
        let graph = seq.graph;
        let new = crate::graphs::dependencies(rt, WHAT, graph, deps, n)?;
        let m = rt
            .graphs
            .capture
            .streams
            .get_mut(&(stream as usize))
            .expect("checked above");
        if flags == 1 {
            m.tail.clear();
        }
        for d in new {
            if !m.tail.contains(&d) {
                m.tail.push(d);
            }
        }
        m.edges = vec![[0; 8]; m.tail.len()];
        Ok(())
    })
}

/// The nodes `tail` depends on, directly or not, and the tail itself.
fn ancestors(rt: &Runtime, tail: &[usize]) -> HashSet<usize> {
    let mut seen: HashSet<usize> = tail.iter().copied().collect();
    let mut work = tail.to_vec();
    while let Some(n) = work.pop() {
        for &d in &rt.graphs.nodes[&n].deps {
            if seen.insert(d) {
                work.push(d);
            }
        }
    }
    seen
}

fn end_capture(
    rt: &mut Runtime,
    stream: cudaStream_t,
    out: *mut cudaGraph_t,
) -> Result<(), cudaError_t> {
    if out.is_null() {
        return Err(cudaErrorInvalidValue);
    }
    let s = stream as usize;
    let Some(id) = rt.graphs.capture.streams.get(&s).map(|m| m.seq) else {
        return Err(cudaErrorIllegalState);
    };
    let c = &rt.graphs.capture;
    if c.seqs[&id].origin != s {
        diag("cudaStreamEndCapture: the capture must end on the stream it began on");
        return Err(cudaErrorStreamCaptureUnmatched);
    }
    let joined = ancestors(rt, &c.streams[&s].tail);
    let unjoined = c
        .streams
        .values()
        .any(|m| m.seq == id && !m.tail.iter().all(|n| joined.contains(n)));
    // The capture ends either way.
    let c = &mut rt.graphs.capture;
    let seq = c.seqs.remove(&id).expect("a live sequence");
    c.streams.retain(|_, m| m.seq != id);
    // Events recorded in an invalidated capture stay unusable after it (measured, see the
    // module docs); those of a capture that ended well are as if never recorded.
    let ended: Vec<usize> = c
        .events
        .iter()
        .filter(|(_, (e, _))| *e == id)
        .map(|(&ev, _)| ev)
        .collect();
    for ev in ended {
        c.events.remove(&ev);
        if seq.invalidated {
            c.stale_events.insert(ev);
        }
    }
    let failure = if seq.invalidated {
        Some(cudaErrorStreamCaptureInvalidated)
    } else if unjoined {
        diag("cudaStreamEndCapture: a stream forked into the capture was not joined back into the stream that began it");
        Some(cudaErrorStreamCaptureUnjoined)
    } else {
        None
    };
    if let Some(e) = failure {
        if seq.own_graph {
            rt.graphs.destroy_graph(seq.graph);
        }
        unsafe { put(out, std::ptr::null_mut())? };
        return Err(e);
    }
    unsafe { put(out, seq.graph as cudaGraph_t) }
}

pub(crate) unsafe extern "C" fn cudaStreamEndCapture(
    stream: cudaStream_t,
    out: *mut cudaGraph_t,
) -> cudaError_t {
    api("cudaStreamEndCapture", |rt| end_capture(rt, stream, out))
}

/// `cudaStreamCaptureStatus`: 0 none, 1 active, 2 invalidated.
fn status(rt: &Runtime, stream: cudaStream_t) -> (c_int, Option<u64>) {
    let c = &rt.graphs.capture;
    match c.streams.get(&(stream as usize)) {
        None => (0, None),
        Some(m) if c.seqs[&m.seq].invalidated => (2, Some(m.seq)),
        Some(m) => (1, Some(m.seq)),
    }
}

pub(crate) unsafe extern "C" fn cudaStreamIsCapturing(
    stream: cudaStream_t,
    out: *mut c_int,
) -> cudaError_t {
    api("cudaStreamIsCapturing", |rt| {
        if !rt.valid_stream(stream) {
            return Err(cudaErrorInvalidResourceHandle);
        }
        put(out, status(rt, stream).0)
    })
}

/// CUDA 13's `cudaStreamGetCaptureInfo(stream, status, id, graph, deps, edgeData, numDeps)`;
/// every out-pointer but the status may be null. The dependency and edge arrays stay valid
/// until the stream's next captured operation or the end of the capture.
pub(crate) unsafe extern "C" fn cudaStreamGetCaptureInfo(
    stream: cudaStream_t,
    status_out: *mut c_int,
    id_out: *mut u64,
    graph_out: *mut cudaGraph_t,
    deps_out: *mut *const cudaGraphNode_t,
    edges_out: *mut *const [u8; 8],
    count_out: *mut usize,
) -> cudaError_t {
    api("cudaStreamGetCaptureInfo", |rt| {
        if !rt.valid_stream(stream) {
            return Err(cudaErrorInvalidResourceHandle);
        }
        let (st, id) = status(rt, stream);
        put(status_out, st)?;
        let Some(id) = id else {
            return Ok(());
        };
        let c = &rt.graphs.capture;
        let m = &c.streams[&(stream as usize)];
        if !id_out.is_null() {
            put(id_out, id)?;
        }
        if !graph_out.is_null() {
            put(graph_out, c.seqs[&id].graph as cudaGraph_t)?;
        }
        if !deps_out.is_null() {
            put(deps_out, m.tail.as_ptr() as *const cudaGraphNode_t)?;
        }
        if !edges_out.is_null() {
            put(edges_out, m.edges.as_ptr())?;
        }
        if !count_out.is_null() {
            put(count_out, m.tail.len())?;
        }
        Ok(())
    })
}

thread_local! {
    /// This thread's `cudaStreamCaptureMode` (kept for `cudaThreadExchangeStreamCaptureMode`).
    static THREAD_MODE: std::cell::Cell<c_int> = const { std::cell::Cell::new(0) };
}

unsafe extern "C" fn cudaThreadExchangeStreamCaptureMode(mode: *mut c_int) -> cudaError_t {
    api("cudaThreadExchangeStreamCaptureMode", |_| {
        let m = mode.as_mut().ok_or(cudaErrorInvalidValue)?;
        if !(0..=MODE_RELAXED).contains(m) {
            return Err(cudaErrorInvalidValue);
        }
        *m = THREAD_MODE.with(|t| t.replace(*m));
        Ok(())
    })
}

export!(
    cudaStreamBeginCapture,
    cudaStreamBeginCaptureToGraph,
    cudaStreamUpdateCaptureDependencies,
    cudaStreamEndCapture,
    cudaStreamIsCapturing,
    cudaStreamGetCaptureInfo,
    cudaThreadExchangeStreamCaptureMode,
);
