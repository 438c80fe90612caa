//! Functional execution of a whole grid: CTAs are made resident up to a limit and their warps
//! interleaved in slices, so CTAs that wait on each other (grid-wide barriers built from
//! atomics) make progress. Deterministic: the order depends only on the launch.

// `DeviceError` is large (locations, deadlock and memory-check reports); errors are cold.
#![allow(clippy::result_large_err)]

use super::context::{LaunchCtx, MemCtx};
use super::cta::{Barrier, BarrierAfterExit, Cta};
use super::fault::Near;
use super::fault::{ExecFault, FaultKind};
use super::memory::{AllocInfo, GlobalMemory, Nearby, Origin};
use super::operands::thread_index;
use super::step::{step, StepEvent};
use super::warp::{Warp, WarpState, WARP_SIZE};
use crate::device::error::{DeviceError, ExitedWarp, Location, StuckWarp};
use crate::ir::Space;
use std::collections::VecDeque;

/// Limits of a functional run.
#[derive(Clone, Copy, Debug)]
pub struct RunLimits {
    /// Warp instructions after which the launch fails as a runaway.
    pub max_warp_instructions: u64,
    /// CTAs executing concurrently.
    pub max_resident_ctas: u32,
    /// Warp instructions a warp runs before the next warp gets its turn.
    pub slice: u32,
}

/// Counts of one launch.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct LaunchStats {
    pub warp_instructions: u64,
    pub thread_instructions: u64,
    pub ctas: u64,
}

/// Creates CTA number `linear` of the grid.
pub fn make_cta(k: &LaunchCtx, linear: u64, shared_bytes: u32) -> Cta {
    let mut cta = Cta {
        id: [0; 3],
        warps: Vec::new(),
        shared: Vec::new(),
        barriers: [Barrier::default(); 16],
        busy: 0,
        clock: 0,
        synccheck: k.synccheck,
    };
    remake_cta(k, linear, shared_bytes, &mut cta);
    cta
}

/// Makes `cta` what [`make_cta`] makes, reusing the buffers of the CTA it was (its warps'
/// register files, local and shared memory): the functional scheduler recycles finished CTAs
/// this way, so a grid of thousands of short CTAs does not allocate and free every one.
pub fn remake_cta(k: &LaunchCtx, linear: u64, shared_bytes: u32, cta: &mut Cta) {
    let g = k.grid;
    cta.id = [
        (linear % g[0] as u64) as u32,
        ((linear / g[0] as u64) % g[1] as u64) as u32,
        (linear / (g[0] as u64 * g[1] as u64)) as u32,
    ];
    let func = &k.module.functions[k.kernel as usize];
    let threads = k.block[0] * k.block[1] * k.block[2];
    let nwarps = threads.div_ceil(WARP_SIZE as u32);
    cta.warps.truncate(nwarps as usize);
    for wi in 0..nwarps {
        let n = (threads - wi * WARP_SIZE as u32).min(WARP_SIZE as u32);
        let valid = if n == 32 { u32::MAX } else { (1u32 << n) - 1 };
        let (regs, preds, frame) = (func.num_regs, func.num_preds, func.frame_bytes);
        let w = match cta.warps.get_mut(wi as usize) {
            Some(w) => {
                w.reset(wi, valid, k.kernel, regs, preds, frame);
                w
            }
            None => {
                cta.warps
                    .push(Warp::new(wi, valid, k.kernel, regs, preds, frame));
                cta.warps.last_mut().expect("just pushed")
            }
        };
        if let Some(e) = w.simt.first_mut() {
            e.rpc = func.insts.len() as u32;
        }
    }
    cta.shared.clear();
    cta.shared.resize(shared_bytes as usize, 0);
    cta.barriers = [Barrier::default(); 16];
    cta.busy = 0;
    cta.clock = 0;
    cta.synccheck = k.synccheck;
}

