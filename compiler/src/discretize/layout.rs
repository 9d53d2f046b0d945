//! The layout of the step system: its variable table (the step function's memory, in the
//! order the generated code loads neighbours as vectors), the model equations over it, the
//! initial and step systems, and the output expressions.

use super::{Builder, DResult, Stepped};
use crate::diag::Span;
use crate::flat::{FlatModel, FlatVar, VarKind};
use crate::symbolic::ExprId;
use crate::system::SysVar;
use crate::system::{Origin, Recorded, SEquation, SVarKind, System};

/// Where the special slots are and which flat variables are states.
pub(super) struct Layout {
    pub step_start: SysVar,
    pub step_size: SysVar,
    /// Flat representatives of the alias sets with a state.
    pub states: Vec<FlatVar>,
}

/// The variable table: `t`, `h`, `time`, then every parameter, input and discrete variable
/// and the representative of every alias set that is not bound to parameters (states and
/// algebraic unknowns), then the derivatives; parameter bindings and start values translated.
pub(super) fn layout(b: &mut Builder, flat: &FlatModel) -> DResult<Layout> {
    let step_start = b.add("t".into(), SVarKind::StepStart, None, Span::default());
    let step_size = b.add("h".into(), SVarKind::StepSize, None, Span::default());
    b.time = b.add("time".into(), SVarKind::Time, None, Span::default());
    // Variables: representatives of alias sets that are not bound to parameters.
    let mut states = Vec::new();
    for (i, v) in flat.vars.iter().enumerate() {
        let id = FlatVar::new(i);
        let (r, _) = b.aliases.resolve(id);
        match v.kind {
            VarKind::Parameter | VarKind::Constant => {
                let sv = b.add(v.name.clone(), SVarKind::Parameter, Some(id), v.span);
                b.value_of.insert(id, sv);
            }
            VarKind::Input => {
                let sv = b.add(v.name.clone(), SVarKind::Input, Some(id), v.span);
                b.value_of.insert(id, sv);
            }
            VarKind::Sampled => {
                let sv = b.add(v.name.clone(), SVarKind::Discrete, Some(id), v.span);
                b.value_of.insert(id, sv);
            }
            _ if r != id || b.aliases.bound[i].is_some() => {}
            _ if b.aliases.has_state[i] => {
                let sv = b.add(v.name.clone(), SVarKind::State, Some(id), v.span);
                b.value_of.insert(id, sv);
                states.push(id);
            }
            _ => {
                let sv = b.add(v.name.clone(), SVarKind::Algebraic, Some(id), v.span);
                b.value_of.insert(id, sv);
            }
        }
    }
    // Derivatives after all variables: the states of an array, and their derivatives, take
    // consecutive slots (the generated code loads and stores neighbours as vectors).
    for &id in &states {
        let v = &flat.vars[id];
        let d = b.add(
            format!("der({})", v.name),
            SVarKind::Derivative,
            Some(id),
            v.span,
        );
        b.der_of.insert(id, d);
    }
    // Bound alias sets refer to parameter expressions in flat ids: translate them once.
    let bound: Vec<Option<ExprId>> = b.aliases.bound.clone();
    for (i, be) in bound.iter().enumerate() {
        if let Some(e) = be {
            let t = b.translate(*e)?;
            b.aliases.bound[i] = Some(t);
        }
    }
    b.cache.clear();
    // Parameter bindings and start values.
    for i in 0..b.vars.len() {
        let Some(fv) = b.vars[i].flat else { continue };
        let var = &flat.vars[fv];
        let e = match b.vars[i].kind {
            SVarKind::Parameter => var.binding,
            // An input's start value is the value it holds until the environment sets it.
            SVarKind::State | SVarKind::Algebraic | SVarKind::Input | SVarKind::Discrete => {
                var.start
            }
            _ => None,
        };
        if let Some(e) = e {
            let t = b.translate(e)?;
            b.vars[i].binding = Some(t);
        }
    }
    Ok(Layout {
        step_start,
        step_size,
        states,
    })
}

