//! The text `rtc analyze` prints: method, events, states kept for alias sets, BLT blocks,
//! the tearing of each loop (by name, with the residual equations and where they are
//! written), the work bound; and on request the step system, plan, flat model, layout,
//! Cranelift IR or alias sets.

use crate::diag::{Diagnostic, SourceMap};
use crate::flat::FlatModel;
use crate::pipeline::{self, Method};
use crate::plan::{self, Stmt};

/// The states that stand for alias sets, with the start value the set takes and why that
/// member was kept (at most [`LISTED_STATES`]; `--emit aliases` prints every set).
fn write_states(out: &mut String, flat: &FlatModel, d: &crate::system::Discretized) {
    use std::fmt::Write as _;
    let sets: Vec<&crate::flat::AliasSet> = d
        .formulas
        .iter()
        .filter_map(|(x, _)| d.vars[*x].flat)
        .filter_map(|f| d.alias_sets.iter().find(|s| s.rep == f))
        .collect();
    if sets.is_empty() {
        return;
    }
    let _ = writeln!(
        out,
        "  states kept for alias sets (start value; why this member; its aliases):"
    );
    for s in sets.iter().take(LISTED_STATES) {
        let var = flat.var(s.rep);
        let start = match var.start {
            Some(e) => flat.expr_string(e),
            None => "0 (no start value given)".into(),
        };
        let fixed = if var.fixed == Some(true) {
            ", fixed"
        } else {
            ""
        };
        let members: Vec<String> = s
            .members
            .iter()
            .map(|&(m, sign)| format!("{}{}", if sign < 0.0 { "-" } else { "" }, flat.var(m).name))
            .collect();
        let _ = writeln!(
            out,
            "    {} = {start}{fixed}  [kept: {}; aliases: {}]",
            var.name,
            s.kept.text(),
            members.join(", ")
        );
    }
    if sets.len() > LISTED_STATES {
        let _ = writeln!(
            out,
            "    … and {} more (every alias set: --emit aliases)",
            sets.len() - LISTED_STATES
        );
    }
}

/// How many states `rtc analyze` lists with their start values.
const LISTED_STATES: usize = 12;

