//! Kernel names as a CUDA programmer wrote them: `_Z5scalePfif` is `scale(float*, int, float)`.
//! Every message and statistic that names a kernel shows this form (JSON keeps the mangled
//! symbol beside it).

/// The demangled C++ name of `symbol`, or the symbol itself when it is not a mangled C++ name
/// (an `extern "C"` kernel, a PTX file's own name).
pub fn demangle(symbol: &str) -> String {
    match cpp_demangle::Symbol::new(symbol) {
        Ok(s) => s
            .demangle(&cpp_demangle::DemangleOptions::default())
            .unwrap_or_else(|_| symbol.to_string()),
        Err(_) => symbol.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::demangle;

    #[test]
    fn cuda_kernel_names() {
        assert_eq!(demangle("_Z5scalePfif"), "scale(float*, int, float)");
        assert_eq!(
            demangle("_Z6reducePKfPfi"),
            "reduce(float const*, float*, int)"
        );
        assert_eq!(
            demangle("_Z3addIiEvPT_S1_i"),
            "void add<int>(int*, int*, int)"
        );
        assert_eq!(demangle("saxpy"), "saxpy");
        assert_eq!(demangle("_Z"), "_Z");
    }
}
