//! One direction of GPGPU-Sim's BookSim interconnect as its configs set it up (`icnt.router`):
//! a single input-queued router (`topology = fly`, `n = 1`) with one virtual channel per port,
//! iSLIP allocators, no routing delay, one-step VC and switch allocation and `internal_speedup`
//! router steps per interconnect cycle (`iq_router.cpp`, `_InternalStep`).
//!
//! What sets its throughput, step by step:
//! - A source injects one flit a cycle into its input's buffer (`vc_buffer_flits` of room).
//! - The head flit of an input's front packet asks for its output's one VC; the VC is free when
//!   no packet holds it. Of the inputs asking for a free VC in a step, the output grants the
//!   first at or after its round-robin pointer, which then moves past the winner (iSLIP with
//!   one request per input: every grant is accepted).
//! - From the next step on, the input switches one flit a step, as soon as it has arrived and
//!   the output has a credit, into the output's buffer. Switching the tail frees the VC: the
//!   next packet for that output, and the input's next head, ask for VCs from the step after.
//!   So a one-flit packet holds its output two steps, one interconnect cycle at the presets'
//!   speedup of 2, and a packet whose flits are already buffered crosses at two flits a cycle.
//! - The output buffer sends one flit a cycle on the link; a flit switched in step `s` can
//!   leave at the end of the cycle holding step `s + 1` (the crossbar step). A packet arrives
//!   `latency` cycles after its tail leaves. Credits (`vc_buffer_flits` per output) come back
//!   [`CREDIT_CYCLES`] after a flit leaves: the destinations here take every flit at once.
//!
//! Unloaded, a packet of `f` flits queued before cycle `t` arrives at `t + f + latency`, as on
//! [`super::xbar::Xbar`]; under load the two differ. Measured on BookSim built from GPGPU-Sim's
//! `intersim2` (the test below gives the numbers and how): with 27 ports and uniform traffic,
//! one-flit packets saturate at the head-of-line limit on both models (0.595 flits per port and
//! cycle), but four-flit packets reach 0.90 here against 0.595 on the whole-packet crossbar,
//! and a speedup of 3 lifts one-flit packets to 0.89.
//!
//! The per-cycle cost is a visit per input with flits queued and per output with flits
//! buffered, for each step; bit sets find them, and nothing allocates once the queues have
//! grown to their working size.

use std::collections::VecDeque;

/// Cycles from a flit leaving its output to its credit being back there: BookSim's link to the
/// destination node and the credit link back, one cycle each.
pub const CREDIT_CYCLES: u64 = 2;

const NONE: u32 = u32::MAX;

/// What a source queued: `parts` packets of `flits / parts` flits each, back to back to one
/// output (a reply split into sectors, each with its own header), delivered together when the
/// last one's tail leaves.
struct Packet<T> {
    output: u32,
    flits: u32,
    parts: u32,
    payload: T,
}

/// What an input's front packet waits for.
#[derive(Clone, Copy)]
enum Stage {
    /// The output's VC, from step `from` on.
    Vc { from: u64 },
    /// Switching its next flit, from step `from` on.
    Switch { from: u64 },
}

struct Input<T> {
    packets: VecDeque<Packet<T>>,
    /// Flits queued here and not yet switched (in the source's queue or the router's buffer).
    queued: u64,
    /// Of those, flits injected into the router's buffer.
    in_router: u32,
    /// Flits of the front packet already switched.
    sent: u32,
    stage: Stage,
}

/// A flit in an output buffer: it may leave once step `ready` has run; the tail carries the
/// packet.
struct OutFlit<T> {
    ready: u64,
    payload: Option<T>,
}

struct Output<T> {
    /// The input whose packet holds the VC (`NONE`: free).
    owner: u32,
    /// First step in which the VC may be allocated again.
    free_from: u64,
    /// Round-robin pointer: the first input to be considered next.
    pointer: u32,
    credits: u32,
    buffer: VecDeque<OutFlit<T>>,
}

