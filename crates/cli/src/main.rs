//! `warpsim`: check PTX, run kernels described by TOML manifests, run and benchmark the
//! built-in programs (functional or cycle-level timing mode), run CUDA programs on the shim.
//!
//! Exit codes (see [`exit`]): 0 success, 1 a check failed (or PTX is not fully supported for
//! `check`), 2 bad input (manifest, PTX, command line), 3 simulation error (memory fault,
//! deadlock, instruction limit).

mod bench;
mod check;
mod correlate;
mod csv_out;
mod elf;
mod exec;
mod exec_summary;
mod exit;
mod init;
mod intensity;
mod interrupt;
mod lab;
mod list;
mod list_model;
mod manifest;
mod model;
mod plot;
mod run;
mod scalar;
mod stats_out;
mod suite;
mod trace_out;
mod verify;
mod workload;

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Parser, Subcommand};

use model::{Model, ModelArgs};
use warpsim_suite::Size;

#[derive(Parser)]
#[command(
    name = "warpsim",
    version,
    about = "Cycle-level GPU simulator: check PTX, run kernels and built-in workloads"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Parse and lower PTX files, reporting every unsupported or invalid construct.
    Check {
        #[arg(required = true, value_name = "FILE.ptx")]
        files: Vec<PathBuf>,
        /// Print only errors.
        #[arg(short, long)]
        quiet: bool,
    },
    /// Run the kernel launches described by a TOML manifest, or a built-in workload.
    Run {
        #[arg(
            value_name = "MANIFEST.toml",
            required_unless_present = "workload",
            conflicts_with = "workload"
        )]
        manifest: Option<PathBuf>,
        /// Run the built-in program NAME instead of a manifest (see `warpsim list workloads`).
        #[arg(long, value_name = "NAME")]
        workload: Option<String>,
        /// Problem size of a built-in workload.
        #[arg(long, default_value = "small", requires = "workload")]
        size: Size,
        /// Override the manifest's `max_warp_instructions` (per launch).
        #[arg(long, value_name = "N")]
        max_warp_instructions: Option<u64>,
        /// Print the summary as JSON on stdout.
        #[arg(long)]
        json: bool,
        /// Write a Chrome/Perfetto trace of the timed launches (per SM and warp slot: CTAs,
        /// warp phases, barrier and exit waits; ts in cycles) to FILE.json. Switches the event
        /// log on. Open it at ui.perfetto.dev or chrome://tracing.
        #[arg(long, value_name = "FILE.json")]
        trace: Option<PathBuf>,
        /// Write every issued warp instruction of the timed launches to FILE.csv (launch,
        /// kernel, cycle, sm, scheduler, slot, warp, pc): the issue order, to set beside
        /// GPGPU-Sim's `WARP_SCHEDULER` trace. Timing mode; one row per warp instruction.
        #[arg(long, value_name = "FILE.csv")]
        issue_trace: Option<PathBuf>,
        /// Timing mode: a progress line on stderr every 2 s (cycles, IPC, CTAs done, warp
        /// instructions/s); on by default when stderr is a terminal.
        #[arg(long)]
        progress: bool,
        #[command(flatten)]
        model: ModelArgs,
    },
    /// List the kernels of a PTX file, the built-in workloads, policies or GPU configs.
    List {
        #[command(subcommand)]
        what: ListWhat,
    },
    /// Run the built-in programs in parallel and print a table (program, set, cycles, IPC…).
    Suite {
        /// Run only the programs of this set (`warpsim list workloads` shows the sets).
        /// Config overrides are `-c`/`--cfg KEY=VALUE`, not `--set`.
        #[arg(long, value_name = "NAME")]
        set: Option<String>,
        #[arg(long, default_value = "small")]
        size: Size,
        /// Worker threads (default: one per CPU). Results do not depend on it.
        #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..))]
        jobs: Option<u32>,
        /// Print the table as JSON on stdout.
        #[arg(long)]
        json: bool,
        #[command(flatten)]
        model: ModelArgs,
    },
    /// BAWS barrier intensity: each program's barrier + exit-wait share of its resident warp
    /// cycles under LRR and GTO (timing mode), judged against its set's class (15% cut-off).
    Intensity {
        /// Measure the programs of this set (repeatable; default: baws-barrier and
        /// baws-nonbarrier).
        #[arg(long = "set", value_name = "NAME")]
        sets: Vec<String>,
        /// Measure this built-in program instead of sets (repeatable).
        #[arg(long = "workload", value_name = "NAME", conflicts_with = "sets")]
        workloads: Vec<String>,
        #[arg(long, default_value = "small")]
        size: Size,
        /// GPU preset (`warpsim list configs`) or a TOML config file.
        #[arg(long, value_name = "NAME|FILE", default_value = "gtx480")]
        config: String,
        /// Override one config key, e.g. `-c sm.schedulers=4` (repeatable).
        #[arg(short = 'c', long = "cfg", value_name = "KEY=VALUE")]
        cfg: Vec<String>,
        /// A launch running longer than this many cycles fails (runaway guard).
        #[arg(long, value_name = "N", default_value_t = warpsim_timing::engine::DEFAULT_MAX_CYCLES, value_parser = clap::value_parser!(u64).range(1..))]
        max_cycles: u64,
        /// Worker threads (default: one per CPU). Results do not depend on it.
        #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..))]
        jobs: Option<u32>,
        /// Also write the table, with the warp-cycle sums behind it, as CSV.
        #[arg(long, value_name = "FILE")]
        csv: Option<PathBuf>,
        /// Also write it as JSON.
        #[arg(long, value_name = "FILE")]
        json: Option<PathBuf>,
        /// Also write it as a Markdown table (with the barrier / exit-wait split and drain).
        #[arg(long, value_name = "FILE")]
        markdown: Option<PathBuf>,
    },
    /// Run a named experiment of the papers (tables, figures and a report beside the
    /// paper's claims): `warpsim reproduce --list` names them.
    Reproduce {
        /// Experiments or groups (`baws` runs every BAWS figure).
        #[arg(value_name = "NAME")]
        names: Vec<String>,
        /// List the built-in experiments and groups.
        #[arg(long)]
        list: bool,
        #[command(flatten)]
        sweep: SweepArgs,
    },
    /// Run an experiment described by a TOML file (the format of `crates/cli/experiments/`).
    Sweep {
        #[arg(value_name = "FILE.toml")]
        file: PathBuf,
        #[command(flatten)]
        sweep: SweepArgs,
    },
    /// Simulation speed: warp- and thread-instructions (and cycles) per second (median).
    Bench {
        /// Repetitions per workload.
        #[arg(long, default_value_t = 5, value_parser = clap::value_parser!(u32).range(1..))]
        repeat: u32,
        /// Workloads to run (default: matmul scalar_prod).
        #[arg(long = "workload", value_name = "NAME", num_args = 1..)]
        workloads: Vec<String>,
        #[arg(long, default_value = "paper")]
        size: Size,
        /// Print the results as JSON on stdout.
        #[arg(long)]
        json: bool,
        /// Timing mode: measure on each of these presets (or config files) in turn instead of
        /// --config, in one table with simulated SM-cycles per second (comma-separated).
        #[arg(long, value_name = "P", value_delimiter = ',', num_args = 1..)]
        presets: Vec<String>,
        /// Timing mode: measure with each of these thread counts in turn instead of
        /// --threads, in one table with the speedup over the first (comma-separated).
        #[arg(long = "thread-counts", value_name = "N", value_delimiter = ',', num_args = 1.., value_parser = clap::value_parser!(u32).range(1..=1024))]
        thread_counts: Vec<u32>,
        #[command(flatten)]
        model: ModelArgs,
    },
    /// Compare warpsim with GPGPU-Sim: read the run folders of `scripts/correlate.sh`
    /// (RUNS/PROGRAM/PRESET/POLICY/) and write a CSV, a Markdown table and an SVG scatter plot.
    Correlate {
        /// The runs folder the script wrote.
        #[arg(value_name = "RUNS")]
        runs: PathBuf,
        /// Folder for correlation.csv, correlation.md and correlation.svg.
        #[arg(long, value_name = "DIR")]
        out: PathBuf,
        /// Also write the CSV to FILE (the committed reference, e.g.
        /// correlation/reference/gpgpusim.csv).
        #[arg(long, value_name = "FILE")]
        reference: Option<PathBuf>,
        /// Take GPGPU-Sim's side from an earlier reference CSV (and the .md report beside it)
        /// instead of the run folders: re-checking warpsim after a model change without
        /// re-running GPGPU-Sim.
        #[arg(long, value_name = "FILE")]
        gpgpusim_from: Option<PathBuf>,
        /// Merge the runs into an earlier reference CSV (and the .md report beside it): its
        /// rows for the program × preset × policy the runs hold are replaced, every other row
        /// is kept as it is, and the tables, the plot and `--reference` cover them all
        /// (adding or refreshing a few programs without re-running the rest).
        #[arg(long, value_name = "FILE")]
        merge: Option<PathBuf>,
    },
    /// Run a CUDA program (built with `nvcc -cudart shared`) on the simulator through the
    /// libcudart.so.13 shim; exits with the program's exit code.
    Exec {
        /// Write a Chrome/Perfetto trace of the program's launches to FILE.json (see `run
        /// --trace`); rewritten after every launch.
        #[arg(long, value_name = "FILE.json")]
        trace: Option<PathBuf>,
        /// The runaway limit: a launch executing more warp instructions than this fails.
        #[arg(long, value_name = "N")]
        max_warp_instructions: Option<u64>,
        /// No closing summary (per kernel: cycles, instructions, IPC; simulation rate).
        #[arg(short, long)]
        quiet: bool,
        /// Timing mode: progress lines on stderr every 2 s during long launches; on by
        /// default when stderr is a terminal.
        #[arg(long)]
        progress: bool,
        /// Write the PTX embedded in the program to DIR, one file per module
        /// (`module<N>.compute_<SM>.ptx`), so the PTX line numbers in messages can be looked up.
        #[arg(long, value_name = "DIR")]
        dump_ptx: Option<PathBuf>,
        /// Timing mode: registers per thread of kernel KERNEL (its mangled name) for its
        /// occupancy, instead of its cubin's count (repeatable); `scripts/correlate.sh` gives
        /// the counts GPGPU-Sim's occupancy uses, as a manifest's `registers` does for `run`.
        #[arg(long, value_name = "KERNEL=N")]
        registers: Vec<String>,
        #[command(flatten)]
        model: ModelArgs,
        /// The program and its arguments (after `--`).
        #[arg(
            required = true,
            trailing_var_arg = true,
            allow_hyphen_values = true,
            value_name = "PROGRAM ARGS"
        )]
        command: Vec<std::ffi::OsString>,
    },
}

