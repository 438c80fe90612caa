//! What can go wrong while executing one warp instruction. The grid runner turns an
//! [`ExecFault`] into a `DeviceError` naming the kernel, CTA and thread.

use crate::ir::{Pc, Space};

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FaultKind {
    /// The access `[address, address+size)` lies outside every valid region of `space`.
    OutOfBounds { space: Space, address: u64, size: u32, write: bool },
    /// The address is not a multiple of the access size.
    Misaligned { space: Space, address: u64, size: u32, write: bool },
    /// A call needed more per-thread local memory than the configured limit.
    StackOverflow { needed: u64, limit: u64 },
    /// `trap` executed.
    Trap,
    /// `__assertfail` (a failed device-side `assert`).
    Assert { message: String, file: String, line: u32, function: String },
    /// An indirect call through a value that is not a function handle.
    BadCallTarget { value: u64 },
    /// Device-side `free` of an address that is not a live device-heap block.
    BadFree { address: u64 },
    /// A texture or surface instruction whose handle names no live object.
    BadHandle { surface: bool, handle: u64 },
    /// A `.trap` surface access outside the surface (x in bytes).
    SurfaceOutOfBounds { handle: u64, coords: [i64; 3], size: u32, write: bool },
}

/// A fault at `pc` in function `func` (by name) for lane `lane` of the executing warp.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ExecFault {
    pub kind: FaultKind,
    pub lane: u32,
    pub pc: Pc,
    pub func: u32,
}
