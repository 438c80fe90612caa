use super::*;
use crate::exec::warp::Frame;

fn frame() -> Frame {
    Frame {
        func: 0,
        reg_base: 0,
        pred_base: 0,
        local_base: 0,
        call_site: 0,
    }
}

fn lanes_of(f: impl Fn(usize) -> u64) -> Lanes {
    std::array::from_fn(f)
}

/// A staged view reads the memory as it was plus its own stores, oldest first, byte by byte;
/// the memory itself changes only at the commit.
#[test]
fn a_staged_view_sees_its_own_stores_and_the_memory_sees_them_at_the_commit() {
    let mut mem = GlobalMemory::new();
    let a = mem.alloc(256).unwrap();
    mem.write_uint(a, 8, 0x1122_3344_5566_7788).unwrap();
    let mut journal = Journal::default();
    {
        let mut g = Global::Staged {
            base: &mem,
            journal: &mut journal,
        };
        g.write_uint(a + 2, 2, 0xaabb).unwrap();
        g.write_uint(a + 3, 1, 0xcc).unwrap(); // a later store over part of the first
        assert_eq!(g.read_uint(a, 8).unwrap(), 0x1122_3344_ccbb_7788);
        assert_eq!(g.read_uint(a + 3, 1).unwrap(), 0xcc);
        assert_eq!(
            g.read_uint(a + 8, 4).unwrap(),
            0,
            "outside the stores: the memory"
        );
        let addr = lanes_of(|l| a + 64 + 4 * l as u64);
        let vals = lanes_of(|l| l as u64 * 3);
        g.write_lanes::<4>(&addr, 0x0000_00ff, &vals).unwrap();
        let mut out = [0u64; WARP_SIZE];
        g.read_lanes::<4>(&addr, u32::MAX, &mut out).unwrap();
        assert_eq!(out[5], 15);
        assert_eq!(out[8], 0, "lane 8 stored nothing");
    }
    assert_eq!(mem.read_uint(a, 8).unwrap(), 0x1122_3344_5566_7788);
    journal
        .commit(&mut mem, |_, _| -> Result<(), ()> { unreachable!() })
        .unwrap();
    assert_eq!(mem.read_uint(a, 8).unwrap(), 0x1122_3344_ccbb_7788);
    assert_eq!(mem.read_uint(a + 64 + 4 * 7, 4).unwrap(), 21);
    assert!(journal.is_empty());
}

/// A staged store is checked like a direct one: out of bounds is an error and nothing of the
/// faulting lane is staged; the lanes below it are, as a direct store writes them.
#[test]
fn a_staged_store_faults_where_a_direct_one_would() {
    let mut mem = GlobalMemory::new();
    let a = mem.alloc(256).unwrap();
    let mut journal = Journal::default();
    let mut g = Global::Staged {
        base: &mem,
        journal: &mut journal,
    };
    assert_eq!(g.write_uint(a + 256, 4, 1), Err(GlobalFault::OutOfBounds));
    let addr = lanes_of(|l| if l == 3 { a + 1024 } else { a + 4 * l as u64 });
    let vals = lanes_of(|l| l as u64 + 1);
    assert_eq!(g.write_lanes::<4>(&addr, 0xff, &vals), Err(3));
    assert_eq!(g.read_uint(a + 8, 4).unwrap(), 3, "lane 2 staged");
    assert_eq!(g.read_uint(a + 16, 4).unwrap(), 0, "lane 4 not");
    let misaligned = lanes_of(|l| a + 2 + 8 * l as u64);
    assert_eq!(
        g.write_vec_lanes::<4>(&misaligned, 1, 2, &[vals; 4]),
        Err(0)
    );
}

/// Deferred operations run at their place among the stores: a store made before an atomic is
/// what the atomic reads, one made after it overwrites its result.
#[test]
fn deferred_operations_commit_in_the_order_they_were_made() {
    let mut mem = GlobalMemory::new();
    let a = mem.alloc(64).unwrap();
    let mut journal = Journal::default();
    let op = |n| DeferredOp::Free {
        ptr: lanes_of(|_| n),
    };
    {
        let mut g = Global::Staged {
            base: &mem,
            journal: &mut journal,
        };
        g.write_uint(a, 4, 5).unwrap();
        let j = g.journal().unwrap();
        j.set_warp(7, 0, 3);
        j.defer(frame(), 1, op(1));
        g.write_uint(a, 4, 9).unwrap();
        g.journal().unwrap().defer(frame(), 1, op(2));
    }
    let mut seen = Vec::new();
    journal
        .commit(&mut mem, |m, d| -> Result<(), ()> {
            seen.push((d.warp, d.pc, m.read_uint(a, 4).unwrap()));
            Ok(())
        })
        .unwrap();
    assert_eq!(seen, [(7, 3, 5), (7, 3, 9)]);
    assert_eq!(mem.read_uint(a, 4).unwrap(), 9);
}
