//! One DRAM channel (memory partition): banks with row buffers, a request queue scheduled
//! FR-FCFS (oldest row hit first, else the oldest request opens its row) or FCFS, and the
//! preset's timings in DRAM command cycles: tRCD, tRP, tRAS, tRC, tRRD, tCCD, CL, WL and the
//! data-bus time of a line. One command per DRAM cycle; the channel runs in its own clock
//! (`gpu.dram_clock_mhz`), advanced by the memory system.
//!
//! Writes are batched, as memory controllers do: reads are served first while fewer than
//! [`WRITE_HIGH`] of the queue are writes; from there the channel drains writes only until
//! they fall to [`WRITE_LOW`] (write-backs stream through few rows, so a batch mostly hits
//! open rows instead of closing the rows reads are using).
//!
//! Bank groups (GDDR5): column commands to one group are `tCCDL` apart, a precharge waits
//! `tRTPL` after a read in its group; read/write turnaround (`tWTR`, `tRTW`) and write
//! recovery (`tWR`). With `dram.request_bytes` a request is a few sectors, each one or more
//! column commands that hold the data bus for a whole burst (GPGPU-Sim's sectored L2 and
//! DRAM atom); a request keeps its place in the queue until its last command has issued.
//!
//! Not modelled (documented in the timing README): refresh and power-down.

mod queue;

use queue::{BankQueues, BankSet, Queued};
use std::collections::VecDeque;
use warpsim_core::config::{BankGroupIndex, DramScheduler, GpuConfig};

const NONE: u32 = u32::MAX;

/// Queued writes (as a fraction of the queue, in eighths) that start a write drain…
pub const WRITE_HIGH: usize = 6;
/// …and where it stops.
pub const WRITE_LOW: usize = 2;

/// Timing parameters in DRAM cycles, and the bank groups and bursts they apply to.
#[derive(Clone, Copy, Debug)]
pub struct DramTiming {
    pub ccd: u64,
    pub rrd: u64,
    pub rcd: u64,
    pub ras: u64,
    pub rp: u64,
    pub rc: u64,
    pub cl: u64,
    pub wl: u64,
    /// Data-bus cycles of one column command (a line without `request_bytes`, else a burst).
    pub line_cycles: u64,
    pub fcfs: bool,
    pub ccdl: u64,
    pub rtpl: u64,
    pub wtr: u64,
    pub rtw: u64,
    pub wr: u64,
    /// How the banks form bank groups (`tCCDL` and `tRTPL` apply within a group).
    pub groups: BankGroups,
    /// How a request splits into column commands (bursts).
    pub bursts: RequestBursts,
}

/// The channel's bank groups (GDDR5): which group a bank is in.
#[derive(Clone, Copy, Debug)]
pub struct BankGroups {
    /// Banks per group (`banks` when there are no groups).
    pub per_group: u16,
    /// Number of groups (1: no groups).
    pub count: u16,
    /// Whether the low bank bits pick the group (else the high ones).
    pub low_bits: bool,
}

impl BankGroups {
    /// The group of bank `bank`.
    fn group_of(&self, bank: u16) -> usize {
        if self.low_bits {
            (bank % self.count) as usize
        } else {
            (bank / self.per_group.max(1)) as usize
        }
    }
}

/// How an access splits into column commands, each holding the data bus for one burst
/// (`dram.request_bytes`: GPGPU-Sim's sectored L2 and DRAM atom).
#[derive(Clone, Copy, Debug)]
pub struct RequestBursts {
    /// Bytes per read request (0: one command per line).
    pub request_bytes: u64,
    /// Column commands per read request.
    pub cmds_per_request: u8,
    /// Bytes per command (a burst).
    pub burst_bytes: u64,
}

impl RequestBursts {
    /// Column commands for an access of `bytes` (one, a whole line's worth, without
    /// `request_bytes`). A read asks per sector, each sector a whole burst; a write-back is
    /// one request for the line (GPGPU-Sim writes an evicted line back whole, with its dirty
    /// mask), as many bursts as its bytes fill.
    pub fn commands(&self, bytes: u64, write: bool) -> u8 {
        if self.request_bytes == 0 {
            return 1;
        }
        let n = if write {
            bytes.div_ceil(self.burst_bytes)
        } else {
            bytes.div_ceil(self.request_bytes) * self.cmds_per_request as u64
        };
        n.clamp(1, 255) as u8
    }
}

