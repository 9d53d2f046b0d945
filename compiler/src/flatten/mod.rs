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

mod algorithms;
mod annotation_refs;
mod builtins;
mod connect;
mod constants;
mod delay;
mod enums;
mod equations;
mod expandable;
mod expressions;
mod external;
mod external_derivative;
mod external_records;
mod function_events;
mod functions;
mod instance_checks;
mod instances;
mod legality;
mod noevent_checks;
use legality::typed;
mod nested_fit;
mod outofline;
mod overdetermined;
mod records;
mod redeclare;
mod references;
mod stream;
mod string_arrays;
mod tables;
mod variables;
mod when;
mod when_statements;

use crate::diag::suggest;
use crate::diag::{Diagnostic, Span};
use crate::flat::FlatVar;
use crate::flat::{
    Assertion, EnumId, Equation, EquationOrigin, Experiment, FlatModel, ScalarType, VarKind,
    Variable,
};
use crate::symbolic::{CmpOp, ExprId, Func1, Func2, Node};
use crate::syntax::ast;
use classes::{Builtin, ClassId, ClassTree, Found};
use modification::{merge, Env, Mod};
use rustc_hash::{FxHashMap, FxHashSet};
use std::rc::Rc;
pub use values::{dims_text, Arr, RecordVal, StrArr, Text, TextPart, Val};

type DResult<T> = Result<T, Box<Diagnostic>>;

/// The value of the annotation element `name = "message"` among `args` (the empty string where
/// it is not a string literal); `None` where there is no such element.
fn string_annotation<'x>(
    mut args: impl Iterator<Item = &'x ast::Argument>,
    name: &str,
) -> Option<String> {
    args.find_map(|a| match a {
        ast::Argument::Modify(m) if m.name.to_dotted() == name => {
            match m.modification.as_ref().and_then(|x| x.binding.as_ref()) {
                Some(ast::Binding::Expr(ast::Expr {
                    kind: ast::ExprKind::Str(s),
                    ..
                })) => Some(s.clone()),
                _ => Some(String::new()),
            }
        }
        _ => None,
    })
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct NodeId(pub u32);

crate::symbolic::index_methods!(NodeId);

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
struct SlotId(u32);

crate::symbolic::index_methods!(SlotId);

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
    /// An expandable connector (specification 9.1.3): its elements are made as connections
    /// need them.
    is_expandable: bool,
    parent: Option<NodeId>,
}

#[derive(Clone, Debug)]
enum Entry {
    Vars {
        dims: Vec<usize>,
        vars: Rc<[FlatVar]>,
    },
    Nodes {
        dims: Vec<usize>,
        nodes: Rc<[NodeId]>,
    },
    /// A String parameter or constant: its value (Strings are not variables of the step).
    Str(Rc<str>),
    /// A conditional component whose condition is false.
    Disabled,
    /// An external object (a table of the MSL): the record of its constructor's arguments.
    Object(Val),
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
    /// `inner` / `outer` prefixes (specification 5.4).
    inner: bool,
    outer: bool,
    /// Of an `inner outer` component: its inner half, the instance the `outer` components
    /// nested in it reach (made with the declaration's modification, specification 5.5); its
    /// own references reach the enclosing inner.
    inner_part: Option<Entry>,
    /// Its inner half is being made (the nested outer components reached while it is
    /// completed see the instances made so far).
    building_inner: bool,
    /// The element's prefixes as declared (`replaceable`, `constrainedby`).
    prefix: Option<&'a ast::ElementPrefix>,
}

/// Extra facts about a flat variable that only flattening needs.
#[derive(Clone, Copy)]
struct VarMeta {
    is_flow: bool,
    /// A `stream` variable (specification 15.1): never equated by connections.
    is_stream: bool,
    /// Declared `input` or `output` (its own prefix, its type's or its connector's: `Some(Some(
    /// …))`) or neither (`Some(None)`); `None` inside an expandable connector, where that
    /// follows from the connections.
    is_causal: Option<Option<ast::Causality>>,
    /// An element a connection added to an expandable connector, not one its class declares.
    added: bool,
}

