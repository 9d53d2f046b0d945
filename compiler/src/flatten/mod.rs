//! Flattening: a selected class and the class tree it names become one [`FlatModel`].
//!
//! The instance tree is built on demand: a class instance ([`InstNode`]) registers its elements
//! (its own and inherited ones) with their merged modifications as [`Slot`]s, and a slot is
//! instantiated when the node is completed or earlier when an expression needs it (a parameter
//! that sizes an array, say). Structural parameters (array sizes, for ranges, `if` conditions on
//! parameters) are folded to numbers through the bindings of the flat parameter variables.
//! Equations are then generated per instance in the scope they were written in, arrays and
//! for-equations expanded to scalars, and `connect` statements collected into connection sets
//! that yield equal potentials and zero flow sums (specification chapter 9), with every
//! unconnected flow set to zero.
//!
//! Input: parsed classes ([`classes::ClassTree`]). Output: a [`FlatModel`] whose equations keep
//! their source spans. Invariant: every user error becomes a located [`Diagnostic`]; nothing
//! here panics on input.

pub mod classes;
mod modification;
mod types;
mod values;

use crate::diag::suggest;
use crate::diag::{Diagnostic, Span};
use crate::flat::{
    Assertion, Equation, EquationOrigin, Experiment, FlatModel, ScalarType, VarKind, Variable,
};
use crate::symbolic::{CmpOp, ExprId, Func1, Func2, Node, VarId};
use crate::syntax::ast;
use classes::{Builtin, ClassId, ClassTree, Found};
use modification::{merge, Env, Mod};
use rustc_hash::FxHashMap;
use std::rc::Rc;
pub use values::{dims_text, Arr, Val};

type DResult<T> = Result<T, Box<Diagnostic>>;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct NodeId(pub u32);

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
struct SlotId(u32);

/// An instance of a class (the model itself, a component, a connector).
struct InstNode {
    /// Flat name prefix: `""` for the model, `res[2]` for a component.
    path: String,
    /// Slots by element name.
    slots: FxHashMap<Box<str>, SlotId>,
    order: Vec<SlotId>,
    /// The class and every class it inherits from: where its equations are written.
    classes: Vec<ClassId>,
    is_connector: bool,
    parent: Option<NodeId>,
}

#[derive(Clone, Debug)]
enum Entry {
    Vars {
        dims: Vec<usize>,
        vars: Rc<[VarId]>,
    },
    Nodes {
        dims: Vec<usize>,
        nodes: Rc<[NodeId]>,
    },
    /// A String parameter or constant: its value (Strings are not variables of the step).
    Str(Rc<str>),
    /// A conditional component whose condition is false.
    Disabled,
}

enum SlotState {
    Pending,
    InProgress,
    Done(Entry),
}

struct Slot<'a> {
    name: Box<str>,
    clause: &'a ast::ComponentClause,
    decl: &'a ast::ComponentDecl,
    /// The class the declaration is written in.
    lexical: ClassId,
    node: NodeId,
    modif: Mod<'a>,
    state: SlotState,
    /// Prefixes inherited from the enclosing component (`parameter` record, `input` connector).
    outer_variability: Option<ast::Variability>,
    outer_causality: Option<ast::Causality>,
    outer_flow: bool,
    /// Set once instantiated: the component's class is a connector.
    is_connector: bool,
}

/// Extra facts about a flat variable that only flattening needs.
#[derive(Clone, Copy)]
struct VarMeta {
    is_flow: bool,
}

/// One side of a `connect`: a leaf variable and whether its connector is an outside one.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
struct ConnEnd {
    var: VarId,
    outside: bool,
}

struct Connection {
    a: ConnEnd,
    b: ConnEnd,
    is_flow: bool,
    span: Span,
}

/// Options of flattening.
#[derive(Clone, Debug, Default)]
pub struct Options {
    /// `Pkg.Model`; default: the file's single top-level model.
    pub model: Option<String>,
    pub libs: Vec<std::path::PathBuf>,
    pub modelicapath: Option<String>,
    /// Parameter overrides `name=value` applied as outermost modifications.
    pub params: Vec<(String, f64)>,
}

/// Result of flattening: the model, or the diagnostics that prevented it; warnings either way.
pub struct Outcome {
    pub model: Option<FlatModel>,
    pub diagnostics: Vec<Diagnostic>,
}

/// Flattens the model in `text` (named `file_name`). `tree` must be fresh; it keeps the sources
/// for rendering diagnostics afterwards.
pub fn flatten_source(
    tree: &mut ClassTree<'_>,
    file_name: &str,
    text: &str,
    opts: &Options,
) -> Outcome {
    tree.add_library_paths(&opts.libs, opts.modelicapath.as_deref());
    let tops = match tree.add_user_file(file_name, text) {
        Ok(t) => t,
        Err(d) => {
            return Outcome {
                model: None,
                diagnostics: vec![*d],
            }
        }
    };
    let class = match select_model(tree, &tops, opts.model.as_deref()) {
        Ok(c) => c,
        Err(d) => {
            return Outcome {
                model: None,
                diagnostics: vec![*d],
            }
        }
    };
    let mut f = Flattener::new(tree);
    let result = f.run(class, opts);
    let mut diagnostics = std::mem::take(&mut f.diags);
    let model = match result {
        Ok(()) if !diagnostics.iter().any(|d| d.is_error()) => Some(std::mem::take(&mut f.flat)),
        Ok(()) => None,
        Err(d) => {
            diagnostics.push(*d);
            None
        }
    };
    Outcome { model, diagnostics }
}

fn select_model(
    tree: &mut ClassTree<'_>,
    tops: &[ClassId],
    name: Option<&str>,
) -> DResult<ClassId> {
    if let Some(name) = name {
        let parts: Vec<&str> = name.split('.').collect();
        let mut cur = tree.top_level(parts[0]);
        for p in &parts[1..] {
            cur = match cur {
                Some(c) => match tree.member(c, p, 0) {
                    Some(Found::Class(k)) => Some(k),
                    _ => None,
                },
                None => None,
            };
        }
        return cur.ok_or_else(|| {
            Box::new(
                Diagnostic::error("unknown-name", format!("no class named `{name}`")).help(
                    format!("top-level classes: {}", tree.top_names().join(", ")),
                ),
            )
        });
    }
    let candidates: Vec<ClassId> = tops
        .iter()
        .copied()
        .filter(|&c| {
            !matches!(
                tree.info(c).restriction(),
                Some(ast::Restriction::Package | ast::Restriction::Function)
            )
        })
        .collect();
    match candidates.as_slice() {
        [one] => Ok(*one),
        [] => {
            // A single package: its single model, if it has exactly one.
            Err(Box::new(
                Diagnostic::error("no-model", "the file defines no model to flatten")
                    .help("select one with --model Package.Model"),
            ))
        }
        many => {
            let names: Vec<String> = many
                .iter()
                .map(|&c| tree.info(c).full_name.clone())
                .collect();
            Err(Box::new(
                Diagnostic::error(
                    "no-model",
                    format!("the file defines {} classes; which one?", many.len()),
                )
                .at(tree.info(many[1]).span(), "second candidate")
                .help(format!("select one with --model: {}", names.join(", "))),
            ))
        }
    }
}

struct Flattener<'t, 'a> {
    tree: &'t mut ClassTree<'a>,
    nodes: Vec<InstNode>,
    slots: Vec<Slot<'a>>,
    flat: FlatModel,
    meta: Vec<VarMeta>,
    /// For-loop indices in scope: name, value, type (Integer for Integer ranges).
    loop_vars: Vec<(Box<str>, f64, ScalarType)>,
    end_stack: Vec<usize>,
    connections: Vec<Connection>,
    /// Constant values of parameters, folded on demand (`None` while being evaluated).
    const_cache: FxHashMap<VarId, Option<Option<f64>>>,
    package_consts: FxHashMap<(ClassId, Box<str>), Arr>,
    diags: Vec<Diagnostic>,
    top: Option<NodeId>,
    /// The slot of the last part of the last resolved reference.
    last_slot: Option<SlotId>,
    /// Sizes of arrays being declared, known from their binding (`A[:, size(A, 1)] = …`).
    pending_dims: FxHashMap<SlotId, Vec<usize>>,
    /// Inside a when-condition or when-body: `edge` and `change` are allowed there.
    in_when: bool,
    /// The classes whose `extends` are being followed (to find inheritance cycles).
    extends_chain: Vec<ClassId>,
    /// For-loop iterations so far (bounded by [`MAX_ITERATIONS`]).
    iterations: usize,
}

const MAX_ERRORS: usize = 20;

/// Components nested deeper than this are refused (no model needs it; it bounds recursion).
const MAX_INSTANCE_DEPTH: usize = 100;

/// Size limits of a model rtc compiles. They are far above what a step function can compute
/// in a real-time frame (the largest benchmarked model, the n = 5000 line, has 20 000
/// variables) and keep a mistyped size (`n = 1000000`) from taking minutes and gigabytes
/// before anything is said: scalar variables, component instances, elements of one array value,
/// and for-loop iterations in the whole model.
pub const MAX_VARIABLES: usize = 200_000;
pub const MAX_INSTANCES: usize = 200_000;
pub const MAX_ELEMENTS: usize = 1_000_000;
pub const MAX_ITERATIONS: usize = 4_000_000;

thread_local! {
    /// Placeholder source of a `--param` override on a parameter declared without a binding.
    static OVERRIDE_EXPR: &'static ast::Expr = Box::leak(Box::new(ast::Expr {
        kind: ast::ExprKind::Integer(0),
        span: Span::default(),
    }));
}

impl<'t, 'a> Flattener<'t, 'a> {
    fn new(tree: &'t mut ClassTree<'a>) -> Self {
        Flattener {
            tree,
            nodes: Vec::new(),
            slots: Vec::new(),
            flat: FlatModel::default(),
            meta: Vec::new(),
            loop_vars: Vec::new(),
            end_stack: Vec::new(),
            connections: Vec::new(),
            const_cache: FxHashMap::default(),
            package_consts: FxHashMap::default(),
            diags: Vec::new(),
            top: None,
            last_slot: None,
            pending_dims: FxHashMap::default(),
            in_when: false,
            extends_chain: Vec::new(),
            iterations: 0,
        }
    }

    fn run(&mut self, class: ClassId, opts: &Options) -> DResult<()> {
        let info = self.tree.info(class);
        self.flat.name = info.full_name.clone();
        let def = info.def;
        if let Some(def) = def {
            self.flat.description = def.description.text.clone();
            if def.partial {
                return Err(Box::new(
                    Diagnostic::error(
                        "partial",
                        format!("`{}` is partial and cannot be simulated", def.name.name),
                    )
                    .at(def.name.span, "declared partial"),
                ));
            }
        }
        let mut top_mod = Mod::default();
        let mut override_exprs = Vec::new();
        for (name, value) in &opts.params {
            override_exprs.push((name.clone(), *value));
        }
        let top = self.new_node(String::new(), false, None);
        self.top = Some(top);
        // `model M2 = M(p = 1);` simulates M with the modification.
        let mut dims = Vec::new();
        let mut caus = None;
        let span = self.tree.info(class).span();
        let class = self.resolve_short(class, &mut top_mod, &mut dims, &mut caus, span)?;
        if !dims.is_empty() || self.tree.info(class).builtin.is_some() {
            return Err(Box::new(
                Diagnostic::error("no-model", "the selected class is not a model").at(span, "here"),
            ));
        }
        self.check_redeclares(&top_mod)?;
        self.populate(top, class, &mut top_mod, None)?;
        self.check_modifiers(top, &top_mod, class)?;
        self.apply_overrides(top, &override_exprs)?;
        self.complete_node(top)?;
        self.generate_equations()?;
        self.connection_equations();
        self.classify()?;
        if let Some(def) = def {
            self.flat.experiment = self.experiment(def, class);
        }
        for e in std::mem::take(&mut self.tree.load_errors) {
            self.diags.push(e);
        }
        Ok(())
    }

    // ------------------------------------------------------------------ instance tree

    fn new_node(&mut self, path: String, is_connector: bool, parent: Option<NodeId>) -> NodeId {
        let id = NodeId(self.nodes.len() as u32);
        self.nodes.push(InstNode {
            path,
            slots: FxHashMap::default(),
            order: Vec::new(),
            classes: Vec::new(),
            is_connector,
            parent,
        });
        id
    }

    /// Resolves short class definitions down to a long class or built-in, merging their
    /// modifications (outer first) and collecting array dimensions and causality.
    fn resolve_short(
        &mut self,
        mut class: ClassId,
        modif: &mut Mod<'a>,
        dims: &mut Vec<usize>,
        causality: &mut Option<ast::Causality>,
        span: Span,
    ) -> DResult<ClassId> {
        for _ in 0..64 {
            let info_parent = self.tree.info(class).parent;
            let Some(def) = self.tree.info(class).def else {
                return Ok(class);
            };
            match &def.body {
                ast::ClassBody::Short {
                    causality: c,
                    base,
                    subscripts,
                    modification,
                } => {
                    let lexical = info_parent.unwrap_or(class);
                    let env = Env {
                        node: None,
                        class: lexical,
                    };
                    if let Some(cm) = modification {
                        // A type's own modification applies to every element of an array of it.
                        let mut inner = Mod::from_class_mod(cm, env);
                        inner.mark_each();
                        *modif = merge(modif, &inner);
                    }
                    if causality.is_none() {
                        *causality = *c;
                    }
                    for s in subscripts {
                        match s {
                            ast::Subscript::Expr(e) => {
                                let n = self.eval_dim(e, env)?;
                                dims.push(n);
                            }
                            ast::Subscript::Colon(sp) => {
                                return Err(self.unsupported(*sp, "`:` in a type definition"))
                            }
                        }
                    }
                    let found = match info_parent {
                        Some(p) => self.tree.lookup_name(p, base),
                        None => self.tree.lookup_top_name(base),
                    };
                    class = match found {
                        Some(Found::Class(b)) => b,
                        _ => return Err(self.unknown_class(base, lexical)),
                    };
                }
                ast::ClassBody::Enumeration { .. } => {
                    return Err(self.unsupported(def.name.span, "enumeration types"))
                }
                ast::ClassBody::Der { .. } => {
                    return Err(self.unsupported(def.name.span, "der(...) class definitions"))
                }
                ast::ClassBody::Long { .. } => return Ok(class),
            }
        }
        Err(Box::new(
            Diagnostic::error("cycle", "type definition refers to itself").at(span, "here"),
        ))
    }

    /// Registers the elements of `class` (and its bases) in `node`.
    fn populate(
        &mut self,
        node: NodeId,
        class: ClassId,
        modif: &mut Mod<'a>,
        outer: Option<(Option<ast::Variability>, Option<ast::Causality>, bool)>,
    ) -> DResult<()> {
        if let Some(k) = self.extends_chain.iter().position(|&c| c == class) {
            let names: Vec<String> = self.extends_chain[k..]
                .iter()
                .chain([&class])
                .map(|&c| format!("`{}`", self.tree.info(c).full_name))
                .collect();
            return Err(Box::new(
                Diagnostic::error(
                    "cycle",
                    format!(
                        "`{}` inherits from itself: {}",
                        self.tree.info(class).full_name,
                        names.join(" extends ")
                    ),
                )
                .at(self.tree.info(class).span(), "here"),
            ));
        }
        // Inherited twice along different paths (a diamond): the elements are the same.
        if self.nodes[node.0 as usize].classes.contains(&class) {
            return Ok(());
        }
        if self.nodes[node.0 as usize].classes.len() > 256 {
            return Err(Box::new(
                Diagnostic::error("too-deep", "a class inherits from more than 256 classes")
                    .at(self.tree.info(class).span(), "here"),
            ));
        }
        self.nodes[node.0 as usize].classes.push(class);
        self.extends_chain.push(class);
        let r = self.populate_elements(node, class, modif, outer);
        self.extends_chain.pop();
        r
    }

