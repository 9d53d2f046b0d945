//! Sliding on a switch: the step system of a loop whose equations switch without an event
//! (a `noEvent` if-expression, or an `if` inside a function, which generates none:
//! specification 8.5 and 12.7) may have no solution on either side of the switch.
//!
//! The MSL's `OpAmpDetailed` is the case: its gain stage's limiter
//! `if q_sum > vmax and q_fp1 >= vmax then vmax else q_sum` feeds the first-order lag
//! `der(q_fp1) = 2π·fp1·(limited − q_fp1)`. As the output saturates, an implicit step of the
//! lag from below `vmax` has the solution `(q0 + a·q_sum)/(1 + a) > vmax` on the side where
//! the limiter is off, which is not on that side, and `(q0 + a·vmax)/(1 + a) < vmax` on the
//! side where it is on, not on that side either: the state slides along `q_fp1 = vmax`, where
//! the right-hand side is set-valued (Filippov's solution of a discontinuous differential
//! equation; Cellier & Kofman §9.5 discuss such switches as the discontinuity handling the
//! fixed-step solver must replace, and §10.7 the inline integration of switching models).
//! Newton fails there, whatever its start.
//!
//! Where a block's damped retry fails, it is retried once more with each such switch made
//! continuous over a band of relative width [`WIDTH`] about its threshold: a relation
//! `a > b` becomes the weight θ = clamp(½ + (a − b)/(WIDTH·(|a| + |b|)), 0, 1), `and`/`or`/
//! `not` of relations the minimum, maximum and complement of their weights, and the
//! if-expression the blend `else + θ·(then − else)` inside the band (each branch as it is
//! outside it). The regularised step system has its solution inside the band, the switched
//! variable within `WIDTH/2` of its threshold relative to the relation's operands: the
//! Filippov solution to that accuracy. The band is active only while the slot
//! [`super::Slide::width`] holds `WIDTH` (the retry sets it and clears it after), so a step
//! that converges without it computes exactly what it did before. Every solve that slid is
//! counted in [`super::Slide::count`] and the run warns of it.

use super::{Plan, PlanVar, Slot, SlotKind};
use crate::symbolic::{CmpOp, ExprId, Func1, Func2};
use rustc_hash::{FxHashMap, FxHashSet};

type Node = crate::symbolic::Node<Slot>;

/// The band's width relative to the magnitudes of a relation's operands: 1e-4, so that a
/// limited output of 15 V slides within 0.75 mV of its limit, far below any tolerance of a
/// fixed-step run (the tightest is 0.1 %), and wide enough for the damped Newton iteration
/// to land in it (at 1e-6 it overshoots the band from both sides: the MSL's
/// `AmplifierWithOpAmpDetailed` does not get through).
pub const WIDTH: f64 = 1e-4;

/// The block's expressions with their switches regularised (`exprs` rewritten in place), and
/// the switches' band arguments (`q` of [`Rewrite::weight`], in the band where |q| < ½); `None`
/// where none of them switches on the block's own unknowns (`iteration`).
pub(super) fn regularise(
    plan: &mut Plan,
    iteration: &FxHashSet<Slot>,
    exprs: &mut [ExprId],
) -> Option<Vec<ExprId>> {
    let mut r = Rewrite {
        iteration,
        memo: FxHashMap::default(),
        width: None,
        arguments: Vec::new(),
    };
    let new: Vec<ExprId> = exprs.iter().map(|&e| r.expr(plan, e)).collect();
    r.width?;
    exprs.copy_from_slice(&new);
    Some(r.arguments)
}

/// Where a sliding retry's trial step crossed a switch's band whole (its argument `q` from
/// beyond one edge, ±½, to beyond the other): the factor of the step at which `q`, linear in
/// it, is zero — the smallest over the switches crossed; `None` where none was. Newton's step
/// from one side of a narrow band lands beyond its other side, where the residual's slope is
/// the other branch's, and the halving seldom lands inside it; cut to the crossing, it does.
pub fn crossing(before: &[f64], after: &[f64]) -> Option<f64> {
    let mut cut = 1.0f64;
    let mut any = false;
    for (&a, &b) in before.iter().zip(after) {
        let crossed = (a < -0.5 && b > 0.5) || (a > 0.5 && b < -0.5);
        let c = a / (a - b);
        if crossed && c < cut {
            cut = c;
        }
        any |= crossed;
    }
    any.then_some(cut)
}

struct Rewrite<'a> {
    iteration: &'a FxHashSet<Slot>,
    memo: FxHashMap<ExprId, ExprId>,
    /// `Var(width slot)`, once a switch was found.
    width: Option<ExprId>,
    /// The band arguments of the switches' relations, each once.
    arguments: Vec<ExprId>,
}

