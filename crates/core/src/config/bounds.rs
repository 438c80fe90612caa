//! The range of every numeric key. A value outside its range is an error naming the key, the
//! value and the range — never clamped. Lower bounds are what the model needs to work (a
//! cache needs a way, a DRAM channel a bank); upper bounds keep a mistyped value from
//! allocating gigabytes or running for ever (per-SM, per-bank and per-MSHR state is allocated
//! up front), set well above any GPU the presets or the papers describe. A key missing here
//! is a bug: a test walks the reference preset and checks that every number has a range.

use super::GpuConfig;

const KIB: u64 = 1024;
const MIB: u64 = 1024 * KIB;
/// The longest latency or timing parameter any key may give, in cycles.
const CYCLES: u64 = 100_000;

/// (key, value, min, max) for every integer key (array keys once per element: the message
/// names the key; every element shares the range).
pub fn integer_keys(c: &GpuConfig) -> Vec<(&'static str, u64, u64, u64)> {
    let u = |v: u32| v as u64;
    let mut k = vec![
        ("gpu.num_sms", u(c.gpu.num_sms), 1, 1024),
        (
            "gpu.kernel_launch_latency",
            u(c.gpu.kernel_launch_latency),
            0,
            100 * CYCLES,
        ),
        (
            "gpu.compute_capability",
            u(c.gpu.compute_capability[0]),
            1,
            99,
        ),
        (
            "gpu.compute_capability",
            u(c.gpu.compute_capability[1]),
            0,
            99,
        ),
        ("sm.warp_size", u(c.sm.warp_size), 32, 32),
        ("sm.max_threads", u(c.sm.max_threads), 32, 64 * 32),
        ("sm.max_warps", u(c.sm.max_warps), 1, 64),
        ("sm.max_ctas", u(c.sm.max_ctas), 1, 64),
        ("sm.registers", u(c.sm.registers), 1, MIB),
        ("sm.shared_memory", u(c.sm.shared_memory), 0, 4 * MIB),
        ("sm.shared_banks", u(c.sm.shared_banks), 1, 64),
        ("sm.shared_latency", u(c.sm.shared_latency), 1, CYCLES),
        ("sm.schedulers", u(c.sm.schedulers), 1, 16),
        ("sm.ldst_queue", u(c.sm.ldst_queue), 0, 64),
        ("sm.ibuffer_entries", u(c.sm.ibuffer_entries), 1, 64),
        (
            "sm.fetch_warps_per_cycle",
            u(c.sm.fetch_warps_per_cycle),
            1,
            64,
        ),
        ("sm.fetch_bytes", u(c.sm.fetch_bytes), 8, 1024),
        ("units.sp", u(c.units.sp), 1, 64),
        ("units.sfu", u(c.units.sfu), 1, 64),
        ("units.ldst", u(c.units.ldst), 1, 64),
        ("units.int", u(c.units.int), 0, 64),
        ("units.dp", u(c.units.dp), 0, 64),
        ("units.tensor", u(c.units.tensor), 0, 64),
        ("operand_collectors.sp", u(c.operand_collectors.sp), 0, 256),
        (
            "operand_collectors.sfu",
            u(c.operand_collectors.sfu),
            0,
            256,
        ),
        (
            "operand_collectors.mem",
            u(c.operand_collectors.mem),
            0,
            256,
        ),
        (
            "operand_collectors.generic",
            u(c.operand_collectors.generic),
            0,
            256,
        ),
        (
            "operand_collectors.tensor",
            u(c.operand_collectors.tensor),
            0,
            256,
        ),
        (
            "operand_collectors.register_banks",
            u(c.operand_collectors.register_banks),
            1,
            256,
        ),
        (
            "operand_collectors.per_scheduler",
            u(c.operand_collectors.per_scheduler),
            0,
            16,
        ),
        (
            "operand_collectors.bank_reads_per_cycle",
            u(c.operand_collectors.bank_reads_per_cycle),
            1,
            8,
        ),
        ("pipeline.collect", u(c.pipeline.collect), 0, 64),
        ("pipeline.dispatch", u(c.pipeline.dispatch), 0, 64),
        ("pipeline.writeback", u(c.pipeline.writeback), 0, 64),
        ("pipeline.id_oc", u(c.pipeline.id_oc[0]), 1, 64),
        ("pipeline.id_oc", u(c.pipeline.id_oc[1]), 1, 64),
        ("pipeline.oc_ex", u(c.pipeline.oc_ex[0]), 1, 64),
        ("pipeline.oc_ex", u(c.pipeline.oc_ex[1]), 1, 64),
        ("pipeline.id_oc_tensor", u(c.pipeline.id_oc_tensor), 0, 64),
        ("pipeline.oc_ex_tensor", u(c.pipeline.oc_ex_tensor), 0, 64),
        ("pipeline.result_buses", u(c.pipeline.result_buses), 1, 64),
        ("latency.sfu", u(c.latency.sfu), 1, CYCLES),
        ("initiation.sfu", u(c.initiation.sfu), 1, CYCLES),
        ("l1i.size", u(c.l1i.size), 8, 4 * MIB),
        ("l1i.assoc", u(c.l1i.assoc), 1, 1024),
        ("l1i.line", u(c.l1i.line), 8, 4 * KIB),
        ("l1i.mshrs", u(c.l1i.mshrs), 1, 4096),
        ("l1i.mshr_merge", u(c.l1i.mshr_merge), 1, 4096),
        ("l1i.miss_queue", u(c.l1i.miss_queue), 1, 4096),
        ("l1d.size", u(c.l1d.size), 8, 16 * MIB),
        ("l1d.assoc", u(c.l1d.assoc), 1, 1024),
        ("l1d.line", u(c.l1d.line), 8, 4 * KIB),
        ("l1d.sector", u(c.l1d.sector), 8, 4 * KIB),
        ("l1d.latency", u(c.l1d.latency), 1, CYCLES),
        ("l1d.mshrs", u(c.l1d.mshrs), 1, 4096),
        ("l1d.mshr_merge", u(c.l1d.mshr_merge), 1, 1024),
        ("l1d.miss_queue", u(c.l1d.miss_queue), 1, 4096),
        ("l1d.unified_size", u(c.l1d.unified_size), 0, 16 * MIB),
        ("const_cache.size", u(c.const_cache.size), 8, 4 * MIB),
        ("const_cache.assoc", u(c.const_cache.assoc), 1, 1024),
        ("const_cache.line", u(c.const_cache.line), 8, 4 * KIB),
        ("tex.size", u(c.tex.size), 8, 4 * MIB),
        ("tex.assoc", u(c.tex.assoc), 1, 1024),
        ("tex.line", u(c.tex.line), 8, 4 * KIB),
        ("tex.mshrs", u(c.tex.mshrs), 1, 4096),
        ("tex.mshr_merge", u(c.tex.mshr_merge), 1, 4096),
        ("l2.size", u(c.l2.size), 8, 256 * MIB),
        ("l2.slices", u(c.l2.slices), 1, 1024),
        ("l2.assoc", u(c.l2.assoc), 1, 1024),
        ("l2.line", u(c.l2.line), 8, 4 * KIB),
        ("l2.mshrs", u(c.l2.mshrs), 1, 4096),
        ("l2.mshr_merge", u(c.l2.mshr_merge), 1, 1024),
        ("l2.latency", u(c.l2.latency), 1, CYCLES),
        ("l2.dram_queue", u(c.l2.dram_queue), 0, 1 << 16),
        ("dram.partitions", u(c.dram.partitions), 1, 64),
        ("dram.banks", u(c.dram.banks), 1, 256),
        ("dram.bus_bytes", u(c.dram.bus_bytes), 1, 64),
        ("dram.chips", u(c.dram.chips), 1, 64),
        ("dram.data_rate", u(c.dram.data_rate), 1, 16),
        ("dram.burst", u(c.dram.burst), 1, 256),
        ("dram.queue", u(c.dram.queue), 1, 4096),
        ("dram.latency", u(c.dram.latency), 0, CYCLES),
        ("dram.tCCD", u(c.dram.tCCD), 1, 10_000),
        ("dram.tRRD", u(c.dram.tRRD), 0, 10_000),
        ("dram.tRCD", u(c.dram.tRCD), 0, 10_000),
        ("dram.tRAS", u(c.dram.tRAS), 0, 10_000),
        ("dram.tRP", u(c.dram.tRP), 0, 10_000),
        ("dram.tRC", u(c.dram.tRC), 0, 10_000),
        ("dram.CL", u(c.dram.CL), 0, 10_000),
        ("dram.WL", u(c.dram.WL), 0, 10_000),
        ("dram.bank_groups", u(c.dram.bank_groups), 1, 256),
        ("dram.tCCDL", u(c.dram.tCCDL), 0, 10_000),
        ("dram.tRTPL", u(c.dram.tRTPL), 0, 10_000),
        ("dram.tWTR", u(c.dram.tWTR), 0, 10_000),
        ("dram.tRTW", u(c.dram.tRTW), 0, 10_000),
        ("dram.tWR", u(c.dram.tWR), 0, 10_000),
        ("dram.request_bytes", u(c.dram.request_bytes), 0, 4 * KIB),
        (
            "dram.bank_interleave",
            u(c.dram.bank_interleave),
            0,
            256 * KIB,
        ),
        ("icnt.latency", u(c.icnt.latency), 0, CYCLES),
        ("icnt.flit_bytes", u(c.icnt.flit_bytes), 1, 4 * KIB),
        (
            "icnt.vc_buffer_flits",
            u(c.icnt.vc_buffer_flits),
            1,
            1 << 16,
        ),
        (
            "coalescer.sector_bytes",
            u(c.coalescer.sector_bytes),
            4,
            4 * KIB,
        ),
    ];
    for (key, t) in [("latency", &c.latency), ("initiation", &c.initiation)] {
        let (int, fp32, fp64) = match key {
            "latency" => ("latency.int", "latency.fp32", "latency.fp64"),
            _ => ("initiation.int", "initiation.fp32", "initiation.fp64"),
        };
        k.extend(t.int.iter().map(|&v| (int, u(v), 1, CYCLES)));
        k.extend(t.fp32.iter().map(|&v| (fp32, u(v), 1, CYCLES)));
        k.extend(t.fp64.iter().map(|&v| (fp64, u(v), 1, CYCLES)));
        let other = if key == "latency" {
            "latency.other"
        } else {
            "initiation.other"
        };
        k.extend(t.other.map(|v| (other, u(v), 1, CYCLES)));
        let tensor = if key == "latency" {
            "latency.tensor"
        } else {
            "initiation.tensor"
        };
        k.push((tensor, u(t.tensor), 0, CYCLES));
    }
    k.extend(
        c.l1d
            .shared_carveouts
            .iter()
            .map(|&v| ("l1d.shared_carveouts", u(v), 0, 16 * MIB)),
    );
    // The policy tables declare their own ranges beside their defaults.
    k.extend(c.policy.integer_keys());
    // Optional keys (absent: the L1's values) have their range when given.
    k.extend(
        c.const_cache
            .mshrs
            .map(|v| ("const_cache.mshrs", u(v), 1, 4096)),
    );
    k.extend(
        c.const_cache
            .mshr_merge
            .map(|v| ("const_cache.mshr_merge", u(v), 1, 1024)),
    );
    k.extend(
        c.icnt
            .input_buffer_flits
            .map(|v| ("icnt.input_buffer_flits", u(v), 1, 1 << 16)),
    );
    // Absent: slices alternate line by line.
    k.extend(
        c.l2.slice_interleave
            .map(|v| ("l2.slice_interleave", u(v), 8, 1 << 30)),
    );
    k
}

