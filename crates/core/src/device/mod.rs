//! The Device API: what a CUDA runtime offers a host program — memory, modules, symbols,
//! launches — over the simulated GPU. The CLI, the built-in suite and the CUDA shim all use it.

// `DeviceError` is large (it carries locations and deadlock reports) and is returned by value
// as the API's one error type; errors are cold, so its size does not matter.
#![allow(clippy::result_large_err)]

pub mod args;
pub mod engine;
pub mod error;

pub use crate::exec::grid::LaunchStats;
pub use args::{Arg, Dim3, LaunchConfig};
pub use engine::{EngineLaunch, EngineStats, FunctionalEngine, LaunchEngine, LaunchRecord};
pub use error::{DeviceError, ExitedWarp, Location, StuckWarp};

use std::collections::BTreeMap;

use crate::exec::context::LaunchCtx;
use crate::exec::grid::RunLimits;
use crate::exec::memory::{GlobalMemory, Origin};
use crate::ir::{self, layout, FuncId, Reloc};
use crate::occupancy::{self, CtaDemand, Limiter, SmResources};

/// A device pointer (an address in the simulated GPU's global memory).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct DevPtr(pub u64);

impl DevPtr {
    /// The pointer `bytes` further on.
    pub fn offset(self, bytes: u64) -> DevPtr {
        DevPtr(self.0.wrapping_add(bytes))
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ModuleHandle(pub u32);

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct KernelHandle {
    pub module: u32,
    pub func: FuncId,
}

/// Device-wide options.
#[derive(Clone, Copy, Debug)]
pub struct DeviceOptions {
    /// A launch that executes more warp instructions than this fails (runaway kernels).
    pub max_warp_instructions: u64,
    /// Per-thread local memory available to the frames of a thread (static frame + calls).
    pub local_limit: u32,
    /// Shared memory a CTA may use (static + dynamic), bytes.
    pub max_shared_per_block: u32,
    /// CTAs the functional executor keeps in flight at once.
    pub max_resident_ctas: u32,
    /// SM count reported by `%nsmid`.
    pub num_sms: u32,
    /// Capacity of device global memory; allocations beyond it fail with `OutOfMemory`.
    pub global_memory_bytes: u64,
    /// `--synccheck`: a barrier that completes although threads of the CTA exited before
    /// reaching it fails the launch ([`DeviceError::BarrierAfterExit`]).
    pub synccheck: bool,
    /// The modelled GPU's SM resources (its preset's `[sm]`), when the device models one:
    /// every launch is then checked against [`occupancy::resident_ctas`] — a CTA that does not
    /// fit on an SM is refused, and so is a cooperative launch larger than the CTAs that can
    /// be resident at once ([`Device::check_cooperative`]) — in whichever engine runs it.
    /// `None` (a bare functional device): no occupancy checks.
    pub sm: Option<SmResources>,
}

impl Default for DeviceOptions {
    fn default() -> Self {
        DeviceOptions {
            max_warp_instructions: 2_000_000_000,
            local_limit: 64 * 1024,
            max_shared_per_block: 48 * 1024,
            max_resident_ctas: 120,
            num_sms: 15,
            global_memory_bytes: 4 << 30,
            synccheck: false,
            sm: None,
        }
    }
}

struct LoadedModule {
    ir: ir::Module,
    globals_base: u64,
    /// Some function of the module calls device-side `malloc` or `free`.
    uses_heap: bool,
}

/// The simulated GPU as a host program sees it.
pub struct Device {
    options: DeviceOptions,
    memory: GlobalMemory,
    modules: Vec<LoadedModule>,
    printf: String,
    launches: u64,
    /// Runs the launches (functional by default; see [`Device::set_engine`]).
    engine: Box<dyn LaunchEngine>,
    /// Registers per thread by kernel name, as callers declared them (ordered map: lookups
    /// once per launch, deterministic iteration).
    registers: BTreeMap<String, u32>,
    /// Completed launches since the last [`Device::take_launch_records`].
    records: Vec<LaunchRecord>,
    /// A kernel of a module that uses the device heap has been launched: the heap's size is
    /// fixed from then on (CUDA: `cudaLimitMallocHeapSize` must be set before launching any
    /// kernel that uses `malloc` or `free`).
    heap_fixed: bool,
}

impl Default for Device {
    fn default() -> Self {
        Device::new()
    }
}

impl Device {
    pub fn new() -> Device {
        Device::with_options(DeviceOptions::default())
    }

    pub fn with_options(options: DeviceOptions) -> Device {
        Device {
            options,
            memory: GlobalMemory::new(),
            modules: Vec::new(),
            printf: String::new(),
            launches: 0,
            engine: Box::new(FunctionalEngine),
            registers: BTreeMap::new(),
            records: Vec::new(),
            heap_fixed: false,
        }
    }

    /// Installs the engine that runs every later launch (e.g. the timing model's).
    pub fn set_engine(&mut self, engine: Box<dyn LaunchEngine>) {
        self.engine = engine;
    }

    /// The engine that runs launches.
    pub fn engine(&self) -> &dyn LaunchEngine {
        self.engine.as_ref()
    }

    /// The installed engine as its concrete type, if it is a `T`.
    pub fn engine_as<T: 'static>(&self) -> Option<&T> {
        self.engine.as_any().downcast_ref::<T>()
    }

    /// The installed engine as its concrete type, if it is a `T`.
    pub fn engine_as_mut<T: 'static>(&mut self) -> Option<&mut T> {
        self.engine.as_any_mut().downcast_mut::<T>()
    }

