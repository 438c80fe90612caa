//! One driver per built-in program.

use crate::info::WorkloadInfo;
use crate::program::Program;

/// The committed file `kernels/<name>/<name>.<ext>`.
macro_rules! kernel_file {
    ($name:ident, $ext:literal) => {
        include_str!(concat!(
            "../../kernels/",
            stringify!($name),
            "/",
            stringify!($name),
            ".",
            $ext
        ))
    };
}

mod baws_bt;
mod baws_fwt;
mod baws_histo;
mod baws_mg;
mod baws_mm;
mod baws_ms;
mod baws_octp;
mod baws_pvc;
mod baws_pvr;
mod baws_sp;
mod baws_srad2;
mod baws_ss;
mod baws_stn;
mod bfs;
mod bitonic_sort;
mod conv_const;
mod dnn_resnet;
mod dyn_shared;
mod fp64_math;
mod grid3d;
mod histogram;
mod ispass_aes;
mod ispass_bfs;
mod ispass_cp;
mod ispass_lps;
mod ispass_nn;
mod ispass_ray;
mod ispass_sto;
mod local_array;
mod matmul;
mod parboil_mriq;
mod parboil_stencil;
mod poly_3dconv;
mod poly_3mm;
mod poly_atax;
mod poly_bicg;
mod poly_mvt;
mod rod_backprop;
mod rod_bfs;
mod rod_cfd;
mod rod_dwt2d;
mod rod_gaussian;
mod rod_heartwall;
mod rod_hotspot;
mod rod_hotspot_kaws;
mod rod_kmeans;
mod rod_lud;
mod rod_nn;
mod rod_nw;
mod rod_particlefilter;
mod rod_pathfinder;
mod rod_srad;
mod rod_streamcluster;
mod rod_streamcluster_kaws;
mod scalar_prod;
mod sdk_convsep;
mod sdk_histogram;
mod sdk_montecarlo;
mod sdk_quasirandom;
mod sdk_scalarprod;
mod sdk_sobol;
mod stencil2d;
mod tc_conv;
mod tc_gemm;
mod warp_reduce;

macro_rules! program {
    ($name:ident, $sets:expr, $summary:expr) => {
        program!($name, $sets, $summary, kernels: $name)
    };
    // A program that runs another program's kernels (`kernels/<dir>/`) at its own sizes.
    ($name:ident, $sets:expr, $summary:expr, kernels: $dir:ident) => {
        program!(@ $name, $sets, $summary, $dir, false)
    };
    // A program whose kernels use the tensor cores (`Program::tensor_cores`).
    ($name:ident, $sets:expr, $summary:expr, tensor_cores) => {
        program!(@ $name, $sets, $summary, $name, true)
    };
    (@ $name:ident, $sets:expr, $summary:expr, $dir:ident, $tensor:expr) => {
        Program {
            name: stringify!($name),
            sets: $sets,
            summary: $summary,
            ptx: $name::PTX,
            ptxas: kernel_file!($dir, "ptxas"),
            run: $name::run,
            tensor_cores: $tensor,
        }
    };
}

const BASIC: &[&str] = &["basic"];
const BAWS_BARRIER: &[&str] = &["baws-barrier"];
const BAWS_NONBARRIER: &[&str] = &["baws-nonbarrier"];
const RODINIA_EXTRA_MOTRR: &[&str] = &["rodinia-extra", "motrr"];
const PRO: &[&str] = &["pro"];
const PRO_MOTRR: &[&str] = &["pro", "motrr"];
const BAWS_BARRIER_PRO_KAWS: &[&str] = &["baws-barrier", "pro", "kaws"];
const BAWS_NONBARRIER_PRO: &[&str] = &["baws-nonbarrier", "pro"];
const BAWS_NONBARRIER_PRO_MOTRR_KAWS: &[&str] = &["baws-nonbarrier", "pro", "motrr", "kaws"];
const MOTRR: &[&str] = &["motrr"];
const KAWS: &[&str] = &["kaws"];
const TENSOR: &[&str] = &["tensor"];

