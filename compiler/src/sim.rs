//! As-fast-as-possible simulation on the plan interpreter: initialise, step at a fixed step
//! size, record chosen variables. Used by `rtc run` and by the tests that compare with
//! reference trajectories.

use crate::diag::Diagnostic;
use crate::flat::VarKind;
use crate::plan::interp::Interp;
use crate::plan::Slot;
use crate::plan::Status;
use crate::plan::{self, Plan, SlotKind};
use crate::system::SVarKind;

/// Settings of a run.
#[derive(Clone, Debug, Default)]
pub struct RunSettings {
    pub start: f64,
    pub stop: f64,
    pub step: f64,
    /// Record every this many steps.
    pub every: usize,
    /// Sampled values of the model's inputs; inputs not given hold their start values.
    pub inputs: Option<Inputs>,
}

/// Input signals as samples held between them: the runtime's CSV source (a `time` column,
/// then one column per input; at time t every input takes its value at the last sample time
/// ≤ t). They are read before initialisation, at the start time, and for every step at the
/// times the step uses them ([`input_slots`]).
pub type Inputs = rtc_runtime::io::CsvInputs;

/// The plan's inputs as the runtime names them: each input's main slot, read by the model
/// equations of the step, which hold at its end (offset 1: the value at t + h; the next
/// step's explicit formulas see it as the value at their start), then the slots a
/// multi-stage formula reads at its stage times, under the input's name with their offset.
pub fn input_slots(plan: &Plan) -> Vec<rtc_runtime::Slot> {
    let staged: Vec<Slot> = plan.input_stages.iter().map(|s| s.slot).collect();
    let mut out: Vec<rtc_runtime::Slot> = plan
        .vars
        .iter()
        .enumerate()
        .filter(|(i, v)| {
            v.kind == plan::SlotKind::System(SVarKind::Input) && !staged.contains(&Slot(*i as u32))
        })
        .map(|(i, v)| rtc_runtime::Slot {
            name: v.name.clone(),
            slot: i,
            offset: 1.0,
        })
        .collect();
    out.extend(plan.input_stages.iter().map(|s| rtc_runtime::Slot {
        name: plan.name_of(s.input).to_string(),
        slot: s.slot.index(),
        offset: s.offset,
    }));
    out
}

/// Reads an input CSV for `plan`, with a diagnostic for mistakes.
pub fn read_inputs(plan: &Plan, path: &std::path::Path) -> Result<Inputs, Box<Diagnostic>> {
    Inputs::read(path, &input_slots(plan)).map_err(|e| Box::new(Diagnostic::error("inputs", e)))
}

/// Start values of the plan's inputs (bindings evaluated after the parameters): (slot, value).
pub fn input_starts(plan: &Plan, mem_after_init: &[f64]) -> Vec<(usize, f64)> {
    plan.vars
        .iter()
        .enumerate()
        .filter(|(_, v)| v.kind == plan::SlotKind::System(SVarKind::Input))
        .map(|(i, v)| {
            let x = v.binding.map_or(0.0, |b| {
                crate::symbolic::eval::eval(
                    &plan.arena,
                    b,
                    &mut |x| mem_after_init[x.index()],
                    mem_after_init[plan.time.index()],
                )
            });
            (i, x)
        })
        .collect()
}

/// Recorded results.
#[derive(Clone, Debug, Default)]
pub struct Trajectory {
    pub names: Vec<String>,
    pub times: Vec<f64>,
    /// Row-major: one row per recorded time.
    pub values: Vec<Vec<f64>>,
}

impl Trajectory {
    pub fn column(&self, name: &str) -> Option<Vec<f64>> {
        let k = self.names.iter().position(|n| n == name)?;
        Some(self.values.iter().map(|r| r[k]).collect())
    }
}

/// Why a run stopped early.
#[derive(Clone, Debug)]
pub struct Failure {
    pub time: f64,
    pub status: Status,
    pub message: String,
}

/// Indices of the outputs to record: the named ones, or states and outputs by default.
pub fn select_outputs(plan: &Plan, names: &[String]) -> Result<Vec<usize>, Box<Diagnostic>> {
    if names.is_empty() {
        return Ok(plan
            .outputs
            .iter()
            .enumerate()
            .filter(|(_, o)| o.is_output || o.kind == VarKind::State)
            .map(|(i, _)| i)
            .collect());
    }
    let mut out = Vec::new();
    for n in names {
        match plan.outputs.iter().position(|o| &o.name == n) {
            Some(i) => out.push(i),
            None => {
                let cands: Vec<String> = plan.outputs.iter().map(|o| o.name.clone()).collect();
                let mut d = Diagnostic::error(
                    "command-line",
                    format!("--vars: the model has no variable `{n}`"),
                );
                if let Some(s) = crate::diag::suggest(n, &cands) {
                    d = d.help(format!("did you mean `{s}`?"));
                }
                return Err(Box::new(d));
            }
        }
    }
    Ok(out)
}

/// What executes the plan.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Engine {
    /// The plan interpreter (the oracle).
    Interp,
    /// Cranelift-compiled native code.
    Jit,
}

