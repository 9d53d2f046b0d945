//! Array-valued expressions during flattening.
//!
//! Flattening evaluates source expressions to [`Val`]: a (possibly empty) list of dimensions and
//! the scalar expressions of the elements in row-major order. Array operators of the language
//! (element-wise arithmetic, matrix products, reductions, constructors) are expanded here, so
//! everything after flattening is scalar.

use crate::flat::FlatVar;
use crate::flat::ScalarType;
use crate::symbolic::ExprId;

type Arena = crate::symbolic::Arena<FlatVar>;

#[derive(Clone, Debug)]
pub enum Val {
    Arr(Arr),
    Str(String),
    /// A String known only while the model runs (`"t = " + String(time)`): it can only be
    /// passed to an external C function's String argument, whose shim formats it.
    Text(std::rc::Rc<Text>),
    /// A record value: its class and its fields in declaration order.
    Record(std::rc::Rc<RecordVal>),
    /// An array of Strings known when the model is compiled (`{"=", ";"}`).
    Strs(std::rc::Rc<StrArr>),
}

/// An array of Strings known when the model is compiled: the elements in row-major order.
/// Invariant: `dims` is not empty and its product is `items.len()`.
#[derive(Clone, Debug, PartialEq)]
pub struct StrArr {
    pub dims: Vec<usize>,
    pub items: Vec<String>,
}

/// A String made while the model runs: literal text and values with the C conversion that
/// formats each (`String(x, <options>)`, builtins/text.rs).
#[derive(Clone, Debug)]
pub struct Text {
    pub pieces: Vec<TextPart>,
}

#[derive(Clone, Debug)]
pub enum TextPart {
    Lit(String),
    Value(ExprId, crate::clib::text::Conv),
}

impl Text {
    /// `a + b` of two Strings of which at least one is known only while the model runs.
    pub fn join(a: &Val, b: &Val) -> Option<Text> {
        let mut pieces = Vec::new();
        for v in [a, b] {
            match v {
                Val::Str(s) => pieces.push(TextPart::Lit(s.clone())),
                Val::Text(t) => pieces.extend(t.pieces.iter().cloned()),
                _ => return None,
            }
        }
        Some(Text { pieces })
    }
}

/// A record value, or an array of records of one class (`dims` not empty) stored field by
/// field: each numeric field holds the array of that field over the elements, the record's
/// dimensions first (`ps.x` of `P ps[3]` is the field's array as it stands; `ps[2]` selects
/// in every field).
#[derive(Clone, Debug)]
pub struct RecordVal {
    pub class: super::classes::ClassId,
    pub name: String,
    pub dims: Vec<usize>,
    pub fields: Vec<(Box<str>, Val)>,
}

impl RecordVal {
    pub fn field(&self, name: &str) -> Option<&Val> {
        self.fields
            .iter()
            .find(|(n, _)| &**n == name)
            .map(|(_, v)| v)
    }
}

/// An array of scalar expressions of one type (a scalar has no dimensions). Invariant: the
/// product of `dims` is `data.len()`.
#[derive(Clone, Debug, PartialEq)]
pub struct Arr {
    pub dims: Vec<usize>,
    pub data: Vec<ExprId>,
    /// The element type: Real, Integer or Boolean (the checker in `types.rs` keeps Booleans
    /// out of arithmetic and numbers out of conditions).
    pub ty: ScalarType,
}

impl Arr {
    pub fn scalar(e: ExprId, ty: ScalarType) -> Arr {
        Arr {
            dims: Vec::new(),
            data: vec![e],
            ty,
        }
    }

    pub fn real(e: ExprId) -> Arr {
        Arr::scalar(e, ScalarType::Real)
    }

    pub fn with_ty(mut self, ty: ScalarType) -> Arr {
        self.ty = ty;
        self
    }

    pub fn is_scalar(&self) -> bool {
        self.dims.is_empty()
    }

    pub fn as_scalar(&self) -> Option<ExprId> {
        if self.dims.is_empty() {
            self.data.first().copied()
        } else {
            None
        }
    }

