//! A lowered function and module.

use super::inst::*;

/// Where one parameter (or return value) lives. For a kernel, `offset` is in the kernel
/// parameter buffer; for a device function, it is relative to the function's frame base in
/// per-thread local memory.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParamSlot {
    pub name: String,
    pub offset: u32,
    pub size: u32,
    pub align: u32,
}

/// A `call` instruction's operands: the callee and where, in the caller's frame, the return
/// and argument `.param` variables are.
#[derive(Clone, Debug, PartialEq)]
pub struct CallSite {
    pub callee: Callee,
    /// Caller-frame slots (offset, size) receiving the callee's return parameters, in order.
    pub rets: Vec<(u32, u32)>,
    /// Caller-frame slots (offset, size) holding the arguments, in order. For an argument
    /// written as a register or immediate (legal in PTX), see `arg_values`.
    pub args: Vec<(u32, u32)>,
    /// Per argument: `Some(operand)` when the argument is a register/immediate rather than a
    /// `.param` variable (then the `args` slot is unused).
    pub arg_values: Vec<Option<Opnd>>,
    /// Per return value: `Some(Reg)` when the return is bound directly to a register.
    pub ret_values: Vec<Option<Opnd>>,
}

#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Callee {
    Direct(FuncId),
    /// Through a register holding a function handle (`layout::FUNC_HANDLE_BASE + id`).
    Indirect(RegId),
}

/// A lowered `.entry` or `.func`.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct Function {
    pub name: String,
    pub is_kernel: bool,
    /// `false` for declarations without a body that are not built-ins.
    pub has_body: bool,
    pub insts: Vec<Inst>,
    /// The executor's pre-decoded form of `insts`, indexed by PC, built when the module is
    /// lowered (`exec::decoded::decode_function`); `step` decodes an instruction itself when
    /// this is shorter (a function built by hand).
    pub decoded: Vec<crate::exec::decoded::Decoded>,
    /// Number of 64-bit register slots.
    pub num_regs: u32,
    /// Declared width in bits of each register slot (8/16/32/64), for load extension.
    pub reg_bits: Vec<u8>,
    pub num_preds: u32,
    /// Register/predicate names for diagnostics, indexed by id.
    pub reg_names: Vec<String>,
    pub pred_names: Vec<String>,
    pub params: Vec<ParamSlot>,
    pub returns: Vec<ParamSlot>,
    /// Kernel: size of the parameter buffer. Function: unused (params are in the frame).
    pub param_bytes: u32,
    /// Per-thread bytes of this function's frame in local memory: its `.local` variables,
    /// its parameters and return values (for a `.func`), and its call-sequence `.param`s.
    pub frame_bytes: u32,
    /// Alignment of the frame (largest alignment of anything in it, at least 8).
    pub frame_align: u32,
    /// Kernel: static shared memory bytes (its own variables plus the module-wide ones).
    pub shared_bytes: u32,
    /// Kernel: alignment required of the dynamic shared array (1 when none is used).
    pub dyn_shared_align: u32,
    pub call_sites: Vec<CallSite>,
    /// `brx.idx` tables: target PCs.
    pub branch_tables: Vec<Vec<Pc>>,
    /// Tensor-core instructions' forms and fragments, indexed by their `Inst::target`.
    pub tensor: Vec<super::tensor::TensorInst>,
    pub maxntid: Option<[u32; 3]>,
    pub reqntid: Option<[u32; 3]>,
    pub minnctapersm: Option<u32>,
    pub maxnreg: Option<u32>,
    /// Source line of the declaration.
    pub line: u32,
    /// CUDA source position of each instruction, from the PTX's `.loc` directives (nvcc
    /// `-lineinfo` or `-G`), indexed by PC; empty when the PTX has none.
    pub source: Vec<SourceLoc>,
}

/// A position in the CUDA source: `file` is a `.file` number (see [`Module::files`]); line 0
/// means unknown (the instruction precedes every `.loc`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SourceLoc {
    pub file: u32,
    pub line: u32,
}

/// A relocation in the module's global image, applied when the image is placed in memory.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reloc {
    /// Write (module globals base + `target_offset`) as a u64 at `at`.
    Global { at: u32, target_offset: u64 },
    /// Write the handle of function `func` as a u64 at `at`.
    Func { at: u32, func: FuncId },
}

/// A `.global` or `.const` variable in the module image.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GlobalVar {
    pub name: String,
    pub offset: u32,
    pub size: u32,
    pub is_const: bool,
}

/// A lowered PTX module.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct Module {
    pub functions: Vec<Function>,
    /// Initial contents of the `.global`/`.const` image (zeros where uninitialised).
    pub global_image: Vec<u8>,
    pub global_align: u32,
    pub relocs: Vec<Reloc>,
    pub globals: Vec<GlobalVar>,
    /// Bytes of shared memory used by module-scope and device-function `.shared` variables;
    /// every kernel's own shared variables are placed after these.
    pub module_shared_bytes: u32,
    /// `.target` entries, e.g. `["sm_75"]`.
    pub target: Vec<String>,
    /// `.file N "path"` directives: (N, path).
    pub files: Vec<(u32, String)>,
}

impl Module {
    /// Looks a function up by its (mangled) name.
    pub fn function(&self, name: &str) -> Option<FuncId> {
        self.functions
            .iter()
            .position(|f| f.name == name)
            .map(|i| i as FuncId)
    }
    /// The CUDA source position (`path:line`) of `func`'s instruction `pc`, when its PTX
    /// carries `.loc` line information.
    pub fn source_of(&self, func: FuncId, pc: Pc) -> Option<(&str, u32)> {
        let loc = self.functions.get(func as usize)?.source.get(pc as usize)?;
        if loc.line == 0 {
            return None;
        }
        let path = self
            .files
            .iter()
            .find(|(n, _)| *n == loc.file)
            .map(|(_, p)| p.as_str())?;
        Some((path, loc.line))
    }

    /// The first tensor-core instruction `kernel` can execute (in it or in a function it
    /// may call), with its PTX line; for engines that cannot time them.
    pub fn tensor_use(&self, kernel: FuncId) -> Option<(&super::tensor::TensorInst, u32)> {
        let mut seen = vec![false; self.functions.len()];
        let mut todo = vec![kernel];
        while let Some(id) = todo.pop() {
            let Some(f) = self.functions.get(id as usize) else {
                continue;
            };
            if std::mem::replace(&mut seen[id as usize], true) {
                continue;
            }
            if let Some(i) = f.insts.iter().find(|i| i.op == Op::Tensor) {
                return Some((&f.tensor[i.target as usize], i.line));
            }
            for c in &f.call_sites {
                match c.callee {
                    Callee::Direct(callee) => todo.push(callee),
                    // Any function may be called through a pointer.
                    Callee::Indirect(_) => todo.extend(0..self.functions.len() as FuncId),
                }
            }
        }
        None
    }

    pub fn kernels(&self) -> impl Iterator<Item = (FuncId, &Function)> {
        self.functions
            .iter()
            .enumerate()
            .filter(|(_, f)| f.is_kernel)
            .map(|(i, f)| (i as FuncId, f))
    }
    pub fn global(&self, name: &str) -> Option<&GlobalVar> {
        self.globals.iter().find(|g| g.name == name)
    }
}
