//! The MOTRR paper's Table 2 (paper 004): its nine benchmarks, run on a GTX 480 limited to
//! 1024 threads per SM (Table 1), and the program of ours that stands for each (set `motrr`).
//!
//! Table 2 names each benchmark, its suite and a one-line description, nothing about sizes or
//! launches; [`Benchmark::note`] says how ours corresponds. `tests/motrr.rs` checks that every
//! row's program exists and is in set `motrr`, and that the set holds exactly these programs.

/// One row of Table 2.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Benchmark {
    /// The benchmark, as Table 2 names it.
    pub name: &'static str,
    /// The suite Table 2 cites it from.
    pub suite: &'static str,
    /// Table 2's description.
    pub description: &'static str,
    /// Our program.
    pub ours: &'static str,
    /// How ours corresponds.
    pub note: &'static str,
}

const fn row(
    name: &'static str,
    suite: &'static str,
    description: &'static str,
    ours: &'static str,
    note: &'static str,
) -> Benchmark {
    Benchmark {
        name,
        suite,
        description,
        ours,
        note,
    }
}

/// Table 2 in the paper's order.
pub const MOTRR_TABLE2: &[Benchmark] = &[
    row(
        "LPS",
        "ISPASS",
        "Laplace discretization on a 3D structured",
        "ispass_lps",
        "written for the PRO set: GPU_laplace3d, 32x4 CTAs marching in z (100^3 grid at paper size)",
    ),
    row(
        "STC",
        "Parboil",
        "Jacobi stencil operation on a 3-D grid",
        "parboil_stencil",
        "Parboil 2.5's block2D_hybrid_coarsen_x shape: 32x4 CTAs, 2 points per thread in x, marching in z; \
         128x128x32 (Parboil's small input), 10 sweeps (Parboil runs 100)",
    ),
    row(
        "ATAX",
        "PolyBench",
        "Matrix transpose and vector multiplication",
        "poly_atax",
        "PolyBench-GPU's two kernels, one thread per row then per column, 256-thread CTAs; 4096x4096",
    ),
    row(
        "MVT",
        "PolyBench",
        "Matrix-vector product and transpose",
        "poly_mvt",
        "PolyBench-GPU's two kernels, one thread per output, 256-thread CTAs; 4096x4096",
    ),
    row(
        "BICG",
        "PolyBench",
        "BiCG sub kernel of BiCGStab linear solver",
        "poly_bicg",
        "PolyBench-GPU's two kernels, one thread per output, 256-thread CTAs; 4096x4096",
    ),
    row(
        "SQRNG",
        "CUDA SDK",
        "Sobol sequence generator",
        "sdk_sobol",
        "SobolQRNG's kernel and grid rule (64-thread CTAs, one row per dimension); 100000 points x 100 \
         dimensions; direction numbers from our own primitive-polynomial search, not Joe-Kuo's table",
    ),
    row(
        "MC",
        "CUDA SDK",
        "evaluation for fair call price using Monte-Carlo",
        "sdk_montecarlo",
        "written for the PRO set: inverseCND normals, then one CTA per option",
    ),
    row(
        "PF",
        "Rodinia",
        "finding a path on a 2-D grid",
        "rod_pathfinder",
        "Rodinia's pathfinder pyramid (BAWS non-barrier set): 256-thread CTAs, 100000 columns",
    ),
    row(
        "BFS",
        "ISPASS",
        "Breath first search algorithm",
        "rod_bfs",
        "GPGPU-Sim's ISPASS BFS is Rodinia's two-kernel level-synchronous algorithm, which rod_bfs is \
         (256-thread CTAs, 2^20 nodes at paper size)",
    ),
];
