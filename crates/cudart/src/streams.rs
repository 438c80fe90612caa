//! Streams and events. Every operation completes inside its call, so streams only need to
//! exist, queries always answer "done", and host callbacks run at once — except on a stream
//! that is capturing a graph (`capture.rs`), where work is recorded instead.
//!
//! Event timing: an event records the simulated clock ([`Runtime::clock`]). In timing mode
//! that is the core cycles of all launches so far, and `cudaEventElapsedTime` divides the
//! difference by the configured core clock (`gpu.core_clock_mhz`). In functional mode it is
//! the warp instructions executed, converted at a nominal [`WARP_INSTRUCTIONS_PER_MS`] (15 SMs
//! issuing one warp instruction per cycle at 1400 MHz). Host work and copies take no
//! simulated time; launches run back to back.

use crate::capture;
use crate::config::Mode;
use crate::graphs::{HostFn, NodeKind};
use crate::runtime::{api, diag, guard, put, Event, Runtime};
use crate::types::*;
use std::ffi::{c_float, c_int, c_uint, c_void};

/// Warp instructions the simulated GPU retires per millisecond (functional-mode timing).
pub const WARP_INSTRUCTIONS_PER_MS: f64 = 15.0 * 1_400_000.0;

/// A fresh, unique, non-null handle (a leaked heap cell, freed when destroyed).
pub fn new_handle() -> usize {
    Box::into_raw(Box::new(0u64)) as usize
}

pub unsafe fn free_handle(h: usize) {
    drop(Box::from_raw(h as *mut u64));
}

fn check_stream(rt: &Runtime, s: cudaStream_t) -> Result<(), cudaError_t> {
    if rt.valid_stream(s) {
        Ok(())
    } else {
        Err(cudaErrorInvalidResourceHandle)
    }
}

fn create_stream(rt: &mut Runtime, stream: *mut cudaStream_t) -> Result<(), cudaError_t> {
    if stream.is_null() {
        return Err(cudaErrorInvalidValue);
    }
    let h = new_handle();
    rt.streams.insert(h);
    unsafe { put(stream, h as cudaStream_t) }
}

unsafe extern "C" fn cudaStreamCreate(stream: *mut cudaStream_t) -> cudaError_t {
    api("cudaStreamCreate", |rt| create_stream(rt, stream))
}

unsafe extern "C" fn cudaStreamCreateWithFlags(
    stream: *mut cudaStream_t,
    _flags: c_uint,
) -> cudaError_t {
    api("cudaStreamCreateWithFlags", |rt| create_stream(rt, stream))
}

unsafe extern "C" fn cudaStreamCreateWithPriority(
    stream: *mut cudaStream_t,
    _flags: c_uint,
    _priority: c_int,
) -> cudaError_t {
    api("cudaStreamCreateWithPriority", |rt| {
        create_stream(rt, stream)
    })
}

unsafe extern "C" fn cudaStreamDestroy(stream: cudaStream_t) -> cudaError_t {
    api("cudaStreamDestroy", |rt| {
        if rt.streams.remove(&(stream as usize)) {
            free_handle(stream as usize);
            Ok(())
        } else {
            Err(cudaErrorInvalidResourceHandle)
        }
    })
}

pub(crate) unsafe extern "C" fn cudaStreamSynchronize(stream: cudaStream_t) -> cudaError_t {
    api("cudaStreamSynchronize", |rt| {
        check_stream(rt, stream)?;
        capture::refuse_sync(rt, "cudaStreamSynchronize", Some(stream))
    })
}

pub(crate) unsafe extern "C" fn cudaStreamQuery(stream: cudaStream_t) -> cudaError_t {
    api("cudaStreamQuery", |rt| {
        check_stream(rt, stream)?;
        capture::refuse_sync(rt, "cudaStreamQuery", Some(stream))
    })
}

pub(crate) unsafe extern "C" fn cudaStreamWaitEvent(
    stream: cudaStream_t,
    event: cudaEvent_t,
    _flags: c_uint,
) -> cudaError_t {
    api("cudaStreamWaitEvent", |rt| {
        check_stream(rt, stream)?;
        if !rt.events.contains_key(&(event as usize)) {
            return Err(cudaErrorInvalidResourceHandle);
        }
        capture::wait_event(rt, stream, event).map(|_| ())
    })
}

pub(crate) unsafe extern "C" fn cudaStreamGetFlags(
    stream: cudaStream_t,
    flags: *mut c_uint,
) -> cudaError_t {
    api("cudaStreamGetFlags", |rt| {
        check_stream(rt, stream)?;
        put(flags, 0)
    })
}

pub(crate) unsafe extern "C" fn cudaStreamGetPriority(
    stream: cudaStream_t,
    priority: *mut c_int,
) -> cudaError_t {
    api("cudaStreamGetPriority", |rt| {
        check_stream(rt, stream)?;
        put(priority, 0)
    })
}

