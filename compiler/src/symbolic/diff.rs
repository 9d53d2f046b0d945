//! Symbolic differentiation and solving of equations linear in a variable.
//!
//! `diff(e, v)` is the partial derivative of `e` with respect to the variable `v`, other
//! variables held fixed, built in the same arena (so shared subexpressions stay shared).
//! Every built-in has a rule; `if`-expressions are differentiated branch-wise, which is the
//! derivative almost everywhere (events make the branch fixed within a step); relations,
//! `sign`, `floor`, `ceil` and `div` have derivative zero.
//!
//! `linear(e, v)` splits `e = a·v + b` with `a`, `b` free of `v` when `e` is linear in `v`;
//! solving `lhs = rhs` for `v` is then `v = −b/a` (Cellier & Kofman §10.6: equations solved
//! symbolically for their matched variable).

#[cfg(test)]
use super::VarId;
use super::{Arena, CmpOp, ExprId, Func1, Func2, Node, Var};
use rustc_hash::FxHashMap;

/// Memoised differentiation with respect to one variable, or along time.
pub struct Differentiator<V: Var = super::VarId> {
    wrt: Wrt<V>,
    cache: FxHashMap<ExprId, ExprId>,
}

/// What a [`Differentiator`] differentiates by.
enum Wrt<V: Var> {
    /// ∂/∂v, every other variable held fixed.
    Var(V),
    /// d/dt: each variable's time derivative as given (absent: zero, for parameters and
    /// variables constant between events), `time` with derivative one.
    Time(FxHashMap<V, ExprId>),
    /// In a function body, along the direction `rates[i]` of argument `i` (forward mode).
    Args(Vec<ExprId>),
}

impl<V: Var> Differentiator<V> {
    pub fn new(wrt: V) -> Differentiator<V> {
        Differentiator {
            wrt: Wrt::Var(wrt),
            cache: FxHashMap::default(),
        }
    }

    /// The total time derivative, with `rates[v]` the time derivative of variable `v` (index
    /// reduction differentiates equations along the solution this way). `pre(v)` and `der(v)`
    /// leaves have derivative zero: callers replace `der` by variables first.
    pub fn along_time(rates: FxHashMap<V, ExprId>) -> Differentiator<V> {
        Differentiator {
            wrt: Wrt::Time(rates),
            cache: FxHashMap::default(),
        }
    }

    /// The directional derivative of a function body: argument `i` moves at `rates[i]`.
    pub fn along_args(rates: Vec<ExprId>) -> Differentiator<V> {
        Differentiator {
            wrt: Wrt::Args(rates),
            cache: FxHashMap::default(),
        }
    }

    /// ∂e/∂wrt. Iterative over the DAG, so deep expressions cannot overflow the stack.
    pub fn diff(&mut self, ar: &mut Arena<V>, root: ExprId) -> ExprId {
        if let Some(&d) = self.cache.get(&root) {
            return d;
        }
        let order = ar.post_order(root, |id| self.cache.contains_key(&id));
        for id in order {
            let d = self.rule(ar, id);
            self.cache.insert(id, d);
        }
        self.cache[&root]
    }

    fn d(&self, x: ExprId) -> ExprId {
        self.cache[&x]
    }

