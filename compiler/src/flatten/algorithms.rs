//! Statements (specification ch. 11): executed on symbolic values in a [`Frame`], for function
//! bodies (`functions.rs`) and algorithm sections of models.
//!
//! Control flow that depends on variables becomes data: every statement runs under a guard
//! (the Boolean expression under which it executes: the conditions of the enclosing `if`s,
//! not yet `return`ed, the loop not left by `break`), and an assignment under a guard that is
//! not known to be true assigns `if guard then new else old`. `for` loops are unrolled over
//! their ranges, which must be known at compile time. A `while` loop iterates at compile time
//! while its condition is known; a condition that depends on variables needs the function's
//! `annotation(__rtc(maxIterations = N))`, is unrolled N times, and an assertion reports a run
//! that would need more.
//!
//! An algorithm section of a model is executed the same way with the variables it assigns as
//! locals (starting from `pre(v)` for discrete and the start value for continuous ones,
//! specification 11.1.2); each assigned variable then gets the equation `v = final value`.
//! The final values refer only to what the section reads, so the section needs no iteration
//! of its own: sorting the equations orders it exactly as one block would be ordered.

use super::functions::{Frame, Local, LocalTy, LocalValue, MAX_WHILE};

/// The largest `__rtc(maxIterations = N)` of a while-loop unrolled into the step.
const MAX_UNROLLED: usize = 10_000;
use super::*;

/// One subscript of a local being read or assigned.
pub(super) enum Choice {
    /// Indices (0-based) and whether the dimension stays.
    Static(Vec<usize>, bool),
    /// A scalar index known only at run time.
    Dynamic(ExprId),
}

/// One element selected by subscripts: where it goes in the result, where it is in the
/// array, and the run-time indices it needs (index expression, 1-based value).
pub(super) struct Pos {
    pub(super) out: usize,
    pub(super) src: usize,
    pub(super) conds: Vec<(ExprId, usize)>,
}

impl<'t, 'a> Flattener<'t, 'a> {
    /// The guard of the next statement: `guard`, not returned, not broken out of.
    fn effective(&mut self, guard: ExprId) -> ExprId {
        let f = self.fns.frames.last().expect("frame");
        let (r, b) = (f.returned, f.broken);
        let ar = &mut self.flat.arena;
        let nr = ar.not(r);
        let nb = ar.not(b);
        let g = ar.and(guard, nr);
        ar.and(g, nb)
    }

    pub(super) fn exec_block(
        &mut self,
        stmts: &'a [ast::Statement],
        guard: ExprId,
        env: Env,
    ) -> DResult<()> {
        for st in stmts {
            let g = self.effective(guard);
            if self.flat.arena.as_const(g) == Some(0.0) {
                return Ok(());
            }
            if let Some(f) = self.fns.frames.last_mut() {
                f.statement_guard = g;
            }
            self.statement(st, g, env)?;
        }
        Ok(())
    }

    fn statement(&mut self, st: &'a ast::Statement, g: ExprId, env: Env) -> DResult<()> {
        use ast::StatementKind as S;
        match &st.kind {
            S::Assign(target, e) => {
                let name = &target.parts[0].ident.name;
                if target.parts.len() == 1 && self.ctx.loop_vars.iter().any(|(v, _, _)| v == name) {
                    return Err(Box::new(typed::LOOP_VARIABLE_ASSIGNED.broken(
                        target.span,
                        format!("`{name}`, the variable of a for-loop, is assigned"),
                        "assigned here",
                    )));
                }
                let v = self.eval(e, env)?;
                self.assign(target, v, g, env, e.span)
            }
            S::MultiAssign(targets, f, args) => {
                let outs = self.call_for_targets(f, args, targets.len(), env, st.span)?;
                for (t, v) in targets.iter().zip(outs) {
                    let Some(t) = t else { continue };
                    let ast::ExprKind::Ref(r) = &t.kind else {
                        return Err(Box::new(
                            Diagnostic::error("assignment", "only a variable can be assigned")
                                .at(t.span, "not a variable"),
                        ));
                    };
                    self.assign(r, v, g, env, st.span)?;
                }
                Ok(())
            }
            S::Call(f, args) => {
                let name = f.to_source_string();
                match name.as_str() {
                    "assert" => self.assert_statement(args, g, env, st.span),
                    "terminate" | "reinit" => self.when_action(&name, args, g, env, st.span),
                    _ => {
                        let outs = self.call_by_ref(f, args, env, st.span)?;
                        if self.ctx.when_equation_calls && !outs.is_empty() {
                            return Err(Box::new(typed::WHEN_EQUATION_FORM.broken(
                                st.span,
                                format!(
                                    "the call `{name}(…)`, of a function with outputs, as an equation of a when-equation"
                                ),
                                "its results would be dropped",
                            )));
                        }
                        Ok(())
                    }
                }
            }
            S::Break => {
                let f = self.fns.frames.last().expect("frame").broken;
                let b = self.flat.arena.or(f, g);
                self.fns.frames.last_mut().expect("frame").broken = b;
                Ok(())
            }
            S::Return => {
                let f = self.fns.frames.last().expect("frame").returned;
                let r = self.flat.arena.or(f, g);
                self.fns.frames.last_mut().expect("frame").returned = r;
                Ok(())
            }
            S::If {
                branches,
                otherwise,
            } => {
                let mut prior = self.flat.arena.boolean(false);
                for (c, body) in branches {
                    let c = self.eval_condition(c, env, "the condition of an if-statement")?;
                    // A condition on parameters known at compile time selects at compile time
                    // (a branch it rules out may not even have consistent sizes).
                    let c = match self.fold_if_structural(c) {
                        Some(v) => self.flat.arena.boolean(v != 0.0),
                        None => c,
                    };
                    let ar = &mut self.flat.arena;
                    let np = ar.not(prior);
                    let here = ar.and(np, c);
                    let bg = ar.and(g, here);
                    prior = ar.or(prior, c);
                    if ar.as_const(bg) != Some(0.0) {
                        self.exec_block(body, bg, env)?;
                    }
                    if self.flat.arena.as_const(prior).is_some_and(|p| p != 0.0) {
                        return Ok(());
                    }
                }
                let ar = &mut self.flat.arena;
                let np = ar.not(prior);
                let bg = ar.and(g, np);
                self.exec_block(otherwise, bg, env)
            }
            S::For { indices, body } => {
                let saved = self.fns.frames.last().expect("frame").broken;
                let no = self.flat.arena.boolean(false);
                self.fns.frames.last_mut().expect("frame").broken = no;
                let r = self.iterate(indices, env, &mut |s| s.exec_block(body, g, env));
                self.fns.frames.last_mut().expect("frame").broken = saved;
                r.map(|_| ())
            }
            S::While(cond, body) => self.while_statement(st, cond, body, g, env),
            S::When { branches } => self.when_statement(st, branches, g, env),
        }
    }

