//! Cache keys. A run is identified by the simulator (crate version + the model fingerprint
//! `build.rs` computes over every source that can change a result + the record format), the
//! fully resolved configuration (every key, as the `config.toml` written beside results),
//! the resolved scheduler, the program, the size and the runaway guard. Two runs with the
//! same key give bit-identical statistics (the simulator is deterministic), so a stored
//! record can stand in for a run.

use sha2::{Digest, Sha256};

use super::record::RECORD_FORMAT;

/// `0.1.0+3f2a…`: what made a record.
pub fn simulator_id() -> String {
    format!(
        "{}+{}.r{RECORD_FORMAT}",
        env!("CARGO_PKG_VERSION"),
        env!("WARPSIM_MODEL_HASH")
    )
}

/// What a run's result depends on.
pub struct RunIdentity<'a> {
    pub resolved_config: &'a str,
    pub policy: &'a str,
    pub program: &'a str,
    pub size: &'a str,
    pub max_cycles: u64,
}

impl RunIdentity<'_> {
    /// 32 hex digits of SHA-256 over the simulator id and every field, each length-prefixed
    /// so no two identities hash the same bytes.
    pub fn key(&self) -> String {
        let mut h = Sha256::new();
        let max_cycles = self.max_cycles.to_string();
        for part in [
            simulator_id().as_str(),
            self.resolved_config,
            self.policy,
            self.program,
            self.size,
            max_cycles.as_str(),
        ] {
            h.update((part.len() as u64).to_le_bytes());
            h.update(part.as_bytes());
        }
        h.finalize()
            .iter()
            .take(16)
            .map(|b| format!("{b:02x}"))
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_field_changes_the_key_and_nothing_else_does() {
        let base = RunIdentity {
            resolved_config: "a = 1\n",
            policy: "gto",
            program: "baws_bt",
            size: "small",
            max_cycles: 10,
        };
        let k = base.key();
        assert_eq!(k.len(), 32);
        assert_eq!(k, RunIdentity { ..base }.key(), "deterministic");
        let base = RunIdentity {
            resolved_config: "a = 1\n",
            policy: "gto",
            program: "baws_bt",
            size: "small",
            max_cycles: 10,
        };
        let variants = [
            RunIdentity {
                resolved_config: "a = 2\n",
                ..RunIdentity { ..base }
            },
            RunIdentity {
                policy: "lrr",
                ..RunIdentity { ..base }
            },
            RunIdentity {
                program: "baws_ms",
                ..RunIdentity { ..base }
            },
            RunIdentity {
                size: "paper",
                ..RunIdentity { ..base }
            },
            RunIdentity {
                max_cycles: 11,
                ..RunIdentity { ..base }
            },
            // Field boundaries matter: moving a character between fields is another run.
            RunIdentity {
                policy: "gt",
                program: "obaws_bt",
                ..RunIdentity { ..base }
            },
        ];
        for v in variants {
            assert_ne!(v.key(), k);
        }
    }
}
