//! The `semiLinear` rules of specification 3.7.4.5.
//!
//! `semiLinear(x, a, b)` is `a·x` for x ≥ 0 and `b·x` otherwise: the enthalpy flow of a port
//! from the mass flow and the upstream enthalpy (`H_flow = semiLinear(m_flow, port.h, h)`).
//! Two such ports connected give, with the connection's equal potentials and zero flow sum,
//!
//! ```text
//! y = semiLinear(x, sa, s1);      (one side: its own enthalpy sa, the port's s1)
//! y = semiLinear(x, s1, sb);      (the other side)
//! ```
//!
//! which determine the port's `s1` only while x ≠ 0: at zero flow (a pump at rest, a flow
//! that stops) both equations read 0 = 0 in `s1`, and the Jacobian of the loop that solves
//! them is singular. The specification recommends replacing them by
//!
//! ```text
//! s1 = if x >= 0 then sa else sb;
//! y = semiLinear(x, sa, sb);
//! ```
//!
//! (rule 1), the same solution for every x ≠ 0 and the upstream enthalpy at x = 0; and a
//! port whose flow and enthalpy flow are both zero (`x = 0; y = 0; y = semiLinear(x, sa,
//! sb)`: an unconnected port) by `sa = sb` (rule 2). Both are applied here, on the flat model
//! before index reduction, through the aliases that connections make (`structure::alias`):
//! `y`, `x` and `s1` are matched up to their alias sets and signs, using
//! `semiLinear(-x, a, b) = -semiLinear(x, b, a)`. Each rewrite is reported in the model's
//! notes.

use crate::flat::{FlatModel, FlatVar, VarKind};
use crate::structure::alias::{self, Aliases};
use crate::symbolic::{CmpOp, ExprId, Node};
use rustc_hash::FxHashMap;

/// One equation `sign·Y = semiLinear(X, a, b)` over alias representatives Y and X.
#[derive(Clone, Copy)]
struct Use {
    eq: usize,
    y: FlatVar,
    x: FlatVar,
    sign: i8,
    /// The arguments as written, in the orientation of X.
    a: ExprId,
    b: ExprId,
}

/// Applies rules 1 and 2 to `m`'s equations; returns the notes.
pub fn apply_rules(m: &mut FlatModel) -> Vec<String> {
    if m.semi_linear.is_empty() {
        return Vec::new();
    }
    let Ok(aliases) = alias::eliminate(&mut m.clone()) else {
        // Conflicting start values: the load reports them; nothing to rewrite.
        return Vec::new();
    };
    let calls: FxHashMap<ExprId, usize> = m
        .semi_linear
        .iter()
        .enumerate()
        .map(|(k, s)| (s.value, k))
        .collect();
    let uses: Vec<Use> = (0..m.equations.len())
        .filter_map(|k| use_of(m, &aliases, &calls, k))
        .collect();
    let mut notes = Vec::new();
    let mut done = vec![false; uses.len()];
    let mut groups: FxHashMap<(FlatVar, FlatVar, i8), Vec<usize>> = FxHashMap::default();
    for (k, u) in uses.iter().enumerate() {
        groups.entry((u.y, u.x, u.sign)).or_default().push(k);
    }
    let mut keys: Vec<_> = groups.keys().copied().collect();
    keys.sort_by_key(|&(y, x, s)| (y.index(), x.index(), s));
    for key in keys {
        let group = &groups[&key];
        for &i in group {
            for &j in group {
                if i == j || done[i] || done[j] {
                    continue;
                }
                let (u, w) = (uses[i], uses[j]);
                let Some(s1) = same_var(m, &aliases, u.b, w.a) else {
                    continue;
                };
                done[i] = true;
                done[j] = true;
                rule_one(m, u, w, s1);
                notes.push(format!(
                    "semiLinear rule 1 (specification 3.7.4.5): `{}` is the upstream one of `{}` \
                     and `{}`, so that it is determined at zero `{}`",
                    m.var(s1).name,
                    m.expr_string(u.a),
                    m.expr_string(w.b),
                    m.var(u.x).name,
                ));
            }
        }
    }
    for (k, u) in uses.iter().enumerate() {
        if done[k] || !(is_zero(m, &aliases, u.x) && is_zero(m, &aliases, u.y)) {
            continue;
        }
        // Rule 2: x = 0 and y = 0; the equation says nothing but sa = sb.
        let e = &mut m.equations[u.eq];
        e.lhs = u.a;
        e.rhs = u.b;
        notes.push(format!(
            "semiLinear rule 2 (specification 3.7.4.5): `{}` and `{}` are zero, so their \
             semiLinear equation reads `{} = {}`",
            m.var(u.x).name,
            m.var(u.y).name,
            m.expr_string(u.a),
            m.expr_string(u.b),
        ));
    }
    notes
}