    fn rule(&mut self, ar: &mut Arena<V>, id: ExprId) -> ExprId {
        let zero = ar.constant(0.0);
        match ar.node(id) {
            Node::Const(_) | Node::Pre(_) | Node::Der(_) => zero,
            Node::Time => match self.wrt {
                Wrt::Var(_) | Wrt::Args(_) => zero,
                Wrt::Time(_) => ar.constant(1.0),
            },
            Node::Var(v) => match &self.wrt {
                Wrt::Var(w) if *w == v => ar.constant(1.0),
                Wrt::Var(_) | Wrt::Args(_) => zero,
                Wrt::Time(rates) => rates.get(&v).copied().unwrap_or(zero),
            },
            Node::Arg(i) => match &self.wrt {
                Wrt::Args(rates) => rates.get(i as usize).copied().unwrap_or(zero),
                _ => zero,
            },
            Node::Call(c) => {
                let dargs: Vec<ExprId> = ar.children(id).map(|a| self.d(a)).collect();
                ar.call_derivative(c, &dargs)
            }
            Node::Neg(a) => ar.neg(self.d(a)),
            Node::Add(a, b) => ar.add(self.d(a), self.d(b)),
            Node::Sub(a, b) => ar.sub(self.d(a), self.d(b)),
            Node::Mul(a, b) => {
                let (da, db) = (self.d(a), self.d(b));
                let t1 = ar.mul(da, b);
                let t2 = ar.mul(a, db);
                ar.add(t1, t2)
            }
            Node::Div(a, b) => {
                // (a/b)' = (a' − (a/b)·b')/b: the quotient itself rather than a·b'/b², whose
                // b² overflows where a/b is finite (a logistic 1/(1 + exp(−p·x)) far on its
                // flat side: exp(500)² is infinite, and the derivative NaN).
                let (da, db) = (self.d(a), self.d(b));
                if ar.as_const(db) == Some(0.0) {
                    return ar.div(da, b);
                }
                let t = ar.mul(id, db);
                let num = ar.sub(da, t);
                ar.div(num, b)
            }
            Node::Pow(a, b) => {
                let (da, db) = (self.d(a), self.d(b));
                let mut out = zero;
                if ar.as_const(da) != Some(0.0) {
                    // b·a^(b−1)·a'
                    let one = ar.constant(1.0);
                    let bm1 = ar.sub(b, one);
                    let p = ar.pow(a, bm1);
                    let t = ar.mul(b, p);
                    out = ar.mul(t, da);
                    // a^b with 0 < b < 1 has an infinite slope at a = 0.
                    if ar.as_const(b).is_some_and(|x| x > 0.0 && x < 1.0) {
                        out = zero_where_flat(ar, da, out);
                    }
                }
                if ar.as_const(db) != Some(0.0) {
                    // a^b·ln(a)·b'
                    let ln = ar.call1(Func1::Log, a);
                    let t = ar.mul(id, ln);
                    let t = ar.mul(t, db);
                    out = ar.add(out, t);
                }
                out
            }
            Node::Call1(f, a) => {
                let da = self.d(a);
                if ar.as_const(da) == Some(0.0) {
                    return zero;
                }
                let g = match f {
                    Func1::Sin => ar.call1(Func1::Cos, a),
                    Func1::Cos => {
                        let s = ar.call1(Func1::Sin, a);
                        ar.neg(s)
                    }
                    Func1::Tan => {
                        // 1 + tan²
                        let one = ar.constant(1.0);
                        let t2 = ar.mul(id, id);
                        ar.add(one, t2)
                    }
                    Func1::Asin | Func1::Acos => {
                        let one = ar.constant(1.0);
                        let a2 = ar.mul(a, a);
                        let r = ar.sub(one, a2);
                        let s = ar.call1(Func1::Sqrt, r);
                        let q = ar.div(one, s);
                        if f == Func1::Acos {
                            ar.neg(q)
                        } else {
                            q
                        }
                    }
                    Func1::Atan => {
                        let one = ar.constant(1.0);
                        let a2 = ar.mul(a, a);
                        let r = ar.add(one, a2);
                        ar.div(one, r)
                    }
                    Func1::Sinh => ar.call1(Func1::Cosh, a),
                    Func1::Cosh => ar.call1(Func1::Sinh, a),
                    Func1::Tanh => {
                        let one = ar.constant(1.0);
                        let t2 = ar.mul(id, id);
                        ar.sub(one, t2)
                    }
                    Func1::Exp => id,
                    Func1::Log => {
                        let one = ar.constant(1.0);
                        ar.div(one, a)
                    }
                    Func1::Log10 => {
                        let ln10 = ar.constant(std::f64::consts::LN_10);
                        let d = ar.mul(a, ln10);
                        let one = ar.constant(1.0);
                        ar.div(one, d)
                    }
                    Func1::Sqrt => {
                        let two = ar.constant(2.0);
                        let d = ar.mul(two, id);
                        let one = ar.constant(1.0);
                        ar.div(one, d)
                    }
                    Func1::Abs => ar.call1(Func1::Sign, a),
                    Func1::Sign | Func1::Floor | Func1::Ceil => return zero,
                    // An external function has no symbolic derivative: a central difference
                    // with a step relative to the argument (Newton needs an approximate
                    // Jacobian only; the residual it drives to zero is exact).
                    Func1::Ext(_) => central_difference(ar, a, &mut |ar, x| ar.call1(f, x)),
                };
                let d = ar.mul(g, da);
                if f == Func1::Sqrt {
                    return zero_where_flat(ar, da, d);
                }
                d
            }
            Node::Call2(f, a, b) => {
                let (da, db) = (self.d(a), self.d(b));
                match f {
                    Func2::Atan2 => {
                        // atan2(y, x)' = (x·y' − y·x')/(x² + y²)
                        let t1 = ar.mul(b, da);
                        let t2 = ar.mul(a, db);
                        let num = ar.sub(t1, t2);
                        let a2 = ar.mul(a, a);
                        let b2 = ar.mul(b, b);
                        let den = ar.add(a2, b2);
                        ar.div(num, den)
                    }
                    Func2::Min | Func2::Max => {
                        let op = if f == Func2::Min {
                            CmpOp::Lt
                        } else {
                            CmpOp::Gt
                        };
                        let c = ar.cmp(op, a, b);
                        ar.if_(c, da, db)
                    }
                    Func2::Div => zero,
                    Func2::Ext(_) => {
                        // Central differences in each argument (see Func1::Ext).
                        let fa = central_difference(ar, a, &mut |ar, x| ar.call2(f, x, b));
                        let fb = central_difference(ar, b, &mut |ar, y| ar.call2(f, a, y));
                        let ta = ar.mul(fa, da);
                        let tb = ar.mul(fb, db);
                        ar.add(ta, tb)
                    }
                    Func2::Mod | Func2::Rem => {
                        // x − k(x, y)·y with k piecewise constant
                        let q = ar.div(a, b);
                        let k = if f == Func2::Mod {
                            ar.call1(Func1::Floor, q)
                        } else {
                            ar.call2(Func2::Div, a, b)
                        };
                        let t = ar.mul(k, db);
                        ar.sub(da, t)
                    }
                }
            }
            Node::Cmp(..) | Node::And(..) | Node::Or(..) | Node::Not(_) => zero,
            Node::If(c, t, e) => {
                let (dt, de) = (self.d(t), self.d(e));
                ar.if_(c, dt, de)
            }
            Node::NoEvent(a) => {
                let da = self.d(a);
                ar.no_event(da)
            }
        }
    }
}

