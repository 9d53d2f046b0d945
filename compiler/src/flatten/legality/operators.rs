//! The functions of an operator record's operators (§14.3–14.6): how many inputs and outputs
//! each kind of operator takes, which of them are of the record class, which have defaults.

use super::{Checker, ClassId, Found, Rule};
use crate::syntax::ast::{self, Restriction as R};

const ONE_OUTPUT: Rule = Rule {
    section: "14.1",
    code: "operator",
    text: "every function of an operator class shall return exactly one output",
};
const CONSTRUCTOR: Rule = Rule {
    section: "14.3",
    code: "operator",
    text: "each function of 'constructor' has one output, of the operator record class; '0' \
           holds one function, with no inputs and one output of the record class",
};
const STRING: Rule = Rule {
    section: "14.4",
    code: "operator",
    text: "each function of 'String' has one output of type String and a first input of the \
           operator record class",
};
const BINARY: Rule = Rule {
    section: "14.5",
    code: "operator",
    text: "a binary operator function has at least two inputs, one of them of the operator \
           record class; the first two have no defaults, the others have",
};
const UNARY: Rule = Rule {
    section: "14.6",
    code: "operator",
    text: "a unary operator function's first input is of the operator record class, without a \
           default; the other inputs have defaults",
};
const UNIQUE: [Rule; 4] = [
    Rule {
        section: "14.3",
        code: "operator",
        text: "no potential call of an operator record's constructor may match several of the \
               functions of its 'constructor'",
    },
    Rule {
        section: "14.4",
        code: "operator",
        text: "no potential call String(c, …) may match several of the functions of the \
               operator record's 'String'",
    },
    Rule {
        section: "14.5",
        code: "operator",
        text: "no potential binary call may match several of the functions of the operator",
    },
    Rule {
        section: "14.6",
        code: "operator",
        text: "no potential unary call may match several of the functions of the operator",
    },
];
const MUTUAL: Rule = Rule {
    section: "14.3",
    code: "operator",
    text: "for operator records C and D, C.'constructor'(d) and D.'constructor'(c) shall not \
           both be legal",
};
const ALLOWED: Rule = Rule {
    section: "14.6",
    code: "operator",
    text: "an operator holds only the functions allowed for it: binary ones for + * / ^ == <> \
           < <= > >= and or, unary ones for not, both for -",
};

/// One input or output of an operator function: its type's class, its dimensions and whether
/// it has a default.
struct Param {
    class: Option<ClassId>,
    type_name: String,
    /// Per dimension: `None` for `:`, the size where it is an Integer literal, `Some(-1)`
    /// for another expression.
    dims: Vec<Option<i64>>,
    default: bool,
}

impl Param {
    /// Some argument matches both `self` and `other` (12.4.1: the same type, or Integer and
    /// Real, an Integer argument being converted; dimensions alike). Only what is sure is
    /// said: two classes derived from Real, or two sizes given by other expressions, are
    /// taken as different.
    fn overlaps(&self, other: &Param) -> bool {
        let numeric = |p: &Param| matches!(p.type_name.as_str(), "Real" | "Integer");
        let same_type = match (self.class, other.class) {
            _ if numeric(self) && numeric(other) => true,
            (Some(a), Some(b)) => a == b,
            (None, None) => self.type_name == other.type_name,
            _ => false,
        };
        same_type
            && self.dims.len() == other.dims.len()
            && self
                .dims
                .iter()
                .zip(&other.dims)
                .all(|(a, b)| match (a, b) {
                    (None, _) | (_, None) => true,
                    (Some(x), Some(y)) => x == y && *x >= 0,
                })
    }
}

/// The numbers of arguments a positional call of a function with `inputs` may have.
fn arity(inputs: &[Param]) -> std::ops::RangeInclusive<usize> {
    inputs.iter().filter(|p| !p.default).count()..=inputs.len()
}

/// A positional call of `k` arguments matching both `a` and `b`, the smallest such `k` among
/// the `allowed` numbers of arguments of the operator.
fn common_call(a: &[Param], b: &[Param], allowed: &dyn Fn(usize) -> bool) -> Option<usize> {
    let (ra, rb) = (arity(a), arity(b));
    let lo = *ra.start().max(rb.start());
    let hi = *ra.end().min(rb.end());
    (lo..=hi)
        .filter(|&k| allowed(k))
        .find(|&k| a[..k].iter().zip(&b[..k]).all(|(x, y)| x.overlaps(y)))
}

