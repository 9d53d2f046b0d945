//! Alias elimination: equations `a = b`, `a = -b` and `a = p` (p a parameter expression).
//!
//! Connections produce many such equations (every connected potential, every two-member flow
//! balance). Variables joined by them form alias sets with a sign relative to a
//! representative; a set bound to a parameter expression is known before simulation. An alias
//! equation that would close a cycle is kept as an ordinary equation, so redundant connections
//! still show up as structural singularity.
//!
//! No member's information is lost. The representative is, in this order of priority, a member
//! with `fixed = true`, a member with an explicit start value, a state (`der()` of any member
//! becomes `der()` of the representative), or the first member. The set's start value and
//! `fixed` come from the highest-priority member that has one, negated for a member that is
//! the negative of the representative, and are written to the representative's variable; two
//! members with `fixed = true` and different start values are an error naming both. The
//! `__rtc(implicit)` and `__rtc(fast)` marks of any member hold for the set.

use crate::diag::{Diagnostic, Span};
use crate::flat::{AliasSet, FlatModel, Kept, VarKind};
use crate::flat::{FlatEq, FlatVar};
use crate::symbolic::{ExprId, Node};

type Arena = crate::symbolic::Arena<FlatVar>;

/// The result: for each variable its representative and sign, and which equations remain.
#[derive(Clone, Debug)]
pub struct Aliases {
    /// `rep[v] = (r, s)`: v = s·r.
    pub rep: Vec<(FlatVar, f64)>,
    /// Sets bound to a parameter expression: representative → (expression for the rep).
    pub bound: Vec<Option<ExprId>>,
    /// Whether the set (by representative) contains a state.
    pub has_state: Vec<bool>,
    /// Indices of the equations that remain after elimination.
    pub kept: Vec<FlatEq>,
    /// Number of equations eliminated.
    pub eliminated: usize,
    /// Sets with more than one member, in the order of their representatives.
    pub sets: Vec<AliasSet>,
    /// Warnings (start values that disagree without `fixed`, `fixed` where it has no effect).
    pub warnings: Vec<Diagnostic>,
}

impl Aliases {
    pub fn resolve(&self, v: FlatVar) -> (FlatVar, f64) {
        self.rep[v.index()]
    }

    pub fn is_known(&self, v: FlatVar) -> bool {
        let (r, _) = self.rep[v.index()];
        self.bound[r.index()].is_some()
    }

    /// The alias set of representative `rep`, if it has other members.
    pub fn set_of(&self, rep: FlatVar) -> Option<&AliasSet> {
        self.sets.iter().find(|s| s.rep == rep)
    }
}

fn is_unknown_kind(k: VarKind) -> bool {
    matches!(k, VarKind::State | VarKind::Algebraic | VarKind::Discrete)
}

/// `Some((v, sign))` if `e` is ±Var(v) of an unknown variable.
fn signed_var(arena: &Arena, model: &FlatModel, e: ExprId) -> Option<(FlatVar, f64)> {
    match arena.node(e) {
        Node::Var(v) if is_unknown_kind(model.var(v).kind) => Some((v, 1.0)),
        Node::Neg(a) => signed_var(arena, model, a).map(|(v, s)| (v, -s)),
        _ => None,
    }
}

/// True when `e` depends on parameters and constants only.
pub fn is_parametric(arena: &Arena, model: &FlatModel, e: ExprId) -> bool {
    let mut leaves = Vec::new();
    arena.leaves(e, &mut leaves);
    leaves.iter().all(|n| match n {
        // `initial()` is a parameter that is true at initialisation only: not parametric.
        Node::Var(v) => {
            Some(*v) != model.initial_flag
                && matches!(model.var(*v).kind, VarKind::Parameter | VarKind::Constant)
        }
        _ => false,
    })
}

/// The alias form of an equation: two signed variables whose weighted sum is zero, or one
/// signed variable equal to a parameter expression.
enum Form {
    /// s1·x1 + s2·x2 = 0
    Pair(FlatVar, f64, FlatVar, f64),
    /// s·x = value
    Bound(FlatVar, f64, ExprId),
}

