//! Reads GPGPU-Sim's standard output into one [`KernelStats`] per kernel launch.
//!
//! GPGPU-Sim prints a statistics block at the end of every kernel: `kernel_name = NAME`,
//! `gpu_sim_cycle` and `gpu_sim_insn` (this kernel's cycles and thread instructions), then
//! counters that are cumulative since the program started (`L1D_total_cache_*`,
//! `L2_total_cache_*`, the per-channel `DRAM[i]: … n_act=… n_rd=… n_write=…` lines and the
//! `Warp Occupancy Distribution` issue-slot line). This parser keeps each kernel's own
//! share: block `k`'s cumulative counters minus block `k − 1`'s.

use super::stats::{IssueBreakdown, KernelStats};

/// The cumulative counters of one statistics block.
#[derive(Default, Clone, Copy)]
struct Cumulative {
    l1d_accesses: u64,
    l1d_misses: u64,
    l1d_reservation_fails: u64,
    l2_accesses: u64,
    l2_misses: u64,
    l2_reservation_fails: u64,
    dram_reads: u64,
    dram_writes: u64,
    dram_activates: u64,
    issue: IssueBreakdown,
}

impl Cumulative {
    fn minus(&self, o: &Cumulative) -> Cumulative {
        Cumulative {
            l1d_accesses: self.l1d_accesses.saturating_sub(o.l1d_accesses),
            l1d_misses: self.l1d_misses.saturating_sub(o.l1d_misses),
            l1d_reservation_fails: self
                .l1d_reservation_fails
                .saturating_sub(o.l1d_reservation_fails),
            l2_accesses: self.l2_accesses.saturating_sub(o.l2_accesses),
            l2_misses: self.l2_misses.saturating_sub(o.l2_misses),
            l2_reservation_fails: self
                .l2_reservation_fails
                .saturating_sub(o.l2_reservation_fails),
            dram_reads: self.dram_reads.saturating_sub(o.dram_reads),
            dram_writes: self.dram_writes.saturating_sub(o.dram_writes),
            dram_activates: self.dram_activates.saturating_sub(o.dram_activates),
            issue: self.issue.minus(&o.issue),
        }
    }
}

/// A block being read: the kernel's own figures and the cumulative counters.
#[derive(Default)]
struct Block {
    kernel: Option<String>,
    cycles: Option<u64>,
    insts: Option<u64>,
    cum: Cumulative,
}

/// `name = value` (GPGPU-Sim's spacing varies), or `None` when `line` is not that key.
fn value_of<'a>(line: &'a str, key: &str) -> Option<&'a str> {
    let rest = line.trim_start().strip_prefix(key)?;
    let rest = rest.trim_start().strip_prefix('=')?;
    Some(rest.trim())
}

fn number(s: &str, what: &str, line_no: usize) -> Result<u64, String> {
    s.split_whitespace()
        .next()
        .unwrap_or("")
        .parse()
        .map_err(|_| format!("line {line_no}: {what}: not a count: {s:?}"))
}

/// `key=N` inside a line of `key=value` pairs separated by spaces.
fn field(line: &str, key: &str) -> Option<u64> {
    line.split_whitespace()
        .find_map(|kv| kv.strip_prefix(key)?.strip_prefix('=')?.parse().ok())
}

/// The `Stall:… W0_Idle:… W0_Scoreboard:… W1:… … W32:…` line (tab separated).
fn issue_line(line: &str) -> Option<IssueBreakdown> {
    let mut b = IssueBreakdown::default();
    let mut seen = false;
    for part in line.split_whitespace() {
        let (k, v) = part.split_once(':')?;
        let v: u64 = v.parse().ok()?;
        match k {
            "Stall" => b.pipeline = v,
            "W0_Idle" => b.idle = v,
            "W0_Scoreboard" => b.scoreboard = v,
            w if w.starts_with('W') && w[1..].parse::<u32>().is_ok() => b.issued += v,
            _ => return None,
        }
        seen = true;
    }
    seen.then_some(b)
}

