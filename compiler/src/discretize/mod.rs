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
use crate::flat::{FlatModel, VarKind};
use crate::structure::alias::{self, Aliases};
use crate::symbolic::{Arena, CmpOp, ExprId, Node, VarId};
use crate::system::{
    order_pre_copies, Discretized, Event, Formula, Method, Origin, Rk, SEquation, SVar, SVarKind,
    System,
};
use rustc_hash::FxHashMap;

struct Builder<'m> {
    flat: &'m FlatModel,
    aliases: Aliases,
    arena: Arena,
    vars: Vec<SVar>,
    /// flat var → its step variable (value at the end of the step).
    value_of: FxHashMap<VarId, VarId>,
    /// flat state → der variable.
    der_of: FxHashMap<VarId, VarId>,
    /// step var → its pre variable.
    pre_of: FxHashMap<VarId, VarId>,
    pre_copies: Vec<(VarId, VarId)>,
    time: VarId,
    /// What `time` stands for when translating a stage copy (`t + c·h`); `None`: `time`.
    time_expr: Option<ExprId>,
    /// Input slots read at stage times (see [`Discretized::input_stages`]).
    input_stages: Vec<(VarId, VarId, f64)>,
    cache: FxHashMap<ExprId, ExprId>,
}

impl<'m> Builder<'m> {
    fn add(&mut self, name: String, kind: SVarKind, flat: Option<VarId>, span: Span) -> VarId {
        let id = VarId(self.vars.len() as u32);
        self.vars.push(SVar {
            name,
            kind,
            flat,
            pre_of: None,
            binding: None,
            span,
        });
        id
    }

    fn pre(&mut self, v: VarId) -> VarId {
        if let Some(&p) = self.pre_of.get(&v) {
            return p;
        }
        let name = format!("pre({})", self.vars[v.index()].name);
        let span = self.vars[v.index()].span;
        let p = self.add(name, SVarKind::Pre, None, span);
        self.vars[p.index()].pre_of = Some(v);
        self.pre_of.insert(v, p);
        self.pre_copies.push((p, v));
        p
    }

