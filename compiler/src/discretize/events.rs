//! Events in the step system (Cellier & Kofman §10.8): when-equations as state, time and
//! discrete events with their sorted actions; relations of if-expressions as switching events;
//! the event functions' time derivatives for cubic location.

use super::{Builder, DResult};
use crate::diag::{Diagnostic, Span};
use crate::flat::FlatModel;
use crate::symbolic::{CmpOp, ExprId, Node};
use crate::system::SysVar;
use crate::system::{Event, Method, Relation, Rk, SEquation, SVarKind};
use rustc_hash::FxHashMap;

/// Events from when-equations: z from a condition's relation on the continuous solution (a
/// state event), or a Boolean condition of discrete variables checked at event instants;
/// actions read pre(v) from slots the event handler fills with the values just before the
/// instant.
pub(super) fn when_events(b: &mut Builder, flat: &FlatModel) -> DResult<Vec<Event>> {
    let mut events = Vec::new();
    for w in &flat.whens {
        let mut z = b.arena.constant(0.0);
        let mut below = false;
        let mut closed = false;
        let mut discrete = None;
        let mut at = false;
        let mut relation = None;
        if w.sample.is_none() && !w.initial && !w.terminal {
            let cond = b.translate(w.condition)?;
            let mut leaves = Vec::new();
            b.arena.leaves(cond, &mut leaves);
            // Booleans, Integers and enumerations change only at events (the relations that
            // define them are events themselves): a condition of them is discrete.
            let real = |v: &SysVar| {
                b.vars[*v]
                    .flat
                    .is_none_or(|f| flat.var(f).ty == crate::flat::ScalarType::Real)
            };
            let moving = leaves.iter().any(|l| match l {
                Node::Var(v) => {
                    matches!(
                        b.vars[*v].kind,
                        SVarKind::State
                            | SVarKind::Derivative
                            | SVarKind::Algebraic
                            | SVarKind::Time
                            | SVarKind::Input
                    ) && real(v)
                }
                _ => false,
            });
            // Between events pre(v) is v: an event function reads the variable, not the slot
            // that holds its value before the last event (which would keep
            // `floor(time/T) > pre(n)` true after its first event, so it never fired again).
            let inverse: FxHashMap<SysVar, SysVar> =
                b.pre_of.iter().map(|(&v, &p)| (p, v)).collect();
            let between = |b: &mut Builder, e: ExprId| {
                let mut cache = FxHashMap::default();
                b.arena.substitute(e, &mut cache, &mut |ar, n| match n {
                    Node::Var(p) => inverse.get(&p).map(|&v| ar.var(v)),
                    _ => None,
                })
            };
            match (moving, b.arena.node(cond)) {
                (false, _) => discrete = Some(cond),
                (true, Node::Cmp(op, l, r)) if !matches!(op, CmpOp::Eq | CmpOp::Ne) => {
                    let d = b.arena.sub(l, r);
                    // A relation of time, parameters and discrete variables that becomes true
                    // as time passes (`time >= pre(t_next)`): a time event at its time,
                    // re-read after every instant; its value is checked in event iterations.
                    if let Some(t) = rising_time(b, d, op) {
                        at = true;
                        z = between(b, t);
                        relation = Some(Relation {
                            slot: None,
                            live: cond,
                        });
                    } else {
                        z = between(b, d);
                        below = matches!(op, CmpOp::Lt | CmpOp::Le);
                        closed = matches!(op, CmpOp::Ge | CmpOp::Le);
                    }
                }
                // A combination of relations (and discrete terms): checked as a discrete
                // condition at event instants, each of its relations an event of its own
                // (`relation_events`), so it can change only at an instant.
                (true, _) => discrete = Some(cond),
            }
        }
        let mut assigns = Vec::new();
        for &(x, e) in &w.assigns {
            assigns.push((b.value_of[&x], b.translate(e)?));
        }
        let assigns = sort_assignments(&b.arena, assigns).map_err(|v| {
            Box::new(
                Diagnostic::error(
                    "when",
                    format!(
                        "the assignments in this when-equation depend on each other in a cycle (through `{}`)",
                        b.vars[v].name
                    ),
                )
                .at(w.span, "in this when-equation")
                .help("use pre(v) for the value before the event"),
            )
        })?;
        let mut reinits = Vec::new();
        for &(x, e) in &w.reinits {
            let (r, _) = b.aliases.resolve(x);
            let (Some(&sv), true) = (b.value_of.get(&r), b.der_of.contains_key(&r)) else {
                return Err(Box::new(
                    Diagnostic::error(
                        "reinit",
                        format!("reinit of `{}`, which is not a state", flat.var(x).name),
                    )
                    .at(w.span, "in this when-equation")
                    .help("only states (variables whose der() appears) can be re-initialised"),
                ));
            };
            if r != x {
                return Err(Box::new(
                    Diagnostic::error(
                        "unsupported",
                        format!(
                            "not yet supported: reinit of `{}`, an alias of another state",
                            flat.var(x).name
                        ),
                    )
                    .at(w.span, "in this when-equation"),
                ));
            }
            let te = b.translate(e)?;
            reinits.push((sv, te));
        }
        // Re-initialisations act together: run in order, each reads the others' targets
        // from their pre slots (the values at the instant's start).
        if reinits.len() > 1 {
            let map: FxHashMap<SysVar, SysVar> =
                reinits.iter().map(|&(x, _)| (x, b.pre(x))).collect();
            let mut cache = FxHashMap::default();
            for r in reinits.iter_mut() {
                r.1 = b.arena.substitute(r.1, &mut cache, &mut |ar, n| match n {
                    Node::Var(v) => map.get(&v).map(|&p| ar.var(p)),
                    _ => None,
                });
            }
        }
        // The pre slots the condition and the actions read.
        // One walk over the actions together (an FFT's outputs share thousands of nodes).
        let mut pres = Vec::new();
        let mut seen: rustc_hash::FxHashSet<ExprId> = Default::default();
        for e in assigns.iter().chain(&reinits).map(|a| a.1).chain(discrete) {
            for id in b.arena.post_order(e, |id| seen.contains(&id)) {
                seen.insert(id);
                if let Node::Var(p) = b.arena.node(id) {
                    if let (SVarKind::Pre, Some(v)) = (b.vars[p].kind, b.vars[p].pre_of) {
                        if !pres.contains(&(p, v)) {
                            pres.push((p, v));
                        }
                    }
                }
            }
        }
        events.push(Event {
            z,
            below,
            both: false,
            sample: w.sample,
            initial: w.initial,
            terminal: w.terminal,
            discrete,
            reinits,
            assigns,
            terminate: w.terminate.clone(),
            chain: w.chain,
            pres,
            dz: None,
            at,
            jump: !at && jumps(&b.arena, &b.vars, z),
            closed,
            relation,
            text: w.condition_text(flat),
            span: w.span,
        });
    }
    Ok(events)
}