/// A step function with its memory, whichever engine runs it.
pub trait Stepper {
    fn memory(&self) -> Vec<f64>;
    fn init(&mut self, mem: &mut [f64], t0: f64) -> Status;
    fn step(&mut self, mem: &mut [f64], t: f64, h: f64) -> Status;
    /// Every named variable (the plan's outputs, in order).
    fn outputs(&mut self, plan: &Plan, mem: &[f64], out: &mut [f64]);
    /// Recompute what depends on tunable parameters after they changed.
    fn parameters_changed(&mut self, mem: &mut [f64]);
    /// Every event's zero-crossing function, or its discrete condition as 0/1, then (at
    /// `n + k`) the time derivatives of those located by a cubic; `out` has twice the events
    /// (the expression evaluator unless the engine compiled them).
    fn event_values(&mut self, plan: &Plan, mem: &[f64], out: &mut [f64]) {
        let n = plan.events.len();
        for (k, e) in plan.events.iter().enumerate() {
            out[k] = eval_at(plan, mem, e.discrete.unwrap_or(e.z));
            if let Some(d) = e.dz {
                out[n + k] = eval_at(plan, mem, d);
            }
        }
    }
    /// Every assertion's condition as 0/1: the plan's assertions, then its initial ones (the
    /// expression evaluator unless the engine compiled them).
    fn assertion_values(&mut self, plan: &Plan, mem: &[f64], out: &mut [f64]) {
        for (k, (e, _)) in plan.all_assertions().enumerate() {
            out[k] = eval_at(plan, mem, *e);
        }
    }
    /// The slots the events read as pre(v) take the current values.
    fn event_pre(&mut self, plan: &Plan, mem: &mut [f64]) {
        for e in &plan.events {
            for &(slot, v) in &e.pres {
                mem[slot.index()] = mem[v.index()];
            }
        }
    }
    /// Event `k`'s actions, in order: the sorted assignments, then the re-initialisations.
    fn event_action(&mut self, plan: &Plan, mem: &mut [f64], k: usize) {
        let e = &plan.events[k];
        for &(x, ex) in e.assigns.iter().chain(&e.reinits) {
            mem[x.index()] = eval_at(plan, mem, ex);
        }
    }
}

/// `e` evaluated on `mem`.
fn eval_at(plan: &Plan, mem: &[f64], e: crate::symbolic::ExprId) -> f64 {
    crate::symbolic::eval::eval(
        &plan.arena,
        e,
        &mut |x| mem[x.index()],
        mem[plan.time.index()],
    )
}

impl Stepper for Interp {
    fn memory(&self) -> Vec<f64> {
        Interp::memory(self)
    }
    fn init(&mut self, mem: &mut [f64], t0: f64) -> Status {
        Interp::init(self, mem, t0)
    }
    fn step(&mut self, mem: &mut [f64], t: f64, h: f64) -> Status {
        Interp::step(self, mem, t, h)
    }
    fn outputs(&mut self, plan: &Plan, mem: &[f64], out: &mut [f64]) {
        for (o, x) in plan.outputs.iter().zip(out.iter_mut()) {
            *x = self.eval(mem, o.expr);
        }
    }
    fn parameters_changed(&mut self, mem: &mut [f64]) {
        Interp::parameters_changed(self, mem)
    }
}

impl Stepper for crate::codegen::Jit {
    fn memory(&self) -> Vec<f64> {
        crate::codegen::Jit::memory(self)
    }
    fn init(&mut self, mem: &mut [f64], t0: f64) -> Status {
        crate::codegen::Jit::init(self, mem, t0)
    }
    fn step(&mut self, mem: &mut [f64], t: f64, h: f64) -> Status {
        crate::codegen::Jit::step(self, mem, t, h)
    }
    fn outputs(&mut self, _plan: &Plan, mem: &[f64], out: &mut [f64]) {
        crate::codegen::Jit::outputs(self, mem, out)
    }
    fn parameters_changed(&mut self, mem: &mut [f64]) {
        crate::codegen::Jit::parameters_changed(self, mem)
    }
    fn event_values(&mut self, _plan: &Plan, mem: &[f64], out: &mut [f64]) {
        crate::codegen::Jit::event_values(self, mem, out)
    }
    fn assertion_values(&mut self, _plan: &Plan, mem: &[f64], out: &mut [f64]) {
        crate::codegen::Jit::assertion_values(self, mem, out)
    }
    fn event_pre(&mut self, _plan: &Plan, mem: &mut [f64]) {
        crate::codegen::Jit::event_pre(self, mem)
    }
    fn event_action(&mut self, _plan: &Plan, mem: &mut [f64], k: usize) {
        crate::codegen::Jit::event_action(self, mem, k)
    }
}

/// A stepper with its events as the runtime's [`rtc_runtime::Model`]: what `rtc run` drives
/// (and the step benchmark measures); a failing step's error carries the status code.
pub struct RunModel<'a> {
    stepper: &'a mut dyn Stepper,
    plan: &'a Plan,
    pub events: Events<'a>,
    /// Log entries already reported to the runtime.
    events_seen: usize,
}

