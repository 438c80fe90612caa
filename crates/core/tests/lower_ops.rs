//! One case per supported instruction form: the PTX line, lowered inside the standard kernel
//! of `lower_util`, and the expected rendering (`Op.Ty[.Ty2] mods dst <- src, …`).

use crate::lower_util as util;

use util::check_table;

#[test]
fn integer_arithmetic() {
    check_table(&[
        ("add.s32 %r1, %r2, %r3;", "IAdd.S32 %r1 <- %r2, %r3"),
        ("add.sat.s32 %r1, %r2, -1;", "IAdd.S32 sat %r1 <- %r2, -1"),
        ("add.u64 %rd1, %rd2, 8;", "IAdd.U64 %rd1 <- %rd2, 8"),
        ("add.s16 %rs1, %rs2, %rs3;", "IAdd.S16 %rs1 <- %rs2, %rs3"),
        ("sub.s64 %rd1, %rd2, %rd3;", "ISub.S64 %rd1 <- %rd2, %rd3"),
        ("add.cc.u32 %r1, %r2, %r3;", "IAdd.U32 cc %r1 <- %r2, %r3"),
        ("addc.cc.u32 %r1, %r2, 0;", "IAddC.U32 cc %r1 <- %r2, 0"),
        ("addc.u32 %r1, %r2, %r3;", "IAddC.U32 %r1 <- %r2, %r3"),
        ("sub.cc.u32 %r1, %r2, %r3;", "ISub.U32 cc %r1 <- %r2, %r3"),
        ("subc.cc.u32 %r1, %r2, %r3;", "ISubC.U32 cc %r1 <- %r2, %r3"),
        ("subc.u64 %rd1, %rd2, %rd3;", "ISubC.U64 %rd1 <- %rd2, %rd3"),
        ("mul.lo.s32 %r1, %r2, 3;", "IMulLo.S32 %r1 <- %r2, 3"),
        (
            "mul.lo.u64 %rd1, %rd2, %rd3;",
            "IMulLo.U64 %rd1 <- %rd2, %rd3",
        ),
        ("mul.hi.u32 %r1, %r2, %r3;", "IMulHi.U32 %r1 <- %r2, %r3"),
        ("mul.wide.s32 %rd1, %r2, 4;", "IMulWide.S32 %rd1 <- %r2, 4"),
        (
            "mul.wide.u16 %r1, %rs1, %rs2;",
            "IMulWide.U16 %r1 <- %rs1, %rs2",
        ),
        (
            "mad.lo.s32 %r1, %r2, %r3, %r4;",
            "IMadLo.S32 %r1 <- %r2, %r3, %r4",
        ),
        (
            "mad.lo.cc.u32 %r1, %r2, %r3, %r4;",
            "IMadLo.U32 cc %r1 <- %r2, %r3, %r4",
        ),
        (
            "mad.hi.u64 %rd1, %rd2, %rd3, %rd4;",
            "IMadHi.U64 %rd1 <- %rd2, %rd3, %rd4",
        ),
        (
            "mad.hi.sat.s32 %r1, %r2, %r3, %r4;",
            "IMadHi.S32 sat %r1 <- %r2, %r3, %r4",
        ),
        (
            "mad.wide.u32 %rd1, %r2, %r3, %rd4;",
            "IMadWide.U32 %rd1 <- %r2, %r3, %rd4",
        ),
        (
            "madc.lo.u32 %r1, %r2, %r3, %r4;",
            "IMadC.U32 %r1 <- %r2, %r3, %r4",
        ),
        (
            "madc.hi.cc.u32 %r1, %r2, %r3, %r4;",
            "IMadC.U32 cc hi %r1 <- %r2, %r3, %r4",
        ),
        ("mul24.lo.s32 %r1, %r2, %r3;", "IMul24.S32 %r1 <- %r2, %r3"),
        (
            "mul24.hi.u32 %r1, %r2, %r3;",
            "IMul24.U32 hi %r1 <- %r2, %r3",
        ),
        (
            "mad24.lo.u32 %r1, %r2, %r3, %r4;",
            "IMad24.U32 %r1 <- %r2, %r3, %r4",
        ),
        ("div.s32 %r1, %r2, %r3;", "IDiv.S32 %r1 <- %r2, %r3"),
        ("div.u64 %rd1, %rd2, 10;", "IDiv.U64 %rd1 <- %rd2, 10"),
        ("rem.s32 %r1, %r2, 7;", "IRem.S32 %r1 <- %r2, 7"),
        ("abs.s32 %r1, %r2;", "IAbs.S32 %r1 <- %r2"),
        ("neg.s64 %rd1, %rd2;", "INeg.S64 %rd1 <- %rd2"),
        ("min.s32 %r1, %r2, %r3;", "IMin.S32 %r1 <- %r2, %r3"),
        ("max.u32 %r1, %r2, 0;", "IMax.U32 %r1 <- %r2, 0"),
        (
            "sad.s32 %r1, %r2, %r3, %r4;",
            "Sad.S32 %r1 <- %r2, %r3, %r4",
        ),
    ]);
}

