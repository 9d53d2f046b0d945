//! The command line's arguments (clap) and their meaning for the pipeline: the method, the
//! step, `--param` overrides.

use crate::diag::Diagnostic;
use crate::flat::FlatModel;
use crate::pipeline::{self, Method, MethodChoice, Settings};
use clap::Args;
use std::path::PathBuf;

#[derive(Args, Clone)]
pub struct MethodArgs {
    /// Integration method inlined into the model (default: of be, trapezoid and radau whose
    /// errors on the model's modes stay within the tolerance, the highest order within 1.5
    /// times the cheapest work, at the output interval divided by 1, 2, 4, … 32 unless --step
    /// is given; see the book's Methods).
    #[arg(long, value_enum)]
    pub method: Option<pipeline::MethodName>,
    /// How far a mode may drift over the run for the default method and step, and before rtc
    /// warns about the method's accuracy: `1%` or `0.01` (default: 10^4 × the experiment's
    /// Tolerance, within 0.1 % and 10 %; 1 % without one).
    #[arg(long)]
    pub tolerance: Option<String>,
    /// For --method mixed: the states integrated by backward Euler (comma-separated).
    #[arg(long, value_delimiter = ',')]
    pub implicit: Vec<String>,
    /// Step size (default: the experiment annotation's Interval).
    #[arg(long)]
    pub step: Option<f64>,
    /// Newton iterations per torn block and step, at most.
    #[arg(long, default_value_t = 10)]
    pub newton_iterations: u32,
    /// Where Newton's full steps fail: evaluations of a damped retry from the block's start
    /// values, or from rest (derivatives zero) where those give no finite residuals (steps
    /// halved until the residuals fall), at most; 0: none.
    #[arg(long, default_value_t = 20)]
    pub newton_damped: u32,
    /// Full Newton iterations past --newton-iterations while each brings the largest
    /// residual below 0.9 times the previous one (an iteration that stagnates stops at
    /// --newton-iterations); 0: none.
    #[arg(long, default_value_t = 40)]
    pub newton_extended: u32,
    /// No sliding on switches without events: where the damped retry of a loop whose step
    /// system has no solution on either side of such a switch fails, the run stops (the work
    /// bound without the sliding retry).
    #[arg(long)]
    pub no_slide: bool,
    /// For --method mixed: the formula of the implicit states.
    #[arg(long, value_enum, default_value_t = pipeline::ImplicitAs::Be)]
    pub implicit_as: pipeline::ImplicitAs,
    /// For --method multirate: the fast states (comma-separated).
    #[arg(long, value_delimiter = ',')]
    pub fast: Vec<String>,
    /// For --method multirate: fast sub-steps per step.
    #[arg(long)]
    pub ratio: Option<usize>,
    /// For --method multirate: how the fast sub-steps see the slow states (Howe's predictors).
    #[arg(long, value_enum, default_value_t = pipeline::Extrapolation::Linear)]
    pub extrapolation: pipeline::Extrapolation,
}

#[derive(Args, Clone)]
pub struct AnalyzeArgs {
    #[command(flatten)]
    pub model: ModelArgs,
    #[command(flatten)]
    pub method: MethodArgs,
    /// Also print `system` (the step system after inline integration), `plan` (the step
    /// plan), `flat` (the flat model), `clif` (Cranelift IR),
    /// `layout` (the step function's memory layout) or `aliases` (every alias set, the
    /// variable kept for it and why).
    #[arg(long)]
    pub emit: Option<String>,
    /// Search for the smallest set of tearing variables of each loop (up to this many).
    #[arg(long)]
    pub min_tearing: Option<usize>,
    /// Linearise at the initial point: eigenvalues, each method's stability at the step, and
    /// the automatic partition for mixed mode.
    #[arg(long)]
    pub eigenvalues: bool,
    /// Howe's dynamic error measures of the method at the step: every characteristic root's
    /// error, and with --freq the transfer function's gain and phase errors.
    #[arg(long)]
    pub errors: bool,
    /// A frequency in Hz for the transfer-function errors of --errors and --advise
    /// (repeatable; the model needs top-level inputs and outputs).
    #[arg(long = "freq", value_name = "HZ")]
    pub freqs: Vec<f64>,
    /// For every method: the largest step whose errors stay within --tolerance, and its work
    /// per step.
    #[arg(long)]
    pub advise: bool,
    /// With --advise: only the modes with |λ| ≤ 2π·HZ count (the dynamics the test cares
    /// about); faster modes are left out of the tolerance.
    #[arg(long, value_name = "HZ", requires = "advise")]
    pub bandwidth: Option<f64>,
    /// With --errors: write the method's stability region with the model's hλ and the root
    /// errors over the step as SVG.
    #[arg(long, value_name = "FILE.svg", requires = "errors")]
    pub plot: Option<PathBuf>,
}

