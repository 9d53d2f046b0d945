//! `rtc analyze` and `rtc run`.

use crate::cli::{load_model, print_diagnostics, AnalyzeArgs, MethodArgs, RunArgs};
use crate::diag::{Diagnostic, SourceMap};
use crate::discretize::Method;
use crate::flat::FlatModel;
use crate::plan::{self, Stmt};
use crate::sim::{self, RunSettings};
use std::io::Write;

pub(crate) fn method_of(m: &MethodArgs) -> Result<Method, Box<Diagnostic>> {
    let method = match m.method.as_str() {
        "fe" => Method::ForwardEuler,
        "be" => Method::BackwardEuler,
        "trapezoid" | "trap" => Method::Trapezoid,
        "mixed" => Method::Mixed {
            implicit: m.implicit.clone(),
        },
        other => {
            return Err(Box::new(
                Diagnostic::error("command-line", format!("unknown method `{other}`"))
                    .help("the methods are fe, be, trapezoid, mixed"),
            ))
        }
    };
    if !m.implicit.is_empty() && !matches!(method, Method::Mixed { .. }) {
        return Err(Box::new(Diagnostic::error(
            "command-line",
            "--implicit only applies to --method mixed",
        )));
    }
    if m.newton_iterations == 0 {
        return Err(Box::new(Diagnostic::error(
            "command-line",
            "--newton-iterations must be at least 1",
        )));
    }
    Ok(method)
}

pub(crate) fn step_of(m: &MethodArgs, flat: &FlatModel) -> Result<f64, Box<Diagnostic>> {
    let h = m.step.or(flat.experiment.interval).ok_or_else(|| {
        Box::new(Diagnostic::error(
            "command-line",
            "no step size: give --step or an experiment(Interval = …) annotation",
        ))
    })?;
    if !(h > 0.0 && h.is_finite()) {
        return Err(Box::new(Diagnostic::error(
            "command-line",
            format!("the step size must be positive, not {h}"),
        )));
    }
    Ok(h)
}

// Diagnostics travel boxed through the phases; this is where they end.
#[allow(clippy::boxed_local)]
pub(crate) fn fail(d: Box<Diagnostic>, sources: &SourceMap, short: bool) -> u8 {
    print_diagnostics(&[*d], sources, short);
    1
}

pub fn analyze(a: &AnalyzeArgs) -> u8 {
    let Some((flat, sources)) = load_model(&a.model) else {
        return 1;
    };
    let short = a.model.short_diagnostics;
    let method = match method_of(&a.method) {
        Ok(m) => m,
        Err(d) => return fail(d, &sources, short),
    };
    let h = step_of(&a.method, &flat).ok();
    let newton = plan::Newton {
        max_iterations: a.method.newton_iterations,
        ..plan::Newton::default()
    };
    match analysis_report(
        &flat,
        &sources,
        &method,
        h,
        newton,
        a.min_tearing,
        a.emit.as_deref(),
    ) {
        Ok(text) => {
            print!("{text}");
            0
        }
        Err(d) => fail(d, &sources, short),
    }
}

