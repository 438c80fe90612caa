//! The KAWS paper's programs (paper 002, Table 2; set `kaws`): Table 2's rows and the set
//! agree, every program written for the set verifies at `Size::Small` within the small-run
//! budget and launches only the CTA shapes its launch metadata declares, the TITAN X (Pascal)
//! occupancy of every kernel of the set is printed from the committed `.ptxas` reports, and
//! (ignored, slow) at `Size::Paper` every program makes Table 2's launches.

use crate::common;

use std::collections::BTreeSet;

use warpsim_core::config::GpuConfig;
use warpsim_core::device::Device;
use warpsim_core::occupancy::{ctas_per_sm, CtaDemand};
use warpsim_suite::kaws::{KAWS_TABLE2, KAWS_TABLE2_AVERAGE_PERCENT};
use warpsim_suite::{program, programs, set, workload_info, Size};

/// Programs written for this set (the others are tested with the set they were written for).
macro_rules! written_here {
    ($($name:ident),* $(,)?) => {
        mod small {
            $(
                #[test]
                fn $name() {
                    super::small(stringify!($name));
                }
            )*
        }

        /// Every program whose only set is `kaws` has a test above.
        #[test]
        fn every_kaws_program_is_tested() {
            let tested: BTreeSet<&str> = [$(stringify!($name)),*].into_iter().collect();
            let registered: BTreeSet<&str> =
                programs().iter().filter(|p| p.sets == ["kaws"]).map(|p| p.name).collect();
            assert_eq!(tested, registered);
        }
    };
}

written_here!(
    dnn_resnet,
    parboil_mriq,
    poly_3dconv,
    poly_3mm,
    rod_hotspot_kaws,
    rod_streamcluster_kaws,
    sdk_quasirandom,
);

fn small(name: &str) {
    common::run_declared(name, Size::Small);
}

/// Every row names a registered program of set `kaws`, no program twice, and the set holds
/// exactly the table's programs; the table's own average is what its rows give.
#[test]
fn table2_rows_match_the_set() {
    assert_eq!(KAWS_TABLE2.len(), 9, "Table 2 has 9 benchmarks");
    let members: BTreeSet<&str> = set("kaws")
        .expect("set kaws")
        .iter()
        .map(|p| p.name)
        .collect();
    let mut named = BTreeSet::new();
    for row in KAWS_TABLE2 {
        let p =
            program(row.ours).unwrap_or_else(|| panic!("{}: no program {}", row.name, row.ours));
        assert!(
            p.sets.contains(&"kaws"),
            "{}: {} is not in set kaws",
            row.name,
            row.ours
        );
        assert!(named.insert(row.ours), "{} stands for two rows", row.ours);
        assert!(!row.note.is_empty(), "{}: no note", row.name);
        let pct = 100.0 * row.last_cta_kaws / row.last_cta_gto;
        assert!(
            (pct - row.last_cta_percent).abs() < 0.01,
            "{}: {pct:.2}% vs the printed {}",
            row.name,
            row.last_cta_percent
        );
    }
    assert_eq!(named, members);
    let mean =
        KAWS_TABLE2.iter().map(|r| r.last_cta_percent).sum::<f64>() / KAWS_TABLE2.len() as f64;
    assert!(
        (mean - KAWS_TABLE2_AVERAGE_PERCENT).abs() < 0.01,
        "mean {mean:.3}%"
    );
}

/// Registers, shared memory and CTAs/SM of every kernel of the set on titanx-pascal (printed
/// for the docs; the CTA shapes come from the launch metadata, which every program of the set
/// but baws_bt declares; its BAWS Table 2 row gives 256 threads).
#[test]
fn occupancy_report() {
    let titanx = GpuConfig::load("titanx-pascal").expect("titanx-pascal preset");
    for row in KAWS_TABLE2 {
        let res = program(row.ours).unwrap().resources().unwrap();
        let shapes: Vec<(&str, u32)> = match workload_info(row.ours) {
            Some(info) => info
                .kernels
                .iter()
                .map(|k| (k.kernel, k.threads()))
                .collect(),
            None => res.iter().map(|k| (k.name.as_str(), 256)).collect(),
        };
        for (kernel, threads) in shapes {
            let k = res.iter().find(|k| k.name == kernel).unwrap();
            let demand = CtaDemand {
                threads,
                registers: k.registers,
                shared_bytes: k.shared_bytes,
            };
            let (ctas, limiter) = ctas_per_sm(&titanx.sm, &demand);
            assert!(ctas > 0, "{}: {kernel} does not fit an SM", row.ours);
            eprintln!(
                "{:5} {:22} {:40} {threads:>4} threads, {:2} regs, {:5} B smem: {ctas} CTAs/SM ({limiter:?})",
                row.name, row.ours, kernel, k.registers, k.shared_bytes
            );
        }
    }
}

/// At `Size::Paper` every program makes Table 2's number of launches, each with one of
/// Table 2's CTA counts (or one the row names as ours besides them), and every Table 2 count
/// occurs. The launches are counted from the device's real launch list after a functional
/// run (there is no launch list without running the host program, whose later launches
/// depend on earlier results). Slow: `cargo test -p warpsim-suite --release --test integration -- kaws:: --ignored`.
#[test]
#[ignore]
fn paper_launches_match_table2() {
    for row in KAWS_TABLE2 {
        let mut dev = Device::new();
        common::run_on(&mut dev, row.ours, Size::Paper);
        let ctas: Vec<u32> = dev
            .launch_records()
            .iter()
            .map(|r| r.grid.x * r.grid.y * r.grid.z)
            .collect();
        assert_eq!(
            ctas.len(),
            row.launches as usize,
            "{}: launches vs Table 2",
            row.name
        );
        let allowed: BTreeSet<u32> = row.ctas.iter().chain(row.other_ctas).copied().collect();
        let seen: BTreeSet<u32> = ctas.iter().copied().collect();
        assert!(
            seen.is_subset(&allowed),
            "{}: CTA counts {seen:?}, Table 2 {:?}",
            row.name,
            row.ctas
        );
        assert!(
            row.ctas.iter().all(|c| seen.contains(c)),
            "{}: CTA counts {seen:?}, Table 2 {:?}",
            row.name,
            row.ctas
        );
    }
}
