//! Helper functions generated in Cranelift IR next to the chunks: the dense LU solve of the
//! torn blocks and `x^y` for exponents only known at run time. They repeat
//! [`crate::plan::interp::lu_solve`] and [`crate::symbolic::eval::pow`] operation for
//! operation, so the JIT, an object for another target and the interpreter agree bitwise
//! (up to the C library's `pow` for non-integer exponents).
//!
//! Both loops have bounds fixed when the function is called (the block size k, the 32 bits of
//! an integer exponent), so the work stays bounded.

use super::{err, CodegenError, Gen};
use cranelift_codegen::ir::condcodes::{FloatCC, IntCC};
use cranelift_codegen::ir::{types, AbiParam, Block, InstBuilder, MemFlagsData, Value};
use cranelift_frontend::{FunctionBuilder, Variable};
use cranelift_module::{FuncId, Linkage, Module};

/// `base + i·8`.
fn item(b: &mut FunctionBuilder, base: Value, i: Value) -> Value {
    let off = b.ins().ishl_imm_u(i, 3);
    b.ins().iadd(base, off)
}

fn load(b: &mut FunctionBuilder, p: Value) -> Value {
    b.ins().load(types::F64, MemFlagsData::trusted(), p, 0)
}

fn store(b: &mut FunctionBuilder, p: Value, x: Value) {
    b.ins().store(MemFlagsData::trusted(), x, p, 0);
}

/// `for v in from..n { body }` with `v` an I64 variable; leaves the builder after the loop.
fn for_range(
    b: &mut FunctionBuilder,
    v: Variable,
    from: Value,
    n: Value,
    body: impl FnOnce(&mut FunctionBuilder, Value),
) {
    let head = b.create_block();
    let body_blk = b.create_block();
    let exit = b.create_block();
    b.def_var(v, from);
    b.ins().jump(head, &[]);
    b.switch_to_block(head);
    let i = b.use_var(v);
    let more = b.ins().icmp(IntCC::SignedLessThan, i, n);
    b.ins().brif(more, body_blk, &[], exit, &[]);
    b.switch_to_block(body_blk);
    body(b, i);
    let i = b.use_var(v);
    let i1 = b.ins().iadd_imm_s(i, 1);
    b.def_var(v, i1);
    b.ins().jump(head, &[]);
    b.switch_to_block(exit);
}

