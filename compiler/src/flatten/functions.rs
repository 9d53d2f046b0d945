//! Functions (specification ch. 12), inlined by symbolic execution.
//!
//! A call of a Modelica function is executed at compile time on symbolic values: the
//! arguments are the caller's expressions, every input, output and protected variable of the
//! function is a local holding an array of expressions, and the algorithm's statements
//! (`algorithms.rs`) update the locals. The outputs' final expressions replace the call. So a
//! function adds no code of its own to the step: its work is the work of the expressions it
//! leaves, which the plan counts like any other, and tearing and symbolic differentiation see
//! through it (Cellier & Kofman ch. 10 need the loops' Jacobians in closed form).
//!
//! What bounds the work: `for` loops run over ranges known at compile time and are unrolled;
//! a `while` loop whose condition is known at compile time runs at compile time; one whose
//! condition depends on variables needs `annotation(__rtc(maxIterations = N))` on the
//! function and is unrolled N times behind a guard, with an assertion that fails when the
//! bound is hit. Data-dependent branches (`if`, `break`, `return`) become guarded
//! assignments `x := if guard then new else old`. Recursion is evaluated only when every
//! argument is known at compile time; in step code it is refused.
//!
//! Relations in function bodies do not generate events (specification 8.5): an output
//! expression that contains a relation is wrapped in `noEvent`.
//!
//! Functions declared `external "builtin"` (`Modelica.Math.sin` and its siblings) map to the
//! intrinsics the code generators already compile.

use super::*;
use function_events::NoEvents;

/// Bits of the NaN that marks an element of a local not assigned yet.
const UNSET_BITS: u64 = 0x7ff8_dead_beef_0001;

/// Nested calls deeper than this are refused (it bounds compile-time recursion).
const MAX_CALL_DEPTH: usize = 64;

/// Function calls a model may execute at compile time (a recursion such as `fib(40)` would
/// otherwise run for minutes).
const MAX_CALLS: usize = 200_000;

/// Iterations of a `while` loop evaluated at compile time before rtc gives up.
pub(super) const MAX_WHILE: usize = 100_000;

/// The element type of a local: a number type or String.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) enum LocalTy {
    Num(ScalarType),
    Str,
    Record(ClassId),
}

#[derive(Clone)]
pub(super) enum LocalValue<'a> {
    /// A binding or default not evaluated yet (evaluated on first use).
    Pending(&'a ast::Expr, Env),
    InProgress,
    Set(Val),
    /// An array whose size (`:`) is given by its first assignment.
    Unsized,
}

#[derive(Clone)]
pub(super) struct Local<'a> {
    pub ty: LocalTy,
    /// Declared dimensions (`None` for a `:` still open).
    pub dims: Option<Vec<usize>>,
    pub value: LocalValue<'a>,
    pub input: bool,
}

/// The variables of one executing function call (or model algorithm section).
pub(super) struct Frame<'a> {
    /// The function class and the classes it inherits from: where its names are written.
    pub classes: Vec<ClassId>,
    pub node: Option<NodeId>,
    pub locals: FxHashMap<Box<str>, Local<'a>>,
    /// Boolean expressions: the function has returned; the innermost loop was left.
    pub returned: ExprId,
    pub broken: ExprId,
    /// What is executing, for messages: "function `f`" or "the algorithm of `M`".
    pub what: String,
    pub max_iterations: Option<usize>,
    /// A model algorithm section (locals are model variables; `when` allowed).
    pub is_model: bool,
    /// Model algorithm: the locals assigned in when-statements (defined by their events).
    pub when_assigned: Vec<Box<str>>,
    /// Inside a when-statement's branch: its `reinit(x, v)` and `terminate("why")`.
    pub reinits: Option<Vec<(FlatVar, ExprId)>>,
    pub terminate: Option<String>,
    /// The function looked up a time table (`ModelicaStandardTables_CombiTimeTable_…`, whose
    /// breakpoints are time events, as the C table's own `nextTimeEvent` makes them): its
    /// outputs keep their relations as events.
    pub time_table: bool,
    /// The condition under which this call is made (the calling statements' guards, `true`
    /// for a model's algorithm and for calls from equations); `statement_guard`: that of the
    /// statement executing in this frame. Asserts and calls made for their effect hold only
    /// under both.
    pub guard: ExprId,
    pub statement_guard: ExprId,
}

/// One variable declared in a function.
pub(super) struct Param<'a> {
    pub name: &'a str,
    /// An input of the call (a function's `input`, a record constructor's modifiable field).
    pub is_input: bool,
    pub is_output: bool,
    pub clause: &'a ast::ComponentClause,
    pub decl: &'a ast::ComponentDecl,
    pub lexical: ClassId,
    pub binding: Option<(&'a ast::Expr, Env)>,
}

/// A function (or a record constructor) with its inherited parts collected.
pub(super) struct FnDef<'a> {
    pub name: String,
    pub classes: Vec<ClassId>,
    pub params: Vec<Param<'a>>,
    pub algorithms: Vec<(&'a ast::Algorithm, ClassId)>,
    pub external: Option<(&'a ast::External, ClassId)>,
    pub max_iterations: Option<usize>,
    /// A record constructor: the result is the record of all its fields.
    pub record: bool,
}

/// A modification of a function's or record's variable: `(name, value, scope)`.
pub(super) type Default<'a> = (&'a str, &'a ast::Expr, Env);

impl<'a> FnDef<'a> {
    pub(super) fn new(name: String, record: bool) -> FnDef<'a> {
        FnDef {
            name,
            classes: Vec::new(),
            params: Vec::new(),
            algorithms: Vec::new(),
            external: None,
            max_iterations: None,
            record,
        }
    }

    /// Modifications of a short definition or an `extends` (`f2 = f(k = 3)`,
    /// `extends Base(gain = 4)`) give new default values; one naming no variable is an error.
    pub(super) fn apply_defaults(&mut self, defaults: Vec<Default<'a>>) -> DResult<()> {
        for (name, e, env) in defaults {
            let Some(p) = self.params.iter_mut().find(|p| p.name == name) else {
                let names: Vec<String> = self.params.iter().map(|p| p.name.to_string()).collect();
                let mut d = Diagnostic::error(
                    "unknown-modifier",
                    format!("`{}` has no element `{name}` to modify", self.name),
                )
                .at(e.span, "modified here");
                if let Some(s) = suggest(name, &names) {
                    d = d.help(format!("did you mean `{s}`?"));
                }
                return Err(Box::new(d));
            };
            p.binding = Some((e, env));
        }
        Ok(())
    }
}