#[test]
fn bit_operations() {
    check_table(&[
        ("popc.b32 %r1, %r2;", "Popc.B32 %r1 <- %r2"),
        ("popc.b64 %r1, %rd2;", "Popc.B64 %r1 <- %rd2"),
        ("clz.b32 %r1, %r2;", "Clz.B32 %r1 <- %r2"),
        ("clz.b64 %r1, %rd2;", "Clz.B64 %r1 <- %rd2"),
        ("brev.b32 %r1, %r2;", "Brev.B32 %r1 <- %r2"),
        ("bfind.u32 %r1, %r2;", "Bfind.U32 %r1 <- %r2"),
        (
            "bfind.shiftamt.s64 %r1, %rd2;",
            "Bfind.S64 shiftamt %r1 <- %rd2",
        ),
        ("bfe.u32 %r1, %r2, 8, 4;", "Bfe.U32 %r1 <- %r2, 8, 4"),
        (
            "bfe.s64 %rd1, %rd2, %r3, %r4;",
            "Bfe.S64 %rd1 <- %rd2, %r3, %r4",
        ),
        (
            "bfi.b64 %rd1, %rd2, %rd3, 8, 16;",
            "Bfi.B64 %rd1 <- %rd2, %rd3, 8, 16",
        ),
        (
            "prmt.b32 %r1, %r2, %r3, 0x3210;",
            "Prmt.B32 %r1 <- %r2, %r3, 12816",
        ),
        (
            "prmt.b32.f4e %r1, %r2, %r3, %r4;",
            "Prmt.B32 prmt1 %r1 <- %r2, %r3, %r4",
        ),
        (
            "prmt.b32.rc16 %r1, %r2, %r3, %r4;",
            "Prmt.B32 prmt6 %r1 <- %r2, %r3, %r4",
        ),
        ("and.b32 %r1, %r2, 255;", "And.B32 %r1 <- %r2, 255"),
        ("and.pred %p1, %p2, %p3;", "And.Pred %p1 <- %p2, %p3"),
        ("or.pred %p1, %p2, !%p3;", "Or.Pred %p1 <- %p2, !%p3"),
        ("or.b64 %rd1, %rd2, %rd3;", "Or.B64 %rd1 <- %rd2, %rd3"),
        ("xor.b16 %rs1, %rs2, 1;", "Xor.B16 %rs1 <- %rs2, 1"),
        ("xor.pred %p1, %p2, %p3;", "Xor.Pred %p1 <- %p2, %p3"),
        ("not.b32 %r1, %r2;", "Not.B32 %r1 <- %r2"),
        ("not.pred %p1, %p2;", "Not.Pred %p1 <- %p2"),
        ("cnot.b32 %r1, %r2;", "Cnot.B32 %r1 <- %r2"),
        ("shl.b64 %rd1, %rd2, 3;", "Shl.B64 %rd1 <- %rd2, 3"),
        ("shr.s32 %r1, %r2, %r3;", "Shr.S32 %r1 <- %r2, %r3"),
        ("shr.u64 %rd1, %rd2, %r3;", "Shr.U64 %rd1 <- %rd2, %r3"),
        (
            "shf.l.wrap.b32 %r1, %r2, %r3, %r4;",
            "Shf.B32 %r1 <- %r2, %r3, %r4",
        ),
        (
            "shf.r.clamp.b32 %r1, %r2, %r3, 8;",
            "Shf.B32 hi clamp %r1 <- %r2, %r3, 8",
        ),
        (
            "bmsk.clamp.b32 %r1, %r2, %r3;",
            "Bmsk.B32 clamp %r1 <- %r2, %r3",
        ),
        ("bmsk.wrap.b32 %r1, 1, 2;", "Bmsk.B32 %r1 <- 1, 2"),
    ]);
}

