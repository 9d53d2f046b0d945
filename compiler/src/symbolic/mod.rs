//! The symbolic core: scalar expressions as a hash-consed DAG in an arena.
//!
//! Every phase after the front end speaks in [`ExprId`]s into one [`Arena`]. A node is stored
//! once: building the same node twice returns the same id, so a shared subexpression exists once
//! and later phases compute it once. Nodes refer to variables by [`VarId`], an index into the
//! flat model's variable table. Constructors fold constants and apply the simplifications that
//! are valid for finite values (`x + 0`, `x·1`, `x·0 = 0`, `0/x = 0`). The last two would hide
//! a NaN or an infinity in `x`; every variable the step computes is checked for finiteness, so
//! a non-finite `x` is still reported where it arises.

pub mod diff;
pub mod eval;
pub mod external;
pub mod function;
mod print;

use rustc_hash::{FxHashMap, FxHashSet};
use std::fmt;
use std::sync::Arc;

pub use function::{CallId, CallSite, FnId, FnVar, Function};

pub use print::{fmt_real as fmt_real_pub, ExprPrinter};

/// A space of variable indices: what `Node::Var` refers to in one arena. Each IR has its own
/// (flat variables, step-system variables, plan slots), so an expression of one cannot be
/// read as another's by mistake (Cranelift's entity references do the same).
pub trait Var: Copy + Eq + std::hash::Hash + Ord + fmt::Debug + Default + 'static {
    fn new(index: usize) -> Self;
    fn index(self) -> usize;
}

/// Declares a typed index: a `u32` newtype implementing [`Var`].
macro_rules! entity {
    ($(#[$doc:meta])* $name:ident) => {
        $(#[$doc])*
        #[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub struct $name(u32);

        impl $crate::symbolic::Var for $name {
            fn new(index: usize) -> Self {
                $name::new(index)
            }
            fn index(self) -> usize {
                self.0 as usize
            }
        }

        $crate::symbolic::index_methods!($name);

        /// The position, as the tables, logs and generated names number it.
        impl std::fmt::Display for $name {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                self.0.fmt(f)
            }
        }
    };
}

/// `new` and `index` of an index newtype over `u32`: the one place where a table position
/// becomes an index and back (no `X(i as u32)` elsewhere).
macro_rules! index_methods {
    ($name:ident) => {
        #[allow(dead_code)]
        impl $name {
            /// The entity at position `index` of its table. A table beyond `u32::MAX` entries is
            /// a broken invariant (it would not fit the step's memory), not a user's mistake.
            pub fn new(index: usize) -> Self {
                match u32::try_from(index) {
                    Ok(i) => $name(i),
                    Err(_) => panic!(concat!(stringify!($name), " index beyond u32")),
                }
            }

            pub fn index(self) -> usize {
                self.0 as usize
            }
        }
    };
}

pub(crate) use entity;

mod table;
pub(crate) use index_methods;
pub use table::EntityVec;

entity!(
    /// A variable of an arena used on its own (tests, small tools).
    VarId
);

/// Index of an expression node in an [`Arena`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ExprId(u32);

index_methods!(ExprId);

/// Built-in functions of one argument.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Func1 {
    Sin,
    Cos,
    Tan,
    Asin,
    Acos,
    Atan,
    Sinh,
    Cosh,
    Tanh,
    Exp,
    Log,
    Log10,
    Sqrt,
    Abs,
    Sign,
    Floor,
    Ceil,
    /// An external C function `double f(double)`.
    Ext(external::ExtFn),
}

