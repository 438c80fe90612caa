//! The figures both simulators report for a kernel launch, and warpsim's side of them read
//! from the CUDA shim's `WARPSIM_STATS` JSON lines.

use serde_json::Value;

/// Issue-slot outcomes (GPGPU-Sim's `Warp Occupancy Distribution`: `Stall` = pipeline,
/// `W0_Idle`, `W0_Scoreboard`, `W1…W32` summed = issued; warpsim's `issue` counters).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct IssueBreakdown {
    pub issued: u64,
    pub idle: u64,
    pub scoreboard: u64,
    pub pipeline: u64,
}

impl IssueBreakdown {
    pub fn minus(&self, o: &IssueBreakdown) -> IssueBreakdown {
        IssueBreakdown {
            issued: self.issued.saturating_sub(o.issued),
            idle: self.idle.saturating_sub(o.idle),
            scoreboard: self.scoreboard.saturating_sub(o.scoreboard),
            pipeline: self.pipeline.saturating_sub(o.pipeline),
        }
    }

    fn add(&mut self, o: &IssueBreakdown) {
        self.issued += o.issued;
        self.idle += o.idle;
        self.scoreboard += o.scoreboard;
        self.pipeline += o.pipeline;
    }

    pub fn total(&self) -> u64 {
        self.issued + self.idle + self.scoreboard + self.pipeline
    }
}

/// One launch (or a sum of launches) as both simulators can describe it.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct KernelStats {
    pub kernel: String,
    pub cycles: u64,
    pub thread_instructions: u64,
    pub l1d_accesses: u64,
    pub l1d_misses: u64,
    pub l1d_reservation_fails: u64,
    pub l2_accesses: u64,
    pub l2_misses: u64,
    pub l2_reservation_fails: u64,
    pub dram_reads: u64,
    pub dram_writes: u64,
    pub dram_activates: u64,
    pub issue: IssueBreakdown,
}

/// Kernels whose name starts with this generate inputs; they are left out of the comparison
/// (correlation/README.md).
pub const SETUP_PREFIX: &str = "setup_";

impl KernelStats {
    fn add(&mut self, o: &KernelStats) {
        self.cycles += o.cycles;
        self.thread_instructions += o.thread_instructions;
        self.l1d_accesses += o.l1d_accesses;
        self.l1d_misses += o.l1d_misses;
        self.l1d_reservation_fails += o.l1d_reservation_fails;
        self.l2_accesses += o.l2_accesses;
        self.l2_misses += o.l2_misses;
        self.l2_reservation_fails += o.l2_reservation_fails;
        self.dram_reads += o.dram_reads;
        self.dram_writes += o.dram_writes;
        self.dram_activates += o.dram_activates;
        self.issue.add(&o.issue);
    }

    /// The sum over the measured launches (every kernel but the `setup_*` ones), named by
    /// the measured kernels joined with `+` (each name once).
    pub fn measured(launches: &[KernelStats]) -> KernelStats {
        let mut sum = KernelStats::default();
        let mut names: Vec<&str> = Vec::new();
        for k in launches
            .iter()
            .filter(|k| !k.kernel.starts_with(SETUP_PREFIX))
        {
            sum.add(k);
            if !names.contains(&k.kernel.as_str()) {
                names.push(&k.kernel);
            }
        }
        sum.kernel = names.join("+");
        sum
    }

    /// Row-buffer hit rate: column commands that needed no activate, over all of them.
    pub fn dram_row_hit_rate(&self) -> Option<f64> {
        let cols = self.dram_reads + self.dram_writes;
        (cols > 0).then(|| 1.0 - self.dram_activates.min(cols) as f64 / cols as f64)
    }
}

fn u64_at(v: &Value, path: &[&str]) -> Result<u64, String> {
    let mut cur = v;
    for key in path {
        cur = cur
            .get(key)
            .ok_or_else(|| format!("no \"{}\"", path.join(".")))?;
    }
    cur.as_u64()
        .ok_or_else(|| format!("\"{}\" is not a count", path.join(".")))
}

