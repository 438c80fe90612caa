//! The PRO paper's Table II (paper 003): its 25 kernels of 11 applications with their thread
//! block counts, and which of our programs and kernels reproduce each at `Size::Paper`.
//!
//! A row names a program of ours only where the program is the same algorithm with the same
//! kernel shape and launches the kernel with the row's CTA count at paper size
//! (`tests/pro.rs` checks the counts against real launches). Programs written for another
//! paper's set are reused where they fit (`rod_backprop`, `rod_hotspot`, `rod_pathfinder`,
//! `baws_bt`, and `rod_bfs`'s kernels through `ispass_bfs`); every row has a program, and
//! [`PaperKernel::note`] says how it corresponds (and, for programs written for the set, why an
//! existing one did not fit).

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
    PaperKernel {
        application,
        kernel,
        ctas,
        ours,
        note,
    }
}

/// Table II in the paper's order.
pub const PRO_TABLE2: &[PaperKernel] = &[
    row("AES", "aesEncrypt128", 257, Some(("ispass_aes", "_Z13aesEncrypt128PjPKjS1_S1_i")), "written for this set"),
    row(
        "BFS",
        "kernel",
        256,
        Some(("ispass_bfs", "_Z9bfsExpandPKiS0_PhS1_PKhPii")),
        "rod_bfs's two kernels (Table II names the expand kernel) on ISPASS's 65536-node graph: \
         65536 / 256 CTAs; ispass_bfs runs rod_bfs's code at its own sizes",
    ),
    row("CP", "cenergy", 256, Some(("ispass_cp", "_Z7cenergyPfiifi")), "written for this set"),
    row("LPS", "GPU_laplace3d", 100, Some(("ispass_lps", "_Z13GPU_laplace3dPKfPfiii")), "written for this set"),
    row(
        "NN",
        "executeFirstLayer",
        168,
        Some(("ispass_nn", "_Z17executeFirstLayerPfPKfS1_")),
        "written for this set: a 29x29 -> 6x13x13 -> 50x5x5 -> 100 -> 10 network, grids of (maps or \
         neurons) x (28 images); 6 x 28 CTAs of 13x13",
    ),
    row(
        "NN",
        "executeSecondLayer",
        1400,
        Some(("ispass_nn", "_Z18executeSecondLayerPfPKfS1_")),
        "50 x 28 CTAs of 5x5",
    ),
    row(
        "NN",
        "executeThirdLayer",
        2800,
        Some(("ispass_nn", "_Z17executeThirdLayerPfPKfS1_")),
        "100 x 28 CTAs of 50 threads",
    ),
    row(
        "NN",
        "executeFourthLayer",
        280,
        Some(("ispass_nn", "_Z18executeFourthLayerPfPKfS1_")),
        "10 x 28 CTAs of 100 threads",
    ),
    row(
        "RAY",
        "render",
        512,
        Some(("ispass_ray", "_Z6renderPjii")),
        "written for this set: one thread per pixel of a 256 x 256 image in 16x8 CTAs: 16 x 32 CTAs",
    ),
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
        Some(("sdk_convsep", "_Z21convolutionRowsKernelPfPKfii")),
        "written for this set: 16x4 CTAs of 8 outputs per thread on the SDK's 3072 x 3072 image: \
         (3072 / 128) x (3072 / 4) CTAs (conv_const is a small feature test, not the SDK's tiled kernels)",
    ),
    row(
        "convolutionSeparable",
        "convolutionColumnsKernel",
        9216,
        Some(("sdk_convsep", "_Z24convolutionColumnsKernelPfPKfii")),
        "16x8 CTAs of 8 outputs per thread: (3072 / 16) x (3072 / 64) CTAs",
    ),
    row(
        "histogram",
        "histogram64Kernel",
        4370,
        Some(("sdk_histogram", "_Z17histogram64KernelPjPKji")),
        "written for this set: 64-thread CTAs with per-thread u8 counters, 15360 bytes per CTA: \
         ceil(64 MB / 15360) CTAs (baws_histo has 4096 bins, histogram merges by global atomics)",
    ),
    row(
        "histogram",
        "mergeHistogram64Kernel",
        64,
        Some(("sdk_histogram", "_Z22mergeHistogram64KernelPjPKji")),
        "one 256-thread CTA per bin",
    ),
    row(
        "histogram",
        "histogram256Kernel",
        240,
        Some(("sdk_histogram", "_Z18histogram256KernelPjPKji")),
        "the SDK's fixed 240 CTAs of 192 threads, a shared sub-histogram per warp (shared atomics)",
    ),
    row(
        "histogram",
        "mergeHistogram256Kernel",
        256,
        Some(("sdk_histogram", "_Z23mergeHistogram256KernelPjPKji")),
        "one 256-thread CTA per bin",
    ),
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
        Some(("sdk_scalarprod", "_Z13scalarProdGPUPfPKfS1_ii")),
        "written for this set: the SDK's 256-thread CTAs over 1024 shared accumulators (4 per thread), 256 \
         pairs of 4096; not baws_sp (512-thread CTAs, one partial per thread: BAWS's 16 warps at 3 CTAs/SM) \
         nor scalar_prod (one CTA per pair, a feature test)",
    ),
];