    /// Declares the registers per thread of kernel `name` (mangled), for engines that model
    /// occupancy. Kernels never declared are launched with `registers_per_thread: None`.
    pub fn set_kernel_registers(&mut self, name: &str, registers: u32) {
        self.registers.insert(name.to_string(), registers);
    }

    /// Registers per thread declared for kernel `name`.
    pub fn kernel_registers(&self, name: &str) -> Option<u32> {
        self.registers.get(name).copied()
    }

    /// Every launch completed since the last [`Device::take_launch_records`], in order.
    pub fn launch_records(&self) -> &[LaunchRecord] {
        &self.records
    }

    /// Returns and clears the launch records.
    pub fn take_launch_records(&mut self) -> Vec<LaunchRecord> {
        std::mem::take(&mut self.records)
    }

    /// The most recent completed launch.
    pub fn last_launch(&self) -> Option<&LaunchRecord> {
        self.records.last()
    }

    pub fn options(&self) -> &DeviceOptions {
        &self.options
    }

    pub fn options_mut(&mut self) -> &mut DeviceOptions {
        &mut self.options
    }

    /// Parses, lowers and loads a PTX module, placing its global/const variables in memory.
    pub fn load_ptx(&mut self, source: &str) -> Result<ModuleHandle, DeviceError> {
        let ir = crate::load_ptx(source)?;
        self.load_module(ir)
    }

    /// Links the PTX of several translation units into one module and loads it.
    pub fn load_linked_ptx(
        &mut self,
        units: &[crate::link::Unit],
    ) -> Result<ModuleHandle, DeviceError> {
        let ir = crate::load_linked_ptx(units)?;
        self.load_module(ir)
    }

    /// Loads an already lowered module.
    pub fn load_module(&mut self, ir: ir::Module) -> Result<ModuleHandle, DeviceError> {
        let size = ir.global_image.len() as u64;
        let base = self
            .memory
            .alloc_from(size, Origin::Module)
            .ok_or(DeviceError::OutOfMemory { bytes: size })?;
        self.write_image(&ir, base)?;
        let uses_heap = ir.functions.iter().any(|f| {
            f.insts
                .iter()
                .any(|i| matches!(i.op, ir::Op::Malloc | ir::Op::Free))
        });
        self.modules.push(LoadedModule {
            ir,
            globals_base: base,
            uses_heap,
        });
        Ok(ModuleHandle(self.modules.len() as u32 - 1))
    }

