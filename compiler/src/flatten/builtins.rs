//! Calls of built-in functions and operators (specification 3.7, 10.3): elementary functions,
//! `der`, `pre`, event operators, array functions and reductions. [`BUILTINS`] is the table:
//! each entry names the functions, the number of positional arguments they take and the
//! handler; names in [`UNSUPPORTED`] are refused with a diagnostic, and any other call is a
//! user function or record constructor (refused for now) or an unknown name.

use super::*;

mod arrays;
mod text;

/// What a built-in does; [`Flattener::builtin_call`] dispatches on it. (The elementary
/// functions of one argument, `sin` … `ceil`, are `Func1`'s names.)
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Op {
    /// `atan2`, `div`, `mod`, `rem`: element-wise over two arrays.
    TwoArguments,
    MinMax,
    Der,
    Pre,
    /// `edge` and `change`: `b and not pre(b)`, `v <> pre(v)` (true only at the event instant
    /// where the value changed: between events pre(v) is v).
    EdgeChange,
    NoEvent,
    Smooth,
    Homotopy,
    /// `semiLinear(x, a, b)`: `a·x` for x ≥ 0, else `b·x` (specification 3.7.4.3).
    SemiLinear,
    /// `sample(start, interval)` in an expression (in a when-condition of its own the
    /// when-equation is a time event itself).
    Sample,
    Pure,
    Integer,
    Size,
    Ndims,
    ZerosOnes,
    Fill,
    Identity,
    Transpose,
    Vector,
    Scalar,
    SumProduct,
    String,
    /// `cat(k, A, B, …)`.
    Cat,
    /// `inStream(v)` and `actualStream(v)` (specification 15.2–15.3).
    Stream,
    /// `cardinality(c)` and `Connections.isRoot(x)` (the connection graph).
    Graph,
    /// `cross`, `skew`, `outerProduct`, `diagonal`, `symmetric`, `linspace` (specification
    /// 10.3.5–10.3.6).
    ArrayAlgebra,
    /// `delay(expr, delayTime[, delayMax])` (specification 3.7.4.1).
    Delay,
}

/// A built-in: its names, its positional arguments (at least, at most) and what it does.
struct Builtin {
    names: &'static [&'static str],
    args: (usize, usize),
    op: Op,
}

const ANY: usize = usize::MAX;

/// The built-in functions and operators rtc evaluates while flattening.
const BUILTINS: &[Builtin] = &[
    Builtin {
        names: &["atan2", "div", "mod", "rem"],
        args: (2, 2),
        op: Op::TwoArguments,
    },
    Builtin {
        names: &["min", "max"],
        args: (1, 2),
        op: Op::MinMax,
    },
    Builtin {
        names: &["der"],
        args: (1, 1),
        op: Op::Der,
    },
    Builtin {
        names: &["pre"],
        args: (1, 1),
        op: Op::Pre,
    },
    Builtin {
        names: &["edge", "change"],
        args: (1, 1),
        op: Op::EdgeChange,
    },
    Builtin {
        names: &["noEvent"],
        args: (1, 1),
        op: Op::NoEvent,
    },
    Builtin {
        names: &["smooth"],
        args: (2, 2),
        op: Op::Smooth,
    },
    Builtin {
        names: &["homotopy"],
        args: (0, 2),
        op: Op::Homotopy,
    },
    Builtin {
        names: &["semiLinear"],
        args: (3, 3),
        op: Op::SemiLinear,
    },
    Builtin {
        names: &["delay"],
        args: (2, 3),
        op: Op::Delay,
    },
    Builtin {
        names: &["sample"],
        args: (2, 2),
        op: Op::Sample,
    },
    Builtin {
        names: &["pure"],
        args: (1, 1),
        op: Op::Pure,
    },
    Builtin {
        names: &["integer", "Integer"],
        args: (1, 1),
        op: Op::Integer,
    },
    Builtin {
        names: &["size"],
        args: (1, 2),
        op: Op::Size,
    },
    Builtin {
        names: &["ndims"],
        args: (1, 1),
        op: Op::Ndims,
    },
    Builtin {
        names: &["zeros", "ones"],
        args: (1, ANY),
        op: Op::ZerosOnes,
    },
    Builtin {
        names: &["fill"],
        args: (2, ANY),
        op: Op::Fill,
    },
    Builtin {
        names: &["identity"],
        args: (1, 1),
        op: Op::Identity,
    },
    Builtin {
        names: &[
            "cardinality",
            "Connections.isRoot",
            "Connections.rooted",
            "rooted",
        ],
        args: (1, 1),
        op: Op::Graph,
    },
    Builtin {
        names: &["inStream", "actualStream"],
        args: (1, 1),
        op: Op::Stream,
    },
    Builtin {
        names: &["cat"],
        args: (2, ANY),
        op: Op::Cat,
    },
    Builtin {
        names: &["cross", "outerProduct"],
        args: (2, 2),
        op: Op::ArrayAlgebra,
    },
    Builtin {
        names: &["skew", "diagonal", "symmetric"],
        args: (1, 1),
        op: Op::ArrayAlgebra,
    },
    Builtin {
        names: &["linspace"],
        args: (3, 3),
        op: Op::ArrayAlgebra,
    },
    Builtin {
        names: &["transpose"],
        args: (1, 1),
        op: Op::Transpose,
    },
    Builtin {
        names: &["vector"],
        args: (1, 1),
        op: Op::Vector,
    },
    Builtin {
        names: &["scalar"],
        args: (1, 1),
        op: Op::Scalar,
    },
    Builtin {
        names: &["sum", "product"],
        args: (1, 1),
        op: Op::SumProduct,
    },
    Builtin {
        names: &["String"],
        args: (1, 1),
        op: Op::String,
    },
];

