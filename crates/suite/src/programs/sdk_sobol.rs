//! sdk_sobol: Sobol quasi-random points, the CUDA SDK's SobolQRNG (the MOTRR paper's Table 2
//! "SQRNG"), written here from its description: direction vectors computed on the host
//! ([`crate::cpu::sobol`]), one kernel `sobolGray` with the SDK's launch shape (64-thread CTAs,
//! one row of CTAs per dimension, the x extent a power of two from the SDK's rule), each
//! thread walking its points by Gray-code steps.
//!
//! Checks: every point equals, bit for bit, the host's value computed directly from its Gray
//! code (a different evaluation from the kernel's incremental one) converted to f32 and
//! scaled by 2^-32 (exact); and the host's points are a Sobol sequence: the first 2^m of every
//! dimension fall one in each interval of width 2^-m, for the largest 2^m ≤ the point count.

use warpsim_core::device::{Arg, Device, Dim3};

use crate::cpu::sobol::{direction_vectors, point, stratified, BITS};
use crate::info::{KernelShape, WorkloadInfo};
use crate::program::{Ctx, Outcome, Size, SuiteError};
use crate::rng;

const NAME: &str = "sdk_sobol";
pub(crate) const PTX: &str = kernel_file!(sdk_sobol, "ptx");
const KERNEL: &str = "_Z9sobolGrayiPKjPf";
/// SOBOL_THREADS in the .cu (the SDK's threads per block).
const THREADS: u32 = 64;
/// Streaming multiprocessors of the GTX 480 preset: the SDK sizes the grid from the device's
/// SM count.
const SMS: u32 = 15;

/// Kernels, CTA shapes, barriers and sizes (`warpsim list workloads`).
pub(crate) const INFO: WorkloadInfo = WorkloadInfo {
    program: NAME,
    kernels: &[KernelShape::x(KERNEL, THREADS)],
    barriers: "1 after staging the dimension's 32 direction vectors",
    small: "8192 points x 100 dimensions (1 launch of 1 x 100 CTAs)",
    paper: "100000 points x 100 dimensions, the SDK's defaults (1 launch of 1 x 100 CTAs)",
};

/// The SDK's grid x extent: 4 CTAs per SM when there are fewer dimensions than that, else 1;
/// at most enough CTAs to give each thread a point; rounded up to a power of two (the kernel's
/// stride must be one).
fn grid_x(vectors: u32, dims: u32) -> u32 {
    let mut x = if dims < 4 * SMS { 4 * SMS } else { 1 };
    if x > vectors / THREADS {
        x = vectors.div_ceil(THREADS);
    }
    x.max(1).next_power_of_two()
}

pub(crate) fn run(dev: &mut Device, size: Size) -> Result<Outcome, SuiteError> {
    run_ptx(dev, size, PTX)
}

/// [`run`] with the kernels of `ptx` (the committed PTX, or a corrupted copy in the tests).
fn run_ptx(dev: &mut Device, size: Size, ptx: &str) -> Result<Outcome, SuiteError> {
    let (vectors, dims) = size.pick((8192u32, 100u32), (100_000, 100));
    let v = direction_vectors(dims as usize, &mut rng::rng(NAME, 0));
    let scale = f32::from_bits(0x2f80_0000); // 2^-32
    let mut want = Vec::with_capacity((vectors * dims) as usize);
    let mut ctx = Ctx::new(dev, NAME, ptx)?;
    let strata = 1u32 << (31 - vectors.leading_zeros()); // largest power of two <= vectors
    for d in 0..dims as usize {
        let xs: Vec<u32> = (0..vectors)
            .map(|i| point(&v[d * BITS..(d + 1) * BITS], i))
            .collect();
        if !stratified(&xs[..strata as usize]) {
            return Err(ctx.invalid(format!(
                "host reference: dimension {d} is not a Sobol sequence"
            )));
        }
        want.extend(xs.iter().map(|&x| x as f32 * scale));
    }

    let k = ctx.kernel(KERNEL)?;
    let dv = ctx.upload(&v)?;
    let dout = ctx.zeroed::<f32>(want.len())?;
    ctx.launch(
        k,
        Dim3::new(grid_x(vectors, dims), dims, 1),
        Dim3::new(THREADS, 1, 1),
        0,
        &[Arg::I32(vectors as i32), Arg::Ptr(dv), Arg::Ptr(dout)],
    )?;
    let got = ctx.download::<f32>(dout, want.len())?;
    ctx.exact("points", &got, &want)?;
    ctx.finish("")
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The SDK's rule: many dimensions give one CTA per dimension; few give 4 per SM, capped by
    /// the points and rounded up to a power of two.
    #[test]
    fn grid_rule() {
        assert_eq!(grid_x(100_000, 100), 1);
        assert_eq!(grid_x(100_000, 3), 64);
        assert_eq!(grid_x(1000, 3), 16);
        assert_eq!(grid_x(10, 3), 1);
    }

    /// The checks catch a kernel that computes slightly wrong values: an OR where the Gray-code step XORs.
    #[test]
    fn a_corrupted_kernel_fails_verification() {
        let ptx = crate::program::corrupted(PTX, "xor.b32", "or.b32");
        let err = run_ptx(&mut Device::new(), Size::Small, &ptx).unwrap_err();
        assert!(matches!(err, SuiteError::Mismatch { .. }), "{err}");
    }
}