/// The arguments of a call, evaluated in the caller's scope.
pub(super) struct Args<'a> {
    pub positional: Vec<(Val, Span)>,
    pub named: Vec<(&'a ast::Ident, Val, Span)>,
}

impl<'t, 'a> Flattener<'t, 'a> {
    /// Whether `name` in `env` is a local of the executing function or algorithm.
    pub(super) fn frame_has(&self, name: &str, env: Env) -> bool {
        self.fns.frames.last().is_some_and(|f| {
            f.node == env.node && f.classes.contains(&env.class) && f.locals.contains_key(name)
        })
    }

    pub(super) fn unset(&mut self) -> ExprId {
        self.flat.arena.intern(Node::Const(UNSET_BITS))
    }

    /// The value of a local, its binding evaluated first if it is still pending.
    pub(super) fn local_value(&mut self, name: &str, span: Span) -> DResult<Val> {
        let top = self.fns.frames.len() - 1;
        let local = &self.fns.frames[top].locals[name];
        match local.value.clone() {
            LocalValue::Set(v) => Ok(v),
            LocalValue::Unsized => Err(Box::new(
                Diagnostic::error(
                    "unassigned",
                    format!("`{name}` is used before it is assigned"),
                )
                .at(span, "no value yet"),
            )),
            LocalValue::InProgress => Err(Box::new(
                Diagnostic::error(
                    "cycle",
                    format!("the binding of `{name}` depends on itself"),
                )
                .at(span, "here"),
            )),
            LocalValue::Pending(e, env) => {
                self.fns.frames[top].locals.get_mut(name).unwrap().value = LocalValue::InProgress;
                let v = self.eval(e, env);
                let v = match v {
                    Ok(v) => v,
                    Err(d) => {
                        self.fns.frames[top].locals.get_mut(name).unwrap().value =
                            LocalValue::Pending(e, env);
                        return Err(d);
                    }
                };
                let v = self.check_local_value(name, v, e.span, "is bound to {a}")?;
                self.fns.frames[top].locals.get_mut(name).unwrap().value =
                    LocalValue::Set(v.clone());
                Ok(v)
            }
        }
    }

    /// A local given an array of `what` (Strings, records) of size `got`: its declared size
    /// must be that, an open one becomes it.
    fn fit_local_size(&mut self, name: &str, got: &[usize], what: &str, span: Span) -> DResult<()> {
        let top = self.fns.frames.len() - 1;
        let local = self.fns.frames[top].locals.get_mut(name).expect("a local");
        match &local.dims {
            Some(d) if **d != *got => Err(Box::new(
                Diagnostic::error(
                    "size",
                    format!(
                        "`{name}` has size {} but is given {what} of size {}",
                        dims_text(d),
                        dims_text(got)
                    ),
                )
                .at(span, dims_text(got)),
            )),
            Some(_) => Ok(()),
            None => {
                local.dims = Some(got.to_vec());
                Ok(())
            }
        }
    }

    /// Checks a value for a local's type and size (fixing an open size) and converts an
    /// Integer value of a Real local.
    pub(super) fn check_local_value(
        &mut self,
        name: &str,
        v: Val,
        span: Span,
        how: &str,
    ) -> DResult<Val> {
        let top = self.fns.frames.len() - 1;
        let Some(l) = self.fns.frames[top].locals.get(name) else {
            return Err(Box::new(
                Diagnostic::error(
                    "unknown-name",
                    format!("`{name}` is not a variable of this function"),
                )
                .at(span, "assigned here"),
            ));
        };
        let (ty, dims) = (l.ty, l.dims.clone());
        let v = match (ty, v) {
            (LocalTy::Str, Val::Str(s)) if dims.as_ref().is_none_or(|d| d.is_empty()) => {
                return Ok(Val::Str(s))
            }
            (LocalTy::Str, Val::Strs(s)) => {
                self.fit_local_size(name, &s.dims, "Strings", span)?;
                return Ok(Val::Strs(s));
            }
            (LocalTy::Str, Val::Str(_)) => {
                let d = dims.unwrap_or_default();
                return Err(Box::new(
                    Diagnostic::error(
                        "size",
                        format!(
                            "`{name}` has size {} but is given one String",
                            dims_text(&d)
                        ),
                    )
                    .at(span, "scalar"),
                ));
            }
            (LocalTy::Num(t), Val::Strs(_)) => {
                return Err(Box::new(
                    Diagnostic::error(
                        "type",
                        format!(
                            "{} `{name}` {}",
                            self.flat.type_name(t),
                            how.replace("{a}", "an array of Strings")
                        ),
                    )
                    .at(span, "Strings"),
                ))
            }
            (LocalTy::Str, Val::Text(t)) => return Ok(Val::Text(t)),
            (LocalTy::Record(c), Val::Record(r)) => {
                self.fit_local_size(name, &r.dims, "records", span)?;
                if r.class != c && self.tree.info(c).full_name != r.name {
                    // A record of another class fits when it has every field of the declared
                    // one (a subtype, specification 6.4: `Mos1Calc` extends `MosCalc`); the
                    // function sees the declared fields only.
                    let def = self.record_def(c, span)?;
                    let mut fields = Vec::with_capacity(def.params.len());
                    for p in &def.params {
                        match r.field(p.name) {
                            Some(v) => fields.push((Box::from(p.name), v.clone())),
                            None => {
                                return Err(Box::new(
                                    Diagnostic::error(
                                        "type",
                                        format!(
                                            "record `{name}` of type `{}` is given a `{}`, which has no field `{}`",
                                            self.tree.info(c).full_name,
                                            r.name,
                                            p.name
                                        ),
                                    )
                                    .at(span, r.name.clone()),
                                ))
                            }
                        }
                    }
                    return Ok(Val::Record(Rc::new(RecordVal {
                        class: c,
                        name: self.tree.info(c).full_name.clone(),
                        dims: r.dims.clone(),
                        fields,
                    })));
                }
                return Ok(Val::Record(r));
            }
            (LocalTy::Record(_), _) | (_, Val::Record(_)) => {
                let want = match ty {
                    LocalTy::Record(c) => format!("record `{}`", self.tree.info(c).full_name),
                    _ => "a number or String".to_string(),
                };
                return Err(Box::new(
                    Diagnostic::error(
                        "type",
                        format!("`{name}` is {want}, and is given something else"),
                    )
                    .at(span, "here"),
                ));
            }
            (LocalTy::Str, Val::Arr(a)) => {
                return Err(Box::new(
                    Diagnostic::error(
                        "type",
                        format!("String `{name}` {}", how.replace("{a}", &types::a(a.ty))),
                    )
                    .at(span, a.ty.name()),
                ))
            }
            (LocalTy::Num(t), Val::Str(_) | Val::Text(_)) => {
                return Err(Box::new(
                    Diagnostic::error(
                        "type",
                        format!(
                            "{} `{name}` {}",
                            self.flat.type_name(t),
                            how.replace("{a}", "a String")
                        ),
                    )
                    .at(span, "String"),
                ))
            }
            (LocalTy::Num(t), Val::Arr(a)) => {
                if matches!(t, ScalarType::Enum(_)) || matches!(a.ty, ScalarType::Enum(_)) {
                    if t != a.ty {
                        return Err(Box::new(
                            Diagnostic::error(
                                "type",
                                format!(
                                    "{} `{name}` {}",
                                    self.flat.type_name(t),
                                    how.replace(
                                        "{a}",
                                        &format!("a value of type {}", self.flat.type_name(a.ty))
                                    )
                                ),
                            )
                            .at(span, self.flat.type_name(a.ty)),
                        ));
                    }
                } else {
                    types::assign(t, name, &a, span, how)?;
                }
                a.with_ty(t)
            }
        };
        match dims {
            Some(d) if d != v.dims => Err(Box::new(
                Diagnostic::error(
                    "size",
                    format!(
                        "`{name}` has size {} but is given a value of size {}",
                        dims_text(&d),
                        dims_text(&v.dims)
                    ),
                )
                .at(span, dims_text(&v.dims)),
            )),
            Some(_) => Ok(Val::Arr(v)),
            None => {
                self.fns.frames[top].locals.get_mut(name).unwrap().dims = Some(v.dims.clone());
                Ok(Val::Arr(v))
            }
        }
    }

