//! The step system: what inline integration produces and the step plan is built from.
//!
//! One table of variables (the slots of the step function's memory: states, derivatives,
//! algebraic and stage unknowns, `pre` values, parameters, inputs, `t`, `h`, `time`), the
//! initial system (the model at t0 with the states known) and the step system (the model at
//! the end of the step with each state's integration formula inlined, Cellier & Kofman §10.6),
//! each a square set of equations over one expression arena; per state its formula, the `pre`
//! copies made at the start of each step, the events, and the expressions that record every
//! flat variable by name. [`print`] writes it as text (`rtc analyze --emit system`); [`verify`]
//! checks its invariants between passes.

mod print;
mod verify;

pub use verify::verify;

use crate::diag::Span;
use crate::flat::VarKind;
use crate::flat::{FlatEq, FlatVar};
use crate::symbolic::{Arena, EntityVec, ExprId, Var};

crate::symbolic::entity!(
    /// A variable of the step system: an index into `Discretized::vars` (a slot of the step
    /// function's memory), and what `Node::Var` means in its arena.
    SysVar
);
crate::symbolic::entity!(
    /// An equation of a step-system [`System`] (the initial or the step system): an index
    /// into its `equations`, what BLT blocks and tearing name.
    SysEq
);
crate::symbolic::entity!(
    /// An event: an index into `Discretized::events` and `Plan::events` (the plan keeps the
    /// step system's events in order), the `k` of the generated `event<k>` functions.
    EventId
);
use rustc_hash::FxHashMap;

/// The integration formula of one state.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Formula {
    ForwardEuler,
    BackwardEuler,
    Trapezoid,
    /// Radau IIA, two stages (order 3): the stage at t + h/3 is a second copy of the model.
    Radau,
    /// An explicit Runge-Kutta formula; its stages are copies of the model.
    Rk(Rk),
    /// Adams-Bashforth of order 2 or 3 (Howe eq. 1.12, 1.16): one derivative evaluation per
    /// step and the derivatives of the previous steps; Euler, then AB-2, to start.
    Ab(u8),
    /// Linearly implicit Euler (§10.4): one linear solve with the Jacobian at the step start.
    LinearlyImplicit,
}

/// Explicit Runge-Kutta formulas for real-time use (Howe ch. 1, Bernstein 1979). Stage 0 is
/// the derivative at the start of the step, `pre(der(x))`, computed by the previous step.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Rk {
    /// RTRK-2: modified Euler with the input at the half step (Howe eq. 1.27–1.28).
    Rtrk2,
    /// RK-3 in Howe's real-time form (eq. 1.35–1.37): stages at h/3 and 2h/3.
    Rk3,
    /// Classical RK-4: needs the input at t + h/2 a quarter step before it exists.
    Rk4,
    /// Bernstein's five-stage real-time fourth-order formula (stages at k·h/5).
    Rtrk4,
}

