//! Lowering of plan expressions and torn blocks to Cranelift IR: loads and stores of slots,
//! each expression node as the interpreter computes it (same operations, same order, so the
//! results are bitwise equal), the Newton loop of a torn block with its residuals, Jacobian
//! and the generated LU, and the finiteness checks. `mod.rs` decides what goes in which
//! function (chunks, pairing into vector lanes, entry points); this file writes the code.

use super::*;

/// A stack block of `n` doubles (at least one): a compiled function's arguments or outputs.
fn doubles(b: &mut FunctionBuilder, n: usize) -> cranelift_codegen::ir::StackSlot {
    b.create_sized_stack_slot(cranelift_codegen::ir::StackSlotData::new(
        cranelift_codegen::ir::StackSlotKind::ExplicitSlot,
        (8 * n.max(1)) as u32,
        3,
    ))
}

/// A call with more arguments than this is lowered by [`Lower::wide_call`].
pub(super) const WIDE_CALL: usize = 32;

pub(super) struct Lower<'p> {
    pub(super) plan: &'p Plan,
    /// The expressions lowered: the plan's, or a compiled function's body.
    pub(super) arena: &'p crate::symbolic::Arena<Slot>,
    pub(super) mem: Value,
    /// In a compiled function's body: the pointer to its arguments.
    pub(super) args: Option<Value>,
    pub(super) refs: FxHashMap<&'static str, FuncRef>,
    /// The compiled functions this function calls, by index in the plan's table.
    pub(super) fn_refs: FxHashMap<u32, FuncRef>,
    /// The band LU solves (`band.rs`) the chunk calls, by band.
    pub(super) band_refs: FxHashMap<(usize, usize), FuncRef>,
    /// Values computed in the current straight-line region.
    pub(super) memo: FxHashMap<ExprId, Value>,
    /// Calls made in the current region: (function, argument values) → output values.
    pub(super) calls: FxHashMap<(u32, Vec<Value>), Vec<Value>>,
    /// Calls with many arguments made in the current region ([`Lower::wide_call`]): their
    /// outputs' stack slot, by function and argument expressions.
    pub(super) wide_calls:
        FxHashMap<(u32, std::sync::Arc<[ExprId]>), cranelift_codegen::ir::StackSlot>,
    /// Vector splats of scalar values of the current straight-line region.
    pub(super) splats: FxHashMap<Value, Value>,
    pub(super) scratch_base: usize,
    pub(super) newton_max: u32,
    /// In a loop body ([`super::roll`]): where the iteration's varying variables are.
    pub(super) roll: Option<super::roll::RollCtx>,
    /// Where the damped retry of a block that slides goes ([`crate::plan::slide`]).
    pub(super) slide: Slide,
}

/// The damped retry's ends in a block that slides on its switches: the first retry's
/// failure (not converged, singular) goes on to the sliding retry instead of returning, and
/// the sliding retry clears the band's width before it returns a failure.
#[derive(Clone, Copy, Default)]
pub(super) struct Slide {
    pub(super) fail_to: Option<cranelift_codegen::ir::Block>,
    pub(super) reset: Option<Slot>,
}