pub struct Router<T> {
    latency: u64,
    /// Flits an input's source queue holds before they enter its VC buffer (`u64::MAX`:
    /// unbounded).
    capacity: u64,
    vc_buffer: u32,
    speedup: f64,
    /// Fraction of a step carried to the next cycle.
    partial: f64,
    /// Steps run so far (each step's number).
    step: u64,
    inputs: Vec<Input<T>>,
    outputs: Vec<Output<T>>,
    /// Inputs with flits queued / outputs with flits buffered, one bit each.
    busy_inputs: Vec<u64>,
    busy_outputs: Vec<u64>,
    /// Credits on their way back: (cycle, output), in cycle order.
    credits: VecDeque<(u64, u32)>,
    /// Per output, this step's VC request nearest its pointer: (distance, input).
    asks: Vec<(u32, u32)>,
    asked: Vec<u32>,
}

fn set(bits: &mut [u64], i: usize) {
    bits[i / 64] |= 1 << (i % 64);
}

fn clear(bits: &mut [u64], i: usize) {
    bits[i / 64] &= !(1 << (i % 64));
}

/// Calls `f` with every set bit's index, in increasing order (bits set by `f` for later
/// indices of the same word are not seen).
fn each(bits: &[u64], mut f: impl FnMut(usize)) {
    for (w, &word) in bits.iter().enumerate() {
        let mut b = word;
        while b != 0 {
            f(w * 64 + b.trailing_zeros() as usize);
            b &= b - 1;
        }
    }
}

impl<T> Router<T> {
    /// A router from `inputs` to `outputs` ports; `capacity`: flits an input's source queue
    /// holds, besides its VC buffer (`None`: unbounded); `vc_buffer`: flits of each port's VC buffer; `speedup`: router steps per
    /// cycle.
    pub fn new(
        inputs: usize,
        outputs: usize,
        latency: u32,
        capacity: Option<u32>,
        vc_buffer: u32,
        speedup: f64,
    ) -> Router<T> {
        let vc_buffer = vc_buffer.max(1);
        Router {
            latency: latency as u64,
            capacity: capacity.map_or(u64::MAX, |c| c.max(1) as u64),
            vc_buffer,
            speedup,
            partial: 0.0,
            step: 0,
            inputs: (0..inputs)
                .map(|_| Input {
                    packets: VecDeque::with_capacity(64),
                    queued: 0,
                    in_router: 0,
                    sent: 0,
                    stage: Stage::Vc { from: 0 },
                })
                .collect(),
            outputs: (0..outputs)
                .map(|_| Output {
                    owner: NONE,
                    free_from: 0,
                    pointer: 0,
                    credits: vc_buffer,
                    buffer: VecDeque::with_capacity(vc_buffer as usize),
                })
                .collect(),
            busy_inputs: vec![0; inputs.div_ceil(64)],
            busy_outputs: vec![0; outputs.div_ceil(64)],
            credits: VecDeque::with_capacity(256),
            asks: vec![(u32::MAX, NONE); outputs],
            asked: Vec::with_capacity(outputs),
        }
    }

    /// Input `input` has room for a packet of `flits` (a packet larger than the whole queue
    /// still goes, alone).
    #[inline]
    pub fn has_room(&self, input: usize, flits: u64) -> bool {
        self.has_room_after(input, 0, flits)
    }

    /// [`Self::has_room`] once `pending` more flits are queued at `input` (an SM's sends of
    /// this cycle, pushed at its end: `mem/port.rs`). The room is the source's queue's
    /// (BookSim's `input_buffer_size`, GPGPU-Sim's `icnt_has_buffer`), not counting the flits
    /// already injected into the router's VC buffer: under load that queue drains one flit a
    /// cycle, so a source sees at most one flit of room open a cycle.
    #[inline]
    pub fn has_room_after(&self, input: usize, pending: u64, flits: u64) -> bool {
        let inp = &self.inputs[input];
        let q = inp.queued - inp.in_router as u64 + pending;
        q == 0 || q.saturating_add(flits) <= self.capacity
    }

