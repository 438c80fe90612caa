//! The shim's settings, read once from the environment.
//!
//! | variable | meaning |
//! |---|---|
//! | `WARPSIM_CONFIG` | GPU preset name (`gtx480`, `titanx-pascal`) or path of a TOML config; recorded for the timing model |
//! | `WARPSIM_MODE` | `functional` (default); `timing` warns once and runs functionally until the timing model lands |
//! | `WARPSIM_POLICY` | warp scheduling policy name; accepted and recorded |
//! | `WARPSIM_STATS` | file to which one JSON line per kernel launch is appended |
//! | `WARPSIM_MAX_INSTRUCTIONS` | warp instructions after which a launch fails as a runaway |
//!
//! A bad value gives one `warpsim:` line on stderr naming the variable, and the default.

use std::path::PathBuf;

/// Presets the simulator ships (`shared/design/CONFIGS.md`).
pub const PRESETS: &[&str] = &["gtx480", "titanx-pascal"];

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    Functional,
    /// Asked for; runs functionally until the timing model exists.
    Timing,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Config {
    /// Preset name or config file path.
    pub config: String,
    pub mode: Mode,
    pub policy: Option<String>,
    pub stats: Option<PathBuf>,
    pub max_instructions: Option<u64>,
}

impl Default for Config {
    fn default() -> Self {
        Config { config: "gtx480".into(), mode: Mode::Functional, policy: None, stats: None, max_instructions: None }
    }
}

impl Config {
    /// Reads the process environment.
    pub fn from_env() -> (Config, Vec<String>) {
        Config::parse(|k| std::env::var(k).ok())
    }

    /// Parses settings from `get` (the environment, or a test's map). Returns the warnings to
    /// print, one per bad variable.
    pub fn parse(get: impl Fn(&str) -> Option<String>) -> (Config, Vec<String>) {
        let mut c = Config::default();
        let mut warn = Vec::new();
        if let Some(v) = get("WARPSIM_CONFIG") {
            let v = v.trim().to_string();
            if PRESETS.contains(&v.as_str()) || (!v.is_empty() && std::path::Path::new(&v).is_file()) {
                c.config = v;
            } else {
                warn.push(format!(
                    "WARPSIM_CONFIG=`{v}` is neither a preset ({}) nor a readable file; using `{}`",
                    PRESETS.join(", "),
                    c.config
                ));
            }
        }
        if let Some(v) = get("WARPSIM_MODE") {
            match v.trim() {
                "functional" | "" => {}
                "timing" => {
                    c.mode = Mode::Timing;
                    warn.push("WARPSIM_MODE=timing: the timing model is not implemented yet; running functionally".into());
                }
                other => warn.push(format!("WARPSIM_MODE=`{other}` is not `functional` or `timing`; using `functional`")),
            }
        }
        if let Some(v) = get("WARPSIM_POLICY") {
            let v = v.trim();
            if v.is_empty() || !v.chars().all(|ch| ch.is_ascii_alphanumeric() || "-_+.".contains(ch)) {
                warn.push(format!("WARPSIM_POLICY=`{v}` is not a policy name; ignored"));
            } else {
                c.policy = Some(v.to_string());
            }
        }
        if let Some(v) = get("WARPSIM_STATS") {
            if v.trim().is_empty() {
                warn.push("WARPSIM_STATS is empty (expected a file path); no statistics are written".into());
            } else {
                c.stats = Some(PathBuf::from(v));
            }
        }
        if let Some(v) = get("WARPSIM_MAX_INSTRUCTIONS") {
            match v.trim().replace('_', "").parse::<u64>() {
                Ok(n) if n > 0 => c.max_instructions = Some(n),
                _ => warn.push(format!("WARPSIM_MAX_INSTRUCTIONS=`{v}` is not a positive integer; using the default limit")),
            }
        }
        (c, warn)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashMap;

    fn parse(vars: &[(&str, &str)]) -> (Config, Vec<String>) {
        let m: HashMap<String, String> = vars.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect();
        Config::parse(|k| m.get(k).cloned())
    }

    #[test]
    fn defaults_without_variables() {
        assert_eq!(parse(&[]), (Config::default(), vec![]));
    }

    #[test]
    fn good_values() {
        let (c, w) = parse(&[
            ("WARPSIM_CONFIG", "titanx-pascal"),
            ("WARPSIM_MODE", "functional"),
            ("WARPSIM_POLICY", "gto"),
            ("WARPSIM_STATS", "/tmp/s.jsonl"),
            ("WARPSIM_MAX_INSTRUCTIONS", "1_000_000"),
        ]);
        assert!(w.is_empty(), "{w:?}");
        assert_eq!(c.config, "titanx-pascal");
        assert_eq!(c.policy.as_deref(), Some("gto"));
        assert_eq!(c.stats, Some(PathBuf::from("/tmp/s.jsonl")));
        assert_eq!(c.max_instructions, Some(1_000_000));
    }

    #[test]
    fn timing_mode_warns_and_runs_functionally() {
        let (c, w) = parse(&[("WARPSIM_MODE", "timing")]);
        assert_eq!(c.mode, Mode::Timing);
        assert_eq!(w.len(), 1);
        assert!(w[0].contains("WARPSIM_MODE"));
    }

    #[test]
    fn bad_values_name_the_variable_and_fall_back() {
        for (k, v) in [
            ("WARPSIM_CONFIG", "no-such-gpu"),
            ("WARPSIM_MODE", "fast"),
            ("WARPSIM_POLICY", "two words"),
            ("WARPSIM_STATS", " "),
            ("WARPSIM_MAX_INSTRUCTIONS", "-5"),
            ("WARPSIM_MAX_INSTRUCTIONS", "0"),
            ("WARPSIM_MAX_INSTRUCTIONS", "lots"),
        ] {
            let (c, w) = parse(&[(k, v)]);
            assert_eq!(w.len(), 1, "{k}={v}");
            assert!(w[0].starts_with(k), "{w:?}");
            assert_eq!(c.mode, Mode::Functional);
            assert_eq!(c.max_instructions, None);
            assert_eq!(c.config, "gtx480");
        }
    }
}