    /// Writes `ir`'s `.global`/`.const` image at `base`, its relocations resolved for `base`.
    fn write_image(&mut self, ir: &ir::Module, base: u64) -> Result<(), DeviceError> {
        let size = ir.global_image.len() as u64;
        let mut image = ir.global_image.clone();
        for r in &ir.relocs {
            let (at, value) = match *r {
                Reloc::Global { at, target_offset } => (at, base + target_offset),
                Reloc::Func { at, func } => (at, layout::FUNC_HANDLE_BASE + func as u64),
            };
            if let Some(slot) = image.get_mut(at as usize..at as usize + 8) {
                slot.copy_from_slice(&value.to_le_bytes());
            }
        }
        if !image.is_empty() {
            self.memory
                .write(base, &image)
                .map_err(|_| DeviceError::OutOfMemory { bytes: size })?;
        }
        Ok(())
    }

    /// Moves module `m`'s `.global`/`.const` image into host-visible memory, so that its
    /// `__managed__` variables are at host addresses the program can dereference (the shim
    /// calls this when it registers one). The image is rebuilt from the module's initialisers:
    /// call it before anything writes the module's variables. Idempotent.
    pub fn make_globals_host_visible(&mut self, m: ModuleHandle) -> Result<(), DeviceError> {
        let lm = self.module(m)?;
        let old = lm.globals_base;
        if self.memory.is_host_visible(old) {
            return Ok(());
        }
        let ir = lm.ir.clone();
        let size = ir.global_image.len() as u64;
        let base = self
            .memory
            .alloc_host_visible_from(size, Origin::Module)
            .ok_or(DeviceError::OutOfMemory { bytes: size })?;
        self.write_image(&ir, base)?;
        self.memory.free_by(old, "module made host-visible");
        self.modules[m.0 as usize].globals_base = base;
        Ok(())
    }

    fn module(&self, m: ModuleHandle) -> Result<&LoadedModule, DeviceError> {
        self.modules
            .get(m.0 as usize)
            .ok_or(DeviceError::InvalidHandle)
    }

    /// The lowered IR of a loaded module.
    pub fn module_ir(&self, m: ModuleHandle) -> Result<&ir::Module, DeviceError> {
        Ok(&self.module(m)?.ir)
    }

    /// Finds a kernel by its (mangled) name.
    pub fn kernel(&self, m: ModuleHandle, name: &str) -> Result<KernelHandle, DeviceError> {
        let module = &self.module(m)?.ir;
        match module.function(name) {
            Some(f) if module.functions[f as usize].is_kernel => Ok(KernelHandle {
                module: m.0,
                func: f,
            }),
            _ => Err(DeviceError::UnknownKernel {
                name: name.to_string(),
                available: module.kernels().map(|(_, f)| f.name.clone()).collect(),
            }),
        }
    }

    /// The lowered kernel (parameters, shared memory, instructions).
    pub fn kernel_info(&self, k: KernelHandle) -> &ir::Function {
        &self.modules[k.module as usize].ir.functions[k.func as usize]
    }

    /// Address and size of a `.global`/`.const` variable (`__device__`/`__constant__`).
    pub fn symbol(&self, m: ModuleHandle, name: &str) -> Result<(DevPtr, u64), DeviceError> {
        let lm = self.module(m)?;
        let g = lm
            .ir
            .global(name)
            .ok_or_else(|| DeviceError::UnknownSymbol {
                name: name.to_string(),
            })?;
        Ok((DevPtr(lm.globals_base + g.offset as u64), g.size as u64))
    }

    /// Allocates `bytes` of zeroed global memory (256-byte aligned, like cudaMalloc).
    pub fn malloc(&mut self, bytes: u64) -> Result<DevPtr, DeviceError> {
        self.malloc_by(bytes, "cudaMalloc")
    }

    /// [`Device::malloc`] on behalf of the API call `call` (`cudaMallocPitch`…), which
    /// memory-check reports name.
    pub fn malloc_by(&mut self, bytes: u64, call: &'static str) -> Result<DevPtr, DeviceError> {
        if self.memory.in_use().saturating_add(bytes) > self.options.global_memory_bytes {
            return Err(DeviceError::OutOfMemory { bytes });
        }
        self.memory
            .alloc_from(bytes, Origin::Host(call))
            .map(DevPtr)
            .ok_or(DeviceError::OutOfMemory { bytes })
    }

    /// Allocates `bytes` of zeroed memory that host and device share (managed or mapped
    /// memory): the pointer is also a valid host pointer to the same bytes while it lives.
    /// Counted against the device memory like [`Device::malloc`]; timed as global memory.
    pub fn malloc_host_visible(&mut self, bytes: u64) -> Result<DevPtr, DeviceError> {
        self.malloc_host_visible_by(bytes, "cudaMallocManaged")
    }