/// One side of a `connect`: a leaf variable and whether its connector is an outside one.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
struct ConnEnd {
    var: FlatVar,
    outside: bool,
}

struct Connection {
    a: ConnEnd,
    b: ConnEnd,
    is_flow: bool,
    span: Span,
    /// The instance whose class wrote the connect-equation.
    level: Option<NodeId>,
    /// Each end is a connector of that instance's class declared protected (9.3: not a
    /// source of a signal, and no set without one needs one).
    hidden: [bool; 2],
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
    /// Inline every function call, also those rtc would compile out of line (for
    /// comparisons: the results agree).
    pub inline_all: bool,
    /// The MSL's tables given in the model (`ModelicaStandardTables` with a table array) made
    /// and looked up by the library's C code instead of rtc's expression tables (to
    /// cross-check them: `rtc run --c-tables`).
    pub c_tables: bool,
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
    // The specification's rules on the text of every class of the user's file, before any is
    // instantiated: an invalid file is refused whole.
    let mut user_classes = Vec::new();
    for &t in &tops {
        legality::with_nested(tree, t, &mut user_classes);
    }
    let mut refusals = Vec::new();
    for &c in &user_classes {
        refusals.extend(legality::check_class(tree, c, false));
    }
    if refusals.iter().any(|d| d.is_error()) {
        // A library's layout errors first: the refusal is often their consequence.
        let mut diagnostics = std::mem::take(&mut tree.load_errors);
        diagnostics.extend(refusals);
        return Outcome {
            model: None,
            diagnostics,
        };
    }
    let class = match select_model(tree, &tops, opts.model.as_deref()) {
        Ok(c) => c,
        Err(d) => {
            // A library that did not parse has no classes: its errors say why first.
            let mut diagnostics = std::mem::take(&mut tree.load_errors);
            diagnostics.push(*d);
            return Outcome {
                model: None,
                diagnostics,
            };
        }
    };
    let mut f = Flattener::new(tree);
    f.checked_classes.extend(user_classes);
    // What the rules said without refusing (warnings) is said before what flattening says.
    f.diags = refusals;
    let result = f.run(class, opts);
    let mut diagnostics = std::mem::take(&mut f.diags);
    let model = match result {
        Ok(()) if !diagnostics.iter().any(|d| d.is_error()) => Some(std::mem::take(&mut f.flat)),
        Ok(()) => None,
        Err(d) => {
            // A library's layout errors first: the failure is often their consequence.
            diagnostics.extend(std::mem::take(&mut f.tree.load_errors));
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

/// The flattener: the class tree it reads, the instance tree it builds, the function table
/// and calls it runs, the evaluation context, the connection graph, the flat model it writes
/// and the diagnostics.
struct Flattener<'t, 'a> {
    tree: &'t mut ClassTree<'a>,
    flat: FlatModel,
    meta: Vec<VarMeta>,
    /// The slots of elements connections added to expandable connectors (9.1.3).
    added_bus_slots: FxHashSet<SlotId>,
    connections: Vec<Connection>,
    /// Constant values of parameters, folded on demand (`None` while being evaluated).
    const_cache: FxHashMap<FlatVar, Option<Option<f64>>>,
    package_consts: FxHashMap<(ClassId, Box<str>), Arr>,
    diags: Vec<Diagnostic>,
    /// Enumeration classes met so far and their index in `flat.enums`.
    enum_ids: FxHashMap<ClassId, EnumId>,
    /// `inStream(v)`: the variable that reads it, for each stream variable `v`.
    in_streams: FxHashMap<FlatVar, FlatVar>,
    /// The instance tree.
    inst: Instances<'a>,
    /// Functions: calls being executed, compiled out of line.
    fns: FunctionTable<'a>,
    /// What an expression is evaluated inside.
    ctx: Context,
    /// The connection graph and the questions asked of it.
    conn_graph: GraphState,
    /// Classes whose text [`legality`] has checked.
    checked_classes: FxHashSet<ClassId>,
    /// The `noEvent(…)` nodes written in the model's equations and algorithms (not in a
    /// function's body, nor wrapped around an inlined call's result): what
    /// [`Flattener::discrete_valued_equations`] judges.
    written_no_event: FxHashSet<ExprId>,
    /// The `noEvent` wrappers of inlined functions around relations of their bodies only
    /// (`function_events.rs`), for the variability of their values (`noevent_checks.rs`).
    body_no_event: FxHashSet<ExprId>,
    /// Replaceable class elements checked against their `constrainedby` class (7.3.2).
    checked_constraints: FxHashSet<ClassId>,
    /// Pairs (new class, constraining class) found to fit (6.4), and `extends` clauses'
    /// modifications found to name elements of their base (7.2): each is checked once.
    fits_checked: FxHashSet<(ClassId, ClassId)>,
    extends_checked: FxHashSet<(ClassId, Span)>,
    /// The variables when-equations define, with the when-equation (specification 8.3.5.4).
    when_defined: FxHashMap<FlatVar, Span>,
    /// The variables when-equations reinitialise, with the when-equation (8.3.6).
    reinit_defined: FxHashMap<FlatVar, Span>,
}

/// The instance tree being built: its nodes and slots, and what instantiation has left to do.
struct Instances<'a> {
    nodes: Vec<InstNode>,
    slots: Vec<Slot<'a>>,
    top: Option<NodeId>,
    /// The slot of the last part of the last resolved reference.
    last_slot: Option<SlotId>,
    /// Sizes of arrays being declared, known from their binding (`A[:, size(A, 1)] = …`).
    pending_dims: FxHashMap<SlotId, Vec<usize>>,
    /// Class redeclarations written for each instance (`redeclare package Medium = …`).
    class_redecls: FxHashMap<NodeId, Vec<(Box<str>, modification::ClassRedeclared<'a>)>>,
    /// The connector instance of each flow and stream variable.
    var_owner: FxHashMap<FlatVar, NodeId>,
    /// Instantiating a component because an expression refers into it: its instances are
    /// made and populated, and completed later (`incomplete`), so that a reference to one
    /// element does not need all the others (which may refer back).
    shallow: bool,
    incomplete: Vec<NodeId>,
    /// Every instance is made (the connection graph can be read).
    instances_done: bool,
}

/// The functions of the model: the calls being executed (bounded) and those compiled out of
/// line.
struct FunctionTable<'a> {
    /// Function calls (and model algorithm sections) being executed, innermost last.
    frames: Vec<functions::Frame<'a>>,
    /// Function calls executed so far (bounded by `functions::MAX_CALLS`).
    calls: usize,
    /// Functions compiled out of line, by class and argument shape (`None`: inlined).
    compiled: FxHashMap<(ClassId, String), Option<Rc<outofline::Compiled>>>,
    inline_all: bool,
    /// `Options::c_tables`.
    c_tables: bool,
    /// The functions of the C shims of external calls, by symbol (`external.rs`).
    shims: FxHashMap<String, std::sync::Arc<crate::symbolic::Function>>,
    /// External calls made for their effect alone (no output): the frame depth, the call's
    /// token (its one output, 0 when it ran), where and what; each function's outputs carry
    /// the tokens of its frame, so that the call is made before they are used.
    effects: Vec<(usize, ExprId, Span, String)>,
    /// External calls evaluated when the model is compiled, by shim and arguments' bits.
    evaluated: FxHashMap<(String, Vec<u64>), external::Evaluated>,
    /// The instance the function about to be defined is called through (`world.g(r)`): a
    /// short definition's modifications in that instance's class read its components.
    via: Option<NodeId>,
}

/// What an expression is evaluated inside: for-loop indices, `end`, when-clauses, messages,
/// the `extends` being followed and the iterations so far.
struct Context {
    /// For-loop indices in scope: name, value, type (Integer for Integer ranges).
    loop_vars: Vec<(Box<str>, f64, ScalarType)>,
    end_stack: Vec<usize>,
    /// Inside a when-condition or when-body: `edge` and `change` are allowed there.
    in_when: bool,
    /// Running the calls of a when-equation (`ast::Algorithm::from_when_equation`).
    when_equation_calls: bool,
    /// In the body of a `when terminal()` statement: the flag its event sets, under which
    /// the body's assertions hold (they are checked after that event's actions only).
    terminal_flag: Option<ExprId>,
    /// In a when-body: the value `initial()` has there — true in the branch that
    /// `initial()` makes fire at the start, false in the others (they fire after it).
    initial_const: Option<bool>,
    /// Evaluating the message of an `assert`: `String()` of a value that changes during
    /// simulation becomes the expression's text in angle brackets (messages are fixed text).
    in_message: bool,
    /// The classes whose `extends` are being followed (to find inheritance cycles).
    extends_chain: Vec<ClassId>,
    /// For-loop iterations so far (bounded by [`MAX_ITERATIONS`]).
    iterations: usize,
    /// `pre` of Real variables outside when-clauses: checked to be discrete-time once the
    /// when-clauses are known (3.7.5).
    pre_outside_when: Vec<(FlatVar, Span)>,
}

/// The connection graph (made on first use) and the questions asked of it before.
struct GraphState {
    /// The connection graph (`cardinality`, `Connections.isRoot`), made on first use.
    graph: Option<overdetermined::ConnectionGraph>,
    /// Questions to the graph asked before it was made: the parameter that holds the answer.
    graph_queries: Vec<(FlatVar, overdetermined::GraphQuery, Span)>,
    building_graph: bool,
    /// The first connection of overdetermined records: the graph is then made to check
    /// that each connected part has a root (9.4.2).
    overdetermined_connect: Option<Span>,
    /// Whether a class has an `equalityConstraint` function, by class.
    overdetermined_classes: FxHashMap<ClassId, bool>,
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
            flat: FlatModel::default(),
            meta: Vec::new(),
            added_bus_slots: FxHashSet::default(),
            connections: Vec::new(),
            const_cache: FxHashMap::default(),
            package_consts: FxHashMap::default(),
            diags: Vec::new(),
            enum_ids: FxHashMap::default(),
            in_streams: FxHashMap::default(),
            inst: Instances {
                nodes: Vec::new(),
                slots: Vec::new(),
                top: None,
                last_slot: None,
                pending_dims: FxHashMap::default(),
                class_redecls: FxHashMap::default(),
                var_owner: FxHashMap::default(),
                shallow: false,
                incomplete: Vec::new(),
                instances_done: false,
            },
            checked_classes: FxHashSet::default(),
            written_no_event: FxHashSet::default(),
            body_no_event: FxHashSet::default(),
            checked_constraints: FxHashSet::default(),
            fits_checked: FxHashSet::default(),
            extends_checked: FxHashSet::default(),
            when_defined: FxHashMap::default(),
            reinit_defined: FxHashMap::default(),
            fns: FunctionTable {
                frames: Vec::new(),
                calls: 0,
                compiled: FxHashMap::default(),
                inline_all: false,
                c_tables: false,
                shims: FxHashMap::default(),
                effects: Vec::new(),
                evaluated: FxHashMap::default(),
                via: None,
            },
            ctx: Context {
                loop_vars: Vec::new(),
                end_stack: Vec::new(),
                in_when: false,
                when_equation_calls: false,
                terminal_flag: None,
                initial_const: None,
                in_message: false,
                extends_chain: Vec::new(),
                iterations: 0,
                pre_outside_when: Vec::new(),
            },
            conn_graph: GraphState {
                graph: None,
                graph_queries: Vec::new(),
                building_graph: false,
                overdetermined_connect: None,
                overdetermined_classes: FxHashMap::default(),
            },
        }
    }

