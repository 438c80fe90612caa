//! ispass_bfs: the PRO paper's Table II "BFS" (GPGPU-Sim's ISPASS-2009 BFS, 256 CTAs): the same
//! two-kernel, mask-based level step as `rod_bfs` (the ISPASS and the Rodinia BFS are both
//! Harish and Narayanan's), on ISPASS's 65536-node graph: 65536 / 256 = 256 CTAs per launch. The algorithm,
//! its kernels and its checks are written once, in `rod_bfs` (`kernels/rod_bfs/`); this
//! program only gives them its own sizes and seed (so its graph differs from rod_bfs's).

use warpsim_core::device::Device;

use super::rod_bfs::{bfs, EXPAND, THREADS, UPDATE};
use crate::info::{KernelShape, WorkloadInfo};
use crate::program::{Outcome, Size, SuiteError};

const NAME: &str = "ispass_bfs";
pub(crate) const PTX: &str = super::rod_bfs::PTX;

/// Kernels, CTA shapes, barriers and sizes (`warpsim list workloads`).
pub(crate) const INFO: WorkloadInfo = WorkloadInfo {
    program: NAME,
    kernels: &[
        KernelShape::x(EXPAND, THREADS as u32),
        KernelShape::x(UPDATE, THREADS as u32),
    ],
    barriers: "none (the launch boundary separates the two phases of a level)",
    small: "32768 nodes, out-degree 1..7 (128 CTAs per launch)",
    paper: "65536 nodes (256 CTAs per launch: Table II)",
};

pub(crate) fn run(dev: &mut Device, size: Size) -> Result<Outcome, SuiteError> {
    bfs(dev, NAME, size.pick(32768, 65536))
}