/// The text `rtc analyze` prints: method, BLT blocks, tearing of each loop (by name, with
/// the residual equations and where they are written), work bound; optionally the plan.
pub fn report(
    flat: &FlatModel,
    sources: &SourceMap,
    settings: &pipeline::Settings,
    h: Option<f64>,
    min_tearing: Option<usize>,
    emit: Option<&str>,
) -> Result<String, Box<Diagnostic>> {
    use std::fmt::Write as _;
    let method = &settings.method;
    let mut out = String::new();
    // Initial equations solved into start values first (they are what the run starts from).
    let prepared = pipeline::prepare(flat, settings)?;
    let (flat, d, p) = (&prepared.flat, &prepared.system, &prepared.plan);
    let (init_r, step_r) = (&prepared.init_reports, &prepared.step_reports);
    let states = p.formulas.len();
    let explicit = p.formulas.iter().filter(|(_, f)| f.is_explicit()).count();
    let _ = writeln!(
        out,
        "model {} — method {}{}",
        p.name,
        p.method,
        h.map(|h| format!(", h = {h}")).unwrap_or_default()
    );
    for n in &p.notes {
        let _ = writeln!(out, "  {n}");
    }
    method_lines(&mut out, flat, method, h, d)?;
    let _ = writeln!(
        out,
        "  {} state{} ({} explicit, {} implicit), {} unknowns and equations per step",
        states,
        if states == 1 { "" } else { "s" },
        explicit,
        states - explicit,
        d.step.unknowns.len()
    );
    write_states(&mut out, flat, d);
    if matches!(method, Method::Mixed { .. } | Method::MixedLibe { .. }) {
        let imp: Vec<&str> = p
            .formulas
            .iter()
            .filter(|(_, f)| !f.is_explicit())
            .map(|(v, _)| p.name_of(*v))
            .collect();
        let how = if matches!(method, Method::MixedLibe { .. }) {
            "linearly implicit Euler"
        } else {
            "backward Euler"
        };
        let _ = writeln!(out, "  implicit ({how}): {}", imp.join(", "));
    }
    let (assigns, blocks) = assignments_and_blocks(&p.step);
    let _ = writeln!(
        out,
        "  BLT: {} assignments and {} algebraic loop{} iterated{}",
        assigns,
        blocks.len(),
        if blocks.len() == 1 { "" } else { "s" },
        if p.symbolic_loops > 0 {
            format!(
                "; {} linear loop{} torn to one variable and solved symbolically",
                p.symbolic_loops,
                if p.symbolic_loops == 1 { "" } else { "s" }
            )
        } else {
            String::new()
        }
    );
    loop_lines(&mut out, sources, p, &blocks, step_r, "loop");
    if let Some(max_k) = min_tearing {
        min_tearing_lines(&mut out, d, max_k);
    }
    let w = p.work_bound();
    let _ = writeln!(
        out,
        "  work bound per step: {} flops, {} libm calls{} (Newton at most {} iterations per nonlinear loop, {} while the residual keeps falling, then {} damped evaluations)",
        w.flops,
        w.libm_calls,
        if w.c_calls > 0 {
            format!(", {} external C calls", w.c_calls)
        } else {
            String::new()
        },
        p.newton.max_iterations,
        p.newton.full_iterations(),
        p.newton.damped
    );
    external_lines(&mut out, p);
    if p.all_assertions().next().is_some() {
        let roots: Vec<_> = p
            .assertions
            .iter()
            .chain(&p.warnings)
            .map(|(e, _)| *e)
            .collect();
        let a = crate::plan::expr_work(&p.arena, &roots);
        let _ = writeln!(
            out,
            "  assertions: {} checked after every step ({} flops, {} libm calls more), {} more after init{}",
            p.assertions.len() + p.warnings.len(),
            a.flops,
            a.libm_calls,
            p.initial_assertions.len(),
            if p.warnings.is_empty() {
                String::new()
            } else {
                format!("; {} of them of level warning (reported, the run goes on)", p.warnings.len())
            }
        );
    }
    initial_lines(&mut out, sources, p, init_r);
    emit_more(&mut out, flat, p, d, emit)?;
    Ok(out)
}

/// The external C calls of the plan (through shims, [`crate::symbolic::external::Shim`]):
/// each function with its call sites and what is known of one call's work (the bound counts
/// the calls; their work is the C code's); impure ones keep state in their library.
fn external_lines(out: &mut String, p: &crate::plan::Plan) {
    use std::fmt::Write;
    let mut names: Vec<(String, String, bool)> = p
        .arena
        .call_sites()
        .iter()
        .filter_map(|site| {
            let f = p.arena.function(site.f);
            f.shim
                .as_ref()
                .filter(|_| site.out == 0)
                .map(|s| (s.calls.clone(), s.cost.clone(), s.impure))
        })
        .collect();
    if names.is_empty() {
        return;
    }
    names.sort();
    let mut groups: Vec<((String, String, bool), usize)> = Vec::new();
    for n in names {
        match groups.last_mut() {
            Some(g) if g.0 == n => g.1 += 1,
            _ => groups.push((n, 1)),
        }
    }
    let sites: usize = groups.iter().map(|g| g.1).sum();
    let _ = writeln!(
        out,
        "  external C calls: {sites} call site{} through shims, each called once per evaluation of the expressions that read it (in events, the initial system, Newton's iterations; the bound above counts those of the step's evaluations); their work is the C code's:",
        if sites == 1 { "" } else { "s" },
    );
    for ((name, cost, impure), k) in groups {
        let _ = writeln!(
            out,
            "    {name}{}{}: {cost}",
            if k > 1 {
                format!(" ×{k}")
            } else {
                String::new()
            },
            if impure {
                " (impure: keeps state in its library, may write files)"
            } else {
                ""
            }
        );
    }
}