pub(crate) static ALL: &[Program] = &[
    program!(scalar_prod, BASIC, "dot products of vector pairs, one CTA per pair; shared-memory tree reduction"),
    program!(matmul, BASIC, "tiled SGEMM with 16x16 shared-memory tiles and two barriers per tile"),
    program!(histogram, BASIC, "256-bin byte histogram: shared-memory atomics merged with global atomics"),
    program!(bitonic_sort, BASIC, "bitonic sort of 1024-element key/value blocks in shared memory"),
    program!(stencil2d, BASIC, "iterated 5-point Jacobi stencil, ping-pong buffers, one launch per sweep"),
    program!(bfs, BASIC, "level-synchronous BFS on a random CSR graph; host loop on a device flag"),
    program!(warp_reduce, BASIC, "warp shuffles (down/xor/up/idx), ballot+popc, any/all votes"),
    program!(fp64_math, BASIC, "fp64 libdevice sin/cos/exp/log/sqrt/pow (incl. slow paths), fp32 __expf/rsqrtf"),
    program!(local_array, BASIC, "per-thread local arrays: __noinline__ sort through a pointer, data-indexed counts"),
    program!(conv_const, BASIC, "separable convolution with the filter in __constant__ memory set via its symbol"),
    program!(dyn_shared, BASIC, "extern __shared__ sized at launch: block reverse and a 3-launch scan; printf"),
    program!(grid3d, BASIC, "3-D grids of 3-D blocks: volume axpby and an index tag per voxel"),
    // The BAWS paper's barrier-intensive set (Table 2); crate::occupancy::BAWS_TABLE2.
    program!(baws_sp, BAWS_BARRIER, "BAWS SP: scalar products, 512-thread CTAs, tree reduction with a barrier per level"),
    program!(baws_ms, BAWS_BARRIER, "BAWS MS: stable merge sort, shared-memory merge steps per tile, then merge-path passes staged in shared memory"),
    program!(baws_fwt, BAWS_BARRIER, "BAWS FWT: dyadic convolution by fast Walsh transforms, radix-4 shared-memory stages"),
    program!(baws_mm, BAWS_BARRIER, "BAWS MM: tiled SGEMM, 16x16 tiles, two barriers per tile"),
    program!(baws_stn, BAWS_BARRIER, "BAWS STN: persistent Jacobi stencil with a grid-wide atomic barrier between sweeps"),
    program!(baws_octp, BAWS_BARRIER, "BAWS OCTP: level-by-level octree partitioning with shared-memory octant counters"),
    program!(baws_bt, BAWS_BARRIER_PRO_KAWS, "BAWS BT: B+tree findK and findRangeK, one CTA per query, a barrier pair per level"),
    program!(baws_pvc, BAWS_BARRIER, "BAWS PVC: MapReduce page view count, shared-memory hash combine, compaction scan"),
    program!(baws_pvr, BAWS_BARRIER, "BAWS PVR: MapReduce page view rank, shared-memory hash combine, 2 urls ranked per CTA by a shared tree"),
    program!(baws_ss, BAWS_BARRIER, "BAWS SS: MapReduce document similarity, a CTA per query and candidate slice, best by shared tree"),
    program!(baws_mg, BAWS_BARRIER, "BAWS MG: MRI gridding, binned samples staged in shared memory, data-dependent work"),
    program!(baws_histo, BAWS_BARRIER, "BAWS HISTO: 4096-bin histogram, shared-memory atomic sub-histograms, tree merge of 8 bins per CTA"),
    program!(baws_srad2, BAWS_BARRIER, "BAWS SRAD2: speckle-reducing anisotropic diffusion v2, ROI reduction + two tiled kernels"),
    // The BAWS paper's non-barrier-intensive set (Figures 11 and 14): Rodinia-style programs.
    program!(rod_lud, BAWS_NONBARRIER, "Rodinia lud: blocked LU, diagonal / perimeter / trailing-update kernels"),
    program!(rod_hotspot, BAWS_NONBARRIER_PRO, "Rodinia hotspot: thermal stencil, 2 steps per launch in ghost-zone tiles"),
    program!(rod_backprop, BAWS_NONBARRIER_PRO, "Rodinia backprop: layer-forward tree sums and weight adjustment"),
    program!(rod_particlefilter, BAWS_NONBARRIER, "Rodinia particlefilter: likelihood, sums, CDF scan, resampling"),
    program!(rod_heartwall, BAWS_NONBARRIER, "Rodinia heartwall: template SAD tracking, one CTA per point per frame"),
    program!(rod_dwt2d, BAWS_NONBARRIER, "Rodinia dwt2d: 3-level 2-D CDF 5/3 lifting DWT, row and column kernels"),
    // Not in baws-nonbarrier: its warps wait ~20% of their cycles at CTA exits (frontier
    // threads are few per CTA), which the paper's definition counts; the paper does not name it.
    program!(rod_bfs, RODINIA_EXTRA_MOTRR, "Rodinia bfs: expand + update mask kernels per level, host loop on a flag"),
    program!(rod_cfd, BAWS_NONBARRIER, "Rodinia cfd: unstructured-grid Euler solver, step factor + RK flux / time-step kernels"),
    program!(rod_pathfinder, BAWS_NONBARRIER_PRO_MOTRR_KAWS, "Rodinia pathfinder: min-cost path DP, 8 rows per launch"),
    program!(rod_nw, BAWS_NONBARRIER, "Rodinia nw: Needleman-Wunsch, one launch per block anti-diagonal"),
    program!(rod_kmeans, BAWS_NONBARRIER, "Rodinia kmeans: assignment, centroids in __constant__, host loop"),
    program!(rod_nn, BAWS_NONBARRIER, "Rodinia nn: k nearest records, one distance launch, selection on the host"),
    program!(rod_gaussian, BAWS_NONBARRIER, "Rodinia gaussian: elimination, Fan1 multipliers + Fan2 update per pivot"),
    program!(rod_srad, BAWS_NONBARRIER, "Rodinia srad v1: prepare, multi-launch reduction, coefficient, update"),
    program!(rod_streamcluster, BAWS_NONBARRIER, "Rodinia streamcluster: pgain with per-point work rows, decision and apply on the host"),
    // The PRO paper's Table II (crate::pro::PRO_TABLE2): the programs not already above.
    program!(ispass_aes, PRO, "PRO AES: AES-128 ECB encryption with shared-memory T-tables, one block per thread"),
    // Rodinia's bfs kernels on ISPASS's 65536-node graph (256 CTAs); written once in rod_bfs.
    program!(ispass_bfs, PRO, "PRO BFS: rod_bfs's expand + update level step on a 65536-node graph", kernels: rod_bfs),
    program!(ispass_cp, PRO, "PRO CP: Coulombic potential on a lattice slice, atoms in __constant__, 8 points per thread"),
    program!(ispass_lps, PRO_MOTRR, "PRO LPS: 3-D Laplace Jacobi steps, 32x4 CTAs marching in z over a shared plane tile"),
    program!(ispass_nn, PRO, "PRO NN: convolutional digit recogniser's forward pass, one kernel per layer, grids of (neurons, images)"),
    program!(ispass_ray, PRO, "PRO RAY: ray tracer, one thread per pixel, spheres in __constant__ on a checkered plane, shadows, 3 reflections"),
    program!(ispass_sto, PRO, "PRO STO: SHA-1 of overlapping 56-byte windows, one window per thread"),
    program!(sdk_montecarlo, PRO_MOTRR, "PRO MonteCarlo: inverse-CND normals, then one CTA per option with shared-memory sum trees"),
    program!(sdk_convsep, PRO, "PRO convolutionSeparable: SDK-shaped row and column passes, halo tiles in shared memory, taps in __constant__"),
    program!(sdk_histogram, PRO, "PRO histogram: SDK-shaped 64-bin (per-thread u8 counters) and 256-bin (per-warp atomics) histograms + merge kernels"),
    program!(sdk_scalarprod, PRO, "PRO scalarProd: SDK-shaped dot products, 256-thread CTAs over 1024 shared accumulators, 10-level tree"),
    // The MOTRR paper's Table 2 (crate::motrr::MOTRR_TABLE2): the programs not already above.
    program!(poly_atax, MOTRR, "MOTRR ATAX: PolyBench y = A^T (A x), one thread per row then per column"),
    program!(poly_bicg, MOTRR, "MOTRR BICG: PolyBench BiCGStab sub-kernel s = A^T r, q = A p, one thread per output"),
    program!(poly_mvt, MOTRR, "MOTRR MVT: PolyBench x1 += A y1, x2 += A^T y2, one thread per output"),
    program!(parboil_stencil, MOTRR, "MOTRR STC: Parboil 7-point 3-D Jacobi, 2-D CTAs coarsened 2x in x marching in z"),
    program!(sdk_sobol, MOTRR, "MOTRR SQRNG: SDK Sobol quasi-random generator, one CTA per dimension slice, Gray-code steps"),
    // The KAWS paper's Table 2 (crate::kaws::KAWS_TABLE2): the programs not already above.
    // rod_streamcluster's and rod_hotspot's kernels at Table 2's launch counts; written once there.
    program!(rod_streamcluster_kaws, KAWS, "KAWS SC: rod_streamcluster's pgain search over 140 candidates (128 CTAs each)", kernels: rod_streamcluster),
    program!(rod_hotspot_kaws, KAWS, "KAWS HS: rod_hotspot's kernel as Rodinia's default command runs it, one launch of 2 steps", kernels: rod_hotspot),
    program!(parboil_mriq, KAWS, "KAWS MRI: Parboil MRI-Q, |phi|^2 then Q in k-space chunks from __constant__ memory, sincosf per sample"),
    program!(sdk_quasirandom, KAWS, "KAWS QRG: SDK quasirandomGenerator (31-bit generator columns in __constant__) + inverse-CND, 21 launches each"),
    program!(poly_3dconv, KAWS, "KAWS 3DCV: PolyBench 3-D convolution, one launch per i-plane, 32x8 CTAs"),
    program!(poly_3mm, KAWS, "KAWS 3MM: PolyBench G = (A B)(C D), three matrix-product kernels, 32x8 CTAs"),
    program!(dnn_resnet, KAWS, "KAWS RN: small ResNet forward pass, conv / bias+ReLU / residual / pool / FC launches"),
    // Tensor-core programs (sm_75 PTX): timed only on presets with tensor units.
    program!(tc_gemm, TENSOR, "tensor-core GEMM with the WMMA C++ API: f16 A, B tiles in shared memory, f32 accumulators", tensor_cores),
    program!(tc_conv, TENSOR, "3x3 convolution as an implicit GEMM with inline-PTX mma.sync.m16n8k8, im2col on the fly", tensor_cores),
];

