//! The plan interpreter: executes a step exactly as the plan specifies.
//!
//! It is the oracle generated code is tested against, and it makes `rtc run` work without code
//! generation. Each run of assignments is compiled once into a register tape (common
//! subexpressions shared within the run); a torn block has one tape for an iteration (inner
//! assignments, tangents, residuals, Jacobian) and one for the final inner assignments. The
//! Newton loop runs at most `max_iterations` times; LU with partial pivoting solves the k×k
//! system. The interpreter counts the operations it executes so tests can check the work
//! bound.

use super::Status;
use super::{Plan, Stmt, TornBlock, WorkBound};
use crate::symbolic::eval::apply;
use crate::symbolic::ExprId;

type Node = crate::symbolic::Node<Slot>;
use crate::plan::Slot;
use rustc_hash::FxHashMap;

#[derive(Clone, Copy, Debug)]
enum Ins {
    Const(f64),
    Load(u32),
    Store(u32, u32),
    /// Write register to the output buffer at an index (residuals, Jacobian; a function's
    /// outputs).
    Out(u32, u32),
    Op(Node, [u32; 3]),
    /// In a function's tape: its argument.
    Arg(u32),
    /// A call of compiled function `f` with the argument registers `call_args[at..at + n]`:
    /// writes the function's outputs to this instruction's register and the following ones
    /// (which are `Skip`s).
    Call {
        f: u32,
        at: u32,
        n: u32,
    },
    Skip,
}

#[derive(Clone, Debug, Default)]
struct Tape {
    ins: Vec<Ins>,
    regs: usize,
    work: WorkBound,
    call_args: Vec<u32>,
}

/// A function compiled out of line, as a tape: `Arg` loads, `Out` writes its outputs.
#[derive(Clone, Debug)]
struct FnTape {
    tape: Tape,
    outs: usize,
    /// A C shim computes the outputs instead of the tape.
    shim: Option<crate::symbolic::external::Shim>,
}

struct TapeBuilder<'p, V: crate::symbolic::Var = Slot> {
    arena: &'p crate::symbolic::Arena<V>,
    tape: Tape,
    cache: FxHashMap<ExprId, u32>,
    /// Calls made in this tape: (function, argument registers) → first output register.
    calls: FxHashMap<(u32, Vec<u32>), u32>,
}

impl<'p, V: crate::symbolic::Var> TapeBuilder<'p, V> {
    fn of(arena: &'p crate::symbolic::Arena<V>) -> Self {
        TapeBuilder {
            arena,
            tape: Tape::default(),
            cache: FxHashMap::default(),
            calls: FxHashMap::default(),
        }
    }

    fn reg(&mut self) -> u32 {
        self.tape.regs += 1;
        (self.tape.regs - 1) as u32
    }

    fn expr(&mut self, root: ExprId) -> u32 {
        if let Some(&r) = self.cache.get(&root) {
            return r;
        }
        let ar = self.arena;
        for id in ar.post_order(root, |id| self.cache.contains_key(&id)) {
            if self.cache.contains_key(&id) {
                continue;
            }
            let n = ar.node(id);
            if let crate::symbolic::Node::Call(c) = n {
                let r = self.call(ar, c);
                self.cache.insert(id, r);
                continue;
            }
            let r = self.reg();
            let ins = match n {
                crate::symbolic::Node::Const(bits) => Ins::Const(f64::from_bits(bits)),
                crate::symbolic::Node::Var(v) => Ins::Load(v.index() as u32),
                crate::symbolic::Node::Arg(i) => Ins::Arg(i),
                crate::symbolic::Node::Der(_)
                | crate::symbolic::Node::Pre(_)
                | crate::symbolic::Node::Time => Ins::Const(f64::NAN),
                _ => {
                    let mut a = [0u32; 3];
                    for (k, c) in ar.children(id).enumerate() {
                        a[k] = self.cache[&c];
                    }
                    self.tape.work += super::node_work(ar, id);
                    Ins::Op(n.recast().expect("an operator node"), a)
                }
            };
            self.tape.ins.push(ins);
            // Registers are write-once per tape: ins index k writes register r.
            debug_assert_eq!(self.tape.ins.len() as u32 - 1, r);
            self.cache.insert(id, r);
        }
        self.cache[&root]
    }

    /// The register of one output of call site `c`: the call is made once per function and
    /// argument registers (a variable stored in between gives a new register, so a new call).
    fn call(&mut self, ar: &crate::symbolic::Arena<V>, c: crate::symbolic::CallId) -> u32 {
        let site = ar.call_site(c);
        let args: Vec<u32> = site.args.iter().map(|a| self.cache[a]).collect();
        let key = (site.f.0, args);
        if let Some(&base) = self.calls.get(&key) {
            return base + site.out;
        }
        let f = ar.function(site.f);
        let base = self.reg();
        let at = self.tape.call_args.len() as u32;
        self.tape.call_args.extend_from_slice(&key.1);
        self.tape.ins.push(Ins::Call {
            f: site.f.0,
            at,
            n: key.1.len() as u32,
        });
        for _ in 1..f.outs.len() {
            self.reg();
            self.tape.ins.push(Ins::Skip);
        }
        let mut w = super::expr_work(&f.body, &f.outs);
        w.flops += 1;
        self.tape.work += w;
        self.calls.insert(key, base);
        base + site.out
    }

