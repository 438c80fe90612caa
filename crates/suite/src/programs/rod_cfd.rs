//! rod_cfd: explicit finite-volume Euler solver on an unstructured grid (Rodinia `cfd`,
//! euler3d): 5 conserved variables per cell stored variable-major, 4 faces per cell with
//! neighbour indices (or wall / far-field codes) and inward face normals. Per iteration the
//! host copies the variables, computes every cell's local time step and then runs the
//! Runge-Kutta stages, each a flux launch (gathering the 4 neighbours) and a time-step launch.
//!
//! The mesh is generated: a jittered nx x ny grid of cells (far-field faces on the left and
//! right edges, walls at the bottom and top), numbered in 8 x 8 tiles taken in a shuffled
//! order with the cells of each tile shuffled too, so that a warp's neighbour gathers are
//! partly local and partly scattered, as on Rodinia's unstructured meshes. The flow starts
//! from a free stream perturbed by a few percent per cell.
//!
//! Every float operation in the kernels is an explicit round-to-nearest intrinsic (no
//! contraction; `sqrt` and division correctly rounded), so the reference repeats them in f32 in
//! the same order: the final variables, the old variables, the step factors and the last
//! stage's fluxes are compared bit for bit.

use rand::seq::SliceRandom;
use rand::Rng;
use rand_chacha::ChaCha8Rng;
use warpsim_core::device::{Arg, Device, Dim3};

use crate::info::{KernelShape, WorkloadInfo};
use crate::program::{div_up, Ctx, Outcome, Size, SuiteError};
use crate::rng;

const NAME: &str = "rod_cfd";
pub(crate) const PTX: &str = kernel_file!(rod_cfd, "ptx");

/// Kernels, CTA shapes, barriers and sizes (`warpsim list workloads`).
pub(crate) const INFO: WorkloadInfo = WorkloadInfo {
    program: NAME,
    kernels: &[
        KernelShape::x(COPY, T as u32),
        KernelShape::x(STEP_FACTOR, T as u32),
        KernelShape::x(FLUX, T as u32),
        KernelShape::x(TIME_STEP, T as u32),
    ],
    barriers: "none (one thread per cell; neighbours gathered from global memory)",
    small: "160 x 144 cell mesh, 23040 cells (120 CTAs), 1 iteration x 3 RK stages",
    paper: "312 x 312 cell mesh, 97344 cells (507 CTAs, Rodinia's fvcorr.domn.097K size), 2 iterations x 3 RK stages",
};
const COPY: &str = "_Z7cfdCopyiPKfPf";
const STEP_FACTOR: &str = "_Z13cfdStepFactoriPKfS0_Pf";
const FLUX: &str = "_Z7cfdFluxiPKiPKfS2_Pf";
const TIME_STEP: &str = "_Z11cfdTimeStepiiPKfPfS0_S0_";
/// CFD_T, CFD_RK, CFD_NVAR, CFD_NNB, CFD_WALL, CFD_FAR_FIELD, CFD_GAMMA and CFD_SMOOTHING in the .cu.
const T: usize = 192;
const RK: usize = 3;
const NVAR: usize = 5;
const NNB: usize = 4;
const WALL: i32 = -1;
const FAR_FIELD: i32 = -2;
const GAMMA: f32 = 1.4;
const SMOOTHING: f32 = 0.2;
/// Side of the square tiles the cells are numbered in.
const TILE: usize = 8;

/// A cell's conserved variables and the quantities derived from them (`cfdState`).
struct State {
    density: f32,
    de: f32,
    pressure: f32,
    speed_sqd: f32,
    momentum: [f32; 3],
    velocity: [f32; 3],
}

impl State {
    fn new(density: f32, momentum: [f32; 3], de: f32) -> State {
        let velocity = momentum.map(|m| m / density);
        let speed_sqd =
            velocity[0] * velocity[0] + velocity[1] * velocity[1] + velocity[2] * velocity[2];
        let pressure = (GAMMA - 1.0) * (de - (0.5 * density) * speed_sqd);
        State {
            density,
            de,
            pressure,
            speed_sqd,
            momentum,
            velocity,
        }
    }

    fn load(vars: &[f32], nelr: usize, i: usize) -> State {
        State::new(
            vars[i],
            [vars[nelr + i], vars[2 * nelr + i], vars[3 * nelr + i]],
            vars[4 * nelr + i],
        )
    }

    fn speed_of_sound(&self) -> f32 {
        ((GAMMA * self.pressure) / self.density).sqrt()
    }

