//! Array built-ins (specification 10.3): `size`, `ndims`, the array constructors `zeros`,
//! `ones`, `fill`, `identity`, `cat`, the array algebra `cross`, `outerProduct`, `skew`,
//! `diagonal`, `symmetric`, `linspace`, and the reshaping `transpose`, `vector`, `scalar`.

use super::*;

impl<'a> Flattener<'_, 'a> {
    pub(super) fn size_call(&mut self, c: &Call<'a, '_>) -> DResult<Val> {
        let x = match self.pending_size(c.arg(0), c.env) {
            // Only the size is read.
            Some(dims) => Arr {
                dims,
                data: Vec::new(),
                ty: ScalarType::Real,
            },
            None => match self.eval(c.arg(0), c.env)? {
                // An array of records or of Strings: its dimensions.
                Val::Record(r) => Arr {
                    dims: r.dims.clone(),
                    data: Vec::new(),
                    ty: ScalarType::Real,
                },
                Val::Strs(s) => Arr {
                    dims: s.dims.clone(),
                    data: Vec::new(),
                    ty: ScalarType::Real,
                },
                Val::Str(_) => Arr {
                    dims: Vec::new(),
                    data: Vec::new(),
                    ty: ScalarType::Real,
                },
                v => self.as_arr(v, c.arg(0).span)?,
            },
        };
        if c.count() == 2 {
            let k = self.eval_const(c.arg(1), c.env, "the dimension of size()")?;
            let k = k as usize;
            if k == 0 || k > x.dims.len() {
                return Err(Box::new(
                    Diagnostic::error(
                        "size",
                        format!("size(…, {k}) of an array with {} dimensions", x.dims.len()),
                    )
                    .at(c.e.span, "here"),
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

    /// `zeros(n, …)`, `ones(n, …)`, `fill(x, n, …)`, `identity(n)`.
    pub(super) fn array_constructor(&mut self, c: &Call<'a, '_>, op: Op) -> DResult<Val> {
        let span = c.e.span;
        if op == Op::Identity {
            let n = self.eval_dim(c.arg(0), c.env)?;
            elements(&[n, n], span, "`identity(…)`")?;
            let one = self.flat.arena.constant(1.0);
            let zero = self.flat.arena.constant(0.0);
            let data = (0..n * n)
                .map(|k| if k / n == k % n { one } else { zero })
                .collect();
            return Ok(Val::Arr(Arr {
                dims: vec![n, n],
                data,
                ty: ScalarType::Integer,
            }));
        }
        let (fill, first) = if op == Op::Fill {
            match self.eval(c.arg(0), c.env)? {
                v @ (Val::Str(_) | Val::Strs(_)) => {
                    let mut dims = Vec::new();
                    for a in &c.args.positional[1..] {
                        dims.push(self.eval_dim(a, c.env)?);
                    }
                    elements(&dims, span, "`fill(…)`")?;
                    return Ok(self.fill_strings(v, dims));
                }
                v => (self.as_arr(v, c.arg(0).span)?, 1),
            }
        } else {
            let v = if c.name == "zeros" { 0.0 } else { 1.0 };
            (
                Arr::scalar(self.flat.arena.constant(v), ScalarType::Integer),
                0,
            )
        };
        let mut dims = Vec::new();
        for a in &c.args.positional[first..] {
            dims.push(self.eval_dim(a, c.env)?);
        }
        let what = format!("`{}(…)`", c.name);
        let n = elements(&dims, span, &what)?;
        elements(&[n.saturating_mul(fill.data.len().max(1))], span, &what)?;
        let mut data = Vec::with_capacity(n * fill.data.len());
        for _ in 0..n {
            data.extend_from_slice(&fill.data);
        }
        dims.extend_from_slice(&fill.dims);
        Ok(Val::Arr(Arr {
            dims,
            data,
            ty: fill.ty,
        }))
    }

    /// `cat(k, A, B, …)`: concatenation along dimension k of arrays with as many dimensions
    /// (scalars and lower-dimensional arrays promoted).
    pub(super) fn cat_call(&mut self, c: &Call<'a, '_>) -> DResult<Val> {
        let k = self.eval_const(c.arg(0), c.env, "the dimension of cat()")?;
        let mut items = Vec::with_capacity(c.count() - 1);
        for i in 1..c.count() {
            items.push(self.eval_arr(c.arg(i), c.env)?);
        }
        let n = items.iter().map(|a| a.dims.len()).max().unwrap_or(1).max(1);
        let mut ty = items[0].ty;
        for (i, a) in items.iter().enumerate() {
            ty = types::unify(ty, a.ty).ok_or_else(|| {
                Box::new(
                    Diagnostic::error("type", "cat() of arrays of different types")
                        .at(c.arg(i + 1).span, a.ty.name()),
                )
            })?;
        }
        if k < 1.0 || k as usize > n || k.fract() != 0.0 {
            return Err(Box::new(
                Diagnostic::error("size", format!("cat({k}, …) of arrays with {n} dimensions"))
                    .at(c.arg(0).span, "no such dimension"),
            ));
        }
        // Unlike `[a; b]`, which promotes its operands, cat's arrays have one number of
        // dimensions (10.4.2).
        if let Some((i, a)) = items.iter().enumerate().find(|(_, a)| a.dims.len() != n) {
            return Err(Box::new(
                Diagnostic::error(
                    "size",
                    format!(
                        "cat() of arrays with different numbers of dimensions: {} and {n}",
                        a.dims.len()
                    ),
                )
                .at(c.arg(i + 1).span, format!("{} dimensions", a.dims.len()))
                .help("Modelica 3.6 §10.4.2: the arrays cat concatenates have the same number of dimensions; `[a; b]` promotes, cat does not"),
            ));
        }
        values::cat(&items, k as usize - 1)
            .map(|a| Val::Arr(a.with_ty(ty)))
            .ok_or_else(|| {
                Box::new(
                    Diagnostic::error(
                        "size",
                        format!("cat({k}, …) of arrays that differ in another dimension"),
                    )
                    .at(c.e.span, "here"),
                )
            })
    }

    /// `cross(x, y)`, `outerProduct(x, y)`, `skew(x)`, `diagonal(v)`, `symmetric(A)`,
    /// `linspace(x1, x2, n)` (specification 10.3.5–10.3.6).
    pub(super) fn array_algebra(&mut self, c: &Call<'a, '_>) -> DResult<Val> {
        let bad = |what: &str| {
            Box::new(Diagnostic::error("size", format!("`{}` {what}", c.name)).at(c.e.span, "here"))
                as Box<Diagnostic>
        };
        if c.name == "linspace" {
            let x1 = self.eval_scalar(c.arg(0), c.env)?;
            let x2 = self.eval_scalar(c.arg(1), c.env)?;
            let n = self.eval_dim(c.arg(2), c.env)?;
            if n < 2 {
                return Err(bad("needs n >= 2"));
            }
            let ar = &mut self.flat.arena;
            let d = ar.sub(x2, x1);
            let data = (0..n)
                .map(|i| {
                    let f = ar.constant(i as f64 / (n - 1) as f64);
                    let t = ar.mul(d, f);
                    ar.add(x1, t)
                })
                .collect();
            return Ok(Val::Arr(Arr {
                dims: vec![n],
                data,
                ty: ScalarType::Real,
            }));
        }
        let x = self.eval_arr(c.arg(0), c.env)?;
        types::numeric_arg(&x, c.arg(0).span, c.name)?;
        let ty = x.ty;
        let ar = &mut self.flat.arena;
        let zero = ar.constant(0.0);
        let out = |dims: Vec<usize>, data: Vec<ExprId>| Ok(Val::Arr(Arr { dims, data, ty }));
        match c.name {
            "cross" | "outerProduct" => {
                let y = self.eval_arr(c.arg(1), c.env)?;
                types::numeric_arg(&y, c.arg(1).span, c.name)?;
                let ar = &mut self.flat.arena;
                if x.dims.len() != 1 || y.dims.len() != 1 {
                    return Err(bad("takes two vectors"));
                }
                if c.name == "cross" {
                    if x.dims[0] != 3 || y.dims[0] != 3 {
                        return Err(bad("takes two vectors of size 3"));
                    }
                    let (a, b) = (&x.data, &y.data);
                    let mut comp = |i: usize, j: usize| {
                        let p = ar.mul(a[i], b[j]);
                        let q = ar.mul(a[j], b[i]);
                        ar.sub(p, q)
                    };
                    let data = vec![comp(1, 2), comp(2, 0), comp(0, 1)];
                    return out(vec![3], data);
                }
                let mut data = Vec::with_capacity(x.data.len() * y.data.len());
                for &a in &x.data {
                    for &b in &y.data {
                        data.push(ar.mul(a, b));
                    }
                }
                out(vec![x.dims[0], y.dims[0]], data)
            }
            "skew" => {
                if x.dims != [3] {
                    return Err(bad("takes a vector of size 3"));
                }
                let v = &x.data;
                let (n0, n1, n2) = (ar.neg(v[0]), ar.neg(v[1]), ar.neg(v[2]));
                out(
                    vec![3, 3],
                    vec![zero, n2, v[1], v[2], zero, n0, n1, v[0], zero],
                )
            }
            "diagonal" => {
                if x.dims.len() != 1 {
                    return Err(bad("takes a vector"));
                }
                let n = x.dims[0];
                let data = (0..n * n)
                    .map(|k| if k / n == k % n { x.data[k / n] } else { zero })
                    .collect();
                out(vec![n, n], data)
            }
            _ => {
                // symmetric(A): the upper triangle mirrored.
                if x.dims.len() != 2 || x.dims[0] != x.dims[1] {
                    return Err(bad("takes a square matrix"));
                }
                let n = x.dims[0];
                let data = (0..n * n)
                    .map(|k| {
                        let (i, j) = (k / n, k % n);
                        if i <= j {
                            x.data[k]
                        } else {
                            x.data[j * n + i]
                        }
                    })
                    .collect();
                out(vec![n, n], data)
            }
        }
    }

    /// `transpose(A)`, `vector(a)`, `scalar(a)`.
    pub(super) fn reshape(&mut self, c: &Call<'a, '_>, op: Op) -> DResult<Val> {
        let x = self.eval_arr(c.arg(0), c.env)?;
        match op {
            Op::Transpose => values::transpose(&x).map(Val::Arr).ok_or_else(|| {
                Box::new(Diagnostic::error("size", "transpose needs a matrix").at(c.e.span, "here"))
            }),
            Op::Vector if x.dims.iter().filter(|&&d| d > 1).count() > 1 => {
                let msg = format!("vector() of an array of size {:?}", x.dims);
                Err(Box::new(typed::VECTOR_ARGUMENT.broken(
                    c.arg(0).span,
                    msg,
                    "here",
                )))
            }
            Op::Vector => Ok(Val::Arr(Arr {
                dims: vec![x.data.len()],
                data: x.data,
                ty: x.ty,
            })),
            _ => {
                if x.data.len() != 1 {
                    return Err(Box::new(
                        Diagnostic::error(
                            "size",
                            "scalar() of an array with more than one element",
                        )
                        .at(c.e.span, "here"),
                    ));
                }
                Ok(Val::Arr(Arr::scalar(x.data[0], x.ty)))
            }
        }
    }
}
