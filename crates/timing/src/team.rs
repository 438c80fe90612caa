//! Threads that step the SMs of each cycle together (`TimingOptions::threads`).
//!
//! A launch with `threads = N > 1` runs its cycle loop on the calling thread and starts `N - 1`
//! workers for the launch (`std::thread::scope`). Each cycle the loop publishes a [`Job`]
//! (where the SMs, their ports and outputs are, global memory and the memory system as the
//! cycle began) and bumps a generation counter; thread `t` (the loop's own thread is 0) steps
//! SMs `t, t + N, t + 2N, …`, records how many have resident CTAs and its first error, and
//! counts itself done. The loop then commits the cycle alone (`cycle.rs`). Waiting spins a
//! little and then yields, so oversubscribed machines are not starved; nothing locks.
//!
//! Why this is sound: between publishing a job and seeing every thread done, thread `t`
//! touches only SMs, ports and outputs of its own indices, and reads the shared state
//! (global memory, memory system, launch context, config), which nobody writes until the loop
//! sees every thread done. Why results do not depend on `N`: an SM's step reads nothing
//! another SM writes in the same cycle (`ARCHITECTURE.md`, "SM isolation"), and the commit
//! runs in SM order on one thread. Errors: the one of the lowest-numbered SM wins, as when one
//! thread steps the SMs in order.

