//! The one way through the compiler. Every command, test and benchmark drives the phases
//! through here:
//!
//! ```text
//! source ──parse, flatten──▶ flat model ──check──▶ (balance, regularity)
//!                                │
//!                                └──discretize──▶ step system ──build──▶ plan
//!                                                     │                   │
//!                                     (libe, multirate: transform ◀───────┘ first plan)
//!                                                     └──verify──▶ step system ──build──▶ plan
//! ```
//!
//! Parsing and flattening recurse along the nesting of the source, so they run on a thread
//! whose stack fits the input ([`with_stack_for`]). Mixed mode without named implicit states
//! is resolved here by the automatic partition ([`resolve_method`]).

use crate::diag::{Diagnostic, SourceMap};
use crate::flat::FlatModel;
use crate::flatten::{self, classes::ClassTree};
use crate::plan;
use crate::structure::{self, Summary};
use crate::system::Discretized;
use crate::system::SysVar;
use crate::transform::{libe, multirate};

mod choice;
pub use crate::flatten::Options;
pub use crate::plan::build::BlockReport;
pub use crate::plan::{describe, Newton, Plan, Status};
pub use crate::system::{Method, Rk};
pub use choice::{
    accuracy_warnings, default_method, equilibrium_warning, modes, run_tolerance, Choice, Modes,
    RunSpan,
};

type DResult<T> = Result<T, Box<Diagnostic>>;

/// What a plan is built for, resolved once by the driver and passed to the phases: the method
/// inlined, the step (what a `delay`'s buffer is sampled at; the run may take a shorter one,
/// the buffer keeps its grid), Newton's bound and tolerances.
#[derive(Clone, Debug, PartialEq)]
pub struct Settings {
    pub method: Method,
    /// `None` where no step is known (a model without delays does not need one).
    pub step: Option<f64>,
    pub newton: Newton,
}

impl Settings {
    /// `method` with no step and the default Newton settings.
    pub fn of(method: &Method) -> Settings {
        Settings {
            method: method.clone(),
            step: None,
            newton: Newton::default(),
        }
    }

    pub fn step(self, step: Option<f64>) -> Settings {
        Settings { step, ..self }
    }

    pub fn newton(self, newton: Newton) -> Settings {
        Settings { newton, ..self }
    }

    /// The same with another method (the start-time solve's forward Euler plan, the default
    /// chooser's candidates).
    pub fn with_method(&self, method: Method) -> Settings {
        Settings {
            method,
            ..self.clone()
        }
    }
}

/// The outcome of compiling source text as far as the structural check.
pub struct Checked {
    pub model: Option<FlatModel>,
    pub summary: Option<Summary>,
    pub diagnostics: Vec<Diagnostic>,
    pub sources: SourceMap,
}

impl Checked {
    /// Diagnostics as `file:line:col: error[code]: message` lines.
    pub fn short_diagnostics(&self) -> Vec<String> {
        self.diagnostics
            .iter()
            .map(|d| d.short(&self.sources))
            .collect()
    }

    pub fn has_errors(&self) -> bool {
        self.diagnostics.iter().any(|d| d.is_error())
    }
}

/// Parses, flattens and checks `text` (call it on a thread from [`with_stack_for`] for
/// untrusted input). Never panics on any input.
pub fn check_source(file_name: &str, text: &str, opts: &Options) -> Checked {
    let loaded = load_source(file_name, text, opts);
    let mut diagnostics = loaded.diagnostics;
    let mut summary = None;
    if let Some(model) = &loaded.model {
        match check_model(model) {
            // Its warnings are alias elimination's, which `load_source` reported.
            Ok(s) => summary = Some(s),
            Err(ds) => diagnostics.extend(ds),
        }
    }
    Checked {
        model: loaded.model,
        summary,
        diagnostics,
        sources: loaded.sources,
    }
}

/// Balance and structural regularity of a flat model (`rtc check`).
pub fn check_model(model: &FlatModel) -> Result<Summary, Vec<Diagnostic>> {
    // A parameter outside its min/max is the predefined assertion of 4.8.1 failing: `rtc run`
    // refuses it before compiling, and so does `rtc check`.
    check_parameter_bounds(model).map_err(|d| vec![*d])?;
    let summary = structure::check(model)?;
    // Then the initial system's size: more initial equations than free states is found here,
    // before any plan.
    if !model.initial_equations.is_empty() {
        let mut merged = model.clone();
        if let Ok(a) = structure::alias::eliminate(&mut merged) {
            match initial_count(model, &merged, &a) {
                // More initial equations than free states, or none free: the equations must
                // be redundant and consistent (numeric, so the initial system is solved here
                // to say).
                Some(Count::Over | Count::NoneFree) => {
                    // The model at the start time reads each delay as its expression, at any
                    // step: the experiment's (or the default) serves.
                    let step = step_size_or_default(None, model).ok().map(|(h, _)| h);
                    if let Err(d) = initialized(model, step) {
                        return Err(vec![*d]);
                    }
                }
                None => {}
            }
        }
    }
    Ok(summary)
}

