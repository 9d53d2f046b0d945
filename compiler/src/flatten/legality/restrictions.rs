//! What each specialized class may contain (§4.6, §12.2, §14.1), which kinds of class may
//! extend which (§7.1.3), prefixes (§4.4.2.2, §8.6, §9.1.3, §9.3, §15.1), reserved names
//! (§2.3.3, §4.8, §4.8.5.1) and duplicate names (§4.2, §13.2.2).

use super::{Checker, ClassId, Kind, Rule};
use crate::syntax::ast::{self, Restriction as R};

const RESERVED_NAME: Rule = Rule {
    section: "4.8",
    code: "reserved-name",
    text: "the names Real, Integer, Boolean and String are reserved: no class, component or \
           enumeration literal may be named so",
};
const LITERAL_ATTRIBUTE: Rule = Rule {
    section: "4.8.5.1",
    code: "reserved-name",
    text: "the attribute names quantity, min, max, start and fixed cannot be enumeration literals",
};
const SECTIONS: Rule = Rule {
    section: "4.6",
    code: "restriction",
    text: "records and connectors have only public sections: no equation, algorithm or \
           protected sections; a package holds only classes and constants",
};
const DERIVED_FROM_CLASS: Rule = Rule {
    section: "7.1.3",
    code: "restriction",
    text: "a specialized class derived from a class still fulfils its own restrictions: a \
           record, connector or package has no equations or algorithms, a function no \
           equations",
};
const RECORD_PREFIX: Rule = Rule {
    section: "4.6",
    code: "restriction",
    text: "the elements of a record shall not have the prefixes input, output, inner, outer, \
           stream or flow; those of a connector not inner or outer",
};
const COMPONENT_KIND: Rule = Rule {
    section: "4.6",
    code: "restriction",
    text: "a record's components are records or types; a connector's are connectors, records \
           or types",
};
const TYPE_CONTENTS: Rule = Rule {
    section: "4.6",
    code: "restriction",
    text: "a type may only be a predefined type, an enumeration, an array of a type, or a class \
           extending from a type: it declares no components of its own",
};
const PACKAGE_CONTENTS: Rule = Rule {
    section: "4.6",
    code: "restriction",
    text: "a package may only contain declarations of classes and constants",
};
const OPERATOR_CONTENTS: Rule = Rule {
    section: "4.6",
    code: "restriction",
    text: "an operator may only contain declarations of functions",
};
const OPERATOR_PLACE: Rule = Rule {
    section: "4.6",
    code: "restriction",
    text: "an operator and an operator function may only be placed directly in an operator record",
};
const OPERATOR_ENCAPSULATED: Rule = Rule {
    section: "14.1",
    code: "operator",
    text: "an operator or operator function must be encapsulated",
};
const BASE_KIND: Rule = Rule {
    section: "7.1.3",
    code: "extends",
    text: "a class may only extend a class of a compatible kind (a package a package, a model a \
           model, block or record, a connector a connector, record or type, ...; any kind a class)",
};
const FUNCTION_PUBLIC: Rule = Rule {
    section: "12.2",
    code: "function",
    text: "only input and output formal parameters are allowed in the public section of a function",
};
const FUNCTION_ALGORITHMS: Rule = Rule {
    section: "12.2",
    code: "function",
    text: "a function has at most one algorithm section or one external function interface, \
           not both, and no equations",
};
const FUNCTION_INNER_OUTER: Rule = Rule {
    section: "12.2",
    code: "function",
    text: "the elements of a function shall not have the prefixes inner or outer",
};
const INPUT_PARAMETER: Rule = Rule {
    section: "4.4.2.2",
    code: "prefix",
    text: "an input or output variable cannot also be declared parameter or constant",
};
const PREFIX_ON_CLASS: Rule = Rule {
    section: "4.4.2.2",
    code: "prefix",
    text: "the type prefixes (flow, stream, discrete, parameter, constant, input, output) apply \
           only to components of types, records, operator records and connectors",
};
const FLOW_NOT_REAL: Rule = Rule {
    section: "4.4.2.2",
    code: "prefix",
    text: "flow and stream variables shall be subtypes of Real",
};
const STREAM_OUTSIDE_CONNECTOR: Rule = Rule {
    section: "15.1",
    code: "prefix",
    text: "the stream prefix can only be used in a connector declaration",
};
const FLOW_IN_EXPANDABLE: Rule = Rule {
    section: "9.1.3",
    code: "prefix",
    text: "an expandable connector shall not contain a component declared with the prefix flow",
};
const PARAMETER_CONNECTOR: Rule = Rule {
    section: "9.3",
    code: "prefix",
    text: "a component of a connector class shall not be declared parameter or constant",
};
const CONSTANT_FIXED_FALSE: Rule = Rule {
    section: "8.6",
    code: "prefix",
    text: "fixed = false is not allowed on a constant",
};
const STREAM_ONE_FLOW: Rule = Rule {
    section: "15.1",
    code: "prefix",
    text: "a connector with stream variables has exactly one flow variable, a scalar",
};
const DER_CLASS: Rule = Rule {
    section: "12.7.2",
    code: "function",
    text: "a partial-derivative class der(f, x) is a function",
};
const EXTERNAL_ARGUMENTS: Rule = Rule {
    section: "12.9",
    code: "external",
    text: "the arguments of an external function call are component references, scalar \
           constants and size(array, constant)",
};
const IMPORT_FROM_PACKAGE: Rule = Rule {
    section: "13.2.1",
    code: "import",
    text: "an import refers to a package or an element of a package",
};
const MODIFIED_TWICE: Rule = Rule {
    section: "7.2.4",
    code: "modification",
    text: "two arguments of a modification shall not modify the same element, attribute or \
           description",
};
const NON_REPLACEABLE: Rule = Rule {
    section: "7.1.4",
    code: "replaceable",
    text: "the class names after extends and constrainedby, and the type of a replaceable \
           component without constrainedby, are transitively non-replaceable",
};
const EXTEND_OPERATOR_RECORD: Rule = Rule {
    section: "4.6",
    code: "extends",
    text: "an operator record is extended only by a short class definition (an operator record \
           or a connector)",
};
const EXTEND_ENCLOSING_OPERATOR_RECORD: Rule = Rule {
    section: "4.6",
    code: "extends",
    text: "no class extends an enclosing scope of an operator record",
};
const EQUALITY_CONSTRAINT: Rule = Rule {
    section: "9.4.1",
    code: "connections",
    text: "the equalityConstraint function of an overdetermined type or record T has the \
           prototype `input T T1; input T T2; output Real residue[n];`, n a constant Integer \
           expression >= 0",
};
const OVERDETERMINED_FLOW: Rule = Rule {
    section: "9.4.1",
    code: "prefix",
    text: "an overdetermined type or record (one with an equalityConstraint function) may not \
           be the type of a flow component",
};
const BLOCK_CONNECTOR: Rule = Rule {
    section: "4.6",
    code: "restriction",
    text: "each public connector component of a block must have the prefixes input and/or \
           output for all its connector variables",
};
const INNER_INPUTS: Rule = Rule {
    section: "4.7",
    code: "outer",
    text: "an inner or outer component shall not be of a class having top-level public \
           connectors containing inputs",
};
const VALUE_AND_PART: Rule = Rule {
    section: "7.2.4",
    code: "modification",
    text: "a modification may not give both a value for a whole component and a value for a \
           part of it (r = R(), r(y = 2)); attributes of it or of its parts may be modified",
};
const EXTENDS_IMPURE: Rule = Rule {
    section: "12.3",
    code: "function",
    text: "if a function is declared impure, any function extending from it shall be \
           declared impure",
};
const CAUSAL_STRUCTURED: Rule = Rule {
    section: "4.4.2.2",
    code: "prefix",
    text: "when input or output is applied to a structured component, none of its elements has \
           input, output or flow",
};
const PROTECTED_CLASS: Rule = Rule {
    section: "4.1",
    code: "protected",
    text: "protected elements cannot be accessed via dot notation",
};
const QUOTED_CONTROL: Rule = Rule {
    section: "2.3.1",
    code: "syntax",
    text: "control characters in a quoted identifier are written as escape sequences",
};
const INPUT_DEFAULT: Rule = Rule {
    section: "12.4.1",
    code: "function",
    text: "default values of inputs shall not depend on non-input variables of the function",
};
const DESCRIBED_TWICE: Rule = Rule {
    section: "7.3.2.1",
    code: "constrainedby",
    text: "description and annotation on the constraining-clause apply to the entire \
           declaration; it is an error if they also appear on the definition",
};
const COMPONENT_AND_CLASS: Rule = Rule {
    section: "4.2",
    code: "duplicate",
    text: "a class's components and local classes all have different names",
};
const IMPORT_TWICE: Rule = Rule {
    section: "13.2.2",
    code: "duplicate",
    text: "two imports of one class shall not introduce the same short name",
};

