//! Simulation-speed harness for the timing model (issue 4's speed target).
//!
//! Runs the suite's `scalar_prod` kernel (committed PTX) at the issue's size — 128 CTAs × 256
//! threads over 4096-float vectors — or a dependent add chain, in timing mode under each named
//! policy, checks the result against a CPU reference, and prints wall time, simulated cycles,
//! warp/thread instructions per second, cycles per second and the process's peak RSS.
//!
//! ```text
//! cargo run --release -p warpsim-timing --example bench -- [scalar_prod|chain] \
//!     [--config gtx480] [--policy gto,lrr] [--pairs 128] [--len 4096] [--repeat 3]
//!     [--no-fast-forward]
//! ```

use std::time::Instant;
use warpsim_core::config::GpuConfig;
use warpsim_core::exec::context::LaunchCtx;
use warpsim_core::exec::memory::GlobalMemory;
use warpsim_timing::{run_timed, PolicyKind, TimingOptions, TimingStats};

const SCALAR_PROD: &str = include_str!("../../suite/kernels/scalar_prod/scalar_prod.ptx");

struct Args {
    program: String,
    config: String,
    policies: Vec<String>,
    pairs: usize,
    len: usize,
    repeat: usize,
    fast_forward: bool,
}

fn parse() -> Result<Args, String> {
    let mut a = Args {
        program: "scalar_prod".into(),
        config: "gtx480".into(),
        policies: vec!["gto".into(), "lrr".into()],
        pairs: 128,
        len: 4096,
        repeat: 3,
        fast_forward: true,
    };
    let mut it = std::env::args().skip(1);
    while let Some(x) = it.next() {
        let mut val = || it.next().ok_or(format!("{x} needs a value"));
        match x.as_str() {
            "--config" => a.config = val()?,
            "--policy" => a.policies = val()?.split(',').map(str::to_string).collect(),
            "--pairs" => a.pairs = val()?.parse().map_err(|e| format!("--pairs: {e}"))?,
            "--len" => a.len = val()?.parse().map_err(|e| format!("--len: {e}"))?,
            "--repeat" => a.repeat = val()?.parse().map_err(|e| format!("--repeat: {e}"))?,
            "--no-fast-forward" => a.fast_forward = false,
            "scalar_prod" | "chain" => a.program = x,
            _ => return Err(format!("unknown argument `{x}`")),
        }
    }
    Ok(a)
}

/// Peak resident set size of this process in MiB (getrusage: `ru_maxrss` is KiB on Linux).
fn peak_rss_mib() -> f64 {
    // SAFETY: getrusage only writes the struct we pass.
    unsafe {
        let mut ru: libc::rusage = std::mem::zeroed();
        libc::getrusage(libc::RUSAGE_SELF, &mut ru);
        ru.ru_maxrss as f64 / 1024.0
    }
}

/// A deterministic xorshift stream of floats in [-1, 1).
fn floats(n: usize, seed: u64) -> Vec<f32> {
    let mut x = seed | 1;
    (0..n)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            ((x >> 40) as f32 / (1u64 << 24) as f32) * 2.0 - 1.0
        })
        .collect()
}

fn write_f32(g: &mut GlobalMemory, v: &[f32]) -> u64 {
    let bytes: Vec<u8> = v.iter().flat_map(|x| x.to_le_bytes()).collect();
    let p = g.alloc(bytes.len().max(4) as u64).expect("alloc");
    g.write(p, &bytes).expect("write");
    p
}