/// `±Var(v)` of an unknown, resolved to its representative: (rep, sign).
fn signed_rep(m: &FlatModel, a: &Aliases, e: ExprId) -> Option<(FlatVar, i8)> {
    match m.arena.node(e) {
        Node::Var(v) if matches!(m.var(v).kind, VarKind::State | VarKind::Algebraic) => {
            let (r, s) = a.resolve(v);
            Some((r, if s < 0.0 { -1 } else { 1 }))
        }
        Node::Neg(inner) => signed_rep(m, a, inner).map(|(v, s)| (v, -s)),
        _ => None,
    }
}

/// `±S` with S a recorded `semiLinear` value: (its index, sign).
fn signed_call(m: &FlatModel, calls: &FxHashMap<ExprId, usize>, e: ExprId) -> Option<(usize, i8)> {
    if let Some(&k) = calls.get(&e) {
        return Some((k, 1));
    }
    match m.arena.node(e) {
        Node::Neg(inner) => calls.get(&inner).map(|&k| (k, -1)),
        _ => None,
    }
}

/// Equation `k` as `sign·Y = semiLinear(X, a, b)`, if it has that form.
fn use_of(m: &FlatModel, a: &Aliases, calls: &FxHashMap<ExprId, usize>, k: usize) -> Option<Use> {
    let e = &m.equations[k];
    let ((y, sy), (c, sc)) = match (signed_rep(m, a, e.lhs), signed_call(m, calls, e.rhs)) {
        (Some(y), Some(c)) => (y, c),
        _ => (signed_rep(m, a, e.rhs)?, signed_call(m, calls, e.lhs)?),
    };
    let call = m.semi_linear[c];
    let (x, sx) = signed_rep(m, a, call.x)?;
    // sy·Y = sc·semiLinear(sx·X, a, b); semiLinear(-X, a, b) = -semiLinear(X, b, a).
    let (ca, cb) = if sx < 0 {
        (call.b, call.a)
    } else {
        (call.a, call.b)
    };
    Some(Use {
        eq: k,
        y,
        x,
        sign: sy * sc * sx,
        a: ca,
        b: cb,
    })
}

/// The representative both `p` and `q` stand for with sign +1, if they are variables.
fn same_var(m: &FlatModel, a: &Aliases, p: ExprId, q: ExprId) -> Option<FlatVar> {
    match (signed_rep(m, a, p)?, signed_rep(m, a, q)?) {
        ((u, 1), (v, 1)) if u == v && !a.is_known(u) => match m.arena.node(p) {
            Node::Var(orig) => Some(orig),
            _ => None,
        },
        _ => None,
    }
}

/// Whether the representative's set is bound to a parameter expression whose value is zero.
fn is_zero(m: &FlatModel, a: &Aliases, v: FlatVar) -> bool {
    a.bound[v.index()].is_some_and(|e| alias::param_value(m, e, 0) == Some(0.0))
}

/// `u`: sign·Y = semiLinear(X, sa, s1); `w`: sign·Y = semiLinear(X, s1, sb) become
/// `s1 = if X >= 0 then sa else sb` and sign·Y = semiLinear(X, sa, sb).
fn rule_one(m: &mut FlatModel, u: Use, w: Use, s1: FlatVar) {
    let ar = &mut m.arena;
    let x = ar.var(u.x);
    let zero = ar.constant(0.0);
    let cond = ar.cmp(CmpOp::Ge, x, zero);
    let upstream = ar.if_(cond, u.a, w.b);
    let upstream = ar.no_event(upstream);
    let xa = ar.mul(u.a, x);
    let xb = ar.mul(w.b, x);
    let both = ar.if_(cond, xa, xb);
    let both = ar.no_event(both);
    let y = ar.var(u.y);
    let y = if u.sign < 0 { ar.neg(y) } else { y };
    let s1 = ar.var(s1);
    m.equations[u.eq].lhs = s1;
    m.equations[u.eq].rhs = upstream;
    m.equations[w.eq].lhs = y;
    m.equations[w.eq].rhs = both;
}
