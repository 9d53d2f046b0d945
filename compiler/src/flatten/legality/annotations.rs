//! The forms of the standard annotations (§18): `experiment`, `Evaluate`, `HideResult`,
//! `TestCase`, `DocumentationClass`, `preferredView`, `connectorSizing`, graphical annotations
//! on components, colours, coordinate-system extents, `DynamicSelect`, version strings and
//! dates. An annotation a tool may ignore still has to have the form the specification gives.

use super::{each_expr, Checker, Rule};
use crate::syntax::ast::{self, ExprKind as K};

const EXPERIMENT: Rule = Rule {
    section: "18.4",
    code: "annotation",
    text: "experiment takes StartTime, StopTime, Interval and Tolerance (and vendor-specific \
           __ names), each a number literal; Interval and Tolerance unsigned",
};
const ABSOLUTE_VALUE: Rule = Rule {
    section: "18.7",
    code: "annotation",
    text: "the absoluteValue annotation is only allowed on a simple type or a component of a \
           simple type",
};
const LITERAL_BOOLEAN: Rule = Rule {
    section: "18.3",
    code: "annotation",
    text: "the values of Evaluate, HideResult, TestCase(shouldPass), DocumentationClass and \
           connectorSizing are the literals false or true",
};
const CLASS_ONLY: Rule = Rule {
    section: "18.6",
    code: "annotation",
    text: "Icon, Diagram, Documentation and DocumentationClass annotations are only allowed \
           directly in classes",
};
const PREFERRED_VIEW: Rule = Rule {
    section: "18.7",
    code: "annotation",
    text: "preferredView is one of \"info\", \"diagram\", \"icon\" and \"text\"",
};
const CONNECTOR_SIZING: Rule = Rule {
    section: "18.7.1",
    code: "annotation",
    text: "a variable with connectorSizing = true is a scalar Integer parameter with the literal \
           default 0",
};
const COLOR: Rule = Rule {
    section: "18.6.1.2",
    code: "annotation",
    text: "a colour is three Integers from 0 to 255",
};
const EXTENT: Rule = Rule {
    section: "18.6.1.1",
    code: "annotation",
    text: "the first point of a coordinate system's extent is below and left of the second",
};
const CONNECTION_TEXT_INDEX: Rule = Rule {
    section: "18.6.4",
    code: "annotation",
    text: "the index of a connection's Text is one of the points of its Line (1, 2, 3, …; \
           negative numbers count from the end)",
};
const DYNAMIC_SELECT: Rule = Rule {
    section: "18.6.6",
    code: "annotation",
    text: "DynamicSelect takes exactly two arguments, the first a literal expression",
};
const VERSION: Rule = Rule {
    section: "18.8.1",
    code: "annotation",
    text: "a version is \"N{.N}\", \"N{.N} text\" or starts with a non-digit",
};
const DATE: Rule = Rule {
    section: "18.8.4",
    code: "annotation",
    text: "versionDate is \"YYYY-MM-DD\" and dateModified \"YYYY-MM-DD hh:mm:ssZ\"",
};
const PREFIXES: Rule = Rule {
    section: "18.7",
    code: "annotation",
    text: "defaultComponentPrefixes may contain inner, outer, replaceable, constant, parameter \
           and discrete",
};

const DIALOG: Rule = Rule {
    section: "18.7",
    code: "annotation",
    text: "a component has at most one of showStartAttribute, colorSelector, loadSelector, \
           saveSelector, directorySelector (without filter) and connectorSizing; a short \
           replaceable class's Dialog only tab, group, enable and groupImage",
};
const FIGURES: Rule = Rule {
    section: "18.2.2",
    code: "annotation",
    text: "the identifiers of a class's figures are unique, and those of a figure's plots; a \
           percent sign in a figure's texts is written %%",
};

