//! Interconnect between the SMs and the L2 slices: a crossbar with a fixed traversal latency
//! (`icnt.latency`) and per-port bandwidth of one flit (`icnt.flit_bytes`) per cycle, in both
//! directions. A packet serializes on its source port, crosses, then serializes on its
//! destination port; ports are reserved when the packet is sent (sends happen in a fixed order
//! each cycle, so the schedule is deterministic).

/// Bytes of header every packet carries (address, command, source).
pub const HEADER_BYTES: u64 = 8;

pub struct Icnt {
    latency: u64,
    flit_bytes: u64,
    /// First free cycle of each port.
    sm_out: Vec<u64>,
    sm_in: Vec<u64>,
    slice_out: Vec<u64>,
    slice_in: Vec<u64>,
    pub packets: u64,
    pub flits: u64,
}

impl Icnt {
    pub fn new(latency: u32, flit_bytes: u32, sms: usize, slices: usize) -> Icnt {
        Icnt {
            latency: latency as u64,
            flit_bytes: flit_bytes.max(1) as u64,
            sm_out: vec![0; sms],
            sm_in: vec![0; sms],
            slice_out: vec![0; slices],
            slice_in: vec![0; slices],
            packets: 0,
            flits: 0,
        }
    }

    /// Moves every port's free time back by `shift` cycles and zeroes the counters (a new
    /// launch counting from cycle 0).
    pub fn rebase(&mut self, shift: u64) {
        for v in [
            &mut self.sm_out,
            &mut self.sm_in,
            &mut self.slice_out,
            &mut self.slice_in,
        ] {
            v.iter_mut().for_each(|t| *t = t.saturating_sub(shift));
        }
        self.packets = 0;
        self.flits = 0;
    }

    /// Flits of a packet with `payload` data bytes.
    pub fn flits_for(&self, payload: u64) -> u64 {
        (HEADER_BYTES + payload).div_ceil(self.flit_bytes)
    }

    /// SM `sm`'s injection port can start a packet at cycle `now`.
    #[inline]
    pub fn sm_can_send(&self, sm: usize, now: u64) -> bool {
        self.sm_out[sm] <= now
    }

    /// Earliest cycle SM `sm` can inject again.
    pub fn sm_port_free(&self, sm: usize) -> u64 {
        self.sm_out[sm]
    }

    /// Sends `flits` from SM `sm` to slice `slice` at `now`; returns the arrival cycle.
    pub fn to_slice(&mut self, now: u64, sm: usize, slice: usize, flits: u64) -> u64 {
        self.route(now, flits, Port::Sm(sm), Port::Slice(slice))
    }

    /// Sends `flits` from slice `slice` to SM `sm` at `now`; returns the arrival cycle.
    pub fn to_sm(&mut self, now: u64, slice: usize, sm: usize, flits: u64) -> u64 {
        self.route(now, flits, Port::Slice(slice), Port::Sm(sm))
    }

    /// Counts a packet of `flits` (the input-queued crossbar's packets are counted here too).
    pub fn count(&mut self, flits: u64) {
        self.packets += 1;
        self.flits += flits;
    }

    fn route(&mut self, now: u64, flits: u64, from: Port, to: Port) -> u64 {
        self.count(flits);
        let out = match from {
            Port::Sm(i) => &mut self.sm_out[i],
            Port::Slice(i) => &mut self.slice_out[i],
        };
        let depart = now.max(*out);
        *out = depart + flits;
        let inp = match to {
            Port::Sm(i) => &mut self.sm_in[i],
            Port::Slice(i) => &mut self.slice_in[i],
        };
        // The head flit reaches the destination port after the traversal latency; the packet
        // has arrived once its last flit has been ejected.
        let eject = (depart + self.latency).max(*inp);
        *inp = eject + flits;
        eject + flits
    }
}

enum Port {
    Sm(usize),
    Slice(usize),
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn latency_plus_serialization_on_both_ports() {
        let mut n = Icnt::new(8, 40, 2, 2);
        assert_eq!(n.flits_for(0), 1);
        assert_eq!(n.flits_for(128), 4); // 136 B in 40 B flits
        assert_eq!(n.to_slice(100, 0, 1, n.flits_for(0)), 100 + 8 + 1);
        assert!(!n.sm_can_send(0, 100) && n.sm_can_send(0, 101));
        // Two 4-flit replies to the same SM: the second waits for the ejection port.
        let a = n.to_sm(200, 0, 1, 4);
        let b = n.to_sm(200, 1, 1, 4);
        assert_eq!(a, 200 + 8 + 4);
        assert_eq!(b, a + 4);
        // A second packet from the same slice waits for its injection port.
        let c = n.to_sm(200, 0, 0, 4);
        assert_eq!(c, 204 + 8 + 4);
        assert_eq!(n.packets, 4);
    }
}
