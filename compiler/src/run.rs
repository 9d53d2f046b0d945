//! `rtc analyze` and `rtc run`.

use crate::cli::{load_model, print_diagnostics, AnalyzeArgs, MethodArgs, RunArgs};
use crate::diag::{Diagnostic, SourceMap};
use crate::flat::FlatModel;
use crate::plan::{self, Stmt};
use crate::sim;
use crate::system::Method;
use std::io::Write;

pub(crate) fn method_of(m: &MethodArgs) -> Result<Method, Box<Diagnostic>> {
    let method = match m.method.as_str() {
        "fe" => Method::ForwardEuler,
        "be" => Method::BackwardEuler,
        "trapezoid" | "trap" => Method::Trapezoid,
        "radau" => Method::Radau,
        "rtrk2" => Method::Rk(crate::system::Rk::Rtrk2),
        "rk3" => Method::Rk(crate::system::Rk::Rk3),
        "rk4" => Method::Rk(crate::system::Rk::Rk4),
        "rtrk4" => Method::Rk(crate::system::Rk::Rtrk4),
        "ab2" => Method::Ab(2),
        "ab3" => Method::Ab(3),
        "libe" => Method::Libe,
        // Fast states and ratio may also come from annotations (resolved with the model).
        "multirate" => Method::MultiRate {
            fast: m.fast.clone(),
            ratio: m.ratio.unwrap_or(0),
            implicit: m.implicit.clone(),
            quadratic: match m.extrapolation.as_str() {
                "linear" => false,
                "quadratic" => true,
                other => {
                    return Err(Box::new(
                        Diagnostic::error("command-line", format!("--extrapolation `{other}`"))
                            .help("the predictors are linear and quadratic"),
                    ))
                }
            },
        },
        "mixed" => match m.implicit_as.as_str() {
            "be" => Method::Mixed {
                implicit: m.implicit.clone(),
            },
            "libe" => Method::MixedLibe {
                implicit: m.implicit.clone(),
            },
            other => {
                return Err(Box::new(
                    Diagnostic::error("command-line", format!("--implicit-as `{other}`"))
                        .help("the implicit formulas of mixed mode are be and libe"),
                ))
            }
        },
        other => {
            return Err(Box::new(
                Diagnostic::error("command-line", format!("unknown method `{other}`")).help(
                    "the methods are fe, be, trapezoid, radau, mixed, rtrk2, rk3, rk4, rtrk4",
                ),
            ))
        }
    };
    if m.implicit_as != "be" && !matches!(method, Method::MixedLibe { .. }) {
        return Err(Box::new(Diagnostic::error(
            "command-line",
            "--implicit-as only applies to --method mixed",
        )));
    }
    if !m.implicit.is_empty()
        && !matches!(
            method,
            Method::Mixed { .. } | Method::MixedLibe { .. } | Method::MultiRate { .. }
        )
    {
        return Err(Box::new(Diagnostic::error(
            "command-line",
            "--implicit only applies to --method mixed and multirate",
        )));
    }
    if (!m.fast.is_empty() || m.ratio.is_some()) && !matches!(method, Method::MultiRate { .. }) {
        return Err(Box::new(Diagnostic::error(
            "command-line",
            "--fast and --ratio only apply to --method multirate",
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

/// Mixed mode with no implicit state named or marked: the partition is automatic.
fn needs_partition(flat: &FlatModel, method: &Method) -> bool {
    matches!(method, Method::Mixed { implicit } | Method::MixedLibe { implicit } if implicit.is_empty())
        && !flat.vars.iter().any(|v| v.implicit)
}

/// Resolves automatic mixed mode (Schiela's partition at step `h`); other methods pass
/// through. Returns the method and a note saying what was chosen.
pub(crate) fn resolve_mixed(
    flat: &FlatModel,
    method: Method,
    h: Option<f64>,
) -> Result<(Method, Option<String>), Box<Diagnostic>> {
    if !needs_partition(flat, &method) {
        return Ok((method, None));
    }
    let Some(h) = h else {
        return Err(Box::new(Diagnostic::error(
            "command-line",
            "--method mixed without --implicit needs a step size to choose the implicit states",
        )));
    };
    let lin = crate::partition::linearize(flat)?;
    let modes = crate::partition::modes(&lin);
    let part = crate::partition::partition(&lin, &modes, h);
    if part.implicit.is_empty() {
        return Ok((
            Method::ForwardEuler,
            Some(format!(
                "automatic partition at h = {h}: no state needs an implicit formula; mixed mode is forward Euler"
            )),
        ));
    }
    let note = format!(
        "automatic partition at h = {h}: implicit {}",
        part.implicit.join(", ")
    );
    let method = match method {
        Method::MixedLibe { .. } => Method::MixedLibe {
            implicit: part.implicit,
        },
        _ => Method::Mixed {
            implicit: part.implicit,
        },
    };
    Ok((method, Some(note)))
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
    let automatic = needs_partition(&flat, &method);
    if a.eigenvalues || automatic {
        let lin = match crate::partition::linearize(&flat) {
            Ok(l) => l,
            Err(d) => return fail(d, &sources, short),
        };
        let modes = crate::partition::modes(&lin);
        crate::cli::out(&crate::partition::report(&lin, &modes, h));
    }
    let method = match resolve_mixed(&flat, method, h) {
        Ok((m, _)) => m,
        Err(d) => return fail(d, &sources, short),
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
            crate::cli::out(&text);
            0
        }
        Err(d) => fail(d, &sources, short),
    }
}

/// The states that stand for alias sets, with the start value the set takes and why that
/// member was kept (at most [`LISTED_STATES`]; `--emit aliases` prints every set).
fn write_states(out: &mut String, flat: &FlatModel, d: &crate::system::Discretized) {
    use std::fmt::Write as _;
    let sets: Vec<&crate::structure::alias::AliasSet> = d
        .formulas
        .iter()
        .filter_map(|(x, _)| d.vars[x.index()].flat)
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
    let d = crate::discretize::prepare(flat, method, newton)?;
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
    if let Method::MultiRate { .. } = method {
        let (fast, ratio) = crate::discretize::multirate_settings(flat, method)?;
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
        let timed = d.events.iter().any(|e| e.sample.is_some() || e.at);
        let _ = writeln!(
            out,
            "  events: {} ({}); a step with an event costs at most {} step evaluations ({})",
            conds.len(),
            conds.join("; "),
            if timed { 11 } else { 5 },
            if timed {
                "a time event splits the step in two parts, each with up to 5 for a state event, plus a zero-length re-initialisation"
            } else {
                "the step, the partial step to the located event, a zero-length re-initialisation, the rest of the step, and one re-initialisation for deferred events"
            }
        );
        let _ = writeln!(
            out,
            "  event iteration: at most {} rounds of when-equations per instant (status 5 beyond)",
            sim::EVENT_ITERATIONS
        );
    }
    let _ = writeln!(
        out,
        "  {} state{} ({} explicit, {} implicit), {} unknowns and equations per step",
        states,
        if states == 1 { "" } else { "s" },
        explicit,
        states - explicit,
        d.step.unknowns.len()
    );
    write_states(&mut out, flat, &d);
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
                format!("--emit {other}: expected system, plan, flat, clif, layout or aliases"),
            )))
        }
        None => {}
    }
    Ok(out)
}