/// The lines on the method: multi-rate partition, Runge-Kutta stages, events.
fn method_lines(
    out: &mut String,
    flat: &FlatModel,
    method: &Method,
    h: Option<f64>,
    d: &crate::system::Discretized,
) -> Result<(), Box<Diagnostic>> {
    use std::fmt::Write as _;
    if let Method::MultiRate { .. } = method {
        let (fast, ratio) = pipeline::multirate_settings(flat, method)?;
        let _ = writeln!(
            out,
            "  multi-rate: {} at h/{ratio}{}, the other states at h",
            fast.join(", "),
            h.map(|h| format!(" = {} s", h / ratio as f64))
                .unwrap_or_default()
        );
    }
    if let Method::Rk(r) = method {
        let (c, _, _) = r.tableau();
        let times: Vec<String> = c.iter().map(|x| format!("{x:.4}")).collect();
        let _ = writeln!(
            out,
            "  {}: {} stages at t + ({})·h; {}",
            r.name(),
            c.len(),
            times.join(", "),
            if r.realtime_inputs() {
                "compatible with real-time inputs (no stage needs an input before it exists)"
            } else {
                "NOT compatible with real-time inputs: a stage needs the input at a time that has not come yet when the step is split into passes"
            }
        );
    }
    if !d.events.is_empty() {
        let conds: Vec<&str> = d.events.iter().map(|e| e.text.as_str()).collect();
        let timed = d
            .events
            .iter()
            .filter(|e| e.sample.is_some() || e.at)
            .count();
        let (r, l) = (crate::plan::EVENT_ITERATIONS, crate::sim::LOCATED_PER_STEP);
        let located = d
            .events
            .iter()
            .filter(|e| {
                e.sample.is_none() && !e.initial && !e.terminal && e.discrete.is_none() && !e.at
            })
            .count()
            .min(l);
        let discrete = d.events.iter().any(|e| e.discrete.is_some()) || !d.discrete_pre.is_empty();
        let _ = writeln!(
            out,
            "  events: {} ({}); a step with an event costs at most {} step evaluations ({} time event{}, each at most once per step, splitting it in up to {} part{}; in each part up to {located} located event{}, each with the part tried, the partial step to it (and up to three more past it) and an instant of up to {r} rounds, then the last try{}; an instant of up to {r} rounds at each time event)",
            conds.len(),
            conds.join("; "),
            crate::sim::step_bound(&d.events, discrete),
            timed,
            if timed == 1 { "" } else { "s" },
            timed + 1,
            if timed == 0 { "" } else { "s" },
            if located == 1 { "" } else { "s" },
            if located > 0 || discrete {
                " and an instant at its end"
            } else {
                ""
            }
        );
        let _ = writeln!(
            out,
            "  event iteration: at most {r} rounds (model solutions) per instant: pre(v) := v for the {} discrete variables, the actions, the relations and when-clauses that moved (status 5 beyond)",
            d.discrete_pre.len()
        );
    }
    Ok(())
}

/// Each torn loop: its tearing variables, band and residuals with their source locations.
fn loop_lines(
    out: &mut String,
    sources: &SourceMap,
    p: &crate::plan::Plan,
    blocks: &[&plan::TornBlock],
    step_r: &[pipeline::BlockReport],
    label: &str,
) {
    use std::fmt::Write as _;
    for (b, r) in blocks.iter().zip(step_r) {
        let _ = writeln!(
            out,
            "  {label} {}: {} equations, {} tearing variable{} ({}): {}",
            b.index,
            r.size,
            b.tearing.len(),
            if b.tearing.len() == 1 { "" } else { "s" },
            if b.linear {
                "linear, one solve"
            } else {
                "nonlinear, Newton"
            },
            b.tearing
                .iter()
                .map(|&v| p.name_of(v))
                .collect::<Vec<_>>()
                .join(", ")
        );
        let k = b.tearing.len();
        if b.band.0 + 1 < k {
            let _ = writeln!(
                out,
                "    Jacobian ordered into a band: {} sub- and {} super-diagonals (with the fill of \
                 row interchanges); LU {} flops instead of {} dense",
                b.band.0,
                b.band.1,
                crate::plan::band::lu_flops(k, b.band.0, b.band.1),
                crate::plan::band::lu_flops(k, k - 1, 2 * k - 2)
            );
        }
        if b.slides() {
            let _ = writeln!(
                out,
                "    switches without events on its unknowns: where the damped retry fails, a second one slides on them (band {:e} of the relations' operands)",
                crate::plan::slide::WIDTH
            );
        }
        for (k, (span, text)) in r.residual_spans.iter().zip(&r.residual_text).enumerate() {
            let _ = writeln!(
                out,
                "    residual {k}: {text}    [{}]",
                sources.location(*span)
            );
        }
    }
}