#[derive(Args, Clone)]
pub struct PlotArgs {
    /// A CSV that rtc run wrote (a `time` column, then one column per variable).
    #[arg(value_name = "FILE.csv")]
    pub csv: PathBuf,
    /// The variables to draw (comma-separated or repeated; default: every column).
    #[arg(long)]
    pub vars: Vec<Names>,
    /// An event log (rtc run --event-log) whose times are marked.
    #[arg(long, value_name = "FILE.csv")]
    pub events: Option<PathBuf>,
    /// The SVG to write.
    #[arg(short = 'o', long = "out", value_name = "FILE.svg")]
    pub out: PathBuf,
    /// Title (default: the CSV's file name).
    #[arg(long)]
    pub title: Option<String>,
}

#[derive(Args, Clone)]
pub struct RunArgs {
    #[command(flatten)]
    pub model: ModelArgs,
    #[command(flatten)]
    pub method: MethodArgs,
    /// What executes the step: `jit` (native code from Cranelift) or `interp` (the plan
    /// interpreter, the reference).
    #[arg(long, value_enum, default_value_t = crate::sim::Engine::Jit)]
    pub engine: crate::sim::Engine,
    /// Stop time (default: the experiment annotation's StopTime).
    #[arg(long)]
    pub stop: Option<f64>,
    /// Output interval (default: the experiment annotation's Interval, else every step).
    #[arg(long)]
    pub interval: Option<f64>,
    /// CSV output file (default, and `-`: standard output).
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// Variables to record (comma-separated; default: states and outputs).
    #[arg(long)]
    pub vars: Vec<Names>,
    /// Input signals, read at the start of every frame: a CSV file (a `time` column, one
    /// column per top-level input, held between samples) and/or `udp:[ADDR:]PORT` (datagrams
    /// of `name=value` pairs; the latest value wins). May be given twice.
    #[arg(long, value_name = "CSV|udp:[ADDR:]PORT")]
    pub inputs: Vec<String>,
    /// A constant value for an input, NAME=VALUE (repeatable).
    #[arg(long = "input", value_name = "NAME=VALUE")]
    pub input_values: Vec<String>,
    /// Also send the recorded variables as one UDP datagram per frame to HOST:PORT.
    #[arg(long, value_name = "udp:HOST:PORT")]
    pub outputs: Vec<String>,
    /// Run in real time: one frame per frame period of the wall clock.
    #[arg(long)]
    pub realtime: bool,
    /// Frame period in seconds, a whole multiple of the step (default: the step).
    #[arg(long)]
    pub frame: Option<f64>,
    /// Simulated time to run, from the start time (instead of --stop).
    #[arg(long, conflicts_with = "stop")]
    pub duration: Option<f64>,
    /// Commands while running (set NAME VALUE, pause, resume, stop): `udp:[ADDR:]PORT` or
    /// `stdin`.
    #[arg(long, value_name = "udp:[ADDR:]PORT|stdin")]
    pub control: Option<String>,
    /// A shared token that must start every command datagram of `--control udp:…` (compared
    /// in constant time); datagrams without it are refused and logged.
    #[arg(long, value_name = "TOKEN", requires = "control")]
    pub control_token: Option<String>,
    /// What an overrun does: catch-up (the next step is lengthened to regain real time),
    /// skip (the lost frames are dropped), stop-after:N.
    #[arg(long, default_value = "catch-up")]
    pub overrun: rtc_runtime::Overrun,
    /// What a value a door rejects (a UDP input or a `set` command that is not finite, outside
    /// the variable's min/max or not of its type) does: hold (the variable keeps its last good
    /// value, the rejection is counted and reported) or stop (the run ends, naming it).
    #[arg(long, default_value = "hold", value_name = "hold|stop")]
    pub bad_input: rtc_runtime::door::BadInput,
    /// Start-up period in seconds whose overruns are counted separately.
    #[arg(long, default_value_t = 0.1)]
    pub grace: f64,
    /// Pin the simulation thread to this CPU.
    #[arg(long, value_name = "CPU")]
    pub pin: Option<usize>,
    /// Run with SCHED_FIFO real-time priority PRIO (1-99).
    #[arg(long, value_name = "PRIO")]
    pub fifo: Option<i32>,
    /// Lock the process's memory (mlockall).
    #[arg(long)]
    pub mlock: bool,
    /// Write one CSV row per event: located time, event, condition, handled or deferred.
    #[arg(long, value_name = "FILE")]
    pub event_log: Option<PathBuf>,
    /// What the chattering rule does with an event that comes back faster than the step
    /// resolves (a ball coming to rest): stop the run, or hold the event's states.
    #[arg(long, value_enum, default_value = "stop")]
    pub zeno: crate::sim::Zeno,
    /// Write per-frame timing (lateness, execution time, step, overruns) as CSV, streamed
    /// while running (as-fast-as-possible runs then time every frame too).
    #[arg(long, value_name = "FILE")]
    pub timing_log: Option<PathBuf>,
    /// Flush subnormal numbers to zero while running (x86-64 MXCSR FTZ+DAZ, AArch64 FPCR FZ):
    /// any intermediate value below 2.2e-308 in magnitude becomes 0, which changes results only
    /// at that scale and saves the cost of subnormal arithmetic.
    #[arg(long)]
    pub ftz: bool,
    /// Record only the output grid: no rows at events (by default, outside real time, the
    /// results get a row just before and a row just after each event, at its time).
    #[arg(long)]
    pub no_event_rows: bool,
    /// Skip the step-halving check (by default, outside real time, rtc runs the model at
    /// half the step too and warns when the two differ by more than the tolerance; without
    /// --method and --step it halves the step until they agree, and where the run stops at
    /// the default step, until one gets through, or takes backward Euler).
    #[arg(long)]
    pub no_check: bool,
    /// Also draw the recorded variables over time as SVG, with the events marked.
    #[arg(long, value_name = "FILE.svg")]
    pub plot: Option<PathBuf>,
    /// Test aid: busy-wait MICROS inside frame FRAME (FRAME:MICROS, repeatable).
    #[arg(long, hide = true, value_name = "FRAME:MICROS")]
    pub inject_load: Vec<String>,
}