#[test]
fn floating_point() {
    check_table(&[
        (
            "add.f32 %f1, %f2, 0f3F800000;",
            "FAdd.F32 %f1 <- %f2, 0x3f800000",
        ),
        (
            "add.rn.ftz.sat.f32 %f1, %f2, %f3;",
            "FAdd.F32 ftz sat Rn %f1 <- %f2, %f3",
        ),
        ("add.f32 %f1, %f2, 1.5;", "FAdd.F32 %f1 <- %f2, 0x3fc00000"),
        (
            "add.f64 %fd1, %fd2, 0f3F800000;",
            "FAdd.F64 %fd1 <- %fd2, 0x3f800000",
        ),
        (
            "sub.rz.f64 %fd1, %fd2, %fd3;",
            "FSub.F64 Rz %fd1 <- %fd2, %fd3",
        ),
        ("sub.ftz.f32 %f1, %f2, %f3;", "FSub.F32 ftz %f1 <- %f2, %f3"),
        (
            "mul.rm.f32 %f1, %f2, 0d3FF0000000000000;",
            "FMul.F32 Rm %f1 <- %f2, 0x3f800000",
        ),
        ("mul.f64 %fd1, %fd2, %fd3;", "FMul.F64 %fd1 <- %fd2, %fd3"),
        (
            "fma.rn.f64 %fd1, %fd2, %fd3, %fd4;",
            "FFma.F64 Rn %fd1 <- %fd2, %fd3, %fd4",
        ),
        (
            "fma.rn.ftz.f32 %f1, %f2, %f3, %f4;",
            "FFma.F32 ftz Rn %f1 <- %f2, %f3, %f4",
        ),
        (
            "mad.f32 %f1, %f2, %f3, %f4;",
            "FFma.F32 %f1 <- %f2, %f3, %f4",
        ),
        (
            "mad.rp.ftz.f32 %f1, %f2, %f3, %f4;",
            "FFma.F32 ftz Rp %f1 <- %f2, %f3, %f4",
        ),
        (
            "div.rn.f64 %fd1, %fd2, %fd3;",
            "FDiv.F64 Rn %fd1 <- %fd2, %fd3",
        ),
        (
            "div.approx.ftz.f32 %f1, %f2, %f3;",
            "FDiv.F32 ftz approx %f1 <- %f2, %f3",
        ),
        (
            "div.full.f32 %f1, %f2, %f3;",
            "FDiv.F32 approx %f1 <- %f2, %f3",
        ),
        ("abs.ftz.f32 %f1, %f2;", "FAbs.F32 ftz %f1 <- %f2"),
        ("abs.f64 %fd1, %fd2;", "FAbs.F64 %fd1 <- %fd2"),
        ("neg.f32 %f1, %f2;", "FNeg.F32 %f1 <- %f2"),
        ("min.ftz.f32 %f1, %f2, %f3;", "FMin.F32 ftz %f1 <- %f2, %f3"),
        ("max.f64 %fd1, %fd2, %fd3;", "FMax.F64 %fd1 <- %fd2, %fd3"),
        ("rcp.rn.f32 %f1, %f2;", "FRcp.F32 Rn %f1 <- %f2"),
        (
            "rcp.approx.ftz.f64 %fd1, %fd2;",
            "FRcp.F64 ftz approx %fd1 <- %fd2",
        ),
        ("sqrt.rn.f64 %fd1, %fd2;", "FSqrt.F64 Rn %fd1 <- %fd2"),
        (
            "sqrt.approx.ftz.f32 %f1, %f2;",
            "FSqrt.F32 ftz approx %f1 <- %f2",
        ),
        (
            "rsqrt.approx.f64 %fd1, %fd2;",
            "FRsqrt.F64 approx %fd1 <- %fd2",
        ),
        (
            "ex2.approx.ftz.f32 %f1, %f2;",
            "FEx2.F32 ftz approx %f1 <- %f2",
        ),
        ("lg2.approx.f32 %f1, %f2;", "FLg2.F32 approx %f1 <- %f2"),
        ("sin.approx.f32 %f1, %f2;", "FSin.F32 approx %f1 <- %f2"),
        (
            "cos.approx.ftz.f32 %f1, %f2;",
            "FCos.F32 ftz approx %f1 <- %f2",
        ),
        ("tanh.approx.f32 %f1, %f2;", "FTanh.F32 approx %f1 <- %f2"),
        ("testp.finite.f64 %p1, %fd1;", "Testp.F64 %p1 <- %fd1"),
        (
            "testp.notanumber.f32 %p1, %f1;",
            "Testp.F32 testp3 %p1 <- %f1",
        ),
        (
            "testp.subnormal.f32 %p1, %f1;",
            "Testp.F32 testp5 %p1 <- %f1",
        ),
        (
            "copysign.f32 %f1, %f2, %f3;",
            "Copysign.F32 %f1 <- %f2, %f3",
        ),
        ("add.f16 %rs1, %rs2, %rs3;", "FAdd.F16 %rs1 <- %rs2, %rs3"),
        (
            "mul.rn.bf16 %rs1, %rs2, %rs3;",
            "FMul.BF16 Rn %rs1 <- %rs2, %rs3",
        ),
        (
            "fma.rn.f16x2 %r1, %r2, %r3, %r4;",
            "FFma.F16x2 Rn %r1 <- %r2, %r3, %r4",
        ),
        ("neg.f16x2 %r1, %r2;", "FNeg.F16x2 %r1 <- %r2"),
    ]);
}

#[test]
fn comparisons() {
    let mut cases = Vec::new();
    let int_cmps = ["eq", "ne", "lt", "le", "gt", "ge", "lo", "ls", "hi", "hs"];
    let float_cmps = ["equ", "neu", "ltu", "leu", "gtu", "geu", "num", "nan"];
    let lines: Vec<(String, String)> = int_cmps
        .iter()
        .map(|c| {
            (
                format!("setp.{c}.u32 %p1, %r1, %r2;"),
                format!("Setp.U32 {} %p1 <- %r1, %r2", title(c)),
            )
        })
        .chain(float_cmps.iter().map(|c| {
            (
                format!("setp.{c}.f32 %p1, %f1, %f2;"),
                format!("Setp.F32 {} %p1 <- %f1, %f2", title(c)),
            )
        }))
        .collect();
    for (a, b) in &lines {
        cases.push((a.as_str(), b.as_str()));
    }
    check_table(&cases);
    check_table(&[
        ("setp.lt.s32 %p1, %r1, 100;", "Setp.S32 Lt %p1 <- %r1, 100"),
        (
            "setp.gt.and.f32 %p1|%p2, %f1, %f2, !%p3;",
            "Setp.F32 Gt And %p1|%p2 <- %f1, %f2, !%p3",
        ),
        (
            "setp.ne.or.s64 %p1, %rd1, 0, %p3;",
            "Setp.S64 Ne Or %p1 <- %rd1, 0, %p3",
        ),
        (
            "setp.eq.xor.b32 %p1, %r1, %r2, %p3;",
            "Setp.B32 Eq Xor %p1 <- %r1, %r2, %p3",
        ),
        (
            "setp.geu.ftz.f32 %p1, %f1, 0f00000000;",
            "Setp.F32 Geu ftz %p1 <- %f1, 0",
        ),
        (
            "setp.ltu.f64 %p1, %fd1, %fd2;",
            "Setp.F64 Ltu %p1 <- %fd1, %fd2",
        ),
        (
            "set.lt.u32.s32 %r1, %r2, %r3;",
            "Set.U32.S32 Lt %r1 <- %r2, %r3",
        ),
        (
            "set.eq.or.f32.f32 %f1, %f2, %f3, %p1;",
            "Set.F32 Eq Or %f1 <- %f2, %f3, %p1",
        ),
        ("selp.b32 %r1, %r2, 7, %p1;", "Selp.B32 %r1 <- %r2, 7, %p1"),
        (
            "selp.f64 %fd1, %fd2, 0d0000000000000000, !%p1;",
            "Selp.F64 %fd1 <- %fd2, 0, !%p1",
        ),
        ("selp.u16 %rs1, 1, 0, %p1;", "Selp.U16 %rs1 <- 1, 0, %p1"),
        (
            "slct.s32.s32 %r1, %r2, %r3, %r4;",
            "Slct.S32 %r1 <- %r2, %r3, %r4",
        ),
        (
            "slct.u32.f32 %r1, %r2, %r3, %f1;",
            "Slct.U32.F32 %r1 <- %r2, %r3, %f1",
        ),
        (
            "slct.ftz.f32.f32 %f1, %f2, %f3, %f4;",
            "Slct.F32 ftz %f1 <- %f2, %f3, %f4",
        ),
    ]);
}

