//! The `rtc` command line: arguments (`args.rs`), one file per command, and what they share:
//! reading the model file through [`crate::pipeline`], printing diagnostics, exit codes.
//!
//! Exit codes: 0 success, 1 a mistake in the model or the command line (with a diagnostic),
//! 2 a run that failed numerically (later phases).

mod analyze;
mod args;
mod check;
mod compile;
mod fmu;
mod halving;
mod plot;
mod run;

pub use args::{AnalyzeArgs, CompileArgs, FmuArgs, MethodArgs, ModelArgs, PlotArgs, RunArgs};

use crate::diag::{Diagnostic, SourceMap};
use crate::flat::FlatModel;
use crate::pipeline;
use clap::{Parser, Subcommand};
use std::io::IsTerminal;

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
    /// Export a model as an FMI 3.0 Co-Simulation FMU whose fmi3DoStep runs rtc's step.
    Fmu(FmuArgs),
    /// Draw variables of a CSV that rtc run wrote as SVG.
    Plot(PlotArgs),
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
        Command::Check(a) => check::check(&a),
        Command::Flatten(a) => check::flatten(&a),
        Command::Analyze(a) => analyze::analyze(&a),
        Command::Run(a) => run::run(&a),
        Command::Compile(a) => compile::compile(&a),
        Command::Fmu(a) => fmu::fmu(&a),
        Command::Plot(a) => plot::plot(&a),
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

// Diagnostics travel boxed through the phases; this is where they end.
#[allow(clippy::boxed_local)]
pub(crate) fn fail(d: Box<Diagnostic>, sources: &SourceMap, short: bool) -> u8 {
    print_diagnostics(&[*d], sources, short);
    1
}

/// The text of a model file (UTF-8).
fn read_model_file(path: &std::path::Path) -> Result<String, Box<Diagnostic>> {
    let bytes = std::fs::read(path).map_err(|e| {
        Box::new(Diagnostic::error(
            "file",
            format!("cannot read {}: {e}", path.display()),
        ))
    })?;
    String::from_utf8(bytes).map_err(|_| {
        Box::new(Diagnostic::error(
            "file",
            format!("{} is not UTF-8 text", path.display()),
        ))
    })
}

/// Reads, parses and flattens the model file, printing diagnostics. `None` means exit code 1.
pub(crate) fn load_model(args: &ModelArgs) -> Option<(FlatModel, SourceMap)> {
    let empty = SourceMap::new();
    let short = args.short_diagnostics;
    let params = match args::parse_params(&args.params) {
        Ok(p) => p,
        Err(d) => {
            print_diagnostics(&[*d], &empty, short);
            return None;
        }
    };
    if let Err(d) = pipeline::load_libraries(&args.links) {
        print_diagnostics(&[*d], &empty, short);
        return None;
    }
    // A qualified class name instead of a file: the class comes from the libraries.
    let as_class = args.file.to_str().filter(|s| {
        !args.file.exists()
            && !s.ends_with(".mo")
            && s.split('.').all(|p| {
                p.chars()
                    .next()
                    .is_some_and(|c| c.is_alphabetic() || c == '_')
                    && p.chars().all(|c| c.is_alphanumeric() || c == '_')
            })
    });
    let (text, model) = match as_class {
        Some(class) => {
            if args.model.is_some() {
                let d = Diagnostic::error(
                    "command-line",
                    format!("`{class}` names the class already; --model is for files"),
                );
                print_diagnostics(&[d], &empty, short);
                return None;
            }
            (String::new(), Some(class.to_string()))
        }
        None => match read_model_file(&args.file) {
            Ok(t) => (t, args.model.clone()),
            Err(d) => {
                print_diagnostics(&[*d], &empty, short);
                return None;
            }
        },
    };
    let opts = pipeline::Options {
        model,
        libs: args.libs.clone(),
        modelicapath: std::env::var("MODELICAPATH").ok(),
        params,
        inline_all: args.inline_functions,
        c_tables: args.c_tables,
    };
    let file_name = args.file.display().to_string();
    match pipeline::load(&file_name, &text, &opts) {
        Ok(loaded) => {
            print_diagnostics(&loaded.diagnostics, &loaded.sources, short);
            Some((loaded.model?, loaded.sources))
        }
        Err(pipeline::ThreadError::TooDeep) => {
            let d = Diagnostic::error(
                "too-deep",
                format!("{} is nested too deeply to compile", args.file.display()),
            );
            print_diagnostics(&[d], &empty, short);
            None
        }
        Err(pipeline::ThreadError::Panicked) => {
            eprintln!("rtc: internal error (please report it with the model that caused it)");
            std::process::exit(101);
        }
    }
}