impl<'a> RunModel<'a> {
    pub fn new(stepper: &'a mut dyn Stepper, plan: &'a Plan, events: Events<'a>) -> RunModel<'a> {
        RunModel {
            stepper,
            plan,
            events,
            events_seen: 0,
        }
    }
}

impl rtc_runtime::Model for RunModel<'_> {
    fn step(&mut self, mem: &mut [f64], t: f64, h: f64) -> Result<(), String> {
        match self.events.step(self.stepper, mem, t, h) {
            Status::Ok => Ok(()),
            st => Err(format!(
                "{} (status {})",
                plan::describe(self.plan, st),
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
    fn take_event_rows(&mut self, row: &mut dyn FnMut(f64, &[f64])) {
        if let Some(rows) = self.events.rows.as_mut() {
            for (t, out) in rows.drain(..) {
                row(t, &out);
            }
        }
    }
    fn take_events(&mut self) -> (u32, u32) {
        let new = &self.events.log[self.events_seen..];
        let handled = new.iter().filter(|r| r.handled()).count() as u32;
        let deferred = new.len() as u32 - handled;
        self.events_seen = self.events.log.len();
        (handled, deferred)
    }
}

/// The stepper for `engine`.
pub fn stepper(plan: &Plan, engine: Engine) -> Result<Box<dyn Stepper>, Box<Diagnostic>> {
    // Every engine calls the model's external C functions: they must be loaded.
    let missing = crate::symbolic::external::missing(&crate::codegen::externals(plan));
    if !missing.is_empty() {
        return Err(Box::new(
            Diagnostic::error(
                "external",
                format!(
                    "external C function{} not found in rtc or a loaded library: {}",
                    if missing.len() == 1 { "" } else { "s" },
                    missing.iter().map(|m| format!("`{m}`")).collect::<Vec<_>>().join(", ")
                ),
            )
            .help("give the shared library that defines it with --link PATH (e.g. --link ./libmyfuncs.so)"),
        ));
    }
    Ok(match engine {
        Engine::Interp => Box::new(Interp::new(plan)),
        Engine::Jit => Box::new(crate::codegen::jit(plan, false).map_err(|e| {
            Box::new(
                Diagnostic::error("codegen", format!("code generation failed: {e}")).help(
                    "this is a bug in rtc; --engine interp runs the model without code generation",
                ),
            )
        })?),
    })
}

/// Runs `plan` on the interpreter and calls `record` for every recorded row (time, values).
pub fn simulate(
    plan: &Plan,
    settings: &RunSettings,
    selected: &[usize],
    record: &mut dyn FnMut(f64, &[f64]),
) -> Result<usize, Failure> {
    let mut it = Interp::new(plan);
    simulate_with(plan, &mut it, settings, selected, record)
}

/// Runs `plan` on `engine` and calls `record` for every recorded row (time, values).
pub fn simulate_with(
    plan: &Plan,
    it: &mut dyn Stepper,
    settings: &RunSettings,
    selected: &[usize],
    record: &mut dyn FnMut(f64, &[f64]),
) -> Result<usize, Failure> {
    simulate_logged(plan, it, settings, selected, record, &mut Vec::new())
}

/// [`simulate_with`], and the event log.
pub fn simulate_logged(
    plan: &Plan,
    it: &mut dyn Stepper,
    settings: &RunSettings,
    selected: &[usize],
    record: &mut dyn FnMut(f64, &[f64]),
    log: &mut Vec<EventRecord>,
) -> Result<usize, Failure> {
    let mut mem = it.memory();
    let mut row = vec![0.0; selected.len()];
    let sample = |mem: &[f64], row: &mut Vec<f64>| {
        for (k, &i) in selected.iter().enumerate() {
            row[k] = crate::symbolic::eval::eval(
                &plan.arena,
                plan.outputs[i].expr,
                &mut |x| mem[x.index()],
                mem[plan.time.index()],
            );
        }
    };
    // Inputs at the start time: start values (which may use parameters, known after a first
    // initialisation), then the sampled signals.
    let starts = {
        let _ = it.init(&mut mem, settings.start);
        input_starts(plan, &mem)
    };
    for &(slot, x) in &starts {
        mem[slot] = x;
    }
    let mut inputs = settings.inputs.clone();
    let mut events = Events::new(plan);
    if let Some(inp) = inputs.as_mut() {
        // At the start time itself (the initial system is the model at t0).
        inp.apply(&mut mem, settings.start, 0.0);
    }
    let mut st = it.init(&mut mem, settings.start);
    if st == Status::Ok {
        st = events.initial(it, &mut mem, settings.start);
    }
    if st != Status::Ok {
        return Err(Failure {
            time: settings.start,
            status: st,
            message: format!("initialisation failed: {}", crate::plan::describe(plan, st)),
        });
    }
    sample(&mem, &mut row);
    record(settings.start, &row);
    let n = ((settings.stop - settings.start) / settings.step)
        .round()
        .max(0.0) as usize;
    for k in 0..n {
        let t = settings.start + k as f64 * settings.step;
        if let Some(inp) = inputs.as_mut() {
            inp.apply(&mut mem, t, settings.step);
        }
        let st = events.step(it, &mut mem, t, settings.step);
        let t1 = settings.start + (k + 1) as f64 * settings.step;
        if let Status::Terminated { .. } = st {
            // The model ended the run (`terminate`): not a failure.
            sample(&mem, &mut row);
            record(t1, &row);
            log.append(&mut events.log);
            return Ok(k + 1);
        }
        if st != Status::Ok {
            // Record the failing state too: the run shows where it went wrong.
            sample(&mem, &mut row);
            record(t1, &row);
            log.append(&mut events.log);
            return Err(Failure {
                time: t1,
                status: st,
                message: crate::plan::describe(plan, st),
            });
        }
        if (k + 1) % settings.every.max(1) == 0 || k + 1 == n {
            sample(&mem, &mut row);
            record(t1, &row);
        }
    }
    log.append(&mut events.log);
    Ok(n)
}

/// The outputs `names` select and a trajectory with their names and no rows.
fn empty_trajectory(
    plan: &Plan,
    names: &[String],
) -> Result<(Vec<usize>, Trajectory), Box<Diagnostic>> {
    let selected = select_outputs(plan, names)?;
    let tr = Trajectory {
        names: selected
            .iter()
            .map(|&i| plan.outputs[i].name.clone())
            .collect(),
        ..Trajectory::default()
    };
    Ok((selected, tr))
}

/// Runs on the interpreter and collects the trajectory and the event log.
pub fn trajectory_with_events(
    plan: &Plan,
    settings: &RunSettings,
    names: &[String],
) -> Result<(Trajectory, Option<Failure>, Vec<EventRecord>), Box<Diagnostic>> {
    let (selected, mut tr) = empty_trajectory(plan, names)?;
    let mut it = Interp::new(plan);
    let mut log = Vec::new();
    let r = simulate_logged(
        plan,
        &mut it,
        settings,
        &selected,
        &mut |t, row| {
            tr.times.push(t);
            tr.values.push(row.to_vec());
        },
        &mut log,
    );
    Ok((tr, r.err(), log))
}

/// Runs and collects the trajectory (tests, analysis).
pub fn trajectory(
    plan: &Plan,
    settings: &RunSettings,
    names: &[String],
) -> Result<(Trajectory, Option<Failure>), Box<Diagnostic>> {
    let (selected, mut tr) = empty_trajectory(plan, names)?;
    let r = simulate(plan, settings, &selected, &mut |t, row| {
        tr.times.push(t);
        tr.values.push(row.to_vec());
    });
    Ok((tr, r.err()))
}

/// One event as the log records it.
#[derive(Clone, Debug, PartialEq)]
pub struct EventRecord {
    /// The located event time (deferred events: the end of the step that found them).
    pub time: f64,
    pub index: usize,
    pub condition: String,
    pub outcome: Outcome,
}

impl EventRecord {
    /// Located and handled (including the event that was then found chattering).
    pub fn handled(&self) -> bool {
        self.outcome != Outcome::Deferred
    }
}

/// What became of an event.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// Located, the step repeated up to it, its actions applied.
    Handled,
    /// A second event in a step: applied at the step's end, unlocated.
    Deferred,
    /// Handled, then found chattering: its states are held from here (`--zeno hold`).
    Held,
    /// Handled, then found chattering: the run stops (`--zeno stop`).
    Stopped,
}

impl Outcome {
    pub fn name(self) -> &'static str {
        match self {
            Outcome::Handled => "handled",
            Outcome::Deferred => "deferred",
            Outcome::Held => "chattering: held",
            Outcome::Stopped => "chattering: stopped",
        }
    }
}

/// What the chattering rule does with an event that comes back faster than the step can
/// resolve (a ball coming to rest: Zeno behaviour).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, clap::ValueEnum)]
pub enum Zeno {
    /// Stop the run with status 4, naming the event.
    #[default]
    Stop,
    /// Hold the states the event's condition reads and the states it re-initialises at their
    /// values just after the event, to the end of the run; the event is no longer located.
    Hold,
}

/// The chattering rule's finding: which event, when, and what it held.
#[derive(Clone, Debug, PartialEq)]
pub struct Chatter {
    pub event: usize,
    pub time: f64,
    /// Time since the event's previous occurrence.
    pub gap: f64,
    /// Names of the held states (`--zeno hold`).
    pub held: Vec<String>,
}

/// The event time in a step as a fraction θ of it, from the event function's values `z0`,
/// `z1` at its ends: regula falsi, θ = z0/(z0 − z1); with `cubic` and the time derivatives
/// `d0`, `d1` (s⁻¹), one inverse cubic Hermite interpolation — t as a function of z through
/// both ends with slopes 1/ż — evaluated at z = 0, when z is monotone over the step (both
/// slopes agree with the secant and the Hermite cubic is monotone: slope ratios ≤ 3), else
/// regula falsi. One formula, no iteration; the C event stepper computes the same.
pub fn locate(z0: f64, z1: f64, d0: f64, d1: f64, h: f64, cubic: bool) -> f64 {
    let u = if z0 != z1 {
        (z0 / (z0 - z1)).clamp(0.0, 1.0)
    } else {
        1.0
    };
    if !cubic {
        return u;
    }
    let dz = z1 - z0;
    let (s0, s1) = (h * d0, h * d1);
    if !(s0 * dz > 0.0 && s1 * dz > 0.0) {
        return u;
    }
    let (m0, m1) = (dz / s0, dz / s1);
    if !(m0 <= 3.0 && m1 <= 3.0) {
        return u;
    }
    let theta = ((u - 2.0) * u + 1.0) * u * m0 + (3.0 - 2.0 * u) * u * u + (u - 1.0) * u * u * m1;
    theta.clamp(0.0, 1.0)
}

/// Events in bounded work (Cellier & Kofman §10.8): after a regular step, a when-condition
/// that became true is located by **one** regula-falsi interpolation of its zero-crossing
/// function between the ends of the step — never an iteration; the step is repeated from its
/// start to the event time, the *instant* runs (the actions, then the bounded event iteration),
/// a zero-length step makes the model consistent with the new values, and a partial step
/// reaches the end of the original step on time. One event per step is located: further
/// conditions that become true in the same step are applied at its end, unlocated, and counted
/// as deferred. Worst case per step: five calls of the step function (regular, partial,
/// re-initialisation, partial, and one re-initialisation for the deferred events).
///
/// At an instant, `pre(v)` is the value just before it; the actions of the events that fire
/// run in order (each when-equation's assignments sorted by dependency); then conditions of
/// discrete variables that became true, and relations the actions moved across their
/// threshold, fire in turn — at most [`crate::plan::EVENT_ITERATIONS`] rounds, else the step fails with
/// status 5. Of the branches of one `when … elsewhen …` that fire in a round only the first
/// acts.
///
/// Chattering (Zeno) rule: an event handled less than [`crate::plan::ZENO_STEPS`] steps after its previous
/// occurrence is *close*; a close event is *chattering* when its previous occurrence was close
/// too, or when its condition is still true at the end of the step that handled it (the state
/// fell back before the step ended: the event comes faster than the step can resolve). What
/// follows is [`Zeno`]'s choice.
pub struct Events<'p> {
    plan: &'p Plan,
    snapshot: Vec<f64>,
    pub log: Vec<EventRecord>,
    /// Step-function evaluations in the current step, and the most any step needed.
    calls: u32,
    pub max_calls: u32,
    pub zeno: Zeno,
    /// Per event: the time of its last occurrence, and whether that one was close.
    last: Vec<Option<(f64, bool)>>,
    /// Events no longer located (held), and the held (slot, value) pairs.
    disabled: Vec<bool>,
    held: Vec<(usize, f64)>,
    pub chatter: Option<Chatter>,
    /// Values of the discrete conditions after the last instant.
    cond: Vec<bool>,
    /// The most rounds of the event iteration any instant needed.
    pub max_rounds: usize,
    /// `terminate` ran: (event, time).
    pub terminated: Option<(usize, f64)>,
    /// Some event is a relation of time alone (its time is evaluated at each step's start).
    has_at: bool,
    /// Spare vectors for event function values.
    pool: Vec<Vec<f64>>,
    /// The time events due at the instant being handled, and those handled in this step
    /// (kept: a step allocates nothing once warm).
    due: Vec<usize>,
    fired: Vec<usize>,
    /// The assertions' values (kept: a step allocates nothing).
    asserted: Vec<f64>,
    /// Per warning-level assertion (`Plan::warnings`): the time of its first failure and
    /// at how many checks it failed.
    pub warned: Vec<(Option<f64>, u64)>,
    /// When recorded ([`Events::record_rows`]): every output just before and just after each
    /// event instant, at its time, until the run loop takes them.
    pub rows: Option<Vec<(f64, Vec<f64>)>>,
}

/// Event rows kept between two takes at most (a run that records more drops the rest: the
/// frame rows go on).
const MAX_EVENT_ROWS: usize = 1 << 20;

impl<'p> Events<'p> {
    pub fn new(plan: &'p Plan) -> Events<'p> {
        Events {
            plan,
            snapshot: Vec::new(),
            log: Vec::new(),
            calls: 0,
            max_calls: 0,
            zeno: Zeno::Stop,
            last: vec![None; plan.events.len()],
            disabled: vec![false; plan.events.len()],
            held: Vec::new(),
            chatter: None,
            cond: vec![false; plan.events.len()],
            max_rounds: 0,
            terminated: None,
            has_at: plan.events.iter().any(|e| e.at),
            pool: Vec::new(),
            due: Vec::new(),
            fired: Vec::new(),
            asserted: Vec::new(),
            warned: vec![(None, 0); plan.warnings.len()],
            rows: None,
        }
    }

    /// Record every output just before and just after each event instant (for result files:
    /// a jump shows as two rows at its time).
    pub fn record_rows(&mut self) {
        self.rows = Some(Vec::new());
    }

    /// The outputs at `t` as an event row, when rows are recorded.
    fn row(&mut self, it: &mut dyn Stepper, mem: &[f64], t: f64) {
        if let Some(rows) = self.rows.as_mut() {
            if rows.len() < MAX_EVENT_ROWS {
                let mut out = vec![0.0; self.plan.outputs.len()];
                it.outputs(self.plan, mem, &mut out);
                rows.push((t, out));
            }
        }
    }

    /// The zero-crossing functions (0 for events that have none; discrete conditions as 0/1),
    /// then their time derivatives where the location is cubic.
    fn values(&mut self, it: &mut dyn Stepper, mem: &[f64]) -> Vec<f64> {
        // Buffers are reused: a step without an event allocates nothing.
        let mut z = self.pool.pop().unwrap_or_default();
        z.clear();
        z.resize(2 * self.plan.events.len(), 0.0);
        it.event_values(self.plan, mem, &mut z);
        z
    }

    fn recycle(&mut self, z: Vec<f64>) {
        self.pool.push(z);
    }

    /// Spare value vectors kept for reuse (bounded: steps do not allocate once warm).
    pub fn spare_buffers(&self) -> usize {
        self.pool.len()
    }

    /// Whether event `k` is located from its zero-crossing function.
    fn located(&self, k: usize) -> bool {
        let e = &self.plan.events[k];
        !self.disabled[k] && e.sample.is_none() && !e.initial && e.discrete.is_none() && !e.at
    }

    /// Whether event `k` happens between values `z0` and `z1` of its function.
    fn crossed(&self, k: usize, z0: f64, z1: f64) -> bool {
        if !self.located(k) {
            false
        } else if self.plan.events[k].both {
            (z0 > 0.0) != (z1 > 0.0)
        } else {
            !self.active(k, z0) && self.active(k, z1)
        }
    }

    fn active(&self, k: usize, z: f64) -> bool {
        if !self.located(k) {
            return false;
        }
        if self.plan.events[k].below {
            z <= 0.0
        } else {
            z > 0.0
        }
    }

    /// The actions of event `k`: the assignments in their sorted order, then the
    /// re-initialisations.
    fn apply(&mut self, it: &mut dyn Stepper, k: usize, mem: &mut [f64], te: f64) {
        it.event_action(self.plan, mem, k);
        if self.plan.events[k].terminate.is_some() && self.terminated.is_none() {
            self.terminated = Some((k, te));
        }
    }

    /// The discrete conditions' values in `z` (from [`Self::values`]).
    fn conditions(&self, z: &[f64]) -> Vec<bool> {
        self.plan
            .events
            .iter()
            .zip(z)
            .map(|(e, &c)| e.discrete.is_some() && c != 0.0)
            .collect()
    }

    /// An event instant at `te`: `pre` slots take the values just before it, the events in
    /// `first` act (logged with `outcome`), then the event iteration.
    fn instant(
        &mut self,
        it: &mut dyn Stepper,
        first: &[usize],
        mem: &mut [f64],
        te: f64,
        outcome: Outcome,
    ) -> Status {
        let p = self.plan;
        self.row(it, mem, te);
        it.event_pre(p, mem);
        let mut z_before = self.values(it, mem);
        // A discrete condition fires when it becomes true at this instant: against its value
        // just before it (a condition true at the last instant may have gone false since
        // without an instant of its own, e.g. `change(k)` once pre(k) caught up with k).
        self.cond = self.conditions(&z_before);
        let mut fire: Vec<usize> = first.to_vec();
        let mut round = 0;
        while !fire.is_empty() {
            if round == crate::plan::EVENT_ITERATIONS {
                return Status::EventIteration { event: fire[0] };
            }
            // In order; of the branches of one when/elsewhen chain only the first acts.
            for &k in &fire {
                let (chain, branch) = p.events[k].chain;
                let outranked = chain != usize::MAX
                    && fire.iter().any(|&o| {
                        o != k && p.events[o].chain.0 == chain && p.events[o].chain.1 < branch
                    });
                if outranked {
                    continue;
                }
                self.apply(it, k, mem, te);
                self.log.push(EventRecord {
                    time: te,
                    index: k,
                    condition: p.events[k].text.clone(),
                    outcome: if round == 0 {
                        outcome
                    } else {
                        Outcome::Handled
                    },
                });
            }
            round += 1;
            // What the actions made true.
            let z_now = self.values(it, mem);
            let now = self.conditions(&z_now);
            fire = (0..p.events.len())
                .filter(|&j| {
                    (now[j] && !self.cond[j])
                        || (!p.events[j].both
                            && !fire.contains(&j)
                            && !self.active(j, z_before[j])
                            && self.active(j, z_now[j]))
                })
                .collect();
            self.cond = now;
            let old = std::mem::replace(&mut z_before, z_now);
            self.recycle(old);
        }
        self.recycle(z_before);
        self.max_rounds = self.max_rounds.max(round);
        Status::Ok
    }

    /// After initialisation: the discrete conditions take their initial values, then the
    /// instant at the start time runs `initial()` events and samples due at the start time,
    /// followed by a zero-length step for a consistent state.
    pub fn initial(&mut self, it: &mut dyn Stepper, mem: &mut [f64], t0: f64) -> Status {
        let z = self.values(it, mem);
        self.cond = self.conditions(&z);
        // Time events of relations whose time has come (T <= t0) set their after-value.
        let first: Vec<usize> = (0..self.plan.events.len())
            .filter(|&k| {
                let e = &self.plan.events[k];
                e.initial
                    || (e.at && z[k] <= t0)
                    || e.sample
                        .is_some_and(|(start, interval)| (start - t0).abs() <= 1e-9 * interval)
            })
            .collect();
        if first.is_empty() {
            return self.check(it, mem, true, t0);
        }
        // The run's first row is the state after this instant: no event rows for it.
        let rows = self.rows.take();
        let st = self.instant(it, &first, mem, t0, Outcome::Handled);
        self.rows = rows;
        if st != Status::Ok {
            return st;
        }
        let st = it.step(mem, t0, 0.0);
        if st != Status::Ok {
            return st;
        }
        match self.terminated {
            Some((event, _)) => Status::Terminated { event },
            None => self.check(it, mem, true, t0),
        }
    }

    /// The assertions on the values at `t` after a step (`initial`: after initialisation,
    /// those of `when initial()` first), evaluated by the engine: compiled code costs what the
    /// conditions cost. Warning-level assertions that fail are counted (the first failure's
    /// time kept) and do not stop the run.
    fn check(&mut self, it: &mut dyn Stepper, mem: &[f64], initial: bool, t: f64) -> Status {
        let p = self.plan;
        let (n, m) = (p.assertions.len(), p.initial_assertions.len());
        if n == 0 && p.warnings.is_empty() && !initial {
            return Status::Ok;
        }
        let mut a = std::mem::take(&mut self.asserted);
        a.resize(n + m + p.warnings.len(), 1.0);
        it.assertion_values(p, mem, &mut a);
        let failed = if initial {
            (n..n + m).chain(0..n).find(|&k| a[k] == 0.0)
        } else {
            (0..n).find(|&k| a[k] == 0.0)
        };
        for (w, &v) in self.warned.iter_mut().zip(&a[n + m..]) {
            if v == 0.0 {
                w.0.get_or_insert(t);
                w.1 += 1;
            }
        }
        self.asserted = a;
        failed.map_or(Status::Ok, |index| Status::Assertion { index })
    }

    /// The warning-level assertions that failed: (message, first time, failed checks).
    pub fn warnings(&self) -> impl Iterator<Item = (&str, f64, u64)> + '_ {
        self.warned
            .iter()
            .zip(&self.plan.warnings)
            .filter_map(|(&(t, n), (_, m))| Some((m.as_str(), t?, n)))
    }