    fn populate_elements(
        &mut self,
        node: NodeId,
        class: ClassId,
        modif: &mut Mod<'a>,
        outer: Option<(Option<ast::Variability>, Option<ast::Causality>, bool)>,
    ) -> DResult<()> {
        let Some(comp) = self.tree.info(class).composition() else {
            return Ok(());
        };
        let env = Env {
            node: Some(node),
            class,
        };
        for element in &comp.elements {
            match element {
                ast::Element::Extends(ext) => {
                    let base = match self.tree.lookup_name(class, &ext.base) {
                        Some(Found::Class(b)) => b,
                        _ => return Err(self.unknown_class(&ext.base, class)),
                    };
                    let mut m = modif.clone();
                    if let Some(cm) = &ext.modification {
                        for a in &cm.args {
                            if let ast::Argument::Redeclare { span, what } = a {
                                return Err(self.unsupported(*span, what));
                            }
                        }
                        let inner = Mod::from_class_mod(cm, env);
                        m = merge(&m, &inner);
                    }
                    let mut dims = Vec::new();
                    let mut caus = None;
                    let base = self.resolve_short(base, &mut m, &mut dims, &mut caus, ext.span)?;
                    if let Some(b) = self.tree.info(base).builtin {
                        // `extends Real` in a type: the class is a scalar type.
                        let _ = b;
                        return Err(self.unsupported(ext.span, "extending a built-in type"));
                    }
                    self.populate(node, base, &mut m, outer)?;
                }
                ast::Element::Component(clause, prefix) => {
                    if prefix.inner || prefix.outer {
                        return Err(self.unsupported(clause.span, "inner/outer components"));
                    }
                    for decl in &clause.components {
                        let mut m = modif.sub(&decl.name.name);
                        if let Some(dm) = &decl.modification {
                            let inner = Mod::from_modification(dm, env);
                            m = merge(&m, &inner);
                        }
                        self.add_slot(node, clause, decl, class, m, outer)?;
                    }
                }
                ast::Element::Class(..) | ast::Element::Import(_) => {}
            }
        }
        Ok(())
    }

    fn add_slot(
        &mut self,
        node: NodeId,
        clause: &'a ast::ComponentClause,
        decl: &'a ast::ComponentDecl,
        lexical: ClassId,
        modif: Mod<'a>,
        outer: Option<(Option<ast::Variability>, Option<ast::Causality>, bool)>,
    ) -> DResult<()> {
        if let Some(&existing) = self.nodes[node.0 as usize].slots.get(&decl.name.name) {
            let prev = self.slots[existing.0 as usize].decl.name.span;
            return Err(Box::new(
                Diagnostic::error(
                    "duplicate",
                    format!("`{}` is declared twice", decl.name.name),
                )
                .at(decl.name.span, "declared again here")
                .also(prev, "first declared here"),
            ));
        }
        let id = SlotId(self.slots.len() as u32);
        let (ov, oc, of) = outer.unwrap_or((None, None, false));
        self.slots.push(Slot {
            name: decl.name.name.clone(),
            clause,
            decl,
            lexical,
            node,
            modif,
            state: SlotState::Pending,
            outer_variability: ov,
            outer_causality: oc,
            outer_flow: of,
            is_connector: false,
        });
        let n = &mut self.nodes[node.0 as usize];
        n.slots.insert(decl.name.name.clone(), id);
        n.order.push(id);
        Ok(())
    }

    /// Applies `--param name=value` overrides to top-level parameters.
    fn apply_overrides(&mut self, top: NodeId, overrides: &[(String, f64)]) -> DResult<()> {
        for (name, value) in overrides {
            let Some(&sid) = self.nodes[top.0 as usize].slots.get(name.as_str()) else {
                return Err(Box::new(Diagnostic::error(
                    "unknown-name",
                    format!("--param: the model has no top-level parameter `{name}`"),
                )));
            };
            let slot = &self.slots[sid.0 as usize];
            if slot.clause.prefix.variability != Some(ast::Variability::Parameter) {
                return Err(Box::new(
                    Diagnostic::error(
                        "not-a-parameter",
                        format!("--param: `{name}` is not a parameter"),
                    )
                    .at(slot.decl.name.span, "declared here"),
                ));
            }
            if !slot.decl.subscripts.is_empty() || !slot.clause.subscripts.is_empty() {
                return Err(Box::new(
                    Diagnostic::error(
                        "command-line",
                        format!("--param: `{name}` is an array; --param sets scalar parameters"),
                    )
                    .at(slot.decl.name.span, "declared here"),
                ));
            }
            let lexical = slot.lexical;
            let expr = slot
                .decl
                .modification
                .as_ref()
                .and_then(|m| match &m.binding {
                    Some(ast::Binding::Expr(e)) => Some(e),
                    _ => None,
                });
            let fallback = OVERRIDE_EXPR.with(|e| *e);
            self.slots[sid.0 as usize].modif.binding = Some(modification::ModValue {
                expr: expr.unwrap_or(fallback),
                env: Env {
                    node: Some(top),
                    class: lexical,
                },
                select: Vec::new(),
                value: Some(*value),
            });
        }
        Ok(())
    }

    /// Instantiates every slot of a node (recursively).
    fn complete_node(&mut self, node: NodeId) -> DResult<()> {
        let order = self.nodes[node.0 as usize].order.clone();
        for sid in order {
            self.instantiate(sid)?;
        }
        Ok(())
    }

    fn slot_path(&self, sid: SlotId) -> String {
        let s = &self.slots[sid.0 as usize];
        let p = &self.nodes[s.node.0 as usize].path;
        if p.is_empty() {
            s.name.to_string()
        } else {
            format!("{p}.{}", s.name)
        }
    }

    fn instantiate(&mut self, sid: SlotId) -> DResult<Entry> {
        match &self.slots[sid.0 as usize].state {
            SlotState::Done(e) => return Ok(e.clone()),
            SlotState::InProgress => {
                let d = self.slots[sid.0 as usize].decl;
                return Err(Box::new(
                    Diagnostic::error("cycle", format!("`{}` depends on itself", d.name.name))
                        .at(d.name.span, "in its own definition"),
                ));
            }
            SlotState::Pending => {}
        }
        self.slots[sid.0 as usize].state = SlotState::InProgress;
        let entry = self.instantiate_inner(sid)?;
        self.slots[sid.0 as usize].state = SlotState::Done(entry.clone());
        Ok(entry)
    }

    fn instantiate_inner(&mut self, sid: SlotId) -> DResult<Entry> {
        let (clause, decl, lexical, node, mut modif) = {
            let s = &self.slots[sid.0 as usize];
            (s.clause, s.decl, s.lexical, s.node, s.modif.clone())
        };
        let env = Env {
            node: Some(node),
            class: lexical,
        };
        if let Some(cond) = &decl.condition {
            let v = self.eval_const(cond, env, "a component condition")?;
            if v == 0.0 {
                return Ok(Entry::Disabled);
            }
        }
        let class = match self.tree.lookup_name(lexical, &clause.type_name) {
            Some(Found::Class(c)) => c,
            Some(Found::Component { .. }) => {
                return Err(Box::new(
                    Diagnostic::error(
                        "not-a-class",
                        format!(
                            "`{}` is a component, not a type",
                            clause.type_name.to_dotted()
                        ),
                    )
                    .at(clause.type_name.span, "expected a type"),
                ))
            }
            None => return Err(self.unknown_class(&clause.type_name, lexical)),
        };
        // Dimensions: declaration subscripts, then the clause's, then the type's. With `:`
        // the binding's size is known first, so `size(A, 1)` may refer to the array itself.
        let has_colon = decl
            .subscripts
            .iter()
            .chain(&clause.subscripts)
            .any(|s| matches!(s, ast::Subscript::Colon(_)));
        if has_colon {
            if let Some(b) = modif.binding.clone() {
                let v = self.eval_mod_value(&b)?;
                self.pending_dims.insert(sid, v.dims);
            }
        }
        let mut dims = Vec::new();
        let mut colon = false;
        for s in decl.subscripts.iter().chain(&clause.subscripts) {
            match s {
                ast::Subscript::Expr(e) => dims.push(self.eval_dim(e, env)?),
                ast::Subscript::Colon(_) => {
                    colon = true;
                    dims.push(usize::MAX);
                }
            }
        }
        if colon {
            // `A[:, 2] = ...`: sizes come from the binding.
            let Some(b) = modif.binding.clone() else {
                return Err(Box::new(
                    Diagnostic::error(
                        "size",
                        format!(
                            "the size of `{}` is not given and it has no binding",
                            decl.name.name
                        ),
                    )
                    .at(decl.name.span, "declared with `:`"),
                ));
            };
            let v = self.eval_mod_value(&b)?;
            for (k, d) in dims.iter_mut().enumerate() {
                if *d == usize::MAX {
                    *d = *v.dims.get(k).ok_or_else(|| {
                        Box::new(
                            Diagnostic::error(
                                "size",
                                format!(
                                    "binding of `{}` has {} dimensions, the declaration more",
                                    decl.name.name,
                                    v.dims.len()
                                ),
                            )
                            .at(b.expr.span, "binding"),
                        )
                    })?;
                }
            }
        }
        let mut causality = clause.prefix.causality;
        let class =
            self.resolve_short(class, &mut modif, &mut dims, &mut causality, clause.span)?;
        let s = &self.slots[sid.0 as usize];
        let causality = causality.or(s.outer_causality);
        let variability = clause.prefix.variability.or(s.outer_variability);
        let is_flow = clause.prefix.connection == Some(ast::Connection::Flow) || s.outer_flow;
        if clause.prefix.connection == Some(ast::Connection::Stream) {
            return Err(self.unsupported(clause.span, "stream connectors"));
        }
        let path = self.slot_path(sid);
        let count = elements(&dims, decl.name.span, &format!("`{path}`"))?;
        let info = self.tree.info(class);
        let limit = if info.builtin.is_some() {
            (self.flat.vars.len(), MAX_VARIABLES, "scalar variables")
        } else {
            (self.nodes.len(), MAX_INSTANCES, "component instances")
        };
        if limit.0 + count > limit.1 {
            return Err(Box::new(
                Diagnostic::error(
                    "too-large",
                    format!(
                        "with `{path}` ({count} elements) the model has more than {} {}, rtc's limit",
                        limit.1, limit.2
                    ),
                )
                .at(decl.name.span, "too large")
                .help("a real-time step function cannot compute a model of this size in a frame; check the sizes"),
            ));
        }
        let info = self.tree.info(class);
        if info.builtin == Some(Builtin::String) {
            return self.string_entry(sid, &dims, &modif, variability);
        }
        if let Some(b) = info.builtin {
            let vars = self.make_vars(
                sid,
                &path,
                b,
                &dims,
                &modif,
                variability,
                causality,
                is_flow,
            )?;
            let mut is_conn = false;
            // `connector RealInput = input Real`: a connector whose only element is itself.
            let tdef = self.tree.lookup_name(lexical, &clause.type_name);
            if let Some(Found::Class(c)) = tdef {
                is_conn = self.short_chain_has_connector(c);
            }
            self.slots[sid.0 as usize].is_connector = is_conn;
            return Ok(Entry::Vars {
                dims,
                vars: vars.into(),
            });
        }
        let restriction = info.restriction();
        let is_connector = matches!(
            restriction,
            Some(ast::Restriction::Connector | ast::Restriction::ExpandableConnector)
        );
        if restriction == Some(ast::Restriction::ExpandableConnector) {
            return Err(self.unsupported(clause.span, "expandable connectors"));
        }
        if matches!(
            restriction,
            Some(
                ast::Restriction::Function
                    | ast::Restriction::Package
                    | ast::Restriction::OperatorFunction
            )
        ) {
            return Err(Box::new(
                Diagnostic::error(
                    "not-a-class",
                    format!(
                        "`{}` is a {} and cannot be a component's type",
                        info.full_name,
                        restriction.map(|r| r.keyword()).unwrap_or("class")
                    ),
                )
                .at(clause.type_name.span, "here"),
            ));
        }
        if info.def.is_some_and(|d| d.partial) {
            return Err(Box::new(
                Diagnostic::error(
                    "partial",
                    format!(
                        "component `{}` has partial type `{}`",
                        decl.name.name, info.full_name
                    ),
                )
                .at(clause.type_name.span, "partial class"),
            ));
        }
        // A class whose instance contains an instance of itself (a record with a component of
        // its own type, a model that names itself through an import) never ends.
        let mut anc = Some(node);
        let mut depth = 0;
        while let Some(a) = anc {
            let n = &self.nodes[a.0 as usize];
            if n.classes.first() == Some(&class) {
                let name = self.tree.info(class).full_name.clone();
                return Err(Box::new(
                    Diagnostic::error(
                        "cycle",
                        format!(
                            "`{}` has type `{name}`, which contains it: the instance would never end",
                            decl.name.name
                        ),
                    )
                    .at(clause.type_name.span, format!("`{name}` inside `{name}`"))
                    .help("a component cannot have the type of a class it is part of"),
                ));
            }
            depth += 1;
            anc = n.parent;
        }
        if depth > MAX_INSTANCE_DEPTH {
            return Err(Box::new(
                Diagnostic::error(
                    "too-deep",
                    format!("components nest more than {MAX_INSTANCE_DEPTH} levels deep"),
                )
                .at(decl.name.span, "here"),
            ));
        }
        self.slots[sid.0 as usize].is_connector = is_connector;
        self.check_redeclares(&modif)?;
        if let Some(b) = &modif.binding {
            return Err(self.unsupported(
                b.expr.span,
                "bindings of structured components (records): set their fields instead",
            ));
        }
        let outer = Some((variability, causality, is_flow));
        let mut nodes = Vec::with_capacity(count);
        for k in 0..count {
            let sub_path = format!("{path}{}", subscript_text(&dims, k));
            let child = self.new_node(sub_path, is_connector, Some(node));
            let mut m = if dims.is_empty() {
                modif.clone()
            } else {
                modif.select(&dims, k)
            };
            self.populate(child, class, &mut m, outer)?;
            self.check_modifiers(child, &m, class)?;
            nodes.push(child);
        }
        for &child in &nodes {
            self.complete_node(child)?;
        }
        Ok(Entry::Nodes {
            dims,
            nodes: nodes.into(),
        })
    }

    fn short_chain_has_connector(&mut self, mut c: ClassId) -> bool {
        for _ in 0..64 {
            let info = self.tree.info(c);
            if matches!(
                info.restriction(),
                Some(ast::Restriction::Connector | ast::Restriction::ExpandableConnector)
            ) {
                return true;
            }
            match self.tree.base_of_short(c) {
                Some((b, _)) => c = b,
                None => return false,
            }
        }
        false
    }

    fn check_redeclares(&self, m: &Mod<'a>) -> DResult<()> {
        if let Some((span, what)) = m.redeclares.first() {
            return Err(self.unsupported(*span, what));
        }
        for (_, sub) in &m.subs {
            self.check_redeclares(sub)?;
        }
        Ok(())
    }

    /// Every modifier must name an element of the class.
    fn check_modifiers(&mut self, node: NodeId, m: &Mod<'a>, class: ClassId) -> DResult<()> {
        for (name, sub) in &m.subs {
            if !self.nodes[node.0 as usize].slots.contains_key(name) {
                let candidates: Vec<String> = self.nodes[node.0 as usize]
                    .slots
                    .keys()
                    .map(|k| k.to_string())
                    .collect();
                let mut d = Diagnostic::error(
                    "unknown-modifier",
                    format!(
                        "`{}` has no element `{name}` to modify",
                        self.tree.info(class).full_name
                    ),
                );
                if let Some(sp) = sub.span {
                    d = d.at(sp, "modifies nothing");
                }
                if let Some(s) = suggest(name, &candidates) {
                    d = d.help(format!("did you mean `{s}`?"));
                } else {
                    let mut c = candidates;
                    c.sort();
                    d = d.help(format!("its elements are: {}", c.join(", ")));
                }
                return Err(Box::new(d));
            }
        }
        Ok(())
    }

    /// A String component: parameters and constants carry their value for messages and
    /// comparisons; String variables are not supported.
    fn string_entry(
        &mut self,
        sid: SlotId,
        dims: &[usize],
        modif: &Mod<'a>,
        variability: Option<ast::Variability>,
    ) -> DResult<Entry> {
        let decl = self.slots[sid.0 as usize].decl;
        if variability.is_none() || variability == Some(ast::Variability::Discrete) {
            return Err(self.unsupported(
                decl.span,
                "String variables (String parameters and constants are)",
            ));
        }
        if !dims.is_empty() {
            return Err(self.unsupported(decl.span, "arrays of Strings"));
        }
        if let Some((name, sub)) = modif.subs.iter().find(|(n, _)| &**n != "start") {
            let mut d = Diagnostic::error(
                "unknown-modifier",
                format!("a String parameter has no attribute `{name}`"),
            );
            if let Some(sp) = sub.span {
                d = d.at(sp, "not an attribute");
            }
            return Err(Box::new(d));
        }
        let value = match modif.binding.clone().or_else(|| modif.sub("start").binding) {
            Some(b) => match self.eval_mod_value_val(&b)? {
                Val::Str(s) => s,
                Val::Arr(a) => return Err(Box::new(
                    Diagnostic::error(
                        "type",
                        format!(
                            "the value of String `{}` is {}",
                            decl.name.name,
                            a.ty.name()
                        ),
                    )
                    .at(b.expr.span, a.ty.name())
                    .help(
                        "a String value is written in double quotes; String(x) converts a number",
                    ),
                )),
            },
            None if variability == Some(ast::Variability::Constant) => {
                return Err(Box::new(
                    Diagnostic::error(
                        "no-value",
                        format!("constant `{}` has no value", decl.name.name),
                    )
                    .at(decl.name.span, "declared without a value"),
                ))
            }
            None => String::new(),
        };
        Ok(Entry::Str(value.into()))
    }

