//! Does a program load the CUDA runtime dynamically? `warpsim exec` can only interpose on a
//! program whose ELF dynamic section lists `libcudart.so.13` (DT_NEEDED); nvcc links the
//! runtime statically unless told `-cudart shared`.

use std::path::Path;

/// What the program's dynamic section says about the CUDA runtime.
#[derive(Debug, PartialEq, Eq)]
pub enum Runtime {
    /// Imports `libcudart.so.13`: the shim can take its place.
    Shared,
    /// Imports another libcudart (e.g. `libcudart.so.12`): built with an older toolkit.
    OtherVersion(String),
    /// No libcudart import: the runtime is linked statically (or the program is not a CUDA
    /// program at all).
    NotImported,
    /// A script (`#!`): its interpreter starts the real program, which we cannot inspect.
    Script,
}

/// Reads `path` and classifies its CUDA runtime import; the error says what is wrong with the
/// file itself.
pub fn cuda_runtime(path: &Path) -> Result<Runtime, String> {
    let data = std::fs::read(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    if data.starts_with(b"#!") {
        return Ok(Runtime::Script);
    }
    let elf = goblin::elf::Elf::parse(&data)
        .map_err(|e| format!("{} is not an ELF executable ({e})", path.display()))?;
    let libs = &elf.libraries;
    if libs.contains(&"libcudart.so.13") {
        return Ok(Runtime::Shared);
    }
    match libs.iter().find(|l| l.starts_with("libcudart.so")) {
        Some(other) => Ok(Runtime::OtherVersion(other.to_string())),
        None => Ok(Runtime::NotImported),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn own_executable_does_not_import_cudart() {
        let exe = std::env::current_exe().unwrap();
        assert_eq!(cuda_runtime(&exe).unwrap(), Runtime::NotImported);
    }

    #[test]
    fn non_elf_and_scripts() {
        let dir = std::env::temp_dir().join(format!("warpsim-elf-test-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let text = dir.join("notes.txt");
        std::fs::write(&text, "hello").unwrap();
        let err = cuda_runtime(&text).unwrap_err();
        assert!(err.contains("not an ELF executable"), "{err}");
        let script = dir.join("run.sh");
        std::fs::write(&script, "#!/bin/sh\nexit 0\n").unwrap();
        assert_eq!(cuda_runtime(&script).unwrap(), Runtime::Script);
        assert!(cuda_runtime(&dir.join("missing"))
            .unwrap_err()
            .contains("cannot read"));
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
