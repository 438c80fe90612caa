//! Memory layouts: the kernel parameter buffer, device-function frames, shared memory, the
//! global image with its relocations; and registers, scopes and per-function metadata.

use crate::lower_util as util;

use util::{func, listing, lower};
use warpsim_core::ir::{GlobalVar, Opnd, ParamSlot, Reloc};

const HEAD: &str = ".version 9.5\n.target sm_75\n.address_size 64\n";

fn slot(name: &str, offset: u32, size: u32, align: u32) -> ParamSlot {
    ParamSlot {
        name: name.to_string(),
        offset,
        size,
        align,
    }
}

#[test]
fn kernel_parameters_at_natural_or_written_alignment() {
    let m = lower(&format!(
        "{HEAD}.entry k(.param .u32 a, .param .u64 b, .param .align 8 .b8 s[12], .param .u8 c, .param .f32 d)\n\
         {{\n.reg .f32 %f<2>;\nld.param.f32 %f1, [s+4];\nld.param.f32 %f1, [d];\nret;\n}}\n"
    ));
    let k = func(&m, "k");
    assert!(k.is_kernel);
    assert_eq!(
        k.params,
        vec![
            slot("a", 0, 4, 4),
            slot("b", 8, 8, 8),
            slot("s", 16, 12, 8),
            slot("c", 28, 1, 1),
            slot("d", 32, 4, 4)
        ]
    );
    assert_eq!(k.param_bytes, 36);
    assert_eq!(
        listing(k),
        "  0: Ld.F32 KernelParam %f1 <- [Absolute+20]\n  1: Ld.F32 KernelParam %f1 <- [Absolute+32]\n  2: Ret.B32\n"
    );
}

#[test]
fn device_function_frame() {
    // Frame: return @0, params @8 and @16 (align 16), .local @48, then call-sequence params
    // @60.. in the first block; the sibling block reuses the same bytes.
    let m = lower(&format!(
        "{HEAD}.func (.param .b32 func_retval0) f(.param .b64 f_p0, .param .align 16 .b8 f_p1[32])\n{{\n\
         .local .align 4 .b8 __local_depot1[12];\n.reg .b32 %r<3>;\n.reg .b64 %rd<3>;\n\
         ld.param.u64 %rd1, [f_p0];\nld.param.u32 %r1, [f_p1+28];\nmov.u64 %rd2, __local_depot1;\n\
         ld.local.u32 %r1, [__local_depot1+4];\n\
         {{\n.param .b32 param0;\n.param .b64 retval0;\nst.param.b32 [param0], %r1;\nld.param.b64 %rd1, [retval0];\n}}\n\
         {{\n.param .align 16 .b8 param0[32];\nst.param.b32 [param0+4], %r1;\n}}\n\
         st.param.b32 [func_retval0], %r1;\nld.param.u32 %r2, [%rd2];\nret;\n}}\n"
    ));
    let f = func(&m, "f");
    assert!(!f.is_kernel && f.has_body);
    assert_eq!(f.returns, vec![slot("func_retval0", 0, 4, 4)]);
    assert_eq!(
        f.params,
        vec![slot("f_p0", 8, 8, 8), slot("f_p1", 16, 32, 16)]
    );
    assert_eq!((f.frame_bytes, f.frame_align), (96, 16));
    assert_eq!(
        listing(f),
        "  0: Ld.U64 Local %rd1 <- [Frame+8]
  1: Ld.U32 Local %r1 <- [Frame+44]
  2: Mov.U64 %rd2 <- &Frame+48
  3: Ld.U32 Local %r1 <- [Frame+52]
  4: St.B32 Local <- [Frame+60], %r1
  5: Ld.B64 Local %rd1 <- [Frame+64]
  6: St.B32 Local <- [Frame+68], %r1
  7: St.B32 Local <- [Frame+0], %r1
  8: Ld.U32 Local %r2 <- [%rd2+0]
  9: Ret.B32
"
    );
}

#[test]
fn kernel_frame_holds_locals_then_call_params() {
    let m = lower(&format!(
        "{HEAD}.entry k()\n{{\n.local .align 16 .b8 __local_depot0[20];\n.reg .b64 %SP;\n.reg .b64 %SPL;\n\
         mov.u64 %SPL, __local_depot0;\ncvta.local.u64 %SP, %SPL;\n\
         {{\n.param .b64 param0;\nst.param.b64 [param0], %SP;\n}}\nret;\n}}\n"
    ));
    let k = func(&m, "k");
    assert_eq!((k.frame_bytes, k.frame_align), (32, 16));
    assert_eq!(
        listing(k),
        "  0: Mov.U64 %SPL <- &Frame+0\n  1: Cvta.U64 Local %SP <- %SPL\n  2: St.B64 Local <- [Frame+24], %SP\n  3: Ret.B32\n"
    );
}

