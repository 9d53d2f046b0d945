//! Inline integration: the flat model and an integration formula become one algebraic system
//! per step (Cellier & Kofman §10.6, "inline integration"; §10.7 for mixed mode).
//!
//! Every step solves the model equations at the end of the step, t + h, for the derivatives and
//! algebraic variables, together with one discretisation equation per state that ties the new
//! state value to the value at the start of the step (`pre(x)`):
//!
//! | formula       | equation                                   | |
//! |---------------|--------------------------------------------|-|
//! | forward Euler | `x = pre(x) + h·pre(der(x))`               | explicit: `pre(der(x))` is the derivative at t, computed by the previous step |
//! | backward Euler| `x = pre(x) + h·der(x)`                    | implicit |
//! | trapezoid     | `x = pre(x) + h/2·(pre(der(x)) + der(x))`  | implicit |
//!
//! Mixed mode (eq. 10.17) gives each state its own formula: the explicit ones are computed
//! first, from values that already exist, and the implicit ones are solved with the model.
//! The initial system is the model alone at t0 with every state known: it supplies the
//! derivatives and algebraic values the first explicit step needs.
//!
//! Output: a [`Discretized`] system whose variables live in one table shared by the initial
//! and the step system (the memory layout of the step function). Alias elimination runs first,
//! so aliases are not unknowns; they are kept as output expressions for recording.
//!
//! Designed for more formulas: a multi-stage method adds stage unknowns (new variables of kind
//! [`SVarKind::Stage`]) and copies of the model equations at the stage times; per-state
//! formulas and several rates are per-state choices here, not separate code paths.

use crate::diag::{Diagnostic, Span};
use crate::flat::{FlatModel, FlatVar};
use crate::structure::alias::{self, Aliases};
use crate::symbolic::{EntityVec, ExprId, Node};

type Arena = crate::symbolic::Arena<SysVar>;
use crate::system::SysVar;
mod delays;
mod events;
mod formulas;
mod layout;

use crate::system::{
    order_pre_copies, Discretized, Formula, Method, SEquation, SVar, SVarKind, StagedInput,
};
use layout::Layout;
use rustc_hash::FxHashMap;

struct Builder<'m> {
    flat: &'m FlatModel,
    aliases: Aliases,
    arena: Arena,
    vars: EntityVec<SysVar, SVar>,
    /// flat var → its step variable (value at the end of the step).
    value_of: FxHashMap<FlatVar, SysVar>,
    /// flat state → der variable.
    der_of: FxHashMap<FlatVar, SysVar>,
    /// step var → its pre variable.
    pre_of: FxHashMap<SysVar, SysVar>,
    pre_copies: Vec<(SysVar, SysVar)>,
    time: SysVar,
    /// What `time` stands for when translating a stage copy (`t + c·h`); `None`: `time`.
    time_expr: Option<ExprId>,
    /// Input slots read at stage times (see [`Discretized::input_stages`]).
    input_stages: Vec<StagedInput>,
    cache: FxHashMap<ExprId, ExprId>,
}

impl<'m> Builder<'m> {
    fn add(&mut self, name: String, kind: SVarKind, flat: Option<FlatVar>, span: Span) -> SysVar {
        let id = SysVar::new(self.vars.len());
        let constant =
            flat.is_some_and(|f| self.flat.var(f).kind == crate::flat::VarKind::Constant);
        self.vars.push(SVar {
            name,
            kind,
            flat,
            pre_of: None,
            binding: None,
            span,
            constant,
        });
        id
    }

    fn pre(&mut self, v: SysVar) -> SysVar {
        if let Some(&p) = self.pre_of.get(&v) {
            return p;
        }
        let name = format!("pre({})", self.vars[v].name);
        let span = self.vars[v].span;
        let p = self.add(name, SVarKind::Pre, None, span);
        self.vars[p].pre_of = Some(v);
        self.pre_of.insert(v, p);
        self.pre_copies.push((p, v));
        p
    }