    fn while_statement(
        &mut self,
        st: &'a ast::Statement,
        cond: &'a ast::Expr,
        body: &'a [ast::Statement],
        g: ExprId,
        env: Env,
    ) -> DResult<()> {
        let saved = self.fns.frames.last().expect("frame").broken;
        let no = self.flat.arena.boolean(false);
        self.fns.frames.last_mut().expect("frame").broken = no;
        // Without an annotation, a counter compared with a bound known at compile time
        // (`while i < n and …`, n known) bounds the loop: at most n iterations when the counter
        // starts at 0 or above and grows by one or more each time (a run that needs more is
        // reported by the assertion below).
        let bound = match self.fns.frames.last().expect("frame").max_iterations {
            Some(n) => Some(n),
            None => self.counter_bound(cond, env).filter(|&n| n <= MAX_UNROLLED),
        };
        // `active`: every condition so far was true (the loop is still running).
        let mut active = g;
        let mut k = 0usize;
        let result = loop {
            let c = match self.eval_condition(cond, env, "the condition of a while-loop") {
                Ok(c) => match self.fold_if_structural(c) {
                    Some(v) => self.flat.arena.boolean(v != 0.0),
                    None => c,
                },
                Err(d) => break Err(d),
            };
            let base = self.effective(active);
            let run = self.flat.arena.and(base, c);
            let known = self.flat.arena.as_const(run);
            if known == Some(0.0) {
                break Ok(());
            }
            let limit = match (known, bound) {
                (None, Some(n)) if n > MAX_UNROLLED => {
                    break Err(Box::new(
                        Diagnostic::error(
                            "too-large",
                            format!("maxIterations = {n} is above rtc's limit of {MAX_UNROLLED} for a loop unrolled into the step"),
                        )
                        .at(cond.span, "this loop")
                        .help("every iteration of a while-loop over values that change is code in the step; bound it tighter"),
                    ));
                }
                (None, Some(n)) => n,
                (None, None) => {
                    let what = self.fns.frames.last().expect("frame").what.clone();
                    break Err(Box::new(
                        Diagnostic::error(
                            "unbounded",
                            format!("a while-loop in {what} whose condition depends on variables"),
                        )
                        .at(cond.span, "changes during simulation")
                        .help("a step must have bounded work: give the function annotation(__rtc(maxIterations = N)), or compare an Integer counter with a bound known at compile time (`while i < n and …`); rtc unrolls that many iterations and reports a run that needs more"),
                    ));
                }
                (Some(_), _) => MAX_WHILE,
            };
            if k >= limit {
                if known.is_some() {
                    break Err(Box::new(
                        Diagnostic::error(
                            "unbounded",
                            format!("a while-loop ran {limit} iterations at compile time without ending"),
                        )
                        .at(st.span, "here"),
                    ));
                }
                // The bound is hit when the loop would still run: report it at run time.
                let what = self.fns.frames.last().expect("frame").what.clone();
                let ok = self.flat.arena.not(run);
                self.flat.assertions.push(Assertion {
                    condition: ok,
                    message: format!("a while-loop in {what} needs more than its bound of {limit} iterations (annotation __rtc(maxIterations), or the loop counter's limit)"),
                    span: st.span,
                    warning: false,
                });
                break Ok(());
            }
            k += 1;
            self.ctx.iterations += 1;
            if self.ctx.iterations > MAX_ITERATIONS {
                break Err(Box::new(
                    Diagnostic::error(
                        "too-large",
                        format!("the model's loops run more than {MAX_ITERATIONS} iterations, rtc's limit"),
                    )
                    .at(st.span, "this loop reached it"),
                ));
            }
            active = self.flat.arena.and(active, c);
            if let Err(d) = self.exec_block(body, active, env) {
                break Err(d);
            }
            let b = self.fns.frames.last().expect("frame").broken;
            let nb = self.flat.arena.not(b);
            active = self.flat.arena.and(active, nb);
        };
        self.fns.frames.last_mut().expect("frame").broken = saved;
        result
    }

