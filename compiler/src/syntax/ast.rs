//! The abstract syntax tree of a Modelica source file.
//!
//! It mirrors the concrete syntax of Modelica 3.6 (specification Appendix B) closely enough that
//! every syntactically valid file has a tree, including constructs later phases reject; those
//! phases point at the construct through the [`Span`] each node keeps.

use crate::diag::Span;

/// A name as written, with where it was written.
#[derive(Clone, Debug, PartialEq)]
pub struct Ident {
    pub name: Box<str>,
    pub span: Span,
}

/// A dotted name (`Rtc.Electrical.Resistor`); `global` for a leading dot.
#[derive(Clone, Debug, PartialEq)]
pub struct Name {
    pub global: bool,
    pub parts: Vec<Ident>,
    pub span: Span,
}

impl Name {
    pub fn to_dotted(&self) -> String {
        let mut s = String::new();
        for (k, p) in self.parts.iter().enumerate() {
            if k > 0 {
                s.push('.');
            }
            s.push_str(&p.name);
        }
        s
    }
}

#[derive(Clone, Debug, Default)]
pub struct StoredDefinition {
    pub within: Option<Option<Name>>,
    pub classes: Vec<ClassDef>,
}

/// A function's declared purity (specification 12.3).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Purity {
    Pure,
    Impure,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Restriction {
    Class,
    Model,
    Record,
    OperatorRecord,
    Block,
    Connector,
    ExpandableConnector,
    Type,
    Package,
    Function,
    OperatorFunction,
    Operator,
}

impl Restriction {
    pub fn keyword(self) -> &'static str {
        match self {
            Restriction::Class => "class",
            Restriction::Model => "model",
            Restriction::Record => "record",
            Restriction::OperatorRecord => "operator record",
            Restriction::Block => "block",
            Restriction::Connector => "connector",
            Restriction::ExpandableConnector => "expandable connector",
            Restriction::Type => "type",
            Restriction::Package => "package",
            Restriction::Function => "function",
            Restriction::OperatorFunction => "operator function",
            Restriction::Operator => "operator",
        }
    }
}

#[derive(Clone, Debug)]
pub struct ClassDef {
    pub name: Ident,
    pub restriction: Restriction,
    pub partial: bool,
    pub encapsulated: bool,
    /// `pure function` / `impure function` (12.3); `None` when not written.
    pub purity: Option<Purity>,
    /// Span of the whole definition.
    pub span: Span,
    pub body: ClassBody,
    pub description: Description,
}

#[derive(Clone, Debug)]
pub enum ClassBody {
    /// `class A ... end A;`, or `class extends A(mod) ... end A;` when `extends_mod` is set.
    Long {
        composition: Box<Composition>,
        class_extends: Option<Option<ClassMod>>,
    },
    /// `type A = input B[3](mod);`
    Short {
        causality: Option<Causality>,
        base: Name,
        subscripts: Vec<Subscript>,
        modification: Option<ClassMod>,
    },
    Enumeration {
        literals: Vec<(Ident, Description)>,
        open: bool,
    },
    Der {
        base: Name,
        vars: Vec<Ident>,
    },
}

#[derive(Clone, Debug, Default)]
pub struct Composition {
    pub elements: Vec<Element>,
    pub equations: Vec<Equation>,
    pub initial_equations: Vec<Equation>,
    pub algorithms: Vec<Algorithm>,
    pub external: Option<External>,
    pub annotation: Option<ClassMod>,
}

/// `external "C" y = f(x) annotation(...);` of a function (specification 12.9).
#[derive(Clone, Debug)]
pub struct External {
    /// The language specification (`"C"`, `"builtin"`); `"C"` when omitted.
    pub language: Option<String>,
    /// The output the external call's result is assigned to.
    pub output: Option<ComponentRef>,
    /// The external function's name; the Modelica function's own name when omitted.
    pub function: Option<Ident>,
    pub args: Vec<Expr>,
    pub annotation: Option<ClassMod>,
    pub span: Span,
}

#[derive(Clone, Debug)]
pub struct Algorithm {
    pub initial: bool,
    pub statements: Vec<Statement>,
    pub span: Span,
    /// Made from the calls of a when-equation (see `build::calls_of_when_equations`): a
    /// call of a function with outputs is refused there (8.3.5.3), an empty one is made.
    pub from_when_equation: bool,
}

#[derive(Clone, Debug, Default)]
pub struct ElementPrefix {
    pub redeclare: bool,
    pub final_: bool,
    pub inner: bool,
    pub outer: bool,
    pub replaceable: bool,
    pub protected: bool,
    pub constraining: Option<(Name, Option<ClassMod>)>,
    /// The description and annotation written after the `constrainedby` clause.
    pub constraining_description: Option<Description>,
}

