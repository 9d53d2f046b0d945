//! The Modelica Standard Library's tables (`Modelica.Blocks.Tables.CombiTable1Ds/1Dv`,
//! `Modelica.Blocks.Sources.CombiTimeTable` and the blocks built on them) without their C code.
//!
//! The MSL declares its tables as external objects (`ExternalCombiTable1D`,
//! `ExternalCombiTimeTable`, specification 12.9.7) whose constructor and lookups are C
//! functions of `ModelicaStandardTables`. rtc recognises those functions by name: the object
//! is the record of its constructor's arguments (the table matrix, the columns, smoothness and
//! extrapolation), and a lookup becomes an expression: a chain over the table rows, so its work
//! is bounded by the row count and counted in the plan like any other expression, and the
//! Jacobian through it is exact. The values are those of the C library (`Flattener::lookup`
//! states them): constant and linear segments with jumps at repeated abscissae, the cubic
//! Hermite splines with Akima's slopes (`ContinuousDerivative`, Akima 1970), the modified
//! Akima slopes, and the monotone slopes of Fritsch and Butland (1984) and Steffen (1990),
//! every extrapolation, `startTime` and `shiftTime`; tables read from files are refused with
//! a diagnostic.
//!
//! A 1-D table of an input `u` generates no events (its relations are `noEvent`, as the C
//! tables do). A time table's breakpoints are relations of time alone, which rtc makes time
//! events (except with periodic extrapolation), so steps land on them.

use super::*;

/// The C functions rtc provides itself.
pub(super) fn is_table_function(name: &str) -> bool {
    name.starts_with("ModelicaStandardTables_CombiTable1D_")
        || name.starts_with("ModelicaStandardTables_CombiTimeTable_")
}

/// Whether `class` is declared `extends ExternalObject` (specification 12.9.7).
pub(super) fn is_external_object(tree: &ClassTree<'_>, class: ClassId) -> bool {
    tree.info(class).composition().is_some_and(|c| {
        c.elements.iter().any(
            |e| matches!(e, ast::Element::Extends(x) if x.base.to_dotted() == "ExternalObject"),
        )
    })
}

/// What a table object holds, read from its record.
struct Table {
    /// Rows of (abscissa, ordinates…).
    rows: usize,
    cols: usize,
    data: Vec<ExprId>,
    columns: Vec<usize>,
    smoothness: String,
    extrapolation: String,
    start_time: Option<ExprId>,
    shift_time: Option<ExprId>,
}

impl<'t, 'a> Flattener<'t, 'a> {
    /// `ExternalCombiTable1D(…)`: the object is the record of the constructor's inputs.
    pub(super) fn external_object(
        &mut self,
        class: ClassId,
        args: &'a ast::CallArgs,
        env: Env,
        span: Span,
    ) -> DResult<Val> {
        let name = self.tree.info(class).full_name.clone();
        let ctor = match self.tree.member(class, "constructor", 0) {
            Some(Found::Class(c)) => c,
            _ => {
                return Err(Box::new(
                    Diagnostic::error(
                        "external",
                        format!("external object `{name}` has no constructor"),
                    )
                    .at(span, "here"),
                ))
            }
        };
        let mut def = self.function_def(ctor, span)?;
        let provided = def
            .external
            .and_then(|(x, _)| x.function.as_ref())
            .is_some_and(|f| is_table_function(&f.name));
        // A table read from a file (the C library reads it) and any other external object:
        // the library's constructor, called now (`external.rs`).
        if !provided || self.fns.c_tables || self.c_table_file(args, env)? {
            return self.c_object(ctor, args, env, span);
        }
        def.params.retain(|p| p.is_input);
        def.external = None;
        def.record = true;
        let r = self.execute_isolated(&def, args, env, span);
        let Some(Val::Record(rv)) = r?.pop() else {
            return Err(Box::new(
                Diagnostic::error("internal", "table object").at(span, "here"),
            ));
        };
        if let Some(Val::Str(f)) = rv.field("fileName") {
            if f != "NoName" {
                return Err(self.unsupported(
                    span,
                    &format!("tables read from files (`{f}`); give the table in the model (tableOnFile = false)"),
                ));
            }
        }
        Ok(Val::Record(Rc::new(RecordVal {
            class,
            name,
            dims: Vec::new(),
            fields: rv.fields.clone(),
        })))
    }

