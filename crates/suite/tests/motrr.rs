//! The MOTRR paper's programs (paper 004, Table 2; set `motrr`): Table 2's rows and the set
//! agree, every program written for the set verifies at `Size::Small` within the small-run
//! budget and launches only the CTA shapes its launch metadata declares, and the GTX 480
//! occupancy of every kernel of the set at the paper's 1024 threads per SM is printed from the
//! committed `.ptxas` reports.

use crate::common;

use std::collections::BTreeSet;

use warpsim_core::config::GpuConfig;
use warpsim_core::occupancy::{ctas_per_sm, CtaDemand};
use warpsim_suite::motrr::MOTRR_TABLE2;
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

        /// Every program whose only set is `motrr` has a test above.
        #[test]
        fn every_motrr_program_is_tested() {
            let tested: BTreeSet<&str> = [$(stringify!($name)),*].into_iter().collect();
            let registered: BTreeSet<&str> =
                programs().iter().filter(|p| p.sets == ["motrr"]).map(|p| p.name).collect();
            assert_eq!(tested, registered);
        }
    };
}

written_here!(parboil_stencil, poly_atax, poly_bicg, poly_mvt, sdk_sobol);

fn small(name: &str) {
    common::run_declared(name, Size::Small);
}

/// Every row names a registered program of set `motrr`, no program twice, and the set holds
/// exactly the table's programs.
#[test]
fn table2_rows_match_the_set() {
    assert_eq!(MOTRR_TABLE2.len(), 9, "Table 2 has 9 benchmarks");
    let members: BTreeSet<&str> = set("motrr")
        .expect("set motrr")
        .iter()
        .map(|p| p.name)
        .collect();
    let mut named = BTreeSet::new();
    for row in MOTRR_TABLE2 {
        let p =
            program(row.ours).unwrap_or_else(|| panic!("{}: no program {}", row.name, row.ours));
        assert!(
            p.sets.contains(&"motrr"),
            "{}: {} is not in set motrr",
            row.name,
            row.ours
        );
        assert!(named.insert(row.ours), "{} stands for two rows", row.ours);
        assert!(
            !row.note.is_empty() && !row.description.is_empty(),
            "{}: empty text",
            row.name
        );
    }
    assert_eq!(named, members);
}

/// Registers, shared memory and CTAs/SM of every kernel of the set on the GTX 480 limited to
/// the paper's 1024 threads per SM (printed for the docs; the CTA shapes come from the launch
/// metadata, which every program of the set declares).
#[test]
fn occupancy_report() {
    let mut gtx480 = GpuConfig::load("gtx480").expect("gtx480 preset");
    gtx480.sm.max_threads = 1024;
    for row in MOTRR_TABLE2 {
        let info =
            workload_info(row.ours).unwrap_or_else(|| panic!("{}: no launch metadata", row.ours));
        let res = program(row.ours).unwrap().resources().unwrap();
        for shape in info.kernels {
            let k = res.iter().find(|k| k.name == shape.kernel).unwrap();
            let demand = CtaDemand {
                threads: shape.threads(),
                registers: k.registers,
                shared_bytes: k.shared_bytes,
            };
            let (ctas, limiter) = ctas_per_sm(&gtx480.sm, &demand);
            assert!(
                ctas > 0,
                "{}: {} does not fit an SM",
                row.ours,
                shape.kernel
            );
            eprintln!(
                "{:6} {:16} {:28} {:>5} threads, {:2} regs, {:5} B smem: {ctas} CTAs/SM ({limiter:?})",
                row.name,
                row.ours,
                shape.kernel,
                shape.shape(),
                k.registers,
                k.shared_bytes
            );
        }
    }
}
