//! `warpsim intensity`: BAWS's barrier intensity of built-in programs. Every program runs in
//! timing mode under LRR and GTO (program × policy cells in parallel, each on its own device),
//! verifies its outputs, and is judged against the class its set declares: barrier-intensive
//! programs must stall more than 15% of their resident warp cycles at barriers or the exit
//! under both policies, non-barrier ones less. A class miss is a finding, reported in the
//! table; only a failed run (verification or simulation) makes the exit code nonzero.

mod verdict;
mod write;

use std::fs::File;
use std::io::Write as _;
use std::path::PathBuf;

use serde::Serialize;
use warpsim_core::device::DeviceOptions;
use warpsim_suite::{Program, Size, SuiteError};
use warpsim_timing::PolicyKind;

use crate::exit;
use crate::model::{Mode, Model, ModelArgs};
use crate::stats_out::Totals;
use crate::suite::{par_map, percent, progress_bar, select};
use crate::workload::{error_code, find, print_table, run_program};
pub use verdict::{Class, Verdict, CUTOFF};

/// The policies every program runs under (the BAWS paper's two baselines).
pub const POLICIES: [PolicyKind; 2] = [PolicyKind::LRR, PolicyKind::GTO];

/// The sets measured when none is named: the two the paper classifies.
const DEFAULT_SETS: [&str; 2] = ["baws-barrier", "baws-nonbarrier"];

/// The command line of `warpsim intensity`.
pub struct Options {
    pub sets: Vec<String>,
    pub workloads: Vec<String>,
    pub size: Size,
    pub config: String,
    pub cfg: Vec<String>,
    pub max_cycles: u64,
    pub jobs: Option<usize>,
    pub csv: Option<PathBuf>,
    pub json: Option<PathBuf>,
    pub markdown: Option<PathBuf>,
}

/// What one program's launches under one policy add up to (warp cycles summed over launches
/// and warps; `fraction` is [`Totals::barrier_exit_fraction`]).
#[derive(Clone, Copy, Debug, Serialize)]
pub struct Sums {
    pub fraction: f64,
    pub barrier: u64,
    pub exit_wait: u64,
    /// Finished CTAs waiting for their stores: in the denominator, not the numerator.
    pub drain: u64,
    pub resident_warp_cycles: u64,
    pub cycles: u64,
    pub launches: u64,
}

/// Why a run gave no measurement.
#[derive(Clone, Debug)]
pub struct Failure {
    pub code: u8,
    /// `MISMATCH` (an output differs from the CPU reference) or `ERROR`.
    pub status: &'static str,
    pub message: String,
}

/// One program: its declared class, one measurement per [`POLICIES`] entry, the verdict.
pub struct Row {
    pub program: &'static Program,
    pub class: Option<Class>,
    pub runs: [Result<Sums, Failure>; 2],
    pub verdict: Verdict,
}

/// The programs to measure: the named workloads, else the named sets (default
/// [`DEFAULT_SETS`]), each program once, in the order named.
fn programs(sets: &[String], workloads: &[String]) -> Result<Vec<&'static Program>, String> {
    let mut out: Vec<&'static Program> = Vec::new();
    let mut add = |p: &'static Program| {
        if !out.iter().any(|q| q.name == p.name) {
            out.push(p);
        }
    };
    if workloads.is_empty() {
        let sets: Vec<&str> = if sets.is_empty() {
            DEFAULT_SETS.to_vec()
        } else {
            sets.iter().map(String::as_str).collect()
        };
        for s in sets {
            select(Some(s))?.into_iter().for_each(&mut add);
        }
    } else {
        for w in workloads {
            add(find(w)?);
        }
    }
    Ok(out)
}

/// Runs `p` once on `model` and sums its launches.
fn measure(p: &Program, size: Size, model: &Model) -> Result<Sums, Failure> {
    let run = run_program(p, size, model, DeviceOptions::default());
    let t = Totals::of(&run.rows);
    let fail = |e: &SuiteError| {
        let code = error_code(e);
        Failure {
            code,
            status: if code == exit::MISMATCH {
                "MISMATCH"
            } else {
                "ERROR"
            },
            message: e.to_string(),
        }
    };
    run.result.as_ref().map_err(fail)?;
    let fraction = t.barrier_exit_fraction().ok_or_else(|| Failure {
        code: exit::SIM_ERROR,
        status: "ERROR",
        message: "no resident warp cycles: the program launched nothing in timing mode".into(),
    })?;
    Ok(Sums {
        fraction,
        barrier: t.stalls.barrier,
        exit_wait: t.stalls.exit_wait,
        drain: t.stalls.drain,
        resident_warp_cycles: t.resident_warp_cycles,
        cycles: t.cycles,
        launches: t.launches,
    })
}

/// The timing model of `o` under each of [`POLICIES`].
fn models(o: &Options) -> Result<[Model; 2], String> {
    let resolve = |policy: PolicyKind| {
        Model::resolve(&ModelArgs {
            mode: Mode::Timing,
            config: o.config.clone(),
            cfg: o.cfg.clone(),
            policy: policy.name(),
            fetch: None,
            max_cycles: o.max_cycles,
            event_log: false,
            cta_order_log: false,
            stats: None,
            synccheck: false,
            threads: 1,
        })
    };
    Ok([resolve(POLICIES[0])?, resolve(POLICIES[1])?])
}

