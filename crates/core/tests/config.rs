//! GPU presets, TOML files and overrides: every bad input names its key.

use warpsim_core::config::{BankGroupIndex, ConfigError, GpuConfig, SetIndex, PRESETS};

/// `preset` with the `key=value` overrides `o`.
fn load(preset: &str, o: &[&str]) -> Result<GpuConfig, ConfigError> {
    GpuConfig::load_with(preset, &o.iter().map(|s| s.to_string()).collect::<Vec<_>>())
}

/// "key: why" of the `Invalid` error that `preset` with the overrides `o` must give.
fn invalid(preset: &str, o: &[&str]) -> String {
    match load(preset, o) {
        Err(ConfigError::Invalid { key, why }) => format!("{key}: {why}"),
        other => panic!("{o:?}: {other:?}"),
    }
}

#[test]
fn presets_load_and_round_trip() {
    for (name, _) in PRESETS {
        let c = GpuConfig::load(name).unwrap();
        assert_eq!(c.name, *name);
        let again = GpuConfig::from_toml("resolved", &c.to_toml(), &[]).unwrap();
        assert_eq!(again, c, "{name}");
    }
    let g = GpuConfig::load("gtx480").unwrap();
    assert_eq!(
        (
            g.gpu.num_sms,
            g.sm.schedulers,
            g.sm.max_warps,
            g.l1d.size,
            g.l2.slices
        ),
        (15, 2, 48, 16384, 12)
    );
    let p = GpuConfig::load("titanx-pascal").unwrap();
    assert_eq!(
        (p.gpu.num_sms, p.sm.schedulers, p.sm.sub_core, p.l2.index),
        (28, 4, true, SetIndex::Ipoly)
    );
}

#[test]
fn overrides_change_only_their_key() {
    let base = GpuConfig::load("gtx480").unwrap();
    let c = GpuConfig::load_with(
        "gtx480",
        &[
            "gpu.num_sms=14".into(),
            "sm.ibuffer_entries = 4".into(),
            "l1d.set_hash=linear".into(),
        ],
    )
    .unwrap();
    assert_eq!(
        (c.gpu.num_sms, c.sm.ibuffer_entries, c.l1d.set_hash),
        (14, 4, SetIndex::Linear)
    );
    assert_eq!(c.l2, base.l2);
}

#[test]
fn overrides_that_change_the_config_label_it() {
    let load = |o: &[&str]| {
        GpuConfig::load_with(
            "gtx480",
            &o.iter().map(|s| s.to_string()).collect::<Vec<_>>(),
        )
        .unwrap()
    };
    assert_eq!(
        load(&["sm.schedulers = 4"]).name,
        "gtx480 + sm.schedulers=4"
    );
    assert_eq!(
        load(&["sm.schedulers=4", "l1d.set_hash=linear"]).name,
        "gtx480 + sm.schedulers=4 + l1d.set_hash=linear"
    );
    // gtx480's own values change nothing, so neither the results nor the label.
    assert_eq!(
        load(&["sm.ibuffer_entries=2", "gpu.core_clock_mhz=700"]).name,
        "gtx480"
    );
    assert_eq!(
        load(&["name=mine", "sm.schedulers=4"]).name,
        "mine + sm.schedulers=4"
    );
    // A resolved config keeps its label; further overrides add to it.
    let c = load(&["sm.schedulers=4"]);
    let again = GpuConfig::from_toml("resolved", &c.to_toml(), &[]).unwrap();
    assert_eq!(again, c);
    assert_eq!(
        c.with_overrides(&["l1d.mshrs=32".into()]).unwrap().name,
        "gtx480 + sm.schedulers=4 + l1d.mshrs=32"
    );
}

