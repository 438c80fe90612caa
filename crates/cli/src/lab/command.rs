//! `warpsim reproduce` and `warpsim sweep`: plan, run (or reuse), and write each
//! experiment's outputs; or, with `--sbatch`, print a Slurm script that does it on a cluster.

use std::path::{Path, PathBuf};
use std::time::Instant;

use warpsim_suite::Size;

use super::cache::Cache;
use super::claims::Tally;
use super::grid::Grid;
use super::runner::{execute, plan, size_of, RunOptions};
use super::shard::{sbatch_script, SbatchPlan, Shard};
use super::spec::Experiment;
use super::{builtin, output};
use crate::bench::fmt_duration;
use crate::exit;
use crate::suite::progress_bar;

/// The options `reproduce` and `sweep` share.
pub struct Options {
    pub size: Option<Size>,
    pub jobs: Option<usize>,
    pub fresh: bool,
    pub out: PathBuf,
    pub shard: Option<String>,
    pub collect: bool,
    pub sbatch: bool,
    pub tasks: usize,
    pub max_cycles: u64,
    /// The arguments naming the experiments (for `--sbatch`'s script).
    pub what: Vec<String>,
}

pub fn reproduce(names: &[String], list: bool, o: &Options) -> u8 {
    if list || names.is_empty() {
        print!("{}", builtin::list());
        if !list {
            eprintln!("warpsim: name an experiment or group to run (above)");
            return exit::BAD_INPUT;
        }
        return exit::OK;
    }
    let mut experiments: Vec<Experiment> = Vec::new();
    for n in names {
        match builtin::resolve(n) {
            Ok(es) => experiments.extend(
                es.into_iter()
                    .filter(|e| !experiments.iter().any(|x| x.name == e.name))
                    .collect::<Vec<_>>(),
            ),
            Err(e) => return exit::fail(exit::BAD_INPUT, e),
        }
    }
    run(&experiments, o)
}

pub fn sweep(file: &Path, o: &Options) -> u8 {
    let text = match std::fs::read_to_string(file) {
        Ok(t) => t,
        Err(e) => {
            return exit::fail(
                exit::BAD_INPUT,
                format!("cannot read {}: {e}", file.display()),
            )
        }
    };
    match Experiment::from_toml(&text, &file.display().to_string()) {
        Ok(e) => run(&[e], o),
        Err(e) => exit::fail(exit::BAD_INPUT, e),
    }
}

fn run(experiments: &[Experiment], o: &Options) -> u8 {
    let ro = RunOptions {
        size: o.size,
        max_cycles: o.max_cycles,
    };
    if o.sbatch {
        return sbatch(o);
    }
    let shard = match &o.shard {
        Some(s) => Shard::parse(s).map(Some),
        None => Shard::from_slurm(|k| std::env::var(k).ok()),
    };
    let shard = match shard {
        Ok(s) => s,
        Err(e) => return exit::fail(exit::BAD_INPUT, e),
    };
    let plan = match plan(experiments, &ro) {
        Ok(p) => p,
        Err(e) => return exit::fail(exit::BAD_INPUT, e),
    };
    let cache = Cache::new(&o.out);
    let mut code = exit::OK;
    if !o.collect {
        let start = Instant::now();
        let progress = progress_bar(0, "runs", false);
        let done = match execute(&plan, &cache, shard, o.fresh, o.jobs, &progress) {
            Ok(d) => d,
            Err(e) => return exit::fail(exit::BAD_INPUT, e),
        };
        progress.finish_and_clear();
        let share = shard.map_or(String::new(), |s| format!(" (shard {s})"));
        println!(
            "{} runs{share}: {} simulated, {} from the cache, {} failed; {}",
            done.ran + done.reused,
            done.ran,
            done.reused,
            done.failures.len(),
            fmt_duration(start.elapsed())
        );
        if !done.failures.is_empty() {
            code = exit::MISMATCH;
            for f in &done.failures {
                eprintln!("warpsim: failed: {f}");
            }
        }
        if let Some(s) = shard {
            println!("shard {s} done; when every shard is, assemble the results with `{} --out {} --collect`", o.what.join(" "), o.out.display());
            return code;
        }
    }
    for e in experiments {
        let size = size_of(e, &ro).map(|s| s.name()).unwrap_or("?");
        let grid = match Grid::load(e, &ro, |k| cache.load(k)) {
            Ok(g) => g,
            Err(m) => return exit::fail(exit::BAD_INPUT, m),
        };
        if !grid.missing.is_empty() {
            eprintln!(
                "warpsim: {}: {} of {} runs are missing from {}:",
                e.name,
                grid.missing.len(),
                grid.programs.len() * grid.series.len(),
                cache.dir().display()
            );
            for m in grid.missing.iter().take(20) {
                eprintln!("  {m}");
            }
            code = code.max(exit::MISMATCH);
            continue;
        }
        let dir = o.out.join(&e.name);
        match output::write(&grid, &dir, size) {
            Ok(_) => {
                let tally = Tally::of_claims(&grid, &e.claims);
                let claims = if tally.total() == 0 {
                    String::new()
                } else {
                    format!(" ({tally})")
                };
                println!("{}: {}{claims}", e.name, dir.join("report.md").display());
            }
            Err(m) => return exit::fail(exit::BAD_INPUT, m),
        }
    }
    code
}

fn sbatch(o: &Options) -> u8 {
    let exe = std::env::current_exe().unwrap_or_else(|_| PathBuf::from("warpsim"));
    let workdir = std::env::current_dir().unwrap_or_else(|_| PathBuf::from("."));
    let out = if o.out.is_absolute() {
        o.out.clone()
    } else {
        workdir.join(&o.out)
    };
    let mut args = o.what.clone();
    if let Some(s) = o.size {
        args.extend(["--size".to_string(), s.name().to_string()]);
    }
    if o.fresh {
        args.push("--fresh".into());
    }
    let job = format!(
        "warpsim-{}",
        o.what
            .get(1)
            .map_or("sweep", |s| s.as_str())
            .replace(['/', ' '], "_")
    );
    print!(
        "{}",
        sbatch_script(&SbatchPlan {
            exe: &exe,
            workdir: &workdir,
            args: &args,
            out: &out,
            tasks: o.tasks,
            cpus: o.jobs.unwrap_or(1),
            job: &job
        })
    );
    exit::OK
}
