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
//! have no deadlines and so no overruns.

pub mod clock;
pub mod control;
pub mod io;
pub mod stats;

use clock::Clock;
use control::{Command, Message};
use io::{CsvInputs, Mailbox, OutputSink};
use stats::{FrameRecord, Stats};
use std::sync::mpsc::Receiver;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// A step function with its memory: what the runtime runs.
pub trait Model {
    /// One step from `t` to `t + h`; an error stops the run (its text is reported).
    fn step(&mut self, mem: &mut [f64], t: f64, h: f64) -> Result<(), String>;
    /// Every output (in [`Layout::outputs`] order) into `out`.
    fn outputs(&mut self, mem: &[f64], out: &mut [f64]);
    /// A parameter changed in `mem`: recompute what depends on it.
    fn parameters_changed(&mut self, mem: &mut [f64]) -> Result<(), String>;
    /// Events the steps since the last call handled and deferred (models without events:
    /// none).
    fn take_events(&mut self) -> (u32, u32) {
        (0, 0)
    }
}

/// A named memory slot.
#[derive(Clone, Debug, PartialEq)]
pub struct Slot {
    pub name: String,
    pub slot: usize,
    /// For inputs: where in the step the slot is read, as a fraction of the step (a
    /// multi-stage formula reads an input at its stage times, t + offset·h); 0 otherwise.
    pub offset: f64,
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
    /// Busy-wait this long before each deadline instead of sleeping.
    pub spin: Duration,
    pub overrun: Overrun,
    /// Frames at the start whose overruns are counted separately.
    pub grace_frames: u64,
    pub csv_inputs: Option<CsvInputs>,
    pub mailbox: Option<Arc<Mailbox>>,
    /// Indices into [`Layout::outputs`] that the sinks receive.
    pub selected: Vec<usize>,
    pub sinks: Vec<Box<dyn OutputSink>>,
    pub commands: Option<Receiver<Message>>,
    /// Print a progress line every second (to a terminal).
    pub progress: bool,
    /// Test aid: busy-wait this long inside the step of the given frames.
    pub injected_load: Vec<(u64, Duration)>,
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
            selected: Vec::new(),
            sinks: Vec::new(),
            commands: None,
            progress: false,
            injected_load: Vec::new(),
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
    pub failure: Option<(f64, String)>,
    /// Why the run ended early, if it did without a failing step (stop command, overruns).
    pub stopped: Option<String>,
    pub applied: Vec<Applied>,
    pub wall: Duration,
    /// Output sink errors (the run went on).
    pub io_error: Option<String>,
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
    /// Frames the next computation covers.
    span: u64,
    stopped: Option<String>,
    /// Simulated time now.
    time: f64,
}