impl Func1 {
    pub const ALL: [Func1; 17] = [
        Func1::Sin,
        Func1::Cos,
        Func1::Tan,
        Func1::Asin,
        Func1::Acos,
        Func1::Atan,
        Func1::Sinh,
        Func1::Cosh,
        Func1::Tanh,
        Func1::Exp,
        Func1::Log,
        Func1::Log10,
        Func1::Sqrt,
        Func1::Abs,
        Func1::Sign,
        Func1::Floor,
        Func1::Ceil,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Func1::Sin => "sin",
            Func1::Cos => "cos",
            Func1::Tan => "tan",
            Func1::Asin => "asin",
            Func1::Acos => "acos",
            Func1::Atan => "atan",
            Func1::Sinh => "sinh",
            Func1::Cosh => "cosh",
            Func1::Tanh => "tanh",
            Func1::Exp => "exp",
            Func1::Log => "log",
            Func1::Log10 => "log10",
            Func1::Sqrt => "sqrt",
            Func1::Abs => "abs",
            Func1::Sign => "sign",
            Func1::Floor => "floor",
            Func1::Ceil => "ceil",
            Func1::Ext(f) => f.name(),
        }
    }

    pub fn from_name(name: &str) -> Option<Func1> {
        Func1::ALL.into_iter().find(|f| f.name() == name)
    }

    pub fn eval(self, x: f64) -> f64 {
        match self {
            Func1::Sin => x.sin(),
            Func1::Cos => x.cos(),
            Func1::Tan => x.tan(),
            Func1::Asin => x.asin(),
            Func1::Acos => x.acos(),
            Func1::Atan => x.atan(),
            Func1::Sinh => x.sinh(),
            Func1::Cosh => x.cosh(),
            Func1::Tanh => x.tanh(),
            Func1::Exp => x.exp(),
            Func1::Log => x.ln(),
            Func1::Log10 => x.log10(),
            Func1::Sqrt => x.sqrt(),
            Func1::Abs => x.abs(),
            Func1::Sign => {
                if x > 0.0 {
                    1.0
                } else if x < 0.0 {
                    -1.0
                } else {
                    0.0
                }
            }
            Func1::Floor => x.floor(),
            Func1::Ceil => x.ceil(),
            Func1::Ext(f) => f.call1(x),
        }
    }
}

/// Built-in functions of two arguments.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Func2 {
    Atan2,
    Min,
    Max,
    /// Modelica `div`: truncated quotient.
    Div,
    /// Modelica `mod`: x - floor(x/y)*y.
    Mod,
    /// Modelica `rem`: x - div(x, y)*y.
    Rem,
    /// An external C function `double f(double, double)`.
    Ext(external::ExtFn),
}

impl Func2 {
    pub fn name(self) -> &'static str {
        match self {
            Func2::Atan2 => "atan2",
            Func2::Min => "min",
            Func2::Max => "max",
            Func2::Div => "div",
            Func2::Mod => "mod",
            Func2::Rem => "rem",
            Func2::Ext(f) => f.name(),
        }
    }

    pub fn from_name(name: &str) -> Option<Func2> {
        [
            Func2::Atan2,
            Func2::Min,
            Func2::Max,
            Func2::Div,
            Func2::Mod,
            Func2::Rem,
        ]
        .into_iter()
        .find(|f| f.name() == name)
    }

    pub fn eval(self, x: f64, y: f64) -> f64 {
        match self {
            Func2::Atan2 => x.atan2(y),
            // Spelled out so that generated code can match it exactly: the smaller (larger)
            // operand, the first one when they compare equal (±0), the other one if one is NaN.
            Func2::Min => {
                if y < x || x.is_nan() {
                    y
                } else {
                    x
                }
            }
            Func2::Max => {
                if y > x || x.is_nan() {
                    y
                } else {
                    x
                }
            }
            Func2::Div => (x / y).trunc(),
            Func2::Mod => x - (x / y).floor() * y,
            Func2::Rem => x - (x / y).trunc() * y,
            Func2::Ext(f) => f.call2(x, y),
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CmpOp {
    Lt,
    Le,
    Gt,
    Ge,
    Eq,
    Ne,
}

impl CmpOp {
    pub fn symbol(self) -> &'static str {
        match self {
            CmpOp::Lt => "<",
            CmpOp::Le => "<=",
            CmpOp::Gt => ">",
            CmpOp::Ge => ">=",
            CmpOp::Eq => "==",
            CmpOp::Ne => "<>",
        }
    }

    pub fn eval(self, a: f64, b: f64) -> bool {
        match self {
            CmpOp::Lt => a < b,
            CmpOp::Le => a <= b,
            CmpOp::Gt => a > b,
            CmpOp::Ge => a >= b,
            CmpOp::Eq => a == b,
            CmpOp::Ne => a != b,
        }
    }
}

/// One node of the expression DAG. Booleans are represented as 0.0/1.0 constants where folded.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Node<V: Var = VarId> {
    /// A real constant, stored by bit pattern so that nodes hash.
    Const(u64),
    Var(V),
    /// `der(x)` of a variable.
    Der(V),
    /// `pre(x)`: the value at the start of the step (or before the event).
    Pre(V),
    Time,
    Neg(ExprId),
    Add(ExprId, ExprId),
    Sub(ExprId, ExprId),
    Mul(ExprId, ExprId),
    Div(ExprId, ExprId),
    Pow(ExprId, ExprId),
    Call1(Func1, ExprId),
    Call2(Func2, ExprId, ExprId),
    Cmp(CmpOp, ExprId, ExprId),
    And(ExprId, ExprId),
    Or(ExprId, ExprId),
    Not(ExprId),
    If(ExprId, ExprId, ExprId),
    /// `noEvent(e)`: relations inside generate no events.
    NoEvent(ExprId),
    /// Argument `i` of the function whose body this arena is ([`function`]).
    Arg(u32),
    /// One output of a call of a function compiled out of line ([`Arena::call_site`]).
    Call(CallId),
}

