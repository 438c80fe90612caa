//! Texture and surface instructions: `tex`, `tld4`, `suld.b`, `sust.b` over texture and
//! surface *objects* (a 64-bit handle in a register, as nvcc emits for `cudaTextureObject_t`
//! and `cudaSurfaceObject_t`). Their semantics live in `exec::texture`.
//!
//! Rejected by name: layered, cube and multisample geometries (`.a1d`, `.a2d`, `.cube`…),
//! explicit level of detail (`.level`, `.grad`: there are no mipmaps), a separate sampler
//! operand, `.texref` module variables, formatted surface access (`.p`), and half-precision
//! results.

use ptx::ast::{Instruction, Operand};

use super::func::FnCtx;
use super::opcode::{Decoded, Special, Suffixes};
use super::operand::RegUse;
use crate::error::LoadError;
use crate::ir::{Inst, Op, Opnd, SurfClamp, TexGeom, Ty};

type R = Result<Decoded, LoadError>;

const GEOMETRIES: &[(&str, TexGeom)] = &[
    ("1d", TexGeom::D1),
    ("2d", TexGeom::D2),
    ("3d", TexGeom::D3),
];

/// Geometries PTX has that warpsim does not execute (no layered, cube or multisample
/// textures can be created through the runtime either).
const OTHER_GEOMETRIES: &[&str] = &["a1d", "a2d", "cube", "acube", "2dms", "a2dms"];

fn unsupported(s: &Suffixes, why: &str) -> LoadError {
    LoadError::Unsupported {
        what: format!("{} ({why})", s.full),
        line: s.line,
    }
}

fn geometry(s: &mut Suffixes) -> Result<TexGeom, LoadError> {
    if s.skip_all(|w| OTHER_GEOMETRIES.contains(&w)) > 0 {
        return Err(unsupported(
            s,
            "layered, cube and multisample textures and surfaces are not supported",
        ));
    }
    s.pick(GEOMETRIES)
        .ok_or_else(|| s.invalid("is missing its geometry (.1d, .2d or .3d)"))
}

fn tex_result(s: &Suffixes, t: Ty) -> Result<Ty, LoadError> {
    match t {
        Ty::F32 | Ty::S32 | Ty::U32 => Ok(t),
        Ty::F16 | Ty::F16x2 => Err(unsupported(
            s,
            "half-precision texture results are not supported",
        )),
        _ => Err(s.invalid("returns .f32, .s32 or .u32")),
    }
}

/// `tex.geom.v4.dty.cty` (and `tld4.comp.2d.v4.dty.f32`).
pub(super) fn tex(s: &mut Suffixes, gather: bool) -> R {
    let mut d = Decoded::new(if gather { Op::Tld4 } else { Op::Tex }, Ty::F32);
    if gather {
        d.mods.tex.comp = s
            .pick(&[("r", 0u8), ("g", 1), ("b", 2), ("a", 3)])
            .ok_or_else(|| s.invalid("is missing its component (.r, .g, .b or .a)"))?;
    }
    if s.skip_all(|w| matches!(w, "level" | "grad" | "base")) > 0 {
        return Err(unsupported(
            s,
            "explicit level of detail: mipmapped textures are not supported",
        ));
    }
    d.mods.tex.geom = geometry(s)?;
    if gather && d.mods.tex.geom != TexGeom::D2 {
        return Err(s.invalid("gathers from 2-D textures only"));
    }
    if !s.has("v4") {
        return Err(s.unsupported());
    }
    let (dty, cty) = s.two_types()?;
    s.done()?;
    d.ty = tex_result(s, dty)?;
    d.ty2 = match cty {
        Ty::F32 => Ty::F32,
        Ty::S32 if !gather => Ty::S32,
        _ => return Err(s.invalid("takes .f32 (or, for tex, .s32) coordinates")),
    };
    d.special = Special::Tex;
    Ok(d)
}