/// Built-ins that parse but are not supported yet: (names, what to call them).
const UNSUPPORTED: &[(&[&str], &str)] = &[
    (&["promote", "array"], "function"),
    (
        &[
            "reinit",
            "terminal",
            "initial",
            "spatialDistribution",
            "Clock",
            "hold",
            "previous",
            "subSample",
            "superSample",
            "shiftSample",
            "backSample",
            "noClock",
            "interval",
            "firstTick",
        ],
        "operator",
    ),
];

/// One call being evaluated.
struct Call<'a, 'n> {
    e: &'a ast::Expr,
    name: &'n str,
    args: &'a ast::CallArgs,
    env: Env,
}

impl<'a> Call<'a, '_> {
    fn arg(&self, k: usize) -> &'a ast::Expr {
        &self.args.positional[k]
    }

    fn count(&self) -> usize {
        self.args.positional.len()
    }
}

impl<'t, 'a> Flattener<'t, 'a> {
    /// `initial()` outside a when-condition: the model's one `initial()` flag (see
    /// [`FlatModel::initial_flag`]), made at its first use.
    fn initial_flag(&mut self, span: Span) -> ExprId {
        if let Some(v) = self.flat.initial_flag {
            return self.flat.arena.var(v);
        }
        let id = FlatVar::new(self.flat.vars.len());
        let zero = self.flat.arena.constant(0.0);
        self.flat.vars.push(Variable {
            binding: Some(zero),
            description: Some("true during initialisation, false in every step".into()),
            ..Variable::new(
                "initial()".into(),
                VarKind::Parameter,
                ScalarType::Boolean,
                span,
            )
        });
        self.meta.push(VarMeta {
            is_flow: false,
            is_stream: false,
            is_causal: None,
            added: false,
        });
        self.flat.initial_flag = Some(id);
        self.flat.arena.var(id)
    }

    pub(super) fn eval_call(
        &mut self,
        e: &'a ast::Expr,
        target: &'a ast::CallTarget,
        args: &'a ast::CallArgs,
        env: Env,
    ) -> DResult<Val> {
        let name = match target {
            ast::CallTarget::Der => "der".to_string(),
            ast::CallTarget::Initial => {
                if !args.positional.is_empty() || !args.named.is_empty() {
                    return Err(Box::new(
                        Diagnostic::error("arguments", "`initial()` takes no arguments")
                            .at(e.span, "here"),
                    ));
                }
                // Combined with other terms in a when-condition (`c and not initial()`) or in
                // a when-body, `initial()` is the flag: true in the initial system only. A
                // when-condition of `initial()` alone (or as an element of a vector condition)
                // is recognised before evaluation and makes the branch fire at the start.
                if let Some(b) = self.ctx.initial_const {
                    let c = self.flat.arena.boolean(b);
                    return Ok(Val::Arr(Arr::scalar(c, ScalarType::Boolean)));
                }
                let flag = self.initial_flag(e.span);
                return Ok(Val::Arr(Arr::scalar(flag, ScalarType::Boolean)));
            }
            ast::CallTarget::Pure => "pure".to_string(),
            ast::CallTarget::Ref(r) => r
                .parts
                .iter()
                .map(|p| p.ident.name.to_string())
                .collect::<Vec<_>>()
                .join("."),
        };
        let call = Call {
            e,
            name: &name,
            args,
            env,
        };
        if !args.iterators.is_empty() {
            return self.reduction(&call);
        }
        if let Some(f) = Func1::from_name(&name) {
            self.check_arguments(&call, (1, 1))?;
            return self.elementary(&call, f);
        }
        if name == "getInstanceName" {
            // Specification 3.7.4.6: the name of the instance the call is written in, from
            // the top model's name down.
            self.check_arguments(&call, (0, 0))?;
            let path = env
                .node
                .map(|n| self.inst.nodes[n.0 as usize].path.clone())
                .unwrap_or_default();
            let top = self.flat.name.rsplit('.').next().unwrap_or("").to_string();
            return Ok(Val::Str(if path.is_empty() {
                top
            } else {
                format!("{top}.{path}")
            }));
        }
        let found = BUILTINS.iter().find(|b| b.names.contains(&name.as_str()));
        if let Some(b) = found {
            self.check_arguments(&call, b.args)?;
            return self.builtin_call(&call, b.op);
        }
        if let Some((_, what)) = UNSUPPORTED
            .iter()
            .find(|(ns, _)| ns.contains(&name.as_str()))
        {
            return Err(self.unsupported(e.span, &format!("the `{name}` {what}")));
        }
        if let ast::CallTarget::Ref(r) = target {
            if let Some(class) = self.called_record(r, env) {
                return self.record_constructor(class, args, env, e.span);
            }
            if let Some(class) = self.called_external_object(r, env) {
                return self.external_object(class, args, env, e.span);
            }
            if let Some(class) = self.called_function(r, env) {
                let outs = self.function_call(class, args, env, e.span)?;
                return outs.into_iter().next().ok_or_else(|| {
                    Box::new(
                        Diagnostic::error(
                            "type",
                            format!("`{name}` has no output, so its call has no value"),
                        )
                        .at(e.span, "used as a value"),
                    )
                });
            }
        }
        Err(self.not_builtin(&call, target))
    }

