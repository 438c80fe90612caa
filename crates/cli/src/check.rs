//! `warpsim check FILE.ptx…`: parse and lower each file and report every problem as
//! `FILE:LINE[:COL]: message`.

use std::path::Path;

use warpsim_core::ir::Module;
use warpsim_core::{LoadError, LoadErrors};

use crate::exit;

/// Runs `check` over `files`; returns the exit code (0 only if every file loads cleanly).
pub fn run(files: &[impl AsRef<Path>], quiet: bool) -> u8 {
    let mut code = exit::OK;
    for file in files {
        let file = file.as_ref();
        let text = match std::fs::read_to_string(file) {
            Ok(t) => t,
            Err(e) => {
                eprintln!("{}: cannot read: {e}", file.display());
                code = code.max(exit::BAD_INPUT);
                continue;
            }
        };
        let name = file.display().to_string();
        match warpsim_core::load_ptx(&text) {
            Ok(module) => {
                if module.kernels().next().is_none() {
                    // Loads, but nothing in it can be launched: probably not the file meant.
                    eprintln!("{name}: warning: no kernels (no `.entry`) in this file");
                }
                if !quiet {
                    println!("{name}: ok ({})", module_summary(&module));
                }
            }
            Err(errors) => {
                for e in &errors.0 {
                    println!("{}", format_in_source(&name, &text, e));
                }
                if errors.0.iter().any(|e| matches!(e, LoadError::Parse(_))) {
                    // ptx::parse returns its first error; nothing after it was checked.
                    println!("{name}: stopped at the first syntax error (the parser does not recover): fix it and check again");
                }
                code = code.max(exit::MISMATCH);
            }
        }
    }
    code
}

/// `N kernels: a, b, M functions, K instructions`.
pub fn module_summary(module: &Module) -> String {
    let kernels: Vec<&str> = module.kernels().map(|(_, f)| f.name.as_str()).collect();
    let functions = module
        .functions
        .iter()
        .filter(|f| !f.is_kernel && f.has_body)
        .count();
    let insts: usize = module.functions.iter().map(|f| f.insts.len()).sum();
    let plural = |n: usize, word: &str| format!("{n} {word}{}", if n == 1 { "" } else { "s" });
    let mut s = plural(kernels.len(), "kernel");
    if !kernels.is_empty() {
        s.push_str(": ");
        s.push_str(&kernels.join(", "));
    }
    format!(
        "{s}, {}, {}",
        plural(functions, "function"),
        plural(insts, "instruction")
    )
}

/// [`format_load_error`], with the column of an unsupported instruction found in `text` (the
/// loader reports its line only): `FILE:LINE:COL: unsupported …`.
pub fn format_in_source(file: &str, text: &str, e: &LoadError) -> String {
    match e {
        LoadError::Unsupported { what, line } => {
            if let Some(col) = column_of(text, *line, what) {
                return format!("{file}:{line}:{col}: unsupported {what}");
            }
        }
        // "`mma.sync.aligned.m8n8k4…` needs one of the shapes …": the quoted opcode's column.
        LoadError::Invalid { message, line } => {
            let quoted = message.strip_prefix('`').and_then(|m| m.split('`').next());
            if let Some(col) = quoted.and_then(|q| column_of(text, *line, q)) {
                return format!("{file}:{line}:{col}: {message}");
            }
        }
        _ => {}
    }
    format_load_error(file, e)
}

/// 1-based column of `what`'s first occurrence on 1-based `line` of `text` (as a whole token:
/// not inside a longer name), counted in characters.
fn column_of(text: &str, line: u32, what: &str) -> Option<usize> {
    // `tex.a2d.v4.f32.f32 (layered … not supported)`: the instruction is the part before " (".
    let what = what.split(" (").next().unwrap_or(what);
    let l = text.lines().nth((line as usize).checked_sub(1)?)?;
    let ident = |c: char| c.is_alphanumeric() || c == '_' || c == '.' || c == '$' || c == '%';
    l.match_indices(what)
        .find(|&(i, _)| {
            !l[..i].chars().next_back().is_some_and(ident)
                && !l[i + what.len()..].chars().next().is_some_and(ident)
        })
        .map(|(i, _)| l[..i].chars().count() + 1)
}

/// One `FILE:LINE[:COL]: message` line per error.
pub fn format_load_errors(file: &str, errors: &LoadErrors) -> Vec<String> {
    errors
        .0
        .iter()
        .map(|e| format_load_error(file, e))
        .collect()
}

pub fn format_load_error(file: &str, e: &LoadError) -> String {
    match e {
        LoadError::Parse(p) => format!(
            "{file}:{}:{}: syntax error: {} (found `{}`)",
            p.line, p.col, p.message, p.found
        ),
        LoadError::Unsupported { what, line } => format!("{file}:{line}: unsupported {what}"),
        LoadError::Undefined { kind, name, line } => {
            format!("{file}:{line}: undefined {kind} `{name}`")
        }
        LoadError::Invalid { message, line } => format!("{file}:{line}: {message}"),
        LoadError::Link(l) => format!("{file}: {l}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unsupported_instruction_gets_its_column() {
        let text = "\n    mov.u32 %r1, 0;\n\ttex.1d.v4.f32.s32 {%f1, %f2, %f3, %f4}, [t, {%r1}];\n";
        let e = LoadError::Unsupported {
            what: "tex.1d.v4.f32.s32".into(),
            line: 3,
        };
        assert_eq!(
            format_in_source("a.ptx", text, &e),
            "a.ptx:3:2: unsupported tex.1d.v4.f32.s32"
        );
        // A prefix of a longer opcode is not it; a construct not on the line keeps no column.
        assert_eq!(
            column_of("  wmma.load.x; wmma.load", 1, "wmma.load"),
            Some(16)
        );
        let e = LoadError::Unsupported {
            what: ".surfref declaration".into(),
            line: 2,
        };
        assert_eq!(
            format_in_source("a.ptx", text, &e),
            "a.ptx:2: unsupported .surfref declaration"
        );
        assert_eq!(column_of(text, 99, "x"), None);
    }

    #[test]
    fn invalid_instruction_gets_the_column_of_its_opcode() {
        let text =
            "\n  mma.sync.aligned.m8n8k4.row.col.f32.f16.f16.f32 {%f1}, {%r1}, {%r2}, {%f2};\n";
        let message =
            "`mma.sync.aligned.m8n8k4.row.col.f32.f16.f16.f32` needs one of the shapes .m16n8k8";
        let e = LoadError::Invalid {
            message: message.into(),
            line: 2,
        };
        assert_eq!(
            format_in_source("a.ptx", text, &e),
            format!("a.ptx:2:3: {message}")
        );
        // A message that quotes no opcode on the line keeps no column.
        let e = LoadError::Invalid {
            message: "duplicate label `L1`".into(),
            line: 2,
        };
        assert_eq!(
            format_in_source("a.ptx", text, &e),
            "a.ptx:2: duplicate label `L1`"
        );
    }
}