impl<V: Var> Node<V> {
    /// The same operator over another variable space; `None` for the variable leaves
    /// (`Var`, `Der`, `Pre`), which need a mapping.
    pub fn recast<W: Var>(self) -> Option<Node<W>> {
        Some(match self {
            Node::Const(b) => Node::Const(b),
            Node::Var(_) | Node::Der(_) | Node::Pre(_) => return None,
            Node::Time => Node::Time,
            Node::Arg(i) => Node::Arg(i),
            // Call sites are numbered per arena: copies go through `import` or `map_vars`.
            Node::Call(c) => Node::Call(c),
            Node::Neg(a) => Node::Neg(a),
            Node::Add(a, b) => Node::Add(a, b),
            Node::Sub(a, b) => Node::Sub(a, b),
            Node::Mul(a, b) => Node::Mul(a, b),
            Node::Div(a, b) => Node::Div(a, b),
            Node::Pow(a, b) => Node::Pow(a, b),
            Node::Call1(f, a) => Node::Call1(f, a),
            Node::Call2(f, a, b) => Node::Call2(f, a, b),
            Node::Cmp(op, a, b) => Node::Cmp(op, a, b),
            Node::And(a, b) => Node::And(a, b),
            Node::Or(a, b) => Node::Or(a, b),
            Node::Not(a) => Node::Not(a),
            Node::If(c, a, b) => Node::If(c, a, b),
            Node::NoEvent(a) => Node::NoEvent(a),
        })
    }
}

/// The arena. Ids are only meaningful for the arena that made them.
#[derive(Clone)]
pub struct Arena<V: Var = VarId> {
    nodes: Vec<Node<V>>,
    index: FxHashMap<Node<V>, ExprId>,
    /// Functions compiled out of line that calls in this arena name.
    fns: Vec<Arc<Function>>,
    calls: Vec<CallSite>,
    call_index: FxHashMap<CallSite, CallId>,
}

impl<V: Var> Default for Arena<V> {
    fn default() -> Self {
        Arena {
            nodes: Vec::new(),
            index: FxHashMap::default(),
            fns: Vec::new(),
            calls: Vec::new(),
            call_index: FxHashMap::default(),
        }
    }
}

impl<V: Var> fmt::Debug for Arena<V> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Arena({} nodes)", self.nodes.len())
    }
}

/// How deep [`Arena::lift_if`] looks into selections of constants.
const CONST_TREE_DEPTH: u32 = 6;

impl<V: Var> Arena<V> {
    pub fn new() -> Arena<V> {
        Arena::default()
    }

    pub fn len(&self) -> usize {
        self.nodes.len()
    }

    pub fn is_empty(&self) -> bool {
        self.nodes.is_empty()
    }

    pub fn node(&self, id: ExprId) -> Node<V> {
        self.nodes[id.index()]
    }

    /// Interns a node as given, without simplification.
    pub fn intern(&mut self, node: Node<V>) -> ExprId {
        if let Some(&id) = self.index.get(&node) {
            return id;
        }
        let id = ExprId::new(self.nodes.len());
        self.nodes.push(node);
        self.index.insert(node, id);
        id
    }

    /// The id of a node if it exists (no interning).
    pub fn index_of(&self, node: Node<V>) -> Option<ExprId> {
        self.index.get(&node).copied()
    }

    pub fn constant(&mut self, value: f64) -> ExprId {
        // One zero: -0.0 and 0.0 are folded together so that `x - x` and `0` are one node.
        let v = if value == 0.0 { 0.0 } else { value };
        self.intern(Node::Const(v.to_bits()))
    }

    pub fn as_const(&self, id: ExprId) -> Option<f64> {
        match self.node(id) {
            Node::Const(bits) => Some(f64::from_bits(bits)),
            _ => None,
        }
    }

    pub fn var(&mut self, v: V) -> ExprId {
        self.intern(Node::Var(v))
    }

    pub fn der(&mut self, v: V) -> ExprId {
        self.intern(Node::Der(v))
    }

    pub fn pre(&mut self, v: V) -> ExprId {
        self.intern(Node::Pre(v))
    }

    pub fn time(&mut self) -> ExprId {
        self.intern(Node::Time)
    }

