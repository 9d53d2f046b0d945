//! rtc-runtime: the fixed-frame loop that runs a step function, in real time or as fast as
//! possible.
//!
//! It knows nothing of the compiler: it runs any [`Model`] (a step function over a memory
//! block) with its [`Layout`] (which slots are inputs and parameters, what the outputs are
//! called). One frame follows Cellier & Kofman §10.1, Fig. 10.1:
//!
//! 1. wait for the real-time clock: frame k starts at an absolute deadline ([`clock`]);
//! 2. read the A/D converters: inputs are sampled once and held for the frame ([`io`]);
//! 3. compute: `steps_per_frame` steps of the model;
//! 4. write the D/A converters: outputs at the end of the frame;
//! 5. consult the mailbox: external events are applied after the step, in the waiting time
//!    ([`control`]);
//! 6. account: execution time, start lateness, overruns ([`stats`]).
//!
//! **Overruns** (§10.10): a frame whose computation ends after the next frame's deadline
//! overran. The policy decides what follows. `CatchUp` (the seed's recommendation): the next
//! frame's steps are doubled in length, so after one lost frame simulated time is back on the
//! clock when the frame ends; frames lost beyond one are dropped (a step longer than double
//! could leave an explicit formula's stability region) and reported as lag. `Skip`: the lost
//! frames are dropped and the simulation runs on from where it was, behind the clock by that
//! much (reported). `StopAfter(n)`: as `CatchUp`, but the run ends at the n-th overrun.
//! Overruns in a start-up grace period (caches, page faults, the first calls into libm) are
//! counted separately and do not count towards `StopAfter`.
//!
//! As-fast-as-possible runs (`realtime: false`) go through the same loop without waiting; they
//! have no deadlines and so no overruns, and they read no clock per frame (unless a
//! [`stats::FrameLog`] asks for every frame's timing): a frame costs its steps, a check of the
//! optional sources, and the outputs only for the frames a sink records.
//!
//! Memory is constant in the length of the run: statistics are counters and histograms
//! ([`stats`]); every frame's record goes to a [`stats::FrameLog`] if one is given, never into
//! memory.

pub mod clock;
pub mod control;
pub mod door;
pub mod fp;
pub mod io;
pub mod stats;

use clock::Clock;
use control::{Command, Message};
use io::{CsvInputs, Mailbox, OutputSink};
use stats::{FrameLog, FrameRecord, Stats};
use std::sync::mpsc::Receiver;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// Why a model's step (or its update after a parameter change) failed: what the model says,
/// and the status code of its step function where it has one (rtc's: 1 Newton, 2 non-finite,
/// 3 singular, 4 chattering, 5 event iteration, 6 terminate, ...). Shown as the message, then
/// ` (status N)`.
#[derive(Clone, Debug, PartialEq)]
pub struct StepError {
    pub message: String,
    pub status: Option<i32>,
}

impl std::fmt::Display for StepError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.status {
            Some(s) => write!(f, "{} (status {s})", self.message),
            None => f.write_str(&self.message),
        }
    }
}

impl std::error::Error for StepError {}

impl From<String> for StepError {
    fn from(message: String) -> StepError {
        StepError {
            message,
            status: None,
        }
    }
}

impl From<&str> for StepError {
    fn from(message: &str) -> StepError {
        StepError::from(message.to_string())
    }
}