/// (g(a + s) − g(a − s)) / 2s with the step of [`fd_step`].
fn central_difference<V: Var>(
    ar: &mut Arena<V>,
    a: ExprId,
    g: &mut dyn FnMut(&mut Arena<V>, ExprId) -> ExprId,
) -> ExprId {
    let s = fd_step(ar, a);
    let ap = ar.add(a, s);
    let am = ar.sub(a, s);
    let gp = g(ar, ap);
    let gm = g(ar, am);
    let num = ar.sub(gp, gm);
    let two = ar.constant(2.0);
    let den = ar.mul(two, s);
    ar.div(num, den)
}

/// The difference step for an external function's derivative at `a`: 1e-7·max(|a|, 1)
/// (about the square root of the rounding unit for a central difference's balance of
/// truncation and rounding errors at double precision, relative to the argument).
fn fd_step<V: Var>(ar: &mut Arena<V>, a: ExprId) -> ExprId {
    let abs = ar.call1(Func1::Abs, a);
    let one = ar.constant(1.0);
    let m = ar.call2(Func2::Max, abs, one);
    let eps = ar.constant(1e-7);
    ar.mul(eps, m)
}

/// ∂e/∂v (convenience for one-off use).
pub fn diff<V: Var>(ar: &mut Arena<V>, e: ExprId, v: V) -> ExprId {
    Differentiator::new(v).diff(ar, e)
}

/// Whether variable `v` occurs in `e`.
pub fn occurs<V: Var>(ar: &Arena<V>, e: ExprId, v: V) -> bool {
    ar.find_leaf(e, |n| n == Node::Var(v)).is_some()
}

/// `e = a·v + b` with `a`, `b` free of `v`, if `e` is linear in `v`.
pub fn linear<V: Var>(ar: &mut Arena<V>, e: ExprId, v: V) -> Option<(ExprId, ExprId)> {
    let mut memo: FxHashMap<ExprId, Option<(ExprId, ExprId)>> = FxHashMap::default();
    linear_rec(ar, e, v, &mut memo, 0)
}

