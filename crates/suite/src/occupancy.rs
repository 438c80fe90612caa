//! The BAWS paper's Table 2: the occupancy each barrier-intensive program must have on the
//! GTX 480, checked with [`warpsim_core::occupancy::ctas_per_sm`] against our kernels'
//! committed `ptxas` reports.
//!
//! Registers come from those reports, which are `sm_75` figures: ptxas for Fermi would have
//! allocated differently, so each kernel's `.cu` says which resource sets its occupancy and
//! how it was sized to land on the paper's figure.

/// One row of the BAWS paper's Table 2 and the kernel of ours it describes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PaperShape {
    /// Our program (`baws_<id>`).
    pub program: &'static str,
    /// The kernel (mangled name) whose occupancy the row describes: the program's main
    /// barrier kernel.
    pub kernel: &'static str,
    /// Threads per CTA it is launched with.
    pub threads_per_cta: u32,
    /// Dynamic shared memory per CTA it is launched with, bytes.
    pub dynamic_smem: u32,
    /// Table 2: warps per TB.
    pub warps_per_cta: u32,
    /// Table 2: TBs per SM.
    pub ctas_per_sm: u32,
}

/// Table 2 of the BAWS paper (barrier-intensive programs on the GTX 480), row by row.
pub const BAWS_TABLE2: &[PaperShape] = &[
    shape("baws_sp", "_Z5spDotPfPKfS1_ii", 512, 16, 3),
    shape("baws_ms", "_Z11msSortTilesPjS_", 256, 8, 6),
    shape("baws_fwt", "_Z8fwtChunkPfi", 512, 16, 3),
    shape("baws_mm", "_Z7mmTiledPfPKfS1_iii", 256, 8, 6),
    shape("baws_stn", "_Z13stnPersistentPfS_Pjii", 512, 16, 2),
    shape("baws_octp", "_Z8octSplitPK4NodePS_PKiPK6float4PiS8_i", 256, 8, 4),
    shape("baws_bt", "_Z12btFindRangeKPKiS0_S0_S0_S0_S0_PiS1_ii", 256, 8, 5),
    shape("baws_pvc", "_Z6pvcMapPKjPjS1_ii", 256, 8, 6),
    shape("baws_pvr", "_Z8pvrCountPKjPji", 256, 8, 6),
    shape("baws_ss", "_Z7ssScorePKiS0_PiS1_i", 256, 8, 6),
    shape("baws_mg", "_Z6mgGridPK6SamplePKiPfS4_S4_iiif", 512, 16, 3),
    shape("baws_histo", "_Z10histoLocalPKjPji", 512, 16, 3),
    shape("baws_srad2", "_Z5srad1PKfPfS1_S1_S1_S1_iif", 256, 8, 6),
];

const fn shape(program: &'static str, kernel: &'static str, threads: u32, warps: u32, ctas: u32) -> PaperShape {
    PaperShape { program, kernel, threads_per_cta: threads, dynamic_smem: 0, warps_per_cta: warps, ctas_per_sm: ctas }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn table2_rows_are_consistent() {
        for row in BAWS_TABLE2 {
            assert_eq!(row.threads_per_cta, row.warps_per_cta * 32, "{}", row.program);
            assert!(row.ctas_per_sm * row.warps_per_cta <= 48, "{}", row.program);
        }
        assert_eq!(BAWS_TABLE2.len(), 13);
    }
}
