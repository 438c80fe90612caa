//! One direction of an input-queued crossbar (`icnt.head_of_line = true`): GPGPU-Sim's
//! interconnect as its configs set it up (BookSim's single router with one virtual channel,
//! or its local crossbar). Every input port has one FIFO; each cycle the packet at the head of
//! an idle input crosses if its output port is idle too, holding both ports for its flits, and
//! arrives `latency` cycles after its last flit has crossed. A head whose output is busy blocks
//! everything queued behind it at its input, even packets for idle outputs (head-of-line
//! blocking): sources sending bursts to the same few outputs leave the others idle, which caps a
//! streaming kernel's bandwidth well below the ports' rate of one flit per cycle.
//!
//! Inputs are visited in an order that rotates by one every cycle something waits, so no input
//! is favoured for long; the order depends only on what was sent when, so the schedule is
//! deterministic.
//!
//! The per-cycle cost is one visit per input with a queued packet (a bit set finds them).

use std::collections::VecDeque;

/// A packet waiting at an input.
struct Packet<T> {
    output: u32,
    flits: u32,
    payload: T,
}

pub struct Xbar<T> {
    latency: u64,
    /// Flits an input's FIFO holds (`u64::MAX`: unbounded).
    capacity: u64,
    fifo: Vec<VecDeque<Packet<T>>>,
    /// Flits waiting in each input's FIFO.
    queued: Vec<u64>,
    /// First cycle each input and output port is free again.
    input_free: Vec<u64>,
    output_free: Vec<u64>,
    /// Inputs with a packet waiting, one bit each.
    waiting: Vec<u64>,
    waiting_count: usize,
    /// Where this cycle's visit of the inputs starts.
    start: usize,
}

impl<T> Xbar<T> {
    /// A crossbar from `inputs` to `outputs` ports; `capacity`: flits an input's FIFO holds
    /// (`None`: unbounded).
    pub fn new(inputs: usize, outputs: usize, latency: u32, capacity: Option<u32>) -> Xbar<T> {
        let capacity = capacity.map_or(u64::MAX, |c| c.max(1) as u64);
        let prealloc = capacity.min(256) as usize;
        Xbar {
            latency: latency as u64,
            capacity,
            fifo: (0..inputs)
                .map(|_| VecDeque::with_capacity(prealloc))
                .collect(),
            queued: vec![0; inputs],
            input_free: vec![0; inputs],
            output_free: vec![0; outputs],
            waiting: vec![0; inputs.div_ceil(64)],
            waiting_count: 0,
            start: 0,
        }
    }

    /// Input `input` has room for a packet of `flits` (a packet larger than the whole FIFO
    /// still goes, alone).
    #[inline]
    pub fn has_room(&self, input: usize, flits: u64) -> bool {
        self.has_room_after(input, 0, flits)
    }

    /// [`Self::has_room`] once `pending` more flits are queued at `input` (an SM's sends of
    /// this cycle, pushed at its end: `mem/port.rs`).
    #[inline]
    pub fn has_room_after(&self, input: usize, pending: u64, flits: u64) -> bool {
        let q = self.queued[input] + pending;
        q == 0 || q.saturating_add(flits) <= self.capacity
    }

    /// Queues a packet of `flits` at `input` for `output` (check [`Xbar::has_room`] first
    /// where the sender can wait).
    pub fn push(&mut self, input: usize, output: usize, flits: u64, payload: T) {
        if self.fifo[input].is_empty() {
            self.waiting[input / 64] |= 1 << (input % 64);
            self.waiting_count += 1;
        }
        self.queued[input] += flits;
        self.fifo[input].push_back(Packet {
            output: output as u32,
            flits: flits as u32,
            payload,
        });
    }

