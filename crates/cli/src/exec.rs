//! `warpsim exec [model options] -- ./program args…`: runs an unmodified CUDA program (built
//! with `nvcc -cudart shared`) on the simulator by putting the `libcudart.so.13` shim first on
//! `LD_LIBRARY_PATH` and passing the model options as `WARPSIM_*` variables. Exits with the
//! program's exit code (128 + N when a signal N ended it).
//!
//! The shim is looked for, in order: `$WARPSIM_CUDART` (the library file, or a folder holding
//! `libcudart.so.13`), then beside the `warpsim` binary (`cudart-lib/libcudart.so.13`,
//! `libcudart.so.13`, cargo's `libwarpsim_cudart.so`), then in the sibling profile folders
//! `target/{release,debug}/cudart-lib/`.

use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::process::Command;

use crate::elf::{self, Runtime};
use crate::exec_summary;
use crate::exit;
use crate::model::{Model, ModelArgs};

/// `exec`'s own options (beside the model's).
pub struct Options<'a> {
    /// `--trace FILE.json`.
    pub trace: Option<&'a Path>,
    /// `--max-warp-instructions N`: the runaway limit per launch (`WARPSIM_MAX_INSTRUCTIONS`).
    pub max_warp_instructions: Option<u64>,
    /// `--quiet`: no closing summary.
    pub quiet: bool,
    /// `--progress` (or stderr a terminal): the shim prints progress lines (`WARPSIM_PROGRESS`).
    pub progress: bool,
    /// `--dump-ptx DIR`: the shim writes the program's embedded PTX there (`WARPSIM_DUMP_PTX`).
    pub dump_ptx: Option<&'a Path>,
    /// `--registers KERNEL=N`, each: the kernel's registers per thread for its occupancy
    /// (`WARPSIM_REGISTERS`).
    pub registers: &'a [String],
}

const SONAME: &str = "libcudart.so.13";

/// Candidate shim files, most specific first.
pub fn shim_candidates(env: Option<&Path>, exe_dir: Option<&Path>) -> Vec<PathBuf> {
    let mut c = Vec::new();
    if let Some(p) = env {
        if p.is_dir() {
            c.push(p.join(SONAME));
            c.push(p.join("libwarpsim_cudart.so"));
        } else {
            c.push(p.to_path_buf());
        }
    }
    if let Some(d) = exe_dir {
        c.push(d.join("cudart-lib").join(SONAME));
        c.push(d.join(SONAME));
        c.push(d.join("libwarpsim_cudart.so"));
        if let Some(target) = d.parent() {
            for profile in ["release", "debug"] {
                c.push(target.join(profile).join("cudart-lib").join(SONAME));
            }
        }
    }
    c
}

/// The folder to put on `LD_LIBRARY_PATH`: the shim's own folder when the file is named
/// `libcudart.so.13`, else a private folder with a `libcudart.so.13` link to it.
fn library_dir(shim: &Path, scratch: &Path) -> Result<PathBuf, String> {
    let shim = shim
        .canonicalize()
        .map_err(|e| format!("{}: {e}", shim.display()))?;
    if shim.file_name().is_some_and(|n| n == SONAME) {
        return Ok(shim.parent().expect("a file has a parent").to_path_buf());
    }
    let dir = scratch.join("lib");
    std::fs::create_dir_all(&dir).map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
    let link = dir.join(SONAME);
    let _ = std::fs::remove_file(&link);
    std::os::unix::fs::symlink(&shim, &link)
        .map_err(|e| format!("cannot link {}: {e}", link.display()))?;
    Ok(dir)
}

/// `name` as the shell would find it: a path when it contains `/`, else the first match on PATH.
fn find_program(name: &Path) -> Option<PathBuf> {
    if name.to_string_lossy().contains('/') {
        return name.is_file().then(|| name.to_path_buf());
    }
    std::env::split_paths(&std::env::var_os("PATH")?)
        .map(|d| d.join(name))
        .find(|p| p.is_file())
}

/// Why a program that does not import `libcudart.so.13` cannot run, and how to fix it.
fn explain(program: &Path, r: &Runtime) -> Option<String> {
    let p = program.display();
    match r {
        Runtime::Shared | Runtime::Script => None,
        Runtime::OtherVersion(v) => Some(format!("{p} loads {v}, but warpsim's shim is {SONAME} (CUDA 13): rebuild it with nvcc 13 and `-cudart shared`")),
        Runtime::NotImported => Some(format!(
            "{p} does not load {SONAME} dynamically, so the simulator cannot take the GPU's place. nvcc links the CUDA \
             runtime statically by default: rebuild with `nvcc -cudart shared -arch=sm_75 …` (see README, \"Run your own CUDA program\")"
        )),
    }
}