    fn out(&mut self, index: usize, e: ExprId) {
        let r = self.expr(e);
        self.tape.ins.push(Ins::Out(index as u32, r));
        self.tape.regs += 1;
    }
}

impl TapeBuilder<'_, Slot> {
    fn new(plan: &Plan) -> TapeBuilder<'_, Slot> {
        TapeBuilder::of(&plan.arena)
    }

    fn store(&mut self, var: Slot, e: ExprId) {
        let r = self.expr(e);
        self.tape.ins.push(Ins::Store(var.0, r));
        self.tape.regs += 1; // keep "instruction k writes register k"
                             // Later loads of this slot see the stored value.
        let node = self.arena.index_of(Node::Var(var));
        if let Some(id) = node {
            self.cache.insert(id, r);
        }
    }
}

/// The tape of a compiled function: its outputs written to the output buffer in order.
fn compile_function(f: &crate::symbolic::Function) -> FnTape {
    let mut b = TapeBuilder::of(&f.body);
    for (k, &o) in f.outs.iter().enumerate() {
        b.out(k, o);
    }
    FnTape {
        tape: b.tape,
        outs: f.outs.len(),
        shim: f.shim.clone(),
    }
}

/// Runs a function's tape on `args` into `outs` (bodies call no other compiled function).
fn exec_function(f: &FnTape, args: &[f64], regs: &mut Vec<f64>, outs: &mut [f64]) {
    if let Some(s) = &f.shim {
        outs[..f.outs].copy_from_slice(&s.call(args, f.outs));
        return;
    }
    if regs.len() < f.tape.regs {
        regs.resize(f.tape.regs, 0.0);
    }
    for (k, ins) in f.tape.ins.iter().enumerate() {
        let v = match *ins {
            Ins::Const(c) => c,
            Ins::Arg(i) => args[i as usize],
            Ins::Out(i, r) => {
                let x = regs[r as usize];
                outs[i as usize] = x;
                x
            }
            Ins::Op(n, a) => apply(
                n,
                [
                    regs[a[0] as usize],
                    regs[a[1] as usize],
                    regs[a[2] as usize],
                ],
            ),
            Ins::Load(_) | Ins::Store(..) | Ins::Call { .. } | Ins::Skip => f64::NAN,
        };
        regs[k] = v;
    }
}

/// A torn block as Newton reads it.
#[derive(Clone, Copy)]
struct BlockRef<'a> {
    index: super::BlockId,
    tearing: &'a [u32],
    iteration: &'a Tape,
    finish: &'a Tape,
    linear: bool,
    band: (usize, usize),
    derivative: &'a [bool],
    switches: usize,
}

#[derive(Clone, Debug)]
enum Exec {
    Tape(Tape),
    Block {
        index: super::BlockId,
        tearing: Vec<u32>,
        iteration: Tape,
        finish: Tape,
        linear: bool,
        band: (usize, usize),
        /// Which tearing variables are derivatives: zero in the damped retry's start at rest.
        derivative: Vec<bool>,
        /// Retried sliding on its switches where the damped retry fails ([`super::slide`]).
        switches: usize,
    },
}

/// A plan compiled for interpretation.
pub struct Interp {
    init: Vec<Exec>,
    step: Vec<Exec>,
    pre_copies: Vec<(u32, u32)>,
    time: usize,
    step_start: usize,
    step_size: usize,
    /// Slots checked for finiteness after each step.
    checked: Vec<u32>,
    parameters: Vec<(Slot, ExprId)>,
    /// Recomputed after a parameter change.
    updates: Vec<(Slot, ExprId)>,
    starts: Vec<(Slot, ExprId)>,
    newton: super::Newton,
    arena: crate::symbolic::Arena<Slot>,
    slots: usize,
    regs: Vec<f64>,
    out: Vec<f64>,
    /// Work executed since the counter was last reset.
    pub executed: WorkBound,
    /// Damped Newton with this many evaluations per block at most (compile-time solves of
    /// the model at the start time; generated code never damps).
    damped: Option<u32>,
    /// The plan's compiled functions, and buffers for their calls.
    fns: Vec<FnTape>,
    fn_regs: Vec<f64>,
    fn_args: Vec<f64>,
    fn_outs: Vec<f64>,
    /// The slots of sliding on switches ([`super::slide`]).
    slide: Option<super::Slide>,
}