/// `eq` → `Eq`, as the IR's Debug spells CmpOp.
fn title(s: &str) -> String {
    let mut c = s.chars();
    c.next()
        .map(|f| f.to_ascii_uppercase().to_string() + c.as_str())
        .unwrap_or_default()
}

#[test]
fn moves_and_conversions() {
    check_table(&[
        ("mov.u32 %r1, %r2;", "Mov.U32 %r1 <- %r2"),
        ("mov.f32 %f1, 0f3F800000;", "Mov.F32 %f1 <- 0x3f800000"),
        ("mov.b32 %r1, 0f3F800000;", "Mov.B32 %r1 <- 0x3f800000"),
        ("mov.u64 %rd1, 0x1000;", "Mov.U64 %rd1 <- 4096"),
        ("mov.pred %p1, %p2;", "Mov.Pred %p1 <- %p2"),
        ("mov.pred %p1, 1;", "Mov.Pred %p1 <- 1"),
        ("mov.pred %p1, -1;", "Mov.Pred %p1 <- 1"),
        ("mov.pred %p1, 0;", "Mov.Pred %p1 <- 0"),
        ("mov.u32 %r1, %tid.x;", "Mov.U32 %r1 <- %TidX"),
        ("mov.u64 %rd1, %clock64;", "Mov.U64 %rd1 <- %Clock64"),
        ("mov.b64 %rd1, {%r1, %r2};", "Mov.B64 %rd1 <- {%r1,%r2}"),
        ("mov.b64 {%r1, %r2}, %rd1;", "Mov.B64 {%r1,%r2} <- %rd1"),
        ("mov.b64 {%r1, _}, %rd1;", "Mov.B64 {%r1,_} <- %rd1"),
        ("mov.b32 {%rs1, %rs2}, %r1;", "Mov.B32 {%rs1,%rs2} <- %r1"),
        (
            "mov.b64 %rd1, {%rs0, %rs1, %rs2, %rs3};",
            "Mov.B64 %rd1 <- {%rs0,%rs1,%rs2,%rs3}",
        ),
        ("mov.u64 %rd1, gbuf;", "Mov.U64 %rd1 <- &ModuleGlobals+0"),
        ("mov.u64 %rd1, gbuf+8;", "Mov.U64 %rd1 <- &ModuleGlobals+8"),
        ("mov.u64 %rd1, cval;", "Mov.U64 %rd1 <- &ModuleGlobals+64"),
        ("mov.u32 %r1, sbuf;", "Mov.U32 %r1 <- &Absolute+0"),
        ("mov.u32 %r1, dyn;", "Mov.U32 %r1 <- &DynShared+0"),
        ("mov.u64 %rd1, __local_depot0;", "Mov.U64 %rd1 <- &Frame+0"),
        ("mov.u64 %rd1, k_p1;", "Mov.U64 %rd1 <- &Absolute+8"),
        ("mov.u64 %rd1, callee;", "Mov.U64 %rd1 <- 0xe0000000000"),
        ("cvt.rn.f32.s32 %f1, %r1;", "Cvt.F32.S32 Rn %f1 <- %r1"),
        ("cvt.rz.f32.f64 %f1, %fd1;", "Cvt.F32.F64 Rz %f1 <- %fd1"),
        ("cvt.rm.f32.u64 %f1, %rd1;", "Cvt.F32.U64 Rm %f1 <- %rd1"),
        ("cvt.rp.f64.s64 %fd1, %rd1;", "Cvt.F64.S64 Rp %fd1 <- %rd1"),
        ("cvt.rni.s32.f32 %r1, %f1;", "Cvt.S32.F32 Rni %r1 <- %f1"),
        ("cvt.rzi.s32.f64 %r1, %fd1;", "Cvt.S32.F64 Rzi %r1 <- %fd1"),
        ("cvt.rmi.f32.f32 %f1, %f2;", "Cvt.F32 Rmi %f1 <- %f2"),
        (
            "cvt.rpi.ftz.s64.f32 %rd1, %f1;",
            "Cvt.S64.F32 ftz Rpi %rd1 <- %f1",
        ),
        (
            "cvt.ftz.sat.f32.f32 %f1, %f2;",
            "Cvt.F32 ftz sat %f1 <- %f2",
        ),
        ("cvt.f64.f32 %fd1, %f1;", "Cvt.F64.F32 %fd1 <- %f1"),
        ("cvt.u64.u32 %rd1, %r1;", "Cvt.U64.U32 %rd1 <- %r1"),
        ("cvt.s64.s32 %rd1, %r1;", "Cvt.S64.S32 %rd1 <- %r1"),
        ("cvt.u16.u32 %rs1, %r1;", "Cvt.U16.U32 %rs1 <- %r1"),
        ("cvt.rn.f16.f32 %rs1, %f1;", "Cvt.F16.F32 Rn %rs1 <- %f1"),
        ("cvt.f32.bf16 %f1, %rs1;", "Cvt.F32.BF16 %f1 <- %rs1"),
        (
            "cvt.rn.f16x2.f32 %r1, %f1, %f2;",
            "Cvt.F16x2.F32 Rn %r1 <- %f1, %f2",
        ),
        (
            "cvta.to.global.u64 %rd1, %rd2;",
            "Cvta.U64 to Global %rd1 <- %rd2",
        ),
        (
            "cvta.global.u64 %rd1, gbuf;",
            "Cvta.U64 Global %rd1 <- &ModuleGlobals+0",
        ),
        (
            "cvta.shared.u64 %rd1, %rd2;",
            "Cvta.U64 Shared %rd1 <- %rd2",
        ),
        (
            "cvta.to.shared.u32 %r1, %r2;",
            "Cvta.U32 to Shared %r1 <- %r2",
        ),
        ("cvta.local.u64 %rd1, %rd2;", "Cvta.U64 Local %rd1 <- %rd2"),
        ("cvta.const.u64 %rd1, %rd2;", "Cvta.U64 Const %rd1 <- %rd2"),
        (
            "cvta.param.u64 %rd1, %rd2;",
            "Cvta.U64 KernelParam %rd1 <- %rd2",
        ),
    ]);
}