    /// [`Device::malloc_host_visible`] on behalf of the API call `call` (`cudaHostAlloc`…).
    pub fn malloc_host_visible_by(
        &mut self,
        bytes: u64,
        call: &'static str,
    ) -> Result<DevPtr, DeviceError> {
        if self.memory.in_use().saturating_add(bytes) > self.options.global_memory_bytes {
            return Err(DeviceError::OutOfMemory { bytes });
        }
        self.memory
            .alloc_host_visible_from(bytes, Origin::Host(call))
            .map(DevPtr)
            .ok_or(DeviceError::OutOfMemory { bytes })
    }

    /// Bytes of the device heap that device-side `malloc` allocates from.
    pub fn heap_size(&self) -> u64 {
        self.memory.heap().limit()
    }

    /// Sets the device heap's size (`cudaLimitMallocHeapSize`; default 8 MiB). Fails once a
    /// kernel that uses device-side `malloc`/`free` has been launched (as CUDA does: the
    /// heap is fixed then, even with no block live), while blocks are live, or above
    /// `exec::heap::MAX_HEAP_BYTES`.
    pub fn set_heap_size(&mut self, bytes: u64) -> Result<(), DeviceError> {
        if self.heap_fixed {
            return Err(DeviceError::HeapFixed { bytes });
        }
        if self.memory.set_heap_limit(bytes) {
            Ok(())
        } else {
            Err(DeviceError::HeapInUse {
                blocks: self.memory.heap().live_blocks(),
                bytes,
            })
        }
    }

    /// The live texture and surface objects (`exec::texture`); the caller checks that a
    /// descriptor's memory lies inside a live allocation.
    pub fn textures(&self) -> &crate::exec::texture::TextureTable {
        &self.memory.textures
    }

    pub fn textures_mut(&mut self) -> &mut crate::exec::texture::TextureTable {
        &mut self.memory.textures
    }

    /// Whether `p` lies in a live host-visible allocation.
    pub fn is_host_visible(&self, p: DevPtr) -> bool {
        self.memory.is_host_visible(p.0)
    }

    pub fn free(&mut self, p: DevPtr) -> Result<(), DeviceError> {
        self.free_by(p, "cudaFree")
    }

    /// [`Device::free`] by the API call `call` (`cudaFreeHost`…), which use-after-free
    /// reports name.
    pub fn free_by(&mut self, p: DevPtr, call: &'static str) -> Result<(), DeviceError> {
        if self.memory.free_by(p.0, call) {
            Ok(())
        } else {
            Err(DeviceError::InvalidPointer {
                address: p.0,
                bytes: 0,
            })
        }
    }

    /// Bytes currently allocated (allocations and module images).
    pub fn memory_in_use(&self) -> u64 {
        self.memory.in_use()
    }

    /// Start and size of the allocation containing `p`, if any.
    pub fn allocation_of(&self, p: DevPtr) -> Option<(DevPtr, u64)> {
        self.memory.allocation_of(p.0).map(|(b, s)| (DevPtr(b), s))
    }

    /// A host-to-device copy; the engine is told (see [`LaunchEngine::host_wrote`]).
    pub fn write(&mut self, dst: DevPtr, src: &[u8]) -> Result<(), DeviceError> {
        self.write_untold(dst, src)?;
        self.engine.host_wrote(dst.0, src.len() as u64);
        Ok(())
    }

    fn write_untold(&mut self, dst: DevPtr, src: &[u8]) -> Result<(), DeviceError> {
        self.memory
            .write(dst.0, src)
            .map_err(|_| DeviceError::InvalidPointer {
                address: dst.0,
                bytes: src.len() as u64,
            })
    }

    pub fn read(&self, src: DevPtr, dst: &mut [u8]) -> Result<(), DeviceError> {
        self.memory
            .read(src.0, dst)
            .map_err(|_| DeviceError::InvalidPointer {
                address: src.0,
                bytes: dst.len() as u64,
            })
    }