const RESERVED: [&str; 4] = ["Real", "Integer", "Boolean", "String"];

/// Whether a class of restriction `derived` may extend one of kind `base` (the table of §7.1.3).
fn may_extend(derived: R, base: Kind) -> bool {
    let b = base.restriction();
    if b == R::Class {
        return true;
    }
    match derived {
        R::Package => b == R::Package,
        R::Operator => b == R::Operator,
        R::Function => b == R::Function,
        R::OperatorFunction => matches!(b, R::Function | R::OperatorFunction),
        R::Type => b == R::Type,
        R::Record => b == R::Record,
        R::OperatorRecord => b == R::OperatorRecord,
        R::ExpandableConnector => b == R::ExpandableConnector,
        R::Connector => matches!(b, R::Type | R::Record | R::OperatorRecord | R::Connector),
        R::Block => matches!(b, R::Record | R::Block),
        R::Model => matches!(b, R::Record | R::Block | R::Model),
        R::Class => false,
    }
}

impl<'a> Checker<'_, 'a> {
    pub(super) fn class_rules(&mut self, def: &ast::ClassDef) {
        if RESERVED.contains(&&*def.name.name) {
            let msg = format!("a class cannot be named `{}`", def.name.name);
            self.report(RESERVED_NAME.broken(def.name.span, msg, "reserved name"));
        }
        self.quoted_name(&def.name);
        self.placement(def);
        match &def.body {
            ast::ClassBody::Enumeration { literals, .. } => {
                for (lit, _) in literals {
                    let name = &*lit.name;
                    if RESERVED.contains(&name) {
                        let msg = format!("an enumeration literal cannot be named `{name}`");
                        self.report(RESERVED_NAME.broken(lit.span, msg, "reserved name"));
                    } else if ["quantity", "min", "max", "start", "fixed"].contains(&name) {
                        let msg = format!("an enumeration literal cannot be named `{name}`");
                        self.report(LITERAL_ATTRIBUTE.broken(lit.span, msg, "an attribute's name"));
                    }
                }
            }
            ast::ClassBody::Short {
                base, modification, ..
            } => {
                self.base_kind(def, base);
                if let Some(cm) = modification {
                    self.modified_once(cm);
                }
            }
            ast::ClassBody::Der { base, .. } => {
                if !matches!(def.restriction, R::Function) {
                    let msg = format!(
                        "{} `{}` is der(…) of a function but not a function",
                        def.restriction.keyword(),
                        def.name.name
                    );
                    self.report(DER_CLASS.broken(base.span, msg, "here"));
                }
            }
            ast::ClassBody::Long { composition, .. } => self.composition_rules(def, composition),
        }
    }

    /// Operators and operator functions stand directly in an operator record, encapsulated.
    fn placement(&mut self, def: &ast::ClassDef) {
        if !matches!(def.restriction, R::Operator | R::OperatorFunction) {
            return;
        }
        let parent = self.tree.info(self.class).parent;
        let in_operator_record =
            parent.is_some_and(|p| self.tree.info(p).restriction() == Some(R::OperatorRecord));
        let kw = def.restriction.keyword();
        if !in_operator_record {
            let msg = format!(
                "{kw} `{}` is not declared in an operator record",
                def.name.name
            );
            self.report(OPERATOR_PLACE.broken(def.name.span, msg, "here"));
        }
        if !def.encapsulated {
            let msg = format!("{kw} `{}` is not encapsulated", def.name.name);
            self.report(OPERATOR_ENCAPSULATED.broken(def.name.span, msg, "here"));
        }
    }

    /// The classes the leading parts of `name` denote (`A`, `A.B`, `A.B.C`), up to the first
    /// that is not a class. A last part stored in a file not read yet is left out: it is
    /// public and not replaceable, and reading it only for this would load classes the
    /// model may never instantiate (a disabled conditional component's).
    fn class_prefixes(&mut self, name: &ast::Name) -> Vec<(ast::Name, ClassId)> {
        let mut out: Vec<(ast::Name, ClassId)> = Vec::new();
        for k in 1..=name.parts.len() {
            if k == name.parts.len() && k > 1 {
                let holder = out.last().map(|(_, c)| *c);
                if holder.is_some_and(|h| self.tree.is_unread_file(h, &name.parts[k - 1].name)) {
                    break;
                }
            }
            let head = ast::Name {
                global: name.global,
                parts: name.parts[..k].to_vec(),
                span: name.span,
            };
            let Some(super::Found::Class(c)) = self.tree.lookup_name(self.class, &head) else {
                break;
            };
            out.push((head, c));
        }
        out
    }

    /// A control character inside a quoted identifier (`'a<TAB>b'`).
    fn quoted_name(&mut self, id: &ast::Ident) {
        if id.name.starts_with('\'') && id.name.chars().any(|c| c.is_control()) {
            let msg = format!(
                "the quoted identifier {:?} holds a control character",
                id.name
            );
            self.report(QUOTED_CONTROL.broken(id.span, msg, "here"));
        }
    }

    /// No part of `name` after the first is a class protected in the class before it, unless
    /// this class is inside that one.
    fn not_protected_path(&mut self, name: &ast::Name) {
        for (head, c) in self.class_prefixes(name).into_iter().skip(1) {
            let Some(holder) = self.tree.info(c).parent else {
                return;
            };
            let mut inside = Some(self.class);
            while let Some(x) = inside {
                if x == holder {
                    return;
                }
                inside = self.tree.info(x).parent;
            }
            let protected = self.tree.info(holder).composition().is_some_and(|comp| {
                comp.elements.iter().any(|e| {
                    matches!(e, ast::Element::Class(d, p)
                        if p.protected && d.name.name == self.tree.info(c).name)
                })
            });
            if protected {
                let msg = format!("`{}` is a protected class", head.to_dotted());
                self.report(PROTECTED_CLASS.broken(name.span, msg, "protected"));
                return;
            }
        }
    }

    fn base_kind(&mut self, def: &ast::ClassDef, base: &ast::Name) {
        self.not_protected_path(base);
        let Some(kind) = self.restriction_of(base) else {
            return;
        };
        if !may_extend(def.restriction, kind) {
            let msg = format!(
                "{} `{}` cannot extend {} `{}`",
                def.restriction.keyword(),
                def.name.name,
                kind.restriction().keyword(),
                base.to_dotted()
            );
            self.report(BASE_KIND.broken(base.span, msg, "base class"));
            return;
        }
        // A class of another kind that extends a plain `class` keeps its own restrictions
        // (7.1.3): what the base brings is judged as if written here.
        if kind == Kind::Class(R::Class) {
            if let Some(super::Found::Class(b)) = self.tree.lookup_name(self.class, base) {
                if let Some(what) = self.inherited_sections(b, def.restriction, 0) {
                    let msg = format!(
                        "{} `{}` extends class `{}`, which has {what}",
                        def.restriction.keyword(),
                        def.name.name,
                        base.to_dotted()
                    );
                    self.report(DERIVED_FROM_CLASS.broken(base.span, msg, "base class"));
                }
            }
        }
    }

    /// The equations or algorithms that `class` `b` (and the plain classes it extends) brings
    /// into a class of restriction `r` that may not have them.
    fn inherited_sections(&mut self, b: ClassId, r: R, depth: u32) -> Option<&'static str> {
        if depth > 32 {
            return None;
        }
        let no_equations = matches!(
            r,
            R::Record
                | R::OperatorRecord
                | R::Connector
                | R::ExpandableConnector
                | R::Package
                | R::Function
        );
        let no_algorithms = matches!(
            r,
            R::Record | R::OperatorRecord | R::Connector | R::ExpandableConnector | R::Package
        );
        if let Some(comp) = self.tree.info(b).composition() {
            if no_equations && (!comp.equations.is_empty() || !comp.initial_equations.is_empty()) {
                return Some("equations");
            }
            if no_algorithms && !comp.algorithms.is_empty() {
                return Some("algorithm sections");
            }
        }
        for base in self.tree.bases(b) {
            if self.tree.info(base).restriction() == Some(R::Class) {
                if let Some(what) = self.inherited_sections(base, r, depth + 1) {
                    return Some(what);
                }
            }
        }
        None
    }

    fn composition_rules(&mut self, def: &ast::ClassDef, comp: &ast::Composition) {
        let r = def.restriction;
        let has_equations = !comp.equations.is_empty() || !comp.initial_equations.is_empty();
        let sections_banned = matches!(
            r,
            R::Record | R::OperatorRecord | R::Connector | R::ExpandableConnector
        );
        if (sections_banned || r == R::Package || r == R::Function) && has_equations {
            let span = comp.equations.first().or(comp.initial_equations.first());
            let span = span.map(|e| e.span).unwrap_or(def.name.span);
            let kw = r.keyword();
            let rule = if r == R::Function {
                FUNCTION_ALGORITHMS
            } else {
                SECTIONS
            };
            self.report(rule.broken(span, format!("a {kw} cannot contain equations"), "equation"));
        }
        if (sections_banned || r == R::Package) && !comp.algorithms.is_empty() {
            let kw = r.keyword();
            let msg = format!("a {kw} cannot contain algorithm sections");
            self.report(SECTIONS.broken(comp.algorithms[0].span, msg, "algorithm"));
        }
        if let Some(ext) = &comp.external {
            for a in &ext.args {
                if !external_argument(a) {
                    let msg = "an external call's argument is an expression";
                    self.report(EXTERNAL_ARGUMENTS.broken(a.span, msg, "here"));
                }
            }
        }
        if r == R::Function {
            self.input_defaults(comp);
            if comp.algorithms.len() > 1 {
                let msg = "a function cannot have more than one algorithm section";
                self.report(FUNCTION_ALGORITHMS.broken(comp.algorithms[1].span, msg, "second"));
            }
            if let (Some(alg), Some(_)) = (comp.algorithms.first(), &comp.external) {
                let msg = "a function cannot have both an algorithm section and an external \
                           function interface";
                self.report(FUNCTION_ALGORITHMS.broken(alg.span, msg, "algorithm"));
            }
        }
        if r == R::Operator {
            for e in &comp.elements {
                let ok = match e {
                    ast::Element::Class(c, _) => {
                        matches!(c.restriction, R::Function | R::OperatorFunction)
                    }
                    ast::Element::Import(_) | ast::Element::Extends(_) => true,
                    ast::Element::Component(..) => false,
                };
                if !ok {
                    let msg = format!("operator `{}` may only declare functions", def.name.name);
                    self.report(OPERATOR_CONTENTS.broken(element_span(e), msg, "not a function"));
                }
            }
        }
        if matches!(r, R::Operator | R::OperatorFunction) {
            self.operator_signatures(def);
        }
        if r == R::Function && &*def.name.name == "equalityConstraint" {
            self.equality_constraint(def);
        }
        self.names(comp);
        if r == R::Connector {
            self.stream_connector(def);
        }
        for e in &comp.elements {
            match e {
                ast::Element::Extends(ext) => {
                    self.base_kind(def, &ext.base);
                    self.impure_base(def, &ext.base);
                    self.non_replaceable(&ext.base, "extends");
                    self.extends_whole(def, comp, ext);
                    if let Some(cm) = &ext.modification {
                        self.modified_once(cm);
                    }
                }
                ast::Element::Component(clause, prefix) => {
                    for decl in &clause.components {
                        self.described_once(prefix, &decl.description, decl.name.span);
                    }
                    self.component_rules(def, clause, prefix);
                    match &prefix.constraining {
                        Some((c, _)) => self.non_replaceable(c, "constrainedby"),
                        None if prefix.replaceable => self
                            .non_replaceable(&clause.type_name, "a replaceable component's type"),
                        None => {}
                    }
                }
                ast::Element::Class(c, prefix) => {
                    self.described_once(prefix, &c.description, c.name.span)
                }
                ast::Element::Import(_) => {}
            }
        }
    }

    /// A function input's default value reads other inputs only, no output or protected
    /// variable (12.4.1).
    fn input_defaults(&mut self, comp: &ast::Composition) {
        let mut others: Vec<&str> = Vec::new();
        for e in &comp.elements {
            if let ast::Element::Component(clause, _) = e {
                if clause.prefix.causality != Some(ast::Causality::Input) {
                    others.extend(clause.components.iter().map(|d| &*d.name.name));
                }
            }
        }
        for e in &comp.elements {
            let ast::Element::Component(clause, _) = e else {
                continue;
            };
            if clause.prefix.causality != Some(ast::Causality::Input) {
                continue;
            }
            for d in &clause.components {
                let Some(ast::Binding::Expr(b)) =
                    d.modification.as_ref().and_then(|m| m.binding.as_ref())
                else {
                    continue;
                };
                let mut hit = None;
                super::each_expr(b, &mut |x| {
                    if let ast::ExprKind::Ref(r) = &x.kind {
                        let first = r.parts.first().map(|p| &*p.ident.name);
                        if hit.is_none() && !r.global && first.is_some_and(|n| others.contains(&n))
                        {
                            hit = Some((x.span, r.to_source_string()));
                        }
                    }
                });
                if let Some((at, name)) = hit {
                    let msg = format!(
                        "the default of input `{}` reads `{name}`, which is no input",
                        d.name.name
                    );
                    self.report(INPUT_DEFAULT.broken(at, msg, "not an input"));
                }
            }
        }
    }

    /// A replaceable element's description string and annotation are written after its
    /// `constrainedby` clause or on the declaration, not both (7.3.2.1).
    fn described_once(
        &mut self,
        prefix: &ast::ElementPrefix,
        own: &ast::Description,
        at: crate::diag::Span,
    ) {
        let Some(after) = &prefix.constraining_description else {
            return;
        };
        let both = if after.text.is_some() && own.text.is_some() {
            Some("a description string")
        } else if after.annotation.is_some() && own.annotation.is_some() {
            Some("an annotation")
        } else {
            None
        };
        if let Some(what) = both {
            let msg = format!("{what} both on the declaration and on its constrainedby clause");
            self.report(DESCRIBED_TWICE.broken(at, msg, "declared here"));
        }
    }

    /// Reserved names, a component named like a local class, two imports of one name.
    fn names(&mut self, comp: &ast::Composition) {
        let mut classes = Vec::new();
        let mut imports: Vec<&ast::Ident> = Vec::new();
        for e in &comp.elements {
            match e {
                ast::Element::Class(c, p) if !p.redeclare => classes.push(&c.name),
                ast::Element::Import(imp) => match &imp.kind {
                    ast::ImportKind::Qualified(n) => imports.extend(n.parts.last()),
                    ast::ImportKind::Renamed(id, _) => imports.push(id),
                    ast::ImportKind::List(_, ids) => imports.extend(ids),
                    ast::ImportKind::Wildcard(_) => {}
                },
                _ => {}
            }
        }
        for e in &comp.elements {
            if let ast::Element::Import(imp) = e {
                self.import_from_package(imp);
            }
        }
        for (k, id) in imports.iter().enumerate() {
            if imports[..k].iter().any(|o| o.name == id.name) {
                let msg = format!("`{}` is imported twice", id.name);
                self.report(IMPORT_TWICE.broken(id.span, msg, "second import"));
            }
        }
        for e in &comp.elements {
            let ast::Element::Component(clause, prefix) = e else {
                continue;
            };
            for decl in &clause.components {
                if RESERVED.contains(&&*decl.name.name) {
                    let msg = format!("a component cannot be named `{}`", decl.name.name);
                    self.report(RESERVED_NAME.broken(decl.name.span, msg, "reserved name"));
                }
                self.quoted_name(&decl.name);
                if !prefix.redeclare {
                    if let Some(c) = classes.iter().find(|c| c.name == decl.name.name) {
                        let msg = format!("`{}` names both a component and a class", c.name);
                        let d = COMPONENT_AND_CLASS
                            .broken(decl.name.span, msg, "component")
                            .also(c.span, "class");
                        self.report(d);
                    }
                }
            }
        }
    }

    fn component_rules(
        &mut self,
        def: &ast::ClassDef,
        clause: &ast::ComponentClause,
        prefix: &ast::ElementPrefix,
    ) {
        let r = def.restriction;
        let p = clause.prefix;
        let at = clause.components.first().map(|d| d.name.span);
        let at = at.unwrap_or(clause.span);
        let name = clause
            .components
            .first()
            .map(|d| d.name.name.to_string())
            .unwrap_or_default();
        let record = matches!(r, R::Record | R::OperatorRecord);
        let connector = matches!(r, R::Connector | R::ExpandableConnector);
        if prefix.protected && (record || connector) {
            let msg = format!("a {} cannot have protected elements", r.keyword());
            self.report(SECTIONS.broken(at, msg, "protected"));
        }
        if record && (p.causality.is_some() || p.connection.is_some()) {
            let msg = format!("the record element `{name}` has a prefix a record's may not have");
            self.report(RECORD_PREFIX.broken(at, msg, "prefix"));
        }
        if (record || connector) && (prefix.inner || prefix.outer) {
            let msg = format!("the {} element `{name}` is inner or outer", r.keyword());
            self.report(RECORD_PREFIX.broken(at, msg, "prefix"));
        }
        if matches!(r, R::Function | R::OperatorFunction) {
            if !prefix.protected && p.causality.is_none() {
                let msg = format!("`{name}` is public but neither input nor output");
                self.report(FUNCTION_PUBLIC.broken(at, msg, "declared here"));
            }
            if prefix.inner || prefix.outer {
                let msg = format!("the function element `{name}` is inner or outer");
                self.report(FUNCTION_INNER_OUTER.broken(at, msg, "prefix"));
            }
        }
        if r == R::Package && p.variability != Some(ast::Variability::Constant) {
            let msg = format!("`{name}` in a package is not a constant");
            self.report(PACKAGE_CONTENTS.broken(at, msg, "declared here"));
        }
        if r == R::Type {
            let msg = format!(
                "the type `{}` declares the component `{name}`",
                def.name.name
            );
            self.report(TYPE_CONTENTS.broken(at, msg, "component"));
        }
        if p.causality.is_some()
            && matches!(
                p.variability,
                Some(ast::Variability::Parameter | ast::Variability::Constant)
            )
        {
            let msg = format!("`{name}` is both input/output and parameter/constant");
            self.report(INPUT_PARAMETER.broken(at, msg, "declared here"));
        }
        if p.connection == Some(ast::Connection::Stream) && !connector {
            let msg = format!("the stream variable `{name}` is not in a connector");
            self.report(STREAM_OUTSIDE_CONNECTOR.broken(at, msg, "declared here"));
        }
        if p.connection == Some(ast::Connection::Flow) && r == R::ExpandableConnector {
            let msg = format!("the expandable connector declares the flow variable `{name}`");
            self.report(FLOW_IN_EXPANDABLE.broken(at, msg, "declared here"));
        }
        if p.variability == Some(ast::Variability::Constant) {
            self.constant_not_free(clause);
        }
        for decl in &clause.components {
            if let Some(cm) = decl
                .modification
                .as_ref()
                .and_then(|m| m.class_mod.as_ref())
            {
                self.modified_once(cm);
            }
        }
        if prefix.inner || prefix.outer {
            if let Some(super::Found::Class(c)) =
                self.tree.lookup_name(self.class, &clause.type_name)
            {
                if let Some(conn) = self.input_connector(c) {
                    let msg = format!(
                        "`{name}` is inner or outer, and its class `{}` has the public connector \
                         `{conn}` holding an input",
                        clause.type_name.to_dotted()
                    );
                    self.report(INNER_INPUTS.broken(at, msg, "declared here"));
                }
            }
        }
        if r == R::Block && !prefix.protected && p.causality.is_none() && p.variability.is_none() {
            if let Some(super::Found::Class(c)) =
                self.tree.lookup_name(self.class, &clause.type_name)
            {
                if self.tree.info(c).restriction() == Some(R::Connector) {
                    if let Some(leaf) = self.acausal_leaf(c, 0) {
                        let msg = format!(
                            "the block's connector `{name}` has the variable `{name}{leaf}` \
                             that is neither input nor output"
                        );
                        self.report(BLOCK_CONNECTOR.broken(at, msg, "declared here"));
                    }
                }
            }
        }
        self.component_type_rules(r, clause, at, &name);
    }

    /// Each element, attribute and description set once by the arguments of a modification
    /// (`x = 1, x = 2`, `x.start = 1, x(start = 2)`).
    fn modified_once(&mut self, cm: &ast::ClassMod) {
        let mut set: Vec<(String, crate::diag::Span)> = Vec::new();
        modified_paths(cm, "", &mut set);
        for (k, (path, span)) in set.iter().enumerate() {
            if set[..k].iter().any(|(p, _)| p == path) {
                let what = path.trim_end_matches(".=").trim_end_matches(".\"\"");
                let msg = format!("`{what}` is modified twice in one modification");
                self.report(MODIFIED_TWICE.broken(*span, msg, "second"));
                return;
            }
        }
        // A value for a whole component and one for a part of it (`r = R(), r(y = 2)`); an
        // attribute of the whole or of a part (`r = 1.5, r(start = 2)`) is no part.
        const ATTRIBUTES: [&str; 10] = [
            "quantity",
            "unit",
            "displayUnit",
            "min",
            "max",
            "start",
            "fixed",
            "nominal",
            "unbounded",
            "stateSelect",
        ];
        for (whole, _) in set.iter().filter(|(p, _)| p.ends_with(".=")) {
            let prefix = whole.trim_end_matches('=');
            let part = set.iter().find(|(p, _)| {
                p.len() > whole.len()
                    && p.starts_with(prefix)
                    && p.ends_with(".=")
                    && p.trim_end_matches(".=")
                        .rsplit('.')
                        .next()
                        .is_some_and(|last| !ATTRIBUTES.contains(&last))
            });
            if let Some((p, span)) = part {
                let msg = format!(
                    "`{}` is given a value, and so is its part `{}`",
                    whole.trim_end_matches(".="),
                    p.trim_end_matches(".=")
                );
                self.report(VALUE_AND_PART.broken(*span, msg, "the part's value"));
                return;
            }
        }
    }

    /// No part of `name` is a replaceable class (specification 7.1.4).
    fn non_replaceable(&mut self, name: &ast::Name, what: &str) {
        for (head, c) in self.class_prefixes(name) {
            if self.declared_replaceable(c) {
                let msg = format!(
                    "`{}` is replaceable, and names the class of {what}",
                    head.to_dotted()
                );
                self.report(NON_REPLACEABLE.broken(name.span, msg, "here"));
                return;
            }
        }
    }

    /// Whether class `c` is declared `replaceable` in the class that holds it.
    pub(super) fn declared_replaceable(&self, c: ClassId) -> bool {
        self.tree.declared_replaceable(c)
    }

    /// What an extends clause's base allows: no long extension of an operator record (4.6),
    /// nothing beside an array class, a class with a causality prefix or a predefined type
    /// (4.5.2).
    fn extends_whole(&mut self, def: &ast::ClassDef, comp: &ast::Composition, ext: &ast::Extends) {
        let Some(super::Found::Class(b)) = self.tree.lookup_name(self.class, &ext.base) else {
            return;
        };
        let Some(base) = self.tree.info(b).def else {
            return;
        };
        if base.restriction == R::OperatorRecord {
            let msg = format!(
                "{} `{}` extends the operator record `{}`",
                def.restriction.keyword(),
                def.name.name,
                ext.base.to_dotted()
            );
            self.report(EXTEND_OPERATOR_RECORD.broken(ext.base.span, msg, "operator record"));
        } else if let Some(inner) = enclosed_operator_record(base) {
            let msg = format!(
                "{} `{}` extends `{}`, which encloses the operator record `{inner}`",
                def.restriction.keyword(),
                def.name.name,
                ext.base.to_dotted()
            );
            self.report(EXTEND_ENCLOSING_OPERATOR_RECORD.broken(
                ext.base.span,
                msg,
                "encloses an operator record",
            ));
        }
        let own = comp
            .elements
            .iter()
            .any(|e| matches!(e, ast::Element::Component(..)))
            || !comp.equations.is_empty();
        if own && self.tree.info(b).builtin.is_some() {
            let msg = format!(
                "`{}` extends the predefined type `{}` and declares components or equations",
                def.name.name,
                ext.base.to_dotted()
            );
            self.report(super::typed::EXTENDS_ARRAY_OR_PREFIXED.broken(
                ext.base.span,
                msg,
                "predefined type",
            ));
        }
        if let ast::ClassBody::Short {
            causality,
            subscripts,
            ..
        } = &base.body
        {
            if own && (causality.is_some() || !subscripts.is_empty()) {
                let what = if subscripts.is_empty() {
                    "a class with a causality prefix"
                } else {
                    "an array class"
                };
                let msg = format!(
                    "`{}` extends {what}, `{}`, and declares components or equations",
                    def.name.name,
                    ext.base.to_dotted()
                );
                self.report(super::typed::EXTENDS_ARRAY_OR_PREFIXED.broken(
                    ext.base.span,
                    msg,
                    "base",
                ));
            }
        }
    }

    /// The prototype of an overdetermined type's or record's `equalityConstraint` (9.4.1): two
    /// inputs of the enclosing type, one output `Real residue[n]` with n not `:` nor negative.
    fn equality_constraint(&mut self, def: &ast::ClassDef) {
        use crate::flatten::classes::Builtin;
        let Some(owner) = self.tree.info(self.class).parent else {
            return;
        };
        if !matches!(
            self.tree.info(owner).restriction(),
            Some(R::Type | R::Record | R::OperatorRecord)
        ) {
            return;
        }
        let clauses = self.clauses_with_inherited(self.class);
        let (mut inputs, mut outputs) = (Vec::new(), Vec::new());
        for c in clauses {
            for d in &c.components {
                match c.prefix.causality {
                    Some(ast::Causality::Input) => inputs.push((c, d)),
                    Some(ast::Causality::Output) => outputs.push((c, d)),
                    None => {}
                }
            }
        }
        let owner_name = self.tree.info(owner).name.to_string();
        if inputs.len() != 2 || outputs.len() != 1 {
            let msg = format!(
                "`{owner_name}.equalityConstraint` has {} input{} and {} output{}: it needs two \
                 inputs of `{owner_name}` and one output `Real residue[n]`",
                inputs.len(),
                if inputs.len() == 1 { "" } else { "s" },
                outputs.len(),
                if outputs.len() == 1 { "" } else { "s" }
            );
            self.report(EQUALITY_CONSTRAINT.broken(def.name.span, msg, "here"));
            return;
        }
        for (c, d) in inputs {
            let found = self.tree.lookup_name(self.class, &c.type_name);
            if !matches!(found, Some(super::Found::Class(k)) if k == owner) {
                let msg = format!(
                    "the input `{}` of `{owner_name}.equalityConstraint` is of `{}`, not `{owner_name}`",
                    d.name.name,
                    c.type_name.to_dotted()
                );
                self.report(EQUALITY_CONSTRAINT.broken(c.type_name.span, msg, "type"));
            }
        }
        let (c, d) = outputs[0];
        let real = match self.tree.lookup_name(self.class, &c.type_name) {
            Some(super::Found::Class(k)) => self.tree.info(k).builtin == Some(Builtin::Real),
            _ => false,
        };
        let dims: Vec<&ast::Subscript> = c.subscripts.iter().chain(&d.subscripts).collect();
        let bad_dim = match dims.as_slice() {
            [ast::Subscript::Expr(e)] => match &e.kind {
                ast::ExprKind::Unary(ast::UnaryOp::Neg, _) => Some(e.span),
                _ => None,
            },
            [ast::Subscript::Colon(s)] => Some(*s),
            _ => Some(d.name.span),
        };
        if !real {
            let msg = format!(
                "the output `{}` of `{owner_name}.equalityConstraint` is of `{}`, not Real",
                d.name.name,
                c.type_name.to_dotted()
            );
            self.report(EQUALITY_CONSTRAINT.broken(c.type_name.span, msg, "type"));
        } else if let Some(at) = bad_dim {
            let msg = format!(
                "the output `{}` of `{owner_name}.equalityConstraint` is not a vector of a \
                 constant size >= 0",
                d.name.name
            );
            self.report(EQUALITY_CONSTRAINT.broken(at, msg, "size"));
        }
    }

    /// The first variable of connector or record class `c` (as a path from it, `.v`; empty
    /// for `c` itself, a predefined type) declared neither input nor output, parameters and
    /// constants left out; `None` when all are causal. Expandable connectors are left alone
    /// (their variables come with their connections).
    fn acausal_leaf(&mut self, c: ClassId, depth: u32) -> Option<String> {
        if depth > 8 {
            return None;
        }
        let info = self.tree.info(c);
        let Some(def) = info.def else {
            return Some(String::new());
        };
        let scope = info.parent.unwrap_or(c);
        match &def.body {
            ast::ClassBody::Short {
                causality: Some(_), ..
            } => return None,
            ast::ClassBody::Short { base, .. } => {
                return match self.tree.lookup_name(scope, base) {
                    Some(super::Found::Class(b)) if b != c => self.acausal_leaf(b, depth + 1),
                    _ => None,
                };
            }
            ast::ClassBody::Enumeration { .. } => return Some(String::new()),
            _ => {}
        }
        if def.restriction == R::ExpandableConnector {
            return None;
        }
        let classes = self.with_bases(c);
        // A class extending a predefined type (`type T extends Real`) is one variable.
        if classes[1..]
            .iter()
            .any(|&b| self.tree.info(b).def.is_none())
        {
            return Some(String::new());
        }
        for owner in classes {
            let Some(comp) = self.tree.info(owner).composition() else {
                continue;
            };
            for e in &comp.elements {
                let ast::Element::Component(clause, prefix) = e else {
                    continue;
                };
                let p = clause.prefix;
                if prefix.protected
                    || p.causality.is_some()
                    || matches!(
                        p.variability,
                        Some(ast::Variability::Parameter | ast::Variability::Constant)
                    )
                {
                    continue;
                }
                let Some(super::Found::Class(t)) = self.tree.lookup_name(owner, &clause.type_name)
                else {
                    continue;
                };
                if let Some(rest) = self.acausal_leaf(t, depth + 1) {
                    let first = clause.components.first().map_or("", |d| &d.name.name);
                    return Some(format!(".{first}{rest}"));
                }
            }
        }
        None
    }

    /// A function extending an impure function is declared impure itself (12.3).
    fn impure_base(&mut self, def: &ast::ClassDef, base: &ast::Name) {
        if !matches!(def.restriction, R::Function | R::OperatorFunction)
            || def.purity == Some(ast::Purity::Impure)
        {
            return;
        }
        let Some(super::Found::Class(b)) = self.tree.lookup_name(self.class, base) else {
            return;
        };
        if self.tree.impure(b) {
            let msg = format!(
                "the function `{}` extends the impure `{}` but is not declared impure",
                def.name.name,
                base.to_dotted()
            );
            self.report(EXTENDS_IMPURE.broken(base.span, msg, "impure base"));
        }
    }

    /// Class `c` and the classes it extends, directly or not (at most 64).
    fn with_bases(&mut self, c: ClassId) -> Vec<ClassId> {
        let mut classes = vec![c];
        let mut k = 0;
        while k < classes.len() && classes.len() < 64 {
            for b in self.tree.bases(classes[k]) {
                if !classes.contains(&b) {
                    classes.push(b);
                }
            }
            k += 1;
        }
        classes
    }

    /// An inner or outer component's class has no public connector holding an input (4.7):
    /// the first such connector's name.
    fn input_connector(&mut self, c: ClassId) -> Option<String> {
        for owner in self.with_bases(c) {
            let Some(comp) = self.tree.info(owner).composition() else {
                continue;
            };
            for e in &comp.elements {
                let ast::Element::Component(clause, prefix) = e else {
                    continue;
                };
                if prefix.protected {
                    continue;
                }
                let Some(super::Found::Class(t)) = self.tree.lookup_name(owner, &clause.type_name)
                else {
                    continue;
                };
                if self.tree.info(t).restriction() != Some(R::Connector) {
                    continue;
                }
                let short_input = matches!(
                    self.tree.info(t).def.map(|d| &d.body),
                    Some(ast::ClassBody::Short {
                        causality: Some(ast::Causality::Input),
                        ..
                    })
                );
                let input = clause.prefix.causality == Some(ast::Causality::Input)
                    || short_input
                    || self.with_bases(t).into_iter().any(|k| {
                        self.tree.info(k).composition().is_some_and(|comp| {
                            comp.elements.iter().any(|e| {
                                matches!(e, ast::Element::Component(cl, _)
                                    if cl.prefix.causality == Some(ast::Causality::Input))
                            })
                        })
                    });
                if input {
                    return clause.components.first().map(|d| d.name.name.to_string());
                }
            }
        }
        None
    }

    /// The component clauses of class `c` and of the classes it extends.
    fn clauses_with_inherited(&mut self, c: ClassId) -> Vec<&'a ast::ComponentClause> {
        let classes = self.with_bases(c);
        let mut out = Vec::new();
        for c in classes {
            if let Some(comp) = self.tree.info(c).composition() {
                for e in &comp.elements {
                    if let ast::Element::Component(clause, _) = e {
                        out.push(clause);
                    }
                }
            }
        }
        out
    }

    /// The package an import takes its names from.
    fn import_from_package(&mut self, imp: &ast::Import) {
        let package = match &imp.kind {
            ast::ImportKind::Qualified(n) | ast::ImportKind::Renamed(_, n) => {
                if n.parts.len() < 2 {
                    return;
                }
                ast::Name {
                    global: n.global,
                    parts: n.parts[..n.parts.len() - 1].to_vec(),
                    span: n.span,
                }
            }
            ast::ImportKind::Wildcard(n) | ast::ImportKind::List(n, _) => n.clone(),
        };
        let Some(super::Found::Class(c)) = self.tree.lookup_top_name(&package) else {
            return;
        };
        let r = self.tree.info(c).restriction();
        if matches!(r, Some(k) if k != R::Package) {
            let msg = format!(
                "`{}` is a {}, not a package",
                package.to_dotted(),
                r.map_or("class", |k| k.keyword())
            );
            self.report(IMPORT_FROM_PACKAGE.broken(imp.span, msg, "import"));
        }
    }

    /// A stream connector's one scalar flow variable (its own and inherited elements).
    fn stream_connector(&mut self, def: &ast::ClassDef) {
        let (mut streams, mut flows) = (0, Vec::new());
        for clause in self.clauses_with_inherited(self.class) {
            for decl in &clause.components {
                match clause.prefix.connection {
                    Some(ast::Connection::Stream) => streams += 1,
                    Some(ast::Connection::Flow) => {
                        let array = !decl.subscripts.is_empty() || !clause.subscripts.is_empty();
                        flows.push((decl.name.span, array));
                    }
                    None => {}
                }
            }
        }
        if streams == 0 {
            return;
        }
        let name = &def.name.name;
        match flows.as_slice() {
            [(_, false)] => {}
            [(at, true)] => {
                let msg = format!("the flow variable of the stream connector `{name}` is an array");
                self.report(STREAM_ONE_FLOW.broken(*at, msg, "flow variable"));
            }
            fs => {
                let msg = format!(
                    "the stream connector `{name}` has {} flow variables, not one",
                    fs.len()
                );
                self.report(STREAM_ONE_FLOW.broken(def.name.span, msg, "connector"));
            }
        }
    }

    /// `constant Real c(fixed = false)`.
    fn constant_not_free(&mut self, clause: &ast::ComponentClause) {
        for decl in &clause.components {
            let Some(cm) = decl
                .modification
                .as_ref()
                .and_then(|m| m.class_mod.as_ref())
            else {
                continue;
            };
            for a in &cm.args {
                let ast::Argument::Modify(em) = a else {
                    continue;
                };
                let value = em.modification.as_ref().and_then(|m| m.binding.as_ref());
                if em.name.to_dotted() == "fixed"
                    && matches!(
                        value,
                        Some(ast::Binding::Expr(ast::Expr {
                            kind: ast::ExprKind::Bool(false),
                            ..
                        }))
                    )
                {
                    let msg = format!("the constant `{}` has fixed = false", decl.name.name);
                    self.report(CONSTANT_FIXED_FALSE.broken(em.span, msg, "here"));
                }
            }
        }
    }

    /// The rules that depend on what kind of class the component's type is.
    fn component_type_rules(
        &mut self,
        r: R,
        clause: &ast::ComponentClause,
        at: crate::diag::Span,
        name: &str,
    ) {
        self.not_protected_path(&clause.type_name);
        let p = clause.prefix;
        let record = matches!(r, R::Record | R::OperatorRecord);
        let connector = matches!(r, R::Connector | R::ExpandableConnector);
        let prefixed = p.connection.is_some() || p.variability.is_some() || p.causality.is_some();
        // Nothing below applies: the type is not read (it may be a disabled component's).
        if !record && !connector && !prefixed {
            return;
        }
        let Some(kind) = self.restriction_of(&clause.type_name) else {
            return;
        };
        let k = kind.restriction();
        let kind_ok = match () {
            _ if record => matches!(k, R::Record | R::OperatorRecord | R::Type | R::Class),
            _ if connector => matches!(
                k,
                R::Record
                    | R::OperatorRecord
                    | R::Type
                    | R::Class
                    | R::Connector
                    | R::ExpandableConnector
            ),
            _ => true,
        };
        if !kind_ok {
            let msg = format!(
                "the {} component `{name}` is of {} `{}`",
                r.keyword(),
                k.keyword(),
                clause.type_name.to_dotted()
            );
            self.report(COMPONENT_KIND.broken(at, msg, "component"));
        }
        if prefixed && matches!(k, R::Model | R::Block | R::Package) {
            let msg = format!(
                "`{name}` is a component of {} `{}` with a type prefix",
                k.keyword(),
                clause.type_name.to_dotted()
            );
            self.report(PREFIX_ON_CLASS.broken(at, msg, "declared here"));
        }
        if p.causality.is_some() && matches!(k, R::Connector | R::Record | R::OperatorRecord) {
            if let Some(super::Found::Class(c)) =
                self.tree.lookup_name(self.class, &clause.type_name)
            {
                let inner = self.clauses_with_inherited(c);
                if let Some(e) = inner
                    .iter()
                    .find(|e| e.prefix.causality.is_some() || e.prefix.connection.is_some())
                {
                    let msg = format!(
                        "`{name}` is input or output, and its element `{}` has a prefix too",
                        e.components.first().map_or("", |d| &d.name.name)
                    );
                    self.report(CAUSAL_STRUCTURED.broken(at, msg, "declared here"));
                }
            }
        }
        if matches!(k, R::Connector | R::ExpandableConnector)
            && matches!(
                p.variability,
                Some(ast::Variability::Parameter | ast::Variability::Constant)
            )
        {
            let msg = format!("the connector `{name}` is declared parameter or constant");
            self.report(PARAMETER_CONNECTOR.broken(at, msg, "declared here"));
        }
        if p.connection.is_some() {
            if let Some(super::Found::Class(c)) =
                self.tree.lookup_name(self.class, &clause.type_name)
            {
                use crate::flatten::classes::Builtin;
                if p.connection == Some(ast::Connection::Flow)
                    && matches!(
                        self.tree.member(c, "equalityConstraint", 0),
                        Some(super::Found::Class(f))
                            if self.tree.info(f).restriction() == Some(R::Function)
                    )
                {
                    let msg = format!(
                        "the flow variable `{name}` is of the overdetermined `{}`",
                        clause.type_name.to_dotted()
                    );
                    self.report(OVERDETERMINED_FLOW.broken(at, msg, "declared here"));
                }
                if matches!(
                    self.tree.info(c).builtin,
                    Some(Builtin::Integer | Builtin::Boolean | Builtin::String)
                ) {
                    let msg = format!(
                        "the flow or stream variable `{name}` is of type `{}`",
                        clause.type_name.to_dotted()
                    );
                    self.report(FLOW_NOT_REAL.broken(at, msg, "declared here"));
                }
            }
        }
    }
}

