//! Direct numeric evaluation of an expression (parameters at start-up, tests). The step
//! interpreter compiles expressions to tapes instead; both use [`apply`] for the arithmetic so
//! they agree to the bit.

use super::{Arena, ExprId, Node, Var};
use rustc_hash::FxHashMap;

/// Evaluates `root` with variable values from `var` and `time` for `time`. Booleans are 0/1.
pub fn eval<V: Var>(ar: &Arena<V>, root: ExprId, var: &mut dyn FnMut(V) -> f64, time: f64) -> f64 {
    eval_with_args(ar, root, var, &[], time)
}

/// [`eval`] in a function body, its arguments' values given (`Arg(i)` reads `args[i]`); calls
/// of functions compiled out of line evaluate their bodies.
pub fn eval_with_args<V: Var>(
    ar: &Arena<V>,
    root: ExprId,
    var: &mut dyn FnMut(V) -> f64,
    args: &[f64],
    time: f64,
) -> f64 {
    let mut values: FxHashMap<ExprId, f64> = FxHashMap::default();
    for id in ar.post_order(root, |_| false) {
        let n = ar.node(id);
        let get = |x: ExprId| values.get(&x).copied().unwrap_or(f64::NAN);
        let v = match n {
            Node::Const(bits) => f64::from_bits(bits),
            Node::Var(v) | Node::Der(v) | Node::Pre(v) => var(v),
            Node::Time => time,
            Node::Arg(i) => args.get(i as usize).copied().unwrap_or(f64::NAN),
            Node::Call(c) => {
                let site = ar.call_site(c);
                let f = ar.function(site.f);
                let x: Vec<f64> = site.args.iter().map(|&a| get(a)).collect();
                if f.shim.is_some() {
                    f.eval(&x)[site.out as usize]
                } else {
                    let out = f.outs[site.out as usize];
                    eval_with_args(&f.body, out, &mut |_| f64::NAN, &x, time)
                }
            }
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
pub fn apply<V: Var>(n: Node<V>, a: [f64; 3]) -> f64 {
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
        Node::Var(_) | Node::Der(_) | Node::Pre(_) | Node::Time | Node::Arg(_) | Node::Call(_) => {
            f64::NAN
        }
    }
}

/// `x^y`: integer exponents up to 64 in magnitude by [`powi`] (exact for small integers, as
/// tools do), others by the C library's `pow`.
pub fn pow(x: f64, y: f64) -> f64 {
    if y == y.trunc() && y.abs() <= 64.0 {
        powi(x, y as i32)
    } else {
        x.powf(y)
    }
}

/// `x^n` by binary exponentiation, spelled out (rather than `f64::powi`, whose operation order
/// is LLVM's to choose) so that generated code for any target repeats it operation for
/// operation: multiply the result by the current power for every set bit of |n|, square the
/// power between bits, take the reciprocal for negative n. The first factor is taken as is,
/// not multiplied by 1.
pub fn powi(x: f64, n: i32) -> f64 {
    let mut m = n.unsigned_abs();
    let mut a = x;
    let mut r: Option<f64> = None;
    loop {
        if m & 1 == 1 {
            r = Some(match r {
                None => a,
                Some(r) => r * a,
            });
        }
        m >>= 1;
        if m == 0 {
            break;
        }
        a *= a;
    }
    let r = r.unwrap_or(1.0);
    if n < 0 {
        1.0 / r
    } else {
        r
    }
}