pub type StreamCallback = unsafe extern "C" fn(cudaStream_t, cudaError_t, *mut c_void);

/// Host callbacks run at once, outside the runtime lock (they may call the runtime).
pub(crate) unsafe extern "C" fn cudaStreamAddCallback(
    stream: cudaStream_t,
    callback: Option<StreamCallback>,
    data: *mut c_void,
    _flags: c_uint,
) -> cudaError_t {
    let e = api("cudaStreamAddCallback", |rt| {
        check_stream(rt, stream)?;
        if capture::capturing(rt, stream) {
            diag("cudaStreamAddCallback on a capturing stream: not permitted (use cudaLaunchHostFunc)");
            return Err(capture::cudaErrorStreamCaptureUnsupported);
        }
        callback.map(|_| ()).ok_or(cudaErrorInvalidValue)
    });
    if let (cudaSuccess, Some(cb)) = (e, callback) {
        guard("cudaStreamAddCallback", (), || {
            cb(stream, cudaSuccess, data)
        });
    }
    e
}

pub(crate) unsafe extern "C" fn cudaLaunchHostFunc(
    stream: cudaStream_t,
    f: Option<HostFn>,
    data: *mut c_void,
) -> cudaError_t {
    let mut captured = false;
    let e = api("cudaLaunchHostFunc", |rt| {
        check_stream(rt, stream)?;
        let f = f.ok_or(cudaErrorInvalidValue)?;
        captured = capture::capturing(rt, stream);
        if captured {
            capture::capture(
                rt,
                stream,
                NodeKind::Host {
                    f,
                    data: data as usize,
                },
            )?;
        }
        Ok(())
    });
    if let (cudaSuccess, Some(f), false) = (e, f, captured) {
        guard("cudaLaunchHostFunc", (), || f(data));
    }
    e
}

/// `cudaLaunchHostFunc` with a `cudaHostTaskSyncMode` (blocking 0 or spin-wait 1): how the
/// driver's thread waits makes no difference when the function runs at once.
pub(crate) unsafe extern "C" fn cudaLaunchHostFunc_v2(
    stream: cudaStream_t,
    f: Option<HostFn>,
    data: *mut c_void,
    sync_mode: c_uint,
) -> cudaError_t {
    if sync_mode > 1 {
        return api("cudaLaunchHostFunc_v2", |_| Err(cudaErrorInvalidValue));
    }
    cudaLaunchHostFunc(stream, f, data)
}

/// Stream ids: the legacy default stream is 1, the per-thread one 2, a created stream its
/// handle (unique among live streams; CUDA's ids are unique for the process's lifetime).
pub(crate) unsafe extern "C" fn cudaStreamGetId(stream: cudaStream_t, id: *mut u64) -> cudaError_t {
    api("cudaStreamGetId", |rt| {
        check_stream(rt, stream)?;
        let v = match stream as usize {
            0 | STREAM_LEGACY => 1,
            s => s as u64,
        };
        put(id, v)
    })
}

pub(crate) unsafe extern "C" fn cudaStreamGetDevice(
    stream: cudaStream_t,
    device: *mut c_int,
) -> cudaError_t {
    api("cudaStreamGetDevice", |rt| {
        check_stream(rt, stream)?;
        put(device, 0)
    })
}

fn create_event(rt: &mut Runtime, event: *mut cudaEvent_t, flags: u32) -> Result<(), cudaError_t> {
    if event.is_null() {
        return Err(cudaErrorInvalidValue);
    }
    let h = new_handle();
    rt.events.insert(
        h,
        Event {
            flags,
            recorded: None,
        },
    );
    unsafe { put(event, h as cudaEvent_t) }
}

unsafe extern "C" fn cudaEventCreate(event: *mut cudaEvent_t) -> cudaError_t {
    api("cudaEventCreate", |rt| create_event(rt, event, 0))
}

unsafe extern "C" fn cudaEventCreateWithFlags(
    event: *mut cudaEvent_t,
    flags: c_uint,
) -> cudaError_t {
    api("cudaEventCreateWithFlags", |rt| {
        create_event(rt, event, flags)
    })
}

fn record_event(
    rt: &mut Runtime,
    event: cudaEvent_t,
    stream: cudaStream_t,
    flags: c_uint,
) -> Result<(), cudaError_t> {
    check_stream(rt, stream)?;
    if !rt.events.contains_key(&(event as usize)) {
        return Err(cudaErrorInvalidResourceHandle);
    }
    if capture::record_event(rt, event, stream, flags)? {
        return Ok(());
    }
    let clock = rt.clock;
    let e = rt
        .events
        .get_mut(&(event as usize))
        .ok_or(cudaErrorInvalidResourceHandle)?;
    e.recorded = Some(clock);
    Ok(())
}