/// The paths a modification sets: `x.=` for a value, `x.start.=`, `x.""` for a description.
fn modified_paths(cm: &ast::ClassMod, prefix: &str, out: &mut Vec<(String, crate::diag::Span)>) {
    for a in &cm.args {
        let ast::Argument::Modify(em) = a else {
            continue;
        };
        let path = format!("{prefix}{}.", em.name.to_dotted());
        if em.description.is_some() {
            out.push((format!("{path}\"\""), em.span));
        }
        let Some(m) = &em.modification else {
            continue;
        };
        if m.binding.is_some() {
            out.push((format!("{path}="), em.span));
        }
        if let Some(inner) = &m.class_mod {
            modified_paths(inner, &path, out);
        }
    }
}

/// A component reference, a scalar literal or `size(a, k)`.
fn external_argument(e: &ast::Expr) -> bool {
    use ast::ExprKind as K;
    match &e.kind {
        K::Ref(_) | K::Integer(_) | K::Real(_) | K::Str(_) | K::Bool(_) => true,
        K::Unary(ast::UnaryOp::Neg, x) => matches!(x.kind, K::Integer(_) | K::Real(_)),
        K::Call(ast::CallTarget::Ref(r), args) => {
            r.to_source_string() == "size"
                && args.positional.len() == 2
                && matches!(args.positional[0].kind, K::Ref(_))
        }
        _ => false,
    }
}

fn element_span(e: &ast::Element) -> crate::diag::Span {
    match e {
        ast::Element::Import(i) => i.span,
        ast::Element::Extends(x) => x.span,
        ast::Element::Class(c, _) => c.name.span,
        ast::Element::Component(c, _) => c.span,
    }
}

/// The first operator record written inside class `def` (its nested classes searched in
/// turn), as a dotted name relative to it.
fn enclosed_operator_record(def: &ast::ClassDef) -> Option<String> {
    let ast::ClassBody::Long { composition, .. } = &def.body else {
        return None;
    };
    composition.elements.iter().find_map(|e| match e {
        ast::Element::Class(d, _) if d.restriction == R::OperatorRecord => {
            Some(d.name.name.to_string())
        }
        ast::Element::Class(d, _) => {
            enclosed_operator_record(d).map(|inner| format!("{}.{inner}", d.name.name))
        }
        _ => None,
    })
}
