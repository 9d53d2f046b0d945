//! The step plan: what one step computes, in order, with a fixed bound on the work.
//!
//! A plan is a list of statements over the slots of one memory block: explicit assignments,
//! and torn blocks (Cellier & Kofman §10.6) solved by a Newton iteration with at most
//! `max_iterations` iterations, each evaluating the inner assignments, the residuals and their
//! symbolic Jacobian and solving the k×k system by LU with partial pivoting. Nothing in a step
//! loops beyond these fixed bounds; [`WorkBound`] counts the worst case.
//!
//! The same plan drives the interpreter (`interp`, the oracle) and code generation. It has a
//! printer (`rtc analyze --emit plan`) and a verifier (every unknown assigned exactly once, no
//! use before definition, square blocks).

mod status;
crate::symbolic::entity!(
    /// A slot of the step function's memory: an index into `Plan::vars`, and what `Node::Var`
    /// means in the plan's arena. The first slots are the step system's variables, in its
    /// order ([`Slot::of`]); tangents and hoisted values follow.
    Slot
);

crate::symbolic::entity!(
    /// A torn block of the plan, numbered across the initial and the step system in the order
    /// they are built: the detail of a Newton failure's or a singular Jacobian's status word.
    BlockId
);

pub use crate::system::EventId;

impl Slot {
    /// The slot of a step-system variable.
    pub fn of(v: crate::system::SysVar) -> Slot {
        Slot::new(v.index())
    }
}

pub use status::{
    describe, kind, largest_residual, singular_cause, Status, StatusWord, Unsettled,
    EVENT_ITERATIONS, THRESHOLD_RTOL, ZENO_STEPS,
};
pub mod band;
pub mod build;
mod hoist;
pub mod interp;
mod pre;
pub mod slide;

pub use build::{build, BuildOptions};

use crate::diag::{Diagnostic, Span};
use crate::flat::VarKind;
use crate::symbolic::{EntityVec, ExprId, ExprPrinter, Func1};

type Node = crate::symbolic::Node<Slot>;

type Arena = crate::symbolic::Arena<Slot>;
use crate::system::{Formula, SVarKind};
use rustc_hash::FxHashSet;
use std::fmt::Write;

/// A slot of the memory block.
#[derive(Clone, Debug)]
pub struct PlanVar {
    pub name: String,
    pub kind: SlotKind,
    /// Start value or parameter binding (over parameters and other known slots).
    pub binding: Option<ExprId>,
    pub span: Span,
    /// A constant of the model (not tunable, see [`crate::system::SVar::constant`]).
    pub constant: bool,
    /// What a value written into it from outside must satisfy: its declaration's `min`,
    /// `max` and type ([`crate::pipeline::doors`]; any finite value until set).
    pub admissible: rtc_runtime::door::Admissible,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SlotKind {
    /// A variable of the discretised system.
    System(SVarKind),
    /// A derivative of an inner variable with respect to a tearing variable.
    Tangent,
    /// The band's width or the count of sliding on switches ([`Slide`]).
    Slide,
    /// A parameter-only subexpression of the step, computed at start-up.
    Hoisted,
}

#[derive(Clone, Debug)]
pub struct Assign {
    pub var: Slot,
    pub expr: ExprId,
    /// The equation it was solved from.
    pub span: Span,
}

#[derive(Clone, Debug)]
pub struct TornBlock {
    pub index: BlockId,
    pub tearing: Vec<Slot>,
    pub inner: Vec<Assign>,
    /// Derivatives of inner variables with respect to the tearing variables.
    pub tangents: Vec<Assign>,
    pub residuals: Vec<ExprId>,
    /// |lhs| + |rhs| of each residual equation: the scale its residual is judged against.
    pub residual_scales: Vec<ExprId>,
    pub residual_spans: Vec<Span>,
    /// Row-major k×k: ∂residual_i/∂tearing_j.
    pub jacobian: Vec<ExprId>,
    /// The residuals are linear in the tearing variables: one Newton step solves exactly.
    pub linear: bool,
    /// (kl, w): the Jacobian's nonzeros lie at most `kl` below the diagonal, and U after row
    /// interchanges at most `w` above it ([`band`]); `(k − 1, 2k − 2)` for a dense block.
    pub band: (usize, usize),
    /// The band arguments of the switches without events on its own unknowns
    /// ([`slide`]): where the damped retry fails, it is retried sliding on them. Empty: none.
    pub switches: Vec<ExprId>,
}

impl TornBlock {
    /// It switches without events on its unknowns: the damped retry may slide ([`slide`]).
    pub fn slides(&self) -> bool {
        !self.switches.is_empty()
    }
}

/// The slots of sliding on switches ([`slide`]): the band's width while a retry slides (0
/// otherwise), and the number of block solves that slid.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Slide {
    pub width: Slot,
    pub count: Slot,
}

#[derive(Clone, Debug)]
pub enum Stmt {
    Assign(Assign),
    Block(Box<TornBlock>),
}

