//! Launch engines: what runs a kernel launch once the Device API has checked it.
//!
//! Core cannot depend on the timing model (it depends on core), so the Device holds a
//! `Box<dyn LaunchEngine>`: the [`FunctionalEngine`] by default, or any other engine a caller
//! installs with [`Device::set_engine`](super::Device::set_engine) (the cycle-level
//! `warpsim_timing::engine::TimingEngine`). The engine is called once per launch, so the one
//! dynamic call costs nothing measurable.

// `DeviceError` is large (it carries locations and deadlock reports) and is returned by value
// as the API's one error type; errors are cold, so its size does not matter.
#![allow(clippy::result_large_err)]

use std::any::Any;

use crate::exec::context::LaunchCtx;
use crate::exec::grid::{run_grid, LaunchStats, RunLimits};
use crate::exec::memory::GlobalMemory;

use super::args::Dim3;
use super::error::DeviceError;

/// Everything an engine needs to run one checked launch.
pub struct EngineLaunch<'a, 'k> {
    /// Module, kernel, parameters, geometry.
    pub ctx: &'a LaunchCtx<'k>,
    pub memory: &'a mut GlobalMemory,
    /// Kernel `printf` output is appended here.
    pub printf: &'a mut String,
    /// Shared memory per CTA, static + dynamic, bytes.
    pub shared_bytes: u32,
    /// Registers per thread of the kernel when the caller knows them (`ptxas -v`, the cubin's
    /// REGCOUNT, a manifest key); `None` otherwise.
    pub registers_per_thread: Option<u32>,
    /// The functional executor's limits (the warp-instruction runaway guard).
    pub limits: RunLimits,
}

/// What an engine reports for one launch, beyond the architectural effects on memory.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct EngineStats {
    pub stats: LaunchStats,
    /// Simulated GPU cycles of the launch (engines that model time).
    pub cycles: Option<u64>,
}

/// Runs launches. Implementations keep whatever detailed per-launch statistics they produce;
/// callers reach them through [`Device::engine_as`](super::Device::engine_as).
pub trait LaunchEngine: Send {
    /// Short name for messages and reports (`functional`, `timing`).
    fn name(&self) -> &str;
    /// Runs one launch to completion.
    fn launch(&mut self, launch: EngineLaunch<'_, '_>) -> Result<EngineStats, DeviceError>;
    /// The host wrote `bytes` of device memory at `addr` (`Device::write`: a host-to-device
    /// copy). An engine with caches may account for it (GPGPU-Sim fills its L2 on copies);
    /// nothing by default.
    fn host_wrote(&mut self, _addr: u64, _bytes: u64) {}
    /// For downcasting to the concrete engine.
    fn as_any(&self) -> &dyn Any;
    /// For downcasting to the concrete engine.
    fn as_any_mut(&mut self) -> &mut dyn Any;
}

/// The functional SIMT executor: runs every CTA to completion, no notion of time.
#[derive(Clone, Copy, Debug, Default)]
pub struct FunctionalEngine;

impl LaunchEngine for FunctionalEngine {
    fn name(&self) -> &str {
        "functional"
    }

    fn launch(&mut self, l: EngineLaunch<'_, '_>) -> Result<EngineStats, DeviceError> {
        let stats = run_grid(l.ctx, l.memory, l.printf, l.shared_bytes, l.limits)?;
        Ok(EngineStats {
            stats,
            cycles: None,
        })
    }

    fn as_any(&self) -> &dyn Any {
        self
    }

    fn as_any_mut(&mut self) -> &mut dyn Any {
        self
    }
}

/// One completed launch, as [`Device::launch_records`](super::Device::launch_records) lists it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LaunchRecord {
    /// The kernel's (mangled) name.
    pub kernel: String,
    pub grid: Dim3,
    pub block: Dim3,
    pub dynamic_shared: u32,
    /// Registers per thread the engine was given (`None`: unknown).
    pub registers_per_thread: Option<u32>,
    pub stats: LaunchStats,
    /// Simulated cycles, from engines that model time.
    pub cycles: Option<u64>,
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::device::{Arg, Device, LaunchConfig};

    const PTX: &str = ".version 7.5\n.target sm_75\n.address_size 64\n\
        .visible .entry k(.param .u64 out)\n{\n.reg .b32 %r<2>;\n.reg .b64 %rd<2>;\n\
        ld.param.u64 %rd1, [out];\ncvta.to.global.u64 %rd1, %rd1;\nmov.u32 %r1, %tid.x;\n\
        st.global.u32 [%rd1], %r1;\nret;\n}\n";

    /// Runs functionally, remembers what it was given and pretends every launch took 7 cycles.
    #[derive(Default)]
    struct Spy {
        seen: Vec<(String, Option<u32>, u32)>,
    }

    impl LaunchEngine for Spy {
        fn name(&self) -> &str {
            "spy"
        }
        fn launch(&mut self, l: EngineLaunch<'_, '_>) -> Result<EngineStats, DeviceError> {
            let name = l.ctx.module.functions[l.ctx.kernel as usize].name.clone();
            self.seen
                .push((name, l.registers_per_thread, l.shared_bytes));
            let out = FunctionalEngine.launch(l)?;
            Ok(EngineStats {
                cycles: Some(7),
                ..out
            })
        }
        fn as_any(&self) -> &dyn Any {
            self
        }
        fn as_any_mut(&mut self) -> &mut dyn Any {
            self
        }
    }

    #[test]
    fn installed_engine_runs_launches_and_records_them() {
        let mut dev = Device::new();
        assert_eq!(dev.engine().name(), "functional");
        let m = dev.load_ptx(PTX).unwrap();
        let k = dev.kernel(m, "k").unwrap();
        let out = dev.alloc_zeroed::<u32>(1).unwrap();
        let cfg = LaunchConfig {
            grid: 1.into(),
            block: 32.into(),
            dynamic_shared: 16,
        };
        dev.launch(k, cfg, &[Arg::Ptr(out)]).unwrap();
        assert_eq!(dev.last_launch().unwrap().cycles, None);

        dev.set_engine(Box::<Spy>::default());
        dev.set_kernel_registers("k", 12);
        let s = dev.launch(k, cfg, &[Arg::Ptr(out)]).unwrap();
        assert_eq!((s.ctas, s.warp_instructions), (1, 5));
        assert_eq!(
            dev.engine_as::<Spy>().unwrap().seen,
            vec![("k".to_string(), Some(12), 16)]
        );
        assert!(dev.engine_as::<FunctionalEngine>().is_none());
        let recs = dev.take_launch_records();
        assert_eq!(recs.len(), 2);
        assert_eq!(
            (
                recs[1].kernel.as_str(),
                recs[1].cycles,
                recs[1].registers_per_thread,
                recs[1].dynamic_shared
            ),
            ("k", Some(7), Some(12), 16)
        );
        assert_eq!(recs[0].registers_per_thread, None);
        assert!(dev.launch_records().is_empty());
        // A failed launch is not recorded.
        assert!(dev
            .launch(
                k,
                LaunchConfig {
                    grid: 1.into(),
                    block: 2048.into(),
                    dynamic_shared: 0
                },
                &[Arg::Ptr(out)]
            )
            .is_err());
        assert!(dev.last_launch().is_none());
    }
}
