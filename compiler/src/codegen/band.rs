//! The band LU of a long chain's torn block with its working rows in registers.
//!
//! The generic LU (`rtc.lu_solve`, helpers.rs) reads the pivot row's band from memory again
//! for every row below it and writes every updated row back, per column: for a chain of n
//! tearing variables with kl rows below the diagonal and w columns right of it, the
//! elimination loads and stores each band entry kl + 1 times. Here, for a band known when
//! the code is generated (`TornBlock::band`, small: [`eligible`]), the elimination keeps the
//! window it works on — rows col … col + kl, columns col … col + w — in SSA values carried
//! from one column to the next as block parameters: each column loads only what enters the
//! window (row col + kl + 1 and column col + w + 1 of the rows above it) and stores only what
//! leaves it (the finished pivot row of U and the column of L factors). Each band entry is
//! read once and written once.
//!
//! Every operation is the interpreter's ([`crate::plan::interp::lu_solve`]) in the same
//! order: the pivot search (largest magnitude, first on ties, never NaN), the row exchange
//! (selects over the window's rows, so values only move), `f = a[r][col] / d`, the updates
//! `a[r][c] − f·a[col][c]` and `b[r] − f·b[col]` where f ≠ 0 and the pivot column is not zero
//! (selects keep the old bits otherwise, and the L entry becomes 0.0 where f = 0, as the
//! interpreter writes it). The last max(kl, w) columns, where the window would leave the
//! matrix, and the back substitution are the generic routine's, called from the column
//! where the loop stops (its `k0`), so the results stay bitwise the interpreter's.

use super::*;

/// Largest band kept in registers: kl rows below the diagonal, w columns right of it, with
/// (kl + 1)·(w + 1) values in the window (the line's blocks have kl = 2, w ≤ 4).
const MAX_KL: usize = 4;
const MAX_W: usize = 8;
const MAX_WINDOW: usize = 30;

/// Whether the block's LU of size `n` with band `(kl, w)` runs in a register window: a
/// proper band (not dense), small enough to stay in registers, with columns left for the
/// loop before the window reaches the matrix's end.
pub(super) fn eligible(n: usize, (kl, w): (usize, usize)) -> bool {
    (1..=MAX_KL).contains(&kl)
        && (1..=MAX_W).contains(&w)
        && (kl + 1) * (w + 1) <= MAX_WINDOW
        && n >= kl.max(w) + 4
}

