//! Fuzz target: GPU configuration loading (`--config FILE` and `-c KEY=VALUE`, both through
//! `GpuConfig::from_toml`) accepts or rejects any text with an error: no panic.
//!
//! Input: the TOML text, then optionally a NUL byte and `-c` overrides, one per line.
#![no_main]

use libfuzzer_sys::fuzz_target;
use warpsim_core::config::GpuConfig;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let (toml, overrides) = text.split_once('\0').unwrap_or((&text, ""));
    let overrides: Vec<String> = overrides.lines().map(str::to_string).collect();
    if let Ok(cfg) = GpuConfig::from_toml("fuzz", toml, &overrides) {
        // A config that loads writes itself out and loads back (results carry it as TOML).
        let again = GpuConfig::from_toml("fuzz", &cfg.to_toml(), &[]);
        assert!(again.is_ok(), "{:?}", again.err());
    }
});