impl DramTiming {
    pub fn new(cfg: &GpuConfig) -> DramTiming {
        let d = &cfg.dram;
        // Bytes per DRAM command cycle: bus width x chips per channel x transfers per cycle.
        let per_cycle = (d.bus_bytes * d.chips * d.data_rate).max(1) as u64;
        let burst_cycles = (d.burst / d.data_rate.max(1)).max(1) as u64;
        let burst_bytes = (d.burst * d.bus_bytes * d.chips).max(1) as u64;
        let request_bytes = d.request_bytes as u64;
        let groups = d.bank_groups.clamp(1, d.banks.max(1));
        DramTiming {
            ccdl: d.tCCDL as u64,
            rtpl: d.tRTPL as u64,
            wtr: d.tWTR as u64,
            rtw: d.tRTW as u64,
            wr: d.tWR as u64,
            groups: BankGroups {
                per_group: (d.banks.max(1) / groups) as u16,
                count: groups as u16,
                low_bits: d.bank_group_index == BankGroupIndex::Low,
            },
            bursts: RequestBursts {
                request_bytes,
                burst_bytes,
                cmds_per_request: if request_bytes == 0 {
                    1
                } else {
                    request_bytes.div_ceil(burst_bytes).min(255) as u8
                },
            },
            ccd: d.tCCD as u64,
            rrd: d.tRRD as u64,
            rcd: d.tRCD as u64,
            ras: d.tRAS as u64,
            rp: d.tRP as u64,
            rc: d.tRC as u64,
            cl: d.CL as u64,
            wl: d.WL as u64,
            line_cycles: if request_bytes == 0 {
                (cfg.l2.line as u64).div_ceil(per_cycle).max(burst_cycles)
            } else {
                burst_cycles
            },
            fcfs: d.scheduler == DramScheduler::Fcfs,
        }
    }
}

#[derive(Clone, Copy, Debug, Default)]
struct Bank {
    /// Open row (`NONE`: precharged).
    open: u32,
    /// Earliest column command (tRCD after ACT).
    col_ready: u64,
    /// Earliest precharge (tRAS after ACT, after the last burst).
    pre_ready: u64,
    /// Earliest activate (tRP after PRE, tRC after the last ACT).
    act_ready: u64,
    /// Its bank group ([`BankGroups::group_of`], tabled: the scheduler asks per bank per cycle,
    /// and the formula divides).
    group: u16,
}

/// A line request at the channel.
#[derive(Clone, Copy, Debug, Default)]
pub struct DramReq {
    pub addr: u64,
    pub bank: u16,
    pub row: u32,
    pub write: bool,
    /// The L2 slice to return a read's line to.
    pub slice: u16,
    /// Column commands still to issue ([`RequestBursts::commands`]).
    pub cmds: u8,
}

/// DRAM counters (summed over channels in the statistics).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize)]
pub struct DramCounts {
    pub reads: u64,
    pub writes: u64,
    /// Column commands to a row that was already open (no activate of their own).
    pub row_hits: u64,
    pub activates: u64,
    pub precharges: u64,
    /// DRAM cycles the data bus carried data.
    pub busy_cycles: u64,
    /// DRAM cycles simulated while the channel had work.
    pub active_cycles: u64,
}

impl DramCounts {
    pub fn add(&mut self, o: &DramCounts) {
        self.reads += o.reads;
        self.writes += o.writes;
        self.row_hits += o.row_hits;
        self.activates += o.activates;
        self.precharges += o.precharges;
        self.busy_cycles += o.busy_cycles;
        self.active_cycles += o.active_cycles;
    }
}