/// The model equations that remain after alias elimination, over the step system's variables.
pub(super) fn model_equations(b: &mut Builder, flat: &FlatModel) -> DResult<Vec<SEquation>> {
    let mut model_eqs = Vec::new();
    for &k in &b.aliases.kept.clone() {
        let eq = flat.equation(k);
        let lhs = b.translate(eq.lhs)?;
        let rhs = b.translate(eq.rhs)?;
        model_eqs.push(SEquation {
            lhs,
            rhs,
            span: eq.span,
            origin: Origin::Model(k),
        });
    }
    Ok(model_eqs)
}

/// The initial system (the model with the states known) and the step system (the formulas,
/// the model at the end of the step, the stage copies), each with its unknowns.
pub(super) fn systems(
    b: &mut Builder,
    model_eqs: Vec<SEquation>,
    stepped: Stepped,
) -> (System, System) {
    let Stepped {
        step_eqs,
        stage_eqs,
        counter_eqs,
        stage_guesses,
        ..
    } = stepped;
    let mut init_unknowns = Vec::new();
    let mut step_unknowns = Vec::new();
    for (i, v) in b.vars.iter().enumerate() {
        let id = SysVar::new(i);
        match v.kind {
            SVarKind::Derivative | SVarKind::Algebraic => {
                init_unknowns.push(id);
                step_unknowns.push(id);
            }
            SVarKind::State | SVarKind::Stage => step_unknowns.push(id),
            _ => {}
        }
    }
    let mut step_all = step_eqs;
    step_all.extend(model_eqs.iter().copied());
    step_all.extend(stage_eqs);
    let mut init_eqs = model_eqs;
    for (v, eq) in stage_guesses {
        init_unknowns.push(v);
        init_eqs.push(eq);
    }
    if let Some((i, st)) = counter_eqs {
        init_eqs.push(i);
        step_all.push(st);
    }
    (
        System {
            equations: init_eqs.into(),
            unknowns: init_unknowns,
            step_size: None,
            parameter_values: Default::default(),
            trig_vars: Default::default(),
        },
        System {
            equations: step_all.into(),
            unknowns: step_unknowns,
            step_size: None,
            parameter_values: Default::default(),
            trig_vars: Default::default(),
        },
    )
}

/// Every flat variable, by name, as an expression over the step system's variables, for
/// recording results: the variables, then the parameters (recorded only when named, `rtc run
/// --vars J`: a parameter read from a file is a result too; not exported as outputs).
pub(super) fn outputs(b: &mut Builder, flat: &FlatModel) -> DResult<Vec<Recorded>> {
    let mut outputs = Vec::new();
    for (i, v) in flat.vars.iter().enumerate() {
        if matches!(v.kind, VarKind::Parameter | VarKind::Constant) {
            continue;
        }
        let id = FlatVar::new(i);
        let t = b.translate_var(id)?;
        // A state of the step system is the representative of a set with a state; its other
        // members (and members of sets the parameters fix) are recorded through it.
        let kind = match v.kind {
            VarKind::State | VarKind::Algebraic | VarKind::Discrete => {
                let (r, _) = b.aliases.resolve(id);
                if r == id && b.aliases.has_state[i] && b.aliases.bound[i].is_none() {
                    VarKind::State
                } else if v.kind == VarKind::State {
                    VarKind::Algebraic
                } else {
                    v.kind
                }
            }
            k => k,
        };
        outputs.push(Recorded {
            name: v.name.clone(),
            expr: t,
            kind,
            is_output: v.is_output,
        });
    }
    for (i, v) in flat.vars.iter().enumerate() {
        if v.kind != VarKind::Parameter {
            continue;
        }
        // A parameter the step system does not hold (a structural one, folded) is not
        // offered.
        if let Ok(t) = b.translate_var(FlatVar::new(i)) {
            outputs.push(Recorded {
                name: v.name.clone(),
                expr: t,
                kind: VarKind::Parameter,
                is_output: false,
            });
        }
    }
    Ok(outputs)
}
