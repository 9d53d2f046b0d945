//! Annotations that name variables of the model, judged once its variables are known:
//!
//! - the figures of a simulated model's documentation (specification 18.2.2): each `Curve`'s
//!   `x` and `y` is a result reference — `time`, a scalar variable of the model, or `der` of
//!   one (18.2.2.2). Read from the model's own `Documentation(figures = …)`; figures of other
//!   classes are not judged here;
//! - interaction (18.6.7): the variables a user may change through an `interaction` array of
//!   a class's icon or diagram layer or of one of its graphic primitives are parameters,
//!   discrete-time variables or states — of every instance, named from its class.

use super::legality::Rule;
use super::*;

const CURVE_VARIABLE: Rule = Rule {
    section: "18.2.2.2",
    code: "annotation",
    text: "a Curve's x and y are result references: time, a variable of the model, or a \
           derivative of one",
};
const INTERACTION: Rule = Rule {
    section: "18.6.7",
    code: "annotation",
    text: "the variables an interaction changes are parameters, discrete-time variables or \
           states",
};
const CURVE_SCALAR: Rule = Rule {
    section: "18.2.2.2",
    code: "annotation",
    text: "a Curve's x and y each designate a scalar result",
};

impl<'t, 'a> Flattener<'t, 'a> {
    /// 18.2.2.2 on the model `class`'s figures.
    pub(super) fn check_figures(&mut self, class: ClassId) {
        let mut curves: Vec<&'a ast::Expr> = Vec::new();
        for (_, name, e) in section_values(self.class_annotation(class), &["Documentation"]) {
            if name != "figures" {
                continue;
            }
            calls(e, "Figure", &mut |fig| {
                named(fig, "plots", &mut |plots| {
                    calls(plots, "Plot", &mut |plot| {
                        named(plot, "curves", &mut |cs| {
                            calls(cs, "Curve", &mut |c| {
                                named(c, "x", &mut |x| curves.push(x));
                                named(c, "y", &mut |y| curves.push(y));
                            })
                        })
                    })
                })
            });
        }
        for e in curves {
            if let Some(d) = self.result_reference(e) {
                self.diags.push(d);
            }
        }
    }