impl Rewrite<'_> {
    fn expr(&mut self, plan: &mut Plan, e: ExprId) -> ExprId {
        if let Some(&x) = self.memo.get(&e) {
            return x;
        }
        let node = plan.arena.node(e);
        let children: Vec<ExprId> = plan.arena.children(e).collect();
        let new_children: Vec<ExprId> = children.iter().map(|&c| self.expr(plan, c)).collect();
        let out = match node {
            Node::If(c, _, _) if self.switches(plan, c) => {
                let (t, f) = (new_children[1], new_children[2]);
                let width = self.width(plan);
                let theta = self.weight(plan, c, width);
                let crisp = plan.arena.if_(c, t, f);
                // Inside the band (0 < θ < 1, the band active): the blend.
                let zero = plan.arena.constant(0.0);
                let one = plan.arena.constant(1.0);
                let on = plan.arena.cmp(CmpOp::Gt, width, zero);
                let above = plan.arena.cmp(CmpOp::Gt, theta, zero);
                let below = plan.arena.cmp(CmpOp::Lt, theta, one);
                let inside = plan.arena.and(above, below);
                let inside = plan.arena.and(on, inside);
                let jump = plan.arena.sub(t, f);
                let part = plan.arena.mul(theta, jump);
                let blend = plan.arena.add(f, part);
                let sel = plan.arena.if_(inside, blend, crisp);
                plan.arena.no_event(sel)
            }
            _ if new_children == children => e,
            n => crate::symbolic::rebuild(&mut plan.arena, n, &new_children),
        };
        self.memo.insert(e, out);
        out
    }

    /// The slot holding the band's width (0: inactive), made on first use.
    fn width(&mut self, plan: &mut Plan) -> ExprId {
        if let Some(w) = self.width {
            return w;
        }
        let slide = match plan.slide {
            Some(s) => s,
            None => {
                let mut slot = |name: &str| {
                    let s = Slot::new(plan.vars.len());
                    plan.vars.push(PlanVar {
                        name: name.into(),
                        kind: SlotKind::Slide,
                        binding: None,
                        span: crate::diag::Span::default(),
                        constant: false,
                        admissible: rtc_runtime::door::Admissible::ANY,
                    });
                    s
                };
                let s = super::Slide {
                    width: slot("$slide.width"),
                    count: slot("$slide.count"),
                };
                plan.slide = Some(s);
                s
            }
        };
        let w = plan.arena.var(slide.width);
        self.width = Some(w);
        w
    }

    /// Whether condition `c` holds an ordering relation on the block's unknowns.
    fn switches(&self, plan: &Plan, c: ExprId) -> bool {
        match plan.arena.node(c) {
            Node::Cmp(CmpOp::Lt | CmpOp::Le | CmpOp::Gt | CmpOp::Ge, a, b) => {
                self.reads_iteration(plan, a) || self.reads_iteration(plan, b)
            }
            Node::And(a, b) | Node::Or(a, b) => self.switches(plan, a) || self.switches(plan, b),
            Node::Not(a) | Node::NoEvent(a) => self.switches(plan, a),
            _ => false,
        }
    }

    fn reads_iteration(&self, plan: &Plan, e: ExprId) -> bool {
        let mut leaves = Vec::new();
        plan.arena.leaves(e, &mut leaves);
        leaves
            .iter()
            .any(|l| matches!(l, Node::Var(v) if self.iteration.contains(v)))
    }

    /// The weight of condition `c` in [0, 1]: 1 where it holds beyond the band, 0 where it
    /// fails beyond it.
    fn weight(&mut self, plan: &mut Plan, c: ExprId, width: ExprId) -> ExprId {
        match plan.arena.node(c) {
            Node::Cmp(op @ (CmpOp::Lt | CmpOp::Le | CmpOp::Gt | CmpOp::Ge), a, b)
                if self.switches(plan, c) =>
            {
                let ar = &mut plan.arena;
                let d = match op {
                    CmpOp::Gt | CmpOp::Ge => ar.sub(a, b),
                    _ => ar.sub(b, a),
                };
                let aa = ar.call1(Func1::Abs, a);
                let ba = ar.call1(Func1::Abs, b);
                let size = ar.add(aa, ba);
                let band = ar.mul(width, size);
                // A floor so that two zero operands weigh ½, not 0/0.
                let floor = ar.constant(f64::MIN_POSITIVE);
                let band = ar.add(band, floor);
                let half = ar.constant(0.5);
                let q = ar.div(d, band);
                if !self.arguments.contains(&q) {
                    self.arguments.push(q);
                }
                let ar = &mut plan.arena;
                let x = ar.add(half, q);
                let zero = ar.constant(0.0);
                let one = ar.constant(1.0);
                let lo = ar.call2(Func2::Max, x, zero);
                ar.call2(Func2::Min, lo, one)
            }
            Node::And(a, b) => {
                let (x, y) = (self.weight(plan, a, width), self.weight(plan, b, width));
                plan.arena.call2(Func2::Min, x, y)
            }
            Node::Or(a, b) => {
                let (x, y) = (self.weight(plan, a, width), self.weight(plan, b, width));
                plan.arena.call2(Func2::Max, x, y)
            }
            Node::Not(a) => {
                let x = self.weight(plan, a, width);
                let one = plan.arena.constant(1.0);
                plan.arena.sub(one, x)
            }
            Node::NoEvent(a) => self.weight(plan, a, width),
            _ => {
                let one = plan.arena.constant(1.0);
                let zero = plan.arena.constant(0.0);
                plan.arena.if_(c, one, zero)
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::crossing;

    #[test]
    fn a_step_across_a_band_is_cut_to_its_centre() {
        // From q = −3 to q = 5: zero at 3/8 of the step.
        assert_eq!(crossing(&[-3.0], &[5.0]), Some(0.375));
        // Into the band, or along one side: no cut.
        assert_eq!(crossing(&[-3.0], &[0.2]), None);
        assert_eq!(crossing(&[0.7], &[9.0]), None);
        // The nearest of two crossings; NaN crosses nothing.
        assert_eq!(
            crossing(&[4.0, -1.0, f64::NAN], &[-4.0, 1.0, 3.0]),
            Some(0.5)
        );
        assert_eq!(crossing(&[2.0, -1.0], &[-6.0, 3.0]), Some(0.25));
    }
}