/// Newton settings. An iteration has converged when every update is small,
/// |Δ| ≤ atol + rtol·|x|, or, before the update, every residual is small against the size of
/// the block's largest equation terms, |lhs − rhs| ≤ residual_rtol·max(size) where an
/// equation's size is the sum of the magnitudes of its additive terms, through the branch an
/// if-expression takes (this also accepts solutions where the residual is flat, e.g. at the
/// kink of a square-root law, and equations whose own terms vanish at the solution).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Newton {
    pub max_iterations: u32,
    pub rtol: f64,
    pub atol: f64,
    pub residual_rtol: f64,
    /// At the iteration limit, residuals within this of the block's largest terms are accepted
    /// (an ill-conditioned block whose updates rounding keeps from shrinking further): 1e-6,
    /// a thousand times below the tightest tolerance of a run (0.1 %).
    pub final_rtol: f64,
    /// Evaluations of the damped retry where the iteration fails: from the block's values
    /// before it, Newton steps halved until the residuals' sum of squares falls (every
    /// evaluation counted, halvings included); 0: none. Full steps first, as they converge
    /// faster where they converge at all (a hydraulic valve's square-root law); the damped
    /// retry where they cycle (a tank running empty under `sqrt(max(0, level))`). It starts
    /// from the values before the block, or at rest (every derivative among the tearing
    /// variables zero) where their residuals are not finite. 20 by default: the MSL's Spice3
    /// `DifferentialPair` crossing its supply's 2 ns ramp from rest takes 14 (five halvings
    /// before the first trial whose residuals fall, then quadratic convergence).
    pub damped: u32,
    /// Full iterations past `max_iterations` while each brings the block's largest residual
    /// below [`PROGRESS`] times the previous one, where the residuals at the limit are not
    /// within `final_rtol`: at most `max_iterations + extended` in all. A junction's
    /// exponential is the case: from a start where it is flat (a transistor off) the first full
    /// step lands far up the curve, and each later one comes back by one thermal voltage,
    /// dividing the residual by e (the MSL's Spice3 `Inverter` needs more than 25 iterations at its
    /// first step). An iteration that stagnates at rounding stops at `max_iterations` as
    /// before; 0: none.
    pub extended: u32,
    /// Where the damped retry of a loop that switches without events on its unknowns fails,
    /// a second one slides on the switches ([`slide`]); its expressions carry the bands (the
    /// blend and its weights, counted in the work bound with the second retry's evaluations).
    /// Off (`--no-slide`): neither.
    pub slide: bool,
}

/// An extended Newton iteration goes on while each iteration's largest residual is below
/// this fraction of the previous one's: a steady fall (a junction's e per iteration, 0.5 as
/// quadratic convergence sets in), not the wandering of an iteration stagnating at rounding.
pub const PROGRESS: f64 = 0.9;

impl Newton {
    /// Full iterations at most, the extension included.
    pub fn full_iterations(&self) -> u32 {
        self.max_iterations.saturating_add(self.extended)
    }
}

impl Default for Newton {
    fn default() -> Newton {
        Newton {
            max_iterations: 10,
            rtol: 1e-10,
            atol: 1e-12,
            residual_rtol: 1e-13,
            final_rtol: 1e-6,
            damped: 20,
            extended: 40,
            slide: true,
        }
    }
}

/// A recorded quantity: a model variable by name, as an expression over slots.
#[derive(Clone, Debug)]
pub struct Output {
    pub name: String,
    pub expr: ExprId,
    pub kind: VarKind,
    pub is_output: bool,
}

#[derive(Clone, Debug)]
pub struct Plan {
    pub name: String,
    pub method: String,
    pub arena: Arena,
    pub vars: EntityVec<Slot, PlanVar>,
    /// Parameters with bindings, in dependency order (evaluated at start-up).
    pub parameters: Vec<Slot>,
    /// States with start values.
    pub starts: Vec<Slot>,
    /// The model at the start time, states known.
    pub init: Vec<Stmt>,
    /// One step from t to t + h.
    pub step: Vec<Stmt>,
    /// (pre slot, source slot), copied at the start of every step (continuous variables).
    pub pre_copies: Vec<(Slot, Slot)>,
    /// (pre slot, source slot) of discrete-valued variables: copied at the start of every
    /// round of an event iteration, which ends when they all equal their variables.
    pub discrete_pre: Vec<(Slot, Slot)>,
    pub time: Slot,
    pub step_start: Slot,
    pub step_size: Slot,
    pub formulas: Vec<(Slot, Formula)>,
    pub outputs: Vec<Output>,
    pub newton: Newton,
    /// Loops of the step solved symbolically (torn to one variable, linear).
    pub symbolic_loops: usize,
    /// Where a block switches without events on its unknowns: the slots of sliding.
    pub slide: Option<Slide>,
    /// Hoisted parameter expressions, in order, computed after the parameters.
    pub hoisted: Vec<Slot>,
    /// Variables the step reads before recomputing them (their previous value, `pre`).
    pub carried: Vec<Slot>,
    /// Input slots read at a stage time: (slot, main slot, offset in the step / h).
    pub input_stages: Vec<crate::system::StagedInput<Slot>>,
    /// State events (when-equations), over this plan's slots.
    pub events: EntityVec<EventId, crate::system::Event<Slot>>,
    /// The model's assertions (condition, message), checked after every step by the run loop.
    pub assertions: Vec<(ExprId, String)>,
    /// `assert` in `when initial()`, checked once after initialisation; a failure's index
    /// counts on from `assertions`.
    pub initial_assertions: Vec<(ExprId, String)>,
    /// `assert(…, level = AssertionLevel.warning)`, checked after initialisation and after
    /// every step; a failure is reported and the run goes on. Their indices count on from
    /// `initial_assertions` (the compiled conditions come in that order).
    pub warnings: Vec<(ExprId, String)>,
    /// What was done before the plan was built that a user should hear of (the initial
    /// system solved into start values).
    pub notes: Vec<String>,
}

/// Worst-case work of one step.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct WorkBound {
    /// Floating-point operations (add, sub, mul, div, neg, compare, select, sqrt, abs, …).
    pub flops: u64,
    /// Calls of the C math library (sin, exp, pow, …).
    pub libm_calls: u64,
    /// Calls of external C functions (through their shims): their work is the library's,
    /// not in `flops` (`rtc analyze` says what is known of each, `crate::clib::cost`).
    pub c_calls: u64,
}

