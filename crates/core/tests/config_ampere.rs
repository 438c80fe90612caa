//! The GDDR6 presets rtx3070 and rtx2060 (GPGPU-Sim 4.2's SM86_RTX3070 and SM75_RTX2060):
//! their values as the GPGPU-Sim configs give them (rtx2060 as rtx3070's with the values its
//! config sets otherwise), and the L1 the unified array leaves a launch for each of the
//! configs' `-gpgpu_shmem_option` carve-outs.

use warpsim_core::config::{BankGroupIndex, GpuConfig, PartitionIndex, SetIndex};

const KIB: u32 = 1024;

fn rtx3070() -> GpuConfig {
    GpuConfig::load("rtx3070").unwrap()
}

fn rtx2060() -> GpuConfig {
    GpuConfig::load("rtx2060").unwrap()
}

/// SMs and the core, interconnect, L2 and DRAM clocks (MHz).
fn clocks(c: &GpuConfig) -> (u32, f64, f64, f64, f64) {
    let g = &c.gpu;
    (
        g.num_sms,
        g.core_clock_mhz,
        g.icnt_clock_mhz,
        g.l2_clock_mhz,
        g.dram_clock_mhz,
    )
}

/// The L1 D-cache's size, ways, line and sector bytes (GPGPU-Sim's `-gpgpu_cache:dl1`).
fn l1d_geometry(c: &GpuConfig) -> (u32, u32, u32, u32) {
    let l = &c.l1d;
    (l.size, l.assoc, l.line, l.sector)
}

/// The L1 D-cache's MSHRs, merges per MSHR and miss-queue entries.
fn l1d_misses(c: &GpuConfig) -> (u32, u32, u32) {
    let l = &c.l1d;
    (l.mshrs, l.mshr_merge, l.miss_queue)
}

/// An SM's threads, warps, CTAs, registers and shared-memory bytes.
fn sm_limits(c: &GpuConfig) -> (u32, u32, u32, u32, u32) {
    let m = &c.sm;
    (
        m.max_threads,
        m.max_warps,
        m.max_ctas,
        m.registers,
        m.shared_memory,
    )
}

#[test]
fn rtx3070_is_sm86_rtx3070() {
    let c = rtx3070();
    assert_eq!(c.name, "rtx3070");
    assert_eq!(clocks(&c), (46, 1132.0, 1132.0, 1132.0, 3500.5));
    assert_eq!(c.gpu.compute_capability, [8, 6]);
    assert_eq!(c.gpu.kernel_launch_latency, 5000);
    // -gpgpu_shader_core_pipeline 1536:32, -gpgpu_shader_cta 32, 64 K registers, 100 KB shared.
    assert_eq!(sm_limits(&c), (1536, 48, 32, 65536, 100 * KIB));
    assert_eq!((c.sm.shared_latency, c.l1d.latency), (29, 39));
    assert_eq!(
        (c.sm.schedulers, c.sm.sub_core, c.sm.dual_issue),
        (4, true, false)
    );
    assert_eq!(
        (c.units.sp, c.units.int, c.units.dp, c.units.sfu),
        (4, 4, 4, 4)
    );
    assert!(!c.units.dp_on_sfu);
    // 8 register banks: 2 per sub-core scheduler.
    assert_eq!(
        (
            c.operand_collectors.register_banks,
            c.operand_collectors.generic,
            c.operand_collectors.split_banks
        ),
        (8, 8, true)
    );
    // The config gives five int entries; the sixth (SHFL) is the option's default (32, 4).
    assert_eq!(c.latency.int, [4, 4, 4, 4, 21, 32]);
    assert_eq!(c.initiation.int, [2, 2, 2, 2, 2, 4]);
    assert_eq!(c.latency.fp32, [4, 4, 4, 4, 39]);
    assert_eq!(c.initiation.fp32, [1, 1, 1, 1, 2]);
    assert_eq!(c.latency.fp64, [64, 64, 64, 64, 330]);
    assert_eq!(c.initiation.fp64, [64, 64, 64, 64, 130]);
    assert_eq!((c.latency.sfu, c.initiation.sfu), (21, 8));
    // dl1 S:4:128:256, A:384:48, 16:0 inside a 128 KB unified array.
    assert_eq!(l1d_geometry(&c), (128 * KIB, 256, 128, 32));
    assert_eq!(l1d_misses(&c), (384, 48, 16));
    assert_eq!(c.l1d.unified_size, 128 * KIB);
    assert_eq!(
        c.l1d.shared_carveouts,
        [0, 8, 16, 32, 64, 100].map(|k| k * KIB)
    );
    // dl2 S:64:128:16 per sub-partition, 16 channels × 2: 32 slices of 128 KB.
    assert_eq!(
        (c.l2.size, c.l2.slices, c.l2.assoc, c.l2.latency, c.l2.index),
        (4 << 20, 32, 16, 187, SetIndex::Ipoly)
    );
    assert_eq!(c.l2.size / c.l2.slices, 64 * 128 * 16);
    assert_eq!(c.l2.partition_index, PartitionIndex::Ipoly);
    assert_eq!(c.l2.slice_interleave, Some(128));
    let d = &c.dram;
    assert_eq!(
        (
            d.partitions,
            d.banks,
            d.bus_bytes,
            d.chips,
            d.burst,
            d.data_rate
        ),
        (16, 16, 2, 1, 16, 4)
    );
    assert_eq!(
        (d.tCCD, d.tRRD, d.tRCD, d.tRAS, d.tRP, d.tRC, d.CL, d.WL),
        (4, 12, 24, 55, 24, 78, 24, 8)
    );
    assert_eq!(
        (d.bank_groups, d.bank_group_index, d.tCCDL, d.tRTPL),
        (4, BankGroupIndex::Low, 6, 4)
    );
    // GPGPU-Sim derives them: tWTR = WL + BL/ratio + CDLR, tRTW = CL + BL/ratio + 2 - WL.
    assert_eq!(
        (d.tWTR, d.tRTW, d.tWR),
        (8 + 16 / 4 + 10, 24 + 16 / 4 + 2 - 8, 24)
    );
    assert_eq!(
        (d.latency, d.request_bytes, d.bank_interleave),
        (254, 32, 128)
    );
    // One request is one burst: BL 16 × 2 bytes × 1 chip.
    assert_eq!(d.burst * d.bus_bytes * d.chips, d.request_bytes);
}

