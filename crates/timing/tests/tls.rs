//! Two-level scheduling (`tls`): the active set and pending FIFO, empty slots rotating
//! through it, the replay of rotations slept through and its data patterns, and the policy in
//! the model. The crafted view `V` and the issue-sequence runs are `timing.rs`'s.

use crate::timing::{issue_sequence, issue_sequence_with, issued, V};
use warpsim_timing::ids::WarpSlot;
use warpsim_timing::policy::{Block, DataPattern, IssuePolicy, Settled, Tls};

#[test]
fn tls_issues_only_from_its_active_set_and_demotes_long_latency_waiters() {
    let slots: Vec<u16> = (0..10).collect();
    let mut v = V::new(10);
    let mut p = Tls::new(0, 3, &slots);
    let mut out = Vec::new();
    p.order(&(), &slots, &v.view(), &mut out);
    assert_eq!(out, [0, 1, 2]);
    // An issue reorders the active set round robin: the next warp leads.
    issued(&mut p, &v, 0);
    p.order(&(), &slots, &v.view(), &mut out);
    assert_eq!(out, [1, 2, 0]);
    // The demoted warp leaves its place; the promoted one joins at the back.
    v.long_dep(1, true);
    p.order(&(), &slots, &v.view(), &mut out);
    assert_eq!(p.active(), [2, 0, 3]);
    assert_eq!(out, [2, 0, 3]);
    v.long_dep(1, false);
    v.w.set_waiting(WarpSlot(0), true);
    p.order(&(), &slots, &v.view(), &mut out);
    assert_eq!(p.active(), [2, 3, 4]);
    // `current_order` is side-effect free.
    let mut again = Vec::new();
    p.current_order(&(), &slots, &v.view(), &mut again);
    p.current_order(&(), &slots, &v.view(), &mut again);
    assert_eq!(p.active(), [2, 3, 4]);
}

/// Every slot of the scheduler is a two-level member from the start, as in GPGPU-Sim: an empty
/// slot takes an active place until the next `order` demotes it, so fewer warps than the
/// active set's size may be offered.
#[test]
fn tls_empty_slots_rotate_through_the_active_set() {
    let slots: Vec<u16> = (0..6).collect();
    let mut v = V::new(6);
    for s in [1, 4] {
        v.w.set_occupied(WarpSlot(s), false);
    }
    let mut p = Tls::new(0, 2, &slots);
    assert_eq!(p.active(), [0, 1]);
    let mut out = Vec::new();
    p.order(&(), &slots, &v.view(), &mut out);
    assert_eq!((p.active(), &out[..]), (&[0, 2][..], &[0, 2][..]));
    v.w.set_waiting(WarpSlot(0), true);
    p.order(&(), &slots, &v.view(), &mut out);
    assert_eq!(p.active(), [2, 3]);
    // Both active warps due: the FIFO's front is empty slot 4, then warp 5.
    v.w.set_waiting(WarpSlot(0), false);
    v.w.set_waiting(WarpSlot(2), true);
    v.long_dep(3, true);
    p.order(&(), &slots, &v.view(), &mut out);
    assert_eq!((p.active(), &out[..]), (&[4, 5][..], &[5][..]));
    p.order(&(), &slots, &v.view(), &mut out);
    assert_eq!((p.active(), &out[..]), (&[5, 1][..], &[5][..]));
    p.order(&(), &slots, &v.view(), &mut out);
    assert_eq!((p.active(), &out[..]), (&[5, 0][..], &[5, 0][..]));
    // Fetch's order goes on with the FIFO's occupied slots.
    p.fetch_order(&(), &slots, &v.view(), &mut out);
    assert_eq!(out, [5, 0, 2, 3]);
}