    #[allow(clippy::too_many_arguments)]
    fn make_vars(
        &mut self,
        sid: SlotId,
        path: &str,
        builtin: Builtin,
        dims: &[usize],
        modif: &Mod<'a>,
        variability: Option<ast::Variability>,
        causality: Option<ast::Causality>,
        is_flow: bool,
    ) -> DResult<Vec<VarId>> {
        let (decl, node) = {
            let s = &self.slots[sid.0 as usize];
            (s.decl, s.node)
        };
        let ty = match builtin {
            Builtin::Real => ScalarType::Real,
            Builtin::Integer => ScalarType::Integer,
            Builtin::Boolean => ScalarType::Boolean,
            // `string_entry` takes them before.
            Builtin::String => return Err(self.unsupported(decl.span, "String variables")),
        };
        for (name, sub) in &modif.subs {
            if !matches!(
                &**name,
                "start"
                    | "fixed"
                    | "min"
                    | "max"
                    | "nominal"
                    | "unit"
                    | "displayUnit"
                    | "quantity"
                    | "stateSelect"
            ) {
                let mut d = Diagnostic::error(
                    "unknown-modifier",
                    format!("`{}` has no attribute `{name}`", ty.name()),
                )
                .help("the attributes are start, fixed, min, max, nominal, unit, displayUnit, quantity, stateSelect");
                if let Some(sp) = sub.span {
                    d = d.at(sp, "not an attribute");
                }
                return Err(Box::new(d));
            }
        }
        let is_top = self.top == Some(node);
        let top_connector = !is_top && self.is_top_connector(node);
        let kind = match variability {
            Some(ast::Variability::Constant) => VarKind::Constant,
            Some(ast::Variability::Parameter) => VarKind::Parameter,
            Some(ast::Variability::Discrete) => VarKind::Discrete,
            None => {
                if causality == Some(ast::Causality::Input)
                    && (is_top || top_connector)
                    && modif.binding.is_none()
                {
                    VarKind::Input
                } else if ty == ScalarType::Real {
                    VarKind::Algebraic
                } else {
                    VarKind::Discrete
                }
            }
        };
        let is_output = causality == Some(ast::Causality::Output) && (is_top || top_connector);
        let count: usize = dims.iter().product();
        let description = decl.description.text.clone();
        let unit = match modif.sub("unit").binding {
            Some(b) => match self.eval_mod_value_val(&b)? {
                Val::Str(s) => Some(s),
                Val::Arr(a) => {
                    return Err(Box::new(
                        Diagnostic::error(
                            "type",
                            format!(
                                "the `unit` attribute is a String, but this is {}",
                                a.ty.name()
                            ),
                        )
                        .at(b.expr.span, a.ty.name())
                        .help("write the unit in double quotes, e.g. unit = \"m/s\""),
                    ))
                }
            },
            None => None,
        };
        let implicit = rtc_annotation_flag(decl, "implicit");
        let fast = rtc_annotation_flag(decl, "fast");
        let mut out = Vec::with_capacity(count);
        for k in 0..count {
            let m = if dims.is_empty() {
                modif.clone()
            } else {
                modif.select(dims, k)
            };
            let name = format!("{path}{}", subscript_text(dims, k));
            let id = VarId(self.flat.vars.len() as u32);
            self.flat.vars.push(Variable {
                name,
                kind,
                ty,
                is_output,
                binding: None,
                start: None,
                start_span: None,
                fixed: None,
                min: None,
                max: None,
                nominal: None,
                unit: unit.clone(),
                description: description.clone(),
                span: decl.name.span,
                implicit,
                fast,
            });
            self.meta.push(VarMeta { is_flow });
            out.push(id);
            // Attributes: start, min, max and nominal of the variable's type, fixed Boolean.
            let vname = self.flat.vars[id.index()].name.clone();
            let start = self.attr_scalar(&m, "start", ty, &vname)?;
            let min = self.attr_scalar(&m, "min", ty, &vname)?;
            let max = self.attr_scalar(&m, "max", ty, &vname)?;
            let nominal = self.attr_scalar(&m, "nominal", ty, &vname)?;
            let fixed = match self.attr_scalar(&m, "fixed", ScalarType::Boolean, &vname)? {
                Some(e) => match self.fold(e) {
                    Some(v) => Some(v != 0.0),
                    None => {
                        return Err(Box::new(
                            Diagnostic::error("not-constant", "`fixed` must be a constant Boolean")
                                .at(m.sub("fixed").span.unwrap_or(decl.span), "here"),
                        ))
                    }
                },
                None => None,
            };
            let start_span = m.sub("start").binding.map(|b| b.expr.span);
            let v = &mut self.flat.vars[id.index()];
            v.start = start;
            v.start_span = start_span.filter(|s| *s != Span::default());
            v.min = min;
            v.max = max;
            v.nominal = nominal;
            v.fixed = fixed;
            if let Some(b) = &m.binding {
                let val = self.eval_mod_value(b)?;
                // `--param b=true` arrives as 1 (the command line has no types).
                let flag = b.value.is_some_and(|x| x == 0.0 || x == 1.0);
                if !(flag && ty == ScalarType::Boolean) {
                    types::assign(ty, &vname, &val, b.expr.span, "is bound to {a}")?;
                }
                let Some(e) = val.as_scalar() else {
                    return Err(Box::new(
                        Diagnostic::error(
                            "size",
                            format!(
                                "`{}` is a scalar element but its binding has size {}",
                                self.flat.vars[id.index()].name,
                                dims_text(&val.dims)
                            ),
                        )
                        .at(b.expr.span, "binding")
                        .help("use `each` to give every element the same value"),
                    ));
                };
                match kind {
                    VarKind::Parameter | VarKind::Constant => {
                        self.flat.vars[id.index()].binding = Some(e)
                    }
                    _ => {
                        let lhs = self.flat.arena.var(id);
                        self.flat.equations.push(Equation {
                            lhs,
                            rhs: e,
                            span: b.expr.span,
                            origin: EquationOrigin::Binding,
                        });
                    }
                }
            } else if matches!(kind, VarKind::Parameter | VarKind::Constant) {
                // A parameter without a value takes its start value (specification 8.6).
                match start {
                    Some(s) => {
                        self.flat.vars[id.index()].binding = Some(s);
                        if kind == VarKind::Parameter {
                            let vname = self.flat.vars[id.index()].name.clone();
                            self.diags.push(
                                Diagnostic::warning(
                                    "parameter-default",
                                    format!("parameter `{vname}` has no value; using its start value {}", self.flat.expr_string(s)),
                                )
                                .at(decl.name.span, "declared without a value")
                                .help("give it a value with a modification, e.g. `R = 10`"),
                            );
                        }
                    }
                    None => {
                        let vname = self.flat.vars[id.index()].name.clone();
                        return Err(Box::new(
                            Diagnostic::error(
                                "no-value",
                                format!("{} `{vname}` has no value", kind.name()),
                            )
                            .at(decl.name.span, "declared without a value")
                            .help("give it a value, e.g. with a modification"),
                        ));
                    }
                }
            }
        }
        Ok(out)
    }

    /// A connector that is a direct component of the model: its inputs are the model's inputs.
    fn is_top_connector(&self, node: NodeId) -> bool {
        let n = &self.nodes[node.0 as usize];
        n.is_connector && n.parent.is_some() && n.parent == self.top
    }

    fn attr_scalar(
        &mut self,
        m: &Mod<'a>,
        name: &str,
        ty: ScalarType,
        var: &str,
    ) -> DResult<Option<ExprId>> {
        let sub = m.sub(name);
        let Some(b) = sub.binding else {
            return Ok(None);
        };
        let v = self.eval_mod_value(&b)?;
        if name == "fixed" {
            types::boolean(
                &v,
                b.expr.span,
                &format!("the `fixed` attribute of `{var}`"),
            )?;
        } else {
            types::assign(
                ty,
                var,
                &v,
                b.expr.span,
                &format!("has {{a}} `{name}` value"),
            )?;
        }
        match v.as_scalar() {
            Some(e) => Ok(Some(e)),
            None => Err(Box::new(
                Diagnostic::error(
                    "size",
                    format!(
                        "attribute `{name}` needs a scalar, got size {}",
                        dims_text(&v.dims)
                    ),
                )
                .at(b.expr.span, "here")
                .help("for an array use `each`, or give one value per element"),
            )),
        }
    }

    fn eval_mod_value_val(&mut self, b: &modification::ModValue<'a>) -> DResult<Val> {
        if let Some(x) = b.value {
            // A `--param` value: Integer where it is a whole number, so it can set an
            // Integer parameter.
            let ty = if x.fract() == 0.0 && x.abs() < 9e15 {
                ScalarType::Integer
            } else {
                ScalarType::Real
            };
            return Ok(Val::Arr(Arr::scalar(self.flat.arena.constant(x), ty)));
        }
        let saved = std::mem::take(&mut self.loop_vars);
        let r = self.eval(b.expr, b.env);
        self.loop_vars = saved;
        let mut v = r?;
        for (sel_dims, index) in &b.select {
            let (ndims, index) = (sel_dims.len(), *index);
            let Val::Arr(a) = &v else {
                return Ok(v);
            };
            if a.dims.len() >= ndims && a.dims[..ndims] != sel_dims[..] {
                return Err(Box::new(
                    Diagnostic::error(
                        "size",
                        format!(
                            "the value has size {} but the array is declared with size {}",
                            dims_text(&a.dims),
                            dims_text(sel_dims)
                        ),
                    )
                    .at(b.expr.span, "this value")
                    .help(
                        "give one value per element, or use `each` for the same value everywhere",
                    ),
                ));
            }
            if a.dims.len() < ndims {
                return Err(Box::new(
                    Diagnostic::error(
                        "size",
                        format!(
                            "a modifier of an array without `each` needs an array value, got size {}",
                            dims_text(&a.dims)
                        ),
                    )
                    .at(b.expr.span, "here")
                    .help("add `each` to give every element the same value"),
                ));
            }
            let block = a.block(ndims);
            let data = a.data[index * block..(index + 1) * block].to_vec();
            v = Val::Arr(Arr {
                dims: a.dims[ndims..].to_vec(),
                data,
                ty: a.ty,
            });
        }
        Ok(v)
    }

    fn eval_mod_value(&mut self, b: &modification::ModValue<'a>) -> DResult<Arr> {
        match self.eval_mod_value_val(b)? {
            Val::Arr(a) => Ok(a),
            Val::Str(_) => Err(Box::new(
                Diagnostic::error("type", "a string where a number is expected")
                    .at(b.expr.span, "here"),
            )),
        }
    }

    // ------------------------------------------------------------------ constants

    /// Folds an expression of constants and parameters to a number, if it is one.
    fn fold(&mut self, e: ExprId) -> Option<f64> {
        if let Some(c) = self.flat.arena.as_const(e) {
            return Some(c);
        }
        let mut leaves = Vec::new();
        self.flat.arena.leaves(e, &mut leaves);
        let mut values = FxHashMap::default();
        for l in leaves {
            match l {
                Node::Var(v) => {
                    let val = self.param_value(v)?;
                    values.insert(v, val);
                }
                _ => return None,
            }
        }
        let mut cache = FxHashMap::default();
        let r = self
            .flat
            .arena
            .substitute(e, &mut cache, &mut |ar, n| match n {
                Node::Var(v) => values.get(&v).map(|&x| ar.constant(x)),
                _ => None,
            });
        self.flat.arena.as_const(r)
    }

    fn param_value(&mut self, v: VarId) -> Option<f64> {
        match self.const_cache.get(&v) {
            Some(Some(x)) => return *x,
            Some(None) => return None, // cycle
            None => {}
        }
        let var = &self.flat.vars[v.index()];
        if !matches!(var.kind, VarKind::Parameter | VarKind::Constant) {
            return None;
        }
        let b = var.binding?;
        self.const_cache.insert(v, None);
        let r = self.fold(b);
        self.const_cache.insert(v, Some(r));
        r
    }

    fn eval_const(&mut self, e: &'a ast::Expr, env: Env, what: &str) -> DResult<f64> {
        self.eval_const_typed(e, env, what).map(|(x, _)| x)
    }

    /// [`Self::eval_const`] with the value's type.
    fn eval_const_typed(
        &mut self,
        e: &'a ast::Expr,
        env: Env,
        what: &str,
    ) -> DResult<(f64, ScalarType)> {
        let a = self.eval_arr(e, env)?;
        let ty = a.ty;
        let Some(x) = a.as_scalar() else {
            return Err(Box::new(
                Diagnostic::error("size", format!("{what} must be a scalar"))
                    .at(e.span, format!("has size {}", dims_text(&a.dims))),
            ));
        };
        let x = self.fold(x).ok_or_else(|| {
            Box::new(
                Diagnostic::error(
                    "not-constant",
                    format!(
                        "{what} must be known before simulation (constants and parameters only)"
                    ),
                )
                .at(e.span, "depends on a variable")
                .help("structural values are computed at compile time"),
            )
        })?;
        Ok((x, ty))
    }

    fn eval_dim(&mut self, e: &'a ast::Expr, env: Env) -> DResult<usize> {
        let (v, ty) = self.eval_const_typed(e, env, "an array size")?;
        if ty != ScalarType::Integer {
            return Err(Box::new(
                Diagnostic::error(
                    "type",
                    format!(
                        "an array size must be an Integer, but this is {}",
                        ty.name()
                    ),
                )
                .at(e.span, ty.name())
                .help("declare the parameter that sizes the array Integer, or use integer(…)"),
            ));
        }
        if v < 0.0 || v.fract() != 0.0 || v > 1e9 {
            return Err(Box::new(
                Diagnostic::error(
                    "size",
                    format!("array size {v} is not a non-negative integer"),
                )
                .at(e.span, "here"),
            ));
        }
        Ok(v as usize)
    }

    // ------------------------------------------------------------------ diagnostics

    /// `when c then … elsewhen c2 then … end when;` (Cellier & Kofman §10.8): a condition is
    /// `sample(start, interval)`, `initial()`, a relation, or a Boolean expression of
    /// discrete variables (with `pre`, `edge`, `change`); a body holds `v = expr` for discrete
    /// variables, `reinit(x, expr)` for states and `terminate("message")`. Everything else in a
    /// when-equation gets the located "not yet supported" diagnostic.
    fn when_equation(
        &mut self,
        eq: &'a ast::Equation,
        branches: &'a [(ast::Expr, Vec<ast::Equation>)],
        env: Env,
        initial: bool,
    ) -> DResult<()> {
        if initial {
            return Err(self.unsupported(eq.span, "when-equations in an initial equation section"));
        }
        let chain = self.flat.whens.len();
        for (branch, (cond, body)) in branches.iter().enumerate() {
            let span = if branch == 0 { eq.span } else { cond.span };
            self.when_branch(cond, body, env, (chain, branch), span)?;
        }
        Ok(())
    }

