//! Command-line driver: argument parsing, reading files, printing diagnostics, exit codes.
//!
//! Exit codes: 0 success, 1 a mistake in the model or the command line (with a diagnostic),
//! 2 a run that failed numerically (later phases).

use crate::diag::{Diagnostic, SourceMap};
use crate::flatten::{self, classes::ClassTree};
use crate::structure;
use clap::{Args, Parser, Subcommand};
use std::io::IsTerminal;
use std::path::PathBuf;

#[derive(Parser)]
#[command(
    name = "rtc",
    version,
    about = "Real-time equation compiler for Modelica-style models"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Check a model: parse, flatten, and verify it is balanced and structurally regular.
    Check(ModelArgs),
    /// Print the flat model (readable flat Modelica).
    Flatten(ModelArgs),
    /// Inline the integration method and report the step system: blocks, tearing, work bound.
    Analyze(AnalyzeArgs),
    /// Simulate as fast as possible and write a CSV of the results.
    Run(Box<RunArgs>),
    /// Compile a model to an object file, a C header and a JSON description for an embedded
    /// or real-time target.
    Compile(CompileArgs),
}

#[derive(Args, Clone)]
pub struct MethodArgs {
    /// Integration method inlined into the model: fe, be, trapezoid, radau, libe, mixed,
    /// multirate, rtrk2, rk3, rk4, rtrk4, ab2 or ab3.
    #[arg(long, default_value = "be")]
    pub method: String,
    /// For --method mixed: the states integrated by backward Euler (comma-separated).
    #[arg(long, value_delimiter = ',')]
    pub implicit: Vec<String>,
    /// Step size (default: the experiment annotation's Interval).
    #[arg(long)]
    pub step: Option<f64>,
    /// Newton iterations per torn block and step, at most.
    #[arg(long, default_value_t = 10)]
    pub newton_iterations: u32,
    /// For --method mixed: the formula of the implicit states, `be` (backward Euler) or
    /// `libe` (linearly implicit Euler).
    #[arg(long, default_value = "be")]
    pub implicit_as: String,
    /// For --method multirate: the fast states (comma-separated).
    #[arg(long, value_delimiter = ',')]
    pub fast: Vec<String>,
    /// For --method multirate: fast sub-steps per step.
    #[arg(long)]
    pub ratio: Option<usize>,
    /// For --method multirate: how the fast sub-steps see the slow states, `linear` or
    /// `quadratic` (Howe's predictors).
    #[arg(long, default_value = "linear")]
    pub extrapolation: String,
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
}

#[derive(Args, Clone)]
pub struct RunArgs {
    #[command(flatten)]
    pub model: ModelArgs,
    #[command(flatten)]
    pub method: MethodArgs,
    /// What executes the step: `jit` (native code from Cranelift) or `interp` (the plan
    /// interpreter, the reference).
    #[arg(long, default_value = "jit")]
    pub engine: String,
    /// Stop time (default: the experiment annotation's StopTime).
    #[arg(long)]
    pub stop: Option<f64>,
    /// Output interval (default: the experiment annotation's Interval, else every step).
    #[arg(long)]
    pub interval: Option<f64>,
    /// CSV output file (default: standard output).
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// Variables to record (comma-separated; default: states and outputs).
    #[arg(long, value_delimiter = ',')]
    pub vars: Vec<String>,
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
    /// What an overrun does: catch-up (the next step is lengthened to regain real time),
    /// skip (the lost frames are dropped), stop-after:N.
    #[arg(long, default_value = "catch-up")]
    pub overrun: String,
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
    /// Write per-frame timing (lateness, execution time, step, overruns) as CSV.
    #[arg(long, value_name = "FILE")]
    pub timing_log: Option<PathBuf>,
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
    /// Directory for <name>.o, <name>.h and <name>.json (default: the current directory).
    #[arg(short = 'o', long = "out-dir", value_name = "DIR")]
    pub out_dir: Option<PathBuf>,
    /// Symbol prefix and file name (default: the model name as a C identifier).
    #[arg(long)]
    pub name: Option<String>,
}

#[derive(Args, Clone)]
pub struct ModelArgs {
    /// The model file (.mo).
    pub file: PathBuf,
    /// The class to use, e.g. `Pkg.Model` (default: the file's single model).
    #[arg(long)]
    pub model: Option<String>,
    /// Extra library: a `Name.mo` file or a `Name/` package directory (repeatable).
    #[arg(long = "lib", value_name = "PATH")]
    pub libs: Vec<PathBuf>,
    /// Override a top-level parameter, e.g. `--param n=50` (repeatable).
    #[arg(long = "param", value_name = "NAME=VALUE")]
    pub params: Vec<String>,
    /// One line per diagnostic instead of the source excerpt.
    #[arg(long)]
    pub short_diagnostics: bool,
}