/// Two-level scheduling asleep while it rotates: the rotations its next `order` replays
/// equal those of an `order` every cycle, whatever the number of cycles slept, and in each
/// cycle slept through, the data pattern it gave says whether that cycle's walk would have met
/// a warp blocked on data. It declines to sleep where the rotation is not only due warps (a
/// pending warp not due).
#[test]
fn tls_replays_the_rotations_it_slept_through() {
    // Ten slots with an active set of 4, and larger schedulers whose slots past the tenth are
    // empty (their pending FIFO wraps around its ring, as on an SM with many warp slots).
    for (n_slots, n_active) in [(10, 4), (37, 6), (64, 6)] {
        tls_replays_with(n_slots, n_active);
    }
}

fn tls_replays_with(n_slots: usize, n_active: usize) {
    let slots: Vec<u16> = (0..n_slots as u16).collect();
    // (long-dep warps, waiting warps, empty slots, kept warp blocked on data, sleeps?)
    type Case<'a> = (&'a [usize], &'a [usize], &'a [usize], bool, bool);
    let cases: [Case; 8] = [
        (&[1, 3, 4, 5, 6, 7, 8, 9], &[], &[], false, true),
        (&[], &[1, 3, 4, 5, 6, 7, 8, 9], &[], false, true),
        (&[1, 3, 4, 5], &[6, 7, 8, 9], &[], false, true),
        (&[1, 3, 4, 5], &[6, 7, 8, 9], &[], true, true),
        (&[3, 8], &[1, 4, 5, 9], &[6, 7], false, true),
        (&[9], &[1, 3, 4, 5, 6, 7, 8], &[], false, true),
        (&[1, 3], &[], &[4, 5, 6, 7, 8, 9], false, true),
        (&[1, 3, 4, 5, 6, 7, 8], &[], &[], false, false),
    ];
    let mut patterns = 0;
    for (long, waiting, empty, kept_data, sleeps) in cases {
        if !sleeps && n_slots != 10 {
            // With a larger active set the pending warp that is not due may be active.
            continue;
        }
        let mut v = V::new(n_slots);
        for s in 10..n_slots {
            v.w.set_occupied(WarpSlot::new(s), false);
        }
        // Warps 0 and 2 are not due: blocked on fetch, or on a short data dependence.
        for s in [0, 2] {
            v.w.block[s] = if kept_data { Block::Data } else { Block::Fetch };
            v.w.wake[s] = 1_000;
        }
        for &s in long {
            v.long_dep(s, true);
            v.w.block[s] = Block::Data;
            v.w.wake[s] = 1_000;
            v.w.long_until[s] = 1_000;
        }
        for &s in waiting {
            v.w.set_waiting(WarpSlot::new(s), true);
            v.w.block[s] = Block::Barrier;
            v.w.wake[s] = u64::MAX;
        }
        for &s in empty {
            v.w.set_occupied(WarpSlot::new(s), false);
        }
        // The walk's data outcome at `t` over the order `out`.
        let meets_data = |v: &V, out: &[u16], t: u64| {
            out.iter()
                .any(|&s| v.w.block[s as usize] == Block::Data && v.w.wake[s as usize] > t)
        };
        for slept in 1..30u64 {
            let (mut awake, mut asleep) =
                (Tls::new(0, n_active, &slots), Tls::new(0, n_active, &slots));
            let mut out = Vec::new();
            // A few cycles in, so the sets have started rotating.
            for t in 10..12 {
                awake.order(&(), &slots, &v.view_at(t), &mut out);
                asleep.order(&(), &slots, &v.view_at(t), &mut out);
            }
            let data_at_11 = meets_data(&v, &out, 11);
            let settled = asleep.settled(&v.view_at(11));
            assert_eq!(
                settled != Settled::No,
                sleeps,
                "{long:?} {waiting:?} {empty:?} {kept_data}"
            );
            if !sleeps {
                break;
            }
            if let Settled::DataWhen(p) = settled {
                assert_eq!(p.first, 12);
                patterns += 1;
            }
            for t in 12..12 + slept {
                awake.order(&(), &slots, &v.view_at(t), &mut out);
                let want = match settled {
                    Settled::DataWhen(p) => p.at(t),
                    _ => data_at_11,
                };
                assert_eq!(
                    meets_data(&v, &out, t),
                    want,
                    "cycle {t}: {long:?} {waiting:?} {empty:?} {kept_data}"
                );
            }
            let t = 12 + slept;
            let mut want = Vec::new();
            awake.order(&(), &slots, &v.view_at(t), &mut want);
            asleep.order(&(), &slots, &v.view_at(t), &mut out);
            assert_eq!(
                out, want,
                "{n_slots} slots, slept {slept}: {long:?} {waiting:?}"
            );
            assert_eq!(asleep.active(), awake.active());
            // Fetch (after issue) in a cycle slept through sees the same order too.
            asleep.settled(&v.view_at(t));
            awake.order(&(), &slots, &v.view_at(t + 1), &mut out);
            awake.fetch_order(&(), &slots, &v.view_at(t + 1), &mut want);
            asleep.fetch_order(&(), &slots, &v.view_at(t + 1), &mut out);
            assert_eq!(out, want, "fetch after {slept}");
        }
    }
    // Not vacuous: the mixed cases sleep with a pattern.
    assert!(patterns >= 3 * 29, "{patterns}");
}

