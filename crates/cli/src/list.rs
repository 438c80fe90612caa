//! `warpsim list kernels FILE.ptx` and `warpsim list workloads`.

use std::path::Path;

use crate::check::format_load_errors;
use crate::exit;

pub fn kernels(file: &Path) -> u8 {
    let text = match std::fs::read_to_string(file) {
        Ok(t) => t,
        Err(e) => return exit::fail(exit::BAD_INPUT, format_args!("{}: cannot read: {e}", file.display())),
    };
    let module = match warpsim_core::load_ptx(&text) {
        Ok(m) => m,
        Err(errors) => {
            for line in format_load_errors(&file.display().to_string(), &errors) {
                eprintln!("{line}");
            }
            return exit::BAD_INPUT;
        }
    };
    for (_, f) in module.kernels() {
        println!("{}", f.name);
        for (i, p) in f.params.iter().enumerate() {
            println!("  param {i}: {} ({} bytes, align {}, offset {})", p.name, p.size, p.align, p.offset);
        }
        let mut extra = vec![format!("{} instructions", f.insts.len())];
        if f.shared_bytes > 0 {
            extra.push(format!("{} bytes static shared", f.shared_bytes));
        }
        if let Some([x, y, z]) = f.reqntid {
            extra.push(format!("reqntid {x},{y},{z}"));
        }
        if let Some([x, y, z]) = f.maxntid {
            extra.push(format!("maxntid {x},{y},{z}"));
        }
        println!("  {}", extra.join(", "));
    }
    exit::OK
}

pub fn workloads() -> u8 {
    let programs = warpsim_suite::programs();
    let width = programs.iter().map(|p| p.name.len()).max().unwrap_or(0);
    for p in programs {
        println!("{:width$}  {}", p.name, p.summary);
    }
    exit::OK
}