#[test]
fn special_registers() {
    let sregs = [
        ("%tid.y", "TidY"),
        ("%tid.z", "TidZ"),
        ("%ntid.x", "NtidX"),
        ("%ntid.z", "NtidZ"),
        ("%ctaid.x", "CtaidX"),
        ("%ctaid.y", "CtaidY"),
        ("%nctaid.x", "NctaidX"),
        ("%nctaid.z", "NctaidZ"),
        ("%laneid", "Laneid"),
        ("%warpid", "Warpid"),
        ("%nwarpid", "Nwarpid"),
        ("%smid", "Smid"),
        ("%nsmid", "Nsmid"),
        ("%gridid", "Gridid"),
        ("%clock", "Clock"),
        ("%clock_hi", "ClockHi"),
        ("%globaltimer", "GlobalTimer"),
        ("%globaltimer_lo", "GlobalTimerLo"),
        ("%globaltimer_hi", "GlobalTimerHi"),
        ("%lanemask_eq", "LanemaskEq"),
        ("%lanemask_lt", "LanemaskLt"),
        ("%lanemask_le", "LanemaskLe"),
        ("%lanemask_gt", "LanemaskGt"),
        ("%lanemask_ge", "LanemaskGe"),
        ("%total_smem_size", "TotalSmemSize"),
        ("%dynamic_smem_size", "DynamicSmemSize"),
        ("%envreg1", "Envreg(1)"),
        ("%envreg31", "Envreg(31)"),
    ];
    let owned: Vec<(String, String)> = sregs
        .iter()
        .map(|(s, v)| (format!("mov.u32 %r1, {s};"), format!("Mov.U32 %r1 <- %{v}")))
        .collect();
    let cases: Vec<(&str, &str)> = owned
        .iter()
        .map(|(a, b)| (a.as_str(), b.as_str()))
        .collect();
    check_table(&cases);
}