impl std::ops::AddAssign for WorkBound {
    fn add_assign(&mut self, o: WorkBound) {
        self.flops += o.flops;
        self.libm_calls += o.libm_calls;
        self.c_calls += o.c_calls;
    }
}

impl WorkBound {
    fn times(self, k: u64) -> WorkBound {
        WorkBound {
            flops: self.flops * k,
            libm_calls: self.libm_calls * k,
            c_calls: self.c_calls * k,
        }
    }
}

/// Whether evaluating a node is a libm call (the rest are inline floating-point operations).
pub fn is_libm<V: crate::symbolic::Var>(n: crate::symbolic::Node<V>) -> bool {
    use crate::symbolic::Node;
    match n {
        Node::Call1(f, _) => !matches!(
            f,
            Func1::Sqrt | Func1::Abs | Func1::Sign | Func1::Floor | Func1::Ceil
        ),
        Node::Call2(f, ..) => matches!(
            f,
            crate::symbolic::Func2::Atan2
                | crate::symbolic::Func2::Mod
                | crate::symbolic::Func2::Rem
        ),
        Node::Pow(..) => true,
        _ => false,
    }
}

/// The work of evaluating one node, its children already evaluated. A call of a function
/// compiled out of line costs its whole body (every output: the engines compute them
/// together).
pub fn node_work<V: crate::symbolic::Var>(ar: &crate::symbolic::Arena<V>, id: ExprId) -> WorkBound {
    use crate::symbolic::Node;
    let mut w = WorkBound::default();
    match ar.node(id) {
        Node::Const(_)
        | Node::Var(_)
        | Node::Der(_)
        | Node::Pre(_)
        | Node::Time
        | Node::Arg(_)
        | Node::NoEvent(_) => {}
        Node::Call(c) => {
            let f = ar.function(ar.call_site(c).f);
            w = expr_work(&f.body, &f.outs);
            if f.shim.is_some() {
                w.c_calls += 1;
            }
            // The call itself: arguments out, results back.
            w.flops += 1;
        }
        Node::Pow(_, e)
            if ar
                .as_const(e)
                .is_some_and(|x| x == x.trunc() && x.abs() <= 64.0) =>
        {
            // Integer powers are repeated multiplications (square-and-multiply).
            let k = ar.as_const(e).unwrap_or(2.0).abs() as u64;
            w.flops += (64 - k.leading_zeros() as u64) + k.count_ones() as u64;
        }
        n if is_libm(n) => w.libm_calls += 1,
        _ => w.flops += 1,
    }
    w
}

/// Operations to evaluate `roots` once with common subexpressions shared (and each call of a
/// compiled function once, whichever of its outputs are read).
pub fn expr_work<V: crate::symbolic::Var>(
    ar: &crate::symbolic::Arena<V>,
    roots: &[ExprId],
) -> WorkBound {
    expr_work_shared(ar, roots, usize::MAX, &mut WideWork::default())
}

/// The work below each call of more than `wide` arguments, by call (function, arguments):
/// see [`expr_work_shared`].
pub type WideWork = rustc_hash::FxHashMap<(crate::symbolic::FnId, usize, usize), WorkBound>;

/// [`expr_work`] where the work of a call with more than `wide` arguments (the node and its
/// arguments' expressions) is computed once and remembered in `memo` for every root set that
/// meets the same call: the hundreds of outputs of an FFT's call, each assigned on its own,
/// would otherwise walk its thousands of arguments once each. The figure is the same as
/// [`expr_work`]'s but where an argument's expression is also used outside the call (then
/// counted in both). [`expr_work`] is this without wide calls.
pub fn expr_work_shared<V: crate::symbolic::Var>(
    ar: &crate::symbolic::Arena<V>,
    roots: &[ExprId],
    wide: usize,
    memo: &mut WideWork,
) -> WorkBound {
    use crate::symbolic::Node;
    // A sparse visited set: statements are small, the arena is large.
    let mut seen = rustc_hash::FxHashSet::default();
    let mut calls = rustc_hash::FxHashSet::default();
    let mut wide_calls = rustc_hash::FxHashSet::default();
    let mut stack: Vec<ExprId> = roots.to_vec();
    let mut w = WorkBound::default();
    while let Some(id) = stack.pop() {
        if !seen.insert(id) {
            continue;
        }
        let fresh = match ar.node(id) {
            // Each call once, whichever of its outputs are read.
            Node::Call(c) => {
                let site = ar.call_site(c);
                if site.args.len() > wide {
                    // The outputs of one call share one list: one key, whatever the output
                    // (not its thousands of arguments hashed for each).
                    let key = (site.f, site.args.as_ptr() as usize, site.args.len());
                    if wide_calls.insert(key) {
                        w += *memo.entry(key).or_insert_with(|| expr_work(ar, &[id]));
                    }
                    continue;
                }
                calls.insert((site.f, site.args.clone()))
            }
            _ => true,
        };
        if fresh {
            w += node_work(ar, id);
        }
        stack.extend(ar.children(id));
    }
    w
}

impl Plan {
    /// Every assertion in the order the compiled conditions and status indices use: those
    /// checked after every step, those of `when initial()`, the warning-level ones.
    pub fn all_assertions(&self) -> impl Iterator<Item = &(ExprId, String)> {
        self.assertions
            .iter()
            .chain(&self.initial_assertions)
            .chain(&self.warnings)
    }

