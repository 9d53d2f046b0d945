//! Records passed to external C functions (specification 12.9.1.3): a record is a C struct
//! of its components in declaration order (Real `double`; Integer, Boolean and enumerations
//! `int`; String `const char*`; a nested record a nested struct), passed by reference. An
//! input record's struct is filled from its values; an output record (or a protected record
//! the call writes) is filled from its values before the call where it has them, else
//! zeros, and read back component by component after it. Arrays cannot be mapped (an error,
//! as the section says); a record returned by value, String components of an output record
//! and external objects inside a record are refused, located.

use super::external::ShimValues;
use super::functions::{LocalTy, LocalValue};
use super::values::RecordVal;
use super::*;
use crate::clib::shim::{CTy, RecField};

/// The C type of a numeric record component.
fn c_type(ty: ScalarType) -> CTy {
    if ty == ScalarType::Real {
        CTy::Double
    } else {
        CTy::Int
    }
}

impl<'a> Flattener<'_, 'a> {
    /// An error for a record component the C mapping cannot carry.
    fn unmappable(&self, span: Span, fname: &str, what: String) -> Box<Diagnostic> {
        Box::new(
            Diagnostic::error(
                "external",
                format!("{what} of a record passed to the external C function `{fname}` cannot be mapped to C"),
            )
            .at(span, "passed here")
            .help("Modelica 3.6 §12.9.1.3: a record is mapped to a C struct of its components; arrays cannot be mapped"),
        )
    }

    /// The components of input record `r`, their numbers appended to `ins`.
    pub(super) fn record_in(
        &self,
        r: &RecordVal,
        ins: &mut Vec<ExprId>,
        span: Span,
        fname: &str,
    ) -> DResult<Vec<RecField>> {
        if !r.dims.is_empty() {
            return Err(self.unmappable(span, fname, format!("an array of `{}`", r.name)));
        }
        let mut fields = Vec::with_capacity(r.fields.len());
        for (name, v) in &r.fields {
            fields.push(match v {
                Val::Arr(a) if a.dims.is_empty() => {
                    ins.push(a.data[0]);
                    RecField::Num {
                        ty: c_type(a.ty),
                        at: ins.len() - 1,
                        init: None,
                    }
                }
                Val::Arr(_) | Val::Strs(_) => {
                    return Err(self.unmappable(span, fname, format!("the array `{name}`")))
                }
                Val::Str(s) => RecField::Str(s.clone()),
                Val::Record(inner) if inner.field(super::external::OBJECT_FIELD).is_some() => {
                    return Err(self.unsupported(
                        span,
                        &format!("an external object inside a record passed to an external C function (`{name}` of `{fname}`)"),
                    ))
                }
                Val::Record(inner) => RecField::Rec(self.record_in(inner, ins, span, fname)?),
                Val::Text(_) => {
                    return Err(self.unsupported(
                        span,
                        &format!("a String made while the model runs inside a record passed to an external C function (`{name}` of `{fname}`)"),
                    ))
                }
            });
        }
        Ok(fields)
    }

    /// The components of output record `shape` (its values before the call where it has
    /// them, appended to `ins`), each given the next place in `out` from `n_out`.
    pub(super) fn record_out(
        &mut self,
        shape: &RecordVal,
        ins: &mut Vec<ExprId>,
        n_out: &mut usize,
        span: Span,
        fname: &str,
    ) -> DResult<Vec<RecField>> {
        if !shape.dims.is_empty() {
            return Err(self.unmappable(span, fname, format!("an array of `{}`", shape.name)));
        }
        let unset = self.unset();
        let mut fields = Vec::with_capacity(shape.fields.len());
        for (name, v) in &shape.fields {
            fields.push(match v {
                Val::Arr(a) if a.dims.is_empty() => {
                    let init = (a.data[0] != unset).then(|| {
                        ins.push(a.data[0]);
                        ins.len() - 1
                    });
                    *n_out += 1;
                    RecField::Num {
                        ty: c_type(a.ty),
                        at: *n_out - 1,
                        init,
                    }
                }
                Val::Arr(_) | Val::Strs(_) => {
                    return Err(self.unmappable(span, fname, format!("the array `{name}`")))
                }
                Val::Record(inner) => {
                    RecField::Rec(self.record_out(inner, ins, n_out, span, fname)?)
                }
                Val::Str(_) | Val::Text(_) => {
                    return Err(self.unsupported(
                        span,
                        &format!("a String component of a record an external C function writes (`{name}` of `{fname}`)"),
                    ))
                }
            });
        }
        Ok(fields)
    }

    /// The record value a shim call wrote: `shape` with its numbers taken, in order, from
    /// `values` (constants of a call made when compiling, or the call's outputs).
    pub(super) fn record_written(
        shape: &RecordVal,
        values: &mut impl Iterator<Item = ExprId>,
    ) -> Val {
        let fields = shape
            .fields
            .iter()
            .map(|(name, v)| {
                let v = match v {
                    Val::Arr(a) => Val::Arr(Arr::scalar(
                        values.next().expect("one output per component"),
                        a.ty,
                    )),
                    Val::Record(inner) => Self::record_written(inner, values),
                    other => other.clone(),
                };
                (name.clone(), v)
            })
            .collect();
        Val::Record(std::rc::Rc::new(RecordVal {
            class: shape.class,
            name: shape.name.clone(),
            dims: Vec::new(),
            fields,
        }))
    }

    /// The shape of record local `name` a call writes: its value where it has one, else a
    /// record of unassigned components. `None`: not a record (or an external object).
    pub(super) fn written_record_shape(
        &mut self,
        name: &str,
        span: Span,
    ) -> DResult<Option<std::rc::Rc<RecordVal>>> {
        let top = self.fns.frames.len() - 1;
        let l = &self.fns.frames[top].locals[name];
        let class = match l.ty {
            LocalTy::Record(c) if !super::tables::is_external_object(self.tree, c) => c,
            _ => return Ok(None),
        };
        if let LocalValue::Set(Val::Record(r)) = &l.value {
            return Ok(Some(r.clone()));
        }
        match self.record_template(class, span, 0)? {
            Val::Record(r) => Ok(Some(r)),
            _ => Ok(None),
        }
    }

    /// The record locals a shim call wrote (name, shape, first output), set from its values.
    pub(super) fn set_written_records(
        &mut self,
        records: Vec<(String, std::rc::Rc<RecordVal>, usize)>,
        values: &ShimValues,
        span: Span,
    ) -> DResult<()> {
        let top = self.fns.frames.len() - 1;
        for (name, shape, at) in records {
            let v = match values {
                ShimValues::Now(nums, _) => {
                    let consts: Vec<ExprId> = nums[at..]
                        .iter()
                        .map(|&v| self.flat.arena.constant(v))
                        .collect();
                    Self::record_written(&shape, &mut consts.into_iter())
                }
                ShimValues::Later(outs) => {
                    Self::record_written(&shape, &mut outs[at..].iter().copied())
                }
            };
            let v = self.check_local_value(&name, v, span, "is given {a}")?;
            self.fns.frames[top]
                .locals
                .get_mut(name.as_str())
                .expect("a local of the function")
                .value = LocalValue::Set(v);
        }
        Ok(())
    }
}
