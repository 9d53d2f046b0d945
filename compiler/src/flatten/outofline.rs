//! Functions compiled out of line (specification 12.4–12.7).
//!
//! A call from a model's equations or algorithm is usually inlined (`functions.rs`). A
//! function whose body has loops, or whose body is large, is instead compiled once per
//! argument shape: its body is executed on placeholder arguments ([`Node::Arg`]), and the
//! outputs, expressions of those placeholders, become a [`Function`] of the flat model's
//! arena. Each call is then a [`Node::Call`] per output element. The work of the body is
//! still fixed (its loops were unrolled within their bounds) and is counted into every call.
//!
//! The annotations of specification 12.7 decide and add:
//! - `Inline = true` inlines the call; `Inline = false` compiles it out of line whatever its
//!   size; without either, a body with `for`/`while` loops or more than [`INLINE_NODES`]
//!   operations is compiled out of line, a small straight-line one inlined.
//! - `LateInline = true`: compiled out of line (so index reduction and alias elimination see
//!   one call) and inlined when the step system is built.
//! - `derivative(noDerivative = …, zeroDerivative = …) = f_der`: `f_der` is compiled the same
//!   way and is the function's derivative ([`crate::symbolic::function`]); without it, the
//!   body is differentiated symbolically in forward mode.
//! - `smoothOrder = n` is kept with the function.
//!
//! Integer, Boolean and enumeration arguments known at compile time, Strings and array sizes
//! are part of the shape (the body is specialised to them: they may size arrays or bound
//! loops); Real arguments and values that change are placeholders. A call whose arguments
//! are all known at compile time is inlined (it folds to constants). A body that cannot be
//! executed on placeholders (a `while` loop whose bound is a Real argument, a reference to
//! a model variable) falls back to inlining, which reports what is wrong if anything is.

use super::functions::{Args, FnDef};
use super::values::RecordVal;
use super::*;
use crate::symbolic::function::{DerArg, UserDerivative};
use crate::symbolic::{FnId, FnVar, Function};
use std::sync::Arc;

/// Without an `Inline` annotation, a straight-line body of at most this many operations is
/// inlined.
pub(super) const INLINE_NODES: usize = 64;

/// A function compiled for one argument shape.
pub(super) struct Compiled {
    f: Arc<Function>,
    id: FnId,
    /// The outputs as the placeholder execution left them: each non-constant scalar is an
    /// output of the compiled function, in walk order.
    template: Vec<Val>,
    /// The body's assertions: (output holding the condition, message, span, warning level).
    asserts: Vec<(u32, String, Span, bool)>,
}

/// The annotations of a function that decide how it is compiled.
#[derive(Default)]
pub(super) struct Policy<'a> {
    inline: Option<bool>,
    late_inline: bool,
    smooth_order: Option<u32>,
    pub derivative: Option<DerivativeAnnotation<'a>>,
    /// `derivative(order = 2) = f_der2`: on a first derivative function, the second
    /// derivative of the function it differentiates.
    pub derivative2: Option<DerivativeAnnotation<'a>>,
}

/// `derivative(noDerivative = x, zeroDerivative = y) = f_der`.
pub(super) struct DerivativeAnnotation<'a> {
    pub name: &'a ast::ComponentRef,
    pub marks: Vec<(&'a str, DerArg)>,
    /// Where the name is looked up: the scope of the annotated class.
    pub scope: ClassId,
}