    /// The input slots the environment writes (the value at the end of the step; inputs read
    /// at stage times have further slots in `input_stages`).
    pub fn input_slots(&self) -> Vec<Slot> {
        let staged: Vec<Slot> = self.input_stages.iter().map(|s| s.slot).collect();
        (0..self.vars.len())
            .map(Slot::new)
            .filter(|s| {
                self.vars[*s].kind == SlotKind::System(SVarKind::Input) && !staged.contains(s)
            })
            .collect()
    }

    /// Per event: whether it is a frozen relation whose function does not depend on the
    /// relation's own slot (through the step's statements): it only observes the model (a
    /// timer's `y >= 1`), unlike a switch whose relation selects the equations that compute
    /// its function (an ideal diode's `s < 0`, where s is a voltage off and a current on).
    /// The external C functions whose derivative the step's values (not only its Jacobians)
    /// take by central differences (their shims' `_dot`, where no `derivative` annotation
    /// gave one): their accuracy is the difference's, and across a table's breakpoint none.
    pub fn differenced_externals(&self) -> Vec<String> {
        let mut roots: Vec<ExprId> = Vec::new();
        for st in &self.step {
            match st {
                Stmt::Assign(a) => roots.push(a.expr),
                Stmt::Block(b) => {
                    roots.extend(b.inner.iter().map(|a| a.expr));
                    roots.extend(&b.residuals);
                }
            }
        }
        let mut seen = vec![false; self.arena.len()];
        let mut out: Vec<String> = Vec::new();
        for r in roots {
            self.arena.visit_postorder(r, &mut seen, &mut |id| {
                if let Node::Call(c) = self.arena.node(id) {
                    let f = self.arena.function(self.arena.call_site(c).f);
                    if let Some(s) = f.shim.as_ref().filter(|s| s.symbol.ends_with("_dot")) {
                        if !out.contains(&s.calls) {
                            out.push(s.calls.clone());
                        }
                    }
                }
            });
        }
        out
    }

    /// The slots a statement reads and those it writes (a block: its tearing variables and
    /// inner assignments; `tangents`: with the reads of its tangent assignments).
    fn reads_writes(&self, st: &Stmt, tangents: bool) -> (Vec<Slot>, Vec<Slot>) {
        let (exprs, writes): (Vec<ExprId>, Vec<Slot>) = match st {
            Stmt::Assign(a) => (vec![a.expr], vec![a.var]),
            Stmt::Block(b) => {
                let tan = if tangents { &b.tangents[..] } else { &[] };
                let mut r: Vec<ExprId> = b.inner.iter().chain(tan).map(|a| a.expr).collect();
                r.extend(&b.residuals);
                let mut w = b.tearing.clone();
                w.extend(b.inner.iter().map(|a| a.var));
                (r, w)
            }
        };
        let mut leaves = Vec::new();
        for e in exprs {
            self.arena.leaves(e, &mut leaves);
        }
        let reads = leaves
            .iter()
            .filter_map(|l| match l {
                Node::Var(v) => Some(*v),
                _ => None,
            })
            .collect();
        (reads, writes)
    }

    pub fn relation_observes(&self) -> EntityVec<EventId, bool> {
        self.relation_untainted(false)
    }

    /// Per event: whether it is a frozen relation whose function depends on the relation's
    /// own slot only through the states (a friction element's `w_relfric < 0`, which selects
    /// the acceleration that integrates to the speed): within a step the function is
    /// continuous in time whatever the relation, as an observer's is, so its crossing can be
    /// located and refined the same way.
    pub fn relation_integrates(&self) -> EntityVec<EventId, bool> {
        self.relation_untainted(true)
    }

    /// Per event: a frozen relation whose function does not read its slot through the step's
    /// statements (`through_states`: not counting what the integration formula carries from a
    /// derivative to its state; then a block's inner assignments are followed one by one, its
    /// tearing variables depending on the relation where one of its equations reads what
    /// does before the block).
    fn relation_untainted(&self, through_states: bool) -> EntityVec<EventId, bool> {
        let integrated = |s: &Slot| {
            through_states
                && matches!(
                    self.vars[*s].kind,
                    SlotKind::System(SVarKind::State | SVarKind::Stage)
                )
        };
        let reads = |e: ExprId| -> Vec<Slot> {
            let mut leaves = Vec::new();
            self.arena.leaves(e, &mut leaves);
            leaves
                .iter()
                .filter_map(|l| match l {
                    Node::Var(v) => Some(*v),
                    _ => None,
                })
                .collect()
        };
        // Per statement, once: (what the block's equations read, its tearing variables) and
        // each assignment's (write, reads); an assignment is a block of none.
        type Reads = (Vec<Slot>, Vec<Slot>, Vec<(Slot, Vec<Slot>)>);
        let rw: Vec<Reads> = self
            .step
            .iter()
            .map(|st| match st {
                Stmt::Block(b) if through_states => {
                    let inner: Vec<(Slot, Vec<Slot>)> =
                        b.inner.iter().map(|a| (a.var, reads(a.expr))).collect();
                    let mut all: Vec<Slot> = inner.iter().flat_map(|(_, r)| r.clone()).collect();
                    all.extend(b.residuals.iter().flat_map(|&e| reads(e)));
                    (all, b.tearing.clone(), inner)
                }
                Stmt::Assign(a) if through_states => {
                    (Vec::new(), Vec::new(), vec![(a.var, reads(a.expr))])
                }
                _ => {
                    let (r, w) = self.reads_writes(st, true);
                    (r, w, Vec::new())
                }
            })
            .collect();
        self.events
            .iter()
            .map(|e| {
                let Some(slot) = e.relation.and_then(|r| r.slot) else {
                    return false;
                };
                let mut tainted = rustc_hash::FxHashSet::default();
                tainted.insert(slot);
                for (reads, writes, inner) in &rw {
                    if reads.iter().any(|r| tainted.contains(r)) {
                        tainted.extend(writes.iter().copied().filter(|w| !integrated(w)));
                    }
                    for (w, r) in inner {
                        if !integrated(w) && r.iter().any(|r| tainted.contains(r)) {
                            tainted.insert(*w);
                        }
                    }
                }
                !reads(e.z).iter().any(|v| tainted.contains(v))
            })
            .collect()
    }

