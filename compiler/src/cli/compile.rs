//! `rtc compile`: a model as a relocatable object, a C header and a JSON description, for a
//! user's firmware or real-time program (`examples/embedded/` is the minimal harness).

use super::args::resolve;
use super::{fail, load_model, CompileArgs, MethodArgs};
use crate::diag::Diagnostic;
use crate::export;
use crate::export::{Target, TARGETS};
use crate::flat::FlatModel;
use crate::pipeline::Settings;
use std::path::Path;

fn unsupported_target(t: &str) -> Box<Diagnostic> {
    let list: Vec<&str> = TARGETS.iter().map(|t| t.triple).collect();
    Box::new(
        Diagnostic::error("command-line", format!("unsupported target `{t}`"))
            .help(format!("the supported targets are {}", list.join(", "))),
    )
}

fn write_file(path: &Path, bytes: &[u8]) -> Result<(), Box<Diagnostic>> {
    std::fs::write(path, bytes).map_err(|e| {
        Box::new(Diagnostic::error(
            "file",
            format!("cannot write {}: {e}", path.display()),
        ))
    })
}

/// What `rtc compile` and `rtc fmu` resolve alike: the method (the automatic partition
/// resolved, its note printed), the step, the target (this machine by default) and Newton.
pub(super) fn setup(
    m: &MethodArgs,
    target: Option<&str>,
    flat: &FlatModel,
) -> Result<(Settings, f64, &'static Target), Box<Diagnostic>> {
    let r = resolve(m, flat, None)?;
    for n in &r.notes {
        eprintln!("rtc: note: {n}");
    }
    for w in &r.warnings {
        eprintln!("rtc: warning: {w}");
    }
    let (settings, h) = (r.settings, r.step);
    let target = match target {
        Some(t) => Target::find(t).ok_or_else(|| unsupported_target(t))?,
        None => Target::host().ok_or_else(|| {
            unsupported_target(&format!(
                "{}-{} (this machine)",
                std::env::consts::ARCH,
                std::env::consts::OS
            ))
        })?,
    };
    Ok((settings, h, target))
}

pub fn compile(a: &CompileArgs) -> u8 {
    let Some((flat, sources)) = load_model(&a.model) else {
        return 1;
    };
    let short = a.model.short_diagnostics;
    match compile_inner(a, &flat) {
        Ok(files) => {
            for f in files {
                eprintln!("rtc: wrote {}", f.display());
            }
            0
        }
        Err(d) => fail(d, &sources, short),
    }
}

fn compile_inner(
    a: &CompileArgs,
    flat: &FlatModel,
) -> Result<Vec<std::path::PathBuf>, Box<Diagnostic>> {
    // The external functions' libraries loaded here too, for the analysis that chooses the
    // method (the object calls them on the target; a library this machine cannot build is
    // the target's to provide).
    if let Err(d) = crate::clib::provide_registered() {
        eprintln!(
            "rtc: note: the external functions are not available on this machine ({}); the method is chosen without them",
            d.message
        );
    }
    let (settings, h, target) = setup(&a.method, a.target.as_deref(), flat)?;
    if !target.pic {
        // Bare metal: the shims' support needs a C library (setjmp, stdio, malloc).
        crate::clib::shim::refuse_bare_metal()?;
    }
    let source = a.model.file.display().to_string();
    let cpu = export::Cpu::parse(a.target_cpu.as_deref().unwrap_or("baseline"));
    let files = export::object_files(flat, &settings, h, target, &cpu, a.name.as_deref(), &source)?;
    let prefix = files.prefix;
    let dir = a.out_dir.clone().unwrap_or_else(|| ".".into());
    std::fs::create_dir_all(&dir).map_err(|e| {
        Box::new(Diagnostic::error(
            "file",
            format!("cannot create {}: {e}", dir.display()),
        ))
    })?;
    let mut header = files.header;
    // External objects: made again in the object's process (clib/objects.rs).
    crate::clib::objects::add_to_header(&mut header, &prefix, false);
    let mut written = Vec::new();
    // External calls through shims: their C file, and the archive of it and the libraries'
    // C code built for the target (clib/archive.rs); the header says how to link it.
    if let Some(ext) = crate::clib::shim::object_source(&prefix, false) {
        let archive = crate::clib::archive::build(&prefix, &ext, target.triple, &dir)?
            .expect("shims the step calls");
        eprintln!("rtc: note: {}", archive.note);
        let cc = crate::clib::archive::compiler_for(target.triple);
        let comment = format!(
            "/* External C code: the step calls C functions through rtc's shims. Link the archive\n \
             * rtc compile wrote beside this header ({}):\n *   {}\n \
             * That code is the libraries': it may allocate and make system calls, and its work is\n \
             * outside the bound this header states. */\n",
            archive.note,
            archive.link_line(&cc, &prefix)
        );
        if let Some(k) = header.find(" */\n") {
            header.insert_str(k + 4, &comment);
        }
        written.push(archive.path);
        let p = dir.join(format!("{prefix}_ext.c"));
        write_file(&p, ext.as_bytes())?;
        written.push(p);
    }
    let files = vec![
        (dir.join(format!("{prefix}.o")), files.object),
        (dir.join(format!("{prefix}.h")), header.into_bytes()),
        (dir.join(format!("{prefix}.json")), files.json.into_bytes()),
    ];
    for (path, bytes) in &files {
        write_file(path, bytes)?;
    }
    let mut paths: Vec<std::path::PathBuf> = files.into_iter().map(|f| f.0).collect();
    paths.extend(written);
    Ok(paths)
}
