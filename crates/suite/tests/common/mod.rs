//! The runner the suite's test files share.

#![allow(dead_code)] // each test file uses what it needs

use warpsim_core::device::Device;
use warpsim_suite::{program, Outcome, Size};

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
    assert!(o.launches > 0 && o.values_checked > 0, "{name}: nothing launched or checked");
    o
}
