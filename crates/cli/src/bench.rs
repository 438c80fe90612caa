//! `warpsim bench`: simulation speed (functional or timing mode) on built-in programs; in
//! timing mode optionally over a grid of presets × thread counts (`--presets`,
//! `--thread-counts`), the table `docs/performance.md` keeps.

use std::io::IsTerminal;
use std::time::Duration;

use serde_json::json;
use warpsim_core::device::DeviceOptions;
use warpsim_suite::{Program, Size};

use crate::exit;
use crate::model::{Mode, Model, ModelArgs};
use crate::stats_out::Totals;
use crate::workload::{error_code, find, print_table, run_program};

const DEFAULT_WORKLOADS: [&str; 2] = ["matmul", "scalar_prod"];

/// What to measure besides the model options.
pub struct Options<'a> {
    pub repeat: u32,
    pub workloads: &'a [String],
    pub size: Size,
    pub json: bool,
    /// `--presets`: the presets (or config files) to measure in turn, instead of `--config`.
    pub presets: &'a [String],
    /// `--thread-counts`: the thread counts to measure in turn, instead of `--threads`.
    pub thread_counts: &'a [u32],
}

/// One workload measured on one model.
struct Measured {
    program: &'static Program,
    warp: u64,
    thread: u64,
    cycles: u64,
    /// Wall times of the repeats, sorted.
    times: Vec<Duration>,
    median: Duration,
}

impl Measured {
    fn secs(&self) -> f64 {
        self.median.as_secs_f64().max(1e-9)
    }
}

/// One cell of the grid: a model (its preset, its thread count) and its workloads' figures.
struct Cell {
    model: Model,
    runs: Vec<Measured>,
}

pub fn run(args: &ModelArgs, o: &Options) -> u8 {
    let names: Vec<&str> = if o.workloads.is_empty() {
        DEFAULT_WORKLOADS.to_vec()
    } else {
        o.workloads.iter().map(String::as_str).collect()
    };
    let mut programs = Vec::new();
    for n in &names {
        match find(n) {
            Ok(p) => programs.push(p),
            Err(e) => return exit::fail(exit::BAD_INPUT, e),
        }
    }
    let grid = !o.presets.is_empty() || !o.thread_counts.is_empty();
    if grid && args.mode != Mode::Timing {
        return exit::fail(
            exit::BAD_INPUT,
            "--presets and --thread-counts measure the timing model: add --mode timing (the default) or leave them out",
        );
    }
    let models = match models(args, o) {
        Ok(m) => m,
        Err(e) => return exit::fail(exit::BAD_INPUT, e),
    };
    if let Some(w) = args.functional_warning(false) {
        eprintln!("{w}");
    }
    let progress = !o.json && std::io::stderr().is_terminal();
    let mut cells = Vec::new();
    let mut skipped: Vec<(String, &str)> = Vec::new();
    for model in models {
        let mut runs = Vec::new();
        for &p in &programs {
            if model.mode == Mode::Timing {
                if let Some(why) = p.unsupported_on(&model.config) {
                    // Once per preset, not per thread count.
                    let key = (model.config.name.clone(), p.name);
                    if !skipped.contains(&key) {
                        eprintln!("warpsim: skipped {}: {why}", p.name);
                        skipped.push(key);
                    }
                    continue;
                }
            }
            match measure(p, o, &model, progress) {
                Ok(m) => runs.push(m),
                Err(code) => return code,
            }
        }
        cells.push(Cell { model, runs });
    }
    if cells.iter().all(|c| c.runs.is_empty()) {
        return exit::fail(exit::BAD_INPUT, "no workload can run on the model given");
    }
    if grid {
        report_grid(&cells, o);
    } else {
        report_one(&cells[0], o);
    }
    exit::OK
}

/// The models to measure: `--presets` × `--thread-counts`, each defaulting to the model
/// options' one (`--config`, `--threads`); presets in the order given, thread counts within.
fn models(args: &ModelArgs, o: &Options) -> Result<Vec<Model>, String> {
    let presets = match o.presets {
        [] => std::slice::from_ref(&args.config),
        p => p,
    };
    let counts = match o.thread_counts {
        [] => std::slice::from_ref(&args.threads),
        c => c,
    };
    let mut models = Vec::new();
    for preset in presets {
        for &n in counts {
            let mut a = args.clone();
            a.config = preset.clone();
            a.threads = n;
            models.push(Model::resolve(&a)?);
        }
    }
    Ok(models)
}

/// Runs `p` `o.repeat` times on `model`.
fn measure(
    p: &'static Program,
    o: &Options,
    model: &Model,
    progress: bool,
) -> Result<Measured, u8> {
    let mut times = Vec::new();
    let (mut warp, mut thread, mut cycles) = (0, 0, 0);
    for i in 0..o.repeat {
        if progress {
            eprint!("\r{} {} {}/{}", model.describe(), p.name, i + 1, o.repeat);
        }
        let run = run_program(p, o.size, model, DeviceOptions::default());
        match run.result {
            Ok(r) => {
                (warp, thread) = (r.warp_instructions, r.thread_instructions);
                cycles = Totals::of(&run.rows).cycles;
                times.push(run.wall);
            }
            Err(e) => {
                if progress {
                    eprintln!();
                }
                return Err(exit::fail(
                    error_code(&e),
                    format_args!("workload {} ({}) failed: {e}", p.name, o.size),
                ));
            }
        }
    }
    if progress {
        eprint!("\r\x1b[K");
    }
    let median = median(&mut times);
    Ok(Measured {
        program: p,
        warp,
        thread,
        cycles,
        times,
        median,
    })
}

