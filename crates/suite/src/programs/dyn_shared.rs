//! dyn_shared: dynamic shared memory sized at launch: a block-wise reverse, and a full
//! inclusive scan in three launches (scan chunks, scan chunk totals, add offsets). The scan
//! kernel prints one line per launch.

use warpsim_core::device::{Arg, DevPtr, Device, Dim3};

use crate::program::{div_up, Ctx, Outcome, Size, SuiteError};
use crate::rng;

const NAME: &str = "dyn_shared";
pub(crate) const PTX: &str = kernel_file!(dyn_shared, "ptx");
const REVERSE: &str = "_Z12blockReversePiPKii";
const SCAN: &str = "_Z9blockScanPjS_PKji";
const ADD: &str = "_Z10addOffsetsPjPKji";

pub(crate) fn run(dev: &mut Device, size: Size) -> Result<Outcome, SuiteError> {
    let n = size.pick(3000usize, 200_000);
    // The reverse uses a CTA size that is not a power of two; the scan a power of two.
    let (rev_threads, scan_threads) = (192usize, 256usize);
    let mut r = rng::rng(NAME, 0);
    let rev_in = rng::i32s(&mut r, n, i32::MIN, i32::MAX);
    let scan_in = rng::u32s(&mut r, n, 0, 1000);

    let mut e_rev = vec![0i32; n];
    for (c, chunk) in rev_in.chunks(rev_threads).enumerate() {
        for (j, &v) in chunk.iter().rev().enumerate() {
            e_rev[c * rev_threads + j] = v;
        }
    }
    let mut e_scan = Vec::with_capacity(n);
    let mut acc = 0u32;
    for &v in &scan_in {
        acc = acc.wrapping_add(v);
        e_scan.push(acc);
    }
    let chunks = n.div_ceil(scan_threads);
    // The totals scan runs in one CTA: round the chunk count up to whole warps.
    let totals_threads = chunks.div_ceil(32) * 32;
    if totals_threads > 1024 {
        return Err(SuiteError::Invalid {
            program: NAME,
            message: format!("{chunks} chunks do not fit one CTA"),
        });
    }
    let e_totals: Vec<u32> = (0..chunks)
        .map(|c| e_scan[((c + 1) * scan_threads).min(n) - 1])
        .collect();
    let expected_printf = format!("dyn_shared n={n}\ndyn_shared n={chunks}\n");

    let mut ctx = Ctx::new(dev, NAME, PTX)?;
    let k_rev = ctx.kernel(REVERSE)?;
    let k_scan = ctx.kernel(SCAN)?;
    let k_add = ctx.kernel(ADD)?;

    let drev_in = ctx.upload(&rev_in)?;
    let drev_out = ctx.zeroed::<i32>(n)?;
    ctx.launch(
        k_rev,
        Dim3::new(div_up(n, rev_threads), 1, 1),
        Dim3::new(rev_threads as u32, 1, 1),
        (rev_threads * 4) as u32,
        &[Arg::Ptr(drev_out), Arg::Ptr(drev_in), Arg::I32(n as i32)],
    )?;

    let dscan_in = ctx.upload(&scan_in)?;
    let dscan = ctx.zeroed::<u32>(n)?;
    let dtotals = ctx.zeroed::<u32>(chunks)?;
    let dtotals_scanned = ctx.zeroed::<u32>(chunks)?;
    ctx.launch(
        k_scan,
        Dim3::new(chunks as u32, 1, 1),
        Dim3::new(scan_threads as u32, 1, 1),
        (2 * scan_threads * 4) as u32,
        &[
            Arg::Ptr(dscan),
            Arg::Ptr(dtotals),
            Arg::Ptr(dscan_in),
            Arg::I32(n as i32),
        ],
    )?;
    ctx.launch(
        k_scan,
        Dim3::new(1, 1, 1),
        Dim3::new(totals_threads as u32, 1, 1),
        (2 * totals_threads * 4) as u32,
        &[
            Arg::Ptr(dtotals_scanned),
            Arg::Ptr(DevPtr(0)),
            Arg::Ptr(dtotals),
            Arg::I32(chunks as i32),
        ],
    )?;
    ctx.launch(
        k_add,
        Dim3::new(chunks as u32, 1, 1),
        Dim3::new(scan_threads as u32, 1, 1),
        0,
        &[
            Arg::Ptr(dscan),
            Arg::Ptr(dtotals_scanned),
            Arg::I32(n as i32),
        ],
    )?;

    let got = ctx.download::<i32>(drev_out, n)?;
    ctx.exact("reversed", &got, &e_rev)?;
    // Chunk totals before the scan of totals: chunk sums.
    let e_sums: Vec<u32> = scan_in
        .chunks(scan_threads)
        .map(|c| c.iter().fold(0u32, |a, &v| a.wrapping_add(v)))
        .collect();
    let got = ctx.download::<u32>(dtotals, chunks)?;
    ctx.exact("chunk totals", &got, &e_sums)?;
    let got = ctx.download::<u32>(dtotals_scanned, chunks)?;
    ctx.exact("scanned totals", &got, &e_totals)?;
    let got = ctx.download::<u32>(dscan, n)?;
    ctx.exact("scan", &got, &e_scan)?;
    ctx.finish(&expected_printf)
}
