//! The read-mostly context an instruction executes in: the kernel being run and the memories
//! outside the warp (global, the CTA's shared memory, the kernel parameters, printf output).

use crate::ir::{FuncId, Module};

/// Everything fixed for one kernel launch.
#[derive(Clone, Debug)]
pub struct LaunchCtx<'a> {
    pub module: &'a Module,
    /// `module`'s identity on its Device (the load order; 0 for hand-built launches): lasts
    /// across launches, for engines that keep state per module (the timing model places each
    /// module's code at its own instruction addresses, as GPGPU-Sim gives every loaded kernel
    /// its own PCs, so an I-cache kept between launches tells modules apart).
    pub module_id: u32,
    pub kernel: FuncId,
    /// Where the module's `.global`/`.const` image starts in global memory.
    pub globals_base: u64,
    pub params: &'a [u8],
    pub grid: [u32; 3],
    pub block: [u32; 3],
    /// Offset of the dynamic shared array in the CTA's shared memory.
    pub dyn_shared_base: u32,
    pub dyn_shared_bytes: u32,
    /// Per-thread local memory limit (bytes of all live frames).
    pub local_limit: u32,
    /// Simulated SM count, for `%nsmid`.
    pub num_sms: u32,
    pub smid: u32,
    pub gridid: u64,
    /// Cooperative launches: the global address of the grid-barrier workspace that
    /// cooperative groups' `grid.sync()` reads from `%envreg1` (high 32 bits) and `%envreg2`
    /// (low); 0 otherwise, so `grid.sync()` in an ordinary launch traps as on a GPU.
    pub grid_workspace: u64,
    /// `--synccheck`: a barrier completing without threads that exited is an error.
    pub synccheck: bool,
}

impl<'a> LaunchCtx<'a> {
    /// A launch of `grid` one-dimensional CTAs of `block` threads of `kernel`, with no module
    /// globals, no dynamic shared memory and a 64 KiB local-memory limit: the shape of the
    /// hand-built launches in tests, examples and benchmarks (the Device API builds full ones).
    pub fn one_dim(
        module: &'a Module,
        kernel: FuncId,
        params: &'a [u8],
        grid: u32,
        block: u32,
        num_sms: u32,
    ) -> Self {
        LaunchCtx {
            module,
            module_id: 0,
            kernel,
            globals_base: 0,
            params,
            grid: [grid, 1, 1],
            block: [block, 1, 1],
            dyn_shared_base: module.functions[kernel as usize].shared_bytes,
            dyn_shared_bytes: 0,
            local_limit: 64 * 1024,
            num_sms,
            smid: 0,
            gridid: 1,
            grid_workspace: 0,
            synccheck: false,
        }
    }
}

/// The mutable memories an instruction may touch besides its own warp.
pub struct MemCtx<'m> {
    pub global: super::global::Global<'m>,
    pub shared: &'m mut [u8],
    pub printf: &'m mut String,
    /// `%clock64` value to report (the functional executor counts the CTA's instructions).
    pub clock: u64,
    pub cta: [u32; 3],
}