    /// When time event `k` is next due after `t` (beyond the tolerance): a sample's next tick,
    /// a relation of time's time (in `z`, the event values at t); `None` for other events.
    fn due_time(&self, z: &[f64], k: usize, t: f64, tol: f64) -> Option<f64> {
        let e = &self.plan.events[k];
        if e.at {
            return (z[k] > t + tol).then_some(z[k]);
        }
        let (start, interval) = e.sample?;
        let mut j = if start > t + tol {
            0.0
        } else {
            ((t - start) / interval).floor() + 1.0
        };
        if start + j * interval <= t + tol {
            j += 1.0;
        }
        Some(start + j * interval)
    }

    /// The earliest time in (t, end] at which time events are due, with every event due then
    /// (within the tolerance: simultaneous samples, three switches closing at one time) in
    /// `self.due`; `z` has the event values at t.
    fn time_events(&mut self, z: &[f64], t: f64, end: f64, tol: f64) -> Option<f64> {
        let n = self.plan.events.len();
        let first = (0..n)
            .filter_map(|k| self.due_time(z, k, t, tol))
            .filter(|&te| te <= end + tol)
            .min_by(f64::total_cmp)?;
        self.due.clear();
        for k in 0..n {
            if self
                .due_time(z, k, t, tol)
                .is_some_and(|te| (te - first).abs() <= tol)
            {
                self.due.push(k);
            }
        }
        Some(first)
    }