fn compile_stmts(plan: &Plan, stmts: &[Stmt]) -> Vec<Exec> {
    let mut out = Vec::new();
    let mut current = TapeBuilder::new(plan);
    for s in stmts {
        match s {
            Stmt::Assign(a) => current.store(a.var, a.expr),
            Stmt::Block(b) => {
                let done = std::mem::replace(&mut current, TapeBuilder::new(plan));
                if !done.tape.ins.is_empty() {
                    out.push(Exec::Tape(done.tape));
                }
                out.push(compile_block(plan, b));
            }
        }
    }
    if !current.tape.ins.is_empty() {
        out.push(Exec::Tape(current.tape));
    }
    out
}

fn compile_block(plan: &Plan, b: &TornBlock) -> Exec {
    let k = b.tearing.len();
    let mut it = TapeBuilder::new(plan);
    for a in b.inner.iter().chain(&b.tangents) {
        it.store(a.var, a.expr);
    }
    for (i, &r) in b.residuals.iter().enumerate() {
        it.out(i, r);
    }
    for (i, &j) in b.jacobian.iter().enumerate() {
        it.out(k + i, j);
    }
    for (i, &s) in b.residual_scales.iter().enumerate() {
        it.out(k + k * k + i, s);
    }
    for (i, &q) in b.switches.iter().enumerate() {
        it.out(k + k * k + k + i, q);
    }
    let mut fin = TapeBuilder::new(plan);
    for a in &b.inner {
        fin.store(a.var, a.expr);
    }
    Exec::Block {
        index: b.index,
        tearing: b.tearing.iter().map(|v| v.0).collect(),
        iteration: it.tape,
        finish: fin.tape,
        linear: b.linear,
        band: b.band,
        derivative: b.tearing.iter().map(|&v| plan.is_derivative(v)).collect(),
        switches: b.switches.len(),
    }
}

impl Interp {
    pub fn new(plan: &Plan) -> Interp {
        let init = compile_stmts(plan, &plan.init);
        let step = compile_stmts(plan, &plan.step);
        let max_regs = init
            .iter()
            .chain(&step)
            .map(|e| match e {
                Exec::Tape(t) => t.regs,
                Exec::Block {
                    iteration, finish, ..
                } => iteration.regs.max(finish.regs),
            })
            .max()
            .unwrap_or(0);
        let max_out = plan
            .init
            .iter()
            .chain(&plan.step)
            .map(|s| match s {
                Stmt::Block(b) => b.tearing.len() * (b.tearing.len() + 2) + b.switches.len(),
                _ => 0,
            })
            .max()
            .unwrap_or(0);
        let checked = plan.unknown_slots().iter().map(|v| v.0).collect();
        Interp {
            init,
            step,
            pre_copies: plan.pre_copies.iter().map(|(a, b)| (a.0, b.0)).collect(),
            time: plan.time.index(),
            step_start: plan.step_start.index(),
            step_size: plan.step_size.index(),
            checked,
            parameters: plan
                .parameters
                .iter()
                .chain(&plan.hoisted)
                .filter_map(|&p| plan.vars[p].binding.map(|b| (p, b)))
                .collect(),
            updates: plan.parameter_updates(),
            starts: plan
                .starts
                .iter()
                .filter_map(|&p| plan.vars[p].binding.map(|b| (p, b)))
                .collect(),
            newton: plan.newton,
            arena: plan.arena.clone(),
            slots: plan.vars.len(),
            regs: vec![0.0; max_regs],
            out: vec![0.0; max_out],
            executed: WorkBound::default(),
            damped: None,
            fns: plan
                .arena
                .functions()
                .iter()
                .map(|f| compile_function(f))
                .collect(),
            fn_regs: Vec::new(),
            fn_args: Vec::new(),
            fn_outs: Vec::new(),
            slide: plan.slide,
        }
    }

    /// A fresh memory block.
    pub fn memory(&self) -> Vec<f64> {
        vec![0.0; self.slots]
    }

    /// Parameters, start values and the model at `t0`.
    pub fn init(&mut self, mem: &mut [f64], t0: f64) -> Status {
        for (p, b) in self.parameters.clone() {
            let v = crate::symbolic::eval::eval(&self.arena, b, &mut |x| mem[x.index()], t0);
            mem[p.index()] = v;
        }
        for (s, b) in self.starts.clone() {
            let v = crate::symbolic::eval::eval(&self.arena, b, &mut |x| mem[x.index()], t0);
            mem[s.index()] = v;
        }
        mem[self.step_start] = t0;
        mem[self.step_size] = 0.0;
        mem[self.time] = t0;
        let execs = std::mem::take(&mut self.init);
        let st = self.run(&execs, mem);
        self.init = execs;
        if st != Status::Ok {
            return st;
        }
        self.check(mem)
    }

