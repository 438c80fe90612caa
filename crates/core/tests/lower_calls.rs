//! Calls: call sites with caller-frame slots, register/immediate arguments, indirect calls
//! through a prototype, recursion, `.reg` parameters, and the vprintf/__assertfail built-ins.

use crate::lower_util as util;

use util::{func, kernel, listing, lower};
use warpsim_core::ir::{CallSite, Callee, Opnd};

/// `callee` (function 0 of the standard header) takes (.b32, .b64) and returns .b32; the
/// standard kernel's frame starts with its 32-byte `__local_depot0`.
#[test]
fn direct_call_through_param_variables() {
    let m = lower(&kernel(
        "{\n.param .b32 param0;\nst.param.b32 [param0], %r1;\n.param .b64 param1;\nst.param.b64 [param1], %rd1;\n\
         .param .b32 retval0;\ncall.uni (retval0), callee, (param0, param1);\nld.param.b32 %r2, [retval0];\n}",
    ));
    let k = func(&m, "k");
    assert_eq!(
        k.call_sites,
        vec![CallSite {
            callee: Callee::Direct(m.function("callee").unwrap()),
            rets: vec![(48, 4)],
            args: vec![(32, 4), (40, 8)],
            arg_values: vec![None, None],
            ret_values: vec![None],
        }]
    );
    assert_eq!(
        listing(k),
        "  0: St.B32 Local <- [Frame+32], %r1
  1: St.B64 Local <- [Frame+40], %rd1
  2: Call.B32 uni site0
  3: Ld.B32 Local %r2 <- [Frame+48]
"
    );
    let c = func(&m, "callee");
    assert_eq!(
        (
            c.returns[0].offset,
            c.params[0].offset,
            c.params[1].offset,
            c.frame_bytes
        ),
        (0, 4, 8, 16)
    );
}

#[test]
fn register_and_immediate_arguments() {
    let m = lower(&kernel("call.uni (%r2), callee, (%r1, 5);"));
    let k = func(&m, "k");
    let r = |name: &str| Opnd::Reg(k.reg_names.iter().position(|n| n == name).unwrap() as u32);
    assert_eq!(
        k.call_sites[0],
        CallSite {
            callee: Callee::Direct(0),
            rets: vec![(0, 0)],
            args: vec![(0, 0), (0, 0)],
            arg_values: vec![Some(r("%r1")), Some(Opnd::Imm(5))],
            ret_values: vec![Some(r("%r2"))],
        }
    );
}

#[test]
fn indirect_call_through_a_prototype() {
    let m = lower(&kernel(
        "mov.u64 %rd2, callee;\n{\n.param .b32 param0;\n.param .b64 param1;\n.param .b32 retval0;\n\
         proto: .callprototype (.param .b32 _) _ (.param .b32 _, .param .b64 _);\n\
         call (retval0), %rd2, (param0, param1), proto;\n}",
    ));
    let k = func(&m, "k");
    let rd2 = k.reg_names.iter().position(|n| n == "%rd2").unwrap() as u32;
    assert_eq!(k.call_sites[0].callee, Callee::Indirect(rd2));
    assert_eq!(
        (k.call_sites[0].args.clone(), k.call_sites[0].rets.clone()),
        (vec![(32, 4), (40, 8)], vec![(48, 4)])
    );
    assert_eq!(
        listing(k),
        "  0: Mov.U64 %rd2 <- 0xe0000000000\n  1: Call.B32 site0\n"
    );
}

#[test]
fn recursion_is_a_direct_call_to_itself() {
    let src = ".version 9.5\n.target sm_75\n.address_size 64\n\
        .func (.param .b32 func_retval0) fib(.param .b32 n)\n{\n.reg .b32 %r<4>;\n.reg .pred %p;\n\
        ld.param.u32 %r1, [n];\nsetp.lt.u32 %p, %r1, 2;\n@%p bra $done;\nadd.s32 %r2, %r1, -1;\n\
        {\n.param .b32 param0;\nst.param.b32 [param0], %r2;\n.param .b32 retval0;\n\
        call.uni (retval0), fib, (param0);\nld.param.b32 %r1, [retval0];\n}\n\
        $done:\nst.param.b32 [func_retval0], %r1;\nret;\n}\n";
    let m = lower(src);
    let fib = func(&m, "fib");
    assert_eq!(
        fib.call_sites[0].callee,
        Callee::Direct(m.function("fib").unwrap())
    );
    assert_eq!(fib.call_sites[0].args, vec![(8, 4)]);
    assert_eq!(fib.call_sites[0].rets, vec![(12, 4)]);
    assert_eq!(fib.frame_bytes, 16);
}