/// A step function with its memory: what the runtime runs.
pub trait Model {
    /// One step from `t` to `t + h`; an error stops the run (it is reported).
    fn step(&mut self, mem: &mut [f64], t: f64, h: f64) -> Result<(), StepError>;
    /// Every output (in [`Layout::outputs`] order) into `out`.
    fn outputs(&mut self, mem: &[f64], out: &mut [f64]);
    /// A parameter changed in `mem`: recompute what depends on it.
    fn parameters_changed(&mut self, mem: &mut [f64]) -> Result<(), StepError>;
    /// Events the steps since the last call handled and deferred (models without events:
    /// none).
    fn take_events(&mut self) -> (u32, u32) {
        (0, 0)
    }
    /// The rows recorded at events since the last call, oldest first: each event instant's
    /// time with every output (in [`Layout::outputs`] order) just before and just after it,
    /// for the sinks that keep them ([`OutputSink::write_event`]). Models without events, or
    /// that do not record them, have none.
    fn take_event_rows(&mut self, _row: &mut dyn FnMut(f64, &[f64])) {}
    /// Frames `from..to` back to back, as fast as possible and with no input between steps:
    /// frame f's steps start at the times [`FrameTimes`] gives, exactly as the frame loop
    /// would call [`Model::step`]. The default loops over `step` (monomorphised per model, so
    /// the call is direct). A failing step: (its frame, its end time, the message).
    fn run_frames(
        &mut self,
        mem: &mut [f64],
        times: &FrameTimes,
        from: u64,
        to: u64,
    ) -> Result<(), (u64, f64, StepError)> {
        step_frames(self, mem, times, from, to)
    }
}

/// [`Model::run_frames`] by [`Model::step`]: its default, for models that override it on
/// some paths only.
pub fn step_frames<M: Model + ?Sized>(
    model: &mut M,
    mem: &mut [f64],
    times: &FrameTimes,
    from: u64,
    to: u64,
) -> Result<(), (u64, f64, StepError)> {
    for f in from..to {
        let t0 = times.start_of(f);
        for j in 0..times.steps {
            let t = t0 + f64::from(j) * times.h;
            model
                .step(mem, t, times.h)
                .map_err(|e| (f, t + times.h, e))?;
        }
    }
    Ok(())
}

/// When the steps of a frame start: frame f at `start + f·frame`, its `steps` steps of `h`
/// at `t0 + j·h`.
#[derive(Clone, Copy, Debug)]
pub struct FrameTimes {
    pub start: f64,
    pub frame: f64,
    pub h: f64,
    pub steps: u32,
}

impl FrameTimes {
    pub fn start_of(&self, f: u64) -> f64 {
        self.start + f as f64 * self.frame
    }
}

/// Frames an as-fast-as-possible run computes between two looks at the command mailbox.
const BATCH_CHUNK: u64 = 4096;

/// A named memory slot.
#[derive(Clone, Debug, PartialEq)]
pub struct Slot {
    pub name: String,
    pub slot: usize,
    /// For inputs: where in the step the slot is read, as a fraction of the step (a
    /// multi-stage formula reads an input at its stage times, t + offset·h); 0 otherwise.
    pub offset: f64,
    /// What a value written into it from outside must satisfy (its declaration's bounds and
    /// type; [`door::Admissible::ANY`] when it declares none).
    pub admissible: door::Admissible,
}