    pub fn neg(&mut self, a: ExprId) -> ExprId {
        match self.node(a) {
            Node::Const(_) => {
                let v = self.as_const(a).unwrap_or(0.0);
                self.constant(-v)
            }
            Node::Neg(inner) => inner,
            _ => self.intern(Node::Neg(a)),
        }
    }

    pub fn add(&mut self, a: ExprId, b: ExprId) -> ExprId {
        match (self.as_const(a), self.as_const(b)) {
            (Some(x), Some(y)) => self.constant(x + y),
            (Some(0.0), None) => b,
            (None, Some(0.0)) => a,
            _ => {
                if let Node::Neg(nb) = self.node(b) {
                    return self.sub(a, nb);
                }
                if let Some(x) = self.lift_if(a, b, Self::add) {
                    return x;
                }
                self.intern(Node::Add(a, b))
            }
        }
    }

    pub fn sub(&mut self, a: ExprId, b: ExprId) -> ExprId {
        match (self.as_const(a), self.as_const(b)) {
            (Some(x), Some(y)) => self.constant(x - y),
            (None, Some(0.0)) => a,
            (Some(0.0), None) => self.neg(b),
            _ if a == b => self.constant(0.0),
            _ => {
                if let Node::Neg(nb) = self.node(b) {
                    return self.add(a, nb);
                }
                if let Some(x) = self.lift_if(a, b, Self::sub) {
                    return x;
                }
                self.intern(Node::Sub(a, b))
            }
        }
    }

    pub fn mul(&mut self, a: ExprId, b: ExprId) -> ExprId {
        match (self.as_const(a), self.as_const(b)) {
            (Some(x), Some(y)) => self.constant(x * y),
            (Some(0.0), None) | (None, Some(0.0)) => self.constant(0.0),
            (Some(1.0), None) => b,
            (None, Some(1.0)) => a,
            (Some(-1.0), None) => self.neg(b),
            (None, Some(-1.0)) => self.neg(a),
            _ => match (self.node(a), self.node(b)) {
                // Signs move out of products: -x*y = -(x*y), so sums can absorb them.
                (Node::Neg(x), Node::Neg(y)) => self.mul(x, y),
                (Node::Neg(x), _) => {
                    let m = self.mul(x, b);
                    self.neg(m)
                }
                (_, Node::Neg(y)) => {
                    let m = self.mul(a, y);
                    self.neg(m)
                }
                _ => match self.lift_if(a, b, Self::mul) {
                    Some(x) => x,
                    None => self.intern(Node::Mul(a, b)),
                },
            },
        }
    }

    pub fn div(&mut self, a: ExprId, b: ExprId) -> ExprId {
        match (self.as_const(a), self.as_const(b)) {
            (Some(x), Some(y)) if y != 0.0 => self.constant(x / y),
            (Some(0.0), None) => a,
            (None, Some(1.0)) => a,
            (None, Some(-1.0)) => self.neg(a),
            _ => match (self.node(a), self.node(b)) {
                (Node::Neg(x), Node::Neg(y)) => self.div(x, y),
                (Node::Neg(x), _) => {
                    let q = self.div(x, b);
                    self.neg(q)
                }
                (_, Node::Neg(y)) => {
                    let q = self.div(a, y);
                    self.neg(q)
                }
                _ => self.intern(Node::Div(a, b)),
            },
        }
    }

    pub fn pow(&mut self, a: ExprId, b: ExprId) -> ExprId {
        match (self.as_const(a), self.as_const(b)) {
            (Some(x), Some(y)) => self.constant(eval::pow(x, y)),
            (None, Some(1.0)) => a,
            _ => self.intern(Node::Pow(a, b)),
        }
    }

    pub fn call1(&mut self, f: Func1, a: ExprId) -> ExprId {
        match self.as_const(a) {
            Some(x) if !matches!(f, Func1::Ext(_)) => self.constant(f.eval(x)),
            _ => self.intern(Node::Call1(f, a)),
        }
    }

    pub fn call2(&mut self, f: Func2, a: ExprId, b: ExprId) -> ExprId {
        match (self.as_const(a), self.as_const(b)) {
            (Some(x), Some(y)) if !matches!(f, Func2::Ext(_)) => self.constant(f.eval(x, y)),
            _ => self.intern(Node::Call2(f, a, b)),
        }
    }