    /// Translates an expression of the flat model's arena into the step system's: each
    /// variable becomes its alias set's representative (with the sign) or the parameter
    /// expression the set is bound to, `der` and `pre` their variables, `time` the `time`
    /// variable (or the stage time of a stage copy).
    fn translate(&mut self, e: ExprId) -> Result<ExprId, Box<Diagnostic>> {
        let time = self.time;
        let time_expr = self.time_expr;
        let flat = self.flat;
        // Pre variables must exist before the copy borrows the tables (those below a node
        // copied before exist: its walk stops there, so shared subexpressions are walked once).
        let fresh = flat.arena.post_order(e, |id| self.cache.contains_key(&id));
        let mut pre_requests: Vec<SysVar> = Vec::new();
        for &id in &fresh {
            if let Node::Pre(v) = flat.arena.node(id) {
                let (r, _) = self.aliases.resolve(v);
                if let Some(&sv) = self.value_of.get(&r) {
                    pre_requests.push(sv);
                }
            }
        }
        for sv in pre_requests {
            self.pre(sv);
        }
        let aliases = &self.aliases;
        let value_of = &self.value_of;
        let der_of = &self.der_of;
        let pre_of = &self.pre_of;
        let r = self
            .arena
            .import(&flat.arena, e, &mut self.cache, &mut |ar, n| match n {
                Node::Var(v) => {
                    let (r, s) = aliases.resolve(v);
                    if let Some(b) = aliases.bound[r.index()] {
                        // Known from parameters: the set's (translated) expression.
                        let k = ar.constant(s);
                        return Some(ar.mul(k, b));
                    }
                    let &sv = value_of.get(&r)?;
                    Some(signed(ar, s, sv))
                }
                Node::Der(v) => {
                    let (r, s) = aliases.resolve(v);
                    if aliases.bound[r.index()].is_some() {
                        return Some(ar.constant(0.0));
                    }
                    let &d = der_of.get(&r)?;
                    Some(signed(ar, s, d))
                }
                Node::Pre(v) => {
                    let (r, s) = aliases.resolve(v);
                    if let Some(b) = aliases.bound[r.index()] {
                        let k = ar.constant(s);
                        return Some(ar.mul(k, b));
                    }
                    let sv = value_of.get(&r)?;
                    let p = pre_of.get(sv)?;
                    Some(signed(ar, s, *p))
                }
                Node::Time => Some(time_expr.unwrap_or_else(|| ar.var(time))),
                _ => None,
            });
        r.map_err(|n| {
            let name = match n {
                Node::Var(v) | Node::Der(v) | Node::Pre(v) => flat.var(v).name.clone(),
                _ => "?".into(),
            };
            Box::new(Diagnostic::error(
                "internal",
                format!("variable `{name}` has no counterpart in the step system"),
            ))
        })
    }

    /// A flat variable as an expression of the step system (its alias set's representative
    /// with the sign, or the parameter expression the set is bound to).
    fn translate_var(&mut self, v: FlatVar) -> Result<ExprId, Box<Diagnostic>> {
        let (r, s) = self.aliases.resolve(v);
        if let Some(b) = self.aliases.bound[r.index()] {
            let k = self.arena.constant(s);
            return Ok(self.arena.mul(k, b));
        }
        match self.value_of.get(&r) {
            Some(&sv) => Ok(signed(&mut self.arena, s, sv)),
            None => Err(Box::new(Diagnostic::error(
                "internal",
                format!(
                    "variable `{}` has no counterpart in the step system",
                    self.flat.var(v).name
                ),
            ))),
        }
    }
}

/// `s·x` for an alias sign `s` (±1; the constructor folds the factor away).
fn signed(ar: &mut Arena, s: f64, x: SysVar) -> ExprId {
    let k = ar.constant(s);
    let xe = ar.var(x);
    ar.mul(k, xe)
}

/// The result type of the discretiser's steps.
type DResult<T> = Result<T, Box<Diagnostic>>;

/// The discretisation equations and their by-products, from [`formulas::formula_equations`].
struct Stepped {
    step_eqs: Vec<SEquation>,
    formula_list: Vec<(SysVar, Formula)>,
    stage_eqs: Vec<SEquation>,
    counter_eqs: Option<(SEquation, SEquation)>,
    /// Implicit stage copies and `copy = original` for the initial system (their first guess).
    stage_guesses: Vec<(SysVar, SEquation)>,
}

