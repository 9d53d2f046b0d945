//! The `derivative` annotations of external C functions (specification 12.7.1): the
//! derivative of a call of an external function's shim is a call of its derivative function's
//! shim, where the derivative function's C call passes the function's arguments unchanged
//! followed by the derivatives of its Real inputs. The MSL's tables are written so
//! (`getTable1DValue` → `getDerTable1DValue` → `derivative(order = 2)` `getDer2Table1DValue`,
//! the same for the time and 2-D tables): their derivatives are then the library's own, not
//! central differences of its values. A derivative function's `order = 2` annotation gives
//! the second derivative ([`crate::symbolic::function::SecondDerivative`]).
//!
//! Where the annotation does not have that form (arrays, outputs through pointers, a C call
//! that reorders or computes its arguments), the shim's central differences stay, and the
//! run says where the step uses them.

use super::functions::{FnDef, LocalTy, Param};
use super::outofline::DerivativeAnnotation;
use super::*;
use crate::clib::shim::{Arg, CTy, Spec};
use crate::symbolic::function::{DerArg, SecondDerivative, UserDerivative};
use std::sync::Arc;

/// The inputs an external call passes, in order, each a scalar input of the function passed
/// by name (`f(u, v)` explicit, or the default mapping of a function with one output);
/// `None` where the call passes anything else.
fn passed_inputs<'a>(def: &FnDef<'a>, x: &'a ast::External) -> Option<Vec<&'a str>> {
    let is_input = |n: &str| def.params.iter().any(|p| p.is_input && p.name == n);
    if x.function.is_some() {
        x.output.as_ref()?;
        x.args
            .iter()
            .map(|a| match &a.kind {
                ast::ExprKind::Ref(r) if r.parts.len() == 1 && r.parts[0].subscripts.is_empty() => {
                    let n: &'a str = &r.parts[0].ident.name;
                    is_input(n).then_some(n)
                }
                _ => None,
            })
            .collect()
    } else {
        let outputs = def.params.iter().filter(|p| p.is_output).count();
        (outputs == 1).then(|| {
            def.params
                .iter()
                .filter(|p| p.is_input)
                .map(|p| p.name)
                .collect()
        })
    }
}

/// Whether a shim passes `n` arguments, each a scalar (or a String constant), and returns
/// one Real.
fn scalar_call(spec: &Spec, n: usize) -> bool {
    spec.args.len() == n
        && spec.args.iter().all(|a| {
            matches!(
                a,
                Arg::In {
                    n: 1,
                    array: false,
                    ..
                } | Arg::Str(_)
            )
        })
        && matches!(spec.ret, Some((CTy::Double, 0)))
        && spec.n_out == 1
        && spec.n_sout == 0
        && !spec.guarded
}

/// The argument slot (`in[at]`) of each passed input; `None` for a String constant.
fn slots(spec: &Spec) -> Vec<Option<usize>> {
    spec.args
        .iter()
        .map(|a| match a {
            Arg::In { at, .. } => Some(*at),
            _ => None,
        })
        .collect()
}

/// A derivative function's shim: what it differentiates (`base`, its inputs and the inputs
/// its C call passes) and, per input that gets a derivative, its rank among them.
struct Base<'s, 'a> {
    inputs: &'s [&'a str],
    passed: &'s [&'a str],
    spec: &'s Spec,
    der_of: &'s FxHashMap<&'a str, usize>,
    /// What a call of the base function costs (a derivative's call searches as it does).
    cost: &'s str,
}

impl<'t, 'a> Flattener<'t, 'a> {
    /// The derivative of the shim of `def` (whose external clause is `x` and whose call shape
    /// is `spec`) from its `derivative` annotation, where the derivative function's C call
    /// takes the same arguments followed by the derivatives ([module docs](self)).
    pub(super) fn shim_derivative(
        &mut self,
        def: &FnDef<'a>,
        x: &'a ast::External,
        spec: &Spec,
        cost: &str,
    ) -> DResult<Option<UserDerivative>> {
        let policy = self.policy(def);
        let Some(ann) = &policy.derivative else {
            return Ok(None);
        };
        let Some(passed) = passed_inputs(def, x) else {
            return Ok(None);
        };
        if !scalar_call(spec, passed.len()) {
            return Ok(None);
        }
        let inputs: Vec<&Param<'a>> = def.params.iter().filter(|p| p.is_input).collect();
        let mut der_of = FxHashMap::default();
        let mut mark_of = FxHashMap::default();
        for p in &inputs {
            let real = matches!(self.local_type(p)?, LocalTy::Num(ScalarType::Real));
            let mark = match ann.marks.iter().find(|(m, _)| *m == p.name) {
                Some(m) => m.1,
                None if real => DerArg::Der,
                None => DerArg::No,
            };
            if mark == DerArg::Der {
                der_of.insert(p.name, der_of.len());
            }
            mark_of.insert(p.name, mark);
        }
        let Some(ddef) = self.annotated_function(ann)? else {
            return Ok(None);
        };
        let names: Vec<&'a str> = inputs.iter().map(|p| p.name).collect();
        let base = Base {
            inputs: &names,
            passed: &passed,
            spec,
            der_of: &der_of,
            cost,
        };
        let Some(f) = self.derivative_shim(&ddef, &base, true)? else {
            return Ok(None);
        };
        let args = passed
            .iter()
            .zip(slots(spec))
            .filter(|(_, s)| s.is_some())
            .map(|(n, _)| mark_of[n])
            .collect();
        Ok(Some(UserDerivative { f, args }))
    }