#[test]
fn a_file_may_start_from_a_preset() {
    let text =
        "base = \"gtx480\"\n[sm]\nschedulers = 4\n[l1d]\nset_hash = \"linear\"\nmshrs = 64\n";
    let c = GpuConfig::from_toml("mine.toml", text, &[]).unwrap();
    let g = GpuConfig::load("gtx480").unwrap();
    assert_eq!(
        (c.sm.schedulers, c.l1d.set_hash, c.l1d.size, c.l2),
        (4, SetIndex::Linear, g.l1d.size, g.l2.clone())
    );
    // The changed keys label it (mshrs = 64 is gtx480's own value); -c overrides follow.
    assert_eq!(c.name, "gtx480 + l1d.set_hash=\"linear\" + sm.schedulers=4");
    let c = GpuConfig::from_toml("mine.toml", text, &["gpu.num_sms=14".into()]).unwrap();
    assert_eq!(
        c.name,
        "gtx480 + l1d.set_hash=\"linear\" + sm.schedulers=4 + gpu.num_sms=14"
    );
    // A name of the file's own is its label.
    let named =
        GpuConfig::from_toml("mine.toml", &format!("name = \"fermi4\"\n{text}"), &[]).unwrap();
    assert_eq!((named.name.as_str(), named.sm.schedulers), ("fermi4", 4));
    let p = GpuConfig::from_toml("p.toml", "base = \"titanx-pascal\"\n", &[]).unwrap();
    assert_eq!(p, GpuConfig::load("titanx-pascal").unwrap());
    // Bad bases and keys are named.
    let e = GpuConfig::from_toml("mine.toml", "base = \"gtx580\"\n", &[]).unwrap_err();
    assert_eq!(
        e.to_string(),
        "`base`: \"gtx580\" is not a preset (presets: gtx480, titanx-pascal, qv100, rtx2060, rtx3070)"
    );
    let e = GpuConfig::from_toml("mine.toml", "base = 4\n", &[]).unwrap_err();
    assert!(
        e.to_string().starts_with("`base`: 4 is not a preset"),
        "{e}"
    );
    let e = GpuConfig::from_toml(
        "mine.toml",
        "base = \"gtx480\"\n[sm]\nschedulerz = 4\n",
        &[],
    )
    .unwrap_err();
    assert!(
        matches!(&e, ConfigError::UnknownKey { key, .. } if key == "sm.schedulerz"),
        "{e}"
    );
    let e = GpuConfig::from_toml(
        "mine.toml",
        "base = \"gtx480\"\n[sm]\nschedulers = 0\n",
        &[],
    )
    .unwrap_err();
    assert!(e.to_string().contains("sm.schedulers"), "{e}");
}

#[test]
fn unknown_preset_lists_the_presets() {
    let e = GpuConfig::load("gtx580").unwrap_err();
    assert_eq!(
        e,
        ConfigError::UnknownPreset {
            name: "gtx580".into(),
            available: vec![
                "gtx480".into(),
                "titanx-pascal".into(),
                "qv100".into(),
                "rtx2060".into(),
                "rtx3070".into()
            ]
        }
    );
}

#[test]
fn unknown_override_key_lists_valid_keys() {
    let e = GpuConfig::load_with("gtx480", &["sm.schedulerz=4".into()]).unwrap_err();
    match e {
        ConfigError::UnknownKey { key, valid } => {
            assert_eq!(key, "sm.schedulerz");
            assert!(valid.contains(&"sm.schedulers".to_string()), "{valid:?}");
        }
        e => panic!("{e}"),
    }
}

#[test]
fn unknown_key_in_a_file_is_rejected() {
    let text = GpuConfig::load("gtx480")
        .unwrap()
        .to_toml()
        .replace("[l1d]\n", "[l1d]\nsize_kb = 16\n");
    let e = GpuConfig::from_toml("mine.toml", &text, &[]).unwrap_err();
    assert!(
        matches!(&e, ConfigError::UnknownKey { key, .. } if key == "l1d.size_kb"),
        "{e}"
    );
}