    /// Whether a table constructor's `fileName` argument (named, or the second) names a file
    /// rather than `"NoName"`.
    fn c_table_file(&mut self, args: &'a ast::CallArgs, env: Env) -> DResult<bool> {
        let e = args
            .named
            .iter()
            .find(|(n, _)| &*n.name == "fileName")
            .map(|(_, e)| e)
            .or(args.positional.get(1));
        let Some(e) = e else {
            return Ok(false);
        };
        Ok(matches!(self.eval(e, env)?, Val::Str(f) if f != "NoName"))
    }

    /// An external object made by its library's constructor, called on the arguments now.
    fn c_object(
        &mut self,
        ctor: ClassId,
        args: &'a ast::CallArgs,
        env: Env,
        span: Span,
    ) -> DResult<Val> {
        let def = self.function_def(ctor, span)?;
        let r = self.execute_isolated(&def, args, env, span);
        match r?.pop() {
            Some(v @ Val::Record(_)) => Ok(v),
            _ => Err(Box::new(
                Diagnostic::error(
                    "external",
                    "the constructor of an external object gives no object",
                )
                .at(span, "here"),
            )),
        }
    }

    /// A `ModelicaStandardTables_…` call with the external clause's arguments.
    pub(super) fn table_function(
        &mut self,
        fname: &str,
        args: &[Val],
        span: Span,
    ) -> DResult<ExprId> {
        let Some(Val::Record(obj)) = args.first() else {
            return Err(Box::new(
                Diagnostic::error("external", format!("`{fname}` needs a table object"))
                    .at(span, "here"),
            ));
        };
        let t = self.table_of(obj, span)?;
        let scalar = |k: usize| -> DResult<ExprId> {
            match args.get(k) {
                Some(Val::Arr(a)) if a.is_scalar() => Ok(a.data[0]),
                _ => Err(Box::new(
                    Diagnostic::error(
                        "external",
                        format!("`{fname}`: argument {} is not a scalar", k + 1),
                    )
                    .at(span, "here"),
                )),
            }
        };
        let op = fname.rsplit('_').next().unwrap_or("");
        let is_time = fname.contains("CombiTimeTable");
        match op {
            "minimumAbscissa" | "minimumTime" => Ok(t.data[0]),
            "maximumAbscissa" | "maximumTime" => Ok(t.data[(t.rows - 1) * t.cols]),
            // No time events of the table's own: its breakpoints are time events already.
            "nextTimeEvent" => Ok(self.flat.arena.constant(f64::MAX)),
            "getValue" => {
                let icol = scalar(1)?;
                let Some(i) = self.fold(icol) else {
                    return Err(Box::new(
                        Diagnostic::error(
                            "external",
                            "a table column that changes during simulation",
                        )
                        .at(span, "here"),
                    ));
                };
                let i = i as usize;
                let Some(&col) = i.checked_sub(1).and_then(|k| t.columns.get(k)) else {
                    return Err(Box::new(
                        Diagnostic::error(
                            "index",
                            format!("table output {i} of {}", t.columns.len()),
                        )
                        .at(span, "here"),
                    ));
                };
                if col < 2 || col > t.cols {
                    return Err(Box::new(
                        Diagnostic::error(
                            "index",
                            format!("table column {col} is outside 2..{} of the table", t.cols),
                        )
                        .at(span, "columns"),
                    ));
                }
                let u = scalar(2)?;
                if is_time {
                    self.time_lookup(&t, col - 1, u, span)
                } else {
                    self.lookup(&t, col - 1, u, false, span)
                }
            }
            _ => Err(self.unsupported(span, &format!("the table function `{fname}`"))),
        }
    }