const TEXT_PARAMETER: Rule = Rule {
    section: "18.6.5.5",
    code: "annotation",
    text: "%par and %{par} in a Text primitive's textString name a parameter of the class; \
           if the parameter does not exist it is an error",
};

/// The names `%par` and `%{par}` of a Text's string stand for (`%%`, `%name`, `%class` and
/// the markup `%(…)` aside; of `%{a.b}` the first part).
fn text_parameters(s: &str) -> Vec<&str> {
    let b = s.as_bytes();
    let ident = |c: u8| c.is_ascii_alphanumeric() || c == b'_';
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        if b[i] != b'%' {
            i += 1;
            continue;
        }
        match b.get(i + 1) {
            Some(b'%') => i += 2,
            Some(b'{') => {
                let start = i + 2;
                let mut j = start;
                while j < b.len() && ident(b[j]) {
                    j += 1;
                }
                if j > start && b.get(j).is_some_and(|c| b".[}".contains(c)) {
                    out.push(&s[start..j]);
                }
                i = j;
            }
            Some(c) if c.is_ascii_alphabetic() || *c == b'_' => {
                let start = i + 1;
                let mut j = start;
                while j < b.len() && ident(b[j]) {
                    j += 1;
                }
                let name = &s[start..j];
                if name != "name" && name != "class" {
                    out.push(name);
                }
                i = j;
            }
            _ => i += 1,
        }
    }
    out
}

/// The argument `name` of an annotation and its value.
fn arg<'x>(
    cm: &'x ast::ClassMod,
    name: &str,
) -> Option<(&'x ast::ElementModification, Option<&'x ast::Expr>)> {
    cm.args.iter().find_map(|a| match a {
        ast::Argument::Modify(em) if em.name.to_dotted() == name => Some((&**em, value(em))),
        _ => None,
    })
}

fn value(em: &ast::ElementModification) -> Option<&ast::Expr> {
    match em.modification.as_ref()?.binding.as_ref()? {
        ast::Binding::Expr(e) => Some(e),
        ast::Binding::Break(_) => None,
    }
}

fn is_bool_literal(e: Option<&ast::Expr>) -> bool {
    matches!(
        e,
        Some(ast::Expr {
            kind: K::Bool(_),
            ..
        })
    )
}

fn number(e: &ast::Expr) -> Option<f64> {
    match &e.kind {
        K::Integer(i) => Some(*i as f64),
        K::Real(x) => Some(*x),
        _ => None,
    }
}

fn signed_number(e: &ast::Expr) -> Option<f64> {
    match &e.kind {
        K::Unary(ast::UnaryOp::Neg, x) => number(x).map(|v| -v),
        K::Unary(ast::UnaryOp::Plus, x) => number(x),
        _ => number(e),
    }
}

/// A literal expression: numbers, strings, Booleans, enumeration literals and arrays of them.
fn is_literal(e: &ast::Expr) -> bool {
    match &e.kind {
        K::Integer(_) | K::Real(_) | K::Str(_) | K::Bool(_) => true,
        K::Unary(ast::UnaryOp::Neg | ast::UnaryOp::Plus, x) => number(x).is_some(),
        K::Ref(r) => r.parts.len() >= 2,
        K::Array(xs) => xs.iter().all(is_literal),
        K::Matrix(rows) => rows.iter().flatten().all(is_literal),
        _ => false,
    }
}

fn string(e: Option<&ast::Expr>) -> Option<&str> {
    match e {
        Some(ast::Expr {
            kind: K::Str(s), ..
        }) => Some(s),
        _ => None,
    }
}

fn digits(s: &str, n: usize) -> bool {
    s.len() == n && s.bytes().all(|b| b.is_ascii_digit())
}

/// `YYYY-MM-DD`.
fn is_date(s: &str) -> bool {
    let p: Vec<&str> = s.split('-').collect();
    p.len() == 3 && digits(p[0], 4) && digits(p[1], 2) && digits(p[2], 2)
}