    /// The class a redeclaration in the instance gives `n`, if one does; a redeclaration
    /// that is itself wrong (a function that does not fit its constraining one) is
    /// reported, not passed over for the class it replaces.
    fn redeclared_or_report(&mut self, n: &ast::Name, env: Env) -> Option<ClassId> {
        match self.redeclared_class(n, env, 0) {
            Ok(found) => found.map(|(c, _)| c),
            Err(d) => {
                self.push_error(*d);
                None
            }
        }
    }

    /// The record class a call names (its constructor), if it names one.
    pub(super) fn called_record(&mut self, r: &ast::ComponentRef, env: Env) -> Option<ClassId> {
        let n = ref_as_name(r)?;
        let found = if n.global {
            self.tree.lookup_top_name(&n)
        } else if let Some(c) = self.redeclared_or_report(&n, env) {
            Some(Found::Class(c))
        } else {
            self.tree.lookup_name(env.class, &n)
        };
        match found {
            Some(Found::Class(k)) => {
                let mut c = k;
                // Through short definitions (`record R2 = R;`).
                for _ in 0..32 {
                    match self.tree.info(c).restriction() {
                        Some(ast::Restriction::Record) => {
                            if let Some((b, _)) = self.tree.base_of_short(c) {
                                c = b;
                                continue;
                            }
                            return Some(k);
                        }
                        _ => return None,
                    }
                }
                None
            }
            _ => None,
        }
    }

    /// The external-object class a call names (its constructor), if it names one.
    fn called_external_object(&mut self, r: &ast::ComponentRef, env: Env) -> Option<ClassId> {
        let n = ref_as_name(r)?;
        match self.tree.lookup_name(env.class, &n) {
            Some(Found::Class(k)) if tables::is_external_object(self.tree, k) => Some(k),
            _ => None,
        }
    }

    /// The function class a call names, if it names one.
    pub(super) fn called_function(
        &mut self,
        r: &'a ast::ComponentRef,
        env: Env,
    ) -> Option<ClassId> {
        if let Some((f, node)) = self.function_via_component_at(r, env) {
            self.fns.via = Some(node);
            return Some(f);
        }
        self.fns.via = None;
        let n = ref_as_name(r)?;
        let found = if n.global {
            self.tree.lookup_top_name(&n)
        } else if let Some(c) = self.redeclared_or_report(&n, env) {
            // `Medium.specificEnthalpy(…)` of a redeclared package.
            Some(Found::Class(c))
        } else {
            self.tree.lookup_name(env.class, &n)
        };
        match found {
            Some(Found::Class(k))
                if matches!(
                    self.tree.info(k).restriction(),
                    Some(ast::Restriction::Function | ast::Restriction::OperatorFunction)
                ) =>
            {
                Some(k)
            }
            _ => None,
        }
    }