#[test]
fn reg_parameters_are_loaded_on_entry_and_stored_before_ret() {
    let src = ".version 9.5\n.target sm_75\n.address_size 64\n\
        .func (.reg .b32 rv) rf(.reg .b32 ra, .reg .b64 rb)\n{\n.reg .pred %p;\n\
        setp.eq.s32 %p, ra, 0;\n@%p bra $L1;\nadd.s32 rv, ra, 1;\n@%p ret;\n$L1:\nret;\n}\n\
        .entry k()\n{\n.reg .b32 %r<3>;\n.reg .b64 %rd1;\ncall (%r1), rf, (%r2, %rd1);\nret;\n}\n";
    let m = lower(src);
    let rf = func(&m, "rf");
    assert_eq!(rf.returns[0].offset, 0);
    assert_eq!((rf.params[0].offset, rf.params[1].offset), (4, 8));
    assert_eq!(
        listing(rf),
        "  0: Ld.B32 Local ra <- [Frame+4]
  1: Ld.B64 Local rb <- [Frame+8]
  2: Setp.S32 Eq %p <- ra, 0
  3: @%p Bra.B32 ->7 reconv 9
  4: IAdd.S32 rv <- ra, 1
  5: @%p St.B32 Local <- [Frame+0], rv
  6: @%p Ret.B32
  7: St.B32 Local <- [Frame+0], rv
  8: Ret.B32
"
    );
    let k = func(&m, "k");
    assert_eq!(k.call_sites[0].ret_values, vec![Some(Opnd::Reg(1))]);
    assert_eq!(
        k.call_sites[0].arg_values,
        vec![Some(Opnd::Reg(2)), Some(Opnd::Reg(3))]
    );
}

#[test]
fn vprintf_and_assertfail_are_builtins() {
    let src = format!(
        "{}.extern .func (.param .b32 func_retval0) vprintf(.param .b64 vprintf_param_0, .param .b64 vprintf_param_1);\n\
         .extern .func __assertfail(.param .b64 a0, .param .b64 a1, .param .b32 a2, .param .b64 a3, .param .b64 a4);\n\
         .entry k()\n{{\n.reg .b64 %rd<3>;\n.reg .b32 %r<2>;\n\
         {{\n.param .b64 param0;\nst.param.b64 [param0], %rd1;\n.param .b64 param1;\nst.param.b64 [param1], %rd2;\n\
         .param .b32 retval0;\ncall.uni (retval0), vprintf, (param0, param1);\nld.param.b32 %r1, [retval0];\n}}\n\
         {{\n.param .b64 param0;\n.param .b64 param1;\n.param .b32 param2;\n.param .b64 param3;\n.param .b64 param4;\n\
         call.uni __assertfail, (param0, param1, param2, param3, param4);\n}}\n\
         call.uni vprintf2, (%rd1, %rd2);\nret;\n}}\n\
         .func vprintf2(.param .b64 x, .param .b64 y)\n{{\nret;\n}}\n",
        ".version 9.5\n.target sm_75\n.address_size 64\n"
    );
    let m = lower(&src);
    let k = func(&m, "k");
    assert!(!func(&m, "vprintf").has_body && !func(&m, "__assertfail").has_body);
    assert_eq!(
        listing(k),
        "  0: St.B64 Local <- [Frame+0], %rd1
  1: St.B64 Local <- [Frame+8], %rd2
  2: Vprintf.B32 uni Local [Frame+16] <- [Frame+0], [Frame+8]
  3: Ld.B32 Local %r1 <- [Frame+16]
  4: AssertFail.B32 uni Local <- [Frame+0], [Frame+8], [Frame+16], [Frame+24]
  5: Call.B32 uni site0
  6: Ret.B32
"
    );
    assert_eq!(k.call_sites.len(), 1, "built-ins have no call site");
}
