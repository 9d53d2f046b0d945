//! Hoisting of parameter expressions out of the step.
//!
//! A subexpression of the step that depends on parameters and constants only (`R/L`,
//! `h/(Rl*Cl)` is not one: `h` is an argument) has the same value in every step. Each maximal
//! such subexpression is computed once at start-up into a slot of its own, and the step reads
//! the slot. This is what a hand-written step gets from constant folding; here the parameters
//! stay tunable (a parameter change re-runs the start-up part).

use super::{Assign, Plan, PlanVar, SlotKind, Stmt};
use crate::symbolic::rebuild;
use crate::symbolic::ExprId;

type Node = crate::symbolic::Node<Slot>;
use crate::plan::Slot;
use crate::system::SVarKind;
use rustc_hash::FxHashMap;

struct Hoister {
    parametric: FxHashMap<ExprId, bool>,
    rewritten: FxHashMap<ExprId, ExprId>,
    slots: FxHashMap<ExprId, Slot>,
}

fn is_leaf(n: Node) -> bool {
    matches!(
        n,
        Node::Const(_) | Node::Var(_) | Node::Der(_) | Node::Pre(_) | Node::Time
    )
}

impl Hoister {
    fn parametric_of(&mut self, plan: &Plan, root: ExprId) {
        let ar = &plan.arena;
        for id in ar.post_order(root, |id| self.parametric.contains_key(&id)) {
            let p = match ar.node(id) {
                Node::Const(_) => true,
                Node::Var(v) => plan.vars[v].kind == SlotKind::System(SVarKind::Parameter),
                Node::Der(_) | Node::Pre(_) | Node::Time => false,
                _ => ar.children(id).all(|c| self.parametric[&c]),
            };
            self.parametric.insert(id, p);
        }
    }

    fn slot(&mut self, plan: &mut Plan, e: ExprId) -> ExprId {
        if let Some(&v) = self.slots.get(&e) {
            return plan.arena.var(v);
        }
        let v = Slot::new(plan.vars.len());
        let mut name = plan.expr_string(e);
        if name.len() > 40 {
            name.truncate(40);
            name.push('…');
        }
        plan.vars.push(PlanVar {
            name: format!("({name})"),
            kind: SlotKind::Hoisted,
            binding: Some(e),
            span: Default::default(),
            constant: false,
            admissible: rtc_runtime::door::Admissible::ANY,
        });
        plan.hoisted.push(v);
        self.slots.insert(e, v);
        plan.arena.var(v)
    }

    fn rewrite(&mut self, plan: &mut Plan, root: ExprId) -> ExprId {
        self.parametric_of(plan, root);
        if self.parametric[&root] {
            return if is_leaf(plan.arena.node(root)) {
                root
            } else {
                self.slot(plan, root)
            };
        }
        let order = plan.arena.post_order(root, |id| {
            self.rewritten.contains_key(&id) || self.parametric[&id]
        });
        for id in order {
            if self.rewritten.contains_key(&id) {
                continue;
            }
            let n = plan.arena.node(id);
            if is_leaf(n) {
                self.rewritten.insert(id, id);
                continue;
            }
            let ch: Vec<ExprId> = plan.arena.children(id).collect();
            let mut new = Vec::with_capacity(ch.len());
            for c in ch {
                let nc = if self.parametric[&c] {
                    if is_leaf(plan.arena.node(c)) {
                        c
                    } else {
                        self.slot(plan, c)
                    }
                } else {
                    self.rewritten[&c]
                };
                new.push(nc);
            }
            let r = rebuild(&mut plan.arena, n, &new);
            self.rewritten.insert(id, r);
        }
        self.rewritten[&root]
    }
}

/// Moves parameter-only subexpressions of the step into start-up slots.
pub fn hoist(plan: &mut Plan) {
    let mut h = Hoister {
        parametric: FxHashMap::default(),
        rewritten: FxHashMap::default(),
        slots: FxHashMap::default(),
    };
    let mut step = std::mem::take(&mut plan.step);
    let mut fix = |plan: &mut Plan, a: &mut Assign| a.expr = h.rewrite(plan, a.expr);
    for s in &mut step {
        match s {
            Stmt::Assign(a) => fix(plan, a),
            Stmt::Block(b) => {
                for a in b.inner.iter_mut().chain(b.tangents.iter_mut()) {
                    fix(plan, a);
                }
                for e in b
                    .residuals
                    .iter_mut()
                    .chain(b.jacobian.iter_mut())
                    .chain(b.residual_scales.iter_mut())
                {
                    let mut a = Assign {
                        var: Slot(0),
                        expr: *e,
                        span: Default::default(),
                    };
                    fix(plan, &mut a);
                    *e = a.expr;
                }
            }
        }
    }
    plan.step = step;
}