#[derive(Clone, Debug)]
pub enum Element {
    Import(Import),
    Extends(Extends),
    Class(Box<ClassDef>, ElementPrefix),
    Component(ComponentClause, ElementPrefix),
}

#[derive(Clone, Debug)]
pub enum ImportKind {
    /// `import A.B.C;`
    Qualified(Name),
    /// `import X = A.B.C;`
    Renamed(Ident, Name),
    /// `import A.B.*;`
    Wildcard(Name),
    /// `import A.B.{C, D};`
    List(Name, Vec<Ident>),
}

#[derive(Clone, Debug)]
pub struct Import {
    pub kind: ImportKind,
    pub span: Span,
}

#[derive(Clone, Debug)]
pub struct Extends {
    pub base: Name,
    pub modification: Option<ClassMod>,
    pub span: Span,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Variability {
    Discrete,
    Parameter,
    Constant,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Causality {
    Input,
    Output,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Connection {
    Flow,
    Stream,
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct TypePrefix {
    pub connection: Option<Connection>,
    pub variability: Option<Variability>,
    pub causality: Option<Causality>,
}

#[derive(Clone, Debug)]
pub struct ComponentClause {
    pub prefix: TypePrefix,
    pub type_name: Name,
    pub subscripts: Vec<Subscript>,
    pub components: Vec<ComponentDecl>,
    pub span: Span,
}

#[derive(Clone, Debug)]
pub struct ComponentDecl {
    pub name: Ident,
    pub subscripts: Vec<Subscript>,
    pub modification: Option<Modification>,
    pub condition: Option<Expr>,
    pub description: Description,
    pub span: Span,
}

/// `(class modification) = binding`.
#[derive(Clone, Debug)]
pub struct Modification {
    pub class_mod: Option<ClassMod>,
    pub binding: Option<Binding>,
    pub span: Span,
}

#[derive(Clone, Debug)]
pub enum Binding {
    Expr(Expr),
    Break(Span),
}

#[derive(Clone, Debug)]
pub struct ClassMod {
    pub args: Vec<Argument>,
    pub span: Span,
}

#[derive(Clone, Debug)]
pub enum Argument {
    Modify(Box<ElementModification>),
    /// `redeclare [each] [final] Type name(mods)` (or `replaceable Type name(mods)` in a
    /// modification): a component given a new type (specification 7.3).
    RedeclareComponent(Box<RedeclareComponent>),
    /// `redeclare [each] [final] model S = Ramp(k = 2)`, `redeclare package Medium = M`, or
    /// `replaceable model S = …` in a modification: a class given a new definition
    /// (specification 7.3.2).
    RedeclareClass(Box<RedeclareClass>),
    /// `break x` in an extends (not supported).
    Redeclare {
        span: Span,
        what: &'static str,
    },
}

#[derive(Clone, Debug)]
pub struct RedeclareComponent {
    pub each: bool,
    pub final_: bool,
    /// `redeclare replaceable …`: it may be redeclared again.
    pub replaceable: bool,
    /// `constrainedby C(mods)` of a `replaceable` redeclaration.
    pub constraining: Option<(Name, Option<ClassMod>)>,
    /// The new declaration: its type and the one component with its modification.
    pub clause: ComponentClause,
    pub span: Span,
}

#[derive(Clone, Debug)]
pub struct RedeclareClass {
    pub each: bool,
    pub final_: bool,
    /// The new definition: a short class definition (`model S = Ramp(k = 2)`).
    pub def: ClassDef,
    /// `constrainedby C(mods)` of a `replaceable` redeclaration.
    pub constraining: Option<(Name, Option<ClassMod>)>,
    pub span: Span,
}

#[derive(Clone, Debug)]
pub struct ElementModification {
    pub each: bool,
    pub final_: bool,
    pub name: Name,
    pub modification: Option<Modification>,
    pub description: Option<String>,
    pub span: Span,
}

#[derive(Clone, Debug, Default)]
pub struct Description {
    pub text: Option<String>,
    pub annotation: Option<ClassMod>,
}

#[derive(Clone, Debug)]
pub struct Equation {
    pub kind: EquationKind,
    pub span: Span,
    /// `annotation(…)` after the equation (a connection's `Line` and `Text`, 18.6.4).
    pub annotation: Option<ClassMod>,
}

#[derive(Clone, Debug)]
pub enum EquationKind {
    Equality(Expr, Expr),
    If {
        branches: Vec<(Expr, Vec<Equation>)>,
        otherwise: Vec<Equation>,
    },
    For {
        indices: Vec<ForIndex>,
        body: Vec<Equation>,
    },
    Connect(ComponentRef, ComponentRef),
    When {
        branches: Vec<(Expr, Vec<Equation>)>,
    },
    /// `assert(...)`, `terminate(...)`, `reinit(...)` and other calls.
    Call(ComponentRef, CallArgs),
}

#[derive(Clone, Debug)]
pub struct Statement {
    pub kind: StatementKind,
    pub span: Span,
}

#[derive(Clone, Debug)]
pub enum StatementKind {
    Assign(ComponentRef, Expr),
    Call(ComponentRef, CallArgs),
    MultiAssign(Vec<Option<Expr>>, ComponentRef, CallArgs),
    Break,
    Return,
    If {
        branches: Vec<(Expr, Vec<Statement>)>,
        otherwise: Vec<Statement>,
    },
    For {
        indices: Vec<ForIndex>,
        body: Vec<Statement>,
    },
    While(Expr, Vec<Statement>),
    When {
        branches: Vec<(Expr, Vec<Statement>)>,
    },
}

#[derive(Clone, Debug)]
pub struct ForIndex {
    pub name: Ident,
    pub range: Option<Expr>,
}

#[derive(Clone, Debug)]
pub struct RefPart {
    pub ident: Ident,
    pub subscripts: Vec<Subscript>,
}

#[derive(Clone, Debug)]
pub struct ComponentRef {
    pub global: bool,
    pub parts: Vec<RefPart>,
    pub span: Span,
}

impl ComponentRef {
    /// The reference as written, subscripts included.
    pub fn to_source_string(&self) -> String {
        let mut s = String::new();
        for (k, p) in self.parts.iter().enumerate() {
            if k > 0 {
                s.push('.');
            }
            s.push_str(&p.ident.name);
            if !p.subscripts.is_empty() {
                s.push_str("[…]");
            }
        }
        s
    }
}

#[derive(Clone, Debug)]
pub enum Subscript {
    Colon(Span),
    Expr(Expr),
}

#[derive(Clone, Debug, Default)]
pub struct CallArgs {
    pub positional: Vec<Expr>,
    pub named: Vec<(Ident, Expr)>,
    /// `f(e for i in r)`: a reduction or comprehension.
    pub iterators: Vec<ForIndex>,
    pub span: Span,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum UnaryOp {
    Neg,
    Plus,
    Not,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BinaryOp {
    Add,
    Sub,
    Mul,
    Div,
    Pow,
    ElemAdd,
    ElemSub,
    ElemMul,
    ElemDiv,
    ElemPow,
    Lt,
    Le,
    Gt,
    Ge,
    Eq,
    Ne,
    And,
    Or,
}

impl BinaryOp {
    pub fn symbol(self) -> &'static str {
        match self {
            BinaryOp::Add => "+",
            BinaryOp::Sub => "-",
            BinaryOp::Mul => "*",
            BinaryOp::Div => "/",
            BinaryOp::Pow => "^",
            BinaryOp::ElemAdd => ".+",
            BinaryOp::ElemSub => ".-",
            BinaryOp::ElemMul => ".*",
            BinaryOp::ElemDiv => "./",
            BinaryOp::ElemPow => ".^",
            BinaryOp::Lt => "<",
            BinaryOp::Le => "<=",
            BinaryOp::Gt => ">",
            BinaryOp::Ge => ">=",
            BinaryOp::Eq => "==",
            BinaryOp::Ne => "<>",
            BinaryOp::And => "and",
            BinaryOp::Or => "or",
        }
    }
}

#[derive(Clone, Debug)]
pub enum CallTarget {
    Ref(ComponentRef),
    Der,
    Initial,
    Pure,
}

#[derive(Clone, Debug)]
pub struct Expr {
    pub kind: ExprKind,
    pub span: Span,
}

#[derive(Clone, Debug)]
pub enum ExprKind {
    Integer(i64),
    Real(f64),
    Str(String),
    Bool(bool),
    /// `end` inside a subscript.
    End,
    Ref(ComponentRef),
    Call(CallTarget, CallArgs),
    Unary(UnaryOp, Box<Expr>),
    Binary(BinaryOp, Box<Expr>, Box<Expr>),
    If {
        branches: Vec<(Expr, Expr)>,
        otherwise: Box<Expr>,
    },
    Range {
        start: Box<Expr>,
        step: Option<Box<Expr>>,
        stop: Box<Expr>,
    },
    /// `{a, b, c}`
    Array(Vec<Expr>),
    /// `{e for i in r}`
    Comprehension(Box<Expr>, Vec<ForIndex>),
    /// `[a, b; c, d]`
    Matrix(Vec<Vec<Expr>>),
    /// `(a, b)` or `()`: only valid as the left side of a multiple assignment.
    Tuple(Vec<Option<Expr>>),
    /// `(expr)[i]`
    Subscripted(Box<Expr>, Vec<Subscript>),
    /// `function f(x = 1)` as an argument.
    PartialApplication(Name),
}
