//! Executes `tex`, `tld4`, `suld.b` and `sust.b` for the active lanes of a warp: the handle
//! names a descriptor in the device's [`TextureTable`](super::TextureTable), texels come from
//! global memory through [`GlobalMemory`], results go to the destination registers.
//!
//! Fetch results are 32-bit values: floats (their bits) when the texture returns floats
//! (float channels, or `cudaReadModeNormalizedFloat`), else the channel's integer sign- or
//! zero-extended. Channels a format lacks read 0, except the fourth, which reads 1 (1.0 for
//! float results), the graphics convention for R and RG formats.

use super::desc::{ChannelKind, SurfDesc, TexDesc};
use super::sample::{address, effective_mode, floor_index, linear_weight, normalized, texel_coord};
use crate::alu;
use crate::exec::context::{LaunchCtx, MemCtx};
use crate::exec::fault::{FaultKind, Near};
use crate::exec::memory::{load_le, GlobalMemory};
use crate::exec::operands::{gather, Lanes};
use crate::exec::warp::{lanes, Frame, Warp, WARP_SIZE};
use crate::ir::{Inst, Op, Opnd, Rounding, Space, SurfClamp, Ty};

type Fault = (usize, FaultKind);

/// One texel as fetch results: four 32-bit values.
type Texel = [u32; 4];

fn regs_of(o: &Opnd) -> ([u32; 4], usize) {
    match *o {
        Opnd::Vec { regs, n } => (regs, n as usize),
        _ => ([u32::MAX; 4], 0),
    }
}

/// Per-lane handles and coordinates of a texture or surface instruction.
fn operands(k: &LaunchCtx, m: &MemCtx, w: &Warp, f: &Frame, inst: &Inst) -> (Lanes, [Lanes; 3]) {
    let mut h = [0u64; WARP_SIZE];
    gather(k, m, w, f, &inst.src[0], &mut h);
    let mut c = [[0u64; WARP_SIZE]; 3];
    let (regs, _) = regs_of(&inst.src[1]);
    for (d, lanes) in c.iter_mut().enumerate().take(inst.mods.tex.geom.dims()) {
        gather(k, m, w, f, &Opnd::Reg(regs[d]), lanes);
    }
    (h, c)
}

fn write_results(w: &mut Warp, f: &Frame, o: &Opnd, lane: usize, vals: &[u64]) {
    let (regs, n) = regs_of(o);
    for (&r, &v) in regs.iter().zip(vals).take(n) {
        if r != u32::MAX {
            w.regs[f.reg_base + r as usize * WARP_SIZE + lane] = v;
        }
    }
}

fn bad_handle(lane: usize, surface: bool, handle: u64) -> Fault {
    (lane, FaultKind::BadHandle { surface, handle })
}

/// Reads the texel at in-range indices `(x, y, z)` converted to fetch results.
fn texel(g: &GlobalMemory, d: &TexDesc, x: u64, y: u64, z: u64) -> Result<Texel, FaultKind> {
    let f = d.format;
    let bytes = f.bytes();
    let a = d.layout.addr(bytes, x, y, z);
    let mut raw = [0u8; 16];
    g.read(a, &mut raw[..bytes as usize])
        .map_err(|_| FaultKind::OutOfBounds {
            space: Space::Global,
            address: a,
            size: bytes,
            write: false,
            near: Near::Global(g.nearby(a, bytes as u64)),
            lanes: 0,
            active: 0,
        })?;
    let float = d.returns_float();
    let mut out = [0, 0, 0, if float { 1f32.to_bits() } else { 1 }];
    let cb = f.bits[0] as u32 / 8;
    for (c, v) in out.iter_mut().enumerate().take(f.channels()) {
        let bits = load_le(&raw[c * cb as usize..], cb);
        *v = match (f.kind, cb) {
            (ChannelKind::Float, 2) => {
                alu::cvt::cvt(Ty::F32, Ty::F16, Rounding::Rn, false, false, bits) as u32
            }
            (ChannelKind::Float, _) => bits as u32,
            (ChannelKind::Signed, _) => {
                let s = ((bits << (64 - 8 * cb)) as i64) >> (64 - 8 * cb);
                if d.normalized_read {
                    normalized(s, f.bits[0], true).to_bits()
                } else {
                    s as u32
                }
            }
            (ChannelKind::Unsigned, _) if d.normalized_read => {
                normalized(bits as i64, f.bits[0], false).to_bits()
            }
            (ChannelKind::Unsigned, _) => bits as u32,
        };
    }
    Ok(out)
}

/// The border colour as fetch results (integer textures have a zero border: see the runtime).
fn border(d: &TexDesc) -> Texel {
    if d.returns_float() {
        d.border.map(f32::to_bits)
    } else {
        [0; 4]
    }
}

/// The texel at (possibly out-of-range) indices `idx`, after addressing.
fn addressed(
    g: &GlobalMemory,
    d: &TexDesc,
    idx: [i64; 3],
    dims: usize,
) -> Result<Texel, FaultKind> {
    let mut at = [0u64; 3];
    for (dim, slot) in at.iter_mut().enumerate().take(dims) {
        let mode = effective_mode(d.address[dim], d.normalized_coords);
        match address(mode, idx[dim], d.layout.size(dim) as i64) {
            Some(i) => *slot = i as u64,
            None => return Ok(border(d)),
        }
    }
    texel(g, d, at[0], at[1], at[2])
}

