//! tc_gemm: C = A·B + C on the tensor cores with the WMMA C++ API (`wmma::load_matrix_sync`
//! from shared-memory tiles, `mma_sync`, `store_matrix_sync`): f16 A and B, f32 C, 32×32 tiles
//! per 4-warp CTA. Bit-exact against the CPU's sequential f32 sum (`cpu::tensor`).

use warpsim_core::device::{Arg, Device, Dim3};

use crate::cpu::tensor::{dot, f16s};
use crate::program::{Ctx, Outcome, Size, SuiteError};
use crate::rng;

const NAME: &str = "tc_gemm";
pub(crate) const PTX: &str = kernel_file!(tc_gemm, "ptx");
const KERNEL: &str = "_Z8wmmaGemmPfPK6__halfS2_iii";
/// Must match TILE and KT in the .cu.
const TILE: usize = 32;
const KT: usize = 16;

pub(crate) fn run(dev: &mut Device, size: Size) -> Result<Outcome, SuiteError> {
    // Non-square: M and N multiples of the tile, K of the K step.
    let (m, n, k) = size.pick((64usize, 96usize, 48usize), (256, 256, 256));
    debug_assert!(m % TILE == 0 && n % TILE == 0 && k % KT == 0);
    let mut r = rng::rng(NAME, 0);
    let a = f16s(&mut r, m * k);
    let b = f16s(&mut r, k * n);
    let c = rng::f32s(&mut r, m * n, -4.0, 4.0);
    let expected: Vec<f32> = (0..m * n)
        .map(|e| {
            let (i, j) = (e / n, e % n);
            dot(c[e], (0..k).map(|p| (a[i * k + p], b[p * n + j])))
        })
        .collect();

    let mut ctx = Ctx::new(dev, NAME, PTX)?;
    let kern = ctx.kernel(KERNEL)?;
    let da = ctx.upload(&a)?;
    let db = ctx.upload(&b)?;
    let dc = ctx.upload(&c)?;
    ctx.launch(
        kern,
        Dim3::new((n / TILE) as u32, (m / TILE) as u32, 1),
        Dim3::new(128, 1, 1),
        0,
        &[
            Arg::Ptr(dc),
            Arg::Ptr(da),
            Arg::Ptr(db),
            Arg::I32(m as i32),
            Arg::I32(n as i32),
            Arg::I32(k as i32),
        ],
    )?;
    let got = ctx.download::<f32>(dc, m * n)?;
    let bits = |v: &[f32]| v.iter().map(|x| x.to_bits()).collect::<Vec<u32>>();
    ctx.exact("C (f32 bits)", &bits(&got), &bits(&expected))?;
    ctx.finish("")
}