#[derive(Args, Clone)]
pub struct CompileArgs {
    #[command(flatten)]
    pub model: ModelArgs,
    #[command(flatten)]
    pub method: MethodArgs,
    /// Target triple (default: this machine). Supported: x86_64-unknown-linux-gnu,
    /// aarch64-unknown-linux-gnu, riscv64gc-unknown-linux-gnu, aarch64-unknown-none,
    /// riscv64gc-unknown-none-elf.
    #[arg(long)]
    pub target: Option<String>,
    /// What the code may assume of the CPU beyond the target's baseline: `baseline` (the
    /// default), `native` (the features of this machine; its own target only), or the
    /// target's CPU presets and features, comma-separated (x86-64: `x86-64-v3`, `znver3`,
    /// `has_avx2`, …). Code so built stops with an illegal instruction on a CPU without them.
    #[arg(long, value_name = "CPU")]
    pub target_cpu: Option<String>,
    /// Directory for <name>.o, <name>.h and <name>.json (default: the current directory).
    #[arg(short = 'o', long = "out-dir", value_name = "DIR")]
    pub out_dir: Option<PathBuf>,
    /// Symbol prefix and file name (default: the model name as a C identifier).
    #[arg(long)]
    pub name: Option<String>,
}

#[derive(Args)]
pub struct FmuArgs {
    #[command(flatten)]
    pub model: ModelArgs,
    #[command(flatten)]
    pub method: MethodArgs,
    /// FMI version of the FMU: 3 (FMI 3.0) or 2 (FMI 2.0).
    #[arg(long, default_value_t = 3)]
    pub fmi: u32,
    /// Target triple of the FMU's binary (default: this machine): x86_64-unknown-linux-gnu or
    /// aarch64-unknown-linux-gnu.
    #[arg(long)]
    pub target: Option<String>,
    /// The FMU to write: `Name.fmu` (a zip), or a directory for the unpacked FMU (default:
    /// `<model>.fmu` in the current directory).
    #[arg(short = 'o', long = "out", value_name = "FILE.fmu|DIR")]
    pub out: Option<PathBuf>,
}