    /// Queues `parts` packets of `flits / parts` flits each at `input` for `output`, delivered
    /// as one `payload` when the last arrives.
    pub fn push(&mut self, input: usize, output: usize, flits: u64, parts: u32, payload: T) {
        let flits = flits.max(1) as u32;
        let parts = parts.clamp(1, flits);
        debug_assert!(
            flits.is_multiple_of(parts),
            "{flits} flits in {parts} packets"
        );
        let inp = &mut self.inputs[input];
        inp.queued += flits as u64;
        inp.packets.push_back(Packet {
            output: output as u32,
            flits,
            parts,
            payload,
        });
        set(&mut self.busy_inputs, input);
    }

    /// Nothing is queued or buffered.
    pub fn is_empty(&self) -> bool {
        self.busy_inputs.iter().all(|&w| w == 0) && self.busy_outputs.iter().all(|&w| w == 0)
    }

    /// One interconnect cycle at `now`: every packet whose tail leaves its output is handed to
    /// `arrive` with the cycle it arrives.
    pub fn cycle(&mut self, now: u64, arrive: impl FnMut(u64, usize, T)) {
        self.cycle_gated(now, |_| true, arrive);
    }

    /// [`Router::cycle`] where output `o` sends on its link only while `open(o)`: a destination
    /// that takes nothing (GPGPU-Sim's memory sub-partition whose queue from the interconnect
    /// is full) leaves the flits in the output's buffer, so its credits stop and the inputs
    /// feeding it fill up. `open` may change only when one of the output's packets arrives.
    pub fn cycle_gated(
        &mut self,
        now: u64,
        open: impl Fn(usize) -> bool,
        mut arrive: impl FnMut(u64, usize, T),
    ) {
        while let Some(&(at, o)) = self.credits.front() {
            if at > now {
                break;
            }
            self.outputs[o as usize].credits += 1;
            self.credits.pop_front();
        }
        if self.is_empty() {
            self.partial = 0.0;
            return;
        }
        // Sources inject a flit each.
        let vc_buffer = self.vc_buffer;
        let inputs = &mut self.inputs;
        each(&self.busy_inputs, |i| {
            let inp = &mut inputs[i];
            if (inp.in_router as u64) < inp.queued && inp.in_router < vc_buffer {
                inp.in_router += 1;
            }
        });
        self.partial += self.speedup;
        while self.partial >= 1.0 {
            self.partial -= 1.0;
            let s = self.step;
            self.step += 1;
            self.switch(s);
            self.allocate(s);
        }
        // Each output sends a flit on its link.
        let last = self.step; // steps before this one have run
        let latency = self.latency;
        for w in 0..self.busy_outputs.len() {
            let mut b = self.busy_outputs[w];
            while b != 0 {
                let o = w * 64 + b.trailing_zeros() as usize;
                b &= b - 1;
                let out = &mut self.outputs[o];
                match out.buffer.front() {
                    Some(f) if f.ready < last && open(o) => {}
                    _ => continue,
                }
                let f = out.buffer.pop_front().expect("front checked");
                if out.buffer.is_empty() {
                    self.busy_outputs[w] &= !(1 << (o % 64));
                }
                self.credits.push_back((now + CREDIT_CYCLES, o as u32));
                if let Some(p) = f.payload {
                    arrive(now + latency, o, p);
                }
            }
        }
    }