    /// The flux contributions (`cfdFluxes`): momentum x, y, z and density * energy, each a
    /// vector over the 3 directions.
    fn fluxes(&self) -> [[f32; 3]; 4] {
        let (v, m, p) = (self.velocity, self.momentum, self.pressure);
        let dep = self.de + p;
        [
            [v[0] * m[0] + p, v[1] * m[0], v[2] * m[0]],
            [v[0] * m[1], v[1] * m[1] + p, v[2] * m[1]],
            [v[0] * m[2], v[1] * m[2], v[2] * m[2] + p],
            [v[0] * dep, v[1] * dep, v[2] * dep],
        ]
    }
}

/// The generated mesh in the kernels' layout.
struct Mesh {
    nelr: usize,
    /// `neighbours[j * nelr + i]`: the cell across face j of cell i, or WALL / FAR_FIELD.
    neighbours: Vec<i32>,
    /// `normals[(j * 3 + d) * nelr + i]`: component d of face j's normal, pointing into cell i.
    normals: Vec<f32>,
    /// Cell volumes.
    areas: Vec<f32>,
}

/// An nx x ny grid of cells with jittered face normals and volumes; faces west, east, south,
/// north in that order; far field on the west and east edges, walls on the south and north.
fn mesh(r: &mut ChaCha8Rng, nx: usize, ny: usize) -> Mesh {
    let nelr = nx * ny;
    // Numbering: tiles in a shuffled order, the cells of each tile shuffled.
    let (tx, ty) = (nx.div_ceil(TILE), ny.div_ceil(TILE));
    let mut tiles: Vec<usize> = (0..tx * ty).collect();
    tiles.shuffle(r);
    let mut id = vec![0usize; nelr];
    let mut next = 0;
    for t in tiles {
        let (x0, y0) = ((t % tx) * TILE, (t / tx) * TILE);
        let mut cells: Vec<usize> = (y0..(y0 + TILE).min(ny))
            .flat_map(|y| (x0..(x0 + TILE).min(nx)).map(move |x| y * nx + x))
            .collect();
        cells.shuffle(r);
        for c in cells {
            id[c] = next;
            next += 1;
        }
    }
    // Face normals of a unit-ish grid (face area ~0.5, cell volume ~1), jittered by up to 20%
    // in the face's direction and tilted a little in the other two.
    let mut jittered = |axis: usize| -> [f32; 3] {
        let mut n = [0.0f32; 3];
        for (d, c) in n.iter_mut().enumerate() {
            *c = if d == axis {
                0.5 * r.gen_range(0.8f32..1.2)
            } else {
                r.gen_range(-0.05f32..0.05)
            };
        }
        n
    };
    // Face between (x - 1, y) and (x, y), pointing +x; between (x, y - 1) and (x, y), pointing +y.
    let vertical: Vec<[f32; 3]> = (0..(nx + 1) * ny).map(|_| jittered(0)).collect();
    let horizontal: Vec<[f32; 3]> = (0..nx * (ny + 1)).map(|_| jittered(1)).collect();
    let mut neighbours = vec![0i32; NNB * nelr];
    let mut normals = vec![0.0f32; NNB * 3 * nelr];
    for y in 0..ny {
        for x in 0..nx {
            let i = id[y * nx + x];
            let faces = [
                (
                    if x > 0 {
                        id[y * nx + x - 1] as i32
                    } else {
                        FAR_FIELD
                    },
                    vertical[y * (nx + 1) + x],
                    1.0,
                ),
                (
                    if x + 1 < nx {
                        id[y * nx + x + 1] as i32
                    } else {
                        FAR_FIELD
                    },
                    vertical[y * (nx + 1) + x + 1],
                    -1.0,
                ),
                (
                    if y > 0 {
                        id[(y - 1) * nx + x] as i32
                    } else {
                        WALL
                    },
                    horizontal[y * nx + x],
                    1.0,
                ),
                (
                    if y + 1 < ny {
                        id[(y + 1) * nx + x] as i32
                    } else {
                        WALL
                    },
                    horizontal[(y + 1) * nx + x],
                    -1.0,
                ),
            ];
            for (j, (nb, n, sign)) in faces.into_iter().enumerate() {
                neighbours[j * nelr + i] = nb;
                for d in 0..3 {
                    normals[(j * 3 + d) * nelr + i] = sign * n[d];
                }
            }
        }
    }
    let areas = rng::f32s(r, nelr, 0.8, 1.2);
    Mesh {
        nelr,
        neighbours,
        normals,
        areas,
    }
}

/// The conserved variables of a flow state (density, pressure, velocity).
fn free_stream(density: f32, pressure: f32, velocity: [f32; 3]) -> [f32; NVAR] {
    let speed_sqd: f32 = velocity.iter().map(|v| v * v).sum();
    let de = density * (0.5 * speed_sqd) + pressure / (GAMMA - 1.0);
    [
        density,
        density * velocity[0],
        density * velocity[1],
        density * velocity[2],
        de,
    ]
}