    fn run(&mut self, class: ClassId, opts: &Options) -> DResult<()> {
        self.fns.inline_all = opts.inline_all;
        self.fns.c_tables = opts.c_tables;
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
        self.inst.top = Some(top);
        // `model M2 = M(p = 1);` simulates M with the modification.
        let mut dims = Vec::new();
        let mut caus = None;
        let span = self.tree.info(class).span();
        let class = self.resolve_short(class, &mut top_mod, &mut dims, &mut caus, span)?;
        if !dims.is_empty()
            || self.tree.info(class).builtin.is_some()
            || self.enumeration(class)?.is_some()
        {
            return Err(Box::new(
                Diagnostic::error("no-model", "the selected class is not a model").at(span, "here"),
            ));
        }
        self.check_redeclares(&top_mod)?;
        self.populate(top, class, &mut top_mod, None)?;
        self.check_modifiers(top, &top_mod, class)?;
        self.apply_overrides(top, &override_exprs)?;
        self.complete_node(top)?;
        while let Some(n) = self.inst.incomplete.pop() {
            self.complete_node(n)?;
        }
        self.augment_expandable()?;
        while let Some(n) = self.inst.incomplete.pop() {
            self.complete_node(n)?;
        }
        self.check_connector_balance()?;
        self.connection_graph()?;
        // The experiment first: its start time is the value of `time` in parameters computed
        // at initialisation.
        if let Some(def) = def {
            self.flat.experiment = self.experiment(def, class);
        }
        self.generate_equations()?;
        self.rooted_parts()?;
        self.connection_equations();
        self.classify()?;
        if def.is_some() {
            self.check_figures(class);
        }
        self.check_interaction();
        self.discrete_reals_in_when()?;
        self.discrete_valued_equations()?;
        self.event_relations_under_continuous_if()?;
        self.reinit_states()?;
        self.pre_of_discrete()?;
        self.initial_values_from_initial_equations();
        for e in std::mem::take(&mut self.tree.load_errors) {
            self.diags.push(e);
        }
        Ok(())
    }

