//! Gives the cdylib the soname and symbol versions of NVIDIA's runtime, so programs linked
//! against the real `libcudart.so.13` (which import `cudaMalloc@libcudart.so.13` etc.) bind
//! to this library without version warnings.
//!
//! rustc passes the linker its own (unversioned) export list first. The CUDA entry points are
//! therefore not `#[no_mangle]` Rust exports: `src/export.rs` defines each one as an assembly
//! trampoline that rustc does not list, and `libcudart.map` below gives every such symbol the
//! version node `libcudart.so.13`. This relies on lld (rustc's default linker on
//! x86_64-unknown-linux-gnu), which merges several version scripts.

fn main() {
    let dir = std::env::var("CARGO_MANIFEST_DIR").expect("CARGO_MANIFEST_DIR");
    println!("cargo:rerun-if-changed=libcudart.map");
    println!("cargo:rustc-cdylib-link-arg=-Wl,-soname,libcudart.so.13");
    println!("cargo:rustc-cdylib-link-arg=-Wl,--version-script={dir}/libcudart.map");
}