/// One timed run; returns the statistics, the wall seconds and whether the output verified.
fn run_once(
    a: &Args,
    cfg: &GpuConfig,
    policy: PolicyKind,
) -> Result<(TimingStats, f64, bool), String> {
    let (src, kname, grid, block, regs) = match a.program.as_str() {
        "scalar_prod" => (
            SCALAR_PROD.to_string(),
            "_Z10scalarProdPfPKfS1_ii",
            a.pairs as u32,
            256u32,
            16,
        ),
        _ => {
            let adds: String = (0..200).map(|_| "add.s32 %r6, %r6, 1;\n").collect();
            let src = format!(
                ".version 9.5\n.target sm_75\n.address_size 64\n.visible .entry k(.param .u64 out)\n{{\n\
                 .reg .b32 %r<10>;\n.reg .b64 %rd<5>;\nld.param.u64 %rd0, [out];\ncvta.to.global.u64 %rd1, %rd0;\n\
                 mov.u32 %r3, %ctaid.x;\nmov.u32 %r4, %ntid.x;\nmov.u32 %r5, %tid.x;\nmad.lo.s32 %r2, %r3, %r4, %r5;\n\
                 mov.u32 %r6, %r2;\n{adds}mul.wide.u32 %rd2, %r2, 4;\nadd.s64 %rd3, %rd1, %rd2;\nst.global.u32 [%rd3], %r6;\nret;\n}}\n"
            );
            (src, "k", a.pairs as u32, 256u32, 16)
        }
    };
    let module = warpsim_core::load_ptx(&src).map_err(|e| format!("{e:?}"))?;
    let kernel = module
        .functions
        .iter()
        .position(|f| f.name == kname)
        .ok_or("kernel missing")? as u32;
    let f = &module.functions[kernel as usize];
    let mut g = GlobalMemory::new();
    let mut params = vec![0u8; f.param_bytes as usize];
    let mut put =
        |i: usize, b: &[u8]| params[f.params[i].offset as usize..][..b.len()].copy_from_slice(b);
    let n_out = if a.program == "scalar_prod" {
        a.pairs
    } else {
        grid as usize * 256
    };
    let out = write_f32(&mut g, &vec![0.0; n_out]);
    put(0, &out.to_le_bytes());
    let (va, vb) = (floats(a.pairs * a.len, 1), floats(a.pairs * a.len, 2));
    if a.program == "scalar_prod" {
        let (pa, pb) = (write_f32(&mut g, &va), write_f32(&mut g, &vb));
        put(1, &pa.to_le_bytes());
        put(2, &pb.to_le_bytes());
        put(3, &(a.pairs as i32).to_le_bytes());
        put(4, &(a.len as i32).to_le_bytes());
    }
    let k = LaunchCtx::one_dim(&module, kernel, &params, grid, block, cfg.gpu.num_sms);
    let mut printf = String::new();
    let opts = TimingOptions {
        fast_forward: a.fast_forward,
        ..TimingOptions::new(policy, regs)
    };
    let t0 = Instant::now();
    let s = run_timed(&k, &mut g, &mut printf, f.shared_bytes, cfg, &opts)
        .map_err(|e| e.to_string())?;
    let dt = t0.elapsed().as_secs_f64();
    let mut bytes = vec![0u8; n_out * 4];
    g.read(out, &mut bytes).map_err(|e| format!("{e:?}"))?;
    let got: Vec<f32> = bytes
        .chunks(4)
        .map(|c| f32::from_le_bytes(c.try_into().unwrap()))
        .collect();
    let ok = if a.program == "scalar_prod" {
        (0..a.pairs).all(|p| {
            let r = &va[p * a.len..][..a.len];
            let q = &vb[p * a.len..][..a.len];
            let (exact, mag) = r.iter().zip(q).fold((0f64, 0f64), |(s, m), (&x, &y)| {
                let t = x as f64 * y as f64;
                (s + t, m + t.abs())
            });
            (got[p] as f64 - exact).abs() <= 1e-5 * mag + 1e-6
        })
    } else {
        got.iter()
            .enumerate()
            .all(|(i, &v)| v.to_bits() == i as u32 + 200)
    };
    Ok((s, dt, ok))
}

fn main() {
    let a = match parse() {
        Ok(a) => a,
        Err(e) => {
            eprintln!("bench: {e}");
            std::process::exit(2);
        }
    };
    let cfg = match GpuConfig::load(&a.config) {
        Ok(c) => c,
        Err(e) => {
            eprintln!("bench: {e}");
            std::process::exit(2);
        }
    };
    for name in &a.policies {
        let policy = match PolicyKind::from_name(name) {
            Ok(p) => p,
            Err(e) => {
                eprintln!("bench: {e}");
                std::process::exit(2);
            }
        };
        let mut best = f64::INFINITY;
        let mut last = None;
        for _ in 0..a.repeat.max(1) {
            match run_once(&a, &cfg, policy) {
                Ok((s, dt, ok)) => {
                    if !ok {
                        eprintln!("bench: {} under {name}: wrong result", a.program);
                        std::process::exit(1);
                    }
                    best = best.min(dt);
                    last = Some(s);
                }
                Err(e) => {
                    eprintln!("bench: {e}");
                    std::process::exit(1);
                }
            }
        }
        let s = last.expect("ran");
        println!(
            "{} {}x{} {} {:11}: {:.3} s (best of {}) | cycles {} warp-inst {} ipc {:.2} | {:.2} M warp-inst/s {:.1} M thread-inst/s {:.3} M cycles/s | peak RSS {:.1} MiB",
            a.program,
            a.pairs,
            a.len,
            cfg.name,
            policy.name(),
            best,
            a.repeat.max(1),
            s.cycles,
            s.warp_instructions,
            s.ipc,
            s.warp_instructions as f64 / best / 1e6,
            s.thread_instructions as f64 / best / 1e6,
            s.cycles as f64 / best / 1e6,
            peak_rss_mib()
        );
    }
}