/// One `WARPSIM_STATS` line of a timed launch.
fn warpsim_line(v: &Value) -> Result<KernelStats, String> {
    let kernel = v
        .get("kernel")
        .and_then(Value::as_str)
        .ok_or("no \"kernel\"")?
        .to_string();
    if v.get("mode").and_then(Value::as_str) != Some("timing") {
        return Err(format!("kernel {kernel}: not a timing-mode launch"));
    }
    let cache = |name: &str| -> Result<(u64, u64, u64), String> {
        let (h, m, g) = (
            u64_at(v, &["memory", name, "hits"])?,
            u64_at(v, &["memory", name, "misses"])?,
            u64_at(v, &["memory", name, "merged"])?,
        );
        Ok((
            h + m + g,
            m,
            u64_at(v, &["memory", name, "reservation_fails"])?,
        ))
    };
    let (l1d_accesses, l1d_misses, l1d_reservation_fails) = cache("l1d")?;
    let (l2_accesses, l2_misses, l2_reservation_fails) = cache("l2")?;
    Ok(KernelStats {
        cycles: u64_at(v, &["cycles"])?,
        thread_instructions: u64_at(v, &["thread_instructions"])?,
        l1d_accesses,
        l1d_misses,
        l1d_reservation_fails,
        l2_accesses,
        l2_misses,
        l2_reservation_fails,
        dram_reads: u64_at(v, &["memory", "dram", "reads"])?,
        dram_writes: u64_at(v, &["memory", "dram", "writes"])?,
        dram_activates: u64_at(v, &["memory", "dram", "activates"])?,
        issue: IssueBreakdown {
            issued: u64_at(v, &["issue", "issued"])?,
            idle: u64_at(v, &["issue", "idle"])?,
            scoreboard: u64_at(v, &["issue", "scoreboard"])?,
            pipeline: u64_at(v, &["issue", "pipeline"])?,
        },
        kernel,
    })
}

/// Every launch of a `WARPSIM_STATS` file (one JSON object per line), in order.
pub fn parse_warpsim_jsonl(text: &str) -> Result<Vec<KernelStats>, String> {
    text.lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty())
        .map(|(i, l)| {
            let v: Value = serde_json::from_str(l).map_err(|e| format!("line {}: {e}", i + 1))?;
            warpsim_line(&v).map_err(|e| format!("line {}: {e}", i + 1))
        })
        .collect()
}

/// The cycles of each launch of a `warpsim run --stats FILE.json` file (the replay of a
/// program's launch manifest), with its kernel names.
pub fn parse_run_stats(text: &str) -> Result<Vec<(String, u64)>, String> {
    let v: Value = serde_json::from_str(text).map_err(|e| e.to_string())?;
    let launches = v
        .get("kernels")
        .and_then(Value::as_array)
        .ok_or("no \"kernels\" array")?;
    launches
        .iter()
        .map(|l| {
            let kernel = l
                .get("kernel")
                .and_then(Value::as_str)
                .ok_or("a launch has no \"kernel\"")?;
            let cycles = u64_at(l, &["timing", "cycles"])?;
            Ok((kernel.to_string(), cycles))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn line(kernel: &str, cycles: u64) -> String {
        format!(
            r#"{{"kernel":"{kernel}","grid":[1,1,1],"block":[32,1,1],"warp_instructions":3,"thread_instructions":96,"mode":"timing","config":"gtx480","policy":"gto","registers":8,"cycles":{cycles},"ipc":0.1,"ctas_per_sm":1,"issue":{{"issued":3,"idle":5,"scoreboard":7,"pipeline":1}},"stalls":{{}},"memory":{{"l1d":{{"hits":1,"misses":2,"merged":3,"reservation_fails":4,"writebacks":0}},"l2":{{"hits":10,"misses":20,"merged":0,"reservation_fails":5,"writebacks":0}},"dram":{{"reads":8,"writes":2,"row_hits":6,"activates":4,"precharges":3,"busy_cycles":1,"active_cycles":2}}}}}}"#
        )
    }

    #[test]
    fn shim_lines_and_the_measured_sum() {
        let text = format!(
            "{}\n{}\n{}\n",
            line("setup_floats", 100),
            line("dot", 30),
            line("dot", 12)
        );
        let k = parse_warpsim_jsonl(&text).unwrap();
        assert_eq!(k.len(), 3);
        assert_eq!(
            (
                k[1].l1d_accesses,
                k[1].l1d_misses,
                k[1].l1d_reservation_fails
            ),
            (6, 2, 4)
        );
        assert_eq!(
            (k[1].l2_accesses, k[1].l2_misses, k[1].l2_reservation_fails),
            (30, 20, 5)
        );
        assert_eq!(
            k[1].issue,
            IssueBreakdown {
                issued: 3,
                idle: 5,
                scoreboard: 7,
                pipeline: 1
            }
        );
        let m = KernelStats::measured(&k);
        assert_eq!(
            (m.kernel.as_str(), m.cycles, m.thread_instructions),
            ("dot", 42, 192)
        );
        assert_eq!(m.dram_row_hit_rate(), Some(1.0 - 8.0 / 20.0));
    }

    #[test]
    fn functional_lines_and_garbage_are_errors() {
        let e = parse_warpsim_jsonl(r#"{"kernel":"k","mode":"functional"}"#).unwrap_err();
        assert!(
            e.contains("line 1: kernel k: not a timing-mode launch"),
            "{e}"
        );
        assert!(parse_warpsim_jsonl("{").unwrap_err().starts_with("line 1:"));
        let e = parse_run_stats(r#"{"kernels":[{"kernel":"k"}]}"#).unwrap_err();
        assert!(e.contains("timing.cycles"), "{e}");
    }
}
