//! `warpsim list kernels FILE.ptx` and `warpsim list workloads`.

use std::path::Path;

use crate::check::format_load_errors;
use crate::exit;

pub fn kernels(file: &Path) -> u8 {
    let text = match std::fs::read_to_string(file) {
        Ok(t) => t,
        Err(e) => {
            return exit::fail(
                exit::BAD_INPUT,
                format_args!("{}: cannot read: {e}", file.display()),
            )
        }
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
            println!(
                "  param {i}: {} ({} bytes, align {}, offset {})",
                p.name, p.size, p.align, p.offset
            );
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

/// One block per program: `NAME  [SETS]  SUMMARY`, then its kernels with their CTA shapes,
/// barriers and sizes where the suite declares them; the sets at the end.
pub fn workloads() -> u8 {
    let programs = warpsim_suite::programs();
    let width = programs.iter().map(|p| p.name.len()).max().unwrap_or(0);
    for p in programs {
        println!("{:width$}  [{}]  {}", p.name, p.sets.join(", "), p.summary);
        println!("    kernels   {}", kernel_list(p));
        match warpsim_suite::workload_info(p.name) {
            Some(info) => {
                println!("    barriers  {}", info.barriers);
                println!("    small     {}", info.small);
                println!("    paper     {}", info.paper);
            }
            None => println!("    sizes     small, paper"),
        }
    }
    println!();
    println!("sets (warpsim suite --set NAME):");
    let set_width = warpsim_suite::SETS
        .iter()
        .map(|s| s.name.len())
        .max()
        .unwrap_or(0);
    for s in warpsim_suite::SETS {
        let n = warpsim_suite::set(s.name).map_or(0, |v| v.len());
        println!(
            "  {:set_width$}  {n:>2} programs  {}",
            s.name, s.description
        );
    }
    exit::OK
}

/// `name (shape), …` in launch order from the suite's metadata; otherwise the kernels of the
/// `.ptxas` report, with the CTA size of the BAWS Table 2 main kernel where there is one.
fn kernel_list(p: &warpsim_suite::Program) -> String {
    use warpsim_suite::info::short_name;
    if let Some(info) = warpsim_suite::workload_info(p.name) {
        // One entry per kernel; a kernel launched with different shapes lists them all.
        let mut out: Vec<(&str, Vec<String>)> = Vec::new();
        for k in info.kernels {
            let name = short_name(k.kernel);
            match out.iter_mut().find(|(n, _)| *n == name) {
                Some((_, shapes)) => shapes.push(k.shape()),
                None => out.push((name, vec![k.shape()])),
            }
        }
        return out
            .iter()
            .map(|(n, s)| format!("{n} ({})", s.join(" or ")))
            .collect::<Vec<_>>()
            .join(", ");
    }
    let main = warpsim_suite::occupancy::BAWS_TABLE2
        .iter()
        .find(|r| r.program == p.name);
    match p.resources() {
        Ok(res) => res
            .iter()
            .map(|k| match main {
                Some(row) if row.kernel == k.name => {
                    format!("{} ({})", short_name(&k.name), row.threads_per_cta)
                }
                _ => short_name(&k.name).to_string(),
            })
            .collect::<Vec<_>>()
            .join(", "),
        Err(e) => format!("(unreadable .ptxas report: {e})"),
    }
}
