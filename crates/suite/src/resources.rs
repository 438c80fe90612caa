//! Parses `ptxas -v` reports (the committed `<name>.ptxas` files) into per-kernel resources.
//!
//! The lines that matter, for each entry function:
//!
//! ```text
//! ptxas info    : Compiling entry function '_Z9blockScanPjS_PKji' for 'sm_75'
//! ptxas info    : Function properties for _Z9blockScanPjS_PKji
//!     8 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
//! ptxas info    : Used 24 registers, used 1 barriers, 8 bytes cumulative stack size, 380 bytes cmem[0]
//! ```
//!
//! `N bytes smem` appears in the `Used` line only when the kernel has static shared memory.
//! Non-inlined device functions get a `Function properties for` block of their own (without a
//! `Compiling entry function` line); they are not kernels and are not listed.

/// Resources ptxas reports for one kernel (`.entry`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct KernelResources {
    /// The mangled name, as in the PTX.
    pub name: String,
    /// Registers per thread.
    pub registers: u32,
    /// Static shared memory per CTA (dynamic shared memory is sized at launch).
    pub shared_bytes: u32,
    /// Named barriers used.
    pub barriers: u32,
    /// Per-thread stack: the cumulative stack size (callees included) when ptxas reports one,
    /// else the kernel's own stack frame.
    pub stack_bytes: u32,
}

#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ResourceError {
    #[error("ptxas report line {line}: {message}")]
    Syntax { line: usize, message: String },
    #[error("ptxas report: kernel `{0}` has no `Used N registers` line")]
    MissingUsage(String),
}

#[derive(Default)]
struct Partial {
    name: String,
    registers: Option<u32>,
    shared_bytes: u32,
    barriers: u32,
    frame_bytes: u32,
    cumulative_stack: Option<u32>,
}

impl Partial {
    fn finish(self) -> Result<KernelResources, ResourceError> {
        let registers = self
            .registers
            .ok_or_else(|| ResourceError::MissingUsage(self.name.clone()))?;
        Ok(KernelResources {
            stack_bytes: self.cumulative_stack.unwrap_or(self.frame_bytes),
            name: self.name,
            registers,
            shared_bytes: self.shared_bytes,
            barriers: self.barriers,
        })
    }
}

/// The kernels of a `ptxas -v` report, in the report's order.
pub fn parse_ptxas(text: &str) -> Result<Vec<KernelResources>, ResourceError> {
    let mut kernels = Vec::new();
    let mut current: Option<Partial> = None;
    // Whose `Function properties` block we are in: Some(true) = the current kernel's,
    // Some(false) = a device function's.
    let mut properties_of_kernel: Option<bool> = None;

    for (idx, raw) in text.lines().enumerate() {
        let line_no = idx + 1;
        let syntax = |message: String| ResourceError::Syntax {
            line: line_no,
            message,
        };
        let line = raw.trim();
        if line.is_empty() {
            continue;
        }
        let Some(info) = line
            .strip_prefix("ptxas info")
            .map(|s| s.trim_start().trim_start_matches(':').trim())
        else {
            // Continuation line: stack frame / spills of the preceding `Function properties`.
            if line.contains("bytes stack frame") {
                let frame = leading_number(line)
                    .ok_or_else(|| syntax(format!("bad stack frame line `{line}`")))?;
                if properties_of_kernel == Some(true) {
                    if let Some(k) = current.as_mut() {
                        k.frame_bytes = frame;
                    }
                }
            }
            // Anything else (warnings, ptxas notes) carries no resource figures.
            continue;
        };

        if let Some(rest) = info.strip_prefix("Compiling entry function") {
            if let Some(k) = current.take() {
                kernels.push(k.finish()?);
            }
            let name =
                quoted(rest).ok_or_else(|| syntax(format!("no quoted kernel name in `{line}`")))?;
            current = Some(Partial {
                name: name.to_string(),
                ..Partial::default()
            });
            properties_of_kernel = None;
        } else if let Some(rest) = info.strip_prefix("Function properties for") {
            let name = rest.trim();
            let is_kernel = current
                .as_ref()
                .is_some_and(|k| k.name == name && k.registers.is_none());
            properties_of_kernel = Some(is_kernel);
        } else if info.starts_with("Used ") {
            let k = current
                .as_mut()
                .ok_or_else(|| syntax("`Used` line outside an entry function".into()))?;
            if k.registers.is_some() {
                return Err(syntax(format!("second `Used` line for `{}`", k.name)));
            }
            for item in info.split(',').map(str::trim) {
                let n = || {
                    leading_number(
                        item.trim_start_matches("Used")
                            .trim_start_matches("used")
                            .trim(),
                    )
                };
                if item.ends_with(" registers") {
                    k.registers =
                        Some(n().ok_or_else(|| syntax(format!("bad register count `{item}`")))?);
                } else if item.ends_with(" barriers") || item.ends_with(" barrier") {
                    k.barriers =
                        n().ok_or_else(|| syntax(format!("bad barrier count `{item}`")))?;
                } else if item.ends_with(" bytes smem") {
                    k.shared_bytes =
                        n().ok_or_else(|| syntax(format!("bad smem size `{item}`")))?;
                } else if item.ends_with(" bytes cumulative stack size") {
                    k.cumulative_stack =
                        Some(n().ok_or_else(|| syntax(format!("bad stack size `{item}`")))?);
                }
                // cmem[..], textures, samplers, surfaces: not needed.
            }
            if k.registers.is_none() {
                return Err(syntax(format!(
                    "`Used` line without a register count: `{line}`"
                )));
            }
            properties_of_kernel = None;
        }
        // `N bytes gmem`, `Compile time`, …: module-level, ignored.
    }
    if let Some(k) = current.take() {
        kernels.push(k.finish()?);
    }
    Ok(kernels)
}