impl<M: Module> Gen<'_, M> {
    /// `int32_t lu_band_<kl>_<w>(double *a, double *b, int64_t n, int64_t kl, int64_t w,
    /// double tol)`, the generic solve's signature and result (defined on first use).
    pub(super) fn band_lu(&mut self, band: (usize, usize)) -> Result<FuncId, CodegenError> {
        if let Some(&id) = self.bands.get(&band) {
            return Ok(id);
        }
        let (kl, w) = band;
        let generic = self.import(LU, 7)?;
        let name = format!("{}_lu_band_{kl}_{w}", self.prefix);
        let mut ctx = self.module.make_context();
        for _ in 0..5 {
            ctx.func.signature.params.push(AbiParam::new(types::I64));
        }
        ctx.func.signature.params.push(AbiParam::new(types::F64));
        ctx.func.signature.returns.push(AbiParam::new(types::I32));
        let id = self
            .module
            .declare_function(&name, Linkage::Local, &ctx.func.signature)
            .map_err(err)?;
        self.bands.insert(band, id);
        {
            let mut b = FunctionBuilder::new(&mut ctx.func, &mut self.fctx);
            let lu = self.module.declare_func_in_func(generic, b.func);
            let entry = b.create_block();
            b.append_block_params_for_function_params(entry);
            b.switch_to_block(entry);
            let p = b.block_params(entry).to_vec();
            let (a, rhs, n) = (p[0], p[1], p[2]);
            let stride = b.ins().ishl_imm_u(n, 3);
            let last = b.ins().iadd_imm_s(n, -(kl.max(w) as i64));
            // The window's rows 0 … kl − 1 and columns 0 … w − 1 at column 0.
            let mut carried = vec![b.ins().iconst(types::I64, 0), a, rhs];
            let rows = row_pointers(&mut b, a, stride, kl);
            for r in &rows {
                for j in 0..w {
                    carried.push(load_at(&mut b, *r, j));
                }
            }
            for i in 0..kl {
                carried.push(load_at(&mut b, rhs, i));
            }
            let head = b.create_block();
            let body = b.create_block();
            let exit = b.create_block();
            let fail = b.create_block();
            for blk in [head, body, exit] {
                b.append_block_param(blk, types::I64);
                b.append_block_param(blk, types::I64);
                b.append_block_param(blk, types::I64);
                for _ in 0..kl * w + kl {
                    b.append_block_param(blk, types::F64);
                }
            }
            let args: Vec<_> = carried.iter().map(|&v| v.into()).collect();
            b.ins().jump(head, &args);
            b.switch_to_block(head);
            let hp = b.block_params(head).to_vec();
            let more = b.ins().icmp(IntCC::SignedLessThan, hp[0], last);
            let hargs: Vec<_> = hp.iter().map(|&v| v.into()).collect();
            b.ins().brif(more, body, &hargs, exit, &hargs);
            b.switch_to_block(body);
            let bp = b.block_params(body).to_vec();
            let next = column(&mut b, band, stride, &bp, fail);
            let nargs: Vec<_> = next.iter().map(|&v| v.into()).collect();
            b.ins().jump(head, &nargs);
            // The window back to memory; the generic routine from this column on.
            b.switch_to_block(exit);
            let ep = b.block_params(exit).to_vec();
            let (diag, pb) = (ep[1], ep[2]);
            let rows = row_pointers(&mut b, diag, stride, kl);
            let mut k = 3;
            for r in &rows {
                for j in 0..w {
                    store_at(&mut b, *r, j, ep[k]);
                    k += 1;
                }
            }
            for i in 0..kl {
                store_at(&mut b, pb, i, ep[k]);
                k += 1;
            }
            let c = b.ins().call(lu, &[a, rhs, n, p[3], p[4], p[5], ep[0]]);
            let st = b.inst_results(c)[0];
            b.ins().return_(&[st]);
            b.switch_to_block(fail);
            let zero = b.ins().iconst(types::I32, 0);
            b.ins().return_(&[zero]);
            b.seal_all_blocks();
            b.finalize(self.module.isa().frontend_config());
        }
        self.define(&name, id, &mut ctx, vec![generic], false)?;
        Ok(id)
    }
}

fn load_at(b: &mut FunctionBuilder, p: Value, j: usize) -> Value {
    b.ins()
        .load(types::F64, MemFlagsData::trusted(), p, (j * 8) as i32)
}

fn store_at(b: &mut FunctionBuilder, p: Value, j: usize, x: Value) {
    b.ins().store(MemFlagsData::trusted(), x, p, (j * 8) as i32);
}

/// `p`, `p + stride`, …: the first `k` rows from `p`.
fn row_pointers(b: &mut FunctionBuilder, p: Value, stride: Value, k: usize) -> Vec<Value> {
    let mut rows = vec![p];
    for _ in 1..k {
        let prev = rows[rows.len() - 1];
        rows.push(b.ins().iadd(prev, stride));
    }
    rows.truncate(k);
    rows
}

