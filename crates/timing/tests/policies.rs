//! The BAWS paper's policies on crafted SM states, exactly: the Figure 7 example for MWF(LRR),
//! MWF(GTO)'s greedy warp inside the top CTA, exited warps counted or not, SAWS keeping the
//! first-hit CTA first while MWF moves to the CTA with more waiters (Figure 13), CFF fetching
//! the warp the issue stage picks next, FEF the emptiest I-buffer. The state changes go
//! through the same hooks the SM calls, in the same order (SM-wide state first).

use crate::crafted;

use crafted::Crafted;
use warpsim_core::config::{CffMerge, FetchEligibility, PolicyParams};
use warpsim_timing::fetch_policy::{Cff, Fef, RoundRobin};
use warpsim_timing::ids::WarpSlot;
use warpsim_timing::policy::{Build, Gto, IssuePolicy, MwfGto, MwfLrr, Saws, Tls};

fn params() -> PolicyParams {
    PolicyParams::default()
}

/// BAWS Figure 7: TB0 = w0–w3 (w2 at the barrier), TB1 = w4–w7 (w5, w7), TB2 = w8–w11 (w9,
/// w10, w11); one scheduler. The last warps issued were w0 in TB0 and w7 in TB1, which then
/// reached the barrier.
fn figure7<P: IssuePolicy + Build>(p: &PolicyParams) -> Crafted<P> {
    let mut sm = Crafted::<P>::new(3, 4, 1, p);
    sm.issue(0);
    for s in [2, 5, 9, 10, 11] {
        sm.arrive(s);
    }
    sm.issue(7);
    sm.arrive(7);
    sm
}

#[test]
fn mwf_lrr_orders_figure_7_as_the_paper_does() {
    let mut sm = figure7::<MwfLrr>(&params());
    assert_eq!(sm.runnable(0), [8, 4, 6, 1, 3, 0]);
    // Waiting warps follow, CTAs in the same rank order (the issue walk skips them).
    assert_eq!(sm.order(0), [8, 4, 6, 1, 3, 0, 9, 10, 11, 5, 7, 2]);
    // LRR inside a CTA moves on with each issue: after w4, TB1 continues with w6.
    sm.issue(4);
    assert_eq!(sm.runnable(0), [8, 6, 4, 1, 3, 0]);
}

#[test]
fn mwf_gto_keeps_the_greedy_warp_first_inside_its_cta() {
    let mut sm = figure7::<MwfGto>(&params());
    // TB1's last warp (w7) waits, so TB1 starts from its oldest; TB0's (w0) leads TB0.
    assert_eq!(sm.runnable(0), [8, 4, 6, 0, 1, 3]);
    sm.issue(3);
    sm.issue(6);
    assert_eq!(sm.runnable(0), [8, 6, 4, 3, 0, 1]);
    // TB1's greedy warp keeps its place however long it runs, until it waits.
    sm.now = 50;
    sm.issue(6);
    assert_eq!(sm.runnable(0)[..3], [8, 6, 4]);
    sm.arrive(6);
    // TB1 now has three waiters, as many as TB2: the older CTA (TB1) goes first.
    assert_eq!(sm.runnable(0), [4, 8, 3, 0, 1]);
}

#[test]
fn mwf_counts_exited_warps_only_when_configured() {
    // CTA 0: two warps finished; CTA 1: one warp at a barrier.
    let run = |count: bool| {
        let mut p = params();
        p.mwf.count_exited_warps = count;
        let mut sm = Crafted::<MwfLrr>::new(2, 4, 1, &p);
        sm.finish(0);
        sm.finish(1);
        sm.arrive(4);
        sm.runnable(0)
    };
    assert_eq!(run(true), [2, 3, 5, 6, 7]);
    assert_eq!(run(false), [5, 6, 7, 2, 3]);
}

#[test]
fn mwf_with_two_schedulers_shares_one_cta_ranking() {
    // Scheduler 0 owns the even slots, scheduler 1 the odd; both follow the same CTA order.
    let mut sm = Crafted::<MwfGto>::new(2, 4, 2, &params());
    assert_eq!(
        (sm.order(0), sm.order(1)),
        (vec![0, 2, 4, 6], vec![1, 3, 5, 7])
    );
    sm.arrive(5);
    assert_eq!(
        (sm.runnable(0), sm.runnable(1)),
        (vec![4, 6, 0, 2], vec![7, 1, 3])
    );
    sm.release(1);
    assert_eq!(
        (sm.order(0), sm.order(1)),
        (vec![0, 2, 4, 6], vec![1, 3, 5, 7])
    );
}