pub fn run(args: &ModelArgs, opts: &Options, command: &[OsString]) -> u8 {
    match exec(args, opts, command) {
        Ok(code) => code,
        Err(e) => exit::fail(exit::BAD_INPUT, e),
    }
}

fn exec(args: &ModelArgs, opts: &Options, command: &[OsString]) -> Result<u8, String> {
    let trace = opts.trace;
    let model = Model::resolve(args)?;
    if let Some(w) = args.functional_warning(true) {
        eprintln!("{w}");
    }
    if model.cta_order_log {
        return Err("--cta-order-log is not available for exec (the shim logs no policy order); use `warpsim run`".into());
    }
    if model.event_log && model.mode != crate::model::Mode::Timing {
        return Err("--event-log needs timing mode (events are timed)".into());
    }
    if model.event_log && model.stats.is_none() {
        return Err(
            "--event-log writes the events into the --stats file: give --stats FILE.jsonl too"
                .into(),
        );
    }
    // The shim records the event log itself when it is to write a trace.
    crate::trace_out::enable(model.clone(), trace)?;
    let (name, rest) = command
        .split_first()
        .ok_or("no program to run (warpsim exec -- ./program args…)")?;
    if name.to_string_lossy().starts_with('-') && name != "-" {
        return Err(format!(
            "unknown option `{}` for exec: its options come before the program (`warpsim exec --help` lists them); \
             write `warpsim exec [OPTIONS] -- ./program ARGS…` to pass options to the program",
            name.to_string_lossy()
        ));
    }
    let program = find_program(Path::new(name))
        .ok_or_else(|| format!("program {} not found", Path::new(name).display()))?;
    let runtime = elf::cuda_runtime(&program)?;
    if let Some(why) = explain(&program, &runtime) {
        return Err(why);
    }

    let env_shim = std::env::var_os("WARPSIM_CUDART").map(PathBuf::from);
    let exe_dir = std::env::current_exe()
        .ok()
        .and_then(|e| e.parent().map(Path::to_path_buf));
    let shim = match &env_shim {
        // An explicit choice must work; no silent fallback to another build.
        Some(e) => shim_candidates(Some(e), None)
            .into_iter()
            .find(|p| p.is_file())
            .ok_or_else(|| {
                format!(
                    "WARPSIM_CUDART={} is neither the shim library nor a folder holding {SONAME}",
                    e.display()
                )
            })?,
        None => {
            let candidates = shim_candidates(None, exe_dir.as_deref());
            candidates.iter().find(|p| p.is_file()).cloned().ok_or_else(|| {
                format!(
                    "cannot find the CUDA runtime shim ({SONAME}); looked at: {}. Build it with `cargo build --release -p warpsim-cudart` \
                     (or scripts/test-cudart.sh), or set WARPSIM_CUDART",
                    candidates.iter().map(|p| p.display().to_string()).collect::<Vec<_>>().join(", ")
                )
            })?
        }
    };
    let scratch = std::env::temp_dir().join(format!("warpsim-exec-{}", std::process::id()));
    let result = spawn(&model, args, opts, &program, rest, &shim, &scratch);
    let _ = std::fs::remove_dir_all(&scratch);
    result
}

