//! The type rules of flattened expressions: which operand types an operator takes and what it
//! gives (specification 3.4–3.5 for operators, 10.6 for arrays, 8.3 and 7.2 for equations,
//! bindings and modifiers). Flattening evaluates every expression to an [`Arr`] with an
//! element type; these rules run where the types meet, so a Boolean in arithmetic, a Real in a
//! condition, a Real subscript or a Real bound to an Integer is a located error rather than a
//! number silently computed from `true = 1`.
//!
//! The types are the predefined scalar types: Real, Integer and Boolean (Strings never reach
//! an `Arr`; they stay [`super::Val::Str`]). Integer converts to Real wherever a Real is
//! expected (specification 10.6.13); nothing else converts implicitly.

use super::values::Arr;
use crate::diag::{Diagnostic, Span};
use crate::flat::ScalarType;
use crate::syntax::ast::BinaryOp;

type DResult<T> = Result<T, Box<Diagnostic>>;

pub fn is_numeric(t: ScalarType) -> bool {
    matches!(t, ScalarType::Real | ScalarType::Integer)
}

/// The type's name with its indefinite article: "a Real", "an Integer".
pub fn a(t: ScalarType) -> String {
    match t {
        ScalarType::Integer => "an Integer".into(),
        t => format!("a {}", t.name()),
    }
}

/// Real if either is Real, else Integer (both numeric).
pub fn promote(a: ScalarType, b: ScalarType) -> ScalarType {
    if a == ScalarType::Integer && b == ScalarType::Integer {
        ScalarType::Integer
    } else {
        ScalarType::Real
    }
}

/// The type of the elements of an array constructor or of the branches of an if-expression:
/// numbers unify to Real (if any is Real) or Integer; Booleans only with Booleans.
pub fn unify(a: ScalarType, b: ScalarType) -> Option<ScalarType> {
    match (a, b) {
        (x, y) if x == y => Some(x),
        (x, y) if is_numeric(x) && is_numeric(y) => Some(ScalarType::Real),
        _ => None,
    }
}

/// Whether a value of type `value` may define a variable of type `var` (a binding, a modifier,
/// an equation `v = expr`, an assignment in a when-equation).
pub fn assignable(var: ScalarType, value: ScalarType) -> bool {
    var == value || (var == ScalarType::Real && value == ScalarType::Integer)
}

/// Checks the operands of a binary operator and gives the result type.
pub fn binary(op: BinaryOp, x: &Arr, xs: Span, y: &Arr, ys: Span) -> DResult<ScalarType> {
    use BinaryOp as B;
    let bad = |span: Span, t: ScalarType, want: &str| {
        Box::new(
            Diagnostic::error(
                "type",
                format!(
                    "`{}` needs {want}, but this operand is {}",
                    op.symbol(),
                    t.name()
                ),
            )
            .at(span, t.name()),
        )
    };
    match op {
        B::Add
        | B::Sub
        | B::Mul
        | B::Div
        | B::Pow
        | B::ElemAdd
        | B::ElemSub
        | B::ElemMul
        | B::ElemDiv
        | B::ElemPow => {
            for (a, s) in [(x, xs), (y, ys)] {
                if !is_numeric(a.ty) {
                    return Err(bad(s, a.ty, "numbers (Real or Integer)"));
                }
            }
            Ok(match op {
                // A matrix power is repeated products (10.6.8): Integer for an Integer matrix.
                B::Pow if x.dims.len() == 2 => x.ty,
                // Division and exponentiation give Real even for Integer operands.
                B::Div | B::ElemDiv | B::Pow | B::ElemPow => ScalarType::Real,
                _ => promote(x.ty, y.ty),
            })
        }
        B::Lt | B::Le | B::Gt | B::Ge | B::Eq | B::Ne => {
            if unify(x.ty, y.ty).is_none() {
                return Err(Box::new(
                    Diagnostic::error(
                        "type",
                        format!("`{}` compares {} with {}", op.symbol(), a(x.ty), a(y.ty)),
                    )
                    .at(xs, x.ty.name())
                    .also(ys, y.ty.name()),
                ));
            }
            Ok(ScalarType::Boolean)
        }
        B::And | B::Or => {
            for (a, s) in [(x, xs), (y, ys)] {
                if a.ty != ScalarType::Boolean {
                    return Err(bad(s, a.ty, "Boolean operands"));
                }
            }
            Ok(ScalarType::Boolean)
        }
    }
}