/// The model's interface to the outside.
#[derive(Clone, Debug, Default)]
pub struct Layout {
    pub inputs: Vec<Slot>,
    /// Parameters that may be changed while running (`set NAME VALUE`).
    pub parameters: Vec<Slot>,
    /// Names of the values [`Model::outputs`] writes.
    pub outputs: Vec<String>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Overrun {
    CatchUp,
    Skip,
    StopAfter(u64),
}

impl std::str::FromStr for Overrun {
    type Err = String;
    fn from_str(s: &str) -> Result<Overrun, String> {
        match s {
            "catch-up" => Ok(Overrun::CatchUp),
            "skip" => Ok(Overrun::Skip),
            _ => match s.strip_prefix("stop-after:").map(str::parse::<u64>) {
                Some(Ok(n)) if n > 0 => Ok(Overrun::StopAfter(n)),
                _ => Err(format!(
                    "`{s}`: the overrun policies are catch-up, skip, stop-after:N (N ≥ 1)"
                )),
            },
        }
    }
}

/// How to run.
pub struct Config {
    pub start: f64,
    /// Step size of the model (s).
    pub step: f64,
    /// Steps per frame: the frame period is `steps_per_frame · step`.
    pub steps_per_frame: u32,
    /// Frames to run (simulated time `frames · frame`).
    pub frames: u64,
    /// Wait for the clock (real time) or not (as fast as possible).
    pub realtime: bool,
    /// Busy-wait this long before each deadline instead of sleeping (a frame no longer than
    /// this is waited for by spinning only).
    pub spin: Duration,
    pub overrun: Overrun,
    /// Frames at the start whose overruns are counted separately.
    pub grace_frames: u64,
    pub csv_inputs: Option<CsvInputs>,
    pub mailbox: Option<Arc<Mailbox>>,
    /// What a rejected input or command value does (`--bad-input`).
    pub bad_input: door::BadInput,
    /// Indices into [`Layout::outputs`] that the sinks receive.
    pub selected: Vec<usize>,
    pub sinks: Vec<Box<dyn OutputSink>>,
    pub commands: Option<Receiver<Message>>,
    /// Print a progress line every second (to a terminal).
    pub progress: bool,
    /// Test aid: busy-wait this long inside the step of the given frames.
    pub injected_load: Vec<(u64, Duration)>,
    /// Receives every frame's timing (then as-fast-as-possible runs time each frame too).
    pub frame_log: Option<Box<dyn FrameLog>>,
    /// Flush subnormal numbers to zero on the loop's thread for the run ([`fp`]).
    pub flush_to_zero: bool,
    /// Pass the rows the model records at events ([`Model::take_event_rows`]) to the sinks,
    /// between the frame rows.
    pub event_rows: bool,
}

impl Config {
    /// As fast as possible, catch-up policy, no I/O: set the fields you need.
    pub fn new(start: f64, step: f64, frames: u64) -> Config {
        Config {
            start,
            step,
            steps_per_frame: 1,
            frames,
            realtime: false,
            spin: Duration::from_micros(200),
            overrun: Overrun::CatchUp,
            grace_frames: 0,
            csv_inputs: None,
            mailbox: None,
            bad_input: door::BadInput::Hold,
            selected: Vec::new(),
            sinks: Vec::new(),
            commands: None,
            progress: false,
            injected_load: Vec::new(),
            frame_log: None,
            flush_to_zero: false,
            event_rows: false,
        }
    }
}

/// An external event as it was applied.
#[derive(Clone, Debug, PartialEq)]
pub struct Applied {
    /// Simulated time at which it took effect (the step boundary after which it applied).
    pub time: f64,
    /// Wall time since the start of the run.
    pub wall: Duration,
    pub frame: u64,
    /// The command, or the reason it was refused.
    pub outcome: Result<Command, String>,
}

/// How a run ended.
#[derive(Debug)]
pub struct Report {
    pub stats: Stats,
    /// Simulated time reached.
    pub time: f64,
    /// The step that failed: (time, message).
    pub failure: Option<(f64, StepError)>,
    /// Why the run ended early, if it did without a failing step (stop command, overruns).
    pub stopped: Option<Stopped>,
    pub applied: Vec<Applied>,
    /// What the command door refused, per variable (the UDP door keeps its own tally in
    /// its [`io::Mailbox`]).
    pub refused: door::Tally,
    /// The last UDP input value applied before the run ended, as `set NAME VALUE` at the
    /// frame whose inputs it was (its `wall` is not measured: zero): a failure's message
    /// names it.
    pub last_input: Option<Applied>,
    pub wall: Duration,
    /// Output errors, the first of each kind (recorded outputs, timing log): the run went on.
    pub io_error: Option<String>,
}

/// Why a run ended before its stop time without a failing step.
#[derive(Clone, Debug, PartialEq)]
pub enum Stopped {
    /// A `stop` command on the control channel: the user ended the run (not a failure).
    Command { time: f64 },
    /// `--overrun stop-after:N`: the N-th overrun ended the run (a failure of real time).
    Overruns { count: u64, limit: u64, time: f64 },
    /// `--bad-input stop`: a door rejected a value (never applied); the message names it,
    /// why, and its source.
    BadInput { message: String, time: f64 },
}

impl Stopped {
    /// The run did not do what it was asked: overruns (a stop command is the user's choice).
    pub fn is_failure(&self) -> bool {
        matches!(self, Stopped::Overruns { .. } | Stopped::BadInput { .. })
    }
}

impl std::fmt::Display for Stopped {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Stopped::Command { time } => write!(f, "stop command at t = {time}"),
            Stopped::Overruns { count, limit, time } => {
                write!(f, "{count} overruns (stop-after:{limit}) at t = {time}")
            }
            Stopped::BadInput { message, time } => {
                write!(
                    f,
                    "a rejected input at t = {time} (--bad-input stop): {message}"
                )
            }
        }
    }
}

