//! baws_bt: BAWS "BT" — Rodinia-style B+tree lookups: findK (exact-key queries) and
//! findRangeK (key-range queries), one CTA per query walking the tree level by level.

use rand::Rng;
use warpsim_core::device::{Arg, Device, Dim3};

use crate::program::{Ctx, Outcome, Size, SuiteError};
use crate::rng;

const NAME: &str = "baws_bt";
pub(crate) const PTX: &str = kernel_file!(baws_bt, "ptx");
const FIND_K: &str = "_Z7btFindKPKiS0_S0_S0_Piii";
const FIND_RANGE_K: &str = "_Z12btFindRangeKPKiS0_S0_S0_S0_S0_PiS1_ii";
/// BT_THREADS and BT_ORDER in the .cu.
const THREADS: u32 = 256;
const ORDER: usize = 256;

/// The tree in the kernels' array layout.
struct Tree {
    nkeys: Vec<i32>,
    keys: Vec<i32>,
    ptrs: Vec<i32>,
    base: Vec<i32>,
    levels: usize,
}

/// Bulk-loads sorted distinct `keys` (with `records`) into nodes filled to between half and
/// all of their capacity, then numbers the nodes level by level from the root (node 0).
fn build(keys: &[i32], records: &[i32], r: &mut impl Rng) -> Tree {
    // A node under construction: keys, pointers (children as indices into the level below,
    // or records), smallest key of its subtree, rank of its first key (leaves).
    struct Tmp {
        keys: Vec<i32>,
        ptrs: Vec<i32>,
        min: i32,
        base: i32,
    }
    let mut levels: Vec<Vec<Tmp>> = Vec::new();
    let mut leaves = Vec::new();
    let mut i = 0;
    while i < keys.len() {
        let m = r.gen_range(ORDER / 2..=ORDER).min(keys.len() - i);
        leaves.push(Tmp {
            keys: keys[i..i + m].to_vec(),
            ptrs: records[i..i + m].to_vec(),
            min: keys[i],
            base: i as i32,
        });
        i += m;
    }
    levels.push(leaves);
    while levels.last().expect("a level").len() > 1 {
        let below = levels.last().expect("a level");
        let mut up = Vec::new();
        let mut c = 0;
        while c < below.len() {
            // ORDER/2 + 1 ..= ORDER + 1 children; never leave a single child for the last node.
            let mut m = r.gen_range(ORDER / 2 + 1..=ORDER + 1).min(below.len() - c);
            if below.len() - c - m == 1 {
                m -= 1;
            }
            let kids = c..c + m;
            up.push(Tmp {
                keys: kids.clone().skip(1).map(|k| below[k].min).collect(),
                ptrs: kids.clone().map(|k| k as i32).collect(),
                min: below[c].min,
                base: 0,
            });
            c += m;
        }
        levels.push(up);
    }
    levels.reverse(); // root level first
    let offsets: Vec<usize> = levels
        .iter()
        .scan(0, |acc, l| {
            let o = *acc;
            *acc += l.len();
            Some(o)
        })
        .collect();
    let total: usize = levels.iter().map(Vec::len).sum();
    let mut t = Tree {
        nkeys: vec![0; total],
        keys: vec![0; total * ORDER],
        ptrs: vec![0; total * (ORDER + 1)],
        base: vec![0; total],
        levels: levels.len(),
    };
    for (l, level) in levels.iter().enumerate() {
        let leaf = l + 1 == levels.len();
        for (i, node) in level.iter().enumerate() {
            let id = offsets[l] + i;
            t.nkeys[id] = node.keys.len() as i32;
            t.keys[id * ORDER..id * ORDER + node.keys.len()].copy_from_slice(&node.keys);
            for (p, &v) in node.ptrs.iter().enumerate() {
                t.ptrs[id * (ORDER + 1) + p] = if leaf {
                    v
                } else {
                    (offsets[l + 1] + v as usize) as i32
                };
            }
            t.base[id] = node.base;
        }
    }
    t
}