    fn builtin_call(&mut self, c: &Call<'a, '_>, op: Op) -> DResult<Val> {
        match op {
            Op::TwoArguments => self.two_arguments(c),
            Op::MinMax => self.min_max(c),
            Op::Der => self.der_call(c),
            Op::Pre => self.pre_call(c),
            Op::EdgeChange => self.edge_change(c),
            Op::NoEvent => {
                let x = self.eval_arr(c.arg(0), c.env)?;
                let x = x.map(&mut self.flat.arena, |ar, v| ar.no_event(v));
                if !self.fns.frames.iter().any(|f| !f.is_model) {
                    self.written_no_event.extend(x.data.iter().copied());
                }
                Ok(Val::Arr(x))
            }
            Op::Smooth => {
                let order = self.eval_const(c.arg(0), c.env, "the order of smooth()")?;
                let v = self.eval(c.arg(1), c.env)?;
                if let Val::Arr(a) = &v {
                    if !types::is_numeric(a.ty) {
                        let msg = format!("smooth() of an expression of type {}", a.ty.name());
                        return Err(Box::new(typed::SMOOTH_REAL.broken(
                            c.arg(1).span,
                            msg,
                            a.ty.name(),
                        )));
                    }
                }
                Ok(match v {
                    Val::Arr(a) if order == 0.0 => {
                        Val::Arr(a.map(&mut self.flat.arena, events_in_continuous))
                    }
                    v => v,
                })
            }
            Op::Homotopy => self.homotopy(c),
            Op::SemiLinear => self.semi_linear(c),
            Op::Delay => self.delay_call(c.e, c.arg(0), c.arg(1), c.args.positional.get(2), c.env),
            Op::Sample => self.sample_expression(c),
            Op::Pure => self.eval(c.arg(0), c.env),
            Op::Integer => {
                let x = self.eval_arr(c.arg(0), c.env)?;
                if matches!(x.ty, ScalarType::Enum(_)) && c.name == "Integer" {
                    // The literal's number (specification 4.9.5.2).
                    return Ok(Val::Arr(x.with_ty(ScalarType::Integer)));
                }
                // Integer(e) converts an enumeration (an Integer is taken as it is).
                if c.name == "Integer" && x.ty != ScalarType::Integer {
                    let msg = format!("Integer() of an expression of type {}", x.ty.name());
                    return Err(Box::new(typed::INTEGER_OF_ENUM.broken(
                        c.arg(0).span,
                        msg,
                        "not an enumeration value",
                    )));
                }
                types::numeric_arg(&x, c.arg(0).span, c.name)?;
                Ok(Val::Arr(
                    x.map(&mut self.flat.arena, |ar, v| ar.call1(Func1::Floor, v))
                        .with_ty(ScalarType::Integer),
                ))
            }
            Op::Size => self.size_call(c),
            Op::Ndims => {
                let n = match self.eval(c.arg(0), c.env)? {
                    Val::Strs(s) => s.dims.len(),
                    Val::Str(_) => 0,
                    v => self.as_arr(v, c.arg(0).span)?.dims.len(),
                };
                Ok(int_const(self, n))
            }
            Op::ZerosOnes | Op::Fill | Op::Identity => self.array_constructor(c, op),
            Op::Transpose | Op::Vector | Op::Scalar => self.reshape(c, op),
            Op::Cat => self.cat_call(c),
            Op::Stream => self.stream_call(c.arg(0), c.env, c.name == "actualStream"),
            Op::Graph if c.name == "cardinality" => self.cardinality_call(c.arg(0), c.env),
            Op::Graph => self.is_root_call(c.name, c.arg(0), c.env),
            Op::ArrayAlgebra => self.array_algebra(c),
            Op::SumProduct => {
                let x = self.eval_arr(c.arg(0), c.env)?;
                self.reduce(c.name, &x, c.e.span).map(Val::Arr)
            }
            Op::String => self.string_call(c),
        }
    }

    /// The number of positional arguments (and no named ones but homotopy's).
    fn check_arguments(&self, c: &Call<'a, '_>, (lo, hi): (usize, usize)) -> DResult<()> {
        let n = c.count();
        if n >= lo
            && n <= hi
            && (c.args.named.is_empty() || matches!(c.name, "homotopy" | "String"))
        {
            return Ok(());
        }
        let expect = match (lo, hi) {
            (lo, hi) if lo == hi => format!("{lo}"),
            (lo, ANY) => format!("at least {lo}"),
            (lo, hi) => format!("{lo} to {hi}"),
        };
        Err(Box::new(
            Diagnostic::error(
                "arguments",
                format!(
                    "`{}` takes {expect} argument{}, got {n}{}",
                    c.name,
                    if lo == 1 && (hi == 1 || hi == ANY) {
                        ""
                    } else {
                        "s"
                    },
                    if c.args.named.is_empty() {
                        ""
                    } else {
                        " (and named ones, which it does not take)"
                    }
                ),
            )
            .at(c.args.span, "arguments"),
        ))
    }

    /// `sum(e for i in r)` and the other reductions.
    fn reduction(&mut self, c: &Call<'a, '_>) -> DResult<Val> {
        if !matches!(c.name, "sum" | "product" | "min" | "max" | "array") {
            return Err(Box::new(
                Diagnostic::error(
                    "reduction",
                    format!("`{}` is not a reduction: only array, sum, product, min and max take iterators", c.name),
                )
                .at(c.e.span, "here")
                .help("Modelica 3.6 §10.3.4.1: the only legal function names of a reduction expression are the built-in operators array, sum, product, min and max"),
            ));
        }
        let body = c.args.positional.first().ok_or_else(|| {
            Box::new(
                Diagnostic::error("arguments", "reduction without expression").at(c.e.span, "here"),
            )
        })?;
        let env = c.env;
        let items = self.iterate(&c.args.iterators, env, &mut |s| s.eval_arr(body, env))?;
        if matches!(c.name, "product" | "min" | "max") && items.iter().any(|a| !a.dims.is_empty()) {
            let msg = format!("the expression of the {} reduction is an array", c.name);
            return Err(Box::new(
                typed::REDUCTION_SCALAR.broken(body.span, msg, "an array"),
            ));
        }
        let ty = unify_items(&items, std::iter::repeat(body.span))?;
        let stacked = Arr::stack(items).map(|a| a.with_ty(ty)).ok_or_else(|| {
            Box::new(
                Diagnostic::error("size", "reduction elements have different sizes")
                    .at(c.e.span, "here"),
            )
        })?;
        self.reduce(c.name, &stacked, body.span).map(Val::Arr)
    }

