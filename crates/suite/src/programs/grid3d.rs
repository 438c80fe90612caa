//! grid3d: 3-D grids of 3-D blocks: a volume axpby and a per-voxel tag of the launch indices.

use warpsim_core::device::{Arg, Device, Dim3};

use crate::program::{div_up, Ctx, Outcome, Size, SuiteError};
use crate::rng;

const NAME: &str = "grid3d";
pub(crate) const PTX: &str = kernel_file!(grid3d, "ptx");
const AXPBY: &str = "_Z11volumeAxpbyPfPKfS1_ffiii";
const TAG: &str = "_Z9volumeTagPjiii";

pub(crate) fn run(dev: &mut Device, size: Size) -> Result<Outcome, SuiteError> {
    // No dimension a multiple of its block dimension.
    let ((nx, ny, nz), (bx, by, bz)) = size.pick(
        ((37usize, 21usize, 11usize), (8u32, 4u32, 4u32)),
        ((130, 90, 61), (16, 8, 4)),
    );
    let voxels = nx * ny * nz;
    let (alpha, beta) = (1.5f32, -0.75f32);
    let mut r = rng::rng(NAME, 0);
    let a = rng::f32s(&mut r, voxels, -1.0, 1.0);
    let b = rng::f32s(&mut r, voxels, -1.0, 1.0);
    let grid = Dim3::new(
        div_up(nx, bx as usize),
        div_up(ny, by as usize),
        div_up(nz, bz as usize),
    );
    let (gx, gy) = (
        div_up(nx, bx as usize) as usize,
        div_up(ny, by as usize) as usize,
    );

    // alpha·a + beta·b: at most two roundings per product term and one for the sum (or one
    // fewer with fma), so |got - exact| <= 2u(1+u)·(|alpha·a| + |beta·b|) <= 2.01u·(...).
    let u = f32::EPSILON as f64 / 2.0;
    let mut e_out = vec![0f64; voxels];
    let mut bound = vec![0f64; voxels];
    let mut e_tag = vec![0u32; voxels];
    let (bxu, byu, bzu) = (bx as usize, by as usize, bz as usize);
    for z in 0..nz {
        for y in 0..ny {
            for x in 0..nx {
                let i = (z * ny + y) * nx + x;
                let (p, q) = (alpha as f64 * a[i] as f64, beta as f64 * b[i] as f64);
                e_out[i] = p + q;
                bound[i] = 2.01 * u * (p.abs() + q.abs());
                let block = ((z / bzu) * gy + y / byu) * gx + x / bxu;
                let thread = ((z % bzu) * byu + y % byu) * bxu + x % bxu;
                e_tag[i] = (block * bxu * byu * bzu + thread) as u32;
            }
        }
    }

    let mut ctx = Ctx::new(dev, NAME, PTX)?;
    let k_axpby = ctx.kernel(AXPBY)?;
    let k_tag = ctx.kernel(TAG)?;
    let da = ctx.upload(&a)?;
    let db = ctx.upload(&b)?;
    let dout = ctx.zeroed::<f32>(voxels)?;
    let dtag = ctx.zeroed::<u32>(voxels)?;
    let block = Dim3::new(bx, by, bz);
    let dims = || {
        [
            Arg::I32(nx as i32),
            Arg::I32(ny as i32),
            Arg::I32(nz as i32),
        ]
    };
    let [dx, dy, dz] = dims();
    ctx.launch(
        k_axpby,
        grid,
        block,
        0,
        &[
            Arg::Ptr(dout),
            Arg::Ptr(da),
            Arg::Ptr(db),
            Arg::F32(alpha),
            Arg::F32(beta),
            dx,
            dy,
            dz,
        ],
    )?;
    let [dx, dy, dz] = dims();
    ctx.launch(k_tag, grid, block, 0, &[Arg::Ptr(dtag), dx, dy, dz])?;

    let got = ctx.download::<f32>(dout, voxels)?;
    ctx.bounded("out", &got, &e_out, &bound)?;
    let got = ctx.download::<u32>(dtag, voxels)?;
    ctx.exact("tag", &got, &e_tag)?;
    ctx.finish("")
}
