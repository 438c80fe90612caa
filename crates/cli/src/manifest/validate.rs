//! Semantic validation of a parsed manifest, and of its launches against the kernels' PTX
//! parameters.

use std::collections::HashMap;
use std::path::Path;

use warpsim_core::ir::Function;

use super::raw::{Dims, RawArg, RawLaunch, RawManifest};
use super::*;
use crate::init::{check_file, Init};

/// Collected `(key path, message)` problems.
#[derive(Default)]
struct Errs(Vec<(String, String)>);

impl Errs {
    fn push(&mut self, key: impl Into<String>, msg: impl Into<String>) {
        self.0.push((key.into(), msg.into()));
    }
}

fn join(base: &str, sub: &str) -> String {
    if base.is_empty() {
        sub.to_string()
    } else {
        format!("{base}.{sub}")
    }
}

pub(super) fn validate(
    raw: RawManifest,
    source: Source,
    dir: &Path,
) -> Result<Manifest, Vec<String>> {
    let mut e = Errs::default();

    let ptx = dir.join(&raw.ptx);
    if raw.ptx.is_empty() {
        e.push("ptx", "must name a PTX file");
    } else if !ptx.is_file() {
        let resolved = if ptx.as_os_str() == raw.ptx.as_str() {
            String::new()
        } else {
            format!(" ({})", ptx.display())
        };
        e.push("ptx", format!("PTX file {:?} not found{resolved}", raw.ptx));
    }
    let max_warp_instructions = match raw.max_warp_instructions {
        Some(n) if n < 1 => {
            e.push(
                "max_warp_instructions",
                format!("must be at least 1, got {n}"),
            );
            None
        }
        n => n.map(|n| n as u64),
    };

    let mut registers = Vec::new();
    for (kernel, &n) in raw.registers.iter().flatten() {
        if !(1..=255).contains(&n) {
            e.push(
                format!("registers.{kernel}"),
                format!("registers per thread must be 1 to 255, got {n}"),
            );
        } else {
            registers.push((kernel.clone(), n as u32));
        }
    }

    // Buffers.
    let mut buffers = Vec::new();
    let mut names: HashMap<String, usize> = HashMap::new();
    for (i, b) in raw.buffer.iter().enumerate() {
        let key = format!("buffer[{i}]");
        if b.name.is_empty() {
            e.push(format!("{key}.name"), "must not be empty");
        } else if let Some(&j) = names.get(&b.name) {
            e.push(
                format!("{key}.name"),
                format!("duplicate buffer name {:?} (also buffer[{j}])", b.name),
            );
        } else {
            names.insert(b.name.clone(), i);
        }
        let mut len = match b.len {
            Some(n) if n < 1 => {
                e.push(format!("{key}.len"), format!("must be at least 1, got {n}"));
                Some(1)
            }
            Some(n) if (n as u128) * (b.ty.size() as u128) > 1 << 34 => {
                e.push(
                    format!("{key}.len"),
                    format!("{n} {} elements is more than 16 GiB", b.ty),
                );
                Some(1)
            }
            n => n.map(|n| n as usize),
        };
        let init = match &b.init {
            None => Init::Zeros,
            Some(r) => match Init::from_raw(r, b.ty, len, dir) {
                Ok((init, file_len)) => {
                    len = len.or(file_len);
                    init
                }
                Err(problems) => {
                    for (sub, msg) in problems {
                        e.push(join(&format!("{key}.init"), sub), msg);
                    }
                    Init::Zeros
                }
            },
        };
        if len.is_none() && !matches!(&b.init, Some(r) if r.kind == "file") {
            e.push(
                format!("{key}.len"),
                "missing required key (only an init of kind \"file\" can imply the length)",
            );
        }
        buffers.push(Buffer {
            name: b.name.clone(),
            ty: b.ty,
            len: len.unwrap_or(1),
            init,
        });
    }
    let lookup = |name: &str| names.get(name).copied();
    let known = || {
        if buffers.is_empty() {
            "no buffers are defined".to_string()
        } else {
            format!(
                "defined buffers: {}",
                raw.buffer
                    .iter()
                    .map(|b| b.name.as_str())
                    .collect::<Vec<_>>()
                    .join(", ")
            )
        }
    };

    // Launches.
    let mut launches = Vec::new();
    if raw.launch.is_empty() {
        let top = RawLaunch {
            kernel: raw.kernel.clone(),
            grid: raw.grid.clone(),
            block: raw.block.clone(),
            dynamic_shared: raw.dynamic_shared,
            repeat: None,
            arg: raw.arg,
        };
        launches.push(launch(
            &top,
            String::new(),
            &buffers,
            &lookup,
            &known,
            &mut e,
        ));
    } else {
        let top = [
            ("kernel", raw.kernel.is_some()),
            ("grid", raw.grid.is_some()),
            ("block", raw.block.is_some()),
            ("dynamic_shared", raw.dynamic_shared.is_some()),
            ("arg", !raw.arg.is_empty()),
        ];
        for (key, present) in top {
            if present {
                e.push(key, "not allowed at the top level when [[launch]] tables are given; set it in each [[launch]]");
            }
        }
        for (i, l) in raw.launch.iter().enumerate() {
            launches.push(launch(
                l,
                format!("launch[{i}]"),
                &buffers,
                &lookup,
                &known,
                &mut e,
            ));
        }
    }

    // Checks.
    let mut checks = Vec::new();
    for (i, c) in raw.check.iter().enumerate() {
        let key = format!("check[{i}]");
        let Some(b) = lookup(&c.buffer) else {
            e.push(
                format!("{key}.buffer"),
                format!("unknown buffer {:?}; {}", c.buffer, known()),
            );
            continue;
        };
        let (ty, len) = (buffers[b].ty, buffers[b].len);
        let given = [
            ("equals_file", c.equals_file.is_some()),
            ("equals_buffer", c.equals_buffer.is_some()),
            ("expect", c.expect.is_some()),
        ];
        let given: Vec<&str> = given.iter().filter(|g| g.1).map(|g| g.0).collect();
        if given.len() != 1 {
            let msg = if given.is_empty() {
                "needs one of equals_file, equals_buffer or expect".to_string()
            } else {
                format!("{} are mutually exclusive", given.join(" and "))
            };
            e.push(key.clone(), msg);
            continue;
        }
        let expected = if let Some(f) = &c.equals_file {
            let path = dir.join(f);
            if let Err(msg) = check_file(&path, f, ty, Some(len)) {
                e.push(format!("{key}.equals_file"), msg);
            }
            Expected::File(path)
        } else if let Some(other) = &c.equals_buffer {
            match lookup(other) {
                None => e.push(
                    format!("{key}.equals_buffer"),
                    format!("unknown buffer {other:?}; {}", known()),
                ),
                Some(o) if buffers[o].ty != ty || buffers[o].len != len => e.push(
                    format!("{key}.equals_buffer"),
                    format!(
                        "buffer {other:?} is {} x {}, buffer {:?} is {len} x {ty}",
                        buffers[o].len, buffers[o].ty, c.buffer
                    ),
                ),
                Some(_) => {}
            }
            Expected::Buffer(lookup(other).unwrap_or(0))
        } else {
            match Init::from_raw(c.expect.as_ref().unwrap(), ty, Some(len), dir) {
                Ok((init, _)) => Expected::Generated(init),
                Err(problems) => {
                    for (sub, msg) in problems {
                        e.push(join(&format!("{key}.expect"), sub), msg);
                    }
                    Expected::Generated(Init::Zeros)
                }
            }
        };
        let mut tolerance = Tolerance::default();
        if let Some(t) = c.tolerance {
            if !ty.is_float() {
                e.push(
                    format!("{key}.tolerance"),
                    format!(
                        "only floating-point buffers take a tolerance ({:?} is {ty})",
                        c.buffer
                    ),
                );
            }
            for (sub, v) in [("rel", t.rel), ("abs", t.abs)] {
                if let Some(v) = v.filter(|v| !(v.is_finite() && *v >= 0.0)) {
                    e.push(
                        format!("{key}.tolerance.{sub}"),
                        format!("must be a finite number >= 0, got {v}"),
                    );
                }
            }
            tolerance = Tolerance {
                rel: t.rel.unwrap_or(0.0),
                abs: t.abs.unwrap_or(0.0),
            };
        }
        checks.push(Check {
            key,
            buffer: b,
            expected,
            tolerance,
        });
    }

    // Dumps.
    let mut dumps = Vec::new();
    for (i, d) in raw.dump.iter().enumerate() {
        let key = format!("dump[{i}]");
        let buffer = lookup(&d.buffer);
        if buffer.is_none() {
            e.push(
                format!("{key}.buffer"),
                format!("unknown buffer {:?}; {}", d.buffer, known()),
            );
        }
        if d.path.is_empty() {
            e.push(format!("{key}.path"), "must not be empty");
        }
        let format = match d.format.as_deref() {
            Some("bin") => DumpFormat::Bin,
            Some("txt") => DumpFormat::Txt,
            None if d.path.ends_with(".txt") => DumpFormat::Txt,
            None => DumpFormat::Bin,
            Some(other) => {
                e.push(
                    format!("{key}.format"),
                    format!("unknown format {other:?}; expected one of bin, txt"),
                );
                DumpFormat::Bin
            }
        };
        dumps.push(Dump {
            buffer: buffer.unwrap_or(0),
            path: dir.join(&d.path),
            format,
        });
    }

    if e.0.is_empty() {
        Ok(Manifest {
            source,
            ptx,
            max_warp_instructions,
            registers,
            expect_printf: raw.expect_printf,
            buffers,
            launches,
            checks,
            dumps,
        })
    } else {
        // In file order; problems that cannot be placed last.
        let mut placed: Vec<_> =
            e.0.iter()
                .map(|(k, m)| (source.span_of(k).map_or(usize::MAX, |s| s.start), k, m))
                .collect();
        placed.sort_by_key(|p| p.0);
        Err(placed.iter().map(|(_, k, m)| source.diag(k, m)).collect())
    }
}

