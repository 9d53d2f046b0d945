//! Alias elimination: equations `a = b`, `a = -b` and `a = p` (p a parameter expression).
//!
//! Connections produce many such equations (every connected potential, every two-member flow
//! balance). Variables joined by them form alias sets with a sign relative to a
//! representative; a set bound to a parameter expression is known before simulation. The
//! representative is a state when the set has one, so `der()` of any member becomes `der()`
//! of the representative. An alias equation that would close a cycle is kept as an ordinary
//! equation, so redundant connections still show up as structural singularity.

use crate::flat::{FlatModel, VarKind};
use crate::symbolic::{Arena, ExprId, Node, VarId};

/// The result: for each variable its representative and sign, and which equations remain.
#[derive(Clone, Debug)]
pub struct Aliases {
    /// `rep[v] = (r, s)`: v = s·r.
    pub rep: Vec<(VarId, f64)>,
    /// Sets bound to a parameter expression: representative → (expression for the rep).
    pub bound: Vec<Option<ExprId>>,
    /// Whether the set (by representative) contains a state.
    pub has_state: Vec<bool>,
    /// Indices of the equations that remain after elimination.
    pub kept: Vec<usize>,
    /// Number of equations eliminated.
    pub eliminated: usize,
}

impl Aliases {
    pub fn resolve(&self, v: VarId) -> (VarId, f64) {
        self.rep[v.index()]
    }

    pub fn is_known(&self, v: VarId) -> bool {
        let (r, _) = self.rep[v.index()];
        self.bound[r.index()].is_some()
    }
}

fn is_unknown_kind(k: VarKind) -> bool {
    matches!(k, VarKind::State | VarKind::Algebraic | VarKind::Discrete)
}

/// `Some((v, sign))` if `e` is ±Var(v) of an unknown variable.
fn signed_var(arena: &Arena, model: &FlatModel, e: ExprId) -> Option<(VarId, f64)> {
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
        Node::Var(v) => matches!(model.var(*v).kind, VarKind::Parameter | VarKind::Constant),
        _ => false,
    })
}

/// The alias form of an equation: two signed variables whose weighted sum is zero, or one
/// signed variable equal to a parameter expression.
enum Form {
    /// s1·x1 + s2·x2 = 0
    Pair(VarId, f64, VarId, f64),
    /// s·x = value
    Bound(VarId, f64, ExprId),
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

pub fn eliminate(model: &mut FlatModel) -> Aliases {
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
    // Choose representatives: a state if the set has one, else the root.
    let mut members: Vec<Vec<usize>> = vec![Vec::new(); n];
    let mut rel: Vec<f64> = vec![1.0; n];
    for (v, rel_v) in rel.iter_mut().enumerate() {
        let (r, s) = find(&mut parent, &mut sign, v);
        members[r].push(v);
        *rel_v = s;
    }
    let mut rep = vec![(VarId(0), 1.0); n];
    let mut out_bound = vec![None; n];
    let mut has_state = vec![false; n];
    for r in 0..n {
        if members[r].is_empty() {
            continue;
        }
        let chosen = members[r]
            .iter()
            .copied()
            .find(|&v| model.vars[v].kind == VarKind::State)
            .unwrap_or(r);
        let any_state = members[r]
            .iter()
            .any(|&v| model.vars[v].kind == VarKind::State);
        // v = rel[v]·root, chosen = rel[chosen]·root  →  v = (rel[v]/rel[chosen])·chosen
        for &v in &members[r] {
            rep[v] = (VarId(chosen as u32), rel[v] / rel[chosen]);
        }
        has_state[chosen] = any_state;
        if let Some(b) = bound[r] {
            // root = b  →  chosen = rel[chosen]·b
            let k = model.arena.constant(rel[chosen]);
            out_bound[chosen] = Some(model.arena.mul(k, b));
        }
    }
    Aliases {
        rep,
        bound: out_bound,
        has_state,
        kept,
        eliminated,
    }
}