impl<'t, 'a> Flattener<'t, 'a> {
    /// Calls `def` out of line if its annotations and body say so: the outputs as calls of
    /// the compiled function. `None`: inline it.
    pub(super) fn out_of_line(
        &mut self,
        class: ClassId,
        def: &FnDef<'a>,
        args: &Args<'a>,
        span: Span,
    ) -> DResult<Option<Vec<Val>>> {
        if self.fns.inline_all
            || def.record
            || def.external.is_some()
            || !self.fns.frames.iter().all(|f| f.is_model)
        {
            return Ok(None);
        }
        let policy = self.policy(def);
        if policy.inline == Some(true) {
            return Ok(None);
        }
        let Some(inputs) = resolve_inputs(def, args) else {
            return Ok(None);
        };
        // A String made while the model runs is passed on only by inlining.
        if inputs.iter().flatten().any(|v| matches!(v, Val::Text(_))) {
            return Ok(None);
        }
        // A call on values known at compile time folds when inlined.
        let mut all_known = true;
        for v in inputs.iter().flatten() {
            all_known &= self.is_known(v);
        }
        if all_known {
            return Ok(None);
        }
        let mut key = String::new();
        let mut actual = Vec::new();
        let mut placeholders = Vec::new();
        for (p, v) in def.params.iter().filter(|p| p.is_input).zip(&inputs) {
            key.push_str(p.name);
            key.push('=');
            placeholders.push(
                v.as_ref()
                    .map(|v| self.placeholder(v, &mut actual, &mut key)),
            );
            key.push(';');
        }
        let compiled = match self.fns.compiled.get(&(class, key.clone())) {
            Some(c) => c.clone(),
            None => {
                let arity = actual.len();
                let c = self.compile_function(def, &placeholders, arity, &policy, span, 0)?;
                self.fns.compiled.insert((class, key), c.clone());
                c
            }
        };
        let Some(c) = compiled else {
            return Ok(None);
        };
        // The call: each output element a call of the compiled function.
        let mut k = 0u32;
        let outs: Vec<Val> = c
            .template
            .iter()
            .map(|v| self.instantiate_output(v, c.id, &actual, &mut k))
            .collect();
        for (out, message, aspan, warning) in &c.asserts {
            let cond = self.flat.arena.call(c.id, *out, &actual);
            self.flat.assertions.push(Assertion {
                condition: cond,
                message: message.clone(),
                span: *aspan,
                warning: *warning,
            });
        }
        Ok(Some(outs))
    }

    /// Compiles `def` on placeholder inputs (`None`: the input keeps its default). `None`
    /// when the function is to be inlined after all.
    fn compile_function(
        &mut self,
        def: &FnDef<'a>,
        inputs: &[Option<Val>],
        arity: usize,
        policy: &Policy<'a>,
        span: Span,
        depth: u32,
    ) -> DResult<Option<Rc<Compiled>>> {
        let Some((outs, asserts)) = self.execute_on_placeholders(def, inputs, span) else {
            return Ok(None);
        };
        // A String output made while the function runs: inlined, where it is passed on.
        if outs.iter().any(|v| matches!(v, Val::Text(_))) {
            return Ok(None);
        }
        // The non-constant output scalars, then the assertions' conditions.
        let mut roots = Vec::new();
        for v in &outs {
            output_roots(&self.flat.arena, v, &mut roots);
        }
        let n_values = roots.len();
        roots.extend(asserts.iter().map(|a| a.condition));
        let mut body = crate::symbolic::Arena::<FnVar>::new();
        let mut memo = FxHashMap::default();
        let mut body_outs = Vec::with_capacity(roots.len());
        for &r in &roots {
            let mut has_time = false;
            let copied = body.import(&self.flat.arena, r, &mut memo, &mut |_, n| {
                has_time |= matches!(n, Node::Time);
                None
            });
            match copied {
                // A model variable or `time` in the body: not a function of its arguments.
                Ok(e) if !has_time => body_outs.push(e),
                _ => return Ok(None),
            }
        }
        // A body calling an external function's shim is inlined (bodies call no other
        // compiled function).
        if (0..body.len()).any(|k| matches!(body.node(ExprId::new(k)), Node::Call(_))) {
            return Ok(None);
        }
        let mut f = Function::new(def.name.clone(), arity, body, body_outs);
        let straight = !def.algorithms.iter().any(|(a, _)| has_loops(&a.statements));
        if policy.inline.is_none() && !policy.late_inline && straight && f.size() <= INLINE_NODES {
            return Ok(None);
        }
        f.late_inline = policy.late_inline;
        f.smooth_order = policy.smooth_order;
        if let Some(d) = &policy.derivative {
            f.derivative = self.user_derivative(def, inputs, d, n_values, span, depth)?;
        }
        let f = Arc::new(f);
        let id = self.flat.arena.add_function(&f);
        let asserts = asserts
            .into_iter()
            .enumerate()
            .map(|(k, a)| ((n_values + k) as u32, a.message, a.span, a.warning))
            .collect();
        Ok(Some(Rc::new(Compiled {
            f,
            id,
            template: outs,
            asserts,
        })))
    }

