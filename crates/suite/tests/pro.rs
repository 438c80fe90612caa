//! The PRO paper's programs (paper 003, Table II; set `pro`): every program of the set
//! verifies at `Size::Small` within the small-run budget, launches only the CTA shapes its
//! launch metadata declares, and (ignored, slow) launches Table II's CTA counts at
//! `Size::Paper`. The occupancy of every kernel on the GTX 480 is printed from the committed
//! `.ptxas` reports.

use crate::common;

use std::collections::BTreeSet;

use warpsim_core::config::GpuConfig;
use warpsim_core::device::Device;
use warpsim_core::occupancy::{ctas_per_sm, CtaDemand};
use warpsim_suite::occupancy::BAWS_TABLE2;
use warpsim_suite::pro::PRO_TABLE2;
use warpsim_suite::{program, programs, set, workload_info, Size};

/// Runs `name` at `size` on a fresh functional device; returns the launches as
/// (kernel, CTAs, block).
fn run(name: &str, size: Size) -> Vec<(String, u32, [u32; 3])> {
    let mut dev = Device::new();
    common::run_on(&mut dev, name, size);
    dev.launch_records()
        .iter()
        .map(|r| {
            (
                r.kernel.clone(),
                r.grid.x * r.grid.y * r.grid.z,
                [r.block.x, r.block.y, r.block.z],
            )
        })
        .collect()
}

/// Programs written for this set (the others are tested with their first set).
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

        /// Every registered `ispass_*` / `sdk_*` program of set `pro` has a test above.
        #[test]
        fn every_pro_program_is_tested() {
            let tested: BTreeSet<&str> = [$(stringify!($name)),*].into_iter().collect();
            let registered: BTreeSet<&str> = programs()
                .iter()
                .filter(|p| p.sets.contains(&"pro"))
                .map(|p| p.name)
                .filter(|n| n.starts_with("ispass_") || n.starts_with("sdk_"))
                .collect();
            assert_eq!(tested, registered);
        }
    };
}

written_here!(
    ispass_aes,
    ispass_bfs,
    ispass_cp,
    ispass_lps,
    ispass_nn,
    ispass_ray,
    ispass_sto,
    sdk_convsep,
    sdk_histogram,
    sdk_montecarlo,
    sdk_scalarprod
);

fn small(name: &str) {
    common::run_declared(name, Size::Small);
}

/// Table II's rows name programs of set `pro` and kernels those programs have, and every
/// program of the set stands for some row.
#[test]
fn table2_rows_match_the_set() {
    let members: BTreeSet<&str> = set("pro").unwrap().iter().map(|p| p.name).collect();
    let mut named = BTreeSet::new();
    for row in PRO_TABLE2 {
        let Some((prog, kernel)) = row.ours else {
            continue;
        };
        assert!(
            members.contains(prog),
            "{}: {prog} is not in set pro",
            row.kernel
        );
        let res = program(prog).unwrap().resources().unwrap();
        assert!(
            res.iter().any(|k| k.name == kernel),
            "{prog} has no kernel {kernel}"
        );
        named.insert(prog);
    }
    assert_eq!(named, members);
    assert_eq!(PRO_TABLE2.len(), 25, "Table II has 25 kernels");
}

/// Registers, shared memory and CTAs/SM on the GTX 480 of every kernel a row names (printed
/// for the docs); the CTA shapes come from the launch metadata.
#[test]
fn occupancy_report() {
    let gtx480 = GpuConfig::load("gtx480").expect("gtx480 preset");
    for row in PRO_TABLE2 {
        let Some((prog, kernel)) = row.ours else {
            continue;
        };
        let res = program(prog).unwrap().resources().unwrap();
        let k = res.iter().find(|k| k.name == kernel).unwrap();
        // The BAWS programs declare no launch metadata; their Table 2 rows give the CTA size
        // (baws_bt launches both of its kernels with it).
        let threads = match workload_info(prog)
            .and_then(|i| i.kernels.iter().find(|s| s.kernel == kernel))
        {
            Some(shape) => shape.threads(),
            None => {
                BAWS_TABLE2
                    .iter()
                    .find(|r| r.program == prog)
                    .unwrap_or_else(|| panic!("{prog}: no launch metadata and no BAWS Table 2 row"))
                    .threads_per_cta
            }
        };
        let demand = CtaDemand {
            threads,
            registers: k.registers,
            shared_bytes: k.shared_bytes,
        };
        let (ctas, limiter) = ctas_per_sm(&gtx480.sm, &demand);
        assert!(ctas > 0, "{prog}: {kernel} does not fit an SM");
        eprintln!(
            "{:28} {prog:15} {threads:4} threads, {:2} regs, {:5} B smem: {ctas} CTAs/SM ({limiter:?})",
            row.kernel,
            k.registers,
            k.shared_bytes
        );
    }
}

/// At `Size::Paper` every program launches each kernel with Table II's CTA count. Slow in a
/// test build: `cargo test -p warpsim-suite --release --test integration -- pro:: --ignored`.
#[test]
#[ignore]
fn paper_cta_counts() {
    let progs: BTreeSet<&str> = PRO_TABLE2
        .iter()
        .filter_map(|r| r.ours.map(|o| o.0))
        .collect();
    for prog in progs {
        let launches = run(prog, Size::Paper);
        for row in PRO_TABLE2
            .iter()
            .filter(|r| r.ours.is_some_and(|o| o.0 == prog))
        {
            let kernel = row.ours.unwrap().1;
            let counts: BTreeSet<u32> = launches
                .iter()
                .filter(|l| l.0 == kernel)
                .map(|l| l.1)
                .collect();
            assert_eq!(
                counts,
                BTreeSet::from([row.ctas]),
                "{prog}: {kernel} CTAs per launch vs Table II"
            );
        }
    }
}