    /// A call of `class`, a function, or `None` when `class` is not one.
    pub(super) fn function_call(
        &mut self,
        class: ClassId,
        args: &'a ast::CallArgs,
        env: Env,
        span: Span,
    ) -> DResult<Vec<Val>> {
        // The instance a call is made through (set by `called_function`), kept across the
        // arguments' own calls.
        let via = self.fns.via.take();
        let a = self.eval_args(args, env)?;
        self.fns.via = via;
        self.call_function(class, a, span)
    }

    /// A call's arguments evaluated (positional, then named).
    pub(super) fn eval_args(&mut self, args: &'a ast::CallArgs, env: Env) -> DResult<Args<'a>> {
        let mut a = Args {
            positional: Vec::new(),
            named: Vec::new(),
        };
        for e in &args.positional {
            a.positional.push((self.eval(e, env)?, e.span));
        }
        for (n, e) in &args.named {
            a.named.push((n, self.eval(e, env)?, e.span));
        }
        Ok(a)
    }

    /// `def` executed on the call's arguments outside the caller's for-loops and `end` (a
    /// record's or an external object's constructor, called from a binding or an equation).
    pub(super) fn execute_isolated(
        &mut self,
        def: &FnDef<'a>,
        args: &'a ast::CallArgs,
        env: Env,
        span: Span,
    ) -> DResult<Vec<Val>> {
        let a = self.eval_args(args, env)?;
        let saved_loops = std::mem::take(&mut self.ctx.loop_vars);
        let saved_end = std::mem::take(&mut self.ctx.end_stack);
        let r = self.execute_function(def, a, span);
        self.ctx.loop_vars = saved_loops;
        self.ctx.end_stack = saved_end;
        r
    }

    /// Executes function `class` on evaluated arguments; gives the outputs in order.
    pub(super) fn call_function(
        &mut self,
        class: ClassId,
        args: Args<'a>,
        span: Span,
    ) -> DResult<Vec<Val>> {
        let def = self.function_def(class, span)?;
        if let Some(outs) = self.vectorized_call(class, &def, &args, span)? {
            return Ok(outs);
        }
        self.fns.calls += 1;
        if self.fns.calls > MAX_CALLS {
            return Err(Box::new(
                Diagnostic::error(
                    "too-large",
                    format!("the model executes more than {MAX_CALLS} function calls at compile time, rtc's limit"),
                )
                .at(span, format!("calling `{}`", def.name)),
            ));
        }
        if self.fns.frames.len() >= MAX_CALL_DEPTH {
            return Err(Box::new(
                Diagnostic::error(
                    "recursion",
                    format!("function calls nested more than {MAX_CALL_DEPTH} deep"),
                )
                .at(span, format!("calling `{}`", def.name)),
            ));
        }
        let recursive = self
            .fns
            .frames
            .iter()
            .any(|f| !f.is_model && f.classes[0] == class);
        let mut args = args;
        if recursive {
            // Recursion runs at compile time: every argument must fold (constants and
            // parameters known at compile time), and is replaced by its value.
            let mut all_known = true;
            let vals = args
                .positional
                .iter_mut()
                .map(|(v, _)| v)
                .chain(args.named.iter_mut().map(|(_, v, _)| v));
            for v in vals {
                match v {
                    Val::Str(_) | Val::Strs(_) => {}
                    Val::Record(_) | Val::Text(_) => all_known = false,
                    Val::Arr(a) => {
                        for x in a.data.iter_mut() {
                            match self.fold(*x) {
                                Some(c) => *x = self.flat.arena.constant(c),
                                None => all_known = false,
                            }
                        }
                    }
                }
            }
            if !all_known {
                return Err(Box::new(
                    Diagnostic::error(
                        "recursion",
                        format!("recursive call of `{}` on values that change during simulation", def.name),
                    )
                    .at(span, "recursive call")
                    .help("a step function has bounded work; rtc evaluates a recursive function only at compile time (all arguments known)"),
                ));
            }
        }
        // The callee sees its own names only: no loop indices or `end` of the caller.
        let saved_loops = std::mem::take(&mut self.ctx.loop_vars);
        let saved_end = std::mem::take(&mut self.ctx.end_stack);
        let saved_when = std::mem::replace(&mut self.ctx.in_when, false);
        let r = match self.out_of_line(class, &def, &args, span) {
            Ok(Some(outs)) if !recursive => Ok(outs),
            Ok(_) => self.execute_function(&def, args, span),
            Err(d) => Err(d),
        };
        self.ctx.loop_vars = saved_loops;
        self.ctx.end_stack = saved_end;
        self.ctx.in_when = saved_when;
        // The outermost call site is where the user can act.
        let outermost = self.fns.frames.iter().all(|f| f.is_model);
        r.map_err(|d| {
            if outermost && !d.has_span(span) {
                Box::new(d.also(span, format!("in this call of `{}`", def.name)))
            } else {
                d
            }
        })
    }

    /// A function of scalar inputs called with arrays (specification 12.4.6): called once per
    /// element of the array arguments (which must agree in size), the outputs arrays of that
    /// size. `None` when the call is not vectorised.
    fn vectorized_call(
        &mut self,
        class: ClassId,
        def: &FnDef<'a>,
        args: &Args<'a>,
        span: Span,
    ) -> DResult<Option<Vec<Val>>> {
        if def.record {
            return Ok(None);
        }
        let inputs: Vec<&Param<'a>> = def.params.iter().filter(|p| p.is_input).collect();
        let scalar_input =
            |p: &Param| p.decl.subscripts.is_empty() && p.clause.subscripts.is_empty();
        // The arguments given to scalar inputs as arrays, and their common size.
        let mut dims: Option<Vec<usize>> = None;
        let mut check = |v: &Val, p: Option<&&Param<'a>>, at: Span| -> DResult<bool> {
            let (Some(p), Val::Arr(a)) = (p, v) else {
                return Ok(false);
            };
            if !scalar_input(p) || a.dims.is_empty() {
                return Ok(false);
            }
            match &dims {
                Some(d) if *d != a.dims => Err(Box::new(
                    Diagnostic::error(
                        "size",
                        format!(
                            "a call of `{}` over arrays of different sizes, {} and {}",
                            def.name,
                            dims_text(d),
                            dims_text(&a.dims)
                        ),
                    )
                    .at(at, dims_text(&a.dims)),
                )),
                _ => {
                    dims = Some(a.dims.clone());
                    Ok(true)
                }
            }
        };
        let mut vec_pos = Vec::new();
        for (k, (v, at)) in args.positional.iter().enumerate() {
            vec_pos.push(check(v, inputs.get(k), *at)?);
        }
        let mut vec_named = Vec::new();
        for (n, v, at) in &args.named {
            let p = inputs.iter().find(|p| p.name == &*n.name);
            vec_named.push(check(v, p, *at)?);
        }
        let Some(dims) = dims else {
            return Ok(None);
        };
        // Only when the scalar-input function's declared types are scalar: its type may be
        // an array type (`type Vec3 = Real[3]`), which the ordinary call checks.
        for p in &inputs {
            if scalar_input(p) && !self.local_type_dims(p)?.is_empty() {
                return Ok(None);
            }
        }
        if !self.tree.transitively_non_replaceable(class) {
            let msg = format!(
                "`{}` is called on arrays (vectorized), but it is declared replaceable, or in a replaceable class",
                def.name
            );
            return Err(Box::new(
                typed::VECTORIZED_REPLACEABLE.broken(span, msg, "here"),
            ));
        }
        let n: usize = dims.iter().product();
        let elem = |v: &Val, vectorised: bool, k: usize| match v {
            Val::Arr(a) if vectorised => Val::Arr(Arr::scalar(a.data[k], a.ty)),
            other => other.clone(),
        };
        let mut results: Vec<Vec<Val>> = Vec::with_capacity(n);
        for k in 0..n {
            let a = Args {
                positional: args
                    .positional
                    .iter()
                    .zip(&vec_pos)
                    .map(|((v, s), &x)| (elem(v, x, k), *s))
                    .collect(),
                named: args
                    .named
                    .iter()
                    .zip(&vec_named)
                    .map(|((nm, v, s), &x)| (*nm, elem(v, x, k), *s))
                    .collect(),
            };
            results.push(self.call_function(class, a, span)?);
        }
        // Each output: the elements' values stacked to the arguments' size.
        let outs = results.first().map_or(0, |r| r.len());
        let mut out = Vec::with_capacity(outs);
        for j in 0..outs {
            let mut items = Vec::with_capacity(n);
            for r in &results {
                match &r[j] {
                    Val::Arr(a) => items.push(a.clone()),
                    _ => {
                        return Err(self.unsupported(
                            span,
                            "vectorised calls of functions with String or record outputs",
                        ))
                    }
                }
            }
            let ty = items[0].ty;
            let inner = items[0].dims.clone();
            let mut data = Vec::with_capacity(n * inner.iter().product::<usize>());
            for a in &items {
                data.extend_from_slice(&a.data);
            }
            let mut d = dims.clone();
            d.extend(inner);
            out.push(Val::Arr(Arr { dims: d, data, ty }));
        }
        Ok(Some(out))
    }