impl<M: Module> Gen<'_, M> {
    /// `int32_t lu_solve(double *a, double *b, int64_t n, int64_t kl, int64_t w, double tol,
    /// int64_t k0)`:
    /// LU with partial pivoting (from column `k0`; 0: all) of the row-major n×n `a` whose
    /// nonzeros lie at most `kl` below
    /// the diagonal and whose U has at most `w` super-diagonals (only that band is touched;
    /// dense: `kl = n − 1`, `w = 2n − 2`), solving in place into `b`; 1 on success, 0 if a
    /// pivot is not finite or a zero column's row is left with more than `tol` (exactly
    /// [`crate::plan::interp::lu_solve`]: a zero column is a free unknown, update 0). Pointer-walking loops (no index arithmetic in the inner loops); the
    /// elimination's row update, the O(n³) part, runs two columns at a time in f64x2 lanes
    /// where the target has vector registers (each lane computes exactly the scalar
    /// `a[r][c] − f·a[k][c]`, so the results are bitwise those of the scalar code).
    pub(super) fn define_lu(&mut self) -> Result<FuncId, CodegenError> {
        let name = format!("{}_lu_solve", self.prefix);
        let vector = matches!(
            self.module.isa().triple().architecture,
            target_lexicon::Architecture::X86_64 | target_lexicon::Architecture::Aarch64(_)
        );
        let mut ctx = self.module.make_context();
        for _ in 0..5 {
            ctx.func.signature.params.push(AbiParam::new(types::I64));
        }
        ctx.func.signature.params.push(AbiParam::new(types::F64));
        ctx.func.signature.params.push(AbiParam::new(types::I64));
        ctx.func.signature.returns.push(AbiParam::new(types::I32));
        let id = self
            .module
            .declare_function(&name, Linkage::Local, &ctx.func.signature)
            .map_err(err)?;
        {
            let mut b = FunctionBuilder::new(&mut ctx.func, &mut self.fctx);
            let entry = b.create_block();
            b.append_block_params_for_function_params(entry);
            b.switch_to_block(entry);
            let p = b.block_params(entry).to_vec();
            let k0 = p[6];
            let row = b.ins().ishl_imm_u(p[2], 3);
            let v = Lu {
                a: p[0],
                rhs: p[1],
                n: p[2],
                kl: p[3],
                w: p[4],
                tol: p[5],
                row,
                col: b.declare_var(types::I64),
                r: b.declare_var(types::I64),
                c: b.declare_var(types::I64),
                piv: b.declare_var(types::I64),
                best: b.declare_var(types::F64),
                s: b.declare_var(types::F64),
                pa: b.declare_var(types::I64),
                pb: b.declare_var(types::I64),
                fail: b.create_block(),
                vector,
            };
            // Elimination, column by column, from column k0 (the columns before it are
            // done: `band.rs` eliminates them in registers).
            for_range(&mut b, v.col, k0, v.n, |b, k| {
                let kr = b.ins().imul(k, v.row);
                let k8 = b.ins().ishl_imm_u(k, 3);
                let rowk = b.ins().iadd(v.a, kr);
                let pkk = b.ins().iadd(rowk, k8);
                let rows_end = band_end(b, k, v.kl, v.n);
                let cols_end = band_end(b, k, v.w, v.n);
                let skip = b.create_block();
                lu_pivot(b, &v, k, pkk, rows_end, skip);
                lu_swap(b, &v, k, k8, pkk, cols_end);
                // Eliminate below the pivot.
                let d = load(b, pkk);
                let bkp = item(b, v.rhs, k);
                let bk = load(b, bkp);
                let k1 = b.ins().iadd_imm_s(k, 1);
                // Columns right of the pivot within the band.
                let nk = b.ins().isub(cols_end, k1);
                for_range(b, v.r, k1, rows_end, |b, i| {
                    lu_row_update(
                        b,
                        &v,
                        LuRow {
                            i,
                            k8,
                            pkk,
                            d,
                            bk,
                            nk,
                        },
                    );
                });
                b.ins().jump(skip, &[]);
                b.switch_to_block(skip);
            });
            lu_back_substitution(&mut b, &v);
            let one = b.ins().iconst(types::I32, 1);
            b.ins().return_(&[one]);
            b.switch_to_block(v.fail);
            let zero32 = b.ins().iconst(types::I32, 0);
            b.ins().return_(&[zero32]);
            b.seal_all_blocks();
            b.finalize(self.module.isa().frontend_config());
        }
        self.define(&name, id, &mut ctx, Vec::new(), false)?;
        Ok(id)
    }

    /// `double pow(double x, double y)`: integer exponents of magnitude ≤ 64 by binary
    /// exponentiation (as [`crate::symbolic::eval::powi`]), others by the C library's `pow`.
    pub(super) fn define_pow(&mut self) -> Result<FuncId, CodegenError> {
        let libm = self.import("pow", 2)?;
        let name = format!("{}_pow", self.prefix);
        let mut ctx = self.module.make_context();
        ctx.func.signature.params.push(AbiParam::new(types::F64));
        ctx.func.signature.params.push(AbiParam::new(types::F64));
        ctx.func.signature.returns.push(AbiParam::new(types::F64));
        let id = self
            .module
            .declare_function(&name, Linkage::Local, &ctx.func.signature)
            .map_err(err)?;
        {
            let mut b = FunctionBuilder::new(&mut ctx.func, &mut self.fctx);
            let libm_ref = self.module.declare_func_in_func(libm, b.func);
            let entry = b.create_block();
            b.append_block_params_for_function_params(entry);
            b.switch_to_block(entry);
            let p = b.block_params(entry).to_vec();
            let (x, y) = (p[0], p[1]);
            let t = b.ins().trunc(y);
            let is_int = b.ins().fcmp(FloatCC::Equal, y, t);
            let ay = b.ins().fabs(y);
            let lim = b.ins().f64const(64.0);
            let small = b.ins().fcmp(FloatCC::LessThanOrEqual, ay, lim);
            let int = b.ins().band(is_int, small);
            let by_int = b.create_block();
            let by_libm = b.create_block();
            b.ins().brif(int, by_int, &[], by_libm, &[]);
            b.switch_to_block(by_libm);
            let c = b.ins().call(libm_ref, &[x, y]);
            let r = b.inst_results(c)[0];
            b.ins().return_(&[r]);
            // m = |n|; r = first factor as is, then r·a for every further set bit.
            b.switch_to_block(by_int);
            let n = b.ins().fcvt_to_sint(types::I32, y);
            let m = b.declare_var(types::I32);
            let a = b.declare_var(types::F64);
            let r = b.declare_var(types::F64);
            let have = b.declare_var(types::I8);
            let an = b.ins().iabs(n);
            b.def_var(m, an);
            b.def_var(a, x);
            let one = b.ins().f64const(1.0);
            b.def_var(r, one);
            let no = b.ins().iconst(types::I8, 0);
            b.def_var(have, no);
            let head = b.create_block();
            let square = b.create_block();
            let done = b.create_block();
            b.ins().jump(head, &[]);
            b.switch_to_block(head);
            let mv = b.use_var(m);
            let av = b.use_var(a);
            let rv = b.use_var(r);
            let hv = b.use_var(have);
            let bit = b.ins().band_imm_u(mv, 1);
            let set = b.ins().icmp_imm_u(IntCC::NotEqual, bit, 0);
            let ra = b.ins().fmul(rv, av);
            let first = b.ins().select(hv, ra, av);
            let nr = b.ins().select(set, first, rv);
            b.def_var(r, nr);
            let nh = b.ins().bor(hv, set);
            b.def_var(have, nh);
            let m1 = b.ins().ushr_imm_u(mv, 1);
            b.def_var(m, m1);
            let end = b.ins().icmp_imm_u(IntCC::Equal, m1, 0);
            b.ins().brif(end, done, &[], square, &[]);
            b.switch_to_block(square);
            let a2 = b.ins().fmul(av, av);
            b.def_var(a, a2);
            b.ins().jump(head, &[]);
            b.switch_to_block(done);
            let rv = b.use_var(r);
            let hv = b.use_var(have);
            let res = b.ins().select(hv, rv, one);
            let neg = b.ins().icmp_imm_s(IntCC::SignedLessThan, n, 0);
            let inv = b.ins().fdiv(one, res);
            let out = b.ins().select(neg, inv, res);
            b.ins().return_(&[out]);
            b.seal_all_blocks();
            b.finalize(self.module.isa().frontend_config());
        }
        self.define(&name, id, &mut ctx, Vec::new(), true)?;
        Ok(id)
    }
}