/// `suld.b.geom[.vN].ty.clamp` / `sust.b.geom[.vN].ty.clamp`.
pub(super) fn surface(s: &mut Suffixes, store: bool) -> R {
    let mut d = Decoded::new(if store { Op::Sust } else { Op::Suld }, Ty::B32);
    if s.has("p") {
        return Err(unsupported(
            s,
            "formatted surface access (.p) is not supported; use .b",
        ));
    }
    if !s.has("b") {
        return Err(s.invalid("is missing .b"));
    }
    d.mods.tex.geom = geometry(s)?;
    d.mods.vec = s.pick(&[("v2", 2u8), ("v4", 4)]).unwrap_or(1);
    d.mods.tex.clamp = s
        .pick(&[
            ("trap", SurfClamp::Trap),
            ("clamp", SurfClamp::Clamp),
            ("zero", SurfClamp::Zero),
        ])
        .unwrap_or_default();
    let ty = s.one_type()?;
    s.done()?;
    d.ty = match ty {
        Ty::B8 | Ty::B16 | Ty::B32 | Ty::B64 => ty,
        _ => return Err(s.invalid("moves .b8, .b16, .b32 or .b64 elements")),
    };
    d.special = Special::Tex;
    Ok(d)
}

impl FnCtx<'_, '_> {
    /// Binds `d, [handle, {coords}]` (tex, tld4, suld) or `[handle, {coords}], b` (sust).
    pub(super) fn bind_tex(
        &mut self,
        i: &Instruction,
        s: &Suffixes,
        inst: &mut Inst,
    ) -> Result<(), LoadError> {
        let ops = &i.operands;
        if ops.len() != 2 {
            let why = format!(
                "{} operands: offsets, depth compare and residency predicates are not supported",
                ops.len()
            );
            return Err(unsupported(s, &why));
        }
        let (data, place) = if inst.op == Op::Sust {
            (&ops[1], &ops[0])
        } else {
            (&ops[0], &ops[1])
        };
        let Operand::TexRef(items) = place else {
            return Err(s.invalid("expects `[handle, {coordinates}]`"));
        };
        let [handle, coords] = &items[..] else {
            return Err(unsupported(
                s,
                "a separate sampler operand (independent texture mode) is not supported",
            ));
        };
        inst.src[0] = match handle {
            Operand::Reg(_) => self.value(handle, Ty::U64)?,
            Operand::Symbol { name, .. } => {
                let why = format!(
                    "texture or surface reference `{name}`: use texture and surface objects"
                );
                return Err(unsupported(s, &why));
            }
            _ => return Err(s.invalid("takes a texture or surface object register")),
        };
        let dims = inst.mods.tex.geom.dims();
        // A 3-D coordinate vector has four elements, the last ignored.
        let want = if dims == 3 { 4 } else { dims };
        inst.src[1] = self.tex_vector(coords, want, s, "coordinate")?;
        let n = if matches!(inst.op, Op::Tex | Op::Tld4) {
            4
        } else {
            inst.mods.vec as usize
        };
        let values = self.tex_vector(
            data,
            n,
            s,
            if inst.op == Op::Sust {
                "value"
            } else {
                "destination"
            },
        )?;
        if inst.op == Op::Sust {
            inst.src[2] = values;
        } else {
            inst.dst[0] = values;
        }
        Ok(())
    }

    /// A braced list of exactly `n` registers (`_` allowed: a discarded result).
    fn tex_vector(
        &self,
        op: &Operand,
        n: usize,
        s: &Suffixes,
        what: &str,
    ) -> Result<Opnd, LoadError> {
        let Operand::Vector(items) = op else {
            return Err(s.invalid(&format!("expects a braced {what} vector")));
        };
        if items.len() != n {
            return Err(s.invalid(&format!(
                "expects {n} {what} element{}, found {}",
                if n == 1 { "" } else { "s" },
                items.len()
            )));
        }
        let mut regs = [u32::MAX; 4];
        for (slot, item) in regs.iter_mut().zip(items) {
            *slot = match item {
                Operand::Sink => u32::MAX,
                Operand::Reg(r) => match self.reg_use(r)? {
                    RegUse::Reg(id) => id,
                    _ => return Err(s.invalid(&format!("`{}` cannot be a {what} element", r.name))),
                },
                _ => return Err(s.invalid(&format!("expects registers as {what} elements"))),
            };
        }
        Ok(Opnd::Vec { regs, n: n as u8 })
    }
}