/// The runtime's view of a stepper: errors carry the status code.
struct RunModel<'a> {
    stepper: &'a mut dyn sim::Stepper,
    plan: &'a plan::Plan,
    events: sim::Events<'a>,
    /// Log entries already reported to the runtime.
    events_seen: usize,
}

impl rtc_runtime::Model for RunModel<'_> {
    fn step(&mut self, mem: &mut [f64], t: f64, h: f64) -> Result<(), String> {
        match self.events.step(self.stepper, mem, t, h) {
            plan::interp::Status::Ok => Ok(()),
            st => Err(format!(
                "{} (status {})",
                sim::describe(self.plan, st),
                st.code()
            )),
        }
    }
    fn outputs(&mut self, mem: &[f64], out: &mut [f64]) {
        self.stepper.outputs(self.plan, mem, out)
    }
    fn parameters_changed(&mut self, mem: &mut [f64]) -> Result<(), String> {
        self.stepper.parameters_changed(mem);
        Ok(())
    }
    fn take_events(&mut self) -> (u32, u32) {
        let new = &self.events.log[self.events_seen..];
        let handled = new.iter().filter(|r| r.handled()).count() as u32;
        let deferred = new.len() as u32 - handled;
        self.events_seen = self.events.log.len();
        (handled, deferred)
    }
}

fn cmdline(msg: impl Into<String>) -> Box<Diagnostic> {
    Box::new(Diagnostic::error("command-line", msg))
}