/// `policy.cff.partial` became `policy.cff.eligibility`: an old override or an old resolved
/// `config.toml` is refused with the new key's name, never read with another meaning.
#[test]
fn the_replaced_cff_partial_key_names_its_successor() {
    for e in [
        GpuConfig::load_with("gtx480", &["policy.cff.partial=false".into()]).unwrap_err(),
        GpuConfig::from_toml(
            "old.toml",
            &GpuConfig::load("gtx480")
                .unwrap()
                .to_toml()
                .replace("[policy.cff]\n", "[policy.cff]\npartial = true\n"),
            &[],
        )
        .unwrap_err(),
    ] {
        let text = e.to_string();
        assert!(
            text.contains("policy.cff.partial")
                && text.contains("policy.cff.eligibility")
                && text.contains("\"empty\""),
            "{text}"
        );
    }
    let c = GpuConfig::load_with("gtx480", &["policy.cff.eligibility=block".into()]).unwrap();
    assert_eq!(
        c.policy.cff.eligibility,
        warpsim_core::config::FetchEligibility::Block
    );
    let e = GpuConfig::load_with("gtx480", &["policy.cff.eligibility=some".into()]).unwrap_err();
    assert!(e.to_string().contains("eligibility"), "{e}");
}

#[test]
fn wrong_value_type_names_the_key() {
    let e = GpuConfig::load_with("gtx480", &["sm.schedulers=\"two\"".into()]).unwrap_err();
    assert!(e.to_string().contains("schedulers"), "{e}");
}

#[test]
fn impossible_values_are_explained() {
    let e = GpuConfig::load_with("gtx480", &["l1d.assoc=3".into()]).unwrap_err();
    assert!(
        matches!(&e, ConfigError::Invalid { key, .. } if key == "l1d.size"),
        "{e}"
    );
    let e = GpuConfig::load_with("gtx480", &["sm.schedulers=0".into()]).unwrap_err();
    assert_eq!(
        e,
        ConfigError::Invalid {
            key: "sm.schedulers".into(),
            why: "0 is out of range 1..=16".into()
        }
    );
    let e = GpuConfig::load_with("gtx480", &["l2.slices=7".into()]).unwrap_err();
    assert!(
        matches!(&e, ConfigError::Invalid { key, .. } if key == "l2.slices"),
        "{e}"
    );
    for bad in ["l2.slice_interleave=192", "l2.slice_interleave=64"] {
        let e = GpuConfig::load_with("gtx480", &[bad.into()]).unwrap_err();
        assert!(
            matches!(&e, ConfigError::Invalid { key, .. } if key == "l2.slice_interleave"),
            "{bad}: {e}"
        );
    }
    let e = GpuConfig::load_with("gtx480", &["sm".into()]).unwrap_err();
    assert_eq!(e, ConfigError::BadOverride { text: "sm".into() });
    for bad in ["0", "1000000001"] {
        let e = GpuConfig::load_with("titanx-pascal", &[format!("policy.pro.threshold={bad}")])
            .unwrap_err();
        let why = format!("{bad} is out of range 1..=1000000000");
        assert_eq!(
            e,
            ConfigError::Invalid {
                key: "policy.pro.threshold".into(),
                why
            },
            "{bad}"
        );
    }
    let ok = GpuConfig::load_with("gtx480", &["policy.pro.threshold=1".into()]).unwrap();
    assert_eq!(
        (
            ok.policy.pro.threshold,
            GpuConfig::load("gtx480").unwrap().policy.pro.threshold
        ),
        (1, 1000)
    );
}

/// Keys the timing model does not read are not accepted as if they did something: the
/// interconnect and L2 clocks must equal the core clock, and the unmodelled pipeline widths and
/// coalescer segment size are not keys at all.
#[test]
fn unmodelled_settings_are_rejected_not_ignored() {
    let e = GpuConfig::load_with("gtx480", &["gpu.l2_clock_mhz=900".into()]).unwrap_err();
    assert!(
        matches!(&e, ConfigError::Invalid { key, why } if key == "gpu.l2_clock_mhz" && why.contains("core clock")),
        "{e}"
    );
    let e = GpuConfig::load_with("gtx480", &["gpu.icnt_clock_mhz=1400".into()]).unwrap_err();
    assert!(
        matches!(&e, ConfigError::Invalid { key, .. } if key == "gpu.icnt_clock_mhz"),
        "{e}"
    );
    for key in ["units.id_oc_width.mem=2", "coalescer.segment_bytes=64"] {
        let e = GpuConfig::load_with("gtx480", &[key.into()]).unwrap_err();
        assert!(e.to_string().contains("unknown key"), "{key}: {e}");
    }
}