/// The most a catch-up lengthens a step: doubled (Cellier & Kofman §10.10).
pub const MAX_CATCH_UP: u64 = 2;

/// Busy-waits `d` (test load).
fn burn(d: Duration) {
    let until = Instant::now() + d;
    while Instant::now() < until {
        std::hint::spin_loop();
    }
}

/// What a command may change in the loop.
struct Control {
    paused: bool,
    bad_input: door::BadInput,
    /// Frames the next computation covers.
    span: u64,
    stopped: Option<Stopped>,
    /// Simulated time now.
    time: f64,
}

impl Control {
    fn new(paused: bool, span: u64, time: f64) -> Control {
        Control {
            paused,
            bad_input: door::BadInput::Hold,
            span,
            stopped: None,
            time,
        }
    }
}

/// Applies one command after a frame's step: `set` writes a parameter or input slot (and
/// recomputes what depends on a parameter), `pause`, `resume`, `stop`.
fn apply_command(
    msg: Result<Command, String>,
    layout: &Layout,
    model: &mut dyn Model,
    mem: &mut [f64],
    ctl: &mut Control,
) -> Result<Command, (String, String)> {
    match msg {
        Ok(Command::Set { name, value }) => {
            let target = layout
                .parameters
                .iter()
                .chain(&layout.inputs)
                .find(|s| s.name == name);
            match target {
                Some(s) => {
                    if let Err(why) = s.admissible.check(value) {
                        let message = format!(
                            "set {name} {value}: the value is {why}; `{name}` keeps {}",
                            mem[s.slot]
                        );
                        if ctl.bad_input == door::BadInput::Stop {
                            ctl.stopped = Some(Stopped::BadInput {
                                message: message.clone(),
                                time: ctl.time,
                            });
                        }
                        return Err((name, message));
                    }
                    mem[s.slot] = value;
                    let is_param = layout.parameters.iter().any(|p| p.slot == s.slot);
                    let r = if is_param {
                        model.parameters_changed(mem).map_err(|e| e.to_string())
                    } else {
                        Ok(())
                    };
                    match r {
                        Ok(()) => Ok(Command::Set { name, value }),
                        Err(e) => Err((name, e)),
                    }
                }
                None => Err((
                    format!("(no variable {name})"),
                    format!(
                        "set {name} {value}: no parameter or input of that name can be changed"
                    ),
                )),
            }
        }
        Ok(Command::Pause) => {
            ctl.paused = true;
            Ok(Command::Pause)
        }
        Ok(Command::Resume) => {
            if ctl.paused {
                ctl.paused = false;
                // Real time restarts from the next frame: deadlines shift by the pause, and
                // simulated time continues where it stood.
                ctl.span = 1;
            }
            Ok(Command::Resume)
        }
        Ok(Command::Stop) => {
            ctl.stopped = Some(Stopped::Command { time: ctl.time });
            Ok(Command::Stop)
        }
        Err(e) if e.ends_with(control::NO_TOKEN) => Err(("(no token)".to_string(), e)),
        Err(e) => Err(("(unparsable)".to_string(), e)),
    }
}