    /// One step from `t` to `t + h` with event handling: a time event due in the step splits
    /// it at the event's known time (no location needed), state events are located inside
    /// each part. A `terminate` that ran in the step is reported at its end (status 6).
    pub fn step(&mut self, it: &mut dyn Stepper, mem: &mut [f64], t: f64, h: f64) -> Status {
        self.calls = 0;
        let mut st = self.step_timed(it, mem, t, h);
        if st == Status::Ok && !self.held.is_empty() {
            // Held states keep their values; a zero-length step makes the rest consistent.
            for &(slot, x) in &self.held {
                mem[slot] = x;
            }
            st = self.call(it, mem, t + h, 0.0);
        }
        self.max_calls = self.max_calls.max(self.calls);
        match (st, self.terminated) {
            (Status::Ok, Some((event, _))) => Status::Terminated { event },
            (Status::Ok, None) => self.check(it, mem, false, t + h),
            _ => st,
        }
    }

    /// The most step-function evaluations one step may need: 1 without events, 5 with state
    /// events, 5 + 6·T with T time events (11 with one; what `rtc analyze` prints); one more
    /// while a chattering event is held.
    pub fn bound(&self) -> u32 {
        let p = self.plan;
        let held =
            u32::from(self.zeno == Zeno::Hold && p.events.iter().any(|e| e.sample.is_none()));
        let timed = p
            .events
            .iter()
            .filter(|e| e.sample.is_some() || e.at)
            .count() as u32;
        if timed > 0 {
            // Each time event at most once per step: timed instants split it into timed + 1
            // parts of up to 5 evaluations each, plus a zero-length step after each instant.
            5 + 6 * timed + held
        } else if p.events.is_empty() {
            1
        } else {
            5 + held
        }
    }

