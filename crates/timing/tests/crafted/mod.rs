//! A crafted SM for policy tests: resident CTAs, warp slots and counters set by hand, events
//! delivered through the same hooks the SM calls, in the same order (SM-wide state first),
//! the SM-wide timer fired as the SM fires it.
#![allow(dead_code)] // each test file uses what it needs

use warpsim_core::config::PolicyParams;
use warpsim_core::exec::warp::WarpState;
use warpsim_timing::classify::Unit;
use warpsim_timing::fetch_policy::FetchPolicy;
use warpsim_timing::ids::WarpSlot;
use warpsim_timing::policy::{
    Block, Build, BuildCtx, CtaSlots, Events, IssueOrders, IssuePolicy, Issued, PolicyView,
    SmState, WarpSlots,
};

/// The view of a [`Crafted`] SM, borrowing only the fields it shows (so the policies and
/// their shared state can be borrowed mutably beside it).
macro_rules! view {
    ($sm:expr) => {
        PolicyView {
            now: $sm.now,
            warps: &$sm.w,
            ctas: &$sm.c,
            warps_per_cta: $sm.wpc,
            ib_depth: 2,
            all_dispatched: $sm.all_dispatched,
            age_order: &$sm.age_order,
            slot_order: &$sm.slot_order,
        }
    };
}

/// An SM with `ctas` resident CTAs of `wpc` warps (CTA `c` has linear index `c`, warp slot
/// `s` has age `s`), `scheds` schedulers, and policy `P` on it.
pub struct Crafted<P: IssuePolicy> {
    pub w: WarpSlots,
    pub c: CtaSlots,
    pub wpc: usize,
    pub now: u64,
    /// The dispatcher has handed out the kernel's last CTA.
    pub all_dispatched: bool,
    age_order: Vec<Vec<u16>>,
    slot_order: Vec<Vec<u16>>,
    pub slots: Vec<Vec<u16>>,
    pub shared: P::Shared,
    pub policies: Vec<P>,
}

impl<P: IssuePolicy + Build> Crafted<P> {
    pub fn new(ctas: usize, wpc: usize, scheds: usize, params: &PolicyParams) -> Self {
        Self::with_ibuffers(ctas, wpc, scheds, params, 2, 2)
    }

    /// As [`Crafted::new`], with I-buffers `ib_depth` deep and fetches of `fetch_block`.
    pub fn with_ibuffers(
        ctas: usize,
        wpc: usize,
        scheds: usize,
        params: &PolicyParams,
        ib_depth: u8,
        fetch_block: u8,
    ) -> Self {
        let n = ctas * wpc;
        let mut w = WarpSlots::new(n, ib_depth, fetch_block);
        w.age = (0..n as u64).collect();
        w.block = vec![Block::Ready; n];
        w.wake = vec![0; n];
        for s in 0..n {
            w.set_occupied(WarpSlot::new(s), true);
            w.set_state(WarpSlot::new(s), WarpState::Ready);
            w.set_ib_n(WarpSlot::new(s), 2);
        }
        let mut c = CtaSlots::new(ctas);
        for k in 0..ctas {
            c.resident[k] = true;
            c.linear[k] = k as u64;
            c.warps[k] = wpc as u16;
        }
        let slots: Vec<Vec<u16>> = (0..scheds)
            .map(|k| {
                (0..n as u16)
                    .filter(|s| *s as usize % scheds == k)
                    .collect()
            })
            .collect();
        let base = BuildCtx {
            scheduler: 0,
            slots: &[],
            schedulers: scheds,
            warp_slots: n,
            cta_slots: ctas,
            warps_per_cta: wpc,
            params,
        };
        let policies = slots
            .iter()
            .enumerate()
            .map(|(k, sl)| {
                P::build(&BuildCtx {
                    scheduler: k,
                    slots: sl,
                    ..base
                })
            })
            .collect();
        let mut sm = Crafted {
            w,
            c,
            wpc,
            now: 1,
            all_dispatched: false,
            age_order: slots.clone(),
            slot_order: slots.clone(),
            slots,
            shared: P::Shared::build(&base),
            policies,
        };
        for k in 0..ctas {
            sm.notify(|p, v| p.on_cta_launch(k as u16, v));
        }
        sm
    }

