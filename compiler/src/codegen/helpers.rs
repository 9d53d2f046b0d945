//! Helper functions generated in Cranelift IR next to the chunks: the dense LU solve of the
//! torn blocks and `x^y` for exponents only known at run time. They repeat
//! [`crate::plan::interp::lu_solve`] and [`crate::symbolic::eval::pow`] operation for
//! operation, so the JIT, an object for another target and the interpreter agree bitwise
//! (up to the C library's `pow` for non-integer exponents).
//!
//! Both loops have bounds fixed when the function is called (the block size k, the 32 bits of
//! an integer exponent), so the work stays bounded.

use super::{err, Gen};
use cranelift_codegen::ir::condcodes::{FloatCC, IntCC};
use cranelift_codegen::ir::{types, AbiParam, InstBuilder, MemFlagsData, Value};
use cranelift_frontend::{FunctionBuilder, Variable};
use cranelift_module::{FuncId, Linkage, Module};

/// `base + (i·n + j)·8`: the address of element (i, j) of a row-major n×n matrix.
fn elem(b: &mut FunctionBuilder, base: Value, n: Value, i: Value, j: Value) -> Value {
    let row = b.ins().imul(i, n);
    let k = b.ins().iadd(row, j);
    let off = b.ins().ishl_imm_u(k, 3);
    b.ins().iadd(base, off)
}

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
    /// `int32_t lu_solve(double *a, double *b, int64_t n)`: LU with partial pivoting of the
    /// row-major n×n `a`, solving in place into `b`; 1 on success, 0 if a pivot is zero or
    /// not finite.
    pub(super) fn define_lu(&mut self) -> Result<FuncId, String> {
        let name = format!("{}_lu_solve", self.prefix);
        let mut ctx = self.module.make_context();
        for _ in 0..3 {
            ctx.func.signature.params.push(AbiParam::new(types::I64));
        }
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
            let (a, rhs, n) = (p[0], p[1], p[2]);
            let col = b.declare_var(types::I64);
            let r = b.declare_var(types::I64);
            let c = b.declare_var(types::I64);
            let piv = b.declare_var(types::I64);
            let best = b.declare_var(types::F64);
            let s = b.declare_var(types::F64);
            let fail = b.create_block();
            let zero = b.ins().iconst(types::I64, 0);
            // Elimination, column by column.
            for_range(&mut b, col, zero, n, |b, k| {
                // Pivot: the largest magnitude in this column (first one on ties, NaN never).
                b.def_var(piv, k);
                let d = elem(b, a, n, k, k);
                let d = load(b, d);
                let bd = b.ins().fabs(d);
                b.def_var(best, bd);
                let k1 = b.ins().iadd_imm_s(k, 1);
                for_range(b, r, k1, n, |b, i| {
                    let e = elem(b, a, n, i, k);
                    let e = load(b, e);
                    let v = b.ins().fabs(e);
                    let bst = b.use_var(best);
                    let gt = b.ins().fcmp(FloatCC::GreaterThan, v, bst);
                    let nb = b.ins().select(gt, v, bst);
                    b.def_var(best, nb);
                    let pv = b.use_var(piv);
                    let np = b.ins().select(gt, i, pv);
                    b.def_var(piv, np);
                });
                // A zero or non-finite pivot: singular (x − x ≠ 0 for NaN and ±inf).
                let bst = b.use_var(best);
                let z = b.ins().f64const(0.0);
                let is_zero = b.ins().fcmp(FloatCC::Equal, bst, z);
                let dd = b.ins().fsub(bst, bst);
                let finite = b.ins().fcmp(FloatCC::Equal, dd, z);
                let one8 = b.ins().iconst(types::I8, 1);
                let not_finite = b.ins().bxor(finite, one8);
                let bad = b.ins().bor(is_zero, not_finite);
                let go = b.create_block();
                b.ins().brif(bad, fail, &[], go, &[]);
                b.switch_to_block(go);
                // Row swap.
                let pv = b.use_var(piv);
                let same = b.ins().icmp(IntCC::Equal, pv, k);
                let swap = b.create_block();
                let swapped = b.create_block();
                b.ins().brif(same, swapped, &[], swap, &[]);
                b.switch_to_block(swap);
                for_range(b, c, zero, n, |b, j| {
                    let pv = b.use_var(piv);
                    let x = elem(b, a, n, k, j);
                    let y = elem(b, a, n, pv, j);
                    let vx = load(b, x);
                    let vy = load(b, y);
                    store(b, x, vy);
                    store(b, y, vx);
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
                // Eliminate below the pivot.
                let d = elem(b, a, n, k, k);
                let d = load(b, d);
                let k1 = b.ins().iadd_imm_s(k, 1);
                for_range(b, r, k1, n, |b, i| {
                    let ik = elem(b, a, n, i, k);
                    let e = load(b, ik);
                    let f = b.ins().fdiv(e, d);
                    let z = b.ins().f64const(0.0);
                    // `f != 0.0` (true for NaN, as in Rust).
                    let nz = b.ins().fcmp(FloatCC::NotEqual, f, z);
                    let row = b.create_block();
                    let zero_row = b.create_block();
                    let next = b.create_block();
                    b.ins().brif(nz, row, &[], zero_row, &[]);
                    b.switch_to_block(row);
                    store(b, ik, f);
                    let k1 = b.ins().iadd_imm_s(k, 1);
                    for_range(b, c, k1, n, |b, j| {
                        let ij = elem(b, a, n, i, j);
                        let kj = elem(b, a, n, k, j);
                        let x = load(b, ij);
                        let y = load(b, kj);
                        let fy = b.ins().fmul(f, y);
                        let v = b.ins().fsub(x, fy);
                        store(b, ij, v);
                    });
                    let bi = item(b, rhs, i);
                    let bk = item(b, rhs, k);
                    let x = load(b, bi);
                    let y = load(b, bk);
                    let fy = b.ins().fmul(f, y);
                    let v = b.ins().fsub(x, fy);
                    store(b, bi, v);
                    b.ins().jump(next, &[]);
                    b.switch_to_block(zero_row);
                    store(b, ik, z);
                    b.ins().jump(next, &[]);
                    b.switch_to_block(next);
                });
            });
            // Back substitution, col = n − 1 down to 0.
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
            let bk = item(&mut b, rhs, k);
            let v = load(&mut b, bk);
            b.def_var(s, v);
            let k1 = b.ins().iadd_imm_s(k, 1);
            for_range(&mut b, c, k1, n, |b, j| {
                let kj = elem(b, a, n, k, j);
                let x = load(b, kj);
                let bj = item(b, rhs, j);
                let y = load(b, bj);
                let xy = b.ins().fmul(x, y);
                let sv = b.use_var(s);
                let ns = b.ins().fsub(sv, xy);
                b.def_var(s, ns);
            });
            let kk = elem(&mut b, a, n, k, k);
            let d = load(&mut b, kk);
            let sv = b.use_var(s);
            let q = b.ins().fdiv(sv, d);
            store(&mut b, bk, q);
            let k0 = b.ins().iadd_imm_s(k, -1);
            b.def_var(col, k0);
            b.ins().jump(head, &[]);
            b.switch_to_block(done);
            let one = b.ins().iconst(types::I32, 1);
            b.ins().return_(&[one]);
            b.switch_to_block(fail);
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
    pub(super) fn define_pow(&mut self) -> Result<FuncId, String> {
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
