//! The closing lines of `warpsim exec` (GPGPU-Sim prints its `gpu_tot_*` lines at the same
//! point): per kernel, demangled, and in total, the cycles, warp and thread instructions, IPC,
//! and the simulation rate. Read from the shim's statistics file, one JSON line per launch.

use std::time::Duration;

use warpsim_core::demangle;

/// The launches of one kernel, added up.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct KernelTotals {
    /// Demangled name.
    pub name: String,
    pub launches: u64,
    /// `None` in functional mode (no time).
    pub cycles: Option<u64>,
    pub warp_instructions: u64,
    pub thread_instructions: u64,
}

impl KernelTotals {
    fn add(&mut self, cycles: Option<u64>, warp: u64, thread: u64) {
        self.launches += 1;
        self.cycles = match (self.cycles, cycles) {
            (Some(a), Some(b)) => Some(a + b),
            (None, c) if self.launches == 1 => c,
            _ => None,
        };
        self.warp_instructions += warp;
        self.thread_instructions += thread;
    }
}

/// Per kernel in order of first launch, from the shim's JSON lines (lines that do not parse,
/// say from a program killed mid-write, are skipped).
pub fn per_kernel(jsonl: &str) -> Vec<KernelTotals> {
    let mut out: Vec<KernelTotals> = Vec::new();
    for line in jsonl.lines() {
        let Ok(v) = serde_json::from_str::<serde_json::Value>(line) else {
            continue;
        };
        let Some(kernel) = v["kernel"].as_str() else {
            continue;
        };
        let name = demangle(kernel);
        let i = match out.iter().position(|k| k.name == name) {
            Some(i) => i,
            None => {
                out.push(KernelTotals {
                    name,
                    ..Default::default()
                });
                out.len() - 1
            }
        };
        let (warp, thread) = (
            v["warp_instructions"].as_u64().unwrap_or(0),
            v["thread_instructions"].as_u64().unwrap_or(0),
        );
        out[i].add(v["cycles"].as_u64(), warp, thread);
    }
    out
}

fn total(kernels: &[KernelTotals]) -> KernelTotals {
    let mut t = KernelTotals {
        name: "total".into(),
        ..Default::default()
    };
    for k in kernels {
        t.launches += k.launches;
        t.warp_instructions += k.warp_instructions;
        t.thread_instructions += k.thread_instructions;
    }
    t.cycles = kernels.iter().map(|k| k.cycles).sum();
    t
}

fn ratio(n: u64, d: Option<u64>) -> String {
    match d {
        Some(d) if d > 0 => format!("{:.2}", n as f64 / d as f64),
        _ => "-".into(),
    }
}

fn per_second(n: u64, wall: Duration) -> u64 {
    let s = wall.as_secs_f64();
    if s > 0.0 {
        (n as f64 / s).round() as u64
    } else {
        0
    }
}

