//! Code generation: a step plan lowered to Cranelift IR and JIT-compiled.
//!
//! ABI (one memory block of f64 slots, laid out as the plan's variable table followed by a
//! scratch area for the Newton blocks):
//!
//! ```c
//! int32_t init(double *mem, double t0);          // parameters, start values, model at t0
//! int32_t step(double *mem, double t, double h); // one step from t to t + h
//! ```
//!
//! The status is the interpreter's code in the low 4 bits (0 ok, 1 not converged, 2
//! non-finite, 3 singular) and the block index or variable slot above them. The lowering
//! mirrors the interpreter operation for operation (same libm functions, same LU, same Newton
//! tests, `min`/`max` spelled out with the same comparisons), so results agree bitwise.
//!
//! Large plans are split into chunk functions of bounded size, called in order from `init` and
//! `step`, so register allocation stays near linear in the model size.

use crate::plan::interp::{lu_solve, Status};
use crate::plan::{Assign, Plan, Stmt, TornBlock};
use crate::symbolic::{CmpOp, ExprId, Func1, Func2, Node, VarId};
use cranelift_codegen::ir::condcodes::FloatCC;
use cranelift_codegen::ir::{types, AbiParam, FuncRef, InstBuilder, MemFlagsData, Value};
use cranelift_codegen::settings::{self, Configurable};
use cranelift_frontend::{FunctionBuilder, FunctionBuilderContext};
use cranelift_jit::{JITBuilder, JITModule};
use cranelift_module::{FuncId, Linkage, Module};
use rustc_hash::FxHashMap;

type InitFn = unsafe extern "C" fn(*mut f64, f64) -> i32;
type StepFn = unsafe extern "C" fn(*mut f64, f64, f64) -> i32;

/// Status detail meaning "look it up": the caller scans the checked slots.
const NO_DETAIL: i64 = 0x7ff_ffff;

/// Upper bound on expression nodes per chunk function.
const CHUNK_NODES: usize = 1000;

/// A JIT-compiled plan.
pub struct Jit {
    _module: JITModule,
    init: InitFn,
    step: StepFn,
    /// Slots of the plan's variables; the scratch area follows.
    pub slots: usize,
    pub scratch: usize,
    /// Cranelift IR text of every function, when requested.
    pub clif: Vec<String>,
    residual_offset: usize,
    block_sizes: FxHashMap<usize, usize>,
    pub newton_max: u32,
    /// Slots checked for finiteness, in the interpreter's order.
    checked: Vec<VarId>,
}

// The JIT memory lives as long as the module; the function pointers do not outlive `Jit`.
unsafe impl Send for Jit {}

extern "C" fn c_sin(x: f64) -> f64 {
    x.sin()
}
extern "C" fn c_cos(x: f64) -> f64 {
    x.cos()
}
extern "C" fn c_tan(x: f64) -> f64 {
    x.tan()
}
extern "C" fn c_asin(x: f64) -> f64 {
    x.asin()
}
extern "C" fn c_acos(x: f64) -> f64 {
    x.acos()
}
extern "C" fn c_atan(x: f64) -> f64 {
    x.atan()
}
extern "C" fn c_sinh(x: f64) -> f64 {
    x.sinh()
}
extern "C" fn c_cosh(x: f64) -> f64 {
    x.cosh()
}
extern "C" fn c_tanh(x: f64) -> f64 {
    x.tanh()
}
extern "C" fn c_exp(x: f64) -> f64 {
    x.exp()
}
extern "C" fn c_log(x: f64) -> f64 {
    x.ln()
}
extern "C" fn c_log10(x: f64) -> f64 {
    x.log10()
}
extern "C" fn c_atan2(y: f64, x: f64) -> f64 {
    y.atan2(x)
}
extern "C" fn c_pow(x: f64, y: f64) -> f64 {
    crate::symbolic::eval::pow(x, y)
}

/// LU with partial pivoting on `a` (n×n, row-major) and `b`; 1 on success, 0 if singular.
extern "C" fn rtc_lu_solve(a: *mut f64, b: *mut f64, n: i64) -> i32 {
    let n = n.max(0) as usize;
    // SAFETY: generated code passes pointers into its scratch area sized for n×n and n.
    let (a, b) = unsafe {
        (
            std::slice::from_raw_parts_mut(a, n * n),
            std::slice::from_raw_parts_mut(b, n),
        )
    };
    i32::from(lu_solve(a, b, n))
}