    /// Step `s`'s switch allocation: every input holding a VC switches one flit.
    fn switch(&mut self, s: u64) {
        let (inputs, outputs) = (&mut self.inputs, &mut self.outputs);
        let (busy_inputs, busy_outputs) = (&mut self.busy_inputs, &mut self.busy_outputs);
        for w in 0..busy_inputs.len() {
            let mut b = busy_inputs[w];
            while b != 0 {
                let i = w * 64 + b.trailing_zeros() as usize;
                b &= b - 1;
                let inp = &mut inputs[i];
                let Stage::Switch { from } = inp.stage else {
                    continue;
                };
                let Some(front) = inp.packets.front() else {
                    continue;
                };
                let o = front.output as usize;
                let out = &mut outputs[o];
                if from > s || inp.in_router == 0 || out.credits == 0 {
                    continue;
                }
                out.credits -= 1;
                inp.in_router -= 1;
                inp.queued -= 1;
                inp.sent += 1;
                set(busy_outputs, o);
                if inp.sent < front.flits {
                    out.buffer.push_back(OutFlit {
                        ready: s + 1,
                        payload: None,
                    });
                    if inp.sent.is_multiple_of(front.flits / front.parts) {
                        // A part's tail: the next part asks for the VC again.
                        out.owner = NONE;
                        out.free_from = s + 1;
                        inp.stage = Stage::Vc { from: s + 1 };
                    } else {
                        inp.stage = Stage::Switch { from: s + 1 };
                    }
                    continue;
                }
                // The tail: the packet has crossed and its VC is free from the next step.
                let p = inp.packets.pop_front().expect("front checked");
                out.buffer.push_back(OutFlit {
                    ready: s + 1,
                    payload: Some(p.payload),
                });
                out.owner = NONE;
                out.free_from = s + 1;
                inp.sent = 0;
                inp.stage = Stage::Vc { from: s + 1 };
                if inp.packets.is_empty() {
                    clear(busy_inputs, i);
                }
            }
        }
    }

    /// Step `s`'s VC allocation: each free output VC goes to the asking input nearest its
    /// round-robin pointer.
    fn allocate(&mut self, s: u64) {
        let n = self.inputs.len() as u32;
        let (inputs, outputs) = (&self.inputs, &self.outputs);
        let (asks, asked) = (&mut self.asks, &mut self.asked);
        each(&self.busy_inputs, |i| {
            let inp = &inputs[i];
            let Stage::Vc { from } = inp.stage else {
                return;
            };
            let Some(front) = inp.packets.front() else {
                return;
            };
            let o = front.output as usize;
            let out = &outputs[o];
            if from > s || inp.in_router == 0 || out.owner != NONE || out.free_from > s {
                return;
            }
            let distance = (i as u32 + n - out.pointer) % n;
            if asks[o].1 == NONE {
                asked.push(o as u32);
            }
            if distance < asks[o].0 {
                asks[o] = (distance, i as u32);
            }
        });
        for &o in self.asked.iter() {
            let (_, i) = std::mem::replace(&mut self.asks[o as usize], (u32::MAX, NONE));
            let out = &mut self.outputs[o as usize];
            out.owner = i;
            out.pointer = (i + 1) % n;
            self.inputs[i as usize].stage = Stage::Switch { from: s + 1 };
        }
        self.asked.clear();
    }

