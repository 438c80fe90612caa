//! Basic blocks, immediate post-dominators and the reconvergence PC of every branch.
//!
//! A divergent warp runs one side of a branch, then the other, and both meet again at the
//! branch's immediate post-dominator: the first block every path from the branch must pass
//! through. Post-dominators are dominators of the reverse CFG rooted at a virtual exit node
//! that every `ret`/`exit`/`trap` (and falling off the end) flows to. We compute them with the
//! iterative algorithm of Cooper, Harvey and Kennedy ("A Simple, Fast Dominance Algorithm"):
//! walk the reverse graph in reverse postorder, intersecting the dominators of already
//! processed predecessors, until nothing changes.
//!
//! A block that cannot reach the exit (an infinite loop) would have no post-dominator; it gets
//! a virtual edge to the exit, so it "reaches the exit sentinel" like a return would.

use crate::ir::{Function, Inst, Op, Pc, NO_PC};

/// The basic blocks of one function.
#[derive(Debug)]
pub(crate) struct Cfg {
    /// First PC of each block, ascending.
    pub starts: Vec<Pc>,
    /// Successors of each block; [`Cfg::exit`] is the virtual exit node.
    pub succs: Vec<Vec<usize>>,
}

impl Cfg {
    /// Index of the virtual exit node (one past the last block).
    pub fn exit(&self) -> usize {
        self.starts.len()
    }
}

/// Splits `insts` into basic blocks. Leaders: PC 0, branch targets, and the instruction after
/// a branch, `ret`, `exit` or `trap`. A `call` does not end a block: control comes back.
pub(crate) fn build(insts: &[Inst], tables: &[Vec<Pc>]) -> Cfg {
    let n = insts.len();
    let mut leader = vec![false; n];
    if n > 0 {
        leader[0] = true;
    }
    for (pc, inst) in insts.iter().enumerate() {
        for &t in jump_targets(inst, tables) {
            if (t as usize) < n {
                leader[t as usize] = true;
            }
        }
        if ends_block(inst.op) && pc + 1 < n {
            leader[pc + 1] = true;
        }
    }
    let starts: Vec<Pc> = (0..n).filter(|&pc| leader[pc]).map(|pc| pc as Pc).collect();
    let exit = starts.len();
    // block_of[pc] for every pc, plus pc == n (the end) mapping to the exit node.
    let mut block_of = vec![exit; n + 1];
    for (b, &s) in starts.iter().enumerate() {
        let end = starts.get(b + 1).map_or(n, |&e| e as usize);
        block_of[s as usize..end].fill(b);
    }
    let succs = (0..exit)
        .map(|b| {
            let end = starts.get(b + 1).map_or(n, |&e| e as usize);
            block_succs(&insts[end - 1], end, tables, &block_of, exit)
        })
        .collect();
    Cfg { starts, succs }
}

/// Successor blocks of the block ending with `last` (whose PC is `next_pc - 1`).
fn block_succs(
    last: &Inst,
    next_pc: usize,
    tables: &[Vec<Pc>],
    block_of: &[usize],
    exit: usize,
) -> Vec<usize> {
    let mut out = Vec::new();
    let mut add = |b: usize| {
        if !out.contains(&b) {
            out.push(b);
        }
    };
    for &t in jump_targets(last, tables) {
        add(block_of.get(t as usize).copied().unwrap_or(exit));
    }
    if matches!(last.op, Op::Ret | Op::Exit | Op::Trap) {
        add(exit);
    }
    let conditional = last.guard.pred.is_some();
    if !ends_block(last.op) || conditional {
        add(block_of[next_pc]);
    }
    out
}

fn ends_block(op: Op) -> bool {
    matches!(op, Op::Bra | Op::BrxIdx | Op::Ret | Op::Exit | Op::Trap)
}

/// Where a branch can jump: its target, or every entry of its `brx.idx` table.
fn jump_targets<'a>(inst: &'a Inst, tables: &'a [Vec<Pc>]) -> &'a [Pc] {
    match inst.op {
        Op::Bra => std::slice::from_ref(&inst.target),
        Op::BrxIdx => tables
            .get(inst.target as usize)
            .map_or(&[], |t| t.as_slice()),
        _ => &[],
    }
}