    /// 18.6.7 on every instance: the variables the `interaction` arrays of its classes' layers
    /// (`Icon`, `Diagram`) and of their graphic primitives change. A name that is no
    /// variable of the model (a String, a subscript other than a literal) is not judged.
    pub(super) fn check_interaction(&mut self) {
        let mut changed: Vec<(String, &'a ast::Expr)> = Vec::new();
        // What each class's interactions name, read once per class (many instances share one).
        let mut by_class: FxHashMap<ClassId, Vec<(String, &'a ast::Expr)>> = FxHashMap::default();
        for n in 0..self.inst.nodes.len() {
            let node = &self.inst.nodes[n];
            let prefix = if node.path.is_empty() {
                String::new()
            } else {
                format!("{}.", node.path)
            };
            for &c in &node.classes {
                let named_here = by_class
                    .entry(c)
                    .or_insert_with(|| interaction_variables(self.class_annotation(c)));
                changed.extend(named_here.iter().map(|(v, e)| (format!("{prefix}{v}"), *e)));
            }
        }
        if changed.is_empty() {
            return;
        }
        let kinds: FxHashMap<&str, (VarKind, ScalarType)> = self
            .flat
            .vars
            .iter()
            .map(|v| (v.name.as_str(), (v.kind, v.ty)))
            .collect();
        let mut diags = Vec::new();
        for (name, e) in changed {
            let continuous = match kinds.get(name.as_str()) {
                Some((VarKind::Algebraic, _)) => true,
                Some((VarKind::Input, ty)) => *ty == ScalarType::Real,
                _ => false,
            };
            if continuous {
                let msg = format!(
                    "an interaction changes `{name}`, a continuous-time variable that is not a state"
                );
                diags.push(INTERACTION.broken(e.span, msg, "here"));
            }
        }
        self.diags.extend(diags);
    }

    /// Why `e` is not a result reference of a scalar of the model, if it is not.
    fn result_reference(&self, e: &ast::Expr) -> Option<Diagnostic> {
        let r = match &e.kind {
            ast::ExprKind::Ref(r) => r,
            ast::ExprKind::Call(ast::CallTarget::Der, args) => match args.positional.first() {
                Some(ast::Expr {
                    kind: ast::ExprKind::Ref(r),
                    ..
                }) => r,
                _ => {
                    let msg = "`der` in a Curve takes a variable of the model";
                    return Some(CURVE_VARIABLE.broken(e.span, msg, "here"));
                }
            },
            _ => {
                let msg = "a Curve's x and y name a variable of the model, not an expression";
                return Some(CURVE_VARIABLE.broken(e.span, msg, "here"));
            }
        };
        // Subscripts other than Integer literals are not judged.
        let name = literal_name(r)?;
        if name == "time" {
            return None;
        }
        let (mut exact, mut inside) = (false, false);
        for v in self.flat.vars.iter() {
            let n = v.name.as_str();
            if n == name {
                exact = true;
                break;
            }
            if let Some(rest) = n.strip_prefix(name.as_str()) {
                inside |= rest.starts_with('[') || rest.starts_with('.');
            }
        }
        if exact {
            return None;
        }
        let d = if inside {
            let msg = format!("`{name}` in a Curve is an array or a record, not a scalar");
            CURVE_SCALAR.broken(e.span, msg, "here")
        } else {
            let msg = format!("`{name}` in a Curve is not a variable of the model");
            CURVE_VARIABLE.broken(e.span, msg, "here")
        };
        Some(d)
    }
}

/// The flat name `r` designates (`a.b[2,1].c`), where its subscripts are Integer literals.
fn literal_name(r: &ast::ComponentRef) -> Option<String> {
    let mut out = String::new();
    for (k, p) in r.parts.iter().enumerate() {
        if k > 0 {
            out.push('.');
        }
        out.push_str(&p.ident.name);
        if p.subscripts.is_empty() {
            continue;
        }
        let subs: Option<Vec<String>> = p
            .subscripts
            .iter()
            .map(|s| match s {
                ast::Subscript::Expr(ast::Expr {
                    kind: ast::ExprKind::Integer(n),
                    ..
                }) => Some(n.to_string()),
                _ => None,
            })
            .collect();
        out.push_str(&format!("[{}]", subs?.join(",")));
    }
    Some(out)
}

/// The variables the `interaction` arrays of a class's layers (`Icon`, `Diagram`) and of
/// their graphic primitives change, named from the class, with their references.
fn interaction_variables<'x>(
    args: impl IntoIterator<Item = &'x ast::Argument>,
) -> Vec<(String, &'x ast::Expr)> {
    let mut objects: Vec<&'x ast::Expr> = Vec::new();
    for (_, name, e) in section_values(args, &["Icon", "Diagram"]) {
        match name.as_str() {
            "interaction" => objects.push(e),
            "graphics" => any_calls(e, &mut |primitive| {
                named(primitive, "interaction", &mut |i| objects.push(i))
            }),
            _ => {}
        }
    }
    let mut out = Vec::new();
    for o in objects {
        any_calls(o, &mut |args| {
            let variable = args.positional.first().or_else(|| {
                args.named
                    .iter()
                    .find(|(n, _)| matches!(&*n.name, "variable" | "xVariable" | "yVariable"))
                    .map(|(_, e)| e)
            });
            if let Some(
                v @ ast::Expr {
                    kind: ast::ExprKind::Ref(r),
                    ..
                },
            ) = variable
            {
                if let Some(name) = literal_name(r) {
                    out.push((name, v));
                }
            }
        });
    }
    out
}

/// The elements `name = value` of the annotation sections named `sections`
/// (`experiment(StopTime = 1)`): section, element and value.
pub(super) fn section_values<'x>(
    args: impl IntoIterator<Item = &'x ast::Argument>,
    sections: &[&str],
) -> Vec<(String, String, &'x ast::Expr)> {
    let mut out = Vec::new();
    for arg in args {
        let ast::Argument::Modify(m) = arg else {
            continue;
        };
        let section = m.name.to_dotted();
        if !sections.contains(&section.as_str()) {
            continue;
        }
        let Some(cm) = m.modification.as_ref().and_then(|x| x.class_mod.as_ref()) else {
            continue;
        };
        for a in &cm.args {
            let ast::Argument::Modify(em) = a else {
                continue;
            };
            if let Some(ast::Binding::Expr(e)) =
                em.modification.as_ref().and_then(|x| x.binding.as_ref())
            {
                out.push((section.clone(), em.name.to_dotted(), e));
            }
        }
    }
    out
}

/// Each call `name(…)` of `e`, itself or an element of an array of them.
fn calls<'e>(e: &'e ast::Expr, name: &str, f: &mut dyn FnMut(&'e ast::CallArgs)) {
    match &e.kind {
        ast::ExprKind::Array(items) => {
            for i in items {
                calls(i, name, f);
            }
        }
        ast::ExprKind::Call(ast::CallTarget::Ref(r), args) if r.to_source_string() == name => {
            f(args)
        }
        _ => {}
    }
}

/// Each call of `e`, itself or an element of an array of them, whatever its name.
fn any_calls<'e>(e: &'e ast::Expr, f: &mut dyn FnMut(&'e ast::CallArgs)) {
    match &e.kind {
        ast::ExprKind::Array(items) => {
            for i in items {
                any_calls(i, f);
            }
        }
        ast::ExprKind::Call(ast::CallTarget::Ref(_), args) => f(args),
        _ => {}
    }
}

/// The argument `name = …` of a call.
fn named<'e>(args: &'e ast::CallArgs, name: &str, f: &mut dyn FnMut(&'e ast::Expr)) {
    for (n, e) in &args.named {
        if &*n.name == name {
            f(e);
        }
    }
}
