//! baws_pvc: BAWS "PVC" — MapReduce page view count: every distinct (url, client) view of a
//! web log with its number of occurrences. Map + combine in a shared-memory hash table per
//! chunk, merged into a global hash table, then compacted into a list.

use std::collections::HashMap;

use rand::Rng;
use warpsim_core::device::{Arg, Device, Dim3};

use crate::program::{Ctx, Outcome, Size, SuiteError};
use crate::rng;

const NAME: &str = "baws_pvc";
pub(crate) const PTX: &str = kernel_file!(baws_pvc, "ptx");
const MAP: &str = "_Z6pvcMapPKjPjS1_ii";
const COMPACT: &str = "_Z10pvcCompactPKjS0_PjS1_S1_i";
/// PVC_THREADS and PVC_EMPTY in the .cu.
const THREADS: u32 = 256;
const EMPTY: u32 = u32::MAX;

/// A Zipf-like draw from 0..n: small ids are far more popular.
pub(crate) fn popular(r: &mut impl Rng, n: u32) -> u32 {
    let x: f64 = r.gen_range(0.0f64..1.0);
    ((n as f64).powf(x) - 1.0) as u32 % n
}

pub(crate) fn run(dev: &mut Device, size: Size) -> Result<Outcome, SuiteError> {
    // Small: 50 000 log entries in 98 chunks of 512 on 90 CTAs. Paper: 2M entries.
    let (n, urls, clients, ctas) = size.pick(
        (50_000usize, 2000u32, 400u32, 90u32),
        (1 << 21, 20_000, 4000, 90),
    );
    let mut r = rng::rng(NAME, 0);
    let log: Vec<u32> = (0..n)
        .map(|_| popular(&mut r, urls) << 16 | popular(&mut r, clients))
        .collect();
    let mut counts: HashMap<u32, u32> = HashMap::new();
    for &k in &log {
        *counts.entry(k).or_default() += 1;
    }
    let mut expected: Vec<(u32, u32)> = counts.into_iter().collect();
    expected.sort_unstable();
    let table_bits = (2 * expected.len()).next_power_of_two().trailing_zeros();
    let slots = 1usize << table_bits;

    let mut ctx = Ctx::new(dev, NAME, PTX)?;
    let (kmap, kcompact) = (ctx.kernel(MAP)?, ctx.kernel(COMPACT)?);
    let dlog = ctx.upload(&log)?;
    let dtable_keys = ctx.upload(&vec![EMPTY; slots])?;
    let dtable_counts = ctx.zeroed::<u32>(slots)?;
    let dout_keys = ctx.zeroed::<u32>(slots)?;
    let dout_counts = ctx.zeroed::<u32>(slots)?;
    let dout_len = ctx.zeroed::<u32>(1)?;
    let block = Dim3::new(THREADS, 1, 1);
    ctx.launch(
        kmap,
        Dim3::new(ctas, 1, 1),
        block,
        0,
        &[
            Arg::Ptr(dlog),
            Arg::Ptr(dtable_keys),
            Arg::Ptr(dtable_counts),
            Arg::I32(n as i32),
            Arg::I32(table_bits as i32),
        ],
    )?;
    ctx.launch(
        kcompact,
        Dim3::new(slots.div_ceil(THREADS as usize) as u32, 1, 1),
        block,
        0,
        &[
            Arg::Ptr(dtable_keys),
            Arg::Ptr(dtable_counts),
            Arg::Ptr(dout_keys),
            Arg::Ptr(dout_counts),
            Arg::Ptr(dout_len),
            Arg::I32(slots as i32),
        ],
    )?;

    // The hash table: the distinct keys with their counts, nothing else (slot positions
    // depend on the insertion order).
    let tkeys = ctx.download::<u32>(dtable_keys, slots)?;
    let tcounts = ctx.download::<u32>(dtable_counts, slots)?;
    let mut table: Vec<(u32, u32)> = Vec::new();
    for (&k, &c) in tkeys.iter().zip(&tcounts) {
        if k != EMPTY {
            table.push((k, c));
        } else if c != 0 {
            return Err(ctx.invalid(format!("an empty table slot has count {c}")));
        }
    }
    table.sort_unstable();
    ctx.exact("hash table (key, count), sorted", &table, &expected)?;
    // The compacted list, in any order.
    let len = ctx.download::<u32>(dout_len, 1)?[0] as usize;
    ctx.exact("compacted length", &[len], &[expected.len()])?;
    let okeys = ctx.download::<u32>(dout_keys, len)?;
    let ocounts = ctx.download::<u32>(dout_counts, len)?;
    let mut list: Vec<(u32, u32)> = okeys.into_iter().zip(ocounts).collect();
    list.sort_unstable();
    ctx.exact("compacted (key, count) list, sorted", &list, &expected)?;
    ctx.finish("")
}