/// The values and variables of the generated LU solve (`define_lu`).
struct Lu {
    /// The matrix (row-major, n × n), the right-hand side, n, and the band (kl, w).
    a: Value,
    rhs: Value,
    n: Value,
    kl: Value,
    w: Value,
    /// What a zero column's row may keep (consistent singular systems).
    tol: Value,
    /// n·8: the bytes of one row.
    row: Value,
    col: Variable,
    r: Variable,
    c: Variable,
    piv: Variable,
    best: Variable,
    s: Variable,
    /// Walking pointers.
    pa: Variable,
    pb: Variable,
    /// Returns 0: a zero or non-finite pivot.
    fail: cranelift_codegen::ir::Block,
    /// f64x2 lanes in the row update.
    vector: bool,
}

/// min(k + m + 1, n): the end of the band from row or column k.
fn band_end(b: &mut FunctionBuilder, k: Value, m: Value, n: Value) -> Value {
    let e = b.ins().iadd(k, m);
    let e = b.ins().iadd_imm_s(e, 1);
    let lt = b.ins().icmp(IntCC::SignedLessThan, e, n);
    b.ins().select(lt, e, n)
}

/// The pivot of column k: the largest magnitude from the diagonal down to the band's end
/// (the first on ties, never NaN), into `piv` and `best`; a non-finite pivot jumps to `fail`,
/// a zero one (a free unknown) to `skip`, past the column's elimination.
fn lu_pivot(b: &mut FunctionBuilder, v: &Lu, k: Value, pkk: Value, rows_end: Value, skip: Block) {
    let (piv, best, pa, r, fail, stride) = (v.piv, v.best, v.pa, v.r, v.fail, v.row);
    // Pivot: the largest magnitude in this column (first one on ties, NaN never).
    b.def_var(piv, k);
    let d = load(b, pkk);
    let bd = b.ins().fabs(d);
    b.def_var(best, bd);
    let below = b.ins().iadd(pkk, stride);
    b.def_var(pa, below);
    let k1 = b.ins().iadd_imm_s(k, 1);
    for_range(b, r, k1, rows_end, |b, i| {
        let pe = b.use_var(pa);
        let e = load(b, pe);
        let v = b.ins().fabs(e);
        let bst = b.use_var(best);
        let gt = b.ins().fcmp(FloatCC::GreaterThan, v, bst);
        let nb = b.ins().select(gt, v, bst);
        b.def_var(best, nb);
        let pv = b.use_var(piv);
        let np = b.ins().select(gt, i, pv);
        b.def_var(piv, np);
        let next = b.ins().iadd(pe, stride);
        b.def_var(pa, next);
    });
    // A non-finite pivot: singular (x − x ≠ 0 for NaN and ±inf); a zero one: a free unknown.
    let bst = b.use_var(best);
    let z = b.ins().f64const(0.0);
    let dd = b.ins().fsub(bst, bst);
    let finite = b.ins().fcmp(FloatCC::Equal, dd, z);
    let nonzero = b.create_block();
    b.ins().brif(finite, nonzero, &[], fail, &[]);
    b.switch_to_block(nonzero);
    let is_zero = b.ins().fcmp(FloatCC::Equal, bst, z);
    let go = b.create_block();
    b.ins().brif(is_zero, skip, &[], go, &[]);
    b.switch_to_block(go);
}