/// Options of `reproduce` and `sweep`.
#[derive(clap::Args)]
struct SweepArgs {
    /// Problem size of every program (default: each experiment's own, `small` for the
    /// built-in ones).
    #[arg(long)]
    size: Option<Size>,
    /// Worker threads (default: one per CPU). Results do not depend on it.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..))]
    jobs: Option<u32>,
    /// Results folder: the run cache (`DIR/runs/`) and one folder per experiment.
    #[arg(long, value_name = "DIR", default_value = "results")]
    out: PathBuf,
    /// Re-run every run instead of reusing cached results.
    #[arg(long)]
    fresh: bool,
    /// Run only shard I of N (1 <= I <= N) of the runs; under a Slurm job array the shard
    /// comes from SLURM_ARRAY_TASK_ID / SLURM_ARRAY_TASK_COUNT.
    #[arg(long, value_name = "I/N")]
    shard: Option<String>,
    /// Run nothing: assemble tables, figures and reports from the cached runs (after
    /// shards), naming any run that is missing.
    #[arg(long, conflicts_with_all = ["shard", "fresh", "sbatch"])]
    collect: bool,
    /// Print a Slurm job-array script that runs the shards and then collects.
    #[arg(long)]
    sbatch: bool,
    /// Array tasks of `--sbatch`.
    #[arg(long, value_name = "N", default_value_t = 4, value_parser = clap::value_parser!(u32).range(1..=10000))]
    tasks: u32,
    /// A launch running longer than this many cycles fails (runaway guard).
    #[arg(long, value_name = "N", default_value_t = warpsim_timing::engine::DEFAULT_MAX_CYCLES, value_parser = clap::value_parser!(u64).range(1..))]
    max_cycles: u64,
}

