//! rod_kmeans: k-means clustering (Rodinia `kmeans`): the device assigns every point to its
//! nearest centroid (centroids in `__constant__` memory, written through the module symbol
//! each iteration) and counts the changes; the host recomputes the centroids and loops until
//! at most 0.1% of the points change cluster (or the iteration limit).
//!
//! The distances are explicitly rounded in feature order, so the host's f32 distances are the
//! device's bit for bit: every iteration's memberships and change count are compared exactly.
//! The centroids are computed once from the (identical) memberships, on the host.

use rand::Rng;
use warpsim_core::device::{Arg, Device, Dim3};

use crate::info::{KernelShape, WorkloadInfo};
use crate::program::{div_up, Ctx, Outcome, Size, SuiteError};
use crate::rng;

const NAME: &str = "rod_kmeans";
pub(crate) const PTX: &str = kernel_file!(rod_kmeans, "ptx");

/// Kernels, CTA shapes, barriers and sizes (`warpsim list workloads`).
pub(crate) const INFO: WorkloadInfo = WorkloadInfo {
    program: NAME,
    kernels: &[KernelShape::x(KERNEL, THREADS as u32)],
    barriers: "none",
    small: "32768 points, 4 features, 5 clusters (256 CTAs), until <= 0.1% of the points change",
    paper: "131072 points, 34 features, 5 clusters (1024 CTAs)",
};
const KERNEL: &str = "_Z8kmAssignPKfiiiPiS1_";
const SYMBOL: &str = "c_clusters";
/// KM_MAXK and KM_MAXF in the .cu.
const MAXK: usize = 16;
const MAXF: usize = 34;
const THREADS: usize = 128;
const MAX_ITERS: usize = 20;

fn nearest(features: &[f32], n: usize, nf: usize, i: usize, clusters: &[f32], k: usize) -> i32 {
    let (mut best, mut best_d) = (0, 0.0f32);
    for c in 0..k {
        let mut d = 0.0f32;
        for f in 0..nf {
            let diff = features[f * n + i] - clusters[c * nf + f];
            d += diff * diff;
        }
        if c == 0 || d < best_d {
            best_d = d;
            best = c as i32;
        }
    }
    best
}

pub(crate) fn run(dev: &mut Device, size: Size) -> Result<Outcome, SuiteError> {
    // Small: 32768 points (256 CTAs of 4 warps: 2 fills at 8 CTAs/SM), 4 features, 5 clusters. Paper: 131072 points
    // with Rodinia's kdd_cup shape (34 features, 5 clusters).
    let (n, nf, k) = size.pick((32768usize, 4usize, 5usize), (131072, 34, 5));
    // Spread of each cluster: wide enough that the clusters overlap and the search needs
    // several iterations (in 34 dimensions the centres lie further apart).
    let spread = size.pick(4.0f32, 14.0);
    let mut r = rng::rng(NAME, 0);
    // Points scattered around k hidden centres (feature-major, as the kernel reads them),
    // drawn from the centres in turn, so the first k points (the initial centroids) lie in
    // different clusters and the search converges in a few iterations.
    let centres = rng::f32s(&mut r, k * nf, 0.0, 30.0);
    let mut features = vec![0.0f32; n * nf];
    for i in 0..n {
        let c = i % k;
        for f in 0..nf {
            features[f * n + i] = centres[c * nf + f] + r.gen_range(-spread..spread);
        }
    }
    // Initial centroids: the first k points, as Rodinia does.
    let mut clusters: Vec<f32> = (0..k)
        .flat_map(|c| (0..nf).map(move |f| (c, f)))
        .map(|(c, f)| features[f * n + c])
        .collect();

    let mut ctx = Ctx::new(dev, NAME, PTX)?;
    let kernel = ctx.kernel(KERNEL)?;
    let (addr, bytes) = ctx.dev.symbol(ctx.module, SYMBOL)?;
    if bytes != (MAXK * MAXF * 4) as u64 || k > MAXK || nf > MAXF {
        return Err(ctx.invalid(format!(
            "symbol `{SYMBOL}` is {bytes} bytes; k = {k}, features = {nf}"
        )));
    }
    let dfeat = ctx.upload(&features)?;
    let mut membership = vec![-1i32; n];
    let dmember = ctx.upload(&membership)?;
    let dchanged = ctx.zeroed::<i32>(1)?;
    for it in 0..MAX_ITERS {
        ctx.dev.write_slice(addr, &clusters)?;
        ctx.dev.write_slice(dchanged, &[0i32])?;
        ctx.launch(
            kernel,
            Dim3::new(div_up(n, THREADS), 1, 1),
            Dim3::new(THREADS as u32, 1, 1),
            0,
            &[
                Arg::Ptr(dfeat),
                Arg::I32(n as i32),
                Arg::I32(nf as i32),
                Arg::I32(k as i32),
                Arg::Ptr(dmember),
                Arg::Ptr(dchanged),
            ],
        )?;
        let mut changed = 0;
        for (i, m) in membership.iter_mut().enumerate() {
            let best = nearest(&features, n, nf, i, &clusters, k);
            if *m != best {
                *m = best;
                changed += 1;
            }
        }
        let got = ctx.download::<i32>(dmember, n)?;
        ctx.exact(&format!("membership, iteration {it}"), &got, &membership)?;
        let got = ctx.download::<i32>(dchanged, 1)?;
        ctx.exact(&format!("changed points, iteration {it}"), &got, &[changed])?;
        // Rodinia's stopping rule: at most 0.1% of the points changed cluster.
        if changed as usize * 1000 <= n {
            break;
        }
        // New centroids: the mean of the members (in f64); an empty cluster keeps its centroid.
        let mut sum = vec![0.0f64; k * nf];
        let mut count = vec![0usize; k];
        for i in 0..n {
            let c = membership[i] as usize;
            count[c] += 1;
            for f in 0..nf {
                sum[c * nf + f] += features[f * n + i] as f64;
            }
        }
        for c in 0..k {
            if count[c] > 0 {
                for f in 0..nf {
                    clusters[c * nf + f] = (sum[c * nf + f] / count[c] as f64) as f32;
                }
            }
        }
    }
    ctx.finish("")
}
