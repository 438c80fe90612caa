//! Launch metadata beyond the registry: the CTA shape of each kernel, where the barriers are
//! and what the sizes mean, for `warpsim list workloads` and the docs. Programs that declare
//! it export a [`WorkloadInfo`]; `tests/nonbarrier.rs` checks the declared shapes against the
//! launches the drivers really make, so the table cannot drift from the code.

/// One kernel and the CTA shape it is launched with.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct KernelShape {
    /// The kernel's mangled name, as in the PTX and the `.ptxas` report.
    pub kernel: &'static str,
    /// `blockDim` (x, y, z).
    pub block: [u32; 3],
}

/// What a program launches and at which sizes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct WorkloadInfo {
    pub program: &'static str,
    /// Every kernel the program launches, in pipeline order.
    pub kernels: &'static [KernelShape],
    /// Where the kernels use `__syncthreads` and why (one line).
    pub barriers: &'static str,
    /// The input at `Size::Small` and at `Size::Paper` (one line each).
    pub small: &'static str,
    pub paper: &'static str,
}

impl KernelShape {
    /// A one-dimensional CTA of `x` threads.
    pub const fn x(kernel: &'static str, x: u32) -> KernelShape {
        KernelShape {
            kernel,
            block: [x, 1, 1],
        }
    }

    /// A two-dimensional CTA of `x` by `y` threads.
    pub const fn xy(kernel: &'static str, x: u32, y: u32) -> KernelShape {
        KernelShape {
            kernel,
            block: [x, y, 1],
        }
    }

    /// Threads per CTA.
    pub fn threads(&self) -> u32 {
        self.block.iter().product()
    }

    /// `16x16`, `256`: the shape without trailing unit dimensions.
    pub fn shape(&self) -> String {
        match self.block {
            [x, 1, 1] => x.to_string(),
            [x, y, 1] => format!("{x}x{y}"),
            [x, y, z] => format!("{x}x{y}x{z}"),
        }
    }
}

/// The short name of a mangled kernel (`_Z11ludDiagonalPfii` → `ludDiagonal`); names that are
/// not `_Z<length><identifier>…` come back unchanged.
pub fn short_name(mangled: &str) -> &str {
    let Some(rest) = mangled.strip_prefix("_Z") else {
        return mangled;
    };
    let digits = rest.bytes().take_while(u8::is_ascii_digit).count();
    match rest[..digits].parse::<usize>() {
        Ok(len) if digits > 0 && rest.len() >= digits + len => &rest[digits..digits + len],
        _ => mangled,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn short_names() {
        assert_eq!(short_name("_Z11ludDiagonalPfii"), "ludDiagonal");
        assert_eq!(short_name("_Z5pfSumPKfiPf"), "pfSum");
        assert_eq!(short_name("plain_c_name"), "plain_c_name");
        assert_eq!(short_name("_Z"), "_Z");
        assert_eq!(short_name("_Z99x"), "_Z99x");
    }

    #[test]
    fn shapes() {
        assert_eq!(KernelShape::x("k", 256).shape(), "256");
        assert_eq!(KernelShape::xy("k", 16, 16).shape(), "16x16");
        assert_eq!(
            KernelShape {
                kernel: "k",
                block: [8, 4, 4]
            }
            .shape(),
            "8x4x4"
        );
        assert_eq!(KernelShape::xy("k", 16, 16).threads(), 256);
    }
}