impl Lower<'_> {
    pub(super) fn load(&mut self, b: &mut FunctionBuilder, v: Slot) -> Value {
        b.ins().load(
            types::F64,
            MemFlagsData::trusted(),
            self.mem,
            (v.index() * 8) as i32,
        )
    }

    pub(super) fn store(&mut self, b: &mut FunctionBuilder, v: Slot, x: Value) {
        b.ins()
            .store(MemFlagsData::trusted(), x, self.mem, (v.index() * 8) as i32);
        if let Some(id) = self.arena.index_of(Node::Var(v)) {
            self.memo.insert(id, x);
        }
    }

    /// The f64x2 of two expressions [`pairable`] accepted: lane 0 computes `x`, lane 1 `y`.
    pub(super) fn vexpr(
        &mut self,
        b: &mut FunctionBuilder,
        vmemo: &mut FxHashMap<(ExprId, ExprId), Value>,
        x: ExprId,
        y: ExprId,
    ) -> Value {
        if let Some(&v) = vmemo.get(&(x, y)) {
            return v;
        }
        let ar = self.arena;
        let v = if x == y {
            // One splat per scalar value and chunk (the scalar memo knows when a variable's
            // value changed, so the splat follows it).
            let s = self.expr(b, x);
            *self
                .splats
                .entry(s)
                .or_insert_with(|| b.ins().splat(types::F64X2, s))
        } else {
            match (ar.node(x), ar.node(y)) {
                (Node::Var(p), Node::Var(_)) => {
                    let (at, off) = self.vector_at(x, p);
                    b.ins()
                        .load(types::F64X2, MemFlagsData::new().with_notrap(), at, off)
                }
                (Node::Neg(a1), Node::Neg(b1)) => {
                    let u = self.vexpr(b, vmemo, a1, b1);
                    b.ins().fneg(u)
                }
                (Node::Add(a1, a2), Node::Add(b1, b2)) => {
                    let (u, w) = (self.vexpr(b, vmemo, a1, b1), self.vexpr(b, vmemo, a2, b2));
                    b.ins().fadd(u, w)
                }
                (Node::Sub(a1, a2), Node::Sub(b1, b2)) => {
                    let (u, w) = (self.vexpr(b, vmemo, a1, b1), self.vexpr(b, vmemo, a2, b2));
                    b.ins().fsub(u, w)
                }
                (Node::Mul(a1, a2), Node::Mul(b1, b2)) => {
                    let (u, w) = (self.vexpr(b, vmemo, a1, b1), self.vexpr(b, vmemo, a2, b2));
                    b.ins().fmul(u, w)
                }
                (Node::Div(a1, a2), Node::Div(b1, b2)) => {
                    let (u, w) = (self.vexpr(b, vmemo, a1, b1), self.vexpr(b, vmemo, a2, b2));
                    b.ins().fdiv(u, w)
                }
                (Node::Not(a1), Node::Not(b1)) => {
                    let u = self.vexpr(b, vmemo, a1, b1);
                    let zero = Self::vsplat(b, 0.0);
                    let m = b.ins().fcmp(FloatCC::Equal, u, zero);
                    Self::vbool(b, m)
                }
                (Node::NoEvent(a1), Node::NoEvent(b1)) => self.vexpr(b, vmemo, a1, b1),
                (Node::Call1(f, a1), Node::Call1(_, b1)) => {
                    let u = self.vexpr(b, vmemo, a1, b1);
                    match f {
                        Func1::Sqrt => b.ins().sqrt(u),
                        _ => b.ins().fabs(u),
                    }
                }
                (Node::Call2(f, a1, a2), Node::Call2(_, b1, b2)) => {
                    // As the scalar lowering: y if y is strictly smaller (larger) or x is NaN.
                    let (u, w) = (self.vexpr(b, vmemo, a1, b1), self.vexpr(b, vmemo, a2, b2));
                    let cc = if f == Func2::Min {
                        FloatCC::LessThan
                    } else {
                        FloatCC::GreaterThan
                    };
                    let better = b.ins().fcmp(cc, w, u);
                    let nan = b.ins().fcmp(FloatCC::Unordered, u, u);
                    let pick = b.ins().bor(better, nan);
                    Self::vselect(b, pick, w, u)
                }
                (Node::Cmp(op, a1, a2), Node::Cmp(_, b1, b2)) => {
                    let (u, w) = (self.vexpr(b, vmemo, a1, b1), self.vexpr(b, vmemo, a2, b2));
                    let m = b.ins().fcmp(cmp_cc(op), u, w);
                    Self::vbool(b, m)
                }
                (Node::And(a1, a2), Node::And(b1, b2)) | (Node::Or(a1, a2), Node::Or(b1, b2)) => {
                    let (u, w) = (self.vexpr(b, vmemo, a1, b1), self.vexpr(b, vmemo, a2, b2));
                    let zero = Self::vsplat(b, 0.0);
                    let mu = b.ins().fcmp(FloatCC::NotEqual, u, zero);
                    let mw = b.ins().fcmp(FloatCC::NotEqual, w, zero);
                    let m = if matches!(ar.node(x), Node::And(..)) {
                        b.ins().band(mu, mw)
                    } else {
                        b.ins().bor(mu, mw)
                    };
                    Self::vbool(b, m)
                }
                (Node::If(c1, a1, a2), Node::If(c2, b1, b2)) => {
                    let c = self.vexpr(b, vmemo, c1, c2);
                    let (u, w) = (self.vexpr(b, vmemo, a1, b1), self.vexpr(b, vmemo, a2, b2));
                    let zero = Self::vsplat(b, 0.0);
                    let m = b.ins().fcmp(FloatCC::NotEqual, c, zero);
                    Self::vselect(b, m, u, w)
                }
                _ => unreachable!("pairable accepted only these shapes"),
            }
        };
        vmemo.insert((x, y), v);
        v
    }

    pub(super) fn load_slot(&mut self, b: &mut FunctionBuilder, slot: usize) -> Value {
        b.ins().load(
            types::F64,
            MemFlagsData::trusted(),
            self.mem,
            (slot * 8) as i32,
        )
    }

    pub(super) fn store_slot(&mut self, b: &mut FunctionBuilder, slot: usize, x: Value) {
        b.ins()
            .store(MemFlagsData::trusted(), x, self.mem, (slot * 8) as i32);
    }

    pub(super) fn call(&mut self, b: &mut FunctionBuilder, name: &str, args: &[Value]) -> Value {
        let r = self.refs[name];
        let c = b.ins().call(r, args);
        b.inst_results(c)[0]
    }

    /// `x^n` unrolled, as [`crate::symbolic::eval::powi`].
    pub(super) fn powi(b: &mut FunctionBuilder, x: Value, n: i32) -> Value {
        let mut m = n.unsigned_abs();
        let mut a = x;
        let mut r: Option<Value> = None;
        loop {
            if m & 1 == 1 {
                r = Some(match r {
                    None => a,
                    Some(r) => b.ins().fmul(r, a),
                });
            }
            m >>= 1;
            if m == 0 {
                break;
            }
            a = b.ins().fmul(a, a);
        }
        let r = r.unwrap_or_else(|| b.ins().f64const(1.0));
        if n < 0 {
            let one = b.ins().f64const(1.0);
            b.ins().fdiv(one, r)
        } else {
            r
        }
    }

    /// Both lanes `x`.
    fn vsplat(b: &mut FunctionBuilder, x: f64) -> Value {
        let s = b.ins().f64const(x);
        b.ins().splat(types::F64X2, s)
    }

    /// Lane by lane `x` where the mask `m` (an i64x2 of a vector comparison) is set, else `y`.
    fn vselect(b: &mut FunctionBuilder, m: Value, x: Value, y: Value) -> Value {
        let m = b.ins().bitcast(types::F64X2, MemFlagsData::new(), m);
        b.ins().bitselect(m, x, y)
    }

    /// The lanes of mask `m` as 1.0 or 0.0, as [`Lower::bool_to_f64`] per lane.
    fn vbool(b: &mut FunctionBuilder, m: Value) -> Value {
        let one = Self::vsplat(b, 1.0);
        let zero = Self::vsplat(b, 0.0);
        Self::vselect(b, m, one, zero)
    }

    pub(super) fn bool_to_f64(b: &mut FunctionBuilder, c: Value) -> Value {
        let one = b.ins().f64const(1.0);
        let zero = b.ins().f64const(0.0);
        b.ins().select(c, one, zero)
    }

    pub(super) fn truthy(b: &mut FunctionBuilder, x: Value) -> Value {
        let zero = b.ins().f64const(0.0);
        b.ins().fcmp(FloatCC::NotEqual, x, zero)
    }

    pub(super) fn expr(&mut self, b: &mut FunctionBuilder, root: ExprId) -> Value {
        if let Some(&v) = self.memo.get(&root) {
            return v;
        }
        let ar = self.arena;
        // Calls with many arguments first, each argument loaded as it is stored (so that
        // their values are not all live at once: the register allocator's work grows with
        // them; an FFT of thousands of samples).
        let wide: Vec<ExprId> = ar
            .post_order(root, |id| self.memo.contains_key(&id))
            .into_iter()
            .filter(|&id| matches!(ar.node(id), Node::Call(c) if ar.call_site(c).args.len() > WIDE_CALL))
            .collect();
        for id in wide {
            self.wide_call(b, id);
        }
        for id in ar.post_order(root, |id| self.memo.contains_key(&id)) {
            if self.memo.contains_key(&id) {
                continue;
            }
            let n = ar.node(id);
            let a: Vec<Value> = ar.children(id).map(|c| self.memo[&c]).collect();
            let v = match n {
                Node::Const(bits) => b.ins().f64const(f64::from_bits(bits)),
                Node::Var(v) => self.load_var(b, id, v),
                Node::Arg(i) => {
                    let p = self.args.expect("an argument outside a function body");
                    b.ins()
                        .load(types::F64, MemFlagsData::trusted(), p, (i * 8) as i32)
                }
                Node::Call(c) => {
                    let site = ar.call_site(c);
                    self.call_compiled(b, site.f.0, a)[site.out as usize]
                }
                Node::Der(_) | Node::Pre(_) | Node::Time => b.ins().f64const(f64::NAN),
                Node::Neg(_) => b.ins().fneg(a[0]),
                Node::Add(..) => b.ins().fadd(a[0], a[1]),
                Node::Sub(..) => b.ins().fsub(a[0], a[1]),
                Node::Mul(..) => b.ins().fmul(a[0], a[1]),
                Node::Div(..) => b.ins().fdiv(a[0], a[1]),
                Node::Pow(_, y) => match int_exponent(ar, y) {
                    Some(n) => Self::powi(b, a[0], n),
                    None => self.call(b, POW, &[a[0], a[1]]),
                },
                Node::Call1(f, _) => match f {
                    Func1::Sqrt => b.ins().sqrt(a[0]),
                    Func1::Abs => b.ins().fabs(a[0]),
                    Func1::Floor => b.ins().floor(a[0]),
                    Func1::Ceil => b.ins().ceil(a[0]),
                    Func1::Sign => {
                        let zero = b.ins().f64const(0.0);
                        let one = b.ins().f64const(1.0);
                        let mone = b.ins().f64const(-1.0);
                        let gt = b.ins().fcmp(FloatCC::GreaterThan, a[0], zero);
                        let lt = b.ins().fcmp(FloatCC::LessThan, a[0], zero);
                        let neg = b.ins().select(lt, mone, zero);
                        b.ins().select(gt, one, neg)
                    }
                    other => {
                        let name = libm_name(other).unwrap_or("sin");
                        self.call(b, name, &[a[0]])
                    }
                },
                Node::Call2(f, ..) => match f {
                    Func2::Atan2 => self.call(b, "atan2", &[a[0], a[1]]),
                    Func2::Ext(e) => self.call(b, e.name(), &[a[0], a[1]]),
                    Func2::Min | Func2::Max => {
                        // As `Func2::eval`: y if y is strictly smaller (larger) or x is NaN.
                        let cc = if f == Func2::Min {
                            FloatCC::LessThan
                        } else {
                            FloatCC::GreaterThan
                        };
                        let better = b.ins().fcmp(cc, a[1], a[0]);
                        let nan = b.ins().fcmp(FloatCC::Unordered, a[0], a[0]);
                        let pick = b.ins().bor(better, nan);
                        b.ins().select(pick, a[1], a[0])
                    }
                    Func2::Div => {
                        let q = b.ins().fdiv(a[0], a[1]);
                        b.ins().trunc(q)
                    }
                    Func2::Mod | Func2::Rem => {
                        let q = b.ins().fdiv(a[0], a[1]);
                        let k = if f == Func2::Mod {
                            b.ins().floor(q)
                        } else {
                            b.ins().trunc(q)
                        };
                        let ky = b.ins().fmul(k, a[1]);
                        b.ins().fsub(a[0], ky)
                    }
                },
                Node::Cmp(op, ..) => {
                    let c = b.ins().fcmp(cmp_cc(op), a[0], a[1]);
                    Self::bool_to_f64(b, c)
                }
                Node::And(..) | Node::Or(..) => {
                    let x = Self::truthy(b, a[0]);
                    let y = Self::truthy(b, a[1]);
                    let c = if matches!(n, Node::And(..)) {
                        b.ins().band(x, y)
                    } else {
                        b.ins().bor(x, y)
                    };
                    Self::bool_to_f64(b, c)
                }
                Node::Not(_) => {
                    let zero = b.ins().f64const(0.0);
                    let c = b.ins().fcmp(FloatCC::Equal, a[0], zero);
                    Self::bool_to_f64(b, c)
                }
                Node::If(..) => {
                    let c = Self::truthy(b, a[0]);
                    b.ins().select(c, a[1], a[2])
                }
                Node::NoEvent(_) => a[0],
            };
            self.memo.insert(id, v);
        }
        self.memo[&root]
    }

    /// The outputs of compiled function `f` at `args`: the arguments stored to a stack
    /// slot, `f(args, outs)` called, the outputs loaded (once per region and arguments).
    /// Call node `id` of a function with more than [`WIDE_CALL`] arguments: the arguments
    /// stored one by one into the call's argument slot (a variable loaded from its slot just
    /// before its store), the call made once per function and arguments in the region, and
    /// this node's output loaded from the outputs' slot where it is read.
    fn wide_call(&mut self, b: &mut FunctionBuilder, id: ExprId) {
        let ar = self.arena;
        let Node::Call(c) = ar.node(id) else {
            return;
        };
        let site = ar.call_site(c);
        let key = (site.f.0, site.args.clone());
        let outs = match self.wide_calls.get(&key) {
            Some(&slot) => slot,
            None => {
                let n_out = self.plan.arena.function(site.f).outs.len();
                let (ins, outs) = (doubles(b, key.1.len()), doubles(b, n_out));
                for (i, &a) in key.1.iter().enumerate() {
                    // A variable is loaded again even where the region holds its value (every
                    // value the region holds of a variable was stored to its slot): a value
                    // kept from its assignment to the call would be live all that while.
                    let x = match (ar.node(a), self.memo.get(&a)) {
                        (Node::Var(v), _) => self.load_var(b, a, v),
                        (_, Some(&x)) => x,
                        (Node::Const(bits), None) => b.ins().f64const(f64::from_bits(bits)),
                        _ => self.expr(b, a),
                    };
                    b.ins().stack_store(types::I64, x, ins, (8 * i) as i32);
                }
                let pi = b.ins().stack_addr(types::I64, ins, 0);
                let po = b.ins().stack_addr(types::I64, outs, 0);
                b.ins().call(self.fn_refs[&key.0], &[pi, po]);
                self.wide_calls.insert(key, outs);
                outs
            }
        };
        let v = b
            .ins()
            .stack_load(types::I64, types::F64, outs, (8 * site.out) as i32);
        self.memo.insert(id, v);
    }

    fn call_compiled(&mut self, b: &mut FunctionBuilder, f: u32, args: Vec<Value>) -> Vec<Value> {
        let key = (f, args);
        if let Some(v) = self.calls.get(&key) {
            return v.clone();
        }
        let n_out = self
            .plan
            .arena
            .function(crate::symbolic::FnId(f))
            .outs
            .len();
        let (ins, outs) = (doubles(b, key.1.len()), doubles(b, n_out));
        for (i, &x) in key.1.iter().enumerate() {
            b.ins().stack_store(types::I64, x, ins, (8 * i) as i32);
        }
        let ptr = types::I64;
        let pi = b.ins().stack_addr(ptr, ins, 0);
        let po = b.ins().stack_addr(ptr, outs, 0);
        b.ins().call(self.fn_refs[&f], &[pi, po]);
        let vals: Vec<Value> = (0..n_out)
            .map(|k| {
                b.ins()
                    .stack_load(types::I64, types::F64, outs, (8 * k) as i32)
            })
            .collect();
        self.calls.insert(key, vals.clone());
        vals
    }

    /// One torn block: the Newton loop of the interpreter, operation for operation.
    pub(super) fn block(&mut self, b: &mut FunctionBuilder, blk: &TornBlock) {
        let k = blk.tearing.len();
        let r0 = self.scratch_base;
        let j0 = r0 + k;
        let s0 = j0 + k * k;
        let max = if blk.linear {
            1
        } else {
            self.newton_max as i64
        };
        let evals = b.declare_var(types::I32);
        let small = b.declare_var(types::I8);
        // The previous iterate's largest residual: the extension's test of progress.
        let previous = b.declare_var(types::F64);
        let z32 = b.ins().iconst(types::I32, 0);
        let z8 = b.ins().iconst(types::I8, 0);
        let inf = b.ins().f64const(f64::INFINITY);
        b.def_var(evals, z32);
        b.def_var(small, z8);
        b.def_var(previous, inf);
        // The residuals at the start values are finite: else the damped retry starts at rest.
        let start_finite = b.declare_var(types::I8);
        let one8 = b.ins().iconst(types::I8, 1);
        b.def_var(start_finite, one8);
        if !blk.linear && self.plan.newton.damped > 0 {
            // The values before the block: where the damped retry starts.
            for (i, &t) in blk.tearing.iter().enumerate() {
                let x = self.load(b, t);
                self.store_slot(b, s0 + k + i, x);
            }
        }
        let eval = b.create_block();
        let ok = b.create_block();
        b.ins().jump(eval, &[]);
        b.switch_to_block(eval);
        self.evaluate(b, blk);
        let ev = b.use_var(evals);
        let ev1 = b.ins().iadd_imm_s(ev, 1);
        b.def_var(evals, ev1);
        // Converged by the last update?
        let sm = b.use_var(small);
        let after_small = b.create_block();
        b.ins().brif(sm, ok, &[], after_small, &[]);
        b.switch_to_block(after_small);
        b.seal_block(after_small);
        // As the interpreter: against the largest scale of the block (the same comparisons,
        // so the same answer for every input, NaN included).
        let scale = self.largest_scale(b, s0, k);
        let fr = b.ins().f64const(self.plan.newton.final_rtol);
        let flim = b.ins().fmul(fr, scale);
        if !blk.linear {
            // Progress: the largest residual below PROGRESS times the previous one (the
            // interpreter's fold, NaN skipped as f64::max skips it).
            let mut residual = b.ins().f64const(0.0);
            // r − r summed: 0 where every residual is finite, NaN otherwise.
            let mut nonfinite = b.ins().f64const(0.0);
            for i in 0..k {
                let r = self.load_slot(b, r0 + i);
                let ra = b.ins().fabs(r);
                let gt = b.ins().fcmp(FloatCC::GreaterThan, ra, residual);
                residual = b.ins().select(gt, ra, residual);
                let rr = b.ins().fsub(r, r);
                nonfinite = b.ins().fadd(nonfinite, rr);
            }
            note_start_finite(b, start_finite, ev1, nonfinite);
            let p = b.use_var(previous);
            let half = b.ins().f64const(crate::plan::PROGRESS);
            let hp = b.ins().fmul(half, p);
            let progressing = b.ins().fcmp(FloatCC::LessThan, residual, hp);
            b.def_var(previous, residual);
            // Converged by residuals?
            let rr = b.ins().f64const(self.plan.newton.residual_rtol);
            let within = |this: &mut Self, b: &mut FunctionBuilder, lim: Value| {
                this.residuals_within(b, r0, k, lim)
            };
            let lim = b.ins().fmul(rr, scale);
            let all = within(self, b, lim);
            let not_done = b.create_block();
            b.ins().brif(all, ok, &[], not_done, &[]);
            b.switch_to_block(not_done);
            b.seal_block(not_done);
            // Iteration limit.
            let limit = b.ins().icmp_imm_s(
                cranelift_codegen::ir::condcodes::IntCC::SignedGreaterThanOrEqual,
                ev1,
                max,
            );
            let fail = b.create_block();
            let go = b.create_block();
            b.ins().brif(limit, fail, &[], go, &[]);
            b.switch_to_block(fail);
            b.seal_block(fail);
            // At the limit, residuals within the final tolerance are accepted; an iteration
            // that still halves its residual goes on up to the extended limit.
            let close = within(self, b, flim);
            let extend = b.create_block();
            b.ins().brif(close, ok, &[], extend, &[]);
            b.switch_to_block(extend);
            b.seal_block(extend);
            let full = max.saturating_add(i64::from(self.plan.newton.extended));
            let below = b.ins().icmp_imm_s(
                cranelift_codegen::ir::condcodes::IntCC::SignedLessThan,
                ev1,
                full,
            );
            let goes_on = b.ins().band(progressing, below);
            let refuse = b.create_block();
            b.ins().brif(goes_on, go, &[], refuse, &[]);
            b.switch_to_block(go);
            b.seal_block(go);
            if self.plan.newton.damped > 0 {
                // An iterate outside the region where the block's equations are defined:
                // the damped retry from the start (the interpreter's test, in its place).
                let zero = b.ins().f64const(0.0);
                let finite = b.ins().fcmp(FloatCC::Equal, nonfinite, zero);
                let solve = b.create_block();
                b.ins().brif(finite, solve, &[], refuse, &[]);
                b.switch_to_block(solve);
                b.seal_block(solve);
            }
            let solve = b.current_block().expect("in the block after the tests");
            b.switch_to_block(refuse);
            b.seal_block(refuse);
            if self.plan.newton.damped > 0 {
                self.retry(b, blk, ok, start_finite);
            } else {
                let code = status_const(b, kind::NOT_CONVERGED, blk.index.index());
                b.ins().return_(&[code]);
            }
            b.switch_to_block(solve);
        }
        // LU solve in the scratch area.
        self.lu_solve(b, blk, flim);
        self.memo.clear();
        self.calls.clear();
        self.wide_calls.clear();
        self.splats.clear();
        if blk.linear {
            for (i, &t) in blk.tearing.iter().enumerate() {
                let x = self.load(b, t);
                let d = self.load_slot(b, r0 + i);
                let y = b.ins().fsub(x, d);
                self.store(b, t, y);
            }
            for a in &blk.inner {
                let v = self.expr(b, a.expr);
                self.store(b, a.var, v);
            }
            b.ins().jump(ok, &[]);
        } else {
            let atol = b.ins().f64const(self.plan.newton.atol);
            let rtol = b.ins().f64const(self.plan.newton.rtol);
            let mut all = b.ins().iconst(types::I8, 1);
            let mut sum = b.ins().f64const(0.0);
            for (i, &t) in blk.tearing.iter().enumerate() {
                let old = self.load(b, t);
                let d = self.load_slot(b, r0 + i);
                let x = b.ins().fsub(old, d);
                let da = b.ins().fabs(d);
                let xa = b.ins().fabs(x);
                let m = b.ins().fmul(rtol, xa);
                let lim = b.ins().fadd(atol, m);
                // small unless |d| > lim (NaN counts as small, as in the interpreter)
                let gt = b.ins().fcmp(FloatCC::GreaterThan, da, lim);
                let one = b.ins().iconst(types::I8, 1);
                let not_gt = b.ins().bxor(gt, one);
                all = b.ins().band(all, not_gt);
                // x − x is 0 for finite x, NaN for NaN and ±inf.
                let xx = b.ins().fsub(x, x);
                sum = b.ins().fadd(sum, xx);
                b.ins()
                    .store(MemFlagsData::trusted(), x, self.mem, (t.index() * 8) as i32);
            }
            // A non-finite iterate ends the iteration: the first such tearing variable is named,
            // as the interpreter names it.
            let zero = b.ins().f64const(0.0);
            let finite = b.ins().fcmp(FloatCC::Equal, sum, zero);
            let diverged = b.create_block();
            let go_on = b.create_block();
            b.ins().brif(finite, go_on, &[], diverged, &[]);
            b.switch_to_block(diverged);
            b.seal_block(diverged);
            self.name_non_finite(b, blk);
            b.ins().jump(go_on, &[]);
            b.switch_to_block(go_on);
            b.seal_block(go_on);
            b.def_var(small, all);
            b.ins().jump(eval, &[]);
        }
        b.seal_block(eval);
        b.switch_to_block(ok);
        b.seal_block(ok);
        self.memo.clear();
        self.calls.clear();
        self.wide_calls.clear();
        self.splats.clear();
    }
}