/// Runs the grid to completion.
pub fn run_grid(
    k: &LaunchCtx,
    gmem: &mut GlobalMemory,
    printf: &mut String,
    shared_bytes: u32,
    limits: RunLimits,
) -> Result<LaunchStats, DeviceError> {
    let total = k.grid.iter().map(|&d| d as u64).product::<u64>();
    let mut next_cta = 0u64;
    let mut resident: VecDeque<Cta> = VecDeque::new();
    // Finished CTAs, whose storage the next CTAs take over.
    let mut spare: Vec<Cta> = Vec::new();
    // The unfinished CTAs of a round, gathered here and swapped in (its capacity is kept).
    let mut kept: VecDeque<Cta> = VecDeque::new();
    let mut stats = LaunchStats {
        ctas: total,
        ..Default::default()
    };
    loop {
        while resident.len() < limits.max_resident_ctas.max(1) as usize && next_cta < total {
            let cta = match spare.pop() {
                Some(mut c) => {
                    remake_cta(k, next_cta, shared_bytes, &mut c);
                    c
                }
                None => make_cta(k, next_cta, shared_bytes),
            };
            resident.push_back(cta);
            next_cta += 1;
        }
        if resident.is_empty() {
            return Ok(stats);
        }
        let len = resident.len();
        for i in 0..len {
            // The CTAs after this one, their state asked for ahead (`prefetch.rs`).
            super::prefetch::warps(&resident[(i + 3) % len]);
            super::prefetch::tops(&resident[(i + 2) % len]);
            super::prefetch::registers(k, &resident[(i + 1) % len]);
            run_cta_slice(k, gmem, printf, &mut resident[i], limits.slice, &mut stats)?;
            if stats.warp_instructions > limits.max_warp_instructions {
                return Err(DeviceError::InstructionLimit {
                    kernel: kernel_name(k),
                    limit: limits.max_warp_instructions,
                });
            }
        }
        // The unfinished stay in their order; the finished become spares.
        if resident.iter().any(Cta::finished) {
            for c in resident.drain(..) {
                if c.finished() {
                    spare.push(c);
                } else {
                    kept.push_back(c);
                }
            }
            std::mem::swap(&mut resident, &mut kept);
        }
    }
}

fn kernel_name(k: &LaunchCtx) -> String {
    k.module.functions[k.kernel as usize].name.clone()
}

/// Gives every ready warp of the CTA one slice; reports a deadlock when nothing can run.
fn run_cta_slice(
    k: &LaunchCtx,
    gmem: &mut GlobalMemory,
    printf: &mut String,
    cta: &mut Cta,
    slice: u32,
    stats: &mut LaunchStats,
) -> Result<(), DeviceError> {
    for wi in 0..cta.warps.len() {
        if cta.warps[wi].state != WarpState::Ready {
            continue;
        }
        let before = (
            cta.warps[wi].instructions,
            cta.warps[wi].thread_instructions,
        );
        let mut n = 0;
        while n < slice {
            let ev = run_until_event(k, gmem, printf, cta, wi, slice, &mut n)
                .map_err(|f| fault_error(k, cta, wi, f))?;
            match ev {
                StepEvent::Continue => {}
                StepEvent::Done => {
                    cta.warps[wi].state = WarpState::Done;
                    cta.release_ready()
                        .map_err(|h| synccheck_error(k, cta, h))?;
                    break;
                }
                ev @ StepEvent::Barrier { .. } => {
                    cta.arrive(wi, ev).map_err(|h| synccheck_error(k, cta, h))?;
                    if cta.warps[wi].state != WarpState::Ready {
                        break;
                    }
                }
            }
        }
        let w = &cta.warps[wi];
        stats.warp_instructions += w.instructions - before.0;
        stats.thread_instructions += w.thread_instructions - before.1;
    }
    if !cta.finished() && cta.warps.iter().all(|w| w.state != WarpState::Ready) {
        return Err(deadlock(k, cta));
    }
    Ok(())
}

/// Steps warp `wi` until an event other than `Continue` or until `*n` reaches `slice`
/// (counting its steps in `*n`), with one memory context for all of them rather than one per
/// step; returns the last step's event. `%clock` advances by one per step, as the CTA's count
/// of executed instructions (not for a step that faults).
fn run_until_event(
    k: &LaunchCtx,
    gmem: &mut GlobalMemory,
    printf: &mut String,
    cta: &mut Cta,
    wi: usize,
    slice: u32,
    n: &mut u32,
) -> Result<StepEvent, ExecFault> {
    let mut m = MemCtx {
        global: super::global::Global::Direct(gmem),
        shared: &mut cta.shared,
        printf,
        clock: cta.clock,
        cta: cta.id,
    };
    let w = &mut cta.warps[wi];
    let mut last = Ok(StepEvent::Continue);
    while *n < slice {
        *n += 1;
        match step(k, &mut m, w) {
            Ok(StepEvent::Continue) => m.clock += 1,
            Ok(ev) => {
                m.clock += 1;
                last = Ok(ev);
                break;
            }
            Err(f) => {
                last = Err(f);
                break;
            }
        }
    }
    cta.clock = m.clock;
    last
}