/// Launch metadata of the programs that declare it (see [`crate::info`]).
pub(crate) static INFO: &[&WorkloadInfo] = &[
    &rod_lud::INFO,
    &rod_hotspot::INFO,
    &rod_backprop::INFO,
    &rod_particlefilter::INFO,
    &rod_heartwall::INFO,
    &rod_dwt2d::INFO,
    &rod_bfs::INFO,
    &rod_cfd::INFO,
    &rod_pathfinder::INFO,
    &rod_nw::INFO,
    &rod_kmeans::INFO,
    &rod_nn::INFO,
    &rod_gaussian::INFO,
    &rod_srad::INFO,
    &rod_streamcluster::INFO,
    &ispass_aes::INFO,
    &ispass_bfs::INFO,
    &ispass_cp::INFO,
    &ispass_lps::INFO,
    &ispass_nn::INFO,
    &ispass_ray::INFO,
    &ispass_sto::INFO,
    &sdk_montecarlo::INFO,
    &sdk_convsep::INFO,
    &sdk_histogram::INFO,
    &sdk_scalarprod::INFO,
    &poly_atax::INFO,
    &poly_bicg::INFO,
    &poly_mvt::INFO,
    &parboil_stencil::INFO,
    &sdk_sobol::INFO,
    &rod_streamcluster_kaws::INFO,
    &rod_hotspot_kaws::INFO,
    &parboil_mriq::INFO,
    &sdk_quasirandom::INFO,
    &poly_3dconv::INFO,
    &poly_3mm::INFO,
    &dnn_resnet::INFO,
];
