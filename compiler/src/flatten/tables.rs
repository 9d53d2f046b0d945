//! The Modelica Standard Library's tables (`Modelica.Blocks.Tables.CombiTable1Ds/1Dv`,
//! `Modelica.Blocks.Sources.CombiTimeTable` and the blocks built on them) without their C code.
//!
//! The MSL declares its tables as external objects (`ExternalCombiTable1D`,
//! `ExternalCombiTimeTable`, specification 12.9.7) whose constructor and lookups are C
//! functions of `ModelicaStandardTables`. rtc recognises those functions by name: the object
//! is the record of its constructor's arguments (the table matrix, the columns, smoothness and
//! extrapolation), and a lookup becomes an expression: a chain over the table rows, so its work
//! is bounded by the row count and counted in the plan like any other expression, and the
//! Jacobian through it is exact. Linear and constant segments, and the C¹ cubic Hermite
//! splines with Akima's slopes (`ContinuousDerivative`, Akima 1970: the slope at each point a
//! weighted mean of its neighbouring secants, two secants extrapolated linearly beyond each
//! end) and the modified Akima slopes (`ModifiedContinuousDerivative`), are supported with
//! every extrapolation (beyond the ends, `LastTwoPoints` continues with the end point's slope);
//! the monotone splines and tables read from files are refused with a diagnostic.
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
        if !provided {
            return Err(self.unsupported(
                span,
                &format!("the external object `{name}` (its constructor calls C code rtc does not provide)"),
            ));
        }
        def.params.retain(|p| p.is_input);
        def.external = None;
        def.record = true;
        let mut a = functions::Args {
            positional: Vec::new(),
            named: Vec::new(),
        };
        for e in &args.positional {
            a.positional.push((self.eval(e, env)?, e.span));
        }
        for (n, e) in &args.named {
            a.named.push((n, self.eval(e, env)?, e.span));
        }
        let saved_loops = std::mem::take(&mut self.loop_vars);
        let saved_end = std::mem::take(&mut self.end_stack);
        let r = self.execute_function(&def, a, span);
        self.loop_vars = saved_loops;
        self.end_stack = saved_end;
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
                    self.lookup(&t, col - 1, u, true, span)
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
        ) {
            return Err(self.unsupported(
                span,
                &format!("table smoothness `{smoothness}` (the monotone splines; LinearSegments, ConstantSegments, ContinuousDerivative and ModifiedContinuousDerivative are)"),
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

    /// The table's column `col` (0-based) at `u`: a chain over the rows from the top.
    fn lookup(
        &mut self,
        t: &Table,
        col: usize,
        u: ExprId,
        no_event: bool,
        span: Span,
    ) -> DResult<ExprId> {
        let x = |k: usize| t.data[k * t.cols];
        let y = |k: usize| t.data[k * t.cols + col];
        let n = t.rows;
        let ar = &mut self.flat.arena;
        if n == 1 {
            return Ok(y(0));
        }
        let guard = |ar: &mut crate::symbolic::Arena<FlatVar>, c: ExprId| {
            if no_event {
                ar.no_event(c)
            } else {
                c
            }
        };
        // The abscissa actually looked up.
        let u = match t.extrapolation.as_str() {
            "HoldLastPoint" => {
                let lo = ar.call2(Func2::Max, u, x(0));
                ar.call2(Func2::Min, lo, x(n - 1))
            }
            "Periodic" => {
                let period = ar.sub(x(n - 1), x(0));
                let d = ar.sub(u, x(0));
                let m = ar.call2(Func2::Mod, d, period);
                let m = ar.no_event(m);
                ar.add(x(0), m)
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
        if n > 2
            && matches!(
                t.smoothness.as_str(),
                "ContinuousDerivative" | "ModifiedContinuousDerivative"
            )
        {
            return Ok(self.spline_lookup(t, col, u, no_event));
        }
        let ar = &mut self.flat.arena;
        let constant = t.smoothness == "ConstantSegments";
        // Segment k (0-based) covers [x(k), x(k+1)); the last one also everything above it
        // and the first everything below (LastTwoPoints extrapolation).
        let segment = |ar: &mut crate::symbolic::Arena<FlatVar>, k: usize| {
            if constant {
                return y(k);
            }
            let dy = ar.sub(y(k + 1), y(k));
            let dx = ar.sub(x(k + 1), x(k));
            let du = ar.sub(u, x(k));
            let s = ar.mul(dy, du);
            let s = ar.div(s, dx);
            ar.add(y(k), s)
        };
        let mut result = if constant {
            // At and above the last point: its value.
            let above = ar.cmp(CmpOp::Ge, u, x(n - 1));
            let above = guard(ar, above);
            ar.if_(above, y(n - 1), y(n - 2))
        } else {
            segment(ar, n - 2)
        };
        for k in (0..n - 2).rev() {
            let below = ar.cmp(CmpOp::Lt, u, x(k + 1));
            let below = guard(ar, below);
            let s = segment(ar, k);
            result = ar.if_(below, s, result);
        }
        Ok(result)
    }

    /// The Akima spline through column `col` at `u` (at least three rows): on each interval
    /// the cubic Hermite polynomial with the slopes of [`Flattener::akima_slopes`], beyond the
    /// ends the line through the end point with its slope.
    fn spline_lookup(&mut self, t: &Table, col: usize, u: ExprId, no_event: bool) -> ExprId {
        let x = |k: usize| t.data[k * t.cols];
        let y = |k: usize| t.data[k * t.cols + col];
        let n = t.rows;
        let modified = t.smoothness == "ModifiedContinuousDerivative";
        let slopes = self.akima_slopes(
            &(0..n).map(x).collect::<Vec<_>>(),
            &(0..n).map(y).collect::<Vec<_>>(),
            modified,
        );
        let ar = &mut self.flat.arena;
        let guard = |ar: &mut crate::symbolic::Arena<FlatVar>, c: ExprId| {
            if no_event {
                ar.no_event(c)
            } else {
                c
            }
        };
        // y_k + ((c0·v + c1)·v + c2)·v, v = u − x_k: c2 = t_k, c1 = (3s − 2t_k − t_{k+1})/dx,
        // c0 = (t_k + t_{k+1} − 2s)/dx², s the secant.
        let cubic = |ar: &mut crate::symbolic::Arena<FlatVar>, k: usize| {
            let dx = ar.sub(x(k + 1), x(k));
            let dy = ar.sub(y(k + 1), y(k));
            let sec = ar.div(dy, dx);
            let (t0, t1) = (slopes[k], slopes[k + 1]);
            let three = ar.constant(3.0);
            let two = ar.constant(2.0);
            let s3 = ar.mul(three, sec);
            let t02 = ar.mul(two, t0);
            let c1n = ar.sub(s3, t02);
            let c1n = ar.sub(c1n, t1);
            let c1 = ar.div(c1n, dx);
            let s2 = ar.mul(two, sec);
            let c0n = ar.add(t0, t1);
            let c0n = ar.sub(c0n, s2);
            let dx2 = ar.mul(dx, dx);
            let c0 = ar.div(c0n, dx2);
            let v = ar.sub(u, x(k));
            let p = ar.mul(c0, v);
            let p = ar.add(p, c1);
            let p = ar.mul(p, v);
            let p = ar.add(p, t0);
            let p = ar.mul(p, v);
            ar.add(y(k), p)
        };
        let line = |ar: &mut crate::symbolic::Arena<FlatVar>, k: usize| {
            let v = ar.sub(u, x(k));
            let d = ar.mul(slopes[k], v);
            ar.add(y(k), d)
        };
        let above = ar.cmp(CmpOp::Gt, u, x(n - 1));
        let above = guard(ar, above);
        let last = cubic(ar, n - 2);
        let end = line(ar, n - 1);
        let mut result = ar.if_(above, end, last);
        for k in (0..n - 2).rev() {
            let below = ar.cmp(CmpOp::Lt, u, x(k + 1));
            let below = guard(ar, below);
            let c = cubic(ar, k);
            result = ar.if_(below, c, result);
        }
        let before = ar.cmp(CmpOp::Lt, u, x(0));
        let before = guard(ar, before);
        let start = line(ar, 0);
        ar.if_(before, start, result)
    }

    /// Akima's slope at each of the points `(xs, ys)` (Akima 1970): the secants m_k, two more
    /// beyond each end continued linearly (m_{-1} = 2m_0 − m_1, m_{-2} = 3m_0 − 2m_1, and the
    /// same at the right), and t_i = (w_1·m_{i−1} + w_2·m_i)/(w_1 + w_2) with
    /// w_1 = |m_{i+1} − m_i|, w_2 = |m_{i−1} − m_{i−2}| (the mean of the two where both weights
    /// vanish); the modified Akima weights add |m_{i+1} + m_i|/2 and |m_{i−1} + m_{i−2}|/2.
    /// Expressions of the table's values (parameters), so they are computed once.
    fn akima_slopes(&mut self, xs: &[ExprId], ys: &[ExprId], modified: bool) -> Vec<ExprId> {
        let n = xs.len();
        let ar = &mut self.flat.arena;
        // d[k + 2] = m_k for k = 0..n-2.
        let mut d: Vec<ExprId> = Vec::with_capacity(n + 3);
        let zero = ar.constant(0.0);
        d.extend([zero, zero]);
        for k in 0..n - 1 {
            let dy = ar.sub(ys[k + 1], ys[k]);
            let dx = ar.sub(xs[k + 1], xs[k]);
            d.push(ar.div(dy, dx));
        }
        let (two, three) = (ar.constant(2.0), ar.constant(3.0));
        let lin = |ar: &mut crate::symbolic::Arena<FlatVar>,
                   a: ExprId,
                   ka: ExprId,
                   b: ExprId,
                   kb: ExprId| {
            let p = ar.mul(ka, a);
            let q = ar.mul(kb, b);
            ar.sub(p, q)
        };
        let one = ar.constant(1.0);
        d[0] = lin(ar, d[2], three, d[3], two);
        d[1] = lin(ar, d[2], two, d[3], one);
        let (a, b) = (d[n], d[n - 1]);
        let r1 = lin(ar, a, two, b, one);
        d.push(r1);
        let r2 = lin(ar, a, three, b, two);
        d.push(r2);
        let half = ar.constant(0.5);
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
                let mean = ar.add(d[i + 1], d[i + 2]);
                let mean = ar.mul(half, mean);
                let pos = ar.cmp(CmpOp::Gt, den, zero);
                let pos = ar.no_event(pos);
                ar.if_(pos, q, mean)
            })
            .collect()
    }

    /// A time table at time `time`: zero before `startTime`, the table at `time − shiftTime`.
    fn time_lookup(&mut self, t: &Table, col: usize, time: ExprId, span: Span) -> DResult<ExprId> {
        let shifted = match t.shift_time {
            Some(s) => self.flat.arena.sub(time, s),
            None => time,
        };
        let periodic = t.extrapolation == "Periodic";
        let v = self.lookup(t, col, shifted, periodic, span)?;
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