    /// Per event: what sets the scale of its function's value — the slots it reads and the
    /// largest magnitude among its constants. A frozen relation whose function is within
    /// [`THRESHOLD_RTOL`] of the largest of those magnitudes is at its threshold: rounding
    /// (and a Newton iteration's tolerance) decide its sign there, not the model.
    pub fn relation_scales(&self) -> EntityVec<EventId, (Vec<Slot>, f64)> {
        self.events
            .iter()
            .map(|e| {
                let mut slots = Vec::new();
                let mut k = 0.0f64;
                for id in self.arena.post_order(e.z, |_| false) {
                    match self.arena.node(id) {
                        Node::Var(v) => slots.push(v),
                        Node::Const(_) => k = k.max(self.arena.as_const(id).unwrap_or(0.0).abs()),
                        _ => {}
                    }
                }
                slots.sort_unstable();
                slots.dedup();
                (slots, k)
            })
            .collect()
    }

    /// Per event: its group of frozen relations that select equations of one statement (the
    /// branches of one if-expression, the switches of one torn block), as the smallest event
    /// of the group; an event without a frozen relation is a group of its own. A relation
    /// search at an instant that finds no consistent combination among the relations that
    /// changed widens to their groups (a saturation's upper limit left at a fold, where the
    /// only consistent branch is the lower limit, a relation that never changed).
    pub fn relation_groups(&self) -> EntityVec<EventId, EventId> {
        let by_slot: rustc_hash::FxHashMap<Slot, EventId> = self
            .events
            .iter_enumerated()
            .filter_map(|(k, e)| Some((e.relation?.slot?, k)))
            .collect();
        let mut sets = petgraph::unionfind::UnionFind::<usize>::new(self.events.len());
        for st in &self.step {
            let (reads, _) = self.reads_writes(st, false);
            let mut read = reads.iter().filter_map(|s| by_slot.get(s));
            if let Some(first) = read.next() {
                for k in read {
                    sets.union(first.index(), k.index());
                }
            }
        }
        // The smallest event of each group names it.
        let mut least: Vec<usize> = (0..self.events.len()).collect();
        for k in 0..self.events.len() {
            let r = sets.find_mut(k);
            least[r] = least[r].min(k);
        }
        self.events
            .keys()
            .map(|k| EventId::new(least[sets.find_mut(k.index())]))
            .collect()
    }

    /// Per event, its rank among the when-clauses whose conditions become true together in an
    /// event iteration: 0 when no other event's actions feed its condition or its actions'
    /// values (through the step's statements and the frozen relations they read), else one
    /// more than the highest
    /// rank of those that do. Of the conditions that became true together, those of the
    /// lowest rank act first; the others are checked again after the model is solved with
    /// those actions (a transition's `fire = enableFire and time >= t_start + waitTime` waits
    /// for `when enableFire then t_start = time` — a when-equation holds together with the
    /// others).
    pub fn event_ranks(&self) -> EntityVec<EventId, u32> {
        // Which statement computes each slot, and what it reads.
        let mut writer: rustc_hash::FxHashMap<Slot, usize> = Default::default();
        let mut reads: Vec<Vec<Slot>> = Vec::new();
        for (i, st) in self.step.iter().enumerate() {
            let (r, writes) = self.reads_writes(st, false);
            reads.push(r);
            for w in writes {
                writer.insert(w, i);
            }
        }
        // A frozen relation's slot follows its relation's operands.
        let relation_of: rustc_hash::FxHashMap<Slot, ExprId> = self
            .events
            .iter()
            .filter_map(|e| e.relation.and_then(|r| r.slot.map(|s| (s, r.live))))
            .collect();
        let n = self.events.len();
        // The slots each event's condition depends on, within an instant's round.
        let depends: EntityVec<EventId, rustc_hash::FxHashSet<Slot>> = self
            .events
            .iter()
            .map(|e| {
                let cond = match (e.discrete, e.relation) {
                    (Some(d), _) => Some(d),
                    (None, Some(r)) if r.slot.is_none() => Some(r.live),
                    (None, None) if e.sample.is_none() && !e.initial && !e.terminal && !e.at => {
                        Some(e.z)
                    }
                    _ => None,
                };
                let mut seen = rustc_hash::FxHashSet::default();
                let mut stack = Vec::new();
                // The condition, and the values the actions assign: an action that reads what
                // another event assigns at the same instant acts after it.
                let roots = cond
                    .into_iter()
                    .chain(e.assigns.iter().chain(&e.reinits).map(|&(_, x)| x));
                let mut leaves = Vec::new();
                self.arena.leaves_of(roots, &mut leaves);
                stack.extend(leaves.iter().filter_map(|l| match l {
                    Node::Var(v) => Some(*v),
                    _ => None,
                }));
                while let Some(v) = stack.pop() {
                    if !seen.insert(v) {
                        continue;
                    }
                    if let Some(&i) = writer.get(&v) {
                        stack.extend(reads[i].iter().copied());
                    }
                    if let Some(&r) = relation_of.get(&v) {
                        let mut leaves = Vec::new();
                        self.arena.leaves(r, &mut leaves);
                        stack.extend(leaves.iter().filter_map(|l| match l {
                            Node::Var(v) => Some(*v),
                            _ => None,
                        }));
                    }
                }
                seen
            })
            .collect();
        // k feeds j when k's actions assign a slot j's condition depends on.
        let feeds = |k: EventId, j: EventId| {
            k != j
                && self.events[k]
                    .assigns
                    .iter()
                    .chain(&self.events[k].reinits)
                    .any(|(x, _)| depends[j].contains(x))
        };
        let upstream: EntityVec<EventId, Vec<EventId>> = self
            .events
            .keys()
            .map(|j| self.events.keys().filter(|&k| feeds(k, j)).collect())
            .collect();
        // Longest chain of feeding events above each (a cycle is cut where it closes).
        type Table<T> = EntityVec<EventId, T>;
        fn rank(
            j: EventId,
            up: &Table<Vec<EventId>>,
            memo: &mut Table<Option<u32>>,
            on: &mut Table<bool>,
        ) -> u32 {
            if let Some(r) = memo[j] {
                return r;
            }
            on[j] = true;
            let mut r = 0;
            for &k in &up[j] {
                if !on[k] {
                    r = r.max(1 + rank(k, up, memo, on));
                }
            }
            on[j] = false;
            memo[j] = Some(r);
            r
        }
        let mut memo = vec![None; n].into();
        let mut on = vec![false; n].into();
        self.events
            .keys()
            .map(|j| rank(j, &upstream, &mut memo, &mut on))
            .collect()
    }