impl Lower<'_> {
    /// One evaluation of a block's iteration: inner assignments, tangents, residuals, the
    /// Jacobian's band (entries outside it are zero and stay untouched), residual scales.
    fn evaluate(&mut self, b: &mut FunctionBuilder, blk: &TornBlock) {
        let k = blk.tearing.len();
        let (r0, j0) = (self.scratch_base, self.scratch_base + k);
        let s0 = j0 + k * k;
        self.memo.clear();
        self.calls.clear();
        self.wide_calls.clear();
        self.splats.clear();
        for a in blk.inner.iter().chain(&blk.tangents) {
            let v = self.expr(b, a.expr);
            self.store(b, a.var, v);
        }
        for (i, &r) in blk.residuals.iter().enumerate() {
            let v = self.expr(b, r);
            self.store_slot(b, r0 + i, v);
        }
        let (kl, w) = blk.band;
        for (i, &e) in blk.jacobian.iter().enumerate() {
            let (r, c) = (i / k, i % k);
            if c + kl >= r && c <= r + w {
                let v = self.expr(b, e);
                self.store_slot(b, j0 + i, v);
            }
        }
        for (i, &e) in blk.residual_scales.iter().enumerate() {
            let v = self.expr(b, e);
            self.store_slot(b, s0 + i, v);
        }
        // The switches' band arguments, after the damped retry's 4k ([`crate::plan::slide`]).
        for (i, &e) in blk.switches.iter().enumerate() {
            let v = self.expr(b, e);
            self.store_slot(b, s0 + 4 * k + i, v);
        }
    }

    /// The largest residual scale (the same comparisons as the interpreter's, NaN included).
    fn largest_scale(&mut self, b: &mut FunctionBuilder, s0: usize, k: usize) -> Value {
        let mut scale = b.ins().f64const(0.0);
        for i in 0..k {
            let s = self.load_slot(b, s0 + i);
            let gt = b.ins().fcmp(FloatCC::GreaterThan, s, scale);
            scale = b.ins().select(gt, s, scale);
        }
        scale
    }

    /// 1 where every residual is at most `lim` in magnitude.
    fn residuals_within(
        &mut self,
        b: &mut FunctionBuilder,
        r0: usize,
        k: usize,
        lim: Value,
    ) -> Value {
        let mut all = b.ins().iconst(types::I8, 1);
        let inf = b.ins().f64const(f64::INFINITY);
        for i in 0..k {
            let r = self.load_slot(b, r0 + i);
            let ra = b.ins().fabs(r);
            let c = b.ins().fcmp(FloatCC::LessThanOrEqual, ra, lim);
            all = b.ins().band(all, c);
            // Never a residual that is not finite (the interpreter's test).
            let f = b.ins().fcmp(FloatCC::LessThan, ra, inf);
            all = b.ins().band(all, f);
        }
        all
    }

    /// The residuals' sum of squares, in order from 0.0 (as the interpreter's fold).
    fn residual_norm(&mut self, b: &mut FunctionBuilder, r0: usize, k: usize) -> Value {
        let mut sum = b.ins().f64const(0.0);
        for i in 0..k {
            let r = self.load_slot(b, r0 + i);
            let rr = b.ins().fmul(r, r);
            sum = b.ins().fadd(sum, rr);
        }
        sum
    }

    /// The damped retry, and in a block that slides on its switches, where it fails, the
    /// same once more with the band's width set (the interpreter's `retry`).
    fn retry(
        &mut self,
        b: &mut FunctionBuilder,
        blk: &TornBlock,
        ok: cranelift_codegen::ir::Block,
        start_finite: cranelift_frontend::Variable,
    ) {
        // One unknown: the bracket of its residual's sign change (the interpreter's), kept
        // from the first retry into the sliding one.
        let bracket = (blk.tearing.len() == 1).then(|| Bracket::declare(b));
        let slide = match self.plan.slide {
            Some(s) if blk.slides() => s,
            _ => return self.damped_retry(b, blk, ok, start_finite, bracket.as_ref(), false),
        };
        let sliding = b.create_block();
        self.slide.fail_to = Some(sliding);
        self.damped_retry(b, blk, ok, start_finite, bracket.as_ref(), false);
        self.slide.fail_to = None;
        b.switch_to_block(sliding);
        b.seal_block(sliding);
        let w = b.ins().f64const(crate::plan::slide::WIDTH);
        self.store(b, slide.width, w);
        // From where the first retry ended.
        let k = blk.tearing.len();
        let x0 = self.scratch_base + k + k * k + k;
        for (i, &t) in blk.tearing.iter().enumerate() {
            let x = self.load(b, t);
            self.store_slot(b, x0 + i, x);
        }
        let one8 = b.ins().iconst(types::I8, 1);
        b.def_var(start_finite, one8);
        let slid = b.create_block();
        self.slide.reset = Some(slide.width);
        self.damped_retry(b, blk, slid, start_finite, bracket.as_ref(), true);
        self.slide.reset = None;
        b.switch_to_block(slid);
        b.seal_block(slid);
        let zero = b.ins().f64const(0.0);
        self.store(b, slide.width, zero);
        let n = self.load(b, slide.count);
        let one = b.ins().f64const(1.0);
        let n1 = b.ins().fadd(n, one);
        self.store(b, slide.count, n1);
        b.ins().jump(ok, &[]);
        self.memo.clear();
    }

    /// In the sliding retry, a trial that crossed a switch's band whole is cut to the
    /// crossing (the interpreter's `slide::crossing`, in its order): the step factor times the
    /// smallest crossing's, the tearing variables set there, and the evaluation again.
    fn cut_at_crossing(
        &mut self,
        b: &mut FunctionBuilder,
        blk: &TornBlock,
        (forced, evals, lambda): (
            cranelift_frontend::Variable,
            cranelift_frontend::Variable,
            cranelift_frontend::Variable,
        ),
        max: i64,
        (old, dd): (usize, usize),
        deval: cranelift_codegen::ir::Block,
    ) {
        use cranelift_codegen::ir::condcodes::IntCC;
        let k = blk.tearing.len();
        let s0 = self.scratch_base + k + k * k;
        let nq = blk.switches.len();
        let (qn, qo) = (s0 + 4 * k, s0 + 4 * k + nq);
        let mut cut = b.ins().f64const(1.0);
        let mut any = b.ins().iconst(types::I8, 0);
        let lo = b.ins().f64const(-0.5);
        let hi = b.ins().f64const(0.5);
        for i in 0..nq {
            let a = self.load_slot(b, qo + i);
            let q = self.load_slot(b, qn + i);
            let a_lo = b.ins().fcmp(FloatCC::LessThan, a, lo);
            let q_hi = b.ins().fcmp(FloatCC::GreaterThan, q, hi);
            let up = b.ins().band(a_lo, q_hi);
            let a_hi = b.ins().fcmp(FloatCC::GreaterThan, a, hi);
            let q_lo = b.ins().fcmp(FloatCC::LessThan, q, lo);
            let down = b.ins().band(a_hi, q_lo);
            let crossed = b.ins().bor(up, down);
            let dq = b.ins().fsub(a, q);
            let c = b.ins().fdiv(a, dq);
            let less = b.ins().fcmp(FloatCC::LessThan, c, cut);
            let take = b.ins().band(crossed, less);
            cut = b.ins().select(take, c, cut);
            any = b.ins().bor(any, crossed);
        }
        let fo = b.use_var(forced);
        let free = b.ins().bxor_imm_s(fo, 1);
        let ev = b.use_var(evals);
        let left = b.ins().icmp_imm_s(IntCC::SignedLessThan, ev, max);
        let go = b.ins().band(any, free);
        let go = b.ins().band(go, left);
        let cut_block = b.create_block();
        let judge = b.create_block();
        b.ins().brif(go, cut_block, &[], judge, &[]);
        b.switch_to_block(cut_block);
        b.seal_block(cut_block);
        let l = b.use_var(lambda);
        let lc = b.ins().fmul(l, cut);
        b.def_var(lambda, lc);
        self.damped_iterate(b, blk, old, dd, lc);
        b.ins().jump(deval, &[]);
        b.switch_to_block(judge);
        b.seal_block(judge);
    }

    /// Returns status `code`; in the sliding retry, the band's width cleared first.
    fn give_up(&mut self, b: &mut FunctionBuilder, code: Value) {
        if let Some(w) = self.slide.reset {
            let zero = b.ins().f64const(0.0);
            self.store(b, w, zero);
        }
        b.ins().return_(&[code]);
    }

    /// The damped retry of a block whose full steps did not converge (the interpreter's
    /// `damped_retry`, operation for operation): from the values saved before the block,
    /// each Newton step halved until the residuals' sum of squares falls, at most
    /// `Newton::damped` evaluations in all. Scratch after the scales: the start values, the
    /// iterate a step starts from, the full step.
    fn damped_retry(
        &mut self,
        b: &mut FunctionBuilder,
        blk: &TornBlock,
        ok: cranelift_codegen::ir::Block,
        start_finite: cranelift_frontend::Variable,
        bracket: Option<&Bracket>,
        sliding: bool,
    ) {
        use cranelift_codegen::ir::condcodes::IntCC;
        let k = blk.tearing.len();
        let (r0, j0) = (self.scratch_base, self.scratch_base + k);
        let s0 = j0 + k * k;
        let (x0, old, dd) = (s0 + k, s0 + 2 * k, s0 + 3 * k);
        let max = i64::from(self.plan.newton.damped);
        let evals = b.declare_var(types::I32);
        let trial = b.declare_var(types::I8);
        let lambda = b.declare_var(types::F64);
        let before = b.declare_var(types::F64);
        let z32 = b.ins().iconst(types::I32, 0);
        let z8 = b.ins().iconst(types::I8, 0);
        let one = b.ins().f64const(1.0);
        b.def_var(evals, z32);
        b.def_var(trial, z8);
        b.def_var(lambda, one);
        b.def_var(before, one);
        let forced = b.declare_var(types::I8);
        b.def_var(forced, z8);
        // From the start values, or at rest where their residuals were not finite.
        let sf = b.use_var(start_finite);
        let zero = b.ins().f64const(0.0);
        for (i, &t) in blk.tearing.iter().enumerate() {
            let mut x = self.load_slot(b, x0 + i);
            if self.plan.is_derivative(t) {
                x = b.ins().select(sf, x, zero);
            }
            self.store(b, t, x);
        }
        let deval = b.create_block();
        let dtrial = b.create_block();
        let dcheck = b.create_block();
        b.ins().jump(deval, &[]);

        // An evaluation, then the trial's test or the iterate's checks.
        b.switch_to_block(deval);
        self.evaluate(b, blk);
        if let Some(br) = bracket {
            let x = self.load(b, blk.tearing[0]);
            let r = self.load_slot(b, r0);
            br.update(b, x, r);
        }
        let ev = b.use_var(evals);
        let ev1 = b.ins().iadd_imm_s(ev, 1);
        b.def_var(evals, ev1);
        let tr = b.use_var(trial);
        b.ins().brif(tr, dtrial, &[], dcheck, &[]);

        // A trial: kept where the sum of squares fell (finite) or the evaluations ran out,
        // else the step halved.
        b.switch_to_block(dtrial);
        b.seal_block(dtrial);
        if sliding && !blk.switches.is_empty() {
            self.cut_at_crossing(b, blk, (forced, evals, lambda), max, (old, dd), deval);
        }
        let after = self.residual_norm(b, r0, k);
        let zero = b.ins().f64const(0.0);
        let aa = b.ins().fsub(after, after);
        let finite = b.ins().fcmp(FloatCC::Equal, aa, zero);
        let bf = b.use_var(before);
        let fell = b.ins().fcmp(FloatCC::LessThan, after, bf);
        let better = b.ins().band(finite, fell);
        let ev = b.use_var(evals);
        let spent = b.ins().icmp_imm_s(IntCC::SignedGreaterThanOrEqual, ev, max);
        let keep = b.ins().bor(better, spent);
        let fo = b.use_var(forced);
        let keep = b.ins().bor(keep, fo);
        let accept = b.create_block();
        let halve = b.create_block();
        b.ins().brif(keep, accept, &[], halve, &[]);
        b.switch_to_block(halve);
        b.seal_block(halve);
        let l = b.use_var(lambda);
        let half = b.ins().f64const(0.5);
        let l2 = b.ins().fmul(l, half);
        b.def_var(lambda, l2);
        self.damped_iterate(b, blk, old, dd, l2);
        b.ins().jump(deval, &[]);

        // Accepted: a non-finite iterate ends the retry; a full step within the tolerances
        // converged.
        b.switch_to_block(accept);
        b.seal_block(accept);
        b.def_var(trial, z8);
        let mut sum = b.ins().f64const(0.0);
        let mut all = b.ins().iconst(types::I8, 1);
        let atol = b.ins().f64const(self.plan.newton.atol);
        let rtol = b.ins().f64const(self.plan.newton.rtol);
        for (i, &t) in blk.tearing.iter().enumerate() {
            let x = self.load(b, t);
            let xx = b.ins().fsub(x, x);
            sum = b.ins().fadd(sum, xx);
            let d = self.load_slot(b, dd + i);
            let da = b.ins().fabs(d);
            let xa = b.ins().fabs(x);
            let m = b.ins().fmul(rtol, xa);
            let lim = b.ins().fadd(atol, m);
            let le = b.ins().fcmp(FloatCC::LessThanOrEqual, da, lim);
            all = b.ins().band(all, le);
        }
        let finite = b.ins().fcmp(FloatCC::Equal, sum, zero);
        let diverged = b.create_block();
        let fine = b.create_block();
        b.ins().brif(finite, fine, &[], diverged, &[]);
        b.switch_to_block(diverged);
        b.seal_block(diverged);
        self.name_non_finite(b, blk);
        b.ins().jump(fine, &[]);
        b.switch_to_block(fine);
        b.seal_block(fine);
        b.ins().brif(all, ok, &[], dcheck, &[]);

        // The iterate's checks, then the next step.
        b.switch_to_block(dcheck);
        b.seal_block(dcheck);
        let scale = self.largest_scale(b, s0, k);
        let rr = b.ins().f64const(self.plan.newton.residual_rtol);
        let lim = b.ins().fmul(rr, scale);
        let small = self.residuals_within(b, r0, k, lim);
        let not_small = b.create_block();
        b.ins().brif(small, ok, &[], not_small, &[]);
        b.switch_to_block(not_small);
        b.seal_block(not_small);
        let fr = b.ins().f64const(self.plan.newton.final_rtol);
        let flim = b.ins().fmul(fr, scale);
        let ev = b.use_var(evals);
        let spent = b.ins().icmp_imm_s(IntCC::SignedGreaterThanOrEqual, ev, max);
        let fail = b.create_block();
        let step = b.create_block();
        b.ins().brif(spent, fail, &[], step, &[]);
        b.switch_to_block(fail);
        b.seal_block(fail);
        let close = self.residuals_within(b, r0, k, flim);
        let refuse = b.create_block();
        b.ins().brif(close, ok, &[], refuse, &[]);
        b.switch_to_block(refuse);
        b.seal_block(refuse);
        if let Some(f) = self.slide.fail_to {
            b.ins().jump(f, &[]);
        } else {
            let code = status_const(b, kind::NOT_CONVERGED, blk.index.index());
            self.give_up(b, code);
        }
        b.switch_to_block(step);
        b.seal_block(step);
        let norm = self.residual_norm(b, r0, k);
        b.def_var(before, norm);
        self.lu_solve(b, blk, flim);
        if let Some(br) = bracket {
            let x = self.load(b, blk.tearing[0]);
            let d = self.load_slot(b, r0);
            let (d, use_rf) = br.step(b, x, d, sliding);
            self.store_slot(b, r0, d);
            b.def_var(forced, use_rf);
        }
        for (i, &t) in blk.tearing.iter().enumerate() {
            let d = self.load_slot(b, r0 + i);
            self.store_slot(b, dd + i, d);
            let x = self.load(b, t);
            self.store_slot(b, old + i, x);
        }
        if sliding {
            // The band arguments where the step starts.
            let nq = blk.switches.len();
            for i in 0..nq {
                let q = self.load_slot(b, s0 + 4 * k + i);
                self.store_slot(b, s0 + 4 * k + nq + i, q);
            }
        }
        let one = b.ins().f64const(1.0);
        b.def_var(lambda, one);
        let t1 = b.ins().iconst(types::I8, 1);
        b.def_var(trial, t1);
        self.damped_iterate(b, blk, old, dd, one);
        b.ins().jump(deval, &[]);
        b.seal_block(deval);
        self.memo.clear();
        self.calls.clear();
        self.wide_calls.clear();
        self.splats.clear();
    }

    /// The LU solve of the block's Jacobian and residuals in the scratch area (the residuals
    /// become the Newton step); a singular Jacobian returns its status. A zero column's row
    /// may keep what `flim` (the final tolerance) accepts.
    fn lu_solve(&mut self, b: &mut FunctionBuilder, blk: &TornBlock, flim: Value) {
        let k = blk.tearing.len();
        let (r0, j0) = (self.scratch_base, self.scratch_base + k);
        let (kl, w) = blk.band;
        let singular = b.create_block();
        let solved = b.create_block();
        if k <= super::lu::SMALL_LU {
            let bad = self.lu_small(b, k, (kl, w), (j0, r0), flim);
            b.ins().brif(bad, singular, &[], solved, &[]);
            return self.lu_status(b, blk, singular, solved);
        }
        let jp = b.ins().iadd_imm_s(self.mem, (j0 * 8) as i64);
        let rp = b.ins().iadd_imm_s(self.mem, (r0 * 8) as i64);
        let kk = b.ins().iconst(types::I64, k as i64);
        let kl = b.ins().iconst(types::I64, kl as i64);
        let w = b.ins().iconst(types::I64, w as i64);
        let c = match self.band_refs.get(&blk.band) {
            Some(&r) => b.ins().call(r, &[jp, rp, kk, kl, w, flim]),
            None => {
                let k0 = b.ins().iconst(types::I64, 0);
                b.ins().call(self.refs[LU], &[jp, rp, kk, kl, w, flim, k0])
            }
        };
        let st = b.inst_results(c)[0];
        b.ins().brif(st, solved, &[], singular, &[]);
        self.lu_status(b, blk, singular, solved)
    }

    /// A singular block returns its status; a solved one goes on.
    fn lu_status(
        &mut self,
        b: &mut FunctionBuilder,
        blk: &TornBlock,
        singular: cranelift_codegen::ir::Block,
        solved: cranelift_codegen::ir::Block,
    ) {
        b.switch_to_block(singular);
        b.seal_block(singular);
        if let Some(f) = self.slide.fail_to {
            b.ins().jump(f, &[]);
        } else {
            let code = status_const(b, kind::SINGULAR, blk.index.index());
            self.give_up(b, code);
        }
        b.switch_to_block(solved);
        b.seal_block(solved);
    }

    /// Where an iterate is non-finite: returns the status naming the first non-finite
    /// tearing variable (as the interpreter names it); falls through if none is.
    fn name_non_finite(&mut self, b: &mut FunctionBuilder, blk: &TornBlock) {
        let zero = b.ins().f64const(0.0);
        for &t in &blk.tearing {
            let x = self.load(b, t);
            let xx = b.ins().fsub(x, x);
            let fin = b.ins().fcmp(FloatCC::Equal, xx, zero);
            let bad = b.create_block();
            let next = b.create_block();
            b.ins().brif(fin, next, &[], bad, &[]);
            b.switch_to_block(bad);
            b.seal_block(bad);
            let code = status_const(b, kind::NON_FINITE, t.index());
            self.give_up(b, code);
            b.switch_to_block(next);
            b.seal_block(next);
        }
    }

    /// The tearing variables at `old − λ·step` (the interpreter's order of operations).
    fn damped_iterate(
        &mut self,
        b: &mut FunctionBuilder,
        blk: &TornBlock,
        old: usize,
        dd: usize,
        lambda: Value,
    ) {
        for (i, &t) in blk.tearing.iter().enumerate() {
            let o = self.load_slot(b, old + i);
            let d = self.load_slot(b, dd + i);
            let ld = b.ins().fmul(lambda, d);
            let x = b.ins().fsub(o, ld);
            self.store(b, t, x);
        }
    }
}

