//! Each SM's side of the memory system, the part an SM's cycle may change.
//!
//! During the SMs' part of a cycle the memory system is read-only (its own cycle ran first),
//! except for each SM's [`SmPort`]: the replies waiting for that SM, and the requests it
//! sends, held in its outbox until the cycle's end. [`MemSystem::take_ports`] lends each SM its
//! port beside a shared, read-only view of the rest ([`SmNet`]), so the SMs may step on
//! several threads;
//! [`MemSystem::commit_sends`] then queues every outbox, SM by SM in SM order, as the SMs'
//! sends were queued when one thread stepped them in that order.
//!
//! Equivalence: with the input-queued interconnect (`icnt.head_of_line`, every preset) what an
//! SM checks before sending is its own input buffer (counting its outbox) and the slices'
//! inputs, which only the memory system's cycle fills; so staging changes nothing. With the
//! output-reserved interconnect (`head_of_line = false`) a slice's input limit no longer counts
//! other SMs' sends of the same cycle.

use super::{MemSystem, Req};
use std::cmp::Reverse;
use std::collections::BinaryHeap;

/// One SM's side of the interconnect.
#[derive(Default)]
pub struct SmPort {
    /// Replies on their way to the SM: `(arrival cycle, sequence, reply)`.
    arriving: BinaryHeap<Reverse<(u64, u64, Req)>>,
    /// Requests sent this cycle, in order.
    outbox: Vec<Req>,
    /// Flits of `outbox` (with the input-queued interconnect: the input buffer counts them).
    pending_flits: u64,
}

impl SmPort {
    pub(super) fn arrive(&mut self, at: u64, seq: u64, r: Req) {
        self.arriving.push(Reverse((at, seq, r)));
    }

    /// Earliest cycle a reply reaches the SM (`u64::MAX`: none in flight).
    pub fn next_reply(&self) -> u64 {
        self.arriving
            .peek()
            .map_or(u64::MAX, |Reverse((t, _, _))| *t)
    }

    pub(super) fn is_empty(&self) -> bool {
        self.arriving.is_empty() && self.outbox.is_empty()
    }

    pub(super) fn clear(&mut self) {
        self.arriving.clear();
        self.outbox.clear();
        self.pending_flits = 0;
    }
}

/// What an SM's cycle sees of the memory system: its port, and the rest read-only.
pub struct SmNet<'m> {
    sys: &'m MemSystem,
    port: &'m mut SmPort,
}

impl MemSystem {
    /// Lends out the SMs' ports for the SMs' part of a cycle ([`SmNet::new`] pairs each with
    /// the read-only rest); [`MemSystem::commit_sends`] takes them back.
    pub fn take_ports(&mut self) -> Vec<SmPort> {
        std::mem::take(&mut self.ports)
    }

    /// Takes back ports through which nothing was sent.
    pub fn return_ports(&mut self, ports: Vec<SmPort>) {
        debug_assert!(ports.iter().all(|p| p.outbox.is_empty()));
        self.ports = ports;
    }

    /// Takes the ports back and queues what each SM sent at `now`, SM by SM in SM order.
    pub fn commit_sends(&mut self, ports: Vec<SmPort>, now: u64) {
        self.ports = ports;
        for i in 0..self.ports.len() {
            if self.ports[i].outbox.is_empty() {
                continue;
            }
            let mut outbox = std::mem::take(&mut self.ports[i].outbox);
            for r in outbox.drain(..) {
                self.send(now, r);
            }
            self.ports[i].outbox = outbox; // its capacity kept for the next cycle
            self.ports[i].pending_flits = 0;
        }
    }
}

impl<'m> SmNet<'m> {
    /// SM `port`'s view of `sys` (whose ports are lent out: [`MemSystem::take_ports`]).
    pub fn new(sys: &'m MemSystem, port: &'m mut SmPort) -> SmNet<'m> {
        SmNet { sys, port }
    }
}

impl SmNet<'_> {
    /// SM `sm` can send `r` at `now`: its port has room (and, without the input-queued
    /// interconnect, the slice).
    #[inline]
    pub fn can_send(&self, sm: usize, r: &Req, now: u64) -> bool {
        let m = self.sys;
        match &m.queued {
            // A full slice holds its packets in the network (`MemSystem::cycle`), which fills
            // this SM's injection buffer in turn.
            Some(q) => q.requests.has_room_after(
                sm,
                self.port.pending_flits,
                m.packets.request(&m.icnt, r).0,
            ),
            // A send reserves the injection port past `now` (`Icnt::to_slice`).
            None => {
                m.slices[m.map.slice(r.addr)].input.len() < m.slice_cap
                    && self.port.outbox.is_empty()
                    && m.icnt.sm_can_send(sm, now)
            }
        }
    }

    /// Sends `r` from its SM at `now` (check [`SmNet::can_send`] first): queued at the
    /// cycle's end.
    pub fn send(&mut self, _now: u64, r: Req) {
        let m = self.sys;
        if m.queued.is_some() {
            self.port.pending_flits += m.packets.request(&m.icnt, &r).0;
        }
        self.port.outbox.push(r);
    }

    /// The next reply for this SM that has arrived by `now`.
    #[inline]
    pub fn pop_reply(&mut self, _sm: usize, now: u64) -> Option<Req> {
        let h = &mut self.port.arriving;
        match h.peek() {
            Some(Reverse((t, _, _))) if *t <= now => h.pop().map(|Reverse((_, _, r))| r),
            _ => None,
        }
    }

    /// Requests sent from the SMs so far, this SM's of this cycle included.
    pub fn requests(&self) -> u64 {
        self.sys.requests + self.port.outbox.len() as u64
    }

    /// Earliest cycle a reply reaches this SM (`u64::MAX`: none in flight).
    pub fn next_reply(&self, _sm: usize) -> u64 {
        self.port.next_reply()
    }
}