/// One column's elimination on the window; `cur` is (col, &a[col][col], &b[col], the carried
/// rows, the carried right-hand sides). Returns the same for the next column.
fn column(
    b: &mut FunctionBuilder,
    (kl, w): (usize, usize),
    stride: Value,
    cur: &[Value],
    fail: cranelift_codegen::ir::Block,
) -> Vec<Value> {
    let (col, diag, pb) = (cur[0], cur[1], cur[2]);
    let rows = row_pointers(b, diag, stride, kl + 1);
    // The full window: carried values, and what enters it (column w, row kl) from memory.
    let mut r: Vec<Vec<Value>> = Vec::with_capacity(kl + 1);
    for (i, &row) in rows.iter().enumerate() {
        let mut vals = Vec::with_capacity(w + 1);
        for j in 0..=w {
            vals.push(if i < kl && j < w {
                cur[3 + i * w + j]
            } else {
                load_at(b, row, j)
            });
        }
        r.push(vals);
    }
    let mut rhs: Vec<Value> = (0..=kl)
        .map(|i| {
            if i < kl {
                cur[3 + kl * w + i]
            } else {
                load_at(b, pb, i)
            }
        })
        .collect();
    // Pivot: the largest magnitude in the column, the first on ties (NaN never wins).
    let mut best = b.ins().fabs(r[0][0]);
    let mut piv = b.ins().iconst(types::I64, 0);
    for (i, row) in r.iter().enumerate().skip(1) {
        let v = b.ins().fabs(row[0]);
        let gt = b.ins().fcmp(FloatCC::GreaterThan, v, best);
        best = b.ins().select(gt, v, best);
        let ii = b.ins().iconst(types::I64, i as i64);
        piv = b.ins().select(gt, ii, piv);
    }
    // A non-finite pivot: singular (x − x ≠ 0 for NaN and ±inf).
    let z = b.ins().f64const(0.0);
    let dd = b.ins().fsub(best, best);
    let finite = b.ins().fcmp(FloatCC::Equal, dd, z);
    let go_on = b.create_block();
    b.ins().brif(finite, go_on, &[], fail, &[]);
    b.switch_to_block(go_on);
    // A zero column is a free unknown: nothing changes (the pivot stays on the diagonal).
    let nonzero = b.ins().fcmp(FloatCC::NotEqual, best, z);
    // The row exchange: values move between rows 0 and the pivot row.
    for i in 1..=kl {
        let is = b.ins().icmp_imm_s(IntCC::Equal, piv, i as i64);
        let (head, tail) = r.split_at_mut(i);
        for (top, other) in head[0].iter_mut().zip(tail[0].iter_mut()) {
            let (t, o) = (*top, *other);
            *top = b.ins().select(is, o, t);
            *other = b.ins().select(is, t, o);
        }
        let (top, other) = (rhs[0], rhs[i]);
        rhs[0] = b.ins().select(is, other, top);
        rhs[i] = b.ins().select(is, top, other);
    }
    let d = r[0][0];
    for i in 1..=kl {
        let e = r[i][0];
        let f = b.ins().fdiv(e, d);
        // `f != 0.0` (true for NaN, as in Rust).
        let nz = b.ins().fcmp(FloatCC::NotEqual, f, z);
        let upd = b.ins().band(nonzero, nz);
        let l = b.ins().select(nz, f, z);
        r[i][0] = b.ins().select(nonzero, l, e);
        let (head, tail) = r.split_at_mut(i);
        for (y, x) in head[0].iter().zip(tail[0].iter_mut()).skip(1) {
            let fy = b.ins().fmul(f, *y);
            let v = b.ins().fsub(*x, fy);
            *x = b.ins().select(upd, v, *x);
        }
        let fy = b.ins().fmul(f, rhs[0]);
        let x = b.ins().fsub(rhs[i], fy);
        rhs[i] = b.ins().select(upd, x, rhs[i]);
    }
    // What leaves the window: the pivot row (U) and the column of L factors.
    for (j, &x) in r[0].iter().enumerate() {
        store_at(b, rows[0], j, x);
    }
    for (&row, vals) in rows.iter().zip(&r).skip(1) {
        store_at(b, row, 0, vals[0]);
    }
    store_at(b, pb, 0, rhs[0]);
    let col1 = b.ins().iadd_imm_s(col, 1);
    let diag1 = b.ins().iadd(diag, stride);
    let diag1 = b.ins().iadd_imm_s(diag1, 8);
    let pb1 = b.ins().iadd_imm_s(pb, 8);
    let mut next = vec![col1, diag1, pb1];
    for row in &r[1..] {
        next.extend_from_slice(&row[1..]);
    }
    next.extend_from_slice(&rhs[1..]);
    next
}