fn form(arena: &Arena, model: &FlatModel, lhs: ExprId, rhs: ExprId) -> Option<Form> {
    // lhs = rhs with both sides ±variables.
    if let (Some((a, sa)), Some((b, sb))) =
        (signed_var(arena, model, lhs), signed_var(arena, model, rhs))
    {
        return Some(Form::Pair(a, sa, b, -sb));
    }
    // ±x = p or p = ±x.
    if let Some((a, sa)) = signed_var(arena, model, lhs) {
        if is_parametric(arena, model, rhs) {
            return Some(Form::Bound(a, sa, rhs));
        }
    }
    if let Some((b, sb)) = signed_var(arena, model, rhs) {
        if is_parametric(arena, model, lhs) {
            return Some(Form::Bound(b, sb, lhs));
        }
    }
    // a ± b = 0 (flow balances of two connectors).
    let zero_side = |e: ExprId| arena.as_const(e) == Some(0.0);
    let sum = if zero_side(rhs) {
        Some(lhs)
    } else if zero_side(lhs) {
        Some(rhs)
    } else {
        None
    };
    if let Some(s) = sum {
        let (x, y, sy) = match arena.node(s) {
            Node::Add(x, y) => (x, y, 1.0),
            Node::Sub(x, y) => (x, y, -1.0),
            _ => return None,
        };
        if let (Some((a, sa)), Some((b, sb))) =
            (signed_var(arena, model, x), signed_var(arena, model, y))
        {
            return Some(Form::Pair(a, sa, b, sy * sb));
        }
    }
    None
}

/// The alias sets: union-find with parity over the alias equations.
struct Union {
    /// Members of each set, by root.
    members: Vec<Vec<usize>>,
    /// `v = rel[v]·root`.
    rel: Vec<f64>,
    /// The parameter expression a set (by root) is bound to.
    bound: Vec<Option<ExprId>>,
    /// Equations that remain, and how many were eliminated.
    kept: Vec<FlatEq>,
    eliminated: usize,
}

fn union(model: &mut FlatModel) -> Union {
    let n = model.vars.len();
    // Union-find with parity: parent[v] and sign[v] relative to parent.
    let mut parent: Vec<usize> = (0..n).collect();
    let mut sign: Vec<f64> = vec![1.0; n];
    let mut bound: Vec<Option<ExprId>> = vec![None; n];
    fn find(parent: &mut [usize], sign: &mut [f64], x: usize) -> (usize, f64) {
        // Iterative with path compression.
        let mut path = Vec::new();
        let mut cur = x;
        while parent[cur] != cur {
            path.push(cur);
            cur = parent[cur];
        }
        let root = cur;
        // Compress from the top of the path down.
        for &node in path.iter().rev() {
            let p = parent[node];
            if p != root {
                sign[node] *= sign[p];
            }
            parent[node] = root;
        }
        (root, if x == root { 1.0 } else { sign[x] })
    }
    let mut kept = Vec::new();
    let mut eliminated = 0;
    let equations = model.equations.clone();
    for (i, eq) in equations.iter().enumerate() {
        let i = FlatEq::new(i);
        let f = form(&model.arena, model, eq.lhs, eq.rhs);
        match f {
            Some(Form::Pair(a, sa, b, sb)) if a != b => {
                // sa·a + sb·b = 0  →  a = (−sb/sa)·b
                let (ra, pa) = find(&mut parent, &mut sign, a.index());
                let (rb, pb) = find(&mut parent, &mut sign, b.index());
                if ra == rb || (bound[ra].is_some() && bound[rb].is_some()) {
                    kept.push(i);
                    continue;
                }
                // a = pa·ra, b = pb·rb, a = k·b  →  ra = (k·pb/pa)·rb
                let k = -sb / sa;
                let rel = k * pb / pa;
                // Attach rb under ra, or ra under rb; a bound root stays root.
                if bound[rb].is_some() {
                    parent[ra] = rb;
                    sign[ra] = rel;
                } else {
                    parent[rb] = ra;
                    sign[rb] = 1.0 / rel;
                    if bound[rb].is_some() {
                        bound[ra] = bound[rb];
                    }
                }
                eliminated += 1;
            }
            Some(Form::Bound(a, sa, value)) => {
                let (ra, pa) = find(&mut parent, &mut sign, a.index());
                if bound[ra].is_some() {
                    kept.push(i);
                    continue;
                }
                // sa·a = value, a = pa·ra  →  ra = value/(sa·pa)
                let factor = model.arena.constant(sa * pa);
                bound[ra] = Some(model.arena.div(value, factor));
                eliminated += 1;
            }
            _ => kept.push(i),
        }
    }
    let mut members: Vec<Vec<usize>> = vec![Vec::new(); n];
    let mut rel: Vec<f64> = vec![1.0; n];
    for (v, rel_v) in rel.iter_mut().enumerate() {
        let (r, s) = find(&mut parent, &mut sign, v);
        members[r].push(v);
        *rel_v = s;
    }
    Union {
        members,
        rel,
        bound,
        kept,
        eliminated,
    }
}