    /// Runs the body on placeholder inputs: its outputs and the assertions it made. `None`
    /// if it fails or touches the model otherwise (then it is inlined).
    fn execute_on_placeholders(
        &mut self,
        def: &FnDef<'a>,
        inputs: &[Option<Val>],
        span: Span,
    ) -> Option<(Vec<Val>, Vec<Assertion>)> {
        let named: Vec<(&'a ast::Ident, Val, Span)> = def
            .params
            .iter()
            .filter(|p| p.is_input)
            .zip(inputs)
            .filter_map(|(p, v)| v.clone().map(|v| (&p.decl.name, v, span)))
            .collect();
        let args = Args {
            positional: Vec::new(),
            named,
        };
        let counts = (
            self.flat.assertions.len(),
            self.flat.vars.len(),
            self.flat.equations.len(),
            self.flat.whens.len(),
            self.flat.initial_equations.len(),
        );
        let diags = self.diags.len();
        // A body that makes calls for their effect is inlined (their tokens, left to the
        // caller, would be of placeholders): the inlined call makes them again.
        let effects = self.fns.effects.clone();
        let r = self.execute_function(def, args, span);
        let effected = self.fns.effects.len() != effects.len();
        self.fns.effects = effects;
        let asserts: Vec<Assertion> = self.flat.assertions.drain(counts.0..).collect();
        let touched = (
            self.flat.vars.len(),
            self.flat.equations.len(),
            self.flat.whens.len(),
            self.flat.initial_equations.len(),
        ) != (counts.1, counts.2, counts.3, counts.4);
        self.diags.truncate(diags);
        match r {
            Ok(outs) if !touched && !effected => Some((outs, asserts)),
            _ => None,
        }
    }

    /// The function a `derivative` annotation names, compiled on `f`'s placeholders followed
    /// by placeholders for the derivatives of the inputs that get one. `None` (with a
    /// warning where the annotation does not fit) leaves the body to be differentiated.
    fn user_derivative(
        &mut self,
        def: &FnDef<'a>,
        inputs: &[Option<Val>],
        ann: &DerivativeAnnotation<'a>,
        n_values: usize,
        span: Span,
        depth: u32,
    ) -> DResult<Option<UserDerivative>> {
        let (name, marks) = (ann.name, &ann.marks);
        if depth > 2 {
            return Ok(None);
        }
        let Some(ddef) = self.annotated_function(ann)? else {
            return Ok(None);
        };
        let d_inputs: Vec<&'a str> = ddef
            .params
            .iter()
            .filter(|p| p.is_input)
            .map(|p| p.name)
            .collect();
        // Its inputs: f's inputs (same names), then one derivative per Real input of f that
        // is not marked `noDerivative`/`zeroDerivative`, in order.
        let mut args: Vec<Option<Val>> = inputs.to_vec();
        let mut der_marks = Vec::new();
        let mut der_args = Vec::new();
        let mut next = arity_of(&self.flat.arena, inputs) as u32;
        let mut fits = true;
        for (k, p) in def.params.iter().filter(|p| p.is_input).enumerate() {
            fits &= d_inputs.get(k) == Some(&p.name);
            let real = matches!(
                self.local_type(p)?,
                functions::LocalTy::Num(ScalarType::Real)
            );
            let mark = match marks.iter().find(|(m, _)| *m == p.name) {
                Some(m) => m.1,
                None if real => DerArg::Der,
                None => DerArg::No,
            };
            let Some(v) = &inputs[k] else {
                // An input left at its default is constant; its derivative input would have to
                // be a zero of the default's shape: differentiate the body instead.
                if mark == DerArg::Der {
                    return Ok(None);
                }
                continue;
            };
            let n = arity_of(&self.flat.arena, std::slice::from_ref(&inputs[k]));
            der_marks.extend(std::iter::repeat_n(mark, n));
            if mark == DerArg::Der {
                der_args.push(Some(self.der_placeholder(v, &mut next)));
            }
        }
        fits &= d_inputs.len() == def.params.iter().filter(|p| p.is_input).count() + der_args.len();
        if !fits {
            self.diags.push(
                Diagnostic::warning(
                    "derivative",
                    format!(
                        "the derivative annotation of `{}` names `{}`, whose inputs are not `{}`'s followed by one derivative per Real input; rtc differentiates the body instead",
                        def.name, ddef.name, def.name
                    ),
                )
                .at(name.span, "named here"),
            );
            return Ok(None);
        }
        args.extend(der_args);
        let dpolicy = Policy {
            inline: Some(false),
            late_inline: false,
            ..self.policy(&ddef)
        };
        let arity = next as usize;
        let Some(c) = self.compile_function(&ddef, &args, arity, &dpolicy, span, depth + 1)? else {
            return Ok(None);
        };
        if c.f.outs.len() < n_values {
            return Ok(None);
        }
        Ok(Some(UserDerivative {
            f: c.f.clone(),
            args: der_marks,
        }))
    }

    /// The function a `derivative` annotation names.
    pub(super) fn annotated_function(
        &mut self,
        ann: &DerivativeAnnotation<'a>,
    ) -> DResult<Option<FnDef<'a>>> {
        let Some(n) = builtins::ref_as_name(ann.name) else {
            return Ok(None);
        };
        let found = if n.global {
            self.tree.lookup_top_name(&n)
        } else {
            self.tree.lookup_name(ann.scope, &n)
        };
        let Some(Found::Class(dclass)) = found else {
            return Err(self.unknown_class(&n, ann.scope));
        };
        self.function_def(dclass, ann.name.span).map(Some)
    }