    fn elementary(&mut self, c: &Call<'a, '_>, f: Func1) -> DResult<Val> {
        let x = self.eval_arr(c.arg(0), c.env)?;
        types::numeric_arg(&x, c.arg(0).span, c.name)?;
        // An argument known when compiling outside the function's domain (3.7.1, 3.7.3).
        let outside = |k: f64| match f {
            Func1::Sqrt => k < 0.0,
            Func1::Log | Func1::Log10 => k <= 0.0,
            Func1::Asin | Func1::Acos => !(-1.0..=1.0).contains(&k),
            _ => false,
        };
        if let Some(k) = x
            .data
            .iter()
            .filter_map(|&v| self.flat.arena.as_const(v))
            .find(|&k| outside(k))
        {
            let section = if f == Func1::Sqrt { "3.7.1" } else { "3.7.3" };
            return Err(Box::new(
                Diagnostic::error("domain", format!("`{}` of {k}, outside its domain", c.name))
                    .at(c.arg(0).span, format!("{k}"))
                    .help(format!(
                    "Modelica 3.6 §{section}: sqrt(v) is an error for v < 0, log and log10 for \
                     v <= 0, asin and acos for |v| > 1"
                )),
            ));
        }
        let ty = match f {
            Func1::Abs => x.ty,
            Func1::Sign => ScalarType::Integer,
            _ => ScalarType::Real,
        };
        Ok(Val::Arr(
            x.map(&mut self.flat.arena, |ar, v| ar.call1(f, v))
                .with_ty(ty),
        ))
    }

    fn two_arguments(&mut self, c: &Call<'a, '_>) -> DResult<Val> {
        let f = Func2::from_name(c.name).unwrap_or(Func2::Atan2);
        let x = self.eval_arr(c.arg(0), c.env)?;
        let y = self.eval_arr(c.arg(1), c.env)?;
        types::numeric_arg(&x, c.arg(0).span, c.name)?;
        types::numeric_arg(&y, c.arg(1).span, c.name)?;
        let ty = if c.name == "atan2" {
            ScalarType::Real
        } else {
            types::promote(x.ty, y.ty)
        };
        let r = values::zip(&mut self.flat.arena, &x, &y, |ar, p, q| ar.call2(f, p, q));
        r.map(|a| Val::Arr(a.with_ty(ty)))
            .ok_or_else(|| self.size_mismatch(c.e.span, c.name, &x.dims, &y.dims))
    }

    /// `semiLinear(x, a, b)` = `if x >= 0 then a*x else b*x`, element-wise. Both branches are
    /// 0 at x = 0, so the switch is continuous and makes no event (as `noEvent`); its
    /// derivative jumps there, which the step's Newton sees as a kink.
    fn semi_linear(&mut self, c: &Call<'a, '_>) -> DResult<Val> {
        let mut args = Vec::new();
        for i in 0..3 {
            let v = self.eval_arr(c.arg(i), c.env)?;
            types::numeric_arg(&v, c.arg(i).span, c.name)?;
            args.push(v);
        }
        let (x, a, b) = (&args[0], &args[1], &args[2]);
        let Some(xa) = values::zip(&mut self.flat.arena, x, a, |ar, p, q| ar.mul(q, p)) else {
            return Err(self.size_mismatch(c.e.span, c.name, &x.dims, &a.dims));
        };
        let Some(xb) = values::zip(&mut self.flat.arena, x, b, |ar, p, q| ar.mul(q, p)) else {
            return Err(self.size_mismatch(c.e.span, c.name, &x.dims, &b.dims));
        };
        if !xa.is_scalar() && !xb.is_scalar() && xa.dims != xb.dims {
            return Err(self.size_mismatch(c.e.span, c.name, &a.dims, &b.dims));
        }
        let at = |v: &Arr, k: usize| v.data[if v.is_scalar() { 0 } else { k }];
        let mut out = if xa.is_scalar() {
            xb.clone()
        } else {
            xa.clone()
        };
        for (k, d) in out.data.iter_mut().enumerate() {
            let ar = &mut self.flat.arena;
            let zero = ar.constant(0.0);
            let cond = ar.cmp(CmpOp::Ge, at(x, k), zero);
            let e = ar.if_(cond, at(&xa, k), at(&xb, k));
            *d = ar.no_event(e);
            self.flat.semi_linear.push(crate::flat::SemiLinear {
                value: *d,
                x: at(x, k),
                a: at(a, k),
                b: at(b, k),
            });
        }
        Ok(Val::Arr(out.with_ty(ScalarType::Real)))
    }

