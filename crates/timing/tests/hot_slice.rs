//! A memory slice that cannot keep up backs the interconnect up into each SM's injection
//! queue, one SM at a time (GPGPU-Sim: a sub-partition pops the interconnect only while its
//! queue has room, and an SM's `icnt_has_buffer` sees only its own queue), so every SM keeps
//! its turn at the slice: no SM is shut out while another's packets drain.

use crate::common::{gtx480, kernel, run};
use warpsim_timing::mem::{Dest, Kind, MemSystem, Req, SmNet};
use warpsim_timing::PolicyKind;

/// 15 SMs each try to send an atomic to one address every cycle for `cycles` cycles; the
/// cycles at which each SM sent one.
fn sends_to_one_slice(cycles: u64) -> Vec<Vec<u64>> {
    let cfg = gtx480();
    let sms = cfg.gpu.num_sms as usize;
    let mut mem = MemSystem::new(&cfg, sms);
    mem.begin_launch();
    let mut sent = vec![Vec::new(); sms];
    for now in 0..cycles {
        let mut ports = mem.take_ports();
        for (sm, port) in ports.iter_mut().enumerate() {
            let r = Req {
                addr: 0x1000,
                kind: Kind::Atomic,
                sm: sm as u16,
                bytes: 32,
                dest: Dest::Nobody,
                sectors: 1,
                whole: 0,
            };
            let mut net = SmNet::new(&mem, port);
            if net.can_send(sm, &r, now) {
                net.send(now, r);
                sent[sm].push(now);
            }
        }
        mem.commit_sends(ports, now);
        mem.cycle(now);
    }
    sent
}

#[test]
fn a_hot_slice_shares_its_turns_among_the_sms() {
    let sent = sends_to_one_slice(4000);
    // The slice serves one atomic a cycle; once the network is full (a few hundred cycles),
    // each SM gets about one turn in 15 cycles. An SM-wide gate at the slice (the model
    // before) shut every SM out for ~1 000 cycles at a time while the network drained.
    for (sm, s) in sent.iter().enumerate() {
        let late: Vec<u64> = s.iter().copied().filter(|&t| t >= 1000).collect();
        let gaps = late
            .windows(2)
            .map(|w| w[1] - w[0])
            .max()
            .unwrap_or(u64::MAX);
        assert!(
            late.len() >= 150,
            "SM {sm} sent {} after cycle 1000",
            late.len()
        );
        assert!(gaps <= 60, "SM {sm} waited {gaps} cycles between two sends");
    }
}

#[test]
fn atomics_from_every_sm_to_one_counter_add_up() {
    let src = kernel("", "atom.global.add.u32 %r9, [%rd1], 1;");
    let cfg = gtx480();
    let o = run(&src, 15, 256, 1, Some((&cfg, PolicyKind::GTO)));
    assert_eq!(o.error, None);
    assert_eq!(o.out, vec![15 * 256]);
}