#[test]
fn a_sectored_l2_needs_at_most_32_sectors_per_line() {
    let o = |v: &[&str]| v.iter().map(|s| s.to_string()).collect::<Vec<_>>();
    let e = GpuConfig::load_with("gtx480", &o(&["coalescer.sector_bytes=4", "l2.line=256"]))
        .unwrap_err();
    assert_eq!(e.to_string(), "`l2.sectored`: needs at most 32 sectors per line: l2.line = 256 / coalescer.sector_bytes = 4 is 64");
    assert!(GpuConfig::load_with(
        "gtx480",
        &o(&[
            "coalescer.sector_bytes=4",
            "l2.line=256",
            "l2.sectored=false"
        ])
    )
    .is_ok());
    let e = GpuConfig::load_with("gtx480", &o(&["l1i.miss_path=sometimes"]))
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("unknown variant `sometimes`, expected `fixed` or `memory`")
            && e.contains("l1i.miss_path"),
        "{e}"
    );
}

#[test]
fn missing_file_is_an_io_error() {
    let e = GpuConfig::load("/nonexistent/gpu.toml").unwrap_err();
    assert!(matches!(e, ConfigError::Io { .. }), "{e}");
}

/// Values that used to be clamped, misattributed or allowed to allocate gigabytes.
#[test]
fn nothing_is_clamped_or_misattributed() {
    let err = |o: &str| invalid("gtx480", &[o]);
    assert_eq!(
        err("l1d.miss_queue=0"),
        "l1d.miss_queue: 0 is out of range 1..=4096"
    );
    assert_eq!(
        err("coalescer.sector_bytes=0"),
        "coalescer.sector_bytes: 0 is out of range 4..=4096"
    );
    assert_eq!(
        err("coalescer.sector_bytes=7"),
        "coalescer.sector_bytes: must be a power of two, got 7"
    );
    assert_eq!(
        err("coalescer.sector_bytes=256"),
        "coalescer.sector_bytes: 256 is larger than l1d.line = 128"
    );
    assert_eq!(
        err("l1d.sector=64"),
        "l1d.sector: 64 differs from coalescer.sector_bytes = 32: a sectored L1 (l1d.sector < \
         l1d.line = 128) uses the coalescer's sectors"
    );
    assert_eq!(err("l1d.line=1"), "l1d.line: 1 is out of range 8..=4096");
    for key in [
        "dram.queue",
        "dram.banks",
        "l1d.mshrs",
        "operand_collectors.sp",
        "gpu.num_sms",
    ] {
        assert!(
            err(&format!("{key}=4000000000"))
                .starts_with(&format!("{key}: 4000000000 is out of range ")),
            "{key}"
        );
    }
}

/// The collector model: titanx-pascal has per-scheduler collectors, gtx480 its pool; the key
/// has a range, and a model with no collector at all is refused with the way out named.
#[test]
fn operand_collector_models_are_checked() {
    assert_eq!(
        load("titanx-pascal", &[])
            .unwrap()
            .operand_collectors
            .per_scheduler,
        1
    );
    assert_eq!(
        load("gtx480", &[])
            .unwrap()
            .operand_collectors
            .per_scheduler,
        0
    );
    let err = invalid;
    assert_eq!(
        err("titanx-pascal", &["operand_collectors.per_scheduler=17"]),
        "operand_collectors.per_scheduler: 17 is out of range 0..=16"
    );
    assert_eq!(
        err("titanx-pascal", &["operand_collectors.per_scheduler=0", "operand_collectors.generic=0"]),
        "operand_collectors: needs at least one collector unit: a pool (sp / sfu / mem / generic > 0) or per_scheduler > 0"
    );
    // Per-scheduler collectors need no pool; the pool alone is the old model.
    assert!(load("titanx-pascal", &["operand_collectors.generic=0"]).is_ok());
    assert!(load("titanx-pascal", &["operand_collectors.per_scheduler=0"]).is_ok());
}