    fn when_branch(
        &mut self,
        cond: &'a ast::Expr,
        body: &'a [ast::Equation],
        env: Env,
        chain: (usize, usize),
        span: Span,
    ) -> DResult<()> {
        let mut sample = None;
        let mut at_initial = false;
        let mut c = self.flat.arena.constant(0.0);
        let call = match &cond.kind {
            ast::ExprKind::Call(ast::CallTarget::Ref(f), args) => {
                Some((f.to_source_string(), args))
            }
            ast::ExprKind::Call(ast::CallTarget::Initial, args) => {
                Some(("initial".to_string(), args))
            }
            _ => None,
        };
        match call {
            Some((f, args)) if f == "sample" => {
                if args.positional.len() != 2 || !args.named.is_empty() {
                    return Err(Box::new(
                        Diagnostic::error(
                            "arguments",
                            "sample takes two arguments: sample(start, interval)",
                        )
                        .at(cond.span, "here"),
                    ));
                }
                let mut vals = [0.0; 2];
                for (k, a) in args.positional.iter().enumerate() {
                    let e = self.eval_scalar(a, env)?;
                    let Some(v) = self.fold(e) else {
                        return Err(Box::new(
                            Diagnostic::error(
                                "sample",
                                "sample(start, interval) needs constant arguments",
                            )
                            .at(a.span, "not a constant or parameter expression"),
                        ));
                    };
                    vals[k] = v;
                }
                if !(vals[1] > 0.0 && vals[1].is_finite() && vals[0].is_finite()) {
                    return Err(Box::new(
                        Diagnostic::error(
                            "sample",
                            format!("sample interval {} must be positive", vals[1]),
                        )
                        .at(cond.span, "here"),
                    ));
                }
                sample = Some((vals[0], vals[1]));
            }
            Some((f, args)) if f == "initial" => {
                if !args.positional.is_empty() || !args.named.is_empty() {
                    return Err(Box::new(
                        Diagnostic::error("arguments", "initial() takes no arguments")
                            .at(cond.span, "here"),
                    ));
                }
                at_initial = true;
            }
            _ => {
                self.in_when = true;
                let r = self.eval_condition(cond, env, "a when-condition");
                self.in_when = false;
                c = r?;
                if !self.when_condition_shape(c) {
                    return Err(self.unsupported(
                        cond.span,
                        "when-conditions other than sample(start, interval), initial(), one relation (<, <=, >, >=), or a Boolean expression of discrete variables",
                    ));
                }
            }
        }
        let mut reinits = Vec::new();
        let mut assigns = Vec::new();
        let mut terminate = None;
        self.in_when = true;
        let r = self.when_body(body, env, &mut reinits, &mut assigns, &mut terminate);
        self.in_when = false;
        r?;
        self.flat.whens.push(crate::flat::When {
            condition: c,
            sample,
            initial: at_initial,
            reinits,
            assigns,
            terminate,
            chain,
            span,
        });
        Ok(())
    }

    /// Whether `c` is a condition rtc can watch: one relation (an event function), or a
    /// Boolean combination (not, and, or, =, <>) of discrete variables, relations between them,
    /// `pre`, `edge` and `change` (checked at event instants; the discretiser rejects
    /// continuous variables in it).
    fn when_condition_shape(&self, c: ExprId) -> bool {
        let ar = &self.flat.arena;
        match ar.node(c) {
            Node::Cmp(CmpOp::Lt | CmpOp::Le | CmpOp::Gt | CmpOp::Ge, ..) => true,
            _ => {
                let mut stack = vec![c];
                while let Some(x) = stack.pop() {
                    match ar.node(x) {
                        Node::Var(_) | Node::Pre(_) | Node::Const(_) => {}
                        Node::Not(a) => stack.push(a),
                        Node::And(a, b) | Node::Or(a, b) => stack.extend([a, b]),
                        Node::Cmp(..) => {}
                        _ => return false,
                    }
                }
                true
            }
        }
    }

    fn when_body(
        &mut self,
        body: &'a [ast::Equation],
        env: Env,
        reinits: &mut Vec<(VarId, ExprId)>,
        assigns: &mut Vec<(VarId, ExprId)>,
        terminate: &mut Option<String>,
    ) -> DResult<()> {
        for b in body {
            if let ast::EquationKind::Equality(l, r) = &b.kind {
                // `v = expr`: v becomes a discrete variable, changed only here.
                let x = self.eval_scalar(l, env)?;
                let Node::Var(xv) = self.flat.arena.node(x) else {
                    return Err(self.unsupported(
                        b.span,
                        "equations in a when-equation other than `variable = expression`",
                    ));
                };
                let kind = self.flat.vars[xv.index()].kind;
                if !matches!(
                    kind,
                    VarKind::Algebraic | VarKind::Discrete | VarKind::Sampled
                ) {
                    return Err(Box::new(
                        Diagnostic::error(
                            "when",
                            format!(
                                "`{}` is {} and cannot be assigned in a when-equation",
                                self.flat.vars[xv.index()].name,
                                kind.name()
                            ),
                        )
                        .at(b.span, "here"),
                    ));
                }
                if assigns.iter().any(|&(y, _)| y == xv) {
                    return Err(Box::new(
                        Diagnostic::error(
                            "when",
                            format!(
                                "`{}` is assigned twice in one when-equation",
                                self.flat.vars[xv.index()].name
                            ),
                        )
                        .at(b.span, "second assignment"),
                    ));
                }
                self.flat.vars[xv.index()].kind = VarKind::Sampled;
                let value = self.eval_arr(r, env)?;
                let var = &self.flat.vars[xv.index()];
                types::assign(var.ty, &var.name, &value, r.span, "is assigned {a}")?;
                let e = value.as_scalar().ok_or_else(|| {
                    self.size_mismatch(r.span, "a when-assignment", &[], &value.dims)
                })?;
                assigns.push((xv, e));
                continue;
            }
            let ast::EquationKind::Call(f, args) = &b.kind else {
                return Err(self.unsupported(
                    b.span,
                    "equations other than `v = expr`, reinit(…) and terminate(…) in a when-equation",
                ));
            };
            match f.to_source_string().as_str() {
                "reinit" => {}
                "terminate" => {
                    let message = match (args.positional.as_slice(), args.named.is_empty()) {
                        ([m], true) => match &m.kind {
                            ast::ExprKind::Str(s) => s.clone(),
                            _ => {
                                return Err(Box::new(
                                    Diagnostic::error(
                                        "arguments",
                                        "terminate takes a string literal: terminate(\"why\")",
                                    )
                                    .at(m.span, "not a string literal"),
                                ))
                            }
                        },
                        _ => {
                            return Err(Box::new(
                                Diagnostic::error(
                                    "arguments",
                                    "terminate takes one argument: terminate(\"why\")",
                                )
                                .at(b.span, "here"),
                            ))
                        }
                    };
                    *terminate = Some(message);
                    continue;
                }
                _ => {
                    return Err(self.unsupported(
                        b.span,
                        "calls other than reinit(…) and terminate(…) in a when-equation",
                    ))
                }
            }
            if args.positional.len() != 2 || !args.named.is_empty() {
                return Err(Box::new(
                    Diagnostic::error("arguments", "reinit takes two arguments: reinit(x, expr)")
                        .at(b.span, "here"),
                ));
            }
            let x = self.eval_scalar(&args.positional[0], env)?;
            let Node::Var(xv) = self.flat.arena.node(x) else {
                return Err(Box::new(
                    Diagnostic::error("arguments", "reinit needs a variable as its first argument")
                        .at(args.positional[0].span, "not a variable"),
                ));
            };
            let value = self.eval_arr(&args.positional[1], env)?;
            types::numeric_arg(&value, args.positional[1].span, "reinit")?;
            let e = value.as_scalar().ok_or_else(|| {
                self.size_mismatch(args.positional[1].span, "reinit", &[], &value.dims)
            })?;
            reinits.push((xv, e));
        }
        Ok(())
    }

    fn unsupported(&self, span: Span, what: &str) -> Box<Diagnostic> {
        Box::new(
            Diagnostic::error("unsupported", format!("not yet supported: {what}"))
                .at(span, "not supported by rtc yet")
                .help("see the book's chapter on the language rtc accepts"),
        )
    }

    fn unknown_class(&mut self, name: &ast::Name, scope: ClassId) -> Box<Diagnostic> {
        // Find the first part that does not resolve, to point at it.
        let mut bad = name.parts.first().map(|p| (p.span, p.name.to_string()));
        let mut cur: Option<Found> = None;
        for (k, part) in name.parts.iter().enumerate() {
            let next = match cur {
                None if k == 0 => {
                    if name.global {
                        self.tree.top_level(&part.name).map(Found::Class)
                    } else {
                        self.tree.lookup_simple(scope, &part.name, 0)
                    }
                }
                Some(Found::Class(c)) => self.tree.member(c, &part.name, 0),
                _ => None,
            };
            match next {
                Some(f) => cur = Some(f),
                None => {
                    bad = Some((part.span, part.name.to_string()));
                    break;
                }
            }
        }
        let (span, part) = bad.unwrap_or((name.span, name.to_dotted()));
        let mut d = Diagnostic::error(
            "unknown-name",
            format!("unknown class `{}`", name.to_dotted()),
        )
        .at(span, format!("`{part}` not found"));
        let candidates = match cur {
            Some(Found::Class(c)) => self
                .tree
                .info(c)
                .children
                .keys()
                .map(|s| s.to_string())
                .collect(),
            _ => self.tree.visible_names(scope),
        };
        if let Some(s) = suggest(&part, &candidates) {
            d = d.help(format!("did you mean `{s}`?"));
        }
        Box::new(d)
    }

    fn size_mismatch(&self, span: Span, what: &str, a: &[usize], b: &[usize]) -> Box<Diagnostic> {
        Box::new(
            Diagnostic::error(
                "size",
                format!(
                    "size mismatch in {what}: {} vs {}",
                    dims_text(a),
                    dims_text(b)
                ),
            )
            .at(span, "here"),
        )
    }

    // ------------------------------------------------------------------ expressions

    fn eval_arr(&mut self, e: &'a ast::Expr, env: Env) -> DResult<Arr> {
        match self.eval(e, env)? {
            Val::Arr(a) => Ok(a),
            Val::Str(_) => Err(Box::new(
                Diagnostic::error("type", "a string where a number is expected").at(e.span, "here"),
            )),
        }
    }

    fn eval_scalar(&mut self, e: &'a ast::Expr, env: Env) -> DResult<ExprId> {
        let a = self.eval_arr(e, env)?;
        a.as_scalar().ok_or_else(|| {
            Box::new(
                Diagnostic::error(
                    "size",
                    format!("expected a scalar, got size {}", dims_text(&a.dims)),
                )
                .at(e.span, "here"),
            )
        })
    }

    fn eval(&mut self, e: &'a ast::Expr, env: Env) -> DResult<Val> {
        use ast::ExprKind as K;
        let ar = |s: &mut Self, x: f64, ty: ScalarType| {
            Val::Arr(Arr::scalar(s.flat.arena.constant(x), ty))
        };
        match &e.kind {
            K::Integer(i) => Ok(ar(self, *i as f64, ScalarType::Integer)),
            K::Real(x) => Ok(ar(self, *x, ScalarType::Real)),
            K::Bool(b) => Ok(ar(self, if *b { 1.0 } else { 0.0 }, ScalarType::Boolean)),
            K::Str(s) => Ok(Val::Str(s.clone())),
            K::End => match self.end_stack.last() {
                Some(&n) => Ok(ar(self, n as f64, ScalarType::Integer)),
                None => Err(Box::new(
                    Diagnostic::error("syntax", "`end` outside of a subscript").at(e.span, "here"),
                )),
            },
            K::Ref(r) => self.eval_ref(r, env),
            K::Call(target, args) => self.eval_call(e, target, args, env),
            K::Unary(op, a) => {
                let x = self.eval_arr(a, env)?;
                Ok(Val::Arr(match op {
                    ast::UnaryOp::Neg => {
                        types::unary_numeric(&x, a.span, "-")?;
                        x.map(&mut self.flat.arena, |ar, v| ar.neg(v))
                    }
                    ast::UnaryOp::Plus => {
                        types::unary_numeric(&x, a.span, "+")?;
                        x
                    }
                    ast::UnaryOp::Not => {
                        types::boolean(&x, a.span, "the operand of `not`")?;
                        x.map(&mut self.flat.arena, |ar, v| ar.not(v))
                    }
                }))
            }
            K::Binary(op, a, b) => {
                let (x, y) = match (self.eval(a, env)?, self.eval(b, env)?) {
                    (Val::Arr(x), Val::Arr(y)) => (x, y),
                    (Val::Str(x), Val::Str(y)) => return self.string_binary(*op, &x, &y, e.span),
                    (Val::Str(_), _) | (_, Val::Str(_)) => {
                        let at = if matches!(self.eval(a, env)?, Val::Str(_)) {
                            a.span
                        } else {
                            b.span
                        };
                        return Err(Box::new(
                            Diagnostic::error(
                                "type",
                                format!("`{}` combines a String with a number", op.symbol()),
                            )
                            .at(at, "String")
                            .help("Strings are for messages and names; String(x) makes a String of a number"),
                        ));
                    }
                };
                let ty = types::binary(*op, &x, a.span, &y, b.span)?;
                self.binary(*op, &x, &y, e.span).map(|r| Val::Arr(r.with_ty(ty)))
            }
            K::If {
                branches,
                otherwise,
            } => {
                let mut result = self.eval_arr(otherwise, env)?;
                for (cond, value) in branches.iter().rev() {
                    let c = self.eval_condition(cond, env, "the condition of an if-expression")?;
                    // A branch that a structural condition rules out is not evaluated (it
                    // may index out of bounds for the parameters that rule it out).
                    let folded = self.fold_if_structural(c);
                    if folded == Some(0.0) {
                        continue;
                    }
                    let v = self.eval_arr(value, env)?;
                    let Some(ty) = types::unify(v.ty, result.ty) else {
                        return Err(Box::new(
                            Diagnostic::error(
                                "type",
                                format!(
                                    "the branches of this if-expression have types {} and {}",
                                    v.ty.name(),
                                    result.ty.name()
                                ),
                            )
                            .at(value.span, v.ty.name())
                            .also(otherwise.span, result.ty.name()),
                        ));
                    };
                    if folded.is_some() {
                        result = v.with_ty(ty);
                        continue;
                    }
                    if v.dims != result.dims {
                        return Err(self.size_mismatch(e.span, "the branches of an if-expression", &v.dims, &result.dims));
                    }
                    let data = v
                        .data
                        .iter()
                        .zip(&result.data)
                        .map(|(&t, &f)| self.flat.arena.if_(c, t, f))
                        .collect();
                    result = Arr {
                        dims: v.dims,
                        data,
                        ty,
                    };
                }
                Ok(Val::Arr(result))
            }
            K::Range { start, step, stop } => {
                let (a, ta) = self.eval_const_typed(start, env, "a range bound")?;
                let (s, ts) = match step {
                    Some(s) => self.eval_const_typed(s, env, "a range step")?,
                    None => (1.0, ScalarType::Integer),
                };
                let (b, tb) = self.eval_const_typed(stop, env, "a range bound")?;
                let ty = promote3(ta, ts, tb);
                if s == 0.0 {
                    return Err(Box::new(
                        Diagnostic::error("range", "range step is zero").at(e.span, "here"),
                    ));
                }
                let n = ((b - a) / s + 1e-9).floor() + 1.0;
                if n > MAX_ELEMENTS as f64 || n.is_nan() {
                    return Err(Box::new(
                        Diagnostic::error(
                            "too-large",
                            format!("the range has {n} elements; rtc's limit for one array is {MAX_ELEMENTS}"),
                        )
                        .at(e.span, "too large"),
                    ));
                }
                let n = if n > 0.0 { n as usize } else { 0 };
                let data = (0..n)
                    .map(|k| self.flat.arena.constant(a + k as f64 * s))
                    .collect();
                Ok(Val::Arr(Arr {
                    dims: vec![n],
                    data,
                    ty,
                }))
            }
            K::Array(items) => {
                let mut arrs = Vec::with_capacity(items.len());
                for it in items {
                    arrs.push(self.eval_arr(it, env)?);
                }
                let ty = unify_items(&arrs, items.iter().map(|i| i.span))?;
                let dims: Vec<Vec<usize>> = arrs.iter().map(|a| a.dims.clone()).collect();
                Arr::stack(arrs).map(|a| Val::Arr(a.with_ty(ty))).ok_or_else(|| {
                    Box::new(
                        Diagnostic::error(
                            "size",
                            "elements of an array constructor have different sizes",
                        )
                        .at(e.span, format!("sizes {}", dims.iter().map(|d| dims_text(d)).collect::<Vec<_>>().join(", "))),
                    )
                })
            }
            K::Comprehension(body, iters) => {
                let items = self.iterate(iters, env, &mut |s| s.eval_arr(body, env))?;
                let ty = unify_items(&items, std::iter::repeat(body.span))?;
                Arr::stack(items).map(|a| Val::Arr(a.with_ty(ty))).ok_or_else(|| {
                    Box::new(
                        Diagnostic::error("size", "elements of an array comprehension have different sizes")
                            .at(e.span, "here"),
                    )
                })
            }
            K::Matrix(rows) => {
                let mut row_mats = Vec::new();
                let mut all = Vec::new();
                for row in rows {
                    let mut items = Vec::new();
                    for it in row {
                        let a = self.eval_arr(it, env)?;
                        all.push((a.ty, it.span));
                        items.push(values::as_matrix(&a));
                    }
                    row_mats.push(values::hcat(&items).ok_or_else(|| {
                        Box::new(
                            Diagnostic::error("size", "matrix row elements have different row counts")
                                .at(e.span, "here"),
                        )
                    })?);
                }
                let mut ty = all.first().map_or(ScalarType::Real, |(t, _)| *t);
                for &(t, sp) in &all {
                    ty = types::unify(ty, t).ok_or_else(|| {
                        Box::new(
                            Diagnostic::error(
                                "type",
                                format!("a matrix mixes {} and {} elements", ty.name(), t.name()),
                            )
                            .at(sp, t.name()),
                        )
                    })?;
                }
                values::vcat(&row_mats).map(|a| Val::Arr(a.with_ty(ty))).ok_or_else(|| {
                    Box::new(
                        Diagnostic::error("size", "matrix rows have different lengths").at(e.span, "here"),
                    )
                })
            }
            K::Tuple(_) => Err(Box::new(
                Diagnostic::error("syntax", "a parenthesised list is only allowed on the left of a function call assignment")
                    .at(e.span, "here"),
            )),
            K::Subscripted(base, subs) => {
                let v = self.eval_arr(base, env)?;
                self.apply_subscripts_arr(v, subs, env, e.span).map(Val::Arr)
            }
            K::PartialApplication(_) => Err(self.unsupported(e.span, "function partial applications")),
        }
    }