/// A flattened model, or the diagnostics that prevented it (warnings either way).
pub struct Loaded {
    pub model: Option<FlatModel>,
    pub diagnostics: Vec<Diagnostic>,
    pub sources: SourceMap,
}

/// Parses and flattens `text`, then checks what alias elimination needs of the start values
/// (conflicting fixed start values are errors before anything runs).
pub fn load_source(file_name: &str, text: &str, opts: &Options) -> Loaded {
    let arena = typed_arena::Arena::new();
    let mut tree = ClassTree::new(&arena);
    let outcome = flatten::flatten_source(&mut tree, file_name, text, opts);
    let mut diagnostics = outcome.diagnostics;
    let mut model = outcome.model;
    if let Some(m) = &mut model {
        // Enthalpy flows determined at zero flow (the semiLinear rules).
        let notes = structure::semilinear::apply_rules(m);
        m.notes.extend(notes);
        // Terms zero at the parameters' values leave the structure before it is analysed.
        let notes = structure::vanishing::drop_vanishing_terms(m);
        m.notes.extend(notes);
    }
    if let Some(m) = &mut model {
        // Index reduction first: a state it demotes to an algebraic variable has its
        // `fixed = true` turned into an initial equation with the others below.
        match structure::index::reduce(m) {
            Ok(Some(mut report)) => {
                diagnostics.append(&mut report.warnings);
                m.notes.extend(report.lines());
            }
            Ok(None) => {}
            Err(errors) => {
                diagnostics.extend(errors);
                model = None;
            }
        }
    }
    if let Some(m) = &mut model {
        // `fixed = true` on a variable that is not a state: an initial equation.
        structure::alias::fixed_to_initial_equations(m);
    }
    if let Some(m) = &model {
        match structure::alias::eliminate(&mut m.clone()) {
            Ok(a) => diagnostics.extend(a.warnings),
            Err(errors) => {
                diagnostics.extend(errors);
                model = None;
            }
        }
    }
    Loaded {
        model,
        diagnostics,
        sources: std::mem::take(&mut tree.sources),
    }
}

/// What [`initial_count`] finds.
enum Count {
    /// More initial equations than free states (and some free state): over-determined.
    Over,
    /// Initial equations, but every state fixed: they are redundant, and must be consistent.
    NoneFree,
}

/// More initial equations than states left free to satisfy them (states whose alias set has
/// no `fixed = true` member): an over-determined initial system, found before any plan; with
/// no free state at all, the equations are redundant and [`crate::initialization`] checks
/// that they hold.
fn initial_count(
    m: &FlatModel,
    merged: &FlatModel,
    a: &structure::alias::Aliases,
) -> Option<Count> {
    m.initial_equations.first()?;
    let free = (0..merged.vars.len())
        .filter(|&v| {
            a.has_state[v]
                && a.rep[v].0.index() == v
                && a.bound[v].is_none()
                && merged.vars[v].fixed != Some(true)
        })
        .count();
    let k = m.initial_equations.len();
    if free == 0 {
        return Some(Count::NoneFree);
    }
    (k > free).then_some(Count::Over)
}

/// [`load_source`] on a thread with a stack that fits the input's nesting.
pub fn load(file_name: &str, text: &str, opts: &Options) -> Result<Loaded, ThreadError> {
    let (name, t, o) = (file_name.to_string(), text.to_string(), opts.clone());
    with_stack_for(text, move || load_source(&name, &t, &o))
}