    /// What the start of an event iteration's round copies (`pre(v) := v`): the discrete
    /// pre copies, then the other slots the events' actions read as `pre(v)`, each once.
    pub fn round_pre_copies(&self) -> Vec<(Slot, Slot)> {
        let mut copies = self.discrete_pre.clone();
        for e in &self.events {
            for &c in &e.pres {
                if !copies.contains(&c) {
                    copies.push(c);
                }
            }
        }
        copies
    }

    /// Parameters a user may change while the model runs: those bound to a literal value or
    /// not bound at all. A parameter bound to an expression of others is recomputed from them.
    pub fn tunable_parameters(&self) -> Vec<Slot> {
        self.vars
            .iter()
            .enumerate()
            .filter(|(_, v)| {
                v.kind == SlotKind::System(SVarKind::Parameter)
                    && !v.constant
                    && v.name != "initial()"
                    && v.binding
                        .is_none_or(|b| matches!(self.arena.node(b), Node::Const(_)))
            })
            .map(|(i, _)| Slot::new(i))
            .collect()
    }

    /// What to recompute, in order, after tunable parameters changed: the parameters bound to
    /// expressions, then the hoisted parameter expressions of the step.
    pub fn parameter_updates(&self) -> Vec<(Slot, ExprId)> {
        self.parameters
            .iter()
            .chain(&self.hoisted)
            .filter_map(|&p| self.vars[p].binding.map(|b| (p, b)))
            .filter(|&(_, b)| !matches!(self.arena.node(b), Node::Const(_)))
            .collect()
    }

    /// The slots a step computes (states, derivatives, algebraics, stage values): checked for
    /// finiteness.
    pub fn unknown_slots(&self) -> Vec<Slot> {
        self.vars
            .iter()
            .enumerate()
            .filter(|(_, v)| {
                matches!(
                    v.kind,
                    SlotKind::System(
                        SVarKind::State
                            | SVarKind::Derivative
                            | SVarKind::Algebraic
                            | SVarKind::Stage
                    )
                )
            })
            .map(|(i, _)| Slot::new(i))
            .collect()
    }

    /// Scratch slots after the variables: the finiteness check sum (generated code), then for
    /// the largest Newton block its residuals (k), Jacobian (k²), residual scales (k), and for
    /// the damped retry the start values, the iterate a step starts from and the step (3k),
    /// and for a block that slides its switches' band arguments at the last evaluation and
    /// where the step starts (2 per switch).
    pub fn scratch_slots(&self) -> usize {
        let max_k = self
            .init
            .iter()
            .chain(&self.step)
            .filter_map(|s| match s {
                Stmt::Block(b) => {
                    Some(b.tearing.len() * (b.tearing.len() + 5) + 2 * b.switches.len())
                }
                _ => None,
            })
            .max()
            .unwrap_or(0);
        1 + max_k
    }

    /// The memory layout of the step function as text: one line per slot (byte offset, kind,
    /// name), then the scratch area. Generated code, the runtime and the object emitter all
    /// use this order.
    pub fn layout(&self) -> String {
        let mut s = String::new();
        let _ = writeln!(
            s,
            "layout {}: {} slots of f64 ({} bytes) + {} scratch slots",
            self.name,
            self.vars.len(),
            8 * self.vars.len(),
            self.scratch_slots()
        );
        for (i, v) in self.vars.iter().enumerate() {
            let kind = match v.kind {
                SlotKind::System(k) => format!("{k:?}").to_lowercase(),
                SlotKind::Tangent => "tangent".into(),
                SlotKind::Slide => "slide".into(),
                SlotKind::Hoisted => "hoisted".into(),
            };
            let _ = writeln!(s, "  {:>6}  {:<12} {}", 8 * i, kind, v.name);
        }
        let _ = writeln!(s, "  {:>6}  scratch", 8 * self.vars.len());
        s
    }

