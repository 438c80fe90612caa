//! baws_octp: BAWS "OCTP" — octree partitioning of a clustered particle set, level by level:
//! one launch per level splits every node holding more than `LEAF_MAX` particles into its 8
//! octants (shared-memory counters, scan, scatter), and the host reads the new level back to
//! decide the next split list.

use rand::Rng;
use warpsim_core::device::{Arg, DevPtr, Device, Dim3};

use crate::program::{Ctx, Outcome, Size, SuiteError};
use crate::rng;

const NAME: &str = "baws_octp";
pub(crate) const PTX: &str = kernel_file!(baws_octp, "ptx");
const KERNEL: &str = "_Z8octSplitPK4NodePS_PKiPK6float4PiS8_i";
/// OCT_THREADS in the .cu.
const THREADS: u32 = 256;
const LEAF_MAX: i32 = 64;
/// Deepest level a node may be split into (cells are 10 bits per axis in the kernel).
const MAX_LEVEL: i32 = 8;
/// Grid of a split launch: at most 15 SMs x 4 CTAs x 2, grid-stride beyond.
const MAX_CTAS: usize = 120;

/// The kernel's `Node`: start, count, level, cell (ix | iy << 10 | iz << 20).
type Node = [i32; 4];

fn octant(p: &[f32; 4], node: &Node) -> usize {
    let half = 2.0f32.powi(-(node[2] + 1));
    let mid = |axis: i32| (2 * ((node[3] >> (10 * axis)) & 1023) + 1) as f32 * half;
    (p[0] >= mid(0)) as usize | ((p[1] >= mid(1)) as usize) << 1 | ((p[2] >= mid(2)) as usize) << 2
}

fn children(node: &Node, counts: &[i32; 8]) -> [Node; 8] {
    let mut start = node[0];
    std::array::from_fn(|o| {
        let c = node[3];
        let cell = ((c & 1023) * 2 + (o as i32 & 1))
            | ((((c >> 10) & 1023) * 2 + ((o as i32 >> 1) & 1)) << 10)
            | ((((c >> 20) & 1023) * 2 + ((o as i32 >> 2) & 1)) << 20);
        let ch = [start, counts[o], node[2] + 1, cell];
        start += counts[o];
        ch
    })
}

fn splits(level: &[Node]) -> Vec<i32> {
    (0..level.len() as i32)
        .filter(|&i| level[i as usize][1] > LEAF_MAX && level[i as usize][2] < MAX_LEVEL)
        .collect()
}

