//! Shared helpers of the `lower_*` tests (included with `#[path]`): lowering snippets inside a
//! standard kernel, and rendering instructions as compact text to compare against.
// Each lower_* test uses what it needs, and this file's own test binary uses none.
#![allow(dead_code)]

use warpsim_core::ir::{Function, Inst, Mods, Module, Op, Opnd, NO_PC};
use warpsim_core::{load_ptx, LoadError};

/// Module-scope declarations every snippet can use.
pub const HEADER: &str = "\
.version 9.5
.target sm_75
.address_size 64
.global .align 4 .b8 gbuf[64];
.const .align 8 .f64 cval = 0d3FF8000000000000;
.shared .align 4 .b8 sbuf[128];
.extern .shared .align 16 .b8 dyn[];
.func (.param .b32 func_retval0) callee(.param .b32 callee_param_0, .param .b64 callee_param_1)
{
\tret;
}
";

/// Registers and variables of the standard kernel `k` (each line is one source line).
pub const KERNEL_OPEN: &str = "\
.visible .entry k(.param .u64 k_p0, .param .u32 k_p1)
{
\t.reg .pred %p<4>;
\t.reg .b16 %rs<4>;
\t.reg .b32 %r<8>;
\t.reg .b64 %rd<8>;
\t.reg .f32 %f<8>;
\t.reg .f64 %fd<8>;
\t.local .align 8 .b8 __local_depot0[32];
";

/// Line of the first body line of [`kernel`].
pub fn first_body_line() -> u32 {
    (HEADER.lines().count() + KERNEL_OPEN.lines().count() + 1) as u32
}

/// A module whose kernel `k` has `body` after the standard declarations.
pub fn kernel(body: &str) -> String {
    format!("{HEADER}{KERNEL_OPEN}{body}\n}}\n")
}

/// Lowers `src`, panicking with the errors on failure.
pub fn lower(src: &str) -> Module {
    load_ptx(src).unwrap_or_else(|e| panic!("lowering failed:\n{e}\n--- source ---\n{src}"))
}

/// Lowers `src`, which must fail, and returns its errors.
pub fn lower_errors(src: &str) -> Vec<LoadError> {
    match load_ptx(src) {
        Ok(_) => panic!("lowering succeeded but should fail:\n{src}"),
        Err(e) => e.0,
    }
}

pub fn func<'m>(m: &'m Module, name: &str) -> &'m Function {
    &m.functions[m
        .function(name)
        .unwrap_or_else(|| panic!("no function {name}")) as usize]
}

/// Lowers one instruction inside the standard kernel and renders it.
pub fn render_one(line: &str) -> String {
    let m = lower(&kernel(line));
    let k = func(&m, "k");
    assert_eq!(
        k.insts.len(),
        1,
        "`{line}` became {} instructions",
        k.insts.len()
    );
    render(&k.insts[0], k)
}

/// Compact text of an instruction: `Op.Ty[.Ty2] mods dst <- src, src`.
pub fn render(i: &Inst, f: &Function) -> String {
    let mut s = format!("{:?}.{:?}", i.op, i.ty);
    if i.ty2 != i.ty {
        s += &format!(".{:?}", i.ty2);
    }
    if matches!(i.op, Op::Setp | Op::Set) {
        s += &format!(" {:?}", i.mods.cmp);
    }
    for m in mods(&i.mods) {
        s += " ";
        s += &m;
    }
    if let Some(p) = i.guard.pred {
        s = format!(
            "@{}{} {s}",
            if i.guard.negated { "!" } else { "" },
            f.pred_names[p as usize]
        );
    }
    let dst: Vec<String> = i
        .dst
        .iter()
        .filter(|o| **o != Opnd::None)
        .map(|o| opnd(o, f))
        .collect();
    let src: Vec<String> = i
        .src
        .iter()
        .filter(|o| **o != Opnd::None)
        .map(|o| opnd(o, f))
        .collect();
    if !dst.is_empty() {
        s += &format!(" {}", dst.join("|"));
    }
    if !src.is_empty() {
        s += &format!(" <- {}", src.join(", "));
    }
    if i.op == Op::Call {
        s += &format!(" site{}", i.target);
    }
    if i.reconv != NO_PC {
        s += &format!(" ->{} reconv {}", i.target, i.reconv);
    }
    s
}

