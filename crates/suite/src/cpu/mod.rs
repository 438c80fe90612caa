//! CPU implementations of standard algorithms that drivers check their kernels against,
//! written here from the standards (byte-oriented and unoptimised on purpose: a reference
//! should be structured differently from the kernel it checks) and tested against the
//! standards' published vectors, or, where there are none (matrix-vector products, Sobol
//! points), against the algorithm's defining properties.

pub(crate) mod aes128;
pub(crate) mod matvec;
pub(crate) mod sha1;
pub(crate) mod sobol;
pub(crate) mod tensor;
