//! Key checking against the reference preset, overrides, and semantic validation.

use super::{ConfigError, GpuConfig};

/// Rejects keys that the reference preset does not have, listing the valid ones.
pub fn check_keys(
    t: &toml::Table,
    reference: &toml::Table,
    prefix: &str,
) -> Result<(), ConfigError> {
    for (k, v) in t {
        let key = if prefix.is_empty() {
            k.clone()
        } else {
            format!("{prefix}.{k}")
        };
        let Some(r) = reference.get(k) else {
            replaced(&key)?;
            return Err(ConfigError::UnknownKey {
                key,
                valid: reference.keys().map(|k| qualify(prefix, k)).collect(),
            });
        };
        if let (toml::Value::Table(sub), toml::Value::Table(rsub)) = (v, r) {
            check_keys(sub, rsub, &key)?;
        }
    }
    Ok(())
}

fn qualify(prefix: &str, k: &str) -> String {
    if prefix.is_empty() {
        k.to_string()
    } else {
        format!("{prefix}.{k}")
    }
}

/// A table's leaf values as `a.b.c=value` overrides (TOML values), in key order.
pub fn flatten(t: &toml::Table, prefix: &str) -> Vec<String> {
    let mut out = Vec::new();
    for (k, v) in t {
        let key = qualify(prefix, k);
        match v {
            toml::Value::Table(sub) => out.extend(flatten(sub, &key)),
            v => out.push(format!("{key}={v}")),
        }
    }
    out
}

/// Keys that once existed and were replaced: refused with a message naming the new key, so an
/// old config file or command line is never read with a silently different meaning.
const REPLACED: &[(&str, &str)] = &[(
    "policy.cff.partial",
    "was replaced by `policy.cff.eligibility`: \"empty\" (the default: BAWS §2.2's and GPGPU-Sim's rule, what `false` meant), \"partial\" (what `true` meant; not the paper's rule) or \"block\"",
)];

/// An error for `key` when it is a replaced key.
fn replaced(key: &str) -> Result<(), ConfigError> {
    match REPLACED.iter().find(|(old, _)| *old == key) {
        Some((_, why)) => Err(ConfigError::Invalid {
            key: key.to_string(),
            why: why.to_string(),
        }),
        None => Ok(()),
    }
}

/// Applies one `a.b.c=value` override; the key must exist in the reference preset.
pub fn apply_override(
    t: &mut toml::Table,
    reference: &toml::Table,
    text: &str,
) -> Result<(), ConfigError> {
    let (key, value) = text
        .split_once('=')
        .ok_or_else(|| ConfigError::BadOverride {
            text: text.to_string(),
        })?;
    let key = key.trim();
    let parts: Vec<&str> = key.split('.').collect();
    let value: toml::Value = {
        let doc = format!("v = {}", value.trim());
        match doc.parse::<toml::Table>() {
            Ok(mut d) => d.remove("v").expect("parsed key"),
            // A bare word is a string (`l1d.set_hash=linear`).
            Err(_) => toml::Value::String(value.trim().to_string()),
        }
    };
    let (mut cur, mut rcur) = (t, reference);
    for (i, p) in parts.iter().enumerate() {
        let prefix = parts[..i].join(".");
        let Some(r) = rcur.get(*p) else {
            replaced(key)?;
            return Err(ConfigError::UnknownKey {
                key: key.to_string(),
                valid: rcur.keys().map(|k| qualify(&prefix, k)).collect(),
            });
        };
        if i + 1 == parts.len() {
            if r.is_table() {
                return Err(ConfigError::Invalid {
                    key: key.to_string(),
                    why: "is a section; override one of its keys".into(),
                });
            }
            cur.insert(p.to_string(), value);
            return Ok(());
        }
        let toml::Value::Table(rsub) = r else {
            return Err(ConfigError::Invalid {
                key: key.to_string(),
                why: format!("`{}` is not a section", qualify(&prefix, p)),
            });
        };
        rcur = rsub;
        cur = cur
            .entry(p.to_string())
            .or_insert_with(|| toml::Value::Table(toml::Table::new()))
            .as_table_mut()
            .ok_or_else(|| ConfigError::Invalid {
                key: key.to_string(),
                why: format!("`{}` is not a section", qualify(&prefix, p)),
            })?;
    }
    Ok(())
}

