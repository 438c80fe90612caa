//! The runner the suite's test files share.

#![allow(dead_code)] // each test file uses what it needs

use warpsim_core::device::Device;
use warpsim_suite::{program, workload_info, Outcome, Size};

/// Runs program `name` at `size` on a fresh functional device, prints what it did, and fails
/// unless it verified, launched something and checked some values.
pub fn run(name: &str, size: Size) -> Outcome {
    run_on(&mut Device::new(), name, size)
}

/// [`run`] on a device of the caller's (to read its launch records afterwards).
pub fn run_on(dev: &mut Device, name: &str, size: Size) -> Outcome {
    let p = program(name).unwrap_or_else(|| panic!("no program `{name}`"));
    let start = std::time::Instant::now();
    let o = (p.run)(dev, size).unwrap_or_else(|e| panic!("{name} failed: {e}"));
    eprintln!(
        "{name} ({size}): {} launches, {} values checked, {} warp / {} thread instructions, {:.2?}",
        o.launches,
        o.values_checked,
        o.warp_instructions,
        o.thread_instructions,
        start.elapsed()
    );
    assert!(
        o.launches > 0 && o.values_checked > 0,
        "{name}: nothing launched or checked"
    );
    o
}

/// Warp instructions a `small` run may execute: small runs must stay cheap to simulate in
/// timing mode (a few seconds each).
pub const SMALL_WARP_INSTRUCTION_BUDGET: u64 = 2_000_000;

/// [`run`], and: a `small` run stays within [`SMALL_WARP_INSTRUCTION_BUDGET`]; the CTA shapes
/// launched are the ones the program's launch metadata declares, and every declared kernel
/// runs.
pub fn run_declared(name: &str, size: Size) -> Outcome {
    let info = workload_info(name).unwrap_or_else(|| panic!("{name}: no launch metadata"));
    let mut dev = Device::new();
    let o = run_on(&mut dev, name, size);
    if size == Size::Small {
        assert!(
            o.warp_instructions <= SMALL_WARP_INSTRUCTION_BUDGET,
            "{name}: {} warp instructions at small size",
            o.warp_instructions
        );
    }
    let records = dev.launch_records();
    assert_eq!(records.len(), o.launches as usize, "{name}: launch records");
    for r in records {
        let block = [r.block.x, r.block.y, r.block.z];
        assert!(
            info.kernels
                .iter()
                .any(|k| k.kernel == r.kernel && k.block == block),
            "{name}: {} launched with CTA {block:?}, not declared in its WorkloadInfo",
            r.kernel
        );
    }
    for k in info.kernels {
        assert!(
            records.iter().any(|r| r.kernel == k.kernel),
            "{name}: declared kernel {} never launched",
            k.kernel
        );
    }
    o
}
