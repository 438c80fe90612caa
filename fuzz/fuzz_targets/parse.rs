//! Fuzz target: the PTX parser must never panic, hang or overflow its stack, whatever the input.
//!
//! Run with `cargo fuzz run parse` (nightly), seeding from the real-PTX corpus:
//! `cargo fuzz run parse ../crates/ptx/tests/corpus/ptx`.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    if let Err(e) = ptx::parse(&text) {
        // Errors must point somewhere sensible.
        assert!(e.line >= 1 && e.col >= 1);
    }
});