/// `YYYY-MM-DD hh:mm:ssZ`.
fn is_date_time(s: &str) -> bool {
    let Some((d, t)) = s.split_once(' ') else {
        return false;
    };
    let Some(t) = t.strip_suffix('Z') else {
        return false;
    };
    let p: Vec<&str> = t.split(':').collect();
    is_date(d) && p.len() == 3 && p.iter().all(|x| digits(x, 2))
}

/// An identifier already in `seen` (two `what` identified alike), else noted there.
fn repeated(
    seen: &mut Vec<String>,
    (id, span): (String, crate::diag::Span),
    what: &str,
) -> Option<crate::diag::Diagnostic> {
    if seen.contains(&id) {
        let msg = format!("two {what} are identified as \"{id}\"");
        return Some(FIGURES.broken(span, msg, "second"));
    }
    seen.push(id);
    None
}

/// A `%` that starts neither `%%` nor a macro (`%name`, `%{name}`, `%(variable:v)`).
fn bare_percent(s: &str) -> bool {
    let b = s.as_bytes();
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'%' {
            match b.get(i + 1) {
                Some(b'%') => i += 1,
                Some(c) if c.is_ascii_alphabetic() || b"_{([".contains(c) => {}
                _ => return true,
            }
        }
        i += 1;
    }
    false
}

/// "N{.N}", "N{.N} text", or anything starting with a non-digit.
fn is_version(s: &str) -> bool {
    if !s.starts_with(|c: char| c.is_ascii_digit()) {
        return true;
    }
    let head = s.split_once(' ').map_or(s, |(h, _)| h);
    head.split('.')
        .all(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()))
}

impl Checker<'_, '_> {
    pub(super) fn annotation_rules(&mut self, def: &ast::ClassDef) {
        let class_ann = match &def.body {
            ast::ClassBody::Long { composition, .. } => composition.annotation.as_ref(),
            _ => def.description.annotation.as_ref(),
        };
        if let Some(cm) = class_ann {
            self.class_annotation(cm);
            self.graphics(cm);
            if !def.partial {
                self.text_parameters(cm);
            }
            let short = matches!(def.body, ast::ClassBody::Short { .. });
            if short && self.declared_replaceable(self.class) {
                self.short_replaceable_dialog(cm);
            }
        }
        let ast::ClassBody::Long { composition, .. } = &def.body else {
            return;
        };
        self.connection_texts(&composition.equations);
        for e in &composition.elements {
            let ast::Element::Component(clause, _) = e else {
                continue;
            };
            for decl in &clause.components {
                if let Some(cm) = &decl.description.annotation {
                    self.component_annotation(clause, decl, cm);
                    self.graphics(cm);
                }
            }
        }
    }