    /// Folds a condition if it depends on constants and parameters only.
    fn fold_if_structural(&mut self, c: ExprId) -> Option<f64> {
        self.fold(c)
    }

    /// A scalar Boolean condition (`if`, `when`, `assert`).
    fn eval_condition(&mut self, e: &'a ast::Expr, env: Env, what: &str) -> DResult<ExprId> {
        let a = self.eval_arr(e, env)?;
        types::boolean(&a, e.span, what)?;
        a.as_scalar().ok_or_else(|| {
            Box::new(
                Diagnostic::error(
                    "size",
                    format!("{what} must be a scalar, got size {}", dims_text(&a.dims)),
                )
                .at(e.span, "here"),
            )
        })
    }

    /// `==`, `<>`, `<`, … of two Strings (a Boolean known at compile time) and `+`.
    fn string_binary(&mut self, op: ast::BinaryOp, x: &str, y: &str, span: Span) -> DResult<Val> {
        use ast::BinaryOp as B;
        let r = match op {
            B::Add => return Ok(Val::Str(format!("{x}{y}"))),
            B::Eq => x == y,
            B::Ne => x != y,
            B::Lt => x < y,
            B::Le => x <= y,
            B::Gt => x > y,
            B::Ge => x >= y,
            _ => {
                return Err(Box::new(
                    Diagnostic::error(
                        "type",
                        format!("`{}` is not defined for Strings", op.symbol()),
                    )
                    .at(span, "String operands")
                    .help("Strings can be joined with `+` and compared"),
                ))
            }
        };
        let c = self.flat.arena.constant(if r { 1.0 } else { 0.0 });
        Ok(Val::Arr(Arr::scalar(c, ScalarType::Boolean)))
    }

    fn binary(&mut self, op: ast::BinaryOp, x: &Arr, y: &Arr, span: Span) -> DResult<Arr> {
        use ast::BinaryOp as B;
        let ar = &mut self.flat.arena;
        let r = match op {
            B::Add | B::Sub => {
                if x.is_scalar() != y.is_scalar() {
                    None
                } else if op == B::Add {
                    values::zip_same(ar, x, y, |a, p, q| a.add(p, q))
                } else {
                    values::zip_same(ar, x, y, |a, p, q| a.sub(p, q))
                }
            }
            B::ElemAdd => values::zip(ar, x, y, |a, p, q| a.add(p, q)),
            B::ElemSub => values::zip(ar, x, y, |a, p, q| a.sub(p, q)),
            B::Mul => {
                // Work of the product (multiply-adds): bounded like for-loop iterations.
                let work = match (x.dims.as_slice(), y.dims.as_slice()) {
                    ([m, n], [_, p]) => m.saturating_mul(*n).saturating_mul(*p),
                    ([m, n], [_]) | ([m], [_, n]) => m.saturating_mul(*n),
                    _ => x.data.len().saturating_add(y.data.len()),
                };
                if work > MAX_ITERATIONS {
                    return Err(Box::new(
                        Diagnostic::error(
                            "too-large",
                            format!(
                                "this product of sizes {} and {} takes {work} multiplications, more than rtc's limit of {MAX_ITERATIONS}",
                                dims_text(&x.dims),
                                dims_text(&y.dims)
                            ),
                        )
                        .at(span, "too large"),
                    ));
                }
                values::multiply(ar, x, y)
            }
            B::ElemMul => values::zip(ar, x, y, |a, p, q| a.mul(p, q)),
            B::Div => {
                if !y.is_scalar() {
                    None
                } else {
                    values::zip(ar, x, y, |a, p, q| a.div(p, q))
                }
            }
            B::ElemDiv => values::zip(ar, x, y, |a, p, q| a.div(p, q)),
            B::Pow => {
                if x.is_scalar() && y.is_scalar() {
                    values::zip(ar, x, y, |a, p, q| a.pow(p, q))
                } else {
                    return Err(self.unsupported(span, "matrix powers"));
                }
            }
            B::ElemPow => values::zip(ar, x, y, |a, p, q| a.pow(p, q)),
            B::Lt | B::Le | B::Gt | B::Ge | B::Eq | B::Ne => {
                if !(x.is_scalar() && y.is_scalar()) {
                    None
                } else {
                    let c = match op {
                        B::Lt => CmpOp::Lt,
                        B::Le => CmpOp::Le,
                        B::Gt => CmpOp::Gt,
                        B::Ge => CmpOp::Ge,
                        B::Eq => CmpOp::Eq,
                        _ => CmpOp::Ne,
                    };
                    values::zip(ar, x, y, |a, p, q| a.cmp(c, p, q))
                }
            }
            B::And => values::zip_same(ar, x, y, |a, p, q| a.and(p, q)),
            B::Or => values::zip_same(ar, x, y, |a, p, q| a.or(p, q)),
        };
        r.ok_or_else(|| {
            Box::new(
                Diagnostic::error(
                    "size",
                    format!(
                        "operator `{}` cannot combine sizes {} and {}",
                        op.symbol(),
                        dims_text(&x.dims),
                        dims_text(&y.dims)
                    ),
                )
                .at(span, "here"),
            )
        })
    }

    /// Runs `body` for every combination of the loop indices, innermost last.
    fn iterate<T>(
        &mut self,
        iters: &'a [ast::ForIndex],
        env: Env,
        body: &mut dyn FnMut(&mut Self) -> DResult<T>,
    ) -> DResult<Vec<T>> {
        let Some((first, rest)) = iters.split_first() else {
            return Ok(vec![body(self)?]);
        };
        let Some(range) = &first.range else {
            return Err(self.unsupported(first.name.span, "for-loops without an explicit range"));
        };
        let r = self.eval_arr(range, env)?;
        if r.dims.len() != 1 {
            return Err(Box::new(
                Diagnostic::error("size", "a loop range must be a vector").at(range.span, "here"),
            ));
        }
        let loop_ty = r.ty;
        let mut values = Vec::with_capacity(r.data.len());
        for &x in &r.data {
            match self.fold(x) {
                Some(v) => values.push(v),
                None => {
                    return Err(Box::new(
                        Diagnostic::error(
                            "not-constant",
                            "a loop range must be known at compile time",
                        )
                        .at(range.span, "depends on a variable"),
                    ))
                }
            }
        }
        let mut out = Vec::new();
        for v in values {
            self.iterations += 1;
            if self.iterations > MAX_ITERATIONS {
                return Err(Box::new(
                    Diagnostic::error(
                        "too-large",
                        format!("the model's for-loops run more than {MAX_ITERATIONS} iterations, rtc's limit"),
                    )
                    .at(first.name.span, "this loop reached it")
                    .help("a real-time step function cannot compute a model of this size in a frame; check the ranges"),
                ));
            }
            self.loop_vars.push((first.name.name.clone(), v, loop_ty));
            let r = self.iterate(rest, env, body);
            self.loop_vars.pop();
            out.extend(r?);
        }
        Ok(out)
    }

    fn eval_call(
        &mut self,
        e: &'a ast::Expr,
        target: &'a ast::CallTarget,
        args: &'a ast::CallArgs,
        env: Env,
    ) -> DResult<Val> {
        let name = match target {
            ast::CallTarget::Der => "der".to_string(),
            ast::CallTarget::Initial => {
                return Err(self.unsupported(e.span, "`initial()` conditions"))
            }
            ast::CallTarget::Pure => "pure".to_string(),
            ast::CallTarget::Ref(r) => {
                if r.parts.len() == 1 && r.parts[0].subscripts.is_empty() && !r.global {
                    r.parts[0].ident.name.to_string()
                } else {
                    r.parts
                        .iter()
                        .map(|p| p.ident.name.to_string())
                        .collect::<Vec<_>>()
                        .join(".")
                }
            }
        };
        if !args.iterators.is_empty() {
            // Reductions: sum(e for i in r), etc.
            let body = args.positional.first().ok_or_else(|| {
                Box::new(
                    Diagnostic::error("arguments", "reduction without expression")
                        .at(e.span, "here"),
                )
            })?;
            let items = self.iterate(&args.iterators, env, &mut |s| s.eval_arr(body, env))?;
            let ty = unify_items(&items, std::iter::repeat(body.span))?;
            let stacked = Arr::stack(items).map(|a| a.with_ty(ty)).ok_or_else(|| {
                Box::new(
                    Diagnostic::error("size", "reduction elements have different sizes")
                        .at(e.span, "here"),
                )
            })?;
            return self.reduce(&name, &stacked, body.span).map(Val::Arr);
        }
        let nargs = args.positional.len();
        let check_args = |s: &Self, lo: usize, hi: usize| -> DResult<()> {
            if nargs < lo || nargs > hi || (!args.named.is_empty() && name != "homotopy") {
                let expect = if lo == hi {
                    format!("{lo}")
                } else {
                    format!("{lo} to {hi}")
                };
                let _ = s;
                return Err(Box::new(
                    Diagnostic::error(
                        "arguments",
                        format!(
                            "`{name}` takes {expect} argument{}, got {nargs}",
                            if hi == 1 { "" } else { "s" }
                        ),
                    )
                    .at(args.span, "arguments"),
                ));
            }
            Ok(())
        };
        if let Some(f) = Func1::from_name(&name) {
            check_args(self, 1, 1)?;
            let x = self.eval_arr(&args.positional[0], env)?;
            types::numeric_arg(&x, args.positional[0].span, &name)?;
            let ty = match f {
                Func1::Abs => x.ty,
                Func1::Sign => ScalarType::Integer,
                _ => ScalarType::Real,
            };
            return Ok(Val::Arr(
                x.map(&mut self.flat.arena, |ar, v| ar.call1(f, v))
                    .with_ty(ty),
            ));
        }
        match name.as_str() {
            "atan2" | "div" | "mod" | "rem" => {
                check_args(self, 2, 2)?;
                let f = Func2::from_name(&name).unwrap_or(Func2::Atan2);
                let x = self.eval_arr(&args.positional[0], env)?;
                let y = self.eval_arr(&args.positional[1], env)?;
                types::numeric_arg(&x, args.positional[0].span, &name)?;
                types::numeric_arg(&y, args.positional[1].span, &name)?;
                let ty = if name == "atan2" {
                    ScalarType::Real
                } else {
                    types::promote(x.ty, y.ty)
                };
                let r = values::zip(&mut self.flat.arena, &x, &y, |ar, p, q| ar.call2(f, p, q));
                r.map(|a| Val::Arr(a.with_ty(ty)))
                    .ok_or_else(|| self.size_mismatch(e.span, &name, &x.dims, &y.dims))
            }
            "min" | "max" => {
                check_args(self, 1, 2)?;
                let f = if name == "min" {
                    Func2::Min
                } else {
                    Func2::Max
                };
                let x = self.eval_arr(&args.positional[0], env)?;
                if nargs == 1 {
                    return self.reduce(&name, &x, e.span).map(Val::Arr);
                }
                let y = self.eval_arr(&args.positional[1], env)?;
                if !x.is_scalar() || !y.is_scalar() {
                    return Err(self.size_mismatch(e.span, &name, &x.dims, &y.dims));
                }
                let Some(ty) = types::unify(x.ty, y.ty) else {
                    return Err(Box::new(
                        Diagnostic::error(
                            "type",
                            format!("`{name}` of {} and {}", types::a(x.ty), types::a(y.ty)),
                        )
                        .at(args.span, "arguments"),
                    ));
                };
                Ok(Val::Arr(Arr::scalar(
                    self.flat.arena.call2(f, x.data[0], y.data[0]),
                    ty,
                )))
            }
            "der" => {
                check_args(self, 1, 1)?;
                let x = self.eval_arr(&args.positional[0], env)?;
                if x.ty != ScalarType::Real {
                    return Err(Box::new(
                        Diagnostic::error(
                            "type",
                            format!("`der` needs a Real expression, but this is {}", x.ty.name()),
                        )
                        .at(args.positional[0].span, x.ty.name())
                        .help("Integer and Boolean variables change only at events; they have no derivative"),
                    ));
                }
                let mut data = Vec::with_capacity(x.data.len());
                for &v in &x.data {
                    data.push(self.der_of(v, args.positional[0].span)?);
                }
                Ok(Val::Arr(Arr {
                    dims: x.dims,
                    data,
                    ty: ScalarType::Real,
                }))
            }
            "pre" => {
                check_args(self, 1, 1)?;
                let x = self.eval_arr(&args.positional[0], env)?;
                let mut data = Vec::with_capacity(x.data.len());
                for &v in &x.data {
                    match self.flat.arena.node(v) {
                        Node::Var(id) => data.push(self.flat.arena.pre(id)),
                        _ => {
                            return Err(Box::new(
                                Diagnostic::error("arguments", "`pre` needs a variable")
                                    .at(args.positional[0].span, "not a variable"),
                            ))
                        }
                    }
                }
                Ok(Val::Arr(Arr {
                    dims: x.dims,
                    data,
                    ty: x.ty,
                }))
            }
            "edge" | "change" if self.in_when => {
                // At an event instant: edge(b) = b and not pre(b), change(v) = v <> pre(v).
                check_args(self, 1, 1)?;
                let x = self.eval_arr(&args.positional[0], env)?;
                if name == "edge" {
                    types::boolean(&x, args.positional[0].span, "the argument of `edge`")?;
                }
                let mut data = Vec::with_capacity(x.data.len());
                for &v in &x.data {
                    let Node::Var(id) = self.flat.arena.node(v) else {
                        return Err(Box::new(
                            Diagnostic::error("arguments", format!("`{name}` needs a variable"))
                                .at(args.positional[0].span, "not a variable"),
                        ));
                    };
                    let p = self.flat.arena.pre(id);
                    let ar = &mut self.flat.arena;
                    data.push(if name == "edge" {
                        let np = ar.not(p);
                        ar.and(v, np)
                    } else {
                        ar.cmp(CmpOp::Ne, v, p)
                    });
                }
                Ok(Val::Arr(Arr {
                    dims: x.dims,
                    data,
                    ty: ScalarType::Boolean,
                }))
            }
            "noEvent" => {
                check_args(self, 1, 1)?;
                let x = self.eval_arr(&args.positional[0], env)?;
                Ok(Val::Arr(
                    x.map(&mut self.flat.arena, |ar, v| ar.no_event(v)),
                ))
            }
            "smooth" => {
                check_args(self, 2, 2)?;
                self.eval_const(&args.positional[0], env, "the order of smooth()")?;
                self.eval(&args.positional[1], env)
            }
            "homotopy" => {
                let actual = args
                    .positional
                    .first()
                    .or_else(|| {
                        args.named
                            .iter()
                            .find(|(n, _)| &*n.name == "actual")
                            .map(|(_, x)| x)
                    })
                    .ok_or_else(|| {
                        Box::new(
                            Diagnostic::error("arguments", "`homotopy` needs `actual`")
                                .at(args.span, "here"),
                        )
                    })?;
                self.eval(actual, env)
            }
            "pure" => {
                check_args(self, 1, 1)?;
                self.eval(&args.positional[0], env)
            }
            "integer" | "Integer" => {
                check_args(self, 1, 1)?;
                let x = self.eval_arr(&args.positional[0], env)?;
                types::numeric_arg(&x, args.positional[0].span, &name)?;
                Ok(Val::Arr(
                    x.map(&mut self.flat.arena, |ar, v| ar.call1(Func1::Floor, v))
                        .with_ty(ScalarType::Integer),
                ))
            }
            "size" => {
                check_args(self, 1, 2)?;
                let x = match self.pending_size(&args.positional[0], env) {
                    // Only the size is read.
                    Some(dims) => Arr {
                        dims,
                        data: Vec::new(),
                        ty: ScalarType::Real,
                    },
                    None => self.eval_arr(&args.positional[0], env)?,
                };
                if nargs == 2 {
                    let k = self.eval_const(&args.positional[1], env, "the dimension of size()")?;
                    let k = k as usize;
                    if k == 0 || k > x.dims.len() {
                        return Err(Box::new(
                            Diagnostic::error(
                                "size",
                                format!(
                                    "size(…, {k}) of an array with {} dimensions",
                                    x.dims.len()
                                ),
                            )
                            .at(e.span, "here"),
                        ));
                    }
                    return Ok(int_const(self, x.dims[k - 1]));
                }
                let data = x
                    .dims
                    .iter()
                    .map(|&d| self.flat.arena.constant(d as f64))
                    .collect();
                Ok(Val::Arr(Arr {
                    dims: vec![x.dims.len()],
                    data,
                    ty: ScalarType::Integer,
                }))
            }
            "ndims" => {
                check_args(self, 1, 1)?;
                let x = self.eval_arr(&args.positional[0], env)?;
                Ok(int_const(self, x.dims.len()))
            }
            "zeros" | "ones" => {
                let mut dims = Vec::new();
                for a in &args.positional {
                    dims.push(self.eval_dim(a, env)?);
                }
                let v = self
                    .flat
                    .arena
                    .constant(if name == "zeros" { 0.0 } else { 1.0 });
                let n = elements(&dims, e.span, &format!("`{name}(…)`"))?;
                Ok(Val::Arr(Arr {
                    dims,
                    data: vec![v; n],
                    ty: ScalarType::Integer,
                }))
            }
            "fill" => {
                if nargs < 1 {
                    check_args(self, 1, usize::MAX)?;
                }
                let x = self.eval_arr(&args.positional[0], env)?;
                let mut dims = Vec::new();
                for a in &args.positional[1..] {
                    dims.push(self.eval_dim(a, env)?);
                }
                let n = elements(&dims, e.span, "`fill(…)`")?;
                let n_all = n.saturating_mul(x.data.len().max(1));
                if n_all > MAX_ELEMENTS {
                    elements(&[n_all], e.span, "`fill(…)`")?;
                }
                let mut data = Vec::with_capacity(n * x.data.len());
                for _ in 0..n {
                    data.extend_from_slice(&x.data);
                }
                dims.extend_from_slice(&x.dims);
                Ok(Val::Arr(Arr {
                    dims,
                    data,
                    ty: x.ty,
                }))
            }
            "identity" => {
                check_args(self, 1, 1)?;
                let n = self.eval_dim(&args.positional[0], env)?;
                elements(&[n, n], e.span, "`identity(…)`")?;
                let one = self.flat.arena.constant(1.0);
                let zero = self.flat.arena.constant(0.0);
                let data = (0..n * n)
                    .map(|k| if k / n == k % n { one } else { zero })
                    .collect();
                Ok(Val::Arr(Arr {
                    dims: vec![n, n],
                    data,
                    ty: ScalarType::Integer,
                }))
            }
            "transpose" => {
                check_args(self, 1, 1)?;
                let x = self.eval_arr(&args.positional[0], env)?;
                values::transpose(&x).map(Val::Arr).ok_or_else(|| {
                    Box::new(
                        Diagnostic::error("size", "transpose needs a matrix").at(e.span, "here"),
                    )
                })
            }
            "vector" => {
                check_args(self, 1, 1)?;
                let x = self.eval_arr(&args.positional[0], env)?;
                let n = x.data.len();
                Ok(Val::Arr(Arr {
                    dims: vec![n],
                    data: x.data,
                    ty: x.ty,
                }))
            }
            "scalar" => {
                check_args(self, 1, 1)?;
                let x = self.eval_arr(&args.positional[0], env)?;
                if x.data.len() != 1 {
                    return Err(Box::new(
                        Diagnostic::error(
                            "size",
                            "scalar() of an array with more than one element",
                        )
                        .at(e.span, "here"),
                    ));
                }
                Ok(Val::Arr(Arr::scalar(x.data[0], x.ty)))
            }
            "sum" | "product" => {
                check_args(self, 1, 1)?;
                let x = self.eval_arr(&args.positional[0], env)?;
                self.reduce(&name, &x, e.span).map(Val::Arr)
            }
            "String" => Ok(Val::Str(String::new())),
            "cross" | "cat" | "skew" | "outerProduct" | "symmetric" | "diagonal" | "linspace"
            | "promote" | "array" => {
                Err(self.unsupported(e.span, &format!("the `{name}` function")))
            }
            "sample"
            | "edge"
            | "change"
            | "reinit"
            | "terminal"
            | "initial"
            | "delay"
            | "spatialDistribution"
            | "cardinality"
            | "semiLinear"
            | "inStream"
            | "actualStream"
            | "getInstanceName"
            | "Clock"
            | "hold"
            | "previous"
            | "subSample"
            | "superSample"
            | "shiftSample"
            | "backSample"
            | "noClock"
            | "interval"
            | "firstTick" => Err(self.unsupported(e.span, &format!("the `{name}` operator"))),
            _ => {
                // A user-defined function or record constructor?
                let what = match target {
                    ast::CallTarget::Ref(r) => {
                        let n = ref_as_name(r);
                        match n.and_then(|n| self.tree.lookup_name(env.class, &n)) {
                            Some(Found::Class(c)) => Some(self.tree.info(c).restriction()),
                            _ => None,
                        }
                    }
                    _ => None,
                };
                match what {
                    Some(Some(ast::Restriction::Function)) => {
                        Err(self.unsupported(e.span, &format!("calls of user function `{name}`")))
                    }
                    Some(Some(ast::Restriction::Record)) => {
                        Err(self.unsupported(e.span, "record constructors"))
                    }
                    Some(_) => Err(Box::new(
                        Diagnostic::error("not-a-function", format!("`{name}` is not a function"))
                            .at(e.span, "called here"),
                    )),
                    None => {
                        let mut cands: Vec<String> =
                            Func1::ALL.iter().map(|f| f.name().to_string()).collect();
                        cands.extend(
                            [
                                "atan2", "min", "max", "der", "pre", "sum", "size", "zeros",
                                "ones", "fill", "noEvent", "smooth",
                            ]
                            .iter()
                            .map(|s| s.to_string()),
                        );
                        let mut d =
                            Diagnostic::error("unknown-name", format!("unknown function `{name}`"))
                                .at(e.span, "not a built-in or a function in scope");
                        if let Some(s) = suggest(&name, &cands) {
                            d = d.help(format!("did you mean `{s}`?"));
                        }
                        Err(Box::new(d))
                    }
                }
            }
        }
    }

