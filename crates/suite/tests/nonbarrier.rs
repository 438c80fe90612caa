//! The BAWS paper's non-barrier-intensive set (paper 000, Figures 11 and 14) and the other
//! Rodinia-style programs (`rodinia-extra`): every `rod_*` program verifies at `Size::Small`
//! (and, ignored, at `Size::Paper`).

use crate::common;

use std::collections::BTreeSet;

use warpsim_suite::{programs, set, workload_info, Size};

fn run(name: &str, size: Size) {
    common::run_declared(name, size);
}

macro_rules! programs {
    ($($name:ident),* $(,)?) => {
        mod small {
            $(
                #[test]
                fn $name() {
                    super::run(stringify!($name), warpsim_suite::Size::Small);
                }
            )*
        }

        /// The measurement sizes; slow in a test build:
        /// `cargo test -p warpsim-suite --release --test integration -- nonbarrier:: --ignored`.
        mod paper {
            $(
                #[test]
                #[ignore]
                fn $name() {
                    super::run(stringify!($name), warpsim_suite::Size::Paper);
                }
            )*
        }

        /// Every registered `rod_*` program has a test above, and they make up the set (the
        /// KAWS set's `rod_*_kaws` runs of these kernels are tested in tests/kaws.rs).
        #[test]
        fn every_rod_program_is_tested() {
            let tested: BTreeSet<&str> = [$(stringify!($name)),*].into_iter().collect();
            let registered: BTreeSet<&str> = programs()
                .iter()
                .filter(|p| p.name.starts_with("rod_") && p.sets != ["kaws"])
                .map(|p| p.name)
                .collect();
            assert_eq!(tested, registered);
            // Each is in the BAWS non-barrier set or, measured exit-wait intensive (rod_bfs),
            // in rodinia-extra.
            let in_sets: BTreeSet<&str> = ["baws-nonbarrier", "rodinia-extra"]
                .iter()
                .flat_map(|s| set(s).unwrap())
                .map(|p| p.name)
                .collect();
            assert_eq!(tested, in_sets);
        }
    };
}

programs!(
    rod_lud,
    rod_hotspot,
    rod_backprop,
    rod_particlefilter,
    rod_heartwall,
    rod_dwt2d,
    rod_bfs,
    rod_cfd,
    rod_pathfinder,
    rod_nw,
    rod_kmeans,
    rod_nn,
    rod_gaussian,
    rod_srad,
    rod_streamcluster,
);

/// Every kernel in a program's PTX is declared in its launch metadata, and vice versa.
#[test]
fn metadata_names_every_kernel() {
    for p in set("baws-nonbarrier")
        .unwrap()
        .into_iter()
        .chain(set("rodinia-extra").unwrap())
    {
        let info =
            workload_info(p.name).unwrap_or_else(|| panic!("{}: no launch metadata", p.name));
        let declared: BTreeSet<&str> = info.kernels.iter().map(|k| k.kernel).collect();
        let res = p.resources().unwrap_or_else(|e| panic!("{}: {e}", p.name));
        let reported: BTreeSet<&str> = res.iter().map(|k| k.name.as_str()).collect();
        assert_eq!(declared, reported, "{}", p.name);
        assert!(
            !info.barriers.is_empty() && !info.small.is_empty() && !info.paper.is_empty(),
            "{}",
            p.name
        );
    }
}