/// Every kernel of a GPGPU-Sim run, in launch order. Errors name the line of a value that
/// cannot be read, or say that a block lacks its cycles or instructions.
pub fn parse(log: &str) -> Result<Vec<KernelStats>, String> {
    let mut kernels = Vec::new();
    let mut block: Option<Block> = None;
    let mut prev = Cumulative::default();
    let mut expect_issue = false;
    let finish =
        |b: Block, prev: &mut Cumulative, out: &mut Vec<KernelStats>| -> Result<(), String> {
            let name = b.kernel.unwrap_or_default();
            let cycles = b
                .cycles
                .ok_or_else(|| format!("kernel {name}: no gpu_sim_cycle"))?;
            let insts = b
                .insts
                .ok_or_else(|| format!("kernel {name}: no gpu_sim_insn"))?;
            let d = b.cum.minus(prev);
            *prev = b.cum;
            out.push(KernelStats {
                kernel: name,
                cycles,
                thread_instructions: insts,
                l1d_accesses: d.l1d_accesses,
                l1d_misses: d.l1d_misses,
                l1d_reservation_fails: d.l1d_reservation_fails,
                l2_accesses: d.l2_accesses,
                l2_misses: d.l2_misses,
                l2_reservation_fails: d.l2_reservation_fails,
                dram_reads: d.dram_reads,
                dram_writes: d.dram_writes,
                dram_activates: d.dram_activates,
                issue: d.issue,
            });
            Ok(())
        };
    for (i, line) in log.lines().enumerate() {
        let n = i + 1;
        if let Some(v) = value_of(line, "kernel_name") {
            if let Some(b) = block.take() {
                finish(b, &mut prev, &mut kernels)?;
            }
            block = Some(Block {
                kernel: Some(v.to_string()),
                ..Block::default()
            });
            continue;
        }
        let Some(b) = block.as_mut() else { continue };
        if expect_issue {
            expect_issue = false;
            if let Some(issue) = issue_line(line) {
                b.cum.issue = issue;
                continue;
            }
        }
        if line.starts_with("Warp Occupancy Distribution:") {
            expect_issue = true;
        } else if let Some(v) = value_of(line, "gpu_sim_cycle") {
            b.cycles = Some(number(v, "gpu_sim_cycle", n)?);
        } else if let Some(v) = value_of(line, "gpu_sim_insn") {
            b.insts = Some(number(v, "gpu_sim_insn", n)?);
        } else if let Some(v) = value_of(line, "L1D_total_cache_accesses") {
            b.cum.l1d_accesses = number(v, "L1D_total_cache_accesses", n)?;
        } else if let Some(v) = value_of(line, "L1D_total_cache_misses") {
            b.cum.l1d_misses = number(v, "L1D_total_cache_misses", n)?;
        } else if let Some(v) = value_of(line, "L1D_total_cache_reservation_fails") {
            b.cum.l1d_reservation_fails = number(v, "L1D_total_cache_reservation_fails", n)?;
        } else if let Some(v) = value_of(line, "L2_total_cache_accesses") {
            b.cum.l2_accesses = number(v, "L2_total_cache_accesses", n)?;
        } else if let Some(v) = value_of(line, "L2_total_cache_misses") {
            b.cum.l2_misses = number(v, "L2_total_cache_misses", n)?;
        } else if let Some(v) = value_of(line, "L2_total_cache_reservation_fails") {
            b.cum.l2_reservation_fails = number(v, "L2_total_cache_reservation_fails", n)?;
        } else if line.starts_with("DRAM[") {
            // The header line of a channel; its counters follow on the next `n_cmd=` line.
        } else if line.starts_with("n_cmd=") {
            b.cum.dram_activates += field(line, "n_act").unwrap_or(0);
            b.cum.dram_reads += field(line, "n_rd").unwrap_or(0);
            b.cum.dram_writes += field(line, "n_write").unwrap_or(0);
        }
    }
    if let Some(b) = block.take() {
        finish(b, &mut prev, &mut kernels)?;
    }
    // (A counter missing from a block reads 0 there: its delta saturates to 0 and the next
    // block's delta is then its whole cumulative value. GPGPU-Sim prints every counter above
    // in every block, so this only matters for a truncated log.)
    Ok(kernels)
}

#[cfg(test)]
mod tests {
    use super::*;