/// The deadlock error for a CTA none of whose warps can run.
pub fn deadlock(k: &LaunchCtx, cta: &Cta) -> DeviceError {
    let warps = cta
        .warps
        .iter()
        .filter_map(|w| match w.state {
            WarpState::AtBarrier { id } => {
                let f = w.frame();
                let pc = w.barrier_pc;
                let line = k.module.functions[f.func as usize]
                    .insts
                    .get(pc as usize)
                    .map_or(0, |i| i.line);
                Some(StuckWarp {
                    warp: w.index,
                    barrier: id,
                    pc,
                    line,
                    lanes: w.barrier_lanes,
                })
            }
            _ => None,
        })
        .collect();
    DeviceError::Deadlock {
        kernel: kernel_name(k),
        cta: cta.id,
        live_threads: cta.live_threads(),
        warps,
    }
}

/// Where a faulting access of `size` bytes at `address` lies, in words: the allocation it is
/// nearest to and how far, the freed allocation it is in and which call freed it
/// (compute-sanitizer's memcheck says as much).
fn explain(
    k: &LaunchCtx,
    space: Space,
    address: u64,
    size: u32,
    write: bool,
    near: Near,
) -> String {
    match near {
        Near::Unknown => "outside every allocation".into(),
        Near::Global(n) => match n {
            Nearby::Null => "a null pointer (no allocation near address 0)".into(),
            Nearby::After { alloc, gap } => match module_variable(k, &alloc, address, false) {
                Some((_, end, v)) => {
                    format!("{} bytes after the end of {v}", address.saturating_sub(end))
                }
                None => format!("{gap} bytes after the end of {}", describe_alloc(&alloc)),
            },
            Nearby::Before { alloc, gap } => match module_variable(k, &alloc, address, true) {
                Some((_, _, v)) => format!("{gap} bytes before the start of {v}"),
                None => format!("{gap} bytes before the start of {}", describe_alloc(&alloc)),
            },
            Nearby::PastEnd { alloc, over } => {
                let offset = address - alloc.base;
                match module_variable(k, &alloc, address, false) {
                    Some((_, end, v)) => format!(
                        "running {} bytes past the end of {v}",
                        (address + size as u64).saturating_sub(end)
                    ),
                    None => format!(
                        "at offset {offset} of {}, running {over} bytes past its end",
                        describe_alloc(&alloc)
                    ),
                }
            }
            Nearby::Freed { alloc, freed } => format!(
                "inside {}, freed by {} call {}",
                describe_alloc(&alloc),
                freed.by,
                freed.call
            ),
            Nearby::Nothing => "outside every allocation (none within 4 GiB)".into(),
        },
        Near::Window {
            offset,
            size: window,
        } => {
            let what = match space {
                Space::Shared => format!("the CTA's {window} bytes of shared memory"),
                Space::Local => format!("the thread's {window} bytes of local memory in use"),
                _ if write => return format!("kernel parameters are read-only ({window} bytes)"),
                _ => format!("the kernel's {window} bytes of parameters"),
            };
            if offset >= window {
                format!("{} bytes after the end of {what}", offset - window)
            } else {
                format!("at offset {offset} of {what}, running past its end")
            }
        }
    }
}

/// `a 1024-byte allocation at 0x… (cudaMalloc call 2)`.
fn describe_alloc(a: &AllocInfo) -> String {
    match a.origin {
        Origin::DeviceMalloc => format!(
            "a {}-byte block at 0x{:x} (device malloc call {})",
            a.size, a.base, a.call
        ),
        Origin::HeapCookie => format!(
            "the 8-byte header slot at 0x{:x} before device malloc call {}'s block",
            a.base, a.call
        ),
        Origin::Module => format!(
            "a module's {}-byte block of __device__/__constant__ variables at 0x{:x}",
            a.size, a.base
        ),
        Origin::Workspace => format!(
            "the {}-byte grid-sync workspace of the cooperative launch at 0x{:x}",
            a.size, a.base
        ),
        Origin::Host(call) => format!(
            "a {}-byte allocation at 0x{:x} ({call} call {})",
            a.size, a.base, a.call
        ),
    }
}

