//! Code generation: a step plan lowered to Cranelift IR, JIT-compiled ([`jit`]) or written
//! to a relocatable object for another target ([`object`]). Both go through the same
//! generator, generic over `cranelift_module::Module`, so the embedded object runs exactly the
//! code the JIT runs.
//!
//! ABI (one memory block of f64 slots, laid out as the plan's variable table followed by a
//! scratch area for the Newton blocks; `<m>` is the symbol prefix):
//!
//! ```c
//! int32_t <m>_init(double *mem, double t0);          // parameters, start values, model at t0
//! int32_t <m>_step(double *mem, double t, double h); // one step from t to t + h
//! int32_t <m>_outputs(const double *mem, double *out); // every named variable, in table order
//! int32_t <m>_parameters(double *mem);   // after changing parameters: recompute dependents
//! ```
//!
//! The status is the interpreter's code in the low 4 bits (0 ok, 1 not converged, 2
//! non-finite, 3 singular) and the block index or variable slot above them. The lowering
//! mirrors the interpreter operation for operation (same libm functions, same LU with partial
//! pivoting, same integer powers, same Newton tests, `min`/`max` spelled out with the same
//! comparisons), so results agree bitwise. The LU solve and the integer power are generated
//! as Cranelift functions of the module (no Rust helpers), so an object file needs nothing but
//! the C math library.
//!
//! Large plans are split into chunk functions of bounded size, called in order from the entry
//! points, so register allocation stays near linear in the model size. Torn loops of up to
//! four tearing variables are solved in registers (`lu.rs`).
//!
//! Every unknown is checked for finiteness after an entry (divergence is reported, never
//! silent): each value no later checked value propagates (`summed_checks`) is added, where
//! it is computed, into running sums (a sum of finite values is finite unless it overflows; a
//! NaN or infinity makes it non-finite); the chunks
//! accumulate the entry's sum in the first scratch slot, the entry tests it, and only when it is
//! not finite does it call `<m>_<entry>_verify`, which scans the checked slots in the interpreter's (ascending) order to name the first
//! non-finite one. On x86-64 and AArch64, neighbouring assignments of the same shape are
//! computed in the two lanes of an f64x2 ([`pair_up`]); the paired operations are exact per
//! lane, so results stay bitwise equal to the interpreter's. Runs of repeated assignments are
//! generated as loops (`roll.rs`).

mod band;
mod helpers;
mod jit;
mod lower;
mod lu;
mod object;
mod pieces;
mod roll;

use lower::{Lower, Slide};
use pieces::{
    inline_checks, lower_piece, pair_up, summed_checks, vector_compares, Piece, Sums,
    PAIR_MIN_ASSIGNMENTS,
};

pub use jit::{jit, lu_kernels, Jit, LuKernels};
pub use object::{object, Cpu, CpuError, ObjectCode, Target, TARGETS};

use crate::plan::{kind, Assign, EventId, Plan, StatusWord, Stmt, TornBlock};
use crate::symbolic::{CmpOp, EntityVec, ExprId, Func1, Func2};

type Node = crate::symbolic::Node<Slot>;
use crate::plan::Slot;
use cranelift_codegen::ir::condcodes::{FloatCC, IntCC};
use cranelift_codegen::ir::{
    types, AbiParam, FuncRef, InstBuilder, MemFlagsData, Signature, Value,
};
use cranelift_codegen::settings::{self, Configurable};
use cranelift_frontend::{FunctionBuilder, FunctionBuilderContext};
use cranelift_module::{FuncId, Linkage, Module};
use rustc_hash::{FxHashMap, FxHashSet};

/// Status detail meaning "look it up": the caller scans the checked slots.
const NO_DETAIL: i64 = 0x7ff_ffff;

/// The size chunk functions aim at, in expression nodes (`pieces::chunk_ends`).
const CHUNK_NODES: usize = 1000;

/// Names under which the generated helper functions are referenced inside a chunk.
const LU: &str = "rtc.lu_solve";
const POW: &str = "rtc.pow";

/// The C math library function for `f` (its Modelica name is the C name), or `None` for the
/// functions Cranelift has instructions for.
fn libm_name(f: Func1) -> Option<&'static str> {
    match f {
        Func1::Sqrt | Func1::Abs | Func1::Sign | Func1::Floor | Func1::Ceil => None,
        _ => Some(f.name()),
    }
}

/// Whether `name` is a C math library function (the rest the code calls are the model's
/// external functions).
pub fn is_libm(name: &str) -> bool {
    name == "atan2" || name == "pow" || Func1::ALL.iter().any(|f| f.name() == name)
}

/// The number of arguments of external function `name` in `plan`.
fn arity_of(plan: &Plan, name: &str) -> usize {
    for k in 0..plan.arena.len() {
        match plan.arena.node(ExprId::new(k)) {
            Node::Call1(Func1::Ext(e), _) if e.name() == name => return 1,
            Node::Call2(Func2::Ext(e), ..) if e.name() == name => return 2,
            _ => {}
        }
    }
    1
}

/// The external functions `plan` calls.
pub fn externals(plan: &Plan) -> Vec<crate::symbolic::external::ExtFn> {
    let mut out = Vec::new();
    for k in 0..plan.arena.len() {
        let f = match plan.arena.node(ExprId::new(k)) {
            Node::Call1(Func1::Ext(e), _) | Node::Call2(Func2::Ext(e), ..) => e,
            _ => continue,
        };
        if !out.contains(&f) {
            out.push(f);
        }
    }
    out
}

