//! Fuzz target: `warpsim run MANIFEST.toml` loading (serde pass and semantic validation)
//! reports diagnostics for any text: no panic.
//!
//! The CLI's manifest sources are compiled in (the CLI is a binary crate). Relative paths in
//! a manifest resolve against the working directory; nothing is read but file metadata.
#![no_main]

#[allow(dead_code)] // the target uses only part of this library source
#[path = "../../crates/cli/src/init.rs"]
mod init;
#[allow(dead_code, unused_imports)] // the target uses only part of this library source
#[path = "../../crates/cli/src/manifest/mod.rs"]
mod manifest;
#[allow(dead_code)] // the target uses only part of this library source
#[path = "../../crates/cli/src/scalar.rs"]
mod scalar;

use libfuzzer_sys::fuzz_target;
use std::path::Path;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data).into_owned();
    if let Err(diags) = manifest::load_text(Path::new("fuzz.toml"), text) {
        assert!(!diags.is_empty(), "a failed load says why");
    }
});