/// The time at which `d` (`d op 0`, a relation of time, parameters and discrete variables,
/// linear in time) becomes true as time passes, if it is such a relation with a known
/// direction: `time >= T`, `T < time`.
fn rising_time(b: &mut Builder, d: ExprId, op: CmpOp) -> Option<ExprId> {
    if !of_time_and_discretes(b, d) {
        return None;
    }
    let (slope, offset) = crate::symbolic::diff::linear(&mut b.arena, d, b.time)?;
    let s = b.arena.as_const(slope)?;
    let rising = match op {
        CmpOp::Gt | CmpOp::Ge => s > 0.0,
        CmpOp::Lt | CmpOp::Le => s < 0.0,
        _ => false,
    };
    if !rising {
        return None;
    }
    let neg = b.arena.neg(offset);
    Some(b.arena.div(neg, slope))
}

/// Whether `e` reads time and otherwise only parameters, constants and variables that change
/// only at events (discrete slots, `pre` values).
fn of_time_and_discretes(b: &Builder, e: ExprId) -> bool {
    let mut leaves = Vec::new();
    b.arena.leaves(e, &mut leaves);
    leaves
        .iter()
        .any(|l| matches!(l, Node::Var(v) if *v == b.time))
        && leaves.iter().all(|l| match l {
            Node::Var(v) => {
                *v == b.time
                    || matches!(
                        b.vars[*v].kind,
                        SVarKind::Parameter | SVarKind::Discrete | SVarKind::Pre
                    )
            }
            Node::Const(_) => true,
            _ => false,
        })
}