    /// Size of the trailing block below the first `k` dimensions.
    pub fn block(&self, k: usize) -> usize {
        self.dims[k..].iter().product()
    }

    /// The sub-array at index `i` (0-based) of the first dimension.
    pub fn row(&self, i: usize) -> Arr {
        let b = self.block(1);
        Arr {
            dims: self.dims[1..].to_vec(),
            data: self.data[i * b..(i + 1) * b].to_vec(),
            ty: self.ty,
        }
    }

    /// Stacks equally-shaped arrays along a new first dimension (element type: the first
    /// item's; the caller unifies the types).
    pub fn stack(items: Vec<Arr>) -> Option<Arr> {
        let inner = items.first().map(|a| a.dims.clone()).unwrap_or_default();
        let ty = items.first().map_or(ScalarType::Real, |a| a.ty);
        let mut data = Vec::new();
        for a in &items {
            if a.dims != inner {
                return None;
            }
            data.extend_from_slice(&a.data);
        }
        let mut dims = vec![items.len()];
        dims.extend(inner);
        Some(Arr { dims, data, ty })
    }

    pub fn map(&self, arena: &mut Arena, f: impl Fn(&mut Arena, ExprId) -> ExprId) -> Arr {
        Arr {
            dims: self.dims.clone(),
            data: self.data.iter().map(|&e| f(arena, e)).collect(),
            ty: self.ty,
        }
    }
}

/// Formats dimensions as the language writes them: `[3, 2]`, or `scalar`.
pub fn dims_text(d: &[usize]) -> String {
    if d.is_empty() {
        "scalar".into()
    } else {
        format!(
            "[{}]",
            d.iter()
                .map(|x| x.to_string())
                .collect::<Vec<_>>()
                .join(", ")
        )
    }
}

/// Element-wise combination with scalar broadcasting. `None` when the shapes disagree.
pub fn zip(
    arena: &mut Arena,
    a: &Arr,
    b: &Arr,
    f: impl Fn(&mut Arena, ExprId, ExprId) -> ExprId,
) -> Option<Arr> {
    if a.is_scalar() {
        let x = a.data[0];
        return Some(b.map(arena, |ar, y| f(ar, x, y)));
    }
    if b.is_scalar() {
        let y = b.data[0];
        return Some(a.map(arena, |ar, x| f(ar, x, y)));
    }
    if a.dims != b.dims {
        return None;
    }
    let data = a
        .data
        .iter()
        .zip(&b.data)
        .map(|(&x, &y)| f(arena, x, y))
        .collect();
    Some(Arr {
        dims: a.dims.clone(),
        data,
        ty: a.ty,
    })
}

/// Element-wise combination without broadcasting (`+` and `-` on arrays need equal shapes).
pub fn zip_same(
    arena: &mut Arena,
    a: &Arr,
    b: &Arr,
    f: impl Fn(&mut Arena, ExprId, ExprId) -> ExprId,
) -> Option<Arr> {
    if a.dims != b.dims {
        return None;
    }
    zip(arena, a, b, f)
}

/// Σ x_i y_i, folding from the left; `0` for empty input.
fn dot(arena: &mut Arena, xs: &[ExprId], ys: &[ExprId]) -> ExprId {
    let mut acc: Option<ExprId> = None;
    for (&x, &y) in xs.iter().zip(ys) {
        let p = arena.mul(x, y);
        acc = Some(match acc {
            None => p,
            Some(a) => arena.add(a, p),
        });
    }
    acc.unwrap_or_else(|| arena.constant(0.0))
}

/// The `*` operator of the language: scalar products, vector·vector, matrix·vector,
/// vector·matrix and matrix·matrix. `None` for incompatible shapes.
pub fn multiply(arena: &mut Arena, a: &Arr, b: &Arr) -> Option<Arr> {
    let ty = if a.ty == ScalarType::Integer && b.ty == ScalarType::Integer {
        ScalarType::Integer
    } else {
        ScalarType::Real
    };
    multiply_shapes(arena, a, b).map(|r| r.with_ty(ty))
}