/// `udp:PORT` or `udp:ADDR:PORT` → a bind address (loopback unless an address is given).
fn udp_bind(spec: &str, what: &str) -> Result<Option<String>, Box<Diagnostic>> {
    let Some(rest) = spec.strip_prefix("udp:") else {
        return Ok(None);
    };
    if rest.parse::<u16>().is_ok() {
        return Ok(Some(format!("127.0.0.1:{rest}")));
    }
    if rest.parse::<std::net::SocketAddr>().is_ok() {
        return Ok(Some(rest.to_string()));
    }
    Err(cmdline(format!(
        "{what} `{spec}`: expected udp:PORT or udp:ADDR:PORT"
    )))
}

pub fn run(a: &RunArgs) -> u8 {
    let Some((flat, sources)) = load_model(&a.model) else {
        return 1;
    };
    let short = a.model.short_diagnostics;
    match run_inner(a, &flat) {
        Ok(code) => code,
        Err(d) => fail(d, &sources, short),
    }
}

fn run_inner(a: &RunArgs, flat: &FlatModel) -> Result<u8, Box<Diagnostic>> {
    use rtc_runtime::io::{CsvSink, Mailbox, OutputSink, UdpSink};
    use std::sync::Arc;
    let method = method_of(&a.method)?;
    let h = step_of(&a.method, flat)?;
    let (method, note) = resolve_mixed(flat, method, Some(h))?;
    if let Some(n) = note {
        eprintln!("rtc: {n}");
    }
    if let Method::Rk(r) = &method {
        if a.realtime && !r.realtime_inputs() {
            eprintln!("rtc: warning: {} needs inputs ahead of real time; inputs are held at their value at the start of each frame", r.name());
        }
    }
    let start = flat.experiment.start_time.unwrap_or(0.0);
    let stop =
        match (a.duration, a.stop.or(flat.experiment.stop_time)) {
            (Some(d), _) if d.is_finite() && d >= 0.0 => start + d,
            (Some(d), _) => return Err(cmdline(format!("--duration {d}: must be ≥ 0"))),
            (None, Some(s)) => s,
            (None, None) => return Err(cmdline(
                "no stop time: give --stop, --duration or an experiment(StopTime = …) annotation",
            )),
        };
    if stop.is_nan() || stop < start {
        return Err(cmdline(format!(
            "stop time {stop} is before the start time {start}"
        )));
    }
    let frame = a.frame.unwrap_or(h);
    let per_frame = (frame / h).round();
    if frame.is_nan()
        || frame <= 0.0
        || per_frame < 1.0
        || (per_frame * h - frame).abs() > 1e-9 * frame
    {
        return Err(cmdline(format!(
            "--frame {frame} must be a whole multiple of the step {h}"
        )));
    }
    let frame_len = per_frame * h;
    let interval = a.interval.or(flat.experiment.interval).unwrap_or(h);
    let every = (interval / frame_len).round().max(1.0) as u64;
    if a.interval.is_some()
        && ((every as f64) * frame_len - interval).abs() > 1e-9 * interval.abs().max(frame_len)
    {
        eprintln!("rtc: note: output interval {interval} is not a multiple of the frame {frame_len}; recording every {every} frames");
    }
    let overrun: rtc_runtime::Overrun = a
        .overrun
        .parse()
        .map_err(|e: String| cmdline(format!("--overrun {e}")))?;
    let engine = match a.engine.as_str() {
        "jit" => sim::Engine::Jit,
        "interp" => sim::Engine::Interp,
        other => {
            return Err(Box::new(
                Diagnostic::error("command-line", format!("unknown engine `{other}`"))
                    .help("the engines are jit and interp"),
            ))
        }
    };
    let newton = plan::Newton {
        max_iterations: a.method.newton_iterations,
        ..plan::Newton::default()
    };
    let (p, _, _) = sim::compile(flat, &method, newton)?;
    let selected = sim::select_outputs(&p, &a.vars)?;
    let inputs = sim::input_slots(&p);
    let layout = rtc_runtime::Layout {
        inputs: inputs.clone(),
        parameters: p
            .tunable_parameters()
            .into_iter()
            .map(|v| rtc_runtime::Slot {
                name: p.name_of(v).to_string(),
                slot: v.index(),
                offset: 0.0,
            })
            .collect(),
        outputs: p.outputs.iter().map(|o| o.name.clone()).collect(),
    };
    // Input sources.
    let mut csv = None;
    let mut mailbox: Option<Arc<Mailbox>> = None;
    for spec in &a.inputs {
        if let Some(addr) = udp_bind(spec, "--inputs")? {
            if mailbox.is_some() {
                return Err(cmdline("--inputs: one UDP source at most"));
            }
            let mb = Arc::new(Mailbox::new(&inputs));
            let local = rtc_runtime::io::spawn_udp_inputs(&addr, mb.clone())
                .map_err(|e| cmdline(format!("--inputs {spec}: {e}")))?;
            eprintln!("rtc: inputs from UDP {local}");
            mailbox = Some(mb);
        } else {
            if csv.is_some() {
                return Err(cmdline("--inputs: one CSV file at most"));
            }
            csv = Some(sim::read_inputs(&p, std::path::Path::new(spec))?);
        }
    }
    let mut constants = Vec::new();
    for iv in &a.input_values {
        let Some((name, value)) = iv.split_once('=') else {
            return Err(cmdline(format!("--input `{iv}`: expected NAME=VALUE")));
        };
        let Some(slot) = inputs.iter().find(|s| s.name == name.trim()) else {
            let all: Vec<&str> = inputs.iter().map(|s| s.name.as_str()).collect();
            return Err(cmdline(format!(
                "--input `{iv}`: the model has no input `{}`{}",
                name.trim(),
                if all.is_empty() {
                    " (it has no inputs)".to_string()
                } else {
                    format!(" (its inputs: {})", all.join(", "))
                }
            )));
        };
        let v: f64 = value
            .trim()
            .parse()
            .map_err(|_| cmdline(format!("--input `{iv}`: `{value}` is not a number")))?;
        constants.push((slot.slot, v));
    }
    // Output sinks: the CSV, then UDP.
    let mut sinks: Vec<Box<dyn OutputSink>> = Vec::new();
    let csv_out: Box<dyn Write> = match &a.out {
        Some(path) => match std::fs::File::create(path) {
            Ok(f) => Box::new(std::io::BufWriter::with_capacity(1 << 20, f)),
            Err(e) => {
                return Err(Box::new(Diagnostic::error(
                    "file",
                    format!("cannot write {}: {e}", path.display()),
                )))
            }
        },
        None => Box::new(std::io::BufWriter::with_capacity(
            1 << 16,
            std::io::stdout(),
        )),
    };
    sinks.push(Box::new(CsvSink::new(csv_out, every)));
    for spec in &a.outputs {
        let Some(target) = spec.strip_prefix("udp:") else {
            return Err(cmdline(format!(
                "--outputs `{spec}`: expected udp:HOST:PORT"
            )));
        };
        sinks.push(Box::new(
            UdpSink::new(target).map_err(|e| cmdline(format!("--outputs {e}")))?,
        ));
    }
    let commands = match a.control.as_deref() {
        None => None,
        Some(spec) => {
            let (tx, rx) = std::sync::mpsc::channel();
            if spec == "stdin" {
                rtc_runtime::control::spawn_stdin(tx).map_err(cmdline)?;
            } else if let Some(addr) = udp_bind(spec, "--control")? {
                let local = rtc_runtime::control::spawn_udp(&addr, tx)
                    .map_err(|e| cmdline(format!("--control {spec}: {e}")))?;
                eprintln!("rtc: commands from UDP {local}");
            } else {
                return Err(cmdline(format!(
                    "--control `{spec}`: expected udp:PORT, udp:ADDR:PORT or stdin"
                )));
            }
            Some(rx)
        }
    };
    let mut injected = Vec::new();
    for spec in &a.inject_load {
        let parsed = spec
            .split_once(':')
            .and_then(|(f, us)| Some((f.parse::<u64>().ok()?, us.parse::<u64>().ok()?)));
        let Some((f, us)) = parsed else {
            return Err(cmdline(format!(
                "--inject-load `{spec}`: expected FRAME:MICROS"
            )));
        };
        injected.push((f, std::time::Duration::from_micros(us)));
    }
    let mut stepper = sim::stepper(&p, engine)?;
    // Initial state: inputs hold their start values (which may use parameters, known after a
    // first initialisation), then constants and the first samples; then the model at t0.
    let mut mem = stepper.memory();
    let _ = stepper.init(&mut mem, start);
    for (slot, x) in sim::input_starts(&p, &mem) {
        mem[slot] = x;
    }
    for &(slot, x) in &constants {
        mem[slot] = x;
    }
    if let Some(c) = csv.as_mut() {
        c.apply(&mut mem, start, 0.0);
    }
    if let Some(mb) = &mailbox {
        mb.apply(&mut mem);
    }
    let mut events = sim::Events::new(&p);
    events.zeno = a.zeno;
    let mut st = stepper.init(&mut mem, start);
    if st == plan::interp::Status::Ok {
        st = events.initial(stepper.as_mut(), &mut mem, start);
    }
    if st != plan::interp::Status::Ok {
        eprintln!(
            "rtc: run stopped at t = {start}: initialisation failed: {} (status {})",
            sim::describe(&p, st),
            st.code()
        );
        return Ok(2);
    }
    let frames = ((stop - start) / frame_len).round().max(0.0) as u64;
    let mut cfg = rtc_runtime::Config::new(start, h, frames);
    cfg.steps_per_frame = per_frame as u32;
    cfg.realtime = a.realtime;
    cfg.overrun = overrun;
    cfg.grace_frames = (a.grace.max(0.0) / frame_len).ceil() as u64;
    cfg.csv_inputs = csv;
    cfg.mailbox = mailbox;
    cfg.selected = selected;
    cfg.sinks = sinks;
    cfg.commands = commands;
    cfg.injected_load = injected;
    cfg.progress =
        a.realtime && std::io::IsTerminal::is_terminal(&std::io::stderr()) && (stop - start) > 3.0;
    if a.realtime || a.pin.is_some() || a.fifo.is_some() || a.mlock {
        let os = rtc_runtime::clock::setup_os(a.pin, a.fifo, a.mlock);
        for w in &os.warnings {
            eprintln!("rtc: warning: {w}");
        }
    }
    let mut model = RunModel {
        stepper: stepper.as_mut(),
        plan: &p,
        events,
        events_seen: 0,
    };
    let report = rtc_runtime::run(&mut model, &mut mem, &layout, &mut cfg);
    if !p.events.is_empty() {
        let handled = model.events.log.iter().filter(|r| r.handled()).count();
        eprintln!(
            "rtc: events: {handled} handled, {} deferred to the end of their step",
            model.events.log.len() - handled
        );
        if let Some(m) = model.events.chatter_message() {
            eprintln!("rtc: {m}");
        }
    }
    if let Some(path) = &a.event_log {
        if let Err(e) = std::fs::write(path, model.events.csv()) {
            eprintln!("rtc: writing {} failed: {e}", path.display());
            return Ok(1);
        }
    }
    for ap in &report.applied {
        match &ap.outcome {
            Ok(c) => eprintln!(
                "rtc: t = {} s (frame {}, wall {:.6} s): {c}",
                ap.time,
                ap.frame,
                ap.wall.as_secs_f64()
            ),
            Err(e) => eprintln!(
                "rtc: t = {} s (frame {}): command refused: {e}",
                ap.time, ap.frame
            ),
        }
    }
    if let Some(path) = &a.timing_log {
        let r = std::fs::File::create(path).and_then(|f| {
            let mut w = std::io::BufWriter::new(f);
            report.stats.write_log(&mut w)
        });
        if let Err(e) = r {
            eprintln!("rtc: writing {} failed: {e}", path.display());
            return Ok(1);
        }
    }
    if let Some(e) = &report.io_error {
        eprintln!("rtc: writing the results failed: {e}");
        return Ok(1);
    }
    // Steps taken (a lengthened catch-up step counts once).
    let steps = report.stats.frames * per_frame as u64;
    if a.realtime {
        eprint!("{}", report.stats.summary(true));
    }
    if let (Some((t, _)), Some(why)) = (&report.failure, model.events.termination()) {
        // Not a failure: the model ended the run.
        eprintln!("rtc: {why}; the run ends at t = {t}");
        return Ok(0);
    }
    if let Some((t, msg)) = &report.failure {
        eprintln!("rtc: run stopped at t = {t}: {msg}");
        return Ok(2);
    }
    if let Some(why) = &report.stopped {
        eprintln!("rtc: run stopped: {why} after {steps} steps");
        return Ok(if why.starts_with("stop command") {
            0
        } else {
            2
        });
    }
    eprintln!(
        "rtc: {steps} steps of {h} s with {} from {start} to {stop}{}",
        p.method,
        if a.realtime {
            format!(" in {:.3} s of wall time", report.wall.as_secs_f64())
        } else {
            String::new()
        }
    );
    Ok(0)
}