#[test]
fn loads_and_stores() {
    check_table(&[
        (
            "ld.global.f32 %f1, [%rd1];",
            "Ld.F32 Global %f1 <- [%rd1+0]",
        ),
        (
            "ld.global.u8 %rs1, [%rd1+3];",
            "Ld.U8 Global %rs1 <- [%rd1+3]",
        ),
        (
            "ld.global.s16 %rs1, [%rd1];",
            "Ld.S16 Global %rs1 <- [%rd1+0]",
        ),
        (
            "ld.global.nc.v4.f32 {%f1,%f2,%f3,%f4}, [%rd1+16];",
            "Ld.F32 nc Global v4 {%f1,%f2,%f3,%f4} <- [%rd1+16]",
        ),
        (
            "ld.global.v2.u32 {%r1, _}, [%rd1];",
            "Ld.U32 Global v2 {%r1,_} <- [%rd1+0]",
        ),
        (
            "ld.global.v4.u8 {%rs0,%rs1,%rs2,%rs3}, [%rd1];",
            "Ld.U8 Global v4 {%rs0,%rs1,%rs2,%rs3} <- [%rd1+0]",
        ),
        (
            "ld.volatile.global.u32 %r1, [%rd1];",
            "Ld.U32 volatile Global %r1 <- [%rd1+0]",
        ),
        (
            "ld.volatile.u32 %r1, [%rd1];",
            "Ld.U32 volatile %r1 <- [%rd1+0]",
        ),
        (
            "ld.relaxed.gpu.global.u32 %r1, [%rd1];",
            "Ld.U32 Global %r1 <- [%rd1+0]",
        ),
        ("ld.acquire.gpu.u32 %r1, [%rd1];", "Ld.U32 %r1 <- [%rd1+0]"),
        (
            "ld.weak.global.cg.u32 %r1, [%rd1];",
            "Ld.U32 Global %r1 <- [%rd1+0]",
        ),
        (
            "ld.global.ca.u32 %r1, [%rd1];",
            "Ld.U32 Global %r1 <- [%rd1+0]",
        ),
        (
            "ld.global.cs.u32 %r1, [%rd1];",
            "Ld.U32 Global %r1 <- [%rd1+0]",
        ),
        (
            "ld.global.lu.u32 %r1, [%rd1];",
            "Ld.U32 Global %r1 <- [%rd1+0]",
        ),
        (
            "ld.global.cv.u32 %r1, [%rd1];",
            "Ld.U32 Global %r1 <- [%rd1+0]",
        ),
        (
            "ld.global.L1::evict_last.u32 %r1, [%rd1];",
            "Ld.U32 Global %r1 <- [%rd1+0]",
        ),
        (
            "ld.global.nc.L2::128B.f32 %f1, [%rd1];",
            "Ld.F32 nc Global %f1 <- [%rd1+0]",
        ),
        (
            "ld.global.L2::cache_hint.u32 %r1, [%rd1], %rd2;",
            "Ld.U32 Global %r1 <- [%rd1+0]",
        ),
        (
            "ld.shared.u32 %r1, [%r2+4];",
            "Ld.U32 Shared %r1 <- [%r2+4]",
        ),
        (
            "ld.shared::cta.u32 %r1, [%r2];",
            "Ld.U32 Shared %r1 <- [%r2+0]",
        ),
        (
            "ld.shared.f32 %f1, [sbuf+8];",
            "Ld.F32 Shared %f1 <- [Absolute+8]",
        ),
        (
            "ld.shared.v2.f32 {%f1, %f2}, [dyn+16];",
            "Ld.F32 Shared v2 {%f1,%f2} <- [DynShared+16]",
        ),
        (
            "ld.local.u32 %r1, [__local_depot0+4];",
            "Ld.U32 Local %r1 <- [Frame+4]",
        ),
        ("ld.local.u32 %r1, [%rd1];", "Ld.U32 Local %r1 <- [%rd1+0]"),
        (
            "ld.const.f64 %fd1, [cval];",
            "Ld.F64 Const %fd1 <- [ModuleGlobals+64]",
        ),
        (
            "ld.const.u32 %r1, [%rd1+8];",
            "Ld.U32 Const %r1 <- [%rd1+8]",
        ),
        (
            "ld.global.u32 %r1, [gbuf+4];",
            "Ld.U32 Global %r1 <- [ModuleGlobals+4]",
        ),
        (
            "ld.param.u64 %rd1, [k_p0];",
            "Ld.U64 KernelParam %rd1 <- [Absolute+0]",
        ),
        (
            "ld.param.u32 %r1, [k_p1];",
            "Ld.U32 KernelParam %r1 <- [Absolute+8]",
        ),
        (
            "ld.param.u32 %r1, [%rd1];",
            "Ld.U32 KernelParam %r1 <- [%rd1+0]",
        ),
        ("ld.u32 %r1, [%rd1+-8];", "Ld.U32 %r1 <- [%rd1+-8]"),
        (
            "ld.u32 %r1, [gbuf];",
            "Ld.U32 Global %r1 <- [ModuleGlobals+0]",
        ),
        ("ld.f32 %f1, [sbuf+4];", "Ld.F32 Shared %f1 <- [Absolute+4]"),
        ("ld.u32 %r1, [4096];", "Ld.U32 %r1 <- [Absolute+4096]"),
        (
            "st.global.f32 [%rd1], %f1;",
            "St.F32 Global <- [%rd1+0], %f1",
        ),
        (
            "st.global.f32 [%rd1+4], 0f3F800000;",
            "St.F32 Global <- [%rd1+4], 0x3f800000",
        ),
        ("st.global.u64 [%rd1], 0;", "St.U64 Global <- [%rd1+0], 0"),
        (
            "st.shared.v2.u32 [%r1], {%r2, %r3};",
            "St.U32 Shared v2 <- [%r1+0], {%r2,%r3}",
        ),
        (
            "st.local.v4.f32 [%rd1+16], {%f1,%f2,%f3,%f4};",
            "St.F32 Local v4 <- [%rd1+16], {%f1,%f2,%f3,%f4}",
        ),
        (
            "st.volatile.global.u32 [%rd1], %r1;",
            "St.U32 volatile Global <- [%rd1+0], %r1",
        ),
        (
            "st.release.gpu.global.u32 [%rd1], %r1;",
            "St.U32 Global <- [%rd1+0], %r1",
        ),
        (
            "st.global.wb.u32 [%rd1], %r1;",
            "St.U32 Global <- [%rd1+0], %r1",
        ),
        (
            "st.global.wt.u32 [%rd1], %r1;",
            "St.U32 Global <- [%rd1+0], %r1",
        ),
        (
            "st.local.u32 [__local_depot0+8], %r1;",
            "St.U32 Local <- [Frame+8], %r1",
        ),
        ("st.u8 [%rd1], %rs1;", "St.U8 <- [%rd1+0], %rs1"),
    ]);
}