/// Relations generate events unless wrapped in noEvent (specification 8.5), the conditions of
/// if-expressions and the values of Boolean equations alike: the step is split where they
/// change, so no step straddles the switch. Relations
/// of time alone become time events, frozen in a discrete slot.
pub(super) fn relation_events(
    b: &mut Builder,
    init_eqs: &mut [SEquation],
    step_all: &mut [SEquation],
    events: &mut Vec<Event>,
) {
    let mut seen: rustc_hash::FxHashSet<ExprId> = rustc_hash::FxHashSet::default();
    let mut relations: Vec<ExprId> = Vec::new();
    let roots: Vec<[ExprId; 2]> = init_eqs
        .iter()
        .map(|eq| [eq.lhs, eq.rhs])
        .chain(events.iter().filter_map(|e| e.discrete).map(|d| [d, d]))
        .collect();
    let collect = |b: &Builder,
                   seen: &mut rustc_hash::FxHashSet<ExprId>,
                   relations: &mut Vec<ExprId>,
                   roots: &[[ExprId; 2]],
                   of_stages: bool| {
        for &[lhs, rhs] in roots {
            let mut stack = vec![lhs, rhs];
            while let Some(e) = stack.pop() {
                if !seen.insert(e) {
                    continue;
                }
                match b.arena.node(e) {
                    Node::NoEvent(_) => continue,
                    // A relation anywhere outside noEvent: the condition of an if-expression,
                    // or a Boolean equation's value (`b = x > 0`), which a when-condition may
                    // read.
                    Node::Cmp(..) if !relations.contains(&e) => {
                        let mut leaves = Vec::new();
                        b.arena.leaves(e, &mut leaves);
                        let of_model = of_stages
                            || leaves.iter().all(|l| match l {
                                Node::Var(v) => b.vars[*v].kind != SVarKind::Stage,
                                _ => true,
                            });
                        if of_model {
                            relations.push(e);
                        }
                    }
                    _ => {}
                }
                stack.extend(b.arena.children(e));
            }
        }
    };
    collect(b, &mut seen, &mut relations, &roots, true);
    // The relations the step reads and the initial system does not: those behind
    // `if initial() then … else …` (the initial system reads the first branch; an
    // ElastoBacklash's contact `phi_diff > bMax` is in the second). Not a stage copy's
    // (a multi-stage method's stages read the relations of the model's variables).
    let step_roots: Vec<[ExprId; 2]> = step_all.iter().map(|eq| [eq.lhs, eq.rhs]).collect();
    collect(b, &mut seen, &mut relations, &step_roots, false);
    let mut frozen: FxHashMap<ExprId, ExprId> = FxHashMap::default();
    let of_time = functions_of_time(b, init_eqs);
    for r in relations {
        // The relation with the variables that are functions of time alone (a table's
        // `timeScaled = time/timeScale`) written out.
        let mut cache = FxHashMap::default();
        let rt = b.arena.substitute(r, &mut cache, &mut |_, n| match n {
            Node::Var(v) => of_time.get(&v).copied(),
            _ => None,
        });
        let Node::Cmp(op, a, c) = b.arena.node(rt) else {
            continue;
        };
        if matches!(op, CmpOp::Eq | CmpOp::Ne) {
            continue;
        }
        let mut leaves = Vec::new();
        b.arena.leaves(rt, &mut leaves);
        let name = |v: SysVar| b.vars[v].name.clone();
        let text = crate::symbolic::ExprPrinter {
            arena: &b.arena,
            name: &name,
            temps: None,
        }
        .to_string(r);
        let z = b.arena.sub(a, c);
        // A relation of time, parameters and discrete variables, linear in time (a block's
        // `time < startTime`, a step's `time >= t_start + waitTime`): a time event at its
        // known time T = −b/a, re-read after every instant (the discrete variables may move
        // it). The relation is frozen in a discrete slot, so the step is split exactly at T
        // and each part sees one side.
        if of_time_and_discretes(b, rt) {
            if let Some((slope, offset)) = crate::symbolic::diff::linear(&mut b.arena, z, b.time) {
                let span = b.vars[b.time].span;
                let slot = b.add(format!("({text})"), SVarKind::Discrete, None, span);
                b.vars[slot].binding = Some(rt);
                let neg = b.arena.neg(offset);
                let at = b.arena.div(neg, slope);
                let zero = b.arena.constant(0.0);
                let after = b.arena.cmp(op, slope, zero);
                frozen.insert(r, b.arena.var(slot));
                events.push(Event {
                    z: at,
                    below: false,
                    both: false,
                    sample: None,
                    initial: false,
                    terminal: false,
                    discrete: None,
                    reinits: Vec::new(),
                    assigns: vec![(slot, after)],
                    terminate: None,
                    chain: (usize::MAX, 0),
                    pres: Vec::new(),
                    dz: None,
                    at: true,
                    jump: false,
                    closed: false,
                    relation: Some(Relation {
                        slot: Some(slot),
                        live: rt,
                    }),
                    text,
                    span: Span::default(),
                });
                continue;
            }
        }
        // Otherwise relations on the continuous solution (Real states, derivatives,
        // algebraic variables, time): not parameter tests, and not relations of Integer or
        // Boolean variables (`firstActiveIndex == 1`), which change only when what they are
        // computed from changes. Each is frozen in a discrete slot between events: the step
        // equations read the slot, so a step's solution never switches mode on its own; its
        // function z = a − c, continuous in the step, locates the crossing, and the event
        // flips the slot.
        let flat = b.flat;
        let moving = leaves.iter().any(|l| match l {
            Node::Var(v) => {
                matches!(
                    b.vars[*v].kind,
                    SVarKind::State | SVarKind::Derivative | SVarKind::Algebraic | SVarKind::Time
                ) && b.vars[*v]
                    .flat
                    .is_none_or(|f| flat.var(f).ty == crate::flat::ScalarType::Real)
            }
            _ => false,
        });
        if !moving {
            continue;
        }
        let span = b.vars[b.time].span;
        let slot = b.add(format!("({text})"), SVarKind::Discrete, None, span);
        let sv = b.arena.var(slot);
        let one = b.arena.constant(1.0);
        let flip = b.arena.sub(one, sv);
        frozen.insert(r, sv);
        events.push(Event {
            z,
            below: false,
            both: true,
            sample: None,
            initial: false,
            terminal: false,
            discrete: None,
            reinits: Vec::new(),
            assigns: vec![(slot, flip)],
            terminate: None,
            chain: (usize::MAX, 0),
            pres: Vec::new(),
            dz: None,
            at: false,
            jump: jumps(&b.arena, &b.vars, z),
            closed: false,
            relation: Some(Relation {
                slot: Some(slot),
                live: rt,
            }),
            text,
            span: Span::default(),
        });
    }
    if !frozen.is_empty() {
        // A substitution whose cache already maps each relation to its slot: the step reads
        // the slots; the initial system keeps the relations (it solves the model at the start
        // with their live values, which the slots then take).
        let mut cache = frozen.clone();
        for eq in step_all.iter_mut() {
            for side in [&mut eq.lhs, &mut eq.rhs] {
                *side = b.arena.substitute(*side, &mut cache, &mut |_, _| None);
            }
        }
        // Discrete when-conditions read the frozen slots too (what the events change).
        for e in events.iter_mut() {
            if let Some(d) = e.discrete {
                e.discrete = Some(b.arena.substitute(d, &mut cache, &mut |_, _| None));
            }
        }
    }
}