    /// The flat variables of a name an algorithm assigns.
    pub(super) fn algorithm_vars(
        &mut self,
        name: &str,
        env: Env,
        span: Span,
    ) -> DResult<Vec<FlatVar>> {
        let r = ast::ComponentRef {
            global: false,
            parts: vec![ast::RefPart {
                ident: ast::Ident {
                    name: name.into(),
                    span,
                },
                subscripts: Vec::new(),
            }],
            span,
        };
        let Val::Arr(a) = self.resolve_owned(&r, env)? else {
            return Err(self.unsupported(span, "assigning Strings or records in algorithms"));
        };
        a.data
            .iter()
            .map(|&x| match self.flat.arena.node(x) {
                Node::Var(v) => Ok(v),
                _ => Err(Box::new(
                    Diagnostic::error("assignment", format!("`{name}` is not a variable"))
                        .at(span, "here"),
                ) as Box<Diagnostic>),
            })
            .collect()
    }

    /// `n` (or `n + 1` for `<=`) when `cond` is `i < n` or `i <= n`, or such a comparison
    /// joined by `and` to others, with `i` an Integer variable of the function and `n` known
    /// at compile time.
    fn counter_bound(&mut self, cond: &'a ast::Expr, env: Env) -> Option<usize> {
        match &cond.kind {
            ast::ExprKind::Binary(ast::BinaryOp::And, a, b) => {
                let (x, y) = (self.counter_bound(a, env), self.counter_bound(b, env));
                match (x, y) {
                    (Some(x), Some(y)) => Some(x.min(y)),
                    (x, y) => x.or(y),
                }
            }
            ast::ExprKind::Binary(op @ (ast::BinaryOp::Lt | ast::BinaryOp::Le), l, r) => {
                let ast::ExprKind::Ref(rf) = &l.kind else {
                    return None;
                };
                if rf.parts.len() != 1 || !rf.parts[0].subscripts.is_empty() {
                    return None;
                }
                let name = &*rf.parts[0].ident.name;
                let is_counter =
                    self.frame_has(name, env)
                        && self.fns.frames.last().is_some_and(|f| {
                            f.locals[name].ty == LocalTy::Num(ScalarType::Integer)
                        });
                if !is_counter {
                    return None;
                }
                let n = self.eval_arr(r, env).ok()?.as_scalar()?;
                let n = self.fold(n)?;
                if !(n.is_finite() && n >= 0.0) {
                    return None;
                }
                let n = n as usize + usize::from(*op == ast::BinaryOp::Le);
                Some(n)
            }
            _ => None,
        }
    }

    /// `assert(condition, message [, level])` in an algorithm: checked when the guard holds.
    fn assert_statement(
        &mut self,
        args: &'a ast::CallArgs,
        g: ExprId,
        env: Env,
        span: Span,
    ) -> DResult<()> {
        let Some(c) = args.positional.first() else {
            return Err(Box::new(
                Diagnostic::error("arguments", "`assert` needs a condition and a message")
                    .at(args.span, "here"),
            ));
        };
        let c = self.eval_condition(c, env, "the condition of an assert")?;
        let message = match args.positional.get(1).or_else(|| {
            args.named
                .iter()
                .find(|(n, _)| &*n.name == "message")
                .map(|(_, e)| e)
        }) {
            Some(m) => {
                self.ctx.in_message = true;
                let v = self.eval(m, env);
                self.ctx.in_message = false;
                match v? {
                    Val::Str(s) => s,
                    _ => {
                        return Err(Box::new(typed::ASSERT_ARGUMENTS.broken(
                            m.span,
                            "the message of an assert is not a String",
                            "not a String",
                        )))
                    }
                }
            }
            None => String::new(),
        };
        let warning = self.assert_is_warning(args, env)?;
        // Under this statement's guard and the guard of the call that runs this body.
        let inherited = self.fns.frames.last().map(|f| f.guard);
        let g = match inherited {
            Some(h) => self.flat.arena.and(h, g),
            None => g,
        };
        let g = match self.ctx.terminal_flag {
            Some(f) => self.flat.arena.and(f, g),
            None => g,
        };
        let ng = self.flat.arena.not(g);
        let cond = self.flat.arena.or(ng, c);
        if self.fold(cond) == Some(0.0) && !warning {
            return Err(Box::new(
                Diagnostic::error("assert", format!("assertion fails: {message}"))
                    .at(span, "is false"),
            ));
        }
        self.flat.assertions.push(Assertion {
            condition: cond,
            message,
            span,
            warning,
        });
        Ok(())
    }