/// Peak DRAM bandwidth in GB/s: channels × chips × bus bytes × transfers a clock × clock.
fn dram_gb_s(c: &GpuConfig) -> f64 {
    let d = &c.dram;
    let bytes_per_dram_clock = (d.partitions * d.chips * d.bus_bytes * d.data_rate) as f64;
    bytes_per_dram_clock * c.gpu.dram_clock_mhz * 1e6 / 1e9
}

#[test]
fn the_gddr6_presets_move_448_and_336_gb_a_second() {
    let (ampere, turing) = (dram_gb_s(&rtx3070()), dram_gb_s(&rtx2060()));
    assert!((ampere - 448.064).abs() < 1e-9, "{ampere}");
    assert!((turing - 336.048).abs() < 1e-9, "{turing}");
}

#[test]
fn rtx3070s_carve_outs_follow_gpgpu_sims_shmem_option_list() {
    // GPGPU-Sim (shader_core_config::max_cta, adaptive cache): the smallest option of
    // 0,8,16,32,64,100 KB that holds the launch's shared memory per SM; the L1 keeps its 4
    // sets and takes 256 × (1 − option / 128 KB) + 0.5 ways, truncated.
    let l1 = rtx3070().l1d;
    let cases: [(u32, u32); 11] = [
        (0, 256),              // no shared memory: the whole 128 KB array
        (1, 240),              // 8 KB option
        (8 * KIB, 240),        // exactly the 8 KB option
        (8 * KIB + 1, 224),    // 16 KB
        (20 * KIB, 192),       // 32 KB
        (32 * KIB, 192),       // 32 KB
        (48 * KIB, 128),       // 64 KB: 64 KB of L1 left
        (64 * KIB, 128),       // 64 KB
        (64 * KIB + 4, 56),    // 100 KB: 256 × 0.21875 + 0.5 = 56.5 → 56 ways
        (100 * KIB, 56),       // the most an SM has
        (100 * KIB + 512, 56), // past every option: the largest
    ];
    for (shared, ways) in cases {
        assert_eq!(
            l1.carved(shared as u64),
            (ways * 4 * 128, ways),
            "{shared} bytes of shared memory"
        );
    }
    // The largest carve-out leaves 28 KB of L1.
    assert_eq!(l1.carved(100 * KIB as u64).0, 28 * KIB);
}

#[test]
fn a_launch_config_on_rtx3070_carries_its_carved_l1() {
    let c = rtx3070();
    let l = c
        .for_launch_shared(3 * 16 * KIB as u64)
        .expect("unified array");
    assert_eq!((l.l1d.size, l.l1d.assoc), (64 * KIB, 128));
    assert_eq!(l.l1d.unified_size, 128 * KIB);
    // Only the L1's shape changes.
    let mut back = l.clone();
    back.l1d.size = c.l1d.size;
    back.l1d.assoc = c.l1d.assoc;
    assert_eq!(back, c);
}