/// `tex`: one lane's fetch at coordinates `c` (integer texel indices, or floats).
fn sample(
    g: &GlobalMemory,
    d: &TexDesc,
    c: [u64; 3],
    int_coords: bool,
    dims: usize,
) -> Result<Texel, FaultKind> {
    if int_coords {
        return addressed(g, d, c.map(|v| v as u32 as i32 as i64), dims);
    }
    let x = |dim: usize| {
        texel_coord(
            f32::from_bits(c[dim] as u32),
            d.layout.size(dim),
            d.normalized_coords,
        )
    };
    if !d.linear {
        let idx = [0, 1, 2].map(|dim| if dim < dims { floor_index(x(dim)) } else { 0 });
        return addressed(g, d, idx, dims);
    }
    // Linear filtering: the 2^dims texels around the point, weighted per dimension.
    let mut base = [0i64; 3];
    let mut alpha = [0f32; 3];
    for dim in 0..dims {
        (base[dim], alpha[dim]) = linear_weight(x(dim));
    }
    let mut acc = [0f32; 4];
    for corner in 0..(1usize << dims) {
        let mut weight = 1f32;
        let mut idx = [0i64; 3];
        for dim in 0..dims {
            let upper = corner >> dim & 1 == 1;
            idx[dim] = base[dim].saturating_add(upper as i64);
            weight *= if upper { alpha[dim] } else { 1.0 - alpha[dim] };
        }
        let t = addressed(g, d, idx, dims)?;
        for (a, v) in acc.iter_mut().zip(t) {
            *a += weight * f32::from_bits(v);
        }
    }
    Ok(acc.map(f32::to_bits))
}

/// `tld4.comp`: component `comp` of the four texels bilinear filtering at (x, y) would read,
/// counter-clockwise from the lower left: (i, j+1), (i+1, j+1), (i+1, j), (i, j).
fn gather4(g: &GlobalMemory, d: &TexDesc, c: [u64; 3], comp: usize) -> Result<Texel, FaultKind> {
    let x = texel_coord(
        f32::from_bits(c[0] as u32),
        d.layout.width,
        d.normalized_coords,
    );
    let y = texel_coord(
        f32::from_bits(c[1] as u32),
        d.layout.height,
        d.normalized_coords,
    );
    let (i, _) = linear_weight(x);
    let (j, _) = linear_weight(y);
    let mut out = [0u32; 4];
    for (o, (dx, dy)) in out.iter_mut().zip([(0, 1), (1, 1), (1, 0), (0, 0)]) {
        *o = addressed(g, d, [i.saturating_add(dx), j.saturating_add(dy), 0], 2)?[comp];
    }
    Ok(out)
}

/// `tex` and `tld4` for the lanes in `exec`.
pub fn tex(
    k: &LaunchCtx,
    m: &mut MemCtx,
    w: &mut Warp,
    inst: &Inst,
    exec: u32,
) -> Result<(), Fault> {
    let f = w.frame();
    let (h, c) = operands(k, m, w, &f, inst);
    let dims = inst.mods.tex.geom.dims();
    for lane in lanes(exec) {
        let d = *m
            .global
            .base()
            .textures
            .texture(h[lane])
            .ok_or_else(|| bad_handle(lane, false, h[lane]))?;
        let coords = [c[0][lane], c[1][lane], c[2][lane]];
        let t = match inst.op {
            Op::Tld4 => gather4(m.global.base(), &d, coords, inst.mods.tex.comp as usize),
            _ => sample(m.global.base(), &d, coords, inst.ty2 == Ty::S32, dims),
        }
        .map_err(|e| (lane, e))?;
        write_results(w, &f, &inst.dst[0], lane, &t.map(u64::from));
    }
    Ok(())
}

/// The byte address of a surface access of `size` bytes at (x bytes, y, z), after the
/// instruction's out-of-range rule; `Ok(None)` for a `.zero` access outside.
fn surface_addr(
    d: &SurfDesc,
    c: [i64; 3],
    size: u32,
    dims: usize,
    clamp: SurfClamp,
) -> Result<Option<u64>, ()> {
    let l = &d.layout;
    let row = l.width * d.format.bytes() as u64;
    let limits = [
        row.saturating_sub(size as u64),
        l.height.saturating_sub(1),
        l.depth.saturating_sub(1),
    ];
    let mut at = [0u64; 3];
    for dim in 0..dims {
        let v = c[dim];
        // x (bytes) must also be a whole number of accesses into a row that holds one.
        let whole =
            dim > 0 || ((v as u64).checked_rem(size as u64) == Some(0) && row >= size as u64);
        let inside = v >= 0 && v as u64 <= limits[dim] && whole;
        at[dim] = if inside {
            v as u64
        } else {
            match clamp {
                SurfClamp::Trap => return Err(()),
                SurfClamp::Zero => return Ok(None),
                SurfClamp::Clamp if dim == 0 => {
                    (v.max(0) as u64).min(limits[0]) / size as u64 * size as u64
                }
                SurfClamp::Clamp => (v.max(0) as u64).min(limits[dim]),
            }
        };
    }
    Ok(Some(l.base + at[2] * l.slice + at[1] * l.pitch + at[0]))
}