fn linear_rec<V: Var>(
    ar: &mut Arena<V>,
    e: ExprId,
    v: V,
    memo: &mut FxHashMap<ExprId, Option<(ExprId, ExprId)>>,
    depth: u32,
) -> Option<(ExprId, ExprId)> {
    if let Some(r) = memo.get(&e) {
        return *r;
    }
    if depth > 10_000 {
        return None;
    }
    let zero = ar.constant(0.0);
    let r = if !occurs(ar, e, v) {
        Some((zero, e))
    } else {
        match ar.node(e) {
            Node::Var(w) if w == v => Some((ar.constant(1.0), zero)),
            Node::Neg(a) => {
                linear_rec(ar, a, v, memo, depth + 1).map(|(p, q)| (ar.neg(p), ar.neg(q)))
            }
            Node::Add(a, b) | Node::Sub(a, b) => {
                let is_add = matches!(ar.node(e), Node::Add(..));
                let la = linear_rec(ar, a, v, memo, depth + 1);
                let lb = linear_rec(ar, b, v, memo, depth + 1);
                match (la, lb) {
                    (Some((pa, qa)), Some((pb, qb))) => Some(if is_add {
                        (ar.add(pa, pb), ar.add(qa, qb))
                    } else {
                        (ar.sub(pa, pb), ar.sub(qa, qb))
                    }),
                    _ => None,
                }
            }
            Node::Mul(a, b) => {
                if !occurs(ar, a, v) {
                    linear_rec(ar, b, v, memo, depth + 1).map(|(p, q)| (ar.mul(a, p), ar.mul(a, q)))
                } else if !occurs(ar, b, v) {
                    linear_rec(ar, a, v, memo, depth + 1).map(|(p, q)| (ar.mul(p, b), ar.mul(q, b)))
                } else {
                    None
                }
            }
            Node::Div(a, b) if !occurs(ar, b, v) => {
                linear_rec(ar, a, v, memo, depth + 1).map(|(p, q)| (ar.div(p, b), ar.div(q, b)))
            }
            _ => None,
        }
    };
    memo.insert(e, r);
    r
}

/// `d` (a chain rule's f'(u)·u') where u' ≠ 0, else 0: where the argument does not move, a
/// function with an infinite slope there (√u, u^b with 0 < b < 1, at u = 0) does not move
/// either, and ∞·0 must not make the Jacobian NaN (`sqrt(max(0, x))` at x ≤ 0: a tank that
/// has run empty, Torricelli's outflow). Folds to `d` when u' is a nonzero constant.
fn zero_where_flat<V: Var>(ar: &mut Arena<V>, du: ExprId, d: ExprId) -> ExprId {
    let zero = ar.constant(0.0);
    let flat = ar.cmp(CmpOp::Eq, du, zero);
    let e = ar.if_(flat, zero, d);
    ar.no_event(e)
}