/// cfdStepFactor on the host.
fn step_factors(vars: &[f32], areas: &[f32], nelr: usize) -> Vec<f32> {
    (0..nelr)
        .map(|i| {
            let s = State::load(vars, nelr, i);
            0.5 / (areas[i].sqrt() * (s.speed_sqd.sqrt() + s.speed_of_sound()))
        })
        .collect()
}

/// `acc += factor * (a + b)` (`cfdCentral`).
fn central(acc: &mut f32, factor: f32, a: f32, b: f32) {
    *acc += factor * (a + b);
}

/// cfdFlux on the host: `ff` is the free stream's state, `ffx` its flux contributions.
fn fluxes(mesh: &Mesh, vars: &[f32], ff: &State, ffx: &[[f32; 3]; 4]) -> Vec<f32> {
    let nelr = mesh.nelr;
    let mut out = vec![0.0f32; NVAR * nelr];
    for i in 0..nelr {
        let si = State::load(vars, nelr, i);
        let speed_i = si.speed_sqd.sqrt();
        let sound_i = si.speed_of_sound();
        let fi = si.fluxes();
        // density, momentum x/y/z, density * energy
        let mut f = [0.0f32; NVAR];
        for j in 0..NNB {
            let nb = mesh.neighbours[j * nelr + i];
            let n: [f32; 3] = std::array::from_fn(|d| mesh.normals[(j * 3 + d) * nelr + i]);
            if nb >= 0 {
                let sn = State::load(vars, nelr, nb as usize);
                let normal_len = (n[0] * n[0] + n[1] * n[1] + n[2] * n[2]).sqrt();
                let sound_nb = sn.speed_of_sound();
                let factor = (-normal_len * SMOOTHING) * 0.5;
                let factor = factor * (((speed_i + sn.speed_sqd.sqrt()) + sound_i) + sound_nb);
                f[0] += factor * (si.density - sn.density);
                f[4] += factor * (si.de - sn.de);
                for d in 0..3 {
                    f[1 + d] += factor * (si.momentum[d] - sn.momentum[d]);
                }
                let fnb = sn.fluxes();
                for d in 0..3 {
                    let factor = 0.5 * n[d];
                    central(&mut f[0], factor, sn.momentum[d], si.momentum[d]);
                    central(&mut f[4], factor, fnb[3][d], fi[3][d]);
                    for m in 0..3 {
                        central(&mut f[1 + m], factor, fnb[m][d], fi[m][d]);
                    }
                }
            } else if nb == WALL {
                for d in 0..3 {
                    f[1 + d] += n[d] * si.pressure;
                }
            } else if nb == FAR_FIELD {
                for d in 0..3 {
                    let factor = 0.5 * n[d];
                    central(&mut f[0], factor, ff.momentum[d], si.momentum[d]);
                    central(&mut f[4], factor, ffx[3][d], fi[3][d]);
                    for m in 0..3 {
                        central(&mut f[1 + m], factor, ffx[m][d], fi[m][d]);
                    }
                }
            }
        }
        for (v, x) in f.into_iter().enumerate() {
            out[v * nelr + i] = x;
        }
    }
    out
}