/// Applies one command after a frame's step: `set` writes a parameter or input slot (and
/// recomputes what depends on a parameter), `pause`, `resume`, `stop`.
fn apply_command(
    msg: Result<Command, String>,
    layout: &Layout,
    model: &mut dyn Model,
    mem: &mut [f64],
    ctl: &mut Control,
) -> Result<Command, String> {
    match msg {
        Ok(Command::Set { name, value }) => {
            let target = layout
                .parameters
                .iter()
                .chain(&layout.inputs)
                .find(|s| s.name == name);
            match target {
                Some(s) => {
                    mem[s.slot] = value;
                    let is_param = layout.parameters.iter().any(|p| p.slot == s.slot);
                    let r = if is_param {
                        model.parameters_changed(mem)
                    } else {
                        Ok(())
                    };
                    r.map(|_| Command::Set { name, value })
                }
                None => Err(format!(
                    "set {name}: no parameter or input of that name can be changed"
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
            ctl.stopped = Some(format!("stop command at t = {}", ctl.time));
            Ok(Command::Stop)
        }
        Err(e) => Err(e),
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

/// Runs `model` from the state in `mem` (initialised by the caller at `cfg.start`).
pub fn run(model: &mut dyn Model, mem: &mut [f64], layout: &Layout, cfg: &mut Config) -> Report {
    let m = cfg.steps_per_frame.max(1);
    let frame_len = cfg.step * f64::from(m);
    let frame = Duration::from_secs_f64(frame_len);
    let mut out = vec![0.0; layout.outputs.len()];
    let mut row = vec![0.0; cfg.selected.len()];
    let names: Vec<&str> = cfg
        .selected
        .iter()
        .map(|&i| layout.outputs[i].as_str())
        .collect();
    let mut io_error: Option<String> = None;
    for s in cfg.sinks.iter_mut() {
        if let Err(e) = s.start(&names) {
            io_error.get_or_insert(e.to_string());
        }
    }
    let mut stats = Stats::with_capacity(cfg.frames as usize, frame, cfg.step);
    let mut applied = Vec::new();
    let sample = |model: &mut dyn Model, mem: &[f64], out: &mut [f64], row: &mut [f64]| {
        model.outputs(mem, out);
        for (k, &i) in cfg.selected.iter().enumerate() {
            row[k] = out[i];
        }
    };
    // Outputs at the start time: the state the caller initialised.
    sample(model, mem, &mut out, &mut row);
    for s in cfg.sinks.iter_mut() {
        if let Err(e) = s.write(0, cfg.start, &row) {
            io_error.get_or_insert(e.to_string());
        }
    }
    let run_start = Instant::now();
    // Frame 0 starts one frame from now, so the first deadline is not already behind us.
    let mut clock = Clock::new(run_start + frame, frame, cfg.spin.min(frame / 2));
    let mut k: u64 = 0; // frame index on the clock
    let mut done: u64 = 0; // frames of simulated time completed
    let mut span: u64 = 1; // frames the next computation covers
    let mut paused = false;
    let mut consecutive = 0u64;
    let mut failure = None;
    let mut stopped = None;
    let mut last_progress = run_start;
    let time_of = |frames: u64| cfg.start + frames as f64 * frame_len;
    while done < cfg.frames {
        let lateness = if cfg.realtime {
            clock.wait_for(k)
        } else {
            Duration::ZERO
        };
        let frame_start = Instant::now();
        let stepped = !paused;
        let t0 = time_of(done);
        let mut overran = false;
        let mut lost = 0u64;
        let mut h_used = 0.0;
        if !paused {
            // A/D: the mailbox once per frame (real-time values, held for the frame); a
            // recorded time series at the start (and stage times) of every step.
            if let Some(mb) = &cfg.mailbox {
                mb.apply(mem);
            }
            let span_now = span.min(cfg.frames - done);
            let h = cfg.step * span_now as f64;
            h_used = h;
            let load = cfg.injected_load.iter().find(|(f, _)| *f == k).map(|x| x.1);
            for j in 0..m {
                let t = t0 + f64::from(j) * h;
                if let Some(c) = cfg.csv_inputs.as_mut() {
                    c.apply(mem, t, h);
                }
                if j == 0 {
                    if let Some(d) = load {
                        burn(d);
                    }
                }
                if let Err(e) = model.step(mem, t, h) {
                    failure = Some((t + h, e));
                    break;
                }
            }
            done += span_now;
            // D/A: outputs at the end of the frame.
            sample(model, mem, &mut out, &mut row);
            let t1 = time_of(done);
            let last = done >= cfg.frames || failure.is_some();
            for s in cfg.sinks.iter_mut() {
                // A sink records its own rows (every n-th frame); the last frame always.
                let f = if last { 0 } else { done };
                if let Err(e) = s.write(f, t1, &row) {
                    io_error.get_or_insert(e.to_string());
                }
            }
        }
        let end = Instant::now();
        let (ev_handled, ev_deferred) = model.take_events();
        if cfg.realtime {
            let next = clock.deadline(k + 1);
            if end > next {
                overran = true;
                lost = ((end - next).as_nanos() / frame.as_nanos().max(1)) as u64 + 1;
            }
        }
        let in_grace = k < cfg.grace_frames;
        if stepped {
            stats.record(FrameRecord {
                frame: k,
                time: t0,
                h: h_used,
                lateness,
                exec: end - frame_start,
                overrun: overran,
                lost,
                grace: in_grace,
                events: ev_handled + ev_deferred,
            });
            stats.count_events(ev_handled, ev_deferred, overran);
        }
        if overran && !in_grace {
            consecutive += 1;
            stats.longest_run = stats.longest_run.max(consecutive);
        } else if !overran {
            consecutive = 0;
        }
        if failure.is_some() {
            break;
        }
        // The mailbox, after the step, in the waiting time.
        if let Some(rx) = &cfg.commands {
            while let Ok(msg) = rx.try_recv() {
                let mut ctl = Control {
                    paused,
                    span,
                    stopped: None,
                    time: time_of(done),
                };
                let outcome = apply_command(msg, layout, model, mem, &mut ctl);
                (paused, span) = (ctl.paused, ctl.span);
                if ctl.stopped.is_some() {
                    stopped = ctl.stopped;
                }
                applied.push(Applied {
                    time: time_of(done),
                    wall: Instant::now() - run_start,
                    frame: k,
                    outcome,
                });
            }
        }
        if stopped.is_some() {
            break;
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
                    stopped = Some(format!(
                        "{} overruns (stop-after:{n}) at t = {}",
                        stats.overruns,
                        time_of(done)
                    ));
                    break;
                }
            }
        } else {
            k += 1;
            span = 1;
        }
        if cfg.progress && end - last_progress >= Duration::from_secs(1) {
            last_progress = end;
            progress(time_of(done), &stats);
        }
    }
    if cfg.progress && last_progress != run_start {
        eprintln!();
    }
    for s in cfg.sinks.iter_mut() {
        if let Err(e) = s.finish() {
            io_error.get_or_insert(e.to_string());
        }
    }
    Report {
        stats,
        time: time_of(done),
        failure,
        stopped,
        applied,
        wall: Instant::now() - run_start,
        io_error,
    }
}
