//! ispass_ray: a Whitted-style ray tracer, one thread per pixel (`render`): primary rays from a
//! pinhole camera into six spheres (in `__constant__` memory, written through the symbol
//! `c_spheres`) on a checkered plane, ambient + diffuse shading with shadow rays, a cos^16
//! highlight and at most 3 reflections. The PRO paper's Table II "RAY" (GPGPU-Sim's
//! ISPASS-2009 ray tracer): 512 CTAs, here a 256 × 256 image in 16 × 8 CTAs (16 × 32).
//!
//! Check: the kernel uses only round-to-nearest intrinsics and exact operations in a fixed
//! order; [`trace`] repeats them in f32, so every packed 8-bit colour compares exactly. As an
//! independent check that the scene is really rendered, the image must show the sky, the
//! plane's two checker colours and every sphere (some pixel's primary ray hits it first).

use rand::Rng;
use warpsim_core::device::{Arg, Device, Dim3};

use crate::info::{KernelShape, WorkloadInfo};
use crate::program::{div_up, Ctx, Outcome, Size, SuiteError};
use crate::rng;

const NAME: &str = "ispass_ray";
pub(crate) const PTX: &str = kernel_file!(ispass_ray, "ptx");
const KERNEL: &str = "_Z6renderPjii";
const SYMBOL: &str = "c_spheres";
/// The constants of the .cu.
const SPHERES: usize = 6;
const BOUNCES: usize = 3;
const EPS: f32 = 1e-3;
const FAR: f32 = 100.0;
const PLANE_Y: f32 = -1.0;
const AMBIENT: f32 = 0.15;
const LIGHT: V3 = V3 {
    x: 4.0,
    y: 6.0,
    z: -3.0,
};
const EYE: V3 = V3 {
    x: 0.0,
    y: 0.5,
    z: -4.0,
};
const SKY: V3 = V3 {
    x: 0.4,
    y: 0.6,
    z: 0.9,
};
const BX: u32 = 16;
const BY: u32 = 8;

/// Kernels, CTA shapes, barriers and sizes (`warpsim list workloads`).
pub(crate) const INFO: WorkloadInfo = WorkloadInfo {
    program: NAME,
    kernels: &[KernelShape::xy(KERNEL, BX, BY)],
    barriers: "none",
    small: "192 x 128 pixels, 192 CTAs",
    paper: "256 x 256 pixels, 512 CTAs (Table II)",
};

/// `Sphere` in the .cu.
#[repr(C)]
#[derive(Clone, Copy, bytemuck::Pod, bytemuck::Zeroable)]
struct Sphere {
    x: f32,
    y: f32,
    z: f32,
    r: f32,
    red: f32,
    green: f32,
    blue: f32,
    refl: f32,
}

#[derive(Clone, Copy)]
struct V3 {
    x: f32,
    y: f32,
    z: f32,
}

const fn v3(x: f32, y: f32, z: f32) -> V3 {
    V3 { x, y, z }
}
fn add(a: V3, b: V3) -> V3 {
    v3(a.x + b.x, a.y + b.y, a.z + b.z)
}
fn sub(a: V3, b: V3) -> V3 {
    v3(a.x - b.x, a.y - b.y, a.z - b.z)
}
fn scale(a: V3, s: f32) -> V3 {
    v3(a.x * s, a.y * s, a.z * s)
}
fn dot(a: V3, b: V3) -> f32 {
    a.x * b.x + a.y * b.y + a.z * b.z
}
fn normalize(a: V3) -> V3 {
    scale(a, 1.0 / dot(a, a).sqrt())
}
fn reflect(d: V3, n: V3) -> V3 {
    sub(d, scale(n, 2.0 * dot(d, n)))
}

/// The kernel's `nearest`: (distance, sphere index / `SPHERES` for the plane), or `None`.
fn nearest(scene: &[Sphere], o: V3, d: V3) -> Option<(f32, usize)> {
    let mut best = (FAR, None);
    for (s, sp) in scene.iter().enumerate() {
        let oc = sub(o, v3(sp.x, sp.y, sp.z));
        let b = dot(oc, d);
        let c = dot(oc, oc) - sp.r * sp.r;
        let disc = b * b - c;
        if disc > 0.0 {
            let t = -b - disc.sqrt();
            if t > EPS && t < best.0 {
                best = (t, Some(s));
            }
        }
    }
    if d.y < 0.0 {
        let t = (PLANE_Y - o.y) / d.y;
        if t > EPS && t < best.0 {
            best = (t, Some(SPHERES));
        }
    }
    best.1.map(|id| (best.0, id))
}

fn channel(c: f32) -> u32 {
    (c.min(1.0) * 255.0) as u32
}