/// Chooses the variable kept for the set `set` (root `r`) and merges its members' start
/// values, `fixed` and marks into it, reporting conflicts.
fn keep_one(
    model: &mut FlatModel,
    set: &[usize],
    r: usize,
    rel: &[f64],
    bound_r: Option<ExprId>,
    out: &mut Aliases,
    errors: &mut Vec<Diagnostic>,
) {
    let fixed: Vec<usize> = set
        .iter()
        .copied()
        .filter(|&v| model.vars[v].fixed == Some(true))
        .collect();
    let with_start = set.iter().copied().find(|&v| model.vars[v].start.is_some());
    let first_state = set
        .iter()
        .copied()
        .find(|&v| model.vars[v].kind == VarKind::State);
    let (chosen, why) = if let Some(&v) = fixed.first() {
        (v, Kept::FixedStart)
    } else if let Some(v) = with_start {
        (v, Kept::Start)
    } else if let Some(v) = first_state {
        (v, Kept::State)
    } else {
        (r, Kept::First)
    };
    let any_state = first_state.is_some();
    // v = rel[v]·root, chosen = rel[chosen]·root  →  v = (rel[v]/rel[chosen])·chosen
    let sign_of = |v: usize| rel[v] / rel[chosen];
    for &v in set {
        out.rep[v] = (FlatVar::new(chosen), sign_of(v));
    }
    out.has_state[chosen] = any_state;
    if let Some(b) = bound_r {
        // root = b  →  chosen = rel[chosen]·b
        let k = model.arena.constant(rel[chosen]);
        out.bound[chosen] = Some(model.arena.mul(k, b));
    }
    // `fixed = true` on a set without a state asks for an initial equation `v = start`,
    // which needs an initial system: refuse rather than drop it.
    if !any_state && out.bound[chosen].is_none() {
        if let Some(&f) = fixed
            .iter()
            .find(|&&v| model.vars[v].kind == VarKind::Algebraic)
        {
            let fv = &model.vars[f];
            errors.push(
                Diagnostic::error(
                    "unsupported",
                    format!(
                        "not yet supported: `fixed = true` on `{}`, which is not a state (it asks for the initial equation `{} = start`, and rtc does not solve initial systems yet)",
                        fv.name, fv.name
                    ),
                )
                .at(start_span(fv), "fixed here")
                .help("remove `fixed = true`: the start value then serves as the solver's first guess"),
            );
        }
    }
    // The set's start value for the representative: from the fixed members first, then
    // from any member with a start value; `member = s·rep` gives `rep.start = s·start`.
    let start_of = |m: &mut FlatModel, v: usize| -> Option<ExprId> {
        let s = m.vars[v].start?;
        let k = sign_of(v);
        Some(if k == 1.0 { s } else { m.arena.neg(s) })
    };
    let zero = model.arena.constant(0.0);
    let start_from = fixed.first().copied().or(with_start);
    // `fixed = true` without a start value fixes the default start, 0.
    let set_start = start_from.map(|v| start_of(model, v).unwrap_or(zero));
    // Two fixed members must agree.
    if fixed.len() > 1 {
        let first = fixed[0];
        let a = set_start.unwrap_or(zero);
        for &other in &fixed[1..] {
            let b = start_of(model, other).unwrap_or(zero);
            if !same_value(model, a, b) {
                let (fa, fb) = (&model.vars[first], &model.vars[other]);
                let text = |m: &FlatModel, v: usize| {
                    m.vars[v]
                        .start
                        .map(|s| m.expr_string(s))
                        .unwrap_or_else(|| "0 (the default)".into())
                };
                // other = k·first
                let k = sign_of(other) / sign_of(first);
                errors.push(
                    Diagnostic::error(
                        "start-conflict",
                        format!(
                            "the model's equations make `{}` = {}`{}`, but their fixed start values {} and {} do not satisfy that",
                            fb.name,
                            if k < 0.0 { "-" } else { "" },
                            fa.name,
                            text(model, first),
                            text(model, other)
                        ),
                    )
                    .at(start_span(fa), format!("`{}` fixed here", fa.name))
                    .also(start_span(fb), format!("`{}` fixed here", fb.name))
                    .help("give only one of them a fixed start value (fixed = true), or make the values agree"),
                );
                break;
            }
        }
    }
    // A fixed start in a set the parameters determine must agree with them.
    if let (Some(b), Some(&f)) = (out.bound[chosen], fixed.first()) {
        let a = set_start.unwrap_or(zero);
        if !same_value(model, a, b) {
            let fv = &model.vars[f];
            errors.push(
                Diagnostic::error(
                    "start-conflict",
                    format!(
                        "`{}` has `fixed = true` with start value {}, but the model's equations make it {}",
                        fv.name,
                        fv.start.map(|s| model.expr_string(s)).unwrap_or_else(|| "0".into()),
                        match param_value(model, b, 0) {
                            Some(x) if model.arena.as_const(b).is_none() =>
                                format!("{} = {}", model.expr_string(b), crate::symbolic::fmt_real_pub(x)),
                            _ => model.expr_string(b),
                        }
                    ),
                )
                .at(start_span(fv), "fixed here")
                .help("remove `fixed = true`, or change the start value"),
            );
        }
    }
    // Starts without `fixed` that disagree: the highest-priority one is used; say so.
    if fixed.is_empty() {
        if let (Some(a), Some(src)) = (set_start, start_from) {
            for &v in set {
                if v == src {
                    continue;
                }
                let Some(b) = start_of(model, v) else {
                    continue;
                };
                if !same_value(model, a, b) {
                    let (sv, ov) = (&model.vars[src], &model.vars[v]);
                    out.warnings.push(
                        Diagnostic::warning(
                            "start-conflict",
                            format!(
                                "`{}` and `{}` are aliases with different start values; the start value of `{}` is used",
                                sv.name, ov.name, sv.name
                            ),
                        )
                        .at(start_span(ov), "this start value is not used")
                        .also(start_span(sv), "this one is")
                        .help("give the start value with `fixed = true` where it matters, or make them agree"),
                    );
                    break;
                }
            }
        }
    }
    let implicit = set.iter().any(|&v| model.vars[v].implicit);
    let fast = set.iter().any(|&v| model.vars[v].fast);
    // By the priority above the representative is the member the start value comes from
    // (`start_from == chosen`), so its own span stays right.
    debug_assert!(start_from.is_none_or(|v| v == chosen));
    let rep_var = &mut model.vars[chosen];
    rep_var.start = set_start;
    if !fixed.is_empty() {
        rep_var.fixed = Some(true);
    }
    rep_var.implicit = implicit;
    rep_var.fast = fast;
    if set.len() == 1 {
        return;
    }
    out.sets.push(AliasSet {
        rep: FlatVar::new(chosen),
        kept: why,
        members: set
            .iter()
            .filter(|&&v| v != chosen)
            .map(|&v| (FlatVar::new(v), sign_of(v)))
            .collect(),
        start_from: start_from.map(FlatVar::new),
        bound: out.bound[chosen].map(|b| model.expr_string(b)),
    });
}

