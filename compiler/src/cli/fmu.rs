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
    let mut f = fmu_export::fmu(&plan, flat, &settings.method, h, target, version, &source)?;
    let out = a
        .out
        .clone()
        .unwrap_or_else(|| format!("{}.fmu", f.model_identifier).into());
    // The external calls' C code, built for the target and linked into the FMU's library
    // (clib/archive.rs).
    crate::clib::objects::add_to_header(&mut f.header, &f.model_identifier.clone(), true);
    f.resources = crate::clib::objects::data_files();
    let Some(ext) = crate::clib::shim::object_source(&f.model_identifier, true) else {
        return fmu_export::write(&f, &out);
    };
    let dir = std::env::temp_dir().join(format!("rtc-fmu-ext-{}", std::process::id()));
    let _ = std::fs::create_dir_all(&dir);
    let built = crate::clib::archive::build(&f.model_identifier, &ext, target.triple, &dir);
    let result = built.and_then(|archive| {
        let archive = archive.expect("shims the step calls");
        if let Some(l) = archive.system_libs.first() {
            let r = crate::clib::shim::registered()
                .into_iter()
                .find(|r| r.runtime && r.libs.as_ref().is_some_and(|x| x.libraries.contains(l)));
            let mut d = Diagnostic::error(
                "unsupported",
                format!("not yet supported: an FMU whose external calls need the system library `{l}` (no sources or static library of it for {}), which the machines it runs on might not have", target.triple),
            )
            .help(format!("give the library's sources in its SourceDirectory or a static lib{l}.a in its LibraryDirectory's folder for the target; rtc run loads the system's"));
            if let Some(r) = r {
                d = d.at(r.span, "this external call");
            }
            return Err(Box::new(d));
        }
        let mut notes = vec![format!("note: {} (linked into the FMU)", archive.note)];
        f.c_archives.push(archive.path);
        f.c_archives.extend(archive.static_libs);
        notes.extend(fmu_export::write(&f, &out)?);
        Ok(notes)
    });
    let _ = std::fs::remove_dir_all(&dir);
    result
}