pub(crate) fn run(dev: &mut Device, size: Size) -> Result<Outcome, SuiteError> {
    // Small: 60 000 keys (3 levels), 160 queries of each kind (one CTA each: 2 fills of
    // 15 SMs x 5). Paper: Rodinia's 1M keys, 10 000 findK and 6 000 findRangeK queries (its
    // command file's `k 10000` and `j 6000 3000`; the PRO paper's Table II counts).
    let (nkeys, queries, range_queries) =
        size.pick((60_000usize, 160usize, 160usize), (1 << 20, 10_000, 6_000));
    let mut r = rng::rng(NAME, 0);
    let span = 8 * nkeys as i32;
    let mut keys: Vec<i32> = (0..nkeys + nkeys / 8)
        .map(|_| r.gen_range(0..span))
        .collect();
    keys.sort_unstable();
    keys.dedup();
    let records: Vec<i32> = keys.iter().map(|&k| k.wrapping_mul(7) ^ 0x5a5a).collect();
    let tree = build(&keys, &records, &mut r);

    // findK: half present keys, half arbitrary values (mostly absent, some off either end).
    let find: Vec<i32> = (0..queries)
        .map(|q| {
            if q % 2 == 0 {
                keys[r.gen_range(0..keys.len())]
            } else {
                r.gen_range(-100..span + 100)
            }
        })
        .collect();
    let exp_find: Vec<i32> = find
        .iter()
        .map(|k| keys.binary_search(k).map_or(-1, |i| records[i]))
        .collect();
    // findRangeK: [lo, hi] spanning from nothing to a few leaves.
    let lows: Vec<i32> = (0..range_queries)
        .map(|_| r.gen_range(-100..span))
        .collect();
    let highs: Vec<i32> = lows.iter().map(|&lo| lo + r.gen_range(0..3000)).collect();
    let exp_start: Vec<i32> = lows
        .iter()
        .map(|&lo| keys.partition_point(|&k| k < lo) as i32)
        .collect();
    let exp_len: Vec<i32> = highs
        .iter()
        .zip(&exp_start)
        .map(|(&hi, &s)| keys.partition_point(|&k| k <= hi) as i32 - s)
        .collect();

    let mut ctx = Ctx::new(dev, NAME, PTX)?;
    let (kfind, krange) = (ctx.kernel(FIND_K)?, ctx.kernel(FIND_RANGE_K)?);
    let dnkeys = ctx.upload(&tree.nkeys)?;
    let dkeys = ctx.upload(&tree.keys)?;
    let dptrs = ctx.upload(&tree.ptrs)?;
    let dbase = ctx.upload(&tree.base)?;
    let dfind = ctx.upload(&find)?;
    let dlows = ctx.upload(&lows)?;
    let dhighs = ctx.upload(&highs)?;
    let dout = ctx.zeroed::<i32>(queries)?;
    let dstart = ctx.zeroed::<i32>(range_queries)?;
    let dlen = ctx.zeroed::<i32>(range_queries)?;
    let block = Dim3::new(THREADS, 1, 1);
    let levels = Arg::I32(tree.levels as i32);
    ctx.launch(
        kfind,
        Dim3::new(queries as u32, 1, 1),
        block,
        0,
        &[
            Arg::Ptr(dnkeys),
            Arg::Ptr(dkeys),
            Arg::Ptr(dptrs),
            Arg::Ptr(dfind),
            Arg::Ptr(dout),
            Arg::I32(queries as i32),
            levels.clone(),
        ],
    )?;
    ctx.launch(
        krange,
        Dim3::new(range_queries as u32, 1, 1),
        block,
        0,
        &[
            Arg::Ptr(dnkeys),
            Arg::Ptr(dkeys),
            Arg::Ptr(dptrs),
            Arg::Ptr(dbase),
            Arg::Ptr(dlows),
            Arg::Ptr(dhighs),
            Arg::Ptr(dstart),
            Arg::Ptr(dlen),
            Arg::I32(range_queries as i32),
            levels,
        ],
    )?;
    let got = ctx.download::<i32>(dout, queries)?;
    ctx.exact("findK records", &got, &exp_find)?;
    let got_start = ctx.download::<i32>(dstart, range_queries)?;
    ctx.exact("findRangeK start", &got_start, &exp_start)?;
    let got_len = ctx.download::<i32>(dlen, range_queries)?;
    ctx.exact("findRangeK length", &got_len, &exp_len)?;
    if tree.levels < 3 {
        return Err(ctx.invalid(format!("the tree has only {} levels", tree.levels)));
    }
    ctx.finish("")
}