    /// The shim function of derivative function `ddef` of `base`: `None` where its inputs
    /// are not `base`'s followed by one derivative per input of `der_of`, or its C call does
    /// not pass `base`'s arguments followed by those derivatives (in the order `base`
    /// passes their inputs). `first`: `ddef` is a first derivative; its `order = 2`
    /// annotation is then followed.
    fn derivative_shim(
        &mut self,
        ddef: &FnDef<'a>,
        base: &Base<'_, 'a>,
        first: bool,
    ) -> DResult<Option<Arc<crate::symbolic::Function>>> {
        let Some((dx, dlexical)) = ddef.external else {
            return Ok(None);
        };
        let dinputs: Vec<&'a str> = ddef
            .params
            .iter()
            .filter(|p| p.is_input)
            .map(|p| p.name)
            .collect();
        let nb = base.inputs.len();
        let nder = base.der_of.len();
        if dinputs.len() != nb + nder || dinputs[..nb] != *base.inputs {
            return Ok(None);
        }
        let outs: Vec<&Param<'a>> = ddef.params.iter().filter(|p| p.is_output).collect();
        if outs.len() != 1
            || !matches!(self.local_type(outs[0])?, LocalTy::Num(ScalarType::Real))
            || !self.local_type_dims(outs[0])?.is_empty()
        {
            return Ok(None);
        }
        let Some(dpassed) = passed_inputs(ddef, dx) else {
            return Ok(None);
        };
        // Expected: base's arguments, then the derivative of each that gets one.
        let mut expected = base.passed.to_vec();
        let mut tail = Vec::new();
        for n in base.passed {
            if let Some(&k) = base.der_of.get(n) {
                expected.push(dinputs[nb + k]);
                tail.push(*n);
            }
        }
        if tail.len() != nder || dpassed != expected {
            return Ok(None);
        }
        let short = ddef.name.rsplit('.').next().unwrap_or(&ddef.name);
        let fname = dx
            .function
            .as_ref()
            .map_or(short.to_string(), |i| i.name.to_string());
        let mut dspec = base.spec.clone();
        dspec.function = fname.clone();
        for k in 0..nder {
            dspec.args.push(Arg::In {
                ty: CTy::Double,
                at: base.spec.n_in + k,
                n: 1,
                array: false,
            });
        }
        dspec.n_in += nder;
        let libs = self.external_libs(dx, dlexical)?;
        dspec.include = libs.as_ref().and_then(|l| l.include.clone());
        let symbol = crate::clib::shim::register(dspec.clone(), libs, dx.span);
        crate::clib::shim::mark_runtime(&symbol);
        if let Some(f) = self.fns.shims.get(&symbol) {
            return Ok(Some(f.clone()));
        }
        let impure = ddef.classes.first().is_some_and(|&c| {
            self.tree
                .info(c)
                .def
                .is_some_and(|d| d.purity == Some(ast::Purity::Impure))
        });
        let mut f = crate::symbolic::Function::shim(
            format!("{}_{}", ddef.name, &symbol[6..]),
            crate::symbolic::external::Shim {
                symbol: symbol.clone(),
                calls: fname,
                impure,
                cost: base.cost.to_string(),
            },
            dspec.n_in,
            1,
        );
        if first {
            f.second = self.second_derivative(ddef, &dinputs, &dpassed, &dspec, base, &tail)?;
        }
        let f = Arc::new(f);
        self.fns.shims.insert(symbol, f.clone());
        Ok(Some(f))
    }

    /// The `derivative(order = 2)` function of first derivative function `ddef` (inputs
    /// `dinputs`, its C call passing `dpassed` with shape `dspec`), which differentiates
    /// `base`; `tail`: the inputs of `base` whose derivatives `ddef` takes, in slot order.
    fn second_derivative(
        &mut self,
        ddef: &FnDef<'a>,
        dinputs: &[&'a str],
        dpassed: &[&'a str],
        dspec: &Spec,
        base: &Base<'_, 'a>,
        tail: &[&'a str],
    ) -> DResult<Option<SecondDerivative>> {
        let policy = self.policy(ddef);
        let Some(ann2) = &policy.derivative2 else {
            return Ok(None);
        };
        let ann2: &DerivativeAnnotation<'a> = ann2;
        let Some(d2def) = self.annotated_function(ann2)? else {
            return Ok(None);
        };
        // The second derivative takes one more argument per derivative argument.
        let nb = base.inputs.len();
        let der2_of: FxHashMap<&'a str, usize> = dinputs[nb..]
            .iter()
            .enumerate()
            .map(|(k, n)| (*n, k))
            .collect();
        let dbase = Base {
            inputs: dinputs,
            passed: dpassed,
            spec: dspec,
            der_of: &der2_of,
            cost: base.cost,
        };
        let Some(f) = self.derivative_shim(&d2def, &dbase, false)? else {
            return Ok(None);
        };
        let base_slots = slots(base.spec);
        let pairs = tail
            .iter()
            .enumerate()
            .filter_map(|(i, n)| {
                let k = base.passed.iter().position(|p| p == n)?;
                Some((base_slots[k]?, base.spec.n_in + i))
            })
            .collect::<Vec<_>>();
        Ok((pairs.len() == tail.len()).then_some(SecondDerivative { f, pairs }))
    }
}