/// Immediate post-dominator of every block: a block index, or [`Cfg::exit`] when it is the
/// virtual exit. The exit's own entry is the exit.
pub(crate) fn post_dominators(cfg: &Cfg) -> Vec<usize> {
    let exit = cfg.exit();
    let mut succs = cfg.succs.clone();
    succs.push(Vec::new());
    let reaches = reaches_exit(&succs, exit);
    for (b, s) in succs.iter_mut().enumerate().take(exit) {
        if !reaches[b] {
            s.push(exit);
        }
    }
    // In the reverse graph, a node's successors are its forward predecessors.
    let preds = predecessors(&succs);
    let order = postorder(&preds, exit);
    let mut po_num = vec![usize::MAX; exit + 1];
    for (i, &b) in order.iter().enumerate() {
        po_num[b] = i;
    }
    const UNSET: usize = usize::MAX;
    let mut ipdom = vec![UNSET; exit + 1];
    ipdom[exit] = exit;
    let mut changed = true;
    while changed {
        changed = false;
        for &b in order.iter().rev().filter(|&&b| b != exit) {
            // Reverse-graph predecessors of b are its forward successors.
            let mut new = UNSET;
            for &s in succs[b].iter().filter(|&&s| ipdom[s] != UNSET) {
                new = if new == UNSET {
                    s
                } else {
                    intersect(&ipdom, &po_num, new, s)
                };
            }
            if ipdom[b] != new {
                ipdom[b] = new;
                changed = true;
            }
        }
    }
    ipdom
}

/// The common dominator of `a` and `b`: walk up from whichever has the lower postorder
/// number until they meet.
fn intersect(idom: &[usize], po: &[usize], mut a: usize, mut b: usize) -> usize {
    while a != b {
        while po[a] < po[b] {
            a = idom[a];
        }
        while po[b] < po[a] {
            b = idom[b];
        }
    }
    a
}

/// Which nodes have a forward path to `exit`.
fn reaches_exit(succs: &[Vec<usize>], exit: usize) -> Vec<bool> {
    let preds = predecessors(succs);
    let mut seen = vec![false; succs.len()];
    let mut stack = vec![exit];
    seen[exit] = true;
    while let Some(b) = stack.pop() {
        for &p in &preds[b] {
            if !seen[p] {
                seen[p] = true;
                stack.push(p);
            }
        }
    }
    seen
}

fn predecessors(succs: &[Vec<usize>]) -> Vec<Vec<usize>> {
    let mut preds = vec![Vec::new(); succs.len()];
    for (b, ss) in succs.iter().enumerate() {
        for &s in ss {
            preds[s].push(b);
        }
    }
    preds
}

/// Postorder of the nodes reachable from `root` along `edges`, iteratively (functions can
/// have thousands of blocks, too deep for recursion).
fn postorder(edges: &[Vec<usize>], root: usize) -> Vec<usize> {
    let mut order = Vec::with_capacity(edges.len());
    let mut visited = vec![false; edges.len()];
    // (node, index of the next edge to follow)
    let mut stack = vec![(root, 0usize)];
    visited[root] = true;
    while let Some((node, next)) = stack.last_mut() {
        if let Some(&s) = edges[*node].get(*next) {
            *next += 1;
            if !visited[s] {
                visited[s] = true;
                stack.push((s, 0));
            }
        } else {
            order.push(*node);
            stack.pop();
        }
    }
    order
}