/// The C math library function for `f` (its Modelica name is the C name), or `None` for the
/// functions Cranelift has instructions for.
fn libm_name(f: Func1) -> Option<&'static str> {
    match f {
        Func1::Sqrt | Func1::Abs | Func1::Sign | Func1::Floor | Func1::Ceil => None,
        _ => Some(f.name()),
    }
}

/// One unit of generated work.
enum Piece<'p> {
    Copy(VarId, VarId),
    Assign(&'p Assign),
    Block(&'p TornBlock),
    Check(VarId),
}

struct Gen<'p> {
    plan: &'p Plan,
    module: JITModule,
    fctx: FunctionBuilderContext,
    imports: FxHashMap<&'static str, FuncId>,
    clif: Option<Vec<String>>,
    residual_offset: usize,
    scratch_base: usize,
    newton_max: u32,
    chunk_count: usize,
}

fn err<E: std::fmt::Display>(e: E) -> String {
    e.to_string()
}

/// Compiles `plan` to native code for this machine.
pub fn jit(plan: &Plan, emit_clif: bool) -> Result<Jit, String> {
    let mut flags = settings::builder();
    flags.set("use_colocated_libcalls", "false").map_err(err)?;
    flags.set("is_pic", "false").map_err(err)?;
    // Our DAG already shares subexpressions and folds constants; Cranelift's e-graph pass
    // adds little to the step time and costs compile time (measured: n = 500 line, 180 ms with
    // "speed", 100 ms with "none"). RTC_CRANELIFT_OPT=speed restores it.
    let opt = std::env::var("RTC_CRANELIFT_OPT").unwrap_or_else(|_| "none".into());
    flags.set("opt_level", &opt).map_err(err)?;
    // The IR verifier runs in debug builds (tests), not in release.
    flags
        .set(
            "enable_verifier",
            if cfg!(debug_assertions) {
                "true"
            } else {
                "false"
            },
        )
        .map_err(err)?;
    let isa = cranelift_native::builder()
        .map_err(err)?
        .finish(settings::Flags::new(flags))
        .map_err(err)?;
    let mut jb = JITBuilder::with_isa(isa, cranelift_module::default_libcall_names());
    let syms: [(&str, *const u8); 15] = [
        ("sin", c_sin as *const u8),
        ("cos", c_cos as *const u8),
        ("tan", c_tan as *const u8),
        ("asin", c_asin as *const u8),
        ("acos", c_acos as *const u8),
        ("atan", c_atan as *const u8),
        ("sinh", c_sinh as *const u8),
        ("cosh", c_cosh as *const u8),
        ("tanh", c_tanh as *const u8),
        ("exp", c_exp as *const u8),
        ("log", c_log as *const u8),
        ("log10", c_log10 as *const u8),
        ("atan2", c_atan2 as *const u8),
        ("rtc_pow", c_pow as *const u8),
        ("rtc_lu_solve", rtc_lu_solve as *const u8),
    ];
    for (n, p) in syms {
        jb.symbol(n, p);
    }
    let module = JITModule::new(jb);
    // Scratch: the residual norm, then per block r (k), J (k²), scales (k).
    let slots = plan.vars.len();
    let scratch = plan.scratch_slots();
    let mut g = Gen {
        plan,
        module,
        fctx: FunctionBuilderContext::new(),
        imports: FxHashMap::default(),
        clif: if emit_clif { Some(Vec::new()) } else { None },
        residual_offset: slots,
        scratch_base: slots + 1,
        newton_max: plan.newton.max_iterations,
        chunk_count: 0,
    };
    // init: parameters, start values, the model at t0, finiteness.
    let mut init_pieces: Vec<Piece> = Vec::new();
    let param_assigns: Vec<Assign> = plan
        .parameters
        .iter()
        .chain(&plan.hoisted)
        .chain(&plan.starts)
        .filter_map(|&p| {
            plan.vars[p.index()].binding.map(|b| Assign {
                var: p,
                expr: b,
                span: plan.vars[p.index()].span,
            })
        })
        .collect();
    for a in &param_assigns {
        init_pieces.push(Piece::Assign(a));
    }
    push_stmts(&mut init_pieces, &plan.init);
    let checked: Vec<VarId> = plan.unknown_slots();
    init_pieces.extend(checked.iter().map(|&v| Piece::Check(v)));
    let init_chunks = g.chunks("init", init_pieces)?;
    let init_id = g.entry("init", &init_chunks, false)?;
    let mut step_pieces: Vec<Piece> = plan
        .pre_copies
        .iter()
        .map(|&(p, v)| Piece::Copy(p, v))
        .collect();
    push_stmts(&mut step_pieces, &plan.step);
    step_pieces.extend(checked.iter().map(|&v| Piece::Check(v)));
    let step_chunks = g.chunks("step", step_pieces)?;
    let step_id = g.entry("step", &step_chunks, true)?;
    g.module.finalize_definitions().map_err(err)?;
    let init_ptr = g.module.get_finalized_function(init_id);
    let step_ptr = g.module.get_finalized_function(step_id);
    let block_sizes = plan
        .init
        .iter()
        .chain(&plan.step)
        .filter_map(|s| match s {
            Stmt::Block(b) => Some((b.index, b.tearing.len())),
            _ => None,
        })
        .collect();
    // SAFETY: the functions were defined with exactly these signatures.
    let (init, step) = unsafe {
        (
            std::mem::transmute::<*const u8, InitFn>(init_ptr),
            std::mem::transmute::<*const u8, StepFn>(step_ptr),
        )
    };
    Ok(Jit {
        init,
        step,
        slots,
        scratch,
        clif: g.clif.take().unwrap_or_default(),
        residual_offset: g.residual_offset,
        block_sizes,
        newton_max: g.newton_max,
        checked,
        _module: g.module,
    })
}