    pub fn cmp(&mut self, op: CmpOp, a: ExprId, b: ExprId) -> ExprId {
        match (self.as_const(a), self.as_const(b)) {
            (Some(x), Some(y)) => self.boolean(op.eval(x, y)),
            _ => {
                if self.is_const_tree(a, CONST_TREE_DEPTH)
                    && self.is_const_tree(b, CONST_TREE_DEPTH)
                {
                    if let Node::If(c, t, e) = self.node(a) {
                        let (x, y) = (self.cmp(op, t, b), self.cmp(op, e, b));
                        return self.if_(c, x, y);
                    }
                    if let Node::If(c, t, e) = self.node(b) {
                        let (x, y) = (self.cmp(op, a, t), self.cmp(op, a, e));
                        return self.if_(c, x, y);
                    }
                }
                self.intern(Node::Cmp(op, a, b))
            }
        }
    }

    /// An operation on two values that are constants selected by conditions (`if c then 2
    /// else 1`, as a function's loop counter becomes) is done per branch, so the result stays
    /// a selection of constants: `(if c then 2 else 1) + 1` is `if c then 3 else 2`.
    fn lift_if(
        &mut self,
        a: ExprId,
        b: ExprId,
        op: fn(&mut Self, ExprId, ExprId) -> ExprId,
    ) -> Option<ExprId> {
        if !self.is_const_tree(a, CONST_TREE_DEPTH) || !self.is_const_tree(b, CONST_TREE_DEPTH) {
            return None;
        }
        if let Node::If(c, t, e) = self.node(a) {
            let (x, y) = (op(self, t, b), op(self, e, b));
            return Some(self.if_(c, x, y));
        }
        if let Node::If(c, t, e) = self.node(b) {
            let (x, y) = (op(self, a, t), op(self, a, e));
            return Some(self.if_(c, x, y));
        }
        None
    }

    /// A constant, or an if-expression whose branches are such trees (to `depth` levels).
    fn is_const_tree(&self, id: ExprId, depth: u32) -> bool {
        match self.node(id) {
            Node::Const(_) => true,
            Node::If(_, t, e) if depth > 0 => {
                self.is_const_tree(t, depth - 1) && self.is_const_tree(e, depth - 1)
            }
            _ => false,
        }
    }

    pub fn boolean(&mut self, b: bool) -> ExprId {
        self.constant(if b { 1.0 } else { 0.0 })
    }

    pub fn and(&mut self, a: ExprId, b: ExprId) -> ExprId {
        match (self.as_const(a), self.as_const(b)) {
            (Some(0.0), _) => a,
            (Some(_), _) => b,
            (_, Some(0.0)) => b,
            (_, Some(_)) => a,
            _ => self.intern(Node::And(a, b)),
        }
    }

    pub fn or(&mut self, a: ExprId, b: ExprId) -> ExprId {
        match (self.as_const(a), self.as_const(b)) {
            (Some(x), _) if x != 0.0 => a,
            (Some(_), _) => b,
            (_, Some(y)) if y != 0.0 => b,
            (_, Some(_)) => a,
            _ => self.intern(Node::Or(a, b)),
        }
    }

    pub fn not(&mut self, a: ExprId) -> ExprId {
        match self.as_const(a) {
            Some(x) => self.boolean(x == 0.0),
            None => self.intern(Node::Not(a)),
        }
    }

    pub fn if_(&mut self, c: ExprId, t: ExprId, e: ExprId) -> ExprId {
        match self.as_const(c) {
            Some(x) if x != 0.0 => t,
            Some(_) => e,
            None if t == e => t,
            None => self.intern(Node::If(c, t, e)),
        }
    }

    pub fn no_event(&mut self, a: ExprId) -> ExprId {
        match self.node(a) {
            Node::Const(_) | Node::Var(_) | Node::NoEvent(_) => a,
            _ => self.intern(Node::NoEvent(a)),
        }
    }

    /// Children of a node, in order.
    pub fn children(&self, id: ExprId) -> ChildIter {
        let mut c = [ExprId(0); 3];
        let n = match self.node(id) {
            Node::Const(_)
            | Node::Var(_)
            | Node::Der(_)
            | Node::Pre(_)
            | Node::Time
            | Node::Arg(_) => 0,
            Node::Call(site) => {
                return ChildIter {
                    c,
                    n: 0,
                    k: 0,
                    many: Some(self.calls[site.0 as usize].args.clone()),
                }
            }
            Node::Neg(a) | Node::Call1(_, a) | Node::Not(a) | Node::NoEvent(a) => {
                c[0] = a;
                1
            }
            Node::Add(a, b)
            | Node::Sub(a, b)
            | Node::Mul(a, b)
            | Node::Div(a, b)
            | Node::Pow(a, b)
            | Node::Call2(_, a, b)
            | Node::Cmp(_, a, b)
            | Node::And(a, b)
            | Node::Or(a, b) => {
                c[0] = a;
                c[1] = b;
                2
            }
            Node::If(a, b, d) => {
                c[0] = a;
                c[1] = b;
                c[2] = d;
                3
            }
        };
        ChildIter {
            c,
            n,
            k: 0,
            many: None,
        }
    }