    /// After tunable parameters changed in `mem`: recompute the parameters and hoisted
    /// expressions that depend on them ([`Plan::parameter_updates`]).
    pub fn parameters_changed(&mut self, mem: &mut [f64]) {
        let t = mem[self.time];
        for &(p, b) in &self.updates {
            mem[p.index()] =
                crate::symbolic::eval::eval(&self.arena, b, &mut |x| mem[x.index()], t);
        }
    }

    /// One step from `t` to `t + h`.
    pub fn step(&mut self, mem: &mut [f64], t: f64, h: f64) -> Status {
        mem[self.step_start] = t;
        mem[self.step_size] = h;
        mem[self.time] = t + h;
        self.executed.flops += 1;
        for &(p, v) in &self.pre_copies {
            mem[p as usize] = mem[v as usize];
        }
        let execs = std::mem::take(&mut self.step);
        let st = self.run(&execs, mem);
        self.step = execs;
        if st != Status::Ok {
            return st;
        }
        self.check(mem)
    }

    fn check(&self, mem: &[f64]) -> Status {
        for &s in &self.checked {
            if !mem[s as usize].is_finite() {
                return Status::NonFinite { var: Slot(s) };
            }
        }
        Status::Ok
    }

    fn run(&mut self, execs: &[Exec], mem: &mut [f64]) -> Status {
        for e in execs {
            match e {
                Exec::Tape(t) => self.exec(t, mem),
                Exec::Block {
                    index,
                    tearing,
                    iteration,
                    finish,
                    linear,
                    band,
                    derivative,
                    switches,
                } => {
                    let b = BlockRef {
                        index: *index,
                        tearing,
                        iteration,
                        finish,
                        linear: *linear,
                        band: *band,
                        derivative,
                        switches: *switches,
                    };
                    let st = self.newton(&b, mem);
                    if st != Status::Ok {
                        return st;
                    }
                }
            }
        }
        Status::Ok
    }

    fn exec(&mut self, t: &Tape, mem: &mut [f64]) {
        let regs = &mut self.regs;
        for (k, ins) in t.ins.iter().enumerate() {
            let v = match *ins {
                Ins::Call { f, at, n } => {
                    let ft = &self.fns[f as usize];
                    self.fn_args.clear();
                    self.fn_args.extend(
                        t.call_args[at as usize..(at + n) as usize]
                            .iter()
                            .map(|&r| regs[r as usize]),
                    );
                    self.fn_outs.resize(ft.outs, 0.0);
                    exec_function(ft, &self.fn_args, &mut self.fn_regs, &mut self.fn_outs);
                    regs[k..k + ft.outs].copy_from_slice(&self.fn_outs[..ft.outs]);
                    continue;
                }
                Ins::Skip => continue,
                Ins::Arg(_) => f64::NAN,
                Ins::Const(c) => c,
                Ins::Load(s) => mem[s as usize],
                Ins::Store(s, r) => {
                    let x = regs[r as usize];
                    mem[s as usize] = x;
                    x
                }
                Ins::Out(i, r) => {
                    let x = regs[r as usize];
                    self.out[i as usize] = x;
                    x
                }
                Ins::Op(n, a) => apply(
                    n,
                    [
                        regs[a[0] as usize],
                        regs[a[1] as usize],
                        regs[a[2] as usize],
                    ],
                ),
            };
            regs[k] = v;
        }
        self.executed += t.work;
    }

    /// From now on, Newton damps its steps (halving until the residual falls) and evaluates
    /// each block up to `max_evaluations` times: for solving the model at the start time when
    /// compiling, where the work is not bounded by the clock.
    pub fn set_damped(&mut self, max_evaluations: u32) {
        self.damped = Some(max_evaluations);
    }