fn invalid(key: &str, why: impl Into<String>) -> ConfigError {
    ConfigError::Invalid {
        key: key.to_string(),
        why: why.into(),
    }
}

fn positive(key: &str, v: u32) -> Result<(), ConfigError> {
    if v == 0 {
        Err(invalid(key, "must be at least 1"))
    } else {
        Ok(())
    }
}

fn power_of_two(key: &str, v: u32) -> Result<(), ConfigError> {
    if !v.is_power_of_two() {
        Err(invalid(key, format!("must be a power of two, got {v}")))
    } else {
        Ok(())
    }
}

fn cache_shape(name: &str, size: u32, assoc: u32, line: u32) -> Result<(), ConfigError> {
    power_of_two(&format!("{name}.line"), line)?;
    positive(&format!("{name}.assoc"), assoc)?;
    if size == 0 || !size.is_multiple_of(assoc * line) {
        return Err(invalid(
            &format!("{name}.size"),
            format!(
                "{size} is not a multiple of assoc × line = {}",
                assoc * line
            ),
        ));
    }
    Ok(())
}

/// Values that parse but cannot describe a GPU: first every number against its range
/// ([`super::bounds`]), then the relations between keys.
pub fn check_values(c: &GpuConfig) -> Result<(), ConfigError> {
    for (k, v, min, max) in super::bounds::integer_keys(c) {
        if !(min..=max).contains(&v) {
            return Err(invalid(k, format!("{v} is out of range {min}..={max}")));
        }
    }
    for (k, v, min, max) in super::bounds::float_keys(c) {
        if !(v.is_finite() && (min..=max).contains(&v)) {
            return Err(invalid(k, format!("{v} is out of range {min}..={max}")));
        }
    }
    for (k, v) in [
        ("gpu.icnt_clock_mhz", c.gpu.icnt_clock_mhz),
        ("gpu.l2_clock_mhz", c.gpu.l2_clock_mhz),
    ] {
        if v != c.gpu.core_clock_mhz {
            return Err(invalid(
                k,
                format!(
                    "the interconnect and L2 run in the core clock domain in this model (separate domains are \
                     not modelled): must equal gpu.core_clock_mhz = {}",
                    c.gpu.core_clock_mhz
                ),
            ));
        }
    }
    if c.sm.max_warps * 32 < c.sm.max_threads {
        return Err(invalid(
            "sm.max_threads",
            format!(
                "{} threads need more than sm.max_warps = {} warps",
                c.sm.max_threads, c.sm.max_warps
            ),
        ));
    }
    let oc = &c.operand_collectors;
    if oc.per_scheduler == 0 && oc.sp + oc.sfu + oc.mem + oc.generic == 0 {
        return Err(invalid(
            "operand_collectors",
            "needs at least one collector unit: a pool (sp / sfu / mem / generic > 0) or per_scheduler > 0",
        ));
    }
    let schedulers = c.sm.schedulers.max(1);
    if oc.split_banks && !oc.register_banks.is_multiple_of(schedulers) {
        return Err(invalid(
            "operand_collectors.split_banks",
            format!(
                "divides the banks evenly among the schedulers: operand_collectors.register_banks = {} is not a multiple of sm.schedulers = {}",
                oc.register_banks, schedulers
            ),
        ));
    }
    c.policy.check(c)?;
    cache_shape("l1i", c.l1i.size, c.l1i.assoc, c.l1i.line)?;
    cache_shape("l1d", c.l1d.size, c.l1d.assoc, c.l1d.line)?;
    cache_shape(
        "const_cache",
        c.const_cache.size,
        c.const_cache.assoc,
        c.const_cache.line,
    )?;
    cache_shape("tex", c.tex.size, c.tex.assoc, c.tex.line)?;
    if !c.l1d.line.is_multiple_of(c.l1d.sector) {
        return Err(invalid(
            "l1d.sector",
            format!("{} must divide l1d.line = {}", c.l1d.sector, c.l1d.line),
        ));
    }
    power_of_two("coalescer.sector_bytes", c.coalescer.sector_bytes)?;
    // A sectored L1 keeps a valid bit per sector of the coalescer's sector masks.
    if c.l1d.sector < c.l1d.line && c.l1d.sector != c.coalescer.sector_bytes {
        return Err(invalid(
            "l1d.sector",
            format!(
                "{} differs from coalescer.sector_bytes = {}: a sectored L1 (l1d.sector < \
                 l1d.line = {}) uses the coalescer's sectors",
                c.l1d.sector, c.coalescer.sector_bytes, c.l1d.line
            ),
        ));
    }
    if c.coalescer.sector_bytes > c.l1d.line {
        return Err(invalid(
            "coalescer.sector_bytes",
            format!(
                "{} is larger than l1d.line = {}",
                c.coalescer.sector_bytes, c.l1d.line
            ),
        ));
    }
    if !c.l2.slices.is_multiple_of(c.dram.partitions) {
        return Err(invalid(
            "l2.slices",
            format!(
                "{} slices cannot be split evenly over dram.partitions = {}",
                c.l2.slices, c.dram.partitions
            ),
        ));
    }
    if !c.l2.size.is_multiple_of(c.l2.slices) {
        return Err(invalid("l2.size", "must be a multiple of l2.slices"));
    }
    cache_shape("l2 slice", c.l2.size / c.l2.slices, c.l2.assoc, c.l2.line)?;
    if let Some(b) = c.l2.slice_interleave {
        power_of_two("l2.slice_interleave", b)?;
        if b < c.l2.line {
            return Err(invalid(
                "l2.slice_interleave",
                format!("{b} is smaller than l2.line = {}", c.l2.line),
            ));
        }
    }
    if c.l2.sectored && c.l2.line / c.coalescer.sector_bytes.max(1) > 32 {
        return Err(invalid("l2.sectored", format!("needs at most 32 sectors per line: l2.line = {} / coalescer.sector_bytes = {} is {}", c.l2.line, c.coalescer.sector_bytes, c.l2.line / c.coalescer.sector_bytes.max(1))));
    }
    dram_shape(c)?;
    volta_shape(c)?;
    tensor_shape(c)?;
    let speedup = c.icnt.internal_speedup;
    if speedup != 0.0 && speedup < 0.25 {
        return Err(invalid(
            "icnt.internal_speedup",
            format!("{speedup} is out of range: 0 (no router) or 0.25..=16 router steps per cycle"),
        ));
    }
    if speedup != 0.0 && !c.icnt.head_of_line {
        return Err(invalid(
            "icnt.internal_speedup",
            "describes the input-queued router: needs icnt.head_of_line = true",
        ));
    }
    Ok(())
}