/// `fixed = true` on variables that are not states and whose alias set has no state and no
/// parameter binding: each asks for the initial equation `v = start` (specification 8.6),
/// which [`fixed_to_initial_equations`] adds for the initial system.
pub fn fixed_without_state(model: &FlatModel) -> Vec<FlatVar> {
    let mut m = model.clone();
    let u = union(&mut m);
    let mut out = Vec::new();
    for (r, set) in u.members.iter().enumerate().filter(|(_, s)| !s.is_empty()) {
        let any_state = set.iter().any(|&v| model.vars[v].kind == VarKind::State);
        let bound = u.bound[r];
        if any_state || bound.is_some() {
            continue;
        }
        out.extend(
            set.iter()
                .copied()
                .filter(|&v| {
                    model.vars[v].fixed == Some(true) && model.vars[v].kind == VarKind::Algebraic
                })
                .map(FlatVar::new),
        );
    }
    out.sort_unstable_by_key(|v| v.index());
    out
}

/// Turns `fixed = true` on the variables [`fixed_without_state`] finds into initial equations
/// `v = start` (the start value, else 0) for the initial system, located at the start value.
pub fn fixed_to_initial_equations(model: &mut FlatModel) {
    for v in fixed_without_state(model) {
        let var = &model.vars[v];
        let span = start_span(var);
        let start = var.start;
        let lhs = model.arena.var(v);
        let rhs = start.unwrap_or_else(|| model.arena.constant(0.0));
        model.initial_equations.push(crate::flat::Equation {
            lhs,
            rhs,
            span,
            origin: crate::flat::EquationOrigin::Source,
        });
        model.vars[v].fixed = None;
    }
}

