//! warpsim-cudart: a drop-in `libcudart.so.13`. A CUDA program built with
//! `nvcc -cudart shared` and started with this library first on `LD_LIBRARY_PATH` registers
//! its fatbinaries here; the PTX inside runs on warpsim's functional executor through the
//! Device API (`warpsim_core::device`).
//!
//! Layout: `fatbin`/`cubin` (pure parsing), `config` (environment), `runtime` (the one global
//! state behind a mutex, error bookkeeping), and one file per group of entry points:
//! `register`, `launch`, `memory`, `copies` (batched and peer copies, 3-D memsets), `arrays`
//! (CUDA arrays and their copies), `texture` (texture and surface objects), `device`,
//! `errors`, `streams`, `ptsz` (per-thread default stream spellings), `graphs` +
//! `graph_nodes` + `graph_params` + `graph_exec` + `graph_mem` + `user_objects` + `capture`,
//! `library` (code loaded at run time), `stubs` (everything else NVIDIA's library exports).
//!
//! Entry points are ordinary `unsafe extern "C"` Rust functions named like the CUDA ones; the
//! [`export!`] macro publishes each under its C name with symbol version `libcudart.so.13`
//! (see `build.rs`). Every entry runs inside [`runtime::guard`], which catches panics, so no
//! unwinding crosses the C boundary.

// Functions, fields and constants keep CUDA's C names (`cudaMalloc`, `totalGlobalMem`,
// `cudaSuccess`), so the code reads like the CUDA headers.
#![allow(non_snake_case, non_upper_case_globals)]

/// Publishes Rust functions under their own names as C symbols: a one-instruction trampoline
/// per function, outside rustc's export list, so the linker's version script can version them.
macro_rules! export {
    ($($name:ident),* $(,)?) => {
        $(
            #[cfg(target_arch = "x86_64")]
            std::arch::global_asm!(
                ".pushsection .text",
                concat!(".globl ", stringify!($name)),
                concat!(".type ", stringify!($name), ",@function"),
                ".p2align 4",
                concat!(stringify!($name), ":"),
                "jmp {f}",
                concat!(".size ", stringify!($name), ", . - ", stringify!($name)),
                ".popsection",
                f = sym $name,
            );
            #[cfg(target_arch = "aarch64")]
            std::arch::global_asm!(
                ".pushsection .text",
                concat!(".globl ", stringify!($name)),
                concat!(".type ", stringify!($name), ",%function"),
                ".p2align 4",
                concat!(stringify!($name), ":"),
                "b {f}",
                concat!(".size ", stringify!($name), ", . - ", stringify!($name)),
                ".popsection",
                f = sym $name,
            );
        )*
    };
}

mod arrays;
mod capture;
pub mod config;
mod copies;
pub mod cubin;
mod device;
mod error_table;
mod errors;
pub mod fatbin;
mod graph_exec;
mod graph_mem;
mod graph_nodes;
mod graph_params;
mod graphs;
mod launch;
mod library;
mod managed;
mod memory;
mod occupancy;
mod props;
mod ptsz;
mod rdc;
pub(crate) mod register;
mod runtime;
mod streams;
mod stubs;
pub mod tex_types;
mod texture;
pub mod types;
mod user_objects;