/// The kernel's `render` for pixel (px, py): the packed colour and the object the primary ray
/// hit first.
fn trace(scene: &[Sphere], px: usize, py: usize, w: usize, h: usize) -> (u32, Option<usize>) {
    let (wf, hf) = (w as f32, h as f32);
    let aspect = wf / hf;
    let u = ((2.0 * (px as f32 + 0.5)) / wf - 1.0) * aspect;
    let v = 1.0 - (2.0 * (py as f32 + 0.5)) / hf;
    let (mut o, mut d) = (EYE, normalize(v3(u, v, 1.5)));
    let mut color = v3(0.0, 0.0, 0.0);
    let mut weight = 1.0f32;
    let mut first = None;
    for bounce in 0..=BOUNCES {
        let Some((t, id)) = nearest(scene, o, d) else {
            color = add(color, scale(SKY, weight));
            break;
        };
        if bounce == 0 {
            first = Some(id);
        }
        let p = add(o, scale(d, t));
        let (n, albedo, refl) = if id == SPHERES {
            let cell = (p.x.floor() as i32).wrapping_add(p.z.floor() as i32);
            let a = if cell & 1 != 0 { 0.9 } else { 0.2 };
            (v3(0.0, 1.0, 0.0), v3(a, a, a), 0.3)
        } else {
            let sp = &scene[id];
            (
                normalize(sub(p, v3(sp.x, sp.y, sp.z))),
                v3(sp.red, sp.green, sp.blue),
                sp.refl,
            )
        };
        let to_light = sub(LIGHT, p);
        let dist = dot(to_light, to_light).sqrt();
        let l = scale(to_light, 1.0 / dist);
        let mut diffuse = dot(n, l).max(0.0);
        if diffuse > 0.0 && nearest(scene, p, l).is_some_and(|(bt, _)| bt < dist) {
            diffuse = 0.0;
        }
        let r = reflect(d, n);
        let mut spec = 0.0f32;
        if diffuse > 0.0 {
            spec = dot(r, l).max(0.0);
            for _ in 0..4 {
                spec *= spec;
            }
        }
        let shade = AMBIENT + (1.0 - AMBIENT) * diffuse;
        let k = weight * (1.0 - refl);
        color = add(
            color,
            scale(add(scale(albedo, shade), v3(spec, spec, spec)), k),
        );
        weight *= refl;
        if weight == 0.0 {
            break;
        }
        (o, d) = (p, r);
    }
    (
        channel(color.x) | channel(color.y) << 8 | channel(color.z) << 16,
        first,
    )
}

pub(crate) fn run(dev: &mut Device, size: Size) -> Result<Outcome, SuiteError> {
    let (w, h) = size.pick((192usize, 128usize), (256, 256));
    let mut r = rng::rng(NAME, 0);
    // Spheres resting on the plane in front of the camera, two of them matte.
    let scene: Vec<Sphere> = (0..SPHERES)
        .map(|i| {
            let rad = r.gen_range(0.35f32..0.9);
            Sphere {
                x: -2.4 + 0.96 * i as f32 + r.gen_range(-0.2f32..0.2),
                y: PLANE_Y + rad,
                z: r.gen_range(0.0f32..4.0),
                r: rad,
                red: r.gen_range(0.1f32..1.0),
                green: r.gen_range(0.1f32..1.0),
                blue: r.gen_range(0.1f32..1.0),
                refl: if i % 3 == 0 {
                    0.0
                } else {
                    r.gen_range(0.2f32..0.7)
                },
            }
        })
        .collect();

    let mut ctx = Ctx::new(dev, NAME, PTX)?;
    let k = ctx.kernel(KERNEL)?;
    let (addr, bytes) = ctx.dev.symbol(ctx.module, SYMBOL)?;
    let want_bytes = std::mem::size_of_val(scene.as_slice()) as u64;
    if bytes != want_bytes {
        return Err(ctx.invalid(format!(
            "symbol `{SYMBOL}` is {bytes} bytes, expected {want_bytes}"
        )));
    }
    ctx.dev.write_slice(addr, &scene)?;
    let dpix = ctx.zeroed::<u32>(w * h)?;
    ctx.launch(
        k,
        Dim3::new(div_up(w, BX as usize), div_up(h, BY as usize), 1),
        Dim3::new(BX, BY, 1),
        0,
        &[Arg::Ptr(dpix), Arg::I32(w as i32), Arg::I32(h as i32)],
    )?;
    let got = ctx.download::<u32>(dpix, w * h)?;

    let traced: Vec<(u32, Option<usize>)> = (0..h)
        .flat_map(|py| (0..w).map(move |px| (px, py)))
        .map(|(px, py)| trace(&scene, px, py, w, h))
        .collect();
    let want: Vec<u32> = traced.iter().map(|t| t.0).collect();
    let mut seen = [false; SPHERES + 2];
    for t in &traced {
        seen[t.1.unwrap_or(SPHERES + 1)] = true;
    }
    if let Some(missing) = seen.iter().position(|s| !s) {
        return Err(ctx.invalid(format!(
            "the image shows no {}",
            match missing {
                SPHERES => "plane".to_string(),
                m if m > SPHERES => "sky".to_string(),
                m => format!("sphere {m}"),
            }
        )));
    }
    ctx.exact("pixel", &got, &want)?;
    ctx.finish("")
}