    /// `ModelicaStrings_length`, `_skipWhiteSpace`, `_substring`, `_compare` of the MSL's C
    /// string functions (`Modelica.Utilities.Strings`), evaluated at compile time.
    pub(super) fn string_function(
        &mut self,
        fname: &str,
        args: &[Val],
        span: Span,
    ) -> DResult<Val> {
        let refuse = |s: &Self| {
            s.unsupported(
                span,
                &format!("`{fname}` (C string functions other than length, skipWhiteSpace, substring and compare, or on values that change)"),
            )
        };
        let int = |s: &mut Self, k: usize| -> Option<i64> {
            match args.get(k) {
                Some(Val::Arr(a)) => a.as_scalar().and_then(|x| s.fold(x)).map(|v| v as i64),
                _ => None,
            }
        };
        let Some(Val::Str(text)) = args.first() else {
            return Err(refuse(self));
        };
        let chars: Vec<char> = text.chars().collect();
        let integer = |s: &mut Self, v: i64| {
            Val::Arr(Arr::scalar(
                s.flat.arena.constant(v as f64),
                ScalarType::Integer,
            ))
        };
        match fname {
            "ModelicaStrings_length" => Ok(integer(self, chars.len() as i64)),
            "ModelicaStrings_skipWhiteSpace" => {
                let start = int(self, 1).unwrap_or(1).max(1) as usize;
                let mut k = start;
                while k <= chars.len() && chars[k - 1].is_whitespace() {
                    k += 1;
                }
                Ok(integer(self, k as i64))
            }
            "ModelicaStrings_substring" => {
                let (Some(a), Some(b)) = (int(self, 1), int(self, 2)) else {
                    return Err(refuse(self));
                };
                let a = a.max(1) as usize;
                let b = (b.max(0) as usize).min(chars.len());
                let sub: String = if a <= b {
                    chars[a - 1..b].iter().collect()
                } else {
                    String::new()
                };
                Ok(Val::Str(sub))
            }
            "ModelicaStrings_compare" => {
                let Some(Val::Str(other)) = args.get(1) else {
                    return Err(refuse(self));
                };
                let case = int(self, 2).unwrap_or(1) != 0;
                let (x, y) = if case {
                    (text.clone(), other.clone())
                } else {
                    (text.to_lowercase(), other.to_lowercase())
                };
                // Modelica.Utilities.Types.Compare: Less, Equal, Greater.
                let v = match x.cmp(&y) {
                    std::cmp::Ordering::Less => 1,
                    std::cmp::Ordering::Equal => 2,
                    std::cmp::Ordering::Greater => 3,
                };
                Ok(integer(self, v))
            }
            _ => Err(refuse(self)),
        }
    }

    fn table_of(&mut self, obj: &RecordVal, span: Span) -> DResult<Table> {
        let Some(Val::Arr(table)) = obj.field("table") else {
            return Err(Box::new(
                Diagnostic::error("external", "a table object without a table").at(span, "here"),
            ));
        };
        if table.dims.len() != 2 || table.dims[0] == 0 || table.dims[1] < 2 {
            return Err(Box::new(
                Diagnostic::error(
                    "size",
                    format!(
                        "a table needs at least one row and two columns, not {}",
                        dims_text(&table.dims)
                    ),
                )
                .at(span, "table"),
            ));
        }
        let mut columns = Vec::new();
        if let Some(Val::Arr(c)) = obj.field("columns") {
            for &x in &c.data {
                match self.fold(x) {
                    Some(v) if v >= 1.0 => columns.push(v as usize),
                    _ => {
                        return Err(Box::new(
                            Diagnostic::error(
                                "external",
                                "table columns must be known at compile time",
                            )
                            .at(span, "columns"),
                        ))
                    }
                }
            }
        }
        let name_of = |s: &mut Self, field: &str| -> Option<String> {
            match obj.field(field) {
                Some(Val::Arr(a)) => match (a.ty, a.as_scalar().and_then(|x| s.fold(x))) {
                    (ScalarType::Enum(e), Some(v)) => s.enum_literal_name(e, v),
                    _ => None,
                },
                _ => None,
            }
        };
        let smoothness = name_of(self, "smoothness").unwrap_or_else(|| "LinearSegments".into());
        let extrapolation =
            name_of(self, "extrapolation").unwrap_or_else(|| "LastTwoPoints".into());
        if !matches!(
            smoothness.as_str(),
            "LinearSegments"
                | "ConstantSegments"
                | "ContinuousDerivative"
                | "ModifiedContinuousDerivative"
                | "MonotoneContinuousDerivative1"
                | "MonotoneContinuousDerivative2"
        ) {
            return Err(Box::new(
                Diagnostic::error(
                    "external",
                    format!("unknown table smoothness `{smoothness}`"),
                )
                .at(span, "smoothness"),
            ));
        }
        let scalar_field = |f: &str| match obj.field(f) {
            Some(Val::Arr(a)) => a.as_scalar(),
            _ => None,
        };
        Ok(Table {
            rows: table.dims[0],
            cols: table.dims[1],
            data: table.data.clone(),
            columns,
            smoothness,
            extrapolation,
            start_time: scalar_field("startTime"),
            shift_time: scalar_field("shiftTime"),
        })
    }

