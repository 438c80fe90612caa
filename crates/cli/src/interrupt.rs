//! Ctrl-C: the first stops the timed launch in progress cleanly (the cycle loop looks at
//! [`STOP`] every few thousand iterations), so the statistics so far are printed, marked
//! partial, and warpsim exits with [`crate::exit::INTERRUPTED`]. A second Ctrl-C, or one when
//! nothing watches the flag (functional mode), exits at once.

use std::sync::atomic::{AtomicBool, Ordering};

use warpsim_timing::watch::{self, Watch};

/// Set by the SIGINT handler.
pub static STOP: AtomicBool = AtomicBool::new(false);
/// Whether a cycle loop is watching [`STOP`] (timing mode).
static WATCHED: AtomicBool = AtomicBool::new(false);

/// Installs the handler (once per process; later calls only update whether it is watched).
pub fn install(watched: bool) {
    WATCHED.store(watched, Ordering::Relaxed);
    static ONCE: std::sync::Once = std::sync::Once::new();
    ONCE.call_once(|| {
        let _ = ctrlc::set_handler(|| {
            if STOP.swap(true, Ordering::Relaxed) || !WATCHED.load(Ordering::Relaxed) {
                watch::end_progress();
                eprintln!("warpsim: interrupted");
                std::process::exit(crate::exit::INTERRUPTED as i32);
            }
        });
    });
}

/// The watch a timed run installs: the stop flag, and progress lines when `progress`.
pub fn watch(progress: bool) -> Watch {
    Watch {
        stop: Some(&STOP),
        report: progress.then_some(watch::report_to_stderr as fn(&watch::Progress)),
    }
}