/// At the first evaluation (`evals` 1), whether its residuals were finite (`nonfinite`, their
/// r − r summed, is 0): the interpreter's `start_finite`, where the damped retry starts.
fn note_start_finite(
    b: &mut FunctionBuilder,
    start_finite: cranelift_frontend::Variable,
    evals: Value,
    nonfinite: Value,
) {
    let zero = b.ins().f64const(0.0);
    let finite = b.ins().fcmp(FloatCC::Equal, nonfinite, zero);
    let first = b
        .ins()
        .icmp_imm_s(cranelift_codegen::ir::condcodes::IntCC::Equal, evals, 1);
    let sf = b.use_var(start_finite);
    let sf = b.ins().select(first, finite, sf);
    b.def_var(start_finite, sf);
}

/// The interpreter's `Bracket` as variables of the damped retry: the last iterates with a
/// negative and a positive residual, whether each is known, and the end the last update
/// replaced (0 none, 1 the negative, 2 the positive).
struct Bracket {
    lo_x: cranelift_frontend::Variable,
    lo_r: cranelift_frontend::Variable,
    hi_x: cranelift_frontend::Variable,
    hi_r: cranelift_frontend::Variable,
    has_lo: cranelift_frontend::Variable,
    has_hi: cranelift_frontend::Variable,
    last: cranelift_frontend::Variable,
}