fn push_stmts<'p>(out: &mut Vec<Piece<'p>>, stmts: &'p [Stmt]) {
    for s in stmts {
        match s {
            Stmt::Assign(a) => out.push(Piece::Assign(a)),
            Stmt::Block(b) => out.push(Piece::Block(b)),
        }
    }
}

impl<'p> Gen<'p> {
    fn import(
        &mut self,
        name: &'static str,
        params: usize,
        ret_i32: bool,
        ptr_args: usize,
    ) -> Result<FuncId, String> {
        if let Some(&id) = self.imports.get(name) {
            return Ok(id);
        }
        let mut sig = self.module.make_signature();
        for _ in 0..ptr_args {
            sig.params.push(AbiParam::new(types::I64));
        }
        for _ in 0..params {
            sig.params.push(AbiParam::new(if ptr_args > 0 {
                types::I64
            } else {
                types::F64
            }));
        }
        sig.returns
            .push(AbiParam::new(if ret_i32 { types::I32 } else { types::F64 }));
        let id = self
            .module
            .declare_function(name, Linkage::Import, &sig)
            .map_err(err)?;
        self.imports.insert(name, id);
        Ok(id)
    }

    fn piece_size(&self, p: &Piece) -> usize {
        let ar = &self.plan.arena;
        match p {
            Piece::Copy(..) => 2,
            Piece::Check(_) => 3,
            Piece::Assign(a) => crate::plan::expr_work(ar, &[a.expr]).flops as usize + 2,
            Piece::Block(b) => {
                let mut roots: Vec<ExprId> =
                    b.inner.iter().chain(&b.tangents).map(|a| a.expr).collect();
                roots.extend(&b.residuals);
                roots.extend(&b.jacobian);
                roots.extend(&b.residual_scales);
                crate::plan::expr_work(ar, &roots).flops as usize + 10
            }
        }
    }