    pub fn view(&self) -> PolicyView<'_> {
        view!(self)
    }

    /// Delivers an event to the SM-wide state, then to every scheduler's policy.
    pub fn notify(&mut self, f: impl Fn(&mut dyn Events, &PolicyView)) {
        let v = view!(self);
        f(&mut self.shared, &v);
        for p in self.policies.iter_mut() {
            f(p, &v);
        }
    }

    pub fn issue(&mut self, slot: u16) {
        let scheduler = (slot as usize % self.policies.len()) as u16;
        let e = Issued {
            slot,
            scheduler,
            pc: 0,
            unit: Unit::Sp,
            lanes: 32,
            shared: false,
        };
        self.notify(|p, v| p.on_issue(&e, v));
    }

    /// Warp `slot` issues `n` instructions of 32 lanes: its and its CTA's instruction and
    /// thread-instruction counters grow before each issue hook, as at the SM's issue.
    pub fn issue_n(&mut self, slot: u16, n: u64) {
        let c = slot as usize / self.wpc;
        for _ in 0..n {
            self.w.insts[slot as usize] += 1;
            self.c.insts[c] += 1;
            self.progress(slot, 32);
            self.issue(slot);
        }
    }

    /// The CTA in slot `c` exits (its warp slots free, then the exit hook).
    pub fn exit(&mut self, c: usize) {
        for s in c * self.wpc..(c + 1) * self.wpc {
            self.w.set_occupied(WarpSlot::new(s), false);
        }
        for o in self.age_order.iter_mut().chain(self.slot_order.iter_mut()) {
            o.retain(|&s| s as usize / self.wpc != c);
        }
        self.notify(|p, v| p.on_cta_exit(c as u16, v));
        self.c.resident[c] = false;
    }

    /// Every slot's valid I-buffer entries.
    pub fn set_ib(&mut self, n: &[u8]) {
        for (s, &k) in n.iter().enumerate() {
            self.w.set_ib_n(WarpSlot::new(s), k);
        }
    }

    pub fn arrive(&mut self, slot: u16) {
        let c = slot as usize / self.wpc;
        self.w.set_waiting(WarpSlot::from_raw(slot), true);
        self.w
            .set_state(WarpSlot::from_raw(slot), WarpState::AtBarrier { id: 0 });
        self.c.at_barrier[c] += 1;
        self.c.first_arrival[c].get_or_insert(self.now);
        self.notify(|p, v| p.on_barrier_arrive(slot, 7, v));
    }

    pub fn finish(&mut self, slot: u16) {
        let c = slot as usize / self.wpc;
        self.w.set_waiting(WarpSlot::from_raw(slot), true);
        self.w.set_state(WarpSlot::from_raw(slot), WarpState::Done);
        self.c.finished[c] += 1;
        self.notify(|p, v| p.on_warp_finished(slot, v));
    }

    pub fn release(&mut self, c: usize) {
        for s in c * self.wpc..(c + 1) * self.wpc {
            if matches!(self.w.state()[s], WarpState::AtBarrier { .. }) {
                self.w.set_waiting(WarpSlot::new(s), false);
                self.w.set_state(WarpSlot::new(s), WarpState::Ready);
            }
        }
        self.c.at_barrier[c] = 0;
        self.c.first_arrival[c] = None;
        self.notify(|p, v| p.on_barrier_release(c as u16, 7, v));
    }

    /// Scheduler `k`'s issue order now.
    pub fn order(&mut self, k: usize) -> Vec<u16> {
        self.sync();
        let mut out = Vec::new();
        let v = view!(self);
        self.policies[k].order(&self.shared, &self.slots[k], &v, &mut out);
        out
    }

    /// The warps of `order` the issue walk can pick (not waiting).
    pub fn runnable(&mut self, k: usize) -> Vec<u16> {
        let o = self.order(k);
        o.into_iter()
            .filter(|&s| !self.w.waiting()[s as usize])
            .collect()
    }

    /// The SM keeps `WarpSlots`' derived bit sets as it changes the fields; the tests write
    /// the fields directly, so bring the bits up to date before a policy reads them.
    fn sync(&mut self) {
        for s in 0..self.w.len() {
            self.w.refresh(WarpSlot::new(s));
        }
    }

    /// What fetch policy `f` picks now (`budget` warps).
    pub fn fetch(&mut self, f: &mut impl FetchPolicy, budget: usize) -> Vec<u16> {
        self.sync();
        let mut out = Vec::new();
        let v = view!(self);
        let mut orders = IssueOrders::new(&mut self.policies, &self.shared, &self.slots);
        f.pick(&v, &mut orders, budget, &mut out);
        out
    }

    /// Warp `slot` issued thread instructions worth `p` (its and its CTA's progress).
    pub fn progress(&mut self, slot: u16, p: u64) {
        self.w.thread_insts[slot as usize] += p;
        self.c.thread_insts[slot as usize / self.wpc] += p;
    }

    /// The SM reaches cycle `now`: the SM-wide timer fires when due, as `Sm::cycle` does.
    pub fn tick(&mut self, now: u64) {
        self.now = now;
        if now >= self.shared.wake_at() {
            let v = view!(self);
            self.shared.on_timer(&v);
        }
    }

    /// The dispatcher hands out the kernel's last CTA (to any SM).
    pub fn last_dispatched(&mut self) {
        self.all_dispatched = true;
        self.notify(|p, v| p.on_last_cta_dispatched(v));
    }

    /// Warp slot `s` gets age `ages[s]` (smaller is older); the schedulers' oldest-first
    /// lists follow.
    pub fn set_ages(&mut self, ages: &[u64]) {
        self.w.age = ages.to_vec();
        self.w.touch();
        for (k, sl) in self.slots.iter().enumerate() {
            let mut o = sl.clone();
            o.sort_by_key(|&s| ages[s as usize]);
            self.age_order[k] = o;
        }
    }

    /// The I-buffer head of each of `slots` is a load/store (the rest stay compute).
    pub fn next_is_memory(&mut self, slots: &[u16]) {
        for &s in slots {
            self.w.head_unit[s as usize] = Unit::Ldst;
        }
    }

    /// A memory instruction of warp `slot` completed.
    pub fn mem_complete(&mut self, slot: u16) {
        self.notify(|p, v| p.on_mem_complete(slot, v));
    }

    /// A new CTA (linear index `linear`) becomes resident in CTA slot `c`; its warps are the
    /// youngest.
    pub fn launch_cta(&mut self, c: usize, linear: u64) {
        let young = self.w.age.iter().max().map_or(0, |a| a + 1);
        let n = self.policies.len();
        for (i, s) in (c * self.wpc..(c + 1) * self.wpc).enumerate() {
            self.w.set_occupied(WarpSlot::new(s), true);
            self.w.age[s] = young + i as u64;
            self.w.set_state(WarpSlot::new(s), WarpState::Ready);
            self.w.set_waiting(WarpSlot::new(s), false);
            self.age_order[s % n].push(s as u16);
            let o = &mut self.slot_order[s % n];
            let at = o.partition_point(|&x| (x as usize) < s);
            o.insert(at, s as u16);
        }
        self.c.resident[c] = true;
        self.c.linear[c] = linear;
        self.c.finished[c] = 0;
        self.c.at_barrier[c] = 0;
        self.notify(|p, v| p.on_cta_launch(c as u16, v));
    }
}