/// `-x` and `+x` need a number; `not x` a Boolean.
pub fn unary_numeric(x: &Arr, span: Span, op: &str) -> DResult<()> {
    if is_numeric(x.ty) {
        return Ok(());
    }
    Err(Box::new(
        Diagnostic::error(
            "type",
            format!("`{op}` needs a number, but its operand is {}", x.ty.name()),
        )
        .at(span, x.ty.name()),
    ))
}

/// A condition (`if`, `when`, `assert`, `not`, …) must be Boolean.
pub fn boolean(x: &Arr, span: Span, what: &str) -> DResult<()> {
    if x.ty == ScalarType::Boolean {
        return Ok(());
    }
    Err(Box::new(
        Diagnostic::error(
            "type",
            format!("{what} must be Boolean, but this is {}", x.ty.name()),
        )
        .at(span, x.ty.name())
        .help("compare it with something, e.g. `x > 0`"),
    ))
}

/// An argument of a built-in function that takes numbers.
pub fn numeric_arg(x: &Arr, span: Span, function: &str) -> DResult<()> {
    if is_numeric(x.ty) {
        return Ok(());
    }
    Err(Box::new(
        Diagnostic::error(
            "type",
            format!(
                "`{function}` takes numbers, but this argument is {}",
                x.ty.name()
            ),
        )
        .at(span, x.ty.name()),
    ))
}

/// An array subscript or an array size must be an Integer (specification 10.5, 10.1).
pub fn integer(x: &Arr, span: Span, what: &str) -> DResult<()> {
    if x.ty == ScalarType::Integer {
        return Ok(());
    }
    Err(Box::new(
        Diagnostic::error(
            "type",
            format!("{what} must be an Integer, but this is {}", x.ty.name()),
        )
        .at(span, x.ty.name())
        .help("use integer(…) to convert a Real, or declare the parameter Integer"),
    ))
}

/// A value of type `value` defining `name` of type `var`; `how` completes the message
/// "Integer `n` <how>" with `{a}` standing for the value's type with its article, e.g.
/// "is bound to {a}", "is defined by {a} expression".
pub fn assign(var: ScalarType, name: &str, value: &Arr, span: Span, how: &str) -> DResult<()> {
    if assignable(var, value.ty) {
        return Ok(());
    }
    let help = match (var, value.ty) {
        (ScalarType::Integer, ScalarType::Real) => {
            "a Real does not convert to Integer implicitly: use integer(…) (rounds down)"
        }
        (ScalarType::Boolean, _) => "a Boolean takes true, false or a comparison such as `x > 0`",
        _ => "a Boolean does not convert to a number: use `if b then 1 else 0`",
    };
    Err(Box::new(
        Diagnostic::error(
            "type",
            format!(
                "{} `{name}` {}",
                var.name(),
                how.replace("{a}", &a(value.ty))
            ),
        )
        .at(span, value.ty.name())
        .help(help),
    ))
}

/// The two sides of an equation: numbers with numbers, Booleans with Booleans; a side that is
/// a single Integer or Boolean variable is defined by the other and needs its type.
pub fn equation(a: &Arr, asp: Span, b: &Arr, bsp: Span) -> DResult<()> {
    if unify(a.ty, b.ty).is_none() {
        return Err(Box::new(
            Diagnostic::error(
                "type",
                format!(
                    "the sides of this equation have types {} and {}",
                    a.ty.name(),
                    b.ty.name()
                ),
            )
            .at(asp, a.ty.name())
            .also(bsp, b.ty.name()),
        ));
    }
    Ok(())
}