    /// Nothing is queued.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.waiting_count == 0
    }

    /// One cycle of arbitration at `now`: every packet that crosses is handed to `arrive` with
    /// the cycle it arrives at its output.
    pub fn cycle(&mut self, now: u64, arrive: impl FnMut(u64, usize, T)) {
        self.cycle_gated(now, |_| true, arrive);
    }

    /// [`Xbar::cycle`] where a packet crosses to output `o` only while `open(o)`: a head for a
    /// destination that takes nothing (GPGPU-Sim's memory sub-partition whose queue from the
    /// interconnect is full) waits at its input, blocking what is behind it.
    pub fn cycle_gated(
        &mut self,
        now: u64,
        open: impl Fn(usize) -> bool,
        mut arrive: impl FnMut(u64, usize, T),
    ) {
        let n = self.fifo.len();
        if self.waiting_count == 0 || n == 0 {
            return;
        }
        let start = self.start;
        self.start = if start + 1 == n { 0 } else { start + 1 };
        // Inputs from `start` up, then from 0 up to `start`.
        for (lo, hi) in [(start, n), (0, start)] {
            let mut word = lo / 64;
            while word * 64 < hi {
                let mut bits = self.waiting[word];
                // Keep the bits in [lo, hi) of this word.
                let base = word * 64;
                if lo > base {
                    bits &= !0u64 << (lo - base);
                }
                if hi < base + 64 {
                    bits &= (1u64 << (hi - base)) - 1;
                }
                while bits != 0 {
                    let input = base + bits.trailing_zeros() as usize;
                    bits &= bits - 1;
                    self.try_cross(input, now, &open, &mut arrive);
                }
                word += 1;
            }
        }
    }

    fn try_cross(
        &mut self,
        input: usize,
        now: u64,
        open: &impl Fn(usize) -> bool,
        arrive: &mut impl FnMut(u64, usize, T),
    ) {
        if self.input_free[input] > now {
            return;
        }
        let Some(head) = self.fifo[input].front() else {
            return;
        };
        let output = head.output as usize;
        if self.output_free[output] > now || !open(output) {
            return; // blocked at the head: so is everything behind it
        }
        let flits = head.flits as u64;
        let done = now + flits;
        self.input_free[input] = done;
        self.output_free[output] = done;
        self.queued[input] -= flits;
        let p = self.fifo[input].pop_front().expect("head checked");
        if self.fifo[input].is_empty() {
            self.waiting[input / 64] &= !(1 << (input % 64));
            self.waiting_count -= 1;
        }
        arrive(done + self.latency, output, p.payload);
    }

    /// Drops everything queued and moves the ports' free times back by `shift` cycles (a new
    /// launch counting from cycle 0).
    pub fn rebase(&mut self, shift: u64) {
        for q in self.fifo.iter_mut() {
            q.clear();
        }
        self.queued.iter_mut().for_each(|q| *q = 0);
        self.waiting.iter_mut().for_each(|w| *w = 0);
        self.waiting_count = 0;
        for t in self
            .input_free
            .iter_mut()
            .chain(self.output_free.iter_mut())
        {
            *t = t.saturating_sub(shift);
        }
        self.start = 0;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(x: &mut Xbar<u32>, from: u64, to: u64) -> Vec<(u64, usize, u32)> {
        let mut out = Vec::new();
        for now in from..to {
            x.cycle(now, |at, o, p| out.push((at, o, p)));
        }
        out
    }

    #[test]
    fn a_lone_packet_crosses_at_once_and_arrives_after_its_flits_and_the_latency() {
        let mut x = Xbar::new(2, 2, 8, None);
        x.push(0, 1, 4, 7);
        assert_eq!(run(&mut x, 100, 101), vec![(100 + 4 + 8, 1, 7)]);
        assert!(x.is_empty());
    }

    #[test]
    fn a_head_for_a_closed_output_waits_and_blocks_its_input() {
        let mut x = Xbar::new(2, 2, 0, None);
        x.push(0, 0, 1, 1); // output 0 takes nothing before cycle 5
        x.push(0, 1, 1, 2); // behind it, for an open output
        x.push(1, 1, 1, 3);
        let mut got = Vec::new();
        for now in 0..10 {
            x.cycle_gated(now, |o| o == 1 || now >= 5, |at, o, p| got.push((at, o, p)));
        }
        assert_eq!(got, vec![(1, 1, 3), (6, 0, 1), (7, 1, 2)]);
    }

    #[test]
    fn a_packet_for_a_busy_output_blocks_the_ones_behind_it() {
        let mut x = Xbar::new(2, 2, 8, None);
        x.push(0, 0, 4, 1); // input 0 keeps output 0 busy 100..104
        x.push(1, 0, 4, 2); // input 1's head wants output 0 too
        x.push(1, 1, 1, 3); // output 1 is idle, but this packet is behind the blocked one
        let got = run(&mut x, 100, 120);
        // Input 0 goes first at cycle 100 (the visit starts at input 0 there).
        assert_eq!(got[0], (112, 0, 1));
        // Input 1's head crosses when output 0 frees, at 104; the packet behind it at 108.
        assert_eq!(got[1], (104 + 4 + 8, 0, 2));
        assert_eq!(got[2], (108 + 1 + 8, 1, 3));
    }

    #[test]
    fn the_visit_order_rotates_so_contending_inputs_take_turns() {
        let mut x = Xbar::new(2, 1, 0, None);
        for i in 0..4 {
            x.push(0, 0, 1, 10 + i);
            x.push(1, 0, 1, 20 + i);
        }
        let got: Vec<u32> = run(&mut x, 0, 8).into_iter().map(|(_, _, p)| p).collect();
        assert_eq!(got, vec![10, 20, 11, 21, 12, 22, 13, 23]);
    }

    #[test]
    fn an_input_holds_its_capacity_in_flits() {
        let mut x: Xbar<u32> = Xbar::new(1, 1, 0, Some(9));
        assert!(x.has_room(0, 4));
        x.push(0, 0, 4, 0);
        x.push(0, 0, 4, 1);
        assert!(!x.has_room(0, 4) && x.has_room(0, 1));
        x.cycle(0, |_, _, _| {}); // the first packet crosses: its flits leave the FIFO
        assert!(x.has_room(0, 4));
        // A packet larger than the FIFO goes when the FIFO is empty.
        let y: Xbar<u32> = Xbar::new(1, 1, 0, Some(2));
        assert!(y.has_room(0, 5));
    }

    #[test]
    fn inputs_beyond_one_word_of_the_bit_set_are_served() {
        let mut x = Xbar::new(130, 3, 0, None);
        x.push(129, 2, 1, 5);
        x.push(64, 1, 1, 6);
        let mut got = run(&mut x, 0, 1);
        got.sort();
        assert_eq!(got, vec![(1, 1, 6), (1, 2, 5)]);
    }
}