/// Thousands of `count` per second of `m`'s median, or `-` for none (functional mode).
fn per_second(count: u64, m: &Measured, scale: f64, digits: usize) -> String {
    if count == 0 {
        return "-".into();
    }
    format!("{:.*}", digits, count as f64 / m.secs() / scale)
}

/// The table of one model (no grid options).
fn report_one(cell: &Cell, o: &Options) {
    let model = &cell.model;
    let runs = &cell.runs;
    if o.json {
        let rows: Vec<_> = runs.iter().map(|m| row_json(m, o)).collect();
        let v = json!({"size": o.size.name(), "repeat": o.repeat, "mode": model.describe(), "workloads": rows});
        println!("{}", serde_json::to_string_pretty(&v).unwrap());
        return;
    }
    println!(
        "simulation speed ({}), size {}, median of {} run{} (host reference and checks included)",
        model.describe(),
        o.size,
        o.repeat,
        if o.repeat == 1 { "" } else { "s" }
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
    let rows: Vec<[String; 10]> = runs
        .iter()
        .map(|m| {
            [
                m.program.name.to_string(),
                m.warp.to_string(),
                m.thread.to_string(),
                fmt_duration(m.median),
                fmt_duration(m.times[0]),
                fmt_duration(*m.times.last().unwrap()),
                format!("{:.2}", m.warp as f64 / m.secs() / 1e6),
                format!("{:.2}", m.thread as f64 / m.secs() / 1e6),
                if m.cycles > 0 {
                    m.cycles.to_string()
                } else {
                    "-".into()
                },
                per_second(m.cycles, m, 1e3, 1),
            ]
        })
        .collect();
    print_table(&header, &rows);
    if rows.len() > 1 {
        let sum = |f: fn(&Measured) -> u64| runs.iter().map(f).sum::<u64>();
        let time = runs.iter().map(|m| m.median).sum();
        println!(
            "overall: {}",
            fmt_rate(sum(|m| m.warp), sum(|m| m.thread), time)
        );
    }
}

/// The grid's table: a row per preset × thread count × workload, with the speedup over the
/// same preset and workload at the first thread count given.
fn report_grid(cells: &[Cell], o: &Options) {
    let first_median = |cell: &Cell, m: &Measured| {
        cells
            .iter()
            .find(|c| c.model.config.name == cell.model.config.name)
            .and_then(|c| c.runs.iter().find(|r| r.program.name == m.program.name))
            .map_or(m.median, |r| r.median)
    };
    if o.json {
        let mut rows = Vec::new();
        for c in cells {
            for m in &c.runs {
                let mut r = row_json(m, o);
                let speedup = first_median(c, m).as_secs_f64() / m.secs();
                r["preset"] = json!(c.model.config.name);
                r["threads"] = json!(c.model.threads);
                r["sms"] = json!(c.model.config.gpu.num_sms);
                r["sm_cycles_per_second"] = json!(sm_cycles(c, m) as f64 / m.secs());
                r["speedup"] = json!(speedup);
                rows.push(r);
            }
        }
        let v = json!({"size": o.size.name(), "repeat": o.repeat, "policy": cells[0].model.policy.name(), "rows": rows});
        println!("{}", serde_json::to_string_pretty(&v).unwrap());
        return;
    }
    println!(
        "simulation speed, timing mode ({}), size {}, median of {} run{} (host reference and checks included); speedup: over the same preset at {} thread{}",
        cells[0].model.policy.name(),
        o.size,
        o.repeat,
        if o.repeat == 1 { "" } else { "s" },
        cells[0].model.threads,
        if cells[0].model.threads == 1 { "" } else { "s" },
    );
    let header = [
        "preset",
        "SMs",
        "threads",
        "workload",
        "thread insts",
        "cycles",
        "median",
        "M thread/s",
        "K cycles/s",
        "M SM-cycles/s",
        "speedup",
    ]
    .map(String::from);
    let mut rows = Vec::new();
    for c in cells {
        for m in &c.runs {
            rows.push([
                c.model.config.name.clone(),
                c.model.config.gpu.num_sms.to_string(),
                c.model.threads.to_string(),
                m.program.name.to_string(),
                m.thread.to_string(),
                m.cycles.to_string(),
                fmt_duration(m.median),
                format!("{:.2}", m.thread as f64 / m.secs() / 1e6),
                per_second(m.cycles, m, 1e3, 1),
                per_second(sm_cycles(c, m), m, 1e6, 2),
                format!("{:.2}×", first_median(c, m).as_secs_f64() / m.secs()),
            ]);
        }
    }
    print_table(&header, &rows);
}

/// Simulated SM-cycles of `m` on `c`'s GPU: its cycles times the SM count (the work a
/// preset's size multiplies).
fn sm_cycles(c: &Cell, m: &Measured) -> u64 {
    m.cycles * c.model.config.gpu.num_sms as u64
}

/// The JSON object of one workload on one model.
fn row_json(m: &Measured, o: &Options) -> serde_json::Value {
    let secs = m.secs();
    json!({"workload": m.program.name, "size": o.size.name(), "repeat": o.repeat,
        "warp_instructions": m.warp, "thread_instructions": m.thread,
        "median_seconds": m.median.as_secs_f64(), "min_seconds": m.times[0].as_secs_f64(),
        "max_seconds": m.times.last().unwrap().as_secs_f64(),
        "warp_instructions_per_second": m.warp as f64 / secs, "thread_instructions_per_second": m.thread as f64 / secs,
        "cycles": m.cycles, "cycles_per_second": m.cycles as f64 / secs})
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