    /// The table's column `col` (0-based) at `u`, as `ModelicaStandardTables` defines it: a
    /// chain over the rows, so its work is bounded by the row count.
    ///
    /// Inside the table, the piece of row k covers `x_k ≤ u < x_{k+1}` (right-continuous: at a
    /// repeated abscissa, a jump, the value is the later row's); `ConstantSegments` gives y_k,
    /// `LinearSegments` the line through rows k and k+1, the splines their cubic Hermite
    /// polynomial. From `u ≥ x_{n-1}` (the same value at `u = x_{n-1}` for every piece), and below
    /// `x_0`, the extrapolation: `HoldLastPoint` the end row's value; `LastTwoPoints` the line
    /// through the two end rows — for constant segments too, and the end row's value where those
    /// two share their abscissa —, or for the splines the line with the end slope; `Periodic`
    /// wraps `u` into `[x_0, x_{n-1})` (a 1-D table as its C code: only from outside
    /// `[x_0, x_{n-1}]`, from above onto `(x_0, x_{n-1}]`); `NoExtrapolation` is an assertion. A time table's
    /// relations are time events (except periodic ones); a 1-D table's are `noEvent`, as the C
    /// tables generate no events.
    fn lookup(
        &mut self,
        t: &Table,
        col: usize,
        u: ExprId,
        time: bool,
        span: Span,
    ) -> DResult<ExprId> {
        let x = |k: usize| t.data[k * t.cols];
        let y = |k: usize| t.data[k * t.cols + col];
        let n = t.rows;
        if n == 1 {
            return Ok(y(0));
        }
        // The abscissae where they are known: a piece of zero length (a jump) is left out.
        let xs: Option<Vec<f64>> = (0..n).map(|k| self.fold(x(k))).collect();
        let same = |a: usize, b: usize| xs.as_ref().is_some_and(|v| v[a] == v[b]);
        let periodic = t.extrapolation == "Periodic";
        let no_event = !time || periodic;
        let spline =
            n > 2 && t.smoothness != "LinearSegments" && t.smoothness != "ConstantSegments";
        let slopes = if spline {
            let (xv, yv): (Vec<ExprId>, Vec<ExprId>) = (0..n).map(|k| (x(k), y(k))).unzip();
            Some(self.spline_slopes(&xv, &yv, &t.smoothness))
        } else {
            None
        };
        let ar = &mut self.flat.arena;
        let guard = |ar: &mut crate::symbolic::Arena<FlatVar>, c: ExprId| {
            if no_event {
                ar.no_event(c)
            } else {
                c
            }
        };
        let u = match t.extrapolation.as_str() {
            "Periodic" => {
                let period = ar.sub(x(n - 1), x(0));
                let d = ar.sub(u, x(0));
                let m = ar.call2(Func2::Mod, d, period);
                let m = ar.no_event(m);
                let wrapped = ar.add(x(0), m);
                if time {
                    wrapped
                } else {
                    // The C 1-D table wraps only from outside [x_0, x_{n-1}] (both ends
                    // kept), and from above onto (x_0, x_{n-1}]: a multiple of the period
                    // above lands on x_{n-1}.
                    let lo = ar.cmp(CmpOp::Ge, u, x(0));
                    let hi = ar.cmp(CmpOp::Le, u, x(n - 1));
                    let inside = ar.and(lo, hi);
                    let inside = ar.no_event(inside);
                    let above = ar.cmp(CmpOp::Gt, u, x(n - 1));
                    let zero = ar.constant(0.0);
                    let on_period = ar.cmp(CmpOp::Eq, m, zero);
                    let top = ar.and(above, on_period);
                    let top = ar.no_event(top);
                    let outside = ar.if_(top, x(n - 1), wrapped);
                    ar.if_(inside, u, outside)
                }
            }
            "NoExtrapolation" => {
                let lo = ar.cmp(CmpOp::Ge, u, x(0));
                let hi = ar.cmp(CmpOp::Le, u, x(n - 1));
                let inside = ar.and(lo, hi);
                let inside = ar.no_event(inside);
                self.flat.assertions.push(Assertion {
                    condition: inside,
                    message: "table lookup outside the table's abscissa range (extrapolation = NoExtrapolation)".into(),
                    span,
                    warning: false,
                });
                u
            }
            _ => u,
        };
        // The line through rows k and k + 1.
        let line = |ar: &mut crate::symbolic::Arena<FlatVar>, k: usize| {
            let dy = ar.sub(y(k + 1), y(k));
            let dx = ar.sub(x(k + 1), x(k));
            let du = ar.sub(u, x(k));
            let s = ar.mul(dy, du);
            let s = ar.div(s, dx);
            ar.add(y(k), s)
        };
        // The line through row k with slope s.
        let tangent = |ar: &mut crate::symbolic::Arena<FlatVar>, k: usize, s: ExprId| {
            let du = ar.sub(u, x(k));
            let d = ar.mul(s, du);
            ar.add(y(k), d)
        };
        let piece = |ar: &mut crate::symbolic::Arena<FlatVar>, k: usize| match &slopes {
            Some(sl) => hermite(
                ar,
                (x(k), x(k + 1)),
                (y(k), y(k + 1)),
                (sl[k], sl[k + 1]),
                u,
            ),
            None if t.smoothness == "ConstantSegments" => y(k),
            None => line(ar, k),
        };
        let right = match (t.extrapolation.as_str(), &slopes) {
            ("LastTwoPoints", Some(sl)) => tangent(ar, n - 1, sl[n - 1]),
            ("LastTwoPoints", None) if !same(n - 2, n - 1) => line(ar, n - 2),
            _ => y(n - 1),
        };
        let left = match (t.extrapolation.as_str(), &slopes) {
            ("LastTwoPoints", Some(sl)) => tangent(ar, 0, sl[0]),
            ("LastTwoPoints", None) if !same(0, 1) => line(ar, 0),
            ("NoExtrapolation", _) => piece(ar, 0),
            _ => y(0),
        };
        let mut result = right;
        for k in (0..n - 1).rev() {
            if same(k, k + 1) {
                continue;
            }
            // A 1-D table's C code keeps `u = x_{n-1}` in the last interval (its derivative
            // is that interval's slope, not the extrapolation's); constant segments give the
            // last row's value there either way.
            let last = k == n - 2 && !time && t.smoothness != "ConstantSegments";
            let op = if last { CmpOp::Le } else { CmpOp::Lt };
            let below = ar.cmp(op, u, x(k + 1));
            let below = guard(ar, below);
            let p = piece(ar, k);
            result = ar.if_(below, p, result);
        }
        let before = ar.cmp(CmpOp::Lt, u, x(0));
        let before = guard(ar, before);
        Ok(ar.if_(before, left, result))
    }