impl Rk {
    /// (stage times c_k, rows a_kj for k ≥ 1, weights b_k).
    pub fn tableau(self) -> (&'static [f64], &'static [&'static [f64]], &'static [f64]) {
        match self {
            Rk::Rtrk2 => (&[0.0, 0.5], &[&[0.5]], &[0.0, 1.0]),
            Rk::Rk3 => (
                &[0.0, 1.0 / 3.0, 2.0 / 3.0],
                &[&[1.0 / 3.0], &[0.0, 2.0 / 3.0]],
                &[0.25, 0.0, 0.75],
            ),
            Rk::Rk4 => (
                &[0.0, 0.5, 0.5, 1.0],
                &[&[0.5], &[0.0, 0.5], &[0.0, 0.0, 1.0]],
                &[1.0 / 6.0, 1.0 / 3.0, 1.0 / 3.0, 1.0 / 6.0],
            ),
            Rk::Rtrk4 => (
                &[0.0, 0.2, 0.4, 0.6, 0.8],
                &[
                    &[0.2],
                    &[0.4, 0.0],
                    &[-0.4, 1.0, 0.0],
                    &[0.3, 0.0, 0.0, 0.5],
                ],
                &[
                    -1.0 / 24.0,
                    15.0 / 24.0,
                    -5.0 / 24.0,
                    5.0 / 24.0,
                    10.0 / 24.0,
                ],
            ),
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Rk::Rtrk2 => "RTRK-2",
            Rk::Rk3 => "RK-3",
            Rk::Rk4 => "RK-4",
            Rk::Rtrk4 => "RTRK-4 (Bernstein)",
        }
    }

    /// Whether every stage needs only inputs that exist in real time when the stage runs
    /// (a stage at c·h executed as pass k of s, at wall time k·h/s, needs c ≤ k/s).
    pub fn realtime_inputs(self) -> bool {
        let (c, _, _) = self.tableau();
        let s = c.len() as f64;
        c.iter()
            .enumerate()
            .all(|(k, &ck)| ck <= k as f64 / s + 1e-12)
    }
}

impl Formula {
    pub fn name(self) -> &'static str {
        match self {
            Formula::ForwardEuler => "forward Euler",
            Formula::BackwardEuler => "backward Euler",
            Formula::Trapezoid => "trapezoid",
            Formula::Radau => "Radau IIA",
            Formula::Rk(r) => r.name(),
            Formula::Ab(2) => "AB-2",
            Formula::Ab(_) => "AB-3",
            Formula::LinearlyImplicit => "linearly implicit Euler",
        }
    }

    pub fn is_explicit(self) -> bool {
        matches!(
            self,
            Formula::ForwardEuler | Formula::Rk(_) | Formula::Ab(_)
        )
    }
}

/// The method chosen on the command line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Method {
    ForwardEuler,
    BackwardEuler,
    Trapezoid,
    /// Radau IIA with two stages (order 3, stiffly stable) for every state.
    Radau,
    /// An explicit Runge-Kutta formula for every state.
    Rk(Rk),
    /// Adams-Bashforth of order 2 or 3 for every state.
    Ab(u8),
    /// Linearly implicit Euler for every state.
    Libe,
    /// Mixed mode with linearly implicit Euler (§10.4) for the implicit states instead of
    /// backward Euler (`--method mixed --implicit-as libe`).
    MixedLibe {
        implicit: Vec<String>,
    },
    /// Multi-rate: the `fast` states take `ratio` forward Euler sub-steps per step; the others
    /// one step, by backward Euler if named in `implicit`, else forward Euler.
    MultiRate {
        fast: Vec<String>,
        ratio: usize,
        implicit: Vec<String>,
        /// Howe's second-order predictor for the slow states instead of the linear one.
        quadratic: bool,
    },
    /// Backward Euler for the named states, forward Euler for the rest.
    Mixed {
        implicit: Vec<String>,
    },
}

impl Method {
    /// The order of the global error on smooth solutions (the lowest of a mixed method's
    /// formulas).
    pub fn order(&self) -> u32 {
        match self {
            Method::ForwardEuler | Method::BackwardEuler | Method::Libe => 1,
            Method::Trapezoid => 2,
            Method::Radau => 3,
            Method::Rk(Rk::Rtrk2) => 2,
            Method::Rk(Rk::Rk3) => 3,
            Method::Rk(Rk::Rk4) | Method::Rk(Rk::Rtrk4) => 4,
            Method::Ab(k) => u32::from(*k),
            Method::MultiRate { .. } | Method::MixedLibe { .. } | Method::Mixed { .. } => 1,
        }
    }

