//! rod_heartwall: tracks points on a heart wall through a sequence of ultrasound-like frames
//! by template matching (Rodinia `heartwall`): one launch per frame, one CTA per point, each
//! thread scoring one displacement of the search window by the sum of absolute differences
//! to the point's template, a shared-memory argmin picking the move.
//!
//! Integer arithmetic: the reference below repeats the search and the positions and best
//! scores of every frame are compared exactly. The frames are a random texture shifted by a
//! known displacement per frame plus noise, so a sanity check also asks that nearly every
//! point follows the true motion.

use warpsim_core::device::{Arg, Device, Dim3};

use crate::info::{KernelShape, WorkloadInfo};
use crate::program::{Ctx, Outcome, Size, SuiteError};
use crate::rng;
use rand::Rng;

const NAME: &str = "rod_heartwall";
pub(crate) const PTX: &str = kernel_file!(rod_heartwall, "ptx");

/// Kernels, CTA shapes, barriers and sizes (`warpsim list workloads`).
pub(crate) const INFO: WorkloadInfo = WorkloadInfo {
    program: NAME,
    kernels: &[KernelShape::x(KERNEL, 64), KernelShape::x(KERNEL, 256)],
    barriers: "1 after staging the template, then 1 per argmin tree level (6 small / 8 paper)",
    small: "240 points (CTAs of 64 threads), 7 x 7 templates, 8 x 8 search, 192 x 192 frames, 3 tracked frames",
    paper: "360 points (CTAs of 256), 11 x 11 templates, 16 x 16 search, 512 x 512 frames, 6 tracked frames",
};
const KERNEL: &str = "_Z7hwTrackPKhS0_iiPKiS2_PiS3_S3_ii";

struct Geometry {
    w: usize,
    h: usize,
    tsize: i32,
    search: i32,
}

fn at(frame: &[u8], g: &Geometry, x: i32, y: i32) -> i32 {
    frame[y.clamp(0, g.h as i32 - 1) as usize * g.w + x.clamp(0, g.w as i32 - 1) as usize] as i32
}

/// hwTrack for one point: the new position and the best score.
fn track(
    frame: &[u8],
    first: &[u8],
    g: &Geometry,
    init: (i32, i32),
    cur: (i32, i32),
) -> (i32, i32, i32) {
    let half = g.tsize / 2;
    let s = g.search;
    let mut best = (i32::MAX, 0);
    for t in 0..s * s {
        let (cx, cy) = (cur.0 + t % s - s / 2, cur.1 + t / s - s / 2);
        let mut sad = 0;
        for r in 0..g.tsize {
            for c in 0..g.tsize {
                let tv = at(first, g, init.0 - half + c, init.1 - half + r);
                sad += (at(frame, g, cx - half + c, cy - half + r) - tv).abs();
            }
        }
        best = best.min((sad, t));
    }
    let t = best.1;
    let x = (cur.0 + t % s - s / 2).clamp(0, g.w as i32 - 1);
    let y = (cur.1 + t / s - s / 2).clamp(0, g.h as i32 - 1);
    (x, y, best.0)
}

