//! baws_ss: BAWS "SS" — MapReduce similarity score: the cosine similarity of every pair of
//! documents (term-frequency vectors) and each document's most similar other document
//! (map: a CTA per query and slice of 256 candidates, one candidate per thread, the slice's
//! best found by a shared-memory tree; reduce: the best of each query's slices).

use rand::Rng;
use warpsim_core::device::{Arg, Device, Dim3};

use crate::program::{Ctx, Outcome, Size, SuiteError};
use crate::rng;

const NAME: &str = "baws_ss";
pub(crate) const PTX: &str = kernel_file!(baws_ss, "ptx");
const NORM: &str = "_Z6ssNormPKiPii";
const SCORE: &str = "_Z7ssScorePKiS0_PiS1_i";
const SIM: &str = "_Z5ssSimPKiS0_Pfi";
const BEST: &str = "_Z6ssBestPKiS0_S0_Pii";
/// SS_THREADS, SS_F and SS_DOCS_PER_CTA in the .cu.
const THREADS: u32 = 256;
const F: usize = 32;
const DOCS_PER_CTA: usize = 8;

pub(crate) fn run(dev: &mut Device, size: Size) -> Result<Outcome, SuiteError> {
    // Small: 256 documents (scoring is quadratic; 256 score CTAs of one query and one slice,
    // 2.8 fills of 15 SMs x 6). Paper: 2048 (2048 x 8 score CTAs).
    let ndocs = size.pick(256usize, 2048);
    let mut r = rng::rng(NAME, 0);
    // Sparse term frequencies 0..=7, at least one non-zero term per document; a few
    // duplicated documents make exact ties for the best match.
    let mut docs: Vec<i32> = Vec::with_capacity(ndocs * F);
    for d in 0..ndocs {
        if d % 37 == 5 {
            let src = r.gen_range(0..d);
            docs.extend_from_within(src * F..(src + 1) * F);
            continue;
        }
        let mut v: Vec<i32> = (0..F)
            .map(|_| {
                if r.gen_bool(0.3) {
                    r.gen_range(1..=7)
                } else {
                    0
                }
            })
            .collect();
        if v.iter().all(|&x| x == 0) {
            v[r.gen_range(0..F)] = 1;
        }
        docs.extend(v);
    }

    let norm: Vec<i32> = docs
        .chunks_exact(F)
        .map(|d| d.iter().map(|x| x * x).sum())
        .collect();
    let mut dots = vec![0i32; ndocs * ndocs];
    for q in 0..ndocs {
        for c in 0..ndocs {
            dots[q * ndocs + c] = (0..F).map(|f| docs[q * F + f] * docs[c * F + f]).sum();
        }
    }
    // IEEE f32: the product of the norms is exact (< 2^24), sqrt and division correctly rounded.
    let sims: Vec<f32> = (0..ndocs * ndocs)
        .map(|i| dots[i] as f32 / ((norm[i / ndocs] * norm[i % ndocs]) as f32).sqrt())
        .collect();
    // Best other document by cosine similarity, compared exactly; ties to the smaller index.
    let best: Vec<i32> = (0..ndocs)
        .map(|q| {
            let mut b: Option<usize> = None;
            for c in (0..ndocs).filter(|&c| c != q) {
                let better = b.is_none_or(|b| {
                    let lhs = (dots[q * ndocs + c] as u64).pow(2) * norm[b] as u64;
                    let rhs = (dots[q * ndocs + b] as u64).pow(2) * norm[c] as u64;
                    lhs > rhs
                });
                if better {
                    b = Some(c);
                }
            }
            b.map_or(-1, |b| b as i32)
        })
        .collect();

    let mut ctx = Ctx::new(dev, NAME, PTX)?;
    let (knorm, kscore, kbest, ksim) = (
        ctx.kernel(NORM)?,
        ctx.kernel(SCORE)?,
        ctx.kernel(BEST)?,
        ctx.kernel(SIM)?,
    );
    let ddocs = ctx.upload(&docs)?;
    // Feature-major copy for ssScore: feature f of document c at f * ndocs + c.
    let docs_t: Vec<i32> = (0..F * ndocs)
        .map(|i| docs[(i % ndocs) * F + i / ndocs])
        .collect();
    let ddocs_t = ctx.upload(&docs_t)?;
    let dnorm = ctx.zeroed::<i32>(ndocs)?;
    let ddots = ctx.zeroed::<i32>(ndocs * ndocs)?;
    // ssScore's candidate slices of THREADS documents, and each (query, slice)'s best.
    let slices = ndocs.div_ceil(THREADS as usize);
    let dpart = ctx.zeroed::<i32>(ndocs * slices)?;
    let dbest = ctx.zeroed::<i32>(ndocs)?;
    let dsims = ctx.zeroed::<f32>(ndocs * ndocs)?;
    let block = Dim3::new(THREADS, 1, 1);
    let groups = Dim3::new((ndocs / DOCS_PER_CTA) as u32, 1, 1);
    let nd = Arg::I32(ndocs as i32);
    ctx.launch(
        knorm,
        groups,
        block,
        0,
        &[Arg::Ptr(ddocs), Arg::Ptr(dnorm), nd.clone()],
    )?;
    ctx.launch(
        kscore,
        Dim3::new(ndocs as u32, slices as u32, 1),
        block,
        0,
        &[
            Arg::Ptr(ddocs_t),
            Arg::Ptr(dnorm),
            Arg::Ptr(ddots),
            Arg::Ptr(dpart),
            nd.clone(),
        ],
    )?;
    ctx.launch(
        kbest,
        Dim3::new(ndocs.div_ceil(THREADS as usize) as u32, 1, 1),
        block,
        0,
        &[
            Arg::Ptr(ddots),
            Arg::Ptr(dnorm),
            Arg::Ptr(dpart),
            Arg::Ptr(dbest),
            nd.clone(),
        ],
    )?;
    ctx.launch(
        ksim,
        Dim3::new((ndocs * ndocs).div_ceil(THREADS as usize) as u32, 1, 1),
        block,
        0,
        &[Arg::Ptr(ddots), Arg::Ptr(dnorm), Arg::Ptr(dsims), nd],
    )?;
    let got_norm = ctx.download::<i32>(dnorm, ndocs)?;
    ctx.exact("squared norms", &got_norm, &norm)?;
    let got_dots = ctx.download::<i32>(ddots, ndocs * ndocs)?;
    ctx.exact("dot products", &got_dots, &dots)?;
    let got_best = ctx.download::<i32>(dbest, ndocs)?;
    ctx.exact("most similar document", &got_best, &best)?;
    let got_sims = ctx.download::<f32>(dsims, ndocs * ndocs)?;
    ctx.exact("cosine similarity", &got_sims, &sims)?;
    ctx.finish("")
}