impl Bracket {
    fn declare(b: &mut FunctionBuilder) -> Bracket {
        let f = |b: &mut FunctionBuilder| {
            let v = b.declare_var(types::F64);
            let z = b.ins().f64const(0.0);
            b.def_var(v, z);
            v
        };
        let i = |b: &mut FunctionBuilder| {
            let v = b.declare_var(types::I8);
            let z = b.ins().iconst(types::I8, 0);
            b.def_var(v, z);
            v
        };
        Bracket {
            lo_x: f(b),
            lo_r: f(b),
            hi_x: f(b),
            hi_r: f(b),
            has_lo: i(b),
            has_hi: i(b),
            last: i(b),
        }
    }

    /// The iterate `x` with residual `r` (the interpreter's `Bracket::update`).
    fn update(&self, b: &mut FunctionBuilder, x: Value, r: Value) {
        use cranelift_codegen::ir::condcodes::IntCC;
        let zero = b.ins().f64const(0.0);
        let half = b.ins().f64const(0.5);
        let neg = b.ins().fcmp(FloatCC::LessThan, r, zero);
        let pos = b.ins().fcmp(FloatCC::GreaterThan, r, zero);
        let last = b.use_var(self.last);
        let after_lo = b.ins().icmp_imm_s(IntCC::Equal, last, 1);
        let after_hi = b.ins().icmp_imm_s(IntCC::Equal, last, 2);
        let (lo_x, lo_r) = (b.use_var(self.lo_x), b.use_var(self.lo_r));
        let (hi_x, hi_r) = (b.use_var(self.hi_x), b.use_var(self.hi_r));
        // Illinois: the end kept twice in a row has its residual halved.
        let halve_hi = b.ins().band(neg, after_lo);
        let hh = b.ins().fmul(hi_r, half);
        let hi_r = b.ins().select(halve_hi, hh, hi_r);
        let halve_lo = b.ins().band(pos, after_hi);
        let lh = b.ins().fmul(lo_r, half);
        let lo_r = b.ins().select(halve_lo, lh, lo_r);
        let v = b.ins().select(neg, x, lo_x);
        b.def_var(self.lo_x, v);
        let v = b.ins().select(neg, r, lo_r);
        b.def_var(self.lo_r, v);
        let v = b.ins().select(pos, x, hi_x);
        b.def_var(self.hi_x, v);
        let v = b.ins().select(pos, r, hi_r);
        b.def_var(self.hi_r, v);
        let has = b.use_var(self.has_lo);
        let v = b.ins().bor(has, neg);
        b.def_var(self.has_lo, v);
        let has = b.use_var(self.has_hi);
        let v = b.ins().bor(has, pos);
        b.def_var(self.has_hi, v);
        let one = b.ins().iconst(types::I8, 1);
        let two = b.ins().iconst(types::I8, 2);
        let v = b.ins().select(pos, two, last);
        let v = b.ins().select(neg, one, v);
        b.def_var(self.last, v);
    }