#[test]
fn shared_memory_layout() {
    let m = lower(&format!(
        "{HEAD}.shared .align 4 .b8 ms[100];\n.extern .shared .align 16 .b8 dynA[];\n.extern .shared .align 8 .b8 dynB[];\n\
         .func g()\n{{\n.shared .align 8 .b8 fs[16];\n.reg .b32 %r<2>;\nmov.u32 %r1, fs;\nret;\n}}\n\
         .entry k1()\n{{\n.shared .align 16 .b8 ks[64];\n.reg .b32 %r<3>;\nmov.u32 %r1, ks;\nmov.u32 %r2, ms;\n\
         ld.shared.u32 %r2, [ks+8];\nret;\n}}\n\
         .entry k2()\n{{\n.reg .b32 %r<2>;\nmov.u32 %r1, dynB;\nst.shared.u32 [dynA+4], %r1;\nret;\n}}\n"
    ));
    assert_eq!(m.module_shared_bytes, 120);
    let (g, k1, k2) = (func(&m, "g"), func(&m, "k1"), func(&m, "k2"));
    assert_eq!(
        listing(g),
        "  0: Mov.U32 %r1 <- &Absolute+104\n  1: Ret.B32\n"
    );
    assert_eq!(
        listing(k1),
        "  0: Mov.U32 %r1 <- &Absolute+128\n  1: Mov.U32 %r2 <- &Absolute+0\n  2: Ld.U32 Shared %r2 <- [Absolute+136]\n  3: Ret.B32\n"
    );
    assert_eq!(
        listing(k2),
        "  0: Mov.U32 %r1 <- &DynShared+0\n  1: St.U32 Shared <- [DynShared+4], %r1\n  2: Ret.B32\n"
    );
    assert_eq!((k1.shared_bytes, k1.dyn_shared_align), (192, 16));
    assert_eq!((k2.shared_bytes, k2.dyn_shared_align), (120, 16));

    let plain = lower(&format!("{HEAD}.entry k()\n{{\nret;\n}}\n"));
    assert_eq!(
        (
            func(&plain, "k").shared_bytes,
            func(&plain, "k").dyn_shared_align
        ),
        (0, 1)
    );
}

#[test]
fn global_image_and_relocations() {
    let m = lower(&format!(
        "{HEAD}.global .align 1 .b8 str[6] = {{104, 105, 0}};\n\
         .global .align 8 .u64 tab[3] = {{fa, fb, generic(arr)+4}};\n\
         .global .align 4 .u32 arr[] = {{1, 2, 3}};\n\
         .const .align 4 .f32 cf[2] = {{0f3F800000, 2.5}};\n\
         .const .align 8 .f64 cd = 0d4000000000000000;\n\
         .global .align 2 .u16 m2[2][2] = {{{{1, 2}}, {{3, -1}}}};\n\
         .global .align 4 .b32 zero[2];\n\
         .func fa()\n{{\nret;\n}}\n.func fb()\n{{\nret;\n}}\n"
    ));
    let var = |name: &str, offset, size, is_const| GlobalVar {
        name: name.to_string(),
        offset,
        size,
        is_const,
    };
    assert_eq!(
        m.globals,
        vec![
            var("str", 0, 6, false),
            var("tab", 8, 24, false),
            var("arr", 32, 12, false),
            var("cf", 44, 8, true),
            var("cd", 56, 8, true),
            var("m2", 64, 8, false),
            var("zero", 72, 8, false),
        ]
    );
    assert_eq!(m.global_align, 8);
    let mut want = vec![0u8; 80];
    want[..3].copy_from_slice(&[104, 105, 0]);
    for (i, v) in [1u32, 2, 3].iter().enumerate() {
        want[32 + 4 * i..36 + 4 * i].copy_from_slice(&v.to_le_bytes());
    }
    want[44..48].copy_from_slice(&1f32.to_le_bytes());
    want[48..52].copy_from_slice(&2.5f32.to_le_bytes());
    want[56..64].copy_from_slice(&2f64.to_le_bytes());
    for (i, v) in [1u16, 2, 3, 0xFFFF].iter().enumerate() {
        want[64 + 2 * i..66 + 2 * i].copy_from_slice(&v.to_le_bytes());
    }
    assert_eq!(m.global_image, want);
    let (fa, fb) = (m.function("fa").unwrap(), m.function("fb").unwrap());
    assert_eq!(
        m.relocs,
        vec![
            Reloc::Func { at: 8, func: fa },
            Reloc::Func { at: 16, func: fb },
            Reloc::Global {
                at: 24,
                target_offset: 36
            }
        ]
    );
}