#[test]
fn atomics_and_hints() {
    check_table(&[
        (
            "atom.global.add.u32 %r1, [%rd1], 1;",
            "Atom.U32 Global %r1 <- [%rd1+0], 1",
        ),
        (
            "atom.global.add.f32 %f1, [%rd1], 0f3F800000;",
            "Atom.F32 Global %f1 <- [%rd1+0], 0x3f800000",
        ),
        (
            "atom.global.add.f64 %fd1, [%rd1], %fd2;",
            "Atom.F64 Global %fd1 <- [%rd1+0], %fd2",
        ),
        (
            "atom.global.add.noftz.f32 %f1, [%rd1], %f2;",
            "Atom.F32 Global %f1 <- [%rd1+0], %f2",
        ),
        (
            "atom.global.add.u64 %rd1, [%rd2], %rd3;",
            "Atom.U64 Global %rd1 <- [%rd2+0], %rd3",
        ),
        (
            "atom.shared.add.u32 %r1, [sbuf+4], 1;",
            "Atom.U32 Shared %r1 <- [Absolute+4], 1",
        ),
        (
            "atom.shared.cas.b32 %r1, [%r2], %r3, %r4;",
            "Atom.B32 Shared Cas %r1 <- [%r2+0], %r3, %r4",
        ),
        (
            "atom.global.cas.b64 %rd1, [%rd2], %rd3, %rd4;",
            "Atom.B64 Global Cas %rd1 <- [%rd2+0], %rd3, %rd4",
        ),
        (
            "atom.exch.b32 %r1, [%rd1], %r2;",
            "Atom.B32 Exch %r1 <- [%rd1+0], %r2",
        ),
        (
            "atom.global.inc.u32 %r1, [%rd1], 16;",
            "Atom.U32 Global Inc %r1 <- [%rd1+0], 16",
        ),
        (
            "atom.global.dec.u32 %r1, [%rd1], 16;",
            "Atom.U32 Global Dec %r1 <- [%rd1+0], 16",
        ),
        (
            "atom.global.min.s32 %r1, [%rd1], %r2;",
            "Atom.S32 Global Min %r1 <- [%rd1+0], %r2",
        ),
        (
            "atom.global.max.u64 %rd1, [%rd2], %rd3;",
            "Atom.U64 Global Max %rd1 <- [%rd2+0], %rd3",
        ),
        (
            "atom.global.and.b32 %r1, [%rd1], %r2;",
            "Atom.B32 Global And %r1 <- [%rd1+0], %r2",
        ),
        (
            "atom.global.or.b64 %rd1, [%rd2], %rd3;",
            "Atom.B64 Global Or %rd1 <- [%rd2+0], %rd3",
        ),
        (
            "atom.global.xor.b32 %r1, [%rd1], %r2;",
            "Atom.B32 Global Xor %r1 <- [%rd1+0], %r2",
        ),
        (
            "atom.add.release.gpu.u32 %r1, [%rd1], 1;",
            "Atom.U32 %r1 <- [%rd1+0], 1",
        ),
        (
            "atom.acq_rel.sys.global.max.s64 %rd1, [%rd2], %rd3;",
            "Atom.S64 Global Max %rd1 <- [%rd2+0], %rd3",
        ),
        (
            "red.global.add.u32 [%rd1], %r1;",
            "Red.U32 Global <- [%rd1+0], %r1",
        ),
        (
            "red.shared.or.b32 [sbuf], 1;",
            "Red.B32 Shared Or <- [Absolute+0], 1",
        ),
        (
            "mbarrier.init.shared.b64 [%r2], %r3;",
            "Red.B64 Shared MbarInit <- [%r2+0], %r3",
        ),
        (
            "mbarrier.arrive.shared.b64 %rd1, [%r2];",
            "Atom.B64 Shared MbarArrive %rd1 <- [%r2+0]",
        ),
        (
            "mbarrier.arrive.release.cta.shared::cta.b64 %rd1, [%r2], %r3;",
            "Atom.B64 Shared MbarArrive %rd1 <- [%r2+0], %r3",
        ),
        (
            "mbarrier.test_wait.shared.b64 %p1, [%r2], %rd3;",
            "Atom.B64 Shared MbarTest %p1 <- [%r2+0], %rd3",
        ),
        (
            "mbarrier.try_wait.parity.shared::cta.b64 %p1, [%r2], %r3;",
            "Atom.B64 Shared MbarTestParity %p1 <- [%r2+0], %r3",
        ),
        (
            "mbarrier.inval.shared.b64 [%r2];",
            "Red.B64 Shared MbarInval <- [%r2+0]",
        ),
        (
            "cp.async.mbarrier.arrive.shared.b64 [%r2];",
            "Red.B64 Shared MbarKeep <- [%r2+0]",
        ),
        (
            "cp.async.mbarrier.arrive.noinc.shared.b64 [%r2];",
            "Red.B64 Shared MbarArrive <- [%r2+0]",
        ),
        (
            "red.relaxed.gpu.global.add.f32 [%rd1], %f1;",
            "Red.F32 Global <- [%rd1+0], %f1",
        ),
        (
            "prefetch.global.L2 [%rd1];",
            "MemHint.B8 Global <- [%rd1+0]",
        ),
        ("prefetch.local.L1 [%rd1];", "MemHint.B8 Local <- [%rd1+0]"),
        ("prefetch.L1 [%rd1];", "MemHint.B8 <- [%rd1+0]"),
        (
            "prefetch.global.L2::evict_last [%rd1];",
            "MemHint.B8 Global <- [%rd1+0]",
        ),
        ("prefetchu.L1 [%rd1];", "MemHint.B8 <- [%rd1+0]"),
        (
            "discard.global.L2 [%rd1], 128;",
            "MemHint.B8 Global <- [%rd1+0], 128",
        ),
        ("cp.async.commit_group;", "CpAsyncCommit.B8"),
        ("cp.async.wait_group 1;", "CpAsyncWait.B8 <- 1"),
        ("cp.async.wait_all;", "CpAsyncWaitAll.B8"),
        (
            "cp.async.ca.shared.global [%r1], [%rd1], 4;",
            "CpAsync.B32 Global <- [%r1+0], [%rd1+0], 4",
        ),
        (
            "cp.async.ca.shared.global [%r1+8], [%rd1+16], 8, %r2;",
            "CpAsync.B64 Global <- [%r1+8], [%rd1+16], 8, %r2",
        ),
        (
            "cp.async.cg.shared.global.L2::128B [%r1], [%rd1], 16, 0;",
            "CpAsync.B128 Global <- [%r1+0], [%rd1+0], 16, 0",
        ),
        // With a cache policy: four operands have no src-size, five do.
        (
            "cp.async.ca.shared::cta.global.L2::cache_hint [%r1], [%rd1], 16, %rd2;",
            "CpAsync.B128 Global <- [%r1+0], [%rd1+0], 16",
        ),
        (
            "cp.async.cg.shared.global.L2::cache_hint [%r1], [%rd1], 16, %r2, %rd2;",
            "CpAsync.B128 Global <- [%r1+0], [%rd1+0], 16, %r2",
        ),
        // Eviction and prefetch-size hints are accepted and do not change the load.
        (
            "ld.global.nc.L2::128B.v4.f32 {%f1,%f2,%f3,%f4}, [%rd1];",
            "Ld.F32 nc Global v4 {%f1,%f2,%f3,%f4} <- [%rd1+0]",
        ),
        (
            "ld.global.L1::evict_last.L2::256B.u32 %r1, [%rd1];",
            "Ld.U32 Global %r1 <- [%rd1+0]",
        ),
    ]);
}

