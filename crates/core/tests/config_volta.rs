//! The Volta keys the qv100 preset brought (`units.int`, `units.dp`, `l1d.unified_size`,
//! `l1d.shared_carveouts`, `l2.partition_index`, `gpu.compute_capability`): the preset's
//! values, their defaults in a file written before them, their ranges and relations.

use warpsim_core::config::{ConfigError, GpuConfig, PartitionIndex, SetIndex};

fn load(p: &str, o: &[&str]) -> Result<GpuConfig, ConfigError> {
    GpuConfig::load_with(p, &o.iter().map(|s| s.to_string()).collect::<Vec<_>>())
}

fn err(p: &str, o: &[&str]) -> String {
    match load(p, o) {
        Err(ConfigError::Invalid { key, why }) => format!("{key}: {why}"),
        other => panic!("{o:?}: {other:?}"),
    }
}

#[test]
fn qv100_is_sm7_qv100() {
    let c = load("qv100", &[]).unwrap();
    assert_eq!(
        (c.gpu.num_sms, c.gpu.core_clock_mhz, c.gpu.dram_clock_mhz),
        (80, 1447.0, 850.0)
    );
    assert_eq!(c.gpu.compute_capability, [7, 0]);
    assert_eq!(
        (c.sm.schedulers, c.sm.sub_core, c.sm.dual_issue),
        (4, true, false)
    );
    assert_eq!(c.sm.fetch_warps_per_cycle, 4);
    assert_eq!(
        (
            c.units.sp,
            c.units.int,
            c.units.dp,
            c.units.sfu,
            c.units.dp_on_sfu
        ),
        (4, 4, 4, 4, false)
    );
    assert_eq!(c.latency.int, [4, 13, 4, 5, 145, 21]);
    assert_eq!(c.initiation.fp64, [4, 4, 4, 4, 130]);
    assert_eq!((c.latency.sfu, c.initiation.sfu), (100, 8));
    assert_eq!((c.l1d.size, c.l1d.assoc, c.l1d.latency), (32768, 64, 20));
    assert_eq!(c.l1d.unified_size, 128 * 1024);
    assert_eq!(
        c.l1d.shared_carveouts,
        [0, 8, 16, 32, 64, 96].map(|k| k * 1024)
    );
    assert_eq!(
        (c.l2.size, c.l2.slices, c.l2.latency, c.l2.index),
        (6 << 20, 64, 160, SetIndex::Ipoly)
    );
    assert_eq!(c.l2.partition_index, PartitionIndex::Ipoly);
    let d = &c.dram;
    assert_eq!(
        (
            d.partitions,
            d.bus_bytes,
            d.burst,
            d.data_rate,
            d.tCCD,
            d.tRCD,
            d.CL,
            d.WL
        ),
        (32, 16, 2, 2, 1, 12, 12, 2)
    );
    assert_eq!((d.tWTR, d.tRTW, d.tWR), (6, 13, 10));
}

#[test]
fn the_old_presets_leave_the_volta_keys_off() {
    for p in ["gtx480", "titanx-pascal"] {
        let c = load(p, &[]).unwrap();
        assert_eq!((c.units.int, c.units.dp), (0, 0), "{p}");
        assert_eq!(c.l1d.unified_size, 0, "{p}");
        assert!(c.l1d.shared_carveouts.is_empty(), "{p}");
        let index = if p == "gtx480" {
            PartitionIndex::Consecutive
        } else {
            PartitionIndex::Random // SM6_TITANX's -gpgpu_memory_partition_indexing 4
        };
        assert_eq!(c.l2.partition_index, index, "{p}");
        assert_eq!(c.gpu.compute_capability, [7, 5], "{p}");
    }
}

#[test]
fn a_file_written_before_the_volta_keys_loads_without_them() {
    // (titanx-pascal's partition index is SM6_TITANX's random one: the file says so.)
    let full = load("titanx-pascal", &["l2.partition_index=consecutive"]).unwrap();
    let text: String = full
        .to_toml()
        .lines()
        .filter(|l| {
            !["int = 0", "dp = 0"].contains(l)
                && ![
                    "unified_size =",
                    "shared_carveouts =",
                    "partition_index =",
                    "compute_capability =",
                ]
                .iter()
                .any(|k| l.starts_with(k))
        })
        .map(|l| format!("{l}\n"))
        .collect();
    assert_ne!(text, full.to_toml());
    let old = GpuConfig::from_toml("old.toml", &text, &[]).unwrap();
    assert_eq!(old, full, "the defaults are titanx-pascal's values");
}

#[test]
fn the_volta_keys_have_ranges() {
    assert_eq!(
        err("gtx480", &["units.int=65"]),
        "units.int: 65 is out of range 0..=64"
    );
    assert_eq!(
        err("gtx480", &["units.dp=65"]),
        "units.dp: 65 is out of range 0..=64"
    );
    assert_eq!(
        err("qv100", &["l1d.unified_size=16777217"]),
        "l1d.unified_size: 16777217 is out of range 0..=16777216"
    );
    assert_eq!(
        err("qv100", &["l1d.shared_carveouts=[0, 16777217]"]),
        "l1d.shared_carveouts: 16777217 is out of range 0..=16777216"
    );
    assert_eq!(
        err("qv100", &["gpu.compute_capability=[0, 0]"]),
        "gpu.compute_capability: 0 is out of range 1..=99"
    );
    // An unknown hash names the key and the valid ones.
    let e = load("qv100", &["l2.partition_index=modulo"])
        .unwrap_err()
        .to_string();
    assert!(
        e.contains(
            "unknown variant `modulo`, expected one of `consecutive`, `xor`, `ipoly`, `random`"
        ) && e.contains("l2.partition_index"),
        "{e}"
    );
}

#[test]
fn the_volta_keys_relations_are_checked() {
    assert_eq!(
        err("gtx480", &["units.dp=2"]),
        "units.dp: 2 DP units and units.dp_on_sfu = true both say where double precision runs: set one"
    );
    assert!(load("gtx480", &["units.dp=2", "units.dp_on_sfu=false"]).is_ok());
    // IPOLY hashes 16, 32 or 64 slices: gtx480's 6 partitions round up to 8, × 2 slices = 16.
    assert!(load("gtx480", &["l2.partition_index=ipoly"]).is_ok());
    assert_eq!(
        err("qv100", &["l2.slices=128"]),
        "l2.partition_index: \"ipoly\" is defined for 16, 32 or 64 slices (dram.partitions rounded up to a power of two × slices per partition), got 128"
    );
    assert_eq!(
        err("gtx480", &["l2.partition_index=xor"]),
        "l2.partition_index: \"xor\" needs a power-of-two dram.partitions and slices per partition, got 6 and 2"
    );
    assert_eq!(
        err("qv100", &["l1d.unified_size=100000"]),
        "l1d.unified_size: 100000 is not a multiple of l1d.size = 32768 (the carve-outs scale the L1's ways)"
    );
    assert_eq!(
        err("qv100", &["l1d.shared_carveouts=[]"]),
        "l1d.shared_carveouts: needs at least one size when l1d.unified_size is set"
    );
    assert_eq!(
        err("qv100", &["l1d.shared_carveouts=[0, 65536]"]),
        "l1d.shared_carveouts: the largest, 65536, must hold sm.shared_memory = 98304 and leave the L1 a way (512 bytes) of l1d.unified_size = 131072"
    );
}