    fn class_annotation(&mut self, cm: &ast::ClassMod) {
        if let Some((em, _)) = arg(cm, "experiment") {
            self.experiment(em);
        }
        for name in ["DocumentationClass"] {
            if let Some((em, v)) = arg(cm, name) {
                if !matches!(
                    v,
                    Some(ast::Expr {
                        kind: K::Bool(true),
                        ..
                    })
                ) {
                    let msg = "DocumentationClass must be `= true`";
                    self.report(LITERAL_BOOLEAN.broken(em.span, msg, "here"));
                }
            }
        }
        if let Some((em, v)) = arg(cm, "preferredView") {
            if !matches!(string(v), Some("info" | "diagram" | "icon" | "text")) {
                let msg = "preferredView is not one of \"info\", \"diagram\", \"icon\", \"text\"";
                self.report(PREFERRED_VIEW.broken(em.span, msg, "here"));
            }
        }
        if let Some((em, _)) = arg(cm, "TestCase") {
            let inner = em.modification.as_ref().and_then(|m| m.class_mod.as_ref());
            let ok = inner.is_some_and(|c| {
                c.args.len() == 1 && arg(c, "shouldPass").is_some_and(|(_, v)| is_bool_literal(v))
            });
            if !ok {
                let msg = "TestCase must have the form TestCase(shouldPass = false|true)";
                self.report(LITERAL_BOOLEAN.broken(em.span, msg, "here"));
            }
        }
        if let Some(doc) = arg(cm, "Documentation")
            .and_then(|(em, _)| em.modification.as_ref()?.class_mod.as_ref())
        {
            if let Some((_, Some(figs))) = arg(doc, "figures") {
                self.figures(figs);
            }
        }
        if let Some((em, v)) = arg(cm, "version") {
            if string(v).is_some_and(|s| !is_version(s)) {
                let msg = "the version string has not the form \"N{.N}\" or \"N{.N} text\"";
                self.report(VERSION.broken(em.span, msg, "here"));
            }
        }
        if let Some((em, v)) = arg(cm, "defaultComponentPrefixes") {
            let allowed = [
                "inner",
                "outer",
                "replaceable",
                "constant",
                "parameter",
                "discrete",
            ];
            let other = string(v).and_then(|s| {
                s.split_whitespace()
                    .find(|w| !allowed.contains(w))
                    .map(str::to_string)
            });
            // In the user's classes only: the MSL 4.1 writes "output" (the machines' power
            // balances) and "protected" itself, and a hint to a diagram editor changes nothing
            // in a run, so a warning on every machine example would only be noise.
            if let Some(w) = other.filter(|_| !self.library) {
                let msg = format!(
                    "`{w}` in defaultComponentPrefixes, which may contain only inner, outer, \
                     replaceable, constant, parameter and discrete"
                );
                self.report(PREFIXES.broken(em.span, msg, "here"));
            }
        }
        if let Some((em, v)) = arg(cm, "versionDate") {
            if string(v).is_some_and(|s| !is_date(s)) {
                let msg = "versionDate is not of the form \"YYYY-MM-DD\"";
                self.report(DATE.broken(em.span, msg, "here"));
            }
        }
        if let Some((em, v)) = arg(cm, "dateModified") {
            if string(v).is_some_and(|s| !is_date_time(s)) {
                let msg = "dateModified is not of the form \"YYYY-MM-DD hh:mm:ssZ\"";
                self.report(DATE.broken(em.span, msg, "here"));
            }
        }
    }

    fn experiment(&mut self, em: &ast::ElementModification) {
        let Some(cm) = em.modification.as_ref().and_then(|m| m.class_mod.as_ref()) else {
            return;
        };
        for a in &cm.args {
            let ast::Argument::Modify(m) = a else {
                continue;
            };
            let name = m.name.to_dotted();
            if name.starts_with("__") {
                continue;
            }
            let v = value(m);
            let ok = match name.as_str() {
                "StartTime" | "StopTime" => v.is_some_and(|e| signed_number(e).is_some()),
                "Interval" | "Tolerance" => v.is_some_and(|e| number(e).is_some()),
                _ => {
                    let msg = format!("experiment has no option `{name}`");
                    self.report(EXPERIMENT.broken(m.span, msg, "here"));
                    continue;
                }
            };
            if !ok {
                let msg = format!("experiment's {name} is not a number literal");
                self.report(EXPERIMENT.broken(m.span, msg, "here"));
            }
        }
    }

