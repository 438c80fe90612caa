//! Errors of the Device API, each carrying enough to act on without a debugger.

use crate::demangle::demangle;
use crate::error::LoadErrors;
use crate::ir::Space;

/// Where in a kernel something happened.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Location {
    pub kernel: String,
    /// Function executing (the kernel or a device function it called).
    pub function: String,
    pub cta: [u32; 3],
    pub thread: [u32; 3],
    pub pc: u32,
    /// PTX source line of the instruction.
    pub line: u32,
    /// `path.cu:line` of the instruction, when the PTX carries `.loc` line information.
    pub source: Option<String>,
}

impl std::fmt::Display for Location {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "kernel `{}`, CTA ({},{},{}), thread ({},{},{}), {}pc {} (PTX line {}{})",
            demangle(&self.kernel),
            self.cta[0],
            self.cta[1],
            self.cta[2],
            self.thread[0],
            self.thread[1],
            self.thread[2],
            if self.function != self.kernel {
                format!("in `{}` ", demangle(&self.function))
            } else {
                String::new()
            },
            self.pc,
            self.line,
            match &self.source {
                Some(s) => format!(", {s}"),
                None => String::new(),
            }
        )
    }
}

/// One warp's state in a deadlock report.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StuckWarp {
    pub warp: u32,
    /// Barrier the warp waits at.
    pub barrier: u8,
    pub pc: u32,
    pub line: u32,
    /// Lanes of the warp that are waiting there.
    pub lanes: u32,
}

/// Threads of one warp that had exited when a barrier completed (`--synccheck`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ExitedWarp {
    /// Warp index in its CTA.
    pub warp: u32,
    pub lanes: u32,
}

#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum DeviceError {
    #[error("cannot load PTX:\n{0}")]
    Load(#[from] LoadErrors),
    #[error("no kernel `{name}` in the module (kernels: {})", available.join(", "))]
    UnknownKernel {
        name: String,
        available: Vec<String>,
    },
    #[error("no variable `{name}` in the module")]
    UnknownSymbol { name: String },
    #[error("invalid module handle")]
    InvalidHandle,
    #[error("cannot make the device heap {bytes} bytes: {blocks} blocks are live (or the size exceeds 64 GiB)")]
    HeapInUse { blocks: u64, bytes: u64 },
    #[error("cannot make the device heap {bytes} bytes: a kernel that uses device-side malloc/free has been launched, which fixes its size")]
    HeapFixed { bytes: u64 },
    #[error("out of device memory allocating {bytes} bytes")]
    OutOfMemory { bytes: u64 },
    #[error("invalid device pointer 0x{address:x} ({bytes} bytes): not inside a live allocation")]
    InvalidPointer { address: u64, bytes: u64 },
    #[error("invalid launch of `{}`: {reason}", demangle(.kernel))]
    InvalidLaunch { kernel: String, reason: String },
    /// A cooperative launch of more CTAs than can be resident on the GPU at once (CUDA's
    /// `cudaErrorCooperativeLaunchTooLarge`): its `grid.sync()` would wait forever for CTAs
    /// that never get an SM, so it is refused before it runs, in both modes.
    #[error(
        "cooperative launch of `{}` too large: {ctas} CTAs, but at most {} can be resident at once ({per_sm} per SM, limited by {limiter}, × {sms} SMs); \
         grid.sync() would wait forever for the CTAs left waiting for a slot",
        demangle(.kernel),
        *per_sm as u64 * *sms as u64
    )]
    CooperativeLaunchTooLarge {
        kernel: String,
        ctas: u64,
        per_sm: u32,
        sms: u32,
        limiter: &'static str,
    },
    /// An access outside every allocation, misaligned, or to freed memory. `why` says where
    /// the address lies (the nearest allocation and the distance, who freed it); `threads` of
    /// the warp's `active` threads executing the access fault, the first at `location`.
    #[error(
        "{} {} of {size} bytes at 0x{address:x} ({space:?} space): {why}; {threads} of the warp's {active} active thread{} fault{}, the first at {location}",
        if *write { "write" } else { "read" },
        if *misaligned { "misaligned" } else if *after_free { "after free" } else { "out of bounds" },
        if *active == 1 { "" } else { "s" },
        if *threads == 1 { "s" } else { "" }
    )]
    MemoryFault {
        location: Location,
        space: Space,
        address: u64,
        size: u32,
        write: bool,
        misaligned: bool,
        after_free: bool,
        why: String,
        threads: u32,
        active: u32,
    },
    #[error("barrier deadlock in kernel `{}`, CTA ({},{},{}): {live_threads} live threads, {}", demangle(.kernel), cta[0], cta[1], cta[2], describe_stuck(.warps))]
    Deadlock {
        kernel: String,
        cta: [u32; 3],
        live_threads: u32,
        warps: Vec<StuckWarp>,
    },
    /// `--synccheck`: the barrier completed although threads that should have reached it had
    /// exited (undefined behaviour; without the check it completes, as on GPUs).
    #[error(
        "synccheck: barrier {barrier}{} at {}pc {pc} (PTX line {line}) of kernel `{kernel_name}`, CTA ({},{},{}), completed although {} thread{} that should reach it had exited: {}; \
         every thread of the CTA{} must reach the barrier (__syncthreads() after a `return` is undefined behaviour)",
        count.map_or(String::new(), |c| format!(" (count {c})")),
        if function != kernel { format!("`{}` ", demangle(function)) } else { String::new() },
        cta[0], cta[1], cta[2],
        exited_threads(exited),
        if exited_threads(exited) == 1 { "" } else { "s" },
        describe_exited(exited),
        if count.is_some() { " in a warp that takes part" } else { "" },
        kernel_name = demangle(.kernel)
    )]
    BarrierAfterExit {
        kernel: String,
        function: String,
        cta: [u32; 3],
        barrier: u8,
        count: Option<u32>,
        pc: u32,
        line: u32,
        exited: Vec<ExitedWarp>,
    },
    #[error("kernel `{}` exceeded the limit of {limit} warp instructions (runaway kernel? raise max_warp_instructions)", demangle(.kernel))]
    InstructionLimit { kernel: String, limit: u64 },
    /// A timed launch ran past the timing engine's cycle limit (runaway guard).
    #[error("kernel `{}` did not finish within {limit} simulated cycles (runaway kernel? raise the cycle limit)", demangle(.kernel))]
    CycleLimit { kernel: String, limit: u64 },
    /// A timed launch stopped on request (Ctrl-C), with where it stood.
    #[error("kernel `{}` interrupted at cycle {cycle} ({warp_instructions} warp instructions, {ctas_done} of {ctas_total} CTAs done)", demangle(.kernel))]
    Interrupted {
        kernel: String,
        cycle: u64,
        warp_instructions: u64,
        ctas_done: u64,
        ctas_total: u64,
    },
    #[error("`trap` executed: {0}")]
    Trap(Location),
    #[error("device assertion `{message}` failed at {file}:{line} in {function}: {location}")]
    AssertFailed {
        location: Location,
        message: String,
        file: String,
        line: u32,
        function: String,
    },
    #[error("stack overflow: {location} needs {needed} bytes of local memory (limit {limit})")]
    StackOverflow {
        location: Location,
        needed: u64,
        limit: u64,
    },
    #[error("indirect call through 0x{value:x}, which is not a function: {location}")]
    BadCallTarget { location: Location, value: u64 },
    #[error("free(0x{address:x}): not a live block of the device heap (freed twice, or not returned by malloc): {location}")]
    BadFree { location: Location, address: u64 },
    #[error("{} handle {handle} is not a live {} object: {location}", if *surface { "surface" } else { "texture" }, if *surface { "surface" } else { "texture" })]
    BadTextureHandle {
        location: Location,
        surface: bool,
        handle: u64,
    },
    #[error("surface {} outside surface {handle} ({size} bytes at x = {} bytes, y = {}, z = {}): {location}", if *write { "write" } else { "read" }, coords[0], coords[1], coords[2])]
    SurfaceOutOfBounds {
        location: Location,
        handle: u64,
        coords: [i64; 3],
        size: u32,
        write: bool,
    },
}