impl SweepArgs {
    fn options(self, what: Vec<String>) -> lab::command::Options {
        lab::command::Options {
            size: self.size,
            jobs: self.jobs.map(|n| n as usize),
            fresh: self.fresh,
            out: self.out,
            shard: self.shard,
            collect: self.collect,
            sbatch: self.sbatch,
            tasks: self.tasks as usize,
            max_cycles: self.max_cycles,
            what,
        }
    }
}

#[derive(Subcommand)]
enum ListWhat {
    /// The kernels of a PTX file and their parameters.
    Kernels {
        #[arg(value_name = "FILE.ptx")]
        file: PathBuf,
    },
    /// The built-in workloads.
    Workloads,
    /// The issue and fetch policies `--policy` and `--fetch` accept, with their parameters.
    Policies,
    /// The GPU presets `--config` accepts.
    Configs,
}

/// Resolves the model options or exits with a bad-input error.
fn model_or_exit(a: &ModelArgs) -> Result<Model, u8> {
    let model = Model::resolve(a).map_err(|e| exit::fail(exit::BAD_INPUT, e))?;
    if let Some(w) = a.functional_warning(false) {
        eprintln!("{w}");
    }
    Ok(model)
}

/// [`model_or_exit`] with `--trace` and `--issue-trace` applied (the event log or the issue
/// record on, timing mode required).
fn traced_model_or_exit(
    a: &ModelArgs,
    trace: Option<PathBuf>,
    issue_trace: Option<PathBuf>,
) -> Result<Model, u8> {
    let model = model_or_exit(a)?;
    let mut model =
        trace_out::enable(model, trace.as_deref()).map_err(|e| exit::fail(exit::BAD_INPUT, e))?;
    trace_out::needs_timing(&model, "--issue-trace", issue_trace.as_deref())
        .map_err(|e| exit::fail(exit::BAD_INPUT, e))?;
    model.trace = trace;
    model.issue_trace = issue_trace;
    Ok(model)
}