/// `initial()` (the flat model's `initial()` parameter, false) reads true in the initial
/// system: the model at the start time is the initialisation (specification 3.7.4.2); every
/// step, and the event iteration at the start time after it, read false.
fn initial_flag_in_init(b: &mut Builder, flat: &FlatModel, init: &mut [SEquation]) {
    let Some(sv) = flat.initial_flag.and_then(|f| b.value_of.get(&f).copied()) else {
        return;
    };
    let one = b.arena.constant(1.0);
    let mut cache = FxHashMap::default();
    for eq in init.iter_mut() {
        for e in [&mut eq.lhs, &mut eq.rhs] {
            *e = b.arena.substitute(*e, &mut cache, &mut |_, n| match n {
                Node::Var(v) if v == sv => Some(one),
                _ => None,
            });
        }
    }
}

/// Inlines `method` into `flat`; `step`: the step the plan is built for, which a `delay`'s
/// buffer is sampled at (needed only with delays).
pub fn discretize(
    flat: &FlatModel,
    method: &Method,
    step: Option<f64>,
) -> Result<Discretized, Box<Diagnostic>> {
    if let Some(e) = flat.initial_equations.first() {
        return Err(Box::new(
            Diagnostic::error("unsupported", "not yet supported: initial equations")
                .at(e.span, "initial equation")
                .help("the pipeline solves initial equations into start values first (pipeline::initialized)"),
        ));
    }
    let held = delays::piecewise_constant(flat);
    let mut work = flat.clone();
    // A delay's buffer is sized for its delay time when compiling: the parameters it comes
    // from are constants (not tunable).
    for d in &flat.delays {
        for p in crate::structure::vanishing::roots(flat, d.time_expr) {
            work.vars[p].kind = crate::flat::VarKind::Constant;
        }
    }
    let aliases = alias::eliminate(&mut work).map_err(|mut e| Box::new(e.swap_remove(0)))?;
    // From here on the model with each alias set's start value, `fixed` and marks merged into
    // its representative.
    let flat = &work;
    let mut b = Builder {
        flat,
        arena: Arena::new(),
        aliases,
        vars: EntityVec::new(),
        value_of: FxHashMap::default(),
        der_of: FxHashMap::default(),
        pre_of: FxHashMap::default(),
        pre_copies: Vec::new(),
        time: SysVar::new(0),
        time_expr: None,
        input_stages: Vec::new(),
        cache: FxHashMap::default(),
    };
    let layout = layout::layout(&mut b, flat)?;
    let formulas = formulas::formulas_for(flat, &layout.states, method)?;
    let model_eqs = layout::model_equations(&mut b, flat)?;
    let stepped = formulas::formula_equations(&mut b, flat, &layout, &formulas)?;
    let formula_list = stepped.formula_list.clone();
    let buffers = delays::buffers(&mut b, flat, &held, step)?;
    let (mut init, mut step) = layout::systems(&mut b, model_eqs, stepped);
    delays::equations(
        &mut b,
        flat,
        &buffers,
        &mut init,
        &mut step,
        (layout.step_start, layout.step_size),
    )?;
    initial_flag_in_init(&mut b, flat, &mut init.equations);
    step.step_size = Some(layout.step_size);
    order_pre_copies(&mut b.pre_copies);
    let mut events = events::when_events(&mut b, flat)?;
    events::relation_events(
        &mut b,
        &mut init.equations,
        &mut step.equations,
        &mut events,
    );
    events::event_slopes(&mut b, method, &mut events);
    let outputs = layout::outputs(&mut b, flat)?;
    let initial_assertions = assertions(&mut b, &flat.initial_assertions, false)?;
    let warnings = assertions(&mut b, &flat.assertions, true)?;
    let assertions = assertions(&mut b, &flat.assertions, false)?;
    // Before the first step, pre(v) is v's start value (specification 8.6; `pre(v) = e` in an
    // initial equation sets that start value): the initial system reads it.
    for i in 0..b.vars.len() {
        if let (SVarKind::Pre, Some(v), None) =
            (b.vars[i].kind, b.vars[i].pre_of, b.vars[i].binding)
        {
            b.vars[i].binding = b.vars[v].binding;
        }
    }
    // The pre copies of discrete-valued variables are made by the event iteration's rounds.
    let (discrete_pre, pre_copies): (Vec<_>, Vec<_>) = b
        .pre_copies
        .iter()
        .copied()
        .partition(|&(_, v)| discrete_valued(&b, v));
    Ok(Discretized {
        name: flat.name.clone(),
        arena: b.arena,
        vars: b.vars,
        init,
        step,
        formulas: formula_list,
        pre_copies,
        discrete_pre,
        input_stages: b.input_stages,
        events: events.into(),
        time: b.time,
        step_start: layout.step_start,
        step_size: layout.step_size,
        outputs,
        alias_sets: std::mem::take(&mut b.aliases.sets),
        assertions,
        initial_assertions,
        warnings,
    })
}

