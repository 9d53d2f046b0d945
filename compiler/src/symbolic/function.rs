//! Functions compiled out of line (specification ch. 12).
//!
//! Most Modelica function calls are inlined by the flattener (their bodies executed on the
//! caller's symbolic values), which makes every Jacobian exact and lets tearing see through
//! them. A function with loops or a large body, called from many places, would then be
//! copied into the step once per call. Such a function is compiled once instead: the
//! flattener executes its body on placeholder arguments ([`Node::Arg`]) and keeps the
//! outputs as expressions of those placeholders, a [`Function`]. Each call is a
//! [`Node::Call`] naming the function, one output and the argument expressions; the engines
//! (interpreter tapes, generated code) compute all outputs of one call once and read each
//! output from there.
//!
//! A body is straight-line code over scalars: loops were unrolled when it was compiled, within
//! their bounds, so its work is fixed and is counted into the work bound of every call.
//! Bodies call no other compiled function (nested calls are inlined into the body).
//!
//! Derivatives (Cellier & Kofman ch. 10 need the loops' Jacobians): the derivative of a call
//! is a call of a *directional derivative* function, `f'(x, ẋ)` with the arguments followed by
//! their derivatives, whose outputs are the derivatives of `f`'s outputs. It is the function
//! the model's `derivative` annotation names, where that applies (`noDerivative` inputs get no
//! derivative argument; `zeroDerivative` inputs must have derivative zero at the call, else
//! the annotation does not apply), or else the body differentiated symbolically in forward
//! mode ([`Function::dot`], made once and shared).
//!
//! A derivative function may itself name its derivative with `derivative(order = 2)` (12.7.1:
//! the MSL's tables do): the second derivative of the original function, taking the first
//! derivative function's arguments followed by the derivatives of its derivative arguments.
//! It is the derivative of a call of the first derivative function where each derivative
//! argument is the derivative of its base argument (which differentiating a call twice
//! gives); elsewhere the first derivative function is differentiated as any other.

use super::{diff::Differentiator, Arena, ExprId, Node};
use std::sync::{Arc, OnceLock};

super::entity!(
    /// The variable space of a function body: it has none (its leaves are [`Node::Arg`]).
    FnVar
);

/// Index of a function in an arena's function table.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct FnId(pub u32);

super::index_methods!(FnId);

/// Index of a call site in an arena.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct CallId(pub u32);

super::index_methods!(CallId);

/// One call of a function, for one of its outputs: what a [`Node::Call`] refers to. The
/// outputs of one call share one argument list ([`Arena::call`]).
#[derive(Clone, Debug, Eq)]
pub struct CallSite {
    pub f: FnId,
    pub out: u32,
    pub args: Arc<[ExprId]>,
}

impl PartialEq for CallSite {
    fn eq(&self, o: &CallSite) -> bool {
        self.f == o.f
            && self.out == o.out
            && (Arc::ptr_eq(&self.args, &o.args) || self.args == o.args)
    }
}

impl std::hash::Hash for CallSite {
    /// The function, the output, the number of arguments and at most 16 of them spread
    /// over the list: an FFT's call has tens of thousands of arguments and hundreds of
    /// outputs, and hashing every argument for each output made interning them quadratic.
    /// Equal sites hash equally (equal lists sample the same places).
    fn hash<H: std::hash::Hasher>(&self, h: &mut H) {
        self.f.hash(h);
        self.out.hash(h);
        let n = self.args.len();
        n.hash(h);
        let step = n.div_ceil(16).max(1);
        for k in (0..n).step_by(step) {
            self.args[k].hash(h);
        }
    }
}

/// How an argument of a function enters its `derivative` annotation's function.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DerArg {
    /// The derivative function takes this argument's derivative.
    Der,
    /// `noDerivative`: no derivative argument (assumed not to vary).
    No,
    /// `zeroDerivative`: no derivative argument; the annotation applies only where this
    /// argument's derivative is zero.
    Zero,
}

/// The function a `derivative` annotation names, compiled like the function itself.
#[derive(Clone, Debug)]
pub struct UserDerivative {
    pub f: Arc<Function>,
    /// Per scalar argument of the original function.
    pub args: Vec<DerArg>,
}

/// The `derivative(order = 2)` function of a first derivative function: called on the
/// first's arguments followed by the derivatives of its arguments `pairs[k].1`, where each
/// `pairs[k].1` argument is the derivative of the `pairs[k].0` argument.
#[derive(Clone, Debug)]
pub struct SecondDerivative {
    pub f: Arc<Function>,
    pub pairs: Vec<(usize, usize)>,
}