    fn min_max(&mut self, c: &Call<'a, '_>) -> DResult<Val> {
        let f = if c.name == "min" {
            Func2::Min
        } else {
            Func2::Max
        };
        let x = self.eval_arr(c.arg(0), c.env)?;
        if c.count() == 1 {
            return self.reduce(c.name, &x, c.e.span).map(Val::Arr);
        }
        let y = self.eval_arr(c.arg(1), c.env)?;
        if !x.is_scalar() || !y.is_scalar() {
            return Err(self.size_mismatch(c.e.span, c.name, &x.dims, &y.dims));
        }
        let Some(ty) = types::unify(x.ty, y.ty) else {
            return Err(Box::new(
                Diagnostic::error(
                    "type",
                    format!("`{}` of {} and {}", c.name, types::a(x.ty), types::a(y.ty)),
                )
                .at(c.args.span, "arguments"),
            ));
        };
        Ok(Val::Arr(Arr::scalar(
            self.flat.arena.call2(f, x.data[0], y.data[0]),
            ty,
        )))
    }

    fn der_call(&mut self, c: &Call<'a, '_>) -> DResult<Val> {
        let x = self.eval_arr(c.arg(0), c.env)?;
        if x.ty != ScalarType::Real {
            return Err(Box::new(
                Diagnostic::error(
                    "type",
                    format!("`der` needs a Real expression, but this is {}", x.ty.name()),
                )
                .at(c.arg(0).span, x.ty.name())
                .help(
                    "Integer and Boolean variables change only at events; they have no derivative",
                ),
            ));
        }
        let mut data = Vec::with_capacity(x.data.len());
        for &v in &x.data {
            data.push(self.der_of(v, c.arg(0).span)?);
        }
        Ok(Val::Arr(Arr {
            dims: x.dims,
            data,
            ty: ScalarType::Real,
        }))
    }

    /// The variables of `pre(x)`, `edge(b)`, `change(v)`: the argument must name variables.
    fn argument_vars(&mut self, c: &Call<'a, '_>, x: &Arr) -> DResult<Vec<FlatVar>> {
        x.data
            .iter()
            .map(|&v| match self.flat.arena.node(v) {
                Node::Var(id) => Ok(id),
                _ => Err(Box::new(
                    Diagnostic::error("arguments", format!("`{}` needs a variable", c.name))
                        .at(c.arg(0).span, "not a variable"),
                )),
            })
            .collect()
    }

    fn pre_call(&mut self, c: &Call<'a, '_>) -> DResult<Val> {
        if let ast::ExprKind::Ref(r) = &c.arg(0).kind {
            if let Some(at) = self.varying_subscript(r, c.env)? {
                return Err(Box::new(typed::PRE_SUBSCRIPT.broken(
                    at,
                    "a subscript of the argument of `pre` that is not a parameter expression",
                    "here",
                )));
            }
        }
        let x = self.eval_model_vars(c.arg(0), c.env)?;
        let vars = self.argument_vars(c, &x)?;
        if !self.ctx.in_when && x.ty == ScalarType::Real {
            let span = c.e.span;
            self.ctx
                .pre_outside_when
                .extend(vars.iter().map(|&v| (v, span)));
        }
        let data = vars.iter().map(|&id| self.flat.arena.pre(id)).collect();
        Ok(Val::Arr(Arr {
            dims: x.dims,
            data,
            ty: x.ty,
        }))
    }

    /// At an event instant: edge(b) = b and not pre(b), change(v) = v <> pre(v).
    fn edge_change(&mut self, c: &Call<'a, '_>) -> DResult<Val> {
        let x = self.eval_arr(c.arg(0), c.env)?;
        if c.name == "edge" {
            types::boolean(&x, c.arg(0).span, "the argument of `edge`")?;
        }
        let vx = self.eval_model_vars(c.arg(0), c.env)?;
        let vars = self.argument_vars(c, &vx)?;
        let ar = &mut self.flat.arena;
        let data = vars
            .iter()
            .zip(&x.data)
            .map(|(&id, &v)| {
                let p = ar.pre(id);
                if c.name == "edge" {
                    let np = ar.not(p);
                    ar.and(v, np)
                } else {
                    ar.cmp(CmpOp::Ne, v, p)
                }
            })
            .collect();
        Ok(Val::Arr(Arr {
            dims: x.dims,
            data,
            ty: ScalarType::Boolean,
        }))
    }