/// The pipeline stages: both presets set them, each key has a range, and a file written before
/// the section existed loads with none (the model it was written for).
#[test]
fn pipeline_stages_are_checked_and_optional_in_a_file() {
    let g = load("gtx480", &[]).unwrap().pipeline;
    assert_eq!(
        (g.collect, g.dispatch, g.writeback, g.overhead()),
        (1, 3, 2, 6)
    );
    assert_eq!(load("titanx-pascal", &[]).unwrap().pipeline.overhead(), 5);
    match load("gtx480", &["pipeline.dispatch=65"]) {
        Err(ConfigError::Invalid { key, why }) => assert_eq!(
            format!("{key}: {why}"),
            "pipeline.dispatch: 65 is out of range 0..=64"
        ),
        other => panic!("{other:?}"),
    }
    let full = load("gtx480", &[]).unwrap().to_toml();
    let start = full
        .find("[pipeline]")
        .expect("the resolved config has the section");
    let end = start + full[start..].find("\n\n").unwrap_or(full.len() - start);
    let without = format!("{}{}", &full[..start], &full[end..]);
    let old = GpuConfig::from_toml("old.toml", &without, &[]).unwrap();
    assert_eq!(old.pipeline.overhead(), 0);
}

/// The DRAM structure keys: both presets set GPGPU-Sim's bank groups and sector requests, and
/// shapes that cannot work are errors naming the key.
#[test]
fn dram_structure_keys_are_checked() {
    let g = load("gtx480", &[]).unwrap().dram;
    assert_eq!((g.bank_groups, g.tCCDL, g.request_bytes), (4, 3, 32));
    let t = load("titanx-pascal", &[]).unwrap().dram;
    assert_eq!(
        (t.bank_groups, t.bank_group_index, t.bank_interleave),
        (4, BankGroupIndex::Low, 128)
    );
    let err = |o: &[&str]| invalid("gtx480", o);
    assert_eq!(
        err(&["dram.bank_groups=3"]),
        "dram.bank_groups: 3 groups cannot split dram.banks = 16 evenly"
    );
    assert_eq!(
        err(&["dram.request_bytes=48"]),
        "dram.request_bytes: must be a power of two, got 48"
    );
    assert_eq!(
        err(&["dram.request_bytes=256"]),
        "dram.request_bytes: 256 is larger than l2.line = 128 (0 = one request per line)"
    );
    assert_eq!(err(&["dram.bank_interleave=8192"]), "dram.bank_interleave: 8192 is larger than a row (4096 bytes = 2048 × dram.chips; 0 = a row)");
    assert_eq!(
        err(&["dram.tCCDL=10001"]),
        "dram.tCCDL: 10001 is out of range 0..=10000"
    );
    // A file written before the keys existed loads with the old model: no groups, no turnaround,
    // one command per line.
    let full = load("gtx480", &[]).unwrap().to_toml();
    let without: String = full
        .lines()
        .filter(|l| {
            ![
                "bank_groups",
                "bank_group_index",
                "tCCDL",
                "tRTPL",
                "tWTR",
                "tRTW",
                "tWR",
                "request_bytes",
                "bank_interleave",
            ]
            .iter()
            .any(|k| l.starts_with(&format!("{k} =")))
        })
        .collect::<Vec<_>>()
        .join("\n");
    let old = GpuConfig::from_toml("old.toml", &without, &[])
        .unwrap()
        .dram;
    assert_eq!(
        (
            old.bank_groups,
            old.tCCDL,
            old.tWTR,
            old.request_bytes,
            old.bank_interleave
        ),
        (1, 0, 0, 0, 0)
    );
}

