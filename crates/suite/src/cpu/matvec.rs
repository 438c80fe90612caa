//! Matrix-vector products in the order of operations of the suite's linear-algebra kernels
//! (`poly_atax`, `poly_mvt`, `poly_bicg`): every output is a chain of fused multiply-adds over
//! the summation index in increasing order, starting from a given value. An f32 kernel that
//! does the same with `__fmaf_rn` matches bit for bit (`f32::mul_add` is the correctly
//! rounded fused operation, as `fma.rn.f32` is).

/// `out[i] = init[i] + Σ_j a[i][j] · x[j]` for a row-major `rows × cols` matrix `a`, fused
/// multiply-adds in `j` order.
pub(crate) fn rows_fma(a: &[f32], rows: usize, cols: usize, x: &[f32], init: &[f32]) -> Vec<f32> {
    assert!(a.len() == rows * cols && x.len() == cols && init.len() == rows);
    (0..rows)
        .map(|i| {
            a[i * cols..(i + 1) * cols]
                .iter()
                .zip(x)
                .fold(init[i], |acc, (&aij, &xj)| aij.mul_add(xj, acc))
        })
        .collect()
}

/// `out[j] = init[j] + Σ_i a[i][j] · y[i]` for a row-major `rows × cols` matrix `a`, fused
/// multiply-adds in `i` order (walked row by row, which gives each `j` the same order).
pub(crate) fn cols_fma(a: &[f32], rows: usize, cols: usize, y: &[f32], init: &[f32]) -> Vec<f32> {
    assert!(a.len() == rows * cols && y.len() == rows && init.len() == cols);
    let mut acc = init.to_vec();
    for (row, &yi) in a.chunks_exact(cols).zip(y) {
        for (s, &aij) in acc.iter_mut().zip(row) {
            *s = aij.mul_add(yi, *s);
        }
    }
    acc
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A 2 x 3 example by hand.
    #[test]
    fn small_example() {
        let a = [1.0, 2.0, 3.0, 4.0, 5.0, 6.0];
        assert_eq!(
            rows_fma(&a, 2, 3, &[1.0, 0.5, -1.0], &[10.0, 0.0]),
            vec![9.0, 0.5]
        );
        assert_eq!(
            cols_fma(&a, 2, 3, &[1.0, -1.0], &[0.0, 1.0, 2.0]),
            vec![-3.0, -2.0, -1.0]
        );
    }

    /// Both agree with an f64 evaluation within the classic bound γ(n) Σ|a||x| of a chain of n
    /// fused multiply-adds, and the column form equals the row form on the transpose.
    #[test]
    fn within_the_rounding_bound() {
        let (rows, cols) = (37, 53);
        let mut r = crate::rng::rng("matvec-test", 0);
        let a = crate::rng::f32s(&mut r, rows * cols, -1.0, 1.0);
        let x = crate::rng::f32s(&mut r, cols, -1.0, 1.0);
        let y = crate::rng::f32s(&mut r, rows, -1.0, 1.0);
        let gamma = |n: usize| {
            n as f64 * f32::EPSILON as f64 / 2.0 / (1.0 - n as f64 * f32::EPSILON as f64 / 2.0)
        };
        let got = rows_fma(&a, rows, cols, &x, &vec![0.0; rows]);
        for (i, g) in got.iter().enumerate() {
            let row = &a[i * cols..(i + 1) * cols];
            let exact: f64 = row.iter().zip(&x).map(|(&p, &q)| p as f64 * q as f64).sum();
            let mag: f64 = row
                .iter()
                .zip(&x)
                .map(|(&p, &q)| (p as f64 * q as f64).abs())
                .sum();
            assert!((*g as f64 - exact).abs() <= gamma(cols) * mag, "row {i}");
        }
        let mut at = vec![0.0; rows * cols];
        for i in 0..rows {
            for j in 0..cols {
                at[j * rows + i] = a[i * cols + j];
            }
        }
        assert_eq!(
            cols_fma(&a, rows, cols, &y, &x),
            rows_fma(&at, cols, rows, &y, &x)
        );
    }
}