#[derive(Args, Clone)]
pub struct ModelArgs {
    /// The model file (.mo), or the qualified name of a library class
    /// (`Modelica.Blocks.Examples.PID_Controller`, found through --lib and MODELICAPATH).
    #[arg(value_name = "FILE|CLASS")]
    pub file: PathBuf,
    /// The class to use, e.g. `Pkg.Model` (default: the file's single model).
    #[arg(long)]
    pub model: Option<String>,
    /// Extra library: a `Name.mo` file or a `Name/` package directory (repeatable).
    #[arg(long = "lib", value_name = "PATH")]
    pub libs: Vec<PathBuf>,
    /// A shared library (`.so`) that defines the model's external C functions, loaded before
    /// the model runs (repeatable).
    #[arg(long = "link", value_name = "PATH")]
    pub links: Vec<PathBuf>,
    /// Override a top-level parameter, e.g. `--param n=50` (repeatable).
    #[arg(long = "param", value_name = "NAME=VALUE")]
    pub params: Vec<String>,
    /// One line per diagnostic instead of the source excerpt.
    #[arg(long)]
    pub short_diagnostics: bool,
    /// Inline every function call (rtc otherwise compiles a function with loops or a large
    /// body once, out of line, and calls it).
    #[arg(long)]
    pub inline_functions: bool,
    /// Make and look up the MSL's tables given in the model with its C library
    /// (ModelicaStandardTables) rather than rtc's expression tables, to cross-check them
    /// (external objects: rtc run only).
    #[arg(long)]
    pub c_tables: bool,
}

pub(crate) fn parse_params(params: &[String]) -> Result<Vec<(String, f64)>, Box<Diagnostic>> {
    let mut out = Vec::new();
    for p in params {
        let Some((name, value)) = p.split_once('=') else {
            return Err(Box::new(Diagnostic::error(
                "command-line",
                format!("--param `{p}`: expected NAME=VALUE"),
            )));
        };
        let v: f64 = match value.trim() {
            "true" => 1.0,
            "false" => 0.0,
            t => t.parse().map_err(|_| {
                Box::new(Diagnostic::error(
                    "command-line",
                    format!("--param `{p}`: `{value}` is not a number"),
                ))
            })?,
        };
        if !v.is_finite() {
            return Err(Box::new(Diagnostic::error(
                "command-line",
                format!("--param `{p}`: the value is not finite"),
            )));
        }
        out.push((name.trim().to_string(), v));
    }
    Ok(out)
}

/// The method the arguments name (checked against the options that go with it).
pub(crate) fn method_of(m: &MethodArgs) -> Result<Method, Box<Diagnostic>> {
    pipeline::parse_method(&MethodChoice {
        method: m.method.unwrap_or(pipeline::MethodName::Be),
        implicit: &m.implicit,
        implicit_as: m.implicit_as,
        fast: &m.fast,
        ratio: m.ratio,
        extrapolation: m.extrapolation,
        newton_iterations: m.newton_iterations,
    })
}

