//! GPU configurations: built-in presets (TOML files compiled in), user TOML files, and
//! `key=value` overrides, resolved into one typed [`GpuConfig`].
//!
//! Architecture invariant: a configuration is either fully valid or an error naming the key
//! and why; nothing the user wrote is ignored or silently defaulted.

mod bounds;
mod carveout;
mod policy;
mod types;
mod validate;

pub use policy::*;
pub use types::*;

/// The built-in presets: (name, TOML text).
pub const PRESETS: &[(&str, &str)] = &[
    ("gtx480", include_str!("presets/gtx480.toml")),
    ("titanx-pascal", include_str!("presets/titanx-pascal.toml")),
    ("qv100", include_str!("presets/qv100.toml")),
    ("rtx2060", include_str!("presets/rtx2060.toml")),
    ("rtx3070", include_str!("presets/rtx3070.toml")),
];

#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ConfigError {
    #[error("unknown preset `{name}` (presets: {}); or give a path to a .toml file", available.join(", "))]
    UnknownPreset {
        name: String,
        available: Vec<String>,
    },
    #[error("cannot read {path}: {message}")]
    Io { path: String, message: String },
    #[error("{source_name}: {message}")]
    Syntax {
        source_name: String,
        message: String,
    },
    #[error("unknown key `{key}`; valid keys here: {}", valid.join(", "))]
    UnknownKey { key: String, valid: Vec<String> },
    #[error("override `{text}`: expected KEY=VALUE")]
    BadOverride { text: String },
    #[error("`{key}`: {why}")]
    Invalid { key: String, why: String },
}

impl GpuConfig {
    /// A preset by name, or a TOML file by path (anything containing `/` or ending in `.toml`).
    pub fn load(name_or_path: &str) -> Result<GpuConfig, ConfigError> {
        Self::load_with(name_or_path, &[])
    }

    /// Like [`GpuConfig::load`], then applies `key=value` overrides (dotted keys, TOML values:
    /// `sm.schedulers=4`, `l1d.set_hash="linear"`, `latency.int=[4,13,4,5,145,32]`).
    pub fn load_with(name_or_path: &str, overrides: &[String]) -> Result<GpuConfig, ConfigError> {
        let (source_name, text) = if name_or_path.ends_with(".toml") || name_or_path.contains('/') {
            let text = std::fs::read_to_string(name_or_path).map_err(|e| ConfigError::Io {
                path: name_or_path.to_string(),
                message: e.to_string(),
            })?;
            (name_or_path.to_string(), text)
        } else {
            let (_, text) = PRESETS
                .iter()
                .find(|(n, _)| *n == name_or_path)
                .ok_or_else(|| ConfigError::UnknownPreset {
                    name: name_or_path.to_string(),
                    available: PRESETS.iter().map(|(n, _)| n.to_string()).collect(),
                })?;
            (format!("preset {name_or_path}"), text.to_string())
        };
        Self::from_toml(&source_name, &text, overrides)
    }

    /// Parses TOML text, applies overrides, checks every key and value.
    ///
    /// The text is a full configuration, or starts from a preset with `base = "NAME"` and
    /// gives only the keys it changes. The resolved config's `name` is its label everywhere
    /// (text headers, JSON, CSV, JSONL, the result cache): every override that changes the
    /// configuration is appended to it (`gtx480 + sm.schedulers=4`), and so are a `base`
    /// file's keys when the file names no `name` of its own; overrides that change nothing
    /// leave it alone (the results are the same).
    pub fn from_toml(
        source_name: &str,
        text: &str,
        overrides: &[String],
    ) -> Result<GpuConfig, ConfigError> {
        let syntax = |e: toml::de::Error| ConfigError::Syntax {
            source_name: source_name.to_string(),
            message: e.to_string(),
        };
        let mut table: toml::Table = text.parse().map_err(syntax)?;
        let reference = reference_keys();
        let mut file_keys = Vec::new();
        if let Some(base) = table.remove("base") {
            let names = || {
                PRESETS
                    .iter()
                    .map(|(n, _)| *n)
                    .collect::<Vec<_>>()
                    .join(", ")
            };
            let preset = base
                .as_str()
                .and_then(|b| PRESETS.iter().find(|(n, _)| *n == b))
                .ok_or_else(|| ConfigError::Invalid {
                    key: "base".into(),
                    why: format!("{base} is not a preset (presets: {})", names()),
                })?;
            validate::check_keys(&table, &reference, "")?;
            let named = table.contains_key("name");
            file_keys = validate::flatten(&table, "");
            table = preset.1.parse().expect("built-in preset parses");
            if named {
                // The file's own name labels it; apply it first, unlabelled.
                let name = file_keys.remove(
                    file_keys
                        .iter()
                        .position(|k| k.starts_with("name="))
                        .expect("flattened name"),
                );
                validate::apply_override(&mut table, &reference, &name)?;
            }
            let labelled = apply_tracked(&mut table, &reference, &file_keys)?;
            file_keys = if named { Vec::new() } else { labelled };
        }
        validate::check_keys(&table, &reference, "")?;
        let changed = apply_tracked(&mut table, &reference, overrides)?;
        let mut cfg: GpuConfig = toml::Value::Table(table).try_into().map_err(syntax)?;
        validate::check_values(&cfg)?;
        for o in file_keys.iter().chain(&changed) {
            cfg.name = format!("{} + {o}", cfg.name);
        }
        Ok(cfg)
    }

    /// This configuration with `key=value` overrides applied (checked like every other source).
    pub fn with_overrides(&self, overrides: &[String]) -> Result<GpuConfig, ConfigError> {
        Self::from_toml(&self.name, &self.to_toml(), overrides)
    }

    /// The resolved configuration as TOML (written beside every result).
    pub fn to_toml(&self) -> String {
        toml::to_string(self).expect("a config serializes")
    }
}

/// Every key a configuration may have: the first preset's, and the policy tables' (which
/// presets do not repeat; their defaults are declared once, in `policy.rs`).
pub(crate) fn reference_keys() -> toml::Table {
    let mut reference: toml::Table = PRESETS[0].1.parse().expect("built-in preset parses");
    reference.insert(
        "policy".into(),
        toml::Value::Table(PolicyParams::default_table()),
    );
    reference
}

/// Applies `overrides` in order; returns those that changed the configuration (`name=…`
/// excluded: it sets the label itself), as `key=value` for the label.
fn apply_tracked(
    table: &mut toml::Table,
    reference: &toml::Table,
    overrides: &[String],
) -> Result<Vec<String>, ConfigError> {
    let typed = |t: &toml::Table| toml::Value::Table(t.clone()).try_into::<GpuConfig>().ok();
    let mut changed = Vec::new();
    let mut before = if overrides.is_empty() {
        None
    } else {
        typed(table)
    };
    for o in overrides {
        validate::apply_override(table, reference, o)?;
        let after = typed(table);
        let (key, value) = o
            .split_once('=')
            .map(|(k, v)| (k.trim(), v.trim()))
            .unwrap_or((o.trim(), ""));
        if key != "name" && (after.is_none() || after != before) {
            changed.push(format!("{key}={value}"));
        }
        before = after;
    }
    Ok(changed)
}
