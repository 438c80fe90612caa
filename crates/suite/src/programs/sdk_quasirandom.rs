//! sdk_quasirandom: the CUDA SDK's quasirandomGenerator sample (the KAWS paper's Table 2
//! "QRG": 42 kernels of 128 CTAs), written here from its description: `quasirandomKernel`
//! (3 dimensions, 31-bit generator columns in `__constant__` memory, 128 x 3 threads per CTA,
//! grid-stride over the points) and `inverseCNDKernel` (Moro's inverse cumulative normal of
//! every point, the kernel sdk_montecarlo launches, `kernels/sdk_montecarlo/inverse_cnd.cuh`),
//! each launched 21 times on 128 CTAs as the sample does (a warm-up and 20 timed iterations,
//! every launch recomputing the same output). At small size each kernel runs 3 times.
//!
//! The SDK's generator is Niederreiter's base-2 sequence; ours takes the generator columns of
//! the first three dimensions of the suite's Sobol construction ([`crate::cpu::sobol`]), a
//! different digital sequence in base 2 with the same kernel work: point `pos` is the XOR of
//! the columns of the set bits of `pos` (its binary digits, as in the SDK, not a Gray code).
//!
//! Checks: every point bit for bit against the host's XOR, (x + 1) converted to f32 and scaled
//! by 2^-31 (exact); the host's first 2^m points of every dimension fall one in each interval
//! of width 2^-m (the net property of such a sequence); the normals against sdk_montecarlo's
//! f64 reference with its tolerance, from the device's own points.

use warpsim_core::device::{Arg, Device, Dim3};

use super::sdk_montecarlo::{moro_inv_cnd, NORMAL_ABS_TOL, NORMAL_REL_TOL};
use crate::cpu::sobol::{direction_vectors, stratified, BITS};
use crate::info::{KernelShape, WorkloadInfo};
use crate::program::{Ctx, Outcome, Size, SuiteError};
use crate::rng;

const NAME: &str = "sdk_quasirandom";
pub(crate) const PTX: &str = kernel_file!(sdk_quasirandom, "ptx");
const GENERATOR: &str = "_Z17quasirandomKernelPfjj";
const INVERSE_CND: &str = "_Z16inverseCNDKernelPfPKfi";
const SYMBOL: &str = "c_table";
/// QRNG_DIMENSIONS, QRNG_RESOLUTION, QRNG_THREADS in the .cu; MC_CND_THREADS in inverse_cnd.cuh.
const DIMS: usize = 3;
const RESOLUTION: usize = 31;
const THREADS: u32 = 128;
const CND_THREADS: u32 = 128;
/// The sample's fixed grid for both kernels.
const CTAS: u32 = 128;

/// Kernels, CTA shapes, barriers and sizes (`warpsim list workloads`).
pub(crate) const INFO: WorkloadInfo = WorkloadInfo {
    program: NAME,
    kernels: &[KernelShape::xy(GENERATOR, THREADS, DIMS as u32), KernelShape::x(INVERSE_CND, CND_THREADS)],
    barriers: "none",
    small: "16384 points x 3 dimensions, each kernel 3 times (6 launches of 128 CTAs)",
    paper: "131072 points x 3 dimensions (the SDK's 2^20 / 8), each kernel 21 times (42 launches of 128 CTAs)",
};

pub(crate) fn run(dev: &mut Device, size: Size) -> Result<Outcome, SuiteError> {
    run_ptx(dev, size, PTX)
}

/// [`run`] with the kernels of `ptx` (the committed PTX, or a corrupted copy in the tests).
fn run_ptx(dev: &mut Device, size: Size, ptx: &str) -> Result<Outcome, SuiteError> {
    let (n, repeats) = size.pick((16384usize, 3usize), (131072, 21));
    let v = direction_vectors(DIMS, &mut rng::rng(NAME, 0));
    // 31-bit columns: the top 31 bits of each 32-bit direction vector.
    let table: Vec<u32> = (0..DIMS)
        .flat_map(|d| (0..RESOLUTION).map(move |b| d * BITS + b))
        .map(|i| v[i] >> 1)
        .collect();
    let scale = f32::from_bits(0x3000_0000); // 2^-31
    let mut ctx = Ctx::new(dev, NAME, ptx)?;
    let strata = 1usize << (usize::BITS - 1 - n.leading_zeros()); // largest power of two <= n
    let mut want = Vec::with_capacity(DIMS * n);
    for columns in table.chunks_exact(RESOLUTION) {
        let xs: Vec<u32> = (0..n as u32)
            .map(|pos| {
                (0..RESOLUTION)
                    .filter(|&b| pos >> b & 1 == 1)
                    .fold(0, |x, b| x ^ columns[b])
            })
            .collect();
        let top: Vec<u32> = xs[..strata].iter().map(|&x| x << 1).collect();
        if !stratified(&top) {
            return Err(
                ctx.invalid("host reference: a dimension's first points are not one per interval")
            );
        }
        want.extend(xs.iter().map(|&x| (x + 1) as f32 * scale));
    }

    let (kgen, kcnd) = (ctx.kernel(GENERATOR)?, ctx.kernel(INVERSE_CND)?);
    let (addr, bytes) = ctx.dev.symbol(ctx.module, SYMBOL)?;
    if bytes != (DIMS * RESOLUTION * 4) as u64 {
        return Err(ctx.invalid(format!(
            "symbol `{SYMBOL}` is {bytes} bytes, expected {}",
            DIMS * RESOLUTION * 4
        )));
    }
    ctx.dev.write_slice(addr, &table)?;
    let dpoints = ctx.zeroed::<f32>(DIMS * n)?;
    let dnormal = ctx.zeroed::<f32>(DIMS * n)?;
    for _ in 0..repeats {
        let args = [Arg::Ptr(dpoints), Arg::U32(0), Arg::U32(n as u32)];
        ctx.launch(
            kgen,
            Dim3::new(CTAS, 1, 1),
            Dim3::new(THREADS, DIMS as u32, 1),
            0,
            &args,
        )?;
    }
    let points = ctx.download::<f32>(dpoints, DIMS * n)?;
    ctx.exact("points", &points, &want)?;
    for _ in 0..repeats {
        let args = [
            Arg::Ptr(dnormal),
            Arg::Ptr(dpoints),
            Arg::I32((DIMS * n) as i32),
        ];
        ctx.launch(
            kcnd,
            Dim3::new(CTAS, 1, 1),
            Dim3::new(CND_THREADS, 1, 1),
            0,
            &args,
        )?;
    }
    let normal = ctx.download::<f32>(dnormal, DIMS * n)?;
    let want_normal: Vec<f64> = points.iter().map(|&u| moro_inv_cnd(u as f64)).collect();
    ctx.close(
        "normal",
        &normal,
        &want_normal,
        NORMAL_REL_TOL,
        NORMAL_ABS_TOL,
    )?;
    ctx.finish("")
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The checks catch a generator that combines columns wrongly: the XOR turned into an OR.
    #[test]
    fn a_corrupted_kernel_fails_verification() {
        let ptx = crate::program::corrupted(PTX, "xor.b32", "or.b32");
        let err = run_ptx(&mut Device::new(), Size::Small, &ptx).unwrap_err();
        assert!(matches!(err, SuiteError::Mismatch { .. }), "{err}");
    }
}