pub(crate) fn run(dev: &mut Device, size: Size) -> Result<Outcome, SuiteError> {
    // Small: 40 000 particles. Paper: 1M.
    let n = size.pick(40_000usize, 1 << 20);
    let mut r = rng::rng(NAME, 0);
    // 70% in 12 Gaussian-ish clusters of varied width, 30% uniform: an irregular tree.
    let centres: Vec<([f32; 3], f32)> = (0..12)
        .map(|_| {
            (
                [
                    r.gen_range(0.1..0.9),
                    r.gen_range(0.1..0.9),
                    r.gen_range(0.1..0.9),
                ],
                r.gen_range(0.01..0.08),
            )
        })
        .collect();
    let pos: Vec<[f32; 4]> = (0..n)
        .map(|_| {
            if r.gen_bool(0.7) {
                let (c, w) = centres[r.gen_range(0..centres.len())];
                let mut p = [0.0f32; 4];
                for a in 0..3 {
                    let off: f32 = (0..3).map(|_| r.gen_range(-1.0f32..1.0)).sum();
                    p[a] = (c[a] + w * off).clamp(0.0, 0.999_999);
                }
                p
            } else {
                [r.gen::<f32>(), r.gen::<f32>(), r.gen::<f32>(), 0.0]
            }
        })
        .collect();

    // Reference: the same level-by-level split, stable within an octant.
    let mut ref_idx: Vec<i32> = (0..n as i32).collect();
    let mut ref_levels: Vec<Vec<Node>> = vec![vec![[0, n as i32, 0, 0]]];
    loop {
        let level = ref_levels.last().expect("root level");
        let list = splits(level);
        if list.is_empty() {
            break;
        }
        let mut next = Vec::with_capacity(8 * list.len());
        for &s in &list {
            let node = level[s as usize];
            let range = node[0] as usize..(node[0] + node[1]) as usize;
            let mut counts = [0i32; 8];
            let mut buckets: [Vec<i32>; 8] = Default::default();
            for &p in &ref_idx[range.clone()] {
                let o = octant(&pos[p as usize], &node);
                counts[o] += 1;
                buckets[o].push(p);
            }
            ref_idx.splice(range, buckets.concat());
            next.extend(children(&node, &counts));
        }
        ref_levels.push(next);
    }

    let mut ctx = Ctx::new(dev, NAME, PTX)?;
    let k = ctx.kernel(KERNEL)?;
    let flat: Vec<f32> = pos.iter().flatten().copied().collect();
    let dpos = ctx.upload(&flat)?;
    let idx: Vec<i32> = (0..n as i32).collect();
    let didx = ctx.upload(&idx)?;
    let dscratch = ctx.zeroed::<i32>(n)?;
    let mut dlevel: DevPtr = ctx.upload(&[[0i32, n as i32, 0, 0]])?;
    let mut level: Vec<Node> = vec![[0, n as i32, 0, 0]];
    let mut depth = 0;
    loop {
        ctx.exact(
            &format!("nodes of level {depth}"),
            &level,
            &ref_levels[depth],
        )?;
        let list = splits(&level);
        if list.is_empty() {
            break;
        }
        let dlist = ctx.upload(&list)?;
        let dchildren = ctx.zeroed::<[i32; 4]>(8 * list.len())?;
        ctx.launch(
            k,
            Dim3::new(list.len().min(MAX_CTAS) as u32, 1, 1),
            Dim3::new(THREADS, 1, 1),
            0,
            &[
                Arg::Ptr(dlevel),
                Arg::Ptr(dchildren),
                Arg::Ptr(dlist),
                Arg::Ptr(dpos),
                Arg::Ptr(didx),
                Arg::Ptr(dscratch),
                Arg::I32(list.len() as i32),
            ],
        )?;
        level = ctx.download::<[i32; 4]>(dchildren, 8 * list.len())?;
        dlevel = dchildren;
        depth += 1;
        if depth >= ref_levels.len() {
            return Err(ctx.invalid(format!(
                "the device tree is deeper than the reference's {}",
                ref_levels.len()
            )));
        }
    }
    if depth + 1 != ref_levels.len() {
        return Err(ctx.invalid(format!(
            "the device tree has {} levels, the reference {}",
            depth + 1,
            ref_levels.len()
        )));
    }

    // Every leaf's range of idx holds the reference leaf's particles (order within an octant
    // depends on the schedule of the scatter's atomics).
    let got_idx = ctx.download::<i32>(didx, n)?;
    let mut leaves = 0u64;
    for (l, nodes) in ref_levels.iter().enumerate() {
        let split: Vec<i32> = if l + 1 < ref_levels.len() {
            splits(nodes)
        } else {
            Vec::new()
        };
        for (i, node) in nodes.iter().enumerate() {
            if node[1] == 0 || split.binary_search(&(i as i32)).is_ok() {
                continue;
            }
            let range = node[0] as usize..(node[0] + node[1]) as usize;
            let mut got = got_idx[range.clone()].to_vec();
            let mut want = ref_idx[range].to_vec();
            got.sort_unstable();
            want.sort_unstable();
            ctx.exact(
                &format!("particles of leaf {i} of level {l} (sorted)"),
                &got,
                &want,
            )?;
            leaves += 1;
        }
    }
    if leaves == 0 {
        return Err(ctx.invalid("no leaves"));
    }
    ctx.finish("")
}
