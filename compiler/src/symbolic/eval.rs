//! Direct numeric evaluation of an expression (parameters at start-up, tests). The step
//! interpreter compiles expressions to tapes instead; both use [`apply`] for the arithmetic so
//! they agree to the bit.

use super::{Arena, ExprId, Node, VarId};
use rustc_hash::FxHashMap;

/// Evaluates `root` with variable values from `var` and `time` for `time`. Booleans are 0/1.
pub fn eval(ar: &Arena, root: ExprId, var: &mut dyn FnMut(VarId) -> f64, time: f64) -> f64 {
    let mut values: FxHashMap<ExprId, f64> = FxHashMap::default();
    let mut stack = vec![(root, false)];
    while let Some((id, done)) = stack.pop() {
        if values.contains_key(&id) {
            continue;
        }
        if !done {
            stack.push((id, true));
            for c in ar.children(id) {
                if !values.contains_key(&c) {
                    stack.push((c, false));
                }
            }
            continue;
        }
        let n = ar.node(id);
        let get = |x: ExprId| values.get(&x).copied().unwrap_or(f64::NAN);
        let v = match n {
            Node::Const(bits) => f64::from_bits(bits),
            Node::Var(v) | Node::Der(v) | Node::Pre(v) => var(v),
            Node::Time => time,
            _ => {
                let mut args = [0.0; 3];
                for (k, c) in ar.children(id).enumerate() {
                    args[k] = get(c);
                }
                apply(n, args)
            }
        };
        values.insert(id, v);
    }
    values.get(&root).copied().unwrap_or(f64::NAN)
}

/// The value of an operator node given its children's values.
#[inline]
pub fn apply(n: Node, a: [f64; 3]) -> f64 {
    let b = |x: bool| if x { 1.0 } else { 0.0 };
    match n {
        Node::Neg(_) => -a[0],
        Node::Add(..) => a[0] + a[1],
        Node::Sub(..) => a[0] - a[1],
        Node::Mul(..) => a[0] * a[1],
        Node::Div(..) => a[0] / a[1],
        Node::Pow(..) => pow(a[0], a[1]),
        Node::Call1(f, _) => f.eval(a[0]),
        Node::Call2(f, ..) => f.eval(a[0], a[1]),
        Node::Cmp(op, ..) => b(op.eval(a[0], a[1])),
        Node::And(..) => b(a[0] != 0.0 && a[1] != 0.0),
        Node::Or(..) => b(a[0] != 0.0 || a[1] != 0.0),
        Node::Not(_) => b(a[0] == 0.0),
        Node::If(..) => {
            if a[0] != 0.0 {
                a[1]
            } else {
                a[2]
            }
        }
        Node::NoEvent(_) => a[0],
        Node::Const(bits) => f64::from_bits(bits),
        Node::Var(_) | Node::Der(_) | Node::Pre(_) | Node::Time => f64::NAN,
    }
}

/// `x^y` with integer exponents computed by `powi` (exact for small integers, as tools do).
#[inline]
pub fn pow(x: f64, y: f64) -> f64 {
    if y == y.trunc() && y.abs() <= 64.0 {
        x.powi(y as i32)
    } else {
        x.powf(y)
    }
}