    /// One evaluation of the step function, counted.
    fn call(&mut self, it: &mut dyn Stepper, mem: &mut [f64], t: f64, h: f64) -> Status {
        self.calls += 1;
        it.step(mem, t, h)
    }

    /// The step with its time events: each instant at which some are due splits it at that
    /// known time (no location needed), all events due then acting together; state events
    /// are located inside each part. A time event due a second time in one step (a sample
    /// faster than the step) chatters: its occurrences cannot be resolved.
    fn step_timed(&mut self, it: &mut dyn Stepper, mem: &mut [f64], t: f64, h: f64) -> Status {
        if self.plan.events.is_empty() {
            return self.call(it, mem, t, h);
        }
        let end = t + h;
        let tol = 1e-9 * h.abs().max(f64::MIN_POSITIVE);
        self.fired.clear();
        let mut cur = t;
        loop {
            // From t the rest is h itself (bitwise what a step without events gets).
            let rest = if cur == t { h } else { end - cur };
            let z = if self.has_at {
                self.values(it, mem)
            } else {
                Vec::new()
            };
            let found = self.time_events(&z, cur, end, tol);
            if self.has_at {
                self.recycle(z);
            }
            let Some(te) = found else {
                return self.step_state(it, mem, cur, rest);
            };
            if let Some(&k) = self.due.iter().find(|k| self.fired.contains(k)) {
                return Status::Chattering { event: k };
            }
            let at_end = (te - end).abs() <= tol;
            let h1 = if at_end { rest } else { te - cur };
            let st = self.step_state(it, mem, cur, h1);
            if st != Status::Ok {
                return st;
            }
            let te = if at_end { end } else { te };
            let due = std::mem::take(&mut self.due);
            let st = self.instant(it, &due, mem, te, Outcome::Handled);
            self.fired.extend_from_slice(&due);
            self.due = due;
            if st != Status::Ok {
                return st;
            }
            let st = self.call(it, mem, te, 0.0);
            if st != Status::Ok {
                return st;
            }
            self.row(it, mem, te);
            if at_end {
                return st;
            }
            cur = te;
        }
    }