    /// The condition under which a call made now is made: the innermost frame's guard and
    /// its statement's (`true` outside every function and algorithm).
    pub(super) fn call_guard(&mut self) -> ExprId {
        match self.fns.frames.last() {
            Some(f) => {
                let (a, b) = (f.guard, f.statement_guard);
                self.flat.arena.and(a, b)
            }
            None => self.flat.arena.boolean(true),
        }
    }

    pub(super) fn execute_function(
        &mut self,
        def: &FnDef<'a>,
        args: Args<'a>,
        span: Span,
    ) -> DResult<Vec<Val>> {
        let falsy = self.flat.arena.boolean(false);
        let truthy = self.flat.arena.boolean(true);
        let mut frame = Frame {
            classes: def.classes.clone(),
            node: None,
            locals: FxHashMap::default(),
            returned: falsy,
            broken: falsy,
            what: if def.record {
                format!("the record constructor `{}`", def.name)
            } else {
                format!("function `{}`", def.name)
            },
            max_iterations: def.max_iterations,
            is_model: false,
            when_assigned: Vec::new(),
            reinits: None,
            terminate: None,
            time_table: false,
            guard: self.call_guard(),
            statement_guard: truthy,
        };
        // Declarations first (types), values after: a size may refer to an input.
        for p in &def.params {
            let ty = self.local_type(p)?;
            if frame.locals.contains_key(p.name) {
                return Err(Box::new(
                    Diagnostic::error("duplicate", format!("`{}` is declared twice", p.name))
                        .at(p.decl.name.span, "again here"),
                ));
            }
            frame.locals.insert(
                p.name.into(),
                Local {
                    ty,
                    dims: None,
                    value: LocalValue::Unsized,
                    input: p.is_input,
                },
            );
        }
        // Effects left by a call that failed (and was retried inlined) are not this one's.
        let depth = self.fns.frames.len();
        self.fns.effects.retain(|e| e.0 < depth);
        self.fns.frames.push(frame);
        let r = self.run_function(def, args, span);
        self.fns.frames.pop();
        r
    }

