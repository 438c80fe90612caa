//! The tensor-core keys (`units.tensor`, `latency.tensor`, `initiation.tensor`,
//! `pipeline.id_oc_tensor`, `pipeline.oc_ex_tensor`, `operand_collectors.tensor`): the
//! presets' values from GPGPU-Sim's tested configs, their ranges and relations, and that a
//! configuration without tensor units writes none of them out.

use warpsim_core::config::{ConfigError, GpuConfig};

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
fn the_modern_presets_have_gpgpusims_four_tensor_units() {
    // -gpgpu_num_tensor_core_units 4, -ptx_opcode_latency_tesnor 64,
    // -ptx_opcode_initiation_tensor 64, ID_OC / OC_EX_TENSOR_CORE 4 in all three configs.
    for p in ["qv100", "rtx2060", "rtx3070"] {
        let c = load(p, &[]).unwrap();
        assert_eq!(
            (
                c.units.tensor,
                c.latency.tensor,
                c.initiation.tensor,
                c.pipeline.id_oc_tensor,
                c.pipeline.oc_ex_tensor,
                c.operand_collectors.tensor
            ),
            (4, 64, 64, 4, 4, 0),
            "{p}"
        );
        assert!(c.to_toml().contains("id_oc_tensor = 4"), "{p}");
    }
}

#[test]
fn the_old_presets_have_no_tensor_units_and_write_no_tensor_key() {
    for p in ["gtx480", "titanx-pascal"] {
        let c = load(p, &[]).unwrap();
        assert_eq!((c.units.tensor, c.latency.tensor), (0, 0), "{p}");
        // Resolved configurations (written beside every result) are what they were before the
        // keys existed.
        assert!(!c.to_toml().contains("tensor"), "{p}");
        let again: GpuConfig = toml::from_str(&c.to_toml()).unwrap();
        assert_eq!(again, c, "{p}");
    }
}

#[test]
fn tensor_units_need_their_timing_and_timing_needs_units() {
    assert_eq!(
        err("gtx480", &["units.tensor=4"]),
        "latency.tensor: is needed (at least 1) with units.tensor = 4: the tensor-core units' timing"
    );
    assert_eq!(
        err(
            "gtx480",
            &["units.tensor=4", "latency.tensor=64", "initiation.tensor=64"]
        ),
        "pipeline.id_oc_tensor: is needed (at least 1) with units.tensor = 4: the tensor-core units' timing"
    );
    let ok = [
        "units.tensor=4",
        "latency.tensor=64",
        "initiation.tensor=64",
        "pipeline.id_oc_tensor=1",
        "pipeline.oc_ex_tensor=1",
    ];
    assert_eq!(load("gtx480", &ok).unwrap().units.tensor, 4);
    assert_eq!(
        err("qv100", &["units.tensor=0"]),
        "latency.tensor: 64 times tensor-core units, but units.tensor = 0: set units.tensor or make it 0"
    );
    assert_eq!(
        err("rtx3070", &["initiation.tensor=0"]),
        "initiation.tensor: is needed (at least 1) with units.tensor = 4: the tensor-core units' timing"
    );
}

#[test]
fn the_tensor_keys_have_ranges() {
    assert_eq!(
        err("qv100", &["units.tensor=65"]),
        "units.tensor: 65 is out of range 0..=64"
    );
    assert_eq!(
        err("qv100", &["pipeline.id_oc_tensor=65"]),
        "pipeline.id_oc_tensor: 65 is out of range 0..=64"
    );
    assert_eq!(
        err("qv100", &["latency.tensor=100001"]),
        "latency.tensor: 100001 is out of range 0..=100000"
    );
}