    /// Newton on the tearing variables of one block, with at most `max_iterations`
    /// evaluations of the block. Damping was tried and dropped in the step: at the kink of a
    /// square-root law (the hydraulic valve) it stalled where full steps converge, only more
    /// slowly; compile-time solves use it ([`Interp::set_damped`]).
    fn newton(&mut self, b: &BlockRef, mem: &mut [f64]) -> Status {
        let BlockRef {
            index,
            tearing,
            iteration,
            finish,
            linear,
            band,
            ..
        } = *b;
        let k = tearing.len();
        let max_evals = if linear {
            1
        } else {
            self.damped.unwrap_or(self.newton.max_iterations)
        };
        let mut jac = vec![0.0; k * k];
        let mut delta = vec![0.0; k];
        let mut old = vec![0.0; k];
        let lu_flops = super::band::lu_flops(k, band.0, band.1) as u64;
        let start: Vec<f64> = tearing.iter().map(|&s| mem[s as usize]).collect();
        self.exec(iteration, mem);
        // Where the residuals at the start are not finite, the damped retry starts at rest.
        let start_finite = self.out[..k].iter().all(|r| r.is_finite());
        let mut evals = 1;
        // The largest residual of the previous iterate: the extension's test of progress.
        let mut previous = f64::INFINITY;
        let extended = if self.damped.is_none() {
            max_evals.saturating_add(self.newton.extended)
        } else {
            max_evals
        };
        loop {
            delta.copy_from_slice(&self.out[..k]);
            jac.copy_from_slice(&self.out[k..k + k * k]);
            let residual = delta.iter().fold(0.0f64, |m, x| m.max(x.abs()));
            let progressing = residual < super::PROGRESS * previous;
            previous = residual;

            if !linear && self.residual_small(k) {
                // The iterate already solves the block; inner values are consistent with it.
                return Status::Ok;
            }
            if evals >= max_evals && !linear && self.residual_within(k, self.newton.final_rtol) {
                return Status::Ok;
            }
            // Past the limit only while the residual keeps falling ([`super::Newton::extended`]).
            if evals >= max_evals && !linear && !(progressing && evals < extended) {
                if self.damped.is_none() && self.newton.damped > 0 {
                    return self.retry(b, &start, start_finite, mem);
                }
                return Status::NotConverged {
                    block: index,
                    residual: super::largest_residual(&self.out[..k]),
                };
            }
            // An iterate outside the region where the block's equations are defined (a
            // square root's negative argument): the damped retry from the start, whose steps
            // are halved until the residuals are finite and fall.
            if !linear
                && self.damped.is_none()
                && self.newton.damped > 0
                && !delta.iter().all(|r| r.is_finite())
            {
                return self.retry(b, &start, start_finite, mem);
            }
            let tol = self.newton.final_rtol * self.residual_scale(k);
            if !lu_solve(&mut jac, &mut delta, k, band, tol) {
                return Status::Singular { block: index };
            }
            self.executed.flops += lu_flops;
            if linear {
                for (i, &s) in tearing.iter().enumerate() {
                    mem[s as usize] -= delta[i];
                }
                self.exec(finish, mem);
                return Status::Ok;
            }
            for (i, &s) in tearing.iter().enumerate() {
                old[i] = mem[s as usize];
            }
            if self.damped.is_some() {
                match self.damped_step(tearing, iteration, &old, &delta, mem, &mut evals) {
                    Some(st) => return st,
                    None => continue,
                }
            }
            let mut small = true;
            for (i, &s) in tearing.iter().enumerate() {
                let x = old[i] - delta[i];
                if delta[i].abs() > self.newton.atol + self.newton.rtol * x.abs() {
                    small = false;
                }
                mem[s as usize] = x;
            }
            // A non-finite iterate ends the iteration: the solution diverged.
            if let Some(&s) = tearing.iter().find(|&&s| !mem[s as usize].is_finite()) {
                return Status::NonFinite { var: Slot(s) };
            }
            self.exec(iteration, mem);
            evals += 1;
            if small {
                return Status::Ok;
            }
        }
    }

    /// The damped retry, and where it fails in a block that switches on its unknowns
    /// without events, the same once more sliding on its switches ([`super::slide`]): the
    /// band's width set for that retry and cleared after it, each solve that slid counted.
    ///
    /// The sliding retry goes on from where the first one ended, near the switch, with its
    /// bracket of a one-unknown block's sign change (outside the band the two residuals are
    /// one), bisecting it where Newton's step would leave it: the regula falsi point crawls
    /// along a jump (52 evaluations instead of 12 on `tests/models/SlidingLimiter.mo`).
    fn retry(
        &mut self,
        b: &BlockRef,
        start: &[f64],
        start_finite: bool,
        mem: &mut [f64],
    ) -> Status {
        let mut bracket = Bracket::default();
        let st = self.damped_retry(b, start, start_finite, mem, &mut bracket, false);
        let slide = match self.slide {
            Some(s) if b.switches > 0 => s,
            _ => return st,
        };
        if !matches!(st, Status::NotConverged { .. } | Status::Singular { .. }) {
            return st;
        }
        mem[slide.width.index()] = super::slide::WIDTH;
        let here: Vec<f64> = b.tearing.iter().map(|&s| mem[s as usize]).collect();
        let st = self.damped_retry(b, &here, true, mem, &mut bracket, true);
        mem[slide.width.index()] = 0.0;
        if st == Status::Ok {
            mem[slide.count.index()] += 1.0;
        }
        st
    }