    fn run_function(&mut self, def: &FnDef<'a>, args: Args<'a>, span: Span) -> DResult<Vec<Val>> {
        let inputs: Vec<&Param<'a>> = def.params.iter().filter(|p| p.is_input).collect();
        let outputs: Vec<&Param<'a>> = def.params.iter().filter(|p| p.is_output).collect();
        let given = self.bind_arguments(def, &inputs, args, span)?;
        self.size_locals(def, &given)?;
        let top = self.fns.frames.len() - 1;
        // Bindings of outputs and protected variables, in declaration order.
        for p in &def.params {
            if matches!(
                self.fns.frames[top].locals[p.name].value,
                LocalValue::Pending(..)
            ) {
                self.local_value(p.name, p.decl.name.span)?;
            }
        }
        if let Some((x, lexical)) = def.external {
            self.external_body(def, x, lexical, &inputs, &outputs)?;
        } else {
            let truthy = self.flat.arena.boolean(true);
            for (alg, lexical) in &def.algorithms {
                if alg.initial {
                    return Err(Box::new(
                        Diagnostic::error("algorithm", "an initial algorithm in a function")
                            .at(alg.span, "here"),
                    ));
                }
                let aenv = Env {
                    node: None,
                    class: *lexical,
                };
                self.exec_block(&alg.statements, truthy, aenv)?;
            }
        }
        if def.record {
            return self.record_result(def, span).map(|r| vec![r]);
        }
        let outs = self.function_outputs(def, &outputs, span)?;
        self.carry_effects(top, outs)
    }

    /// The outputs of the function at frame `top` made to depend on the external calls it
    /// made for their effect alone (each call's token is 0 when it ran): `y + token` for each
    /// Real or Integer output element. Without such an output the tokens go to the calling
    /// function or when-statement; a model equation cannot carry them (refused: the call
    /// would be dropped).
    fn carry_effects(&mut self, top: usize, mut outs: Vec<Val>) -> DResult<Vec<Val>> {
        let mine: Vec<(ExprId, Span, String)> = {
            let (keep, mine): (Vec<_>, Vec<_>) = std::mem::take(&mut self.fns.effects)
                .into_iter()
                .partition(|e| e.0 != top);
            self.fns.effects = keep;
            mine.into_iter().map(|(_, t, s, n)| (t, s, n)).collect()
        };
        let Some(first) = mine.first().cloned() else {
            return Ok(outs);
        };
        let mut token = mine[0].0;
        for (t, ..) in &mine[1..] {
            token = self.flat.arena.add(token, *t);
        }
        let mut carried = false;
        for v in &mut outs {
            if let Val::Arr(a) = v {
                if matches!(a.ty, ScalarType::Real | ScalarType::Integer) {
                    for e in &mut a.data {
                        *e = self.flat.arena.add(*e, token);
                    }
                    carried = true;
                }
            }
        }
        if carried {
            return Ok(outs);
        }
        // To the calling function; or to a model's when-statement, whose branch makes each
        // token an action of its event (`algorithms.rs`).
        let caller = top.checked_sub(1).map(|c| &self.fns.frames[c]);
        // A model frame is in a when-statement's branch while it collects `reinit`s.
        if caller.is_some_and(|c| !c.is_model || c.reinits.is_some()) {
            for (t, s, n) in mine {
                self.fns.effects.push((top - 1, t, s, n));
            }
            return Ok(outs);
        }
        Err(self.unsupported(
            first.1,
            &format!(
                "a call of the external function `{}` made for its effect where no Real or Integer output carries it to the model",
                first.2
            ),
        ))
    }

    /// Binds the arguments (positional in input order, then named) and the other variables'
    /// bindings.
    fn bind_arguments(
        &mut self,
        def: &FnDef<'a>,
        inputs: &[&Param<'a>],
        args: Args<'a>,
        span: Span,
    ) -> DResult<FxHashMap<&'a str, (Val, Span)>> {
        let mut given: FxHashMap<&str, (Val, Span)> = FxHashMap::default();
        if args.positional.len() > inputs.len() {
            return Err(Box::new(
                Diagnostic::error(
                    "arguments",
                    format!(
                        "`{}` takes {} input{}, but is given {} arguments",
                        def.name,
                        inputs.len(),
                        if inputs.len() == 1 { "" } else { "s" },
                        args.positional.len()
                    ),
                )
                .at(args.positional[inputs.len()].1, "extra argument"),
            ));
        }
        for (p, (v, s)) in inputs.iter().zip(args.positional) {
            given.insert(p.name, (v, s));
        }
        for (n, v, s) in args.named {
            let Some(p) = inputs.iter().find(|p| p.name == &*n.name) else {
                let names: Vec<String> = inputs.iter().map(|p| p.name.to_string()).collect();
                let mut d = Diagnostic::error(
                    "arguments",
                    format!("`{}` has no input named `{}`", def.name, n.name),
                )
                .at(n.span, "no such input");
                if let Some(s) = suggest(&n.name, &names) {
                    d = d.help(format!("did you mean `{s}`?"));
                }
                return Err(Box::new(d));
            };
            if given.insert(p.name, (v, s)).is_some() {
                return Err(Box::new(
                    Diagnostic::error("arguments", format!("input `{}` is given twice", n.name))
                        .at(n.span, "again here"),
                ));
            }
        }
        let top = self.fns.frames.len() - 1;
        for p in &def.params {
            let local = self.fns.frames[top].locals.get_mut(p.name).unwrap();
            local.value = match (given.get(p.name), p.binding) {
                (Some((v, _)), _) if local.input => LocalValue::Set(v.clone()),
                (_, Some((e, benv))) => LocalValue::Pending(e, benv),
                _ if local.input => {
                    return Err(Box::new(
                        Diagnostic::error(
                            "arguments",
                            format!(
                                "{} `{}` of `{}` has no value",
                                if def.record { "field" } else { "input" },
                                p.name,
                                def.name
                            ),
                        )
                        .at(span, "missing argument")
                        .also(p.decl.name.span, "declared without a default"),
                    ))
                }
                _ => LocalValue::Unsized,
            };
        }
        Ok(given)
    }

