//! Elision of `pre` copies.
//!
//! Every step starts by copying each variable's value into its `pre` slot. When all reads of
//! `pre(v)` happen before `v` is recomputed, and outside any Newton loop that iterates `v`, the
//! read can take `v` itself: its slot still holds the previous step's value there. The copy is
//! then dropped. Forward Euler and mixed mode lose every copy; values iterated inside a loop
//! (backward Euler, trapezoid) keep theirs.

use super::{Plan, Stmt};
use crate::symbolic::ExprId;

type Node = crate::symbolic::Node<Slot>;
use crate::plan::Slot;
use rustc_hash::{FxHashMap, FxHashSet};

/// Expressions read by statement `s`, and the variables it writes.
fn reads_writes(s: &Stmt) -> (Vec<ExprId>, Vec<Slot>) {
    match s {
        Stmt::Assign(a) => (vec![a.expr], vec![a.var]),
        Stmt::Block(b) => {
            let mut r: Vec<ExprId> = b.inner.iter().chain(&b.tangents).map(|a| a.expr).collect();
            r.extend(&b.residuals);
            r.extend(&b.jacobian);
            r.extend(&b.residual_scales);
            let mut w: Vec<Slot> = b.tearing.clone();
            w.extend(b.inner.iter().chain(&b.tangents).map(|a| a.var));
            (r, w)
        }
    }
}

/// The step's statements with every pre slot in `elidable` read as its variable.
fn substituted(
    plan: &mut Plan,
    elidable: &FxHashSet<Slot>,
    pre_of: &FxHashMap<Slot, Slot>,
) -> Vec<Stmt> {
    let mut cache = FxHashMap::default();
    let mut sub = |plan: &mut Plan, e: ExprId| -> ExprId {
        plan.arena.substitute(e, &mut cache, &mut |ar, n| match n {
            Node::Var(p) if elidable.contains(&p) => Some(ar.var(pre_of[&p])),
            _ => None,
        })
    };
    let mut step = plan.step.clone();
    for s in &mut step {
        match s {
            Stmt::Assign(a) => a.expr = sub(plan, a.expr),
            Stmt::Block(b) => {
                for a in b.inner.iter_mut().chain(b.tangents.iter_mut()) {
                    a.expr = sub(plan, a.expr);
                }
                for e in b
                    .residuals
                    .iter_mut()
                    .chain(b.jacobian.iter_mut())
                    .chain(b.residual_scales.iter_mut())
                {
                    *e = sub(plan, *e);
                }
            }
        }
    }
    step
}

/// The variables `v` (written by statement `writes[v]`) of which some expression node is
/// evaluated at or before that statement (reading the old `v`) and read again after it: code
/// generation would reuse the stale value.
fn stale_reuse(
    arena: &crate::symbolic::Arena<Slot>,
    step: &[Stmt],
    writes: &FxHashMap<Slot, usize>,
) -> FxHashSet<Slot> {
    let mut span: FxHashMap<ExprId, (usize, usize)> = FxHashMap::default();
    for (i, s) in step.iter().enumerate() {
        let (reads, _) = reads_writes(s);
        let mut seen: FxHashSet<ExprId> = FxHashSet::default();
        let mut stack = reads;
        while let Some(id) = stack.pop() {
            if !seen.insert(id) {
                continue;
            }
            span.entry(id).and_modify(|e| e.1 = i).or_insert((i, i));
            stack.extend(arena.children(id));
        }
    }
    let mut stale = FxHashSet::default();
    let mut leaves = Vec::new();
    for (&id, &(first, last)) in &span {
        if first == last || matches!(arena.node(id), Node::Var(_)) {
            continue;
        }
        leaves.clear();
        arena.leaves(id, &mut leaves);
        for l in &leaves {
            if let Node::Var(v) = l {
                if writes.get(v).is_some_and(|&w| first <= w && w < last) {
                    stale.insert(*v);
                }
            }
        }
    }
    stale
}

pub fn elide(plan: &mut Plan) {
    let pre_of: FxHashMap<Slot, Slot> = plan.pre_copies.iter().map(|&(p, v)| (p, v)).collect();
    // Where each variable is written, and the last statement reading each pre variable.
    let mut written_at: FxHashMap<Slot, (usize, bool)> = FxHashMap::default();
    let mut last_read: FxHashMap<Slot, (usize, bool)> = FxHashMap::default();
    for (i, s) in plan.step.iter().enumerate() {
        let (reads, writes) = reads_writes(s);
        let in_block = matches!(s, Stmt::Block(_));
        for w in writes {
            written_at.entry(w).or_insert((i, in_block));
        }
        let mut leaves = Vec::new();
        for e in reads {
            plan.arena.leaves(e, &mut leaves);
        }
        for l in leaves {
            if let Node::Var(p) = l {
                if pre_of.contains_key(&p) {
                    last_read.insert(p, (i, in_block));
                }
            }
        }
    }
    let mut elidable: FxHashSet<Slot> = FxHashSet::default();
    // Sources of other copies (a multistep history: pre(pre(x)) copies from pre(x)).
    let sources: FxHashSet<Slot> = plan.pre_copies.iter().map(|&(_, v)| v).collect();
    for (&p, &v) in &pre_of {
        // A history chain keeps its copies: the source is a pre slot, or this slot is one.
        if pre_of.contains_key(&v) || sources.contains(&p) {
            continue;
        }
        let ok = match (last_read.get(&p), written_at.get(&v)) {
            (None, _) => true,
            (Some(_), None) => true,
            // Read strictly before the write, or by the plain assignment that writes it.
            (Some(&(r, rb)), Some(&(w, wb))) => r < w || (r == w && !rb && !wb),
        };
        if ok {
            elidable.insert(p);
        }
    }
    // Substituting pre(v) → v can make an expression read before v's write identical (one
    // node of the hash-consed arena) to one read after it — `u − R·i` in a torn backward
    // Euler formula and in the equation that uses the new `i` — and code generation computes
    // a node once per step: the later read would get the value with the old `v`. Such `v`
    // keep their copies; the others are substituted.
    let step = loop {
        if elidable.is_empty() {
            return;
        }
        let step = substituted(plan, &elidable, &pre_of);
        let writes: FxHashMap<Slot, usize> = elidable
            .iter()
            .filter_map(|p| written_at.get(&pre_of[p]).map(|&(w, _)| (pre_of[p], w)))
            .collect();
        let stale = stale_reuse(&plan.arena, &step, &writes);
        if stale.is_empty() {
            break step;
        }
        elidable.retain(|p| !stale.contains(&pre_of[p]));
    };
    plan.step = step;
    let mut carried: Vec<Slot> = elidable
        .iter()
        .filter(|p| last_read.contains_key(p))
        .map(|p| pre_of[p])
        .collect();
    carried.sort();
    plan.carried = carried;
    plan.pre_copies.retain(|(p, _)| !elidable.contains(p));
}