/// (key, value, min, max) for every floating-point key: clocks in MHz, the router's speedup.
pub fn float_keys(c: &GpuConfig) -> Vec<(&'static str, f64, f64, f64)> {
    let mut k = vec![
        ("gpu.core_clock_mhz", c.gpu.core_clock_mhz, 1.0, 100_000.0),
        ("gpu.icnt_clock_mhz", c.gpu.icnt_clock_mhz, 1.0, 100_000.0),
        ("gpu.l2_clock_mhz", c.gpu.l2_clock_mhz, 1.0, 100_000.0),
        ("gpu.dram_clock_mhz", c.gpu.dram_clock_mhz, 1.0, 100_000.0),
    ];
    // 0: no router (checked further in `validate.rs`: a router takes at least a quarter step).
    k.push(("icnt.internal_speedup", c.icnt.internal_speedup, 0.0, 16.0));
    k
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::{ConfigError, PRESETS};

    /// Dotted keys of every numeric leaf (arrays of numbers count once).
    fn numeric_leaves(t: &toml::Table, prefix: &str, out: &mut Vec<String>) {
        for (k, v) in t {
            let key = if prefix.is_empty() {
                k.clone()
            } else {
                format!("{prefix}.{k}")
            };
            match v {
                toml::Value::Table(sub) => numeric_leaves(sub, &key, out),
                toml::Value::Integer(_) | toml::Value::Float(_) => out.push(key),
                // An empty list (`l1d.shared_carveouts = []`) has no number to range.
                toml::Value::Array(a)
                    if !a.is_empty() && a.iter().all(|x| x.is_integer() || x.is_float()) =>
                {
                    out.push(key)
                }
                _ => {}
            }
        }
    }

    fn ranged(c: &GpuConfig) -> Vec<&'static str> {
        let mut keys: Vec<&str> = integer_keys(c)
            .iter()
            .map(|k| k.0)
            .chain(float_keys(c).iter().map(|k| k.0))
            .collect();
        keys.dedup();
        keys
    }

    #[test]
    fn every_number_of_every_preset_has_a_range_and_is_inside_it() {
        for (name, text) in PRESETS {
            let c = GpuConfig::load(name).unwrap();
            let mut leaves = Vec::new();
            let mut table: toml::Table = text.parse().unwrap();
            // Presets leave the policy tables to their declared defaults.
            table.insert(
                "policy".into(),
                crate::config::reference_keys()["policy"].clone(),
            );
            numeric_leaves(&table, "", &mut leaves);
            let keys = ranged(&c);
            for leaf in &leaves {
                assert!(
                    keys.contains(&leaf.as_str()),
                    "{name}: `{leaf}` has no range in bounds.rs"
                );
            }
            assert_eq!(
                keys.len(),
                leaves.len(),
                "{name}: bounds.rs names a key the preset lacks"
            );
        }
    }

    /// An override setting `key` to `v` (every element, for array keys).
    fn set(c: &GpuConfig, key: &str, v: u64) -> String {
        let n = integer_keys(c).iter().filter(|k| k.0 == key).count();
        if n > 1 {
            format!("{key}=[{}]", vec![v.to_string(); n].join(","))
        } else {
            format!("{key}={v}")
        }
    }

    #[test]
    fn one_past_either_end_of_a_range_names_the_key_and_the_range() {
        let c = GpuConfig::load("gtx480").unwrap();
        let mut seen = Vec::new();
        for (key, _, min, max) in integer_keys(&c) {
            if seen.contains(&key) {
                continue;
            }
            seen.push(key);
            let mut outside = vec![max + 1];
            if min > 0 {
                outside.push(min - 1);
            }
            for v in outside {
                match GpuConfig::load_with("gtx480", &[set(&c, key, v)]) {
                    Err(ConfigError::Invalid { key: k, why }) => {
                        assert_eq!(k, key, "{v}");
                        assert!(
                            why.contains(&format!("{v} is out of range {min}..={max}")),
                            "{key}={v}: {why}"
                        );
                    }
                    other => panic!("{key}={v}: {other:?}"),
                }
            }
        }
        for (key, _, min, max) in float_keys(&c) {
            for v in [min - 0.5, max * 2.0] {
                let err = GpuConfig::load_with("gtx480", &[format!("{key}={v:?}")]).unwrap_err();
                assert!(
                    matches!(&err, ConfigError::Invalid { key: k, .. } if k == key),
                    "{key}={v}: {err:?}"
                );
            }
        }
    }
}