    /// Sizes, in declaration order (an input's `:` is the argument's size); an output or
    /// protected array starts with every element unassigned.
    fn size_locals(
        &mut self,
        def: &FnDef<'a>,
        given: &FxHashMap<&'a str, (Val, Span)>,
    ) -> DResult<()> {
        let top = self.fns.frames.len() - 1;
        for p in &def.params {
            let penv = Env {
                node: None,
                class: p.lexical,
            };
            let mut dims = Vec::new();
            let mut open = false;
            for s in p.decl.subscripts.iter().chain(&p.clause.subscripts) {
                match s {
                    ast::Subscript::Colon(_) => {
                        open = true;
                        dims.push(usize::MAX);
                    }
                    ast::Subscript::Expr(e) => dims.push(self.eval_dim(e, penv)?),
                }
            }
            let type_dims = self.local_type_dims(p)?;
            dims.extend(type_dims);
            let local = &self.fns.frames[top].locals[p.name];
            let input = local.input;
            if let Some((v, s)) = given.get(p.name).filter(|_| input) {
                // The argument must fit the declared size and type.
                let v = v.clone();
                let got: Vec<usize> = match &v {
                    Val::Arr(a) => a.dims.clone(),
                    Val::Record(r) => r.dims.clone(),
                    Val::Strs(s) => s.dims.clone(),
                    _ => Vec::new(),
                };
                let fits = got.len() == dims.len()
                    && got
                        .iter()
                        .zip(&dims)
                        .all(|(g, d)| *d == usize::MAX || g == d);
                if !fits {
                    return Err(Box::new(
                        Diagnostic::error(
                            "size",
                            format!(
                                "input `{}` of `{}` has size {}, the argument {}",
                                p.name,
                                def.name,
                                dims_text_open(&dims),
                                dims_text(&got)
                            ),
                        )
                        .at(*s, dims_text(&got))
                        .also(p.decl.name.span, "declared here"),
                    ));
                }
                self.fns.frames[top].locals.get_mut(p.name).unwrap().dims = None;
                let v = self.check_local_value(p.name, v, *s, "is given {a}")?;
                self.fns.frames[top].locals.get_mut(p.name).unwrap().value = LocalValue::Set(v);
                continue;
            }
            let l = self.fns.frames[top].locals.get_mut(p.name).unwrap();
            if open {
                l.dims = None;
            } else {
                l.dims = Some(dims.clone());
                if matches!(l.value, LocalValue::Unsized) {
                    match l.ty {
                        LocalTy::Num(ty) => {
                            let n: usize = dims.iter().product();
                            let u = self.unset();
                            let l = self.fns.frames[top].locals.get_mut(p.name).unwrap();
                            l.value = LocalValue::Set(Val::Arr(Arr {
                                dims,
                                data: vec![u; n],
                                ty,
                            }));
                        }
                        LocalTy::Str if !dims.is_empty() => {
                            // A String's start value is "" (specification 4.9.5).
                            let n: usize = dims.iter().product();
                            let l = self.fns.frames[top].locals.get_mut(p.name).unwrap();
                            l.value = LocalValue::Set(Val::Strs(Rc::new(StrArr {
                                dims,
                                items: vec![String::new(); n],
                            })));
                        }
                        LocalTy::Record(c) => {
                            // Fields are assigned one by one: start with all unassigned.
                            let t = self.record_template(c, p.decl.name.span, 0)?;
                            let t = self.record_array_of(t, &dims, p.decl.name.span)?;
                            let l = self.fns.frames[top].locals.get_mut(p.name).unwrap();
                            l.value = LocalValue::Set(t);
                        }
                        _ => {}
                    }
                }
            }
        }
        Ok(())
    }

    /// The values the executing call's inputs were given (the arguments), element by element.
    fn input_values(&self) -> FxHashSet<ExprId> {
        let mut out = FxHashSet::default();
        if let Some(f) = self.fns.frames.last() {
            for l in f.locals.values().filter(|l| l.input) {
                if let LocalValue::Set(Val::Arr(a)) = &l.value {
                    out.extend(a.data.iter().copied());
                }
            }
        }
        out
    }