fn launch(
    l: &RawLaunch,
    key: String,
    buffers: &[Buffer],
    lookup: &dyn Fn(&str) -> Option<usize>,
    known: &dyn Fn() -> String,
    e: &mut Errs,
) -> Launch {
    let grid = dims(
        l.grid.as_ref(),
        &join(&key, "grid"),
        [i32::MAX as i64, 65535, 65535],
        e,
    );
    let block = dims(l.block.as_ref(), &join(&key, "block"), [1024, 1024, 64], e);
    let threads = block.iter().map(|&d| d as u64).product::<u64>();
    if threads > 1024 {
        e.push(
            join(&key, "block"),
            format!(
                "{threads} threads per block ({} x {} x {}); at most 1024",
                block[0], block[1], block[2]
            ),
        );
    }
    let dynamic_shared = match l.dynamic_shared {
        None => 0,
        Some(n) if !(0..=u32::MAX as i64).contains(&n) => {
            e.push(
                join(&key, "dynamic_shared"),
                format!("must be between 0 and {} bytes, got {n}", u32::MAX),
            );
            0
        }
        Some(n) => n as u32,
    };
    let repeat = match l.repeat {
        None => 1,
        Some(n) if !(1..=u32::MAX as i64).contains(&n) => {
            e.push(join(&key, "repeat"), format!("must be at least 1, got {n}"));
            1
        }
        Some(n) => n as u32,
    };
    let args = l
        .arg
        .iter()
        .enumerate()
        .filter_map(|(i, a)| {
            arg(
                a,
                &join(&key, &format!("arg[{i}]")),
                buffers,
                lookup,
                known,
                e,
            )
        })
        .collect();
    Launch {
        key,
        kernel: l.kernel.clone(),
        grid,
        block,
        dynamic_shared,
        repeat,
        args,
    }
}

