//! The memory side on gtx480 (L1 D-cache latency 35, global loads cached in L1, pipeline
//! stages 1 + 3 + 2 around the units) with a perfect I-cache: one warp's global loads run
//! cycle by cycle through the SM and a real memory system, as `gpu.rs`'s loop runs them.
use super::super::scoreboard::PENDING;
use super::super::testbench::{Bench, TestSm};
use crate::ids::SchedId;
use crate::policy::Block;
use warpsim_core::ir::layout::ALLOC_BASE;

/// What a run showed of warp 0 and the memory side, cycle by cycle.
#[derive(Default, Debug)]
struct Seen {
    /// The cycle each of the warp's instructions issued in, in order.
    issued: Vec<u64>,
    /// The cycle each request left the SM for the memory system.
    sent: Vec<u64>,
    /// Each distinct arrival cycle of a reply for the SM, as the memory system announced
    /// it (`MemSystem::next_reply`) before the SM took it.
    replies: Vec<u64>,
    /// `(cycle, count after)` whenever the warp's memory instructions in flight changed.
    outstanding: Vec<(u64, u32)>,
    /// Per cycle: the first cycle an LD/ST instance is free.
    ldst_free: Vec<u64>,
    /// Per cycle: the warp's blocking reason, wake cycle and long-wait cycle.
    state: Vec<(Block, u64, u64)>,
}

/// A kernel `k()` of `body` then `ret`, registers `%r0`–`%r15`; `{A}` in `body` is the
/// address of the bench's first global allocation.
fn kernel(body: &str) -> String {
    let body = body.replace("{A}", &ALLOC_BASE.to_string());
    super::super::testbench::kernel(&body)
}

/// One warp of `kernel(body)` run for cycles `0..cycles`, with 256 bytes of global memory
/// at `ALLOC_BASE`.
fn run(body: &str, cycles: u64) -> (Seen, TestSm) {
    let mut b = Bench::new(&kernel(body), 32, "gtx480", &[]);
    assert_eq!(b.alloc(256), ALLOC_BASE);
    let mut sm = b.sm(1, true);
    b.launch(&mut sm, 1, 0, 0);
    let mut seen = Seen::default();
    b.run(&mut sm, 1, 0..cycles, |sm, env, now| {
        while seen.issued.len() < sm.warps.insts[0] as usize {
            seen.issued.push(now);
        }
        while seen.sent.len() < env.mem.requests() as usize {
            seen.sent.push(now);
        }
        let r = env.mem.next_reply(0);
        if r != u64::MAX && seen.replies.last() != Some(&r) {
            seen.replies.push(r);
        }
        let out = sm.mem.outstanding[0];
        if seen.outstanding.last().map_or(0, |x| x.1) != out {
            seen.outstanding.push((now, out));
        }
        seen.ldst_free.push(sm.units.next_free(SchedId(0)));
        seen.state
            .push((sm.warps.block[0], sm.warps.wake[0], sm.warps.long_until[0]));
    });
    (seen, sm)
}

/// The one reply the run saw: its arrival cycle, at least the fixed latencies after the
/// request left at `sent` (interconnect there and back, L2's, DRAM's).
fn one_reply(seen: &Seen, sent: u64) -> u64 {
    assert_eq!(seen.replies.len(), 1, "{seen:?}");
    let r = seen.replies[0];
    assert!(r >= sent + 8 + 120 + 100 + 8, "{r}");
    r
}

/// A global load that misses: issued in cycle 2, it holds the LD/ST unit (busy until the
/// memory stage frees it) until its one line is served in cycle 3 (the unit takes the next
/// instruction in that cycle); the line spends the L1 latency in the latency queue, misses
/// at its lookup in 3 + 35 = 38 and leaves for L2 in that cycle. The instruction is in
/// flight (`outstanding` 1) from its issue until its reply arrives (cycle R, as the memory
/// system announced it); its destination is readable from R + 1 + 6 (the pipeline stages,
/// paid at completion), so the dependent `add` is a long data stall until the release,
/// then a short one until exactly R + 7, when it issues.
#[test]
fn a_missing_load_is_readable_pipeline_cycles_after_its_reply() {
    let (seen, sm) = run("ld.global.u32 %r1, [{A}];\nadd.u32 %r2, %r1, 1;", 400);
    assert_eq!(seen.issued[0], 2);
    assert_eq!(&seen.ldst_free[..4], &[0, 0, u64::MAX, 3]);
    assert_eq!(seen.sent, vec![38]);
    let r = one_reply(&seen, 38);
    assert_eq!(seen.outstanding, vec![(2, 1), (r, 0)]);
    // After issue: the `add` waits on a result of unknown latency, a long wait.
    assert_eq!(seen.state[2], (Block::Data, PENDING, PENDING));
    assert_eq!(seen.state[r as usize - 1], (Block::Data, PENDING, PENDING));
    assert_eq!(seen.state[r as usize], (Block::Data, r + 7, 0));
    assert_eq!(seen.issued[1], r + 7);
    assert_eq!(sm.timing.stalls[0].data, r + 7 - 3);
    let c = sm.mem.l1d_counts;
    assert_eq!((c.hits, c.misses, c.merged), (0, 1, 0));
}