    /// The damped retry of a block whose full Newton steps did not converge
    /// ([`super::Newton::damped`]): from the values before the block, each Newton step halved
    /// until the residuals' sum of squares falls, at most `damped` evaluations in all (the
    /// last trial kept when they run out). The generated code does the same, operation for
    /// operation.
    fn damped_retry(
        &mut self,
        b: &BlockRef,
        start: &[f64],
        start_finite: bool,
        mem: &mut [f64],
        bracket: &mut Bracket,
        sliding: bool,
    ) -> Status {
        let BlockRef {
            index,
            tearing,
            iteration,
            band,
            derivative,
            ..
        } = *b;
        let k = tearing.len();
        let max_evals = self.newton.damped;
        let lu_flops = super::band::lu_flops(k, band.0, band.1) as u64;
        let norm = |out: &[f64]| out[..k].iter().fold(0.0f64, |a, r| a + r * r);
        let mut jac = vec![0.0; k * k];
        let mut delta = vec![0.0; k];
        let mut old = vec![0.0; k];
        // The switches' band arguments where a step starts ([`super::slide::crossing`]).
        let q0 = k + k * k + k;
        let mut q_old = vec![0.0; if sliding { b.switches } else { 0 }];
        // From the values before the block; where their residuals are not finite (a
        // derivative carried over from a short step after an event, extrapolated over a long
        // one), from rest: every derivative among the tearing variables zero.
        for (i, &s) in tearing.iter().enumerate() {
            mem[s as usize] = if derivative[i] && !start_finite {
                0.0
            } else {
                start[i]
            };
        }
        self.exec(iteration, mem);
        let mut evals = 1;
        if k == 1 {
            bracket.update(mem[tearing[0] as usize], self.out[0]);
        }
        loop {
            delta.copy_from_slice(&self.out[..k]);
            jac.copy_from_slice(&self.out[k..k + k * k]);
            if self.residual_small(k) {
                return Status::Ok;
            }
            if evals >= max_evals {
                if self.residual_within(k, self.newton.final_rtol) {
                    return Status::Ok;
                }
                return Status::NotConverged {
                    block: index,
                    residual: super::largest_residual(&self.out[..k]),
                };
            }
            let tol = self.newton.final_rtol * self.residual_scale(k);
            if !lu_solve(&mut jac, &mut delta, k, band, tol) {
                return Status::Singular { block: index };
            }
            self.executed.flops += lu_flops;
            let before = norm(&self.out);
            // One unknown whose residual changed sign: Newton's step stays within the bracket,
            // else the regula falsi step is taken as it is.
            let forced = match bracket.step(mem[tearing[0] as usize], delta[0], sliding) {
                Some(d) if k == 1 => {
                    delta[0] = d;
                    true
                }
                _ => false,
            };
            for (i, &s) in tearing.iter().enumerate() {
                old[i] = mem[s as usize];
            }
            let n = q_old.len();
            q_old.copy_from_slice(&self.out[q0..q0 + n]);
            let mut lambda = 1.0f64;
            loop {
                for (i, &s) in tearing.iter().enumerate() {
                    mem[s as usize] = old[i] - lambda * delta[i];
                }
                self.exec(iteration, mem);
                evals += 1;
                if k == 1 {
                    bracket.update(mem[tearing[0] as usize], self.out[0]);
                }
                // Sliding: a trial that crossed a switch's band whole is cut to the crossing.
                if sliding && !forced && evals < max_evals {
                    if let Some(c) = super::slide::crossing(&q_old, &self.out[q0..q0 + n]) {
                        lambda *= c;
                        continue;
                    }
                }
                let after = norm(&self.out);
                if forced || (after.is_finite() && after < before) || evals >= max_evals {
                    break;
                }
                lambda *= 0.5;
            }
            if let Some(&s) = tearing.iter().find(|&&s| !mem[s as usize].is_finite()) {
                return Status::NonFinite { var: Slot(s) };
            }
            let small = tearing.iter().enumerate().all(|(i, &s)| {
                delta[i].abs() <= self.newton.atol + self.newton.rtol * mem[s as usize].abs()
            });
            if small {
                return Status::Ok;
            }
        }
    }

    /// One damped Newton step from `old` along `-delta`: the step is halved until the sum of
    /// squared residuals falls (at most 20 halvings). `Some` ends the iteration: converged (the
    /// full Newton step was within the tolerances), or a non-finite iterate.
    fn damped_step(
        &mut self,
        tearing: &[u32],
        iteration: &Tape,
        old: &[f64],
        delta: &[f64],
        mem: &mut [f64],
        evals: &mut u32,
    ) -> Option<Status> {
        let k = tearing.len();
        let norm = |out: &[f64]| out[..k].iter().map(|r| r * r).sum::<f64>();
        let before = norm(&self.out);
        let mut lambda = 1.0;
        for _ in 0..20 {
            for (i, &s) in tearing.iter().enumerate() {
                mem[s as usize] = old[i] - lambda * delta[i];
            }
            self.exec(iteration, mem);
            *evals += 1;
            let after = norm(&self.out);
            if after.is_finite() && after < before {
                break;
            }
            lambda /= 2.0;
        }
        if let Some(&s) = tearing.iter().find(|&&s| !mem[s as usize].is_finite()) {
            return Some(Status::NonFinite { var: Slot(s) });
        }
        let small = tearing.iter().enumerate().all(|(i, &s)| {
            delta[i].abs() <= self.newton.atol + self.newton.rtol * mem[s as usize].abs()
        });
        small.then_some(Status::Ok)
    }

