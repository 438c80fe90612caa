//! `warpsim`: check PTX, run kernels described by TOML manifests, run and benchmark the
//! built-in programs.
//!
//! Exit codes (see [`exit`]): 0 success, 1 a check failed (or PTX is not fully supported for
//! `check`), 2 bad input (manifest, PTX, command line), 3 simulation error (memory fault,
//! deadlock, instruction limit).

mod bench;
mod check;
mod exit;
mod init;
mod list;
mod manifest;
mod run;
mod scalar;
mod verify;
mod workload;

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Parser, Subcommand};

use warpsim_suite::Size;

#[derive(Parser)]
#[command(name = "warpsim", version, about = "Cycle-level GPU simulator: check PTX, run kernels and built-in workloads")]
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
        #[arg(value_name = "MANIFEST.toml", required_unless_present = "workload", conflicts_with = "workload")]
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
    },
    /// List the kernels of a PTX file or the built-in workloads.
    List {
        #[command(subcommand)]
        what: ListWhat,
    },
    /// Run every built-in workload and print a table.
    Suite {
        #[arg(long, default_value = "small")]
        size: Size,
        /// Print the table as JSON on stdout.
        #[arg(long)]
        json: bool,
    },
    /// Functional simulation speed: warp- and thread-instructions per second (median).
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
    },
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
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let code = match cli.command {
        Command::Check { files, quiet } => check::run(&files, quiet),
        Command::Run { manifest: Some(path), max_warp_instructions, json, .. } => {
            run::run_manifest(&path, max_warp_instructions, json)
        }
        Command::Run { workload: Some(name), size, max_warp_instructions, json, .. } => {
            workload::run_one(&name, size, max_warp_instructions, json)
        }
        Command::Run { .. } => unreachable!("clap requires a manifest or --workload"),
        Command::List { what: ListWhat::Kernels { file } } => list::kernels(&file),
        Command::List { what: ListWhat::Workloads } => list::workloads(),
        Command::Suite { size, json } => workload::suite(size, json),
        Command::Bench { repeat, workloads, size, json } => bench::run(repeat, &workloads, size, json),
    };
    ExitCode::from(code)
}