    /// The outputs' values, every element assigned.
    fn function_outputs(
        &mut self,
        def: &FnDef<'a>,
        outputs: &[&Param<'a>],
        span: Span,
    ) -> DResult<Vec<Val>> {
        // The outputs, all assigned.
        let mut out = Vec::with_capacity(outputs.len());
        let u = self.unset();
        let mut wrap = NoEvents::default();
        let inputs = self.input_values();
        for p in outputs {
            let v = match self.local_value(p.name, span) {
                Ok(v) => v,
                Err(_) => {
                    return Err(Box::new(
                        Diagnostic::error(
                            "unassigned",
                            format!("output `{}` of `{}` is never assigned", p.name, def.name),
                        )
                        .at(p.decl.name.span, "declared here")
                        .also(span, "called here"),
                    ))
                }
            };
            let v = match v {
                Val::Arr(a) => {
                    if let Some(k) = a.data.iter().position(|&x| x == u) {
                        let which = if a.dims.is_empty() {
                            String::new()
                        } else {
                            format!(" (element {})", k + 1)
                        };
                        return Err(Box::new(
                            Diagnostic::error(
                                "unassigned",
                                format!(
                                    "output `{}` of `{}` is not assigned{which}",
                                    p.name, def.name
                                ),
                            )
                            .at(p.decl.name.span, "declared here")
                            .also(span, "called here"),
                        ));
                    }
                    let events = self.fns.frames.last().is_some_and(|f| f.time_table);
                    let mut a = a;
                    if !events {
                        for x in a.data.iter_mut() {
                            *x = wrap.apply(&mut self.flat.arena, *x, &inputs);
                        }
                    }
                    Val::Arr(a)
                }
                Val::Record(r) => {
                    if let Some(field) = unset_field(&r, u) {
                        return Err(Box::new(
                            Diagnostic::error(
                                "unassigned",
                                format!(
                                    "field `{field}` of output `{}` of `{}` is not assigned",
                                    p.name, def.name
                                ),
                            )
                            .at(p.decl.name.span, "declared here")
                            .also(span, "called here"),
                        ));
                    }
                    Val::Record(r)
                }
                s => s,
            };
            out.push(v);
        }
        self.body_no_event.extend(wrap.body_wrappers);
        Ok(out)
    }

    /// The element type of a function variable.
    pub(super) fn local_type(&mut self, p: &Param<'a>) -> DResult<LocalTy> {
        let class = self.param_class(p)?;
        match self.tree.info(class).builtin {
            Some(Builtin::Real) => Ok(LocalTy::Num(ScalarType::Real)),
            Some(Builtin::Integer) => Ok(LocalTy::Num(ScalarType::Integer)),
            Some(Builtin::Boolean) => Ok(LocalTy::Num(ScalarType::Boolean)),
            Some(Builtin::String) => Ok(LocalTy::Str),
            None => match self.enumeration(class)? {
                Some(e) => Ok(LocalTy::Num(ScalarType::Enum(e))),
                None => match self.tree.info(class).restriction() {
                    Some(ast::Restriction::Record) => Ok(LocalTy::Record(class)),
                    _ if tables::is_external_object(self.tree, class) => Ok(LocalTy::Record(class)),
                    Some(
                        r @ (ast::Restriction::Model
                        | ast::Restriction::Block
                        | ast::Restriction::Connector
                        | ast::Restriction::ExpandableConnector
                        | ast::Restriction::Package),
                    ) => Err(Box::new(typed::FUNCTION_COMPONENT.broken(
                        p.clause.type_name.span,
                        format!("`{}` in a function is of the {} `{}`", p.name, r.keyword(), self.tree.info(class).full_name),
                        "not a type, record or function",
                    ))),
                    _ => Err(self.unsupported(
                        p.clause.type_name.span,
                        "function variables that are not Real, Integer, Boolean, String, an enumeration or a record",
                    )),
                },
            },
        }
    }

    /// A function variable's type class with its short-class chain resolved.
    fn param_class(&mut self, p: &Param<'a>) -> DResult<ClassId> {
        let class = match self.tree.lookup_name(p.lexical, &p.clause.type_name) {
            Some(Found::Class(c)) => c,
            _ => return Err(self.unknown_class(&p.clause.type_name, p.lexical)),
        };
        let mut m = Mod::default();
        let mut dims = Vec::new();
        let mut caus = None;
        self.resolve_short(class, &mut m, &mut dims, &mut caus, p.clause.span)
    }

    /// Dimensions a function variable's type adds (`type Vec3 = Real[3]`).
    pub(super) fn local_type_dims(&mut self, p: &Param<'a>) -> DResult<Vec<usize>> {
        let class = match self.tree.lookup_name(p.lexical, &p.clause.type_name) {
            Some(Found::Class(c)) => c,
            _ => return Err(self.unknown_class(&p.clause.type_name, p.lexical)),
        };
        let mut m = Mod::default();
        let mut dims = Vec::new();
        let mut caus = None;
        self.resolve_short(class, &mut m, &mut dims, &mut caus, p.clause.span)?;
        Ok(dims)
    }

    /// Collects a function's variables, algorithms and external clause through `extends` and
    /// short class definitions.
    pub(super) fn function_def(&mut self, class: ClassId, span: Span) -> DResult<FnDef<'a>> {
        let info = self.tree.info(class);
        let mut def = FnDef::new(info.full_name.clone(), false);
        if let Some(d) = info.def {
            if d.partial {
                return Err(Box::new(
                    Diagnostic::error(
                        "partial",
                        format!("`{}` is a partial function and cannot be called", def.name),
                    )
                    .at(span, "called here")
                    .also(d.name.span, "declared partial"),
                ));
            }
        }
        let mut overrides = Vec::new();
        let via = self.fns.via.take();
        self.collect_function(class, &mut def, &mut overrides, 0, via)?;
        def.apply_defaults(overrides)?;
        Ok(def)
    }