pub(crate) fn run(dev: &mut Device, size: Size) -> Result<Outcome, SuiteError> {
    // Small: 240 points (CTAs of 2 warps: 2 fills at 8 CTAs/SM), 7 x 7 templates, 8 x 8 search windows, 192 x 192
    // frames, 3 tracked frames. Paper: 360 points, 11 x 11 templates, 16 x 16 windows (8
    // warps), 512 x 512 frames, 6 tracked frames (Rodinia tracks 51 points through 104
    // 609 x 590 frames; more points here so that the grid fills the GPU).
    let (points, g, frames) = size.pick(
        (
            240usize,
            Geometry {
                w: 192,
                h: 192,
                tsize: 7,
                search: 8,
            },
            4usize,
        ),
        (
            360,
            Geometry {
                w: 512,
                h: 512,
                tsize: 11,
                search: 16,
            },
            7,
        ),
    );
    let mut r = rng::rng(NAME, 0);
    let texture = rng::u32s(&mut r, g.w * g.h, 0, 255);
    // Frame f is the texture shifted by the accumulated motion (at most 2 pixels a frame on
    // each axis, well inside the search window), plus noise.
    let mut shift = (0i32, 0i32);
    let mut shifts = Vec::new();
    let mut video = Vec::with_capacity(frames * g.w * g.h);
    for f in 0..frames {
        if f > 0 {
            shift.0 += r.gen_range(-2..=2);
            shift.1 += r.gen_range(-2..=2);
        }
        shifts.push(shift);
        for y in 0..g.h as i32 {
            for x in 0..g.w as i32 {
                let sx = (x - shift.0).rem_euclid(g.w as i32) as usize;
                let sy = (y - shift.1).rem_euclid(g.h as i32) as usize;
                let v = texture[sy * g.w + sx] as i32 + r.gen_range(-8..=8);
                video.push(v.clamp(0, 255) as u8);
            }
        }
    }
    // Points on an ellipse (the wall), away from the frame edges.
    let (cx, cy) = (g.w as f64 / 2.0, g.h as f64 / 2.0);
    let (ax, ay) = (g.w as f64 * 0.3, g.h as f64 * 0.25);
    let init: Vec<(i32, i32)> = (0..points)
        .map(|p| {
            let th = p as f64 * std::f64::consts::TAU / points as f64;
            (
                (cx + ax * th.cos()).round() as i32,
                (cy + ay * th.sin()).round() as i32,
            )
        })
        .collect();
    let (ix, iy): (Vec<i32>, Vec<i32>) = init.iter().copied().unzip();

    let mut ctx = Ctx::new(dev, NAME, PTX)?;
    let k = ctx.kernel(KERNEL)?;
    let dvideo = ctx.upload(&video)?;
    let (dix, diy) = (ctx.upload(&ix)?, ctx.upload(&iy)?);
    let (dcx, dcy) = (ctx.upload(&ix)?, ctx.upload(&iy)?);
    let dsad = ctx.zeroed::<i32>(points)?;
    let fsize = g.w * g.h;
    let mut cur = init.clone();
    for f in 1..frames {
        ctx.launch(
            k,
            Dim3::new(points as u32, 1, 1),
            Dim3::new((g.search * g.search) as u32, 1, 1),
            0,
            &[
                Arg::Ptr(dvideo.offset((f * fsize) as u64)),
                Arg::Ptr(dvideo),
                Arg::I32(g.w as i32),
                Arg::I32(g.h as i32),
                Arg::Ptr(dix),
                Arg::Ptr(diy),
                Arg::Ptr(dcx),
                Arg::Ptr(dcy),
                Arg::Ptr(dsad),
                Arg::I32(g.tsize),
                Arg::I32(g.search),
            ],
        )?;
        let frame = &video[f * fsize..(f + 1) * fsize];
        let mut sads = Vec::with_capacity(points);
        for p in 0..points {
            let (x, y, s) = track(frame, &video[..fsize], &g, init[p], cur[p]);
            cur[p] = (x, y);
            sads.push(s);
        }
        let got = ctx.download::<i32>(dsad, points)?;
        ctx.exact(&format!("best SAD, frame {f}"), &got, &sads)?;
        let (wx, wy): (Vec<i32>, Vec<i32>) = cur.iter().copied().unzip();
        let got = ctx.download::<i32>(dcx, points)?;
        ctx.exact(&format!("x, frame {f}"), &got, &wx)?;
        let got = ctx.download::<i32>(dcy, points)?;
        ctx.exact(&format!("y, frame {f}"), &got, &wy)?;
    }
    // Sanity: at least 95% of the points moved exactly with the texture.
    let last = shifts[frames - 1];
    let followed = (0..points)
        .filter(|&p| (cur[p].0 - init[p].0, cur[p].1 - init[p].1) == last)
        .count();
    if followed * 20 < points * 19 {
        return Err(ctx.invalid(format!(
            "only {followed} of {points} points followed the motion {last:?}"
        )));
    }
    ctx.count_checked(1);
    ctx.finish("")
}