/// A GPU with tensor cores (`units.tensor > 0`) gives their latency, initiation interval and
/// pipeline registers (each at least 1); one without gives them no latency, interval or
/// collectors (0: a value nothing would read is a mistake, as for replaced keys).
fn tensor_shape(c: &GpuConfig) -> Result<(), ConfigError> {
    let keys = [
        ("latency.tensor", c.latency.tensor),
        ("initiation.tensor", c.initiation.tensor),
        ("pipeline.id_oc_tensor", c.pipeline.id_oc_tensor),
        ("pipeline.oc_ex_tensor", c.pipeline.oc_ex_tensor),
        ("operand_collectors.tensor", c.operand_collectors.tensor),
    ];
    let units = c.units.tensor;
    // The collectors are optional (generic ones serve tensor instructions too).
    if let Some((key, _)) = keys[..4].iter().find(|(_, v)| units > 0 && *v == 0) {
        return Err(invalid(
            key,
            format!(
                "is needed (at least 1) with units.tensor = {units}: the tensor-core units' timing"
            ),
        ));
    }
    // Pipeline registers of a class without units are harmless (a file without `[pipeline]`
    // gets 64 of each).
    let timed = [keys[0], keys[1], keys[4]];
    if let Some((key, v)) = timed.iter().find(|(_, v)| units == 0 && *v > 0) {
        return Err(invalid(
            key,
            format!(
                "{v} times tensor-core units, but units.tensor = 0: set units.tensor or make it 0"
            ),
        ));
    }
    Ok(())
}