    /// The size of an array whose declaration is being instantiated, if `e` names one.
    fn pending_size(&self, e: &ast::Expr, env: Env) -> Option<Vec<usize>> {
        let ast::ExprKind::Ref(r) = &e.kind else {
            return None;
        };
        if r.parts.len() != 1 || !r.parts[0].subscripts.is_empty() {
            return None;
        }
        let node = env.node?;
        let sid = *self.nodes[node.0 as usize]
            .slots
            .get(&r.parts[0].ident.name)?;
        match self.slots[sid.0 as usize].state {
            SlotState::InProgress => self.pending_dims.get(&sid).cloned(),
            _ => None,
        }
    }

    fn reduce(&mut self, name: &str, x: &Arr, span: Span) -> DResult<Arr> {
        if matches!(name, "sum" | "product") {
            types::numeric_arg(x, span, name)?;
        }
        let ty = x.ty;
        let ar = &mut self.flat.arena;
        if x.data.is_empty() {
            let v = match name {
                "sum" => 0.0,
                "product" => 1.0,
                _ => {
                    return Err(Box::new(
                        Diagnostic::error("size", format!("`{name}` of an empty array"))
                            .at(span, "here"),
                    ))
                }
            };
            return Ok(Arr::scalar(ar.constant(v), ty));
        }
        let mut acc = x.data[0];
        for &v in &x.data[1..] {
            acc = match name {
                "sum" => ar.add(acc, v),
                "product" => ar.mul(acc, v),
                "min" => ar.call2(Func2::Min, acc, v),
                "max" => ar.call2(Func2::Max, acc, v),
                _ => return Err(self.unsupported(span, &format!("`{name}` as a reduction"))),
            };
        }
        Ok(Arr::scalar(acc, ty))
    }

    /// `der` of a scalar expression: a variable's derivative, zero for parameters and
    /// constants, and linearity through sums and constant factors.
    fn der_of(&mut self, e: ExprId, span: Span) -> DResult<ExprId> {
        let ar = &self.flat.arena;
        match ar.node(e) {
            Node::Const(_) => Ok(self.flat.arena.constant(0.0)),
            Node::Var(v) => match self.flat.vars[v.index()].kind {
                VarKind::Parameter | VarKind::Constant => Ok(self.flat.arena.constant(0.0)),
                VarKind::Discrete | VarKind::Input => Err(Box::new(
                    Diagnostic::error(
                        "der",
                        format!(
                            "der() of `{}`, which is {}",
                            self.flat.vars[v.index()].name,
                            if self.flat.vars[v.index()].kind == VarKind::Input {
                                "an input"
                            } else {
                                "discrete (Integer, Boolean or `discrete`)"
                            }
                        ),
                    )
                    .at(span, "here"),
                )),
                _ => Ok(self.flat.arena.der(v)),
            },
            Node::Time => Ok(self.flat.arena.constant(1.0)),
            Node::Neg(a) => {
                let d = self.der_of(a, span)?;
                Ok(self.flat.arena.neg(d))
            }
            Node::Add(a, b) | Node::Sub(a, b) => {
                let is_add = matches!(ar.node(e), Node::Add(..));
                let da = self.der_of(a, span)?;
                let db = self.der_of(b, span)?;
                Ok(if is_add {
                    self.flat.arena.add(da, db)
                } else {
                    self.flat.arena.sub(da, db)
                })
            }
            Node::Mul(a, b) => {
                if self.fold(a).is_some() {
                    let db = self.der_of(b, span)?;
                    Ok(self.flat.arena.mul(a, db))
                } else if self.fold(b).is_some() {
                    let da = self.der_of(a, span)?;
                    Ok(self.flat.arena.mul(da, b))
                } else {
                    Err(self.unsupported(span, "der() of products of variables"))
                }
            }
            Node::Div(a, b) if self.fold(b).is_some() => {
                let da = self.der_of(a, span)?;
                Ok(self.flat.arena.div(da, b))
            }
            _ => Err(self.unsupported(span, "der() of nonlinear expressions")),
        }
    }

    // ------------------------------------------------------------------ references

    fn eval_ref(&mut self, r: &'a ast::ComponentRef, env: Env) -> DResult<Val> {
        let first = &r.parts[0];
        if !r.global && r.parts.len() == 1 {
            if let Some(&(_, v, ty)) = self
                .loop_vars
                .iter()
                .rev()
                .find(|(n, _, _)| *n == first.ident.name)
            {
                let a = Arr::scalar(self.flat.arena.constant(v), ty);
                return self
                    .apply_subscripts_arr(a, &first.subscripts, env, r.span)
                    .map(Val::Arr);
            }
        }
        match self.resolve(r, env)? {
            Resolved::Value(v) => Ok(v),
            Resolved::Nodes { .. } => Err(Box::new(
                Diagnostic::error(
                    "type",
                    format!("`{}` is a component, not a value", r.to_source_string()),
                )
                .at(r.span, "used as a value")
                .help("refer to one of its variables, e.g. `comp.v`"),
            )),
        }
    }

    /// Resolves a component reference to values or instances.
    fn resolve(&mut self, r: &'a ast::ComponentRef, env: Env) -> DResult<Resolved> {
        let first = &r.parts[0];
        let name = &*first.ident.name;
        // 1. A component of the instance.
        if !r.global {
            if let Some(node) = env.node {
                if let Some(&sid) = self.nodes[node.0 as usize].slots.get(name) {
                    let entry = self.instantiate(sid)?;
                    self.last_slot = Some(sid);
                    return self.walk(entry, r, 0, env);
                }
            }
            if name == "time" && first.subscripts.is_empty() && r.parts.len() == 1 {
                return Ok(Resolved::Value(Val::Arr(Arr::real(self.flat.arena.time()))));
            }
        }
        // 2. A class or package constant through the lexical scopes.
        let found = if r.global {
            self.tree.top_level(name).map(Found::Class)
        } else {
            self.tree.lookup_simple(env.class, name, 0)
        };
        let mut k = 0;
        let mut found = match found {
            Some(f) => f,
            None => return Err(self.unknown_component(r, 0, env)),
        };
        loop {
            match found {
                Found::Component {
                    owner,
                    clause,
                    decl,
                } => {
                    if clause.prefix.variability != Some(ast::Variability::Constant) {
                        return Err(Box::new(
                            Diagnostic::error(
                                "unknown-name",
                                format!(
                                    "`{}` is not a constant, so it cannot be used from outside an instance",
                                    decl.name.name
                                ),
                            )
                            .at(r.parts[k].ident.span, "not visible here"),
                        ));
                    }
                    let value = self.package_constant(owner, clause, decl)?;
                    let v =
                        self.apply_subscripts_arr(value, &r.parts[k].subscripts, env, r.span)?;
                    if k + 1 < r.parts.len() {
                        return Err(self.unsupported(r.span, "fields of package constants"));
                    }
                    return Ok(Resolved::Value(Val::Arr(v)));
                }
                Found::Class(c) => {
                    k += 1;
                    if k >= r.parts.len() {
                        return Err(Box::new(
                            Diagnostic::error(
                                "type",
                                format!("`{}` is a class, not a value", r.to_source_string()),
                            )
                            .at(r.span, "used as a value"),
                        ));
                    }
                    found = match self.tree.member(c, &r.parts[k].ident.name, 0) {
                        Some(f) => f,
                        None => return Err(self.unknown_component(r, k, env)),
                    };
                }
            }
        }
    }

    fn unknown_component(&mut self, r: &ast::ComponentRef, k: usize, env: Env) -> Box<Diagnostic> {
        let part = &r.parts[k];
        let mut candidates: Vec<String> = Vec::new();
        if k == 0 {
            if let Some(node) = env.node {
                candidates.extend(
                    self.nodes[node.0 as usize]
                        .slots
                        .keys()
                        .map(|s| s.to_string()),
                );
            }
            candidates.extend(self.tree.visible_names(env.class));
            candidates.extend(self.loop_vars.iter().map(|(n, _, _)| n.to_string()));
            candidates.push("time".into());
        }
        let mut d = Diagnostic::error(
            "unknown-name",
            format!("unknown name `{}`", part.ident.name),
        )
        .at(part.ident.span, "not declared");
        if let Some(s) = suggest(&part.ident.name, &candidates) {
            d = d.help(format!("did you mean `{s}`?"));
        }
        Box::new(d)
    }

    fn package_constant(
        &mut self,
        owner: ClassId,
        clause: &'a ast::ComponentClause,
        decl: &'a ast::ComponentDecl,
    ) -> DResult<Arr> {
        let key = (owner, decl.name.name.clone());
        if let Some(v) = self.package_consts.get(&key) {
            return Ok(v.clone());
        }
        let env = Env {
            node: None,
            class: owner,
        };
        let binding = decl.modification.as_ref().and_then(|m| match &m.binding {
            Some(ast::Binding::Expr(e)) => Some(e),
            _ => None,
        });
        let Some(b) = binding else {
            return Err(Box::new(
                Diagnostic::error(
                    "no-value",
                    format!("constant `{}` has no value", decl.name.name),
                )
                .at(decl.name.span, "declared without a value"),
            ));
        };
        let _ = clause;
        let saved = std::mem::take(&mut self.loop_vars);
        let v = self.eval_arr(b, env);
        self.loop_vars = saved;
        let v = v?;
        for &x in &v.data {
            if self.fold(x).is_none() {
                return Err(Box::new(
                    Diagnostic::error(
                        "not-constant",
                        format!("constant `{}` has a non-constant value", decl.name.name),
                    )
                    .at(b.span, "not constant"),
                ));
            }
        }
        self.package_consts.insert(key, v.clone());
        Ok(v)
    }