/// The step the plans are built for where the model has delays (`--step`, else the
/// experiment's Interval or the default), which a `delay` buffer is sampled at; `None`
/// without delays. Without --method and --step, the default step is no longer than the
/// shortest delay (a delay reads samples of past steps; the MSL's digital gates delay by 1 ms).
pub(crate) fn delay_grid(flat: &FlatModel, m: &MethodArgs) -> Option<f64> {
    if flat.delays.is_empty() {
        return None;
    }
    let default = m.method.is_none() && m.step.is_none();
    let shortest = flat
        .delays
        .iter()
        .map(|d| d.time)
        .fold(f64::INFINITY, f64::min);
    pipeline::step_size_or_default(m.step, flat)
        .ok()
        .map(|(h, _)| {
            if default && shortest > 0.0 {
                h.min(shortest)
            } else {
                h
            }
        })
}

/// Newton's settings with `--newton-iterations`.
pub(crate) fn newton_of(m: &MethodArgs) -> pipeline::Newton {
    pipeline::Newton {
        max_iterations: m.newton_iterations,
        damped: m.newton_damped,
        extended: m.newton_extended,
        slide: !m.no_slide,
        ..pipeline::Newton::default()
    }
}

/// The settings the arguments give before any choice: the method they name (backward Euler
/// when none: the default chooser replaces it), the delays' grid and Newton's bound.
pub(crate) fn settings_of(m: &MethodArgs, flat: &FlatModel) -> Result<Settings, Box<Diagnostic>> {
    let method = match m.method {
        Some(_) => method_of(m)?,
        None => Method::BackwardEuler,
    };
    Ok(Settings::of(&method)
        .step(delay_grid(flat, m))
        .newton(newton_of(m)))
}

/// The step size: `--step`, else the experiment annotation's interval, else the stop time
/// divided into 500 steps (said on stderr, since the step decides the accuracy).
pub(crate) fn step_of(m: &MethodArgs, flat: &FlatModel) -> Result<f64, Box<Diagnostic>> {
    let (h, default) = pipeline::step_size_or_default(m.step, flat)?;
    if default {
        eprintln!(
            "rtc: note: no --step and no experiment Interval: step {h} s (the stop time in {} steps)",
            pipeline::DEFAULT_INTERVALS
        );
    }
    Ok(h)
}

/// `1%`, `0.5 %` or `0.01`.
pub(crate) fn parse_tolerance(s: &str) -> Result<f64, Box<Diagnostic>> {
    let t = s.trim();
    let v = match t.strip_suffix('%') {
        Some(p) => p.trim().parse::<f64>().map(|x| x / 100.0),
        None => t.parse::<f64>(),
    };
    match v {
        Ok(x) if x.is_finite() && x > 0.0 && x < 1.0 => Ok(x),
        _ => Err(Box::new(Diagnostic::error(
            "command-line",
            format!("--tolerance `{s}`: expected a fraction between 0 and 1 or a percentage, e.g. 1% or 0.01"),
        ))),
    }
}

/// How the warning begins when the modes' check cannot be made.
pub(crate) const ACCURACY_UNCHECKED: &str = "the method's accuracy is not checked";

/// A command's method and step: those the user gives, else the default chooser's
/// ([`pipeline::default_method`]); with what rtc says about them: notes, and warnings where
/// the method at the step lets a mode drift beyond the tolerance.
pub(crate) struct Resolved {
    /// The method chosen (the automatic partition resolved), the delays' grid, Newton.
    pub settings: Settings,
    /// The step to run with (the default may still be refined by the step-halving check).
    pub step: f64,
    /// The run's tolerance ([`pipeline::run_tolerance`]).
    pub tolerance: f64,
    /// Neither the method nor the step given: rtc chose both (and may refine the step).
    pub defaulted: bool,
    pub notes: Vec<String>,
    pub warnings: Vec<String>,
    /// What the modes' accuracy warnings are judged from, for another step.
    pub modes: ModeCheck,
}

/// The model's modes at the initial point and the run they are judged for: the accuracy
/// warnings of a method at a step ([`pipeline::accuracy_warnings`]).
pub(crate) struct ModeCheck {
    lm: Option<pipeline::Modes>,
    interval: f64,
    span: pipeline::RunSpan,
    tol: f64,
    base: Settings,
}