    const LOG: &str = "\
GPGPU-Sim: some banner
kernel_name = setup_floats
kernel_launch_uid = 1
gpu_sim_cycle = 1000
gpu_sim_insn = 5000
gpu_ipc =       5.0000
\tL1D_total_cache_accesses = 10
\tL1D_total_cache_misses = 4
\tL1D_total_cache_reservation_fails = 1
Warp Occupancy Distribution:
Stall:7\tW0_Idle:20\tW0_Scoreboard:30\tW1:0\tW32:43
DRAM[0]: 16 bks, busW=4 BL=8 CL=12, tRRD=6 tCCD=2, tRCD=12 tRAS=28 tRP=12 tRC=40
n_cmd=100 n_nop=50 n_act=3 n_pre=2 n_ref_event=0 n_req=9 n_rd=8 n_rd_L2_A=0 n_write=1 n_wr_bk=0 bw_util=0.1
DRAM[1]: 16 bks, busW=4 BL=8 CL=12, tRRD=6 tCCD=2, tRCD=12 tRAS=28 tRP=12 tRC=40
n_cmd=100 n_nop=50 n_act=1 n_pre=0 n_ref_event=0 n_req=2 n_rd=2 n_rd_L2_A=0 n_write=0 n_wr_bk=0 bw_util=0.1
L2_total_cache_accesses = 40
L2_total_cache_misses = 20
L2_total_cache_reservation_fails = 0
kernel_name = dot
gpu_sim_cycle = 3000
gpu_sim_insn = 9000
\tL1D_total_cache_accesses = 110
\tL1D_total_cache_misses = 54
\tL1D_total_cache_reservation_fails = 11
Warp Occupancy Distribution:
Stall:17\tW0_Idle:25\tW0_Scoreboard:60\tW1:5\tW32:100
n_cmd=300 n_nop=50 n_act=13 n_pre=2 n_ref_event=0 n_req=9 n_rd=28 n_rd_L2_A=0 n_write=1 n_wr_bk=0 bw_util=0.1
n_cmd=300 n_nop=50 n_act=1 n_pre=0 n_ref_event=0 n_req=2 n_rd=2 n_rd_L2_A=0 n_write=0 n_wr_bk=0 bw_util=0.1
L2_total_cache_accesses = 140
L2_total_cache_misses = 70
L2_total_cache_reservation_fails = 5
";

    #[test]
    fn per_kernel_figures_and_deltas_of_cumulative_counters() {
        let k = parse(LOG).unwrap();
        assert_eq!(k.len(), 2);
        assert_eq!(
            (k[0].kernel.as_str(), k[0].cycles, k[0].thread_instructions),
            ("setup_floats", 1000, 5000)
        );
        assert_eq!(
            (
                k[0].l1d_accesses,
                k[0].l1d_misses,
                k[0].l1d_reservation_fails
            ),
            (10, 4, 1)
        );
        assert_eq!(
            (k[0].dram_reads, k[0].dram_writes, k[0].dram_activates),
            (10, 1, 4)
        );
        assert_eq!(
            k[0].issue,
            IssueBreakdown {
                issued: 43,
                idle: 20,
                scoreboard: 30,
                pipeline: 7
            }
        );
        assert_eq!(
            (k[1].kernel.as_str(), k[1].cycles, k[1].thread_instructions),
            ("dot", 3000, 9000)
        );
        assert_eq!(
            (
                k[1].l1d_accesses,
                k[1].l1d_misses,
                k[1].l1d_reservation_fails
            ),
            (100, 50, 10)
        );
        assert_eq!(
            (k[1].l2_accesses, k[1].l2_misses, k[1].l2_reservation_fails),
            (100, 50, 5)
        );
        assert_eq!(
            (k[1].dram_reads, k[1].dram_writes, k[1].dram_activates),
            (20, 0, 10)
        );
        assert_eq!(
            k[1].issue,
            IssueBreakdown {
                issued: 62,
                idle: 5,
                scoreboard: 30,
                pipeline: 10
            }
        );
    }

    #[test]
    fn a_block_without_cycles_is_an_error() {
        let e = parse("kernel_name = k\ngpu_sim_insn = 5\n").unwrap_err();
        assert!(e.contains("kernel k: no gpu_sim_cycle"), "{e}");
        let e = parse("kernel_name = k\ngpu_sim_cycle = x\n").unwrap_err();
        assert!(e.contains("line 2: gpu_sim_cycle"), "{e}");
    }

    #[test]
    fn no_kernel_gives_nothing() {
        assert!(parse("GPGPU-Sim: no kernels\n").unwrap().is_empty());
    }
}