#[test]
fn rtx2060_is_sm75_rtx2060() {
    let c = rtx2060();
    assert_eq!(c.name, "rtx2060");
    assert_eq!(clocks(&c), (30, 1365.0, 1365.0, 1365.0, 3500.5));
    assert_eq!(c.gpu.compute_capability, [7, 5]);
    // -gpgpu_shader_core_pipeline 1024:32, -gpgpu_shader_cta 16, 64 KB shared.
    assert_eq!(sm_limits(&c), (1024, 32, 16, 65536, 64 * KIB));
    assert_eq!((c.sm.shared_latency, c.l1d.latency), (30, 32));
    // FP32 issues every other cycle (-ptx_opcode_initiation_fp 2,2,2,2,4).
    assert_eq!(c.initiation.fp32, [2, 2, 2, 2, 4]);
    // dl1 S:4:128:64, A:256:32, scaled to the whole 96 KB array: 192 ways of 4 sets.
    assert_eq!(l1d_geometry(&c), (96 * KIB, 192, 128, 32));
    assert_eq!(l1d_misses(&c), (256, 32, 16));
    assert_eq!(c.l1d.unified_size, 96 * KIB);
    assert_eq!(c.l1d.shared_carveouts, [32 * KIB, 64 * KIB]);
    // 12 channels x 2 sub-partitions of 128 KB (dl2 S:64:128:16), consecutive partition index.
    assert_eq!(
        (c.l2.size, c.l2.slices, c.l2.latency, c.l2.index),
        (3 << 20, 24, 194, SetIndex::Ipoly)
    );
    assert_eq!(c.l2.size / c.l2.slices, 64 * 128 * 16);
    assert_eq!(c.l2.partition_index, PartitionIndex::Consecutive);
    assert_eq!((c.dram.partitions, c.dram.latency), (12, 96));
}

#[test]
fn rtx2060_shares_the_rest_of_sm86_rtx3070s_config() {
    // Everything the two tested configs do not set differently is the same: the preset is
    // rtx3070's with the values above replaced.
    let turing = rtx2060();
    let mut ampere = GpuConfig::load("rtx3070").unwrap();
    ampere.name = turing.name.clone();
    ampere.gpu.num_sms = turing.gpu.num_sms;
    ampere.gpu.core_clock_mhz = turing.gpu.core_clock_mhz;
    ampere.gpu.icnt_clock_mhz = turing.gpu.icnt_clock_mhz;
    ampere.gpu.l2_clock_mhz = turing.gpu.l2_clock_mhz;
    ampere.gpu.compute_capability = turing.gpu.compute_capability;
    for (a, t) in [
        (&mut ampere.sm.max_threads, turing.sm.max_threads),
        (&mut ampere.sm.max_warps, turing.sm.max_warps),
        (&mut ampere.sm.max_ctas, turing.sm.max_ctas),
        (&mut ampere.sm.shared_memory, turing.sm.shared_memory),
        (&mut ampere.sm.shared_latency, turing.sm.shared_latency),
        (&mut ampere.l1d.size, turing.l1d.size),
        (&mut ampere.l1d.assoc, turing.l1d.assoc),
        (&mut ampere.l1d.latency, turing.l1d.latency),
        (&mut ampere.l1d.mshrs, turing.l1d.mshrs),
        (&mut ampere.l1d.mshr_merge, turing.l1d.mshr_merge),
        (&mut ampere.l1d.unified_size, turing.l1d.unified_size),
        (&mut ampere.l2.size, turing.l2.size),
        (&mut ampere.l2.slices, turing.l2.slices),
        (&mut ampere.l2.latency, turing.l2.latency),
        (&mut ampere.dram.partitions, turing.dram.partitions),
        (&mut ampere.dram.latency, turing.dram.latency),
    ] {
        *a = t;
    }
    ampere.initiation.fp32 = turing.initiation.fp32;
    ampere.l1d.shared_carveouts = turing.l1d.shared_carveouts.clone();
    ampere.l2.partition_index = turing.l2.partition_index;
    assert_eq!(ampere, turing);
}

#[test]
fn rtx2060s_carve_outs_follow_gpgpu_sims_shmem_option_list() {
    // GPGPU-Sim's adaptive cache: the smallest of the 32 and 64 KB options that holds the
    // launch's shared memory per SM; the L1 keeps its 4 sets and takes 192 × (1 − option /
    // 96 KB) + 0.5 ways, truncated: 128 ways (64 KB) or 64 ways (32 KB).
    let l1 = rtx2060().l1d;
    let cases: [(u32, u32); 6] = [
        (0, 128), // no shared memory still carves out the 32 KB option
        (1, 128),
        (32 * KIB, 128),
        (32 * KIB + 1, 64),
        (64 * KIB, 64),
        (64 * KIB + 512, 64), // past every option: the largest
    ];
    for (shared, ways) in cases {
        assert_eq!(
            l1.carved(shared as u64),
            (ways * 4 * 128, ways),
            "{shared} bytes of shared memory"
        );
    }
}