impl ModeCheck {
    /// The warnings where `method` at step `h` lets a mode drift beyond the tolerance (none
    /// where the modes are not known).
    pub fn warnings(&self, flat: &FlatModel, method: &Method, h: f64) -> Vec<String> {
        self.lm.as_ref().map_or_else(Vec::new, |lm| {
            pipeline::accuracy_warnings(
                flat,
                lm,
                method,
                h,
                self.interval,
                self.span,
                self.tol,
                &self.base,
            )
        })
    }
}

/// Resolves `m` for a run of `t_run` seconds (`None`: the experiment's).
pub(crate) fn resolve(
    m: &MethodArgs,
    flat: &FlatModel,
    t_run: Option<f64>,
) -> Result<Resolved, Box<Diagnostic>> {
    // The output interval: the experiment's (or the run in 500 steps), else the step asked for.
    let interval = match (pipeline::step_size_or_default(None, flat), m.step) {
        (Ok((i, _)), _) => i,
        (Err(_), Some(h)) => pipeline::step_size(Some(h), flat)?,
        (Err(e), None) => return Err(e),
    };
    let tol = pipeline::run_tolerance(
        flat,
        m.tolerance.as_deref().map(parse_tolerance).transpose()?,
    );
    let start = flat.experiment.start_time.unwrap_or(0.0);
    let t_run = t_run
        .or(flat.experiment.stop_time.map(|s| s - start))
        .filter(|t| *t > 0.0)
        .unwrap_or(interval * pipeline::DEFAULT_INTERVALS);
    let span = pipeline::RunSpan { t_run, interval };
    let base = settings_of(m, flat)?;
    let lm = pipeline::modes(flat);
    let mut notes = Vec::new();
    let mut warnings = Vec::new();
    if let Err(why) = &lm {
        // A warning where the model has states to integrate; a note otherwise.
        let states = flat
            .vars
            .iter()
            .any(|v| v.kind == crate::flat::VarKind::State);
        let text = format!("{ACCURACY_UNCHECKED}: {why}");
        if states {
            warnings.push(text);
        } else {
            notes.push(text);
        }
    }
    let (method, step) = match &m.method {
        None => {
            let c = pipeline::default_method(
                flat,
                lm.as_ref().ok(),
                m.step.unwrap_or(interval),
                m.step.is_none(),
                span,
                tol,
                &base,
            );
            notes.push(c.note);
            (c.method, c.step)
        }
        Some(_) => (base.method.clone(), step_of(m, flat)?),
    };
    let (method, note) = pipeline::resolve_method(flat, method, Some(step))?;
    notes.extend(note);
    if let Ok(lm) = &lm {
        warnings.extend(pipeline::equilibrium_warning(lm, span));
        warnings.extend(pipeline::accuracy_warnings(
            flat, lm, &method, step, interval, span, tol, &base,
        ));
    }
    Ok(Resolved {
        settings: base.with_method(method),
        step,
        tolerance: tol,
        defaulted: m.method.is_none() && m.step.is_none(),
        notes,
        warnings,
        modes: ModeCheck {
            lm: lm.ok(),
            interval,
            span,
            tol,
            base,
        },
    })
}

/// Names given comma-separated, split at the commas outside brackets (`x,m[1,2]`: `x` and
/// the matrix element `m[1,2]`).
#[derive(Clone, Debug)]
pub struct Names(pub Vec<String>);

impl std::str::FromStr for Names {
    type Err = std::convert::Infallible;
    fn from_str(s: &str) -> Result<Names, Self::Err> {
        let mut out = Vec::new();
        let (mut depth, mut start) = (0i32, 0);
        for (i, c) in s.char_indices() {
            match c {
                '[' => depth += 1,
                ']' => depth -= 1,
                ',' if depth <= 0 => {
                    out.push(s[start..i].trim().to_string());
                    start = i + 1;
                }
                _ => {}
            }
        }
        out.push(s[start..].trim().to_string());
        out.retain(|n| !n.is_empty());
        Ok(Names(out))
    }
}

/// Every name of repeated `--vars` options, in order.
pub fn names(lists: &[Names]) -> Vec<String> {
    lists.iter().flat_map(|l| l.0.iter().cloned()).collect()
}