pub(crate) unsafe extern "C" fn cudaEventRecord(
    event: cudaEvent_t,
    stream: cudaStream_t,
) -> cudaError_t {
    api("cudaEventRecord", |rt| record_event(rt, event, stream, 0))
}

pub(crate) unsafe extern "C" fn cudaEventRecordWithFlags(
    event: cudaEvent_t,
    stream: cudaStream_t,
    flags: c_uint,
) -> cudaError_t {
    api("cudaEventRecordWithFlags", |rt| {
        record_event(rt, event, stream, flags)
    })
}

/// A live event that was not last recorded in a capture (`capture::use_event`).
fn completed_event(rt: &mut Runtime, what: &str, event: cudaEvent_t) -> Result<(), cudaError_t> {
    if !rt.events.contains_key(&(event as usize)) {
        return Err(cudaErrorInvalidResourceHandle);
    }
    capture::use_event(rt, what, event)
}

unsafe extern "C" fn cudaEventSynchronize(event: cudaEvent_t) -> cudaError_t {
    api("cudaEventSynchronize", |rt| {
        completed_event(rt, "cudaEventSynchronize", event)
    })
}

unsafe extern "C" fn cudaEventQuery(event: cudaEvent_t) -> cudaError_t {
    api("cudaEventQuery", |rt| {
        completed_event(rt, "cudaEventQuery", event)
    })
}

/// Milliseconds between two recorded clock values at `per_ms` clock ticks per millisecond.
pub fn elapsed_ms(start: u64, end: u64, per_ms: f64) -> f32 {
    ((end as f64 - start as f64) / per_ms) as f32
}

/// Clock ticks per millisecond of the runtime's clock (see the module docs).
pub fn ticks_per_ms(rt: &Runtime) -> f64 {
    match rt.config.mode {
        Mode::Timing => rt.config.gpu.gpu.core_clock_mhz * 1000.0,
        Mode::Functional => WARP_INSTRUCTIONS_PER_MS,
    }
}

unsafe extern "C" fn cudaEventElapsedTime(
    ms: *mut c_float,
    start: cudaEvent_t,
    end: cudaEvent_t,
) -> cudaError_t {
    api("cudaEventElapsedTime", |rt| {
        completed_event(rt, "cudaEventElapsedTime", start)?;
        completed_event(rt, "cudaEventElapsedTime", end)?;
        let (Some(s), Some(e)) = (
            rt.events.get(&(start as usize)),
            rt.events.get(&(end as usize)),
        ) else {
            return Err(cudaErrorInvalidResourceHandle);
        };
        if (s.flags | e.flags) & cudaEventDisableTiming != 0 {
            return Err(cudaErrorInvalidResourceHandle);
        }
        let (Some(a), Some(b)) = (s.recorded, e.recorded) else {
            return Err(cudaErrorInvalidResourceHandle);
        };
        put(ms, elapsed_ms(a, b, ticks_per_ms(rt)))
    })
}

unsafe extern "C" fn cudaEventDestroy(event: cudaEvent_t) -> cudaError_t {
    api("cudaEventDestroy", |rt| {
        if rt.events.remove(&(event as usize)).is_some() {
            capture::forget_event(rt, event);
            free_handle(event as usize);
            Ok(())
        } else {
            Err(cudaErrorInvalidResourceHandle)
        }
    })
}

export!(
    cudaStreamCreate,
    cudaStreamCreateWithFlags,
    cudaStreamCreateWithPriority,
    cudaStreamDestroy,
    cudaStreamSynchronize,
    cudaStreamQuery,
    cudaStreamWaitEvent,
    cudaStreamGetFlags,
    cudaStreamGetPriority,
    cudaStreamAddCallback,
    cudaLaunchHostFunc,
    cudaLaunchHostFunc_v2,
    cudaStreamGetId,
    cudaStreamGetDevice,
    cudaEventCreate,
    cudaEventCreateWithFlags,
    cudaEventRecord,
    cudaEventRecordWithFlags,
    cudaEventSynchronize,
    cudaEventQuery,
    cudaEventElapsedTime,
    cudaEventDestroy,
);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nominal_rate() {
        assert_eq!(WARP_INSTRUCTIONS_PER_MS, 21_000_000.0);
        assert_eq!(elapsed_ms(0, 21_000_000, WARP_INSTRUCTIONS_PER_MS), 1.0);
        assert_eq!(elapsed_ms(5, 5, WARP_INSTRUCTIONS_PER_MS), 0.0);
        // gtx480's 700 MHz core clock: 700,000 cycles per millisecond.
        assert_eq!(elapsed_ms(0, 1_400_000, 700_000.0), 2.0);
    }
}
