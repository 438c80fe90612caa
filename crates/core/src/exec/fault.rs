//! What can go wrong while executing one warp instruction. The grid runner turns an
//! [`ExecFault`] into a `DeviceError` naming the kernel, CTA and thread.

use super::memory::Nearby;
use crate::ir::{Pc, Space};

/// What a faulting address is near, worked out once the access faulted.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Near {
    /// Not worked out (the fault did not come from `ld`/`st`/`atom`).
    Unknown,
    /// Global memory: relative to the allocations.
    Global(Nearby),
    /// Shared memory of the CTA, local memory of the thread or the kernel parameters: the
    /// access's offset in that window and the window's size.
    Window { offset: u64, size: u64 },
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FaultKind {
    /// The access `[address, address+size)` lies outside every valid region of `space`.
    /// `lanes`: the lanes of the warp whose access faults (the reported lane and any later
    /// lane of `active` that would); `active`: the lanes that executed the access.
    OutOfBounds {
        space: Space,
        address: u64,
        size: u32,
        write: bool,
        near: Near,
        lanes: u32,
        active: u32,
    },
    /// The address is not a multiple of the access size.
    Misaligned {
        space: Space,
        address: u64,
        size: u32,
        write: bool,
        lanes: u32,
        active: u32,
    },
    /// A call needed more per-thread local memory than the configured limit.
    StackOverflow { needed: u64, limit: u64 },
    /// `trap` executed.
    Trap,
    /// `__assertfail` (a failed device-side `assert`).
    Assert {
        message: String,
        file: String,
        line: u32,
        function: String,
    },
    /// An indirect call through a value that is not a function handle.
    BadCallTarget { value: u64 },
    /// Device-side `free` of an address that is not a live device-heap block.
    BadFree { address: u64 },
    /// A texture or surface instruction whose handle names no live object.
    BadHandle { surface: bool, handle: u64 },
    /// A `.trap` surface access outside the surface (x in bytes).
    SurfaceOutOfBounds {
        handle: u64,
        coords: [i64; 3],
        size: u32,
        write: bool,
    },
}

/// A fault at `pc` in function `func` (by name) for lane `lane` of the executing warp.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ExecFault {
    pub kind: FaultKind,
    pub lane: u32,
    pub pc: Pc,
    pub func: u32,
}