/// A second load of a line whose miss is in flight merges into its MSHR: it issues in cycle
/// 3 (the unit free again), is looked up at 4 + 35 = 39, sends nothing, and completes with
/// the first at the one reply, a cycle after it: the two lines take turns at the writeback
/// port (`sm.ldst_writeback`), so the `add` reading both issues at R + 8.
#[test]
fn a_load_of_a_line_in_flight_merges_into_its_miss() {
    let body = "ld.global.u32 %r1, [{A}];\nld.global.u32 %r2, [{A}+4];\nadd.u32 %r3, %r1, %r2;";
    let (seen, sm) = run(body, 400);
    assert_eq!(&seen.issued[..2], &[2, 3]);
    assert_eq!(seen.sent, vec![38], "one request for both");
    let r = one_reply(&seen, 38);
    assert_eq!(seen.outstanding, vec![(2, 1), (3, 2), (r, 1), (r + 1, 0)]);
    assert_eq!(seen.issued[2], r + 8);
    let c = sm.mem.l1d_counts;
    assert_eq!((c.hits, c.misses, c.merged), (0, 1, 1));
}

/// A load of a line the L1 holds hits: the first load's `add` issues at R + 7, emptying
/// the I-buffer (`rr` refills only empty ones), so the second load is fetched in that
/// cycle's last fetch slot and issues at R + 9; it is served at R + 10, looked up and back
/// at R + 10 + 35 (a hit pays only the latency queue), and its register is readable 7
/// cycles later: its `add` issues at R + 52. Nothing more is sent to L2.
#[test]
fn a_load_of_a_line_in_l1_hits_after_the_l1_latency() {
    let body = "ld.global.u32 %r1, [{A}];\nadd.u32 %r2, %r1, 1;\n\
                ld.global.u32 %r3, [{A}+4];\nadd.u32 %r4, %r3, 1;";
    let (seen, sm) = run(body, 500);
    let r = one_reply(&seen, 38);
    assert_eq!(&seen.issued[..4], &[2, r + 7, r + 9, r + 52]);
    assert_eq!(seen.sent, vec![38]);
    assert_eq!(
        seen.outstanding,
        vec![(2, 1), (r, 0), (r + 9, 1), (r + 45, 0)]
    );
    assert_eq!(seen.state[r as usize + 45], (Block::Data, r + 52, 0));
    let c = sm.mem.l1d_counts;
    assert_eq!((c.hits, c.misses, c.merged), (1, 1, 0));
    assert!(!sm.mem.busy(), "nothing left in the memory side");
}

/// A shared-memory load issued while the LD/ST unit sends an uncoalesced global load (32
/// lines, one per lane) queues behind it (`sm.ldst_queue`) instead of waiting for a free
/// unit: it issues in the cycle after the global load, and its time starts when the unit
/// takes it, the cycle after the global load's last line: its result is back the shared
/// latency later (26 on gtx480, counted as for an access that found the unit free: 24
/// cycles after it is served, one read plus 26 less 3), and the `add` reading it issues
/// 1 + 6 pipeline cycles after that.
#[test]
fn a_shared_load_queues_behind_a_global_one_and_starts_when_the_unit_takes_it() {
    let ptx = format!(
        ".version 9.5\n.target sm_75\n.address_size 64\n.shared .align 4 .b8 s[128];\n\
         .visible .entry k()\n{{\n.reg .b32 %r<16>;\n.reg .b64 %rd<4>;\n\
         mov.u32 %r0, %tid.x;\nshl.b32 %r0, %r0, 7;\ncvt.u64.u32 %rd0, %r0;\n\
         add.u64 %rd0, %rd0, {ALLOC_BASE};\nld.global.u32 %r1, [%rd0];\n\
         ld.shared.u32 %r2, [s];\nadd.u32 %r3, %r2, 1;\nret;\n}}\n"
    );
    let mut b = Bench::new(&ptx, 32, "gtx480", &[]);
    assert_eq!(b.alloc(32 * 128), ALLOC_BASE);
    let mut sm = b.sm(1, true);
    b.launch(&mut sm, 1, 0, 0);
    let mut issued = Vec::new();
    let mut ldst_free = Vec::new();
    b.run(&mut sm, 1, 0..200, |sm, _, now| {
        while issued.len() < sm.warps.insts[0] as usize {
            issued.push(now);
        }
        ldst_free.push(sm.units.next_free(SchedId(0)));
    });
    let g = issued[4];
    assert_eq!(issued[5], g + 1, "the shared load queues: {issued:?}");
    // The unit sends one line a cycle from g + 1 and takes the shared load after the last.
    assert_eq!(
        ldst_free[g as usize + 33],
        g + 33,
        "{:?}",
        &ldst_free[g as usize..]
    );
    let served = g + 33;
    assert_eq!(issued[6], served + 24 + 1 + 6, "{issued:?}");
}