    fn component_annotation(
        &mut self,
        clause: &ast::ComponentClause,
        decl: &ast::ComponentDecl,
        cm: &ast::ClassMod,
    ) {
        for name in ["Evaluate", "HideResult"] {
            if let Some((em, v)) = arg(cm, name) {
                if !is_bool_literal(v) {
                    let msg = format!("the value of {name} is not the literal false or true");
                    self.report(LITERAL_BOOLEAN.broken(em.span, msg, "here"));
                }
            }
        }
        for name in ["Icon", "Diagram", "Documentation", "DocumentationClass"] {
            if let Some((em, _)) = arg(cm, name) {
                let msg = format!("a {name} annotation on the component `{}`", decl.name.name);
                self.report(CLASS_ONLY.broken(em.span, msg, "here"));
            }
        }
        if let Some((em, _)) = arg(cm, "absoluteValue") {
            let simple = match self.restriction_of(&clause.type_name) {
                Some(k) => k.restriction() == ast::Restriction::Type,
                None => true,
            };
            if !simple {
                let msg = format!(
                    "absoluteValue on `{}`, whose class `{}` is not a simple type",
                    decl.name.name,
                    clause.type_name.to_dotted()
                );
                self.report(ABSOLUTE_VALUE.broken(em.span, msg, "here"));
            }
        }
        self.dialog_selectors(cm);
        let Some((em, Some(v))) = arg(cm, "Dialog")
            .and_then(|(em, _)| em.modification.as_ref()?.class_mod.as_ref())
            .and_then(|c| arg(c, "connectorSizing"))
        else {
            return;
        };
        if !is_bool_literal(Some(v)) {
            let msg = "the value of connectorSizing is not the literal false or true";
            self.report(LITERAL_BOOLEAN.broken(em.span, msg, "here"));
            return;
        }
        if !matches!(v.kind, K::Bool(true)) {
            return;
        }
        let zero = matches!(
            decl.modification.as_ref().and_then(|m| m.binding.as_ref()),
            Some(ast::Binding::Expr(ast::Expr {
                kind: K::Integer(0),
                ..
            }))
        );
        let ok = clause.prefix.variability == Some(ast::Variability::Parameter)
            && clause.type_name.to_dotted() == "Integer"
            && clause.subscripts.is_empty()
            && decl.subscripts.is_empty()
            && zero;
        if !ok {
            let msg = format!(
                "`{}` has connectorSizing = true but is not a scalar Integer parameter = 0",
                decl.name.name
            );
            self.report(CONNECTOR_SIZING.broken(decl.name.span, msg, "declared here"));
        }
    }

    /// At most one selector in a component's `Dialog`, and a directory selector without filter.
    fn dialog_selectors(&mut self, cm: &ast::ClassMod) {
        let Some((_, dialog)) = arg(cm, "Dialog")
            .and_then(|(em, _)| Some((em, em.modification.as_ref()?.class_mod.as_ref()?)))
        else {
            return;
        };
        let mut selectors = 0;
        for name in ["showStartAttribute", "colorSelector", "connectorSizing"] {
            if matches!(
                arg(dialog, name),
                Some((
                    _,
                    Some(ast::Expr {
                        kind: K::Bool(true),
                        ..
                    })
                ))
            ) {
                selectors += 1;
            }
        }
        for name in ["loadSelector", "saveSelector", "directorySelector"] {
            if let Some((em, _)) = arg(dialog, name) {
                selectors += 1;
                let inner = em.modification.as_ref().and_then(|m| m.class_mod.as_ref());
                if name == "directorySelector" && inner.is_some_and(|c| arg(c, "filter").is_some())
                {
                    let msg = "a directorySelector with a filter";
                    self.report(DIALOG.broken(em.span, msg, "here"));
                }
            }
        }
        if selectors > 1 {
            let msg = format!("{selectors} selectors in one Dialog");
            self.report(DIALOG.broken(dialog.span, msg, "here"));
        }
    }

    fn short_replaceable_dialog(&mut self, cm: &ast::ClassMod) {
        let Some(dialog) =
            arg(cm, "Dialog").and_then(|(em, _)| em.modification.as_ref()?.class_mod.as_ref())
        else {
            return;
        };
        for a in &dialog.args {
            if let ast::Argument::Modify(em) = a {
                let name = em.name.to_dotted();
                if !matches!(name.as_str(), "tab" | "group" | "enable" | "groupImage") {
                    let msg = format!("`{name}` in the Dialog of a short replaceable class");
                    self.report(DIALOG.broken(em.span, msg, "here"));
                }
            }
        }
    }