    /// What a run whose memory is `mem` should hear of sliding on switches ([`slide`]): how
    /// many block solves slid, and which blocks can.
    pub fn slide_note(&self, mem: &[f64]) -> Option<String> {
        let slide = self.slide?;
        let n = *mem.get(slide.count.index())?;
        if n < 1.0 {
            return None;
        }
        let blocks: Vec<String> = self
            .init
            .iter()
            .chain(&self.step)
            .filter_map(|s| match s {
                Stmt::Block(b) if b.slides() => Some(b.index.index().to_string()),
                _ => None,
            })
            .collect();
        Some(format!(
            "{n} solve{} of block{} {} slid on a switch without events (the step's equations have no solution on either side of it: the switched variable is held at its threshold, within {:e} relative to the relation's operands, Filippov's solution; see the book's Methods)",
            if n == 1.0 { "" } else { "s" },
            if blocks.len() == 1 { "" } else { "s" },
            blocks.join(", "),
            slide::WIDTH / 2.0
        ))
    }

    /// A `der(x)` of the step system: the damped retry's start at rest sets it to zero.
    pub fn is_derivative(&self, v: Slot) -> bool {
        self.vars[v].kind == SlotKind::System(crate::system::SVarKind::Derivative)
    }

    pub fn name_of(&self, v: Slot) -> &str {
        &self.vars[v].name
    }

    pub fn expr_string(&self, e: ExprId) -> String {
        let name = |v: Slot| self.vars[v].name.clone();
        ExprPrinter {
            arena: &self.arena,
            name: &name,
            temps: None,
        }
        .to_string(e)
    }

    /// Worst-case work of one block iteration and of the block as a whole.
    pub fn block_work(&self, b: &TornBlock, newton: &Newton) -> (WorkBound, WorkBound) {
        let k = b.tearing.len() as u64;
        let mut roots: Vec<ExprId> = b.inner.iter().map(|a| a.expr).collect();
        roots.extend(b.tangents.iter().map(|a| a.expr));
        roots.extend(b.residuals.iter().copied());
        roots.extend(b.residual_scales.iter().copied());
        roots.extend(b.jacobian.iter().copied());
        roots.extend(b.switches.iter().copied());
        let mut iter = expr_work(&self.arena, &roots);
        // LU with partial pivoting and the two triangular solves, then the update and test.
        iter.flops += band::lu_flops(k as usize, b.band.0, b.band.1) as u64;
        // At most max_iterations + extended evaluations, then the damped retry's, and as many
        // LU solves; a
        // linear block: one evaluation, one solve, the inner assignments once more.
        let inner_only = expr_work(
            &self.arena,
            &b.inner.iter().map(|a| a.expr).collect::<Vec<_>>(),
        );
        let total = if b.linear {
            let mut t = iter;
            t += inner_only;
            t
        } else {
            // A block that slides may take the damped retry twice ([`slide`]).
            let retries = if b.slides() { 2 } else { 1 };
            iter.times(u64::from(newton.full_iterations()) + retries * u64::from(newton.damped))
        };
        (iter, total)
    }

    /// Worst-case work of one step: every Newton block at its iteration limit.
    pub fn work_bound(&self) -> WorkBound {
        let mut w = WorkBound {
            flops: 1, // time = t + h
            ..WorkBound::default()
        };
        for s in &self.step {
            match s {
                Stmt::Assign(a) => w += expr_work(&self.arena, &[a.expr]),
                Stmt::Block(b) => w += self.block_work(b, &self.newton).1,
            }
        }
        w
    }

    /// The plan as text (`rtc analyze --emit plan`).
    pub fn print(&self) -> String {
        let mut s = String::new();
        let _ = writeln!(s, "plan {} (method {})", self.name, self.method);
        let _ = writeln!(
            s,
            "  newton: at most {} iterations, then {} damped evaluations, |dx| <= {:e} + {:e}*|x|",
            self.newton.max_iterations, self.newton.damped, self.newton.atol, self.newton.rtol
        );
        s.push_str("init:\n");
        for &v in &self.hoisted {
            if let Some(b) = self.vars[v].binding {
                let _ = writeln!(s, "  {} := {}", self.name_of(v), self.expr_string(b));
            }
        }
        self.print_stmts(&mut s, &self.init);
        s.push_str("step:\n");
        let _ = writeln!(s, "  time := t + h");
        if !self.carried.is_empty() {
            let _ =
                writeln!(
                s,
                "  // read before they are recomputed (previous step's values, no pre copy): {}",
                self.carried.iter().map(|&v| self.name_of(v)).collect::<Vec<_>>().join(", ")
            );
        }
        for (p, v) in &self.pre_copies {
            let _ = writeln!(s, "  {} := {}", self.name_of(*p), self.name_of(*v));
        }
        if !self.discrete_pre.is_empty() {
            let _ = writeln!(
                s,
                "  // at each round of an event iteration: {}",
                self.discrete_pre
                    .iter()
                    .map(|&(p, v)| format!("{} := {}", self.name_of(p), self.name_of(v)))
                    .collect::<Vec<_>>()
                    .join(", ")
            );
        }
        self.print_stmts(&mut s, &self.step);
        let w = self.work_bound();
        let _ = writeln!(
            s,
            "work bound per step: {} flops, {} libm calls, {} external C calls",
            w.flops, w.libm_calls, w.c_calls
        );
        s
    }