/// A function compiled out of line.
#[derive(Debug)]
pub struct Function {
    /// The Modelica name (with a specialisation suffix where one function is compiled for
    /// several argument shapes); printed and used in symbol names.
    pub name: String,
    /// Scalar arguments (arrays and records are passed element by element).
    pub arity: usize,
    /// The body: outputs as expressions of `Arg(0..arity)`.
    pub body: Arena<FnVar>,
    pub outs: Vec<ExprId>,
    /// The `derivative` annotation's function, if the function has one.
    pub derivative: Option<UserDerivative>,
    /// For a first derivative function: the `derivative(order = 2)` annotation's function.
    pub second: Option<SecondDerivative>,
    /// `LateInline = true`: the call is kept through the symbolic phases and inlined when the
    /// step system is built.
    pub late_inline: bool,
    /// `smoothOrder`: how often the function may be differentiated (kept for reports).
    pub smooth_order: Option<u32>,
    /// The body calls an external C function: never evaluated at compile time (the function
    /// may exist only on the target).
    pub external: bool,
    /// The outputs are computed by a C shim around an external call, not by `body` (whose
    /// outputs are placeholders): [`Function::shim`].
    pub shim: Option<super::external::Shim>,
    dot: OnceLock<Arc<Function>>,
}

impl Function {
    pub fn new(name: String, arity: usize, body: Arena<FnVar>, outs: Vec<ExprId>) -> Function {
        let external = (0..body.len()).any(|k| {
            matches!(
                body.node(ExprId::new(k)),
                Node::Call1(super::Func1::Ext(_), _) | Node::Call2(super::Func2::Ext(_), ..)
            )
        });
        Function {
            external,
            name,
            arity,
            body,
            outs,
            derivative: None,
            second: None,
            late_inline: false,
            smooth_order: None,
            shim: None,
            dot: OnceLock::new(),
        }
    }

    /// A function whose `n_out` outputs the C shim `shim` computes from `arity` arguments.
    /// Its directional derivative is the shim's companion `<symbol>_dot` (central differences
    /// in C, as for `Func1::Ext`), unless a `derivative` annotation gives one.
    pub fn shim(name: String, shim: super::external::Shim, arity: usize, n_out: usize) -> Function {
        let mut body = Arena::<FnVar>::new();
        let nan = body.constant(f64::NAN);
        let mut f = Function::new(name, arity, body, vec![nan; n_out]);
        f.external = true;
        f.shim = Some(shim);
        f
    }

    /// The directional derivative of the body: arguments `x` then `ẋ` (as many), outputs
    /// `Σ ∂f_k/∂x_i · ẋ_i`, by forward-mode symbolic differentiation (made once).
    pub fn dot(&self) -> Arc<Function> {
        self.dot
            .get_or_init(|| {
                if let Some(s) = &self.shim {
                    let dot = super::external::Shim {
                        symbol: format!("{}_dot", s.symbol),
                        calls: s.calls.clone(),
                        impure: s.impure,
                        cost: format!("two calls of {} (central differences): {}", s.calls, s.cost),
                    };
                    let name = format!("{}_der", self.name);
                    return Arc::new(Function::shim(name, dot, 2 * self.arity, self.outs.len()));
                }
                let mut body = self.body.clone();
                let rates: Vec<ExprId> = (0..self.arity)
                    .map(|i| body.arg((self.arity + i) as u32))
                    .collect();
                let mut d = Differentiator::along_args(rates);
                let outs = self.outs.iter().map(|&o| d.diff(&mut body, o)).collect();
                let mut f = Function::new(format!("{}_der", self.name), 2 * self.arity, body, outs);
                f.smooth_order = self.smooth_order.map(|s| s.saturating_sub(1));
                Arc::new(f)
            })
            .clone()
    }

    /// The outputs of the function at `args` (compile-time evaluation, tests).
    pub fn eval(&self, args: &[f64]) -> Vec<f64> {
        if let Some(s) = &self.shim {
            return s.call(args, self.outs.len());
        }
        self.outs
            .iter()
            .map(|&o| super::eval::eval_with_args(&self.body, o, &mut |_| f64::NAN, args, f64::NAN))
            .collect()
    }