/// The inputs and outputs of function `f`, its own declarations in order (`None` when it
/// inherits some: an inherited signature is not read).
fn signature(
    me: &mut Checker<'_, '_>,
    f: ClassId,
    def: &ast::ClassDef,
) -> Option<(Vec<Param>, Vec<Param>)> {
    let ast::ClassBody::Long { composition, .. } = &def.body else {
        return None;
    };
    let (mut inputs, mut outputs) = (Vec::new(), Vec::new());
    for e in &composition.elements {
        match e {
            ast::Element::Extends(_) => return None,
            ast::Element::Component(clause, _) => {
                let class = match me.tree.lookup_name(f, &clause.type_name) {
                    Some(Found::Class(c)) => Some(c),
                    _ => None,
                };
                for decl in &clause.components {
                    let dims = clause
                        .subscripts
                        .iter()
                        .chain(&decl.subscripts)
                        .map(|s| match s {
                            ast::Subscript::Colon(_) => None,
                            ast::Subscript::Expr(e) => match e.kind {
                                ast::ExprKind::Integer(n) => Some(n),
                                _ => Some(-1),
                            },
                        })
                        .collect();
                    let p = Param {
                        class,
                        type_name: clause.type_name.to_dotted(),
                        dims,
                        default: decl
                            .modification
                            .as_ref()
                            .is_some_and(|m| m.binding.is_some()),
                    };
                    match clause.prefix.causality {
                        Some(ast::Causality::Input) => inputs.push(p),
                        Some(ast::Causality::Output) => outputs.push(p),
                        None => {}
                    }
                }
            }
            _ => {}
        }
    }
    Some((inputs, outputs))
}

impl Checker<'_, '_> {
    /// The functions of an operator (or the operator function itself) checked against the
    /// operator's kind. Runs on the operator class; its parent is the operator record.
    pub(super) fn operator_signatures(&mut self, def: &ast::ClassDef) {
        let record = self
            .tree
            .info(self.class)
            .parent
            .filter(|&p| self.tree.info(p).restriction() == Some(R::OperatorRecord));
        let op = def.name.name.trim_matches('\'').to_string();
        let functions: Vec<(ClassId, &ast::ClassDef)> = if def.restriction == R::OperatorFunction {
            vec![(self.class, def)]
        } else {
            let ast::ClassBody::Long { composition, .. } = &def.body else {
                return;
            };
            composition
                .elements
                .iter()
                .filter_map(|e| match e {
                    ast::Element::Class(c, _)
                        if matches!(c.restriction, R::Function | R::OperatorFunction) =>
                    {
                        let id = *self.tree.info(self.class).children.get(&c.name.name)?;
                        Some((id, &**c))
                    }
                    _ => None,
                })
                .collect()
        };
        if op == "0" && functions.len() != 1 {
            let msg = format!("operator '0' holds {} functions, not one", functions.len());
            self.report(CONSTRUCTOR.broken(def.name.span, msg, "here"));
        }
        let mut valid: Vec<(ClassId, &ast::Ident, Vec<Param>)> = Vec::new();
        for (id, f) in functions {
            let Some((inputs, outputs)) = signature(self, id, f) else {
                continue;
            };
            let name = &f.name;
            if outputs.len() != 1 {
                let msg = format!(
                    "operator function `{}` has {} outputs",
                    name.name,
                    outputs.len()
                );
                self.report(ONE_OUTPUT.broken(name.span, msg, "here"));
                continue;
            }
            // The other rules need the operator record (an operator elsewhere is refused by
            // its placement).
            let Some(record) = record else {
                continue;
            };
            // A parameter whose class is not found there (an encapsulated operator sees the
            // record only through an import): said as such, not as a wrong signature.
            let predefined = ["Real", "Integer", "Boolean", "String"];
            if let Some(p) = inputs
                .iter()
                .chain(&outputs)
                .find(|p| p.class.is_none() && !predefined.contains(&p.type_name.as_str()))
            {
                let msg = format!(
                    "the function `{}` of operator '{op}' names the class `{}`, which is not \
                     visible there",
                    name.name, p.type_name
                );
                let d = crate::diag::Diagnostic::error("unknown-name", msg)
                    .at(name.span, "here")
                    .help(format!(
                        "Modelica 3.6 §5.3.1: lookup stops at an encapsulated class; import \
                         it (`import {};`)",
                        p.type_name
                    ));
                self.report(d);
                continue;
            }
            let of_record = |p: &Param| p.class == Some(record);
            let problem = match op.as_str() {
                "constructor" | "0" => {
                    if !of_record(&outputs[0]) {
                        Some((
                            CONSTRUCTOR,
                            "its output is not of the operator record class",
                        ))
                    } else if op == "0" && !inputs.is_empty() {
                        Some((CONSTRUCTOR, "'0' takes no inputs"))
                    } else {
                        None
                    }
                }
                "String" => {
                    let string_out = outputs.len() == 1 && outputs[0].type_name == "String";
                    if !string_out || !inputs.first().is_some_and(of_record) {
                        Some((
                            STRING,
                            "its output is not one String or its first input not the record",
                        ))
                    } else {
                        None
                    }
                }
                "+" | "*" | "/" | "^" | "==" | "<>" | "<" | "<=" | ">" | ">=" | "and" | "or" => {
                    binary_problem(&inputs, &of_record)
                }
                "not" => unary_problem(&inputs, &of_record),
                "-" => {
                    // Unary or binary: the one its inputs without defaults say.
                    if inputs.iter().filter(|p| !p.default).count() >= 2 {
                        binary_problem(&inputs, &of_record)
                    } else {
                        unary_problem(&inputs, &of_record)
                    }
                }
                _ => Some((ALLOWED, "no such operator")),
            };
            if let Some((rule, why)) = problem {
                let msg = format!("the function `{}` of operator '{op}': {why}", name.name);
                self.report(rule.broken(name.span, msg, "here"));
            } else {
                valid.push((id, name, inputs));
            }
        }
        if let Some(record) = record {
            self.unique_matches(&op, &valid);
            if op == "constructor" {
                self.mutual_constructors(record, &valid);
            }
        }
    }