    /// A step with state-event handling only.
    fn step_state(&mut self, it: &mut dyn Stepper, mem: &mut [f64], t: f64, h: f64) -> Status {
        let z0 = self.values(it, mem);
        self.snapshot.clear();
        self.snapshot.extend_from_slice(mem);
        let st = self.call(it, mem, t, h);
        if st != Status::Ok {
            return st;
        }
        let z1 = self.values(it, mem);
        // One interpolation per crossed function: regula falsi, or the inverse cubic Hermite
        // for methods of order 3 and more. The earliest is handled; later ones are deferred.
        let n = self.plan.events.len();
        let cubic = |k: usize| self.plan.events[k].dz.is_some();
        let located = |k: usize| {
            if self.plan.events[k].jump {
                1.0
            } else {
                locate(z0[k], z1[k], z0[n + k], z1[n + k], h, cubic(k))
            }
        };
        let Some((k, theta)) = (0..n)
            .filter(|&k| self.crossed(k, z0[k], z1[k]))
            .map(|k| (k, located(k)))
            .min_by(|a, b| a.1.total_cmp(&b.1))
        else {
            self.recycle(z0);
            self.recycle(z1);
            return Status::Ok;
        };
        let h1 = theta * h;
        let te = t + h1;
        mem.copy_from_slice(&self.snapshot);
        let st = self.call(it, mem, t, h1);
        if st != Status::Ok {
            return st;
        }
        let st = self.instant(it, &[k], mem, te, Outcome::Handled);
        if st != Status::Ok {
            return st;
        }
        let st = self.call(it, mem, te, 0.0);
        if st != Status::Ok {
            return st;
        }
        self.row(it, mem, te);
        // The states just after the event: what a chattering event holds.
        self.snapshot.copy_from_slice(mem);
        let mut zb = self.values(it, mem);
        // The event just handled is on its new side from here: at the located time its
        // function is only approximately zero, and must not fire again in the same step.
        zb[k] = z1[k];
        let st = self.call(it, mem, te, h - h1);
        if st != Status::Ok {
            return st;
        }
        let z2 = self.values(it, mem);
        // The chattering rule.
        let previous = self.last[k];
        let gap = previous.map_or(f64::INFINITY, |(tp, _)| te - tp);
        let close = gap < crate::plan::ZENO_STEPS * h;
        self.last[k] = Some((te, close));
        let still = !self.plan.events[k].both && self.active(k, z2[k]);
        if close && (previous.is_some_and(|(_, c)| c) || still) {
            let st = self.chattering(k, te, gap, mem);
            if st != Status::Ok {
                return st;
            }
        }
        // Further events in the rest of the step: applied at its end in the order of their
        // interpolated times, deferred and counted; one zero-length step for all of them.
        // An event counts if it crossed in the rest of the step, or over the whole step: the
        // partial step to the interpolated time may already carry it past its threshold
        // (regula falsi on a curved function lands late), or the actions moved it.
        let mut later: Vec<(usize, f64)> = (0..n)
            .filter(|&j| j != k && (self.crossed(j, zb[j], z2[j]) || self.crossed(j, z0[j], z2[j])))
            .map(|j| {
                let d = zb[j] - z2[j];
                (j, if d != 0.0 { zb[j] / d } else { 1.0 })
            })
            .collect();
        for z in [z0, z1, zb, z2] {
            self.recycle(z);
        }
        if later.is_empty() {
            return Status::Ok;
        }
        later.sort_by(|a, b| a.1.total_cmp(&b.1));
        let later: Vec<usize> = later.into_iter().map(|(j, _)| j).collect();
        let st = self.instant(it, &later, mem, t + h, Outcome::Deferred);
        if st != Status::Ok {
            return st;
        }
        let st = self.call(it, mem, t + h, 0.0);
        if st == Status::Ok {
            self.row(it, mem, t + h);
        }
        st
    }

