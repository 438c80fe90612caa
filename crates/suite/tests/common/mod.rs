//! The runner the suite's test files share.

use warpsim_core::device::Device;
use warpsim_suite::{program, Outcome, Size};

/// Runs program `name` at `size` on a fresh functional device, prints what it did, and fails
/// unless it verified, launched something and checked some values.
pub fn run(name: &str, size: Size) -> Outcome {
    let p = program(name).unwrap_or_else(|| panic!("no program `{name}`"));
    let mut dev = Device::new();
    let start = std::time::Instant::now();
    let o = (p.run)(&mut dev, size).unwrap_or_else(|e| panic!("{name} failed: {e}"));
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