/// Swaps row k with the pivot row (within the band's columns) and the right-hand side.
fn lu_swap(b: &mut FunctionBuilder, v: &Lu, k: Value, k8: Value, pkk: Value, cols_end: Value) {
    let (piv, pa, pb, c, row, a, rhs) = (v.piv, v.pa, v.pb, v.c, v.row, v.a, v.rhs);
    // Row swap.
    let pv = b.use_var(piv);
    let same = b.ins().icmp(IntCC::Equal, pv, k);
    let swap = b.create_block();
    let swapped = b.create_block();
    b.ins().brif(same, swapped, &[], swap, &[]);
    b.switch_to_block(swap);
    let pr = b.ins().imul(pv, row);
    let rowp = b.ins().iadd(a, pr);
    let pkp = b.ins().iadd(rowp, k8);
    b.def_var(pa, pkk);
    b.def_var(pb, pkp);
    for_range(b, c, k, cols_end, |b, _| {
        let x = b.use_var(pa);
        let y = b.use_var(pb);
        let vx = load(b, x);
        let vy = load(b, y);
        store(b, x, vy);
        store(b, y, vx);
        let x1 = b.ins().iadd_imm_s(x, 8);
        let y1 = b.ins().iadd_imm_s(y, 8);
        b.def_var(pa, x1);
        b.def_var(pb, y1);
    });
    let pv = b.use_var(piv);
    let x = item(b, rhs, k);
    let y = item(b, rhs, pv);
    let vx = load(b, x);
    let vy = load(b, y);
    store(b, x, vy);
    store(b, y, vx);
    b.ins().jump(swapped, &[]);
    b.switch_to_block(swapped);
}

/// One row below the pivot: its elimination factor and what it needs.
struct LuRow {
    i: Value,
    k8: Value,
    pkk: Value,
    /// The pivot and the right-hand side's pivot entry.
    d: Value,
    bk: Value,
    /// Columns right of the pivot within the band.
    nk: Value,
}