    /// The function as Modelica text: its arguments and outputs as arrays, nodes used more
    /// than once as protected temporaries, in evaluation order.
    pub fn print(&self) -> String {
        use std::fmt::Write;
        if let Some(s) = &self.shim {
            let mut ann = Vec::new();
            if let Some(d) = &self.derivative {
                ann.push(format!("derivative = {}", d.f.name));
            }
            if let Some(d) = &self.second {
                ann.push(format!("derivative(order = 2) = {}", d.f.name));
            }
            let ann = if ann.is_empty() {
                String::new()
            } else {
                format!("  annotation({});\n", ann.join(", "))
            };
            return format!(
                "function {} \"the C shim {} around the external function {}\"\n  input Real arg[{}];\n  output Real out[{}];\nexternal \"C\" {}(arg, out);\n{ann}end {};\n",
                self.name, s.symbol, s.calls, self.arity, self.outs.len(), s.symbol, self.name
            );
        }
        let ar = &self.body;
        let mut uses: rustc_hash::FxHashMap<ExprId, u32> = Default::default();
        let mut order = Vec::new();
        let mut seen = Vec::new();
        for &o in &self.outs {
            ar.visit_postorder(o, &mut seen, &mut |id| order.push(id));
        }
        for &id in &order {
            for c in ar.children(id) {
                *uses.entry(c).or_default() += 1;
            }
        }
        let mut temps = rustc_hash::FxHashMap::default();
        let mut defs = Vec::new();
        let name = |_: FnVar| String::new();
        for &id in &order {
            let leaf = matches!(ar.node(id), Node::Const(_) | Node::Arg(_));
            if !leaf && uses.get(&id).copied().unwrap_or(0) > 1 {
                let p = super::ExprPrinter {
                    arena: ar,
                    name: &name,
                    temps: Some(&temps),
                };
                defs.push((format!("t[{}]", defs.len() + 1), p.to_string(id)));
                temps.insert(id, defs.last().map(|d| d.0.clone()).unwrap_or_default());
            }
        }
        let p = super::ExprPrinter {
            arena: ar,
            name: &name,
            temps: Some(&temps),
        };
        let mut s = String::new();
        let _ = writeln!(
            s,
            "function {} \"compiled out of line: {} operations\"",
            self.name,
            self.size()
        );
        let _ = writeln!(s, "  input Real arg[{}];", self.arity);
        let _ = writeln!(s, "  output Real out[{}];", self.outs.len());
        if !defs.is_empty() {
            let _ = writeln!(s, "protected\n  Real t[{}];", defs.len());
        }
        s.push_str("algorithm\n");
        for (t, e) in &defs {
            let _ = writeln!(s, "  {t} := {e};");
        }
        for (k, &o) in self.outs.iter().enumerate() {
            let _ = writeln!(s, "  out[{}] := {};", k + 1, p.to_string(o));
        }
        let mut ann = Vec::new();
        if let Some(d) = &self.derivative {
            ann.push(format!("derivative = {}", d.f.name));
        }
        if let Some(n) = self.smooth_order {
            ann.push(format!("smoothOrder = {n}"));
        }
        if self.late_inline {
            ann.push("LateInline = true".into());
        }
        if !ann.is_empty() {
            let _ = writeln!(s, "  annotation({});", ann.join(", "));
        }
        let _ = writeln!(s, "end {};", self.name);
        s
    }

    /// Operation nodes of the body (its size, for reports).
    pub fn size(&self) -> usize {
        let mut seen = Vec::new();
        let mut n = 0;
        for &o in &self.outs {
            self.body.visit_postorder(o, &mut seen, &mut |id| {
                if !matches!(self.body.node(id), Node::Const(_) | Node::Arg(_)) {
                    n += 1;
                }
            });
        }
        n
    }
}

impl<V: super::Var> Arena<V> {
    pub fn arg(&mut self, i: u32) -> ExprId {
        self.intern(Node::Arg(i))
    }

    /// The function table.
    pub fn functions(&self) -> &[Arc<Function>] {
        &self.fns
    }

    pub fn function(&self, f: FnId) -> &Arc<Function> {
        &self.fns[f.index()]
    }

    /// The id of `f` in this arena's table (added on first use).
    pub fn add_function(&mut self, f: &Arc<Function>) -> FnId {
        if let Some(k) = self.fns.iter().position(|g| Arc::ptr_eq(g, f)) {
            return FnId::new(k);
        }
        self.fns.push(f.clone());
        FnId(self.fns.len() as u32 - 1)
    }

    /// Every call site of this arena.
    pub fn call_sites(&self) -> &[CallSite] {
        &self.calls
    }

    pub fn call_site(&self, c: CallId) -> &CallSite {
        &self.calls[c.0 as usize]
    }

    /// Output `out` of function `f` at `args`. A call whose arguments are all constants is
    /// evaluated now.
    pub fn call(&mut self, f: FnId, out: u32, args: &[ExprId]) -> ExprId {
        let consts: Option<Vec<f64>> = args.iter().map(|&a| self.as_const(a)).collect();
        if let Some(x) = consts.filter(|_| !self.fns[f.index()].external) {
            let v = super::eval::eval_with_args(
                &self.fns[f.index()].body,
                self.fns[f.index()].outs[out as usize],
                &mut |_| f64::NAN,
                &x,
                f64::NAN,
            );
            return self.constant(v);
        }
        // Another output of the call just made: its argument list shared.
        let args: Arc<[ExprId]> = match self.calls.last() {
            Some(last) if last.f == f && *last.args == *args => last.args.clone(),
            _ => args.into(),
        };
        let site = CallSite { f, out, args };
        let id = match self.call_index.get(&site) {
            Some(&c) => c,
            None => {
                let c = CallId::new(self.calls.len());
                self.calls.push(site.clone());
                self.call_index.insert(site, c);
                c
            }
        };
        self.intern(Node::Call(id))
    }

