//! rod_streamcluster_kaws: the KAWS paper's Table 2 "SC" (140 kernels of 128 CTAs): Rodinia's
//! streamcluster pgain search over 140 candidate centres on a 65536-point chunk (512-thread
//! CTAs: 128 per launch). Rodinia's launch count depends on its data; rod_streamcluster's
//! paper size tries 16 candidates for the BAWS set. The algorithm, kernel and checks are
//! written once, in `rod_streamcluster`; this program gives them its own sizes and seed.

use warpsim_core::device::Device;

use super::rod_streamcluster::{streamcluster, PGAIN, T};
use crate::info::{KernelShape, WorkloadInfo};
use crate::program::{Outcome, Size, SuiteError};

const NAME: &str = "rod_streamcluster_kaws";
pub(crate) const PTX: &str = super::rod_streamcluster::PTX;

/// Kernels, CTA shapes, barriers and sizes (`warpsim list workloads`).
pub(crate) const INFO: WorkloadInfo = WorkloadInfo {
    program: NAME,
    kernels: &[KernelShape::x(PGAIN, T as u32)],
    barriers: "none (per-point work rows, reduced on the host)",
    small: "16384 points (32 CTAs), 16 dimensions, 10 candidate centres",
    paper: "65536 points (128 CTAs), 64 dimensions, 140 candidates (Table 2's 140 launches)",
};

pub(crate) fn run(dev: &mut Device, size: Size) -> Result<Outcome, SuiteError> {
    let (n, dim, candidates) = size.pick((16384, 16, 10), (65536, 64, 140));
    streamcluster(dev, NAME, n, dim, candidates)
}