/// Sets `reconv` of every `Bra`/`BrxIdx` to the first PC of its block's immediate
/// post-dominator, or `insts.len()` (the exit sentinel) when that is the virtual exit.
/// Every other instruction keeps [`NO_PC`].
pub(crate) fn set_reconvergence(func: &mut Function) {
    let cfg = build(&func.insts, &func.branch_tables);
    let ipdom = post_dominators(&cfg);
    let exit = cfg.exit();
    let len = func.insts.len() as Pc;
    for inst in &mut func.insts {
        inst.reconv = NO_PC;
    }
    for (b, &pdom) in ipdom.iter().enumerate().take(exit) {
        let end = cfg
            .starts
            .get(b + 1)
            .map_or(func.insts.len(), |&e| e as usize);
        let last = &mut func.insts[end - 1];
        if matches!(last.op, Op::Bra | Op::BrxIdx) {
            last.reconv = if pdom == exit { len } else { cfg.starts[pdom] };
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ir::Guard;

    /// One instruction of a crafted program.
    #[derive(Clone, Copy)]
    enum T {
        /// Anything that is not control flow.
        N,
        /// Unconditional `bra` to a PC.
        B(Pc),
        /// Guarded (conditional) `bra` to a PC.
        C(Pc),
        /// `ret`.
        R,
        /// Guarded `ret`.
        CR,
        /// Guarded `brx.idx` through table 0.
        X,
    }
    use T::*;

    fn inst(t: T) -> Inst {
        let guarded = Guard {
            pred: Some(0),
            negated: false,
        };
        let (op, target, guard) = match t {
            N => (Op::IAdd, 0, Guard::default()),
            B(pc) => (Op::Bra, pc, Guard::default()),
            C(pc) => (Op::Bra, pc, guarded),
            R => (Op::Ret, 0, Guard::default()),
            CR => (Op::Ret, 0, guarded),
            X => (Op::BrxIdx, 0, Guard::default()),
        };
        Inst {
            op,
            target,
            guard,
            reconv: NO_PC,
            ..Inst::default()
        }
    }

    /// Lowers a crafted program and returns (pc, reconv) of every branch.
    fn reconv(code: &[T], table: &[Pc]) -> Vec<(Pc, Pc)> {
        let mut f = Function {
            insts: code.iter().map(|&t| inst(t)).collect(),
            branch_tables: vec![table.to_vec()],
            ..Function::default()
        };
        set_reconvergence(&mut f);
        f.insts
            .iter()
            .enumerate()
            .filter(|(_, i)| matches!(i.op, Op::Bra | Op::BrxIdx))
            .map(|(pc, i)| (pc as Pc, i.reconv))
            .collect()
    }

    #[test]
    fn if_else_diamond() {
        // 0: if p goto else; 1: then; 2: goto join; 3: else; 4: join; 5: ret
        assert_eq!(reconv(&[C(3), N, B(4), N, N, R], &[]), vec![(0, 4), (2, 4)]);
    }

    #[test]
    fn if_without_else() {
        assert_eq!(reconv(&[C(2), N, N, R], &[]), vec![(0, 2)]);
    }

    #[test]
    fn nested_ifs() {
        // outer if 0..6, inner if 2..4
        assert_eq!(
            reconv(&[C(6), N, C(4), N, N, N, N, R], &[]),
            vec![(0, 6), (2, 4)]
        );
    }

    #[test]
    fn while_loop() {
        // 1: loop head exits to 4; 3: back edge
        assert_eq!(reconv(&[N, C(4), N, B(1), N, R], &[]), vec![(1, 4), (3, 1)]);
    }

    #[test]
    fn loop_with_break() {
        // 2: break to 5; 4: do-while back edge to 1
        assert_eq!(
            reconv(&[N, N, C(5), N, C(1), N, R], &[]),
            vec![(2, 5), (4, 5)]
        );
    }

    #[test]
    fn loop_with_continue() {
        // 1: continue to the latch at 4; 5: back edge to 0
        assert_eq!(
            reconv(&[N, C(4), N, N, N, C(0), R], &[]),
            vec![(1, 4), (5, 6)]
        );
    }

    #[test]
    fn early_return_inside_loop() {
        // 1: found → return path 5..6; 3: back edge; 4: after the loop → 7..8 return.
        // The two exits only meet at the virtual exit: the sentinel insts.len() = 9.
        let code = [N, C(5), N, C(0), B(7), N, R, N, R];
        assert_eq!(reconv(&code, &[]), vec![(1, 9), (3, 9), (4, 7)]);
    }

    #[test]
    fn switch_as_chained_branches() {
        // 0: case 0 → 4; 1: case 1 → 6; 2..3 default; all meet at 8.
        let code = [C(4), C(6), N, B(8), N, B(8), N, B(8), N, R];
        assert_eq!(
            reconv(&code, &[]),
            vec![(0, 8), (1, 8), (3, 8), (5, 8), (7, 8)]
        );
    }

    #[test]
    fn unreachable_code() {
        // 1..2 is never entered but still gets a post-dominator.
        assert_eq!(reconv(&[B(3), N, C(1), N, R], &[]), vec![(0, 3), (2, 3)]);
    }

    #[test]
    fn infinite_loop_reaches_exit_sentinel() {
        // 1..2 loops forever: treated as reaching the exit, so branch 0 reconverges there.
        assert_eq!(reconv(&[C(3), N, B(1), R], &[]), vec![(0, 4), (2, 4)]);
    }

    #[test]
    fn guarded_return_is_a_conditional_exit() {
        // 1: @p ret; the two sides of branch 0 only meet at the exit.
        assert_eq!(reconv(&[C(3), CR, N, N, R], &[]), vec![(0, 5)]);
    }

    #[test]
    fn brx_idx_multiway() {
        // 0: brx.idx over {1, 3, 5}; all cases meet at 7.
        let code = [X, N, B(7), N, B(7), N, B(7), N, R];
        assert_eq!(
            reconv(&code, &[1, 3, 5]),
            vec![(0, 7), (2, 7), (4, 7), (6, 7)]
        );
    }

    #[test]
    fn branch_to_end_of_function() {
        // A label after the last instruction is the exit sentinel itself.
        assert_eq!(reconv(&[C(3), N, R], &[]), vec![(0, 3)]);
    }

    #[test]
    fn blocks_split_at_targets_and_after_terminators() {
        let insts: Vec<Inst> = [N, C(3), N, N, R, N].iter().map(|&t| inst(t)).collect();
        let cfg = build(&insts, &[]);
        assert_eq!(cfg.starts, vec![0, 2, 3, 5]);
        assert_eq!(cfg.succs, vec![vec![2, 1], vec![2], vec![4], vec![4]]);
    }

    #[test]
    fn empty_function() {
        assert_eq!(reconv(&[], &[]), vec![]);
    }
}