pub struct Channel {
    t: DramTiming,
    banks: Vec<Bank>,
    /// Waiting requests, by bank and kind, in arrival order ([`queue::BankQueues`]).
    queue: BankQueues,
    cap: usize,
    /// Requests the fixed-latency pipeline in front of the queue holds (one enters per cycle).
    pipe: usize,
    /// Requests on their way in: `(core cycle they reach the queue, request)`.
    incoming: VecDeque<(u64, DramReq)>,
    /// Reads in flight: `(DRAM cycle the last data beat arrives, addr, slice)`.
    returns: VecDeque<(u64, u64, u16)>,
    last_act: Option<u64>,
    last_col: Option<u64>,
    /// Banks with an open row (kept by activate and precharge): a row command never goes to
    /// an open bank whose row a request still wants, so the scheduler skips those without
    /// looking at them.
    open: BankSet,
    /// Per bank group: earliest next column command (`tCCDL`) and precharge (`tRTPL`).
    group_col: Vec<u64>,
    group_pre: Vec<u64>,
    /// Earliest read command (`tWTR` after a write) and write command (`tRTW` after a read).
    read_ok: u64,
    write_ok: u64,
    bus_free: u64,
    /// No command can issue before this DRAM cycle (a lower bound computed when a tick found
    /// nothing to do; reset when a request joins the queue), so ticks until then only move
    /// data.
    quiet_until: u64,
    /// Draining writes (see the module doc).
    draining: bool,
    pub counts: DramCounts,
}

/// What the scheduler does in a DRAM cycle.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Command {
    /// A read or write to the open row for the `i`th request of the bank's list.
    Column {
        bank: usize,
        i: usize,
    },
    Precharge {
        bank: usize,
    },
    Activate {
        bank: usize,
        row: u32,
    },
    /// Nothing can issue before this cycle (a lower bound).
    WaitUntil(u64),
}

/// The requests the scheduler may serve this cycle, per bank: all of a kind under FR-FCFS,
/// only the oldest of that kind under FCFS.
#[derive(Clone, Copy)]
struct Scope {
    write: bool,
    /// FCFS: the bank of the oldest request; each list is looked at through its first entry.
    only: Option<usize>,
}

impl Scope {
    fn banks(self, set: BankSet) -> impl Iterator<Item = usize> {
        set.iter()
            .filter(move |&b| self.only.is_none_or(|o| o == b))
    }

    fn limit(self, list: &[Queued]) -> &[Queued] {
        if self.only.is_some() {
            &list[..1]
        } else {
            list
        }
    }
}

impl Channel {
    pub fn new(t: DramTiming, banks: u32, queue: u32) -> Channel {
        let cap = queue.max(1) as usize;
        let banks = banks.max(1) as usize;
        Channel {
            t,
            banks: (0..banks)
                .map(|b| Bank {
                    open: NONE,
                    group: t.groups.group_of(b as u16) as u16,
                    ..Bank::default()
                })
                .collect(),
            queue: BankQueues::new(banks, cap),
            open: BankSet::default(),
            cap,
            pipe: 0,
            incoming: VecDeque::with_capacity(cap),
            returns: VecDeque::with_capacity(cap),
            last_act: None,
            last_col: None,
            group_col: vec![0; t.groups.count as usize],
            group_pre: vec![0; t.groups.count as usize],
            read_ok: 0,
            write_ok: 0,
            bus_free: 0,
            quiet_until: 0,
            draining: false,
            counts: DramCounts::default(),
        }
    }

    /// A new launch whose DRAM cycles restart at 0 after `shift` cycles: queued and in-flight
    /// requests are dropped, open rows stay, every ready time moves back, counters reset.
    pub fn begin_launch(&mut self, shift: u64) {
        self.queue.clear();
        self.incoming.clear();
        self.returns.clear();
        self.draining = false;
        for b in self.banks.iter_mut() {
            b.col_ready = b.col_ready.saturating_sub(shift);
            b.pre_ready = b.pre_ready.saturating_sub(shift);
            b.act_ready = b.act_ready.saturating_sub(shift);
        }
        self.last_act = self.last_act.and_then(|t| t.checked_sub(shift));
        self.last_col = self.last_col.and_then(|t| t.checked_sub(shift));
        self.bus_free = self.bus_free.saturating_sub(shift);
        for g in self.group_col.iter_mut().chain(self.group_pre.iter_mut()) {
            *g = g.saturating_sub(shift);
        }
        self.read_ok = self.read_ok.saturating_sub(shift);
        self.write_ok = self.write_ok.saturating_sub(shift);
        self.quiet_until = 0;
        self.counts = DramCounts::default();
    }