    /// Device-to-device copy (overlapping ranges behave like `memmove`).
    pub fn copy(&mut self, dst: DevPtr, src: DevPtr, bytes: u64) -> Result<(), DeviceError> {
        let data = self
            .memory
            .slice(src.0, bytes)
            .map_err(|_| DeviceError::InvalidPointer {
                address: src.0,
                bytes,
            })?
            .to_vec();
        // Not a host write: GPGPU-Sim's device-to-device copy leaves its caches alone.
        self.write_untold(dst, &data)
    }

    pub fn memset(&mut self, dst: DevPtr, value: u8, bytes: u64) -> Result<(), DeviceError> {
        self.memory
            .slice_mut(dst.0, bytes)
            .map_err(|_| DeviceError::InvalidPointer {
                address: dst.0,
                bytes,
            })?
            .fill(value);
        Ok(())
    }

    /// Allocates and fills a buffer with `data`.
    pub fn alloc_slice<T: bytemuck::Pod>(&mut self, data: &[T]) -> Result<DevPtr, DeviceError> {
        let p = self.malloc(std::mem::size_of_val(data) as u64)?;
        self.write(p, bytemuck::cast_slice(data))?;
        Ok(p)
    }

    /// Allocates `n` zeroed elements.
    pub fn alloc_zeroed<T: bytemuck::Pod>(&mut self, n: usize) -> Result<DevPtr, DeviceError> {
        self.malloc((n * std::mem::size_of::<T>()) as u64)
    }

    pub fn write_slice<T: bytemuck::Pod>(
        &mut self,
        dst: DevPtr,
        data: &[T],
    ) -> Result<(), DeviceError> {
        self.write(dst, bytemuck::cast_slice(data))
    }

    pub fn read_vec<T: bytemuck::Pod>(&self, src: DevPtr, n: usize) -> Result<Vec<T>, DeviceError> {
        let mut v = vec![T::zeroed(); n];
        self.read(src, bytemuck::cast_slice_mut(&mut v))?;
        Ok(v)
    }

    /// Kernel `printf` output produced since the last call.
    pub fn take_printf(&mut self) -> String {
        std::mem::take(&mut self.printf)
    }

    /// Checks a launch configuration against the device's limits and the kernel's (block and
    /// grid sizes, `.reqntid`/`.maxntid`, shared memory): the offset of the dynamic shared
    /// array and the CTA's shared bytes, else [`DeviceError::InvalidLaunch`].
    pub fn check_launch(
        &self,
        k: KernelHandle,
        cfg: &LaunchConfig,
    ) -> Result<(u32, u32), DeviceError> {
        let f = self.kernel_info(k);
        let bad = |reason: String| DeviceError::InvalidLaunch {
            kernel: f.name.clone(),
            reason,
        };
        let b = cfg.block;
        let g = cfg.grid;
        if b.x == 0 || b.y == 0 || b.z == 0 || g.x == 0 || g.y == 0 || g.z == 0 {
            return Err(bad(format!(
                "grid {g} and block {b} must have no zero dimension"
            )));
        }
        let threads = b.x as u64 * b.y as u64 * b.z as u64;
        if threads > 1024 || b.x > 1024 || b.y > 1024 || b.z > 64 {
            return Err(bad(format!("block {b} has {threads} threads; the limit is 1024 (and 1024×1024×64 per dimension)")));
        }
        if g.y > 65535 || g.z > 65535 || g.x > i32::MAX as u32 {
            return Err(bad(format!("grid {g} exceeds 2147483647×65535×65535")));
        }
        if let Some(r) = f.reqntid {
            if [b.x, b.y, b.z] != r {
                return Err(bad(format!(
                    "block {b} differs from the kernel's .reqntid {},{},{}",
                    r[0], r[1], r[2]
                )));
            }
        }
        if let Some(m) = f.maxntid {
            let limit = m[0] as u64 * m[1] as u64 * m[2] as u64;
            if threads > limit {
                return Err(bad(format!(
                    "block {b} has {threads} threads but the kernel declares at most {limit}"
                )));
            }
        }
        let align = f.dyn_shared_align.max(1);
        let dyn_base = if cfg.dynamic_shared > 0 {
            f.shared_bytes.div_ceil(align) * align
        } else {
            f.shared_bytes
        };
        let shared = dyn_base as u64 + cfg.dynamic_shared as u64;
        if shared > self.options.max_shared_per_block as u64 {
            return Err(bad(format!(
                "needs {shared} bytes of shared memory ({} static + {} dynamic); the limit is {}",
                f.shared_bytes, cfg.dynamic_shared, self.options.max_shared_per_block
            )));
        }
        if let Some(r) = &self.options.sm {
            let demand = self.demand(k, threads as u32, cfg.dynamic_shared);
            if occupancy::resident_ctas(r, &demand).0 == 0 {
                return Err(bad(occupancy::does_not_fit(r, &demand)));
            }
        }
        Ok((dyn_base, shared as u32))
    }