    /// Event `k`, handled at `te`, chatters: stop, or hold its states at their values just
    /// after the event (in `self.snapshot`) from the end of this step on.
    fn chattering(&mut self, k: usize, te: f64, gap: f64, mem: &mut [f64]) -> Status {
        let p = self.plan;
        let mut slots: Vec<usize> = p.events[k]
            .reinits
            .iter()
            .map(|&(x, _)| x.index())
            .collect();
        let mut leaves = Vec::new();
        p.arena.leaves(p.events[k].z, &mut leaves);
        for n in leaves {
            if let crate::symbolic::Node::Var(v) = n {
                if p.vars[v.index()].kind == SlotKind::System(SVarKind::State) {
                    slots.push(v.index());
                }
            }
        }
        slots.sort_unstable();
        slots.dedup();
        let last = self
            .log
            .iter_mut()
            .rev()
            .find(|r| r.index == k)
            .expect("the event was logged");
        let mut held = Vec::new();
        match self.zeno {
            Zeno::Stop => last.outcome = Outcome::Stopped,
            Zeno::Hold => {
                last.outcome = Outcome::Held;
                self.disabled[k] = true;
                for &s in &slots {
                    self.held.push((s, self.snapshot[s]));
                    mem[s] = self.snapshot[s];
                    held.push(p.vars[s].name.clone());
                }
            }
        }
        self.chatter = Some(Chatter {
            event: k,
            time: te,
            gap,
            held,
        });
        match self.zeno {
            Zeno::Stop => Status::Chattering { event: k },
            Zeno::Hold => Status::Ok,
        }
    }

    /// What the chattering rule found, in words (for the run's summary).
    pub fn chatter_message(&self) -> Option<String> {
        let c = self.chatter.as_ref()?;
        let e = &self.plan.events[c.event];
        Some(match self.zeno {
            Zeno::Stop => format!(
                "event {} (`{}`) chatters at t = {}: handled again {:e} s after its previous occurrence (chattering rule); the run stops (--zeno hold holds its states instead)",
                c.event, e.text, c.time, c.gap
            ),
            Zeno::Hold => format!(
                "event {} (`{}`) chatters at t = {}: handled again {:e} s after its previous occurrence (chattering rule); held from there to the end of the run: {}",
                c.event,
                e.text,
                c.time,
                c.gap,
                if c.held.is_empty() {
                    "no states (the event is no longer located)".to_string()
                } else {
                    c.held.join(", ")
                }
            ),
        })
    }

    /// What `terminate` said, if it ran: "t = …: event k (`cond`): message".
    pub fn termination(&self) -> Option<String> {
        let (k, te) = self.terminated?;
        let e = &self.plan.events[k];
        Some(format!(
            "terminated at t = {te} by event {k} (`{}`): {}",
            e.text,
            e.terminate.as_deref().unwrap_or("")
        ))
    }

    /// The event log as CSV: `time,event,condition,handled`.
    pub fn csv(&self) -> String {
        let mut s = String::from("time,event,condition,handled\n");
        for r in &self.log {
            rtc_runtime::io::push_f64(&mut s, r.time);
            s.push_str(&format!(
                ",{},\"{}\",{}\n",
                r.index,
                r.condition.replace('"', "\"\""),
                r.outcome.name()
            ));
        }
        s
    }
}