    /// `homotopy(actual, simplified)` (specification 3.7.4.4): λ·actual + (1 − λ)·simplified
    /// with the model's one homotopy parameter λ ([`FlatModel::homotopy`]), 1 in every plan
    /// (so only `actual` is compiled); the start-time solve continues λ from 0 to 1 where the
    /// model does not solve at the start otherwise. Without `simplified`, `actual`.
    fn homotopy(&mut self, c: &Call<'a, '_>) -> DResult<Val> {
        if let Some((n, _)) = c
            .args
            .named
            .iter()
            .find(|(n, _)| !matches!(&*n.name, "actual" | "simplified"))
        {
            let msg = format!("homotopy has no argument `{}`", n.name);
            return Err(Box::new(typed::HOMOTOPY_NAMES.broken(n.span, msg, "here")));
        }
        let arg = |k: usize, name: &str| {
            c.args.positional.get(k).or_else(|| {
                c.args
                    .named
                    .iter()
                    .find(|(n, _)| &*n.name == name)
                    .map(|(_, x)| x)
            })
        };
        let actual = arg(0, "actual").ok_or_else(|| {
            Box::new(
                Diagnostic::error("arguments", "`homotopy` needs `actual`").at(c.args.span, "here"),
            )
        })?;
        let a = self.eval_arr(actual, c.env)?;
        let Some(simplified) = arg(1, "simplified") else {
            return Ok(Val::Arr(a));
        };
        let s = self.eval_arr(simplified, c.env)?;
        if a.dims != s.dims {
            return Err(Box::new(
                Diagnostic::error(
                    "type",
                    "`homotopy`: `actual` and `simplified` have different sizes",
                )
                .at(c.args.span, "here"),
            ));
        }
        types::numeric_arg(&a, actual.span, "homotopy")?;
        let lambda = self.homotopy_lambda(c.args.span);
        let ar = &mut self.flat.arena;
        let one = ar.constant(1.0);
        let rest = ar.sub(one, lambda);
        let data = a
            .data
            .iter()
            .zip(&s.data)
            .map(|(&x, &y)| {
                if x == y {
                    return x;
                }
                let l = ar.mul(lambda, x);
                let r = ar.mul(rest, y);
                ar.add(l, r)
            })
            .collect();
        Ok(Val::Arr(Arr {
            dims: a.dims,
            data,
            ty: ScalarType::Real,
        }))
    }

    /// The model's homotopy parameter λ (see [`FlatModel::homotopy`]), made at its first use.
    fn homotopy_lambda(&mut self, span: Span) -> ExprId {
        if let Some(v) = self.flat.homotopy {
            return self.flat.arena.var(v);
        }
        let id = FlatVar::new(self.flat.vars.len());
        let one = self.flat.arena.constant(1.0);
        self.flat.vars.push(Variable {
            binding: Some(one),
            description: Some(
                "homotopy parameter: 1 in every step; continued from 0 at the start if needed"
                    .into(),
            ),
            ..Variable::new(
                "homotopy()".into(),
                VarKind::Parameter,
                ScalarType::Real,
                span,
            )
        });
        self.meta.push(VarMeta {
            is_flow: false,
            is_stream: false,
            is_causal: None,
            added: false,
        });
        self.flat.homotopy = Some(id);
        self.flat.arena.var(id)
    }

    /// `sample(start, interval)` in an expression (specification 3.7.5): true at the sample
    /// instants only. It counts the instants in a hidden discrete variable (a when-equation
    /// `when sample(start, interval) then k = pre(k) + 1`, a time event of its own) and reads
    /// as `k <> pre(k)`, which holds at the instant and not after it, as `change` does.
    fn sample_expression(&mut self, c: &Call<'a, '_>) -> DResult<Val> {
        let (start, interval) = self.sample_times(&c.args.positional, c.env, c.args.span)?;
        let id = FlatVar::new(self.flat.vars.len());
        let zero = self.flat.arena.constant(0.0);
        let name = format!(
            "sample({}, {})#{}",
            crate::symbolic::fmt_real_pub(start),
            crate::symbolic::fmt_real_pub(interval),
            id.index()
        );
        self.flat.vars.push(Variable {
            start: Some(zero),
            fixed: Some(true),
            description: Some("sample instants counted (for sample() in an expression)".into()),
            ..Variable::new(name, VarKind::Sampled, ScalarType::Real, c.args.span)
        });
        self.meta.push(VarMeta {
            is_flow: false,
            is_stream: false,
            is_causal: None,
            added: false,
        });
        let ar = &mut self.flat.arena;
        let (v, p, one) = (ar.var(id), ar.pre(id), ar.constant(1.0));
        let next = ar.add(p, one);
        self.flat.whens.push(crate::flat::When {
            condition: zero,
            sample: Some((start, interval)),
            initial: false,
            terminal: false,
            reinits: Vec::new(),
            assigns: vec![(id, next)],
            terminate: None,
            // Not a branch of any when/elsewhen chain.
            chain: (usize::MAX, 0),
            span: c.args.span,
        });
        let fired = self.flat.arena.cmp(CmpOp::Ne, v, p);
        Ok(Val::Arr(Arr {
            dims: Vec::new(),
            data: vec![fired],
            ty: ScalarType::Boolean,
        }))
    }

    /// The argument of `pre`, `edge`, `change`: in a model's algorithm section the variable
    /// itself, not the value the algorithm has computed for it so far.
    fn eval_model_vars(&mut self, e: &'a ast::Expr, env: Env) -> DResult<Arr> {
        if !self.fns.frames.last().is_some_and(|f| f.is_model) {
            return self.eval_arr(e, env);
        }
        let frames = std::mem::take(&mut self.fns.frames);
        let r = self.eval_arr(e, env);
        self.fns.frames = frames;
        r
    }

