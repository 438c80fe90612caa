//! warpsim's built-in CUDA programs.
//!
//! Each program is our own CUDA source (`kernels/<name>/<name>.cu`), compiled once with
//! `nvcc -arch=compute_75 -ptx -O3` into committed PTX (`<name>.ptx`, regenerated and checked
//! by `scripts/kernels.sh`), plus the resource report of `ptxas -arch=sm_75 -v`
//! (`<name>.ptxas`). The host side is a Rust driver (`programs/<name>.rs`) that builds seeded
//! inputs, computes a CPU reference, drives the kernels through the [`Device`] API in the
//! algorithm's real launch sequence, and verifies every output value.
//!
//! ```ignore
//! let mut dev = warpsim_core::device::Device::new();
//! let p = warpsim_suite::program("matmul").unwrap();
//! let outcome = (p.run)(&mut dev, warpsim_suite::Size::Small)?;
//! ```
//!
//! [`Device`]: warpsim_core::device::Device

// `SuiteError::Device` carries a `DeviceError` by value, as the Device API returns it; runs end
// at the first error, so the size of the `Err` variant does not matter.
#![allow(clippy::result_large_err)]

pub mod check;
mod cpu;
pub mod info;
pub mod kaws;
pub mod motrr;
pub mod occupancy;
pub mod pro;
mod program;
mod programs;
pub mod resources;
pub mod rng;

pub use program::{Outcome, Program, Size, SuiteError};
pub use resources::{parse_ptxas, KernelResources, ResourceError};

/// Every built-in program, in a fixed order.
pub fn programs() -> &'static [Program] {
    programs::ALL
}

/// The program called `name`, if there is one.
pub fn program(name: &str) -> Option<&'static Program> {
    programs().iter().find(|p| p.name == name)
}

/// The launch metadata of program `name`, for the programs that declare it (the
/// `baws-nonbarrier`, `pro`, `motrr` and `kaws` sets).
pub fn workload_info(name: &str) -> Option<&'static info::WorkloadInfo> {
    programs::INFO.iter().copied().find(|i| i.program == name)
}

/// A named group of programs (`warpsim suite --set NAME`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SetInfo {
    pub name: &'static str,
    pub description: &'static str,
}

/// Every set, in the order `warpsim list workloads` shows them.
pub const SETS: &[SetInfo] = &[
    SetInfo { name: "basic", description: "feature tests of the functional core (one GPU feature each)" },
    SetInfo {
        name: "baws-barrier",
        description: "BAWS paper, Table 2: the 13 barrier-intensive programs (gtx480)",
    },
    SetInfo {
        name: "baws-nonbarrier",
        description: "BAWS paper, Figures 11 and 14: 14 non-barrier-intensive Rodinia-style programs (gtx480)",
    },
    SetInfo {
        name: "rodinia-extra",
        description: "Rodinia-style programs outside the BAWS sets (rod_bfs: exit-wait intensive, see docs/barrier-intensity.md)",
    },
    SetInfo {
        name: "pro",
        description: "PRO paper, Table II: its 11 applications, all 25 kernels at the paper's CTA counts (gtx480, 14 SMs)",
    },
    SetInfo {
        name: "motrr",
        description: "MOTRR paper, Table 2: its 9 benchmarks (warpsim_suite::motrr) (gtx480, 1024 threads/SM)",
    },
    SetInfo {
        name: "kaws",
        description: "KAWS paper, Table 2: its 9 benchmarks (warpsim_suite::kaws) (titanx-pascal)",
    },
    SetInfo {
        name: "tensor",
        description: "tensor-core programs: a WMMA GEMM and an mma.sync convolution (qv100, rtx2060, rtx3070; skipped in timing mode on presets without tensor units)",
    },
];

/// The programs of set `name` in registry order; `None` when no set has that name.
pub fn set(name: &str) -> Option<Vec<&'static Program>> {
    SETS.iter().find(|s| s.name == name)?;
    Some(
        programs()
            .iter()
            .filter(|p| p.sets.contains(&name))
            .collect(),
    )
}