    /// Unique figure and plot identifiers, and `%%` for a percent sign in their texts.
    fn figures(&mut self, figs: &ast::Expr) {
        let K::Array(items) = &figs.kind else {
            return;
        };
        let named = |e: &'_ ast::Expr, n: &str| -> Option<(String, crate::diag::Span)> {
            let K::Call(_, args) = &e.kind else {
                return None;
            };
            args.named
                .iter()
                .find(|(k, _)| &*k.name == n)
                .and_then(|(_, v)| match &v.kind {
                    K::Str(s) => Some((s.clone(), v.span)),
                    _ => None,
                })
        };
        let mut seen: Vec<String> = Vec::new();
        for f in items {
            if let Some(d) = named(f, "identifier").and_then(|x| repeated(&mut seen, x, "figures"))
            {
                self.report(d);
            }
            let mut texts = Vec::new();
            each_expr(f, &mut |e| {
                if let K::Call(_, args) = &e.kind {
                    for (k, v) in &args.named {
                        if matches!(&*k.name, "title" | "caption" | "legend" | "label") {
                            if let K::Str(s) = &v.kind {
                                texts.push((s.clone(), v.span));
                            }
                        }
                    }
                }
            });
            for (t, span) in texts {
                if bare_percent(&t) {
                    let msg = "a percent sign not written %% in a figure's text";
                    self.report(FIGURES.broken(span, msg, "here"));
                }
            }
            let K::Call(_, args) = &f.kind else {
                continue;
            };
            let Some((_, plots)) = args.named.iter().find(|(k, _)| &*k.name == "plots") else {
                continue;
            };
            let K::Array(plots) = &plots.kind else {
                continue;
            };
            let mut ids: Vec<String> = Vec::new();
            for p in plots {
                if let Some(d) =
                    named(p, "identifier").and_then(|x| repeated(&mut ids, x, "plots of a figure"))
                {
                    self.report(d);
                }
            }
        }
    }

    /// Colours, extents and `DynamicSelect` anywhere in an annotation.
    /// 18.6.4: the `index` of a connection's `Text` designates one of the points of its
    /// `Line` (1, 2, …, or −1, −2, … from the end).
    fn connection_texts(&mut self, eqs: &[ast::Equation]) {
        for eq in eqs {
            match &eq.kind {
                ast::EquationKind::If {
                    branches,
                    otherwise,
                } => {
                    for (_, b) in branches {
                        self.connection_texts(b);
                    }
                    self.connection_texts(otherwise);
                }
                ast::EquationKind::For { body, .. } => self.connection_texts(body),
                ast::EquationKind::Connect(..) => {
                    if let Some(cm) = &eq.annotation {
                        self.connection_text(cm);
                    }
                }
                _ => {}
            }
        }
    }

    fn connection_text(&mut self, cm: &ast::ClassMod) {
        fn inner(em: &ast::ElementModification) -> Option<&ast::ClassMod> {
            em.modification.as_ref()?.class_mod.as_ref()
        }
        let Some(line) = arg(cm, "Line").and_then(|(em, _)| inner(em)) else {
            return;
        };
        let n = match arg(line, "points").and_then(|(_, v)| v).map(|v| &v.kind) {
            Some(K::Array(xs)) => xs.len(),
            Some(K::Matrix(rows)) => rows.len(),
            _ => return,
        };
        let Some(text) = arg(cm, "Text").and_then(|(em, _)| inner(em)) else {
            return;
        };
        let Some((em, Some(v))) = arg(text, "index") else {
            return;
        };
        let Some(k) = signed_number(v) else {
            return;
        };
        if k == 0.0 || k.fract() != 0.0 || k.abs() > n as f64 {
            let msg = format!("the Text's index {k} designates none of the Line's {n} points");
            self.report(CONNECTION_TEXT_INDEX.broken(em.span, msg, "index"));
        }
    }

    fn graphics(&mut self, cm: &ast::ClassMod) {
        for a in &cm.args {
            let ast::Argument::Modify(em) = a else {
                continue;
            };
            let name = em.name.to_dotted();
            if let Some(v) = value(em) {
                self.graphic_value(&name, v, em.span);
                let mut calls = Vec::new();
                each_expr(v, &mut |e| {
                    if let K::Call(ast::CallTarget::Ref(r), args) = &e.kind {
                        calls.push((r, args, e.span));
                    }
                });
                for (r, args, span) in calls {
                    if r.to_source_string() == "DynamicSelect" {
                        let ok = args.positional.len() == 2
                            && args.named.is_empty()
                            && is_literal(&args.positional[0]);
                        if !ok {
                            let msg = "DynamicSelect needs two arguments, the first a literal";
                            self.report(DYNAMIC_SELECT.broken(span, msg, "here"));
                        }
                    }
                    for (n, x) in &args.named {
                        self.graphic_value(&n.name, x, x.span);
                    }
                }
            }
            if let Some(inner) = em.modification.as_ref().and_then(|m| m.class_mod.as_ref()) {
                if name == "coordinateSystem" {
                    if let Some((em, Some(v))) = arg(inner, "extent") {
                        self.extent(v, em.span);
                    }
                }
                self.graphics(inner);
            }
        }
    }

    /// 18.6.5.5: the parameters the Text primitives of the class's layers name exist in it
    /// (declared there or inherited). A partial class is not judged: its icon may name a
    /// parameter its subclasses declare.
    fn text_parameters(&mut self, cm: &ast::ClassMod) {
        let mut texts: Vec<(&str, crate::diag::Span)> = Vec::new();
        let layers =
            crate::flatten::annotation_refs::section_values(&cm.args, &["Icon", "Diagram"]);
        for (_, name, graphics) in layers {
            if name != "graphics" {
                continue;
            }
            each_expr(graphics, &mut |e| {
                if let K::Call(ast::CallTarget::Ref(r), args) = &e.kind {
                    if r.to_source_string() == "Text" {
                        for (n, x) in &args.named {
                            if &*n.name == "textString" {
                                if let K::Str(t) = &x.kind {
                                    texts.push((t.as_str(), x.span));
                                }
                            }
                        }
                    }
                }
            });
        }
        for (t, span) in texts {
            for par in text_parameters(t) {
                if self.tree.member(self.class, par, 0).is_none() {
                    let msg = format!(
                        "the Text `{t}` names `%{par}`, which is not an element of the class"
                    );
                    self.report(TEXT_PARAMETER.broken(span, msg, "here"));
                }
            }
        }
    }

    fn graphic_value(&mut self, name: &str, v: &ast::Expr, span: crate::diag::Span) {
        if !matches!(name, "color" | "lineColor" | "fillColor") {
            return;
        }
        let K::Array(xs) = &v.kind else {
            return;
        };
        let out_of_range = xs.len() == 3
            && xs
                .iter()
                .any(|x| signed_number(x).is_some_and(|c| !(0.0..=255.0).contains(&c)));
        if out_of_range {
            let msg = format!("the colour {name} has a component outside 0..255");
            self.report(COLOR.broken(span, msg, "here"));
        }
    }

    fn extent(&mut self, v: &ast::Expr, span: crate::diag::Span) {
        let point = |e: &ast::Expr| match &e.kind {
            K::Array(xs) if xs.len() == 2 => Some((signed_number(&xs[0])?, signed_number(&xs[1])?)),
            _ => None,
        };
        let K::Array(ps) = &v.kind else {
            return;
        };
        if let [a, b] = &ps[..] {
            if let (Some((x1, y1)), Some((x2, y2))) = (point(a), point(b)) {
                if x1 >= x2 || y1 >= y2 {
                    let msg = "the coordinate system's extent has its corners the wrong way round";
                    self.report(EXTENT.broken(span, msg, "here"));
                }
            }
        }
    }
}
