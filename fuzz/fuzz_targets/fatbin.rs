//! Fuzz target: the fatbinary parser (what `__cudaRegisterFatBinary` runs on a program's
//! embedded device code) returns an error on any input: no panic, hang or unbounded allocation.
//!
//! The runtime's own source files are compiled in (the shim crate is a cdylib).
#![no_main]

#[path = "../../crates/cudart/src/cubin.rs"]
mod cubin;
#[allow(dead_code)] // the target uses only part of this library source
#[path = "../../crates/cudart/src/fatbin.rs"]
mod fatbin;

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Ok(len) = fatbin::container_len(data) {
        assert!(len <= fatbin::MAX_CONTAINER);
    }
    if let Ok(entries) = fatbin::parse_containers(data) {
        for e in &entries {
            assert!(e.data.len() <= fatbin::MAX_IMAGE);
        }
        // What registration does next: pick the PTX, read the cubin's register counts.
        let _ = fatbin::images(&entries);
    }
});