/// A timed frame: into the statistics and the frame log (a log that fails is closed and its
/// error reported at the end).
fn account(
    cfg: &mut Config,
    stats: &mut Stats,
    rec: &mut Recorder,
    r: &FrameRecord,
    ev: (u32, u32),
) {
    stats.record(r);
    stats.count_events(ev.0, ev.1, r.overrun);
    if let Some(log) = cfg.frame_log.as_mut() {
        if let Err(e) = log.frame(r) {
            rec.io_errors.add("timing log", &e);
            cfg.frame_log = None;
        }
    }
}

/// Applies the commands that arrived (after a frame's step, in the waiting time).
#[allow(clippy::too_many_arguments)]
fn poll_commands(
    cfg: &Config,
    layout: &Layout,
    model: &mut dyn Model,
    mem: &mut [f64],
    ctl: &mut Control,
    applied: &mut Vec<Applied>,
    refused: &door::Tally,
    frame: u64,
    run_start: Instant,
) {
    let Some(rx) = &cfg.commands else {
        return;
    };
    while let Ok(msg) = rx.try_recv() {
        let outcome = apply_command(msg, layout, model, mem, ctl).map_err(|(row, message)| {
            // Reported once per variable as it happens (in the frame's waiting time), then
            // counted; the table comes at the end of the run.
            let at = format!("t = {} s (frame {frame})", ctl.time);
            if refused
                .refuse(door::Door::Command, &row, || format!("{at}: {message}"))
                .is_some()
            {
                eprintln!("rtc: {at}: command refused: {message} (the first for {row}; further ones are counted)");
            }
            message
        });
        applied.push(Applied {
            time: ctl.time,
            wall: Instant::now() - run_start,
            frame,
            outcome,
        });
    }
}

/// The progress line on a terminal, once a second.
fn progress(t: f64, stats: &Stats) {
    eprint!(
        "\rrtc: t = {t:.3} s  frames {}  overruns {}  exec max {:.1} us   ",
        stats.frames,
        stats.overruns,
        stats.exec_max().as_secs_f64() * 1e6
    );
}

/// After an overrun that lost `lost` frames: how many frames the next step covers.
fn catch_up(policy: Overrun, lost: u64, stats: &mut Stats) -> u64 {
    match policy {
        Overrun::CatchUp | Overrun::StopAfter(_) => {
            // The seed's rule: the next step is doubled, never more (a longer step may leave
            // an explicit method's stability region); frames lost beyond one are dropped and
            // simulated time falls behind by them.
            stats.frames_behind += lost.saturating_sub(MAX_CATCH_UP - 1);
            1 + lost.min(MAX_CATCH_UP - 1)
        }
        Overrun::Skip => {
            stats.frames_behind += lost;
            1
        }
    }
}

/// The output side of the loop: the sinks' rows, sampled only for the frames a sink records.
struct Recorder {
    out: Vec<f64>,
    row: Vec<f64>,
    io_errors: IoErrors,
    /// The time of the last row written (event rows never go before it).
    last_t: f64,
    /// The next frame some sink records (a comparison per frame, no division).
    next: u64,
}

impl Recorder {
    /// Starts the sinks and writes the row of the start time (the state the caller
    /// initialised).
    fn start(model: &mut dyn Model, mem: &[f64], layout: &Layout, cfg: &mut Config) -> Recorder {
        let names: Vec<&str> = cfg
            .selected
            .iter()
            .map(|&i| layout.outputs[i].as_str())
            .collect();
        let mut r = Recorder {
            out: vec![0.0; layout.outputs.len()],
            row: vec![0.0; cfg.selected.len()],
            io_errors: IoErrors::default(),
            last_t: f64::NEG_INFINITY,
            next: 0,
        };
        for s in cfg.sinks.iter_mut() {
            if let Err(e) = s.start(&names) {
                r.io_errors.add("output", &e);
            }
        }
        r.write(model, mem, cfg, 0, cfg.start);
        r.next = Self::next_after(cfg, 0);
        r
    }