pub fn eliminate(model: &mut FlatModel) -> Result<Aliases, Vec<Diagnostic>> {
    let u = union(model);
    let n = model.vars.len();
    let mut out = Aliases {
        rep: vec![(FlatVar::new(0), 1.0); n],
        bound: vec![None; n],
        has_state: vec![false; n],
        kept: u.kept,
        eliminated: u.eliminated,
        sets: Vec::new(),
        warnings: Vec::new(),
    };
    let mut errors = Vec::new();
    for r in 0..n {
        if !u.members[r].is_empty() {
            keep_one(
                model,
                &u.members[r],
                r,
                &u.rel,
                u.bound[r],
                &mut out,
                &mut errors,
            );
        }
    }
    out.sets.sort_by_key(|s| s.rep);
    if errors.is_empty() {
        Ok(out)
    } else {
        Err(errors)
    }
}

/// Where a variable's start value is written, else its declaration.
fn start_span(v: &crate::flat::Variable) -> Span {
    v.start_span.unwrap_or(v.span)
}

/// Whether two parameter expressions have the same value (evaluated through the parameters'
/// bindings; structurally equal if they cannot be evaluated).
fn same_value(model: &FlatModel, a: ExprId, b: ExprId) -> bool {
    if a == b {
        return true;
    }
    match (param_value(model, a, 0), param_value(model, b, 0)) {
        (Some(x), Some(y)) => x == y || (x - y).abs() <= 1e-12 * x.abs().max(y.abs()),
        _ => false,
    }
}

/// The value of an expression of constants and parameters, if it has one.
pub fn param_value(model: &FlatModel, e: ExprId, depth: u32) -> Option<f64> {
    if depth > 64 {
        return None;
    }
    let mut ok = true;
    let x = crate::symbolic::eval::eval(
        &model.arena,
        e,
        &mut |v| {
            let var = model.var(v);
            if Some(v) == model.initial_flag {
                ok = false;
                return f64::NAN;
            }
            match (var.kind, var.binding) {
                (VarKind::Parameter | VarKind::Constant, Some(b)) => {
                    param_value(model, b, depth + 1).unwrap_or_else(|| {
                        ok = false;
                        f64::NAN
                    })
                }
                _ => {
                    ok = false;
                    f64::NAN
                }
            }
        },
        0.0,
    );
    let mut leaves = Vec::new();
    model.arena.leaves(e, &mut leaves);
    if leaves
        .iter()
        .any(|l| matches!(l, Node::Time | Node::Der(_) | Node::Pre(_)))
    {
        return None;
    }
    ok.then_some(x)
}