    pub fn name(&self) -> &'static str {
        match self {
            Method::ForwardEuler => "fe",
            Method::BackwardEuler => "be",
            Method::Trapezoid => "trapezoid",
            Method::Radau => "radau",
            Method::Rk(Rk::Rtrk2) => "rtrk2",
            Method::Rk(Rk::Rk3) => "rk3",
            Method::Rk(Rk::Rk4) => "rk4",
            Method::Rk(Rk::Rtrk4) => "rtrk4",
            Method::Ab(2) => "ab2",
            Method::Ab(_) => "ab3",
            Method::Libe => "libe",
            Method::MultiRate { .. } => "multirate",
            Method::MixedLibe { .. } => "mixed",
            Method::Mixed { .. } => "mixed",
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SVarKind {
    /// A state's value at the end of the step.
    State,
    /// `der(x)` at the end of the step.
    Derivative,
    /// An algebraic or discrete variable at the end of the step.
    Algebraic,
    /// The value a variable had at the end of the previous step (`pre(x)`, `pre(der(x))`).
    Pre,
    Parameter,
    Input,
    /// `time` in model equations: the end of the step, t + h.
    Time,
    /// t: the start of the step (the step function's argument).
    StepStart,
    /// h: the step size (the step function's argument).
    StepSize,
    /// A multi-stage method's stage value.
    Stage,
    /// A discrete variable assigned in a when-equation: known to the step, changed by events.
    Discrete,
}

/// A variable of the discretised system (a slot of the step function's memory).
#[derive(Clone, Debug)]
pub struct SVar {
    pub name: String,
    pub kind: SVarKind,
    /// The flat variable it stands for.
    pub flat: Option<FlatVar>,
    /// For `Pre` variables: whose previous value.
    pub pre_of: Option<SysVar>,
    /// Parameters: value expression (over parameters); states and algebraics: start value.
    pub binding: Option<ExprId>,
    pub span: Span,
    /// A Modelica constant, or a parameter the structure was evaluated with (see
    /// [`crate::structure::vanishing`]): never tunable.
    pub constant: bool,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Origin {
    /// An equation of the flat model.
    Model(FlatEq),
    /// The discretisation equation of a state (step variable).
    Formula(SysVar),
    /// The buffer of a `delay` (its source, samples and grid time; `discretize::delays`).
    Delay,
}

#[derive(Clone, Copy, Debug)]
pub struct SEquation {
    pub lhs: ExprId,
    pub rhs: ExprId,
    pub span: Span,
    pub origin: Origin,
}

/// A flat variable as the results record it: an expression over the system's variables (an
/// alias is its representative with a sign).
#[derive(Clone, Debug)]
pub struct Recorded {
    pub name: String,
    pub expr: ExprId,
    /// `State` only for the states the system integrates (not their aliases).
    pub kind: VarKind,
    pub is_output: bool,
}

/// An input read at a stage time: its own slot, which the environment writes with the input's
/// value at t + offset·h.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct StagedInput<V: Var = SysVar> {
    pub slot: V,
    /// The input's main slot.
    pub input: V,
    /// When within the step, as a fraction of h.
    pub offset: f64,
}

impl<V: Var> StagedInput<V> {
    pub fn map<W: Var>(self, f: impl Fn(V) -> W) -> StagedInput<W> {
        StagedInput {
            slot: f(self.slot),
            input: f(self.input),
            offset: self.offset,
        }
    }
}

/// A square system: equations and the unknowns they determine.
#[derive(Clone, Debug)]
pub struct System<V: Var = SysVar> {
    pub equations: EntityVec<SysEq, SEquation>,
    pub unknowns: Vec<V>,
    /// The step size: an equation is never solved for a variable whose coefficient vanishes
    /// with it (`der(x) = (x − pre(x))/h` would amplify errors by 1/h; the formula is solved
    /// for the state instead).
    pub step_size: Option<V>,
    /// The values of the parameters where they are known when the plan is built: an equation
    /// is not solved for a variable whose coefficient is zero there (a parameter matrix
    /// entry such as 2/3·sin(0) would be divided by).
    pub parameter_values: FxHashMap<V, f64>,
    /// Unknowns the system defines as a sine, cosine or tangent of something that varies
    /// (the entries of a rotation matrix): coefficients of them pass through zero.
    pub trig_vars: rustc_hash::FxHashSet<V>,
}

impl<V: Var> Default for System<V> {
    fn default() -> Self {
        System {
            equations: EntityVec::new(),
            unknowns: Vec::new(),
            step_size: None,
            parameter_values: FxHashMap::default(),
            trig_vars: Default::default(),
        }
    }
}

impl System {
    /// The system over another variable space (the plan's slots): same equations.
    pub fn map<W: Var>(&self, f: impl Fn(SysVar) -> W) -> System<W> {
        System {
            equations: self.equations.clone(),
            unknowns: self.unknowns.iter().map(|&v| f(v)).collect(),
            step_size: self.step_size.map(&f),
            parameter_values: self
                .parameter_values
                .iter()
                .map(|(&v, &x)| (f(v), x))
                .collect(),
            trig_vars: self.trig_vars.iter().map(|&v| f(v)).collect(),
        }
    }
}

/// The result of inline integration.
#[derive(Clone, Debug)]
pub struct Discretized {
    pub name: String,
    pub arena: Arena<SysVar>,
    pub vars: EntityVec<SysVar, SVar>,
    /// The model at t0 with the states known.
    pub init: System,
    /// One step.
    pub step: System,
    /// Per state (its `State` variable): the formula.
    pub formulas: Vec<(SysVar, Formula)>,
    /// `pre` variables and the variables they copy at the start of each step: of the
    /// continuous variables (states, their histories, stage and buffer values).
    pub pre_copies: Vec<(SysVar, SysVar)>,
    /// `pre` variables of discrete-valued variables (Boolean, Integer, enumeration, discrete
    /// Real, the when-assigned and the frozen relations), and their variables: they change
    /// only at event instants, whose rounds copy them (`pre(v) := v`) until none changes.
    pub discrete_pre: Vec<(SysVar, SysVar)>,
    pub time: SysVar,
    pub step_start: SysVar,
    pub step_size: SysVar,
    /// Every flat variable that is not a parameter, by name, as an expression over system
    /// variables (aliases included), for recording results.
    pub outputs: Vec<Recorded>,
    /// Input slots read at a stage time: (slot, the input's main slot, offset in the step as
    /// a fraction of h). The environment writes the input's value at t + offset·h.
    pub input_stages: Vec<StagedInput<SysVar>>,
    /// State events from when-equations.
    pub events: EntityVec<EventId, Event>,
    /// The alias sets of the flat model (flat variable ids), for reports.
    pub alias_sets: Vec<crate::flat::AliasSet>,
    /// `assert(condition, message)` of the model (and of its functions), over system
    /// variables: checked after every step; a false one stops the run.
    pub assertions: Vec<(ExprId, String)>,
    /// `assert` in `when initial()`: checked once, after initialisation.
    pub initial_assertions: Vec<(ExprId, String)>,
    /// `assert(…, level = AssertionLevel.warning)`: checked after initialisation and every
    /// step like the others; one that fails is reported and the run goes on.
    pub warnings: Vec<(ExprId, String)>,
}

/// An event (Cellier & Kofman §10.8): a state event, the relation `z ≤ 0` (`below`) or
/// `z > 0` becoming true; a time event `sample(start, interval)` or `initial()`; or a
/// condition of discrete variables becoming true at another event's instant. Its actions
/// assign discrete variables (in dependency order) and re-initialise states.
#[derive(Clone, Debug)]
pub struct Event<V: Var = SysVar> {
    pub z: ExprId,
    pub below: bool,
    /// A relation in an if-expression: an event whenever it changes, in either direction
    /// (no actions; the step is split at the switching time).
    pub both: bool,
    pub sample: Option<(f64, f64)>,
    /// `when initial()`: acts once, after initialisation.
    pub initial: bool,
    /// `when terminal()`: acts once, at the end of a run that reached its stop time.
    pub terminal: bool,
    /// A Boolean condition of discrete variables (then `z` is unused): checked at event
    /// instants, after other events' actions (the event iteration); it acts when it becomes
    /// true.
    pub discrete: Option<ExprId>,
    pub reinits: Vec<(V, ExprId)>,
    /// Sorted: each assignment sees the new values of the ones before it.
    pub assigns: Vec<(V, ExprId)>,
    /// `terminate("message")`: the run ends after the event.
    pub terminate: Option<String>,
    /// (when-equation, branch): of the branches of one when/elsewhen chain that fire at one
    /// instant only the first acts.
    pub chain: (usize, usize),
    /// (pre slot, variable): slots that the expressions read as `pre(v)`, filled with the
    /// values just before the event instant.
    pub pres: Vec<(V, V)>,
    /// dz/dt over states' derivatives and time, for methods of order 3 and more: the event
    /// time is then located by one inverse cubic Hermite interpolation instead of regula
    /// falsi.
    pub dz: Option<ExprId>,
    /// A time event at the time `z` evaluates to (from parameters; a relation of time
    /// alone, frozen in the slot its assignment sets).
    pub at: bool,
    /// `z` jumps (a floor, an integer division, a relation, a selection inside it): no
    /// interpolation can locate where it crosses zero, so the event happens at the end of the
    /// step in which it crossed (never before its condition holds).
    pub jump: bool,
    /// A located when-condition with `>=` or `<=`: true at z = 0 (else false there).
    pub closed: bool,
    /// The relation whose value the event stands for, evaluated on the current values (the
    /// event functions write it after the functions and their slopes).
    pub relation: Option<Relation<V>>,
    /// The condition as written, for logs.
    pub text: String,
    pub span: Span,
}

/// A relation of an event ([`Event::relation`]): `live` is the relation itself (0/1). With a
/// `slot`, the relation is frozen there between events (specification 8.5: relations keep
/// their value during continuous integration and change only at event instants): the step
/// equations read the slot; the event (its function crossing zero, or its time due) changes
/// it, and at every round of an event iteration a frozen relation whose event did not act
/// takes its live value. Without a slot it is a when-condition of time, discrete variables and
/// parameters, scheduled as a time event and checked for becoming true in event iterations.
#[derive(Clone, Copy, Debug)]
pub struct Relation<V: Var = SysVar> {
    pub slot: Option<V>,
    pub live: ExprId,
}

impl Event {
    /// The event over another variable space (the plan's slots).
    pub fn map<W: Var>(&self, f: impl Fn(SysVar) -> W) -> Event<W> {
        let pairs = |v: &[(SysVar, ExprId)]| v.iter().map(|&(x, e)| (f(x), e)).collect();
        Event {
            z: self.z,
            below: self.below,
            both: self.both,
            sample: self.sample,
            initial: self.initial,
            terminal: self.terminal,
            discrete: self.discrete,
            reinits: pairs(&self.reinits),
            assigns: pairs(&self.assigns),
            terminate: self.terminate.clone(),
            chain: self.chain,
            pres: self.pres.iter().map(|&(p, v)| (f(p), f(v))).collect(),
            dz: self.dz,
            at: self.at,
            jump: self.jump,
            closed: self.closed,
            relation: self.relation.map(|r| Relation {
                slot: r.slot.map(&f),
                live: r.live,
            }),
            text: self.text.clone(),
            span: self.span,
        }
    }
}

impl Discretized {
    /// Appends a variable (a new slot of the step function's memory) and returns it.
    pub(crate) fn add_var(
        &mut self,
        name: String,
        kind: SVarKind,
        like: SysVar,
        pre_of: Option<SysVar>,
    ) -> SysVar {
        let id = SysVar::new(self.vars.len());
        let l = &self.vars[like];
        let (flat, binding, span) = match kind {
            SVarKind::Input => (l.flat, l.binding, l.span),
            _ => (None, None, l.span),
        };
        self.vars.push(SVar {
            name,
            kind,
            flat,
            pre_of,
            binding,
            span,
            constant: false,
        });
        id
    }

    pub fn var(&self, v: SysVar) -> &SVar {
        &self.vars[v]
    }

    pub fn name_of(&self, v: SysVar) -> &str {
        &self.vars[v].name
    }
}

/// A pre copy whose source is itself a pre slot (the history of a multistep formula) must run
/// before the copy that overwrites that source: deepest history first.
pub fn order_pre_copies(pre_copies: &mut [(SysVar, SysVar)]) {
    let pre_of: FxHashMap<SysVar, SysVar> = pre_copies.iter().map(|&(p, v)| (p, v)).collect();
    let depth = |mut p: SysVar| {
        let mut d = 0;
        while let Some(&v) = pre_of.get(&p) {
            if !pre_of.contains_key(&v) {
                break;
            }
            d += 1;
            p = v;
        }
        d
    };
    pre_copies.sort_by_key(|&(p, _)| std::cmp::Reverse(depth(p)));
}
