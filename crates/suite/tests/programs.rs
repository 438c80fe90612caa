//! Every built-in program runs and verifies at `Size::Small`; the committed resource reports
//! match the committed PTX.

use crate::common;

use std::collections::{BTreeSet, HashSet};

use warpsim_suite::{program, programs, Size};

fn run_small(name: &str) {
    run(name, Size::Small);
}

fn run(name: &str, size: Size) {
    common::run(name, size);
}

macro_rules! small {
    ($($name:ident),* $(,)?) => {
        $(
            #[test]
            fn $name() {
                run_small(stringify!($name));
            }
        )*

        /// Every registered program has a test above.
        #[test]
        fn every_program_is_tested() {
            let tested: BTreeSet<&str> = [$(stringify!($name)),*].into_iter().collect();
            // The BAWS sets (`baws_*`, `rod_*`) are tested in tests/baws.rs and tests/nonbarrier.rs,
            // the PRO programs written for set `pro` (`ispass_*`, `sdk_*`) in tests/pro.rs, the
            // MOTRR ones (`poly_*`, `parboil_*`, `sdk_*`) in tests/motrr.rs, the KAWS ones
            // (`dnn_*` and the same prefixes) in tests/kaws.rs.
            let registered: BTreeSet<&str> = programs()
                .iter()
                .map(|p| p.name)
                .filter(|n| !["baws_", "rod_", "ispass_", "sdk_", "poly_", "parboil_", "dnn_"].iter().any(|pre| n.starts_with(pre)))
                .collect();
            assert_eq!(tested, registered);
        }
    };
}

small!(
    scalar_prod,
    matmul,
    histogram,
    bitonic_sort,
    stencil2d,
    bfs,
    warp_reduce,
    fp64_math,
    local_array,
    conv_const,
    dyn_shared,
    grid3d,
    tc_gemm,
    tc_conv,
);

/// The measurement sizes; slow in a test build: `cargo test -p warpsim-suite --release -- --ignored`.
#[test]
#[ignore]
fn paper_sizes() {
    for p in programs() {
        run(p.name, Size::Paper);
    }
}

#[test]
fn names_are_unique() {
    let mut seen = HashSet::new();
    for p in programs() {
        assert!(seen.insert(p.name), "duplicate program name `{}`", p.name);
        assert!(program(p.name).is_some_and(|q| std::ptr::eq(p, q)));
    }
    assert!(program("no-such-program").is_none());
}

/// Kernel (`.entry`) names declared in PTX text.
fn entries(ptx: &str) -> BTreeSet<String> {
    ptx.lines()
        .filter_map(|l| {
            let l = l.trim_start();
            let rest = l
                .strip_prefix(".visible ")
                .or_else(|| l.strip_prefix(".weak "))
                .unwrap_or(l);
            let rest = rest.strip_prefix(".entry ")?;
            Some(
                rest.split(|c: char| c == '(' || c.is_whitespace())
                    .next()?
                    .to_string(),
            )
        })
        .collect()
}

#[test]
fn ptxas_reports_list_every_kernel() {
    for p in programs() {
        let res = p.resources().unwrap_or_else(|e| panic!("{}: {e}", p.name));
        let reported: BTreeSet<String> = res.iter().map(|k| k.name.clone()).collect();
        assert_eq!(
            reported.len(),
            res.len(),
            "{}: a kernel is reported twice",
            p.name
        );
        let declared = entries(p.ptx);
        assert!(!declared.is_empty(), "{}: no kernels in the PTX", p.name);
        assert_eq!(
            reported, declared,
            "{}: .ptxas and .ptx disagree on the kernels",
            p.name
        );
        for k in &res {
            assert!(k.registers > 0 && k.registers <= 255, "{}: {k:?}", p.name);
        }
    }
}

#[test]
fn ptx_is_from_the_pinned_compiler() {
    for p in programs() {
        assert!(
            p.ptx
                .contains("Cuda compilation tools, release 13.5, V13.5.37"),
            "{}",
            p.name
        );
        assert!(p.ptx.contains(".target sm_75"), "{}", p.name);
        assert!(
            !p.ptxas.contains("Compile time"),
            "{}: unstable line in .ptxas",
            p.name
        );
    }
}

/// Every program names only known sets, and every set has its members.
#[test]
fn sets_are_consistent() {
    for p in programs() {
        assert!(!p.sets.is_empty(), "{} is in no set", p.name);
        for s in p.sets {
            assert!(
                warpsim_suite::SETS.iter().any(|i| i.name == *s),
                "{}: unknown set {s}",
                p.name
            );
        }
    }
    assert_eq!(warpsim_suite::set("baws-barrier").unwrap().len(), 13);
    assert_eq!(warpsim_suite::set("baws-nonbarrier").unwrap().len(), 14);
    assert_eq!(warpsim_suite::set("rodinia-extra").unwrap().len(), 1);
    // Table II: 11 programs written for it + rod_backprop, rod_hotspot, rod_pathfinder,
    // baws_bt (see warpsim_suite::pro::PRO_TABLE2).
    assert_eq!(warpsim_suite::set("pro").unwrap().len(), 15);
    // Table 2: 5 programs written for it + ispass_lps, sdk_montecarlo, rod_pathfinder, rod_bfs
    // (see warpsim_suite::motrr::MOTRR_TABLE2).
    assert_eq!(warpsim_suite::set("motrr").unwrap().len(), 9);
    // Table 2: 7 programs written for it + rod_pathfinder, baws_bt (see
    // warpsim_suite::kaws::KAWS_TABLE2).
    assert_eq!(warpsim_suite::set("kaws").unwrap().len(), 9);
    assert!(warpsim_suite::set("basic").unwrap().len() >= 12);
    // The tensor-core programs, and only they, need tensor units.
    let tensor: Vec<&str> = warpsim_suite::set("tensor")
        .unwrap()
        .iter()
        .map(|p| p.name)
        .collect();
    assert_eq!(tensor, ["tc_gemm", "tc_conv"]);
    for p in programs() {
        assert_eq!(p.tensor_cores, p.sets.contains(&"tensor"), "{}", p.name);
    }
    assert!(warpsim_suite::set("no-such-set").is_none());
}

/// A tensor-core program cannot be timed on a preset without tensor units, and says so; on one
/// with them, or any program without tensor cores, nothing stands in the way.
#[test]
fn tensor_core_programs_name_the_presets_that_cannot_time_them() {
    use warpsim_core::config::GpuConfig;
    let gemm = program("tc_gemm").unwrap();
    let gtx = GpuConfig::load("gtx480").unwrap();
    let why = gemm
        .unsupported_on(&gtx)
        .expect("gtx480 has no tensor units");
    assert!(
        why.contains("needs tensor cores") && why.contains("`gtx480`") && why.contains("qv100"),
        "{why}"
    );
    assert_eq!(
        gemm.unsupported_on(&GpuConfig::load("rtx2060").unwrap()),
        None
    );
    assert_eq!(program("matmul").unwrap().unsupported_on(&gtx), None);
}