    /// The outputs of `f` written out at `args`: its body copied into this arena with each
    /// argument replaced (what inlining a call means).
    pub fn inline_function(&mut self, f: &Function, args: &[ExprId]) -> Vec<ExprId> {
        let mut memo = rustc_hash::FxHashMap::default();
        f.outs
            .iter()
            .map(|&o| {
                self.import(&f.body, o, &mut memo, &mut |_, n| match n {
                    Node::Arg(i) => Some(args[i as usize]),
                    _ => None,
                })
                .unwrap_or_else(|_| unreachable!("function bodies have no variables"))
            })
            .collect()
    }

    /// The derivative of call site `c` given the derivatives of its arguments (`dargs`):
    /// a call of the directional derivative ([module docs](self)).
    pub fn call_derivative(&mut self, c: CallId, dargs: &[ExprId]) -> ExprId {
        let site = self.calls[c.0 as usize].clone();
        let zero = self.constant(0.0);
        if dargs.iter().all(|&d| d == zero) {
            return zero;
        }
        let f = self.fns[site.f.index()].clone();
        if let Some(s) = &f.second {
            if s.pairs.iter().all(|&(x, dx)| dargs[x] == site.args[dx]) {
                let mut args: Vec<ExprId> = site.args.to_vec();
                args.extend(s.pairs.iter().map(|&(_, dx)| dargs[dx]));
                let g = self.add_function(&s.f);
                return self.call(g, site.out, &args);
            }
        }
        if let Some(ud) = &f.derivative {
            let applies = ud
                .args
                .iter()
                .zip(dargs)
                .all(|(a, &d)| *a != DerArg::Zero || d == zero);
            if applies && site.out < ud.f.outs.len() as u32 {
                let mut args: Vec<ExprId> = site.args.to_vec();
                args.extend(
                    ud.args
                        .iter()
                        .zip(dargs)
                        .filter(|(a, _)| **a == DerArg::Der)
                        .map(|(_, &d)| d),
                );
                let g = self.add_function(&ud.f);
                return self.call(g, site.out, &args);
            }
        }
        let dot = f.dot();
        let g = self.add_function(&dot);
        let mut args: Vec<ExprId> = site.args.to_vec();
        args.extend_from_slice(dargs);
        self.call(g, site.out, &args)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::symbolic::{Func1, VarId};

    /// f(a, b) = (sin(a)·b, a²): the derivative of a call along x (a = x², b = 3x) by the
    /// body's forward mode equals the chain rule worked by hand.
    #[test]
    fn call_derivative_is_the_chain_rule() {
        let mut body = Arena::<FnVar>::new();
        let (a, b) = (body.arg(0), body.arg(1));
        let s = body.call1(Func1::Sin, a);
        let o1 = body.mul(s, b);
        let o2 = body.mul(a, a);
        let f = Arc::new(Function::new("f".into(), 2, body, vec![o1, o2]));
        let mut ar = Arena::<VarId>::new();
        let x = ar.var(VarId(0));
        let x2 = ar.mul(x, x);
        let three = ar.constant(3.0);
        let x3 = ar.mul(three, x);
        let fid = ar.add_function(&f);
        let y1 = ar.call(fid, 0, &[x2, x3]);
        let y2 = ar.call(fid, 1, &[x2, x3]);
        let d1 = crate::symbolic::diff::diff(&mut ar, y1, VarId(0));
        let d2 = crate::symbolic::diff::diff(&mut ar, y2, VarId(0));
        for x0 in [0.3, -1.2, 2.0] {
            let ev = |ar: &Arena<VarId>, e| crate::symbolic::eval::eval(ar, e, &mut |_| x0, 0.0);
            // y1 = 3x·sin(x²): y1' = 3 sin(x²) + 6x² cos(x²); y2 = x⁴: y2' = 4x³.
            let e1 = 3.0 * (x0 * x0).sin() + 6.0 * x0 * x0 * (x0 * x0).cos();
            assert!((ev(&ar, d1) - e1).abs() < 1e-12, "{} vs {e1}", ev(&ar, d1));
            assert!((ev(&ar, d2) - 4.0 * x0 * x0 * x0).abs() < 1e-12);
            assert_eq!(ev(&ar, y1), 3.0 * x0 * (x0 * x0).sin());
        }
        // Constant arguments fold the call.
        let c = ar.constant(2.0);
        let y = ar.call(fid, 1, &[c, c]);
        assert_eq!(ar.as_const(y), Some(4.0));
    }
}
