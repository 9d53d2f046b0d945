//! Initial equations solved before the run (specification 8.6; Cellier & Kofman ch. 10: the
//! initial system is solved once, off the clock).
//!
//! The step system starts from known states: every state's start value. Initial equations that
//! flattening could not turn into start values (`der(y) = 0` for a steady state, `y = y_start`
//! for an output, a relation between states) instead fix some of the states whose `fixed` is
//! not true. This module finds those start values: with the model at the start time (the
//! initial system of a forward Euler plan built without the initial equations, run by the
//! interpreter) as the function of the free states, the residuals of the initial equations are
//! driven to zero by damped Newton with a finite-difference Jacobian. Where there are more free
//! states than equations, the states the residuals depend on most are chosen (greedy column
//! selection on the Jacobian: each next column with the largest part orthogonal to the chosen
//! ones); the others keep their start values. The solution becomes the chosen states' start
//! values with `fixed = true`, and the initial equations are used up; the report says what was
//! solved.
//!
//! This is not bounded work and needs none: it runs when the model is compiled, before the
//! clock. The start values are then numbers: a parameter changed while the model runs does not
//! re-initialise it, and objects carry the solved start values.

use crate::diag::Diagnostic;
use crate::flat::{FlatModel, FlatVar};
use crate::plan::interp::Interp;
use crate::plan::{Plan, Slot, SlotKind, Status};
use crate::symbolic::{ExprId, Node};
use nalgebra::{DMatrix, DVector};
use rustc_hash::FxHashMap;

/// Newton iterations at most, and the residual test (relative to the equation's terms).
const MAX_ITERATIONS: usize = 100;
const RTOL: f64 = 1e-10;
const ATOL: f64 = 1e-14;
/// Redundant initial equations are consistent when they hold to this relative tolerance.
const CONSISTENT: f64 = 1e-8;
/// Re-solves at most this many times for the frozen relations to settle.
const RELATION_ROUNDS: usize = 4;
/// The residual an equation has from rounding alone, relative to |∂r/∂u|·|u|.
const ROUNDING: f64 = 1e-12;

/// An error of the initial system, located at its first initial equation.
fn error_at(span: crate::diag::Span, msg: String) -> Box<Diagnostic> {
    Box::new(Diagnostic::error("initialization", msg).at(span, "initial equation"))
}

/// The model at the start time as a function of the free states: the plan's initial system on
/// the interpreter, and how to read every flat variable (and derivative) from its memory.
struct Model<'p> {
    plan: &'p Plan,
    it: Interp,
    mem0: Vec<f64>,
    t0: f64,
    /// Flat variable → expression over the plan's slots (its record), or the slot itself
    /// (parameters, which have no record), and `der(x)` slots (signed: an alias's derivative is
    /// that of the variable its record reads).
    value: FxHashMap<FlatVar, ExprId>,
    slot: FxHashMap<FlatVar, Slot>,
    der: FxHashMap<FlatVar, (Slot, f64)>,
    /// Whether parameters are among the solve's unknowns (what is computed from them is then
    /// recomputed at every evaluation; otherwise it stays as initialised).
    free_parameters: bool,
}