/// Solves `lhs = rhs` for `v` when the equation is linear in `v` with a coefficient that is not
/// identically zero: `v = −b/a`.
pub fn solve_linear<V: Var>(ar: &mut Arena<V>, lhs: ExprId, rhs: ExprId, v: V) -> Option<ExprId> {
    let r = ar.sub(lhs, rhs);
    let (a, b) = linear(ar, r, v)?;
    if ar.as_const(a) == Some(0.0) {
        return None;
    }
    let nb = ar.neg(b);
    Some(ar.div(nb, a))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Evaluates an expression with `x` bound to `at` (and `y` to 0.7).
    fn eval(ar: &Arena, e: ExprId, x: VarId, at: f64) -> f64 {
        crate::symbolic::eval::eval(ar, e, &mut |v| if v == x { at } else { 0.7 }, 0.0)
    }

    fn check(build: impl Fn(&mut Arena, ExprId, ExprId) -> ExprId, points: &[f64]) {
        let mut ar = Arena::new();
        let x = VarId(0);
        let y = VarId(1);
        let xe = ar.var(x);
        let ye = ar.var(y);
        let e = build(&mut ar, xe, ye);
        let d = diff(&mut ar, e, x);
        for &p in points {
            let h = 1e-6 * p.abs().max(1.0);
            let fd = (eval(&ar, e, x, p + h) - eval(&ar, e, x, p - h)) / (2.0 * h);
            let sd = eval(&ar, d, x, p);
            let tol = 1e-6 * fd.abs().max(1.0);
            assert!(
                (fd - sd).abs() <= tol,
                "at {p}: finite difference {fd}, symbolic {sd}"
            );
        }
    }

    /// Where the argument of √ or u^0.5 does not move (`max(0, x)` at x < 0: a tank run
    /// empty), the derivative is 0, not ∞·0 = NaN; where it moves, the chain rule as before.
    #[test]
    fn flat_arguments_of_infinite_slopes_give_zero() {
        let mut ar = Arena::new();
        let x = VarId(0);
        let xe = ar.var(x);
        let zero = ar.constant(0.0);
        let m = ar.call2(Func2::Max, zero, xe);
        let s = ar.call1(Func1::Sqrt, m);
        let half = ar.constant(0.5);
        let p = ar.pow(m, half);
        for e in [s, p] {
            let d = diff(&mut ar, e, x);
            assert_eq!(eval(&ar, d, x, -1.0), 0.0);
            assert_eq!(eval(&ar, d, x, 0.25), 1.0);
        }
    }

    #[test]
    fn derivatives_match_finite_differences() {
        let pts = [0.3, 0.9, 1.7, -0.4];
        for f in Func1::ALL {
            if matches!(f, Func1::Sign | Func1::Floor | Func1::Ceil) {
                continue;
            }
            let points: Vec<f64> = match f {
                Func1::Log | Func1::Log10 | Func1::Sqrt => vec![0.3, 0.9, 1.7],
                Func1::Asin | Func1::Acos => vec![0.3, -0.4, 0.6],
                _ => pts.to_vec(),
            };
            check(
                |ar, x, y| {
                    let xy = ar.mul(x, y);
                    let s = ar.add(xy, x);
                    ar.call1(f, s)
                },
                &points.iter().map(|p| p / 1.7).collect::<Vec<_>>(),
            );
        }
        for f in [Func2::Atan2, Func2::Min, Func2::Max] {
            check(|ar, x, y| ar.call2(f, x, y), &[0.3, 0.9, -0.5]);
            check(|ar, x, y| ar.call2(f, y, x), &[0.3, 0.9, -0.5]);
        }
        check(|ar, x, y| ar.div(y, x), &pts);
        check(
            |ar, x, y| {
                let p = ar.pow(x, y);
                ar.mul(p, x)
            },
            &[0.3, 0.9, 1.7],
        );
        check(
            |ar, x, _| {
                let c = ar.constant(3.0);
                ar.pow(x, c)
            },
            &pts,
        );
        check(|ar, x, y| ar.pow(y, x), &pts);
        check(
            |ar, x, y| {
                let c = ar.cmp(CmpOp::Gt, x, y);
                let a = ar.mul(x, x);
                let s = ar.call1(Func1::Sin, x);
                ar.if_(c, a, s)
            },
            &[0.3, 1.7, -0.4],
        );
        check(
            |ar, x, y| {
                let a = ar.call1(Func1::Abs, x);
                let s = ar.call1(Func1::Sqrt, a);
                let m = ar.call2(Func2::Mod, x, y);
                ar.add(s, m)
            },
            &[0.3, 0.9, -0.5],
        );
    }

    #[test]
    fn linear_solve() {
        let mut ar = Arena::new();
        let x = VarId(0);
        let y = VarId(1);
        let xe = ar.var(x);
        let ye = ar.var(y);
        // 3*x + y = 2*y - x  →  x = y/4
        let three = ar.constant(3.0);
        let two = ar.constant(2.0);
        let l1 = ar.mul(three, xe);
        let lhs = ar.add(l1, ye);
        let r1 = ar.mul(two, ye);
        let rhs = ar.sub(r1, xe);
        let sol = solve_linear(&mut ar, lhs, rhs, x).expect("linear");
        assert!((eval(&ar, sol, x, 0.0) - 0.7 / 4.0).abs() < 1e-15);
        // x^3 = y is not linear in x.
        let c3 = ar.constant(3.0);
        let cube = ar.pow(xe, c3);
        assert!(solve_linear(&mut ar, cube, ye, x).is_none());
        // x*y = 1 is linear in x with coefficient y (may vanish at run time: non-finite check).
        let one = ar.constant(1.0);
        let xy = ar.mul(xe, ye);
        assert!(solve_linear(&mut ar, xy, one, x).is_some());
        // x - x = y has a zero coefficient.
        let z = ar.sub(xe, xe);
        assert!(solve_linear(&mut ar, z, ye, x).is_none() || ar.as_const(z) == Some(0.0));
    }

    /// A quotient whose denominator's square overflows where the quotient does not:
    /// d/dx (x/exp(x)) = (1 − x)·exp(−x), at x = 400 about −2e-172. With a·b'/b² the term
    /// x·exp(x)/exp(x)² is x·5e173/∞ = 0 and the derivative came out as exp(−400), of the
    /// wrong sign and 400 times too large (and NaN where b' overflows too).
    #[test]
    fn quotient_rule_does_not_square_the_denominator() {
        let mut ar = Arena::new();
        let x = VarId(0);
        let xe = ar.var(x);
        let ex = ar.call1(Func1::Exp, xe);
        let q = ar.div(xe, ex);
        let d = diff(&mut ar, q, x);
        for at in [0.5f64, 400.0] {
            let exact = (1.0 - at) * (-at).exp();
            let got = eval(&ar, d, x, at);
            assert!(
                (got - exact).abs() <= 1e-12 * exact.abs(),
                "at {at}: {got} against {exact}"
            );
        }
    }
}