/// The Real algebraic variables that an equation defines as a function of time and
/// parameters alone (`v = time/T`), with that function. Not an Integer, Boolean or
/// enumeration variable (a digital table's output): it changes only at the events of its own
/// relations, so a relation of it is no crossing of its own (written out, it became one, and
/// at the instant its slot could flip before the variable did: the MSL's RAM read its memory
/// at an address its other relations had not seen yet, NaN).
fn functions_of_time(b: &mut Builder, eqs: &[SEquation]) -> FxHashMap<SysVar, ExprId> {
    let mut out = FxHashMap::default();
    let flat = b.flat;
    for eq in eqs {
        for (v, e) in [(eq.lhs, eq.rhs), (eq.rhs, eq.lhs)] {
            let Node::Var(x) = b.arena.node(v) else {
                continue;
            };
            if b.vars[x].kind != SVarKind::Algebraic
                || b.vars[x]
                    .flat
                    .is_some_and(|f| flat.var(f).ty != crate::flat::ScalarType::Real)
            {
                continue;
            }
            let mut leaves = Vec::new();
            b.arena.leaves(e, &mut leaves);
            let of_time = leaves
                .iter()
                .any(|l| matches!(l, Node::Var(t) if *t == b.time))
                && leaves.iter().all(|l| match l {
                    Node::Var(t) => *t == b.time || b.vars[*t].kind == SVarKind::Parameter,
                    Node::Const(_) => true,
                    _ => false,
                });
            if of_time {
                out.entry(x).or_insert(e);
            }
        }
    }
    out
}

