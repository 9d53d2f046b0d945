//! `rtc run`: the plan on the interpreter or as native code, driven by the runtime's
//! fixed-frame loop, in real time or as fast as possible.

use super::args::resolve;
use super::{fail, load_model, RunArgs};
use crate::diag::Diagnostic;
use crate::flat::FlatModel;
use crate::pipeline::{self, Method};
use crate::sim;
use std::io::Write;

fn cmdline(msg: impl Into<String>) -> Box<Diagnostic> {
    Box::new(Diagnostic::error("command-line", msg))
}

/// `udp:PORT` or `udp:ADDR:PORT` → a bind address (loopback unless an address is given; any
/// other address is warned about once: anyone who reaches it may talk to the rig).
fn udp_bind(spec: &str, what: &str) -> Result<Option<String>, Box<Diagnostic>> {
    let Some(rest) = spec.strip_prefix("udp:") else {
        return Ok(None);
    };
    if rest.parse::<u16>().is_ok() {
        return Ok(Some(format!("127.0.0.1:{rest}")));
    }
    if let Ok(addr) = rest.parse::<std::net::SocketAddr>() {
        if !addr.ip().is_loopback() {
            eprintln!(
                "rtc: warning: {what} binds {addr}, not loopback: any host that reaches it may send to the running model{}",
                if what == "--control" {
                    " (give --control-token to require a shared token)"
                } else {
                    ""
                }
            );
        }
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
    let mut flat = flat;
    // A finer output interval than the experiment's makes the default step no longer than it
    // (rows between the steps would be interpolated: a sharply peaked signal, a relative
    // permeability, is then off by percents).
    if let Some(i) = a.interval.filter(|i| i.is_finite() && *i > 0.0) {
        let start = flat.experiment.start_time.unwrap_or(0.0);
        let span = flat.experiment.stop_time.map(|s| s - start);
        let model = flat
            .experiment
            .interval
            .or(span.map(|s| s / pipeline::DEFAULT_INTERVALS));
        if model.is_none_or(|m| i < m) {
            flat.experiment.interval = Some(i);
        }
    }
    let short = a.model.short_diagnostics;
    // The external functions' C libraries, found, compiled (cached) and loaded.
    match crate::clib::provide_registered() {
        Ok(p) => {
            for n in p.notes {
                eprintln!("rtc: note: {n}");
            }
        }
        Err(d) => return fail(d, &sources, short),
    }
    let code = match run_inner(a, &flat) {
        Ok(code) => code,
        Err(d) => fail(d, &sources, short),
    };
    // The external objects made while the model was compiled, on every way out of the run.
    crate::clib::destroy_objects();
    code
}

/// The simulated time the run covers, when the command line or the experiment says.
fn run_span(a: &RunArgs, flat: &FlatModel) -> Option<f64> {
    let start = flat.experiment.start_time.unwrap_or(0.0);
    a.duration
        .or_else(|| a.stop.or(flat.experiment.stop_time).map(|s| s - start))
        .filter(|t| t.is_finite() && *t > 0.0)
}

/// When the run starts and stops, its frame, and how often a row is recorded.
struct Timing {
    start: f64,
    stop: f64,
    /// Steps per frame and the frame's length.
    per_frame: f64,
    frame_len: f64,
    /// Record every this many frames.
    every: u64,
}

fn timing(a: &RunArgs, flat: &FlatModel, h: f64, quiet: bool) -> Result<Timing, Box<Diagnostic>> {
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
    if !quiet
        && a.interval.is_some()
        && ((every as f64) * frame_len - interval).abs() > 1e-9 * interval.abs().max(frame_len)
    {
        eprintln!("rtc: note: output interval {interval} is not a multiple of the frame {frame_len}; recording every {every} frames");
    }
    Ok(Timing {
        start,
        stop,
        per_frame,
        frame_len,
        every,
    })
}

/// The input sources: a CSV file, a UDP mailbox, constants (`--input NAME=VALUE`).
struct Sources {
    csv: Option<sim::Inputs>,
    mailbox: Option<std::sync::Arc<rtc_runtime::io::Mailbox>>,
    constants: Vec<(usize, f64)>,
}

/// `bind_udp`: false to check the CSV file and the constants only (a UDP source's socket is
/// bound once, by the run).
fn input_sources(
    a: &RunArgs,
    p: &pipeline::Plan,
    bind_udp: bool,
) -> Result<Sources, Box<Diagnostic>> {
    use rtc_runtime::io::Mailbox;
    use std::sync::Arc;
    let inputs = sim::input_slots(p);
    let mut csv = None;
    let mut mailbox: Option<Arc<Mailbox>> = None;
    for spec in &a.inputs {
        if let Some(addr) = udp_bind(spec, "--inputs")? {
            if !bind_udp {
                continue;
            }
            if mailbox.is_some() {
                return Err(cmdline("--inputs: one UDP source at most"));
            }
            let mb = Arc::new(Mailbox::with_policy(&inputs, a.bad_input));
            let local = rtc_runtime::io::spawn_udp_inputs(&addr, mb.clone())
                .map_err(|e| cmdline(format!("--inputs {spec}: {e}")))?;
            eprintln!("rtc: inputs from UDP {local}");
            mailbox = Some(mb);
        } else {
            if csv.is_some() {
                return Err(cmdline("--inputs: one CSV file at most"));
            }
            csv = Some(sim::read_inputs(p, std::path::Path::new(spec))?);
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
        slot.admissible
            .check(v)
            .map_err(|why| cmdline(format!("--input `{iv}`: the value is {why}")))?;
        constants.push((slot.slot, v));
    }
    Ok(Sources {
        csv,
        mailbox,
        constants,
    })
}

/// The rows `rtc run --plot` draws, as the CSV records them.
use super::halving::Trajectory as Recorded;

/// A sink that keeps the recorded rows (for the plot) and the CSV's cadence.
struct PlotSink {
    every: u64,
    data: std::rc::Rc<std::cell::RefCell<Recorded>>,
}

impl rtc_runtime::io::OutputSink for PlotSink {
    fn start(&mut self, names: &[&str]) -> std::io::Result<()> {
        self.data.borrow_mut().names = names.iter().map(|n| n.to_string()).collect();
        Ok(())
    }
    fn next_row(&self, frame: u64) -> u64 {
        frame.div_ceil(self.every).saturating_mul(self.every)
    }
    fn write(&mut self, frame: u64, t: f64, values: &[f64]) -> std::io::Result<()> {
        if frame.is_multiple_of(self.every) {
            let mut d = self.data.borrow_mut();
            d.time.push(t);
            d.rows.push(values.to_vec());
        }
        Ok(())
    }
    fn write_event(&mut self, t: f64, values: &[f64]) -> std::io::Result<()> {
        let mut d = self.data.borrow_mut();
        d.time.push(t);
        d.rows.push(values.to_vec());
        Ok(())
    }
    fn finish(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// Draws what the plot sink kept, with the events' times.
fn write_plot(
    path: &std::path::Path,
    title: &str,
    data: &Recorded,
    events: &[f64],
) -> Result<(), Box<Diagnostic>> {
    let series: Vec<(String, Vec<f64>)> = data
        .names
        .iter()
        .enumerate()
        .map(|(k, n)| (n.clone(), data.rows.iter().map(|r| r[k]).collect()))
        .collect();
    super::plot::write_svg(
        path,
        crate::export::plot::time_series(title, &data.time, &series, events),
    )
}

/// The output sinks: the CSV (a file or standard output), then UDP.
fn output_sinks(
    a: &RunArgs,
    every: u64,
) -> Result<Vec<Box<dyn rtc_runtime::io::OutputSink>>, Box<Diagnostic>> {
    use rtc_runtime::io::{CsvSink, OutputSink, UdpSink};
    let mut sinks: Vec<Box<dyn OutputSink>> = Vec::new();
    let csv_out: Box<dyn Write> = match a.out.as_ref().filter(|p| p.as_os_str() != "-") {
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
    Ok(sinks)
}

/// Commands as the runtime receives them (a line that did not parse is an `Err`).
type Commands = std::sync::mpsc::Receiver<Result<rtc_runtime::control::Command, String>>;

/// A load injected in a frame (`--inject-load FRAME:MICROS`, for tests of overruns).
type InjectedLoad = (u64, std::time::Duration);

/// The command channel (`--control udp:… | stdin`) and the injected loads (tests).
fn controls(a: &RunArgs) -> Result<(Option<Commands>, Vec<InjectedLoad>), Box<Diagnostic>> {
    let commands = match a.control.as_deref() {
        None => None,
        Some(spec) => {
            let (tx, rx) = std::sync::mpsc::channel();
            if spec == "stdin" {
                rtc_runtime::control::spawn_stdin(tx).map_err(cmdline)?;
            } else if let Some(addr) = udp_bind(spec, "--control")? {
                let local = rtc_runtime::control::spawn_udp(&addr, tx, a.control_token.clone())
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
    Ok((commands, injected))
}

/// The state at the start time: inputs hold their start values (which may use parameters,
/// known after a first initialisation), then constants and the first samples; then the model
/// at t0 and the `initial()` events. `Err` is the status that stopped it.
fn initial_state(
    p: &pipeline::Plan,
    stepper: &mut dyn sim::Stepper,
    events: &mut sim::Events,
    sources: &mut Sources,
    start: f64,
) -> Result<Vec<f64>, pipeline::Status> {
    let mut mem = stepper.memory();
    let _ = stepper.init(&mut mem, start);
    for (slot, x) in sim::input_starts(p, &mem) {
        mem[slot] = x;
    }
    for &(slot, x) in &sources.constants {
        mem[slot] = x;
    }
    if let Some(c) = sources.csv.as_mut() {
        c.apply(&mut mem, start, 0.0);
    }
    if let Some(mb) = &sources.mailbox {
        mb.apply(&mut mem);
    }
    let mut st = stepper.init(&mut mem, start);
    if st == pipeline::Status::Ok {
        st = events.initial(stepper, &mut mem, start);
    }
    if st == pipeline::Status::Ok {
        Ok(mem)
    } else {
        Err(st)
    }
}

/// What a failed run's message adds about its cause: what the model saw happen (a Newton
/// iteration that diverged, a state that grew without bound, or a value that became
/// non-finite within one step from bounded states), parameters or inputs that hold a
/// non-finite value (bound so by the model: values from outside pass their doors), and the
/// last changes applied from outside before the failure (a command, a UDP input).
/// Each on a line of its own after the message.
fn failure_context(
    p: &pipeline::Plan,
    mem: &[f64],
    report: &rtc_runtime::Report,
    cause: Option<String>,
) -> String {
    let mut out: Vec<String> = cause.into_iter().collect();
    out.extend(
        pipeline::non_finite_knowns(p, mem)
            .into_iter()
            .map(|(name, x)| format!("`{name}` = {x} (a parameter or input of the model)")),
    );
    let command = report.applied.iter().rev().find(|a| a.outcome.is_ok());
    for (what, ap) in [
        ("command", command),
        ("UDP input", report.last_input.as_ref()),
    ] {
        if let Some(ap @ rtc_runtime::Applied { outcome: Ok(c), .. }) = ap {
            let c = match (what, c) {
                ("UDP input", rtc_runtime::control::Command::Set { name, value }) => {
                    format!("{name}={value}")
                }
                _ => c.to_string(),
            };
            out.push(format!(
                "the last {what} applied before it: `{c}` at t = {} s (frame {})",
                ap.time, ap.frame
            ));
        }
    }
    out.iter().map(|l| format!("\nrtc:   {l}")).collect()
}

/// The values and commands the doors refused during the run, per door and per variable,
/// as one table (each variable kept its last good value).
fn report_refused(cfg: &rtc_runtime::Config, report: &rtc_runtime::Report) {
    let mut rows = cfg.mailbox.as_ref().map_or(Vec::new(), |m| m.tally.rows());
    rows.extend(report.refused.rows());
    let table = rtc_runtime::door::Tally::table(&rows);
    if table.is_empty() {
        return;
    }
    let total: u64 = rows.iter().map(|r| r.count).sum();
    eprintln!(
        "rtc: warning: {total} value{} or command{} refused at the doors, never applied (each variable kept its last good value):",
        if total == 1 { "" } else { "s" },
        if total == 1 { "" } else { "s" }
    );
    for line in table {
        eprintln!("rtc:   {line}");
    }
}

/// What the run leaves besides the CSV: events, the event log, commands applied, the timing
/// log. `Some(code)` when writing a log failed.
fn report_extras(
    a: &RunArgs,
    p: &pipeline::Plan,
    events: &sim::Events,
    report: &rtc_runtime::Report,
) -> Option<u8> {
    if !p.events.is_empty() {
        let handled = events.log.iter().filter(|r| r.handled()).count();
        eprintln!(
            "rtc: events: {handled} handled, {} deferred to the end of their step",
            events.log.len() - handled
        );
        if let Some(m) = events.chatter_message() {
            eprintln!("rtc: {m}");
        }
        let deferred = events.log.len() - handled;
        if deferred > 0 {
            let first = events
                .log
                .iter()
                .find(|r| !r.handled())
                .map_or(0.0, |r| r.time);
            eprintln!(
                "rtc: warning: {deferred} event{} acted at the end of their step without being located (more than {} in one step, or conditions on a variable that changed without an event of its own, such as a delayed discrete signal; the first at t = {first}): their times are off by up to a step",
                if deferred == 1 { "" } else { "s" },
                crate::sim::LOCATED_PER_STEP
            );
        }
    }
    for (message, t, n) in events.warnings() {
        eprintln!(
            "rtc: warning: t = {t}: {} (an assert of level warning: the run went on; it failed at {n} check{} of the run)",
            message.trim(),
            if n == 1 { "" } else { "s" }
        );
    }
    if let Some(path) = &a.event_log {
        if let Err(e) = std::fs::write(path, events.csv()) {
            eprintln!("rtc: writing {} failed: {e}", path.display());
            return Some(1);
        }
    }
    // Refused commands were reported as they came (the first of each variable) and are in
    // the table of refusals.
    for ap in &report.applied {
        if let Ok(c) = &ap.outcome {
            eprintln!(
                "rtc: t = {} s (frame {}, wall {:.6} s): {c}",
                ap.time,
                ap.frame,
                ap.wall.as_secs_f64()
            );
        }
    }
    if let Some(e) = &report.io_error {
        eprintln!("rtc: writing the results failed: {e}");
        return Some(1);
    }
    None
}

/// What the step-halving check's runs share with the run: the command, the model, its plan,
/// the runtime's layout and the recorded outputs.
struct CheckRun<'a> {
    a: &'a RunArgs,
    flat: &'a FlatModel,
    p: &'a pipeline::Plan,
    layout: &'a rtc_runtime::Layout,
    selected: &'a [usize],
}

/// The run at step `h` in memory, for the step-halving check ([`super::halving`]): the
/// selected outputs at the output interval and at events; `Err` with why it stopped.
/// Why a check run stopped: the run's words, and the time of a chattering event if that was
/// the cause.
struct CheckStop {
    why: String,
    chatter: Option<f64>,
}

impl std::fmt::Display for CheckStop {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.why)
    }
}

impl From<String> for CheckStop {
    fn from(why: String) -> CheckStop {
        CheckStop { why, chatter: None }
    }
}

fn trajectory(c: &CheckRun, stepper: &mut dyn sim::Stepper, h: f64) -> Result<Recorded, CheckStop> {
    let CheckRun {
        a,
        flat,
        p,
        layout,
        selected,
    } = *c;
    let Timing {
        start,
        stop,
        per_frame,
        frame_len,
        every,
    } = timing(a, flat, h, true).map_err(|d| d.message.clone())?;
    let mut sources = input_sources(a, p, true).map_err(|d| d.message.clone())?;
    let mut events = sim::Events::new(p);
    events.zeno = a.zeno;
    events.record_rows();
    let mut mem = initial_state(p, stepper, &mut events, &mut sources, start).map_err(|st| {
        CheckStop::from(format!(
            "initialisation failed: {} (status {})",
            pipeline::describe(p, st),
            st.code()
        ))
    })?;
    let data = std::rc::Rc::new(std::cell::RefCell::new(Recorded::default()));
    let frames = ((stop - start) / frame_len).round().max(0.0) as u64;
    let mut cfg = rtc_runtime::Config::new(start, h, frames);
    cfg.steps_per_frame = per_frame as u32;
    cfg.csv_inputs = sources.csv;
    cfg.selected = selected.to_vec();
    cfg.sinks = vec![Box::new(PlotSink {
        every,
        data: data.clone(),
    })];
    cfg.flush_to_zero = a.ftz;
    cfg.event_rows = true;
    let mut model = sim::RunModel::new(stepper, p, events);
    let report = rtc_runtime::run(&mut model, &mut mem, layout, &mut cfg);
    if let Some((t, msg)) = &report.failure {
        if model.events.termination().is_none() {
            return Err(CheckStop {
                why: format!("stopped at t = {t}: {msg}"),
                chatter: model.events.chatter.as_ref().map(|ch| ch.time),
            });
        }
    }
    let out = std::mem::take(&mut *data.borrow_mut());
    Ok(out)
}

/// The start of the warning that the modes' check could not be made.
const UNCHECKED: &str = super::args::ACCURACY_UNCHECKED;

/// What the step-halving check found.
struct Halving {
    /// The step to run with.
    h: f64,
    /// The run at half the step agrees.
    checked: bool,
    notes: Vec<String>,
    warnings: Vec<String>,
    /// Backward Euler (radau, where backward Euler's rescue is not confirmed) asked for
    /// instead of the method rtc chose.
    switch: Option<Switch>,
}

/// Why the check asks for backward Euler (L-stable, the most robust of rtc's methods) in
/// place of the method rtc chose.
enum Switch {
    /// The trapezoid's run chatters at this time: its stiff modes ring after a switch.
    Chatter(f64),
    /// The chosen method's runs stop at the default step and at its halvings: why.
    Stops(String),
    /// Backward Euler's run got through only past the check's halvings and the check does not
    /// confirm it (the note saying why): radau, of higher order, gets the same search.
    Unconfirmed(String),
    /// Radau's search after backward Euler's found no run either: backward Euler at the
    /// default step, where the run stops as it did.
    Back,
}

/// What the check may do with the step and the method rtc chose.
#[derive(Clone, Copy)]
struct Latitude {
    /// Halve the default step.
    refine: bool,
    /// Ask for backward Euler where the trapezoid's run chatters.
    chatter_to_be: bool,
    /// Ask for backward Euler where every run stops.
    stops_to_be: bool,
    /// The method rtc chose first, whose runs stopped (the modes' advice may name it).
    stopped: Option<&'static str>,
    /// Ask for radau where backward Euler's rescued run is not confirmed.
    unconfirmed_to_radau: bool,
    /// Radau searching after backward Euler: back to backward Euler where it finds no run.
    back_to_be: bool,
}

/// The step-halving check before the run ([`super::halving`]): the step to run with, and
/// whether the run at half the step agrees, and what rtc says (notes, warnings). `h` is
/// halved only when `refine`.
fn halving_check(
    c: &CheckRun,
    stepper: &mut dyn sim::Stepper,
    order: u32,
    mut h: f64,
    may: Latitude,
    tol: f64,
) -> Halving {
    let refine = may.refine;
    use super::halving::{difference, may_halve, richardson, MARGIN};
    let (a, flat) = (c.a, c.flat);
    let (mut notes, mut warnings) = (Vec::new(), Vec::new());
    // The output interval asked for; the halvings' floor is below the larger of it and the
    // first step.
    let out = a.interval.or(flat.experiment.interval).unwrap_or(h);
    let interval = out.max(h);
    // The time between the coarse run's rows: the shifts of the measure are this long.
    let rows = |h: f64| (out / h).round().max(1.0) * h;
    let factor = richardson(order);
    let pct = |x: f64| format!("{:.3} %", 100.0 * x);
    let mut halvings = 0;
    // The default step, where the run got through only past the check's halvings: that run
    // is taken only where the check confirms it.
    let mut deep_from = None;
    let mut coarse = match trajectory(c, stepper, h) {
        Ok(t) => t,
        // A default step at which the run stops (Newton, a singular Jacobian, a chattering
        // switch) is halved until a run gets through, within the halvings' bound; the
        // trapezoid's chattering goes to backward Euler first (the caller's switch).
        Err(stop) if refine && !(may.chatter_to_be && stop.chatter.is_some()) => {
            // Halved as far as the check goes while backward Euler may still take over;
            // where it may not (backward Euler's own runs, a method the user named), as far
            // as a rescue goes.
            let deep = !may.stops_to_be;
            match rescue(c, stepper, (h, interval), deep, &mut halvings) {
                Ok((h2, t)) => {
                    notes.push(format!(
                        "the run at the default step {h} stopped at {}; the step halved {halvings} time{} to {h2}, where it runs",
                        stop.why.trim_start_matches("stopped at "),
                        if halvings == 1 { "" } else { "s" },
                    ));
                    if halvings > super::halving::MAX_HALVINGS {
                        deep_from = Some(h);
                    }
                    h = h2;
                    t
                }
                // Backward Euler at the default step, or the run at the first step says why
                // it stops.
                Err(last) => {
                    let halved = last.map(|(h2, why)| {
                        format!(
                            "; halved {halvings} time{} to {h2}, it {why}",
                            if halvings == 1 { "" } else { "s" },
                        )
                    });
                    let switch = may.stops_to_be.then(|| {
                        Switch::Stops(format!(
                            "at the default step {h} the run {}{}",
                            stop.why,
                            halved.clone().unwrap_or_default()
                        ))
                    });
                    if switch.is_none() {
                        if let Some(halved) = halved {
                            notes.push(format!(
                                "the default step did not get the run through when halved either{halved}"
                            ));
                        }
                    }
                    let switch = switch.or(may.back_to_be.then_some(Switch::Back));
                    return Halving {
                        h,
                        checked: false,
                        notes,
                        warnings,
                        switch,
                    };
                }
            }
        }
        // The run itself says why it stops.
        Err(stop) => {
            return Halving {
                h,
                checked: false,
                notes,
                warnings,
                switch: stop
                    .chatter
                    .filter(|_| may.chatter_to_be)
                    .map(Switch::Chatter),
            }
        }
    };
    loop {
        let fine = match trajectory(c, stepper, h / 2.0) {
            Ok(t) => t,
            Err(why) if deep_from.is_some() => {
                return unconfirmed(
                    deep_from,
                    may,
                    h,
                    notes,
                    format!("at the step {} it {why}", h / 2.0),
                );
            }
            Err(why) => {
                warnings.push(format!(
                    "the step-halving check did not run: at the step {} the run {why}; the result at {h} is not checked",
                    h / 2.0
                ));
                return Halving {
                    h,
                    checked: false,
                    notes,
                    warnings,
                    switch: None,
                };
            }
        };
        let Some(d) = difference(&fine, &coarse, rows(h)) else {
            return Halving {
                h,
                checked: false,
                notes,
                warnings,
                switch: None,
            };
        };
        let estimate = factor * d.relative;
        // Past the check's halvings (a stopping step halved further), the check refines
        // within the rescue's bound.
        let refining = refine
            && match deep_from {
                Some(_) => super::halving::may_rescue(halvings, h, interval),
                None => may_halve(halvings, h, interval),
            };
        if estimate <= tol && !(refining && estimate > MARGIN * tol) {
            if halvings > 0 {
                notes.push(format!(
                    "step halved {halvings} time{} to {h}: at the step {h} and at {} the runs agree within {} of each signal's scale (estimated error {}, worst `{}`)",
                    if halvings == 1 { "" } else { "s" },
                    h / 2.0,
                    pct(tol),
                    pct(estimate),
                    d.signal
                ));
            }
            return Halving {
                h,
                checked: true,
                notes,
                warnings,
                switch: None,
            };
        }
        if refining {
            h /= 2.0;
            halvings += 1;
            coarse = fine;
            continue;
        }
        if deep_from.is_some() {
            let why = format!(
                "at the step {} it differs by {} of `{}`'s scale (estimated error {}, more than the tolerance {})",
                h / 2.0,
                pct(d.relative),
                d.signal,
                pct(estimate),
                pct(tol)
            );
            return unconfirmed(deep_from, may, h, notes, why);
        }
        warnings.push(format!(
            "the step-halving check estimates an error of {} of `{}`'s scale at t = {} (the runs at the step {h} and at {} differ by {}; {} is the tolerance): {}",
            pct(estimate),
            d.signal,
            d.at,
            h / 2.0,
            pct(d.relative),
            pct(tol),
            if refine {
                format!("halving the default step {halvings} times did not bring it within; an event or a switch the step does not resolve, or a model whose answer depends on the step")
            } else {
                format!("try --step {} or --method radau", h / 4.0)
            }
        ));
        return Halving {
            h,
            checked: false,
            notes,
            warnings,
            switch: None,
        };
    }
}

/// A run that got through only past the check's halvings, which the run at half its step does
/// not confirm: not taken. Where radau may take over (backward Euler chosen by rtc, radau not
/// yet searched), it gets the same search from the default step; otherwise the run goes on at
/// the default step `from` (backward Euler's, where radau searched after it) and stops there,
/// as it would without the further halvings, with a note on why that run was not taken (a run
/// that disagrees is no better than none).
fn unconfirmed(
    from: Option<f64>,
    may: Latitude,
    h: f64,
    mut notes: Vec<String>,
    why: String,
) -> Halving {
    let note = format!(
        "the run at the step {h} is not taken: the step-halving check does not confirm it ({why})"
    );
    let switch = if may.unconfirmed_to_radau {
        Some(Switch::Unconfirmed(note))
    } else {
        notes.push(note);
        may.back_to_be.then_some(Switch::Back)
    };
    Halving {
        h: from.unwrap_or(h),
        checked: false,
        notes,
        warnings: Vec::new(),
        switch,
    }
}

/// The default step `h` halved (counted in `halvings`, within [`super::halving::may_halve`],
/// or `deep`, within [`super::halving::may_rescue`])
/// until a run gets through: that step and its run, or the last step tried and why it
/// stopped (`None`: no halving allowed).
fn rescue(
    c: &CheckRun,
    stepper: &mut dyn sim::Stepper,
    (mut h, interval): (f64, f64),
    deep: bool,
    halvings: &mut u32,
) -> Result<(f64, Recorded), Option<(f64, CheckStop)>> {
    use super::halving::{may_halve, may_rescue};
    let mut last = None;
    let may = |n: u32, h: f64| {
        if deep {
            may_rescue(n, h, interval)
        } else {
            may_halve(n, h, interval)
        }
    };
    while may(*halvings, h) {
        h /= 2.0;
        *halvings += 1;
        match trajectory(c, stepper, h) {
            Ok(t) => return Ok((h, t)),
            Err(why) => last = Some((h, why)),
        }
    }
    Err(last)
}

/// The step-halving check, outside real time and without live inputs or commands, with the
/// modes' warnings (which it may stand in for) printed after it: the step to run with.
fn check_step(
    c: &CheckRun,
    stepper: &mut dyn sim::Stepper,
    (order, mut h): (u32, f64),
    tolerance: f64,
    (mut mode_warnings, modes, method): (Vec<String>, &super::args::ModeCheck, &Method),
    may: Latitude,
) -> Result<f64, Switch> {
    let a = c.a;
    let live = a.realtime
        || a.control.is_some()
        || !a.inject_load.is_empty()
        || a.inputs.iter().any(|i| i.starts_with("udp:"));
    // A library's hidden state (an impure function's) carries from one run in this process
    // to the next: where the model calls one while it runs (not only to initialise), the
    // check's runs would not start where the run does.
    let stateful = c.flat.impure_call_while_running();
    // Derivatives of external functions by central differences in the step's values.
    for f in c.p.differenced_externals() {
        eprintln!("rtc: warning: the model's equations differentiate the external function `{f}`, which rtc does by central differences (it has no `derivative` annotation, or one whose C call does not pass its arguments unchanged followed by their derivatives): about 1e-6 relative, and wrong where the function has a kink or a jump (a table's breakpoint) between the differences' points");
    }
    if let (Some(f), false, false) = (&stateful, a.no_check, live) {
        eprintln!("rtc: note: the step-halving check is not made: the model calls the impure external function `{f}`, whose state in its library a second run would not start from");
    }
    if !a.no_check && !live && stateful.is_none() {
        let Halving {
            h: h2,
            checked,
            notes,
            warnings,
            switch,
        } = halving_check(c, stepper, order, h, may, tolerance);
        if let Some(switch) = switch {
            for n in &notes {
                eprintln!("rtc: note: {n}");
            }
            return Err(switch);
        }
        if h2 != h {
            // The modes' warnings judged at the step the run takes.
            let before = modes.warnings(c.flat, method, h);
            mode_warnings.retain(|w| !before.contains(w));
            mode_warnings.extend(modes.warnings(c.flat, method, h2));
        }
        h = h2;
        if checked {
            // The modes were not known; the run at half the step agrees.
            mode_warnings.retain(|w| {
                let unchecked = w.starts_with(UNCHECKED);
                if unchecked {
                    eprintln!("rtc: note: {w}; the step-halving check stands in");
                }
                !unchecked
            });
        }
        for n in &notes {
            eprintln!("rtc: note: {n}");
        }
        if let Some(m) = may.stopped {
            // The modes' advice knows nothing of the runs that stopped.
            for w in &mut mode_warnings {
                if w.contains(&format!("; {m} with --step ")) {
                    w.push_str(&format!(" (but {m}'s runs stop on this model: see above)"));
                }
            }
        }
        mode_warnings.extend(warnings);
    }
    for w in &mode_warnings {
        eprintln!("rtc: warning: {w}");
    }
    Ok(h)
}

/// The plan, its outputs and layout, the stepper and the step a run takes.
struct Planned {
    p: pipeline::Plan,
    selected: Vec<usize>,
    layout: rtc_runtime::Layout,
    stepper: Box<dyn sim::Stepper>,
    h: f64,
}

/// The model planned with the method resolved, and the step-halving check made
/// ([`check_step`]); backward Euler where the check asks for it.
fn planned(
    a: &RunArgs,
    flat: &FlatModel,
    r: super::args::Resolved,
    mut settings: pipeline::Settings,
    h: f64,
) -> Result<Planned, Box<Diagnostic>> {
    let engine = a.engine;
    // The trapezoid chosen by rtc whose check run chatters at a switch: its stiff modes map to
    // z ≈ −1 (undamped, sign flipping every step), so after a switch the switched quantities
    // ring and the switch's relation flips back within steps. Backward Euler (L-stable: z → 0)
    // damps them: the run takes it at the same step, with its own check and warnings.
    // Where every run of the method rtc chose stops at the default step and its halvings,
    // backward Euler at the default step takes over, with its own check (and halvings).
    let mut warnings = r.warnings;
    let mut mode_check = r.modes;
    let mut may = Latitude {
        refine: r.defaulted,
        chatter_to_be: r.defaulted && settings.method == Method::Trapezoid,
        stops_to_be: r.defaulted && settings.method != Method::BackwardEuler,
        stopped: None,
        unconfirmed_to_radau: r.defaulted,
        back_to_be: false,
    };
    let mut inputs_checked = false;
    loop {
        let p = crate::pipeline::plan(flat, &settings)?.plan;
        let selected = sim::select_outputs(&p, &super::args::names(&a.vars))?;
        // The inputs through their doors before any check run: a value outside its
        // declaration's range is the user's mistake, not the method's failure.
        if !inputs_checked {
            drop(input_sources(a, &p, false)?);
            inputs_checked = true;
        }
        let layout = rtc_runtime::Layout {
            inputs: sim::input_slots(&p),
            parameters: p
                .tunable_parameters()
                .into_iter()
                .map(|v| rtc_runtime::Slot {
                    name: p.name_of(v).to_string(),
                    slot: v.index(),
                    offset: 0.0,
                    admissible: p.vars[v].admissible,
                })
                .collect(),
            outputs: p.outputs.iter().map(|o| o.name.clone()).collect(),
        };
        let mut stepper = sim::stepper(&p, engine)?;
        let c = CheckRun {
            a,
            flat,
            p: &p,
            layout: &layout,
            selected: &selected,
        };
        let checked = check_step(
            &c,
            stepper.as_mut(),
            (settings.method.order(), h),
            r.tolerance,
            (std::mem::take(&mut warnings), &mode_check, &settings.method),
            may,
        );
        match checked {
            Ok(h) => {
                return Ok(Planned {
                    p,
                    selected,
                    layout,
                    stepper,
                    h,
                })
            }
            Err(switch) => {
                let mut next = a.method.clone();
                next.method = Some(match switch {
                    Switch::Unconfirmed(_) => pipeline::MethodName::Radau,
                    _ => pipeline::MethodName::Be,
                });
                next.step = Some(h);
                let r2 = resolve(&next, flat, run_span(a, flat))?;
                match switch {
                    Switch::Chatter(t) => {
                        eprintln!("rtc: note: the trapezoid's check run chatters at t = {t} (its stiff modes ring after a switch: z = -1); backward Euler (L-stable) at the same step instead");
                        may.refine = false;
                    }
                    Switch::Stops(why) => {
                        eprintln!(
                            "rtc: note: {} stops: {why}; backward Euler (L-stable) at the default step instead",
                            settings.method.name()
                        );
                        may.stopped = Some(settings.method.name());
                    }
                    // Backward Euler's error is first order in the step: where its rescued
                    // run is not confirmed at the rescue's floor, radau (L-stable, order 3)
                    // gets the same search, its run taken only where the check confirms it.
                    Switch::Unconfirmed(note) => {
                        eprintln!("rtc: note: {note}; radau (L-stable, order 3) from the default step {h} instead");
                        may.refine = true;
                        may.unconfirmed_to_radau = false;
                        may.back_to_be = true;
                    }
                    Switch::Back => {
                        eprintln!("rtc: note: radau's runs are not taken either; backward Euler at the default step {h}");
                        may.refine = false;
                        may.back_to_be = false;
                    }
                }
                settings = settings.with_method(r2.settings.method);
                warnings = r2.warnings;
                mode_check = r2.modes;
                may.chatter_to_be = false;
                may.stops_to_be = false;
            }
        }
    }
}

fn run_inner(a: &RunArgs, flat: &FlatModel) -> Result<u8, Box<Diagnostic>> {
    pipeline::check_parameter_bounds(flat)?;
    let r = resolve(&a.method, flat, run_span(a, flat))?;
    for n in &r.notes {
        eprintln!("rtc: note: {n}");
    }
    let (settings, h) = (r.settings.clone(), r.step);
    if let Method::Rk(r) = &settings.method {
        if a.realtime && !r.realtime_inputs() {
            eprintln!("rtc: warning: {} needs inputs ahead of real time; inputs are held at their value at the start of each frame", r.name());
        }
    }
    // Found out before any check run.
    timing(a, flat, h, true)?;
    let overrun = a.overrun;
    let Planned {
        p,
        selected,
        layout,
        mut stepper,
        h,
    } = planned(a, flat, r, settings, h)?;
    for n in &p.notes {
        eprintln!("rtc: {n}");
    }
    let Timing {
        start,
        stop,
        per_frame,
        frame_len,
        every,
    } = timing(a, flat, h, false)?;
    let mut sources = input_sources(a, &p, true)?;
    let mut sinks = output_sinks(a, every)?;
    if let Some(path) = &a.plot {
        // Found unwritable before the run, not after it.
        std::fs::File::create(path).map_err(|e| {
            Box::new(Diagnostic::error(
                "file",
                format!("cannot write {}: {e}", path.display()),
            ))
        })?;
    }
    let plotted = std::rc::Rc::new(std::cell::RefCell::new(Recorded::default()));
    if a.plot.is_some() {
        sinks.push(Box::new(PlotSink {
            every,
            data: plotted.clone(),
        }));
    }
    let (commands, injected) = controls(a)?;
    let mut events = sim::Events::new(&p);
    events.zeno = a.zeno;
    // Outside real time, result files get a row just before and just after each event.
    let event_rows = !a.realtime && !a.no_event_rows;
    if event_rows {
        events.record_rows();
    }
    // The parameters' values (bindings and `--param`) through their doors first: a value
    // outside its declaration's min/max is the user's mistake, not a failed start.
    pipeline::check_parameters(&p, &sim::parameter_values(stepper.as_mut(), start))?;
    // A library's error raised before the run (the analyses' evaluations at perturbed
    // points, the step-halving check's runs) is not the run's.
    let _ = crate::clib::take_error();
    let mut mem = match initial_state(&p, stepper.as_mut(), &mut events, &mut sources, start) {
        Ok(mem) => mem,
        Err(st) => {
            if let Some(e) = crate::clib::take_error() {
                eprintln!(
                    "rtc: run stopped at t = {start}: initialisation failed: {}",
                    external_error(&e)
                );
                return Ok(2);
            }
            let cause = sim::RunModel::start_failure_cause(&p, st).map(|c| format!("\nrtc:   {c}"));
            eprintln!(
                "rtc: run stopped at t = {start}: initialisation failed: {} (status {}){}",
                pipeline::describe(&p, st),
                st.code(),
                cause.unwrap_or_default()
            );
            return Ok(2);
        }
    };
    let frames = ((stop - start) / frame_len).round().max(0.0) as u64;
    let mut cfg = rtc_runtime::Config::new(start, h, frames);
    cfg.steps_per_frame = per_frame as u32;
    cfg.realtime = a.realtime;
    cfg.overrun = overrun;
    cfg.grace_frames = (a.grace.max(0.0) / frame_len).ceil() as u64;
    cfg.csv_inputs = sources.csv;
    cfg.mailbox = sources.mailbox;
    cfg.bad_input = a.bad_input;
    cfg.selected = selected;
    cfg.sinks = sinks;
    cfg.commands = commands;
    cfg.injected_load = injected;
    cfg.flush_to_zero = a.ftz;
    cfg.event_rows = event_rows;
    if a.ftz && !rtc_runtime::fp::FlushToZero::supported() {
        eprintln!("rtc: warning: --ftz: flushing subnormals is implemented on x86-64 and AArch64 only; running without it");
    }
    if let Some(path) = &a.timing_log {
        // Streamed: one row per frame as it ends, nothing kept in memory.
        let f = std::fs::File::create(path).map_err(|e| {
            Box::new(Diagnostic::error(
                "file",
                format!("cannot write {}: {e}", path.display()),
            ))
        })?;
        cfg.frame_log = Some(Box::new(rtc_runtime::stats::CsvFrameLog::new(Box::new(
            std::io::BufWriter::with_capacity(1 << 20, f),
        ))));
    }
    cfg.progress =
        a.realtime && std::io::IsTerminal::is_terminal(&std::io::stderr()) && (stop - start) > 3.0;
    if a.realtime || a.pin.is_some() || a.fifo.is_some() || a.mlock {
        let os = rtc_runtime::clock::setup_os(a.pin, a.fifo, a.mlock);
        for w in &os.warnings {
            eprintln!("rtc: warning: {w}");
        }
    }
    let mut model = sim::RunModel::new(stepper.as_mut(), &p, events);
    let report = rtc_runtime::run(&mut model, &mut mem, &layout, &mut cfg);
    report_refused(&cfg, &report);
    // `when terminal()`: once, at the end of a run that reached its stop time (its values
    // are not written as a row: the result ends at the last step).
    if report.failure.is_none() && flat.whens.iter().any(|w| w.terminal) {
        let t_end = start + report.stats.frames as f64 * frame_len;
        let st = model.terminal(&mut mem, t_end);
        if st != pipeline::Status::Ok {
            let why = match crate::clib::take_error() {
                Some(e) => external_error(&e),
                None => pipeline::describe(&p, st),
            };
            eprintln!(
                "rtc: the run reached t = {t_end}, and then its `terminal()` actions failed: {why}"
            );
            return Ok(2);
        }
    }
    if let Some(note) = p.slide_note(&mem) {
        eprintln!("rtc: {note}");
    }
    if let Some(code) = report_extras(a, &p, &model.events, &report) {
        return Ok(code);
    }
    if let Some(path) = &a.plot {
        let events: Vec<f64> = model.events.log.iter().map(|r| r.time).collect();
        write_plot(path, &flat.name, &plotted.borrow(), &events)?;
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
    if let Some(e) = crate::clib::take_error() {
        // A library's ModelicaError, caught by its shim (which wrote NaN): the run's error,
        // at the step the NaN stopped, else reported after the run (the first is kept).
        match &report.failure {
            Some((t, _)) => eprintln!("rtc: run stopped at t = {t}: {}", external_error(&e)),
            None => eprintln!(
                "rtc: the run is wrong: during it, {} (its NaN reached no checked value)",
                external_error(&e)
            ),
        }
        return Ok(2);
    }
    if let Some((t, msg)) = &report.failure {
        eprintln!(
            "rtc: run stopped at t = {t}: {msg}{}",
            failure_context(&p, &mem, &report, model.failure_cause(&mem))
        );
        return Ok(2);
    }
    if let Some(why) = &report.stopped {
        eprintln!("rtc: run stopped: {why} after {steps} steps");
        return Ok(if why.is_failure() { 2 } else { 0 });
    }
    let wall = report.wall.as_secs_f64();
    eprintln!(
        "rtc: {steps} steps of {h} s with {} from {start} to {stop} in {wall:.3} s of wall time{}",
        p.method,
        per_step(a.realtime, wall, steps)
    );
    Ok(0)
}

/// As fast as possible: what a step costs with the loop, outputs and recording.
fn per_step(realtime: bool, wall: f64, steps: u64) -> String {
    if realtime || steps == 0 {
        String::new()
    } else {
        format!(" ({:.1} ns per step)", wall * 1e9 / steps as f64)
    }
}

/// A `ModelicaError` of an external function's C code, as the run's error.
fn external_error(e: &str) -> String {
    match e.split_once(": ") {
        Some((f, msg)) if !f.is_empty() && !f.contains(' ') => {
            format!("the external C function `{f}` raised an error: {msg}")
        }
        _ => format!("external C code raised an error: {e}"),
    }
}