    /// Continues resolving `r` from part `k`, whose entry is `entry`.
    fn walk(
        &mut self,
        entry: Entry,
        r: &'a ast::ComponentRef,
        k: usize,
        env: Env,
    ) -> DResult<Resolved> {
        let part = &r.parts[k];
        match entry {
            Entry::Disabled => Err(Box::new(
                Diagnostic::error(
                    "disabled",
                    format!(
                        "`{}` is a conditional component that is disabled",
                        part.ident.name
                    ),
                )
                .at(part.ident.span, "its condition is false"),
            )),
            Entry::Str(value) => {
                if k + 1 < r.parts.len() || !part.subscripts.is_empty() {
                    return Err(Box::new(
                        Diagnostic::error("type", format!("`{}` is a String", part.ident.name))
                            .at(r.span, "neither subscripts nor elements"),
                    ));
                }
                Ok(Resolved::Value(Val::Str(value.to_string())))
            }
            Entry::Vars { dims, vars } => {
                if k + 1 < r.parts.len() {
                    return Err(Box::new(
                        Diagnostic::error(
                            "unknown-name",
                            format!(
                                "`{}` is a scalar variable and has no element `{}`",
                                part.ident.name,
                                r.parts[k + 1].ident.name
                            ),
                        )
                        .at(r.parts[k + 1].ident.span, "no such element"),
                    ));
                }
                let ty = vars
                    .first()
                    .map_or(ScalarType::Real, |&v| self.flat.vars[v.index()].ty);
                let (dims, vars) =
                    self.apply_subscripts_list(&dims, &vars, &part.subscripts, env, r.span)?;
                let data = vars.iter().map(|&v| self.var_expr(v)).collect();
                Ok(Resolved::Value(Val::Arr(Arr { dims, data, ty })))
            }
            Entry::Nodes { dims, nodes } => {
                let (dims, nodes) =
                    self.apply_subscripts_list(&dims, &nodes, &part.subscripts, env, r.span)?;
                if k + 1 == r.parts.len() {
                    return Ok(Resolved::Nodes { dims, nodes });
                }
                let next = &r.parts[k + 1];
                let mut results = Vec::with_capacity(nodes.len());
                for &n in &nodes {
                    let Some(&sid) = self.nodes[n.0 as usize].slots.get(&next.ident.name) else {
                        let candidates: Vec<String> = self.nodes[n.0 as usize]
                            .slots
                            .keys()
                            .map(|s| s.to_string())
                            .collect();
                        let mut d = Diagnostic::error(
                            "unknown-name",
                            format!("`{}` has no element `{}`", part.ident.name, next.ident.name),
                        )
                        .at(next.ident.span, "no such element");
                        if let Some(s) = suggest(&next.ident.name, &candidates) {
                            d = d.help(format!("did you mean `{s}`?"));
                        }
                        return Err(Box::new(d));
                    };
                    let e = self.instantiate(sid)?;
                    self.last_slot = Some(sid);
                    results.push(self.walk(e, r, k + 1, env)?);
                }
                combine(dims, results, r.span)
            }
        }
    }

    /// A variable in an expression: constants are inlined, everything else stays symbolic.
    fn var_expr(&mut self, v: VarId) -> ExprId {
        let var = &self.flat.vars[v.index()];
        if var.kind == VarKind::Constant {
            if let Some(b) = var.binding {
                if self.flat.arena.as_const(b).is_some() {
                    return b;
                }
            }
        }
        self.flat.arena.var(v)
    }

    fn subscript_indices(
        &mut self,
        s: &'a ast::Subscript,
        n: usize,
        env: Env,
    ) -> DResult<Option<Vec<usize>>> {
        match s {
            ast::Subscript::Colon(_) => Ok(None),
            ast::Subscript::Expr(e) => {
                self.end_stack.push(n);
                let r = self.eval_arr(e, env);
                self.end_stack.pop();
                let a = r?;
                types::integer(&a, e.span, "an array subscript")?;
                let mut out = Vec::with_capacity(a.data.len());
                for &x in &a.data {
                    let Some(v) = self.fold(x) else {
                        return Err(Box::new(
                            Diagnostic::error("not-constant", "array subscripts must be known at compile time")
                                .at(e.span, "depends on a variable")
                                .help("rtc expands arrays to scalars; a variable index would need run-time lookup"),
                        ));
                    };
                    if v < 1.0 || v.fract() != 0.0 || v as usize > n {
                        return Err(Box::new(
                            Diagnostic::error(
                                "index",
                                format!("index {v} is out of bounds 1..{n}"),
                            )
                            .at(e.span, "out of bounds"),
                        ));
                    }
                    out.push(v as usize - 1);
                }
                if a.dims.is_empty() {
                    Ok(Some(out))
                } else {
                    // A vector of indices keeps the dimension: mark by returning it as a slice.
                    Ok(Some(out).map(|mut o| {
                        o.push(usize::MAX);
                        o
                    }))
                }
            }
        }
    }

    /// Applies subscripts to an array value.
    fn apply_subscripts_arr(
        &mut self,
        a: Arr,
        subs: &'a [ast::Subscript],
        env: Env,
        span: Span,
    ) -> DResult<Arr> {
        if subs.is_empty() {
            return Ok(a);
        }
        let (dims, data) = self.apply_subscripts_list(&a.dims, &a.data, subs, env, span)?;
        Ok(Arr {
            dims,
            data,
            ty: a.ty,
        })
    }

    fn apply_subscripts_list<T: Copy>(
        &mut self,
        dims: &[usize],
        data: &[T],
        subs: &'a [ast::Subscript],
        env: Env,
        span: Span,
    ) -> DResult<(Vec<usize>, Vec<T>)> {
        if subs.is_empty() {
            return Ok((dims.to_vec(), data.to_vec()));
        }
        if subs.len() > dims.len() {
            return Err(Box::new(
                Diagnostic::error(
                    "index",
                    format!(
                        "{} subscripts for an array with {} dimensions",
                        subs.len(),
                        dims.len()
                    ),
                )
                .at(span, "too many subscripts"),
            ));
        }
        // Per dimension: chosen indices and whether the dimension is kept.
        let mut choice: Vec<(Vec<usize>, bool)> = Vec::with_capacity(dims.len());
        for (k, &n) in dims.iter().enumerate() {
            match subs.get(k) {
                None => choice.push(((0..n).collect(), true)),
                Some(s) => match self.subscript_indices(s, n, env)? {
                    None => choice.push(((0..n).collect(), true)),
                    Some(mut idx) => {
                        let keep = idx.last() == Some(&usize::MAX);
                        if keep {
                            idx.pop();
                        }
                        choice.push((idx, keep));
                    }
                },
            }
        }
        let new_dims: Vec<usize> = choice
            .iter()
            .filter(|(_, k)| *k)
            .map(|(i, _)| i.len())
            .collect();
        let mut strides = vec![1usize; dims.len()];
        for k in (0..dims.len().saturating_sub(1)).rev() {
            strides[k] = strides[k + 1] * dims[k + 1];
        }
        let total: usize = choice.iter().map(|(i, _)| i.len()).product();
        let mut out = Vec::with_capacity(total);
        let mut counter = vec![0usize; dims.len()];
        if total > 0 {
            loop {
                let mut flat = 0;
                for k in 0..dims.len() {
                    flat += choice[k].0[counter[k]] * strides[k];
                }
                out.push(data[flat]);
                // Increment the odometer.
                let mut k = dims.len();
                loop {
                    if k == 0 {
                        break;
                    }
                    k -= 1;
                    counter[k] += 1;
                    if counter[k] < choice[k].0.len() {
                        break;
                    }
                    counter[k] = 0;
                    if k == 0 {
                        return Ok((new_dims, out));
                    }
                }
                if dims.is_empty() {
                    break;
                }
            }
        }
        Ok((new_dims, out))
    }

    // ------------------------------------------------------------------ equations

    fn generate_equations(&mut self) -> DResult<()> {
        let mut k = 0;
        while k < self.nodes.len() {
            let node = NodeId(k as u32);
            let classes = self.nodes[k].classes.clone();
            for class in classes {
                let Some(comp) = self.tree.info(class).composition() else {
                    continue;
                };
                let env = Env {
                    node: Some(node),
                    class,
                };
                if let Some(a) = comp.algorithms.first() {
                    self.push_error(*self.unsupported(a.span, "algorithm sections"));
                }
                for eq in &comp.equations {
                    let mut out = Vec::new();
                    if let Err(d) = self.equation(eq, env, &mut out, false) {
                        self.push_error(*d);
                    }
                    self.flat.equations.extend(out);
                }
                for eq in &comp.initial_equations {
                    let mut out = Vec::new();
                    if let Err(d) = self.equation(eq, env, &mut out, true) {
                        self.push_error(*d);
                    }
                    self.flat.initial_equations.extend(out);
                }
                if self.diags.iter().filter(|d| d.is_error()).count() >= MAX_ERRORS {
                    return Ok(());
                }
            }
            k += 1;
        }
        Ok(())
    }

    fn push_error(&mut self, d: Diagnostic) {
        self.diags.push(d);
    }

    fn equation(
        &mut self,
        eq: &'a ast::Equation,
        env: Env,
        out: &mut Vec<Equation>,
        initial: bool,
    ) -> DResult<()> {
        match &eq.kind {
            ast::EquationKind::Equality(l, r) => {
                let a = self.eval_arr(l, env)?;
                let b = self.eval_arr(r, env)?;
                types::equation(&a, l.span, &b, r.span)?;
                // A side that is one Integer or Boolean variable is defined by the other.
                for (side, this, other, other_span) in [(l, &a, &b, r.span), (r, &b, &a, l.span)] {
                    let ast::ExprKind::Ref(rf) = &side.kind else {
                        continue;
                    };
                    let is_variable =
                        this.as_scalar()
                            .is_some_and(|x| match self.flat.arena.node(x) {
                                Node::Var(v) => !matches!(
                                    self.flat.vars[v.index()].kind,
                                    VarKind::Parameter | VarKind::Constant
                                ),
                                _ => false,
                            });
                    if is_variable && this.ty != ScalarType::Real {
                        let name = rf.to_source_string();
                        types::assign(
                            this.ty,
                            &name,
                            other,
                            other_span,
                            "is defined by {a} expression",
                        )?;
                    }
                }
                if a.dims != b.dims {
                    return Err(Box::new(
                        Diagnostic::error(
                            "size",
                            format!(
                                "the sides of this equation have different sizes: {} and {}",
                                dims_text(&a.dims),
                                dims_text(&b.dims)
                            ),
                        )
                        .at(l.span, dims_text(&a.dims))
                        .also(r.span, dims_text(&b.dims)),
                    ));
                }
                for (&x, &y) in a.data.iter().zip(&b.data) {
                    out.push(Equation {
                        lhs: x,
                        rhs: y,
                        span: eq.span,
                        origin: EquationOrigin::Source,
                    });
                }
                Ok(())
            }
            ast::EquationKind::For { indices, body } => {
                self.iterate(indices, env, &mut |s| {
                    for b in body {
                        s.equation(b, env, out, initial)?;
                    }
                    Ok(())
                })?;
                Ok(())
            }
            ast::EquationKind::If {
                branches,
                otherwise,
            } => {
                // Structural conditions select a branch at compile time.
                let mut conds = Vec::new();
                let mut all_const = true;
                for (c, _) in branches {
                    let ce = self.eval_condition(c, env, "the condition of an if-equation")?;
                    let folded = self.fold(ce);
                    if folded.is_none() {
                        all_const = false;
                    }
                    conds.push((ce, folded));
                    if folded == Some(1.0) || folded.is_some_and(|v| v != 0.0) && all_const {
                        break;
                    }
                }
                if all_const {
                    for (k, (_, v)) in conds.iter().enumerate() {
                        if v.is_some_and(|x| x != 0.0) {
                            for b in &branches[k].1 {
                                self.equation(b, env, out, initial)?;
                            }
                            return Ok(());
                        }
                    }
                    for b in otherwise {
                        self.equation(b, env, out, initial)?;
                    }
                    return Ok(());
                }
                // Otherwise every branch must give the same number of scalar equations;
                // they pair up into residuals `0 = if c then r1 else r2`.
                let mut branch_eqs = Vec::new();
                for (_, body) in branches {
                    let mut v = Vec::new();
                    for b in body {
                        self.equation(b, env, &mut v, initial)?;
                    }
                    branch_eqs.push(v);
                }
                let mut else_eqs = Vec::new();
                for b in otherwise {
                    self.equation(b, env, &mut else_eqs, initial)?;
                }
                for (k, v) in branch_eqs.iter().enumerate() {
                    if v.len() != else_eqs.len() {
                        return Err(Box::new(
                            Diagnostic::error(
                                "if-equation",
                                format!(
                                    "the branches of this if-equation have {} and {} equations",
                                    v.len(),
                                    else_eqs.len()
                                ),
                            )
                            .at(branches[k].0.span, "condition depends on variables")
                            .help("with a condition that changes during simulation, every branch needs the same number of equations"),
                        ));
                    }
                }
                let ar = &mut self.flat.arena;
                for i in 0..else_eqs.len() {
                    let mut res = ar.sub(else_eqs[i].lhs, else_eqs[i].rhs);
                    for (k, v) in branch_eqs.iter().enumerate().rev() {
                        let r = ar.sub(v[i].lhs, v[i].rhs);
                        res = ar.if_(conds[k].0, r, res);
                    }
                    let zero = ar.constant(0.0);
                    out.push(Equation {
                        lhs: zero,
                        rhs: res,
                        span: eq.span,
                        origin: EquationOrigin::Source,
                    });
                }
                Ok(())
            }
            ast::EquationKind::Connect(a, b) => {
                if initial {
                    return Err(Box::new(
                        Diagnostic::error("connect", "connect in an initial equation section")
                            .at(eq.span, "here"),
                    ));
                }
                self.connect(a, b, env, eq.span)
            }
            ast::EquationKind::When { branches } => self.when_equation(eq, branches, env, initial),
            ast::EquationKind::Call(f, args) => {
                let name = f.to_source_string();
                match name.as_str() {
                    "assert" => {
                        if args.positional.is_empty() {
                            return Err(Box::new(
                                Diagnostic::error(
                                    "arguments",
                                    "`assert` needs a condition and a message",
                                )
                                .at(args.span, "here"),
                            ));
                        }
                        let c = self.eval_condition(
                            &args.positional[0],
                            env,
                            "the condition of an assert",
                        )?;
                        let message = match args.positional.get(1) {
                            Some(m) => match self.eval(m, env)? {
                                Val::Str(s) => s,
                                Val::Arr(_) => String::new(),
                            },
                            None => String::new(),
                        };
                        if self.fold(c) == Some(0.0) {
                            return Err(Box::new(
                                Diagnostic::error("assert", format!("assertion fails: {message}"))
                                    .at(args.positional[0].span, "is false"),
                            ));
                        }
                        self.flat.assertions.push(Assertion {
                            condition: c,
                            message,
                            span: eq.span,
                        });
                        Ok(())
                    }
                    "terminate" | "reinit" => {
                        Err(self.unsupported(eq.span, &format!("`{name}` equations")))
                    }
                    _ => Err(Box::new(
                        Diagnostic::error("equation", format!("`{name}(…)` is not an equation"))
                            .at(eq.span, "here")
                            .help("an equation is `lhs = rhs`, connect, for, if, when or assert"),
                    )),
                }
            }
        }
    }

    // ------------------------------------------------------------------ connections

    fn connect(
        &mut self,
        a: &'a ast::ComponentRef,
        b: &'a ast::ComponentRef,
        env: Env,
        span: Span,
    ) -> DResult<()> {
        let ea = self.connector_ends(a, env)?;
        let eb = self.connector_ends(b, env)?;
        let (Some(ea), Some(eb)) = (ea, eb) else {
            // A disabled conditional connector: its connections are removed.
            return Ok(());
        };
        if ea.len() != eb.len() {
            return Err(Box::new(
                Diagnostic::error(
                    "connect",
                    format!(
                        "cannot connect `{}` ({} connector{}) to `{}` ({})",
                        a.to_source_string(),
                        ea.len(),
                        if ea.len() == 1 { "" } else { "s" },
                        b.to_source_string(),
                        eb.len()
                    ),
                )
                .at(span, "sizes differ"),
            ));
        }
        for (ca, cb) in ea.iter().zip(&eb) {
            let names_a: Vec<&str> = ca.leaves.iter().map(|l| l.0.as_str()).collect();
            let names_b: Vec<&str> = cb.leaves.iter().map(|l| l.0.as_str()).collect();
            if names_a != names_b {
                return Err(Box::new(
                    Diagnostic::error(
                        "connect",
                        format!(
                            "connectors `{}` and `{}` are not compatible: ({}) vs ({})",
                            a.to_source_string(),
                            b.to_source_string(),
                            names_a.join(", "),
                            names_b.join(", ")
                        ),
                    )
                    .at(span, "incompatible connectors"),
                ));
            }
            for (la, lb) in ca.leaves.iter().zip(&cb.leaves) {
                let fa = self.meta[la.1.index()].is_flow;
                let fb = self.meta[lb.1.index()].is_flow;
                if fa != fb {
                    return Err(Box::new(
                        Diagnostic::error(
                            "connect",
                            format!(
                                "`{}` is a flow variable but `{}` is not",
                                if fa { &la.0 } else { &lb.0 },
                                if fa { &lb.0 } else { &la.0 }
                            ),
                        )
                        .at(span, "flow mismatch"),
                    ));
                }
                self.connections.push(Connection {
                    a: ConnEnd {
                        var: la.1,
                        outside: ca.outside,
                    },
                    b: ConnEnd {
                        var: lb.1,
                        outside: cb.outside,
                    },
                    is_flow: fa,
                    span,
                });
            }
        }
        Ok(())
    }