    /// The external functions `pieces` call: (name, arguments, returns i32, pointer arguments).
    fn needed_imports(&self, pieces: &[Piece]) -> Vec<(&'static str, usize, bool, usize)> {
        let ar = &self.plan.arena;
        let mut roots = Vec::new();
        let mut lu = false;
        for p in pieces {
            match p {
                Piece::Assign(a) => roots.push(a.expr),
                Piece::Block(b) => {
                    lu = true;
                    roots.extend(b.inner.iter().chain(&b.tangents).map(|a| a.expr));
                    roots.extend(&b.residuals);
                    roots.extend(&b.jacobian);
                    roots.extend(&b.residual_scales);
                }
                _ => {}
            }
        }
        let mut names: Vec<(&'static str, usize, bool, usize)> = Vec::new();
        let mut seen = rustc_hash::FxHashSet::default();
        let mut stack = roots;
        while let Some(id) = stack.pop() {
            if !seen.insert(id) {
                continue;
            }
            let entry = match ar.node(id) {
                Node::Pow(..) => Some(("rtc_pow", 2)),
                Node::Call2(Func2::Atan2, ..) => Some(("atan2", 2)),
                Node::Call1(f, _) => libm_name(f).map(|n| (n, 1)),
                _ => None,
            };
            if let Some((n, k)) = entry {
                if !names.iter().any(|x| x.0 == n) {
                    names.push((n, k, false, 0));
                }
            }
            stack.extend(ar.children(id));
        }
        if lu {
            names.push(("rtc_lu_solve", 1, true, 2));
        }
        names.sort();
        names
    }

    /// Splits pieces into chunk functions `(mem) -> status` and defines them.
    fn chunks(&mut self, prefix: &str, pieces: Vec<Piece<'p>>) -> Result<Vec<FuncId>, String> {
        let mut groups: Vec<Vec<Piece>> = vec![Vec::new()];
        let mut size = 0;
        for p in pieces {
            let s = self.piece_size(&p);
            if size + s > CHUNK_NODES && !groups.last().is_some_and(|g| g.is_empty()) {
                groups.push(Vec::new());
                size = 0;
            }
            size += s;
            if let Some(g) = groups.last_mut() {
                g.push(p);
            }
        }
        let mut ids = Vec::new();
        for (k, group) in groups.into_iter().enumerate() {
            if group.is_empty() {
                continue;
            }
            let name = format!("{prefix}_chunk{k}");
            ids.push(self.define_chunk(&name, &group)?);
        }
        Ok(ids)
    }

    fn define_chunk(&mut self, name: &str, pieces: &[Piece]) -> Result<FuncId, String> {
        self.chunk_count += 1;
        let mut ctx = self.module.make_context();
        ctx.func.signature.params.push(AbiParam::new(types::I64));
        ctx.func.signature.returns.push(AbiParam::new(types::I32));
        let id = self
            .module
            .declare_function(name, Linkage::Local, &ctx.func.signature)
            .map_err(err)?;
        // Imports used by this chunk, declared in the function.
        let mut ids = Vec::new();
        for (n, p, r, ptrs) in self.needed_imports(pieces) {
            ids.push((n, self.import(n, p, r, ptrs)?));
        }
        {
            let mut b = FunctionBuilder::new(&mut ctx.func, &mut self.fctx);
            let mut refs: FxHashMap<&'static str, FuncRef> = FxHashMap::default();
            for (n, fid) in &ids {
                let r = self.module.declare_func_in_func(*fid, b.func);
                refs.insert(n, r);
            }
            let entry = b.create_block();
            b.append_block_params_for_function_params(entry);
            b.switch_to_block(entry);
            b.seal_block(entry);
            let mem = b.block_params(entry)[0];
            let mut l = Lower {
                plan: self.plan,
                mem,
                refs,
                memo: FxHashMap::default(),
                scratch_base: self.scratch_base,
                newton_max: self.newton_max,
            };
            for p in pieces {
                match p {
                    Piece::Copy(dst, src) => {
                        let v = l.load(&mut b, *src);
                        l.store(&mut b, *dst, v);
                    }
                    Piece::Assign(a) => {
                        let v = l.expr(&mut b, a.expr);
                        l.store(&mut b, a.var, v);
                    }
                    Piece::Block(blk) => l.block(&mut b, blk),
                    Piece::Check(_) => {}
                }
            }
            // Finiteness of everything the chunk must check: x − x is 0 for finite x and NaN
            // otherwise, so one sum and one branch cover all; the slow path finds the culprit.
            let checks: Vec<VarId> = pieces
                .iter()
                .filter_map(|p| match p {
                    Piece::Check(v) => Some(*v),
                    _ => None,
                })
                .collect();
            if !checks.is_empty() {
                // Four independent sums, so the additions do not form one long dependency
                // chain (a single chain of n additions costs n times the add latency).
                let z0 = b.ins().f64const(0.0);
                let mut accs = [z0; 4];
                for (k, &v) in checks.iter().enumerate() {
                    // Reloaded rather than kept live from the assignments: holding every
                    // value in a register to the end of the chunk makes register allocation
                    // superlinear.
                    let x = l.load(&mut b, v);
                    let d = b.ins().fsub(x, x);
                    accs[k % 4] = b.ins().fadd(accs[k % 4], d);
                }
                let a01 = b.ins().fadd(accs[0], accs[1]);
                let a23 = b.ins().fadd(accs[2], accs[3]);
                let acc = b.ins().fadd(a01, a23);
                let zero = b.ins().f64const(0.0);
                let finite = b.ins().fcmp(FloatCC::Equal, acc, zero);
                let slow = b.create_block();
                let done = b.create_block();
                b.ins().brif(finite, done, &[], slow, &[]);
                b.switch_to_block(slow);
                b.seal_block(slow);
                // Which value it was is found by the caller (`Jit::decode`), off the fast path.
                let code = b.ins().iconst(types::I32, 2 | (NO_DETAIL << 4));
                b.ins().return_(&[code]);
                b.switch_to_block(done);
                b.seal_block(done);
            }
            let ok = b.ins().iconst(types::I32, 0);
            b.ins().return_(&[ok]);
            b.finalize(self.module.isa().frontend_config());
        }
        if let Some(c) = &mut self.clif {
            c.push(format!("; {name}\n{}", ctx.func.display()));
        }
        self.module
            .define_function(id, &mut ctx)
            .map_err(|e| format!("{name}: {e:?}"))?;
        self.module.clear_context(&mut ctx);
        Ok(id)
    }

    /// `init(mem, t0)` or `step(mem, t, h)`: set the time slots, call the chunks in order.
    fn entry(&mut self, name: &str, chunks: &[FuncId], is_step: bool) -> Result<FuncId, String> {
        let plan = self.plan;
        let mut ctx = self.module.make_context();
        ctx.func.signature.params.push(AbiParam::new(types::I64));
        ctx.func.signature.params.push(AbiParam::new(types::F64));
        if is_step {
            ctx.func.signature.params.push(AbiParam::new(types::F64));
        }
        ctx.func.signature.returns.push(AbiParam::new(types::I32));
        let id = self
            .module
            .declare_function(name, Linkage::Export, &ctx.func.signature)
            .map_err(err)?;
        {
            let mut b = FunctionBuilder::new(&mut ctx.func, &mut self.fctx);
            let refs: Vec<FuncRef> = chunks
                .iter()
                .map(|&c| self.module.declare_func_in_func(c, b.func))
                .collect();
            let entry = b.create_block();
            b.append_block_params_for_function_params(entry);
            b.switch_to_block(entry);
            b.seal_block(entry);
            let params = b.block_params(entry).to_vec();
            let mem = params[0];
            let t = params[1];
            let flags = MemFlagsData::trusted();
            let off = |v: VarId| (v.index() * 8) as i32;
            if is_step {
                let h = params[2];
                b.ins().store(flags, t, mem, off(plan.step_start));
                b.ins().store(flags, h, mem, off(plan.step_size));
                let th = b.ins().fadd(t, h);
                b.ins().store(flags, th, mem, off(plan.time));
            } else {
                let zero = b.ins().f64const(0.0);
                b.ins().store(flags, t, mem, off(plan.step_start));
                b.ins().store(flags, zero, mem, off(plan.step_size));
                b.ins().store(flags, t, mem, off(plan.time));
            }
            for r in refs {
                let call = b.ins().call(r, &[mem]);
                let st = b.inst_results(call)[0];
                let fail = b.create_block();
                let next = b.create_block();
                b.ins().brif(st, fail, &[], next, &[]);
                b.switch_to_block(fail);
                b.seal_block(fail);
                b.ins().return_(&[st]);
                b.switch_to_block(next);
                b.seal_block(next);
            }
            let ok = b.ins().iconst(types::I32, 0);
            b.ins().return_(&[ok]);
            b.finalize(self.module.isa().frontend_config());
        }
        if let Some(c) = &mut self.clif {
            c.push(format!("; {name}\n{}", ctx.func.display()));
        }
        self.module
            .define_function(id, &mut ctx)
            .map_err(|e| format!("{name}: {e:?}"))?;
        self.module.clear_context(&mut ctx);
        Ok(id)
    }
}

struct Lower<'p> {
    plan: &'p Plan,
    mem: Value,
    refs: FxHashMap<&'static str, FuncRef>,
    /// Values computed in the current straight-line region.
    memo: FxHashMap<ExprId, Value>,
    scratch_base: usize,
    newton_max: u32,
}