/// BAWS Figure 13: CTA 0's first warp hits the barrier first, then CTA 1 collects more waiters.
#[test]
fn saws_keeps_the_first_hit_cta_first_while_mwf_moves_to_more_waiters() {
    fn scenario<P: IssuePolicy + Build>() -> Vec<Vec<u16>> {
        let mut sm = Crafted::<P>::new(3, 4, 1, &params());
        let mut firsts = Vec::new();
        sm.now = 10;
        sm.arrive(2); // CTA 0
        firsts.push(sm.runnable(0));
        sm.now = 20;
        sm.arrive(4);
        sm.now = 30;
        sm.arrive(5);
        sm.arrive(6);
        firsts.push(sm.runnable(0));
        sm.now = 40;
        sm.release(0);
        firsts.push(sm.runnable(0));
        firsts
    }
    let saws = scenario::<Saws>();
    let mwf = scenario::<MwfGto>();
    // One waiter in CTA 0: both put CTA 0 first.
    assert_eq!(saws[0][..3], [0, 1, 3]);
    assert_eq!(mwf[0][..3], [0, 1, 3]);
    // CTA 1 now has three waiters: MWF switches to it, SAWS keeps the first-hit CTA 0.
    assert_eq!(mwf[1], [7, 0, 1, 3, 8, 9, 10, 11]);
    assert_eq!(saws[1], [0, 1, 3, 7, 8, 9, 10, 11]);
    // CTA 0's barrier releases: SAWS moves on to CTA 1, the CTA still waiting.
    assert_eq!(saws[2], [7, 0, 1, 2, 3, 8, 9, 10, 11]);
    assert_eq!(mwf[2], [7, 0, 1, 2, 3, 8, 9, 10, 11]);
}

#[test]
fn cff_fetches_the_warp_the_issue_stage_picks_next() {
    // One scheduler, GTO: the greedy warp (w2) leads the issue order. Under the default rule
    // (BAWS §2.2, GPGPU-Sim: only an empty I-buffer) CFF takes the first *empty* warp of the
    // order, where RR takes the next empty warp after the last one it fetched for.
    let mut sm = Crafted::<Gto>::new(1, 4, 1, &params());
    sm.issue(2);
    sm.set_ib(&[1, 2, 0, 0]);
    assert_eq!(sm.order(0)[0], 2);
    assert_eq!(sm.fetch(&mut Cff::new(CffMerge::RoundRobin), 1), [2]);
    sm.set_ib(&[0, 2, 1, 0]);
    assert_eq!(sm.fetch(&mut Cff::new(CffMerge::RoundRobin), 2), [0, 3]);
    assert_eq!(sm.fetch(&mut RoundRobin::default(), 1), [0]);
    // With the `partial` rule CFF refills the greedy warp while it has a free entry.
    assert_eq!(sm.fetch(&mut cff_partial(CffMerge::RoundRobin), 1), [2]);
    // A full I-buffer or a pending I-cache miss makes the next warp of the order the pick.
    sm.w.set_ib_n(WarpSlot(2), 2);
    assert_eq!(sm.fetch(&mut cff_partial(CffMerge::RoundRobin), 1), [0]);
    sm.w.set_ib_n(WarpSlot(2), 1);
    sm.w.fetch_wait[2] = 99;
    assert_eq!(sm.fetch(&mut cff_partial(CffMerge::RoundRobin), 2), [0, 3]);
    // Finished warps are never fetched.
    sm.w.fetch_wait[2] = 0;
    sm.finish(2);
    assert_eq!(sm.fetch(&mut cff_partial(CffMerge::RoundRobin), 1), [0]);
}

#[test]
fn cff_block_rule_needs_room_for_a_whole_fetch_block() {
    // 4-entry I-buffers, fetches of 2 instructions: `block` makes a warp eligible with 0, 1 or
    // 2 valid entries, `empty` only with 0, `partial` with up to 3.
    let mut sm = Crafted::<Gto>::with_ibuffers(1, 4, 1, &params(), 4, 2);
    sm.issue(2);
    sm.issue(3);
    sm.set_ib(&[4, 1, 2, 3]);
    assert_eq!(sm.order(0)[0], 3);
    let pick =
        |sm: &mut Crafted<Gto>, rule| sm.fetch(&mut Cff::with_rule(CffMerge::RoundRobin, rule), 4);
    assert_eq!(pick(&mut sm, FetchEligibility::Block), [1, 2]);
    assert_eq!(pick(&mut sm, FetchEligibility::Partial), [3, 1, 2]);
    assert_eq!(pick(&mut sm, FetchEligibility::Empty), Vec::<u16>::new());
    sm.w.set_ib_n(WarpSlot(0), 0);
    assert_eq!(pick(&mut sm, FetchEligibility::Empty), [0]);
}