    /// Whether every scalar of a value is known at compile time.
    fn is_known(&mut self, v: &Val) -> bool {
        match v {
            Val::Str(_) | Val::Strs(_) => true,
            Val::Text(_) => false,
            Val::Arr(a) => a.data.clone().into_iter().all(|e| self.fold(e).is_some()),
            Val::Record(r) => r.fields.clone().iter().all(|(_, f)| self.is_known(f)),
        }
    }

    /// `v` with each Real scalar (and each other scalar not known at compile time) replaced
    /// by the next argument placeholder; the replaced expressions go to `actual`, the shape
    /// and the known values to `key`.
    fn placeholder(&mut self, v: &Val, actual: &mut Vec<ExprId>, key: &mut String) -> Val {
        use std::fmt::Write;
        match v {
            Val::Str(s) => {
                let _ = write!(key, "{s:?}");
                Val::Str(s.clone())
            }
            Val::Strs(s) => {
                let _ = write!(key, "{:?}", s.items);
                Val::Strs(s.clone())
            }
            // Not an input of a function compiled out of line (see `out_of_line_call`).
            Val::Text(t) => Val::Text(t.clone()),
            Val::Arr(a) => {
                let _ = write!(key, "{:?}{:?}(", a.ty, a.dims);
                let mut data = Vec::with_capacity(a.data.len());
                for &e in &a.data {
                    let known = if a.ty == ScalarType::Real {
                        None
                    } else {
                        self.fold(e)
                    };
                    match known {
                        Some(c) => {
                            let _ = write!(key, "{c},");
                            data.push(self.flat.arena.constant(c));
                        }
                        None => {
                            key.push_str("?,");
                            data.push(self.flat.arena.arg(actual.len() as u32));
                            actual.push(e);
                        }
                    }
                }
                key.push(')');
                Val::Arr(Arr {
                    dims: a.dims.clone(),
                    data,
                    ty: a.ty,
                })
            }
            Val::Record(r) => {
                let _ = write!(key, "{}{{", r.name);
                let fields = r
                    .fields
                    .iter()
                    .map(|(n, f)| {
                        key.push_str(n);
                        key.push(':');
                        let p = self.placeholder(f, actual, key);
                        (n.clone(), p)
                    })
                    .collect();
                key.push('}');
                Val::Record(Rc::new(RecordVal {
                    class: r.class,
                    name: r.name.clone(),
                    dims: r.dims.clone(),
                    fields,
                }))
            }
        }
    }