    /// `(a, b) = f(x)` or `(a, b) := f(x)`: the outputs, at least as many as the targets.
    pub(super) fn call_for_targets(
        &mut self,
        f: &'a ast::ComponentRef,
        args: &'a ast::CallArgs,
        targets: usize,
        env: Env,
        span: Span,
    ) -> DResult<Vec<Val>> {
        let outs = self.call_by_ref(f, args, env, span)?;
        if targets > outs.len() {
            return Err(Box::new(
                Diagnostic::error(
                    "arguments",
                    format!(
                        "{targets} targets for a function with {} outputs",
                        outs.len()
                    ),
                )
                .at(span, "here"),
            ));
        }
        Ok(outs)
    }

    /// A function call written as a statement or on the right of `(a, b) := f(x)`.
    pub(super) fn call_by_ref(
        &mut self,
        f: &'a ast::ComponentRef,
        args: &'a ast::CallArgs,
        env: Env,
        span: Span,
    ) -> DResult<Vec<Val>> {
        let Some(class) = self.called_function(f, env) else {
            return Err(Box::new(
                Diagnostic::error(
                    "not-a-function",
                    format!("`{}` is not a function in scope", f.to_source_string()),
                )
                .at(f.span, "called here"),
            ));
        };
        self.function_call(class, args, env, span)
    }

    /// `target := value` under guard `g`.
    fn assign(
        &mut self,
        target: &'a ast::ComponentRef,
        value: Val,
        g: ExprId,
        env: Env,
        span: Span,
    ) -> DResult<()> {
        let name = &*target.parts[0].ident.name;
        if target.global || !self.frame_has(name, env) {
            let what = self.fns.frames.last().expect("frame").what.clone();
            return Err(Box::new(
                Diagnostic::error(
                    "assignment",
                    format!(
                        "`{}` cannot be assigned in {what}",
                        target.to_source_string()
                    ),
                )
                .at(target.span, "not a variable of it"),
            ));
        }
        let top = self.fns.frames.len() - 1;
        if target.parts.len() > 1 && target.parts[0].subscripts.is_empty() {
            if self.fns.frames[top].locals[name].input {
                return Err(Box::new(
                    Diagnostic::error("assignment", format!("input `{name}` cannot be assigned"))
                        .at(target.span, "an input of the function"),
                ));
            }
            let cur = self.local_value(name, target.span)?;
            let new = self.set_field(&cur, &target.parts[1..], value, g, span)?;
            self.fns.frames[top].locals.get_mut(name).unwrap().value = LocalValue::Set(new);
            return Ok(());
        }
        let local = &self.fns.frames[top].locals[name];
        if local.input {
            return Err(Box::new(
                Diagnostic::error("assignment", format!("input `{name}` cannot be assigned"))
                    .at(target.span, "an input of the function"),
            ));
        }
        let subs = &target.parts[0].subscripts;
        if subs.is_empty() {
            let old = match &self.fns.frames[top].locals[name].value {
                LocalValue::Set(v) => Some(v.clone()),
                _ => None,
            };
            let v = self.check_local_value(name, value, span, "is assigned {a}")?;
            let v = match old {
                Some(o) => self.merged(g, v, &o, span)?,
                None => v,
            };
            self.fns.frames[top].locals.get_mut(name).unwrap().value = LocalValue::Set(v);
            return Ok(());
        }
        // An element or a slice.
        let cur = match self.local_value(name, target.span)? {
            Val::Arr(a) => a,
            Val::Record(r) => {
                let new = self.assign_records(&r, subs, value, g, env, target, span)?;
                self.fns.frames[top].locals.get_mut(name).unwrap().value = LocalValue::Set(new);
                return Ok(());
            }
            Val::Strs(s) => {
                let new = self.assign_strings(&s, subs, value, g, env, span)?;
                self.fns.frames[top].locals.get_mut(name).unwrap().value = LocalValue::Set(new);
                return Ok(());
            }
            Val::Str(_) | Val::Text(_) => {
                return Err(self.unsupported(target.span, "subscripts of Strings"))
            }
        };
        let Val::Arr(value) = value else {
            return Err(Box::new(
                Diagnostic::error("type", "a String assigned to an element of a number array")
                    .at(span, "String"),
            ));
        };
        let LocalTy::Num(ty) = self.fns.frames[top].locals[name].ty else {
            return Err(self.unsupported(target.span, "subscripts of Strings"));
        };
        types::assign(ty, name, &value, span, "is assigned {a}")?;
        let data = self.assign_elements(&cur, subs, &value, g, env, target, span)?;
        self.fns.frames[top].locals.get_mut(name).unwrap().value =
            LocalValue::Set(Val::Arr(Arr { data, ..cur }));
        Ok(())
    }

