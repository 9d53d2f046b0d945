//! Say no: the rules of the Modelica specification (3.6) that a class's own text breaks.
//!
//! Input: a class of the class tree (its definition as written, the classes it names looked up
//! in the tree). Output: one located diagnostic per broken rule, whose help line quotes the rule
//! and its section; nothing is changed. The classes of the user's file are checked before
//! anything is instantiated (a file with an invalid class is refused whole, as a compiler
//! refuses a file that does not type-check); a library's classes when the model first uses them.
//!
//! What is here is what the text of one class decides: what each specialized class may contain
//! (§4.6), which kinds may extend which (§7.1.3), prefixes (§4.4.2.2, §9.3, §15.1), reserved
//! names (§2.3.3, §4.8), where statements and equations may stand (§8.3, §11.2, §12.1–12.2),
//! the forms of operator classes (§14) and of the standard annotations (§18). Rules that need
//! the instance tree (types of expressions, connection sets) are checked where flattening
//! meets them. `book/src/rules.md` lists every rule, checked or not, with its test.

mod annotations;
mod constraining;
mod inheritance;
mod operators;
mod restrictions;
mod statements;
pub(super) mod typed;

use super::classes::{ClassId, ClassTree, Found};
use crate::diag::{Diagnostic, Span};
use crate::syntax::ast;

/// One rule of the specification: where it stands, the diagnostic code it reports under and
/// the rule in a sentence (the help line of its diagnostic).
#[derive(Clone, Copy, Debug)]
pub(super) struct Rule {
    pub section: &'static str,
    pub code: &'static str,
    pub text: &'static str,
}

impl Rule {
    /// The rule broken at `span`.
    pub fn broken(&self, span: Span, message: impl Into<String>, label: &str) -> Diagnostic {
        Diagnostic::error(self.code, message)
            .at(span, label.to_string())
            .help(format!("Modelica 3.6 §{}: {}", self.section, self.text))
    }
}

/// The checks of one class: the tree to look names up in and what was found.
struct Checker<'t, 'a> {
    tree: &'t mut ClassTree<'a>,
    class: ClassId,
    /// A class of a library the model uses, not of the user's file: a rule the MSL itself
    /// breaks is a warning there (see `pure_body`).
    library: bool,
    diags: Vec<Diagnostic>,
    /// The function class each call name (global, dotted) finds from this class: a name is
    /// looked up once however often the class calls it.
    called: rustc_hash::FxHashMap<(bool, String), Option<ClassId>>,
}

/// Checks the rules of [this module](self) on `class` (not on its nested classes); `library`
/// when it is a library's class rather than one of the user's file.
pub(super) fn check_class(
    tree: &mut ClassTree<'_>,
    class: ClassId,
    library: bool,
) -> Vec<Diagnostic> {
    let Some(def) = tree.info(class).def else {
        return Vec::new();
    };
    let mut c = Checker {
        tree,
        class,
        library,
        diags: Vec::new(),
        called: Default::default(),
    };
    c.class_rules(def);
    c.inheritance_rules(def);
    c.statement_rules(def);
    c.annotation_rules(def);
    c.diags
}

/// `class` and every class declared inside it, depth first.
pub(super) fn with_nested(tree: &ClassTree<'_>, class: ClassId, out: &mut Vec<ClassId>) {
    out.push(class);
    let mut children: Vec<ClassId> = tree.info(class).children.values().copied().collect();
    children.sort();
    for c in children {
        with_nested(tree, c, out);
    }
}

impl Checker<'_, '_> {
    fn report(&mut self, d: Diagnostic) {
        self.diags.push(d);
    }

    /// Reports a rule a library (the MSL) itself breaks: refused in the user's classes, a
    /// warning in a library's.
    fn report_lenient(&mut self, mut d: Diagnostic) {
        if self.library {
            d.severity = crate::diag::Severity::Warning;
        }
        self.diags.push(d);
    }

    /// The function class a call names from this class, and its name as written.
    fn called_class(&mut self, r: &ast::ComponentRef) -> Option<(ClassId, String)> {
        let name = ast::Name {
            global: r.global,
            parts: r.parts.iter().map(|p| p.ident.clone()).collect(),
            span: r.span,
        };
        let dotted = name.to_dotted();
        let key = (r.global, dotted.clone());
        if let Some(&k) = self.called.get(&key) {
            return k.map(|k| (k, dotted));
        }
        let k = match self.tree.lookup_name(self.class, &name) {
            Some(Found::Class(k)) => Some(k),
            _ => None,
        };
        self.called.insert(key, k);
        k.map(|k| (k, dotted))
    }