    /// The derivative of an input for a derivative function: the same shape, each
    /// placeholder of `v` replaced by the next placeholder from `next`.
    fn der_placeholder(&mut self, v: &Val, next: &mut u32) -> Val {
        match v {
            Val::Str(s) => Val::Str(s.clone()),
            Val::Strs(s) => Val::Strs(s.clone()),
            Val::Text(t) => Val::Text(t.clone()),
            Val::Arr(a) => {
                let data = a
                    .data
                    .iter()
                    .map(|&e| match self.flat.arena.node(e) {
                        Node::Arg(_) => {
                            *next += 1;
                            self.flat.arena.arg(*next - 1)
                        }
                        _ => self.flat.arena.constant(0.0),
                    })
                    .collect();
                Val::Arr(Arr {
                    dims: a.dims.clone(),
                    data,
                    ty: ScalarType::Real,
                })
            }
            Val::Record(r) => {
                let fields = r
                    .fields
                    .iter()
                    .map(|(n, f)| (n.clone(), self.der_placeholder(f, next)))
                    .collect();
                Val::Record(Rc::new(RecordVal {
                    class: r.class,
                    name: r.name.clone(),
                    dims: r.dims.clone(),
                    fields,
                }))
            }
        }
    }

    /// One output value of a call: the template's constants kept, its other scalars the
    /// calls of the compiled function's outputs (`k` counts them in walk order).
    fn instantiate_output(&mut self, v: &Val, f: FnId, args: &[ExprId], k: &mut u32) -> Val {
        match v {
            Val::Str(s) => Val::Str(s.clone()),
            Val::Strs(s) => Val::Strs(s.clone()),
            Val::Text(t) => Val::Text(t.clone()),
            Val::Arr(a) => {
                let data = a
                    .data
                    .iter()
                    .map(|&e| {
                        if self.flat.arena.as_const(e).is_some() {
                            e
                        } else {
                            *k += 1;
                            self.flat.arena.call(f, *k - 1, args)
                        }
                    })
                    .collect();
                Val::Arr(Arr {
                    dims: a.dims.clone(),
                    data,
                    ty: a.ty,
                })
            }
            Val::Record(r) => {
                let fields = r
                    .fields
                    .iter()
                    .map(|(n, x)| (n.clone(), self.instantiate_output(x, f, args, k)))
                    .collect();
                Val::Record(Rc::new(RecordVal {
                    class: r.class,
                    name: r.name.clone(),
                    dims: r.dims.clone(),
                    fields,
                }))
            }
        }
    }

