//! Device linking: the PTX of several translation units (a `-rdc=true` / `-dc` build) made
//! into one module, as NVIDIA's device linker makes one cubin of them.
//!
//! ```text
//! units' PTX ──parse──► ast::Module each ──resolve::plan──► what to keep, what to rename
//!                                          ──rewrite──────► one ast::Module ──lower──► ir
//! ```
//!
//! `.extern` declarations resolve against the `.visible` (else `.weak`/`.common`) definition
//! of another unit; a unit's names without linkage stay its own (renamed when another unit
//! uses the same name). An external symbol nobody defines, two strong definitions of one
//! name, or one name declared as different things are errors naming the units, as the
//! device linker's are. Line numbers of the linked module count through the units' texts
//! joined in order ([`joined`]), so a message's line can be found in that text.

mod resolve;
mod rewrite;

use ptx::ast::Module;

use crate::error::{LoadError, LoadErrors};

/// One translation unit: a name for messages (its source file, or which unit it is) and its
/// PTX text.
#[derive(Clone, Copy, Debug)]
pub struct Unit<'a> {
    pub name: &'a str,
    pub ptx: &'a str,
}

/// A reason the units cannot be linked.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum LinkError {
    #[error("undefined external {kind} {}, used by {}", shown(.name), .users.join(", "))]
    Undefined {
        kind: &'static str,
        name: String,
        users: Vec<String>,
    },
    #[error("{kind} {} is defined in {first} and again in {second}", shown(.name))]
    Duplicate {
        kind: &'static str,
        name: String,
        first: String,
        second: String,
    },
    #[error("{} is a {first_kind} in {first} but a {second_kind} in {second}", shown(.name))]
    Mismatch {
        name: String,
        first: String,
        first_kind: &'static str,
        second: String,
        second_kind: &'static str,
    },
    #[error("{first} targets {first_target} but {second} targets {second_target}")]
    Target {
        first: String,
        first_target: String,
        second: String,
        second_target: String,
    },
    #[error("no translation units to link")]
    NoUnits,
}

/// A symbol as messages show it: the C++ name, with the mangled one when they differ.
fn shown(name: &str) -> String {
    let plain = crate::demangle(name);
    if plain == name {
        format!("`{name}`")
    } else {
        format!("`{plain}` (`{name}`)")
    }
}

/// The units' texts one after another, each ending in a newline: the text the linked
/// module's line numbers refer to.
pub fn joined(units: &[Unit]) -> String {
    let mut out = String::new();
    for u in units {
        out.push_str(u.ptx);
        if !u.ptx.ends_with('\n') {
            out.push('\n');
        }
    }
    out
}

/// Lines a unit takes in [`joined`].
fn lines(ptx: &str) -> u32 {
    let n = ptx.bytes().filter(|&b| b == b'\n').count() + usize::from(!ptx.ends_with('\n'));
    u32::try_from(n).unwrap_or(u32::MAX)
}

/// Parses and links the units into one module (not yet lowered).
pub fn link(units: &[Unit]) -> Result<Module, LoadErrors> {
    if units.is_empty() {
        return Err(LoadErrors(vec![LoadError::Link(LinkError::NoUnits)]));
    }
    let mut asts = Vec::with_capacity(units.len());
    let mut offsets = Vec::with_capacity(units.len());
    let mut errors = Vec::new();
    let mut line = 0u32;
    for u in units {
        offsets.push(line);
        match ptx::parse(u.ptx) {
            Ok(m) => asts.push(m),
            Err(mut e) => {
                e.line = e.line.saturating_add(line);
                e.message = format!("{} (in {})", e.message, u.name);
                errors.push(LoadError::Parse(e));
            }
        }
        line = line.saturating_add(lines(u.ptx));
    }
    if !errors.is_empty() {
        return Err(LoadErrors(errors));
    }
    let names: Vec<String> = units.iter().map(|u| u.name.to_string()).collect();
    merge(&names, asts, &offsets)
        .map_err(|e| LoadErrors(e.into_iter().map(LoadError::Link).collect()))
}

/// Resolves the parsed units' symbols and moves the kept items into one module.
fn merge(names: &[String], units: Vec<Module>, offsets: &[u32]) -> Result<Module, Vec<LinkError>> {
    let arch = |m: &Module| m.target.first().cloned().unwrap_or_default();
    if let Some((k, m)) = units
        .iter()
        .enumerate()
        .find(|(_, m)| arch(m) != arch(&units[0]))
    {
        return Err(vec![LinkError::Target {
            first: names[0].clone(),
            first_target: arch(&units[0]),
            second: names[k].clone(),
            second_target: arch(m),
        }]);
    }
    let plan = resolve::plan(names, &units)?;
    let mut out = Module {
        version: units.iter().map(|m| m.version).max().unwrap_or_default(),
        target: units[0].target.clone(),
        // A unit that is not 64-bit makes the linked module fail to lower, as it would alone.
        address_size: units
            .iter()
            .map(|m| m.address_size)
            .find(|&a| a != 64)
            .unwrap_or(64),
        items: Vec::new(),
        files: Vec::new(),
    };
    let mut file_offset = 0;
    for (u, m) in units.into_iter().enumerate() {
        let rw = rewrite::Rewrite {
            renames: &plan.renames[u],
            line_offset: offsets[u],
            file_offset,
        };
        let last_file = m.files.iter().map(|&(n, _)| n).max().unwrap_or(0);
        out.files
            .extend(m.files.into_iter().map(|(n, p)| (n + file_offset, p)));
        for (mut item, keep) in m.items.into_iter().zip(&plan.keep[u]) {
            if *keep {
                rw.item(&mut item);
                out.items.push(item);
            }
        }
        file_offset += last_file;
    }
    Ok(out)
}