/// Runs the CLI and returns the process exit code.
pub fn main() -> u8 {
    let cli = match Cli::try_parse() {
        Ok(c) => c,
        Err(e) => {
            let code = if e.use_stderr() { 1 } else { 0 };
            let _ = e.print();
            return code;
        }
    };
    match cli.command {
        Command::Check(a) => check(&a),
        Command::Flatten(a) => flatten_cmd(&a),
        Command::Analyze(a) => crate::run::analyze(&a),
        Command::Run(a) => crate::run::run(&a),
        Command::Compile(a) => crate::compile::compile(&a),
    }
}

/// Writes to standard output; a closed pipe (`rtc … | head`) ends the output quietly instead
/// of panicking.
pub fn out(text: &str) {
    use std::io::Write;
    let mut o = std::io::stdout().lock();
    let _ = o.write_all(text.as_bytes()).and_then(|_| o.flush());
}

pub fn print_diagnostics(diags: &[Diagnostic], sources: &SourceMap, short: bool) {
    let color = std::io::stderr().is_terminal();
    for d in diags {
        if short {
            eprintln!("{}", d.short(sources));
        } else {
            eprintln!("{}", d.render(sources, color));
        }
    }
}

fn parse_params(params: &[String]) -> Result<Vec<(String, f64)>, Box<Diagnostic>> {
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
        out.push((name.trim().to_string(), v));
    }
    Ok(out)
}

/// Loads and flattens a model, printing diagnostics. `None` means exit code 1.
pub fn load_model(args: &ModelArgs) -> Option<(crate::flat::FlatModel, SourceMap)> {
    let empty = SourceMap::new();
    let params = match parse_params(&args.params) {
        Ok(p) => p,
        Err(d) => {
            print_diagnostics(&[*d], &empty, args.short_diagnostics);
            return None;
        }
    };
    let text = match std::fs::read(&args.file) {
        Ok(bytes) => match String::from_utf8(bytes) {
            Ok(t) => t,
            Err(_) => {
                let d =
                    Diagnostic::error("file", format!("{} is not UTF-8 text", args.file.display()));
                print_diagnostics(&[d], &empty, args.short_diagnostics);
                return None;
            }
        },
        Err(e) => {
            let d = Diagnostic::error("file", format!("cannot read {}: {e}", args.file.display()));
            print_diagnostics(&[d], &empty, args.short_diagnostics);
            return None;
        }
    };
    let opts = flatten::Options {
        model: args.model.clone(),
        libs: args.libs.clone(),
        modelicapath: std::env::var("MODELICAPATH").ok(),
        params,
    };
    let file_name = args.file.display().to_string();
    // Parse and flatten on a thread whose stack fits the nesting of this input.
    let result = crate::driver::with_stack_for(&text.clone(), move || {
        let arena = typed_arena::Arena::new();
        let mut tree = ClassTree::new(&arena);
        let outcome = flatten::flatten_source(&mut tree, &file_name, &text, &opts);
        (
            outcome.model,
            outcome.diagnostics,
            std::mem::take(&mut tree.sources),
        )
    });
    let (model, diagnostics, sources) = match result {
        Ok(r) => r,
        Err(crate::driver::ThreadError::TooDeep) => {
            let d = Diagnostic::error(
                "too-deep",
                format!("{} is nested too deeply to compile", args.file.display()),
            );
            print_diagnostics(&[d], &empty, args.short_diagnostics);
            return None;
        }
        Err(crate::driver::ThreadError::Panicked) => {
            eprintln!("rtc: internal error (please report it with the model that caused it)");
            std::process::exit(101);
        }
    };
    print_diagnostics(&diagnostics, &sources, args.short_diagnostics);
    let model = model?;
    // Alias elimination merges the start values of aliases: conflicts are the user's to fix
    // before anything runs, whichever command was asked for.
    match structure::alias::eliminate(&mut model.clone()) {
        Ok(a) => print_diagnostics(&a.warnings, &sources, args.short_diagnostics),
        Err(errors) => {
            print_diagnostics(&errors, &sources, args.short_diagnostics);
            return None;
        }
    }
    Some((model, sources))
}

fn check(args: &ModelArgs) -> u8 {
    let Some((model, sources)) = load_model(args) else {
        return 1;
    };
    match structure::check(&model) {
        Ok(summary) => {
            out(&format!("{}\n", summary.line(&model)));
            0
        }
        Err(diags) => {
            print_diagnostics(&diags, &sources, args.short_diagnostics);
            1
        }
    }
}

fn flatten_cmd(args: &ModelArgs) -> u8 {
    let Some((model, _)) = load_model(args) else {
        return 1;
    };
    out(&model.print());
    0
}
