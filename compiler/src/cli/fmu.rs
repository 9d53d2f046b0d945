//! `rtc fmu`: a model as an FMI 3.0 Co-Simulation FMU (see [`crate::export::fmu`]).

use super::{fail, load_model, FmuArgs};
use crate::diag::Diagnostic;
use crate::export::fmu as fmu_export;
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
    crate::clib::shim::refuse_outside_the_jit("an FMU")?;
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
    let (settings, h, target) = super::compile::setup(&a.method, a.target.as_deref(), flat)?;
    let plan = pipeline::plan(flat, &settings)?.plan;
    for n in &plan.notes {
        eprintln!("rtc: {n}");
    }
    let source = a.model.file.display().to_string();
    let f = fmu_export::fmu(&plan, flat, &settings.method, h, target, version, &source)?;
    let out = a
        .out
        .clone()
        .unwrap_or_else(|| format!("{}.fmu", f.model_identifier).into());
    fmu_export::write(&f, &out)
}
