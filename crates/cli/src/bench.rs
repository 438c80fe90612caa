//! `warpsim bench`: simulation speed (functional or timing mode) on built-in programs,
//! single-threaded.

use std::io::IsTerminal;
use std::time::Duration;

use serde_json::json;
use warpsim_core::device::DeviceOptions;
use warpsim_suite::Size;

use crate::exit;
use crate::model::Model;
use crate::stats_out::Totals;
use crate::workload::{error_code, find, print_table, run_program};

const DEFAULT_WORKLOADS: [&str; 2] = ["matmul", "scalar_prod"];

pub fn run(repeat: u32, workloads: &[String], size: Size, model: &Model, json: bool) -> u8 {
    let names: Vec<&str> = if workloads.is_empty() {
        DEFAULT_WORKLOADS.to_vec()
    } else {
        workloads.iter().map(String::as_str).collect()
    };
    let mut programs = Vec::new();
    for n in &names {
        match find(n) {
            Ok(p) => programs.push(p),
            Err(e) => return exit::fail(exit::BAD_INPUT, e),
        }
    }
    let mut rows = Vec::new();
    let mut json_rows = Vec::new();
    let (mut total_warp, mut total_thread, mut total_time) = (0u64, 0u64, Duration::ZERO);
    let progress = !json && std::io::stderr().is_terminal();
    for p in programs {
        let mut times = Vec::new();
        let mut counts = (0, 0);
        let mut cycles = 0;
        for i in 0..repeat {
            if progress {
                eprint!("\r{} {}/{repeat}", p.name, i + 1);
            }
            let run = run_program(p, size, model, DeviceOptions::default());
            match run.result {
                Ok(o) => {
                    counts = (o.warp_instructions, o.thread_instructions);
                    cycles = Totals::of(&run.rows).cycles;
                    times.push(run.wall);
                }
                Err(e) => {
                    if progress {
                        eprintln!();
                    }
                    return exit::fail(
                        error_code(&e),
                        format_args!("workload {} ({size}) failed: {e}", p.name),
                    );
                }
            }
        }
        if progress {
            eprint!("\r\x1b[K");
        }
        let med = median(&mut times);
        let (warp, thread) = counts;
        total_warp += warp;
        total_thread += thread;
        total_time += med;
        let secs = med.as_secs_f64().max(1e-9);
        rows.push([
            p.name.to_string(),
            warp.to_string(),
            thread.to_string(),
            fmt_duration(med),
            fmt_duration(*times.first().unwrap()),
            fmt_duration(*times.last().unwrap()),
            format!("{:.2}", warp as f64 / secs / 1e6),
            format!("{:.2}", thread as f64 / secs / 1e6),
            if cycles > 0 {
                cycles.to_string()
            } else {
                "-".into()
            },
            if cycles > 0 {
                format!("{:.1}", cycles as f64 / secs / 1e3)
            } else {
                "-".into()
            },
        ]);
        json_rows.push(json!({"workload": p.name, "size": size.name(), "repeat": repeat,
            "warp_instructions": warp, "thread_instructions": thread,
            "median_seconds": med.as_secs_f64(), "min_seconds": times.first().unwrap().as_secs_f64(),
            "max_seconds": times.last().unwrap().as_secs_f64(),
            "warp_instructions_per_second": warp as f64 / secs, "thread_instructions_per_second": thread as f64 / secs,
            "cycles": cycles, "cycles_per_second": cycles as f64 / secs}));
    }
    if json {
        println!(
            "{}",
            serde_json::to_string_pretty(&json!({"size": size.name(), "repeat": repeat, "mode": model.describe(), "workloads": json_rows})).unwrap()
        );
        return exit::OK;
    }
    println!(
        "simulation speed ({}), size {size}, median of {repeat} run{} (host reference and checks included)",
        model.describe(),
        if repeat == 1 { "" } else { "s" }
    );
    let header = [
        "workload",
        "warp insts",
        "thread insts",
        "median",
        "min",
        "max",
        "M warp/s",
        "M thread/s",
        "cycles",
        "K cycles/s",
    ]
    .map(String::from);
    print_table(&header, &rows);
    if rows.len() > 1 {
        println!(
            "overall: {}",
            fmt_rate(total_warp, total_thread, total_time)
        );
    }
    exit::OK
}

/// Sorts `times` and returns the median (mean of the middle two for an even count).
fn median(times: &mut [Duration]) -> Duration {
    times.sort();
    let n = times.len();
    if n % 2 == 1 {
        times[n / 2]
    } else {
        (times[n / 2 - 1] + times[n / 2]) / 2
    }
}

/// `12.3 ms`, `4.56 s`…
pub fn fmt_duration(d: Duration) -> String {
    let s = d.as_secs_f64();
    if s >= 1.0 {
        format!("{s:.2} s")
    } else if s >= 1e-3 {
        format!("{:.2} ms", s * 1e3)
    } else {
        format!("{:.1} µs", s * 1e6)
    }
}

/// `1.23 M warp inst/s, 39.4 M thread inst/s`.
pub fn fmt_rate(warp: u64, thread: u64, wall: Duration) -> String {
    let secs = wall.as_secs_f64().max(1e-9);
    format!(
        "{:.2} M warp inst/s, {:.2} M thread inst/s",
        warp as f64 / secs / 1e6,
        thread as f64 / secs / 1e6
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn median_odd_and_even() {
        let ms = Duration::from_millis;
        assert_eq!(median(&mut [ms(5), ms(1), ms(3)]), ms(3));
        assert_eq!(
            median(&mut [ms(4), ms(1), ms(3), ms(2)]),
            Duration::from_micros(2500)
        );
    }
}