/// `run`'s model: Ctrl-C handled, progress lines with `--progress` or on a terminal.
fn watched(mut model: Model, progress: bool) -> Model {
    use std::io::IsTerminal;
    let timed = model.mode == model::Mode::Timing;
    interrupt::install(timed);
    if timed {
        model.watch = Some(progress || std::io::stderr().is_terminal());
    }
    model
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let code = match run(cli.command) {
        Ok(c) | Err(c) => c,
    };
    ExitCode::from(code)
}

fn run(command: Command) -> Result<u8, u8> {
    Ok(match command {
        Command::Check { files, quiet } => check::run(&files, quiet),
        Command::Run {
            manifest: Some(path),
            max_warp_instructions,
            json,
            trace,
            issue_trace,
            progress,
            model,
            ..
        } => run::run_manifest(
            &path,
            max_warp_instructions,
            &watched(traced_model_or_exit(&model, trace, issue_trace)?, progress),
            json,
        ),
        Command::Run {
            workload: Some(name),
            size,
            max_warp_instructions,
            json,
            trace,
            issue_trace,
            progress,
            model,
            ..
        } => workload::run_one(
            &name,
            size,
            max_warp_instructions,
            &watched(traced_model_or_exit(&model, trace, issue_trace)?, progress),
            json,
        ),
        Command::Run { .. } => unreachable!("clap requires a manifest or --workload"),
        Command::List {
            what: ListWhat::Kernels { file },
        } => list::kernels(&file),
        Command::List {
            what: ListWhat::Workloads,
        } => list::workloads(),
        Command::List {
            what: ListWhat::Policies,
        } => list_model::policies(),
        Command::List {
            what: ListWhat::Configs,
        } => list_model::configs(),
        Command::Suite {
            set,
            size,
            jobs,
            json,
            model,
        } => suite::suite(
            set.as_deref(),
            size,
            &model_or_exit(&model)?,
            jobs.map(|n| n as usize),
            json,
        ),
        Command::Intensity {
            sets,
            workloads,
            size,
            config,
            cfg,
            max_cycles,
            jobs,
            csv,
            json,
            markdown,
        } => intensity::run(&intensity::Options {
            sets,
            workloads,
            size,
            config,
            cfg,
            max_cycles,
            jobs: jobs.map(|n| n as usize),
            csv,
            json,
            markdown,
        }),
        Command::Reproduce { names, list, sweep } => {
            let what = std::iter::once("reproduce".to_string())
                .chain(names.iter().cloned())
                .collect();
            lab::command::reproduce(&names, list, &sweep.options(what))
        }
        Command::Sweep { file, sweep } => {
            let what = vec!["sweep".to_string(), file.display().to_string()];
            lab::command::sweep(&file, &sweep.options(what))
        }
        Command::Bench {
            repeat,
            workloads,
            size,
            json,
            presets,
            thread_counts,
            model,
        } => bench::run(
            &model,
            &bench::Options {
                repeat,
                workloads: &workloads,
                size,
                json,
                presets: &presets,
                thread_counts: &thread_counts,
            },
        ),
        Command::Correlate {
            runs,
            out,
            reference,
            gpgpusim_from,
            merge,
        } => correlate::run(&correlate::Options {
            runs,
            out,
            reference,
            gpgpusim_from,
            merge,
        }),
        Command::Exec {
            trace,
            max_warp_instructions,
            quiet,
            progress,
            dump_ptx,
            registers,
            model,
            command,
        } => {
            use std::io::IsTerminal;
            let progress = progress || std::io::stderr().is_terminal();
            let opts = exec::Options {
                trace: trace.as_deref(),
                max_warp_instructions,
                quiet,
                progress,
                dump_ptx: dump_ptx.as_deref(),
                registers: &registers,
            };
            exec::run(&model, &opts, &command)
        }
    })
}
