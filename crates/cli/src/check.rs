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
        match warpsim_core::load_ptx(&text) {
            Ok(module) => {
                if !quiet {
                    println!("{}: ok ({})", file.display(), module_summary(&module));
                }
            }
            Err(errors) => {
                for line in format_load_errors(&file.display().to_string(), &errors) {
                    println!("{line}");
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
    let functions = module.functions.iter().filter(|f| !f.is_kernel && f.has_body).count();
    let insts: usize = module.functions.iter().map(|f| f.insts.len()).sum();
    let plural = |n: usize, word: &str| format!("{n} {word}{}", if n == 1 { "" } else { "s" });
    let mut s = plural(kernels.len(), "kernel");
    if !kernels.is_empty() {
        s.push_str(": ");
        s.push_str(&kernels.join(", "));
    }
    format!("{s}, {}, {}", plural(functions, "function"), plural(insts, "instruction"))
}

/// One `FILE:LINE[:COL]: message` line per error.
pub fn format_load_errors(file: &str, errors: &LoadErrors) -> Vec<String> {
    errors.0.iter().map(|e| format_load_error(file, e)).collect()
}

pub fn format_load_error(file: &str, e: &LoadError) -> String {
    match e {
        LoadError::Parse(p) => format!("{file}:{}:{}: syntax error: {} (found `{}`)", p.line, p.col, p.message, p.found),
        LoadError::Unsupported { what, line } => format!("{file}:{line}: unsupported {what}"),
        LoadError::Undefined { kind, name, line } => format!("{file}:{line}: undefined {kind} `{name}`"),
        LoadError::Invalid { message, line } => format!("{file}:{line}: {message}"),
    }
}