    /// The elements of `cur` after `cur[subs] := value` under guard `g` (an index known only
    /// at run time guards each element it may select).
    #[allow(clippy::too_many_arguments)]
    fn assign_elements(
        &mut self,
        cur: &Arr,
        subs: &'a [ast::Subscript],
        value: &Arr,
        g: ExprId,
        env: Env,
        target: &'a ast::ComponentRef,
        span: Span,
    ) -> DResult<Vec<ExprId>> {
        let choices = self.choices(&cur.dims, subs, env, target.span)?;
        let (out_dims, positions) = positions(&cur.dims, &choices);
        if value.dims != out_dims {
            return Err(Box::new(
                Diagnostic::error(
                    "size",
                    format!(
                        "`{}` has size {} but is assigned a value of size {}",
                        target.to_source_string(),
                        dims_text(&out_dims),
                        dims_text(&value.dims)
                    ),
                )
                .at(span, dims_text(&value.dims)),
            ));
        }
        let mut data = cur.data.clone();
        for p in &positions {
            let mut c = g;
            for &(i, k) in &p.conds {
                let kk = self.flat.arena.constant(k as f64);
                let eq = self.flat.arena.cmp(CmpOp::Eq, i, kk);
                c = self.flat.arena.and(c, eq);
            }
            data[p.src] = self.guarded(c, value.data[p.out], data[p.src]);
        }
        Ok(data)
    }

    /// `ps[k] := r` or `ps[k].x := v` in an array of records (every field assigned the
    /// same way): the array after the assignment.
    #[allow(clippy::too_many_arguments)]
    fn assign_records(
        &mut self,
        cur: &RecordVal,
        subs: &'a [ast::Subscript],
        value: Val,
        g: ExprId,
        env: Env,
        target: &'a ast::ComponentRef,
        span: Span,
    ) -> DResult<Val> {
        let value = if target.parts.len() > 1 {
            // A field of the selected elements: the elements with that field set.
            let sel = self.record_subscripts(cur, subs, env, target.span)?;
            self.set_field(&sel, &target.parts[1..], value, g, span)?
        } else {
            value
        };
        let Val::Record(new) = value else {
            return Err(Box::new(
                Diagnostic::error(
                    "type",
                    format!("an element of the array of records `{}` is assigned a value that is not a record", target.parts[0].ident.name),
                )
                .at(span, "not a record"),
            ));
        };
        if new.class != cur.class && new.name != cur.name {
            return Err(Box::new(
                Diagnostic::error(
                    "type",
                    format!(
                        "an element of an array of `{}` is assigned a `{}`",
                        cur.name, new.name
                    ),
                )
                .at(span, new.name.clone()),
            ));
        }
        let mut fields = Vec::with_capacity(cur.fields.len());
        for (name, f) in &cur.fields {
            let nf = new.field(name).cloned();
            let v = match (f, nf) {
                (Val::Arr(a), Some(Val::Arr(b))) => {
                    let data = self.assign_elements(a, subs, &b, g, env, target, span)?;
                    Val::Arr(Arr {
                        data,
                        dims: a.dims.clone(),
                        ty: a.ty,
                    })
                }
                (Val::Record(a), Some(b @ Val::Record(_))) => {
                    self.assign_records(a, subs, b, g, env, target, span)?
                }
                (Val::Str(_), Some(v @ Val::Str(_))) => self.merged(g, v, f, span)?,
                _ => {
                    return Err(Box::new(
                        Diagnostic::error(
                            "type",
                            format!(
                                "field `{name}` of `{}` is assigned a value of another kind",
                                cur.name
                            ),
                        )
                        .at(span, "here"),
                    ))
                }
            };
            fields.push((name.clone(), v));
        }
        Ok(Val::Record(Rc::new(RecordVal {
            class: cur.class,
            name: cur.name.clone(),
            dims: cur.dims.clone(),
            fields,
        })))
    }

    /// A whole value after `x := new` under guard `g`, `old` the value before: element by
    /// element and field by field `if g then new else old`, so that a record or an array
    /// assigned in one branch of an `if` keeps the other branch's value when the guard is
    /// false. A String, or an array whose size would depend on a condition known only at run
    /// time, cannot be merged that way: refused rather than taking one branch silently.
    pub(super) fn merged(&mut self, g: ExprId, new: Val, old: &Val, span: Span) -> DResult<Val> {
        match self.flat.arena.as_const(g) {
            Some(c) if c != 0.0 => return Ok(new),
            Some(_) => return Ok(old.clone()),
            None => {}
        }
        match (new, old) {
            (Val::Arr(n), Val::Arr(o)) if n.dims == o.dims => {
                let data = o
                    .data
                    .iter()
                    .zip(&n.data)
                    .map(|(&o, &n)| self.guarded(g, n, o))
                    .collect();
                Ok(Val::Arr(Arr { data, ..n }))
            }
            (Val::Arr(n), Val::Arr(o)) if o.data.iter().all(|&e| e == self.unset()) => {
                Ok(Val::Arr(n))
            }
            (Val::Str(n), Val::Str(o)) if n == *o => Ok(Val::Str(n)),
            (Val::Strs(n), Val::Strs(o)) if n == *o => Ok(Val::Strs(n)),
            (Val::Record(n), Val::Record(o))
                if n.dims == o.dims
                    && n.fields.len() == o.fields.len()
                    && n.fields.iter().zip(&o.fields).all(|(a, b)| a.0 == b.0) =>
            {
                let mut fields = Vec::with_capacity(n.fields.len());
                for ((name, nv), (_, ov)) in n.fields.iter().zip(&o.fields) {
                    fields.push((name.clone(), self.merged(g, nv.clone(), ov, span)?));
                }
                Ok(Val::Record(Rc::new(RecordVal {
                    class: n.class,
                    name: n.name.clone(),
                    dims: n.dims.clone(),
                    fields,
                })))
            }
            (Val::Str(_) | Val::Strs(_), _) => Err(self.unsupported(
                span,
                "a String assigned under a condition known only at run time",
            )),
            (Val::Arr(_), Val::Arr(_)) => Err(self.unsupported(
                span,
                "an array whose size depends on a condition known only at run time",
            )),
            _ => Err(self.unsupported(
                span,
                "a value whose kind depends on a condition known only at run time",
            )),
        }
    }