    /// The slope at each of the points `(xs, ys)` (at least three) of the table's spline, as
    /// `ModelicaStandardTables` computes it, with d_k the secant of interval k:
    ///
    /// - `ContinuousDerivative` (Akima 1970): two more secants continued linearly beyond each
    ///   end (d_{-1} = 2d_0 − d_1, d_{-2} = 3d_0 − 2d_1, the same at the right), and
    ///   t_i = (w_1·d_{i−1} + w_2·d_i)/(w_1 + w_2) with w_1 = |d_{i+1} − d_i|,
    ///   w_2 = |d_{i−1} − d_{i−2}| (the mean of d_{i−1} and d_i where both weights vanish);
    /// - `ModifiedContinuousDerivative` (modified Akima): the weights add |d_{i+1} + d_i|/2 and
    ///   |d_{i−1} + d_{i−2}|/2, and the slope is 0 where both vanish;
    /// - `MonotoneContinuousDerivative1` (Fritsch and Butland 1984) and
    ///   `MonotoneContinuousDerivative2` (Steffen 1990): the end slopes are the end secants; an
    ///   inner point where the secants change sign or one is zero gets slope 0; otherwise
    ///   Fritsch–Butland's weighted harmonic mean 3(h_{i−1} + h_i)/((h_{i−1} + 2h_i)/d_{i−1} +
    ///   (h_i + 2h_{i−1})/d_i), or Steffen's weighted mean (d_{i−1}h_i + d_ih_{i−1})/(h_{i−1} + h_i)
    ///   limited to 2·min(|d_{i−1}|, |d_i|) in magnitude.
    ///
    /// Expressions of the table's values (parameters), so they are computed once.
    fn spline_slopes(&mut self, xs: &[ExprId], ys: &[ExprId], smoothness: &str) -> Vec<ExprId> {
        let n = xs.len();
        let ar = &mut self.flat.arena;
        let h: Vec<ExprId> = (0..n - 1).map(|k| ar.sub(xs[k + 1], xs[k])).collect();
        let sec: Vec<ExprId> = (0..n - 1)
            .map(|k| {
                let dy = ar.sub(ys[k + 1], ys[k]);
                ar.div(dy, h[k])
            })
            .collect();
        let zero = ar.constant(0.0);
        let (half, two, three) = (ar.constant(0.5), ar.constant(2.0), ar.constant(3.0));
        let positive = |ar: &mut crate::symbolic::Arena<FlatVar>, e: ExprId| {
            let c = ar.cmp(CmpOp::Gt, e, zero);
            ar.no_event(c)
        };
        if smoothness.starts_with("Monotone") {
            let steffen = smoothness.ends_with('2');
            let mut out = vec![sec[0]];
            for i in 1..n - 1 {
                let (dl, dr, hl, hr) = (sec[i - 1], sec[i], h[i - 1], h[i]);
                let same_sign = ar.mul(dl, dr);
                let same_sign = positive(ar, same_sign);
                let inner = if steffen {
                    let a = ar.mul(dl, hr);
                    let b = ar.mul(dr, hl);
                    let num = ar.add(a, b);
                    let den = ar.add(hl, hr);
                    let c = ar.div(num, den);
                    let abs_c = ar.call1(Func1::Abs, c);
                    let half_c = ar.mul(half, abs_c);
                    let (al, arr) = (ar.call1(Func1::Abs, dl), ar.call1(Func1::Abs, dr));
                    let over_l = ar.cmp(CmpOp::Gt, half_c, al);
                    let over_r = ar.cmp(CmpOp::Gt, half_c, arr);
                    let over = ar.or(over_l, over_r);
                    let over = ar.no_event(over);
                    let m = ar.call2(Func2::Min, al, arr);
                    let m = ar.mul(two, m);
                    let up = positive(ar, dl);
                    let neg = ar.neg(m);
                    let limited = ar.if_(up, m, neg);
                    ar.if_(over, limited, c)
                } else {
                    let sum = ar.add(hl, hr);
                    let num = ar.mul(three, sum);
                    let a = ar.mul(two, hr);
                    let a = ar.add(hl, a);
                    let a = ar.div(a, dl);
                    let b = ar.mul(two, hl);
                    let b = ar.add(hr, b);
                    let b = ar.div(b, dr);
                    let den = ar.add(a, b);
                    ar.div(num, den)
                };
                out.push(ar.if_(same_sign, inner, zero));
            }
            out.push(sec[n - 2]);
            return out;
        }
        let modified = smoothness == "ModifiedContinuousDerivative";
        // d[k + 2] = d_k for k = 0..n-2, two continued secants at each end.
        let mut d: Vec<ExprId> = Vec::with_capacity(n + 3);
        let lin =
            |ar: &mut crate::symbolic::Arena<FlatVar>, a: ExprId, ka: f64, b: ExprId, kb: f64| {
                let ka = ar.constant(ka);
                let kb = ar.constant(kb);
                let p = ar.mul(ka, a);
                let q = ar.mul(kb, b);
                ar.sub(p, q)
            };
        d.push(lin(ar, sec[0], 3.0, sec[1], 2.0));
        d.push(lin(ar, sec[0], 2.0, sec[1], 1.0));
        d.extend(sec.iter().copied());
        d.push(lin(ar, sec[n - 2], 2.0, sec[n - 3], 1.0));
        d.push(lin(ar, sec[n - 2], 3.0, sec[n - 3], 2.0));
        let weight = |ar: &mut crate::symbolic::Arena<FlatVar>, p: ExprId, q: ExprId| {
            let diff = ar.sub(p, q);
            let w = ar.call1(Func1::Abs, diff);
            if modified {
                let sum = ar.add(p, q);
                let s = ar.call1(Func1::Abs, sum);
                let s = ar.mul(half, s);
                ar.add(w, s)
            } else {
                w
            }
        };
        (0..n)
            .map(|i| {
                let w1 = weight(ar, d[i + 3], d[i + 2]);
                let w2 = weight(ar, d[i + 1], d[i]);
                let den = ar.add(w1, w2);
                let num1 = ar.mul(w1, d[i + 1]);
                let num2 = ar.mul(w2, d[i + 2]);
                let num = ar.add(num1, num2);
                let q = ar.div(num, den);
                let fallback = if modified {
                    zero
                } else {
                    let mean = ar.add(d[i + 1], d[i + 2]);
                    ar.mul(half, mean)
                };
                let pos = positive(ar, den);
                ar.if_(pos, q, fallback)
            })
            .collect()
    }