    /// A call that is not a built-in: a user function or record constructor (not supported
    /// yet), something else, or an unknown name.
    fn not_builtin(&mut self, c: &Call<'a, '_>, target: &'a ast::CallTarget) -> Box<Diagnostic> {
        let (e, name) = (c.e, c.name);
        let what = match target {
            ast::CallTarget::Ref(r) => {
                let n = ref_as_name(r);
                match n.and_then(|n| self.tree.lookup_name(c.env.class, &n)) {
                    Some(Found::Class(k)) => Some(self.tree.info(k).restriction()),
                    _ => None,
                }
            }
            _ => None,
        };
        match what {
            Some(_) => Box::new(
                Diagnostic::error("not-a-function", format!("`{name}` is not a function"))
                    .at(e.span, "called here"),
            ),
            None => {
                let mut cands: Vec<String> =
                    Func1::ALL.iter().map(|f| f.name().to_string()).collect();
                cands.extend(
                    BUILTINS
                        .iter()
                        .flat_map(|b| b.names.iter().map(|s| s.to_string())),
                );
                let mut d = Diagnostic::error("unknown-name", format!("unknown function `{name}`"))
                    .at(e.span, "not a built-in or a function in scope");
                if let Some(s) = suggest(name, &cands) {
                    d = d.help(format!("did you mean `{s}`?"));
                }
                Box::new(d)
            }
        }
    }

    /// The size of an array whose declaration is being instantiated, if `e` names one.
    pub(super) fn pending_size(&self, e: &ast::Expr, env: Env) -> Option<Vec<usize>> {
        let ast::ExprKind::Ref(r) = &e.kind else {
            return None;
        };
        if r.parts.len() != 1 || !r.parts[0].subscripts.is_empty() {
            return None;
        }
        if self.frame_has(&r.parts[0].ident.name, env) {
            // A function's variable: its declared size, assigned or not.
            let top = self.fns.frames.last()?;
            return top.locals[&*r.parts[0].ident.name].dims.clone();
        }
        let node = env.node?;
        let sid = *self.inst.nodes[node.0 as usize]
            .slots
            .get(&r.parts[0].ident.name)?;
        match self.inst.slots[sid.0 as usize].state {
            SlotState::InProgress => self.inst.pending_dims.get(&sid).cloned(),
            _ => None,
        }
    }

    pub(super) fn reduce(&mut self, name: &str, x: &Arr, span: Span) -> DResult<Arr> {
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
    pub(super) fn der_of(&mut self, e: ExprId, span: Span) -> DResult<ExprId> {
        let ar = &self.flat.arena;
        match ar.node(e) {
            Node::Const(_) => Ok(self.flat.arena.constant(0.0)),
            Node::Var(v) => match self.flat.vars[v].kind {
                VarKind::Parameter | VarKind::Constant => Ok(self.flat.arena.constant(0.0)),
                VarKind::Discrete | VarKind::Input => Err(Box::new(
                    Diagnostic::error(
                        "der",
                        format!(
                            "der() of `{}`, which is {}",
                            self.flat.vars[v].name,
                            if self.flat.vars[v].kind == VarKind::Input {
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
}

pub(super) fn ref_as_name(r: &ast::ComponentRef) -> Option<ast::Name> {
    if r.parts.iter().any(|p| !p.subscripts.is_empty()) {
        return None;
    }
    Some(ast::Name {
        global: r.global,
        parts: r.parts.iter().map(|p| p.ident.clone()).collect(),
        span: r.span,
    })
}

/// `smooth(0, noEvent(e))` with `e` defined on both sides of its switches (no square root,
/// logarithm, power of a variable, inverse trigonometric function or division by something
/// that varies): `e` itself, so that its relations are events after all. The function is
/// continuous where it switches (`smooth(0, …)` says so), so an event there changes nothing
/// but where the step is split; and it keeps Newton on one branch at a time — a saturating
/// amplifier's steep linear range between two limits (the MSL's `IdealizedOpAmpLimited` with
/// `strict = true`) otherwise sends Newton's iterates from one limit to the other and back.
fn events_in_continuous(ar: &mut crate::symbolic::Arena<FlatVar>, x: ExprId) -> ExprId {
    let Node::NoEvent(e) = ar.node(x) else {
        return x;
    };
    let mut safe = true;
    let mut seen = vec![false; ar.len()];
    ar.visit_postorder(e, &mut seen, &mut |id| match ar.node(id) {
        Node::Call1(
            Func1::Sqrt
            | Func1::Log
            | Func1::Log10
            | Func1::Asin
            | Func1::Acos
            | Func1::Tan
            | Func1::Ext(_),
            _,
        )
        | Node::Call2(..)
        | Node::Call(..) => safe = false,
        Node::Pow(_, p) if ar.as_const(p).is_none_or(|k| k.fract() != 0.0 || k < 0.0) => {
            safe = false
        }
        Node::Div(_, d) if ar.as_const(d).is_none() => safe = false,
        _ => {}
    });
    if safe {
        e
    } else {
        x
    }
}
