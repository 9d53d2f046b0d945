//! The LU solve of a small torn block, in registers: the interpreter's [`lu_solve`] (partial
//! pivoting within the band, a zero column's unknown left free, the back substitution's test
//! of its row against the final tolerance) unrolled for the block's size, each comparison of
//! the pivot search and each skipped update a `select`, so that the Newton step is bitwise the
//! one the interpreter computes. Blocks of more than [`SMALL_LU`] tearing variables call the
//! generic routine (`rtc.lu_solve`) on the scratch area.
//!
//! [`lu_solve`]: crate::plan::interp::lu_solve

use super::*;

/// The largest torn block solved in registers: the unrolled code grows as k³ (the pivot
/// search's row exchanges are selects over the rows below), 4 keeps it within a few hundred
/// instructions.
pub(super) const SMALL_LU: usize = 4;

impl Lower<'_> {
    /// Solves the block's Jacobian (row-major at `j0`) against the residuals at `r0`,
    /// writing the Newton step over the residuals; returns 1 where the interpreter's LU
    /// returns false (a non-finite pivot column, or a free unknown whose row is not within
    /// `flim`).
    pub(super) fn lu_small(
        &mut self,
        b: &mut FunctionBuilder,
        k: usize,
        (kl, w): (usize, usize),
        (j0, r0): (usize, usize),
        flim: Value,
    ) -> Value {
        let zero = b.ins().f64const(0.0);
        // The entries the elimination reads, loaded where first needed.
        let mut a: Vec<Vec<Option<Value>>> = vec![vec![None; k]; k];
        let get = |this: &mut Self,
                   b: &mut FunctionBuilder,
                   a: &mut Vec<Vec<Option<Value>>>,
                   i: usize,
                   j: usize| {
            *a[i][j].get_or_insert_with(|| this.load_slot(b, j0 + i * k + j))
        };
        let mut rhs: Vec<Value> = (0..k).map(|i| self.load_slot(b, r0 + i)).collect();
        let mut bad = b.ins().iconst(types::I8, 0);
        for col in 0..k {
            let rows_end = (col + kl + 1).min(k);
            let cols_end = (col + w + 1).min(k);
            // Pivot: the largest magnitude in the column (the first of equals).
            let first = get(self, b, &mut a, col, col);
            let mut best = b.ins().fabs(first);
            let mut piv: Vec<Value> = Vec::new(); // piv[r - col - 1]: row r is the pivot
            for r in col + 1..rows_end {
                let x = get(self, b, &mut a, r, col);
                let v = b.ins().fabs(x);
                let gt = b.ins().fcmp(FloatCC::GreaterThan, v, best);
                best = b.ins().select(gt, v, best);
                // An earlier row stops being the pivot where this one is larger.
                let not_gt = b.ins().bxor_imm_s(gt, 1);
                for p in piv.iter_mut() {
                    *p = b.ins().band(*p, not_gt);
                }
                piv.push(gt);
            }
            // A non-finite pivot column fails the solve (x − x is NaN for NaN and ±inf).
            let bb = b.ins().fsub(best, best);
            let finite = b.ins().fcmp(FloatCC::Equal, bb, zero);
            let not_finite = b.ins().bxor_imm_s(finite, 1);
            bad = b.ins().bor(bad, not_finite);
            // A zero column: its unknown is free, the column is skipped.
            let free = b.ins().fcmp(FloatCC::Equal, best, zero);
            let act = b.ins().bxor_imm_s(free, 1);
            if rows_end > col + 1 {
                // Rows exchanged where a row below is the pivot and the column is not free.
                let swap: Vec<Value> = piv.iter().map(|&p| b.ins().band(p, act)).collect();
                for c in col..cols_end {
                    let top = get(self, b, &mut a, col, c);
                    let mut new_top = top;
                    for (i, r) in (col + 1..rows_end).enumerate() {
                        let x = get(self, b, &mut a, r, c);
                        new_top = b.ins().select(swap[i], x, new_top);
                        a[r][c] = Some(b.ins().select(swap[i], top, x));
                    }
                    a[col][c] = Some(new_top);
                }
                let top = rhs[col];
                let mut new_top = top;
                for (i, r) in (col + 1..rows_end).enumerate() {
                    let x = rhs[r];
                    new_top = b.ins().select(swap[i], x, new_top);
                    rhs[r] = b.ins().select(swap[i], top, x);
                }
                rhs[col] = new_top;
            }
            // Elimination below the pivot, where the factor is not zero.
            let d = get(self, b, &mut a, col, col);
            for r in col + 1..rows_end {
                let x = get(self, b, &mut a, r, col);
                let f = b.ins().fdiv(x, d);
                let nz = b.ins().fcmp(FloatCC::NotEqual, f, zero);
                let upd = b.ins().band(nz, act);
                let stored = b.ins().select(nz, f, zero);
                a[r][col] = Some(b.ins().select(act, stored, x));
                for c in col + 1..cols_end {
                    let y = get(self, b, &mut a, r, c);
                    let p = get(self, b, &mut a, col, c);
                    let fp = b.ins().fmul(f, p);
                    let z = b.ins().fsub(y, fp);
                    a[r][c] = Some(b.ins().select(upd, z, y));
                }
                let fp = b.ins().fmul(f, rhs[col]);
                let z = b.ins().fsub(rhs[r], fp);
                rhs[r] = b.ins().select(upd, z, rhs[r]);
            }
        }
        // Back substitution; a free unknown's row must vanish within the final tolerance.
        for col in (0..k).rev() {
            let mut s = rhs[col];
            let end = (col + w + 1).min(k);
            for (c, &bc) in rhs.iter().enumerate().take(end).skip(col + 1) {
                let x = get(self, b, &mut a, col, c);
                let p = b.ins().fmul(x, bc);
                s = b.ins().fsub(s, p);
            }
            let d = get(self, b, &mut a, col, col);
            let free = b.ins().fcmp(FloatCC::Equal, d, zero);
            let sa = b.ins().fabs(s);
            let within = b.ins().fcmp(FloatCC::LessThanOrEqual, sa, flim);
            let not_within = b.ins().bxor_imm_s(within, 1);
            let fails = b.ins().band(free, not_within);
            bad = b.ins().bor(bad, fails);
            let q = b.ins().fdiv(s, d);
            rhs[col] = b.ins().select(free, zero, q);
        }
        for (i, &x) in rhs.iter().enumerate() {
            self.store_slot(b, r0 + i, x);
        }
        bad
    }
}