impl Lower<'_> {
    fn load(&mut self, b: &mut FunctionBuilder, v: VarId) -> Value {
        b.ins().load(
            types::F64,
            MemFlagsData::trusted(),
            self.mem,
            (v.index() * 8) as i32,
        )
    }

    fn store(&mut self, b: &mut FunctionBuilder, v: VarId, x: Value) {
        b.ins()
            .store(MemFlagsData::trusted(), x, self.mem, (v.index() * 8) as i32);
        if let Some(id) = self.plan.arena.index_of(Node::Var(v)) {
            self.memo.insert(id, x);
        }
    }

    fn load_slot(&mut self, b: &mut FunctionBuilder, slot: usize) -> Value {
        b.ins().load(
            types::F64,
            MemFlagsData::trusted(),
            self.mem,
            (slot * 8) as i32,
        )
    }

    fn store_slot(&mut self, b: &mut FunctionBuilder, slot: usize, x: Value) {
        b.ins()
            .store(MemFlagsData::trusted(), x, self.mem, (slot * 8) as i32);
    }

    fn call(&mut self, b: &mut FunctionBuilder, name: &str, args: &[Value]) -> Value {
        let r = self.refs[name];
        let c = b.ins().call(r, args);
        b.inst_results(c)[0]
    }

    fn bool_to_f64(b: &mut FunctionBuilder, c: Value) -> Value {
        let one = b.ins().f64const(1.0);
        let zero = b.ins().f64const(0.0);
        b.ins().select(c, one, zero)
    }

    fn truthy(b: &mut FunctionBuilder, x: Value) -> Value {
        let zero = b.ins().f64const(0.0);
        b.ins().fcmp(FloatCC::NotEqual, x, zero)
    }

    fn expr(&mut self, b: &mut FunctionBuilder, root: ExprId) -> Value {
        if let Some(&v) = self.memo.get(&root) {
            return v;
        }
        let ar = &self.plan.arena;
        let mut stack = vec![(root, false)];
        while let Some((id, done)) = stack.pop() {
            if self.memo.contains_key(&id) {
                continue;
            }
            if !done {
                stack.push((id, true));
                for c in ar.children(id) {
                    if !self.memo.contains_key(&c) {
                        stack.push((c, false));
                    }
                }
                continue;
            }
            let n = ar.node(id);
            let a: Vec<Value> = ar.children(id).map(|c| self.memo[&c]).collect();
            let v = match n {
                Node::Const(bits) => b.ins().f64const(f64::from_bits(bits)),
                Node::Var(v) => self.load(b, v),
                Node::Der(_) | Node::Pre(_) | Node::Time => b.ins().f64const(f64::NAN),
                Node::Neg(_) => b.ins().fneg(a[0]),
                Node::Add(..) => b.ins().fadd(a[0], a[1]),
                Node::Sub(..) => b.ins().fsub(a[0], a[1]),
                Node::Mul(..) => b.ins().fmul(a[0], a[1]),
                Node::Div(..) => b.ins().fdiv(a[0], a[1]),
                Node::Pow(..) => self.call(b, "rtc_pow", &[a[0], a[1]]),
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
                    let cc = match op {
                        CmpOp::Lt => FloatCC::LessThan,
                        CmpOp::Le => FloatCC::LessThanOrEqual,
                        CmpOp::Gt => FloatCC::GreaterThan,
                        CmpOp::Ge => FloatCC::GreaterThanOrEqual,
                        CmpOp::Eq => FloatCC::Equal,
                        CmpOp::Ne => FloatCC::NotEqual,
                    };
                    let c = b.ins().fcmp(cc, a[0], a[1]);
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

    /// One torn block: the Newton loop of the interpreter, operation for operation.
    fn block(&mut self, b: &mut FunctionBuilder, blk: &TornBlock) {
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
        let z32 = b.ins().iconst(types::I32, 0);
        let z8 = b.ins().iconst(types::I8, 0);
        b.def_var(evals, z32);
        b.def_var(small, z8);
        let eval = b.create_block();
        let ok = b.create_block();
        b.ins().jump(eval, &[]);
        b.switch_to_block(eval);
        // Evaluate the iteration: inner, tangents, residuals, Jacobian, scales.
        self.memo.clear();
        for a in blk.inner.iter().chain(&blk.tangents) {
            let v = self.expr(b, a.expr);
            self.store(b, a.var, v);
        }
        for (i, &r) in blk.residuals.iter().enumerate() {
            let v = self.expr(b, r);
            self.store_slot(b, r0 + i, v);
        }
        for (i, &e) in blk.jacobian.iter().enumerate() {
            let v = self.expr(b, e);
            self.store_slot(b, j0 + i, v);
        }
        for (i, &e) in blk.residual_scales.iter().enumerate() {
            let v = self.expr(b, e);
            self.store_slot(b, s0 + i, v);
        }
        let ev = b.use_var(evals);
        let ev1 = b.ins().iadd_imm_s(ev, 1);
        b.def_var(evals, ev1);
        // Converged by the last update?
        let sm = b.use_var(small);
        let after_small = b.create_block();
        b.ins().brif(sm, ok, &[], after_small, &[]);
        b.switch_to_block(after_small);
        b.seal_block(after_small);
        if !blk.linear {
            // Converged by residuals?
            let rr = b.ins().f64const(self.plan.newton.residual_rtol);
            let mut all = b.ins().iconst(types::I8, 1);
            for i in 0..k {
                let r = self.load_slot(b, r0 + i);
                let s = self.load_slot(b, s0 + i);
                let ra = b.ins().fabs(r);
                let lim = b.ins().fmul(rr, s);
                let c = b.ins().fcmp(FloatCC::LessThanOrEqual, ra, lim);
                all = b.ins().band(all, c);
            }
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
            let code = b.ins().iconst(types::I32, 1 | ((blk.index as i64) << 4));
            b.ins().return_(&[code]);
            b.switch_to_block(go);
            b.seal_block(go);
        }
        // LU solve in the scratch area.
        let jp = b.ins().iadd_imm_s(self.mem, (j0 * 8) as i64);
        let rp = b.ins().iadd_imm_s(self.mem, (r0 * 8) as i64);
        let kk = b.ins().iconst(types::I64, k as i64);
        let st = self.call(b, "rtc_lu_solve", &[jp, rp, kk]);
        let singular = b.create_block();
        let solved = b.create_block();
        b.ins().brif(st, solved, &[], singular, &[]);
        b.switch_to_block(singular);
        b.seal_block(singular);
        let code = b.ins().iconst(types::I32, 3 | ((blk.index as i64) << 4));
        b.ins().return_(&[code]);
        b.switch_to_block(solved);
        b.seal_block(solved);
        self.memo.clear();
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
                // A non-finite new value is never small (x − x ≠ 0 for NaN and ±inf).
                let xx = b.ins().fsub(x, x);
                let zero = b.ins().f64const(0.0);
                let finite = b.ins().fcmp(FloatCC::Equal, xx, zero);
                let c = b.ins().band(not_gt, finite);
                all = b.ins().band(all, c);
                b.ins()
                    .store(MemFlagsData::trusted(), x, self.mem, (t.index() * 8) as i32);
            }
            b.def_var(small, all);
            b.ins().jump(eval, &[]);
        }
        b.seal_block(eval);
        b.switch_to_block(ok);
        b.seal_block(ok);
        self.memo.clear();
    }
}

