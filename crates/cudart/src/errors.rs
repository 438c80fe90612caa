//! Error entry points: `cudaGetLastError`, `cudaPeekAtLastError`, `cudaGetErrorString`,
//! `cudaGetErrorName`.

use crate::error_table::ERRORS;
use crate::runtime::{guard, lock};
use crate::types::*;
use std::ffi::c_char;

const UNRECOGNIZED: &[u8] = b"unrecognized error code\0";

/// NUL-terminated copies of the table's strings, made once (the C API returns static strings).
/// (code, NUL-terminated name, NUL-terminated message).
type CEntry = (i32, Vec<u8>, Vec<u8>);

fn c_strings() -> &'static [CEntry] {
    static TABLE: std::sync::OnceLock<Vec<CEntry>> = std::sync::OnceLock::new();
    TABLE.get_or_init(|| {
        ERRORS
            .iter()
            .map(|(code, name, text)| {
                let z = |s: &str| s.bytes().chain(std::iter::once(0)).collect::<Vec<u8>>();
                (*code, z(name), z(text))
            })
            .collect()
    })
}

/// The name of an error code (`cudaErrorIllegalAddress`), if CUDA 13 defines it.
pub fn name(e: cudaError_t) -> Option<&'static str> {
    ERRORS.iter().find(|(c, ..)| *c == e).map(|(_, n, _)| *n)
}

/// The message of an error code, if CUDA 13 defines it.
#[cfg(test)]
pub fn message(e: cudaError_t) -> Option<&'static str> {
    ERRORS.iter().find(|(c, ..)| *c == e).map(|(.., m)| *m)
}

unsafe extern "C" fn cudaGetLastError() -> cudaError_t {
    guard("cudaGetLastError", cudaErrorUnknown, || {
        let mut rt = lock();
        let e = if rt.last_error != cudaSuccess {
            rt.last_error
        } else {
            rt.sticky
        };
        rt.last_error = cudaSuccess;
        e
    })
}

unsafe extern "C" fn cudaPeekAtLastError() -> cudaError_t {
    guard("cudaPeekAtLastError", cudaErrorUnknown, || {
        let rt = lock();
        if rt.last_error != cudaSuccess {
            rt.last_error
        } else {
            rt.sticky
        }
    })
}

unsafe extern "C" fn cudaGetErrorString(e: cudaError_t) -> *const c_char {
    guard(
        "cudaGetErrorString",
        UNRECOGNIZED.as_ptr() as *const c_char,
        || {
            c_strings()
                .iter()
                .find(|(c, ..)| *c == e)
                .map(|(.., m)| m.as_ptr())
                .unwrap_or(UNRECOGNIZED.as_ptr()) as *const c_char
        },
    )
}

unsafe extern "C" fn cudaGetErrorName(e: cudaError_t) -> *const c_char {
    guard(
        "cudaGetErrorName",
        UNRECOGNIZED.as_ptr() as *const c_char,
        || {
            c_strings()
                .iter()
                .find(|(c, ..)| *c == e)
                .map(|(_, n, _)| n.as_ptr())
                .unwrap_or(UNRECOGNIZED.as_ptr()) as *const c_char
        },
    )
}

export!(
    cudaGetLastError,
    cudaPeekAtLastError,
    cudaGetErrorString,
    cudaGetErrorName
);

#[cfg(test)]
mod tests {
    use super::*;
    use std::ffi::CStr;

    #[test]
    fn names_and_messages() {
        assert_eq!(name(700), Some("cudaErrorIllegalAddress"));
        assert_eq!(message(9), Some("invalid configuration argument"));
        assert_eq!(name(12345), None);
        unsafe {
            assert_eq!(
                CStr::from_ptr(cudaGetErrorString(801)).to_str().unwrap(),
                "operation not supported"
            );
            assert_eq!(
                CStr::from_ptr(cudaGetErrorName(0)).to_str().unwrap(),
                "cudaSuccess"
            );
            assert_eq!(
                CStr::from_ptr(cudaGetErrorName(-3)).to_str().unwrap(),
                "unrecognized error code"
            );
        }
    }

    #[test]
    fn table_is_sorted_and_unique() {
        assert!(ERRORS.windows(2).all(|w| w[0].0 < w[1].0));
        for code in [
            cudaErrorInvalidPtx,
            cudaErrorNoKernelImageForDevice,
            cudaErrorAssert,
            cudaErrorLaunchTimeout,
        ] {
            assert!(name(code).is_some(), "{code}");
        }
    }
}