fn spawn(
    model: &Model,
    args: &ModelArgs,
    opts: &Options,
    program: &Path,
    rest: &[OsString],
    shim: &Path,
    scratch: &Path,
) -> Result<u8, String> {
    let trace = opts.trace;
    let libdir = library_dir(shim, scratch)?;
    let mut ld = OsString::from(libdir.as_os_str());
    if let Some(old) = std::env::var_os("LD_LIBRARY_PATH").filter(|o| !o.is_empty()) {
        ld.push(":");
        ld.push(old);
    }
    // The shim reads a preset name or a TOML file: with overrides, hand it the resolved file.
    let config = if args.cfg.is_empty() {
        args.config.clone()
    } else {
        std::fs::create_dir_all(scratch)
            .map_err(|e| format!("cannot create {}: {e}", scratch.display()))?;
        let p = scratch.join("config.toml");
        std::fs::write(&p, model.config.to_toml())
            .map_err(|e| format!("cannot write {}: {e}", p.display()))?;
        p.display().to_string()
    };
    let mut cmd = Command::new(program);
    cmd.args(rest)
        .env("LD_LIBRARY_PATH", ld)
        .env("WARPSIM_MODE", model.mode.name())
        .env("WARPSIM_CONFIG", config)
        // As given (`tls:N` carries its parameter), with the fetch policy spelled out.
        .env("WARPSIM_POLICY", &args.policy)
        .env("WARPSIM_FETCH", model.policy.fetch.name())
        .env("WARPSIM_MAX_CYCLES", model.max_cycles.to_string())
        .env("WARPSIM_THREADS", args.threads.to_string());
    if let Some(n) = opts.max_warp_instructions {
        cmd.env("WARPSIM_MAX_INSTRUCTIONS", n.to_string());
    }
    if model.event_log {
        cmd.env("WARPSIM_EVENT_LOG", "1");
    }
    if model.synccheck {
        cmd.env("WARPSIM_SYNCCHECK", "1");
    }
    if opts.progress {
        cmd.env("WARPSIM_PROGRESS", "1");
    }
    if !opts.registers.is_empty() {
        for r in opts.registers {
            let ok = r.split_once('=').is_some_and(|(k, n)| {
                !k.is_empty() && n.parse::<u32>().is_ok_and(|n| (1..=255).contains(&n))
            });
            if !ok {
                return Err(format!(
                    "--registers `{r}`: expected KERNEL=N with N from 1 to 255"
                ));
            }
        }
        cmd.env("WARPSIM_REGISTERS", opts.registers.join(","));
    }
    if let Some(dir) = opts.dump_ptx {
        std::fs::create_dir_all(dir)
            .map_err(|e| format!("--dump-ptx: cannot create {}: {e}", dir.display()))?;
        cmd.env("WARPSIM_DUMP_PTX", dir);
    }
    // The summary reads the shim's statistics: the user's --stats file, else a scratch one.
    let stats_path = match &model.stats {
        Some(stats) => {
            let file = stats_file(stats)?;
            let toml = file.with_extension("config.toml");
            std::fs::write(&toml, model.config.to_toml())
                .map_err(|e| format!("--stats: cannot write {}: {e}", toml.display()))?;
            Some(file)
        }
        None if !opts.quiet => {
            std::fs::create_dir_all(scratch)
                .map_err(|e| format!("cannot create {}: {e}", scratch.display()))?;
            Some(scratch.join("stats.jsonl"))
        }
        None => None,
    };
    if let Some(file) = &stats_path {
        // The shim appends; a fresh run starts a fresh file.
        let _ = std::fs::remove_file(file);
        cmd.env("WARPSIM_STATS", file);
    }
    if let Some(trace) = trace {
        if let Some(dir) = trace.parent().filter(|d| !d.as_os_str().is_empty()) {
            std::fs::create_dir_all(dir)
                .map_err(|e| format!("--trace: cannot create {}: {e}", dir.display()))?;
        }
        // The shim rewrites the file after every launch; a run without launches leaves none.
        let _ = std::fs::remove_file(trace);
        cmd.env("WARPSIM_TRACE", trace);
    }
    // Ctrl-C reaches the program too (one process group): exec outlives it to sum up.
    crate::interrupt::install(true);
    let start = std::time::Instant::now();
    let status = cmd
        .status()
        .map_err(|e| format!("cannot run {}: {e}", program.display()))?;
    let wall = start.elapsed();
    use std::os::unix::process::ExitStatusExt;
    if status.signal() == Some(2) {
        eprintln!(
            "warpsim exec: interrupted (SIGINT); partial statistics: the launches that completed"
        );
    }
    if let (false, Some(file)) = (opts.quiet, &stats_path) {
        let lines = std::fs::read_to_string(file).unwrap_or_default();
        eprint!(
            "{}",
            exec_summary::render(&exec_summary::per_kernel(&lines), &model.describe(), wall)
        );
    }
    if let Some(c) = status.code() {
        return Ok(c.clamp(0, 255) as u8);
    }
    Ok((128 + status.signal().unwrap_or(0)).clamp(0, 255) as u8)
}

/// `--stats P` for exec: `P` itself when it names a file (`.jsonl`/`.json`), else
/// `P/stats.jsonl` (the folder is created).
fn stats_file(p: &Path) -> Result<PathBuf, String> {
    let file = match p.extension().and_then(|e| e.to_str()) {
        Some("jsonl" | "json") => p.to_path_buf(),
        _ => p.join("stats.jsonl"),
    };
    if let Some(dir) = file.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir)
            .map_err(|e| format!("--stats: cannot create {}: {e}", dir.display()))?;
    }
    Ok(file)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn candidates_order() {
        let c = shim_candidates(
            Some(Path::new("/opt/shim.so")),
            Some(Path::new("/t/release")),
        );
        assert_eq!(c[0], Path::new("/opt/shim.so"));
        assert_eq!(c[1], Path::new("/t/release/cudart-lib/libcudart.so.13"));
        assert!(c.contains(&PathBuf::from("/t/debug/cudart-lib/libcudart.so.13")));
    }

    #[test]
    fn static_runtime_is_explained() {
        let why = explain(Path::new("./a.out"), &Runtime::NotImported).unwrap();
        assert!(why.contains("-cudart shared"), "{why}");
        assert!(explain(Path::new("x"), &Runtime::Shared).is_none());
        assert!(explain(
            Path::new("x"),
            &Runtime::OtherVersion("libcudart.so.12".into())
        )
        .unwrap()
        .contains("libcudart.so.12"));
    }
}