/// The writeback port (`sm.ldst_writeback`): lines of loads that come back in the same cycle
/// are written one a cycle, in the order they came; a store's acknowledgement takes no turn.
#[test]
fn loads_back_in_one_cycle_are_written_back_one_a_cycle() {
    use super::super::memory::{AccKind, SmMem};
    let cfg = warpsim_core::config::GpuConfig::load("gtx480").unwrap();
    assert!(cfg.sm.ldst_writeback);
    let mut m = SmMem::new(&cfg, 4);
    let load = AccKind::Load { alloc: true };
    let stage = |m: &mut SmMem, slot: u32, kind, release| {
        m.fixed_line();
        let slot = crate::ids::WarpSlot::from_raw(slot as _);
        m.stage(0, SchedId(0), slot, kind, release, false, 0, 0, 0, 0)
    };
    let a = stage(&mut m, 0, load, true);
    let b = stage(&mut m, 1, load, true);
    let store = m.store_kind(true);
    let st = stage(&mut m, 2, store, false);
    m.line_back(a, 10, true);
    m.line_back(st, 10, true);
    m.line_back(b, 10, true);
    let done: Vec<u32> = m
        .take_completed()
        .iter()
        .map(|t| t.slot.raw() as u32)
        .collect();
    assert_eq!(
        done,
        vec![0, 2],
        "the first load and the store complete at once"
    );
    assert_eq!(m.next_activity(10), 11, "the second load's turn");
}

/// A line whose instruction writes several registers holds the writeback port for its
/// write cycles (`Track::write_cycles`, GPGPU-Sim's `opndcoll_rfu_t::writeback` through the
/// banks), each of its lines again; an L1 D-cache hit, which GPGPU-Sim does not write back
/// through the port, takes one cycle.
#[test]
fn a_multi_register_load_holds_the_writeback_port_for_its_write_cycles() {
    use super::super::memory::{AccKind, SmMem};
    let cfg = warpsim_core::config::GpuConfig::load("rtx2060").unwrap();
    assert!(cfg.sm.ldst_writeback);
    let mut m = SmMem::new(&cfg, 4);
    // A load of one line in flight for warp slot `slot`, writing back in `cycles`.
    let load = |m: &mut SmMem, slot: u32, cycles: u32| {
        m.fixed_line();
        let slot = crate::ids::WarpSlot::from_raw(slot as _);
        let t = m.stage(
            0,
            SchedId(0),
            slot,
            AccKind::Load { alloc: true },
            true,
            false,
            0,
            0,
            0,
            0,
        );
        m.set_write_cycles(t, cycles);
        t
    };
    let frag = load(&mut m, 0, 4);
    let single = load(&mut m, 1, 1);
    let hit = load(&mut m, 2, 4);
    m.line_back(frag, 10, true); // written in cycles 10-13
    m.line_back(single, 11, true); // the port is free in 14
    m.line_back(hit, 11, false); // an L1 hit: one cycle, in 15
    assert!(m.take_completed().is_empty());
    assert_eq!(m.wb_due(), vec![(13, 0), (14, 1), (15, 2)]);
}

/// A sectored L1 (qv100: 32-byte sectors of 128-byte lines, as GPGPU-Sim's `S:4:128:64`)
/// fetches only the sectors a load lacks: the first load misses and asks for its one sector;
/// a load of another sector of that line, once the line is in, is a *sector miss* and asks
/// for that sector; a load of a sector present hits. An unsectored L1 (gtx480) fetched the
/// whole line at the first miss, and both later loads hit.
#[test]
fn a_sectored_l1_fetches_only_the_sectors_a_load_lacks() {
    let body = "ld.global.u32 %r1, [{A}];\nadd.u32 %r2, %r1, 1;\n\
                ld.global.u32 %r3, [{A}+32];\nadd.u32 %r4, %r3, 1;\n\
                ld.global.u32 %r5, [{A}+4];\nadd.u32 %r6, %r5, 1;";
    let counts = |preset: &str| {
        let mut b = Bench::new(&kernel(body), 32, preset, &[]);
        assert_eq!(b.alloc(256), ALLOC_BASE);
        let mut sm = b.sm(1, true);
        b.launch(&mut sm, 1, 0, 0);
        let mut requests = 0;
        b.run(&mut sm, 1, 0..3000, |_, env, _| {
            requests = env.mem.requests()
        });
        assert!(!sm.mem.busy(), "{preset}: the loads are done");
        let c = sm.mem.l1d_counts;
        (c.hits, c.misses, c.merged, requests)
    };
    assert_eq!(counts("qv100"), (1, 2, 0, 2));
    assert_eq!(counts("gtx480"), (2, 1, 0, 1));
}
