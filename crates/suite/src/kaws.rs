//! The KAWS paper's Table 2 (paper 002): its nine benchmarks on the TITAN X (Pascal), with
//! each one's kernel and CTA counts and the average execution time of the last-issued CTA of
//! its kernels under GTO and KAWS, and the program of ours that stands for each (set `kaws`).
//!
//! "Kernels" in Table 2 counts launches (140 for streamcluster's pgain, 254 for 3DCONV's
//! per-plane launches). `tests/kaws.rs` checks that every row's program exists and is in set
//! `kaws`, that the set holds exactly these programs, and (ignored, slow) that at
//! `Size::Paper` the program's launch list has [`Benchmark::launches`] launches whose CTA
//! counts are all in [`Benchmark::ctas`].

/// One row of Table 2.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Benchmark {
    /// The benchmark, as Table 2 abbreviates it.
    pub name: &'static str,
    /// Table 2's number of kernels (launches).
    pub launches: u32,
    /// Table 2's CTAs per kernel ("6000 or 10000": both).
    pub ctas: &'static [u32],
    /// Average last-CTA execution time (cycles) under GTO and under KAWS, and KAWS in % of
    /// GTO, as Table 2 prints them.
    pub last_cta_gto: f64,
    pub last_cta_kaws: f64,
    pub last_cta_percent: f64,
    /// Our program.
    pub ours: &'static str,
    /// CTA counts our paper size launches besides Table 2's, and why (empty: none).
    pub other_ctas: &'static [u32],
    /// How ours corresponds.
    pub note: &'static str,
}

/// Table 2's average of the last-CTA column (% of GTO).
pub const KAWS_TABLE2_AVERAGE_PERCENT: f64 = 94.91;

const fn row(
    name: &'static str,
    launches: u32,
    ctas: &'static [u32],
    last_cta: [f64; 3],
    ours: &'static str,
    other_ctas: &'static [u32],
    note: &'static str,
) -> Benchmark {
    Benchmark {
        name,
        launches,
        ctas,
        last_cta_gto: last_cta[0],
        last_cta_kaws: last_cta[1],
        last_cta_percent: last_cta[2],
        ours,
        other_ctas,
        note,
    }
}

/// Table 2 in the paper's order.
pub const KAWS_TABLE2: &[Benchmark] = &[
    row(
        "SC",
        140,
        &[128],
        [119511.6, 117218.33, 98.08],
        "rod_streamcluster_kaws",
        &[],
        "rod_streamcluster's pgain (512-thread CTAs, 65536 points) over 140 candidates; Rodinia's count is \
         data-dependent, rod_streamcluster's paper size tries 16",
    ),
    row(
        "PF",
        5,
        &[463],
        [11914.4, 11631.6, 97.63],
        "rod_pathfinder",
        &[],
        "Rodinia's pyramid of 20 rows on 100000 columns: 5 launches of 463 CTAs",
    ),
    row(
        "BT",
        2,
        &[6000, 10000],
        [5300.0, 5291.0, 99.83],
        "baws_bt",
        &[],
        "findK over 10000 queries and findRangeK over 6000, one 256-thread CTA per query (Rodinia's command file)",
    ),
    row(
        "HS",
        1,
        &[1849],
        [3372.0, 2878.0, 85.35],
        "rod_hotspot_kaws",
        &[],
        "rod_hotspot's kernel as Rodinia's default command runs it: 512 x 512, 2 steps at pyramid height 2, one \
         launch of 43 x 43 CTAs (rod_hotspot's paper size runs 10 launches)",
    ),
    row(
        "MRI",
        4,
        &[128],
        [200378.3, 186167.67, 92.91],
        "parboil_mriq",
        &[6],
        "Parboil's small input (32768 voxels, 3072 samples): computePhiMag, then computeQ per 1024-sample chunk \
         of k-space in constant memory: 3 launches of 128 CTAs; computePhiMag, the fourth, has 6 CTAs of 512 \
         threads (3072 / 512), not 128",
    ),
    row(
        "QRG",
        42,
        &[128],
        [57937.19, 48287.57, 83.34],
        "sdk_quasirandom",
        &[],
        "the SDK sample's two kernels, 21 launches each (a warm-up and 20 timed iterations) on its fixed \
         128-CTA grid; 2^17 points (the SDK's 2^20 / 8); Sobol-construction generator columns, not Niederreiter's",
    ),
    row(
        "3DCV",
        254,
        &[256],
        [2994.29, 2859.68, 95.50],
        "poly_3dconv",
        &[],
        "PolyBench-GPU's shape: one launch per interior i-plane of a 256^3 volume, 32 x 8 CTAs; our own 11 taps",
    ),
    row(
        "3MM",
        3,
        &[1024],
        [199260.7, 195657.33, 98.19],
        "poly_3mm",
        &[],
        "PolyBench-GPU's three product kernels on 512 x 512 matrices, 32 x 8 CTAs",
    ),
    row(
        "RN",
        38,
        &[64, 256],
        [300766.9, 310851.34, 103.35],
        "dnn_resnet",
        &[],
        "our own ResNet-style network (Tango's is not described): 4 images of 32 x 32, a two-convolution stem \
         and max pool, 8 residual blocks, a fully connected layer; 4 launches of 256 CTAs, 34 of 64",
    ),
];
