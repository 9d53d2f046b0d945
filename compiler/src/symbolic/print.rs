//! Printing expressions as Modelica text, with the fewest parentheses that keep the meaning.

use super::{Arena, ExprId, Node, Var, VarId};
use std::fmt::Write;

/// Prints expressions of one arena, naming variables through `name`.
pub struct ExprPrinter<'a, V: Var = VarId> {
    pub arena: &'a Arena<V>,
    pub name: &'a dyn Fn(V) -> String,
    /// Nodes printed by a name (the temporaries of a function body printed statement by
    /// statement), except at the root.
    pub temps: Option<&'a rustc_hash::FxHashMap<ExprId, String>>,
}

// Binding strength, higher binds tighter (Modelica's operator precedence).
const P_IF: u8 = 0;
const P_OR: u8 = 1;
const P_AND: u8 = 2;
const P_NOT: u8 = 3;
const P_CMP: u8 = 4;
const P_ADD: u8 = 5;
const P_MUL: u8 = 6;
const P_NEG: u8 = 7;
const P_POW: u8 = 8;
const P_ATOM: u8 = 9;

/// Formats a real the shortest way that reads back to the same value.
pub fn fmt_real(v: f64) -> String {
    if v.is_nan() {
        return "NaN".into();
    }
    if v.is_infinite() {
        return if v > 0.0 {
            "1e308*10".into()
        } else {
            "-1e308*10".into()
        };
    }
    if v == v.trunc() && v.abs() < 1e15 {
        return format!("{}", v as i64);
    }
    let s = format!("{v:?}");
    s.replace("e-0", "e-").replace("e0", "e")
}

impl<'a, V: Var> ExprPrinter<'a, V> {
    pub fn to_string(&self, id: ExprId) -> String {
        let mut s = String::new();
        self.write_root(&mut s, id, P_IF);
        s
    }

    fn write(&self, s: &mut String, id: ExprId, min: u8) {
        if let Some(t) = self.temps.and_then(|t| t.get(&id)) {
            s.push_str(t);
            return;
        }
        self.write_root(s, id, min);
    }

    fn prec(&self, id: ExprId) -> u8 {
        match self.arena.node(id) {
            Node::Const(bits) => {
                if f64::from_bits(bits) < 0.0 {
                    P_NEG
                } else {
                    P_ATOM
                }
            }
            Node::Var(_)
            | Node::Der(_)
            | Node::Pre(_)
            | Node::Time
            | Node::Call1(..)
            | Node::Call2(..)
            | Node::NoEvent(_)
            | Node::Arg(_)
            | Node::Call(_) => P_ATOM,
            Node::Neg(_) => P_NEG,
            Node::Add(..) | Node::Sub(..) => P_ADD,
            Node::Mul(..) | Node::Div(..) => P_MUL,
            Node::Pow(..) => P_POW,
            Node::Cmp(..) => P_CMP,
            Node::And(..) => P_AND,
            Node::Or(..) => P_OR,
            Node::Not(_) => P_NOT,
            Node::If(..) => P_IF,
        }
    }

    fn write_root(&self, s: &mut String, id: ExprId, min: u8) {
        let p = self.prec(id);
        let paren = p < min;
        if paren {
            s.push('(');
        }
        match self.arena.node(id) {
            Node::Const(bits) => s.push_str(&fmt_real(f64::from_bits(bits))),
            Node::Var(v) => s.push_str(&(self.name)(v)),
            Node::Der(v) => {
                let _ = write!(s, "der({})", (self.name)(v));
            }
            Node::Pre(v) => {
                let _ = write!(s, "pre({})", (self.name)(v));
            }
            Node::Time => s.push_str("time"),
            Node::Neg(a) => {
                s.push('-');
                // `-(a + b)` needs parentheses; `-a*b` does not (it means -(a*b)).
                self.write(s, a, P_MUL);
            }
            Node::Add(a, b) => {
                self.write(s, a, P_ADD);
                s.push_str(" + ");
                self.write(s, b, P_MUL);
            }
            Node::Sub(a, b) => {
                self.write(s, a, P_ADD);
                s.push_str(" - ");
                self.write(s, b, P_MUL);
            }
            Node::Mul(a, b) => {
                self.write(s, a, P_MUL);
                s.push('*');
                self.write(s, b, P_NEG + 1);
            }
            Node::Div(a, b) => {
                self.write(s, a, P_MUL);
                s.push('/');
                self.write(s, b, P_NEG + 1);
            }
            Node::Pow(a, b) => {
                self.write(s, a, P_ATOM);
                s.push('^');
                self.write(s, b, P_ATOM);
            }
            Node::Call1(f, a) => {
                s.push_str(f.name());
                s.push('(');
                self.write(s, a, P_IF);
                s.push(')');
            }
            Node::Call2(f, a, b) => {
                s.push_str(f.name());
                s.push('(');
                self.write(s, a, P_IF);
                s.push_str(", ");
                self.write(s, b, P_IF);
                s.push(')');
            }
            Node::Arg(i) => {
                let _ = write!(s, "arg[{}]", i + 1);
            }
            Node::Call(c) => {
                let site = self.arena.call_site(c);
                let f = self.arena.function(site.f);
                s.push_str(&f.name);
                s.push('(');
                for (k, &a) in site.args.iter().enumerate() {
                    if k > 0 {
                        s.push_str(", ");
                    }
                    self.write(s, a, P_IF);
                }
                s.push(')');
                if f.outs.len() > 1 {
                    let _ = write!(s, "[{}]", site.out + 1);
                }
            }
            Node::NoEvent(a) => {
                s.push_str("noEvent(");
                self.write(s, a, P_IF);
                s.push(')');
            }
            Node::Cmp(op, a, b) => {
                self.write(s, a, P_ADD);
                let _ = write!(s, " {} ", op.symbol());
                self.write(s, b, P_ADD);
            }
            Node::And(a, b) => {
                self.write(s, a, P_AND);
                s.push_str(" and ");
                self.write(s, b, P_NOT);
            }
            Node::Or(a, b) => {
                self.write(s, a, P_OR);
                s.push_str(" or ");
                self.write(s, b, P_AND);
            }
            Node::Not(a) => {
                s.push_str("not ");
                self.write(s, a, P_CMP);
            }
            Node::If(c, t, e) => {
                s.push_str("if ");
                self.write(s, c, P_OR);
                s.push_str(" then ");
                self.write(s, t, P_OR);
                s.push_str(" else ");
                self.write(s, e, P_IF);
            }
        }
        if paren {
            s.push(')');
        }
    }
}