#[test]
fn barriers_and_control() {
    check_table(&[
        ("bar.sync 0;", "Bar.B32 <- 0"),
        ("bar.sync 1, 64;", "Bar.B32 <- 1, 64"),
        ("bar.sync %r1, %r2;", "Bar.B32 <- %r1, %r2"),
        ("barrier.sync 0;", "Bar.B32 <- 0"),
        ("barrier.sync.aligned 0;", "Bar.B32 <- 0"),
        ("barrier.cta.sync.aligned 2, 128;", "Bar.B32 <- 2, 128"),
        ("bar.arrive 1, 64;", "Bar.B32 Arrive <- 1, 64"),
        ("barrier.arrive.aligned 1, 64;", "Bar.B32 Arrive <- 1, 64"),
        (
            "bar.red.popc.u32 %r1, 0, %p1;",
            "Bar.U32 RedPopc %r1 <- 0, %p1",
        ),
        (
            "bar.red.and.pred %p1, 0, 128, !%p2;",
            "Bar.Pred RedAnd %p1 <- 0, 128, !%p2",
        ),
        (
            "bar.red.or.pred %p1, 1, %p2;",
            "Bar.Pred RedOr %p1 <- 1, %p2",
        ),
        ("bar.warp.sync -1;", "BarWarpSync.B32 <- -1"),
        ("membar.cta;", "Membar.B32"),
        ("membar.gl;", "Membar.B32"),
        ("membar.sys;", "Membar.B32"),
        ("fence.sc.gpu;", "Membar.B32"),
        ("fence.acq_rel.sys;", "Membar.B32"),
        ("fence.proxy.alias;", "Membar.B32"),
        ("nanosleep.u32 100;", "Nanosleep.U32 <- 100"),
        ("nanosleep.u32 %r1;", "Nanosleep.U32 <- %r1"),
        ("griddepcontrol.wait;", "Nop.B32"),
        ("griddepcontrol.launch_dependents;", "Nop.B32"),
        ("ret;", "Ret.B32"),
        ("ret.uni;", "Ret.B32 uni"),
        ("exit;", "Exit.B32"),
        ("trap;", "Trap.B32"),
        ("@%p1 add.s32 %r1, %r2, 1;", "@%p1 IAdd.S32 %r1 <- %r2, 1"),
        (
            "@!%p2 st.global.u32 [%rd1], %r1;",
            "@!%p2 St.U32 Global <- [%rd1+0], %r1",
        ),
        ("@%p1 exit;", "@%p1 Exit.B32"),
    ]);
}

#[test]
fn warp_level() {
    check_table(&[
        (
            "shfl.sync.down.b32 %r1|%p1, %r2, 1, 31, -1;",
            "Shfl.B32 Down %r1|%p1 <- %r2, 1, 31, -1",
        ),
        (
            "shfl.sync.up.b32 %r1|%p1, %r2, %r3, 0, %r4;",
            "Shfl.B32 Up %r1|%p1 <- %r2, %r3, 0, %r4",
        ),
        (
            "shfl.sync.bfly.b32 %r1, %r2, 16, 31, -1;",
            "Shfl.B32 Bfly %r1 <- %r2, 16, 31, -1",
        ),
        (
            "shfl.sync.idx.b32 %r1, %r2, %r3, 31, %r4;",
            "Shfl.B32 %r1 <- %r2, %r3, 31, %r4",
        ),
        (
            "shfl.down.b32 %r1, %r2, 1, 31;",
            "Shfl.B32 Down %r1 <- %r2, 1, 31, 0xffffffff",
        ),
        (
            "vote.sync.all.pred %p1, %p2, -1;",
            "Vote.Pred %p1 <- %p2, -1",
        ),
        (
            "vote.sync.any.pred %p1, !%p2, %r1;",
            "Vote.Pred Any %p1 <- !%p2, %r1",
        ),
        (
            "vote.sync.uni.pred %p1, %p2, -1;",
            "Vote.Pred Uni %p1 <- %p2, -1",
        ),
        (
            "vote.sync.ballot.b32 %r1, %p1, -1;",
            "Vote.B32 Ballot %r1 <- %p1, -1",
        ),
        (
            "vote.ballot.b32 %r1, %p1;",
            "Vote.B32 Ballot %r1 <- %p1, 0xffffffff",
        ),
        (
            "vote.any.pred %p1, %p2;",
            "Vote.Pred Any %p1 <- %p2, 0xffffffff",
        ),
        ("activemask.b32 %r1;", "Activemask.B32 %r1"),
        (
            "match.any.sync.b32 %r1, %r2, -1;",
            "Match.B32 %r1 <- %r2, -1",
        ),
        (
            "match.all.sync.b64 %r1|%p1, %rd1, -1;",
            "Match.B64 all %r1|%p1 <- %rd1, -1",
        ),
        (
            "redux.sync.add.s32 %r1, %r2, -1;",
            "Redux.S32 %r1 <- %r2, -1",
        ),
        (
            "redux.sync.min.u32 %r1, %r2, %r3;",
            "Redux.U32 Min %r1 <- %r2, %r3",
        ),
        (
            "redux.sync.max.s32 %r1, %r2, -1;",
            "Redux.S32 Max %r1 <- %r2, -1",
        ),
        (
            "redux.sync.and.b32 %r1, %r2, -1;",
            "Redux.B32 And %r1 <- %r2, -1",
        ),
        (
            "redux.sync.or.b32 %r1, %r2, -1;",
            "Redux.B32 Or %r1 <- %r2, -1",
        ),
        (
            "redux.sync.xor.b32 %r1, %r2, -1;",
            "Redux.B32 Xor %r1 <- %r2, -1",
        ),
    ]);
}