    /// Calls `f` once for every distinct node reachable from `root` (children before parents).
    pub fn visit_postorder(&self, root: ExprId, seen: &mut Vec<bool>, f: &mut impl FnMut(ExprId)) {
        if seen.len() < self.nodes.len() {
            seen.resize(self.nodes.len(), false);
        }
        // Explicit stack: expressions from large models can be deep.
        let mut stack: Vec<(ExprId, bool)> = vec![(root, false)];
        while let Some((id, expanded)) = stack.pop() {
            if expanded {
                f(id);
                continue;
            }
            if seen[id.index()] {
                continue;
            }
            seen[id.index()] = true;
            stack.push((id, true));
            for ch in self.children(id) {
                if !seen[ch.index()] {
                    stack.push((ch, false));
                }
            }
        }
    }

    /// Leaves (`Var`, `Der`, `Pre`, `Time`) that occur in `root`, each once.
    pub fn leaves(&self, root: ExprId, out: &mut Vec<Node<V>>) {
        self.find_leaf(root, |n| {
            out.push(n);
            false
        });
    }

    /// Leaves that occur in any of `roots`, each once: one walk, so that expressions sharing
    /// a large part (the outputs of one call of many arguments) are not walked once each.
    pub fn leaves_of(&self, roots: impl IntoIterator<Item = ExprId>, out: &mut Vec<Node<V>>) {
        self.find_leaf_of(roots.into_iter().collect(), |n| {
            out.push(n);
            false
        });
    }

    /// The first leaf (`Var`, `Der`, `Pre`, `Time`, `Arg`) of `root` that `hit` holds for,
    /// each leaf offered once, in the order [`Arena::leaves`] lists them; the walk stops
    /// at the hit.
    pub fn find_leaf(&self, root: ExprId, hit: impl FnMut(Node<V>) -> bool) -> Option<Node<V>> {
        self.find_leaf_of(vec![root], hit)
    }

    /// [`Arena::find_leaf`] over several roots in one walk.
    fn find_leaf_of(
        &self,
        mut stack: Vec<ExprId>,
        mut hit: impl FnMut(Node<V>) -> bool,
    ) -> Option<Node<V>> {
        let mut seen = Visited::new(*stack.first()?);
        while let Some(id) = stack.pop() {
            if !seen.insert(id) {
                continue;
            }
            let n = self.node(id);
            if matches!(
                n,
                Node::Var(_) | Node::Der(_) | Node::Pre(_) | Node::Time | Node::Arg(_)
            ) {
                if hit(n) {
                    return Some(n);
                }
            } else {
                stack.extend(self.children(id));
            }
        }
        None
    }

    /// The nodes reachable from `root`, children before parents, each once, leaving out
    /// the nodes `skip` says are done (and what lies below them only through them). The one
    /// walk the passes over an expression share (evaluation, differentiation, import, the
    /// interpreter's and the code generator's lowering, hoisting): an explicit stack, since
    /// expressions from large models can be deep, and a sparse visited set, since the arena
    /// can be large.
    pub fn post_order(&self, root: ExprId, mut skip: impl FnMut(ExprId) -> bool) -> Vec<ExprId> {
        let mut order = Vec::new();
        let mut seen = Visited::new(root);
        let mut stack = vec![(root, false)];
        while let Some((id, finished)) = stack.pop() {
            if finished {
                order.push(id);
                continue;
            }
            if !seen.insert(id) || skip(id) {
                continue;
            }
            stack.push((id, true));
            for c in self.children(id) {
                stack.push((c, false));
            }
        }
        order
    }

    /// The nodes below `root` not yet in `done`, children before parents ([`Self::post_order`]).
    fn postorder_missing(&self, root: ExprId, done: &FxHashMap<ExprId, ExprId>) -> Vec<ExprId> {
        self.post_order(root, |id| done.contains_key(&id))
    }