pub(crate) fn run(dev: &mut Device, size: Size) -> Result<Outcome, SuiteError> {
    // Small: 160 x 144 = 23040 cells (120 CTAs: 4 fills of the flux kernel at 2 CTAs/SM, one of
    // the light kernels at 7-8), 1 iteration (the flux kernel's ~660 warp instructions per warp
    // make a second one exceed the small budget of 2M warp instructions). Paper: 312 x 312 =
    // 97344 cells (507 CTAs), the size of Rodinia's fvcorr.domn.097K mesh (97046 cells, padded
    // to 97152), 2 iterations.
    let (nx, ny, iters) = size.pick((160usize, 144usize, 1usize), (312, 312, 2));
    let mut r = rng::rng(NAME, 0);
    let mesh = mesh(&mut r, nx, ny);
    let nelr = mesh.nelr;
    // The free stream (Mach 0.8, 2 degrees angle of attack) and the initial flow: the free
    // stream perturbed by up to 5% per cell.
    let (ff_density, ff_pressure, mach, angle) = (1.4f32, 1.0f32, 0.8f32, 2.0f32.to_radians());
    let ff_speed = mach * (GAMMA * ff_pressure / ff_density).sqrt();
    let ff_velocity = [ff_speed * angle.cos(), ff_speed * angle.sin(), 0.0];
    let ff_var = free_stream(ff_density, ff_pressure, ff_velocity);
    let ff = State::new(ff_var[0], [ff_var[1], ff_var[2], ff_var[3]], ff_var[4]);
    let ffx = ff.fluxes();
    let mut vars = vec![0.0f32; NVAR * nelr];
    for i in 0..nelr {
        let mut jitter = || r.gen_range(-0.05f32..0.05);
        let density = ff_density * (1.0 + jitter());
        let pressure = ff_pressure * (1.0 + jitter());
        let velocity = [
            ff_velocity[0] + jitter() * ff_speed,
            ff_velocity[1] + jitter() * ff_speed,
            jitter() * ff_speed,
        ];
        for (v, x) in free_stream(density, pressure, velocity)
            .into_iter()
            .enumerate()
        {
            vars[v * nelr + i] = x;
        }
    }

    let mut ctx = Ctx::new(dev, NAME, PTX)?;
    // The kernels have no bounds checks (Rodinia pads the cell count to its block length).
    if !nelr.is_multiple_of(T) {
        return Err(ctx.invalid(format!("{nelr} cells is not a multiple of {T}")));
    }
    let (kc, ks, kf, kt) = (
        ctx.kernel(COPY)?,
        ctx.kernel(STEP_FACTOR)?,
        ctx.kernel(FLUX)?,
        ctx.kernel(TIME_STEP)?,
    );
    for (symbol, data) in [
        ("c_ff_variable", ff_var.to_vec()),
        ("c_ff_flux", ffx.concat()),
    ] {
        let (addr, bytes) = ctx.dev.symbol(ctx.module, symbol)?;
        if bytes != 4 * data.len() as u64 {
            return Err(ctx.invalid(format!(
                "symbol `{symbol}` is {bytes} bytes, expected {}",
                4 * data.len()
            )));
        }
        ctx.dev.write_slice(addr, &data)?;
    }
    let dvars = ctx.upload(&vars)?;
    let dold = ctx.zeroed::<f32>(NVAR * nelr)?;
    let dnb = ctx.upload(&mesh.neighbours)?;
    let dnormals = ctx.upload(&mesh.normals)?;
    let dareas = ctx.upload(&mesh.areas)?;
    let dsf = ctx.zeroed::<f32>(nelr)?;
    let dflux = ctx.zeroed::<f32>(NVAR * nelr)?;
    let (grid, block) = (Dim3::new(div_up(nelr, T), 1, 1), Dim3::new(T as u32, 1, 1));
    let n = nelr as i32;
    // Rodinia's host loop, launched and repeated on the host.
    let (mut old, mut sf, mut flux) = (Vec::new(), Vec::new(), Vec::new());
    for _ in 0..iters {
        ctx.launch(
            kc,
            grid,
            block,
            0,
            &[Arg::I32(n), Arg::Ptr(dvars), Arg::Ptr(dold)],
        )?;
        old = vars.clone();
        ctx.launch(
            ks,
            grid,
            block,
            0,
            &[
                Arg::I32(n),
                Arg::Ptr(dvars),
                Arg::Ptr(dareas),
                Arg::Ptr(dsf),
            ],
        )?;
        sf = step_factors(&vars, &mesh.areas, nelr);
        for j in 0..RK {
            ctx.launch(
                kf,
                grid,
                block,
                0,
                &[
                    Arg::I32(n),
                    Arg::Ptr(dnb),
                    Arg::Ptr(dnormals),
                    Arg::Ptr(dvars),
                    Arg::Ptr(dflux),
                ],
            )?;
            flux = fluxes(&mesh, &vars, &ff, &ffx);
            ctx.launch(
                kt,
                grid,
                block,
                0,
                &[
                    Arg::I32(j as i32),
                    Arg::I32(n),
                    Arg::Ptr(dold),
                    Arg::Ptr(dvars),
                    Arg::Ptr(dsf),
                    Arg::Ptr(dflux),
                ],
            )?;
            let divisor = (RK + 1 - j) as f32;
            for (i, &step) in sf.iter().enumerate() {
                let factor = step / divisor;
                for v in 0..NVAR {
                    let k = v * nelr + i;
                    vars[k] = old[k] + factor * flux[k];
                }
            }
        }
    }
    if vars.iter().any(|v| !v.is_finite()) {
        return Err(ctx.invalid("the reference flow is not finite"));
    }
    for (what, p, want) in [
        ("variables", dvars, &vars),
        ("old variables (last iteration)", dold, &old),
        ("fluxes (last stage)", dflux, &flux),
        ("step factors (last iteration)", dsf, &sf),
    ] {
        let got = ctx.download::<f32>(p, want.len())?;
        ctx.exact(what, &got, want)?;
    }
    ctx.finish("")
}
