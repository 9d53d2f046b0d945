//! Integration formulas inlined per state (Cellier & Kofman §10.6–10.7; Howe ch. 1 for the
//! real-time Runge-Kutta and Adams-Bashforth formulas): the choice of formula per state from
//! the method, the stage copies of multi-stage formulas, and the discretisation equations.

use super::{multirate_settings, Builder, DResult, Layout, Stepped};
use crate::diag::{Diagnostic, Span};
use crate::flat::{FlatModel, FlatVar};
use crate::symbolic::ExprId;
use crate::system::SysVar;
use crate::system::{Formula, Method, Origin, SEquation, SVarKind, StagedInput};
use rustc_hash::FxHashMap;

/// Chooses each state's formula from the method. Unknown names in `--implicit` are errors.
pub(super) fn formulas_for(
    flat: &FlatModel,
    states: &[FlatVar],
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
fn rk_sum(
    b: &mut Builder,
    w: &[f64],
    f0: SysVar,
    d: SysVar,
    stages: &[FxHashMap<SysVar, SysVar>],
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
type Stage = (FxHashMap<SysVar, SysVar>, Vec<SEquation>);

impl Builder<'_> {
    /// Stage `k` at t + c·h: a copy (`name@k`) of every state, derivative and algebraic
    /// variable, and the model equations written for them. Parameters and inputs are shared
    /// (inputs are held over the step). Returns the map original → copy and the equations.
    pub(super) fn stage_copy(
        &mut self,
        flat: &FlatModel,
        k: usize,
        c: f64,
        step_start: SysVar,
        step_size: SysVar,
    ) -> Result<Stage, Box<Diagnostic>> {
        let originals: Vec<SysVar> = (0..self.vars.len())
            .map(SysVar::new)
            .filter(|v| {
                matches!(
                    self.vars[*v].kind,
                    SVarKind::State | SVarKind::Derivative | SVarKind::Algebraic
                )
            })
            .collect();
        let mut stage_of = FxHashMap::default();
        for v in originals {
            let name = format!("{}@{k}", self.vars[v].name);
            let span = self.vars[v].span;
            let flat_v = self.vars[v].flat;
            let sv = self.add(name, SVarKind::Stage, flat_v, span);
            stage_of.insert(v, sv);
        }
        // Inputs are read at the stage time: a slot per input and stage, written by the
        // environment with the input's value at t + c·h (Bernstein: a real-time formula
        // needs only inputs that exist when the stage runs).
        if c != 0.0 {
            let staged: Vec<SysVar> = self.input_stages.iter().map(|s| s.slot).collect();
            let inputs: Vec<SysVar> = (0..self.vars.len())
                .map(SysVar::new)
                .filter(|v| self.vars[*v].kind == SVarKind::Input && !staged.contains(v))
                .collect();
            for u in inputs {
                let name = format!("{}@{k}", self.vars[u].name);
                let span = self.vars[u].span;
                let flat_u = self.vars[u].flat;
                let su = self.add(name, SVarKind::Input, flat_u, span);
                self.input_stages.push(StagedInput {
                    slot: su,
                    input: u,
                    offset: c,
                });
                stage_of.insert(u, su);
            }
        }
        let value_of = std::mem::take(&mut self.value_of);
        let der_of = std::mem::take(&mut self.der_of);
        let at_stage = |v: &SysVar| stage_of.get(v).copied().unwrap_or(*v);
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
            let eq = flat.equation(m);
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

/// The discretisation equations of the states (Cellier & Kofman §10.6): per state its formula
/// inlined, `x = pre(x) + h·(…)`; for multi-stage formulas the stage copies of the model and
/// the stage equations; for Adams-Bashforth the step counter of the start-up.
pub(super) fn formula_equations(
    b: &mut Builder,
    flat: &FlatModel,
    layout: &Layout,
    formulas: &[Formula],
) -> DResult<Stepped> {
    let (states, step_start, step_size) = (&layout.states, layout.step_start, layout.step_size);
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
    let mut stages: Vec<FxHashMap<SysVar, SysVar>> = Vec::new();
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
                let ab2 = comb(b, &[(1.5, f0), (-0.5, f1)]);
                let later = if order >= 3 {
                    let p3 = b.pre(p2);
                    let f2 = b.arena.var(p3);
                    let ab3 = comb(
                        b,
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
                let sum = rk_sum(b, weights, f0, d, &stages);
                b.arena.mul(h, sum)
            }
        };
        let rhs = b.arena.add(pxe, incr);
        step_eqs.push(SEquation {
            lhs: xe,
            rhs,
            span: b.vars[x].span,
            origin: Origin::Formula(x),
        });
        formula_list.push((x, f));
        if let Formula::Rk(r) = f {
            // X@k = pre(x) + h·Σ_{j<k} a_kj·F_j.
            let (_, rows, _) = r.tableau();
            let f0 = b.pre(d);
            for (k, row) in rows.iter().enumerate() {
                let xk = stages[k][&x];
                let sum = rk_sum(b, row, f0, d, &stages);
                let incr = b.arena.mul(h, sum);
                let rhs = b.arena.add(pxe, incr);
                let lhs = b.arena.var(xk);
                step_eqs.push(SEquation {
                    lhs,
                    rhs,
                    span: b.vars[x].span,
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
                span: b.vars[x].span,
                origin: Origin::Formula(x1),
            });
        }
    }
    let stage_guesses = stage_guesses(b, &stages, formulas);
    Ok(Stepped {
        step_eqs,
        formula_list,
        stage_eqs,
        counter_eqs,
        stage_guesses,
    })
}

/// Radau's stage values are unknowns solved by Newton from their previous values: before the
/// first step, the initial system gives them the values at the start time (a stage copy that
/// starts at zero can make the first Jacobian singular, e.g. a position on a circle at the
/// origin). `copy = original` per stage copy, for the initial system.
fn stage_guesses(
    b: &mut Builder,
    stages: &[FxHashMap<SysVar, SysVar>],
    formulas: &[Formula],
) -> Vec<(SysVar, SEquation)> {
    let mut out = Vec::new();
    if !formulas.contains(&Formula::Radau) {
        return out;
    }
    for map in stages {
        let mut pairs: Vec<(SysVar, SysVar)> = map
            .iter()
            .map(|(&o, &c)| (o, c))
            .filter(|&(_, c)| b.vars[c].kind == SVarKind::Stage)
            .collect();
        pairs.sort_unstable_by_key(|&(o, _)| o.index());
        for (o, c) in pairs {
            let (lhs, rhs) = (b.arena.var(c), b.arena.var(o));
            out.push((
                c,
                SEquation {
                    lhs,
                    rhs,
                    span: b.vars[c].span,
                    origin: Origin::Formula(c),
                },
            ));
        }
    }
    out
}
