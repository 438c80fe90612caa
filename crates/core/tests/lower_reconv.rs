//! Branch targets and reconvergence PCs (immediate post-dominators) on crafted PTX.
//! (`cfg.rs` has the algorithm's own unit tests on crafted CFGs.)

use crate::lower_util as util;

use util::{func, kernel, listing, lower};

/// The listing of the standard kernel with `body`.
fn body_listing(body: &str) -> String {
    listing(func(&lower(&kernel(body)), "k"))
}

#[test]
fn if_else() {
    let got = body_listing(
        "setp.lt.s32 %p1, %r1, 10;\n@%p1 bra $else;\nadd.s32 %r2, %r1, 1;\nbra.uni $join;\n\
         $else:\nadd.s32 %r2, %r1, 2;\n$join:\nst.global.u32 [%rd1], %r2;\nret;",
    );
    assert_eq!(
        got,
        "  0: Setp.S32 Lt %p1 <- %r1, 10
  1: @%p1 Bra.B32 ->4 reconv 5
  2: IAdd.S32 %r2 <- %r1, 1
  3: Bra.B32 uni ->5 reconv 5
  4: IAdd.S32 %r2 <- %r1, 2
  5: St.U32 Global <- [%rd1+0], %r2
  6: Ret.B32
"
    );
}

/// The `continue` branch (4) does not reconverge at the latch: its fall-through side may
/// `break` (6), so the paths only meet after the loop.
#[test]
fn loop_with_break_and_continue() {
    let got = body_listing(
        "mov.u32 %r1, 0;\n$head:\nsetp.ge.s32 %p1, %r1, %r7;\n@%p1 bra $out;\n\
         setp.eq.s32 %p2, %r1, 5;\n@%p2 bra $latch;\n\
         setp.eq.s32 %p3, %r1, 9;\n@%p3 bra $out;\nadd.s32 %r2, %r2, %r1;\n\
         $latch:\nadd.s32 %r1, %r1, 1;\nbra.uni $head;\n$out:\nret;",
    );
    assert_eq!(
        got,
        "  0: Mov.U32 %r1 <- 0
  1: Setp.S32 Ge %p1 <- %r1, %r7
  2: @%p1 Bra.B32 ->10 reconv 10
  3: Setp.S32 Eq %p2 <- %r1, 5
  4: @%p2 Bra.B32 ->8 reconv 10
  5: Setp.S32 Eq %p3 <- %r1, 9
  6: @%p3 Bra.B32 ->10 reconv 10
  7: IAdd.S32 %r2 <- %r2, %r1
  8: IAdd.S32 %r1 <- %r1, 1
  9: Bra.B32 uni ->1 reconv 1
 10: Ret.B32
"
    );
}

#[test]
fn early_return_reconverges_at_the_exit_sentinel() {
    let got = body_listing(
        "setp.eq.s32 %p1, %r1, 0;\n@%p1 bra $ret;\nadd.s32 %r1, %r1, 1;\nexit;\n$ret:\nret;",
    );
    assert_eq!(
        got,
        "  0: Setp.S32 Eq %p1 <- %r1, 0
  1: @%p1 Bra.B32 ->4 reconv 5
  2: IAdd.S32 %r1 <- %r1, 1
  3: Exit.B32
  4: Ret.B32
"
    );
}

#[test]
fn brx_idx_switch() {
    let m = lower(&kernel(
        "$tbl: .branchtargets $c0, $c1, $c2;\nbrx.idx %r1, $tbl;\n\
         $c0:\nmov.u32 %r2, 10;\nbra.uni $end;\n$c1:\nmov.u32 %r2, 11;\nbra.uni $end;\n\
         $c2:\nmov.u32 %r2, 12;\n$end:\nret;",
    ));
    let k = func(&m, "k");
    assert_eq!(k.branch_tables, vec![vec![1, 3, 5]]);
    assert_eq!(
        listing(k),
        "  0: BrxIdx.U32 <- %r1 ->0 reconv 6
  1: Mov.U32 %r2 <- 10
  2: Bra.B32 uni ->6 reconv 6
  3: Mov.U32 %r2 <- 11
  4: Bra.B32 uni ->6 reconv 6
  5: Mov.U32 %r2 <- 12
  6: Ret.B32
"
    );
}

#[test]
fn labels_inside_nested_blocks_are_reachable_from_outside() {
    let got =
        body_listing("@%p1 bra $inner;\n{\n.reg .b32 %t;\nmov.u32 %t, 1;\n$inner:\nadd.s32 %r1, %r1, 1;\n}\nret;");
    assert_eq!(
        got,
        "  0: @%p1 Bra.B32 ->2 reconv 2
  1: Mov.U32 %t <- 1
  2: IAdd.S32 %r1 <- %r1, 1
  3: Ret.B32
"
    );
}

#[test]
fn label_at_end_of_function_is_the_exit_sentinel() {
    assert_eq!(
        body_listing("@%p1 bra $end;\nadd.s32 %r1, %r1, 1;\n$end:"),
        "  0: @%p1 Bra.B32 ->2 reconv 2\n  1: IAdd.S32 %r1 <- %r1, 1\n"
    );
}

#[test]
fn infinite_loop_does_not_crash() {
    assert_eq!(
        body_listing("@%p1 bra $spin;\nret;\n$spin:\nnanosleep.u32 10;\nbra.uni $spin;"),
        "  0: @%p1 Bra.B32 ->2 reconv 4\n  1: Ret.B32\n  2: Nanosleep.U32 <- 10\n  3: Bra.B32 uni ->2 reconv 4\n"
    );
}