/// Row i −= f·row k over the band's columns (f64x2 lanes where available), b[i] −= f·b[k];
/// f = 0 leaves the row alone.
fn lu_row_update(b: &mut FunctionBuilder, v: &Lu, lr: LuRow) {
    let LuRow {
        i,
        k8,
        pkk,
        d,
        bk,
        nk,
    } = lr;
    let (pa, pb, c, row, a, rhs, vector) = (v.pa, v.pb, v.c, v.row, v.a, v.rhs, v.vector);
    let ir = b.ins().imul(i, row);
    let rowi = b.ins().iadd(a, ir);
    let pik = b.ins().iadd(rowi, k8);
    let e = load(b, pik);
    let f = b.ins().fdiv(e, d);
    let z = b.ins().f64const(0.0);
    // `f != 0.0` (true for NaN, as in Rust).
    let nz = b.ins().fcmp(FloatCC::NotEqual, f, z);
    let update = b.create_block();
    let zero_row = b.create_block();
    let next = b.create_block();
    b.ins().brif(nz, update, &[], zero_row, &[]);
    b.switch_to_block(update);
    store(b, pik, f);
    let start_i = b.ins().iadd_imm_s(pik, 8);
    let start_k = b.ins().iadd_imm_s(pkk, 8);
    b.def_var(pa, start_i);
    b.def_var(pb, start_k);
    b.def_var(c, nk);
    if vector {
        // Four, then two columns at a time while that many remain.
        let fv = b.ins().splat(types::F64X2, f);
        let fl = MemFlagsData::new().with_notrap();
        let head = b.create_block();
        let body = b.create_block();
        let pairs = b.create_block();
        b.ins().jump(head, &[]);
        b.switch_to_block(head);
        let left = b.use_var(c);
        let four = b.ins().icmp_imm_s(IntCC::SignedGreaterThanOrEqual, left, 4);
        b.ins().brif(four, body, &[], pairs, &[]);
        b.switch_to_block(body);
        let x = b.use_var(pa);
        let y = b.use_var(pb);
        let vx0 = b.ins().load(types::F64X2, fl, x, 0);
        let vy0 = b.ins().load(types::F64X2, fl, y, 0);
        let vx1 = b.ins().load(types::F64X2, fl, x, 16);
        let vy1 = b.ins().load(types::F64X2, fl, y, 16);
        let fy0 = b.ins().fmul(fv, vy0);
        let fy1 = b.ins().fmul(fv, vy1);
        let v0 = b.ins().fsub(vx0, fy0);
        let v1 = b.ins().fsub(vx1, fy1);
        b.ins().store(fl, v0, x, 0);
        b.ins().store(fl, v1, x, 16);
        let x4 = b.ins().iadd_imm_s(x, 32);
        let y4 = b.ins().iadd_imm_s(y, 32);
        b.def_var(pa, x4);
        b.def_var(pb, y4);
        let l4 = b.ins().iadd_imm_s(left, -4);
        b.def_var(c, l4);
        b.ins().jump(head, &[]);
        b.switch_to_block(pairs);
        let head = b.create_block();
        let body = b.create_block();
        let tail = b.create_block();
        b.ins().jump(head, &[]);
        b.switch_to_block(head);
        let left = b.use_var(c);
        let two = b.ins().icmp_imm_s(IntCC::SignedGreaterThanOrEqual, left, 2);
        b.ins().brif(two, body, &[], tail, &[]);
        b.switch_to_block(body);
        let x = b.use_var(pa);
        let y = b.use_var(pb);
        let vx = b.ins().load(types::F64X2, fl, x, 0);
        let vy = b.ins().load(types::F64X2, fl, y, 0);
        let fy = b.ins().fmul(fv, vy);
        let v = b.ins().fsub(vx, fy);
        b.ins().store(fl, v, x, 0);
        let x2 = b.ins().iadd_imm_s(x, 16);
        let y2 = b.ins().iadd_imm_s(y, 16);
        b.def_var(pa, x2);
        b.def_var(pb, y2);
        let l2 = b.ins().iadd_imm_s(left, -2);
        b.def_var(c, l2);
        b.ins().jump(head, &[]);
        b.switch_to_block(tail);
    }
    // The remaining columns one at a time.
    let head = b.create_block();
    let body = b.create_block();
    let done = b.create_block();
    b.ins().jump(head, &[]);
    b.switch_to_block(head);
    let left = b.use_var(c);
    let more = b.ins().icmp_imm_s(IntCC::SignedGreaterThan, left, 0);
    b.ins().brif(more, body, &[], done, &[]);
    b.switch_to_block(body);
    let x = b.use_var(pa);
    let y = b.use_var(pb);
    let vx = load(b, x);
    let vy = load(b, y);
    let fy = b.ins().fmul(f, vy);
    let v = b.ins().fsub(vx, fy);
    store(b, x, v);
    let x1 = b.ins().iadd_imm_s(x, 8);
    let y1 = b.ins().iadd_imm_s(y, 8);
    b.def_var(pa, x1);
    b.def_var(pb, y1);
    let l1 = b.ins().iadd_imm_s(left, -1);
    b.def_var(c, l1);
    b.ins().jump(head, &[]);
    b.switch_to_block(done);
    let bi = item(b, rhs, i);
    let x = load(b, bi);
    let fy = b.ins().fmul(f, bk);
    let v = b.ins().fsub(x, fy);
    store(b, bi, v);
    b.ins().jump(next, &[]);
    b.switch_to_block(zero_row);
    store(b, pik, z);
    b.ins().jump(next, &[]);
    b.switch_to_block(next);
}