    /// Every Real declared discrete is assigned in a when-clause (4.4.4): a when-equation or
    /// when-statement makes it `Sampled`; one still `Discrete` is defined elsewhere or not at
    /// all.
    fn discrete_reals_in_when(&mut self) -> DResult<()> {
        if self
            .diags
            .iter()
            .any(|d| d.severity == crate::diag::Severity::Error)
        {
            // A when-clause already refused may be the one that assigns it.
            return Ok(());
        }
        let Some(v) = self
            .flat
            .vars
            .iter()
            .find(|v| v.kind == VarKind::Discrete && v.ty == ScalarType::Real)
        else {
            return Ok(());
        };
        let msg = format!(
            "`{}` is declared discrete but not assigned in a when-clause",
            v.name
        );
        Err(Box::new(typed::DISCRETE_REAL.broken(
            v.span,
            msg,
            "declared here",
        )))
    }

    /// `pre` outside when-clauses reads a discrete-time variable (3.7.5): a Real assigned in
    /// a when-clause (or a parameter), not a continuous one.
    fn pre_of_discrete(&mut self) -> DResult<()> {
        let found =
            self.ctx.pre_outside_when.iter().find(|&&(v, _)| {
                matches!(self.flat.vars[v].kind, VarKind::State | VarKind::Algebraic)
            });
        let Some(&(v, span)) = found else {
            return Ok(());
        };
        let msg = format!(
            "`pre` of `{}`, a continuous-time variable, outside a when-clause",
            self.flat.vars[v].name
        );
        Err(Box::new(typed::PRE_CONTINUOUS.broken(span, msg, "here")))
    }