    /// A time table at time `time`: zero before `startTime`, the table at `time − shiftTime`.
    fn time_lookup(&mut self, t: &Table, col: usize, time: ExprId, span: Span) -> DResult<ExprId> {
        let shifted = match t.shift_time {
            Some(s) => self.flat.arena.sub(time, s),
            None => time,
        };
        let v = self.lookup(t, col, shifted, true, span)?;
        Ok(match t.start_time {
            Some(s) => {
                let ar = &mut self.flat.arena;
                let before = ar.cmp(CmpOp::Lt, time, s);
                let zero = ar.constant(0.0);
                ar.if_(before, zero, v)
            }
            None => v,
        })
    }
}

/// The cubic Hermite polynomial on `[x0, x1]` through `y0`, `y1` with slopes `s0`, `s1`, at `u`:
/// y0 + ((c0·v + c1)·v + s0)·v with v = u − x0, c1 = (3d − 2s0 − s1)/h, c0 = (s0 + s1 − 2d)/h²,
/// d the secant and h = x1 − x0 (the coefficients `ModelicaStandardTables` stores).
fn hermite(
    ar: &mut crate::symbolic::Arena<FlatVar>,
    (x0, x1): (ExprId, ExprId),
    (y0, y1): (ExprId, ExprId),
    (s0, s1): (ExprId, ExprId),
    u: ExprId,
) -> ExprId {
    let h = ar.sub(x1, x0);
    let dy = ar.sub(y1, y0);
    let d = ar.div(dy, h);
    let three = ar.constant(3.0);
    let two = ar.constant(2.0);
    let d3 = ar.mul(three, d);
    let s02 = ar.mul(two, s0);
    let c1 = ar.sub(d3, s02);
    let c1 = ar.sub(c1, s1);
    let c1 = ar.div(c1, h);
    let d2 = ar.mul(two, d);
    let c0 = ar.add(s0, s1);
    let c0 = ar.sub(c0, d2);
    let h2 = ar.mul(h, h);
    let c0 = ar.div(c0, h2);
    let v = ar.sub(u, x0);
    let p = ar.mul(c0, v);
    let p = ar.add(p, c1);
    let p = ar.mul(p, v);
    let p = ar.add(p, s0);
    let p = ar.mul(p, v);
    ar.add(y0, p)
}