/// The integration methods by the names the command line gives them (`--method`), parsed
/// once by clap.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum MethodName {
    /// Forward Euler: explicit, order 1
    Fe,
    /// Backward Euler: L-stable, order 1
    Be,
    /// The trapezoidal rule: A-stable, order 2
    #[value(alias = "trap")]
    Trapezoid,
    /// Radau IIA with two stages: L-stable, order 3
    Radau,
    /// Linearly implicit Euler: one linear solve per step, order 1
    Libe,
    /// Mixed mode: backward Euler for the --implicit states (else the automatic partition's), forward Euler for the rest
    Mixed,
    /// Multi-rate: the --fast states take --ratio forward Euler sub-steps per step
    Multirate,
    /// Real-time Runge-Kutta of order 2 (inputs at the step's start only)
    Rtrk2,
    /// Runge-Kutta of order 3
    Rk3,
    /// The classical Runge-Kutta of order 4
    Rk4,
    /// Real-time Runge-Kutta of order 4 (inputs at the step's start only)
    Rtrk4,
    /// Adams-Bashforth of order 2
    Ab2,
    /// Adams-Bashforth of order 3
    Ab3,
}

impl std::str::FromStr for MethodName {
    type Err = Box<Diagnostic>;

    fn from_str(s: &str) -> DResult<MethodName> {
        <MethodName as clap::ValueEnum>::from_str(s, false).map_err(|_| {
            Box::new(
                Diagnostic::error("command-line", format!("unknown method `{s}`")).help(
                    "the methods are fe, be, trapezoid, radau, libe, mixed, multirate, rtrk2, rk3, rk4, rtrk4, ab2 and ab3",
                ),
            )
        })
    }
}

/// Mixed mode's formula for the implicit states (`--implicit-as`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, clap::ValueEnum)]
pub enum ImplicitAs {
    /// Backward Euler
    #[default]
    Be,
    /// Linearly implicit Euler
    Libe,
}

/// How multi-rate's fast sub-steps see the slow states (`--extrapolation`): Howe's
/// predictors.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, clap::ValueEnum)]
pub enum Extrapolation {
    #[default]
    Linear,
    Quadratic,
}

/// A method as the command line names it, with the options that go with it.
pub struct MethodChoice<'a> {
    pub method: MethodName,
    /// Mixed and multi-rate: the implicit states.
    pub implicit: &'a [String],
    /// Mixed: the implicit states' formula.
    pub implicit_as: ImplicitAs,
    /// Multi-rate: the fast states and sub-steps (else from annotations).
    pub fast: &'a [String],
    pub ratio: Option<usize>,
    pub extrapolation: Extrapolation,
    pub newton_iterations: u32,
}

impl Default for MethodChoice<'_> {
    fn default() -> Self {
        MethodChoice {
            method: MethodName::Be,
            implicit: &[],
            implicit_as: ImplicitAs::Be,
            fast: &[],
            ratio: None,
            extrapolation: Extrapolation::Linear,
            newton_iterations: 10,
        }
    }
}