    /// The variable of each `reinit` is a state: it appears under `der` (8.3.6).
    fn reinit_states(&mut self) -> DResult<()> {
        for w in &self.flat.whens {
            if let Some(&(x, _)) = w
                .reinits
                .iter()
                .find(|&&(x, _)| self.flat.vars[x].kind != VarKind::State)
            {
                let msg = format!(
                    "`{}` is re-initialised, but it is no state (it appears under no `der`)",
                    self.flat.vars[x].name
                );
                return Err(Box::new(typed::REINIT_STATE.broken(
                    w.span,
                    msg,
                    "reinit here",
                )));
            }
        }
        Ok(())
    }

    /// A String made while the model runs, where only a value known when the model is
    /// compiled can stand.
    fn changing_text(&self, span: Span) -> Box<Diagnostic> {
        self.unsupported(
            span,
            "a String that changes during simulation here (it can be passed to an external C function's String argument, as `print`'s)",
        )
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
            Some(Found::Class(c)) => self.tree.child_names(c),
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

    fn push_error(&mut self, d: Diagnostic) {
        self.diags.push(d);
    }

    /// Marks variables under `der()` as states.
    fn classify(&mut self) -> DResult<()> {
        let mut seen = Vec::new();
        let mut states = Vec::new();
        let roots: Vec<(ExprId, Span)> = self
            .flat
            .equations
            .iter()
            .chain(&self.flat.initial_equations)
            .flat_map(|e| [(e.lhs, e.span), (e.rhs, e.span)])
            .collect();
        for (r, span) in roots {
            let arena = &self.flat.arena;
            arena.visit_postorder(r, &mut seen, &mut |id| {
                if let Node::Der(v) = arena.node(id) {
                    states.push((v, span));
                }
            });
        }
        for (v, span) in states {
            let var = &mut self.flat.vars[v];
            match var.kind {
                VarKind::Algebraic => var.kind = VarKind::State,
                VarKind::Discrete | VarKind::Sampled => {
                    let msg = format!("`der({})` of a discrete-time variable", var.name);
                    let d = typed::DER_DISCRETE.broken(span, msg, "in this equation");
                    return Err(Box::new(d));
                }
                _ => {}
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
        for (section, name, e) in
            annotation_refs::section_values(&ann.args, &["experiment", "__rtc"])
        {
            let value = match self.eval_arr(e, env) {
                Ok(v) => v.as_scalar().and_then(|x| self.fold(x)),
                Err(_) => None,
            };
            let Some(value) = value else {
                self.diags.push(
                    Diagnostic::warning(
                        "annotation",
                        format!("{section} {name} is not a number; ignored"),
                    )
                    .at(e.span, "not a constant"),
                );
                continue;
            };
            match (section.as_str(), name.as_str()) {
                ("experiment", "StartTime") => ex.start_time = Some(value),
                ("experiment", "StopTime") => ex.stop_time = Some(value),
                ("experiment", "Interval") => ex.interval = Some(value),
                ("experiment", "Tolerance") => ex.tolerance = Some(value),
                ("__rtc", "ratio") => ex.ratio = Some(value),
                _ => {}
            }
        }
        ex
    }
}

struct ConnectorEnd {
    outside: bool,
    /// An outside connector declared protected.
    hidden: bool,
    leaves: Vec<(String, FlatVar)>,
    /// The connector's parameters and constants (not connected; their variability must
    /// match, 9.3).
    fixed: Vec<(String, FlatVar)>,
    /// Its overdetermined records (9.4.1), by path.
    overdetermined: Vec<(String, NodeId)>,
}

enum Resolved {
    Value(Val),
    Nodes {
        dims: Vec<usize>,
        nodes: Vec<NodeId>,
    },
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