    /// Copies `root` of another arena (over another variable space) into this one: operators
    /// rebuilt (and re-simplified) over the copied children; each variable, derivative or `pre`
    /// leaf is what `leaf` makes of it, or the copy stops with the leaf it refused (`time` is
    /// offered to `leaf` too and stays `time` if refused). `memo` maps
    /// source ids to copies and may be kept across calls with the same `leaf` mapping.
    pub fn import<W: Var>(
        &mut self,
        src: &Arena<W>,
        root: ExprId,
        memo: &mut FxHashMap<ExprId, ExprId>,
        leaf: &mut impl FnMut(&mut Arena<V>, Node<W>) -> Option<ExprId>,
    ) -> Result<ExprId, Node<W>> {
        for id in src.postorder_missing(root, memo) {
            let node = src.node(id);
            let new = match node {
                Node::Const(bits) => self.intern(Node::Const(bits)),
                // `time` is a leaf the mapping may replace (by a variable, say); else it stays.
                Node::Time => match leaf(self, node) {
                    Some(t) => t,
                    None => self.time(),
                },
                Node::Var(_) | Node::Der(_) | Node::Pre(_) => leaf(self, node).ok_or(node)?,
                // An argument leaf is the mapping's to replace (inlining a body); else kept.
                Node::Arg(i) => match leaf(self, node) {
                    Some(a) => a,
                    None => self.arg(i),
                },
                Node::Call(c) => {
                    let ch: Vec<ExprId> = src.children(id).map(|c| memo[&c]).collect();
                    let site = src.call_site(c);
                    let f = src.function(site.f);
                    if f.late_inline {
                        // `LateInline = true`: kept as a call through the symbolic phases,
                        // written out when copied into the step system.
                        self.inline_function(f, &ch)[site.out as usize]
                    } else {
                        let f = self.add_function(f);
                        self.call(f, site.out, &ch)
                    }
                }
                op => {
                    let ch: Vec<ExprId> = src.children(id).map(|c| memo[&c]).collect();
                    let recast = op.recast().ok_or(node)?;
                    rebuild(self, recast, &ch)
                }
            };
            memo.insert(id, new);
        }
        Ok(memo[&root])
    }

    /// This arena over another variable space, each variable mapped by `f` (which must be
    /// one to one): every expression keeps its id.
    pub fn map_vars<W: Var>(&self, f: impl Fn(V) -> W) -> Arena<W> {
        let mut out = Arena::<W>::default();
        for &n in &self.nodes {
            let m = match n {
                Node::Var(v) => Node::Var(f(v)),
                Node::Der(v) => Node::Der(f(v)),
                Node::Pre(v) => Node::Pre(f(v)),
                op => op.recast().unwrap_or(Node::Time),
            };
            let id = ExprId::new(out.nodes.len());
            out.nodes.push(m);
            out.index.insert(m, id);
        }
        out.fns = self.fns.clone();
        out.calls = self.calls.clone();
        out.call_index = self.call_index.clone();
        out
    }

    pub fn substitute(
        &mut self,
        root: ExprId,
        cache: &mut FxHashMap<ExprId, ExprId>,
        f: &mut impl FnMut(&mut Arena<V>, Node<V>) -> Option<ExprId>,
    ) -> ExprId {
        for id in self.postorder_missing(root, cache) {
            if cache.contains_key(&id) {
                continue;
            }
            let node = self.node(id);
            let m = |c: &FxHashMap<ExprId, ExprId>, x: ExprId| c.get(&x).copied().unwrap_or(x);
            let new = match node {
                Node::Const(_) => id,
                Node::Var(_) | Node::Der(_) | Node::Pre(_) | Node::Time | Node::Arg(_) => {
                    f(self, node).unwrap_or(id)
                }
                Node::Call(c) => {
                    let ch: Vec<ExprId> = self.children(id).map(|x| m(cache, x)).collect();
                    let site = self.call_site(c).clone();
                    self.call(site.f, site.out, &ch)
                }
                Node::Neg(a) => {
                    let a = m(cache, a);
                    self.neg(a)
                }
                Node::Add(a, b) => {
                    let (a, b) = (m(cache, a), m(cache, b));
                    self.add(a, b)
                }
                Node::Sub(a, b) => {
                    let (a, b) = (m(cache, a), m(cache, b));
                    self.sub(a, b)
                }
                Node::Mul(a, b) => {
                    let (a, b) = (m(cache, a), m(cache, b));
                    self.mul(a, b)
                }
                Node::Div(a, b) => {
                    let (a, b) = (m(cache, a), m(cache, b));
                    self.div(a, b)
                }
                Node::Pow(a, b) => {
                    let (a, b) = (m(cache, a), m(cache, b));
                    self.pow(a, b)
                }
                Node::Call1(g, a) => {
                    let a = m(cache, a);
                    self.call1(g, a)
                }
                Node::Call2(g, a, b) => {
                    let (a, b) = (m(cache, a), m(cache, b));
                    self.call2(g, a, b)
                }
                Node::Cmp(op, a, b) => {
                    let (a, b) = (m(cache, a), m(cache, b));
                    self.cmp(op, a, b)
                }
                Node::And(a, b) => {
                    let (a, b) = (m(cache, a), m(cache, b));
                    self.and(a, b)
                }
                Node::Or(a, b) => {
                    let (a, b) = (m(cache, a), m(cache, b));
                    self.or(a, b)
                }
                Node::Not(a) => {
                    let a = m(cache, a);
                    self.not(a)
                }
                Node::If(c, t, e) => {
                    let (c, t, e) = (m(cache, c), m(cache, t), m(cache, e));
                    self.if_(c, t, e)
                }
                Node::NoEvent(a) => {
                    let a = m(cache, a);
                    self.no_event(a)
                }
            };
            cache.insert(id, new);
        }
        cache.get(&root).copied().unwrap_or(root)
    }
}

