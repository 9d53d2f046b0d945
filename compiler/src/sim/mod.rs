//! As-fast-as-possible simulation on the plan interpreter: initialise, step at a fixed step
//! size, record chosen variables. Used by `rtc run` and by the tests that compare with
//! reference trajectories.

use crate::diag::Diagnostic;
use crate::flat::VarKind;
use crate::plan::interp::Interp;
use crate::plan::Slot;
use crate::plan::{self, Plan};
use crate::plan::{EventId, Status};
use crate::system::SVarKind;

mod cause;
mod events;
pub use cause::Growth;
pub use events::{
    locate, step_bound, Chatter, EventRecord, Events, Outcome, Zeno, LOCATED_PER_STEP,
};

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
            v.kind == plan::SlotKind::System(SVarKind::Input) && !staged.contains(&Slot::new(*i))
        })
        .map(|(i, v)| rtc_runtime::Slot {
            name: v.name.clone(),
            slot: i,
            offset: 1.0,
            admissible: v.admissible,
        })
        .collect();
    out.extend(plan.input_stages.iter().map(|s| rtc_runtime::Slot {
        name: plan.name_of(s.input).to_string(),
        slot: s.slot.index(),
        offset: s.offset,
        admissible: plan.vars[s.input].admissible,
    }));
    out
}

/// The memory after one initialisation at `t0`, for its parameters' values (bindings and
/// overrides evaluated; whether the rest of the model starts does not matter here).
pub fn parameter_values(it: &mut dyn Stepper, t0: f64) -> Vec<f64> {
    let mut mem = it.memory();
    let _ = it.init(&mut mem, t0);
    mem
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

/// What executes the plan (`--engine`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
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
    /// `n + k`) the time derivatives of those located by a cubic, then (at `2n + k`) the live
    /// values of the events' relations; `out` has three times the events (the expression
    /// evaluator unless the engine compiled them).
    fn event_values(&mut self, plan: &Plan, mem: &[f64], out: &mut [f64]) {
        let n = plan.events.len();
        for (k, e) in plan.events.iter().enumerate() {
            out[k] = eval_at(plan, mem, e.discrete.unwrap_or(e.z));
            if let Some(d) = e.dz {
                out[n + k] = eval_at(plan, mem, d);
            }
            if let Some(r) = e.relation {
                out[2 * n + k] = eval_at(plan, mem, r.live);
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
    /// The copies that start a round of an event iteration ([`Plan::round_pre_copies`]).
    fn event_pre(&mut self, plan: &Plan, mem: &mut [f64]) {
        for (slot, v) in plan.round_pre_copies() {
            mem[slot.index()] = mem[v.index()];
        }
    }
    /// The compiled engine, for the batch run's direct loop (none: the interpreter).
    fn jit(&self) -> Option<&crate::codegen::Jit> {
        None
    }
    /// Event `k`'s actions, in order: the sorted assignments, then the re-initialisations.
    fn event_action(&mut self, plan: &Plan, mem: &mut [f64], k: EventId) {
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
    fn event_action(&mut self, _plan: &Plan, mem: &mut [f64], k: EventId) {
        crate::codegen::Jit::event_action(self, mem, k)
    }
    fn jit(&self) -> Option<&crate::codegen::Jit> {
        Some(self)
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
    /// The states' size over the last steps, and the status of the step that failed: what
    /// [`RunModel::failure_cause`] reads.
    growth: Growth,
    failed: Option<Status>,
}

impl<'a> RunModel<'a> {
    /// The `terminal()` instant at `t`, after the run reached its stop time
    /// ([`Events::terminal`]).
    pub fn terminal(&mut self, mem: &mut [f64], t: f64) -> Status {
        self.events.terminal(self.stepper, mem, t)
    }

    pub fn new(stepper: &'a mut dyn Stepper, plan: &'a Plan, events: Events<'a>) -> RunModel<'a> {
        RunModel {
            stepper,
            plan,
            events,
            events_seen: 0,
            growth: Growth::new(plan),
            failed: None,
        }
    }

    /// Why the start failed, when its status alone does not say it: a non-finite unknown of
    /// a Newton iteration (no history yet to tell growth).
    pub fn start_failure_cause(plan: &Plan, status: Status) -> Option<String> {
        cause::cause(plan, &Growth::new(plan), status, true, None)
    }

    /// Why the failed step failed, when its message alone does not say it (a non-finite
    /// variable: a Newton iteration that diverged, a solution that grew without bound, or a
    /// value non-finite within one step; a singular Jacobian: the tearing variables that drop
    /// out at `mem`, the memory the failing step left; see [`cause`]).
    pub fn failure_cause(&self, mem: &[f64]) -> Option<String> {
        cause::cause(self.plan, &self.growth, self.failed?, false, Some(mem))
    }
}

impl rtc_runtime::Model for RunModel<'_> {
    fn step(&mut self, mem: &mut [f64], t: f64, h: f64) -> Result<(), rtc_runtime::StepError> {
        match self.events.step(self.stepper, mem, t, h) {
            Status::Ok => {
                self.growth.after_step(mem, t + h);
                Ok(())
            }
            st => {
                self.failed = Some(st);
                Err(rtc_runtime::StepError {
                    message: plan::describe(self.plan, st),
                    status: Some(st.code()),
                })
            }
        }
    }
    fn run_frames(
        &mut self,
        mem: &mut [f64],
        times: &rtc_runtime::FrameTimes,
        from: u64,
        to: u64,
    ) -> Result<(), (u64, f64, rtc_runtime::StepError)> {
        // Nothing but the step function (no events, pre, assertions or warnings) and
        // compiled: the JIT's own loop, the same steps as `step` makes, without the calls
        // through the engine's interface.
        let direct = self.events.plain() && self.stepper.jit().is_some();
        if !direct || from >= to {
            return rtc_runtime::step_frames(self, mem, times, from, to);
        }
        self.events.max_calls = self.events.max_calls.max(1);
        let jit = self.stepper.jit().expect("checked above");
        let growth = &mut self.growth;
        let r = jit.step_frames(
            mem,
            from..to,
            times.start,
            times.frame,
            times.h,
            times.steps,
            |m, t| growth.after_step(m, t),
        );
        r.map_err(|(f, t, st)| {
            self.failed = Some(st);
            let e = rtc_runtime::StepError {
                message: plan::describe(self.plan, st),
                status: Some(st.code()),
            };
            (f, t, e)
        })
    }
    fn outputs(&mut self, mem: &[f64], out: &mut [f64]) {
        self.stepper.outputs(self.plan, mem, out)
    }
    fn parameters_changed(&mut self, mem: &mut [f64]) -> Result<(), rtc_runtime::StepError> {
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
        Engine::Jit => Box::new(crate::codegen::jit(plan, false).map_err(|e| match e {
            crate::codegen::CodegenError::MissingExternals(_) => {
                Box::new(Diagnostic::error("external", e.to_string()))
            }
            crate::codegen::CodegenError::Backend(_) | crate::codegen::CodegenError::Cpu(_) => Box::new(
                Diagnostic::error("codegen", format!("code generation failed: {e}")).help(
                    "this is a bug in rtc; --engine interp runs the model without code generation",
                ),
            ),
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
