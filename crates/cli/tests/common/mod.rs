//! Helpers shared by the CLI integration tests: run the built binary, make scratch folders.

#![allow(dead_code)] // each test file uses what it needs

use std::path::{Path, PathBuf};
use std::process::Command;

pub struct Run {
    pub code: i32,
    pub stdout: String,
    pub stderr: String,
}

impl Run {
    /// stdout and stderr together, for assertions that do not care where a line went.
    pub fn all(&self) -> String {
        format!("{}{}", self.stdout, self.stderr)
    }
}

pub fn warpsim(args: &[&str], cwd: &Path) -> Run {
    let out = Command::new(env!("CARGO_BIN_EXE_warpsim"))
        .args(args)
        .current_dir(cwd)
        .output()
        .expect("run warpsim");
    Run {
        code: out.status.code().unwrap_or(-1),
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    }
}

/// The repository root.
pub fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../..")
        .canonicalize()
        .unwrap()
}

/// `crates/cli/tests/data`.
pub fn data() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data")
}

/// A fresh, empty scratch folder unique to `name`.
pub fn scratch(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join("warpsim-cli")
        .join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// A scratch folder holding a copy of every file in `from`.
pub fn scratch_copy(name: &str, from: &Path) -> PathBuf {
    let dir = scratch(name);
    for entry in std::fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        if entry.file_type().unwrap().is_file() {
            std::fs::copy(entry.path(), dir.join(entry.file_name())).unwrap();
        }
    }
    dir
}

#[track_caller]
pub fn assert_code(run: &Run, code: i32) {
    assert_eq!(
        run.code, code,
        "exit code\n--- stdout\n{}--- stderr\n{}",
        run.stdout, run.stderr
    );
}

#[track_caller]
pub fn assert_contains(run: &Run, needle: &str) {
    assert!(
        run.all().contains(needle),
        "output lacks {needle:?}\n--- stdout\n{}--- stderr\n{}",
        run.stdout,
        run.stderr
    );
}

/// One row of a committed reference CSV, by column name.
pub struct CsvRow<'h> {
    head: &'h [String],
    fields: Vec<String>,
}

impl CsvRow<'_> {
    /// The row's value in column `name` (a missing column is a broken reference: panics).
    pub fn get(&self, name: &str) -> &str {
        let i = self
            .head
            .iter()
            .position(|h| h == name)
            .unwrap_or_else(|| panic!("no column {name}"));
        &self.fields[i]
    }
}

/// A committed CSV under the repository (`rel`), read with the `csv` crate as the CLI reads
/// it: its header and its rows.
pub fn read_csv(rel: &str) -> (Vec<String>, Vec<Vec<String>>) {
    let path = repo().join(rel);
    let mut r = csv::Reader::from_path(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let strings = |r: &csv::StringRecord| r.iter().map(String::from).collect::<Vec<_>>();
    let head = strings(r.headers().expect("a header"));
    let rows = r
        .records()
        .map(|rec| strings(&rec.unwrap_or_else(|e| panic!("{}: {e}", path.display()))))
        .collect();
    (head, rows)
}

/// The rows of [`read_csv`]'s result, each readable by column name.
pub fn csv_rows<'h>(
    head: &'h [String],
    rows: Vec<Vec<String>>,
) -> impl Iterator<Item = CsvRow<'h>> {
    rows.into_iter().map(move |fields| CsvRow { head, fields })
}