    /// A channel whose requests spend `latency` core cycles in a pipeline before the queue:
    /// that pipeline holds up to `latency` requests of its own, so they do not take the
    /// scheduler's queue entries while in flight.
    pub fn with_pipeline(mut self, latency: u32) -> Channel {
        self.pipe = latency as usize;
        self
    }

    /// Room for one more request (in the pipeline or the queue).
    pub fn can_accept(&self) -> bool {
        self.queue.len() + self.incoming.len() < self.cap + self.pipe
    }

    /// Accepts `r`, an access of `bytes`, which joins the scheduling queue at core cycle `at`.
    pub fn push(&mut self, at: u64, mut r: DramReq, bytes: u64) {
        r.cmds = self.t.bursts.commands(bytes, r.write);
        self.incoming.push_back((at, r));
    }

    pub fn busy(&self) -> bool {
        !(self.queue.is_empty() && self.incoming.is_empty() && self.returns.is_empty())
    }

    /// One DRAM cycle `t` during core cycle `core_now`: moves arrived requests into the
    /// queue, issues at most one command, and appends reads whose data has fully arrived to
    /// `done` as `(addr, slice)`.
    pub fn tick(&mut self, t: u64, core_now: u64, done: &mut Vec<(u64, u16)>) {
        self.admit(core_now);
        self.deliver(t, done);
        if let Some(scope) = self.schedules(t) {
            let cmd = self.decide(t, scope);
            self.apply(t, scope.write, cmd);
        }
    }

    /// Requests whose pipeline delay is over by core cycle `core_now` join the queue while
    /// it has room.
    fn admit(&mut self, core_now: u64) {
        while let Some(&(at, r)) = self.incoming.front() {
            if at > core_now || self.queue.len() >= self.cap {
                break;
            }
            self.incoming.pop_front();
            self.queue.push(r, self.banks[r.bank as usize].open);
            self.quiet_until = 0;
        }
    }

    /// Reads whose last data beat has arrived by DRAM cycle `t` go to `done`.
    fn deliver(&mut self, t: u64, done: &mut Vec<(u64, u16)>) {
        while let Some(&(at, addr, slice)) = self.returns.front() {
            if at > t {
                break;
            }
            self.returns.pop_front();
            done.push((addr, slice));
        }
    }

    /// Counts the cycle as active if there is work, and says which requests the scheduler
    /// considers at `t` (`None`: nothing queued, or nothing can issue before `quiet_until`).
    fn schedules(&mut self, t: u64) -> Option<Scope> {
        if self.queue.is_empty() {
            if !self.returns.is_empty() {
                self.counts.active_cycles += 1;
            }
            return None;
        }
        self.counts.active_cycles += 1;
        if t < self.quiet_until {
            return None;
        }
        Some(self.scope())
    }

    fn apply(&mut self, t: u64, write: bool, cmd: Command) {
        match cmd {
            Command::Column { bank, i } => self.column(t, write, bank, i),
            Command::Precharge { bank } => self.precharge(t, bank),
            Command::Activate { bank, row } => self.activate(t, bank, row),
            Command::WaitUntil(earliest) => self.quiet_until = earliest.max(t + 1),
        }
    }

    /// Which kind this cycle serves — writes while draining (or when only writes wait) — and
    /// which of them the scheduler may consider.
    fn scope(&mut self) -> Scope {
        let writes = self.queue.writes();
        if writes * 8 >= self.cap * WRITE_HIGH {
            self.draining = true;
        } else if writes * 8 <= self.cap * WRITE_LOW {
            self.draining = false;
        }
        let reads = self.queue.len() - writes;
        let write = if self.draining {
            writes > 0
        } else {
            reads == 0
        };
        Scope {
            write,
            only: if self.t.fcfs {
                self.queue.oldest(write)
            } else {
                None
            },
        }
    }