/// The text `rtc analyze` prints: method, BLT blocks, tearing of each loop (by name, with
/// the residual equations and where they are written), work bound; optionally the plan.
pub fn analysis_report(
    flat: &FlatModel,
    sources: &SourceMap,
    method: &Method,
    h: Option<f64>,
    newton: plan::Newton,
    min_tearing: Option<usize>,
    emit: Option<&str>,
) -> Result<String, Box<Diagnostic>> {
    use std::fmt::Write as _;
    let mut out = String::new();
    let d = crate::discretize::discretize(flat, method)?;
    let (mut p, _init_r, step_r) = plan::build(&d, &plan::BuildOptions { newton })?;
    p.method = method.name().to_string();
    let states = p.formulas.len();
    let explicit = p.formulas.iter().filter(|(_, f)| f.is_explicit()).count();
    let _ = writeln!(
        out,
        "model {} — method {}{}",
        p.name,
        p.method,
        h.map(|h| format!(", h = {h}")).unwrap_or_default()
    );
    let _ = writeln!(
        out,
        "  {} state{} ({} explicit, {} implicit), {} unknowns and equations per step",
        states,
        if states == 1 { "" } else { "s" },
        explicit,
        states - explicit,
        d.step.unknowns.len()
    );
    if matches!(method, Method::Mixed { .. }) {
        let imp: Vec<&str> = p
            .formulas
            .iter()
            .filter(|(_, f)| !f.is_explicit())
            .map(|(v, _)| p.name_of(*v))
            .collect();
        let _ = writeln!(out, "  implicit (backward Euler): {}", imp.join(", "));
    }
    let assigns = p
        .step
        .iter()
        .filter(|s| matches!(s, Stmt::Assign(_)))
        .count();
    let blocks: Vec<&plan::TornBlock> = p
        .step
        .iter()
        .filter_map(|s| match s {
            Stmt::Block(b) => Some(&**b),
            _ => None,
        })
        .collect();
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
    for (b, r) in blocks.iter().zip(&step_r) {
        let _ = writeln!(
            out,
            "  loop {}: {} equations, {} tearing variable{} ({}): {}",
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
        for (k, (span, text)) in r.residual_spans.iter().zip(&r.residual_text).enumerate() {
            let _ = writeln!(
                out,
                "    residual {k}: {text}    [{}]",
                sources.location(*span)
            );
        }
    }
    if let Some(max_k) = min_tearing {
        let inc = crate::structure::blt::incidence(&d.arena, &d.step);
        let names = |v: crate::symbolic::VarId| d.vars[v.index()].name.clone();
        let texts = |_: &crate::discretize::SEquation| String::new();
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
                            .map(|&v| d.vars[v.index()].name.clone())
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
    let w = p.work_bound();
    let _ = writeln!(
        out,
        "  work bound per step: {} flops, {} libm calls (Newton at most {} iterations per nonlinear loop)",
        w.flops, w.libm_calls, p.newton.max_iterations
    );
    match emit {
        Some("plan") => out.push_str(&p.print()),
        Some("flat") => out.push_str(&flat.print()),
        Some("layout") => out.push_str(&p.layout()),
        Some("clif") => {
            let code = crate::codegen::jit(&p, true).map_err(|e| {
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
                format!("--emit {other}: expected plan, flat, clif or layout"),
            )))
        }
        None => {}
    }
    Ok(out)
}

pub fn run(a: &RunArgs) -> u8 {
    let Some((flat, sources)) = load_model(&a.model) else {
        return 1;
    };
    let short = a.model.short_diagnostics;
    let method = match method_of(&a.method) {
        Ok(m) => m,
        Err(d) => return fail(d, &sources, short),
    };
    let h = match step_of(&a.method, &flat) {
        Ok(h) => h,
        Err(d) => return fail(d, &sources, short),
    };
    let start = flat.experiment.start_time.unwrap_or(0.0);
    let Some(stop) = a.stop.or(flat.experiment.stop_time) else {
        return fail(
            Box::new(Diagnostic::error(
                "command-line",
                "no stop time: give --stop or an experiment(StopTime = …) annotation",
            )),
            &sources,
            short,
        );
    };
    if stop.is_nan() || stop < start {
        return fail(
            Box::new(Diagnostic::error(
                "command-line",
                format!("stop time {stop} is before the start time {start}"),
            )),
            &sources,
            short,
        );
    }
    let interval = a.interval.or(flat.experiment.interval).unwrap_or(h);
    let every = (interval / h).round().max(1.0) as usize;
    if ((every as f64) * h - interval).abs() > 1e-9 * interval.abs().max(h) {
        eprintln!("rtc: note: output interval {interval} is not a multiple of the step {h}; recording every {every} steps");
    }
    let newton = plan::Newton {
        max_iterations: a.method.newton_iterations,
        ..plan::Newton::default()
    };
    let (p, _, _) = match sim::compile(&flat, &method, newton) {
        Ok(x) => x,
        Err(d) => return fail(d, &sources, short),
    };
    let selected = match sim::select_outputs(&p, &a.vars) {
        Ok(s) => s,
        Err(d) => return fail(d, &sources, short),
    };
    let inputs = match &a.inputs {
        Some(path) => match sim::Inputs::from_csv(&p, path) {
            Ok(i) => Some(i),
            Err(d) => return fail(d, &sources, short),
        },
        None => None,
    };
    let settings = RunSettings {
        start,
        stop,
        step: h,
        every,
        inputs,
    };
    let sink: Box<dyn Write> = match &a.out {
        Some(path) => match std::fs::File::create(path) {
            Ok(f) => Box::new(std::io::BufWriter::new(f)),
            Err(e) => {
                return fail(
                    Box::new(Diagnostic::error(
                        "file",
                        format!("cannot write {}: {e}", path.display()),
                    )),
                    &sources,
                    short,
                )
            }
        },
        None => Box::new(std::io::BufWriter::new(std::io::stdout().lock())),
    };
    let mut out = sink;
    let header: Vec<&str> = selected
        .iter()
        .map(|&i| p.outputs[i].name.as_str())
        .collect();
    let mut io_error = writeln!(out, "time,{}", header.join(",")).err();
    let engine = match a.engine.as_str() {
        "jit" => sim::Engine::Jit,
        "interp" => sim::Engine::Interp,
        other => {
            return fail(
                Box::new(
                    Diagnostic::error("command-line", format!("unknown engine `{other}`"))
                        .help("the engines are jit and interp"),
                ),
                &sources,
                short,
            )
        }
    };
    let mut stepper = match sim::stepper(&p, engine) {
        Ok(s) => s,
        Err(d) => return fail(d, &sources, short),
    };
    let result = sim::simulate_with(&p, stepper.as_mut(), &settings, &selected, &mut |t, row| {
        if io_error.is_some() {
            return;
        }
        let mut line = format!("{t}");
        for v in row {
            line.push(',');
            line.push_str(&format!("{v}"));
        }
        if let Err(e) = writeln!(out, "{line}") {
            io_error = Some(e);
        }
    });
    if let Err(e) = out.flush() {
        io_error = Some(e);
    }
    if let Some(e) = io_error {
        eprintln!("rtc: writing the results failed: {e}");
        return 1;
    }
    match result {
        Ok(steps) => {
            eprintln!(
                "rtc: {steps} steps of {h} s with {} from {start} to {stop}",
                p.method
            );
            0
        }
        Err(f) => {
            eprintln!(
                "rtc: run stopped at t = {}: {} (status {})",
                f.time,
                f.message,
                f.status.code()
            );
            2
        }
    }
}