/// How many assignments a statement list has, and its torn blocks.
fn assignments_and_blocks(stmts: &[Stmt]) -> (usize, Vec<&plan::TornBlock>) {
    let assigns = stmts
        .iter()
        .filter(|s| matches!(s, Stmt::Assign(_)))
        .count();
    let blocks = stmts
        .iter()
        .filter_map(|s| match s {
            Stmt::Block(b) => Some(&**b),
            _ => None,
        })
        .collect();
    (assigns, blocks)
}

/// The initial system: the model at the start time with the states known (after initial
/// equations were solved into start values), solved once before the first step; its loops
/// with their tearing.
fn initial_lines(
    out: &mut String,
    sources: &SourceMap,
    p: &crate::plan::Plan,
    init_r: &[pipeline::BlockReport],
) {
    use std::fmt::Write as _;
    let (assigns, blocks) = assignments_and_blocks(&p.init);
    let _ = writeln!(
        out,
        "  initial system (the model at the start time, states known; once, before the first step): {} assignments and {} algebraic loop{} iterated",
        assigns,
        blocks.len(),
        if blocks.len() == 1 { "" } else { "s" },
    );
    loop_lines(out, sources, p, &blocks, init_r, "initial loop");
}

/// `--min-tearing K`: the smallest set of tearing variables of each loop, up to K.
fn min_tearing_lines(out: &mut String, d: &crate::system::Discretized, max_k: usize) {
    use std::fmt::Write as _;
    let inc = crate::structure::blt::incidence(&d.arena, &d.step);
    let names = |v: crate::system::SysVar| d.vars[v].name.clone();
    let texts = |_: &crate::system::SEquation| String::new();
    if let Ok(bl) = crate::structure::blt::blt(&d.arena, &d.step, &names, &texts) {
        let mut ar = d.arena.clone();
        for b in bl.iter().filter(|b| b.equations.len() > 1) {
            match crate::structure::tearing::minimum_tearing(&mut ar, &d.step, b, &inc, max_k) {
                Some(set) => writeln!(
                    out,
                    "  loop of {} equations: minimum tearing {} ({})",
                    b.equations.len(),
                    set.len(),
                    set.iter()
                        .map(|&v| d.vars[v].name.clone())
                        .collect::<Vec<_>>()
                        .join(", ")
                )
                .unwrap_or(()),
                None => writeln!(
                    out,
                    "  loop of {} equations: no tearing set of at most {max_k} variables",
                    b.equations.len()
                )
                .unwrap_or(()),
            }
        }
    }
}

/// `--emit`: the step system, plan, flat model, layout, Cranelift IR or alias sets.
fn emit_more(
    out: &mut String,
    flat: &FlatModel,
    p: &crate::plan::Plan,
    d: &crate::system::Discretized,
    emit: Option<&str>,
) -> Result<(), Box<Diagnostic>> {
    use std::fmt::Write as _;
    match emit {
        Some("aliases") => {
            let _ = writeln!(
                out,
                "alias sets: {} (the kept variable first; `= -x`: x is its negative)",
                d.alias_sets.len()
            );
            for set in &d.alias_sets {
                let _ = writeln!(out, "  {}", set.text(flat));
            }
        }
        Some("plan") => out.push_str(&p.print()),
        Some("system") => out.push_str(&d.print()),
        Some("flat") => out.push_str(&flat.print()),
        Some("layout") => out.push_str(&p.layout()),
        Some("clif") => {
            let code = crate::codegen::jit(p, true).map_err(|e| {
                Box::new(Diagnostic::error(
                    "codegen",
                    format!("code generation failed: {e}"),
                ))
            })?;
            for f in &code.clif {
                out.push_str(f);
                out.push('\n');
            }
        }
        Some(other) => {
            return Err(Box::new(Diagnostic::error(
                "command-line",
                format!("--emit {other}: expected system, plan, flat, clif, layout or aliases"),
            )))
        }
        None => {}
    }
    Ok(())
}