impl<'p> Model<'p> {
    /// `plan` (of `flat`) initialised at `t0`, or the status its initialisation failed with.
    fn at_start(flat: &FlatModel, plan: &'p Plan, t0: f64) -> Result<Model<'p>, Status> {
        let mut it = Interp::new(plan);
        let mut mem0 = it.memory();
        let st = it.init(&mut mem0, t0);
        if st != Status::Ok {
            return Err(st);
        }
        let (value, slot, der) = read_maps(flat, plan);
        Ok(Model {
            plan,
            it,
            mem0,
            t0,
            value,
            slot,
            der,
            free_parameters: false,
        })
    }

    /// Memory after the initial system with `free` slots set to `u`.
    fn solve(&mut self, free: &[Slot], u: &[f64]) -> Result<Vec<f64>, String> {
        let mut mem = self.mem0.clone();
        for (s, &x) in free.iter().zip(u) {
            mem[s.index()] = x;
        }
        if self.free_parameters {
            self.it.parameters_changed(&mut mem);
        }
        // A zero-length forward Euler step re-solves the model at the start time with the
        // states as set (`init` would reset them to their start values); the relations the
        // step reads frozen take the values they have there (as at the start of the run),
        // and the step is repeated while that changes them.
        let mut st = self.it.step(&mut mem, self.t0, 0.0);
        for _ in 0..RELATION_ROUNDS {
            if st != Status::Ok || !freeze_relations(self.plan, &mut mem) {
                break;
            }
            st = self.it.step(&mut mem, self.t0, 0.0);
        }
        match st {
            Status::Ok => Ok(mem),
            st @ Status::Singular { block } => {
                let what = crate::plan::describe(self.plan, st);
                Err(match crate::plan::singular_cause(self.plan, &mem, block) {
                    Some(why) => format!("{what}: {why}"),
                    None => what,
                })
            }
            st => Err(crate::plan::describe(self.plan, st)),
        }
    }
}

/// The relations the step reads frozen take their live values in `mem`, as at the start of a
/// run (the event machinery's first instant); whether any changed.
fn freeze_relations(plan: &Plan, mem: &mut [f64]) -> bool {
    let t = mem[plan.time.index()];
    let mut changed = false;
    for e in plan.events.iter() {
        let Some((slot, live)) = e.relation.and_then(|r| r.slot.map(|s| (s, r.live))) else {
            continue;
        };
        let v = crate::symbolic::eval::eval(&plan.arena, live, &mut |x: Slot| mem[x.index()], t);
        let v = if v != 0.0 { 1.0 } else { 0.0 };
        changed |= mem[slot.index()] != v;
        mem[slot.index()] = v;
    }
    changed
}

/// The residual lhs − rhs of each initial equation and its scale |lhs| + |rhs|.
fn residuals(
    flat: &FlatModel,
    arena: &crate::symbolic::Arena<FlatVar>,
    eqs: &[(ExprId, ExprId)],
    m: &Model,
    mem: &[f64],
) -> Vec<(f64, f64)> {
    let n = flat.vars.len();
    let mut var = |v: FlatVar| -> f64 {
        if v.index() >= n {
            // der(x), renamed below.
            let x = FlatVar::new(v.index() - n);
            return m
                .der
                .get(&x)
                .map_or(f64::NAN, |&(s, sign)| sign * mem[s.index()]);
        }
        read(m, mem, v)
    };
    eqs.iter()
        .map(|&(l, r)| {
            let a = crate::symbolic::eval::eval(arena, l, &mut var, m.t0);
            let b = crate::symbolic::eval::eval(arena, r, &mut var, m.t0);
            (a - b, a.abs() + b.abs())
        })
        .collect()
}

/// The states of `plan` whose alias set has no member with `fixed = true`, with the flat
/// variable that represents each (its record is +slot).
fn free_states(flat: &FlatModel, plan: &Plan) -> Vec<(Slot, FlatVar)> {
    let by_name: FxHashMap<&str, FlatVar> = flat
        .vars
        .iter()
        .enumerate()
        .map(|(i, v)| (v.name.as_str(), FlatVar::new(i)))
        .collect();
    let mut out = Vec::new();
    for (x, _) in &plan.formulas {
        let mut rep = None;
        let mut fixed = false;
        for o in &plan.outputs {
            let slot = match plan.arena.node(o.expr) {
                Node::Var(s) => Some(s),
                Node::Neg(a) => match plan.arena.node(a) {
                    Node::Var(s) => Some(s),
                    _ => None,
                },
                _ => None,
            };
            if slot != Some(*x) {
                continue;
            }
            if let Some(&v) = by_name.get(o.name.as_str()) {
                fixed |= flat.var(v).fixed == Some(true);
                if matches!(plan.arena.node(o.expr), Node::Var(_)) && rep.is_none() {
                    rep = Some(v);
                }
            }
        }
        if let (false, Some(v)) = (fixed, rep) {
            out.push((*x, v));
        }
    }
    out
}

/// How to read every flat variable from the plan's memory: its record's expression, or its
/// slot (parameters have no record), and the slots of the derivatives: `der(v)`'s own, else,
/// for an alias whose record is `±x`, `±der(x)`.
#[allow(clippy::type_complexity)]
fn read_maps(
    flat: &FlatModel,
    plan: &Plan,
) -> (
    FxHashMap<FlatVar, ExprId>,
    FxHashMap<FlatVar, Slot>,
    FxHashMap<FlatVar, (Slot, f64)>,
) {
    let by_name: FxHashMap<&str, ExprId> = plan
        .outputs
        .iter()
        .map(|o| (o.name.as_str(), o.expr))
        .collect();
    let slot_of: FxHashMap<&str, Slot> = plan
        .vars
        .iter()
        .enumerate()
        .map(|(i, v)| (v.name.as_str(), Slot::new(i)))
        .collect();
    let mut value = FxHashMap::default();
    let mut slot = FxHashMap::default();
    let mut der = FxHashMap::default();
    for (i, v) in flat.vars.iter().enumerate() {
        let id = FlatVar::new(i);
        if let Some(&e) = by_name.get(v.name.as_str()) {
            value.insert(id, e);
        } else if let Some(&s) = slot_of.get(v.name.as_str()) {
            slot.insert(id, s);
        }
        if let Some(&s) = slot_of.get(format!("der({})", v.name).as_str()) {
            der.insert(id, (s, 1.0));
        } else if let Some(&e) = by_name.get(v.name.as_str()) {
            let (x, sign) = match plan.arena.node(e) {
                Node::Var(x) => (Some(x), 1.0),
                Node::Neg(a) => match plan.arena.node(a) {
                    Node::Var(x) => (Some(x), -1.0),
                    _ => (None, 1.0),
                },
                _ => (None, 1.0),
            };
            let name = x.map(|x| format!("der({})", plan.vars[x.index()].name));
            if let Some(&s) = name.as_deref().and_then(|n| slot_of.get(n)) {
                der.insert(id, (s, sign));
            }
        }
    }
    (value, slot, der)
}

/// Rounds at most of solving the initial system and recomputing the parameters with
/// `fixed = false` that initial equations give from the solution.
const PARAMETER_ROUNDS: usize = 5;

/// `flat` with its initial equations solved into start values, and the report; `flat` itself
/// (cloned) when it has none.
///
/// A parameter with `fixed = false` that an initial equation gives explicitly from variables
/// (`positiveBranch = selectBranch(length, e, phi_guess, r_a, r_b)`: the branch of an analytic
/// loop solution picked from the mechanism's positions at the start, specification 8.6) is
/// computed at the solution of the other initial equations: it starts at its start value (0
/// without one), the initial system is solved with it, the equation is evaluated there, and
/// again with the new value until it no longer changes (two rounds where the positions it
/// reads do not depend on it; at most [`PARAMETER_ROUNDS`], else an error).
pub fn initialize(
    flat: &FlatModel,
    plan_of: &dyn Fn(&FlatModel) -> Result<Plan, Box<Diagnostic>>,
) -> Result<(FlatModel, Vec<String>), Box<Diagnostic>> {
    let (given, rest) = parameters_given(flat);
    if given.is_empty() {
        return initialize_states(flat, plan_of);
    }
    let t0 = flat.experiment.start_time.unwrap_or(0.0);
    let mut cur = flat.clone();
    cur.initial_equations = rest;
    for g in &given {
        let guess = flat.var(g.param).start;
        cur.vars[g.param].binding = Some(guess.unwrap_or_else(|| cur.arena.constant(0.0)));
    }
    for round in 1..=PARAMETER_ROUNDS {
        let (mut solved, mut report) = initialize_states(&cur, plan_of)?;
        let plan = plan_of(&solved)?;
        let first = given[0].span;
        let mut model = Model::at_start(&solved, &plan, t0).map_err(|st| {
            error_at(
                first,
                format!(
                    "the model at the start time fails before the parameters with `fixed = false` are computed: {}",
                    crate::plan::describe(&plan, st)
                ),
            )
        })?;
        let mem = model
            .solve(&[], &[])
            .map_err(|e| error_at(first, format!("initial system: {e}")))?;
        let mut settled = true;
        let mut values = Vec::new();
        for g in &given {
            let old = read(&model, &mem, g.param);
            let new = eval_at_solution(&solved, &model, &mem, g.rhs);
            if !new.is_finite() {
                return Err(error_at(
                    g.span,
                    format!(
                        "the initial equation that gives the parameter `{}` (`fixed = false`) is not finite at the initial solution",
                        flat.var(g.param).name
                    ),
                ));
            }
            settled &= (new - old).abs() <= 1e-12 * new.abs().max(old.abs()).max(1.0);
            values.push(new);
        }
        if settled {
            for (g, &x) in given.iter().zip(&values) {
                let e = solved.arena.constant(x);
                solved.vars[g.param].binding = Some(e);
                report.push(format!(
                    "  parameter {} = {x} (fixed = false: its initial equation at the solution, {round} round{})",
                    flat.var(g.param).name,
                    if round == 1 { "" } else { "s" }
                ));
            }
            return Ok((solved, report));
        }
        for (g, &x) in given.iter().zip(&values) {
            cur.vars[g.param].binding = Some(cur.arena.constant(x));
        }
    }
    Err(error_at(
        given[0].span,
        format!(
            "the parameters with `fixed = false` that initial equations give from the initial solution ({}) do not settle in {PARAMETER_ROUNDS} rounds: the solution they are computed from depends on them",
            given
                .iter()
                .map(|g| format!("`{}`", flat.var(g.param).name))
                .collect::<Vec<_>>()
                .join(", ")
        ),
    ))
}

/// An initial equation `p = e` that gives a parameter with `fixed = false` and no binding
/// explicitly from variables (`e` does not read `p`, nor a derivative).
struct Given {
    param: FlatVar,
    rhs: ExprId,
    span: crate::diag::Span,
}

/// The initial equations that give parameters ([`Given`]), and the others.
fn parameters_given(flat: &FlatModel) -> (Vec<Given>, Vec<crate::flat::Equation>) {
    let mut given: Vec<Given> = Vec::new();
    let mut rest = Vec::new();
    for eq in &flat.initial_equations {
        let free = |e: ExprId| match flat.arena.node(e) {
            Node::Var(v)
                if flat.var(v).kind == crate::flat::VarKind::Parameter
                    && flat.var(v).fixed == Some(false)
                    && flat.var(v).binding.is_none() =>
            {
                Some(v)
            }
            _ => None,
        };
        let pick = [(eq.lhs, eq.rhs), (eq.rhs, eq.lhs)]
            .into_iter()
            .find_map(|(a, b)| free(a).map(|p| (p, b)))
            .filter(|&(p, b)| {
                !given.iter().any(|g| g.param == p)
                    && flat
                        .arena
                        .find_leaf(b, |n| matches!(n, Node::Der(_)) || n == Node::Var(p))
                        .is_none()
            });
        match pick {
            Some((param, rhs)) => given.push(Given {
                param,
                rhs,
                span: eq.span,
            }),
            None => rest.push(eq.clone()),
        }
    }
    (given, rest)
}

/// The value of flat variable `v` in the memory of `m`'s plan.
fn read(m: &Model, mem: &[f64], v: FlatVar) -> f64 {
    match (m.value.get(&v), m.slot.get(&v)) {
        (Some(&e), _) => {
            crate::symbolic::eval::eval(&m.plan.arena, e, &mut |s: Slot| mem[s.index()], m.t0)
        }
        (None, Some(s)) => mem[s.index()],
        (None, None) => f64::NAN,
    }
}

/// `e` (over flat variables, no derivatives) in the memory of `m`'s plan.
fn eval_at_solution(flat: &FlatModel, m: &Model, mem: &[f64], e: ExprId) -> f64 {
    crate::symbolic::eval::eval(&flat.arena, e, &mut |v| read(m, mem, v), m.t0)
}

/// [`initialize`] for the states: the initial equations solved for the free states' start
/// values.
fn initialize_states(
    flat: &FlatModel,
    plan_of: &dyn Fn(&FlatModel) -> Result<Plan, Box<Diagnostic>>,
) -> Result<(FlatModel, Vec<String>), Box<Diagnostic>> {
    let mut out = flat.clone();
    if flat.initial_equations.is_empty() {
        return Ok((out, Vec::new()));
    }
    let first_span = flat.initial_equations[0].span;
    let error = |msg: String| error_at(first_span, msg);
    let mut without = flat.clone();
    without.initial_equations.clear();
    let candidates = bind_guesses(flat, &mut without);
    let plan = plan_of(&without)?;
    let t0 = flat.experiment.start_time.unwrap_or(0.0);
    let mut model = Model::at_start(flat, &plan, t0).map_err(|st| {
        error(format!(
            "the model at the start time fails before its initial equations are solved: {}",
            crate::plan::describe(&plan, st)
        ))
    })?;
    let (arena, eqs) = over_derivatives(flat);
    let mut free = free_states(flat, &plan);
    // Parameters with `fixed = false` that the initial equations determine implicitly
    // (InitSpringConstant's spring constant from `rev.a = 0`): unknowns of the solve beside
    // the free states, from their start values (0 without one).
    let states = free.len();
    for &p in &candidates {
        // Its slot: its own, or the one its record reads.
        let record = model.value.get(&p).and_then(|&e| match plan.arena.node(e) {
            Node::Var(s) => Some(s),
            _ => None,
        });
        let Some(s) = model.slot.get(&p).copied().or(record) else {
            if flat.var(p).binding.is_none() {
                free_parameter_equation(flat)?;
            }
            continue;
        };
        free.push((s, p));
        model.free_parameters = true;
    }
    let k = eqs.len();
    let names = |idx: &[usize]| -> String {
        idx.iter()
            .map(|&i| format!("`{}`", flat.var(free[i].1).name))
            .collect::<Vec<_>>()
            .join(", ")
    };
    if free.is_empty() {
        return redundant(flat, &arena, &eqs, &mut model, out);
    }
    let slots: Vec<Slot> = free.iter().map(|f| f.0).collect();
    let mut u: Vec<f64> = slots.iter().map(|s| model.mem0[s.index()]).collect();
    let eval_at = |model: &mut Model, u: &[f64]| -> Result<Vec<(f64, f64)>, String> {
        let mem = model.solve(&slots, u)?;
        Ok(residuals(flat, &arena, &eqs, model, &mem))
    };
    let jacobian =
        |model: &mut Model, u: &[f64], r0: &[(f64, f64)]| -> Result<DMatrix<f64>, String> {
            let mut j = DMatrix::zeros(k, u.len());
            for c in 0..u.len() {
                let d = 1e-7 * u[c].abs().max(1.0);
                let mut up = u.to_vec();
                up[c] += d;
                let r = eval_at(model, &up)?;
                for i in 0..k {
                    j[(i, c)] = (r[i].0 - r0[i].0) / d;
                }
            }
            Ok(j)
        };
    let mut r = eval_at(&mut model, &u).map_err(|e| error(format!("initial system: {e}")))?;
    // The columns (free states) the equations determine. With more equations than free
    // states, or equations that depend on each other (a current fixed in each phase of a
    // star-connected winding whose phase currents sum to zero), a largest independent set of
    // them is solved and the others are checked to hold at the solution.
    let j0 = jacobian(&mut model, &u, &r).map_err(|e| error(format!("initial system: {e}")))?;
    let rows = equations_to_solve(&j0, free.len()).ok_or_else(|| {
        error(format!(
            "the initial system is singular: the {k} initial equations do not determine any of the free states {}",
            names(&(0..free.len()).collect::<Vec<_>>())
        ))
    })?;
    let all = k;
    let k = rows.len();
    let j0 = DMatrix::from_fn(k, j0.ncols(), |i, c| j0[(rows[i], c)]);
    let chosen = choose_columns_preferring(&j0, k, states).ok_or_else(|| {
        error(format!(
            "the initial system is singular: the {k} initial equations do not determine {k} of the free states {}",
            names(&(0..free.len()).collect::<Vec<_>>())
        ))
    })?;
    let pick = |r: &[(f64, f64)]| -> Vec<(f64, f64)> { rows.iter().map(|&i| r[i]).collect() };
    r = pick(&r);
    // Relative to the equation's terms, with a floor for equations whose terms both vanish at
    // the solution (`der(x) = 0` at rest: the residual is rounding only): the rounding that
    // the free states' own size brings into the residual (|∂r/∂u|·|u|), and an absolute one.
    let converged = |r: &[(f64, f64)], u: &[f64]| {
        r.iter().enumerate().all(|(i, &(x, s))| {
            let rounding: f64 = (0..u.len()).map(|c| j0[(i, c)].abs() * u[c].abs()).sum();
            x.abs() <= RTOL * s + ROUNDING * rounding + ATOL
        })
    };
    let mut iterations = 0;
    while !converged(&r, &u) {
        if iterations == MAX_ITERATIONS {
            let worst = r.iter().map(|p| p.0.abs()).fold(0.0, f64::max);
            return Err(error(format!(
                "the initial system did not converge in {MAX_ITERATIONS} Newton iterations (largest residual {worst:e}) for {}",
                names(&chosen)
            )));
        }
        iterations += 1;
        let full = eval_at(&mut model, &u).map_err(|e| error(format!("initial system: {e}")))?;
        let j =
            jacobian(&mut model, &u, &full).map_err(|e| error(format!("initial system: {e}")))?;
        let js = DMatrix::from_fn(k, k, |i, c| j[(rows[i], chosen[c])]);
        let rhs = DVector::from_iterator(k, r.iter().map(|p| p.0));
        let Some(dx) = js.lu().solve(&rhs) else {
            return Err(error(format!(
                "the Jacobian of the initial system is singular at iteration {iterations} for {}",
                names(&chosen)
            )));
        };
        let norm = |r: &[(f64, f64)]| r.iter().map(|p| p.0 * p.0).sum::<f64>();
        let before = norm(&r);
        let mut lambda = 1.0;
        loop {
            let mut trial = u.clone();
            for (c, &col) in chosen.iter().enumerate() {
                trial[col] -= lambda * dx[c];
            }
            match eval_at(&mut model, &trial).map(|rt| pick(&rt)) {
                Ok(rt) if norm(&rt) < before || lambda < 1e-4 => {
                    u = trial;
                    r = rt;
                    break;
                }
                _ if lambda < 1e-4 => {
                    return Err(error(format!(
                        "the initial system's Newton iteration failed (no step reduces the residual) for {}",
                        names(&chosen)
                    )))
                }
                _ => lambda /= 2.0,
            }
        }
    }
    let mut report = vec![format!(
        "initial system: {k} initial equation{} solved for {} in {iterations} Newton iteration{} (damped, finite-difference Jacobian)",
        if k == 1 { "" } else { "s" },
        names(&chosen),
        if iterations == 1 { "" } else { "s" }
    )];
    if k < all {
        // The equations left out must hold at the solution.
        let rfull = eval_at(&mut model, &u).map_err(|e| error(format!("initial system: {e}")))?;
        report.push(left_out_hold(flat, &rfull, &rows)?);
    }
    for &c in &chosen {
        let v = free[c].1;
        let x = u[c];
        let e = out.arena.constant(x);
        let var = &mut out.vars[v];
        if c >= states {
            var.binding = Some(e);
            report.push(format!("  parameter {} = {x} (fixed = false)", var.name));
            continue;
        }
        var.start = Some(e);
        var.fixed = Some(true);
        report.push(format!("  {} = {x}", var.name));
    }
    // A parameter the equations do not determine keeps its start value, said so.
    for c in (states..free.len()).filter(|c| !chosen.contains(c)) {
        let v = free[c].1;
        let e = out.arena.constant(u[c]);
        out.vars[v].binding = Some(e);
        report.push(format!(
            "  parameter {} = {} (fixed = false; the initial equations do not determine it: its start value)",
            flat.var(v).name,
            u[c]
        ));
    }
    out.initial_equations.clear();
    Ok((out, report))
}

/// The parameters the solve may determine ([`implicit_parameters`]), bound in `without` to
/// their start values as numbers (tunable: what is computed from them follows a change); one
/// whose start value is not a parameter expression keeps its binding and is not solved for.
fn bind_guesses(flat: &FlatModel, without: &mut FlatModel) -> Vec<FlatVar> {
    let mut candidates = implicit_parameters(flat);
    candidates.retain(|&p| {
        let guess = match flat.var(p).start {
            Some(e) => crate::structure::alias::param_value(flat, e, 0),
            None => Some(0.0),
        };
        if let Some(x) = guess {
            without.vars[p].binding = Some(without.arena.constant(x));
        }
        guess.is_some()
    });
    candidates
}

/// The initial equations over a copy of the arena where `der(x)` reads as a variable of its
/// own (numbered past the flat variables), `pre(v)` as the initial system reads it.
fn over_derivatives(flat: &FlatModel) -> (crate::symbolic::Arena<FlatVar>, Vec<(ExprId, ExprId)>) {
    let mut arena = flat.arena.clone();
    let n = flat.vars.len();
    let mut cache = FxHashMap::default();
    let eqs: Vec<(ExprId, ExprId)> = flat
        .initial_equations
        .iter()
        .map(|eq| {
            let mut sub = |e: ExprId| {
                arena.substitute(e, &mut cache, &mut |ar, node| match node {
                    Node::Der(v) => Some(ar.var(FlatVar::new(v.index() + n))),
                    // In the initial system pre(v) of a discrete variable is its start value
                    // (specification 8.6); of a continuous one, its value.
                    Node::Pre(v) => Some(
                        flat.var(v)
                            .start
                            .filter(|_| {
                                matches!(
                                    flat.var(v).kind,
                                    crate::flat::VarKind::Discrete | crate::flat::VarKind::Sampled
                                )
                            })
                            .unwrap_or_else(|| ar.var(v)),
                    ),
                    _ => None,
                })
            };
            (sub(eq.lhs), sub(eq.rhs))
        })
        .collect();
    (arena, eqs)
}

/// The parameters with `fixed = false` that no equation gives (no binding, or their start
/// value as flattening bound it): unknowns of the initial system (specification 8.6).
fn implicit_parameters(flat: &FlatModel) -> Vec<FlatVar> {
    (0..flat.vars.len())
        .map(FlatVar::new)
        .filter(|&v| {
            let var = flat.var(v);
            var.kind == crate::flat::VarKind::Parameter
                && var.fixed == Some(false)
                && (var.binding.is_none() || var.binding == var.start)
        })
        .collect()
}

/// An initial equation that gives a parameter with `fixed = false` (which flattening could not
/// compute from the others) determines that parameter: rtc's initial system does not solve for
/// parameters, so it says so rather than take the equation as redundant.
fn free_parameter_equation(flat: &FlatModel) -> Result<(), Box<Diagnostic>> {
    for eq in &flat.initial_equations {
        let mut leaves = Vec::new();
        flat.arena.leaves(eq.lhs, &mut leaves);
        flat.arena.leaves(eq.rhs, &mut leaves);
        let free_parameter = leaves.iter().find_map(|l| match *l {
            Node::Var(v)
                if flat.var(v).kind == crate::flat::VarKind::Parameter
                    && flat.var(v).fixed == Some(false) =>
            {
                Some(v)
            }
            _ => None,
        });
        if let Some(v) = free_parameter {
            return Err(Box::new(
                Diagnostic::error(
                    "unsupported",
                    format!(
                        "not yet supported: an initial equation that determines the parameter `{}` (`fixed = false`) implicitly: rtc's initial system solves for states, and computes such parameters only from an equation that gives them explicitly",
                        flat.var(v).name
                    ),
                )
                .at(eq.span, "initial equation"),
            ));
        }
    }
    Ok(())
}

/// Every state is fixed: the initial equations are redundant. They must hold at the start as
/// given (then they are dropped, checked, with a note), else the system is inconsistent.
fn redundant(
    flat: &FlatModel,
    arena: &crate::symbolic::Arena<FlatVar>,
    eqs: &[(ExprId, ExprId)],
    model: &mut Model,
    mut out: FlatModel,
) -> Result<(FlatModel, Vec<String>), Box<Diagnostic>> {
    let k = eqs.len();
    free_parameter_equation(flat)?;
    let mem = model.solve(&[], &[]).map_err(|e| {
        error_at(
            flat.initial_equations[0].span,
            format!("initial system: {e}"),
        )
    })?;
    let r = residuals(flat, arena, eqs, model, &mem);
    if let Some(i) = r
        .iter()
        .position(|&(x, s)| x.is_nan() || x.abs() > CONSISTENT * s + ATOL)
    {
        let eq = &flat.initial_equations[i];
        return Err(Box::new(
            Diagnostic::error(
                "initialization",
                format!(
                    "the initial system is over-determined and inconsistent: no state is left without `fixed = true`, and `{} = {}` does not hold at the start (residual {:e})",
                    flat.expr_string(eq.lhs),
                    flat.expr_string(eq.rhs),
                    r[i].0
                ),
            )
            .at(eq.span, "initial equation")
            .help("remove this initial equation, or `fixed = true` from a state it should determine"),
        ));
    }
    let worst = r.iter().map(|p| p.0.abs()).fold(0.0, f64::max);
    out.initial_equations.clear();
    Ok((
        out,
        vec![format!(
            "initial system: {k} initial equation{} redundant with the fixed start values, and consistent with them (checked: largest residual {worst:e})",
            if k == 1 { " is" } else { "s are" }
        )],
    ))
}

/// Evaluations per block allowed to the damped Newton of [`start_point`].
const DAMPED_EVALUATIONS: u32 = 200;

/// The model at the start time, when the plan's own initialisation (Newton bounded as in every
/// step, from the start values) fails: solved here once with damped Newton and many more
/// iterations — from the start values, then from one for every unknown without one, then, if
/// the model has `homotopy`, by continuation from its simplified form (λ from 0 to 1, on a
/// plan that `continuation` builds with λ a parameter) — and its values written into the model
/// as start values (guesses; `fixed` is not set), so that the run's initialisation starts at
/// the solution. `None` when the plan's initialisation succeeds as it is (nothing changes) or
/// every attempt fails (the run then reports the plan's failure).
pub fn start_point(
    flat: &FlatModel,
    plan: &Plan,
    continuation: &dyn Fn(&FlatModel) -> Result<Plan, Box<Diagnostic>>,
) -> Option<(FlatModel, Vec<String>)> {
    let t0 = flat.experiment.start_time.unwrap_or(0.0);
    let mut it = Interp::new(plan);
    let mut mem = it.memory();
    let first = it.init(&mut mem, t0);
    if first == Status::Ok {
        return None;
    }
    let failed = crate::plan::describe(plan, first);
    if let Some((it, mem)) = damped_init(plan, t0) {
        let (out, count) = with_guesses(flat, plan, &it, &mem);
        let note = format!(
            "the model at the start time did not solve with the step's Newton ({failed}); solved when compiling by damped Newton (at most {DAMPED_EVALUATIONS} evaluations per block) into start values of {count} algebraic variable{}",
            if count == 1 { "" } else { "s" }
        );
        return Some((out, vec![note]));
    }
    let (cplan, it, mem, steps) = homotopy_continuation(flat, continuation, t0)?;
    let (out, count) = with_guesses(flat, &cplan, &it, &mem);
    let note = format!(
        "the model at the start time did not solve with the step's Newton ({failed}), nor damped; solved when compiling by homotopy: the simplified model, then {steps} continuation steps to the actual one (damped Newton), into start values of {count} algebraic variable{}",
        if count == 1 { "" } else { "s" }
    );
    Some((out, vec![note]))
}

/// The plan's initialisation with damped Newton: from the start values, then from one for
/// every algebraic unknown without a start value.
fn damped_init(plan: &Plan, t0: f64) -> Option<(Interp, Vec<f64>)> {
    for ones in [false, true] {
        let mut it = Interp::new(plan);
        it.set_damped(DAMPED_EVALUATIONS);
        let mut mem = it.memory();
        if ones {
            set_ones(plan, &mut mem);
        }
        if it.init(&mut mem, t0) == Status::Ok {
            return Some((it, mem));
        }
    }
    None
}

/// One for every algebraic unknown without a start value (a guess of zero can make the first
/// Jacobian singular or divide by zero).
fn set_ones(plan: &Plan, mem: &mut [f64]) {
    for (i, v) in plan.vars.iter().enumerate() {
        if v.binding.is_none() && v.kind == SlotKind::System(crate::system::SVarKind::Algebraic) {
            mem[i] = 1.0;
        }
    }
}

/// `homotopy(actual, simplified)` continued from λ = 0 (the simplified model, solved damped)
/// to λ = 1 by zero-length forward Euler steps that re-solve the model at the start time from
/// the previous solution, the increment halved where a step fails (down to 1e-6) and doubled
/// (up to 1/4) where it succeeds: the plan, the interpreter, its memory at λ = 1 and the number
/// of steps.
fn homotopy_continuation(
    flat: &FlatModel,
    continuation: &dyn Fn(&FlatModel) -> Result<Plan, Box<Diagnostic>>,
    t0: f64,
) -> Option<(Plan, Interp, Vec<f64>, usize)> {
    let lambda = flat.homotopy?;
    let mut at_zero = flat.clone();
    let zero = at_zero.arena.constant(0.0);
    at_zero.vars[lambda].binding = Some(zero);
    let plan = continuation(&at_zero).ok()?;
    let slot = plan
        .vars
        .iter()
        .position(|v| v.name == flat.var(lambda).name)?;
    let (mut it, mut mem) = damped_init(&plan, t0)?;
    let (mut at, mut inc, mut steps) = (0.0f64, 0.1f64, 0);
    while at < 1.0 {
        let next = (at + inc).min(1.0);
        let saved = mem.clone();
        mem[slot] = next;
        it.parameters_changed(&mut mem);
        steps += 1;
        if it.step(&mut mem, t0, 0.0) == Status::Ok {
            at = next;
            inc = (2.0 * inc).min(0.25);
        } else {
            mem = saved;
            inc /= 2.0;
            if inc < 1e-6 {
                return None;
            }
        }
    }
    Some((plan, it, mem, steps))
}

/// `flat` with the algebraic variables' values in `mem` (of `plan`) as their start values;
/// and how many were set.
fn with_guesses(flat: &FlatModel, plan: &Plan, it: &Interp, mem: &[f64]) -> (FlatModel, usize) {
    let mut out = flat.clone();
    let by_name: FxHashMap<&str, usize> = flat
        .vars
        .iter()
        .enumerate()
        .map(|(i, v)| (v.name.as_str(), i))
        .collect();
    let mut count = 0;
    for o in &plan.outputs {
        let Some(&i) = by_name.get(o.name.as_str()) else {
            continue;
        };
        let slot_expr = match plan.arena.node(o.expr) {
            Node::Var(_) => true,
            Node::Neg(a) => matches!(plan.arena.node(a), Node::Var(_)),
            _ => false,
        };
        if out.vars[i].kind != crate::flat::VarKind::Algebraic || !slot_expr {
            continue;
        }
        let x = it.eval(mem, o.expr);
        if x.is_finite() {
            let e = out.arena.constant(x);
            out.vars[i].start = Some(e);
            count += 1;
        }
    }
    (out, count)
}

/// `k` columns of `j` that are linearly independent, the largest first (greedy selection by
/// the norm of each column's part orthogonal to those chosen); `None` if there are not `k`.
/// The initial equations to solve (rows of the Jacobian `j` over `free` states): all when
/// they determine as many free states, else a largest independent set of them.
fn equations_to_solve(j: &DMatrix<f64>, free: usize) -> Option<Vec<usize>> {
    let k = j.nrows();
    if k <= free && choose_columns(j, k).is_some() {
        return Some((0..k).collect());
    }
    choose_columns(&j.transpose(), free.min(k)).or_else(|| independent_rows(j))
}

/// The initial equations left out of the solve (not in `rows`) must hold at the solution
/// (`r`: every equation's residual and scale): the report line, or the inconsistent one.
fn left_out_hold(
    flat: &FlatModel,
    r: &[(f64, f64)],
    rows: &[usize],
) -> Result<String, Box<Diagnostic>> {
    let mut worst = 0.0f64;
    for (i, &(x, sc)) in r.iter().enumerate() {
        if rows.contains(&i) {
            continue;
        }
        if x.is_nan() || x.abs() > CONSISTENT * sc + ATOL {
            let eq = &flat.initial_equations[i];
            return Err(Box::new(
                Diagnostic::error(
                    "initialization",
                    format!(
                        "the initial system is over-determined and inconsistent: with the other initial equations solved, `{} = {}` does not hold (residual {x:e})",
                        flat.expr_string(eq.lhs),
                        flat.expr_string(eq.rhs)
                    ),
                )
                .at(eq.span, "initial equation")
                .help("remove this initial equation, or `fixed = true` from a state it should determine"),
            ));
        }
        worst = worst.max(x.abs());
    }
    let n = r.len() - rows.len();
    Ok(format!(
        "  {n} initial equation{} redundant with the others and consistent with them (checked: largest residual {worst:e})",
        if n == 1 { " is" } else { "s are" }
    ))
}

/// The largest set of rows of `j` independent of each other (greedy, largest orthogonal part
/// first); `None` when every row vanishes.
fn independent_rows(j: &DMatrix<f64>) -> Option<Vec<usize>> {
    let t = j.transpose();
    let mut n = t.ncols().min(t.nrows());
    while n > 0 {
        if let Some(rows) = choose_columns(&t, n) {
            return Some(rows);
        }
        n -= 1;
    }
    None
}

fn choose_columns(j: &DMatrix<f64>, k: usize) -> Option<Vec<usize>> {
    choose_columns_preferring(j, k, j.ncols())
}

/// [`choose_columns`], taking a column among the first `first` (the free states) while one
/// is independent of those chosen, the others (free parameters) only then.
fn choose_columns_preferring(j: &DMatrix<f64>, k: usize, first: usize) -> Option<Vec<usize>> {
    let mut basis: Vec<DVector<f64>> = Vec::new();
    let mut chosen = Vec::new();
    let scale = j.iter().fold(0.0f64, |a, x| a.max(x.abs())).max(1e-300);
    while chosen.len() < k {
        let mut best: Option<(usize, f64, DVector<f64>)> = None;
        for tier in [0..first.min(j.ncols()), first.min(j.ncols())..j.ncols()] {
            for c in tier {
                if chosen.contains(&c) {
                    continue;
                }
                let mut v: DVector<f64> = j.column(c).into_owned();
                for b in &basis {
                    let p = b.dot(&v);
                    v -= b * p;
                }
                let nv = v.norm();
                if best.as_ref().is_none_or(|b| nv > b.1) {
                    best = Some((c, nv, v));
                }
            }
            if best.as_ref().is_some_and(|b| b.1 > 1e-10 * scale) {
                break;
            }
        }
        let (c, nv, v) = best?;
        if nv <= 1e-10 * scale {
            return None;
        }
        basis.push(v / nv);
        chosen.push(c);
    }
    chosen.sort_unstable();
    Some(chosen)
}