fn dims(d: Option<&Dims>, key: &str, max: [i64; 3], e: &mut Errs) -> [u32; 3] {
    let Some(Dims(v)) = d else {
        e.push(key, "missing required key");
        return [1; 3];
    };
    if v.is_empty() || v.len() > 3 {
        e.push(key, format!("expected 1 to 3 extents, got {}", v.len()));
        return [1; 3];
    }
    let mut out = [1u32; 3];
    for (i, &x) in v.iter().enumerate() {
        let k = if v.len() == 1 {
            key.to_string()
        } else {
            format!("{key}[{i}]")
        };
        let axis = ["x", "y", "z"][i];
        if x < 1 {
            e.push(k, format!("extent {axis} must be at least 1, got {x}"));
        } else if x > max[i] {
            e.push(k, format!("extent {axis} is {x}; at most {}", max[i]));
        } else {
            out[i] = x as u32;
        }
    }
    out
}

fn arg(
    a: &RawArg,
    key: &str,
    buffers: &[Buffer],
    lookup: &dyn Fn(&str) -> Option<usize>,
    known: &dyn Fn() -> String,
    e: &mut Errs,
) -> Option<ArgSpec> {
    let given: Vec<&str> = [
        ("buffer", a.buffer.is_some()),
        ("value", a.value.is_some()),
        ("bytes", a.bytes.is_some()),
    ]
    .iter()
    .filter(|g| g.1)
    .map(|g| g.0)
    .collect();
    if given.len() != 1 {
        let msg = if given.is_empty() {
            "needs one of buffer, value (with type) or bytes".to_string()
        } else {
            format!("{} are mutually exclusive", given.join(" and "))
        };
        e.push(key, msg);
        return None;
    }
    if let Some(name) = &a.buffer {
        if a.ty.is_some() {
            e.push(
                format!("{key}.type"),
                "not allowed with buffer (a buffer argument is its 8-byte device pointer)",
            );
        }
        match lookup(name) {
            Some(b) => return Some(ArgSpec::Buffer(b)),
            None => {
                let _ = buffers;
                e.push(
                    format!("{key}.buffer"),
                    format!("unknown buffer {name:?}; {}", known()),
                );
                return None;
            }
        }
    }
    if let Some(bytes) = &a.bytes {
        if a.ty.is_some() {
            e.push(format!("{key}.type"), "not allowed with bytes");
        }
        let mut out = Vec::new();
        for (j, &b) in bytes.iter().enumerate() {
            match u8::try_from(b) {
                Ok(b) => out.push(b),
                Err(_) => e.push(
                    format!("{key}.bytes[{j}]"),
                    format!("{b} is not a byte (0..=255)"),
                ),
            }
        }
        if out.is_empty() {
            e.push(format!("{key}.bytes"), "must not be empty");
        }
        return Some(ArgSpec::Bytes(out));
    }
    let value = a.value.unwrap();
    let Some(ty) = a.ty else {
        e.push(
            format!("{key}.type"),
            format!(
                "missing required key (a scalar argument needs its type: one of {})",
                ScalarType::names()
            ),
        );
        return None;
    };
    let mut bytes = Vec::new();
    if let Err(msg) = ty.encode(value, &mut bytes) {
        e.push(format!("{key}.value"), msg);
        return None;
    }
    Some(ArgSpec::Scalar { ty, bytes })
}