    fn next_after(cfg: &Config, frame: u64) -> u64 {
        let from = frame.saturating_add(1);
        cfg.sinks
            .iter()
            .map(|s| s.next_row(from))
            .min()
            .unwrap_or(u64::MAX)
    }

    /// The D/A converters at the end of frame `done` (frames of simulated time completed), if
    /// a sink records it; the last frame always (numbered 0 for the sinks).
    #[inline]
    fn frame_end(
        &mut self,
        model: &mut dyn Model,
        mem: &[f64],
        cfg: &mut Config,
        done: u64,
        last: bool,
        t: f64,
    ) {
        if cfg.event_rows {
            self.write_events(model, cfg, t);
        }
        if last {
            self.write(model, mem, cfg, 0, t);
        } else if done >= self.next {
            self.write(model, mem, cfg, done, t);
            self.next = Self::next_after(cfg, done);
        }
    }

    /// Every sink's row for `frame` at time `t`.
    fn write(&mut self, model: &mut dyn Model, mem: &[f64], cfg: &mut Config, frame: u64, t: f64) {
        if cfg.sinks.is_empty() {
            return;
        }
        self.last_t = t;
        model.outputs(mem, &mut self.out);
        for (k, &i) in cfg.selected.iter().enumerate() {
            self.row[k] = self.out[i];
        }
        for s in cfg.sinks.iter_mut() {
            if let Err(e) = s.write(frame, t, &self.row) {
                self.io_errors.add("output", &e);
            }
        }
    }

    /// The rows the model recorded at events, before the frame row at `t_end` that follows
    /// them. Their times are no later than `t_end`: the model's clock sums its steps
    /// (0.0798 + 0.0002 = 0.08000000000000002) where the frame's is start + frame × h (0.08),
    /// and a result file's times never go back.
    fn write_events(&mut self, model: &mut dyn Model, cfg: &mut Config, t_end: f64) {
        let (row, io_errors, last_t) = (&mut self.row, &mut self.io_errors, &mut self.last_t);
        model.take_event_rows(&mut |t, out| {
            let t = t.min(t_end).max(*last_t);
            *last_t = t;
            for (k, &i) in cfg.selected.iter().enumerate() {
                row[k] = out[i];
            }
            for s in cfg.sinks.iter_mut() {
                if let Err(e) = s.write_event(t, row) {
                    io_errors.add("output", &e);
                }
            }
        });
    }

    fn finish(mut self, cfg: &mut Config) -> Option<String> {
        for s in cfg.sinks.iter_mut() {
            if let Err(e) = s.finish() {
                self.io_errors.add("output", &e);
            }
        }
        if let Some(log) = cfg.frame_log.as_mut() {
            if let Err(e) = log.finish() {
                self.io_errors.add("timing log", &e);
            }
        }
        self.io_errors.message()
    }
}