use crate::cycle::{step_one, Common, Cycle};
use crate::fetch_policy::FetchPolicy;
use crate::mem::{MemSystem, SmPort};
use crate::policy::IssuePolicy;
use crate::sm::{Sm, SmOut};
use crate::TimingError;
use std::any::Any;
use std::cell::UnsafeCell;
use std::panic::{catch_unwind, resume_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::Mutex;
use warpsim_core::exec::memory::GlobalMemory;

/// One cycle's work: where everything the SMs' steps use is.
struct Job<P: IssuePolicy, F> {
    sms: *mut Sm<P, F>,
    ports: *mut SmPort,
    outs: *mut SmOut,
    n: usize,
    gmem: *const GlobalMemory,
    mem: *const MemSystem,
    now: u64,
    all_dispatched: bool,
}

/// What one thread's share of a cycle gave: SMs with resident CTAs, and its first error with
/// the SM it came from.
#[derive(Default)]
struct Share {
    resident: usize,
    error: Option<(usize, TimingError)>,
}

/// The state the threads share.
pub(crate) struct Team<P: IssuePolicy, F> {
    threads: usize,
    /// Bumped by the loop to publish a job.
    generation: AtomicU64,
    /// Workers that finished the current job.
    done: AtomicUsize,
    stop: AtomicBool,
    job: UnsafeCell<Job<P, F>>,
    /// Indexed by thread; thread `t` writes only `shares[t]`, and only during a job.
    shares: Vec<UnsafeCell<Share>>,
    /// A worker's panic (a bug), handed to the loop's thread to resume there.
    panicked: Mutex<Option<Box<dyn Any + Send>>>,
}

// SAFETY: the raw pointers in `job` and the shares are accessed only as the module comment
// says: the job is written by the loop before it bumps `generation` (release) and read by
// workers after they see the bump (acquire); each thread writes only its own SMs' elements and
// its own share until it counts itself done (release), and the loop reads them after seeing
// every thread done (acquire). `Sm`, `SmPort` and `SmOut` are sent to a worker for its step
// (`Send`); global memory, the memory system and the launch context are only read by all
// (`Sync`).
unsafe impl<P: IssuePolicy + Send, F: Send> Sync for Team<P, F> {}

impl<P: IssuePolicy + Send, F: FetchPolicy + Send> Team<P, F> {
    pub fn new(threads: usize) -> Team<P, F> {
        Team {
            threads,
            generation: AtomicU64::new(0),
            done: AtomicUsize::new(0),
            stop: AtomicBool::new(false),
            job: UnsafeCell::new(Job {
                sms: std::ptr::null_mut(),
                ports: std::ptr::null_mut(),
                outs: std::ptr::null_mut(),
                n: 0,
                gmem: std::ptr::null(),
                mem: std::ptr::null(),
                now: 0,
                all_dispatched: false,
            }),
            shares: (0..threads).map(|_| UnsafeCell::default()).collect(),
            panicked: Mutex::new(None),
        }
    }

    pub fn threads(&self) -> usize {
        self.threads
    }

    /// A worker: thread `t` (1 ≤ t < threads) steps its SMs of every job until told to stop.
    pub fn work(&self, t: usize, common: &Common) {
        let mut seen = 0u64;
        loop {
            seen = wait_until(|| {
                let g = self.generation.load(Ordering::Acquire);
                (g != seen).then_some(g)
            });
            if self.stop.load(Ordering::Acquire) {
                return;
            }
            let stepped = catch_unwind(AssertUnwindSafe(|| self.step_share(t, common)));
            if let Err(payload) = stepped {
                *self.panicked.lock().unwrap_or_else(|p| p.into_inner()) = Some(payload);
                self.done.fetch_add(1, Ordering::Release);
                return;
            }
            self.done.fetch_add(1, Ordering::Release);
        }
    }

    /// The steps of every SM in `cycle`, on all threads; how many SMs have resident CTAs, or
    /// the lowest-numbered SM's error.
    pub fn step_all(
        &self,
        sms: &mut [Sm<P, F>],
        cycle: &Cycle,
        ports: &mut [SmPort],
        outs: &mut [SmOut],
    ) -> Result<usize, TimingError> {
        debug_assert!(sms.len() == ports.len() && sms.len() == outs.len());
        // SAFETY: no worker reads the job now: the last one counted itself done (or none has
        // started), and none reads it before the generation bump below.
        unsafe {
            *self.job.get() = Job {
                sms: sms.as_mut_ptr(),
                ports: ports.as_mut_ptr(),
                outs: outs.as_mut_ptr(),
                n: sms.len(),
                gmem: cycle.gmem,
                mem: cycle.mem,
                now: cycle.now,
                all_dispatched: cycle.all_dispatched,
            };
        }
        self.done.store(0, Ordering::Relaxed);
        self.generation.fetch_add(1, Ordering::Release);
        self.step_share(0, cycle.common);
        let workers = self.threads - 1;
        wait_until(|| (self.done.load(Ordering::Acquire) == workers).then_some(()));
        if let Some(payload) = self
            .panicked
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .take()
        {
            resume_unwind(payload);
        }
        let mut resident = 0;
        let mut first: Option<(usize, TimingError)> = None;
        for s in &self.shares {
            // SAFETY: every worker is done with this job (acquire above).
            let share = unsafe { &mut *s.get() };
            resident += share.resident;
            if let Some((si, e)) = share.error.take() {
                if first.as_ref().is_none_or(|(f, _)| si < *f) {
                    first = Some((si, e));
                }
            }
        }
        match first {
            Some((_, e)) => Err(e),
            None => Ok(resident),
        }
    }

    /// Thread `t`'s SMs of the current job.
    fn step_share(&self, t: usize, common: &Common) {
        // SAFETY: the job was published before this thread saw its generation, and the
        // elements indexed below (`t mod threads`) are this thread's alone until it is done.
        let job = unsafe { &*self.job.get() };
        let share = unsafe { &mut *self.shares[t].get() };
        *share = Share::default();
        let (gmem, mem) = unsafe { (&*job.gmem, &*job.mem) };
        let cycle = Cycle {
            common,
            all_dispatched: job.all_dispatched,
            gmem,
            mem,
            now: job.now,
        };
        let mut si = t;
        while si < job.n {
            let (sm, port, out) = unsafe {
                (
                    &mut *job.sms.add(si),
                    &mut *job.ports.add(si),
                    &mut *job.outs.add(si),
                )
            };
            match step_one(sm, &cycle, si, port, out) {
                Ok(r) => share.resident += r as usize,
                Err(e) => {
                    if share.error.is_none() {
                        share.error = Some((si, e));
                    }
                }
            }
            si += self.threads;
        }
    }

    /// Tells the workers to return (at the end of the launch, or on its error).
    pub fn finish(&self) {
        self.stop.store(true, Ordering::Release);
        self.generation.fetch_add(1, Ordering::Release);
    }
}

/// Spins until `ready` gives a value, yielding the CPU after a while.
#[inline]
fn wait_until<T>(mut ready: impl FnMut() -> Option<T>) -> T {
    let mut spins = 0u32;
    loop {
        if let Some(v) = ready() {
            return v;
        }
        if spins < 4096 {
            std::hint::spin_loop();
            spins += 1;
        } else {
            std::thread::yield_now();
        }
    }
}