    /// The annotations of 12.7 on the function or the classes it extends (the function's
    /// own first).
    pub(super) fn policy(&mut self, def: &FnDef<'a>) -> Policy<'a> {
        let mut p = Policy::default();
        for &c in &def.classes {
            let Some(cdef) = self.tree.info(c).def else {
                continue;
            };
            let comp = match &cdef.body {
                ast::ClassBody::Long { composition, .. } => composition.annotation.as_ref(),
                _ => None,
            };
            let scope = self.tree.info(c).parent.unwrap_or(c);
            for ann in [cdef.description.annotation.as_ref(), comp]
                .into_iter()
                .flatten()
            {
                for a in &ann.args {
                    let ast::Argument::Modify(m) = a else {
                        continue;
                    };
                    let binding = m.modification.as_ref().and_then(|x| x.binding.as_ref());
                    let value = match binding {
                        Some(ast::Binding::Expr(e)) => Some(e),
                        _ => None,
                    };
                    match m.name.to_dotted().as_str() {
                        "Inline" if p.inline.is_none() => {
                            if let Some(ast::ExprKind::Bool(b)) = value.map(|e| &e.kind) {
                                p.inline = Some(*b);
                            }
                        }
                        "LateInline" => {
                            if let Some(ast::ExprKind::Bool(b)) = value.map(|e| &e.kind) {
                                p.late_inline |= *b;
                            }
                        }
                        "smoothOrder" if p.smooth_order.is_none() => {
                            if let Some(ast::ExprKind::Integer(n)) = value.map(|e| &e.kind) {
                                p.smooth_order = u32::try_from(*n).ok();
                            }
                        }
                        "derivative" if p.derivative.is_none() || p.derivative2.is_none() => {
                            let Some(ast::ExprKind::Ref(r)) = value.map(|e| &e.kind) else {
                                continue;
                            };
                            let mut marks = Vec::new();
                            let cm = m.modification.as_ref().and_then(|x| x.class_mod.as_ref());
                            let mut order_one = true;
                            for b in cm.map(|c| c.args.as_slice()).unwrap_or_default() {
                                let ast::Argument::Modify(x) = b else {
                                    continue;
                                };
                                let what = x.name.to_dotted();
                                let v = x.modification.as_ref().and_then(|y| y.binding.as_ref());
                                let Some(ast::Binding::Expr(e)) = v else {
                                    continue;
                                };
                                match (what.as_str(), &e.kind) {
                                    ("noDerivative", ast::ExprKind::Ref(n)) => {
                                        marks.push((&*n.parts[0].ident.name, DerArg::No))
                                    }
                                    ("zeroDerivative", ast::ExprKind::Ref(n)) => {
                                        marks.push((&*n.parts[0].ident.name, DerArg::Zero))
                                    }
                                    ("order", ast::ExprKind::Integer(k)) => order_one = *k == 1,
                                    _ => {}
                                }
                            }
                            // Out-of-line bodies reach their second derivative by
                            // differentiating the first one's; an external function's first
                            // derivative function uses its `order = 2` annotation
                            // (external_derivative.rs).
                            let slot = if order_one {
                                &mut p.derivative
                            } else {
                                &mut p.derivative2
                            };
                            if slot.is_none() {
                                *slot = Some(DerivativeAnnotation {
                                    name: r,
                                    marks,
                                    scope,
                                });
                            }
                        }
                        _ => {}
                    }
                }
            }
        }
        p
    }
}

/// The value given to each input of `def` (`None`: its default), positional arguments in
/// input order, then named ones; `None` if the arguments do not fit (inlining reports it).
fn resolve_inputs(def: &FnDef, args: &Args) -> Option<Vec<Option<Val>>> {
    let inputs: Vec<&str> = def
        .params
        .iter()
        .filter(|p| p.is_input)
        .map(|p| p.name)
        .collect();
    if args.positional.len() > inputs.len() {
        return None;
    }
    let mut out: Vec<Option<Val>> = vec![None; inputs.len()];
    for (k, (v, _)) in args.positional.iter().enumerate() {
        out[k] = Some(v.clone());
    }
    for (n, v, _) in &args.named {
        let k = inputs.iter().position(|i| *i == &*n.name)?;
        if out[k].is_some() {
            return None;
        }
        out[k] = Some(v.clone());
    }
    Some(out)
}

/// The number of placeholders in values made by [`Flattener::placeholder`].
fn arity_of(ar: &crate::symbolic::Arena<FlatVar>, inputs: &[Option<Val>]) -> usize {
    fn count(ar: &crate::symbolic::Arena<FlatVar>, v: &Val) -> usize {
        match v {
            Val::Str(_) | Val::Strs(_) | Val::Text(_) => 0,
            Val::Arr(a) => a
                .data
                .iter()
                .filter(|&&e| matches!(ar.node(e), Node::Arg(_)))
                .count(),
            Val::Record(r) => r.fields.iter().map(|(_, f)| count(ar, f)).sum(),
        }
    }
    inputs.iter().flatten().map(|v| count(ar, v)).sum()
}

/// The non-constant scalars of an output value, in walk order.
fn output_roots(ar: &crate::symbolic::Arena<FlatVar>, v: &Val, out: &mut Vec<ExprId>) {
    match v {
        Val::Str(_) | Val::Strs(_) | Val::Text(_) => {}
        Val::Arr(a) => out.extend(a.data.iter().copied().filter(|&e| ar.as_const(e).is_none())),
        Val::Record(r) => {
            for (_, f) in &r.fields {
                output_roots(ar, f, out);
            }
        }
    }
}

/// Whether statements contain a `for` or `while` loop.
fn has_loops(stmts: &[ast::Statement]) -> bool {
    stmts.iter().any(|s| match &s.kind {
        ast::StatementKind::For { .. } | ast::StatementKind::While(..) => true,
        ast::StatementKind::If {
            branches,
            otherwise,
        } => branches.iter().any(|(_, b)| has_loops(b)) || has_loops(otherwise),
        ast::StatementKind::When { branches } => branches.iter().any(|(_, b)| has_loops(b)),
        _ => false,
    })
}