/// CFF choosing among warps with a free I-buffer entry (the `partial` sensitivity rule).
fn cff_partial(merge: CffMerge) -> Cff {
    Cff::with_rule(merge, FetchEligibility::Partial)
}

#[test]
fn cff_follows_mwf_to_the_critical_cta() {
    let mut sm = figure7::<MwfLrr>(&params());
    sm.set_ib(&[1; 12]);
    // The first runnable warp of the CTA with the most waiters.
    assert_eq!(sm.fetch(&mut cff_partial(CffMerge::RoundRobin), 1), [8]);
    sm.w.set_ib_n(WarpSlot(8), 2);
    assert_eq!(sm.fetch(&mut cff_partial(CffMerge::RoundRobin), 1), [4]);
    // Only when no runnable warp can take an instruction do the waiting ones get a turn.
    for s in [0, 1, 3, 4, 6] {
        sm.w.set_ib_n(WarpSlot(s), 2);
    }
    assert_eq!(sm.fetch(&mut cff_partial(CffMerge::RoundRobin), 1), [9]);
}

#[test]
fn cff_merges_the_schedulers_orders_round_robin_or_by_rank() {
    // Two schedulers under MWF(GTO); CTA 1 (slots 4–7) has a waiter, so both orders start there.
    let mut sm = Crafted::<MwfGto>::new(2, 4, 2, &params());
    sm.arrive(5);
    sm.set_ib(&[0; 8]);
    let mut rr = cff_partial(CffMerge::RoundRobin);
    // Turns alternate between the schedulers' heads: 4 (scheduler 0), then 7 (scheduler 1).
    assert_eq!(sm.fetch(&mut rr, 1), [4]);
    assert_eq!(sm.fetch(&mut rr, 1), [7]);
    assert_eq!(sm.fetch(&mut rr, 1), [4]);
    assert_eq!(sm.fetch(&mut rr, 3), [7, 4, 1]);
    // By rank: the heads of both orders, then the second warps, scheduler 0 first.
    let mut rank = cff_partial(CffMerge::Rank);
    assert_eq!(sm.fetch(&mut rank, 4), [4, 7, 6, 1]);
    assert_eq!(sm.fetch(&mut rank, 1), [4]);
}

#[test]
fn cff_reads_two_level_pending_warps_after_the_active_set() {
    let mut p = params();
    p.tls.active = 2;
    let mut sm = Crafted::<Tls>::new(1, 6, 1, &p);
    assert_eq!(sm.order(0), [0, 1]);
    sm.set_ib(&[2, 2, 0, 0, 0, 0]);
    // The active set is full up; the pending FIFO's front is next.
    assert_eq!(sm.fetch(&mut cff_partial(CffMerge::RoundRobin), 2), [2, 3]);
}

#[test]
fn fef_fetches_the_emptiest_i_buffer_oldest_first() {
    let mut sm = Crafted::<Gto>::new(1, 4, 1, &params());
    sm.set_ib(&[2, 1, 1, 2]);
    assert_eq!(sm.fetch(&mut Fef, 1), [1]);
    sm.w.age = vec![0, 5, 3, 1];
    assert_eq!(sm.fetch(&mut Fef, 2), [2, 1]);
    sm.set_ib(&[2, 2, 2, 2]);
    assert!(sm.fetch(&mut Fef, 1).is_empty());
    sm.w.set_ib_n(WarpSlot(3), 0);
    sm.finish(3);
    assert!(sm.fetch(&mut Fef, 1).is_empty());
}

/// GTO's memoised `order` (rebuilt from a waiting mask when its inputs change) is its
/// definition, `current_order`, after every random barrier arrival, release, issue, finish
/// and re-ageing.
#[test]
fn gto_memoised_order_is_its_definition() {
    let mut sm = Crafted::<Gto>::new(6, 4, 2, &params());
    let mut x = 0x2545_f491_4f6c_dd1du64;
    let mut rand = move |n: u64| {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        x % n
    };
    for step in 0..5_000 {
        let slot = rand(24) as u16;
        match rand(6) {
            0 if !sm.w.waiting()[slot as usize] => sm.arrive(slot),
            1 => sm.release(slot as usize / 4),
            2 => {
                let ages: Vec<u64> = (0..24).map(|_| rand(1000)).collect();
                sm.set_ages(&ages);
            }
            3 if !sm.w.waiting()[slot as usize] && rand(8) == 0 => sm.finish(slot),
            _ => sm.issue(slot),
        }
        for k in 0..2 {
            let mut want = Vec::new();
            sm.policies[k].current_order(&sm.shared, &sm.slots[k], &sm.view(), &mut want);
            assert_eq!(sm.order(k), want, "step {step}, scheduler {k}");
        }
    }
}