/// Methods of order 3 and more locate state events by a cubic: the time derivative of each
/// event function, over states (with their derivatives), time, parameters and discrete
/// variables; functions of other variables keep regula falsi.
pub(super) fn event_slopes(b: &mut Builder, method: &Method, events: &mut [Event]) {
    let order = match method {
        Method::Radau | Method::Rk(Rk::Rk3) | Method::Ab(3) => 3,
        Method::Rk(Rk::Rk4 | Rk::Rtrk4) => 4,
        _ => 1,
    };
    if order >= 3 {
        let der_of_state: FxHashMap<SysVar, SysVar> = b
            .der_of
            .iter()
            .filter_map(|(f, &d)| b.value_of.get(f).map(|&sv| (sv, d)))
            .collect();
        for e in events.iter_mut() {
            if e.sample.is_some() || e.initial || e.terminal || e.discrete.is_some() {
                continue;
            }
            let mut leaves = Vec::new();
            b.arena.leaves(e.z, &mut leaves);
            let mut terms = Vec::new();
            let mut ok = true;
            for l in &leaves {
                let Node::Var(v) = *l else { continue };
                match b.vars[v].kind {
                    SVarKind::State => match der_of_state.get(&v) {
                        Some(&d) => terms.push((v, Some(d))),
                        None => ok = false,
                    },
                    SVarKind::Time => terms.push((v, None)),
                    SVarKind::Parameter | SVarKind::Discrete => {}
                    _ => ok = false,
                }
            }
            if !ok {
                continue;
            }
            let mut dz = b.arena.constant(0.0);
            for (v, d) in terms {
                let partial = crate::symbolic::diff::diff(&mut b.arena, e.z, v);
                let rate = match d {
                    Some(d) => b.arena.var(d),
                    None => b.arena.constant(1.0),
                };
                let term = b.arena.mul(partial, rate);
                dz = b.arena.add(dz, term);
            }
            e.dz = Some(dz);
        }
    }
}

