//! `warpsim run MANIFEST.toml`: allocate and initialise the buffers, run the launches, dump
//! and check the results.

use std::fmt::Write as _;
use std::path::Path;
use std::time::{Duration, Instant};

use serde_json::json;
use warpsim_core::device::{Arg, DevPtr, Device, DeviceOptions, Dim3, LaunchConfig};

use crate::check::format_load_errors;
use crate::exit;
use crate::init::Init;
use crate::manifest::{self, ArgSpec, DumpFormat, Expected, Manifest};
use crate::model::Model;
use crate::scalar::ScalarType;
use crate::stats_out::{self, KernelRow, Totals};
use crate::verify;

/// Mismatching values printed per check.
const SHOW_MISMATCHES: usize = 10;

struct LaunchReport {
    kernel: String,
    grid: [u32; 3],
    block: [u32; 3],
    dynamic_shared: u32,
    warp_instructions: u64,
    thread_instructions: u64,
    ctas: u64,
    /// Timing mode only.
    cycles: Option<u64>,
    wall: Duration,
}

pub fn run_manifest(
    path: &Path,
    max_warp_instructions: Option<u64>,
    model: &Model,
    json: bool,
) -> u8 {
    let manifest = match manifest::load(path) {
        Ok(m) => m,
        Err(diags) => {
            for d in diags {
                eprintln!("{d}");
            }
            return exit::BAD_INPUT;
        }
    };
    let ptx_name = manifest.ptx.display().to_string();
    let text = match std::fs::read_to_string(&manifest.ptx) {
        Ok(t) => t,
        Err(e) => {
            return exit::fail(
                exit::BAD_INPUT,
                format_args!("{ptx_name}: cannot read: {e}"),
            )
        }
    };

    // Resolve kernels and check every launch's arguments against the PTX before running.
    let module = match warpsim_core::load_ptx(&text) {
        Ok(m) => m,
        Err(errors) => {
            for line in format_load_errors(&ptx_name, &errors) {
                eprintln!("{line}");
            }
            return exit::BAD_INPUT;
        }
    };
    let names: Vec<String> = module.kernels().map(|(_, f)| f.name.clone()).collect();
    let mut kernels = Vec::new();
    let mut diags = Vec::new();
    for launch in &manifest.launches {
        match manifest::resolve_kernel(&manifest, launch, &names) {
            Ok(name) => {
                let f = module
                    .functions
                    .iter()
                    .find(|f| f.is_kernel && f.name == name)
                    .expect("listed kernel");
                diags.extend(manifest::check_args(&manifest, launch, f));
                kernels.push(name);
            }
            Err(d) => diags.push(d),
        }
    }
    for (kernel, _) in &manifest.registers {
        if !names.contains(kernel) {
            diags.push(format!(
                "{}: registers.{kernel}: no kernel `{kernel}` in the PTX (kernels: {})",
                manifest.source.path.display(),
                names.join(", ")
            ));
        }
    }
    if !diags.is_empty() {
        for d in diags {
            eprintln!("{d}");
        }
        return exit::BAD_INPUT;
    }

    let mut options = DeviceOptions::default();
    if let Some(n) = max_warp_instructions.or(manifest.max_warp_instructions) {
        options.max_warp_instructions = n;
    }
    let mut dev = model.device(options);
    for (kernel, n) in &manifest.registers {
        dev.set_kernel_registers(kernel, *n);
    }
    let result = execute(&mut dev, &manifest, &text, &kernels);
    warpsim_timing::watch::end_progress();
    let rows = stats_out::collect(&mut dev, &manifest.source.path.display().to_string());
    if let Some(stats_path) = &model.stats {
        let wall = result
            .as_ref()
            .map(|(r, _)| r.iter().map(|r| r.wall).sum())
            .unwrap_or_default();
        match stats_out::write(stats_path, model, &rows, wall) {
            Ok(files) if !json => eprintln!(
                "statistics: {}",
                files
                    .iter()
                    .map(|f| f.display().to_string())
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
            Ok(_) => {}
            Err(e) => return exit::fail(exit::BAD_INPUT, e),
        }
    }
    if let Err(e) = crate::trace_out::write_requested(model, &rows, json) {
        return exit::fail(exit::BAD_INPUT, e);
    }
    match result {
        Ok((reports, buffers)) => {
            finish(&mut dev, &manifest, &reports, &buffers, model, &rows, json)
        }
        Err((code, message)) => {
            let printf = dev.take_printf();
            if !printf.is_empty() {
                eprintln!("printf output before the error:\n{printf}");
            }
            if code == exit::INTERRUPTED {
                stats_out::print_partial(&rows);
            }
            exit::fail(code, message)
        }
    }
}

type Failure = (u8, String);

/// Loads the module, fills the buffers and runs every launch.
fn execute(
    dev: &mut Device,
    m: &Manifest,
    text: &str,
    kernels: &[String],
) -> Result<(Vec<LaunchReport>, Vec<DevPtr>), Failure> {
    let dev_err = |what: String| {
        move |e: warpsim_core::device::DeviceError| {
            (exit::device_error_code(&e), format!("{what}: {e}"))
        }
    };
    let module = dev
        .load_ptx(text)
        .map_err(dev_err(m.ptx.display().to_string()))?;
    let mut ptrs = Vec::new();
    for b in &m.buffers {
        let p = dev.malloc(b.bytes() as u64).map_err(dev_err(format!(
            "allocating buffer {:?} ({} bytes)",
            b.name,
            b.bytes()
        )))?;
        // `Device::malloc` returns zeroed memory.
        if b.init != Init::Zeros {
            let data = b
                .init
                .generate(b.ty, b.len)
                .map_err(|e| (exit::BAD_INPUT, format!("buffer {:?}: {e}", b.name)))?;
            dev.write(p, &data)
                .map_err(dev_err(format!("writing buffer {:?}", b.name)))?;
        }
        ptrs.push(p);
    }
    let mut reports = Vec::new();
    for (launch, kernel) in m.launches.iter().zip(kernels) {
        let k = dev
            .kernel(module, kernel)
            .map_err(dev_err(kernel.clone()))?;
        let args: Vec<Arg> = launch
            .args
            .iter()
            .map(|a| match a {
                ArgSpec::Buffer(b) => Arg::Ptr(ptrs[*b]),
                ArgSpec::Scalar { ty, bytes } => scalar_arg(*ty, bytes),
                ArgSpec::Bytes(bytes) => Arg::Bytes(bytes.clone()),
            })
            .collect();
        let [gx, gy, gz] = launch.grid;
        let [bx, by, bz] = launch.block;
        let config = LaunchConfig {
            grid: Dim3::new(gx, gy, gz),
            block: Dim3::new(bx, by, bz),
            dynamic_shared: launch.dynamic_shared,
        };
        for rep in 0..launch.repeat {
            let start = Instant::now();
            let where_ = if launch.key.is_empty() {
                String::from("launch")
            } else {
                launch.key.clone()
            };
            let rep_note = if launch.repeat > 1 {
                format!(" (repetition {})", rep + 1)
            } else {
                String::new()
            };
            let stats = dev
                .launch(k, config, &args)
                .map_err(dev_err(format!("{where_} of {kernel}{rep_note}")))?;
            reports.push(LaunchReport {
                kernel: kernel.clone(),
                grid: launch.grid,
                block: launch.block,
                dynamic_shared: launch.dynamic_shared,
                warp_instructions: stats.warp_instructions,
                thread_instructions: stats.thread_instructions,
                ctas: stats.ctas,
                cycles: dev.last_launch().and_then(|l| l.cycles),
                wall: start.elapsed(),
            });
        }
    }
    Ok((reports, ptrs))
}

fn scalar_arg(ty: ScalarType, bytes: &[u8]) -> Arg {
    let b4 = || <[u8; 4]>::try_from(bytes).expect("4-byte scalar");
    let b8 = || <[u8; 8]>::try_from(bytes).expect("8-byte scalar");
    match ty {
        ScalarType::U32 => Arg::U32(u32::from_le_bytes(b4())),
        ScalarType::I32 => Arg::I32(i32::from_le_bytes(b4())),
        ScalarType::F32 => Arg::F32(f32::from_le_bytes(b4())),
        ScalarType::U64 => Arg::U64(u64::from_le_bytes(b8())),
        ScalarType::I64 => Arg::I64(i64::from_le_bytes(b8())),
        ScalarType::F64 => Arg::F64(f64::from_le_bytes(b8())),
        ScalarType::U8 | ScalarType::I8 | ScalarType::U16 | ScalarType::I16 => {
            Arg::Bytes(bytes.to_vec())
        }
    }
}

/// Reads results back, writes the dumps, runs the checks and prints the summary.
fn finish(
    dev: &mut Device,
    m: &Manifest,
    reports: &[LaunchReport],
    ptrs: &[DevPtr],
    model: &Model,
    rows: &[KernelRow],
    json: bool,
) -> u8 {
    let printf = dev.take_printf();
    let mut contents: Vec<Option<Vec<u8>>> = vec![None; m.buffers.len()];
    let mut read = |dev: &mut Device, i: usize| -> Result<Vec<u8>, String> {
        if contents[i].is_none() {
            let mut buf = vec![0u8; m.buffers[i].bytes()];
            dev.read(ptrs[i], &mut buf)
                .map_err(|e| format!("reading buffer {:?}: {e}", m.buffers[i].name))?;
            contents[i] = Some(buf);
        }
        Ok(contents[i].clone().unwrap())
    };

    let mut code = exit::OK;
    let mut notes = Vec::new();
    for d in &m.dumps {
        let b = &m.buffers[d.buffer];
        let result = read(dev, d.buffer).and_then(|data| {
            write_dump(&d.path, d.format, b.ty, &data)
                .map_err(|e| format!("{}: {e}", d.path.display()))
        });
        match result {
            Ok(()) => notes.push(format!("dumped {:?} to {}", b.name, d.path.display())),
            Err(e) => return exit::fail(exit::BAD_INPUT, e),
        }
    }

    let mut check_lines = Vec::new();
    let mut check_json = Vec::new();
    for c in &m.checks {
        let b = &m.buffers[c.buffer];
        let got = match read(dev, c.buffer) {
            Ok(g) => g,
            Err(e) => return exit::fail(exit::SIM_ERROR, e),
        };
        let expected = match &c.expected {
            Expected::File(p) => std::fs::read(p).map_err(|e| format!("{}: {e}", p.display())),
            Expected::Buffer(o) => read(dev, *o),
            Expected::Generated(init) => init.generate(b.ty, b.len).map_err(|e| e.to_string()),
        };
        let expected = match expected {
            Ok(e) if e.len() == got.len() => e,
            Ok(e) => {
                return exit::fail(
                    exit::BAD_INPUT,
                    format_args!(
                        "{}: expected data has {} bytes, buffer {:?} has {}",
                        c.key,
                        e.len(),
                        b.name,
                        got.len()
                    ),
                )
            }
            Err(e) => return exit::fail(exit::BAD_INPUT, format_args!("{}: {e}", c.key)),
        };
        let cmp = verify::compare(b.ty, &got, &expected, c.tolerance, SHOW_MISMATCHES);
        if cmp.differing == 0 {
            check_lines.push(format!(
                "{} {:?}: ok ({} values)",
                c.key, b.name, cmp.checked
            ));
        } else {
            code = exit::MISMATCH;
            let mut s = format!(
                "{} {:?}: MISMATCH in {} of {} values",
                c.key, b.name, cmp.differing, cmp.checked
            );
            if c.tolerance != Default::default() {
                let _ = write!(
                    s,
                    " (tolerance rel {} abs {})",
                    c.tolerance.rel, c.tolerance.abs
                );
            }
            for mm in &cmp.first {
                let _ = write!(
                    s,
                    "\n    {}[{}]: expected {}, got {}",
                    b.name,
                    mm.index,
                    b.ty.show(mm.expected),
                    b.ty.show(mm.got)
                );
            }
            if cmp.differing > cmp.first.len() {
                let _ = write!(s, "\n    … {} more", cmp.differing - cmp.first.len());
            }
            check_lines.push(s);
        }
        let first: Vec<_> = cmp.first.iter().map(|mm| json!({"index": mm.index, "expected": b.ty.show(mm.expected), "got": b.ty.show(mm.got)})).collect();
        check_json.push(json!({"check": c.key, "buffer": b.name, "values": cmp.checked, "mismatches": cmp.differing, "first": first}));
    }
    if let Some(expected) = &m.expect_printf {
        if *expected == printf {
            check_lines.push("expect_printf: ok".to_string());
        } else {
            code = exit::MISMATCH;
            check_lines.push(format!(
                "expect_printf: MISMATCH\n    expected {expected:?}\n    got      {printf:?}"
            ));
        }
    }

    let warp: u64 = reports.iter().map(|r| r.warp_instructions).sum();
    let thread: u64 = reports.iter().map(|r| r.thread_instructions).sum();
    let wall: Duration = reports.iter().map(|r| r.wall).sum();
    if json {
        let launches: Vec<_> = reports
            .iter()
            .map(|r| {
                json!({"kernel": warpsim_core::demangle(&r.kernel), "kernel_mangled": r.kernel, "grid": r.grid, "block": r.block, "dynamic_shared": r.dynamic_shared,
                    "warp_instructions": r.warp_instructions, "thread_instructions": r.thread_instructions,
                    "ctas": r.ctas, "cycles": r.cycles, "wall_seconds": r.wall.as_secs_f64()})
            })
            .collect();
        let mut out = json!({"manifest": m.source.path.display().to_string(), "ok": code == exit::OK, "launches": launches,
            "warp_instructions": warp, "thread_instructions": thread, "wall_seconds": wall.as_secs_f64(),
            "printf": printf, "checks": check_json});
        crate::workload::add_timing_json(&mut out, model, &Totals::of(rows));
        println!("{}", serde_json::to_string_pretty(&out).unwrap());
        return code;
    }
    println!(
        "manifest {} ({})",
        m.source.path.display(),
        model.describe()
    );
    for (i, r) in reports.iter().enumerate() {
        let dims = |d: [u32; 3]| format!("[{}, {}, {}]", d[0], d[1], d[2]);
        println!(
            "launch {}/{}: {} grid {} block {}{}",
            i + 1,
            reports.len(),
            warpsim_core::demangle(&r.kernel),
            dims(r.grid),
            dims(r.block),
            if r.dynamic_shared > 0 {
                format!(" dynamic_shared {}", r.dynamic_shared)
            } else {
                String::new()
            }
        );
        let timing = match r.cycles {
            Some(c) => format!(
                ", {c} cycles, IPC {:.3}",
                r.warp_instructions as f64 / c.max(1) as f64
            ),
            None => String::new(),
        };
        println!(
            "    {} CTAs, {} warp instructions, {} thread instructions{timing}, {}",
            r.ctas,
            r.warp_instructions,
            r.thread_instructions,
            crate::bench::fmt_duration(r.wall)
        );
    }
    if reports.len() > 1 {
        println!(
            "total: {warp} warp instructions, {thread} thread instructions, {}",
            crate::bench::fmt_duration(wall)
        );
    }
    let totals = Totals::of(rows);
    for line in stats_out::timing_summary(&totals) {
        println!("{line}");
    }
    println!("{}", stats_out::rate_line(&totals, wall));
    if !printf.is_empty() {
        println!("printf output:");
        print!("{printf}");
        if !printf.ends_with('\n') {
            println!();
        }
    }
    for n in notes {
        println!("{n}");
    }
    for l in check_lines {
        println!("{l}");
    }
    if m.checks.is_empty() && m.expect_printf.is_none() {
        println!("(no checks)");
    }
    code
}

/// Writes a buffer as raw little-endian bytes or as text, one value per line.
fn write_dump(path: &Path, format: DumpFormat, ty: ScalarType, data: &[u8]) -> std::io::Result<()> {
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir)?;
    }
    match format {
        DumpFormat::Bin => std::fs::write(path, data),
        DumpFormat::Txt => {
            let mut s = String::with_capacity(data.len() * 3);
            for i in 0..data.len() / ty.size() {
                let _ = writeln!(s, "{}", ty.show(ty.read(data, i)));
            }
            std::fs::write(path, s)
        }
    }
}