    fn print_stmts(&self, s: &mut String, stmts: &[Stmt]) {
        for st in stmts {
            match st {
                Stmt::Assign(a) => {
                    let _ = writeln!(
                        s,
                        "  {} := {}",
                        self.name_of(a.var),
                        self.expr_string(a.expr)
                    );
                }
                Stmt::Block(b) => {
                    let names: Vec<&str> = b.tearing.iter().map(|&v| self.name_of(v)).collect();
                    let _ = writeln!(
                        s,
                        "  block {} ({}, {} tearing: {}) {{",
                        b.index,
                        if b.linear { "linear" } else { "nonlinear" },
                        b.tearing.len(),
                        names.join(", ")
                    );
                    for a in &b.inner {
                        let _ = writeln!(
                            s,
                            "    {} := {}",
                            self.name_of(a.var),
                            self.expr_string(a.expr)
                        );
                    }
                    for (k, r) in b.residuals.iter().enumerate() {
                        let _ = writeln!(s, "    residual {k}: {}", self.expr_string(*r));
                    }
                    let k = b.tearing.len();
                    for i in 0..k {
                        for j in 0..k {
                            let e = b.jacobian[i * k + j];
                            if self.arena.as_const(e) != Some(0.0) {
                                let _ = writeln!(s, "    J[{i},{j}] = {}", self.expr_string(e));
                            }
                        }
                    }
                    if !b.tangents.is_empty() {
                        let _ = writeln!(s, "    ({} tangent assignments)", b.tangents.len());
                    }
                    s.push_str("  }\n");
                }
            }
        }
    }

    /// Checks the plan's invariants; an error is a compiler bug, reported as a diagnostic.
    pub fn verify(&self) -> Result<(), Box<Diagnostic>> {
        let mut defined: FxHashSet<Slot> = FxHashSet::default();
        for (i, v) in self.vars.iter().enumerate() {
            if matches!(v.kind, SlotKind::Hoisted | SlotKind::Slide) {
                defined.insert(Slot::new(i));
            }
            if matches!(
                v.kind,
                SlotKind::System(
                    SVarKind::Parameter
                        | SVarKind::Input
                        | SVarKind::Discrete
                        | SVarKind::Pre
                        | SVarKind::Time
                        | SVarKind::StepStart
                        | SVarKind::StepSize
                )
            ) {
                defined.insert(Slot::new(i));
            }
        }
        let unknowns: Vec<Slot> = self.unknown_slots();
        let states: FxHashSet<Slot> = self.formulas.iter().map(|(v, _)| *v).collect();
        // Init: states are known.
        let mut init_defined = defined.clone();
        init_defined.extend(states.iter().copied());
        self.verify_stmts(
            &self.init,
            &mut init_defined,
            &mut FxHashSet::default(),
            "init",
        )?;
        for &u in &unknowns {
            let stage = self.vars[u].kind == SlotKind::System(SVarKind::Stage);
            if !states.contains(&u) && !stage && !init_defined.contains(&u) {
                return Err(bug(format!("init does not compute `{}`", self.name_of(u))));
            }
        }
        let mut step_defined = defined;
        // Variables whose previous value the step reads before recomputing them.
        let mut carried: FxHashSet<Slot> = self.carried.iter().copied().collect();
        step_defined.extend(carried.iter().copied());
        self.verify_stmts(&self.step, &mut step_defined, &mut carried, "step")?;
        for &u in &unknowns {
            if !step_defined.contains(&u) {
                return Err(bug(format!(
                    "the step does not compute `{}`",
                    self.name_of(u)
                )));
            }
        }
        Ok(())
    }

    fn verify_stmts(
        &self,
        stmts: &[Stmt],
        defined: &mut FxHashSet<Slot>,
        carried: &mut FxHashSet<Slot>,
        what: &str,
    ) -> Result<(), Box<Diagnostic>> {
        let uses_ok = |e: ExprId, defined: &FxHashSet<Slot>| -> Option<Slot> {
            let mut leaves = Vec::new();
            self.arena.leaves(e, &mut leaves);
            leaves.into_iter().find_map(|l| match l {
                Node::Var(v) if !defined.contains(&v) => Some(v),
                _ => None,
            })
        };
        for st in stmts {
            match st {
                Stmt::Assign(a) => {
                    if let Some(v) = uses_ok(a.expr, defined) {
                        return Err(bug(format!(
                            "{what}: `{}` is used before it is computed (in `{}`)",
                            self.name_of(v),
                            self.name_of(a.var)
                        )));
                    }
                    if !defined.insert(a.var) && !carried.remove(&a.var) {
                        return Err(bug(format!(
                            "{what}: `{}` is assigned twice",
                            self.name_of(a.var)
                        )));
                    }
                }
                Stmt::Block(b) => {
                    let k = b.tearing.len();
                    if b.residuals.len() != k || b.jacobian.len() != k * k {
                        return Err(bug(format!("{what}: block {} is not square", b.index)));
                    }
                    let mut local = defined.clone();
                    for &t in &b.tearing {
                        if !local.insert(t) && !carried.remove(&t) {
                            return Err(bug(format!(
                                "{what}: `{}` is assigned twice",
                                self.name_of(t)
                            )));
                        }
                    }
                    for a in b.inner.iter().chain(&b.tangents) {
                        if let Some(v) = uses_ok(a.expr, &local) {
                            return Err(bug(format!(
                                "{what}: block {}: `{}` is used before it is computed",
                                b.index,
                                self.name_of(v)
                            )));
                        }
                        if !local.insert(a.var) && !carried.remove(&a.var) {
                            return Err(bug(format!(
                                "{what}: `{}` is assigned twice",
                                self.name_of(a.var)
                            )));
                        }
                    }
                    for &e in b.residuals.iter().chain(&b.jacobian) {
                        if let Some(v) = uses_ok(e, &local) {
                            return Err(bug(format!(
                                "{what}: block {}: residual uses `{}` before it is computed",
                                b.index,
                                self.name_of(v)
                            )));
                        }
                    }
                    *defined = local;
                }
            }
        }
        Ok(())
    }
}

fn bug(msg: String) -> Box<Diagnostic> {
    Box::new(
        Diagnostic::error("internal", format!("plan verifier: {msg}"))
            .help("this is a bug in rtc; please report it with the model"),
    )
}