    /// Drops everything queued or buffered and starts the step count again (a new launch
    /// counting from cycle 0).
    pub fn rebase(&mut self) {
        for inp in self.inputs.iter_mut() {
            inp.packets.clear();
            inp.queued = 0;
            inp.in_router = 0;
            inp.sent = 0;
            inp.stage = Stage::Vc { from: 0 };
        }
        for out in self.outputs.iter_mut() {
            out.owner = NONE;
            out.free_from = 0;
            out.credits = self.vc_buffer;
            out.buffer.clear();
        }
        self.busy_inputs.iter_mut().for_each(|w| *w = 0);
        self.busy_outputs.iter_mut().for_each(|w| *w = 0);
        self.credits.clear();
        self.partial = 0.0;
        self.step = 0;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(r: &mut Router<u32>, from: u64, to: u64) -> Vec<(u64, usize, u32)> {
        let mut out = Vec::new();
        for now in from..to {
            r.cycle(now, |at, o, p| out.push((at, o, p)));
        }
        out
    }

    #[test]
    fn a_lone_packet_arrives_after_its_flits_and_the_latency() {
        for flits in [1u64, 4] {
            let mut r = Router::new(2, 2, 8, None, 64, 2.0);
            r.push(0, 1, flits, 1, 7);
            assert_eq!(run(&mut r, 100, 120), vec![(100 + flits + 8, 1, 7)]);
            assert!(r.is_empty());
        }
    }

    #[test]
    fn one_flit_packets_to_one_output_cross_one_a_cycle() {
        // Two inputs share output 0: the VC alternates between them, one packet a cycle.
        let mut r = Router::new(2, 1, 0, None, 64, 2.0);
        for k in 0..4 {
            r.push(0, 0, 1, 1, 10 + k);
            r.push(1, 0, 1, 1, 20 + k);
        }
        let got = run(&mut r, 0, 20);
        let order: Vec<u32> = got.iter().map(|g| g.2).collect();
        assert_eq!(order, vec![10, 20, 11, 21, 12, 22, 13, 23]);
        let times: Vec<u64> = got.iter().map(|g| g.0).collect();
        assert_eq!(times, (1..9).collect::<Vec<u64>>());
    }

    #[test]
    fn buffered_flits_cross_at_the_speedup_and_free_the_vc_early() {
        // Input 0's 4-flit packet is buffered while input 1 holds the output's VC; once
        // granted, it switches two flits a cycle, so input 1's next packet (queued behind
        // the one that held the VC) gets the VC back sooner than four cycles later.
        let mut fast = Router::new(2, 2, 0, None, 64, 2.0);
        let mut slow = Router::new(2, 2, 0, None, 64, 1.0);
        for r in [&mut fast, &mut slow] {
            r.push(1, 0, 4, 1, 1);
            r.push(0, 0, 4, 1, 2);
            r.push(1, 0, 4, 1, 3);
        }
        let f = run(&mut fast, 0, 40);
        let s = run(&mut slow, 0, 40);
        assert_eq!(f.len(), 3);
        assert_eq!(s.len(), 3);
        // The output link sends a flit a cycle either way: 12 flits, the last at cycle ≥ 12.
        assert!(f[2].0 >= 12);
        assert!(f[2].0 < s[2].0, "{f:?} {s:?}");
    }

    #[test]
    fn a_head_waiting_for_a_busy_output_blocks_the_packets_behind_it() {
        let mut r = Router::new(2, 2, 0, None, 64, 2.0);
        r.push(0, 0, 8, 1, 1); // holds output 0 for eight cycles of flits
        r.push(1, 0, 1, 1, 2); // waits for output 0
        r.push(1, 1, 1, 1, 3); // output 1 is free, but this packet is behind
        let got = run(&mut r, 0, 30);
        let at = |p: u32| got.iter().find(|g| g.2 == p).unwrap().0;
        // Packet 2 gets the VC once packet 1's tail has been switched (cycle 7), and packet 3
        // crosses only after it, though its output was free all along.
        assert!(at(2) >= 9 && at(3) >= at(2), "{got:?}");
    }

    #[test]
    fn credits_limit_the_flits_an_output_buffers() {
        // Four inputs stream into one output: with 2 credits the output never holds more than
        // two flits, and the link still sends one a cycle.
        let mut r = Router::new(4, 1, 0, None, 2, 2.0);
        for i in 0..4 {
            r.push(i, 0, 4, 1, i as u32);
        }
        let mut max = 0;
        for now in 0..40 {
            r.cycle(now, |_, _, _| {});
            max = max.max(r.outputs[0].buffer.len());
        }
        assert!(max <= 2);
        assert!(r.is_empty());
    }

    #[test]
    fn a_closed_output_keeps_its_flits_and_fills_the_inputs_behind_it() {
        // Output 0's destination takes nothing for 20 cycles: nothing arrives, the output
        // buffers its 4 credits' worth, and each input then holds what it cannot switch, so
        // its injection buffer (capacity 6) fills; once open, every packet arrives in order.
        let mut r: Router<u32> = Router::new(2, 1, 0, Some(6), 4, 2.0);
        let mut next = 0;
        let mut got = Vec::new();
        for now in 0..80 {
            for i in 0..2 {
                if r.has_room(i, 1) {
                    r.push(i, 0, 1, 1, next);
                    next += 1;
                }
            }
            r.cycle_gated(now, |_| now >= 20, |at, _, p| got.push((at, p)));
            if now == 19 {
                assert!(got.is_empty());
                assert_eq!(r.outputs[0].buffer.len(), 4);
                assert!(!r.has_room(0, 1) && !r.has_room(1, 1));
            }
        }
        assert_eq!(got.first().map(|g| g.0), Some(20));
        // One a cycle from then on, the two inputs in turn (so each refills as it is served).
        assert_eq!(got.len(), 60);
        assert!(got.windows(2).all(|w| w[1].0 == w[0].0 + 1), "{got:?}");
    }

    #[test]
    fn an_input_holds_its_capacity_in_flits() {
        let mut r: Router<u32> = Router::new(1, 1, 0, Some(9), 64, 2.0);
        assert!(r.has_room(0, 4));
        r.push(0, 0, 4, 1, 0);
        r.push(0, 0, 4, 1, 1);
        assert!(!r.has_room(0, 4) && r.has_room(0, 1));
        run(&mut r, 0, 3); // the first packet's flits have been switched by now
        assert!(r.has_room(0, 4));
    }

    /// Saturation throughput under uniform random traffic, 27 ports (gtx480's router), every
    /// input always backlogged: accepted flits per port and cycle. Each input queues `flits`
    /// flits for one random output at a time, as one push of `parts` packets or (`separate`)
    /// as `parts` pushes.
    fn saturation(flits: u64, parts: u32, speedup: f64, separate: bool) -> f64 {
        let n = 27;
        let mut r: Router<u32> = Router::new(n, n, 0, None, 64, speedup);
        let mut x = 0x2545_f491_4f6c_dd1du64;
        let mut next = move || {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x
        };
        let (warm, cycles) = (2_000u64, 40_000u64);
        let mut delivered = 0u64;
        for now in 0..warm + cycles {
            for i in 0..n {
                if r.inputs[i].queued < 4 * flits {
                    let o = (next() % n as u64) as usize;
                    if separate {
                        for _ in 0..parts {
                            r.push(i, o, flits / parts as u64, 1, 0);
                        }
                    } else {
                        r.push(i, o, flits, parts, 0);
                    }
                }
            }
            let per = if separate {
                flits / parts as u64
            } else {
                flits
            };
            r.cycle(now, |_, _, _| {
                if now >= warm {
                    delivered += per;
                }
            });
        }
        delivered as f64 / (cycles * n as u64) as f64
    }

    /// BookSim's own figures for the same traffic, measured on `booksim` built from GPGPU-Sim
    /// 4.2's `src/intersim2` (standalone `main.cpp`, `GetSimTime` from the traffic manager):
    /// gtx480's `config_fermi_islip.icnt` router settings with `sim_type = latency`,
    /// `traffic = uniform`, `injection_rate = 1.0`, `packet_size` 1 or 4, and
    /// `internal_speedup` 1–4; "Accepted flit rate average" of the first sample:
    /// speedup 1: 0.297 (1 flit), 0.477 (4 flits); 2: 0.596, 0.899; 3: 0.895, 0.917;
    /// 4: 0.970, 0.921.
    #[test]
    fn saturation_throughput_is_booksims() {
        let booksim = [
            (1, 1.0, 0.297),
            (4, 1.0, 0.477),
            (1, 2.0, 0.596),
            (4, 2.0, 0.899),
            (1, 3.0, 0.895),
            (4, 3.0, 0.917),
            (1, 4.0, 0.970),
            (4, 4.0, 0.921),
        ];
        let mut report = String::new();
        let mut worst: f64 = 0.0;
        for (flits, speedup, theirs) in booksim {
            let ours = saturation(flits, 1, speedup, false);
            report += &format!("{flits} flits, speedup {speedup}: {ours:.3} (BookSim {theirs})\n");
            worst = worst.max((ours - theirs).abs());
        }
        assert!(worst < 0.015, "{report}");
        // Four one-flit packets queued as one (a reply split into sectors) cost what four
        // separate packets to the same output do: each asks for the VC.
        let one = saturation(4, 4, 2.0, false);
        let four = saturation(4, 4, 2.0, true);
        assert!((one - four).abs() < 0.001, "{one} {four}");
        assert!(one < saturation(4, 1, 2.0, false) - 0.2, "{one}");
    }
}