pub struct ChildIter {
    c: [ExprId; 3],
    n: usize,
    k: usize,
    /// The arguments of a call.
    many: Option<Arc<[ExprId]>>,
}

impl Iterator for ChildIter {
    type Item = ExprId;
    fn next(&mut self) -> Option<ExprId> {
        if let Some(m) = &self.many {
            self.k += 1;
            return m.get(self.k - 1).copied();
        }
        if self.k < self.n {
            self.k += 1;
            Some(self.c[self.k - 1])
        } else {
            None
        }
    }
}

/// A node of the same operator with new children (constructors re-simplify).
pub fn rebuild<V: Var>(ar: &mut Arena<V>, n: Node<V>, ch: &[ExprId]) -> ExprId {
    match n {
        Node::Neg(_) => ar.neg(ch[0]),
        Node::Add(..) => ar.add(ch[0], ch[1]),
        Node::Sub(..) => ar.sub(ch[0], ch[1]),
        Node::Mul(..) => ar.mul(ch[0], ch[1]),
        Node::Div(..) => ar.div(ch[0], ch[1]),
        Node::Pow(..) => ar.pow(ch[0], ch[1]),
        Node::Call1(f, _) => ar.call1(f, ch[0]),
        Node::Call2(f, ..) => ar.call2(f, ch[0], ch[1]),
        Node::Cmp(op, ..) => ar.cmp(op, ch[0], ch[1]),
        Node::And(..) => ar.and(ch[0], ch[1]),
        Node::Or(..) => ar.or(ch[0], ch[1]),
        Node::Not(_) => ar.not(ch[0]),
        Node::If(..) => ar.if_(ch[0], ch[1], ch[2]),
        Node::NoEvent(_) => ar.no_event(ch[0]),
        Node::Call(c) => {
            let site = ar.call_site(c).clone();
            ar.call(site.f, site.out, ch)
        }
        leaf => ar.intern(leaf),
    }
}

/// The nodes a walk over one expression has visited. Most expressions are small (an
/// equation's side): up to `SMALL` nodes are kept in a list on the stack and searched
/// linearly, past that in a hash set.
struct Visited {
    small: [ExprId; Visited::SMALL],
    len: usize,
    set: Option<FxHashSet<ExprId>>,
}

impl Visited {
    const SMALL: usize = 32;

    fn new(root: ExprId) -> Visited {
        Visited {
            small: [root; Visited::SMALL],
            len: 0,
            set: None,
        }
    }

    /// Whether `id` was not visited before (it is now).
    #[inline]
    fn insert(&mut self, id: ExprId) -> bool {
        if let Some(set) = &mut self.set {
            return set.insert(id);
        }
        if self.small[..self.len].contains(&id) {
            return false;
        }
        if self.len < Visited::SMALL {
            self.small[self.len] = id;
            self.len += 1;
        } else {
            let mut set: FxHashSet<ExprId> = self.small.iter().copied().collect();
            set.insert(id);
            self.set = Some(set);
        }
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hash_consing_shares_nodes() {
        let mut a = Arena::new();
        let x = a.var(VarId(0));
        let y = a.var(VarId(1));
        let s1 = a.add(x, y);
        let s2 = a.add(x, y);
        assert_eq!(s1, s2);
        let before = a.len();
        let _ = a.mul(s1, s2);
        assert_eq!(a.len(), before + 1);
    }

    #[test]
    fn constants_fold() {
        let mut a = Arena::new();
        let two = a.constant(2.0);
        let three = a.constant(3.0);
        let s = a.mul(two, three);
        assert_eq!(a.as_const(s), Some(6.0));
        let x = a.var(VarId(0));
        let zero = a.constant(0.0);
        assert_eq!(a.add(x, zero), x);
    }
}