/// `suld.b` and `sust.b` for the lanes in `exec`: `mods.vec` elements of `ty`, x in bytes.
pub fn surface(
    k: &LaunchCtx,
    m: &mut MemCtx,
    w: &mut Warp,
    inst: &Inst,
    exec: u32,
) -> Result<(), Fault> {
    let f = w.frame();
    let (h, c) = operands(k, m, w, &f, inst);
    let dims = inst.mods.tex.geom.dims();
    let elem = inst.ty.bytes();
    let n = inst.mods.vec.max(1) as usize;
    let size = elem * n as u32;
    let store = inst.op == Op::Sust;
    let mut vals = [[0u64; WARP_SIZE]; 4];
    if store {
        let (regs, _) = regs_of(&inst.src[2]);
        for (i, v) in vals.iter_mut().enumerate().take(n) {
            if regs[i] != u32::MAX {
                gather(k, m, w, &f, &Opnd::Reg(regs[i]), v);
            }
        }
    }
    for lane in lanes(exec) {
        let d = *m
            .global
            .base()
            .textures
            .surface(h[lane])
            .ok_or_else(|| bad_handle(lane, true, h[lane]))?;
        let coords = [0, 1, 2].map(|dim| c[dim][lane] as u32 as i32 as i64);
        let addr = surface_addr(&d, coords, size, dims, inst.mods.tex.clamp).map_err(|_| {
            let mut at = [0i64; 3];
            at[..dims].copy_from_slice(&coords[..dims]);
            (
                lane,
                FaultKind::SurfaceOutOfBounds {
                    handle: h[lane],
                    coords: at,
                    size,
                    write: store,
                },
            )
        })?;
        let oob = |g: &GlobalMemory, a: u64| {
            let near = Near::Global(g.nearby(a, elem as u64));
            (
                lane,
                FaultKind::OutOfBounds {
                    space: Space::Global,
                    address: a,
                    size: elem,
                    write: store,
                    near,
                    lanes: 1 << lane,
                    active: exec,
                },
            )
        };
        let mut out = [0u64; 4];
        for (i, o) in out.iter_mut().enumerate().take(n) {
            let Some(a) = addr.map(|a| a + (i as u32 * elem) as u64) else {
                continue;
            };
            if store {
                if m.global.write_uint(a, elem, vals[i][lane]).is_err() {
                    return Err(oob(m.global.base(), a));
                }
            } else {
                *o = match m.global.read_uint(a, elem) {
                    Ok(v) => v,
                    Err(_) => return Err(oob(m.global.base(), a)),
                };
            }
        }
        if !store {
            write_results(w, &f, &inst.dst[0], lane, &out);
        }
    }
    Ok(())
}

/// For the timing model: per active lane, the global address the instruction touches first
/// (the texel point sampling reads, the lower corner of a filter footprint, the surface
/// element), and the bytes of one element. Lanes whose handle is invalid get address 0 (the
/// instruction faults when it executes).
pub fn lane_addresses(
    k: &LaunchCtx,
    m: &MemCtx,
    w: &Warp,
    inst: &Inst,
    exec: u32,
    out: &mut Lanes,
) -> u32 {
    let f = w.frame();
    let (h, c) = operands(k, m, w, &f, inst);
    let dims = inst.mods.tex.geom.dims();
    let mut size = 4;
    for lane in lanes(exec) {
        let coords = [c[0][lane], c[1][lane], c[2][lane]];
        out[lane] = 0;
        out[lane] = if matches!(inst.op, Op::Tex | Op::Tld4) {
            let Some(d) = m.global.base().textures.texture(h[lane]) else {
                continue;
            };
            size = d.format.bytes();
            let mut at = [0u64; 3];
            for dim in 0..dims {
                let n = d.layout.size(dim) as i64;
                let i = if inst.ty2 == Ty::S32 {
                    coords[dim] as u32 as i32 as i64
                } else {
                    let x = texel_coord(
                        f32::from_bits(coords[dim] as u32),
                        n as u64,
                        d.normalized_coords,
                    );
                    if d.linear || inst.op == Op::Tld4 {
                        linear_weight(x).0
                    } else {
                        floor_index(x)
                    }
                };
                let mode = effective_mode(d.address[dim], d.normalized_coords);
                at[dim] = address(mode, i, n).unwrap_or(0) as u64;
            }
            d.layout.addr(size, at[0], at[1], at[2])
        } else {
            let Some(d) = m.global.base().textures.surface(h[lane]) else {
                continue;
            };
            size = inst.ty.bytes() * inst.mods.vec.max(1) as u32;
            let coords = coords.map(|v| v as u32 as i32 as i64);
            surface_addr(d, coords, size, dims, SurfClamp::Clamp)
                .ok()
                .flatten()
                .unwrap_or(d.layout.base)
        };
    }
    size
}