#[test]
fn nested_blocks_shadow_registers() {
    let m = lower(&format!(
        "{HEAD}.entry k()\n{{\n.reg .b32 %r<2>;\nmov.u32 %r0, 1;\n{{\n.reg .b32 %r0;\nmov.u32 %r0, 2;\nmov.u32 %r1, %r0;\n}}\n\
         mov.u32 %r0, 3;\nret;\n}}\n"
    ));
    let k = func(&m, "k");
    assert_eq!(k.reg_names, vec!["%r0", "%r1", "%r0"]);
    let dsts: Vec<Opnd> = k.insts.iter().map(|i| i.dst[0]).collect();
    assert_eq!(
        dsts[..4],
        [Opnd::Reg(0), Opnd::Reg(2), Opnd::Reg(1), Opnd::Reg(0)]
    );
    assert_eq!(k.insts[2].src[0], Opnd::Reg(2));
}

#[test]
fn register_files_and_vector_registers() {
    let m = lower(&format!(
        "{HEAD}.entry k()\n{{\n.reg .b16 %h;\n.reg .f64 %d;\n.reg .pred %q<2>;\n.reg .v4 .f32 %v;\n.reg .b64 %rd1;\n\
         mov.f32 %v.y, 0f3F800000;\nld.global.v4.f32 %v, [%rd1];\nst.global.v2.f32 [%rd1], {{%v.r, %v.a}};\nret;\n}}\n"
    ));
    let k = func(&m, "k");
    assert_eq!(
        k.reg_names,
        vec!["%h", "%d", "%v.x", "%v.y", "%v.z", "%v.w", "%rd1"]
    );
    assert_eq!(k.reg_bits, vec![16, 64, 32, 32, 32, 32, 64]);
    assert_eq!((k.num_regs, k.num_preds), (7, 2));
    assert_eq!(k.pred_names, vec!["%q0", "%q1"]);
    assert_eq!(
        listing(k),
        "  0: Mov.F32 %v.y <- 0x3f800000
  1: Ld.F32 Global v4 {%v.x,%v.y,%v.z,%v.w} <- [%rd1+0]
  2: St.F32 Global v2 <- [%rd1+0], {%v.x,%v.w}
  3: Ret.B32
"
    );
}

#[test]
fn function_metadata() {
    let m = lower(&format!(
        "{HEAD}.func f(.param .b32 x);\n.extern .func ext();\n\
         .entry k() .maxntid 256, 1, 1 .minnctapersm 4\n{{\nret;\n}}\n\
         .entry r() .reqntid 32, 2, 1 .maxnreg 64\n{{\nret;\n}}\n\
         .func f(.param .b32 x)\n{{\nret;\n}}\n"
    ));
    let names: Vec<&str> = m.functions.iter().map(|f| f.name.as_str()).collect();
    assert_eq!(names, vec!["f", "ext", "k", "r"]);
    let (f, ext, k, r) = (func(&m, "f"), func(&m, "ext"), func(&m, "k"), func(&m, "r"));
    assert!(f.has_body && !ext.has_body && k.has_body);
    assert_eq!((f.line, ext.line, k.line, r.line), (14, 5, 6, 10));
    assert_eq!(
        (k.maxntid, k.minnctapersm, k.reqntid, k.maxnreg),
        (Some([256, 1, 1]), Some(4), None, None)
    );
    assert_eq!((r.reqntid, r.maxnreg), (Some([32, 2, 1]), Some(64)));
    assert_eq!(m.target, vec!["sm_75"]);
}

#[test]
fn instruction_lines_are_ptx_source_lines() {
    let m = lower(&format!(
        "{HEAD}.file 1 \"a.cu\"\n.entry k()\n{{\n.reg .b32 %r<3>;\n.loc 1 40 3\nmov.u32 %r1, 1;\n\n\
         // comment\nadd.s32 %r2, %r1,\n  %r1;\nret;\n}}\n"
    ));
    let lines: Vec<u32> = func(&m, "k").insts.iter().map(|i| i.line).collect();
    assert_eq!(lines, vec![9, 12, 14]);
}