fn multiply_shapes(arena: &mut Arena, a: &Arr, b: &Arr) -> Option<Arr> {
    if a.is_scalar() || b.is_scalar() {
        return zip(arena, a, b, |ar, x, y| ar.mul(x, y));
    }
    match (a.dims.len(), b.dims.len()) {
        (1, 1) => {
            if a.dims[0] != b.dims[0] {
                return None;
            }
            Some(Arr::real(dot(arena, &a.data, &b.data)))
        }
        (2, 1) => {
            let (m, n) = (a.dims[0], a.dims[1]);
            if n != b.dims[0] {
                return None;
            }
            let data = (0..m)
                .map(|i| dot(arena, &a.data[i * n..(i + 1) * n], &b.data))
                .collect();
            Some(Arr {
                dims: vec![m],
                data,
                ty: a.ty,
            })
        }
        (1, 2) => {
            let (n, p) = (b.dims[0], b.dims[1]);
            if a.dims[0] != n {
                return None;
            }
            let data = (0..p)
                .map(|j| {
                    let col: Vec<ExprId> = (0..n).map(|k| b.data[k * p + j]).collect();
                    dot(arena, &a.data, &col)
                })
                .collect();
            Some(Arr {
                dims: vec![p],
                data,
                ty: a.ty,
            })
        }
        (2, 2) => {
            let (m, n) = (a.dims[0], a.dims[1]);
            let p = b.dims[1];
            if n != b.dims[0] {
                return None;
            }
            let mut data = Vec::with_capacity(m * p);
            for i in 0..m {
                for j in 0..p {
                    let col: Vec<ExprId> = (0..n).map(|k| b.data[k * p + j]).collect();
                    data.push(dot(arena, &a.data[i * n..(i + 1) * n], &col));
                }
            }
            Some(Arr {
                dims: vec![m, p],
                data,
                ty: a.ty,
            })
        }
        _ => None,
    }
}

/// Row-major transpose of a matrix.
pub fn transpose(a: &Arr) -> Option<Arr> {
    if a.dims.len() != 2 {
        return None;
    }
    let (m, n) = (a.dims[0], a.dims[1]);
    let mut data = Vec::with_capacity(m * n);
    for j in 0..n {
        for i in 0..m {
            data.push(a.data[i * n + j]);
        }
    }
    Some(Arr {
        dims: vec![n, m],
        data,
        ty: a.ty,
    })
}

/// `promote(a, n)` (specification 10.3): `a` with dimensions of size 1 appended up to `n`.
pub fn promote(a: &Arr, n: usize) -> Arr {
    let mut dims = a.dims.clone();
    while dims.len() < n {
        dims.push(1);
    }
    Arr {
        dims,
        data: a.data.clone(),
        ty: a.ty,
    }
}

/// `cat(k + 1, items…)` (specification 10.4.2): concatenation along dimension `k` (0-based) of
/// arrays with equal numbers of dimensions that agree in every other dimension.
pub fn cat(items: &[Arr], k: usize) -> Option<Arr> {
    let first = items.first()?;
    let n = first.dims.len();
    if k >= n {
        return None;
    }
    for a in items {
        if a.dims.len() != n
            || a.dims
                .iter()
                .zip(&first.dims)
                .enumerate()
                .any(|(j, (x, y))| j != k && x != y)
        {
            return None;
        }
    }
    let outer: usize = first.dims[..k].iter().product();
    let mut dims = first.dims.clone();
    dims[k] = items.iter().map(|a| a.dims[k]).sum();
    let mut data = Vec::with_capacity(dims.iter().product());
    for i in 0..outer {
        for a in items {
            let block: usize = a.dims[k..].iter().product();
            data.extend_from_slice(&a.data[i * block..(i + 1) * block]);
        }
    }
    Some(Arr {
        dims,
        data,
        ty: first.ty,
    })
}