/// Back substitution, col = n − 1 down to 0: s = b[k] − Σ a[k][c]·b[c], in order; b[k] = s /
/// a[k][k], or for a free unknown (a[k][k] = 0) 0 if |s| ≤ tol, else `fail`.
fn lu_back_substitution(b: &mut FunctionBuilder, v: &Lu) {
    let (col, s, pa, pb, c, row, a, rhs, n, w) =
        (v.col, v.s, v.pa, v.pb, v.c, v.row, v.a, v.rhs, v.n, v.w);
    let (tol, fail) = (v.tol, v.fail);
    let head = b.create_block();
    let body = b.create_block();
    let done = b.create_block();
    let last = b.ins().iadd_imm_s(n, -1);
    b.def_var(col, last);
    b.ins().jump(head, &[]);
    b.switch_to_block(head);
    let k = b.use_var(col);
    let more = b.ins().icmp_imm_s(IntCC::SignedGreaterThanOrEqual, k, 0);
    b.ins().brif(more, body, &[], done, &[]);
    b.switch_to_block(body);
    let bk = item(b, rhs, k);
    let v = load(b, bk);
    b.def_var(s, v);
    let kr = b.ins().imul(k, row);
    let k8 = b.ins().ishl_imm_u(k, 3);
    let rowk = b.ins().iadd(a, kr);
    let pkk = b.ins().iadd(rowk, k8);
    let pk1 = b.ins().iadd_imm_s(pkk, 8);
    let bk1 = b.ins().iadd_imm_s(bk, 8);
    b.def_var(pa, pk1);
    b.def_var(pb, bk1);
    let k1 = b.ins().iadd_imm_s(k, 1);
    let cols_end = band_end(b, k, w, n);
    for_range(b, c, k1, cols_end, |b, _| {
        let x = b.use_var(pa);
        let y = b.use_var(pb);
        let vx = load(b, x);
        let vy = load(b, y);
        let xy = b.ins().fmul(vx, vy);
        let sv = b.use_var(s);
        let ns = b.ins().fsub(sv, xy);
        b.def_var(s, ns);
        let x1 = b.ins().iadd_imm_s(x, 8);
        let y1 = b.ins().iadd_imm_s(y, 8);
        b.def_var(pa, x1);
        b.def_var(pb, y1);
    });
    let d = load(b, pkk);
    let sv = b.use_var(s);
    let z = b.ins().f64const(0.0);
    let free = b.ins().fcmp(FloatCC::Equal, d, z);
    let pivot = b.create_block();
    let held = b.create_block();
    let next = b.create_block();
    b.ins().brif(free, held, &[], pivot, &[]);
    b.switch_to_block(pivot);
    let q = b.ins().fdiv(sv, d);
    store(b, bk, q);
    b.ins().jump(next, &[]);
    // `!(|s| ≤ tol)`, as the interpreter (NaN fails).
    b.switch_to_block(held);
    let sa = b.ins().fabs(sv);
    let within = b.ins().fcmp(FloatCC::LessThanOrEqual, sa, tol);
    let keep = b.create_block();
    b.ins().brif(within, keep, &[], fail, &[]);
    b.switch_to_block(keep);
    store(b, bk, z);
    b.ins().jump(next, &[]);
    b.switch_to_block(next);
    let k0 = b.ins().iadd_imm_s(k, -1);
    b.def_var(col, k0);
    b.ins().jump(head, &[]);
    b.switch_to_block(done);
}
