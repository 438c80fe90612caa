//! Fuzz target: load and run PTX in functional mode. Loading reports errors; every kernel
//! that loads runs on 2 CTAs of 64 threads with small zeroed buffers for pointer parameters,
//! bounded by the runaway limit (a spinning kernel ends in `InstructionLimit`, not a hang).
//! Whatever the kernel does (faults, deadlocks, traps), the result is an error, not a panic.
#![no_main]

use libfuzzer_sys::fuzz_target;
use warpsim_core::device::{Arg, Device, DeviceOptions, Dim3, LaunchConfig};

/// Warp instructions per launch before the runaway limit stops it.
const MAX_WARP_INSTRUCTIONS: u64 = 20_000;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let options = DeviceOptions {
        max_warp_instructions: MAX_WARP_INSTRUCTIONS,
        // Small enough that a fuzzed `.global` array or buffer fails to allocate cleanly.
        global_memory_bytes: 64 << 20,
        ..DeviceOptions::default()
    };
    let mut dev = Device::with_options(options);
    let Ok(module) = dev.load_ptx(&text) else { return };
    let Ok(ir) = dev.module_ir(module) else { return };
    let kernels: Vec<(String, Vec<u32>)> =
        ir.kernels().take(4).map(|(_, f)| (f.name.clone(), f.params.iter().map(|p| p.size).collect())).collect();
    for (name, params) in kernels {
        let Ok(k) = dev.kernel(module, &name) else { continue };
        let mut args = Vec::new();
        for size in params {
            args.push(match size {
                8 => match dev.malloc(4096) {
                    Ok(p) => Arg::Ptr(p),
                    Err(_) => return,
                },
                4 => Arg::U32(64),
                n => Arg::Bytes(vec![0; n as usize]),
            });
        }
        let cfg = LaunchConfig { grid: Dim3 { x: 2, y: 1, z: 1 }, block: Dim3 { x: 64, y: 1, z: 1 }, dynamic_shared: 0 };
        let _ = dev.launch(k, cfg, &args);
    }
});