/// The kernel a launch runs: its `kernel` key, or the module's only kernel.
pub fn resolve_kernel(
    manifest: &Manifest,
    launch: &Launch,
    kernels: &[String],
) -> Result<String, String> {
    match &launch.kernel {
        Some(k) if kernels.contains(k) => Ok(k.clone()),
        Some(k) => Err(manifest.source.diag(
            &launch.subkey("kernel"),
            &format!(
                "unknown kernel {k:?}; the module has: {}",
                kernels.join(", ")
            ),
        )),
        None if kernels.len() == 1 => Ok(kernels[0].clone()),
        None => Err(manifest.source.diag(
            &launch.subkey("kernel"),
            &format!(
                "missing required key: the module has {} kernels ({})",
                kernels.len(),
                kernels.join(", ")
            ),
        )),
    }
}

/// Checks a launch's arguments and block shape against the kernel: argument count, each
/// argument's size against its parameter's, `.reqntid`/`.maxntid`.
pub fn check_args(manifest: &Manifest, launch: &Launch, kernel: &Function) -> Vec<String> {
    let mut out = Vec::new();
    let diag = |key: String, msg: String| manifest.source.diag(&key, &msg);
    let params = &kernel.params;
    if launch.args.len() != params.len() {
        let names: Vec<String> = params
            .iter()
            .map(|p| format!("{} ({} bytes)", p.name, p.size))
            .collect();
        out.push(diag(
            launch.subkey("arg"),
            format!(
                "kernel {} takes {} parameter{}{}{} but {} [[arg]] {} given",
                kernel.name,
                params.len(),
                if params.len() == 1 { "" } else { "s" },
                if names.is_empty() { "" } else { ": " },
                names.join(", "),
                launch.args.len(),
                if launch.args.len() == 1 { "is" } else { "are" },
            ),
        ));
    }
    for (i, (a, p)) in launch.args.iter().zip(params).enumerate() {
        if a.size() as u32 != p.size {
            let (sub, what) = match a {
                ArgSpec::Buffer(b) => (
                    "buffer",
                    format!(
                        "buffer {:?} is passed as an 8-byte pointer",
                        manifest.buffers[*b].name
                    ),
                ),
                ArgSpec::Scalar { ty, .. } => ("type", format!("{ty} is {} bytes", ty.size())),
                ArgSpec::Bytes(b) => ("bytes", format!("{} bytes are given", b.len())),
            };
            out.push(diag(
                launch.subkey(&format!("arg[{i}].{sub}")),
                format!("{what} but parameter {i} ({}) is {} bytes", p.name, p.size),
            ));
        }
    }
    let [x, y, z] = launch.block;
    if let Some(req) = kernel.reqntid.filter(|r| *r != launch.block) {
        out.push(diag(
            launch.subkey("block"),
            format!(
                "kernel {} requires a block of {:?} (.reqntid), got [{x}, {y}, {z}]",
                kernel.name, req
            ),
        ));
    }
    if let Some(max) = kernel.maxntid {
        let limit: u64 = max.iter().map(|&d| d as u64).product();
        if x as u64 * y as u64 * z as u64 > limit {
            out.push(diag(
                launch.subkey("block"),
                format!(
                    "kernel {} allows at most {limit} threads per block (.maxntid {max:?})",
                    kernel.name
                ),
            ));
        }
    }
    out
}