    /// Translates a flat-model expression into system variables.
    fn translate(&mut self, e: ExprId) -> Result<ExprId, Box<Diagnostic>> {
        // The arena starts as a copy of the flat arena, so flat ids are valid here.
        let mut missing: Option<VarId> = None;
        let time = self.time;
        let time_expr = self.time_expr;
        let flat = self.flat;
        // Pre variables must exist before the substitution borrows the tables.
        let mut leaves = Vec::new();
        self.arena.leaves(e, &mut leaves);
        let mut pre_requests: Vec<VarId> = Vec::new();
        for l in &leaves {
            if let Node::Pre(v) = *l {
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
            .substitute(e, &mut self.cache, &mut |ar, n| match n {
                Node::Var(v) => {
                    let (r, s) = aliases.resolve(v);
                    if let Some(b) = aliases.bound[r.index()] {
                        // Known from parameters: substitute the (translated later) expression.
                        let k = ar.constant(s);
                        return Some(ar.mul(k, b));
                    }
                    let Some(&sv) = value_of.get(&r) else {
                        missing = Some(v);
                        return None;
                    };
                    Some(signed(ar, s, sv))
                }
                Node::Der(v) => {
                    let (r, s) = aliases.resolve(v);
                    if aliases.bound[r.index()].is_some() {
                        return Some(ar.constant(0.0));
                    }
                    let Some(&d) = der_of.get(&r) else {
                        missing = Some(v);
                        return None;
                    };
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
        if let Some(v) = missing {
            return Err(Box::new(Diagnostic::error(
                "internal",
                format!(
                    "variable `{}` has no counterpart in the step system",
                    flat.var(v).name
                ),
            )));
        }
        Ok(r)
    }
}

/// Σ_k w_k·F_k over the stages a row or weight vector uses: F_0 = `f0` (pre(der(x))),
/// F_k = der(x)@k. Zero weights add no term.
fn rk_sum(
    b: &mut Builder,
    w: &[f64],
    f0: VarId,
    d: VarId,
    stages: &[FxHashMap<VarId, VarId>],
) -> ExprId {
    let mut sum: Option<ExprId> = None;
    for (k, &wk) in w.iter().enumerate() {
        if wk == 0.0 {
            continue;
        }
        let f = if k == 0 { f0 } else { stages[k - 1][&d] };
        let fe = b.arena.var(f);
        let c = b.arena.constant(wk);
        let term = b.arena.mul(c, fe);
        sum = Some(match sum {
            None => term,
            Some(s) => b.arena.add(s, term),
        });
    }
    sum.unwrap_or_else(|| b.arena.constant(0.0))
}

/// A stage copy: original variable → its copy, and the model equations at the stage.
type Stage = (FxHashMap<VarId, VarId>, Vec<SEquation>);

impl Builder<'_> {
    /// Stage `k` at t + c·h: a copy (`name@k`) of every state, derivative and algebraic
    /// variable, and the model equations written for them. Parameters and inputs are shared
    /// (inputs are held over the step). Returns the map original → copy and the equations.
    fn stage_copy(
        &mut self,
        flat: &FlatModel,
        k: usize,
        c: f64,
        step_start: VarId,
        step_size: VarId,
    ) -> Result<Stage, Box<Diagnostic>> {
        let originals: Vec<VarId> = (0..self.vars.len())
            .map(|i| VarId(i as u32))
            .filter(|v| {
                matches!(
                    self.vars[v.index()].kind,
                    SVarKind::State | SVarKind::Derivative | SVarKind::Algebraic
                )
            })
            .collect();
        let mut stage_of = FxHashMap::default();
        for v in originals {
            let name = format!("{}@{k}", self.vars[v.index()].name);
            let span = self.vars[v.index()].span;
            let flat_v = self.vars[v.index()].flat;
            let sv = self.add(name, SVarKind::Stage, flat_v, span);
            stage_of.insert(v, sv);
        }
        // Inputs are read at the stage time: a slot per input and stage, written by the
        // environment with the input's value at t + c·h (Bernstein: a real-time formula
        // needs only inputs that exist when the stage runs).
        if c != 0.0 {
            let staged: Vec<VarId> = self.input_stages.iter().map(|s| s.0).collect();
            let inputs: Vec<VarId> = (0..self.vars.len())
                .map(|i| VarId(i as u32))
                .filter(|v| self.vars[v.index()].kind == SVarKind::Input && !staged.contains(v))
                .collect();
            for u in inputs {
                let name = format!("{}@{k}", self.vars[u.index()].name);
                let span = self.vars[u.index()].span;
                let flat_u = self.vars[u.index()].flat;
                let su = self.add(name, SVarKind::Input, flat_u, span);
                self.input_stages.push((su, u, c));
                stage_of.insert(u, su);
            }
        }
        let value_of = std::mem::take(&mut self.value_of);
        let der_of = std::mem::take(&mut self.der_of);
        let at_stage = |v: &VarId| stage_of.get(v).copied().unwrap_or(*v);
        self.value_of = value_of.iter().map(|(&f, v)| (f, at_stage(v))).collect();
        self.der_of = der_of.iter().map(|(&f, v)| (f, at_stage(v))).collect();
        let saved_cache = std::mem::take(&mut self.cache);
        let t = self.arena.var(step_start);
        let hh = self.arena.var(step_size);
        let ck = self.arena.constant(c);
        let dt = self.arena.mul(ck, hh);
        self.time_expr = Some(self.arena.add(t, dt));
        let mut eqs = Vec::new();
        let mut result = Ok(());
        for &m in &self.aliases.kept.clone() {
            let eq = &flat.equations[m];
            let (lhs, rhs) = match (self.translate(eq.lhs), self.translate(eq.rhs)) {
                (Ok(l), Ok(r)) => (l, r),
                (Err(e), _) | (_, Err(e)) => {
                    result = Err(e);
                    break;
                }
            };
            eqs.push(SEquation {
                lhs,
                rhs,
                span: eq.span,
                origin: Origin::Model(m),
            });
        }
        self.time_expr = None;
        self.cache = saved_cache;
        self.value_of = value_of;
        self.der_of = der_of;
        result.map(|_| (stage_of, eqs))
    }
}

/// `s·x` for an alias sign `s` (±1; the constructor folds the factor away).
fn signed(ar: &mut Arena, s: f64, x: VarId) -> ExprId {
    let k = ar.constant(s);
    let xe = ar.var(x);
    ar.mul(k, xe)
}

/// Chooses each state's formula from the method. Unknown names in `--implicit` are errors.
fn formulas_for(
    flat: &FlatModel,
    states: &[VarId],
    method: &Method,
) -> Result<Vec<Formula>, Box<Diagnostic>> {
    match method {
        Method::ForwardEuler => Ok(vec![Formula::ForwardEuler; states.len()]),
        Method::BackwardEuler => Ok(vec![Formula::BackwardEuler; states.len()]),
        Method::Trapezoid => Ok(vec![Formula::Trapezoid; states.len()]),
        Method::Radau => Ok(vec![Formula::Radau; states.len()]),
        Method::Rk(r) => Ok(vec![Formula::Rk(*r); states.len()]),
        Method::Ab(k) => Ok(vec![Formula::Ab(*k); states.len()]),
        // Discretised as forward Euler, then transformed (`crate::transform::libe`).
        Method::Libe => Ok(vec![Formula::ForwardEuler; states.len()]),
        Method::MixedLibe { implicit } => {
            // Checked like mixed mode, discretised as forward Euler, then transformed.
            formulas_for(
                flat,
                states,
                &Method::Mixed {
                    implicit: implicit.clone(),
                },
            )?;
            Ok(vec![Formula::ForwardEuler; states.len()])
        }
        Method::MultiRate { implicit, .. } => {
            let (fast, _) = multirate_settings(flat, method)?;
            let fast = &fast;
            let names: Vec<&str> = states.iter().map(|&v| flat.var(v).name.as_str()).collect();
            for want in fast.iter().chain(implicit) {
                if !names.contains(&want.as_str()) {
                    return Err(Box::new(
                        Diagnostic::error(
                            "command-line",
                            format!("`{want}` is not a state of the model"),
                        )
                        .help(format!("the states are: {}", names.join(", "))),
                    ));
                }
                if fast.contains(want) && implicit.contains(want) {
                    return Err(Box::new(Diagnostic::error(
                        "command-line",
                        format!(
                            "`{want}` cannot be both fast (forward Euler sub-steps) and implicit"
                        ),
                    )));
                }
            }
            Ok(names
                .iter()
                .zip(states)
                .map(|(n, &s)| {
                    let fast_state = fast.iter().any(|f| f == n);
                    if !fast_state && (implicit.iter().any(|w| w == n) || flat.var(s).implicit) {
                        Formula::BackwardEuler
                    } else {
                        Formula::ForwardEuler
                    }
                })
                .collect())
        }
        Method::Mixed { implicit } => {
            let names: Vec<&str> = states.iter().map(|&v| flat.var(v).name.as_str()).collect();
            for want in implicit {
                if !names.contains(&want.as_str()) {
                    let mut d = Diagnostic::error(
                        "command-line",
                        format!("--implicit: `{want}` is not a state of the model"),
                    );
                    let cands: Vec<String> = names.iter().map(|s| s.to_string()).collect();
                    match crate::diag::suggest(want, &cands) {
                        Some(s) => d = d.help(format!("did you mean `{s}`?")),
                        None => d = d.help(format!("the states are: {}", names.join(", "))),
                    }
                    return Err(Box::new(d));
                }
            }
            if implicit.is_empty() && !states.iter().any(|&s| flat.var(s).implicit) {
                return Err(Box::new(
                    Diagnostic::error("command-line", "--method mixed: no state is marked implicit")
                        .help("name them with --implicit x1,x2 or mark their declarations with annotation(__rtc(implicit = true))"),
                ));
            }
            Ok(names
                .iter()
                .zip(states)
                .map(|(n, &s)| {
                    if implicit.iter().any(|w| w == n) || flat.var(s).implicit {
                        Formula::BackwardEuler
                    } else {
                        Formula::ForwardEuler
                    }
                })
                .collect())
        }
    }
}

/// Inlines `method` into `flat`.
pub fn discretize(flat: &FlatModel, method: &Method) -> Result<Discretized, Box<Diagnostic>> {
    if let Some(e) = flat.initial_equations.first() {
        return Err(Box::new(
            Diagnostic::error("unsupported", "not yet supported: initial equations")
                .at(e.span, "initial equation")
                .help("give states start values with `fixed = true` instead"),
        ));
    }
    let mut work = flat.clone();
    let aliases = alias::eliminate(&mut work).map_err(|mut e| Box::new(e.swap_remove(0)))?;
    // From here on the model with each alias set's start value, `fixed` and marks merged into
    // its representative.
    let flat = &work;
    let mut b = Builder {
        flat,
        arena: work.arena.clone(),
        aliases,
        vars: Vec::new(),
        value_of: FxHashMap::default(),
        der_of: FxHashMap::default(),
        pre_of: FxHashMap::default(),
        pre_copies: Vec::new(),
        time: VarId(0),
        time_expr: None,
        input_stages: Vec::new(),
        cache: FxHashMap::default(),
    };
    let step_start = b.add("t".into(), SVarKind::StepStart, None, Span::default());
    let step_size = b.add("h".into(), SVarKind::StepSize, None, Span::default());
    b.time = b.add("time".into(), SVarKind::Time, None, Span::default());
    // Variables: representatives of alias sets that are not bound to parameters.
    let mut states = Vec::new();
    let mut algebraics = Vec::new();
    for (i, v) in flat.vars.iter().enumerate() {
        let id = VarId(i as u32);
        let (r, _) = b.aliases.resolve(id);
        match v.kind {
            VarKind::Parameter | VarKind::Constant => {
                let sv = b.add(v.name.clone(), SVarKind::Parameter, Some(id), v.span);
                b.value_of.insert(id, sv);
            }
            VarKind::Input => {
                let sv = b.add(v.name.clone(), SVarKind::Input, Some(id), v.span);
                b.value_of.insert(id, sv);
            }
            VarKind::Sampled => {
                let sv = b.add(v.name.clone(), SVarKind::Discrete, Some(id), v.span);
                b.value_of.insert(id, sv);
            }
            _ if r != id || b.aliases.bound[i].is_some() => {}
            _ if b.aliases.has_state[i] => {
                let sv = b.add(v.name.clone(), SVarKind::State, Some(id), v.span);
                b.value_of.insert(id, sv);
                states.push(id);
            }
            _ => {
                let sv = b.add(v.name.clone(), SVarKind::Algebraic, Some(id), v.span);
                b.value_of.insert(id, sv);
                algebraics.push(id);
            }
        }
    }
    // Derivatives after all variables: the states of an array, and their derivatives, take
    // consecutive slots (the generated code loads and stores neighbours as vectors).
    for &id in &states {
        let v = &flat.vars[id.index()];
        let d = b.add(
            format!("der({})", v.name),
            SVarKind::Derivative,
            Some(id),
            v.span,
        );
        b.der_of.insert(id, d);
    }
    // Bound alias sets refer to parameter expressions in flat ids: translate them once.
    let bound: Vec<Option<ExprId>> = b.aliases.bound.clone();
    for (i, be) in bound.iter().enumerate() {
        if let Some(e) = be {
            let t = b.translate(*e)?;
            b.aliases.bound[i] = Some(t);
        }
    }
    b.cache.clear();
    // Parameter bindings and start values.
    for i in 0..b.vars.len() {
        let Some(fv) = b.vars[i].flat else { continue };
        let var = &flat.vars[fv.index()];
        let e = match b.vars[i].kind {
            SVarKind::Parameter => var.binding,
            // An input's start value is the value it holds until the environment sets it.
            SVarKind::State | SVarKind::Algebraic | SVarKind::Input | SVarKind::Discrete => {
                var.start
            }
            _ => None,
        };
        if let Some(e) = e {
            let t = b.translate(e)?;
            b.vars[i].binding = Some(t);
        }
    }
    let formulas = formulas_for(flat, &states, method)?;
    // Model equations (after alias elimination), translated.
    let mut model_eqs = Vec::new();
    for &k in &b.aliases.kept.clone() {
        let eq = &flat.equations[k];
        let lhs = b.translate(eq.lhs)?;
        let rhs = b.translate(eq.rhs)?;
        model_eqs.push(SEquation {
            lhs,
            rhs,
            span: eq.span,
            origin: Origin::Model(k),
        });
    }
    // Multi-stage formulas: each stage is a copy of every model unknown and of the model
    // equations, with `time` = t + c·h (Cellier & Kofman §10.6: stage values are unknowns of
    // the step system; sorting, tearing and the Jacobian treat them like any other). Radau IIA
    // has one such stage (c = 1/3; its second is the end of the step); an explicit
    // Runge-Kutta formula has one per row of its tableau.
    let stage_times: Vec<f64> = if formulas.contains(&Formula::Radau) {
        vec![1.0 / 3.0]
    } else if let Some(Formula::Rk(r)) = formulas.first() {
        r.tableau().0[1..].to_vec()
    } else {
        Vec::new()
    };
    let mut stages: Vec<FxHashMap<VarId, VarId>> = Vec::new();
    let mut stage_eqs = Vec::new();
    for (k, &c) in stage_times.iter().enumerate() {
        let (map, eqs) = b.stage_copy(flat, k + 1, c, step_start, step_size)?;
        stages.push(map);
        stage_eqs.extend(eqs);
    }
    // Adams-Bashforth: a step counter chooses the start-up formulas (Howe: Euler for the
    // first step, AB-2 for the second, AB-3 from then on).
    let mut counter_eqs: Option<(SEquation, SEquation)> = None;
    let mut steps_before: Option<ExprId> = None;
    if formulas.iter().any(|f| matches!(f, Formula::Ab(_))) {
        let steps = b.add("steps".into(), SVarKind::Algebraic, None, Span::default());
        let ps = b.pre(steps);
        let se = b.arena.var(steps);
        let pse = b.arena.var(ps);
        let one = b.arena.constant(1.0);
        let zero = b.arena.constant(0.0);
        let next = b.arena.add(pse, one);
        let init_eq = SEquation {
            lhs: se,
            rhs: zero,
            span: Span::default(),
            origin: Origin::Formula(steps),
        };
        let step_eq = SEquation {
            lhs: se,
            rhs: next,
            span: Span::default(),
            origin: Origin::Formula(steps),
        };
        counter_eqs = Some((init_eq, step_eq));
        steps_before = Some(pse);
    }
    // Discretisation equations.
    let h = b.arena.var(step_size);
    let mut step_eqs = Vec::new();
    let mut formula_list = Vec::new();
    for (k, &s) in states.iter().enumerate() {
        let x = b.value_of[&s];
        let d = b.der_of[&s];
        let px = b.pre(x);
        let xe = b.arena.var(x);
        let pxe = b.arena.var(px);
        let f = formulas[k];
        let incr = match f {
            // Linearly implicit Euler starts as forward Euler (`crate::transform::libe`).
            Formula::ForwardEuler | Formula::LinearlyImplicit => {
                let pd = b.pre(d);
                let pde = b.arena.var(pd);
                b.arena.mul(h, pde)
            }
            Formula::BackwardEuler => {
                let de = b.arena.var(d);
                b.arena.mul(h, de)
            }
            Formula::Trapezoid => {
                let pd = b.pre(d);
                let pde = b.arena.var(pd);
                let de = b.arena.var(d);
                let sum = b.arena.add(pde, de);
                let half = b.arena.constant(0.5);
                let hh = b.arena.mul(half, h);
                b.arena.mul(hh, sum)
            }
            Formula::Radau => {
                // x = pre(x) + h·(3/4·D1 + 1/4·der(x)), the second stage (c = 1).
                let d1 = b.arena.var(stages[0][&d]);
                let de = b.arena.var(d);
                let c1 = b.arena.constant(0.75);
                let c2 = b.arena.constant(0.25);
                let t1 = b.arena.mul(c1, d1);
                let t2 = b.arena.mul(c2, de);
                let sum = b.arena.add(t1, t2);
                b.arena.mul(h, sum)
            }
            Formula::Ab(order) => {
                // F_n = pre(der(x)), F_{n−1} = pre(pre(der(x))), F_{n−2} one further back.
                let p1 = b.pre(d);
                let p2 = b.pre(p1);
                let f0 = b.arena.var(p1);
                let f1 = b.arena.var(p2);
                let k = steps_before.expect("counter");
                let comb = |b: &mut Builder, ws: &[(f64, ExprId)]| {
                    let mut sum: Option<ExprId> = None;
                    for &(w, e) in ws {
                        let c = b.arena.constant(w);
                        let t = b.arena.mul(c, e);
                        sum = Some(match sum {
                            None => t,
                            Some(s) => b.arena.add(s, t),
                        });
                    }
                    sum.expect("terms")
                };
                let ab2 = comb(&mut b, &[(1.5, f0), (-0.5, f1)]);
                let later = if order >= 3 {
                    let p3 = b.pre(p2);
                    let f2 = b.arena.var(p3);
                    let ab3 = comb(
                        &mut b,
                        &[(23.0 / 12.0, f0), (-16.0 / 12.0, f1), (5.0 / 12.0, f2)],
                    );
                    let one_half = b.arena.constant(1.5);
                    let second = b.arena.cmp(crate::symbolic::CmpOp::Lt, k, one_half);
                    b.arena.if_(second, ab2, ab3)
                } else {
                    ab2
                };
                let half = b.arena.constant(0.5);
                let first = b.arena.cmp(crate::symbolic::CmpOp::Lt, k, half);
                let f = b.arena.if_(first, f0, later);
                b.arena.mul(h, f)
            }
            Formula::Rk(r) => {
                // x = pre(x) + h·Σ b_k·F_k, F_0 = pre(der(x)), F_k = der(x)@k.
                let (_, _, weights) = r.tableau();
                let f0 = b.pre(d);
                let sum = rk_sum(&mut b, weights, f0, d, &stages);
                b.arena.mul(h, sum)
            }
        };
        let rhs = b.arena.add(pxe, incr);
        step_eqs.push(SEquation {
            lhs: xe,
            rhs,
            span: b.vars[x.index()].span,
            origin: Origin::Formula(x),
        });
        formula_list.push((x, f));
        if let Formula::Rk(r) = f {
            // X@k = pre(x) + h·Σ_{j<k} a_kj·F_j.
            let (_, rows, _) = r.tableau();
            let f0 = b.pre(d);
            for (k, row) in rows.iter().enumerate() {
                let xk = stages[k][&x];
                let sum = rk_sum(&mut b, row, f0, d, &stages);
                let incr = b.arena.mul(h, sum);
                let rhs = b.arena.add(pxe, incr);
                let lhs = b.arena.var(xk);
                step_eqs.push(SEquation {
                    lhs,
                    rhs,
                    span: b.vars[x.index()].span,
                    origin: Origin::Formula(xk),
                });
            }
        }
        if f == Formula::Radau {
            // X1 = pre(x) + h·(5/12·D1 − 1/12·der(x)), the first stage (c = 1/3).
            let x1 = stages[0][&x];
            let d1 = b.arena.var(stages[0][&d]);
            let de = b.arena.var(d);
            let c1 = b.arena.constant(5.0 / 12.0);
            let c2 = b.arena.constant(-1.0 / 12.0);
            let t1 = b.arena.mul(c1, d1);
            let t2 = b.arena.mul(c2, de);
            let sum = b.arena.add(t1, t2);
            let incr = b.arena.mul(h, sum);
            let rhs = b.arena.add(pxe, incr);
            let lhs = b.arena.var(x1);
            step_eqs.push(SEquation {
                lhs,
                rhs,
                span: b.vars[x.index()].span,
                origin: Origin::Formula(x1),
            });
        }
    }
    // Unknowns.
    let mut init_unknowns = Vec::new();
    let mut step_unknowns = Vec::new();
    for (i, v) in b.vars.iter().enumerate() {
        let id = VarId(i as u32);
        match v.kind {
            SVarKind::Derivative | SVarKind::Algebraic => {
                init_unknowns.push(id);
                step_unknowns.push(id);
            }
            SVarKind::State | SVarKind::Stage => step_unknowns.push(id),
            _ => {}
        }
    }
    let mut step_all = step_eqs;
    step_all.extend(model_eqs.iter().copied());
    step_all.extend(stage_eqs);
    let mut init_eqs = model_eqs;
    if let Some((i, st)) = counter_eqs {
        init_eqs.push(i);
        step_all.push(st);
    }
    order_pre_copies(&mut b.pre_copies);
    // Events from when-equations: z from a condition's relation on the continuous solution
    // (a state event), or a Boolean condition of discrete variables checked at event
    // instants; actions read pre(v) from slots the event handler fills with the values just
    // before the instant.
    let mut events = Vec::new();
    for w in &flat.whens {
        let mut z = b.arena.constant(0.0);
        let mut below = false;
        let mut discrete = None;
        if w.sample.is_none() && !w.initial {
            let cond = b.translate(w.condition)?;
            let mut leaves = Vec::new();
            b.arena.leaves(cond, &mut leaves);
            let moving = leaves.iter().any(|l| match l {
                Node::Var(v) => matches!(
                    b.vars[v.index()].kind,
                    SVarKind::State
                        | SVarKind::Derivative
                        | SVarKind::Algebraic
                        | SVarKind::Time
                        | SVarKind::Input
                ),
                _ => false,
            });
            match (moving, b.arena.node(cond)) {
                (false, _) => discrete = Some(cond),
                (true, Node::Cmp(op, l, r)) if !matches!(op, CmpOp::Eq | CmpOp::Ne) => {
                    z = b.arena.sub(l, r);
                    below = matches!(op, CmpOp::Lt | CmpOp::Le);
                }
                (true, _) => {
                    return Err(Box::new(
                        Diagnostic::error(
                            "unsupported",
                            "not yet supported: a when-condition that combines a relation of continuous variables with other terms",
                        )
                        .at(w.span, "in this when-equation")
                        .help("write one relation (<, <=, >, >=) per when-equation, or a condition of discrete variables only"),
                    ))
                }
            }
        }
        let mut assigns = Vec::new();
        for &(x, e) in &w.assigns {
            assigns.push((b.value_of[&x], b.translate(e)?));
        }
        let assigns = sort_assignments(&b.arena, assigns).map_err(|v| {
            Box::new(
                Diagnostic::error(
                    "when",
                    format!(
                        "the assignments in this when-equation depend on each other in a cycle (through `{}`)",
                        b.vars[v.index()].name
                    ),
                )
                .at(w.span, "in this when-equation")
                .help("use pre(v) for the value before the event"),
            )
        })?;
        let mut reinits = Vec::new();
        for &(x, e) in &w.reinits {
            let (r, _) = b.aliases.resolve(x);
            let (Some(&sv), true) = (b.value_of.get(&r), b.der_of.contains_key(&r)) else {
                return Err(Box::new(
                    Diagnostic::error(
                        "reinit",
                        format!("reinit of `{}`, which is not a state", flat.var(x).name),
                    )
                    .at(w.span, "in this when-equation")
                    .help("only states (variables whose der() appears) can be re-initialised"),
                ));
            };
            if r != x {
                return Err(Box::new(
                    Diagnostic::error(
                        "unsupported",
                        format!(
                            "not yet supported: reinit of `{}`, an alias of another state",
                            flat.var(x).name
                        ),
                    )
                    .at(w.span, "in this when-equation"),
                ));
            }
            let te = b.translate(e)?;
            reinits.push((sv, te));
        }
        // Re-initialisations act together: run in order, each reads the others' targets
        // from their pre slots (the values at the instant's start).
        if reinits.len() > 1 {
            let map: FxHashMap<VarId, VarId> =
                reinits.iter().map(|&(x, _)| (x, b.pre(x))).collect();
            let mut cache = FxHashMap::default();
            for r in reinits.iter_mut() {
                r.1 = b.arena.substitute(r.1, &mut cache, &mut |ar, n| match n {
                    Node::Var(v) => map.get(&v).map(|&p| ar.var(p)),
                    _ => None,
                });
            }
        }
        // The pre slots the condition and the actions read.
        let mut pres = Vec::new();
        let mut leaves = Vec::new();
        for e in assigns.iter().chain(&reinits).map(|a| a.1).chain(discrete) {
            b.arena.leaves(e, &mut leaves);
        }
        for l in leaves {
            if let Node::Var(p) = l {
                if let (SVarKind::Pre, Some(v)) = (b.vars[p.index()].kind, b.vars[p.index()].pre_of)
                {
                    if !pres.contains(&(p, v)) {
                        pres.push((p, v));
                    }
                }
            }
        }
        events.push(Event {
            z,
            below,
            both: false,
            sample: w.sample,
            initial: w.initial,
            discrete,
            reinits,
            assigns,
            terminate: w.terminate.clone(),
            chain: w.chain,
            pres,
            dz: None,
            at: false,
            text: w.condition_text(flat),
            span: w.span,
        });
    }
    // Relations that choose a branch of an if-expression generate events unless wrapped in
    // noEvent: the step is split where they change, so no step straddles the switch.
    let mut seen: rustc_hash::FxHashSet<ExprId> = rustc_hash::FxHashSet::default();
    let mut relations: Vec<ExprId> = Vec::new();
    for eq in &init_eqs {
        let mut stack = vec![eq.lhs, eq.rhs];
        while let Some(e) = stack.pop() {
            if !seen.insert(e) {
                continue;
            }
            match b.arena.node(e) {
                Node::NoEvent(_) => continue,
                Node::If(c, _, _) => {
                    let mut cs = vec![c];
                    while let Some(x) = cs.pop() {
                        match b.arena.node(x) {
                            Node::Cmp(..) if !relations.contains(&x) => relations.push(x),
                            Node::And(p, q) | Node::Or(p, q) => cs.extend([p, q]),
                            Node::Not(p) => cs.push(p),
                            _ => {}
                        }
                    }
                }
                _ => {}
            }
            stack.extend(b.arena.children(e));
        }
    }
    let mut frozen: FxHashMap<ExprId, ExprId> = FxHashMap::default();
    for r in relations {
        let Node::Cmp(op, a, c) = b.arena.node(r) else {
            continue;
        };
        let mut leaves = Vec::new();
        b.arena.leaves(r, &mut leaves);
        // A relation of time alone (a block's `time < startTime`), linear in time: a time
        // event at its known time T = −b/a. The relation is frozen in a discrete slot (its
        // value at the start time, then the value after T from T on), so the step is split
        // exactly at T and each part sees one side.
        let timed = leaves
            .iter()
            .any(|l| matches!(l, Node::Var(v) if *v == b.time))
            && leaves.iter().all(|l| match l {
                Node::Var(v) => *v == b.time || b.vars[v.index()].kind == SVarKind::Parameter,
                Node::Const(_) => true,
                _ => false,
            });
        if timed && !matches!(op, CmpOp::Eq | CmpOp::Ne) {
            let z = b.arena.sub(a, c);
            if let Some((slope, offset)) = crate::symbolic::diff::linear(&mut b.arena, z, b.time) {
                let name = |v: VarId| b.vars[v.index()].name.clone();
                let text = crate::symbolic::ExprPrinter {
                    arena: &b.arena,
                    name: &name,
                }
                .to_string(r);
                let span = b.vars[b.time.index()].span;
                let slot = b.add(format!("({text})"), SVarKind::Discrete, None, span);
                b.vars[slot.index()].binding = Some(r);
                let neg = b.arena.neg(offset);
                let at = b.arena.div(neg, slope);
                let zero = b.arena.constant(0.0);
                let after = b.arena.cmp(op, slope, zero);
                frozen.insert(r, b.arena.var(slot));
                events.push(Event {
                    z: at,
                    below: false,
                    both: false,
                    sample: None,
                    initial: false,
                    discrete: None,
                    reinits: Vec::new(),
                    assigns: vec![(slot, after)],
                    terminate: None,
                    chain: (usize::MAX, 0),
                    pres: Vec::new(),
                    dz: None,
                    at: true,
                    text,
                    span: Span::default(),
                });
                continue;
            }
        }
        // Otherwise only relations on the continuous solution (states, derivatives, algebraic
        // variables): not parameter tests.
        let moving = leaves.iter().any(|l| match l {
            Node::Var(v) => matches!(
                b.vars[v.index()].kind,
                SVarKind::State | SVarKind::Derivative | SVarKind::Algebraic
            ),
            _ => false,
        });
        if !moving {
            continue;
        }
        let z = b.arena.sub(a, c);
        let name = |v: VarId| b.vars[v.index()].name.clone();
        let text = crate::symbolic::ExprPrinter {
            arena: &b.arena,
            name: &name,
        }
        .to_string(r);
        events.push(Event {
            z,
            below: false,
            both: true,
            sample: None,
            initial: false,
            discrete: None,
            reinits: Vec::new(),
            assigns: Vec::new(),
            terminate: None,
            chain: (usize::MAX, 0),
            pres: Vec::new(),
            dz: None,
            at: false,
            text,
            span: Span::default(),
        });
    }
    if !frozen.is_empty() {
        // A substitution whose cache already maps each relation to its slot.
        let mut cache = frozen.clone();
        for eq in init_eqs.iter_mut().chain(step_all.iter_mut()) {
            for side in [&mut eq.lhs, &mut eq.rhs] {
                *side = b.arena.substitute(*side, &mut cache, &mut |_, _| None);
            }
        }
    }
    // Methods of order 3 and more locate state events by a cubic: the time derivative of each
    // event function, over states (with their derivatives), time, parameters and discrete
    // variables; functions of other variables keep regula falsi.
    let order = match method {
        Method::Radau | Method::Rk(Rk::Rk3) | Method::Ab(3) => 3,
        Method::Rk(Rk::Rk4 | Rk::Rtrk4) => 4,
        _ => 1,
    };
    if order >= 3 {
        let der_of_state: FxHashMap<VarId, VarId> = b
            .der_of
            .iter()
            .filter_map(|(f, &d)| b.value_of.get(f).map(|&sv| (sv, d)))
            .collect();
        for e in events.iter_mut() {
            if e.sample.is_some() || e.initial || e.discrete.is_some() {
                continue;
            }
            let mut leaves = Vec::new();
            b.arena.leaves(e.z, &mut leaves);
            let mut terms = Vec::new();
            let mut ok = true;
            for l in &leaves {
                let Node::Var(v) = *l else { continue };
                match b.vars[v.index()].kind {
                    SVarKind::State => match der_of_state.get(&v) {
                        Some(&d) => terms.push((v, Some(d))),
                        None => ok = false,
                    },
                    SVarKind::Time => terms.push((v, None)),
                    SVarKind::Parameter | SVarKind::Discrete => {}
                    _ => ok = false,
                }
            }
            if !ok {
                continue;
            }
            let mut dz = b.arena.constant(0.0);
            for (v, d) in terms {
                let partial = crate::symbolic::diff::diff(&mut b.arena, e.z, v);
                let rate = match d {
                    Some(d) => b.arena.var(d),
                    None => b.arena.constant(1.0),
                };
                let term = b.arena.mul(partial, rate);
                dz = b.arena.add(dz, term);
            }
            e.dz = Some(dz);
        }
    }
    // Outputs: every non-parameter flat variable by name.
    let mut outputs = Vec::new();
    for (i, v) in flat.vars.iter().enumerate() {
        if matches!(v.kind, VarKind::Parameter | VarKind::Constant) {
            continue;
        }
        let id = VarId(i as u32);
        let e = b.arena.var(id);
        // Expression in flat ids → translate.
        let t = b.translate(e)?;
        // A state of the step system is the representative of a set with a state; its other
        // members (and members of sets the parameters fix) are recorded through it.
        let kind = match v.kind {
            VarKind::State | VarKind::Algebraic | VarKind::Discrete => {
                let (r, _) = b.aliases.resolve(id);
                if r == id && b.aliases.has_state[i] && b.aliases.bound[i].is_none() {
                    VarKind::State
                } else if v.kind == VarKind::State {
                    VarKind::Algebraic
                } else {
                    v.kind
                }
            }
            k => k,
        };
        outputs.push((v.name.clone(), t, kind, v.is_output));
    }
    Ok(Discretized {
        name: flat.name.clone(),
        arena: b.arena,
        vars: b.vars,
        init: System {
            equations: init_eqs,
            unknowns: init_unknowns,
            step_size: None,
        },
        step: System {
            equations: step_all,
            unknowns: step_unknowns,
            step_size: Some(step_size),
        },
        formulas: formula_list,
        pre_copies: b.pre_copies,
        input_stages: b.input_stages,
        events,
        time: b.time,
        step_start,
        step_size,
        outputs,
        alias_sets: std::mem::take(&mut b.aliases.sets),
    })
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

/// Orders a when-equation's assignments so that each one follows those whose new values it
/// reads (stable: source order where free). A cycle names one of its variables.
fn sort_assignments(
    ar: &crate::symbolic::Arena,
    assigns: Vec<(VarId, ExprId)>,
) -> Result<Vec<(VarId, ExprId)>, VarId> {
    let targets: Vec<VarId> = assigns.iter().map(|a| a.0).collect();
    let deps: Vec<Vec<usize>> = assigns
        .iter()
        .map(|&(_, e)| {
            let mut leaves = Vec::new();
            ar.leaves(e, &mut leaves);
            let mut d: Vec<usize> = leaves
                .iter()
                .filter_map(|l| match l {
                    Node::Var(v) => targets.iter().position(|t| t == v),
                    _ => None,
                })
                .collect();
            d.sort_unstable();
            d.dedup();
            d
        })
        .collect();
    let mut done = vec![false; assigns.len()];
    let mut out = Vec::with_capacity(assigns.len());
    while out.len() < assigns.len() {
        let Some(i) =
            (0..assigns.len()).find(|&i| !done[i] && deps[i].iter().all(|&j| done[j] || j == i))
        else {
            let i = (0..assigns.len()).find(|&i| !done[i]).expect("some left");
            return Err(targets[i]);
        };
        if deps[i].contains(&i) {
            return Err(targets[i]);
        }
        done[i] = true;
        out.push(assigns[i]);
    }
    Ok(out)
}