    /// The command for cycle `t`: the oldest row hit whose bank, group, bus and turnaround
    /// allow a column command; else a precharge or activate for the oldest request that
    /// needs one; else the earliest cycle anything could issue.
    fn decide(&self, t: u64, scope: Scope) -> Command {
        if let Some((bank, i)) = self.oldest_ready_hit(t, scope) {
            let write = scope.write;
            let data = t + if write { self.t.wl } else { self.t.cl };
            // Without this the data bus would still be carrying an earlier burst.
            if data >= self.bus_free {
                return Command::Column { bank, i };
            }
        }
        // The banks still wanted open are those with a row hit in scope: the queue keeps that
        // set, except under FCFS, where only each list's first request counts. The survey's
        // pass over the queue is needed for its earliest cycle only when nothing can issue.
        let wanted = match scope.only {
            None => self.queue.hitting(scope.write),
            Some(_) => self.survey(scope).0,
        };
        self.row_command(t, scope, wanted)
            .unwrap_or_else(|| Command::WaitUntil(self.earliest(t, scope)))
    }

    /// The survey's earliest cycle a command could issue, or `t + 1` when a row hit can take
    /// its column command then — found without the survey's pass over every bank in the
    /// usual case of a stream keeping the data bus busy (the caller waits until at least
    /// `t + 1` either way).
    fn earliest(&self, t: u64, scope: Scope) -> u64 {
        let next = t + 1;
        if scope.only.is_none() {
            let write = scope.write;
            let (ccd, bus, turn) = self.column_bounds(write);
            if ccd.max(bus).max(turn) <= next
                && self.queue.hitting(write).iter().any(|b| {
                    self.banks[b].col_ready <= next
                        && self.group_col[self.banks[b].group as usize] <= next
                })
            {
                return next;
            }
        }
        self.survey(scope).1
    }

    /// The oldest request in scope that hits its bank's open row and may take a column
    /// command at `t`: `(bank, index in its list)`.
    fn oldest_ready_hit(&self, t: u64, scope: Scope) -> Option<(usize, usize)> {
        let write = scope.write;
        if self.last_col.is_some_and(|c| t < c + self.t.ccd)
            || t + self.t.cl.max(self.t.wl) < self.bus_free
            || t < if write { self.write_ok } else { self.read_ok }
        {
            return None;
        }
        let mut best: Option<(u64, usize, usize)> = None;
        for b in scope.banks(self.queue.hitting(write)) {
            let bank = &self.banks[b];
            if bank.col_ready > t || self.group_col[bank.group as usize] > t {
                continue;
            }
            let list = scope.limit(self.queue.list(b, write));
            let first = self.queue.first_hit(b, write).filter(|&i| i < list.len());
            debug_assert_eq!(first, list.iter().position(|q| q.req.row == bank.open));
            let Some(i) = first else { continue };
            if best.is_none_or(|(seq, _, _)| list[i].seq < seq) {
                best = Some((list[i].seq, b, i));
            }
        }
        best.map(|(_, b, i)| (b, i))
    }

    /// The channel-wide earliest cycles a column command of kind `write` may issue: after the
    /// last column (tCCD), early enough that its data follows the bus's current burst, after
    /// the read/write turnaround.
    fn column_bounds(&self, write: bool) -> (u64, u64, u64) {
        let ccd = self.last_col.map_or(0, |c| c + self.t.ccd);
        let bus = self.bus_free.saturating_sub(self.t.cl.max(self.t.wl));
        let turn = if write { self.write_ok } else { self.read_ok };
        (ccd, bus, turn)
    }

    /// Over the requests in scope: the banks whose open row one of them hits (not to be
    /// closed), and a lower bound on the next cycle any of them can issue a command given
    /// the current bank and bus state.
    fn survey(&self, scope: Scope) -> (BankSet, u64) {
        let write = scope.write;
        let (ccd, bus, turn) = self.column_bounds(write);
        let rrd = self.last_act.map_or(0, |a| a + self.t.rrd);
        let (mut wanted, mut earliest) = (BankSet::default(), u64::MAX);
        for b in scope.banks(self.queue.pending(write)) {
            let bank = &self.banks[b];
            let list = self.queue.list(b, write);
            let (hit, miss) = if scope.only.is_some() {
                let hit = list[0].req.row == bank.open;
                (hit, !hit)
            } else {
                let hits = self.queue.hits(b, write);
                (hits > 0, list.len() > hits)
            };
            if hit {
                wanted.insert(b);
                let g = bank.group as usize;
                let at = bank
                    .col_ready
                    .max(ccd)
                    .max(bus)
                    .max(self.group_col[g])
                    .max(turn);
                earliest = earliest.min(at);
            }
            if miss {
                let at = if bank.open == NONE {
                    bank.act_ready.max(rrd)
                } else {
                    bank.pre_ready.max(self.group_pre[bank.group as usize])
                };
                earliest = earliest.min(at);
            }
        }
        (wanted, earliest)
    }