/// The first error of each kind of output (the recorded outputs, the timing log): the run
/// goes on without what failed, and the end of the run names each.
#[derive(Default)]
struct IoErrors(Vec<(&'static str, String)>);

impl IoErrors {
    fn add(&mut self, what: &'static str, e: &dyn std::fmt::Display) {
        if !self.0.iter().any(|(w, _)| *w == what) {
            self.0.push((what, e.to_string()));
        }
    }

    fn message(self) -> Option<String> {
        (!self.0.is_empty()).then(|| {
            self.0
                .iter()
                .map(|(w, e)| format!("{w}: {e}"))
                .collect::<Vec<_>>()
                .join("; ")
        })
    }
}

/// The computation of one frame from `t0` with steps of `h`: the A/D converters (the
/// mailbox once per frame, held for the frame; a recorded time series at the start and
/// stage times of every step), then the frame's steps. The failing step: (its end, message).
fn compute(
    model: &mut dyn Model,
    mem: &mut [f64],
    cfg: &mut Config,
    k: u64,
    t0: f64,
    h: f64,
    input_at: &mut Option<(f64, u64)>,
) -> Option<(f64, StepError)> {
    if let Some(mb) = &cfg.mailbox {
        if mb.apply(mem) {
            *input_at = Some((t0, k));
        }
    }
    if !cfg.injected_load.is_empty() {
        if let Some(&(_, d)) = cfg.injected_load.iter().find(|(f, _)| *f == k) {
            burn(d);
        }
    }
    for j in 0..cfg.steps_per_frame.max(1) {
        let t = t0 + f64::from(j) * h;
        if let Some(c) = cfg.csv_inputs.as_mut() {
            c.apply(mem, t, h);
        }
        if let Err(e) = model.step(mem, t, h) {
            return Some((t + h, e));
        }
    }
    None
}

/// Runs `model` from the state in `mem` (initialised by the caller at `cfg.start`).
pub fn run(model: &mut dyn Model, mem: &mut [f64], layout: &Layout, cfg: &mut Config) -> Report {
    let _flush = cfg.flush_to_zero.then(fp::FlushToZero::set);
    let m = cfg.steps_per_frame.max(1);
    let frame_len = cfg.step * f64::from(m);
    let frame = Duration::from_secs_f64(frame_len);
    // Frames are timed in real time, or when every frame's record is asked for.
    let timed = cfg.realtime || cfg.frame_log.is_some();
    let mut stats = Stats::new(frame, cfg.step);
    let mut applied = Vec::new();
    let refused = door::Tally::default();
    // When the mailbox last wrote an input: (simulated time, frame).
    let mut input_at: Option<(f64, u64)> = None;
    let mut rec = Recorder::start(model, mem, layout, cfg);
    let run_start = Instant::now();
    // Frame 0 starts one frame from now, so the first deadline is not already behind us.
    let mut clock = Clock::new(run_start + frame, frame, cfg.spin.min(frame));
    let mut k: u64 = 0; // frame index on the clock
    let mut done: u64 = 0; // frames of simulated time completed
    let mut span: u64 = 1; // frames the next computation covers
    let mut paused = false;
    let mut consecutive = 0u64;
    let mut failure = None;
    let mut stopped = None;
    let mut last_progress = run_start;
    let times = FrameTimes {
        start: cfg.start,
        frame: frame_len,
        h: cfg.step,
        steps: m,
    };
    let time_of = |frames: u64| times.start_of(frames);
    // As fast as possible with nothing to do between steps: frames run back to back in
    // chunks up to the next recorded row.
    let batch =
        !timed && cfg.csv_inputs.is_none() && cfg.mailbox.is_none() && cfg.injected_load.is_empty();
    while done < cfg.frames {
        let batched = batch && !paused;
        let (mut overran, mut lost) = (false, 0u64);
        if batched {
            let from = done;
            let to = cfg
                .frames
                .min(rec.next.max(done + 1))
                .min(done.saturating_add(BATCH_CHUNK));
            done = match model.run_frames(mem, &times, from, to) {
                Ok(()) => to,
                Err((f, t, e)) => {
                    failure = Some((t, e));
                    f + 1
                }
            };
            let n = done - from;
            stats.count_frames(n, cfg.grace_frames.saturating_sub(k).min(n));
            k += n;
            let last = done >= cfg.frames || failure.is_some();
            rec.frame_end(model, mem, cfg, done, last, time_of(done));
        } else {
            let lateness = if cfg.realtime {
                clock.wait_for(k)
            } else {
                Duration::ZERO
            };
            let frame_start = timed.then(Instant::now);
            let stepped = !paused;
            let t0 = time_of(done);
            let mut h_used = 0.0;
            if stepped {
                let span_now = span.min(cfg.frames - done);
                h_used = cfg.step * span_now as f64;
                failure = compute(model, mem, cfg, k, t0, h_used, &mut input_at);
                done += span_now;
                let last = done >= cfg.frames || failure.is_some();
                rec.frame_end(model, mem, cfg, done, last, time_of(done));
            }
            let in_grace = k < cfg.grace_frames;
            if let Some(frame_start) = frame_start {
                let end = Instant::now();
                let (ev_handled, ev_deferred) = model.take_events();
                if let Some(n) = clock.overran(k, end).filter(|_| cfg.realtime) {
                    (overran, lost) = (true, n);
                }
                if stepped {
                    let r = FrameRecord {
                        frame: k,
                        time: t0,
                        h: h_used,
                        lateness,
                        exec: end - frame_start,
                        overrun: overran,
                        lost,
                        grace: in_grace,
                        events: ev_handled + ev_deferred,
                    };
                    account(cfg, &mut stats, &mut rec, &r, (ev_handled, ev_deferred));
                }
                if cfg.progress && end - last_progress >= Duration::from_secs(1) {
                    last_progress = end;
                    progress(time_of(done), &stats);
                }
            } else if stepped {
                stats.count_frame(h_used, in_grace);
            }
            if overran && !in_grace {
                consecutive += 1;
                stats.longest_run = stats.longest_run.max(consecutive);
            } else if !overran {
                consecutive = 0;
            }
        }
        if failure.is_some() {
            break;
        }
        // The mailbox, after the step, in the waiting time.
        let mut ctl = Control::new(paused, span, time_of(done));
        ctl.bad_input = cfg.bad_input;
        if let Some(message) = cfg.mailbox.as_ref().and_then(|m| m.stop_asked()) {
            ctl.stopped = Some(Stopped::BadInput {
                message,
                time: time_of(done),
            });
        }
        poll_commands(
            cfg,
            layout,
            model,
            mem,
            &mut ctl,
            &mut applied,
            &refused,
            k,
            run_start,
        );
        (paused, span, stopped) = (ctl.paused, ctl.span, ctl.stopped);
        if stopped.is_some() {
            break;
        }
        if batched {
            // The chunk advanced the frame counter itself; no overruns without a clock.
            continue;
        }
        // What the next frame does.
        if paused {
            k += 1 + lost;
            // While paused the clock runs on without us: keep deadlines relative to now.
            clock.reanchor(k, clock.deadline(k).max(Instant::now()));
            continue;
        }
        if overran {
            k += 1 + lost;
            span = catch_up(cfg.overrun, lost, &mut stats);
            if let Overrun::StopAfter(n) = cfg.overrun {
                if stats.overruns >= n {
                    stopped = Some(Stopped::Overruns {
                        count: stats.overruns,
                        limit: n,
                        time: time_of(done),
                    });
                    break;
                }
            }
        } else {
            k += 1;
            span = 1;
        }
    }
    if !timed {
        // Untimed frames: the events of the whole run at once.
        let (handled, deferred) = model.take_events();
        stats.count_events(handled, deferred, false);
    }
    if cfg.progress && last_progress != run_start {
        eprintln!();
    }
    let io_error = rec.finish(cfg);
    let last_input = input_at.and_then(|(time, frame)| {
        let (name, value) = cfg.mailbox.as_ref()?.last_applied()?;
        Some(Applied {
            time,
            wall: Duration::ZERO,
            frame,
            outcome: Ok(Command::Set { name, value }),
        })
    });
    Report {
        stats,
        time: time_of(done),
        failure,
        stopped,
        applied,
        refused,
        last_input,
        wall: Instant::now() - run_start,
        io_error,
    }
}