impl Jit {
    /// Memory for this model: the plan's slots and the scratch area.
    pub fn memory(&self) -> Vec<f64> {
        vec![0.0; self.slots + self.scratch]
    }

    fn decode(&self, mem: &[f64], code: i32) -> Status {
        let detail = (code >> 4) as usize;
        match code & 15 {
            0 => Status::Ok,
            1 => {
                let k = self.block_sizes.get(&detail).copied().unwrap_or(0);
                let base = self.residual_offset + 1;
                let residual = mem[base..base + k]
                    .iter()
                    .fold(0.0f64, |m, x| m.max(x.abs()));
                Status::NotConverged {
                    block: detail,
                    residual,
                }
            }
            2 if detail as i64 == NO_DETAIL => {
                let var = self
                    .checked
                    .iter()
                    .copied()
                    .find(|v| !mem[v.index()].is_finite())
                    .unwrap_or(VarId(0));
                Status::NonFinite { var }
            }
            2 => Status::NonFinite {
                var: VarId(detail as u32),
            },
            _ => Status::Singular { block: detail },
        }
    }

    pub fn init(&self, mem: &mut [f64], t0: f64) -> Status {
        assert!(mem.len() >= self.slots + self.scratch);
        // SAFETY: `mem` is at least the layout's size, checked above.
        let code = unsafe { (self.init)(mem.as_mut_ptr(), t0) };
        self.decode(mem, code)
    }

    pub fn step(&self, mem: &mut [f64], t: f64, h: f64) -> Status {
        assert!(mem.len() >= self.slots + self.scratch);
        // SAFETY: as in `init`.
        let code = unsafe { (self.step)(mem.as_mut_ptr(), t, h) };
        self.decode(mem, code)
    }
}