/// The method a choice names (checked against the options that go with it).
pub fn parse_method(m: &MethodChoice) -> DResult<Method> {
    let method = match m.method {
        MethodName::Fe => Method::ForwardEuler,
        MethodName::Be => Method::BackwardEuler,
        MethodName::Trapezoid => Method::Trapezoid,
        MethodName::Radau => Method::Radau,
        MethodName::Rtrk2 => Method::Rk(Rk::Rtrk2),
        MethodName::Rk3 => Method::Rk(Rk::Rk3),
        MethodName::Rk4 => Method::Rk(Rk::Rk4),
        MethodName::Rtrk4 => Method::Rk(Rk::Rtrk4),
        MethodName::Ab2 => Method::Ab(2),
        MethodName::Ab3 => Method::Ab(3),
        MethodName::Libe => Method::Libe,
        // Fast states and ratio may also come from annotations (resolved with the model).
        MethodName::Multirate => Method::MultiRate {
            fast: m.fast.to_vec(),
            ratio: m.ratio.unwrap_or(0),
            implicit: m.implicit.to_vec(),
            quadratic: m.extrapolation == Extrapolation::Quadratic,
        },
        MethodName::Mixed => match m.implicit_as {
            ImplicitAs::Be => Method::Mixed {
                implicit: m.implicit.to_vec(),
            },
            ImplicitAs::Libe => Method::MixedLibe {
                implicit: m.implicit.to_vec(),
            },
        },
    };
    if m.implicit_as != ImplicitAs::Be && !matches!(method, Method::MixedLibe { .. }) {
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

/// Loads the shared libraries that define a model's external C functions (`--link`).
pub fn load_libraries(paths: &[std::path::PathBuf]) -> DResult<()> {
    for p in paths {
        crate::symbolic::external::load_library(p).map_err(|e| {
            Box::new(Diagnostic::error(
                "command-line",
                format!("--link {}: {e}", p.display()),
            ))
        })?;
    }
    Ok(())
}

/// Steps per run when only the experiment's stop time is known (the output-interval count
/// Modelica tools default to).
pub const DEFAULT_INTERVALS: f64 = 500.0;

/// The step size: the one asked for, else the experiment annotation's interval, else (with a
/// stop time but no interval, as many library examples have) the run divided into
/// [`DEFAULT_INTERVALS`] steps; the second value says that this default was taken.
pub fn step_size_or_default(requested: Option<f64>, flat: &FlatModel) -> DResult<(f64, bool)> {
    if requested.is_some() || flat.experiment.interval.is_some() {
        return step_size(requested, flat).map(|h| (h, false));
    }
    match flat.experiment.stop_time {
        Some(stop) if stop > flat.experiment.start_time.unwrap_or(0.0) => {
            let span = stop - flat.experiment.start_time.unwrap_or(0.0);
            step_size(Some(span / DEFAULT_INTERVALS), flat).map(|h| (h, true))
        }
        _ => step_size(None, flat).map(|h| (h, false)),
    }
}

/// The step size: the one asked for, else the experiment annotation's interval.
pub fn step_size(requested: Option<f64>, flat: &FlatModel) -> DResult<f64> {
    let h = requested.or(flat.experiment.interval).ok_or_else(|| {
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
pub fn needs_partition(flat: &FlatModel, method: &Method) -> bool {
    matches!(method, Method::Mixed { implicit } | Method::MixedLibe { implicit } if implicit.is_empty())
        && !flat.vars.iter().any(|v| v.implicit)
}

/// The linearisation of `flat` at its initial point (from a forward Euler plan).
pub fn linearize(flat: &FlatModel) -> DResult<crate::analysis::partition::Linearization> {
    if let Some(d) = flat.delays.first() {
        // The buffer's samples would read as constants: eigenvalues without the delay's
        // dynamics, silently wrong.
        return Err(Box::new(
            Diagnostic::error(
                "delay",
                "a model with `delay` has no linearisation of finite order: eigenvalues, error measures, step advice and the automatic partition are not available for it",
            )
            .at(d.span, "delay")
            .help("choose the method and the step yourself (--method, --step)"),
        ));
    }
    let p = plan(flat, &Settings::of(&Method::ForwardEuler))?.plan;
    crate::analysis::partition::linearize(&p, flat.experiment.start_time.unwrap_or(0.0))
}

/// `rtc analyze --eigenvalues`: eigenvalues at the initial point, each method's stability at
/// step `h` and the automatic partition.
pub fn eigenvalue_report(flat: &FlatModel, h: Option<f64>) -> DResult<String> {
    let lin = linearize(flat)?;
    let modes = crate::analysis::partition::modes(&lin).map_err(analysis_error)?;
    Ok(crate::analysis::partition::report(&lin, &modes, h))
}

fn analysis_error(e: impl std::fmt::Display) -> Box<Diagnostic> {
    Box::new(Diagnostic::error("analyze", e.to_string()))
}

/// `rtc analyze --errors`: Howe's dynamic error measures of `method` at step `h` on the model
/// linearised at its initial point, with the transfer-function errors at `freqs` (Hz).
pub fn error_report(flat: &FlatModel, method: &Method, h: f64, freqs: &[f64]) -> DResult<String> {
    let lin = linearize(flat)?;
    let modes = crate::analysis::partition::modes(&lin).map_err(analysis_error)?;
    let scheme =
        crate::analysis::accuracy::Scheme::of(method, &lin.states).map_err(analysis_error)?;
    crate::analysis::accuracy::report(&lin, &modes, &scheme, method.name(), h, freqs)
        .map_err(analysis_error)
}

pub use crate::analysis::accuracy::{Curves, MAX_REFINEMENT};

/// The data of `rtc analyze --errors --plot`: `method`'s stability boundary, the model's hλ
/// at `h`, and every mode's root error over steps around `h`.
pub fn accuracy_curves(flat: &FlatModel, method: &Method, h: f64) -> DResult<Curves> {
    let lin = linearize(flat)?;
    let modes = crate::analysis::partition::modes(&lin).map_err(analysis_error)?;
    let scheme =
        crate::analysis::accuracy::Scheme::of(method, &lin.states).map_err(analysis_error)?;
    Ok(crate::analysis::accuracy::curves(&lin, &modes, &scheme, h))
}

/// The methods `rtc analyze --advise` compares.
pub const ADVISED: [MethodName; 11] = [
    MethodName::Fe,
    MethodName::Rtrk2,
    MethodName::Rk3,
    MethodName::Rk4,
    MethodName::Rtrk4,
    MethodName::Ab2,
    MethodName::Ab3,
    MethodName::Be,
    MethodName::Trapezoid,
    MethodName::Radau,
    MethodName::Libe,
];

/// One method's advice: the largest step within the tolerance and what a step costs there.
pub struct Advice {
    pub method: Method,
    /// `None`: no step satisfies the tolerance (or the method does not apply to the model:
    /// `note` says why).
    pub step: Option<f64>,
    /// Floating-point operations per step (the plan's work bound) and libm calls.
    pub flops: u64,
    pub libm: u64,
    pub note: Option<String>,
}

/// `rtc analyze --advise`: for every method of [`ADVISED`], the largest step whose root
/// errors (of the modes with |λ| ≤ 2π·`bandwidth` when given, and gain and phase errors at
/// `freqs`) stay below `tol`, and the work per step from the plan's work bound. (Stability
/// of the modes left out is not checked: the table says so.)
pub fn advise(
    flat: &FlatModel,
    freqs: &[f64],
    tol: f64,
    base: &Settings,
    bandwidth: Option<f64>,
) -> DResult<Vec<Advice>> {
    let lin = linearize(flat)?;
    let mut modes = crate::analysis::partition::modes(&lin).map_err(analysis_error)?;
    if let Some(bw) = bandwidth {
        // Only the modes inside the bandwidth count: |λ| ≤ 2π·bandwidth.
        modes.retain(|m| m.lambda.norm() <= 2.0 * std::f64::consts::PI * bw);
    }
    let mut out = Vec::new();
    for name in ADVISED {
        let method = parse_method(&MethodChoice {
            method: name,
            ..MethodChoice::default()
        })?;
        let scheme =
            crate::analysis::accuracy::Scheme::of(&method, &lin.states).map_err(analysis_error)?;
        let step = crate::analysis::accuracy::largest_step(&lin, &modes, &scheme, tol, freqs);
        let (flops, libm, note) = match plan(flat, &base.with_method(method.clone())) {
            Ok(Planned { plan: p, .. }) => {
                let w = p.work_bound();
                (w.flops, w.libm_calls, None)
            }
            Err(d) => (0, 0, Some(d.message.clone())),
        };
        out.push(Advice {
            method,
            step,
            flops,
            libm,
            note,
        });
    }
    Ok(out)
}

/// Resolves automatic mixed mode (Schiela's partition at step `h`, §10.7); other methods pass
/// through. Returns the method and a note saying what was chosen.
pub fn resolve_method(
    flat: &FlatModel,
    method: Method,
    h: Option<f64>,
) -> DResult<(Method, Option<String>)> {
    if !needs_partition(flat, &method) {
        return Ok((method, None));
    }
    let Some(h) = h else {
        return Err(Box::new(Diagnostic::error(
            "command-line",
            "--method mixed without --implicit needs a step size to choose the implicit states",
        )));
    };
    let lin = linearize(flat)?;
    let modes = crate::analysis::partition::modes(&lin).map_err(analysis_error)?;
    let part = crate::analysis::partition::partition(&lin, &modes, h);
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

/// The step system for `method`: inline integration, then the transformations some methods
/// are (linearly implicit Euler, multi-rate), which need the explicit form of the model from a
/// first plan. The system is verified after each pass.
pub fn system(flat: &FlatModel, settings: &Settings) -> DResult<Discretized> {
    if let Some(folded) = flat.homotopy_folded() {
        // Every plan is built with homotopy's λ = 1: only `actual` is compiled.
        return system(&folded, settings);
    }
    system_as_written(flat, settings)
}

/// [`system`] without folding homotopy's λ (a parameter slot, for the continuation of the
/// start-time solve).
fn system_as_written(flat: &FlatModel, settings: &Settings) -> DResult<Discretized> {
    if !flat.initial_equations.is_empty() {
        let (solved, _) = initialized(flat, settings.step)?;
        return system(&solved, settings);
    }
    let method = &settings.method;
    let d = crate::discretize::discretize(flat, method, settings.step)?;
    crate::system::verify(&d)?;
    let opts = plan::BuildOptions {
        newton: settings.newton,
        guard_factors: crate::structure::tearing::Guard::Loop,
    };
    let d = match method {
        Method::Libe => {
            let (p0, _, _) = plan::build(&d, &opts)?;
            libe::transform(d, &p0, None)
        }
        Method::MixedLibe { implicit } => {
            let (p0, _, _) = plan::build(&d, &opts)?;
            let ids: Vec<SysVar> = d
                .formulas
                .iter()
                .map(|(x, _)| *x)
                .filter(|x| {
                    let v = &d.vars[*x];
                    implicit.contains(&v.name) || v.flat.is_some_and(|f| flat.var(f).implicit)
                })
                .collect();
            libe::transform(d, &p0, Some(&ids))
        }
        Method::MultiRate { quadratic, .. } => {
            let (fast, ratio) = crate::pipeline::multirate_settings(flat, method)?;
            let (p0, _, _) = plan::build(&d, &opts)?;
            let ids: Vec<SysVar> = d
                .formulas
                .iter()
                .map(|(x, _)| *x)
                .filter(|x| fast.iter().any(|f| *f == d.vars[*x].name))
                .collect();
            multirate::transform(d, &p0, &ids, ratio, *quadratic)
        }
        _ => Ok(d),
    }?;
    crate::system::verify(&d)?;
    Ok(d)
}

/// A plan with the tearing reports of the initial and the step system.
pub struct Planned {
    pub plan: Plan,
    pub init_reports: Vec<BlockReport>,
    pub step_reports: Vec<BlockReport>,
}

/// Flat model → plan for the settings, with the tearing reports of the initial and the step
/// system.
pub fn plan(flat: &FlatModel, settings: &Settings) -> DResult<Planned> {
    let p = prepare(flat, settings)?;
    Ok(Planned {
        plan: p.plan,
        init_reports: p.init_reports,
        step_reports: p.step_reports,
    })
}

/// Each slot's door: the bounds and type its variable declares (`min`/`max` evaluated at the
/// parameters' bindings; an enumeration's range; Integer and Boolean values whole, 0 or 1).
/// What the command line, CSV and UDP inputs, control commands and FMU setters check before
/// they write a value ([`rtc_runtime::door`]).
pub fn doors(flat: &FlatModel, plan: &mut Plan) {
    let by_name: rustc_hash::FxHashMap<&str, &crate::flat::Variable> =
        flat.vars.iter().map(|v| (v.name.as_str(), v)).collect();
    for pv in plan.vars.iter_mut() {
        if let Some(v) = by_name.get(pv.name.as_str()) {
            pv.admissible = admissible(flat, v);
        }
    }
}

/// The door of flat variable `v`: its `min`/`max` at the parameters' bindings, its type.
fn admissible(flat: &FlatModel, v: &crate::flat::Variable) -> rtc_runtime::door::Admissible {
    use crate::flat::ScalarType;
    use rtc_runtime::door::{Admissible, ValueKind};
    let bound = |e: Option<crate::symbolic::ExprId>| {
        e.and_then(|e| crate::structure::alias::param_value(flat, e, 0))
    };
    let mut a = Admissible {
        min: bound(v.min).unwrap_or(f64::NEG_INFINITY),
        max: bound(v.max).unwrap_or(f64::INFINITY),
        kind: ValueKind::Real,
    };
    match v.ty {
        ScalarType::Real => {}
        ScalarType::Integer => a.kind = ValueKind::Integer,
        ScalarType::Boolean => a.kind = ValueKind::Boolean,
        ScalarType::Enum(id) => {
            a.kind = ValueKind::Integer;
            a.min = a.min.max(1.0);
            a.max = a.max.min(flat.enums[id.index()].literals.len() as f64);
        }
    }
    a
}

/// Every parameter of the flat model whose value its bindings give (with `--param`
/// overrides) against its declaration's bounds and type, before anything is compiled: the
/// first that breaks them, as a diagnostic at its declaration ([`check_parameters`] checks
/// the plan's values after start-up too, for those computed otherwise).
pub fn check_parameter_bounds(flat: &FlatModel) -> Result<(), Box<Diagnostic>> {
    for v in flat.vars.iter() {
        if v.kind != crate::flat::VarKind::Parameter || (v.min.is_none() && v.max.is_none()) {
            continue;
        }
        let Some(x) = v
            .binding
            .and_then(|b| crate::structure::alias::param_value(flat, b, 0))
        else {
            continue;
        };
        if let Err(why) = admissible(flat, v).check(x) {
            return Err(Box::new(
                Diagnostic::error(
                    "parameter",
                    format!("parameter `{}` = {x}: the value is {why}", v.name),
                )
                .at(v.span, "declared here"),
            ));
        }
    }
    Ok(())
}

/// The parameters and inputs whose values in `mem` are not finite (name, value).
pub fn non_finite_knowns(p: &Plan, mem: &[f64]) -> Vec<(String, f64)> {
    use crate::system::SVarKind;
    p.vars
        .iter_enumerated()
        .filter(|(s, v)| {
            matches!(
                v.kind,
                crate::plan::SlotKind::System(SVarKind::Parameter | SVarKind::Input)
            ) && !mem[s.index()].is_finite()
        })
        .map(|(s, v)| (v.name.clone(), mem[s.index()]))
        .collect()
}

/// Every parameter's value against its door (finite, within its declaration's `min`/`max`,
/// of its type): the first that is not, as a diagnostic at its declaration.
pub fn check_parameters(p: &Plan, mem: &[f64]) -> Result<(), Box<Diagnostic>> {
    use crate::system::SVarKind;
    for (slot, v) in p.vars.iter_enumerated() {
        if v.kind != crate::plan::SlotKind::System(SVarKind::Parameter) {
            continue;
        }
        if let Err(why) = v.admissible.check(mem[slot.index()]) {
            return Err(Box::new(
                Diagnostic::error(
                    "parameter",
                    format!(
                        "parameter `{}` = {}: the value is {why}",
                        v.name,
                        mem[slot.index()]
                    ),
                )
                .at(v.span, "declared here"),
            ));
        }
    }
    Ok(())
}

/// Everything between a flat model and its plan, for reports.
pub struct Prepared {
    /// The model the plan was built from: initial equations solved into start values, and
    /// a start the step's Newton could not solve solved into start values.
    pub flat: FlatModel,
    pub system: Discretized,
    pub plan: Plan,
    pub init_reports: Vec<BlockReport>,
    pub step_reports: Vec<BlockReport>,
}

/// Initial equations solved ([`initialized`]), the step system and its plan; a start that the
/// plan's own initialisation cannot solve is solved once more, damped, into start values
/// ([`crate::initialization::start_point`]) and the plan rebuilt. The plan's notes say what
/// was done.
pub fn prepare(flat: &FlatModel, settings: &Settings) -> DResult<Prepared> {
    // The structural check first: an unbalanced or singular model is the user's mistake, with
    // its located diagnostic, not a broken invariant of the step system.
    if let Err(mut ds) = check_model(flat) {
        let first = ds.iter().position(|d| d.is_error()).unwrap_or(0);
        return Err(Box::new(ds.swap_remove(first)));
    }
    let (flat, mut notes) = if flat.initial_equations.is_empty() {
        (flat.clone(), Vec::new())
    } else {
        initialized(flat, settings.step)?
    };
    let system = system(&flat, settings)?;
    // The start-time solve's continuation in homotopy's λ runs on a forward Euler plan of the
    // model as written (λ a parameter slot).
    let continuation = |f: &FlatModel| -> DResult<Plan> {
        let fe = settings.with_method(Method::ForwardEuler);
        Ok(plan_of(&system_as_written(f, &fe)?, &fe)?.plan)
    };
    let t0 = flat.experiment.start_time.unwrap_or(0.0);
    let starts = |p: &Plan| {
        let mut it = crate::plan::interp::Interp::new(p);
        let mut mem = it.memory();
        it.init(&mut mem, t0) == crate::plan::Status::Ok
    };
    // Tearing does not divide by a loop's own unknowns, which may vanish (a machine's current
    // at rest). Where the model at the start time does not solve that way even from start
    // values solved when compiling (a resistance torn on while its current is zero), the
    // loops are torn as before, dividing by them. A start the plan's own Newton cannot solve
    // is solved once more, damped, into start values, and the plan rebuilt. Where neither
    // starts, tearing divides by nothing that varies in the run (a diode's voltage, zero at
    // the start, that its loss power would be divided by to give the current).
    use crate::structure::tearing::Guard;
    let mut first = None;
    for guard in [Guard::Loop, Guard::Off, Guard::Varying] {
        let Planned {
            plan,
            init_reports: i,
            step_reports: s,
        } = plan_torn(&system, settings, guard)?;
        if starts(&plan) {
            first = Some((flat.clone(), system.clone(), plan, i, s, Vec::new(), guard));
            break;
        }
        let Some((started, n)) = crate::initialization::start_point(&flat, &plan, &continuation)
        else {
            first.get_or_insert((flat.clone(), system.clone(), plan, i, s, Vec::new(), guard));
            continue;
        };
        let sys = self::system(&started, settings)?;
        let Planned {
            plan,
            init_reports: i,
            step_reports: s,
        } = plan_torn(&sys, settings, guard)?;
        let ok = starts(&plan);
        if ok || first.is_none() {
            first = Some((started, sys, plan, i, s, n, guard));
        }
        if ok {
            break;
        }
    }
    let (flat, system, mut plan, init_reports, step_reports, n, guard) =
        first.ok_or_else(|| analysis_error("no plan was kept"))?;
    notes.extend(n);
    match guard {
        Guard::Loop => {}
        Guard::Off => notes.push(
            "loops torn dividing by their own unknowns: with those equations left to Newton, the model at the start time did not solve".into(),
        ),
        Guard::Varying => notes.push(
            "loops torn dividing by no variable (a factor that is zero at the start time left to Newton): torn otherwise, the model at the start time did not solve".into(),
        ),
    }
    plan.notes = flat.notes.iter().cloned().chain(notes).collect();
    doors(&flat, &mut plan);
    Ok(Prepared {
        flat,
        system,
        plan,
        init_reports,
        step_reports,
    })
}

/// `flat` with its initial equations solved into start values before the run
/// ([`crate::initialization`]), and the report of what was solved; `step`: the step the plans
/// are built for (delays).
pub fn initialized(flat: &FlatModel, step: Option<f64>) -> DResult<(FlatModel, Vec<String>)> {
    crate::initialization::initialize(flat, &|f| {
        plan(f, &Settings::of(&Method::ForwardEuler).step(step)).map(|r| r.plan)
    })
}

/// The plan of a step system built for the settings.
pub fn plan_of(d: &Discretized, settings: &Settings) -> DResult<Planned> {
    plan_torn(d, settings, crate::structure::tearing::Guard::Loop)
}

/// [`plan_of`], tearing with or without the guard against dividing by a loop's own
/// unknowns ([`plan::BuildOptions::guard_factors`]).
fn plan_torn(
    d: &Discretized,
    settings: &Settings,
    guard_factors: crate::structure::tearing::Guard,
) -> DResult<Planned> {
    let opts = plan::BuildOptions {
        newton: settings.newton,
        guard_factors,
    };
    let (mut plan, init_reports, step_reports) = plan::build(d, &opts)?;
    plan.method = settings.method.name().to_string();
    Ok(Planned {
        plan,
        init_reports,
        step_reports,
    })
}

/// The multi-rate settings (fast states and ratio) of `method` for `flat`.
pub fn multirate_settings(flat: &FlatModel, method: &Method) -> DResult<(Vec<String>, usize)> {
    crate::discretize::multirate_settings(flat, method)
}

/// Stack needed to parse and flatten `text` safely. Recursion in the parser, the AST builder
/// and expression evaluation follows the nesting of the source: brackets, and `if` nested
/// after `then`/`else` (if-expressions and if-equations nest without brackets). The estimate
/// is an upper bound on that depth times a per-level budget measured on debug builds.
pub fn stack_size_for(text: &str) -> usize {
    const PER_LEVEL: usize = 256 << 10;
    let mut depth = 0usize;
    let mut max_depth = 0usize;
    for b in text.bytes() {
        match b {
            b'(' | b'[' | b'{' => {
                depth += 1;
                max_depth = max_depth.max(depth);
            }
            b')' | b']' | b'}' => depth = depth.saturating_sub(1),
            _ => {}
        }
    }
    let mut nested_ifs = 0usize;
    let mut prev: &str = "";
    for word in text.split(|c: char| !(c.is_alphanumeric() || c == '_')) {
        if word.is_empty() {
            continue;
        }
        if word == "if" && (prev == "then" || prev == "else" || prev == "loop") {
            nested_ifs += 1;
        }
        if word == "for" && (prev == "then" || prev == "else" || prev == "loop") {
            nested_ifs += 1;
        }
        prev = word;
    }
    (16 << 20) + (max_depth.min(MAX_BRACKETS) + nested_ifs + 16) * PER_LEVEL
}

/// The parser refuses deeper bracket nesting than this before recursing.
const MAX_BRACKETS: usize = 200;

/// Why [`with_stack_for`] could not return a result.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ThreadError {
    /// The input nests too deeply for a stack this machine can give.
    TooDeep,
    /// The compiler panicked: a bug.
    Panicked,
}

/// Runs `f` on a thread whose stack fits `text` (see [`stack_size_for`]).
pub fn with_stack_for<T: Send + 'static>(
    text: &str,
    f: impl FnOnce() -> T + Send + 'static,
) -> Result<T, ThreadError> {
    let size = stack_size_for(text);
    if size > (32usize << 30) {
        return Err(ThreadError::TooDeep);
    }
    let handle = std::thread::Builder::new()
        .stack_size(size)
        .spawn(f)
        .map_err(|_| ThreadError::TooDeep)?;
    handle.join().map_err(|_| ThreadError::Panicked)
}