    /// The restriction of the class `name` denotes from this class, with `None` for the
    /// predefined types (which count as `type`) and names that find no class.
    fn restriction_of(&mut self, name: &ast::Name) -> Option<Kind> {
        match self.tree.lookup_name(self.class, name)? {
            Found::Class(k) => Some(self.kind(k)),
            Found::Component { .. } => None,
        }
    }

    fn kind(&mut self, k: ClassId) -> Kind {
        let info = self.tree.info(k);
        match info.def {
            None => Kind::Type,
            Some(def) => match &def.body {
                ast::ClassBody::Enumeration { .. } => Kind::Type,
                _ => Kind::Class(def.restriction),
            },
        }
    }
}

/// What kind of class a name denotes: a predefined type or enumeration, or a class with its
/// restriction.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    Type,
    Class(ast::Restriction),
}

impl Kind {
    fn restriction(self) -> ast::Restriction {
        match self {
            Kind::Type => ast::Restriction::Type,
            Kind::Class(r) => r,
        }
    }
}

/// The argument expressions of a call.
fn call_exprs<'x>(args: &'x ast::CallArgs, out: &mut Vec<&'x ast::Expr>) {
    out.extend(args.positional.iter());
    out.extend(args.named.iter().map(|(_, e)| e));
    out.extend(args.iterators.iter().filter_map(|i| i.range.as_ref()));
}

/// Calls `f` on `e` and every expression inside it, subscripts included.
pub(in crate::flatten) fn each_expr<'x>(e: &'x ast::Expr, f: &mut dyn FnMut(&'x ast::Expr)) {
    use ast::ExprKind as K;
    f(e);
    let subscripts = |r: &'x ast::ComponentRef, f: &mut dyn FnMut(&'x ast::Expr)| {
        for p in &r.parts {
            for s in &p.subscripts {
                if let ast::Subscript::Expr(x) = s {
                    each_expr(x, f);
                }
            }
        }
    };
    match &e.kind {
        K::Integer(_) | K::Real(_) | K::Str(_) | K::Bool(_) | K::End | K::PartialApplication(_) => {
        }
        K::Ref(r) => subscripts(r, f),
        K::Call(target, args) => {
            if let ast::CallTarget::Ref(r) = target {
                subscripts(r, f);
            }
            let mut xs = Vec::new();
            call_exprs(args, &mut xs);
            for x in xs {
                each_expr(x, f);
            }
        }
        K::Unary(_, x) => each_expr(x, f),
        K::Binary(_, a, b) => {
            each_expr(a, f);
            each_expr(b, f);
        }
        K::If {
            branches,
            otherwise,
        } => {
            for (c, v) in branches {
                each_expr(c, f);
                each_expr(v, f);
            }
            each_expr(otherwise, f);
        }
        K::Range { start, step, stop } => {
            each_expr(start, f);
            if let Some(s) = step {
                each_expr(s, f);
            }
            each_expr(stop, f);
        }
        K::Array(xs) => xs.iter().for_each(|x| each_expr(x, f)),
        K::Comprehension(x, iters) => {
            each_expr(x, f);
            for i in iters {
                if let Some(r) = &i.range {
                    each_expr(r, f);
                }
            }
        }
        K::Matrix(rows) => rows.iter().flatten().for_each(|x| each_expr(x, f)),
        K::Tuple(xs) => xs.iter().flatten().for_each(|x| each_expr(x, f)),
        K::Subscripted(x, subs) => {
            each_expr(x, f);
            for s in subs {
                if let ast::Subscript::Expr(x) = s {
                    each_expr(x, f);
                }
            }
        }
    }
}

impl super::Flattener<'_, '_> {
    /// Checks a library class the model uses, once.
    pub(super) fn check_rules(&mut self, class: ClassId) {
        if self.checked_classes.insert(class) {
            let found = check_class(self.tree, class, true);
            self.diags.extend(found);
        }
    }
}