/// Orders a when-equation's assignments so that each one follows those whose new values it
/// reads (stable: source order where free). A cycle names one of its variables.
fn sort_assignments(
    ar: &crate::symbolic::Arena<SysVar>,
    assigns: Vec<(SysVar, ExprId)>,
) -> Result<Vec<(SysVar, ExprId)>, SysVar> {
    let targets: Vec<SysVar> = assigns.iter().map(|a| a.0).collect();
    // By a map: an FFT's outputs are hundreds of assignments, each over thousands of leaves.
    let index: FxHashMap<SysVar, usize> = targets
        .iter()
        .enumerate()
        .rev()
        .map(|(i, &t)| (t, i))
        .collect();
    // The targets below each node, found once per node over all the actions (an FFT's
    // outputs share a call over thousands of nodes).
    let mut below: FxHashMap<ExprId, Vec<usize>> = FxHashMap::default();
    let mut deps: Vec<Vec<usize>> = Vec::with_capacity(assigns.len());
    for &(_, e) in &assigns {
        for id in ar.post_order(e, |id| below.contains_key(&id)) {
            let mut d: Vec<usize> = match ar.node(id) {
                Node::Var(v) => index.get(&v).copied().into_iter().collect(),
                _ => ar
                    .children(id)
                    .flat_map(|c| below[&c].iter().copied())
                    .collect(),
            };
            d.sort_unstable();
            d.dedup();
            below.insert(id, d);
        }
        deps.push(below[&e].clone());
    }
    let mut done = vec![false; assigns.len()];
    let mut out = Vec::with_capacity(assigns.len());
    while out.len() < assigns.len() {
        let Some(i) =
            (0..assigns.len()).find(|&i| !done[i] && deps[i].iter().all(|&j| done[j] || j == i))
        else {
            let i = (0..assigns.len()).find(|&i| !done[i]).expect("some left");
            return Err(targets[i]);
        };
        if deps[i].contains(&i) {
            return Err(targets[i]);
        }
        done[i] = true;
        out.push(assigns[i]);
    }
    Ok(out)
}

/// Whether an event function can jump: it holds a floor, ceil, sign, integer division,
/// modulo, remainder, relation or selection (whose value changes discontinuously). A
/// relation or selection on values events alone change (a relation frozen in its slot, a
/// discrete variable, a parameter) or on time (`if time < startTime then …` of a ramp: a
/// time event, which splits the step) does not jump inside a part of a step: the event can
/// be located (an on-off controller's relation on a ramp landed at the
/// step's end, 1.3 ms late at a 1 ms step).
fn jumps(ar: &crate::symbolic::Arena<SysVar>, vars: &[crate::system::SVar], z: ExprId) -> bool {
    use crate::symbolic::{Func1, Func2};
    // Values only events change, or time (whose relations are time events: the step is split
    // at them, so inside a part such a relation holds still).
    let still = |v: SysVar| {
        matches!(
            vars[v.index()].kind,
            SVarKind::Discrete
                | SVarKind::Pre
                | SVarKind::Parameter
                | SVarKind::Time
                | SVarKind::StepStart
                | SVarKind::StepSize
        )
    };
    let of_still = |e: ExprId| {
        let mut seen = vec![false; ar.len()];
        let mut ok = true;
        ar.visit_postorder(e, &mut seen, &mut |x| match ar.node(x) {
            Node::Var(v) | Node::Pre(v) => ok &= still(v),
            Node::Der(_) => ok = false,
            _ => {}
        });
        ok
    };
    let mut seen = vec![false; ar.len()];
    let mut found = false;
    ar.visit_postorder(z, &mut seen, &mut |x| {
        let jumping = match ar.node(x) {
            Node::If(c, ..) | Node::Not(c) => !of_still(c),
            Node::Cmp(..) | Node::And(..) | Node::Or(..) => !of_still(x),
            Node::Call1(Func1::Floor | Func1::Ceil | Func1::Sign, _)
            | Node::Call2(Func2::Div | Func2::Mod | Func2::Rem, ..) => true,
            _ => false,
        };
        found |= jumping;
    });
    found
}