fn describe_stuck(warps: &[StuckWarp]) -> String {
    warps
        .iter()
        .map(|w| {
            format!(
                "warp {} waits at barrier {} (pc {}, PTX line {}, {} lanes)",
                w.warp,
                w.barrier,
                w.pc,
                w.line,
                w.lanes.count_ones()
            )
        })
        .collect::<Vec<_>>()
        .join("; ")
        + "; no other thread of the CTA can reach the barrier"
}

fn exited_threads(warps: &[ExitedWarp]) -> u32 {
    warps.iter().map(|w| w.lanes.count_ones()).sum()
}

fn describe_exited(warps: &[ExitedWarp]) -> String {
    warps
        .iter()
        .map(|w| format!("warp {} lanes {}", w.warp, lane_ranges(w.lanes)))
        .collect::<Vec<_>>()
        .join(", ")
}

/// `0-15,20,22-23`: the set bits of a lane mask as ranges.
pub fn lane_ranges(mask: u32) -> String {
    let mut out = Vec::new();
    let mut l = 0;
    while l < 32 {
        if mask & (1 << l) == 0 {
            l += 1;
            continue;
        }
        let start = l;
        while l < 32 && mask & (1 << l) != 0 {
            l += 1;
        }
        out.push(if l - 1 == start {
            start.to_string()
        } else {
            format!("{start}-{}", l - 1)
        });
    }
    out.join(",")
}

#[cfg(test)]
mod tests {
    use super::lane_ranges;

    #[test]
    fn lane_masks_print_as_ranges() {
        assert_eq!(lane_ranges(u32::MAX), "0-31");
        assert_eq!(lane_ranges(0xffff_0000), "16-31");
        assert_eq!(lane_ranges(0b1101_0001), "0,4,6-7");
        assert_eq!(lane_ranges(1 << 31), "31");
        assert_eq!(lane_ranges(0), "");
    }
}
