//! Watching a long launch from outside the cycle loop: a stop request (Ctrl-C) and progress
//! reports. The loop looks every [`WATCH_CYCLES`] simulated cycles, in the comparison it makes
//! for the cycle limit anyway, so the per-cycle path pays nothing; the reporter decides itself
//! when to print (every [`REPORT_EVERY`]).

use std::io::{IsTerminal, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// Simulated cycles between two looks: a fraction of a second of wall time at the simulator's
/// tens of thousands to millions of cycles per second.
pub const WATCH_CYCLES: u64 = 1 << 14;

/// Wall time between two progress lines.
pub const REPORT_EVERY: Duration = Duration::from_secs(2);

/// Where a launch stands.
#[derive(Clone, Copy, Debug)]
pub struct Progress<'a> {
    pub kernel: &'a str,
    pub cycle: u64,
    pub warp_instructions: u64,
    pub ctas_done: u64,
    pub ctas_total: u64,
}

/// What the cycle loop looks at every [`WATCH_CYCLES`] cycles.
#[derive(Clone, Copy, Debug)]
pub struct Watch {
    /// Once set (by a signal handler), the launch stops with `TimingError::Interrupted`.
    pub stop: Option<&'static AtomicBool>,
    /// Called with the launch's progress (a plain function: no allocation, no `dyn`).
    pub report: Option<fn(&Progress)>,
}

impl Watch {
    /// Reports progress and says whether to stop.
    pub(crate) fn look(&self, p: &Progress) -> bool {
        if let Some(report) = self.report {
            report(p);
        }
        self.stop.is_some_and(|s| s.load(Ordering::Relaxed))
    }
}

/// The last line printed: when, and the warp instructions then (for the rate).
struct Last {
    at: Instant,
    warp_instructions: u64,
    kernel_cycle: u64,
    printed: bool,
}

static LAST: Mutex<Option<Last>> = Mutex::new(None);

/// One progress line for `p`: cycles, IPC, CTAs done / total, warp instructions per second.
pub fn progress_line(p: &Progress, warp_per_second: f64) -> String {
    let ipc = if p.cycle > 0 {
        p.warp_instructions as f64 / p.cycle as f64
    } else {
        0.0
    };
    format!(
        "warpsim: {}: cycle {}, IPC {ipc:.2}, CTAs {}/{}, {:.0} warp instr/s",
        warpsim_core::demangle(p.kernel),
        p.cycle,
        p.ctas_done,
        p.ctas_total,
        warp_per_second
    )
}

/// A reporter for [`Watch::report`]: every [`REPORT_EVERY`], one line on stderr, overwritten
/// in place when stderr is a terminal (finish it with [`end_progress`]).
pub fn report_to_stderr(p: &Progress) {
    let now = Instant::now();
    let mut last = LAST.lock().unwrap_or_else(|e| e.into_inner());
    let Some(l) = last.as_mut() else {
        *last = Some(Last {
            at: now,
            warp_instructions: p.warp_instructions,
            kernel_cycle: p.cycle,
            printed: false,
        });
        return;
    };
    // A new launch restarts the instruction count.
    if p.cycle < l.kernel_cycle {
        l.warp_instructions = 0;
    }
    l.kernel_cycle = p.cycle;
    let dt = now.duration_since(l.at);
    if dt < REPORT_EVERY {
        return;
    }
    let rate = p.warp_instructions.saturating_sub(l.warp_instructions) as f64 / dt.as_secs_f64();
    let line = progress_line(p, rate);
    let mut err = std::io::stderr().lock();
    let _ = if err.is_terminal() {
        write!(err, "\r{line}\x1b[K")
    } else {
        writeln!(err, "{line}")
    };
    let _ = err.flush();
    l.at = now;
    l.warp_instructions = p.warp_instructions;
    l.printed = true;
}

/// Clears an in-place progress line, if one is showing, before other output.
pub fn end_progress() {
    let mut last = LAST.lock().unwrap_or_else(|e| e.into_inner());
    if let Some(l) = last.take() {
        let mut err = std::io::stderr().lock();
        if l.printed && err.is_terminal() {
            let _ = write!(err, "\r\x1b[K");
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn line_reads_like_the_docs() {
        let p = Progress {
            kernel: "spin",
            cycle: 2_000_000,
            warp_instructions: 1_000_000,
            ctas_done: 3,
            ctas_total: 120,
        };
        assert_eq!(
            progress_line(&p, 123456.4),
            "warpsim: spin: cycle 2000000, IPC 0.50, CTAs 3/120, 123456 warp instr/s"
        );
    }

    #[test]
    fn look_reports_and_stops() {
        static STOP: AtomicBool = AtomicBool::new(false);
        static SEEN: AtomicBool = AtomicBool::new(false);
        fn seen(_: &Progress) {
            SEEN.store(true, Ordering::Relaxed);
        }
        let w = Watch {
            stop: Some(&STOP),
            report: Some(seen),
        };
        let p = Progress {
            kernel: "k",
            cycle: 1,
            warp_instructions: 0,
            ctas_done: 0,
            ctas_total: 1,
        };
        assert!(!w.look(&p));
        assert!(SEEN.load(Ordering::Relaxed));
        STOP.store(true, Ordering::Relaxed);
        assert!(w.look(&p));
        assert!(!Watch {
            stop: None,
            report: None
        }
        .look(&p));
    }
}