/// The modifiers that differ from the defaults, as words.
fn mods(m: &Mods) -> Vec<String> {
    let d = Mods::default();
    let mut out = Vec::new();
    let mut flag = |on: bool, name: &str| {
        if on {
            out.push(name.to_string());
        }
    };
    flag(m.ftz, "ftz");
    flag(m.sat, "sat");
    flag(m.approx, "approx");
    flag(m.cc, "cc");
    flag(m.hi, "hi");
    flag(m.shiftamt, "shiftamt");
    flag(m.clamp, "clamp");
    flag(m.to_space, "to");
    flag(m.volatile, "volatile");
    flag(m.nc, "nc");
    flag(m.match_all, "all");
    flag(m.uni, "uni");
    let mut val = |differs: bool, text: String| {
        if differs {
            out.push(text);
        }
    };
    val(m.rounding != d.rounding, format!("{:?}", m.rounding));
    val(
        m.boolop.is_some(),
        format!("{:?}", m.boolop.unwrap_or(warpsim_core::ir::BoolOp::And)),
    );
    val(m.space != d.space, format!("{:?}", m.space));
    val(m.vec > 1, format!("v{}", m.vec));
    val(m.atom != d.atom, format!("{:?}", m.atom));
    val(m.shfl != d.shfl, format!("{:?}", m.shfl));
    val(m.vote != d.vote, format!("{:?}", m.vote));
    val(m.redux != d.redux, format!("{:?}", m.redux));
    val(m.bar != d.bar, format!("{:?}", m.bar));
    val(m.prmt_mode != 0, format!("prmt{}", m.prmt_mode));
    val(m.testp != 0, format!("testp{}", m.testp));
    out
}

/// An operand as text: `%r1`, `!%p0`, `-1`, `0x3f800000`, `%TidX`, `&Frame+8`, `[%rd1+4]`,
/// `[Frame+8]`, `{%r1,_}`, `_`.
pub fn opnd(o: &Opnd, f: &Function) -> String {
    let reg = |r: u32| {
        if r == u32::MAX {
            "_".to_string()
        } else {
            f.reg_names[r as usize].clone()
        }
    };
    match *o {
        Opnd::None => String::new(),
        Opnd::Reg(r) => reg(r),
        Opnd::Pred { id, negated } => format!(
            "{}{}",
            if negated { "!" } else { "" },
            f.pred_names[id as usize]
        ),
        Opnd::Imm(v) if (v as i64).unsigned_abs() < 1 << 20 => format!("{}", v as i64),
        Opnd::Imm(v) => format!("{v:#x}"),
        Opnd::Sreg(s) => format!("%{s:?}"),
        Opnd::SymAddr { rel, offset } => format!("&{rel:?}+{offset}"),
        Opnd::Addr {
            base: Some(b),
            rel,
            offset,
        } => format!("[{}{}+{offset}]", reg(b), rel_suffix(rel)),
        Opnd::Addr {
            base: None,
            rel,
            offset,
        } => format!("[{rel:?}+{offset}]"),
        Opnd::Vec { regs, n } => {
            format!(
                "{{{}}}",
                regs[..n as usize]
                    .iter()
                    .map(|&r| reg(r))
                    .collect::<Vec<_>>()
                    .join(",")
            )
        }
        Opnd::Sink => "_".to_string(),
    }
}

fn rel_suffix(rel: warpsim_core::ir::AddrRel) -> String {
    match rel {
        warpsim_core::ir::AddrRel::Absolute => String::new(),
        other => format!("@{other:?}"),
    }
}

/// Every instruction of `f`, rendered, one per line with its PC.
pub fn listing(f: &Function) -> String {
    f.insts
        .iter()
        .enumerate()
        .map(|(pc, i)| format!("{pc:3}: {}\n", render(i, f)))
        .collect()
}

/// Checks a table of (instruction, expected rendering) cases and reports every mismatch.
pub fn check_table(cases: &[(&str, &str)]) {
    let mut bad = Vec::new();
    for (ptx, want) in cases {
        let got = render_one(ptx);
        if got != *want {
            bad.push(format!("  {ptx}\n    want: {want}\n    got:  {got}"));
        }
    }
    assert!(
        bad.is_empty(),
        "{} of {} cases differ:\n{}",
        bad.len(),
        cases.len(),
        bad.join("\n")
    );
}