pub fn run(o: &Options) -> u8 {
    // Output files are created before the runs, so a bad path fails at once, not after them.
    let setup = programs(&o.sets, &o.workloads).and_then(|p| {
        Ok((
            p,
            models(o)?,
            create(&o.csv, "--csv")?,
            create(&o.json, "--json")?,
            create(&o.markdown, "--markdown")?,
        ))
    });
    let (mut programs, models, csv_file, json_file, markdown_file) = match setup {
        Ok(x) => x,
        Err(e) => return exit::fail(exit::BAD_INPUT, e),
    };
    // Programs the preset cannot time (tensor-core code without tensor units) are left out
    // with the reason, as `suite` leaves them out.
    programs.retain(|p| match p.unsupported_on(&models[0].config) {
        Some(why) => {
            eprintln!("warpsim: skipped {}: {why}", p.name);
            false
        }
        None => true,
    });
    if programs.is_empty() {
        return exit::fail(
            exit::BAD_INPUT,
            format_args!("no program of the selection can be timed on `{}`", o.config),
        );
    }
    let cells: Vec<(usize, usize)> = (0..programs.len())
        .flat_map(|p| (0..POLICIES.len()).map(move |m| (p, m)))
        .collect();
    let progress = progress_bar(cells.len(), "runs", false);
    let measured = match par_map(&cells, o.jobs, &progress, |&(p, m)| {
        measure(programs[p], o.size, &models[m])
    }) {
        Ok(m) => m,
        Err(e) => return exit::fail(exit::BAD_INPUT, e),
    };
    progress.finish_and_clear();
    let mut measured = measured.into_iter();
    let rows: Vec<Row> = programs
        .iter()
        .map(|&program| {
            let runs = [(); 2].map(|_| measured.next().expect("one measurement per cell"));
            let class = Class::of(program);
            let fractions = runs.each_ref().map(|r| r.as_ref().ok().map(|s| s.fraction));
            Row {
                program,
                class,
                verdict: Verdict::judge(class, &fractions),
                runs,
            }
        })
        .collect();
    print(&rows, o.size, &models[0]);

    let mut code = exit::OK;
    for r in &rows {
        for (policy, run) in POLICIES.iter().zip(&r.runs) {
            if let Err(f) = run {
                code = code.max(f.code);
                eprintln!(
                    "warpsim: error: {} ({}): {}",
                    r.program.name,
                    policy.name(),
                    f.message
                );
            }
        }
    }
    let files = [
        (csv_file, "--csv", write::csv(&rows)),
        (
            json_file,
            "--json",
            write::json(&rows, o.size, &models[0].config.name),
        ),
        (markdown_file, "--markdown", write::markdown(&rows)),
    ];
    for ((path, mut file), flag, text) in files
        .into_iter()
        .filter_map(|(f, flag, text)| Some((f?, flag, text)))
    {
        if let Err(e) = file.write_all(text.as_bytes()) {
            code = code.max(exit::fail(
                exit::BAD_INPUT,
                format_args!("{flag}: cannot write {}: {e}", path.display()),
            ));
        }
    }
    code
}

/// Creates (truncates) the file `path` names, if any.
fn create(path: &Option<PathBuf>, flag: &str) -> Result<Option<(PathBuf, File)>, String> {
    path.as_ref()
        .map(|p| {
            File::create(p)
                .map(|f| (p.clone(), f))
                .map_err(|e| format!("{flag}: cannot create {}: {e}", p.display()))
        })
        .transpose()
}

/// The table and a one-line summary.
fn print(rows: &[Row], size: Size, model: &Model) {
    let header = [
        "program".into(),
        "set".into(),
        "class expected".into(),
        policy_column(0),
        policy_column(1),
        "verdict".into(),
    ];
    let table: Vec<[String; 6]> = rows
        .iter()
        .map(|r| {
            let cell = |i: usize| match &r.runs[i] {
                Ok(s) => percent(Some(s.fraction)),
                Err(f) => f.status.into(),
            };
            [
                r.program.name.into(),
                r.program.sets.join(","),
                r.class.map_or("-", Class::name).into(),
                cell(0),
                cell(1),
                r.verdict.name().into(),
            ]
        })
        .collect();
    print_table(&header, &table);
    let count = |v: Verdict| rows.iter().filter(|r| r.verdict == v).count();
    println!(
        "{} programs: {} ok, {} miss their class, {} failed ({size}, {}; barrier + exit-wait warp cycles / resident warp cycles, cut-off {:.0}%)",
        rows.len(),
        count(Verdict::Ok),
        count(Verdict::MissesClass),
        count(Verdict::Failed),
        model.config.name,
        100.0 * CUTOFF
    );
}

/// `LRR %`.
fn policy_column(i: usize) -> String {
    format!("{} %", POLICIES[i].name().to_uppercase())
}