/// A data pattern counts the cycles of a range that meet data, whole periods and the
/// wrapped rest alike.
#[test]
fn data_pattern_counts_like_cycle_by_cycle() {
    for period in [1u32, 3, 7, 64] {
        for bits in [0b1u64, 0b101, 0b1100110, 0xdead_beef_0123_4567] {
            let p = DataPattern {
                first: 100,
                bits,
                period,
            };
            for from in 100..140 {
                for to in from..from + 150 {
                    let want = (from..to).filter(|&c| p.at(c)).count() as u64;
                    assert_eq!(p.count(from, to), want, "{p:?} {from}..{to}");
                }
            }
        }
    }
}

#[test]
fn tls_issues_only_from_its_active_set_in_the_model() {
    let seq = issue_sequence_with("tls:2", 6, 30, &["policy.tls.long_marks=pending"]);
    // Each warp's first instruction loads a kernel parameter, which the next one reads: a
    // long operation (GPGPU-Sim's scoreboard counts parameter loads), so each warp is demoted
    // after one issue and the first six issues visit every warp once.
    assert_eq!(seq[..6], [0, 1, 2, 3, 4, 5], "{seq:?}");
    // Then, with nothing more to demote, the first two warps form the active set until they
    // finish, and the next two after them.
    let rest = &seq[6..];
    let first_other = rest.iter().position(|&a| a >= 2).unwrap();
    let last01 = rest.iter().rposition(|&a| a < 2).unwrap();
    assert!(last01 < first_other, "{seq:?}");
    let first45 = rest.iter().position(|&a| a >= 4).unwrap();
    let last23 = rest.iter().rposition(|&a| a == 2 || a == 3).unwrap();
    assert!(last23 < first45, "{seq:?}");
}

/// With GPGPU-Sim's sticky long-operation marks (the default) the parameter's register stays
/// marked after its constant-cache miss is back (the loads merged into one miss, written back
/// through the LD/ST unit's port), so at the `cvta` that reads it every warp is due again and
/// issues it only in a cycle that promotes it: the set that then runs to the end is another
/// than under `pending` (warps 0 and 5, not 0 and 1).
#[test]
fn tls_keeps_demoting_a_reader_of_a_loaded_register_in_the_model() {
    let seq = issue_sequence("tls:2", 6, 30);
    assert_eq!(seq[..6], [0, 1, 2, 3, 4, 5], "{seq:?}");
    let pending = issue_sequence_with("tls:2", 6, 30, &["policy.tls.long_marks=pending"]);
    assert_eq!(pending[6..8], [0, 1], "{pending:?}");
    let second = |w: u64| {
        seq.iter()
            .enumerate()
            .filter(|x| *x.1 == w)
            .nth(1)
            .unwrap()
            .0
    };
    assert!(second(5) < second(1), "{seq:?}");
    assert_ne!(seq, pending);
}