/// `latency.other` / `initiation.other` (GPGPU-Sim's `ALU_OP`: logic, moves, compares…): both
/// presets set 1, each has a range, and a file without them keeps the int add entry for those
/// instructions (the model it was written for). `sm.atomics_block_warp` defaults to true,
/// `sm.ldst_queue` to 0 (no queue), `sm.ldst_writeback` to false (no writeback port).
#[test]
fn other_instructions_latency_is_checked_and_optional_in_a_file() {
    for p in ["gtx480", "titanx-pascal"] {
        let c = load(p, &[]).unwrap();
        assert_eq!(
            (c.latency.other, c.initiation.other),
            (Some(1), Some(1)),
            "{p}"
        );
        assert!(c.sm.atomics_block_warp, "{p}");
        assert!(c.sm.ldst_writeback, "{p}");
    }
    assert_eq!(load("gtx480", &[]).unwrap().sm.ldst_queue, 4);
    assert_eq!(load("titanx-pascal", &[]).unwrap().sm.ldst_queue, 16);
    match load("gtx480", &["sm.ldst_queue=65"]) {
        Err(ConfigError::Invalid { key, why }) => assert_eq!(
            format!("{key}: {why}"),
            "sm.ldst_queue: 65 is out of range 0..=64"
        ),
        other => panic!("{other:?}"),
    }
    match load("gtx480", &["latency.other=0"]) {
        Err(ConfigError::Invalid { key, why }) => assert_eq!(
            format!("{key}: {why}"),
            "latency.other: 0 is out of range 1..=100000"
        ),
        other => panic!("{other:?}"),
    }
    let full = load("gtx480", &[]).unwrap().to_toml();
    let without: String = full
        .lines()
        .filter(|l| {
            ![
                "other =",
                "atomics_block_warp =",
                "ldst_queue =",
                "ldst_writeback =",
            ]
            .iter()
            .any(|k| l.starts_with(k))
        })
        .map(|l| format!("{l}\n"))
        .collect();
    assert_ne!(without, full);
    let old = GpuConfig::from_toml("old.toml", &without, &[]).unwrap();
    assert_eq!((old.latency.other, old.initiation.other), (None, None));
    assert!(old.sm.atomics_block_warp);
    assert_eq!(old.sm.ldst_queue, 0);
    assert!(!old.sm.ldst_writeback);
}

/// The policy tables' defaults are declared once (`policy.rs`), not in the presets; a resolved
/// configuration still lists every key, a file may give any subset of a table, and a key the
/// table lacks is an error naming the valid ones.
#[test]
fn policy_tables_default_once_and_resolve_in_full() {
    use warpsim_core::config::{CffMerge, LongMarks, PolicyParams, PRESETS};
    for (name, text) in PRESETS {
        assert!(
            !text.contains("\n[policy"),
            "{name}: the preset repeats a policy table"
        );
        let resolved = GpuConfig::load(name).unwrap().to_toml();
        for table in PolicyParams::default_table().keys() {
            for key in PolicyParams::keys(table) {
                let (section, leaf) = key.rsplit_once('.').unwrap();
                let at = resolved
                    .find(&format!("[{section}]\n"))
                    .unwrap_or_else(|| panic!("{name}: no [{section}] in\n{resolved}"));
                assert!(
                    resolved[at..].contains(&format!("\n{leaf} = ")),
                    "{name}: `{key}` missing from the resolved config"
                );
            }
        }
    }
    let c = GpuConfig::from_toml(
        "mine.toml",
        "base = \"gtx480\"\n[policy.cff]\nmerge = \"rank\"\n",
        &[],
    )
    .unwrap();
    assert_eq!(c.policy.cff.merge, CffMerge::Rank);
    assert_eq!(
        c.policy.cff.eligibility,
        PolicyParams::default().cff.eligibility
    );
    assert_eq!(c.policy.tls, PolicyParams::default().tls);
    assert!(c.name.contains("policy.cff.merge"), "{}", c.name);
    match GpuConfig::load_with("gtx480", &["policy.tls.size=4".into()]).unwrap_err() {
        ConfigError::UnknownKey { key, valid } => {
            assert_eq!(key, "policy.tls.size");
            assert_eq!(valid, ["policy.tls.active", "policy.tls.long_marks"]);
        }
        e => panic!("{e:?}"),
    }
    // An enumerated key: the value is checked and the valid ones named.
    let e = GpuConfig::load_with("gtx480", &["policy.tls.long_marks=always".into()]).unwrap_err();
    let text = e.to_string();
    assert!(
        text.contains("policy.tls.long_marks") && text.contains("`sticky` or `pending`"),
        "{text}"
    );
    let c = GpuConfig::load_with("gtx480", &["policy.tls.long_marks=pending".into()]).unwrap();
    assert_eq!(c.policy.tls.long_marks, LongMarks::Pending);
    let e = GpuConfig::load_with("gtx480", &["policy.tls.active=65".into()]).unwrap_err();
    assert!(e.to_string().contains("65 is out of range 1..=64"), "{e}");
    let small = [
        "sm.max_threads=256",
        "sm.max_warps=8",
        "policy.tls.active=9",
    ]
    .map(String::from);
    match GpuConfig::load_with("gtx480", &small).unwrap_err() {
        ConfigError::Invalid { key, why } => {
            assert_eq!(key, "policy.tls.active");
            assert!(why.contains("sm.max_warps = 8, got 9"), "{why}");
        }
        e => panic!("{e:?}"),
    }
}