    /// CTAs of kernel `k` with `threads` threads and `dynamic_shared` bytes of dynamic shared
    /// memory that fit on one SM at once, and what limits them: the modelled GPU's occupancy
    /// rule ([`occupancy::resident_ctas`]) with the kernel's declared registers per thread
    /// ([`Device::set_kernel_registers`]; undeclared: registers do not limit) and its static
    /// shared memory (padded to the dynamic array's alignment, as a launch lays it out).
    /// `None` when the device models no GPU ([`DeviceOptions::sm`]). This is what the timing
    /// model's dispatcher gives a launch of that shape, and what the CUDA runtime's occupancy
    /// API answers.
    pub fn occupancy(
        &self,
        k: KernelHandle,
        threads: u32,
        dynamic_shared: u32,
    ) -> Option<(u32, Limiter)> {
        let r = self.options.sm.as_ref()?;
        Some(occupancy::resident_ctas(
            r,
            &self.demand(k, threads, dynamic_shared),
        ))
    }

    /// The per-CTA demand of a launch of `k` (see [`Device::occupancy`]); shared bytes
    /// saturate rather than wrap.
    pub fn demand(&self, k: KernelHandle, threads: u32, dynamic_shared: u32) -> CtaDemand {
        let f = self.kernel_info(k);
        let align = f.dyn_shared_align.max(1);
        let dyn_base = if dynamic_shared > 0 {
            f.shared_bytes.div_ceil(align) as u64 * align as u64
        } else {
            f.shared_bytes as u64
        };
        let shared = (dyn_base + dynamic_shared as u64).min(u32::MAX as u64) as u32;
        CtaDemand {
            threads,
            registers: self.registers.get(&f.name).copied().unwrap_or(0),
            shared_bytes: shared,
        }
    }

    /// Checks a cooperative launch as CUDA does: the configuration first
    /// ([`Device::check_launch`]), then that every CTA of the grid can be resident at once
    /// (CTAs per SM × SMs), else [`DeviceError::CooperativeLaunchTooLarge`]. A device that
    /// models no GPU admits every grid.
    pub fn check_cooperative(
        &self,
        k: KernelHandle,
        cfg: &LaunchConfig,
    ) -> Result<(), DeviceError> {
        self.check_launch(k, cfg)?;
        let threads = cfg.block.x * cfg.block.y * cfg.block.z;
        let Some((per_sm, limiter)) = self.occupancy(k, threads, cfg.dynamic_shared) else {
            return Ok(());
        };
        let ctas = cfg.grid.x as u64 * cfg.grid.y as u64 * cfg.grid.z as u64;
        let sms = self.options.num_sms.max(1);
        if ctas > per_sm as u64 * sms as u64 {
            return Err(DeviceError::CooperativeLaunchTooLarge {
                kernel: self.kernel_info(k).name.clone(),
                ctas,
                per_sm,
                sms,
                limiter: limiter.describe(),
            });
        }
        Ok(())
    }

