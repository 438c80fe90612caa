//! rod_hotspot_kaws: the KAWS paper's Table 2 "HS" (1 kernel of 1849 CTAs): Rodinia's hotspot
//! as its default command runs it (512 x 512 grid, pyramid height 2, 2 iterations: one
//! launch of 43 x 43 CTAs). rod_hotspot's paper size runs 20 steps (10 launches) for the BAWS
//! and PRO sets; the algorithm, kernel and checks are written once, in `rod_hotspot`; this
//! program gives them its own step count and seed.

use warpsim_core::device::Device;

use super::rod_hotspot::{hotspot, KERNEL};
use crate::info::{KernelShape, WorkloadInfo};
use crate::program::{Outcome, Size, SuiteError};

const NAME: &str = "rod_hotspot_kaws";
pub(crate) const PTX: &str = super::rod_hotspot::PTX;

/// Kernels, CTA shapes, barriers and sizes (`warpsim list workloads`).
pub(crate) const INFO: WorkloadInfo = WorkloadInfo {
    program: NAME,
    kernels: &[KernelShape::xy(KERNEL, 16, 16)],
    barriers: "1 after loading the tile, then 2 per time step but 1 after the last (2 steps per launch: 4)",
    small: "192 x 192 grid, 2 time steps (1 launch of 256 CTAs)",
    paper: "512 x 512 grid, 2 time steps, Rodinia's default command (1 launch of 1849 CTAs)",
};

pub(crate) fn run(dev: &mut Device, size: Size) -> Result<Outcome, SuiteError> {
    let (rows, cols) = size.pick((192, 192), (512, 512));
    hotspot(dev, NAME, rows, cols, 2)
}