/// BookSim's router keys: off on every preset (0), GPGPU-Sim's values accepted, and values
/// the router cannot run with refused by name.
#[test]
fn the_router_keys_are_checked() {
    // BookSim's router where GPGPU-Sim's config runs BookSim (`.icnt` internal_speedup 2.0);
    // none where it runs its local crossbar (`-network_mode 2`).
    for (p, speedup) in [
        ("gtx480", 2.0),
        ("titanx-pascal", 2.0),
        ("qv100", 0.0),
        ("rtx2060", 0.0),
        ("rtx3070", 0.0),
    ] {
        let icnt = load(p, &[]).unwrap().icnt;
        assert_eq!(
            (icnt.internal_speedup, icnt.vc_buffer_flits),
            (speedup, 64),
            "{p}"
        );
    }
    let off = load("gtx480", &["icnt.internal_speedup=0"]).unwrap();
    assert_eq!(off.icnt.internal_speedup, 0.0);
    let err = |o: &[&str]| invalid("gtx480", o);
    assert_eq!(
        err(&["icnt.internal_speedup=0.1"]),
        "icnt.internal_speedup: 0.1 is out of range: 0 (no router) or 0.25..=16 router steps per cycle"
    );
    assert_eq!(
        err(&["icnt.internal_speedup=17"]),
        "icnt.internal_speedup: 17 is out of range 0..=16"
    );
    assert_eq!(
        err(&["icnt.internal_speedup=2", "icnt.head_of_line=false"]),
        "icnt.internal_speedup: describes the input-queued router: needs icnt.head_of_line = true"
    );
    assert_eq!(
        err(&["icnt.vc_buffer_flits=0"]),
        "icnt.vc_buffer_flits: 0 is out of range 1..=65536"
    );
}

/// `sm.branch_redirect`: `scheduler` (GPGPU-Sim's) on every preset, `issue` accepted, anything
/// else refused with the two values named; a file written before the key existed loads with
/// `issue`, the behaviour it was written for.
#[test]
fn branch_redirect_is_the_schedulers_on_every_preset_and_checked() {
    use warpsim_core::config::BranchRedirect;
    for &(p, _) in PRESETS {
        let c = GpuConfig::load(p).unwrap();
        assert_eq!(c.sm.branch_redirect, BranchRedirect::Scheduler, "{p}");
        assert_eq!(c.sm.branch_redirect.name(), "scheduler");
    }
    let c = GpuConfig::load_with("gtx480", &["sm.branch_redirect=issue".into()]).unwrap();
    assert_eq!(c.sm.branch_redirect, BranchRedirect::Issue);
    let e = GpuConfig::load_with("gtx480", &["sm.branch_redirect=later".into()]).unwrap_err();
    let text = e.to_string();
    assert!(
        text.contains("sm.branch_redirect") && text.contains("`issue` or `scheduler`"),
        "{text}"
    );
    let old = include_str!("../src/config/presets/gtx480.toml")
        .lines()
        .filter(|l| !l.starts_with("branch_redirect"))
        .collect::<Vec<_>>()
        .join("\n");
    let c = GpuConfig::from_toml("old.toml", &old, &[]).unwrap();
    assert_eq!(c.sm.branch_redirect, BranchRedirect::Issue);
}