/// The Volta keys' relations: where double precision runs, the partition hash's slice counts,
/// the unified L1 / shared-memory array and its carve-outs.
fn volta_shape(c: &GpuConfig) -> Result<(), ConfigError> {
    if c.units.dp > 0 && c.units.dp_on_sfu {
        return Err(invalid(
            "units.dp",
            format!(
                "{} DP units and units.dp_on_sfu = true both say where double precision runs: set one",
                c.units.dp
            ),
        ));
    }
    let partitions = c.dram.partitions.max(1);
    let per_partition = (c.l2.slices / partitions).max(1);
    match c.l2.partition_index {
        super::PartitionIndex::Consecutive | super::PartitionIndex::Random => {}
        super::PartitionIndex::Xor => {
            if !partitions.is_power_of_two() || !per_partition.is_power_of_two() {
                return Err(invalid(
                    "l2.partition_index",
                    format!("\"xor\" needs a power-of-two dram.partitions and slices per partition, got {partitions} and {per_partition}"),
                ));
            }
        }
        super::PartitionIndex::Ipoly => {
            let slices = partitions.next_power_of_two() * per_partition;
            if ![16, 32, 64].contains(&slices) {
                return Err(invalid(
                    "l2.partition_index",
                    format!(
                        "\"ipoly\" is defined for 16, 32 or 64 slices (dram.partitions rounded up to a power of two × slices per partition), got {slices}"
                    ),
                ));
            }
        }
    }
    let d = &c.l1d;
    if d.unified_size == 0 {
        return Ok(());
    }
    if !d.unified_size.is_multiple_of(d.size) {
        return Err(invalid(
            "l1d.unified_size",
            format!(
                "{} is not a multiple of l1d.size = {} (the carve-outs scale the L1's ways)",
                d.unified_size, d.size
            ),
        ));
    }
    let set_bytes = d.size / d.assoc.max(1);
    let Some(&largest) = d.shared_carveouts.iter().max() else {
        return Err(invalid(
            "l1d.shared_carveouts",
            "needs at least one size when l1d.unified_size is set",
        ));
    };
    if largest < c.sm.shared_memory || largest > d.unified_size - set_bytes {
        return Err(invalid(
            "l1d.shared_carveouts",
            format!(
                "the largest, {largest}, must hold sm.shared_memory = {} and leave the L1 a way ({} bytes) of l1d.unified_size = {}",
                c.sm.shared_memory, set_bytes, d.unified_size
            ),
        ));
    }
    Ok(())
}

/// DRAM keys that depend on each other: groups split the banks evenly, a request is a
/// power-of-two part of an L2 line, the bank interleave a power-of-two part of a row.
fn dram_shape(c: &GpuConfig) -> Result<(), ConfigError> {
    let d = &c.dram;
    if d.bank_groups > d.banks || !d.banks.is_multiple_of(d.bank_groups) {
        return Err(invalid(
            "dram.bank_groups",
            format!(
                "{} groups cannot split dram.banks = {} evenly",
                d.bank_groups, d.banks
            ),
        ));
    }
    if d.request_bytes != 0 {
        power_of_two("dram.request_bytes", d.request_bytes)?;
        if d.request_bytes > c.l2.line {
            return Err(invalid(
                "dram.request_bytes",
                format!(
                    "{} is larger than l2.line = {} (0 = one request per line)",
                    d.request_bytes, c.l2.line
                ),
            ));
        }
    }
    if d.bank_interleave != 0 {
        power_of_two("dram.bank_interleave", d.bank_interleave)?;
        let row = d.row_bytes();
        if d.bank_interleave as u64 > row {
            let per_chip = super::Dram::ROW_BYTES_PER_CHIP;
            return Err(invalid(
                "dram.bank_interleave",
                format!(
                    "{} is larger than a row ({row} bytes = {per_chip} × dram.chips; 0 = a row)",
                    d.bank_interleave
                ),
            ));
        }
    }
    Ok(())
}