    fn collect_function(
        &mut self,
        class: ClassId,
        def: &mut FnDef<'a>,
        overrides: &mut Vec<Default<'a>>,
        depth: usize,
        via: Option<NodeId>,
    ) -> DResult<()> {
        self.check_rules(class);
        let info = self.tree.info(class);
        let span = info.span();
        if depth > 32 || self.ctx.extends_chain.contains(&class) {
            return Err(Box::new(
                Diagnostic::error(
                    "cycle",
                    format!("function `{}` inherits from itself", info.full_name),
                )
                .at(span, "here"),
            ));
        }
        // Inherited twice along different paths (a diamond): its elements are there already.
        if def.classes.contains(&class) {
            return Ok(());
        }
        let Some(cdef) = info.def else {
            return Err(Box::new(
                Diagnostic::error(
                    "not-a-function",
                    format!("`{}` is not a function", info.full_name),
                )
                .at(span, "here"),
            ));
        };
        if !matches!(
            cdef.restriction,
            ast::Restriction::Function | ast::Restriction::OperatorFunction
        ) {
            return Err(Box::new(
                Diagnostic::error(
                    "not-a-function",
                    format!("`{}` is not a function", info.full_name),
                )
                .at(cdef.name.span, "declared here"),
            ));
        }
        let parent = info.parent;
        def.classes.push(class);
        if let Some(ann) = &cdef.description.annotation {
            if let Some(n) = rtc_max_iterations(ann) {
                def.max_iterations = Some(n);
            }
        }
        match &cdef.body {
            ast::ClassBody::Short {
                base, modification, ..
            } => {
                let found = match parent {
                    Some(p) => self.tree.lookup_name(p, base),
                    None => self.tree.lookup_top_name(base),
                };
                let Some(Found::Class(b)) = found else {
                    return Err(self.unknown_class(base, parent.unwrap_or(class)));
                };
                if let Some(cm) = modification {
                    // Called through an instance (`world.gravityAcceleration(r)`), the
                    // modifications read its components (`gravityType = gravityType`).
                    let lexical = parent.unwrap_or(class);
                    let env = Env {
                        node: via.and_then(|n| self.instance_of(Some(n), lexical)),
                        class: lexical,
                    };
                    self.function_overrides(cm, env, overrides)?;
                }
                self.ctx.extends_chain.push(class);
                let r = self.collect_function(b, def, overrides, depth + 1, via);
                self.ctx.extends_chain.pop();
                r
            }
            ast::ClassBody::Long { .. } => {
                let Some(comp) = info.composition() else {
                    return Ok(());
                };
                if let Some(ann) = &comp.annotation {
                    if let Some(n) = rtc_max_iterations(ann) {
                        def.max_iterations = Some(n);
                    }
                }
                let env = Env { node: None, class };
                let mut public = Vec::new();
                for element in &comp.elements {
                    match element {
                        ast::Element::Extends(ext) if ext.base.to_dotted() == "ExternalObject" => {}
                        ast::Element::Extends(ext) => {
                            let Some(Found::Class(b)) = self.tree.lookup_name(class, &ext.base)
                            else {
                                return Err(self.unknown_class(&ext.base, class));
                            };
                            // An icon class (`extends Modelica.Icons.Function`) adds nothing.
                            if matches!(
                                self.tree.info(b).restriction(),
                                Some(
                                    ast::Restriction::Function | ast::Restriction::OperatorFunction
                                )
                            ) {
                                let mut sub = Vec::new();
                                if let Some(cm) = &ext.modification {
                                    self.function_overrides(cm, env, &mut sub)?;
                                }
                                self.ctx.extends_chain.push(class);
                                let r = self.collect_function(b, def, overrides, depth + 1, None);
                                self.ctx.extends_chain.pop();
                                r?;
                                overrides.extend(sub);
                            }
                        }
                        ast::Element::Component(clause, prefix) => {
                            for decl in &clause.components {
                                let binding =
                                    decl.modification.as_ref().and_then(|m| match &m.binding {
                                        Some(ast::Binding::Expr(e)) => Some((e, env)),
                                        _ => None,
                                    });
                                let caus = clause.prefix.causality;
                                public.push(Param {
                                    name: &decl.name.name,
                                    is_input: !prefix.protected
                                        && caus == Some(ast::Causality::Input),
                                    is_output: !prefix.protected
                                        && caus == Some(ast::Causality::Output),
                                    clause,
                                    decl,
                                    lexical: class,
                                    binding,
                                });
                            }
                        }
                        ast::Element::Class(..) | ast::Element::Import(_) => {}
                    }
                }
                def.params.extend(public);
                for a in &comp.algorithms {
                    def.algorithms.push((a, class));
                }
                if !comp.equations.is_empty() {
                    return Err(Box::new(
                        Diagnostic::error("function", "a function has no equations")
                            .at(comp.equations[0].span, "equation in a function")
                            .help("write the body as an algorithm section"),
                    ));
                }
                if let Some(x) = &comp.external {
                    def.external = Some((x, class));
                    def.algorithms.clear();
                }
                Ok(())
            }
            _ => Err(Box::new(
                Diagnostic::error(
                    "not-a-function",
                    format!("`{}` is not a function", info.full_name),
                )
                .at(cdef.name.span, "declared here"),
            )),
        }
    }

    /// `f2 = f(k = 2)` or `extends f(k = 2)`: new defaults of inputs.
    pub(super) fn function_overrides(
        &mut self,
        cm: &'a ast::ClassMod,
        env: Env,
        out: &mut Vec<Default<'a>>,
    ) -> DResult<()> {
        for a in &cm.args {
            match a {
                ast::Argument::Modify(m) => {
                    if m.name.parts.len() != 1 {
                        return Err(self.unsupported(
                            m.span,
                            "modifications of a function's variables' attributes",
                        ));
                    }
                    match m.modification.as_ref().and_then(|x| x.binding.as_ref()) {
                        Some(ast::Binding::Expr(e)) => out.push((&m.name.parts[0].name, e, env)),
                        _ => {
                            return Err(self.unsupported(
                                m.span,
                                "modifications of a function's variables' attributes",
                            ))
                        }
                    }
                }
                ast::Argument::RedeclareComponent(r) => {
                    return Err(self.unsupported(r.span, "redeclarations in function modifications"))
                }
                ast::Argument::RedeclareClass(r) => {
                    return Err(self.unsupported(r.span, "redeclarations in function modifications"))
                }
                ast::Argument::Redeclare { span, what } => {
                    return Err(self.unsupported(*span, what))
                }
            }
        }
        Ok(())
    }
}

/// The first field (dotted path) of a record that holds an unassigned element.
fn unset_field(r: &RecordVal, u: ExprId) -> Option<String> {
    for (name, v) in &r.fields {
        match v {
            Val::Arr(a) if a.data.contains(&u) => return Some(name.to_string()),
            Val::Record(inner) => {
                if let Some(f) = unset_field(inner, u) {
                    return Some(format!("{name}.{f}"));
                }
            }
            _ => {}
        }
    }
    None
}

/// `annotation(__rtc(maxIterations = N))`.
fn rtc_max_iterations(ann: &ast::ClassMod) -> Option<usize> {
    for a in &ann.args {
        let ast::Argument::Modify(m) = a else {
            continue;
        };
        if m.name.to_dotted() != "__rtc" {
            continue;
        }
        let cm = m.modification.as_ref()?.class_mod.as_ref()?;
        for b in &cm.args {
            let ast::Argument::Modify(x) = b else {
                continue;
            };
            if x.name.to_dotted() == "maxIterations" {
                if let Some(ast::Binding::Expr(e)) = x.modification.as_ref()?.binding.as_ref() {
                    if let ast::ExprKind::Integer(n) = e.kind {
                        return usize::try_from(n).ok();
                    }
                }
            }
        }
    }
    None
}

/// Whether an expression contains a relation (which would generate an event).
/// Dimensions with `:` for open ones.
fn dims_text_open(d: &[usize]) -> String {
    if d.is_empty() {
        return "scalar".into();
    }
    let parts: Vec<String> = d
        .iter()
        .map(|&x| {
            if x == usize::MAX {
                ":".into()
            } else {
                x.to_string()
            }
        })
        .collect();
    format!("[{}]", parts.join(", "))
}