    /// Checks a launch configuration and lays out the parameter buffer.
    fn prepare(
        &self,
        k: KernelHandle,
        cfg: &LaunchConfig,
        args: &[Arg],
    ) -> Result<(Vec<u8>, u32, u32), DeviceError> {
        let (dyn_base, shared) = self.check_launch(k, cfg)?;
        let f = self.kernel_info(k);
        let bad = |reason: String| DeviceError::InvalidLaunch {
            kernel: f.name.clone(),
            reason,
        };
        if args.len() != f.params.len() {
            return Err(bad(format!(
                "takes {} arguments, {} given",
                f.params.len(),
                args.len()
            )));
        }
        let mut params = vec![0u8; f.param_bytes as usize];
        for (i, (p, a)) in f.params.iter().zip(args).enumerate() {
            let bytes = a.bytes();
            if bytes.len() != p.size as usize {
                return Err(bad(format!(
                    "argument {i} (`{}`) is {} bytes but the parameter is {} bytes",
                    p.name,
                    bytes.len(),
                    p.size
                )));
            }
            params[p.offset as usize..p.offset as usize + bytes.len()].copy_from_slice(&bytes);
        }
        Ok((params, dyn_base, shared))
    }

    /// Runs a kernel to completion with the installed engine and records the launch.
    pub fn launch(
        &mut self,
        k: KernelHandle,
        cfg: LaunchConfig,
        args: &[Arg],
    ) -> Result<LaunchStats, DeviceError> {
        self.launch_with(k, cfg, args, 0, self.options.max_resident_ctas)
    }

    /// A cooperative launch (`cudaLaunchCooperativeKernel`): every CTA is resident at once
    /// (a grid larger than that is refused, [`Device::check_cooperative`]), and `%envreg1/2`
    /// point at a zeroed grid-barrier workspace, so cooperative groups' `grid.sync()` runs as
    /// nvcc compiled it (an atomic arrival per CTA, then a spin on the counter's flip bit).
    pub fn launch_cooperative(
        &mut self,
        k: KernelHandle,
        cfg: LaunchConfig,
        args: &[Arg],
    ) -> Result<LaunchStats, DeviceError> {
        const WORKSPACE_BYTES: u64 = 16;
        self.check_cooperative(k, &cfg)?;
        let ws = self
            .memory
            .alloc_from(WORKSPACE_BYTES, Origin::Workspace)
            .ok_or(DeviceError::OutOfMemory {
                bytes: WORKSPACE_BYTES,
            })?;
        let ctas =
            (cfg.grid.x as u64 * cfg.grid.y as u64 * cfg.grid.z as u64).min(u32::MAX as u64) as u32;
        let out = self.launch_with(k, cfg, args, ws, self.options.max_resident_ctas.max(ctas));
        self.memory.free_by(ws, "the end of the cooperative launch");
        out
    }

    fn launch_with(
        &mut self,
        k: KernelHandle,
        cfg: LaunchConfig,
        args: &[Arg],
        grid_workspace: u64,
        max_resident_ctas: u32,
    ) -> Result<LaunchStats, DeviceError> {
        let (params, dyn_base, shared) = self.prepare(k, &cfg, args)?;
        let lm = &self.modules[k.module as usize];
        self.heap_fixed |= lm.uses_heap;
        self.launches += 1;
        let ctx = LaunchCtx {
            module: &lm.ir,
            module_id: k.module,
            kernel: k.func,
            globals_base: lm.globals_base,
            params: &params,
            grid: [cfg.grid.x, cfg.grid.y, cfg.grid.z],
            block: [cfg.block.x, cfg.block.y, cfg.block.z],
            dyn_shared_base: dyn_base,
            dyn_shared_bytes: cfg.dynamic_shared,
            local_limit: self.options.local_limit,
            num_sms: self.options.num_sms,
            smid: 0,
            gridid: self.launches,
            grid_workspace,
            synccheck: self.options.synccheck,
        };
        let limits = RunLimits {
            max_warp_instructions: self.options.max_warp_instructions,
            max_resident_ctas,
            slice: 512,
        };
        let kernel = &lm.ir.functions[k.func as usize].name;
        let registers_per_thread = self.registers.get(kernel).copied();
        let out = self.engine.launch(EngineLaunch {
            ctx: &ctx,
            memory: &mut self.memory,
            printf: &mut self.printf,
            shared_bytes: shared,
            registers_per_thread,
            limits,
        })?;
        self.records.push(LaunchRecord {
            kernel: kernel.clone(),
            grid: cfg.grid,
            block: cfg.block,
            dynamic_shared: cfg.dynamic_shared,
            registers_per_thread,
            stats: out.stats,
            cycles: out.cycles,
        });
        Ok(out.stats)
    }
}