    /// A precharge or activate for the oldest request in scope whose row is not open, if
    /// its bank allows one at `t`. `wanted`: the banks whose open row a request in scope
    /// still wants (from [`Self::survey`]); they are not closed.
    fn row_command(&self, t: u64, scope: Scope, wanted: BankSet) -> Option<Command> {
        let write = scope.write;
        let rrd_ok = self.last_act.is_none_or(|a| t >= a + self.t.rrd);
        let mut best: Option<(u64, Command)> = None;
        let candidates = self.queue.pending(write).minus(wanted.and(self.open));
        for b in scope.banks(candidates) {
            let bank = &self.banks[b];
            debug_assert_eq!(self.open.contains(b), bank.open != NONE);
            let ready = if bank.open != NONE {
                t >= bank.pre_ready && t >= self.group_pre[bank.group as usize]
            } else {
                t >= bank.act_ready && rrd_ok
            };
            if !ready {
                continue;
            }
            let list = scope.limit(self.queue.list(b, write));
            let Some(q) = list.iter().find(|q| q.req.row != bank.open) else {
                continue;
            };
            if best.is_none_or(|(seq, _)| q.seq < seq) {
                let cmd = if bank.open == NONE {
                    Command::Activate {
                        bank: b,
                        row: q.req.row,
                    }
                } else {
                    Command::Precharge { bank: b }
                };
                best = Some((q.seq, cmd));
            }
        }
        best.map(|(_, c)| c)
    }

    /// Issues the column command of the `i`th request in `bank`'s list of kind `write`.
    fn column(&mut self, t: u64, write: bool, bank: usize, i: usize) {
        let data = t + if write { self.t.wl } else { self.t.cl };
        let end = data + self.t.line_cycles;
        self.bus_free = end;
        self.last_col = Some(t);
        self.counts.busy_cycles += self.t.line_cycles;
        let g = self.banks[bank].group as usize;
        self.group_col[g] = t + self.t.ccdl;
        if write {
            self.read_ok = self.read_ok.max(t + self.t.wtr);
        } else {
            self.write_ok = self.write_ok.max(t + self.t.rtw);
            self.group_pre[g] = self.group_pre[g].max(t + self.t.rtpl);
        }
        let b = &mut self.banks[bank];
        b.pre_ready = b.pre_ready.max(if write {
            end + self.t.wr
        } else {
            t + self.t.line_cycles
        });
        let open = b.open;
        let r = self.queue.get_mut(bank, write, i);
        if r.cmds > 1 {
            // More sectors to move: the request keeps its place (the oldest row hit).
            r.cmds -= 1;
            return;
        }
        let r = self.queue.remove(bank, write, i, open);
        if write {
            self.counts.writes += 1;
        } else {
            self.counts.reads += 1;
            self.returns.push_back((end, r.addr, r.slice));
        }
    }

    fn precharge(&mut self, t: u64, bank: usize) {
        let b = &mut self.banks[bank];
        b.open = NONE;
        self.open.remove(bank);
        b.act_ready = b.act_ready.max(t + self.t.rp);
        self.counts.precharges += 1;
        self.queue.reopened(bank, NONE);
    }

    fn activate(&mut self, t: u64, bank: usize, row: u32) {
        let b = &mut self.banks[bank];
        b.open = row;
        self.open.insert(bank);
        b.col_ready = t + self.t.rcd;
        b.pre_ready = t + self.t.ras;
        b.act_ready = t + self.t.rc;
        self.last_act = Some(t);
        self.counts.activates += 1;
        self.queue.reopened(bank, row);
    }

    /// Row hits: the requests (reads and writes) that needed no activate of their own.
    pub fn finish_counts(&mut self) {
        self.counts.row_hits =
            (self.counts.reads + self.counts.writes).saturating_sub(self.counts.activates);
    }
}

#[cfg(test)]
mod tests;