    /// `if g then new else old`; an element never assigned takes `new`.
    fn guarded(&mut self, g: ExprId, new: ExprId, old: ExprId) -> ExprId {
        if old == self.unset() {
            return new;
        }
        self.flat.arena.if_(g, new, old)
    }

    /// Reads a local, with subscripts that may be known only at run time.
    pub(super) fn frame_ref(&mut self, r: &'a ast::ComponentRef, env: Env) -> DResult<Val> {
        let first = &r.parts[0];
        let mut v = self.local_value(&first.ident.name, r.span)?;
        let mut subs = &first.subscripts;
        for part in &r.parts[1..] {
            if !subs.is_empty() {
                v =
                    match v {
                        Val::Record(rv) => self.record_subscripts(&rv, subs, env, r.span)?,
                        _ => return Err(self.unsupported(
                            r.span,
                            "subscripts before a field of a value that is not an array of records",
                        )),
                    };
            }
            v = field_of(&v, part)?;
            subs = &part.subscripts;
        }
        let a = match v {
            Val::Str(s) if subs.is_empty() => return Ok(Val::Str(s)),
            Val::Text(t) if subs.is_empty() => return Ok(Val::Text(t)),
            Val::Record(x) if subs.is_empty() => return Ok(Val::Record(x)),
            Val::Strs(s) if subs.is_empty() => return Ok(Val::Strs(s)),
            Val::Strs(s) => return self.string_subscripts(&s, subs, env, r.span),
            Val::Str(_) | Val::Text(_) => {
                return Err(self.unsupported(r.span, "subscripts of Strings"))
            }
            Val::Record(x) => return self.record_subscripts(&x, subs, env, r.span),
            Val::Arr(a) => a,
        };
        if subs.is_empty() {
            return self.check_set(a, r).map(Val::Arr);
        }
        let a = self.select_elements(a, subs, env, r.span)?;
        self.check_set(a, r).map(Val::Arr)
    }

    /// Subscripts applied to an array value; an index known only at run time selects among
    /// the elements (`if i == 1 then x[1] elseif …`, NaN outside the bounds).
    pub(super) fn select_elements(
        &mut self,
        a: Arr,
        subs: &'a [ast::Subscript],
        env: Env,
        span: Span,
    ) -> DResult<Arr> {
        let choices = self.choices(&a.dims, subs, env, span)?;
        let (dims, positions) = positions(&a.dims, &choices);
        let total: usize = dims.iter().product();
        let nan = self.flat.arena.constant(f64::NAN);
        let mut data = vec![nan; total];
        for p in &positions {
            let x = a.data[p.src];
            if p.conds.is_empty() {
                data[p.out] = x;
                continue;
            }
            let mut c = self.flat.arena.boolean(true);
            for &(i, k) in &p.conds {
                let kk = self.flat.arena.constant(k as f64);
                let eq = self.flat.arena.cmp(CmpOp::Eq, i, kk);
                c = self.flat.arena.and(c, eq);
            }
            data[p.out] = self.flat.arena.if_(c, x, data[p.out]);
        }
        Ok(Arr {
            dims,
            data,
            ty: a.ty,
        })
    }

    /// A value read before it was assigned is an error.
    fn check_set(&mut self, a: Arr, r: &ast::ComponentRef) -> DResult<Arr> {
        let u = self.unset();
        if a.data.contains(&u) {
            return Err(Box::new(
                Diagnostic::error(
                    "unassigned",
                    format!("`{}` is used before it is assigned", r.to_source_string()),
                )
                .at(r.span, "no value yet"),
            ));
        }
        Ok(a)
    }

    /// Subscripts of a local: constant ones as indices, scalar run-time ones as expressions.
    pub(super) fn choices(
        &mut self,
        dims: &[usize],
        subs: &'a [ast::Subscript],
        env: Env,
        span: Span,
    ) -> DResult<Vec<Choice>> {
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
        let mut out = Vec::with_capacity(dims.len());
        for (k, &n) in dims.iter().enumerate() {
            let Some(s) = subs.get(k) else {
                out.push(Choice::Static((0..n).collect(), true));
                continue;
            };
            if let ast::Subscript::Expr(e) = s {
                self.ctx.end_stack.push(n);
                let a = self.eval_arr(e, env);
                self.ctx.end_stack.pop();
                let a = a?;
                if let Some(x) = a.as_scalar() {
                    if self.fold(x).is_none() {
                        if !matches!(a.ty, ScalarType::Enum(_)) {
                            types::integer(&a, e.span, "an array subscript")?;
                        }
                        out.push(Choice::Dynamic(x));
                        continue;
                    }
                }
            }
            match self.subscript_indices(s, n, env)? {
                None => out.push(Choice::Static((0..n).collect(), true)),
                Some(mut idx) => {
                    let keep = idx.last() == Some(&usize::MAX);
                    if keep {
                        idx.pop();
                    }
                    out.push(Choice::Static(idx, keep));
                }
            }
        }
        Ok(out)
    }