    fn residual_small(&self, k: usize) -> bool {
        self.residual_within(k, self.newton.residual_rtol)
    }

    /// Every residual at most `rtol` times the largest terms of the block's equations (an
    /// equation whose own terms vanish at the solution, a current at rest, would otherwise ask
    /// for an exact zero).
    fn residual_within(&self, k: usize, rtol: f64) -> bool {
        let r = &self.out[..k];
        let lim = rtol * self.residual_scale(k);
        // A residual that is not finite is never within, though its terms' scale may be
        // infinite too (an exponential overflowed on both sides of an equation).
        r.iter().all(|r| r.abs() <= lim && r.abs() < f64::INFINITY)
    }

    /// The largest of the block's residual scales (the magnitudes of its equations' terms).
    fn residual_scale(&self, k: usize) -> f64 {
        let s = &self.out[k + k * k..k + k * k + k];
        s.iter().fold(0.0f64, |m, &x| if x > m { x } else { m })
    }

    /// Evaluates an output expression on the current memory.
    pub fn eval(&self, mem: &[f64], e: ExprId) -> f64 {
        crate::symbolic::eval::eval(&self.arena, e, &mut |x| mem[x.index()], mem[self.time])
    }
}

/// The sign change of a one-unknown block's residual seen in the damped retry: the last
/// iterate with a negative residual and the last with a positive one. Newton alone can cycle
/// between two iterates on either side of a kink of infinite slope (a tank's outflow
/// `sqrt(max(0, 2 g h))` as it runs empty: the full step from the linear side lands on the
/// square root's side and back), and the halving only crawls; within a known bracket a step
/// that would leave it is replaced by the regula falsi point, with the Illinois rule (an end
/// kept twice in a row has its residual halved) so that neither end sticks. The generated
/// code keeps the same bracket, operation for operation.
#[derive(Default)]
struct Bracket {
    lo: Option<(f64, f64)>,
    hi: Option<(f64, f64)>,
    /// The end the last update replaced: -1 the negative one, 1 the positive one.
    last: i8,
}

impl Bracket {
    fn update(&mut self, x: f64, r: f64) {
        if r < 0.0 {
            if self.last == -1 {
                if let Some(h) = self.hi.as_mut() {
                    h.1 *= 0.5;
                }
            }
            self.lo = Some((x, r));
            self.last = -1;
        } else if r > 0.0 {
            if self.last == 1 {
                if let Some(l) = self.lo.as_mut() {
                    l.1 *= 0.5;
                }
            }
            self.hi = Some((x, r));
            self.last = 1;
        }
    }

    /// Newton's step `d` from `x` (the next iterate `x − d`): `None` where that stays strictly
    /// within the bracket or none is known; else the step to the regula falsi point, or with
    /// `bisect` to the bracket's midpoint.
    fn step(&self, x: f64, d: f64, bisect: bool) -> Option<f64> {
        let ((a, ra), (b, rb)) = (self.lo?, self.hi?);
        let xn = x - d;
        if (xn - a) * (xn - b) < 0.0 {
            return None;
        }
        if bisect {
            return Some(x - 0.5 * (a + b));
        }
        Some(x - (a - ra * (b - a) / (rb - ra)))
    }
}

/// Solves `a·x = b` in place (x overwrites b) by LU with partial pivoting; false if singular.
/// `band = (kl, w)`: the nonzeros of `a` lie at most `kl` below the diagonal and those of U at
/// most `w` above it ([`super::band`]); only that band is read and written (a dense matrix:
/// `(n − 1, 2n − 2)`). Rows below the band hold zeros in the pivot column, so the pivots are
/// those of the dense algorithm.
///
/// A column that is zero from the diagonal down (an unknown the equations do not determine
/// here: the enthalpy of a massless volume at zero flow) is a free unknown: its update is 0
/// (it keeps its value) and its row is not a pivot row; the system is solved if that row,
/// with the other unknowns solved, holds within `tol` (a consistent singular system, the rows
/// dependent), and is singular otherwise. A non-finite pivot is singular.
pub fn lu_solve(a: &mut [f64], b: &mut [f64], n: usize, band: (usize, usize), tol: f64) -> bool {
    let (kl, w) = band;
    for col in 0..n {
        let rows_end = (col + kl + 1).min(n);
        let cols_end = (col + w + 1).min(n);
        // Pivot: the largest magnitude in this column.
        let mut piv = col;
        let mut best = a[col * n + col].abs();
        for r in col + 1..rows_end {
            let v = a[r * n + col].abs();
            if v > best {
                best = v;
                piv = r;
            }
        }
        if !best.is_finite() {
            return false;
        }
        if best == 0.0 {
            // A free unknown: a zero diagonal marks it for the back substitution.
            continue;
        }
        if piv != col {
            for c in col..cols_end {
                a.swap(col * n + c, piv * n + c);
            }
            b.swap(col, piv);
        }
        let d = a[col * n + col];
        for r in col + 1..rows_end {
            let f = a[r * n + col] / d;
            if f != 0.0 {
                a[r * n + col] = f;
                for c in col + 1..cols_end {
                    a[r * n + c] -= f * a[col * n + c];
                }
                b[r] -= f * b[col];
            } else {
                a[r * n + col] = 0.0;
            }
        }
    }
    for col in (0..n).rev() {
        let mut s = b[col];
        for c in col + 1..(col + w + 1).min(n) {
            s -= a[col * n + c] * b[c];
        }
        let d = a[col * n + col];
        if d == 0.0 {
            // The free unknown's row: what is left of it must vanish (NaN does not).
            let within = s.abs() <= tol;
            if !within {
                return false;
            }
            b[col] = 0.0;
        } else {
            b[col] = s / d;
        }
    }
    true
}