    /// 14.3–14.6: no call the operator may see matches two of its functions.
    fn unique_matches(&mut self, op: &str, valid: &[(ClassId, &ast::Ident, Vec<Param>)]) {
        let allowed: &dyn Fn(usize) -> bool = match op {
            "constructor" | "String" => &|_| true,
            "-" => &|k| k == 1 || k == 2,
            "not" => &|k| k == 1,
            "0" => return,
            _ => &|k| k == 2,
        };
        for (j, (_, b_name, b)) in valid.iter().enumerate() {
            for (_, a_name, a) in &valid[..j] {
                let Some(k) = common_call(a, b, allowed) else {
                    continue;
                };
                let types: Vec<&str> = a[..k]
                    .iter()
                    .zip(&b[..k])
                    .map(|(x, y)| {
                        if y.type_name == "Integer" {
                            "Integer"
                        } else {
                            x.type_name.as_str()
                        }
                    })
                    .collect();
                let rule = match op {
                    "constructor" => &UNIQUE[0],
                    "String" => &UNIQUE[1],
                    _ if k == 1 => &UNIQUE[3],
                    _ => &UNIQUE[2],
                };
                let msg = format!(
                    "the functions `{}` and `{}` of operator '{op}' both match a call with arguments of types ({})",
                    a_name.name,
                    b_name.name,
                    types.join(", ")
                );
                self.report(
                    rule.broken(b_name.span, msg, "here")
                        .also(a_name.span, "this one matches it too"),
                );
            }
        }
    }

    /// 14.3: a constructor of `record` from one value of another operator record D, where D
    /// has a constructor from one value of `record` — `c + d` could convert either way. Said
    /// once, from the record declared first.
    fn mutual_constructors(
        &mut self,
        record: ClassId,
        valid: &[(ClassId, &ast::Ident, Vec<Param>)],
    ) {
        for (_, name, inputs) in valid {
            let Some(other) = inputs.first().and_then(|p| p.class) else {
                continue;
            };
            if other == record
                || !arity(inputs).contains(&1)
                || self.tree.info(other).restriction() != Some(R::OperatorRecord)
                || other < record
            {
                continue;
            }
            let Some(&ctor) = self.tree.info(other).children.get("'constructor'") else {
                continue;
            };
            let mut functions = vec![ctor];
            functions.extend(self.tree.info(ctor).children.values().copied());
            let back = functions.into_iter().find_map(|g| {
                let def = self.tree.info(g).def?;
                if !matches!(def.restriction, R::Function | R::OperatorFunction) {
                    return None;
                }
                let (gi, _) = signature(self, g, def)?;
                (arity(&gi).contains(&1) && gi[0].class == Some(record))
                    .then(|| def.name.name.to_string())
            });
            if let Some(back) = back {
                let (r, o) = (
                    self.tree.info(record).name.to_string(),
                    self.tree.info(other).name.to_string(),
                );
                let msg = format!(
                    "`{r}` has a constructor from a `{o}` (`{}`) and `{o}` one from a `{r}` (`{back}`): a mixed operation could convert either way",
                    name.name
                );
                self.report(MUTUAL.broken(name.span, msg, "here"));
            }
        }
    }
}

fn binary_problem(
    inputs: &[Param],
    of_record: &dyn Fn(&Param) -> bool,
) -> Option<(Rule, &'static str)> {
    if inputs.len() < 2 || !inputs.iter().any(of_record) {
        Some((BINARY, "it needs two inputs, one of the record class"))
    } else if inputs[..2].iter().any(|p| p.default) {
        Some((BINARY, "one of its first two inputs has a default"))
    } else if inputs[2..].iter().any(|p| !p.default) {
        Some((BINARY, "an input after the first two has no default"))
    } else {
        None
    }
}

fn unary_problem(
    inputs: &[Param],
    of_record: &dyn Fn(&Param) -> bool,
) -> Option<(Rule, &'static str)> {
    match inputs.first() {
        Some(p) if !of_record(p) => Some((UNARY, "its first input is not of the record class")),
        Some(p) if p.default => Some((UNARY, "its first input has a default")),
        Some(_) if inputs[1..].iter().any(|p| !p.default) => {
            Some((UNARY, "an input after the first has no default"))
        }
        Some(_) => None,
        None => Some((UNARY, "it has no input")),
    }
}
