//! baws_pvr: BAWS "PVR" — MapReduce page view rank: the number of distinct views of every url
//! (shared-memory hash combine per chunk, global atomics), then each url's rank by view count
//! (two urls per CTA: every thread counts the urls that beat them among a strided share of
//! the counts, and a shared-memory tree adds the 256 counts) and the urls in rank order.

use std::collections::HashSet;

use rand::seq::SliceRandom;
use warpsim_core::device::{Arg, Device, Dim3};

use super::baws_pvc::popular;
use crate::program::{Ctx, Outcome, Size, SuiteError};
use crate::rng;

const NAME: &str = "baws_pvr";
pub(crate) const PTX: &str = kernel_file!(baws_pvr, "ptx");
const COUNT: &str = "_Z8pvrCountPKjPji";
const RANK: &str = "_Z7pvrRankPKjPjS1_i";
/// PVR_THREADS in the .cu.
const THREADS: u32 = 256;
/// PVR_RANK_URLS in the .cu: urls ranked per pvrRank CTA.
const RANK_URLS: u32 = 2;

pub(crate) fn run(dev: &mut Device, size: Size) -> Result<Outcome, SuiteError> {
    // Small: 1024 urls (ranking is quadratic in the urls; 512 rank CTAs), ~40 000 distinct
    // views on 78 chunks. Paper: 8192 urls (4096 rank CTAs), ~1M views.
    let (urls, draws, clients, ctas) = size.pick(
        (1024u32, 45_000usize, 1000u32, 90u32),
        (8192, 1_200_000, 20_000, 90),
    );
    let mut r = rng::rng(NAME, 0);
    // The distinct (url, client) views page view count would produce, in scrambled order.
    let mut seen = HashSet::new();
    let mut views: Vec<u32> = Vec::new();
    for _ in 0..draws {
        let (u, c) = (popular(&mut r, urls), popular(&mut r, clients));
        if seen.insert((u, c)) {
            views.push(u);
        }
    }
    views.shuffle(&mut r);
    let n = views.len();

    let mut counts = vec![0u32; urls as usize];
    for &u in &views {
        counts[u as usize] += 1;
    }
    let mut order: Vec<u32> = (0..urls).collect();
    order.sort_by_key(|&u| (std::cmp::Reverse(counts[u as usize]), u));
    let mut rank = vec![0u32; urls as usize];
    for (i, &u) in order.iter().enumerate() {
        rank[u as usize] = i as u32;
    }

    let mut ctx = Ctx::new(dev, NAME, PTX)?;
    let (kcount, krank) = (ctx.kernel(COUNT)?, ctx.kernel(RANK)?);
    let dviews = ctx.upload(&views)?;
    let dcounts = ctx.zeroed::<u32>(urls as usize)?;
    let drank = ctx.zeroed::<u32>(urls as usize)?;
    let dorder = ctx.zeroed::<u32>(urls as usize)?;
    let block = Dim3::new(THREADS, 1, 1);
    ctx.launch(
        kcount,
        Dim3::new(ctas, 1, 1),
        block,
        0,
        &[Arg::Ptr(dviews), Arg::Ptr(dcounts), Arg::I32(n as i32)],
    )?;
    ctx.launch(
        krank,
        Dim3::new(urls.div_ceil(RANK_URLS), 1, 1),
        block,
        0,
        &[
            Arg::Ptr(dcounts),
            Arg::Ptr(drank),
            Arg::Ptr(dorder),
            Arg::I32(urls as i32),
        ],
    )?;
    let got_counts = ctx.download::<u32>(dcounts, urls as usize)?;
    ctx.exact("views per url", &got_counts, &counts)?;
    let got_rank = ctx.download::<u32>(drank, urls as usize)?;
    ctx.exact("rank", &got_rank, &rank)?;
    let got_order = ctx.download::<u32>(dorder, urls as usize)?;
    ctx.exact("urls in rank order", &got_order, &order)?;
    ctx.finish("")
}