    /// Executes an algorithm section of a model: the equations `v = final value` of every
    /// variable it assigns.
    pub(super) fn model_algorithm(
        &mut self,
        alg: &'a ast::Algorithm,
        env: Env,
        out: &mut Vec<Equation>,
    ) -> DResult<()> {
        let mut names: Vec<(&'a str, Span)> = Vec::new();
        assigned_names(&alg.statements, &mut names);
        // A Real assigned in a when-statement is a discrete-time variable (8.3.5): like
        // every discrete one it starts from `pre(v)`, so a branch that does not assign it
        // keeps the value it had.
        let mut in_when: Vec<(&'a str, Span)> = Vec::new();
        for st in &alg.statements {
            if let ast::StatementKind::When { branches } = &st.kind {
                for (_, b) in branches {
                    assigned_names(b, &mut in_when);
                }
            }
        }
        let mut locals = FxHashMap::default();
        let mut vars = Vec::new();
        for &(name, span) in &names {
            if locals.contains_key(name) {
                continue;
            }
            let r = ast::ComponentRef {
                global: false,
                parts: vec![ast::RefPart {
                    ident: ast::Ident {
                        name: name.into(),
                        span,
                    },
                    subscripts: Vec::new(),
                }],
                span,
            };
            let a = match self.resolve_owned(&r, env)? {
                Val::Arr(a) => a,
                _ => {
                    return Err(self.unsupported(span, "assigning Strings or records in algorithms"))
                }
            };
            let mut init = Vec::with_capacity(a.data.len());
            let mut these = Vec::with_capacity(a.data.len());
            for &x in &a.data {
                let Node::Var(v) = self.flat.arena.node(x) else {
                    return Err(Box::new(
                        Diagnostic::error(
                            "assignment",
                            format!("`{name}` is not a variable that an algorithm can assign"),
                        )
                        .at(span, "assigned here"),
                    ));
                };
                let var = &self.flat.vars[v];
                // An initial algorithm may compute a parameter with `fixed = false`
                // (specification 8.6; the result becomes its binding where it depends on
                // parameters only).
                let computed =
                    alg.initial && var.kind == VarKind::Parameter && var.fixed == Some(false);
                if matches!(var.kind, VarKind::Parameter | VarKind::Constant) && !computed {
                    return Err(Box::new(
                        Diagnostic::error(
                            "assignment",
                            format!("`{}` is a parameter and cannot be assigned", var.name),
                        )
                        .at(span, "assigned here"),
                    ));
                }
                let discrete = var.kind == VarKind::Discrete
                    || var.ty != ScalarType::Real
                    || in_when.iter().any(|(n, _)| *n == name);
                let start = var.start;
                // An initial algorithm starts from the start values (there is no `pre` yet).
                init.push(if discrete && !alg.initial {
                    self.flat.arena.pre(v)
                } else {
                    start.unwrap_or_else(|| self.flat.arena.constant(0.0))
                });
                these.push(x);
            }
            vars.push((name, these, span));
            locals.insert(
                name.into(),
                Local {
                    ty: LocalTy::Num(a.ty),
                    dims: Some(a.dims.clone()),
                    value: LocalValue::Set(Val::Arr(Arr {
                        dims: a.dims,
                        data: init,
                        ty: a.ty,
                    })),
                    input: false,
                },
            );
        }
        let no = self.flat.arena.boolean(false);
        let yes = self.flat.arena.boolean(true);
        let guard = self.call_guard();
        self.fns.frames.push(Frame {
            classes: vec![env.class],
            node: env.node,
            locals,
            returned: no,
            broken: no,
            what: "an algorithm section".into(),
            max_iterations: None,
            is_model: true,
            when_assigned: Vec::new(),
            reinits: None,
            terminate: None,
            time_table: false,
            guard,
            statement_guard: yes,
        });
        let saved_loops = std::mem::take(&mut self.ctx.loop_vars);
        self.ctx.when_equation_calls = alg.from_when_equation;
        let r = self.exec_block(&alg.statements, yes, env);
        self.ctx.when_equation_calls = false;
        self.ctx.loop_vars = saved_loops;
        let frame = self.fns.frames.pop().expect("frame");
        r?;
        for (name, these, span) in vars {
            let LocalValue::Set(Val::Arr(a)) = &frame.locals[name].value else {
                continue;
            };
            if frame.when_assigned.iter().any(|w| **w == *name) {
                // Defined by the when-statement's events; assigned outside it too is an error.
                if a.data != these {
                    return Err(Box::new(
                        Diagnostic::error(
                            "assignment",
                            format!(
                                "`{name}` is assigned both inside and outside a when-statement"
                            ),
                        )
                        .at(span, "here"),
                    ));
                }
                continue;
            }
            for (&x, &v) in these.iter().zip(&a.data) {
                out.push(Equation {
                    lhs: x,
                    rhs: v,
                    span: alg.span,
                    origin: EquationOrigin::Source,
                });
            }
        }
        Ok(())
    }

    /// A name resolved in the instance (not through the algorithm's own frame).
    fn resolve_owned(&mut self, r: &ast::ComponentRef, env: Env) -> DResult<Val> {
        // The reference is built here, so it cannot borrow the source; resolve by name.
        let name = &*r.parts[0].ident.name;
        let Some(node) = env.node else {
            return Err(self.unknown_component(r, 0, env));
        };
        let Some(&sid) = self.inst.nodes[node.0 as usize].slots.get(name) else {
            return Err(self.unknown_component(r, 0, env));
        };
        match self.instantiate(sid)? {
            Entry::Vars { dims, vars } => {
                let data = vars.iter().map(|&v| self.flat.arena.var(v)).collect();
                let ty = vars
                    .first()
                    .map_or(ScalarType::Real, |v| self.flat.vars[*v].ty);
                Ok(Val::Arr(Arr { dims, data, ty }))
            }
            _ => Err(self.unsupported(r.span, "assigning components that are not variables")),
        }
    }
}

/// The field `part` of a record value.
pub(super) fn field_of(v: &Val, part: &ast::RefPart) -> DResult<Val> {
    match v {
        Val::Record(rv) => rv.field(&part.ident.name).cloned().ok_or_else(|| {
            let names: Vec<String> = rv.fields.iter().map(|(n, _)| n.to_string()).collect();
            let mut d = Diagnostic::error(
                "unknown-name",
                format!("record `{}` has no field `{}`", rv.name, part.ident.name),
            )
            .at(part.ident.span, "no such field");
            if let Some(s) = suggest(&part.ident.name, &names) {
                d = d.help(format!("did you mean `{s}`?"));
            }
            Box::new(d)
        }),
        _ => Err(Box::new(
            Diagnostic::error(
                "unknown-name",
                format!("`{}` is not a field of a record", part.ident.name),
            )
            .at(part.ident.span, "the value before it is not a record"),
        )),
    }
}

/// The first names of every assignment target in `stmts`, nested blocks included.
fn assigned_names<'a>(stmts: &'a [ast::Statement], out: &mut Vec<(&'a str, Span)>) {
    use ast::StatementKind as S;
    for st in stmts {
        match &st.kind {
            S::Assign(r, _) => out.push((&r.parts[0].ident.name, r.span)),
            S::MultiAssign(ts, _, _) => {
                for t in ts.iter().flatten() {
                    if let ast::ExprKind::Ref(r) = &t.kind {
                        out.push((&r.parts[0].ident.name, r.span));
                    }
                }
            }
            S::If {
                branches,
                otherwise,
            } => {
                for (_, b) in branches {
                    assigned_names(b, out);
                }
                assigned_names(otherwise, out);
            }
            // An assignment to the loop's own variable is not a variable of the model's: the
            // loop refuses it where it runs (11.2.2).
            S::For { indices, body } => {
                let mut inner = Vec::new();
                assigned_names(body, &mut inner);
                out.extend(
                    inner
                        .into_iter()
                        .filter(|(n, _)| !indices.iter().any(|i| *i.name.name == **n)),
                );
            }
            S::While(_, body) => assigned_names(body, out),
            S::When { branches } => {
                for (_, b) in branches {
                    assigned_names(b, out);
                }
            }
            S::Call(..) | S::Break | S::Return => {}
        }
    }
}

/// Every element the choices select: its place in the result (row-major over the kept
/// dimensions), its place in the array, and the run-time index conditions.
pub(super) fn positions(dims: &[usize], choices: &[Choice]) -> (Vec<usize>, Vec<Pos>) {
    let cands: Vec<Vec<usize>> = choices
        .iter()
        .zip(dims)
        .map(|(c, &n)| match c {
            Choice::Static(idx, _) => idx.clone(),
            Choice::Dynamic(_) => (0..n).collect(),
        })
        .collect();
    let out_dims: Vec<usize> = choices
        .iter()
        .filter_map(|c| match c {
            Choice::Static(idx, true) => Some(idx.len()),
            _ => None,
        })
        .collect();
    let mut strides = vec![1usize; dims.len()];
    for k in (0..dims.len().saturating_sub(1)).rev() {
        strides[k] = strides[k + 1] * dims[k + 1];
    }
    let mut out = Vec::new();
    if cands.iter().any(|c| c.is_empty()) {
        return (out_dims, out);
    }
    let mut counter = vec![0usize; dims.len()];
    loop {
        let mut src = 0;
        let mut pos = 0;
        let mut conds = Vec::new();
        for k in 0..dims.len() {
            let i = cands[k][counter[k]];
            src += i * strides[k];
            match &choices[k] {
                Choice::Static(idx, true) => pos = pos * idx.len() + counter[k],
                Choice::Static(_, false) => {}
                Choice::Dynamic(e) => conds.push((*e, i + 1)),
            }
        }
        out.push(Pos {
            out: pos,
            src,
            conds,
        });
        let mut k = dims.len();
        loop {
            if k == 0 {
                return (out_dims, out);
            }
            k -= 1;
            counter[k] += 1;
            if counter[k] < cands[k].len() {
                break;
            }
            counter[k] = 0;
        }
    }
}