    /// The connector instances a connect argument names, each with its leaf variables.
    fn connector_ends(
        &mut self,
        r: &'a ast::ComponentRef,
        env: Env,
    ) -> DResult<Option<Vec<ConnectorEnd>>> {
        let node = env.node.ok_or_else(|| {
            Box::new(Diagnostic::error("connect", "connect outside of a model").at(r.span, "here"))
        })?;
        let first = &r.parts[0].ident.name;
        let Some(&sid) = self.nodes[node.0 as usize].slots.get(first) else {
            return Err(self.unknown_component(r, 0, env));
        };
        self.instantiate(sid)?;
        // `connect(p, sub.p)`: p is the model's own connector (outside), sub.p an inside one.
        let outside = r.parts.len() == 1 && self.slots[sid.0 as usize].is_connector;
        let resolved = match self.resolve(r, env) {
            Ok(x) => x,
            Err(d) if d.code == "disabled" => return Ok(None),
            Err(d) => return Err(d),
        };
        let mut ends = Vec::new();
        match resolved {
            Resolved::Nodes { nodes, .. } => {
                for n in nodes {
                    if !self.nodes[n.0 as usize].is_connector {
                        return Err(Box::new(
                            Diagnostic::error(
                                "connect",
                                format!("`{}` is not a connector", r.to_source_string()),
                            )
                            .at(r.span, "not a connector")
                            .help("connect() joins connectors such as `resistor.p`"),
                        ));
                    }
                    let mut leaves = Vec::new();
                    self.connector_leaves(n, String::new(), &mut leaves)?;
                    ends.push(ConnectorEnd { outside, leaves });
                }
            }
            Resolved::Value(Val::Arr(a)) => {
                // A connector of a built-in type (`RealInput u`): each element is its own connector.
                let is_conn = match self.last_slot {
                    Some(last) => {
                        let s = &self.slots[last.0 as usize];
                        s.is_connector || self.nodes[s.node.0 as usize].is_connector
                    }
                    None => false,
                };
                if !is_conn {
                    return Err(Box::new(
                        Diagnostic::error(
                            "connect",
                            format!("`{}` is not a connector", r.to_source_string()),
                        )
                        .at(r.span, "not a connector")
                        .help("connect() joins connectors; to set values equal write an equation"),
                    ));
                }
                for &e in &a.data {
                    match self.flat.arena.node(e) {
                        Node::Var(v) => ends.push(ConnectorEnd {
                            outside,
                            leaves: vec![(String::new(), v)],
                        }),
                        _ => {
                            return Err(Box::new(
                                Diagnostic::error("connect", "connect() needs connector variables")
                                    .at(r.span, "not a variable"),
                            ))
                        }
                    }
                }
            }
            Resolved::Value(Val::Str(_)) => {
                return Err(Box::new(
                    Diagnostic::error("connect", "connect() of a string").at(r.span, "here"),
                ))
            }
        }
        Ok(Some(ends))
    }

    fn connector_leaves(
        &mut self,
        n: NodeId,
        prefix: String,
        out: &mut Vec<(String, VarId)>,
    ) -> DResult<()> {
        let order = self.nodes[n.0 as usize].order.clone();
        for sid in order {
            let entry = self.instantiate(sid)?;
            let name = format!("{prefix}{}", self.slots[sid.0 as usize].name);
            match entry {
                Entry::Vars { dims, vars } => {
                    for (k, v) in vars.iter().enumerate() {
                        if matches!(
                            self.flat.vars[v.index()].kind,
                            VarKind::Parameter | VarKind::Constant
                        ) {
                            continue;
                        }
                        out.push((format!("{name}{}", subscript_text(&dims, k)), *v));
                    }
                }
                Entry::Nodes { dims, nodes } => {
                    for (k, c) in nodes.iter().enumerate() {
                        self.connector_leaves(
                            *c,
                            format!("{name}{}.", subscript_text(&dims, k)),
                            out,
                        )?;
                    }
                }
                Entry::Disabled | Entry::Str(_) => {}
            }
        }
        Ok(())
    }

    /// Connection sets → equations. Potentials: all equal. Flows: the sum over inside ends
    /// minus the sum over outside ends is zero; a flow never connected as an inside end is zero.
    fn connection_equations(&mut self) {
        let conns = std::mem::take(&mut self.connections);
        // Union-find over potentials (by variable) and flows (by variable and side).
        let mut key_index: FxHashMap<ConnEnd, usize> = FxHashMap::default();
        let mut keys: Vec<ConnEnd> = Vec::new();
        let mut parent: Vec<usize> = Vec::new();
        let mut spans: Vec<Span> = Vec::new();
        let mut get = |e: ConnEnd,
                       span: Span,
                       keys: &mut Vec<ConnEnd>,
                       parent: &mut Vec<usize>,
                       spans: &mut Vec<Span>|
         -> usize {
            *key_index.entry(e).or_insert_with(|| {
                keys.push(e);
                parent.push(keys.len() - 1);
                spans.push(span);
                keys.len() - 1
            })
        };
        fn find(parent: &mut [usize], mut x: usize) -> usize {
            while parent[x] != x {
                parent[x] = parent[parent[x]];
                x = parent[x];
            }
            x
        }
        for c in &conns {
            let (ka, kb) = if c.is_flow {
                (c.a, c.b)
            } else {
                // Potentials are equal whatever the side.
                (
                    ConnEnd {
                        var: c.a.var,
                        outside: false,
                    },
                    ConnEnd {
                        var: c.b.var,
                        outside: false,
                    },
                )
            };
            let ia = get(ka, c.span, &mut keys, &mut parent, &mut spans);
            let ib = get(kb, c.span, &mut keys, &mut parent, &mut spans);
            let (ra, rb) = (find(&mut parent, ia), find(&mut parent, ib));
            if ra != rb {
                let (lo, hi) = if ra < rb { (ra, rb) } else { (rb, ra) };
                parent[hi] = lo;
            }
        }
        // Flows never connected from the inside are zero (specification 9.2).
        for v in 0..self.flat.vars.len() {
            let var = VarId(v as u32);
            if self.meta[v].is_flow
                && !matches!(
                    self.flat.vars[v].kind,
                    VarKind::Parameter | VarKind::Constant
                )
            {
                let e = ConnEnd {
                    var,
                    outside: false,
                };
                if !keys.contains(&e) {
                    let span = self.flat.vars[v].span;
                    get(e, span, &mut keys, &mut parent, &mut spans);
                }
            }
        }
        let mut sets: Vec<Vec<usize>> = vec![Vec::new(); keys.len()];
        for i in 0..keys.len() {
            let r = find(&mut parent, i);
            sets[r].push(i);
        }
        for (root, members) in sets.iter().enumerate() {
            if members.is_empty() {
                continue;
            }
            let span = spans[root];
            let is_flow = self.meta[keys[members[0]].var.index()].is_flow;
            let ar = &mut self.flat.arena;
            if is_flow {
                let mut sum: Option<ExprId> = None;
                for &m in members {
                    let k = keys[m];
                    let v = ar.var(k.var);
                    sum = Some(match (sum, k.outside) {
                        (None, false) => v,
                        (None, true) => ar.neg(v),
                        (Some(s), false) => ar.add(s, v),
                        (Some(s), true) => ar.sub(s, v),
                    });
                }
                let zero = ar.constant(0.0);
                if let Some(s) = sum {
                    self.flat.equations.push(Equation {
                        lhs: s,
                        rhs: zero,
                        span,
                        origin: EquationOrigin::ConnectFlow,
                    });
                }
            } else {
                let first = ar.var(keys[members[0]].var);
                for &m in &members[1..] {
                    let v = ar.var(keys[m].var);
                    self.flat.equations.push(Equation {
                        lhs: first,
                        rhs: v,
                        span,
                        origin: EquationOrigin::ConnectPotential,
                    });
                }
            }
        }
    }

    // ------------------------------------------------------------------ final touches

    /// Marks variables under `der()` as states.
    fn classify(&mut self) -> DResult<()> {
        let mut seen = Vec::new();
        let mut states = Vec::new();
        let roots: Vec<ExprId> = self
            .flat
            .equations
            .iter()
            .chain(&self.flat.initial_equations)
            .flat_map(|e| [e.lhs, e.rhs])
            .collect();
        for r in roots {
            let arena = &self.flat.arena;
            arena.visit_postorder(r, &mut seen, &mut |id| {
                if let Node::Der(v) = arena.node(id) {
                    states.push(v);
                }
            });
        }
        for v in states {
            let var = &mut self.flat.vars[v.index()];
            if var.kind == VarKind::Algebraic {
                var.kind = VarKind::State;
            }
        }
        Ok(())
    }

    fn experiment(&mut self, def: &'a ast::ClassDef, class: ClassId) -> Experiment {
        let mut ex = Experiment::default();
        let Some(ann) = &def.description.annotation else {
            return ex;
        };
        let env = Env { node: None, class };
        for arg in &ann.args {
            let ast::Argument::Modify(m) = arg else {
                continue;
            };
            let section = m.name.to_dotted();
            if section != "experiment" && section != "__rtc" {
                continue;
            }
            let Some(cm) = m.modification.as_ref().and_then(|x| x.class_mod.as_ref()) else {
                continue;
            };
            for a in &cm.args {
                let ast::Argument::Modify(em) = a else {
                    continue;
                };
                let Some(ast::Binding::Expr(e)) =
                    em.modification.as_ref().and_then(|x| x.binding.as_ref())
                else {
                    continue;
                };
                let value = match self.eval_arr(e, env) {
                    Ok(v) => v.as_scalar().and_then(|x| self.fold(x)),
                    Err(_) => None,
                };
                let Some(value) = value else {
                    self.diags.push(
                        Diagnostic::warning(
                            "annotation",
                            format!("{section} {} is not a number; ignored", em.name.to_dotted()),
                        )
                        .at(e.span, "not a constant"),
                    );
                    continue;
                };
                match (section.as_str(), em.name.to_dotted().as_str()) {
                    ("experiment", "StartTime") => ex.start_time = Some(value),
                    ("experiment", "StopTime") => ex.stop_time = Some(value),
                    ("experiment", "Interval") => ex.interval = Some(value),
                    ("experiment", "Tolerance") => ex.tolerance = Some(value),
                    ("__rtc", "ratio") => ex.ratio = Some(value),
                    _ => {}
                }
            }
        }
        ex
    }
}

struct ConnectorEnd {
    outside: bool,
    leaves: Vec<(String, VarId)>,
}

enum Resolved {
    Value(Val),
    Nodes {
        dims: Vec<usize>,
        nodes: Vec<NodeId>,
    },
}

/// Joins per-instance results of `comp[:].x` into one result with the instance dimensions first.
fn combine(dims: Vec<usize>, results: Vec<Resolved>, span: Span) -> DResult<Resolved> {
    if dims.is_empty() && results.len() == 1 {
        return results.into_iter().next().ok_or_else(|| {
            Box::new(Diagnostic::error("internal", "empty reference").at(span, "here"))
        });
    }
    let mut arrs = Vec::new();
    let mut node_lists = Vec::new();
    let mut inner_dims = None;
    for r in results {
        match r {
            Resolved::Value(Val::Arr(a)) => arrs.push(a),
            Resolved::Nodes { dims: d, nodes } => {
                inner_dims = Some(d);
                node_lists.extend(nodes);
            }
            Resolved::Value(Val::Str(_)) => {
                return Err(Box::new(
                    Diagnostic::error("type", "array of strings").at(span, "here"),
                ))
            }
        }
    }
    if !arrs.is_empty() {
        let inner = arrs[0].dims.clone();
        let mut data = Vec::new();
        for a in &arrs {
            if a.dims != inner {
                return Err(Box::new(
                    Diagnostic::error("size", "elements of a component array have different sizes")
                        .at(span, "here"),
                ));
            }
            data.extend_from_slice(&a.data);
        }
        let mut d = dims;
        d.extend(inner);
        let ty = arrs[0].ty;
        return Ok(Resolved::Value(Val::Arr(Arr { dims: d, data, ty })));
    }
    let mut d = dims;
    d.extend(inner_dims.unwrap_or_default());
    Ok(Resolved::Nodes {
        dims: d,
        nodes: node_lists,
    })
}

/// The number of elements of an array of size `dims`, within [`MAX_ELEMENTS`].
fn elements(dims: &[usize], span: Span, what: &str) -> DResult<usize> {
    let mut n: usize = 1;
    for &d in dims {
        n = n.saturating_mul(d);
    }
    if n > MAX_ELEMENTS {
        return Err(Box::new(
            Diagnostic::error(
                "too-large",
                format!(
                    "{what} has size {} ({}), more than rtc's limit of {MAX_ELEMENTS} elements for one array",
                    dims_text(dims),
                    if n == usize::MAX { "more than the machine can count".to_string() } else { n.to_string() }
                ),
            )
            .at(span, "too large"),
        ));
    }
    Ok(n)
}

/// An Integer constant (sizes, counts).
fn int_const(s: &mut Flattener, x: usize) -> Val {
    Val::Arr(Arr::scalar(
        s.flat.arena.constant(x as f64),
        ScalarType::Integer,
    ))
}

/// Real for any Real among a range's start, step and stop, else Integer.
fn promote3(a: ScalarType, b: ScalarType, c: ScalarType) -> ScalarType {
    types::promote(types::promote(a, b), c)
}

/// The common element type of an array constructor's items, or a located error.
fn unify_items(items: &[Arr], spans: impl Iterator<Item = Span>) -> DResult<ScalarType> {
    let mut ty = items.first().map_or(ScalarType::Real, |a| a.ty);
    for (a, sp) in items.iter().zip(spans) {
        ty = types::unify(ty, a.ty).ok_or_else(|| {
            Box::new(
                Diagnostic::error(
                    "type",
                    format!("an array mixes {} and {} elements", ty.name(), a.ty.name()),
                )
                .at(sp, a.ty.name()),
            )
        })?;
    }
    Ok(ty)
}

fn ref_as_name(r: &ast::ComponentRef) -> Option<ast::Name> {
    if r.parts.iter().any(|p| !p.subscripts.is_empty()) {
        return None;
    }
    Some(ast::Name {
        global: r.global,
        parts: r.parts.iter().map(|p| p.ident.clone()).collect(),
        span: r.span,
    })
}

/// Whether the declaration carries `annotation(__rtc(<flag> = true))`.
fn rtc_annotation_flag(decl: &ast::ComponentDecl, flag: &str) -> bool {
    let Some(ann) = &decl.description.annotation else {
        return false;
    };
    ann.args.iter().any(|a| {
        let ast::Argument::Modify(m) = a else {
            return false;
        };
        if m.name.to_dotted() != "__rtc" {
            return false;
        }
        let Some(cm) = m.modification.as_ref().and_then(|x| x.class_mod.as_ref()) else {
            return false;
        };
        cm.args.iter().any(|b| match b {
            ast::Argument::Modify(e) => {
                e.name.to_dotted() == flag
                    && matches!(
                        e.modification.as_ref().and_then(|x| x.binding.as_ref()),
                        Some(ast::Binding::Expr(ast::Expr {
                            kind: ast::ExprKind::Bool(true),
                            ..
                        }))
                    )
            }
            _ => false,
        })
    })
}

/// `[2,3]`-style suffix for element `k` (row-major) of an array with `dims`.
fn subscript_text(dims: &[usize], k: usize) -> String {
    if dims.is_empty() {
        return String::new();
    }
    let mut idx = vec![0; dims.len()];
    let mut rest = k;
    for i in (0..dims.len()).rev() {
        idx[i] = rest % dims[i] + 1;
        rest /= dims[i];
    }
    format!(
        "[{}]",
        idx.iter()
            .map(|x| x.to_string())
            .collect::<Vec<_>>()
            .join(",")
    )
}
