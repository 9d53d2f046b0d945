//! `rtc fmu`: a model as an FMI 3.0 Co-Simulation FMU (see [`crate::export::fmu`]).

use super::args::{method_of, step_of};
use super::{fail, load_model, FmuArgs};
use crate::diag::Diagnostic;
use crate::export::{fmu as fmu_export, Target};
use crate::flat::FlatModel;
use crate::pipeline;

pub fn fmu(a: &FmuArgs) -> u8 {
    let Some((flat, sources)) = load_model(&a.model) else {
        return 1;
    };
    match fmu_inner(a, &flat) {
        Ok(notes) => {
            for n in notes {
                eprintln!("rtc: {n}");
            }
            0
        }
        Err(d) => fail(d, &sources, a.model.short_diagnostics),
    }
}

fn fmu_inner(a: &FmuArgs, flat: &FlatModel) -> Result<Vec<String>, Box<Diagnostic>> {
    let version = match a.fmi {
        3 => fmu_export::Version::Fmi3,
        2 => fmu_export::Version::Fmi2,
        v => {
            return Err(Box::new(
                Diagnostic::error("command-line", format!("--fmi {v}: no such FMI version"))
                    .help("rtc writes FMI 3.0 (--fmi 3, the default) and FMI 2.0 (--fmi 2) FMUs"),
            ))
        }
    };
    let method = method_of(&a.method)?;
    let h = step_of(&a.method, flat)?;
    let (method, note) = pipeline::resolve_method(flat, method, Some(h))?;
    if let Some(n) = note {
        eprintln!("rtc: {n}");
    }
    let target = match &a.target {
        Some(t) => Target::find(t).ok_or_else(|| {
            Box::new(
                Diagnostic::error("command-line", format!("unsupported target `{t}`")).help(
                    "FMUs are built for x86_64-unknown-linux-gnu and aarch64-unknown-linux-gnu",
                ),
            )
        })?,
        None => Target::host().ok_or_else(|| {
            Box::new(Diagnostic::error(
                "command-line",
                "this machine is not an FMU target (x86_64 or AArch64 Linux)",
            ))
        })?,
    };
    let newton = pipeline::Newton {
        max_iterations: a.method.newton_iterations,
        ..pipeline::Newton::default()
    };
    let (plan, _, _) = pipeline::plan(flat, &method, newton)?;
    for n in &plan.notes {
        eprintln!("rtc: {n}");
    }
    let source = a.model.file.display().to_string();
    let f = fmu_export::fmu(&plan, flat, &method, h, target, version, &source)?;
    let out = a
        .out
        .clone()
        .unwrap_or_else(|| format!("{}.fmu", f.model_identifier).into());
    fmu_export::write(&f, &out)
}
