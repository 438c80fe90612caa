//! Fuzz target: register counts from a cubin (an ELF entry of a fatbinary) are `None` or a
//! map on any input: no panic or overflow on corrupt offsets and sizes.
#![no_main]

#[path = "../../crates/cudart/src/cubin.rs"]
mod cubin;

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let _ = cubin::regcounts(data);
    let _ = cubin::nv_info_attributes(data);
});
