//! The PRO paper's Table II (paper 003): its 25 kernels of 11 applications with their thread
//! block counts, and which of our programs and kernels reproduce each at `Size::Paper`.
//!
//! A row names a program of ours only where the program is the same algorithm with the same
//! kernel shape and launches the kernel with the row's CTA count at paper size
//! (`tests/pro.rs` checks the counts against real launches). Programs written for another
//! paper's set are reused where they fit (`rod_backprop`, `rod_hotspot`, `rod_pathfinder`,
//! `baws_bt`); rows without a program are still to be written, and [`PaperKernel::note`] says
//! why no existing program stands in for them.

/// One row of Table II.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PaperKernel {
    /// The application, as Table II names it.
    pub application: &'static str,
    /// The kernel, as Table II names it.
    pub kernel: &'static str,
    /// Table II: thread blocks launched.
    pub ctas: u32,
    /// Our program and its kernel's mangled name, where we have one.
    pub ours: Option<(&'static str, &'static str)>,
    /// How ours corresponds, or why no existing program does.
    pub note: &'static str,
}

const fn row(
    application: &'static str,
    kernel: &'static str,
    ctas: u32,
    ours: Option<(&'static str, &'static str)>,
    note: &'static str,
) -> PaperKernel {
    PaperKernel { application, kernel, ctas, ours, note }
}

/// Table II in the paper's order.
pub const PRO_TABLE2: &[PaperKernel] = &[
    row("AES", "aesEncrypt128", 257, Some(("ispass_aes", "_Z13aesEncrypt128PjPKjS1_S1_i")), "written for this set"),
    row(
        "BFS",
        "kernel",
        256,
        None,
        "not yet: rod_bfs is the same two-kernel algorithm but launches 4096 CTAs at paper size (2^20 nodes)",
    ),
    row("CP", "cenergy", 256, Some(("ispass_cp", "_Z7cenergyPfiifi")), "written for this set"),
    row("LPS", "GPU_laplace3d", 100, Some(("ispass_lps", "_Z13GPU_laplace3dPKfPfiii")), "written for this set"),
    row("NN", "executeFirstLayer", 168, None, "not yet"),
    row("NN", "executeSecondLayer", 1400, None, "not yet"),
    row("NN", "executeThirdLayer", 2800, None, "not yet"),
    row("NN", "executeFourthLayer", 280, None, "not yet"),
    row("RAY", "render", 512, None, "not yet"),
    row("STO", "sha1_overlap", 384, Some(("ispass_sto", "_Z12sha1_overlapPjPKhiii")), "written for this set"),
    row(
        "backprop",
        "bpnn_layerforward",
        4096,
        Some(("rod_backprop", "_Z14bpLayerForwardPKfS0_Pfi")),
        "Rodinia's pipeline and 16x16 CTAs; 65536 inputs at paper size",
    ),
    row(
        "backprop",
        "bpnn_adjust_weights_cuda",
        4096,
        Some(("rod_backprop", "_Z15bpAdjustWeightsPKfS0_PfS1_ff")),
        "as above",
    ),
    row(
        "b+tree",
        "findRangeK",
        6000,
        Some(("baws_bt", "_Z12btFindRangeKPKiS0_S0_S0_S0_S0_PiS1_ii")),
        "Rodinia's one 256-thread CTA per query, order 256; Rodinia's 6000 range queries at paper size",
    ),
    row(
        "b+tree",
        "findK",
        10000,
        Some(("baws_bt", "_Z7btFindKPKiS0_S0_S0_Piii")),
        "as above; Rodinia's 10000 key queries",
    ),
    row(
        "hotspot",
        "calculate_temp",
        1849,
        Some(("rod_hotspot", "_Z11hotspotStepPKfS0_Pfiiifffff")),
        "Rodinia's 16x16 ghost-zone pyramid of height 2 on 512 x 512: 43 x 43 CTAs",
    ),
    row(
        "pathfinder",
        "dynproc_kernel",
        463,
        Some(("rod_pathfinder", "_Z8pathStepPKiS0_Piiii")),
        "Rodinia's 256-thread pyramid of 20 rows on 100000 columns: ceil(100000 / 216) CTAs",
    ),
    row(
        "convolutionSeparable",
        "convolutionRowsKernel",
        18432,
        None,
        "not yet: conv_const is a small feature test, not the SDK's tiled kernels",
    ),
    row("convolutionSeparable", "convolutionColumnsKernel", 9216, None, "not yet"),
    row(
        "histogram",
        "histogram64Kernel",
        4370,
        None,
        "not yet: baws_histo has 4096 bins and histogram 256 bins merged by global atomics, other programs",
    ),
    row("histogram", "mergeHistogram64Kernel", 64, None, "not yet"),
    row("histogram", "histogram256Kernel", 240, None, "not yet"),
    row("histogram", "mergeHistogram256Kernel", 256, None, "not yet"),
    row(
        "MonteCarlo",
        "inverseCNDKernel",
        128,
        Some(("sdk_montecarlo", "_Z16inverseCNDKernelPfPKfi")),
        "written for this set",
    ),
    row(
        "MonteCarlo",
        "MonteCarloOneBlockPerOption",
        256,
        Some(("sdk_montecarlo", "_Z27MonteCarloOneBlockPerOptionPfS_PK8McOptionPKfi")),
        "written for this set",
    ),
    row(
        "scalarProd",
        "scalarProdGPU",
        128,
        None,
        "not yet: baws_sp launches 128 CTAs but of 512 threads (BAWS's 16 warps, 3 CTAs/SM), the SDK's \
         of 256 threads over 1024 shared accumulators; scalar_prod has one CTA per pair",
    ),
];
