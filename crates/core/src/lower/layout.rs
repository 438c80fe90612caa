//! Sizes, alignments and bump allocation of variables and parameters.
//!
//! Every memory region lowering lays out (the kernel parameter buffer, a function's frame, the
//! shared segment, the global image) is a bump allocator: each item goes at the next offset
//! aligned to its alignment, and the region's alignment is the largest one seen.

use ptx::ast::{Initializer, ParamDecl, VarDecl};

/// Rounds `x` up to a multiple of `align` (a power of two).
pub(super) fn align_up(x: u32, align: u32) -> u32 {
    debug_assert!(align.is_power_of_two());
    (x + align - 1) & !(align - 1)
}

/// A growing region: items are placed one after the other at their alignment.
#[derive(Clone, Copy, Debug)]
pub(super) struct Bump {
    /// One past the last byte placed.
    pub end: u32,
    /// Largest alignment placed (at least the initial value).
    pub align: u32,
}

impl Bump {
    pub fn new(start: u32, min_align: u32) -> Bump {
        Bump {
            end: start,
            align: min_align,
        }
    }

    /// Places `size` bytes at `align` and returns their offset.
    pub fn place(&mut self, size: u32, align: u32) -> u32 {
        let offset = align_up(self.end, align);
        self.end = offset + size;
        self.align = self.align.max(align);
        offset
    }
}

/// Size and alignment of a parameter: element size × array length, at its `.align` or its
/// element's natural alignment.
pub(super) fn param_size_align(p: &ParamDecl) -> Result<(u32, u32), String> {
    let elem = p.ty.size();
    let size = elem * p.array.unwrap_or(1);
    let align = checked_align(p.align, elem)?;
    Ok((size, align))
}

/// Size and alignment of a variable. An unsized dimension (`[]`) takes its length from the
/// initialiser; without one (`.extern .shared … dyn[]`) the variable has size 0.
pub(super) fn var_size_align(v: &VarDecl) -> Result<(u32, u32), String> {
    let elem = v.ty.size() * u32::from(v.vector.unwrap_or(1));
    let mut count: u64 = 1;
    for (i, dim) in v.dims.iter().enumerate() {
        let n = match dim {
            Some(n) => u64::from(*n),
            // Only the outermost dimension may be left to the initialiser.
            None if i == 0 => v
                .init
                .as_ref()
                .map_or(0, |init| outer_len(init, v.dims.len())),
            None => return Err(format!("inner dimension of `{}` has no size", v.name)),
        };
        count *= n;
    }
    let size = u32::try_from(count * u64::from(elem))
        .map_err(|_| format!("variable `{}` is larger than 4 GiB", v.name))?;
    Ok((size, checked_align(v.align, elem)?))
}

/// Number of elements the outermost dimension gets from an initialiser: the length of the
/// outer list when the initialiser is nested, otherwise the number of scalars divided among
/// the inner dimensions (which are then 1 for a 1-D array).
fn outer_len(init: &Initializer, ndims: usize) -> u64 {
    match init {
        Initializer::List(items) if ndims > 1 => items.len() as u64,
        Initializer::List(items) => items.iter().map(count_scalars).sum(),
        Initializer::Value(_) => 1,
    }
}

/// Number of scalar values in an initialiser, nested lists flattened.
pub(super) fn count_scalars(init: &Initializer) -> u64 {
    match init {
        Initializer::Value(_) => 1,
        Initializer::List(items) => items.iter().map(count_scalars).sum(),
    }
}

/// `.align N` when written (must be a power of two), else the natural alignment.
fn checked_align(written: Option<u32>, natural: u32) -> Result<u32, String> {
    match written {
        Some(a) if a.is_power_of_two() => Ok(a),
        Some(a) => Err(format!(".align {a} is not a power of two")),
        None => Ok(natural.max(1)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bump_places_at_alignment() {
        let mut b = Bump::new(0, 8);
        assert_eq!(b.place(1, 1), 0);
        assert_eq!(b.place(4, 4), 4);
        assert_eq!(b.place(16, 16), 16);
        assert_eq!(b.place(2, 2), 32);
        assert_eq!((b.end, b.align), (34, 16));
    }

    #[test]
    fn align_up_rounds() {
        assert_eq!(align_up(0, 8), 0);
        assert_eq!(align_up(1, 8), 8);
        assert_eq!(align_up(8, 8), 8);
        assert_eq!(align_up(9, 4), 12);
    }
}
