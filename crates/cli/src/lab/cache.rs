//! The result cache: one JSON file per run, `DIR/runs/KEY.json`, written atomically (a
//! temporary file renamed into place), so an interrupted sweep leaves only whole records and
//! shards on a shared file system can write into one folder at once. Records of failed runs
//! are stored too (a failure is a result, and is reported, never dropped), but `--fresh` or a
//! changed simulator re-runs them like everything else.

use std::fs;
use std::path::{Path, PathBuf};

use super::record::RunRecord;

pub struct Cache {
    dir: PathBuf,
}

impl Cache {
    /// The cache under results folder `out` (created on the first store).
    pub fn new(out: &Path) -> Cache {
        Cache {
            dir: out.join("runs"),
        }
    }

    pub fn dir(&self) -> &Path {
        &self.dir
    }

    fn path(&self, key: &str) -> PathBuf {
        self.dir.join(format!("{key}.json"))
    }

    /// The stored record of `key`, if there is a readable one. A corrupt file (a crash from
    /// before writes were atomic, a hand edit) is treated as missing and will be rewritten.
    pub fn load(&self, key: &str) -> Option<RunRecord> {
        let text = fs::read_to_string(self.path(key)).ok()?;
        serde_json::from_str::<RunRecord>(&text)
            .ok()
            .filter(|r| r.key == key)
    }

    pub fn store(&self, r: &RunRecord) -> Result<(), String> {
        fs::create_dir_all(&self.dir)
            .map_err(|e| format!("cannot create {}: {e}", self.dir.display()))?;
        let path = self.path(&r.key);
        // Unique per process and thread, so concurrent shards never share a temporary file.
        let tmp = self.dir.join(
            format!(
                ".{}.{}.{:?}.tmp",
                r.key,
                std::process::id(),
                std::thread::current().id()
            )
            .replace(['(', ')'], ""),
        );
        let text = serde_json::to_string_pretty(r).map_err(|e| e.to_string())?;
        fs::write(&tmp, text).map_err(|e| format!("cannot write {}: {e}", tmp.display()))?;
        fs::rename(&tmp, &path)
            .map_err(|e| format!("cannot move {} to {}: {e}", tmp.display(), path.display()))
    }
}
