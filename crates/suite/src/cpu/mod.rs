//! CPU implementations of standard algorithms that drivers check their kernels against,
//! written here from the standards (byte-oriented and unoptimised on purpose: a reference
//! should be structured differently from the kernel it checks) and tested against the
//! standards' published vectors.

pub(crate) mod aes128;
pub(crate) mod matvec;
pub(crate) mod sha1;
pub(crate) mod sobol;
