//! The `warpsim run` manifest: loading (serde with `deny_unknown_fields`), semantic
//! validation, and the validated form `run` executes.
//!
//! Every problem is reported as `MANIFEST:LINE:COL: key.path: message`. The format is
//! documented in `examples/manifests/README.md`.

mod locate;
pub(crate) mod raw;
mod validate;

use std::path::{Path, PathBuf};

pub use locate::Source;
pub use validate::{check_args, resolve_kernel};

use crate::init::Init;
use crate::scalar::ScalarType;

/// A validated manifest.
pub struct Manifest {
    pub source: Source,
    /// The PTX file (resolved against the manifest's directory).
    pub ptx: PathBuf,
    pub max_warp_instructions: Option<u64>,
    /// `registers = { kernel = N }`: registers per thread for timing mode's occupancy.
    pub registers: Vec<(String, u32)>,
    pub expect_printf: Option<String>,
    pub buffers: Vec<Buffer>,
    pub launches: Vec<Launch>,
    pub checks: Vec<Check>,
    pub dumps: Vec<Dump>,
}

pub struct Buffer {
    pub name: String,
    pub ty: ScalarType,
    pub len: usize,
    pub init: Init,
}

impl Buffer {
    pub fn bytes(&self) -> usize {
        self.len * self.ty.size()
    }
}

pub struct Launch {
    /// Key path of the launch's table: `""` for the top-level shorthand, `launch[i]` otherwise.
    pub key: String,
    /// `None`: the module's only kernel.
    pub kernel: Option<String>,
    pub grid: [u32; 3],
    pub block: [u32; 3],
    pub dynamic_shared: u32,
    pub repeat: u32,
    pub args: Vec<ArgSpec>,
}

impl Launch {
    /// `key` joined to a sub-key: `launch[0].arg[1]`, or `arg[1]` for the top-level launch.
    pub fn subkey(&self, sub: &str) -> String {
        if self.key.is_empty() {
            sub.to_string()
        } else {
            format!("{}.{sub}", self.key)
        }
    }
}

pub enum ArgSpec {
    /// Index into [`Manifest::buffers`].
    Buffer(usize),
    Scalar {
        ty: ScalarType,
        bytes: Vec<u8>,
    },
    Bytes(Vec<u8>),
}

impl ArgSpec {
    pub fn size(&self) -> usize {
        match self {
            ArgSpec::Buffer(_) => 8,
            ArgSpec::Scalar { bytes, .. } | ArgSpec::Bytes(bytes) => bytes.len(),
        }
    }
}

pub struct Check {
    pub key: String,
    /// Index into [`Manifest::buffers`].
    pub buffer: usize,
    pub expected: Expected,
    pub tolerance: Tolerance,
}

pub enum Expected {
    File(PathBuf),
    Buffer(usize),
    Generated(Init),
}

/// `|got - expected| <= abs + rel * |expected|`; both zero means exact equality.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Tolerance {
    pub rel: f64,
    pub abs: f64,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DumpFormat {
    Bin,
    Txt,
}

pub struct Dump {
    pub buffer: usize,
    pub path: PathBuf,
    pub format: DumpFormat,
}

/// Reads, parses and validates the manifest at `path`. On failure, returns every diagnostic
/// found (already formatted with file, position and key path).
pub fn load(path: &Path) -> Result<Manifest, Vec<String>> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| vec![format!("{}: cannot read manifest: {e}", path.display())])?;
    load_text(path, text)
}

/// [`load`] of text already read (`path` names it in messages and anchors relative paths);
/// the manifest fuzz target (fuzz/fuzz_targets/manifest.rs) calls it.
pub fn load_text(path: &Path, text: String) -> Result<Manifest, Vec<String>> {
    let source = Source::new(path, text);
    let raw = parse(&source)?;
    let dir = path.parent().map(Path::to_path_buf).unwrap_or_default();
    validate::validate(raw, source, &dir)
}

/// Serde pass: syntax, unknown keys, wrong types, missing required keys.
fn parse(source: &Source) -> Result<raw::RawManifest, Vec<String>> {
    let de = toml_edit::de::Deserializer::parse(source.text())
        .map_err(|e| vec![toml_diag(source, "", &e)])?;
    serde_path_to_error::deserialize::<_, raw::RawManifest>(de).map_err(|e| {
        let path = e.path().to_string();
        let path = if path == "." { String::new() } else { path };
        vec![toml_diag(source, &path, e.inner())]
    })
}

/// Formats a serde/TOML error, rewriting serde's unknown/missing field messages into
/// `key.path: unknown key "x"; expected one of a, b`.
fn toml_diag(source: &Source, path: &str, e: &toml_edit::de::Error) -> String {
    let msg = e.message().trim().to_string();
    let join = |p: &str, k: &str| {
        if p.is_empty() {
            k.to_string()
        } else {
            format!("{p}.{k}")
        }
    };
    let (path, msg) = if let Some(rest) = msg.strip_prefix("unknown field `") {
        let (name, tail) = rest.split_once('`').unwrap_or((rest, ""));
        let expected = tail
            .trim_start_matches(", ")
            .replace('`', "")
            .replace("expected one of ", "")
            .replace("expected ", "");
        let key = if path.ends_with(name) {
            path.to_string()
        } else {
            join(path, name)
        };
        (
            key,
            format!("unknown key {name:?}; expected one of {expected}"),
        )
    } else if let Some(rest) = msg.strip_prefix("missing field `") {
        let name = rest.trim_end_matches('`');
        (join(path, name), "missing required key".to_string())
    } else {
        let msg = msg
            .replace("expected i64", "expected an integer")
            .replace("expected f64", "expected a number")
            .replace(
                "expected a sequence",
                "expected an array (for tables: [[name]], not [name])",
            );
        (path.to_string(), msg)
    };
    let span = e.span().or_else(|| source.span_of(&path));
    source.diag_at(span, &path, &msg)
}