/// Whether `v` takes its values only at event instants: a when-assigned variable or frozen
/// relation, or an algebraic variable of a Boolean, Integer or enumeration type or declared
/// `discrete`.
fn discrete_valued(b: &Builder, v: SysVar) -> bool {
    let sv = &b.vars[v];
    match sv.kind {
        SVarKind::Discrete => true,
        SVarKind::Algebraic => sv.flat.is_some_and(|f| {
            let fv = b.flat.var(f);
            fv.ty != crate::flat::ScalarType::Real || fv.kind == crate::flat::VarKind::Discrete
        }),
        _ => false,
    }
}

/// The model's assertions of one level (`warning`: `AssertionLevel.warning`) over system
/// variables. An assertion is checked after a step, when `pre(v)` and `v` of a discrete
/// variable agree, so it reads the variable itself.
fn assertions(
    b: &mut Builder,
    list: &[crate::flat::Assertion],
    warning: bool,
) -> DResult<Vec<(ExprId, String)>> {
    let mut out = Vec::new();
    for a in list.iter().filter(|a| a.warning == warning) {
        let c = b.translate(a.condition)?;
        let inverse: FxHashMap<SysVar, SysVar> = b.pre_of.iter().map(|(&v, &p)| (p, v)).collect();
        let mut cache = FxHashMap::default();
        let c = b.arena.substitute(c, &mut cache, &mut |ar, n| match n {
            Node::Var(p) => inverse.get(&p).map(|&v| ar.var(v)),
            _ => None,
        });
        if b.arena.as_const(c).is_some_and(|v| v != 0.0) {
            continue;
        }
        out.push((c, a.message.clone()));
    }
    Ok(out)
}

/// The fast states and the ratio of a multi-rate method: from the command line, else from
/// `annotation(__rtc(fast = true))` on states and `annotation(__rtc(ratio = N))` on the model.
pub fn multirate_settings(
    flat: &FlatModel,
    method: &Method,
) -> Result<(Vec<String>, usize), Box<Diagnostic>> {
    let Method::MultiRate { fast, ratio, .. } = method else {
        return Ok((Vec::new(), 1));
    };
    let fast: Vec<String> = if fast.is_empty() {
        flat.vars
            .iter()
            .filter(|v| v.fast)
            .map(|v| v.name.clone())
            .collect()
    } else {
        fast.clone()
    };
    if fast.is_empty() {
        return Err(Box::new(
            Diagnostic::error("command-line", "--method multirate: no fast state")
                .help("name them with --fast iL,uC or mark their declarations with annotation(__rtc(fast = true))"),
        ));
    }
    let ratio =
        if *ratio > 0 {
            *ratio
        } else {
            match flat.experiment.ratio {
                Some(r) if r >= 1.0 && r == r.trunc() && r <= 1e6 => r as usize,
                Some(r) => {
                    return Err(Box::new(Diagnostic::error(
                        "annotation",
                        format!("__rtc(ratio = {r}): the ratio must be a whole number ≥ 1"),
                    )))
                }
                None => return Err(Box::new(
                    Diagnostic::error("command-line", "--method multirate: no ratio").help(
                        "give --ratio N or annotate the model with annotation(__rtc(ratio = N))",
                    ),
                )),
            }
        };
    Ok((fast, ratio))
}