/// The summary: `model` says how the launches ran (`timing gtx480/gto`), `wall` is the
/// program's whole run (host code included, as GPGPU-Sim's `gpu_tot_sim_rate` counts it).
pub fn render(kernels: &[KernelTotals], model: &str, wall: Duration) -> String {
    if kernels.is_empty() {
        return format!(
            "warpsim exec: the program completed no kernel launch ({model}, {:.2} s)\n",
            wall.as_secs_f64()
        );
    }
    let t = total(kernels);
    let header = [
        "kernel",
        "launches",
        "cycles",
        "warp instr",
        "thread instr",
        "IPC",
        "thread IPC",
    ];
    let row = |k: &KernelTotals| {
        [
            k.name.clone(),
            k.launches.to_string(),
            k.cycles.map_or("-".into(), |c| c.to_string()),
            k.warp_instructions.to_string(),
            k.thread_instructions.to_string(),
            ratio(k.warp_instructions, k.cycles),
            ratio(k.thread_instructions, k.cycles),
        ]
    };
    let rows: Vec<[String; 7]> = kernels
        .iter()
        .map(row)
        .chain(std::iter::once(row(&t)))
        .collect();
    let width: Vec<usize> = (0..7)
        .map(|c| {
            rows.iter()
                .map(|r| r[c].len())
                .chain([header[c].len()])
                .max()
                .unwrap_or(0)
        })
        .collect();
    let line = |cells: &[&str]| -> String {
        let mut s = format!("  {:<w$}", cells[0], w = width[0]);
        for (c, cell) in cells.iter().enumerate().skip(1) {
            s.push_str(&format!("  {:>w$}", cell, w = width[c]));
        }
        s.trim_end().to_string() + "\n"
    };
    let mut out = format!(
        "warpsim exec: {} launch{} of {} kernel{} ({model}) in {:.2} s\n",
        t.launches,
        if t.launches == 1 { "" } else { "es" },
        kernels.len(),
        if kernels.len() == 1 { "" } else { "s" },
        wall.as_secs_f64()
    );
    out.push_str(&line(&header));
    for r in &rows {
        out.push_str(&line(&r.iter().map(String::as_str).collect::<Vec<_>>()));
    }
    let mut rate = format!(
        "  simulation rate: {} warp instr/s, {} thread instr/s",
        per_second(t.warp_instructions, wall),
        per_second(t.thread_instructions, wall)
    );
    if let Some(c) = t.cycles {
        rate.push_str(&format!(", {} cycles/s", per_second(c, wall)));
    }
    out.push_str(&rate);
    out.push('\n');
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    const TIMING: &str = r#"{"kernel":"_Z5scalePfif","grid":[2,1,1],"block":[64,1,1],"warp_instructions":100,"thread_instructions":3200,"mode":"timing","cycles":50}
{"kernel":"_Z6reducePKfPfi","grid":[1,1,1],"block":[32,1,1],"warp_instructions":30,"thread_instructions":600,"mode":"timing","cycles":60}
{"kernel":"_Z5scalePfif","grid":[2,1,1],"block":[64,1,1],"warp_instructions":100,"thread_instructions":3200,"mode":"timing","cycles":150}
{"kernel":"_Z5sca"#;

    #[test]
    fn launches_add_up_per_kernel_in_first_launch_order() {
        let k = per_kernel(TIMING);
        assert_eq!(k.len(), 2, "the cut last line is skipped");
        assert_eq!(
            k[0],
            KernelTotals {
                name: "scale(float*, int, float)".into(),
                launches: 2,
                cycles: Some(200),
                warp_instructions: 200,
                thread_instructions: 6400
            }
        );
        assert_eq!(k[1].name, "reduce(float const*, float*, int)");
        let t = total(&k);
        assert_eq!(
            (
                t.launches,
                t.cycles,
                t.warp_instructions,
                t.thread_instructions
            ),
            (3, Some(260), 230, 7000)
        );
    }

    #[test]
    fn rendered_table_and_rate() {
        let text = render(
            &per_kernel(TIMING),
            "timing gtx480/gto",
            Duration::from_secs(2),
        );
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(
            lines[0],
            "warpsim exec: 3 launches of 2 kernels (timing gtx480/gto) in 2.00 s"
        );
        assert!(
            lines[1].starts_with("  kernel") && lines[1].ends_with("IPC  thread IPC"),
            "{text}"
        );
        let scale: Vec<&str> = lines[2].split_whitespace().collect();
        assert_eq!(
            &scale[scale.len() - 6..],
            ["2", "200", "200", "6400", "1.00", "32.00"],
            "{text}"
        );
        let total: Vec<&str> = lines[4].split_whitespace().collect();
        assert_eq!(
            total,
            ["total", "3", "260", "230", "7000", "0.88", "26.92"],
            "{text}"
        );
        assert_eq!(
            lines[5],
            "  simulation rate: 115 warp instr/s, 3500 thread instr/s, 130 cycles/s"
        );
    }

    #[test]
    fn functional_mode_has_no_cycles_and_no_launch_is_said() {
        let k = per_kernel(
            r#"{"kernel":"saxpy","warp_instructions":8,"thread_instructions":256,"mode":"functional"}"#,
        );
        let text = render(&k, "functional", Duration::from_millis(500));
        assert!(
            text.lines()
                .nth(2)
                .unwrap()
                .split_whitespace()
                .eq(["saxpy", "1", "-", "8", "256", "-", "-"]),
            "{text}"
        );
        assert!(
            text.ends_with("  simulation rate: 16 warp instr/s, 512 thread instr/s\n"),
            "{text}"
        );
        assert_eq!(
            render(&[], "functional", Duration::from_secs(1)),
            "warpsim exec: the program completed no kernel launch (functional, 1.00 s)\n"
        );
    }
}