/// An exponent the lowering unrolls: an integer constant of magnitude ≤ 64 (as
/// [`crate::symbolic::eval::pow`] decides).
fn int_exponent(ar: &crate::symbolic::Arena<Slot>, e: ExprId) -> Option<i32> {
    match ar.node(e) {
        Node::Const(bits) => {
            let y = f64::from_bits(bits);
            (y == y.trunc() && y.abs() <= 64.0).then_some(y as i32)
        }
        _ => None,
    }
}

/// The C math library functions and helpers the expressions at `roots` call (name,
/// arguments), and the compiled functions they call (by index).
fn calls_in(
    ar: &crate::symbolic::Arena<Slot>,
    roots: Vec<ExprId>,
) -> (Vec<(&'static str, usize)>, Vec<u32>) {
    let mut names: Vec<(&'static str, usize)> = Vec::new();
    let mut fns = Vec::new();
    let mut seen = FxHashSet::default();
    let mut stack = roots;
    while let Some(id) = stack.pop() {
        if !seen.insert(id) {
            continue;
        }
        let entry = match ar.node(id) {
            Node::Pow(_, y) if int_exponent(ar, y).is_some() => None,
            Node::Pow(..) => Some((POW, 2)),
            Node::Call2(Func2::Atan2, ..) => Some(("atan2", 2)),
            Node::Call2(Func2::Ext(e), ..) => Some((e.name(), 2)),
            Node::Call1(f, _) => libm_name(f).map(|n| (n, 1)),
            Node::Call(c) => {
                let f = ar.call_site(c).f.0;
                if !fns.contains(&f) {
                    fns.push(f);
                }
                None
            }
            _ => None,
        };
        if let Some((n, k)) = entry {
            if !names.iter().any(|x| x.0 == n) {
                names.push((n, k));
            }
        }
        stack.extend(ar.children(id));
    }
    fns.sort_unstable();
    (names, fns)
}

/// Settings shared by every target; `opt_level` as measured below.
fn base_flags(pic: bool) -> Result<settings::Builder, CodegenError> {
    let mut flags = settings::builder();
    flags.set("use_colocated_libcalls", "false").map_err(err)?;
    flags
        .set("is_pic", if pic { "true" } else { "false" })
        .map_err(err)?;
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
    Ok(flags)
}

/// Whether `x` is finite, as a Cranelift truth value: x − x is 0 for finite x, NaN for NaN
/// and ±inf.
fn finite_test(b: &mut FunctionBuilder, x: Value) -> Value {
    let d = b.ins().fsub(x, x);
    let zero = b.ins().f64const(0.0);
    b.ins().fcmp(FloatCC::Equal, d, zero)
}

/// Stack use of one generated function: its own frame and the functions it calls.
#[derive(Clone, Debug, Default)]
struct Frame {
    bytes: u32,
    callees: Vec<FuncId>,
    /// Calls a C math library function (whose own stack use is the library's).
    calls_libm: bool,
}

/// What the generator produced, ready for the JIT to finalise or the object to be written.
struct Generated<M: Module> {
    module: M,
    init: FuncId,
    /// `<prefix>_start` (objects only): init keeping the tunable parameters in memory.
    #[allow(dead_code)] // named by its symbol, not called from Rust
    start: Option<FuncId>,
    step: FuncId,
    outputs: FuncId,
    parameters: FuncId,
    /// Event functions (models with events).
    zc: Option<FuncId>,
    pre: Option<FuncId>,
    event_fns: EntityVec<EventId, FuncId>,
    /// The assertions' conditions, 0/1 (models with assertions).
    asserts: Option<FuncId>,
    clif: Vec<String>,
    frames: FxHashMap<FuncId, Frame>,
    /// The C math library functions the code calls.
    libm: Vec<&'static str>,
}

impl<M: Module> Generated<M> {
    /// Deepest stack use, in bytes, of the generated code below `f` (frames only).
    fn stack_bytes(&self, f: FuncId) -> (u32, bool) {
        let Some(fr) = self.frames.get(&f) else {
            return (0, false);
        };
        let mut deepest = 0;
        let mut libm = fr.calls_libm;
        for &c in &fr.callees {
            let (b, l) = self.stack_bytes(c);
            deepest = deepest.max(b);
            libm |= l;
        }
        (fr.bytes + deepest, libm)
    }
}

struct Gen<'p, M: Module> {
    plan: &'p Plan,
    module: M,
    prefix: String,
    fctx: FunctionBuilderContext,
    imports: FxHashMap<&'static str, FuncId>,
    clif: Option<Vec<String>>,
    scratch_base: usize,
    newton_max: u32,
    frames: FxHashMap<FuncId, Frame>,
    /// Export the entry points through a shim that preserves fs1 (riscv64).
    riscv_fs1_shim: bool,
    /// An earlier chunk of the entry being generated stored its finiteness sum in the
    /// check-sum slot.
    check_sum_stored: bool,
    /// The plan's compiled functions defined so far, by index.
    compiled: FxHashMap<u32, FuncId>,
    /// The band LU solves defined so far, by band (`band.rs`).
    bands: FxHashMap<(usize, usize), FuncId>,
    /// The verify functions ([`Gen::define_verify`]): an entry tests the check sum itself
    /// and calls one only when the sum is not finite.
    verifies: FxHashSet<FuncId>,
}

/// Why code generation failed: the door between the plan and the generated code.
#[derive(Debug, thiserror::Error)]
pub enum CodegenError {
    /// External C functions the model calls that neither rtc nor a loaded library defines
    /// (a user's missing `--link`; the run checks this before it generates code).
    #[error("external C function{} {} not found: give the library that defines {} with --link PATH", if .0.len() == 1 { "" } else { "s" }, .0.iter().map(|m| format!("`{m}`")).collect::<Vec<_>>().join(", "), if .0.len() == 1 { "it" } else { "them" })]
    MissingExternals(Vec<String>),
    /// Cranelift refused what rtc generated, or the target is not supported by this build:
    /// a bug in rtc or an unsupported host, with Cranelift's words.
    #[error("{0}")]
    Backend(String),
    /// `--target-cpu` named what the target does not have (a user's mistake).
    #[error("{0}")]
    Cpu(CpuError),
}

fn err<E: std::fmt::Display>(e: E) -> CodegenError {
    CodegenError::Backend(e.to_string())
}

/// Lowers `plan` into `module`: `<prefix>_init`, `<prefix>_step`, `<prefix>_outputs` and their
/// chunk and helper functions.
fn generate<M: Module>(
    plan: &Plan,
    module: M,
    prefix: &str,
    emit_clif: bool,
    riscv_fs1_shim: bool,
    with_start: bool,
) -> Result<Generated<M>, CodegenError> {
    let mut g = Gen::new(plan, module, prefix, emit_clif, riscv_fs1_shim);
    // init: parameters, start values, the model at t0, finiteness.
    let mut init_pieces: Vec<Piece> = Vec::new();
    let param_assigns: Vec<Assign> = plan
        .parameters
        .iter()
        .chain(&plan.hoisted)
        .chain(&plan.starts)
        .filter_map(|&p| {
            plan.vars[p].binding.map(|b| Assign {
                var: p,
                expr: b,
                span: plan.vars[p].span,
            })
        })
        .collect();
    for a in &param_assigns {
        init_pieces.push(Piece::Assign(a));
    }
    push_stmts(&mut init_pieces, &plan.init);
    let checked: Vec<Slot> = plan.unknown_slots();
    init_pieces.extend(checked.iter().map(|&v| Piece::Check(v)));
    let init_chunks = g.chunks("init", init_pieces)?;
    let init = g.entry("init", &init_chunks, Entry::Init)?;
    // start: init from the tunable parameters already in memory (set by the caller, an FMU's
    // master) instead of their defaults: every other parameter, the start values and the
    // model at t0 follow from them.
    let start = if with_start {
        let tunable = plan.tunable_parameters();
        let mut pieces: Vec<Piece> = param_assigns
            .iter()
            .filter(|a| !tunable.contains(&a.var))
            .map(Piece::Assign)
            .collect();
        push_stmts(&mut pieces, &plan.init);
        pieces.extend(checked.iter().map(|&v| Piece::Check(v)));
        let chunks = g.chunks("start", pieces)?;
        Some(g.entry("start", &chunks, Entry::Init)?)
    } else {
        None
    };
    let mut step_pieces: Vec<Piece> = plan
        .pre_copies
        .iter()
        .map(|&(p, v)| Piece::Copy(p, v))
        .collect();
    push_stmts(&mut step_pieces, &plan.step);
    step_pieces.extend(checked.iter().map(|&v| Piece::Check(v)));
    let step_chunks = g.chunks("step", step_pieces)?;
    let step = g.entry("step", &step_chunks, Entry::Step)?;
    let out_pieces: Vec<Piece> = plan
        .outputs
        .iter()
        .enumerate()
        .map(|(i, o)| Piece::Output(i, o.expr))
        .collect();
    let out_chunks = g.chunks("outputs", out_pieces)?;
    let outputs = g.entry("outputs", &out_chunks, Entry::Outputs)?;
    let updates: Vec<Assign> = plan
        .parameter_updates()
        .into_iter()
        .map(|(var, expr)| Assign {
            var,
            expr,
            span: plan.vars[var].span,
        })
        .collect();
    let upd_chunks = g.chunks("parameters", updates.iter().map(Piece::Assign).collect())?;
    let parameters = g.entry("parameters", &upd_chunks, Entry::Parameters)?;
    // Events: `zc` writes every event's zero-crossing function (or its discrete condition as
    // 0/1), then the time derivatives of those located by a cubic, then the live values of
    // the events' relations (others left alone); `pre` makes the copies that start a round
    // of an event iteration (the discrete pre copies and the slots the events read as
    // pre(v)); `event<k>` runs event k's actions in order (assignments sorted, then
    // re-initialisations).
    let actions: EntityVec<EventId, Vec<Assign>> = plan
        .events
        .iter()
        .map(|e| {
            e.assigns
                .iter()
                .chain(&e.reinits)
                .map(|&(var, expr)| Assign {
                    var,
                    expr,
                    span: e.span,
                })
                .collect()
        })
        .collect();
    let mut zc = None;
    let mut pre = None;
    let mut event_fns = EntityVec::new();
    if !plan.events.is_empty() {
        let n = plan.events.len();
        let pieces: Vec<Piece> = plan
            .events
            .iter()
            .enumerate()
            .map(|(k, e)| Piece::Output(k, e.discrete.unwrap_or(e.z)))
            .chain(
                plan.events
                    .iter()
                    .enumerate()
                    .filter_map(|(k, e)| e.dz.map(|d| Piece::Output(n + k, d))),
            )
            .chain(
                plan.events
                    .iter()
                    .enumerate()
                    .filter_map(|(k, e)| e.relation.map(|r| Piece::Output(2 * n + k, r.live))),
            )
            .collect();
        let chunks = g.chunks("zc", pieces)?;
        zc = Some(g.entry("zc", &chunks, Entry::Outputs)?);
        for (k, a) in actions.iter_enumerated() {
            let name = format!("event{k}");
            let chunks = g.chunks(&name, a.iter().map(Piece::Assign).collect())?;
            event_fns.push(g.entry(&name, &chunks, Entry::Parameters)?);
        }
    }
    if !plan.events.is_empty() || !plan.discrete_pre.is_empty() {
        let copies = plan.round_pre_copies();
        let chunks = g.chunks(
            "pre",
            copies.iter().map(|&(p, v)| Piece::Copy(p, v)).collect(),
        )?;
        pre = Some(g.entry("pre", &chunks, Entry::Parameters)?);
    }
    // asserts: every assertion's condition as 0/1, those checked after every step first, then
    // those of `when initial()`, then the warning-level ones (the run loop's numbering).
    let asserts = if plan.all_assertions().next().is_none() {
        None
    } else {
        let pieces: Vec<Piece> = plan
            .all_assertions()
            .enumerate()
            .map(|(k, (e, _))| Piece::Output(k, *e))
            .collect();
        let chunks = g.chunks("asserts", pieces)?;
        Some(g.entry("asserts", &chunks, Entry::Outputs)?)
    };
    let mut libm: Vec<&'static str> = g
        .imports
        .keys()
        .copied()
        .filter(|n| !n.starts_with("rtc."))
        .collect();
    libm.sort_unstable();
    Ok(Generated {
        init,
        start,
        step,
        outputs,
        parameters,
        zc,
        pre,
        event_fns,
        asserts,
        clif: g.clif.take().unwrap_or_default(),
        frames: std::mem::take(&mut g.frames),
        libm,
        module: g.module,
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

#[derive(Clone, Copy, PartialEq, Eq)]
enum Entry {
    Init,
    Step,
    Outputs,
    Parameters,
}

impl<'p, M: Module> Gen<'p, M> {
    fn new(plan: &'p Plan, module: M, prefix: &str, emit_clif: bool, riscv_fs1_shim: bool) -> Self {
        Gen {
            plan,
            module,
            prefix: prefix.to_string(),
            fctx: FunctionBuilderContext::new(),
            imports: FxHashMap::default(),
            clif: if emit_clif { Some(Vec::new()) } else { None },
            scratch_base: plan.vars.len() + 1,
            newton_max: plan.newton.max_iterations,
            frames: FxHashMap::default(),
            riscv_fs1_shim,
            check_sum_stored: false,
            compiled: FxHashMap::default(),
            bands: FxHashMap::default(),
            verifies: FxHashSet::default(),
        }
    }

    /// The function for `name`: a C math library import, or one of our generated helpers
    /// (defined on first use).
    fn import(&mut self, name: &'static str, params: usize) -> Result<FuncId, CodegenError> {
        if let Some(&id) = self.imports.get(name) {
            return Ok(id);
        }
        let id = match name {
            LU => self.define_lu()?,
            POW => self.define_pow()?,
            _ => {
                let mut sig = self.module.make_signature();
                for _ in 0..params {
                    sig.params.push(AbiParam::new(types::F64));
                }
                sig.returns.push(AbiParam::new(types::F64));
                self.module
                    .declare_function(name, Linkage::Import, &sig)
                    .map_err(err)?
            }
        };
        self.imports.insert(name, id);
        Ok(id)
    }

    /// The expression nodes of a piece, for cutting chunks (`memo`: the work of each wide
    /// call, walked once).
    fn piece_size(&self, p: &Piece, memo: &mut crate::plan::WideWork) -> usize {
        let ar = &self.plan.arena;
        let work = |roots: &[ExprId], memo: &mut crate::plan::WideWork| {
            crate::plan::expr_work_shared(ar, roots, lower::WIDE_CALL, memo).flops as usize
        };
        match p {
            Piece::Copy(..) => 2,
            Piece::Check(_) => 3,
            Piece::Assign(a) => work(&[a.expr], memo) + 2,
            Piece::Pair(a, b) => work(&[a.expr, b.expr], memo) + 4,
            Piece::Output(_, e) => work(&[*e], memo) + 2,
            // The body holds the template a few times, the tail follows it.
            Piece::Roll(r) => {
                let one: usize = r.pieces[..r.period]
                    .iter()
                    .map(|p| self.piece_size(p, memo))
                    .sum();
                one * 2 * roll::UNROLL / r.period.min(roll::UNROLL) + 10
            }
            Piece::Block(b) => {
                let mut roots: Vec<ExprId> =
                    b.inner.iter().chain(&b.tangents).map(|a| a.expr).collect();
                roots.extend(&b.residuals);
                roots.extend(&b.jacobian);
                roots.extend(&b.residual_scales);
                work(&roots, memo) + 10
            }
        }
    }

    /// The functions `pieces` call: (name, arguments), and the compiled functions of the
    /// plan they call (by index).
    fn needed_imports(&self, pieces: &[Piece]) -> (Vec<(&'static str, usize)>, Vec<u32>) {
        let mut roots = Vec::new();
        let mut lu = false;
        for p in pieces {
            match p {
                Piece::Assign(a) => roots.push(a.expr),
                Piece::Pair(a, b) => roots.extend([a.expr, b.expr]),
                Piece::Output(_, e) => roots.push(*e),
                Piece::Roll(r) => {
                    for p in &r.pieces[..r.period] {
                        match p {
                            Piece::Assign(a) => roots.push(a.expr),
                            Piece::Pair(a, b) => roots.extend([a.expr, b.expr]),
                            _ => {}
                        }
                    }
                }
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
        let (mut names, fns) = calls_in(&self.plan.arena, roots);
        if lu {
            names.push((LU, 7));
        }
        names.sort();
        (names, fns)
    }

    /// Compiled function `k` of the plan (defined on first use): `void f(const double *args,
    /// double *outs)`, its body lowered as the chunks lower expressions, so a call computes
    /// what the interpreter's tape of the body computes, operation for operation.
    fn compiled_function(&mut self, k: u32) -> Result<FuncId, CodegenError> {
        if let Some(&id) = self.compiled.get(&k) {
            return Ok(id);
        }
        let f = self.plan.arena.function(crate::symbolic::FnId(k)).clone();
        let name = format!("{}_fn{k}", self.prefix);
        let mut ctx = self.module.make_context();
        ctx.func.signature.params.push(AbiParam::new(types::I64));
        ctx.func.signature.params.push(AbiParam::new(types::I64));
        if let Some(s) = &f.shim {
            // A C shim around an external call: the same signature, defined by the C library
            // rtc built for it (found by name, as `--link` libraries are).
            let id = self
                .module
                .declare_function(&s.symbol, Linkage::Import, &ctx.func.signature)
                .map_err(err)?;
            self.compiled.insert(k, id);
            return Ok(id);
        }
        let id = self
            .module
            .declare_function(&name, Linkage::Local, &ctx.func.signature)
            .map_err(err)?;
        self.compiled.insert(k, id);
        // The body over the plan's slot type (it has no variables).
        let body: crate::symbolic::Arena<Slot> = f.body.map_vars(|_| Slot::new(0));
        let (names, nested) = calls_in(&body, f.outs.clone());
        debug_assert!(
            nested.is_empty(),
            "function bodies call no compiled function"
        );
        let mut ids = Vec::new();
        for (n, p) in names {
            ids.push((n, self.import(n, p)?));
        }
        {
            let mut b = FunctionBuilder::new(&mut ctx.func, &mut self.fctx);
            let mut refs: FxHashMap<&'static str, FuncRef> = FxHashMap::default();
            for (n, fid) in &ids {
                refs.insert(n, self.module.declare_func_in_func(*fid, b.func));
            }
            let entry = b.create_block();
            b.append_block_params_for_function_params(entry);
            b.switch_to_block(entry);
            b.seal_block(entry);
            let (args, outs) = (b.block_params(entry)[0], b.block_params(entry)[1]);
            let mut l = Lower {
                plan: self.plan,
                arena: &body,
                mem: args,
                args: Some(args),
                refs,
                fn_refs: FxHashMap::default(),
                band_refs: FxHashMap::default(),
                memo: FxHashMap::default(),
                calls: FxHashMap::default(),
                wide_calls: FxHashMap::default(),
                splats: FxHashMap::default(),
                scratch_base: self.scratch_base,
                newton_max: self.newton_max,
                roll: None,
                slide: Slide::default(),
            };
            for (i, &o) in f.outs.iter().enumerate() {
                let v = l.expr(&mut b, o);
                b.ins()
                    .store(MemFlagsData::trusted(), v, outs, (i * 8) as i32);
            }
            b.ins().return_(&[]);
            b.finalize(self.module.isa().frontend_config());
        }
        let callees: Vec<FuncId> = ids.iter().map(|x| x.1).collect();
        let libm = ids.iter().any(|(n, _)| !n.starts_with("rtc."));
        self.define(&name, id, &mut ctx, callees, libm)?;
        Ok(id)
    }

    /// Splits pieces into chunk functions `(mem, out) -> status` and defines them.
    fn chunks(
        &mut self,
        prefix: &str,
        pieces: Vec<Piece<'p>>,
    ) -> Result<Vec<FuncId>, CodegenError> {
        let vector = matches!(
            self.module.isa().triple().architecture,
            target_lexicon::Architecture::X86_64 | target_lexicon::Architecture::Aarch64(_)
        );
        // Small steps stay scalar: their values are still in the store buffer when the next
        // step reads them, and a vector load that spans two scalar stores (or half of a vector
        // store) cannot be forwarded — measured on the n = 5 line, pairing made the step
        // 1.5 times slower; from a few dozen assignments on it pays.
        let assigns = pieces
            .iter()
            .filter(|p| matches!(p, Piece::Assign(_)))
            .count();
        let inline = inline_checks(&pieces);
        let summed = summed_checks(&self.plan.arena, &pieces, &inline);
        let checks: Vec<usize> = pieces
            .iter()
            .filter_map(|p| match p {
                Piece::Check(v) => Some(v.index()),
                _ => None,
            })
            .collect();
        self.check_sum_stored = false;
        let pieces = if vector && assigns >= PAIR_MIN_ASSIGNMENTS {
            pair_up(&self.plan.arena, pieces, vector_compares(self.module.isa()))
        } else {
            pieces
        };
        // Checks of values seen where they are assigned need no code of their own.
        let pieces: Vec<Piece> = pieces
            .into_iter()
            .filter(|p| !matches!(p, Piece::Check(v) if inline.contains(v)))
            .collect();
        let pieces = roll::roll_up(&self.plan.arena, pieces, &summed);
        let mut memo = crate::plan::WideWork::default();
        let sizes: Vec<usize> = pieces
            .iter()
            .map(|p| self.piece_size(p, &mut memo))
            .collect();
        let sizes = pieces::share_wide_calls(&self.plan.arena, &pieces, sizes, &mut memo);
        let ends = pieces::chunk_ends(&self.plan.arena, &pieces, &sizes);
        let mut groups: Vec<Vec<Piece>> = Vec::with_capacity(ends.len());
        let mut it = pieces.into_iter();
        let mut start = 0;
        for end in ends {
            groups.push(it.by_ref().take(end - start).collect());
            start = end;
        }
        let mut ids = Vec::new();
        for (k, group) in groups.into_iter().enumerate() {
            if group.is_empty() {
                continue;
            }
            let name = format!("{}_{prefix}_chunk{k}", self.prefix);
            ids.push(self.define_chunk(&name, &group, &summed)?);
        }
        if !checks.is_empty() {
            let name = format!("{}_{prefix}_verify", self.prefix);
            let v = self.define_verify(&name, &checks)?;
            self.verifies.insert(v);
            ids.push(v);
        }
        Ok(ids)
    }

    /// A local `int32_t f(double *mem, double *out)`, declared, with its context.
    fn declare_chunk(
        &mut self,
        name: &str,
    ) -> Result<(cranelift_codegen::Context, FuncId), CodegenError> {
        let mut ctx = self.module.make_context();
        ctx.func.signature.params.push(AbiParam::new(types::I64));
        ctx.func.signature.params.push(AbiParam::new(types::I64));
        ctx.func.signature.returns.push(AbiParam::new(types::I32));
        let id = self
            .module
            .declare_function(name, Linkage::Local, &ctx.func.signature)
            .map_err(err)?;
        Ok((ctx, id))
    }

    /// The entry's finiteness test: the check sum the chunks accumulated; if it is not
    /// finite, the checked slots are scanned in the interpreter's order (ascending slots, one
    /// loop per run of consecutive slots, so the code does not grow with the model) and the
    /// first non-finite one is named. A sum that overflowed from finite values finds none and
    /// the step goes on. The scan's trip count is the number of checked slots, fixed at compile
    /// time, so the step's work stays bounded.
    fn define_verify(&mut self, name: &str, checks: &[usize]) -> Result<FuncId, CodegenError> {
        debug_assert!(
            checks.windows(2).all(|w| w[0] < w[1]),
            "checks in slot order"
        );
        let ptr = self.module.target_config().pointer_type();
        let (mut ctx, id) = self.declare_chunk(name)?;
        {
            let mut b = FunctionBuilder::new(&mut ctx.func, &mut self.fctx);
            let entry = b.create_block();
            b.append_block_params_for_function_params(entry);
            b.switch_to_block(entry);
            b.seal_block(entry);
            let mem = b.block_params(entry)[0];
            let check_slot = self.scratch_base - 1;
            let sum = b.ins().load(
                types::F64,
                MemFlagsData::trusted(),
                mem,
                (check_slot * 8) as i32,
            );
            let finite = finite_test(&mut b, sum);
            let slow = b.create_block();
            let ok = b.create_block();
            b.ins().brif(finite, ok, &[], slow, &[]);
            b.switch_to_block(slow);
            b.seal_block(slow);
            b.set_cold_block(slow);
            let bad = b.create_block();
            b.append_block_param(bad, ptr);
            b.set_cold_block(bad);
            let mut runs: Vec<(usize, usize)> = Vec::new();
            for &s in checks {
                match runs.last_mut() {
                    Some(r) if r.1 == s => r.1 = s + 1,
                    _ => runs.push((s, s + 1)),
                }
            }
            for (first, end) in runs {
                // for i in first..end: if mem[i] is not finite, return its status.
                let head = b.create_block();
                let next = b.create_block();
                let after = b.create_block();
                b.append_block_param(head, ptr);
                for blk in [head, next, after] {
                    b.set_cold_block(blk);
                }
                let i0 = b.ins().iconst(ptr, first as i64);
                b.ins().jump(head, &[i0.into()]);
                b.switch_to_block(head);
                let i = b.block_params(head)[0];
                let off = b.ins().ishl_imm_u(i, 3);
                let addr = b.ins().iadd(mem, off);
                let x = b.ins().load(types::F64, MemFlagsData::trusted(), addr, 0);
                let fin = finite_test(&mut b, x);
                b.ins().brif(fin, next, &[], bad, &[i.into()]);
                b.switch_to_block(next);
                b.seal_block(next);
                let i1 = b.ins().iadd_imm_u(i, 1);
                let more = b.ins().icmp_imm_u(IntCC::UnsignedLessThan, i1, end as i64);
                b.ins().brif(more, head, &[i1.into()], after, &[]);
                b.seal_block(head);
                b.switch_to_block(after);
                b.seal_block(after);
            }
            b.ins().jump(ok, &[]);
            b.switch_to_block(bad);
            b.seal_block(bad);
            let slot = b.block_params(bad)[0];
            let shifted = b.ins().ishl_imm_u(slot, i64::from(StatusWord::KIND_BITS));
            let code = b.ins().bor_imm_u(shifted, i64::from(kind::NON_FINITE));
            let code = if ptr == types::I32 {
                code
            } else {
                b.ins().ireduce(types::I32, code)
            };
            b.ins().return_(&[code]);
            b.switch_to_block(ok);
            b.seal_block(ok);
            let r = b.ins().iconst(types::I32, 0);
            b.ins().return_(&[r]);
            b.finalize(self.module.isa().frontend_config());
        }
        self.define(name, id, &mut ctx, Vec::new(), false)?;
        Ok(id)
    }

    /// Defines the function in `ctx` as `id` and records its frame.
    fn define(
        &mut self,
        name: &str,
        id: FuncId,
        ctx: &mut cranelift_codegen::Context,
        callees: Vec<FuncId>,
        calls_libm: bool,
    ) -> Result<(), CodegenError> {
        if let Some(c) = &mut self.clif {
            c.push(format!("; {name}\n{}", ctx.func.display()));
        }
        self.module
            .define_function(id, ctx)
            .map_err(|e| CodegenError::Backend(format!("{name}: {e:?}")))?;
        // The frame below the frame pointer, plus the frame pointer and the return address.
        let below_fp = ctx
            .compiled_code()
            .and_then(|c| c.buffer.frame_layout())
            .map_or(0, |f| f.frame_to_fp_offset);
        let word = u32::from(self.module.isa().pointer_bytes());
        self.frames.insert(
            id,
            Frame {
                bytes: below_fp + 2 * word,
                callees,
                calls_libm,
            },
        );
        self.module.clear_context(ctx);
        Ok(())
    }

    fn define_chunk(
        &mut self,
        name: &str,
        pieces: &[Piece],
        summed: &FxHashSet<Slot>,
    ) -> Result<FuncId, CodegenError> {
        // Imports used by this chunk, declared in the function.
        let mut ids = Vec::new();
        let (names, fns) = self.needed_imports(pieces);
        for (n, p) in names {
            ids.push((n, self.import(n, p)?));
        }
        let mut fn_ids = Vec::new();
        for k in fns {
            fn_ids.push((k, self.compiled_function(k)?));
        }
        // The band LU solves of the chunk's long chains (`band.rs`).
        let mut band_ids = Vec::new();
        for p in pieces {
            if let Piece::Block(blk) = p {
                let n = blk.tearing.len();
                if n > lu::SMALL_LU && band::eligible(n, blk.band) {
                    band_ids.push((blk.band, self.band_lu(blk.band)?));
                }
            }
        }
        let (mut ctx, id) = self.declare_chunk(name)?;
        {
            let mut b = FunctionBuilder::new(&mut ctx.func, &mut self.fctx);
            let mut refs: FxHashMap<&'static str, FuncRef> = FxHashMap::default();
            for (n, fid) in &ids {
                let r = self.module.declare_func_in_func(*fid, b.func);
                refs.insert(n, r);
            }
            let mut fn_refs: FxHashMap<u32, FuncRef> = FxHashMap::default();
            for (k, fid) in &fn_ids {
                fn_refs.insert(*k, self.module.declare_func_in_func(*fid, b.func));
            }
            let mut band_refs = FxHashMap::default();
            for (k, fid) in &band_ids {
                band_refs.insert(*k, self.module.declare_func_in_func(*fid, b.func));
            }
            let entry = b.create_block();
            b.append_block_params_for_function_params(entry);
            b.switch_to_block(entry);
            b.seal_block(entry);
            let mem = b.block_params(entry)[0];
            let out = b.block_params(entry)[1];
            let mut l = Lower {
                plan: self.plan,
                arena: &self.plan.arena,
                mem,
                args: None,
                refs,
                fn_refs,
                band_refs,
                memo: FxHashMap::default(),
                calls: FxHashMap::default(),
                wide_calls: FxHashMap::default(),
                splats: FxHashMap::default(),
                scratch_base: self.scratch_base,
                newton_max: self.newton_max,
                roll: None,
                slide: Slide::default(),
            };
            let vector = matches!(
                self.module.isa().triple().architecture,
                target_lexicon::Architecture::X86_64 | target_lexicon::Architecture::Aarch64(_)
            );
            // Finiteness sums of the checked values this chunk assigns, added as they are
            // computed (no reload): four scalar and four vector sums, so that the additions do
            // not form one long dependency chain.
            let z0 = b.ins().f64const(0.0);
            let mut sums = Sums {
                s: [z0; 4],
                v: None,
                k: 0,
                kv: 0,
                any: false,
            };
            let ptr = self.module.target_config().pointer_type();
            for p in pieces {
                if let Piece::Roll(r) = p {
                    let (loop_sums, rest) = l.rolled(&mut b, r, summed, ptr);
                    for v in loop_sums {
                        if b.func.dfg.value_type(v) == types::F64 {
                            sums.add(&mut b, v);
                        } else {
                            sums.add_pair(&mut b, v);
                        }
                    }
                    for p in rest {
                        lower_piece(&mut l, &mut b, p, &mut sums, summed, out);
                    }
                } else {
                    lower_piece(&mut l, &mut b, p, &mut sums, summed, out);
                }
            }
            // Finiteness, one addition per value: a sum of finite values is finite unless it
            // overflows, and any NaN or infinity makes it non-finite. Values summed where
            // they were assigned (above) and values checked here but written elsewhere
            // (reloaded) go into the entry's check sum, which [`Gen::define_verify`] tests.
            let mut slots: Vec<usize> = pieces
                .iter()
                .filter_map(|p| match p {
                    Piece::Check(v) if !summed.contains(v) => Some(v.index()),
                    _ => None,
                })
                .collect();
            slots.sort_unstable();
            slots.dedup();
            // Two adjacent slots are loaded and added as one f64x2 where the target has
            // vector registers. Reloaded rather than kept live from the assignments: holding
            // every value in a register to the end of the chunk makes register allocation
            // superlinear.
            let mut k = 0;
            while k < slots.len() {
                if vector && k + 1 < slots.len() && slots[k + 1] == slots[k] + 1 {
                    let x = b.ins().load(
                        types::F64X2,
                        MemFlagsData::new().with_notrap(),
                        l.mem,
                        (slots[k] * 8) as i32,
                    );
                    sums.add_pair(&mut b, x);
                    k += 2;
                } else {
                    let x = l.load_slot(&mut b, slots[k]);
                    sums.add(&mut b, x);
                    k += 1;
                }
            }
            if sums.any {
                let total = sums.total(&mut b);
                let check_slot = self.scratch_base - 1;
                let running = if self.check_sum_stored {
                    let e = l.load_slot(&mut b, check_slot);
                    b.ins().fadd(e, total)
                } else {
                    total
                };
                l.store_slot(&mut b, check_slot, running);
                self.check_sum_stored = true;
            }
            let ok = b.ins().iconst(types::I32, 0);
            b.ins().return_(&[ok]);
            b.finalize(self.module.isa().frontend_config());
        }
        let callees: Vec<FuncId> = ids
            .iter()
            .map(|x| x.1)
            .chain(fn_ids.iter().map(|x| x.1))
            .chain(band_ids.iter().map(|x| x.1))
            .collect();
        let libm = ids.iter().any(|(n, _)| !n.starts_with("rtc."));
        self.define(name, id, &mut ctx, callees, libm)?;
        Ok(id)
    }

    /// `<m>_init(mem, t0)`, `<m>_step(mem, t, h)` or `<m>_outputs(mem, out)`: set the time
    /// slots, call the chunks in order, stop at the first failing one. With
    /// [`object::Target::riscv_fs1_shim`] the work is done in `<m>_<name>_body` and the
    /// exported function is the shim that preserves fs1 around it.
    fn entry(
        &mut self,
        name: &str,
        chunks: &[FuncId],
        kind: Entry,
    ) -> Result<FuncId, CodegenError> {
        let full = format!("{}_{name}", self.prefix);
        if !self.riscv_fs1_shim {
            return self.entry_body(&full, chunks, kind, Linkage::Export);
        }
        let body = self.entry_body(&format!("{full}_body"), chunks, kind, Linkage::Local)?;
        let sig = self.entry_signature(kind);
        let id = self
            .module
            .declare_function(&full, Linkage::Export, &sig)
            .map_err(err)?;
        // RV64 machine code: addi sp,sp,-16; sd ra,8(sp); fsd fs1,0(sp); call body (auipc ra /
        // jalr ra, relocated as R_RISCV_CALL_PLT); fld fs1,0(sp); ld ra,8(sp); addi sp,sp,16;
        // ret. Arguments and the result pass through untouched.
        let words: [u32; 9] = [
            0xff01_0113,
            0x0011_3423,
            0x0091_3027,
            0x0000_0097,
            0x0000_80e7,
            0x0001_3487,
            0x0081_3083,
            0x0101_0113,
            0x0000_8067,
        ];
        let bytes: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
        let reloc = cranelift_module::ModuleReloc {
            offset: 12,
            kind: cranelift_codegen::binemit::Reloc::RiscvCallPlt,
            name: body.into(),
            addend: 0,
        };
        self.module
            .define_function_bytes(id, 4, &bytes, &[reloc])
            .map_err(|e| CodegenError::Backend(format!("{full}: {e:?}")))?;
        self.frames.insert(
            id,
            Frame {
                bytes: 16,
                callees: vec![body],
                calls_libm: false,
            },
        );
        Ok(id)
    }

    fn entry_signature(&self, kind: Entry) -> Signature {
        let mut sig = self.module.make_signature();
        sig.params.push(AbiParam::new(types::I64));
        match kind {
            Entry::Init => sig.params.push(AbiParam::new(types::F64)),
            Entry::Step => {
                sig.params.push(AbiParam::new(types::F64));
                sig.params.push(AbiParam::new(types::F64));
            }
            Entry::Outputs => sig.params.push(AbiParam::new(types::I64)),
            Entry::Parameters => {}
        }
        sig.returns.push(AbiParam::new(types::I32));
        sig
    }

    fn entry_body(
        &mut self,
        name: &str,
        chunks: &[FuncId],
        kind: Entry,
        linkage: Linkage,
    ) -> Result<FuncId, CodegenError> {
        let plan = self.plan;
        let mut ctx = self.module.make_context();
        ctx.func.signature = self.entry_signature(kind);
        let id = self
            .module
            .declare_function(name, linkage, &ctx.func.signature)
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
            let flags = MemFlagsData::trusted();
            let off = |v: Slot| (v.index() * 8) as i32;
            let out = match kind {
                Entry::Step => {
                    let (t, h) = (params[1], params[2]);
                    b.ins().store(flags, t, mem, off(plan.step_start));
                    b.ins().store(flags, h, mem, off(plan.step_size));
                    let th = b.ins().fadd(t, h);
                    b.ins().store(flags, th, mem, off(plan.time));
                    b.ins().iconst(types::I64, 0)
                }
                Entry::Init => {
                    let t = params[1];
                    let zero = b.ins().f64const(0.0);
                    b.ins().store(flags, t, mem, off(plan.step_start));
                    b.ins().store(flags, zero, mem, off(plan.step_size));
                    b.ins().store(flags, t, mem, off(plan.time));
                    b.ins().iconst(types::I64, 0)
                }
                Entry::Outputs => params[1],
                Entry::Parameters => b.ins().iconst(types::I64, 0),
            };
            let check_slot = self.scratch_base - 1;
            for (r, c) in refs.into_iter().zip(chunks) {
                if self.verifies.contains(c) {
                    // The verify's own first test, here: a finite check sum (every checked
                    // value finite) returns without the call; the scan stays out of line.
                    let sum = b
                        .ins()
                        .load(types::F64, flags, mem, (check_slot * 8) as i32);
                    let finite = finite_test(&mut b, sum);
                    let scan = b.create_block();
                    let next = b.create_block();
                    b.ins().brif(finite, next, &[], scan, &[]);
                    b.switch_to_block(scan);
                    b.seal_block(scan);
                    b.set_cold_block(scan);
                    let call = b.ins().call(r, &[mem, out]);
                    let st = b.inst_results(call)[0];
                    let fail = b.create_block();
                    b.set_cold_block(fail);
                    b.ins().brif(st, fail, &[], next, &[]);
                    b.switch_to_block(fail);
                    b.seal_block(fail);
                    b.ins().return_(&[st]);
                    b.switch_to_block(next);
                    b.seal_block(next);
                    continue;
                }
                let call = b.ins().call(r, &[mem, out]);
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
        self.define(name, id, &mut ctx, chunks.to_vec(), false)?;
        Ok(id)
    }
}