    /// Newton's step `d` from `x`, or the step to the regula falsi point (with `bisect`, the
    /// bracket's midpoint) where the bracket is known and `x − d` leaves it (the
    /// interpreter's `Bracket::step`); with whether it was.
    fn step(&self, b: &mut FunctionBuilder, x: Value, d: Value, bisect: bool) -> (Value, Value) {
        let zero = b.ins().f64const(0.0);
        let (a, ra) = (b.use_var(self.lo_x), b.use_var(self.lo_r));
        let (c, rc) = (b.use_var(self.hi_x), b.use_var(self.hi_r));
        let xn = b.ins().fsub(x, d);
        let pa = b.ins().fsub(xn, a);
        let pc = b.ins().fsub(xn, c);
        let p = b.ins().fmul(pa, pc);
        let inside = b.ins().fcmp(FloatCC::LessThan, p, zero);
        let (hl, hh) = (b.use_var(self.has_lo), b.use_var(self.has_hi));
        let both = b.ins().band(hl, hh);
        let outside = b.ins().bxor_imm_s(inside, 1);
        let use_rf = b.ins().band(both, outside);
        let xf = if bisect {
            let half = b.ins().f64const(0.5);
            let sum = b.ins().fadd(a, c);
            b.ins().fmul(half, sum)
        } else {
            let w = b.ins().fsub(c, a);
            let m = b.ins().fmul(ra, w);
            let dr = b.ins().fsub(rc, ra);
            let q = b.ins().fdiv(m, dr);
            b.ins().fsub(a, q)
        };
        let df = b.ins().fsub(x, xf);
        (b.ins().select(use_rf, df, d), use_rf)
    }
}

/// The [`StatusWord`] of `kind` with `detail` as a constant of the step function.
fn status_const(b: &mut FunctionBuilder, kind: i32, detail: usize) -> Value {
    b.ins()
        .iconst(types::I32, i64::from(StatusWord::new(kind, detail).0))
}

/// The Cranelift condition of a comparison (`!=` is true for NaN, as the interpreter's).
fn cmp_cc(op: CmpOp) -> FloatCC {
    match op {
        CmpOp::Lt => FloatCC::LessThan,
        CmpOp::Le => FloatCC::LessThanOrEqual,
        CmpOp::Gt => FloatCC::GreaterThan,
        CmpOp::Ge => FloatCC::GreaterThanOrEqual,
        CmpOp::Eq => FloatCC::Equal,
        CmpOp::Ne => FloatCC::NotEqual,
    }
}