/// When `alloc` is the launched module's block of variables: the variable an access at
/// `address` belongs to (the first one when `first`, else the one containing `address` or
/// the last before it), as its name, its end address and its description.
fn module_variable(
    k: &LaunchCtx,
    alloc: &AllocInfo,
    address: u64,
    first: bool,
) -> Option<(String, u64, String)> {
    if alloc.origin != Origin::Module || alloc.base != k.globals_base {
        return None;
    }
    let vars = k.module.globals.iter().filter(|v| v.size > 0);
    let v = if first {
        vars.min_by_key(|v| v.offset)?
    } else {
        vars.filter(|v| alloc.base + v.offset as u64 <= address)
            .max_by_key(|v| v.offset)?
    };
    let base = alloc.base + v.offset as u64;
    let kind = if v.is_const {
        "__constant__"
    } else {
        "__device__"
    };
    Some((
        v.name.clone(),
        base + v.size as u64,
        format!(
            "{kind} variable `{}` ({} bytes at 0x{base:x})",
            v.name, v.size
        ),
    ))
}

/// The `--synccheck` error for a barrier that completed without threads that had exited.
pub fn synccheck_error(k: &LaunchCtx, cta: &Cta, h: BarrierAfterExit) -> DeviceError {
    let func = &k.module.functions[h.func as usize];
    DeviceError::BarrierAfterExit {
        kernel: kernel_name(k),
        function: func.name.clone(),
        cta: cta.id,
        barrier: h.barrier,
        count: h.count,
        pc: h.pc,
        line: func.insts.get(h.pc as usize).map_or(func.line, |i| i.line),
        exited: h
            .exited
            .into_iter()
            .map(|(warp, lanes)| ExitedWarp { warp, lanes })
            .collect(),
    }
}

/// Turns a fault of lane `f.lane` of warp `wi` into a located error.
pub fn fault_error(k: &LaunchCtx, cta: &Cta, wi: usize, f: ExecFault) -> DeviceError {
    let func = &k.module.functions[f.func as usize];
    let location = Location {
        kernel: kernel_name(k),
        function: func.name.clone(),
        cta: cta.id,
        thread: thread_index(k.block, cta.warps[wi].index, f.lane as usize),
        pc: f.pc,
        line: func.insts.get(f.pc as usize).map_or(func.line, |i| i.line),
        source: k
            .module
            .source_of(f.func, f.pc)
            .map(|(path, line)| format!("{path}:{line}")),
    };
    match f.kind {
        FaultKind::OutOfBounds {
            space,
            address,
            size,
            write,
            near,
            lanes,
            active,
        } => DeviceError::MemoryFault {
            location,
            space,
            address,
            size,
            write,
            misaligned: false,
            after_free: matches!(near, Near::Global(Nearby::Freed { .. })),
            why: explain(k, space, address, size, write, near),
            threads: lanes.count_ones().max(1),
            active: active.count_ones().max(1),
        },
        FaultKind::Misaligned {
            space,
            address,
            size,
            write,
            lanes,
            active,
        } => DeviceError::MemoryFault {
            location,
            space,
            address,
            size,
            write,
            misaligned: true,
            after_free: false,
            why: format!("not a multiple of {size}"),
            threads: lanes.count_ones().max(1),
            active: active.count_ones().max(1),
        },
        FaultKind::StackOverflow { needed, limit } => DeviceError::StackOverflow {
            location,
            needed,
            limit,
        },
        FaultKind::Trap => DeviceError::Trap(location),
        FaultKind::Assert {
            message,
            file,
            line,
            function,
        } => DeviceError::AssertFailed {
            location,
            message,
            file,
            line,
            function,
        },
        FaultKind::BadCallTarget { value } => DeviceError::BadCallTarget { location, value },
        FaultKind::BadFree { address } => DeviceError::BadFree { location, address },
        FaultKind::BadHandle { surface, handle } => DeviceError::BadTextureHandle {
            location,
            surface,
            handle,
        },
        FaultKind::SurfaceOutOfBounds {
            handle,
            coords,
            size,
            write,
        } => DeviceError::SurfaceOutOfBounds {
            location,
            handle,
            coords,
            size,
            write,
        },
    }
}