fn leading_number(s: &str) -> Option<u32> {
    let digits: &str = &s[..s.find(|c: char| !c.is_ascii_digit()).unwrap_or(s.len())];
    digits.parse().ok()
}

fn quoted(s: &str) -> Option<&str> {
    let start = s.find('\'')? + 1;
    let len = s[start..].find('\'')?;
    Some(&s[start..start + len])
}

#[cfg(test)]
mod tests {
    use super::*;

    fn k(
        name: &str,
        registers: u32,
        shared_bytes: u32,
        barriers: u32,
        stack_bytes: u32,
    ) -> KernelResources {
        KernelResources {
            name: name.into(),
            registers,
            shared_bytes,
            barriers,
            stack_bytes,
        }
    }

    // Verbatim `ptxas -arch=sm_75 -v` output (13.5.37) of dyn_shared.ptx.
    const DYN_SHARED: &str = "\
ptxas info    : 17 bytes gmem, 16 bytes cmem[4]
ptxas info    : Compiling entry function '_Z10addOffsetsPjPKji' for 'sm_75'
ptxas info    : Function properties for _Z10addOffsetsPjPKji
    0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
ptxas info    : Used 10 registers, used 0 barriers, 372 bytes cmem[0]
ptxas info    : Compiling entry function '_Z9blockScanPjS_PKji' for 'sm_75'
ptxas info    : Function properties for _Z9blockScanPjS_PKji
    8 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
ptxas info    : Used 24 registers, used 1 barriers, 8 bytes cumulative stack size, 380 bytes cmem[0]
ptxas info    : Compiling entry function '_Z12blockReversePiPKii' for 'sm_75'
ptxas info    : Function properties for _Z12blockReversePiPKii
    0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
ptxas info    : Used 10 registers, used 1 barriers, 372 bytes cmem[0]
ptxas info    : Compile time = 4.250 ms
";

    // fp64_math.ptx: non-inlined libdevice helpers get property blocks after the kernel.
    const FP64: &str = "\
ptxas info    : 272 bytes gmem, 16 bytes cmem[4]
ptxas info    : Compiling entry function '_Z9fp64FuncsPdPfPKdS2_PKfi' for 'sm_75'
ptxas info    : Function properties for _Z9fp64FuncsPdPfPKdS2_PKfi
    40 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
ptxas info    : Used 42 registers, used 0 barriers, 40 bytes cumulative stack size, 396 bytes cmem[0], 272 bytes cmem[2]
ptxas info    : Function properties for __internal_accurate_pow
    0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
ptxas info    : Function properties for __internal_trig_reduction_slowpathd
    0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
";

    const BITONIC: &str = "\
ptxas info    : 0 bytes gmem
ptxas info    : Compiling entry function '_Z17bitonicSortBlocksPjS_i' for 'sm_75'
ptxas info    : Function properties for _Z17bitonicSortBlocksPjS_i
    0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
ptxas info    : Used 34 registers, used 1 barriers, 8192 bytes smem, 372 bytes cmem[0]
";

    #[test]
    fn several_kernels() {
        assert_eq!(
            parse_ptxas(DYN_SHARED).unwrap(),
            vec![
                k("_Z10addOffsetsPjPKji", 10, 0, 0, 0),
                k("_Z9blockScanPjS_PKji", 24, 0, 1, 8),
                k("_Z12blockReversePiPKii", 10, 0, 1, 0),
            ]
        );
    }

    #[test]
    fn device_functions_are_not_kernels() {
        assert_eq!(
            parse_ptxas(FP64).unwrap(),
            vec![k("_Z9fp64FuncsPdPfPKdS2_PKfi", 42, 0, 0, 40)]
        );
    }

    #[test]
    fn static_shared_memory() {
        assert_eq!(
            parse_ptxas(BITONIC).unwrap(),
            vec![k("_Z17bitonicSortBlocksPjS_i", 34, 8192, 1, 0)]
        );
    }

    #[test]
    fn errors() {
        assert!(matches!(
            parse_ptxas("ptxas info    : Used 10 registers, 372 bytes cmem[0]\n"),
            Err(ResourceError::Syntax { line: 1, .. })
        ));
        assert_eq!(
            parse_ptxas("ptxas info    : Compiling entry function 'k' for 'sm_75'\n"),
            Err(ResourceError::MissingUsage("k".into()))
        );
        assert_eq!(parse_ptxas("").unwrap(), vec![]);
    }
}