#[cfg(test)]
mod tests {
    use super::lu_solve;

    #[test]
    fn lu_with_pivoting() {
        // Needs a row swap: a[0][0] = 0.
        let mut a = vec![0.0, 2.0, 1.0, 1.0, 1.0, 0.0, 3.0, 0.0, 1.0];
        let x = [1.0, -2.0, 3.0];
        let mut b = vec![
            0.0 * x[0] + 2.0 * x[1] + 1.0 * x[2],
            1.0 * x[0] + 1.0 * x[1],
            3.0 * x[0] + 1.0 * x[2],
        ];
        assert!(lu_solve(&mut a, &mut b, 3, (2, 4), 0.0));
        for i in 0..3 {
            assert!((b[i] - x[i]).abs() < 1e-14, "{b:?}");
        }
        let mut singular = vec![1.0, 2.0, 2.0, 4.0];
        // Inconsistent: x + 2y = 1, 2x + 4y = 3.
        let mut b2 = vec![1.0, 3.0];
        assert!(!lu_solve(&mut singular, &mut b2, 2, (1, 2), 1e-9));
        // Consistent (x + 2y = 1, 2x + 4y = 2): y is free and keeps its value (update 0).
        let mut singular = vec![1.0, 2.0, 2.0, 4.0];
        let mut b3 = vec![1.0, 2.0];
        assert!(lu_solve(&mut singular, &mut b3, 2, (1, 2), 1e-9));
        assert_eq!(b3, vec![1.0, 0.0]);
        // A zero column: the second unknown appears in no equation.
        let mut zero_col = vec![3.0, 0.0, 6.0, 0.0];
        let mut b4 = vec![3.0, 6.0];
        assert!(lu_solve(&mut zero_col, &mut b4, 2, (1, 2), 1e-9));
        assert_eq!(b4, vec![1.0, 0.0]);
        let mut zero_col = vec![3.0, 0.0, 6.0, 0.0];
        let mut b5 = vec![3.0, 7.0];
        assert!(!lu_solve(&mut zero_col, &mut b5, 2, (1, 2), 1e-9));
    }

    /// Banded matrices whose pivots need row interchanges: the band-limited LU gives the
    /// dense LU's solution bit for bit (the pivots are the same, and the dense algorithm's
    /// extra operations only subtract zeros).
    #[test]
    fn band_lu_equals_dense_lu() {
        let mut seed = 0x2545_f491_4f6c_dd1du64;
        let mut rnd = || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            (seed >> 11) as f64 / (1u64 << 53) as f64 * 2.0 - 1.0
        };
        let mut swaps_seen = false;
        for (n, kl, ku) in [(7, 1, 1), (12, 2, 3), (20, 1, 5), (30, 3, 1), (9, 0, 2)] {
            for _ in 0..20 {
                let mut a = vec![0.0; n * n];
                for r in 0..n {
                    for c in r.saturating_sub(kl)..(r + ku + 1).min(n) {
                        a[r * n + c] = rnd();
                    }
                }
                for r in 1..n {
                    if kl > 0 && a[r * n + r - 1].abs() > a[(r - 1) * n + r - 1].abs() {
                        swaps_seen = true;
                    }
                }
                let b: Vec<f64> = (0..n).map(|_| rnd()).collect();
                let (mut ad, mut bd) = (a.clone(), b.clone());
                let (mut ab, mut bb) = (a.clone(), b.clone());
                let okd = lu_solve(&mut ad, &mut bd, n, (n - 1, 2 * n - 2), 0.0);
                let okb = lu_solve(&mut ab, &mut bb, n, (kl, kl + ku), 0.0);
                assert_eq!(okd, okb);
                for i in 0..n {
                    assert_eq!(
                        bd[i].to_bits(),
                        bb[i].to_bits(),
                        "n {n} kl {kl} ku {ku}: {i}"
                    );
                }
            }
        }
        assert!(swaps_seen);
    }
}
